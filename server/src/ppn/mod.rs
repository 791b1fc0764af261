//! Portable Piecepack Notation, shaped as every notation folder is:
//! - [`reader`]: the text read into games, metadata and moves with their ranges (the
//!   tree-sitter syntax, brace expansion, macros, the parts of a move);
//! - [`rules`]: the game state, every MoveToken, the known games' setups;
//! - [`replay`]: every game replayed in chunks of moves, exactly as the reference
//!   implementation does, and updated after an edit;
//! - [`document`]: one analysed revision ([`document::PpnDocument`]) with its
//!   [`diagnostics`], where [`consequences`] folds follow-on problems into their cause;
//! - [`features`]: what editors ask of it (the [`crate::model::notation_document::NotationDocument`] contract);
//! - [`format`], [`versions`] and [`migrate`]: the formatter, older PPN versions' forms as
//!   diagnostics with fixes, and a whole file rewritten in the current form.

pub mod consequences;
pub mod diagnostics;
pub mod document;
pub mod features;
pub mod format;
pub mod migrate;
pub mod reader;
pub mod replay;
pub mod rules;
pub mod versions;
