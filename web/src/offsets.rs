//! Offsets in UTF-16 code units (what a browser's editor counts) and in bytes (what the
//! core counts), converted in O(log n) from the places of the text's non-ASCII characters.

/// The non-ASCII characters of a text, each with its byte offset and its UTF-16 offset.
#[derive(Clone, Debug, Default)]
pub struct Utf16Offsets {
    /// `(byte, unit)` at the start of each non-ASCII character, in order.
    wide: Vec<(usize, usize)>,
}

impl Utf16Offsets {
    pub fn new(text: &str) -> Utf16Offsets {
        let mut wide = Vec::new();
        if !text.is_ascii() {
            let mut unit = 0;
            for (byte, c) in text.char_indices() {
                if !c.is_ascii() {
                    wide.push((byte, unit));
                }
                unit += c.len_utf16();
            }
        }
        Utf16Offsets { wide }
    }

    /// The UTF-16 offset of byte offset `byte` of `text` (inside a character: its start).
    pub fn unit(&self, text: &str, byte: usize) -> usize {
        let byte = byte.min(text.len());
        // The last non-ASCII character starting before `byte`: ASCII after it counts one
        // unit a byte.
        let before = self.wide.partition_point(|&(at, _)| at < byte);
        match before.checked_sub(1).map(|i| self.wide[i]) {
            None => byte,
            Some((at, unit)) => {
                let c = text[at..].chars().next().map_or(1, char::len_utf8);
                if byte < at + c {
                    unit
                } else {
                    unit + text[at..at + c].encode_utf16().count() + (byte - at - c)
                }
            }
        }
    }

    /// The byte offset of UTF-16 offset `unit` of `text` (inside a character: its start;
    /// past the end: the end).
    pub fn byte(&self, text: &str, unit: usize) -> usize {
        let before = self.wide.partition_point(|&(_, at)| at < unit);
        let byte = match before.checked_sub(1).map(|i| self.wide[i]) {
            None => unit,
            Some((at, at_unit)) => {
                let c = text[at..].chars().next().map_or(1, char::len_utf8);
                let c_units = text[at..at + c].encode_utf16().count();
                if unit < at_unit + c_units {
                    at
                } else {
                    at + c + (unit - at_unit - c_units)
                }
            }
        };
        byte.min(text.len())
    }
}
