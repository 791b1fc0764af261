//! OTN rules strings (`dim:11 atkf:n sw:s efe:y start:/3ttttt3/.../`): every key of the
//! specification with its values and defaults, read with the byte range of each entry so
//! that diagnostics, hover, completion and semantic tokens can point at it.

use std::fmt::Write as _;
use std::ops::Range;

use crate::diagnostic::Diagnostic;
use crate::model::suggest::edit_distance;
use crate::otn::board::{parse_position, Board, PieceSet, Square, MAX_DIM, MIN_DIM};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Escape {
    Corner,
    Edge,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Threefold {
    Ignore,
    Draw,
    /// `w`: the side that moves into the third repetition loses (OpenTafl: "the player
    /// forcing the repetition loses").
    MoverLoses,
    /// `l`: the side that moves into the third repetition wins.
    MoverWins,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KingArmed {
    Yes,
    No,
    /// Captured against, but does not capture by moving.
    Anvil,
    /// Captures by moving, but is not captured against.
    Hammer,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KingStrength {
    Strong,
    /// Strong on or next to a centre square, weak elsewhere.
    StrongCenter,
    /// Captured when every square next to him is hostile (the board edge does not protect).
    Middleweight,
    Weak,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Jump {
    None,
    /// Only to or from the centre, a corner or a friendly fort.
    Restricted,
    /// Over an enemy man, without capturing it.
    Plain,
    /// Over an enemy man, capturing it.
    Capturing,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shieldwall {
    None,
    /// Corners may not close a shieldwall.
    Weak,
    /// Corners may close a shieldwall.
    Strong,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Berserk {
    None,
    /// After a capture the capturing man moves again if it can capture again.
    Capture,
    /// After a capture the capturing man moves again if it can move.
    Move,
}

/// The kinds of special squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Space {
    Plain,
    Corner,
    Center,
    AttackerFort,
    DefenderFort,
}

impl Space {
    pub(crate) fn slot(self) -> Option<usize> {
        match self {
            Space::Plain => None,
            Space::Corner => Some(0),
            Space::Center => Some(1),
            Space::AttackerFort => Some(2),
            Space::DefenderFort => Some(3),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Space::Plain => "square",
            Space::Corner => "corner",
            Space::Center => "throne",
            Space::AttackerFort => "attackers' fort",
            Space::DefenderFort => "defenders' fort",
        }
    }

    /// The prefix of the rules keys about this kind of square (`cor`, `cen`, ...).
    pub fn key(self) -> &'static str {
        match self {
            Space::Plain => "",
            Space::Corner => "cor",
            Space::Center => "cen",
            Space::AttackerFort => "afor",
            Space::DefenderFort => "dfor",
        }
    }
}

/// A whole rule set, every key at its value or default.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    pub dim: usize,
    pub name: String,
    pub escape: Escape,
    pub surround_fatal: bool,
    pub attackers_first: bool,
    pub threefold: Threefold,
    pub king_armed: KingArmed,
    pub king_strength: KingStrength,
    /// Jumps by kind, in OTN order `t c n k m g` (taflmen never jump).
    pub jumps: [Jump; 6],
    pub corners: Vec<Square>,
    pub centers: Vec<Square>,
    pub attacker_forts: Vec<Square>,
    pub defender_forts: Vec<Square>,
    /// By slot: corners, centre (occupied), attackers' fort, defenders' fort.
    pub hostile: [PieceSet; 4],
    pub hostile_empty_center: PieceSet,
    pub passable: [PieceSet; 4],
    pub stoppable: [PieceSet; 4],
    pub reenter: [PieceSet; 4],
    pub shieldwall: Shieldwall,
    pub shieldwall_flank: bool,
    pub edge_fort: bool,
    pub linnaean: bool,
    pub berserk: Berserk,
    /// Squares a man may move per turn by type index (`tcnkmgTCNKMG`); `None` for no limit.
    pub speed: [Option<u8>; 12],
    pub start: Board,
    /// The kind of every square.
    pub spaces: Vec<Space>,
    /// Every square's column and row: the engine steps from square to square for every
    /// move, and dividing an index by the board's size each step showed.
    coordinates: Vec<(u8, u8)>,
}

impl Rules {
    /// The defaults of every key on a `dim` board with the given start.
    pub fn new(dim: usize, start: Board) -> Rules {
        let mut rules = Rules {
            dim,
            name: String::new(),
            escape: Escape::Corner,
            surround_fatal: true,
            attackers_first: true,
            threefold: Threefold::Draw,
            king_armed: KingArmed::Yes,
            king_strength: KingStrength::Strong,
            jumps: [
                Jump::None,
                Jump::Plain,
                Jump::Capturing,
                Jump::None,
                Jump::None,
                Jump::None,
            ],
            corners: default_corners(dim),
            centers: default_center(dim),
            attacker_forts: Vec::new(),
            defender_forts: Vec::new(),
            hostile: [
                PieceSet::ALL,
                PieceSet::ATTACKERS,
                PieceSet::DEFENDERS,
                PieceSet::ATTACKERS,
            ],
            hostile_empty_center: PieceSet::ALL,
            passable: [KING_ONLY, PieceSet::ALL, PieceSet::ALL, PieceSet::DEFENDERS],
            stoppable: [KING_ONLY, KING_ONLY, PieceSet::ALL, PieceSet::DEFENDERS],
            reenter: [PieceSet::ALL; 4],
            shieldwall: Shieldwall::None,
            shieldwall_flank: true,
            edge_fort: false,
            linnaean: false,
            berserk: Berserk::None,
            speed: [None; 12],
            start,
            spaces: Vec::new(),
            coordinates: Vec::new(),
        };
        rules.compute_spaces();
        rules
    }

    pub(crate) fn compute_spaces(&mut self) {
        let dim = self.dim;
        let mut spaces = vec![Space::Plain; dim * dim];
        for (list, space) in [
            (&self.centers, Space::Center),
            (&self.corners, Space::Corner),
            (&self.attacker_forts, Space::AttackerFort),
            (&self.defender_forts, Space::DefenderFort),
        ] {
            for square in list {
                if square.on_board(dim) {
                    spaces[square.index(dim)] = space;
                }
            }
        }
        self.spaces = spaces;
        // Kept in bytes: a board is at most `MAX_DIM` wide. A wider one (none is read) is
        // left to `coordinates`' division.
        self.coordinates = (0..dim * dim)
            .map_while(|index| {
                Some((
                    u8::try_from(index % dim).ok()?,
                    u8::try_from(index / dim).ok()?,
                ))
            })
            .collect();
    }

    /// The column and row of square `index` (counted from the bottom-left corner).
    pub fn coordinates(&self, index: usize) -> (usize, usize) {
        match self.coordinates.get(index) {
            Some(&(x, y)) => (usize::from(x), usize::from(y)),
            None => (index % self.dim.max(1), index / self.dim.max(1)),
        }
    }

    pub fn space(&self, index: usize) -> Space {
        self.spaces.get(index).copied().unwrap_or(Space::Plain)
    }

    /// The rules string with every entry that differs from the defaults, `dim` first and
    /// the start position (`start:`) last.
    pub fn to_otn(&self) -> String {
        let defaults = Rules::new(self.dim, Board::empty(self.dim));
        let mut out = format!("dim:{}", self.dim);
        if !self.name.is_empty() {
            let _ = write!(out, " name:{}", self.name.replace(' ', "_"));
        }
        let mut put = |key: &str, value: String, default: String| {
            if value != default {
                let _ = write!(out, " {key}:{value}");
            }
        };
        put(
            "esc",
            escape_letter(self.escape).into(),
            escape_letter(defaults.escape).into(),
        );
        put("surf", yes_no(self.surround_fatal).into(), "y".into());
        put("atkf", yes_no(self.attackers_first).into(), "y".into());
        put("tfr", threefold_letter(self.threefold).into(), "d".into());
        put("ka", armed_letter(self.king_armed).into(), "y".into());
        put("ks", strength_letter(self.king_strength).into(), "s".into());
        for (i, key) in JUMP_KEYS.iter().enumerate() {
            if let Some(key) = key {
                put(
                    key,
                    jump_letter(self.jumps[i]).into(),
                    jump_letter(defaults.jumps[i]).into(),
                );
            }
        }
        let squares =
            |list: &[Square]| -> String { list.iter().map(|s| format!("{},", s.name())).collect() };
        put("cor", squares(&self.corners), squares(&defaults.corners));
        put("cen", squares(&self.centers), squares(&defaults.centers));
        put("afor", squares(&self.attacker_forts), String::new());
        put("dfor", squares(&self.defender_forts), String::new());
        let speed = speed_string(&self.speed);
        put("spd", speed, "-1".into());
        for (space, slot) in SLOTS {
            let prefix = space.key();
            put(
                &format!("{prefix}p"),
                self.passable[slot].letters(),
                defaults.passable[slot].letters(),
            );
            put(
                &format!("{prefix}s"),
                self.stoppable[slot].letters(),
                defaults.stoppable[slot].letters(),
            );
            put(
                &format!("{prefix}h"),
                self.hostile[slot].letters(),
                defaults.hostile[slot].letters(),
            );
            put(
                &format!("{prefix}re"),
                self.reenter[slot].letters(),
                defaults.reenter[slot].letters(),
            );
        }
        put(
            "cenhe",
            self.hostile_empty_center.letters(),
            defaults.hostile_empty_center.letters(),
        );
        put("sw", shieldwall_letter(self.shieldwall).into(), "n".into());
        put("swf", yes_no(self.shieldwall_flank).into(), "y".into());
        put("efe", yes_no(self.edge_fort).into(), "n".into());
        put("linc", yes_no(self.linnaean).into(), "n".into());
        put("ber", berserk_letter(self.berserk).into(), "n".into());
        let _ = write!(out, " start:{}", self.start.position_record());
        out
    }
}

const KING_ONLY: PieceSet = PieceSet(1 << 9);

const SLOTS: [(Space, usize); 4] = [
    (Space::Corner, 0),
    (Space::Center, 1),
    (Space::AttackerFort, 2),
    (Space::DefenderFort, 3),
];

/// The jump key of each kind, in OTN order `t c n k m g`.
const JUMP_KEYS: [Option<&str>; 6] = [
    None,
    Some("cj"),
    Some("nj"),
    Some("kj"),
    Some("mj"),
    Some("gj"),
];

pub fn default_corners(dim: usize) -> Vec<Square> {
    let last = dim.saturating_sub(1);
    vec![
        Square::new(0, 0),
        Square::new(last, 0),
        Square::new(0, last),
        Square::new(last, last),
    ]
}

pub fn default_center(dim: usize) -> Vec<Square> {
    let center = dim.saturating_sub(1) / 2;
    vec![Square::new(center, center)]
}

fn yes_no(value: bool) -> &'static str {
    if value {
        "y"
    } else {
        "n"
    }
}

fn escape_letter(value: Escape) -> &'static str {
    match value {
        Escape::Corner => "c",
        Escape::Edge => "e",
    }
}

fn threefold_letter(value: Threefold) -> &'static str {
    match value {
        Threefold::Ignore => "i",
        Threefold::Draw => "d",
        Threefold::MoverLoses => "w",
        Threefold::MoverWins => "l",
    }
}

