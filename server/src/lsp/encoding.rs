//! LSP positions ↔ offsets, in the position encoding negotiated with the client.
//!
//! Lines end at `\n`, `\r\n` or a lone `\r`, as LSP counts them. A column past the end of
//! its line means the end of that line, and a line past the end of the document means the
//! end of the document, so no position a client sends can fail to convert.

use ropey::Rope;
use tower_lsp_server::ls_types::{Position, PositionEncodingKind};

use crate::model::line_index::{floor_char_boundary, ColumnUnit, LineIndex};

/// The position encodings this server speaks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PositionEncoding {
    Utf8,
    /// What LSP assumes when nothing else was agreed.
    #[default]
    Utf16,
}

impl PositionEncoding {
    /// UTF-8 when the client offers it (no conversion cost for us), else the mandatory UTF-16.
    pub fn negotiate(offered: Option<&[PositionEncodingKind]>) -> PositionEncoding {
        match offered {
            Some(kinds) if kinds.contains(&PositionEncodingKind::UTF8) => PositionEncoding::Utf8,
            _ => PositionEncoding::Utf16,
        }
    }

    pub fn kind(self) -> PositionEncodingKind {
        match self {
            PositionEncoding::Utf8 => PositionEncodingKind::UTF8,
            PositionEncoding::Utf16 => PositionEncodingKind::UTF16,
        }
    }

    pub fn column_unit(self) -> ColumnUnit {
        match self {
            PositionEncoding::Utf8 => ColumnUnit::Utf8Bytes,
            PositionEncoding::Utf16 => ColumnUnit::Utf16CodeUnits,
        }
    }

    fn units_of(self, ch: char) -> usize {
        match self {
            PositionEncoding::Utf8 => ch.len_utf8(),
            PositionEncoding::Utf16 => ch.len_utf16(),
        }
    }

    /// How many columns `text` spans.
    pub fn units_in(self, text: &str) -> usize {
        match self {
            PositionEncoding::Utf8 => text.len(),
            // Most text is ASCII, one unit a byte: checked a word at a time.
            PositionEncoding::Utf16 if text.is_ascii() => text.len(),
            PositionEncoding::Utf16 => text.chars().map(char::len_utf16).sum(),
        }
    }
}

/// The LSP positions of many offsets of one text. Offsets past the end, or between the `\r`
/// and `\n` of a line end, move back to the nearest position LSP can express. An
/// offset on the line of the one before is counted from it, so a run of nearby offsets
/// costs the text between them: a game written on one long line holds thousands of
/// tokens and diagnostics, and counting each from the line's start took seconds.
pub struct PositionCursor<'a> {
    text: &'a str,
    index: &'a LineIndex,
    encoding: PositionEncoding,
    line: usize,
    /// The line's bytes with its line end.
    span: std::ops::Range<usize>,
    /// The line's bytes without its line end: offsets beyond move back to its end.
    content_end: usize,
    /// The last offset placed on the line, and its column.
    at: usize,
    column: usize,
}

impl<'a> PositionCursor<'a> {
    pub fn new(text: &'a str, index: &'a LineIndex, encoding: PositionEncoding) -> Self {
        let mut cursor = PositionCursor {
            text,
            index,
            encoding,
            line: 0,
            span: 0..0,
            content_end: 0,
            at: 0,
            column: 0,
        };
        cursor.move_to_line(0);
        cursor
    }

    fn move_to_line(&mut self, line: usize) {
        self.line = line;
        self.span = self.index.line_span(line);
        self.content_end = self.index.line_range(self.text, line).end;
        self.at = self.span.start;
        self.column = 0;
    }

    pub fn position(&mut self, offset: usize) -> Position {
        let offset = offset.min(self.text.len());
        let last_line = self.line + 1 == self.index.line_count();
        let on_line = self.span.start <= offset && (offset < self.span.end || last_line);
        if !on_line {
            // Offsets mostly come in order: try the next line before searching.
            let next = self.line + 1;
            let on_next = offset >= self.span.end
                && next < self.index.line_count()
                && (offset < self.index.line_span(next).end || next + 1 == self.index.line_count());
            self.move_to_line(if on_next {
                next
            } else {
                self.index.line_of(offset)
            });
        }
        let offset = floor_char_boundary(self.text, offset.min(self.content_end));
        let start = self.span.start;
        if offset >= self.at {
            self.column += self.encoding.units_in(&self.text[self.at..offset]);
        } else if self.at - offset <= offset - start {
            self.column -= self.encoding.units_in(&self.text[offset..self.at]);
        } else {
            self.column = self.encoding.units_in(&self.text[start..offset]);
        }
        self.at = offset;
        Position {
            line: saturating_u32(self.line),
            character: saturating_u32(self.column),
        }
    }
}

/// The char index in `rope` of an LSP position; a column inside a character moves to the
/// character's end, as [`LineIndex::offset`] does.
pub fn rope_char_index(rope: &Rope, position: Position, encoding: PositionEncoding) -> usize {
    let line = position.line as usize;
    if line >= rope.len_lines() {
        return rope.len_chars();
    }
    let wanted = position.character as usize;
    let mut index = rope.line_to_char(line);
    let mut counted = 0;
    for ch in rope.line(line).chars() {
        if counted >= wanted || ch == '\n' || ch == '\r' {
            break;
        }
        counted += encoding.units_of(ch);
        index += 1;
    }
    index
}

