//! The editor features of xiangqi-setup files, through the notation contract and the
//! generic `ide` paths every notation shares.

use expect_test::expect;

use crate::fixture::{
    check_completions, check_diagnostics, check_folds, check_hover, check_inlay_hints,
    check_semantic_tokens, check_symbols, diagnostic_codes,
};
use crate::ide::analyze::{analyze, board_at, hover, quick_fixes, reanalyze};
use crate::model::edit::TextEdit;
use crate::model::format::Format::{AnnoFen, Wxf, Xay};
use crate::model::notation_document::{NotationDocument, StateRef};
use crate::model::scene::{Annotation, MarkColor, MarkShape};
use std::path::Path;

/// Every board of `fresh`'s main line is `updated`'s board there too.
fn assert_same_boards(updated: &dyn NotationDocument, fresh: &dyn NotationDocument, context: &str) {
    for state in fresh.main_line(0) {
        assert_eq!(
            updated.scene(state.state),
            fresh.scene(state.state),
            "{context} {}",
            state.label
        );
    }
}

/// What an editor is shown of `document`'s diagnostics, found without putting every one in
/// words, is what it would be shown of `worded`, all of them in words.
fn assert_shown_as_worded(
    document: &dyn NotationDocument,
    worded: &[crate::diagnostic::Diagnostic],
    context: &str,
) {
    for most in [0, 1, 2, 3, 100, usize::MAX] {
        assert_eq!(
            document.diagnostics_shown(most),
            crate::model::editor_diagnostics::Shown::of(worded, most),
            "{context}: {most} at most"
        );
    }
}

/// `updated` answers as `fresh` does: diagnostics, states and boards, highlighting, folds
/// and outline.
fn assert_same_analysis(
    updated: &dyn NotationDocument,
    fresh: &dyn NotationDocument,
    context: &str,
) {
    assert_eq!(updated.format(), fresh.format(), "{context}");
    assert_eq!(updated.diagnostics(), fresh.diagnostics(), "{context}");
    assert_shown_as_worded(updated, fresh.diagnostics(), context);
    assert_eq!(updated.main_line(0), fresh.main_line(0), "{context}");
    assert_same_boards(updated, fresh, context);
    let whole = 0..fresh.text().len();
    assert_eq!(
        updated.semantic_tokens(whole.clone()),
        fresh.semantic_tokens(whole),
        "{context}"
    );
    assert_eq!(updated.folds(), fresh.folds(), "{context}");
    assert_eq!(updated.symbols(), fresh.symbols(), "{context}");
    assert_eq!(updated.games(), fresh.games(), "{context}");
}

fn open(name: &str, text: &str) -> Box<dyn NotationDocument> {
    analyze(Some(Path::new(name)), text.to_string())
}

const ANNOFEN: &str = "# Copyright\n# last two moves\nv1 r[<bm><a+1-2>]bakabnr/9/1c[<pm>n]4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2[<pm>C]2[<bm><a-3+0>]1/9/RNBAKABNR\n";

const PLAYOK: &str = "FORMAT  WXF\r\nRED     jugador rojo ; 1200 ;;\r\nBLACK   jugador negro ; 1240 ;;\r\nSTART{\r\n 1. P3+1 c8.7   2. E7+5 c2.5   3. H2+3 h2+3\r\n 4. H8+6 r1.2   5. H3+4 h8+9   6. C2+4 r9+1\r\n 7. C2.5 a4+5\r\n}END\r\n";

/// [`PLAYOK`] with other moves (those of `PLAYOK` with a `$0` among them).
fn playok(moves: &str) -> String {
    format!("FORMAT  WXF\r\nRED     jugador rojo ; 1200 ;;\r\nBLACK   jugador negro ; 1240 ;;\r\nSTART{{\r\n{moves}}}END\r\n")
}

