//! Boards shared by many setups: grids of piecepack tiles, checkered boards.

use crate::model::piece::{PieceKind, Side};
use crate::ppn::rules::setups::args::bad;
use crate::ppn::rules::setups::error::SetupError;
use crate::ppn::rules::setups::frame::{cfg, each, tiles, times, Group, Row, Values};

/// A board of face-down piecepack tiles with `nrows` x `ncols` cells, whose
/// bottom-left cell is centred at (`x0`, `y0`).  Even sizes are made of 2x2
/// squares; other sizes use the tiles' lines, adding one-cell "rivers" between
/// tiles where needed.
#[derive(Clone, Debug)]
pub(crate) struct TileBoard {
    nrows: i32,
    ncols: i32,
    x0: f64,
    y0: f64,
    max_tiles: i32,
    suit: Vec<Option<i32>>,
    rank: Vec<Option<i32>>,
}

pub(crate) fn tile_board(nrows: i32, ncols: i32) -> TileBoard {
    TileBoard {
        nrows,
        ncols,
        x0: 1.0,
        y0: 1.0,
        max_tiles: 24,
        suit: times(1..=4, 6).into_iter().map(Some).collect(),
        rank: each(1..=6, 4).into_iter().map(Some).collect(),
    }
}

impl TileBoard {
    pub fn at(mut self, x0: f64, y0: f64) -> TileBoard {
        self.x0 = x0;
        self.y0 = y0;
        self
    }
    pub fn max_tiles(mut self, max_tiles: i32) -> TileBoard {
        self.max_tiles = max_tiles;
        self
    }
    pub fn suit(mut self, suit: impl Values<Option<i32>>) -> TileBoard {
        self.suit = suit.values();
        self
    }
    pub fn rank(mut self, rank: impl Values<Option<i32>>) -> TileBoard {
        self.rank = rank.values();
        self
    }

    pub fn try_rows(self) -> Result<Vec<Row>, SetupError> {
        let (xs, ys) = tile_offsets(self.nrows, self.ncols, self.max_tiles).ok_or_else(|| {
            bad(
                "nrows",
                &format!(
                    "cannot form a {}x{} board with {} tiles",
                    self.ncols, self.nrows, self.max_tiles
                ),
            )
        })?;
        let x: Vec<f64> = times(xs.iter().map(|x| self.x0 + x), ys.len());
        let y: Vec<f64> = each(ys.iter().map(|y| self.y0 + y), xs.len());
        let n = x.len();
        Ok(Group::new(PieceKind::Tile, Side::Back)
            .suit(self.suit)
            .rank(self.rank)
            .x(x)
            .y(y)
            .count(n)
            .rows())
    }

    /// For the fixed boards of fixed setups, which always fit.
    pub fn rows(self) -> Vec<Row> {
        self.try_rows().unwrap_or_default()
    }
}

fn even(n: i32) -> bool {
    n % 2 == 0
}

/// R's `from:to`, which counts down when `to < from`.
fn colon(from: i32, to: i32) -> Vec<i32> {
    if from <= to {
        (from..=to).collect()
    } else {
        (to..=from).rev().collect()
    }
}

/// Centre offsets of tile columns and rows (relative to the first cell).
fn tile_offsets(nrows: i32, ncols: i32, max_tiles: i32) -> Option<(Vec<f64>, Vec<f64>)> {
    if even(nrows) && even(ncols) && nrows * ncols / 4 <= max_tiles {
        let squares = |n: i32| (0..n / 2).map(|i| 0.5 + 2.0 * f64::from(i)).collect();
        return Some((squares(ncols), squares(nrows)));
    }
    let min_line_tiles = |n: i32| if n % 3 == 0 { n / 3 } else { n / 3 + 1 };
    let usable = ![2, 4].contains(&nrows)
        && ![2, 4].contains(&ncols)
        && min_line_tiles(nrows) * min_line_tiles(ncols) <= max_tiles;
    if !usable {
        return None;
    }
    let tiles_for = |n: i32, rivers: i32| (n - rivers) / 2; // ceiling((n - rivers - 1) / 2)
    let lines = |tiles: i32, rivers: i32| 2 * tiles + 1 + rivers;
    let mut best = 0;
    let mut layout = None;
    for row_rivers in colon(i32::from(even(nrows)), nrows / 3 - 1) {
        for col_rivers in colon(i32::from(even(ncols)), ncols / 3 - 1) {
            let row_tiles = tiles_for(nrows, row_rivers);
            let col_tiles = tiles_for(ncols, col_rivers);
            let count = row_tiles * col_tiles;
            if lines(row_tiles, row_rivers) == nrows
                && lines(col_tiles, col_rivers) == ncols
                && count > best
                && count <= max_tiles
            {
                best = count;
                layout = Some((
                    line_positions(col_rivers, col_tiles),
                    line_positions(row_rivers, row_tiles),
                ));
            }
        }
    }
    layout
}

