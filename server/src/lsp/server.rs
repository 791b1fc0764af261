//! The LSP front end: document synchronisation, diagnostics and requests.
//!
//! Handlers run concurrently, but each one's code before its first `.await` runs in the
//! order the client sent the messages. So every edit is applied there, in one piece, under
//! the document's map entry, and a request only ever sees whole revisions. Analysis runs in
//! a task of its own per document, on snapshots tagged with their revision; a result whose
//! revision is no longer the document's is neither kept nor published. A snapshot carries
//! the last analysis kept for the document and the byte edit made since, so the analyzer
//! can start from it instead of from nothing. A request never analyses: it waits for the
//! analysis of the text it was sent for (and answers `ContentModified` if the text moves
//! on before that analysis is done).
//!
//! Nothing a client sends ends the server: malformed frames are answered and skipped
//! before the protocol library sees them (see [`crate::lsp::transport`]), and a panic while
//! answering a message or analysing a document becomes an error response or a logged
//! failure.

use std::cell::RefCell;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::task::{Context, Poll};

use dashmap::DashMap;
use futures::FutureExt;
use serde_json::{json, Value};
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, DuplexStream};
use tokio::sync::{mpsc, watch};
use tokio::task::JoinError;
use tower_lsp_server::jsonrpc::{self, ErrorCode, Request, Response, Result};
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
    SemanticToken, SemanticTokenType, SemanticTokens, SemanticTokensDelta,
    SemanticTokensDeltaParams, SemanticTokensEdit, SemanticTokensFullDeltaResult,
    SemanticTokensFullOptions, SemanticTokensLegend, SemanticTokensOptions, SemanticTokensParams,
    SemanticTokensRangeParams, SemanticTokensRangeResult, SemanticTokensResult,
    SemanticTokensServerCapabilities, ServerCapabilities, ServerInfo, SymbolKind,
    TextDocumentPositionParams, TextDocumentSyncCapability, TextDocumentSyncKind,
    TextDocumentSyncOptions, TextDocumentSyncSaveOptions, TextEdit, Uri, WorkspaceEdit,
};
use tower_lsp_server::{Client, LanguageServer, LspService, Server};

mod editing;

use super::{uri_path, Analysis, Analyzer, SessionEnd};
use crate::config::{editor_settings, is_config_file, Config, ConfigFiles, Settings};
use crate::diagnostic::Diagnostic;
use crate::ide::analyze::{
    animation_at, board_drawn_at, hover_with, quick_fixes, render_at, HoverOptions,
};
use crate::ide::game_line::{game_line_at, LineStop};
use crate::lsp::config::{self, uri_file_path};
use crate::lsp::encoding::{text_offset, PositionCursor, PositionEncoding};
use crate::lsp::open_document::{Document, Snapshot};
use crate::lsp::prewritten_json::{JsonArray, WrittenArrays};
use crate::lsp::transport::{check_message, framed, skipped_line, Frame, FrameReader, Verdict};
use crate::lsp::workspace_index::WorkspaceIndex;
use crate::model::features::TokenKind;
use crate::model::features::{
    outline, CompletionKind, FoldKind, Symbol, SymbolKind as PpnSymbolKind,
};
use crate::model::notation_document::NotationDocument;
use crate::render::piece_json::piece_json;

/// The custom request for the board at a position: `{textDocument, position}` in, the
/// move's label, its diagram and its pieces out (`null` outside any game).
pub const BOARD_AT_METHOD: &str = "ppn/boardAt";

/// The custom request for the picture of the board at a position: `ppn/boardAt`'s
/// parameters (and optionally `flip`, `width`) in, `{label, svg, game, state}` out (`state`
/// numbers the board in its game, as `ppn/gameLine`'s `ref` does; `null` outside any game).
/// With `animate: true` (and optionally `frameMs`, default 1000), the picture plays the
/// game's main line from its start instead, and the label and state are its last move's:
/// how editors without a board panel run the *Animate* lens.
pub const RENDER_METHOD: &str = "ppn/render";

/// The custom request for the states of the game at a position, for stepping through it:
/// `{textDocument, position}` in; `{game, name, range, states, variations: [{name, from,
/// states}], current}` out, each state as `{label, text, comment, ref, range, cursor}` with
/// the position where the cursor shows it (`ref` numbers it in the game, as `ppn/render`'s
/// `state` does; `current` is the one at the position); `null` outside any game.
pub const GAME_LINE_METHOD: &str = "ppn/gameLine";

/// `ppn/render`'s parameters.
#[derive(Debug, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct RenderParams {
    #[serde(flatten)]
    at: TextDocumentPositionParams,
    #[serde(default)]
    flip: bool,
    width: Option<u32>,
    #[serde(default)]
    animate: bool,
    frame_ms: Option<u32>,
}

/// Serve one client over `input` and `output` until it exits.
///
/// The protocol library reads only what [`read_client`] passes it and writes into a pipe
/// of its own; [`write_frames`] writes its messages and the answers to malformed frames
/// to `output`, one whole frame at a time.
pub async fn serve<I, O>(input: I, output: O, analyzer: Analyzer) -> SessionEnd
where
    I: AsyncRead + Unpin,
    O: AsyncWrite,
{
    let shutdown_requested = Arc::new(AtomicBool::new(false));
    let flag = shutdown_requested.clone();
    let written_arrays = Arc::new(WrittenArrays::default());
    let arrays = written_arrays.clone();
    let (service, socket) = LspService::build(move |client| Backend {
        state: Arc::new(State {
            client,
            analyzer,
            documents: DashMap::new(),
            sent_tokens: DashMap::new(),
            written_arrays: arrays,
            encoding: OnceLock::new(),
            hover_plain_text: OnceLock::new(),
            next_revision: AtomicU64::new(1),
            publish_gate: tokio::sync::Mutex::new(()),
            progress: watch::channel(0).0,
            shutdown_requested: flag,
            workspace: std::sync::Mutex::new(WorkspaceIndex::default()),
            editor_settings: std::sync::RwLock::new(Settings::default()),
            configs: ConfigFiles::new(),
            config_documents: DashMap::new(),
            pulls_configuration: AtomicBool::new(false),
            watch_config_files: AtomicBool::new(false),
        }),
    })
    .custom_method(BOARD_AT_METHOD, Backend::board_at)
    .custom_method(RENDER_METHOD, Backend::render)
    .custom_method(GAME_LINE_METHOD, Backend::game_line)
    .finish();

    let (to_library, library_input) = tokio::io::duplex(PIPE_BYTES);
    let (library_output, from_library) = tokio::io::duplex(PIPE_BYTES);
    let (outgoing, frames) = mpsc::channel(OUTGOING_FRAMES);
    let library = Server::new(library_input, library_output, socket).serve(CatchPanics(service));
    let reading = read_client(input, to_library, outgoing.clone());
    let session = async {
        tokio::pin!(library);
        tokio::select! {
            // `exit`: the client may keep its end open, so stop reading it.
            () = &mut library => {}
            // The client closed its end: the library sees its input end and stops too.
            () = reading => library.await,
        }
    };
    tokio::join!(
        session,
        forward_library_output(from_library, outgoing, &written_arrays),
        write_frames(frames, output)
    );
    if shutdown_requested.load(Ordering::SeqCst) {
        SessionEnd::AfterShutdown
    } else {
        SessionEnd::WithoutShutdown
    }
}

