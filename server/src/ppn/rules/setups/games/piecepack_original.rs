//! Setups of original piecepack games.

use crate::model::piece::{PieceKind, Side};
use crate::ppn::rules::setups::args::bad;
use crate::ppn::rules::setups::env::Env;
use crate::ppn::rules::setups::error::SetupError;
use crate::ppn::rules::setups::frame::{
    cat, coins, dice, each, fill_ranks, fill_suits, matchsticks, pawns, plus, sample_values,
    seq_by, seq_to, shuffle_identities, shuffle_identities_and_sides, stack, tiles, times, Group,
    Row, UNDECIDED,
};

use crate::ppn::rules::setups::games::boards::{donut_board, tile_board};
use crate::ppn::rules::setups::games::text;

type Built = Result<Vec<Row>, SetupError>;

/// Tiles as given by a `Tiles` argument, else all 24 in random order, upright.
fn tiles_argument(env: &mut Env, count: usize) -> Result<Vec<text::TileSpec>, SetupError> {
    match env.args.text("tiles")? {
        Some(spec) => text::tiles(&spec, count, &mut env.rng),
        None => {
            let all: Vec<text::TileSpec> = (1..=4)
                .flat_map(|suit| {
                    (1..=6).map(move |rank| text::TileSpec {
                        suit,
                        rank,
                        angle: 0.0,
                    })
                })
                .collect();
            Ok(env.rng.shuffle(&all))
        }
    }
}

/// The donut of tiles, faces given by the `Tiles` argument (or random).
fn donut_of(env: &mut Env, x0: f64, y0: f64, side: Side) -> Result<Vec<Row>, SetupError> {
    let specs = tiles_argument(env, 24)?;
    Ok(donut_board(x0, y0)
        .side(side)
        .suit(specs.iter().map(|t| t.suit).collect::<Vec<_>>())
        .rank(specs.iter().map(|t| t.rank).collect::<Vec<_>>())
        .angle(specs.iter().map(|t| t.angle).collect::<Vec<_>>())
        .rows())
}

/// Copies of some pieces as another kind (e.g. a pawn on a tile).
fn as_kind(rows: &[Row], kind: PieceKind, side: Side) -> Vec<Row> {
    rows.iter()
        .map(|r| Row {
            kind,
            side,
            ..r.clone()
        })
        .collect()
}

fn permutation_i32(env: &mut Env, n: usize) -> Vec<i32> {
    env.rng
        .permutation(n)
        .into_iter()
        .map(|v| v as i32)
        .collect()
}

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
        Some(spec) => text::ranks("dice", &spec, 4),
        None => Ok(dice_ranks_rolled(env)),
    }
}

