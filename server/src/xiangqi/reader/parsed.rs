//! What reading a file in one of the xiangqi-setup formats gives, whatever the format: the
//! starting position, the moves of a WXF record, and everything the editor shows about the
//! text (diagnostics, highlighting, folds, the places completion works in).

use std::fmt;
use std::ops::Range;
use std::sync::Arc;

use crate::diagnostic::Diagnostic;
use crate::model::chunked::CHUNK;
use crate::model::features::{SemanticToken, TokenKind};
use crate::model::format::Format;

use crate::xiangqi::reader::position::Position;
use crate::xiangqi::wxf_move::WxfMove;

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
    pub fn tokens(&self) -> impl Iterator<Item = SemanticToken> {
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
            .clone()
            .map(|(_, range)| (range, TokenKind::Number))
            .into_iter()
            .chain(parts.into_iter().flatten())
            .filter(|(range, _)| !range.is_empty())
            .map(|(range, kind)| SemanticToken { range, kind })
    }
}

/// A full chunk of moves, with what a pass looking for the moves' problems needs to know of
/// them without reading each (see [`ChunkMarks`]).
pub struct MovesChunk {
    moves: Vec<WrittenMove>,
    marks: ChunkMarks,
}

impl std::ops::Deref for MovesChunk {
    type Target = [WrittenMove];

    #[inline]
    fn deref(&self) -> &[WrittenMove] {
        &self.moves
    }
}

/// Of a full chunk's moves: which are written in lower case and which name a piece's kind
/// (bit `i` for move `i`), and where the chunk must start for the move numbers written in
/// it to be right.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChunkMarks {
    pub lower_case: u64,
    pub lettered: u64,
    pub numbers: ChunkNumbers,
}

/// Where a chunk of moves must start, in a record Red opens, for every move number written
/// in it to be right: a number `n` on the chunk's move `i` is right when that move is move
/// `2n - 2` of the record (Red's move of pair `n`), or when it is a Black move (whose number
/// is not checked).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChunkNumbers {
    /// No move of the chunk is numbered.
    None,
    /// Every number is right when the chunk starts at this move of the record (which may
    /// be before the first one).
    RightFrom(i64),
    /// The numbers call for different starts: at most one of them can be right.
    Mixed,
}

impl ChunkMarks {
    fn of(moves: &[WrittenMove]) -> ChunkMarks {
        let mut marks = ChunkMarks {
            lower_case: 0,
            lettered: 0,
            numbers: ChunkNumbers::None,
        };
        for (index, written) in moves.iter().enumerate() {
            if let Some(parsed) = written.parsed {
                marks.lower_case |= u64::from(parsed.lower_case) << index;
                marks.lettered |= u64::from(parsed.kind.is_some()) << index;
            }
            if let Some((number, _)) = written.number {
                let start = 2 * i64::from(number) - 2 - index as i64;
                marks.numbers = match marks.numbers {
                    ChunkNumbers::None => ChunkNumbers::RightFrom(start),
                    ChunkNumbers::RightFrom(known) if known == start => marks.numbers,
                    _ => ChunkNumbers::Mixed,
                };
            }
        }
        marks
    }
}

/// The moves of a WXF record, in chunks of [`CHUNK`] behind `Arc`s that the readings of
/// later revisions share: an edit among the moves makes new chunks only from the moves it
/// changed, and takes over the full chunks after them with how far it moved their moves
/// along the text (the moves of a 100,000-move record take 5 MiB, which every edit copied).
#[derive(Clone, Default)]
pub struct WrittenMoves {
    /// Full chunks, never changed, each with how far its moves now lie from where they
    /// were read.
    full: Vec<(Arc<MovesChunk>, isize)>,
    /// The moves after them, fewer than [`CHUNK`], owned.
    tail: Vec<WrittenMove>,
}

impl WrittenMoves {
    pub fn new() -> WrittenMoves {
        WrittenMoves::default()
    }

    pub fn len(&self) -> usize {
        self.full.len() * CHUNK + self.tail.len()
    }

    pub fn is_empty(&self) -> bool {
        self.full.is_empty() && self.tail.is_empty()
    }

