//! The rules PPN's default movetext parser plays by: the game state, every MoveToken
//! applied to it, the known games' setups and R's random numbers for seeded setups.

pub(crate) mod apply;
pub(crate) mod footprint;
pub mod rng;
pub mod setups;
pub mod state;

pub use apply::{TokenElement, TokenPart};
