//! Portable Piecepack Notation: the tree-sitter syntax, the string-level notation
//! (games, metadata, movetext, braces, macros, the parts of a move) and the engine that
//! replays it exactly as the reference implementation does.

pub mod engine;
pub mod notation;
pub mod syntax;
pub mod versions;