/// The byte offset in `text` of an LSP position.
pub fn text_offset(
    text: &str,
    index: &LineIndex,
    position: Position,
    encoding: PositionEncoding,
) -> usize {
    let line_col = crate::model::line_index::LineCol {
        line: position.line as usize,
        col: position.character as usize,
    };
    index.offset(text, line_col, encoding.column_unit())
}

fn saturating_u32(value: usize) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The position of one offset counted from its line's start: what the cursor must give.
    fn text_position(
        text: &str,
        index: &LineIndex,
        offset: usize,
        encoding: PositionEncoding,
    ) -> Position {
        let offset = offset.min(text.len());
        let line = index.line_of(offset);
        let offset = offset.min(index.line_range(text, line).end);
        let line_col = index.position(text, offset, encoding.column_unit());
        Position {
            line: saturating_u32(line_col.line),
            character: saturating_u32(line_col.col),
        }
    }

    fn position(line: u32, character: u32) -> Position {
        Position { line, character }
    }

    #[test]
    fn utf8_is_chosen_only_when_offered() {
        assert_eq!(PositionEncoding::negotiate(None), PositionEncoding::Utf16);
        assert_eq!(
            PositionEncoding::negotiate(Some(&[PositionEncodingKind::UTF16])),
            PositionEncoding::Utf16
        );
        assert_eq!(
            PositionEncoding::negotiate(Some(&[
                PositionEncodingKind::UTF16,
                PositionEncodingKind::UTF8
            ])),
            PositionEncoding::Utf8
        );
    }

    #[test]
    fn rope_columns_count_astral_glyphs_in_the_negotiated_unit() {
        let rope = Rope::from_str("🂡x\r\n🁣y");
        // After 🂡: two UTF-16 units, four UTF-8 bytes, one char.
        assert_eq!(
            rope_char_index(&rope, position(0, 2), PositionEncoding::Utf16),
            1
        );
        assert_eq!(
            rope_char_index(&rope, position(0, 4), PositionEncoding::Utf8),
            1
        );
        assert_eq!(
            rope_char_index(&rope, position(1, 3), PositionEncoding::Utf16),
            6
        );
    }

    #[test]
    fn rope_positions_past_the_end_clamp() {
        let rope = Rope::from_str("ab\r\ncd\re");
        // Past the end of line 0 stops before its `\r\n`.
        assert_eq!(
            rope_char_index(&rope, position(0, 99), PositionEncoding::Utf16),
            2
        );
        // A lone `\r` ends a line too.
        assert_eq!(
            rope_char_index(&rope, position(2, 0), PositionEncoding::Utf16),
            7
        );
        assert_eq!(
            rope_char_index(&rope, position(9, 0), PositionEncoding::Utf16),
            8
        );
    }

    #[test]
    fn a_form_feed_does_not_end_a_line_in_the_rope() {
        let rope = Rope::from_str("a\u{c}b\u{2028}c\u{85}d");
        assert_eq!(rope.len_lines(), 1);
    }

    #[test]
    fn a_cursor_places_offsets_in_any_order_as_text_position_does() {
        let texts = [
            "",
            "\n",
            "1. a-b 1... c-d\n",
            "\t🂡e\u{301}\r\nz\r\rqq\n\n🂡🂡 x",
            "one long line 🂡 of moves, 🂡 then none",
            "a\r\n\r\nb\rc",
        ];
        for text in texts {
            let index = LineIndex::new(text);
            let every: Vec<usize> = (0..=text.len() + 2).collect();
            let backwards: Vec<usize> = every.iter().rev().copied().collect();
            // Token starts and ends interleaved, and jumps both ways.
            let zigzag: Vec<usize> = every
                .iter()
                .flat_map(|&at| [at, (at + 3).min(text.len()), at / 2])
                .collect();
            for encoding in [PositionEncoding::Utf8, PositionEncoding::Utf16] {
                for offsets in [&every, &backwards, &zigzag] {
                    let mut cursor = PositionCursor::new(text, &index, encoding);
                    for &offset in offsets {
                        assert_eq!(
                            cursor.position(offset),
                            text_position(text, &index, offset, encoding),
                            "offset {offset} of {text:?} in {encoding:?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn text_positions_round_trip_and_avoid_the_middle_of_crlf() {
        let text = "\t🂡e\u{301}\r\nz";
        let index = LineIndex::new(text);
        let z = text.find('z').unwrap_or_default();
        for encoding in [PositionEncoding::Utf8, PositionEncoding::Utf16] {
            let at_z = text_position(text, &index, z, encoding);
            assert_eq!(at_z, position(1, 0));
            assert_eq!(text_offset(text, &index, at_z, encoding), z);
        }
        let carriage_return = text.find('\r').unwrap_or_default();
        assert_eq!(
            text_position(text, &index, carriage_return + 1, PositionEncoding::Utf16),
            position(0, 5)
        );
        assert_eq!(
            text_position(text, &index, carriage_return + 1, PositionEncoding::Utf8),
            position(0, 8)
        );
    }
}
