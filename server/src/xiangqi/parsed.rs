//! What reading a file in one of the xiangqi-setup formats gives, whatever the format: the
//! starting position, the moves of a WXF record, and everything the editor shows about the
//! text (diagnostics, highlighting, folds, the places completion works in).

use std::ops::Range;

use crate::diagnostic::Diagnostic;
use crate::model::features::{SemanticToken, TokenKind};
use crate::model::format::Format;

use super::notation::WxfMove;
use super::position::Position;

/// A move of a WXF record as written. A word that is not a move still takes a move's place
/// (a move mistyped is still a move), so that the moves after it keep their sides.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WrittenMove {
    pub range: Range<usize>,
    /// `None` when the text is not a move (reported as a syntax error, and skipped).
    pub parsed: Option<WxfMove>,
    /// The move number written before it (`12.`), if any, with its range.
    pub number: Option<(u32, Range<usize>)>,
}

impl WrittenMove {
    /// The move as written in `text`, the file it was read from.
    pub fn text<'a>(&self, text: &'a str) -> &'a str {
        text.get(self.range.clone()).unwrap_or("")
    }

    /// Where the move starts, its number included.
    pub fn item_start(&self) -> usize {
        self.number
            .as_ref()
            .map_or(self.range.start, |(_, range)| range.start)
    }

    pub fn shifted(&self, delta: isize) -> WrittenMove {
        let shift = |range: &Range<usize>| {
            range.start.saturating_add_signed(delta)..range.end.saturating_add_signed(delta)
        };
        WrittenMove {
            range: shift(&self.range),
            parsed: self.parsed,
            number: self
                .number
                .as_ref()
                .map(|(number, range)| (*number, shift(range))),
        }
    }

    /// The highlighting of the move: its number, piece letter, file (or `+`/`-`), direction
    /// and argument.
    pub fn tokens(&self) -> impl Iterator<Item = SemanticToken> + '_ {
        let start = self.range.start;
        let parts = self.parsed.map(|written| {
            let piece_end = usize::from(written.kind.is_some());
            [
                (start..start + piece_end, TokenKind::Type),
                (start + piece_end..start + 2, TokenKind::Variable),
                (start + 2..start + 3, TokenKind::Operator),
                (start + 3..self.range.end, TokenKind::Number),
            ]
        });
        self.number
            .iter()
            .map(|(_, range)| (range.clone(), TokenKind::Number))
            .chain(parts.into_iter().flatten())
            .filter(|(range, _)| !range.is_empty())
            .map(|(range, kind)| SemanticToken { range, kind })
    }
}

/// Where a WXF record's moves are: `START{`, the text between it and `}END`, and the end
/// of `}END` (of the text when the block is not closed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MovesBlock {
    pub start: usize,
    pub body: Range<usize>,
    pub end: usize,
}

/// A place where completion offers something.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Slot {
    /// A board field (annoFEN or FEN): piece letters, and codes in annoFEN.
    BoardField {
        range: Range<usize>,
        annotated: bool,
    },
    /// The list of an XAY cell (inside its brackets): piece letters and codes.
    Cell(Range<usize>),
    /// The moves of a WXF record.
    Moves(Range<usize>),
}

/// A file read in its format.
#[derive(Clone, Debug)]
pub struct Parsed {
    pub format: Format,
    /// The starting position (for WXF: its `FEN`, `SETUP` or the opening position).
    pub start: Position,
    /// Where the position is written (the annoFEN line, XAY's `setup`, a FEN line).
    pub position_range: Option<Range<usize>>,
    pub moves: Vec<WrittenMove>,
    /// Every `START{...}END` block, in order (a record has one).
    pub moves_blocks: Vec<MovesBlock>,
    /// What to call the game or position.
    pub name: String,
    /// The first line of the position or record, for outlines.
    pub selection: Range<usize>,
    pub diagnostics: Vec<Diagnostic>,
    pub tokens: Vec<SemanticToken>,
    /// Byte ranges that fold (a header, a block of moves, a run of comment lines).
    pub folds: Vec<(Range<usize>, bool)>,
    pub slots: Vec<Slot>,
}

impl Parsed {
    pub fn new(format: Format, name: &str) -> Parsed {
        Parsed {
            format,
            start: Position::default(),
            position_range: None,
            moves: Vec::new(),
            moves_blocks: Vec::new(),
            name: name.to_string(),
            selection: 0..0,
            diagnostics: Vec::new(),
            tokens: Vec::new(),
            folds: Vec::new(),
            slots: Vec::new(),
        }
    }

