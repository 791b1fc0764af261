//! The server's copy of an open document.

use std::sync::Arc;

use ropey::Rope;
use tower_lsp_server::ls_types::TextDocumentContentChangeEvent;

use super::analysis::Analysis;
use crate::lsp::encoding::{rope_char_index, PositionEncoding};
use crate::ppn::document::TextEdit;

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
    /// The newest analysis stored, possibly of an older revision, to analyse `text` from;
    /// `None` when the text was replaced as a whole since.
    pub base: Option<Base>,
    /// The analysis stored before the base: when an edit is undone, the text is that
    /// analysis's again, and it is answered at once. Let go of when typing pauses.
    pub earlier: Option<Arc<Analysis>>,
}

/// The longest text whose analysis is kept for an edit undone: the analysis of a longer
/// one takes hundreds of megabytes.
const MOST_BYTES_KEPT_EARLIER: usize = 4 << 20;

/// An analysis of an earlier text of a document, and the edit that made `text` from it.
#[derive(Clone)]
pub(crate) struct Base {
    pub analysis: Arc<Analysis>,
    pub edit: TextEdit,
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
            base: None,
            earlier: None,
        }
    }

    /// Replace the whole text, keeping the client's version.
    pub fn replace_text(&mut self, text: &str, revision: u64) {
        self.text = Rope::from_str(text);
        self.revision = revision;
        self.analysis = None;
        self.base = None;
    }

    /// Keep `analysis`, of the current text, to answer requests and to analyse the next
    /// revisions from; the base it replaces becomes the earlier analysis. Returns the
    /// earlier analysis it replaces, to be let go of.
    pub fn store_analysis(&mut self, analysis: Arc<Analysis>) -> Option<Arc<Analysis>> {
        self.analysis = Some(analysis.clone());
        let replaced = self.base.replace(Base {
            analysis: analysis.clone(),
            edit: TextEdit::NONE,
        });
        let replaced = replaced.map(|base| base.analysis);
        match replaced {
            // An analysis given back again (an edit undone) is already the base; a long
            // document's analysis is not kept twice over.
            Some(replaced)
                if !Arc::ptr_eq(&replaced.document, &analysis.document)
                    && replaced.document.text().len() <= MOST_BYTES_KEPT_EARLIER =>
            {
                self.earlier.replace(replaced)
            }
            replaced => replaced,
        }
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
            let edit = apply_change(&mut self.text, change, encoding);
            self.base = match (self.base.take(), edit) {
                (Some(base), Some(edit)) => Some(Base {
                    edit: base.edit.then(edit),
                    ..base
                }),
                _ => None,
            };
        }
        self.version = version;
        self.revision = revision;
        self.analysis = None;
    }

    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            text: whole_text(&self.text),
            version: self.version,
            revision: self.revision,
            base: self.base.clone(),
            earlier: self.earlier.clone(),
        }
    }
}

/// The rope's text in one string, made at its final size (`to_string` grows it as it
/// goes, copying a long document several times over).
fn whole_text(rope: &Rope) -> String {
    let mut text = String::with_capacity(rope.len_bytes());
    for chunk in rope.chunks() {
        text.push_str(chunk);
    }
    text
}

/// The whole text of one revision of a document, taken in one piece.
pub(crate) struct Snapshot {
    pub text: String,
    pub version: i32,
    pub revision: u64,
    pub base: Option<Base>,
    pub earlier: Option<Arc<Analysis>>,
}

impl Snapshot {
    /// The analysis of this text kept from before, when the text is that analysis's again.
    pub fn analysed_before(&self) -> Option<Analysis> {
        let earlier = self.earlier.as_ref()?;
        (earlier.document.text() == self.text).then(|| earlier.again(self.version))
    }
}

