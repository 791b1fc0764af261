//! The reference's own diagrams (`reference_diagrams.txt`), drawn from the same pieces in
//! its style, and ppn-ls's additions: coordinates, legends, stacks, ASCII, tafl and xiangqi
//! boards (the plain style: `plain_tests.rs`).

use super::*;
use crate::model::games::{
    tafl_board, tafl_man, xiangqi_board, xiangqi_piece, TaflSide, XiangqiSide,
};
use crate::model::piece::{parse_piece_side, Cfg};
use crate::model::scene::{MarkColor, SquareMark};

const REFERENCE: &str = include_str!("reference_diagrams.txt");

fn reference(name: &str) -> String {
    let start = format!("=== {name}\n");
    let at = REFERENCE
        .find(&start)
        .unwrap_or_else(|| panic!("no reference diagram {name}"))
        + start.len();
    let rest = &REFERENCE[at..];
    let end = rest.find("\n=== ").map_or(rest.len(), |end| end + 1);
    normalise(&rest[..end])
}

/// Lines without trailing spaces, and no blank lines at the end.
fn normalise(text: &str) -> String {
    let lines: Vec<&str> = text.lines().map(str::trim_end).collect();
    let keep = lines
        .iter()
        .rposition(|line| !line.is_empty())
        .map_or(0, |i| i + 1);
    lines[..keep].join("\n")
}

/// A piece as the reference's tests write them: missing suit and rank are 1, the
/// configuration piecepack.
fn p(side: &str, x: f64, y: f64, suit: i32, rank: i32, angle: f64, cfg: &str) -> Piece {
    let (kind, side) = parse_piece_side(side).expect("a known piece_side");
    Piece {
        kind,
        side,
        suit,
        rank,
        cfg: Cfg::new(cfg),
        x,
        y,
        angle,
    }
}

/// Coordinates and a legend, in the reference's glyphs.
fn with_reference_glyphs() -> TextOptions {
    TextOptions {
        style: BoardStyle::Reference,
        ..TextOptions::default()
    }
}

fn as_reference_draws(pieces: Vec<Piece>) -> String {
    let scene = Scene {
        pieces,
        ..Scene::default()
    };
    normalise(&diagram(&scene, &TextOptions::reference()))
}

fn check(name: &str, pieces: Vec<Piece>) {
    let drawn = as_reference_draws(pieces);
    let expected = reference(name);
    assert!(
        drawn == expected,
        "{name}: drawn\n{drawn}\n--- expected\n{expected}\n"
    );
}

fn checkers_pieces(cfg: &str) -> Vec<Piece> {
    let mut pieces = Vec::new();
    for x in [1.5, 3.5, 5.5] {
        pieces.push(p("board_back", x, 1.5, 1, 2, 0.0, cfg));
    }
    for i in 1..=6 {
        pieces.push(p("bit_back", f64::from(i), 1.0, i, 1, 0.0, cfg));
    }
    for i in 1..=6 {
        pieces.push(p("bit_face", f64::from(i), 2.0, i, 1, 0.0, cfg));
    }
    for i in 1..=6 {
        let angle = if i == 1 { 45.0 } else { 0.0 };
        pieces.push(p("die_face", f64::from(i), 3.0, i, i, angle, "dice"));
    }
    pieces
}

#[test]
fn checkers_and_dice() {
    check("checkers", checkers_pieces("checkers1"));
}

#[test]
fn fudge_and_numeral_dice() {
    let dice = |cfg: &str, angle: f64| -> Vec<Piece> {
        (1..=6)
            .map(|i| p("die_face", f64::from(i), 1.0, i, i, angle, cfg))
            .collect()
    };
    check("fudge-dice", dice("dice_fudge", 0.0));
    check("fudge-dice-turned", dice("dice_fudge", 90.0));
    check("dice-numeral", dice("dice_numeral", 0.0));
}

