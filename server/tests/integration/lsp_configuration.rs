//! The project's configuration through the language server: `ppn-ls.toml` files found from a
//! document's folder upwards, the editor's settings (`initializationOptions`,
//! `workspace/didChangeConfiguration`, `workspace/configuration`), and an open
//! `ppn-ls.toml` with diagnostics of its own.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::common::TestClient;
use ppn_ls::lsp::IncrementalAnalyzer;
use serde_json::{json, Value};

/// Two errors: an unknown macro (line 4) and a stray `]` (line 5).
const GAME: &str = "---\nGameType: Tablut\n...\n1. a4-a3 `nowhere'\n1... c5-c3 ]\n";

const HINT: i64 = 4;
const WARNING: i64 = 2;
const ERROR: i64 = 1;

fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("the scratch directory is made");
    dir
}

fn uri(path: &Path) -> String {
    format!("file://{}", path.display()).replace(' ', "%20")
}

async fn start(initialization_options: Value, capabilities: Value) -> TestClient {
    let params = json!({
        "processId": null,
        "rootUri": null,
        "capabilities": capabilities,
        "initializationOptions": initialization_options,
    });
    TestClient::start_with(params, Arc::new(IncrementalAnalyzer::default()))
        .await
        .0
}

/// `(code, severity)` of each diagnostic published.
fn codes(published: &Value) -> Vec<(String, i64)> {
    published["diagnostics"]
        .as_array()
        .expect("a list of diagnostics")
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap_or_default().to_string(),
                d["severity"].as_i64().unwrap_or_default(),
            )
        })
        .collect()
}

#[tokio::test]
async fn the_editor_settings_change_severities_and_how_many_are_sent() {
    let dir = scratch("lsp-config-editor settings");
    let game = uri(&dir.join("game.ppn"));
    let mut client = start(
        json!({"ppn-ls": {"diagnostics": {"severity": {"unknown-macro": "hint"}}}}),
        json!({}),
    )
    .await;
    client.open(&game, 1, GAME).await;
    let published = client.diagnostics(&game).await;
    assert_eq!(
        codes(&published),
        [
            ("unknown-macro".to_string(), HINT),
            ("unexpected-token".to_string(), ERROR)
        ]
    );

    // Changed settings take effect at once, without an edit.
    client
        .notify(
            "workspace/didChangeConfiguration",
            json!({"settings": {"ppn-ls": {"diagnostics": {
                "severity": {"unknown-macro": "off"},
                "max-per-document": 1
            }}}}),
        )
        .await;
    let published = client.diagnostics(&game).await;
    assert_eq!(codes(&published), [("unexpected-token".to_string(), ERROR)]);

    client
        .notify(
            "workspace/didChangeConfiguration",
            json!({"settings": {"ppn-ls": {"diagnostics": {"max-per-document": 1}}}}),
        )
        .await;
    let published = client.diagnostics(&game).await;
    // The first of the most severe, and a note on the one left out.
    let found = codes(&published);
    assert_eq!(found[0], ("unknown-macro".to_string(), ERROR));
    assert_eq!(found[1].0, "too-many-diagnostics");
    assert_eq!(found.len(), 2);
}

#[tokio::test]
async fn mistakes_in_the_editor_settings_are_said_and_the_rest_applies() {
    let dir = scratch("lsp-config-editor-mistakes");
    let game = uri(&dir.join("game.ppn"));
    let mut client = start(
        json!({"ppn-ls": {"diagnostics": {"severity": {"unknown-macro": "quiet", "bad-move": "off"}}, "colour": 1}}),
        json!({}),
    )
    .await;
    let shown = client
        .wait_for(|message| message["method"] == "window/showMessage")
        .await;
    let message = shown["params"]["message"].as_str().unwrap();
    assert!(
        message.contains("ppn-ls.diagnostics.severity.unknown-macro"),
        "{message}"
    );
    assert!(message.contains("ppn-ls.colour"), "{message}");
    client.open(&game, 1, GAME).await;
    let published = client.diagnostics(&game).await;
    assert_eq!(
        codes(&published),
        [
            ("unknown-macro".to_string(), ERROR),
            ("unexpected-token".to_string(), ERROR)
        ]
    );
}

