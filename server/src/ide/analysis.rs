//! One revision of a document, analysed once and then read by every editor feature.

use crate::diagnostic::Diagnostic;
use crate::engine::replay::{replay_document, Replay};
use crate::ide::check::diagnostics_of;
use crate::ide::line_index::LineIndex;
use crate::syntax;

/// The text with its syntax tree, its replay (every game's states) and its diagnostics.
#[derive(Debug)]
pub struct DocumentAnalysis {
    pub text: String,
    pub line_index: LineIndex,
    pub tree: tree_sitter::Tree,
    pub replay: Replay,
    pub diagnostics: Vec<Diagnostic>,
}

impl DocumentAnalysis {
    pub fn new(text: String) -> DocumentAnalysis {
        let tree = syntax::parse(&text, None);
        let replay = replay_document(&text);
        let diagnostics = diagnostics_of(&text, &tree, &replay);
        DocumentAnalysis {
            line_index: LineIndex::new(&text),
            text,
            tree,
            replay,
            diagnostics,
        }
    }

    /// An analysis whose diagnostics come from elsewhere and which replays nothing: for
    /// exercising the protocol layer with known diagnostics.
    pub fn with_diagnostics(text: String, diagnostics: Vec<Diagnostic>) -> DocumentAnalysis {
        DocumentAnalysis {
            line_index: LineIndex::new(&text),
            tree: syntax::parse(&text, None),
            replay: Replay::default(),
            text,
            diagnostics,
        }
    }
}
