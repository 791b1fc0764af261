//! Broken games: every problem is reported on the right text, and the moves after it still
//! replay.

use ppn_ls::diagnostic::Severity;
use ppn_ls::model::format::Format::Ppn;
use ppn_ls::ppn::diagnostics::check_text;
use ppn_ls::ppn::replay::replay_document;
use ppn_ls::render::words::describe_piece;

use crate::common::diagnostics::diagnostic_codes;

const GAME: &str = "---
...
1. S@b2 1... *b5
2. ?M-b3
3. `zz'@c3
4. Q@d4
5. S@b
6. S@b2;-<1,x>
7. M@e5 { still replayed }
";

#[test]
fn each_problem_is_reported_on_its_own_text() {
    let found: Vec<(&str, Severity, &str)> = check_text(GAME)
        .iter()
        .map(|d| (d.code, d.severity, &GAME[d.range.clone()]))
        .collect();
    assert_eq!(
        found,
        [
            ("no-piece", Severity::Error, "b5"),
            ("no-piece", Severity::Error, "?M"),
            ("unknown-macro", Severity::Error, "`zz'"),
            ("unknown-piece", Severity::Warning, "Q"),
            ("bad-location", Severity::Error, "b"),
            ("bad-location", Severity::Error, "<1,x>"),
        ]
    );
}

#[test]
fn moves_after_errors_still_replay_and_errors_change_nothing() {
    let replay = replay_document(GAME);
    let states: Vec<_> = replay.games[0].states().collect();
    let labels: Vec<&str> = states.iter().map(|s| s.label.as_str()).collect();
    assert_eq!(
        labels,
        ["SetupFn.", "1.", "1...", "2.", "3.", "4.", "5.", "6.", "6..", "7."]
    );
    // A move that fails leaves the board as it was.
    for failing in ["1...", "2.", "3.", "5.", "6.."] {
        let at = labels.iter().position(|l| *l == failing).unwrap();
        assert_eq!(
            states[at].pieces(),
            states[at - 1].pieces(),
            "move {failing} changed the board"
        );
    }
    let last: Vec<String> = states
        .last()
        .unwrap()
        .pieces()
        .iter()
        .map(|p| format!("{} at ({},{})", describe_piece(p), p.x, p.y))
        .collect();
    assert_eq!(
        last,
        [
            "null of Suns coin, back up at (2,2)",
            "null of Suns tile, back up at (4,4)",
            "null of Suns coin, back up at (2,2)",
            "null of Moons coin, back up at (5,5)",
        ]
    );
}

#[test]
fn a_yaml_error_does_not_stop_the_moves() {
    let text = "---\nGameType: [Tablut\n...\n1. S@a1 1... a1-a2\n";
    assert_eq!(diagnostic_codes(Ppn, text), ["yaml-error"]);
    let replay = replay_document(text);
    let last = replay.games[0].states().last().unwrap();
    assert_eq!((last.pieces()[0].x, last.pieces()[0].y), (1.0, 2.0));
}

#[test]
fn an_unknown_game_names_the_closest_ones() {
    let text = "---\nGameType: Tablutt\n...\n1. S@a1\n";
    assert_eq!(diagnostic_codes(Ppn, text), ["unknown-game"]);
    let diagnostics = check_text(text);
    assert_eq!(&text[diagnostics[0].range.clone()], "Tablutt");
    assert!(
        diagnostics[0].message.contains("did you mean `Tablut`"),
        "{}",
        diagnostics[0].message
    );
}

#[test]
fn a_board_holds_at_most_two_thousand_pieces() {
    let text = "1. t@{a..z}{1..100} 2. S@a1\n";
    let diagnostics = check_text(text);
    let found: Vec<(&str, &str)> = diagnostics
        .iter()
        .map(|d| (d.code, &text[d.range.clone()]))
        .collect();
    assert_eq!(
        found,
        [
            ("too-many-pieces", "t@{a..z}{1..100}"),
            ("too-many-pieces", "S")
        ]
    );
    let replay = replay_document(text);
    let last = replay.games[0].states().last().unwrap();
    assert_eq!(last.pieces().len(), 2_000);
}
