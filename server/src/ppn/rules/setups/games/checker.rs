//! Setups for the checkers system: a checkered (or lined) board with black and
//! white discs.  Many are the piecepack setup of the same game with every coin,
//! die and pawn turned into a disc.

use crate::model::piece::{PieceKind, Side};
use crate::ppn::rules::setups::args::bad;
use crate::ppn::rules::setups::env::Env;
use crate::ppn::rules::setups::error::SetupError;
use crate::ppn::rules::setups::frame::{cat, each, seq_to, stack, times, Group, Row};

use super::{piecepack_checkers as pp, piecepack_traditional as pt};
use crate::ppn::rules::setups::games::boards::{square_board, with_cell_width};

type Built = Result<Vec<Row>, SetupError>;

const BLACK: i32 = 2;
const WHITE: i32 = 6;
const GREEN: i32 = 3;

/// How a piecepack setup becomes a checkers setup.
#[derive(Clone, Copy)]
struct Conversion {
    board_side: Side,
    board_suit: i32,
    board_angle: f64,
    /// Swap colours so that black moves first.
    black_first: bool,
}

const CHECKERED: Conversion = Conversion {
    board_side: Side::Face,
    board_suit: GREEN,
    board_angle: 0.0,
    black_first: false,
};
const LINED: Conversion = Conversion {
    board_side: Side::Back,
    board_suit: BLACK,
    ..CHECKERED
};
const TURNED: Conversion = Conversion {
    board_angle: 90.0,
    ..CHECKERED
};
const BLACK_FIRST: Conversion = Conversion {
    black_first: true,
    ..CHECKERED
};

fn discs(suit: i32, x: Vec<i32>, y: Vec<i32>) -> Vec<Row> {
    Group::new(PieceKind::Bit, Side::Back)
        .no_cfg()
        .suit(suit)
        .rank(1)
        .x(x)
        .y(y)
        .rows()
}

fn board(size: i32, side: Side) -> Row {
    Row {
        side,
        ..square_board(size, GREEN)
    }
}

fn convert(env: &mut Env, piecepack: fn(&mut Env) -> Built, how: Conversion) -> Built {
    let cell_width = env.cell_width()?;
    let rows = piecepack(env)?;
    let tiles: Vec<&Row> = rows.iter().filter(|r| r.is(PieceKind::Tile)).collect();
    let min_x = tiles.iter().map(|t| t.x).fold(f64::INFINITY, f64::min);
    let max_x = tiles.iter().map(|t| t.x).fold(f64::NEG_INFINITY, f64::max);
    let width = (max_x - min_x + 2.0) as i32;
    let mut board_row = square_board(width, how.board_suit);
    board_row.side = how.board_side;
    board_row.angle = how.board_angle;
    let mut pieces: Vec<Row> = rows
        .into_iter()
        .filter(|r| !r.is(PieceKind::Tile))
        .map(|r| Row {
            kind: PieceKind::Bit,
            side: Side::Back,
            angle: 0.0,
            rank: Some(1),
            ..r
        })
        .collect();
    let mut suits: Vec<Option<i32>> = pieces.iter().map(|p| p.suit).collect();
    suits.sort();
    suits.dedup();
    let recolour = |suit: Option<i32>| -> Option<i32> {
        match (suits.len(), suit) {
            (4, Some(1 | 2)) => Some(BLACK),
            (4, Some(3 | 4)) => Some(WHITE),
            // Two suits are probably red against black.
            (2, Some(1)) => Some(WHITE),
            (2, Some(2)) => Some(BLACK),
            _ => suit,
        }
    };
    for piece in pieces.iter_mut() {
        piece.suit = recolour(piece.suit);
    }
    if how.black_first {
        for piece in pieces.iter_mut() {
            piece.suit = Some(if piece.suit == Some(WHITE) {
                BLACK
            } else {
                WHITE
            });
        }
    }
    env.scale_factor = f64::from(cell_width);
    Ok(with_cell_width(
        stack(vec![vec![board_row], pieces]),
        "checkers",
        cell_width,
    ))
}

/// A setup drawn directly for checkers: board then white then black discs.
fn drawn(env: &mut Env, board_row: Row, white: Vec<Row>, black: Vec<Row>) -> Built {
    let cell_width = env.cell_width()?;
    env.scale_factor = f64::from(cell_width);
    Ok(with_cell_width(
        stack(vec![vec![board_row], white, black]),
        "checkers",
        cell_width,
    ))
}

