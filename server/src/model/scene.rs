//! A scene: everything a picture of one board shows. Every notation turns its states into
//! scenes, and every renderer (text diagrams, SVG, PNG, GIF, hover, the board panel)
//! draws scenes, so a board looks the same whichever file or tool it comes from.
//!
//! Coordinates are PPN's: `a1` is `(1, 1)`, x grows to the right (files), y upwards
//! (ranks). A tafl board of size N has its cells at `1..=N`; a xiangqi board has its
//! points at x `1..=9` (files a..i from Red's left) and y `1..=10` (ranks 0..9 from Red's
//! side, so rank r is y = r + 1).

use crate::model::piece::Piece;

/// The board after one move (or the starting board), ready to draw.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Scene {
    /// Every piece, bottom (earliest) first, boards included (a chess board is a
    /// `board_face` piece, a tafl board a `board_face` piece of configuration `tafl`).
    pub pieces: Vec<Piece>,
    /// Squares with a role on a grid drawn by a board piece (a tafl throne, corners, forts).
    pub squares: Vec<SquareMark>,
    /// Drawings on top of the board (xiangqi-setup's arrows and markers).
    pub annotations: Vec<Annotation>,
    /// Indices into `pieces` of the pieces to draw emphasised: those the move changed, or
    /// those a PieceId under the cursor names.
    pub highlighted: Vec<usize>,
    /// Cells the move emptied (a piece left or was captured), drawn as faint marks.
    pub vacated: Vec<(f64, f64)>,
}

/// What a marked square is for; a renderer draws each kind its own way.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SquareRole {
    /// A tafl throne (the centre square).
    Throne,
    /// A tafl corner square.
    Corner,
    /// A square of the attackers' starting area (their fort).
    AttackerFort,
    /// A square of the defenders' starting area.
    DefenderFort,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SquareMark {
    pub x: f64,
    pub y: f64,
    pub role: SquareRole,
}

/// The colours xiangqi-setup draws its markers in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MarkColor {
    Blue,
    Green,
    Magenta,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MarkShape {
    /// A marker around a point (xiangqi-setup's `b*` codes: drawn on an empty point).
    Blank,
    /// A marker on a piece (xiangqi-setup's `p*` codes: drawn around an occupied point).
    Piece,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Annotation {
    /// An arrow from one point to another.
    Arrow { from: (f64, f64), to: (f64, f64) },
    /// A coloured marker on a point.
    Marker {
        at: (f64, f64),
        shape: MarkShape,
        color: MarkColor,
    },
}
