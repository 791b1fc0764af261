//! The xiangqi board: points, men, piece letters and the FEN board field.
//!
//! Points are named as WXF names them: file `a`..`i` from Red's left, rank `0`..`9` from
//! Red's side, so Red's general starts on `e0` and Black's on `e9`.

use std::fmt;

pub use crate::model::games::{XiangqiPiece as Kind, XiangqiSide as Side};

pub const FILES: u8 = 9;
pub const RANKS: u8 = 10;

/// A point of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point {
    /// 0 = file `a` (Red's left) .. 8 = file `i`.
    pub file: u8,
    /// 0 = Red's back rank .. 9 = Black's back rank.
    pub rank: u8,
}

impl Point {
    pub fn new(file: u8, rank: u8) -> Option<Point> {
        (file < FILES && rank < RANKS).then_some(Point { file, rank })
    }

    /// The point `(file, rank)` given as signed numbers, if it is on the board.
    pub fn at(file: i32, rank: i32) -> Option<Point> {
        let file = u8::try_from(file).ok()?;
        let rank = u8::try_from(rank).ok()?;
        Point::new(file, rank)
    }

    /// The point `dx` files to the right and `dy` ranks up (towards Black).
    pub fn offset(self, dx: i32, dy: i32) -> Option<Point> {
        Point::at(i32::from(self.file) + dx, i32::from(self.rank) + dy)
    }

    pub fn index(self) -> usize {
        usize::from(self.rank) * usize::from(FILES) + usize::from(self.file)
    }

    pub fn from_index(index: usize) -> Option<Point> {
        let file = u8::try_from(index % usize::from(FILES)).ok()?;
        let rank = u8::try_from(index / usize::from(FILES)).ok()?;
        Point::new(file, rank)
    }

    /// Every point, rank 0 first.
    pub fn all() -> impl Iterator<Item = Point> {
        (0..usize::from(FILES) * usize::from(RANKS)).filter_map(Point::from_index)
    }

    /// `e0`, `b9`.
    pub fn name(self) -> String {
        format!("{}{}", char::from(b'a' + self.file), self.rank)
    }

    /// Parse `e0`-style names.
    pub fn parse(name: &str) -> Option<Point> {
        let mut chars = name.chars();
        let file = chars.next()?;
        let rank = chars.next()?;
        if chars.next().is_some() || !file.is_ascii_lowercase() || !rank.is_ascii_digit() {
            return None;
        }
        Point::new(file as u8 - b'a', rank as u8 - b'0')
    }

    /// The point as a scene places it: x `1..=9`, y `1..=10`.
    pub fn scene_xy(self) -> (f64, f64) {
        (f64::from(self.file) + 1.0, f64::from(self.rank) + 1.0)
    }

    /// The point seen from the other end of the board.
    pub fn rotated(self) -> Point {
        Point {
            file: FILES - 1 - self.file,
            rank: RANKS - 1 - self.rank,
        }
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", char::from(b'a' + self.file), self.rank)
    }
}

impl Side {
    pub fn other(self) -> Side {
        match self {
            Side::Red => Side::Black,
            Side::Black => Side::Red,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Side::Red => "Red",
            Side::Black => "Black",
        }
    }

    /// +1 for Red (who moves up the board), -1 for Black.
    pub fn forward(self) -> i32 {
        match self {
            Side::Red => 1,
            Side::Black => -1,
        }
    }

    /// Whether `rank` is on this side's half of the board (before the river).
    pub fn own_half(self, rank: u8) -> bool {
        match self {
            Side::Red => rank <= 4,
            Side::Black => rank >= 5,
        }
    }

    /// How many ranks `rank` is from this side's back rank.
    pub fn rank_from_home(self, rank: u8) -> u8 {
        match self {
            Side::Red => rank,
            Side::Black => RANKS - 1 - rank,
        }
    }
}

/// A piece of one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Man {
    pub side: Side,
    pub kind: Kind,
}

impl Man {
    pub const fn new(side: Side, kind: Kind) -> Man {
        Man { side, kind }
    }

    /// The canonical letter: upper case for Red, lower case for Black.
    pub fn letter(self) -> char {
        let letter = self.kind.letter();
        match self.side {
            Side::Red => letter,
            Side::Black => letter.to_ascii_lowercase(),
        }
    }

