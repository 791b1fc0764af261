//! Tafl men, squares and boards, and OTN position records (`/3t3/3t3/3T3/ttTKTtt/.../`).
//!
//! A board is a row-major array of one byte per square: `0` for an empty square, else a
//! [`Man`]'s code. Square `a1` is index 0; index `y * dim + x` is file `x` (0 = `a`) of rank
//! `y + 1`. The first row of a position record is rank 1, as OTN's section 1 says.

use std::ops::Range;

use crate::diagnostic::Diagnostic;
pub use crate::model::games::{TaflMan, TaflSide};

/// The largest board OTN squares can name with one letter per file.
pub const MAX_DIM: usize = 26;
/// The smallest board a tafl game is played on.
pub const MIN_DIM: usize = 3;

/// A man of one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Man {
    pub side: TaflSide,
    pub kind: TaflMan,
}

const DEFENDER_BIT: u8 = 8;

impl Man {
    pub const fn new(side: TaflSide, kind: TaflMan) -> Man {
        Man { side, kind }
    }

    /// The man OTN writes with `letter` (lower case for attackers).
    pub fn from_letter(letter: char) -> Option<Man> {
        let side = if letter.is_ascii_uppercase() {
            TaflSide::Defenders
        } else {
            TaflSide::Attackers
        };
        let kind = match letter.to_ascii_lowercase() {
            't' => TaflMan::Taflman,
            'c' => TaflMan::Commander,
            'n' => TaflMan::Knight,
            'k' => TaflMan::King,
            'm' => TaflMan::Mercenary,
            'g' => TaflMan::Guard,
            _ => return None,
        };
        Some(Man { side, kind })
    }

    pub fn letter(self) -> char {
        let letter = self.kind.letter();
        match self.side {
            TaflSide::Attackers => letter,
            TaflSide::Defenders => letter.to_ascii_uppercase(),
        }
    }

    /// The byte a board stores for this man (never 0).
    pub fn code(self) -> u8 {
        let kind = kind_index(self.kind) as u8 + 1;
        match self.side {
            TaflSide::Attackers => kind,
            TaflSide::Defenders => kind | DEFENDER_BIT,
        }
    }

    pub fn from_code(code: u8) -> Option<Man> {
        let kind = *KINDS.get(usize::from(code & 7).checked_sub(1)?)?;
        let side = if code & DEFENDER_BIT != 0 {
            TaflSide::Defenders
        } else {
            TaflSide::Attackers
        };
        Some(Man { side, kind })
    }

    /// The man's index in OTN's piece order `tcnkmgTCNKMG` (bits of a [`PieceSet`]).
    pub fn type_index(self) -> usize {
        kind_index(self.kind)
            + match self.side {
                TaflSide::Attackers => 0,
                TaflSide::Defenders => 6,
            }
    }

    pub fn is_king(self) -> bool {
        self.kind == TaflMan::King
    }

    /// `an attacking knight`, `the king`, `a defending taflman`.
    pub fn describe(self) -> String {
        if self.kind == TaflMan::King && self.side == TaflSide::Defenders {
            return "the king".to_string();
        }
        let article = match self.side {
            TaflSide::Attackers => "an",
            TaflSide::Defenders => "a",
        };
        format!(
            "{article} {} {}",
            side_adjective(self.side),
            self.kind.name()
        )
    }
}

/// How many men each side has, and where the defenders' king stands (the first, if a
/// board holds two).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Census {
    pub attackers: usize,
    pub defenders: usize,
    pub king: Option<usize>,
}

impl Census {
    /// Counted on the squares' bytes without decoding each man: it is asked after every
    /// move. The counts run in byte-wide lanes (a block of at most 255 squares cannot
    /// overflow them), which the compiler turns into passes over a vector of squares at a
    /// time.
    pub fn of(cells: &[u8]) -> Census {
        let (mut attackers, mut defenders) = (0, 0);
        for block in cells.chunks(255) {
            let (mut block_attackers, mut block_defenders) = (0u8, 0u8);
            for &code in block {
                let is_man = (code & 7).wrapping_sub(1) < KINDS.len() as u8;
                let defending = code & DEFENDER_BIT != 0;
                block_attackers += u8::from(is_man & !defending);
                block_defenders += u8::from(is_man & defending);
            }
            attackers += usize::from(block_attackers);
            defenders += usize::from(block_defenders);
        }
        Census {
            attackers,
            defenders,
            king: first_king(cells),
        }
    }
}

