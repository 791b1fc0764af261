//! Move application, including every place where this crate deliberately differs from the
//! reference implementation (see `tests/conformance/reference-quirks/README.md`).

use crate::ppn::reader::macros::MacroTable;
use crate::ppn::rules::state::{GameState, MoveIssue, ParserOptions, Severity};

fn game() -> GameState {
    GameState::new(
        Vec::new(),
        1.0,
        MacroTable::builtins(),
        ParserOptions::default(),
    )
}

fn play(state: &mut GameState, text: &str) -> Vec<MoveIssue> {
    let tokens: Vec<&str> = text.split_whitespace().collect();
    state.apply_move(&tokens)
}

/// Plays moves that must not produce any issue.
fn play_clean(state: &mut GameState, moves: &[&str]) {
    for text in moves {
        let issues = play(state, text);
        assert!(issues.is_empty(), "{text}: {issues:?}");
    }
}

fn board(state: &GameState) -> Vec<String> {
    state
        .pieces()
        .iter()
        .map(|p| {
            format!(
                "{} {} {} {} ({},{}) {}",
                p.piece_side(),
                p.suit,
                p.rank,
                p.cfg,
                p.x,
                p.y,
                p.angle
            )
        })
        .collect()
}

/// (token, range, code) of every issue of one severity.
fn found(issues: &[MoveIssue], severity: Severity) -> Vec<(usize, std::ops::Range<usize>, &str)> {
    issues
        .iter()
        .filter(|i| i.severity == severity)
        .map(|i| (i.token, i.range.clone(), i.code))
        .collect()
}

#[test]
fn drops_moves_and_removals() {
    let mut state = game();
    play_clean(&mut state, &["S@b2 a@b2 t\\b2", "b2-c3*b2 b2_%c3"]);
    assert_eq!(
        board(&state),
        [
            "tile_back 1 1 piecepack (3,3) 0",
            "coin_face 1 2 piecepack (3,3) 0",
        ]
    );
    play_clean(&mut state, &["pS@%c3", "!c3[3] c3[2]-d4"]);
    assert_eq!(
        board(&state),
        [
            "coin_face 1 2 piecepack (3,3) 0",
            "tile_back 1 1 piecepack (3,3) 0",
            "pawn_face 1 1 piecepack (4,4) 0",
        ]
    );
}

#[test]
fn caret_reads_the_board_at_the_start_of_the_move() {
    let mut chained = game();
    play_clean(&mut chained, &["M@a2 S@a1", "a1-a2 a2-a3"]);
    assert_eq!(
        board(&chained),
        [
            "coin_back 2 1 piecepack (1,2) 0",
            "coin_back 1 1 piecepack (1,3) 0",
        ]
    );
    let mut caret = game();
    play_clean(&mut caret, &["M@a2 S@a1", "a1-a2 ^a2-a3"]);
    assert_eq!(
        board(&caret),
        [
            "coin_back 1 1 piecepack (1,2) 0",
            "coin_back 2 1 piecepack (1,3) 0",
        ]
    );
}

#[test]
fn relative_locations_rotations_swaps_and_captures() {
    let mut state = game();
    play_clean(
        &mut state,
        &[
            "S@b2 M@d2",
            "b2-<+1,0> d2-2N",
            "c2@>90|c3",
            "d4#b3",
            "d4:b3",
        ],
    );
    assert_eq!(board(&state), ["coin_back 1 1 piecepack (2,3) -90"]);
    play_clean(&mut state, &["A@e5", "e5$>45", "b3-<1,1>$e5"]);
    assert_eq!(
        board(&state),
        [
            "coin_back 4 1 piecepack (5,5) -45",
            "coin_back 1 1 piecepack (6,6) -90",
        ]
    );
}

