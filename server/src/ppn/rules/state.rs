//! The state of a game being replayed: the board, which pieces are "active", and what the
//! board looked like when the current move started.

use std::ops::Range;
use std::sync::Arc;

use crate::model::piece::{Cfg, Piece};
pub use crate::ppn::reader::issue::Severity;
use crate::ppn::reader::macros::MacroTable;
use crate::ppn::reader::movetext::MoveRecord;
pub use crate::ppn::reader::piece_spec::ParserOptions;
use crate::ppn::rules::apply::submove::{ReadSubmove, ReadSubmoves, Reading};
use crate::ppn::rules::footprint::FootprintRecorder;

/// Identity of a piece on the board. A piece keeps its serial number for life; replacing it
/// (`=`, most `~`) or flipping it (`+`, a die's `~`) gives it a new identity, so that `^`
/// and "last active" references made before the change no longer find it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct PieceTag {
    serial: u32,
    replaced: u32,
    flipped: u32,
}

impl PieceTag {
    pub(crate) fn new(serial: u32) -> Self {
        PieceTag {
            serial,
            replaced: 0,
            flipped: 0,
        }
    }

    pub(crate) fn after_flip(self) -> Self {
        PieceTag {
            flipped: self.flipped + 1,
            ..self
        }
    }

    pub(crate) fn serial(self) -> u32 {
        self.serial
    }

    /// The same identity under another serial number (a later revision of the game
    /// numbering the pieces born after an edit otherwise).
    pub(crate) fn with_serial(self, serial: u32) -> Self {
        PieceTag { serial, ..self }
    }

    pub(crate) fn after_replace(self) -> Self {
        PieceTag {
            replaced: self.replaced + 1,
            flipped: 0,
            ..self
        }
    }
}

/// Pieces in internal order (first = bottom) with their identities.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Board {
    pub(crate) pieces: Vec<Piece>,
    pub(crate) tags: Vec<PieceTag>,
}

impl Board {
    /// Where pieces moved above (or `below`) the piece `neighbour` go, or on top (at the
    /// bottom) without one, once the moving pieces are out of the board.
    pub(crate) fn insertion_point(&self, neighbour: Option<PieceTag>, below: bool) -> usize {
        match (neighbour, below) {
            (None, false) => self.pieces.len(),
            (None, true) => 0,
            (Some(tag), _) => {
                let index = self.tags.iter().position(|t| *t == tag).unwrap_or(0);
                if below {
                    index
                } else {
                    index + 1
                }
            }
        }
    }

    /// Positions (in board order) of the pieces with these identities, each once. An
    /// identity is on a board at most once (see [`PieceTag`]).
    pub(crate) fn positions_of(&self, tags: &[PieceTag]) -> Vec<usize> {
        // The pieces asked for are most often the last ones moved, which lie on top: each
        // is looked for from the top down, which stops long before the bottom.
        let mut positions: Vec<usize> = tags
            .iter()
            .filter_map(|tag| self.tags.iter().rposition(|t| t == tag))
            .collect();
        positions.sort_unstable();
        positions.dedup();
        positions
    }
}

/// Something wrong with one move.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveIssue {
    /// Index of the token (whitespace-separated part of the move) it is about.
    pub token: usize,
    /// Bytes in that token's original text; the whole token when a macro changed the text
    /// and the spot cannot be mapped back.
    pub range: Range<usize>,
    pub severity: Severity,
    /// Stable kebab-case identifier, e.g. `unknown-macro`.
    pub code: &'static str,
    pub message: String,
}

/// A game being replayed.
#[derive(Clone, Debug)]
pub struct GameState {
    pub(crate) board: Board,
    /// The board when the current move started, kept only while a move that uses `^`
    /// (a PieceId read on that board) is applied.
    pub(crate) move_start: Option<Arc<Board>>,
    pub(crate) active: Vec<PieceTag>,
    pub(crate) max_serial: u32,
    pub(crate) scale_factor: f64,
    pub(crate) macros: Arc<MacroTable>,
    pub(crate) options: Arc<ParserOptions>,
    /// The game's sub-moves as read with `options`, kept when the game is replayed again
    /// after an edit (a first replay reads each sub-move as it comes: keeping them would
    /// cost it more than the repeats save).
    pub(crate) read_submoves: Option<Arc<ReadSubmoves>>,
    /// What the moves applied read of the board, while a replay notes it.
    pub(crate) footprint: FootprintRecorder,
}

impl GameState {
    /// The reading of a sub-move's text: from the game's kept readings when this replay
    /// keeps them.
    pub(crate) fn read_submove(&self, text: &str) -> Reading {
        match &self.read_submoves {
            Some(kept) => Reading::Kept(kept.read(text, &self.options)),
            None => Reading::Fresh(ReadSubmove::of(text, &self.options)),
        }
    }

    /// A game starting from `setup` (bottom piece first). `scale_factor` is how many board
    /// units one Location step is worth (most setups: 1).
    pub fn new(
        setup: Vec<Piece>,
        scale_factor: f64,
        macros: MacroTable,
        options: ParserOptions,
    ) -> Self {
        let count = u32::try_from(setup.len()).unwrap_or(u32::MAX);
        let tags = (1..=count).map(PieceTag::new).collect();
        let board = Board {
            pieces: setup,
            tags,
        };
        GameState {
            move_start: None,
            board,
            active: Vec::new(),
            max_serial: count,
            scale_factor,
            macros: Arc::new(macros),
            options: Arc::new(options),
            read_submoves: None,
            footprint: FootprintRecorder::default(),
        }
    }

