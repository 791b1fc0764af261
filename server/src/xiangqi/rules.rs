//! The rules of xiangqi: how each piece moves, what blocks it, check and the flying
//! general, as pure functions of a [`Board`].

use std::fmt;

use crate::xiangqi::board::{Board, Kind, Man, Point, Side, FILES, RANKS};

/// Whether `point` is in `side`'s palace (files d..f, the side's first three ranks).
pub fn in_palace(side: Side, point: Point) -> bool {
    (3..=5).contains(&point.file) && side.rank_from_home(point.rank) <= 2
}

/// The five points an advisor can stand on.
pub fn is_advisor_point(side: Side, point: Point) -> bool {
    in_palace(side, point) && (point.file + side.rank_from_home(point.rank)) % 2 == 1
}

/// The seven points an elephant can stand on.
pub fn is_elephant_point(side: Side, point: Point) -> bool {
    let home = side.rank_from_home(point.rank);
    matches!((point.file, home), (2 | 6, 0) | (0 | 4 | 8, 2) | (2 | 6, 4))
}

/// Why a move breaks the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Illegal {
    NoPiece(Point),
    NotYourPiece {
        side: Side,
    },
    OwnPiece {
        at: Point,
        man: Man,
    },
    NotAStep {
        kind: Kind,
        how: &'static str,
    },
    LeavesPalace {
        kind: Kind,
    },
    CrossesRiver,
    ElephantEye(Point),
    HorseLeg(Point),
    Blocked {
        kind: Kind,
        at: Point,
    },
    CannonNeedsScreen,
    CannonScreens(usize),
    SoldierBackwards,
    SoldierSidewaysBeforeRiver,
    /// The move leaves the mover's general attacked by the piece on this point.
    LeavesInCheck {
        by: Point,
        attacker: Man,
    },
    /// The move opens the file between the two generals.
    GeneralsFace {
        file: u8,
    },
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Illegal::NoPiece(at) => write!(f, "there is no piece on {at}"),
            Illegal::NotYourPiece { side } => write!(f, "it is {}'s turn", side.name()),
            Illegal::OwnPiece { at, man } => {
                write!(f, "{at} holds a {} of the same side", man.kind.name())
            }
            Illegal::NotAStep { kind, how } => write!(f, "a {} moves {how}", kind.name()),
            Illegal::LeavesPalace { kind } => {
                write!(f, "a {} may not leave the palace", kind.name())
            }
            Illegal::CrossesRiver => f.write_str("an elephant may not cross the river"),
            Illegal::ElephantEye(at) => {
                write!(f, "the elephant's eye is blocked: {at} is occupied")
            }
            Illegal::HorseLeg(at) => write!(f, "the horse's leg is blocked: {at} is occupied"),
            Illegal::Blocked { kind, at } => {
                write!(f, "the {} is blocked by the piece on {at}", kind.name())
            }
            Illegal::CannonNeedsScreen => {
                f.write_str("a cannon captures only by jumping over exactly one piece, and there is none between")
            }
            Illegal::CannonScreens(count) => write!(
                f,
                "a cannon captures by jumping over exactly one piece, and there are {count} between"
            ),
            Illegal::SoldierBackwards => f.write_str("a soldier never moves backwards"),
            Illegal::SoldierSidewaysBeforeRiver => {
                f.write_str("a soldier moves sideways only after crossing the river")
            }
            Illegal::LeavesInCheck { by, attacker } => write!(
                f,
                "it leaves its own general in check from the {} on {by}",
                attacker.kind.name()
            ),
            Illegal::GeneralsFace { file } => write!(
                f,
                "it leaves the two generals facing each other on file {} with nothing between (flying general)",
                char::from(b'a' + file)
            ),
        }
    }
}

impl Illegal {
    /// Whether the piece may move so on an empty board: a rule of check, not of movement.
    pub fn is_about_check(&self) -> bool {
        matches!(
            self,
            Illegal::LeavesInCheck { .. } | Illegal::GeneralsFace { .. }
        )
    }
}

/// A horse's eight steps: one point along a file or rank, then one diagonally outwards.
const HORSE_STEPS: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

fn delta(from: Point, to: Point) -> (i32, i32) {
    (
        i32::from(to.file) - i32::from(from.file),
        i32::from(to.rank) - i32::from(from.rank),
    )
}

/// The points strictly between two points of one file or rank.
fn between(from: Point, to: Point) -> impl Iterator<Item = Point> {
    let (dx, dy) = delta(from, to);
    let steps = dx.abs().max(dy.abs());
    let (sx, sy) = (dx.signum(), dy.signum());
    (1..steps).filter_map(move |i| from.offset(sx * i, sy * i))
}