#[test]
fn a_capture_whose_mover_is_missing_changes_nothing() {
    let mut state = game();
    play_clean(&mut state, &["S@b2 M@c3 A@c3 C@d4", "d4-e4"]);
    let before = state.clone();
    let issues = play(&mut state, "a1:c3");
    assert_eq!(issues.len(), 1, "{issues:?}");
    assert_eq!(
        (issues[0].code, issues[0].range.clone()),
        ("no-piece", 0..2)
    );
    assert_eq!(state, before);
    // The empty PieceId still names the piece the last move moved.
    play_clean(&mut state, &["-f4"]);
    assert_eq!(board(&state)[3], "coin_back 3 1 piecepack (6,4) 0");
    // With its mover found, the capture takes the top piece only.
    play_clean(&mut state, &["b2:c3"]);
    assert_eq!(
        board(&state),
        [
            "coin_back 2 1 piecepack (3,3) 0",
            "coin_back 3 1 piecepack (6,4) 0",
            "coin_back 1 1 piecepack (3,3) 0",
        ]
    );
}

#[test]
fn flips_follow_the_spec_rules() {
    let mut state = game();
    play_clean(&mut state, &["d3@a1 R▲@a2 R▲l@a3", "+a1 +a2 +a3", "+a2"]);
    assert_eq!(
        board(&state),
        [
            "die_face 1 1 piecepack (1,1) 0",
            "pyramid_top 1 1 icehouse_pieces (1,2) 0",
            "pyramid_top 1 1 icehouse_pieces (1,3) 0",
        ]
    );
}

#[test]
fn replace_and_update() {
    let mut state = game();
    play_clean(&mut state, &["S@b2 d@c3", "b2=S,a270 c3~3", "?dS~<"]);
    assert_eq!(
        board(&state),
        [
            "coin_back 1 1 piecepack (2,2) 270",
            "die_face 1 4 piecepack (3,3) 90",
        ]
    );
}

#[test]
fn a_die_glyph_in_an_update_also_makes_the_die_white_with_a_warning() {
    let mut state = game();
    play_clean(&mut state, &["R⚀@a1"]);
    let issues = play(&mut state, "a1~⚅");
    assert_eq!(
        found(&issues, Severity::Warning),
        [(0, 3..6, "reference-differs")]
    );
    assert_eq!(board(&state), ["die_face 6 6 dice (1,1) 0"]);
}

#[test]
fn a_piece_id_that_selects_nothing_is_an_error_and_changes_nothing() {
    let mut state = game();
    play_clean(&mut state, &["S@b2 M@c3"]);
    let before = board(&state);
    let issues = play(&mut state, "*/Y d4-e5 ?pS-b3");
    assert_eq!(
        found(&issues, Severity::Error),
        [
            (0, 1..3, "no-piece"),
            (1, 0..2, "no-piece"),
            (2, 0..3, "no-piece")
        ]
    );
    assert_eq!(board(&state), before);
}

#[test]
fn slices_past_the_stack() {
    let mut state = game();
    play_clean(&mut state, &["S@b2 M@b2 C@b2 A@d4"]);
    let before = board(&state);
    // The reference reads `[5]` on a three-piece stack as a negative index.
    let issues = play(&mut state, "b2[5]-c3");
    assert_eq!(found(&issues, Severity::Error), [(0, 0..5, "bad-slice")]);
    assert_eq!(board(&state), before);
    // One past the bottom is ignored (the reference does the same) with a warning.
    let issues = play(&mut state, "b2[1,4]-c3");
    assert_eq!(found(&issues, Severity::Warning), [(0, 0..7, "bad-slice")]);
    assert_eq!(found(&issues, Severity::Error), []);
    assert_eq!(board(&state)[3], "coin_back 3 1 piecepack (3,3) 0");
    // Nothing left to select is an error, not a wiped board.
    let before = board(&state);
    let issues = play(&mut state, "*c3[2]");
    assert_eq!(found(&issues, Severity::Error), [(0, 1..6, "no-piece")]);
    assert_eq!(board(&state), before);
}

#[test]
fn flipped_pieces_stay_active() {
    let mut state = game();
    play_clean(&mut state, &["pS@b2 S@c3", "?pS-b4+", "-b5"]);
    assert_eq!(
        board(&state),
        [
            "coin_back 1 1 piecepack (3,3) 0",
            "pawn_back 1 1 piecepack (2,5) 0",
        ]
    );
}