fn armed_letter(value: KingArmed) -> &'static str {
    match value {
        KingArmed::Yes => "y",
        KingArmed::No => "n",
        KingArmed::Anvil => "a",
        KingArmed::Hammer => "h",
    }
}

fn strength_letter(value: KingStrength) -> &'static str {
    match value {
        KingStrength::Strong => "s",
        KingStrength::StrongCenter => "c",
        KingStrength::Middleweight => "m",
        KingStrength::Weak => "w",
    }
}

fn jump_letter(value: Jump) -> &'static str {
    match value {
        Jump::None => "n",
        Jump::Restricted => "r",
        Jump::Plain => "j",
        Jump::Capturing => "c",
    }
}

fn shieldwall_letter(value: Shieldwall) -> &'static str {
    match value {
        Shieldwall::None => "n",
        Shieldwall::Weak => "w",
        Shieldwall::Strong => "s",
    }
}

fn berserk_letter(value: Berserk) -> &'static str {
    match value {
        Berserk::None => "n",
        Berserk::Capture => "c",
        Berserk::Move => "m",
    }
}

fn speed_string(speed: &[Option<u8>; 12]) -> String {
    let value = |s: Option<u8>| s.map_or(-1, i32::from);
    if speed.iter().all(|s| *s == speed[0]) {
        return value(speed[0]).to_string();
    }
    if speed[..6].iter().all(|s| *s == speed[0]) && speed[6..].iter().all(|s| *s == speed[6]) {
        return format!("{},{}", value(speed[0]), value(speed[6]));
    }
    speed
        .iter()
        .map(|s| value(*s).to_string())
        .collect::<Vec<_>>()
        .join(",")
}

