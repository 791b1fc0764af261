//! A small column-oriented way to describe groups of pieces, with the vector
//! recycling rules of the data frames the setups are specified in, so that each
//! game reads like a list of "these coins at these places".

use std::collections::BTreeMap;

use crate::model::piece::{Cfg, Piece, PieceKind, Side};
use crate::ppn::rules::rng::RRng;

/// One piece while a setup is being built: suit and rank may still be
/// undecided (filled in later at random, or given the defaults).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Row {
    pub kind: PieceKind,
    pub side: Side,
    pub suit: Option<i32>,
    pub rank: Option<i32>,
    pub cfg: Option<Cfg>,
    pub x: f64,
    pub y: f64,
    pub angle: f64,
}

impl Row {
    pub fn into_piece(self) -> Piece {
        Piece {
            kind: self.kind,
            side: self.side,
            suit: self.suit.unwrap_or(1),
            rank: self.rank.unwrap_or(1),
            cfg: self.cfg.unwrap_or_else(|| cfg("piecepack")),
            x: self.x,
            y: self.y,
            angle: normalise_angle(self.angle),
        }
    }

    pub fn is(&self, kind: PieceKind) -> bool {
        self.kind == kind
    }
}

/// Angles are reported in [0, 360), without negative zero.
fn normalise_angle(angle: f64) -> f64 {
    let wrapped = angle.rem_euclid(360.0) + 0.0;
    if wrapped >= 360.0 {
        0.0
    } else {
        wrapped
    }
}

pub(crate) fn cfg(name: &str) -> Cfg {
    Cfg::new(name)
}

/// Values that can fill a column: a scalar (recycled) or a list.
pub(crate) trait Values<T> {
    fn values(self) -> Vec<T>;
}

impl Values<f64> for f64 {
    fn values(self) -> Vec<f64> {
        vec![self]
    }
}
impl Values<f64> for i32 {
    fn values(self) -> Vec<f64> {
        vec![f64::from(self)]
    }
}
impl Values<f64> for Vec<f64> {
    fn values(self) -> Vec<f64> {
        self
    }
}
impl Values<f64> for Vec<i32> {
    fn values(self) -> Vec<f64> {
        self.into_iter().map(f64::from).collect()
    }
}
impl<const N: usize> Values<f64> for [f64; N] {
    fn values(self) -> Vec<f64> {
        self.to_vec()
    }
}
impl<const N: usize> Values<f64> for [i32; N] {
    fn values(self) -> Vec<f64> {
        self.iter().copied().map(f64::from).collect()
    }
}
impl Values<f64> for std::ops::RangeInclusive<i32> {
    fn values(self) -> Vec<f64> {
        self.map(f64::from).collect()
    }
}
impl Values<Option<i32>> for i32 {
    fn values(self) -> Vec<Option<i32>> {
        vec![Some(self)]
    }
}
impl Values<Option<i32>> for Option<i32> {
    fn values(self) -> Vec<Option<i32>> {
        vec![self]
    }
}
impl Values<Option<i32>> for Vec<i32> {
    fn values(self) -> Vec<Option<i32>> {
        self.into_iter().map(Some).collect()
    }
}
impl Values<Option<i32>> for Vec<Option<i32>> {
    fn values(self) -> Vec<Option<i32>> {
        self
    }
}
impl<const N: usize> Values<Option<i32>> for [i32; N] {
    fn values(self) -> Vec<Option<i32>> {
        self.iter().copied().map(Some).collect()
    }
}
impl Values<Option<i32>> for std::ops::RangeInclusive<i32> {
    fn values(self) -> Vec<Option<i32>> {
        self.map(Some).collect()
    }
}

/// Not yet decided (R's `NA`).
pub(crate) const UNDECIDED: Option<i32> = None;

/// `rep(values, each = n)`.
pub(crate) fn each<T: Clone>(values: impl IntoIterator<Item = T>, n: usize) -> Vec<T> {
    values
        .into_iter()
        .flat_map(|v| std::iter::repeat_n(v, n))
        .collect()
}

