//! The server's answers for formatting, fixing everything, renaming, highlights,
//! selection ranges, workspace symbols and code lenses: each converts what an `ide`
//! function finds into the protocol's positions.

use std::collections::HashMap;
use std::path::PathBuf;

use serde_json::json;
use tower_lsp_server::jsonrpc::{self, ErrorCode, Result};
use tower_lsp_server::ls_types::{
    self as lsp, CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams,
    CodeActionResponse, CodeLens, CodeLensParams, Command, DidChangeWatchedFilesParams,
    DocumentFormattingParams, DocumentHighlight, DocumentHighlightKind, DocumentHighlightParams,
    DocumentRangeFormattingParams, FileChangeType, FileSystemWatcher, GlobPattern, MessageType,
    PrepareRenameResponse, RenameParams, SelectionRange, SelectionRangeParams, SymbolInformation,
    SymbolKind, TextDocumentPositionParams, TextEdit, Uri, WorkspaceEdit, WorkspaceSymbolParams,
    WorkspaceSymbolResponse,
};

use super::Backend;
use crate::ide::analyze::quick_fixes;
use crate::ide::fix_all::{fix_all_as, is_safe};
use crate::ide::formatting::{edits_within, format_document, FormatError, FormatOptions};
use crate::ide::lenses::{code_lenses, SHOW_BOARD_COMMAND};
use crate::ide::selection::{highlights, selection_ranges, HighlightKind};
use crate::lsp::encoding::PositionEncoding;
use crate::lsp::state::State;
use crate::lsp::to_proto::{to_lsp_diagnostic, Converter};
use crate::lsp::workspace_index::{FileChange, IndexedGame};
use crate::model::format::Format;
use crate::model::notation_document::NotationDocument;

/// The kind of the code action that makes every safe fix (`editor.codeActionsOnSave` in
/// VS Code names it).
pub const FIX_ALL_KIND: &str = "source.fixAll.ppn-ls";

/// Past this many edits, a layout is sent as one edit of the stretch they span: a client
/// reads one long text faster than a hundred thousand edits.
const MOST_EDITS_SENT: usize = 1_000;

/// The protocol's edits for byte edits of `document`'s text (in order, disjoint).
fn text_edits(
    convert: &Converter<'_>,
    document: &dyn NotationDocument,
    edits: &[(std::ops::Range<usize>, String)],
) -> Vec<TextEdit> {
    if edits.len() > MOST_EDITS_SENT {
        let (Some(first), Some(last)) = (edits.first(), edits.last()) else {
            return Vec::new();
        };
        let span = first.0.start..last.0.end;
        let text = document.text();
        let mut new_text = String::with_capacity(span.len());
        let mut at = span.start;
        for (range, new) in edits {
            new_text.push_str(&text[at..range.start]);
            new_text.push_str(new);
            at = range.end;
        }
        return vec![TextEdit {
            range: convert.range(&span),
            new_text,
        }];
    }
    edits
        .iter()
        .map(|(range, new_text)| TextEdit {
            range: convert.range(range),
            new_text: new_text.clone(),
        })
        .collect()
}

/// The one edit that turns `old` into `new`: what lies between their common start and end.
fn one_edit(old: &str, new: &str) -> Option<(std::ops::Range<usize>, String)> {
    if old == new {
        return None;
    }
    let mut start = old
        .bytes()
        .zip(new.bytes())
        .take_while(|(a, b)| a == b)
        .count();
    while !old.is_char_boundary(start) || !new.is_char_boundary(start) {
        start -= 1;
    }
    let mut same_end = old[start..]
        .bytes()
        .rev()
        .zip(new[start..].bytes().rev())
        .take_while(|(a, b)| a == b)
        .count();
    while !old.is_char_boundary(old.len() - same_end) || !new.is_char_boundary(new.len() - same_end)
    {
        same_end -= 1;
    }
    Some((
        start..old.len() - same_end,
        new[start..new.len() - same_end].to_string(),
    ))
}

impl State {
    /// The formatter's options for a document: its configuration's (the `ppn-ls.toml`
    /// in force wins over the editor's settings), else the defaults.
    pub(super) fn format_options(&self, uri: &Uri) -> FormatOptions {
        let mut options = FormatOptions::default();
        if let Some(width) = self.config_for(uri).format.line_width {
            options.line_width = width;
        }
        options
    }

