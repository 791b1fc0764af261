//! Setups of original piecepack games.

use crate::engine::piece::{PieceKind, Side};
use crate::engine::setups::args::bad;
use crate::engine::setups::frame::{
    cat, coins, dice, each, fill_ranks, pawns, plus, seq_by, stack, tiles, times, Row, UNDECIDED,
};
use crate::engine::setups::{Env, SetupError};

use super::boards::{donut_board, tile_board};
use super::text;

fn tiles_at(specs: &[text::TileSpec], x: Vec<f64>, y: Vec<f64>) -> Vec<Row> {
    tiles()
        .suit(specs.iter().map(|t| t.suit).collect::<Vec<_>>())
        .rank(specs.iter().map(|t| t.rank).collect::<Vec<_>>())
        .angle(specs.iter().map(|t| t.angle).collect::<Vec<_>>())
        .x(x)
        .y(y)
        .count(specs.len())
        .rows()
}

/// Four dice ranks from a `Dice` argument, or rolled.
fn dice_ranks(env: &mut Env) -> Result<Vec<i32>, SetupError> {
    match env.args.text("dice")? {
        Some(spec) => text::ranks("dice", &spec),
        None => Ok(env
            .rng
            .sample_with_replacement(6, 4)
            .into_iter()
            .map(|r| r as i32)
            .collect()),
    }
}

pub(crate) fn alien_city(env: &mut Env) -> Result<Vec<Row>, SetupError> {
    let specs = match env.args.text("tiles")? {
        Some(spec) => text::tiles(&spec, 20, &mut env.rng)?,
        None => {
            // Twenty tiles (no nulls) each turned a random way, then shuffled.
            let angles = env.rng.sample_with_replacement(4, 20);
            let turned: Vec<text::TileSpec> = (0..20)
                .map(|i| text::TileSpec {
                    suit: i as i32 / 5 + 1,
                    rank: i as i32 % 5 + 2,
                    angle: 90.0 * (angles[i] - 1) as f64,
                })
                .collect();
            env.rng.shuffle(&turned)
        }
    };
    let x = plus(times([1, 3, 5, 7], 5), 0.5);
    let y = plus(each([9, 7, 5, 3, 1], 4), 0.5);
    Ok(tiles_at(&specs, x, y))
}

pub(crate) fn desfases(env: &mut Env) -> Result<Vec<Row>, SetupError> {
    // A 5x5 grid of tiles three units apart, without the centre one.
    let grid = seq_by(3.0, 3.0, 5);
    let mut x = times(grid.clone(), 5);
    let mut y = each(grid, 5);
    x.remove(12);
    y.remove(12);
    let specs = match env.args.text("tiles")? {
        Some(spec) => text::tiles(&spec, 24, &mut env.rng)?,
        None => {
            let all: Vec<(i32, i32)> = (1..=6)
                .flat_map(|rank| (1..=4).map(move |suit| (suit, rank)))
                .collect();
            env.rng
                .shuffle(&all)
                .into_iter()
                .map(|(suit, rank)| text::TileSpec {
                    suit,
                    rank,
                    angle: f64::from(((suit + 1) * -90).rem_euclid(360)),
                })
                .collect()
        }
    };
    let board = tiles_at(&specs, x, y);
    let mut coin_rows = coins()
        .x(cat(&[
            &[14, 13, 12, 11, 10, 9],
            &[17; 6],
            &[4, 5, 6, 7, 8, 9],
            &[1; 6],
        ]))
        .y(cat(&[
            &[17; 6],
            &[4, 5, 6, 7, 8, 9],
            &[1; 6],
            &[14, 13, 12, 11, 10, 9],
        ]))
        .angle(each([180, 90, 0, -90], 6))
        .rows();
    let rolled = dice_ranks(env)?;
    let die_rows = dice()
        .x([7, 17, 11, 1])
        .y([17, 11, 1, 7])
        .angle([180, 90, 0, -90])
        .rank(rolled.clone())
        .rows();
    let mut pawn_rows: Vec<Row> = die_rows
        .iter()
        .map(|d| Row {
            kind: PieceKind::Pawn,
            rank: Some(1),
            ..d.clone()
        })
        .collect();
    // Each suit's coin of the rolled rank hides under its die, and its pawn
    // stands on the tile of that suit and rank.
    for (i, &rank) in rolled.iter().enumerate().take(4) {
        let suit = i as i32 + 1;
        for coin in coin_rows
            .iter_mut()
            .filter(|c| c.rank == Some(rank) && c.suit == Some(suit))
        {
            coin.side = Side::Back;
            coin.x = die_rows[i].x;
            coin.y = die_rows[i].y;
        }
        if let Some(tile) = board
            .iter()
            .find(|t| t.rank == Some(rank) && t.suit == Some(suit))
        {
            pawn_rows[i].x = tile.x;
            pawn_rows[i].y = tile.y;
        }
    }
    env.scale_factor = 3.0;
    Ok(stack(vec![board, coin_rows, die_rows, pawn_rows]))
}

