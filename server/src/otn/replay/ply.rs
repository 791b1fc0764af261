//! One state of a line of play (a [`Ply`]: the board after a move) and how a move is named
//! in messages ([`MoveLabel`]).

use std::ops::Range;

use crate::otn::board::{Man, TaflSide};
use crate::otn::reader::moves::shift_range;
use crate::otn::reader::{AddressMove, LinePath};
use crate::otn::rules::Verdict;

/// One state of a line: the board after a move (or the line's start).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ply {
    /// The move's address within its line (`12b`: turn 12, letter b).
    pub address: AddressMove,
    /// The move record in the text.
    pub range: Range<usize>,
    /// The commentary part about this move.
    pub comment: Option<Range<usize>>,
    /// The man that moved, from and to (square indices), if the move could be made.
    pub moved: Option<(Man, u16, u16)>,
    /// This state's captures, in the list of its chunk of the line's states.
    pub captures: Range<u32>,
    /// Who moves next.
    pub next_side: TaflSide,
    /// The square of a man that must move again (berserk).
    pub berserker: Option<u16>,
    /// The game's end, if this move ended it.
    pub verdict: Option<Verdict>,
    /// Whether this board is the record's, checked move by move: false from a move that
    /// could not be made on. The moves after such a move are made where they can be, but
    /// not checked (one note says so, not an error for every later move whose man is
    /// elsewhere), and reach no verdict.
    pub checked: bool,
}

impl Ply {
    /// Moves its ranges `delta` bytes along, in place.
    pub(super) fn shift(&mut self, delta: isize) {
        self.range = shift_range(&self.range, delta);
        if let Some(comment) = &mut self.comment {
            *comment = shift_range(comment, delta);
        }
    }

    pub(super) fn shifted(&self, delta: isize) -> Ply {
        Ply {
            range: shift_range(&self.range, delta),
            comment: self.comment.as_ref().map(|c| shift_range(c, delta)),
            ..self.clone()
        }
    }
}

/// Makes a state's move on the board before it: the man moves, the captured men go (a
/// captured mercenary changes sides), as [`crate::otn::rules::apply`] did when the move was played.
pub(super) fn remake_move(cells: &mut [u8], ply: &Ply, captures: &[(u16, Man)]) {
    if let Some((_, from, to)) = ply.moved {
        let (from, to) = (usize::from(from), usize::from(to));
        cells[to] = cells[from];
        cells[from] = 0;
    }
    for (index, man) in captures {
        cells[usize::from(*index)] = if man.kind == crate::otn::board::TaflMan::Mercenary {
            Man::new(crate::otn::board::other_side(man.side), man.kind).code()
        } else {
            0
        };
    }
}

/// A move's full address (`7a.1.2b`), written out only when a diagnostic quotes it: most
/// moves have nothing wrong with them.
pub struct MoveLabel<'a> {
    pub path: &'a LinePath,
    pub address: AddressMove,
}

impl MoveLabel<'_> {
    /// Appends the label to `out` (see [`crate::otn::board::push_number`]).
    pub fn push_name(&self, out: &mut String) {
        if !self.path.is_main() {
            out.push_str(&self.path.prefix());
        }
        crate::otn::board::push_number(out, self.address.turn);
        out.push(char::from(b'a' + self.address.letter.min(25)));
    }
}

impl std::fmt::Display for MoveLabel<'_> {
    fn fmt(&self, out: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (at, variation) in &self.path.0 {
            write!(out, "{}.{variation}.", at.name())?;
        }
        write!(out, "{}", self.address.name())
    }
}
