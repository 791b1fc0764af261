//! What a setup function can use while it builds its board: its arguments, R's random
//! numbers, the parser's cell width.

use crate::ppn::rules::rng::RRng;
use crate::ppn::rules::setups::args::Args;
use crate::ppn::rules::setups::error::SetupError;
use crate::ppn::rules::setups::setup::SetupContext;

/// What a setup function can use while it builds its board.
pub(crate) struct Env {
    pub args: Args,
    pub rng: RRng,
    /// The reference's `ppdf.checker_cell_width` / `ppdf.chess_cell_width` option.
    pub option_cell_width: u32,
    pub scale_factor: f64,
    pub macros: Vec<(String, String)>,
}

impl Env {
    pub(super) fn new(
        args: Args,
        ctx: &SetupContext,
        session_seed: Option<i32>,
    ) -> Result<Env, SetupError> {
        let seed = args.seed()?.or(session_seed);
        Ok(Env {
            rng: RRng::from_seed(seed.unwrap_or_else(unseeded)),
            args,
            option_cell_width: ctx.cell_width.unwrap_or(1),
            scale_factor: 1.0,
            macros: Vec::new(),
        })
    }

    /// The `cell_width` argument of checker and chess setups.
    pub fn cell_width(&self) -> Result<u32, SetupError> {
        Ok(self
            .args
            .integer("cell_width")?
            .map(|w| w.max(1) as u32)
            .unwrap_or(self.option_cell_width))
    }
}

/// Setups without a `Seed` are random, as in the reference.
fn unseeded() -> i32 {
    // The browser's WebAssembly has no clock in the standard library.
    #[cfg(target_family = "wasm")]
    return 0x5eed;
    #[cfg(not(target_family = "wasm"))]
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos() ^ (d.as_secs() as u32))
        .unwrap_or(0);
    #[cfg(not(target_family = "wasm"))]
    return nanos as i32;
}
