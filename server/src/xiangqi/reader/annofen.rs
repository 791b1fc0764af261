//! annoFEN (`v1 r[<bm><a+1-2>]bakabnr/9/...`) and plain xiangqi FEN files.
//!
//! Both are read line by line: blank lines and `#` comments are skipped, and the first
//! position line is the position. xiangqi-setup reads only that one; a second is reported.

use std::ops::Range;

use crate::diagnostic::Fix;
use crate::model::features::TokenKind;
use crate::model::format::Format;

use crate::xiangqi::board::Side;
use crate::xiangqi::reader::parsed::{trimmed, words, Parsed, Slot};
use crate::xiangqi::reader::position::{read_board_field, FieldSyntax, Position};

/// Read an annoFEN file.
pub fn read_annofen(text: &str) -> Parsed {
    read_lines(text, Format::AnnoFen)
}

/// Read a plain FEN file.
pub fn read_fen(text: &str) -> Parsed {
    read_lines(text, Format::Fen)
}

fn read_lines(text: &str, format: Format) -> Parsed {
    let name = match format {
        Format::AnnoFen => "annoFEN position",
        _ => "FEN position",
    };
    let mut parsed = Parsed::new(format, name);
    let mut comments = Vec::new();
    let mut seen: Option<Range<usize>> = None;
    for line in Parsed::lines(text) {
        let content = trimmed(text, line.clone());
        if content.is_empty() {
            continue;
        }
        if text[content.clone()].starts_with('#') {
            comments.push(content);
            continue;
        }
        if let Some(first) = &seen {
            let (code, message) = match format {
                Format::AnnoFen => (
                    "annofen-extra-position",
                    "an annoFEN file holds one position; xiangqi-setup rejects anything after it",
                ),
                _ => (
                    "fen-extra-position",
                    "xiangqi-setup reads only the first position of a FEN file; this line is ignored",
                ),
            };
            let diagnostic = crate::diagnostic::Diagnostic::new(
                content.clone(),
                if format == Format::AnnoFen {
                    crate::diagnostic::Severity::Error
                } else {
                    crate::diagnostic::Severity::Warning
                },
                code,
                message,
            )
            .with_related(first.clone(), "the position");
            parsed.diagnostics.push(diagnostic);
            continue;
        }
        seen = Some(content.clone());
        match format {
            Format::AnnoFen => annofen_line(text, content, &mut parsed),
            _ => fen_line(text, content, &mut parsed),
        }
    }
    parsed.comment_lines(text, &comments);
    if seen.is_none() {
        let end = text.len();
        let message = match format {
            Format::AnnoFen => "no position: an annoFEN file has a line `v1 <board>`",
            _ => "no position: a FEN file has a line like `rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w`",
        };
        parsed.error(0..end.min(1), "xiangqi-no-position", message);
    }
    parsed
}

/// The position of a line `v1 <board> [anything]`.
fn annofen_line(text: &str, line: Range<usize>, parsed: &mut Parsed) {
    parsed.position_range = Some(line.clone());
    parsed.selection = line.clone();
    let content = &text[line.clone()];
    if !content.starts_with("v1 ") && !content.starts_with("v1\t") {
        let version = content.split_whitespace().next().unwrap_or_default();
        if version.len() > 1
            && version.starts_with('v')
            && version[1..].chars().all(|c| c.is_ascii_digit())
        {
            parsed.error(
                line.start..line.start + version.len(),
                "annofen-version",
                format!("`{version}` is not an annoFEN version this reader knows: write `v1`"),
            );
            return;
        }
        let looks_like_fen = content.contains('/');
        let mut diagnostic = crate::diagnostic::Diagnostic::error(
            line.start..line.start + version.len().max(1),
            "annofen-missing-prefix",
            "an annoFEN position starts with `v1 ` (the version of the format)",
        );
        if looks_like_fen {
            diagnostic = diagnostic.with_fix(Fix {
                title: "Insert `v1 `".to_string(),
                edits: vec![(line.start..line.start, "v1 ".to_string())],
            });
        }
        parsed.diagnostics.push(diagnostic);
        if looks_like_fen {
            read_position(text, line.clone(), line, Format::AnnoFen, parsed);
        }
        return;
    }
    parsed.token(line.start..line.start + 2, TokenKind::Keyword);
    let rest = line.start + 3..line.end;
    read_position(text, rest, line, Format::AnnoFen, parsed);
}

fn fen_line(text: &str, line: Range<usize>, parsed: &mut Parsed) {
    parsed.position_range = Some(line.clone());
    parsed.selection = line.clone();
    read_position(text, line.clone(), line, Format::Fen, parsed);
}

