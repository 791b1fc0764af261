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
use serde_json::{json, Value};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::task::JoinError;
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{
    self as lsp, CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams,
    CodeActionProviderCapability, CodeActionResponse, CompletionItem, CompletionItemKind,
    CompletionOptions, CompletionParams, CompletionResponse, CompletionTextEdit,
    DidChangeTextDocumentParams, DidCloseTextDocumentParams, DidOpenTextDocumentParams,
    DidSaveTextDocumentParams, DocumentSymbol, DocumentSymbolParams, DocumentSymbolResponse,
    Documentation, FoldingRange, FoldingRangeKind, FoldingRangeParams,
    FoldingRangeProviderCapability, GotoDefinitionParams, GotoDefinitionResponse, Hover,
    HoverContents, HoverParams, HoverProviderCapability, InitializeParams, InitializeResult,
    InitializedParams, InlayHint, InlayHintLabel, InlayHintParams, InlayHintTooltip, MarkupContent,
    MarkupKind, MessageType, NumberOrString, OneOf, Position, ReferenceParams, SaveOptions,
    SemanticTokenType, SemanticTokens, SemanticTokensFullOptions, SemanticTokensLegend,
    SemanticTokensOptions, SemanticTokensParams, SemanticTokensResult,
    SemanticTokensServerCapabilities, ServerCapabilities, ServerInfo, SymbolKind,
    TextDocumentPositionParams, TextDocumentSyncCapability, TextDocumentSyncKind,
    TextDocumentSyncOptions, TextDocumentSyncSaveOptions, TextEdit, Uri, WorkspaceEdit,
};
use tower_lsp_server::{Client, LanguageServer, LspService, Server};

use super::document::{Document, Snapshot};
use super::encoding::{text_offset, text_position, PositionEncoding};
use super::{uri_path, Analysis, Analyzer, SessionEnd};
use crate::diagnostic::{Diagnostic, Severity};
use crate::ide::board::piece_json;
use crate::ide::document::{board_at, hover, quick_fixes, render_at};
use crate::model::document::NotationDocument;
use crate::model::features::TokenKind;
use crate::model::features::{CompletionKind, FoldKind, Symbol, SymbolKind as PpnSymbolKind};

/// The custom request for the board at a position: `{textDocument, position}` in, the
/// move's label, its diagram and its pieces out (`null` outside any game).
pub const BOARD_AT_METHOD: &str = "ppn/boardAt";

/// The custom request for the picture of the board at a position: `ppn/boardAt`'s
/// parameters (and optionally `flip`, `width`) in, `{label, svg}` out (`null` outside any
/// game).
pub const RENDER_METHOD: &str = "ppn/render";

/// `ppn/render`'s parameters.
#[derive(Debug, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct RenderParams {
    #[serde(flatten)]
    at: TextDocumentPositionParams,
    #[serde(default)]
    flip: bool,
    width: Option<u32>,
}