/// Whether `man`, standing on `from`, may move to `to` by its own movement on `board`,
/// check aside (`to` may hold an opponent, which is then captured).
pub fn check_movement(board: &Board, man: Man, from: Point, to: Point) -> Result<(), Illegal> {
    if let Some(there) = board.get(to) {
        if there.side == man.side {
            return Err(Illegal::OwnPiece { at: to, man: there });
        }
    }
    let (dx, dy) = delta(from, to);
    let (adx, ady) = (dx.abs(), dy.abs());
    let kind = man.kind;
    match kind {
        Kind::General => {
            if adx + ady != 1 {
                return Err(Illegal::NotAStep {
                    kind,
                    how: "one point along a file or a rank",
                });
            }
            if !in_palace(man.side, to) {
                return Err(Illegal::LeavesPalace { kind });
            }
        }
        Kind::Advisor => {
            if adx != 1 || ady != 1 {
                return Err(Illegal::NotAStep {
                    kind,
                    how: "one point diagonally",
                });
            }
            if !in_palace(man.side, to) {
                return Err(Illegal::LeavesPalace { kind });
            }
        }
        Kind::Elephant => {
            if adx != 2 || ady != 2 {
                return Err(Illegal::NotAStep {
                    kind,
                    how: "two points diagonally",
                });
            }
            if !man.side.own_half(to.rank) {
                return Err(Illegal::CrossesRiver);
            }
            if let Some(eye) = from.offset(dx / 2, dy / 2) {
                if board.get(eye).is_some() {
                    return Err(Illegal::ElephantEye(eye));
                }
            }
        }
        Kind::Horse => {
            if !((adx == 1 && ady == 2) || (adx == 2 && ady == 1)) {
                return Err(Illegal::NotAStep {
                    kind,
                    how: "one point along a file or rank, then one diagonally outwards",
                });
            }
            let leg = if adx == 2 {
                from.offset(dx.signum(), 0)
            } else {
                from.offset(0, dy.signum())
            };
            if let Some(leg) = leg {
                if board.get(leg).is_some() {
                    return Err(Illegal::HorseLeg(leg));
                }
            }
        }
        Kind::Chariot => {
            if dx != 0 && dy != 0 {
                return Err(Illegal::NotAStep {
                    kind,
                    how: "along a file or a rank",
                });
            }
            if let Some(at) = between(from, to).find(|p| board.get(*p).is_some()) {
                return Err(Illegal::Blocked { kind, at });
            }
        }
        Kind::Cannon => {
            if dx != 0 && dy != 0 {
                return Err(Illegal::NotAStep {
                    kind,
                    how: "along a file or a rank",
                });
            }
            let mut screens = between(from, to).filter(|p| board.get(*p).is_some());
            let first_screen = screens.next();
            let count = usize::from(first_screen.is_some()) + screens.count();
            match (board.get(to).is_some(), first_screen) {
                (false, None) => {}
                (true, Some(_)) if count == 1 => {}
                (false, Some(at)) => return Err(Illegal::Blocked { kind, at }),
                (true, None) => return Err(Illegal::CannonNeedsScreen),
                (true, Some(_)) => return Err(Illegal::CannonScreens(count)),
            }
        }
        Kind::Soldier => {
            let forward = dy * man.side.forward();
            if forward < 0 {
                return Err(Illegal::SoldierBackwards);
            }
            if adx + ady != 1 {
                return Err(Illegal::NotAStep {
                    kind,
                    how: "one point forwards (or sideways after crossing the river)",
                });
            }
            if adx == 1 && man.side.own_half(from.rank) {
                return Err(Illegal::SoldierSidewaysBeforeRiver);
            }
        }
    }
    Ok(())
}

/// Whether the two generals stand on one file with nothing between them.
pub fn generals_facing(board: &Board) -> Option<u8> {
    let red = board.general(Side::Red)?;
    let black = board.general(Side::Black)?;
    (red.file == black.file && between(red, black).all(|p| board.get(p).is_none()))
        .then_some(red.file)
}

/// A piece of `side`'s opponent that attacks `side`'s general, if any: the first in point
/// order, so that the reason given for an illegal move does not depend on how it was found.
pub fn checker(board: &Board, side: Side) -> Option<(Point, Man)> {
    let general = board.general(side)?;
    if !attacked(board, general, side.other()) {
        return None;
    }
    board.men().find(|(point, man)| {
        man.side != side
            && man.kind != Kind::General
            && steps_like(man.kind, *point, general)
            && check_movement(board, *man, *point, general).is_ok()
    })
}

