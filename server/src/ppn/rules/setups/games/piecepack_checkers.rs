//! Checkers variants and other abstract games on piecepack boards.

use crate::ppn::rules::setups::args::bad;
use crate::ppn::rules::setups::env::Env;
use crate::ppn::rules::setups::error::SetupError;
use crate::ppn::rules::setups::frame::{
    cat, coins, dice, each, fill_ranks, pawns, stack, times, Row, UNDECIDED,
};

use crate::ppn::rules::setups::games::boards::{donut_board, tile_board};
use crate::ppn::rules::setups::games::text;

type Built = Result<Vec<Row>, SetupError>;

/// Twelve men a side on the dark squares, back rows first.
pub(crate) fn american_checkers(_: &mut Env) -> Built {
    let board = tile_board(8, 8).rows();
    let men = coins()
        .back()
        .x([
            2, 4, 1, 3, 2, 4, 6, 8, 5, 7, 6, 8, 5, 7, 6, 8, 5, 7, 1, 3, 2, 4, 1, 3,
        ])
        .y(each([8, 7, 6, 8, 7, 6, 3, 2, 1, 3, 2, 1], 2))
        .angle(each([180, 0], 12))
        .rows();
    Ok(stack(vec![board, men]))
}

pub(crate) fn corner_checkers(_: &mut Env) -> Built {
    let board = tile_board(8, 8).rows();
    let men = coins()
        .back()
        .x([
            1, 1, 1, 2, 2, 2, 3, 3, 4, 4, 5, 6, 8, 8, 8, 7, 7, 7, 6, 6, 5, 5, 4, 3,
        ])
        .y([
            3, 5, 7, 4, 6, 8, 5, 7, 6, 8, 7, 8, 6, 4, 2, 5, 3, 1, 4, 2, 3, 1, 2, 1,
        ])
        .angle(each([180, 0], 12))
        .rows();
    Ok(stack(vec![board, men]))
}

/// Two rows of men a side; the corner men are a pawn and a die.
pub(crate) fn gothic_checkers(_: &mut Env) -> Built {
    let board = tile_board(8, 8).rows();
    let pawn_rows = pawns()
        .x([1, 8, 8, 1])
        .y([7, 7, 2, 2])
        .angle([180, 180, 0, 0])
        .rows();
    let die_rows = dice()
        .x([1, 8, 8, 1])
        .y([8, 8, 1, 1])
        .angle([180, 180, 0, 0])
        .rank(2)
        .rows();
    let men = coins()
        .back()
        .x(each(cat(&[&[2, 3, 4, 5, 6, 7], &[7, 6, 5, 4, 3, 2]]), 2))
        .y(cat(&[&times([8, 7], 6), &times([2, 1], 6)]))
        .angle(each([180, 0], 12))
        .rows();
    Ok(stack(vec![board, pawn_rows, die_rows, men]))
}

pub(crate) fn italian_checkers(_: &mut Env) -> Built {
    let board = tile_board(8, 8).rows();
    let men = coins()
        .back()
        .x([
            1, 3, 2, 4, 1, 3, 5, 7, 6, 8, 5, 7, 6, 8, 5, 7, 6, 8, 2, 4, 1, 3, 2, 4,
        ])
        .y(each([8, 7, 6, 8, 7, 6, 3, 2, 1, 3, 2, 1], 2))
        .angle(each([180, 0], 12))
        .rows();
    Ok(stack(vec![board, men]))
}

pub(crate) fn one_way_checkers(_: &mut Env) -> Built {
    let board = tile_board(8, 8).rows();
    let men = coins()
        .back()
        .x([
            6, 8, 5, 7, 6, 8, 5, 7, 6, 8, 5, 7, 1, 3, 2, 4, 1, 3, 2, 4, 1, 3, 2, 4,
        ])
        .y(each([6, 5, 4, 3, 2, 1, 1, 2, 3, 4, 5, 6], 2))
        .angle(each([180, 0], 12))
        .rows();
    Ok(stack(vec![board, men]))
}

pub(crate) fn thai_checkers(_: &mut Env) -> Built {
    let board = tile_board(8, 8).rows();
    let men = coins()
        .back()
        .suit(each(1..=4, 4))
        .rank(times(1..=4, 4))
        .x([2, 4, 1, 3, 6, 8, 5, 7, 6, 8, 5, 7, 2, 4, 1, 3])
        .y(each([8, 7, 8, 7, 2, 1, 2, 1], 2))
        .angle(each([180, 0], 8))
        .rows();
    Ok(stack(vec![board, men]))
}

