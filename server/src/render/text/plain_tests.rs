//! The plain style, checked against the font it is made for: every character it can write
//! is one DejaVu Sans Mono has (`dejavu_sans_mono.txt`, the font's code points by class,
//! written from the font by `scripts/dejavu-sans-mono-coverage.py`), none combines with the
//! one before it, and those of the drawing itself are one column wide (no East Asian wide
//! character, and no "ambiguous" one but box drawing, which the font draws one column
//! wide), so that its columns line up. Every kind of piece of every system is still told
//! apart.

use super::*;
use crate::model::games::{tafl_board, tafl_man, xiangqi_board, TaflSide};
use crate::model::piece::Cfg;
use crate::model::scene::{MarkColor, SquareMark};

const COVERAGE: &str = include_str!("dejavu_sans_mono.txt");

/// The font's ranges of code points, in order, each with its class.
fn coverage() -> &'static [(u32, u32, char)] {
    static RANGES: std::sync::OnceLock<Vec<(u32, u32, char)>> = std::sync::OnceLock::new();
    RANGES.get_or_init(|| {
        COVERAGE
            .lines()
            .filter(|line| !line.starts_with('#'))
            .map(|line| {
                let (range, class) = line.split_once(' ').expect("a range and a class");
                let (first, last) = range.split_once("..").unwrap_or((range, range));
                let hex = |text: &str| u32::from_str_radix(text, 16).expect("a code point");
                let class = class.chars().next().expect("a class");
                (hex(first), hex(last), class)
            })
            .collect()
    })
}

/// How DejaVu Sans Mono's list classes a character: `N` one column everywhere, `A`
/// ambiguous, `W` wide, `M` combining; `None` when the font lacks it.
fn font_class(c: char) -> Option<char> {
    let code = u32::from(c);
    let ranges = coverage();
    let after = ranges.partition_point(|&(first, _, _)| first <= code);
    let &(_, last, class) = ranges.get(after.checked_sub(1)?)?;
    (code <= last).then_some(class)
}

#[test]
fn the_list_is_read_as_the_font_has_it() {
    assert_eq!(font_class('a'), Some('N'));
    assert_eq!(font_class('♔'), Some('N'));
    assert_eq!(font_class('─'), Some('A'), "box drawing is ambiguous");
    assert_eq!(font_class('\u{0301}'), Some('M'));
    // What the reference style needs and the font lacks.
    for missing in ['\u{20dd}', '\u{20de}', '\u{20df}', '⸸', '⛀', '⠿'] {
        assert_eq!(font_class(missing), None, "{missing}");
    }
}

/// Characters of `text` outside the font or combining, and (for a drawing) any wide one or
/// ambiguous one other than box drawing.
fn strays(text: &str, drawing: bool) -> BTreeSet<char> {
    let written: BTreeSet<char> = text.chars().filter(|&c| c != '\n').collect();
    written
        .into_iter()
        .filter(|&c| match font_class(c) {
            None | Some('M') => true,
            Some('N') => false,
            Some('A') if is_box_drawing(c) => false,
            Some(_) => drawing,
        })
        .collect()
}

fn is_box_drawing(c: char) -> bool {
    ('\u{2500}'..='\u{257f}').contains(&c)
}

fn piece(kind: PieceKind, side: Side, suit: i32, rank: i32, angle: f64, cfg: &str) -> Piece {
    Piece {
        kind,
        side,
        suit,
        rank,
        cfg: Cfg::new(cfg),
        x: 0.0,
        y: 0.0,
        angle,
    }
}

/// One configuration of each way the diagrams tell configurations apart.
const CONFIGURATIONS: [&str; 25] = [
    "piecepack",
    "subpack",
    "hexpack",
    "playing_cards_expansion",
    "dual_piecepacks_expansion",
    "playing_cards",
    "chess1",
    "chess2",
    "checkers1",
    "go",
    "alquerque",
    "morris",
    "marbles",
    "cubes",
    "reversi",
    "dice",
    "dice_d20",
    "dice_fudge",
    "dice_numeral",
    "icehouse_pieces",
    "tafl",
    "xiangqi",
    "dominoes",
    "dominoes_red",
    "meeples",
];

fn sides(kind: PieceKind) -> Vec<Side> {
    if kind == PieceKind::Pyramid {
        Side::ALL.to_vec()
    } else {
        vec![Side::Face, Side::Back]
    }
}

/// Every piece of a configuration and kind, one side up: in every suit and rank the
/// diagrams read (and a few beyond) upright, and at every angle they draw in every rank
/// and in every suit.
fn every_variant(cfg: &str, kind: PieceKind, side: Side) -> Vec<Piece> {
    const SUITS: [i32; 9] = [0, 1, 2, 3, 4, 5, 6, 7, 9];
    const RANKS: [i32; 11] = [0, 1, 2, 3, 4, 5, 6, 7, 13, 14, 21];
    const ANGLES: [f64; 9] = [45.0, 60.0, 90.0, 120.0, 135.0, 180.0, 225.0, 270.0, 315.0];
    let mut pieces = Vec::new();
    for suit in SUITS {
        for rank in RANKS {
            pieces.push(piece(kind, side, suit, rank, 0.0, cfg));
        }
    }
    for angle in ANGLES {
        for rank in RANKS {
            pieces.push(piece(kind, side, 1, rank, angle, cfg));
        }
        for suit in SUITS {
            pieces.push(piece(kind, side, suit, 3, angle, cfg));
        }
    }
    pieces
}