#[test]
fn icehouse_pyramids() {
    let mut pieces = vec![
        p("board_face", 2.5, 2.0, 1, 4, 0.0, "checkers1"),
        p("board_face", 6.5, 2.0, 1, 4, 0.0, "checkers1"),
    ];
    for i in 0..8 {
        let rank = [1, 2, 3][i % 3];
        let suit = [1, 2, 3, 4, 5, 6, 1, 2][i];
        pieces.push(p(
            "pyramid_top",
            (i + 1) as f64,
            4.0,
            suit,
            rank,
            45.0 * i as f64,
            "icehouse_pieces",
        ));
    }
    let sides = [
        "pyramid_face",
        "pyramid_left",
        "pyramid_right",
        "pyramid_back",
    ];
    for k in 0..24 {
        pieces.push(p(
            sides[k % 4],
            (k % 8 + 1) as f64,
            (k / 8 + 1) as f64,
            (k % 6 + 1) as i32,
            (k / 8 + 1) as i32,
            45.0 * (k % 8) as f64,
            "icehouse_pieces",
        ));
    }
    check("pyramids", pieces);
}

#[test]
fn subpack_and_piecepack_components() {
    let mut pieces = Vec::new();
    for (x, y) in [(1.5, 1.5), (3.5, 1.5), (1.5, 3.5), (3.5, 3.5)] {
        pieces.push(p("tile_back", x, y, 1, 1, 0.0, "piecepack"));
    }
    let alternate =
        |face: &str, back: &str, i: i32| if i % 2 == 1 { face } else { back }.to_string();
    for i in 1..=4 {
        pieces.push(p(
            &alternate("tile_face", "tile_back", i),
            f64::from(i),
            1.0,
            i,
            i,
            0.0,
            "subpack",
        ));
    }
    for i in 1..=4 {
        pieces.push(p(
            &alternate("coin_face", "coin_back", i),
            f64::from(i),
            2.0,
            i,
            i,
            0.0,
            "subpack",
        ));
    }
    for i in 1..=4 {
        pieces.push(p("die_face", f64::from(i), 3.0, i, i, 0.0, "subpack"));
    }
    for i in 1..=4 {
        pieces.push(p(
            &alternate("pawn_face", "pawn_back", i),
            f64::from(i),
            4.0,
            i,
            i,
            0.0,
            "subpack",
        ));
    }
    check("subpack", pieces);
}

#[test]
fn saucers() {
    let pieces = (1..=4)
        .map(|i| {
            let side = if i % 2 == 1 {
                "saucer_face"
            } else {
                "saucer_back"
            };
            p(side, f64::from(i), 1.0, i, 1, 0.0, "piecepack")
        })
        .collect();
    check("saucers", pieces);
}

#[test]
fn turned_tiles_and_pawns() {
    let pieces = vec![
        p("tile_face", 1.5, 1.5, 1, 4, 90.0, "piecepack"),
        p("tile_face", 3.5, 1.5, 1, 4, 270.0, "piecepack"),
        p("pawn_back", 1.0, 1.0, 2, 1, 0.0, "piecepack"),
        p("pawn_back", 2.0, 1.0, 1, 1, 45.0, "piecepack"),
        p("pawn_face", 1.0, 2.0, 1, 1, 45.0, "piecepack"),
        p("bit_back", 3.0, 1.0, 3, 1, 0.0, "checkers1"),
    ];
    check("turned-tiles-and-pawns", pieces);
}

const DOMINO_COLOURS: [&str; 6] = [
    "dominoes_black",
    "dominoes_blue",
    "dominoes_green",
    "dominoes_red",
    "dominoes_white",
    "dominoes_yellow",
];

#[test]
fn dominoes() {
    let mut upright = Vec::new();
    for k in 0..12 {
        let i = k % 6;
        let (y, angle) = if k < 6 { (1.0, 0.0) } else { (3.0, 180.0) };
        upright.push(p(
            "tile_face",
            (i + 1) as f64,
            y,
            i as i32 + 1,
            i as i32 + 2,
            angle,
            DOMINO_COLOURS[i],
        ));
    }
    for (i, cfg) in DOMINO_COLOURS.into_iter().enumerate() {
        let angle = if i < 3 { 0.0 } else { 180.0 };
        upright.push(p(
            "tile_back",
            (i + 1) as f64,
            5.0,
            i as i32 + 1,
            i as i32 + 2,
            angle,
            cfg,
        ));
    }
    check("dominoes-upright", upright);
    let mut sideways = Vec::new();
    for k in 0..12 {
        let i = k % 6;
        let (x, angle) = if k < 6 { (1.0, 90.0) } else { (3.0, 270.0) };
        sideways.push(p(
            "tile_face",
            x,
            (i + 1) as f64,
            i as i32 + 1,
            i as i32 + 2,
            angle,
            DOMINO_COLOURS[i],
        ));
    }
    for (i, cfg) in DOMINO_COLOURS.into_iter().enumerate() {
        let angle = if i < 3 { 90.0 } else { 270.0 };
        sideways.push(p(
            "tile_back",
            5.0,
            (i + 1) as f64,
            i as i32 + 1,
            i as i32 + 2,
            angle,
            cfg,
        ));
    }
    check("dominoes-sideways", sideways);
}