/// What a key's values are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueKind {
    Dim,
    Name,
    Choice(&'static [(&'static str, &'static str)]),
    Squares,
    Pieces,
    Speed,
    Position,
}

/// One key of the rules string, for diagnostics, hover and completion.
#[derive(Clone, Copy, Debug)]
pub struct KeyInfo {
    pub key: &'static str,
    pub title: &'static str,
    pub doc: &'static str,
    pub values: ValueKind,
    pub default: &'static str,
}

const YES_NO: &[(&str, &str)] = &[("y", "yes"), ("n", "no")];
const JUMPS: &[(&str, &str)] = &[
    ("n", "no jumps"),
    (
        "r",
        "restricted: only to or from the centre, a corner or a friendly fort",
    ),
    ("j", "over an enemy man, without capturing"),
    ("c", "over an enemy man, capturing it"),
];

macro_rules! space_keys {
    ($p:literal, $name:literal, $pd:literal, $sd:literal, $hd:literal) => {
        [
            KeyInfo {
                key: concat!($p, "p"),
                title: concat!($name, ": passable by"),
                doc: concat!("The men that may move through the ", $name, " squares."),
                values: ValueKind::Pieces,
                default: $pd,
            },
            KeyInfo {
                key: concat!($p, "s"),
                title: concat!($name, ": stoppable by"),
                doc: concat!("The men that may end a move on the ", $name, " squares."),
                values: ValueKind::Pieces,
                default: $sd,
            },
            KeyInfo {
                key: concat!($p, "h"),
                title: concat!($name, ": hostile to"),
                doc: concat!(
                    "The men the ",
                    $name,
                    " squares are hostile to: such a man between one of them and an enemy is captured."
                ),
                values: ValueKind::Pieces,
                default: $hd,
            },
            KeyInfo {
                key: concat!($p, "re"),
                title: concat!($name, ": re-enterable by"),
                doc: concat!(
                    "The men that may enter the ",
                    $name,
                    " squares from outside them (a man that started inside may always move within)."
                ),
                values: ValueKind::Pieces,
                default: "tcnkmgTCNKMG",
            },
        ]
    };
}

const CORNER_KEYS: [KeyInfo; 4] = space_keys!("cor", "corner", "K", "K", "tcnkmgTCNKMG");
const CENTER_KEYS: [KeyInfo; 4] = space_keys!("cen", "centre", "tcnkmgTCNKMG", "K", "tcnkmg");
const AFORT_KEYS: [KeyInfo; 4] = space_keys!(
    "afor",
    "attackers' fort",
    "tcnkmgTCNKMG",
    "tcnkmgTCNKMG",
    "TCNKMG"
);
const DFORT_KEYS: [KeyInfo; 4] =
    space_keys!("dfor", "defenders' fort", "TCNKMG", "TCNKMG", "tcnkmg");

