//! What a split gives: the moves, each a compact record of its label, text, comment and
//! tokens with their places in the file, and the problems found; and the state a split
//! starts from, at the movetext's start or at a MoveNumber of an earlier split.

use std::fmt;
use std::ops::Range;
use std::sync::Arc;

use super::labels::SETUP_LABEL;
use crate::diagnostic::Severity;

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
    pub(super) start: usize,
    pub(super) parts: Arc<MoveParts>,
}

/// What a move is, wherever it stands in the file. Offsets are `u32` (a move of over 4 GiB
/// has its ranges cut short) to keep a record small.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct MoveParts {
    /// The label, the text and the comment, one after the other.
    pub(super) strings: Box<str>,
    pub(super) label_end: u32,
    pub(super) text_end: u32,
    /// The MoveNumber's place, from the move's start.
    pub(super) label_source: Option<(u32, u32)>,
    /// The move's end, from its start.
    pub(super) source_end: u32,
    /// Each token's end in `strings` (tokens are the text's words, one space apart) and
    /// its place in the file, from the move's start.
    pub(super) tokens: Box<[PackedToken]>,
}

#[derive(Debug, PartialEq, Eq)]
pub(super) struct PackedToken {
    pub(super) text_end: u32,
    pub(super) source: (u32, u32),
}

/// A move's tokens as they are read: their texts joined by single spaces, and each one's
/// end in that text and place in the file.
#[derive(Default)]
pub(super) struct Words {
    pub(super) text: String,
    pub(super) tokens: Vec<(usize, Range<usize>)>,
}

#[cfg(test)]
impl Words {
    pub(super) fn push(&mut self, text: &str, source: Range<usize>) {
        if !self.tokens.is_empty() {
            self.text.push(' ');
        }
        self.text.push_str(text);
        self.tokens.push((self.text.len(), source));
    }
}

pub(super) fn narrow(offset: usize) -> u32 {
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

    pub(super) fn from_words(
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

    pub(super) fn absolute(&self, offset: u32) -> usize {
        self.start.saturating_add(offset as usize)
    }

    pub(super) fn string(&self, range: Range<u32>) -> &str {
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

    pub(super) fn unpack(&self, index: usize, packed: &PackedToken) -> MoveToken<'_> {
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

/// What the text before a MoveNumber decides about the rest of the movetext, for a
/// MoveNumber that is a whole token outside comments: a split can start there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct ResumePoint {
    pub(super) expanded_strings: usize,
    pub(super) expanded_bytes: usize,
    pub(super) over_cap: bool,
}

/// The state the text before a split's start leaves.
pub(super) struct SplitStart {
    pub(super) expanded_strings: usize,
    pub(super) expanded_bytes: usize,
    pub(super) over_cap: bool,
    pub(super) previous_label: String,
}

impl SplitStart {
    pub(super) fn at_movetext_start() -> SplitStart {
        SplitStart {
            expanded_strings: 0,
            expanded_bytes: 0,
            over_cap: false,
            previous_label: SETUP_LABEL.to_string(),
        }
    }
}
