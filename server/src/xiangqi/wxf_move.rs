//! WXF move notation (`H2+3`, `c8.7`, `R+.3`, tandem pawns `++.4`, `3-.4`): reading a
//! move, finding the piece it names on a board, and writing a move the same way.
//!
//! Files are counted 1..9 from the mover's right: Red's file 1 is file `i`, Black's is
//! file `a`. `+` is forwards and `-` backwards for the mover, `.` sideways.

use std::fmt;

use crate::xiangqi::board::{Board, Kind, Man, Point, Side, FILES, RANKS};
use crate::xiangqi::rules::{check_move_knowing, check_movement, Illegal};

/// Which piece of its kind a move names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Which {
    /// The piece on this file (1..9 counted from the mover's right).
    File(u8),
    /// `+`: the front piece of tandem pieces (the second from the front among 4 or 5
    /// pawns).
    Front,
    /// `=` (or the file digit among 3 or 5 pawns): the middle one.
    Middle,
    /// `-`: the rear piece (the second from the back among 4 or 5 pawns).
    Rear,
    /// `++`: the foremost of 4 or 5 pawns on a file.
    Foremost,
    /// `--`: the rearmost of 4 or 5 pawns on a file.
    Rearmost,
    /// `3+`, `3-`, `33`: a tandem pawn of the given file when two files hold tandem pawns.
    OnFile(u8, Tandem),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tandem {
    Front,
    Middle,
    Rear,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    Forward,
    Backward,
    Sideways,
}

/// A move as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WxfMove {
    /// `None` for the tandem pawn forms, which name no letter (they are pawns).
    pub kind: Option<Kind>,
    /// The letter's case, when a letter was written.
    pub lower_case: bool,
    pub which: Which,
    pub direction: Direction,
    /// The argument: a file number or a count of ranks, 1..9.
    pub amount: u8,
    /// Whether the sideways operator was written `=` instead of WXF's `.`.
    pub equals_for_sideways: bool,
}

/// Why a move does not resolve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ResolveError {
    /// No piece matches the notation.
    NoPiece(String),
    /// Several pieces match and the move does not tell them apart.
    Ambiguous(String, Vec<Point>),
    /// The destination is not on the board or the piece cannot move that way at all.
    Impossible { from: Point, reason: String },
    /// The piece is found and its destination computed, but the move breaks a rule.
    Illegal {
        from: Point,
        to: Point,
        reason: Illegal,
    },
}

impl fmt::Display for ResolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResolveError::NoPiece(message) | ResolveError::Ambiguous(message, _) => {
                f.write_str(message)
            }
            ResolveError::Impossible { reason, .. } => f.write_str(reason),
            ResolveError::Illegal { reason, .. } => write!(f, "{reason}"),
        }
    }
}

fn kind_of(letter: char) -> Option<Kind> {
    Man::from_letter(letter).map(|man| man.kind)
}

/// Read a move token (exactly the token, no surrounding text).
pub fn parse_move(token: &str) -> Option<WxfMove> {
    let chars: Vec<char> = token.chars().collect();
    let [first, second, op, amount] = chars[..] else {
        return None;
    };
    let amount = u8::try_from(amount.to_digit(10)?)
        .ok()
        .filter(|a| *a >= 1)?;
    let (direction, equals_for_sideways) = match op {
        '+' => (Direction::Forward, false),
        '-' => (Direction::Backward, false),
        '.' => (Direction::Sideways, false),
        '=' => (Direction::Sideways, true),
        _ => return None,
    };
    let digit = |c: char| {
        c.to_digit(10)
            .and_then(|d| u8::try_from(d).ok())
            .filter(|d| (1..=9).contains(d))
    };
    let (kind, lower_case, which) = if first.is_ascii_alphabetic() {
        let kind = kind_of(first)?;
        let which = match second {
            '+' => Which::Front,
            '-' => Which::Rear,
            '=' => Which::Middle,
            _ => Which::File(digit(second)?),
        };
        (Some(kind), first.is_ascii_lowercase(), which)
    } else {
        let which = match (first, second) {
            ('+', '+') => Which::Foremost,
            ('-', '-') => Which::Rearmost,
            (file, '+') => Which::OnFile(digit(file)?, Tandem::Front),
            (file, '-') => Which::OnFile(digit(file)?, Tandem::Rear),
            (file, again) if digit(file).is_some() && file == again => {
                Which::OnFile(digit(file)?, Tandem::Middle)
            }
            _ => return None,
        };
        (None, false, which)
    };
    Some(WxfMove {
        kind,
        lower_case,
        which,
        direction,
        amount,
        equals_for_sideways,
    })
}

