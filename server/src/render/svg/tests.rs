//! Pictures parsed back: valid SVG (usvg reads it), every piece drawn where it lies and as
//! what it is, options that do what they say, and pixels that are not blank.

use super::*;
use crate::model::games::{
    tafl_board, tafl_man, xiangqi_board, xiangqi_piece, TaflMan, TaflSide, XiangqiPiece,
    XiangqiSide,
};
use crate::model::piece::{Cfg, Piece, PieceKind, Side};
use crate::model::scene::{Annotation, MarkColor, MarkShape, SquareMark, SquareRole};
use crate::render::raster;
use resvg::usvg;

fn piece(kind: PieceKind, side: Side, suit: i32, rank: i32, cfg: &str, x: f64, y: f64) -> Piece {
    Piece {
        kind,
        side,
        suit,
        rank,
        cfg: Cfg::new(cfg),
        x,
        y,
        angle: 0.0,
    }
}

/// A chess board with its men on their starting squares.
fn chess_start() -> Scene {
    let mut pieces = vec![piece(
        PieceKind::Board,
        Side::Face,
        3,
        8,
        "chess1",
        4.5,
        4.5,
    )];
    let back = [4, 2, 3, 5, 6, 3, 2, 4];
    for (suit, home, pawns) in [(6, 1.0, 2.0), (2, 8.0, 7.0)] {
        for (file, rank) in back.iter().enumerate() {
            let x = file as f64 + 1.0;
            pieces.push(piece(
                PieceKind::Bit,
                Side::Face,
                suit,
                *rank,
                "chess1",
                x,
                home,
            ));
            pieces.push(piece(
                PieceKind::Bit,
                Side::Face,
                suit,
                1,
                "chess1",
                x,
                pawns,
            ));
        }
    }
    Scene {
        pieces,
        ..Scene::default()
    }
}

fn tree(svg: &str) -> usvg::Tree {
    usvg::Tree::from_str(svg, &usvg::Options::default()).expect("valid SVG")
}

/// The centre of the drawing of piece `index`, in pixels.
fn centre_of(tree: &usvg::Tree, index: usize) -> (f64, f64) {
    let node = tree
        .node_by_id(&format!("piece-{index}"))
        .unwrap_or_else(|| panic!("piece-{index} is drawn"));
    let bounds = node.abs_bounding_box();
    (
        f64::from(bounds.x() + bounds.width() / 2.0),
        f64::from(bounds.y() + bounds.height() / 2.0),
    )
}

/// What `<g id="piece-N">` says it draws: its class and its title.
fn described(svg: &str) -> Vec<(String, String, String)> {
    let document = roxmltree::Document::parse(svg).expect("well-formed XML");
    document
        .descendants()
        .filter(|node| {
            node.attribute("id")
                .is_some_and(|id| id.starts_with("piece-"))
        })
        .map(|node| {
            let title = node
                .children()
                .find(|child| child.has_tag_name("title"))
                .and_then(|title| title.text())
                .unwrap_or_default()
                .to_string();
            (
                node.attribute("id").unwrap_or_default().to_string(),
                node.attribute("class").unwrap_or_default().to_string(),
                title,
            )
        })
        .collect()
}

fn glyphs_used(svg: &str, id: &str) -> Vec<String> {
    let document = roxmltree::Document::parse(svg).expect("well-formed XML");
    let group = document
        .descendants()
        .find(|node| node.attribute("id") == Some(id))
        .unwrap_or_else(|| panic!("{id} is drawn"));
    group
        .descendants()
        .filter_map(|node| node.attribute("href"))
        .map(str::to_string)
        .collect()
}

#[test]
fn every_chess_man_is_drawn_on_its_square() {
    let scene = chess_start();
    let svg = svg(&scene, &SvgOptions::default());
    let tree = tree(&svg);
    // 8 × 8 squares plus half a square of margin each side, 48 pixels a square.
    assert_eq!((tree.size().width(), tree.size().height()), (432.0, 432.0));
    for (index, man) in scene.pieces.iter().enumerate().skip(1) {
        let (x, y) = centre_of(&tree, index);
        let expected = ((man.x + 0.0) * 48.0, (9.0 - man.y) * 48.0);
        assert!(
            (x - expected.0).abs() < 10.0 && (y - expected.1).abs() < 10.0,
            "{man}: drawn at ({x}, {y}), expected {expected:?}"
        );
    }
    let pieces = described(&svg);
    assert_eq!(pieces.len(), 33);
    assert_eq!(pieces[0].1, "piece board face");
    assert!(pieces[1..]
        .iter()
        .all(|(_, class, _)| class == "piece bit face"));
    assert_eq!(pieces[1].2, "White rook, face up");
    // The white king on e1 is the solid king glyph filled white, outlined by the hollow one.
    let king = scene
        .pieces
        .iter()
        .position(|p| p.rank == 6 && p.suit == 6)
        .unwrap();
    assert_eq!(
        glyphs_used(&svg, &format!("piece-{king}")),
        ["#g265a", "#g2654"]
    );
    let black_queen = scene
        .pieces
        .iter()
        .position(|p| p.rank == 5 && p.suit == 2)
        .unwrap();
    assert_eq!(
        glyphs_used(&svg, &format!("piece-{black_queen}")),
        ["#g265b"]
    );
}