/// Positions of the fujisan coins by ranks (0 = null .. 5), two rows of twelve.
fn fujisan_needs_dice(top: &[i32], bottom: &[i32]) -> bool {
    // Some coin of rank r one move from either end means the first move is forced.
    let reachable =
        |r: i32, i: usize, j: usize| [top[i], top[j], bottom[i], bottom[j]].contains(&r);
    !(reachable(1, 0, 11)
        || reachable(2, 1, 10)
        || reachable(3, 2, 9)
        || reachable(4, 3, 8)
        || reachable(5, 4, 7))
}

pub(crate) fn fujisan(env: &mut Env) -> Result<Vec<Row>, SetupError> {
    let coin_ranks: Vec<i32> = match env.args.text("coins")? {
        Some(spec) => text::ranks("coins", &spec)?
            .into_iter()
            .map(|r| r - 1)
            .collect(),
        None => {
            let mut values = vec![0; 24];
            for remainder in [0, 1, 2, 3] {
                let shuffled = env.rng.shuffle(&[0, 1, 2, 3, 4, 5]);
                let slots = (1..=24).filter(|i| i % 4 == remainder);
                for (slot, value) in slots.zip(shuffled) {
                    values[slot - 1] = value;
                }
            }
            values
        }
    };
    if coin_ranks.len() != 24 {
        return Err(bad("coins", "expected 24 coin ranks"));
    }
    let (top, bottom) = coin_ranks.split_at(12);
    let board = tiles()
        .back()
        .y(1.5)
        .x(plus(
            cat(&[
                &[1, 3, 5, 7, 9, 11],
                &[2, 4, 6, 8, 10],
                &[3, 5, 7, 9],
                &[4, 6, 8, 5, 7, 5, 7, 6, 6],
            ]),
            1.5,
        ))
        .rows();
    let coin_rows = coins()
        .x(times(2..=13, 2))
        .y(each([1, 2], 12))
        .suit((0..24).rev().map(|i| i % 4 + 1).collect::<Vec<_>>())
        .rank(
            [bottom, top]
                .concat()
                .into_iter()
                .map(|r| r + 1)
                .collect::<Vec<_>>(),
        )
        .rows();
    let pawn_text = env
        .args
        .text("pawns")?
        .unwrap_or_else(|| "S12M/A12C".to_string());
    let placed = super::fen::placements(&pawn_text);
    let pawn_suits = placed
        .iter()
        .map(|p| text::suit_of(p.symbol).ok_or_else(|| bad("pawns", "unknown suit")))
        .collect::<Result<Vec<_>, _>>()?;
    let pawn_rows = pawns()
        .suit(pawn_suits)
        .x(placed.iter().map(|p| p.x).collect::<Vec<_>>())
        .y(placed.iter().map(|p| p.y).collect::<Vec<_>>())
        .count(placed.len())
        .rows();
    let mut parts = vec![board, coin_rows, pawn_rows];
    if fujisan_needs_dice(top, bottom) {
        parts.push(
            dice()
                .x([16, 17, 16, 17])
                .y([2, 2, 1, 1])
                .suit([1, 2, 4, 3])
                .rank(dice_ranks(env)?)
                .rows(),
        );
    }
    Ok(stack(parts))
}

