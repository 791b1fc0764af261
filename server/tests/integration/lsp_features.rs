//! Editor features through the language server, with the real analysis, in both position
//! encodings, on lines where astral glyphs (two UTF-16 units, four UTF-8 bytes) come before
//! the positions asked about.

use std::sync::Arc;

use crate::common::TestClient;
use ppn_ls::lsp::{Analyzer, SessionEnd, MOST_DIAGNOSTICS_SHOWN};
use ppn_ls::ppn::document::PpnDocument;
use serde_json::{json, Value};

const URI: &str = "file:///features.ppn";

const TEXT: &str = "---\nEvent: 🂡 cup\nMacros:\n  home: S@a1\n...\n\
1. 🂡@b2 `home' 2. t@{b,d}2 🁣@c3 {a 🂡\nlong comment} 3. b2-c4\n";

#[derive(Clone, Copy, Debug)]
enum Encoding {
    Utf16,
    Utf8,
}

impl Encoding {
    const BOTH: [Encoding; 2] = [Encoding::Utf16, Encoding::Utf8];

    fn offered(self) -> Option<&'static [&'static str]> {
        match self {
            Encoding::Utf16 => None,
            Encoding::Utf8 => Some(&["utf-8"]),
        }
    }

    fn units(self, text: &str) -> u32 {
        let count = match self {
            Encoding::Utf16 => text.encode_utf16().count(),
            Encoding::Utf8 => text.len(),
        };
        u32::try_from(count).expect("a short test text")
    }

    /// The position of a byte offset of `text` (which only ends lines with `\n`).
    fn position(self, text: &str, offset: usize) -> (u32, u32) {
        let before = &text[..offset];
        let line = before.matches('\n').count();
        let line_start = before.rfind('\n').map_or(0, |at| at + 1);
        (
            u32::try_from(line).expect("a short test text"),
            self.units(&before[line_start..]),
        )
    }

    fn json_position(self, text: &str, offset: usize) -> Value {
        let (line, character) = self.position(text, offset);
        json!({ "line": line, "character": character })
    }

    fn json_range(self, text: &str, start: usize, end: usize) -> Value {
        json!({
            "start": self.json_position(text, start),
            "end": self.json_position(text, end),
        })
    }
}

fn analyzer() -> Analyzer {
    Arc::new(|text: &str| PpnDocument::new(text.to_string()))
}

/// Byte offset of the `n`th (zero-based) `needle` in `TEXT`.
fn nth(needle: &str, n: usize) -> usize {
    TEXT.match_indices(needle)
        .nth(n)
        .map(|(at, _)| at)
        .unwrap_or_else(|| panic!("no {needle:?} number {n}"))
}

async fn open(encoding: Encoding) -> TestClient {
    let (mut client, result) = TestClient::start(encoding.offered(), analyzer()).await;
    let capabilities = &result["capabilities"];
    for provider in [
        "hoverProvider",
        "inlayHintProvider",
        "documentSymbolProvider",
        "foldingRangeProvider",
        "definitionProvider",
        "referencesProvider",
        "codeActionProvider",
    ] {
        assert_eq!(capabilities[provider], true, "{provider}: {capabilities}");
    }
    assert_eq!(
        capabilities["completionProvider"]["triggerCharacters"],
        json!(["`"])
    );
    assert_eq!(
        capabilities["semanticTokensProvider"]["legend"]["tokenTypes"],
        json!([
            "comment",
            "number",
            "operator",
            "type",
            "variable",
            "macro",
            "string",
            "property",
            "keyword",
            "enumMember"
        ])
    );
    client.open(URI, 1, TEXT).await;
    client
}

fn at(encoding: Encoding, offset: usize) -> Value {
    json!({
        "textDocument": { "uri": URI },
        "position": encoding.json_position(TEXT, offset),
    })
}

async fn result(client: &mut TestClient, method: &str, params: Value) -> Value {
    let response = client.request(method, params).await;
    assert!(response.get("error").is_none(), "{method}: {response}");
    response["result"].clone()
}