/// The board file (0 = `a`) of a file number as `side` counts it.
pub fn board_file(side: Side, number: u8) -> u8 {
    match side {
        Side::Red => FILES - number,
        Side::Black => number - 1,
    }
}

/// The file number `side` gives a board file.
pub fn file_number(side: Side, file: u8) -> u8 {
    match side {
        Side::Red => FILES - file,
        Side::Black => file + 1,
    }
}

/// A few points (at most a file's ten) in a list kept on the stack: every move read finds
/// its piece among some, and allocating them showed in replays.
#[derive(Clone, Copy)]
struct Points {
    points: [Point; RANKS as usize],
    len: usize,
}

impl Points {
    const NONE: Points = Points {
        points: [Point { file: 0, rank: 0 }; RANKS as usize],
        len: 0,
    };

    fn push(&mut self, point: Point) {
        self.points[self.len] = point;
        self.len += 1;
    }
}

impl std::ops::Deref for Points {
    type Target = [Point];

    fn deref(&self) -> &[Point] {
        &self.points[..self.len]
    }
}

impl std::ops::DerefMut for Points {
    fn deref_mut(&mut self) -> &mut [Point] {
        &mut self.points[..self.len]
    }
}

/// The pieces of `man` on one file, front first.
fn on_file(board: &Board, man: Man, file: u8) -> Points {
    points_on_file(man.side, file, board.ranks_holding(man, file))
}

/// The points of `file` whose bits `ranks` holds, front first for `side`.
fn points_on_file(side: Side, file: u8, ranks: u16) -> Points {
    let mut points = Points::NONE;
    // One step per man on the file, not per rank: most files hold one or two.
    let mut left = ranks & ((1 << RANKS) - 1);
    while left != 0 {
        let rank = match side {
            Side::Red => 15 - left.leading_zeros() as u8,
            Side::Black => left.trailing_zeros() as u8,
        };
        left &= !(1 << rank);
        points.push(Point { file, rank });
    }
    points
}

/// The files holding at least a given number of pieces of a kind, each a list of them,
/// kept on the stack like [`Points`].
struct Files {
    files: [Points; FILES as usize],
    len: usize,
}

impl std::ops::Deref for Files {
    type Target = [Points];

    fn deref(&self) -> &[Points] {
        &self.files[..self.len]
    }
}

/// The pieces of `man` on each file holding at least `min` of them, front first, the files
/// in the order `man`'s side numbers them.
fn tandem_files(board: &Board, man: Man, min: usize) -> Files {
    let mut files = Files {
        files: [Points::NONE; FILES as usize],
        len: 0,
    };
    // A side numbers its files from its right: Red from file i, Black from file a.
    let mut take = |file: u8| {
        let ranks = board.ranks_holding(man, file);
        if ranks.count_ones() as usize >= min {
            files.files[files.len] = points_on_file(man.side, file, ranks);
            files.len += 1;
        }
    };
    match man.side {
        Side::Red => (0..FILES).rev().for_each(&mut take),
        Side::Black => (0..FILES).for_each(&mut take),
    }
    files
}

/// Which of the pieces on one file (front first) a tandem sign names.
fn pick_in_file(points: &[Point], which: Which, kind: Kind) -> Option<Point> {
    let n = points.len();
    let many_pawns = kind == Kind::Soldier && n >= 4;
    let index = match which {
        Which::Front | Which::OnFile(_, Tandem::Front) => usize::from(many_pawns),
        Which::Rear | Which::OnFile(_, Tandem::Rear) => {
            n.checked_sub(1 + usize::from(many_pawns))?
        }
        Which::Middle | Which::OnFile(_, Tandem::Middle) | Which::File(_) => {
            if n % 2 == 1 && n >= 3 {
                n / 2
            } else {
                return None;
            }
        }
        Which::Foremost if many_pawns => 0,
        Which::Rearmost if many_pawns => n - 1,
        Which::Foremost | Which::Rearmost => return None,
    };
    points.get(index).copied()
}