    pub fn token(&mut self, range: Range<usize>, kind: TokenKind) {
        if !range.is_empty() {
            self.tokens.push(SemanticToken { range, kind });
        }
    }

    pub fn error(&mut self, range: Range<usize>, code: &'static str, message: impl Into<String>) {
        self.diagnostics
            .push(Diagnostic::error(range, code, message));
    }

    pub fn warning(&mut self, range: Range<usize>, code: &'static str, message: impl Into<String>) {
        self.diagnostics
            .push(Diagnostic::warning(range, code, message));
    }

    /// Lines of `text`, each as the range of its content (without its line end).
    pub fn lines(text: &str) -> Vec<Range<usize>> {
        let mut lines = Vec::new();
        let mut start = 0;
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'\n' => {
                    lines.push(start..i);
                    start = i + 1;
                }
                b'\r' => {
                    lines.push(start..i);
                    if bytes.get(i + 1) == Some(&b'\n') {
                        i += 1;
                    }
                    start = i + 1;
                }
                _ => {}
            }
            i += 1;
        }
        if start < text.len() || lines.is_empty() {
            lines.push(start..text.len());
        }
        lines
    }

    /// Records runs of two or more `#` comment lines as folds, and every comment as a
    /// token.
    pub fn comment_lines(&mut self, text: &str, comments: &[Range<usize>]) {
        let mut run: Option<(Range<usize>, usize)> = None;
        for range in comments {
            self.token(range.clone(), TokenKind::Comment);
            let whole_line = text[..range.start]
                .rsplit(['\n', '\r'])
                .next()
                .is_some_and(|before| before.trim().is_empty());
            if !whole_line {
                continue;
            }
            run = match run {
                Some((current, count)) if text[current.end..range.start].trim().is_empty() => {
                    Some((current.start..range.end, count + 1))
                }
                Some((current, count)) => {
                    if count > 1 {
                        self.folds.push((current, true));
                    }
                    Some((range.clone(), 1))
                }
                None => Some((range.clone(), 1)),
            };
        }
        if let Some((current, count)) = run {
            if count > 1 {
                self.folds.push((current, true));
            }
        }
    }
}

/// Trim ASCII whitespace (and a byte-order mark) off both ends of `text[range]`.
pub fn trimmed(text: &str, range: Range<usize>) -> Range<usize> {
    let slice = &text[range.clone()];
    let start_trim = slice.len()
        - slice
            .trim_start_matches(|c: char| c.is_whitespace() || c == '\u{feff}')
            .len();
    let inner = &slice[start_trim..];
    let end = start_trim + inner.trim_end().len();
    range.start + start_trim..range.start + end
}

/// The whitespace-separated words of `text[range]`, with their ranges.
pub fn words(text: &str, range: Range<usize>) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text[range.clone()].char_indices() {
        let at = range.start + i;
        if c.is_whitespace() {
            if let Some(s) = start.take() {
                out.push(s..at);
            }
        } else if start.is_none() {
            start = Some(at);
        }
    }
    if let Some(s) = start {
        out.push(s..range.end);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_end_at_every_line_break() {
        let text = "a\r\nbb\rc\n";
        let lines: Vec<&str> = Parsed::lines(text).into_iter().map(|r| &text[r]).collect();
        assert_eq!(lines, ["a", "bb", "c"]);
        assert_eq!(Parsed::lines("").len(), 1);
    }

    #[test]
    fn words_and_trimming_keep_offsets() {
        let text = "  v1  rnb w ";
        let found: Vec<&str> = words(text, 0..text.len())
            .into_iter()
            .map(|r| &text[r])
            .collect();
        assert_eq!(found, ["v1", "rnb", "w"]);
        assert_eq!(trimmed(text, 0..text.len()), 2..11);
    }

    #[test]
    fn runs_of_comment_lines_fold() {
        let text = "# a\n# b\nx\n# c\n";
        let comments = [0..3, 4..7, 10..13];
        let mut parsed = Parsed::new(Format::AnnoFen, "");
        parsed.comment_lines(text, &comments);
        assert_eq!(parsed.folds, [(0..7, true)]);
        assert_eq!(parsed.tokens.len(), 3);
    }
}