const MAIN_KEYS: &[KeyInfo] = &[
    KeyInfo {
        key: "dim",
        title: "board size",
        doc: "The number of squares along a side. Must come first.",
        values: ValueKind::Dim,
        default: "",
    },
    KeyInfo {
        key: "name",
        title: "name",
        doc: "The variant's name, with `_` for spaces.",
        values: ValueKind::Name,
        default: "",
    },
    KeyInfo {
        key: "esc",
        title: "escape",
        doc: "Where the king escapes to win.",
        values: ValueKind::Choice(&[("c", "a corner"), ("e", "any edge square")]),
        default: "c",
    },
    KeyInfo {
        key: "surf",
        title: "surrounding fatal",
        doc: "Whether the defenders lose when the attackers enclose all of them.",
        values: ValueKind::Choice(YES_NO),
        default: "y",
    },
    KeyInfo {
        key: "atkf",
        title: "attackers first",
        doc: "Whether the attackers move first (`n`: the defenders do).",
        values: ValueKind::Choice(YES_NO),
        default: "y",
    },
    KeyInfo {
        key: "tfr",
        title: "threefold repetition",
        doc: "What the third occurrence of a position does.",
        values: ValueKind::Choice(&[
            ("i", "ignored"),
            ("d", "draw"),
            ("w", "the side that repeats the position loses"),
            ("l", "the side that repeats the position wins"),
        ]),
        default: "d",
    },
    KeyInfo {
        key: "ka",
        title: "king armed",
        doc: "Whether the king takes part in captures.",
        values: ValueKind::Choice(&[
            ("y", "yes, as hammer and anvil"),
            ("n", "no"),
            (
                "a",
                "anvil only: men are captured against him, he does not capture by moving",
            ),
            (
                "h",
                "hammer only: he captures by moving, men are not captured against him",
            ),
        ]),
        default: "y",
    },
    KeyInfo {
        key: "ks",
        title: "king strength",
        doc: "How the king is captured.",
        values: ValueKind::Choice(&[
            ("s", "strong: surrounded on four sides"),
            ("c", "strong on or next to the centre, weak elsewhere"),
            (
                "m",
                "middleweight: every square next to him hostile, the edge does not protect",
            ),
            ("w", "weak: between two enemies, like any man"),
            ("y", "strong (older form of s)"),
            ("n", "weak (older form of w)"),
        ]),
        default: "s",
    },
    KeyInfo {
        key: "kj",
        title: "king jump",
        doc: "How the king jumps.",
        values: ValueKind::Choice(JUMPS),
        default: "n",
    },
    KeyInfo {
        key: "nj",
        title: "knight jump",
        doc: "How knights jump.",
        values: ValueKind::Choice(JUMPS),
        default: "c",
    },
    KeyInfo {
        key: "cj",
        title: "commander jump",
        doc: "How commanders jump.",
        values: ValueKind::Choice(JUMPS),
        default: "j",
    },
    KeyInfo {
        key: "mj",
        title: "mercenary jump",
        doc: "How mercenaries jump.",
        values: ValueKind::Choice(JUMPS),
        default: "n",
    },
    KeyInfo {
        key: "gj",
        title: "guard jump",
        doc: "How guards jump.",
        values: ValueKind::Choice(JUMPS),
        default: "n",
    },
    KeyInfo {
        key: "spd",
        title: "speed limits",
        doc: "How far men move per turn: one number for every man, two for attackers and \
              defenders, or one per man type in `tcnkmgTCNKMG` order (8 or 10 numbers leave \
              out guards, then mercenaries). `-1` is no limit.",
        values: ValueKind::Speed,
        default: "-1",
    },
    KeyInfo {
        key: "cor",
        title: "corner squares",
        doc: "The squares treated as corners, e.g. `a1,a2,b1,`.",
        values: ValueKind::Squares,
        default: "the four corners",
    },
    KeyInfo {
        key: "cen",
        title: "centre squares",
        doc: "The squares treated as the throne.",
        values: ValueKind::Squares,
        default: "the central square",
    },
    KeyInfo {
        key: "afor",
        title: "attackers' forts",
        doc: "Squares of the attackers' forts.",
        values: ValueKind::Squares,
        default: "none",
    },
    KeyInfo {
        key: "dfor",
        title: "defenders' forts",
        doc: "Squares of the defenders' forts.",
        values: ValueKind::Squares,
        default: "none",
    },
    KeyInfo {
        key: "cenhe",
        title: "empty centre hostile to",
        doc: "The men the centre squares are hostile to while empty.",
        values: ValueKind::Pieces,
        default: "tcnkmgTCNKMG",
    },
    KeyInfo {
        key: "sw",
        title: "shieldwall",
        doc: "Whether a row of men along an edge, each faced by an enemy, is captured by \
              closing both its ends.",
        values: ValueKind::Choice(&[
            ("n", "no shieldwall captures"),
            ("w", "weak: corners may not close a shieldwall"),
            ("s", "strong: corners may close a shieldwall"),
        ]),
        default: "n",
    },
    KeyInfo {
        key: "swf",
        title: "shieldwall flanking",
        doc: "Whether a shieldwall is only captured by the move that closes one of its ends \
              (`n`: any move that completes it).",
        values: ValueKind::Choice(YES_NO),
        default: "y",
    },
    KeyInfo {
        key: "efe",
        title: "edge fort escape",
        doc: "Whether the defenders win when the king, on an edge and able to move, sits in a \
              fort of defenders the attackers cannot break.",
        values: ValueKind::Choice(YES_NO),
        default: "n",
    },
    KeyInfo {
        key: "linc",
        title: "Linnaean capture",
        doc: "Whether a defender next to the king on the throne, the king being surrounded by \
              attackers on his three other sides, is captured against the throne.",
        values: ValueKind::Choice(YES_NO),
        default: "n",
    },
    KeyInfo {
        key: "ber",
        title: "berserk",
        doc: "Whether a man that captures moves again in the same turn.",
        values: ValueKind::Choice(&[
            ("n", "no berserk moves"),
            ("c", "the capturing man moves again if it can capture again"),
            ("m", "the capturing man moves again if it can move"),
        ]),
        default: "n",
    },
    KeyInfo {
        key: "start",
        title: "starting position",
        doc: "The start position, first row = rank 1. Must come last.",
        values: ValueKind::Position,
        default: "",
    },
    KeyInfo {
        key: "starti",
        title: "starting position, inverted",
        doc: "The start position, first row = the top rank (as the board is drawn). Must \
              come last.",
        values: ValueKind::Position,
        default: "",
    },
];