#[test]
fn flipped_pictures_show_the_board_from_the_other_side() {
    let scene = chess_start();
    let options = SvgOptions {
        flip: true,
        ..SvgOptions::default()
    };
    let tree = tree(&svg(&scene, &options));
    let a1 = scene
        .pieces
        .iter()
        .position(|p| p.x == 1.0 && p.y == 1.0)
        .unwrap();
    let (x, y) = centre_of(&tree, a1);
    assert!(
        (x - 8.0 * 48.0).abs() < 10.0 && (y - 48.0).abs() < 10.0,
        "a1 at ({x}, {y})"
    );
}

#[test]
fn size_sets_the_width() {
    let options = SvgOptions {
        width: Some(900),
        ..SvgOptions::default()
    };
    let tree = tree(&svg(&chess_start(), &options));
    assert_eq!((tree.size().width(), tree.size().height()), (900.0, 900.0));
}

#[test]
fn changes_are_outlined_only_when_asked() {
    let mut scene = chess_start();
    scene.highlighted = vec![5];
    scene.vacated = vec![(5.0, 2.0)];
    let shown = svg(&scene, &SvgOptions::default());
    assert_eq!(shown.matches("class=\"changed\"").count(), 1);
    assert_eq!(shown.matches("class=\"vacated\"").count(), 1);
    let hidden = svg(
        &scene,
        &SvgOptions {
            changes: false,
            ..SvgOptions::default()
        },
    );
    assert!(!hidden.contains("class=\"changed\"") && !hidden.contains("class=\"vacated\""));
    tree(&shown);
}

#[test]
fn coordinates_name_files_and_ranks() {
    let svg = svg(&chess_start(), &SvgOptions::default());
    // Letters a–h and digits 1–8 drawn from the bundled font.
    for c in ['a', 'h', '1', '8'] {
        assert!(svg.contains(&format!("id=\"g{:x}\"", u32::from(c))), "{c}");
    }
    let bare = crate::render::svg::svg(
        &chess_start(),
        &SvgOptions {
            coordinates: false,
            ..SvgOptions::default()
        },
    );
    assert!(!bare.contains(&format!("id=\"g{:x}\"", u32::from('h'))));
}

#[test]
fn tafl_boards_show_throne_corners_and_men() {
    let mut pieces = vec![tafl_board(9)];
    pieces.push(tafl_man(TaflSide::Defenders, TaflMan::King, 5, 5));
    pieces.push(tafl_man(TaflSide::Attackers, TaflMan::Taflman, 5, 9));
    let squares: Vec<SquareMark> = [
        (1, 1, SquareRole::Corner),
        (9, 9, SquareRole::Corner),
        (5, 5, SquareRole::Throne),
    ]
    .into_iter()
    .map(|(x, y, role)| SquareMark {
        x: f64::from(x),
        y: f64::from(y),
        role,
    })
    .collect();
    let scene = Scene {
        pieces,
        squares,
        ..Scene::default()
    };
    let svg = svg(&scene, &SvgOptions::default());
    assert_eq!(svg.matches("class=\"square Corner\"").count(), 2);
    assert_eq!(svg.matches("class=\"square Throne\"").count(), 1);
    assert_eq!(glyphs_used(&svg, "piece-1"), ["#g265a"]);
    let tree = tree(&svg);
    let (x, y) = centre_of(&tree, 2);
    assert!(
        (x - 5.0 * 48.0).abs() < 10.0 && (y - 48.0).abs() < 10.0,
        "e9 at ({x}, {y})"
    );
}