/// Applies the change; the bytes it replaced, unless it replaced the whole text.
pub fn apply_change(
    text: &mut Rope,
    change: &TextDocumentContentChangeEvent,
    encoding: PositionEncoding,
) -> Option<TextEdit> {
    match change.range {
        None => {
            *text = Rope::from_str(&change.text);
            None
        }
        Some(range) => {
            let start = rope_char_index(text, range.start, encoding);
            let end = rope_char_index(text, range.end, encoding);
            // A reversed range is a client bug; replacing what it spans loses the least.
            let (start, end) = (start.min(end), start.max(end));
            let start_byte = text.char_to_byte(start);
            let edit = TextEdit {
                start: start_byte,
                old_end: text.char_to_byte(end),
                new_end: start_byte + change.text.len(),
            };
            text.remove(start..end);
            text.insert(start, &change.text);
            Some(edit)
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

    fn analysed(text: &str) -> Arc<Analysis> {
        Arc::new(Analysis {
            version: 1,
            document: Arc::new(crate::ppn::document::PpnDocument::new(text.to_string())),
        })
    }

    #[test]
    fn an_edit_undone_gives_back_the_analysis_of_the_text_before_it() {
        let text = "---\n...\n1. S@b2 2. M@c3\n";
        let mut document = Document::new(text, 1, 1);
        let first = analysed(text);
        document.store_analysis(first.clone());
        // `x` typed after `S`, then taken out again.
        document.apply_changes(&[edit((2, 4), (2, 4), "x")], PositionEncoding::Utf8, 2, 2);
        let typed = document.snapshot();
        assert!(typed.analysed_before().is_none(), "nothing earlier yet");
        let typed_analysis = analysed(&typed.text);
        assert!(document.store_analysis(typed_analysis.clone()).is_none());
        document.apply_changes(&[edit((2, 4), (2, 5), "")], PositionEncoding::Utf8, 3, 3);
        let undone = document.snapshot();
        let again = undone.analysed_before().expect("the first text again");
        assert!(Arc::ptr_eq(&again.document, &first.document));
        assert_eq!(again.version, 3);
        // Stored, it keeps the typed analysis for the edit made again.
        document.store_analysis(Arc::new(again));
        document.apply_changes(&[edit((2, 4), (2, 4), "x")], PositionEncoding::Utf8, 4, 4);
        let retyped = document
            .snapshot()
            .analysed_before()
            .expect("the typed text again");
        assert!(Arc::ptr_eq(&retyped.document, &typed_analysis.document));
        // Another text is analysed anew.
        document.apply_changes(&[edit((2, 4), (2, 5), "y")], PositionEncoding::Utf8, 5, 5);
        assert!(document.snapshot().analysed_before().is_none());
    }

    #[test]
    fn the_base_edit_spans_every_change_since_the_analysis() {
        let old = "---\n...\n1. S@b2 🂡 2. M@c3\r\n3. b2-b4\n";
        let mut document = Document::new(old, 1, 1);
        document.store_analysis(analysed(old));
        let changes = [
            edit((2, 4), (2, 5), "🁣;"),
            edit((2, 13), (2, 13), "x"),
            edit((3, 3), (3, 5), "c"),
        ];
        document.apply_changes(&changes, PositionEncoding::Utf16, 2, 2);
        let new = document.text.to_string();
        assert_eq!(new, "---\n...\n1. S🁣;b2 🂡 x2. M@c3\r\n3. c-b4\n");
        let base = document
            .base
            .clone()
            .expect("a base survives ranged changes");
        let edit = base.edit;
        assert_eq!(
            format!(
                "{}{}{}",
                &old[..edit.start],
                &new[edit.start..edit.new_end],
                &old[edit.old_end..]
            ),
            new
        );
        let updated = base.analysis.document.update(new.clone(), &edit);
        let fresh = crate::ppn::document::PpnDocument::new(new);
        assert_eq!(updated.diagnostics(), fresh.diagnostics);
        assert!(!fresh.diagnostics.is_empty());

        document.apply_changes(
            &[TextDocumentContentChangeEvent {
                range: None,
                range_length: None,
                text: "1. S@a1".to_string(),
            }],
            PositionEncoding::Utf16,
            3,
            3,
        );
        assert!(document.base.is_none(), "a whole new text has no base");
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

    #[test]
    fn a_snapshot_holds_the_whole_text_of_a_rope_in_many_chunks() {
        let mut expected = String::new();
        let mut document = Document::new("", 1, 1);
        for line in 0..5_000 {
            let text = format!("{line}. S🁣@b{line} {{é}}\n");
            let at = document.text.len_chars();
            document.text.insert(at, &text);
            expected.push_str(&text);
        }
        assert!(document.text.chunks().count() > 100);
        let snapshot = document.snapshot();
        assert_eq!(snapshot.text, expected);
        assert_eq!(snapshot.text.capacity(), expected.len());
    }
}