pub(crate) fn ice_floe(env: &mut Env) -> Result<Vec<Row>, SetupError> {
    let specs = text::tiles(
        "S2S3CaM2M3/S4S5AaM4M5/MnCnSnAn/A2A3MaC2C3/A4A5SaC4C5",
        24,
        &mut env.rng,
    )?;
    Ok(donut_board(1.0, 1.0)
        .face()
        .suit(specs.iter().map(|t| t.suit).collect::<Vec<_>>())
        .rank(specs.iter().map(|t| t.rank).collect::<Vec<_>>())
        .angle(specs.iter().map(|t| t.angle).collect::<Vec<_>>())
        .rows())
}

pub(crate) fn japan(env: &mut Env) -> Result<Vec<Row>, SetupError> {
    let x = plus(cat(&[&each([1, 5, 9, 13], 3), &each([3, 7, 11], 4)]), 0.5);
    let y = plus(cat(&[&times([2, 4, 6], 4), &times([1, 3, 5, 7], 3)]), 0.5);
    let board = tiles().back().x(x.clone()).y(y.clone()).rows();
    // Candidate coin spots: the four quarters of every tile, corner by corner.
    let mut spots: Vec<(f64, f64)> = Vec::new();
    for (dx, dy) in [(-0.5, -0.5), (-0.5, 0.5), (0.5, -0.5), (0.5, 0.5)] {
        spots.extend(x.iter().zip(&y).map(|(x, y)| (x + dx, y + dy)));
    }
    // 24 coins, none orthogonally next to another.
    let mut chosen = Vec::new();
    for _ in 0..24 {
        if spots.is_empty() {
            break;
        }
        let (cx, cy) = spots[env.rng.unif_index(spots.len())];
        chosen.push((cx, cy));
        spots.retain(|&(sx, sy)| {
            let same = sx == cx && sy == cy;
            let neighbour = (sx == cx && (sy == cy + 1.0 || sy == cy - 1.0))
                || (sy == cy && (sx == cx + 1.0 || sx == cx - 1.0));
            !(same || neighbour)
        });
    }
    let coin_rows = coins()
        .x(chosen.iter().map(|c| c.0).collect::<Vec<_>>())
        .y(chosen.iter().map(|c| c.1).collect::<Vec<_>>())
        .rows();
    Ok(stack(vec![board, coin_rows]))
}

pub(crate) fn plans_of_action(env: &mut Env) -> Result<Vec<Row>, SetupError> {
    let board = tile_board(8, 8).rows();
    let suits = match env.args.text("coins")? {
        Some(spec) => text::suits("coins", &spec)?,
        None => env.rng.shuffle(&times(1..=4, 6)),
    };
    let mut coin_rows = coins()
        .back()
        .suit(suits)
        .x(times(2..=7, 4))
        .y(each([6, 5, 4, 3], 6))
        .rank(UNDECIDED)
        .rows();
    fill_ranks(&mut coin_rows, &mut env.rng);
    Ok(stack(vec![board, coin_rows]))
}

pub(crate) fn relativity(env: &mut Env) -> Result<Vec<Row>, SetupError> {
    let board = tile_board(4, 6).rows();
    let ranks = match env.args.text("coins")? {
        Some(spec) => text::ranks("coins", &spec)?,
        None => {
            let deal = |rng: &mut crate::engine::rng::RRng| -> Vec<i32> {
                (0..4)
                    .flat_map(|_| rng.permutation(6))
                    .map(|r| r as i32)
                    .collect()
            };
            let mut ranks = deal(&mut env.rng);
            // Re-deal when the corner pattern would make the puzzle trivial.
            while ranks[5] == ranks[3] && ranks[3] == ranks[2] && ranks[2] == ranks[0] {
                ranks = deal(&mut env.rng);
            }
            [0..3, 6..9, 3..6, 9..12, 12..15, 18..21, 15..18, 21..24]
                .into_iter()
                .flat_map(|range| ranks[range].to_vec())
                .collect()
        }
    };
    let coin_rows = coins()
        .rank(ranks)
        .x(times(1..=6, 4))
        .y(each([4, 3, 2, 1], 6))
        .suit(each([1, 2, 1, 2, 4, 3, 4, 3], 3))
        .rows();
    Ok(stack(vec![board, coin_rows]))
}
