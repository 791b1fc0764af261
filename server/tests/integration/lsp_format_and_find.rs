//! Formatting, fix-all, rename, highlights, selection ranges, code lenses and workspace
//! symbols through the real server and its real analyzer.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::common::TestClient;
use ppn_ls::lsp::{Analyzer, IncrementalAnalyzer};
use serde_json::{json, Value};

fn analyzer() -> Analyzer {
    Arc::new(IncrementalAnalyzer::default())
}

const URI: &str = "file:///games/club.ppn";

/// The position of byte `offset` of `text` (ASCII before it, lines ended by `\n`).
fn position(text: &str, offset: usize) -> Value {
    let before = &text[..offset];
    let line = before.matches('\n').count();
    let character = before.len() - before.rfind('\n').map_or(0, |at| at + 1);
    json!({ "line": line, "character": character })
}

/// The byte offset of a position of `text`.
fn offset(text: &str, position: &Value) -> usize {
    let line = position["line"].as_u64().expect("a line") as usize;
    let character = position["character"].as_u64().expect("a character") as usize;
    let line_start: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
    line_start + character
}

/// `text` with the protocol's `edits` made.
fn apply(text: &str, edits: &Value) -> String {
    let mut edits: Vec<(usize, usize, String)> = edits
        .as_array()
        .expect("a list of edits")
        .iter()
        .map(|edit| {
            (
                offset(text, &edit["range"]["start"]),
                offset(text, &edit["range"]["end"]),
                edit["newText"].as_str().expect("a text").to_string(),
            )
        })
        .collect();
    edits.sort();
    let mut out = String::new();
    let mut at = 0;
    for (start, end, new) in edits {
        assert!(start >= at, "edits overlap");
        out.push_str(&text[at..start]);
        out.push_str(&new);
        at = end;
    }
    out.push_str(&text[at..]);
    out
}

async fn open(text: &str) -> TestClient {
    let (mut client, result) = TestClient::start(None, analyzer()).await;
    let capabilities = &result["capabilities"];
    for provider in [
        "documentFormattingProvider",
        "documentRangeFormattingProvider",
        "documentHighlightProvider",
        "selectionRangeProvider",
        "workspaceSymbolProvider",
    ] {
        assert_eq!(capabilities[provider], true, "{provider}: {capabilities}");
    }
    assert_eq!(capabilities["renameProvider"]["prepareProvider"], true);
    assert!(capabilities["codeLensProvider"].is_object());
    client.open(URI, 1, text).await;
    client.diagnostics(URI).await;
    client
}

async fn result(client: &mut TestClient, method: &str, params: Value) -> Value {
    let response = client.request(method, params).await;
    assert!(response.get("error").is_none(), "{method}: {response}");
    response["result"].clone()
}

fn at(text: &str, offset: usize) -> Value {
    json!({ "textDocument": { "uri": URI }, "position": position(text, offset) })
}

const MESSY: &str = "---\nEvent: Club night  \nMacros:\n  home: S@a1\n...\n\
                     1. `home'   1... M@h8 2. a1-b1\t2... h8-g8\n3. b1-c1 {good}\n";

#[tokio::test]
async fn formatting_lays_the_document_out() {
    let mut client = open(MESSY).await;
    let edits = result(
        &mut client,
        "textDocument/formatting",
        json!({ "textDocument": { "uri": URI }, "options": { "tabSize": 4, "insertSpaces": true } }),
    )
    .await;
    assert_eq!(
        apply(MESSY, &edits),
        "---\nEvent: Club night\nMacros:\n  home: S@a1\n...\n\
         1. `home' 1... M@h8\n2. a1-b1 2... h8-g8\n3. b1-c1 {good}\n"
    );
    // Only the lines asked for.
    let line = MESSY.find("1. `home'").unwrap();
    let range = json!({ "start": position(MESSY, line), "end": position(MESSY, line + 3) });
    let edits = result(
        &mut client,
        "textDocument/rangeFormatting",
        json!({ "textDocument": { "uri": URI }, "range": range,
                "options": { "tabSize": 4, "insertSpaces": true } }),
    )
    .await;
    assert_eq!(
        apply(MESSY, &edits),
        MESSY
            .replace("`home'   1...", "`home' 1...")
            .replace("M@h8 2.", "M@h8\n2.")
            .replace("b1\t2...", "b1 2...")
    );
}