#[test]
fn two_letter_files_follow_the_spec_with_a_warning() {
    let mut state = game();
    let issues = play(&mut state, "S@aa1 M@ab1 C@ba1");
    assert_eq!(
        found(&issues, Severity::Warning),
        [
            (1, 2..4, "reference-differs"),
            (2, 2..4, "reference-differs")
        ]
    );
    let xs: Vec<f64> = state.pieces().iter().map(|p| p.x).collect();
    assert_eq!(xs, [27.0, 28.0, 53.0]);
}

#[test]
fn half_wind_directions_move_n_steps() {
    let mut state = game();
    let issues = play(&mut state, "pS@b2 ?pS-1NNE ?pS-2NNE");
    assert_eq!(
        found(&issues, Severity::Warning),
        [(2, 4..8, "reference-differs")]
    );
    let pawn = &state.pieces()[0];
    assert!((pawn.x - 3.5).abs() < 1e-9, "{pawn}");
    assert!(
        (pawn.y - (2.0 + 3.0 * 3f64.sqrt() / 2.0)).abs() < 1e-9,
        "{pawn}"
    );
}

#[test]
fn lenient_parsing_keeps_the_board_and_warns() {
    let mut state = game();
    let issues = play(&mut state, "S@b2q Z@c3 t,foo'@d4");
    assert_eq!(
        found(&issues, Severity::Warning),
        [
            (0, 4..5, "trailing-text"),
            (1, 0..1, "unknown-piece"),
            (2, 2..6, "unknown-configuration"),
        ]
    );
    assert_eq!(
        board(&state),
        [
            "coin_back 1 1 piecepack (2,2) 0",
            "tile_back 1 1 piecepack (3,3) 0",
            "tile_back 1 1 foo (4,4) 0",
        ]
    );
    let issues = play(&mut state, "b2-b4-c4 M@(5,2 c3=M=C");
    assert_eq!(
        found(&issues, Severity::Warning),
        [
            (0, 5..8, "trailing-text"),
            (1, 2..6, "bad-location"),
            (2, 4..6, "trailing-text"),
        ]
    );
    assert_eq!(found(&issues, Severity::Error), []);
    assert_eq!(board(&state)[0], "coin_back 2 1 piecepack (3,3) 0");
    assert_eq!(board(&state)[2], "coin_back 1 1 piecepack (2,4) 0");
    assert_eq!(board(&state)[3], "coin_back 2 1 piecepack (5,2) 0");
}

#[test]
fn digits_alone_and_featureless_searches_are_errors() {
    let mut state = game();
    play_clean(&mut state, &["S@b2 M@c3 C@d4"]);
    let before = board(&state);
    let issues = play(&mut state, "1-e6 ?Z-e5 /Q-e6");
    assert_eq!(
        found(&issues, Severity::Error),
        [
            (0, 0..1, "bad-piece-id"),
            (1, 1..2, "unknown-piece"),
            (2, 1..2, "unknown-piece"),
        ]
    );
    assert_eq!(board(&state), before);
}

#[test]
fn searches_compare_stored_angles_and_warn_when_that_matters() {
    let mut state = game();
    play_clean(&mut state, &["S>@b2 S@c2", "c2@>90"]);
    let issues = play(&mut state, "?S>-b4");
    assert_eq!(
        found(&issues, Severity::Warning),
        [(0, 0..3, "reference-differs")]
    );
    assert_eq!(board(&state)[1], "coin_back 1 1 piecepack (2,4) 270");
    assert_eq!(state.pieces()[0].angle, -90.0);
}

