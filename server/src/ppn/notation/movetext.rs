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
//! Two accidents of the reference are not kept: moves in a movetext without any
//! MoveNumber are labelled `SetupFn..` (the reference leaves them unlabelled), and a
//! movetext of only whitespace has no moves (the reference records one empty move).

use std::collections::HashMap;
use std::fmt;
use std::hash::BuildHasherDefault;
use std::ops::Range;
use std::sync::Arc;

use super::braces::expand_token_located;
pub use crate::diagnostic::Severity;
use crate::model::edit::TextEdit;

/// The most strings all brace expansions of one game may produce together; past it,
/// tokens stay unexpanded so a hostile file cannot exhaust memory.
pub const MAX_MOVETEXT_EXPANSIONS: usize = 100_000;

/// The most bytes of text all brace expansions of one game may produce together.
pub const MAX_MOVETEXT_EXPANDED_BYTES: usize = 1 << 20;

/// The label of the state before any move.
pub const SETUP_LABEL: &str = "SetupFn.";
/// The label of moves written before the first MoveNumber.
pub const BEFORE_FIRST_MOVE_NUMBER_LABEL: &str = "SetupFn..";

/// One whitespace-separated token of a move's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveToken {
    /// The token after brace expansion, before macro substitution.
    pub text: String,
    /// The unexpanded token in the file (for an expansion: the whole braced token).
    pub source: Range<usize>,
}

/// One move: a MoveNumber (or a `.`/`;` shortcut) and the text that follows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveRecord {
    /// `1.`, `1...`, `12S.`, `2..` for a `.`/`;` after `2.`, `SetupFn..` before any
    /// MoveNumber.
    pub label: String,
    /// The MoveNumber, `.` or `;` in the file; `None` for `SetupFn..`.
    pub label_source: Option<Range<usize>>,
    /// The move without its comments, whitespace squished, braces expanded.
    pub text: String,
    /// The move's comments without their braces, joined by one space.
    pub comment: String,
    /// The whitespace-separated tokens of `text`.
    pub tokens: Vec<MoveToken>,
    /// From the MoveNumber through the last token or comment of the move.
    pub source: Range<usize>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MovetextProblemCode {
    /// A `{` with no matching `}`: the rest of the movetext reads as moves.
    UnclosedComment,
    /// A `}` with no `{` before it.
    UnopenedComment,
    /// A brace expansion that could not be done (too large, zero step, ...).
    BraceExpansion,
    /// A brace group inside a comment: it is expanded like movetext.
    BraceInComment,
    /// A brace group in a token with a `;` inside it: the whole chain is repeated.
    BraceAcrossSemicolon,
    /// The same MoveNumber labels two moves of a game.
    DuplicateMoveNumber,
}

impl MovetextProblemCode {
    pub fn as_str(self) -> &'static str {
        match self {
            MovetextProblemCode::UnclosedComment => "unclosed-comment",
            MovetextProblemCode::UnopenedComment => "unopened-comment",
            MovetextProblemCode::BraceExpansion => "brace-expansion",
            MovetextProblemCode::BraceInComment => "brace-in-comment",
            MovetextProblemCode::BraceAcrossSemicolon => "brace-across-semicolon",
            MovetextProblemCode::DuplicateMoveNumber => "duplicate-move-number",
        }
    }
}

impl fmt::Display for MovetextProblemCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl MoveRecord {
    /// The same move `delta` bytes further on in the file.
    pub fn shifted(&self, delta: isize) -> MoveRecord {
        let shift = |range: &Range<usize>| {
            range.start.saturating_add_signed(delta)..range.end.saturating_add_signed(delta)
        };
        MoveRecord {
            label: self.label.clone(),
            label_source: self.label_source.as_ref().map(shift),
            text: self.text.clone(),
            comment: self.comment.clone(),
            tokens: self
                .tokens
                .iter()
                .map(|token| MoveToken {
                    text: token.text.clone(),
                    source: shift(&token.source),
                })
                .collect(),
            source: shift(&self.source),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MovetextProblem {
    /// Byte range in the file.
    pub range: Range<usize>,
    pub code: MovetextProblemCode,
    pub severity: Severity,
    pub message: String,
}

/// The moves of one game's movetext, and what looked wrong on the way.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MovetextSplit {
    pub moves: Vec<MoveRecord>,
    pub problems: Vec<MovetextProblem>,
}

/// Whitespace between movetext elements: tab, newline, form feed, carriage return and
/// the Unicode Z category.
#[inline]
pub fn is_movetext_whitespace(c: char) -> bool {
    if c.is_ascii() {
        matches!(c, '\t' | '\n' | '\u{0C}' | '\r' | ' ')
    } else {
        char_class::is_separator(c)
    }
}

/// A character of the working text, with the file bytes it stands for.
#[derive(Debug, Clone, Copy)]
struct Glyph {
    ch: char,
    origin: Origin,
}

/// File bytes, counted from the start of the movetext being split (so that a character
/// takes 12 bytes, not 24); [`Origin::NOWHERE`] for the spaces that join expansions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Origin {
    start: u32,
    end: u32,
}

impl Origin {
    const NOWHERE: Origin = Origin {
        start: u32::MAX,
        end: u32::MAX,
    };

