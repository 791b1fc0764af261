//! The language server: `ppn-ls` (or `ppn-ls --stdio`) speaks LSP 3.17 over standard I/O.
//!
//! Everything it shows comes from an [`Analyzer`], a pure function of a document's text;
//! this module only keeps documents in sync with the client and converts positions.

mod document;
pub mod encoding;
mod server;

use std::sync::Arc;

use crate::ide::analysis::{DocumentAnalysis, TextEdit};

pub use server::serve;

/// What the server runs on every revision of a document.
pub type Analyzer = Arc<dyn Analyze>;

/// Analyses a document's text. Any `Fn(&str) -> DocumentAnalysis` is one that analyses
/// every revision from scratch.
pub trait Analyze: Send + Sync {
    fn analyze(&self, text: &str) -> DocumentAnalysis;

    /// The analysis of `text`, which `edit` made from the text of `previous`; must equal
    /// `analyze(text)`.
    fn update(&self, previous: &DocumentAnalysis, text: &str, edit: &TextEdit) -> DocumentAnalysis {
        let _ = (previous, edit);
        self.analyze(text)
    }
}

impl<F> Analyze for F
where
    F: Fn(&str) -> DocumentAnalysis + Send + Sync,
{
    fn analyze(&self, text: &str) -> DocumentAnalysis {
        self(text)
    }
}

/// The server's analyzer: a revision made by an edit is analysed from the previous one.
pub struct IncrementalAnalyzer;

impl Analyze for IncrementalAnalyzer {
    fn analyze(&self, text: &str) -> DocumentAnalysis {
        DocumentAnalysis::new(text.to_string())
    }

    fn update(&self, previous: &DocumentAnalysis, text: &str, edit: &TextEdit) -> DocumentAnalysis {
        previous.update(text.to_string(), edit)
    }
}

/// Everything known about one revision of a document. Shared behind an `Arc`, so requests
/// read it while newer revisions are being analysed.
#[derive(Debug)]
pub struct Analysis {
    /// The client's version of `text`.
    pub version: i32,
    pub document: DocumentAnalysis,
}

impl Analysis {
    pub fn new(text: &str, version: i32, analyzer: &Analyzer) -> Analysis {
        Analysis {
            version,
            document: analyzer.analyze(text),
        }
    }

    /// The analysis of `text`, which `edit` made from the text of `previous`.
    pub fn update(
        previous: &Analysis,
        text: &str,
        version: i32,
        edit: &TextEdit,
        analyzer: &Analyzer,
    ) -> Analysis {
        Analysis {
            version,
            document: analyzer.update(&previous.document, text, edit),
        }
    }
}

/// How a session ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SessionEnd {
    /// `exit` after `shutdown`, as LSP asks.
    AfterShutdown,
    /// `exit` without `shutdown`, or the client closed the stream.
    WithoutShutdown,
}

impl SessionEnd {
    /// The process exit code LSP prescribes.
    pub fn exit_code(self) -> i32 {
        match self {
            SessionEnd::AfterShutdown => 0,
            SessionEnd::WithoutShutdown => 1,
        }
    }
}

/// Serve one client over standard input and output until it exits; returns the process
/// exit code.
pub fn run_stdio() -> i32 {
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(err) => {
            eprintln!("ppn-ls: cannot start the language server: {err}");
            return crate::cli::EXIT_USAGE;
        }
    };
    let analyzer: Analyzer = Arc::new(IncrementalAnalyzer);
    let end = runtime.block_on(serve(tokio::io::stdin(), tokio::io::stdout(), analyzer));
    // Reading standard input blocks a thread that cannot be interrupted; do not wait for it.
    runtime.shutdown_background();
    end.exit_code()
}