#[tokio::test]
async fn a_document_that_does_not_parse_gets_no_edits() {
    let broken = "---\n...\n1. S@a1   {never closed\n";
    let mut client = open(broken).await;
    let edits = result(
        &mut client,
        "textDocument/formatting",
        json!({ "textDocument": { "uri": URI }, "options": { "tabSize": 4, "insertSpaces": true } }),
    )
    .await;
    assert_eq!(edits, Value::Null);
    let said = client
        .wait_for(|message| message["method"] == "window/logMessage")
        .await;
    let message = said["params"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("does not parse"), "{message}");
}

#[tokio::test]
async fn fix_all_makes_every_safe_fix() {
    let old = "---\nGameType: Four Field Kono\n...\n1. b1*b3 1... d3*b3\n";
    let mut client = open(old).await;
    let actions = result(
        &mut client,
        "textDocument/codeAction",
        json!({
            "textDocument": { "uri": URI },
            "range": { "start": position(old, 0), "end": position(old, 0) },
            "context": { "diagnostics": [], "only": ["source.fixAll"] },
        }),
    )
    .await;
    let actions = actions.as_array().expect("actions");
    assert_eq!(actions.len(), 1, "only the fix-all: {actions:?}");
    assert_eq!(actions[0]["kind"], "source.fixAll.ppn-ls");
    assert_eq!(actions[0]["title"], "Fix all: 2 safe fixes");
    let edits = &actions[0]["edit"]["changes"][URI];
    assert_eq!(
        apply(old, edits),
        "---\nGameType: Four Field Kono\n...\n1. b1:b3 1... d3:b3\n"
    );
    // Asked for anything, the quick fixes come too.
    let all = result(
        &mut client,
        "textDocument/codeAction",
        json!({
            "textDocument": { "uri": URI },
            "range": { "start": position(old, 38), "end": position(old, 38) },
            "context": { "diagnostics": [] },
        }),
    )
    .await;
    let kinds: Vec<&str> = all
        .as_array()
        .expect("actions")
        .iter()
        .filter_map(|action| action["kind"].as_str())
        .collect();
    assert_eq!(kinds, ["quickfix", "source.fixAll.ppn-ls"]);
}

#[tokio::test]
async fn a_macro_is_renamed_after_prepare_rename() {
    let mut client = open(MESSY).await;
    let use_at = MESSY.find("`home'").unwrap() + 2;
    let prepared = result(&mut client, "textDocument/prepareRename", at(MESSY, use_at)).await;
    assert_eq!(prepared["placeholder"], "home");
    assert_eq!(prepared["range"]["start"], position(MESSY, use_at - 1));
    let mut params = at(MESSY, use_at);
    params["newName"] = json!("base");
    let edit = result(&mut client, "textDocument/rename", params).await;
    assert_eq!(
        apply(MESSY, &edit["changes"][URI]),
        MESSY.replace("home", "base")
    );
    let mut taken = at(MESSY, use_at);
    taken["newName"] = json!("q");
    let refused = client.request("textDocument/rename", taken).await;
    let why = refused["error"]["message"].as_str().unwrap_or_default();
    assert!(why.contains("already has a macro named `q`"), "{refused}");
    // Nothing to rename on a square.
    let square = MESSY.find("a1-b1").unwrap();
    let nothing = result(&mut client, "textDocument/prepareRename", at(MESSY, square)).await;
    assert_eq!(nothing, Value::Null);
}

#[tokio::test]
async fn highlights_of_a_macro_and_of_a_square() {
    let mut client = open(MESSY).await;
    let home = MESSY.find("`home'").unwrap() + 1;
    let found = result(
        &mut client,
        "textDocument/documentHighlight",
        at(MESSY, home),
    )
    .await;
    let key = MESSY.find("home:").unwrap();
    assert_eq!(
        found,
        json!([
            { "range": { "start": position(MESSY, key), "end": position(MESSY, key + 4) }, "kind": 3 },
            { "range": { "start": position(MESSY, home - 1), "end": position(MESSY, home + 5) }, "kind": 2 },
        ])
    );
    let b1 = MESSY.find("b1-c1").unwrap();
    let found = result(&mut client, "textDocument/documentHighlight", at(MESSY, b1)).await;
    let starts: Vec<Value> = found
        .as_array()
        .expect("highlights")
        .iter()
        .map(|highlight| highlight["range"]["start"].clone())
        .collect();
    let first_b1 = MESSY.find("b1\t").unwrap();
    assert_eq!(starts, [position(MESSY, first_b1), position(MESSY, b1)]);
}

