//! Playing one move: the address it starts from, the number of moves a turn may have, and
//! making it on the board, legal or not.
//!
//! These are methods of [`Player`], which `replay` defines; they are kept apart only to keep
//! the files short.

use crate::diagnostic::Diagnostic;
use crate::otn::board::{Census, TaflSide};
use crate::otn::reader::moves::{shift_range, MoveRecord, MoveType};
use crate::otn::reader::AddressMove;
use crate::otn::rules::{apply, berserk_continuation, man_at, verdict_hinted};

use super::hashing::{board_hash, board_hash_after, position_hash_of};
use super::ply::{MoveLabel, Ply};
use super::positions::Repetitions;
use super::problems::{MoveProblem, Movement};
use super::{
    illegality, repetition_verdict, LastBoardFacts, Line, MadeMove, MoveToPlay, Played, Player,
    StartFrom,
};

impl Player<'_> {
    /// Plays one move of the record at the end of `line`: its address, the checks of its
    /// turn's length, the move made (or refused) on the board, its verdict and repetitions,
    /// and what is wrong with it, pushed with the state after it.
    pub(super) fn play_move(
        &mut self,
        line: &mut Line,
        repetitions: &mut Repetitions,
        to_play: MoveToPlay<'_>,
        start: &StartFrom,
    ) {
        #[cfg(test)]
        super::MOVES_PLAYED.with(|played| played.set(played.get() + 1));
        let (played, shift) = (to_play.played, to_play.shift);
        let record = match played {
            Played::Record(record) => Some(record),
            Played::Unreadable(_) => None,
        };
        let own_diagnostics = self.ply_diagnostics.len();
        let previous = line.plies.len() - 1;
        // The last board becomes this move's board before; the board after it, the last.
        let before = std::mem::take(&mut line.last_board);
        let (census_before, board_hash_before) = line
            .last_facts
            .0
            .take()
            .unwrap_or_else(|| (Census::of(&before), board_hash(&before)));
        let (previous_ply, _) = line.plies.as_read(previous);
        let side = previous_ply.next_side;
        let berserker = previous_ply.berserker;
        // After a move that could not be made, the boards are not the record's: what would
        // be found wrong with the moves would only echo it.
        let checking = previous_ply.checked;
        let address = self.next_address(line, start, previous_ply);
        let label = MoveLabel {
            path: &line.path,
            address,
        };
        if previous > 0 {
            self.check_turn_length(&to_play, address, &label);
        }
        let mut after = std::mem::take(&mut self.spare_board);
        after.clone_from(&before);
        // An unreadable move is skipped: its side's turn passes.
        let made = match record {
            Some(record) => self.make_move(record, (&before, &mut after), side, berserker, &label),
            None => MadeMove::default(),
        };
        let rules = self.rules;
        let next_berserker = made.moved.filter(|_| made.playable).and_then(|(_, _, to)| {
            berserk_continuation(rules, &after, usize::from(to), &made.outcome).map(|b| b as u16)
        });
        // A move made by a man of the side not to move still takes its side's place: the
        // other side moves next, as the record has it.
        let next_side = match (next_berserker, made.moved) {
            (Some(_), Some((man, _, _))) => man.side,
            _ => crate::otn::board::other_side(side),
        };
        let had_king = census_before.king.is_some();
        let census = match made.moved {
            Some((man, _, _)) => census_before.after_move(&after, man, &made.outcome.captures),
            None => census_before,
        };
        let mut verdict = if made.playable && checking {
            verdict_hinted(
                rules,
                &after,
                (census, had_king),
                side,
                next_berserker.is_some(),
                &mut self.verdict_hints,
            )
        } else {
            None
        };
        let board_hash = match made.moved {
            Some((_, from, to)) => board_hash_after(
                board_hash_before,
                (&before, &after),
                [usize::from(from), usize::from(to)]
                    .into_iter()
                    .chain(made.outcome.captures.iter().map(|(square, _)| *square)),
            ),
            None => board_hash_before,
        };
        let hash = position_hash_of(board_hash, next_side, next_berserker);
        let seen = repetitions.reach(hash, line.plies.len(), &line.plies);
        if checking && made.playable && verdict.is_none() && seen >= 3 && next_berserker.is_none() {
            verdict = repetition_verdict(rules, side);
        }
        // The info symbol against the board.
        if let Some((info, range)) = record.and_then(|record| record.info.as_ref()) {
            if made.playable {
                self.check_info(*info, range.clone(), &after, verdict, side, next_side);
            }
        }
        if shift != 0 {
            for problem in &mut self.ply_diagnostics[own_diagnostics..] {
                problem.shift(shift);
            }
        }
        let range = shift_range(played.range(), shift);
        if !checking {
            self.ply_diagnostics.truncate(own_diagnostics);
            self.say_moves_not_checked(line, start, &range);
        }
        line.push(
            (
                Ply {
                    address,
                    range,
                    comment: to_play.comment,
                    moved: made.moved,
                    captures: 0..0,
                    next_side,
                    berserker: next_berserker,
                    verdict,
                    checked: checking && made.playable,
                },
                hash,
            ),
            (made.outcome.captures.iter()).map(|(index, man)| (*index as u16, *man)),
            &mut self.ply_diagnostics,
            after,
        );
        line.last_facts = LastBoardFacts(Some((census, board_hash)));
        self.spare_board = before;
    }

    /// The address of the next move of `line`, whose last state is `previous_ply`: a new
    /// turn when the side that starts turns moves after the other side has.
    #[inline(always)]
    pub(super) fn next_address(
        &self,
        line: &Line,
        start: &StartFrom,
        previous_ply: &Ply,
    ) -> AddressMove {
        let previous = line.plies.len() - 1;
        if let Some(first) = start.first_address.filter(|_| previous == 0) {
            return first;
        }
        // The side whose move the last one was (made by a man of the other side, it was
        // still theirs).
        let last_mover = match previous.checked_sub(1) {
            Some(before_previous) => Some(line.plies.as_read(before_previous).0.next_side),
            None => previous_ply.moved.map(|(m, _, _)| m.side),
        };
        let start_side = if self.rules.attackers_first {
            TaflSide::Attackers
        } else {
            TaflSide::Defenders
        };
        let address = previous_ply.address;
        let new_turn = previous_ply.next_side == start_side
            && previous_ply.berserker.is_none()
            && last_mover != Some(start_side);
        if new_turn {
            AddressMove {
                turn: address.turn.saturating_add(1),
                letter: 0,
            }
        } else {
            AddressMove {
                turn: address.turn,
                letter: address.letter.saturating_add(1),
            }
        }
    }

    /// A move written first in its turn that the moves played make another turn's second,
    /// or the other way round.
    pub(super) fn check_turn_length(
        &mut self,
        to_play: &MoveToPlay<'_>,
        address: AddressMove,
        label: &MoveLabel<'_>,
    ) {
        let range = to_play.played.range();
        if to_play.first_of_turn && address.letter != 0 && to_play.turn_position > 0 {
            self.ply_diagnostics.push(MoveProblem::said(Diagnostic::warning(
                range.clone(),
                "turn-length",
                format!(
                    "by the moves played this is move {label}: the turn before lacks a move (a turn holds one move per side)"
                ),
            )));
        } else if !to_play.first_of_turn && address.letter == 0 {
            self.ply_diagnostics.push(MoveProblem::said(Diagnostic::warning(
                range.clone(),
                "turn-length",
                format!("this move starts turn {label}: a turn holds one move per side, unless a capture lets a berserk man move again"),
            )));
        }
    }

    /// `record` made on `boards.1` (a copy of the board before, `boards.0`), with what is
    /// wrong with it: squares off the board, no man to move, the wrong man named, an
    /// illegal move (made all the same when it can be), the move type and the captures
    /// written against the engine's.
    #[inline(always)]
    pub(super) fn make_move(
        &mut self,
        record: &MoveRecord,
        (before, after): (&[u8], &mut [u8]),
        side: TaflSide,
        berserker: Option<u16>,
        label: &MoveLabel<'_>,
    ) -> MadeMove {
        let mut made = MadeMove {
            playable: self.on_board(record),
            ..MadeMove::default()
        };
        let dim = self.rules.dim;
        if made.playable {
            let (from, to) = (record.from.0.index(dim), record.to.0.index(dim));
            match man_at(before, from) {
                None => {
                    self.ply_diagnostics.push(MoveProblem::NoMan {
                        range: record.from.1.clone(),
                        movement: Movement::of(record),
                    });
                    made.playable = false;
                }
                Some(man) => {
                    self.check_mover(record, man);
                    let illegality =
                        illegality(self.rules, before, (from, to), man, side, berserker);
                    // A move that breaks the rules is made all the same when the board
                    // allows it, so that the record goes on as written.
                    let physical = before[to] == 0 && from != to;
                    match illegality {
                        Some(why) => self.ply_diagnostics.push(MoveProblem::Illegal {
                            range: record.from.1.start..record.to.1.end,
                            movement: Movement::of(record),
                            why,
                            made: physical,
                        }),
                        None => made.legal = true,
                    }
                    if physical {
                        made.outcome = apply(self.rules, after, from, to);
                        made.moved = Some((man, from as u16, to as u16));
                    } else {
                        made.playable = false;
                    }
                }
            }
        }
        if made.moved.is_some() && made.legal {
            let actual = MoveType::of(made.outcome.jump, berserker.is_some());
            self.check_move_type(record, actual);
        }
        // Captures as written against the engine's.
        if made.playable {
            self.check_captures(record, &made.outcome, label);
        } else if !record.captures.is_empty() {
            self.ply_diagnostics
                .push(MoveProblem::said(Diagnostic::warning(
                    record.captures_range.clone(),
                    "capture-not-made",
                    format!("{label} could not be made, so it captures nothing"),
                )));
        }
        made
    }

    /// Whether both squares of `record` are on the board (saying so for each that is not).
    #[inline(always)]
    pub(super) fn on_board(&mut self, record: &MoveRecord) -> bool {
        let dim = self.rules.dim;
        let mut on_board = true;
        for (square, range) in [&record.from, &record.to] {
            if !square.on_board(dim) {
                self.ply_diagnostics
                    .push(MoveProblem::said(Diagnostic::error(
                        range.clone(),
                        "square-off-board",
                        format!("{} is off the {dim}×{dim} board", square.name()),
                    )));
                on_board = false;
            }
        }
        on_board
    }
}
