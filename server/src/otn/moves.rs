//! OTN move records: `e5-e8xe9`, `Ke1-a1--`, `Ne6^=e8xce7/ne9/f8/d8`, `---`, and the
//! `.....` placeholders of variations, each part with its byte range.

use std::fmt::Write as _;
use std::ops::Range;

use super::board::{Man, Square};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveType {
    /// `-`
    Move,
    /// `^`
    Jump,
    /// `=`
    Berserk,
    /// `^=`
    BerserkJump,
}

impl MoveType {
    pub fn symbol(self) -> &'static str {
        match self {
            MoveType::Move => "-",
            MoveType::Jump => "^",
            MoveType::Berserk => "=",
            MoveType::BerserkJump => "^=",
        }
    }

    pub fn is_jump(self) -> bool {
        matches!(self, MoveType::Jump | MoveType::BerserkJump)
    }

    pub fn is_berserk(self) -> bool {
        matches!(self, MoveType::Berserk | MoveType::BerserkJump)
    }

    pub fn of(jump: bool, berserk: bool) -> MoveType {
        match (jump, berserk) {
            (false, false) => MoveType::Move,
            (true, false) => MoveType::Jump,
            (false, true) => MoveType::Berserk,
            (true, true) => MoveType::BerserkJump,
        }
    }
}

/// What a move's trailing symbol claims.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Info {
    /// `+`: the king may be captured next turn (or, in Damian Walker's notation, the mover
    /// threatens to win).
    Threat,
    /// `-`: the king has a way to escape.
    EscapeRoute,
    /// `++`: the king is captured, the game ends.
    KingCaptured,
    /// `--`: the king escapes, the game ends.
    KingEscaped,
}

impl Info {
    pub fn symbol(self) -> &'static str {
        match self {
            Info::Threat => "+",
            Info::EscapeRoute => "-",
            Info::KingCaptured => "++",
            Info::KingEscaped => "--",
        }
    }

    pub fn meaning(self) -> &'static str {
        match self {
            Info::Threat => "the king may be captured next turn",
            Info::EscapeRoute => "the king has a way to escape",
            Info::KingCaptured => "the king is captured: the game ends",
            Info::KingEscaped => "the king escapes: the game ends",
        }
    }
}

/// One square of a capture record (`xe9`, `/ce7`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CaptureRecord {
    pub man: Option<Man>,
    pub square: Square,
    /// The man letter (if any) and the square, without the `x` or `/`.
    pub range: Range<usize>,
}

/// A move record as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRecord {
    pub range: Range<usize>,
    pub mover: Option<(Man, Range<usize>)>,
    pub from: (Square, Range<usize>),
    pub kind: (MoveType, Range<usize>),
    pub to: (Square, Range<usize>),
    pub captures: Vec<CaptureRecord>,
    /// Where the capture record is, or where it would go (right after the destination).
    pub captures_range: Range<usize>,
    pub info: Option<(Info, Range<usize>)>,
}

impl MoveRecord {
    /// `e5-e8`: the mover, squares and move type, without captures or info symbol.
    pub fn movement(&self) -> String {
        let mut out = String::new();
        if let Some((man, _)) = self.mover {
            out.push(man.letter());
        }
        let _ = write!(
            out,
            "{}{}{}",
            self.from.0.name(),
            self.kind.0.symbol(),
            self.to.0.name()
        );
        out
    }
}

/// One space-separated word of a turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveWord {
    Move(MoveRecord),
    /// `---`: the side to move resigns.
    Resign(Range<usize>),
    /// `.....`: in a variation, a move the same as its parent line's.
    Placeholder(Range<usize>),
    /// Text that is not a move record, with what is wrong and where.
    Bad {
        range: Range<usize>,
        problem: Range<usize>,
        message: String,
    },
}

/// `range` moved `delta` bytes further on.
pub fn shift_range(range: &Range<usize>, delta: isize) -> Range<usize> {
    range.start.saturating_add_signed(delta)..range.end.saturating_add_signed(delta)
}

impl MoveRecord {
    /// The same record written `delta` bytes further on.
    pub fn shifted(&self, delta: isize) -> MoveRecord {
        let shift = |range: &Range<usize>| shift_range(range, delta);
        MoveRecord {
            range: shift(&self.range),
            mover: self.mover.as_ref().map(|(man, range)| (*man, shift(range))),
            from: (self.from.0, shift(&self.from.1)),
            kind: (self.kind.0, shift(&self.kind.1)),
            to: (self.to.0, shift(&self.to.1)),
            captures: self
                .captures
                .iter()
                .map(|capture| CaptureRecord {
                    man: capture.man,
                    square: capture.square,
                    range: shift(&capture.range),
                })
                .collect(),
            captures_range: shift(&self.captures_range),
            info: self
                .info
                .as_ref()
                .map(|(info, range)| (*info, shift(range))),
        }
    }
}