fn tile_backs_7_by_5() -> Vec<Piece> {
    let mut pieces = Vec::new();
    for row in 0..7 {
        for col in 0..5 {
            pieces.push(p(
                "tile_back",
                f64::from(1 + 2 * col),
                f64::from(1 + 2 * row),
                1,
                1,
                0.0,
                "piecepack",
            ));
        }
    }
    pieces
}

#[test]
fn matchsticks() {
    let mut drawn = Vec::new();
    for turn in 0..8 {
        let mut pieces = tile_backs_7_by_5();
        for rank in 1..=6 {
            pieces.push(p(
                "matchstick_face",
                f64::from(rank),
                f64::from(2 * rank - 1),
                1,
                rank,
                45.0 * f64::from(turn),
                "piecepack",
            ));
        }
        drawn.push(as_reference_draws(pieces));
    }
    let drawn = drawn.join("\n");
    let expected = reference("matchsticks");
    assert!(
        drawn == expected,
        "drawn\n{drawn}\n--- expected\n{expected}"
    );
    let mut pieces = tile_backs_7_by_5();
    for (i, angle) in [60.0, 120.0, 240.0, 300.0].into_iter().enumerate() {
        pieces.push(p(
            "matchstick_back",
            (i + 1) as f64,
            (2 * i + 1) as f64,
            1,
            5,
            angle,
            "piecepack",
        ));
    }
    check("matchsticks-60-degrees", pieces);
}

#[test]
fn chess_go_and_reversi_boards() {
    let mut chess = vec![p("board_face", 4.5, 4.5, 2, 1, 0.0, "chess1")];
    for i in 1..=6 {
        chess.push(p("bit_face", f64::from(i), 1.0, i, i, 0.0, "chess1"));
    }
    check("chess", chess);
    let mut go = vec![p("board_face", 10.0, 10.0, 2, 1, 0.0, "go")];
    for i in 1..=19 {
        go.push(p(
            "bit_back",
            f64::from(i),
            f64::from(i),
            i % 6 + 1,
            1,
            0.0,
            "go",
        ));
    }
    check("go", go);
    let mut reversi = vec![p("board_face", 4.5, 4.5, 2, 8, 0.0, "reversi")];
    for i in 1..=6 {
        reversi.push(p("bit_face", f64::from(i), 1.0, i, 1, 0.0, "reversi"));
    }
    for i in 1..=6 {
        reversi.push(p("bit_back", f64::from(i), 2.0, i, 1, 0.0, "reversi"));
    }
    check("reversi", reversi);
}

#[test]
fn stone_boards() {
    check(
        "marbles-board",
        vec![p("board_face", 2.0, 2.0, 4, 4, 0.0, "marbles")],
    );
    let alquerque = p("board_face", 3.0, 3.0, 3, 1, 0.0, "alquerque");
    check("alquerque-board", vec![alquerque]);
    let mut stones = vec![alquerque];
    for i in 1..=5 {
        stones.push(p(
            "bit_back",
            f64::from(i),
            f64::from(i),
            i,
            1,
            0.0,
            "alquerque",
        ));
    }
    check("alquerque-stones", stones);
    let cubes = (1..=6)
        .map(|i| p("bit_back", f64::from(i), 1.0, i, 1, 0.0, "cubes"))
        .collect();
    check("cubes", cubes);
}