impl Census {
    /// The census after `mover` moved on a board whose census this is, `after` being the
    /// board now and `captures` the squares captured with the man each held. A move changes
    /// the counts only by its captures (a captured mercenary changes sides), and moves the
    /// king only if it is one: asked after every move, it counts again only then.
    pub fn after_move(self, after: &[u8], mover: Man, captures: &[(usize, Man)]) -> Census {
        if mover.is_king() || captures.iter().any(|(_, man)| man.is_king()) {
            return Census::of(after);
        }
        let mut census = self;
        for &(square, man) in captures {
            *census.count_of(man.side) -= 1;
            if let Some(now) = after.get(square).and_then(|code| Man::from_code(*code)) {
                *census.count_of(now.side) += 1;
            }
        }
        census
    }

    fn count_of(&mut self, side: TaflSide) -> &mut usize {
        match side {
            TaflSide::Attackers => &mut self.attackers,
            TaflSide::Defenders => &mut self.defenders,
        }
    }
}

/// Where the defenders' first king stands. Looked for a block of squares at a time
/// (a block without him is passed in a few vector steps): every move asks it.
pub fn first_king(cells: &[u8]) -> Option<usize> {
    const BLOCK: usize = 32;
    let king = Man::new(TaflSide::Defenders, TaflMan::King).code();
    // As `Man::from_code` reads a byte: its kind bits and its side bit.
    let is_king = |code: u8| code & (DEFENDER_BIT | 7) == king;
    cells
        .chunks(BLOCK)
        .enumerate()
        .find_map(|(block, squares)| {
            let holds_king = squares
                .iter()
                .fold(false, |found, &code| found | is_king(code));
            if !holds_king {
                return None;
            }
            let within = squares.iter().position(|&code| is_king(code))?;
            Some(block * BLOCK + within)
        })
}

/// OTN's order of men in piece lists and speed lists.
pub const KINDS: [TaflMan; 6] = [
    TaflMan::Taflman,
    TaflMan::Commander,
    TaflMan::Knight,
    TaflMan::King,
    TaflMan::Mercenary,
    TaflMan::Guard,
];

fn kind_index(kind: TaflMan) -> usize {
    KINDS.iter().position(|k| *k == kind).unwrap_or(0)
}

pub fn side_adjective(side: TaflSide) -> &'static str {
    match side {
        TaflSide::Attackers => "attacking",
        TaflSide::Defenders => "defending",
    }
}

pub fn side_name(side: TaflSide) -> &'static str {
    match side {
        TaflSide::Attackers => "attackers",
        TaflSide::Defenders => "defenders",
    }
}

pub fn other_side(side: TaflSide) -> TaflSide {
    match side {
        TaflSide::Attackers => TaflSide::Defenders,
        TaflSide::Defenders => TaflSide::Attackers,
    }
}

/// A set of men by type, one bit per letter of `tcnkmgTCNKMG`: what OTN's piece-type
/// lists (`cens:K`, `corh:tcnkmTCNKM`) name.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PieceSet(pub u16);

impl PieceSet {
    pub const NONE: PieceSet = PieceSet(0);
    pub const ALL: PieceSet = PieceSet(0xfff);
    pub const ATTACKERS: PieceSet = PieceSet(0x03f);
    pub const DEFENDERS: PieceSet = PieceSet(0xfc0);

    pub fn contains(self, man: Man) -> bool {
        self.0 & (1 << man.type_index()) != 0
    }

    /// The letters of the set, in OTN's preferred order.
    pub fn letters(self) -> String {
        "tcnkmgTCNKMG"
            .chars()
            .enumerate()
            .filter(|(i, _)| self.0 & (1 << i) != 0)
            .map(|(_, c)| c)
            .collect()
    }

    pub fn from_letters(letters: &str) -> Option<PieceSet> {
        let mut set = 0u16;
        for letter in letters.chars() {
            set |= 1 << Man::from_letter(letter)?.type_index();
        }
        Some(PieceSet(set))
    }

    /// `the king`, `all attacking men`, `t, c, K`.
    pub fn describe(self) -> String {
        match self {
            PieceSet::NONE => "no man".to_string(),
            PieceSet::ALL => "all men".to_string(),
            PieceSet::ATTACKERS => "attacking men".to_string(),
            PieceSet::DEFENDERS => "defending men".to_string(),
            _ if self.0 == 1 << 9 => "the king".to_string(),
            _ => {
                let letters: Vec<String> = self.letters().chars().map(|c| c.to_string()).collect();
                letters.join(", ")
            }
        }
    }
}

/// A square of a board: file `x` (0 = `a`) and rank `y + 1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square {
    pub x: u8,
    pub y: u8,
}

