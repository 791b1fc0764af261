//! ppn-ls: replay, lint and language-server support for Portable Piecepack Notation.
//!
//! Layers, each depending only on those below it:
//! `cli` / `lsp` → `ide` → `engine` → `notation` → `syntax`.

pub mod cli;
pub mod diagnostic;
pub mod ide;
pub mod lsp;
pub mod memory;
pub mod model;
pub mod otn;
pub mod ppn;
pub mod render;
#[cfg(test)]
mod test_random;
pub mod xiangqi;
pub mod yaml_errors;