    /// The bytes `range` of the file, in a movetext starting at `base`. Offsets past 4 GiB
    /// into one movetext (whose characters would take 48 GB) are cut there.
    fn of(range: Range<usize>, base: usize) -> Origin {
        let relative = |at: usize| u32::try_from(at.saturating_sub(base)).unwrap_or(u32::MAX - 1);
        Origin {
            start: relative(range.start),
            end: relative(range.end),
        }
    }

    /// The bytes in the file (none for [`Origin::NOWHERE`]), counted from the movetext's
    /// start: add its `base` for file offsets.
    fn in_file(self) -> Option<Range<usize>> {
        (self != Origin::NOWHERE).then_some(self.start as usize..self.end as usize)
    }
}

/// The smallest range holding both.
fn cover(span: Option<Range<usize>>, origin: Range<usize>) -> Range<usize> {
    match span {
        None => origin,
        Some(span) => span.start.min(origin.start)..span.end.max(origin.end),
    }
}

#[derive(Debug)]
struct SourceToken {
    range: Range<usize>,
    expanded: bool,
    /// The token starts after an unclosed `{`.
    in_comment: bool,
    /// How many strings the brace expansions before the token gave.
    expanded_strings_before: usize,
    /// How many bytes of text they gave.
    expanded_bytes_before: usize,
    over_cap_before: bool,
}

/// Splits the movetext at `movetext` (byte offsets into `file_text`) into moves.
/// An empty movetext (only whitespace) has no moves.
pub fn split_movetext(file_text: &str, movetext: Range<usize>) -> MovetextSplit {
    let split = split_movetext_resumable(file_text, movetext);
    MovetextSplit {
        moves: split.moves.into_iter().map(Arc::unwrap_or_clone).collect(),
        problems: split.problems,
    }
}

/// A movetext split that the split of a later revision of the file can start from.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ResumableSplit {
    pub moves: Vec<Arc<MoveRecord>>,
    pub problems: Vec<MovetextProblem>,
    movetext_start: usize,
    movetext_end: usize,
    /// Per move: whether and how a split can start at its MoveNumber.
    resume: Vec<Option<ResumePoint>>,
}

/// What the text before a MoveNumber decides about the rest of the movetext, for a
/// MoveNumber that is a whole token outside comments: a split can start there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct ResumePoint {
    expanded_strings: usize,
    expanded_bytes: usize,
    over_cap: bool,
}

/// The state the text before a split's start leaves.
struct SplitStart {
    expanded_strings: usize,
    expanded_bytes: usize,
    over_cap: bool,
    previous_label: String,
}

impl SplitStart {
    fn at_movetext_start() -> SplitStart {
        SplitStart {
            expanded_strings: 0,
            expanded_bytes: 0,
            over_cap: false,
            previous_label: SETUP_LABEL.to_string(),
        }
    }
}

/// [`split_movetext`], keeping what [`ResumableSplit::resplit`] needs.
pub fn split_movetext_resumable(file_text: &str, movetext: Range<usize>) -> ResumableSplit {
    let part = split_part(file_text, movetext.clone(), SplitStart::at_movetext_start());
    let mut split = ResumableSplit {
        moves: part.moves,
        problems: part.problems,
        movetext_start: movetext.start,
        movetext_end: movetext.end,
        resume: part.resume,
    };
    report_duplicate_labels(&split.moves, &mut split.problems);
    split
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
        let kept = (1..self.moves.len()).rev().find(|&index| {
            self.resume[index].is_some()
                && self.moves[index]
                    .label_source
                    .as_ref()
                    .is_some_and(|label| label.end < unchanged_before)
        })?;
        let point = self.resume[kept]?;
        let label = self.moves[kept].label_source.clone()?;
        let start = SplitStart {
            expanded_strings: point.expanded_strings,
            expanded_bytes: point.expanded_bytes,
            over_cap: point.over_cap,
            previous_label: self.moves[kept - 1].label.clone(),
        };
        if let Some(in_step) = self.split_window(new_text, &movetext, edit, kept, &label, &start) {
            return Some(in_step);
        }
        let part = split_part(new_text, label.start..movetext.end, start);
        // The text before the MoveNumber reads differently when a `}` now comes before
        // any `{` after it; but then the MoveNumber is inside a comment and no longer one.
        let starts_alike = part
            .moves
            .first()
            .and_then(|record| record.label_source.as_ref())
            == Some(&label);
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

    /// The split when only the stretch from move `kept` (whose MoveNumber is `label`) to a
    /// MoveNumber after the edit has to be split again: the split of that stretch ends in
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
            .partition_point(|record| record.source.start <= edit.old_end.saturating_add(1));
        let cut = (first_after.max(kept + 1)..self.moves.len())
            .find(|&index| self.resume[index].is_some())?;
        let old_cut_label = self.moves[cut].label_source.clone()?;
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
        let starts_alike = part
            .moves
            .first()
            .and_then(|record| record.label_source.as_ref())
            == Some(label);
        let old_point = self.resume[cut]?;
        let ends_alike = part.moves.last().is_some_and(|record| {
            record.label == self.moves[cut - 1].label && record.source.end <= cut_at
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
        moves.extend(
            self.moves[cut..]
                .iter()
                .map(|record| Arc::new(record.shifted(delta))),
        );
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
                .all(|(old, new)| old.label == new.label);
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
                        old.label_source
                            .clone()
                            .unwrap_or_else(|| old.source.clone())
                            == problem.range
                    })?;
                    let new = &split.moves[index];
                    new.label_source
                        .clone()
                        .unwrap_or_else(|| new.source.clone())
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
                .map(|record| Arc::new(record.shifted(delta)))
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
    moves: Vec<Arc<MoveRecord>>,
    problems: Vec<MovetextProblem>,
    resume: Vec<Option<ResumePoint>>,
    /// The brace expansions counted at the end of the stretch.
    expanded_strings: usize,
    expanded_bytes: usize,
    over_cap: bool,
}