pub(crate) fn turkish_checkers(_: &mut Env) -> Built {
    let board = tile_board(8, 8).rows();
    let pawn_rows = pawns()
        .x([1, 8, 8, 1])
        .y([6, 6, 3, 3])
        .angle([180, 180, 0, 0])
        .rows();
    let die_rows = dice()
        .x([1, 8, 8, 1])
        .y([7, 7, 2, 2])
        .angle([180, 180, 0, 0])
        .rank(2)
        .rows();
    let men = coins()
        .back()
        .x(each(cat(&[&[2, 3, 4, 5, 6, 7], &[7, 6, 5, 4, 3, 2]]), 2))
        .y(cat(&[&times([7, 6], 6), &times([3, 2], 6)]))
        .angle(each([180, 0], 12))
        .rows();
    Ok(stack(vec![board, pawn_rows, die_rows, men]))
}

pub(crate) fn twelve_three_four_five_ive(_: &mut Env) -> Built {
    let board = tile_board(14, 5).rows();
    let men = coins()
        .back()
        .x(times(1..=5, 2))
        .y(each([14, 1], 5))
        .suit(each([1, 2], 5))
        .rank(times(1..=5, 2))
        .angle(each([180, 0], 5))
        .rows();
    Ok(stack(vec![board, men]))
}

pub(crate) fn change_change(env: &mut Env) -> Built {
    let suits = match env.args.text("coins")? {
        Some(spec) => text::suits("coins", &spec, 11)?,
        None => {
            let pool = cat(&[&[1], &[2; 2], &[3; 4], &[4; 4]]);
            env.rng.shuffle(&pool)
        }
    };
    let mut men = coins()
        .back()
        .x(cat(&[&[1, 2, 3, 4], &[1, 2, 3, 4], &[1, 2, 3]]))
        .y(cat(&[&[3; 4], &[2; 4], &[1; 3]]))
        .suit(suits)
        .rank(UNDECIDED)
        .rows();
    fill_ranks(&mut men, &mut env.rng);
    Ok(men)
}

pub(crate) fn dao(_: &mut Env) -> Built {
    let board = tile_board(4, 4).rows();
    let men = coins()
        .back()
        .x(times(1..=4, 2))
        .y([4, 3, 2, 1, 1, 2, 3, 4])
        .suit(each([1, 2], 4))
        .rank(times(1..=4, 2))
        .angle(each([180, 0], 4))
        .rows();
    Ok(stack(vec![board, men]))
}

pub(crate) fn dodgem(env: &mut Env) -> Built {
    let nrows = env.args.integer("nrows")?.unwrap_or(6);
    if !(2..=12).contains(&nrows) {
        return Err(bad("nrows", "must be between 2 and 12"));
    }
    let variant = env.args.choice("variant", &["vout", "schoessow"])?;
    let n = nrows - 1;
    let (ranks, left, right): (Vec<i32>, Vec<i32>, Vec<i32>) = if n <= 6 {
        ((1..=n).collect(), vec![1; n as usize], vec![4; n as usize])
    } else {
        (
            cat(&[
                &(1..=6).collect::<Vec<_>>(),
                &(1..=n - 6).collect::<Vec<_>>(),
            ]),
            cat(&[&[1; 6], &vec![2; (n - 6) as usize]]),
            cat(&[&[4; 6], &vec![3; (n - 6) as usize]]),
        )
    };
    let ones = vec![1; n as usize];
    let (x, y, angle) = if variant == "vout" {
        (
            cat(&[&ones, &(2..=nrows).collect::<Vec<_>>()]),
            cat(&[&(2..=nrows).collect::<Vec<_>>(), &ones]),
            cat(&[&vec![270.0; n as usize], &vec![0.0; n as usize]]),
        )
    } else {
        (
            cat(&[&ones, &vec![nrows; n as usize]]),
            cat(&[
                &(1..=n).collect::<Vec<_>>(),
                &(2..=nrows).collect::<Vec<_>>(),
            ]),
            cat(&[&vec![270.0; n as usize], &vec![90.0; n as usize]]),
        )
    };
    let board = tile_board(nrows, nrows).try_rows()?;
    let men = coins()
        .back()
        .x(x)
        .y(y)
        .suit(cat(&[&left, &right]))
        .rank(cat(&[&ranks, &ranks]))
        .angle(angle)
        .rows();
    Ok(stack(vec![board, men]))
}

pub(crate) fn evade(_: &mut Env) -> Built {
    Ok(tile_board(6, 6).rows())
}