/// Tile centres along one axis: gaps of 3 (a river) or 2 (adjacent tiles),
/// spread so that rivers do not bunch up.
fn line_positions(rivers: i32, tiles: i32) -> Vec<f64> {
    let gaps = cat_gaps(rivers, tiles - rivers - 1);
    let mut positions = vec![1.0];
    for gap in spread_rivers(gaps) {
        positions.push(positions[positions.len() - 1] + gap);
    }
    positions
}

fn cat_gaps(threes: i32, twos: i32) -> Vec<f64> {
    let mut gaps = vec![3.0; threes.max(0) as usize];
    gaps.extend(vec![2.0; twos.max(0) as usize]);
    gaps
}

/// Penalty for runs of equal gaps.
fn bunching(gaps: &[f64]) -> f64 {
    let mut score = 0.0;
    let mut streak = 0.0;
    let mut previous = f64::INFINITY;
    for &gap in gaps {
        if gap == previous {
            streak += 1.0;
            score += streak * gap;
        } else {
            streak = 0.0;
        }
        previous = gap;
    }
    score
}

/// Greedily swap gaps while that lowers the bunching penalty (first improving
/// swap per pass, scanning pairs in a fixed order).
fn spread_rivers(mut gaps: Vec<f64>) -> Vec<f64> {
    if gaps.len() < 3 {
        return gaps;
    }
    let mut score = f64::INFINITY;
    let mut new_score = bunching(&gaps);
    while new_score < score {
        score = new_score;
        for i in 1..gaps.len() {
            for j in 0..i {
                if gaps[i] != gaps[j] && new_score == score {
                    let mut swapped = gaps.clone();
                    swapped.swap(i, j);
                    let candidate = bunching(&swapped);
                    if candidate < score {
                        new_score = candidate;
                        gaps = swapped;
                    }
                }
            }
        }
    }
    gaps
}

/// 24 tiles in a 5x5 square with a hole in the middle; bottom-left tile
/// centred at (`x0` + 0.5, `y0` + 0.5).
pub(crate) fn donut_board(x0: f64, y0: f64) -> Group {
    let x: Vec<f64> = [
        times([0, 2, 4, 6, 8], 2),
        vec![0, 2, 6, 8],
        times([0, 2, 4, 6, 8], 2),
    ]
    .concat()
    .into_iter()
    .map(|v| x0 + 0.5 + f64::from(v))
    .collect();
    let y: Vec<f64> = [
        each([8], 5),
        each([6], 5),
        each([4], 4),
        each([2], 5),
        each([0], 5),
    ]
    .concat()
    .into_iter()
    .map(|v| y0 + 0.5 + f64::from(v))
    .collect();
    tiles().back().x(x).y(y)
}

/// A square board (checkers, chess, ...) of `size` cells whose bottom-left cell
/// is centred at (1, 1); `rank` records the size.
pub(crate) fn square_board(size: i32, suit: i32) -> Row {
    let centre = 0.5 + 0.5 * f64::from(size);
    Row {
        kind: PieceKind::Board,
        side: Side::Face,
        suit: Some(suit),
        rank: Some(size),
        cfg: None,
        x: centre,
        y: centre,
        angle: 0.0,
    }
}

/// Scale coordinates by the cell width and give every piece the system's
/// configuration for that width (`checkers1`, `chess2`, ...).
pub(crate) fn with_cell_width(rows: Vec<Row>, system: &str, cell_width: u32) -> Vec<Row> {
    let name = cfg(&format!("{system}{cell_width}"));
    let scale = f64::from(cell_width);
    rows.into_iter()
        .map(|row| Row {
            cfg: Some(name),
            x: scale * row.x,
            y: scale * row.y,
            ..row
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn centres(nrows: i32, ncols: i32, max_tiles: i32) -> Option<(Vec<f64>, Vec<f64>)> {
        tile_offsets(nrows, ncols, max_tiles)
    }

    #[test]
    fn even_boards_use_squares() {
        assert_eq!(
            centres(4, 6, 24),
            Some((vec![0.5, 2.5, 4.5], vec![0.5, 2.5]))
        );
    }

    #[test]
    fn odd_boards_use_lines_and_rivers() {
        assert_eq!(
            centres(9, 9, 24),
            Some((vec![1.0, 3.0, 5.0, 7.0], vec![1.0, 3.0, 5.0, 7.0]))
        );
        // 10 rows need one river: 3 + 2 + 2 + 2 spread out.
        let (_, rows) = centres(10, 9, 24).unwrap_or_default();
        assert_eq!(rows, vec![1.0, 3.0, 6.0, 8.0]);
        assert_eq!(centres(4, 5, 24), None);
    }
}
