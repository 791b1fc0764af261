//! Splitting a move into sub-moves and reading each one's MoveToken.

use std::borrow::Cow;
use std::collections::HashMap;
use std::ops::Range;
use std::sync::{Arc, Mutex};

use crate::ppn::reader::issue::Issue;
use crate::ppn::reader::location::{parse_location, Location, LocationKind};
use crate::ppn::reader::piece_id::{parse_piece_id, PieceId};
use crate::ppn::reader::piece_spec::{parse_piece_spec, ParserOptions, PieceSpec};
use crate::ppn::reader::{find_ascii, rfind_ascii, split_once_ascii};

/// One sub-move's text, with the byte in the token's text each of its bytes came from.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct SubmoveText<'a> {
    /// Borrowed from the token unless a character had to be rewritten (`‿`, `3?A`).
    pub(crate) text: Cow<'a, str>,
    origin: Origin,
}

/// Where a sub-move's bytes came from in the token's text.
#[derive(Clone, Debug, PartialEq)]
enum Origin {
    /// Byte `i` is byte `start + i` of the token (the text is a slice of it).
    Slice { start: usize },
    /// `bytes[i]` is where byte `i` came from; one extra entry for the end.
    Rewritten { bytes: Vec<usize> },
}

impl SubmoveText<'_> {
    pub(crate) fn map_range(&self, range: &Range<usize>) -> Range<usize> {
        let at = |i: usize| match &self.origin {
            Origin::Slice { start } => start + i.min(self.text.len()),
            Origin::Rewritten { bytes } => bytes[i.min(bytes.len() - 1)],
        };
        let start = at(range.start);
        let end = at(range.end).max(start);
        start..end
    }
}

/// The text of the sub-move at `part` of `text`: the slice itself, or with `‿` read as `_`
/// and `3?A` as `3&?A`.
fn submove_text(text: &str, part: Range<usize>, rewrite: bool) -> SubmoveText<'_> {
    if !rewrite {
        return SubmoveText {
            text: Cow::Borrowed(&text[part.clone()]),
            origin: Origin::Slice { start: part.start },
        };
    }
    let mut rewritten = String::with_capacity(part.len() + 4);
    let mut bytes = Vec::with_capacity(part.len() + 5);
    let mut push = |piece: &str, origin: usize| {
        rewritten.push_str(piece);
        bytes.extend(std::iter::repeat_n(origin, piece.len()));
    };
    // A part starts after whitespace or at `*`, `!` or `+`: no digit comes before it.
    let mut previous: Option<char> = None;
    for (offset, c) in text[part.clone()].char_indices() {
        let at = part.start + offset;
        match c {
            '\u{203f}' | '\u{035c}' => push("_", at),
            '?' if previous.is_some_and(|p| p.is_ascii_digit()) => push("&?", at),
            _ => {
                let mut buffer = [0u8; 4];
                push(c.encode_utf8(&mut buffer), at);
            }
        }
        previous = Some(c);
    }
    bytes.push(part.end);
    SubmoveText {
        text: Cow::Owned(rewritten),
        origin: Origin::Rewritten { bytes },
    }
}

/// Split one (macro-substituted) token into sub-moves: at whitespace (macro values may hold
/// several), before `*`, `!` and a flipping `+` (so `b5-c5*b4+` is three sub-moves), with
/// `‿` read as `_` and `3?A` as `3&?A`. The parts are read as they are asked for: a move
/// applies each one as it comes, with no list of them made.
pub(crate) fn split_submoves(text: &str) -> Submoves<'_> {
    Submoves {
        text,
        at: 0,
        previous: None,
    }
}

/// Whether `text` is one sub-move with nothing to rewrite, seen from its bytes alone: the
/// usual token, printable ASCII without `*`, `!`, `+`, or a `?` after a digit.
fn is_one_plain_part(text: &str) -> bool {
    let mut previous = 0u8;
    !text.is_empty()
        && text.bytes().all(|byte| {
            let plain = byte.is_ascii_graphic()
                && !matches!(byte, b'*' | b'!' | b'+')
                && !(byte == b'?' && previous.is_ascii_digit());
            previous = byte;
            plain
        })
}

/// The sub-moves of a token, one by one (see [`split_submoves`]).
pub(crate) struct Submoves<'a> {
    text: &'a str,
    /// Where the next part is looked for.
    at: usize,
    /// The character before `at`.
    previous: Option<char>,
}

impl<'a> Iterator for Submoves<'a> {
    type Item = SubmoveText<'a>;

