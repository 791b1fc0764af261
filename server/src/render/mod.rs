//! Pictures of a board, drawn from a [`Scene`] alone so that every notation and every tool
//! shows the same board: text diagrams ([`text`]), SVG ([`svg`]), PNG and GIF
//! ([`raster`]) and animated SVG ([`svg::animation`]).
//!
//! Coordinates are the scene's (PPN's): x to the right, y upwards, one unit per cell.
//! What each component looks like (its footprint, its colours, the names of its suits and
//! ranks) is decided here once and shared by every renderer.

pub mod font;
pub mod piece_json;
pub mod raster;
pub mod sanitized;
pub mod svg;
pub mod text;
pub mod words;

use crate::model::piece::{Piece, PieceKind};
use crate::model::scene::Scene;

/// The family of a configuration: it decides how suits and ranks are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// Piecepack suits (Suns, Moons, Crowns, Arms) and ranks (null, ace, 2–5).
    Piecepack,
    /// A piecepack with French suits (♥ ♠ ♣ ♦), solid or hollow.
    FrenchPiecepack {
        hollow: bool,
    },
    PlayingCards,
    Chess,
    Checkers,
    Go,
    /// Stones on points: alquerque, morris, marbles.
    Stones,
    Reversi,
    Dice,
    DiceFudge,
    DiceNumeral,
    Dominoes,
    Icehouse,
    Tafl,
    Xiangqi,
    Other,
}

pub fn family(cfg: &str) -> Family {
    match cfg {
        "piecepack" | "subpack" | "hexpack" | "piecepack_inverted" => Family::Piecepack,
        "playing_cards_expansion" => Family::FrenchPiecepack { hollow: false },
        "dual_piecepacks_expansion" => Family::FrenchPiecepack { hollow: true },
        "playing_cards" | "playing_cards_colored" | "playing_cards_tarot" => Family::PlayingCards,
        "chess1" | "chess2" => Family::Chess,
        "checkers1" | "checkers2" => Family::Checkers,
        "go" => Family::Go,
        "alquerque" | "morris" | "marbles" | "cubes" => Family::Stones,
        "reversi" => Family::Reversi,
        "dice"
        | "dice_d4"
        | "dice_d8"
        | "dice_d10"
        | "dice_d10_percentile"
        | "dice_d12"
        | "dice_d20" => Family::Dice,
        "dice_fudge" => Family::DiceFudge,
        "dice_numeral" => Family::DiceNumeral,
        "icehouse_pieces" => Family::Icehouse,
        "tafl" => Family::Tafl,
        "xiangqi" => Family::Xiangqi,
        _ if cfg.starts_with("dominoes") => Family::Dominoes,
        _ => Family::Other,
    }
}

/// The reference's suit colours (suits 1–8): red, black, green, blue, yellow, white, cyan,
/// magenta; as drawn in pictures.
pub const SUIT_COLORS: [&str; 8] = [
    "#d55e00", "#000000", "#009e73", "#0072b2", "#e69f00", "#ffffff", "#56b4e9", "#cc79a7",
];

/// The colour of suit `suit` (1-based); grey for a suit the reference does not colour.
pub fn suit_color(suit: i32) -> &'static str {
    usize::try_from(suit.saturating_sub(1))
        .ok()
        .and_then(|i| SUIT_COLORS.get(i).copied())
        .unwrap_or("#888888")
}

/// Whether a piece of this suit is the light one of its game (white stones, white chess
/// men, tafl defenders, light checkers).
pub fn is_light(piece: &Piece) -> bool {
    match family(&piece.cfg) {
        Family::Tafl => piece.suit == 2,
        Family::Xiangqi => false,
        _ => piece.suit == 6,
    }
}

/// The number of cells (or, for go, lines) a board has on a side, as the reference reads a
/// board's rank: chess and checkers boards of rank 1 are 8 × 8, go boards of rank 1 have 19
/// lines, alquerque boards always have 4 cells, morris boards are named by their men.
pub fn board_cells(piece: &Piece) -> i32 {
    let rank = piece.rank.clamp(1, 64);
    match &*piece.cfg {
        "go" => {
            if rank == 1 {
                18
            } else {
                rank - 1
            }
        }
        "marbles" if rank == 1 => 4,
        "alquerque" => 4,
        "morris" if rank == 1 => 9,
        "xiangqi" => 9,
        cfg if rank == 1 && (cfg.ends_with('1') || cfg.ends_with('2')) => 8,
        _ => rank,
    }
}

