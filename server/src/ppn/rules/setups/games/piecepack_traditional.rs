//! Setups of traditional games played with a piecepack.

use crate::model::piece::{PieceKind, Side};
use crate::ppn::rules::setups::env::Env;
use crate::ppn::rules::setups::error::SetupError;
use crate::ppn::rules::setups::frame::{
    cat, coins, dice, each, fill_ranks, matchsticks, pawns, plus, seq_by, seq_to, stack, tiles,
    times, Group, Row, UNDECIDED,
};

use crate::ppn::rules::setups::games::boards::{donut_board, tile_board};

type Built = Result<Vec<Row>, SetupError>;

pub(crate) fn achi(_: &mut Env) -> Built {
    Ok(tile_board(3, 3).rows())
}

/// Matchsticks drawing the diagonals of an alquerque board.
fn alquerque_diagonals() -> Vec<Row> {
    matchsticks()
        .back()
        .suit(each(1..=4, 4))
        .rank(2)
        .x(plus([1, 2, 2, 1, 3, 4, 4, 3, 3, 4, 4, 3, 1, 2, 2, 1], 0.5))
        .y(plus([4, 4, 3, 3, 4, 4, 3, 3, 2, 2, 1, 1, 2, 2, 1, 1], 0.5))
        .angle(times([45, -45, -135, 135], 4))
        .rows()
}

pub(crate) fn alquerque(env: &mut Env) -> Built {
    let board = tile_board(5, 5).rows();
    let men = coins()
        .back()
        .suit(cat(&[&times([1, 2], 6), &times([3, 4], 6)]))
        .rank(each(times(1..=6, 2), 2))
        .x(cat(&[&times(1..=5, 2), &[1, 2, 4, 5], &times(1..=5, 2)]))
        .y(cat(&[&each([5, 4], 5), &[3; 4], &each([2, 1], 5)]))
        .angle(each([180, 0], 12))
        .rows();
    if env.args.flag("has_matchsticks")?.unwrap_or(false) {
        Ok(stack(vec![board, alquerque_diagonals(), men]))
    } else {
        Ok(stack(vec![board, men]))
    }
}

pub(crate) fn awithlaknannai_mosona(env: &mut Env) -> Built {
    let r2 = std::f64::consts::SQRT_2;
    let scaled = |v: Vec<f64>| v.into_iter().map(|v| r2 * v).collect::<Vec<f64>>();
    let board = tiles()
        .suit(times(1..=4, 2))
        .rank(each([1, 2], 4))
        .x(plus(scaled(seq_by(1.0, 2.0, 8)), r2))
        .y(2.0 * r2)
        .angle(each([45, -45], 4))
        .rows();
    let men = coins()
        .back()
        .suit(cat(&[&times([1, 2], 6), &times([3, 4], 6)]))
        .rank(each(times(1..=6, 2), 2))
        .x(scaled(cat(&[
            &seq_by(2.0, 2.0, 8),
            &seq_by(17.0, -2.0, 4),
            &seq_by(1.0, 2.0, 4),
            &seq_by(2.0, 2.0, 8),
        ])))
        .y(scaled(each([3.0, 2.0, 1.0], 8)))
        .angle(each([180, 0], 12))
        .rows();
    if env.args.flag("has_matchsticks")?.unwrap_or(false) {
        let outer = matchsticks()
            .back()
            .suit(cat(&[&times([1, 2], 4)[..7], &times([3, 4], 4)[..7]]))
            .rank(5)
            .angle(90)
            .x(scaled(times(seq_by(3.0, 2.0, 7), 2)))
            .y(scaled(each([3.0, 1.0], 7)))
            .rows();
        let middle = matchsticks()
            .back()
            .suit(times(1..=4, 2))
            .rank(4)
            .angle(90)
            .x(scaled(seq_by(2.0, 2.0, 8)))
            .y(scaled(vec![2.0; 8]))
            .rows();
        Ok(stack(vec![board, outer, middle, men]))
    } else {
        Ok(stack(vec![board, men]))
    }
}