/// Serve one client over `input` and `output` until it exits.
pub async fn serve<I, O>(input: I, output: O, analyzer: Analyzer) -> SessionEnd
where
    I: AsyncRead + Unpin,
    O: AsyncWrite,
{
    let shutdown_requested = Arc::new(AtomicBool::new(false));
    let flag = shutdown_requested.clone();
    let (service, socket) = LspService::build(move |client| Backend {
        state: Arc::new(State {
            client,
            analyzer,
            documents: DashMap::new(),
            encoding: OnceLock::new(),
            next_revision: AtomicU64::new(1),
            publish_gate: tokio::sync::Mutex::new(()),
            shutdown_requested: flag,
        }),
    })
    .custom_method(BOARD_AT_METHOD, Backend::board_at)
    .custom_method(RENDER_METHOD, Backend::render)
    .finish();
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
            match self.analyze(&uri, snapshot).await {
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
    async fn analyze(
        &self,
        uri: &Uri,
        snapshot: Snapshot,
    ) -> std::result::Result<Arc<Analysis>, JoinError> {
        let analyzer = self.analyzer.clone();
        let path = uri_path(uri.as_str());
        tokio::task::spawn_blocking(move || {
            let path = path.as_deref();
            let analysis = match &snapshot.base {
                Some(base) => Analysis::update(
                    &base.analysis,
                    path,
                    &snapshot.text,
                    snapshot.version,
                    &base.edit,
                    &analyzer,
                ),
                None => Analysis::new(path, &snapshot.text, snapshot.version, &analyzer),
            };
            Arc::new(analysis)
        })
        .await
    }

    async fn publish(&self, uri: &Uri, analysis: &Analysis, revision: u64) {
        let diagnostics = to_lsp_diagnostics(uri, analysis, self.encoding());
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
        self.analyze(uri, snapshot).await.ok()
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
                completion_provider: Some(CompletionOptions {
                    trigger_characters: Some(vec!["`".to_string()]),
                    ..CompletionOptions::default()
                }),
                inlay_hint_provider: Some(OneOf::Left(true)),
                document_symbol_provider: Some(OneOf::Left(true)),
                folding_range_provider: Some(FoldingRangeProviderCapability::Simple(true)),
                semantic_tokens_provider: Some(SemanticTokensServerCapabilities::from(
                    SemanticTokensOptions {
                        legend: SemanticTokensLegend {
                            token_types: TokenKind::LEGEND
                                .into_iter()
                                .map(SemanticTokenType::new)
                                .collect(),
                            token_modifiers: Vec::new(),
                        },
                        full: Some(SemanticTokensFullOptions::Bool(true)),
                        ..SemanticTokensOptions::default()
                    },
                )),
                definition_provider: Some(OneOf::Left(true)),
                code_action_provider: Some(CodeActionProviderCapability::Simple(true)),
                references_provider: Some(OneOf::Left(true)),
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
        let Some((analysis, offset)) = self.state.analysis_at(&at).await else {
            return Ok(None);
        };
        let convert = self.state.converter(&*analysis.document);
        Ok(hover(&*analysis.document, offset).map(|found| Hover {
            contents: HoverContents::Markup(MarkupContent {
                kind: MarkupKind::Markdown,
                value: found.markdown,
            }),
            range: Some(convert.range(&found.range)),
        }))
    }

    async fn completion(&self, params: CompletionParams) -> Result<Option<CompletionResponse>> {
        let at = params.text_document_position;
        let Some((analysis, offset)) = self.state.analysis_at(&at).await else {
            return Ok(None);
        };
        let convert = self.state.converter(&*analysis.document);
        let items: Vec<CompletionItem> = analysis
            .document
            .completions(offset)
            .into_iter()
            .map(|item| CompletionItem {
                kind: Some(match item.kind {
                    CompletionKind::Macro => CompletionItemKind::CONSTANT,
                    CompletionKind::MetadataKey => CompletionItemKind::PROPERTY,
                    CompletionKind::Game => CompletionItemKind::VALUE,
                    CompletionKind::System | CompletionKind::Parser | CompletionKind::Code => {
                        CompletionItemKind::ENUM_MEMBER
                    }
                    CompletionKind::Key => CompletionItemKind::PROPERTY,
                    CompletionKind::Value => CompletionItemKind::VALUE,
                }),
                detail: item.detail,
                documentation: item.documentation.map(Documentation::String),
                sort_text: Some(item.sort),
                filter_text: Some(item.label.clone()),
                text_edit: Some(CompletionTextEdit::Edit(TextEdit {
                    range: convert.range(&item.replace),
                    new_text: item.insert,
                })),
                label: item.label,
                ..CompletionItem::default()
            })
            .collect();
        Ok((!items.is_empty()).then_some(CompletionResponse::Array(items)))
    }

    async fn inlay_hint(&self, params: InlayHintParams) -> Result<Option<Vec<InlayHint>>> {
        let Some(analysis) = self.state.current_analysis(&params.text_document.uri).await else {
            return Ok(None);
        };
        let convert = self.state.converter(&*analysis.document);
        let range = convert.offset(params.range.start)..convert.offset(params.range.end);
        let hints = analysis
            .document
            .inlay_hints(range)
            .into_iter()
            .map(|hint| InlayHint {
                position: convert.position(hint.offset),
                label: InlayHintLabel::String(hint.label),
                kind: None,
                text_edits: None,
                tooltip: hint.tooltip.map(InlayHintTooltip::String),
                padding_left: Some(true),
                padding_right: None,
                data: None,
            })
            .collect();
        Ok(Some(hints))
    }

    async fn document_symbol(
        &self,
        params: DocumentSymbolParams,
    ) -> Result<Option<DocumentSymbolResponse>> {
        let Some(analysis) = self.state.current_analysis(&params.text_document.uri).await else {
            return Ok(None);
        };
        let convert = self.state.converter(&*analysis.document);
        let symbols = analysis
            .document
            .symbols()
            .into_iter()
            .map(|symbol| to_lsp_symbol(&convert, symbol))
            .collect();
        Ok(Some(DocumentSymbolResponse::Nested(symbols)))
    }

    async fn folding_range(&self, params: FoldingRangeParams) -> Result<Option<Vec<FoldingRange>>> {
        let Some(analysis) = self.state.current_analysis(&params.text_document.uri).await else {
            return Ok(None);
        };
        let folds = analysis
            .document
            .folds()
            .into_iter()
            .map(|fold| FoldingRange {
                start_line: saturating_u32(fold.start_line),
                end_line: saturating_u32(fold.end_line),
                kind: Some(match fold.kind {
                    FoldKind::Region => FoldingRangeKind::Region,
                    FoldKind::Comment => FoldingRangeKind::Comment,
                }),
                ..FoldingRange::default()
            })
            .collect();
        Ok(Some(folds))
    }

    async fn semantic_tokens_full(
        &self,
        params: SemanticTokensParams,
    ) -> Result<Option<SemanticTokensResult>> {
        let Some(analysis) = self.state.current_analysis(&params.text_document.uri).await else {
            return Ok(None);
        };
        let convert = self.state.converter(&*analysis.document);
        let mut data = Vec::new();
        let mut previous = Position::new(0, 0);
        let whole = 0..analysis.document.text().len();
        for token in analysis.document.semantic_tokens(whole) {
            let start = convert.position(token.range.start);
            let end = convert.position(token.range.end);
            // Tokens come sorted and disjoint; saturate rather than trust that blindly.
            let delta_line = start.line.saturating_sub(previous.line);
            data.push(lsp::SemanticToken {
                delta_line,
                delta_start: if delta_line == 0 {
                    start.character.saturating_sub(previous.character)
                } else {
                    start.character
                },
                length: end.character.saturating_sub(start.character),
                token_type: token.kind.index(),
                token_modifiers_bitset: 0,
            });
            previous = start;
        }
        Ok(Some(SemanticTokensResult::Tokens(SemanticTokens {
            result_id: None,
            data,
        })))
    }

    async fn goto_definition(
        &self,
        params: GotoDefinitionParams,
    ) -> Result<Option<GotoDefinitionResponse>> {
        let at = params.text_document_position_params;
        let Some((analysis, offset)) = self.state.analysis_at(&at).await else {
            return Ok(None);
        };
        let convert = self.state.converter(&*analysis.document);
        Ok(analysis.document.definition(offset).map(|range| {
            GotoDefinitionResponse::Scalar(lsp::Location {
                uri: at.text_document.uri.clone(),
                range: convert.range(&range),
            })
        }))
    }

    async fn code_action(&self, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
        let uri = params.text_document.uri;
        let Some(analysis) = self.state.current_analysis(&uri).await else {
            return Ok(None);
        };
        let convert = self.state.converter(&*analysis.document);
        let range = convert.offset(params.range.start)..convert.offset(params.range.end);
        let encoding = self.state.encoding();
        let actions: CodeActionResponse = quick_fixes(&*analysis.document, range)
            .into_iter()
            .map(|(diagnostic, fix)| {
                let edits = fix
                    .edits
                    .iter()
                    .map(|(range, new_text)| TextEdit {
                        range: convert.range(range),
                        new_text: new_text.clone(),
                    })
                    .collect();
                CodeActionOrCommand::CodeAction(CodeAction {
                    title: fix.title.clone(),
                    kind: Some(CodeActionKind::QUICKFIX),
                    diagnostics: Some(vec![to_lsp_diagnostic(
                        &uri, &analysis, diagnostic, encoding,
                    )]),
                    edit: Some(WorkspaceEdit {
                        changes: Some(std::iter::once((uri.clone(), edits)).collect()),
                        ..WorkspaceEdit::default()
                    }),
                    is_preferred: Some(true),
                    ..CodeAction::default()
                })
            })
            .collect();
        Ok(Some(actions))
    }

    async fn references(&self, params: ReferenceParams) -> Result<Option<Vec<lsp::Location>>> {
        let at = params.text_document_position;
        let Some((analysis, offset)) = self.state.analysis_at(&at).await else {
            return Ok(None);
        };
        let convert = self.state.converter(&*analysis.document);
        let found = analysis
            .document
            .references(offset, params.context.include_declaration);
        Ok(Some(
            found
                .iter()
                .map(|range| lsp::Location {
                    uri: at.text_document.uri.clone(),
                    range: convert.range(range),
                })
                .collect(),
        ))
    }
}

impl Backend {
    /// `ppn/boardAt`: the board after the move under (or last before) the position.
    async fn board_at(&self, params: TextDocumentPositionParams) -> Result<Value> {
        let Some((analysis, offset)) = self.state.analysis_at(&params).await else {
            return Ok(Value::Null);
        };
        Ok(match board_at(&*analysis.document, offset) {
            Some(board) => json!({
                "label": board.label,
                "text": board.text,
                "pieces": board.pieces.iter().map(piece_json).collect::<Vec<_>>(),
            }),
            None => Value::Null,
        })
    }
}

impl Backend {
    /// `ppn/render`: the picture of the board after the move under (or last before) the
    /// position.
    async fn render(&self, params: RenderParams) -> Result<Value> {
        let Some((analysis, offset)) = self.state.analysis_at(&params.at).await else {
            return Ok(Value::Null);
        };
        let options = crate::render::svg::SvgOptions {
            flip: params.flip,
            width: params.width,
            ..crate::render::svg::SvgOptions::default()
        };
        Ok(match render_at(&*analysis.document, offset, &options) {
            Some(board) => json!({ "label": board.label, "svg": board.svg }),
            None => Value::Null,
        })
    }
}

/// Byte offsets of one analysed text ↔ LSP positions in the negotiated encoding.
struct Converter<'a> {
    document: &'a dyn NotationDocument,
    encoding: PositionEncoding,
}

