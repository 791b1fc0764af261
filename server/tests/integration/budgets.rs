//! Small hostile files that once took gigabytes: the binary must answer each within a
//! 1 GiB address space, with exit 0 or 1 and the diagnostic that says which budget stopped
//! the work. (A 60-second limit only guards against a hang; speed is the benchmarks' job.)

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const ONE_GIB: &str = "--as=1073741824";

fn scratch(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ppn-ls-budgets-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("the scratch file is written");
    path
}

/// `ppn-ls --check FILE --format json` under a 1 GiB address-space limit.
fn limited_check(file: &Path) -> Output {
    Command::new("timeout")
        .args(["60", "prlimit", ONE_GIB, "--"])
        .arg(env!("CARGO_BIN_EXE_ppn-ls"))
        .arg("--check")
        .arg(file)
        .args(["--format", "json"])
        .output()
        .expect("timeout, prlimit and ppn-ls start")
}

fn check(name: &str, text: &str) -> String {
    let output = limited_check(&scratch(name, text));
    let code = output.status.code();
    assert!(
        matches!(code, Some(0 | 1)),
        "{name}: exit {code:?}, stderr: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// `m1` is ten times `m0`, `m2` ten times `m1`, ... `m12`: 662 bytes that expanded
/// eagerly would need terabytes.
fn exponential_macros(used: bool) -> String {
    let mut text = String::from("---\nMacros:\n  m0: \"S@a1\"\n");
    for level in 1..=12 {
        let _ = writeln!(
            text,
            "  m{level}: \"{}\"",
            format!("`m{}'", level - 1).repeat(10)
        );
    }
    text.push_str("...\n1. S@b2\n");
    if used {
        text.push_str("2. `m12'\n");
    }
    text
}

#[test]
fn exponential_macros_cost_nothing_unused_and_stop_at_a_budget_when_used() {
    let unused = check("exponential.ppn", &exponential_macros(false));
    assert!(!unused.contains("\"severity\":\"error\""), "{unused}");
    let used = check("exponential-used.ppn", &exponential_macros(true));
    assert!(used.contains("macro-too-long"), "{used}");
}

/// A short macro name for `index`: base 36.
fn short_name(mut index: usize) -> String {
    let mut name = String::new();
    loop {
        name.insert(0, char::from_digit((index % 36) as u32, 36).unwrap_or('0'));
        index /= 36;
        if index == 0 {
            return format!("m{name}");
        }
    }
}

#[test]
fn a_long_chain_of_macros_stops_at_the_depth_budget() {
    // As many as the metadata size budget lets through (the macro table itself is tested
    // with a chain of 100,000).
    let length = 4_000;
    let mut text = String::from("---\nMacros:\n");
    for index in 0..length {
        let _ = writeln!(
            text,
            "  {}: \"`{}'\"",
            short_name(index),
            short_name(index + 1)
        );
    }
    let _ = writeln!(text, "  {}: S@a1", short_name(length));
    let _ = write!(
        text,
        "...\n1. `{}'\n2. `{}'\n",
        short_name(0),
        short_name(length - 50)
    );
    let found = check("chain.ppn", &text);
    assert_eq!(found.matches("macro-too-deep").count(), 1, "{found}");
    assert!(!found.contains("unknown-macro"), "{found}");
    assert!(!found.contains("metadata-too-large"), "{found}");
}

/// A board of 2,000 coins (the most a board holds), then `pairs` times a coin moved there
/// and back.
fn crowded_game(pairs: usize) -> String {
    let mut text = String::from("---\n...\n1. S@{a..z}{1..76} S@{a..x}77\n");
    for number in 2..pairs + 2 {
        let _ = writeln!(text, "{number}. a1-a2 {number}... a2-a1");
    }
    text
}

#[test]
fn two_thousand_pieces_over_ten_thousand_moves_fit_in_the_budget() {
    let found = check("crowded.ppn", &crowded_game(5_000));
    assert!(
        !found.contains("\"severity\""),
        "{}",
        &found[..found.len().min(2000)]
    );
}

#[test]
fn replay_json_streams_one_board_after_the_other() {
    let text = crowded_game(150);
    let file = scratch("crowded-replay.ppn", &text);
    let out = file.with_extension("json");
    let status = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "timeout 60 prlimit {ONE_GIB} -- '{}' replay --format json '{}' > '{}'",
            env!("CARGO_BIN_EXE_ppn-ls"),
            file.display(),
            out.display()
        ))
        .status()
        .expect("sh starts");
    assert_eq!(status.code(), Some(0));
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&out).expect("the replay was written"))
            .expect("the replay is JSON");
    let states = json["games"][0]["states"].as_array().expect("states");
    assert_eq!(states.len(), 2 + 2 * 150);
    assert_eq!(states[0]["pieces"].as_array().map(Vec::len), Some(0));
    for state in &states[1..] {
        assert_eq!(state["pieces"].as_array().map(Vec::len), Some(2_000));
    }
    let last = &states[states.len() - 1];
    assert_eq!(last["move"], "151...");
}

#[test]
fn a_hundred_thousand_empty_games_are_cheap() {
    let text = "---\n...\n".repeat(100_000);
    let found = check("empty-games.ppn", &text);
    assert!(
        !found.contains("\"severity\""),
        "{}",
        &found[..found.len().min(2000)]
    );
}

#[test]
fn fifteen_thousand_small_games_are_checked_in_bounded_memory() {
    // Six megabytes of real-looking games: read whole, their syntax trees and boards took
    // more than a gibibyte.
    let game = "---\nGameType: Chess\nEvent: Club night\n...\n\
                1. e2-e4 e7-e5 2. g1-f3 b8-c6 3. f1-b5 a7-a6 4. b5-a4 g8-f6 5. e1-g1 f8-e7\n\
                6. f1-e1 b7-b5 7. a4-b3 d7-d6 8. c2-c3 e8-g8 9. h2-h3 c6-b8 10. d2-d4 b8-d7\n\
                11. b1-d2 c8-b7 12. b3-c2 f8-e8 13. d2-f1 e7-f8 14. f1-g3 g7-g6 15. c1-g5 h7-h6\n\
                16. g5-d2 f8-g7 17. a2-a4 c7-c5 18. d4-d5 c5-c4 19. b2-b4 d7-b6 20. a4-a5 b6-d7\n";
    let games = 15_000;
    let found = check("small-games.ppn", &game.repeat(games));
    let diagnostics: Vec<serde_json::Value> =
        serde_json::from_str(&found).expect("the JSON report");
    // Castling written as the king's move alone leaves the rook on h1 and h8: each game
    // reports the rook's move from f1 and f8 (the same two places in every game).
    assert_eq!(diagnostics.len(), 2 * games);
    let last = &diagnostics[diagnostics.len() - 1];
    assert_eq!(last["code"], "no-piece");
    assert_eq!(last["line"], 8 * games - 1);
}