    fn next(&mut self) -> Option<SubmoveText<'a>> {
        let text = self.text;
        if self.at == 0 && is_one_plain_part(text) {
            self.at = text.len();
            return Some(submove_text(text, 0..text.len(), false));
        }
        // The part being read: where it starts, and whether a character in it is rewritten.
        let mut current: Option<(usize, bool)> = None;
        let bytes = text.as_bytes();
        let mut at = self.at;
        while at < bytes.len() {
            // An ASCII byte is its character; only other characters need decoding.
            let c = if bytes[at].is_ascii() {
                char::from(bytes[at])
            } else {
                text[at..].chars().next()?
            };
            let whitespace = c.is_whitespace();
            let starts_part = whitespace
                || matches!(c, '*' | '!')
                || (c == '+' && !matches!(self.previous, Some('(' | '<' | ',')));
            if starts_part {
                if let Some((start, rewrite)) = current {
                    // `c` is read again by the next call, which starts a part with it.
                    self.at = at;
                    return Some(submove_text(text, start..at, rewrite));
                }
            }
            if !whitespace {
                let rewrite = matches!(c, '\u{203f}' | '\u{035c}')
                    || (c == '?' && self.previous.is_some_and(|p| p.is_ascii_digit()));
                match &mut current {
                    Some((_, rewritten)) => *rewritten |= rewrite,
                    None => current = Some((at, rewrite)),
                }
            }
            self.previous = Some(c);
            at += c.len_utf8();
        }
        self.at = text.len();
        let (start, rewrite) = current?;
        Some(submove_text(text, start..text.len(), rewrite))
    }
}

/// Sub-moves as read, by their text, for one game (one set of parser options). A long game
/// repeats its sub-moves, and an edit that changes every later board replays each later
/// move from the same text as before: reading each text once spares most of that work.
/// Shared by a game's states and by its revisions; bounded, past the bound texts are read
/// each time.
#[derive(Debug, Default)]
pub(crate) struct ReadSubmoves {
    read: Mutex<HashMap<Box<str>, Arc<ReadSubmove>, foldhash::fast::RandomState>>,
}

/// A sub-move's reading: what it says (or why it cannot be read), and the notes made while
/// reading it.
#[derive(Debug)]
pub(crate) struct ReadSubmove {
    pub(crate) submove: Result<Submove, Issue>,
    pub(crate) notes: Vec<Issue>,
}

/// The most sub-move texts a game keeps read: some megabytes.
const MOST_READ_SUBMOVES: usize = 1 << 15;

/// A sub-move's reading, kept for later revisions or made for this use only.
// Made and used in place, never stored in numbers: boxing the fresh reading would
// allocate for every sub-move of a first replay.
#[allow(clippy::large_enum_variant)]
pub(crate) enum Reading {
    Kept(Arc<ReadSubmove>),
    Fresh(ReadSubmove),
}

impl std::ops::Deref for Reading {
    type Target = ReadSubmove;

    fn deref(&self) -> &ReadSubmove {
        match self {
            Reading::Kept(read) => read,
            Reading::Fresh(read) => read,
        }
    }
}

impl ReadSubmove {
    pub(crate) fn of(text: &str, options: &ParserOptions) -> ReadSubmove {
        let mut notes = Vec::new();
        let submove = parse_submove(text, options, &mut notes);
        ReadSubmove { submove, notes }
    }
}

impl ReadSubmoves {
    pub(crate) fn read(&self, text: &str, options: &ParserOptions) -> Arc<ReadSubmove> {
        // A panic while the map was held leaves it poisoned: then every text is read anew.
        if let Some(read) = self
            .read
            .lock()
            .ok()
            .and_then(|read| read.get(text).cloned())
        {
            return read;
        }
        let read = Arc::new(ReadSubmove::of(text, options));
        if let Ok(mut kept) = self.read.lock() {
            if kept.len() < MOST_READ_SUBMOVES {
                kept.insert(text.into(), Arc::clone(&read));
            }
        }
        read
    }
}

/// A sub-move, read.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Submove {
    /// `@` / `\` (with `%` and the `@%` / `\%` shortcuts).
    Drop {
        spec: Box<PieceSpec>,
        spec_range: Range<usize>,
        location: Location,
        order: Option<PieceId>,
        below: bool,
    },
    /// `-` / `_` (with `%` and the `-%` / `_%` shortcuts) and `!`.
    Move {
        target: PieceId,
        location: Location,
        order: Option<PieceId>,
        below: bool,
    },
    Remove(PieceId),
    Flip(PieceId),
    /// `@>` and `$>`: clockwise degrees, around `center` if given.
    Rotate {
        target: PieceId,
        degrees: f64,
        center: Option<Location>,
    },
    /// `~`
    Update {
        target: PieceId,
        spec: Box<PieceSpec>,
        spec_range: Range<usize>,
    },
    /// `=`
    Replace {
        target: PieceId,
        spec: Box<PieceSpec>,
        spec_range: Range<usize>,
    },
    /// `:`
    Capture {
        mover: PieceId,
        captured: PieceId,
    },
    /// `#`
    Swap(PieceId, PieceId),
}

