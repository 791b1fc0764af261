//! xiangqi-setup's files: annoFEN (`.annofen`), XAY (`.xay`), plain xiangqi FEN (`.fen`)
//! and WXF game records (`.wxf`).
//!
//! Layers, each depending only on those before it:
//! - [`board`], [`annotation`]: points, men, piece letters; annotation codes.
//! - [`rules`], [`notation`]: how pieces move, check; WXF move notation.
//! - [`yaml`], [`position`], [`annofen`], [`xay`], [`wxf`]: one reader per format, each
//!   giving a [`parsed::Parsed`] with exact ranges and recovering from every error.
//! - [`placement`], [`replay`]: warnings about a drawn position; a WXF record played.
//! - [`document`], [`features`], [`convert`]: the notation contract, hovers and
//!   completions, conversions.

pub mod annotation;
pub mod board;
pub mod convert;
pub mod document;
pub mod enter_move;
pub mod features;
pub mod placement;
pub mod reader;
pub mod replay;
pub mod rules;
pub mod wxf_move;

#[cfg(test)]
mod tests;

pub use document::XiangqiDocument;
