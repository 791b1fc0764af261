//! Playing a WXF record: each move resolved on the board before it and checked against the
//! rules, the board after it kept, and what went wrong reported with the reason.

use std::sync::Arc;

use crate::model::chunked::ChunkedVec;
use crate::xiangqi::board::{Board, Kind, Man, Point, Side};
use crate::xiangqi::reader::parsed::WrittenMoves;
use crate::xiangqi::rules::{
    attacked_through, check_move, check_reads, files_between, generals_facing, in_check,
    may_expose, may_threaten, movement_reads,
};
use crate::xiangqi::wxf_move::{destination, resolve_on, Direction, ResolveError, Which, WxfMove};

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

    /// Plays the move `written` (none for a word that is not a move) as the next move of
    /// `played`.
    pub fn play(&mut self, written: Option<&WxfMove>, played: &mut ChunkedVec<Played>) {
        let index = played.len();
        let side = side_of(self.first, index);
        let (moved, outcome) = match written {
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

    /// Plays `written` as the next move of `played`, where `before` is the same move as a
    /// previous replay played it on a board that differed from this player's as
    /// `divergence` says. The move is taken over as it was when its verdict cannot have
    /// read a point where the boards differ, and played again otherwise (and `divergence`
    /// follows).
    pub fn follow(
        &mut self,
        written: Option<&WxfMove>,
        before: &Played,
        divergence: &mut Divergence,
        played: &mut ChunkedVec<Played>,
    ) {
        let taken = || Played {
            side: before.side,
            from: before.from,
            to: before.to,
            mover: before.mover,
            captured: before.captured,
            board: None,
            outcome: before.outcome.clone(),
        };
        match divergence.reads(&self.board, before, written) {
            Reads::Nothing => return self.record(taken(), played),
            Reads::Check => {
                let (Some(from), Some(to), Some(mover)) = (before.from, before.to, before.mover)
                else {
                    unreachable!("a move that reads only for check was played");
                };
                let side = before.side;
                if self.calm[slot(side)].is_some_and(|general| !may_expose(general, from, to)) {
                    return self.record(taken(), played);
                }
                // Tested on the board it is made on, and taken back if it fails.
                let taken = taken();
                taken.make(&mut self.board);
                if divergence.general_safe(&self.board, side) {
                    return self.note(taken, played);
                }
                self.board.put(from, Some(mover));
                self.board.put(to, before.captured);
            }
            Reads::Differences => {}
        }
        let index = played.len();
        self.play(written, played);
        divergence.after(before, &played[index], &self.board);
    }

    /// Makes `result` on the board, and notes it (see [`Player::note`]).
    fn record(&mut self, result: Played, played: &mut ChunkedVec<Played>) {
        result.make(&mut self.board);
        self.note(result, played);
    }

    /// Keeps what is known of the generals after `result`, already made on the board, and
    /// pushes it.
    fn note(&mut self, mut result: Played, played: &mut ChunkedVec<Played>) {
        let index = played.len();
        let side = result.side;
        if let (Some(from), Some(to)) = (result.from, result.to) {
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

/// Where the board a previous replay had after some move differs from the board being
/// played after the same move, and what that tells of the next moves: a move whose verdict
/// reads none of those points has the verdict it had (see [`Player::follow`]).
#[derive(Clone)]
pub struct Divergence {
    /// The points where the boards differ, as bits (bit `i` for the point of index `i`).
    points: u128,
    /// The previous replay's man on each of those points.
    previous: [Option<Man>; 90],
    /// For each man (see [`man_slot`]), the files on which one of the boards holds it on
    /// one of those points: a move looks for its men along a file.
    files_of_men: [u16; 14],
    /// Whether one of the boards holds a general on one of those points: where the
    /// generals stand, which the test for check starts from, is then not known to be the
    /// same.
    general_differs: bool,
}

/// What the verdict of a move taken over may read of the points where the boards differ.
enum Reads {
    Nothing,
    /// Only in the test for check: the move is the same once that test passes again.
    Check,
    Differences,
}

fn man_slot(man: Man) -> usize {
    slot(man.side) * Kind::ALL.len() + man.kind as usize
}

impl Divergence {
    /// How `board` differs from `previous`, the previous replay's board after the same move.
    pub fn between(previous: &Board, board: &Board) -> Divergence {
        let points = previous.differences(board);
        let mut divergence = Divergence {
            points,
            previous: [None; 90],
            files_of_men: [0; 14],
            general_differs: false,
        };
        for (index, man) in divergence.previous.iter_mut().enumerate() {
            if points & 1 << index != 0 {
                *man = previous.at_index(index);
            }
        }
        divergence.summarise(board);
        divergence
    }

    /// Whether the boards are the same.
    pub fn is_empty(&self) -> bool {
        self.points == 0
    }

    fn summarise(&mut self, board: &Board) {
        self.files_of_men = [0; 14];
        self.general_differs = false;
        let mut left = self.points;
        while left != 0 {
            let index = left.trailing_zeros() as usize;
            left &= left - 1;
            let Some(point) = Point::from_index(index) else {
                continue;
            };
            for man in [self.previous[index], board.get(point)]
                .into_iter()
                .flatten()
            {
                self.files_of_men[man_slot(man)] |= 1 << point.file;
                self.general_differs |= man.kind == Kind::General;
            }
        }
    }

    /// What the verdict of `before` (played by the previous replay) reads of the points
    /// where the boards differ, asked of `written` on `board`, which is as the previous
    /// board was except on those points. Only a lawful move is looked into: the others are
    /// played again.
    fn reads(&self, board: &Board, before: &Played, written: Option<&WxfMove>) -> Reads {
        if before.outcome != Outcome::Legal {
            return Reads::Differences;
        }
        let (Some(from), Some(to), Some(mover), Some(parsed)) =
            (before.from, before.to, before.mover, written)
        else {
            return Reads::Differences;
        };
        // The men looked for, on the files looked at, are the same on both boards, and so are
        // the candidates: a move names a file, or counts the men of every file.
        let looked_at = match parsed.which {
            Which::File(_) => 1 << from.file,
            _ => u16::MAX,
        };
        if self.files_of_men[man_slot(mover)] & looked_at != 0 {
            return Reads::Differences;
        }
        // Whether the piece moved is the only candidate. Tandem signs pick one man a file
        // among the files holding enough: one file at most unless there are twice as many.
        let alone = || match parsed.which {
            Which::File(_) => board.ranks_holding(mover, from.file) == 1 << from.rank,
            Which::OnFile(..) => true,
            Which::Front | Which::Rear => board.count(mover) < 4,
            Which::Middle => board.count(mover) < 6,
            Which::Foremost | Which::Rearmost => board.count(mover) < 8,
        };
        // Every candidate on a named file goes from it towards `to`'s file.
        let candidates_apart = matches!(parsed.which, Which::File(_))
            && self.points & files_between(from.file, to.file) == 0;
        if !candidates_apart && (!alone() || self.points & movement_reads(from, to) != 0) {
            return Reads::Differences;
        }
        let general = if mover.kind == Kind::General {
            if board.count(mover) != 1 || self.general_differs {
                return Reads::Differences;
            }
            to
        } else {
            match board.general(mover.side) {
                Some(general) => general,
                None => return Reads::Differences,
            }
        };
        if !self.general_differs && self.points & check_reads(general) == 0 {
            Reads::Nothing
        } else if alone() {
            Reads::Check
        } else {
            Reads::Differences
        }
    }

    /// Whether `side`'s general is out of check on `board`, where a move of `side` that
    /// left it out of check on the previous board has just been made: only the ways of
    /// attacking it that involve a point where the boards differ are looked at (see
    /// [`attacked_through`]).
    fn general_safe(&self, board: &Board, side: Side) -> bool {
        if self.general_differs {
            return !in_check(board, side);
        }
        let Some(general) = board.general(side) else {
            return true;
        };
        if generals_facing(board).is_some() {
            return false;
        }
        let mut left = self.points & check_reads(general);
        while left != 0 {
            let index = left.trailing_zeros() as usize;
            left &= left - 1;
            let through = Point::from_index(index)
                .is_some_and(|point| attacked_through(board, general, side.other(), point));
            if through {
                return false;
            }
        }
        true
    }

    /// Follows the boards through `before`, the previous replay's move, and `now`, this
    /// one's, now made on `board`: only the points either touches can change.
    fn after(&mut self, before: &Played, now: &Played, board: &Board) {
        let was_here = |point: Point| {
            if now.from == Some(point) && now.to.is_some() {
                now.mover
            } else if now.to == Some(point) && now.from.is_some() {
                now.captured
            } else {
                board.get(point)
            }
        };
        let previous_after = |point: Point| {
            if before.to == Some(point) && before.from.is_some() {
                before.mover
            } else if before.from == Some(point) && before.to.is_some() {
                None
            } else if self.points & 1 << point.index() != 0 {
                self.previous[point.index()]
            } else {
                was_here(point)
            }
        };
        let touched = [before.from, before.to, now.from, now.to]
            .map(|point| point.map(|point| (point, previous_after(point))));
        for (point, previous) in touched.into_iter().flatten() {
            let index = point.index();
            if previous == board.get(point) {
                self.points &= !(1 << index);
            } else {
                self.points |= 1 << index;
                self.previous[index] = previous;
            }
        }
        self.summarise(board);
    }
}

/// Play `moves[played.len()..]` after the moves already in `played`, from `start`.
pub fn play(start: &Board, first: Side, moves: &WrittenMoves, played: &mut ChunkedVec<Played>) {
    let mut player = Player::after(start, first, played);
    for (written, _) in moves.iter_as_read_from(played.len()) {
        player.play(written.parsed.as_ref(), played);
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
    use crate::xiangqi::reader::parsed::WrittenMove;
    use crate::xiangqi::wxf_move::parse_move;

    fn written(texts: &[&str]) -> WrittenMoves {
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
        let texts = ["C2.5", "h8+7", "C5+4", "X"];
        let moves = written(&texts);
        let mut played = ChunkedVec::new();
        play(&start, Side::Red, &written(&texts[..3]), &mut played);
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
        for written in moves.iter() {
            player.play(written.parsed.as_ref(), &mut played);
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
        use crate::xiangqi::rules::reachable;
        use crate::xiangqi::wxf_move::write_move;
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
                let written = &written(&[&text]).first().expect("a move");
                let expected = resolve_leniently(
                    &mut board.clone(),
                    side,
                    written.parsed.as_ref().expect("a written move reads"),
                    None,
                );
                player.play(written.parsed.as_ref(), &mut played);
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
    fn a_move_followed_on_another_board_is_what_playing_it_there_gives() {
        use crate::test_random::Xorshift;
        use crate::xiangqi::rules::{in_check, reachable};
        use crate::xiangqi::wxf_move::{file_number, write_move};
        let mut random = Xorshift::new(0x2f6b_1d3a_96c4_e807);
        let letters = ['A', 'E', 'H', 'R', 'C', 'P', 'P', 'P'];
        let signs = ["+", "-", "=", "++", "--"];
        let (mut taken_over, mut played_again) = (0, 0);
        for _ in 0..20_000 {
            // Generals in their palaces, and men of every kind anywhere, often several of a
            // kind on one of a few files.
            let mut previous = Board::default();
            previous.put(
                Point::new(3 + random.below(3) as u8, random.below(3) as u8).unwrap(),
                Man::from_letter('K'),
            );
            previous.put(
                Point::new(3 + random.below(3) as u8, 7 + random.below(3) as u8).unwrap(),
                Man::from_letter('k'),
            );
            let busy = [random.below(9), random.below(9), random.below(9)];
            for _ in 0..random.below(30) {
                let file = match random.below(2) {
                    0 => busy[random.below(busy.len())],
                    _ => random.below(9),
                };
                let point = Point::new(file as u8, random.below(10) as u8).unwrap();
                let letter = letters[random.below(letters.len())];
                let letter = match random.below(2) {
                    0 => letter,
                    _ => letter.to_ascii_lowercase(),
                };
                if previous.get(point).is_none() {
                    previous.put(point, Man::from_letter(letter));
                }
            }
            let side = match random.below(2) {
                0 => Side::Red,
                _ => Side::Black,
            };
            // The board played: the same but for a few points, often on the file or rank of
            // the mover's general, a general among them now and then.
            let mut board = previous.clone();
            let general = previous.general(side).unwrap();
            for _ in 0..1 + random.below(3) {
                let near =
                    |random: &mut Xorshift, at: u8| (at + random.below(5) as u8).checked_sub(2);
                let point = match random.below(4) {
                    0 => Point::new(general.file, random.below(10) as u8),
                    1 => Point::new(random.below(9) as u8, general.rank),
                    2 => near(&mut random, general.file)
                        .zip(near(&mut random, general.rank))
                        .and_then(|(file, rank)| Point::new(file, rank)),
                    _ => Point::from_index(random.below(90)),
                };
                let Some(point) = point else {
                    continue;
                };
                let man = match random.below(4) {
                    0 => None,
                    1 => Man::from_letter("KAEHRCPkaehrcp".as_bytes()[random.below(14)].into()),
                    _ => Some(Man::new(
                        side.other(),
                        [Kind::Chariot, Kind::Cannon, Kind::Horse][random.below(3)],
                    )),
                };
                board.put(point, man);
            }
            // A move one of the side's men may make on either board, as written there, or
            // with a tandem sign, or naming the file when two stand on it.
            let on = match random.below(2) {
                0 => &previous,
                _ => &board,
            };
            let in_line = random.below(2) == 0;
            let choices: Vec<(Point, Point)> = on
                .men()
                .filter(|(point, man)| {
                    man.side == side
                        && (!in_line || point.file == general.file || point.rank == general.rank)
                })
                .flat_map(|(from, _)| reachable(on, from).into_iter().map(move |to| (from, to)))
                .collect();
            if choices.is_empty() {
                continue;
            }
            let (from, to) = choices[random.below(choices.len())];
            let mut text = write_move(on, from, to).unwrap();
            match random.below(4) {
                0 => {
                    let sign = signs[random.below(signs.len())];
                    text = format!("{}{sign}{}", &text[..1], &text[2..]);
                }
                1 => {
                    let file = file_number(side, from.file);
                    text = format!("{}{file}{}", &text[..1], &text[2..]);
                }
                _ => {}
            }
            let Some(parsed) = parse_move(&text) else {
                continue;
            };
            // Players that know what is true of the generals on their boards.
            let player = |board: &Board| Player {
                first: side,
                board: board.clone(),
                calm: [Side::Red, Side::Black]
                    .map(|side| board.general(side).filter(|_| !in_check(board, side))),
            };
            let mut before = ChunkedVec::new();
            let mut previous_player = player(&previous);
            previous_player.play(Some(&parsed), &mut before);
            let mut expected = ChunkedVec::new();
            let mut playing = player(&board);
            playing.play(Some(&parsed), &mut expected);
            let mut divergence = Divergence::between(&previous, &board);
            let mut following = player(&board);
            let mut got = ChunkedVec::new();
            let context = format!("{previous:?} / {board:?}: {text}");
            let reads = divergence.reads(&board, &before[0], Some(&parsed));
            following.follow(Some(&parsed), &before[0], &mut divergence, &mut got);
            assert_eq!(got, expected, "{context}");
            assert_eq!(following.board(), playing.board(), "{context}");
            let after = Divergence::between(previous_player.board(), playing.board());
            assert_eq!(divergence.points, after.points, "{context}");
            for (index, man) in after.previous.iter().enumerate() {
                if after.points & 1 << index != 0 {
                    assert_eq!(divergence.previous[index], *man, "{context}");
                }
            }
            match reads {
                Reads::Differences => played_again += 1,
                _ => taken_over += 1,
            }
        }
        assert!(
            taken_over > 2_000 && played_again > 2_000,
            "{taken_over} {played_again}"
        );
    }

    #[test]
    fn a_move_is_played_again_where_the_other_board_can_change_its_verdict() {
        use crate::xiangqi::rules::in_check;
        // The men of the previous board and of the board played (`e0K`: Red's general on
        // e0), and a Red move.
        let cases = [
            // A second chariot on the named file, blocked on the previous board only: the
            // move is ambiguous here.
            ("e0K d9k a3R a6R c6p", "e0K d9k a3R a6R", "R9.5"),
            // Tandem signs on two files each holding two or three chariots.
            (
                "e0K d9k a5R a3R i5R i3R c5p",
                "e0K d9k a5R a3R i5R i3R",
                "R+.5",
            ),
            (
                "e0K d9k a4R a5R a6R i4R i5R i6R c5p",
                "e0K d9k a4R a5R a6R i4R i5R i6R",
                "R=.5",
            ),
            // A second chariot on the named file, pinned on the previous board only.
            ("e0K d9k f3R f0R h0r", "e0K d9k f3R f0R", "R4+1"),
            // Two Black generals on the previous board, the first in point order off Red's
            // file; one here, facing Red's once the chariot leaves.
            ("e0K c7k e9k e4R", "e0K e9k e4R", "R5.1"),
            // Two Red generals: the one tested for check is not the one that moves.
            ("f0K d1K e9k", "f0K d1K e9k i0r", "K6+1"),
        ];
        let board = |men: &str| {
            let mut board = Board::default();
            for man in men.split(' ') {
                board.put(
                    Point::parse(&man[..2]).unwrap(),
                    Man::from_letter(man.as_bytes()[2].into()),
                );
            }
            board
        };
        let player = |board: &Board| Player {
            first: Side::Red,
            board: board.clone(),
            calm: [Side::Red, Side::Black]
                .map(|side| board.general(side).filter(|_| !in_check(board, side))),
        };
        for (previous, here, text) in cases {
            let (previous, here) = (board(previous), board(here));
            let written = parse_move(text);
            let mut before = ChunkedVec::new();
            player(&previous).play(written.as_ref(), &mut before);
            let mut expected = ChunkedVec::new();
            player(&here).play(written.as_ref(), &mut expected);
            assert_ne!(
                before[0], expected[0],
                "{text}: the boards give the same move"
            );
            let mut got = ChunkedVec::new();
            let mut divergence = Divergence::between(&previous, &here);
            player(&here).follow(written.as_ref(), &before[0], &mut divergence, &mut got);
            assert_eq!(got, expected, "{text}: {previous:?} / {here:?}");
        }
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