/// Every key of the rules string.
pub fn keys() -> impl Iterator<Item = &'static KeyInfo> {
    MAIN_KEYS
        .iter()
        .chain(CORNER_KEYS.iter())
        .chain(CENTER_KEYS.iter())
        .chain(AFORT_KEYS.iter())
        .chain(DFORT_KEYS.iter())
}

pub fn key_info(key: &str) -> Option<&'static KeyInfo> {
    keys().find(|info| info.key == key)
}

/// One `key:value` entry of a rules string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub key: Range<usize>,
    pub value: Range<usize>,
    /// Whether the key is one OTN defines.
    pub known: bool,
}

/// A rules string as read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsedRules {
    pub rules: Rules,
    pub entries: Vec<Entry>,
    pub range: Range<usize>,
    /// The range of the `start:`/`starti:` value.
    pub start_range: Option<Range<usize>>,
}

/// Reads the rules string `text`, which sits at `offset` of the document.
pub fn parse_rules(text: &str, offset: usize, diagnostics: &mut Vec<Diagnostic>) -> ParsedRules {
    let mut entries = Vec::new();
    let mut words = Vec::new();
    let mut i = 0;
    let bytes = text.as_bytes();
    while i < bytes.len() {
        if bytes[i].is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && !bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        words.push(start..i);
    }
    for word in &words {
        let word_text = &text[word.clone()];
        match word_text.find(':') {
            Some(colon) => {
                let key_text = &word_text[..colon];
                entries.push(Entry {
                    key: offset + word.start..offset + word.start + colon,
                    value: offset + word.start + colon + 1..offset + word.end,
                    known: key_info(key_text).is_some(),
                });
            }
            None => diagnostics.push(Diagnostic::error(
                offset + word.start..offset + word.end,
                "rules-syntax",
                format!("`{word_text}` is not a rules entry: write `key:value`"),
            )),
        }
    }
    let slice = |range: &Range<usize>| &text[range.start - offset..range.end - offset];

    // The board size first: every other entry is read against it.
    let dim_entry = entries.iter().find(|e| slice(&e.key) == "dim");
    let start_entry = entries
        .iter()
        .rev()
        .find(|e| matches!(slice(&e.key), "start" | "starti"));
    let mut position_diagnostics = Vec::new();
    let parsed_start = start_entry.map(|entry| {
        (
            parse_position(
                slice(&entry.value),
                entry.value.start,
                &mut position_diagnostics,
            ),
            slice(&entry.key) == "starti",
        )
    });
    diagnostics.append(&mut position_diagnostics);
    let dim = match dim_entry {
        Some(entry) => match slice(&entry.value).parse::<usize>() {
            Ok(dim) if (MIN_DIM..=MAX_DIM).contains(&dim) => Some(dim),
            _ => {
                diagnostics.push(Diagnostic::error(
                    entry.value.clone(),
                    "invalid-rules-value",
                    format!(
                        "dim:{}: the board size is a number from {MIN_DIM} to {MAX_DIM}",
                        slice(&entry.value)
                    ),
                ));
                None
            }
        },
        None => {
            diagnostics.push(Diagnostic::error(
                rules_head(offset, text),
                "missing-dim",
                "the rules string has no board size: it starts with `dim:` and the number of \
                 squares along a side",
            ));
            None
        }
    };
    let dim = dim
        .or_else(|| {
            parsed_start
                .as_ref()
                .map(|(p, _)| p.rows.len())
                .filter(|n| (MIN_DIM..=MAX_DIM).contains(n))
        })
        .unwrap_or(11);
    if let Some(first) = entries.first() {
        if slice(&first.key) != "dim" && dim_entry.is_some() {
            diagnostics.push(Diagnostic::warning(
                first.key.clone(),
                "rules-order",
                "the board size (`dim:`) comes first in a rules string",
            ));
        }
    }
    let start = match &parsed_start {
        Some((position, inverted)) => position.board(dim, *inverted, diagnostics),
        None => {
            diagnostics.push(Diagnostic::error(
                rules_head(offset, text),
                "missing-start",
                "the rules string has no start position: it ends with `start:` (or `starti:`) \
                 and a position record",
            ));
            Board::empty(dim)
        }
    };
    if let Some(start_entry) = start_entry {
        if let Some(after) = entries.iter().find(|e| e.key.start > start_entry.key.start) {
            diagnostics.push(Diagnostic::warning(
                after.key.start..entries.last().map_or(after.value.end, |e| e.value.end),
                "rules-order",
                "the start position comes last in a rules string",
            ));
        }
    }

    let mut rules = Rules::new(dim, start);
    let mut seen: Vec<&str> = Vec::new();
    for entry in &entries {
        let key = slice(&entry.key);
        let value = slice(&entry.value);
        if seen.contains(&key) && key != "start" && key != "starti" {
            diagnostics.push(Diagnostic::warning(
                entry.key.clone(),
                "duplicate-rules-key",
                format!("`{key}` is given twice; the last one counts"),
            ));
        }
        seen.push(key);
        if let Err(message) = apply_entry(&mut rules, key, value, entry, diagnostics) {
            diagnostics.push(message);
        }
    }
    if seen.contains(&"start") && seen.contains(&"starti") {
        if let Some(entry) = entries.iter().find(|e| slice(&e.key) == "start") {
            diagnostics.push(Diagnostic::warning(
                entry.key.clone(),
                "duplicate-rules-key",
                "both `start:` and `starti:` are given; the last one counts",
            ));
        }
    }
    rules.compute_spaces();
    ParsedRules {
        rules,
        start_range: start_entry.map(|e| e.value.clone()),
        entries,
        range: offset..offset + text.len(),
    }
}