/// How many comments are open at the end of `text`, counted as the splitter counts them.
fn comment_depth_at_end(text: &str) -> usize {
    let mut depth = 0usize;
    let mut previous = None;
    for c in text.chars() {
        if previous != Some('\\') {
            match c {
                '{' => depth += 1,
                '}' => depth = depth.saturating_sub(1),
                _ => {}
            }
        }
        previous = Some(c);
    }
    depth
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
    check_comment_braces(slice, movetext.start, &mut split.problems);

    let (glyphs, tokens, end_state) =
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

    let (text, in_comment) = semicolons_to_move_numbers(glyphs);
    let raw_moves = cut_at_move_numbers(&text, &in_comment);
    let mut previous_label = start.previous_label;
    split.moves.reserve(raw_moves.len());
    split.resume.reserve(raw_moves.len());
    for raw in raw_moves {
        let label = match raw.label {
            Some(ref number) => {
                let written: String = text[number.clone()].iter().map(|g| g.ch).collect();
                if written == "." {
                    format!("{previous_label}.")
                } else {
                    written
                }
            }
            None => BEFORE_FIRST_MOVE_NUMBER_LABEL.to_string(),
        };
        previous_label.clone_from(&label);
        let label_glyphs = raw.label.clone().map(|number| &text[number]).unwrap_or(&[]);
        let label_source = source_span(&[label_glyphs], movetext.start);
        let resume = label_source.as_ref().and_then(|label_source| {
            let token = &tokens[tokens
                .binary_search_by_key(&label_source.start, |token| token.range.start)
                .ok()?];
            let whole_plain_token =
                token.range == *label_source && !token.expanded && !token.in_comment;
            whole_plain_token.then_some(ResumePoint {
                expanded_strings: token.expanded_strings_before,
                expanded_bytes: token.expanded_bytes_before,
                over_cap: token.over_cap_before,
            })
        });
        let body = &text[raw.body.clone()];
        let comments = comment_spans(body);
        let move_tokens = tokens_outside(body, &comments, movetext.start);
        let comment = comment_text(body, &comments);
        let source = source_span(&[label_glyphs, body], movetext.start)
            .or_else(|| label_source.clone())
            .unwrap_or(movetext.start..movetext.start);
        split.moves.push(Arc::new(MoveRecord {
            label,
            label_source,
            text: joined_tokens(&move_tokens),
            comment,
            tokens: move_tokens,
            source,
        }));
        split.resume.push(resume);
    }
    split
}

/// The tokens' texts joined by single spaces.
fn joined_tokens(tokens: &[MoveToken]) -> String {
    let length = tokens
        .iter()
        .map(|token| token.text.len() + 1)
        .sum::<usize>();
    let mut text = String::with_capacity(length);
    for (index, token) in tokens.iter().enumerate() {
        if index > 0 {
            text.push(' ');
        }
        text.push_str(&token.text);
    }
    text
}

/// The comments' texts without their braces, joined by one space, whitespace squished.
fn comment_text(body: &[Glyph], comments: &[Range<usize>]) -> String {
    let mut text = String::new();
    let mut space_before = false;
    for range in comments {
        for glyph in &body[range.clone()] {
            match glyph.ch {
                '{' | '}' => {}
                c if is_movetext_whitespace(c) => space_before = true,
                c => {
                    if space_before && !text.is_empty() {
                        text.push(' ');
                    }
                    space_before = false;
                    text.push(c);
                }
            }
        }
        space_before = true;
    }
    text
}

/// The file bytes that consecutive stretches of the working text stand for. Origins never
/// go back in the working text (tokens follow each other in the file, and all characters of
/// an expansion stand for the whole token), so they run from the first origin to the last.
fn source_span(parts: &[&[Glyph]], base: usize) -> Option<Range<usize>> {
    let first = parts
        .iter()
        .flat_map(|part| part.iter())
        .find_map(|glyph| glyph.origin.in_file())?;
    let last = parts
        .iter()
        .rev()
        .flat_map(|part| part.iter().rev())
        .find_map(|glyph| glyph.origin.in_file())?;
    Some(base + first.start..base + last.end)
}