/// Whether a man of `attacker` other than its general may move to `target`, which holds a
/// man of the other side (the general whose check is asked about), by its own movement. The same answer as asking
/// [`check_movement`] of every man of `attacker`, but looking out from `target` only where
/// an attacker could stand: along its file and rank, and at the few points a horse,
/// elephant, advisor or soldier would step from. Every move asks it, so it is the cost of
/// a replay.
pub fn attacked(board: &Board, target: Point, attacker: Side) -> bool {
    let (file, rank) = (i32::from(target.file), i32::from(target.rank));
    let enemy = |dx: i32, dy: i32, kind: Kind| {
        board.at(file + dx, rank + dy) == Some(Man::new(attacker, kind))
    };
    // Inside the board wherever it is asked (between two points of it).
    let empty = |dx: i32, dy: i32| board.at(file + dx, rank + dy).is_none();
    // Chariots: the first man along a line; cannons: the second. The men of the target's
    // rank and file are bits; the nearest two on each side are found from them.
    let chariot = Some(Man::new(attacker, Kind::Chariot));
    let cannon = Some(Man::new(attacker, Kind::Cannon));
    let on_rank = board.files_held(target.rank) & !(1 << target.file);
    let on_file = board.ranks_held(target.file) & !(1 << target.rank);
    let lines = [(on_rank, target.file, true), (on_file, target.rank, false)];
    for (held, at, along_rank) in lines {
        let point = |bit: u32| {
            let bit = bit as u8;
            if along_rank {
                Point {
                    file: bit,
                    rank: target.rank,
                }
            } else {
                Point {
                    file: target.file,
                    rank: bit,
                }
            }
        };
        let after = held & !((2u16 << at) - 1);
        let before = held & ((1u16 << at) - 1);
        let nearest_after = [after, after & after.wrapping_sub(1)]
            .map(|bits| (bits != 0).then(|| point(bits.trailing_zeros())));
        let highest = |bits: u16| (bits != 0).then(|| 15 - bits.leading_zeros());
        let first_before = highest(before);
        let second_before = first_before.and_then(|first| highest(before & !(1 << first)));
        for [first, second] in [
            nearest_after,
            [first_before.map(point), second_before.map(point)],
        ] {
            if first.is_some_and(|p| board.get(p) == chariot)
                || second.is_some_and(|p| board.get(p) == cannon)
            {
                return true;
            }
        }
    }
    // A horse steps one point along a file or rank (its leg, which must be empty), then
    // one diagonally outwards; (dx, dy) goes from the horse to the target.
    for (dx, dy) in HORSE_STEPS {
        if enemy(-dx, -dy, Kind::Horse) {
            let leg = if dx.abs() == 2 {
                (-dx + dx.signum(), -dy)
            } else {
                (-dx, -dy + dy.signum())
            };
            if empty(leg.0, leg.1) {
                return true;
            }
        }
    }
    for (dx, dy) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
        if in_palace(attacker, target) && enemy(dx, dy, Kind::Advisor) {
            return true;
        }
        if attacker.own_half(target.rank) && enemy(2 * dx, 2 * dy, Kind::Elephant) && empty(dx, dy)
        {
            return true;
        }
    }
    // A soldier steps forwards, or sideways once it has crossed the river.
    if enemy(0, -attacker.forward(), Kind::Soldier) {
        return true;
    }
    !attacker.own_half(target.rank) && (enemy(1, 0, Kind::Soldier) || enemy(-1, 0, Kind::Soldier))
}

/// Whether a man of `attacker` attacks `target` (as [`attacked`] finds) in a way that
/// involves `point`: from `point`, along the line from `target` through `point`, or
/// through `point` as a horse's leg or an elephant's eye. When two boards differ only on
/// some points and `target` is not attacked on one of them, it is attacked on the other
/// exactly when this holds there of one of those points: every other way of attacking it
/// reads the same men on both.
pub fn attacked_through(board: &Board, target: Point, attacker: Side, point: Point) -> bool {
    let (file, rank) = (i32::from(target.file), i32::from(target.rank));
    let enemy = |dx: i32, dy: i32, kind: Kind| {
        board.at(file + dx, rank + dy) == Some(Man::new(attacker, kind))
    };
    let empty = |dx: i32, dy: i32| board.at(file + dx, rank + dy).is_none();
    // A horse standing `(dx, dy)` from the target, its leg the point next to it on the
    // way (one along the longer side, then one diagonally).
    let horse = |dx: i32, dy: i32| {
        let leg = if dx.abs() == 2 {
            (dx - dx.signum(), dy)
        } else {
            (dx, dy - dy.signum())
        };
        enemy(dx, dy, Kind::Horse) && empty(leg.0, leg.1)
    };
    let (dx, dy) = delta(target, point);
    match (dx.abs(), dy.abs()) {
        (0, 0) => attacked(board, target, attacker),
        (0, _) | (_, 0) => {
            let soldier = dx.abs() + dy.abs() == 1
                && enemy(dx, dy, Kind::Soldier)
                && (dy == -attacker.forward() || (dy == 0 && !attacker.own_half(target.rank)));
            soldier || attacked_along(board, target, attacker, (dx.signum(), dy.signum()))
        }
        (1, 1) => {
            (in_palace(attacker, target) && enemy(dx, dy, Kind::Advisor))
                || (attacker.own_half(target.rank)
                    && enemy(2 * dx, 2 * dy, Kind::Elephant)
                    && empty(dx, dy))
                || horse(2 * dx, dy)
                || horse(dx, 2 * dy)
        }
        (1, 2) | (2, 1) => horse(dx, dy),
        (2, 2) => {
            attacker.own_half(target.rank) && enemy(dx, dy, Kind::Elephant) && empty(dx / 2, dy / 2)
        }
        _ => false,
    }
}

