//! Editor features as pure functions of a document's text: no LSP types here, so the
//! command line and the language server always agree.

pub mod advice;
pub mod analysis;
pub mod board;
pub mod check;
pub mod completion;
pub mod document;
pub mod fix_all;
pub mod folding;
pub mod formatting;
pub mod game_line;
pub mod hover;
pub mod inlay_hints;
pub mod large;
pub mod lenses;
pub mod locate;
pub mod navigation;
pub mod plain_text;
pub mod ppn;
pub mod rename;
pub mod selection;
pub mod semantic_tokens;
pub mod symbols;
pub mod viewer;
pub mod workspace;
