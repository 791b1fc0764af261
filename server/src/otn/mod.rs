//! OpenTafl Notation (OTN): game records (`.otg`), rules strings and position records
//! (`.otn`).
//!
//! Layers, each depending only on those before it: [`board`] (men, squares, position
//! records) → [`rules`] (rules strings) and [`moves`] (move records) → [`syntax`] (the file:
//! tags, turns, variations, commentary) → [`engine`] (the tafl rules the rules string
//! describes) → [`replay`] (every line of play, state by state, with diagnostics) →
//! [`document`] (the notation contract: editor features and CLI output) and [`convert`]
//! (to and from PPN).

//! Where the specification leaves room, ppn-ls reads OTN as follows (and says so in its
//! hover texts and diagnostics):
//! - `tfr:w`: the side that moves into the third repetition loses (OpenTafl's behaviour
//!   and the spec's "the player forcing the repetition loses"); `tfr:l` the reverse.
//! - Piece-type lists (`corh`, `cens`, ...) apply to each man type, and the defaults the
//!   spec calls "all pieces" include guards.
//! - Edge fort (`efe`): the king on an edge, able to move, in an area of empty squares
//!   walled by defenders with no attacker or corner inside, no wall man capturable (the
//!   Copenhagen rule). Surrounding (`surf`): no defender can reach an edge square.
//! - A strong king is captured on four hostile sides, or between two commanders or
//!   knights (or one and a hostile corner) away from the throne.
//! - A variation off a main-line move replaces that move; a variation off a variation's
//!   move follows it, as OpenTafl reads its own records.
//! - Replay goes on after every error: a turn after a gap in the numbering, an illegal
//!   move that can be made on the board, the moves after the game's end.

pub mod board;
pub mod convert;
pub mod document;
pub mod enter_move;
pub mod features;
pub mod format;
pub mod reader;
pub mod replay;
pub mod rules;
pub mod variant;
