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
