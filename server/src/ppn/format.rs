//! The layout of a PPN file (see `docs/formatting.md`).
//!
//! Only whitespace changes, and only where the notation reads any run of whitespace as one
//! space: between the words of a movetext (the splitter cuts the movetext at whitespace and
//! joins the words with single spaces before anything else reads it) and at the ends of
//! lines. Words, comments and MoveNumbers are kept as written; the metadata keeps its text,
//! losing only spaces at the ends of its lines, and only when its YAML reads the same
//! without them.
//!
//! The movetext is laid out a move pair a line: a line starts at each MoveNumber whose
//! number differs from the one before (`1.` and `1...`, or `3S.` and `3T.`, share a line);
//! a pair wider than the line width is written a move a line, and a move wider than it
//! goes on over lines indented under its first move. A comment that starts a line stays on
//! a line of its own; any other comment follows the word before it. Blank lines are kept
//! (several in a row become one).
//!
//! Each game's new text is checked before it is given out: it must split into the same
//! game (the same `---` and `...` lines, the same metadata) with the same words in its
//! movetext. A game whose layout would not (something this module does not foresee) is
//! left as written.

use std::ops::Range;

use crate::model::edit::with_replacements;
use crate::model::layout::FormatOptions;
use crate::model::notation_document::pair_key;
use crate::ppn::reader::games::{split_games, split_games_checked, GameSource};
use crate::ppn::reader::metadata::parse_metadata;
use crate::ppn::reader::movetext::is_movetext_whitespace;

/// The edits that lay out `text`, in order and disjoint, and the games left as written.
pub fn layout(text: &str, options: &FormatOptions) -> (Vec<(Range<usize>, String)>, Vec<usize>) {
    let eol = line_ending(text);
    let games = split_games(text);
    let mut edits = Vec::new();
    let mut left_as_written = Vec::new();
    for (index, game) in games.iter().enumerate() {
        let is_last = game.range.end == text.len();
        let mut game_edits = layout_game(text, game, eol, options);
        if is_last {
            end_with_a_line_break(text, game, eol, &mut game_edits);
        }
        if game_edits.is_empty() {
            continue;
        }
        if reads_the_same(text, game, &game_edits) {
            edits.extend(game_edits);
        } else {
            left_as_written.push(index);
        }
    }
    (edits, left_as_written)
}

/// The file's first line ending, which every line the layout ends is ended with.
fn line_ending(text: &str) -> &'static str {
    match text.find(['\n', '\r']) {
        Some(at) if text[at..].starts_with("\r\n") => "\r\n",
        Some(at) if text.as_bytes()[at] == b'\r' => "\r",
        _ => "\n",
    }
}

fn is_line_break(byte: u8) -> bool {
    matches!(byte, b'\n' | b'\r')
}

/// Trailing spaces and tabs of a line: what is trimmed.
fn is_trailing_blank(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t')
}

/// A file ends with a line break, and the last game's movetext with no blank line.
fn end_with_a_line_break(
    text: &str,
    game: &GameSource,
    eol: &str,
    edits: &mut Vec<(Range<usize>, String)>,
) {
    let chunk = &text[game.range.clone()];
    if chunk.is_empty() {
        return;
    }
    let formatted = game_with_edits(text, game, edits);
    if formatted
        .as_bytes()
        .last()
        .is_some_and(|&byte| is_line_break(byte))
    {
        return;
    }
    match edits.last_mut() {
        Some((range, new)) if range.end == game.range.end => new.push_str(eol),
        _ => edits.push((game.range.end..game.range.end, eol.to_string())),
    }
}

fn layout_game(
    text: &str,
    game: &GameSource,
    eol: &str,
    options: &FormatOptions,
) -> Vec<(Range<usize>, String)> {
    let is_last = game.range.end == text.len();
    let header = game.range.start..game.movetext.start.max(game.range.start);
    let mut edits = header_edits(text, header.clone(), game.metadata.clone(), eol);
    let header_ends_blank = ends_with_blank_line(text, &header);
    let movetext = game.movetext.start.min(game.range.end)..game.range.end;
    // Without metadata, an indented or empty line would end the metadata there: the
    // lines are not indented, and the first one keeps what it starts with.
    let flush_left = game.metadata.is_none();
    let shape = Shape {
        is_last,
        header_ends_blank,
        flush_left,
    };
    match movetext_edits(text, movetext, &shape, eol, options) {
        Some(movetext_edits) => edits.extend(movetext_edits),
        // A movetext this layout cannot place safely: the whole game stays as written.
        None => return Vec::new(),
    }
    edits
}