pub(crate) fn backgammon(env: &mut Env) -> Built {
    let (top, bottom) = (5.0, 1.0);
    let (point1, point6, point12, point8) = (25.0, 15.0, 1.0, 9.0);
    let alternating =
        |base: i32, offset: i32| -> Vec<i32> { (1..=6).map(|i| base + (i + offset) % 2).collect() };
    let board = tiles()
        .suit(cat(&[
            &alternating(3, 0),
            &alternating(3, 1),
            &alternating(1, 1),
            &alternating(1, 0),
        ]))
        .rank(times([2, 3, 4, 5, 6, 1], 4))
        .x(cat(&[
            &(1..=6).map(|i| 27 - 2 * i).collect::<Vec<_>>(),
            &(1..=6).map(|i| 13 - 2 * i).collect::<Vec<_>>(),
            &(1..=6).map(|i| 27 - 2 * i).collect::<Vec<_>>(),
            &(1..=6).map(|i| 13 - 2 * i).collect::<Vec<_>>(),
        ]))
        .y(each([bottom, bottom, top, top], 6))
        .angle(each([0, 0, 180, 180], 6))
        .rows();
    // Checkers as (x, y, suit): white's on the bottom side, black's on top.
    let white: [(f64, f64, i32); 12] = [
        (point6 + 0.5, bottom + 0.5, 4),
        (point6 + 0.5, bottom - 0.5, 4),
        (point6 - 0.5, bottom + 0.5, 4),
        (point6 - 0.5, bottom - 0.5, 4),
        (point12 + 0.5, top + 0.5, 3),
        (point12 + 0.5, top - 0.5, 3),
        (point12 - 0.5, top + 0.5, 3),
        (point12 - 0.5, top - 0.5, 3),
        (point12, top, 3),
        (point8 + 0.5, bottom - 0.5, 4),
        (point8 - 0.5, bottom + 0.5, 4),
        (point8 + 0.5, bottom + 0.5, 3),
    ];
    let black: [(f64, f64, i32); 12] = [
        (point6 + 0.5, top + 0.5, 1),
        (point6 + 0.5, top - 0.5, 1),
        (point6 - 0.5, top + 0.5, 1),
        (point6 - 0.5, top - 0.5, 1),
        (point12 + 0.5, bottom + 0.5, 2),
        (point12 + 0.5, bottom - 0.5, 2),
        (point12 - 0.5, bottom + 0.5, 2),
        (point12 - 0.5, bottom - 0.5, 2),
        (point12, bottom, 2),
        (point8 + 0.5, top - 0.5, 1),
        (point8 - 0.5, top + 0.5, 1),
        (point8 - 0.5, top - 0.5, 2),
    ];
    let checkers = |set: &[(f64, f64, i32)], angle: f64| {
        coins()
            .back()
            .x(set.iter().map(|c| c.0).collect::<Vec<_>>())
            .y(set.iter().map(|c| c.1).collect::<Vec<_>>())
            .suit(set.iter().map(|c| c.2).collect::<Vec<_>>())
            .rank(UNDECIDED)
            .angle(angle)
            .rows()
    };
    let mut men = stack(vec![checkers(&white, 0.0), checkers(&black, 180.0)]);
    fill_ranks(&mut men, &mut env.rng);
    let pawn_rows = pawns()
        .suit([4, 3, 2, 1])
        .x(plus([-0.5, 0.5, -0.5, 0.5], point1))
        .y([top + 0.5, top - 0.5, bottom + 0.5, bottom - 0.5])
        .angle([0, 0, 180, 180])
        .rows();
    let die_rows = dice()
        .suit([4, 1, 3, 2])
        .rank([1, 1, 2, 2])
        .x([point6, point6, 6.0, 7.0])
        .y([bottom, top, bottom + 2.0, bottom + 2.0])
        .angle([0, 180, 0, 180])
        .rows();
    Ok(stack(vec![board, men, pawn_rows, die_rows]))
}

pub(crate) fn baghchal(env: &mut Env) -> Built {
    let board = tile_board(5, 5).rows();
    let tigers = pawns().x([1, 5, 5, 1]).y([5, 5, 1, 1]).angle(180).rows();
    if env.args.flag("has_matchsticks")?.unwrap_or(false) {
        Ok(stack(vec![board, alquerque_diagonals(), tigers]))
    } else {
        Ok(stack(vec![board, tigers]))
    }
}