#[test]
fn hover_on_an_arrow_says_where_it_points_and_shows_the_board() {
    check_hover(
        AnnoFen,
        "# Copyright\n# last two moves\nv1 r[<bm><a+$01-2>]bakabnr/9/1c[<pm>n]4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2[<pm>C]2[<bm><a-3+0>]1/9/RNBAKABNR\n",
        expect![[r#"
            3:11-3:16 "a+1-2"
            **`a+1-2`** — an arrow from b9 to c7: 1 file to the right and 2 ranks down (towards Red)

            board: start (game 0, state 0)
        "#]],
    );
    // In an editor the board is drawn below, with the annotations.
    let doc = open("a.annofen", ANNOFEN);
    let found = hover(&*doc, ANNOFEN.find("a+1-2").unwrap() + 2).unwrap();
    assert!(
        found.markdown.contains("```text"),
        "the board is drawn below"
    );
    check_hover(
        AnnoFen,
        "# Copyright\n# last two moves\nv1 r[<bm><a+1-2>]bakabnr/$09/1c[<pm>n]4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2[<pm>C]2[<bm><a-3+0>]1/9/RNBAKABNR\n",
        expect![[r#"
            3:1-3:102 "v1 r[<bm><a+1-2>]bakabnr/9/1c[<pm>n]4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2[<pm>C]2[<bm><a-3+0>]1/9/RNBAKABNR"
            **annoFEN position**

            board: start (game 0, state 0)
        "#]],
    );
    let position = hover(&*doc, ANNOFEN.find("/9/").unwrap() + 1).unwrap();
    assert!(
        position.markdown.contains("Arrows: b9→c7, h2→e2"),
        "the board below draws the annotations: {}",
        position.markdown
    );
    check_hover(
        AnnoFen,
        "# Copyright\n# last two moves\nv1 r[<bm><a+1-2>]bakabnr/9/1c[<pm>$0n]4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2[<pm>C]2[<bm><a-3+0>]1/9/RNBAKABNR\n",
        expect![[r#"
            3:35-3:36 "n"
            **`n`** — the Black horse on c7 (`n` is an alias of H (as in knight))

            board: start (game 0, state 0), marked pieces [10]
        "#]],
    );
    // The piece marked is the horse on c7.
    let board = doc
        .hover(ANNOFEN.find("n]").unwrap())
        .unwrap()
        .board
        .unwrap();
    let scene = doc.scene(board.state).unwrap();
    let marked = board.marked.unwrap();
    assert_eq!(
        (scene.pieces[marked[0]].x, scene.pieces[marked[0]].y),
        (3.0, 8.0)
    );
}

#[test]
fn the_scene_carries_the_annotations() {
    let doc = open("a.annofen", ANNOFEN);
    let scene = doc.scene(StateRef { game: 0, index: 0 }).unwrap();
    assert_eq!(scene.pieces.len(), 33, "the board and 32 men");
    assert_eq!(scene.pieces[0].kind, crate::model::piece::PieceKind::Board);
    assert_eq!(scene.annotations.len(), 6);
    assert_eq!(
        scene.annotations[0],
        Annotation::Marker {
            at: (2.0, 10.0),
            shape: MarkShape::Blank,
            color: MarkColor::Blue
        }
    );
    assert_eq!(
        scene.annotations[1],
        Annotation::Arrow {
            from: (2.0, 10.0),
            to: (3.0, 8.0)
        }
    );
    assert!(matches!(
        scene.annotations[2],
        Annotation::Marker {
            shape: MarkShape::Piece,
            ..
        }
    ));
}

#[test]
fn hover_on_a_wxf_move_shows_the_board_after_it() {
    check_hover(
        Wxf,
        &playok(" 1. P3+1 c8.7   2. E7+5 c$02.5   3. H2+3 h2+3\r\n 4. H8+6 r1.2   5. H3+4 h8+9   6. C2+4 r9+1\r\n 7. C2.5 a4+5\r\n"),
        expect![[r#"
            5:25-5:29 "c2.5"
            **2... `c2.5`** — Black cannon b7–e7

            board: 2... c2.5 (game 0, state 4)
        "#]],
    );
    let doc = open("g.wxf", PLAYOK);
    let scene = doc.scene(StateRef { game: 0, index: 4 }).unwrap();
    let moved: Vec<_> = scene
        .highlighted
        .iter()
        .map(|&i| (scene.pieces[i].x, scene.pieces[i].y))
        .collect();
    assert_eq!(moved, [(5.0, 8.0)]);
    assert_eq!(scene.vacated, [(2.0, 8.0)]);
    check_hover(
        Wxf,
        &playok(" 1. P3+1 c8.7   2. E7+5 c2.5   3. H2+3 h2+3\r\n 4. H8+6 r1.2   5. H3+4 h8+9   6. C2+4 r9+1\r\n 7. $0C2.5 a4+5\r\n"),
        expect![[r#"
            7:5-7:9 "C2.5"
            **7. `C2.5`** — Red cannon h6–e6, captures the Black soldier

            Check.

            board: 7. C2.5 (game 0, state 13)
        "#]],
    );
    check_hover(
        Wxf,
        "FORMAT  WXF\r\nRED     jugador rojo ; 1200 ;;\r\nB$0LACK   jugador negro ; 1240 ;;\r\nSTART{\r\n 1. P3+1 c8.7   2. E7+5 c2.5   3. H2+3 h2+3\r\n 4. H8+6 r1.2   5. H3+4 h8+9   6. C2+4 r9+1\r\n 7. C2.5 a4+5\r\n}END\r\n",
        expect![[r#"
            3:1-3:6 "BLACK"
            **BLACK** — Black's player: `name ; rating ; ...`
        "#]],
    );
}

#[test]
fn the_board_panel_follows_the_moves() {
    let doc = open("g.wxf", PLAYOK);
    let start = board_at(&*doc, 0).unwrap();
    assert_eq!(start.label, "start");
    assert_eq!(start.pieces.len(), 33);
    let between = PLAYOK.find("   2.").unwrap() + 1;
    assert_eq!(board_at(&*doc, between).unwrap().label, "1...");
    let end = board_at(&*doc, PLAYOK.len()).unwrap();
    assert_eq!(end.label, "7...");
}

#[test]
fn check_and_checkmate_are_told_in_the_hover() {
    let text = "FORMAT WXF\nFEN 3k5/9/9/9/9/9/9/9/9/4K3R r\nSTART{\n 1. R1+9\n}END\n";
    check_diagnostics(Wxf, text, expect![[""]]);
    check_hover(
        Wxf,
        "FORMAT WXF\nFEN 3k5/9/9/9/9/9/9/9/9/4K3R r\nSTART{\n 1. $0R1+9\n}END\n",
        expect![[r#"
            4:5-4:9 "R1+9"
            **1. `R1+9`** — Red chariot i0–i9

            Check.

            board: 1. R1+9 (game 0, state 1)
        "#]],
    );
    check_hover(
        Wxf,
        "FORMAT WXF\nFEN 3k5/4R4/9/9/9/9/9/9/9/4K3R r\nSTART{\n 1. $0R1+9\n}END\n",
        expect![[r#"
            4:5-4:9 "R1+9"
            **1. `R1+9`** — Red chariot i0–i9

            Checkmate: Black has no move.

            board: 1. R1+9 (game 0, state 1)
        "#]],
    );
}

#[test]
fn completion_offers_codes_letters_and_legal_moves() {
    check_completions(
        AnnoFen,
        "v1 r[<a+1-$0",
        expect![[r#"
            a+1-2 — arrow 1 file to the right and 2 ranks down (towards Red)
            a+1-1 — arrow 1 file to the right and 1 rank down (towards Red)
            and 54 more not matching "a+1-"
            replacing 1:7-1:11 "a+1-"
        "#]],
    );
    check_completions(
        AnnoFen,
        "v1 r$0[<a+1-",
        expect![[r#"
            K — Red general
            A — Red advisor
            E — Red elephant
            H — Red horse
            R — Red chariot
            C — Red cannon
            P — Red soldier
            k — Black general
            a — Black advisor
            e — Black elephant
            h — Black horse
            r — Black chariot
            c — Black cannon
            p — Black soldier
            <bb> — marks an empty point as bad
            <bg> — marks an empty point as good
            <bm> — marks an empty point as involved in a move
            <pb> — marks a piece as bad
            <pg> — marks a piece as good
            <pm> — marks a piece as involved in a move
            <a-8+0> — arrow 8 files to the left
            <a-7+0> — arrow 7 files to the left
            <a-6+0> — arrow 6 files to the left
            <a-5+0> — arrow 5 files to the left
            <a-4+0> — arrow 4 files to the left
            <a-3+0> — arrow 3 files to the left
            <a-2-2> — arrow 2 files to the left and 2 ranks down (towards Red)
            <a-2-1> — arrow 2 files to the left and 1 rank down (towards Red)
            <a-2+0> — arrow 2 files to the left
            <a-2+1> — arrow 2 files to the left and 1 rank up (towards Black)
            <a-2+2> — arrow 2 files to the left and 2 ranks up (towards Black)
            <a-1-2> — arrow 1 file to the left and 2 ranks down (towards Red)
            <a-1-1> — arrow 1 file to the left and 1 rank down (towards Red)
            <a-1+0> — arrow 1 file to the left
            <a-1+1> — arrow 1 file to the left and 1 rank up (towards Black)
            <a-1+2> — arrow 1 file to the left and 2 ranks up (towards Black)
            <a+0-9> — arrow 9 ranks down (towards Red)
            <a+0-8> — arrow 8 ranks down (towards Red)
            <a+0-7> — arrow 7 ranks down (towards Red)
            <a+0-6> — arrow 6 ranks down (towards Red)
            <a+0-5> — arrow 5 ranks down (towards Red)
            <a+0-4> — arrow 4 ranks down (towards Red)
            <a+0-3> — arrow 3 ranks down (towards Red)
            <a+0-2> — arrow 2 ranks down (towards Red)
            <a+0-1> — arrow 1 rank down (towards Red)
            <a+0+1> — arrow 1 rank up (towards Black)
            <a+0+2> — arrow 2 ranks up (towards Black)
            <a+0+3> — arrow 3 ranks up (towards Black)
            <a+0+4> — arrow 4 ranks up (towards Black)
            <a+0+5> — arrow 5 ranks up (towards Black)
            <a+0+6> — arrow 6 ranks up (towards Black)
            <a+0+7> — arrow 7 ranks up (towards Black)
            <a+0+8> — arrow 8 ranks up (towards Black)
            <a+0+9> — arrow 9 ranks up (towards Black)
            <a+1-2> — arrow 1 file to the right and 2 ranks down (towards Red)
            <a+1-1> — arrow 1 file to the right and 1 rank down (towards Red)
            <a+1+0> — arrow 1 file to the right
            <a+1+1> — arrow 1 file to the right and 1 rank up (towards Black)
            <a+1+2> — arrow 1 file to the right and 2 ranks up (towards Black)
            <a+2-2> — arrow 2 files to the right and 2 ranks down (towards Red)
            <a+2-1> — arrow 2 files to the right and 1 rank down (towards Red)
            <a+2+0> — arrow 2 files to the right
            <a+2+1> — arrow 2 files to the right and 1 rank up (towards Black)
            <a+2+2> — arrow 2 files to the right and 2 ranks up (towards Black)
            <a+3+0> — arrow 3 files to the right
            <a+4+0> — arrow 4 files to the right
            <a+5+0> — arrow 5 files to the right
            <a+6+0> — arrow 6 files to the right
            <a+7+0> — arrow 7 files to the right
            <a+8+0> — arrow 8 files to the right
            replacing 1:5-1:5 ""
        "#]],
    );
    check_completions(
        Xay,
        "version: '1'\nsetup: [\n  [[r, p$0], []],\n]\n",
        expect![[r#"
            P — Red soldier
            p — Black soldier
            pb — marks a piece as bad
            pg — marks a piece as good
            pm — marks a piece as involved in a move
            and 65 more not matching "p"
            replacing 3:8-3:9 "p"
        "#]],
    );
    let xay = "version: '1'\nsetup: [\n  [[r, p], []],\n]\n";
    let in_cell = open("a.xay", xay).completions(xay.find("p]").unwrap() + 1);
    assert!(in_cell.iter().any(|c| c.label == "H"), "pieces too");
    // A cell being typed still completes.
    check_completions(
        Xay,
        "version: '1'\nsetup: [\n  [[r, $0",
        expect![[r#"
            K — Red general
            A — Red advisor
            E — Red elephant
            H — Red horse
            R — Red chariot
            C — Red cannon
            P — Red soldier
            k — Black general
            a — Black advisor
            e — Black elephant
            h — Black horse
            r — Black chariot
            c — Black cannon
            p — Black soldier
            bb — marks an empty point as bad
            bg — marks an empty point as good
            bm — marks an empty point as involved in a move
            pb — marks a piece as bad
            pg — marks a piece as good
            pm — marks a piece as involved in a move
            a-8+0 — arrow 8 files to the left
            a-7+0 — arrow 7 files to the left
            a-6+0 — arrow 6 files to the left
            a-5+0 — arrow 5 files to the left
            a-4+0 — arrow 4 files to the left
            a-3+0 — arrow 3 files to the left
            a-2-2 — arrow 2 files to the left and 2 ranks down (towards Red)
            a-2-1 — arrow 2 files to the left and 1 rank down (towards Red)
            a-2+0 — arrow 2 files to the left
            a-2+1 — arrow 2 files to the left and 1 rank up (towards Black)
            a-2+2 — arrow 2 files to the left and 2 ranks up (towards Black)
            a-1-2 — arrow 1 file to the left and 2 ranks down (towards Red)
            a-1-1 — arrow 1 file to the left and 1 rank down (towards Red)
            a-1+0 — arrow 1 file to the left
            a-1+1 — arrow 1 file to the left and 1 rank up (towards Black)
            a-1+2 — arrow 1 file to the left and 2 ranks up (towards Black)
            a+0-9 — arrow 9 ranks down (towards Red)
            a+0-8 — arrow 8 ranks down (towards Red)
            a+0-7 — arrow 7 ranks down (towards Red)
            a+0-6 — arrow 6 ranks down (towards Red)
            a+0-5 — arrow 5 ranks down (towards Red)
            a+0-4 — arrow 4 ranks down (towards Red)
            a+0-3 — arrow 3 ranks down (towards Red)
            a+0-2 — arrow 2 ranks down (towards Red)
            a+0-1 — arrow 1 rank down (towards Red)
            a+0+1 — arrow 1 rank up (towards Black)
            a+0+2 — arrow 2 ranks up (towards Black)
            a+0+3 — arrow 3 ranks up (towards Black)
            a+0+4 — arrow 4 ranks up (towards Black)
            a+0+5 — arrow 5 ranks up (towards Black)
            a+0+6 — arrow 6 ranks up (towards Black)
            a+0+7 — arrow 7 ranks up (towards Black)
            a+0+8 — arrow 8 ranks up (towards Black)
            a+0+9 — arrow 9 ranks up (towards Black)
            a+1-2 — arrow 1 file to the right and 2 ranks down (towards Red)
            a+1-1 — arrow 1 file to the right and 1 rank down (towards Red)
            a+1+0 — arrow 1 file to the right
            a+1+1 — arrow 1 file to the right and 1 rank up (towards Black)
            a+1+2 — arrow 1 file to the right and 2 ranks up (towards Black)
            a+2-2 — arrow 2 files to the right and 2 ranks down (towards Red)
            a+2-1 — arrow 2 files to the right and 1 rank down (towards Red)
            a+2+0 — arrow 2 files to the right
            a+2+1 — arrow 2 files to the right and 1 rank up (towards Black)
            a+2+2 — arrow 2 files to the right and 2 ranks up (towards Black)
            a+3+0 — arrow 3 files to the right
            a+4+0 — arrow 4 files to the right
            a+5+0 — arrow 5 files to the right
            a+6+0 — arrow 6 files to the right
            a+7+0 — arrow 7 files to the right
            a+8+0 — arrow 8 files to the right
            replacing 3:8-3:8 ""
        "#]],
    );
    // Black's 44 replies.
    check_completions(
        Wxf,
        "FORMAT WXF\nSTART{\n 1. P3+1 $0\n}END\n",
        expect![[r#"
            k5+1 — Black general e9–e8
            a4+5 — Black advisor d9–e8
            a6+5 — Black advisor f9–e8
            e3+1 — Black elephant c9–a7
            e3+5 — Black elephant c9–e7
            e7+5 — Black elephant g9–e7
            e7+9 — Black elephant g9–i7
            h2+1 — Black horse b9–a7
            h2+3 — Black horse b9–c7
            h8+7 — Black horse h9–g7
            h8+9 — Black horse h9–i7
            r1+1 — Black chariot a9–a8
            r1+2 — Black chariot a9–a7
            r9+1 — Black chariot i9–i8
            r9+2 — Black chariot i9–i7
            c2+1 — Black cannon b7–b6
            c2+2 — Black cannon b7–b5
            c2+3 — Black cannon b7–b4
            c2+4 — Black cannon b7–b3
            c2+7 — Black cannon b7–b0, captures the Red horse
            c2-1 — Black cannon b7–b8
            c2.1 — Black cannon b7–a7
            c2.3 — Black cannon b7–c7
            c2.4 — Black cannon b7–d7
            c2.5 — Black cannon b7–e7
            c2.6 — Black cannon b7–f7
            c2.7 — Black cannon b7–g7
            c8+1 — Black cannon h7–h6
            c8+2 — Black cannon h7–h5
            c8+3 — Black cannon h7–h4
            c8+4 — Black cannon h7–h3
            c8+7 — Black cannon h7–h0, captures the Red horse
            c8-1 — Black cannon h7–h8
            c8.3 — Black cannon h7–c7
            c8.4 — Black cannon h7–d7
            c8.5 — Black cannon h7–e7
            c8.6 — Black cannon h7–f7
            c8.7 — Black cannon h7–g7
            c8.9 — Black cannon h7–i7
            p1+1 — Black soldier a6–a5
            p3+1 — Black soldier c6–c5
            p5+1 — Black soldier e6–e5
            p7+1 — Black soldier g6–g5
            p9+1 — Black soldier i6–i5
            replacing 3:10-3:10 ""
        "#]],
    );
    // The move being typed.
    check_completions(
        Wxf,
        "FORMAT WXF\nSTART{\n 1. P3$0+1 \n}END\n",
        expect![[r#"
            P3+1 — Red soldier g3–g4
            and 43 more not matching "p3"
            replacing 3:5-3:7 "P3"
        "#]],
    );
}

#[test]
fn symbols_and_folds_of_a_wxf_game() {
    check_symbols(
        Wxf,
        PLAYOK,
        expect![[r#"
            Game jugador rojo – jugador negro (wxf) at 1:1-1:12 "FORMAT  WXF", covering 1:1-8:5
              Move 1. (P3+1) at 5:5-5:9 "P3+1", covering 5:2-5:9 "1. P3+1"
              Move 1... (c8.7) at 5:10-5:14 "c8.7", covering 5:10-5:14 "c8.7"
              Move 2. (E7+5) at 5:20-5:24 "E7+5", covering 5:17-5:24 "2. E7+5"
              Move 2... (c2.5) at 5:25-5:29 "c2.5", covering 5:25-5:29 "c2.5"
              Move 3. (H2+3) at 5:35-5:39 "H2+3", covering 5:32-5:39 "3. H2+3"
              Move 3... (h2+3) at 5:40-5:44 "h2+3", covering 5:40-5:44 "h2+3"
              Move 4. (H8+6) at 6:5-6:9 "H8+6", covering 6:2-6:9 "4. H8+6"
              Move 4... (r1.2) at 6:10-6:14 "r1.2", covering 6:10-6:14 "r1.2"
              Move 5. (H3+4) at 6:20-6:24 "H3+4", covering 6:17-6:24 "5. H3+4"
              Move 5... (h8+9) at 6:25-6:29 "h8+9", covering 6:25-6:29 "h8+9"
              Move 6. (C2+4) at 6:35-6:39 "C2+4", covering 6:32-6:39 "6. C2+4"
              Move 6... (r9+1) at 6:40-6:44 "r9+1", covering 6:40-6:44 "r9+1"
              Move 7. (C2.5) at 7:5-7:9 "C2.5", covering 7:2-7:9 "7. C2.5"
              Move 7... (a4+5) at 7:10-7:14 "a4+5", covering 7:10-7:14 "a4+5"
        "#]],
    );
    check_folds(
        Wxf,
        PLAYOK,
        expect![[r#"
            Region lines 1-3
            Region lines 4-8
        "#]],
    );
    check_folds(
        AnnoFen,
        ANNOFEN,
        expect![[r#"
            Comment lines 1-2
        "#]],
    );
}

#[test]
fn semantic_tokens_are_sorted_and_disjoint() {
    check_semantic_tokens(
        AnnoFen,
        ANNOFEN,
        expect![[r##"
            Comment "# Copyright"
            Comment "# last two moves"
            Keyword "v1"
            Type "r"
            Operator "["
            Operator "<"
            EnumMember "bm"
            Operator ">"
            Operator "<"
            EnumMember "a+1-2"
            Operator ">"
            Operator "]"
            Type "b"
            Type "a"
            Type "k"
            Type "a"
            Type "b"
            Type "n"
            Type "r"
            Operator "/"
            Number "9"
            Operator "/"
            Number "1"
            Type "c"
            Operator "["
            Operator "<"
            EnumMember "pm"
            Operator ">"
            Type "n"
            Operator "]"
            Number "4"
            Type "c"
            Number "1"
            Operator "/"
            Type "p"
            Number "1"
            Type "p"
            Number "1"
            Type "p"
            Number "1"
            Type "p"
            Number "1"
            Type "p"
            Operator "/"
            Number "9"
            Operator "/"
            Number "9"
            Operator "/"
            Type "P"
            Number "1"
            Type "P"
            Number "1"
            Type "P"
            Number "1"
            Type "P"
            Number "1"
            Type "P"
            Operator "/"
            Number "1"
            Type "C"
            Number "2"
            Operator "["
            Operator "<"
            EnumMember "pm"
            Operator ">"
            Type "C"
            Operator "]"
            Number "2"
            Operator "["
            Operator "<"
            EnumMember "bm"
            Operator ">"
            Operator "<"
            EnumMember "a-3+0"
            Operator ">"
            Operator "]"
            Number "1"
            Operator "/"
            Number "9"
            Operator "/"
            Type "R"
            Type "N"
            Type "B"
            Type "A"
            Type "K"
            Type "A"
            Type "B"
            Type "N"
            Type "R"
        "##]],
    );
    let doc = open("a.annofen", ANNOFEN);
    let tokens = doc.semantic_tokens(0..ANNOFEN.len());
    assert!(tokens
        .windows(2)
        .all(|w| w[0].range.end <= w[1].range.start));
    check_semantic_tokens(
        Wxf,
        &playok(" 1. P3+1 c8.7   2. E7+5 c2.5   3. H2+3 h2+3\r\n 4. $0H8+6$0 r1.2   5. H3+4 h8+9   6. C2+4 r9+1\r\n 7. C2.5 a4+5\r\n"),
        expect![[r#"
            Type "H"
            Variable "8"
            Operator "+"
            Number "6"
        "#]],
    );
}

#[test]
fn captures_show_as_inlay_hints() {
    check_inlay_hints(
        Wxf,
        PLAYOK,
        expect![[r#"
            FORMAT  WXF␍
            RED     jugador rojo ; 1200 ;;␍
            BLACK   jugador negro ; 1240 ;;␍
            START{␍
             1. P3+1 c8.7   2. E7+5 c2.5   3. H2+3 h2+3␍
             4. H8+6 r1.2   5. H3+4 h8+9   6. C2+4 r9+1␍
             7. C2.5‹Capture: ×p | captures the Black soldier› a4+5␍
            }END␍
        "#]],
    );
}

#[test]
fn the_xay_version_fix_is_a_quick_fix() {
    let text = "version: 1\nsetup: []\n";
    check_diagnostics(
        Xay,
        text,
        expect![[r#"
            error xay-version-not-string 1:10-1:11 "1": `1` is a number here; the version is the string '1' (xiangqi-setup rejects the number)
        "#]],
    );
    let doc = open("a.xay", text);
    let fixes = quick_fixes(&*doc, 9..9);
    assert_eq!(fixes.len(), 1);
    assert_eq!(fixes[0].1.edits, [(9..10, "'1'".to_string())]);
}

#[test]
fn replay_json_is_the_documented_schema() {
    let doc = open("a.annofen", ANNOFEN);
    let mut out = Vec::new();
    doc.write_replay_json("a.annofen", None, &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(text.starts_with("{\"file\":\"a.annofen\",\"games\":[{\"format\":\"annofen\",\"states\":[{\"move\":\"start\",\"fen\":\"r1eakaehr/"), "{text}");
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    let state = &value["games"][0]["states"][0];
    assert_eq!(
        state["fen"],
        "r1eakaehr/9/1ch4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RHEAKAEHR"
    );
    assert_eq!(
        state["annotations"][1],
        serde_json::json!({"square": "b9", "code": "a+1-2"})
    );
    let doc = open("g.wxf", PLAYOK);
    let mut out = Vec::new();
    doc.write_replay_json("g.wxf", Some(&[StateRef { game: 0, index: 2 }]), &mut out)
        .unwrap();
    let value: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let states = value["games"][0]["states"].as_array().unwrap();
    assert_eq!(states.len(), 1);
    assert_eq!(states[0]["move"], "c8.7");
    assert_eq!(
        states[0]["fen"],
        "rheakaehr/9/1c4c2/p1p1p1p1p/9/6P2/P1P1P3P/1C5C1/9/RHEAKAEHR"
    );
}

#[test]
fn an_edit_gives_what_a_fresh_analysis_gives() {
    let doc = open("g.wxf", PLAYOK);
    let at = PLAYOK.find("h8+9").unwrap();
    for (replacement, len) in [("h8+7", 4), ("X", 1), ("", 4), (" 7. P7+1", 0)] {
        let mut text = PLAYOK.to_string();
        text.replace_range(at..at + len, replacement);
        let edit = TextEdit {
            start: at,
            old_end: at + len,
            new_end: at + replacement.len(),
        };
        let updated = doc.update(text.clone(), &edit);
        let fresh = open("g.wxf", &text);
        assert_eq!(updated.diagnostics(), fresh.diagnostics(), "{replacement}");
        assert_same_boards(&*updated, &*fresh, replacement);
        assert_eq!(updated.main_line(0), fresh.main_line(0));
    }
}

#[test]
fn nothing_panics_on_any_prefix_of_the_sample_files() {
    for text in [
        ANNOFEN,
        PLAYOK,
        "version: '1'\nsetup: [\n  [[a+1-2, r], [pm]],\n  # river\n]\n",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\n",
    ] {
        // Every fifth prefix: each cuts a token somewhere else.
        for end in (0..=text.len())
            .filter(|&i| text.is_char_boundary(i) && (i % 5 == 0 || i == text.len()))
        {
            for name in ["a.annofen", "a.xay", "a.fen", "a.wxf"] {
                let doc = open(name, &text[..end]);
                for offset in [0, end / 2, end] {
                    let _ = doc.hover(offset);
                    let _ = doc.completions(offset);
                    let _ = board_at(&*doc, offset);
                }
                let _ = doc.semantic_tokens(0..end);
                let mut out = Vec::new();
                doc.write_replay_json("f", None, &mut out).unwrap();
                assert!(serde_json::from_slice::<serde_json::Value>(&out).is_ok());
            }
        }
    }
}

#[test]
fn a_wxf_record_converts_to_a_diagram_of_its_last_move() {
    use crate::model::notation_document::Target;
    let doc = open("g.wxf", PLAYOK);
    assert_eq!(
        doc.conversions(),
        [Target::Ppn, Target::AnnoFen, Target::Xay]
    );
    let annofen = doc.convert(Target::AnnoFen).unwrap();
    let diagram = open("d.annofen", &annofen);
    assert!(
        diagram.diagnostics().is_empty(),
        "{annofen}\n{:?}",
        diagram.diagnostics()
    );
    let mut out = Vec::new();
    diagram.write_replay_json("d", None, &mut out).unwrap();
    let value: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let state = &value["games"][0]["states"][0];
    let last = doc.main_line(0).last().unwrap().state;
    let mut record = Vec::new();
    doc.write_replay_json("g", Some(&[last]), &mut record)
        .unwrap();
    let record: serde_json::Value = serde_json::from_slice(&record).unwrap();
    assert_eq!(state["fen"], record["games"][0]["states"][0]["fen"]);
    // 7... a4+5: the advisor left d9 for e8.
    assert_eq!(
        state["annotations"],
        serde_json::json!([{"square": "d9", "code": "bm"}, {"square": "e8", "code": "pm"}])
    );
    let xay = doc.convert(Target::Xay).unwrap();
    assert!(xay.contains("[a, pm]"), "{xay}");
}

#[test]
fn annotations_are_listed_in_the_ppn_they_cannot_be_drawn_in() {
    use crate::model::notation_document::Target;
    let doc = open("a.annofen", ANNOFEN);
    let ppn = doc.convert(Target::Ppn).unwrap();
    assert!(ppn.starts_with("---\nGameType: Xiangqi\n...\n{ Converted from an annoFEN position: Copyright last two moves. Annotations (PPN draws none): b9 bm, b9 a+1-2,"), "{ppn}");
    let broken = open("b.annofen", "v1 Q8/9/9/9/9/9/9/9/9/9\n");
    let error = broken.convert(Target::Ppn).unwrap_err();
    assert!(error.0.contains("errors"), "{}", error.0);
    assert!(open("a.annofen", ANNOFEN).convert(Target::Wxf).is_err());
}

#[test]
fn random_edits_give_what_a_fresh_analysis_gives() {
    let quiet = quiet_game(24);
    let samples = [
        ("g.wxf", PLAYOK),
        ("q.wxf", quiet.as_str()),
        ("a.annofen", ANNOFEN),
        ("a.xay", "version: '1'\nsetup: [\n  [[r], [h, a+0-2], [], [k]],\n  # river\n  [[], [P, pm]],\n]\n"),
    ];
    let mut seed: u64 = 99;
    let mut next = move |n: usize| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) as usize % n.max(1)
    };
    let alphabet = [
        '1', '+', '.', 'H', 'p', ' ', '\n', '[', ']', '<', '/', 'x', '}', 'E', 'N', 'D', '{',
    ];
    for (name, start) in samples {
        let mut previous = open(name, start);
        let mut text = start.to_string();
        for _ in 0..150 {
            let at = (0..=text.len())
                .filter(|&i| text.is_char_boundary(i))
                .nth(next(text.len() + 1))
                .unwrap_or(0);
            let removed = if at < text.len() && next(2) == 0 {
                text[at..].chars().next().map_or(0, char::len_utf8)
            } else {
                0
            };
            let inserted = if removed == 0 || next(2) == 0 {
                alphabet[next(alphabet.len())].to_string()
            } else {
                String::new()
            };
            text.replace_range(at..at + removed, &inserted);
            let edit = TextEdit {
                start: at,
                old_end: at + removed,
                new_end: at + inserted.len(),
            };
            let updated = reanalyze(&*previous, Some(Path::new(name)), text.clone(), &edit);
            let fresh = open(name, &text);
            assert_same_analysis(&*updated, &*fresh, &format!("{name}: {text:?}"));
            previous = updated;
        }
    }
}

#[test]
fn offsets_inside_a_character_are_safe() {
    let text = "# é\nv1 r[<bm>]é/9\n";
    let doc = open("a.annofen", text);
    for offset in 0..=text.len() + 2 {
        let _ = doc.hover(offset);
        let _ = doc.completions(offset);
        let _ = board_at(&*doc, offset);
    }
    let wxf = "FORMAT WXF\nRED é\nSTART{\n 1. P3+1 é\n}END\n";
    let doc = open("a.wxf", wxf);
    for offset in 0..=wxf.len() + 2 {
        let _ = doc.hover(offset);
        let _ = doc.completions(offset);
    }
    check_diagnostics(
        Wxf,
        wxf,
        expect![[r#"
            error wxf-syntax 4:10-4:11 "é": `é` is not a WXF move: a piece letter, its file (or `+`/`-` for the front/rear piece), `+` forwards, `-` backwards or `.` sideways, then a file or a number of ranks, like `H2+3`; it is skipped, and the next move is the other side's
        "#]],
    );
}

/// A record of `moves` quiet legal moves (no capture, no check), chosen by a fixed-seed
/// generator, with its text.
fn quiet_game(moves: usize) -> String {
    use crate::xiangqi::board::{Board, Side};
    use crate::xiangqi::rules::{in_check, legal_moves};
    use crate::xiangqi::wxf_move::write_move;
    let mut seed: u64 = 5;
    let mut board = Board::initial();
    let mut side = Side::Red;
    let mut out = String::from("FORMAT WXF\nSTART{\n");
    for index in 0..moves {
        let quiet: Vec<_> = legal_moves(&board, side)
            .into_iter()
            .filter(|(from, to)| {
                let mut after = board.clone();
                after.put(*to, after.get(*from));
                after.put(*from, None);
                board.get(*to).is_none() && !in_check(&after, side.other())
            })
            .collect();
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let (from, to) = quiet[(seed >> 33) as usize % quiet.len()];
        let text = write_move(&board, from, to).unwrap();
        if side == Side::Red {
            out.push_str(&format!("{:>3}. {text}", index / 2 + 1));
        } else {
            out.push_str(&format!(" {text}\n"));
        }
        board.put(to, board.get(from));
        board.put(from, None);
        side = side.other();
    }
    out.push_str("\n}END\n");
    out
}

#[test]
fn a_move_broken_early_shows_the_editor_its_first_problems_put_in_words_alone() {
    // A wrong move number and a mistyped first move: the moves after it fail.
    let text = quiet_game(600).replacen("  1. ", "  7. ", 1);
    let first_move = text.find("  7. ").unwrap() + 5;
    let broken = format!("{}x{}", &text[..first_move + 1], &text[first_move + 1..]);
    let document = open("g.wxf", &broken);
    let diagnostics = document.diagnostics();
    assert!(diagnostics.len() > 100, "{}", diagnostics.len());
    assert!(diagnostic_codes(Wxf, &broken).contains(&"wxf-move-number"));
    assert_shown_as_worded(&*document, diagnostics, "a move broken early");
}

#[test]
fn edits_outside_the_moves_of_a_long_record_give_what_a_fresh_analysis_gives() {
    use crate::model::format::Format;
    use crate::xiangqi::document::XiangqiDocument;
    let clean = quiet_game(700);
    // The same record with a move broken early: later moves fail.
    let at = clean.find("  1. ").unwrap() + 6;
    let broken = format!("{}x{}", &clean[..at], &clean[at..]);
    for text in [clean, broken] {
        let base = XiangqiDocument::new(Format::Wxf, text.clone());
        let after_format = text.find('\n').unwrap() + 1;
        // From `START{` into the first move, which changes: the block is read again.
        let block = text.find("START{").unwrap();
        let first_letter = text.find("  1. ").unwrap() + 5;
        let letter = if &text[first_letter..first_letter + 1] == "H" {
            "C"
        } else {
            "H"
        };
        let other_piece = format!("{}{letter}", &text[block..first_letter]);
        let edits = [
            (block, first_letter + 1 - block, other_piece.as_str()),
            (after_format, 0, "GAME a game\n"),
            (after_format, 0, "RED someone\n"),
            (text.len(), 0, "\n"),
            (2, 0, "x"),
            (text.find("START{").unwrap(), 0, "\n"),
        ];
        for (at, removed, inserted) in edits {
            let mut edited = text.clone();
            edited.replace_range(at..at + removed, inserted);
            let edit = edit_between(&text, &edited);
            let updated = base.updated(edited.clone(), &edit);
            let fresh = XiangqiDocument::new(Format::Wxf, edited.clone());
            assert_same_analysis(&updated, &fresh, &format!("{inserted:?} at {at}"));
        }
    }
}

#[test]
fn the_chunks_of_moves_passed_over_for_their_problems_hide_none() {
    // A long record in lower case for Black (or all in upper case), with a wrong number,
    // a move in the other side's case, a move taken out or put in (every later number and
    // case then wrong), Black opening: what the editor is shown is every diagnostic.
    let text = quiet_game(700);
    let upper = text.to_uppercase();
    let numbered = |text: &str, n: usize| text.find(&format!("{n:>3}. ")).unwrap() + 5;
    let mut cases = vec![text.clone(), upper.clone()];
    let at = numbered(&text, 100);
    cases.push(text.replacen("\n100. ", "\n101. ", 1));
    cases.push(format!(
        "{}{}{}",
        &text[..at],
        text[at..at + 1].to_lowercase(),
        &text[at + 1..]
    ));
    cases.push(format!(
        "{}{}{}",
        &upper[..at],
        upper[at..at + 1].to_lowercase(),
        &upper[at + 1..]
    ));
    let second = numbered(&text, 40);
    let word_end = second + text[second..].find(' ').unwrap();
    cases.push(format!("{}{}", &text[..second], &text[word_end + 1..]));
    cases.push(format!("{}H2+3 {}", &text[..second], &text[second..]));
    cases.push(text.replacen("START{\n", "START{\n  1. ... ", 1));
    for (number, case) in cases.iter().enumerate() {
        let document = open("g.wxf", case);
        let diagnostics = document.diagnostics();
        assert_shown_as_worded(&*document, diagnostics, &format!("case {number}"));
        if number >= 2 {
            assert!(!diagnostics.is_empty(), "case {number}");
        }
    }
}

#[test]
fn edits_near_the_start_middle_and_end_give_what_a_fresh_analysis_gives() {
    let text = quiet_game(120);
    let moves: Vec<usize> = text
        .match_indices(|c: char| c.is_ascii_uppercase() || c.is_ascii_lowercase())
        .map(|(at, _)| at)
        .filter(|&at| at > text.find("START{").unwrap() + 6 && text[..at].ends_with(' '))
        .collect();
    let places = [
        moves[1],
        moves[2],
        moves[moves.len() / 2],
        moves[moves.len() / 2 + 1],
        moves[moves.len() - 2],
        moves[moves.len() - 1],
    ];
    let base = open("g.wxf", &text);
    for at in places {
        let word_end = at + text[at..].find([' ', '\n']).unwrap();
        let word = &text[at..word_end];
        let alias = match &word[..1] {
            "H" => "N",
            "h" => "n",
            "E" => "B",
            "e" => "b",
            other => other,
        };
        // A letter typed into a move (every later board changes), the piece's alias (no
        // board changes), the move deleted (every later move is the other side's), and two
        // moves swapped back and forth.
        for (replacement, from, to) in [
            ("x".to_string(), at + 1, at + 1),
            (alias.to_string(), at, at + 1),
            (String::new(), at, word_end),
            (format!("{word} {word}"), at, word_end),
        ] {
            let mut edited = text.clone();
            edited.replace_range(from..to, &replacement);
            let edit = TextEdit {
                start: from,
                old_end: to,
                new_end: from + replacement.len(),
            };
            let updated = base.update(edited.clone(), &edit);
            let fresh = open("g.wxf", &edited);
            let context = format!("{word:?} → {replacement:?} at {from}");
            assert_same_analysis(&*updated, &*fresh, &context);
            // And back: the text as it was.
            let undo = TextEdit {
                start: from,
                old_end: from + replacement.len(),
                new_end: to,
            };
            let undone = updated.update(text.clone(), &undo);
            assert_same_analysis(&*undone, &*base, &context);
        }
    }
}

#[test]
fn replay_after_an_edit_stops_where_the_boards_meet_again() {
    use crate::xiangqi::document::XiangqiDocument;
    let text = quiet_game(200);
    let base = XiangqiDocument::new(crate::model::format::Format::Wxf, text.clone());
    // A horse's `H` written `N`: the same move, so the same boards, and the boards after it
    // are those already played (the same allocations), not played again.
    let at = text.find(" H").unwrap() + 1;
    let mut edited = text.clone();
    edited.replace_range(at..at + 1, "N");
    let edit = TextEdit {
        start: at,
        old_end: at + 1,
        new_end: at + 1,
    };
    let updated = base.updated(edited.clone(), &edit);
    let fresh = XiangqiDocument::new(crate::model::format::Format::Wxf, edited);
    assert_eq!(updated.played(), fresh.played());
    let changed = updated
        .written_moves()
        .iter()
        .position(|m| m.range.start == at)
        .unwrap();
    // The last move of the last full chunk (the moves after it are copied, not shared).
    let chunk = crate::model::chunked::CHUNK;
    let last_shareable = base.played().len() / chunk * chunk - 1;
    assert!(changed + 1 < last_shareable);
    assert!(updated.played().shares_item(base.played(), last_shareable));
    assert!(!fresh.played().shares_item(base.played(), last_shareable));
}

#[test]
fn wxf_tokens_follow_the_text_and_a_range_gives_those_inside_it() {
    let text = "FORMAT WXF\nRED ann\nSTART{\n 1. P3+1 c8.7\n 2. H2+3 h2+3\n}END\n";
    check_semantic_tokens(
        Wxf,
        text,
        expect![[r#"
            Property "FORMAT"
            String "WXF"
            Property "RED"
            String "ann"
            Keyword "START{"
            Number "1."
            Type "P"
            Variable "3"
            Operator "+"
            Number "1"
            Type "c"
            Variable "8"
            Operator "."
            Number "7"
            Number "2."
            Type "H"
            Variable "2"
            Operator "+"
            Number "3"
            Type "h"
            Variable "2"
            Operator "+"
            Number "3"
            Keyword "}END"
        "#]],
    );
    let doc = open("g.wxf", text);
    let tokens = doc.semantic_tokens(0..text.len());
    let offsets: Vec<usize> = (0..=text.len()).collect();
    for (index, &start) in offsets.iter().enumerate() {
        for &end in &offsets[index..] {
            let inside: Vec<_> = tokens
                .iter()
                .filter(|token| token.range.end > start && token.range.start < end)
                .cloned()
                .collect();
            assert_eq!(doc.semantic_tokens(start..end), inside, "{start}..{end}");
        }
    }
}

/// A record of at most `moves` random legal moves (one in four any legal move, captures and
/// checks among them; the others quiet), from a seed, with its text.
fn random_game(moves: usize, seed: u64) -> String {
    use crate::test_random::Xorshift;
    use crate::xiangqi::board::{Board, Side};
    use crate::xiangqi::rules::{in_check, legal_moves};
    use crate::xiangqi::wxf_move::write_move;
    let mut random = Xorshift::new(seed);
    let mut board = Board::initial();
    let mut side = Side::Red;
    let mut out = String::from("FORMAT WXF\nSTART{\n");
    for index in 0..moves {
        let legal = legal_moves(&board, side);
        let quiet: Vec<_> = legal
            .iter()
            .copied()
            .filter(|(from, to)| {
                let mut after = board.clone();
                after.put(*to, after.get(*from));
                after.put(*from, None);
                board.get(*to).is_none() && !in_check(&after, side.other())
            })
            .collect();
        let choices = if quiet.is_empty() || random.below(4) == 0 {
            legal
        } else {
            quiet
        };
        if choices.is_empty() {
            break;
        }
        let (from, to) = choices[random.below(choices.len())];
        let text = write_move(&board, from, to).unwrap();
        if side == Side::Red {
            out.push_str(&format!("{:>4}. {text}", index / 2 + 1));
        } else {
            out.push_str(&format!(" {text}\n"));
        }
        board.put(to, board.get(from));
        board.put(from, None);
        side = side.other();
    }
    out.push_str("\n}END\n");
    out
}

/// The edit that turns `old` into `new`: what lies between their common start and end.
fn edit_between(old: &str, new: &str) -> TextEdit {
    let start = old
        .bytes()
        .zip(new.bytes())
        .take_while(|(a, b)| a == b)
        .count();
    let end = old[start..]
        .bytes()
        .rev()
        .zip(new[start..].bytes().rev())
        .take_while(|(a, b)| a == b)
        .count();
    TextEdit {
        start,
        old_end: old.len() - end,
        new_end: new.len() - end,
    }
}

#[test]
fn edits_of_long_records_give_what_a_fresh_analysis_gives() {
    use crate::model::format::Format;
    use crate::test_random::Xorshift;
    use crate::xiangqi::document::XiangqiDocument;
    let mut random = Xorshift::new(0x5851_f42d_4c95_7f2d);
    let mut same_moves_on_other_boards = 0;
    for seed in 1..=4 {
        let original = random_game(600, seed);
        let mut texts = vec![original.clone()];
        let mut previous = XiangqiDocument::new(Format::Wxf, original);
        for _ in 0..30 {
            let text = texts.last().unwrap().clone();
            let words: Vec<(usize, &str)> = text
                .split_inclusive([' ', '\n'])
                .scan(0, |at, word| {
                    let start = *at;
                    *at += word.len();
                    Some((start, word.trim_end()))
                })
                .filter(|(start, word)| *start > text.find("START{").unwrap() && word.len() == 4)
                .collect();
            let (at, word) = words[random.below(words.len())];
            let replacement = match random.below(6) {
                // Back to a text of before, as undoing does.
                0 if texts.len() > 1 => None,
                // A letter typed into the move: it is skipped.
                1 => Some(format!("{}x{}", &word[..1], &word[1..])),
                // Another piece, another file, another distance: other boards or failures.
                2 => Some(format!(
                    "{}{}",
                    ["R", "H", "C", "p", "e", "a"][random.below(6)],
                    &word[1..]
                )),
                3 => Some(format!("{}{}", &word[..3], 1 + random.below(9))),
                // The move deleted, or written twice: every later move is the other side's.
                4 => Some(String::new()),
                _ => Some(format!("{word} {word}")),
            };
            let edited = match replacement {
                None => {
                    texts.pop();
                    texts.last().unwrap().clone()
                }
                Some(replacement) => {
                    let mut edited = text.clone();
                    edited.replace_range(at..at + word.len(), &replacement);
                    texts.push(edited.clone());
                    edited
                }
            };
            let edit = edit_between(&text, &edited);
            let updated = previous.updated(edited.clone(), &edit);
            let fresh = XiangqiDocument::new(Format::Wxf, edited.clone());
            let context = format!("seed {seed}, {word:?} at {at}");
            let (moves, fresh_moves) = (updated.played(), fresh.played());
            let first_difference = (0..moves.len().max(fresh_moves.len()))
                .find(|&index| moves.get(index) != fresh_moves.get(index));
            assert_eq!(
                first_difference.map(|index| (index, moves.get(index), fresh_moves.get(index))),
                None,
                "{context}"
            );
            assert_same_analysis(&updated, &fresh, &context);
            // Moves played as before on a board that is not as before: those an update
            // may take over without playing them again.
            if previous.played().len() == updated.played().len() {
                same_moves_on_other_boards += (0..updated.played().len())
                    .filter(|&index| {
                        previous.played()[index] == updated.played()[index]
                            && previous.board_at_state(index) != updated.board_at_state(index)
                    })
                    .count();
            }
            previous = updated;
        }
    }
    assert!(
        same_moves_on_other_boards > 2_000,
        "{same_moves_on_other_boards}"
    );
}
