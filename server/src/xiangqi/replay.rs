//! Playing a WXF record: each move resolved on the board before it and checked against the
//! rules, the board after it kept, and what went wrong reported with the reason.

use std::sync::Arc;

use super::board::{Board, Man, Point, Side};
use super::notation::{destination, resolve, Direction, ResolveError, Which, WxfMove};
use super::parsed::WrittenMove;
use super::rules::check_move;
use crate::model::chunked::ChunkedVec;

/// One move played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// Whose move it was (moves alternate, whatever the letters' case).
    pub side: Side,
    /// The piece moved, and where to (none when the move did not resolve).
    pub from: Option<Point>,
    pub to: Option<Point>,
    pub mover: Option<Man>,
    pub captured: Option<Man>,
    /// The board after the move (the board before it when the move did not resolve).
    pub board: Arc<Board>,
    pub outcome: Outcome,
}

/// How a move went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Legal,
    /// `+`/`-` named a piece although no file holds two; read as xiangqi-setup does, the
    /// most (or least) advanced of its kind.
    LooseTandem,
    /// Played, but against the rules.
    Illegal(ResolveError),
    /// Not played: no piece, several pieces, or no such destination.
    Unresolved(ResolveError),
    /// Not a move (a syntax error reported by the reader).
    Unreadable,
}

/// The side of move `index` when `first` moves first.
pub fn side_of(first: Side, index: usize) -> Side {
    if index.is_multiple_of(2) {
        first
    } else {
        first.other()
    }
}

/// The full-move number of move `index` (Red's move and Black's reply share one).
pub fn move_number(first: Side, index: usize) -> usize {
    match first {
        Side::Red => index / 2 + 1,
        Side::Black => index.div_ceil(2) + 1,
    }
}

/// Play `moves[played.len()..]` after the moves already in `played`, from `start`.
pub fn play(
    start: &Arc<Board>,
    first: Side,
    moves: &[WrittenMove],
    played: &mut ChunkedVec<Played>,
) {
    let mut board = played
        .last()
        .map_or_else(|| start.clone(), |last| last.board.clone());
    for (index, written) in moves.iter().enumerate().skip(played.len()) {
        let side = side_of(first, index);
        let outcome_move = written
            .parsed
            .as_ref()
            .map(|parsed| resolve_leniently(&board, side, parsed));
        let result = match outcome_move {
            None => Played {
                side,
                from: None,
                to: None,
                mover: None,
                captured: None,
                board: board.clone(),
                outcome: Outcome::Unreadable,
            },
            Some((Some((from, to)), outcome)) => {
                let mut after = Board::clone(&board);
                let mover = after.get(from);
                let captured = after.get(to);
                after.put(to, mover);
                after.put(from, None);
                board = Arc::new(after);
                Played {
                    side,
                    from: Some(from),
                    to: Some(to),
                    mover,
                    captured,
                    board: board.clone(),
                    outcome,
                }
            }
            Some((None, outcome)) => Played {
                side,
                from: None,
                to: None,
                mover: None,
                captured: None,
                board: board.clone(),
                outcome,
            },
        };
        played.push(result);
    }
}

/// The move to play for `written`, if any, and how it went.
fn resolve_leniently(
    board: &Board,
    side: Side,
    written: &WxfMove,
) -> (Option<(Point, Point)>, Outcome) {
    match resolve(board, side, written) {
        Ok(found) => (Some(found), Outcome::Legal),
        Err(error @ ResolveError::Illegal { from, to, .. }) => {
            (Some((from, to)), Outcome::Illegal(error))
        }
        Err(error @ ResolveError::NoPiece(_)) => match loose_tandem(board, side, written) {
            Some((from, to, None)) => (Some((from, to)), Outcome::LooseTandem),
            Some((from, to, Some(illegal))) => (Some((from, to)), Outcome::Illegal(illegal)),
            None => (None, Outcome::Unresolved(error)),
        },
        Err(error) => (None, Outcome::Unresolved(error)),
    }
}

