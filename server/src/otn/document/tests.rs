use super::*;
use expect_test::expect;

use crate::diagnostic::Severity;
use crate::fixture::{
    check_completions, check_diagnostics, check_folds, check_hover, check_inlay_hints,
    check_semantic_tokens, check_symbols, diagnostic_codes,
};
use crate::ide::analyze::{hover, quick_fixes};
use crate::model::format::Format::Otn;
use crate::model::notation_document::NotationDocument;

const BRANDUBH: &str =
    "dim:7 name:Brandubh ks:w cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";

fn record(moves: &str) -> String {
    format!("[event:Test]\n[rules:{BRANDUBH}]\n\n{moves}")
}

fn document(text: &str) -> OtnDocument {
    OtnDocument::new(text.to_string())
}

#[test]
fn a_clean_record_has_no_diagnostics_and_labels_its_states() {
    let doc = document(&record("1. d2-e2 d3-d2\n[first|second]\n2. a4-a3 c4-c6\n"));
    assert!(doc.diagnostics().is_empty(), "{:?}", doc.diagnostics());
    let labels: Vec<String> = doc.main_line(0).into_iter().map(|s| s.label).collect();
    assert_eq!(labels, ["start", "1a", "1b", "2a", "2b"]);
    let states = doc.main_line(0);
    assert_eq!(states[1].text, "d2-e2");
    assert_eq!(states[1].comment, "first");
    assert_eq!(states[2].comment, "second");
    assert_eq!(doc.games()[0].name, "Brandubh (7×7)");
}