fn char_before(text: &str, at: usize) -> Option<char> {
    text[..at].chars().next_back()
}

/// `-` that moves, not the sign of a number: `(−1,2)`, `<-1,0>`, `,a-90`.
fn is_hyphen(text: &str, at: usize) -> bool {
    if !text[at..].starts_with('-') {
        return false;
    }
    let before = &text[..at];
    match before.chars().next_back() {
        Some('(' | ',') => false,
        Some('<') => !starts_offset_body(&text[at..]),
        Some('a') => !before.ends_with(",a"),
        _ => true,
    }
}

/// Whether `text` (just after a `<`) reads as the inside of `<x,y>`.
fn starts_offset_body(text: &str) -> bool {
    let Some(close) = find_ascii(text, b'>') else {
        return false;
    };
    split_once_ascii(&text[..close], b',').is_some_and(|(x, y)| {
        x.parse::<f64>().is_ok() && y.trim_start_matches('+').parse::<f64>().is_ok()
    })
}

fn is_plus(text: &str, at: usize) -> bool {
    text[at..].starts_with('+') && !matches!(char_before(text, at), Some('(' | '<' | ','))
}

/// `:` outside the brackets of a slice such as `b4[1:3]`.
fn is_colon(text: &str, at: usize) -> bool {
    if !text[at..].starts_with(':') {
        return false;
    }
    let rest = &text[at + 1..];
    match rest.find([']', '[']) {
        Some(p) => !rest[p..].starts_with(']'),
        None => true,
    }
}

/// `_` that moves, not part of a configuration name such as `,dominoes_red'`: a `,`, then
/// only letters, digits and `_` around it up to a `'` (the `,` of `(5.5,5)_2E$?f,dominoes'`
/// opens no name).
fn is_underscore(text: &str, at: usize) -> bool {
    if !text[at..].starts_with('_') {
        return false;
    }
    let name_byte = |b: &u8| b.is_ascii_alphanumeric() || *b == b'_';
    let in_name = rfind_ascii(&text[..at], b',')
        .is_some_and(|comma| text.as_bytes()[comma + 1..at].iter().all(name_byte))
        && find_ascii(&text[at..], b'\'')
            .is_some_and(|quote| text.as_bytes()[at..at + quote].iter().all(name_byte));
    !in_name
}

/// `\` that drops, not the right half of the pyramid `/\`.
fn is_backslash(text: &str, at: usize) -> bool {
    text[at..].starts_with('\\') && char_before(text, at) != Some('/')
}

/// The MoveTokens, in the order in which the reference looks for them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum MoveToken {
    RotateAroundItself,
    Rotate,
    DropAbovePiece,
    Drop,
    MoveAbovePiece,
    Move,
    Remove,
    Flip,
    Update,
    Replace,
    Capture,
    MoveBelowPiece,
    MoveBelow,
    DropBelowPiece,
    DropBelow,
    Swap,
    MoveToTop,
}

impl MoveToken {
    const ORDER: [MoveToken; 17] = [
        MoveToken::RotateAroundItself,
        MoveToken::Rotate,
        MoveToken::DropAbovePiece,
        MoveToken::Drop,
        MoveToken::MoveAbovePiece,
        MoveToken::Move,
        MoveToken::Remove,
        MoveToken::Flip,
        MoveToken::Update,
        MoveToken::Replace,
        MoveToken::Capture,
        MoveToken::MoveBelowPiece,
        MoveToken::MoveBelow,
        MoveToken::DropBelowPiece,
        MoveToken::DropBelow,
        MoveToken::Swap,
        MoveToken::MoveToTop,
    ];

