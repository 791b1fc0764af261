//! Splitting a PPN file into games, and each game into its metadata block and movetext.
//!
//! Lines end at LF, CRLF or a lone CR. A game starts at every line beginning with `---`
//! (and at the first line of the file). Within a game the metadata ends at the first
//! line beginning with `...`; without one, at the first line that is empty or begins
//! with a blank (that line still belongs to the YAML text); without either, the game
//! has no metadata and everything after an opening `---` line is movetext.

use std::ops::Range;

/// Where one game sits in the file. All ranges are byte offsets into the file text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameSource {
    /// The whole game, from its first line up to the next game (or the end of file).
    pub range: Range<usize>,
    /// The YAML text, without the `---` and `...` lines; `None` when the game has no
    /// metadata block at all (an empty block gives an empty range).
    pub metadata: Option<Range<usize>>,
    /// Everything after the metadata block up to the end of the game.
    pub movetext: Range<usize>,
}

#[derive(Debug, Clone, Copy)]
struct Line {
    start: usize,
    content_end: usize,
    next: usize,
}

fn split_lines(text: &str) -> Vec<Line> {
    let bytes = text.as_bytes();
    let mut lines = Vec::new();
    let mut start = 0;
    let mut index = 0;
    while index < bytes.len() {
        match bytes[index] {
            b'\n' => {
                lines.push(Line {
                    start,
                    content_end: index,
                    next: index + 1,
                });
                index += 1;
                start = index;
            }
            b'\r' => {
                let next = if bytes.get(index + 1) == Some(&b'\n') {
                    index + 2
                } else {
                    index + 1
                };
                lines.push(Line {
                    start,
                    content_end: index,
                    next,
                });
                index = next;
                start = index;
            }
            _ => index += 1,
        }
    }
    if start < bytes.len() {
        lines.push(Line {
            start,
            content_end: bytes.len(),
            next: bytes.len(),
        });
    }
    lines
}

/// A byte-order mark only hides the `---` of the first line; it is not content.
fn line_content<'a>(text: &'a str, line: &Line) -> &'a str {
    let content = &text[line.start..line.content_end];
    if line.start == 0 {
        content.strip_prefix('\u{FEFF}').unwrap_or(content)
    } else {
        content
    }
}

/// Space-like characters that may open an indented (YAML continuation) line; the
/// no-break spaces are deliberately not among them.
fn is_blank(c: char) -> bool {
    matches!(
        c,
        ' ' | '\t' | '\u{1680}' | '\u{2000}'..='\u{2006}' | '\u{2008}'..='\u{200A}' | '\u{205F}' | '\u{3000}'
    )
}

fn ends_metadata_without_dots(content: &str) -> bool {
    content.chars().next().is_none_or(is_blank)
}

/// Splits `text` into games. A file always holds at least one game.
pub fn split_games(text: &str) -> Vec<GameSource> {
    let lines = split_lines(text);
    if lines.is_empty() {
        return vec![GameSource {
            range: 0..text.len(),
            metadata: None,
            movetext: text.len()..text.len(),
        }];
    }
    let mut starts: Vec<usize> = (0..lines.len())
        .filter(|&i| line_content(text, &lines[i]).starts_with("---"))
        .collect();
    if starts.first() != Some(&0) {
        starts.insert(0, 0);
    }
    starts
        .iter()
        .enumerate()
        .map(|(game, &first)| {
            let last = starts.get(game + 1).map_or(lines.len(), |&next| next) - 1;
            game_source(text, &lines[first..=last])
        })
        .collect()
}

fn game_source(text: &str, lines: &[Line]) -> GameSource {
    let first = lines[0];
    let end = lines[lines.len() - 1].next;
    let contents: Vec<&str> = lines.iter().map(|line| line_content(text, line)).collect();
    let opens_with_dashes = contents[0].starts_with("---");
    let metadata_end = contents
        .iter()
        .position(|content| content.starts_with("..."))
        .or_else(|| {
            contents
                .iter()
                .position(|content| ends_metadata_without_dots(content))
        });
    let Some(last_metadata_line) = metadata_end else {
        let movetext_start = if opens_with_dashes {
            first.next
        } else {
            first.start
        };
        return GameSource {
            range: first.start..end,
            metadata: None,
            movetext: movetext_start..end,
        };
    };
    let terminator = lines[last_metadata_line];
    let yaml_start = if opens_with_dashes {
        let after_dashes = text[first.start..first.content_end]
            .find("---")
            .map_or(first.start, |offset| first.start + offset + 3);
        if text[after_dashes..first.content_end].trim().is_empty() {
            first.next
        } else {
            after_dashes
        }
    } else {
        first.start
    };
    let yaml_end = if contents[last_metadata_line].starts_with("...") {
        terminator.start
    } else {
        terminator.next
    };
    GameSource {
        range: first.start..end,
        metadata: Some(yaml_start.min(yaml_end)..yaml_end),
        movetext: terminator.next..end,
    }
}
