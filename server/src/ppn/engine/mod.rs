//! Board model, setups and move application: everything needed to replay a game.

pub(crate) mod apply;
mod footprint;
mod overlay;
pub mod replay;
pub mod rng;
pub mod setups;
pub mod state;

pub use apply::{TokenElement, TokenPart};
