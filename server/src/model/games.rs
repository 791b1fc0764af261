//! How tafl and xiangqi boards read from OTN and xiangqi-setup files become pieces, so that
//! every renderer draws them like PPN's own components. Each board is one `board_face`
//! piece at the centre of its grid, each man a `bit_face` piece on its cell or point.

use crate::model::piece::{Cfg, Piece, PieceKind, Side};

/// The men of tafl games, as OTN names them (its letter, upper case for defenders).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TaflMan {
    Taflman,
    King,
    Commander,
    Knight,
    Guard,
    Mercenary,
}

impl TaflMan {
    pub const ALL: [TaflMan; 6] = [
        TaflMan::Taflman,
        TaflMan::King,
        TaflMan::Commander,
        TaflMan::Knight,
        TaflMan::Guard,
        TaflMan::Mercenary,
    ];

    /// The piece's rank in the `tafl` configuration.
    pub fn rank(self) -> i32 {
        match self {
            TaflMan::Taflman => 1,
            TaflMan::King => 2,
            TaflMan::Commander => 3,
            TaflMan::Knight => 4,
            TaflMan::Guard => 5,
            TaflMan::Mercenary => 6,
        }
    }

    pub fn from_rank(rank: i32) -> Option<TaflMan> {
        TaflMan::ALL.into_iter().find(|man| man.rank() == rank)
    }

    /// OTN's letter for an attacker's man (a defender's is upper case).
    pub fn letter(self) -> char {
        match self {
            TaflMan::Taflman => 't',
            TaflMan::King => 'k',
            TaflMan::Commander => 'c',
            TaflMan::Knight => 'n',
            TaflMan::Guard => 'g',
            TaflMan::Mercenary => 'm',
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            TaflMan::Taflman => "taflman",
            TaflMan::King => "king",
            TaflMan::Commander => "commander",
            TaflMan::Knight => "knight",
            TaflMan::Guard => "guard",
            TaflMan::Mercenary => "mercenary",
        }
    }
}

/// Which side a tafl man plays for. Attackers are the dark men (suit 1), defenders the
/// light ones (suit 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TaflSide {
    Attackers,
    Defenders,
}

impl TaflSide {
    pub fn suit(self) -> i32 {
        match self {
            TaflSide::Attackers => 1,
            TaflSide::Defenders => 2,
        }
    }

    pub fn from_suit(suit: i32) -> Option<TaflSide> {
        match suit {
            1 => Some(TaflSide::Attackers),
            2 => Some(TaflSide::Defenders),
            _ => None,
        }
    }
}

/// The board of a tafl game of `size` × `size` cells, cells at `1..=size`.
pub fn tafl_board(size: u32) -> Piece {
    let centre = (f64::from(size) + 1.0) / 2.0;
    Piece {
        kind: PieceKind::Board,
        side: Side::Face,
        suit: 1,
        rank: i32::try_from(size).unwrap_or(i32::MAX),
        cfg: Cfg::new("tafl"),
        x: centre,
        y: centre,
        angle: 0.0,
    }
}

/// A tafl man on cell `(x, y)`.
pub fn tafl_man(side: TaflSide, man: TaflMan, x: u32, y: u32) -> Piece {
    Piece {
        kind: PieceKind::Bit,
        side: Side::Face,
        suit: side.suit(),
        rank: man.rank(),
        cfg: Cfg::new("tafl"),
        x: f64::from(x),
        y: f64::from(y),
        angle: 0.0,
    }
}

/// The pieces of xiangqi, by WXF's canonical letters (`K A E H R C P`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum XiangqiPiece {
    General,
    Advisor,
    Elephant,
    Horse,
    Chariot,
    Cannon,
    Soldier,
}

