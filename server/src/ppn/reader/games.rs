//! Splitting a PPN file into games, and each game into its metadata block and movetext.
//!
//! Lines end at LF, CRLF or a lone CR. A game starts at every line beginning with `---`
//! (and at the first line of the file). Within a game the metadata ends at the first
//! line beginning with `...`; without one, at the first line that is empty or begins
//! with a blank (that line still belongs to the YAML text); without either, the game
//! has no metadata and everything after an opening `---` line is movetext. One repair
//! over the reference: indented `key: value` lines right after the first indented
//! line stay in the metadata (the reference would read them as moves and fail), and
//! an indented first line of a file without `---` starts the movetext.

use std::ops::Range;

use crate::diagnostic::Severity;

/// The most games of a file that are read; the games after them are left alone, so a
/// file of tiny games cannot take minutes and gigabytes to check.
pub const MAX_GAMES: usize = 100_000;

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

/// The line starting at `start` (a line start, before the end of `text`).
fn line_at(text: &str, start: usize) -> Line {
    let bytes = text.as_bytes();
    match memchr::memchr2(b'\n', b'\r', &bytes[start..]) {
        None => Line {
            start,
            content_end: bytes.len(),
            next: bytes.len(),
        },
        Some(offset) => {
            let content_end = start + offset;
            let crlf = bytes[content_end] == b'\r' && bytes.get(content_end + 1) == Some(&b'\n');
            Line {
                start,
                content_end,
                next: content_end + if crlf { 2 } else { 1 },
            }
        }
    }
}

/// The lines from the line start `from` up to `to` (a line start or the end of `text`).
fn lines_between(text: &str, from: usize, to: usize) -> impl Iterator<Item = Line> + '_ {
    let mut at = from;
    std::iter::from_fn(move || {
        (at < to).then(|| {
            let line = line_at(text, at);
            at = line.next;
            line
        })
    })
}

/// The starts of the lines of `text[from..to]` (`from` a line start) that begin with
/// `prefix`, found without reading the text line by line: documents are mostly movetext.
fn lines_beginning_with<'a>(
    text: &'a str,
    from: usize,
    to: usize,
    prefix: &'a str,
) -> impl Iterator<Item = usize> + 'a {
    let bytes = text.as_bytes();
    memchr::memmem::find_iter(&bytes[from..to], prefix.as_bytes())
        .map(move |found| from + found)
        .filter(move |&at| at == from || matches!(bytes[at - 1], b'\n' | b'\r'))
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

/// Something in the game structure that the reference reads differently.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocumentProblem {
    /// Byte range in the file.
    pub range: Range<usize>,
    pub code: DocumentProblemCode,
    pub message: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DocumentProblemCode {
    /// A `---` block with neither `...` nor an empty line: it is read as no metadata.
    UnterminatedMetadata,
    /// Indented YAML lines after the first one, without `...`: the reference stops the
    /// metadata at the first indented line and reads the rest as moves.
    IndentedMetadataWithoutEnd,
    /// The file starts with an indented line and has no `...`: the reference reads
    /// that line as the metadata.
    IndentedFirstLine,
    /// More than [`MAX_GAMES`] games: the rest of the file is not read.
    TooManyGames,
}

impl DocumentProblemCode {
    pub fn as_str(self) -> &'static str {
        match self {
            DocumentProblemCode::UnterminatedMetadata => "unterminated-metadata",
            DocumentProblemCode::IndentedMetadataWithoutEnd => "indented-metadata-without-end",
            DocumentProblemCode::IndentedFirstLine => "indented-first-line",
            DocumentProblemCode::TooManyGames => "too-many-games",
        }
    }

    pub fn severity(self) -> Severity {
        match self {
            DocumentProblemCode::TooManyGames => Severity::Error,
            _ => Severity::Warning,
        }
    }
}

/// Splits `text` into games. A file always holds at least one game.
pub fn split_games(text: &str) -> Vec<GameSource> {
    split_games_checked(text).0
}

/// [`split_games`], plus the places where the reference would split differently.
pub fn split_games_checked(text: &str) -> (Vec<GameSource>, Vec<DocumentProblem>) {
    let mut problems = Vec::new();
    if text.is_empty() {
        let game = GameSource {
            range: 0..0,
            metadata: None,
            movetext: 0..0,
        };
        return (vec![game], problems);
    }
    // The first line starts a game whatever it holds (a `---` after a byte-order mark too).
    let mut starts: Vec<usize> = std::iter::once(0)
        .chain(lines_beginning_with(text, 0, text.len(), "---").filter(|&at| at > 0))
        .take(MAX_GAMES + 1)
        .collect();
    if let Some(&first_unread) = starts.get(MAX_GAMES) {
        let line = line_at(text, first_unread);
        problems.push(DocumentProblem {
            range: line.start..line.content_end,
            code: DocumentProblemCode::TooManyGames,
            message: format!(
                "this file has more than {MAX_GAMES} games; this game and those after it \
                 are not checked"
            ),
        });
    } else {
        starts.push(text.len());
    }
    // The last game read ends where the next one (or the first one left unread) starts.
    let games = starts
        .windows(2)
        .map(|game| game_source(text, game[0], game[1], &mut problems))
        .collect();
    (games, problems)
}

