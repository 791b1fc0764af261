//! The language server spoken to over an in-memory pipe, with a stand-in analyzer whose
//! diagnostics are known exactly: every `XX` is an error, and (for the edit tests) one
//! extra diagnostic carries the whole text the server holds.

use std::sync::Arc;
use std::time::Duration;

use crate::common::{range, TestClient};
use ppn_ls::diagnostic::{Diagnostic, Severity};
use ppn_ls::lsp::{Analyzer, SessionEnd};
use ppn_ls::ppn::document::PpnDocument;
use serde_json::{json, Value};

/// An analyzer whose diagnostics are `diagnose`'s.
fn fake(diagnose: impl Fn(&str) -> Vec<Diagnostic> + Send + Sync + 'static) -> Analyzer {
    Arc::new(move |text: &str| PpnDocument::with_diagnostics(text.to_string(), diagnose(text)))
}

fn flag_double_x(text: &str) -> Vec<Diagnostic> {
    text.match_indices("XX")
        .map(|(at, found)| Diagnostic {
            related: Vec::new(),
            fixes: Vec::new(),
            range: at..at + found.len(),
            severity: Severity::Error,
            code: "fake-xx",
            message: "XX found".to_string(),
        })
        .collect()
}

/// Also reports the whole text, so a test can see exactly what the server holds.
fn flag_double_x_and_echo(text: &str) -> Vec<Diagnostic> {
    let mut diagnostics = flag_double_x(text);
    diagnostics.push(Diagnostic {
        related: Vec::new(),
        fixes: Vec::new(),
        range: 0..text.len(),
        severity: Severity::Information,
        code: "fake-text",
        message: text.to_string(),
    });
    diagnostics
}

fn double_x_at(start: (u32, u32), end: (u32, u32)) -> Value {
    json!({
        "range": range(start, end),
        "severity": 1,
        "code": "fake-xx",
        "source": "ppn-ls",
        "message": "XX found"
    })
}

fn replace(start: (u32, u32), end: (u32, u32), text: &str) -> Value {
    json!({ "range": range(start, end), "text": text })
}

fn echoed_text(published: &Value) -> String {
    let diagnostics = published["diagnostics"]
        .as_array()
        .expect("diagnostics are a list");
    let echoes: Vec<&Value> = diagnostics
        .iter()
        .filter(|diagnostic| diagnostic["code"] == "fake-text")
        .collect();
    assert_eq!(echoes.len(), 1, "{published}");
    echoes[0]["message"]
        .as_str()
        .expect("a message is a string")
        .to_string()
}

fn without_echo(published: &Value) -> Vec<Value> {
    published["diagnostics"]
        .as_array()
        .expect("diagnostics are a list")
        .iter()
        .filter(|diagnostic| diagnostic["code"] != "fake-text")
        .cloned()
        .collect()
}

#[tokio::test]
async fn utf8_is_negotiated_only_when_the_client_offers_it() {
    for (offered, expected) in [
        (Some(&["utf-16", "utf-8"][..]), "utf-8"),
        (Some(&["utf-8"][..]), "utf-8"),
        (Some(&["utf-32", "utf-16"][..]), "utf-16"),
        (None, "utf-16"),
    ] {
        let (client, result) = TestClient::start(offered, fake(flag_double_x)).await;
        let capabilities = &result["capabilities"];
        assert_eq!(capabilities["positionEncoding"], expected, "{offered:?}");
        assert_eq!(capabilities["textDocumentSync"]["change"], 2);
        assert_eq!(capabilities["textDocumentSync"]["openClose"], true);
        assert_eq!(capabilities["hoverProvider"], true);
        assert_eq!(result["serverInfo"]["name"], "ppn-ls");
        assert_eq!(client.shutdown_and_exit().await, SessionEnd::AfterShutdown);
    }
}

/// Astral glyphs, a combining mark, a tab and all three line ends, in both encodings.
const MIXED_TEXT: &str = "🂡 XX\r\n\te\u{301}XX\r🁣XX\n";