#[test]
fn illegal_moves_say_why_and_replay_goes_on() {
    let text = record("1. d2-e2 d3-d2\n2. d1-d3 g4-g5\n3. e7-e1 c4-c5\n4. a4-a3 c5-c6\n");
    check_diagnostics(
        Otn,
        &text,
        expect![[r#"
            error illegal-move 5:4-5:9 "d1-d3": 2a d1-d3 is illegal: d1-d3 passes through d2; it is made all the same
            error illegal-move 5:10-5:15 "g4-g5": 2b g4-g5 is illegal: the defenders are to move; it is made all the same
            error illegal-move 6:4-6:6 "e7": 3a e7-e1: there is no man on e7
            info moves-not-checked 6:10-6:15 "c4-c5": the moves of the main line from here on are not checked: 3a could not be made, so the boards after it are not the record's
        "#]],
    );
    // Replay went on: every move has a state, and the illegal moves that could be made were.
    let doc = document(&text);
    assert_eq!(doc.main_line(0).len(), 9);
    assert_eq!(doc.position(0, 4), "/7/3Tt2/3t3/ttTKTt1/3T2t/3t3/3t3/");
}

#[test]
fn after_a_move_that_cannot_be_made_the_line_is_not_checked() {
    // 2b cannot be made (c4 holds a defender): the defender on c4 then moves at 3b as the
    // record has it, and the attackers' 4a would capture nothing the record says, but none
    // of it is reported: one note says the rest is not checked, at the first move after.
    let text = record("1. d2-e2 d3-d2\n2. a4-a3 Kd4-c4\n3. a3-a2 c4-c5\n4. g4-g1xd7 e4-e5\n");
    check_diagnostics(
        Otn,
        &text,
        expect![[r#"
            error illegal-move 5:11-5:16 "d4-c4": 2b Kd4-c4 is illegal: c4 is occupied; it is skipped
            info moves-not-checked 6:4-6:9 "a3-a2": the moves of the main line from here on are not checked: 2b could not be made, so the boards after it are not the record's
        "#]],
    );
    // The moves after it are made where they can be.
    let doc = document(&text);
    assert_eq!(doc.main_line(0).len(), 9);
    assert_ne!(doc.position(0, 5), doc.position(0, 4));
    // A variation off a move after it is not checked either, said once at its first move.
    let text = format!("{text}3b.1.1b. ..... c4-c6\n3b.1.2a. a2-a1 c6-b6\n");
    check_diagnostics(
        Otn,
        &text,
        expect![[r#"
            error illegal-move 5:11-5:16 "d4-c4": 2b Kd4-c4 is illegal: c4 is occupied; it is skipped
            info moves-not-checked 6:4-6:9 "a3-a2": the moves of the main line from here on are not checked: 2b could not be made, so the boards after it are not the record's
            info moves-not-checked 8:16-8:21 "c4-c6": the moves of variation 3b.1. from here on are not checked: 2b could not be made, so the boards after it are not the record's
        "#]],
    );
    // A variation off a move before it is checked.
    let text = format!("{text}2a.1.1a. a4-a2 Kd4-d5\n");
    check_diagnostics(
        Otn,
        &text,
        expect![[r#"
            error illegal-move 5:11-5:16 "d4-c4": 2b Kd4-c4 is illegal: c4 is occupied; it is skipped
            info moves-not-checked 6:4-6:9 "a3-a2": the moves of the main line from here on are not checked: 2b could not be made, so the boards after it are not the record's
            info moves-not-checked 8:16-8:21 "c4-c6": the moves of variation 3b.1. from here on are not checked: 2b could not be made, so the boards after it are not the record's
            error illegal-move 10:17-10:22 "d4-d5": 2a.1.1b Kd4-d5 is illegal: d5 is occupied; it is skipped
        "#]],
    );
}

#[test]
fn a_move_made_by_the_side_not_to_move_still_is_its_side_s_move() {
    // A defender moves in the attackers' place: the defenders move next all the same, as
    // the record has it.
    let text = record("1. d2-e2 d3-d2\n2. c4-c5 e4-e5\n3. e2-e1 c5-c6\n");
    check_diagnostics(
        Otn,
        &text,
        expect![[r#"
            error illegal-move 5:4-5:9 "c4-c5": 2a c4-c5 is illegal: the attackers are to move; it is made all the same
        "#]],
    );
    let labels: Vec<String> = document(&text)
        .main_line(0)
        .into_iter()
        .map(|s| s.label)
        .collect();
    assert_eq!(labels, ["start", "1a", "1b", "2a", "2b", "3a", "3b"]);
}

#[test]
fn a_move_being_typed_takes_its_place_in_the_turn() {
    // `dx2-e2` does not read: it is skipped, and the defenders' move after it keeps its side.
    let text = record("1. dx2-e2 d3-c3\n2. a4-a3 c4-c6\n3. a3-a2 c3-b3 junk\n");
    check_diagnostics(
        Otn,
        &text,
        expect![[r#"
            error move-syntax 4:4-4:5 "d": `dx2-e2` is not a move record: a move reads like `e5-e8`, `Ke1-a1` or `e5-e8xe9`
            info moves-not-checked 4:11-4:16 "d3-c3": the moves of the main line from here on are not checked: 1a could not be made, so the boards after it are not the record's
            error move-syntax 6:16-6:17 "j": `junk` is not a move record: a move reads like `e5-e8`, `Ke1-a1` or `e5-e8xe9`
        "#]],
    );
    let doc = document(&text);
    let labels: Vec<String> = doc.main_line(0).into_iter().map(|s| s.label).collect();
    assert_eq!(labels, ["start", "1a", "1b", "2a", "2b", "3a", "3b"]);
    assert_eq!(doc.position(0, 1), doc.position(0, 0));
}

#[test]
fn the_throne_is_the_king_s() {
    check_diagnostics(
        Otn,
        &record("1. d2-e2 d3-d2\n2. a4-a3 Kd4-d3\n3. a3-a2 c4-d4\n"),
        expect![[r#"
            error illegal-move 6:10-6:15 "c4-d4": 3b c4-d4 is illegal: only the king may stop on the throne (cens: K); it is made all the same
        "#]],
    );
}

#[test]
fn captures_against_the_record() {
    // d2-e2 then d3-d2: nothing. a4-a3: nothing. Then b4... Let the attackers capture d5:
    // the defender on d5 between d6 and the attacker arriving on d4? The throne holds the king.
    check_diagnostics(
        Otn,
        &record("1. c4-c7xd1 d3-c3\n2. g4-g3 c3-c2\n"),
        expect![[r#"
            error illegal-move 4:4-4:9 "c4-c7": 1a c4-c7 is illegal: the attackers are to move; it is made all the same
            error capture-not-made 4:10-4:12 "d1": 1a c4-c7 does not capture on d1
        "#]],
    );
    // A capture the engine makes and the record leaves out: a warning with a fix.
    let text = record("1. g4-g3 d5-f5\n2. g3-e3 f5-f6\n3. b4-b3 f6-f5\n4. b3-c3 f5-f6\n");
    let doc = document(&text);
    let missing = doc
        .diagnostics()
        .iter()
        .find(|d| d.code == "missing-capture");
    let Some(missing) = missing else {
        panic!("{:?}", doc.diagnostics());
    };
    assert_eq!(missing.severity, Severity::Warning);
    let fix = &missing.fixes[0];
    let mut fixed = text.clone();
    let (range, insert) = &fix.edits[0];
    fixed.replace_range(range.clone(), insert);
    assert!(OtnDocument::new(fixed).diagnostics().is_empty());
    assert_eq!(quick_fixes(&doc, missing.range.clone()).len(), 1);
    // The inlay hint shows the capture where it is missing, as the fix writes it.
    let hints = doc.inlay_hints(0..text.len());
    let hinted: Vec<(usize, &str)> = hints.iter().map(|h| (h.offset, h.label.as_str())).collect();
    assert_eq!(hinted, [(range.start, insert.as_str())]);
    check_inlay_hints(
        Otn,
        &text,
        expect![[r#"
            [event:Test]
            [rules:dim:7 name:Brandubh ks:w cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]

            1. g4-g3 d5-f5
            2. g3-e3 f5-f6
            3. b4-b3 f6-f5
            4. b3-c3‹Capture: xd3 | captures a defending taflman on d3 (not written)› f5-f6
        "#]],
    );
}

#[test]
fn mover_symbols_and_info_symbols_are_checked() {
    check_diagnostics(
        Otn,
        &record("1. Kd2-e2 d3-d2++\n"),
        expect![[r#"
            error mover-mismatch 4:4-4:5 "K": `K` says the king moves, but d2 holds an attacking taflman
            warning info-mismatch 4:16-4:18 "++": `++` says the king is captured: the game ends, but the board disagrees
        "#]],
    );
}

#[test]
fn turn_numbers_missing_and_repeated() {
    let text = record("1. d2-e2 d3-d2\n3. a4-a3 c4-c6\n3. b4-c4 d5-b5\n");
    check_diagnostics(
        Otn,
        &text,
        expect![[r#"
            error missing-turn 5:1-5:3 "3.": turn 2 is missing before 3; OpenTafl drops every turn after a gap, ppn-ls replays them in order
            error repeated-turn 6:1-6:3 "3.": turn 3 comes after turn 3; its moves are replayed in the order written
        "#]],
    );
    // The moves after the gap are replayed all the same.
    assert_eq!(document(&text).main_line(0).len(), 7);
}

#[test]
fn a_short_turn_is_reported() {
    check_diagnostics(
        Otn,
        &record("1. d2-e2\n2. d3-d2 a4-a3\n"),
        expect![[r#"
            warning turn-length 5:4-5:9 "d3-d2": by the moves played this is move 1b: the turn before lacks a move (a turn holds one move per side)
            warning turn-length 5:10-5:15 "a4-a3": this move starts turn 2a: a turn holds one move per side, unless a capture lets a berserk man move again
        "#]],
    );
}

#[test]
fn rules_problems_are_located() {
    check_diagnostics(
        Otn,
        "[rules:dim:7 ks:q foo:y start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t2/]\n\n1. d2-e2\n",
        expect![[r#"
            error invalid-rules-value 1:17-1:18 "q": ks:q: king strength is one of `s` (strong: surrounded on four sides), `c` (strong on or next to the centre, weak elsewhere), `m` (middleweight: every square next to him hostile, the edge does not protect), `w` (weak: between two enemies, like any man), `y` (strong (older form of s)), `n` (weak (older form of w))
            warning unknown-rules-key 1:19-1:22 "foo": `foo` is not an OTN rules key; OpenTafl ignores it
            error row-length 1:60-1:63 "3t2": this row covers 6 squares; the board is 7 wide
        "#]],
    );
    check_diagnostics(
        Otn,
        "1. d2-e2\n",
        expect![[r#"
            error missing-rules 1:1-1:3 "1.": a game record needs a `[rules:...]` tag (e.g. `[rules:dim:7 start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]`) to replay its moves
        "#]],
    );
}

#[test]
fn result_tag_and_puzzle_addresses_against_the_replay() {
    // The king is neither captured nor escaped here: the result is not contradicted.
    check_diagnostics(
        Otn,
        &format!("[result:1]\n[puzzle-start:9a]\n[rules:{BRANDUBH}]\n\n1. d2-e2 d3-d2\n2. e2-e3 Kd4-d3\n3. a4-a3 Kd3-e3\n"),
        expect![[r#"
            warning unknown-address 2:15-2:17 "9a": puzzle-start: no move has the address `9a` (`0a` is the start)
            error illegal-move 7:11-7:16 "d3-e3": 3b Kd3-e3 is illegal: e3 is occupied; it is skipped
        "#]],
    );
    // A king escape contradicting `result:1`.
    check_diagnostics(
        Otn,
        "[result:1]\n[rules:dim:7 esc:e start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]\n\n1. d2-e2 d3-d2\n2. a4-a3 Kd4-d3\n3. a3-a2 Kd3-g3--\n",
        expect![[r#"
            warning result-mismatch 1:9-1:10 "1": the result says 1 (attackers win), but at 3b the defenders win: the king escapes
        "#]],
    );
}

#[test]
fn moves_after_the_end_are_flagged_once() {
    let text = "[rules:dim:7 esc:e start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]\n\n1. d2-e2 d3-d2\n2. a4-a3 Kd4-d3\n3. a3-a2 Kd3-g3\n4. a2-b2 d2-d3\n";
    check_diagnostics(
        Otn,
        text,
        expect![[r#"
            warning move-after-end 6:4-6:9 "a2-b2": the game ended after 3b (defenders win: the king escapes); the moves after it are replayed all the same
        "#]],
    );
    assert_eq!(
        document(text).main_line(0).len(),
        9,
        "moves after the end are replayed"
    );
}

#[test]
fn variations_resolve_their_roots() {
    let text =
        record("1. d2-e2 d3-d2\n1a.1.1a. d2-c2 d3-d1\n1b.1.1a. ..... d5-b5\n9a.1.1a. d2-e2\n");
    check_diagnostics(
        Otn,
        &text,
        expect![[r#"
            error illegal-move 5:16-5:21 "d3-d1": 1a.1.1b d3-d1 is illegal: d1 is occupied; it is skipped
            error unknown-variation-root 7:1-7:9 "9a.1.1a.": 9a.1.: the main line has no move 9a
        "#]],
    );
    let doc = document(&text);
    assert_eq!(doc.replay.lines.len(), 3);
    let second = &doc.replay.lines[2];
    assert_eq!(second.label(1), "1b.1.1b");
    assert_eq!(doc.position(2, 1), "/3t3/4t2/3T3/ttTKTtt/1T5/3t3/3t3/");
    check_symbols(
        Otn,
        &text,
        expect![[r#"
            Game Brandubh (7×7) (dim:7 name:Brandubh ks:w cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/) at 2:8-2:85 "dim:7 name:Brandubh ks:w cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/", covering 1:1-8:1
              Move 1a (d2-e2) at 4:4-4:9 "d2-e2", covering 4:4-4:9 "d2-e2"
                Variation variation 1a.1. (d2-c2) at 5:1-5:9 "1a.1.1a.", covering 5:1-5:21 "1a.1.1a. d2-c2 d3-d1"
                  Move 1a.1.1a (d2-c2) at 5:10-5:15 "d2-c2", covering 5:10-5:15 "d2-c2"
                  Move 1a.1.1b (d3-d1) at 5:16-5:21 "d3-d1", covering 5:16-5:21 "d3-d1"
              Move 1b (d3-d2) at 4:10-4:15 "d3-d2", covering 4:10-4:15 "d3-d2"
                Variation variation 1b.1. (d5-b5) at 6:1-6:9 "1b.1.1a.", covering 6:1-6:21 "1b.1.1a. ..... d5-b5"
                  Move 1b.1.1b (d5-b5) at 6:16-6:21 "d5-b5", covering 6:16-6:21 "d5-b5"
        "#]],
    );
    // Placeholders that do not fit the root.
    check_diagnostics(
        Otn,
        &record("1. d2-e2 d3-d2\n1b.1.1a. d5-b5\n"),
        expect![[r#"
            warning variation-placeholders 5:1-5:9 "1b.1.1a.": this variation's first move is the second move of its turn: write 1 `.....` before it
        "#]],
    );
}

#[test]
fn variations_list_their_moves_and_where_they_branch_off() {
    let text =
        record("1. d2-e2 d3-d2\n2. a4-a2 d2-c2\n2a.1.1a. a4-a3 d2-b2\n1b.1.1a. ..... d3-d1\n");
    let doc = document(&text);
    let variations = doc.variations(0);
    let names: Vec<&str> = variations.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(names, ["2a.1.", "1b.1."]);
    let main = doc.main_line(0);
    // 2a.1. replaces the main line's 2a: it branches off after 1b.
    assert_eq!(variations[0].from, main[2].state);
    let labels: Vec<&str> = variations[0]
        .states
        .iter()
        .map(|s| s.label.as_str())
        .collect();
    assert_eq!(labels, ["2a.1.1a", "2a.1.1b"]);
    assert_eq!(variations[0].states[1].text, "d2-b2");
    // 1b.1. replaces 1b: it branches off after 1a.
    assert_eq!(variations[1].from, main[1].state);
    assert_eq!(variations[1].states[0].label, "1b.1.1b");
    // Each state is one of its own, with its own board.
    assert_ne!(
        doc.scene(variations[0].states[0].state)
            .map(|scene| scene.pieces),
        doc.scene(main[3].state).map(|scene| scene.pieces)
    );
    assert!(doc.variations(1).is_empty());
}

#[test]
fn scenes_mark_the_move_and_the_captures() {
    let text = record("1. d2-e2 d3-d2\n2. a4-a2 d2-c2xc2\n");
    let doc = document(&text);
    let at = doc.move_at(text.find("a4-a2").unwrap(), false).unwrap();
    assert_eq!(at.label, "2a");
    let scene = doc.scene(at.state).unwrap();
    assert_eq!(scene.pieces[0].kind, crate::model::piece::PieceKind::Board);
    let marked: Vec<(f64, f64)> = scene
        .highlighted
        .iter()
        .map(|&i| (scene.pieces[i].x, scene.pieces[i].y))
        .collect();
    assert_eq!(marked, [(1.0, 2.0)]);
    assert!(scene.vacated.contains(&(1.0, 4.0)));
    assert!(scene
        .squares
        .iter()
        .any(|s| s.role == SquareRole::Throne && (s.x, s.y) == (4.0, 4.0)));
    assert_eq!(
        scene
            .squares
            .iter()
            .filter(|s| s.role == SquareRole::Corner)
            .count(),
        4
    );
    // Between moves the board panel shows the last move before the cursor.
    let gap = text.find("\n2.").unwrap();
    assert_eq!(doc.move_at(gap, true).unwrap().label, "1b");
    assert_eq!(doc.move_at(0, true).unwrap().label, "start");
}

#[test]
fn hover_on_moves_keys_values_and_tags() {
    check_hover(
        Otn,
        &record("1. d2-e2 d$03-d2\n"),
        expect![[r#"
            4:10-4:15 "d3-d2"
            **1b** `d3-d2`

            board: 1b (game 0, state 2)
        "#]],
    );
    // The board is drawn below the move's hover in an editor.
    let text = record("1. d2-e2 d3-d2\n");
    let shown = hover(&document(&text), text.find("d3-d2").unwrap() + 1).unwrap();
    assert!(shown.markdown.contains("```text"), "a board is drawn");
    check_hover(
        Otn,
        "[event:Test]\n[rules:dim:7 name:Brandubh $0ks:w cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]\n\n",
        expect![[r#"
            2:28-2:30 "ks"
            **ks**: king strength

            How the king is captured.

            - `s`: strong: surrounded on four sides
            - `c`: strong on or next to the centre, weak elsewhere
            - `m`: middleweight: every square next to him hostile, the edge does not protect
            - `w`: weak: between two enemies, like any man
            - `y`: strong (older form of s)
            - `n`: weak (older form of w)

            Default: `s`
        "#]],
    );
    check_hover(
        Otn,
        "[event:Test]\n[rules:dim:7 name:Brandubh ks:$0w cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]\n\n",
        expect![[r#"
            2:31-2:32 "w"
            **ks:w**: king strength: weak: between two enemies, like any man
        "#]],
    );
    check_hover(
        Otn,
        "[event:Test]\n[rules:dim:7 name:Brandubh ks:w $0cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]\n\n",
        expect![[r#"
            2:33-2:37 "cenh"
            **cenh**: centre: hostile to

            The men the centre squares are hostile to: such a man between one of them and an enemy is captured.

            Default: `tcnkmg`
        "#]],
    );
    check_hover(
        Otn,
        "[$0event:Test]\n[rules:dim:7 name:Brandubh ks:w cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]\n\n",
        expect![[r#"
            1:2-1:7 "event"
            **event**: tournament or match event name
        "#]],
    );
    check_hover(
        Otn,
        "[event:Test]\n[rules:dim:7 name:Brandubh ks:w cenh: cenhe: start:/$03t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]\n\n",
        expect![[r#"
            2:52-2:85 "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"
            **start**: starting position

            board: start (game 0, state 0)
        "#]],
    );
}

#[test]
fn completion_of_keys_values_and_tags() {
    // Keys already given are left out: `dim` here.
    check_completions(
        Otn,
        "[rules:dim:7 d$0 start:/7/7/7/3K3/7/7/7/]\n",
        expect![[r#"
            dfor => "dfor:" — defenders' forts
            dforp => "dforp:" — defenders' fort: passable by
            dfors => "dfors:" — defenders' fort: stoppable by
            dforh => "dforh:" — defenders' fort: hostile to
            dforre => "dforre:" — defenders' fort: re-enterable by
            and 35 more not matching "d"
            replacing 1:14-1:15 "d"
        "#]],
    );
    check_completions(
        Otn,
        "[rules:dim:7 k$0 start:/7/7/7/3K3/7/7/7/]\n",
        expect![[r#"
            ka => "ka:" — king armed
            ks => "ks:" — king strength
            kj => "kj:" — king jump
            and 37 more not matching "k"
            replacing 1:14-1:15 "k"
        "#]],
    );
    check_completions(
        Otn,
        "[rules:dim:7 ks:$0 start:/7/7/7/3K3/7/7/7/]\n",
        expect![[r#"
            s — strong: surrounded on four sides
            c — strong on or next to the centre, weak elsewhere
            m — middleweight: every square next to him hostile, the edge does not protect
            w — weak: between two enemies, like any man
            y — strong (older form of s)
            n — weak (older form of w)
            replacing 1:17-1:17 ""
        "#]],
    );
    check_completions(
        Otn,
        "[ev$0\n[rules:dim:7 start:/7/7/7/3K3/7/7/7/]\n",
        expect![[r#"
            event => "event:" — tournament or match event name
            and 18 more not matching "ev"
            replacing 1:2-1:4 "ev"
        "#]],
    );
}

#[test]
fn semantic_tokens_cover_tags_rules_and_moves() {
    check_semantic_tokens(
        Otn,
        &record("1. Kd4-d3xe3+ d3-d2\n[a comment]\n"),
        expect![[r#"
            Keyword "["
            Property "event"
            String "Test"
            Keyword "]"
            Keyword "["
            Property "rules"
            Property "dim"
            Number "7"
            Property "name"
            String "Brandubh"
            Property "ks"
            EnumMember "w"
            Property "cenh"
            Property "cenhe"
            Property "start"
            Operator "/"
            Number "3"
            Type "t"
            Number "3"
            Operator "/"
            Number "3"
            Type "t"
            Number "3"
            Operator "/"
            Number "3"
            Type "T"
            Number "3"
            Operator "/"
            Type "t"
            Type "t"
            Type "T"
            Type "K"
            Type "T"
            Type "t"
            Type "t"
            Operator "/"
            Number "3"
            Type "T"
            Number "3"
            Operator "/"
            Number "3"
            Type "t"
            Number "3"
            Operator "/"
            Number "3"
            Type "t"
            Number "3"
            Operator "/"
            Keyword "]"
            Number "1."
            Type "K"
            Variable "d4"
            Operator "-"
            Variable "d3"
            Operator "x"
            Variable "e3"
            EnumMember "+"
            Variable "d3"
            Operator "-"
            Variable "d2"
            Comment "[a comment]"
        "#]],
    );
    let text = record("1. Kd4-d3xe3+ d3-d2\n[a comment]\n");
    let tokens = document(&text).semantic_tokens(0..text.len());
    for pair in tokens.windows(2) {
        assert!(pair[0].range.end <= pair[1].range.start, "{pair:?}");
    }
}

#[test]
fn the_tokens_of_a_range_are_those_of_the_whole_record_inside_it() {
    let text = record("1. Kd4-d3xe3+ d3-d2\n[a comment\nover lines]\n2. e3-e4 d2-d1\n");
    let doc = document(&text);
    let tokens = doc.semantic_tokens(0..text.len());
    assert!(tokens
        .iter()
        .any(|t| &text[t.range.clone()] == "over lines]"));
    for start in 0..=text.len() {
        for end in start..=text.len() {
            let inside: Vec<_> = tokens
                .iter()
                .filter(|t| t.range.end > start && t.range.start < end)
                .cloned()
                .collect();
            assert_eq!(doc.semantic_tokens(start..end), inside, "{start}..{end}");
            let mut given = Vec::new();
            doc.each_semantic_token(start..end, &mut |token| given.push(token));
            assert_eq!(given, inside, "{start}..{end}");
        }
    }
}

#[test]
fn folds_for_variations_and_long_commentary() {
    check_folds(
        Otn,
        &record("1. d2-e2 d3-d2\n[a long\ncomment over\nthree lines]\n1a.1.1a. d2-c2 d3-d1\n[x]\n1a.1.2a. c2-c1 d1-c1\n"),
        expect![[r#"
            Comment lines 5-7
            Region lines 8-10
        "#]],
    );
}

#[test]
fn replay_json_is_the_otn_schema() {
    let text = record("1. d2-e2 d3-d2\n1a.1.1a. d2-c2\n");
    let doc = document(&text);
    let mut out = Vec::new();
    doc.write_replay_json("g.otg", None, &mut out).unwrap();
    let value: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(value["file"], "g.otg");
    let game = &value["games"][0];
    assert_eq!(game["format"], "otn");
    assert_eq!(game["rules"], BRANDUBH);
    let states = game["states"].as_array().unwrap();
    assert_eq!(states.len(), 3);
    assert_eq!(
        states[0],
        serde_json::json!({"move": "start", "position": "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/"})
    );
    assert_eq!(states[1]["move"], "1a");
    assert_eq!(states[1]["text"], "d2-e2");
    assert_eq!(states[1]["position"], "/3t3/4t2/3T3/ttTKTtt/3T3/3t3/3t3/");
    assert_eq!(states[1]["captures"], serde_json::json!([]));
    let variation = &game["variations"][0];
    assert_eq!(variation["address"], "1a.1.");
    assert_eq!(variation["states"][0]["move"], "1a.1.1a");
}

#[test]
fn rules_and_position_files_show_their_board() {
    let doc = document(&format!("{BRANDUBH}\n"));
    assert!(doc.diagnostics().is_empty(), "{:?}", doc.diagnostics());
    assert_eq!(doc.main_line(0).len(), 1);
    assert_eq!(
        doc.scene(StateRef { game: 0, index: 0 })
            .unwrap()
            .pieces
            .len(),
        14
    );
    let doc = document("/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/\n");
    assert_eq!(doc.replay.dim(), 7);
    assert!(doc.hover(3).unwrap().board.is_some());
}

/// Every edit made at every place: the updated analysis equals a fresh one.
#[test]
fn updates_equal_fresh_analyses() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/otn/opentafl/Ard-Ri-Escape-Puzzle-cooked.otg"
    ))
    .unwrap();
    let base = OtnDocument::new(text.clone());
    let edits: [(&str, &str); 6] = [
        ("c4-c6", "c4-c5"),
        ("Kc4-c5", "Kc4-c6"),
        ("[|]", "[x|y]"),
        ("7a.1.", "7b.1."),
        ("11. c2-c4", "11. c2-c4 "),
        ("xa5", ""),
    ];
    for (from, to) in edits {
        for (at, _) in text.match_indices(from) {
            let new_text = format!("{}{}{}", &text[..at], to, &text[at + from.len()..]);
            let edit = TextEdit {
                start: at,
                old_end: at + from.len(),
                new_end: at + to.len(),
            };
            let updated = base.updated(new_text.clone(), &edit);
            let fresh = OtnDocument::new(new_text);
            assert_eq!(
                updated.diagnostics(),
                fresh.diagnostics(),
                "{from} → {to} at {at}"
            );
            assert_eq!(updated.replay, fresh.replay, "{from} → {to} at {at}");
            assert_eq!(
                updated.file.turns, fresh.file.turns,
                "{from} → {to} at {at}"
            );
        }
    }
}

#[test]
fn hostile_input_is_reported_not_fatal() {
    let mut address = String::from("1a.");
    for _ in 0..40 {
        address.push_str("1.1a.");
    }
    let text = record(&format!(
        "1. d2-e2 d3-d2\n{address} d2-c2\n4294967295. a4-a3\n"
    ));
    let doc = document(&text);
    let found = diagnostic_codes(Otn, &text);
    assert!(found.contains(&"variation-too-deep"), "{found:?}");
    assert!(found.contains(&"missing-turn"), "{found:?}");
    assert_eq!(doc.symbols()[0].children.len(), 3);
    // Any text, every feature at every offset: answers, never a panic.
    for text in [
        "[é:ü]\n1. é5-e6 ☃ Kd4\u{3000}-d5\n[☃|☃]\n",
        "dim:7 \u{3000}ks: start:/3t3/",
        "/ü/3t3/",
        "[rules:dim:99 start:/99/]\n1. z99-z1\n",
    ] {
        let doc = document(text);
        for offset in (0..=text.len()).filter(|o| text.is_char_boundary(*o)) {
            let _ = doc.hover(offset);
            let _ = doc.completions(offset);
            let _ = doc.move_at(offset, true);
        }
        let _ = doc.semantic_tokens(0..text.len());
        let _ = doc.inlay_hints(0..text.len());
        let _ = (doc.symbols(), doc.folds());
        assert!(!doc.diagnostics().is_empty(), "{text}");
    }
}

#[test]
fn every_range_of_a_record_with_wide_characters_lies_between_characters() {
    // Found by fuzzing: a start position whose first character takes several bytes.
    for text in [
        "[rules:dim:7 name:Brandubh start:\u{fffd}3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]\n\n1. d1-c1 d4-d1\n",
        "[rules:dim:7 start:é/3t3/]\n",
        "dim:7 start:ü3t3/",
    ] {
        let doc = document(text);
        assert!(!doc.diagnostics().is_empty(), "{text}");
        for diagnostic in doc.diagnostics() {
            let range = &diagnostic.range;
            assert!(
                text.is_char_boundary(range.start) && text.is_char_boundary(range.end),
                "{text}: {diagnostic:?}"
            );
        }
    }
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

        /// Random text after a valid rules tag, and a random edit of it: the analysis never
        /// panics, and the updated analysis equals a fresh one.
        #[test]
        fn random_edits_update_like_fresh_analyses(
            body in "([0-9]{1,2}[a-b.]{0,3} |[a-g][1-7][-^=][a-g][1-7](x[a-g][1-7])? |\\[[a-z|]{0,6}\\]|\n|\\.\\.\\.\\.\\. ){0,40}",
            at in 0usize..400,
            remove in 0usize..6,
            insert in "[a-g1-7 .\n\\[\\]x-]{0,4}",
        ) {
            let text = record(&body);
            let base = OtnDocument::new(text.clone());
            let start = (record("").len() + at % (body.len() + 1)).min(text.len());
            let end = (start + remove).min(text.len());
            let new_text = format!("{}{}{}", &text[..start], insert, &text[end..]);
            let edit = TextEdit { start, old_end: end, new_end: start + insert.len() };
            let updated = base.updated(new_text.clone(), &edit);
            let fresh = OtnDocument::new(new_text);
            prop_assert_eq!(&updated.diagnostics(), &fresh.diagnostics());
            prop_assert_eq!(&updated.replay, &fresh.replay);
            prop_assert_eq!(&updated.file.turns, &fresh.file.turns);
        }
    }
}

/// Applies every diagnostic's first fix, from the end of the text backwards.
fn apply_fixes(text: &str, document: &OtnDocument) -> String {
    let mut edits: Vec<(Range<usize>, String)> = document
        .diagnostics()
        .iter()
        .filter_map(|d| d.fixes.first())
        .flat_map(|fix| fix.edits.clone())
        .collect();
    edits.sort_by_key(|(range, _)| std::cmp::Reverse(range.start));
    let mut fixed = text.to_string();
    for (range, insert) in edits {
        fixed.replace_range(range, &insert);
    }
    fixed
}

#[test]
fn quick_fixes_repair_what_the_record_gets_wrong() {
    // A wrong mover letter, captures that do not happen (one of two, and a lone one), a
    // wrong captured man's letter, a capture left out, an info symbol that does not hold.
    let text =
        record("1. Kg4-g3 d5-f5xd1\n2. g3-e3 f5-f6-\n3. b4-b3 f6-f5\n4. b3-c3xc1/d3 f5-f6\n");
    let doc = document(&text);
    let found = diagnostic_codes(Otn, &text);
    for code in ["mover-mismatch", "capture-not-made", "info-mismatch"] {
        assert!(found.contains(&code), "{code}: {found:?}");
    }
    assert!(
        doc.diagnostics().iter().all(|d| !d.fixes.is_empty()),
        "{:?}",
        doc.diagnostics()
    );
    let fixed = apply_fixes(&text, &doc);
    assert_eq!(
        fixed,
        record("1. g4-g3 d5-f5\n2. g3-e3 f5-f6\n3. b4-b3 f6-f5\n4. b3-c3xd3 f5-f6\n")
    );
    assert!(document(&fixed).diagnostics().is_empty());
    // A captured man named with the wrong letter.
    let text = record("1. g4-g3 d5-f5\n2. g3-e3 f5-f6\n3. b4-b3 f6-f5\n4. b3-c3xKd3 f5-f6\n");
    let doc = document(&text);
    assert_eq!(doc.diagnostics()[0].code, "capture-mismatch");
    assert!(document(&apply_fixes(&text, &doc)).diagnostics().is_empty());
}

#[test]
fn hover_on_turn_numbers_and_the_result() {
    check_hover(
        Otn,
        &format!("[result:-1]\n[rules:{BRANDUBH}]\n\n$01. d2-e2 d3-d2\n1a.1.1a. d2-c2\n"),
        expect![[r#"
            4:1-4:3 "1."
            **Turn 1** of the main line

            board: 1b (game 0, state 2)
        "#]],
    );
    // In an editor, the board after the turn is drawn below.
    let text = format!("[result:-1]\n[rules:{BRANDUBH}]\n\n1. d2-e2 d3-d2\n1a.1.1a. d2-c2\n");
    let shown = hover(&document(&text), text.find("1. d2").unwrap()).unwrap();
    assert!(
        shown.markdown.contains("**Board 1b**"),
        "the board after the turn: {}",
        shown.markdown
    );
    check_hover(
        Otn,
        &format!("[result:-1]\n[rules:{BRANDUBH}]\n\n1. d2-e2 d3-d2\n$01a.1.1a. d2-c2\n"),
        expect![[r#"
            5:1-5:9 "1a.1.1a."
            **Turn 1** of variation 1a.1., off 1a

            board: 1a.1.1a (game 0, state 3)
        "#]],
    );
    check_hover(
        Otn,
        &format!("[result:$0-1]\n[rules:{BRANDUBH}]\n\n1. d2-e2 d3-d2\n1a.1.1a. d2-c2\n"),
        expect![[r#"
            1:9-1:11 "-1"
            **result** `-1`: the defenders win
        "#]],
    );
}

#[test]
fn threefold_repetition_follows_tfr() {
    // OpenTafl's ThreefoldDrawTest and ThreefoldVictoryTest: two men shuttle; after the
    // eighth move the start position stands for the third time, the defenders having moved
    // into it.
    let moves = "1. a4-a3 d3-c3\n2. a3-a4 c3-d3\n3. a4-a3 d3-c3\n4. a3-a4 c3-d3\n";
    let verdict = |tfr: &str| {
        let text =
            format!("[rules:dim:7 tfr:{tfr} start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]\n\n{moves}");
        let doc = document(&text);
        assert!(doc.diagnostics().is_empty(), "{:?}", doc.diagnostics());
        let line = &doc.replay.lines[0];
        line.verdict_at(line.plies.len() - 1)
    };
    use crate::otn::board::TaflSide;
    use crate::otn::rules::{Reason, Verdict};
    assert_eq!(verdict("d"), Some((8, Verdict::Draw(Reason::Repetition))));
    assert_eq!(
        verdict("w"),
        Some((8, Verdict::Win(TaflSide::Attackers, Reason::Repetition)))
    );
    assert_eq!(
        verdict("l"),
        Some((8, Verdict::Win(TaflSide::Defenders, Reason::Repetition)))
    );
    assert_eq!(verdict("i"), None);
}

/// An edit that reaches the same position by another way: the moves after it are in step
/// with the previous replay, but the positions seen on the way differ, and with them the
/// third repetition; and edits after which the old states are taken over as they were.
#[test]
fn an_update_keeps_the_old_states_only_with_the_same_history() {
    let moves = "1. a4-a3 d3-c3\n2. a3-a2 c3-b3\n3. a2-a3 b3-c3\n4. a3-a2 c3-b3\n5. a2-a3 b3-c3 [the end|]\n";
    let text = format!("[rules:dim:7 tfr:d start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]\n\n{moves}");
    let base = document(&text);
    let line = &base.replay.lines[0];
    use crate::otn::rules::{Reason, Verdict};
    assert_eq!(
        line.verdict_at(line.plies.len() - 1),
        Some((10, Verdict::Draw(Reason::Repetition)))
    );
    for (from, to) in [
        ("a4-a3 d3-c3\n2. a3-a2 c3-b3", "a4-a5 d3-e3\n2. a5-a2 e3-b3"),
        ("1. a4-a3", "1. a4-a3+"),
        ("2. a3-a2", "2.  a3-a2"),
        ("[the end|]", "[the end|x]"),
        ("5. a2-a3", "5. a2-a4"),
    ] {
        let at = text.find(from).unwrap();
        let new_text = text.replacen(from, to, 1);
        let edit = TextEdit {
            start: at,
            old_end: at + from.len(),
            new_end: at + to.len(),
        };
        let updated = base.updated(new_text.clone(), &edit);
        let fresh = OtnDocument::new(new_text);
        assert_eq!(updated.diagnostics(), fresh.diagnostics(), "{from} → {to}");
        assert_eq!(updated.replay, fresh.replay, "{from} → {to}");
        crate::otn::replay::tests::assert_positions_answer(&updated);
        // And back.
        let undo = TextEdit {
            start: at,
            old_end: at + to.len(),
            new_end: at + from.len(),
        };
        let undone = updated.updated(text.clone(), &undo);
        assert_eq!(undone.diagnostics(), base.diagnostics(), "{to} → {from}");
        assert_eq!(undone.replay, base.replay, "{to} → {from}");
        crate::otn::replay::tests::assert_positions_answer(&undone);
    }
    let other_way = text.replacen(
        "a4-a3 d3-c3\n2. a3-a2 c3-b3",
        "a4-a5 d3-e3\n2. a5-a2 e3-b3",
        1,
    );
    let line = &document(&other_way).replay.lines[0];
    assert!(document(&other_way).diagnostics().is_empty());
    assert_eq!(line.verdict_at(line.plies.len() - 1), None);
}

#[test]
fn an_update_after_several_verdicts_flags_the_moves_after_the_end_once() {
    // The position repeats a third time at 5b, and again and again after it: every later
    // repetition reaches a verdict too, and the states kept by an edit in turn 7 end with one.
    let moves = "1. a4-a3 d3-c3\n2. a3-a2 c3-b3\n3. a2-a3 b3-c3\n4. a3-a2 c3-b3\n5. a2-a3 b3-c3\n6. a3-a2 c3-b3\n7. a2-a3 b3-c3\n";
    let text = format!("[rules:dim:7 tfr:d start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]\n\n{moves}");
    let base = document(&text);
    let line = &base.replay.lines[0];
    assert!((11..line.plies.len()).all(|i| line.plies.at(i).verdict.is_some()));
    let at = text.find("7. a2-a3").unwrap() + "7. a2-a3".len();
    let new_text = format!("{}+{}", &text[..at], &text[at..]);
    let updated = base.updated(
        new_text.clone(),
        &TextEdit {
            start: at,
            old_end: at,
            new_end: at + 1,
        },
    );
    let after_end = |doc: &OtnDocument| {
        doc.diagnostics()
            .iter()
            .filter(|d| d.code == "move-after-end")
            .count()
    };
    assert_eq!(after_end(&updated), 1, "{:?}", updated.diagnostics());
    assert_eq!(updated.diagnostics(), document(&new_text).diagnostics());
}