#[tokio::test]
async fn selection_grows_from_a_square_to_the_game() {
    let mut client = open(MESSY).await;
    let c1 = MESSY.find("c1").unwrap();
    let found = result(
        &mut client,
        "textDocument/selectionRange",
        json!({ "textDocument": { "uri": URI }, "positions": [position(MESSY, c1)] }),
    )
    .await;
    let mut texts = Vec::new();
    let mut range = &found[0];
    while range.is_object() {
        let start = offset(MESSY, &range["range"]["start"]);
        let end = offset(MESSY, &range["range"]["end"]);
        texts.push(&MESSY[start..end]);
        range = &range["parent"];
    }
    assert_eq!(texts[..3], ["c1", "b1-c1", "3. b1-c1 {good}"]);
    assert!(texts[3].starts_with("---\nEvent"), "{texts:?}");
    assert_eq!(texts.len(), 4);
}

#[tokio::test]
async fn each_game_has_lenses_to_show_and_animate_it() {
    let text = format!("{MESSY}---\nEvent: Second\n...\n1. S@a1\n");
    let mut client = open(&text).await;
    let lenses = result(
        &mut client,
        "textDocument/codeLens",
        json!({ "textDocument": { "uri": URI } }),
    )
    .await;
    let lenses = lenses.as_array().expect("lenses");
    assert_eq!(lenses.len(), 4);
    let second = text.rfind("---").unwrap();
    assert_eq!(lenses[2]["range"]["start"], position(&text, second));
    assert_eq!(lenses[2]["command"]["title"], "Show board");
    assert_eq!(lenses[3]["command"]["title"], "Animate");
    for lens in lenses {
        assert_eq!(lens["command"]["command"], "ppn.showBoard");
        assert_eq!(lens["command"]["arguments"][0]["uri"], URI);
    }
    assert_eq!(
        lenses[2]["command"]["arguments"][0]["position"],
        position(&text, text.len() - 1)
    );
    assert_eq!(lenses[3]["command"]["arguments"][0]["animate"], true);
    // The board panel's request answers at the lens's position.
    let board = result(
        &mut client,
        "ppn/boardAt",
        json!({ "textDocument": { "uri": URI }, "position": lenses[2]["command"]["arguments"][0]["position"] }),
    )
    .await;
    assert_eq!(board["label"], "1.");
}

