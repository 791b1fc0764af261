//! Byte offsets ↔ line/column positions.
//!
//! Lines end at `\n`, `\r\n` or a lone `\r` (what LSP counts as line ends); nothing else.

use crate::model::edit::TextEdit;

/// Where each line starts, for fast offset → position look-ups on large documents.
#[derive(Clone, Debug)]
pub struct LineIndex {
    line_starts: Vec<usize>,
    len: usize,
}

/// A zero-based line and a zero-based column counted in the unit the caller asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineCol {
    pub line: usize,
    pub col: usize,
}

/// How columns are counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColumnUnit {
    /// Unicode scalar values: what a person counts, and what `--check` prints.
    Chars,
    Utf8Bytes,
    Utf16CodeUnits,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let mut line_starts = vec![0];
        push_line_starts(text, 0..text.len(), &mut line_starts);
        LineIndex {
            line_starts,
            len: text.len(),
        }
    }

    /// The index of `new_text`, which `edit` (checked against this index's text) made from
    /// this index's text: only the edited bytes are read again.
    pub fn update(&self, new_text: &str, edit: &TextEdit) -> LineIndex {
        // A line end at a byte depends on it and on the next one (`\r\n` is one end).
        let reread_from = edit.start.saturating_sub(1);
        let kept = self
            .line_starts
            .partition_point(|&start| start <= reread_from);
        let moved_from = self
            .line_starts
            .partition_point(|&start| start <= edit.old_end);
        let mut line_starts = Vec::with_capacity(self.line_starts.len() + 1);
        line_starts.extend_from_slice(&self.line_starts[..kept]);
        push_line_starts(new_text, reread_from..edit.new_end, &mut line_starts);
        line_starts.extend(
            self.line_starts[moved_from..]
                .iter()
                .map(|&start| start - edit.old_end + edit.new_end),
        );
        LineIndex {
            line_starts,
            len: new_text.len(),
        }
    }

    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }

    /// The zero-based line holding `offset` (clamped to the text).
    pub fn line_of(&self, offset: usize) -> usize {
        let offset = offset.min(self.len);
        match self.line_starts.binary_search(&offset) {
            Ok(line) => line,
            Err(next) => next - 1,
        }
    }

    /// The byte range of a line, without its line end.
    pub fn line_range(&self, text: &str, line: usize) -> std::ops::Range<usize> {
        let start = self.line_starts[line.min(self.line_starts.len() - 1)];
        let mut end = self.line_starts.get(line + 1).copied().unwrap_or(self.len);
        let bytes = text.as_bytes();
        while end > start && matches!(bytes[end - 1], b'\n' | b'\r') {
            end -= 1;
        }
        start..end
    }

    /// Where `line` starts and where the next one starts (the text's end for the last),
    /// line end included.
    pub fn line_span(&self, line: usize) -> std::ops::Range<usize> {
        let line = line.min(self.line_starts.len() - 1);
        self.line_starts[line]..self.line_starts.get(line + 1).copied().unwrap_or(self.len)
    }

    /// Position of a byte offset; an offset inside a character counts as that character.
    pub fn position(&self, text: &str, offset: usize, unit: ColumnUnit) -> LineCol {
        let offset = floor_char_boundary(text, offset.min(self.len));
        let line = self.line_of(offset);
        let prefix = &text[self.line_starts[line]..offset];
        let col = match unit {
            ColumnUnit::Chars => prefix.chars().count(),
            ColumnUnit::Utf8Bytes => prefix.len(),
            ColumnUnit::Utf16CodeUnits => prefix.chars().map(char::len_utf16).sum(),
        };
        LineCol { line, col }
    }

    /// Byte offset of a position; columns past the end of the line clamp to its end.
    pub fn offset(&self, text: &str, pos: LineCol, unit: ColumnUnit) -> usize {
        if pos.line >= self.line_starts.len() {
            return self.len;
        }
        let range = self.line_range(text, pos.line);
        let line_text = &text[range.clone()];
        let mut counted = 0;
        for (byte, ch) in line_text.char_indices() {
            if counted >= pos.col {
                return range.start + byte;
            }
            counted += match unit {
                ColumnUnit::Chars => 1,
                ColumnUnit::Utf8Bytes => ch.len_utf8(),
                ColumnUnit::Utf16CodeUnits => ch.len_utf16(),
            };
        }
        range.end
    }
}

