//! The LSP front end: document synchronisation, diagnostics and requests.
//!
//! Handlers run concurrently, but each one's code before its first `.await` runs in the
//! order the client sent the messages. So every edit is applied there, in one piece, under
//! the document's map entry, and a request only ever sees whole revisions. Analysis runs in
//! a task of its own per document, on snapshots tagged with their revision; a result whose
//! revision is no longer the document's is neither kept nor published. A snapshot carries
//! the last analysis kept for the document and the byte edit made since, so the analyzer
//! can start from it instead of from nothing.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

use dashmap::DashMap;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::task::JoinError;
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{
    self as lsp, DidChangeTextDocumentParams, DidCloseTextDocumentParams,
    DidOpenTextDocumentParams, DidSaveTextDocumentParams, Hover, HoverParams,
    HoverProviderCapability, InitializeParams, InitializeResult, InitializedParams, MessageType,
    NumberOrString, SaveOptions, ServerCapabilities, ServerInfo, TextDocumentSyncCapability,
    TextDocumentSyncKind, TextDocumentSyncOptions, TextDocumentSyncSaveOptions, Uri,
};
use tower_lsp_server::{Client, LanguageServer, LspService, Server};

use super::document::{Document, Snapshot};
use super::encoding::{text_offset, text_position, PositionEncoding};
use super::{Analysis, Analyzer, SessionEnd};
use crate::diagnostic::{Diagnostic, Severity};

/// Serve one client over `input` and `output` until it exits.
pub async fn serve<I, O>(input: I, output: O, analyzer: Analyzer) -> SessionEnd
where
    I: AsyncRead + Unpin,
    O: AsyncWrite,
{
    let shutdown_requested = Arc::new(AtomicBool::new(false));
    let flag = shutdown_requested.clone();
    let (service, socket) = LspService::new(move |client| Backend {
        state: Arc::new(State {
            client,
            analyzer,
            documents: DashMap::new(),
            encoding: OnceLock::new(),
            next_revision: AtomicU64::new(1),
            publish_gate: tokio::sync::Mutex::new(()),
            shutdown_requested: flag,
        }),
    });
    Server::new(input, output, socket).serve(service).await;
    if shutdown_requested.load(Ordering::SeqCst) {
        SessionEnd::AfterShutdown
    } else {
        SessionEnd::WithoutShutdown
    }
}

struct Backend {
    state: Arc<State>,
}

struct State {
    client: Client,
    analyzer: Analyzer,
    documents: DashMap<Uri, Document>,
    encoding: OnceLock<PositionEncoding>,
    next_revision: AtomicU64,
    /// Held from the last staleness check to the end of a publication, so diagnostics of
    /// an older revision can never overtake those of a newer one on the way out.
    publish_gate: tokio::sync::Mutex<()>,
    shutdown_requested: Arc<AtomicBool>,
}

/// What the analysis task of a document does next.
enum Step {
    Analyze(Snapshot),
    Stop,
}

impl State {
    fn encoding(&self) -> PositionEncoding {
        self.encoding.get().copied().unwrap_or_default()
    }

    fn new_revision(&self) -> u64 {
        self.next_revision.fetch_add(1, Ordering::SeqCst)
    }

    fn is_current(&self, uri: &Uri, revision: u64) -> bool {
        self.documents
            .get(uri)
            .is_some_and(|document| document.revision == revision)
    }

