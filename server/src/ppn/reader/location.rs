//! Location: where on the board, e.g. `b4`, `(2.5,3)`, `<1,-1>`, `2NE|c3`, `&?S5`, or empty.

use std::ops::Range;

use super::{find_ascii, split_once_ascii};
use crate::ppn::reader::issue::Issue;
use crate::ppn::reader::piece_id::{parse_piece_id, PieceId};
use crate::ppn::reader::piece_spec::ParserOptions;

#[derive(Clone, Debug, PartialEq)]
pub struct Location {
    pub kind: LocationKind,
    /// Byte range in the text the move was parsed from.
    pub range: Range<usize>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum LocationKind {
    /// The empty Location: where the last active piece is (a shortcut for `&`).
    Active,
    /// `&PieceId`: where that piece is.
    OfPiece(Box<PieceId>),
    /// An offset in board units (not yet scaled), relative to the anchor or, without one,
    /// to each piece being moved.
    Relative {
        dx: f64,
        dy: f64,
        anchor: Option<Box<Anchor>>,
    },
    /// Algebraic or Cartesian coordinates in board units (not yet scaled).
    Absolute { x: f64, y: f64 },
}

#[derive(Clone, Debug, PartialEq)]
pub enum Anchor {
    /// `Offset|Location`
    Location(Location),
    /// `Offset$PieceId`
    Piece(PieceId),
}

fn bad(range: Range<usize>, message: impl Into<String>) -> Issue {
    Issue::error(range, "bad-location", message)
}

/// Unit step of a direction word; the second value tells whether it is a hexagonal half-wind.
fn direction(word: &str) -> Option<((f64, f64), bool)> {
    let orthogonal = |dx: f64, dy: f64| Some(((dx, dy), false));
    let hex = |degrees: f64| {
        let radians = degrees.to_radians();
        Some(((radians.cos(), radians.sin()), true))
    };
    match word {
        "N" | "U" => orthogonal(0.0, 1.0),
        "E" | "R" => orthogonal(1.0, 0.0),
        "S" | "D" => orthogonal(0.0, -1.0),
        "W" | "L" => orthogonal(-1.0, 0.0),
        "NE" | "UR" => orthogonal(1.0, 1.0),
        "SE" | "DR" => orthogonal(1.0, -1.0),
        "SW" | "DL" => orthogonal(-1.0, -1.0),
        "NW" | "UL" => orthogonal(-1.0, 1.0),
        "NNE" | "UUR" => hex(60.0),
        "ENE" | "RUR" => hex(30.0),
        "ESE" | "RDR" => hex(330.0),
        "SSE" | "DDR" => hex(300.0),
        "SSW" | "DDL" => hex(240.0),
        "WSW" | "LDL" => hex(210.0),
        "WNW" | "LUL" => hex(150.0),
        "NNW" | "UUL" => hex(120.0),
        _ => None,
    }
}

/// x of algebraic file letters, base 26 big-endian with `a` = 1 (as the spec says).
fn file_number(letters: &str) -> f64 {
    letters
        .bytes()
        .fold(0.0, |acc, b| acc * 26.0 + f64::from(b - b'a' + 1))
}

/// A run of at most 15 ASCII digits as the number it writes: below 2^53, so exactly what
/// `parse::<f64>` gives, without the general parser. `None` for other text.
fn small_integer(digits: &str) -> Option<f64> {
    if digits.is_empty() || digits.len() > 15 {
        return None;
    }
    digits
        .bytes()
        .try_fold(0u64, |number, byte| {
            byte.is_ascii_digit()
                .then(|| number * 10 + u64::from(byte - b'0'))
        })
        .map(|number| number as f64)
}

fn parse_number(text: &str) -> Option<f64> {
    let trimmed = text.strip_prefix('+').unwrap_or(text);
    if trimmed.is_empty() || trimmed.starts_with(['+', '-'].as_slice()) && trimmed.len() == 1 {
        return None;
    }
    trimmed.parse::<f64>().ok().filter(|v| v.is_finite())
}

/// What follows an offset: nothing, `|Location` or `$PieceId`.
fn parse_anchor(
    rest: &str,
    start: usize,
    options: &ParserOptions,
    notes: &mut Vec<Issue>,
) -> Result<Option<Box<Anchor>>, Issue> {
    if let Some(location) = rest.strip_prefix('|') {
        Ok(Some(Box::new(Anchor::Location(parse_location(
            location,
            start + 1,
            options,
            notes,
        )?))))
    } else if let Some(piece) = rest.strip_prefix('$') {
        Ok(Some(Box::new(Anchor::Piece(parse_piece_id(
            piece,
            start + 1,
            options,
            notes,
        )?))))
    } else if rest.is_empty() {
        Ok(None)
    } else {
        notes.push(Issue::warning(
            start..start + rest.len(),
            "trailing-text",
            format!("`{rest}` after the offset is ignored"),
        ));
        Ok(None)
    }
}

/// Parse a Location that starts `start` bytes into the move text.
pub fn parse_location(
    text: &str,
    start: usize,
    options: &ParserOptions,
    notes: &mut Vec<Issue>,
) -> Result<Location, Issue> {
    let range = start..start + text.len();
    let kind = if text.is_empty() {
        LocationKind::Active
    } else if let Some(piece) = text.strip_prefix('&') {
        LocationKind::OfPiece(Box::new(parse_piece_id(piece, start + 1, options, notes)?))
    } else if text.starts_with('<') {
        let close = find_ascii(text, b'>')
            .ok_or_else(|| bad(range.clone(), "a relative offset `<x,y>` needs its `>`"))?;
        let inner = &text[1..close];
        let (x, y) = split_once_ascii(inner, b',')
            .and_then(|(x, y)| Some((parse_number(x)?, parse_number(y)?)))
            .ok_or_else(|| {
                bad(
                    start..start + close + 1,
                    format!("`{}` is not an offset like `<1,-2>`", &text[..=close]),
                )
            })?;
        let anchor = parse_anchor(&text[close + 1..], start + close + 1, options, notes)?;
        LocationKind::Relative {
            dx: x,
            dy: y,
            anchor,
        }
    } else if text.as_bytes().first().is_some_and(u8::is_ascii_digit) {
        // The characters looked for below are ASCII, and every byte of another character
        // is not: the bytes are read instead of the characters.
        let number_len = text
            .bytes()
            .position(|byte| !(byte.is_ascii_digit() || byte == b'.'))
            .unwrap_or(text.len());
        let steps = text[..number_len].parse::<f64>().map_err(|_| {
            bad(
                range.clone(),
                format!("`{}` is not a number", &text[..number_len]),
            )
        })?;
        let after = &text[number_len..];
        let word_len = after
            .bytes()
            .position(|byte| !byte.is_ascii_uppercase())
            .unwrap_or(after.len());
        let word = &after[..word_len];
        let word_range = start + number_len..start + number_len + word_len;
        let ((ux, uy), hexagonal) = direction(word).ok_or_else(|| {
            bad(
                if word.is_empty() { range.clone() } else { word_range.clone() },
                if word.is_empty() {
                    format!("`{text}` needs a direction such as N, SE or NNW after the distance")
                } else {
                    format!("`{word}` is not a direction (N, E, S, W, NE, NNE, ... or U, R, D, L, UR, UUR, ...)")
                },
            )
        })?;
        if hexagonal && steps != 0.0 && steps != 1.0 {
            notes.push(Issue::warning(
                start..word_range.end,
                "reference-differs",
                format!(
                    "this moves {steps} steps; the reference implementation moves {} steps \
                     in half-wind directions",
                    steps * steps
                ),
            ));
        }
        let anchor = parse_anchor(&after[word_len..], word_range.end, options, notes)?;
        LocationKind::Relative {
            dx: steps * ux,
            dy: steps * uy,
            anchor,
        }
    } else if text.starts_with('(') || find_ascii(text, b',').is_some() {
        let body = text.strip_prefix('(').unwrap_or(text);
        let (body, closed) = match find_ascii(body, b')') {
            Some(close) => {
                if close + 1 < body.len() {
                    return Err(bad(
                        range,
                        format!("`{text}` has text after its closing `)`"),
                    ));
                }
                (&body[..close], true)
            }
            None => (body, false),
        };
        let (x, y) = split_once_ascii(body, b',')
            .and_then(|(x, y)| Some((parse_number(x)?, parse_number(y)?)))
            .ok_or_else(|| {
                bad(
                    range.clone(),
                    format!("`{text}` is not coordinates like `(2,3.5)`"),
                )
            })?;
        if !closed || !text.starts_with('(') {
            notes.push(Issue::warning(
                range.clone(),
                "bad-location",
                "Cartesian coordinates are written `(x,y)`, with both parentheses",
            ));
        }
        LocationKind::Absolute { x, y }
    } else if text.as_bytes().first().is_some_and(u8::is_ascii_lowercase) {
        let letters_len = text
            .bytes()
            .position(|byte| !byte.is_ascii_lowercase())
            .unwrap_or(text.len());
        let letters = &text[..letters_len];
        let after = &text[letters_len..];
        let digits_len = after
            .bytes()
            .position(|byte| !byte.is_ascii_digit())
            .unwrap_or(after.len());
        if digits_len == 0 || letters_len > 6 {
            return Err(bad(
                range,
                format!("`{text}` is not a location such as `b4`, `(2,3)` or `<1,0>`"),
            ));
        }
        let y: f64 = match small_integer(&after[..digits_len]) {
            Some(rank) => rank,
            None => after[..digits_len]
                .parse()
                .map_err(|_| bad(range.clone(), "the rank number is too large"))?,
        };
        let x = file_number(letters);
        // The letters are ASCII: read backwards byte by byte, without making the string.
        if letters_len > 1 && !letters.bytes().eq(letters.bytes().rev()) {
            let reversed: String = letters.chars().rev().collect();
            notes.push(Issue::warning(
                start..start + letters_len,
                "reference-differs",
                format!(
                    "`{letters}` is column {x}; the reference implementation reads it as column {}",
                    file_number(&reversed)
                ),
            ));
        }
        let trailing = &after[digits_len..];
        if !trailing.is_empty() {
            let at = start + letters_len + digits_len;
            notes.push(Issue::warning(
                at..range.end,
                "trailing-text",
                format!("`{trailing}` after the location is ignored"),
            ));
        }
        LocationKind::Absolute { x, y }
    } else {
        return Err(bad(
            range,
            format!("`{text}` is not a location such as `b4`, `(2,3)`, `<1,0>`, `2N` or `&b4`"),
        ));
    };
    Ok(Location { kind, range })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> (Result<Location, Issue>, Vec<Issue>) {
        let mut notes = Vec::new();
        let result = parse_location(text, 0, &ParserOptions::default(), &mut notes);
        (result, notes)
    }

    fn absolute(text: &str) -> (f64, f64) {
        match parse(text).0.expect(text).kind {
            LocationKind::Absolute { x, y } => (x, y),
            other => panic!("{text}: {other:?}"),
        }
    }

    fn relative(text: &str) -> (f64, f64) {
        match parse(text).0.expect(text).kind {
            LocationKind::Relative { dx, dy, .. } => (dx, dy),
            other => panic!("{text}: {other:?}"),
        }
    }

    #[test]
    fn small_integers_read_as_the_float_parser_reads_them() {
        for digits in [
            "0",
            "7",
            "10",
            "0012",
            "999999999999999",
            "123456789012345",
            "9007199254740",
        ] {
            assert_eq!(
                small_integer(digits),
                digits.parse::<f64>().ok(),
                "{digits}"
            );
        }
        for other in ["", "1.5", "-3", "+3", "1e5", "1234567890123456", "٣"] {
            assert_eq!(small_integer(other), None, "{other}");
        }
    }

    #[test]
    fn algebraic_files_are_big_endian() {
        assert_eq!(absolute("b4"), (2.0, 4.0));
        assert_eq!(absolute("aa7"), (27.0, 7.0));
        assert_eq!(absolute("ab7"), (28.0, 7.0));
        let (_, notes) = parse("ab7");
        assert_eq!(notes[0].code, "reference-differs");
        assert_eq!(notes[0].range, 0..2);
        assert!(parse("aa7").1.is_empty());
    }

    #[test]
    fn cartesian_and_trailing_text() {
        assert_eq!(absolute("(2.5,-3)"), (2.5, -3.0));
        let (location, notes) = parse("(5,2");
        assert!(location.is_ok());
        assert_eq!(notes[0].code, "bad-location");
        let (location, notes) = parse("b2q");
        assert_eq!(
            location.map(|l| l.kind),
            Ok(LocationKind::Absolute { x: 2.0, y: 2.0 })
        );
        assert_eq!(
            (notes[0].code, notes[0].range.clone()),
            ("trailing-text", 2..3)
        );
        assert_eq!(parse("Z9").0.unwrap_err().code, "bad-location");
    }

    #[test]
    fn directions_move_n_steps() {
        assert_eq!(relative("3R"), (3.0, 0.0));
        assert_eq!(relative("2SW"), (-2.0, -2.0));
        let (dx, dy) = relative("2NNE");
        assert!((dx - 1.0).abs() < 1e-12 && (dy - 3f64.sqrt()).abs() < 1e-12);
        assert_eq!(parse("2NNE").1[0].code, "reference-differs");
        assert!(parse("1NNE").1.is_empty());
        assert_eq!(relative("<+1,-0.5>"), (1.0, -0.5));
        assert_eq!(parse("2Q").0.unwrap_err().range, 1..2);
    }

    #[test]
    fn anchors() {
        let location = parse("<1,0>|d3").0.expect("anchored");
        let LocationKind::Relative {
            anchor: Some(anchor),
            ..
        } = location.kind
        else {
            panic!("no anchor");
        };
        let Anchor::Location(inner) = *anchor else {
            panic!("not a location anchor");
        };
        assert_eq!(inner.range, 6..8);
        assert_eq!(inner.kind, LocationKind::Absolute { x: 4.0, y: 3.0 });
    }
}
