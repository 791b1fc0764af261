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

use std::collections::HashMap;
use std::fmt;
use std::hash::BuildHasherDefault;
use std::ops::Range;
use std::sync::Arc;

pub use crate::diagnostic::Severity;
use crate::model::edit::TextEdit;
use crate::ppn::reader::braces::{expand_token_located, expands_to_itself};
use labels::{continue_label, continues, set_written_label};
use working_text::{closes_first, NextFound, WorkingText};

mod char_class;
mod labels;
pub use labels::{
    label_of, stem_and_dots, user_label, BEFORE_FIRST_MOVE_NUMBER_LABEL, SETUP_LABEL,
};
mod working_text;

/// The most strings all brace expansions of one game may produce together; past it,
/// tokens stay unexpanded so a hostile file cannot exhaust memory.
pub const MAX_MOVETEXT_EXPANSIONS: usize = 100_000;

/// The most bytes of text all brace expansions of one game may produce together.
pub const MAX_MOVETEXT_EXPANDED_BYTES: usize = 1 << 20;

/// One whitespace-separated token of a move's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveToken<'a> {
    /// The token after brace expansion, before macro substitution.
    pub text: &'a str,
    /// The unexpanded token in the file (for an expansion: the whole braced token).
    pub source: Range<usize>,
}

/// One move: a MoveNumber (or a `.`/`;` shortcut) and the text that follows it.
///
/// A game of 100,000 moves keeps 100,000 records, and an edit moves every record after it:
/// so a record is where the move starts and its parts behind an `Arc`, with every range
/// relative to the start. Moving a record along the file copies two words.
#[derive(Debug, Clone)]
pub struct MoveRecord {
    /// Where [`MoveRecord::source`] starts in the file.
    start: usize,
    parts: Arc<MoveParts>,
}

/// What a move is, wherever it stands in the file. Offsets are `u32` (a move of over 4 GiB
/// has its ranges cut short) to keep a record small.
#[derive(Debug, PartialEq, Eq)]
struct MoveParts {
    /// The label, the text and the comment, one after the other.
    strings: Box<str>,
    label_end: u32,
    text_end: u32,
    /// The MoveNumber's place, from the move's start.
    label_source: Option<(u32, u32)>,
    /// The move's end, from its start.
    source_end: u32,
    /// Each token's end in `strings` (tokens are the text's words, one space apart) and
    /// its place in the file, from the move's start.
    tokens: Box<[PackedToken]>,
}

#[derive(Debug, PartialEq, Eq)]
struct PackedToken {
    text_end: u32,
    source: (u32, u32),
}

/// A move's tokens as they are read: their texts joined by single spaces, and each one's
/// end in that text and place in the file.
#[derive(Default)]
struct Words {
    text: String,
    tokens: Vec<(usize, Range<usize>)>,
}

#[cfg(test)]
impl Words {
    fn push(&mut self, text: &str, source: Range<usize>) {
        if !self.tokens.is_empty() {
            self.text.push(' ');
        }
        self.text.push_str(text);
        self.tokens.push((self.text.len(), source));
    }
}

fn narrow(offset: usize) -> u32 {
    u32::try_from(offset).unwrap_or(u32::MAX)
}

impl PartialEq for MoveRecord {
    fn eq(&self, other: &MoveRecord) -> bool {
        self.start == other.start
            && (Arc::ptr_eq(&self.parts, &other.parts) || self.parts == other.parts)
    }
}

impl Eq for MoveRecord {}

