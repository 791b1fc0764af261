//! Finding pieces (PieceId) and places (Location) on a board.

use crate::model::piece::Piece;
use crate::ppn::engine::footprint::{ActiveUse, FootprintRecorder, SearchedFeatures};
use crate::ppn::engine::state::{Board, PieceTag};
use crate::ppn::notation::issue::Issue;
use crate::ppn::notation::location::{Anchor, Location, LocationKind};
use crate::ppn::notation::piece_id::{PieceId, PieceIdKind};
use crate::ppn::notation::piece_spec::{ParserOptions, PieceSpec};

/// What a lookup needs besides the board it looks at.
pub(crate) struct Context<'a> {
    /// The sub-move text that ranges point into, for messages.
    pub(crate) text: &'a str,
    pub(crate) move_start: &'a Board,
    pub(crate) active: &'a [PieceTag],
    pub(crate) scale_factor: f64,
    pub(crate) options: &'a ParserOptions,
    /// Warnings found while looking things up.
    pub(crate) warnings: &'a std::cell::RefCell<Vec<Issue>>,
    /// Notes what the lookups read.
    pub(crate) footprint: &'a FootprintRecorder,
}

pub(crate) type Point = (f64, f64);

/// Board positions or points found by a lookup: most lookups find one (a Location's top
/// piece, a square), which is kept without allocating a list.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Found<T> {
    One(T),
    Many(Vec<T>),
}

impl<T> std::ops::Deref for Found<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        match self {
            Found::One(value) => std::slice::from_ref(value),
            Found::Many(values) => values,
        }
    }
}

fn no_piece(id: &PieceId, what: impl Into<String>) -> Issue {
    Issue::error(id.range.clone(), "no-piece", what)
}

pub(crate) fn same_angle(a: f64, b: f64) -> bool {
    let difference = (a - b).rem_euclid(360.0);
    !(1e-6..=360.0 - 1e-6).contains(&difference)
}

/// Squared distances rounded as the reference rounds them, so that pieces placed by
/// different arithmetic still count as "at" a location.
fn rounded_distances(board: &Board, (x, y): Point) -> Vec<f64> {
    board
        .pieces
        .iter()
        .map(|p| {
            let d2 = (p.x - x).powi(2) + (p.y - y).powi(2);
            (d2 * 1e5).round() / 1e5
        })
        .collect()
}

/// The positions of the `count` pieces nearest (by `distances`), as the reference gives
/// them: the end of the board sorted stably from the farthest piece to the nearest.
fn nearest(distances: &[f64], count: usize) -> Vec<usize> {
    // Nearest first, and of two as near the later on the board first: the reverse of the
    // reference's order, in which the first `count` are the ones kept. Only those need
    // sorting.
    if count == 0 {
        return Vec::new();
    }
    let nearer = |a: &usize, b: &usize| distances[*a].total_cmp(&distances[*b]).then(b.cmp(a));
    let mut order: Vec<usize> = (0..distances.len()).collect();
    if count < order.len() {
        order.select_nth_unstable_by(count - 1, nearer);
        order.truncate(count);
    }
    order.sort_unstable_by(|a, b| nearer(b, a));
    order
}

/// Whether a piece is exactly at `point`: its squared distance rounds (as in
/// [`rounded_distances`]) to zero, that is, it is under half of 1e-5.
fn is_at(piece: &Piece, (x, y): Point) -> bool {
    let d2 = (piece.x - x).powi(2) + (piece.y - y).powi(2);
    d2 * 1e5 < 0.5
}

/// The position of the top piece exactly at `point`.
fn top_at(board: &Board, point: Point) -> Option<usize> {
    board.pieces.iter().rposition(|piece| is_at(piece, point))
}

/// Positions of the pieces exactly at `point`, bottom first.
fn stack_at(board: &Board, point: Point) -> Vec<usize> {
    board
        .pieces
        .iter()
        .enumerate()
        .filter(|(_, piece)| is_at(piece, point))
        .map(|(i, _)| i)
        .collect()
}

