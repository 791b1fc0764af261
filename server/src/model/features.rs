//! The small types editor features answer with, whatever the notation: semantic tokens,
//! folds, symbols, completions and inlay hints, in byte offsets of the document.

use std::ops::Range;

/// Kinds of spans; [`TokenKind::LEGEND`] names them with standard LSP token types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TokenKind {
    Comment,
    /// Move numbers and numbers inside moves (counts, degrees, slice indices).
    Number,
    /// Move operators (`@`, `-`, `*`, `x`, `+`, ...).
    Operator,
    /// What a piece is (PieceSpecs, piece letters).
    Type,
    /// Places and pieces named by place (PieceIds, Locations, squares).
    Variable,
    Macro,
    /// Values (metadata values, tag values).
    String,
    /// Keys (metadata keys, tag names, rules keys).
    Property,
    /// Structure (`---`, `...`, `START{`, `}END`).
    Keyword,
    /// Codes with a fixed meaning (annotation codes, info symbols).
    EnumMember,
}

impl TokenKind {
    /// In legend order: a kind's index in this list is its number in the protocol.
    pub const ALL: [TokenKind; 10] = [
        TokenKind::Comment,
        TokenKind::Number,
        TokenKind::Operator,
        TokenKind::Type,
        TokenKind::Variable,
        TokenKind::Macro,
        TokenKind::String,
        TokenKind::Property,
        TokenKind::Keyword,
        TokenKind::EnumMember,
    ];

    /// The standard LSP token type names, in the order of [`TokenKind::ALL`].
    pub const LEGEND: [&'static str; 10] = [
        "comment",
        "number",
        "operator",
        "type",
        "variable",
        "macro",
        "string",
        "property",
        "keyword",
        "enumMember",
    ];

    pub fn index(self) -> u32 {
        TokenKind::ALL
            .iter()
            .position(|kind| *kind == self)
            .and_then(|i| u32::try_from(i).ok())
            .unwrap_or_default()
    }
}

/// A span of one line of the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SemanticToken {
    pub range: Range<usize>,
    pub kind: TokenKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FoldKind {
    Region,
    Comment,
}

/// Lines `start_line..=end_line` (zero-based) fold into the first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fold {
    pub start_line: usize,
    pub end_line: usize,
    pub kind: FoldKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymbolKind {
    Game,
    Move,
    /// A line of play branching off a move.
    Variation,
    /// A stretch of a long line's moves, listed as one (see [`outline`]).
    Moves,
}

/// Past this many moves, a line lists its moves in stretches.
pub const MOST_SYMBOLS_LISTED: usize = 1_000;

/// Moves in one stretch of a long line.
pub const MOVES_PER_STRETCH: usize = 100;

/// The outline an editor shows: `symbols`, where a game or line with more than
/// [`MOST_SYMBOLS_LISTED`] moves lists stretches of [`MOVES_PER_STRETCH`] moves (`1. – 50...`)
/// instead of each move. Editors ask for the outline after every edit, and a list of
/// 100,000 moves costs them (and the server writing it) far more than it helps anyone
/// find their way through a game.
pub fn outline(mut symbols: Vec<Symbol>) -> Vec<Symbol> {
    let mut pending: Vec<&mut Symbol> = symbols.iter_mut().collect();
    while let Some(symbol) = pending.pop() {
        if symbol.children.len() > MOST_SYMBOLS_LISTED {
            let moves = std::mem::take(&mut symbol.children);
            symbol.children = moves.chunks(MOVES_PER_STRETCH).map(stretch).collect();
        } else {
            pending.extend(symbol.children.iter_mut());
        }
    }
    symbols
}