pub(crate) fn american_checkers(env: &mut Env) -> Built {
    convert(env, pp::american_checkers, CHECKERED)
}
pub(crate) fn american_pool_checkers(env: &mut Env) -> Built {
    convert(env, pp::american_checkers, BLACK_FIRST)
}
pub(crate) fn corner_checkers(env: &mut Env) -> Built {
    convert(env, pp::corner_checkers, CHECKERED)
}
pub(crate) fn italian_checkers(env: &mut Env) -> Built {
    convert(env, pp::italian_checkers, TURNED)
}
pub(crate) fn zimbabwean_pool_checkers(env: &mut Env) -> Built {
    convert(env, pp::american_checkers, TURNED)
}
pub(crate) fn one_way_checkers(env: &mut Env) -> Built {
    convert(env, pp::one_way_checkers, CHECKERED)
}
pub(crate) fn thai_checkers(env: &mut Env) -> Built {
    convert(env, pp::thai_checkers, BLACK_FIRST)
}
pub(crate) fn turkish_checkers(env: &mut Env) -> Built {
    convert(env, pp::turkish_checkers, LINED)
}
pub(crate) fn breakthrough(env: &mut Env) -> Built {
    convert(env, pp::gothic_checkers, CHECKERED)
}
pub(crate) fn dao(env: &mut Env) -> Built {
    convert(env, pp::dao, CHECKERED)
}
pub(crate) fn four_field_kono(env: &mut Env) -> Built {
    convert(env, pt::four_field_kono, LINED)
}
pub(crate) fn grasshopper(env: &mut Env) -> Built {
    convert(env, pp::grasshopper, CHECKERED)
}
pub(crate) fn julgonu(env: &mut Env) -> Built {
    convert(env, pt::julgonu, LINED)
}
pub(crate) fn lines_of_action(env: &mut Env) -> Built {
    convert(env, pp::lines_of_action, CHECKERED)
}

pub(crate) fn canadian_checkers(env: &mut Env) -> Built {
    let odd = seq_to(1, 11, 2);
    let even = seq_to(2, 12, 2);
    let white = discs(
        WHITE,
        cat(&[&times(odd.clone(), 3), &times(even.clone(), 2)]),
        each([1, 3, 5, 2, 4], 6),
    );
    let black = discs(
        BLACK,
        cat(&[&times(odd, 2), &times(even, 3)]),
        each([9, 11, 8, 10, 12], 6),
    );
    drawn(env, board(12, Side::Face), white, black)
}

pub(crate) fn dameo(env: &mut Env) -> Built {
    let white = discs(
        WHITE,
        cat(&[
            &(1..=8).collect::<Vec<_>>(),
            &(2..=7).collect::<Vec<_>>(),
            &(3..=6).collect::<Vec<_>>(),
        ]),
        cat(&[&[1; 8], &[2; 6], &[3; 4]]),
    );
    let black = discs(
        BLACK,
        cat(&[
            &(3..=6).collect::<Vec<_>>(),
            &(2..=7).collect::<Vec<_>>(),
            &(1..=8).collect::<Vec<_>>(),
        ]),
        cat(&[&[6; 4], &[7; 6], &[8; 8]]),
    );
    drawn(env, board(8, Side::Face), white, black)
}

pub(crate) fn frisian_checkers(env: &mut Env) -> Built {
    let row_pair = cat(&[&seq_to(1, 9, 2), &seq_to(2, 10, 2)]);
    let white = discs(WHITE, times(row_pair.clone(), 2), each(1..=4, 5));
    let black = discs(BLACK, times(row_pair, 2), each(7..=10, 5));
    drawn(env, board(10, Side::Face), white, black)
}

pub(crate) fn lasca(env: &mut Env) -> Built {
    let white = discs(
        WHITE,
        vec![5, 7, 4, 6, 5, 7, 1, 3, 2, 1, 3],
        vec![3, 3, 2, 2, 1, 1, 3, 3, 2, 1, 1],
    );
    let black = discs(
        BLACK,
        vec![1, 3, 2, 4, 1, 3, 5, 7, 6, 5, 7],
        vec![7, 7, 6, 6, 5, 5, 7, 7, 6, 5, 5],
    );
    drawn(env, board(7, Side::Face), white, black)
}

pub(crate) fn dodgem(env: &mut Env) -> Built {
    let nrows = env.args.integer("nrows")?.unwrap_or(3);
    if !(2..=1000).contains(&nrows) {
        return Err(bad("nrows", "must be 2 to 1000"));
    }
    let white = discs(WHITE, vec![1; (nrows - 1) as usize], (2..=nrows).collect());
    let black = discs(BLACK, (2..=nrows).collect(), vec![1; (nrows - 1) as usize]);
    drawn(env, board(nrows, Side::Face), white, black)
}

pub(crate) fn focus(env: &mut Env) -> Built {
    let low = times([2, 4, 6], 2);
    let high = times([3, 5, 7], 2);
    let white = discs(WHITE, each(2..=7, 3), cat(&[&low, &high, &low]));
    let black = discs(BLACK, each(2..=7, 3), cat(&[&high, &low, &high]));
    drawn(env, board(8, Side::Face), white, black)
}

pub(crate) fn jeson_mor(env: &mut Env) -> Built {
    let white = discs(WHITE, (1..=9).collect(), vec![1]);
    let black = discs(BLACK, (1..=9).collect(), vec![9]);
    drawn(env, board(9, Side::Back), white, black)
}