fn rules_head(offset: usize, text: &str) -> Range<usize> {
    let trimmed = text.trim_start();
    let start = offset + (text.len() - trimmed.len());
    let first_word = trimmed.split_ascii_whitespace().next().unwrap_or("");
    start..start + first_word.len()
}

fn choice_message(key: &str, value: &str, info: &KeyInfo) -> String {
    let choices = match info.values {
        ValueKind::Choice(choices) => choices
            .iter()
            .map(|(letter, meaning)| format!("`{letter}` ({meaning})"))
            .collect::<Vec<_>>()
            .join(", "),
        _ => String::new(),
    };
    format!("{key}:{value}: {} is one of {choices}", info.title)
}

fn apply_entry(
    rules: &mut Rules,
    key: &str,
    value: &str,
    entry: &Entry,
    diagnostics: &mut Vec<Diagnostic>,
) -> Result<(), Diagnostic> {
    let Some(info) = key_info(key) else {
        let mut message = format!("`{key}` is not an OTN rules key; OpenTafl ignores it");
        if let Some(close) = closest_key(key) {
            let _ = write!(message, " (did you mean `{close}`?)");
        }
        return Err(Diagnostic::warning(
            entry.key.clone(),
            "unknown-rules-key",
            message,
        ));
    };
    let bad_choice = || {
        Diagnostic::error(
            entry.value.clone(),
            "invalid-rules-value",
            choice_message(key, value, info),
        )
    };
    let yes = || match value {
        "y" => Ok(true),
        "n" => Ok(false),
        _ => Err(bad_choice()),
    };
    match key {
        "dim" | "start" | "starti" => {}
        "name" => rules.name = value.replace('_', " "),
        "esc" => {
            rules.escape = match value {
                "c" => Escape::Corner,
                "e" => Escape::Edge,
                _ => return Err(bad_choice()),
            }
        }
        "surf" => rules.surround_fatal = yes()?,
        "atkf" => rules.attackers_first = yes()?,
        "swf" => rules.shieldwall_flank = yes()?,
        "efe" => rules.edge_fort = yes()?,
        "linc" => rules.linnaean = yes()?,
        "tfr" => {
            rules.threefold = match value {
                "i" => Threefold::Ignore,
                "d" => Threefold::Draw,
                "w" => Threefold::MoverLoses,
                "l" => Threefold::MoverWins,
                _ => return Err(bad_choice()),
            }
        }
        "ka" => {
            rules.king_armed = match value {
                "y" => KingArmed::Yes,
                "n" => KingArmed::No,
                "a" => KingArmed::Anvil,
                "h" => KingArmed::Hammer,
                _ => return Err(bad_choice()),
            }
        }
        "ks" => {
            rules.king_strength = match value {
                "s" | "y" => KingStrength::Strong,
                "c" => KingStrength::StrongCenter,
                "m" => KingStrength::Middleweight,
                "w" | "n" => KingStrength::Weak,
                _ => return Err(bad_choice()),
            }
        }
        "kj" | "nj" | "cj" | "mj" | "gj" => {
            let jump = match value {
                "n" => Jump::None,
                "r" => Jump::Restricted,
                "j" => Jump::Plain,
                "c" => Jump::Capturing,
                _ => return Err(bad_choice()),
            };
            let slot = JUMP_KEYS.iter().position(|k| *k == Some(key)).unwrap_or(0);
            rules.jumps[slot] = jump;
        }
        "sw" => {
            rules.shieldwall = match value {
                "n" => Shieldwall::None,
                "w" => Shieldwall::Weak,
                "s" => Shieldwall::Strong,
                _ => return Err(bad_choice()),
            }
        }
        "ber" => {
            rules.berserk = match value {
                "n" => Berserk::None,
                "c" => Berserk::Capture,
                "m" => Berserk::Move,
                _ => return Err(bad_choice()),
            }
        }
        "spd" => rules.speed = parse_speed(value, entry)?,
        "cor" | "cen" | "afor" | "dfor" => {
            let squares = if value == "default" {
                match key {
                    "cor" => default_corners(rules.dim),
                    "cen" => default_center(rules.dim),
                    _ => Vec::new(),
                }
            } else {
                parse_squares(value, entry, rules.dim, diagnostics)
            };
            match key {
                "cor" => rules.corners = squares,
                "cen" => rules.centers = squares,
                "afor" => rules.attacker_forts = squares,
                _ => rules.defender_forts = squares,
            }
        }
        _ => {
            let set = parse_pieces(value, entry)?;
            if key == "cenhe" {
                rules.hostile_empty_center = set;
            } else {
                let (prefix, suffix) = split_space_key(key).ok_or_else(bad_choice)?;
                let slot = match prefix {
                    "cor" => 0,
                    "cen" => 1,
                    "afor" => 2,
                    _ => 3,
                };
                match suffix {
                    "p" => rules.passable[slot] = set,
                    "s" => rules.stoppable[slot] = set,
                    "h" => rules.hostile[slot] = set,
                    _ => rules.reenter[slot] = set,
                }
            }
        }
    }
    Ok(())
}