#[test]
fn morris_boards() {
    let board = |men: i32, at: f64| p("board_face", at, at, 3, men, 0.0, "morris");
    check("morris-3-plain", vec![board(2, 2.0)]);
    check("morris-3", vec![board(3, 2.0)]);
    let mut stones = vec![board(3, 2.0)];
    for i in 0..6 {
        stones.push(p(
            "bit_back",
            f64::from(i % 3 + 1),
            f64::from(i / 3 + 1),
            i + 1,
            1,
            0.0,
            "morris",
        ));
    }
    check("morris-3-stones", stones);
    check("morris-6", vec![board(6, 3.0)]);
    check("morris-7", vec![board(7, 3.0)]);
    check("morris-9", vec![board(9, 4.0)]);
    check("morris-12", vec![board(12, 4.0)]);
}

fn scene(pieces: Vec<Piece>) -> Scene {
    Scene {
        pieces,
        ..Scene::default()
    }
}

#[test]
fn coordinates_legend_and_stacks() {
    let pieces = vec![
        p("tile_back", 1.5, 1.5, 1, 1, 0.0, "piecepack"),
        p("coin_back", 1.0, 1.0, 2, 2, 0.0, "piecepack"),
        p("pawn_face", 1.0, 1.0, 3, 1, 0.0, "piecepack"),
        p("die_face", 2.0, 2.0, 4, 2, 0.0, "piecepack"),
    ];
    let drawn = diagram(&scene(pieces), &with_reference_glyphs());
    let expected = [
        "  ┌─┰─┐",
        "2 │ ┃a⃞│",
        "  ┝━╋━┥",
        "1 │♛⃟┃ │",
        "  └─┸─┘",
        "   a b",
        "Stacks, bottom to top:",
        "  a1: ace of Moons coin, back up; Crowns pawn, face up",
        "Key: ☀ Suns, ☾ Moons, ♛ Crowns, ⸸ Arms; n null, a ace; x⃝ coin; x⃞ die; x⃟ pawn",
        "",
    ]
    .join("\n");
    assert_eq!(drawn, expected);
}

#[test]
fn ascii_draws_the_same_picture() {
    let mut pieces = vec![p("board_face", 2.0, 2.0, 2, 3, 0.0, "chess1")];
    pieces.push(p("bit_face", 1.0, 1.0, 6, 6, 0.0, "chess1"));
    pieces.push(p("bit_face", 3.0, 3.0, 2, 5, 0.0, "chess1"));
    let options = TextOptions {
        ascii: true,
        ..TextOptions::default()
    };
    let drawn = diagram(&scene(pieces), &options);
    assert_eq!(
        drawn,
        "  +-+-+-+\n3 | | |q|\n  +-+-+-+\n2 | | | |\n  +-+-+-+\n1 |K| | |\n  +-+-+-+\n   a b c\n"
    );
    assert!(drawn.is_ascii());
}

#[test]
fn ascii_tells_crowns_from_queens_and_coins_from_pawns() {
    let pieces = vec![
        p("tile_face", 1.5, 1.5, 3, 3, 0.0, "piecepack"),
        p("coin_back", 3.0, 1.0, 3, 1, 0.0, "piecepack"),
        p("pawn_face", 4.0, 1.0, 3, 1, 0.0, "piecepack"),
        p("bit_face", 5.0, 1.0, 2, 5, 0.0, "chess1"),
    ];
    let options = TextOptions {
        ascii: true,
        legend: false,
        ..TextOptions::default()
    };
    let drawn = diagram(&scene(pieces), &options);
    let lines: Vec<&str> = drawn.lines().collect();
    assert_eq!(lines[1], "2 |C  |");
    assert_eq!(lines[2], "  | 2 |");
    assert_eq!(lines[4], "  +---+");
    assert!(lines[3].ends_with("c C q"), "{drawn}");
}

