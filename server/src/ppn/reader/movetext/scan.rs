//! Reading the expanded text: whitespace, the MoveNumbers it is cut at, the comments taken
//! out of each move, and the tokens outside them.

use std::ops::Range;

use super::char_class;
use super::records::Words;
use super::working_text::{closes_first, NextFound, WorkingText};

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

/// Writes the comments' texts without their braces, joined by one space, whitespace
/// squished, into `text` (emptied first).
pub(super) fn write_comment_text(body: &str, comments: &[Range<usize>], text: &mut String) {
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

/// The character starting at byte `at` of `text`, which must be one.
pub(super) fn char_at(text: &str, at: usize) -> char {
    match text.as_bytes()[at] {
        byte if byte.is_ascii() => char::from(byte),
        _ => text[at..]
            .chars()
            .next()
            .unwrap_or(char::REPLACEMENT_CHARACTER),
    }
}

/// The character ending just before byte `at` of `text`, which must be a character's start.
pub(super) fn char_before(text: &str, at: usize) -> char {
    match text.as_bytes()[at - 1] {
        byte if byte.is_ascii() => char::from(byte),
        _ => text[..at]
            .chars()
            .next_back()
            .unwrap_or(char::REPLACEMENT_CHARACTER),
    }
}

pub(super) struct RawMove {
    /// Where the MoveNumber is in the working text; `None` for the text before the first
    /// one.
    pub(super) label: Option<Range<usize>>,
    pub(super) body: Range<usize>,
}

pub(super) fn is_move_number_char(c: char) -> bool {
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
pub(super) fn move_numbers(text: &str) -> Vec<Range<usize>> {
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
pub(super) fn cut_at_move_numbers(text: &str) -> Vec<RawMove> {
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
pub(super) fn find_comment_spans(body: &str, spans: &mut Vec<Range<usize>>) {
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
pub(super) fn tokens_outside(
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
pub(super) struct TokenBeingRead {
    pub(super) text_start: usize,
    pub(super) source: Option<Range<usize>>,
}

impl TokenBeingRead {
    /// Adds characters that start at `at` of the working text.
    pub(super) fn add(&mut self, run: &str, at: usize, working: &WorkingText, words: &mut Words) {
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

    pub(super) fn finish(&mut self, words: &mut Words) {
        if words.text.len() != self.text_start {
            let source = self.source.take().unwrap_or(0..0);
            words.tokens.push((words.text.len(), source));
        }
        self.text_start = words.text.len();
    }
}
