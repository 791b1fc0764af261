//! The language server under a hostile or careless client, over an in-memory pipe:
//! malformed frames, `$/` requests, bursts of requests during an analysis, panics in an
//! analysis or a handler, huge documents. Whatever happens, the server answers what it
//! must and goes on serving.

use std::io;
use std::ops::Range;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use crate::common::TestClient;
use ppn_ls::diagnostic::{Diagnostic, Severity};
use ppn_ls::lsp::{Analyzer, SessionEnd, MOST_DIAGNOSTICS_SHOWN};
use ppn_ls::model::edit::TextEdit;
use ppn_ls::model::features::{Fold, Symbol};
use ppn_ls::model::format::Format;
use ppn_ls::model::line_index::LineIndex;
use ppn_ls::model::notation_document::{
    GameSummary, LineState, MoveAt, NotationDocument, NotationHover, StateRef,
};
use ppn_ls::model::scene::Scene;
use ppn_ls::ppn::document::PpnDocument;
use serde_json::{json, Value};

/// Every `XX` of the text is an error.
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

/// A document that is its text and its `XX` errors, and nothing else: cheap to build
/// for a text of any size, so the time goes to the protocol.
#[derive(Debug)]
struct Flagged {
    text: String,
    line_index: LineIndex,
    diagnostics: Vec<Diagnostic>,
}

impl Flagged {
    fn new(text: &str) -> Flagged {
        Flagged {
            line_index: LineIndex::new(text),
            diagnostics: flag_double_x(text),
            text: text.to_string(),
        }
    }
}

impl NotationDocument for Flagged {
    fn format(&self) -> Format {
        Format::Ppn
    }
    fn text(&self) -> &str {
        &self.text
    }
    fn line_index(&self) -> &LineIndex {
        &self.line_index
    }
    fn update(&self, text: String, _: &TextEdit) -> Box<dyn NotationDocument> {
        Box::new(Flagged::new(&text))
    }
    fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }
    fn games(&self) -> Vec<GameSummary> {
        Vec::new()
    }
    fn main_line(&self, _: usize) -> Vec<LineState> {
        Vec::new()
    }
    fn move_at(&self, _: usize, _: bool) -> Option<MoveAt> {
        None
    }
    fn scene(&self, _: StateRef) -> Option<Scene> {
        None
    }
    fn symbols(&self) -> Vec<Symbol> {
        Vec::new()
    }
    fn folds(&self) -> Vec<Fold> {
        Vec::new()
    }
    fn hover(&self, _: usize) -> Option<NotationHover> {
        None
    }
    fn write_replay_json(
        &self,
        _: &str,
        _: Option<&[StateRef]>,
        _: &mut dyn io::Write,
    ) -> io::Result<()> {
        Ok(())
    }
}

fn quick() -> Analyzer {
    Arc::new(Flagged::new)
}

fn frame(body: &[u8]) -> Vec<u8> {
    let mut framed = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    framed.extend_from_slice(body);
    framed
}

fn hover_params(uri: &str) -> Value {
    json!({ "textDocument": { "uri": uri }, "position": { "line": 0, "character": 1 } })
}

/// The server still answers a request, and with what it knows of `uri`.
async fn still_serves(client: &mut TestClient, uri: &str) {
    let response = client
        .request(
            "textDocument/documentSymbol",
            json!({ "textDocument": { "uri": uri } }),
        )
        .await;
    assert!(response["result"].is_array(), "{response}");
}

