//! What the server keeps between messages, and when it analyses.
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

use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

use dashmap::DashMap;
use futures::FutureExt;
use serde_json::Value;
use tokio::sync::watch;
use tokio::task::JoinError;
use tower_lsp_server::jsonrpc::{self, ErrorCode, Result};
use tower_lsp_server::ls_types::{
    self as lsp, MessageType, SemanticToken, SemanticTokens, TextDocumentPositionParams, Uri,
};
use tower_lsp_server::Client;

use super::analysis::{uri_path, Analysis, Analyzer};
use super::catch_panics::panic_message;
use super::to_proto::{to_lsp_diagnostics, token_numbers_json, Converter};
use crate::config::{editor_settings, is_config_file, Config, ConfigFiles, Settings};
use crate::lsp::config::{self, uri_file_path};
use crate::lsp::encoding::PositionEncoding;
use crate::lsp::open_document::{Document, Snapshot};
use crate::lsp::prewritten_json::WrittenArrays;
use crate::lsp::workspace_index::WorkspaceIndex;
use crate::model::notation_document::NotationDocument;

/// How long the server goes without a change of text before it returns freed memory.
pub(super) const IDLE_BEFORE_RETURNING_MEMORY: std::time::Duration =
    std::time::Duration::from_secs(1);

pub(super) struct State {
    pub(super) client: Client,
    pub(super) analyzer: Analyzer,
    pub(super) documents: DashMap<Uri, Document>,
    /// The semantic tokens last sent for each document, and their result id: a client that
    /// asks for the change since then gets only what differs.
    pub(super) sent_tokens: DashMap<Uri, (String, Arc<Vec<SemanticToken>>)>,
    /// The numbers of semantic tokens, written as JSON for the answer on its way out.
    pub(super) written_arrays: Arc<WrittenArrays>,
    pub(super) encoding: OnceLock<PositionEncoding>,
    /// The client shows hovers only as plain text (its `contentFormat` has no Markdown).
    pub(super) hover_plain_text: OnceLock<bool>,
    pub(super) next_revision: AtomicU64,
    /// Held from the last staleness check to the end of a publication, so diagnostics of
    /// an older revision can never overtake those of a newer one on the way out.
    pub(super) publish_gate: tokio::sync::Mutex<()>,
    /// Bumped whenever a document's text changes, an analysis is stored or fails, or a
    /// document closes: what requests waiting for an analysis wait on.
    pub(super) progress: watch::Sender<u64>,
    pub(super) shutdown_requested: Arc<AtomicBool>,
    /// The games of the workspace's files, for `workspace/symbol`.
    pub(super) workspace: std::sync::Mutex<WorkspaceIndex>,
    /// What the editor sets (`ppn-ls` in `initializationOptions` and in
    /// `workspace/didChangeConfiguration` or `workspace/configuration`).
    pub(super) editor_settings: std::sync::RwLock<Settings>,
    /// The `ppn-ls.toml` files in force, found from each document's folder upwards.
    pub(super) configs: ConfigFiles,
    /// Open `ppn-ls.toml` files, kept as the editor edits them: their text counts instead of
    /// the disk's, and they get diagnostics of their own.
    pub(super) config_documents: DashMap<Uri, Document>,
    /// Whether the client answers `workspace/configuration`.
    pub(super) pulls_configuration: AtomicBool,
    /// Whether the client watches files for the server (`ppn-ls.toml` changed on disk).
    pub(super) watch_config_files: AtomicBool,
}

/// What the analysis task of a document does next.
pub(super) enum Step {
    Analyze(Snapshot),
    Stop,
}

/// Where an editor puts ppn-ls's settings.
pub(super) const SETTINGS_SECTION: &str = "ppn-ls";

/// The file of a `ppn-ls.toml` document.
pub(super) fn config_path(uri: &Uri) -> Option<std::path::PathBuf> {
    uri_file_path(uri.as_str()).filter(|path| is_config_file(path))
}

