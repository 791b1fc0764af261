//! The layout of an OpenTafl game record, as the notation's specification writes one:
//! each tag on its own line, an empty line between the tags and the turns, each turn on
//! its own line with single spaces between its number and its moves, and the commentary
//! where it was (after its turn on the same line, or on the lines after it), written as it
//! was. Runs of empty lines become one; lines lose their leading and trailing blanks.
//!
//! A record is read line by line (a turn runs to its line's end, and a line of text after a
//! turn is its commentary), so no line is ever joined to another or cut: only the blanks
//! within lines and the empty lines between them change. The record as laid out is read
//! again and must give the same tags, turns and commentary, else it is left as written.

use std::ops::Range;

use crate::model::layout::FormatOptions;
use crate::otn::reader::{parse_file, FileKind, OtnFile};

/// Something of the record, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Tag,
    /// A turn's number or one of its moves.
    TurnWord {
        first: bool,
    },
    Commentary,
}

fn line_ending(text: &str) -> &'static str {
    match text.find(['\n', '\r']) {
        Some(at) if text[at..].starts_with("\r\n") => "\r\n",
        Some(at) if text.as_bytes()[at] == b'\r' => "\r",
        _ => "\n",
    }
}

/// The pieces of `file`, in order and disjoint; `None` when they are not.
fn pieces(text: &str, file: &OtnFile) -> Option<Vec<(Range<usize>, Kind)>> {
    let mut pieces: Vec<(Range<usize>, Kind)> = file
        .tags
        .iter()
        .map(|tag| (tag.range.clone(), Kind::Tag))
        .collect();
    for turn in file.turns.iter() {
        let mut first = true;
        let mut at = turn.range.start;
        let part = text.get(turn.range.clone())?;
        for word in part.split_ascii_whitespace() {
            let offset = part[at - turn.range.start..].find(word)? + at;
            pieces.push((offset..offset + word.len(), Kind::TurnWord { first }));
            first = false;
            at = offset + word.len();
        }
        if let Some(commentary) = &turn.commentary {
            pieces.push((commentary.range.clone(), Kind::Commentary));
        }
    }
    pieces.sort_by_key(|(range, _)| range.start);
    let disjoint = pieces
        .windows(2)
        .all(|pair| pair[0].0.end <= pair[1].0.start);
    disjoint.then_some(pieces)
}

/// Line breaks in a gap (`\r\n` once).
fn line_breaks(gap: &str) -> usize {
    gap.matches('\n').count() + gap.matches('\r').count() - gap.matches("\r\n").count()
}

/// The edits that lay out `text`, an OpenTafl file; `None` when it is a record whose
/// layout would not read back the same (it is then left as written).
pub fn layout(text: &str, _options: &FormatOptions) -> Option<Vec<(Range<usize>, String)>> {
    let file = parse_file(text);
    if file.kind != FileKind::GameRecord {
        return Some(Vec::new());
    }
    let pieces = pieces(text, &file)?;
    let eol = line_ending(text);
    let mut edits = Vec::new();
    let mut at = 0;
    let mut previous: Option<Kind> = None;
    for (range, kind) in &pieces {
        let gap = &text[at..range.start];
        if !gap
            .chars()
            .all(|c| c.is_ascii_whitespace() || c == '\u{feff}')
        {
            // Text the reader skipped: not laid out.
            return None;
        }
        let breaks = line_breaks(gap);
        let new = match previous {
            // The file starts with its first piece (a byte-order mark stays).
            None => gap
                .strip_suffix(|c: char| c.is_ascii_whitespace())
                .map_or_else(
                    || gap.to_string(),
                    |_| gap.chars().filter(|&c| c == '\u{feff}').collect(),
                ),
            Some(_) if breaks == 0 => " ".to_string(),
            Some(Kind::Tag) if matches!(kind, Kind::TurnWord { first: true }) => {
                format!("{eol}{eol}")
            }
            Some(_) if breaks >= 2 => format!("{eol}{eol}"),
            Some(_) => eol.to_string(),
        };
        if new != gap {
            edits.push((at..range.start, new));
        }
        previous = Some(*kind);
        at = range.end;
    }
    let tail = &text[at..];
    if !tail.chars().all(|c| c.is_ascii_whitespace()) {
        return None;
    }
    if previous.is_some() && tail != eol {
        edits.push((at..text.len(), eol.to_string()));
    }
    let laid_out = crate::model::edit::with_replacements(text, &edits);
    if !reads_the_same(text, &file, &laid_out) {
        return None;
    }
    Some(edits)
}

/// Whether `laid_out` reads as the same record as `text` (read as `file`).
fn reads_the_same(text: &str, file: &OtnFile, laid_out: &str) -> bool {
    let again = parse_file(laid_out);
    let tags = |text: &str, file: &OtnFile| -> Vec<String> {
        file.tags
            .iter()
            .map(|tag| text[tag.range.clone()].to_string())
            .collect()
    };
    let turns = |text: &str, file: &OtnFile| -> Vec<(String, Option<String>)> {
        file.turns
            .iter()
            .map(|turn| {
                (
                    text[turn.range.clone()]
                        .split_ascii_whitespace()
                        .collect::<Vec<_>>()
                        .join(" "),
                    turn.commentary
                        .as_ref()
                        .map(|commentary| text[commentary.range.clone()].to_string()),
                )
            })
            .collect()
    };
    let codes =
        |file: &OtnFile| -> Vec<&'static str> { file.diagnostics.iter().map(|d| d.code).collect() };
    again.kind == file.kind
        && tags(text, file) == tags(laid_out, &again)
        && turns(text, file) == turns(laid_out, &again)
        && codes(file) == codes(&again)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn laid_out(text: &str) -> String {
        let edits = layout(text, &FormatOptions::default()).expect("laid out");
        crate::model::edit::with_replacements(text, &edits)
    }

    #[test]
    fn a_turn_a_line_and_the_tags_apart() {
        let text = "  [event:Club]  \n[rules:dim:7 start:/3t3/3t3/tTTKTTt/3T3/3t3/7/7/]\n\
                    1.   d5-f5\tb4-b2   [fine|  a reply ]\n\n\n\n2. f5-f2 b2-c2\nsays   something  \n";
        assert_eq!(
            laid_out(text),
            "[event:Club]\n[rules:dim:7 start:/3t3/3t3/tTTKTTt/3T3/3t3/7/7/]\n\n\
             1. d5-f5 b4-b2 [fine|  a reply ]\n\n2. f5-f2 b2-c2\nsays   something\n"
        );
        let again = laid_out(&laid_out(text));
        assert_eq!(again, laid_out(text));
    }

    #[test]
    fn files_that_are_not_records_are_left_alone() {
        for text in [
            "dim:7 start:/3t3/3t3/tTTKTTt/3T3/3t3/7/7/  \n",
            "/3t3/3t3/  ",
            "",
        ] {
            assert_eq!(layout(text, &FormatOptions::default()), Some(Vec::new()));
        }
    }
}
