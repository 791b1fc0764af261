//! PieceId: which piece(s) a move acts on, e.g. `b4`, `2b4`, `b4[2:3]`, `?S5`, `/M`,
//! `^b4`, or empty (the last active pieces).

use std::ops::Range;

use crate::ppn::reader::issue::Issue;
use crate::ppn::reader::location::{parse_location, Location};
use crate::ppn::reader::piece_spec::{parse_piece_spec, ParserOptions, PieceSpec};
use crate::ppn::reader::rfind_ascii;

#[derive(Clone, Debug, PartialEq)]
pub struct PieceId {
    pub kind: PieceIdKind,
    /// Byte range in the text the move was parsed from.
    pub range: Range<usize>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum PieceIdKind {
    /// Empty: the last active piece(s).
    Active,
    /// `^PieceId`: as the board was at the start of the move.
    MoveStart(Box<PieceId>),
    /// A Location: the top piece there.
    Top(Location),
    /// `N Location`: the top `N` pieces there, or the `N` nearest ones.
    Nearest { count: usize, location: Location },
    /// `Location[...]`: positions counted from the top, starting at 1.
    Slice {
        location: Location,
        positions: Vec<usize>,
    },
    /// `?PieceSpec` (one piece) or `/PieceSpec` (every matching piece).
    Search { spec: Box<PieceSpec>, greedy: bool },
}

fn bad(range: Range<usize>, message: impl Into<String>) -> Issue {
    Issue::error(range, "bad-piece-id", message)
}

fn parse_positions(text: &str, start: usize) -> Result<Vec<usize>, Issue> {
    let mut positions = Vec::new();
    let mut at = start;
    for part in text.split(',') {
        let range = at..at + part.len();
        at += part.len() + 1;
        let invalid = || {
            Issue::error(
                range.clone(),
                "bad-slice",
                format!(
                    "`{part}` is not a position (1 is the top piece) or a range like `2:4` or \
                     `1:7:2`"
                ),
            )
        };
        let number = |s: &str| {
            s.parse::<usize>()
                .ok()
                .filter(|n| *n >= 1)
                .ok_or_else(invalid)
        };
        let bounds: Vec<&str> = part.split(':').collect();
        match bounds.as_slice() {
            [single] => positions.push(number(single)?),
            [from, to] | [from, to, _] => {
                let (from, to) = (number(from)?, number(to)?);
                let step = match bounds.get(2) {
                    Some(step) => number(step)?,
                    None => 1,
                };
                if to >= from {
                    positions.extend((from..=to).step_by(step));
                } else {
                    positions.extend((to..=from).rev().step_by(step));
                }
            }
            _ => return Err(invalid()),
        }
    }
    Ok(positions)
}

/// Parse a PieceId that starts `start` bytes into the move text. Warnings go to `notes`.
pub fn parse_piece_id(
    text: &str,
    start: usize,
    options: &ParserOptions,
    notes: &mut Vec<Issue>,
) -> Result<PieceId, Issue> {
    let range = start..start + text.len();
    // Digits and dots are ASCII, and every byte of another character is not: the bytes
    // can be read instead of the characters.
    let digits = text
        .bytes()
        .position(|byte| !byte.is_ascii_digit())
        .unwrap_or(text.len());
    let kind = if text.is_empty() {
        PieceIdKind::Active
    } else if let Some(rest) = text.strip_prefix('^') {
        PieceIdKind::MoveStart(Box::new(parse_piece_id(rest, start + 1, options, notes)?))
    } else if text
        .bytes()
        .all(|byte| byte.is_ascii_digit() || byte == b'.')
    {
        return Err(bad(
            range,
            format!(
                "`{text}` is not a PieceId: digits alone name no piece (write a Location such \
                 as `b4`, or a count before one such as `2b4`)"
            ),
        ));
    } else if digits > 0 {
        let count = text[..digits]
            .parse::<usize>()
            .map_err(|_| bad(start..start + digits, "this count is too large"))?;
        let location = parse_location(&text[digits..], start + digits, options, notes)?;
        PieceIdKind::Nearest { count, location }
    } else if text.starts_with(['?', '/']) {
        let spec_text = &text[1..];
        let spec = parse_piece_spec(spec_text, options);
        notes.extend(spec.warnings.iter().cloned().map(|w| w.shifted(start + 1)));
        if spec.stated.is_empty() {
            return Err(Issue::error(
                start + 1..range.end,
                "unknown-piece",
                format!("`{spec_text}` names no feature of a piece to search for"),
            ));
        }
        PieceIdKind::Search {
            spec: Box::new(spec),
            greedy: text.starts_with('/'),
        }
    } else if let (Some(open), true) = (rfind_ascii(text, b'['), text.ends_with(']')) {
        let location = parse_location(&text[..open], start, options, notes)?;
        let positions = parse_positions(&text[open + 1..text.len() - 1], start + open + 1)?;
        PieceIdKind::Slice {
            location,
            positions,
        }
    } else {
        PieceIdKind::Top(parse_location(text, start, options, notes)?)
    };
    Ok(PieceId { kind, range })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ppn::reader::location::LocationKind;

    fn parse(text: &str) -> Result<PieceId, Issue> {
        parse_piece_id(text, 10, &ParserOptions::default(), &mut Vec::new())
    }

    #[test]
    fn forms() {
        assert_eq!(parse("").map(|p| p.kind), Ok(PieceIdKind::Active));
        let Ok(PieceIdKind::Nearest { count, location }) = parse("2b4").map(|p| p.kind) else {
            panic!("not nearest");
        };
        assert_eq!(count, 2);
        assert_eq!(location.range, 11..13);
        assert_eq!(location.kind, LocationKind::Absolute { x: 2.0, y: 4.0 });
        let Ok(PieceIdKind::Slice { positions, .. }) = parse("b4[3:1,5,2:6:2]").map(|p| p.kind)
        else {
            panic!("not a slice");
        };
        assert_eq!(positions, vec![3, 2, 1, 5, 2, 4, 6]);
        let Ok(PieceIdKind::Search { greedy, spec }) = parse("/M").map(|p| p.kind) else {
            panic!("not a search");
        };
        assert!(greedy);
        assert_eq!(spec.stated.suit, Some(2));
    }

    #[test]
    fn errors_point_at_the_problem() {
        let digits = parse("15").unwrap_err();
        assert_eq!((digits.code, digits.range), ("bad-piece-id", 10..12));
        let featureless = parse("?Z").unwrap_err();
        assert_eq!(
            (featureless.code, featureless.range),
            ("unknown-piece", 11..12)
        );
        let slice = parse("b4[0]").unwrap_err();
        assert_eq!((slice.code, slice.range), ("bad-slice", 13..14));
    }
}