/// One symbol for `moves` (not empty), covering them all.
fn stretch(moves: &[Symbol]) -> Symbol {
    let (first, last) = (&moves[0], &moves[moves.len() - 1]);
    Symbol {
        name: format!("{} – {}", first.name, last.name),
        detail: Some(format!("{} moves", moves.len())),
        kind: SymbolKind::Moves,
        range: first.range.start..last.range.end,
        selection: first.selection.clone(),
        children: Vec::new(),
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    pub name: String,
    pub detail: Option<String>,
    pub kind: SymbolKind,
    /// Everything the symbol covers.
    pub range: Range<usize>,
    /// What to highlight when it is chosen (the game's first line, the move number).
    pub selection: Range<usize>,
    pub children: Vec<Symbol>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompletionKind {
    Macro,
    MetadataKey,
    /// A game name (a `GameType` / `SetUp` value).
    Game,
    /// A game system (`System` under `SetUp`).
    System,
    /// A `MovetextParser` value.
    Parser,
    /// A key of some other notation (a tag name, a rules key).
    Key,
    /// A value with a fixed set of choices (a rules value, a piece letter).
    Value,
    /// A code with a fixed meaning (an annotation code).
    Code,
}

/// One suggestion: `insert` replaces the bytes of `replace`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Completion {
    pub label: String,
    pub kind: CompletionKind,
    /// One line next to the label: a macro's value, what a key is for, a game's systems.
    pub detail: Option<String>,
    /// Longer explanation (Markdown), if any.
    pub documentation: Option<String>,
    pub insert: String,
    pub replace: Range<usize>,
    /// Orders the list: the game's own macros before the built-in ones, ...
    pub sort: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HintKind {
    BraceExpansion,
    Macro,
    /// What a move captures, where the record does not write it.
    Capture,
}

/// A label shown at `offset` (right after what it explains).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InlayHint {
    pub offset: usize,
    pub label: String,
    pub kind: HintKind,
    /// The whole text when the label had to be shortened.
    pub tooltip: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn symbol(name: &str, kind: SymbolKind, range: Range<usize>, children: Vec<Symbol>) -> Symbol {
        Symbol {
            name: name.to_string(),
            detail: None,
            kind,
            selection: range.start..range.start + 1,
            range,
            children,
        }
    }

    fn moves(count: usize) -> Vec<Symbol> {
        (0..count)
            .map(|i| {
                symbol(
                    &format!("{}.", i + 1),
                    SymbolKind::Move,
                    i * 10..i * 10 + 8,
                    Vec::new(),
                )
            })
            .collect()
    }

    #[test]
    fn a_long_line_lists_stretches_of_moves() {
        let short = symbol(
            "short",
            SymbolKind::Game,
            0..10_000,
            moves(MOST_SYMBOLS_LISTED),
        );
        let long_variation = symbol("1a.1.", SymbolKind::Variation, 0..25_000, moves(2_450));
        let mut with_variation = moves(3);
        with_variation[1].children.push(long_variation);
        let nested = symbol("nested", SymbolKind::Game, 0..30, with_variation);
        let long = symbol("long", SymbolKind::Game, 0..25_010, moves(2_501));
        let listed = outline(vec![short.clone(), nested, long]);
        assert_eq!(
            listed[0], short,
            "a line of at most the limit lists every move"
        );
        let stretches = &listed[2].children;
        assert_eq!(stretches.len(), 26);
        assert_eq!(stretches[0].name, "1. – 100.");
        assert_eq!(stretches[0].detail.as_deref(), Some("100 moves"));
        assert_eq!(stretches[0].kind, SymbolKind::Moves);
        assert_eq!(stretches[0].range, 0..998);
        assert_eq!(stretches[0].selection, 0..1);
        assert_eq!(stretches[25].name, "2501. – 2501.");
        assert_eq!(stretches[25].range, 25_000..25_008);
        assert!(stretches.iter().all(|s| s.children.is_empty()));
        // Deeper lines are read too.
        let variation = &listed[1].children[1].children[0];
        assert_eq!(variation.children.len(), 25);
        assert_eq!(variation.children[24].name, "2401. – 2450.");
    }
}