/// Whether the lines of `range` end with an empty (or blank) line.
fn ends_with_blank_line(text: &str, range: &Range<usize>) -> bool {
    let part = text[range.clone()].as_bytes();
    let Some((&last, rest)) = part.split_last() else {
        return false;
    };
    if !is_line_break(last) {
        return false;
    }
    let rest = if last == b'\n' && rest.last() == Some(&b'\r') {
        &rest[..rest.len() - 1]
    } else {
        rest
    };
    let line_start = rest
        .iter()
        .rposition(|&byte| is_line_break(byte))
        .map_or(0, |at| at + 1);
    rest[line_start..]
        .iter()
        .all(|&byte| is_trailing_blank(byte))
}

/// The spaces and tabs at the ends of the header's lines, taken out, unless the metadata
/// reads differently without them (a literal block scalar keeps them as text).
fn header_edits(
    text: &str,
    header: Range<usize>,
    metadata: Option<Range<usize>>,
    eol: &str,
) -> Vec<(Range<usize>, String)> {
    let mut edits = Vec::new();
    let bytes = text.as_bytes();
    let mut line_start = header.start;
    while line_start < header.end {
        let content_end = memchr::memchr2(b'\n', b'\r', &bytes[line_start..header.end])
            .map_or(header.end, |at| line_start + at);
        let mut trimmed_end = content_end;
        while trimmed_end > line_start && is_trailing_blank(bytes[trimmed_end - 1]) {
            trimmed_end -= 1;
        }
        if trimmed_end < content_end {
            // A blank last line without its line break stays a line (an empty one): it
            // ends the metadata.
            let unended_blank_line = content_end == header.end && trimmed_end == line_start;
            let new = if unended_blank_line { eol } else { "" };
            edits.push((trimmed_end..content_end, new.to_string()));
        }
        if content_end == header.end {
            break;
        }
        let crlf = bytes[content_end] == b'\r' && bytes.get(content_end + 1) == Some(&b'\n');
        line_start = content_end + if crlf { 2 } else { 1 };
    }
    let touches_metadata = |metadata: &Range<usize>| {
        edits
            .iter()
            .any(|(range, _)| range.start < metadata.end && metadata.start < range.end)
    };
    if let Some(metadata) = metadata.filter(touches_metadata) {
        if !metadata_reads_the_same(text, &metadata, &edits) {
            edits.retain(|(range, _)| range.end <= metadata.start || range.start >= metadata.end);
        }
    }
    edits
}

