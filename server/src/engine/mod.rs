//! Board model, setups and move application: everything needed to replay a game.

pub mod piece;
pub mod rng;
pub mod setups;
