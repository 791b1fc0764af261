//! Applying moves to a [`GameState`].
//!
//! Board states follow the reference implementation exactly wherever the conformance games
//! exercise it (searches compare angles as stored, a pyramid without colour or suit is a
//! piecepack one, `~⚂` also makes a die white, a slice position one past the bottom is
//! ignored), each time with a warning. Where the reference silently does something else a
//! player would not expect (a PieceId that selects nothing acting on the whole board, a
//! stale "last active" after `+`, digits as internal ids, `ab` read little-endian, `2NNE`
//! moving four steps, ...), this crate reports an error or follows the spec, and says so.

mod query;
mod resolve;
pub(crate) mod submove;
#[cfg(test)]
mod tests;

pub use self::query::{TokenElement, TokenPart};

use std::borrow::Cow;
use std::cell::RefCell;
use std::sync::Arc;

use self::resolve::{Context, Point};
use self::submove::{split_submoves, Submove};
use crate::model::piece::{Piece, PieceKind, Side};
use crate::ppn::reader::issue::Issue;
use crate::ppn::reader::location::Location;
use crate::ppn::reader::piece_id::PieceId;
use crate::ppn::reader::piece_spec::{ranks_start_at_one, PieceSpec};
use crate::ppn::rules::footprint::ActiveUse;
use crate::ppn::rules::state::{Board, GameState, MoveIssue, PieceTag};

/// Far more than any game needs (a full 19x19 go board has 361 stones); it keeps a
/// runaway brace expansion from filling the memory with a board per move.
pub const MAX_PIECES: usize = 2_000;

fn bad_move(range: std::ops::Range<usize>, message: impl Into<String>) -> Issue {
    Issue::error(range, "bad-move", message)
}

fn flipped_side(kind: PieceKind, side: Side) -> Side {
    match (kind, side) {
        (PieceKind::Die, Side::Face) => Side::Face,
        (PieceKind::Pyramid, Side::Top) => Side::Face,
        (PieceKind::Pyramid, _) => Side::Top,
        (_, Side::Face) => Side::Back,
        (_, Side::Back) => Side::Face,
        (_, Side::Left) => Side::Right,
        (_, Side::Right) => Side::Left,
        (_, Side::Top) => Side::Base,
        (_, Side::Base) => Side::Top,
    }
}

/// How much a change alters a piece's identity: not at all, a flip, or a replacement.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Change {
    None,
    Flip,
    Replace,
}

fn retag(tag: PieceTag, change: Change) -> PieceTag {
    match change {
        Change::None => tag,
        Change::Flip => tag.after_flip(),
        Change::Replace => tag.after_replace(),
    }
}

impl GameState {
    /// Apply one move: the whitespace-separated tokens of one MoveRecord, brace-expanded,
    /// macros not yet substituted. A sub-move that fails leaves the board as it was and the
    /// next one is tried. Never panics; returns what went wrong.
    pub fn apply_move(&mut self, tokens: &[&str]) -> Vec<MoveIssue> {
        self.apply_tokens(tokens, false)
    }

    /// Applies the first tokens of a move, keeping the board at the move's start, so that
    /// the move's later tokens can be read at this point (`^` PieceIds included).
    pub fn apply_move_start(&mut self, tokens: &[&str]) -> Vec<MoveIssue> {
        self.apply_tokens(tokens, true)
    }