    /// The man a piece letter stands for, aliases included (`N` horse, `B` and `M`
    /// elephant, `G` advisor).
    pub fn from_letter(letter: char) -> Option<Man> {
        let kind = kind_of_letter(letter.to_ascii_uppercase())?;
        let side = if letter.is_ascii_uppercase() {
            Side::Red
        } else {
            Side::Black
        };
        Some(Man { side, kind })
    }

    /// `Red horse`, `Black general`.
    pub fn describe(self) -> String {
        format!("{} {}", self.side.name(), self.kind.name())
    }

    /// How many of these a xiangqi set has.
    pub fn set_count(self) -> usize {
        match self.kind {
            Kind::General => 1,
            Kind::Soldier => 5,
            _ => 2,
        }
    }
}

fn kind_of_letter(upper: char) -> Option<Kind> {
    Some(match upper {
        'K' => Kind::General,
        'A' | 'G' => Kind::Advisor,
        'E' | 'B' | 'M' => Kind::Elephant,
        'H' | 'N' => Kind::Horse,
        'R' => Kind::Chariot,
        'C' => Kind::Cannon,
        'P' => Kind::Soldier,
        _ => return None,
    })
}

/// Every letter that names a piece, Red's first.
pub const PIECE_LETTERS: &str = "RHEAKCPNBGMrheakcpnbgm";

/// What an alias letter stands for, for explanations: `N` → "horse (as in knight)".
pub fn letter_note(letter: char) -> Option<&'static str> {
    Some(match letter.to_ascii_uppercase() {
        'N' => "an alias of H (as in knight)",
        'B' => "an alias of E (as in bishop)",
        'M' => "an alias of E (as in minister)",
        'G' => "an alias of A (as in guard)",
        _ => return None,
    })
}

/// What stands on a point in a byte: 0 for no man, else 1 + the kind's index, plus 8 for
/// Black. A board of bytes is copied, compared and hashed as one block of memory, and a
/// replay copies and compares a board at every move.
type Cell = u8;

const EMPTY: Cell = 0;

fn cell_of(man: Option<Man>) -> Cell {
    man.map_or(EMPTY, |man| 1 + man.kind as u8 + 8 * man.side as u8)
}

/// Each cell's man, by cell.
const MEN_OF_CELLS: [Option<Man>; 16] = {
    let mut men = [None; 16];
    let mut kind = 0;
    while kind < Kind::ALL.len() {
        men[1 + kind] = Some(Man::new(Side::Red, Kind::ALL[kind]));
        men[9 + kind] = Some(Man::new(Side::Black, Kind::ALL[kind]));
        kind += 1;
    }
    men
};

fn man_of(cell: Cell) -> Option<Man> {
    MEN_OF_CELLS[usize::from(cell & 15)]
}

/// The 90 points and what stands on each (one man at most).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Board {
    cells: [Cell; 90],
    /// The point index of each side's general (Red, Black; the first in point order when
    /// a setup holds two), kept by [`Board::put`]: every move asks where they stand.
    generals: [Option<u8>; 2],
    /// Which ranks of each file hold a man (bit `r` for rank `r`), and which files of each
    /// rank (bit `f` for file `f`), kept by [`Board::put`]: the men nearest a point along a
    /// line, which every move's test for check asks for, are found without walking it.
    ranks_held: [u16; FILES as usize],
    files_held: [u16; RANKS as usize],
    /// How many points hold each cell (the empty one too), kept by [`Board::put`].
    counts: [u8; 16],
}

impl Default for Board {
    fn default() -> Board {
        Board {
            cells: [EMPTY; 90],
            generals: [None; 2],
            ranks_held: [0; FILES as usize],
            files_held: [0; RANKS as usize],
            counts: {
                let mut counts = [0; 16];
                counts[usize::from(EMPTY)] = 90;
                counts
            },
        }
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({})", self.fen_field())
    }
}

const BACK_RANK: [Kind; 9] = [
    Kind::Chariot,
    Kind::Horse,
    Kind::Elephant,
    Kind::Advisor,
    Kind::General,
    Kind::Advisor,
    Kind::Elephant,
    Kind::Horse,
    Kind::Chariot,
];

impl Board {
    /// The starting position of a game.
    pub fn initial() -> Board {
        let mut board = Board::default();
        for (side, back, cannons, soldiers) in [(Side::Red, 0, 2, 3), (Side::Black, 9, 7, 6)] {
            for (file, kind) in (0u8..).zip(BACK_RANK) {
                board.put(Point { file, rank: back }, Some(Man::new(side, kind)));
            }
            for file in [1, 7] {
                board.put(
                    Point {
                        file,
                        rank: cannons,
                    },
                    Some(Man::new(side, Kind::Cannon)),
                );
            }
            for file in [0, 2, 4, 6, 8] {
                board.put(
                    Point {
                        file,
                        rank: soldiers,
                    },
                    Some(Man::new(side, Kind::Soldier)),
                );
            }
        }
        board
    }

