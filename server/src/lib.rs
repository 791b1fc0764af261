//! ppn-ls: replay, lint and language-server support for Portable Piecepack Notation.
//!
//! Layers, each depending only on those below it:
//! `cli` / `lsp` → `ide` → `engine` → `notation` → `syntax`.

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