#[test]
fn grammar_beats_token_order() {
    let mut state = game();
    play_clean(&mut state, &["K/\\@a1 S<@c3"]);
    // Each of these is read differently (or rejected) by the reference implementation.
    for text in ["?/\\K#c3", "?S<-b2", "b2=S,a-90"] {
        let issues = play(&mut state, text);
        assert_eq!(
            found(&issues, Severity::Warning),
            [(0, 0..text.len(), "reference-differs")],
            "{text}"
        );
        assert_eq!(found(&issues, Severity::Error), [], "{text}");
    }
    assert_eq!(
        board(&state),
        [
            "pyramid_top 2 1 icehouse_pieces (3,3) 0",
            "coin_back 1 1 piecepack (2,2) 270",
        ]
    );
    play_clean(&mut state, &["b2\u{35c}(4,4)"]);
    assert_eq!(board(&state)[0], "coin_back 1 1 piecepack (4,4) 270");
}

#[test]
fn underscores_inside_configurations_are_not_move_tokens() {
    let mut state = game();
    play_clean(
        &mut state,
        &["t,dominoes_red'@b2 S@c3", "?t,dominoes_red'_c3"],
    );
    assert_eq!(
        board(&state),
        [
            "tile_back 1 1 dominoes_red (3,3) 0",
            "coin_back 1 1 piecepack (3,3) 0",
        ]
    );
}

#[test]
fn a_comma_of_coordinates_before_an_underscore_opens_no_configuration() {
    // The `,` of `(5.5,5)` is no configuration's: the `_` after it is the MoveToken, and the
    // `,dominoes'` after that is the query's.
    let mut state = game();
    play_clean(
        &mut state,
        &["🁣@(3,5) 🁫@(5.5,5)", "(5.5,5)‿2E$?f,dominoes'"],
    );
    assert_eq!(
        board(&state),
        [
            "tile_face 2 2 dominoes (5,5) 0",
            "tile_face 1 1 dominoes (3,5) 0",
        ]
    );
    let mut state = game();
    play_clean(
        &mut state,
        &[
            "tb@(3,3) tSf>@(3,3) cMf@(3,3) pAb@(5,3)",
            "(5,3)_%?>f,piecepack'",
        ],
    );
    assert_eq!(board(&state)[1], "pawn_back 4 1 piecepack (3,3) 0");
}

#[test]
fn glyphs_follow_the_spec_in_drops() {
    let mut state = game();
    let issues = play(&mut state, "○@a1 G■@b2 ()@c3");
    assert_eq!(
        found(&issues, Severity::Warning),
        [
            (0, 0..3, "reference-differs"),
            (1, 0..4, "reference-differs")
        ]
    );
    assert_eq!(
        board(&state),
        [
            "bit_back 6 1 go (1,1) 0",
            "board_face 3 8 checkers2 (2,2) 0",
            "bit_back 2 1 go (3,3) 0",
        ]
    );
}

#[test]
fn order_targets_must_be_one_other_piece() {
    let mut state = game();
    play_clean(&mut state, &["S@b2 M@b2 C@c3"]);
    let before = board(&state);
    let issues = play(&mut state, "t@d4%/c c3-d4%c3");
    assert_eq!(
        found(&issues, Severity::Error),
        [(0, 5..7, "bad-move"), (1, 6..8, "bad-move")]
    );
    assert_eq!(board(&state), before);
}

#[test]
fn macros_substitute_and_report_with_ranges() {
    let mut state = GameState::new(
        Vec::new(),
        1.0,
        MacroTable::with_overrides(
            &[],
            &[
                ("drop".to_string(), "`q'@b2 S@c3".to_string()),
                ("loop".to_string(), "`loop'".to_string()),
            ],
        ),
        ParserOptions::default(),
    );
    play_clean(&mut state, &["`drop'"]);
    assert_eq!(
        board(&state),
        [
            "bit_face 2 5 chess2 (2,2) 0",
            "coin_back 1 1 piecepack (3,3) 0",
        ]
    );
    let issues = play(&mut state, "b2-`nowhere' `loop' `q'-`q'");
    assert_eq!(
        found(&issues, Severity::Error),
        [
            (0, 3..12, "unknown-macro"),
            (1, 0..6, "macro-cycle"),
            (2, 0..7, "bad-location")
        ]
    );
}

