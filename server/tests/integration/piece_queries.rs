//! Every form of the PieceId grammar against the reference's algorithm, worked by hand from
//! its source (`get_id_from_piece_id`, `non_greedy_match`, `greedy_match`,
//! `get_location_index`, `insert_df` in the R package `ppn`): the boards below are what it
//! computes. The generated conformance games cover the common forms; these cover the
//! combinations they leave out, `?` queries above all: a query's three steps, a query that
//! gives only a side and an angle as a `%` target, `,cfg'`, `,sN`, `,rN` and `,aN` parts,
//! and the configurations whose ranks count from one.

use ppn_ls::ppn::replay::replay_document;

/// The board after the last move: `kind_side suit/rank cfg (x,y) angle`, bottom first.
fn board(movetext: &str) -> Vec<String> {
    let text = format!("---\n...\n{movetext}\n");
    let replay = replay_document(&text);
    let errors: Vec<_> = replay
        .diagnostics
        .iter()
        .filter(|d| d.severity == ppn_ls::diagnostic::Severity::Error)
        .map(|d| format!("{}: {}", d.code, d.message))
        .collect();
    assert!(errors.is_empty(), "{movetext}: {errors:?}");
    let last = replay.games[0].states().last().expect("a starting board");
    last.pieces()
        .iter()
        .map(|p| {
            format!(
                "{} {}/{} {} ({},{}) {}",
                p.piece_side(),
                p.suit,
                p.rank,
                &*p.cfg,
                p.x,
                p.y,
                p.angle.rem_euclid(360.0)
            )
        })
        .collect()
}

#[test]
fn a_location_names_its_top_piece_and_a_count_the_nearest() {
    assert_eq!(
        board("1. S@b2 M@b2 b2-c3"),
        [
            "coin_back 1/1 piecepack (2,2) 0",
            "coin_back 2/1 piecepack (3,3) 0"
        ]
    );
    // Fewer than N at the location: the nearest pieces, ties in board order.
    assert_eq!(
        board("1. S@b2 M@c2 C@e5 2b2-d4"),
        [
            "coin_back 3/1 piecepack (5,5) 0",
            "coin_back 1/1 piecepack (4,4) 0",
            "coin_back 2/1 piecepack (4,4) 0",
        ]
    );
}

#[test]
fn a_slice_counts_from_the_top() {
    assert_eq!(
        board("1. S@b2 M@b2 C@b2 b2[3]-c3 b2[1:2]-d4"),
        [
            "coin_back 1/1 piecepack (3,3) 0",
            "coin_back 2/1 piecepack (4,4) 0",
            "coin_back 3/1 piecepack (4,4) 0",
        ]
    );
}

#[test]
fn a_query_takes_a_unique_stated_match_then_the_last_completed_one() {
    // Step one: only the Moons coin is stated `M`.
    assert_eq!(
        board("1. S@a1 M@b1 ?M-c3"),
        [
            "coin_back 1/1 piecepack (1,1) 0",
            "coin_back 2/1 piecepack (3,3) 0"
        ]
    );
    // Two Suns coins: step two completes `S` (a coin back, angle 0) and takes the last.
    assert_eq!(
        board("1. S@a1 S@b1 ?S-c3"),
        [
            "coin_back 1/1 piecepack (1,1) 0",
            "coin_back 1/1 piecepack (3,3) 0"
        ]
    );
    // Step three ignores the angle: `S>` matches neither coin as stated or completed (the
    // turned one is stored at -90).
    assert_eq!(
        board("1. S@a1 S@b1 a1@>90 ?S>-c3"),
        [
            "coin_back 1/1 piecepack (1,1) 270",
            "coin_back 1/1 piecepack (3,3) 0"
        ]
    );
}

#[test]
fn a_stated_rank_is_compared_before_ranks_that_count_from_one_are_shifted() {
    // `?▲R1` states rank 2 (the digit plus one); the 1-pip pyramid is stored as 1 and the
    // 2-pip one as 2, so step one finds the 2-pip pyramid, as the reference does.
    assert_eq!(
        board("1. ▲R1@a5 ▲R2@b5 ?▲R1-c5"),
        [
            "pyramid_top 1/1 icehouse_pieces (1,5) 0",
            "pyramid_top 1/2 icehouse_pieces (3,5) 0",
        ]
    );
}