impl MoveWord {
    /// The same word written `delta` bytes further on.
    pub fn shifted(&self, delta: isize) -> MoveWord {
        match self {
            MoveWord::Move(record) => MoveWord::Move(record.shifted(delta)),
            MoveWord::Resign(range) => MoveWord::Resign(shift_range(range, delta)),
            MoveWord::Placeholder(range) => MoveWord::Placeholder(shift_range(range, delta)),
            MoveWord::Bad {
                range,
                problem,
                message,
            } => MoveWord::Bad {
                range: shift_range(range, delta),
                problem: shift_range(problem, delta),
                message: message.clone(),
            },
        }
    }

    pub fn range_ref(&self) -> &Range<usize> {
        match self {
            MoveWord::Move(record) => &record.range,
            MoveWord::Resign(range) | MoveWord::Placeholder(range) => range,
            MoveWord::Bad { range, .. } => range,
        }
    }

    pub fn range(&self) -> Range<usize> {
        self.range_ref().clone()
    }
}

/// Reads one word at `offset` of the document as a move record.
pub fn parse_move_word(word: &str, offset: usize) -> MoveWord {
    let range = offset..offset + word.len();
    if word == "---" {
        return MoveWord::Resign(range);
    }
    if word.len() >= 2 && word.bytes().all(|b| b == b'.') {
        return MoveWord::Placeholder(range);
    }
    match parse_move_record(word, offset) {
        Ok(record) => MoveWord::Move(record),
        Err((problem, message)) => MoveWord::Bad {
            range,
            problem,
            message,
        },
    }
}

fn parse_move_record(word: &str, offset: usize) -> Result<MoveRecord, (Range<usize>, String)> {
    let bytes = word.as_bytes();
    let mut i = 0;
    let at = |i: usize, len: usize| offset + i..offset + (i + len).min(word.len()).max(i);
    let here = |i: usize| {
        let len = word[i.min(word.len())..]
            .chars()
            .next()
            .map_or(0, char::len_utf8);
        offset + i..offset + i + len
    };
    let mut mover = None;
    if let Some(first) = word.chars().next() {
        if let Some(man) = Man::from_letter(first) {
            // A man letter only if a square follows (a square starts with a lower-case
            // letter too: `t` would be file t of a 20-wide board).
            if Square::parse_prefix(&word[1..]).is_some() {
                mover = Some((man, at(0, 1)));
                i = 1;
            }
        }
    }
    let Some((from, len)) = Square::parse_prefix(&word[i..]) else {
        return Err((
            here(i),
            format!(
                "`{word}` is not a move record: a move reads like `e5-e8`, `Ke1-a1` or `e5-e8xe9`"
            ),
        ));
    };
    let from_range = at(i, len);
    i += len;
    let kind_start = i;
    let kind = match (bytes.get(i), bytes.get(i + 1)) {
        (Some(b'^'), Some(b'=')) => {
            i += 2;
            MoveType::BerserkJump
        }
        (Some(b'^'), _) => {
            i += 1;
            MoveType::Jump
        }
        (Some(b'='), _) => {
            i += 1;
            MoveType::Berserk
        }
        (Some(b'-'), _) => {
            i += 1;
            MoveType::Move
        }
        _ => {
            return Err((
                here(i),
                format!(
                    "expected `-` (move), `^` (jump), `=` (berserk move) or `^=` (berserk jump) after {}",
                    from.name()
                ),
            ))
        }
    };
    let kind_range = at(kind_start, i - kind_start);
    let Some((to, len)) = Square::parse_prefix(&word[i..]) else {
        return Err((
            here(i),
            format!("expected the square {} moves to", from.name()),
        ));
    };
    let to_range = at(i, len);
    i += len;
    let captures_start = i;
    let mut captures = Vec::new();
    if bytes.get(i) == Some(&b'x') {
        i += 1;
        loop {
            let start = i;
            let mut man = None;
            if let Some(letter) = word[i..].chars().next() {
                if let Some(found) = Man::from_letter(letter) {
                    if Square::parse_prefix(&word[i + 1..]).is_some() {
                        man = Some(found);
                        i += 1;
                    }
                }
            }
            let Some((square, len)) = Square::parse_prefix(&word[i..]) else {
                return Err((
                    here(i),
                    "expected a captured square (e.g. `e9` or `Ke9`)".to_string(),
                ));
            };
            i += len;
            captures.push(CaptureRecord {
                man,
                square,
                range: at(start, i - start),
            });
            if bytes.get(i) == Some(&b'/') {
                i += 1;
            } else {
                break;
            }
        }
    }
    let captures_range = at(captures_start, i - captures_start);
    let info_start = i;
    let info = match &word[i..] {
        "" => None,
        "+" => Some(Info::Threat),
        "-" => Some(Info::EscapeRoute),
        "++" => Some(Info::KingCaptured),
        "--" => Some(Info::KingEscaped),
        rest => {
            return Err((
                at(i, rest.len()),
                format!(
                    "`{rest}` is not an info symbol: `+` (king threatened), `-` (king may escape), \
                     `++` (king captured), `--` (king escaped)"
                ),
            ))
        }
    };
    Ok(MoveRecord {
        range: offset..offset + word.len(),
        mover,
        from: (from, from_range),
        kind: (kind, kind_range),
        to: (to, to_range),
        captures,
        captures_range,
        info: info.map(|info| (info, at(info_start, word.len() - info_start))),
    })
}

