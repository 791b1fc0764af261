//! Documents too large for the editor's full analysis: a PPN text's replay keeps tens of
//! bytes per byte (moves, boards), so a file of tens of megabytes would hold gigabytes. The
//! editor gets such a file's diagnostics, checked a batch of games at a time as `--check`
//! does, and a note saying why hover, the outline and the other features are off.

use std::io;

use crate::diagnostic::{Diagnostic, Severity};
use crate::ide::analyze::analyze_as;
use crate::model::edit::TextEdit;
use crate::model::features::{Fold, Symbol};
use crate::model::format::Format;
use crate::model::line_index::LineIndex;
use crate::model::notation_document::{
    GameSummary, LineState, MoveAt, NotationDocument, NotationHover, StateRef,
};
use crate::model::scene::Scene;
use crate::ppn::diagnostics::{check_text_in_batches, CHECK_BATCH_BYTES};

/// Above this many bytes a PPN document gets only its diagnostics in the editor.
pub const EDITOR_ANALYSIS_MAX_BYTES: usize = 8 << 20;

/// Says why a large document has no editor features.
pub const LARGE_DOCUMENT: &str = "large-document";

/// The analysis of `text` for an editor: the full analysis, or only the diagnostics when
/// the text is a PPN document over `max_bytes`.
pub fn analyze_for_editor(
    format: Format,
    text: String,
    max_bytes: usize,
) -> Box<dyn NotationDocument> {
    if format == Format::Ppn && text.len() > max_bytes {
        Box::new(DiagnosticsOnly::new(format, text, max_bytes))
    } else {
        analyze_as(format, text)
    }
}

fn mebibytes(bytes: usize) -> f64 {
    bytes as f64 / f64::from(1u32 << 20)
}

/// A revision of a large document: its text, its diagnostics and nothing else.
#[derive(Debug)]
pub struct DiagnosticsOnly {
    format: Format,
    text: String,
    line_index: LineIndex,
    diagnostics: Vec<Diagnostic>,
    max_bytes: usize,
}

impl DiagnosticsOnly {
    pub fn new(format: Format, text: String, max_bytes: usize) -> DiagnosticsOnly {
        let first_line_end = text.find(['\n', '\r']).unwrap_or(text.len());
        let note = Diagnostic::new(
            0..first_line_end,
            Severity::Information,
            LARGE_DOCUMENT,
            format!(
                "this file is {:.1} MiB: only its diagnostics are shown; hover, the outline, \
                 folding and the other editor features stop at {:.1} MiB",
                mebibytes(text.len()),
                mebibytes(max_bytes)
            ),
        );
        let mut diagnostics = vec![note];
        diagnostics.extend(check_text_in_batches(&text, CHECK_BATCH_BYTES));
        DiagnosticsOnly {
            format,
            line_index: LineIndex::new(&text),
            text,
            diagnostics,
            max_bytes,
        }
    }
}

impl NotationDocument for DiagnosticsOnly {
    fn format(&self) -> Format {
        self.format
    }

    fn text(&self) -> &str {
        &self.text
    }

    fn line_index(&self) -> &LineIndex {
        &self.line_index
    }

    fn update(&self, text: String, _edit: &TextEdit) -> Box<dyn NotationDocument> {
        analyze_for_editor(self.format, text, self.max_bytes)
    }

    fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    fn games(&self) -> Vec<GameSummary> {
        Vec::new()
    }

    fn main_line(&self, _game: usize) -> Vec<LineState> {
        Vec::new()
    }

    fn move_at(&self, _offset: usize, _or_before: bool) -> Option<MoveAt> {
        None
    }

    fn scene(&self, _state: StateRef) -> Option<Scene> {
        None
    }

    fn symbols(&self) -> Vec<Symbol> {
        Vec::new()
    }

    fn folds(&self) -> Vec<Fold> {
        Vec::new()
    }

    fn hover(&self, _offset: usize) -> Option<NotationHover> {
        None
    }

    fn write_replay_json(
        &self,
        _file: &str,
        _only: Option<&[StateRef]>,
        _out: &mut dyn io::Write,
    ) -> io::Result<()> {
        Err(io::Error::new(
            io::ErrorKind::Unsupported,
            "a document this large is only checked in the editor",
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ppn::diagnostics::check_text;

    const GAME: &str =
        "---\nGameType: Chess\n...\n1. e2-e4 e7-e5 2. f1-c4 h7-h6 3. c4-f7 e8-f7 4. a3-a4\n";

    #[test]
    fn a_large_document_has_its_diagnostics_and_a_note() {
        let text = GAME.repeat(20);
        let document = analyze_for_editor(Format::Ppn, text.clone(), 500);
        let diagnostics = document.diagnostics();
        assert_eq!(diagnostics[0].code, LARGE_DOCUMENT);
        assert_eq!(diagnostics[0].range, 0..3);
        assert_eq!(diagnostics[1..], check_text(&text)[..]);
        assert!(diagnostics.len() > 20, "{diagnostics:?}");
        assert!(document.hover(text.find("e4").unwrap()).is_none());
        assert!(document.symbols().is_empty());
    }

    #[test]
    fn a_document_changes_kind_when_it_crosses_the_limit() {
        let small = GAME.repeat(2);
        let large = GAME.repeat(20);
        let whole = |old: &str, new: &str| TextEdit {
            start: 0,
            old_end: old.len(),
            new_end: new.len(),
        };
        let document = analyze_for_editor(Format::Ppn, small.clone(), 500);
        assert!(
            !document.symbols().is_empty(),
            "full analysis below the limit"
        );
        let grown = analyze_for_editor(Format::Ppn, large.clone(), 500);
        assert_eq!(grown.diagnostics()[0].code, LARGE_DOCUMENT);
        let shrunk = grown.update(small.clone(), &whole(&large, &small));
        assert!(!shrunk.symbols().is_empty());
        assert_eq!(shrunk.diagnostics(), check_text(&small));
        let again = grown.update(large.clone(), &whole(&large, &large));
        assert_eq!(again.diagnostics(), grown.diagnostics());
    }

    #[test]
    fn other_notations_keep_their_analysis() {
        let text = format!(
            "[rules:dim:7 start:/3t3/3t3/ttTKTtt/3T3/3t3/3t3/7/]\n{}",
            " ".repeat(600)
        );
        let document = analyze_for_editor(Format::Otn, text, 500);
        assert!(document
            .diagnostics()
            .iter()
            .all(|d| d.code != LARGE_DOCUMENT));
    }
}
