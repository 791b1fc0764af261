//! A position as the setup formats write it: atoms (men and annotation codes) on points,
//! each with its place in the text, and the FEN-style board field that annoFEN, plain FEN
//! and WXF's `FEN` line share.

use std::ops::Range;

use crate::diagnostic::Diagnostic;
use crate::model::features::{SemanticToken, TokenKind};

use crate::xiangqi::annotation::{closest_codes, Code};
use crate::xiangqi::board::{Board, Man, Point, Side, FILES, RANKS};

/// What an atom is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AtomKind {
    Man(Man),
    Code(Code),
}

/// One piece or annotation on a point, as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Atom {
    pub point: Point,
    pub kind: AtomKind,
    /// The atom's text: a piece letter, or the code (without `<` `>` in annoFEN).
    pub range: Range<usize>,
    /// The text as written (`n`, `a+1-2`), for lossless conversions.
    pub text: String,
}

/// A position read from a file: its atoms in document order, and whose turn it is when
/// the format says so.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Position {
    pub atoms: Vec<Atom>,
    pub side_to_move: Option<Side>,
}

impl Position {
    /// The men, one per point (the last written wins where several share a point).
    pub fn board(&self) -> Board {
        let mut board = Board::default();
        for atom in &self.atoms {
            if let AtomKind::Man(man) = atom.kind {
                board.put(atom.point, Some(man));
            }
        }
        board
    }

    pub fn men(&self) -> impl Iterator<Item = (&Atom, Man)> {
        self.atoms.iter().filter_map(|atom| match atom.kind {
            AtomKind::Man(man) => Some((atom, man)),
            AtomKind::Code(_) => None,
        })
    }

    pub fn codes(&self) -> impl Iterator<Item = (&Atom, Code)> {
        self.atoms.iter().filter_map(|atom| match atom.kind {
            AtomKind::Code(code) => Some((atom, code)),
            AtomKind::Man(_) => None,
        })
    }

    /// The atoms of each point, in order, for writing the position out.
    pub fn cells(&self) -> Vec<Vec<&Atom>> {
        let mut cells = vec![Vec::new(); usize::from(FILES) * usize::from(RANKS)];
        for atom in &self.atoms {
            if let Some(cell) = cells.get_mut(atom.point.index()) {
                cell.push(atom);
            }
        }
        cells
    }

    /// A position of men only (no annotations), from a board.
    pub fn of_board(board: &Board, side_to_move: Option<Side>) -> Position {
        let mut men: Vec<(Point, Man)> = board.men().collect();
        men.sort_by_key(|(point, _)| (std::cmp::Reverse(point.rank), point.file));
        Position {
            atoms: men
                .into_iter()
                .map(|(point, man)| Atom {
                    point,
                    kind: AtomKind::Man(man),
                    range: 0..0,
                    text: man.letter().to_string(),
                })
                .collect(),
            side_to_move,
        }
    }
}

/// What an atom's text is, for formats that write atoms as words (XAY).
pub fn atom_of_word(word: &str) -> Option<AtomKind> {
    let mut chars = word.chars();
    if let (Some(letter), None) = (chars.next(), chars.next()) {
        if let Some(man) = Man::from_letter(letter) {
            return Some(AtomKind::Man(man));
        }
    }
    Code::parse(word).map(AtomKind::Code)
}

/// The message for a code xiangqi-setup does not have, with the nearest ones it has.
pub fn unknown_code_message(code: &str) -> String {
    let near: Vec<String> = closest_codes(code)
        .into_iter()
        .map(|code| format!("`{}`", code.text()))
        .collect();
    let mut message = format!("`{code}` is not an annotation code");
    if code.starts_with('a') && code.len() == 5 {
        message.push_str(" (xiangqi-setup has arrows along files and ranks and the one- and two-point diagonals and horse jumps)");
    }
    if !near.is_empty() {
        message.push_str(&format!("; the closest are {}", near.join(", ")));
    }
    message
}

/// The message for a letter that is no piece.
pub fn unknown_letter_message(letter: char) -> String {
    format!(
        "`{letter}` is not a piece letter: Red's are R H E A K C P (and the aliases N, B, M, G), Black's the same in lower case"
    )
}

/// Which notation a board field is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldSyntax {
    /// Plain FEN: letters and digits.
    Fen,
    /// annoFEN: also `<code>` and `[..]` stacks.
    AnnoFen,
}

/// What reading a board field gave.
#[derive(Debug, Default)]
pub struct FieldRead {
    pub atoms: Vec<Atom>,
    pub diagnostics: Vec<Diagnostic>,
    pub tokens: Vec<SemanticToken>,
}