    fn apply_tokens(&mut self, tokens: &[&str], keep_start: bool) -> Vec<MoveIssue> {
        let mut issues = Vec::new();
        // A macro reference starts with a backquote: most moves have none to substitute.
        let substituted: Option<Vec<Option<Cow<'_, str>>>> =
            tokens.iter().any(|token| token.contains('`')).then(|| {
                tokens
                    .iter()
                    .enumerate()
                    .map(|(token_index, token)| match self.macros.substitute(token) {
                        Ok(text) => Some(text),
                        Err(errors) => {
                            issues
                                .extend(errors.into_iter().map(|e| to_move_issue(token_index, e)));
                            None
                        }
                    })
                    .collect()
            });
        let text_of = |token_index: usize| -> Option<&str> {
            match &substituted {
                Some(texts) => texts[token_index].as_deref(),
                None => Some(tokens[token_index]),
            }
        };
        // Only a `^` PieceId reads the board as it was when the move started.
        let needs_start = keep_start
            || (0..tokens.len()).any(|i| text_of(i).is_some_and(|text| text.contains('^')));
        self.move_start = needs_start.then(|| Arc::new(self.board.clone()));
        for (token_index, token) in tokens.iter().enumerate() {
            let Some(substituted) = text_of(token_index) else {
                continue;
            };
            // Without macros the text is the token itself: no need to compare the bytes.
            let mapped = std::ptr::eq(substituted, *token) || substituted == *token;
            for part in split_submoves(substituted) {
                let read = self.read_submove(&part.text);
                let mut notes = read.notes.clone();
                let lookup_warnings = RefCell::new(Vec::new());
                let outcome = match &read.submove {
                    Ok(submove) => {
                        self.apply_submove(&part.text, submove, &mut notes, &lookup_warnings)
                    }
                    Err(error) => Err(error.clone()),
                };
                notes.extend(lookup_warnings.into_inner());
                if let Err(error) = outcome {
                    notes.push(error);
                }
                for note in notes {
                    let range = if mapped {
                        part.map_range(&note.range)
                    } else {
                        0..token.len()
                    };
                    issues.push(to_move_issue(token_index, Issue { range, ..note }));
                }
            }
        }
        if !keep_start {
            self.move_start = None;
        }
        issues.sort_by_key(|issue| issue.token);
        issues
    }