/// Whether the metadata at `metadata` parses to the same mapping, without problems, once
/// `edits` are made.
fn metadata_reads_the_same(
    text: &str,
    metadata: &Range<usize>,
    edits: &[(Range<usize>, String)],
) -> bool {
    let (before, problems) = parse_metadata(text, Some(metadata.clone()));
    if !problems.is_empty() {
        return false;
    }
    let inside: Vec<(Range<usize>, String)> = edits
        .iter()
        .filter(|(range, _)| range.start >= metadata.start && range.end <= metadata.end)
        .map(|(range, new)| {
            (
                range.start - metadata.start..range.end - metadata.start,
                new.clone(),
            )
        })
        .collect();
    let trimmed = with_replacements(&text[metadata.clone()], &inside);
    let (after, problems) = parse_metadata(&trimmed, Some(0..trimmed.len()));
    problems.is_empty() && after.mapping == before.mapping
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ItemKind {
    /// A MoveNumber that starts a move: a line may start here.
    MoveNumber,
    /// Any other word: a move's text, a `.` MoveNumber, a MoveNumber of dots alone.
    Word,
    Comment,
}

/// A word or comment of the movetext.
#[derive(Debug)]
struct Item {
    range: Range<usize>,
    kind: ItemKind,
    /// The item starts a line, in the first column.
    starts_line: bool,
    /// An empty line comes between it and the item before.
    blank_before: bool,
    /// It would end the metadata or start a game at the start of a line (`...`, `---`).
    never_first_on_a_line: bool,
    /// A MoveNumber (or a `.`): it stays on the line of the word after it.
    joins_next: bool,
    /// Characters on its first and last lines, and whether it has several (a comment).
    first_width: usize,
    last_width: usize,
    multiline: bool,
}

/// The words and comments of a movetext, and the whitespace around them: `gaps[i]` lies
/// before `items[i]`, and the last gap after the last item.
struct Words {
    items: Vec<Item>,
    gaps: Vec<Range<usize>>,
}

fn is_whitespace_at(text: &str, at: usize) -> Option<usize> {
    let c = text[at..].chars().next()?;
    is_movetext_whitespace(c).then_some(c.len_utf8())
}

/// The end of the whitespace at `at` (before `end`).
fn whitespace_end(text: &str, mut at: usize, end: usize) -> usize {
    while at < end {
        match is_whitespace_at(text, at) {
            Some(width) => at += width,
            None => break,
        }
    }
    at
}

/// The end of the word at `at` (before `end`).
fn word_end(text: &str, at: usize, end: usize) -> usize {
    text[at..end]
        .char_indices()
        .find(|&(_, c)| is_movetext_whitespace(c))
        .map_or(end, |(offset, _)| at + offset)
}

/// Line breaks in a whitespace run (`\r\n` counting once).
fn line_breaks(text: &str, run: &Range<usize>) -> usize {
    let bytes = &text.as_bytes()[run.clone()];
    bytes
        .iter()
        .enumerate()
        .filter(|&(i, &byte)| byte == b'\n' || (byte == b'\r' && bytes.get(i + 1) != Some(&b'\n')))
        .count()
}

/// The end of the comment opening at `open` (a `{` where a word starts), as the grammar
/// reads it: a `{` followed by whitespace before its `}` (or a whole `{word}`) opens a
/// comment, which ends at the first `}`. `None` when the brace opens no comment;
/// `Some(None)` for a comment that is never closed.
fn comment_end(text: &str, open: usize, end: usize) -> Option<Option<usize>> {
    let mut saw_space = false;
    for (offset, c) in text[open + 1..end].char_indices() {
        let at = open + 1 + offset;
        match c {
            '}' => {
                let after = at + 1;
                let whole_word = after == end || is_whitespace_at(text, after).is_some();
                return (saw_space || whole_word).then_some(Some(after));
            }
            '{' => return saw_space.then_some(None),
            c if is_movetext_whitespace(c) => saw_space = true,
            _ => {}
        }
    }
    Some(None)
}

fn is_move_number(word: &str) -> bool {
    word.ends_with('.')
        && word
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || byte == b'_' || byte == b'.')
}

/// Characters on the first and last lines of `part`, and whether it has several lines.
fn widths(part: &str) -> (usize, usize, bool) {
    match part.find(['\n', '\r']) {
        None => {
            let width = part.chars().count();
            (width, width, false)
        }
        Some(first_end) => {
            let last_start = part.rfind(['\n', '\r']).map_or(0, |at| at + 1);
            (
                part[..first_end].chars().count(),
                part[last_start..].chars().count(),
                true,
            )
        }
    }
}

/// The items of the movetext, or `None` if a comment in it is never closed.
fn read_words(text: &str, movetext: &Range<usize>) -> Option<Words> {
    let mut items: Vec<Item> = Vec::new();
    let mut gaps = Vec::new();
    let at_line_start = movetext.start == 0 || is_line_break(text.as_bytes()[movetext.start - 1]);
    let mut at = movetext.start;
    loop {
        let gap_end = whitespace_end(text, at, movetext.end);
        let gap = at..gap_end;
        let breaks = line_breaks(text, &gap);
        let first = items.is_empty();
        gaps.push(gap.clone());
        if gap_end >= movetext.end {
            return Some(Words { items, gaps });
        }
        let gap_text = &text[gap.clone()];
        let starts_line = if first {
            at_line_start && gap_text.bytes().all(is_line_break)
        } else {
            gap_text
                .as_bytes()
                .last()
                .is_some_and(|&byte| is_line_break(byte))
        };
        let blank_before = if first {
            breaks >= 1 && at_line_start
        } else {
            breaks >= 2
        };
        let start = gap_end;
        let (end, kind) = if text.as_bytes()[start] == b'{' {
            match comment_end(text, start, movetext.end) {
                Some(Some(close)) => (word_end(text, close, movetext.end), ItemKind::Comment),
                Some(None) => return None,
                None => (word_end(text, start, movetext.end), ItemKind::Word),
            }
        } else {
            let end = word_end(text, start, movetext.end);
            let word = &text[start..end];
            let starts_move = is_move_number(word) && word != "." && !word.starts_with("...");
            let kind = if starts_move {
                ItemKind::MoveNumber
            } else {
                ItemKind::Word
            };
            (end, kind)
        };
        let written = &text[start..end];
        let joins_next = kind != ItemKind::Comment && is_move_number(written);
        let (first_width, last_width, multiline) = widths(written);
        items.push(Item {
            range: start..end,
            kind,
            starts_line,
            blank_before,
            never_first_on_a_line: written.starts_with("...") || written.starts_with("---"),
            joins_next,
            first_width,
            last_width,
            multiline,
        });
        at = end;
    }
}