#[test]
fn every_piece_is_drawn_with_characters_every_editor_shows_one_column_wide() {
    let drawing_only = TextOptions {
        legend: false,
        ..TextOptions::default()
    };
    for cfg in CONFIGURATIONS {
        for kind in PieceKind::ALL {
            if kind == PieceKind::Board {
                continue;
            }
            for side in sides(kind) {
                // One at a time, so that none hides another.
                for piece in every_variant(cfg, kind, side) {
                    let scene = Scene {
                        pieces: vec![piece],
                        ..Scene::default()
                    };
                    let drawn = diagram(&scene, &drawing_only);
                    let found = strays(&drawn, true);
                    assert!(found.is_empty(), "{piece:?}: {found:?} in\n{drawn}");
                }
            }
        }
    }
}

#[test]
fn every_board_is_drawn_with_characters_every_editor_shows_one_column_wide() {
    let mut boards = vec![tafl_board(7), xiangqi_board()];
    for cfg in CONFIGURATIONS {
        for rank in [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 19] {
            for side in [Side::Face, Side::Back] {
                boards.push(piece(PieceKind::Board, side, 2, rank, 0.0, cfg));
            }
        }
    }
    for board in boards {
        let scene = Scene {
            pieces: vec![board],
            ..Scene::default()
        };
        let drawn = diagram(&scene, &TextOptions::default());
        let found = strays(&drawn, true);
        assert!(found.is_empty(), "{board:?}: {found:?} in\n{drawn}");
    }
}

#[test]
fn marks_legends_and_lists_use_only_the_fonts_characters() {
    // The drawing's own marks: marked squares, an emptied cell, a marker, and lists under
    // the drawing (stacks, pyramid sizes, arrows).
    let mut pieces = vec![tafl_board(7)];
    pieces.push(tafl_man(TaflSide::Defenders, TaflMan::King, 4, 4));
    let stacked = |kind, suit| Piece {
        x: 2.0,
        y: 2.0,
        ..piece(kind, Side::Face, suit, 3, 90.0, "piecepack")
    };
    pieces.push(stacked(PieceKind::Coin, 1));
    pieces.push(stacked(PieceKind::Pawn, 2));
    pieces.push(Piece {
        x: 6.0,
        y: 6.0,
        ..piece(PieceKind::Pyramid, Side::Left, 3, 2, 0.0, "icehouse_pieces")
    });
    let scene = Scene {
        pieces,
        squares: vec![SquareMark {
            x: 1.0,
            y: 1.0,
            role: SquareRole::Corner,
        }],
        vacated: vec![(3.0, 3.0)],
        annotations: vec![
            Annotation::Arrow {
                from: (1.0, 2.0),
                to: (1.0, 5.0),
            },
            Annotation::Marker {
                at: (5.0, 5.0),
                shape: MarkShape::Blank,
                color: MarkColor::Green,
            },
        ],
        ..Scene::default()
    };
    let options = TextOptions {
        changes: true,
        ..TextOptions::default()
    };
    let drawn = diagram(&scene, &options);
    assert!(drawn.contains("Pyramid sizes: f6 2"), "{drawn}");
    let (drawing, lists) = drawn.split_at(drawn.find("Stacks").expect("a stack listed"));
    assert_eq!(strays(drawing, true), BTreeSet::new(), "{drawing}");
    // Words may hold ambiguous characters (`×`, `°`, `→`): they are not in a grid.
    assert_eq!(strays(lists, false), BTreeSet::new(), "{lists}");
    assert!(drawing.contains('⊚') && drawing.contains('✕'), "{drawing}");
    // Every line of every key.
    let every_item = [
        Legend::PiecepackSuits,
        Legend::PiecepackRanks,
        Legend::FrenchSuits,
        Legend::Coin,
        Legend::Die,
        Legend::Pawn,
        Legend::FrenchPawn,
        Legend::Saucer,
        Legend::CheckersKings,
        Legend::Pyramids,
        Legend::Tafl,
        Legend::TaflSquares,
        Legend::Xiangqi,
        Legend::Cards,
        Legend::Vacated,
        Legend::Markers,
    ];
    let key = legend_lines(&every_item.into_iter().collect(), Glyphs::Plain).join("\n");
    assert_eq!(strays(&key, false), BTreeSet::new(), "{key}");
}

#[test]
fn the_reference_style_keeps_its_glyphs() {
    let coin = piece(PieceKind::Coin, Side::Back, 4, 1, 0.0, "piecepack");
    let scene = Scene {
        pieces: vec![coin],
        ..Scene::default()
    };
    let reference = TextOptions {
        style: BoardStyle::Reference,
        ..TextOptions::default()
    };
    assert!(diagram(&scene, &reference).contains("⸸\u{20dd}"));
    assert!(diagram(&scene, &TextOptions::default()).contains('⚜'));
}