/// `rep(values, times = n)`.
pub(crate) fn times<T: Clone>(values: impl IntoIterator<Item = T>, n: usize) -> Vec<T> {
    let once: Vec<T> = values.into_iter().collect();
    (0..n).flat_map(|_| once.iter().cloned()).collect()
}

/// `seq(from, by = step, length.out = n)`.
pub(crate) fn seq_by(from: f64, step: f64, n: usize) -> Vec<f64> {
    (0..n).map(|i| from + step * i as f64).collect()
}

/// `seq(from, to, by = step)` for integers.
pub(crate) fn seq_to(from: i32, to: i32, step: i32) -> Vec<i32> {
    let mut out = Vec::new();
    let mut value = from;
    while (step > 0 && value <= to) || (step < 0 && value >= to) {
        out.push(value);
        value += step;
    }
    out
}

/// Concatenate lists (R's `c()`).
pub(crate) fn cat<T: Clone>(parts: &[&[T]]) -> Vec<T> {
    parts.iter().flat_map(|p| p.iter().cloned()).collect()
}

/// Add a constant to every value.
pub(crate) fn plus(values: impl Values<f64>, offset: f64) -> Vec<f64> {
    values.values().into_iter().map(|v| v + offset).collect()
}

/// A group of pieces of one kind described column by column; shorter columns are
/// recycled to the length of the longest one.
#[derive(Clone, Debug)]
pub(crate) struct Group {
    kind: PieceKind,
    side: Vec<Side>,
    suit: Vec<Option<i32>>,
    rank: Vec<Option<i32>>,
    cfg: Vec<Option<Cfg>>,
    x: Vec<f64>,
    y: Vec<f64>,
    angle: Vec<f64>,
    length: Option<usize>,
}

impl Group {
    pub fn new(kind: PieceKind, side: Side) -> Group {
        Group {
            kind,
            side: vec![side],
            suit: vec![Some(1)],
            rank: vec![Some(1)],
            cfg: vec![Some(cfg("piecepack"))],
            x: vec![1.0],
            y: vec![1.0],
            angle: vec![0.0],
            length: None,
        }
    }

    pub fn side(mut self, side: Side) -> Group {
        self.side = vec![side];
        self
    }
    /// A side per piece.
    pub fn sides(mut self, sides: Vec<Side>) -> Group {
        self.side = sides;
        self
    }
    pub fn face(self) -> Group {
        self.side(Side::Face)
    }
    pub fn back(self) -> Group {
        self.side(Side::Back)
    }
    pub fn suit(mut self, suit: impl Values<Option<i32>>) -> Group {
        self.suit = suit.values();
        self
    }
    pub fn rank(mut self, rank: impl Values<Option<i32>>) -> Group {
        self.rank = rank.values();
        self
    }
    pub fn cfg(mut self, name: &str) -> Group {
        self.cfg = vec![Some(cfg(name))];
        self
    }
    /// A configuration per piece.
    pub fn cfgs(mut self, names: &[&str]) -> Group {
        self.cfg = names.iter().map(|n| Some(cfg(n))).collect();
        self
    }
    pub fn no_cfg(mut self) -> Group {
        self.cfg = vec![None];
        self
    }
    pub fn x(mut self, x: impl Values<f64>) -> Group {
        self.x = x.values();
        self
    }
    pub fn y(mut self, y: impl Values<f64>) -> Group {
        self.y = y.values();
        self
    }
    pub fn angle(mut self, angle: impl Values<f64>) -> Group {
        self.angle = angle.values();
        self
    }
    /// R's `length.out`: how many pieces, when no column says so.
    pub fn count(mut self, n: usize) -> Group {
        self.length = Some(n);
        self
    }

    pub fn rows(self) -> Vec<Row> {
        let n = self.length.unwrap_or_else(|| {
            [
                self.side.len(),
                self.suit.len(),
                self.rank.len(),
                self.cfg.len(),
                self.x.len(),
                self.y.len(),
                self.angle.len(),
            ]
            .into_iter()
            .max()
            .unwrap_or(0)
        });
        let pick = |len: usize, i: usize| if len == 0 { None } else { Some(i % len) };
        (0..n)
            .filter_map(|i| {
                Some(Row {
                    kind: self.kind,
                    side: self.side[pick(self.side.len(), i)?],
                    suit: self.suit[pick(self.suit.len(), i)?],
                    rank: self.rank[pick(self.rank.len(), i)?],
                    cfg: self.cfg[pick(self.cfg.len(), i)?],
                    x: self.x[pick(self.x.len(), i)?],
                    y: self.y[pick(self.y.len(), i)?],
                    angle: self.angle[pick(self.angle.len(), i)?],
                })
            })
            .collect()
    }
}