#[test]
fn tafl_boards_mark_their_squares() {
    let mut pieces = vec![tafl_board(7)];
    pieces.push(tafl_man(TaflSide::Defenders, TaflMan::King, 4, 4));
    pieces.push(tafl_man(TaflSide::Defenders, TaflMan::Taflman, 4, 5));
    pieces.push(tafl_man(TaflSide::Attackers, TaflMan::Taflman, 4, 7));
    let squares = [(1, 1), (1, 7), (7, 1), (7, 7), (4, 4)]
        .into_iter()
        .map(|(x, y)| SquareMark {
            x: f64::from(x),
            y: f64::from(y),
            role: if x == 4 {
                SquareRole::Throne
            } else {
                SquareRole::Corner
            },
        })
        .collect();
    let scene = Scene {
        pieces,
        squares,
        ..Scene::default()
    };
    let drawn = diagram(&scene, &with_reference_glyphs());
    let lines: Vec<&str> = drawn.lines().collect();
    assert_eq!(lines[1], "7 │⊠┃ ┃ ┃●┃ ┃ ┃⊠│");
    assert_eq!(lines[5], "5 │ ┃ ┃ ┃○┃ ┃ ┃ │");
    assert_eq!(lines[7], "4 │ ┃ ┃ ┃♔┃ ┃ ┃ │");
    assert_eq!(lines[13], "1 │⊠┃ ┃ ┃ ┃ ┃ ┃⊠│");
    assert_eq!(lines[15], "   a b c d e f g");
    assert_eq!(
        lines[16],
        "Key: ● attackers, ○ defenders, ♔ king; ⊠ throne and corners"
    );
}

fn xiangqi_start() -> Vec<Piece> {
    use XiangqiPiece::*;
    let mut pieces = vec![xiangqi_board()];
    let back = [
        Chariot, Horse, Elephant, Advisor, General, Advisor, Elephant, Horse, Chariot,
    ];
    for (side, rank, cannons, soldiers) in
        [(XiangqiSide::Red, 0, 2, 3), (XiangqiSide::Black, 9, 7, 6)]
    {
        for (file, piece) in back.into_iter().enumerate() {
            pieces.push(xiangqi_piece(side, piece, file as u32, rank));
        }
        pieces.push(xiangqi_piece(side, Cannon, 1, cannons));
        pieces.push(xiangqi_piece(side, Cannon, 7, cannons));
        for file in [0, 2, 4, 6, 8] {
            pieces.push(xiangqi_piece(side, Soldier, file, soldiers));
        }
    }
    pieces
}

#[test]
fn xiangqi_points_river_and_palaces() {
    let scene = Scene {
        pieces: xiangqi_start(),
        annotations: vec![
            Annotation::Arrow {
                from: (2.0, 3.0),
                to: (5.0, 3.0),
            },
            Annotation::Marker {
                at: (5.0, 5.0),
                shape: MarkShape::Blank,
                color: MarkColor::Green,
            },
        ],
        ..Scene::default()
    };
    let drawn = diagram(&scene, &with_reference_glyphs());
    let expected = "\
9 r─h─e─a─k─a─e─h─r
  │ │ │ │╲│╱│ │ │ │
8 ├─┼─┼─┼─┼─┼─┼─┼─┤
  │ │ │ │╱│╲│ │ │ │
7 ├─c─┼─┼─┼─┼─┼─c─┤
  │ │ │ │ │ │ │ │ │
6 p─┼─p─┼─p─┼─p─┼─p
  │ │ │ │ │ │ │ │ │
5 ├─┴─┴─┴─┴─┴─┴─┴─┤
  │               │
4 ├─┬─┬─┬─◎─┬─┬─┬─┤
  │ │ │ │ │ │ │ │ │
3 P─┼─P─┼─P─┼─P─┼─P
  │ │ │ │ │ │ │ │ │
2 ├─C─┼─┼─┼─┼─┼─C─┤
  │ │ │ │╲│╱│ │ │ │
1 ├─┼─┼─┼─┼─┼─┼─┼─┤
  │ │ │ │╱│╲│ │ │ │
0 R─H─E─A─K─A─E─H─R
  a b c d e f g h i
Arrows: b2→e2
Markers: e4 (green)
Key: upper case Red, lower case Black: K general, A advisor, E elephant, H horse, R chariot, C cannon, P soldier; ◎ marked point
";
    assert_eq!(drawn, expected);
}

#[test]
fn oversized_and_empty_boards_are_listed() {
    assert_eq!(
        diagram(&Scene::default(), &TextOptions::default()),
        "(empty board)\n"
    );
    let far = scene(vec![
        p("coin_face", 1.0, 1.0, 1, 1, 0.0, "piecepack"),
        p("coin_face", 5000.0, 1.0, 1, 1, 0.0, "piecepack"),
    ]);
    let drawn = diagram(&far, &TextOptions::default());
    assert!(
        drawn.starts_with("The board is too large to draw"),
        "{drawn}"
    );
    assert!(drawn.contains("gjh1: null of Suns coin"), "{drawn}");
}