    fn text(self) -> &'static str {
        match self {
            MoveToken::RotateAroundItself => "$>",
            MoveToken::Rotate => "@>",
            MoveToken::DropAbovePiece => "@%",
            MoveToken::Drop => "@",
            MoveToken::MoveAbovePiece => "-%",
            MoveToken::Move => "-",
            MoveToken::Remove => "*",
            MoveToken::Flip => "+",
            MoveToken::Update => "~",
            MoveToken::Replace => "=",
            MoveToken::Capture => ":",
            MoveToken::MoveBelowPiece => "_%",
            MoveToken::MoveBelow => "_",
            MoveToken::DropBelowPiece => "\\%",
            MoveToken::DropBelow => "\\",
            MoveToken::Swap => "#",
            MoveToken::MoveToTop => "!",
        }
    }

    /// Whether the MoveToken's characters stand at byte `at`. Compared byte by byte: for
    /// texts of one or two bytes, `starts_with` calls `memcmp`.
    fn written_at(self, text: &str, at: usize) -> bool {
        let bytes = text.as_bytes();
        self.text()
            .bytes()
            .enumerate()
            .all(|(offset, byte)| bytes.get(at + offset) == Some(&byte))
    }

    /// Whether this MoveToken starts at byte `at`, by the grammar.
    fn is_at(self, text: &str, at: usize) -> bool {
        let percent_after = || text[at + 1..].starts_with('%');
        match self {
            MoveToken::Move => is_hyphen(text, at),
            MoveToken::Flip => is_plus(text, at),
            MoveToken::Capture => is_colon(text, at),
            MoveToken::MoveBelowPiece => is_underscore(text, at) && percent_after(),
            MoveToken::MoveBelow => is_underscore(text, at),
            MoveToken::DropBelowPiece => is_backslash(text, at) && percent_after(),
            MoveToken::DropBelow => is_backslash(text, at),
            _ => self.written_at(text, at),
        }
    }

    /// Whether the grammar and the reference see this MoveToken at the same places
    /// (`is_at` and `reference_is_at` agree everywhere).
    fn reads_as_the_reference(self) -> bool {
        !matches!(
            self,
            MoveToken::Move
                | MoveToken::MoveBelowPiece
                | MoveToken::MoveBelow
                | MoveToken::DropBelowPiece
                | MoveToken::DropBelow
        )
    }

    /// Whether the reference implementation sees this MoveToken at byte `at`.
    fn reference_is_at(self, text: &str, at: usize) -> bool {
        match self {
            MoveToken::Move => {
                text[at..].starts_with('-')
                    && !matches!(char_before(text, at), Some('(' | '<' | ','))
            }
            MoveToken::Flip => is_plus(text, at),
            MoveToken::Capture => is_colon(text, at),
            _ => self.written_at(text, at),
        }
    }

    /// Byte offsets where the MoveToken may start: every MoveToken begins with an ASCII
    /// character, so only the bytes equal to it need a closer look.
    fn candidates(self, text: &str) -> impl Iterator<Item = usize> + '_ {
        let first = self.text().as_bytes()[0];
        text.bytes()
            .enumerate()
            .filter(move |(_, byte)| *byte == first)
            .map(|(at, _)| at)
    }

    /// Where the MoveToken first occurs in `text`, and where again, if it does.
    fn positions(self, text: &str) -> Positions {
        let mut found = self.candidates(text).filter(|i| self.is_at(text, *i));
        Positions {
            first: found.next().unwrap_or(0),
            second: found.next(),
        }
    }

    /// The MoveTokens that decide what a sub-move does, by the grammar and by the
    /// reference: the first one in the reference's order that the text holds.
    /// `present[b]` tells whether the text holds the ASCII byte `b`: every MoveToken
    /// starts with an ASCII byte, and those the text lacks need no search.
    fn of(text: &str, present: &[bool; 128]) -> (Option<MoveToken>, Option<MoveToken>) {
        let mut grammar = None;
        let mut reference = None;
        for token in MoveToken::ORDER {
            if !present[usize::from(token.text().as_bytes()[0])] {
                continue;
            }
            if grammar.is_none() && reference.is_none() && token.reads_as_the_reference() {
                // One search decides both.
                if token.candidates(text).any(|i| token.is_at(text, i)) {
                    return (Some(token), Some(token));
                }
                continue;
            }
            if grammar.is_none() && token.candidates(text).any(|i| token.is_at(text, i)) {
                grammar = Some(token);
            }
            if reference.is_none()
                && token
                    .candidates(text)
                    .any(|i| token.reference_is_at(text, i))
            {
                reference = Some(token);
            }
            if grammar.is_some() && reference.is_some() {
                break;
            }
        }
        (grammar, reference)
    }
}

/// Where a sub-move's MoveToken is: a second one is ignored, and any after it.
#[derive(Clone, Copy)]
struct Positions {
    first: usize,
    second: Option<usize>,
}

struct Reader<'a> {
    text: &'a str,
    options: &'a ParserOptions,
    notes: &'a mut Vec<Issue>,
}