    /// Analyse the document's text, off the async threads, until the analysis has caught up
    /// with its newest revision; publish each analysis that is still current when done.
    /// Edits arriving meanwhile only make it start over on the newest text, so a burst of
    /// typing costs one analysis at a time per document, and the last one always runs.
    async fn analyze_until_current(self: Arc<Self>, uri: Uri, opened: u64) {
        loop {
            let snapshot = match self.next_step(&uri, opened) {
                Step::Analyze(snapshot) => snapshot,
                Step::Stop => return,
            };
            let revision = snapshot.revision;
            match self.analyze(snapshot).await {
                Ok(analysis) => {
                    let stored = self
                        .documents
                        .get_mut(&uri)
                        .filter(|document| document.revision == revision)
                        .map(|mut document| document.store_analysis(analysis.clone()));
                    if let Some(replaced) = stored {
                        // Freeing a long game's states takes a while: not on an async thread.
                        if let Some(replaced) = replaced {
                            tokio::task::spawn_blocking(move || drop(replaced));
                        }
                        self.publish(&uri, &analysis, revision).await;
                    }
                }
                Err(err) => {
                    self.client
                        .log_message(
                            MessageType::ERROR,
                            format!("ppn-ls: analysing {} failed: {err}", uri.as_str()),
                        )
                        .await;
                    // Trying the same text again would fail again: wait for an edit.
                    let mut failed = self.documents.get_mut(&uri);
                    if let Some(document) = failed.as_mut() {
                        if document.opened == opened && document.revision == revision {
                            document.analysis_running = false;
                            return;
                        }
                    }
                }
            }
        }
    }

    fn next_step(&self, uri: &Uri, opened: u64) -> Step {
        let Some(mut document) = self.documents.get_mut(uri) else {
            return Step::Stop;
        };
        // Closed and opened again: the new document has a task of its own.
        if document.opened != opened {
            return Step::Stop;
        }
        if document.analysis.is_some() {
            document.analysis_running = false;
            return Step::Stop;
        }
        Step::Analyze(document.snapshot())
    }

    /// Fails only if the analyzer panicked.
    async fn analyze(&self, snapshot: Snapshot) -> std::result::Result<Arc<Analysis>, JoinError> {
        let analyzer = self.analyzer.clone();
        tokio::task::spawn_blocking(move || {
            let analysis = match &snapshot.base {
                Some(base) => Analysis::update(
                    &base.analysis,
                    &snapshot.text,
                    snapshot.version,
                    &base.edit,
                    &analyzer,
                ),
                None => Analysis::new(&snapshot.text, snapshot.version, &analyzer),
            };
            Arc::new(analysis)
        })
        .await
    }

    async fn publish(&self, uri: &Uri, analysis: &Analysis, revision: u64) {
        let diagnostics = to_lsp_diagnostics(analysis, self.encoding());
        let _gate = self.publish_gate.lock().await;
        if self.is_current(uri, revision) {
            self.client
                .publish_diagnostics(uri.clone(), diagnostics, Some(analysis.version))
                .await;
        }
    }

    /// The analysis of the document's current text, computed now if the analysis task has
    /// not finished it yet.
    async fn current_analysis(&self, uri: &Uri) -> Option<Arc<Analysis>> {
        let snapshot = {
            let document = self.documents.get(uri)?;
            if let Some(analysis) = &document.analysis {
                return Some(analysis.clone());
            }
            document.snapshot()
        };
        // Not stored: only the analysis task stores, so that it also publishes what it stores.
        // Possibly of a revision already replaced: a request answers for the text it saw.
        self.analyze(snapshot).await.ok()
    }
}

impl Backend {
    /// Make sure an analysis task runs for the document; call with its entry held, so the
    /// decision and the edit it follows are one step.
    fn ensure_analysis(&self, uri: &Uri, document: &mut Document) {
        if !document.analysis_running {
            document.analysis_running = true;
            tokio::spawn(
                self.state
                    .clone()
                    .analyze_until_current(uri.clone(), document.opened),
            );
        }
    }
}

impl LanguageServer for Backend {
    async fn initialize(&self, params: InitializeParams) -> Result<InitializeResult> {
        let offered = params
            .capabilities
            .general
            .as_ref()
            .and_then(|general| general.position_encodings.as_deref());
        let encoding = *self
            .state
            .encoding
            .get_or_init(|| PositionEncoding::negotiate(offered));
        Ok(InitializeResult {
            capabilities: ServerCapabilities {
                position_encoding: Some(encoding.kind()),
                text_document_sync: Some(TextDocumentSyncCapability::Options(
                    TextDocumentSyncOptions {
                        open_close: Some(true),
                        change: Some(TextDocumentSyncKind::INCREMENTAL),
                        save: Some(TextDocumentSyncSaveOptions::SaveOptions(SaveOptions {
                            include_text: Some(false),
                        })),
                        ..TextDocumentSyncOptions::default()
                    },
                )),
                hover_provider: Some(HoverProviderCapability::Simple(true)),
                ..ServerCapabilities::default()
            },
            server_info: Some(ServerInfo {
                name: "ppn-ls".to_string(),
                version: Some(env!("CARGO_PKG_VERSION").to_string()),
            }),
            ..InitializeResult::default()
        })
    }