#[tokio::test]
async fn a_configuration_file_governs_the_documents_below_it_and_wins_for_severities() {
    let dir = scratch("lsp-config-file");
    std::fs::create_dir_all(dir.join("games/deep")).unwrap();
    std::fs::write(
        dir.join("ppn-ls.toml"),
        "[diagnostics.severity]\nunexpected-token = \"warning\"\n",
    )
    .unwrap();
    let game = uri(&dir.join("games/deep/game.ppn"));
    let mut client = start(
        json!({"ppn-ls": {"diagnostics": {"severity": {"unexpected-token": "off", "unknown-macro": "info"}}}}),
        json!({"workspace": {"didChangeWatchedFiles": {"dynamicRegistration": true}}}),
    )
    .await;
    // The server asks to be told when a ppn-ls.toml changes.
    let registration = client
        .wait_for(|message| message["method"] == "client/registerCapability")
        .await;
    let watchers = &registration["params"]["registrations"][0]["registerOptions"]["watchers"];
    assert_eq!(watchers[0]["globPattern"], "**/ppn-ls.toml");
    client
        .send(json!({"jsonrpc": "2.0", "id": registration["id"].clone(), "result": null}))
        .await;

    client.open(&game, 1, GAME).await;
    let published = client.diagnostics(&game).await;
    assert_eq!(
        codes(&published),
        [
            ("unknown-macro".to_string(), 3),
            ("unexpected-token".to_string(), WARNING)
        ]
    );

    // The file changes on disk: the client says so, and the diagnostics follow.
    std::fs::write(
        dir.join("ppn-ls.toml"),
        "[diagnostics.severity]\nunexpected-token = \"hint\"\n",
    )
    .unwrap();
    client
        .notify(
            "workspace/didChangeWatchedFiles",
            json!({"changes": [{"uri": uri(&dir.join("ppn-ls.toml")), "type": 2}]}),
        )
        .await;
    let published = client.diagnostics(&game).await;
    assert_eq!(
        codes(&published),
        [
            ("unknown-macro".to_string(), 3),
            ("unexpected-token".to_string(), HINT)
        ]
    );
}