impl std::fmt::Display for Square {
    fn fmt(&self, out: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            out,
            "{}{}",
            char::from(b'a' + self.x),
            u32::from(self.y) + 1
        )
    }
}

/// Appends `number` in decimal to `out`. Diagnostics that a replay can make by the tens of
/// thousands write their numbers and squares so, rather than through the formatting
/// machinery, which took more than the replay of the moves they are about.
pub fn push_number(out: &mut String, number: u32) {
    // Ranks first: one or two digits.
    if number < 10 {
        out.push(char::from(b'0' + number as u8));
        return;
    }
    if number < 100 {
        out.push(char::from(b'0' + (number / 10) as u8));
        out.push(char::from(b'0' + (number % 10) as u8));
        return;
    }
    let mut digits = [0u8; 10];
    let mut at = digits.len();
    let mut rest = number;
    loop {
        at -= 1;
        digits[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    for digit in &digits[at..] {
        out.push(char::from(*digit));
    }
}

impl Square {
    /// Appends the square's name (see [`Square::name`]) to `out`.
    pub fn push_name(self, out: &mut String) {
        out.push(char::from(b'a' + self.x));
        push_number(out, u32::from(self.y) + 1);
    }

    pub fn new(x: usize, y: usize) -> Square {
        Square {
            x: x as u8,
            y: y as u8,
        }
    }

    pub fn name(self) -> String {
        format!("{}{}", char::from(b'a' + self.x), u32::from(self.y) + 1)
    }

    pub fn index(self, dim: usize) -> usize {
        usize::from(self.y) * dim + usize::from(self.x)
    }

    pub fn of_index(index: usize, dim: usize) -> Square {
        Square::new(index % dim, index / dim)
    }

    pub fn on_board(self, dim: usize) -> bool {
        usize::from(self.x) < dim && usize::from(self.y) < dim
    }

    /// Reads a square written as a file letter and a rank number (`e5`, `k11`) at the start
    /// of `text`; returns it and the number of bytes read.
    pub fn parse_prefix(text: &str) -> Option<(Square, usize)> {
        let bytes = text.as_bytes();
        let file = *bytes.first()?;
        if !file.is_ascii_lowercase() {
            return None;
        }
        let digits = bytes[1..].iter().take_while(|b| b.is_ascii_digit()).count();
        if digits == 0 || digits > 3 {
            return None;
        }
        let rank: usize = text[1..1 + digits].parse().ok()?;
        if rank == 0 || rank > 255 {
            return None;
        }
        Some((Square::new(usize::from(file - b'a'), rank - 1), 1 + digits))
    }

    pub fn parse(text: &str) -> Option<Square> {
        match Square::parse_prefix(text) {
            Some((square, len)) if len == text.len() => Some(square),
            _ => None,
        }
    }
}

/// The squares of a board and the men on them.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    pub dim: usize,
    pub cells: Vec<u8>,
}

impl Board {
    pub fn empty(dim: usize) -> Board {
        Board {
            dim,
            cells: vec![0; dim * dim],
        }
    }

    pub fn get(&self, square: Square) -> Option<Man> {
        self.cells
            .get(square.index(self.dim))
            .and_then(|code| Man::from_code(*code))
    }

    pub fn set(&mut self, square: Square, man: Option<Man>) {
        let index = square.index(self.dim);
        if let Some(cell) = self.cells.get_mut(index) {
            *cell = man.map_or(0, Man::code);
        }
    }

    /// Every man with its square, rank by rank from `a1`.
    pub fn men(&self) -> impl Iterator<Item = (Square, Man)> + '_ {
        let dim = self.dim;
        self.cells.iter().enumerate().filter_map(move |(i, code)| {
            Man::from_code(*code).map(|man| (Square::of_index(i, dim), man))
        })
    }

    /// The position record of the board (first row = rank 1).
    pub fn position_record(&self) -> String {
        position_record(&self.cells, self.dim)
    }
}