fn scratch(name: &str) -> PathBuf {
    let folder = std::env::temp_dir().join(format!("ppn-ls-symbols-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(folder.join("club")).expect("a scratch folder");
    folder
}

fn file_uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

#[tokio::test]
async fn workspace_symbols_find_games_in_the_files_and_follow_their_changes() {
    let root = scratch("workspace");
    std::fs::write(
        root.join("club/night.ppn"),
        "---\nEvent: Club night\nWhite: Ann\nBlack: Ben\nDate: 2024-01-01\n...\n1. S@a1\n\n\
         ---\nEvent: Club night\nWhite: Cleo\nBlack: Dan\n...\n1. S@a1\n",
    )
    .expect("written");
    std::fs::write(
        root.join("spring.otg"),
        "[event:Spring open]\n[attackers:Ann]\n[defenders:Eve]\n\
         [rules:dim:7 start:/3t3/3t3/tTTKTTt/3T3/3t3/7/7/]\n1. d5-f5 b4-b2\n",
    )
    .expect("written");
    let (mut client, _) = TestClient::start_with(
        json!({
            "processId": null,
            "rootUri": file_uri(&root),
            "capabilities": { "workspace": { "didChangeWatchedFiles": { "dynamicRegistration": true } } },
        }),
        analyzer(),
    )
    .await;
    // The server asks to be told of changes of the files it reads.
    let registration = client
        .wait_for(|message| message["method"] == "client/registerCapability")
        .await;
    let watcher = &registration["params"]["registrations"][0];
    assert_eq!(watcher["method"], "workspace/didChangeWatchedFiles");
    let patterns: Vec<&str> = watcher["registerOptions"]["watchers"]
        .as_array()
        .expect("watchers")
        .iter()
        .filter_map(|watched| watched["globPattern"].as_str())
        .collect();
    assert!(
        patterns
            .iter()
            .any(|pattern| pattern.starts_with("**/*.{ppn,")),
        "{patterns:?}"
    );
    client
        .send(json!({ "jsonrpc": "2.0", "id": registration["id"], "result": null }))
        .await;
    let find = |query: &str| json!({ "query": query });
    let found = result(&mut client, "workspace/symbol", find("ann")).await;
    let names: Vec<&str> = found
        .as_array()
        .expect("symbols")
        .iter()
        .map(|symbol| symbol["name"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(
        names,
        [
            "Game 1: Club night (Club night, 2024-01-01, Ann – Ben)",
            "Tafl (7×7) (Spring open, Ann – Eve)",
        ],
        "{found}"
    );
    let first = &found[0];
    assert_eq!(
        first["location"]["uri"],
        file_uri(&root.join("club/night.ppn"))
    );
    assert_eq!(
        first["location"]["range"]["start"],
        json!({ "line": 0, "character": 0 })
    );
    assert_eq!(first["containerName"], "night.ppn");
    let cleo = result(&mut client, "workspace/symbol", find("club cleo")).await;
    assert_eq!(cleo[0]["location"]["range"]["start"]["line"], 8);
    // A new file, told by the file watching.
    let new = root.join("club/final.ppn");
    std::fs::write(&new, "---\nEvent: Club final\nWhite: Ann\n...\n").expect("written");
    client
        .notify(
            "workspace/didChangeWatchedFiles",
            json!({ "changes": [{ "uri": file_uri(&new), "type": 1 }] }),
        )
        .await;
    let found = result(&mut client, "workspace/symbol", find("final")).await;
    assert_eq!(found.as_array().map(Vec::len), Some(1), "{found}");
    // An open file is searched as the editor has it.
    client
        .open(&file_uri(&new), 1, "---\nEvent: Club finale\n...\n")
        .await;
    let found = result(&mut client, "workspace/symbol", find("finale")).await;
    assert_eq!(found.as_array().map(Vec::len), Some(1), "{found}");
    let _ = std::fs::remove_dir_all(&root);
}

#[tokio::test]
async fn formatting_follows_the_line_width_of_ppn_ls_toml() {
    let root = std::env::temp_dir().join(format!("ppn-ls-fmt-config-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(root.join("narrow")).expect("a scratch folder");
    std::fs::create_dir_all(root.join("wide")).expect("a scratch folder");
    std::fs::write(
        root.join("narrow/ppn-ls.toml"),
        "[format]\nline-width = 20\n",
    )
    .expect("written");
    let long = "---\n...\n1. S@a1 S@a2 S@a3 S@a4 S@a5 S@a6\n";
    // The editor asks for 30 columns: the file's 20 win where there is one.
    let (mut client, _) = TestClient::start_with(
        json!({
            "processId": null,
            "rootUri": file_uri(&root),
            "capabilities": {},
            "initializationOptions": { "ppn-ls": { "format": { "line-width": 30 } } },
        }),
        analyzer(),
    )
    .await;
    let mut laid_out = Vec::new();
    for folder in ["narrow", "wide"] {
        let uri = file_uri(&root.join(folder).join("game.ppn"));
        client.open(&uri, 1, long).await;
        client.diagnostics(&uri).await;
        let edits = result(
            &mut client,
            "textDocument/formatting",
            json!({ "textDocument": { "uri": uri },
                    "options": { "tabSize": 4, "insertSpaces": true } }),
        )
        .await;
        laid_out.push(apply(long, &edits));
    }
    assert_eq!(
        laid_out,
        [
            "---\n...\n1. S@a1 S@a2 S@a3\n   S@a4 S@a5 S@a6\n",
            "---\n...\n1. S@a1 S@a2 S@a3 S@a4 S@a5\n   S@a6\n",
        ]
    );
    let _ = std::fs::remove_dir_all(&root);
}