/// A word with the comments that follow it on its line: never cut apart.
#[derive(Debug)]
struct Unit {
    /// Items `first..=last`.
    first: usize,
    last: usize,
    first_width: usize,
    last_width: usize,
    multiline: bool,
    never_first_on_a_line: bool,
    /// Ends with a MoveNumber, which the next word joins.
    joins_next: bool,
}

/// A move: its MoveNumber (the first unit) and its text; or, without a MoveNumber, the
/// words before the first one or after a comment line or a blank line.
#[derive(Debug)]
struct Entry {
    /// The width of its MoveNumber, if it has one.
    label_width: Option<usize>,
    units: Vec<Unit>,
}

/// Moves that share a line when they fit (a move pair), or what stands alone.
#[derive(Debug)]
enum Block {
    Moves {
        key: Option<String>,
        entries: Vec<Entry>,
        /// Where its lines start: 0, or under the move it goes on with.
        indent: usize,
        blank_before: bool,
    },
    /// A comment on lines of its own.
    Comment { item: usize, blank_before: bool },
}

/// The indent of a move's later lines: under its first move, unless its MoveNumber is
/// wider than half a line.
fn continuation_indent(label_width: usize, options: &FormatOptions) -> usize {
    if label_width < options.line_width / 2 {
        label_width + 1
    } else {
        4
    }
}

fn blocks(text: &str, items: &[Item], options: &FormatOptions) -> Option<Vec<Block>> {
    let mut blocks: Vec<Block> = Vec::new();
    // The indent of the last move's later lines, for its words after a comment line.
    let mut move_indent = 0;
    for (index, item) in items.iter().enumerate() {
        let unit = Unit {
            first: index,
            last: index,
            first_width: item.first_width,
            last_width: item.last_width,
            multiline: item.multiline,
            never_first_on_a_line: item.never_first_on_a_line,
            joins_next: item.joins_next,
        };
        let open_entry = match blocks.last_mut() {
            Some(Block::Moves { entries, .. }) if !item.blank_before => {
                entries.last_mut().filter(|entry| !entry.units.is_empty())
            }
            _ => None,
        };
        match item.kind {
            ItemKind::Comment => match open_entry {
                Some(entry) if !item.starts_line => glue(entry, &unit, true),
                _ => blocks.push(Block::Comment {
                    item: index,
                    blank_before: item.blank_before,
                }),
            },
            ItemKind::MoveNumber => {
                let label = &text[item.range.clone()];
                let key = pair_key(label).to_string();
                move_indent = continuation_indent(item.first_width, options);
                let entry = Entry {
                    label_width: Some(item.first_width),
                    units: vec![unit],
                };
                match blocks.last_mut() {
                    Some(Block::Moves {
                        key: Some(block_key),
                        entries,
                        ..
                    }) if !item.blank_before && *block_key == key => entries.push(entry),
                    _ => blocks.push(Block::Moves {
                        key: Some(key),
                        entries: vec![entry],
                        indent: 0,
                        blank_before: item.blank_before,
                    }),
                }
            }
            ItemKind::Word => match open_entry {
                Some(entry) => match entry.units.last() {
                    Some(last) if last.joins_next => glue(entry, &unit, false),
                    _ => entry.units.push(unit),
                },
                None if item.never_first_on_a_line => return None,
                None => blocks.push(Block::Moves {
                    key: None,
                    entries: vec![Entry {
                        label_width: None,
                        units: vec![unit],
                    }],
                    indent: move_indent,
                    blank_before: item.blank_before,
                }),
            },
        }
    }
    Some(blocks)
}

