//! Playing a line of play turn by turn: each turn's number, its moves, a resignation, and
//! the warnings for moves written after the game has ended or left as placeholders.
//!
//! These are methods of [`Player`], which `replay` defines; they are kept apart only to keep
//! the files short.

use std::ops::Range;

use crate::model::prefetch::prefetch;

use crate::diagnostic::Diagnostic;
use crate::otn::board::side_name;
use crate::otn::reader::moves::{shift_range, takes_a_move, MoveWord};
use crate::otn::reader::LinePath;

use super::checks::{line_name, ordinal};
use super::positions::Repetitions;
use super::problems::MoveProblem;
use super::{
    copy_rest, keep_states, start_line, steps_into, Line, LineProgress, MoveToPlay, Played, Player,
    Reuse, StartFrom, TurnToPlay,
};

impl Player<'_> {
    /// Replays one line of play (the main line or a variation) from `start` through
    /// `turns`, keeping what `reuse` holds of the previous replay of this line.
    pub(super) fn play_line(
        &mut self,
        path: LinePath,
        parent: Option<(usize, usize)>,
        start: StartFrom,
        turns: Vec<usize>,
        reuse: Option<Reuse<'_>>,
    ) -> Line {
        let (mut line, start_hash) = start_line(path.clone(), parent, &start);
        let mut reused = 0;
        if let Some(reuse) = &reuse {
            let keep = reuse.keep.min(reuse.line.plies.len());
            if keep > 1 {
                keep_states(&mut line, reuse.line, keep);
                reused = keep - 1;
            }
        }
        // The states this replay plays, from the first not kept (the start, if none is).
        let first_played = if reused > 0 { line.plies.len() } else { 0 };
        let mut repetitions = match &reuse {
            Some(reuse) => Repetitions::keeping(&reuse.line.positions, first_played),
            None if path.is_main() => Repetitions::after(std::iter::empty()),
            None => Repetitions::after(
                (start.history.iter())
                    .chain(std::iter::once(&start_hash))
                    .copied(),
            ),
        };
        if first_played == 0 && path.is_main() {
            repetitions.reach(start_hash, 0, &line.plies);
        }
        repetitions.expected = (turns.iter())
            .map(|&turn| self.file.turns.outline(turn).moves)
            .sum::<usize>()
            .saturating_sub(reused);
        let ended = (line.plies.first_verdict_before(line.plies.len())).and_then(|at| {
            line.plies
                .as_read(at)
                .0
                .verdict
                .map(|verdict| (at, verdict))
        });
        let mut progress = LineProgress {
            reused,
            move_count: 0,
            previous_turn: None,
            ended,
            warned_after_end: ended.is_some_and(|(at, _)| at + 1 < line.plies.len()),
            copied_rest: false,
            may_step_in: true,
            played_until: None,
        };
        for (turn_position, &turn_index) in turns.iter().enumerate() {
            let outline = self.file.turns.outline(turn_index);
            let plays = !progress.copied_rest && progress.move_count + outline.moves > reused;
            let numbered_in_order =
                progress
                    .previous_turn
                    .map_or(outline.number == 1, |previous| {
                        outline.number > previous
                            && u64::from(outline.number) <= u64::from(previous) + 1
                    });
            if !plays && outline.only_moves && numbered_in_order && turn_position > 0 {
                // Kept or copied, and nothing to say about it.
                progress.previous_turn = Some(outline.number);
                progress.move_count += outline.moves;
                continue;
            }
            self.prefetch_turns_after(&turns, turn_position);
            let turn = TurnToPlay {
                index: turn_index,
                position: turn_position,
                last: turn_position + 1 == turns.len(),
            };
            self.play_turn(
                &mut line,
                &mut progress,
                &mut repetitions,
                turn,
                &start,
                reuse.as_ref(),
            );
        }
        line.turns = turns;
        if path.is_main() {
            let played = first_played..progress.played_until.unwrap_or(line.plies.len());
            line.positions = repetitions.into_positions(
                reuse.as_ref().map(|reuse| &reuse.line.positions),
                &line.plies,
                played,
            );
        }
        line
    }

    /// Plays the moves of one turn of `line`, and says what is wrong with its number, its
    /// placeholders and its resignations.
    #[inline(always)]
    pub(super) fn play_turn(
        &mut self,
        line: &mut Line,
        progress: &mut LineProgress,
        repetitions: &mut Repetitions,
        to_play: TurnToPlay,
        start: &StartFrom,
        reuse: Option<&Reuse<'_>>,
    ) {
        // A turn is read where it was first read, `shift` bytes off, rather than copied
        // moved along: only the moves played are moved, one at a time.
        let (turn, shift) = self.file.turns.as_read(to_play.index);
        let shifted = |range: &Range<usize>| shift_range(range, shift);
        self.check_turn_number(
            &line.path,
            progress.previous_turn,
            turn.address.turn,
            shifted(&turn.address.range),
        );
        progress.previous_turn = Some(turn.address.turn);
        let comments: &[Range<usize>] =
            turn.commentary.as_ref().map_or(&[], |c| c.parts.as_slice());
        let mut real_moves = 0usize;
        let mut placeholders = 0usize;
        for (word_position, word) in turn.moves.iter().enumerate() {
            match word {
                MoveWord::Placeholder(range) => {
                    let misplaced = if line.path.is_main() {
                        Some("`.....` stands for a parent line's move, at the start of a variation: the main line has none")
                    } else if to_play.position != 0 || real_moves > 0 {
                        Some("`.....` only stands at the start of a variation's first turn, for the moves it shares with its parent line")
                    } else {
                        None
                    };
                    match misplaced {
                        Some(why) => self.diagnostics.push(Diagnostic::error(
                            shifted(range),
                            "misplaced-placeholder",
                            why,
                        )),
                        None => placeholders += 1,
                    }
                }
                MoveWord::Bad { .. } if !takes_a_move(word_position, word) => {}
                MoveWord::Resign(range) => {
                    let more_after = word_position + 1 < turn.moves.len() || !to_play.last;
                    self.resign(line, progress.move_count, start, shifted(range), more_after);
                }
                MoveWord::Move(_) | MoveWord::Bad { .. } => {
                    let played = match word {
                        MoveWord::Move(record) => Played::Record(record),
                        _ => Played::Unreadable(word.range_ref()),
                    };
                    real_moves += 1;
                    if progress.move_count < progress.reused || progress.copied_rest {
                        progress.move_count += 1;
                        continue;
                    }
                    let record_range = shifted(played.range());
                    if let Some(reuse) = reuse {
                        let from_here = to_play.index >= reuse.same_turns_from
                            && shifted(&turn.range).start >= reuse.tail_from;
                        if from_here && steps_into(line, progress, reuse, &record_range) {
                            // The rest of the line is the previous replay's.
                            progress.played_until = Some(line.plies.len());
                            copy_rest(line, reuse.line, reuse.delta);
                            progress.copied_rest = true;
                            progress.move_count += 1;
                            continue;
                        }
                    }
                    self.warn_once_after_end(line, progress, &record_range);
                    let comment = (comments.get(real_moves - 1))
                        .map(shifted)
                        .filter(|c| !c.is_empty());
                    let to_play = MoveToPlay {
                        played,
                        shift,
                        comment,
                        turn_position: to_play.position,
                        first_of_turn: real_moves == 1 && placeholders == 0,
                    };
                    self.play_move(line, repetitions, to_play, start);
                    if progress.ended.is_none() {
                        progress.ended = line.last_ply_verdict();
                    }
                    progress.move_count += 1;
                }
            }
        }
        if to_play.position == 0 && !line.path.is_main() && real_moves + placeholders > 0 {
            self.check_placeholders(line, placeholders, shifted(&turn.address.range));
        }
    }

    /// Turn numbers: one after the other, the first one 1.
    pub(super) fn check_turn_number(
        &mut self,
        path: &LinePath,
        previous: Option<u32>,
        written: u32,
        range: Range<usize>,
    ) {
        let Some(previous) = previous else {
            if written != 1 {
                self.diagnostics.push(Diagnostic::error(
                    range,
                    "missing-turn",
                    format!("the first turn of {} is numbered 1", line_name(path)),
                ));
            }
            return;
        };
        if u64::from(written) > u64::from(previous) + 1 {
            let missing = if u64::from(written) == u64::from(previous) + 2 {
                format!("turn {} is missing", u64::from(previous) + 1)
            } else {
                format!(
                    "turns {} to {} are missing",
                    u64::from(previous) + 1,
                    written - 1
                )
            };
            self.diagnostics.push(Diagnostic::error(
                range,
                "missing-turn",
                format!(
                    "{missing} before {}{written}; OpenTafl drops every turn after a gap, ppn-ls replays them in order",
                    path.prefix()
                ),
            ));
        } else if written <= previous {
            self.diagnostics.push(Diagnostic::error(
                range,
                "repeated-turn",
                format!(
                    "turn {}{written} comes after turn {previous}; its moves are replayed in the order written",
                    path.prefix()
                ),
            ));
        }
    }

    /// A resignation: the side to move at the state the moves so far reached resigns
    /// (the first resignation of the line counts), and a record that goes on after it says so.
    pub(super) fn resign(
        &mut self,
        line: &mut Line,
        move_count: usize,
        start: &StartFrom,
        range: Range<usize>,
        more_after: bool,
    ) {
        let last = (line.plies.get(move_count))
            .or_else(|| line.plies.last())
            .map_or(start.side, |p| p.next_side);
        if line.resigned.is_none() {
            line.resigned = Some((last, range.clone()));
        }
        if more_after {
            self.diagnostics.push(Diagnostic::warning(
                range,
                "move-after-end",
                format!(
                    "the {} resign here, yet the record goes on",
                    side_name(last)
                ),
            ));
        }
    }

    /// Past the game's end, the first move played says so (once).
    pub(super) fn warn_once_after_end(
        &mut self,
        line: &Line,
        progress: &mut LineProgress,
        range: &Range<usize>,
    ) {
        let Some((at, verdict)) = progress.ended else {
            return;
        };
        if !progress.warned_after_end {
            progress.warned_after_end = true;
            self.ply_diagnostics.push(MoveProblem::said(
                Diagnostic::warning(
                    range.clone(),
                    "move-after-end",
                    format!(
                        "the game ended after {} ({}); the moves after it are replayed all the same",
                        line.label(at),
                        verdict.describe()
                    ),
                )
                .with_related(line.plies.at(at).range, "the game ends here"),
            ));
        }
    }

    /// A variation's first turn holds one `.....` for each move of the turn it shares with
    /// its parent line.
    pub(super) fn check_placeholders(
        &mut self,
        line: &Line,
        placeholders: usize,
        range: Range<usize>,
    ) {
        let expected = (line.plies.get(1))
            .filter(|p| p.address.turn == 1)
            .map_or(placeholders, |p| usize::from(p.address.letter));
        if placeholders != expected {
            self.diagnostics.push(Diagnostic::warning(
                range,
                "variation-placeholders",
                format!(
                    "this variation's first move is the {} move of its turn: write {} `.....` before it",
                    ordinal(expected + 1),
                    expected
                ),
            ));
        }
    }

    /// Asks for the memory of the turns after `turns[position]` ahead of their replay: the
    /// record of the one after next, and the moves and commentary of the next one.
    pub(super) fn prefetch_turns_after(&self, turns: &[usize], position: usize) {
        if let Some(&after_next) = turns.get(position + 2) {
            prefetch(self.file.turns.as_read(after_next).0);
        }
        if let Some(&next) = turns.get(position + 1) {
            let (next, _) = self.file.turns.as_read(next);
            for word in next.moves.iter().take(2) {
                prefetch(word);
            }
            if let Some(part) = next.commentary.as_ref().and_then(|c| c.parts.first()) {
                prefetch(part);
            }
        }
    }
}
