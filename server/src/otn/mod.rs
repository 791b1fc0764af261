//! OpenTafl Notation (OTN): game records (`.otg`), rules strings and position records
//! (`.otn`).
//!
//! Layers, each depending only on those before it: [`board`] (men, squares, position
//! records) → [`rules`] (rules strings) and [`moves`] (move records) → [`syntax`] (the file:
//! tags, turns, variations, commentary) → [`engine`] (the tafl rules the rules string
//! describes) → [`replay`] (every line of play, state by state, with diagnostics) →
//! [`document`] (the notation contract: editor features and CLI output) and [`convert`]
//! (to and from PPN).

pub mod board;
pub mod convert;
pub mod document;
pub mod engine;
pub mod features;
pub mod moves;
pub mod replay;
pub mod rules;
pub mod syntax;