impl Reader<'_> {
    fn piece_id(&mut self, range: Range<usize>) -> Result<PieceId, Issue> {
        parse_piece_id(
            &self.text[range.clone()],
            range.start,
            self.options,
            self.notes,
        )
    }

    fn location(&mut self, range: Range<usize>) -> Result<Location, Issue> {
        parse_location(
            &self.text[range.clone()],
            range.start,
            self.options,
            self.notes,
        )
    }

    fn spec(&mut self, range: Range<usize>) -> Box<PieceSpec> {
        let spec = parse_piece_spec(&self.text[range.clone()], self.options);
        self.notes.extend(
            spec.warnings
                .iter()
                .cloned()
                .map(|w| w.shifted(range.start)),
        );
        Box::new(spec)
    }

    /// Split at the MoveToken found at `positions` (of length `width`): the part before the
    /// first one and the part up to the second one; more is ignored with a warning.
    fn halves(&mut self, positions: Positions, width: usize) -> (Range<usize>, Range<usize>) {
        let first = positions.first;
        let end = match positions.second {
            Some(second) => {
                self.notes.push(Issue::warning(
                    second..self.text.len(),
                    "trailing-text",
                    format!(
                        "`{}` is ignored: a sub-move has one MoveToken",
                        &self.text[second..]
                    ),
                ));
                second
            }
            None => self.text.len(),
        };
        (0..first, first + width..end)
    }

    /// `Location%PieceId` or just `Location`.
    fn location_and_order(
        &mut self,
        range: Range<usize>,
    ) -> Result<(Location, Option<PieceId>), Issue> {
        match find_ascii(&self.text[range.clone()], b'%') {
            Some(p) => {
                let percent = range.start + p;
                let after = &self.text[percent + 1..range.end];
                let order_end = find_ascii(after, b'%').map_or(range.end, |q| percent + 1 + q);
                let location = self.location(range.start..percent)?;
                let order = self.piece_id(percent + 1..order_end)?;
                Ok((location, Some(order)))
            }
            None => Ok((self.location(range)?, None)),
        }
    }

    /// The shortcut target of `@%`, `-%` ...: both where to go and what to go above/below.
    fn shortcut_target(
        &mut self,
        range: Range<usize>,
    ) -> Result<(Location, Option<PieceId>), Issue> {
        let order = self.piece_id(range.clone())?;
        let location = Location {
            kind: LocationKind::OfPiece(Box::new(order.clone())),
            range,
        };
        Ok((location, Some(order)))
    }

    fn degrees(&mut self, range: Range<usize>) -> Result<f64, Issue> {
        let text = &self.text[range.clone()];
        text.strip_prefix('+')
            .unwrap_or(text)
            .parse::<f64>()
            .ok()
            .filter(|d| d.is_finite())
            .ok_or_else(|| {
                Issue::error(
                    range,
                    "bad-move",
                    format!(
                        "`{}` is not a number of degrees",
                        crate::diagnostic::excerpt(text)
                    ),
                )
            })
    }
}

/// Bound on `^`, `&`, `|` and `$` in one sub-move, which nest PieceIds and Locations; it
/// keeps the recursive reading of absurd input from exhausting the stack.
const MAX_NESTING: usize = 64;