#[test]
fn xiangqi_pieces_carry_their_characters_and_annotations_are_drawn() {
    let scene = Scene {
        pieces: vec![
            xiangqi_board(),
            xiangqi_piece(XiangqiSide::Red, XiangqiPiece::General, 4, 0),
            xiangqi_piece(XiangqiSide::Black, XiangqiPiece::Soldier, 4, 6),
        ],
        annotations: vec![
            Annotation::Arrow {
                from: (5.0, 1.0),
                to: (5.0, 2.0),
            },
            Annotation::Marker {
                at: (5.0, 7.0),
                shape: MarkShape::Piece,
                color: MarkColor::Magenta,
            },
        ],
        ..Scene::default()
    };
    let svg = svg(&scene, &SvgOptions::default());
    assert_eq!(glyphs_used(&svg, "piece-1"), ["#g5e25"]);
    assert_eq!(glyphs_used(&svg, "piece-2"), ["#g5352"]);
    assert!(
        glyphs_used(&svg, "piece-0").contains(&"#g695a".to_string()),
        "楚 on the river"
    );
    assert_eq!(svg.matches("class=\"arrow\"").count(), 1);
    assert!(svg.contains("class=\"marker\"") && svg.contains("#d6269d"));
    let tree = tree(&svg);
    // Rank 0 is the bottom line: 10 ranks, a margin of half a point above and below, and
    // another half point to the picture's edge.
    let (_, y) = centre_of(&tree, 1);
    assert!((y - 10.0 * 48.0).abs() < 10.0, "the general at y = {y}");
}

#[test]
fn pngs_have_the_pictures_size_and_colours() {
    let svg = svg(&chess_start(), &SvgOptions::default());
    let pixmap = raster::pixels(&svg).unwrap();
    assert_eq!((pixmap.width(), pixmap.height()), (432, 432));
    // a3 is a dark square, b3 a light one.
    let dark = pixmap.pixel(48, 6 * 48).unwrap();
    assert_eq!((dark.red(), dark.green(), dark.blue()), (0x76, 0x96, 0x56));
    let light = pixmap.pixel(2 * 48, 6 * 48).unwrap();
    assert_eq!(
        (light.red(), light.green(), light.blue()),
        (0xee, 0xee, 0xd2)
    );
    // The black king on e8 is mostly black.
    let dark_ink = (4 * 48 - 15..4 * 48 + 15)
        .flat_map(|x| (48 - 15..48 + 15).map(move |y| (x, y)))
        .filter(|&(x, y)| {
            pixmap
                .pixel(x, y)
                .is_some_and(|p| p.red() < 60 && p.green() < 60)
        })
        .count();
    assert!(dark_ink > 200, "{dark_ink} dark pixels on e8");
}

#[test]
fn animations_play_every_frame_in_one_frame() {
    let start = chess_start();
    let mut moved = chess_start();
    moved.pieces[10].y = 4.0;
    moved.highlighted = vec![10];
    let frames = [
        Frame {
            scene: &start,
            caption: Some("start".to_string()),
        },
        Frame {
            scene: &moved,
            caption: Some("1. e4".to_string()),
        },
    ];
    let svg = animation(&frames, &SvgOptions::default(), 0.5);
    assert_eq!(svg.matches("<animate ").count(), 2);
    assert!(svg.contains("dur=\"1s\""));
    assert!(svg.contains("id=\"frame-1\" visibility=\"hidden\""));
    let tree = tree(&svg);
    let stills: Vec<String> = still_frames(&frames, &SvgOptions::default()).collect();
    assert_eq!(stills.len(), 2);
    let sizes: Vec<_> = stills
        .iter()
        .map(|still| {
            let size = crate::render::svg::tests::tree(still).size();
            (size.width(), size.height())
        })
        .collect();
    assert_eq!(sizes[0], sizes[1]);
    assert_eq!(sizes[0], (tree.size().width(), tree.size().height()));
}

/// How many pixels of a picture are within `tolerance` of `colour` in every channel.
fn pixels_of(svg: &str, colour: (u8, u8, u8), tolerance: u8) -> usize {
    let pixmap = raster::pixels(svg).expect("a valid picture");
    pixmap
        .pixels()
        .iter()
        .filter(|p| {
            let p = p.demultiply();
            p.alpha() > 200
                && p.red().abs_diff(colour.0) <= tolerance
                && p.green().abs_diff(colour.1) <= tolerance
                && p.blue().abs_diff(colour.2) <= tolerance
        })
        .count()
}