impl MoveRecord {
    /// `label` is `1.`, `1...`, `12S.`, `2..` for a `.`/`;` after `2.`, `SetupFn..` before
    /// any MoveNumber; `label_source` the MoveNumber, `.` or `;` in the file (`None` for
    /// `SetupFn..`); `tokens` the move's words without its comments, braces expanded;
    /// `comment` its comments without their braces, joined by one space; `source` from the
    /// MoveNumber through the last token or comment of the move.
    #[cfg(test)]
    pub fn new(
        label: &str,
        label_source: Option<Range<usize>>,
        tokens: &[MoveToken<'_>],
        comment: &str,
        source: Range<usize>,
    ) -> MoveRecord {
        let mut words = Words::default();
        for token in tokens {
            words.push(token.text, token.source.clone());
        }
        MoveRecord::from_words(label, label_source, &words, comment, source)
    }

    fn from_words(
        label: &str,
        label_source: Option<Range<usize>>,
        words: &Words,
        comment: &str,
        source: Range<usize>,
    ) -> MoveRecord {
        let start = source.start;
        let relative = |offset: usize| narrow(offset.saturating_sub(start));
        let mut strings = String::with_capacity(label.len() + words.text.len() + comment.len());
        strings.push_str(label);
        strings.push_str(&words.text);
        strings.push_str(comment);
        let tokens = words
            .tokens
            .iter()
            .map(|(end, source)| PackedToken {
                text_end: narrow(label.len() + end),
                source: (relative(source.start), relative(source.end)),
            })
            .collect();
        MoveRecord {
            start,
            parts: Arc::new(MoveParts {
                strings: strings.into_boxed_str(),
                label_end: narrow(label.len()),
                text_end: narrow(label.len() + words.text.len()),
                label_source: label_source
                    .map(|range| (relative(range.start), relative(range.end))),
                source_end: relative(source.end),
                tokens,
            }),
        }
    }

    fn absolute(&self, offset: u32) -> usize {
        self.start.saturating_add(offset as usize)
    }

    fn string(&self, range: Range<u32>) -> &str {
        self.parts
            .strings
            .get(range.start as usize..range.end as usize)
            .unwrap_or("")
    }

    /// `1.`, `1...`, `12S.`, `2..` for a `.`/`;` after `2.`, `SetupFn..` before any
    /// MoveNumber.
    pub fn label(&self) -> &str {
        self.string(0..self.parts.label_end)
    }

    /// The MoveNumber, `.` or `;` in the file; `None` for `SetupFn..`.
    pub fn label_source(&self) -> Option<Range<usize>> {
        let (start, end) = self.parts.label_source?;
        Some(self.absolute(start)..self.absolute(end))
    }

    /// The move without its comments, whitespace squished, braces expanded.
    pub fn text(&self) -> &str {
        self.string(self.parts.label_end..self.parts.text_end)
    }

    /// The move's comments without their braces, joined by one space.
    pub fn comment(&self) -> &str {
        self.string(self.parts.text_end..narrow(self.parts.strings.len()))
    }

    /// From the MoveNumber through the last token or comment of the move.
    pub fn source(&self) -> Range<usize> {
        self.start..self.absolute(self.parts.source_end)
    }

    /// Token `index` of the move's text.
    pub fn token(&self, index: usize) -> Option<MoveToken<'_>> {
        Some(self.unpack(index, self.parts.tokens.get(index)?))
    }

    /// The whitespace-separated tokens of [`MoveRecord::text`].
    pub fn tokens(&self) -> impl DoubleEndedIterator<Item = MoveToken<'_>> + ExactSizeIterator {
        self.parts
            .tokens
            .iter()
            .enumerate()
            .map(|(index, packed)| self.unpack(index, packed))
    }

    fn unpack(&self, index: usize, packed: &PackedToken) -> MoveToken<'_> {
        let text_start = match index.checked_sub(1) {
            None => self.parts.label_end,
            Some(before) => self.parts.tokens[before].text_end + 1,
        };
        MoveToken {
            text: self.string(text_start..packed.text_end),
            source: self.absolute(packed.source.0)..self.absolute(packed.source.1),
        }
    }

    /// The same move `delta` bytes further on in the file.
    pub fn shifted(&self, delta: isize) -> MoveRecord {
        MoveRecord {
            start: self.start.saturating_add_signed(delta),
            parts: Arc::clone(&self.parts),
        }
    }
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

/// The token that starts at byte `start` of the file, looked for from `tokens[*from]` on:
/// labels come in file order, so each token is passed once for all of a split's labels.
fn token_starting_at<'t>(
    tokens: &'t [SourceToken],
    from: &mut usize,
    start: usize,
) -> Option<&'t SourceToken> {
    if *from > 0
        && tokens
            .get(*from - 1)
            .is_some_and(|token| token.range.start >= start)
    {
        // A label before the last one asked about: not what labels do, but kept right.
        *from = tokens.partition_point(|token| token.range.start < start);
    }
    while tokens
        .get(*from)
        .is_some_and(|token| token.range.start < start)
    {
        *from += 1;
    }
    tokens.get(*from).filter(|token| token.range.start == start)
}