impl Context<'_> {
    fn quote(&self, range: &std::ops::Range<usize>) -> &str {
        self.text.get(range.clone()).unwrap_or_default()
    }

    /// Board positions of the pieces a PieceId identifies (never empty).
    pub(crate) fn positions(&self, id: &PieceId, board: &Board) -> Result<Found<usize>, Issue> {
        let found = self.identify(id, board)?;
        for &position in found.iter() {
            let piece = &board.pieces[position];
            self.footprint.read_point((piece.x, piece.y));
        }
        Ok(found)
    }

    fn identify(&self, id: &PieceId, board: &Board) -> Result<Found<usize>, Issue> {
        // The most common PieceIds, a Location's top piece and searches, are found by
        // their positions: a piece's identity is unique on its board.
        match &id.kind {
            PieceIdKind::Top(location) => {
                return self.top(id, location, board).map(Found::One);
            }
            // A search's positions are already in board order.
            PieceIdKind::Search { spec, greedy } => {
                return self.search(id, spec, *greedy, board).map(Found::Many);
            }
            // The last active pieces are found without copying their list first.
            PieceIdKind::Active if !self.active.is_empty() => {
                self.footprint.use_active(ActiveUse::Read);
                let positions = board.positions_of(self.active);
                if !positions.is_empty() {
                    return Ok(Found::Many(positions));
                }
            }
            _ => {}
        }
        let tags = self.tags(id, board)?;
        let positions = board.positions_of(&tags);
        if positions.is_empty() {
            let message = if id.range.is_empty() {
                "the last active pieces are no longer on the board".to_string()
            } else {
                format!("PieceId `{}` identifies no piece", self.quote(&id.range))
            };
            return Err(no_piece(id, message));
        }
        Ok(Found::Many(positions))
    }

    /// The position of the top piece at a Location (the PieceId `id`).
    fn top(&self, id: &PieceId, location: &Location, board: &Board) -> Result<usize, Issue> {
        let point = self.single_point(location, board)?;
        self.footprint.read_point(point);
        top_at(board, point).ok_or_else(|| {
            no_piece(
                id,
                format!("there is no piece at `{}`", self.quote(&id.range)),
            )
        })
    }

    /// The identities a PieceId refers to (the reference's piece ids).
    fn tags(&self, id: &PieceId, board: &Board) -> Result<Vec<PieceTag>, Issue> {
        match &id.kind {
            PieceIdKind::Active => {
                self.footprint.use_active(ActiveUse::Read);
                if self.active.is_empty() {
                    Err(Issue::error(
                        id.range.clone(),
                        "empty-piece-id",
                        "an empty PieceId stands for the last active pieces, but no piece is \
                         active yet",
                    ))
                } else {
                    Ok(self.active.to_vec())
                }
            }
            PieceIdKind::MoveStart(inner) => self.tags(inner, self.move_start),
            PieceIdKind::Top(location) => Ok(vec![board.tags[self.top(id, location, board)?]]),
            PieceIdKind::Nearest { count, location } => {
                let point = self.single_point(location, board)?;
                self.footprint.read_whole_board();
                let nearest = nearest(&rounded_distances(board, point), *count);
                Ok(nearest.into_iter().map(|i| board.tags[i]).collect())
            }
            PieceIdKind::Slice {
                location,
                positions,
            } => {
                let point = self.single_point(location, board)?;
                self.footprint.read_point(point);
                let stack = stack_at(board, point);
                if stack.is_empty() {
                    return Err(no_piece(
                        id,
                        format!("there is no piece at `{}`", self.quote(&location.range)),
                    ));
                }
                let mut tags = Vec::with_capacity(positions.len());
                for &from_top in positions {
                    if from_top == stack.len() + 1 {
                        self.warnings.borrow_mut().push(Issue::warning(
                            id.range.clone(),
                            "bad-slice",
                            format!(
                                "position {from_top} is one past the bottom of the {} piece(s) \
                                 there; it is ignored, as in the reference implementation",
                                stack.len()
                            ),
                        ));
                        continue;
                    }
                    if from_top > stack.len() {
                        return Err(Issue::error(
                            id.range.clone(),
                            "bad-slice",
                            format!(
                                "position {from_top} is past the bottom: there {} only {} piece{} there",
                                if stack.len() == 1 { "is" } else { "are" },
                                stack.len(),
                                if stack.len() == 1 { "" } else { "s" }
                            ),
                        ));
                    }
                    tags.push(board.tags[stack[stack.len() - from_top]]);
                }
                Ok(tags)
            }
            PieceIdKind::Search { spec, greedy } => {
                let found = self.search(id, spec, *greedy, board)?;
                Ok(found.into_iter().map(|i| board.tags[i]).collect())
            }
        }
    }

    /// Board positions (bottom first, never empty) of the pieces a `?` or `/` search finds.
    fn search(
        &self,
        id: &PieceId,
        spec: &PieceSpec,
        greedy: bool,
        board: &Board,
    ) -> Result<Vec<usize>, Issue> {
        self.footprint
            .read_search(SearchedFeatures::stated(&spec.stated));
        let search = |turns: AngleMatch| {
            if greedy {
                let stated = spec.stated.angle.is_some();
                Ok((greedy_search(spec, board, turns), stated))
            } else {
                self.single_search(spec, board, turns).map_err(|e| Issue {
                    range: id.range.clone(),
                    ..e
                })
            }
        };
        let (found, compared_angles) = search(AngleMatch::AsStored)?;
        // A search that compared no angles finds the same pieces either way.
        if compared_angles
            && search(AngleMatch::Modulo360)
                .ok()
                .map(|(other, _)| other)
                .as_ref()
                != Some(&found)
        {
            self.warnings.borrow_mut().push(Issue::warning(
                id.range.clone(),
                "reference-differs",
                "this search compares angles as stored, as the reference \
                 implementation does (a piece turned by `@>90` has angle -90, not 270); \
                 comparing them modulo 360 would find other pieces",
            ));
        }
        if found.is_empty() {
            return Err(no_piece(
                id,
                format!("no piece matches `{}`", self.quote(&id.range)),
            ));
        }
        Ok(found)
    }

    /// The three steps of a `?` search: a unique match of the stated features; else the last
    /// match of the completed spec; else the last match ignoring its angle. Also whether
    /// angles were compared.
    fn single_search(
        &self,
        spec: &PieceSpec,
        board: &Board,
        turns: AngleMatch,
    ) -> Result<(Vec<usize>, bool), Issue> {
        // Only whether exactly one piece matches matters here: the search stops at a
        // second one.
        let mut matching = matches(spec, board, turns);
        if let (Some(only), None) = (matching.next(), matching.next()) {
            return Ok((vec![only], spec.stated.angle.is_some()));
        }
        let template = spec.complete(self.options, &mut Vec::new())?;
        self.footprint
            .read_search(SearchedFeatures::template(&template));
        let same = |p: &Piece, with_angle: bool| {
            p.kind == template.kind
                && p.side == template.side
                && p.suit == template.suit
                && p.rank == template.rank
                && p.cfg == template.cfg
                && (!with_angle || turns.close(p.angle, template.angle))
        };
        for with_angle in [true, false] {
            if let Some(last) = board.pieces.iter().rposition(|p| same(p, with_angle)) {
                return Ok((vec![last], true));
            }
        }
        Ok((Vec::new(), true))
    }

    /// Where a PieceId is: for `N Location` that Location, else the last identified piece.
    pub(crate) fn piece_point(&self, id: &PieceId, board: &Board) -> Result<Point, Issue> {
        if let PieceIdKind::Nearest { location, .. } = &id.kind {
            return self.single_point(location, board);
        }
        let positions = self.positions(id, board)?;
        let last = positions[positions.len() - 1];
        let piece = &board.pieces[last];
        Ok((piece.x, piece.y))
    }

    pub(crate) fn single_point(&self, location: &Location, board: &Board) -> Result<Point, Issue> {
        // The usual Location, a square or a point, is one point: no list of them.
        if let LocationKind::Absolute { x, y } = location.kind {
            return Ok((x * self.scale_factor, y * self.scale_factor));
        }
        let points = self.points(location, board, None)?;
        points.first().copied().ok_or_else(|| {
            Issue::error(
                location.range.clone(),
                "bad-location",
                "this location names no point",
            )
        })
    }

    /// Coordinates of a Location: one point, or one per moving piece (`moving` are their
    /// board positions) when it is relative to them.
    pub(crate) fn points(
        &self,
        location: &Location,
        board: &Board,
        moving: Option<&[usize]>,
    ) -> Result<Found<Point>, Issue> {
        match &location.kind {
            LocationKind::Active => {
                let active = PieceId {
                    kind: PieceIdKind::Active,
                    range: location.range.clone(),
                };
                Ok(Found::One(self.piece_point(&active, board)?))
            }
            LocationKind::OfPiece(id) => Ok(Found::One(self.piece_point(id, board)?)),
            LocationKind::Absolute { x, y } => {
                Ok(Found::One((x * self.scale_factor, y * self.scale_factor)))
            }
            LocationKind::Relative { dx, dy, anchor } => {
                let (dx, dy) = (dx * self.scale_factor, dy * self.scale_factor);
                let origins = match anchor.as_deref() {
                    Some(Anchor::Location(inner)) => self.points(inner, board, moving)?,
                    Some(Anchor::Piece(id)) => Found::One(self.piece_point(id, board)?),
                    None => match moving {
                        Some(&[one]) => Found::One((board.pieces[one].x, board.pieces[one].y)),
                        Some(positions) => Found::Many(
                            positions
                                .iter()
                                .map(|i| (board.pieces[*i].x, board.pieces[*i].y))
                                .collect(),
                        ),
                        None => {
                            return Err(Issue::error(
                                location.range.clone(),
                                "bad-location",
                                "a relative location needs pieces to move, or an anchor \
                                 after `|` or `$`",
                            ))
                        }
                    },
                };
                Ok(match origins {
                    Found::One((x, y)) => Found::One((x + dx, y + dy)),
                    Found::Many(origins) => {
                        Found::Many(origins.into_iter().map(|(x, y)| (x + dx, y + dy)).collect())
                    }
                })
            }
        }
    }
}