/// An indented line that can only be YAML: `key: value`, `key:` or `- item`.
fn is_indented_yaml_entry(content: &str) -> bool {
    if !content.starts_with(is_blank) {
        return false;
    }
    let entry = content.trim_start_matches(is_blank);
    if entry.starts_with("- ") || entry == "-" {
        return true;
    }
    let Some(key) = entry.split(char::is_whitespace).next() else {
        return false;
    };
    key.len() > 1 && key.ends_with(':') && !key.starts_with('{')
}

/// The game whose lines run from `start` (a line start) to `end`.
fn game_source(
    text: &str,
    start: usize,
    end: usize,
    problems: &mut Vec<DocumentProblem>,
) -> GameSource {
    let first = line_at(text, start);
    let opens_with_dashes = line_content(text, &first).starts_with("---");
    let dots = if line_content(text, &first).starts_with("...") {
        Some(first)
    } else {
        lines_beginning_with(text, first.next, end, "...")
            .next()
            .map(|at| line_at(text, at))
    };
    let metadata_end = dots.or_else(|| {
        let mut lines = lines_between(text, start, end);
        let stop = lines.find(|line| ends_metadata_without_dots(line_content(text, line)))?;
        if line_content(text, &stop).trim_matches(is_blank).is_empty() {
            return Some(stop);
        }
        if stop.start == start {
            // An indented first line in a file without `---` is movetext, not YAML.
            problems.push(DocumentProblem {
                range: first.start..first.content_end,
                code: DocumentProblemCode::IndentedFirstLine,
                message: "the reference reads an indented first line as metadata; \
                          it is read as movetext here"
                    .to_string(),
            });
            return None;
        }
        // The reference stops at the first indented line, which cuts a block mapping
        // of several lines in two; keep its indented YAML entries together instead.
        let last = lines
            .take_while(|line| is_indented_yaml_entry(line_content(text, line)))
            .last();
        if let Some(last) = last {
            problems.push(DocumentProblem {
                range: stop.next..last.content_end,
                code: DocumentProblemCode::IndentedMetadataWithoutEnd,
                message: "the reference ends the metadata at the first indented line and \
                          reads these lines as moves; end the metadata with a `...` line"
                    .to_string(),
            });
        }
        Some(last.unwrap_or(stop))
    });
    let Some(terminator) = metadata_end else {
        let movetext_start = if opens_with_dashes {
            problems.push(DocumentProblem {
                range: first.start..first.content_end,
                code: DocumentProblemCode::UnterminatedMetadata,
                message: "no `...` line or empty line ends this metadata block, so the game \
                          has no metadata (the reference fails to read it)"
                    .to_string(),
            });
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
    let yaml_end = if line_content(text, &terminator).starts_with("...") {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_past_the_budget_are_not_read_and_that_is_said_once() {
        let text = "---\n...\n".repeat(MAX_GAMES + 5);
        let (games, problems) = split_games_checked(&text);
        assert_eq!(games.len(), MAX_GAMES);
        let first_unread = MAX_GAMES * "---\n...\n".len();
        assert_eq!(games[MAX_GAMES - 1].range.end, first_unread);
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert_eq!(problems[0].code, DocumentProblemCode::TooManyGames);
        assert_eq!(problems[0].code.severity(), Severity::Error);
        assert_eq!(problems[0].range, first_unread..first_unread + 3);
    }

    #[test]
    fn a_file_at_the_budget_is_read_whole() {
        let text = "---\n...\n1. S@a1\n".repeat(MAX_GAMES);
        let (games, problems) = split_games_checked(&text);
        assert_eq!(games.len(), MAX_GAMES);
        assert_eq!(games[MAX_GAMES - 1].range.end, text.len());
        assert!(problems.is_empty(), "{problems:?}");
    }

    #[test]
    fn games_and_metadata_ends_are_found_after_every_kind_of_line_end() {
        // LF, CRLF and a lone CR; dashes and dots inside lines and runs longer than three.
        let text = "\u{FEFF}---\rA: 1\r\n....\n1... a-b ---- c\r\n---\r\nB: 2\r...x\n";
        let (games, problems) = split_games_checked(text);
        assert!(problems.is_empty(), "{problems:?}");
        let second = text.find("\n---\r").unwrap() + 1;
        assert_eq!(
            games.iter().map(|g| g.range.clone()).collect::<Vec<_>>(),
            [0..second, second..text.len()]
        );
        assert_eq!(&text[games[0].metadata.clone().unwrap()], "A: 1\r\n");
        assert_eq!(&text[games[0].movetext.clone()], "1... a-b ---- c\r\n");
        assert_eq!(&text[games[1].metadata.clone().unwrap()], "B: 2\r");
        assert_eq!(games[1].movetext.clone(), text.len()..text.len());
    }
}
