//! ppn-ls: a linter, formatter, language server and viewer for plaintext records of board
//! games: Portable Piecepack Notation ([`ppn`]), OpenTafl records ([`otn`]) and
//! xiangqi-setup's files ([`xiangqi`]).
//!
//! Layers, each depending only on those below it (`ARCHITECTURE.md` draws them, and a test
//! reads the imports to keep them so): the edges [`cli`] and [`lsp`] (and, outside this
//! crate, the browser's `ppn-ls-web`) → [`ide`] and [`config`] → the notations [`ppn`],
//! [`otn`], [`xiangqi`] → [`render`] → [`model`], [`diagnostic`].

#[cfg(feature = "native")]
pub mod cli;
pub mod config;
pub mod diagnostic;
#[cfg(feature = "native")]
pub mod exit_code;
#[cfg(test)]
mod fixture;
pub mod ide;
#[cfg(feature = "native")]
pub mod lsp;
#[cfg(feature = "native")]
pub mod memory;
pub mod model;
pub mod otn;
pub mod ppn;
pub mod render;
#[cfg(test)]
mod test_random;
pub mod xiangqi;
pub mod yaml_errors;