/// Read the board field `text[range]` (rank 9 first, rows separated by `/`), recovering
/// from every error: a bad character is reported and skipped, atoms off the board are
/// reported and dropped.
pub fn read_board_field(text: &str, range: Range<usize>, syntax: FieldSyntax) -> FieldRead {
    let mut reader = FieldReader {
        text,
        out: FieldRead::default(),
        syntax,
        row: 0,
        file: 0,
        row_start: range.start,
        off_board_rows: None,
    };
    reader.read(range);
    reader.out
}

struct FieldReader<'a> {
    text: &'a str,
    out: FieldRead,
    syntax: FieldSyntax,
    /// Rows read so far (0 = rank 9).
    row: usize,
    /// Points of the current row covered so far.
    file: usize,
    row_start: usize,
    /// Where the rows beyond the tenth start.
    off_board_rows: Option<usize>,
}

impl FieldReader<'_> {
    fn token(&mut self, range: Range<usize>, kind: TokenKind) {
        self.out.tokens.push(SemanticToken { range, kind });
    }

    fn error(&mut self, range: Range<usize>, code: &'static str, message: impl Into<String>) {
        self.out
            .diagnostics
            .push(Diagnostic::error(range, code, message));
    }

    fn point(&self) -> Option<Point> {
        let rank = usize::from(RANKS).checked_sub(1 + self.row)?;
        Point::new(u8::try_from(self.file).ok()?, u8::try_from(rank).ok()?)
    }

    fn push(&mut self, range: Range<usize>, kind: AtomKind) {
        if let Some(point) = self.point() {
            let text = self.text[range.clone()].to_string();
            self.out.atoms.push(Atom {
                point,
                kind,
                range,
                text,
            });
        }
    }

    fn read(&mut self, range: Range<usize>) {
        let end = range.end;
        let mut at = range.start;
        while at < end {
            let Some(c) = self.text[at..end].chars().next() else {
                break;
            };
            let next = at + c.len_utf8();
            match c {
                '/' => {
                    self.token(at..next, TokenKind::Operator);
                    self.end_row(at);
                    self.row += 1;
                    self.file = 0;
                    self.row_start = next;
                    if self.row == usize::from(RANKS) {
                        self.off_board_rows = Some(at);
                    }
                    at = next;
                }
                '0'..='9' => {
                    self.token(at..next, TokenKind::Number);
                    if c == '0' {
                        self.zero(at);
                    }
                    self.file += c as usize - '0' as usize;
                    at = next;
                }
                '<' if self.syntax == FieldSyntax::AnnoFen => {
                    at = self.code(at, end);
                    self.file += 1;
                }
                '[' if self.syntax == FieldSyntax::AnnoFen => {
                    at = self.stack(at, end);
                    self.file += 1;
                }
                _ if Man::from_letter(c).is_some() => {
                    if let Some(man) = Man::from_letter(c) {
                        self.token(at..next, TokenKind::Type);
                        self.push(at..next, AtomKind::Man(man));
                    }
                    self.file += 1;
                    at = next;
                }
                _ => {
                    self.bad_character(at, c, true);
                    at = next;
                }
            }
        }
        self.end_row(end);
        let rows = self.row + 1;
        if let Some(start) = self.off_board_rows {
            self.error(
                start..end,
                "xiangqi-row-count",
                format!("the board field has {rows} rows; a xiangqi board has 10 ranks, so the rows after the tenth are off the board"),
            );
        } else if rows < usize::from(RANKS) {
            self.out.diagnostics.push(Diagnostic::warning(
                range,
                "xiangqi-row-count",
                format!("the board field has {rows} rows; a xiangqi board has 10 (the missing ranks are read as empty)"),
            ));
        }
    }

    fn zero(&mut self, at: usize) {
        let after_one = at > 0 && self.text.as_bytes().get(at - 1) == Some(&b'1');
        let (range, message) = if after_one {
            (
                at - 1..at + 1,
                "`10` is read as 1 and then 0 empty points, not ten: a row has 9 points"
                    .to_string(),
            )
        } else {
            (at..at + 1, "`0` skips no point".to_string())
        };
        self.out
            .diagnostics
            .push(Diagnostic::warning(range, "xiangqi-zero", message));
    }

    fn end_row(&mut self, end: usize) {
        if self.row >= usize::from(RANKS) {
            return;
        }
        let range = self.row_start..end;
        let width = usize::from(FILES);
        if self.file > width {
            self.error(
                range,
                "xiangqi-row-width",
                format!(
                    "this row covers {} points; a xiangqi rank has 9 (what is beyond is off the board)",
                    self.file
                ),
            );
        } else if self.file < width {
            self.out.diagnostics.push(Diagnostic::warning(
                range,
                "xiangqi-row-width",
                format!(
                    "this row covers {} point{}; a xiangqi rank has 9 (the rest are read as empty)",
                    self.file,
                    if self.file == 1 { "" } else { "s" }
                ),
            ));
        }
    }

    fn bad_character(&mut self, at: usize, c: char, takes_point: bool) {
        let range = at..at + c.len_utf8();
        if c.is_alphabetic() {
            // Meant as a piece: it takes its point, so the row's width stays right.
            if takes_point {
                self.file += 1;
            }
            self.error(range, "xiangqi-unknown-piece", unknown_letter_message(c));
        } else if self.syntax == FieldSyntax::Fen && (c == '<' || c == '[') {
            self.error(
                range,
                "fen-syntax",
                format!("`{c}` starts an annotation, which only annoFEN (a line starting with `v1 `) has"),
            );
        } else {
            let expected = match self.syntax {
                FieldSyntax::Fen => "a piece letter, a digit or `/`",
                FieldSyntax::AnnoFen => "a piece letter, a digit, `/`, `<code>` or `[..]`",
            };
            let code = match self.syntax {
                FieldSyntax::Fen => "fen-syntax",
                FieldSyntax::AnnoFen => "annofen-syntax",
            };
            self.error(
                range,
                code,
                format!("unexpected `{}`: expected {expected}", c.escape_default()),
            );
        }
    }

    /// `<code>` at `at`; returns where reading goes on.
    fn code(&mut self, at: usize, end: usize) -> usize {
        let Some(close) = self.text[at + 1..end]
            .find(['>', '<', '[', ']', '/'])
            .map(|i| at + 1 + i)
            .filter(|&i| self.text.as_bytes()[i] == b'>')
        else {
            let stop = self.text[at + 1..end]
                .find(['<', '[', ']', '/'])
                .map_or(end, |i| at + 1 + i);
            self.error(
                at..stop,
                "annofen-unclosed-code",
                "an annotation code starts with `<` and ends with `>`; this one has no `>`",
            );
            return stop;
        };
        self.token(at..at + 1, TokenKind::Operator);
        self.token(close..close + 1, TokenKind::Operator);
        let inner = at + 1..close;
        if inner.is_empty() {
            self.error(
                at..close + 1,
                "annofen-empty-code",
                "`<>` holds no annotation code",
            );
            return close + 1;
        }
        self.token(inner.clone(), TokenKind::EnumMember);
        let word = &self.text[inner.clone()];
        match Code::parse(word) {
            Some(code) => self.push(inner, AtomKind::Code(code)),
            None => {
                let message = unknown_code_message(word);
                self.error(inner, "xiangqi-unknown-code", message);
            }
        }
        close + 1
    }

    /// `[atoms]` at `at`; returns where reading goes on.
    fn stack(&mut self, at: usize, end: usize) -> usize {
        let close = self.text[at + 1..end]
            .find([']', '[', '/'])
            .map(|i| at + 1 + i)
            .filter(|&i| self.text.as_bytes()[i] == b']');
        let stop = close.unwrap_or_else(|| {
            self.text[at + 1..end]
                .find(['[', '/'])
                .map_or(end, |i| at + 1 + i)
        });
        self.token(at..at + 1, TokenKind::Operator);
        if close.is_none() {
            self.error(
                at..stop,
                "annofen-unclosed-stack",
                "`[` starts several atoms on one point and needs a closing `]`",
            );
        } else {
            self.token(stop..stop + 1, TokenKind::Operator);
        }
        if close.is_some() && stop == at + 1 {
            self.error(
                at..stop + 1,
                "annofen-empty-stack",
                "`[]` holds nothing: write pieces and `<codes>` inside, or a digit for an empty point",
            );
        }
        let mut inner = at + 1;
        while inner < stop {
            let Some(c) = self.text[inner..stop].chars().next() else {
                break;
            };
            let next = inner + c.len_utf8();
            if c == '<' {
                inner = self.code(inner, stop);
            } else if let Some(man) = Man::from_letter(c) {
                self.token(inner..next, TokenKind::Type);
                self.push(inner..next, AtomKind::Man(man));
                inner = next;
            } else if c.is_ascii_digit() {
                self.error(
                    inner..next,
                    "annofen-syntax",
                    "a digit counts empty points and cannot be inside `[..]`",
                );
                inner = next;
            } else {
                self.bad_character(inner, c, false);
                inner = next;
            }
        }
        if close.is_some() {
            stop + 1
        } else {
            stop
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(text: &str, syntax: FieldSyntax) -> FieldRead {
        read_board_field(text, 0..text.len(), syntax)
    }

    fn codes(read: &FieldRead) -> Vec<(&'static str, Range<usize>)> {
        read.diagnostics
            .iter()
            .map(|d| (d.code, d.range.clone()))
            .collect()
    }

    #[test]
    fn a_fen_board_field_gives_men_on_points() {
        let text = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";
        let read = field(text, FieldSyntax::Fen);
        assert!(read.diagnostics.is_empty(), "{:?}", read.diagnostics);
        assert_eq!(read.atoms.len(), 32);
        let position = Position {
            atoms: read.atoms,
            side_to_move: None,
        };
        assert_eq!(position.board(), Board::initial());
        let cannon = &position.atoms[9];
        assert_eq!(
            (cannon.point.name(), cannon.range.clone()),
            ("b7".into(), 13..14)
        );
    }

    #[test]
    fn annofen_atoms_codes_and_stacks() {
        let text = "r[<bm><a+1-2>]bakabnr/9/1c[<pm>n]4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2[<pm>C]2[<bm><a-3+0>]1/9/RNBAKABNR";
        let read = field(text, FieldSyntax::AnnoFen);
        assert!(read.diagnostics.is_empty(), "{:?}", read.diagnostics);
        let b9: Vec<_> = read
            .atoms
            .iter()
            .filter(|a| a.point.name() == "b9")
            .map(|a| (a.text.as_str(), a.range.clone()))
            .collect();
        assert_eq!(b9, [("bm", 3..5), ("a+1-2", 7..12)]);
        let c7: Vec<_> = read
            .atoms
            .iter()
            .filter(|a| a.point.name() == "c7")
            .map(|a| a.text.as_str())
            .collect();
        assert_eq!(c7, ["pm", "n"]);
        assert_eq!(
            read.atoms
                .iter()
                .filter(|a| matches!(a.kind, AtomKind::Man(_)))
                .count(),
            32
        );
    }

    #[test]
    fn row_width_row_count_and_zero_are_reported_on_their_text() {
        let text = "rnbakabnr/10/9/9/9/9/9/9/9/RNBAKABNR1";
        let read = field(text, FieldSyntax::Fen);
        assert_eq!(
            codes(&read),
            [
                ("xiangqi-zero", 10..12),
                ("xiangqi-row-width", 10..12),
                ("xiangqi-row-width", 27..37),
            ]
        );
        assert_eq!(
            read.diagnostics[1].severity,
            crate::diagnostic::Severity::Warning
        );
        assert_eq!(
            read.diagnostics[2].severity,
            crate::diagnostic::Severity::Error
        );
        assert_eq!(read.atoms.len(), 18, "the off-board point is dropped");
        let eleven = field("9/9/9/9/9/9/9/9/9/9/9", FieldSyntax::Fen);
        assert_eq!(codes(&eleven), [("xiangqi-row-count", 19..21)]);
        let nine = field("9/9/9/9/9/9/9/9/9", FieldSyntax::Fen);
        assert_eq!(codes(&nine), [("xiangqi-row-count", 0..17)]);
    }

    #[test]
    fn bad_characters_codes_and_stacks_recover() {
        let text = "r[n<a+1-3>]Q<pm>x<>[]<bm/9/9/9/9/9/9/9/9/9";
        let read = field(text, FieldSyntax::AnnoFen);
        let found = codes(&read);
        assert_eq!(
            found[..6],
            [
                ("xiangqi-unknown-code", 4..9),
                ("xiangqi-unknown-piece", 11..12),
                ("xiangqi-unknown-piece", 16..17),
                ("annofen-empty-code", 17..19),
                ("annofen-empty-stack", 19..21),
                ("annofen-unclosed-code", 21..24),
            ]
        );
        assert!(read.diagnostics[0].message.contains("`a+0-3`"));
        let texts: Vec<_> = read
            .atoms
            .iter()
            .map(|a| (a.text.as_str(), a.point.name()))
            .collect();
        assert_eq!(
            texts,
            [
                ("r", "a9".to_string()),
                ("n", "b9".into()),
                ("pm", "d9".into())
            ]
        );
        let fen = field("r<pm>8/9/9/9/9/9/9/9/9/9", FieldSyntax::Fen);
        assert_eq!(fen.diagnostics[0].code, "fen-syntax");
    }
}