/// Where a move written as `written` takes the piece on `from`.
pub fn destination(
    man: Man,
    from: Point,
    direction: Direction,
    amount: u8,
) -> Result<Point, String> {
    let side = man.side;
    let forward = side.forward();
    let off = || "the move leaves the board".to_string();
    match man.kind {
        Kind::Chariot | Kind::General | Kind::Cannon | Kind::Soldier => match direction {
            Direction::Forward | Direction::Backward => {
                let sign = if direction == Direction::Forward {
                    1
                } else {
                    -1
                };
                from.offset(0, sign * forward * i32::from(amount))
                    .ok_or_else(off)
            }
            Direction::Sideways => {
                let file = board_file(side, amount);
                if file == from.file {
                    return Err(format!(
                        "a sideways move ends on another file, and this {} already stands on file {amount}",
                        man.kind.name()
                    ));
                }
                Ok(Point {
                    file,
                    rank: from.rank,
                })
            }
        },
        Kind::Advisor | Kind::Elephant | Kind::Horse => {
            if direction == Direction::Sideways {
                return Err(format!(
                    "a {} never moves sideways along a rank: write `+` or `-` and the file it lands on",
                    man.kind.name()
                ));
            }
            let file = board_file(side, amount);
            let dx = (i32::from(file) - i32::from(from.file)).abs();
            let dy = match man.kind {
                Kind::Advisor => 1,
                Kind::Elephant => 2,
                _ => {
                    if dx == 2 {
                        1
                    } else {
                        2
                    }
                }
            };
            let wanted_dx = match man.kind {
                Kind::Advisor => &[1][..],
                Kind::Elephant => &[2][..],
                _ => &[1, 2][..],
            };
            if !wanted_dx.contains(&dx) {
                return Err(format!(
                    "a {} on file {} cannot reach file {amount}",
                    man.kind.name(),
                    file_number(side, from.file)
                ));
            }
            let sign = if direction == Direction::Forward {
                1
            } else {
                -1
            };
            Point::at(i32::from(file), i32::from(from.rank) + sign * forward * dy).ok_or_else(off)
        }
    }
}

fn plural(kind: Kind) -> String {
    format!("{}s", kind.name())
}

/// The move `written` makes for `side` on `board`: the piece's point and its destination,
/// checked against the rules.
pub fn resolve(
    board: &Board,
    side: Side,
    written: &WxfMove,
) -> Result<(Point, Point), ResolveError> {
    resolve_on(&mut board.clone(), side, written, None)
}