/// Whether a chariot of `attacker` is the first man from `target` one way along its file
/// or rank (`step`), or a cannon the second.
fn attacked_along(board: &Board, target: Point, attacker: Side, step: (i32, i32)) -> bool {
    let mut seen = 0;
    let mut at = target;
    while let Some(next) = at.offset(step.0, step.1) {
        at = next;
        let Some(man) = board.get(at) else {
            continue;
        };
        seen += 1;
        let kind = if seen == 1 {
            Kind::Chariot
        } else {
            Kind::Cannon
        };
        if man == Man::new(attacker, kind) {
            return true;
        }
        if seen == 2 {
            return false;
        }
    }
    false
}

/// Whether going from `from` to `to` has the shape of `kind`'s step, as the first test of
/// [`check_movement`] asks: a cheap look before the whole test, since each move asks it of
/// every opposing man.
fn steps_like(kind: Kind, from: Point, to: Point) -> bool {
    let (dx, dy) = delta(from, to);
    let (adx, ady) = (dx.abs(), dy.abs());
    match kind {
        Kind::General | Kind::Soldier => adx + ady == 1,
        Kind::Advisor => adx == 1 && ady == 1,
        Kind::Elephant => adx == 2 && ady == 2,
        Kind::Horse => (adx == 1 && ady == 2) || (adx == 2 && ady == 1),
        Kind::Chariot | Kind::Cannon => dx == 0 || dy == 0,
    }
}

/// Whether `side`'s general is attacked (the facing generals count as check).
pub fn in_check(board: &Board, side: Side) -> bool {
    board
        .general(side)
        .is_some_and(|general| attacked(board, general, side.other()))
        || generals_facing(board).is_some()
}

/// Whether the man on `from` may move to `to`: its movement, then whether it leaves its
/// own general in check or the generals facing each other.
pub fn check_move(board: &Board, from: Point, to: Point) -> Result<(), Illegal> {
    check_move_on(&mut board.clone(), from, to)
}

/// [`check_move`], asked by making the move on `board` and taking it back: a replay asks
/// it of every move, and copying the board each time showed.
pub fn check_move_on(board: &mut Board, from: Point, to: Point) -> Result<(), Illegal> {
    let man = board.get(from).ok_or(Illegal::NoPiece(from))?;
    check_movement(board, man, from, to)?;
    let captured = board.get(to);
    board.put(to, Some(man));
    board.put(from, None);
    let verdict = if let Some(file) = generals_facing(board) {
        Err(Illegal::GeneralsFace { file })
    } else if let Some((by, attacker)) = checker(board, man.side) {
        Err(Illegal::LeavesInCheck { by, attacker })
    } else {
        Ok(())
    };
    board.put(from, Some(man));
    board.put(to, captured);
    verdict
}

/// The points of the files from `a` to `b` (either way round), as bits (bit `i` for the
/// point of index `i`).
pub fn files_between(a: u8, b: u8) -> u128 {
    let (low, high) = (a.min(b), a.max(b));
    let one_rank = (1u128 << (high + 1)) - (1u128 << low);
    // The rank's bits repeated on every rank: the ranks are 9 bits apart and a rank's bits
    // fit in 9, so the product carries nothing from one rank into the next.
    one_rank * EVERY_RANK
}

/// Bit 0 of every rank: the first file.
const EVERY_RANK: u128 = {
    let mut bits = 0;
    let mut rank = 0;
    while rank < RANKS as usize {
        bits |= 1 << (rank * FILES as usize);
        rank += 1;
    }
    bits
};

/// The points of the ranks from `a` to `b` (either way round), as bits.
fn ranks_between(a: u8, b: u8) -> u128 {
    let (low, high) = (u32::from(a.min(b)), u32::from(a.max(b)));
    let files = u32::from(FILES);
    (1u128 << ((high + 1) * files)) - (1u128 << (low * files))
}

/// Every point whose man the movement test of a move from `from` to `to` reads
/// ([`check_movement`]), as bits, and a few more: the rectangle the two points span holds
/// the destination, the points a chariot or cannon passes, a horse's leg and an
/// elephant's eye.
pub fn movement_reads(from: Point, to: Point) -> u128 {
    files_between(from.file, to.file) & ranks_between(from.rank, to.rank)
}

/// Every point whose man the test for check of a general on `general` reads (facing
/// generals included), as bits, and more: its file and rank and the points two steps
/// around it, where every man that can attack it stands or blocks.
pub fn check_reads(general: Point) -> u128 {
    CHECK_READS[general.index()]
}

const CHECK_READS: [u128; 90] = {
    let mut reads = [0; 90];
    let mut index = 0usize;
    while index < 90 {
        let (file, rank) = ((index % 9) as i32, (index / 9) as i32);
        let mut other = 0usize;
        while other < 90 {
            let (f, r) = ((other % 9) as i32, (other / 9) as i32);
            let near = (f - file).abs() <= 2 && (r - rank).abs() <= 2;
            if f == file || r == rank || near {
                reads[index] |= 1u128 << other;
            }
            other += 1;
        }
        index += 1;
    }
    reads
};

