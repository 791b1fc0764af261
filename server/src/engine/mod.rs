//! Board model, setups and move application: everything needed to replay a game.

pub mod apply;
pub mod piece;
pub mod state;