pub(crate) fn brandubh(_: &mut Env) -> Built {
    let board = tile_board(7, 7).rows();
    let piece = |kind: PieceKind, side: Side, suit: i32, rank: i32, x: f64, y: f64, angle: f64| {
        Group::new(kind, side)
            .suit(suit)
            .rank(rank)
            .x(x)
            .y(y)
            .angle(angle)
            .rows()
    };
    let (coin, die, pawn) = (PieceKind::Coin, PieceKind::Die, PieceKind::Pawn);
    let corners_and_throne = stack(vec![
        piece(coin, Side::Back, 3, 1, 1.0, 1.0, 0.0),
        piece(coin, Side::Back, 3, 3, 1.0, 7.0, 180.0),
        piece(coin, Side::Back, 3, 4, 7.0, 1.0, 0.0),
        piece(coin, Side::Back, 3, 6, 7.0, 7.0, 180.0),
        piece(die, Side::Face, 3, 2, 4.0, 4.0, 0.0),
    ]);
    let defenders = stack(vec![
        piece(coin, Side::Back, 4, 1, 4.0, 5.0, 180.0),
        piece(coin, Side::Back, 4, 3, 5.0, 4.0, 90.0),
        piece(coin, Side::Back, 4, 4, 4.0, 3.0, 0.0),
        piece(coin, Side::Back, 4, 6, 3.0, 4.0, 270.0),
        piece(pawn, Side::Face, 4, 1, 4.0, 4.0, 0.0),
    ]);
    let attackers = coins()
        .x([4, 4, 7, 6, 4, 4, 1, 2])
        .y([7, 6, 4, 4, 1, 2, 4, 4])
        .suit(each(1..=4, 2))
        .rank(times([2, 5], 4))
        .angle(each([180, 90, 0, 270], 2))
        .rows();
    Ok(stack(vec![board, corners_and_throne, defenders, attackers]))
}

pub(crate) fn cribbage(_: &mut Env) -> Built {
    let left = tile_board(30, 3).at(1.0, 3.0).max_tiles(12).rows();
    let right = tile_board(30, 3).at(6.0, 3.0).max_tiles(12).rows();
    let mut board = stack(vec![left, right]);
    for (i, tile) in board.iter_mut().enumerate() {
        tile.suit = Some(i as i32 / 6 + 1);
        tile.rank = Some(i as i32 % 6 + 1);
    }
    let pegs = coins()
        .rank(times(each(1..=6, 2), 2))
        .suit(cat(&[&times([1, 2], 6), &times([3, 4], 6)]))
        .x(each([2, 7], 12))
        .y(times([3, 7, 8, 12, 13, 17, 18, 22, 23, 27, 28, 32], 2))
        .rows();
    let pawn_rows = pawns().x([1, 3, 6, 8]).y(1).rows();
    let die_rows = dice().x([2, 7]).y(1).suit([1, 3]).rows();
    Ok(stack(vec![board, pegs, pawn_rows, die_rows]))
}

pub(crate) fn dara(_: &mut Env) -> Built {
    Ok(tile_board(5, 6).rows())
}

pub(crate) fn four_field_kono(_: &mut Env) -> Built {
    let board = tile_board(4, 4).rows();
    let men = coins()
        .back()
        .suit(each(1..=4, 4))
        .rank(times(3..=6, 4))
        .x(times([1, 2, 1, 2, 3, 4, 3, 4, 3, 4, 3, 4, 1, 2, 1, 2], 1))
        .y(each([4, 3, 4, 3, 2, 1, 2, 1], 2))
        .angle(each([180, 0], 8))
        .rows();
    Ok(stack(vec![board, men]))
}

pub(crate) fn julgonu(_: &mut Env) -> Built {
    let board = tile_board(4, 4).rows();
    let men = coins()
        .back()
        .suit(each([1, 2], 4))
        .rank(times(3..=6, 2))
        .x(times(1..=4, 2))
        .y(each([1, 4], 4))
        .angle(each([180, 0], 4))
        .rows();
    Ok(stack(vec![board, men]))
}

