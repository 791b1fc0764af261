//! What the editor asks about a document: hovers, completion, inlay hints, the outline,
//! folds, semantic tokens, definitions and references. Each starts from the shared
//! prologue ([`State::on_document`], [`State::at_position`]) and converts what the
//! document answers with [`crate::lsp::to_proto`].
//!
//! [`State::on_document`]: crate::lsp::state::State::on_document
//! [`State::at_position`]: crate::lsp::state::State::at_position

use std::sync::Arc;

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{
    self as lsp, CompletionParams, CompletionResponse, DocumentSymbolParams,
    DocumentSymbolResponse, FoldingRange, FoldingRangeParams, GotoDefinitionParams,
    GotoDefinitionResponse, Hover, HoverContents, HoverParams, InlayHint, InlayHintParams,
    MarkupContent, MarkupKind, ReferenceParams, SemanticTokens, SemanticTokensDelta,
    SemanticTokensDeltaParams, SemanticTokensFullDeltaResult, SemanticTokensParams,
    SemanticTokensRangeParams, SemanticTokensRangeResult, SemanticTokensResult,
};

use super::Backend;
use crate::ide::analyze::{hover_with, HoverOptions};
use crate::lsp::to_proto::{
    semantic_tokens, to_lsp_completion, to_lsp_fold, to_lsp_inlay_hint, to_lsp_symbols,
    token_numbers_json, tokens_edit,
};
use crate::model::features::outline;

impl Backend {
    pub(super) async fn hover_request(&self, params: HoverParams) -> Result<Option<Hover>> {
        let at = params.text_document_position_params;
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
        self.state
            .at_position(&at, |document, offset, convert| {
                let found = hover_with(document, offset, &options)?;
                Some(Hover {
                    contents: HoverContents::Markup(MarkupContent {
                        kind,
                        value: found.text,
                    }),
                    range: Some(convert.range(&found.range)),
                })
            })
            .await
    }

    pub(super) async fn completion_request(
        &self,
        params: CompletionParams,
    ) -> Result<Option<CompletionResponse>> {
        let at = params.text_document_position;
        self.state
            .at_position(&at, |document, offset, convert| {
                let items: Vec<_> = (document.completions(offset).into_iter())
                    .map(|item| to_lsp_completion(convert, item))
                    .collect();
                (!items.is_empty()).then_some(CompletionResponse::Array(items))
            })
            .await
    }

    pub(super) async fn inlay_hint_request(
        &self,
        params: InlayHintParams,
    ) -> Result<Option<Vec<InlayHint>>> {
        self.state
            .on_document(&params.text_document.uri, |analysis, convert| {
                let range = convert.offset(params.range.start)..convert.offset(params.range.end);
                let hints = analysis.document.inlay_hints(range).into_iter();
                Some(hints.map(|hint| to_lsp_inlay_hint(convert, hint)).collect())
            })
            .await
    }

    pub(super) async fn document_symbol_request(
        &self,
        params: DocumentSymbolParams,
    ) -> Result<Option<DocumentSymbolResponse>> {
        self.state
            .on_document(&params.text_document.uri, |analysis, convert| {
                let symbols = to_lsp_symbols(convert, outline(analysis.document.symbols()));
                Some(DocumentSymbolResponse::Nested(symbols))
            })
            .await
    }

    pub(super) async fn folding_range_request(
        &self,
        params: FoldingRangeParams,
    ) -> Result<Option<Vec<FoldingRange>>> {
        self.state
            .on_document(&params.text_document.uri, |analysis, _| {
                Some(
                    analysis
                        .document
                        .folds()
                        .into_iter()
                        .map(to_lsp_fold)
                        .collect(),
                )
            })
            .await
    }

    pub(super) async fn semantic_tokens_full_request(
        &self,
        params: SemanticTokensParams,
    ) -> Result<Option<SemanticTokensResult>> {
        let uri = &params.text_document.uri;
        self.state
            .on_document(uri, |analysis, convert| {
                let document = &*analysis.document;
                let whole = 0..document.text().len();
                let expected = self.state.sent_token_count(uri);
                let data = semantic_tokens(convert, document, whole, expected);
                Some(SemanticTokensResult::Tokens(
                    self.state.send_tokens(uri, data),
                ))
            })
            .await
    }

    pub(super) async fn semantic_tokens_full_delta_request(
        &self,
        params: SemanticTokensDeltaParams,
    ) -> Result<Option<SemanticTokensFullDeltaResult>> {
        let uri = &params.text_document.uri;
        self.state
            .on_document(uri, |analysis, convert| {
                let document = &*analysis.document;
                let whole = 0..document.text().len();
                let expected = self.state.sent_token_count(uri);
                let data = semantic_tokens(convert, document, whole, expected);
                let previous = (self.state.sent_tokens.get(uri))
                    .filter(|sent| sent.0 == params.previous_result_id)
                    .map(|sent| sent.1.clone());
                let Some(previous) = previous else {
                    let tokens = self.state.send_tokens(uri, data);
                    return Some(SemanticTokensFullDeltaResult::Tokens(tokens));
                };
                let edit = tokens_edit(&previous, &data);
                let result_id = self.state.remember_tokens(uri, Arc::new(data));
                let edit = edit.map(|mut edit| {
                    if let Some(inserted) = edit.data.replace(Vec::new()) {
                        let numbers = token_numbers_json(&inserted);
                        self.state.written_arrays.hold(&result_id, numbers);
                    }
                    edit
                });
                Some(SemanticTokensFullDeltaResult::TokensDelta(
                    SemanticTokensDelta {
                        result_id: Some(result_id),
                        edits: edit.into_iter().collect(),
                    },
                ))
            })
            .await
    }

    pub(super) async fn semantic_tokens_range_request(
        &self,
        params: SemanticTokensRangeParams,
    ) -> Result<Option<SemanticTokensRangeResult>> {
        self.state
            .on_document(&params.text_document.uri, |analysis, convert| {
                let range = convert.offset(params.range.start)..convert.offset(params.range.end);
                let data = semantic_tokens(convert, &*analysis.document, range, 0);
                Some(SemanticTokensRangeResult::Tokens(SemanticTokens {
                    result_id: None,
                    data,
                }))
            })
            .await
    }

    pub(super) async fn goto_definition_request(
        &self,
        params: GotoDefinitionParams,
    ) -> Result<Option<GotoDefinitionResponse>> {
        let at = params.text_document_position_params;
        self.state
            .at_position(&at, |document, offset, convert| {
                let range = document.definition(offset)?;
                Some(GotoDefinitionResponse::Scalar(lsp::Location {
                    uri: at.text_document.uri.clone(),
                    range: convert.range(&range),
                }))
            })
            .await
    }

    pub(super) async fn references_request(
        &self,
        params: ReferenceParams,
    ) -> Result<Option<Vec<lsp::Location>>> {
        let at = params.text_document_position;
        let include_declaration = params.context.include_declaration;
        self.state
            .at_position(&at, |document, offset, convert| {
                let found = document.references(offset, include_declaration);
                let locations = found.iter().map(|range| lsp::Location {
                    uri: at.text_document.uri.clone(),
                    range: convert.range(range),
                });
                Some(locations.collect())
            })
            .await
    }
}
