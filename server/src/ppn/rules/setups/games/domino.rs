//! Setups for dominoes: a double-six (or double-n) set, mostly dealt at random.

use crate::model::piece::{PieceKind, Side};
use crate::ppn::rules::setups::args::bad;
use crate::ppn::rules::setups::env::Env;
use crate::ppn::rules::setups::error::SetupError;
use crate::ppn::rules::setups::frame::{
    cat, each, pawns, sample_values, shuffle_identities, stack, times, Group, Row,
};

use super::{fen, text};

type Built = Result<Vec<Row>, SetupError>;

/// The double-(n-1) set, ordered by lower half then upper half; suit is the
/// larger half plus one, rank the smaller half plus one.  By default laid out as
/// a triangle.
pub(crate) fn domino_set(n: i32) -> Group {
    let mut suit = Vec::new();
    let mut rank = Vec::new();
    let mut y = Vec::new();
    for low in 1..=n {
        for high in low..=n {
            suit.push(high);
            rank.push(low);
            y.push(f64::from(2 * (n - low + 1)) - 0.5);
        }
    }
    Group::new(PieceKind::Tile, Side::Face)
        .cfg("dominoes")
        .suit(suit.clone())
        .rank(rank)
        .x(suit)
        .y(y)
}

/// Turn every tile a random one of `angles`.
fn turn_randomly(rows: &mut [Row], env: &mut Env, angles: &[f64]) {
    let turned = sample_values(&mut env.rng, angles, rows.len());
    for (row, angle) in rows.iter_mut().zip(turned) {
        row.angle = angle;
    }
}

fn shuffled(env: &mut Env, set: Group, angles: &[f64]) -> Vec<Row> {
    let mut rows = set.rows();
    shuffle_identities(&mut rows, &mut env.rng);
    turn_randomly(&mut rows, env, angles);
    rows
}

/// Turn the first tile of each row of a triangle face up.
fn reveal_triangle_heads(rows: &mut [Row]) {
    for i in [1, 8, 14, 19, 23, 26, 28] {
        if let Some(row) = rows.get_mut(i - 1) {
            row.side = Side::Face;
        }
    }
}

/// The largest `n` of a double-(n-1) set whose tiles fit on a board (62 gives 1,953).
const MAX_SET_SIZE: i32 = 62;

pub(crate) fn tiles(env: &mut Env) -> Built {
    let n = env.args.integer("n")?.unwrap_or(7);
    if !(1..=MAX_SET_SIZE).contains(&n) {
        return Err(bad(
            "n",
            &format!(
                "must be between 1 and {MAX_SET_SIZE} (a double-(n-1) set has n(n+1)/2 tiles)"
            ),
        ));
    }
    Ok(domino_set(n).rows())
}

pub(crate) fn concentration(env: &mut Env) -> Built {
    let set = domino_set(7)
        .back()
        .x(each(1..=7, 4))
        .y(times([2, 4, 6, 8], 7));
    Ok(shuffled(env, set, &[0.0, 180.0]))
}

pub(crate) fn finder(env: &mut Env) -> Built {
    let mut set = domino_set(7).back().rows();
    turn_randomly(&mut set, env, &[90.0, 270.0]);
    // Shuffle the seven tiles with a blank half and the others separately...
    let blanks = env.rng.permutation(7);
    let others = env.rng.permutation(21);
    let mut order: Vec<usize> = blanks;
    order.extend(others.into_iter().map(|i| i + 7));
    let reordered: Vec<Row> = order.iter().map(|&i| set[i - 1].clone()).collect();
    // ... then deal rows of four, each with exactly one blank tile.
    let mut rows = Vec::new();
    for row in 0..7 {
        rows.push(reordered[row].clone());
        for k in 0..3 {
            rows.push(reordered[7 + 3 * row + k].clone());
        }
    }
    let columns: Vec<i32> = (0..7)
        .flat_map(|_| env.rng.permutation(4))
        .map(|c| c as i32)
        .collect();
    for (i, tile) in rows.iter_mut().enumerate() {
        tile.x = f64::from(2 * columns[i]) - 0.5;
        tile.y = f64::from(7 - i as i32 / 4);
    }
    Ok(rows)
}