#[tokio::test]
async fn an_open_configuration_file_gets_diagnostics_and_its_edits_count_at_once() {
    let dir = scratch("lsp-config-open");
    let config_path = dir.join("ppn-ls.toml");
    std::fs::write(&config_path, "").unwrap();
    let config = uri(&config_path);
    let game = uri(&dir.join("game.ppn"));
    let mut client = start(json!(null), json!({})).await;
    client.open(&game, 1, GAME).await;
    let published = client.diagnostics(&game).await;
    assert_eq!(codes(&published).len(), 2);

    let text = "[diagnostics.severity]\nunknown-macro = \"off\"\nunknown-macros = \"off\"\n";
    client.open(&config, 1, text).await;
    let own = client.diagnostics(&config).await;
    assert_eq!(own["version"], 1);
    let diagnostic = &own["diagnostics"][0];
    assert_eq!(diagnostic["code"], "config-unknown-code");
    assert_eq!(
        diagnostic["range"]["start"],
        json!({"line": 2, "character": 0})
    );
    assert_eq!(
        diagnostic["range"]["end"],
        json!({"line": 2, "character": 14})
    );
    assert!(diagnostic["message"]
        .as_str()
        .unwrap()
        .contains("did you mean `unknown-macro`?"));
    let published = client.diagnostics(&game).await;
    assert_eq!(codes(&published), [("unexpected-token".to_string(), ERROR)]);

    // An edit, not yet saved, counts; a broken file keeps the defaults.
    client
        .change(
            &config,
            2,
            json!([{"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 1}}, "text": ""}]),
        )
        .await;
    let own = client.diagnostics(&config).await;
    assert_eq!(own["diagnostics"][0]["code"], "config-syntax");
    assert_eq!(own["diagnostics"][0]["severity"], ERROR);
    let published = client.diagnostics(&game).await;
    assert_eq!(codes(&published).len(), 2);

    // Closed: the disk's (empty) file counts again, and its diagnostics are cleared.
    client
        .notify(
            "textDocument/didClose",
            json!({"textDocument": {"uri": config}}),
        )
        .await;
    let own = client.diagnostics(&config).await;
    assert_eq!(own["diagnostics"], json!([]));
}

#[tokio::test]
async fn settings_are_asked_for_from_a_client_that_answers_workspace_configuration() {
    let dir = scratch("lsp-config-pull");
    let game = uri(&dir.join("game.ppn"));
    let mut client = start(json!(null), json!({"workspace": {"configuration": true}})).await;
    let asked = client
        .wait_for(|message| message["method"] == "workspace/configuration")
        .await;
    assert_eq!(asked["params"]["items"][0]["section"], "ppn-ls");
    client
        .send(
            json!({"jsonrpc": "2.0", "id": asked["id"].clone(), "result": [
                {"diagnostics": {"severity": {"unexpected-token": "warning"}}}
            ]}),
        )
        .await;
    client.open(&game, 1, GAME).await;
    let published = client.diagnostics(&game).await;
    assert!(codes(&published).contains(&("unexpected-token".to_string(), WARNING)));

    // A change signalled without the settings: they are asked for again.
    client
        .notify(
            "workspace/didChangeConfiguration",
            json!({"settings": null}),
        )
        .await;
    let asked = client
        .wait_for(|message| message["method"] == "workspace/configuration")
        .await;
    client
        .send(
            json!({"jsonrpc": "2.0", "id": asked["id"].clone(), "result": [
                {"diagnostics": {"severity": {"unexpected-token": "hint"}}}
            ]}),
        )
        .await;
    let published = client.diagnostics(&game).await;
    assert!(codes(&published).contains(&("unexpected-token".to_string(), HINT)));
}

/// The hover's text and the `ppn/boardAt` board's text at `at`.
async fn hover_and_board(client: &mut TestClient, at: &Value) -> (String, String) {
    let hover = client.request("textDocument/hover", at.clone()).await;
    let board = client.request("ppn/boardAt", at.clone()).await;
    let text = |value: &Value| value.as_str().unwrap_or_default().to_string();
    (
        text(&hover["result"]["contents"]["value"]),
        text(&board["result"]["text"]),
    )
}

#[tokio::test]
async fn hovers_and_boards_are_drawn_in_the_style_the_settings_name() {
    let dir = scratch("lsp-config-hover-board");
    std::fs::write(dir.join("ppn-ls.toml"), "[hover]\nboard = \"reference\"\n").unwrap();
    let game = uri(&dir.join("game.ppn"));
    let mut client = start(json!(null), json!({})).await;
    client.open(&game, 1, GAME).await;
    let _ = client.diagnostics(&game).await;
    let at = json!({"textDocument": {"uri": game}, "position": {"line": 3, "character": 0}});
    // The file names the reference's glyphs: coins in combining circles, box drawing.
    let (hover, board) = hover_and_board(&mut client, &at).await;
    assert!(
        hover.contains("**Board 1.**") && hover.contains('\u{20dd}'),
        "{hover}"
    );
    assert!(board.contains('\u{20dd}') && board.contains('─'), "{board}");
    // The editor wins for how things are shown.
    client
        .notify(
            "workspace/didChangeConfiguration",
            json!({"settings": {"ppn-ls": {"hover": {"board": "plain"}}}}),
        )
        .await;
    let _ = client.diagnostics(&game).await;
    let (hover, board) = hover_and_board(&mut client, &at).await;
    assert!(hover.contains("**Board 1.**"), "{hover}");
    // Plain diagrams keep the box drawing but no combining marks.
    for drawn in [&hover, &board] {
        assert!(
            !drawn.contains('\u{20dd}') && drawn.contains('─'),
            "{drawn}"
        );
    }
}