/// Cuts the movetext into tokens, expands each, and joins the expansions with spaces.
fn expand_tokens(
    file_text: &str,
    slice: &str,
    movetext: &Range<usize>,
    start: &SplitStart,
    problems: &mut Vec<MovetextProblem>,
) -> (Vec<Glyph>, Vec<SourceToken>, (usize, usize, bool)) {
    let offset = movetext.start;
    let mut ranges = Vec::new();
    let mut token_start = None;
    let mut comment_depth = 0usize;
    let mut previous = None;
    for (index, c) in slice.char_indices() {
        if is_movetext_whitespace(c) {
            if let Some((start, in_comment)) = token_start.take() {
                ranges.push((offset + start..offset + index, in_comment));
            }
        } else if token_start.is_none() {
            token_start = Some((index, comment_depth > 0));
        }
        if previous != Some('\\') {
            match c {
                '{' => comment_depth += 1,
                '}' => comment_depth = comment_depth.saturating_sub(1),
                _ => {}
            }
        }
        previous = Some(c);
    }
    if let Some((start, in_comment)) = token_start {
        ranges.push((offset + start..offset + slice.len(), in_comment));
    }

    let mut glyphs = Vec::with_capacity(slice.len() + ranges.len());
    let mut tokens = Vec::with_capacity(ranges.len());
    let mut first = true;
    let mut expanded_strings = start.expanded_strings;
    let mut expanded_bytes = start.expanded_bytes;
    let mut over_cap = start.over_cap;
    for (range, in_comment) in ranges {
        let expanded_strings_before = expanded_strings;
        let expanded_bytes_before = expanded_bytes;
        let over_cap_before = over_cap;
        let written = &file_text[range.clone()];
        // Only braces expand and only backslashes unescape: most tokens have neither.
        if !written.bytes().any(|byte| byte == b'{' || byte == b'\\') {
            separate(&mut glyphs, &mut first);
            push_written(&mut glyphs, written, range.start, offset);
            tokens.push(SourceToken {
                range,
                expanded: false,
                in_comment,
                expanded_strings_before,
                expanded_bytes_before,
                over_cap_before,
            });
            continue;
        }
        let mut expansions = expand_token_located(written).unwrap_or_else(|error| {
            // At the braces that ask for too much, not the whole word.
            problems.push(MovetextProblem {
                range: range.start + error.at.start..range.start + error.at.end,
                code: MovetextProblemCode::BraceExpansion,
                severity: Severity::Error,
                message: error.to_string(),
            });
            vec![written.to_string()]
        });
        if expansions.len() > 1 {
            expanded_strings += expansions.len();
            expanded_bytes += expansions.iter().map(String::len).sum::<usize>();
            if expanded_strings > MAX_MOVETEXT_EXPANSIONS
                || expanded_bytes > MAX_MOVETEXT_EXPANDED_BYTES
            {
                if !over_cap {
                    let budget = if expanded_strings > MAX_MOVETEXT_EXPANSIONS {
                        format!("{MAX_MOVETEXT_EXPANSIONS} strings")
                    } else {
                        format!("{MAX_MOVETEXT_EXPANDED_BYTES} bytes of text")
                    };
                    problems.push(MovetextProblem {
                        range: range.clone(),
                        code: MovetextProblemCode::BraceExpansion,
                        severity: Severity::Error,
                        message: format!(
                            "brace expansions in this game give more than {budget}; from \
                             here on braces are not expanded"
                        ),
                    });
                }
                over_cap = true;
                expansions = vec![written.to_string()];
            }
        }
        let expanded = !(expansions.len() == 1 && expansions[0] == written);
        for expansion in &expansions {
            separate(&mut glyphs, &mut first);
            if expanded {
                glyphs.extend(expansion.chars().map(|ch| Glyph {
                    ch,
                    origin: Origin::of(range.clone(), offset),
                }));
            } else {
                push_written(&mut glyphs, written, range.start, offset);
            }
        }
        tokens.push(SourceToken {
            range,
            expanded,
            in_comment,
            expanded_strings_before,
            expanded_bytes_before,
            over_cap_before,
        });
    }
    (glyphs, tokens, (expanded_strings, expanded_bytes, over_cap))
}

/// Expansions are joined with single spaces that stand for nothing in the file.
fn separate(glyphs: &mut Vec<Glyph>, first: &mut bool) {
    if !*first {
        glyphs.push(Glyph {
            ch: ' ',
            origin: Origin::NOWHERE,
        });
    }
    *first = false;
}

/// The characters of a token as written (from byte `start` of the file, in a movetext
/// starting at `base`), each standing for itself in the file.
fn push_written(glyphs: &mut Vec<Glyph>, written: &str, start: usize, base: usize) {
    glyphs.extend(written.char_indices().map(|(at, ch)| Glyph {
        ch,
        origin: Origin::of(start + at..start + at + ch.len_utf8(), base),
    }));
}

/// `result[i]`: reading from position `i`, a `}` comes before any `{`. This is how the
/// reference tells that a position is inside a comment.
fn closes_before_next_open(glyphs: &[Glyph]) -> Vec<bool> {
    let mut result = vec![false; glyphs.len() + 1];
    let mut closes = false;
    for (glyph, slot) in glyphs.iter().zip(&mut result).rev() {
        match glyph.ch {
            '{' => closes = false,
            '}' => closes = true,
            _ => {}
        }
        *slot = closes;
    }
    result
}

/// Every `;` outside a comment becomes ` . `; the text, and for each of its positions
/// whether it is inside a comment ([`closes_before_next_open`]).
fn semicolons_to_move_numbers(glyphs: Vec<Glyph>) -> (Vec<Glyph>, Vec<bool>) {
    let in_comment = closes_before_next_open(&glyphs);
    let replaced = |(i, glyph): (usize, &Glyph)| glyph.ch == ';' && !in_comment[i + 1];
    if !glyphs.iter().enumerate().any(replaced) {
        return (glyphs, in_comment);
    }
    let mut text = Vec::with_capacity(glyphs.len() + 16);
    for (i, glyph) in glyphs.iter().enumerate() {
        if glyph.ch == ';' && !in_comment[i + 1] {
            for ch in [' ', '.', ' '] {
                text.push(Glyph {
                    ch,
                    origin: glyph.origin,
                });
            }
        } else {
            text.push(*glyph);
        }
    }
    let in_comment = closes_before_next_open(&text);
    (text, in_comment)
}