/// `unit` (a comment, or the word after a MoveNumber) follows the entry's last unit on
/// its line.
fn glue(entry: &mut Entry, unit: &Unit, is_comment: bool) {
    if let Some(last) = entry.units.last_mut() {
        last.last = unit.last;
        // A comment after a MoveNumber does not part it from its move.
        last.joins_next = unit.joins_next || (is_comment && last.joins_next);
        if unit.multiline {
            last.last_width = unit.last_width;
            if !last.multiline {
                last.first_width += 1 + unit.first_width;
            }
            last.multiline = true;
        } else if last.multiline {
            last.last_width += 1 + unit.first_width;
        } else {
            last.first_width += 1 + unit.first_width;
            last.last_width = last.first_width;
        }
    }
}

/// Where each gap's new whitespace comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Gap {
    Space,
    Line { indent: usize, blank: bool },
}

/// The new whitespace of each gap between items (`gaps[i]` before item `i`, for `i` ≥ 1).
fn lay_out_blocks(blocks: &[Block], item_count: usize, options: &FormatOptions) -> Vec<Gap> {
    let mut gaps = vec![Gap::Space; item_count];
    let width = options.line_width;
    for block in blocks {
        match block {
            Block::Comment { item, blank_before } => {
                gaps[*item] = Gap::Line {
                    indent: 0,
                    blank: *blank_before,
                };
            }
            Block::Moves {
                entries,
                indent,
                blank_before,
                ..
            } => {
                let Some(first_item) = entries.first().and_then(|entry| entry.units.first()) else {
                    continue;
                };
                gaps[first_item.first] = Gap::Line {
                    indent: *indent,
                    blank: *blank_before,
                };
                if fits_on_one_line(entries, *indent, width) {
                    continue;
                }
                for (number, entry) in entries.iter().enumerate() {
                    let Some(first) = entry.units.first() else {
                        continue;
                    };
                    if number > 0 {
                        gaps[first.first] = Gap::Line {
                            indent: *indent,
                            blank: false,
                        };
                    }
                    let later_lines = entry
                        .label_width
                        .map_or(*indent, |label| continuation_indent(label, options));
                    let mut column = if first.multiline {
                        first.last_width
                    } else {
                        indent + first.first_width
                    };
                    for unit in &entry.units[1..] {
                        if column + 1 + unit.first_width > width && !unit.never_first_on_a_line {
                            gaps[unit.first] = Gap::Line {
                                indent: later_lines,
                                blank: false,
                            };
                            column = later_lines;
                        } else {
                            column += 1;
                        }
                        column = if unit.multiline {
                            unit.last_width
                        } else {
                            column + unit.first_width
                        };
                    }
                }
            }
        }
    }
    gaps
}

/// Whether the entries, written one after the other from column `indent`, stay within
/// `width` (a comment of several lines ends where its last line ends).
fn fits_on_one_line(entries: &[Entry], indent: usize, width: usize) -> bool {
    let mut column = indent;
    let mut first = true;
    for unit in entries.iter().flat_map(|entry| &entry.units) {
        let start = if first { column } else { column + 1 };
        first = false;
        if start + unit.first_width > width {
            return false;
        }
        column = if unit.multiline {
            unit.last_width
        } else {
            start + unit.first_width
        };
    }
    true
}

fn gap_text(gap: Gap, eol: &str) -> String {
    match gap {
        Gap::Space => " ".to_string(),
        Gap::Line { indent, blank } => {
            let mut text = String::with_capacity(2 * eol.len() + indent);
            text.push_str(eol);
            if blank {
                text.push_str(eol);
            }
            text.extend(std::iter::repeat_n(' ', indent));
            text
        }
    }
}

/// The edits of the movetext's whitespace; `None` when it cannot be laid out safely (a
/// comment never closed, a word that must not start a line with nothing before it).
/// Where a movetext stands in its file.
struct Shape {
    /// Its game is the file's last.
    is_last: bool,
    /// Its game's header ends with an empty line.
    header_ends_blank: bool,
    /// Its game has no metadata: no line is indented, the first keeps its start.
    flush_left: bool,
}