fn split_space_key(key: &str) -> Option<(&str, &str)> {
    for prefix in ["afor", "dfor", "cor", "cen"] {
        if let Some(suffix) = key.strip_prefix(prefix) {
            if matches!(suffix, "p" | "s" | "h" | "re") {
                return Some((prefix, suffix));
            }
        }
    }
    None
}

fn parse_pieces(value: &str, entry: &Entry) -> Result<PieceSet, Diagnostic> {
    let mut set = PieceSet::NONE;
    for (i, letter) in value.char_indices() {
        match crate::otn::board::Man::from_letter(letter) {
            Some(man) => set.0 |= 1 << man.type_index(),
            None => {
                return Err(Diagnostic::error(
                    entry.value.start + i..entry.value.start + i + letter.len_utf8(),
                    "invalid-rules-value",
                    format!(
                        "`{letter}` is not a man: piece lists use the letters tcnkmg (attackers) \
                         and TCNKMG (defenders)"
                    ),
                ))
            }
        }
    }
    Ok(set)
}

fn parse_squares(
    value: &str,
    entry: &Entry,
    dim: usize,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Square> {
    let mut squares = Vec::new();
    let mut start = entry.value.start;
    for part in value.split(',') {
        let range = start..start + part.len();
        start += part.len() + 1;
        if part.is_empty() {
            continue;
        }
        match Square::parse(part) {
            Some(square) if square.on_board(dim) => squares.push(square),
            Some(_) => diagnostics.push(Diagnostic::error(
                range,
                "invalid-rules-value",
                format!("{part} is off the {dim}×{dim} board"),
            )),
            None => diagnostics.push(Diagnostic::error(
                range,
                "invalid-rules-value",
                format!("`{part}` is not a square: square lists read like `a1,k11,`"),
            )),
        }
    }
    squares
}

fn parse_speed(value: &str, entry: &Entry) -> Result<[Option<u8>; 12], Diagnostic> {
    let mut numbers = Vec::new();
    let mut start = entry.value.start;
    let parts: Vec<&str> = value.split(',').collect();
    let last = parts.len() - 1;
    for (i, part) in parts.into_iter().enumerate() {
        let range = start..start + part.len();
        start += part.len() + 1;
        if part.is_empty() && i == last && i > 0 {
            continue;
        }
        match part.parse::<i32>() {
            Ok(-1) => numbers.push(None),
            Ok(n) if (1..=255).contains(&n) => numbers.push(Some(n as u8)),
            _ => {
                return Err(Diagnostic::error(
                    range,
                    "invalid-rules-value",
                    format!("`{part}` is not a speed: a number of squares, or -1 for no limit"),
                ))
            }
        }
    }
    let mut speed = [None; 12];
    match numbers.len() {
        1 => speed = [numbers[0]; 12],
        2 => {
            speed[..6].fill(numbers[0]);
            speed[6..].fill(numbers[1]);
        }
        8 | 10 | 12 => {
            let per_side = numbers.len() / 2;
            speed[..per_side].copy_from_slice(&numbers[..per_side]);
            speed[6..6 + per_side].copy_from_slice(&numbers[per_side..]);
        }
        n => {
            return Err(Diagnostic::error(
                entry.value.clone(),
                "invalid-rules-value",
                format!(
                    "spd has {n} numbers: give 1 (every man), 2 (attackers, defenders), or one \
                     per man type in tcnkmgTCNKMG order (12; 10 or 8 leave out guards, then \
                     mercenaries)"
                ),
            ))
        }
    }
    Ok(speed)
}

fn closest_key(key: &str) -> Option<&'static str> {
    keys()
        .map(|info| (edit_distance(key, info.key), info.key))
        .filter(|(distance, _)| *distance <= 1 || (*distance == 2 && key.len() > 3))
        .min()
        .map(|(_, key)| key)
}

#[cfg(test)]
mod tests {
    use super::*;

    const COPENHAGEN: &str = "dim:11 atkf:n sw:s efe:y start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/";

