//! Playing a WXF record: each move resolved on the board before it and checked against the
//! rules, the board after it kept, and what went wrong reported with the reason.

use std::sync::Arc;

use super::board::{Board, Man, Point, Side};
use super::notation::{destination, resolve_on, Direction, ResolveError, Which, WxfMove};
use super::parsed::WrittenMove;
use super::rules::{check_move, may_threaten};
use crate::model::chunked::ChunkedVec;

/// How often a played move keeps the board after it: the boards between are made again
/// from the last one kept by the moves since (at most a few dozen `put`s), so that a replay
/// allocates a board every so many moves, not at every move.
pub const BOARD_KEPT_EVERY: usize = 16;

/// One move played.
#[derive(Clone, Debug)]
pub struct Played {
    /// Whose move it was (moves alternate, whatever the letters' case).
    pub side: Side,
    /// The piece moved, and where to (none when the move did not resolve).
    pub from: Option<Point>,
    pub to: Option<Point>,
    pub mover: Option<Man>,
    pub captured: Option<Man>,
    /// The board after the move, kept for every [`BOARD_KEPT_EVERY`]th move of a replay
    /// (moves taken over from the revision before keep theirs); see [`board_after`].
    pub board: Option<Arc<Board>>,
    pub outcome: Outcome,
}

/// Moves are the same when they were played the same way: which of them keep their board
/// is a matter of how the list was built.
impl PartialEq for Played {
    fn eq(&self, other: &Played) -> bool {
        (
            self.side,
            self.from,
            self.to,
            self.mover,
            self.captured,
            &self.outcome,
        ) == (
            other.side,
            other.from,
            other.to,
            other.mover,
            other.captured,
            &other.outcome,
        )
    }
}

impl Eq for Played {}

impl Played {
    /// Makes the move on `board`, the board before it.
    pub fn make(&self, board: &mut Board) {
        if let (Some(from), Some(to)) = (self.from, self.to) {
            board.put(to, self.mover);
            board.put(from, None);
        }
    }
}

/// How a move went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Legal,
    /// `+`/`-` named a piece although no file holds two; read as xiangqi-setup does, the
    /// most (or least) advanced of its kind.
    LooseTandem,
    /// Played, but against the rules. (Boxed, as a failure's reason, so that the many
    /// moves that go well stay small.)
    Illegal(Box<ResolveError>),
    /// Not played: no piece, several pieces, or no such destination.
    Unresolved(Box<ResolveError>),
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

/// The board after move `index` of `played` (from `start`): the last board kept at or
/// before it, and the moves since made on it.
pub fn board_after(start: &Board, played: &ChunkedVec<Played>, index: usize) -> Option<Board> {
    played.get(index)?;
    let mut kept = index + 1;
    let mut board = loop {
        let Some(before) = kept.checked_sub(1) else {
            break start.clone();
        };
        if let Some(board) = &played[before].board {
            break Board::clone(board);
        }
        kept = before;
    };
    for made in kept..=index {
        played[made].make(&mut board);
    }
    Some(board)
}

/// Plays moves one after another, holding the board they reached.
pub struct Player {
    first: Side,
    board: Board,
    /// For Red and Black, where the side's general stands when it is known not to be in
    /// check on `board`: known after each of the side's lawful moves, and kept while the
    /// other side's moves cannot threaten it.
    calm: [Option<Point>; 2],
}

fn slot(side: Side) -> usize {
    match side {
        Side::Red => 0,
        Side::Black => 1,
    }
}

impl Player {
    /// A player that goes on after the moves in `played`, from `start`.
    pub fn after(start: &Board, first: Side, played: &ChunkedVec<Played>) -> Player {
        let board = played
            .len()
            .checked_sub(1)
            .and_then(|last| board_after(start, played, last))
            .unwrap_or_else(|| start.clone());
        Player {
            first,
            board,
            calm: [None; 2],
        }
    }

    /// The board after the moves played so far.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Plays `written` as the next move of `played`.
    pub fn play(&mut self, written: &WrittenMove, played: &mut ChunkedVec<Played>) {
        let index = played.len();
        let side = side_of(self.first, index);
        let (moved, outcome) = match &written.parsed {
            None => (None, Outcome::Unreadable),
            Some(parsed) => resolve_leniently(&mut self.board, side, parsed, self.calm[slot(side)]),
        };
        let mut result = Played {
            side,
            from: None,
            to: None,
            mover: None,
            captured: None,
            board: None,
            outcome,
        };
        if let Some((from, to)) = moved {
            result.from = Some(from);
            result.to = Some(to);
            result.mover = self.board.get(from);
            result.captured = self.board.get(to);
        }
        self.record(result, played);
    }

    /// Makes `result` on the board, keeps what is known of the generals, and pushes it.
    fn record(&mut self, mut result: Played, played: &mut ChunkedVec<Played>) {
        let index = played.len();
        let side = result.side;
        if let (Some(from), Some(to)) = (result.from, result.to) {
            result.make(&mut self.board);
            self.calm[slot(side)] = match result.outcome {
                Outcome::Legal | Outcome::LooseTandem => self.board.general(side),
                _ => None,
            };
            let other = &mut self.calm[slot(side.other())];
            if other.is_some_and(|general| may_threaten(general, from, to)) {
                *other = None;
            }
        }
        if (index + 1).is_multiple_of(BOARD_KEPT_EVERY) {
            result.board = Some(Arc::new(self.board.clone()));
        }
        played.push(result);
    }
}