/// The board field and the fields after it, in `range`.
fn read_position(
    text: &str,
    range: Range<usize>,
    line: Range<usize>,
    format: Format,
    parsed: &mut Parsed,
) {
    let fields = words(text, range.clone());
    let syntax = if format == Format::AnnoFen {
        FieldSyntax::AnnoFen
    } else {
        FieldSyntax::Fen
    };
    let field = fields.first().cloned().unwrap_or(range.end..range.end);
    parsed.slots.push(Slot::BoardField {
        range: field.clone(),
        annotated: syntax == FieldSyntax::AnnoFen,
    });
    if fields.is_empty() {
        parsed.error(
            line,
            "xiangqi-no-position",
            "the board is missing: write its ranks from Black's side (rank 9) to Red's, separated by `/`",
        );
        return;
    }
    let read = read_board_field(text, field.clone(), syntax);
    parsed.diagnostics.extend(read.diagnostics);
    parsed.tokens.extend(read.tokens);
    let mut side_to_move = None;
    if let Some(side) = fields.get(1) {
        let word = &text[side.clone()];
        parsed.token(side.clone(), TokenKind::String);
        side_to_move = match word {
            "w" | "r" | "W" | "R" => Some(Side::Red),
            "b" | "B" => Some(Side::Black),
            _ => {
                parsed.warning(
                    side.clone(),
                    "fen-side-to-move",
                    format!("`{word}` is not a side to move: `w` (or `r`) for Red, `b` for Black"),
                );
                None
            }
        };
    }
    for extra in fields.iter().skip(2) {
        parsed.token(extra.clone(), TokenKind::String);
    }
    if fields.len() > 6 {
        parsed.warning(
            fields[6].start..fields[fields.len() - 1].end,
            "fen-extra-fields",
            "a FEN has at most six fields: board, side to move, two `-`, and two move counters",
        );
    }
    parsed.start = Position {
        atoms: read.atoms,
        side_to_move,
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes(parsed: &Parsed) -> Vec<&'static str> {
        parsed.diagnostics.iter().map(|d| d.code).collect()
    }

    #[test]
    fn the_sample_annofen_reads_cleanly() {
        let text = "# Copyright\n# This is a xiangqi-setup annotated FEN file\nv1 r[<bm><a+1-2>]bakabnr/9/1c[<pm>n]4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2[<pm>C]2[<bm><a-3+0>]1/9/RNBAKABNR\n";
        let parsed = read_annofen(text);
        assert_eq!(codes(&parsed), Vec::<&str>::new());
        assert_eq!(parsed.start.atoms.len(), 32 + 6);
        assert_eq!(parsed.folds.len(), 1, "the two comment lines fold");
        assert_eq!(parsed.start.side_to_move, None);
    }

    #[test]
    fn fields_after_the_board_are_allowed_as_in_xiangqi_setup() {
        let parsed = read_annofen("v1 r1bakab1r/4c4/4c4/p1[n<a+1-2>]3p1p/9/3CC1P2/P1P1P3P/2N3N2/4A4/2BAK1B1R w - - 0 12\n");
        assert_eq!(codes(&parsed), Vec::<&str>::new());
        assert_eq!(parsed.start.side_to_move, Some(Side::Red));
    }

    #[test]
    fn a_missing_prefix_gets_a_fix_and_a_second_position_an_error() {
        let text = "rnbakabnr/9/9/9/9/9/9/9/9/RNBAKABNR\nv1 9/9/9/9/9/9/9/9/9/9\n";
        let parsed = read_annofen(text);
        assert_eq!(
            codes(&parsed),
            ["annofen-missing-prefix", "annofen-extra-position"]
        );
        let fix = &parsed.diagnostics[0].fixes[0];
        assert_eq!(fix.edits, [(0..0, "v1 ".to_string())]);
        assert_eq!(parsed.start.atoms.len(), 18, "the position is still read");
        let version = read_annofen("v2 9/9/9/9/9/9/9/9/9/9\n");
        assert_eq!(codes(&version), ["annofen-version"]);
        assert_eq!(version.diagnostics[0].range, 0..2);
    }

    #[test]
    fn plain_fen_with_side_to_move() {
        let parsed =
            read_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/6P2/P1P1P3P/1C5C1/9/RNBAKABNR b - - 1 1\n");
        assert_eq!(codes(&parsed), Vec::<&str>::new());
        assert_eq!(parsed.start.side_to_move, Some(Side::Black));
        assert_eq!(parsed.start.atoms.len(), 32);
        let bad = read_fen("9/9/9/9/9/9/9/9/9/9 x\n9/9/9/9/9/9/9/9/9/9\n");
        assert_eq!(codes(&bad), ["fen-side-to-move", "fen-extra-position"]);
        let empty = read_fen("# nothing\n");
        assert_eq!(codes(&empty), ["xiangqi-no-position"]);
    }
}
