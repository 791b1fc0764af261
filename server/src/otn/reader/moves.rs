//! OTN move records: `e5-e8xe9`, `Ke1-a1--`, `Ne6^=e8xce7/ne9/f8/d8`, `---`, and the
//! `.....` placeholders of variations, each part with its byte range.

use std::fmt::Write as _;
use std::ops::Range;

use crate::diagnostic::{Diagnostic, Fix};
use crate::otn::board::{Man, Square};

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
    /// The end of the word that does not read as a capture record or an info symbol
    /// (reported where the word is read): the move is made without it.
    pub unread: Option<Range<usize>>,
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
            unread: self.unread.as_ref().map(shift),
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
    read_move_word(word, offset, &mut Vec::new())
}

/// Reads one word at `offset` of the document as a move record, with a diagnostic for
/// what in it does not read as OpenTafl writes it: a word that is no move, the end of a
/// record that is neither a capture record nor an info symbol (the move is read without
/// it), captures separated by `x` rather than `/`.
pub fn read_move_word(word: &str, offset: usize, diagnostics: &mut Vec<Diagnostic>) -> MoveWord {
    let range = offset..offset + word.len();
    if word == "---" {
        return MoveWord::Resign(range);
    }
    if word.len() >= 2 && word.bytes().all(|b| b == b'.') {
        return MoveWord::Placeholder(range);
    }
    match parse_move_record(word, offset, diagnostics) {
        Ok(record) => MoveWord::Move(record),
        Err((problem, message)) => {
            diagnostics.push(Diagnostic::error(
                problem.clone(),
                "move-syntax",
                message.clone(),
            ));
            MoveWord::Bad {
                range,
                problem,
                message,
            }
        }
    }
}

/// A captured square at the start of `text`, with the letter of its man if one is
/// written (`e9`, `Ke9`), and its length.
fn capture_prefix(text: &str) -> Option<(Option<Man>, Square, usize)> {
    if let Some(letter) = text.chars().next() {
        if let Some(man) = Man::from_letter(letter) {
            if let Some((square, len)) = Square::parse_prefix(&text[1..]) {
                return Some((Some(man), square, 1 + len));
            }
        }
    }
    Square::parse_prefix(text).map(|(square, len)| (None, square, len))
}

fn parse_move_record(
    word: &str,
    offset: usize,
    diagnostics: &mut Vec<Diagnostic>,
) -> Result<MoveRecord, (Range<usize>, String)> {
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
    // From here on the move can be made: what does not read is reported and left out.
    let mut unread = None;
    let captures_start = i;
    let mut captures = Vec::new();
    // The `x`s written between captured squares where OpenTafl writes `/`.
    let mut x_separators: Vec<Range<usize>> = Vec::new();
    if bytes.get(i) == Some(&b'x') {
        i += 1;
        loop {
            let start = i;
            let Some((man, square, len)) = capture_prefix(&word[i..]) else {
                // Read up to the separator before it.
                let cut = start - 1;
                if x_separators.last().is_some_and(|x| x.start == offset + cut) {
                    x_separators.pop();
                }
                diagnostics.push(Diagnostic::error(
                    here(i),
                    "move-syntax",
                    format!(
                        "expected a captured square (e.g. `e9` or `Ke9`); `{}` is read without `{}`",
                        &word[..cut],
                        &word[cut..]
                    ),
                ));
                unread = Some(at(cut, word.len() - cut));
                i = cut;
                break;
            };
            i += len;
            captures.push(CaptureRecord {
                man,
                square,
                range: at(start, i - start),
            });
            match bytes.get(i) {
                Some(b'/') => i += 1,
                // No info symbol starts with `x`: another captured square follows.
                Some(b'x') => {
                    x_separators.push(at(i, 1));
                    i += 1;
                }
                _ => break,
            }
        }
    }
    let captures_range = at(captures_start, i - captures_start);
    if let (Some(first), Some(last)) = (x_separators.first(), x_separators.last()) {
        let written = &word[captures_start..i];
        let mut rewritten = written.to_string().into_bytes();
        for x in &x_separators {
            rewritten[x.start - offset - captures_start] = b'/';
        }
        let rewritten = String::from_utf8(rewritten).unwrap_or_default();
        diagnostics.push(
            Diagnostic::warning(
                first.start..last.end,
                "capture-separator",
                format!(
                    "OpenTafl separates captured squares with `/`: `{rewritten}`, not `{written}`"
                ),
            )
            .with_fix(Fix {
                title: format!("Write `{rewritten}`"),
                edits: x_separators
                    .iter()
                    .map(|x| (x.clone(), "/".to_string()))
                    .collect(),
            }),
        );
    }
    let info_start = i;
    let info = if unread.is_some() {
        None
    } else {
        match &word[i..] {
            "" => None,
            "+" => Some(Info::Threat),
            "-" => Some(Info::EscapeRoute),
            "++" => Some(Info::KingCaptured),
            "--" => Some(Info::KingEscaped),
            rest => {
                diagnostics.push(Diagnostic::error(
                    at(i, rest.len()),
                    "move-syntax",
                    format!(
                        "`{rest}` is not an info symbol: `+` (king threatened), `-` (king may escape), \
                         `++` (king captured), `--` (king escaped); {} is read without it",
                        &word[..i]
                    ),
                ));
                unread = Some(at(i, rest.len()));
                None
            }
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
        unread,
    })
}