impl XiangqiPiece {
    pub const ALL: [XiangqiPiece; 7] = [
        XiangqiPiece::General,
        XiangqiPiece::Advisor,
        XiangqiPiece::Elephant,
        XiangqiPiece::Horse,
        XiangqiPiece::Chariot,
        XiangqiPiece::Cannon,
        XiangqiPiece::Soldier,
    ];

    /// The piece's rank in the `xiangqi` configuration.
    pub fn rank(self) -> i32 {
        match self {
            XiangqiPiece::General => 1,
            XiangqiPiece::Advisor => 2,
            XiangqiPiece::Elephant => 3,
            XiangqiPiece::Horse => 4,
            XiangqiPiece::Chariot => 5,
            XiangqiPiece::Cannon => 6,
            XiangqiPiece::Soldier => 7,
        }
    }

    pub fn from_rank(rank: i32) -> Option<XiangqiPiece> {
        XiangqiPiece::ALL
            .into_iter()
            .find(|piece| piece.rank() == rank)
    }

    /// The canonical upper-case letter (Red's; Black's is lower case).
    pub fn letter(self) -> char {
        match self {
            XiangqiPiece::General => 'K',
            XiangqiPiece::Advisor => 'A',
            XiangqiPiece::Elephant => 'E',
            XiangqiPiece::Horse => 'H',
            XiangqiPiece::Chariot => 'R',
            XiangqiPiece::Cannon => 'C',
            XiangqiPiece::Soldier => 'P',
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            XiangqiPiece::General => "general",
            XiangqiPiece::Advisor => "advisor",
            XiangqiPiece::Elephant => "elephant",
            XiangqiPiece::Horse => "horse",
            XiangqiPiece::Chariot => "chariot",
            XiangqiPiece::Cannon => "cannon",
            XiangqiPiece::Soldier => "soldier",
        }
    }
}

/// Red (suit 1) moves first; Black is suit 2.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum XiangqiSide {
    Red,
    Black,
}

impl XiangqiSide {
    pub fn suit(self) -> i32 {
        match self {
            XiangqiSide::Red => 1,
            XiangqiSide::Black => 2,
        }
    }

    pub fn from_suit(suit: i32) -> Option<XiangqiSide> {
        match suit {
            1 => Some(XiangqiSide::Red),
            2 => Some(XiangqiSide::Black),
            _ => None,
        }
    }
}

/// The xiangqi board: 9 files by 10 ranks of points, at x `1..=9`, y `1..=10`.
pub fn xiangqi_board() -> Piece {
    Piece {
        kind: PieceKind::Board,
        side: Side::Face,
        suit: 1,
        rank: 9,
        cfg: Cfg::new("xiangqi"),
        x: 5.0,
        y: 5.5,
        angle: 0.0,
    }
}

/// A xiangqi piece on the point of file `file` (0 = a, Red's left) and rank `rank` (0 =
/// Red's back rank).
pub fn xiangqi_piece(side: XiangqiSide, piece: XiangqiPiece, file: u32, rank: u32) -> Piece {
    Piece {
        kind: PieceKind::Bit,
        side: Side::Face,
        suit: side.suit(),
        rank: piece.rank(),
        cfg: Cfg::new("xiangqi"),
        x: f64::from(file) + 1.0,
        y: f64::from(rank) + 1.0,
        angle: 0.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn men_and_pieces_round_trip_through_their_ranks() {
        for man in TaflMan::ALL {
            assert_eq!(TaflMan::from_rank(man.rank()), Some(man));
        }
        for piece in XiangqiPiece::ALL {
            assert_eq!(XiangqiPiece::from_rank(piece.rank()), Some(piece));
        }
        let king = tafl_man(TaflSide::Defenders, TaflMan::King, 6, 6);
        assert_eq!((king.suit, king.rank, king.cfg.name()), (2, 2, "tafl"));
        let general = xiangqi_piece(XiangqiSide::Red, XiangqiPiece::General, 4, 0);
        assert_eq!((general.x, general.y), (5.0, 1.0));
    }
}