    /// Every piece on the board, bottom (earliest) first. Angles are kept as the reference
    /// keeps them, so after rotations they may lie outside [0, 360): normalise them with
    /// `rem_euclid(360.0)` for display or export.
    pub fn pieces(&self) -> &[Piece] {
        &self.board.pieces
    }

    /// The pieces an empty PieceId would act on now, in board order.
    pub fn active_pieces(&self) -> Vec<&Piece> {
        self.board
            .positions_of(&self.active)
            .into_iter()
            .map(|i| &self.board.pieces[i])
            .collect()
    }

    /// Every piece with its serial number, bottom first. A piece keeps its serial through
    /// moves, flips and replacements, so comparing two states tells what moved.
    pub fn pieces_with_serials(&self) -> impl Iterator<Item = (u32, &Piece)> {
        self.board
            .tags
            .iter()
            .map(|tag| tag.serial)
            .zip(self.board.pieces.iter())
    }

    pub fn scale_factor(&self) -> f64 {
        self.scale_factor
    }

    /// Applies a move whose problems were reported when it was first replayed.
    pub(crate) fn replay(&mut self, record: &MoveRecord) {
        with_token_texts(record, |tokens| self.apply_move(tokens));
    }

    pub(crate) fn next_tag(&mut self) -> PieceTag {
        self.max_serial = self.max_serial.saturating_add(1);
        PieceTag::new(self.max_serial)
    }
}

/// Calls `apply` with the texts of a move's tokens, on the stack for the usual few.
pub(crate) fn with_token_texts<R>(record: &MoveRecord, apply: impl FnOnce(&[&str]) -> R) -> R {
    const ON_STACK: usize = 8;
    let count = record.tokens().len();
    if count <= ON_STACK {
        let mut texts = [""; ON_STACK];
        for (text, token) in texts.iter_mut().zip(record.tokens()) {
            *text = token.text;
        }
        apply(&texts[..count])
    } else {
        let texts: Vec<&str> = record.tokens().map(|t| t.text).collect();
        apply(&texts)
    }
}

/// Two states are equal when every move from them on replays alike: the board (with the
/// pieces' identities), the active pieces, the next serial number and the game's settings.
/// The board at the start of a move is only kept during the move.
impl PartialEq for GameState {
    fn eq(&self, other: &Self) -> bool {
        self.board == other.board
            && self.active == other.active
            && self.max_serial == other.max_serial
            && self.scale_factor == other.scale_factor
            && (Arc::ptr_eq(&self.macros, &other.macros) || self.macros == other.macros)
            && (Arc::ptr_eq(&self.options, &other.options) || self.options == other.options)
    }
}

/// A piece from the reference's JSON export (`piece_side`, `suit`, `rank`, `cfg`, `x`,
/// `y`, `angle`), as in the conformance data. `None` when a field is missing or wrong.
pub fn piece_from_json(value: &serde_json::Value) -> Option<Piece> {
    let (kind, side) = crate::model::piece::parse_piece_side(value.get("piece_side")?.as_str()?)?;
    let int = |name: &str| -> Option<i32> { i32::try_from(value.get(name)?.as_i64()?).ok() };
    let float = |name: &str| value.get(name)?.as_f64();
    Some(Piece {
        kind,
        side,
        suit: int("suit")?,
        rank: int("rank")?,
        cfg: Cfg::intern(value.get("cfg")?.as_str()?)?,
        x: float("x")?,
        y: float("y")?,
        angle: float("angle")?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_random::Xorshift;

    #[test]
    fn positions_of_finds_each_piece_asked_for_once_in_board_order() {
        let mut random = Xorshift::new(12);
        for _ in 0..2_000 {
            let count = random.below(40);
            // Unique identities, in any order, as a board has them after moves.
            let mut tags: Vec<PieceTag> = (1..=count as u32)
                .map(|serial| match random.below(3) {
                    0 => PieceTag::new(serial),
                    1 => PieceTag::new(serial).after_flip(),
                    _ => PieceTag::new(serial).after_replace(),
                })
                .collect();
            for i in (1..tags.len()).rev() {
                tags.swap(i, random.below(i + 1));
            }
            let board = Board {
                pieces: Vec::new(),
                tags: tags.clone(),
            };
            // Some on the board (some twice), some gone or changed since.
            let asked: Vec<PieceTag> = (0..random.below(6))
                .map(|_| match (random.below(4), tags.is_empty()) {
                    (0, _) | (_, true) => PieceTag::new(count as u32 + 1 + random.below(3) as u32),
                    (1, false) => tags[random.below(tags.len())].after_flip(),
                    _ => tags[random.below(tags.len())],
                })
                .collect();
            let by_scan: Vec<usize> = (0..count)
                .filter(|&i| asked.contains(&board.tags[i]))
                .collect();
            assert_eq!(board.positions_of(&asked), by_scan, "{tags:?} {asked:?}");
        }
    }
}
