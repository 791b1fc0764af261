//! xiangqi-setup's annotation codes: the six markers (`bb bg bm pb pg pm`) and the arrows
//! `a±dx±dy` its themes draw.

use crate::model::scene::{MarkColor, MarkShape};
use crate::model::suggest::edit_distance;

use crate::xiangqi::board::Point;

/// One annotation code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Code {
    /// An arrow starting at its point, `dx` files to the right and `dy` ranks up.
    Arrow {
        dx: i8,
        dy: i8,
    },
    Marker {
        shape: MarkShape,
        meaning: Meaning,
    },
}

/// What a marker says about its point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Meaning {
    Bad,
    Good,
    Move,
}

impl Meaning {
    fn letter(self) -> char {
        match self {
            Meaning::Bad => 'b',
            Meaning::Good => 'g',
            Meaning::Move => 'm',
        }
    }

    /// The colour a scene draws it in. xiangqi-setup draws "good" green, "move" purple
    /// and "bad" light red; the nearest of the scene's colours stand for them.
    pub fn color(self) -> MarkColor {
        match self {
            Meaning::Bad => MarkColor::Magenta,
            Meaning::Good => MarkColor::Green,
            Meaning::Move => MarkColor::Blue,
        }
    }

    fn word(self) -> &'static str {
        match self {
            Meaning::Bad => "bad",
            Meaning::Good => "good",
            Meaning::Move => "involved in a move",
        }
    }
}

/// Whether xiangqi-setup has an arrow for this vector: straight lines along a file (up
/// to 9) or a rank (up to 8), and the one- and two-step diagonals and horse jumps.
fn arrow_exists(dx: i8, dy: i8) -> bool {
    match (dx.unsigned_abs(), dy.unsigned_abs()) {
        (0, 0) => false,
        (0, dy) => dy <= 9,
        (dx, 0) => dx <= 8,
        (dx, dy) => dx <= 2 && dy <= 2,
    }
}

const MARKERS: [Code; 6] = [
    Code::Marker {
        shape: MarkShape::Blank,
        meaning: Meaning::Bad,
    },
    Code::Marker {
        shape: MarkShape::Blank,
        meaning: Meaning::Good,
    },
    Code::Marker {
        shape: MarkShape::Blank,
        meaning: Meaning::Move,
    },
    Code::Marker {
        shape: MarkShape::Piece,
        meaning: Meaning::Bad,
    },
    Code::Marker {
        shape: MarkShape::Piece,
        meaning: Meaning::Good,
    },
    Code::Marker {
        shape: MarkShape::Piece,
        meaning: Meaning::Move,
    },
];

impl Code {
    /// Every valid code: the markers, then the arrows.
    pub fn all() -> Vec<Code> {
        let mut codes = MARKERS.to_vec();
        for dx in -8..=8 {
            for dy in -9..=9 {
                if arrow_exists(dx, dy) {
                    codes.push(Code::Arrow { dx, dy });
                }
            }
        }
        codes
    }

    /// The code a text spells exactly (codes are case-sensitive, as in xiangqi-setup).
    pub fn parse(text: &str) -> Option<Code> {
        let bytes = text.as_bytes();
        match bytes {
            [shape @ (b'b' | b'p'), meaning] => {
                let shape = if *shape == b'b' {
                    MarkShape::Blank
                } else {
                    MarkShape::Piece
                };
                let meaning = match meaning {
                    b'b' => Meaning::Bad,
                    b'g' => Meaning::Good,
                    b'm' => Meaning::Move,
                    _ => return None,
                };
                Some(Code::Marker { shape, meaning })
            }
            _ => {
                let (dx, dy) = arrow_vector(text)?;
                arrow_exists(dx, dy).then_some(Code::Arrow { dx, dy })
            }
        }
    }

    pub fn text(self) -> String {
        match self {
            Code::Arrow { dx, dy } => format!("a{dx:+}{dy:+}"),
            Code::Marker { shape, meaning } => {
                let shape = match shape {
                    MarkShape::Blank => 'b',
                    MarkShape::Piece => 'p',
                };
                format!("{shape}{}", meaning.letter())
            }
        }
    }

    /// One line for completion lists and hovers.
    pub fn summary(self) -> String {
        match self {
            Code::Arrow { dx, dy } => format!("arrow {}", vector_words(dx, dy)),
            Code::Marker { shape, meaning } => match shape {
                MarkShape::Blank => format!("marks an empty point as {}", meaning.word()),
                MarkShape::Piece => format!("marks a piece as {}", meaning.word()),
            },
        }
    }

    /// What it means at `at`: for an arrow, where it points (or that it leaves the board).
    pub fn explain_at(self, at: Point) -> String {
        match self {
            Code::Arrow { dx, dy } => match at.offset(i32::from(dx), i32::from(dy)) {
                Some(to) => format!("an arrow from {at} to {to}: {}", vector_words(dx, dy)),
                None => format!(
                    "an arrow from {at} {}, which leaves the board",
                    vector_words(dx, dy)
                ),
            },
            Code::Marker { .. } => format!("{} (on {at})", self.summary()),
        }
    }