/// Play `moves[played.len()..]` after the moves already in `played`, from `start`.
pub fn play(start: &Board, first: Side, moves: &[WrittenMove], played: &mut ChunkedVec<Played>) {
    let mut player = Player::after(start, first, played);
    for written in moves.iter().skip(played.len()) {
        player.play(written, played);
    }
}

/// The move to play for `written`, if any, and how it went.
fn resolve_leniently(
    board: &mut Board,
    side: Side,
    written: &WxfMove,
    calm: Option<Point>,
) -> (Option<(Point, Point)>, Outcome) {
    match resolve_on(board, side, written, calm) {
        Ok(found) => (Some(found), Outcome::Legal),
        Err(error @ ResolveError::Illegal { from, to, .. }) => {
            (Some((from, to)), Outcome::Illegal(Box::new(error)))
        }
        Err(error @ ResolveError::NoPiece(_)) => match loose_tandem(board, side, written) {
            Some((from, to, None)) => (Some((from, to)), Outcome::LooseTandem),
            Some((from, to, Some(illegal))) => {
                (Some((from, to)), Outcome::Illegal(Box::new(illegal)))
            }
            None => (None, Outcome::Unresolved(Box::new(error))),
        },
        Err(error) => (None, Outcome::Unresolved(Box::new(error))),
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
            &played[0].outcome,
            Outcome::Unresolved(error) if matches!(**error, ResolveError::Impossible { .. })
        ));
        assert_eq!(board_after(&start, &played, 0), Some(Board::initial()));
        assert!(
            matches!(
                &played[1].outcome,
                Outcome::Unresolved(error) if matches!(**error, ResolveError::NoPiece(_))
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
    fn the_board_after_any_move_is_the_board_it_was_played_on() {
        let start = Arc::new(Board::initial());
        // Horses out and back, a chariot up and down, with an unreadable word between.
        let cycle = [
            "H2+3", "h2+3", "H3-2", "h3-2", "R1+1", "r1+1", "R1-1", "X", "r1-1",
        ];
        let texts: Vec<&str> = cycle
            .iter()
            .cycle()
            .take(5 * BOARD_KEPT_EVERY)
            .copied()
            .collect();
        let moves = written(&texts);
        let mut played = ChunkedVec::new();
        let mut player = Player::after(&start, Side::Red, &played);
        let mut boards = Vec::new();
        for written in &moves {
            player.play(written, &mut played);
            boards.push(player.board().clone());
        }
        assert!(boards.windows(2).any(|pair| pair[0] != pair[1]));
        for (index, board) in boards.iter().enumerate() {
            assert_eq!(board_after(&start, &played, index).as_ref(), Some(board));
            let kept = (index + 1).is_multiple_of(BOARD_KEPT_EVERY);
            assert_eq!(played[index].board.is_some(), kept, "{index}");
        }
        assert_eq!(board_after(&start, &played, boards.len()), None);
        // A list that takes over moves at other places keeps their boards, and they hold.
        // Two words that are not moves first leave the board and the side to move as they
        // were.
        let mut shifted = ChunkedVec::new();
        play(&start, Side::Red, &written(&["X", "Y"]), &mut shifted);
        shifted.extend_from(&played, 0..played.len());
        for (index, board) in boards.iter().enumerate() {
            assert_eq!(
                board_after(&start, &shifted, index + 2).as_ref(),
                Some(board)
            );
        }
        // A player resumed in the middle goes on from the board reached.
        let mut resumed = ChunkedVec::new();
        resumed.extend_from(&played, 0..21);
        play(&start, Side::Red, &moves, &mut resumed);
        assert_eq!(resumed, played);
    }

    #[test]
    fn what_a_player_knows_of_calm_generals_changes_no_outcome() {
        use crate::test_random::Xorshift;
        use crate::xiangqi::notation::write_move;
        use crate::xiangqi::rules::reachable;
        let mut random = Xorshift::new(0x1234_5678_9abc_def1);
        let (mut moves_seen, mut illegal_seen) = (0, 0);
        for _ in 0..200 {
            let start = Board::initial();
            let mut board = start.clone();
            let mut played = ChunkedVec::new();
            let mut player = Player::after(&start, Side::Red, &played);
            for index in 0..150 {
                // Any move a man's movement allows, lawful or not: captures, checks and
                // moves that leave the mover's general in check all come up.
                let side = side_of(Side::Red, index);
                let choices: Vec<(Point, Point)> = board
                    .men()
                    .filter(|(_, man)| man.side == side)
                    .flat_map(|(from, _)| {
                        reachable(&board, from)
                            .into_iter()
                            .map(move |to| (from, to))
                    })
                    .collect();
                if choices.is_empty() {
                    break;
                }
                let (from, to) = choices[random.below(choices.len())];
                let text = write_move(&board, from, to).expect("a move its movement allows");
                let written = &written(&[&text])[0];
                let expected = resolve_leniently(
                    &mut board.clone(),
                    side,
                    written.parsed.as_ref().expect("a written move reads"),
                    None,
                );
                player.play(written, &mut played);
                let got = &played[index];
                assert_eq!(
                    (got.from.zip(got.to), &got.outcome),
                    (expected.0, &expected.1),
                    "{board:?} {text}"
                );
                if let Some((from, to)) = expected.0 {
                    board.put(to, board.get(from));
                    board.put(from, None);
                }
                assert_eq!(player.board(), &board);
                moves_seen += 1;
                illegal_seen += usize::from(matches!(got.outcome, Outcome::Illegal(_)));
            }
        }
        assert!(
            moves_seen > 10_000 && illegal_seen > 500,
            "{moves_seen} {illegal_seen}"
        );
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