#[tokio::test]
async fn diagnostic_ranges_count_utf16_code_units() {
    let (mut client, _) = TestClient::start(None, fake(flag_double_x)).await;
    client.open("file:///mixed.ppn", 7, MIXED_TEXT).await;
    let published = client.diagnostics("file:///mixed.ppn").await;
    assert_eq!(
        published,
        json!({
            "uri": "file:///mixed.ppn",
            "version": 7,
            "diagnostics": [
                double_x_at((0, 3), (0, 5)),
                double_x_at((1, 3), (1, 5)),
                double_x_at((2, 2), (2, 4)),
            ]
        })
    );
    client.shutdown_and_exit().await;
}

#[tokio::test]
async fn diagnostic_ranges_count_utf8_bytes() {
    let (mut client, _) = TestClient::start(Some(&["utf-8"]), fake(flag_double_x)).await;
    client.open("file:///mixed.ppn", 1, MIXED_TEXT).await;
    let published = client.diagnostics("file:///mixed.ppn").await;
    assert_eq!(
        published["diagnostics"],
        json!([
            double_x_at((0, 5), (0, 7)),
            double_x_at((1, 4), (1, 6)),
            double_x_at((2, 4), (2, 6)),
        ])
    );
    client.shutdown_and_exit().await;
}

#[tokio::test]
async fn incremental_edits_in_utf16() {
    let (mut client, _) = TestClient::start(None, fake(flag_double_x_and_echo)).await;
    let uri = "file:///edit16.ppn";
    client.open(uri, 1, "🂡a\r\nb").await;
    client.diagnostics_of_version(uri, 1).await;
    // Each change is positioned against the text the previous one left.
    client
        .change(
            uri,
            2,
            json!([
                replace((0, 2), (0, 3), "XX"),
                replace((1, 1), (1, 1), "🁣XX"),
                replace((0, 0), (0, 0), "\t"),
            ]),
        )
        .await;
    let published = client.diagnostics_of_version(uri, 2).await;
    assert_eq!(echoed_text(&published), "\t🂡XX\r\nb🁣XX");
    assert_eq!(
        without_echo(&published),
        vec![double_x_at((0, 3), (0, 5)), double_x_at((1, 3), (1, 5))]
    );
    // Joining the lines across the CRLF.
    client
        .change(uri, 3, json!([replace((0, 5), (1, 1), "")]))
        .await;
    let published = client.diagnostics_of_version(uri, 3).await;
    assert_eq!(echoed_text(&published), "\t🂡XX🁣XX");
    assert_eq!(
        without_echo(&published),
        vec![double_x_at((0, 3), (0, 5)), double_x_at((0, 7), (0, 9))]
    );
    client.shutdown_and_exit().await;
}

#[tokio::test]
async fn incremental_edits_in_utf8() {
    let (mut client, _) = TestClient::start(Some(&["utf-8"]), fake(flag_double_x_and_echo)).await;
    let uri = "file:///edit8.ppn";
    client.open(uri, 1, "🂡a\r\nb").await;
    client.diagnostics_of_version(uri, 1).await;
    client
        .change(
            uri,
            2,
            json!([
                replace((0, 4), (0, 5), "XX"),
                replace((1, 1), (1, 1), "🁣e\u{301}XX"),
            ]),
        )
        .await;
    let published = client.diagnostics_of_version(uri, 2).await;
    assert_eq!(echoed_text(&published), "🂡XX\r\nb🁣e\u{301}XX");
    assert_eq!(
        without_echo(&published),
        vec![double_x_at((0, 4), (0, 6)), double_x_at((1, 8), (1, 10))]
    );
    client.shutdown_and_exit().await;
}