/// How a search compares angles. The reference compares them as stored, so after `@>90`
/// (stored as -90) a piece is not found by `>` (270).
#[derive(Clone, Copy)]
enum AngleMatch {
    AsStored,
    Modulo360,
}

impl AngleMatch {
    fn equal(self, a: f64, b: f64) -> bool {
        match self {
            AngleMatch::AsStored => a == b,
            AngleMatch::Modulo360 => same_angle(a, b),
        }
    }

    fn close(self, a: f64, b: f64) -> bool {
        match self {
            AngleMatch::AsStored => (a - b).abs() < 1.5e-8,
            AngleMatch::Modulo360 => same_angle(a, b),
        }
    }
}

/// Every piece matching what the spec states (the `/` search).
fn greedy_search(spec: &PieceSpec, board: &Board, turns: AngleMatch) -> Vec<usize> {
    matches(spec, board, turns).collect()
}

/// The positions, bottom first, of the pieces matching what the spec states (the `/`
/// search, and step one of `?`).
fn matches<'a>(
    spec: &'a PieceSpec,
    board: &'a Board,
    turns: AngleMatch,
) -> impl Iterator<Item = usize> + 'a {
    let stated = &spec.stated;
    // Each piece is compared with every stated feature at once, without a branch per
    // feature: boards hold hundreds of pieces, and most differ in some feature.
    let (kind, side, suit, rank, cfg) = (
        stated.kind,
        stated.side,
        stated.suit,
        stated.rank,
        stated.cfg,
    );
    board
        .pieces
        .iter()
        .enumerate()
        .filter(move |(_, p)| {
            (kind.is_none_or(|k| p.kind == k)
                & side.is_none_or(|s| p.side == s)
                & suit.is_none_or(|s| p.suit == s)
                & rank.is_none_or(|r| p.rank == r)
                & cfg.is_none_or(|c| p.cfg == c))
                && stated.angle.is_none_or(|a| turns.equal(p.angle, a))
        })
        .map(|(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::nearest;
    use crate::test_random::Xorshift;

    /// The reference's way: every piece sorted stably from the farthest, the last kept.
    fn nearest_by_sorting_all(distances: &[f64], count: usize) -> Vec<usize> {
        let mut order: Vec<usize> = (0..distances.len()).collect();
        order.sort_by(|a, b| distances[*b].total_cmp(&distances[*a]));
        order[order.len().saturating_sub(count)..].to_vec()
    }

    #[test]
    fn nearest_pieces_come_as_when_the_whole_board_is_sorted() {
        let mut random = Xorshift::new(0x5eed_4ea7);
        for _ in 0..2000 {
            let pieces = random.below(12);
            // Few distinct distances, so that ties are common.
            let distances: Vec<f64> = (0..pieces).map(|_| random.below(4) as f64).collect();
            let count = random.below(pieces + 3);
            assert_eq!(
                nearest(&distances, count),
                nearest_by_sorting_all(&distances, count),
                "distances {distances:?}, count {count}"
            );
        }
    }
}