/// Room in each pipe between the protocol library and the client's streams.
const PIPE_BYTES: usize = 1 << 16;
/// Messages waiting to be written to the client.
const OUTGOING_FRAMES: usize = 64;

/// Passes the client's well-formed messages to the library; answers the others.
async fn read_client<I: AsyncRead + Unpin>(
    input: I,
    mut to_library: DuplexStream,
    outgoing: mpsc::Sender<Vec<u8>>,
) {
    let mut reader = FrameReader::new(input);
    loop {
        let answer = match reader.next_frame().await {
            Frame::End => return,
            Frame::Malformed(problem) => {
                eprintln!("{}", skipped_line(&problem));
                json!({
                    "jsonrpc": "2.0",
                    "id": null,
                    "error": { "code": -32700, "message": format!("Parse error: {problem}") }
                })
            }
            Frame::Body(body) => match check_message(&body) {
                Verdict::Pass => {
                    if to_library.write_all(&framed(&body)).await.is_err() {
                        return;
                    }
                    continue;
                }
                Verdict::Answer { response, problem } => {
                    if let Some(problem) = problem {
                        eprintln!("{}", skipped_line(&problem));
                    }
                    response
                }
                Verdict::Drop(problem) => {
                    eprintln!("{}", skipped_line(&problem));
                    continue;
                }
            },
        };
        if outgoing
            .send(answer.to_string().into_bytes())
            .await
            .is_err()
        {
            return;
        }
    }
}

/// Cuts the library's output into messages for [`write_frames`], putting in the arrays
/// written ahead of them.
async fn forward_library_output(
    from_library: DuplexStream,
    outgoing: mpsc::Sender<Vec<u8>>,
    written_arrays: &WrittenArrays,
) {
    let mut reader = FrameReader::new(from_library);
    loop {
        match reader.next_frame().await {
            Frame::Body(body) => {
                if outgoing.send(written_arrays.fill(body)).await.is_err() {
                    return;
                }
            }
            Frame::Malformed(problem) => {
                eprintln!("ppn-ls: dropped an outgoing message: {problem}")
            }
            Frame::End => return,
        }
    }
}

/// Writes each message whole. Once the client stops reading, messages are dropped, so
/// that nothing waits on it.
async fn write_frames<O: AsyncWrite>(mut frames: mpsc::Receiver<Vec<u8>>, output: O) {
    tokio::pin!(output);
    let mut open = true;
    while let Some(body) = frames.recv().await {
        if open {
            let written = async {
                output.write_all(&framed(&body)).await?;
                output.flush().await
            };
            open = written.await.is_ok();
        }
    }
}

/// The language server's service, answering a request whose handler panicked with an
/// internal error (and a notification whose handler panicked with nothing) instead of
/// letting the panic end the server.
struct CatchPanics<S>(S);

impl<S> tower_service::Service<Request> for CatchPanics<S>
where
    S: tower_service::Service<Request, Response = Option<Response>>,
    S::Future: Send + 'static,
    S::Error: Send + 'static,
{
    type Response = Option<Response>;
    type Error = S::Error;
    type Future =
        Pin<Box<dyn Future<Output = std::result::Result<Self::Response, S::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<std::result::Result<(), S::Error>> {
        self.0.poll_ready(cx)
    }

    fn call(&mut self, request: Request) -> Self::Future {
        let id = request.id().cloned();
        let method = request.method().to_string();
        let answer = std::panic::catch_unwind(AssertUnwindSafe(|| self.0.call(request)));
        Box::pin(async move {
            let panic = match answer {
                Ok(answer) => match AssertUnwindSafe(answer).catch_unwind().await {
                    Ok(answered) => return answered,
                    Err(panic) => panic,
                },
                Err(panic) => panic,
            };
            let message = format!("ppn-ls failed on {method}: {}", panic_message(&*panic));
            eprintln!("{message}");
            Ok(id.map(|id| {
                Response::from_error(
                    id,
                    jsonrpc::Error {
                        code: ErrorCode::InternalError,
                        message: message.into(),
                        data: None,
                    },
                )
            }))
        })
    }
}

fn panic_message(panic: &(dyn std::any::Any + Send)) -> &str {
    panic
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("a panic")
}

struct Backend {
    state: Arc<State>,
}

/// How long the server goes without a change of text before it returns freed memory.
const IDLE_BEFORE_RETURNING_MEMORY: std::time::Duration = std::time::Duration::from_secs(1);

struct State {
    client: Client,
    analyzer: Analyzer,
    documents: DashMap<Uri, Document>,
    /// The semantic tokens last sent for each document, and their result id: a client that
    /// asks for the change since then gets only what differs.
    sent_tokens: DashMap<Uri, (String, Arc<Vec<SemanticToken>>)>,
    /// The numbers of semantic tokens, written as JSON for the answer on its way out.
    written_arrays: Arc<WrittenArrays>,
    encoding: OnceLock<PositionEncoding>,
    /// The client shows hovers only as plain text (its `contentFormat` has no Markdown).
    hover_plain_text: OnceLock<bool>,
    next_revision: AtomicU64,
    /// Held from the last staleness check to the end of a publication, so diagnostics of
    /// an older revision can never overtake those of a newer one on the way out.
    publish_gate: tokio::sync::Mutex<()>,
    /// Bumped whenever a document's text changes, an analysis is stored or fails, or a
    /// document closes: what requests waiting for an analysis wait on.
    progress: watch::Sender<u64>,
    shutdown_requested: Arc<AtomicBool>,
    /// The games of the workspace's files, for `workspace/symbol`.
    workspace: std::sync::Mutex<WorkspaceIndex>,
    /// What the editor sets (`ppn-ls` in `initializationOptions` and in
    /// `workspace/didChangeConfiguration` or `workspace/configuration`).
    editor_settings: std::sync::RwLock<Settings>,
    /// The `ppn-ls.toml` files in force, found from each document's folder upwards.
    configs: ConfigFiles,
    /// Open `ppn-ls.toml` files, kept as the editor edits them: their text counts instead of
    /// the disk's, and they get diagnostics of their own.
    config_documents: DashMap<Uri, Document>,
    /// Whether the client answers `workspace/configuration`.
    pulls_configuration: AtomicBool,
    /// Whether the client watches files for the server (`ppn-ls.toml` changed on disk).
    watch_config_files: AtomicBool,
}