#[tokio::test]
async fn full_text_changes_replace_everything() {
    let (mut client, _) = TestClient::start(None, fake(flag_double_x_and_echo)).await;
    let uri = "file:///full.ppn";
    client.open(uri, 1, "old XX").await;
    client.diagnostics_of_version(uri, 1).await;
    client
        .change(
            uri,
            2,
            json!([{ "text": "XX\r\nnew" }, replace((1, 0), (1, 0), "XX")]),
        )
        .await;
    let published = client.diagnostics_of_version(uri, 2).await;
    assert_eq!(echoed_text(&published), "XX\r\nXXnew");
    assert_eq!(
        without_echo(&published),
        vec![double_x_at((0, 0), (0, 2)), double_x_at((1, 0), (1, 2))]
    );
    client.shutdown_and_exit().await;
}

#[tokio::test]
async fn closing_a_document_clears_its_diagnostics() {
    let (mut client, _) = TestClient::start(None, fake(flag_double_x)).await;
    let uri = "file:///closed.ppn";
    client.open(uri, 1, "XX").await;
    let published = client.diagnostics(uri).await;
    assert_eq!(
        published["diagnostics"],
        json!([double_x_at((0, 0), (0, 2))])
    );
    client
        .notify(
            "textDocument/didClose",
            json!({ "textDocument": { "uri": uri } }),
        )
        .await;
    let cleared = client.diagnostics(uri).await;
    assert_eq!(cleared, json!({ "uri": uri, "diagnostics": [] }));
    // Reopening starts afresh, even with a version number seen before.
    client.open(uri, 1, "a XX").await;
    let published = client.diagnostics(uri).await;
    assert_eq!(
        published["diagnostics"],
        json!([double_x_at((0, 2), (0, 4))])
    );
    client.shutdown_and_exit().await;
}

#[tokio::test]
async fn bad_input_is_survived_and_the_text_kept() {
    let (mut client, _) = TestClient::start(None, fake(flag_double_x_and_echo)).await;
    let uri = "file:///bad.ppn";
    client.open(uri, 1, "ab\ncd").await;
    client.diagnostics_of_version(uri, 1).await;

    // An edit to a document that is not open changes nothing and is reported.
    client
        .change(
            "file:///never-opened.ppn",
            2,
            json!([replace((0, 0), (0, 0), "XX")]),
        )
        .await;
    let warning = client
        .wait_for(|message| message["method"] == "window/logMessage")
        .await;
    assert_eq!(warning["params"]["type"], 2, "{warning}");

    // Past the end of a line, past the last line, and a reversed range.
    client
        .change(
            uri,
            2,
            json!([
                replace((0, 40), (0, 99), "!"),
                replace((9, 9), (12, 0), "?"),
                replace((1, 1), (1, 0), "_"),
            ]),
        )
        .await;
    let published = client.diagnostics_of_version(uri, 2).await;
    assert_eq!(echoed_text(&published), "ab!\n_d?");

    for (target, position) in [
        (
            "file:///never-opened.ppn",
            json!({ "line": 0, "character": 0 }),
        ),
        (uri, json!({ "line": 4000, "character": 4000 })),
        (uri, json!({ "line": 0, "character": 1 })),
    ] {
        let response = client
            .request(
                "textDocument/hover",
                json!({ "textDocument": { "uri": target }, "position": position }),
            )
            .await;
        assert_eq!(response["result"], Value::Null, "{response}");
        assert!(response.get("error").is_none(), "{response}");
    }

    // Malformed parameters get an error answer, not a dead server.
    let response = client
        .request("textDocument/hover", json!({ "textDocument": 17 }))
        .await;
    assert_eq!(response["error"]["code"], -32602, "{response}");

    // The text survived all of it.
    client
        .change(uri, 3, json!([replace((0, 0), (0, 0), "XX")]))
        .await;
    let published = client.diagnostics_of_version(uri, 3).await;
    assert_eq!(echoed_text(&published), "XXab!\n_d?");
    assert_eq!(client.shutdown_and_exit().await, SessionEnd::AfterShutdown);
}