    /// Where an arrow drawn from `at` ends, if on the board.
    pub fn arrow_end(self, at: Point) -> Option<Point> {
        match self {
            Code::Arrow { dx, dy } => at.offset(i32::from(dx), i32::from(dy)),
            Code::Marker { .. } => None,
        }
    }
}

/// `a+1-2` → (1, -2), for any digits (valid or not).
fn arrow_vector(text: &str) -> Option<(i8, i8)> {
    let rest = text.strip_prefix('a')?;
    let bytes = rest.as_bytes();
    let sign = |b: u8| match b {
        b'+' => Some(1i8),
        b'-' => Some(-1i8),
        _ => None,
    };
    match bytes {
        [sx, x, sy, y] if x.is_ascii_digit() && y.is_ascii_digit() => Some((
            sign(*sx)? * (*x - b'0') as i8,
            sign(*sy)? * (*y - b'0') as i8,
        )),
        _ => None,
    }
}

fn vector_words(dx: i8, dy: i8) -> String {
    let plural = |n: u8, word: &str| {
        if n == 1 {
            format!("1 {word}")
        } else {
            format!("{n} {word}s")
        }
    };
    let mut parts = Vec::new();
    if dx != 0 {
        let side = if dx > 0 { "right" } else { "left" };
        parts.push(format!(
            "{} to the {side}",
            plural(dx.unsigned_abs(), "file")
        ));
    }
    if dy != 0 {
        let way = if dy > 0 {
            "up (towards Black)"
        } else {
            "down (towards Red)"
        };
        parts.push(format!("{} {way}", plural(dy.unsigned_abs(), "rank")));
    }
    parts.join(" and ")
}

/// The valid codes nearest to an unknown one, best first (at most three): for something
/// shaped like an arrow, the arrows closest in direction and length; otherwise the codes
/// fewest edits away.
pub fn closest_codes(text: &str) -> Vec<Code> {
    let all = Code::all();
    let mut scored: Vec<(u32, String, Code)> = if let Some((dx, dy)) = arrow_vector(text) {
        all.into_iter()
            .filter_map(|code| match code {
                Code::Arrow { dx: x, dy: y } => {
                    let distance = (i32::from(x) - i32::from(dx)).pow(2)
                        + (i32::from(y) - i32::from(dy)).pow(2);
                    Some((distance.unsigned_abs(), code.text(), code))
                }
                Code::Marker { .. } => None,
            })
            .collect()
    } else {
        all.into_iter()
            .map(|code| (short_word_distance(text, &code.text()), code.text(), code))
            .collect()
    };
    scored.sort_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
    if arrow_vector(text).is_none() {
        // Beyond two edits a suggestion is a guess, not a correction.
        let best = scored.first().map_or(u32::MAX, |first| first.0);
        if best > 2 {
            return Vec::new();
        }
        scored.retain(|(distance, _, _)| *distance == best);
    }
    scored
        .into_iter()
        .take(3)
        .map(|(_, _, code)| code)
        .collect()
}

/// [`edit_distance`] over at most the first 64 characters of each: codes are short, and a
/// long unknown word must not cost a long comparison with each of them.
fn short_word_distance(a: &str, b: &str) -> u32 {
    u32::try_from(edit_distance(first_64_chars(a), first_64_chars(b))).unwrap_or(u32::MAX)
}

fn first_64_chars(word: &str) -> &str {
    word.char_indices()
        .nth(64)
        .map_or(word, |(end, _)| &word[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn there_are_the_fifty_six_codes_of_xiangqi_setup() {
        let all = Code::all();
        assert_eq!(all.len(), 56);
        for code in &all {
            assert_eq!(Code::parse(&code.text()), Some(*code), "{}", code.text());
        }
        for text in ["a+0+9", "a-8+0", "a+2-2", "a-1+2", "bm", "pg"] {
            assert!(Code::parse(text).is_some(), "{text}");
        }
        for text in [
            "a+0+0", "a+3+3", "a+9+0", "a+1-3", "a1+2", "bx", "BB", "", "a+0+10",
        ] {
            assert_eq!(Code::parse(text), None, "{text}");
        }
    }

    #[test]
    fn arrows_say_where_they_point() {
        let b9 = Point::parse("b9").unwrap();
        let arrow = Code::parse("a+1-2").unwrap();
        assert_eq!(arrow.arrow_end(b9), Point::parse("c7"));
        assert_eq!(
            arrow.explain_at(b9),
            "an arrow from b9 to c7: 1 file to the right and 2 ranks down (towards Red)"
        );
        let off = Code::parse("a+0+1").unwrap();
        assert!(off.explain_at(b9).ends_with("which leaves the board"));
    }

    #[test]
    fn unknown_codes_get_the_closest_valid_ones() {
        let texts = |codes: Vec<Code>| codes.into_iter().map(Code::text).collect::<Vec<_>>();
        assert_eq!(texts(closest_codes("a+1-3")), ["a+0-3", "a+1-2", "a+0-2"]);
        assert_eq!(texts(closest_codes("a+3+3")), ["a+2+2", "a+1+2", "a+2+1"]);
        assert_eq!(texts(closest_codes("pn")), ["pb", "pg", "pm"]);
        assert_eq!(texts(closest_codes("gb")), ["bb", "pb"]);
        assert_eq!(texts(closest_codes("arrow")), Vec::<String>::new());
    }
}