/// Pushes the start of each line that a line end in `ends` (byte offsets into `text`) opens.
fn push_line_starts(text: &str, ends: std::ops::Range<usize>, line_starts: &mut Vec<usize>) {
    let bytes = text.as_bytes();
    let Some(searched) = bytes.get(ends.clone()) else {
        return;
    };
    for end in memchr::memchr2_iter(b'\n', b'\r', searched).map(|at| ends.start + at) {
        // `\r\n` ends one line, at its `\n`.
        if bytes[end] == b'\r' && bytes.get(end + 1) == Some(&b'\n') {
            continue;
        }
        line_starts.push(end + 1);
    }
}

pub fn floor_char_boundary(text: &str, mut offset: usize) -> usize {
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_three_line_ends_count() {
        let text = "a\nb\r\nc\rd";
        let index = LineIndex::new(text);
        assert_eq!(index.line_count(), 4);
        assert_eq!(
            index.position(text, 7, ColumnUnit::Chars),
            LineCol { line: 3, col: 0 }
        );
        assert_eq!(index.line_range(text, 1), 2..3);
    }

    #[test]
    fn form_feed_and_line_separator_are_not_line_ends() {
        let text = "a\u{c}b\u{2028}c";
        let index = LineIndex::new(text);
        assert_eq!(index.line_count(), 1);
    }

    #[test]
    fn astral_glyphs_are_one_char_two_utf16_units_four_bytes() {
        let text = "x 🂡@b2";
        let index = LineIndex::new(text);
        let at = text.find('@').unwrap();
        assert_eq!(index.position(text, at, ColumnUnit::Chars).col, 3);
        assert_eq!(index.position(text, at, ColumnUnit::Utf16CodeUnits).col, 4);
        assert_eq!(index.position(text, at, ColumnUnit::Utf8Bytes).col, 6);
        for unit in [
            ColumnUnit::Chars,
            ColumnUnit::Utf16CodeUnits,
            ColumnUnit::Utf8Bytes,
        ] {
            let pos = index.position(text, at, unit);
            assert_eq!(index.offset(text, pos, unit), at);
        }
    }

    #[test]
    fn an_updated_index_is_the_index_of_the_new_text() {
        let pieces = ["\n", "\r", "\r\n", "ab", "é", ""];
        let mut seed = 11_u64;
        let mut next = |below: usize| {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            (seed >> 33) as usize % below
        };
        let mut text: String = (0..40).map(|i| pieces[i % pieces.len()]).collect();
        let mut index = LineIndex::new(&text);
        for _ in 0..2_000 {
            let mut start = next(text.len() + 1);
            while !text.is_char_boundary(start) {
                start -= 1;
            }
            let mut old_end = (start + next(4)).min(text.len());
            while !text.is_char_boundary(old_end) {
                old_end += 1;
            }
            let inserted: String = (0..next(3)).map(|_| pieces[next(pieces.len())]).collect();
            let mut new_text = text.clone();
            new_text.replace_range(start..old_end, &inserted);
            let edit = TextEdit {
                start,
                old_end,
                new_end: start + inserted.len(),
            };
            index = index.update(&new_text, &edit);
            let fresh = LineIndex::new(&new_text);
            assert_eq!(
                index.line_starts, fresh.line_starts,
                "{new_text:?} after {edit:?}"
            );
            assert_eq!(index.len, fresh.len);
            text = new_text;
        }
    }
}