pub(crate) fn ludo(_: &mut Env) -> Built {
    let track = tiles()
        .back()
        .x([2, 5, 11, 14, 8, 8, 8, 8])
        .y([8, 8, 8, 8, 2, 5, 11, 14])
        .suit(each(1..=4, 2))
        .rank(times([5, 6], 4))
        .rows();
    let offset = 0.5 + std::f64::consts::SQRT_2;
    let home_x = [2.0, 9.0 + offset, 14.0, 7.0 - offset];
    let home_y = [9.0 + offset, 14.0, 7.0 - offset, 2.0];
    let home_angle = [135.0, 45.0, -45.0, -135.0];
    let homes = tiles()
        .suit(1..=4)
        .rank(2)
        .x(home_x)
        .y(home_y)
        .angle(home_angle)
        .rows();
    let half_diagonal = 0.5 * std::f64::consts::SQRT_2;
    let dx = [-half_diagonal, 0.0, half_diagonal, 0.0];
    let dy = [0.0, half_diagonal, 0.0, -half_diagonal];
    let men = coins()
        .back()
        .x((0..16)
            .map(|i| home_x[i / 4] + dx[i % 4])
            .collect::<Vec<_>>())
        .y((0..16)
            .map(|i| home_y[i / 4] + dy[i % 4])
            .collect::<Vec<_>>())
        .suit(each(1..=4, 4))
        .rank(times(1..=4, 4))
        .angle(
            (0..16)
                .map(|i| home_angle[i / 4] + 45.0)
                .collect::<Vec<_>>(),
        )
        .rows();
    let pawn_rows = pawns()
        .x(plus([-0.25, 7.5, 15.25, 7.5], 0.5))
        .y(plus([7.5, 15.25, 7.5, -0.25], 0.5))
        .angle([-90, 180, 90, 0])
        .rows();
    let die_rows = dice()
        .x([5, 11, 11, 5])
        .y([11, 11, 5, 5])
        .rank(2)
        .angle([-90, 180, 90, 0])
        .rows();
    Ok(stack(vec![track, homes, men, pawn_rows, die_rows]))
}

pub(crate) fn nine_mens_morris(env: &mut Env) -> Built {
    let board = tiles()
        .x([
            7, 1, 7, 3, 7, 5, 13, 13, 11, 11, 9, 9, 7, 13, 7, 11, 7, 9, 1, 1, 3, 3, 5, 5,
        ])
        .y([
            13, 13, 11, 11, 9, 9, 7, 13, 7, 11, 7, 9, 1, 1, 3, 3, 5, 5, 7, 1, 7, 3, 7, 5,
        ])
        .rows();
    if !env.args.flag("has_matchsticks")?.unwrap_or(false) {
        return Ok(board);
    }
    let lines = matchsticks()
        .rank(4)
        .x([
            1, 1, 3, 3, 5, 5, 9, 9, 11, 11, 13, 13, 9, 9, 11, 11, 13, 13, 1, 1, 3, 3, 5, 5,
        ])
        .y([
            9, 11, 9, 13, 13, 11, 11, 13, 13, 9, 11, 9, 3, 1, 1, 5, 5, 3, 3, 5, 5, 1, 1, 3,
        ])
        .angle(each([0, 90, 90, 0, 90, 0, 0, 90], 3))
        .rows();
    Ok(stack(vec![board, lines]))
}

pub(crate) fn salta(env: &mut Env) -> Built {
    salta_with(env, false)
}