    /// Move `index`, where it now lies.
    #[inline]
    pub fn get(&self, index: usize) -> Option<WrittenMove> {
        match self.full.get(index / CHUNK) {
            Some((chunk, shift)) => chunk.get(index % CHUNK).map(|m| m.shifted(*shift)),
            None => self.tail.get(index - self.full.len() * CHUNK).cloned(),
        }
    }

    pub fn first(&self) -> Option<WrittenMove> {
        self.get(0)
    }

    pub fn iter(&self) -> impl Iterator<Item = WrittenMove> + '_ {
        self.iter_from(0)
    }

    /// The moves from move `start` on.
    pub fn iter_from(&self, start: usize) -> impl Iterator<Item = WrittenMove> + '_ {
        self.iter_as_read_from(start)
            .map(|(written, shift)| written.shifted(shift))
    }

    /// Each move as it was read, with how far it now lies from there: for a pass over every
    /// move that needs where few of them lie, or none.
    pub fn iter_as_read(&self) -> impl Iterator<Item = (&WrittenMove, isize)> + '_ {
        self.iter_as_read_from(0)
    }

    /// The moves as read, a chunk at a time (every chunk but the last holds [`CHUNK`]), each
    /// with how far its moves now lie from there.
    pub fn chunks_as_read(&self) -> impl Iterator<Item = (&[WrittenMove], isize)> + '_ {
        self.marked_chunks_as_read()
            .map(|(moves, shift, _)| (moves, shift))
    }

    /// [`WrittenMoves::chunks_as_read`], with the marks of each full chunk (none for the
    /// last one when it is not full).
    pub fn marked_chunks_as_read(
        &self,
    ) -> impl Iterator<Item = (&[WrittenMove], isize, Option<ChunkMarks>)> + '_ {
        (self
            .full
            .iter()
            .map(|(chunk, shift)| (&chunk.moves[..], *shift, Some(chunk.marks))))
        .chain(Some((self.tail.as_slice(), 0, None)).filter(|(tail, _, _)| !tail.is_empty()))
    }

    /// [`WrittenMoves::iter_as_read`] from move `start` on.
    pub fn iter_as_read_from(
        &self,
        start: usize,
    ) -> impl Iterator<Item = (&WrittenMove, isize)> + '_ {
        let first_chunk = (start / CHUNK).min(self.full.len());
        let in_tail = start.saturating_sub(self.full.len() * CHUNK);
        self.full[first_chunk..]
            .iter()
            .enumerate()
            .flat_map(move |(index, (chunk, shift))| {
                let skipped = if index == 0 { start % CHUNK } else { 0 };
                chunk[skipped..].iter().map(move |m| (m, *shift))
            })
            .chain(
                self.tail[in_tail.min(self.tail.len())..]
                    .iter()
                    .map(|m| (m, 0)),
            )
    }

    /// Whether the `chunk`th chunk of moves is one this list shares with `other` (where
    /// both have it full): the same moves, read once, wherever each list has them lie.
    pub fn shares_chunk(&self, other: &WrittenMoves, chunk: usize) -> bool {
        (self.full.get(chunk).zip(other.full.get(chunk)))
            .is_some_and(|((mine, _), (theirs, _))| Arc::ptr_eq(mine, theirs))
    }

    /// The number of moves before the first one for which `before` is false, `before`
    /// being true of a start of the moves and false of the rest (as [`slice::partition_point`]).
    pub fn partition_point(&self, before: impl Fn(&WrittenMove) -> bool) -> usize {
        let (mut low, mut high) = (0, self.len());
        while low < high {
            let middle = low + (high - low) / 2;
            match self.get(middle) {
                Some(m) if before(&m) => low = middle + 1,
                _ => high = middle,
            }
        }
        low
    }

    pub fn push(&mut self, written: WrittenMove) {
        if self.tail.capacity() == 0 {
            self.tail.reserve_exact(CHUNK);
        }
        self.tail.push(written);
        if self.tail.len() == CHUNK {
            let moves = std::mem::replace(&mut self.tail, Vec::with_capacity(CHUNK));
            let marks = ChunkMarks::of(&moves);
            self.full.push((Arc::new(MovesChunk { moves, marks }), 0));
        }
    }

    /// Appends `other[range]`, each move `delta` bytes further along the text, sharing
    /// `other`'s full chunks wherever they fall on this list's chunk boundaries.
    pub fn extend_from(&mut self, other: &WrittenMoves, range: Range<usize>, delta: isize) {
        let end = range.end.min(other.len());
        let mut index = range.start;
        while index < end {
            let whole = self.tail.is_empty()
                && index.is_multiple_of(CHUNK)
                && index + CHUNK <= end
                && index / CHUNK < other.full.len();
            if whole {
                let (chunk, shift) = &other.full[index / CHUNK];
                self.full.push((chunk.clone(), shift + delta));
                index += CHUNK;
            } else if let Some(written) = other.get(index) {
                self.push(written.shifted(delta));
                index += 1;
            }
        }
    }
}