impl State {
    /// The configuration in force for a document: the `ppn-ls.toml` nearest its file, and the
    /// editor's settings.
    pub(super) fn config_for(&self, uri: &Uri) -> Config {
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
    pub(super) async fn set_editor_settings(&self, value: &Value) {
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
    pub(super) async fn pull_editor_settings(&self) {
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
    pub(super) async fn config_text_changed(&self, uri: &Uri, path: &std::path::Path) {
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
    pub(super) async fn republish_all(&self) {
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

    pub(super) fn encoding(&self) -> PositionEncoding {
        self.encoding.get().copied().unwrap_or_default()
    }

    pub(super) fn new_revision(&self) -> u64 {
        self.next_revision.fetch_add(1, Ordering::SeqCst)
    }

    pub(super) fn is_current(&self, uri: &Uri, revision: u64) -> bool {
        self.documents
            .get(uri)
            .is_some_and(|document| document.revision == revision)
    }

    /// Analyse the document's text, off the async threads, until the analysis has caught up
    /// with its newest revision; publish each analysis that is still current when done.
    /// Edits arriving meanwhile only make it start over on the newest text, so a burst of
    /// typing costs one analysis at a time per document, and the last one always runs.
    pub(super) async fn analyze_until_current(self: Arc<Self>, uri: Uri, opened: u64) {
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
    pub(super) fn stop_after_failure(&self, uri: &Uri, opened: u64, revision: Option<u64>) -> bool {
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
    pub(super) fn return_memory_when_idle(self: &Arc<Self>) {
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

    pub(super) fn notify_progress(&self) {
        self.progress
            .send_modify(|count| *count = count.wrapping_add(1));
    }

    pub(super) fn next_step(&self, uri: &Uri, opened: u64) -> Step {
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
    pub(super) async fn analyze(
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

    pub(super) async fn publish(&self, uri: &Uri, analysis: &Analysis, revision: u64) {
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
    pub(super) async fn current_analysis(&self, uri: &Uri) -> Result<Option<Arc<Analysis>>> {
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

impl State {
    /// Make sure an analysis task runs for the document; call with its entry held, so the
    /// decision and the edit it follows are one step.
    pub(super) fn ensure_analysis(self: &Arc<Self>, uri: &Uri, document: &mut Document) {
        if !document.analysis_running {
            document.analysis_running = true;
            let state = Arc::clone(self);
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

impl State {
    /// How many tokens were last sent for `uri`, and a little more: an edit seldom changes
    /// the count by much.
    pub(super) fn sent_token_count(&self, uri: &Uri) -> usize {
        self.sent_tokens
            .get(uri)
            .map_or(0, |sent| sent.1.len() + sent.1.len() / 16)
    }

    /// Keeps `tokens` as the last sent for `uri`; their result id.
    pub(super) fn remember_tokens(&self, uri: &Uri, tokens: Arc<Vec<SemanticToken>>) -> String {
        let result_id = self.new_revision().to_string();
        self.sent_tokens
            .insert(uri.clone(), (result_id.clone(), tokens));
        result_id
    }

    /// The answer with all of `data`, remembered as the last sent for `uri`: its numbers
    /// go to [`WrittenArrays`], not through the protocol library's JSON values.
    pub(super) fn send_tokens(&self, uri: &Uri, data: Vec<SemanticToken>) -> SemanticTokens {
        let numbers = token_numbers_json(&data);
        let result_id = self.remember_tokens(uri, Arc::new(data));
        self.written_arrays.hold(&result_id, numbers);
        SemanticTokens {
            result_id: Some(result_id),
            data: Vec::new(),
        }
    }

    pub(super) fn converter<'a>(&self, document: &'a dyn NotationDocument) -> Converter<'a> {
        Converter::new(document, self.encoding())
    }

    /// The prologue every request about a document shares: the analysis of its current
    /// text (waiting for the one in flight, see [`Self::current_analysis`]) and a converter
    /// of its positions, given to `answer`. `Ok(None)` when the document is not open or its
    /// analysis failed.
    pub(super) async fn on_document<T>(
        &self,
        uri: &Uri,
        answer: impl FnOnce(&Analysis, &Converter<'_>) -> Option<T>,
    ) -> Result<Option<T>> {
        let Some(analysis) = self.current_analysis(uri).await? else {
            return Ok(None);
        };
        let convert = self.converter(&*analysis.document);
        Ok(answer(&analysis, &convert))
    }

    /// [`Self::on_document`] for a request at a position, whose byte offset `answer` is
    /// given too.
    pub(super) async fn at_position<T>(
        &self,
        at: &TextDocumentPositionParams,
        answer: impl FnOnce(&dyn NotationDocument, usize, &Converter<'_>) -> Option<T>,
    ) -> Result<Option<T>> {
        self.on_document(&at.text_document.uri, |analysis, convert| {
            let document = &*analysis.document;
            answer(document, convert.offset(at.position), convert)
        })
        .await
    }
}