/// How wide one cell of a board is, in units: configurations ending in `2` have 2-unit cells.
pub fn board_cell_width(piece: &Piece) -> f64 {
    if piece.cfg.ends_with('2') {
        2.0
    } else {
        1.0
    }
}

/// The rectangle a piece covers, in scene units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Extent {
    pub xmin: f64,
    pub xmax: f64,
    pub ymin: f64,
    pub ymax: f64,
}

impl Extent {
    pub fn around(x: f64, y: f64, half_width: f64, half_height: f64) -> Extent {
        Extent {
            xmin: x - half_width,
            xmax: x + half_width,
            ymin: y - half_height,
            ymax: y + half_height,
        }
    }

    pub fn union(self, other: Extent) -> Extent {
        Extent {
            xmin: self.xmin.min(other.xmin),
            xmax: self.xmax.max(other.xmax),
            ymin: self.ymin.min(other.ymin),
            ymax: self.ymax.max(other.ymax),
        }
    }

    pub fn width(&self) -> f64 {
        self.xmax - self.xmin
    }

    pub fn height(&self) -> f64 {
        self.ymax - self.ymin
    }
}

/// Whether a quarter turn lies a domino or a card on its side.
fn is_sideways(angle: f64) -> bool {
    let quarter = (angle.rem_euclid(360.0) / 90.0).round() as i64;
    quarter % 2 == 1
}

/// The area a piece covers, as the reference's text diagrams reckon it.
pub fn extent(piece: &Piece) -> Extent {
    let (x, y) = (piece.x, piece.y);
    let cfg = &*piece.cfg;
    match piece.kind {
        PieceKind::Board => {
            if cfg == "morris" {
                let half = match board_cells(piece) {
                    2..=4 => 1.0,
                    5..=6 => 2.0,
                    _ => 3.0,
                };
                return Extent::around(x, y, half, half);
            }
            if cfg == "xiangqi" {
                return Extent::around(x, y, 4.5, 5.0);
            }
            let half = f64::from(board_cells(piece)) * board_cell_width(piece) / 2.0;
            Extent::around(x, y, half, half)
        }
        PieceKind::Tile => {
            if cfg == "subpack" {
                Extent::around(x, y, 0.5, 0.5)
            } else if family(cfg) == Family::Dominoes {
                if is_sideways(piece.angle) {
                    Extent::around(x, y, 1.0, 0.5)
                } else {
                    Extent::around(x, y, 0.5, 1.0)
                }
            } else {
                Extent::around(x, y, 1.0, 1.0)
            }
        }
        PieceKind::Card => {
            if is_sideways(piece.angle) {
                Extent::around(x, y, 1.5, 1.0)
            } else {
                Extent::around(x, y, 1.0, 1.5)
            }
        }
        PieceKind::Matchstick => {
            let half = matchstick_length(piece.rank) / 2.0;
            let angle = piece.angle.to_radians();
            let (dx, dy) = (half * angle.sin().abs(), half * angle.cos().abs());
            Extent::around(x, y, dx.max(0.5), dy.max(0.5))
        }
        _ => Extent::around(x, y, 0.5, 0.5),
    }
}

/// The length of a matchstick of rank 1–6, in units.
pub fn matchstick_length(rank: i32) -> f64 {
    match rank {
        i32::MIN..=1 => 0.25,
        2 => 0.5,
        3 => 1.0,
        4 => 1.0,
        5 => 1.5,
        _ => 2.0,
    }
}

/// The area every piece of a scene covers; `None` for an empty scene.
pub fn scene_extent(scene: &Scene) -> Option<Extent> {
    scene
        .pieces
        .iter()
        .filter(|piece| piece.x.is_finite() && piece.y.is_finite())
        .map(extent)
        .reduce(Extent::union)
}

/// How the coordinates of a scene are named on its edges.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Axes {
    /// Files `a b c …` from x = 1, ranks `1 2 3 …` from y = 1 (PPN, chess, tafl).
    Algebraic,
    /// Files `a … i`, ranks `0 … 9` from y = 1 (xiangqi).
    Xiangqi,
}