    async fn initialized(&self, _: InitializedParams) {}

    async fn shutdown(&self) -> Result<()> {
        self.state.shutdown_requested.store(true, Ordering::SeqCst);
        Ok(())
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        let item = params.text_document;
        let document = Document::new(&item.text, item.version, self.state.new_revision());
        // Start the analysis only once the document is there for it to find.
        let mut entry = self
            .state
            .documents
            .entry(item.uri.clone())
            .insert(document);
        self.ensure_analysis(&item.uri, &mut entry);
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        let uri = params.text_document.uri;
        let applied = self.state.documents.get_mut(&uri).map(|mut document| {
            document.apply_changes(
                &params.content_changes,
                self.state.encoding(),
                params.text_document.version,
                self.state.new_revision(),
            );
            self.ensure_analysis(&uri, &mut document);
        });
        if applied.is_none() {
            // No text to apply the edit to; say so rather than guess.
            self.state
                .client
                .log_message(
                    MessageType::WARNING,
                    format!("ppn-ls: change to {}, which is not open", uri.as_str()),
                )
                .await;
        }
    }

    async fn did_save(&self, params: DidSaveTextDocumentParams) {
        // Only a client that sends the text anyway gets here with it; trust the saved text.
        let Some(saved) = params.text else {
            return;
        };
        let uri = params.text_document.uri;
        if let Some(mut document) = self.state.documents.get_mut(&uri) {
            if document.text != saved.as_str() {
                document.replace_text(&saved, self.state.new_revision());
                self.ensure_analysis(&uri, &mut document);
            }
        }
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        let uri = params.text_document.uri;
        self.state.documents.remove(&uri);
        let _gate = self.state.publish_gate.lock().await;
        // Reopened meanwhile: its own analysis publishes.
        if !self.state.documents.contains_key(&uri) {
            self.state
                .client
                .publish_diagnostics(uri, Vec::new(), None)
                .await;
        }
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        let at = params.text_document_position_params;
        let Some(analysis) = self.state.current_analysis(&at.text_document.uri).await else {
            return Ok(None);
        };
        let offset = text_offset(
            &analysis.document.text,
            &analysis.document.line_index,
            at.position,
            self.state.encoding(),
        );
        Ok(hover_at(&analysis, offset))
    }
}

/// Nothing to show yet: hover content will come from `ide` once the board is replayed.
fn hover_at(_analysis: &Analysis, _offset: usize) -> Option<Hover> {
    None
}

fn to_lsp_diagnostics(analysis: &Analysis, encoding: PositionEncoding) -> Vec<lsp::Diagnostic> {
    analysis
        .document
        .diagnostics
        .iter()
        .map(|diagnostic| to_lsp_diagnostic(analysis, diagnostic, encoding))
        .collect()
}

fn to_lsp_diagnostic(
    analysis: &Analysis,
    diagnostic: &Diagnostic,
    encoding: PositionEncoding,
) -> lsp::Diagnostic {
    let position = |offset| {
        text_position(
            &analysis.document.text,
            &analysis.document.line_index,
            offset,
            encoding,
        )
    };
    lsp::Diagnostic {
        range: lsp::Range {
            start: position(diagnostic.range.start),
            end: position(diagnostic.range.end.max(diagnostic.range.start)),
        },
        severity: Some(match diagnostic.severity {
            Severity::Error => lsp::DiagnosticSeverity::ERROR,
            Severity::Warning => lsp::DiagnosticSeverity::WARNING,
            Severity::Information => lsp::DiagnosticSeverity::INFORMATION,
        }),
        code: Some(NumberOrString::String(diagnostic.code.to_string())),
        source: Some("ppn-ls".to_string()),
        message: diagnostic.message.clone(),
        ..lsp::Diagnostic::default()
    }
}
