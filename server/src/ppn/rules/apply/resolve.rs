//! Finding pieces (PieceId) and places (Location) on a board.

use crate::model::piece::Piece;
use crate::ppn::reader::issue::Issue;
use crate::ppn::reader::location::{Anchor, Location, LocationKind};
use crate::ppn::reader::piece_id::{PieceId, PieceIdKind};
use crate::ppn::reader::piece_spec::{ParserOptions, PieceSpec};
use crate::ppn::rules::footprint::{ActiveUse, FootprintRecorder, SearchedFeatures};
use crate::ppn::rules::state::{Board, PieceTag};

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
    fn quote(&self, range: &std::ops::Range<usize>) -> std::borrow::Cow<'_, str> {
        crate::diagnostic::excerpt(self.text.get(range.clone()).unwrap_or_default())
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
                return self.search(id, spec, *greedy, board);
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
                Ok(found.iter().map(|&i| board.tags[i]).collect())
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
    ) -> Result<Found<usize>, Issue> {
        self.footprint
            .read_search(SearchedFeatures::stated(&spec.stated));
        let found = if greedy {
            greedy_search(spec, board)
        } else {
            self.single_search(spec, board).map_err(|e| Issue {
                range: id.range.clone(),
                ..e
            })?
        };
        // `modulo_360` is only looked for when the search compared angles; without that,
        // both ways find the same pieces.
        if found
            .modulo_360
            .as_ref()
            .is_some_and(|modulo_360| modulo_360.as_deref() != Some(&found.as_stored[..]))
        {
            self.warnings.borrow_mut().push(Issue::warning(
                id.range.clone(),
                "reference-differs",
                "this search compares angles as stored, as the reference \
                 implementation does (a piece turned by `@>90` has angle -90, not 270); \
                 comparing them modulo 360 would find other pieces",
            ));
        }
        if found.as_stored.is_empty() {
            return Err(no_piece(
                id,
                format!("no piece matches `{}`", self.quote(&id.range)),
            ));
        }
        Ok(found.as_stored)
    }

    /// The three steps of a `?` search: a unique match of the stated features; else the last
    /// match of the completed spec; else the last match ignoring its angle. Both ways of
    /// comparing angles are followed in the same passes over the board.
    fn single_search(&self, spec: &PieceSpec, board: &Board) -> Result<Searched, Issue> {
        // Step one: only whether exactly one piece matches matters, so the pass stops once
        // both ways have seen a second one.
        let angle = spec.stated.angle;
        let mut unique = [Unique::None; 2];
        for (i, piece) in board.pieces.iter().enumerate() {
            if !stated_features_match(spec, piece) {
                continue;
            }
            let hits = match angle {
                None => [true, true],
                Some(a) => [piece.angle == a, same_angle(piece.angle, a)],
            };
            for (way, hit) in unique.iter_mut().zip(hits) {
                if hit {
                    way.add(i);
                }
            }
            if unique.iter().all(|way| matches!(way, Unique::Several)) {
                break;
            }
        }
        let [stored_unique, modulo_unique] = unique.map(|way| match way {
            Unique::One(only) => Some(only),
            _ => None,
        });
        if let Some(only) = stored_unique {
            // Angles were compared only if the spec states one.
            let modulo_360 = angle.is_some().then(|| match modulo_unique {
                Some(other) => Some(Found::One(other)),
                None => self
                    .completed_search(spec, board)
                    .ok()
                    .map(|[_, m]| found_if(m)),
            });
            return Ok(Searched {
                as_stored: Found::One(only),
                modulo_360,
            });
        }
        let [as_stored, modulo_360] = self.completed_search(spec, board)?;
        Ok(Searched {
            as_stored: found_if(as_stored),
            modulo_360: Some(Some(found_if(modulo_unique.or(modulo_360)))),
        })
    }

    /// Steps two and three of a `?` search, compared as stored and modulo 360.
    fn completed_search(
        &self,
        spec: &PieceSpec,
        board: &Board,
    ) -> Result<[Option<usize>; 2], Issue> {
        let template = spec.complete(self.options, &mut Vec::new())?;
        self.footprint
            .read_search(SearchedFeatures::template(&template));
        // From the top: the last piece like the template with its angle (each way), and the
        // last one whatever its angle.
        let mut with_angle = [None; 2];
        let mut any_angle = None;
        for (i, piece) in board.pieces.iter().enumerate().rev() {
            let same = piece.kind == template.kind
                && piece.side == template.side
                && piece.suit == template.suit
                && piece.rank == template.rank
                && piece.cfg == template.cfg;
            if !same {
                continue;
            }
            any_angle.get_or_insert(i);
            let close = [
                (piece.angle - template.angle).abs() < 1.5e-8,
                same_angle(piece.angle, template.angle),
            ];
            for (way, close) in with_angle.iter_mut().zip(close) {
                if close {
                    way.get_or_insert(i);
                }
            }
            if with_angle.iter().all(Option::is_some) {
                break;
            }
        }
        Ok(with_angle.map(|way| way.or(any_angle)))
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

/// What a search found comparing angles as stored, as the reference does (after `@>90`,
/// stored as -90, a piece is not found by `>`, 270), and, when it compared angles, what it
/// would find comparing them modulo 360 (`None` inside: that search fails).
struct Searched {
    as_stored: Found<usize>,
    modulo_360: Option<Option<Found<usize>>>,
}

/// The one position found, or none (an empty list, which allocates nothing).
fn found_if(position: Option<usize>) -> Found<usize> {
    match position {
        Some(position) => Found::One(position),
        None => Found::Many(Vec::new()),
    }
}

/// Whether none, one (at which position) or several pieces matched.
#[derive(Clone, Copy)]
enum Unique {
    None,
    One(usize),
    Several,
}

impl Unique {
    fn add(&mut self, position: usize) {
        *self = match self {
            Unique::None => Unique::One(position),
            _ => Unique::Several,
        };
    }
}

/// Whether a piece has every feature the spec states, its angle aside. Each piece is
/// compared with every stated feature at once, without a branch per feature: boards hold
/// hundreds of pieces, and most differ in some feature.
fn stated_features_match(spec: &PieceSpec, piece: &Piece) -> bool {
    let stated = &spec.stated;
    stated.kind.is_none_or(|k| piece.kind == k)
        & stated.side.is_none_or(|s| piece.side == s)
        & stated.suit.is_none_or(|s| piece.suit == s)
        & stated.rank.is_none_or(|r| piece.rank == r)
        & stated.cfg.is_none_or(|c| piece.cfg == c)
}

/// Every piece matching what the spec states (the `/` search), bottom first, both ways.
fn greedy_search(spec: &PieceSpec, board: &Board) -> Searched {
    let matching = board
        .pieces
        .iter()
        .enumerate()
        .filter(|(_, piece)| stated_features_match(spec, piece));
    let Some(angle) = spec.stated.angle else {
        return Searched {
            as_stored: Found::Many(matching.map(|(i, _)| i).collect()),
            modulo_360: None,
        };
    };
    let (mut as_stored, mut modulo_360) = (Vec::new(), Vec::new());
    for (i, piece) in matching {
        if piece.angle == angle {
            as_stored.push(i);
        }
        if same_angle(piece.angle, angle) {
            modulo_360.push(i);
        }
    }
    Searched {
        as_stored: Found::Many(as_stored),
        modulo_360: Some(Some(Found::Many(modulo_360))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::piece::{Cfg, PieceKind, Side};
    use crate::ppn::reader::piece_spec::parse_piece_spec;
    use crate::test_random::Xorshift;

    /// A `?` search one way, as its three steps read: the unique match of the stated
    /// features; else the last match of the completed spec, with its angle, then without.
    fn single_search_one_way(
        spec: &PieceSpec,
        board: &Board,
        options: &ParserOptions,
        as_stored: bool,
    ) -> Option<(Vec<usize>, bool)> {
        let equal = |a: f64, b: f64| if as_stored { a == b } else { same_angle(a, b) };
        let close = |a: f64, b: f64| {
            if as_stored {
                (a - b).abs() < 1.5e-8
            } else {
                same_angle(a, b)
            }
        };
        let angle = spec.stated.angle;
        let matching: Vec<usize> = (0..board.pieces.len())
            .filter(|&i| {
                let piece = &board.pieces[i];
                stated_features_match(spec, piece) && angle.is_none_or(|a| equal(piece.angle, a))
            })
            .collect();
        if matching.len() == 1 {
            return Some((matching, angle.is_some()));
        }
        let template = spec.complete(options, &mut Vec::new()).ok()?;
        for with_angle in [true, false] {
            let last = board.pieces.iter().rposition(|p| {
                p.kind == template.kind
                    && p.side == template.side
                    && p.suit == template.suit
                    && p.rank == template.rank
                    && p.cfg == template.cfg
                    && (!with_angle || close(p.angle, template.angle))
            });
            if let Some(last) = last {
                return Some((vec![last], true));
            }
        }
        Some((Vec::new(), true))
    }

    #[test]
    fn one_pass_searches_find_what_a_search_each_way_finds() {
        let options = ParserOptions::default();
        let warnings = std::cell::RefCell::new(Vec::new());
        let footprint = FootprintRecorder::default();
        let specs = [
            "S", "S>", "S<", "Sv", "S,a-90", "pS", "C", "C^", "c", "c>", "2", "2>",
        ];
        let angles = [0.0, 90.0, -90.0, 270.0, 180.0, -180.0, 360.0, 1e-9];
        let mut random = Xorshift::new(0x5ea7_c4e5);
        for _ in 0..3000 {
            let pieces = (0..random.below(7))
                .map(|_| Piece {
                    kind: [PieceKind::Coin, PieceKind::Pawn][random.below(2)],
                    side: [Side::Back, Side::Face][random.below(2)],
                    suit: 1 + random.below(2) as i32,
                    rank: 1 + random.below(2) as i32,
                    cfg: Cfg::new("piecepack"),
                    x: 1.0,
                    y: 1.0,
                    angle: angles[random.below(angles.len())],
                })
                .collect::<Vec<_>>();
            let tags = (1..=pieces.len() as u32).map(PieceTag::new).collect();
            let board = Board { pieces, tags };
            let spec = parse_piece_spec(specs[random.below(specs.len())], &options);
            let context = Context {
                text: "",
                move_start: &board,
                active: &[],
                scale_factor: 1.0,
                options: &options,
                warnings: &warnings,
                footprint: &footprint,
            };
            let stored = single_search_one_way(&spec, &board, &options, true);
            let found = context.single_search(&spec, &board).ok();
            assert_eq!(
                found.as_ref().map(|found| found.as_stored.to_vec()),
                stored.as_ref().map(|(positions, _)| positions.clone()),
                "{board:?} {spec:?}"
            );
            let (Some(found), Some((_, compared))) = (found, stored) else {
                continue;
            };
            let modulo_360 = compared.then(|| {
                single_search_one_way(&spec, &board, &options, false).map(|(found, _)| found)
            });
            let found_modulo_360 = found
                .modulo_360
                .map(|found| found.map(|found| found.to_vec()));
            assert_eq!(found_modulo_360, modulo_360, "{board:?} {spec:?}");
        }
    }

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