#[tokio::test]
async fn hover_on_a_piece_id_after_astral_glyphs() {
    for encoding in Encoding::BOTH {
        let mut client = open(encoding).await;
        let b2 = nth("b2-c4", 0);
        let hover = result(&mut client, "textDocument/hover", at(encoding, b2 + 1)).await;
        assert_eq!(
            hover["range"],
            encoding.json_range(TEXT, b2, b2 + 2),
            "{encoding:?}"
        );
        assert_eq!(hover["contents"]["kind"], "markdown");
        let value = hover["contents"]["value"].as_str().unwrap_or_default();
        assert!(
            value.starts_with(
                "**PieceId** `b2` names 1 piece here:\n\n- null of Suns tile, back up at b2\n\n\
                 **Board before 3.**\n\n```text\n"
            ),
            "{value}"
        );
        assert!(value.ends_with("```\nMarked: b2"), "{value}");
        // On the MoveNumber: the board after the move, with its changes.
        let three = nth("3. b2", 0);
        let hover = result(&mut client, "textDocument/hover", at(encoding, three)).await;
        assert_eq!(
            hover["range"],
            encoding.json_range(TEXT, three, three + "3. b2-c4".len())
        );
        let markdown = hover["contents"]["value"].as_str().unwrap_or_default();
        assert!(
            markdown.starts_with(
                "**Move 3.** `b2-c4`\n\n- Moved null of Suns tile, back up from b2 to c4\n"
            ),
            "{markdown}"
        );
        let nothing = result(
            &mut client,
            "textDocument/hover",
            at(encoding, nth(" 3.", 0)),
        )
        .await;
        assert_eq!(nothing, Value::Null);
        assert_eq!(client.shutdown_and_exit().await, SessionEnd::AfterShutdown);
    }
}

#[tokio::test]
async fn completion_of_a_macro_after_astral_glyphs() {
    let text = "---\nMacros:\n  home: S@a1\n...\n1. 🂡@b2 `ho 2. 🁣@c3\n";
    let cursor = text.find("`ho").unwrap_or_default() + 3;
    for encoding in Encoding::BOTH {
        let (mut client, _) = TestClient::start(encoding.offered(), analyzer()).await;
        client.open(URI, 1, text).await;
        let params = json!({
            "textDocument": { "uri": URI },
            "position": encoding.json_position(text, cursor),
        });
        let items = result(&mut client, "textDocument/completion", params).await;
        let items = items.as_array().cloned().unwrap_or_default();
        let home = items
            .iter()
            .find(|item| item["label"] == "home")
            .unwrap_or_else(|| panic!("no `home` among {items:?}"));
        assert_eq!(home["detail"], "S@a1");
        assert_eq!(home["textEdit"]["newText"], "home'");
        assert_eq!(
            home["textEdit"]["range"],
            encoding.json_range(text, cursor - 2, cursor),
            "{encoding:?}"
        );
        assert!(items.iter().any(|item| item["label"] == "q"));
        assert_eq!(client.shutdown_and_exit().await, SessionEnd::AfterShutdown);
    }
}

#[tokio::test]
async fn inlay_hints_for_braces_and_macros_in_the_range() {
    for encoding in Encoding::BOTH {
        let mut client = open(encoding).await;
        let whole = json!({
            "textDocument": { "uri": URI },
            "range": encoding.json_range(TEXT, 0, TEXT.len()),
        });
        let hints = result(&mut client, "textDocument/inlayHint", whole).await;
        let home_end = nth("`home'", 0) + "`home'".len();
        let braces_end = nth("t@{b,d}2", 0) + "t@{b,d}2".len();
        assert_eq!(
            hints,
            json!([
                {
                    "position": encoding.json_position(TEXT, home_end),
                    "label": "= S@a1",
                    "paddingLeft": true
                },
                {
                    "position": encoding.json_position(TEXT, braces_end),
                    "label": "→ t@b2 t@d2",
                    "paddingLeft": true
                }
            ]),
            "{encoding:?}"
        );
        let second_half = json!({
            "textDocument": { "uri": URI },
            "range": encoding.json_range(TEXT, home_end + 1, TEXT.len()),
        });
        let hints = result(&mut client, "textDocument/inlayHint", second_half).await;
        assert_eq!(hints.as_array().map(Vec::len), Some(1));
        assert_eq!(
            hints[0]["position"],
            encoding.json_position(TEXT, braces_end)
        );
        assert_eq!(client.shutdown_and_exit().await, SessionEnd::AfterShutdown);
    }
}

