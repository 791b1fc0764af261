//! The piecepack's components on their own (all tiles, all coins, ...) and its
//! stock boards, usable as setups.

use crate::model::piece::Side;
use crate::ppn::rules::setups::args::bad;
use crate::ppn::rules::setups::env::Env;
use crate::ppn::rules::setups::error::SetupError;
use crate::ppn::rules::setups::frame::{
    coins, dice, matchsticks, pawns, pyramids, saucers, tiles, Group, Row,
};

use crate::ppn::rules::setups::games::boards::{donut_board, tile_board};

type Built = Result<Vec<Row>, SetupError>;

const MAX_CELLS: i32 = 1000;
const MAX_TILES: i32 = 10_000;

/// The arguments every component setup takes.
pub(crate) const PART_ARGUMENTS: &[(&str, &str)] =
    &[("side", "(face up)"), ("cfg", "\"piecepack\"")];
/// Dice have no side to choose.
pub(crate) const DICE_ARGUMENTS: &[(&str, &str)] = &[("cfg", "\"piecepack\"")];

fn customised(env: &Env, group: Group) -> Built {
    let mut group = group;
    if let Some(side) = env.args.text("side")? {
        let side = Side::from_name(&side).ok_or_else(|| bad("side", "unknown side"))?;
        group = group.side(side);
    }
    if let Some(name) = env.args.text("cfg")? {
        group = group.cfg(&name);
    }
    Ok(group.rows())
}

pub(crate) fn all_tiles(env: &mut Env) -> Built {
    customised(env, tiles())
}
pub(crate) fn all_coins(env: &mut Env) -> Built {
    customised(env, coins())
}
pub(crate) fn all_dice(env: &mut Env) -> Built {
    customised(env, dice())
}
pub(crate) fn all_pawns(env: &mut Env) -> Built {
    customised(env, pawns())
}
pub(crate) fn all_saucers(env: &mut Env) -> Built {
    customised(env, saucers())
}
pub(crate) fn all_matchsticks(env: &mut Env) -> Built {
    customised(env, matchsticks())
}
pub(crate) fn all_pyramids(env: &mut Env) -> Built {
    customised(env, pyramids())
}

pub(crate) fn rectangular_board(env: &mut Env) -> Built {
    let nrows = env.args.integer("nrows")?.unwrap_or(8);
    let ncols = env.args.integer("ncols")?.unwrap_or(8);
    let x0 = env.args.number("x0")?.unwrap_or(1.0);
    let y0 = env.args.number("y0")?.unwrap_or(1.0);
    let max_tiles = env.args.integer("max_tiles")?.unwrap_or(24);
    // Generous limits that keep a typo from building an enormous board.
    if !(1..=MAX_CELLS).contains(&nrows) || !(1..=MAX_CELLS).contains(&ncols) {
        return Err(bad(
            "nrows",
            &format!("rows and columns must be 1 to {MAX_CELLS}"),
        ));
    }
    if !(1..=MAX_TILES).contains(&max_tiles) {
        return Err(bad("max_tiles", &format!("must be 1 to {MAX_TILES}")));
    }
    tile_board(nrows, ncols)
        .at(x0, y0)
        .max_tiles(max_tiles)
        .try_rows()
}

pub(crate) fn donut(env: &mut Env) -> Built {
    let x0 = env.args.number("x0")?.unwrap_or(1.0);
    let y0 = env.args.number("y0")?.unwrap_or(1.0);
    customised(env, donut_board(x0, y0))
}