/// The one character a lone piece is drawn with.
fn glyph_of(piece: Piece) -> String {
    let scene = Scene {
        pieces: vec![piece],
        ..Scene::default()
    };
    let options = TextOptions {
        legend: false,
        coordinates: false,
        ..TextOptions::default()
    };
    diagram(&scene, &options).trim().to_string()
}

/// Asserts that no two of `named` are drawn alike.
fn all_differ(system: &str, named: Vec<(String, Piece)>) {
    let mut seen: BTreeMap<String, String> = BTreeMap::new();
    for (name, piece) in named {
        let glyph = glyph_of(piece);
        assert_eq!(glyph.chars().count(), 1, "{system}: {name} as {glyph:?}");
        if let Some(other) = seen.insert(glyph.clone(), name.clone()) {
            panic!("{system}: {name} and {other} are both drawn {glyph}");
        }
    }
}

#[test]
fn every_kind_of_piece_of_a_system_is_told_apart() {
    for cfg in [
        "piecepack",
        "playing_cards_expansion",
        "dual_piecepacks_expansion",
    ] {
        let mut named = Vec::new();
        for value in 1..=6 {
            named.push((
                format!("coin face {value}"),
                piece(PieceKind::Coin, Side::Face, 1, value, 0.0, cfg),
            ));
            named.push((
                format!("die {value}"),
                piece(PieceKind::Die, Side::Face, 1, value, 0.0, cfg),
            ));
        }
        for suit in 1..=4 {
            named.push((
                format!("coin back {suit}"),
                piece(PieceKind::Coin, Side::Back, suit, 1, 0.0, cfg),
            ));
            named.push((
                format!("pawn {suit}"),
                piece(PieceKind::Pawn, Side::Face, suit, 1, 0.0, cfg),
            ));
        }
        for (name, side) in [("saucer face", Side::Face), ("saucer back", Side::Back)] {
            named.push((
                name.to_string(),
                piece(PieceKind::Saucer, side, 1, 1, 0.0, cfg),
            ));
        }
        all_differ(cfg, named);
    }
    let both_colours = |cfg: &str, kinds: &[(&str, PieceKind, Side, i32)]| {
        let mut named = Vec::new();
        for &(name, kind, side, rank) in kinds {
            for suit in [2, 6] {
                named.push((
                    format!("{name} of suit {suit}"),
                    piece(kind, side, suit, rank, 0.0, cfg),
                ));
            }
        }
        all_differ(cfg, named);
    };
    let chess: Vec<(&str, PieceKind, Side, i32)> =
        ["pawn", "knight", "bishop", "rook", "queen", "king"]
            .into_iter()
            .zip(1..)
            .map(|(name, rank)| (name, PieceKind::Bit, Side::Face, rank))
            .collect();
    both_colours("chess1", &chess);
    both_colours(
        "checkers1",
        &[
            ("man", PieceKind::Bit, Side::Back, 1),
            ("king", PieceKind::Bit, Side::Face, 1),
        ],
    );
    both_colours("go", &[("stone", PieceKind::Bit, Side::Back, 1)]);
    both_colours("cubes", &[("cube", PieceKind::Bit, Side::Back, 1)]);
    both_colours(
        "icehouse_pieces",
        &[
            ("standing pyramid", PieceKind::Pyramid, Side::Top, 1),
            ("pyramid lying", PieceKind::Pyramid, Side::Face, 1),
        ],
    );
    let men = [
        TaflMan::Taflman,
        TaflMan::King,
        TaflMan::Commander,
        TaflMan::Knight,
        TaflMan::Guard,
        TaflMan::Mercenary,
    ];
    let mut tafl = Vec::new();
    for side in [TaflSide::Attackers, TaflSide::Defenders] {
        for man in men {
            tafl.push((format!("{side:?} {man:?}"), tafl_man(side, man, 1, 1)));
        }
    }
    all_differ("tafl", tafl);
    for cfg in ["dice", "dice_numeral"] {
        let faces = (1..=6)
            .map(|pips| {
                (
                    format!("{pips}"),
                    piece(PieceKind::Die, Side::Face, 1, pips, 0.0, cfg),
                )
            })
            .collect();
        all_differ(cfg, faces);
    }
    let fudge = [(1, "minus"), (2, "blank"), (3, "plus")]
        .into_iter()
        .map(|(rank, name)| {
            (
                name.to_string(),
                piece(PieceKind::Die, Side::Face, 1, rank, 0.0, "dice_fudge"),
            )
        })
        .collect();
    all_differ("dice_fudge", fudge);
    let pointing = [0.0, 90.0, 180.0, 270.0]
        .into_iter()
        .map(|angle| {
            (
                format!("pointing {angle}"),
                piece(
                    PieceKind::Pyramid,
                    Side::Face,
                    2,
                    1,
                    angle,
                    "icehouse_pieces",
                ),
            )
        })
        .collect();
    all_differ("lying pyramids", pointing);
}
