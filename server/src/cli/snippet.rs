//! Lines and character columns of byte offsets, and the piece of a line shown under a
//! diagnostic, each in constant time whatever the length of the line: a file of one
//! megabyte on one line with thousands of diagnostics prints as fast as a short one.

use std::ops::Range;

use crate::model::line_index::LineIndex;

/// Characters counted every this many bytes: a column is one look-up plus a count over
/// at most this many bytes.
const CHECKPOINT_BYTES: usize = 256;

/// A line start table plus character counts at fixed byte intervals.
pub struct ColumnIndex<'a> {
    text: &'a str,
    lines: LineIndex,
    /// `chars_before[i]`: how many characters start before byte `i * CHECKPOINT_BYTES`.
    chars_before: Vec<usize>,
}

/// A one-based line and character column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    pub line: usize,
    pub column: usize,
}

impl<'a> ColumnIndex<'a> {
    pub fn new(text: &'a str) -> ColumnIndex<'a> {
        let mut chars_before = Vec::with_capacity(text.len() / CHECKPOINT_BYTES + 1);
        let mut count = 0;
        for chunk in text.as_bytes().chunks(CHECKPOINT_BYTES) {
            chars_before.push(count);
            count += chunk.iter().filter(|&&b| is_char_start(b)).count();
        }
        chars_before.push(count);
        ColumnIndex {
            text,
            lines: LineIndex::new(text),
            chars_before,
        }
    }

    /// How many characters start before `offset`.
    fn chars_before(&self, offset: usize) -> usize {
        let offset = offset.min(self.text.len());
        let checkpoint = offset / CHECKPOINT_BYTES;
        let from = checkpoint * CHECKPOINT_BYTES;
        self.chars_before[checkpoint]
            + self.text.as_bytes()[from..offset]
                .iter()
                .filter(|&&b| is_char_start(b))
                .count()
    }

    /// The position of `offset`; an offset inside a character is that character.
    pub fn position(&self, offset: usize) -> Position {
        let offset = floor_char_boundary(self.text, offset.min(self.text.len()));
        let line = self.lines.line_of(offset);
        let line_start = self.lines.line_range(self.text, line).start;
        Position {
            line: line + 1,
            column: self.chars_before(offset) - self.chars_before(line_start) + 1,
        }
    }

    /// The bytes of a line (one-based), without its line end.
    pub fn line_range(&self, line: usize) -> Range<usize> {
        self.lines.line_range(self.text, line.saturating_sub(1))
    }
}

fn is_char_start(byte: u8) -> bool {
    byte & 0b1100_0000 != 0b1000_0000
}

fn floor_char_boundary(text: &str, mut offset: usize) -> usize {
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// Lines up to this many bytes are shown whole.
const WHOLE_LINE_BYTES: usize = 120;
/// Around a diagnostic on a longer line: so many characters before it, of it and after it.
const CHARS_BEFORE: usize = 40;
const CHARS_OF_RANGE: usize = 60;
const CHARS_AFTER: usize = 20;
const ELLIPSIS: char = '…';

/// What is shown of a line under a diagnostic: the text, and where the caret goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snippet {
    pub text: String,
    /// What goes before the caret: a space per character before it (tabs are kept, so
    /// the caret lines up under them).
    pub lead: String,
    /// Characters under the caret (at least one).
    pub caret: usize,
}

/// The piece of `line` (a byte range of `text`) around `range`, cut to a window when the
/// line is long. Linear in the window, never in the line.
pub fn snippet(text: &str, line: Range<usize>, range: Range<usize>) -> Snippet {
    let start = floor_char_boundary(text, range.start.clamp(line.start, line.end));
    let end = floor_char_boundary(text, range.end.clamp(start, line.end));
    let whole = line.len() <= WHOLE_LINE_BYTES;

    let limit = |cap: usize| if whole { usize::MAX } else { cap };
    let window_start = text[line.start..start]
        .char_indices()
        .rev()
        .take(limit(CHARS_BEFORE))
        .last()
        .map_or(start, |(i, _)| line.start + i);
    let cut_before = window_start > line.start;

    let (caret, caret_end) = text[start..end]
        .char_indices()
        .take(limit(CHARS_OF_RANGE))
        .fold((0, start), |(count, _), (i, c)| {
            (count + 1, start + i + c.len_utf8())
        });

    let window_end = text[caret_end..line.end]
        .char_indices()
        .take(limit(CHARS_AFTER))
        .last()
        .map_or(caret_end, |(i, c)| caret_end + i + c.len_utf8());
    let cut_after = window_end < line.end;

    let mut shown = String::new();
    let mut lead = String::new();
    if cut_before {
        shown.push(ELLIPSIS);
        lead.push(' ');
    }
    shown.push_str(&text[window_start..window_end]);
    if cut_after {
        shown.push(ELLIPSIS);
    }
    lead.extend(
        text[window_start..start]
            .chars()
            .map(|c| if c == '\t' { '\t' } else { ' ' }),
    );
    Snippet {
        text: shown,
        lead,
        // An empty range still gets a caret.
        caret: caret.max(1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_characters_across_checkpoints() {
        let mut text = "é".repeat(300);
        text.push_str("\nab🂡c");
        let index = ColumnIndex::new(&text);
        assert_eq!(index.position(0), Position { line: 1, column: 1 });
        assert_eq!(
            index.position(2 * 200),
            Position {
                line: 1,
                column: 201
            }
        );
        let second = text.find('\n').unwrap() + 1;
        let c = text.find('c').unwrap();
        assert_eq!(index.position(c), Position { line: 2, column: 4 });
        // Inside the card: the card's column.
        assert_eq!(index.position(second + 3), Position { line: 2, column: 3 });
        assert_eq!(index.position(text.len() + 9).line, 2);
    }

    #[test]
    fn a_short_line_is_shown_whole() {
        let text = "1. S@b2\t*b5 M@c3";
        let at = text.find("b5").unwrap();
        let shown = snippet(text, 0..text.len(), at..at + 2);
        assert_eq!(shown.text, text);
        assert_eq!(shown.lead, "       \t ");
        assert_eq!(shown.caret, 2);
    }

    #[test]
    fn a_long_line_is_cut_around_the_range() {
        let text = format!("{}XYZ{}", "a".repeat(5000), "b".repeat(5000));
        let at = text.find('X').unwrap();
        let shown = snippet(&text, 0..text.len(), at..at + 3);
        assert_eq!(
            shown.text,
            format!("…{}XYZ{}…", "a".repeat(40), "b".repeat(20))
        );
        assert_eq!(shown.lead.chars().count(), 41);
        assert_eq!(shown.caret, 3);
    }

    #[test]
    fn a_long_range_is_cut_too() {
        let text = "c".repeat(1000);
        let shown = snippet(&text, 0..1000, 10..900);
        assert_eq!(shown.caret, 60);
        assert_eq!(shown.text.chars().count(), 10 + 60 + 20 + 1);
        assert!(shown.text.ends_with('…') && !shown.text.starts_with('…'));
    }

    #[test]
    fn a_range_past_the_line_end_stops_at_it() {
        let text = "1. {never closed\n2. x\n";
        let shown = snippet(text, 0..16, 3..text.len());
        assert_eq!(shown.caret, 13);
        let empty = snippet(text, 0..16, 16..16);
        assert_eq!((empty.lead.len(), empty.caret), (16, 1));
    }
}
