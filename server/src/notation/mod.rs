//! String-level PPN: games and metadata blocks, movetext, brace expansion, macros,
//! and the parts of a move (PieceSpec, Location, PieceId).

pub mod braces;
pub mod document;
pub mod metadata;
pub mod movetext;