    /// Says in the client's log why a document was not formatted.
    async fn not_formatted(&self, uri: &Uri, error: &FormatError) {
        self.client
            .log_message(
                MessageType::INFO,
                format!("ppn-ls: {}: {error}", uri.as_str()),
            )
            .await;
    }
}

/// Whether the client asked for this kind of action (or for any).
/// The `source.fixAll.ppn-ls` action, when the client asks for it (or for any action
/// and the document has a safe fix).
fn fix_all_action(
    uri: &Uri,
    document: &dyn NotationDocument,
    convert: &Converter<'_>,
    only: Option<&[CodeActionKind]>,
) -> Option<CodeActionOrCommand> {
    if !asked_for(only, FIX_ALL_KIND) || !document.diagnostics().iter().any(is_safe) {
        return None;
    }
    let fixed = fix_all_as(
        document.format(),
        document.text(),
        document.diagnostics().to_vec(),
    );
    let (range, new_text) = one_edit(document.text(), &fixed.text)?;
    let count = fixed.applied.len();
    Some(CodeActionOrCommand::CodeAction(CodeAction {
        title: format!(
            "Fix all: {count} safe fix{}",
            if count == 1 { "" } else { "es" }
        ),
        kind: Some(CodeActionKind::new(FIX_ALL_KIND)),
        edit: Some(WorkspaceEdit {
            changes: Some(
                std::iter::once((
                    uri.clone(),
                    vec![TextEdit {
                        range: convert.range(&range),
                        new_text,
                    }],
                ))
                .collect(),
            ),
            ..WorkspaceEdit::default()
        }),
        ..CodeAction::default()
    }))
}

fn asked_for(only: Option<&[CodeActionKind]>, kind: &str) -> bool {
    only.is_none_or(|only| {
        only.iter().any(|wanted| {
            kind == wanted.as_str() || kind.starts_with(&format!("{}.", wanted.as_str()))
        })
    })
}

impl Backend {
    pub(super) async fn code_action_request(
        &self,
        params: CodeActionParams,
    ) -> Result<Option<CodeActionResponse>> {
        let uri = &params.text_document.uri;
        self.state
            .on_document(uri, |analysis, convert| {
                Some(self.code_actions(uri, &*analysis.document, convert, &params))
            })
            .await
    }