/// The capture record of `captured` squares (with the letter of every man but plain
/// taflmen), e.g. `xe9/Kf8`; empty without captures.
pub fn capture_record(captured: &[(Square, Man)]) -> String {
    let mut out = String::new();
    for (i, (square, man)) in captured.iter().enumerate() {
        out.push(if i == 0 { 'x' } else { '/' });
        if man.kind != super::board::TaflMan::Taflman {
            out.push(man.letter());
        }
        out.push_str(&square.name());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(word: &str) -> MoveRecord {
        match parse_move_word(word, 100) {
            MoveWord::Move(record) => record,
            other => panic!("{word}: {other:?}"),
        }
    }

    #[test]
    fn every_example_of_the_spec_reads() {
        let r = record("e5-e8xe9");
        assert_eq!(r.from.0.name(), "e5");
        assert_eq!(r.to.0.name(), "e8");
        assert_eq!(r.captures[0].square.name(), "e9");
        assert_eq!(r.captures[0].range, 106..108);
        assert_eq!(record("ce6^e8").kind.0, MoveType::Jump);
        let knight = record("Ne6^=e8xce7/ne9/f8/d8");
        assert_eq!(knight.mover.as_ref().unwrap().0.letter(), 'N');
        assert_eq!(knight.kind.0, MoveType::BerserkJump);
        assert_eq!(knight.captures.len(), 4);
        assert_eq!(knight.captures[0].man.unwrap().letter(), 'c');
        assert_eq!(knight.captures[2].man, None);
        assert_eq!(record("Ne8=e4xe3").kind.0, MoveType::Berserk);
        assert_eq!(record("Ke5-e1-").info.unwrap().0, Info::EscapeRoute);
        assert_eq!(record("Ke1-a1--").info.unwrap().0, Info::KingEscaped);
        assert_eq!(record("a3-e3+").info.unwrap().0, Info::Threat);
        let captured = record("e3-e4++");
        assert_eq!(captured.info, Some((Info::KingCaptured, 105..107)));
        assert_eq!(parse_move_word("---", 0), MoveWord::Resign(0..3));
        assert_eq!(parse_move_word(".....", 4), MoveWord::Placeholder(4..9));
        assert_eq!(record("k11-k10").from.0.name(), "k11");
        assert_eq!(record("c2-c3xKc4").captures[0].man.unwrap().letter(), 'K');
    }

    #[test]
    fn bad_records_point_at_the_problem() {
        let bad = |word: &str| match parse_move_word(word, 10) {
            MoveWord::Bad {
                problem, message, ..
            } => (problem, message),
            other => panic!("{word}: {other:?}"),
        };
        assert_eq!(bad("e5e8").0, 12..13);
        assert_eq!(bad("e5-").0, 13..13);
        assert_eq!(bad("e5-e8x").0, 16..16);
        let (range, message) = bad("e5-e8+++");
        assert_eq!(range, 15..18);
        assert!(message.contains("info symbol"));
        assert_eq!(bad("hello").0, 10..11);
    }

    #[test]
    fn capture_records_name_special_men() {
        let king = Man::from_letter('K').unwrap();
        let taflman = Man::from_letter('t').unwrap();
        let record = capture_record(&[
            (Square::parse("d3").unwrap(), taflman),
            (Square::parse("c4").unwrap(), king),
        ]);
        assert_eq!(record, "xd3/Kc4");
    }
}