    pub fn get(&self, point: Point) -> Option<Man> {
        self.cells.get(point.index()).copied().and_then(man_of)
    }

    /// The man on the point of index `index` (see [`Point::index`]); none past the board.
    pub fn at_index(&self, index: usize) -> Option<Man> {
        self.cells.get(index).copied().and_then(man_of)
    }

    /// The ranks of `file` on which `man` stands, one bit each (bit `r` for rank `r`): a
    /// file read in ten comparisons of bytes, which every move read asks for.
    pub fn ranks_holding(&self, man: Man, file: u8) -> u16 {
        let wanted = cell_of(Some(man));
        let file = usize::from(file);
        if file >= usize::from(FILES) {
            return 0;
        }
        let mut ranks = 0;
        for rank in 0..usize::from(RANKS) {
            ranks |= u16::from(self.cells[rank * usize::from(FILES) + file] == wanted) << rank;
        }
        ranks
    }

    /// How many of `man` stand on the board.
    pub fn count(&self, man: Man) -> usize {
        usize::from(self.counts[usize::from(cell_of(Some(man)))])
    }

    /// The man on the point `(file, rank)`; none off the board.
    pub fn at(&self, file: i32, rank: i32) -> Option<Man> {
        let on_board =
            (0..i32::from(FILES)).contains(&file) && (0..i32::from(RANKS)).contains(&rank);
        if !on_board {
            return None;
        }
        let index = usize::try_from(rank * i32::from(FILES) + file).ok()?;
        self.cells.get(index).copied().and_then(man_of)
    }

    #[inline]
    pub fn put(&mut self, point: Point, man: Option<Man>) {
        let Some(cell) = self.cells.get_mut(point.index()) else {
            return;
        };
        let man = cell_of(man);
        let replaced = std::mem::replace(cell, man);
        self.counts[usize::from(replaced & 15)] -= 1;
        self.counts[usize::from(man & 15)] += 1;
        let (file, rank) = (usize::from(point.file), usize::from(point.rank));
        if man == EMPTY {
            self.ranks_held[file] &= !(1 << rank);
            self.files_held[rank] &= !(1 << file);
        } else {
            self.ranks_held[file] |= 1 << rank;
            self.files_held[rank] |= 1 << file;
        }
        for (slot, side) in [Side::Red, Side::Black].into_iter().enumerate() {
            let general = cell_of(Some(Man::new(side, Kind::General)));
            if replaced == general || man == general {
                self.generals[slot] = self
                    .cells
                    .iter()
                    .position(|cell| *cell == general)
                    .and_then(|index| u8::try_from(index).ok());
            }
        }
    }

    /// The points where this board and `other` hold different men, as bits (bit `i` for
    /// the point of index `i`).
    pub fn differences(&self, other: &Board) -> u128 {
        (self.cells.iter().zip(&other.cells))
            .enumerate()
            .fold(0, |bits, (index, (a, b))| {
                bits | u128::from(a != b) << index
            })
    }

    /// Which ranks of `file` hold a man, one bit each (bit `r` for rank `r`).
    pub fn ranks_held(&self, file: u8) -> u16 {
        self.ranks_held.get(usize::from(file)).copied().unwrap_or(0)
    }

    /// Which files of `rank` hold a man, one bit each (bit `f` for file `f`).
    pub fn files_held(&self, rank: u8) -> u16 {
        self.files_held.get(usize::from(rank)).copied().unwrap_or(0)
    }