fn movetext_edits(
    text: &str,
    movetext: Range<usize>,
    shape: &Shape,
    eol: &str,
    options: &FormatOptions,
) -> Option<Vec<(Range<usize>, String)>> {
    let Shape {
        is_last,
        header_ends_blank,
        flush_left,
    } = *shape;
    let words = read_words(text, &movetext)?;
    let mut edits = Vec::new();
    let mut edit = |range: &Range<usize>, new: String| {
        if text[range.clone()] != new {
            edits.push((range.clone(), new));
        }
    };
    let Some(first) = words.items.first() else {
        if flush_left {
            return Some(edits);
        }
        // Whitespace alone: at most one blank line between this game and the next.
        let gap = &words.gaps[0];
        let blank = !is_last && !header_ends_blank && line_breaks(text, gap) >= 1;
        edit(
            gap,
            if blank {
                eol.to_string()
            } else {
                String::new()
            },
        );
        return Some(edits);
    };
    if first.never_first_on_a_line && !first.starts_line {
        return None;
    }
    let blocks = blocks(text, &words.items, options)?;
    let mut gaps = lay_out_blocks(&blocks, words.items.len(), options);
    if flush_left {
        for gap in &mut gaps {
            if let Gap::Line { indent, .. } = gap {
                *indent = 0;
            }
        }
    } else {
        let leading_blank = first.blank_before && !header_ends_blank;
        edit(
            &words.gaps[0],
            if leading_blank {
                eol.to_string()
            } else {
                String::new()
            },
        );
    }
    for (index, gap) in gaps.iter().enumerate().skip(1) {
        edit(&words.gaps[index], gap_text(*gap, eol));
    }
    let trailing = &words.gaps[words.items.len()];
    let blank_after = !is_last && line_breaks(text, trailing) >= 2;
    edit(
        trailing,
        if blank_after {
            format!("{eol}{eol}")
        } else {
            eol.to_string()
        },
    );
    Some(edits)
}

/// The game's text with `edits` (placed in the whole text) made.
fn game_with_edits(text: &str, game: &GameSource, edits: &[(Range<usize>, String)]) -> String {
    let shifted: Vec<(Range<usize>, String)> = edits
        .iter()
        .map(|(range, new)| {
            (
                range.start - game.range.start..range.end - game.range.start,
                new.clone(),
            )
        })
        .collect();
    with_replacements(&text[game.range.clone()], &shifted)
}

/// Whether the game, with `edits` made, is still the same game: the same header lines but
/// for their trailing blanks, metadata where there was metadata, the same movetext words.
fn reads_the_same(text: &str, game: &GameSource, edits: &[(Range<usize>, String)]) -> bool {
    let original = &text[game.range.clone()];
    let formatted = game_with_edits(text, game, edits);
    let (Some((before, problems_before)), Some((after, problems_after))) =
        (one_game(original), one_game(&formatted))
    else {
        return false;
    };
    if problems_before != problems_after {
        return false;
    }
    if before.metadata.is_some() != after.metadata.is_some() {
        return false;
    }
    if header_lines(original, &before) != header_lines(&formatted, &after) {
        return false;
    }
    original[before.movetext.clone()]
        .split(is_movetext_whitespace)
        .filter(|word| !word.is_empty())
        .eq(formatted[after.movetext.clone()]
            .split(is_movetext_whitespace)
            .filter(|word| !word.is_empty()))
}

/// The lines of a game's header, without their line ends and trailing blanks.
fn header_lines<'a>(chunk: &'a str, game: &GameSource) -> Vec<&'a str> {
    let mut lines = Vec::new();
    let mut rest = &chunk[..game.movetext.start];
    while !rest.is_empty() {
        let end = rest.find(['\n', '\r']).unwrap_or(rest.len());
        lines.push(rest[..end].trim_end_matches([' ', '\t']));
        let after = if rest[end..].starts_with("\r\n") {
            end + 2
        } else {
            (end + 1).min(rest.len())
        };
        rest = &rest[after..];
    }
    lines
}

/// The only game of `chunk`, if it holds one, and what its split would warn about.
fn one_game(chunk: &str) -> Option<(GameSource, Vec<&'static str>)> {
    let (mut games, problems) = split_games_checked(chunk);
    let problems = problems
        .iter()
        .map(|problem| problem.code.as_str())
        .collect();
    (games.len() == 1).then(|| (games.remove(0), problems))
}