/// What the analysis task of a document does next.
enum Step {
    Analyze(Snapshot),
    Stop,
}

/// Where an editor puts ppn-ls's settings.
const SETTINGS_SECTION: &str = "ppn-ls";

/// The file of a `ppn-ls.toml` document.
fn config_path(uri: &Uri) -> Option<std::path::PathBuf> {
    uri_file_path(uri.as_str()).filter(|path| is_config_file(path))
}

impl State {
    /// The configuration in force for a document: the `ppn-ls.toml` nearest its file, and the
    /// editor's settings.
    fn config_for(&self, uri: &Uri) -> Config {
        let found = uri_file_path(uri.as_str()).and_then(|path| self.configs.for_file(&path));
        let editor = self
            .editor_settings
            .read()
            .unwrap_or_else(|e| e.into_inner());
        match found {
            Some(found) => Config::resolve(&found.file.settings, &editor),
            None => Config::resolve(&Settings::default(), &editor),
        }
    }

    /// Reads the editor's settings; what is wrong in them is said once, as a warning.
    async fn set_editor_settings(&self, value: &Value) {
        let (settings, problems) = editor_settings(value);
        *self
            .editor_settings
            .write()
            .unwrap_or_else(|e| e.into_inner()) = settings;
        if !problems.is_empty() {
            let message = format!(
                "ppn-ls: the editor's settings have mistakes (their defaults apply): {}",
                problems.join("; ")
            );
            self.client
                .log_message(MessageType::WARNING, &message)
                .await;
            self.client
                .show_message(MessageType::WARNING, message)
                .await;
        }
    }

    /// Asks a client that answers `workspace/configuration` for the `ppn-ls` settings.
    async fn pull_editor_settings(&self) {
        if !self.pulls_configuration.load(Ordering::SeqCst) {
            return;
        }
        let item = lsp::ConfigurationItem {
            scope_uri: None,
            section: Some(SETTINGS_SECTION.to_string()),
        };
        if let Ok(mut values) = self.client.configuration(vec![item]).await {
            if let Some(value) = values.pop() {
                self.set_editor_settings(&value).await;
            }
        }
    }

    /// An open `ppn-ls.toml` changed: its diagnostics, and every document it may govern.
    async fn config_text_changed(&self, uri: &Uri, path: &std::path::Path) {
        let Some(text) = self
            .config_documents
            .get(uri)
            .map(|document| document.text.to_string())
        else {
            return;
        };
        let diagnostics = config::config_file_diagnostics(&text, self.encoding());
        let version = self.config_documents.get(uri).map(|d| d.version);
        self.configs.set_open_text(path, Some(text));
        self.client
            .publish_diagnostics(uri.clone(), diagnostics, version)
            .await;
        self.republish_all().await;
    }

    /// Publishes every analysed document's diagnostics again (the configuration changed).
    async fn republish_all(&self) {
        let analysed: Vec<(Uri, Arc<Analysis>, u64)> = self
            .documents
            .iter()
            .filter_map(|entry| {
                let analysis = entry.analysis.clone()?;
                Some((entry.key().clone(), analysis, entry.revision))
            })
            .collect();
        for (uri, analysis, revision) in analysed {
            self.publish(&uri, &analysis, revision).await;
        }
    }

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
                Step::Stop => {
                    self.return_memory_when_idle();
                    return;
                }
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
                        self.notify_progress();
                        self.publish(&uri, &analysis, revision).await;
                        // Freeing a long game's states takes a while: not on an async thread,
                        // and once the diagnostics are out (freed beside their publishing,
                        // a 100,000-move record's took a fifth longer to reach the editor
                        // in one run of three).
                        if let Some(replaced) = replaced {
                            tokio::task::spawn_blocking(move || drop(replaced));
                        }
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
                    if self.stop_after_failure(&uri, opened, Some(revision)) {
                        return;
                    }
                }
            }
        }
    }

    /// Marks the document's analysis task as stopped after a failure, if it is still the
    /// document's (and, with `revision`, the text is still the one that failed); wakes up
    /// the requests waiting for it. Whether the task stopped.
    fn stop_after_failure(&self, uri: &Uri, opened: u64, revision: Option<u64>) -> bool {
        let stopped = self.documents.get_mut(uri).is_some_and(|mut document| {
            let same = document.opened == opened
                && revision.is_none_or(|revision| document.revision == revision);
            if same {
                document.analysis_running = false;
            }
            same
        });
        self.notify_progress();
        stopped
    }

    /// Once no text has changed for [`IDLE_BEFORE_RETURNING_MEMORY`], gives the memory the
    /// analyses freed back to the system (the allocator keeps it meanwhile, for the next
    /// analysis to reuse: see `memory`).
    fn return_memory_when_idle(self: &Arc<Self>) {
        let revision = self.next_revision.load(Ordering::SeqCst);
        let state = Arc::clone(self);
        tokio::spawn(async move {
            tokio::time::sleep(IDLE_BEFORE_RETURNING_MEMORY).await;
            if state.next_revision.load(Ordering::SeqCst) == revision {
                // Typing has paused: the analyses kept for edits undone go.
                let earlier: Vec<Arc<Analysis>> = state
                    .documents
                    .iter_mut()
                    .filter_map(|mut document| document.earlier.take())
                    .collect();
                let _ = tokio::task::spawn_blocking(move || drop(earlier)).await;
                // The protocol's threads answer when they next go idle; a few empty tasks
                // wake the one that sleeps.
                crate::memory::ask_threads_to_return_freed_memory();
                for _ in 0..4 {
                    tokio::spawn(async {});
                }
                let _ = tokio::task::spawn_blocking(crate::memory::return_freed_memory).await;
            }
        });
    }

    fn notify_progress(&self) {
        self.progress
            .send_modify(|count| *count = count.wrapping_add(1));
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
            if let Some(again) = snapshot.analysed_before() {
                return Arc::new(again);
            }
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
        let config = self.config_for(uri);
        let diagnostics = to_lsp_diagnostics(uri, analysis, self.encoding(), &config);
        let _gate = self.publish_gate.lock().await;
        if self.is_current(uri, revision) {
            self.client
                .publish_diagnostics(uri.clone(), diagnostics, Some(analysis.version))
                .await;
        }
    }

    /// The analysis of the document's current text, once the analysis task has it: a
    /// request never starts an analysis of its own (a long game takes long, and several
    /// at once take several times the memory). `None` when the document is not open or
    /// its analysis failed; `ContentModified` when the text changed meanwhile.
    async fn current_analysis(&self, uri: &Uri) -> Result<Option<Arc<Analysis>>> {
        // Listening before looking, so that nothing stored in between goes unnoticed.
        let mut progress = self.progress.subscribe();
        let Some(revision) = self.documents.get(uri).map(|document| document.revision) else {
            return Ok(None);
        };
        loop {
            {
                let Some(document) = self.documents.get(uri) else {
                    return Ok(None);
                };
                if document.revision != revision {
                    return Err(jsonrpc::Error {
                        code: ErrorCode::ContentModified,
                        message: "the document changed before its analysis was done".into(),
                        data: None,
                    });
                }
                if let Some(analysis) = &document.analysis {
                    return Ok(Some(analysis.clone()));
                }
                if !document.analysis_running {
                    return Ok(None);
                }
            }
            if progress.changed().await.is_err() {
                return Ok(None);
            }
        }
    }
}