pub(crate) fn salta_with(env: &mut Env, has_subpack: bool) -> Built {
    let has_subpack = has_subpack || env.args.flag("has_subpack")?.unwrap_or(false);
    let board = if has_subpack {
        donut_board(1.0, 1.0).rows()
    } else {
        tile_board(10, 10).rows()
    };
    let stars = coins()
        .rank(cat(&[&[2, 3, 4, 5, 6], &[6, 5, 4, 3, 2]]))
        .suit([2, 1, 1, 2, 1, 3, 3, 4, 4, 3])
        .x(cat(&[&seq_to(1, 9, 2), &seq_to(2, 10, 2)]))
        .y(each([1, 10], 5))
        .angle(each([0, 180], 5))
        .rows();
    if has_subpack {
        let subpack = tiles()
            .cfg("subpack")
            .suit(each([2, 1, 3, 4], 5))
            .rank(times(2..=6, 4))
            .x(cat(&[
                &seq_to(2, 10, 2),
                &seq_to(1, 9, 2),
                &seq_to(10, 2, -2),
                &seq_to(9, 1, -2),
            ]))
            .y(each([2, 3, 8, 9], 5))
            .angle(each([0, 180], 10))
            .rows();
        let centre = tiles()
            .back()
            .cfg("subpack")
            .suit(1..=4)
            .rank(1)
            .x([5, 5, 6, 6])
            .y([5, 6, 5, 6])
            .rows();
        return Ok(stack(vec![board, centre, stars, subpack]));
    }
    let moons = coins()
        .back()
        .suit([1, 2, 3, 4, 4, 3, 2, 1])
        .rank(times(2..=5, 2))
        .x(cat(&[&seq_to(2, 8, 2), &seq_to(3, 9, 2)]))
        .y(each([2, 9], 4))
        .angle(each([0, 180], 4))
        .rows();
    let more = coins()
        .rank([1, 1, 6, 1, 1, 6])
        .suit([1, 2, 2, 3, 4, 4])
        .x([10, 9, 9, 1, 2, 2])
        .y([2, 3, 3, 9, 8, 8])
        .angle(each([0, 180], 3))
        .rows();
    let die_rows = dice().rank(2..=5).x(seq_to(1, 7, 2)).y(3).rows();
    let pawn_rows = pawns().x(seq_to(10, 4, -2)).y(8).angle(180).rows();
    Ok(stack(vec![board, stars, moons, more, die_rows, pawn_rows]))
}

pub(crate) fn seega(_: &mut Env) -> Built {
    Ok(tile_board(5, 5).rows())
}

pub(crate) fn tablan(_: &mut Env) -> Built {
    let board = tile_board(4, 12).rows();
    let men = coins()
        .back()
        .x(cat(&[
            &(1..=12).collect::<Vec<_>>(),
            &(1..=12).rev().collect::<Vec<_>>(),
        ]))
        .y(each([4, 1], 12))
        .angle(each([180, 0], 12))
        .rows();
    Ok(stack(vec![board, men]))
}

pub(crate) fn tablut(env: &mut Env) -> Built {
    let board = tile_board(9, 9).rows();
    let attackers = coins()
        .rank(times(3..=6, 4))
        .suit(each(1..=4, 4))
        .x([5, 4, 5, 6, 5, 6, 5, 4, 2, 1, 1, 1, 8, 9, 9, 9])
        .y([2, 1, 1, 1, 8, 9, 9, 9, 5, 6, 5, 4, 5, 4, 5, 6])
        .angle(each([0, 180, -90, 90], 4))
        .rows();
    let defenders = coins()
        .back()
        .suit(each(1..=4, 2))
        .rank(times([1, 2], 4))
        .x([5, 5, 6, 7, 5, 5, 4, 3])
        .y([6, 7, 5, 5, 4, 3, 5, 5])
        .angle(each([0, -90, 180, 90], 2))
        .rows();
    // A wide die hides the throne alone; narrow dice share it four ways.
    let die_width = env.args.number("die_width")?.unwrap_or(0.63);
    let throne = if 0.5 < die_width {
        dice().suit(3).rank(1).x(5).y(5).rows()
    } else {
        dice()
            .rank(1)
            .x([4.75, 5.25, 5.25, 4.75])
            .y([5.25, 5.25, 4.75, 4.75])
            .angle([0, -90, 180, 90])
            .rows()
    };
    let king = pawns().suit(3).x(5).y(5).rows();
    Ok(stack(vec![board, attackers, defenders, throne, king]))
}

pub(crate) fn tic_tac_toe(_: &mut Env) -> Built {
    Ok(tile_board(3, 3).rows())
}

pub(crate) fn yote(_: &mut Env) -> Built {
    Ok(tile_board(5, 6).rows())
}