/// Piecepack coins; by default all 24, face up, in suit order.
pub(crate) fn coins() -> Group {
    Group::new(PieceKind::Coin, Side::Face)
        .suit(each(1..=4, 6))
        .rank(times(1..=6, 4))
        .x(times(1..=6, 4))
        .y(each([4, 3, 2, 1], 6))
}

/// Piecepack tiles; by default all 24, face up.
pub(crate) fn tiles() -> Group {
    Group::new(PieceKind::Tile, Side::Face)
        .suit(each(1..=4, 6))
        .rank(times(1..=6, 4))
        .x(times([2, 4, 6, 8, 10, 12], 4))
        .y(each([8, 6, 4, 2], 6))
}

/// Piecepack dice; by default one per suit.
pub(crate) fn dice() -> Group {
    Group::new(PieceKind::Die, Side::Face)
        .suit(1..=4)
        .rank(1)
        .x(1..=4)
        .y(1)
}

/// Piecepack pawns; by default one per suit.
pub(crate) fn pawns() -> Group {
    Group::new(PieceKind::Pawn, Side::Face)
        .suit(1..=4)
        .rank(1)
        .x(1..=4)
        .y(1)
}

/// Piecepack matchsticks; by default all 24.
pub(crate) fn matchsticks() -> Group {
    Group::new(PieceKind::Matchstick, Side::Face)
        .suit(each(1..=4, 6))
        .rank(times(1..=6, 4))
        .x(times(1..=6, 4))
        .y(each([12, 9, 6, 3], 6))
}

/// Shuffle which suit and rank each piece has, keeping where pieces are.
pub(crate) fn shuffle_identities(rows: &mut [Row], rng: &mut RRng) {
    let order = rng.permutation(rows.len());
    let identities: Vec<(Option<i32>, Option<i32>)> = order
        .into_iter()
        .map(|i| (rows[i - 1].suit, rows[i - 1].rank))
        .collect();
    for (row, (suit, rank)) in rows.iter_mut().zip(identities) {
        row.suit = suit;
        row.rank = rank;
    }
}

/// Like [`shuffle_identities`], and which side is up goes with the identity.
pub(crate) fn shuffle_identities_and_sides(rows: &mut [Row], rng: &mut RRng) {
    let order = rng.permutation(rows.len());
    let identities: Vec<(Side, Option<i32>, Option<i32>)> = order
        .into_iter()
        .map(|i| (rows[i - 1].side, rows[i - 1].suit, rows[i - 1].rank))
        .collect();
    for (row, (side, suit, rank)) in rows.iter_mut().zip(identities) {
        row.side = side;
        row.suit = suit;
        row.rank = rank;
    }
}

/// `sample(values, n, replace = TRUE)`.
pub(crate) fn sample_values<T: Clone>(rng: &mut RRng, values: &[T], n: usize) -> Vec<T> {
    rng.sample_with_replacement(values.len(), n)
        .into_iter()
        .map(|i| values[i - 1].clone())
        .collect()
}

/// Piecepack saucers; by default one per suit.
pub(crate) fn saucers() -> Group {
    Group::new(PieceKind::Saucer, Side::Face)
        .suit(1..=4)
        .rank(1)
        .x(1..=4)
        .y(1)
}

/// Piecepack pyramids; by default all 24, point up.
pub(crate) fn pyramids() -> Group {
    Group::new(PieceKind::Pyramid, Side::Top)
        .suit(each(1..=4, 6))
        .rank(times(1..=6, 4))
        .x(times(1..=6, 4))
        .y(each([4, 3, 2, 1], 6))
}

/// Concatenate groups of rows, bottom first.
pub(crate) fn stack(groups: Vec<Vec<Row>>) -> Vec<Row> {
    groups.into_iter().flatten().collect()
}

