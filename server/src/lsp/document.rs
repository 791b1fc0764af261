//! The server's copy of an open document.

use std::sync::Arc;

use ropey::Rope;
use tower_lsp_server::ls_types::TextDocumentContentChangeEvent;

use super::encoding::{rope_char_index, PositionEncoding};
use super::Analysis;

pub(crate) struct Document {
    pub text: Rope,
    /// The client's version of `text`.
    pub version: i32,
    /// Server-wide, strictly increasing on every open and change: unlike the client's
    /// version it never repeats when a document is closed and opened again.
    pub revision: u64,
    /// The revision this document was opened at: tells a reopened document from the one
    /// closed before it.
    pub opened: u64,
    /// The analysis of `text` once computed; one of an older revision is never kept here.
    pub analysis: Option<Arc<Analysis>>,
    /// Whether a task is analysing this document: at most one does, and it keeps going
    /// until it has caught up with the newest revision.
    pub analysis_running: bool,
}

impl Document {
    pub fn new(text: &str, version: i32, revision: u64) -> Document {
        Document {
            text: Rope::from_str(text),
            version,
            revision,
            opened: revision,
            analysis: None,
            analysis_running: false,
        }
    }

    /// Replace the whole text, keeping the client's version.
    pub fn replace_text(&mut self, text: &str, revision: u64) {
        self.text = Rope::from_str(text);
        self.revision = revision;
        self.analysis = None;
    }

    /// Apply the changes in order (each one's positions refer to the text left by the
    /// previous one) and move to `version`.
    pub fn apply_changes(
        &mut self,
        changes: &[TextDocumentContentChangeEvent],
        encoding: PositionEncoding,
        version: i32,
        revision: u64,
    ) {
        for change in changes {
            apply_change(&mut self.text, change, encoding);
        }
        self.version = version;
        self.revision = revision;
        self.analysis = None;
    }

    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            text: self.text.to_string(),
            version: self.version,
            revision: self.revision,
        }
    }
}

/// The whole text of one revision of a document, taken in one piece.
pub(crate) struct Snapshot {
    pub text: String,
    pub version: i32,
    pub revision: u64,
}

pub(crate) fn apply_change(
    text: &mut Rope,
    change: &TextDocumentContentChangeEvent,
    encoding: PositionEncoding,
) {
    match change.range {
        None => *text = Rope::from_str(&change.text),
        Some(range) => {
            let start = rope_char_index(text, range.start, encoding);
            let end = rope_char_index(text, range.end, encoding);
            // A reversed range is a client bug; replacing what it spans loses the least.
            let (start, end) = (start.min(end), start.max(end));
            text.remove(start..end);
            text.insert(start, &change.text);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tower_lsp_server::ls_types::{Position, Range};

    fn edit(start: (u32, u32), end: (u32, u32), text: &str) -> TextDocumentContentChangeEvent {
        TextDocumentContentChangeEvent {
            range: Some(Range {
                start: Position {
                    line: start.0,
                    character: start.1,
                },
                end: Position {
                    line: end.0,
                    character: end.1,
                },
            }),
            range_length: None,
            text: text.to_string(),
        }
    }

    #[test]
    fn changes_apply_in_order_against_the_text_so_far() {
        let mut document = Document::new("🂡a\r\nb", 1, 1);
        let changes = [
            edit((0, 2), (0, 3), "🁣"),
            edit((0, 4), (1, 0), ""),
            edit((0, 0), (0, 0), "x"),
        ];
        document.apply_changes(&changes, PositionEncoding::Utf16, 2, 2);
        assert_eq!(document.text.to_string(), "x🂡🁣b");
        assert_eq!((document.version, document.revision), (2, 2));
    }

    #[test]
    fn edits_past_the_end_append_and_reversed_ranges_are_ordered() {
        let mut document = Document::new("ab\ncd", 1, 1);
        let changes = [edit((7, 7), (9, 0), "!"), edit((0, 2), (0, 1), "_")];
        document.apply_changes(&changes, PositionEncoding::Utf8, 2, 2);
        assert_eq!(document.text.to_string(), "a_\ncd!");
    }

    #[test]
    fn joining_a_carriage_return_and_a_line_feed_makes_one_line_end() {
        let mut document = Document::new("a\rb\nc", 1, 1);
        document.apply_changes(&[edit((1, 0), (1, 1), "")], PositionEncoding::Utf16, 2, 2);
        assert_eq!(document.text.to_string(), "a\r\nc");
        assert_eq!(document.text.len_lines(), 2);
        document.apply_changes(&[edit((1, 0), (1, 0), "d")], PositionEncoding::Utf16, 3, 3);
        assert_eq!(document.text.to_string(), "a\r\ndc");
    }
}