impl Backend {
    /// Make sure an analysis task runs for the document; call with its entry held, so the
    /// decision and the edit it follows are one step.
    fn ensure_analysis(&self, uri: &Uri, document: &mut Document) {
        if !document.analysis_running {
            document.analysis_running = true;
            let state = self.state.clone();
            let (uri, opened) = (uri.clone(), document.opened);
            tokio::spawn(async move {
                let task = state.clone().analyze_until_current(uri.clone(), opened);
                // The analysis itself runs where a panic is caught; this catches the rest
                // (publishing), so that requests waiting on the task are not left waiting.
                if let Err(panic) = AssertUnwindSafe(task).catch_unwind().await {
                    eprintln!(
                        "ppn-ls: analysing {} failed: {}",
                        uri.as_str(),
                        panic_message(&*panic)
                    );
                    state.stop_after_failure(&uri, opened, None);
                }
            });
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
        self.set_workspace(&params);
        let hover_formats = params
            .capabilities
            .text_document
            .as_ref()
            .and_then(|document| document.hover.as_ref())
            .and_then(|hover| hover.content_format.as_deref());
        // A client that names no format is sent Markdown, as to one that names it.
        let plain_text = hover_formats
            .is_some_and(|formats| !formats.is_empty() && !formats.contains(&MarkupKind::Markdown));
        self.state.hover_plain_text.get_or_init(|| plain_text);
        let workspace = params.capabilities.workspace.as_ref();
        self.state.pulls_configuration.store(
            workspace.and_then(|w| w.configuration).unwrap_or(false),
            Ordering::SeqCst,
        );
        let watches_files = workspace
            .and_then(|w| w.did_change_watched_files.as_ref())
            .and_then(|w| w.dynamic_registration)
            .unwrap_or(false);
        self.state
            .watch_config_files
            .store(watches_files, Ordering::SeqCst);
        if let Some(options) = params.initialization_options.as_ref() {
            self.state
                .set_editor_settings(options.get(SETTINGS_SECTION).unwrap_or(&Value::Null))
                .await;
        }
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
                        full: Some(SemanticTokensFullOptions::Delta { delta: Some(true) }),
                        range: Some(true),
                        ..SemanticTokensOptions::default()
                    },
                )),
                definition_provider: Some(OneOf::Left(true)),
                code_action_provider: Some(CodeActionProviderCapability::Simple(true)),
                references_provider: Some(OneOf::Left(true)),
                document_formatting_provider: Some(OneOf::Left(true)),
                document_range_formatting_provider: Some(OneOf::Left(true)),
                rename_provider: Some(OneOf::Right(lsp::RenameOptions {
                    prepare_provider: Some(true),
                    work_done_progress_options: lsp::WorkDoneProgressOptions::default(),
                })),
                document_highlight_provider: Some(OneOf::Left(true)),
                selection_range_provider: Some(lsp::SelectionRangeProviderCapability::Simple(true)),
                workspace_symbol_provider: Some(OneOf::Left(true)),
                code_lens_provider: Some(lsp::CodeLensOptions {
                    resolve_provider: Some(false),
                }),
                ..ServerCapabilities::default()
            },
            server_info: Some(ServerInfo {
                name: "ppn-ls".to_string(),
                version: Some(env!("CARGO_PKG_VERSION").to_string()),
            }),
            ..InitializeResult::default()
        })
    }

    async fn initialized(&self, _: InitializedParams) {
        if self.state.watch_config_files.load(Ordering::SeqCst) {
            let watch = lsp::DidChangeWatchedFilesRegistrationOptions {
                watchers: vec![
                    lsp::FileSystemWatcher {
                        glob_pattern: lsp::GlobPattern::String(format!(
                            "**/{}",
                            crate::config::FILE_NAME
                        )),
                        kind: None,
                    },
                    editing::game_files_watcher(),
                ],
            };
            let registration = lsp::Registration {
                id: "ppn-ls-configuration-files".to_string(),
                method: "workspace/didChangeWatchedFiles".to_string(),
                register_options: serde_json::to_value(watch).ok(),
            };
            if let Err(err) = self
                .state
                .client
                .register_capability(vec![registration])
                .await
            {
                self.state
                    .client
                    .log_message(
                        MessageType::WARNING,
                        format!("ppn-ls: the client did not watch ppn-ls.toml files: {err}"),
                    )
                    .await;
            }
        }
        self.state.pull_editor_settings().await;
    }

    async fn did_change_configuration(&self, params: lsp::DidChangeConfigurationParams) {
        match params.settings.get(SETTINGS_SECTION) {
            Some(settings) => self.state.set_editor_settings(settings).await,
            // Sent as a signal only: the settings are asked for.
            None => self.state.pull_editor_settings().await,
        }
        self.state.republish_all().await;
    }

    async fn did_change_watched_files(&self, params: lsp::DidChangeWatchedFilesParams) {
        let configuration_changed = params
            .changes
            .iter()
            .any(|change| uri_file_path(change.uri.as_str()).is_some_and(|p| is_config_file(&p)));
        if configuration_changed {
            self.state.configs.forget();
            self.state.republish_all().await;
        }
        self.watched_files_changed(params).await;
    }

    async fn shutdown(&self) -> Result<()> {
        self.state.shutdown_requested.store(true, Ordering::SeqCst);
        Ok(())
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        let item = params.text_document;
        if let Some(path) = config_path(&item.uri) {
            let document = Document::new(&item.text, item.version, self.state.new_revision());
            self.state
                .config_documents
                .insert(item.uri.clone(), document);
            self.state.config_text_changed(&item.uri, &path).await;
            return;
        }
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
        if let Some(path) = config_path(&uri) {
            if let Some(mut document) = self.state.config_documents.get_mut(&uri) {
                document.apply_changes(
                    &params.content_changes,
                    self.state.encoding(),
                    params.text_document.version,
                    self.state.new_revision(),
                );
            }
            self.state.config_text_changed(&uri, &path).await;
            return;
        }
        let applied = self.state.documents.get_mut(&uri).map(|mut document| {
            document.apply_changes(
                &params.content_changes,
                self.state.encoding(),
                params.text_document.version,
                self.state.new_revision(),
            );
            self.ensure_analysis(&uri, &mut document);
        });
        // Requests waiting for the analysis of the text before can answer now.
        self.state.notify_progress();
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
        self.state.notify_progress();
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        let uri = params.text_document.uri;
        if let Some(path) = config_path(&uri) {
            self.state.config_documents.remove(&uri);
            self.state.configs.set_open_text(&path, None);
            self.state
                .client
                .publish_diagnostics(uri, Vec::new(), None)
                .await;
            self.state.republish_all().await;
            return;
        }
        self.state.documents.remove(&uri);
        self.state.sent_tokens.remove(&uri);
        self.state.notify_progress();
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
        let Some((analysis, offset)) = self.state.analysis_at(&at).await? else {
            return Ok(None);
        };
        let convert = self.state.converter(&*analysis.document);
        let plain_text = self.state.hover_plain_text.get().copied().unwrap_or(false);
        let options = HoverOptions {
            plain_text,
            board: self.state.config_for(&at.text_document.uri).hover_board,
        };
        let kind = if plain_text {
            MarkupKind::PlainText
        } else {
            MarkupKind::Markdown
        };
        Ok(
            hover_with(&*analysis.document, offset, &options).map(|found| Hover {
                contents: HoverContents::Markup(MarkupContent {
                    kind,
                    value: found.text,
                }),
                range: Some(convert.range(&found.range)),
            }),
        )
    }

    async fn completion(&self, params: CompletionParams) -> Result<Option<CompletionResponse>> {
        let at = params.text_document_position;
        let Some((analysis, offset)) = self.state.analysis_at(&at).await? else {
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
        let Some(analysis) = self
            .state
            .current_analysis(&params.text_document.uri)
            .await?
        else {
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
        let Some(analysis) = self
            .state
            .current_analysis(&params.text_document.uri)
            .await?
        else {
            return Ok(None);
        };
        let convert = self.state.converter(&*analysis.document);
        let symbols = to_lsp_symbols(&convert, outline(analysis.document.symbols()));
        Ok(Some(DocumentSymbolResponse::Nested(symbols)))
    }

    async fn folding_range(&self, params: FoldingRangeParams) -> Result<Option<Vec<FoldingRange>>> {
        let Some(analysis) = self
            .state
            .current_analysis(&params.text_document.uri)
            .await?
        else {
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
        let Some(analysis) = self
            .state
            .current_analysis(&params.text_document.uri)
            .await?
        else {
            return Ok(None);
        };
        let whole = 0..analysis.document.text().len();
        let uri = &params.text_document.uri;
        let data = self
            .state
            .semantic_tokens(&analysis, whole, self.state.sent_token_count(uri));
        let tokens = self.state.send_tokens(uri, data);
        Ok(Some(SemanticTokensResult::Tokens(tokens)))
    }

    async fn semantic_tokens_full_delta(
        &self,
        params: SemanticTokensDeltaParams,
    ) -> Result<Option<SemanticTokensFullDeltaResult>> {
        let uri = &params.text_document.uri;
        let Some(analysis) = self.state.current_analysis(uri).await? else {
            return Ok(None);
        };
        let whole = 0..analysis.document.text().len();
        let data = self
            .state
            .semantic_tokens(&analysis, whole, self.state.sent_token_count(uri));
        let previous = self
            .state
            .sent_tokens
            .get(uri)
            .filter(|sent| sent.0 == params.previous_result_id)
            .map(|sent| sent.1.clone());
        let Some(previous) = previous else {
            let tokens = self.state.send_tokens(uri, data);
            return Ok(Some(SemanticTokensFullDeltaResult::Tokens(tokens)));
        };
        let edit = tokens_edit(&previous, &data);
        let result_id = self.state.remember_tokens(uri, Arc::new(data));
        let edit = edit.map(|mut edit| {
            if let Some(inserted) = edit.data.replace(Vec::new()) {
                self.state
                    .written_arrays
                    .hold(&result_id, token_numbers_json(&inserted));
            }
            edit
        });
        Ok(Some(SemanticTokensFullDeltaResult::TokensDelta(
            SemanticTokensDelta {
                result_id: Some(result_id),
                edits: edit.into_iter().collect(),
            },
        )))
    }

    async fn semantic_tokens_range(
        &self,
        params: SemanticTokensRangeParams,
    ) -> Result<Option<SemanticTokensRangeResult>> {
        let Some(analysis) = self
            .state
            .current_analysis(&params.text_document.uri)
            .await?
        else {
            return Ok(None);
        };
        let convert = self.state.converter(&*analysis.document);
        let range = convert.offset(params.range.start)..convert.offset(params.range.end);
        let data = self.state.semantic_tokens(&analysis, range, 0);
        Ok(Some(SemanticTokensRangeResult::Tokens(SemanticTokens {
            result_id: None,
            data,
        })))
    }

    async fn goto_definition(
        &self,
        params: GotoDefinitionParams,
    ) -> Result<Option<GotoDefinitionResponse>> {
        let at = params.text_document_position_params;
        let Some((analysis, offset)) = self.state.analysis_at(&at).await? else {
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
        let Some(analysis) = self.state.current_analysis(&uri).await? else {
            return Ok(None);
        };
        let convert = self.state.converter(&*analysis.document);
        let range = convert.offset(params.range.start)..convert.offset(params.range.end);
        let only = params.context.only.as_deref();
        let fix_all = self.fix_all_action(&uri, &*analysis.document, only);
        let quick_fixes_asked = only.is_none_or(|only| {
            only.iter()
                .any(|kind| CodeActionKind::QUICKFIX.as_str().starts_with(kind.as_str()))
        });
        let quick_fixes = if quick_fixes_asked {
            quick_fixes(&*analysis.document, range)
        } else {
            Vec::new()
        };
        let actions: CodeActionResponse = quick_fixes
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
                    diagnostics: Some(vec![to_lsp_diagnostic(&uri, &convert, diagnostic)]),
                    edit: Some(WorkspaceEdit {
                        changes: Some(std::iter::once((uri.clone(), edits)).collect()),
                        ..WorkspaceEdit::default()
                    }),
                    is_preferred: Some(true),
                    ..CodeAction::default()
                })
            })
            .chain(fix_all)
            .collect();
        Ok(Some(actions))
    }

    async fn references(&self, params: ReferenceParams) -> Result<Option<Vec<lsp::Location>>> {
        let at = params.text_document_position;
        let Some((analysis, offset)) = self.state.analysis_at(&at).await? else {
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

    async fn formatting(
        &self,
        params: lsp::DocumentFormattingParams,
    ) -> Result<Option<Vec<TextEdit>>> {
        self.formatting_request(params).await
    }

    async fn range_formatting(
        &self,
        params: lsp::DocumentRangeFormattingParams,
    ) -> Result<Option<Vec<TextEdit>>> {
        self.range_formatting_request(params).await
    }

    async fn prepare_rename(
        &self,
        params: TextDocumentPositionParams,
    ) -> Result<Option<lsp::PrepareRenameResponse>> {
        self.prepare_rename_request(params).await
    }

    async fn rename(&self, params: lsp::RenameParams) -> Result<Option<WorkspaceEdit>> {
        self.rename_request(params).await
    }

    async fn document_highlight(
        &self,
        params: lsp::DocumentHighlightParams,
    ) -> Result<Option<Vec<lsp::DocumentHighlight>>> {
        self.document_highlight_request(params).await
    }

    async fn selection_range(
        &self,
        params: lsp::SelectionRangeParams,
    ) -> Result<Option<Vec<lsp::SelectionRange>>> {
        self.selection_range_request(params).await
    }

    async fn code_lens(&self, params: lsp::CodeLensParams) -> Result<Option<Vec<lsp::CodeLens>>> {
        self.code_lens_request(params).await
    }

    async fn symbol(
        &self,
        params: lsp::WorkspaceSymbolParams,
    ) -> Result<Option<lsp::WorkspaceSymbolResponse>> {
        self.workspace_symbol_request(params).await
    }
}

impl Backend {
    /// The workspace's folders, whose files `workspace/symbol` searches.
    fn set_workspace(&self, params: &InitializeParams) {
        let folders = params
            .workspace_folders
            .iter()
            .flatten()
            .map(|folder| &folder.uri);
        #[allow(deprecated)] // Clients without workspace folders still send a root.
        let root = params.root_uri.as_ref();
        let roots: Vec<std::path::PathBuf> = folders
            .chain(root)
            .filter_map(|uri| Some(uri.to_file_path()?.into_owned()))
            .collect();
        let mut roots = roots;
        roots.dedup();
        *self
            .state
            .workspace
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = WorkspaceIndex::new(roots);
    }

    /// `ppn/boardAt`: the board after the move under (or last before) the position.
    async fn board_at(&self, params: TextDocumentPositionParams) -> Result<Value> {
        let Some((analysis, offset)) = self.state.analysis_at(&params).await? else {
            return Ok(Value::Null);
        };
        let style = self.state.config_for(&params.text_document.uri).hover_board;
        Ok(match board_drawn_at(&*analysis.document, offset, style) {
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
        let Some((analysis, offset)) = self.state.analysis_at(&params.at).await? else {
            return Ok(Value::Null);
        };
        let options = crate::render::svg::SvgOptions {
            flip: params.flip,
            width: params.width,
            ..crate::render::svg::SvgOptions::default()
        };
        let document = &*analysis.document;
        let rendered = if params.animate {
            let seconds = f64::from(params.frame_ms.unwrap_or(1000).max(1)) / 1000.0;
            animation_at(document, offset, &options, seconds)
        } else {
            render_at(document, offset, &options)
        };
        Ok(match rendered {
            Some(board) => json!({
                "label": board.label,
                "svg": board.svg,
                "game": board.state.game,
                "state": board.state.index,
            }),
            None => Value::Null,
        })
    }
}

impl Backend {
    /// `ppn/gameLine`: the main line of the game at the position, each state with where the
    /// cursor shows it.
    async fn game_line(&self, params: TextDocumentPositionParams) -> Result<Value> {
        let Some((analysis, offset)) = self.state.analysis_at(&params).await? else {
            return Ok(Value::Null);
        };
        let Some(line) = game_line_at(&*analysis.document, offset) else {
            return Ok(Value::Null);
        };
        let convert = self.state.converter(&*analysis.document);
        let stops = |stops: &[LineStop]| -> Vec<Value> {
            stops
                .iter()
                .map(|stop| {
                    json!({
                        "label": stop.label,
                        "text": stop.text,
                        "comment": stop.comment,
                        "ref": stop.state.index,
                        "range": stop.range.as_ref().map(|range| convert.range(range)),
                        "cursor": convert.position(stop.cursor),
                    })
                })
                .collect()
        };
        let variations: Vec<Value> = line
            .variations
            .iter()
            .map(|variation| {
                json!({
                    "name": variation.name,
                    "from": variation.from.index,
                    "states": stops(&variation.stops),
                })
            })
            .collect();
        Ok(json!({
            "game": line.game,
            "name": line.name,
            "range": convert.range(&line.range),
            "states": stops(&line.stops),
            "variations": variations,
            "current": line.current.index,
        }))
    }
}

/// Byte offsets of one analysed text ↔ LSP positions in the negotiated encoding.
struct Converter<'a> {
    document: &'a dyn NotationDocument,
    encoding: PositionEncoding,
    /// Answers run through offsets mostly in order (tokens, diagnostics, symbols): each is
    /// placed from the one before.
    cursor: RefCell<PositionCursor<'a>>,
}

impl<'a> Converter<'a> {
    fn new(document: &'a dyn NotationDocument, encoding: PositionEncoding) -> Self {
        Converter {
            document,
            encoding,
            cursor: RefCell::new(PositionCursor::new(
                document.text(),
                document.line_index(),
                encoding,
            )),
        }
    }

    fn position(&self, offset: usize) -> Position {
        self.cursor.borrow_mut().position(offset)
    }

    /// How many columns `range` spans on its line (a semantic token never spans a line
    /// end).
    fn width(&self, range: &std::ops::Range<usize>) -> u32 {
        let piece = self.document.text().get(range.clone()).unwrap_or_default();
        u32::try_from(self.encoding.units_in(piece)).unwrap_or(u32::MAX)
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
    /// The semantic tokens of `range`, encoded relative to each other as LSP wants them.
    /// `expected_count` is room to make for them at first (the count sent last time, say).
    fn semantic_tokens(
        &self,
        analysis: &Analysis,
        range: std::ops::Range<usize>,
        expected_count: usize,
    ) -> Vec<SemanticToken> {
        let convert = self.converter(&*analysis.document);
        let mut data = Vec::with_capacity(expected_count);
        let mut previous = Position::new(0, 0);
        analysis.document.each_semantic_token(range, &mut |token| {
            let start = convert.position(token.range.start);
            // Tokens come sorted and disjoint; saturate rather than trust that blindly.
            let delta_line = start.line.saturating_sub(previous.line);
            data.push(lsp::SemanticToken {
                delta_line,
                delta_start: if delta_line == 0 {
                    start.character.saturating_sub(previous.character)
                } else {
                    start.character
                },
                length: convert.width(&token.range),
                token_type: token.kind.index(),
                token_modifiers_bitset: 0,
            });
            previous = start;
        });
        data
    }

    /// How many tokens were last sent for `uri`, and a little more: an edit seldom changes
    /// the count by much.
    fn sent_token_count(&self, uri: &Uri) -> usize {
        self.sent_tokens
            .get(uri)
            .map_or(0, |sent| sent.1.len() + sent.1.len() / 16)
    }

    /// Keeps `tokens` as the last sent for `uri`; their result id.
    fn remember_tokens(&self, uri: &Uri, tokens: Arc<Vec<SemanticToken>>) -> String {
        let result_id = self.new_revision().to_string();
        self.sent_tokens
            .insert(uri.clone(), (result_id.clone(), tokens));
        result_id
    }

    /// The answer with all of `data`, remembered as the last sent for `uri`: its numbers
    /// go to [`WrittenArrays`], not through the protocol library's JSON values.
    fn send_tokens(&self, uri: &Uri, data: Vec<SemanticToken>) -> SemanticTokens {
        let numbers = token_numbers_json(&data);
        let result_id = self.remember_tokens(uri, Arc::new(data));
        self.written_arrays.hold(&result_id, numbers);
        SemanticTokens {
            result_id: Some(result_id),
            data: Vec::new(),
        }
    }

    fn converter<'a>(&self, document: &'a dyn NotationDocument) -> Converter<'a> {
        Converter::new(document, self.encoding())
    }

    /// The analysis of a request's document and the byte offset of its position.
    async fn analysis_at(
        &self,
        at: &TextDocumentPositionParams,
    ) -> Result<Option<(Arc<Analysis>, usize)>> {
        let Some(analysis) = self.current_analysis(&at.text_document.uri).await? else {
            return Ok(None);
        };
        let offset = self.converter(&*analysis.document).offset(at.position);
        Ok(Some((analysis, offset)))
    }
}

/// The JSON text of `tokens` as LSP numbers them: five numbers a token.
fn token_numbers_json(tokens: &[SemanticToken]) -> Vec<u8> {
    let mut numbers = JsonArray::with_capacity(tokens.len() * 5);
    for token in tokens {
        numbers.push(token.delta_line);
        numbers.push(token.delta_start);
        numbers.push(token.length);
        numbers.push(token.token_type);
        numbers.push(token.token_modifiers_bitset);
    }
    numbers.finish()
}

/// The one edit that turns the tokens `old` into `new`: what lies between their common
/// start and their common end (`None` when they are the same). An edit counts in numbers,
/// five per token.
fn tokens_edit(old: &[SemanticToken], new: &[SemanticToken]) -> Option<SemanticTokensEdit> {
    let same_start = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let same_end = old[same_start..]
        .iter()
        .rev()
        .zip(new[same_start..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let deleted = old.len() - same_start - same_end;
    let inserted = &new[same_start..new.len() - same_end];
    if deleted == 0 && inserted.is_empty() {
        return None;
    }
    let numbers = |tokens: usize| u32::try_from(tokens * 5).unwrap_or(u32::MAX);
    Some(SemanticTokensEdit {
        start: numbers(same_start),
        delete_count: numbers(deleted),
        data: Some(inserted.to_vec()),
    })
}

/// How deep the outline sent to the client nests; deeper symbols (variations within
/// variations ...) are listed under their ancestor at this depth.
const MAX_SYMBOL_DEPTH: usize = 32;

/// The outline for the client, built on a stack of its own: a notation's symbols may nest
/// as deep as its variations do, and neither this conversion, nor dropping the symbols,
/// nor writing the answer as JSON may recurse that deep.
fn to_lsp_symbols(convert: &Converter<'_>, symbols: Vec<Symbol>) -> Vec<DocumentSymbol> {
    enum Step {
        Enter(Symbol, usize),
        /// The symbol, once its last `children` converted symbols are done.
        Close(DocumentSymbol, usize),
    }
    let mut steps: Vec<Step> = symbols
        .into_iter()
        .rev()
        .map(|symbol| Step::Enter(symbol, 1))
        .collect();
    let mut done: Vec<DocumentSymbol> = Vec::new();
    while let Some(step) = steps.pop() {
        match step {
            Step::Enter(mut symbol, depth) => {
                let children = std::mem::take(&mut symbol.children);
                let converted = to_lsp_symbol(convert, symbol);
                if depth < MAX_SYMBOL_DEPTH {
                    steps.push(Step::Close(converted, children.len()));
                    steps.extend(
                        children
                            .into_iter()
                            .rev()
                            .map(|child| Step::Enter(child, depth + 1)),
                    );
                } else {
                    let mut converted = converted;
                    let descendants = flattened(convert, children);
                    converted.children = (!descendants.is_empty()).then_some(descendants);
                    done.push(converted);
                }
            }
            Step::Close(mut converted, children) => {
                let children = done.split_off(done.len() - children);
                converted.children = (!children.is_empty()).then_some(children);
                done.push(converted);
            }
        }
    }
    done
}

/// Every symbol of the trees, in document order, without children.
fn flattened(convert: &Converter<'_>, symbols: Vec<Symbol>) -> Vec<DocumentSymbol> {
    let mut pending: Vec<Symbol> = symbols.into_iter().rev().collect();
    let mut flat = Vec::new();
    while let Some(mut symbol) = pending.pop() {
        pending.extend(std::mem::take(&mut symbol.children).into_iter().rev());
        flat.push(to_lsp_symbol(convert, symbol));
    }
    flat
}

/// One symbol, without its children.
fn to_lsp_symbol(convert: &Converter<'_>, symbol: Symbol) -> DocumentSymbol {
    #[allow(deprecated)] // `deprecated` must be written out; it is left unset.
    DocumentSymbol {
        name: symbol.name,
        detail: symbol.detail,
        kind: match symbol.kind {
            PpnSymbolKind::Game => SymbolKind::NAMESPACE,
            PpnSymbolKind::Move => SymbolKind::EVENT,
            PpnSymbolKind::Variation => SymbolKind::NAMESPACE,
            PpnSymbolKind::Moves => SymbolKind::ARRAY,
        },
        tags: None,
        deprecated: None,
        range: convert.range(&symbol.range),
        selection_range: convert.range(&symbol.selection),
        children: None,
    }
}

fn saturating_u32(value: usize) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

fn to_lsp_diagnostics(
    uri: &Uri,
    analysis: &Analysis,
    encoding: PositionEncoding,
    config: &Config,
) -> Vec<lsp::Diagnostic> {
    let convert = Converter::new(&*analysis.document, encoding);
    let shown = config::shown(&*analysis.document, config);
    (shown.diagnostics.iter())
        .chain(shown.note.as_ref())
        .map(|diagnostic| to_lsp_diagnostic(uri, &convert, diagnostic))
        .collect()
}

/// The most diagnostics published for one document unless configured otherwise
/// (`diagnostics.max-per-document`). A move broken early in a long game can make every
/// later move fail: thousands of diagnostics that cost the editor far more to receive and
/// list than they tell (the first ones say what went wrong). Each one sent costs about
/// 10 µs between the server and the editor (JSON built, written, read), so that a
/// thousand took longer than replaying a 10,000-move record after the edit that broke it.
pub const MOST_DIAGNOSTICS_SHOWN: usize = crate::config::DEFAULT_MAX_PER_DOCUMENT;

fn to_lsp_diagnostic(uri: &Uri, convert: &Converter, diagnostic: &Diagnostic) -> lsp::Diagnostic {
    let range = |range: &std::ops::Range<usize>| convert.range(range);
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
        severity: Some(config::severity(diagnostic)),
        code: Some(NumberOrString::String(diagnostic.code.to_string())),
        source: Some("ppn-ls".to_string()),
        message: diagnostic.message.clone(),
        ..lsp::Diagnostic::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ppn::document::PpnDocument;

    fn tokens(lengths: &[u32]) -> Vec<SemanticToken> {
        lengths
            .iter()
            .map(|&length| SemanticToken {
                delta_line: 1,
                delta_start: 0,
                length,
                token_type: 0,
                token_modifiers_bitset: 0,
            })
            .collect()
    }

    #[test]
    fn one_edit_turns_the_old_tokens_into_the_new() {
        let cases: [(&[u32], &[u32]); 7] = [
            (&[1, 2, 3], &[1, 2, 3]),
            (&[1, 2, 3], &[1, 2, 3, 4]),
            (&[1, 2, 3], &[2, 3]),
            (&[1, 2, 3], &[1, 9, 9, 3]),
            (&[], &[5, 6]),
            (&[5, 6], &[]),
            (&[1, 1, 1], &[1, 1]),
        ];
        for (old, new) in cases {
            let (old, new) = (tokens(old), tokens(new));
            let Some(edit) = tokens_edit(&old, &new) else {
                assert_eq!(old, new);
                continue;
            };
            assert!(edit.start % 5 == 0 && edit.delete_count % 5 == 0);
            let (start, deleted) = (edit.start as usize / 5, edit.delete_count as usize / 5);
            let mut made = old.clone();
            made.splice(
                start..start + deleted,
                edit.data.clone().unwrap_or_default(),
            );
            assert_eq!(made, new, "{edit:?}");
            let inserted = edit.data.map_or(0, |data| data.len());
            assert!(deleted + inserted <= 3, "the edit covers only what differs");
        }
    }

    fn symbol(name: String, children: Vec<Symbol>) -> Symbol {
        Symbol {
            name,
            detail: None,
            kind: PpnSymbolKind::Variation,
            range: 0..1,
            selection: 0..1,
            children,
        }
    }

    fn names(symbols: &[DocumentSymbol]) -> Vec<&str> {
        symbols.iter().map(|symbol| symbol.name.as_str()).collect()
    }

    #[test]
    fn an_outline_of_any_depth_is_converted_on_a_small_stack_and_capped() {
        let depth = 100_000;
        let converted = std::thread::Builder::new()
            .stack_size(256 << 10)
            .spawn(move || {
                // Built from the inside out, so that building it does not recurse either.
                let mut chain = symbol(format!("v{}", depth - 1), Vec::new());
                for level in (1..depth - 1).rev() {
                    chain = symbol(format!("v{level}"), vec![chain]);
                }
                let outline = vec![
                    symbol("v0".to_string(), vec![chain]),
                    symbol("last".to_string(), Vec::new()),
                ];
                let document = PpnDocument::with_diagnostics("x".to_string(), Vec::new());
                let convert = Converter::new(&document, PositionEncoding::Utf16);
                let converted = to_lsp_symbols(&convert, outline);
                // Writing the answer must not recurse deeply either.
                serde_json::to_string(&converted).map(|json| (converted, json.len()))
            })
            .expect("a thread")
            .join()
            .expect("no stack overflow")
            .expect("the outline is written as JSON");
        let (outline, _) = converted;
        assert_eq!(names(&outline), ["v0", "last"]);
        let mut level = &outline[0];
        for expected in 1..MAX_SYMBOL_DEPTH {
            let children = level.children.as_deref().unwrap_or_default();
            assert_eq!(names(children), [format!("v{expected}").as_str()]);
            level = &children[0];
        }
        // The symbols below the cap hang, in order, under the deepest one kept.
        let rest = level.children.as_deref().unwrap_or_default();
        assert_eq!(rest.len(), depth - MAX_SYMBOL_DEPTH);
        assert_eq!(rest[0].name, format!("v{MAX_SYMBOL_DEPTH}"));
        assert_eq!(rest[rest.len() - 1].name, format!("v{}", depth - 1));
        assert!(rest.iter().all(|symbol| symbol.children.is_none()));
    }

    #[test]
    fn a_shallow_outline_keeps_its_shape() {
        let document = PpnDocument::with_diagnostics("x".to_string(), Vec::new());
        let convert = Converter::new(&document, PositionEncoding::Utf16);
        let outline = vec![
            symbol(
                "game".to_string(),
                vec![
                    symbol("1.".to_string(), Vec::new()),
                    symbol("2.".to_string(), vec![symbol("2a".to_string(), Vec::new())]),
                ],
            ),
            symbol("game 2".to_string(), Vec::new()),
        ];
        let converted = to_lsp_symbols(&convert, outline);
        assert_eq!(names(&converted), ["game", "game 2"]);
        let moves = converted[0].children.as_deref().unwrap_or_default();
        assert_eq!(names(moves), ["1.", "2."]);
        assert!(moves[0].children.is_none());
        assert_eq!(
            names(moves[1].children.as_deref().unwrap_or_default()),
            ["2a"]
        );
        assert!(converted[1].children.is_none());
    }
}