struct RawMove {
    /// Glyph range of the MoveNumber; `None` for the text before the first one.
    label: Option<Range<usize>>,
    body: Range<usize>,
}

fn is_move_number_char(c: char) -> bool {
    c == '_' || c == '.' || char_class::is_alphanumeric(c)
}

/// A MoveNumber is a run of letters, digits, `_` and `.` ending in `.`, with neither a
/// letter, digit nor punctuation mark just before or after it, outside comments.
fn move_numbers(text: &[Glyph], in_comment: &[bool]) -> Vec<Range<usize>> {
    let mut numbers = Vec::new();
    let mut p = 0;
    while p < text.len() {
        if !is_move_number_char(text[p].ch) {
            p += 1;
            continue;
        }
        let free_before = p == 0 || !char_class::is_alphanumeric_or_punctuation(text[p - 1].ch);
        let mut q = p;
        while q < text.len() && is_move_number_char(text[q].ch) {
            q += 1;
        }
        if free_before && text[q - 1].ch == '.' && !in_comment[q] {
            let free_after =
                q == text.len() || !char_class::is_alphanumeric_or_punctuation(text[q].ch);
            if free_after {
                numbers.push(p..q);
            }
        }
        // Positions inside the run follow a letter, digit or mark, so none can start one.
        p = q;
    }
    numbers
}

/// Cuts the text at the MoveNumbers, dropping the one separator character on each
/// side of a MoveNumber as the reference does.
fn cut_at_move_numbers(text: &[Glyph], in_comment: &[bool]) -> Vec<RawMove> {
    let numbers = move_numbers(text, in_comment);
    let Some(first) = numbers.first() else {
        return vec![RawMove {
            label: None,
            body: 0..text.len(),
        }];
    };
    let mut moves = Vec::with_capacity(numbers.len() + 1);
    if first.start > 0 {
        moves.push(RawMove {
            label: None,
            body: 0..first.start - 1,
        });
    }
    for (k, number) in numbers.iter().enumerate() {
        let end = numbers
            .get(k + 1)
            .map_or(text.len(), |next| next.start.saturating_sub(1));
        let start = (number.end + 1).min(end);
        moves.push(RawMove {
            label: Some(number.clone()),
            body: start..end,
        });
    }
    moves
}

/// Comments: `{` to the first `}`, with neither a letter, digit nor punctuation mark
/// just outside the braces.
fn comment_spans(body: &[Glyph]) -> Vec<Range<usize>> {
    if !body.iter().any(|glyph| glyph.ch == '{') {
        return Vec::new();
    }
    let mut next_close = vec![None; body.len() + 1];
    for i in (0..body.len()).rev() {
        next_close[i] = if body[i].ch == '}' {
            Some(i)
        } else {
            next_close[i + 1]
        };
    }
    let mut spans = Vec::new();
    let mut i = 0;
    while i < body.len() {
        let free_before = i == 0 || !char_class::is_alphanumeric_or_punctuation(body[i - 1].ch);
        if body[i].ch == '{' && free_before {
            let Some(close) = next_close[i + 1] else {
                break;
            };
            let free_after = close + 1 == body.len()
                || !char_class::is_alphanumeric_or_punctuation(body[close + 1].ch);
            if free_after {
                spans.push(i..close + 1);
                i = close + 1;
                continue;
            }
        }
        i += 1;
    }
    spans
}

fn tokens_outside(body: &[Glyph], comments: &[Range<usize>], base: usize) -> Vec<MoveToken> {
    let mut tokens = Vec::new();
    // The token being read: its text and the file bytes it comes from (see `source_span`).
    let mut text = String::new();
    let mut source: Option<Range<usize>> = None;
    let mut flush = |text: &mut String, source: &mut Option<Range<usize>>| {
        if text.is_empty() {
            return;
        }
        tokens.push(MoveToken {
            text: std::mem::take(text),
            source: source
                .take()
                .map_or(0..0, |span| base + span.start..base + span.end),
        });
    };
    let mut comments = comments.iter().peekable();
    let mut i = 0;
    while i < body.len() {
        if let Some(comment) = comments.peek() {
            if comment.start == i {
                // Symbols such as `$` or `~` may touch a comment; the reference then
                // glues them together when it drops the comment.
                i = comment.end;
                comments.next();
                continue;
            }
        }
        let glyph = body[i];
        if is_movetext_whitespace(glyph.ch) {
            flush(&mut text, &mut source);
        } else {
            text.push(glyph.ch);
            if let Some(origin) = glyph.origin.in_file() {
                source = Some(cover(source.take(), origin));
            }
        }
        i += 1;
    }
    flush(&mut text, &mut source);
    tokens
}