#[tokio::test]
async fn a_panicking_analyzer_does_not_take_the_server_down() {
    let analyzer: Analyzer = fake(|text: &str| {
        assert!(!text.contains("boom"), "analyzer failure");
        flag_double_x(text)
    });
    let (mut client, _) = TestClient::start(None, analyzer).await;
    let uri = "file:///panic.ppn";
    client.open(uri, 1, "boom XX").await;
    let report = client
        .wait_for(|message| message["method"] == "window/logMessage")
        .await;
    assert_eq!(report["params"]["type"], 1, "{report}");
    client
        .change(uri, 2, json!([replace((0, 0), (0, 4), "calm")]))
        .await;
    let published = client.diagnostics_of_version(uri, 2).await;
    assert_eq!(
        published["diagnostics"],
        json!([double_x_at((0, 5), (0, 7))])
    );
    client.shutdown_and_exit().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_during_a_slow_analysis_do_not_stop_its_publication() {
    let analyzer: Analyzer = fake(|text: &str| {
        std::thread::sleep(Duration::from_millis(50));
        flag_double_x(text)
    });
    let (mut client, _) = TestClient::start(None, analyzer).await;
    let uri = "file:///slow.ppn";
    client.open(uri, 1, "XX").await;
    client
        .change(uri, 2, json!([replace((0, 0), (0, 0), "🂡")]))
        .await;
    let hover = client
        .request(
            "textDocument/hover",
            json!({ "textDocument": { "uri": uri }, "position": { "line": 0, "character": 2 } }),
        )
        .await;
    assert_eq!(hover["result"], Value::Null, "{hover}");
    let published = client.diagnostics_of_version(uri, 2).await;
    assert_eq!(
        published["diagnostics"],
        json!([double_x_at((0, 2), (0, 4))])
    );
    client.shutdown_and_exit().await;
}

#[tokio::test]
async fn exit_without_shutdown_is_an_unclean_end() {
    let (mut client, _) = TestClient::start(None, fake(flag_double_x)).await;
    client.notify("exit", Value::Null).await;
    assert_eq!(client.finish().await, SessionEnd::WithoutShutdown);
}

/// Small deterministic generator, so a failing sequence can be replayed from its seed.
struct Prng(u64);

impl Prng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, bound: usize) -> usize {
        (self.next() % bound as u64) as usize
    }
}

#[derive(Clone, Copy)]
enum Encoding {
    Utf8,
    Utf16,
}

/// A place in the model text: its byte offset and its LSP line and column.
#[derive(Clone, Copy, Debug)]
struct Point {
    offset: usize,
    line: u32,
    character: u32,
}

/// Every position a client can name in `text`: each character boundary except the one
/// inside a `\r\n`, counted independently of the server's own code.
fn points(text: &str, encoding: Encoding) -> Vec<Point> {
    let mut points = Vec::new();
    let (mut line, mut character) = (0u32, 0u32);
    let mut after_carriage_return = false;
    for (offset, ch) in text.char_indices() {
        let inside_crlf = after_carriage_return && ch == '\n';
        if !inside_crlf {
            if after_carriage_return {
                line += 1;
                character = 0;
            }
            points.push(Point {
                offset,
                line,
                character,
            });
        }
        after_carriage_return = false;
        match ch {
            '\n' => {
                line += 1;
                character = 0;
            }
            '\r' => after_carriage_return = true,
            _ => {
                character += match encoding {
                    Encoding::Utf8 => ch.len_utf8() as u32,
                    Encoding::Utf16 => ch.len_utf16() as u32,
                }
            }
        }
    }
    if after_carriage_return {
        line += 1;
        character = 0;
    }
    points.push(Point {
        offset: text.len(),
        line,
        character,
    });
    points
}

