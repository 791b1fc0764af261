//! An edit of a document's text, as the language server receives them, and a text with
//! replacements made.

use std::ops::Range;

/// One replacement in a text: the bytes `start..old_end` of the old text became
/// `start..new_end` of the new one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextEdit {
    pub start: usize,
    pub old_end: usize,
    pub new_end: usize,
}

impl TextEdit {
    /// The edit of a text into itself.
    pub const NONE: TextEdit = TextEdit {
        start: 0,
        old_end: 0,
        new_end: 0,
    };

    /// One edit spanning this one followed by `next` (whose offsets are those of the text
    /// this one left).
    pub fn then(self, next: TextEdit) -> TextEdit {
        if self == TextEdit::NONE {
            return next;
        }
        if next == TextEdit::NONE {
            return self;
        }
        let start = self.start.min(next.start);
        let end_between = self.new_end.max(next.old_end);
        TextEdit {
            start,
            old_end: end_between - self.new_end + self.old_end,
            new_end: end_between - next.old_end + next.new_end,
        }
    }

    /// This edit if it does turn `old_text` into `new_text`; otherwise the replacement of
    /// the whole text, so that a wrong edit costs time and never correctness.
    pub fn checked(self, old_text: &str, new_text: &str) -> TextEdit {
        let fits = self.start <= self.old_end
            && self.start <= self.new_end
            && old_text.len().checked_sub(self.old_end) == new_text.len().checked_sub(self.new_end)
            && old_text.get(..self.start).is_some()
            && old_text.get(..self.start) == new_text.get(..self.start)
            && old_text.get(self.old_end..).is_some()
            && old_text.get(self.old_end..) == new_text.get(self.new_end..);
        if fits {
            self
        } else {
            TextEdit {
                start: 0,
                old_end: old_text.len(),
                new_end: new_text.len(),
            }
        }
    }

    /// Where the new text's `offset` was in the old text; `None` inside the new bytes.
    pub fn old_offset(&self, offset: usize) -> Option<usize> {
        if offset <= self.start {
            Some(offset)
        } else if offset >= self.new_end {
            Some(offset - self.new_end + self.old_end)
        } else {
            None
        }
    }
}

/// `range` of `text` without the whitespace at either end (empty, at the end of the
/// whitespace, when it is all whitespace).
pub fn trimmed(text: &str, range: std::ops::Range<usize>) -> std::ops::Range<usize> {
    let part = &text[range.clone()];
    let start = range.start + (part.len() - part.trim_start().len());
    let end = (range.start + part.trim_end().len()).max(start);
    start..end
}

/// `text` with `replacements` made: each range of the old text replaced by its string,
/// taken in the order of their starts. A replacement that overlaps an earlier one, or runs
/// past the text, is left out.
pub fn with_replacements(text: &str, replacements: &[(Range<usize>, String)]) -> String {
    let mut in_order: Vec<&(Range<usize>, String)> = replacements.iter().collect();
    in_order.sort_by_key(|(range, _)| range.start);
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (range, replacement) in in_order {
        if range.start < at || range.end > text.len() {
            continue;
        }
        out.push_str(&text[at..range.start]);
        out.push_str(replacement);
        at = range.end;
    }
    out.push_str(&text[at..]);
    out
}