    fn read(text: &str) -> (ParsedRules, Vec<Diagnostic>) {
        let mut diagnostics = Vec::new();
        let parsed = parse_rules(text, 0, &mut diagnostics);
        (parsed, diagnostics)
    }

    #[test]
    fn the_spec_copenhagen_example_reads_cleanly() {
        let (parsed, diagnostics) = read(COPENHAGEN);
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        let rules = parsed.rules;
        assert_eq!(rules.dim, 11);
        assert!(!rules.attackers_first);
        assert_eq!(rules.shieldwall, Shieldwall::Strong);
        assert!(rules.edge_fort);
        assert_eq!(rules.start.men().count(), 37);
        assert_eq!(
            rules.space(Square::parse("f6").unwrap().index(11)),
            Space::Center
        );
        assert_eq!(rules.space(0), Space::Corner);
        assert_eq!(parsed.entries.len(), 5);
    }

    #[test]
    fn every_key_of_the_spec_is_read() {
        let text = "dim:7 name:Test_Game esc:e surf:n atkf:n tfr:w ka:h ks:m kj:r nj:j cj:c mj:c gj:j \
                    spd:2,3 cor:a1,g7, cen:d4, afor:a4, dfor:g4, corh:t cenh:T cenhe: aforh:tT dforh:K \
                    corp:K cenp:tT aforp:t dforp:T cors:Kk cens:K afors:t dfors:T cenre:t corre:K \
                    aforre:t dforre:T sw:w swf:n efe:y linc:y ber:m start:/3t3/7/7/t2K2T/7/7/3t3/";
        let (parsed, diagnostics) = read(text);
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        let r = parsed.rules;
        assert_eq!(r.name, "Test Game");
        assert_eq!(r.escape, Escape::Edge);
        assert!(!r.surround_fatal);
        assert_eq!(r.threefold, Threefold::MoverLoses);
        assert_eq!(r.king_armed, KingArmed::Hammer);
        assert_eq!(r.king_strength, KingStrength::Middleweight);
        assert_eq!(
            r.jumps,
            [
                Jump::None,
                Jump::Capturing,
                Jump::Plain,
                Jump::Restricted,
                Jump::Capturing,
                Jump::Plain
            ]
        );
        assert_eq!(r.speed[0], Some(2));
        assert_eq!(r.speed[6], Some(3));
        assert_eq!(r.corners.len(), 2);
        assert_eq!(r.hostile[0].letters(), "t");
        assert_eq!(r.hostile_empty_center, PieceSet::NONE);
        assert_eq!(r.stoppable[0].letters(), "kK");
        assert_eq!(r.shieldwall, Shieldwall::Weak);
        assert!(!r.shieldwall_flank && r.edge_fort && r.linnaean);
        assert_eq!(r.berserk, Berserk::Move);
        assert_eq!(
            r.space(Square::parse("a4").unwrap().index(7)),
            Space::AttackerFort
        );
        // Written back and read again, the rules are the same.
        let again = read(&r.to_otn());
        assert!(again.1.is_empty(), "{:?}", again.1);
        assert_eq!(again.0.rules, r);
    }

    #[test]
    fn legacy_king_strength_and_long_speed_lists() {
        let (parsed, diagnostics) =
            read("dim:7 ks:y spd:-1,-1,-1,-1,-1,-1,-1,1, start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/");
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        assert_eq!(parsed.rules.king_strength, KingStrength::Strong);
        // Eight numbers are t c n k T C N K: the defenders' king moves one square.
        assert_eq!(parsed.rules.speed[9], Some(1));
        assert_eq!(parsed.rules.speed[6], None);
    }

    #[test]
    fn problems_point_at_their_entry() {
        let text = "atkf:x dim:7 foo:1 ks:q start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/ esc:e";
        let (_, diagnostics) = read(text);
        let found: Vec<_> = diagnostics
            .iter()
            .map(|d| (d.code, &text[d.range.clone()]))
            .collect();
        assert!(found.contains(&("invalid-rules-value", "x")), "{found:?}");
        assert!(found.contains(&("unknown-rules-key", "foo")), "{found:?}");
        assert!(found.contains(&("invalid-rules-value", "q")), "{found:?}");
        assert!(found.contains(&("rules-order", "atkf")), "{found:?}");
        assert!(found
            .iter()
            .any(|(code, text)| *code == "rules-order" && text.starts_with("esc")));
        let ks = diagnostics
            .iter()
            .find(|d| d.message.starts_with("ks:q"))
            .unwrap();
        assert!(ks.message.contains("`m` (middleweight"), "{}", ks.message);
    }

    #[test]
    fn missing_dim_and_start_are_reported_and_replay_goes_on() {
        let (parsed, diagnostics) = read("atkf:n");
        let codes: Vec<_> = diagnostics.iter().map(|d| d.code).collect();
        assert!(codes.contains(&"missing-dim"));
        assert!(codes.contains(&"missing-start"));
        assert_eq!(parsed.rules.dim, 11);
        let (parsed, _) = read("start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/");
        assert_eq!(
            parsed.rules.dim, 7,
            "the start position's rows give the size"
        );
    }

    #[test]
    fn misspelt_keys_get_a_suggestion() {
        let (_, diagnostics) = read("dim:7 atfk:n start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/");
        assert!(
            diagnostics[0].message.contains("did you mean `atkf`"),
            "{}",
            diagnostics[0].message
        );
    }
}
