//! String-level PPN: games and metadata blocks, movetext, brace expansion, macros,
//! and the parts of a move (PieceSpec, Location, PieceId).

pub mod braces;
pub mod document;
pub mod issue;
pub mod location;
pub mod macros;
pub mod metadata;
pub mod movetext;
pub mod piece_id;
pub mod piece_spec;
