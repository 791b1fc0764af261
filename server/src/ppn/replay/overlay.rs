//! How a game's state after an edit differs from the state at the same move before it, as
//! a patch that makes the new state from the old one: pieces gone, changed or added, the
//! active pieces, and the serial numbers of pieces born after the edit (one drop fewer
//! before them numbers them all one lower).
//!
//! While the later moves read nothing the patch touches (their [`Footprint`]), each does
//! to the new board what it did to the old one, and the patch still holds after them: the
//! states after an edit that changed a board for good are the old states patched, not
//! played again.

use crate::model::piece::Piece;
use crate::ppn::rules::apply::MAX_PIECES;
use crate::ppn::rules::footprint::{ActiveUse, Footprint, FootprintRecorder};
use crate::ppn::rules::state::{Board, GameState, PieceTag};

/// Past this many pieces that differ, the moves after are played again: most of them would
/// read one of those pieces anyway.
const MOST_DIFFERENCES: usize = 64;

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Overlay {
    /// Serial numbers above this one (pieces born after the last state both revisions
    /// share) are `shift` higher on the new board.
    threshold: u32,
    shift: i64,
    /// Old serial numbers of the pieces the new board lacks, in increasing order.
    removed: Vec<u32>,
    /// Old serial numbers of pieces that are different on the new board, in increasing
    /// order, with what they are there.
    changed: Vec<(u32, Piece, PieceTag)>,
    /// The pieces only the new board holds, in board order, each directly above the old
    /// piece of that serial number (and those added before it), or at the bottom.
    added: Vec<(Option<u32>, Piece, PieceTag)>,
    /// The new active pieces, where they are not the old ones renumbered.
    active: Option<Vec<PieceTag>>,
    /// Where the pieces of the patch are on either board (the places added pieces are
    /// anchored to included): a move that looks there may act differently.
    watched_points: Vec<(f64, f64)>,
    /// The pieces of the patch as they are on either board: a search for one of them may
    /// find something else.
    watched_pieces: Vec<Piece>,
}

impl Overlay {
    /// The identity of a piece of the old board on the new one; `None` for a piece born
    /// after the threshold whose number would fall at or below it (it cannot be there).
    fn renamed(&self, tag: PieceTag) -> Option<PieceTag> {
        let serial = tag.serial();
        if serial <= self.threshold {
            return Some(tag);
        }
        let renamed = i64::from(serial) + self.shift;
        let renamed = u32::try_from(renamed)
            .ok()
            .filter(|&r| r > self.threshold)?;
        Some(tag.with_serial(renamed))
    }

    /// The patch that makes `new` from `old`, two states of a game at the same move whose
    /// pieces born up to serial `threshold` are the same pieces; `None` when the boards
    /// differ too much.
    pub(crate) fn between(old: &GameState, new: &GameState, threshold: u32) -> Option<Overlay> {
        if old.scale_factor != new.scale_factor {
            return None;
        }
        let mut overlay = Overlay {
            threshold,
            shift: 0,
            removed: Vec::new(),
            changed: Vec::new(),
            added: Vec::new(),
            active: None,
            watched_points: Vec::new(),
            watched_pieces: Vec::new(),
        };
        // The usual answer once the boards are alike again, found without a table.
        if old == new {
            return Some(overlay);
        }
        overlay.shift = i64::from(new.max_serial) - i64::from(old.max_serial);
        let mut by_serial: Vec<(u32, usize)> = new
            .board
            .tags
            .iter()
            .enumerate()
            .map(|(index, tag)| (tag.serial(), index))
            .collect();
        by_serial.sort_unstable();
        // Where each old piece is on the new board, if it is there.
        let found: Vec<Option<(PieceTag, usize)>> = old
            .board
            .tags
            .iter()
            .map(|&tag| {
                let renamed = overlay.renamed(tag)?;
                let at = by_serial
                    .binary_search_by_key(&renamed.serial(), |(serial, _)| *serial)
                    .ok()?;
                Some((renamed, by_serial[at].1))
            })
            .collect();
        // The pieces found on both boards in the same order stay where they are; the
        // others are taken out and put back where the new board has them.
        let in_order = longest_increasing(&found);
        // For each piece of the new board that stays, its old serial number.
        let mut old_serial_of: Vec<Option<u32>> = vec![None; new.board.pieces.len()];
        for (old_index, (piece, &tag)) in old.board.pieces.iter().zip(&old.board.tags).enumerate() {
            match found[old_index].filter(|_| in_order[old_index]) {
                Some((renamed, index)) => {
                    old_serial_of[index] = Some(tag.serial());
                    let (new_piece, new_tag) = (new.board.pieces[index], new.board.tags[index]);
                    if new_piece != *piece || new_tag != renamed {
                        overlay.changed.push((tag.serial(), new_piece, new_tag));
                        overlay.watch(piece);
                        overlay.watch(&new_piece);
                    }
                }
                None => {
                    overlay.removed.push(tag.serial());
                    overlay.watch(piece);
                }
            }
        }
        if overlay.removed.len() + overlay.changed.len() > MOST_DIFFERENCES {
            return None;
        }
        // The matched piece the next added one goes above: its old serial number and where
        // it is on the new board.
        let mut anchor: Option<(u32, usize)> = None;
        for (index, (piece, &tag)) in new.board.pieces.iter().zip(&new.board.tags).enumerate() {
            if let Some(serial) = old_serial_of[index] {
                anchor = Some((serial, index));
                continue;
            }
            overlay
                .added
                .push((anchor.map(|(serial, _)| serial), *piece, tag));
            overlay.watch(piece);
            if let Some((_, below)) = anchor {
                let below = new.board.pieces[below];
                overlay.watched_points.push((below.x, below.y));
            }
        }
        if overlay.removed.len() + overlay.changed.len() + overlay.added.len() > MOST_DIFFERENCES {
            return None;
        }
        let renamed_active: Option<Vec<PieceTag>> =
            old.active.iter().map(|&tag| overlay.renamed(tag)).collect();
        if renamed_active.as_deref() != Some(new.active.as_slice()) {
            overlay.active = Some(new.active.clone());
        }
        overlay
            .changed
            .sort_unstable_by_key(|(serial, _, _)| *serial);
        overlay.removed.sort_unstable();
        Some(overlay)
    }