pub(crate) fn alien_city(env: &mut Env) -> Built {
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

pub(crate) fn desfases(env: &mut Env) -> Built {
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

/// Whether the first move needs dice: it does unless some coin of rank r
/// (0 = null .. 5) lies r steps in from either end of the two rows of twelve.
fn fujisan_needs_dice(top: &[i32], bottom: &[i32]) -> bool {
    let reachable =
        |r: i32, i: usize, j: usize| [top[i], top[j], bottom[i], bottom[j]].contains(&r);
    !(reachable(1, 0, 11)
        || reachable(2, 1, 10)
        || reachable(3, 2, 9)
        || reachable(4, 3, 8)
        || reachable(5, 4, 7))
}

pub(crate) fn fujisan(env: &mut Env) -> Built {
    let coin_ranks: Vec<i32> = match env.args.text("coins")? {
        Some(spec) => text::ranks("coins", &spec, 24)?
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
    let placed = crate::ppn::rules::setups::games::fen::placements(&pawn_text);
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

pub(crate) fn ice_floe(env: &mut Env) -> Built {
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

pub(crate) fn japan(env: &mut Env) -> Built {
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

pub(crate) fn plans_of_action(env: &mut Env) -> Built {
    let board = tile_board(8, 8).rows();
    let suits = match env.args.text("coins")? {
        Some(spec) => text::suits("coins", &spec, 24)?,
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

pub(crate) fn relativity(env: &mut Env) -> Built {
    let board = tile_board(4, 6).rows();
    let ranks = match env.args.text("coins")? {
        Some(spec) => text::ranks("coins", &spec, 24)?,
        None => {
            let deal = |rng: &mut crate::ppn::rules::rng::RRng| -> Vec<i32> {
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

pub(crate) fn chinese_checkers(_: &mut Env) -> Built {
    let board = tile_board(8, 8).rows();
    let men = coins()
        .back()
        .x([
            1, 2, 3, 1, 2, 1, 6, 7, 8, 7, 8, 8, 8, 7, 8, 6, 7, 8, 1, 1, 2, 1, 2, 3,
        ])
        .y([
            8, 8, 8, 7, 7, 6, 8, 8, 8, 7, 7, 6, 3, 2, 2, 1, 1, 1, 3, 2, 2, 1, 1, 1,
        ])
        .angle(plus(each([180, 90, 0, -90], 6), 45.0))
        .rows();
    Ok(stack(vec![board, men]))
}

pub(crate) fn black_pawn_trucking(env: &mut Env) -> Built {
    let mut board = tiles()
        .x(plus(
            [
                7, 9, 8, 10, 8, 10, 3, 5, 9, 11, 2, 4, 10, 12, 2, 4, 14, 8, 10, 12, 14, 10, 12, 8,
            ],
            -0.5,
        ))
        .y(plus(
            [
                15, 15, 13, 13, 11, 11, 10, 10, 9, 9, 8, 8, 7, 7, 6, 6, 6, 5, 5, 5, 4, 3, 3, 2,
            ],
            -0.5,
        ))
        .rows();
    shuffle_identities(&mut board, &mut env.rng);
    let rolled = dice_ranks_rolled(env);
    let die_rows = dice().x([1, 2, 1, 2]).y([2, 2, 1, 1]).rank(rolled).rows();
    // The tiles matching a die get a coin (and the Moons tile a pawn).
    let matched: Vec<Row> = board
        .iter()
        .filter(|t| {
            die_rows
                .iter()
                .any(|d| d.suit == t.suit && d.rank == t.rank)
        })
        .cloned()
        .collect();
    let pawn_rows: Vec<Row> = matched
        .iter()
        .filter(|t| t.suit == Some(2))
        .map(|t| Row {
            kind: PieceKind::Pawn,
            side: Side::Face,
            rank: Some(1),
            x: t.x + 0.5,
            y: t.y + 0.5,
            ..t.clone()
        })
        .collect();
    let mut coin_rows: Vec<Row> = matched
        .iter()
        .map(|t| Row {
            kind: PieceKind::Coin,
            side: Side::Back,
            x: t.x + 0.5,
            y: t.y - 0.5,
            ..t.clone()
        })
        .collect();
    let picks = env.rng.sample_without_replacement(24, 4);
    for (coin, pick) in coin_rows.iter_mut().zip(picks) {
        coin.rank = Some(((pick - 1) % 6) as i32 + 1);
        coin.suit = Some(((pick - 1) / 6) as i32 + 1);
    }
    Ok(stack(vec![board, die_rows, coin_rows, pawn_rows]))
}

/// Four dice rolled.
fn dice_ranks_rolled(env: &mut Env) -> Vec<i32> {
    roll(env, 4)
}

/// `n` six-sided rolls as ranks 1 to 6.
fn roll(env: &mut Env, n: usize) -> Vec<i32> {
    env.rng
        .sample_with_replacement(6, n)
        .into_iter()
        .map(|r| r as i32)
        .collect()
}

pub(crate) fn brain_burn(env: &mut Env) -> Built {
    let grid = seq_by(1.5, 2.0, 5);
    let mut x = times(grid.clone(), 5);
    let mut y = each(grid, 5);
    let gap = env.rng.unif_index(25);
    x.remove(gap);
    y.remove(gap);
    let mut board = tiles().x(x).y(y).rows();
    shuffle_identities(&mut board, &mut env.rng);
    let mut coin_rows: Vec<Row> = board
        .iter()
        .enumerate()
        .map(|(i, t)| Row {
            kind: PieceKind::Coin,
            side: Side::Face,
            x: t.x + 0.5,
            y: t.y - 0.5,
            suit: Some(i as i32 / 6 + 1),
            rank: Some(i as i32 % 6 + 1),
            ..t.clone()
        })
        .collect();
    shuffle_identities(&mut coin_rows, &mut env.rng);
    Ok(stack(vec![board, coin_rows]))
}

pub(crate) fn burbuja(env: &mut Env) -> Built {
    let board = donut_of(env, 5.5, 9.5, Side::Face)?;
    let ranks: Vec<i32> = (0..4).flat_map(|_| permutation_i32(env, 6)).collect();
    let coin_sides = times(
        [
            Side::Back,
            Side::Back,
            Side::Back,
            Side::Back,
            Side::Back,
            Side::Face,
        ],
        4,
    );
    let coin_rows = coins()
        .sides(coin_sides)
        .rank(ranks)
        .x(each([2, 4, 6, 8], 6))
        .y(times([4, 4, 4, 4, 4, 2], 4))
        .rows();
    let pawn_rows = pawns().x([3, 5, 7, 9]).y(3).rows();
    Ok(stack(vec![board, coin_rows, pawn_rows]))
}

pub(crate) fn cardinals_guards(env: &mut Env) -> Built {
    let board = donut_of(env, 3.5, 3.5, Side::Face)?;
    let mut coin_rows = coins().back().rows();
    shuffle_identities(&mut coin_rows, &mut env.rng);
    let steps = [4, 6, 8, 10, 12];
    let x = cat(&[&each([2, 14], 5), &times(steps, 2), &[18; 4]]);
    let y = cat(&[&times(steps, 2), &each([2, 14], 5), &[2, 4, 6, 8]]);
    for (coin, (x, y)) in coin_rows.iter_mut().zip(x.into_iter().zip(y)) {
        coin.x = f64::from(x);
        coin.y = f64::from(y);
    }
    let die_rows = dice().rank(1).x(16).y([2, 4, 6, 8]).rows();
    let nulls: Vec<Row> = board
        .iter()
        .filter(|t| t.rank == Some(1))
        .cloned()
        .collect();
    let pawn_rows = as_kind(&nulls, PieceKind::Pawn, Side::Face);
    env.scale_factor = 2.0;
    Ok(stack(vec![board, coin_rows, die_rows, pawn_rows]))
}

fn polar(theta: f64, radius: f64) -> (f64, f64) {
    let radians = std::f64::consts::PI * theta / 180.0;
    (radius * radians.cos(), radius * radians.sin())
}

pub(crate) fn cell_management(env: &mut Env) -> Built {
    let sqrt3 = 3f64.sqrt();
    let (x0, y0) = (5.5, 4.5 + sqrt3);
    // Suns and Crowns tiles in a hexagon.
    let thetas: Vec<f64> = (0..6).map(|i| 30.0 + 60.0 * f64::from(i)).collect();
    let corners: Vec<(f64, f64)> = thetas.iter().map(|&t| polar(t, sqrt3 + 1.0)).collect();
    let mut hexagon = tiles()
        .suit(1)
        .rank(permutation_i32(env, 6))
        .x(corners.iter().map(|c| x0 + c.0).collect::<Vec<_>>())
        .y(corners.iter().map(|c| y0 + c.1).collect::<Vec<_>>())
        .angle(thetas.iter().map(|t| t - 90.0).collect::<Vec<_>>())
        .rows();
    for i in env.rng.sample_without_replacement(6, 3) {
        hexagon[i - 1].suit = Some(3);
    }
    // Moons tiles, each played off the tile of the previous rank, with coins.
    let moon_ranks: Vec<i32> = permutation_i32(env, 5)
        .into_iter()
        .map(|r| r + 1)
        .chain([1])
        .collect();
    let mut moons = Vec::new();
    let mut coin_rows = Vec::new();
    let mut last_played = 1;
    for &rank in &moon_ranks {
        let angle = hexagon
            .iter()
            .find(|t| t.rank == Some(last_played))
            .map(|t| t.angle)
            .unwrap_or(0.0);
        let theta = angle + 90.0;
        let offset = polar(theta, sqrt3 + 3.0);
        let (xt, yt) = (x0 + offset.0, y0 + offset.1);
        last_played = rank;
        moons.extend(tiles().suit(2).rank(rank).x(xt).y(yt).angle(angle).rows());
        for (suit, turn) in [(1, -135.0), (2, 135.0)] {
            let corner = polar(theta + turn, 0.5 * std::f64::consts::SQRT_2);
            coin_rows.extend(
                coins()
                    .suit(suit)
                    .rank(rank)
                    .x(xt + corner.0)
                    .y(yt + corner.1)
                    .angle(angle)
                    .rows(),
            );
        }
    }
    let guards = pawns().suit([1, 2]).x([x0 + 4.0, x0 + 5.0]).y(y0).rows();
    Ok(stack(vec![hexagon, moons, coin_rows, guards]))
}

pub(crate) fn chariots(_: &mut Env) -> Built {
    Ok(tiles()
        .back()
        .x(cat(&[
            &times([5.5, 7.5, 9.5], 4),
            &times([3.5, 11.5], 4),
            &times([1.5, 13.5], 2),
        ]))
        .y(cat(&[
            &each([9.5, 7.5, 3.5, 1.5], 3),
            &each([2.0, 4.0, 7.0, 9.0], 2),
            &each([4.5, 6.5], 2),
        ]))
        .rows())
}

pub(crate) fn climbing_man(env: &mut Env) -> Built {
    if env.args.choice("variant", &["Basic", "Free"])? == "Free" {
        return Ok(Vec::new());
    }
    let board = tile_board(12, 8).at(1.0, 2.0).rows();
    // Each coin on a random quarter of its tile, no two orthogonally adjacent.
    let mut coin_rows = loop {
        let dx = sample_values(&mut env.rng, &[-0.5, 0.5], 24);
        let dy = sample_values(&mut env.rng, &[-0.5, 0.5], 24);
        let placed: Vec<(f64, f64)> = board
            .iter()
            .zip(dx.into_iter().zip(dy))
            .map(|(t, (dx, dy))| (t.x + dx, t.y + dy))
            .collect();
        let adjacent = placed.iter().enumerate().any(|(i, a)| {
            placed.iter().enumerate().any(|(j, b)| {
                i != j
                    && ((a.0 == b.0 && (a.1 - b.1).abs() == 1.0)
                        || ((a.0 - b.0).abs() == 1.0 && a.1 == b.1))
            })
        });
        if !adjacent {
            break coins()
                .back()
                .x(placed.iter().map(|p| p.0).collect::<Vec<_>>())
                .y(placed.iter().map(|p| p.1).collect::<Vec<_>>())
                .rows();
        }
    };
    shuffle_identities(&mut coin_rows, &mut env.rng);
    Ok(stack(vec![board, coin_rows]))
}

pub(crate) fn crocodile_hop(env: &mut Env) -> Built {
    let mut board = tiles()
        .sides(cat(&[
            &[Side::Back; 19],
            &[Side::Face; 2],
            &[Side::Back; 3],
        ]))
        .x(cat(&[
            &[1.0; 8],
            &[3.0; 8],
            &[6.5, 8.5, 10.5, 1.0, 3.0, 6.5, 8.5, 10.5],
        ]))
        .y(cat(&[&[3.0; 16], &[3.5; 3], &[1.0; 2], &[1.5; 3]]))
        .rows();
    shuffle_identities(&mut board, &mut env.rng);
    let suits: Vec<i32> = (0..6).flat_map(|_| permutation_i32(env, 4)).collect();
    let last_tile = (board[23].suit, board[23].rank);
    let coin_rows: Vec<Row> = coins()
        .back()
        .x(each(6..=11, 4))
        .y(times([4, 3, 2, 1], 6))
        .suit(suits)
        .rank(each([2, 3, 4, 5, 6, 1], 4))
        .rows()
        .into_iter()
        .filter(|c| (c.suit, c.rank) != last_tile)
        .collect();
    // Re-roll while a die shows the lily pond under the last tile.
    let die_rows = loop {
        let rolled = dice_ranks_rolled(env);
        let rows = dice().x(6..=9).y(5).rank(rolled).rows();
        if !rows.iter().any(|d| (d.suit, d.rank) == last_tile) {
            break rows;
        }
    };
    let pawn_rows: Vec<Row> = coin_rows
        .iter()
        .filter(|c| {
            die_rows
                .iter()
                .any(|d| d.suit == c.suit && d.rank == c.rank)
        })
        .map(|c| Row {
            kind: PieceKind::Pawn,
            side: Side::Face,
            rank: Some(1),
            ..c.clone()
        })
        .collect();
    Ok(stack(vec![board, coin_rows, die_rows, pawn_rows]))
}

pub(crate) fn easy_slider(env: &mut Env) -> Built {
    let specs = tiles_argument(env, 24)?;
    let x = plus(cat(&[&times([0, 2, 4, 6, 8], 4), &[0, 2, 4, 6]]), 2.0);
    let y = plus(cat(&[&each([8, 6, 4, 2], 5), &[0; 4]]), 2.0);
    let board = tiles_at(&specs, x, y);
    let ranks = match env.args.text("coins")? {
        Some(spec) => text::ranks("coins", &spec, 5)?,
        None => permutation_i32(env, 5).into_iter().map(|r| r + 1).collect(),
    };
    let coin_rows = coins()
        .x([2, 4, 6, 8, 10])
        .y(11.5)
        .rank(ranks)
        .suit(1)
        .rows();
    let suits = match env.args.text("pawns")? {
        Some(spec) => text::suits("pawns", &spec, 4)?,
        None => permutation_i32(env, 4),
    };
    let pawn_rows = pawns().x(0.5).y([10, 8, 6, 4]).suit(suits).rows();
    env.scale_factor = 2.0;
    Ok(stack(vec![board, coin_rows, pawn_rows]))
}

pub(crate) fn everest(_: &mut Env) -> Built {
    let base = tiles()
        .back()
        .suit(UNDECIDED)
        .rank(UNDECIDED)
        .x(plus(cat(&[&[1, 3, 5, 7], &[2, 4, 6], &[1, 3, 5, 7]]), 0.5))
        .y(plus(cat(&[&[1; 4], &[3; 3], &[5; 4]]), 0.5))
        .rows();
    let summit = tiles()
        .back()
        .suit(UNDECIDED)
        .rank(UNDECIDED)
        .x(4.5)
        .y(3.5)
        .rows();
    let mut mountain = stack(vec![
        base,
        tile_board(4, 6).at(2.0, 2.0).rows(),
        tile_board(4, 4).at(3.0, 2.0).rows(),
        tile_board(2, 4).at(3.0, 3.0).rows(),
        summit,
    ]);
    for (i, tile) in mountain.iter_mut().enumerate() {
        tile.suit = Some(i as i32 / 6 + 1);
        tile.rank = Some(i as i32 % 6 + 1);
    }
    let climbers = pawns().x([1, 8, 8, 1]).y([5, 5, 2, 2]).rows();
    Ok(stack(vec![mountain, climbers]))
}

pub(crate) fn four_blind_mice(_: &mut Env) -> Built {
    Ok(tile_board(8, 8).rows())
}

pub(crate) fn froggy_bottom(_: &mut Env) -> Built {
    Ok(tile_board(8, 6).rows())
}

pub(crate) fn galaxy_express(env: &mut Env) -> Built {
    let board = tile_board(6, 8)
        .at(1.0, 2.0)
        .rank(each(4..=6, 4))
        .suit(times(1..=4, 3))
        .rows();
    let chosen = env.rng.sample_without_replacement(12, 6);
    let dx = sample_values(&mut env.rng, &[-0.5, 0.5], 6);
    let dy = sample_values(&mut env.rng, &[-0.5, 0.5], 6);
    let arms_ranks = permutation_i32(env, 6);
    let arms: Vec<Row> = chosen
        .iter()
        .enumerate()
        .map(|(i, &tile)| Row {
            kind: PieceKind::Coin,
            side: if i == 5 { Side::Face } else { Side::Back },
            suit: Some(4),
            rank: Some(arms_ranks[i]),
            x: board[tile - 1].x + dx[i],
            y: board[tile - 1].y + dy[i],
            ..board[tile - 1].clone()
        })
        .collect();
    let pawn_row = Row {
        kind: PieceKind::Pawn,
        side: Side::Face,
        rank: Some(1),
        ..arms[5].clone()
    };
    let mut crown_ranks = permutation_i32(env, 6);
    if arms_ranks[5] == crown_ranks[5] {
        crown_ranks.rotate_right(1);
    }
    let crowns = coins().x(1).y(1).suit(3).rank(crown_ranks).rows();
    let die_rows = dice()
        .x([3, 4, 11, 12])
        .y([1, 1, 4, 4])
        .rank(1)
        .suit([3, 4, 1, 2])
        .rows();
    let speed_tiles = tiles().x(10.5).y([1.5, 5.5]).rank(2).suit([2, 1]).rows();
    let speed_ranks: Vec<i32> = (0..2).flat_map(|_| permutation_i32(env, 6)).collect();
    let speed_coins = coins()
        .sides(cat(&[
            &[Side::Back; 4],
            &[Side::Face; 2],
            &[Side::Back; 4],
            &[Side::Face; 2],
        ]))
        .suit(each([1, 2], 6))
        .rank(speed_ranks)
        .x(12)
        .y(cat(&[&[7; 4], &[6, 5], &[3; 4], &[2, 1]]))
        .rows();
    Ok(stack(vec![
        board,
        arms,
        crowns,
        die_rows,
        speed_tiles,
        speed_coins,
        vec![pawn_row],
    ]))
}

pub(crate) fn iceberg(env: &mut Env) -> Built {
    donut_of(env, 0.5, 0.5, Side::Back)
}

pub(crate) fn klondike(env: &mut Env) -> Built {
    let mut layout = tiles()
        .sides(cat(&[
            &[Side::Back; 15],
            &[Side::Face; 6],
            &[Side::Back; 3],
        ]))
        .x(cat(&[
            &[4, 6, 8, 10, 12, 6, 8, 10, 12, 8, 10, 12, 10, 12, 12],
            &[2, 4, 6, 8, 10, 12],
            &[2, 2, 2],
        ]))
        .y(cat(&[&[2; 21], &[6; 3]]))
        .suit(times(1..=4, 6))
        .rank(each(1..=6, 4))
        .rows();
    shuffle_identities(&mut layout, &mut env.rng);
    Ok(layout)
}

pub(crate) fn lab_rats(env: &mut Env) -> Built {
    let mut maze = tiles().back().x(1.5).y(1.5).rows();
    // A random corridor: each tile placed by a die roll relative to the last.
    let heading = loop {
        let (mut x0, mut y0, mut a0): (f64, f64, f64) = (1.5, 1.5, 0.0);
        for tile in maze.iter_mut().skip(1) {
            let roll = env.rng.unif_index(6);
            let (dx, dy, da) = [
                (0.0, 2.0, 0.0),
                (-2.0, 1.0, 90.0),
                (-1.0, 2.0, 0.0),
                (0.0, 2.0, 0.0),
                (1.0, 2.0, 0.0),
                (2.0, 1.0, -90.0),
            ][roll];
            let a1 = (a0 + da).rem_euclid(360.0);
            let (x1, y1) = match a0 as i32 {
                0 => (x0 + dx, y0 + dy),
                90 => (x0 - dy, y0 + dx),
                180 => (x0 - dx, y0 - dy),
                _ => (x0 + dy, y0 - dx),
            };
            tile.x = x1;
            tile.y = y1;
            tile.angle = a1;
            (x0, y0, a0) = (x1, y1, a1);
        }
        if is_legal_maze(&maze) {
            break a0;
        }
    };
    let end = &maze[23];
    let (px, py): (Vec<f64>, Vec<f64>) = match heading as i32 {
        0 => (vec![end.x - 0.5, end.x + 0.5], vec![end.y + 1.5]),
        90 => (vec![end.x - 1.5], vec![end.y - 0.5, end.y + 0.5]),
        180 => (vec![end.x + 0.5, end.x - 0.5], vec![end.y - 1.5]),
        _ => (vec![end.x + 1.5], vec![end.y + 0.5, end.y - 0.5]),
    };
    let scientists = pawns().suit([1, 2]).x(px).y(py).angle(heading).rows();
    let first_turn = maze.iter().map(|t| t.x).find(|&x| x != 1.5).unwrap_or(1.5);
    let rat = pawns()
        .suit(3)
        .x(if first_turn < 1.5 { 1 } else { 2 })
        .y(1)
        .rows();
    let start = (maze[0].x, maze[0].y);
    let mut cheese = coins()
        .x(plus(each([-0.5, 0.5, 1.5], 8), start.0))
        .y(plus(each([-1.5, -1.5, -0.5], 8), start.1))
        .rows();
    shuffle_identities(&mut cheese, &mut env.rng);
    Ok(stack(vec![maze, scientists, rat, cheese]))
}

/// Every tile of the corridor touches exactly its neighbours.
fn is_legal_maze(maze: &[Row]) -> bool {
    let near = |i: usize| {
        maze.iter()
            .enumerate()
            .filter(|&(j, t)| {
                j != i
                    && ((maze[i].x - t.x).powi(2) + (maze[i].y - t.y).powi(2)).sqrt() <= 5f64.sqrt()
            })
            .count()
    };
    let last = maze.len() - 1;
    (1..last).all(|i| near(i) == 2) && near(0) == 1 && near(last) == 1
}

pub(crate) fn landlocked(env: &mut Env) -> Built {
    let mut island = tiles()
        .sides(cat(&[&[Side::Back; 12], &[Side::Face; 12]]))
        .x(plus(cat(&[&[3, 5, 7, 9], &times([1, 3, 5, 7, 9], 4)]), 0.5))
        .y(plus(cat(&[&[9; 4], &each([7, 5, 3, 1], 5)]), 0.5))
        .rows();
    shuffle_identities_and_sides(&mut island, &mut env.rng);
    let explorer = pawns().suit(1).x(1).y(9).rows();
    Ok(stack(vec![island, explorer]))
}

pub(crate) fn ley_lines(_: &mut Env) -> Built {
    Ok(tiles()
        .back()
        .x(plus(
            [
                6, 8, 7, 9, 7, 9, 3, 5, 8, 10, 2, 4, 9, 11, 2, 4, 13, 7, 9, 11, 13, 9, 11, 7,
            ],
            -0.5,
        ))
        .y(plus(
            [
                15, 15, 13, 13, 11, 11, 10, 10, 9, 9, 8, 8, 7, 7, 6, 6, 6, 5, 5, 5, 4, 3, 3, 2,
            ],
            -0.5,
        ))
        .rows())
}

pub(crate) fn one_man_thrag(env: &mut Env) -> Built {
    let board = tile_board(4, 4).suit(1..=4).rank(1).rows();
    let columns = [6.0, 8.0, 10.0, 13.0];
    let suits = [1, 3, 4, 2];
    let monster_ranks: Vec<i32> = (0..4)
        .flat_map(|_| permutation_i32(env, 5))
        .map(|r| r + 1)
        .collect();
    let monsters = tiles()
        .back()
        .x(each(columns, 5))
        .y(3)
        .suit(each(suits, 5))
        .rank(monster_ranks)
        .rows();
    let die_rows = dice()
        .x(1..=4)
        .y(6)
        .suit(suits)
        .rank(dice_ranks_rolled(env))
        .rows();
    let mut treasure_ranks: Vec<i32> = (0..3).flat_map(|_| permutation_i32(env, 6)).collect();
    let odd = env.rng.permutation(3);
    treasure_ranks.extend(odd.into_iter().map(|i| [2, 4, 6][i - 1]));
    let treasure = coins()
        .back()
        .x(cat(&[
            &[columns[0]; 6],
            &[columns[1]; 6],
            &[columns[2]; 6],
            &[columns[3]; 3],
        ]))
        .y(5)
        .suit(cat(&[&[1; 6], &[3; 6], &[4; 6], &[2; 3]]))
        .rank(treasure_ranks)
        .rows();
    let heroes = pawns()
        .x([1, 6, 8, 10])
        .y([4, 6, 6, 6])
        .suit([2, 1, 3, 4])
        .rows();
    let health = coins().x(13).y(6..=8).suit(2).rank([1, 3, 5]).rows();
    Ok(stack(vec![
        board, monsters, die_rows, treasure, heroes, health,
    ]))
}

pub(crate) fn pass_the_food(_: &mut Env) -> Built {
    Ok(tiles()
        .rank(times([1, 3, 4, 5, 6, 2], 4))
        .x(each([1.5, 3.5, 5.5, 7.5], 6))
        .y(times([1.5, 3.5, 5.5, 7.5, 9.5, 11.5], 4))
        .rows())
}

pub(crate) fn piece_gaps(env: &mut Env) -> Built {
    let mut layout = tiles()
        .x(times([2, 4, 6, 8, 10, 12], 4))
        .y(each([2, 4, 6, 8], 6))
        .suit(times(1..=4, 6))
        .rank(each(1..=6, 4))
        .rows();
    shuffle_identities(&mut layout, &mut env.rng);
    layout.retain(|t| t.rank != Some(1));
    Ok(layout)
}

pub(crate) fn piece_packing_pirates(env: &mut Env) -> Built {
    // Grow an archipelago: each new tile a knight-ish hop from an earlier one,
    // never touching another.
    let mut placed = vec![(0, 0)];
    let mut impossible: Vec<(i32, i32)> = Vec::new();
    let mut possible: Vec<(i32, i32)> = Vec::new();
    let mut newest = (0, 0);
    while placed.len() < 24 {
        let (x, y) = newest;
        for dx in -1..=1 {
            for dy in -1..=1 {
                let cell = (x + dx, y + dy);
                if !impossible.contains(&cell) {
                    impossible.push(cell);
                }
            }
        }
        let mut hops = Vec::new();
        hops.extend((-1..=1).map(|dy| (x - 2, y + dy)));
        for dx in -1..=1 {
            hops.push((x + dx, y - 2));
            hops.push((x + dx, y + 2));
        }
        hops.extend((-1..=1).map(|dy| (x + 2, y + dy)));
        for hop in hops {
            if !possible.contains(&hop) {
                possible.push(hop);
            }
        }
        possible.retain(|cell| !impossible.contains(cell));
        if possible.is_empty() {
            break;
        }
        newest = possible[env.rng.unif_index(possible.len())];
        placed.push(newest);
    }
    let min_x = placed.iter().map(|p| p.0).min().unwrap_or(0);
    let min_y = placed.iter().map(|p| p.1).min().unwrap_or(0);
    let angles = sample_values(&mut env.rng, &[0.0, 90.0, 180.0, 270.0], placed.len());
    let mut islands = tiles()
        .back()
        .x(placed
            .iter()
            .map(|p| f64::from(p.0 - min_x) + 1.5)
            .collect::<Vec<_>>())
        .y(placed
            .iter()
            .map(|p| f64::from(p.1 - min_y) + 1.5)
            .collect::<Vec<_>>())
        .suit(times(1..=4, 6))
        .rank(each(1..=6, 4))
        .angle(angles)
        .rows();
    shuffle_identities(&mut islands, &mut env.rng);
    Ok(islands)
}

pub(crate) fn san_andreas(_: &mut Env) -> Built {
    let x = plus(
        cat(&[
            &times([1, 3, 5], 3),
            &[2, 4, 6, 3, 5, 7, 4, 6, 8, 5, 7, 9, 7, 9],
        ]),
        0.5,
    );
    let y = plus(cat(&[&each([15, 13, 11, 9, 7, 5, 3], 3), &[1, 1]]), 0.5);
    Ok(tiles().back().x(x).y(y).count(23).rows())
}

pub(crate) fn sarcophagus(env: &mut Env) -> Built {
    let mut sarcophagus = tiles()
        .back()
        .suit([4, 3, 4, 3, 2, 1])
        .rank([1, 1, 6, 6, 6, 6])
        .x(times([6.5, 5.5, 7.5], 2))
        .y(times([3.5, 1.5, 1.5], 2))
        .rows();
    shuffle_identities(&mut sarcophagus, &mut env.rng);
    let mut pyramid = tiles()
        .back()
        .suit(cat(&[&[2, 1], &each([4, 3, 2, 1], 4)]))
        .rank(cat(&[&[1, 1], &times(2..=5, 4)]))
        .x([
            6.5, 5.5, 7.5, 4.5, 6.5, 8.5, 3.5, 5.5, 7.5, 9.5, 2.5, 4.5, 8.5, 10.5, 1.5, 3.5, 9.5,
            11.5,
        ])
        .y(cat(&[
            &[11.5],
            &[9.5; 2],
            &[7.5; 3],
            &[5.5; 4],
            &[3.5; 4],
            &[1.5; 4],
        ]))
        .rows();
    shuffle_identities(&mut pyramid, &mut env.rng);
    Ok(stack(vec![sarcophagus, pyramid]))
}

pub(crate) fn shopping_mall(env: &mut Env) -> Built {
    let order = env.rng.permutation(20);
    let suits = times(1..=4, 5);
    let ranks = times(2..=6, 4);
    let angles = sample_values(&mut env.rng, &[0.0, 90.0, 180.0, 270.0], 20);
    let shops = tiles()
        .suit(order.iter().map(|&i| suits[i - 1]).collect::<Vec<_>>())
        .rank(order.iter().map(|&i| ranks[i - 1]).collect::<Vec<_>>())
        .x(plus(
            [
                1, 5, 9, 11, 13, 5, 1, 5, 9, 13, 1, 3, 7, 9, 13, 1, 3, 7, 11, 13,
            ],
            3.0,
        ))
        .y(plus(
            cat(&[&[13; 5], &[11], &[9; 4], &[5; 5], &[1; 5]]),
            3.0,
        ))
        .angle(angles)
        .rows();
    let money_cfg = env.args.text("cfg2")?.unwrap_or_else(|| "go".to_string());
    let money = |suit: i32, x: Vec<f64>, y: Vec<f64>| {
        Group::new(PieceKind::Bit, Side::Face)
            .cfg(&money_cfg)
            .suit(suit)
            .rank(1)
            .x(x)
            .y(y)
            .rows()
    };
    let pennies = money(
        1,
        plus([7, 3, 9, 3, 11, 1, 7, 1, 7, 11, 5, 15, 1], 3.0),
        plus([17, 15, 13, 11, 11, 9, 9, 5, 5, 5, 3, 3, 1], 1.0),
    );
    let nickels = money(2, plus([1, 17, 11], 1.0), plus([13, 13, 1], 1.0));
    Ok(stack(vec![shops, pennies, nickels]))
}

pub(crate) fn skyscrapers(env: &mut Env) -> Built {
    let board = donut_of(env, 1.0, 1.0, Side::Face)?;
    let nulls: Vec<Row> = board
        .iter()
        .filter(|t| t.rank == Some(1))
        .cloned()
        .collect();
    let pawn_rows: Vec<Row> = as_kind(&nulls, PieceKind::Pawn, Side::Face)
        .into_iter()
        .map(|p| Row {
            x: p.x + 0.5,
            y: p.y - 0.5,
            ..p
        })
        .collect();
    Ok(stack(vec![board, pawn_rows]))
}

pub(crate) fn slides_of_action(_: &mut Env) -> Built {
    let board = tile_board(4, 4).rows();
    let men = coins()
        .back()
        .suit(each([1, 3, 4], 5))
        .rank(times(1..=5, 3))
        .x([3, 1, 4, 2, 3, 2, 3, 1, 4, 2, 1, 4, 2, 3, 1])
        .y([4, 3, 3, 2, 1, 4, 3, 2, 2, 1, 4, 4, 3, 2, 1])
        .rows();
    Ok(stack(vec![board, men]))
}

pub(crate) fn speedy_towers(env: &mut Env) -> Built {
    let players = env.args.number("n_players")?.unwrap_or(2.0);
    if players != 2.0 {
        return Err(bad("n_players", "only two players are supported"));
    }
    let facing = each([0, 180], 12);
    let mut towers = tiles()
        .back()
        .suit(times(1..=4, 6))
        .rank(each(1..=6, 4))
        .rows();
    shuffle_identities(&mut towers, &mut env.rng);
    let tower_x = cat(&[
        &seq_by(2.0, 2.0, 11),
        &[16.0, 10.0],
        &seq_by(24.0, -2.0, 11),
    ]);
    let tower_y = cat(&[&[4.0; 11], &[8.0, 8.0], &[12.0; 11]]);
    for (i, tile) in towers.iter_mut().enumerate() {
        tile.x = tower_x[i];
        tile.y = tower_y[i];
        tile.angle = f64::from(facing[i]);
    }
    let mut shuffled = coins()
        .back()
        .suit(times(1..=4, 6))
        .rank(each(1..=6, 4))
        .rows();
    shuffle_identities(&mut shuffled, &mut env.rng);
    // Each player's twelve coins sorted by suit (stably).
    let (mine, theirs) = shuffled.split_at_mut(12);
    mine.sort_by_key(|c| c.suit);
    theirs.sort_by_key(|c| c.suit);
    let coin_x = cat(&[&seq_by(2.0, 2.0, 12), &seq_by(24.0, -2.0, 12)]);
    let coin_y = cat(&[&[2.0; 12], &[14.0; 12]]);
    for (i, coin) in shuffled.iter_mut().enumerate() {
        coin.x = coin_x[i];
        coin.y = coin_y[i];
        coin.angle = f64::from(facing[i]);
    }
    let runners = pawns()
        .suit([3, 1])
        .x([24, 2])
        .y([4, 12])
        .angle([0, 180])
        .rows();
    Ok(stack(vec![towers, shuffled, runners]))
}

pub(crate) fn steppin_stones(_: &mut Env) -> Built {
    let facing = [180, 90, 0, -90];
    let aces = tiles()
        .suit(1..=4)
        .rank(2)
        .x([1.5, 7.5, 7.5, 1.5])
        .y([7.5, 7.5, 1.5, 1.5])
        .angle(facing)
        .rows();
    let stones = tiles()
        .back()
        .suit(each(1..=4, 3))
        .rank(times(3..=5, 4))
        .x([3.5, 1.5, 3.5, 5.5, 5.5, 7.5, 5.5, 5.5, 7.5, 3.5, 3.5, 1.5])
        .y([7.5, 5.5, 5.5, 7.5, 5.5, 5.5, 3.5, 1.5, 3.5, 3.5, 1.5, 3.5])
        .rows();
    let men = coins()
        .suit(each(1..=4, 5))
        .rank(times([1, 3, 4, 5, 6], 4))
        .x([3, 2, 1, 3, 3, 6, 7, 8, 6, 6, 6, 7, 8, 6, 6, 3, 2, 1, 3, 3])
        .y([6, 6, 6, 7, 8, 6, 6, 6, 7, 8, 3, 3, 3, 2, 1, 3, 3, 3, 2, 1])
        .angle(each(facing, 5))
        .rows();
    let leaders = pawns().x([5, 4, 4, 5]).y([4, 4, 5, 5]).angle(facing).rows();
    Ok(stack(vec![aces, stones, men, leaders]))
}

pub(crate) fn tariffs(env: &mut Env) -> Built {
    let variant = env.args.choice(
        "variant",
        &["simple zones", "grouped zones", "scattered zones"],
    )?;
    let grid_x = times([1.5, 3.5, 5.5, 7.5, 9.5, 11.5], 4);
    let grid_y = each([7.5, 5.5, 3.5, 1.5], 6);
    Ok(match variant {
        "simple zones" => tiles().x(grid_x).y(grid_y).rows(),
        "grouped zones" => tiles()
            .suit([
                2, 1, 4, 1, 3, 2, 3, 4, 3, 2, 4, 3, 1, 2, 1, 1, 3, 2, 4, 3, 4, 2, 4, 1,
            ])
            .rank([
                2, 3, 3, 4, 4, 4, 2, 2, 3, 3, 4, 5, 2, 1, 1, 6, 6, 5, 1, 1, 6, 6, 5, 5,
            ])
            .x(grid_x)
            .y(grid_y)
            .rows(),
        _ => tiles()
            .suit([
                4, 3, 4, 4, 3, 3, 4, 4, 4, 3, 3, 3, 1, 1, 1, 2, 2, 2, 1, 1, 2, 2, 1, 2,
            ])
            .rank([
                6, 6, 5, 3, 4, 5, 2, 4, 1, 1, 3, 2, 2, 3, 1, 1, 4, 2, 5, 4, 3, 5, 6, 6,
            ])
            .x(cat(&[
                &[5.5, 7.5],
                &[3.5, 5.5, 7.5, 9.5],
                &[1.5, 3.5, 5.5, 7.5, 9.5, 11.5],
                &[1.5, 3.5, 5.5, 7.5, 9.5, 11.5],
                &[3.5, 5.5, 7.5, 9.5],
                &[5.5, 7.5],
            ]))
            .y(cat(&[
                &[11.5; 2], &[9.5; 4], &[7.5; 6], &[5.5; 6], &[3.5; 4], &[1.5; 2],
            ]))
            .rows(),
    })
}

pub(crate) fn the_in_crowd(_: &mut Env) -> Built {
    Ok(stack(vec![
        tile_board(6, 6).rows(),
        tile_board(4, 4).at(2.0, 2.0).rank(4).rows(),
        tiles().back().x(3.5).y(3.5).suit(2).rank(3).rows(),
    ]))
}

pub(crate) fn the_magic_bag(env: &mut Env) -> Built {
    let mut bag = tiles()
        .x(plus(cat(&[&[1; 9], &[3; 7], &[5; 5], &[7; 3]]), 0.5))
        .y(plus(
            cat(&[
                &seq_to(17, 1, -2),
                &seq_to(13, 1, -2),
                &seq_to(9, 1, -2),
                &seq_to(5, 1, -2),
            ]),
            0.5,
        ))
        .rows();
    shuffle_identities(&mut bag, &mut env.rng);
    Ok(bag)
}

pub(crate) fn the_penguin_game(env: &mut Env) -> Built {
    let board = tile_board(4, 4).rows();
    let mut fish = coins()
        .back()
        .x(times(1..=4, 6))
        .y(cat(&[&each([4, 3, 2, 1], 4), &[4, 3, 2, 1], &[1, 2, 3, 4]]))
        .rows();
    shuffle_identities(&mut fish, &mut env.rng);
    Ok(stack(vec![board, fish]))
}

pub(crate) fn tornado_vs_trailer_park(_: &mut Env) -> Built {
    Ok(stack(vec![
        tile_board(6, 10).rows(),
        coins()
            .x(1)
            .y([6, 5, 4, 3, 2, 1])
            .suit(2)
            .rank(1..=6)
            .rows(),
        pawns().suit(2).x(0).y(2).rows(),
        dice().suit(2).x(0).y(1).rank(1).rows(),
    ]))
}

/// All 24 tiles by suit within rank, in random order.
fn shuffled_tile_identities(env: &mut Env) -> Vec<(i32, i32)> {
    let all: Vec<(i32, i32)> = (1..=6)
        .flat_map(|rank| (1..=4).map(move |suit| (suit, rank)))
        .collect();
    env.rng.shuffle(&all)
}

pub(crate) fn tower_of_babel(env: &mut Env) -> Built {
    let identities: Vec<(i32, i32)> = match env.args.text("tiles")? {
        Some(spec) => text::tiles(&spec, 24, &mut env.rng)?
            .into_iter()
            .map(|t| (t.suit, t.rank))
            .collect(),
        None => shuffled_tile_identities(env),
    };
    let mut tower = tiles()
        .back()
        .suit(identities.iter().map(|t| t.0).collect::<Vec<_>>())
        .rank(identities.iter().map(|t| t.1).collect::<Vec<_>>())
        .x(2)
        .y(4)
        .rows();
    if let Some(top) = tower.last_mut() {
        top.y = 2.0;
        top.side = Side::Face;
    }
    env.scale_factor = 2.0;
    Ok(tower)
}

pub(crate) fn tracers(_: &mut Env) -> Built {
    Ok(stack(vec![
        tile_board(8, 8).rows(),
        pawns()
            .suit([1, 2])
            .x([1, 8])
            .y([1, 8])
            .angle([0, 180])
            .rows(),
    ]))
}

pub(crate) fn triactor(env: &mut Env) -> Built {
    let expansion = env
        .args
        .text("cfg2")?
        .unwrap_or_else(|| "playing_cards_expansion".to_string());
    let track = tiles()
        .back()
        .x(plus(times([5, 7, 9, 11, 13, 15, 1, 2, 18, 19], 2), 0.5))
        .y(plus(
            cat(&[&[1; 6], &[5, 3, 3, 5], &[11; 6], &[7, 9, 9, 7]]),
            0.5,
        ))
        .suit(each(1..=4, 5))
        .rank(times(2..=6, 4))
        .angle(times([0, 0, 0, 0, 0, 0, 0, 90, 90, 0], 2))
        .rows();
    let corners = tiles()
        .x(plus([3, 17, 17, 3], 0.5))
        .y(plus([11, 11, 1, 1], 0.5))
        .suit(1..=4)
        .rank(1)
        .rows();
    let first_ranks = roll(env, 4);
    let first = coins()
        .back()
        .suit(1..=4)
        .rank(first_ranks)
        .x(plus([5, 15, 15, 5], 0.5))
        .y(plus([11, 11, 1, 1], 0.5))
        .rows();
    let second_ranks = roll(env, 4);
    let second = coins()
        .back()
        .cfg(&expansion)
        .suit(1..=4)
        .rank(second_ranks)
        .x(plus([2, 18, 18, 2], 0.5))
        .y(plus([9, 9, 3, 3], 0.5))
        .rows();
    let runners = pawns()
        .cfgs(&[
            "piecepack",
            "piecepack",
            "piecepack",
            "piecepack",
            &expansion,
            &expansion,
            &expansion,
            &expansion,
        ])
        .x(10.5)
        .y(plus(0..=7, 0.5))
        .angle(90)
        .suit(times(1..=4, 2))
        .rows();
    Ok(stack(vec![track, corners, first, second, runners]))
}

pub(crate) fn tula(env: &mut Env) -> Built {
    let variant = env.args.choice(
        "variant",
        &[
            "Original",
            "Variant 1",
            "Variant 2",
            "Variant 3",
            "Variant 4",
        ],
    )?;
    let identities: Vec<(i32, i32)> = match env.args.text("tiles")? {
        Some(spec) => text::tiles(&spec, 24, &mut env.rng)?
            .into_iter()
            .map(|t| (t.suit, t.rank))
            .collect(),
        None if matches!(variant, "Original" | "Variant 1") => shuffled_tile_identities(env),
        None => {
            let mut two_packs = shuffled_tile_identities(env);
            two_packs.extend(shuffled_tile_identities(env));
            two_packs
        }
    };
    let (sides, x, y) = tula_layout(variant);
    if identities.len() != x.len() {
        return Err(bad("tiles", "wrong number of tiles for this variant"));
    }
    Ok(tiles()
        .sides(sides)
        .suit(identities.iter().map(|t| t.0).collect::<Vec<_>>())
        .rank(identities.iter().map(|t| t.1).collect::<Vec<_>>())
        .x(x)
        .y(y)
        .rows())
}

/// Which tiles are face up, and where every tile lies, per Tula variant.
fn tula_layout(variant: &str) -> (Vec<Side>, Vec<i32>, Vec<i32>) {
    use Side::{Back as B, Face as F};
    let seq = seq_to;
    match variant {
        "Original" => (
            cat(&[&[B; 23], &[F]]),
            cat(&[
                &times(seq(1, 7, 2), 3),
                &[4],
                &times(seq(2, 6, 2), 2),
                &[4, 3, 5, 4, 4],
            ]),
            cat(&[
                &each(seq(7, 3, -2), 4),
                &[1],
                &each([6, 4], 3),
                &[2, 5, 5, 3, 4],
            ]),
        ),
        "Variant 1" => (
            cat(&[&[B; 21], &[F, B, F]]),
            cat(&[
                &seq(2, 8, 2),
                &seq(1, 9, 2),
                &seq(2, 8, 2),
                &times(seq(2, 8, 2), 2),
                &seq(3, 7, 2),
            ]),
            cat(&[&[5; 4], &[3; 5], &[1; 4], &each([4, 2], 4), &[3; 3]]),
        ),
        "Variant 2" => (
            cat(&[
                &[B; 28],
                &[F],
                &[B; 4],
                &[F],
                &[B; 4],
                &[F],
                &[B; 4],
                &[F],
                &[F; 4],
            ]),
            cat(&[
                &[6, 8],
                &seq(3, 11, 2),
                &times(seq(1, 13, 2), 2),
                &seq(3, 11, 2),
                &[6, 8, 7],
                &seq(4, 10, 2),
                &seq(2, 12, 2),
                &seq(4, 10, 2),
                &[7, 5, 9, 5, 9],
            ]),
            cat(&[
                &[11; 2],
                &[9; 5],
                &[7; 7],
                &[5; 7],
                &[3; 5],
                &[1; 2],
                &[10],
                &[8; 4],
                &[6; 6],
                &[4; 4],
                &[2],
                &[7, 7, 5, 5],
            ]),
        ),
        "Variant 3" => (
            cat(&[&[B; 35], &[F], &[B; 8], &[F, F, B, F]]),
            cat(&[
                &[5, 7],
                &seq(2, 10, 2),
                &seq(1, 11, 2),
                &seq(2, 10, 2),
                &[5, 7, 6],
                &seq(3, 9, 2),
                &seq(2, 10, 2),
                &seq(3, 9, 2),
                &[6, 6],
                &seq(3, 9, 2),
                &seq(3, 9, 2),
                &[6, 4, 6, 8],
            ]),
            cat(&[
                &[9; 2],
                &[7; 5],
                &[5; 6],
                &[3; 5],
                &[1; 2],
                &[9],
                &[7; 4],
                &[5; 5],
                &[3; 4],
                &[1],
                &[8],
                &[6; 4],
                &[4; 4],
                &[2],
                &[5; 3],
            ]),
        ),
        _ => (
            cat(&[
                &[B; 28],
                &[F],
                &[B; 5],
                &[F],
                &[B; 4],
                &times([F, B, B, F], 2),
                &[F],
            ]),
            cat(&[
                &seq(4, 12, 2),
                &seq(3, 13, 2),
                &[1, 15],
                &seq(3, 13, 2),
                &seq(4, 12, 2),
                &seq(5, 11, 2),
                &seq(2, 14, 2),
                &seq(5, 11, 2),
                &seq(5, 11, 2),
                &seq(5, 11, 2),
                &[8],
            ]),
            cat(&[
                &[7; 5],
                &[5; 6],
                &[4; 2],
                &[3; 6],
                &[1; 5],
                &[6; 4],
                &[4; 7],
                &[2; 4],
                &[5; 4],
                &[3; 4],
                &[4],
            ]),
        ),
    }
}

pub(crate) fn wormholes(_: &mut Env) -> Built {
    let space = tiles()
        .back()
        .count(23)
        .x(plus(
            [
                1, 2, 2, 3, 2, 3, 4, 3, 4, 5, 2, 3, 4, 1, 2, 3, 2, 3, 4, 3, 4, 4, 5,
            ]
            .map(|v| 2 * v),
            -0.5,
        ))
        .y(plus(
            [
                9, 9, 8, 8, 7, 7, 7, 6, 6, 6, 5, 5, 5, 4, 4, 4, 3, 3, 3, 2, 2, 1, 1,
            ]
            .map(|v| 2 * v),
            -0.5,
        ))
        .rows();
    let travellers = pawns().x([10, 10, 1, 1]).y([1, 2, 17, 18]).rows();
    Ok(stack(vec![space, travellers]))
}

pub(crate) fn coin_collectors(env: &mut Env) -> Built {
    let board = donut_of(env, 1.0, 1.0, Side::Face)?;
    let ranks = match env.args.text("coins")? {
        Some(spec) => text::ranks("coins", &spec, 24)?,
        None => {
            let all = times(1..=6, 4);
            env.rng.shuffle(&all)
        }
    };
    let mut coin_rows = coins()
        .x(board.iter().map(|t| t.x + 0.5).collect::<Vec<_>>())
        .y(board.iter().map(|t| t.y - 0.5).collect::<Vec<_>>())
        .rank(ranks)
        .suit(UNDECIDED)
        .rows();
    fill_suits(&mut coin_rows, &mut env.rng);
    let die_rows = dice().x(12).y([9, 7, 5, 3]).rank(dice_ranks(env)?).rows();
    let collectors = pawns().x([5, 6, 6, 5]).y([6, 6, 5, 5]).rows();
    Ok(stack(vec![board, coin_rows, die_rows, collectors]))
}

/// A shuffled double-five set of dominoes (the double-six set without blanks).
fn shuffled_dominoes_without_blanks(env: &mut Env) -> Vec<Row> {
    let mut set: Vec<Row> = crate::ppn::rules::setups::games::domino::domino_set(6)
        .rows()
        .split_off(6);
    shuffle_identities(&mut set, &mut env.rng);
    set
}

pub(crate) fn dominoids(env: &mut Env) -> Built {
    let board = tile_board(8, 8)
        .suit(cat(&[&[1; 6], &[2; 6], &[3; 4]]))
        .rank(cat(&[
            &(1..=6).collect::<Vec<_>>(),
            &(1..=6).collect::<Vec<_>>(),
            &[1, 2, 3, 4],
        ]))
        .rows();
    let pawn_suits = permutation_i32(env, 4);
    let pawn_rows = pawns()
        .x([2, 3, 7, 6])
        .y([3, 7, 6, 2])
        .suit(pawn_suits.clone())
        .rows();
    let coin_ranks: Vec<i32> = (0..4).flat_map(|_| permutation_i32(env, 6)).collect();
    let mut coin_rows = coins()
        .back()
        .rank(coin_ranks)
        .x(each([2, 4, 6, 8], 6))
        .y(10)
        .rows();
    // The first coin of each pawn's suit starts beside that pawn.
    for (suit, (x, y)) in pawn_suits
        .iter()
        .zip([(1.0, 3.0), (3.0, 8.0), (8.0, 6.0), (6.0, 1.0)])
    {
        let first = 6 * (*suit as usize - 1);
        coin_rows[first].x = x;
        coin_rows[first].y = y;
    }
    let dominoes = shuffled_dominoes_without_blanks(env);
    let (placed, line) = dominoes.split_at(4);
    let line_angles = sample_values(&mut env.rng, &[0.0, 180.0], line.len());
    let line: Vec<Row> = line
        .iter()
        .zip(line_angles)
        .enumerate()
        .map(|(i, (d, angle))| Row {
            x: i as f64 + 1.0,
            y: 12.0,
            angle,
            ..d.clone()
        })
        .collect();
    let mut placed = placed.to_vec();
    let spots = [(3.5, 3.0), (3.0, 5.5), (5.5, 6.0), (6.0, 3.5)];
    for (i, domino) in placed.iter_mut().enumerate() {
        let choices = if i % 2 == 0 {
            [90.0, 270.0]
        } else {
            [0.0, 180.0]
        };
        domino.angle = choices[env.rng.unif_index(2)];
        (domino.x, domino.y) = spots[i];
    }
    let targets = tiles()
        .x(10.5)
        .y([7.5, 2.5])
        .suit([4, 3])
        .rank([1, 6])
        .rows();
    let die_rows = dice()
        .x([10, 11, 11, 10])
        .y([3, 3, 2, 2])
        .rank(dice_ranks_rolled(env))
        .rows();
    Ok(stack(vec![
        board, pawn_rows, coin_rows, line, placed, targets, die_rows,
    ]))
}

pub(crate) fn pawns_crossing(env: &mut Env) -> Built {
    let players = env.args.integer("n_players")?.unwrap_or(2);
    if !(2..=4).contains(&players) {
        return Err(bad("n_players", "must be 2, 3 or 4"));
    }
    let angles = sample_values(&mut env.rng, &[0.0, 90.0, 180.0, 270.0], 16);
    let mut board = tiles()
        .suit(each(1..=4, 4))
        .rank(times(2..=5, 4))
        .x(plus(each([3, 6, 9, 12], 4), -1.5))
        .y(plus(times([3, 6, 9, 12], 4), -1.5))
        .angle(angles)
        .rows();
    shuffle_identities(&mut board, &mut env.rng);
    let mut bridges: Vec<Row> = crate::ppn::rules::setups::games::domino::domino_set(7)
        .rows()
        .into_iter()
        .filter(|d| !(d.suit == Some(7) && matches!(d.rank, Some(5..=7))))
        .collect();
    shuffle_identities(&mut bridges, &mut env.rng);
    let vertical_angles = sample_values(&mut env.rng, &[0.0, 180.0], 13);
    let vertical_x = cat(&[&each([3.0, 6.0, 9.0], 4), &[13.0]]);
    let vertical_y = cat(&[&times([1.5, 4.5, 7.5, 10.5], 3), &[6.0]]);
    let horizontal_angles = sample_values(&mut env.rng, &[90.0, 270.0], 12);
    let horizontal_x = times([1.5, 4.5, 7.5, 10.5], 3);
    let horizontal_y = times([3.0, 6.0, 9.0], 4);
    for (i, bridge) in bridges.iter_mut().enumerate() {
        if i < 13 {
            (bridge.x, bridge.y, bridge.angle) = (vertical_x[i], vertical_y[i], vertical_angles[i]);
        } else {
            let j = i - 13;
            (bridge.x, bridge.y, bridge.angle) =
                (horizontal_x[j], horizontal_y[j], horizontal_angles[j]);
        }
    }
    // Coins gather around each playing suit's ace tile.
    let mut aces: Vec<&Row> = board
        .iter()
        .filter(|t| t.rank == Some(2) && (players != 3 || t.suit != Some(2)))
        .collect();
    aces.sort_by_key(|t| t.suit);
    let (per_ace, coin_suits, rank_pool, dx, dy): (usize, Vec<i32>, Vec<i32>, Vec<f64>, Vec<f64>) =
        match players {
            2 => (
                3,
                each(1..=4, 3),
                vec![3, 4, 5],
                vec![0.5, -0.5, 0.5],
                vec![0.5, -0.5, -0.5],
            ),
            3 => (
                4,
                each([1, 3, 4], 4),
                vec![1, 3, 4, 5],
                vec![0.5, -0.5, 0.5, -0.5],
                vec![-0.5, 0.5, 0.5, -0.5],
            ),
            _ => (
                4,
                each(1..=4, 4),
                vec![1, 3, 4, 5],
                vec![0.5, -0.5, 0.5, -0.5],
                vec![-0.5, 0.5, 0.5, -0.5],
            ),
        };
    let coin_ranks: Vec<i32> = (0..aces.len())
        .flat_map(|_| env.rng.shuffle(&rank_pool))
        .collect();
    let coin_angles: Vec<f64> = (0..aces.len())
        .flat_map(|_| {
            env.rng
                .sample_without_replacement(4, per_ace)
                .into_iter()
                .map(|i| 90.0 * (i - 1) as f64)
        })
        .collect();
    let coin_x: Vec<f64> = aces
        .iter()
        .flat_map(|a| dx.iter().map(move |d| a.x + d))
        .collect();
    let coin_y: Vec<f64> = aces
        .iter()
        .flat_map(|a| dy.iter().map(move |d| a.y + d))
        .collect();
    let coin_rows = coins()
        .back()
        .suit(coin_suits)
        .rank(coin_ranks)
        .x(coin_x)
        .y(coin_y)
        .angle(coin_angles)
        .rows();
    let (pawn_rows, die_rows) = if players == 2 {
        let facing = [180, 180, 0, 0];
        (
            pawns()
                .x([4, 5, 8, 7])
                .y([13, 13, -1, -1])
                .angle(facing)
                .rows(),
            dice()
                .x([1, 2, 11, 10])
                .y([13, 13, -1, -1])
                .rank(dice_ranks_rolled(env))
                .angle(facing)
                .rows(),
        )
    } else {
        let facing = [180, 90, 0, 270];
        let mut pawn_rows = pawns()
            .x([3, 13, 9, -1])
            .y([13, 9, -1, 3])
            .angle(facing)
            .rows();
        let mut die_rows = dice()
            .x([1, 13, 11, -1])
            .y([13, 11, -1, 1])
            .rank(dice_ranks_rolled(env))
            .angle(facing)
            .rows();
        if players == 3 {
            pawn_rows.retain(|p| p.suit != Some(2));
            die_rows.retain(|d| d.suit != Some(2));
        }
        (pawn_rows, die_rows)
    };
    Ok(stack(vec![board, bridges, coin_rows, pawn_rows, die_rows]))
}

pub(crate) fn mathrix(env: &mut Env) -> Built {
    let board = tile_board(4, 6).rows();
    let ranks = match env.args.text("coins")? {
        Some(spec) => text::ranks("coins", &spec, 24)?,
        None => {
            let all = times(1..=6, 4);
            env.rng.shuffle(&all)
        }
    };
    let mut numbers = coins()
        .rank(ranks)
        .suit(UNDECIDED)
        .x(times(1..=6, 4))
        .y(each([4, 3, 2, 1], 6))
        .rows();
    fill_suits(&mut numbers, &mut env.rng);
    Ok(stack(vec![board, numbers]))
}

/// The "Roundabout" maze of Piecepackman: ghosts in the corners, the four
/// players in the middle and matchstick walls.
fn roundabout(env: &mut Env) -> Vec<Row> {
    // No ghost may start on the tile it is scared of.
    let mut ghost_rank = |excluded: i32| {
        let allowed: Vec<i32> = (2..=6).filter(|r| *r != excluded).collect();
        allowed[env.rng.unif_index(allowed.len())]
    };
    let ghost_ranks = [ghost_rank(2), ghost_rank(4), ghost_rank(5), ghost_rank(3)];
    let ghosts = coins()
        .back()
        .x([1, 1, 10, 10])
        .y([1, 10, 10, 1])
        .suit([4, 3, 2, 1])
        .rank(ghost_ranks.to_vec())
        .rows();
    let players = pawns()
        .x([5, 5, 6, 6])
        .y([5, 6, 6, 5])
        .suit([4, 2, 3, 1])
        .rows();
    let bonus = coins().x(6).y(4).rank(1).suit(1).rows();
    let short_vertical = matchsticks()
        .rank(2)
        .x(plus([4, 4, 6, 6, 5, 5], 0.5))
        .y([6, 8, 8, 5, 2, 3])
        .suit([2, 2, 2, 1, 4, 4])
        .rows();
    let short_horizontal = matchsticks()
        .rank(2)
        .angle(90)
        .x([3, 8, 5, 6, 3, 8])
        .y(plus([9, 9, 4, 4, 2, 2], 0.5))
        .suit([2, 2, 1, 1, 4, 4])
        .rows();
    let long_vertical = matchsticks()
        .rank(4)
        .x(plus([1, 9, 5, 1, 9], 0.5))
        .y(plus([2, 2, 8, 8, 8], 0.5))
        .suit([4, 4, 2, 3, 3])
        .rows();
    let long_horizontal = matchsticks()
        .rank(4)
        .angle(90)
        .x(plus(
            [3, 4, 6, 7, 5, 2, 2, 8, 8, 2, 2, 8, 8, 3, 7, 4, 6, 3, 7],
            0.5,
        ))
        .y(plus(
            [8, 9, 9, 8, 6, 6, 7, 6, 7, 4, 5, 4, 5, 3, 3, 2, 2, 1, 1],
            0.5,
        ))
        .suit(cat(&[&[2; 5], &[3; 4], &[1; 6], &[4; 4]]))
        .rows();
    stack(vec![
        ghosts,
        players,
        bonus,
        short_vertical,
        short_horizontal,
        long_vertical,
        long_horizontal,
    ])
}

pub(crate) fn piecepackman(env: &mut Env) -> Built {
    env.args.choice("variant", &["Roundabout"])?;
    let maze = tiles()
        .back()
        .x(plus(cat(&[&times([1, 3, 5, 7, 9], 4), &[2, 4, 6, 8]]), 0.5))
        .y(plus(cat(&[&each([1, 3, 7, 9], 5), &[5; 4]]), 0.5))
        .rows();
    let pieces = roundabout(env);
    let taken: Vec<(f64, f64)> = pieces
        .iter()
        .filter(|p| p.kind != PieceKind::Matchstick)
        .map(|p| (p.x, p.y))
        .chain([(1.0, 5.0), (1.0, 6.0), (10.0, 5.0), (10.0, 6.0)])
        .collect();
    let free: Vec<(f64, f64)> = (1..=10)
        .flat_map(|y| (1..=10).map(move |x| (f64::from(x), f64::from(y))))
        .filter(|cell| !taken.contains(cell))
        .collect();
    // The reference draws the dots from a fresh start of the seeded stream.
    if let Some(seed) = env.args.seed()? {
        env.rng = crate::ppn::rules::rng::RRng::from_seed(seed);
    }
    let dots: Vec<(f64, f64)> = env
        .rng
        .sample_without_replacement(free.len(), 24)
        .into_iter()
        .map(|i| free[i - 1])
        .collect();
    let dot_rows = matchsticks()
        .rank(1)
        .x(dots.iter().map(|d| d.0).collect::<Vec<_>>())
        .y(dots.iter().map(|d| d.1).collect::<Vec<_>>())
        .rows();
    Ok(stack(vec![maze, pieces, dot_rows]))
}

/// Where a tile's corner marker goes, by the tile's direction.
fn ship_it_corner(angle: f64) -> (f64, f64) {
    match angle as i32 {
        0 => (0.5, -0.5),
        90 => (0.5, 0.5),
        180 => (-0.5, 0.5),
        _ => (-0.5, -0.5),
    }
}

pub(crate) fn ship_it(env: &mut Env) -> Built {
    let angles = sample_values(&mut env.rng, &[0.0, 90.0, 180.0, 270.0], 24);
    let mut cities = tiles().angle(angles).rows();
    shuffle_identities(&mut cities, &mut env.rng);
    let cargo_ranks: Vec<i32> = (0..4)
        .flat_map(|_| permutation_i32(env, 5))
        .map(|r| r + 1)
        .collect();
    let cargo_all = coins()
        .back()
        .suit(each([1, 3, 4, 2], 5))
        .rank(cargo_ranks)
        .rows();
    let mut cargo: Vec<Row> = (0..20)
        .map(|i| cargo_all[(i % 4) * 5 + i / 4].clone())
        .collect();
    let mut ships = pawns().rows();
    let mut ports = dice().rank(2).rows();
    // Lay tiles into cities of up to three (an L), three cities per column;
    // a city ends early when the next tile's suit is already in it.
    let (mut city_row, mut city_col, mut city_len) = (1, 1, 0);
    let mut city_suits: Vec<Option<i32>> = Vec::new();
    let (mut tile_x, mut tile_y) = (1.5, 13.5);
    let mut column_len = 1;
    let mut next_coin = 0;
    let mut max_x = f64::NEG_INFINITY;
    for i in 0..cities.len() {
        cities[i].x = tile_x;
        cities[i].y = tile_y;
        max_x = max_x.max(tile_x);
        city_len += 1;
        city_suits.push(cities[i].suit);
        let (dx, dy) = ship_it_corner(cities[i].angle);
        let suit_index = cities[i].suit.unwrap_or(1) as usize - 1;
        if cities[i].rank == Some(1) {
            ports[suit_index].x = tile_x - dx;
            ports[suit_index].y = tile_y + dy;
        }
        if cities[i].rank != Some(2) {
            if let Some(coin) = cargo.get_mut(next_coin) {
                coin.x = tile_x + dx;
                coin.y = tile_y + dy;
            }
            next_coin += 1;
        } else {
            ships[suit_index].x = tile_x + dx;
            ships[suit_index].y = tile_y + dy;
        }
        let Some(next) = cities.get(i + 1) else {
            break;
        };
        if city_suits.contains(&next.suit) || city_len == 3 {
            // The reference keeps the column within a city across cities of
            // the same column, which shifts the next city right; boards match it.
            city_row = 1;
            city_len = 0;
            city_suits.clear();
            if column_len == 3 {
                column_len = 1;
                city_col = 1;
                tile_y = 13.5;
                tile_x = max_x + 4.0;
            } else {
                column_len += 1;
                tile_y -= 4.0;
            }
        } else if city_row == 1 && city_col == 1 {
            city_col = 2;
            tile_x += 2.0;
        } else if city_row == 1 && city_col == 2 {
            city_row = 2;
            tile_y -= 2.0;
        } else if city_row == 2 && city_col == 2 {
            city_col = 1;
            tile_x -= 2.0;
        }
    }
    let max_y = cities.iter().map(|t| t.y).fold(f64::NEG_INFINITY, f64::max);
    let max_x = cities.iter().map(|t| t.x).fold(f64::NEG_INFINITY, f64::max);
    let mut contracts = crate::ppn::rules::setups::games::domino::domino_set(7)
        .back()
        .y(times([0.0, 3.0, 6.0, 9.0], 7)
            .into_iter()
            .map(|d| max_y - 0.5 - d)
            .collect::<Vec<_>>())
        .x(each([1.0, 3.0, 5.0, 7.0, 9.0, 11.0, 13.0], 4)
            .into_iter()
            .map(|d| max_x + 5.5 + d)
            .collect::<Vec<_>>())
        .rows();
    let turns = sample_values(&mut env.rng, &[0.0, 180.0], contracts.len());
    for (contract, angle) in contracts.iter_mut().zip(turns) {
        contract.angle = angle;
    }
    shuffle_identities(&mut contracts, &mut env.rng);
    Ok(stack(vec![cities, cargo, ships, ports, contracts]))
}
