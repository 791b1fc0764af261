//! The pieces every notation's boards are made of: PPN's components (the reference's
//! `piece_side`, suit, rank and configuration), which also stand for tafl and xiangqi
//! pieces (configurations `tafl` and `xiangqi`), so one renderer draws every board.

use std::fmt;

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

/// A component configuration name such as `piecepack`, `chess2` or `dominoes_red`,
/// interned so that a piece is `Copy` and comparing configurations compares numbers.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cfg(u16);

/// The configurations of the reference implementation (`piecepack` first: it is the
/// default), then those ppn-ls adds for the boards of other notations.
const KNOWN_CFGS: &[&str] = &[
    "piecepack",
    "alquerque",
    "checkers1",
    "checkers2",
    "chess1",
    "chess2",
    "dice",
    "dice_d4",
    "dice_d8",
    "dice_d10",
    "dice_d10_percentile",
    "dice_d12",
    "dice_d20",
    "dice_fudge",
    "dice_numeral",
    "dominoes",
    "dominoes_black",
    "dominoes_blue",
    "dominoes_green",
    "dominoes_red",
    "dominoes_white",
    "dominoes_yellow",
    "dominoes_chinese",
    "dominoes_chinese_black",
    "dual_piecepacks_expansion",
    "go",
    "hexpack",
    "icehouse_pieces",
    "marbles",
    "meeples",
    "morris",
    "piecepack_inverted",
    "playing_cards",
    "playing_cards_colored",
    "playing_cards_expansion",
    "playing_cards_tarot",
    "reversi",
    "subpack",
    // Not the reference's: tafl and xiangqi boards and pieces read from OTN and
    // xiangqi-setup files.
    "tafl",
    "xiangqi",
];
const REFERENCE_CFG_COUNT: usize = KNOWN_CFGS.len() - 2;

/// At most this many configuration names not in [`KNOWN_CFGS`], each at most
/// [`MAX_CFG_NAME_LEN`] bytes: interned names are never freed, so a hostile file must not
/// be able to make the table grow without bound.
pub const MAX_EXTRA_CFGS: usize = 4_096;
pub const MAX_CFG_NAME_LEN: usize = 64;

struct CfgTable {
    names: Vec<&'static str>,
    // Names are this program's own or a document's few: no hostile keys to guard against.
    ids: std::collections::HashMap<&'static str, u16, foldhash::fast::FixedState>,
}

fn cfg_table() -> &'static std::sync::RwLock<CfgTable> {
    static TABLE: std::sync::OnceLock<std::sync::RwLock<CfgTable>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let names = KNOWN_CFGS.to_vec();
        let ids = names
            .iter()
            .enumerate()
            .map(|(i, name)| (*name, i as u16))
            .collect();
        std::sync::RwLock::new(CfgTable { names, ids })
    })
}

impl Cfg {
    /// The configuration called `name`, added to the table if it is new and there is room;
    /// `None` when the name is too long or the table is full.
    pub fn intern(name: &str) -> Option<Cfg> {
        let table = cfg_table();
        if let Some(id) = table
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .ids
            .get(name)
        {
            return Some(Cfg(*id));
        }
        if name.len() > MAX_CFG_NAME_LEN {
            return None;
        }
        let mut table = table
            .write()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(id) = table.ids.get(name) {
            return Some(Cfg(*id));
        }
        if table.names.len() >= KNOWN_CFGS.len() + MAX_EXTRA_CFGS {
            return None;
        }
        let id = u16::try_from(table.names.len()).ok()?;
        let name: &'static str = Box::leak(name.to_string().into_boxed_str());
        table.names.push(name);
        table.ids.insert(name, id);
        Some(Cfg(id))
    }

    /// A configuration ppn-ls itself names. Names outside [`KNOWN_CFGS`] are interned,
    /// falling back to `piecepack` if the table is full (never for names in this program).
    pub fn new(name: &str) -> Cfg {
        Cfg::intern(name).unwrap_or(Cfg(0))
    }

    /// Whether the reference implementation knows a configuration of this name.
    pub fn reference_knows(name: &str) -> bool {
        KNOWN_CFGS[..REFERENCE_CFG_COUNT].contains(&name)
    }

    pub fn piecepack() -> Cfg {
        Cfg(0)
    }

    pub fn name(self) -> &'static str {
        cfg_table()
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .names
            .get(usize::from(self.0))
            .copied()
            .unwrap_or("piecepack")
    }
}

impl From<&str> for Cfg {
    fn from(name: &str) -> Cfg {
        Cfg::new(name)
    }
}

impl std::ops::Deref for Cfg {
    type Target = str;

    fn deref(&self) -> &str {
        self.name()
    }
}

impl PartialEq<str> for Cfg {
    fn eq(&self, other: &str) -> bool {
        self.name() == other
    }
}

impl PartialEq<&str> for Cfg {
    fn eq(&self, other: &&str) -> bool {
        self.name() == *other
    }
}

impl fmt::Debug for Cfg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.name())
    }
}

impl fmt::Display for Cfg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One piece on the board, with the reference's 1-based `suit` and `rank` integers
/// (for piecepack: suit 1..4 = Suns, Moons, Crowns, Arms; rank 1 = null, 2 = ace).
#[derive(Clone, Copy, Debug, PartialEq)]
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