/// xiangqi-setup's reading of `+`/`-`: the most (or least) advanced piece of the kind
/// anywhere on the board.
fn loose_tandem(
    board: &Board,
    side: Side,
    written: &WxfMove,
) -> Option<(Point, Point, Option<ResolveError>)> {
    let kind = written.kind?;
    if !matches!(written.which, Which::Front | Which::Rear) {
        return None;
    }
    let man = Man::new(side, kind);
    let mut points: Vec<Point> = board
        .men()
        .filter(|(_, m)| *m == man)
        .map(|(point, _)| point)
        .collect();
    points.sort_by_key(|point| i32::from(point.rank) * side.forward());
    let from = if written.which == Which::Front {
        *points.last()?
    } else {
        *points.first()?
    };
    let direction: Direction = written.direction;
    let to = destination(man, from, direction, written.amount).ok()?;
    match check_move(board, from, to) {
        Ok(()) => Some((from, to, None)),
        Err(reason) => Some((from, to, Some(ResolveError::Illegal { from, to, reason }))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xiangqi::notation::parse_move;

    fn written(texts: &[&str]) -> Vec<WrittenMove> {
        texts
            .iter()
            .map(|text| WrittenMove {
                range: 0..0,
                parsed: parse_move(text),
                number: None,
            })
            .collect()
    }

    #[test]
    fn moves_alternate_and_numbers_count_full_moves() {
        assert_eq!(side_of(Side::Red, 1), Side::Black);
        assert_eq!(move_number(Side::Red, 3), 2);
        assert_eq!(move_number(Side::Black, 0), 1);
        assert_eq!(move_number(Side::Black, 1), 2);
        assert_eq!(move_number(Side::Black, 2), 2);
    }

    #[test]
    fn a_game_is_played_move_by_move() {
        let start = Arc::new(Board::initial());
        let moves = written(&["C2.5", "h8+7", "C5+4", "X"]);
        let mut played = ChunkedVec::new();
        play(&start, Side::Red, &moves[..3], &mut played);
        assert_eq!(played.len(), 3);
        assert!(played.iter().all(|p| p.outcome == Outcome::Legal));
        assert_eq!(played[2].captured, Man::from_letter('p'));
        assert_eq!(played[2].to, Point::parse("e6"));
        // Resuming after the first three gives what playing all at once gives.
        play(&start, Side::Red, &moves, &mut played);
        let mut fresh = ChunkedVec::new();
        play(&start, Side::Red, &moves, &mut fresh);
        assert_eq!(played, fresh);
        assert_eq!(played[3].outcome, Outcome::Unreadable);
        assert_eq!(played[3].side, Side::Black);
    }

    #[test]
    fn illegal_moves_are_played_and_unresolved_ones_are_not() {
        let start = Arc::new(Board::initial());
        let moves = written(&["H2+2", "c5+1"]);
        let mut played = ChunkedVec::new();
        play(&start, Side::Red, &moves, &mut played);
        assert!(matches!(
            played[0].outcome,
            Outcome::Unresolved(ResolveError::Impossible { .. })
        ));
        assert_eq!(*played[0].board, Board::initial());
        assert!(
            matches!(
                played[1].outcome,
                Outcome::Unresolved(ResolveError::NoPiece(_))
            ),
            "{:?}",
            played[1].outcome
        );
        let bad = written(&["R9+4"]);
        let mut played = ChunkedVec::new();
        play(&start, Side::Red, &bad, &mut played);
        assert!(matches!(played[0].outcome, Outcome::Illegal(_)));
        assert_eq!(played[0].to, Point::parse("a4"));
    }

    #[test]
    fn plus_without_two_on_a_file_is_read_as_xiangqi_setup_does() {
        let start = Arc::new(Board::initial());
        let moves = written(&["H++3"]);
        let mut played = ChunkedVec::new();
        play(&start, Side::Red, &moves, &mut played);
        assert_eq!(played[0].outcome, Outcome::LooseTandem);
    }
}