#[test]
fn the_rings_of_emptied_cells_are_drawn_over_the_pieces() {
    // A capture on tiles (Tablut played with a piecepack): the emptied cell is on a tile,
    // with men all around it.
    let mut pieces = vec![piece(
        PieceKind::Tile,
        Side::Back,
        1,
        1,
        "piecepack",
        1.5,
        1.5,
    )];
    for (x, y) in [(1.0, 2.0), (2.0, 1.0), (2.0, 2.0)] {
        pieces.push(piece(PieceKind::Coin, Side::Face, 1, 3, "piecepack", x, y));
    }
    let scene = Scene {
        pieces,
        vacated: vec![(1.0, 1.0)],
        ..Scene::default()
    };
    let svg = svg(&scene, &SvgOptions::default());
    let ring = svg.find("class=\"vacated\"").expect("a ring");
    let last_piece = svg.rfind("id=\"piece-").expect("pieces");
    assert!(ring > last_piece, "the ring is drawn before a piece");
    // And it shows: its colour is in the picture.
    assert!(pixels_of(&svg, (0xf5, 0xa3, 0x00), 8) > 50);
}

#[test]
fn a_pawn_is_drawn_whole_and_leaves_the_face_of_the_die_it_stands_on() {
    let pawn = piece(PieceKind::Pawn, Side::Face, 1, 1, "piecepack", 1.0, 1.0);
    let alone = Scene {
        pieces: vec![pawn],
        ..Scene::default()
    };
    let svg_alone = svg(&alone, &SvgOptions::default());
    let pixmap = raster::pixels(&svg_alone).unwrap();
    let (x, y) = centre_of(&tree(&svg_alone), 0);
    // The head, 0.22 units above the middle (48 pixels a unit), is filled.
    let head = pixmap
        .pixel(x.round() as u32, (y - 0.22 * 48.0).round() as u32)
        .unwrap()
        .demultiply();
    assert_eq!((head.red(), head.green(), head.blue()), (0xd5, 0x5e, 0x00));
    // On a die, the pawn stands clear of the die's face (its middle, 0.2 × 0.28 units).
    let die = piece(PieceKind::Die, Side::Face, 1, 4, "piecepack", 1.0, 1.0);
    let stacked = Scene {
        pieces: vec![die, pawn],
        ..Scene::default()
    };
    let tree = tree(&svg(&stacked, &SvgOptions::default()));
    let (die_x, die_y) = centre_of(&tree, 0);
    let pawn_box = tree.node_by_id("piece-1").unwrap().abs_bounding_box();
    let (face_w, face_h) = (0.1 * 48.0, 0.14 * 48.0);
    let clear = f64::from(pawn_box.left()) > die_x + face_w
        || f64::from(pawn_box.right()) < die_x - face_w
        || f64::from(pawn_box.top()) > die_y + face_h
        || f64::from(pawn_box.bottom()) < die_y - face_h;
    assert!(
        clear,
        "the pawn {pawn_box:?} covers the face at ({die_x}, {die_y})"
    );
}

#[test]
fn no_man_by_the_river_covers_its_words() {
    let board = Scene {
        pieces: vec![xiangqi_board()],
        ..Scene::default()
    };
    let mut crowded = board.clone();
    for file in 0..9 {
        crowded.pieces.push(xiangqi_piece(
            XiangqiSide::Red,
            XiangqiPiece::Soldier,
            file,
            4,
        ));
        crowded.pieces.push(xiangqi_piece(
            XiangqiSide::Black,
            XiangqiPiece::Soldier,
            file,
            5,
        ));
    }
    let river = (0x8a, 0x5a, 0x2b);
    let bare = pixels_of(&svg(&board, &SvgOptions::default()), river, 4);
    let shown = pixels_of(&svg(&crowded, &SvgOptions::default()), river, 4);
    assert!(bare > 150, "{bare} pixels of the river's words");
    assert!(
        shown * 50 >= bare * 49,
        "{shown} of {bare} pixels of the river's words show"
    );
}

#[test]
fn the_moons_on_a_coin_read_as_boldly_as_the_other_suits() {
    // The ink of each suit on a coin's back, in its colour (the Moons are black), in a
    // picture 480 pixels wide.
    let ink = |suit: i32, colour: (u8, u8, u8)| {
        let coin = piece(PieceKind::Coin, Side::Back, suit, 1, "piecepack", 1.0, 1.0);
        let scene = Scene {
            pieces: vec![coin],
            ..Scene::default()
        };
        let options = SvgOptions {
            width: Some(480),
            ..SvgOptions::default()
        };
        pixels_of(&svg(&scene, &options), colour, 40)
    };
    let moons = ink(2, (0, 0, 0));
    let crowns = ink(3, (0x00, 0x9e, 0x73));
    let arms = ink(4, (0x00, 0x72, 0xb2));
    assert!(
        crowns.min(arms) > 1000,
        "Crowns {crowns} pixels, Arms {arms}"
    );
    assert!(
        moons * 10 >= crowns.min(arms) * 7,
        "Moons {moons} pixels, Crowns {crowns}, Arms {arms}"
    );
}

