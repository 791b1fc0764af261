//! Setups for the alquerque, morris, go, reversi and marble systems: a board and
//! perhaps some bits.

use crate::model::piece::{PieceKind, Side};
use crate::ppn::rules::setups::args::bad;
use crate::ppn::rules::setups::env::Env;
use crate::ppn::rules::setups::error::SetupError;
use crate::ppn::rules::setups::frame::{cat, Group, Row};

type Built = Result<Vec<Row>, SetupError>;

const BLACK: i32 = 2;
const GREEN: i32 = 3;
const WHITE: i32 = 6;
const CYAN: i32 = 7;

fn board(cfg: &str, suit: i32, rank: i32, centre: f64) -> Row {
    Group::new(PieceKind::Board, Side::Face)
        .cfg(cfg)
        .suit(suit)
        .rank(rank)
        .x(centre)
        .y(centre)
        .rows()
        .remove(0)
}

fn bits(cfg: &str, side: Side, suit: i32, x: Vec<i32>, y: Vec<i32>, angle: f64) -> Vec<Row> {
    Group::new(PieceKind::Bit, side)
        .cfg(cfg)
        .suit(suit)
        .rank(1)
        .x(x)
        .y(y)
        .angle(angle)
        .rows()
}

pub(crate) fn none(_: &mut Env) -> Built {
    Ok(Vec::new())
}

pub(crate) fn alquerque(_: &mut Env) -> Built {
    let white = bits(
        "alquerque",
        Side::Back,
        WHITE,
        vec![1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 4, 5],
        cat(&[&[1; 5], &[2; 5], &[3; 2]]),
        0.0,
    );
    let black = bits(
        "alquerque",
        Side::Back,
        BLACK,
        vec![1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 1, 2],
        cat(&[&[5; 5], &[4; 5], &[3; 2]]),
        180.0,
    );
    let mut rows = vec![board("alquerque", GREEN, 1, 3.0)];
    rows.extend(white);
    rows.extend(black);
    Ok(rows)
}

pub(crate) fn baghchal(_: &mut Env) -> Built {
    let tigers = bits(
        "alquerque",
        Side::Back,
        BLACK,
        vec![1, 5, 5, 1],
        vec![5, 5, 1, 1],
        180.0,
    );
    let mut rows = vec![board("alquerque", GREEN, 1, 3.0)];
    rows.extend(tigers);
    Ok(rows)
}

/// A morris board for `men` men a side; larger boards have more rings.
fn morris(men: i32) -> Built {
    let centre = match men {
        ..=4 => 2.0,
        5..=7 => 3.0,
        _ => 4.0,
    };
    Ok(vec![board("morris", GREEN, men, centre)])
}

pub(crate) fn three_mens_morris(_: &mut Env) -> Built {
    morris(3)
}
pub(crate) fn five_mens_morris(_: &mut Env) -> Built {
    morris(5)
}
pub(crate) fn six_mens_morris(_: &mut Env) -> Built {
    morris(6)
}
pub(crate) fn seven_mens_morris(_: &mut Env) -> Built {
    morris(7)
}
pub(crate) fn nine_mens_morris(_: &mut Env) -> Built {
    morris(9)
}
pub(crate) fn ten_mens_morris(_: &mut Env) -> Built {
    morris(10)
}
pub(crate) fn twelve_mens_morris(_: &mut Env) -> Built {
    morris(12)
}

/// Square boards only, like the reference.
fn square_size(env: &Env, default: i32) -> Result<i32, SetupError> {
    let nrows = env.args.integer("nrows")?.unwrap_or(default);
    let ncols = env.args.integer("ncols")?.unwrap_or(nrows);
    if nrows != ncols {
        return Err(bad("ncols", "only square boards are supported"));
    }
    if !(1..=1000).contains(&nrows) {
        return Err(bad("nrows", "must be 1 to 1000"));
    }
    Ok(nrows)
}

fn go_board(env: &mut Env, default: i32) -> Built {
    let size = square_size(env, default)?;
    Ok(vec![board("go", BLACK, size, 0.5 + 0.5 * f64::from(size))])
}

pub(crate) fn go(env: &mut Env) -> Built {
    go_board(env, 19)
}
pub(crate) fn gomoku(env: &mut Env) -> Built {
    go_board(env, 15)
}

pub(crate) fn reversi(env: &mut Env) -> Built {
    let size = square_size(env, 8)?;
    Ok(vec![board(
        "reversi",
        BLACK,
        size,
        0.5 + 0.5 * f64::from(size),
    )])
}

pub(crate) fn ming_mang(env: &mut Env) -> Built {
    let size = square_size(env, 8)?;
    let mut rows = vec![board("reversi", BLACK, size, 0.5 + 0.5 * f64::from(size))];
    let inner: Vec<i32> = (1..size).collect();
    let outer: Vec<i32> = (2..=size).collect();
    rows.extend(bits(
        "reversi",
        Side::Back,
        BLACK,
        vec![1],
        inner.clone(),
        0.0,
    ));
    rows.extend(bits("reversi", Side::Back, BLACK, inner, vec![size], 0.0));
    rows.extend(bits(
        "reversi",
        Side::Face,
        BLACK,
        vec![size],
        outer.clone(),
        0.0,
    ));
    rows.extend(bits("reversi", Side::Face, BLACK, outer, vec![1], 0.0));
    Ok(rows)
}

/// The square pyramidal marble board; marbles sit at half-unit spacing.
pub(crate) fn marble_board(env: &mut Env) -> Built {
    let scale_factor = env.args.number("scale_factor")?.unwrap_or(0.5);
    let size = square_size(env, 4)?;
    let x0 = env.args.number("x0")?.unwrap_or(scale_factor);
    let y0 = env.args.number("y0")?.unwrap_or(scale_factor);
    let suit = match env.args.text("suit")? {
        Some(name) => crate::ppn::rules::setups::games::colour_suit(&name)
            .ok_or_else(|| bad("suit", "unknown colour"))?,
        None => CYAN,
    };
    let half = 0.5 * f64::from(size) - 0.5;
    let mut row = board("marbles", suit, size, 0.0);
    row.x = x0 + half;
    row.y = y0 + half;
    env.scale_factor = scale_factor;
    Ok(vec![row])
}