    /// The quick fixes of the diagnostics in the range asked about, and the action that
    /// makes every safe fix.
    fn code_actions(
        &self,
        uri: &Uri,
        document: &dyn NotationDocument,
        convert: &Converter<'_>,
        params: &CodeActionParams,
    ) -> CodeActionResponse {
        let range = convert.offset(params.range.start)..convert.offset(params.range.end);
        let only = params.context.only.as_deref();
        let fix_all = fix_all_action(uri, document, convert, only);
        let quick_fixes_asked = only.is_none_or(|only| {
            only.iter()
                .any(|kind| CodeActionKind::QUICKFIX.as_str().starts_with(kind.as_str()))
        });
        let quick_fixes = if quick_fixes_asked {
            quick_fixes(document, range)
        } else {
            Vec::new()
        };
        quick_fixes
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
                    diagnostics: Some(vec![to_lsp_diagnostic(uri, convert, diagnostic)]),
                    edit: Some(WorkspaceEdit {
                        changes: Some(std::iter::once((uri.clone(), edits)).collect()),
                        ..WorkspaceEdit::default()
                    }),
                    is_preferred: Some(true),
                    ..CodeAction::default()
                })
            })
            .chain(fix_all)
            .collect()
    }

    pub(super) async fn formatting_request(
        &self,
        params: DocumentFormattingParams,
    ) -> Result<Option<Vec<TextEdit>>> {
        self.formatting_edits(params.text_document.uri, None).await
    }

    pub(super) async fn range_formatting_request(
        &self,
        params: DocumentRangeFormattingParams,
    ) -> Result<Option<Vec<TextEdit>>> {
        self.formatting_edits(params.text_document.uri, Some(params.range))
            .await
    }

    /// The edits that lay the document out (those within `range` where one is given); none
    /// for a document that cannot be formatted, which is said in the log.
    async fn formatting_edits(
        &self,
        uri: Uri,
        range: Option<lsp::Range>,
    ) -> Result<Option<Vec<TextEdit>>> {
        let Some(analysis) = self.state.current_analysis(&uri).await? else {
            return Ok(None);
        };
        let document = &*analysis.document;
        match format_document(document, &self.state.format_options(&uri)) {
            Ok(formatted) => {
                let convert = self.state.converter(document);
                let edits = match range {
                    None => formatted.edits,
                    Some(range) => {
                        let range = convert.offset(range.start)..convert.offset(range.end);
                        edits_within(document.text(), &formatted, range)
                    }
                };
                Ok(Some(text_edits(&convert, document, &edits)))
            }
            Err(error) => {
                self.state.not_formatted(&uri, &error).await;
                Ok(None)
            }
        }
    }

    pub(super) async fn prepare_rename_request(
        &self,
        params: TextDocumentPositionParams,
    ) -> Result<Option<PrepareRenameResponse>> {
        let answer = self
            .state
            .at_position(&params, |document, offset, convert| {
                let found = document.prepare_rename(offset).transpose()?;
                Some(found.map(
                    |(range, name)| PrepareRenameResponse::RangeWithPlaceholder {
                        range: convert.range(&range),
                        placeholder: name,
                    },
                ))
            })
            .await?;
        answer.transpose().map_err(invalid_request)
    }

    pub(super) async fn rename_request(
        &self,
        params: RenameParams,
    ) -> Result<Option<WorkspaceEdit>> {
        let at = &params.text_document_position;
        let answer = self
            .state
            .at_position(at, |document, offset, convert| {
                Some(document.rename(offset, &params.new_name).map(|edits| {
                    let edits = (edits.iter())
                        .map(|(range, new_text)| TextEdit {
                            range: convert.range(range),
                            new_text: new_text.clone(),
                        })
                        .collect();
                    let uri = at.text_document.uri.clone();
                    WorkspaceEdit {
                        changes: Some(std::iter::once((uri, edits)).collect()),
                        ..WorkspaceEdit::default()
                    }
                }))
            })
            .await?;
        answer.transpose().map_err(invalid_request)
    }

    pub(super) async fn document_highlight_request(
        &self,
        params: DocumentHighlightParams,
    ) -> Result<Option<Vec<DocumentHighlight>>> {
        let at = params.text_document_position_params;
        self.state
            .at_position(&at, |document, offset, convert| {
                let found: Vec<DocumentHighlight> = (highlights(document, offset).into_iter())
                    .map(|highlight| DocumentHighlight {
                        range: convert.range(&highlight.range),
                        kind: Some(match highlight.kind {
                            HighlightKind::Definition => DocumentHighlightKind::WRITE,
                            HighlightKind::Use => DocumentHighlightKind::READ,
                        }),
                    })
                    .collect();
                (!found.is_empty()).then_some(found)
            })
            .await
    }

    pub(super) async fn selection_range_request(
        &self,
        params: SelectionRangeParams,
    ) -> Result<Option<Vec<SelectionRange>>> {
        self.state
            .on_document(&params.text_document.uri, |analysis, convert| {
                Some(selections(&*analysis.document, convert, &params.positions))
            })
            .await
    }
}

/// For each position, its selection ranges from the innermost out.
fn selections(
    document: &dyn NotationDocument,
    convert: &Converter<'_>,
    positions: &[lsp::Position],
) -> Vec<SelectionRange> {
    positions
        .iter()
        .map(|&position| {
            let offset = convert.offset(position);
            let chain = selection_ranges(document, offset);
            // Built from the outside in: each range's parent is the one around it.
            let mut outer: Option<Box<SelectionRange>> = None;
            for range in chain.iter().rev() {
                outer = Some(Box::new(SelectionRange {
                    range: convert.range(range),
                    parent: outer,
                }));
            }
            outer.map_or_else(
                || SelectionRange {
                    range: lsp::Range {
                        start: position,
                        end: position,
                    },
                    parent: None,
                },
                |innermost| *innermost,
            )
        })
        .collect()
}

impl Backend {
    pub(super) async fn code_lens_request(
        &self,
        params: CodeLensParams,
    ) -> Result<Option<Vec<CodeLens>>> {
        let uri = &params.text_document.uri;
        self.state
            .on_document(uri, |analysis, convert| {
                Some(lenses(uri, &*analysis.document, convert))
            })
            .await
    }
}

