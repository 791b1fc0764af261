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

pub mod annofen;
pub mod annotation;
pub mod board;
pub mod convert;
pub mod document;
pub mod features;
pub mod notation;
pub mod parsed;
pub mod placement;
pub mod position;
pub mod replay;
pub mod rules;
pub mod wxf;
pub mod xay;
pub mod yaml;

#[cfg(test)]
mod tests;

pub use document::XiangqiDocument;