/// The OTN position record of `cells`, a board of `dim` × `dim` squares.
pub fn position_record(cells: &[u8], dim: usize) -> String {
    let mut out = String::with_capacity(cells.len() + dim + 1);
    out.push('/');
    for row in cells.chunks(dim.max(1)) {
        let mut empty = 0;
        for code in row {
            match Man::from_code(*code) {
                None => empty += 1,
                Some(man) => {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push(man.letter());
                }
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
        out.push('/');
    }
    out
}

/// A position record as read: its rows (in the order written) with their ranges.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsedPosition {
    /// Each row's men (`None` for empty squares), in file order, as written.
    pub rows: Vec<(Vec<Option<Man>>, Range<usize>)>,
}

/// Reads a position record at `offset` of the document; problems become diagnostics on the
/// exact characters. Never fails: what cannot be read is skipped.
pub fn parse_position(
    text: &str,
    offset: usize,
    diagnostics: &mut Vec<Diagnostic>,
) -> ParsedPosition {
    let mut rows = Vec::new();
    let body = text.strip_prefix('/');
    let (body, body_start) = match body {
        Some(rest) => (rest, offset + 1),
        None => {
            if let Some(first) = text.chars().next() {
                diagnostics.push(Diagnostic::error(
                    offset..offset + first.len_utf8(),
                    "position-syntax",
                    "a position record starts with `/`",
                ));
            }
            (text, offset)
        }
    };
    let mut start = body_start;
    let pieces: Vec<&str> = body.split('/').collect();
    let last = pieces.len().saturating_sub(1);
    for (i, row_text) in pieces.into_iter().enumerate() {
        let range = start..start + row_text.len();
        start += row_text.len() + 1;
        if row_text.is_empty() {
            if i != last {
                diagnostics.push(Diagnostic::error(
                    range.start.saturating_sub(1)..range.start + 1,
                    "position-syntax",
                    "an empty row: write the number of squares (e.g. `11`) for a row with no man",
                ));
            }
            continue;
        }
        if i == last {
            diagnostics.push(Diagnostic::warning(
                range.end..range.end,
                "position-syntax",
                "a position record ends with `/`",
            ));
        }
        let mut squares = Vec::new();
        let bytes = row_text.as_bytes();
        let mut j = 0;
        while j < bytes.len() {
            let b = bytes[j];
            if b.is_ascii_digit() {
                let digits = bytes[j..].iter().take_while(|d| d.is_ascii_digit()).count();
                let count: usize = row_text[j..j + digits].parse().unwrap_or(usize::MAX);
                if count == 0 || count > MAX_DIM {
                    diagnostics.push(Diagnostic::error(
                        range.start + j..range.start + j + digits,
                        "position-syntax",
                        format!(
                            "`{}` is not a number of empty squares (1 to {MAX_DIM})",
                            &row_text[j..j + digits]
                        ),
                    ));
                } else {
                    squares.extend(std::iter::repeat_n(None, count));
                }
                j += digits;
            } else {
                let letter = row_text[j..].chars().next().unwrap_or('?');
                match Man::from_letter(letter) {
                    Some(man) => squares.push(Some(man)),
                    None => diagnostics.push(Diagnostic::error(
                        range.start + j..range.start + j + letter.len_utf8(),
                        "unknown-man",
                        format!(
                            "`{letter}` is not a man: OTN writes t (taflman), c (commander), n (knight), \
                             k (king), m (mercenary), g (guard), upper case for defenders"
                        ),
                    )),
                }
                j += letter.len_utf8();
            }
            if squares.len() > MAX_DIM {
                break;
            }
        }
        rows.push((squares, range));
        if rows.len() > MAX_DIM {
            break;
        }
    }
    ParsedPosition { rows }
}

impl ParsedPosition {
    /// The board these rows describe on a `dim` × `dim` board; rows that do not fit are
    /// reported and cut or padded so that replay goes on. With `inverted` the rows are
    /// written from the top rank down (`starti:`).
    pub fn board(&self, dim: usize, inverted: bool, diagnostics: &mut Vec<Diagnostic>) -> Board {
        let mut board = Board::empty(dim);
        for (i, (row, range)) in self.rows.iter().enumerate() {
            if row.len() != dim {
                diagnostics.push(Diagnostic::error(
                    range.clone(),
                    "row-length",
                    format!(
                        "this row covers {} square{}; the board is {dim} wide",
                        row.len(),
                        if row.len() == 1 { "" } else { "s" }
                    ),
                ));
            }
            if i >= dim {
                continue;
            }
            let rank = if inverted { dim - 1 - i } else { i };
            for (file, man) in row.iter().enumerate().take(dim) {
                board.set(Square::new(file, rank), *man);
            }
        }
        if self.rows.len() != dim {
            if let Some(range) = self.range() {
                diagnostics.push(Diagnostic::error(
                    range,
                    "row-count",
                    format!(
                        "this position has {} row{}; the board has {dim} ranks",
                        self.rows.len(),
                        if self.rows.len() == 1 { "" } else { "s" }
                    ),
                ));
            }
        }
        board
    }

    fn range(&self) -> Option<Range<usize>> {
        let first = self.rows.first()?.1.start;
        let last = self.rows.last()?.1.end;
        Some(first..last)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The census as decoding each square says it.
    fn census_by_decoding(cells: &[u8]) -> Census {
        let mut census = Census {
            attackers: 0,
            defenders: 0,
            king: None,
        };
        for (index, code) in cells.iter().enumerate() {
            if let Some(man) = Man::from_code(*code) {
                match man.side {
                    TaflSide::Attackers => census.attackers += 1,
                    TaflSide::Defenders => {
                        census.defenders += 1;
                        if man.is_king() && census.king.is_none() {
                            census.king = Some(index);
                        }
                    }
                }
            }
        }
        census
    }

    #[test]
    fn a_census_counts_as_decoding_every_square_does() {
        let every_byte: Vec<u8> = (0..=255).collect();
        assert_eq!(Census::of(&every_byte), census_by_decoding(&every_byte));
        let mut seed = 11_u64;
        for _ in 0..500 {
            let cells: Vec<u8> = (0..121)
                .map(|_| {
                    seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                    // Mostly empty squares and men, now and then any byte.
                    match (seed >> 33) % 10 {
                        0..=5 => 0,
                        6 => (seed >> 41) as u8,
                        _ => ((seed >> 45) % 6 + 1) as u8 | (((seed >> 50) & 1) as u8 * 8),
                    }
                })
                .collect();
            assert_eq!(Census::of(&cells), census_by_decoding(&cells), "{cells:?}");
        }
    }

    #[test]
    fn men_round_trip_through_letters_and_codes() {
        for letter in "tcnkmgTCNKMG".chars() {
            let man = Man::from_letter(letter).unwrap();
            assert_eq!(man.letter(), letter);
            assert_eq!(Man::from_code(man.code()), Some(man));
        }
        assert_eq!(Man::from_letter('x'), None);
        assert_eq!(Man::from_code(0), None);
    }

    #[test]
    fn squares_read_letters_and_numbers() {
        assert_eq!(Square::parse("a1"), Some(Square::new(0, 0)));
        assert_eq!(Square::parse("k11"), Some(Square::new(10, 10)));
        assert_eq!(Square::parse("k11x"), None);
        assert_eq!(Square::parse("A1"), None);
        assert_eq!(Square::parse("a0"), None);
        assert_eq!(Square::new(4, 7).name(), "e8");
    }

    #[test]
    fn brandubh_reads_and_writes_back() {
        let record = "/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/";
        let mut diagnostics = Vec::new();
        let parsed = parse_position(record, 0, &mut diagnostics);
        let board = parsed.board(7, false, &mut diagnostics);
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        assert_eq!(
            board.get(Square::parse("d4").unwrap()).unwrap().letter(),
            'K'
        );
        assert_eq!(
            board.get(Square::parse("d1").unwrap()).unwrap().letter(),
            't'
        );
        assert_eq!(board.position_record(), record);
    }

    #[test]
    fn inverted_records_start_at_the_top_rank() {
        let mut diagnostics = Vec::new();
        let parsed = parse_position("/t2/3/2T/", 0, &mut diagnostics);
        let board = parsed.board(3, true, &mut diagnostics);
        assert_eq!(
            board.get(Square::parse("a3").unwrap()).unwrap().letter(),
            't'
        );
        assert_eq!(
            board.get(Square::parse("c1").unwrap()).unwrap().letter(),
            'T'
        );
        assert_eq!(board.position_record(), "/2T/3/t2/");
    }

    #[test]
    fn short_rows_and_bad_letters_are_located() {
        let text = "/3t2/3x3/";
        let mut diagnostics = Vec::new();
        let parsed = parse_position(text, 10, &mut diagnostics);
        let _ = parsed.board(7, false, &mut diagnostics);
        let codes: Vec<_> = diagnostics
            .iter()
            .map(|d| (d.code, d.range.clone()))
            .collect();
        assert!(codes.contains(&("unknown-man", 16..17)), "{codes:?}");
        assert!(codes.contains(&("row-length", 11..14)), "{codes:?}");
        assert!(codes.iter().any(|(code, _)| *code == "row-count"));
    }

    #[test]
    fn a_record_without_its_slash_is_reported_on_its_whole_first_character() {
        // Found by fuzzing: a record starting with a character of several bytes was reported
        // on its first byte alone, a range no editor can show.
        for (record, width) in [("é3t3/", 2), ("\u{fffd}3t3/", 3), ("3t3/", 1)] {
            let mut diagnostics = Vec::new();
            let _ = parse_position(record, 10, &mut diagnostics);
            let first = diagnostics
                .iter()
                .find(|d| d.message.contains("starts with `/`"))
                .unwrap_or_else(|| panic!("{record}: {diagnostics:?}"));
            assert_eq!(first.range, 10..10 + width, "{record}");
        }
    }
}