#[tokio::test]
async fn malformed_frames_are_answered_skipped_and_the_session_goes_on() {
    let (mut client, _) = TestClient::start(None, quick()).await;
    let uri = "file:///frames.ppn";
    client.open(uri, 1, "aXX").await;
    client.diagnostics(uri).await;
    let request = |id: i64, extra: &str| {
        format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"textDocument/hover","params":{{"textDocument":{{"uri":"{uri}"}},"position":{{"line":0,"character":1}}}}{extra}}}"#
        )
    };
    // Each case: the bytes sent, the error code answered and the id it is answered with.
    let cases: Vec<(Vec<u8>, i64, Value)> = vec![
        (
            b"Content-Length: 12x\r\n\r\n{}".to_vec(),
            -32700,
            Value::Null,
        ),
        (
            b"Content-Type: application/json\r\n\r\n{}".to_vec(),
            -32700,
            Value::Null,
        ),
        (
            b"Content-Length: 99999999999\r\n\r\n{}".to_vec(),
            -32700,
            Value::Null,
        ),
        (
            b"Content-Length: 4\r\nno header\r\n\r\n{}{}".to_vec(),
            -32700,
            Value::Null,
        ),
        (
            frame(b"{\"jsonrpc\": \"2.0\", \"id\": 5, \"method\""),
            -32700,
            Value::Null,
        ),
        (
            frame(b"{\"jsonrpc\":\"2.0\",\"method\":\"\xc3\x28\"}"),
            -32700,
            Value::Null,
        ),
        (frame(b"[]"), -32600, Value::Null),
        (
            frame(b"[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"shutdown\"}]"),
            -32600,
            Value::Null,
        ),
        (frame(b"\"hello\""), -32600, Value::Null),
        (
            frame(
                request(0, "")
                    .replace("\"id\":0", "\"id\":{\"a\":1}")
                    .as_bytes(),
            ),
            -32600,
            Value::Null,
        ),
        (
            frame(request(41, "").replace("\"2.0\"", "\"1.0\"").as_bytes()),
            -32600,
            json!(41),
        ),
        (
            frame(br#"{"jsonrpc":"2.0","id":42,"method":7}"#),
            -32600,
            json!(42),
        ),
        (frame(br#"{"jsonrpc":"2.0","id":43}"#), -32600, json!(43)),
        (
            frame(br#"{"jsonrpc":"2.0","id":44,"method":"$/ppn/unknown"}"#),
            -32601,
            json!(44),
        ),
    ];
    for (index, (bytes, code, id)) in cases.into_iter().enumerate() {
        client.send_raw(&bytes).await;
        let answer = client
            .wait_for(|message| message.get("error").is_some() && message["id"] == id)
            .await;
        assert_eq!(answer["error"]["code"], code, "case {index}: {answer}");
        assert_eq!(answer["jsonrpc"], "2.0");
        // The frame after a bad one is read as usual.
        let id = 1000 + index as i64;
        client.send_raw(&frame(request(id, "").as_bytes())).await;
        let hover = client
            .wait_for(|message| message["id"] == json!(id) && message.get("method").is_none())
            .await;
        assert!(hover.get("error").is_none(), "case {index}: {hover}");
    }
    // Garbage that holds no header at all is skipped up to the next frame.
    client.send_raw(&vec![b'%'; 100_000]).await;
    still_serves(&mut client, uri).await;
    assert_eq!(client.shutdown_and_exit().await, SessionEnd::AfterShutdown);
}

#[tokio::test]
async fn dollar_requests_get_method_not_found_and_dollar_notifications_nothing() {
    let (mut client, _) = TestClient::start(None, quick()).await;
    client.notify("$/setTrace", json!({ "value": "off" })).await;
    let response = client.request("$/ppn/status", json!({})).await;
    assert_eq!(response["error"]["code"], -32601, "{response}");
    // A `$/` notification has no answer: the next message is the next request's.
    let response = client.request("$/another", Value::Null).await;
    assert_eq!(response["error"]["code"], -32601, "{response}");
    client.shutdown_and_exit().await;
}

/// Counts its analyses and takes its time, like a long game does.
fn slow_counting(analyses: Arc<AtomicUsize>, delay: Duration) -> Analyzer {
    Arc::new(move |text: &str| {
        analyses.fetch_add(1, Ordering::SeqCst);
        std::thread::sleep(delay);
        Flagged::new(text)
    })
}

#[tokio::test]
async fn requests_during_an_analysis_wait_for_it_instead_of_starting_their_own() {
    let analyses = Arc::new(AtomicUsize::new(0));
    let analyzer = slow_counting(analyses.clone(), Duration::from_millis(300));
    let (mut client, _) = TestClient::start(None, analyzer).await;
    let uri = "file:///burst.ppn";
    client.open(uri, 1, "aXX").await;
    let mut ids = Vec::new();
    for _ in 0..4 {
        ids.push(client.request_id());
        let id = *ids.last().expect("just pushed");
        client
            .send(json!({ "jsonrpc": "2.0", "id": id, "method": "textDocument/hover", "params": hover_params(uri) }))
            .await;
    }
    for id in ids {
        let response = client
            .wait_for(|message| message["id"] == json!(id) && message.get("method").is_none())
            .await;
        assert!(response.get("error").is_none(), "{response}");
    }
    client.diagnostics(uri).await;
    assert_eq!(analyses.load(Ordering::SeqCst), 1);
    client.shutdown_and_exit().await;
}

#[tokio::test]
async fn a_request_whose_text_changes_before_its_analysis_gets_content_modified() {
    let analyses = Arc::new(AtomicUsize::new(0));
    let analyzer = slow_counting(analyses.clone(), Duration::from_millis(300));
    let (mut client, _) = TestClient::start(None, analyzer).await;
    let uri = "file:///moving.ppn";
    client.open(uri, 1, "aXX").await;
    let id = client.request_id();
    client
        .send(json!({ "jsonrpc": "2.0", "id": id, "method": "textDocument/hover", "params": hover_params(uri) }))
        .await;
    client.change(uri, 2, json!([{ "text": "bXX" }])).await;
    let response = client
        .wait_for(|message| message["id"] == json!(id) && message.get("method").is_none())
        .await;
    assert_eq!(response["error"]["code"], -32801, "{response}");
    let published = client.diagnostics_of_version(uri, 2).await;
    assert_eq!(published["diagnostics"].as_array().map(Vec::len), Some(1));
    client.shutdown_and_exit().await;
}

#[tokio::test]
async fn a_panicking_analysis_is_logged_and_the_document_still_answers() {
    let analyzer: Analyzer = Arc::new(|text: &str| {
        if text.contains("boom") {
            panic!("the analyzer blew up");
        }
        Flagged::new(text)
    });
    let (mut client, _) = TestClient::start(None, analyzer).await;
    let uri = "file:///boom.ppn";
    client.open(uri, 1, "boom").await;
    let logged = client
        .wait_for(|message| message["method"] == "window/logMessage")
        .await;
    assert!(
        logged["params"]["message"]
            .as_str()
            .is_some_and(|message| message.contains("boom.ppn")),
        "{logged}"
    );
    // No analysis to answer from: an empty answer, not a hang.
    let response = client
        .request("textDocument/hover", hover_params(uri))
        .await;
    assert_eq!(response["result"], Value::Null, "{response}");
    // An edit brings the document back.
    client.change(uri, 2, json!([{ "text": "fine XX" }])).await;
    let published = client.diagnostics_of_version(uri, 2).await;
    assert_eq!(published["diagnostics"][0]["code"], "fake-xx");
    client.shutdown_and_exit().await;
}

/// A document whose hover panics; everything else is its analysis's.
#[derive(Debug)]
struct PanicsOnHover(PpnDocument);

impl NotationDocument for PanicsOnHover {
    fn format(&self) -> Format {
        self.0.format()
    }
    fn text(&self) -> &str {
        self.0.text()
    }
    fn line_index(&self) -> &LineIndex {
        self.0.line_index()
    }
    fn update(&self, text: String, _: &TextEdit) -> Box<dyn NotationDocument> {
        Box::new(PanicsOnHover(PpnDocument::with_diagnostics(
            text,
            Vec::new(),
        )))
    }
    fn diagnostics(&self) -> &[Diagnostic] {
        self.0.diagnostics()
    }
    fn games(&self) -> Vec<GameSummary> {
        self.0.games()
    }
    fn main_line(&self, game: usize) -> Vec<LineState> {
        self.0.main_line(game)
    }
    fn move_at(&self, offset: usize, or_before: bool) -> Option<MoveAt> {
        self.0.move_at(offset, or_before)
    }
    fn scene(&self, state: StateRef) -> Option<Scene> {
        self.0.scene(state)
    }
    fn symbols(&self) -> Vec<Symbol> {
        self.0.symbols()
    }
    fn folds(&self) -> Vec<Fold> {
        self.0.folds()
    }
    fn hover(&self, offset: usize) -> Option<NotationHover> {
        panic!("hover at {offset} blew up")
    }
    fn write_replay_json(
        &self,
        file: &str,
        only: Option<&[StateRef]>,
        out: &mut dyn io::Write,
    ) -> io::Result<()> {
        self.0.write_replay_json(file, only, out)
    }
}

#[tokio::test]
async fn a_panicking_handler_answers_an_internal_error_and_the_server_goes_on() {
    let analyzer: Analyzer = Arc::new(|text: &str| {
        PanicsOnHover(PpnDocument::with_diagnostics(text.to_string(), Vec::new()))
    });
    let (mut client, _) = TestClient::start(None, analyzer).await;
    let uri = "file:///hover.ppn";
    client.open(uri, 1, "1. S@a1").await;
    client.diagnostics(uri).await;
    for _ in 0..3 {
        let response = client
            .request("textDocument/hover", hover_params(uri))
            .await;
        assert_eq!(response["error"]["code"], -32603, "{response}");
        assert!(
            response["error"]["message"]
                .as_str()
                .is_some_and(
                    |message| message.contains("textDocument/hover") && message.contains("blew up")
                ),
            "{response}"
        );
        still_serves(&mut client, uri).await;
    }
    assert_eq!(client.shutdown_and_exit().await, SessionEnd::AfterShutdown);
}

/// How many diagnostics the editor is sent for a document with `problems`: all of them, or
/// the most sent and a note on the others.
fn published_count(problems: usize) -> usize {
    if problems > MOST_DIAGNOSTICS_SHOWN {
        MOST_DIAGNOSTICS_SHOWN + 1
    } else {
        problems
    }
}

#[tokio::test]
async fn bursts_of_edits_and_requests_are_all_answered_in_order() {
    let (mut client, _) = TestClient::start(None, quick()).await;
    let uri = "file:///burst.ppn";
    client.open(uri, 0, "").await;
    let mut ids = Vec::new();
    for version in 1..=300i64 {
        client
            .change(
                uri,
                version,
                json!([{ "range": crate::common::range((0, 0), (0, 0)), "text": "XX " }]),
            )
            .await;
        let id = client.request_id();
        ids.push(id);
        let method = [
            "textDocument/hover",
            "textDocument/documentSymbol",
            "textDocument/foldingRange",
        ][version as usize % 3];
        let params = match method {
            "textDocument/hover" => hover_params(uri),
            _ => json!({ "textDocument": { "uri": uri } }),
        };
        client
            .send(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }))
            .await;
        if version % 50 == 0 {
            // Now and then a bad frame among them.
            client.send_raw(b"Content-Length: nope\r\n\r\n").await;
        }
    }
    for id in ids {
        let response = client
            .wait_for(|message| message["id"] == json!(id) && message.get("method").is_none())
            .await;
        // A request overtaken by the next edit may say so; none may fail otherwise.
        if let Some(error) = response.get("error") {
            assert_eq!(error["code"], -32801, "{response}");
        }
    }
    let published = client.diagnostics_of_version(uri, 300).await;
    assert_eq!(
        published["diagnostics"].as_array().map(Vec::len),
        Some(published_count(300))
    );
    assert_eq!(client.shutdown_and_exit().await, SessionEnd::AfterShutdown);
}

#[tokio::test]
async fn a_huge_document_is_opened_edited_and_closed() {
    let (mut client, _) = TestClient::start(Some(&["utf-8"]), quick()).await;
    let uri = "file:///huge.ppn";
    // 200,000 lines, every thousandth with an error: over 20 MB.
    let plain = format!("{}\n", "1. S@a1 ".repeat(13));
    let block = format!("{}{}XX\n", plain.repeat(999), "1. S@a1 ".repeat(12));
    let text = block.repeat(200);
    assert!(text.len() > 20_000_000);
    client.open(uri, 1, &text).await;
    let published = client.diagnostics(uri).await;
    assert_eq!(
        published["diagnostics"].as_array().map(Vec::len),
        Some(published_count(200))
    );
    // The errors are sent in document order: the last one sent is on the last of its lines.
    let last_sent = MOST_DIAGNOSTICS_SHOWN.min(200);
    assert_eq!(
        published["diagnostics"][last_sent - 1]["range"]["start"]["line"],
        last_sent * 1_000 - 1
    );
    // Delete the last line, with its error.
    let last: Range<u32> = 199_999..200_000;
    client
        .change(
            uri,
            2,
            json!([{ "range": crate::common::range((last.start, 0), (last.end, 0)), "text": "" }]),
        )
        .await;
    let published = client.diagnostics_of_version(uri, 2).await;
    assert_eq!(
        published["diagnostics"].as_array().map(Vec::len),
        Some(published_count(199))
    );
    if 199 > MOST_DIAGNOSTICS_SHOWN {
        let note = &published["diagnostics"][MOST_DIAGNOSTICS_SHOWN]["message"];
        assert!(
            note.as_str()
                .is_some_and(|note| note.contains("the document's 199 problems")),
            "{note}"
        );
    }
    still_serves(&mut client, uri).await;
    client
        .notify(
            "textDocument/didClose",
            json!({ "textDocument": { "uri": uri } }),
        )
        .await;
    assert_eq!(client.shutdown_and_exit().await, SessionEnd::AfterShutdown);
}

#[tokio::test]
async fn hostile_documents_are_analysed_and_every_request_about_them_answered() {
    let analyzer: Analyzer = Arc::new(ppn_ls::lsp::IncrementalAnalyzer::default());
    let (mut client, _) = TestClient::start(None, analyzer).await;
    let documents = [
        (
            format!("---\n...\n1. {}\n", "{".repeat(20)),
            "unclosed-comment",
        ),
        (
            format!("---\n...\n1. S@{{1..9999}}{} 2. S@a1\n", "a".repeat(5_000)),
            "brace-expansion",
        ),
        (
            format!(
                "---\n...\n1. S@{}x{}\n",
                "{a,".repeat(2_000),
                "}".repeat(2_000)
            ),
            "bad-location",
        ),
        (
            format!(
                "---\n...\n1. S@{}a,b{}\n",
                "{".repeat(20_000),
                "}".repeat(20_000)
            ),
            "brace-expansion",
        ),
    ];
    for (index, (text, code)) in documents.iter().enumerate() {
        let uri = format!("file:///hostile-{index}.ppn");
        client.open(&uri, 1, text).await;
        let published = client.diagnostics(&uri).await;
        let codes: Vec<&str> = published["diagnostics"]
            .as_array()
            .expect("a list")
            .iter()
            .filter_map(|diagnostic| diagnostic["code"].as_str())
            .collect();
        assert!(codes.contains(code), "{index}: {codes:?}");
        let document = json!({ "uri": uri });
        let whole = crate::common::range((0, 0), (4, 0));
        for (method, params) in [
            (
                "textDocument/documentSymbol",
                json!({ "textDocument": document }),
            ),
            (
                "textDocument/foldingRange",
                json!({ "textDocument": document }),
            ),
            (
                "textDocument/semanticTokens/full",
                json!({ "textDocument": document }),
            ),
            (
                "textDocument/inlayHint",
                json!({ "textDocument": document, "range": whole }),
            ),
            (
                "textDocument/codeAction",
                json!({ "textDocument": document, "range": whole, "context": { "diagnostics": [] } }),
            ),
            (
                "textDocument/hover",
                json!({ "textDocument": document, "position": { "line": 2, "character": 6 } }),
            ),
            (
                "textDocument/completion",
                json!({ "textDocument": document, "position": { "line": 2, "character": 5 } }),
            ),
            (
                "ppn/boardAt",
                json!({ "textDocument": document, "position": { "line": 2, "character": 4 } }),
            ),
        ] {
            let response = client.request(method, params).await;
            assert!(
                response.get("error").is_none(),
                "{index} {method}: {response}"
            );
        }
    }
    assert_eq!(client.shutdown_and_exit().await, SessionEnd::AfterShutdown);
}

#[tokio::test]
async fn a_document_over_the_size_limit_gets_its_diagnostics_and_a_note_only() {
    let analyzer: Analyzer = Arc::new(ppn_ls::lsp::IncrementalAnalyzer { max_bytes: 2_000 });
    let (mut client, _) = TestClient::start(None, analyzer).await;
    let uri = "file:///large.ppn";
    let game = "---\nGameType: Chess\n...\n1. e2-e4 e7-e5 2. a3-a4\n";
    let hover_on_e4 = json!({
        "textDocument": { "uri": uri },
        "position": { "line": 3, "character": 4 },
    });
    let codes = |published: &Value| -> Vec<String> {
        published["diagnostics"]
            .as_array()
            .expect("a list")
            .iter()
            .filter_map(|diagnostic| diagnostic["code"].as_str().map(str::to_string))
            .collect()
    };

    client.open(uri, 1, &game.repeat(60)).await;
    let published = client.diagnostics_of_version(uri, 1).await;
    let found = codes(&published);
    assert_eq!(found[0], "large-document");
    assert_eq!(published["diagnostics"][0]["severity"], 3);
    assert_eq!(found.iter().filter(|code| *code == "no-piece").count(), 60);
    let hover = client
        .request("textDocument/hover", hover_on_e4.clone())
        .await;
    assert!(hover["result"].is_null(), "{hover}");

    // Cut down to two games: the full analysis again, hover included.
    let kept = game.repeat(2);
    client
        .change(
            uri,
            2,
            json!([{ "range": crate::common::range((8, 0), (240, 0)), "text": "" }]),
        )
        .await;
    let published = client.diagnostics_of_version(uri, 2).await;
    assert_eq!(codes(&published), ["no-piece", "no-piece"], "{kept}");
    let hover = client.request("textDocument/hover", hover_on_e4).await;
    assert!(hover["result"]["contents"].is_object(), "{hover}");
    assert_eq!(client.shutdown_and_exit().await, SessionEnd::AfterShutdown);
}