    fn context<'a>(&'a self, text: &'a str, warnings: &'a RefCell<Vec<Issue>>) -> Context<'a> {
        Context {
            warnings,
            text,
            move_start: self.move_start.as_deref().unwrap_or(&self.board),
            active: &self.active,
            scale_factor: self.scale_factor,
            options: &self.options,
            footprint: &self.footprint,
        }
    }

    fn apply_submove(
        &mut self,
        text: &str,
        submove: &Submove,
        notes: &mut Vec<Issue>,
        warnings: &RefCell<Vec<Issue>>,
    ) -> Result<(), Issue> {
        match submove {
            Submove::Drop {
                spec,
                spec_range,
                location,
                order,
                below,
            } => self.drop_piece(
                text,
                spec,
                spec_range,
                location,
                order.as_ref(),
                *below,
                notes,
                warnings,
            ),
            Submove::Move {
                target,
                location,
                order,
                below,
            } => {
                let context = self.context(text, warnings);
                let moving = context.positions(target, &self.board)?;
                let points = context.points(location, &self.board, Some(&moving))?;
                self.move_pieces(text, &moving, &points, order.as_ref(), *below, warnings)
            }
            Submove::Remove(target) => {
                let positions = self
                    .context(text, warnings)
                    .positions(target, &self.board)?;
                self.remove(&positions);
                Ok(())
            }
            Submove::Flip(target) => {
                let positions = self
                    .context(text, warnings)
                    .positions(target, &self.board)?;
                self.flip(&positions);
                Ok(())
            }
            Submove::Rotate {
                target,
                degrees,
                center,
            } => {
                let context = self.context(text, warnings);
                let positions = context.positions(target, &self.board)?;
                let center = match center {
                    Some(location) => Some(context.single_point(location, &self.board)?),
                    None => None,
                };
                self.rotate(&positions, -degrees, center);
                Ok(())
            }
            Submove::Update {
                target,
                spec,
                spec_range,
            } => {
                let positions = self
                    .context(text, warnings)
                    .positions(target, &self.board)?;
                if self.update(&positions, spec) {
                    notes.push(Issue::warning(
                        spec_range.clone(),
                        "reference-differs",
                        "a die glyph also makes the die white (as in the reference \
                         implementation), although `~` should only change what is written",
                    ));
                }
                Ok(())
            }
            Submove::Replace {
                target,
                spec,
                spec_range,
            } => {
                let positions = self
                    .context(text, warnings)
                    .positions(target, &self.board)?;
                let mut spec_notes = Vec::new();
                let template = spec
                    .complete(&self.options, &mut spec_notes)
                    .map_err(|e| e.shifted(spec_range.start))?;
                notes.extend(spec_notes.into_iter().map(|n| n.shifted(spec_range.start)));
                self.replace(&positions, &template);
                Ok(())
            }
            Submove::Capture { mover, captured } => {
                let context = self.context(text, warnings);
                let point = context.piece_point(captured, &self.board)?;
                let removed = context.positions(captured, &self.board)?;
                // What the capture takes away, to put back if the mover is not found.
                let mut taken: Vec<(usize, Piece, PieceTag)> = removed
                    .iter()
                    .filter_map(|&i| Some((i, *self.board.pieces.get(i)?, self.board.tags[i])))
                    .collect();
                taken.sort_by_key(|(i, _, _)| *i);
                taken.dedup_by_key(|(i, _, _)| *i);
                let active = self.active.clone();
                self.remove(&removed);
                let moving = self.context(text, warnings).positions(mover, &self.board);
                let outcome = moving.and_then(|moving| {
                    self.move_pieces(text, &moving, &[point], None, false, warnings)
                });
                if outcome.is_err() {
                    for (i, piece, tag) in taken {
                        self.board.pieces.insert(i, piece);
                        self.board.tags.insert(i, tag);
                    }
                    self.active = active;
                }
                outcome
            }
            Submove::Swap(first, second) => {
                let context = self.context(text, warnings);
                let first_point = context.piece_point(first, &self.board)?;
                let second_point = context.piece_point(second, &self.board)?;
                let firsts = context.positions(first, &self.board)?;
                let seconds = context.positions(second, &self.board)?;
                if firsts.iter().any(|p| seconds.contains(p)) {
                    return Err(bad_move(
                        second.range.clone(),
                        "a piece cannot swap places with itself",
                    ));
                }
                let mut board = Board::default();
                for i in 0..self.board.pieces.len() {
                    if !firsts.contains(&i) && !seconds.contains(&i) {
                        board.pieces.push(self.board.pieces[i]);
                        board.tags.push(self.board.tags[i]);
                    }
                }
                for (positions, (x, y)) in [(&firsts, second_point), (&seconds, first_point)] {
                    for &i in positions.iter() {
                        board.pieces.push(Piece {
                            x,
                            y,
                            ..self.board.pieces[i]
                        });
                        board.tags.push(self.board.tags[i]);
                    }
                }
                self.make_active(&firsts);
                self.board = board;
                Ok(())
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn drop_piece(
        &mut self,
        text: &str,
        spec: &PieceSpec,
        spec_range: &std::ops::Range<usize>,
        location: &Location,
        order: Option<&PieceId>,
        below: bool,
        notes: &mut Vec<Issue>,
        warnings: &RefCell<Vec<Issue>>,
    ) -> Result<(), Issue> {
        let pieces = self.board.pieces.len();
        self.footprint.drop_on(pieces);
        if pieces >= MAX_PIECES {
            return Err(Issue::error(
                spec_range.clone(),
                "too-many-pieces",
                format!("the board already holds {MAX_PIECES} pieces, the most ppn-ls keeps"),
            ));
        }
        let context = self.context(text, warnings);
        let neighbour = match order {
            Some(id) => Some(self.single_position(text, id, warnings)?),
            None => None,
        };
        let mut spec_notes = Vec::new();
        let template = spec
            .complete(&self.options, &mut spec_notes)
            .map_err(|e| e.shifted(spec_range.start))?;
        notes.extend(spec_notes.into_iter().map(|n| n.shifted(spec_range.start)));
        let (x, y) = context.single_point(location, &self.board)?;
        let tag = self.next_tag();
        let piece = Piece {
            kind: template.kind,
            side: template.side,
            suit: template.suit,
            rank: template.rank,
            cfg: template.cfg,
            x,
            y,
            angle: template.angle,
        };
        let at = match (neighbour, below) {
            (None, false) => self.board.pieces.len(),
            (None, true) => {
                self.footprint.put_at_bottom();
                0
            }
            (Some(i), false) => i + 1,
            (Some(i), true) => i,
        };
        self.board.pieces.insert(at, piece);
        self.board.tags.insert(at, tag);
        self.footprint.use_active(ActiveUse::Set);
        self.active.clear();
        self.active.push(tag);
        Ok(())
    }

    /// The one board position a `%PieceId` names.
    fn single_position(
        &self,
        text: &str,
        id: &PieceId,
        warnings: &RefCell<Vec<Issue>>,
    ) -> Result<usize, Issue> {
        let positions = self.context(text, warnings).positions(id, &self.board)?;
        match *positions {
            [one] => Ok(one),
            _ => Err(bad_move(
                id.range.clone(),
                format!(
                    "after `%` name one piece to go above or below; this names {}",
                    positions.len()
                ),
            )),
        }
    }

    /// Moves the pieces at `moving` to `points` (one point for all, or one per piece),
    /// placing them on top, at the bottom, or next to the `order` piece; they become the
    /// active pieces. Nothing changes when it fails.
    fn move_pieces(
        &mut self,
        text: &str,
        moving: &[usize],
        points: &[Point],
        order: Option<&PieceId>,
        below: bool,
        warnings: &RefCell<Vec<Issue>>,
    ) -> Result<(), Issue> {
        let neighbour = match order {
            Some(id) => {
                let position = self.single_position(text, id, warnings)?;
                if moving.contains(&position) {
                    return Err(bad_move(
                        id.range.clone(),
                        "pieces cannot be placed above or below themselves",
                    ));
                }
                Some(self.board.tags[position])
            }
            None => None,
        };
        let count = self.board.pieces.len();
        if points.is_empty() && moving.iter().any(|&i| i < count) {
            return Err(bad_move(0..text.len(), "there is nowhere to move to"));
        }
        self.footprint.use_active(ActiveUse::Set);
        if neighbour.is_none() && below {
            self.footprint.put_at_bottom();
        }
        // The moving pieces become the active ones, listed in the old list's buffer.
        let mut tags = std::mem::take(&mut self.active);
        tags.clear();
        tags.extend(moving.iter().map(|i| self.board.tags[*i]));
        let single = match (moving, points.first()) {
            (&[one], Some(&point)) if one < count => Some((one, point)),
            _ => None,
        };
        if let Some((one, (x, y))) = single {
            // The usual move: one piece taken out and put back in its new place.
            let piece = self.board.pieces.remove(one);
            let tag = self.board.tags.remove(one);
            let at = self.board.insertion_point(neighbour, below);
            self.board.pieces.insert(at, Piece { x, y, ..piece });
            self.board.tags.insert(at, tag);
            self.active = tags;
            return Ok(());
        }
        let mut moved_pieces = Vec::with_capacity(moving.len());
        let mut moved_tags = Vec::with_capacity(moving.len());
        // The pieces that stay keep their order at the front; the moving ones are set
        // aside with their new places.
        let mut kept = 0;
        for i in 0..count {
            let (piece, tag) = (self.board.pieces[i], self.board.tags[i]);
            match moving.iter().position(|m| *m == i) {
                Some(k) => {
                    let (x, y) = points.get(k).or(points.last()).copied().unwrap_or_default();
                    moved_pieces.push(Piece { x, y, ..piece });
                    moved_tags.push(tag);
                }
                None => {
                    self.board.pieces[kept] = piece;
                    self.board.tags[kept] = tag;
                    kept += 1;
                }
            }
        }
        self.board.pieces.truncate(kept);
        self.board.tags.truncate(kept);
        let at = self.board.insertion_point(neighbour, below);
        self.board.pieces.splice(at..at, moved_pieces);
        self.board.tags.splice(at..at, moved_tags);
        self.active = tags;
        Ok(())
    }

    /// The pieces at `positions` become the active ones (listed in the old list's buffer).
    fn make_active(&mut self, positions: &[usize]) {
        self.footprint.use_active(ActiveUse::Set);
        self.active.clear();
        let tags = &self.board.tags;
        self.active.extend(positions.iter().map(|i| tags[*i]));
    }

    fn remove(&mut self, positions: &[usize]) {
        self.footprint.use_active(ActiveUse::Modify);
        if let &[one] = positions {
            // The usual capture: one piece taken off, with no list of identities made.
            self.board.pieces.remove(one);
            let removed = self.board.tags.remove(one);
            if !self.active.is_empty() {
                self.active.retain(|t| *t != removed);
            }
            return;
        }
        let removed = moving_tags(&self.board, positions);
        // In place, by position: a piece and its identity sit at the same index.
        let mut index = 0;
        self.board.pieces.retain(|_| {
            index += 1;
            !positions.contains(&(index - 1))
        });
        let mut index = 0;
        self.board.tags.retain(|_| {
            index += 1;
            !positions.contains(&(index - 1))
        });
        if !self.active.is_empty() {
            self.active.retain(|t| !removed.contains(t));
        }
    }

    fn flip(&mut self, positions: &[usize]) {
        self.footprint.use_active(ActiveUse::Modify);
        for &i in positions {
            let piece = &mut self.board.pieces[i];
            piece.side = flipped_side(piece.kind, piece.side);
            if piece.kind == PieceKind::Die && piece.side == Side::Face {
                // The opposite face of a six-sided die: 1 <-> 4, 2 <-> 5, 3 <-> 6.
                let opposite = (i64::from(piece.rank) + 2).rem_euclid(6) + 1;
                piece.rank = i32::try_from(opposite).unwrap_or(1);
            }
            let old = self.board.tags[i];
            let new = old.after_flip();
            self.board.tags[i] = new;
            // The active pieces follow a flip instead of pointing at identities that are gone.
            for active in self.active.iter_mut().filter(|t| **t == old) {
                *active = new;
            }
        }
    }

    fn rotate(&mut self, positions: &[usize], counter_clockwise: f64, center: Option<Point>) {
        let (sin, cos) = counter_clockwise.to_radians().sin_cos();
        for &i in positions {
            let piece = &mut self.board.pieces[i];
            if let Some((cx, cy)) = center {
                let (dx, dy) = (piece.x - cx, piece.y - cy);
                piece.x = cx + dx * cos - dy * sin;
                piece.y = cy + dx * sin + dy * cos;
            }
            piece.angle += counter_clockwise;
        }
        self.make_active(positions);
    }

    /// `~`: change only what the spec states. Returns whether a die glyph's implied white
    /// changed a suit.
    fn update(&mut self, positions: &[usize], spec: &PieceSpec) -> bool {
        let mut implied_suit_changed = false;
        let stated = &spec.stated;
        for &i in positions {
            let piece = &mut self.board.pieces[i];
            let was_die_face = piece.kind == PieceKind::Die && piece.side == Side::Face;
            let mut change = Change::None;
            if let Some(angle) = stated.angle {
                piece.angle = angle;
            }
            if let Some(side) = stated.side {
                if piece.side != side {
                    change = change.max(Change::Flip);
                }
                piece.side = side;
            }
            if let Some(cfg) = &stated.cfg {
                if piece.cfg != *cfg {
                    change = Change::Replace;
                }
                piece.cfg = *cfg;
            }
            if let Some(rank) = stated.rank {
                let rank = if ranks_start_at_one(&piece.cfg) {
                    rank - 1
                } else {
                    rank
                };
                if piece.rank != rank {
                    change = if was_die_face && change < Change::Replace {
                        Change::Flip
                    } else {
                        Change::Replace
                    };
                }
                piece.rank = rank;
            }
            if let Some(kind) = stated.kind {
                if piece.kind != kind {
                    change = Change::Replace;
                }
                piece.kind = kind;
            }
            if let Some(suit) = stated.suit {
                if piece.suit != suit {
                    change = Change::Replace;
                    implied_suit_changed |= spec.suit_is_glyph_default;
                }
                piece.suit = suit;
            }
            self.board.tags[i] = retag(self.board.tags[i], change);
        }
        self.make_active(positions);
        implied_suit_changed
    }

    /// `=`: the pieces become the completed spec (keeping their places).
    fn replace(
        &mut self,
        positions: &[usize],
        template: &crate::ppn::reader::piece_spec::PieceTemplate,
    ) {
        for &i in positions {
            let piece = &mut self.board.pieces[i];
            let was_die_face = piece.kind == PieceKind::Die && piece.side == Side::Face;
            let mut change = Change::None;
            if piece.kind != template.kind {
                change = Change::Flip;
            }
            if piece.rank != template.rank {
                change = if was_die_face {
                    Change::Flip
                } else {
                    Change::Replace
                };
            }
            if piece.kind != template.kind
                || piece.suit != template.suit
                || piece.cfg != template.cfg
            {
                change = Change::Replace;
            }
            piece.kind = template.kind;
            piece.side = template.side;
            piece.suit = template.suit;
            piece.rank = template.rank;
            piece.cfg = template.cfg;
            piece.angle = template.angle;
            self.board.tags[i] = retag(self.board.tags[i], change);
        }
        self.make_active(positions);
    }
}

fn moving_tags(board: &Board, positions: &[usize]) -> Vec<PieceTag> {
    positions.iter().map(|i| board.tags[*i]).collect()
}

fn to_move_issue(token: usize, issue: Issue) -> MoveIssue {
    MoveIssue {
        token,
        range: issue.range,
        severity: issue.severity,
        code: issue.code,
        message: issue.message,
    }
}