#[test]
fn every_kind_of_piece_draws_valid_svg() {
    let mut pieces = Vec::new();
    let mut x = 1.0;
    for kind in PieceKind::ALL {
        for side in [Side::Face, Side::Back, Side::Top] {
            for cfg in [
                "piecepack",
                "dice",
                "dominoes_red",
                "playing_cards",
                "go",
                "reversi",
                "checkers2",
                "icehouse_pieces",
                "hexpack",
                "nonsense",
            ] {
                if kind != PieceKind::Board {
                    pieces.push(Piece {
                        angle: x * 45.0,
                        ..piece(kind, side, 3, 4, cfg, x, 2.0)
                    });
                    x += 3.0;
                }
            }
        }
    }
    pieces.push(piece(
        PieceKind::Bit,
        Side::Face,
        9,
        99,
        "chess1",
        f64::NAN,
        1.0,
    ));
    let scene = Scene {
        pieces,
        ..Scene::default()
    };
    let svg = svg(&scene, &SvgOptions::default());
    let tree = tree(&svg);
    assert!(tree.size().width() <= MAX_PIXELS as f32);
    assert_eq!(described(&svg).len(), scene.pieces.len() - 1);
}

/// With `PPN_RENDER_SAMPLES=DIR`, writes PNGs of the tafl and xiangqi scenes to DIR, to
/// look at them (the notations that read those files make the same scenes).
#[test]
fn sample_pictures_for_people() {
    let Some(dir) = std::env::var_os("PPN_RENDER_SAMPLES") else {
        return;
    };
    let dir = std::path::PathBuf::from(dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut tafl = vec![tafl_board(9)];
    let attackers = [
        (4, 1),
        (5, 1),
        (6, 1),
        (5, 2),
        (4, 9),
        (5, 9),
        (6, 9),
        (5, 8),
        (1, 4),
        (1, 5),
        (1, 6),
        (2, 5),
        (9, 4),
        (9, 5),
        (9, 6),
        (8, 5),
    ];
    for (x, y) in attackers {
        tafl.push(tafl_man(TaflSide::Attackers, TaflMan::Taflman, x, y));
    }
    for (x, y) in [
        (5, 3),
        (5, 4),
        (5, 6),
        (5, 7),
        (3, 5),
        (4, 5),
        (6, 5),
        (7, 5),
    ] {
        tafl.push(tafl_man(TaflSide::Defenders, TaflMan::Taflman, x, y));
    }
    tafl.push(tafl_man(TaflSide::Defenders, TaflMan::King, 5, 5));
    let squares = [
        (1, 1, SquareRole::Corner),
        (1, 9, SquareRole::Corner),
        (9, 1, SquareRole::Corner),
        (9, 9, SquareRole::Corner),
        (5, 5, SquareRole::Throne),
    ]
    .into_iter()
    .map(|(x, y, role)| SquareMark {
        x: f64::from(x),
        y: f64::from(y),
        role,
    })
    .collect();
    let tafl = Scene {
        pieces: tafl,
        squares,
        highlighted: vec![3],
        vacated: vec![(3.0, 1.0)],
        ..Scene::default()
    };
    let mut xiangqi = vec![xiangqi_board()];
    use XiangqiPiece::*;
    let back = [
        Chariot, Horse, Elephant, Advisor, General, Advisor, Elephant, Horse, Chariot,
    ];
    for (side, rank, cannons, soldiers) in
        [(XiangqiSide::Red, 0, 2, 3), (XiangqiSide::Black, 9, 7, 6)]
    {
        for (file, piece) in back.into_iter().enumerate() {
            xiangqi.push(xiangqi_piece(side, piece, file as u32, rank));
        }
        xiangqi.push(xiangqi_piece(side, Cannon, 1, cannons));
        xiangqi.push(xiangqi_piece(side, Cannon, 7, cannons));
        for file in [0, 2, 4, 6, 8] {
            xiangqi.push(xiangqi_piece(side, Soldier, file, soldiers));
        }
    }
    let xiangqi = Scene {
        pieces: xiangqi,
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
            Annotation::Marker {
                at: (1.0, 4.0),
                shape: MarkShape::Piece,
                color: MarkColor::Blue,
            },
        ],
        ..Scene::default()
    };
    for (name, scene) in [
        ("tafl", &tafl),
        ("xiangqi", &xiangqi),
        ("chess", &chess_start()),
    ] {
        let png = raster::png(&svg(scene, &SvgOptions::default())).unwrap();
        std::fs::write(dir.join(format!("{name}.png")), png).unwrap();
    }
}