    /// Every man with its point, rank 0 first.
    pub fn men(&self) -> impl Iterator<Item = (Point, Man)> + '_ {
        self.cells.iter().enumerate().filter_map(|(index, cell)| {
            // Most points are empty: look at the man before working out the point.
            let man = man_of(*cell)?;
            Some((Point::from_index(index)?, man))
        })
    }

    pub fn general(&self, side: Side) -> Option<Point> {
        let slot = match side {
            Side::Red => 0,
            Side::Black => 1,
        };
        Point::from_index(usize::from(self.generals[slot]?))
    }

    /// The FEN board field: rank 9 first, canonical letters, digits for empty runs.
    pub fn fen_field(&self) -> String {
        let mut out = String::with_capacity(90);
        for rank in (0..RANKS).rev() {
            let mut empty = 0;
            for file in 0..FILES {
                match self.get(Point { file, rank }) {
                    Some(man) => {
                        if empty > 0 {
                            out.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        out.push(man.letter());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                out.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out
    }

    /// The board of a well-formed FEN board field (`None` for anything else).
    #[cfg(test)]
    pub fn from_fen_field(field: &str) -> Option<Board> {
        let mut board = Board::default();
        let rows: Vec<&str> = field.split('/').collect();
        if rows.len() != usize::from(RANKS) {
            return None;
        }
        for (row, rank) in rows.iter().zip((0..RANKS).rev()) {
            let mut file = 0u8;
            for c in row.chars() {
                if let Some(skip) = c.to_digit(10) {
                    file = file.checked_add(u8::try_from(skip).ok()?)?;
                } else {
                    board.put(Point::new(file, rank)?, Some(Man::from_letter(c)?));
                    file += 1;
                }
            }
            if file != FILES {
                return None;
            }
        }
        Some(board)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_generals_are_found_wherever_puts_leave_them() {
        let at = |file, rank| Point::new(file, rank).expect("a point");
        let red = Some(Man::new(Side::Red, Kind::General));
        let black = Some(Man::new(Side::Black, Kind::General));
        let scan = |board: &Board, side| {
            board
                .men()
                .find(|(_, man)| *man == Man::new(side, Kind::General))
                .map(|(point, _)| point)
        };
        let mut board = Board::initial();
        let mut puts = vec![
            (at(4, 0), None),
            (at(4, 1), red),
            (at(3, 0), red),
            (at(4, 9), Some(Man::new(Side::Black, Kind::Chariot))),
            (at(5, 8), black),
            (at(3, 0), None),
            (at(4, 1), None),
            (at(5, 8), None),
        ];
        puts.push((at(2, 2), red));
        for (point, man) in puts {
            board.put(point, man);
            for side in [Side::Red, Side::Black] {
                assert_eq!(board.general(side), scan(&board, side), "{point:?} {man:?}");
            }
        }
        assert_eq!(board.general(Side::Red), Some(at(2, 2)));
        assert_eq!(board.general(Side::Black), None);
    }

    #[test]
    fn every_man_is_kept_in_a_cell_as_it_was_put() {
        let mut board = Board::default();
        let point = Point::new(3, 7).expect("a point");
        for side in [Side::Red, Side::Black] {
            for kind in Kind::ALL {
                let man = Man::new(side, kind);
                board.put(point, Some(man));
                assert_eq!(board.get(point), Some(man));
                assert_eq!(board.men().collect::<Vec<_>>(), [(point, man)]);
            }
        }
        board.put(point, None);
        assert_eq!(board.get(point), None);
        assert_eq!(board, Board::default());
    }

    #[test]
    fn points_are_named_from_reds_left_and_reds_side() {
        let general = Point::new(4, 0).unwrap();
        assert_eq!(general.name(), "e0");
        assert_eq!(Point::parse("e0"), Some(general));
        assert_eq!(Point::parse("j0"), None);
        assert_eq!(general.rotated().name(), "e9");
        assert_eq!(general.scene_xy(), (5.0, 1.0));
        assert_eq!(Point::new(8, 9).unwrap().offset(1, 0), None);
        assert_eq!(Point::all().count(), 90);
    }

    #[test]
    fn letters_and_aliases() {
        assert_eq!(
            Man::from_letter('N'),
            Some(Man::new(Side::Red, Kind::Horse))
        );
        assert_eq!(
            Man::from_letter('m'),
            Some(Man::new(Side::Black, Kind::Elephant))
        );
        assert_eq!(
            Man::from_letter('g'),
            Some(Man::new(Side::Black, Kind::Advisor))
        );
        assert_eq!(Man::from_letter('Q'), None);
        assert_eq!(Man::new(Side::Black, Kind::Chariot).letter(), 'r');
        for letter in PIECE_LETTERS.chars() {
            assert!(Man::from_letter(letter).is_some(), "{letter}");
        }
    }

    #[test]
    fn the_initial_board_writes_the_usual_fen() {
        let board = Board::initial();
        assert_eq!(
            board.fen_field(),
            "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR"
        );
        assert_eq!(Board::from_fen_field(&board.fen_field()), Some(board));
        assert_eq!(Board::from_fen_field("9/9"), None);
        assert_eq!(Board::initial().general(Side::Black), Point::new(4, 9));
    }
}
