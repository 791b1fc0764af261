//! The library's answers in the protocol's types: byte offsets as positions in the
//! negotiated encoding, diagnostics, symbols, semantic tokens and text edits.

use std::cell::RefCell;

use tower_lsp_server::ls_types::{
    self as lsp, CompletionItem, CompletionItemKind, CompletionTextEdit, DocumentSymbol,
    Documentation, FoldingRange, FoldingRangeKind, InlayHint, InlayHintLabel, InlayHintTooltip,
    NumberOrString, Position, SemanticToken, SemanticTokensEdit, SymbolKind, TextEdit, Uri,
};

use super::analysis::Analysis;
use crate::config::Config;
use crate::diagnostic::Diagnostic;
use crate::lsp::config;
use crate::lsp::encoding::{text_offset, PositionCursor, PositionEncoding};
use crate::lsp::prewritten_json::JsonArray;
use crate::model;
use crate::model::features::{
    Completion, CompletionKind, Fold, FoldKind, Symbol, SymbolKind as PpnSymbolKind,
};
use crate::model::notation_document::NotationDocument;

/// Byte offsets of one analysed text ↔ LSP positions in the negotiated encoding.
pub(super) struct Converter<'a> {
    document: &'a dyn NotationDocument,
    encoding: PositionEncoding,
    /// Answers run through offsets mostly in order (tokens, diagnostics, symbols): each is
    /// placed from the one before.
    cursor: RefCell<PositionCursor<'a>>,
}

impl<'a> Converter<'a> {
    pub(super) fn new(document: &'a dyn NotationDocument, encoding: PositionEncoding) -> Self {
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

    pub(super) fn position(&self, offset: usize) -> Position {
        self.cursor.borrow_mut().position(offset)
    }

    /// How many columns `range` spans on its line (a semantic token never spans a line
    /// end).
    pub(super) fn width(&self, range: &std::ops::Range<usize>) -> u32 {
        let piece = self.document.text().get(range.clone()).unwrap_or_default();
        u32::try_from(self.encoding.units_in(piece)).unwrap_or(u32::MAX)
    }

    pub(super) fn range(&self, range: &std::ops::Range<usize>) -> lsp::Range {
        lsp::Range {
            start: self.position(range.start),
            end: self.position(range.end.max(range.start)),
        }
    }

    /// Where `offset` of the text will be once `range` is replaced by `inserted`: the
    /// cursor an edit not yet applied by the client puts on what it writes (an offset past
    /// the inserted text is placed at its end).
    pub(super) fn position_after_edit(
        &self,
        range: &std::ops::Range<usize>,
        inserted: &str,
        offset: usize,
    ) -> Position {
        if offset <= range.start {
            return self.position(offset);
        }
        let start = self.position(range.start);
        let mut within = (offset - range.start).min(inserted.len());
        while !inserted.is_char_boundary(within) {
            within -= 1;
        }
        let before = &inserted[..within];
        let units = |text: &str| u32::try_from(self.encoding.units_in(text)).unwrap_or(u32::MAX);
        match before.rfind('\n') {
            Some(line_start) => Position {
                line: start.line + before.matches('\n').count() as u32,
                character: units(&before[line_start + 1..]),
            },
            None => Position {
                line: start.line,
                character: start.character + units(before),
            },
        }
    }

    pub(super) fn offset(&self, position: Position) -> usize {
        text_offset(
            self.document.text(),
            self.document.line_index(),
            position,
            self.encoding,
        )
    }
}

/// The semantic tokens of `range`, encoded relative to each other as LSP wants them.
/// `expected_count` is room to make for them at first (the count sent last time, say).
pub(super) fn semantic_tokens(
    convert: &Converter<'_>,
    document: &dyn NotationDocument,
    range: std::ops::Range<usize>,
    expected_count: usize,
) -> Vec<SemanticToken> {
    let mut data = Vec::with_capacity(expected_count);
    let mut previous = Position::new(0, 0);
    document.each_semantic_token(range, &mut |token| {
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

/// A completion as the protocol writes it: the replaced range and the inserted text as
/// one edit, so that clients replace what was typed instead of guessing a word.
pub(super) fn to_lsp_completion(convert: &Converter<'_>, item: Completion) -> CompletionItem {
    CompletionItem {
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
    }
}

pub(super) fn to_lsp_inlay_hint(
    convert: &Converter<'_>,
    hint: model::features::InlayHint,
) -> InlayHint {
    InlayHint {
        position: convert.position(hint.offset),
        label: InlayHintLabel::String(hint.label),
        kind: None,
        text_edits: None,
        tooltip: hint.tooltip.map(InlayHintTooltip::String),
        padding_left: Some(true),
        padding_right: None,
        data: None,
    }
}

pub(super) fn to_lsp_fold(fold: Fold) -> FoldingRange {
    FoldingRange {
        start_line: saturating_u32(fold.start_line),
        end_line: saturating_u32(fold.end_line),
        kind: Some(match fold.kind {
            FoldKind::Region => FoldingRangeKind::Region,
            FoldKind::Comment => FoldingRangeKind::Comment,
        }),
        ..FoldingRange::default()
    }
}

/// The JSON text of `tokens` as LSP numbers them: five numbers a token.
pub(super) fn token_numbers_json(tokens: &[SemanticToken]) -> Vec<u8> {
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
pub(super) fn tokens_edit(
    old: &[SemanticToken],
    new: &[SemanticToken],
) -> Option<SemanticTokensEdit> {
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
pub(super) const MAX_SYMBOL_DEPTH: usize = 32;

/// The outline for the client, built on a stack of its own: a notation's symbols may nest
/// as deep as its variations do, and neither this conversion, nor dropping the symbols,
/// nor writing the answer as JSON may recurse that deep.
pub(super) fn to_lsp_symbols(convert: &Converter<'_>, symbols: Vec<Symbol>) -> Vec<DocumentSymbol> {
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
pub(super) fn flattened(convert: &Converter<'_>, symbols: Vec<Symbol>) -> Vec<DocumentSymbol> {
    let mut pending: Vec<Symbol> = symbols.into_iter().rev().collect();
    let mut flat = Vec::new();
    while let Some(mut symbol) = pending.pop() {
        pending.extend(std::mem::take(&mut symbol.children).into_iter().rev());
        flat.push(to_lsp_symbol(convert, symbol));
    }
    flat
}

/// One symbol, without its children.
pub(super) fn to_lsp_symbol(convert: &Converter<'_>, symbol: Symbol) -> DocumentSymbol {
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

pub(super) fn saturating_u32(value: usize) -> u32 {
    u32::try_from(value).unwrap_or(u32::MAX)
}

pub(super) fn to_lsp_diagnostics(
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

pub(super) fn to_lsp_diagnostic(
    uri: &Uri,
    convert: &Converter,
    diagnostic: &Diagnostic,
) -> lsp::Diagnostic {
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
