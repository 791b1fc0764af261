//! Splitting a game's movetext into labelled moves.
//!
//! The order of operations is the reference parser's, because it decides what the
//! moves' texts are: the movetext is cut into whitespace-separated tokens, every token
//! is brace-expanded (a token that both starts with `{` and ends with `}` is left
//! alone), the expansions are joined with single spaces, each `;` outside a comment
//! becomes a lone `.` MoveNumber, the text is cut at the MoveNumbers, and only then
//! are comments taken out of each move. Every character keeps track of where it came
//! from in the file, so tokens and MoveNumbers can be mapped back to their source.
//!
//! Three accidents of the reference are not kept: moves in a movetext without any
//! MoveNumber are labelled `SetupFn..` (the reference leaves them unlabelled), a
//! movetext of only whitespace has no moves (the reference records one empty move), and a
//! label of over 128 bytes (a MoveNumber continued by over a hundred `;`) is written
//! short, `1.…(130 dots)` (see `labels`).

use std::ops::Range;

pub use crate::diagnostic::Severity;
use crate::model::edit::TextEdit;
use labels::{continue_label, continues, set_written_label};
use working_text::{closes_first, NextFound};

mod char_class;
mod labels;
pub use labels::{
    label_of, stem_and_dots, user_label, BEFORE_FIRST_MOVE_NUMBER_LABEL, SETUP_LABEL,
};
mod working_text;
// The steps of a split, each in a file of its own; this file runs them and resumes them.
mod duplicate_labels;
mod expansion;
mod records;
mod scan;
use duplicate_labels::report_duplicate_labels;
use expansion::{expand_tokens, token_starting_at};
pub use expansion::{MAX_MOVETEXT_EXPANDED_BYTES, MAX_MOVETEXT_EXPANSIONS};
pub use records::{MoveRecord, MoveToken, MovetextProblem, MovetextProblemCode, MovetextSplit};
use records::{ResumePoint, SplitStart, Words};
pub use scan::is_movetext_whitespace;
use scan::{cut_at_move_numbers, find_comment_spans, tokens_outside, write_comment_text};

/// Splits the movetext at `movetext` (byte offsets into `file_text`) into moves.
/// An empty movetext (only whitespace) has no moves.
pub fn split_movetext(file_text: &str, movetext: Range<usize>) -> MovetextSplit {
    let split = split_movetext_resumable(file_text, movetext);
    MovetextSplit {
        moves: split.moves,
        problems: split.problems,
    }
}

/// A movetext split that the split of a later revision of the file can start from.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ResumableSplit {
    pub moves: Vec<MoveRecord>,
    pub problems: Vec<MovetextProblem>,
    movetext_start: usize,
    movetext_end: usize,
    /// Per move: whether and how a split can start at its MoveNumber.
    resume: Vec<Option<ResumePoint>>,
}

/// [`split_movetext`], keeping what [`ResumableSplit::resplit`] needs.
pub fn split_movetext_resumable(file_text: &str, movetext: Range<usize>) -> ResumableSplit {
    split_movetext_in_windows_of(file_text, movetext, SPLIT_WINDOW_BYTES)
}

/// [`split_movetext_resumable`] with windows of about `window_bytes` (the movetext is split
/// whole when it is no longer than two windows): any size gives the same split, which the
/// fuzzer checks with windows of a few bytes.
pub fn split_movetext_in_windows_of(
    file_text: &str,
    movetext: Range<usize>,
    window_bytes: usize,
) -> ResumableSplit {
    let parts = split_in_windows(file_text, &movetext, window_bytes).unwrap_or_else(|| {
        vec![split_part(
            file_text,
            movetext.clone(),
            SplitStart::at_movetext_start(),
        )]
    });
    joined_parts(parts, &movetext)
}