fn report_duplicate_labels(moves: &[Arc<MoveRecord>], problems: &mut Vec<MovetextProblem>) {
    if labels_strictly_increase(moves) {
        return;
    }
    let mut seen: HashMap<&str, usize, BuildHasherDefault<LabelHasher>> =
        HashMap::with_capacity_and_hasher(moves.len() + 1, BuildHasherDefault::default());
    seen.insert(SETUP_LABEL, usize::MAX);
    for (index, record) in moves.iter().enumerate() {
        if let Some(&earlier) = seen.get(record.label.as_str()) {
            let message = if earlier == usize::MAX {
                format!("MoveNumber `{}` is the label of the setup", record.label)
            } else {
                format!("MoveNumber `{}` is used twice in this game", record.label)
            };
            problems.push(MovetextProblem {
                range: record
                    .label_source
                    .clone()
                    .unwrap_or_else(|| record.source.clone()),
                code: MovetextProblemCode::DuplicateMoveNumber,
                severity: Severity::Warning,
                message,
            });
        } else {
            seen.insert(record.label.as_str(), index);
        }
    }
}

/// Whether every label is a number and dots (`12.`, `12...`), each after the one before in
/// the order of numbers then dots: then no two are the same, which is what almost every
/// game shows, and is found without a map of the labels.
fn labels_strictly_increase(moves: &[Arc<MoveRecord>]) -> bool {
    let mut previous = None;
    for record in moves {
        let label = record.label.as_bytes();
        let digits = label.iter().take_while(|b| b.is_ascii_digit()).count();
        let dots = label.len() - digits;
        if digits == 0 || digits > 18 || dots == 0 || label[digits..].iter().any(|&b| b != b'.') {
            return false;
        }
        let number: u64 = label[..digits]
            .iter()
            .fold(0, |number, digit| number * 10 + u64::from(digit - b'0'));
        let key = (number, dots);
        if previous.is_some_and(|previous| previous >= key) {
            return false;
        }
        previous = Some(key);
    }
    true
}

/// A fast hash for the short labels of one game (`12...`): the map of labels is rebuilt on
/// every edit, and a DoS-resistant hash is of no use on a file's own labels.
#[derive(Default)]
struct LabelHasher(u64);

impl std::hash::Hasher for LabelHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(word))
                .wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// Reports `{` without `}` and `}` without `{` (escaped braces aside).
fn check_comment_braces(slice: &str, offset: usize, problems: &mut Vec<MovetextProblem>) {
    let mut open = Vec::new();
    // Braces and backslashes are ASCII: a byte equal to one is that character.
    let mut previous = 0u8;
    for (index, byte) in slice.bytes().enumerate() {
        let escaped = previous == b'\\';
        previous = byte;
        if escaped {
            continue;
        }
        match byte {
            b'{' => open.push(offset + index),
            b'}' if open.pop().is_none() => {
                problems.push(MovetextProblem {
                    range: offset + index..offset + index + 1,
                    code: MovetextProblemCode::UnopenedComment,
                    severity: Severity::Warning,
                    message: "`}` without a `{` before it".to_string(),
                });
            }
            _ => {}
        }
    }
    if let Some(&start) = open.first() {
        problems.push(MovetextProblem {
            range: start..offset + slice.len(),
            code: MovetextProblemCode::UnclosedComment,
            severity: Severity::Error,
            message: "comment `{` is never closed".to_string(),
        });
    }
}

/// The character classes the reference's regular expressions use (ICU flavour: the
/// POSIX-style `punct` class is the Unicode P category, so `$+<=>^`|~` are not in it).
mod char_class {
    pub fn is_separator(c: char) -> bool {
        matches!(
            c,
            ' ' | '\u{A0}' | '\u{1680}' | '\u{2000}'
                ..='\u{200A}' | '\u{2028}' | '\u{2029}' | '\u{202F}' | '\u{205F}' | '\u{3000}'
        )
    }

    #[inline]
    pub fn is_alphanumeric(c: char) -> bool {
        if c.is_ascii() {
            c.is_ascii_alphanumeric()
        } else {
            c.is_alphabetic() || in_table(DECIMAL_DIGITS, c)
        }
    }

    /// Bit `c` is set for the ASCII characters that are letters, digits or punctuation
    /// marks (of the Unicode P category: `$+<=>^`|~` are symbols).
    const ASCII_ALPHANUMERIC_OR_PUNCTUATION: u128 = {
        let mut mask = 0u128;
        let mut c = 0u8;
        while c < 128 {
            let symbol = matches!(
                c,
                b'$' | b'+' | b'<' | b'=' | b'>' | b'^' | b'`' | b'|' | b'~'
            );
            if c.is_ascii_alphanumeric() || (c.is_ascii_punctuation() && !symbol) {
                mask |= 1 << c;
            }
            c += 1;
        }
        mask
    };

    #[inline]
    pub fn is_alphanumeric_or_punctuation(c: char) -> bool {
        if c.is_ascii() {
            ASCII_ALPHANUMERIC_OR_PUNCTUATION & (1 << (c as u32)) != 0
        } else {
            other_is_alphanumeric_or_punctuation(c)
        }
    }

    fn other_is_alphanumeric_or_punctuation(c: char) -> bool {
        // U+035C is written as an undertie like `‿` (a punctuation mark), so it must
        // separate MoveNumbers and comments the same way, although it is a combining mark.
        c == '\u{35C}' || is_alphanumeric(c) || in_table(PUNCTUATION, c)
    }

    fn in_table(table: &[(u32, u32)], c: char) -> bool {
        let code = c as u32;
        table
            .binary_search_by(|&(low, high)| {
                if high < code {
                    std::cmp::Ordering::Less
                } else if low > code {
                    std::cmp::Ordering::Greater
                } else {
                    std::cmp::Ordering::Equal
                }
            })
            .is_ok()
    }

