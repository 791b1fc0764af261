//! Documents kept in step with the editor: `didOpen`, `didChange`, `didSave`, `didClose`.

use tower_lsp_server::ls_types::{
    DidChangeTextDocumentParams, DidCloseTextDocumentParams, DidOpenTextDocumentParams,
    DidSaveTextDocumentParams, MessageType,
};

use super::Backend;
use crate::lsp::open_document::Document;
use crate::lsp::state::config_path;

impl Backend {
    pub(super) async fn on_did_open(&self, params: DidOpenTextDocumentParams) {
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
        self.state.ensure_analysis(&item.uri, &mut entry);
    }

    pub(super) async fn on_did_change(&self, params: DidChangeTextDocumentParams) {
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
            self.state.ensure_analysis(&uri, &mut document);
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

    pub(super) async fn on_did_save(&self, params: DidSaveTextDocumentParams) {
        // Only a client that sends the text anyway gets here with it; trust the saved text.
        let Some(saved) = params.text else {
            return;
        };
        let uri = params.text_document.uri;
        if let Some(mut document) = self.state.documents.get_mut(&uri) {
            if document.text != saved.as_str() {
                document.replace_text(&saved, self.state.new_revision());
                self.state.ensure_analysis(&uri, &mut document);
            }
        }
        self.state.notify_progress();
    }

    pub(super) async fn on_did_close(&self, params: DidCloseTextDocumentParams) {
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
}