pub(crate) fn kings_valley(env: &mut Env) -> Built {
    let variant = env
        .args
        .choice("variant", &["standard", "retrieve the king"])?;
    let board = donut_board(1.5, 1.5).rows();
    let suns = coins()
        .back()
        .x([2, 4, 8, 10])
        .y(10)
        .suit(1)
        .rank(1..=4)
        .angle(180)
        .rows();
    let arms = coins()
        .back()
        .x([2, 4, 8, 10])
        .y(2)
        .suit(4)
        .rank(1..=4)
        .rows();
    let (sun_king_y, arms_king_y) = if variant == "standard" {
        (10, 2)
    } else {
        (2, 10)
    };
    let sun_king = pawns().suit(1).x(6).y(sun_king_y).angle(180).rows();
    let arms_king = pawns().suit(4).x(6).y(arms_king_y).rows();
    env.scale_factor = 2.0;
    Ok(stack(vec![board, suns, sun_king, arms, arms_king]))
}

pub(crate) fn leapfrog(_: &mut Env) -> Built {
    let board = tile_board(8, 6).rows();
    let men = coins()
        .back()
        .x(times(1..=6, 4))
        .y(each([8, 7, 2, 1], 6))
        .suit(each(1..=4, 6))
        .rank(times(1..=6, 4))
        .angle(each([180, 180, 0, 0], 6))
        .rows();
    Ok(stack(vec![board, men]))
}

pub(crate) fn grasshopper(_: &mut Env) -> Built {
    let board = tile_board(8, 8).rows();
    let men = coins()
        .back()
        .x([5, 6, 7, 8, 6, 7, 8, 7, 8, 8, 1, 1, 2, 1, 2, 3, 1, 2, 3, 4])
        .y([8, 8, 8, 8, 7, 7, 7, 6, 6, 5, 4, 3, 3, 2, 2, 2, 1, 1, 1, 1])
        .suit([1, 2, 1, 2, 1, 2, 1, 1, 2, 1, 3, 4, 3, 3, 4, 3, 4, 3, 4, 3])
        .rank([1, 1, 2, 2, 3, 3, 4, 5, 4, 6, 1, 1, 2, 3, 2, 4, 3, 5, 4, 6])
        .angle(each([180, 0], 10))
        .rows();
    Ok(stack(vec![board, men]))
}

pub(crate) fn lines_of_action(_: &mut Env) -> Built {
    let board = tile_board(8, 8).rows();
    let inner: Vec<i32> = (2..=7).collect();
    let men = coins()
        .back()
        .x(cat(&[&inner, &[8; 6], &inner, &[1; 6]]))
        .y(cat(&[&[8; 6], &inner, &[1; 6], &inner]))
        .suit(each([1, 3, 2, 4], 6))
        .rank(times(1..=6, 4))
        .angle(each([180, 90, 0, 270], 6))
        .rows();
    Ok(stack(vec![board, men]))
}

pub(crate) fn lukawan(_: &mut Env) -> Built {
    let board = tile_board(14, 6).rows();
    let men = coins()
        .back()
        .x(times(1..=6, 2))
        .y(each([14, 1], 6))
        .suit(each([1, 2], 6))
        .rank(times(1..=6, 2))
        .angle(each([180, 0], 6))
        .rows();
    Ok(stack(vec![board, men]))
}

pub(crate) fn quatri(_: &mut Env) -> Built {
    let board = tile_board(4, 4).rows();
    let men = coins()
        .back()
        .x(times(1..=4, 2))
        .y(each([4, 1], 4))
        .suit([1, 2, 1, 2, 2, 1, 2, 1])
        .rank([2, 2, 3, 3, 5, 5, 4, 4])
        .angle([180, 0, 180, 0, 0, 180, 0, 180])
        .rows();
    Ok(stack(vec![board, men]))
}

pub(crate) fn three_musketeers(_: &mut Env) -> Built {
    let board = tile_board(5, 5).rows();
    let musketeers = pawns().suit([4, 3, 1]).x([1, 3, 5]).y([1, 3, 5]).rows();
    // Every other cell, row by row, holds one of the cardinal's men.
    let mut x = times(1..=5, 5);
    x.truncate(24);
    x.remove(12);
    x.remove(0);
    let y = cat(&[&[1; 4], &[2; 5], &[3; 4], &[4; 5], &[5; 4]]);
    let men = coins()
        .x(x)
        .y(y)
        .suit(cat(&[&[1; 6], &[2; 6], &[3; 5], &[4; 5]]))
        .rank(cat(&[
            &(1..=6).collect::<Vec<_>>(),
            &(1..=6).collect::<Vec<_>>(),
            &(1..=5).collect::<Vec<_>>(),
            &(1..=5).collect::<Vec<_>>(),
        ]))
        .rows();
    Ok(stack(vec![board, musketeers, men]))
}
