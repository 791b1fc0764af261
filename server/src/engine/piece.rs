//! The board model shared by setups, move application and rendering.

use std::fmt;
use std::sync::Arc;

/// What kind of component a piece is (the part of `piece_side` before the underscore).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PieceKind {
    Tile,
    Coin,
    Die,
    Pawn,
    Matchstick,
    Saucer,
    Bit,
    Pyramid,
    Card,
    Board,
}

/// Which side of a piece faces up (the part of `piece_side` after the underscore).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    Face,
    Back,
    Left,
    Right,
    Top,
    Base,
}

impl PieceKind {
    pub const ALL: [PieceKind; 10] = [
        PieceKind::Tile,
        PieceKind::Coin,
        PieceKind::Die,
        PieceKind::Pawn,
        PieceKind::Matchstick,
        PieceKind::Saucer,
        PieceKind::Bit,
        PieceKind::Pyramid,
        PieceKind::Card,
        PieceKind::Board,
    ];

    pub fn name(self) -> &'static str {
        match self {
            PieceKind::Tile => "tile",
            PieceKind::Coin => "coin",
            PieceKind::Die => "die",
            PieceKind::Pawn => "pawn",
            PieceKind::Matchstick => "matchstick",
            PieceKind::Saucer => "saucer",
            PieceKind::Bit => "bit",
            PieceKind::Pyramid => "pyramid",
            PieceKind::Card => "card",
            PieceKind::Board => "board",
        }
    }

    pub fn from_name(name: &str) -> Option<PieceKind> {
        PieceKind::ALL.into_iter().find(|k| k.name() == name)
    }
}

impl Side {
    pub const ALL: [Side; 6] = [
        Side::Face,
        Side::Back,
        Side::Left,
        Side::Right,
        Side::Top,
        Side::Base,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Side::Face => "face",
            Side::Back => "back",
            Side::Left => "left",
            Side::Right => "right",
            Side::Top => "top",
            Side::Base => "base",
        }
    }

    pub fn from_name(name: &str) -> Option<Side> {
        Side::ALL.into_iter().find(|s| s.name() == name)
    }
}

/// A component configuration name such as `piecepack`, `chess2` or `dominoes_red`.
/// Shared, because every piece of a setup carries one and boards are cloned per move.
pub type Cfg = Arc<str>;

/// One piece on the board, with the reference's 1-based `suit` and `rank` integers
/// (for piecepack: suit 1..4 = Suns, Moons, Crowns, Arms; rank 1 = null, 2 = ace).
#[derive(Clone, Debug, PartialEq)]
pub struct Piece {
    pub kind: PieceKind,
    pub side: Side,
    pub suit: i32,
    pub rank: i32,
    pub cfg: Cfg,
    pub x: f64,
    pub y: f64,
    /// Degrees counter-clockwise.
    pub angle: f64,
}

impl Piece {
    /// The reference's `piece_side` string, e.g. `tile_back`.
    pub fn piece_side(&self) -> String {
        format!("{}_{}", self.kind.name(), self.side.name())
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} suit {} rank {} ({}) at ({}, {}) angle {}",
            self.piece_side(),
            self.suit,
            self.rank,
            self.cfg,
            self.x,
            self.y,
            self.angle
        )
    }
}

/// Parse a `piece_side` string such as `coin_face` into its two halves.
pub fn parse_piece_side(text: &str) -> Option<(PieceKind, Side)> {
    let (kind, side) = text.split_once('_')?;
    Some((PieceKind::from_name(kind)?, Side::from_name(side)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn piece_side_round_trips() {
        for kind in PieceKind::ALL {
            for side in Side::ALL {
                let text = format!("{}_{}", kind.name(), side.name());
                assert_eq!(parse_piece_side(&text), Some((kind, side)));
            }
        }
        assert_eq!(parse_piece_side("tile"), None);
        assert_eq!(parse_piece_side("cube_face"), None);
    }
}