pub(crate) fn freecell(env: &mut Env) -> Built {
    let n = env.args.integer("n")?.unwrap_or(7);
    if !(2..=20).contains(&n) {
        return Err(bad("n", "must be between 2 and 20"));
    }
    let total = n * (n - 1) / 2;
    let columns = n - 1;
    let (base, extra) = (total / columns, total % columns);
    let header_y = 2 * (base + i32::from(extra > 0)) + 2;
    let set = domino_set(n).rows();
    let headers: Vec<Row> = set
        .iter()
        .filter(|t| t.rank == Some(1))
        .enumerate()
        .map(|(i, t)| Row {
            x: i as f64 + 1.0,
            y: f64::from(header_y),
            angle: 180.0,
            ..t.clone()
        })
        .collect();
    let counts: Vec<i32> = cat(&[
        &vec![base; (columns - extra) as usize],
        &vec![base + 1; extra as usize],
    ]);
    let mut places = Vec::new();
    for (column, count) in counts.iter().enumerate() {
        for k in 1..=*count {
            places.push((column as f64 + 2.0, f64::from(header_y - 2 * k)));
        }
    }
    let mut cascade: Vec<Row> = set.into_iter().filter(|t| t.rank >= Some(2)).collect();
    shuffle_identities(&mut cascade, &mut env.rng);
    for (tile, (x, y)) in cascade.iter_mut().zip(places) {
        tile.x = x;
        tile.y = y;
        tile.angle = 180.0;
    }
    Ok(stack(vec![headers, cascade]))
}

pub(crate) fn fujisan(env: &mut Env) -> Built {
    let all: Vec<Row> = domino_set(6)
        .rows()
        .into_iter()
        .filter(|t| t.suit != t.rank)
        .collect();
    let tiles = match env.args.text("pips")? {
        None => {
            let mut tiles = all;
            shuffle_identities(&mut tiles, &mut env.rng);
            let turns = sample_values(&mut env.rng, &[180.0, 0.0], 12);
            let x = cat(&[&[7.5; 3], &(2..=13).map(f64::from).collect::<Vec<_>>()]);
            let y = cat(&[&[0.5, 1.5, 2.5], &[1.5; 12]]);
            let angles = cat(&[&[90.0; 3], &turns]);
            for (i, tile) in tiles.iter_mut().enumerate() {
                tile.x = x[i];
                tile.y = y[i];
                tile.angle = angles[i];
                if i < 3 {
                    tile.side = Side::Back;
                }
            }
            tiles
        }
        Some(spec) => {
            let pips: Vec<i32> = text::ranks("pips", &spec, 24)?
                .into_iter()
                .map(|r| r - 1)
                .collect();
            if pips.len() != 24 {
                return Err(bad("pips", "expected 24 pips (two rows of twelve)"));
            }
            let (top, bottom) = pips.split_at(12);
            let mut board = Vec::new();
            let mut used = Vec::new();
            for (i, (t, b)) in top.iter().zip(bottom).enumerate() {
                let (suit, rank) = ((*t.max(b)) + 1, (*t.min(b)) + 1);
                let index = all
                    .iter()
                    .position(|d| d.suit == Some(suit) && d.rank == Some(rank))
                    .ok_or_else(|| bad("pips", "not a domino of the set"))?;
                if used.contains(&index) {
                    return Err(bad("pips", "a domino appears twice"));
                }
                used.push(index);
                board.push(Row {
                    x: i as f64 + 2.0,
                    y: 1.5,
                    angle: if t >= b { 180.0 } else { 0.0 },
                    ..all[index].clone()
                });
            }
            let mut mountain: Vec<Row> = all
                .iter()
                .enumerate()
                .filter(|(i, _)| !used.contains(i))
                .map(|(_, t)| t.clone())
                .collect();
            shuffle_identities(&mut mountain, &mut env.rng);
            for (tile, y) in mountain.iter_mut().zip([0.5, 1.5, 2.5]) {
                tile.side = Side::Back;
                tile.x = 7.5;
                tile.y = y;
                tile.angle = 90.0;
            }
            stack(vec![mountain, board])
        }
    };
    let pawn_text = env
        .args
        .text("pawns")?
        .unwrap_or_else(|| "S12M/A12C".to_string());
    let placed = fen::placements(&pawn_text);
    let suits = placed
        .iter()
        .map(|p| text::suit_of(p.symbol).ok_or_else(|| bad("pawns", "unknown suit")))
        .collect::<Result<Vec<_>, _>>()?;
    let pawn_rows = pawns()
        .suit(suits)
        .x(placed.iter().map(|p| p.x).collect::<Vec<_>>())
        .y(placed.iter().map(|p| p.y).collect::<Vec<_>>())
        .count(placed.len())
        .rows();
    Ok(stack(vec![tiles, pawn_rows]))
}