/// Give a random unused rank to every piece whose rank is undecided, among the
/// pieces of the same kind and suit (the reference does this group by group, in
/// order of kind name then suit, which matters for the random stream).
pub(crate) fn fill_ranks(rows: &mut [Row], rng: &mut RRng) {
    fill_by_group(rows, rng, |row| row.suit, |row| &mut row.rank);
}

/// Like [`fill_ranks`] for undecided suits, grouped by kind and rank.
pub(crate) fn fill_suits(rows: &mut [Row], rng: &mut RRng) {
    fill_by_group(rows, rng, |row| row.rank, |row| &mut row.suit);
}

fn fill_by_group(
    rows: &mut [Row],
    rng: &mut RRng,
    key: impl Fn(&Row) -> Option<i32>,
    field: impl Fn(&mut Row) -> &mut Option<i32>,
) {
    // R sorts missing keys last.
    let mut groups: BTreeMap<(&'static str, bool, i32), Vec<usize>> = BTreeMap::new();
    for (i, row) in rows.iter().enumerate() {
        let k = key(row);
        groups
            .entry((row.kind.name(), k.is_none(), k.unwrap_or(0)))
            .or_default()
            .push(i);
    }
    for members in groups.values() {
        let current: Vec<Option<i32>> = members.iter().map(|&i| *field(&mut rows[i])).collect();
        let missing: Vec<usize> = (0..current.len())
            .filter(|&j| current[j].is_none())
            .collect();
        if missing.is_empty() {
            continue;
        }
        let available: Vec<i32> = (1..=current.len() as i32)
            .filter(|v| !current.contains(&Some(*v)))
            .collect();
        let picks = rng.sample_without_replacement(available.len(), missing.len());
        for (j, pick) in missing.into_iter().zip(picks) {
            *field(&mut rows[members[j]]) = Some(available[pick - 1]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_columns_are_recycled() {
        // Every column given, so none of the 24-coin defaults is left over.
        let rows = coins().back().suit([1, 2]).rank(3).x(1..=4).y(2).rows();
        let summary: Vec<(Option<i32>, Option<i32>, f64, f64)> =
            rows.iter().map(|r| (r.suit, r.rank, r.x, r.y)).collect();
        assert_eq!(
            summary,
            vec![
                (Some(1), Some(3), 1.0, 2.0),
                (Some(2), Some(3), 2.0, 2.0),
                (Some(1), Some(3), 3.0, 2.0),
                (Some(2), Some(3), 4.0, 2.0),
            ]
        );
        assert!(rows.iter().all(|r| r.side == Side::Back));
    }

    #[test]
    fn undecided_ranks_are_dealt_like_the_reference() {
        // Expected values from the reference with `set.seed(1)`.
        let mut rows = stack(vec![
            coins()
                .back()
                .suit([2, 1, 2, 1, 1])
                .rank(vec![None, None, Some(3), None, None])
                .x(1..=5)
                .y(1)
                .rows(),
            dice().suit([1, 1]).rank(UNDECIDED).x([1, 2]).rows(),
        ]);
        fill_ranks(&mut rows, &mut RRng::from_seed(1));
        let ranks: Vec<Option<i32>> = rows.iter().map(|r| r.rank).collect();
        assert_eq!(ranks, [1, 1, 3, 2, 3, 2, 1].map(Some));
    }

    #[test]
    fn undecided_suits_are_dealt_like_the_reference() {
        let mut rows = coins()
            .suit(UNDECIDED)
            .rank([1, 1, 2, 1])
            .x(1..=4)
            .y(1)
            .rows();
        fill_suits(&mut rows, &mut RRng::from_seed(1));
        let suits: Vec<Option<i32>> = rows.iter().map(|r| r.suit).collect();
        assert_eq!(suits, [1, 2, 1, 3].map(Some));
    }

    #[test]
    fn angles_are_normalised() {
        let row = coins().angle(-90).rows().remove(0);
        assert_eq!(row.into_piece().angle, 270.0);
        let row = coins().angle(720).rows().remove(0);
        assert_eq!(row.into_piece().angle, 0.0);
    }
}