#[test]
fn a_query_with_only_a_side_and_an_angle_as_a_percent_target() {
    // `?b>`: back and 270 degrees. The tile turned by `@>90` is stored at -90, so no step
    // matches with its angle; step three takes the last Suns null tile back (c1).
    let after_c1 = |coin: &str| {
        vec![
            "tile_back 1/1 piecepack (1,1) 0".to_string(),
            "tile_back 1/1 piecepack (2,1) 270".to_string(),
            "tile_back 1/1 piecepack (3,1) 0".to_string(),
            coin.to_string(),
        ]
    };
    assert_eq!(
        board("1. t@a1 t@b1 t@c1 b1@>90 2. S@d4%?b>"),
        after_c1("coin_back 1/1 piecepack (4,4) 0")
    );
    // `@%` drops at the target's place, just above it.
    assert_eq!(
        board("1. t@a1 t@b1 t@c1 b1@>90 2. C@%?b>"),
        after_c1("coin_back 3/1 piecepack (3,1) 0")
    );
    // The same side and angle as `,a-90` (a drop is never split at its `-`), and below
    // with `\`.
    assert_eq!(
        board("1. tb@e1 tb@f1 f1@>90 S@a1 2. C@c3%?b,a-90 3. M\\%?b>"),
        [
            "tile_back 1/1 piecepack (5,1) 0",
            "coin_back 2/1 piecepack (6,1) 0",
            "tile_back 1/1 piecepack (6,1) 270",
            "coin_back 3/1 piecepack (3,3) 0",
            "coin_back 1/1 piecepack (1,1) 0",
        ]
    );
    // `?b^` states angle 0: every coin back matches too, so step two completes a tile back
    // of Suns at 0 degrees: the tile at e1.
    assert_eq!(
        board("1. tb@e1 tb@f1 f1@>90 S@a1 2. M@%?b^ 3. a1-%?b^"),
        [
            "tile_back 1/1 piecepack (5,1) 0",
            "coin_back 1/1 piecepack (5,1) 0",
            "coin_back 2/1 piecepack (5,1) 0",
            "tile_back 1/1 piecepack (6,1) 270",
        ]
    );
}

#[test]
fn a_query_with_a_configuration() {
    let start = "1. S@a1 S,subpack'@b1 uS@c1 M@d1";
    // Two subpack Suns coins: step two takes the last (c1), and C goes just above it.
    assert_eq!(
        board(&format!("{start} 2. C@e2%?S,subpack'")),
        [
            "coin_back 1/1 piecepack (1,1) 0",
            "coin_back 1/1 subpack (2,1) 0",
            "coin_back 1/1 subpack (3,1) 0",
            "coin_back 3/1 piecepack (5,2) 0",
            "coin_back 2/1 piecepack (4,1) 0",
        ]
    );
    // One piecepack Suns coin: step one.
    assert_eq!(
        board(&format!("{start} 2. A@%?S,piecepack'")),
        [
            "coin_back 1/1 piecepack (1,1) 0",
            "coin_back 4/1 piecepack (1,1) 0",
            "coin_back 1/1 subpack (2,1) 0",
            "coin_back 1/1 subpack (3,1) 0",
            "coin_back 2/1 piecepack (4,1) 0",
        ]
    );
    // As an anchor of a relative location, and with an angle part.
    assert_eq!(
        board(&format!(
            "{start} 2. C@<1,0>$?S,subpack' 3. *?S,piecepack',a0"
        )),
        [
            "coin_back 1/1 subpack (2,1) 0",
            "coin_back 1/1 subpack (3,1) 0",
            "coin_back 2/1 piecepack (4,1) 0",
            "coin_back 3/1 piecepack (4,1) 0",
        ]
    );
    // `N?` is `N&?`: the two pieces nearest to where the query's piece is (three are at
    // c1; ties go in board order, so the last two).
    assert_eq!(
        board(&format!("{start} a1-c1 C@c1 2. 2?S,subpack'-h8")),
        [
            "coin_back 1/1 subpack (2,1) 0",
            "coin_back 1/1 subpack (3,1) 0",
            "coin_back 2/1 piecepack (4,1) 0",
            "coin_back 1/1 piecepack (8,8) 0",
            "coin_back 3/1 piecepack (8,8) 0",
        ]
    );
}

#[test]
fn a_query_with_suit_and_rank_numbers() {
    // `,s1` is the second suit (Moons) and `,r2` the third rank (2): counted from zero.
    assert_eq!(
        board("1. S2@a1 M2@b1 M3@c1 ?t,s1,r2-d4"),
        [
            "tile_face 1/3 piecepack (1,1) 0",
            "tile_face 2/4 piecepack (3,1) 0",
            "tile_face 2/3 piecepack (4,4) 0",
        ]
    );
}

#[test]
fn greedy_searches_move_start_and_active_pieces() {
    assert_eq!(
        board("1. S@a1 M@b1 S2@c1 /S-d4"),
        [
            "coin_back 2/1 piecepack (2,1) 0",
            "coin_back 1/1 piecepack (4,4) 0",
            "tile_face 1/3 piecepack (4,4) 0",
        ]
    );
    // `^a2` is what stood at a2 when the move began.
    assert_eq!(
        board("1. S@a1 M@a2 2. a1-a2 ^a2-a3"),
        [
            "coin_back 1/1 piecepack (1,2) 0",
            "coin_back 2/1 piecepack (1,3) 0"
        ]
    );
    // An empty PieceId is the last active piece; `&` the place of a PieceId.
    assert_eq!(
        board("1. S@a1 M@b1 ?S-a4;-a5 2. b1-&?S"),
        [
            "coin_back 1/1 piecepack (1,5) 0",
            "coin_back 2/1 piecepack (1,5) 0"
        ]
    );
}

#[test]
fn swaps_and_captures_take_queries() {
    assert_eq!(
        board("1. S@a1 M@b1 C@c1 ?M#?S,piecepack' 2. ?C:?M"),
        [
            "coin_back 1/1 piecepack (2,1) 0",
            "coin_back 3/1 piecepack (1,1) 0"
        ]
    );
}