/// A position to send, and the byte offset the server must take it to mean. Some point
/// past the end of their line or of the text, which means the end of either.
fn random_position(prng: &mut Prng, points: &[Point]) -> (Value, usize) {
    let point = points[prng.below(points.len())];
    let line_end = points
        .iter()
        .filter(|other| other.line == point.line)
        .max_by_key(|other| other.character)
        .copied()
        .unwrap_or(point);
    match prng.below(10) {
        0 => (
            json!({ "line": point.line, "character": line_end.character + 3 }),
            line_end.offset,
        ),
        1 => {
            let last = points[points.len() - 1];
            (
                json!({ "line": last.line + 1 + prng.below(3) as u32, "character": prng.below(5) }),
                last.offset,
            )
        }
        _ => (
            json!({ "line": point.line, "character": point.character }),
            point.offset,
        ),
    }
}

const PIECES: &[&str] = &[
    "a", "X", "XX", "🂡", "🁣", "e\u{301}", "\r\n", "\r", "\n", "\t", " ", "1. S@b2",
];

fn random_insert(prng: &mut Prng) -> String {
    (0..prng.below(4))
        .map(|_| PIECES[prng.below(PIECES.len())])
        .collect()
}

/// One random content change, applied to `model` the way the server must apply it.
fn random_change(prng: &mut Prng, model: &mut String, encoding: Encoding) -> Value {
    let inserted = random_insert(prng);
    if prng.below(25) == 0 {
        *model = inserted.clone();
        return json!({ "text": inserted });
    }
    let points = points(model, encoding);
    let (start, start_offset) = random_position(prng, &points);
    let (end, end_offset) = if prng.below(3) == 0 {
        (start.clone(), start_offset)
    } else {
        random_position(prng, &points)
    };
    let (start, start_offset, end, end_offset) = if end_offset < start_offset {
        (end, end_offset, start, start_offset)
    } else {
        (start, start_offset, end, end_offset)
    };
    model.replace_range(start_offset..end_offset, &inserted);
    json!({ "range": { "start": start, "end": end }, "text": inserted })
}

async fn check_random_edits(encoding: Encoding, seeds: std::ops::Range<u64>) {
    let offered: Option<&[&str]> = match encoding {
        Encoding::Utf8 => Some(&["utf-8", "utf-16"]),
        Encoding::Utf16 => Some(&["utf-16"]),
    };
    // Slow enough that analyses overlap with the edits that follow them.
    let analyzer: Analyzer = fake(|text: &str| {
        std::thread::sleep(Duration::from_micros(300));
        flag_double_x_and_echo(text)
    });
    let (mut client, _) = TestClient::start(offered, analyzer).await;
    for seed in seeds {
        let mut prng = Prng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
        let uri = format!("file:///random-{seed}.ppn");
        let mut model: String = random_insert(&mut prng) + &random_insert(&mut prng);
        client.open(&uri, 0, &model).await;
        let edits = 1 + prng.below(30) as i64;
        for version in 1..=edits {
            let changes: Vec<Value> = (0..1 + prng.below(3))
                .map(|_| random_change(&mut prng, &mut model, encoding))
                .collect();
            client.change(&uri, version, Value::Array(changes)).await;
        }
        let edited = client.diagnostics_of_version(&uri, edits).await;
        assert_eq!(echoed_text(&edited), model, "seed {seed}");

        let fresh_uri = format!("file:///fresh-{seed}.ppn");
        client.open(&fresh_uri, edits, &model).await;
        let fresh = client.diagnostics_of_version(&fresh_uri, edits).await;
        assert_eq!(edited["diagnostics"], fresh["diagnostics"], "seed {seed}");
        for closed in [uri, fresh_uri] {
            client
                .notify(
                    "textDocument/didClose",
                    json!({ "textDocument": { "uri": closed } }),
                )
                .await;
        }
    }
    client.shutdown_and_exit().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn random_utf16_edits_match_a_string_and_a_fresh_open() {
    check_random_edits(Encoding::Utf16, 0..60).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn random_utf8_edits_match_a_string_and_a_fresh_open() {
    check_random_edits(Encoding::Utf8, 1000..1060).await;
}
