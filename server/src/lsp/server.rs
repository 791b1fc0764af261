//! The LSP front end: document synchronisation, diagnostics and requests.
//!
//! Handlers run concurrently, but each one's code before its first `.await` runs in the
//! order the client sent the messages. So every edit is applied there, in one piece, under
//! the document's map entry; analysis happens afterwards on a snapshot, tagged with the
//! revision it belongs to, and is dropped if the document has moved on.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

use dashmap::DashMap;
use tokio::io::{AsyncRead, AsyncWrite};
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
        client,
        analyzer,
        documents: Arc::new(DashMap::new()),
        encoding: OnceLock::new(),
        next_revision: AtomicU64::new(1),
        publish_gate: tokio::sync::Mutex::new(()),
        shutdown_requested: flag,
    });
    Server::new(input, output, socket).serve(service).await;
    if shutdown_requested.load(Ordering::SeqCst) {
        SessionEnd::AfterShutdown
    } else {
        SessionEnd::WithoutShutdown
    }
}

struct Backend {
    client: Client,
    analyzer: Analyzer,
    documents: Arc<DashMap<Uri, Document>>,
    encoding: OnceLock<PositionEncoding>,
    next_revision: AtomicU64,
    /// Held from the last staleness check to the end of a publication, so diagnostics of
    /// an older revision can never overtake those of a newer one on the way out.
    publish_gate: tokio::sync::Mutex<()>,
    shutdown_requested: Arc<AtomicBool>,
}

impl Backend {
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

    /// Analyse a snapshot off the async threads; `None` if the document moved on first, or
    /// if the analyzer failed (reported to the client instead of taking the server down).
    async fn analyze(&self, uri: &Uri, snapshot: Snapshot) -> Option<Arc<Analysis>> {
        if !self.is_current(uri, snapshot.revision) {
            return None;
        }
        let analyzer = self.analyzer.clone();
        let revision = snapshot.revision;
        let analysed = tokio::task::spawn_blocking(move || {
            Analysis::new(snapshot.text, snapshot.version, &analyzer)
        })
        .await;
        let analysis = match analysed {
            Ok(analysis) => Arc::new(analysis),
            Err(err) => {
                self.client
                    .log_message(
                        MessageType::ERROR,
                        format!("ppn-ls: analysing {} failed: {err}", uri.as_str()),
                    )
                    .await;
                return None;
            }
        };
        let mut document = self.documents.get_mut(uri)?;
        if document.revision != revision {
            return None;
        }
        document.analysis = Some(analysis.clone());
        Some(analysis)
    }

    /// The analysis of the document's current text, computed now if not yet there.
    async fn current_analysis(&self, uri: &Uri) -> Option<Arc<Analysis>> {
        let snapshot = {
            let document = self.documents.get(uri)?;
            if let Some(analysis) = &document.analysis {
                return Some(analysis.clone());
            }
            document.snapshot()
        };
        match self.analyze(uri, snapshot).await {
            Some(analysis) => Some(analysis),
            // An edit arrived meanwhile: answer from the newest analysis there is, if any.
            None => self
                .documents
                .get(uri)
                .and_then(|document| document.analysis.clone()),
        }
    }

    async fn analyze_and_publish(&self, uri: Uri, snapshot: Snapshot) {
        let revision = snapshot.revision;
        let Some(analysis) = self.analyze(&uri, snapshot).await else {
            return;
        };
        let diagnostics = to_lsp_diagnostics(&analysis, self.encoding());
        let _gate = self.publish_gate.lock().await;
        if self.is_current(&uri, revision) {
            self.client
                .publish_diagnostics(uri, diagnostics, Some(analysis.version))
                .await;
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
        self.shutdown_requested.store(true, Ordering::SeqCst);
        Ok(())
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        let item = params.text_document;
        let document = Document::new(&item.text, item.version, self.new_revision());
        let snapshot = Snapshot {
            text: item.text,
            version: document.version,
            revision: document.revision,
        };
        self.documents.insert(item.uri.clone(), document);
        self.analyze_and_publish(item.uri, snapshot).await;
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        let uri = params.text_document.uri;
        let applied = self.documents.get_mut(&uri).map(|mut document| {
            let revision = self.new_revision();
            document.apply_changes(
                &params.content_changes,
                self.encoding(),
                params.text_document.version,
                revision,
            );
            document.snapshot()
        });
        let Some(snapshot) = applied else {
            // No text to apply the edit to; say so rather than guess.
            self.client
                .log_message(
                    MessageType::WARNING,
                    format!("ppn-ls: change to {}, which is not open", uri.as_str()),
                )
                .await;
            return;
        };
        self.analyze_and_publish(uri, snapshot).await;
    }

    async fn did_save(&self, params: DidSaveTextDocumentParams) {
        let uri = params.text_document.uri;
        let Some(saved) = params.text else {
            return;
        };
        // Only a client that sends the text anyway reaches this; trust the saved text.
        let snapshot = {
            let Some(mut document) = self.documents.get_mut(&uri) else {
                return;
            };
            if document.text == saved.as_str() {
                return;
            }
            let version = document.version;
            *document = Document::new(&saved, version, self.new_revision());
            document.snapshot()
        };
        self.analyze_and_publish(uri, snapshot).await;
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        let uri = params.text_document.uri;
        self.documents.remove(&uri);
        let _gate = self.publish_gate.lock().await;
        // Reopened meanwhile: its own analysis publishes.
        if !self.documents.contains_key(&uri) {
            self.client.publish_diagnostics(uri, Vec::new(), None).await;
        }
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        let at = params.text_document_position_params;
        let Some(analysis) = self.current_analysis(&at.text_document.uri).await else {
            return Ok(None);
        };
        let offset = text_offset(
            &analysis.text,
            &analysis.line_index,
            at.position,
            self.encoding(),
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
    let position = |offset| text_position(&analysis.text, &analysis.line_index, offset, encoding);
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