/// The capture record of `captured` squares (with the letter of every man but plain
/// taflmen), e.g. `xe9/Kf8`; empty without captures.
pub fn capture_record(captured: &[(Square, Man)]) -> String {
    let mut out = String::new();
    for (i, (square, man)) in captured.iter().enumerate() {
        out.push(if i == 0 { 'x' } else { '/' });
        if man.kind != crate::otn::board::TaflMan::Taflman {
            out.push(man.letter());
        }
        out.push_str(&square.name());
    }
    out
}

/// Whether the word at `position` of a turn stands for a move: a move record, or a word that
/// does not read as one among a turn's first two (most likely a move being typed: it takes
/// its move's place, so that the moves after it keep their sides).
pub fn takes_a_move(position: usize, word: &MoveWord) -> bool {
    match word {
        MoveWord::Move(_) => true,
        MoveWord::Bad { .. } => position < 2,
        MoveWord::Resign(_) | MoveWord::Placeholder(_) => false,
    }
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
        assert_eq!(bad("hello").0, 10..11);
    }

    /// What is said about a word: where, the code and the message.
    type Said = Vec<(Range<usize>, &'static str, String)>;

    /// `word` read at offset 10, and what is said about it.
    fn read(word: &str) -> (MoveWord, Said) {
        let mut diagnostics = Vec::new();
        let read = read_move_word(word, 10, &mut diagnostics);
        let said = diagnostics
            .into_iter()
            .map(|d| (d.range, d.code, d.message))
            .collect();
        (read, said)
    }

    #[test]
    fn a_record_whose_end_does_not_read_is_read_without_it() {
        let (word, said) = read("e5-e8+++");
        let MoveWord::Move(record) = word else {
            panic!("{word:?}")
        };
        assert_eq!(record.movement(), "e5-e8");
        assert_eq!(record.info, None);
        assert_eq!(record.unread, Some(15..18));
        assert_eq!(said.len(), 1);
        assert_eq!(said[0].0, 15..18);
        assert!(said[0].2.contains("info symbol"), "{}", said[0].2);
        assert!(
            said[0].2.ends_with("e5-e8 is read without it"),
            "{}",
            said[0].2
        );
        // A capture record broken after its first square keeps that square.
        let (word, said) = read("e5-e8xe9/?3");
        let MoveWord::Move(record) = word else {
            panic!("{word:?}")
        };
        assert_eq!(record.captures.len(), 1);
        assert_eq!(record.captures_range, 15..18);
        assert_eq!(record.unread, Some(18..21));
        assert_eq!(
            said,
            [(
                19..20,
                "move-syntax",
                "expected a captured square (e.g. `e9` or `Ke9`); `e5-e8xe9` is read without `/?3`"
                    .to_string()
            )]
        );
        // An `x` with nothing after it, as while typing.
        let (word, said) = read("e5-e8x");
        let MoveWord::Move(record) = word else {
            panic!("{word:?}")
        };
        assert!(record.captures.is_empty());
        assert_eq!(record.unread, Some(15..16));
        assert_eq!(said[0].0, 16..16);
        // A record that reads has nothing to say.
        assert_eq!(read("Ne6^=e8xce7/ne9/f8/d8").1, []);
    }

    #[test]
    fn captures_separated_by_x_read_with_a_warning_and_a_fix() {
        let (word, said) = read("e2-d2xc2xKd3");
        let MoveWord::Move(record) = word else {
            panic!("{word:?}")
        };
        let squares: Vec<String> = record.captures.iter().map(|c| c.square.name()).collect();
        assert_eq!(squares, ["c2", "d3"]);
        assert_eq!(record.captures[1].man.unwrap().letter(), 'K');
        assert_eq!(record.captures[1].range, 19..22);
        assert_eq!(record.captures_range, 15..22);
        assert_eq!(record.unread, None);
        assert_eq!(
            said,
            [(
                18..19,
                "capture-separator",
                "OpenTafl separates captured squares with `/`: `xc2/Kd3`, not `xc2xKd3`"
                    .to_string()
            )]
        );
        let mut diagnostics = Vec::new();
        read_move_word("e2-d2xc2xd3/e3xf3++", 10, &mut diagnostics);
        let fix = &diagnostics[0].fixes[0];
        assert_eq!(fix.title, "Write `xc2/d3/e3/f3`");
        assert_eq!(
            fix.edits,
            [(18..19, "/".to_string()), (24..25, "/".to_string())]
        );
        assert_eq!(diagnostics[0].range, 18..25);
        // On a board 24 wide, file x: `xx3` captures x3.
        let (word, said) = read("w2-w3xx3xv3");
        let MoveWord::Move(record) = word else {
            panic!("{word:?}")
        };
        let squares: Vec<String> = record.captures.iter().map(|c| c.square.name()).collect();
        assert_eq!(squares, ["x3", "v3"]);
        assert_eq!(
            said[0].2,
            "OpenTafl separates captured squares with `/`: `xx3/v3`, not `xx3xv3`"
        );
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