/// The split made of the splits of consecutive stretches of `movetext`.
fn joined_parts(parts: Vec<SplitPart>, movetext: &Range<usize>) -> ResumableSplit {
    let moves = parts.iter().map(|part| part.moves.len()).sum();
    let mut split = ResumableSplit {
        moves: Vec::with_capacity(moves),
        problems: Vec::new(),
        movetext_start: movetext.start,
        movetext_end: movetext.end,
        resume: Vec::with_capacity(moves),
    };
    // A split reports its problems one kind after the other.
    for kind in [
        ProblemKind::Comment,
        ProblemKind::Expansion,
        ProblemKind::Token,
    ] {
        for part in &parts {
            split.problems.extend(
                part.problems
                    .iter()
                    .filter(|problem| ProblemKind::of(problem.code) == kind)
                    .cloned(),
            );
        }
    }
    for part in parts {
        split.moves.extend(part.moves);
        split.resume.extend(part.resume);
    }
    report_duplicate_labels(&split.moves, &mut split.problems);
    split
}

/// A long movetext is split a window of about this many bytes at a time, so that the
/// working text and the records being made stay some hundred kilobytes.
const SPLIT_WINDOW_BYTES: usize = 32 << 10;

/// The split of a long movetext, one window after the other, each window starting at a
/// MoveNumber that begins a line outside any comment; `None` when the movetext is short or
/// a window does not start as the whole split would (the caller then splits it whole).
///
/// Whether a spot is in a comment depends on the first brace after it (once braces are
/// expanded), which may lie windows later. A window reads as it would in the whole split
/// when every comment opened before it is closed and its split starts with its MoveNumber:
/// then the first brace after its start is not a `}`, and by the same token for every later
/// window, each window's spots read as they do in the whole split. The first condition is
/// known before the window is split, the second after. The window before a MoveNumber ends
/// one byte early, without the line end, as a move's text ends before the MoveNumber that
/// follows it.
fn split_in_windows(
    file_text: &str,
    movetext: &Range<usize>,
    window_bytes: usize,
) -> Option<Vec<SplitPart>> {
    let text = file_text.get(movetext.clone())?;
    if text.len() <= 2 * window_bytes {
        return None;
    }
    let mut parts = Vec::new();
    let mut window_start = 0;
    let mut start = SplitStart::at_movetext_start();
    let mut braces = NextFound::default();
    loop {
        let cut = next_window_cut(
            text,
            window_start,
            window_start + window_bytes,
            window_bytes / 2,
            &mut braces,
        );
        let window_end = cut.as_ref().map_or(text.len(), |cut| cut.start - 1);
        let window = movetext.start + window_start..movetext.start + window_end;
        let previous_label = start.previous_label.clone();
        let part = split_part(file_text, window, start);
        let starts_at_window = window_start == 0
            || (part
                .moves
                .first()
                .and_then(MoveRecord::label_source)
                .map(|label| label.start)
                == Some(movetext.start + window_start)
                && part.resume.first().copied().flatten().is_some());
        if !starts_at_window {
            return None;
        }
        start = SplitStart {
            expanded_strings: part.expanded_strings,
            expanded_bytes: part.expanded_bytes,
            over_cap: part.over_cap,
            previous_label: part
                .moves
                .last()
                .map_or(previous_label, |record| record.label().to_string()),
        };
        parts.push(part);
        let Some(cut) = cut else {
            return Some(parts);
        };
        window_start = cut.start;
    }
}