/// Read one sub-move. Which MoveToken it has is decided in the reference's order (so that
/// the same text means the same thing), except that signs of numbers, the `/\` pyramid,
/// underscores in configuration names and `:` inside slices are never taken for
/// MoveTokens; where that makes the reference read the text differently, a warning says so.
pub(crate) fn parse_submove(
    text: &str,
    options: &ParserOptions,
    notes: &mut Vec<Issue>,
) -> Result<Submove, Issue> {
    let mut r = Reader {
        text,
        options,
        notes,
    };
    let whole = 0..text.len();
    // One pass over the text: which ASCII bytes it holds, and how deep it nests.
    // A table rather than a 128-bit set: a flag is set with one store, where setting a
    // bit of a `u128` by a variable shift takes several instructions.
    let mut present = [false; 128];
    let mut nesting = 0;
    for byte in text.bytes() {
        if byte.is_ascii() {
            present[usize::from(byte)] = true;
            nesting += usize::from(matches!(byte, b'^' | b'&' | b'|' | b'$'));
        }
    }
    if nesting > MAX_NESTING {
        return Err(Issue::error(
            whole,
            "bad-move",
            format!("this sub-move nests PieceIds and Locations more than {MAX_NESTING} deep"),
        ));
    }
    let (token, reference) = MoveToken::of(text, &present);
    if token != reference {
        let reading = match reference {
            Some(other) => format!("reads this sub-move as a `{}` move", other.text()),
            None => "rejects this sub-move".to_string(),
        };
        r.notes.push(Issue::warning(
            whole.clone(),
            "reference-differs",
            format!("the reference implementation {reading}"),
        ));
    }
    let Some(token) = token else {
        return Err(Issue::error(
            whole,
            "bad-move",
            format!(
                "`{}` has no MoveToken (`@`, `-`, `_`, `*`, `+`, `~`, `=`, `:`, `#`, `@>`, ...)",
                crate::diagnostic::excerpt(text)
            ),
        ));
    };
    let positions = token.positions(text);
    let width = token.text().len();
    let prefix_only = |name: &str| -> Result<Range<usize>, Issue> {
        if positions.first == 0 {
            Ok(width..text.len())
        } else {
            Err(Issue::error(
                0..positions.first,
                "bad-move",
                format!("`{name}` goes before the PieceId"),
            ))
        }
    };
    match token {
        MoveToken::RotateAroundItself => {
            let (target, angle) = r.halves(positions, width);
            let target = r.piece_id(target)?;
            let degrees = r.degrees(angle)?;
            let center = Location {
                range: target.range.clone(),
                kind: LocationKind::OfPiece(Box::new(target.clone())),
            };
            Ok(Submove::Rotate {
                target,
                degrees,
                center: Some(center),
            })
        }
        MoveToken::Rotate => {
            let (target, angle) = r.halves(positions, width);
            let target = r.piece_id(target)?;
            let angle_text = &text[angle.clone()];
            let (degrees, center) = if let Some(p) = find_ascii(angle_text, b'|') {
                let split = angle.start + p;
                let degrees = r.degrees(angle.start..split)?;
                (degrees, Some(r.location(split + 1..angle.end)?))
            } else if let Some(p) = find_ascii(angle_text, b'$') {
                let split = angle.start + p;
                let degrees = r.degrees(angle.start..split)?;
                let anchor = r.piece_id(split + 1..angle.end)?;
                let center = Location {
                    range: anchor.range.clone(),
                    kind: LocationKind::OfPiece(Box::new(anchor)),
                };
                (degrees, Some(center))
            } else {
                (r.degrees(angle)?, None)
            };
            Ok(Submove::Rotate {
                target,
                degrees,
                center,
            })
        }
        MoveToken::DropAbovePiece
        | MoveToken::Drop
        | MoveToken::DropBelowPiece
        | MoveToken::DropBelow => {
            let (spec, target) = r.halves(positions, width);
            let (location, order) = match token {
                MoveToken::DropAbovePiece | MoveToken::DropBelowPiece => {
                    r.shortcut_target(target)?
                }
                _ => r.location_and_order(target)?,
            };
            Ok(Submove::Drop {
                spec: r.spec(spec.clone()),
                spec_range: spec,
                location,
                order,
                below: matches!(token, MoveToken::DropBelowPiece | MoveToken::DropBelow),
            })
        }
        MoveToken::MoveAbovePiece
        | MoveToken::Move
        | MoveToken::MoveBelowPiece
        | MoveToken::MoveBelow => {
            let (target, destination) = r.halves(positions, width);
            let target = r.piece_id(target)?;
            let (location, order) = match token {
                MoveToken::MoveAbovePiece | MoveToken::MoveBelowPiece => {
                    r.shortcut_target(destination)?
                }
                _ => r.location_and_order(destination)?,
            };
            Ok(Submove::Move {
                target,
                location,
                order,
                below: matches!(token, MoveToken::MoveBelowPiece | MoveToken::MoveBelow),
            })
        }
        MoveToken::Remove => Ok(Submove::Remove(r.piece_id(prefix_only("*")?)?)),
        MoveToken::Flip => Ok(Submove::Flip(r.piece_id(prefix_only("+")?)?)),
        MoveToken::MoveToTop => Ok(Submove::Move {
            target: r.piece_id(prefix_only("!")?)?,
            location: Location {
                kind: LocationKind::Relative {
                    dx: 0.0,
                    dy: 0.0,
                    anchor: None,
                },
                range: whole,
            },
            order: None,
            below: false,
        }),
        MoveToken::Update => {
            let (target, spec) = r.halves(positions, width);
            let target = r.piece_id(target)?;
            Ok(Submove::Update {
                target,
                spec: r.spec(spec.clone()),
                spec_range: spec,
            })
        }
        MoveToken::Replace => {
            let (target, spec) = r.halves(positions, width);
            let target = r.piece_id(target)?;
            Ok(Submove::Replace {
                target,
                spec: r.spec(spec.clone()),
                spec_range: spec,
            })
        }
        MoveToken::Capture => {
            let (mover, captured) = r.halves(positions, width);
            Ok(Submove::Capture {
                mover: r.piece_id(mover)?,
                captured: r.piece_id(captured)?,
            })
        }
        MoveToken::Swap => {
            let (first, second) = r.halves(positions, width);
            Ok(Submove::Swap(r.piece_id(first)?, r.piece_id(second)?))
        }
    }
}