/// The code lenses above each game, running *Show board* or *Animate* where they point.
fn lenses(uri: &Uri, document: &dyn NotationDocument, convert: &Converter<'_>) -> Vec<CodeLens> {
    code_lenses(document)
        .into_iter()
        .map(|lens| CodeLens {
            range: convert.range(&lens.range),
            command: Some(Command {
                title: lens.title.to_string(),
                command: SHOW_BOARD_COMMAND.to_string(),
                arguments: Some(vec![json!({
                    "uri": uri.as_str(),
                    "position": convert.position(lens.offset),
                    "animate": lens.animate,
                })]),
            }),
            data: None,
        })
        .collect()
}

impl Backend {
    pub(super) async fn workspace_symbol_request(
        &self,
        params: WorkspaceSymbolParams,
    ) -> Result<Option<WorkspaceSymbolResponse>> {
        // The editor's text of the files it has open.
        let open: HashMap<PathBuf, String> = self
            .state
            .documents
            .iter()
            .filter_map(|entry| {
                let path = entry.key().to_file_path()?.into_owned();
                Some((path, entry.value().text.to_string()))
            })
            .collect();
        let state = self.state.clone();
        let query = params.query;
        let found = tokio::task::spawn_blocking(move || {
            let mut index = state
                .workspace
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            index.find(&query, &|path| open.get(path).cloned())
        })
        .await
        .map_err(|_| jsonrpc::Error::internal_error())?;
        let encoding = self.state.encoding();
        #[allow(deprecated)] // `deprecated` must be written out; it is left unset.
        let symbols = found
            .into_iter()
            .filter_map(|(path, game)| {
                let uri = Uri::from_file_path(&path)?;
                let summary = game.entry.summary();
                Some(SymbolInformation {
                    name: if summary.is_empty() {
                        game.entry.name.clone()
                    } else {
                        format!("{} ({summary})", game.entry.name)
                    },
                    kind: SymbolKind::NAMESPACE,
                    tags: None,
                    deprecated: None,
                    location: lsp::Location {
                        uri,
                        range: game_range(&game, encoding),
                    },
                    container_name: path
                        .file_name()
                        .map(|name| name.to_string_lossy().into_owned()),
                })
            })
            .collect();
        Ok(Some(WorkspaceSymbolResponse::Flat(symbols)))
    }

    pub(super) async fn watched_files_changed(&self, params: DidChangeWatchedFilesParams) {
        let mut index = self
            .state
            .workspace
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        for change in params.changes {
            let Some(path) = change.uri.to_file_path() else {
                continue;
            };
            let kind = match change.typ {
                FileChangeType::CREATED => FileChange::Created,
                FileChangeType::DELETED => FileChange::Deleted,
                _ => FileChange::Changed,
            };
            index.file_changed(path.into_owned(), kind);
        }
    }
}

/// The files whose games `workspace/symbol` finds, for the client to watch (registered with
/// the `ppn-ls.toml` files, in one registration).
pub(super) fn game_files_watcher() -> FileSystemWatcher {
    let extensions: Vec<&str> = Format::ALL
        .iter()
        .flat_map(|format| format.extensions())
        .copied()
        .collect();
    FileSystemWatcher {
        glob_pattern: GlobPattern::String(format!("**/*.{{{}}}", extensions.join(","))),
        kind: None,
    }
}

/// A game's first line, in the negotiated encoding.
fn game_range(game: &IndexedGame, encoding: PositionEncoding) -> lsp::Range {
    let (start, end) = match encoding {
        PositionEncoding::Utf8 => game.bytes,
        _ => game.utf16,
    };
    lsp::Range {
        start: lsp::Position::new(game.line, start),
        end: lsp::Position::new(game.line, end),
    }
}

fn invalid_request(why: String) -> jsonrpc::Error {
    jsonrpc::Error {
        code: ErrorCode::InvalidRequest,
        message: why.into(),
        data: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_edit_spans_what_differs() {
        assert_eq!(one_edit("abc", "abc"), None);
        assert_eq!(
            one_edit("a b*c d", "a b:c d"),
            Some((3..4, ":".to_string()))
        );
        assert_eq!(one_edit("ab", "a🂡b"), Some((1..1, "🂡".to_string())));
        // Never inside a character.
        assert_eq!(one_edit("é", "è"), Some((0..2, "è".to_string())));
    }
}