/// The first place at or after `from` where a line starts with a MoveNumber of digits and
/// dots followed by a space, every comment opened since `window_start` is closed, and the
/// next brace is not a `}`: the MoveNumber's range in `text`. `None` when there is none at
/// least `last_window` bytes before the end. `braces` remembers where the next brace was
/// found, so that a long text without braces is searched once, not once per window.
fn next_window_cut(
    text: &str,
    window_start: usize,
    from: usize,
    last_window: usize,
    braces: &mut NextFound,
) -> Option<Range<usize>> {
    let bytes = text.as_bytes();
    let mut depth = CommentDepth::default();
    depth.read(&bytes[window_start..from.min(bytes.len())]);
    let mut at = from;
    while at + last_window < bytes.len() {
        let line_start = at + memchr::memchr(b'\n', &bytes[at..])? + 1;
        depth.read(&bytes[at..line_start]);
        at = line_start;
        if depth.open > 0 {
            continue;
        }
        let digits = bytes[line_start..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        let dots = bytes[line_start + digits..]
            .iter()
            .take_while(|&&b| b == b'.')
            .count();
        let end = line_start + digits + dots;
        if digits == 0 || dots == 0 || bytes.get(end) != Some(&b' ') {
            continue;
        }
        if closes_first(bytes, braces, line_start) {
            continue;
        }
        return Some(line_start..end);
    }
    None
}

/// How many comments are open, counted as the splitter counts them, over text read a piece
/// at a time.
#[derive(Default)]
struct CommentDepth {
    open: usize,
    after_backslash: bool,
}

impl CommentDepth {
    fn read(&mut self, bytes: &[u8]) {
        // Braces and backslashes are ASCII: a byte equal to one is that character.
        for &byte in bytes {
            if !self.after_backslash {
                match byte {
                    b'{' => self.open += 1,
                    b'}' => self.open = self.open.saturating_sub(1),
                    _ => {}
                }
            }
            self.after_backslash = byte == b'\\';
        }
    }
}

impl ResumableSplit {
    /// The split of `movetext` in `new_text`, which `edit` made from the text of this
    /// split; and how many of the first moves are this split's own. Exactly what
    /// [`split_movetext_resumable`] gives, but the text is only split again from the last
    /// MoveNumber before the change where that cannot change how the text before it
    /// splits, and only up to the first MoveNumber after the change where the split is
    /// back in step with this one: the moves after it are this split's, moved along.
    pub fn resplit(
        &self,
        new_text: &str,
        movetext: Range<usize>,
        edit: &TextEdit,
    ) -> (ResumableSplit, usize) {
        let (split, kept, _) = self.resplit_in_step(new_text, movetext, edit);
        (split, kept)
    }

    /// [`ResumableSplit::resplit`], and the index from which the new moves are this split's
    /// moves moved along (the number of moves when the split was not back in step).
    pub fn resplit_in_step(
        &self,
        new_text: &str,
        movetext: Range<usize>,
        edit: &TextEdit,
    ) -> (ResumableSplit, usize, usize) {
        match self.try_resplit(new_text, movetext.clone(), edit) {
            Some(resumed) => resumed,
            None => {
                let split = split_movetext_resumable(new_text, movetext);
                let count = split.moves.len();
                (split, 0, count)
            }
        }
    }

    fn try_resplit(
        &self,
        new_text: &str,
        movetext: Range<usize>,
        edit: &TextEdit,
    ) -> Option<(ResumableSplit, usize, usize)> {
        let unchanged_before = edit.start;
        if self.movetext_start != movetext.start {
            return None;
        }
        // The MoveNumber and the whitespace after it must be unchanged, so that it still
        // is one; the moves before it then read the same.
        let starting_before = self
            .moves
            .partition_point(|record| record.source().start < unchanged_before);
        let kept = (1..starting_before).rev().find(|&index| {
            self.resume[index].is_some()
                && self.moves[index]
                    .label_source()
                    .is_some_and(|label| label.end < unchanged_before)
        });
        let Some(kept) = kept else {
            // An edit in or before the first MoveNumber: the window starts with the
            // movetext.
            let start = movetext.start..movetext.start;
            let at_start = SplitStart::at_movetext_start();
            return self.split_window(new_text, &movetext, edit, 0, &start, &at_start);
        };
        let point = self.resume[kept]?;
        let label = self.moves[kept].label_source()?;
        let start = SplitStart {
            expanded_strings: point.expanded_strings,
            expanded_bytes: point.expanded_bytes,
            over_cap: point.over_cap,
            previous_label: self.moves[kept - 1].label().to_string(),
        };
        if let Some(in_step) = self.split_window(new_text, &movetext, edit, kept, &label, &start) {
            return Some(in_step);
        }
        let part = split_part(new_text, label.start..movetext.end, start);
        // The text before the MoveNumber reads differently when a `}` now comes before
        // any `{` after it; but then the MoveNumber is inside a comment and no longer one.
        let starts_alike =
            part.moves.first().and_then(|record| record.label_source()) == Some(label.clone());
        if !starts_alike {
            return None;
        }
        let before = |problem: &&MovetextProblem| problem.range.start < label.start;
        let mut problems = Vec::with_capacity(self.problems.len() + part.problems.len());
        for kind in [
            ProblemKind::Comment,
            ProblemKind::Expansion,
            ProblemKind::Token,
        ] {
            let of_kind = |problem: &&MovetextProblem| ProblemKind::of(problem.code) == kind;
            problems.extend(self.problems.iter().filter(before).filter(of_kind).cloned());
            problems.extend(part.problems.iter().filter(of_kind).cloned());
        }
        let mut moves = Vec::with_capacity(kept + part.moves.len());
        moves.extend(self.moves[..kept].iter().cloned());
        moves.extend(part.moves);
        let mut resume = Vec::with_capacity(moves.len());
        resume.extend_from_slice(&self.resume[..kept]);
        resume.extend(part.resume);
        let mut split = ResumableSplit {
            moves,
            problems,
            movetext_start: movetext.start,
            movetext_end: movetext.end,
            resume,
        };
        report_duplicate_labels(&split.moves, &mut split.problems);
        let count = split.moves.len();
        Some((split, kept, count))
    }

    /// The split when only the stretch from move `kept` (whose MoveNumber is `label`; with
    /// `kept` 0, from the movetext's start, `label` empty there) to a MoveNumber after the
    /// edit has to be split again: the split of that stretch ends in
    /// the state this split had at that MoveNumber, and nothing after it can read the
    /// stretch differently. `None` when no such MoveNumber is found.
    fn split_window(
        &self,
        new_text: &str,
        movetext: &Range<usize>,
        edit: &TextEdit,
        kept: usize,
        label: &Range<usize>,
        start: &SplitStart,
    ) -> Option<(ResumableSplit, usize, usize)> {
        let delta = edit.new_end as isize - edit.old_end as isize;
        if movetext.end.checked_add_signed(-delta)? != self.movetext_end {
            return None;
        }
        // The first MoveNumber well after the edit where a split can start.
        let first_after = self
            .moves
            .partition_point(|record| record.source().start <= edit.old_end.saturating_add(1));
        let cut = (first_after.max(kept + 1)..self.moves.len())
            .find(|&index| self.resume[index].is_some())?;
        let old_cut_label = self.moves[cut].label_source().clone()?;
        if old_cut_label.start <= edit.old_end {
            return None;
        }
        let cut_at = old_cut_label.start.checked_add_signed(delta)?;
        let window = label.start..cut_at;
        let window_text = new_text.get(window.clone())?;
        // Inside the stretch, whether a spot is in a comment depends on the first brace
        // after it; past the stretch that brace must not be a `}`, which would make spots
        // of the stretch read as comment. And the stretch must close every comment it opens.
        let after = new_text.get(cut_at..movetext.end)?;
        if after
            .find(['{', '}'])
            .is_some_and(|at| after[at..].starts_with('}'))
        {
            return None;
        }
        if comment_depth_at_end(window_text) != 0 {
            return None;
        }
        let part = split_part(
            new_text,
            window.clone(),
            SplitStart {
                expanded_strings: start.expanded_strings,
                expanded_bytes: start.expanded_bytes,
                over_cap: start.over_cap,
                previous_label: start.previous_label.clone(),
            },
        );
        // A window that starts with the movetext reads as the whole split does.
        let starts_alike = kept == 0
            || part
                .moves
                .first()
                .and_then(|record| record.label_source())
                .as_ref()
                == Some(label);
        let old_point = self.resume[cut]?;
        // The label of the move before the cut only names the cut's move when that is
        // written `.` (the label before it, and a dot).
        let cut_is_numbered = !continues(self.moves[cut].label(), self.moves[cut - 1].label());
        let ends_alike = part.moves.last().is_some_and(|record| {
            (cut_is_numbered || record.label() == self.moves[cut - 1].label())
                && record.source().end <= cut_at
        }) && (part.expanded_strings, part.expanded_bytes, part.over_cap)
            == (
                old_point.expanded_strings,
                old_point.expanded_bytes,
                old_point.over_cap,
            );
        if !starts_alike || !ends_alike {
            return None;
        }
        let shift = |range: &Range<usize>| {
            range.start.saturating_add_signed(delta)..range.end.saturating_add_signed(delta)
        };
        let before = |problem: &&MovetextProblem| problem.range.start < label.start;
        let after_cut = |problem: &&MovetextProblem| problem.range.start >= old_cut_label.start;
        let mut problems = Vec::with_capacity(self.problems.len() + part.problems.len());
        for kind in [
            ProblemKind::Comment,
            ProblemKind::Expansion,
            ProblemKind::Token,
        ] {
            let of_kind = |problem: &&MovetextProblem| ProblemKind::of(problem.code) == kind;
            problems.extend(self.problems.iter().filter(before).filter(of_kind).cloned());
            problems.extend(part.problems.iter().filter(of_kind).cloned());
            problems.extend(self.problems.iter().filter(after_cut).filter(of_kind).map(
                |problem| MovetextProblem {
                    range: shift(&problem.range),
                    ..problem.clone()
                },
            ));
        }
        let part_moves = part.moves.len();
        let mut moves = Vec::with_capacity(self.moves.len() + part.moves.len());
        moves.extend(self.moves[..kept].iter().cloned());
        moves.extend(part.moves);
        moves.extend(self.moves[cut..].iter().map(|record| record.shifted(delta)));
        let mut resume = Vec::with_capacity(moves.len());
        resume.extend_from_slice(&self.resume[..kept]);
        resume.extend(part.resume);
        resume.extend_from_slice(&self.resume[cut..]);
        let in_step_from = kept + part_moves;
        let window_moves = kept..kept + (cut - kept);
        let same_labels = moves.len() == self.moves.len()
            && self.moves[window_moves.clone()]
                .iter()
                .zip(&moves[window_moves])
                .all(|(old, new)| old.label() == new.label());
        let mut split = ResumableSplit {
            moves,
            problems,
            movetext_start: movetext.start,
            movetext_end: movetext.end,
            resume,
        };
        if same_labels {
            // Every move has the same labels before it as it had: the same MoveNumbers are
            // used twice, at the moves' new places.
            for problem in self
                .problems
                .iter()
                .filter(|problem| problem.code == MovetextProblemCode::DuplicateMoveNumber)
            {
                let range = if problem.range.start < label.start {
                    problem.range.clone()
                } else if problem.range.start >= old_cut_label.start {
                    shift(&problem.range)
                } else {
                    let index = (kept..cut).find(|&index| {
                        let old = &self.moves[index];
                        old.label_source()
                            .clone()
                            .unwrap_or_else(|| old.source().clone())
                            == problem.range
                    })?;
                    let new = &split.moves[index];
                    new.label_source()
                        .clone()
                        .unwrap_or_else(|| new.source().clone())
                };
                split.problems.push(MovetextProblem {
                    range,
                    ..problem.clone()
                });
            }
        } else {
            report_duplicate_labels(&split.moves, &mut split.problems);
        }
        Some((split, kept, in_step_from))
    }

    /// The same split of the same movetext moved by `delta` bytes in the file.
    pub fn shifted(&self, delta: isize) -> ResumableSplit {
        let shift = |range: &Range<usize>| {
            range.start.saturating_add_signed(delta)..range.end.saturating_add_signed(delta)
        };
        ResumableSplit {
            moves: self
                .moves
                .iter()
                .map(|record| record.shifted(delta))
                .collect(),
            problems: self
                .problems
                .iter()
                .map(|problem| MovetextProblem {
                    range: shift(&problem.range),
                    ..problem.clone()
                })
                .collect(),
            movetext_start: self.movetext_start.saturating_add_signed(delta),
            movetext_end: self.movetext_end.saturating_add_signed(delta),
            resume: self.resume.clone(),
        }
    }
}

/// The order in which a split reports its problems, one kind after the other.
#[derive(Clone, Copy, PartialEq, Eq)]
enum ProblemKind {
    Comment,
    Expansion,
    Token,
    Label,
}

impl ProblemKind {
    fn of(code: MovetextProblemCode) -> ProblemKind {
        match code {
            MovetextProblemCode::UnclosedComment | MovetextProblemCode::UnopenedComment => {
                ProblemKind::Comment
            }
            MovetextProblemCode::BraceExpansion => ProblemKind::Expansion,
            MovetextProblemCode::BraceInComment | MovetextProblemCode::BraceAcrossSemicolon => {
                ProblemKind::Token
            }
            MovetextProblemCode::DuplicateMoveNumber => ProblemKind::Label,
        }
    }
}

/// The split of a stretch of movetext, before duplicate MoveNumbers are looked for.
#[derive(Default)]
struct SplitPart {
    moves: Vec<MoveRecord>,
    problems: Vec<MovetextProblem>,
    resume: Vec<Option<ResumePoint>>,
    /// The brace expansions counted at the end of the stretch.
    expanded_strings: usize,
    expanded_bytes: usize,
    over_cap: bool,
}

/// How many comments are open at the end of `text`, counted as the splitter counts them.
fn comment_depth_at_end(text: &str) -> usize {
    let mut depth = CommentDepth::default();
    depth.read(text.as_bytes());
    depth.open
}

fn split_part(file_text: &str, movetext: Range<usize>, start: SplitStart) -> SplitPart {
    let mut split = SplitPart {
        expanded_strings: start.expanded_strings,
        expanded_bytes: start.expanded_bytes,
        over_cap: start.over_cap,
        ..SplitPart::default()
    };
    let Some(slice) = file_text.get(movetext.clone()) else {
        return split;
    };
    let (mut working, tokens, end_state) =
        expand_tokens(file_text, slice, &movetext, &start, &mut split.problems);
    (split.expanded_strings, split.expanded_bytes, split.over_cap) = end_state;
    if tokens.is_empty() {
        return split;
    }
    for token in tokens.iter().filter(|token| token.expanded) {
        if token.in_comment {
            split.problems.push(MovetextProblem {
                range: token.range.clone(),
                code: MovetextProblemCode::BraceInComment,
                severity: Severity::Warning,
                message: "braces inside a comment are expanded like moves".to_string(),
            });
        }
        // A `;` at either end only makes each expansion its own submove, a common
        // idiom; one in the middle repeats the whole chain for every expansion.
        if file_text[token.range.clone()]
            .trim_matches(';')
            .contains(';')
        {
            split.problems.push(MovetextProblem {
                range: token.range.clone(),
                code: MovetextProblemCode::BraceAcrossSemicolon,
                severity: Severity::Warning,
                message: "braces are expanded before `;` splits the move, so everything \
                          around the `;` is repeated for each expansion"
                    .to_string(),
            });
        }
    }

    working.semicolons_to_move_numbers();
    let text = working.text.as_str();
    let raw_moves = cut_at_move_numbers(text);
    // Each move's label becomes the previous one of the next: it is made in place.
    let mut label = start.previous_label;
    // A move's words, read into the same buffers for every move.
    let mut words = Words::default();
    // Where the search for the token of the next label starts.
    let mut next_token = 0;
    // A move's comments and their text, in the same buffers for every move.
    let mut comments = Vec::new();
    let mut comment = String::new();
    split.moves.reserve(raw_moves.len());
    split.resume.reserve(raw_moves.len());
    for raw in raw_moves {
        match raw.label {
            Some(ref number) => {
                let written = &text[number.clone()];
                // A lone `.` (or a `;`) continues the label before it.
                if written == "." {
                    continue_label(&mut label);
                } else {
                    set_written_label(&mut label, written);
                }
            }
            None => {
                label.clear();
                label.push_str(BEFORE_FIRST_MOVE_NUMBER_LABEL);
            }
        }
        let label_range = raw.label.clone().unwrap_or(0..0);
        let label_source = working.span(label_range.clone());
        let resume = label_source.as_ref().and_then(|label_source| {
            let token = token_starting_at(&tokens, &mut next_token, label_source.start)?;
            let whole_plain_token =
                token.range == *label_source && !token.expanded && !token.in_comment;
            whole_plain_token.then_some(ResumePoint {
                expanded_strings: token.expanded_strings_before,
                expanded_bytes: token.expanded_bytes_before,
                over_cap: token.over_cap_before,
            })
        });
        let body = &text[raw.body.clone()];
        find_comment_spans(body, &mut comments);
        tokens_outside(body, raw.body.start, &comments, &working, &mut words);
        write_comment_text(body, &comments, &mut comment);
        let source = working
            .source_span(&[label_range, raw.body])
            .or_else(|| label_source.clone())
            .unwrap_or(movetext.start..movetext.start);
        split.moves.push(MoveRecord::from_words(
            &label,
            label_source,
            &words,
            &comment,
            source,
        ));
        split.resume.push(resume);
    }
    split
}

#[cfg(test)]
mod tests;
