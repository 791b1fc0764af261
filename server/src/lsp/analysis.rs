//! What the server runs on every revision of a document: an [`Analyzer`], and the
//! [`Analysis`] of a revision it keeps.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::ide::analyze::reanalyze;
use crate::ide::diagnostics_only::{analyze_for_editor, EDITOR_ANALYSIS_MAX_BYTES};
use crate::model::edit::TextEdit;
use crate::model::format::Format;
use crate::model::notation_document::NotationDocument;

/// What the server runs on every revision of a document.
pub type Analyzer = Arc<dyn Analyze>;

/// Analyses a document's text. Any `Fn(&str) -> D` where `D` is a notation's document is
/// one that analyses every revision from scratch, whatever the file's name.
pub trait Analyze: Send + Sync {
    /// The analysis of `text`, the content of the file at `path` (if it has one).
    fn analyze(&self, path: Option<&Path>, text: &str) -> Box<dyn NotationDocument>;

    /// The analysis of `text`, which `edit` made from the text of `previous`; must equal
    /// `analyze(path, text)`.
    fn update(
        &self,
        previous: &dyn NotationDocument,
        path: Option<&Path>,
        text: &str,
        edit: &TextEdit,
    ) -> Box<dyn NotationDocument> {
        let _ = (previous, edit);
        self.analyze(path, text)
    }
}

impl<F, D> Analyze for F
where
    F: Fn(&str) -> D + Send + Sync,
    D: NotationDocument + 'static,
{
    fn analyze(&self, _path: Option<&Path>, text: &str) -> Box<dyn NotationDocument> {
        Box::new(self(text))
    }
}

/// The server's analyzer: each file is read in its own notation, and a revision made by an
/// edit is analysed from the previous one. A PPN document over `max_bytes` gets only its
/// diagnostics (see [`crate::ide::diagnostics_only`]).
pub struct IncrementalAnalyzer {
    pub max_bytes: usize,
}

impl Default for IncrementalAnalyzer {
    fn default() -> Self {
        IncrementalAnalyzer {
            max_bytes: EDITOR_ANALYSIS_MAX_BYTES,
        }
    }
}

impl Analyze for IncrementalAnalyzer {
    fn analyze(&self, path: Option<&Path>, text: &str) -> Box<dyn NotationDocument> {
        analyze_for_editor(Format::detect(path, text), text.to_string(), self.max_bytes)
    }

    fn update(
        &self,
        previous: &dyn NotationDocument,
        path: Option<&Path>,
        text: &str,
        edit: &TextEdit,
    ) -> Box<dyn NotationDocument> {
        if text.len() > self.max_bytes {
            return self.analyze(path, text);
        }
        reanalyze(previous, path, text.to_string(), edit)
    }
}

/// Everything known about one revision of a document. Shared behind an `Arc`, so requests
/// read it while newer revisions are being analysed.
#[derive(Debug)]
pub struct Analysis {
    /// The client's version of `text`.
    pub version: i32,
    /// Shared by the revisions of the same text (an edit undone gives back the analysis of
    /// the text before it).
    pub document: Arc<dyn NotationDocument>,
}

impl Analysis {
    pub fn new(path: Option<&Path>, text: &str, version: i32, analyzer: &Analyzer) -> Analysis {
        Analysis {
            version,
            document: Arc::from(analyzer.analyze(path, text)),
        }
    }

    /// This analysis for the client's `version` of the same text.
    pub fn again(&self, version: i32) -> Analysis {
        Analysis {
            version,
            document: Arc::clone(&self.document),
        }
    }

    /// The analysis of `text`, which `edit` made from the text of `previous`.
    pub fn update(
        previous: &Analysis,
        path: Option<&Path>,
        text: &str,
        version: i32,
        edit: &TextEdit,
        analyzer: &Analyzer,
    ) -> Analysis {
        Analysis {
            version,
            document: Arc::from(analyzer.update(&*previous.document, path, text, edit)),
        }
    }
}

/// The file a document URI names, for telling its format by its extension.
pub fn uri_path(uri: &str) -> Option<PathBuf> {
    let path = uri.split(['?', '#']).next()?;
    let name = path.rsplit('/').next()?;
    (!name.is_empty()).then(|| PathBuf::from(name))
}