#[tokio::test]
async fn many_problems_are_published_as_the_first_ones_and_a_note() {
    // A warning first (a MoveNumber used twice), then 1,200 moves from an empty square:
    // the errors come first.
    let mut text = String::from("---\nGameType: Chess\n...\n1. e2-e4 1. e7-e5\n");
    for number in 2..=1_201 {
        text.push_str(&format!("{number}. z2-z3\n"));
    }
    let (mut client, _) = TestClient::start(Encoding::Utf16.offered(), analyzer()).await;
    let uri = "file:///broken.ppn";
    client.open(uri, 1, &text).await;
    let published = client.diagnostics(uri).await["diagnostics"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let fresh = PpnDocument::new(text.clone()).diagnostics;
    assert_eq!(fresh.len(), 1_201);
    const { assert!(MOST_DIAGNOSTICS_SHOWN < 1_200) };
    assert_eq!(published.len(), MOST_DIAGNOSTICS_SHOWN + 1);
    let codes = |code: &str| published.iter().filter(|d| d["code"] == code).count();
    assert_eq!(codes("no-piece"), MOST_DIAGNOSTICS_SHOWN);
    let note = &published[MOST_DIAGNOSTICS_SHOWN];
    assert_eq!(note["code"], "too-many-diagnostics");
    assert_eq!(note["severity"], 3);
    // The first left out: the warning at the start (errors come first), here.
    let left_out = fresh
        .iter()
        .find(|d| d.severity != ppn_ls::diagnostic::Severity::Error)
        .expect("a warning");
    assert_eq!(
        note["range"],
        Encoding::Utf16.json_range(&text, left_out.range.start, left_out.range.end)
    );
    let message = note["message"].as_str().unwrap_or_default();
    assert!(
        message.starts_with(&format!(
            "{MOST_DIAGNOSTICS_SHOWN} of the document's {} problems",
            fresh.len()
        )),
        "{message}"
    );
    assert_eq!(client.shutdown_and_exit().await, SessionEnd::AfterShutdown);
}

#[tokio::test]
async fn a_long_game_lists_its_moves_in_stretches() {
    let mut text = String::from("---\nGameTitle: long\n...\n");
    for number in 1..=1_500 {
        text.push_str(&format!("{number}. t@b2 {number}... *b2\n"));
    }
    let (mut client, _) = TestClient::start(Encoding::Utf16.offered(), analyzer()).await;
    let uri = "file:///long.ppn";
    client.open(uri, 1, &text).await;
    let document = json!({ "textDocument": { "uri": uri } });
    let symbols = result(&mut client, "textDocument/documentSymbol", document).await;
    let stretches = symbols[0]["children"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    // 3,000 moves (`1.` and `1...` each), 100 a stretch.
    assert_eq!(stretches.len(), 30);
    assert_eq!(stretches[0]["name"], "1. – 50...");
    assert_eq!(stretches[0]["detail"], "100 moves");
    assert_eq!(stretches[0]["kind"], 18);
    let first_move = text.find("1. t@b2").unwrap();
    let end_of_50 = text.find("51. t@b2").unwrap() - 1;
    assert_eq!(
        stretches[0]["range"],
        Encoding::Utf16.json_range(&text, first_move, end_of_50)
    );
    assert_eq!(stretches[29]["name"], "1451. – 1500...");
    assert_eq!(client.shutdown_and_exit().await, SessionEnd::AfterShutdown);
}

#[tokio::test]
async fn document_symbols_and_folding_ranges() {
    for encoding in Encoding::BOTH {
        let mut client = open(encoding).await;
        let document = json!({ "textDocument": { "uri": URI } });
        let symbols = result(&mut client, "textDocument/documentSymbol", document.clone()).await;
        let game = &symbols[0];
        assert_eq!(symbols.as_array().map(Vec::len), Some(1));
        assert_eq!(game["name"], "Game 1: 🂡 cup");
        assert_eq!(game["kind"], 3);
        assert_eq!(game["range"], encoding.json_range(TEXT, 0, TEXT.len() - 1));
        assert_eq!(game["selectionRange"], encoding.json_range(TEXT, 0, 3));
        let moves = game["children"].as_array().cloned().unwrap_or_default();
        let names: Vec<&str> = moves.iter().filter_map(|m| m["name"].as_str()).collect();
        assert_eq!(names, ["1.", "2.", "3."]);
        let second = nth("2. t@", 0);
        let comment_end = nth("comment}", 0) + "comment}".len();
        assert_eq!(
            moves[1]["range"],
            encoding.json_range(TEXT, second, comment_end)
        );
        assert_eq!(
            moves[1]["selectionRange"],
            encoding.json_range(TEXT, second, second + 2)
        );
        assert_eq!(moves[1]["detail"], "t@b2 t@d2 🁣@c3 {a 🂡 long comment}");
        assert_eq!(moves[1]["kind"], 24);

        let folds = result(&mut client, "textDocument/foldingRange", document).await;
        assert_eq!(
            folds,
            json!([
                { "startLine": 0, "endLine": 6, "kind": "region" },
                { "startLine": 1, "endLine": 4, "kind": "region" },
                { "startLine": 5, "endLine": 6, "kind": "comment" },
            ])
        );
        assert_eq!(client.shutdown_and_exit().await, SessionEnd::AfterShutdown);
    }
}

/// Semantic tokens decoded into (line, character, length, type) in the client's units.
fn decode(data: &Value) -> Vec<(u32, u32, u32, u64)> {
    let numbers: Vec<u64> = data
        .as_array()
        .map(|items| items.iter().filter_map(Value::as_u64).collect())
        .unwrap_or_default();
    let mut tokens = Vec::new();
    let (mut line, mut character) = (0u32, 0u32);
    for chunk in numbers.chunks(5) {
        let [delta_line, delta_start, length, kind, _] = chunk else {
            panic!("semantic token data comes in fives: {numbers:?}");
        };
        let delta_line = u32::try_from(*delta_line).unwrap_or(u32::MAX);
        let delta_start = u32::try_from(*delta_start).unwrap_or(u32::MAX);
        line += delta_line;
        character = if delta_line == 0 {
            character + delta_start
        } else {
            delta_start
        };
        tokens.push((
            line,
            character,
            u32::try_from(*length).unwrap_or(u32::MAX),
            *kind,
        ));
    }
    tokens
}

#[tokio::test]
async fn semantic_tokens_count_in_the_negotiated_unit() {
    for encoding in Encoding::BOTH {
        let mut client = open(encoding).await;
        let document = json!({ "textDocument": { "uri": URI } });
        let tokens = result(&mut client, "textDocument/semanticTokens/full", document).await;
        let decoded = decode(&tokens["data"]);
        let token = |needle: &str, n: usize, kind: u64| {
            let start = nth(needle, n);
            let (line, character) = encoding.position(TEXT, start);
            (line, character, encoding.units(needle), kind)
        };
        let expected_subset = [
            token("Event", 0, 7),
            token("🂡 cup", 0, 6),
            token("`home'", 0, 5),
            token("🂡", 1, 3),
            token("@", 1, 2),
            token("🁣", 0, 3),
            token("c3", 0, 4),
            token("{a 🂡", 0, 0),
            token("long comment}", 0, 0),
            token("b2", 1, 4),
            token("c4", 0, 4),
        ];
        for expected in expected_subset {
            assert!(
                decoded.contains(&expected),
                "{encoding:?}: {expected:?} not in {decoded:?}"
            );
        }
        let mut previous = (0, 0);
        for (line, character, length, _) in &decoded {
            assert!((*line, *character) >= previous, "{decoded:?}");
            assert!(*length > 0);
            previous = (*line, *character + *length);
        }
        assert_eq!(client.shutdown_and_exit().await, SessionEnd::AfterShutdown);
    }
}

#[tokio::test]
async fn semantic_tokens_of_a_range_are_those_of_the_whole_document_inside_it() {
    for encoding in Encoding::BOTH {
        let mut client = open(encoding).await;
        let document = json!({ "textDocument": { "uri": URI } });
        let full = result(&mut client, "textDocument/semanticTokens/full", document).await;
        let (start, end) = (nth("2.", 0), nth("3.", 0));
        let params = json!({
            "textDocument": { "uri": URI },
            "range": encoding.json_range(TEXT, start, end),
        });
        let ranged = result(&mut client, "textDocument/semanticTokens/range", params).await;
        let (from, to) = (encoding.position(TEXT, start), encoding.position(TEXT, end));
        let inside: Vec<_> = decode(&full["data"])
            .into_iter()
            .filter(|(line, character, length, _)| {
                (*line, *character + *length) > from && (*line, *character) < to
            })
            .collect();
        assert!(inside.len() >= 5, "{inside:?}");
        assert_eq!(decode(&ranged["data"]), inside);
        assert_eq!(client.shutdown_and_exit().await, SessionEnd::AfterShutdown);
    }
}

/// `data` with `edits` (in numbers, five per token) made to it.
fn with_edits(data: &Value, edits: &Value) -> Vec<Value> {
    let mut numbers: Vec<Value> = data.as_array().cloned().unwrap_or_default();
    let mut edits: Vec<&Value> = edits
        .as_array()
        .map(|e| e.iter().collect())
        .unwrap_or_default();
    // Edits refer to the numbers before any of them is made: make the last first.
    edits.sort_by_key(|edit| std::cmp::Reverse(edit["start"].as_u64()));
    for edit in edits {
        let start = edit["start"].as_u64().unwrap() as usize;
        let deleted = edit["deleteCount"].as_u64().unwrap() as usize;
        let inserted = edit["data"].as_array().cloned().unwrap_or_default();
        numbers.splice(start..start + deleted, inserted);
    }
    numbers
}

#[tokio::test]
async fn semantic_tokens_since_a_result_are_the_edit_that_makes_them() {
    let mut client = open(Encoding::Utf16).await;
    let document = json!({ "textDocument": { "uri": URI } });
    let first = result(
        &mut client,
        "textDocument/semanticTokens/full",
        document.clone(),
    )
    .await;
    let first_id = first["resultId"].as_str().expect("a result id").to_string();

    // A new token in the middle of the document.
    let at = nth("2.", 0);
    let change = json!([{
        "range": Encoding::Utf16.json_range(TEXT, at, at),
        "text": "S@h8 ",
    }]);
    client.change(URI, 2, change).await;
    client.diagnostics_of_version(URI, 2).await;
    let since = json!({ "textDocument": { "uri": URI }, "previousResultId": first_id });
    let delta = result(
        &mut client,
        "textDocument/semanticTokens/full/delta",
        since.clone(),
    )
    .await;
    let edits = delta["edits"]
        .as_array()
        .expect("an edit, not all the tokens");
    assert_eq!(edits.len(), 1, "{delta}");
    let inserted = edits[0]["data"].as_array().unwrap().len();
    assert!(
        inserted > 0 && inserted < first["data"].as_array().unwrap().len() / 2,
        "{delta}"
    );
    let fresh = result(&mut client, "textDocument/semanticTokens/full", document).await;
    assert_eq!(
        with_edits(&first["data"], &delta["edits"]),
        *fresh["data"].as_array().unwrap()
    );
    assert_ne!(delta["resultId"], first["resultId"]);

    // Nothing changed since the last result: no edit.
    let unchanged =
        json!({ "textDocument": { "uri": URI }, "previousResultId": fresh["resultId"] });
    let none = result(
        &mut client,
        "textDocument/semanticTokens/full/delta",
        unchanged,
    )
    .await;
    assert_eq!(none["edits"], json!([]));

    // A result the server no longer has: all the tokens.
    let full = result(&mut client, "textDocument/semanticTokens/full/delta", since).await;
    assert_eq!(full["data"], fresh["data"]);
    assert_eq!(client.shutdown_and_exit().await, SessionEnd::AfterShutdown);
}

#[tokio::test]
async fn definition_and_references_of_a_metadata_macro() {
    for encoding in Encoding::BOTH {
        let mut client = open(encoding).await;
        let key = nth("home:", 0);
        let used = nth("`home'", 0);
        let definition = result(
            &mut client,
            "textDocument/definition",
            at(encoding, used + 2),
        )
        .await;
        assert_eq!(
            definition,
            json!({ "uri": URI, "range": encoding.json_range(TEXT, key, key + 4) })
        );
        let mut params = at(encoding, key + 1);
        params["context"] = json!({ "includeDeclaration": true });
        let found = result(&mut client, "textDocument/references", params.clone()).await;
        assert_eq!(
            found,
            json!([
                { "uri": URI, "range": encoding.json_range(TEXT, key, key + 4) },
                { "uri": URI, "range": encoding.json_range(TEXT, used, used + 6) },
            ]),
            "{encoding:?}"
        );
        params["context"] = json!({ "includeDeclaration": false });
        let uses = result(&mut client, "textDocument/references", params).await;
        assert_eq!(uses.as_array().map(Vec::len), Some(1));
        let builtin = result(
            &mut client,
            "textDocument/definition",
            at(encoding, nth("🁣", 0)),
        )
        .await;
        assert_eq!(builtin, Value::Null);
        assert_eq!(client.shutdown_and_exit().await, SessionEnd::AfterShutdown);
    }
}

/// The hover on move 3's number from a server started by a client with these
/// capabilities: its kind and its text.
async fn move_hover(capabilities: Value) -> (Value, String) {
    let params = json!({ "processId": null, "rootUri": null, "capabilities": capabilities });
    let (mut client, _) = TestClient::start_with(params, analyzer()).await;
    client.open(URI, 1, TEXT).await;
    let hover = result(
        &mut client,
        "textDocument/hover",
        at(Encoding::Utf16, nth("3. b2", 0)),
    )
    .await;
    assert_eq!(client.shutdown_and_exit().await, SessionEnd::AfterShutdown);
    let text = hover["contents"]["value"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    (hover["contents"]["kind"].clone(), text)
}

#[tokio::test]
async fn a_client_that_reads_only_plain_text_hovers_gets_plain_text() {
    let formats =
        |formats: Value| json!({ "textDocument": { "hover": { "contentFormat": formats } } });
    let (kind, text) = move_hover(formats(json!(["plaintext"]))).await;
    assert_eq!(kind, "plaintext");
    assert!(
        text.starts_with(
            "Move 3. b2-c4\n\n- Moved null of Suns tile, back up from b2 to c4\n\nBoard 3.\n\n"
        ),
        "{text}"
    );
    for mark in ["**", "`"] {
        assert!(!text.contains(mark), "{mark} in {text}");
    }
    // The board itself, in the plain style.
    assert!(text.contains("\n4   ┝━╋━┥\n"), "{text}");
    // Markdown for every other client: one that prefers it, one that takes both, one that
    // does not say.
    for capabilities in [
        formats(json!(["markdown", "plaintext"])),
        formats(json!(["plaintext", "markdown"])),
        json!({}),
    ] {
        let (kind, text) = move_hover(capabilities.clone()).await;
        assert_eq!(kind, "markdown", "{capabilities}");
        assert!(text.starts_with("**Move 3.** `b2-c4`"), "{text}");
        assert!(text.contains("```text\n"), "{text}");
    }
}

#[tokio::test]
async fn board_at_the_cursor() {
    for encoding in Encoding::BOTH {
        let mut client = open(encoding).await;
        // In the comment of move 2: the board after move 2.
        let board = result(&mut client, "ppn/boardAt", at(encoding, nth("long", 0))).await;
        assert_eq!(board["label"], "2.");
        let piece = |piece_side: &str, suit: i64, rank: i64, cfg: &str, x: i64, y: i64| {
            json!({
                "piece_side": piece_side, "suit": suit, "rank": rank, "cfg": cfg,
                "x": x, "y": y, "angle": 0
            })
        };
        assert_eq!(
            board["pieces"],
            json!([
                piece("card_face", 2, 1, "playing_cards_tarot", 2, 2),
                piece("coin_back", 1, 1, "piecepack", 1, 1),
                piece("tile_back", 1, 1, "piecepack", 2, 2),
                piece("tile_back", 1, 1, "piecepack", 4, 2),
                piece("tile_face", 1, 1, "dominoes", 3, 3),
            ]),
            "{encoding:?}"
        );
        let text = board["text"].as_str().unwrap_or_default();
        // The domino on c3 (its middle line) between the tiles on b2 and d2.
        assert!(text.contains("\n3 ├─┰┤━├┰─┐\n"), "{text}");
        // In the metadata: the starting board, still empty.
        let start = result(&mut client, "ppn/boardAt", at(encoding, nth("Event", 0))).await;
        assert_eq!(start["label"], "start");
        assert_eq!(start["pieces"], json!([]));
        let unknown = result(
            &mut client,
            "ppn/boardAt",
            json!({
                "textDocument": { "uri": "file:///nowhere.ppn" },
                "position": { "line": 0, "character": 0 }
            }),
        )
        .await;
        assert_eq!(unknown, Value::Null);
        assert_eq!(client.shutdown_and_exit().await, SessionEnd::AfterShutdown);
    }
}

#[tokio::test]
async fn render_the_board_at_the_cursor() {
    for encoding in Encoding::BOTH {
        let mut client = open(encoding).await;
        let board = result(&mut client, "ppn/render", at(encoding, nth("long", 0))).await;
        assert_eq!(board["label"], "2.", "{encoding:?}");
        let svg = board["svg"].as_str().unwrap_or_default();
        assert!(
            svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""),
            "{svg}"
        );
        assert_eq!(svg.matches("class=\"piece ").count(), 5, "{svg}");
        for kind in ["card face", "coin back", "tile back", "tile face"] {
            assert!(
                svg.contains(&format!("class=\"piece {kind}\"")),
                "{kind}: {svg}"
            );
        }
        let mut params = at(encoding, nth("long", 0));
        params["width"] = json!(300);
        params["flip"] = json!(true);
        let sized = result(&mut client, "ppn/render", params).await;
        let sized = sized["svg"].as_str().unwrap_or_default();
        assert!(sized.contains("width=\"300\""), "{sized}");
        // Animated: the game's main line from its start, a frame per board, and the label
        // of its last move.
        let mut params = at(encoding, nth("long", 0));
        params["animate"] = json!(true);
        params["frameMs"] = json!(500);
        let played = result(&mut client, "ppn/render", params).await;
        assert_eq!(played["label"], "3.", "{encoding:?}");
        let played = played["svg"].as_str().unwrap_or_default();
        assert_eq!(played.matches("<g id=\"frame-").count(), 4, "{played}");
        assert!(played.contains("dur=\"2s\""), "{played}");
        let unknown = result(
            &mut client,
            "ppn/render",
            json!({
                "textDocument": { "uri": "file:///nowhere.ppn" },
                "position": { "line": 0, "character": 0 }
            }),
        )
        .await;
        assert_eq!(unknown, Value::Null);
        assert_eq!(client.shutdown_and_exit().await, SessionEnd::AfterShutdown);
    }
}

#[tokio::test]
async fn the_game_line_at_the_cursor() {
    for encoding in Encoding::BOTH {
        let mut client = open(encoding).await;
        let line = result(&mut client, "ppn/gameLine", at(encoding, nth("long", 0))).await;
        assert_eq!(line["game"], 0, "{encoding:?}");
        let states = line["states"].as_array().cloned().unwrap_or_default();
        let labels: Vec<&str> = states.iter().filter_map(|s| s["label"].as_str()).collect();
        assert_eq!(labels, ["start", "1.", "2.", "3."], "{encoding:?}");
        assert_eq!(states[0]["range"], Value::Null);
        assert_eq!(states[2]["text"], "t@b2 t@d2 🁣@c3");
        assert_eq!(states[2]["comment"], "a 🂡 long comment");
        assert_eq!(line["current"], states[2]["ref"]);
        assert_eq!(line["variations"], json!([]));
        let second = nth("2. t@", 0);
        assert_eq!(states[2]["cursor"], encoding.json_position(TEXT, second));
        assert_eq!(
            states[2]["range"]["start"],
            encoding.json_position(TEXT, second)
        );
        // Each state's cursor shows that state's board, the starting one too.
        for state in &states {
            let params = json!({
                "textDocument": { "uri": URI },
                "position": state["cursor"].clone(),
            });
            let board = result(&mut client, "ppn/render", params).await;
            assert_eq!(board["label"], state["label"], "{encoding:?}");
            assert_eq!(board["state"], state["ref"], "{encoding:?}");
            assert_eq!(board["game"], 0);
        }
        let unknown = result(
            &mut client,
            "ppn/gameLine",
            json!({
                "textDocument": { "uri": "file:///nowhere.ppn" },
                "position": { "line": 0, "character": 0 }
            }),
        )
        .await;
        assert_eq!(unknown, Value::Null);
        assert_eq!(client.shutdown_and_exit().await, SessionEnd::AfterShutdown);
    }
}

/// The line and UTF-16 column of a byte offset of `text`.
fn utf16_position(text: &str, offset: usize) -> Value {
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let line = text[..line_start].matches('\n').count();
    let character: usize = text[line_start..offset].chars().map(char::len_utf16).sum();
    json!({ "line": line, "character": character })
}

/// Every hover of sample files of every notation, asked for by a client that reads only
/// plain text, next to the same hover asked for by one that reads Markdown: the plain one
/// is plain text with no Markdown left (no bold, no code fences, no code spans), and each
/// notation has hovers whose Markdown has them, so the check can fail.
#[tokio::test]
async fn plain_text_hovers_of_every_notation_carry_no_markdown() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let samples = [
        ("PPN", "examples/tablut-short.ppn"),
        ("PPN", "tests/conformance/examples/xiangqi.ppn"),
        (
            "PPN",
            "tests/conformance/generated/g001_lines_of_action.ppn",
        ),
        ("OpenTafl", "tests/otn/opentafl/Ard-Ri-Capture-Puzzle.otg"),
        (
            "annoFEN",
            "tests/xiangqi/samples/demo-last-two-moves.annofen",
        ),
        ("XAY", "tests/xiangqi/samples/demo-arrows-rook-upwards.xay"),
        ("FEN", "tests/xiangqi/samples/demo.fen"),
        ("WXF", "tests/xiangqi/samples/demo.wxf"),
    ];
    let start = |formats: Value| {
        let params = json!({
            "processId": null,
            "rootUri": null,
            "capabilities": { "textDocument": { "hover": { "contentFormat": formats } } },
        });
        TestClient::start_with(
            params,
            Arc::new(ppn_ls::lsp::IncrementalAnalyzer::default()),
        )
    };
    let (mut plain, _) = start(json!(["plaintext"])).await;
    let (mut markdown, _) = start(json!(["markdown"])).await;
    for (notation, sample) in samples {
        let text = std::fs::read_to_string(root.join(sample)).expect("the sample is read");
        let uri = format!("file:///samples/{}", sample.rsplit('/').next().unwrap());
        plain.open(&uri, 1, &text).await;
        markdown.open(&uri, 1, &text).await;
        let mut hovers = 0;
        let mut marked_up = 0;
        // Every word's first character: every hover path these files reach.
        let word_starts = text.char_indices().filter(|&(at, c)| {
            !c.is_whitespace()
                && text[..at]
                    .chars()
                    .next_back()
                    .is_none_or(char::is_whitespace)
        });
        for (offset, _) in word_starts {
            let params = json!({
                "textDocument": { "uri": uri },
                "position": utf16_position(&text, offset),
            });
            let rich = result(&mut markdown, "textDocument/hover", params.clone()).await;
            let bare = result(&mut plain, "textDocument/hover", params).await;
            assert_eq!(rich.is_null(), bare.is_null(), "{sample} at {offset}");
            if rich.is_null() {
                continue;
            }
            hovers += 1;
            let rich_text = rich["contents"]["value"].as_str().unwrap_or_default();
            if ["**", "`"].iter().any(|mark| rich_text.contains(mark)) {
                marked_up += 1;
            }
            assert_eq!(
                bare["contents"]["kind"], "plaintext",
                "{sample} at {offset}"
            );
            let bare_text = bare["contents"]["value"].as_str().unwrap_or_default();
            assert!(
                !bare_text.contains("**"),
                "{sample} at {offset}: {bare_text}"
            );
            assert!(
                !bare_text.contains("```"),
                "{sample} at {offset}: {bare_text}"
            );
            // A backtick is left only where the file has one (a PPN macro's name).
            if !text.contains('`') {
                assert!(
                    !bare_text.contains('`'),
                    "{sample} at {offset}: {bare_text}"
                );
            }
        }
        assert!(hovers > 0, "{notation}: no hover in {sample}");
        assert!(
            marked_up > 0,
            "{notation}: no Markdown to take away in {sample}"
        );
    }
    assert_eq!(plain.shutdown_and_exit().await, SessionEnd::AfterShutdown);
    assert_eq!(
        markdown.shutdown_and_exit().await,
        SessionEnd::AfterShutdown
    );
}

/// The board to play on through the protocol: its squares, where a piece may go, a move
/// made on it as an edit (placed after a wide character, in both encodings, with the
/// cursor on the move once applied), a question, a refusal, and the move in words.
#[tokio::test]
async fn a_move_made_on_the_board_comes_back_as_an_edit() {
    const CHESS_URI: &str = "file:///chess.ppn";
    const CHESS: &str = "---\nGameType: Chess\n...\n1. e2-e4 {🂡 open}\n";
    for encoding in Encoding::BOTH {
        let mut client = open(encoding).await;
        client.open(CHESS_URI, 1, CHESS).await;
        let at = |extra: Value| {
            let mut params = json!({"textDocument": {"uri": CHESS_URI}, "game": 0, "state": 1});
            for (key, value) in extra.as_object().unwrap() {
                params[key] = value.clone();
            }
            params
        };
        let grid = result(&mut client, "ppn/boardGrid", at(json!({}))).await;
        assert_eq!(grid["rows"].as_array().unwrap().len(), 8, "{grid}");
        assert_eq!(grid["rows"][4][4]["name"], "e4");
        assert_eq!(grid["rows"][4][4]["pieces"].as_array().unwrap().len(), 1);
        assert_eq!(grid["text"].as_array().unwrap().len(), 32);
        let targets = result(&mut client, "ppn/legalTargets", at(json!({"from": "d7"}))).await;
        assert_eq!(targets, json!({"any": true}));
        // Written after the last move, its cursor on the move in the text it makes.
        let entered = result(
            &mut client,
            "ppn/enterMove",
            at(json!({"from": "d7", "to": "d5"})),
        )
        .await;
        let edit = &entered["edit"];
        assert_eq!(edit["written"], "d7-d5", "{entered}");
        let end = encoding.json_position(CHESS, CHESS.len() - 1);
        assert_eq!(
            edit["range"],
            json!({"start": end, "end": end}),
            "{encoding:?}"
        );
        let mut new_text = CHESS[..CHESS.len() - 1].to_string();
        new_text.push_str(edit["newText"].as_str().unwrap());
        new_text.push('\n');
        let new_text = new_text.replace("\n\n", "\n");
        let move_at = new_text.find("d7-d5").unwrap();
        assert_eq!(
            edit["cursor"],
            encoding.json_position(&new_text, move_at),
            "{encoding:?}"
        );
        // Onto a piece: asked; the answer given, written.
        let asked = result(
            &mut client,
            "ppn/enterMove",
            at(json!({"from": "e4", "to": "e7"})),
        )
        .await;
        assert_eq!(asked, json!({"ask": "capture-or-stack"}));
        let taken = result(
            &mut client,
            "ppn/enterMove",
            at(json!({"from": "e4", "to": "e7", "capture": true})),
        )
        .await;
        assert_eq!(taken["edit"]["written"], "e4:e7");
        // From an empty square: refused, with why.
        let refused = result(
            &mut client,
            "ppn/enterMove",
            at(json!({"from": "e2", "to": "e3"})),
        )
        .await;
        assert!(
            refused["refused"].as_str().unwrap().contains("e2"),
            "{refused}"
        );
        let words = result(&mut client, "ppn/moveInWords", at(json!({}))).await;
        assert!(
            words.as_str().unwrap().contains("moves from e2 to e4"),
            "{words}"
        );
        assert_eq!(client.shutdown_and_exit().await, SessionEnd::AfterShutdown);
    }
}