impl FromIterator<WrittenMove> for WrittenMoves {
    fn from_iter<I: IntoIterator<Item = WrittenMove>>(moves: I) -> Self {
        let mut list = WrittenMoves::new();
        for written in moves {
            list.push(written);
        }
        list
    }
}

/// The moves where they now lie, however they are kept.
impl fmt::Debug for WrittenMoves {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
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
    pub moves: WrittenMoves,
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
            moves: WrittenMoves::new(),
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
                Some((current, count))
                    if text
                        .get(current.end..range.start)
                        .is_some_and(|between| between.trim().is_empty()) =>
                {
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
    fn written_moves_shared_by_revisions_lie_where_each_revision_has_them() {
        // Move `i` written at `10 * i`.
        let written = |index: usize| WrittenMove {
            range: 10 * index..10 * index + 4,
            parsed: None,
            number: (index.is_multiple_of(2))
                .then(|| (index as u32, 10 * index - 3..10 * index - 1)),
        };
        let old: WrittenMoves = (1..=300).map(written).collect();
        assert_eq!(old.len(), 300);
        assert!(old.iter().eq((1..=300).map(written)));
        for (keep, skip, delta) in [
            (0, 0, 5),
            (64, 0, -2),
            (100, 1, 7),
            (128, 128, 3),
            (5, 69, 0),
        ] {
            let mut new = WrittenMoves::new();
            new.extend_from(&old, 0..keep, 0);
            let inserted = WrittenMove {
                range: 10 * keep + 5..10 * keep + 7,
                parsed: None,
                number: None,
            };
            new.push(inserted.clone());
            new.extend_from(&old, keep + skip..old.len(), delta);
            // And once more, as the next revision would.
            let mut next = WrittenMoves::new();
            next.extend_from(&new, 0..new.len(), -1);
            let expected: Vec<WrittenMove> = (1..=keep)
                .map(written)
                .chain([inserted])
                .chain((keep + skip + 1..=300).map(|i| written(i).shifted(delta)))
                .collect();
            assert!(new.iter().eq(expected.iter().cloned()), "{keep} {skip}");
            assert!(
                next.iter().eq(expected.iter().map(|m| m.shifted(-1))),
                "{keep} {skip}"
            );
            assert_eq!(next.len(), expected.len());
            for start in [
                0,
                1,
                63,
                64,
                65,
                200,
                expected.len() - 1,
                expected.len(),
                1000,
            ] {
                assert!(
                    next.iter_from(start)
                        .eq(expected.iter().skip(start).map(|m| m.shifted(-1))),
                    "{keep} {skip} from {start}"
                );
            }
            for (index, m) in expected.iter().enumerate() {
                assert_eq!(next.get(index), Some(m.shifted(-1)));
                let at = m.range.start - 1;
                assert_eq!(next.partition_point(|m| m.range.start < at), index);
            }
            assert_eq!(next.get(expected.len()), None);
            // The full chunks after the change are shared when the change keeps the count.
            let shared = |a: &WrittenMoves, b: &WrittenMoves, chunk: usize| {
                (a.full.get(chunk).zip(b.full.get(chunk)))
                    .is_some_and(|(a, b)| Arc::ptr_eq(&a.0, &b.0))
            };
            assert!(shared(&new, &next, 0));
            assert_eq!(
                shared(&old, &new, 3),
                skip == 1 && keep < 192,
                "{keep} {skip}"
            );
        }
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
