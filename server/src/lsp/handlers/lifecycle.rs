//! The session's start and end, and the settings and files it watches: `initialize`,
//! `initialized`, configuration changes, watched files, `shutdown`.

use std::sync::atomic::Ordering;

use serde_json::Value;
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{
    self as lsp, InitializeParams, InitializeResult, InitializedParams, MarkupKind, MessageType,
    ServerInfo,
};

use super::Backend;
use crate::config::is_config_file;
use crate::lsp::capabilities::server_capabilities;
use crate::lsp::config::uri_file_path;
use crate::lsp::encoding::PositionEncoding;
use crate::lsp::state::SETTINGS_SECTION;
use crate::lsp::workspace_index::WorkspaceIndex;

impl Backend {
    pub(super) async fn initialize_request(
        &self,
        params: InitializeParams,
    ) -> Result<InitializeResult> {
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
            capabilities: server_capabilities(encoding),
            server_info: Some(ServerInfo {
                name: "ppn-ls".to_string(),
                version: Some(env!("CARGO_PKG_VERSION").to_string()),
            }),
            ..InitializeResult::default()
        })
    }

    pub(super) async fn on_initialized(&self, _: InitializedParams) {
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
                    super::editing::game_files_watcher(),
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

    pub(super) async fn on_did_change_configuration(
        &self,
        params: lsp::DidChangeConfigurationParams,
    ) {
        match params.settings.get(SETTINGS_SECTION) {
            Some(settings) => self.state.set_editor_settings(settings).await,
            // Sent as a signal only: the settings are asked for.
            None => self.state.pull_editor_settings().await,
        }
        self.state.republish_all().await;
    }

    pub(super) async fn on_did_change_watched_files(
        &self,
        params: lsp::DidChangeWatchedFilesParams,
    ) {
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

    pub(super) async fn shutdown_request(&self) -> Result<()> {
        self.state.shutdown_requested.store(true, Ordering::SeqCst);
        Ok(())
    }

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
}