/// Writes the comments' texts without their braces, joined by one space, whitespace
/// squished, into `text` (emptied first).
fn write_comment_text(body: &str, comments: &[Range<usize>], text: &mut String) {
    text.clear();
    let mut space_before = false;
    for range in comments {
        for c in body[range.clone()].chars() {
            match c {
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
}

/// Cuts the movetext into tokens, expands each, and joins the expansions with spaces.
fn expand_tokens(
    file_text: &str,
    slice: &str,
    movetext: &Range<usize>,
    start: &SplitStart,
    problems: &mut Vec<MovetextProblem>,
) -> (WorkingText, Vec<SourceToken>, (usize, usize, bool)) {
    let offset = movetext.start;
    let mut ranges = Vec::new();
    let mut token_start = None;
    // Which of `{`, `}` and `\` the token being read holds: most tokens can only expand
    // to themselves, which these tell without reading the token again.
    let mut marks = 0u8;
    let mut comment_depth = 0usize;
    // Where the comment that opened at depth 0 last opened: the one left open at the end.
    let mut outermost_open = 0;
    // Whitespace, braces and backslashes are ASCII, and no byte of a character of several
    // bytes is ASCII: runs of the other bytes are skipped in a tight loop, and only the
    // bytes that end them (and, when not ASCII, the character they start) need a look.
    let bytes = slice.as_bytes();
    let mut previous = 0u8;
    let mut index = 0;
    while index < bytes.len() {
        let run_start = index;
        while index < bytes.len() && !SPLIT_SPECIAL[usize::from(bytes[index])] {
            index += 1;
        }
        if index > run_start {
            if token_start.is_none() {
                token_start = Some((run_start, comment_depth > 0));
            }
            previous = bytes[index - 1];
        }
        let Some(&byte) = bytes.get(index) else {
            break;
        };
        let (whitespace, width) = if byte.is_ascii() {
            (is_movetext_whitespace(char::from(byte)), 1)
        } else {
            let c = char_at(slice, index);
            (is_movetext_whitespace(c), c.len_utf8())
        };
        if whitespace {
            if let Some((start, in_comment)) = token_start.take() {
                ranges.push((offset + start..offset + index, in_comment, marks));
            }
            marks = 0;
        } else {
            if token_start.is_none() {
                token_start = Some((index, comment_depth > 0));
            }
            marks |= mark_of(byte);
        }
        if previous != b'\\' {
            match byte {
                b'{' => {
                    if comment_depth == 0 {
                        outermost_open = index;
                    }
                    comment_depth += 1;
                }
                b'}' if comment_depth == 0 => problems.push(MovetextProblem {
                    range: offset + index..offset + index + 1,
                    code: MovetextProblemCode::UnopenedComment,
                    severity: Severity::Warning,
                    message: "`}` without a `{` before it".to_string(),
                }),
                b'}' => comment_depth -= 1,
                _ => {}
            }
        }
        previous = byte;
        index += width;
    }
    if let Some((start, in_comment)) = token_start {
        ranges.push((offset + start..offset + slice.len(), in_comment, marks));
    }
    if comment_depth > 0 {
        problems.push(MovetextProblem {
            range: offset + outermost_open..offset + slice.len(),
            code: MovetextProblemCode::UnclosedComment,
            severity: Severity::Error,
            message: "comment `{` is never closed".to_string(),
        });
    }

    let mut working = WorkingText::with_capacity(slice.len() + ranges.len());
    let mut tokens = Vec::with_capacity(ranges.len());
    let mut first = true;
    let mut expanded_strings = start.expanded_strings;
    let mut expanded_bytes = start.expanded_bytes;
    let mut over_cap = start.over_cap;
    for (range, in_comment, marks) in ranges {
        let expanded_strings_before = expanded_strings;
        let expanded_bytes_before = expanded_bytes;
        let over_cap_before = over_cap;
        let written = &file_text[range.clone()];
        // Only braces expand and only backslashes unescape: most tokens have neither, or
        // not both braces.
        let plain = marks & BACKSLASH == 0 && marks & (OPEN | CLOSE) != OPEN | CLOSE;
        if plain || expands_to_itself(written) {
            separate(&mut working, &mut first);
            working.push_written(written, range.start);
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
        if expanded {
            for expansion in &expansions {
                separate(&mut working, &mut first);
                working.push_expansion(expansion, range.clone());
            }
        } else {
            separate(&mut working, &mut first);
            working.push_written(written, range.start);
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
    (
        working,
        tokens,
        (expanded_strings, expanded_bytes, over_cap),
    )
}

/// Expansions are joined with single spaces that stand for nothing in the file (also
/// around expansions that are empty).
fn separate(working: &mut WorkingText, first: &mut bool) {
    if !*first {
        working.push_separator();
    }
    *first = false;
}

const OPEN: u8 = 1;
const CLOSE: u8 = 2;
const BACKSLASH: u8 = 4;

/// The bytes the splitter's first pass looks at: ASCII whitespace, braces, backslashes,
/// and the first bytes of characters of several bytes (which may be whitespace).
const SPLIT_SPECIAL: [bool; 256] = {
    let mut special = [false; 256];
    let mut byte = 0;
    while byte < 256 {
        special[byte] = matches!(
            byte as u8,
            b'\t' | b'\n' | 0x0C | b'\r' | b' ' | b'{' | b'}' | b'\\' | 0xC0..=0xFF
        );
        byte += 1;
    }
    special
};

/// The mark of a byte of a token: whether it is a `{`, a `}` or a `\`.
fn mark_of(byte: u8) -> u8 {
    match byte {
        b'{' => OPEN,
        b'}' => CLOSE,
        b'\\' => BACKSLASH,
        _ => 0,
    }
}

/// The character starting at byte `at` of `text`, which must be one.
fn char_at(text: &str, at: usize) -> char {
    match text.as_bytes()[at] {
        byte if byte.is_ascii() => char::from(byte),
        _ => text[at..]
            .chars()
            .next()
            .unwrap_or(char::REPLACEMENT_CHARACTER),
    }
}

/// The character ending just before byte `at` of `text`, which must be a character's start.
fn char_before(text: &str, at: usize) -> char {
    match text.as_bytes()[at - 1] {
        byte if byte.is_ascii() => char::from(byte),
        _ => text[..at]
            .chars()
            .next_back()
            .unwrap_or(char::REPLACEMENT_CHARACTER),
    }
}

struct RawMove {
    /// Where the MoveNumber is in the working text; `None` for the text before the first
    /// one.
    label: Option<Range<usize>>,
    body: Range<usize>,
}

fn is_move_number_char(c: char) -> bool {
    /// Bit `c` is set for the ASCII characters of MoveNumbers.
    const ASCII: u128 = {
        let mut set = 0u128;
        let mut c = 0u8;
        while c < 128 {
            if c == b'_' || c == b'.' || c.is_ascii_alphanumeric() {
                set |= 1 << c;
            }
            c += 1;
        }
        set
    };
    if c.is_ascii() {
        ASCII & (1 << (c as u32)) != 0
    } else {
        char_class::is_alphanumeric(c)
    }
}

/// A MoveNumber is a run of letters, digits, `_` and `.` ending in `.`, with neither a
/// letter, digit nor punctuation mark just before or after it, outside comments.
fn move_numbers(text: &str) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let mut braces = NextFound::default();
    let mut numbers = Vec::new();
    // Only a run of MoveNumber characters that ends in a `.` can be one: the runs are
    // found from their dots, and the text between them is only searched for a `.`.
    let mut from = 0;
    while let Some(found) = memchr::memchr(b'.', &bytes[from..]) {
        let dot = from + found;
        // The run holding the dot: `p..q`, each end where MoveNumber characters stop.
        let mut q = dot + 1;
        while q < bytes.len() {
            let c = char_at(text, q);
            if !is_move_number_char(c) {
                break;
            }
            q += c.len_utf8();
        }
        if bytes[q - 1] == b'.' && !closes_first(bytes, &mut braces, q) {
            let mut p = dot;
            while p > 0 {
                let c = char_before(text, p);
                if !is_move_number_char(c) {
                    break;
                }
                p -= c.len_utf8();
            }
            let free_before =
                p == 0 || !char_class::is_alphanumeric_or_punctuation(char_before(text, p));
            let free_after =
                q == text.len() || !char_class::is_alphanumeric_or_punctuation(char_at(text, q));
            if free_before && free_after {
                numbers.push(p..q);
            }
        }
        // The character at `q` is no MoveNumber character: the next run starts after it.
        from = q;
    }
    numbers
}

/// Cuts the text at the MoveNumbers, dropping the one separator character on each
/// side of a MoveNumber as the reference does.
fn cut_at_move_numbers(text: &str) -> Vec<RawMove> {
    let numbers = move_numbers(text);
    let Some(first) = numbers.first() else {
        return vec![RawMove {
            label: None,
            body: 0..text.len(),
        }];
    };
    let separator_before = |at: usize| at - char_before(text, at).len_utf8();
    let mut moves = Vec::with_capacity(numbers.len() + 1);
    if first.start > 0 {
        moves.push(RawMove {
            label: None,
            body: 0..separator_before(first.start),
        });
    }
    for (k, number) in numbers.iter().enumerate() {
        let end = numbers
            .get(k + 1)
            .map_or(text.len(), |next| separator_before(next.start));
        let after_separator = match number.end {
            end if end < text.len() => end + char_at(text, end).len_utf8(),
            end => end + 1,
        };
        moves.push(RawMove {
            label: Some(number.clone()),
            body: after_separator.min(end)..end,
        });
    }
    moves
}

/// Comments: `{` to the first `}`, with neither a letter, digit nor punctuation mark
/// just outside the braces; found into `spans` (emptied first).
fn find_comment_spans(body: &str, spans: &mut Vec<Range<usize>>) {
    spans.clear();
    let bytes = body.as_bytes();
    // The first `}` at or after a position. The positions asked about only grow, so the
    // body is scanned once, forward, whatever its braces.
    let mut closes = NextFound::default();
    let mut i = 0;
    while let Some(found) = memchr::memchr(b'{', &bytes[i..]) {
        let open = i + found;
        i = open + 1;
        if open > 0 && char_class::is_alphanumeric_or_punctuation(char_before(body, open)) {
            continue;
        }
        let Some(close) = closes.at_or_after(open + 1, |from| {
            memchr::memchr(b'}', bytes.get(from..)?).map(|at| from + at)
        }) else {
            break;
        };
        let free_after = close + 1 == body.len()
            || !char_class::is_alphanumeric_or_punctuation(char_at(body, close + 1));
        if free_after {
            spans.push(open..close + 1);
            i = close + 1;
        }
    }
}

/// Reads the words of `body` (which starts at `body_start` of the working text) outside
/// `comments` into `words` (emptied first).
fn tokens_outside(
    body: &str,
    body_start: usize,
    comments: &[Range<usize>],
    working: &WorkingText,
    words: &mut Words,
) {
    words.text.clear();
    words.tokens.clear();
    let mut token = TokenBeingRead::default();
    let bytes = body.as_bytes();
    let mut segment_start = 0;
    // Symbols such as `$` or `~` may touch a comment; the reference then glues them
    // together when it drops the comment: a token goes on over a comment.
    let segment_ends = comments
        .iter()
        .map(|comment| (comment.start, comment.end))
        .chain([(body.len(), body.len())]);
    for (segment_end, next_segment_start) in segment_ends {
        let mut run_start = None;
        let mut i = segment_start;
        while i < segment_end {
            let (whitespace, width) = match bytes[i] {
                byte if byte.is_ascii() => (is_movetext_whitespace(char::from(byte)), 1),
                _ => {
                    let c = char_at(body, i);
                    (is_movetext_whitespace(c), c.len_utf8())
                }
            };
            if whitespace {
                if let Some(run_start) = run_start.take() {
                    token.add(&body[run_start..i], body_start + run_start, working, words);
                }
                token.finish(words);
            } else if run_start.is_none() {
                run_start = Some(i);
            }
            i += width;
        }
        if let Some(run_start) = run_start {
            token.add(
                &body[run_start..segment_end],
                body_start + run_start,
                working,
                words,
            );
        }
        segment_start = next_segment_start;
    }
    token.finish(words);
}

/// The token [`tokens_outside`] is reading: where its text starts in the words, and the
/// file bytes it comes from.
#[derive(Default)]
struct TokenBeingRead {
    text_start: usize,
    source: Option<Range<usize>>,
}

impl TokenBeingRead {
    /// Adds characters that start at `at` of the working text.
    fn add(&mut self, run: &str, at: usize, working: &WorkingText, words: &mut Words) {
        if words.text.len() == self.text_start && !words.tokens.is_empty() {
            words.text.push(' ');
            self.text_start = words.text.len();
        }
        words.text.push_str(run);
        if let Some(span) = working.span(at..at + run.len()) {
            self.source = Some(match self.source.take() {
                None => span,
                Some(source) => source.start.min(span.start)..source.end.max(span.end),
            });
        }
    }

    fn finish(&mut self, words: &mut Words) {
        if words.text.len() != self.text_start {
            let source = self.source.take().unwrap_or(0..0);
            words.tokens.push((words.text.len(), source));
        }
        self.text_start = words.text.len();
    }
}

fn report_duplicate_labels(moves: &[MoveRecord], problems: &mut Vec<MovetextProblem>) {
    if labels_increase_by_family(moves) {
        return;
    }
    let mut seen: HashMap<&str, usize, BuildHasherDefault<LabelHasher>> =
        HashMap::with_capacity_and_hasher(moves.len() + 1, BuildHasherDefault::default());
    seen.insert(SETUP_LABEL, usize::MAX);
    for (index, record) in moves.iter().enumerate() {
        if let Some(&earlier) = seen.get(record.label()) {
            let message = if earlier == usize::MAX {
                format!("MoveNumber `{}` is the label of the setup", record.label())
            } else {
                format!("MoveNumber `{}` is used twice in this game", record.label())
            };
            problems.push(MovetextProblem {
                range: record.label_source().unwrap_or_else(|| record.source()),
                code: MovetextProblemCode::DuplicateMoveNumber,
                severity: Severity::Warning,
                message,
            });
        } else {
            seen.insert(record.label(), index);
        }
    }
}

/// A label read as a family and a place in it: the label without its number and its
/// final dots (hashed), and that number and the count of those dots. `12...` is `12`
/// and three dots in the family of `.`-only labels, `3B.` the third in the family `B`,
/// `Round2..` the second of `Round`, `Setup..` has no number. The same label always gives
/// the same family and place; two labels may share both and still differ (`1.`, `01.`).
fn label_family_and_place(label: &str) -> (u64, (u64, usize)) {
    let label = label.as_bytes();
    let body = label.len() - label.iter().rev().take_while(|&&b| b == b'.').count();
    let dots = label.len() - body;
    let body = &label[..body];
    let digits_start = body
        .iter()
        .position(u8::is_ascii_digit)
        .unwrap_or(body.len());
    let digits = body[digits_start..]
        .iter()
        .take_while(|b| b.is_ascii_digit())
        .count()
        .min(18);
    let number = body[digits_start..digits_start + digits]
        .iter()
        .fold(0, |number, digit| number * 10 + u64::from(digit - b'0'));
    let mut family = LabelHasher::default();
    std::hash::Hasher::write(&mut family, &body[..digits_start]);
    std::hash::Hasher::write_u8(&mut family, 0xFF);
    std::hash::Hasher::write(&mut family, &body[digits_start + digits..]);
    (std::hash::Hasher::finish(&family), (number, dots))
}

/// Whether, in each family of labels ([`label_family_and_place`]), every label comes after
/// the one before (and after the setup's `SetupFn.`): then no two labels are the same,
/// which is what almost every game shows. The families are few (`1W.` and `1B.`, or
/// `1S.`, `1M.`, `1C.`, `1A.`); past sixteen, the answer is no.
fn labels_increase_by_family(moves: &[MoveRecord]) -> bool {
    const MOST_FAMILIES: usize = 16;
    let mut families = [(0u64, (0u64, 0usize)); MOST_FAMILIES];
    families[0] = label_family_and_place(SETUP_LABEL);
    let mut count = 1;
    for record in moves {
        let (family, place) = label_family_and_place(record.label());
        match families[..count].iter_mut().find(|(f, _)| *f == family) {
            Some((_, last)) if *last >= place => return false,
            Some((_, last)) => *last = place,
            None if count == MOST_FAMILIES => return false,
            None => {
                families[count] = (family, place);
                count += 1;
            }
        }
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

#[cfg(test)]
mod tests;