pub(crate) fn luzon(env: &mut Env) -> Built {
    let set = domino_set(7)
        .x(cat(&[&times(1..=5, 5), &[7, 7, 7]])
            .into_iter()
            .map(|v| 2 * v)
            .collect::<Vec<_>>())
        .y(cat(&[&each(1..=5, 5), &[1, 3, 5]]));
    Ok(shuffled(env, set, &[90.0, 270.0]))
}

pub(crate) fn patience(env: &mut Env) -> Built {
    let mut rows = shuffled(env, domino_set(7).back(), &[0.0, 180.0]);
    reveal_triangle_heads(&mut rows);
    Ok(rows)
}

pub(crate) fn runners(env: &mut Env) -> Built {
    let set = domino_set(7)
        .x(times([1.5, 3.5, 5.5, 7.5], 7))
        .y(each([7, 6, 5, 4, 3, 2, 1], 4));
    Ok(shuffled(env, set, &[90.0, 270.0]))
}

pub(crate) fn the_jubilee(env: &mut Env) -> Built {
    let mut rows = shuffled(env, domino_set(7).back().y(2), &[0.0, 180.0]);
    reveal_triangle_heads(&mut rows);
    Ok(rows)
}

pub(crate) fn the_sultan(env: &mut Env) -> Built {
    let set = domino_set(7).x(1..=28).y(1);
    Ok(shuffled(env, set, &[0.0, 180.0]))
}

pub(crate) fn bee_donimoes(env: &mut Env) -> Built {
    let n = env.args.integer("n")?.unwrap_or(7);
    if !(1..=7).contains(&n) {
        return Err(bad("n", "must be between 1 and 7"));
    }
    let mut hive = domino_set(n).rows();
    shuffle_identities(&mut hive, &mut env.rng);
    // Odd sets lie in horizontal rows, even sets in vertical pairs of rows.
    let horizontal = n % 2 == 1;
    let (x, y, angles): (Vec<f64>, Vec<f64>, &[f64]) = if horizontal {
        let per_row = ((n + 1) / 2) as usize;
        let centres: Vec<f64> = (1..=per_row).map(|i| 2.0 * i as f64 - 0.5).collect();
        (
            times(centres, n as usize),
            each((1..=n).map(f64::from), per_row),
            &[90.0, 270.0],
        )
    } else {
        let rows = (n / 2) as usize;
        let centres: Vec<f64> = (1..=rows).map(|i| 2.0 * i as f64 - 0.5).collect();
        (
            times((1..=n + 1).map(f64::from), rows),
            each(centres, (n + 1) as usize),
            &[0.0, 180.0],
        )
    };
    for (i, tile) in hive.iter_mut().enumerate() {
        tile.x = x[i];
        tile.y = y[i];
    }
    turn_randomly(&mut hive, env, angles);
    // A die marks the blank end of each domino with a blank half (but not 0-0).
    let starters: Vec<&Row> = hive
        .iter()
        .filter(|t| t.rank == Some(1) && t.suit > Some(1))
        .collect();
    let die_at = |t: &Row| -> (f64, f64) {
        if horizontal {
            (
                if t.angle == 90.0 {
                    t.x + 0.5
                } else {
                    t.x - 0.5
                },
                t.y,
            )
        } else {
            (t.x, if t.angle == 0.0 { t.y - 0.5 } else { t.y + 0.5 })
        }
    };
    let die_rows = Group::new(PieceKind::Die, Side::Face)
        .cfg("dice")
        .suit(6)
        .rank(
            starters
                .iter()
                .map(|t| t.suit.unwrap_or(1) - 1)
                .collect::<Vec<_>>(),
        )
        .x(starters.iter().map(|t| die_at(t).0).collect::<Vec<_>>())
        .y(starters.iter().map(|t| die_at(t).1).collect::<Vec<_>>())
        .count(starters.len())
        .rows();
    Ok(stack(vec![hive, die_rows]))
}