    /// Non-ASCII code points of general category P (Unicode 14).
    const PUNCTUATION: &[(u32, u32)] = &[
        (0xA1, 0xA1),
        (0xA7, 0xA7),
        (0xAB, 0xAB),
        (0xB6, 0xB7),
        (0xBB, 0xBB),
        (0xBF, 0xBF),
        (0x37E, 0x37E),
        (0x387, 0x387),
        (0x55A, 0x55F),
        (0x589, 0x58A),
        (0x5BE, 0x5BE),
        (0x5C0, 0x5C0),
        (0x5C3, 0x5C3),
        (0x5C6, 0x5C6),
        (0x5F3, 0x5F4),
        (0x609, 0x60A),
        (0x60C, 0x60D),
        (0x61B, 0x61B),
        (0x61D, 0x61F),
        (0x66A, 0x66D),
        (0x6D4, 0x6D4),
        (0x700, 0x70D),
        (0x7F7, 0x7F9),
        (0x830, 0x83E),
        (0x85E, 0x85E),
        (0x964, 0x965),
        (0x970, 0x970),
        (0x9FD, 0x9FD),
        (0xA76, 0xA76),
        (0xAF0, 0xAF0),
        (0xC77, 0xC77),
        (0xC84, 0xC84),
        (0xDF4, 0xDF4),
        (0xE4F, 0xE4F),
        (0xE5A, 0xE5B),
        (0xF04, 0xF12),
        (0xF14, 0xF14),
        (0xF3A, 0xF3D),
        (0xF85, 0xF85),
        (0xFD0, 0xFD4),
        (0xFD9, 0xFDA),
        (0x104A, 0x104F),
        (0x10FB, 0x10FB),
        (0x1360, 0x1368),
        (0x1400, 0x1400),
        (0x166E, 0x166E),
        (0x169B, 0x169C),
        (0x16EB, 0x16ED),
        (0x1735, 0x1736),
        (0x17D4, 0x17D6),
        (0x17D8, 0x17DA),
        (0x1800, 0x180A),
        (0x1944, 0x1945),
        (0x1A1E, 0x1A1F),
        (0x1AA0, 0x1AA6),
        (0x1AA8, 0x1AAD),
        (0x1B5A, 0x1B60),
        (0x1B7D, 0x1B7E),
        (0x1BFC, 0x1BFF),
        (0x1C3B, 0x1C3F),
        (0x1C7E, 0x1C7F),
        (0x1CC0, 0x1CC7),
        (0x1CD3, 0x1CD3),
        (0x2010, 0x2027),
        (0x2030, 0x2043),
        (0x2045, 0x2051),
        (0x2053, 0x205E),
        (0x207D, 0x207E),
        (0x208D, 0x208E),
        (0x2308, 0x230B),
        (0x2329, 0x232A),
        (0x2768, 0x2775),
        (0x27C5, 0x27C6),
        (0x27E6, 0x27EF),
        (0x2983, 0x2998),
        (0x29D8, 0x29DB),
        (0x29FC, 0x29FD),
        (0x2CF9, 0x2CFC),
        (0x2CFE, 0x2CFF),
        (0x2D70, 0x2D70),
        (0x2E00, 0x2E2E),
        (0x2E30, 0x2E4F),
        (0x2E52, 0x2E5D),
        (0x3001, 0x3003),
        (0x3008, 0x3011),
        (0x3014, 0x301F),
        (0x3030, 0x3030),
        (0x303D, 0x303D),
        (0x30A0, 0x30A0),
        (0x30FB, 0x30FB),
        (0xA4FE, 0xA4FF),
        (0xA60D, 0xA60F),
        (0xA673, 0xA673),
        (0xA67E, 0xA67E),
        (0xA6F2, 0xA6F7),
        (0xA874, 0xA877),
        (0xA8CE, 0xA8CF),
        (0xA8F8, 0xA8FA),
        (0xA8FC, 0xA8FC),
        (0xA92E, 0xA92F),
        (0xA95F, 0xA95F),
        (0xA9C1, 0xA9CD),
        (0xA9DE, 0xA9DF),
        (0xAA5C, 0xAA5F),
        (0xAADE, 0xAADF),
        (0xAAF0, 0xAAF1),
        (0xABEB, 0xABEB),
        (0xFD3E, 0xFD3F),
        (0xFE10, 0xFE19),
        (0xFE30, 0xFE52),
        (0xFE54, 0xFE61),
        (0xFE63, 0xFE63),
        (0xFE68, 0xFE68),
        (0xFE6A, 0xFE6B),
        (0xFF01, 0xFF03),
        (0xFF05, 0xFF0A),
        (0xFF0C, 0xFF0F),
        (0xFF1A, 0xFF1B),
        (0xFF1F, 0xFF20),
        (0xFF3B, 0xFF3D),
        (0xFF3F, 0xFF3F),
        (0xFF5B, 0xFF5B),
        (0xFF5D, 0xFF5D),
        (0xFF5F, 0xFF65),
        (0x10100, 0x10102),
        (0x1039F, 0x1039F),
        (0x103D0, 0x103D0),
        (0x1056F, 0x1056F),
        (0x10857, 0x10857),
        (0x1091F, 0x1091F),
        (0x1093F, 0x1093F),
        (0x10A50, 0x10A58),
        (0x10A7F, 0x10A7F),
        (0x10AF0, 0x10AF6),
        (0x10B39, 0x10B3F),
        (0x10B99, 0x10B9C),
        (0x10EAD, 0x10EAD),
        (0x10F55, 0x10F59),
        (0x10F86, 0x10F89),
        (0x11047, 0x1104D),
        (0x110BB, 0x110BC),
        (0x110BE, 0x110C1),
        (0x11140, 0x11143),
        (0x11174, 0x11175),
        (0x111C5, 0x111C8),
        (0x111CD, 0x111CD),
        (0x111DB, 0x111DB),
        (0x111DD, 0x111DF),
        (0x11238, 0x1123D),
        (0x112A9, 0x112A9),
        (0x1144B, 0x1144F),
        (0x1145A, 0x1145B),
        (0x1145D, 0x1145D),
        (0x114C6, 0x114C6),
        (0x115C1, 0x115D7),
        (0x11641, 0x11643),
        (0x11660, 0x1166C),
        (0x116B9, 0x116B9),
        (0x1173C, 0x1173E),
        (0x1183B, 0x1183B),
        (0x11944, 0x11946),
        (0x119E2, 0x119E2),
        (0x11A3F, 0x11A46),
        (0x11A9A, 0x11A9C),
        (0x11A9E, 0x11AA2),
        (0x11C41, 0x11C45),
        (0x11C70, 0x11C71),
        (0x11EF7, 0x11EF8),
        (0x11FFF, 0x11FFF),
        (0x12470, 0x12474),
        (0x12FF1, 0x12FF2),
        (0x16A6E, 0x16A6F),
        (0x16AF5, 0x16AF5),
        (0x16B37, 0x16B3B),
        (0x16B44, 0x16B44),
        (0x16E97, 0x16E9A),
        (0x16FE2, 0x16FE2),
        (0x1BC9F, 0x1BC9F),
        (0x1DA87, 0x1DA8B),
        (0x1E95E, 0x1E95F),
    ];
    /// Non-ASCII code points of general category Nd (Unicode 14).
    const DECIMAL_DIGITS: &[(u32, u32)] = &[
        (0x660, 0x669),
        (0x6F0, 0x6F9),
        (0x7C0, 0x7C9),
        (0x966, 0x96F),
        (0x9E6, 0x9EF),
        (0xA66, 0xA6F),
        (0xAE6, 0xAEF),
        (0xB66, 0xB6F),
        (0xBE6, 0xBEF),
        (0xC66, 0xC6F),
        (0xCE6, 0xCEF),
        (0xD66, 0xD6F),
        (0xDE6, 0xDEF),
        (0xE50, 0xE59),
        (0xED0, 0xED9),
        (0xF20, 0xF29),
        (0x1040, 0x1049),
        (0x1090, 0x1099),
        (0x17E0, 0x17E9),
        (0x1810, 0x1819),
        (0x1946, 0x194F),
        (0x19D0, 0x19D9),
        (0x1A80, 0x1A89),
        (0x1A90, 0x1A99),
        (0x1B50, 0x1B59),
        (0x1BB0, 0x1BB9),
        (0x1C40, 0x1C49),
        (0x1C50, 0x1C59),
        (0xA620, 0xA629),
        (0xA8D0, 0xA8D9),
        (0xA900, 0xA909),
        (0xA9D0, 0xA9D9),
        (0xA9F0, 0xA9F9),
        (0xAA50, 0xAA59),
        (0xABF0, 0xABF9),
        (0xFF10, 0xFF19),
        (0x104A0, 0x104A9),
        (0x10D30, 0x10D39),
        (0x11066, 0x1106F),
        (0x110F0, 0x110F9),
        (0x11136, 0x1113F),
        (0x111D0, 0x111D9),
        (0x112F0, 0x112F9),
        (0x11450, 0x11459),
        (0x114D0, 0x114D9),
        (0x11650, 0x11659),
        (0x116C0, 0x116C9),
        (0x11730, 0x11739),
        (0x118E0, 0x118E9),
        (0x11950, 0x11959),
        (0x11C50, 0x11C59),
        (0x11D50, 0x11D59),
        (0x11DA0, 0x11DA9),
        (0x16A60, 0x16A69),
        (0x16AC0, 0x16AC9),
        (0x16B50, 0x16B59),
        (0x1D7CE, 0x1D7FF),
        (0x1E140, 0x1E149),
        (0x1E2F0, 0x1E2F9),
        (0x1E950, 0x1E959),
        (0x1FBF0, 0x1FBF9),
    ];

    #[cfg(test)]
    mod tests {
        use super::is_alphanumeric_or_punctuation;

        #[test]
        fn letters_digits_and_punctuation_marks_but_not_symbols() {
            for c in (0u8..128).map(char::from) {
                let expected = c.is_ascii_alphanumeric()
                    || (c.is_ascii_punctuation() && !"$+<=>^`|~".contains(c));
                assert_eq!(is_alphanumeric_or_punctuation(c), expected, "{c:?}");
            }
            for c in ['\u{35C}', 'é', '«', '٣', '‿'] {
                assert!(is_alphanumeric_or_punctuation(c), "{c:?}");
            }
            for c in ['→', '♥', '\u{A0}'] {
                assert!(!is_alphanumeric_or_punctuation(c), "{c:?}");
            }
        }
    }
}