    fn watch(&mut self, piece: &Piece) {
        self.watched_points.push((piece.x, piece.y));
        self.watched_pieces.push(*piece);
    }

    /// Whether the two states are the same.
    pub(crate) fn is_empty(&self) -> bool {
        self.shift == 0
            && self.removed.is_empty()
            && self.changed.is_empty()
            && self.added.is_empty()
            && self.active.is_none()
    }

    /// The new state at a later move, from the old state there.
    pub(crate) fn apply(&self, old: &GameState) -> GameState {
        let count = old.board.pieces.len() + self.added.len();
        let mut board = Board {
            pieces: Vec::with_capacity(count),
            tags: Vec::with_capacity(count),
        };
        let mut added = self.added.iter().peekable();
        while let Some((_, piece, tag)) = added.next_if(|(anchor, _, _)| anchor.is_none()) {
            board.pieces.push(*piece);
            board.tags.push(*tag);
        }
        for (piece, &tag) in old.board.pieces.iter().zip(&old.board.tags) {
            let serial = tag.serial();
            if self.removed.binary_search(&serial).is_ok() {
                continue;
            }
            match self
                .changed
                .binary_search_by_key(&serial, |(serial, _, _)| *serial)
            {
                Ok(at) => {
                    let (_, piece, tag) = self.changed[at];
                    board.pieces.push(piece);
                    board.tags.push(tag);
                }
                Err(_) => {
                    board.pieces.push(*piece);
                    board.tags.push(self.renamed(tag).unwrap_or(tag));
                }
            }
            for (_, piece, tag) in self
                .added
                .iter()
                .filter(|(anchor, _, _)| *anchor == Some(serial))
            {
                board.pieces.push(*piece);
                board.tags.push(*tag);
            }
        }
        let active = match &self.active {
            Some(active) => active.clone(),
            None => old
                .active
                .iter()
                .map(|&tag| self.renamed(tag).unwrap_or(tag))
                .collect(),
        };
        GameState {
            board,
            move_start: None,
            active,
            max_serial: u32::try_from(i64::from(old.max_serial) + self.shift)
                .unwrap_or(old.max_serial),
            scale_factor: old.scale_factor,
            macros: old.macros.clone(),
            options: old.options.clone(),
            read_submoves: old.read_submoves.clone(),
            footprint: FootprintRecorder::default(),
        }
    }

    /// Whether moves that read what `footprint` says may act otherwise on the new board.
    pub(crate) fn conflicts_with(&self, footprint: &Footprint) -> bool {
        let bottom_added = self.added.iter().any(|(anchor, _, _)| anchor.is_none());
        let more_pieces = self.added.len().abs_diff(self.removed.len());
        footprint.read_whole()
            || self
                .watched_points
                .iter()
                .any(|&point| footprint.may_have_read_near(point))
            || self
                .watched_pieces
                .iter()
                .any(|piece| footprint.searched_for(piece))
            || (bottom_added && footprint.puts_at_bottom())
            || (self.active.is_some()
                && matches!(footprint.active_use(), ActiveUse::Read | ActiveUse::Modify))
            || (more_pieces > 0 && footprint.most_pieces_at_drop() + more_pieces >= MAX_PIECES)
    }

    /// The patch after moves that read what `footprint` says and do not conflict with it:
    /// the same, but for active pieces they replaced.
    pub(crate) fn after(mut self, footprint: &Footprint) -> Overlay {
        if footprint.active_use() == ActiveUse::Set {
            self.active = None;
        }
        self
    }
}

/// Which of the items found (at increasing places of another list) make the longest run of
/// increasing places: those are kept in order, the others moved.
fn longest_increasing(found: &[Option<(PieceTag, usize)>]) -> Vec<bool> {
    // Patience sorting: `tails[k]` is the item ending the best run of length k + 1 so far.
    let mut tails: Vec<usize> = Vec::new();
    let mut before: Vec<Option<usize>> = vec![None; found.len()];
    let place = |item: usize| found[item].map_or(0, |(_, place)| place);
    for (item, entry) in found.iter().enumerate() {
        let Some((_, at)) = entry else { continue };
        let length = tails.partition_point(|&tail| place(tail) < *at);
        before[item] = length.checked_sub(1).map(|k| tails[k]);
        if length == tails.len() {
            tails.push(item);
        } else {
            tails[length] = item;
        }
    }
    let mut kept = vec![false; found.len()];
    let mut item = tails.last().copied();
    while let Some(at) = item {
        kept[at] = true;
        item = before[at];
    }
    kept
}