/// Whether `point` is on the file or rank of `general`, or within `steps` steps of it both
/// ways.
fn near(general: Point, point: Point, steps: u8) -> bool {
    point.file == general.file
        || point.rank == general.rank
        || (point.file.abs_diff(general.file) <= steps
            && point.rank.abs_diff(general.rank) <= steps)
}

/// Whether a move of `general`'s own side from `from` to `to` can put it in check when it
/// is not: the point left can open its file or rank to a chariot, a cannon or the other
/// general, or free a horse's leg or an elephant's eye (next to the general); the point
/// taken can only become a cannon's screen (on its file or rank), since every other way
/// a man there matters, it blocks.
pub fn may_expose(general: Point, from: Point, to: Point) -> bool {
    near(general, from, 1) || to.file == general.file || to.rank == general.rank
}

/// Whether a move of the other side from `from` to `to` can put `general` in check when
/// it is not: as [`may_expose`], and the man arriving may itself attack it (from its file
/// or rank, or from two steps away at most: a horse or an elephant).
pub fn may_threaten(general: Point, from: Point, to: Point) -> bool {
    near(general, from, 1) || near(general, to, 2)
}

/// [`check_move_on`], where `calm` is where the mover's general stands if it is known not
/// to be in check: a move that cannot expose that general (see [`may_expose`]) is tested
/// for its movement only. A replay knows this of many moves, and the test for check is
/// much of a move's cost.
pub fn check_move_knowing(
    board: &mut Board,
    from: Point,
    to: Point,
    calm: Option<Point>,
) -> Result<(), Illegal> {
    match calm {
        Some(general) if !may_expose(general, from, to) => {
            let man = board.get(from).ok_or(Illegal::NoPiece(from))?;
            check_movement(board, man, from, to)
        }
        _ => check_move_on(board, from, to),
    }
}

/// The points a man may reach by its movement alone (check aside), in point order.
pub fn reachable(board: &Board, from: Point) -> Vec<Point> {
    let Some(man) = board.get(from) else {
        return Vec::new();
    };
    let candidates: Vec<Point> = match man.kind {
        Kind::Chariot | Kind::Cannon => Point::all()
            .filter(|p| (p.file == from.file) != (p.rank == from.rank))
            .collect(),
        _ => {
            let steps: &[(i32, i32)] = match man.kind {
                Kind::General | Kind::Soldier => &[(1, 0), (-1, 0), (0, 1), (0, -1)],
                Kind::Advisor => &[(1, 1), (1, -1), (-1, 1), (-1, -1)],
                Kind::Elephant => &[(2, 2), (2, -2), (-2, 2), (-2, -2)],
                _ => &HORSE_STEPS,
            };
            steps
                .iter()
                .filter_map(|(dx, dy)| from.offset(*dx, *dy))
                .collect()
        }
    };
    candidates
        .into_iter()
        .filter(|to| check_movement(board, man, from, *to).is_ok())
        .collect()
}