#[test]
fn an_empty_piece_id_needs_an_active_piece() {
    let mut state = game();
    let issues = play(&mut state, "-b2");
    assert_eq!(
        found(&issues, Severity::Error),
        [(0, 0..0, "empty-piece-id")]
    );
}

#[test]
fn scale_factor_multiplies_locations() {
    let mut state = GameState::new(
        Vec::new(),
        2.0,
        MacroTable::builtins(),
        ParserOptions::default(),
    );
    play_clean(&mut state, &["S@b2", "b2-<1,0>"]);
    assert_eq!(board(&state), ["coin_back 1 1 piecepack (6,4) 0"]);
    play_clean(&mut state, &["(3,2)-b1"]);
    assert_eq!(board(&state), ["coin_back 1 1 piecepack (4,2) 0"]);
}

/// Random sub-moves built from notation characters: a sub-move with an error must leave the
/// board exactly as it was (and nothing may panic).
#[test]
fn failing_sub_moves_leave_the_board_unchanged() {
    const ALPHABET: [&str; 40] = [
        "a", "b", "c", "d", "1", "2", "3", "S", "M", "R", "t", "p", "?", "/", "^", "&", "@", "-",
        "_", "\\", "%", "#", ":", "=", "~", "<", ">", "(", ")", ",", "[", "]", "$", "|", ".", "N",
        "E", "▲", "♛", "⚂",
    ];
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (seed >> 33) as usize
    };
    let mut state = game();
    play_clean(&mut state, &["S@b2 M@b2 tA2@c3 R▲@d1 ♛@a1"]);
    let mut errors = 0;
    for _ in 0..3000 {
        let length = 1 + next() % 12;
        let token: String = (0..length)
            .map(|_| ALPHABET[next() % ALPHABET.len()])
            .collect();
        let before = board(&state);
        let issues = play(&mut state, &token);
        if issues.iter().any(|i| i.severity == Severity::Error) {
            errors += 1;
            assert_eq!(
                board(&state),
                before,
                "`{token}` failed but changed the board"
            );
        }
        for issue in &issues {
            assert!(issue.range.end <= token.len(), "`{token}`: {issue:?}");
        }
        if state.pieces().len() < 3 {
            play_clean(&mut state, &["S@b2 M@b2 tA2@c3"]);
        }
    }
    assert!(errors > 100, "only {errors} random sub-moves failed");
}

#[test]
fn counted_piece_ids_fall_back_to_the_nearest_pieces() {
    let mut state = game();
    play_clean(&mut state, &["S@b2 M@b2 C@c2 A@e5", "2b2-b4", "2c2-d4"]);
    // Only the Crowns coin is at c2; of the two coins at b4, as near as each other, the
    // later (upper) one is taken.
    assert_eq!(
        board(&state),
        [
            "coin_back 4 1 piecepack (5,5) 0",
            "coin_back 1 1 piecepack (2,4) 0",
            "coin_back 3 1 piecepack (4,4) 0",
            "coin_back 2 1 piecepack (4,4) 0",
        ]
    );
}

#[test]
fn an_empty_location_is_where_the_active_piece_is() {
    let mut state = game();
    play_clean(&mut state, &["S@c3", "M@ M\\"]);
    assert_eq!(
        board(&state),
        [
            "coin_back 2 1 piecepack (3,3) 0",
            "coin_back 1 1 piecepack (3,3) 0",
            "coin_back 2 1 piecepack (3,3) 0",
        ]
    );
}

#[test]
fn absurdly_nested_input_is_an_error_not_a_crash() {
    let mut state = game();
    play_clean(&mut state, &["S@b2"]);
    let deep = format!("{}b2-c3", "^".repeat(10_000));
    let issues = play(&mut state, &deep);
    assert_eq!(
        found(&issues, Severity::Error),
        [(0, 0..deep.len(), "bad-move")]
    );
    assert_eq!(board(&state), ["coin_back 1 1 piecepack (2,2) 0"]);
}
