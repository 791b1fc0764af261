//! `--check` reads a long PPN file a batch of games at a time; what it reports must be
//! what the analysis of the whole text reports (which the editor shows). Each game depends
//! only on its own text; the one exception left is tree-sitter's recovery from some
//! malformed text, which can depend on the text before the game.

use std::path::{Path, PathBuf};

use ppn_ls::ppn::diagnostics::{check_text, check_text_in_batches};
use ppn_ls::ppn::reader::games::split_games;

fn ppn_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests");
    let mut folders = vec![root];
    let mut files = Vec::new();
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).expect("a readable folder") {
            let path = entry.expect("a folder entry").path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "ppn") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

#[test]
fn every_test_file_checked_game_by_game_says_what_the_whole_check_says() {
    let files = ppn_files();
    assert!(files.len() > 300, "{} files", files.len());
    let mut several_games = 0;
    for path in files {
        let text = std::fs::read_to_string(&path).expect("a readable file");
        let whole = check_text(&text);
        let batched = check_text_in_batches(&text, 1);
        assert_eq!(batched, whole, "{}", path.display());
        if split_games(&text).len() > 1 {
            several_games += 1;
        }
    }
    assert!(several_games >= 5, "{several_games} files of several games");
}

#[test]
fn a_file_of_many_games_is_checked_alike_in_batches_of_any_size() {
    let mut text = String::new();
    for path in ppn_files() {
        let file = std::fs::read_to_string(&path).expect("a readable file");
        // Every file becomes a game (or several) of one document.
        if !file.starts_with("---") {
            text.push_str("---\n...\n");
        }
        text.push_str(&file);
        if !text.ends_with('\n') {
            text.push('\n');
        }
    }
    let whole = check_text(&text);
    assert!(split_games(&text).len() > 300);
    assert!(whole.len() > 100, "{} diagnostics", whole.len());
    for batch_bytes in [1, 700, 20_000, 1 << 20] {
        assert_eq!(
            check_text_in_batches(&text, batch_bytes),
            whole,
            "batches of {batch_bytes} bytes"
        );
    }
}

#[test]
fn a_comment_left_open_breaks_only_the_rest_of_its_own_game() {
    let cases = [
        (
            "---\n...\n1. S@a1 2. *d4 {{{{{{{{{{{{{{{{{{{{\n---\n...\n1. S@b2 2. *c5\n",
            vec![
                ("no-piece", "d4"),
                ("unclosed-comment", "{{{{{{{{{{{{{{{{{{{{\n"),
                ("no-piece", "c5"),
            ],
        ),
        (
            "---\n...\n1. S@a1 2. *d4 {never closed\n---\n...\n1. S@b2 2. *c5\n",
            vec![
                ("no-piece", "d4"),
                ("unclosed-comment", "{"),
                ("no-piece", "c5"),
            ],
        ),
    ];
    for (text, expected) in cases {
        let whole = check_text(text);
        let found: Vec<(&str, &str)> = whole
            .iter()
            .map(|d| (d.code, &text[d.range.clone()]))
            .collect();
        assert_eq!(found, expected, "{text:?}");
        assert_eq!(check_text_in_batches(text, 1), whole, "{text:?}");
    }
}

#[test]
fn a_brace_in_a_comment_is_not_matched_with_one_in_the_next_game() {
    let text = "---\n...\n1. S@a1 {a comment {with\n---\n...\n1. S@b2 2. *c5 } 3. S@a3\n";
    let whole = check_text(text);
    let open = whole
        .iter()
        .find(|d| d.code == "unclosed-comment")
        .expect("the comment left open");
    assert_eq!(open.range.start, text.find('{').unwrap());
    assert!(
        open.message.starts_with("comment is never closed"),
        "{open:?}"
    );
    assert!(open.fixes.is_empty(), "no fix reaches into the next game");
    assert_eq!(check_text_in_batches(text, 1), whole);
}