/// Whether a Location's anchor mentions a PieceId (used by tests).
#[cfg(test)]
fn anchor_piece(location: &Location) -> Option<&PieceId> {
    match &location.kind {
        LocationKind::Relative {
            anchor: Some(anchor),
            ..
        } => match anchor.as_ref() {
            crate::ppn::reader::location::Anchor::Piece(piece) => Some(piece),
            crate::ppn::reader::location::Anchor::Location(_) => None,
        },
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(token: &str) -> Vec<String> {
        split_submoves(token).map(|s| s.text.into_owned()).collect()
    }

    /// The parts of a token as first split: all at once, in one pass.
    fn split_at_once(text: &str) -> Vec<SubmoveText<'_>> {
        let mut parts = Vec::new();
        let mut current: Option<(usize, bool)> = None;
        let mut previous: Option<char> = None;
        for (at, c) in text.char_indices() {
            let whitespace = c.is_whitespace();
            let starts_part = whitespace
                || matches!(c, '*' | '!')
                || (c == '+' && !matches!(previous, Some('(' | '<' | ',')));
            if starts_part {
                if let Some((start, rewrite)) = current.take() {
                    parts.push(submove_text(text, start..at, rewrite));
                }
            }
            if !whitespace {
                let rewrite = matches!(c, '\u{203f}' | '\u{035c}')
                    || (c == '?' && previous.is_some_and(|p| p.is_ascii_digit()));
                match &mut current {
                    Some((_, rewritten)) => *rewritten |= rewrite,
                    None => current = Some((at, rewrite)),
                }
            }
            previous = Some(c);
        }
        if let Some((start, rewrite)) = current {
            parts.push(submove_text(text, start..text.len(), rewrite));
        }
        parts
    }

    /// The MoveTokens of a sub-move as first looked for: grammar and reference each
    /// searched for every MoveToken.
    fn move_tokens_searched_apart(text: &str) -> (Option<MoveToken>, Option<MoveToken>) {
        let find = |is_at: fn(MoveToken, &str, usize) -> bool| {
            MoveToken::ORDER
                .into_iter()
                .find(|token| token.candidates(text).any(|i| is_at(*token, text, i)))
        };
        (find(MoveToken::is_at), find(MoveToken::reference_is_at))
    }

    #[test]
    fn a_move_token_is_written_where_the_text_starts_with_it() {
        for text in [
            "", "@", "@>", "S@b2", "b2$>90", "b2@%c3", "_%", "\\", "a\\%b", "é@>",
        ] {
            for token in MoveToken::ORDER {
                for at in (0..=text.len()).filter(|&at| text.is_char_boundary(at)) {
                    assert_eq!(
                        token.written_at(text, at),
                        text[at..].starts_with(token.text()),
                        "{token:?} at {at} of {text}"
                    );
                }
            }
        }
    }

    #[test]
    fn move_tokens_searched_together_are_those_searched_apart() {
        for text in [
            "",
            "b2",
            "b2-b4",
            "S@b2",
            "S\\b2",
            "f3W/\\@<1,0>|d3",
            "b2_%c3",
            "?S<-b2",
            "b2-<-1,0>",
            "b2=S,a-90",
            "f13:a7[1]",
            "b4[1:3]:c2",
            "?/\\K#c3",
            "b2@>90$c3",
            "a1-<1,1>$?S",
            "b2$>90",
            "*b2",
            "+",
            "!",
            "b2~S",
            "b2_c3",
            "a_b'_c",
            ",dominoes_red'",
            "(5.5,5)_2E$?f,dominoes'",
            "(5,3)_%?>f,piecepack'",
            "(-1,2)-b2",
            "b2@%c3",
            "b2-%c3",
            "b2\\%c3",
            "x:y:z",
            "<-1,0>_b2",
            "a-90_b",
        ] {
            let mut present = [false; 128];
            for byte in text.bytes().filter(u8::is_ascii) {
                present[usize::from(byte)] = true;
            }
            assert_eq!(
                MoveToken::of(text, &present),
                move_tokens_searched_apart(text),
                "{text}"
            );
        }
    }

    #[test]
    fn parts_read_one_by_one_are_the_parts_split_at_once() {
        for token in [
            "",
            " ",
            "b2-b4",
            "b5-c5*b4*b3",
            "a4-b5+",
            "+",
            "++",
            "*",
            "**b2",
            "!",
            "a!b",
            "3?Sa$>90!",
            "b2-<+1,0>",
            "(+1,2)+",
            ",+",
            "d2‿&d1+",
            "3?A",
            "a b\tc\u{a0}d",
            "  *b2  +c3 ",
            "x͜y*",
            "?3?A+(1,+2)*",
            "é+ü*",
            "a1",
            "S@b2",
            "(1,2)-<0,1>",
            "b2=S,a-90",
            "a4[1]-1UL|(6.5,1)",
            "`S7'\\(13,10)%h2;",
            "a\u{7f}b",
            "a\u{0}b",
            "?S5-b2",
            "3?A@b2",
            "?3?A",
            "a?",
            "?",
            "1?",
            "?C4c-(1,2)",
        ] {
            assert_eq!(
                split_submoves(token).collect::<Vec<_>>(),
                split_at_once(token),
                "{token}"
            );
        }
    }

    fn parse(text: &str) -> Submove {
        parse_submove(text, &ParserOptions::default(), &mut Vec::new()).expect(text)
    }

    #[test]
    fn splitting_keeps_origins() {
        assert_eq!(texts("b5-c5*b4*b3"), ["b5-c5", "*b4", "*b3"]);
        assert_eq!(texts("a4-b5+"), ["a4-b5", "+"]);
        assert_eq!(texts("3?Sa$>90!"), ["3&?Sa$>90", "!"]);
        assert_eq!(texts("b2-<+1,0>"), ["b2-<+1,0>"]);
        let parts: Vec<_> = split_submoves("d2‿&d1+").collect();
        assert_eq!(parts[0].text, "d2_&d1");
        assert_eq!(parts[0].map_range(&(2..3)), 2..5);
        assert_eq!(parts[1].map_range(&(0..1)), 8..9);
        let nearest: Vec<_> = split_submoves("3?A").collect();
        assert_eq!(nearest[0].map_range(&(1..4)), 1..3);
    }

    #[test]
    fn move_tokens() {
        assert!(matches!(
            parse("S@b2"),
            Submove::Drop {
                below: false,
                order: None,
                ..
            }
        ));
        assert!(matches!(parse("S\\b2"), Submove::Drop { below: true, .. }));
        assert!(matches!(
            parse("f3W/\\@<1,0>|d3"),
            Submove::Drop { below: false, .. }
        ));
        assert!(matches!(
            parse("b2_%c3"),
            Submove::Move {
                below: true,
                order: Some(_),
                ..
            }
        ));
        assert!(matches!(parse("?S<-b2"), Submove::Move { .. }));
        assert!(matches!(parse("b2-<-1,0>"), Submove::Move { .. }));
        assert!(matches!(parse("b2=S,a-90"), Submove::Replace { .. }));
        assert!(matches!(parse("f13:a7[1]"), Submove::Capture { .. }));
        assert!(matches!(parse("b4[1:3]:c2"), Submove::Capture { .. }));
        assert!(matches!(parse("?/\\K#c3"), Submove::Swap(..)));
        let Submove::Rotate {
            degrees, center, ..
        } = parse("b2@>90$c3")
        else {
            panic!("not a rotation");
        };
        assert_eq!(degrees, 90.0);
        assert_eq!(center.map(|c| c.range), Some(7..9));
        let Submove::Move { location, .. } = parse("a1-<1,1>$?S") else {
            panic!("not a move");
        };
        assert_eq!(
            anchor_piece(&location).map(|p| p.range.clone()),
            Some(9..11)
        );
    }

    #[test]
    fn trailing_parts_are_warned_about() {
        let mut notes = Vec::new();
        let parsed = parse_submove("b2-b4-c4", &ParserOptions::default(), &mut notes);
        assert!(matches!(parsed, Ok(Submove::Move { .. })));
        assert_eq!(
            (notes[0].code, notes[0].range.clone()),
            ("trailing-text", 5..8)
        );
        let error = parse_submove("b2", &ParserOptions::default(), &mut Vec::new()).unwrap_err();
        assert_eq!(error.code, "bad-move");
    }

    #[test]
    fn a_sub_move_is_read_once_per_text_and_reads_as_parsing_it_does() {
        let options = ParserOptions::default();
        let read = ReadSubmoves::default();
        for text in ["b2-b4", "S@b2", "b2", "t@(1.5,1.5)", "b2-b4-c4", "b2-b4"] {
            let mut notes = Vec::new();
            let parsed = parse_submove(text, &options, &mut notes);
            let first = read.read(text, &options);
            assert_eq!(first.submove, parsed, "{text}");
            assert_eq!(first.notes, notes, "{text}");
            assert!(Arc::ptr_eq(&first, &read.read(text, &options)), "{text}");
        }
        assert_eq!(read.read.lock().map(|kept| kept.len()).ok(), Some(5));
    }

    #[test]
    fn sub_moves_read_past_the_bound_are_not_kept() {
        let options = ParserOptions::default();
        let read = ReadSubmoves::default();
        for column in 0..MOST_READ_SUBMOVES + 10 {
            read.read(&format!("S@({column},1)"), &options);
        }
        assert_eq!(
            read.read.lock().map(|kept| kept.len()).ok(),
            Some(MOST_READ_SUBMOVES)
        );
        let past = read.read("S@(-1,1)", &options);
        assert!(!Arc::ptr_eq(&past, &read.read("S@(-1,1)", &options)));
    }
}