/// Every legal move of `side`.
pub fn legal_moves(board: &Board, side: Side) -> Vec<(Point, Point)> {
    board
        .men()
        .filter(|(_, man)| man.side == side)
        .flat_map(|(from, _)| {
            reachable(board, from)
                .into_iter()
                .filter(move |to| check_move(board, from, *to).is_ok())
                .map(move |to| (from, to))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_random::Xorshift;
    use crate::xiangqi::board::{FILES, RANKS};

    fn p(name: &str) -> Point {
        Point::parse(name).unwrap()
    }

    fn board(men: &[(&str, char)]) -> Board {
        let mut board = Board::default();
        for (point, letter) in men {
            board.put(p(point), Man::from_letter(*letter));
        }
        board
    }

    fn movement(board: &Board, from: &str, to: &str) -> Result<(), Illegal> {
        let man = board.get(p(from)).unwrap();
        check_movement(board, man, p(from), p(to))
    }

    #[test]
    fn palace_advisor_and_elephant_points() {
        let palace: Vec<_> = Point::all()
            .filter(|&q| in_palace(Side::Black, q))
            .map(Point::name)
            .collect();
        assert_eq!(
            palace,
            ["d7", "e7", "f7", "d8", "e8", "f8", "d9", "e9", "f9"]
        );
        let advisors: Vec<_> = Point::all()
            .filter(|&q| is_advisor_point(Side::Red, q))
            .map(Point::name)
            .collect();
        assert_eq!(advisors, ["d0", "f0", "e1", "d2", "f2"]);
        let elephants: Vec<_> = Point::all()
            .filter(|&q| is_elephant_point(Side::Black, q))
            .map(Point::name)
            .collect();
        assert_eq!(elephants, ["c5", "g5", "a7", "e7", "i7", "c9", "g9"]);
    }

    #[test]
    fn the_general_steps_inside_its_palace() {
        let b = board(&[("e0", 'K'), ("e2", 'k')]);
        assert_eq!(movement(&b, "e0", "e1"), Ok(()));
        assert_eq!(movement(&b, "e0", "d0"), Ok(()));
        assert!(matches!(
            movement(&b, "e0", "d1"),
            Err(Illegal::NotAStep { .. })
        ));
        let edge = board(&[("d0", 'K')]);
        assert_eq!(
            movement(&edge, "d0", "c0"),
            Err(Illegal::LeavesPalace {
                kind: Kind::General
            })
        );
    }

    #[test]
    fn the_advisor_steps_diagonally_inside_its_palace() {
        let b = board(&[("d0", 'A'), ("e1", 'a')]);
        assert_eq!(movement(&b, "d0", "e1"), Ok(()));
        let b = board(&[("d2", 'A')]);
        assert_eq!(
            movement(&b, "d2", "c3"),
            Err(Illegal::LeavesPalace {
                kind: Kind::Advisor
            })
        );
        assert!(matches!(
            movement(&b, "d2", "d1"),
            Err(Illegal::NotAStep { .. })
        ));
    }

    #[test]
    fn the_elephant_needs_a_free_eye_and_stays_home() {
        let b = board(&[("c0", 'E')]);
        assert_eq!(movement(&b, "c0", "e2"), Ok(()));
        let blocked = board(&[("c0", 'E'), ("d1", 'p')]);
        assert_eq!(
            movement(&blocked, "c0", "e2"),
            Err(Illegal::ElephantEye(p("d1")))
        );
        let river = board(&[("c4", 'E')]);
        assert_eq!(movement(&river, "c4", "e6"), Err(Illegal::CrossesRiver));
        let black = board(&[("c5", 'e')]);
        assert_eq!(movement(&black, "c5", "a3"), Err(Illegal::CrossesRiver));
        assert!(matches!(
            movement(&b, "c0", "d1"),
            Err(Illegal::NotAStep { .. })
        ));
    }

    #[test]
    fn the_horse_is_blocked_at_its_leg() {
        let b = board(&[("b0", 'H')]);
        assert_eq!(movement(&b, "b0", "c2"), Ok(()));
        assert_eq!(movement(&b, "b0", "d1"), Ok(()));
        let legged = board(&[("b0", 'H'), ("b1", 'P')]);
        assert_eq!(
            movement(&legged, "b0", "c2"),
            Err(Illegal::HorseLeg(p("b1")))
        );
        assert_eq!(movement(&legged, "b0", "d1"), Ok(()));
        let side_leg = board(&[("b0", 'H'), ("c0", 'e')]);
        assert_eq!(
            movement(&side_leg, "b0", "d1"),
            Err(Illegal::HorseLeg(p("c0")))
        );
        assert!(matches!(
            movement(&b, "b0", "b2"),
            Err(Illegal::NotAStep { .. })
        ));
    }

    #[test]
    fn the_chariot_slides_until_blocked() {
        let b = board(&[("a0", 'R'), ("a5", 'p'), ("a7", 'p')]);
        assert_eq!(movement(&b, "a0", "a5"), Ok(()));
        assert_eq!(movement(&b, "a0", "i0"), Ok(()));
        assert_eq!(
            movement(&b, "a0", "a7"),
            Err(Illegal::Blocked {
                kind: Kind::Chariot,
                at: p("a5")
            })
        );
        assert!(matches!(
            movement(&b, "a0", "b1"),
            Err(Illegal::NotAStep { .. })
        ));
        let own = board(&[("a0", 'R'), ("a3", 'P')]);
        assert!(matches!(
            movement(&own, "a0", "a3"),
            Err(Illegal::OwnPiece { .. })
        ));
    }

    #[test]
    fn the_cannon_captures_over_exactly_one_screen() {
        let b = board(&[("b2", 'C'), ("b5", 'p'), ("b7", 'h'), ("b9", 'r')]);
        assert_eq!(movement(&b, "b2", "b4"), Ok(()));
        assert_eq!(movement(&b, "b2", "b7"), Ok(()));
        assert_eq!(movement(&b, "b2", "b5"), Err(Illegal::CannonNeedsScreen));
        assert_eq!(movement(&b, "b2", "b9"), Err(Illegal::CannonScreens(2)));
        assert_eq!(
            movement(&b, "b2", "b6"),
            Err(Illegal::Blocked {
                kind: Kind::Cannon,
                at: p("b5")
            })
        );
    }

    #[test]
    fn the_soldier_goes_forwards_and_sideways_after_the_river() {
        let b = board(&[("c3", 'P'), ("c6", 'p'), ("e5", 'P'), ("e4", 'p')]);
        assert_eq!(movement(&b, "c3", "c4"), Ok(()));
        assert_eq!(movement(&b, "c3", "c2"), Err(Illegal::SoldierBackwards));
        assert_eq!(
            movement(&b, "c3", "d3"),
            Err(Illegal::SoldierSidewaysBeforeRiver)
        );
        assert_eq!(movement(&b, "e5", "f5"), Ok(()));
        assert_eq!(movement(&b, "c6", "c5"), Ok(()));
        assert_eq!(movement(&b, "c6", "c7"), Err(Illegal::SoldierBackwards));
        assert_eq!(movement(&b, "e4", "d4"), Ok(()));
        assert!(matches!(
            movement(&b, "c3", "c5"),
            Err(Illegal::NotAStep { .. })
        ));
    }

    #[test]
    fn checks_and_the_flying_general() {
        let b = board(&[("e0", 'K'), ("e9", 'k'), ("e4", 'P'), ("d9", 'r')]);
        assert!(!in_check(&b, Side::Red));
        assert_eq!(
            check_move(&b, p("e4"), p("e5")),
            Ok(()),
            "the soldier still screens"
        );
        assert_eq!(
            check_move(&b, p("e0"), p("d0")),
            Err(Illegal::LeavesInCheck {
                by: p("d9"),
                attacker: Man::from_letter('r').unwrap()
            })
        );
        let open = board(&[("e0", 'K'), ("e9", 'k'), ("e4", 'p')]);
        assert_eq!(
            check_move(&open, p("e4"), p("d4")),
            Err(Illegal::GeneralsFace { file: 4 })
        );
        let facing = board(&[("e0", 'K'), ("e9", 'k')]);
        assert!(in_check(&facing, Side::Red));
        assert_eq!(generals_facing(&facing), Some(4));
        let horse = board(&[("e0", 'K'), ("d9", 'k'), ("f2", 'h')]);
        assert_eq!(checker(&horse, Side::Red).map(|(at, _)| at), Some(p("f2")));
        let legged = board(&[("e0", 'K'), ("d9", 'k'), ("f2", 'h'), ("f1", 'A')]);
        assert_eq!(checker(&legged, Side::Red), None);
    }

    #[test]
    fn looking_out_from_the_target_finds_what_asking_every_man_finds() {
        let kinds = [
            Kind::General,
            Kind::Advisor,
            Kind::Elephant,
            Kind::Horse,
            Kind::Chariot,
            Kind::Cannon,
            Kind::Soldier,
        ];
        let mut random = Xorshift::new(0x9e37_79b9_7f4a_7c15);
        let mut next = |below: usize| random.below(below);
        let (mut attacked_seen, mut safe_seen) = (0, 0);
        for _ in 0..20_000 {
            let mut board = Board::default();
            for _ in 0..1 + next(24) {
                let side = if next(2) == 0 { Side::Red } else { Side::Black };
                let point = Point::from_index(next(90)).unwrap();
                board.put(point, Some(Man::new(side, kinds[next(kinds.len())])));
            }
            let target = Point::from_index(next(90)).unwrap();
            for attacker in [Side::Red, Side::Black] {
                board.put(target, Some(Man::new(attacker.other(), Kind::General)));
                let asked_of_every_man = board.men().any(|(point, man)| {
                    man.side == attacker
                        && man.kind != Kind::General
                        && check_movement(&board, man, point, target).is_ok()
                });
                assert_eq!(
                    attacked(&board, target, attacker),
                    asked_of_every_man,
                    "{board:?}: {target} attacked by {attacker:?}"
                );
                if asked_of_every_man {
                    attacked_seen += 1;
                } else {
                    safe_seen += 1;
                }
            }
        }
        assert!(attacked_seen > 1_000 && safe_seen > 1_000);
    }

    #[test]
    fn an_attack_that_one_board_has_and_the_other_not_involves_a_point_where_they_differ() {
        let letters = [
            'K', 'A', 'E', 'H', 'R', 'C', 'P', 'k', 'a', 'e', 'h', 'r', 'c', 'p',
        ];
        let mut random = Xorshift::new(0x8a5c_d789_635d_2dff);
        let mut next = |below: usize| random.below(below);
        let (mut found_through, mut safe_on_both) = (0, 0);
        for _ in 0..20_000 {
            let target = Point::from_index(next(90)).unwrap();
            let attacker = if next(2) == 0 { Side::Red } else { Side::Black };
            let general = Some(Man::new(attacker.other(), Kind::General));
            let mut before = Board::default();
            for _ in 0..next(24) {
                let point = Point::from_index(next(90)).unwrap();
                before.put(point, Man::from_letter(letters[next(letters.len())]));
            }
            before.put(target, general);
            // A few points changed, most of them near the target or on its lines.
            let mut after = before.clone();
            for _ in 0..1 + next(3) {
                let (file, rank) = (i32::from(target.file), i32::from(target.rank));
                let point = match next(3) {
                    0 => Point::at(file, next(10) as i32),
                    1 => Point::at(next(9) as i32, rank),
                    _ => Point::at(file + next(5) as i32 - 2, rank + next(5) as i32 - 2),
                };
                let Some(point) = point.filter(|point| *point != target) else {
                    continue;
                };
                let man = (next(3) > 0)
                    .then(|| Man::from_letter(letters[next(14)]))
                    .flatten();
                after.put(point, man);
            }
            // What is found through a point is an attack.
            for point in Point::all() {
                if attacked_through(&after, target, attacker, point) {
                    assert!(
                        attacked(&after, target, attacker),
                        "{after:?}: {target} {point}"
                    );
                }
            }
            if attacked(&before, target, attacker) {
                continue;
            }
            let differences = before.differences(&after);
            let through = Point::all().any(|point| {
                differences & 1 << point.index() != 0
                    && attacked_through(&after, target, attacker, point)
            });
            assert_eq!(
                through,
                attacked(&after, target, attacker),
                "{before:?} / {after:?}: {target} by {attacker:?}"
            );
            if through {
                found_through += 1;
            } else {
                safe_on_both += 1;
            }
        }
        assert!(
            found_through > 1_000 && safe_on_both > 1_000,
            "{found_through} {safe_on_both}"
        );
    }

    #[test]
    fn the_lines_held_follow_the_men_and_a_move_tested_in_place_is_taken_back() {
        let mut random = Xorshift::new(0x2545_f491_4f6c_dd1d);
        let mut next = |below: usize| random.below(below);
        let letters = [
            'K', 'A', 'E', 'H', 'R', 'C', 'P', 'k', 'a', 'e', 'h', 'r', 'c', 'p',
        ];
        let mut board = Board::initial();
        let mut tested = 0;
        for _ in 0..5_000 {
            let point = Point::from_index(next(90)).unwrap();
            // As many men taken off as put on, so that both ways of changing a line are seen.
            let man = (next(2) == 0).then(|| Man::from_letter(letters[next(14)]).unwrap());
            board.put(point, man);
            for file in 0..FILES {
                let held = (0..RANKS)
                    .filter(|&rank| board.get(Point { file, rank }).is_some())
                    .fold(0u16, |bits, rank| bits | 1 << rank);
                assert_eq!(board.ranks_held(file), held, "{board:?}, file {file}");
            }
            for rank in 0..RANKS {
                let held = (0..FILES)
                    .filter(|&file| board.get(Point { file, rank }).is_some())
                    .fold(0u16, |bits, file| bits | 1 << file);
                assert_eq!(board.files_held(rank), held, "{board:?}, rank {rank}");
            }
            let (from, to) = (
                Point::from_index(next(90)).unwrap(),
                Point::from_index(next(90)).unwrap(),
            );
            let before = board.clone();
            let mut tried = board.clone();
            assert_eq!(
                check_move_on(&mut tried, from, to),
                check_move(&board, from, to)
            );
            assert_eq!(tried, before);
            assert!((0..FILES).all(|file| tried.ranks_held(file) == before.ranks_held(file)));
            tested += usize::from(board.get(from).is_some());
        }
        assert!(tested > 1_000);
    }

    #[test]
    fn a_move_away_from_a_calm_general_is_tested_for_its_movement_only_with_the_same_verdict() {
        let mut random = Xorshift::new(0x9e37_79b9_7f4a_7c15);
        let mut next = |below: usize| random.below(below);
        let letters = ['A', 'E', 'H', 'R', 'C', 'P', 'a', 'e', 'h', 'r', 'c', 'p'];
        let (mut calm_seen, mut short_seen) = (0, 0);
        for _ in 0..1_500 {
            let mut board = Board::default();
            // In their palaces, or (one time in four) anywhere in the other's half, where
            // advisors and elephants may attack them.
            let (red, black) = if next(4) == 0 {
                (45 + next(45), next(45))
            } else {
                (9 * next(3) + 3 + next(3), 9 * (7 + next(3)) + 3 + next(3))
            };
            board.put(Point::from_index(red).unwrap(), Man::from_letter('K'));
            board.put(Point::from_index(black).unwrap(), Man::from_letter('k'));
            for _ in 0..next(24) {
                let point = Point::from_index(next(90)).unwrap();
                if board.get(point).is_none() {
                    board.put(point, Man::from_letter(letters[next(letters.len())]));
                }
            }
            let side = if next(2) == 0 { Side::Red } else { Side::Black };
            if in_check(&board, side) {
                continue;
            }
            calm_seen += 1;
            let general = board.general(side);
            for (from, man) in board.clone().men().filter(|(_, man)| man.side == side) {
                for to in Point::all() {
                    let expected = check_move(&board, from, to);
                    let mut tried = board.clone();
                    let known = check_move_knowing(&mut tried, from, to, general);
                    assert_eq!(known, expected, "{board:?}: {man:?} {from} to {to}");
                    assert_eq!(tried, board);
                    short_seen += usize::from(!may_expose(general.unwrap(), from, to));
                }
            }
        }
        assert!(
            calm_seen > 500 && short_seen > 10_000,
            "{calm_seen} {short_seen}"
        );
    }

    #[test]
    fn the_opening_position_has_forty_four_moves() {
        assert_eq!(legal_moves(&Board::initial(), Side::Red).len(), 44);
        assert_eq!(legal_moves(&Board::initial(), Side::Black).len(), 44);
    }
}