pub fn axes(scene: &Scene) -> Axes {
    let xiangqi = scene
        .pieces
        .iter()
        .any(|piece| piece.kind == PieceKind::Board && &*piece.cfg == "xiangqi");
    if xiangqi {
        Axes::Xiangqi
    } else {
        Axes::Algebraic
    }
}

impl Axes {
    /// The name of column `x` (a whole number ≥ 1), if it has one.
    pub fn file(self, x: i64) -> Option<String> {
        crate::render::words::file_letters(x)
    }

    /// The name of row `y` (a whole number ≥ 1), if it has one.
    pub fn rank(self, y: i64) -> Option<String> {
        match self {
            Axes::Algebraic => (y >= 1).then(|| y.to_string()),
            Axes::Xiangqi => (y >= 1).then(|| (y - 1).to_string()),
        }
    }
}

/// The scene of a bare list of pieces: nothing highlighted.
pub fn scene_of_pieces(pieces: &[Piece]) -> Scene {
    Scene {
        pieces: pieces.to_vec(),
        ..Scene::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::piece::{Cfg, Side};

    fn board(cfg: &str, rank: i32, x: f64, y: f64) -> Piece {
        Piece {
            kind: PieceKind::Board,
            side: Side::Face,
            suit: 3,
            rank,
            cfg: Cfg::new(cfg),
            x,
            y,
            angle: 0.0,
        }
    }

    #[test]
    fn boards_cover_their_cells() {
        let chess = extent(&board("chess1", 8, 4.5, 4.5));
        assert_eq!((chess.xmin, chess.xmax), (0.5, 8.5));
        let go = extent(&board("go", 19, 10.0, 10.0));
        assert_eq!((go.xmin, go.xmax), (1.0, 19.0));
        let checkers2 = extent(&board("checkers2", 8, 8.0, 8.0));
        assert_eq!((checkers2.xmin, checkers2.xmax), (0.0, 16.0));
        let xiangqi = extent(&crate::model::games::xiangqi_board());
        assert_eq!((xiangqi.ymin, xiangqi.ymax), (0.5, 10.5));
    }

    #[test]
    fn hostile_numbers_are_drawn_or_listed() {
        let mut pieces = Vec::new();
        for kind in PieceKind::ALL {
            for cfg in [
                "piecepack",
                "dominoes",
                "chess1",
                "go",
                "tafl",
                "xiangqi",
                "morris",
            ] {
                pieces.push(Piece {
                    kind,
                    side: Side::Face,
                    suit: i32::MIN,
                    rank: i32::MAX,
                    cfg: Cfg::new(cfg),
                    x: 3.0,
                    y: 2.0,
                    angle: f64::NAN,
                });
            }
        }
        pieces.push(Piece {
            x: f64::INFINITY,
            ..pieces[0]
        });
        let scene = scene_of_pieces(&pieces);
        let drawn = text::diagram(&scene, &text::TextOptions::default());
        assert!(drawn.lines().count() > 3, "{drawn}");
        let picture = svg::svg(&scene, &svg::SvgOptions::default());
        assert!(
            !picture.contains("NaN") && !picture.contains("inf"),
            "{picture}"
        );
        let pixels = raster::pixels(&picture).expect("a valid picture");
        assert!(pixels.width() <= svg::MAX_PIXELS && pixels.height() <= svg::MAX_PIXELS);
        let far = scene_of_pieces(&[Piece {
            x: 1e300,
            y: -1e300,
            angle: 0.0,
            ..pieces[0]
        }]);
        assert!(raster::pixels(&svg::svg(&far, &svg::SvgOptions::default())).is_ok());
        let listed = text::diagram(&far, &text::TextOptions::default());
        assert!(
            listed.starts_with("The board is too large to draw"),
            "{listed}"
        );
    }

    #[test]
    fn xiangqi_ranks_start_at_zero() {
        let scene = scene_of_pieces(&[crate::model::games::xiangqi_board()]);
        assert_eq!(axes(&scene), Axes::Xiangqi);
        assert_eq!(Axes::Xiangqi.rank(1).as_deref(), Some("0"));
        assert_eq!(Axes::Algebraic.rank(1).as_deref(), Some("1"));
        assert_eq!(Axes::Algebraic.file(27).as_deref(), Some("aa"));
    }
}