impl Converter<'_> {
    fn position(&self, offset: usize) -> Position {
        text_position(
            self.document.text(),
            self.document.line_index(),
            offset,
            self.encoding,
        )
    }

    fn range(&self, range: &std::ops::Range<usize>) -> lsp::Range {
        lsp::Range {
            start: self.position(range.start),
            end: self.position(range.end.max(range.start)),
        }
    }

    fn offset(&self, position: Position) -> usize {
        text_offset(
            self.document.text(),
            self.document.line_index(),
            position,
            self.encoding,
        )
    }
}

impl State {
    fn converter<'a>(&self, document: &'a dyn NotationDocument) -> Converter<'a> {
        Converter {
            document,
            encoding: self.encoding(),
        }
    }

    /// The analysis of a request's document and the byte offset of its position.
    async fn analysis_at(&self, at: &TextDocumentPositionParams) -> Option<(Arc<Analysis>, usize)> {
        let analysis = self.current_analysis(&at.text_document.uri).await?;
        let offset = self.converter(&*analysis.document).offset(at.position);
        Some((analysis, offset))
    }
}

fn to_lsp_symbol(convert: &Converter<'_>, symbol: Symbol) -> DocumentSymbol {
    let children: Vec<DocumentSymbol> = symbol
        .children
        .into_iter()
        .map(|child| to_lsp_symbol(convert, child))
        .collect();
    #[allow(deprecated)] // `deprecated` must be written out; it is left unset.
    DocumentSymbol {
        name: symbol.name,
        detail: symbol.detail,
        kind: match symbol.kind {
            PpnSymbolKind::Game => SymbolKind::NAMESPACE,
            PpnSymbolKind::Move => SymbolKind::EVENT,
            PpnSymbolKind::Variation => SymbolKind::NAMESPACE,
        },
        tags: None,
        deprecated: None,
        range: convert.range(&symbol.range),
        selection_range: convert.range(&symbol.selection),
        children: (!children.is_empty()).then_some(children),
    }
}