/// [`resolve`], testing the candidates' moves on `board` itself (each taken back): what a
/// replay calls for every move. `calm` is where `side`'s general stands if it is known not
/// to be in check (see [`check_move_knowing`]).
pub fn resolve_on(
    board: &mut Board,
    side: Side,
    written: &WxfMove,
    calm: Option<Point>,
) -> Result<(Point, Point), ResolveError> {
    let kind = written.kind.unwrap_or(Kind::Soldier);
    let man = Man::new(side, kind);
    let who = || format!("{} {}", side.name(), kind.name());
    let one = |point| {
        let mut points = Points::NONE;
        points.push(point);
        points
    };
    let candidates: Points = match written.which {
        Which::File(number) => {
            let on_file = on_file(board, man, board_file(side, number));
            if on_file.is_empty() {
                return Err(ResolveError::NoPiece(format!(
                    "no {} stands on file {number}",
                    who()
                )));
            }
            // Three or five pawns on a file: the digit names the middle one.
            match pick_in_file(&on_file, written.which, kind) {
                Some(middle) if kind == Kind::Soldier => one(middle),
                _ => on_file,
            }
        }
        Which::OnFile(number, _) => {
            let file = board_file(side, number);
            let files = tandem_files(board, man, 2);
            let Some(points) = files.iter().find(|points| points[0].file == file) else {
                return Err(ResolveError::NoPiece(format!(
                    "no file {number} with two or more {} of {}",
                    plural(kind),
                    side.name()
                )));
            };
            match pick_in_file(points, written.which, kind) {
                Some(point) => one(point),
                None => {
                    return Err(ResolveError::NoPiece(format!(
                        "file {number} has {} {} of {}, none of which this names",
                        points.len(),
                        plural(kind),
                        side.name()
                    )))
                }
            }
        }
        Which::Front | Which::Rear | Which::Middle | Which::Foremost | Which::Rearmost => {
            let min = match written.which {
                Which::Middle => 3,
                Which::Foremost | Which::Rearmost => 4,
                _ => 2,
            };
            let files = tandem_files(board, man, min);
            let mut picked = Points::NONE;
            for point in files
                .iter()
                .filter_map(|points| pick_in_file(points, written.which, kind))
            {
                picked.push(point);
            }
            if picked.is_empty() {
                let sign = match written.which {
                    Which::Front => "`+` names the front one of two pieces of a kind on one file",
                    Which::Rear => "`-` names the rear one of two pieces of a kind on one file",
                    Which::Middle => "`=` names the middle one of three pieces of a kind on one file",
                    _ => "`++` and `--` name the foremost and rearmost of four or five pawns on one file",
                };
                return Err(ResolveError::NoPiece(format!(
                    "{sign}, but no file holds {} {} of {}",
                    if min == 2 {
                        "two".to_string()
                    } else {
                        format!("{min} or more")
                    },
                    plural(kind),
                    side.name()
                )));
            }
            picked
        }
    };
    let mut impossible = None;
    let mut illegal = None;
    let mut legal = [(Point { file: 0, rank: 0 }, Point { file: 0, rank: 0 }); RANKS as usize];
    let mut legal_count = 0;
    for from in candidates.iter() {
        match destination(man, *from, written.direction, written.amount) {
            Err(reason) => {
                impossible.get_or_insert(ResolveError::Impossible {
                    from: *from,
                    reason,
                });
            }
            Ok(to) => match check_move_knowing(board, *from, to, calm) {
                Ok(()) => {
                    legal[legal_count] = (*from, to);
                    legal_count += 1;
                }
                Err(reason) => {
                    illegal.get_or_insert(ResolveError::Illegal {
                        from: *from,
                        to,
                        reason,
                    });
                }
            },
        }
    }
    let legal = &legal[..legal_count];
    match legal.len() {
        1 => Ok(legal[0]),
        0 => Err(illegal
            .or(impossible)
            .unwrap_or_else(|| ResolveError::NoPiece(format!("no {} can make this move", who())))),
        _ => Err(ResolveError::Ambiguous(
            format!(
                "{} {} can make this move ({}): write `+` or `-` for the front or rear one",
                legal.len(),
                plural(kind),
                legal
                    .iter()
                    .map(|(from, _)| from.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            legal.iter().map(|(from, _)| *from).collect(),
        )),
    }
}

/// The move from `from` to `to` in WXF notation, as its side writes it (Red in upper case,
/// Black in lower case). `None` if no man stands on `from` or it cannot reach `to`.
pub fn write_move(board: &Board, from: Point, to: Point) -> Option<String> {
    let man = board.get(from)?;
    check_movement(board, man, from, to).ok()?;
    let side = man.side;
    let letter = man.letter();
    let straight = matches!(
        man.kind,
        Kind::Chariot | Kind::General | Kind::Cannon | Kind::Soldier
    );
    let (operator, amount) = if to.rank == from.rank {
        ('.', file_number(side, to.file))
    } else {
        let forward = (i32::from(to.rank) - i32::from(from.rank)) * side.forward() > 0;
        let operator = if forward { '+' } else { '-' };
        if straight {
            let ranks = (i32::from(to.rank) - i32::from(from.rank)).unsigned_abs();
            (operator, u8::try_from(ranks).ok()?)
        } else {
            (operator, file_number(side, to.file))
        }
    };
    let tail = format!("{operator}{amount}");
    let own_files = tandem_files(board, man, 2);
    let Some(mine) = own_files.iter().find(|points| points.contains(&from)) else {
        return Some(format!("{letter}{}{tail}", file_number(side, from.file)));
    };
    let index = mine.iter().position(|point| *point == from)?;
    let n = mine.len();
    let tandem_pawn_files = man.kind == Kind::Soldier && own_files.len() > 1;
    let sign = if n <= 3 {
        match index {
            0 => Some('+'),
            i if i + 1 == n => Some('-'),
            _ => None,
        }
    } else {
        match index {
            0 | 1 => Some('+'),
            i if i + 2 >= n => Some('-'),
            _ => None,
        }
    };
    let number = file_number(side, from.file);
    let prefix = if tandem_pawn_files {
        // Tandem pawns on two files: the file number first, then the sign (or the number
        // again for the middle pawn).
        match sign {
            Some(sign) => format!("{number}{sign}"),
            None => format!("{number}{number}"),
        }
    } else if n >= 4 && (index == 0 || index + 1 == n) {
        let sign = if index == 0 { '+' } else { '-' };
        format!("{sign}{sign}")
    } else {
        match sign {
            Some(sign) => format!("{letter}{sign}"),
            None => format!("{letter}{number}"),
        }
    };
    let text = format!("{prefix}{tail}");
    if man.side == Side::Black {
        Some(text.to_lowercase())
    } else {
        Some(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn the_pieces_on_a_file_come_front_first_for_either_side() {
        let b = board(&[
            ("c2", 'P'),
            ("c6", 'P'),
            ("c4", 'P'),
            ("c3", 'p'),
            ("c7", 'p'),
        ]);
        let names = |points: Points| points.iter().map(|point| point.name()).collect::<Vec<_>>();
        let red = Man::from_letter('P').unwrap();
        let black = Man::from_letter('p').unwrap();
        assert_eq!(names(on_file(&b, red, 2)), ["c6", "c4", "c2"]);
        assert_eq!(names(on_file(&b, black, 2)), ["c3", "c7"]);
        assert!(on_file(&b, red, 3).is_empty());
    }

    fn play(board: &Board, side: Side, text: &str) -> Result<(String, String), ResolveError> {
        let written = parse_move(text).unwrap_or_else(|| panic!("{text} parses"));
        resolve(board, side, &written).map(|(from, to)| (from.name(), to.name()))
    }

    fn ok(from: &str, to: &str) -> Result<(String, String), ResolveError> {
        Ok((from.to_string(), to.to_string()))
    }

    #[test]
    fn moves_parse_in_every_form() {
        let m = parse_move("H2+3").unwrap();
        assert_eq!(
            (m.kind, m.which, m.direction, m.amount),
            (Some(Kind::Horse), Which::File(2), Direction::Forward, 3)
        );
        assert!(parse_move("c8.7").unwrap().lower_case);
        assert_eq!(parse_move("R+.3").unwrap().which, Which::Front);
        assert_eq!(parse_move("C--1").unwrap().which, Which::Rear);
        assert_eq!(parse_move("P=.4").unwrap().which, Which::Middle);
        assert_eq!(parse_move("++.4").unwrap().which, Which::Foremost);
        assert_eq!(parse_move("--.4").unwrap().which, Which::Rearmost);
        assert_eq!(
            parse_move("3+.4").unwrap().which,
            Which::OnFile(3, Tandem::Front)
        );
        assert_eq!(
            parse_move("33.4").unwrap().which,
            Which::OnFile(3, Tandem::Middle)
        );
        assert!(parse_move("C2=5").unwrap().equals_for_sideways);
        for bad in [
            "H2+0", "X2+3", "H0+3", "H2*3", "H2+", "H2+33", "34.4", "+-.4",
        ] {
            assert_eq!(parse_move(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_opening_moves_of_the_sample_game() {
        let board = Board::initial();
        assert_eq!(play(&board, Side::Red, "P3+1"), ok("g3", "g4"));
        assert_eq!(play(&board, Side::Black, "c8.7"), ok("h7", "g7"));
        assert_eq!(play(&board, Side::Red, "E7+5"), ok("c0", "e2"));
        assert_eq!(play(&board, Side::Red, "H2+3"), ok("h0", "g2"));
        assert_eq!(play(&board, Side::Black, "h2+3"), ok("b9", "c7"));
        assert_eq!(play(&board, Side::Red, "A6+5"), ok("d0", "e1"));
        assert_eq!(play(&board, Side::Red, "C2.5"), ok("h2", "e2"));
        assert_eq!(play(&board, Side::Red, "C2+7"), ok("h2", "h9"));
        assert_eq!(play(&board, Side::Black, "r1+2"), ok("a9", "a7"));
        assert_eq!(play(&board, Side::Red, "K5+1"), ok("e0", "e1"));
    }

    #[test]
    fn the_destination_follows_the_pieces_movement() {
        let b = board(&[
            ("c4", 'H'),
            ("c5", 'h'),
            ("e0", 'K'),
            ("f9", 'k'),
            ("d5", 'R'),
        ]);
        assert_eq!(play(&b, Side::Red, "H7+9"), ok("c4", "a5"));
        assert_eq!(play(&b, Side::Red, "H7-8"), ok("c4", "b2"));
        assert_eq!(play(&b, Side::Red, "H7-6"), ok("c4", "d2"));
        assert_eq!(play(&b, Side::Black, "h3+1"), ok("c5", "a4"));
        assert_eq!(play(&b, Side::Red, "R6.1"), ok("d5", "i5"));
        assert_eq!(play(&b, Side::Red, "R6-5"), ok("d5", "d0"));
        assert!(matches!(
            play(&b, Side::Red, "H7+7"),
            Err(ResolveError::Impossible { .. })
        ));
        assert!(matches!(
            play(&b, Side::Red, "R6+5"),
            Err(ResolveError::Impossible { .. })
        ));
        assert!(matches!(
            play(&b, Side::Red, "H7.5"),
            Err(ResolveError::Impossible { .. })
        ));
    }

    #[test]
    fn illegal_moves_say_why() {
        let b = board(&[
            ("b0", 'H'),
            ("b1", 'P'),
            ("e0", 'K'),
            ("e9", 'k'),
            ("c0", 'E'),
            ("d1", 'a'),
        ]);
        match play(&b, Side::Red, "H8+7") {
            Err(ResolveError::Illegal { reason, .. }) => {
                assert_eq!(reason, Illegal::HorseLeg(p("b1")));
            }
            other => panic!("{other:?}"),
        }
        match play(&b, Side::Red, "E7+5") {
            Err(ResolveError::Illegal { reason, .. }) => {
                assert_eq!(reason, Illegal::ElephantEye(p("d1")));
            }
            other => panic!("{other:?}"),
        }
        match play(&b, Side::Red, "P8.7") {
            Err(ResolveError::Illegal { reason, .. }) => {
                assert_eq!(reason, Illegal::SoldierSidewaysBeforeRiver);
            }
            Err(other) => panic!("{other:?}"),
            Ok(_) => panic!("a soldier on its own side does not move sideways"),
        }
        match play(&b, Side::Red, "K5+1") {
            Err(ResolveError::Illegal { reason, .. }) => {
                assert!(reason.is_about_check(), "{reason}")
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            play(&b, Side::Red, "R1+1"),
            Err(ResolveError::NoPiece(_))
        ));
    }

    #[test]
    fn two_pieces_on_one_file_are_told_apart_by_plus_and_minus() {
        let b = board(&[
            ("g2", 'H'),
            ("g4", 'H'),
            ("g1", 'P'),
            ("e0", 'K'),
            ("d9", 'k'),
            ("c7", 'r'),
            ("c5", 'r'),
        ]);
        assert_eq!(play(&b, Side::Red, "H++4"), ok("g4", "f6"));
        assert_eq!(play(&b, Side::Red, "H-+4"), ok("g2", "f4"));
        assert_eq!(play(&b, Side::Black, "r+.4"), ok("c5", "d5"));
        assert_eq!(play(&b, Side::Black, "r-+1"), ok("c7", "c6"));
        // The file digit does not tell them apart when both can move.
        match play(&b, Side::Red, "H3+4") {
            Err(ResolveError::Ambiguous(message, points)) => {
                assert_eq!(points.len(), 2, "{message}");
            }
            other => panic!("{other:?}"),
        }
        // ...but it does when only one of them can.
        assert_eq!(play(&b, Side::Red, "H3-4"), ok("g4", "f2"));
        assert!(matches!(
            play(&b, Side::Red, "R+.1"),
            Err(ResolveError::NoPiece(_))
        ));
        assert_eq!(write_move(&b, p("g4"), p("f6")).as_deref(), Some("H++4"));
        assert_eq!(write_move(&b, p("g2"), p("e3")).as_deref(), Some("H-+5"));
        assert_eq!(write_move(&b, p("c5"), p("d5")).as_deref(), Some("r+.4"));
    }

    #[test]
    fn tandem_pawns() {
        // Three red pawns on file c (Red's 7), two on file g (Red's 3).
        let b = board(&[
            ("c5", 'P'),
            ("c6", 'P'),
            ("c7", 'P'),
            ("g5", 'P'),
            ("g6", 'P'),
            ("e0", 'K'),
            ("d9", 'k'),
        ]);
        assert_eq!(play(&b, Side::Red, "7+.6"), ok("c7", "d7"));
        assert_eq!(play(&b, Side::Red, "77.6"), ok("c6", "d6"));
        assert_eq!(play(&b, Side::Red, "7-.6"), ok("c5", "d5"));
        assert_eq!(play(&b, Side::Red, "3++1"), ok("g6", "g7"));
        assert!(matches!(
            play(&b, Side::Red, "3-+1"),
            Err(ResolveError::Illegal {
                reason: Illegal::OwnPiece { .. },
                ..
            })
        ));
        assert_eq!(write_move(&b, p("c6"), p("d6")).as_deref(), Some("77.6"));
        assert_eq!(write_move(&b, p("g6"), p("g7")).as_deref(), Some("3++1"));
        let five = board(&[
            ("e5", 'P'),
            ("e6", 'P'),
            ("e7", 'P'),
            ("e8", 'P'),
            ("e9", 'P'),
            ("e0", 'K'),
            ("d9", 'k'),
        ]);
        assert_eq!(play(&five, Side::Red, "++.4"), ok("e9", "f9"));
        assert_eq!(play(&five, Side::Red, "P+.4"), ok("e8", "f8"));
        assert_eq!(play(&five, Side::Red, "P5.4"), ok("e7", "f7"));
        assert_eq!(play(&five, Side::Red, "P-.4"), ok("e6", "f6"));
        assert_eq!(play(&five, Side::Red, "--.4"), ok("e5", "f5"));
        for (from, to, text) in [
            ("e9", "f9", "++.4"),
            ("e8", "f8", "P+.4"),
            ("e7", "f7", "P5.4"),
            ("e6", "f6", "P-.4"),
            ("e5", "f5", "--.4"),
        ] {
            assert_eq!(write_move(&five, p(from), p(to)).as_deref(), Some(text));
        }
    }

    #[test]
    fn every_legal_move_written_reads_back_as_itself() {
        let positions = [
            Board::initial(),
            board(&[
                ("c5", 'P'),
                ("c6", 'P'),
                ("c7", 'P'),
                ("g5", 'P'),
                ("g6", 'P'),
                ("e0", 'K'),
                ("d9", 'k'),
                ("a0", 'R'),
                ("a4", 'R'),
                ("b2", 'C'),
                ("b7", 'c'),
                ("b9", 'c'),
                ("h9", 'h'),
                ("h7", 'h'),
                ("e7", 'a'),
                ("d8", 'a'),
                ("c9", 'e'),
                ("e7", 'e'),
                ("a6", 'p'),
                ("a5", 'p'),
            ]),
        ];
        for board in positions {
            for side in [Side::Red, Side::Black] {
                for (from, to) in crate::xiangqi::rules::legal_moves(&board, side) {
                    let text = write_move(&board, from, to).expect("a legal move is written");
                    let written = parse_move(&text).unwrap_or_else(|| panic!("{text} parses"));
                    assert_eq!(
                        resolve(&board, side, &written),
                        Ok((from, to)),
                        "{text} for {from}-{to}"
                    );
                }
            }
        }
    }
}