fn saturating_u32(value: usize) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

fn to_lsp_diagnostics(
    uri: &Uri,
    analysis: &Analysis,
    encoding: PositionEncoding,
) -> Vec<lsp::Diagnostic> {
    analysis
        .document
        .diagnostics()
        .iter()
        .map(|diagnostic| to_lsp_diagnostic(uri, analysis, diagnostic, encoding))
        .collect()
}

fn to_lsp_diagnostic(
    uri: &Uri,
    analysis: &Analysis,
    diagnostic: &Diagnostic,
    encoding: PositionEncoding,
) -> lsp::Diagnostic {
    let position = |offset| {
        text_position(
            analysis.document.text(),
            analysis.document.line_index(),
            offset,
            encoding,
        )
    };
    let range = |range: &std::ops::Range<usize>| lsp::Range {
        start: position(range.start),
        end: position(range.end.max(range.start)),
    };
    let related: Vec<lsp::DiagnosticRelatedInformation> = diagnostic
        .related
        .iter()
        .map(|related| lsp::DiagnosticRelatedInformation {
            location: lsp::Location {
                uri: uri.clone(),
                range: range(&related.range),
            },
            message: related.message.clone(),
        })
        .collect();
    lsp::Diagnostic {
        range: range(&diagnostic.range),
        related_information: (!related.is_empty()).then_some(related),
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
