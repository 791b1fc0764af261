//! WXF game records: header lines (`KEY value`), the starting position as a `FEN` line or a
//! `SETUP{...}` block (the opening position when neither is there), and the moves between
//! `START{` and `}END`.

use std::ops::Range;

use crate::diagnostic::{Diagnostic, Fix};
use crate::model::edit::TextEdit;
use crate::model::features::{SemanticToken, TokenKind};
use crate::model::format::Format;

use crate::xiangqi::board::{Board, Man, Point, Side};
use crate::xiangqi::reader::parsed::{
    trimmed, words, MovesBlock, Parsed, Slot, WrittenMove, WrittenMoves,
};
use crate::xiangqi::reader::position::{read_board_field, Atom, AtomKind, FieldSyntax, Position};
use crate::xiangqi::wxf_move::parse_move;

/// Header keys WXF records use, for hovers and completion.
pub const HEADER_KEYS: &[(&str, &str)] = &[
    ("FORMAT", "the file format: `WXF`"),
    ("GAME", "the kind of game or its title"),
    ("RED", "Red's player: `name ; rating ; ...`"),
    ("BLACK", "Black's player: `name ; rating ; ...`"),
    ("DATE", "when the game was played"),
    ("PLACE", "where the game was played"),
    ("EVENT", "the tournament or occasion"),
    ("ROUND", "the round of the event"),
    (
        "RESULT",
        "the result: `1-0` (Red won), `0-1` (Black won), `1/2-1/2`",
    ),
    ("OPENING", "the opening played"),
    (
        "FEN",
        "the starting position: a FEN board, then `r` (or `w`) or `b` for the side to move",
    ),
];

/// The header of a record: its lines `KEY value`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    pub key: String,
    pub key_range: Range<usize>,
    pub value: String,
    pub value_range: Range<usize>,
}

/// Read a WXF record.
pub fn read_wxf(text: &str) -> Parsed {
    read_wxf_reusing(text, None)
}

/// The reading of a record from before an edit, for an edit outside its moves.
#[derive(Clone, Copy)]
pub struct Previous<'a> {
    pub parsed: &'a Parsed,
    pub edit: &'a TextEdit,
}

/// Read a WXF record; when `previous` is the reading of the text before an edit that left
/// the moves block as it was, that block's moves are taken from it (moved along the text)
/// instead of being read again.
pub fn read_wxf_reusing(text: &str, previous: Option<Previous<'_>>) -> Parsed {
    let mut parsed = Parsed::new(Format::Wxf, "WXF game");
    let mut headers: Vec<Header> = Vec::new();
    let mut fen: Option<(Position, Range<usize>)> = None;
    let mut setup: Option<(Position, Range<usize>)> = None;
    let mut header_lines: Vec<Range<usize>> = Vec::new();
    let mut moves_seen = false;
    let mut at = 0;
    while at < text.len() {
        let line_end = text[at..].find(['\n', '\r']).map_or(text.len(), |i| at + i);
        let next_line = if text[line_end..].starts_with("\r\n") {
            line_end + 2
        } else {
            (line_end + 1).min(text.len())
        };
        let content = trimmed(text, at..line_end);
        if content.is_empty() {
            at = next_line;
            continue;
        }
        let body = &text[content.clone()];
        if body.starts_with("START{") {
            let previous = previous.filter(|_| !moves_seen);
            at = read_moves(text, content.start, &mut parsed, moves_seen, previous);
            moves_seen = true;
            continue;
        }
        if body.starts_with("SETUP{") {
            let (position, range, end) = read_setup(text, content.start, &mut parsed);
            at = end;
            if setup.is_some() {
                parsed.warning(
                    range,
                    "wxf-duplicate-setup",
                    "a second `SETUP{...}`; the first one counts",
                );
            } else {
                setup = Some((position, range));
            }
            continue;
        }
        at = next_line;
        let key_len = body
            .find(|c: char| !(c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_'))
            .unwrap_or(body.len());
        if key_len == 0 || !body.starts_with(|c: char| c.is_ascii_uppercase()) {
            parsed.error(
                content,
                "wxf-syntax",
                "expected a header line `KEY value`, `SETUP{`, or the moves between `START{` and `}END`",
            );
            continue;
        }
        header_lines.push(content.clone());
        let key_range = content.start..content.start + key_len;
        let value_range = trimmed(text, key_range.end..content.end);
        parsed.token(key_range.clone(), TokenKind::Property);
        let key = text[key_range.clone()].to_string();
        if key == "FEN" {
            let position = read_fen_header(text, value_range.clone(), &mut parsed);
            if fen.is_some() {
                parsed.warning(
                    content.clone(),
                    "wxf-duplicate-fen",
                    "a second `FEN` line; the first one counts",
                );
            } else {
                fen = Some((position, content.clone()));
            }
        } else {
            parsed.token(value_range.clone(), TokenKind::String);
        }
        headers.push(Header {
            key,
            key_range,
            value: text[value_range.clone()].to_string(),
            value_range,
        });
    }
    if let (Some(first), Some(last)) = (header_lines.first(), header_lines.last()) {
        if first.start != last.start {
            parsed.folds.push((first.start..last.end, false));
        }
    }
    parsed.name = game_name(&headers);
    parsed.selection = header_lines
        .first()
        .cloned()
        .or_else(|| parsed.moves.first().map(|m| m.range))
        .unwrap_or(0..0);
    match (fen, setup) {
        (Some((position, range)), other) => {
            if let Some((_, setup_range)) = other {
                parsed.warning(
                    setup_range,
                    "wxf-setup-ignored",
                    "the record has a `FEN` line, which xiangqi-setup reads instead of `SETUP{...}`",
                );
            }
            parsed.start = position;
            parsed.position_range = Some(range);
        }
        (None, Some((position, range))) => {
            parsed.start = position;
            parsed.position_range = Some(range);
        }
        (None, None) => {
            parsed.start = Position::of_board(&Board::initial(), Some(Side::Red));
        }
    }
    parsed
}

fn game_name(headers: &[Header]) -> String {
    let player = |key: &str| {
        headers
            .iter()
            .find(|h| h.key == key)
            .map(|h| {
                h.value
                    .split(';')
                    .next()
                    .unwrap_or_default()
                    .trim()
                    .to_string()
            })
            .filter(|name| !name.is_empty())
    };
    let event = headers
        .iter()
        .find(|h| h.key == "EVENT" || h.key == "GAME")
        .map(|h| {
            h.value
                .split(';')
                .next()
                .unwrap_or_default()
                .trim()
                .to_string()
        })
        .filter(|name| !name.is_empty());
    match (player("RED"), player("BLACK"), event) {
        (Some(red), Some(black), _) => format!("{red} – {black}"),
        (_, _, Some(event)) => event,
        _ => "WXF game".to_string(),
    }
}

fn read_fen_header(text: &str, range: Range<usize>, parsed: &mut Parsed) -> Position {
    let fields = words(text, range.clone());
    let Some(field) = fields.first().cloned() else {
        parsed.error(
            range,
            "wxf-fen",
            "`FEN` needs a board: its ranks from rank 9 to rank 0, separated by `/`",
        );
        return Position::default();
    };
    parsed.slots.push(Slot::BoardField {
        range: field.clone(),
        annotated: false,
    });
    let read = read_board_field(text, field, FieldSyntax::Fen);
    parsed.diagnostics.extend(read.diagnostics);
    parsed.tokens.extend(read.tokens);
    let mut side_to_move = Some(Side::Red);
    if let Some(side) = fields.get(1) {
        parsed.token(side.clone(), TokenKind::String);
        side_to_move = match &text[side.clone()] {
            "r" | "w" | "R" | "W" => Some(Side::Red),
            "b" | "B" => Some(Side::Black),
            other => {
                parsed.warning(
                    side.clone(),
                    "fen-side-to-move",
                    format!("`{other}` is not a side to move: `r` (or `w`) for Red, `b` for Black; Red moves first"),
                );
                Some(Side::Red)
            }
        };
    }
    Position {
        atoms: read.atoms,
        side_to_move,
    }
}

/// `SETUP{ Ra0 Hb0 ... RED }` starting at `at`: the position, the block's range and where
/// reading goes on.
fn read_setup(text: &str, at: usize, parsed: &mut Parsed) -> (Position, Range<usize>, usize) {
    let open = at..at + "SETUP{".len();
    parsed.token(open.clone(), TokenKind::Keyword);
    let (body, end) = match text[open.end..].find('}') {
        Some(i) => {
            parsed.token(open.end + i..open.end + i + 1, TokenKind::Keyword);
            (open.end..open.end + i, open.end + i + 1)
        }
        None => {
            parsed.error(
                open.clone(),
                "wxf-unclosed-block",
                "`SETUP{` has no closing `}`",
            );
            (open.end..text.len(), text.len())
        }
    };
    if text[at..end].contains(['\n', '\r']) {
        parsed.folds.push((at..end, false));
    }
    let mut atoms = Vec::new();
    let mut side_to_move = Some(Side::Red);
    let items = words(text, body);
    let mut index = 0;
    while index < items.len() {
        let range = items[index].clone();
        let word = &text[range.clone()];
        index += 1;
        let bytes = word.as_bytes();
        match word {
            "RED" | "BLACK" => {
                parsed.token(range, TokenKind::Keyword);
                side_to_move = Some(if word == "RED" { Side::Red } else { Side::Black });
            }
            "MOVE" => {
                parsed.token(range.clone(), TokenKind::Keyword);
                match items.get(index) {
                    Some(number) if text[number.clone()].parse::<u32>().is_ok() => {
                        parsed.token(number.clone(), TokenKind::Number);
                        index += 1;
                    }
                    _ => parsed.error(range, "wxf-setup-syntax", "`MOVE` is followed by the number of the first move"),
                }
            }
            _ if bytes.len() == 3 && Man::from_letter(char::from(bytes[0])).is_some() && (b'a'..=b'i').contains(&bytes[1]) && bytes[2].is_ascii_digit() => {
                if let (Some(man), Some(point)) = (
                    Man::from_letter(char::from(bytes[0])),
                    Point::new(bytes[1] - b'a', bytes[2] - b'0'),
                ) {
                    parsed.token(range.start..range.start + 1, TokenKind::Type);
                    parsed.token(range.start + 1..range.end, TokenKind::Variable);
                    atoms.push(Atom {
                        point,
                        kind: AtomKind::Man(man),
                        range: range.start..range.start + 1,
                        text: word[..1].to_string(),
                    });
                }
            }
            _ => parsed.error(
                range,
                "wxf-setup-syntax",
                format!("`{word}` is not a setup item: a piece letter and its point (`Ra0`, `ke9`), `RED`, `BLACK` or `MOVE n`"),
            ),
        }
    }
    (
        Position {
            atoms,
            side_to_move,
        },
        at..end,
        end,
    )
}

/// The moves of `START{ ... }END` starting at `at`; returns where reading goes on.
fn read_moves(
    text: &str,
    at: usize,
    parsed: &mut Parsed,
    seen_before: bool,
    previous: Option<Previous<'_>>,
) -> usize {
    let open = at..at + "START{".len();
    parsed.token(open.clone(), TokenKind::Keyword);
    let (body, end) = match text[open.end..].find("}END") {
        Some(i) => {
            let close = open.end + i;
            parsed.token(close..close + 4, TokenKind::Keyword);
            (open.end..close, close + 4)
        }
        None => {
            parsed.error(
                open.clone(),
                "wxf-unclosed-block",
                "`START{` has no closing `}END`",
            );
            (open.end..text.len(), text.len())
        }
    };
    if seen_before {
        parsed.warning(
            open.clone(),
            "wxf-duplicate-moves",
            "a second `START{...}END`; its moves are read after the first ones",
        );
    }
    if text[at..end].contains(['\n', '\r']) {
        parsed.folds.push((at..end, false));
    }
    parsed.slots.push(Slot::Moves(body.clone()));
    let block = MovesBlock {
        start: at,
        body: body.clone(),
        end,
    };
    parsed.moves_blocks.push(block.clone());
    if let Some(previous) = previous {
        if reuse_block(previous, &block, parsed) {
            return end;
        }
    }
    let mut moves = std::mem::take(&mut parsed.moves);
    if let Some(number) = read_move_words(text, body, parsed, &mut moves) {
        parsed.token(number.1, TokenKind::Number);
    }
    parsed.moves = moves;
    end
}

/// Takes the moves of `block` from `previous` if the edit left the block as it was, and
/// says whether it did.
fn reuse_block(previous: Previous<'_>, block: &MovesBlock, parsed: &mut Parsed) -> bool {
    let Previous { parsed: old, edit } = previous;
    let [old_block] = old.moves_blocks.as_slice() else {
        return false;
    };
    let delta = if edit.old_end <= old_block.start {
        edit.new_end as isize - edit.old_end as isize
    } else if edit.start >= old_block.end {
        0
    } else {
        return false;
    };
    let moved = |at: usize| at.saturating_add_signed(delta);
    let same_place = block.start == moved(old_block.start)
        && block.body == (moved(old_block.body.start)..moved(old_block.body.end))
        && block.end == moved(old_block.end)
        && block.end > block.body.end;
    if !same_place || !parsed.moves.is_empty() {
        return false;
    }
    let body = &old_block.body;
    let inside = |range: &Range<usize>| range.start >= body.start && range.end <= body.end;
    parsed
        .moves
        .extend_from(&old.moves, 0..old.moves.len(), delta);
    parsed.tokens.extend(
        old.tokens
            .iter()
            .filter(|t| inside(&t.range))
            .map(|t| SemanticToken {
                range: moved(t.range.start)..moved(t.range.end),
                kind: t.kind,
            }),
    );
    parsed.diagnostics.extend(
        old.diagnostics
            .iter()
            .filter(|d| inside(&d.range))
            .map(|d| d.shifted(delta)),
    );
    true
}

/// Which moves an edit replaced: `old[first..old_end]` became `new[first..new_end]`; the
/// moves after them are the same, moved along the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MovesSplice {
    pub first: usize,
    pub old_end: usize,
    pub new_end: usize,
}

/// `text`, read again from `old` (the reading of the text before `edit`) when the edit lies
/// inside the moves of a record with one moves block: only the words around the edit are
/// read again, from the end of the last move before it to the first move after it. `None`
/// when the edit may change more than its words (it touches `START{` or `}END`, or makes a
/// `}END`); the record must then be read whole.
pub fn reread_moves(old: &Parsed, text: &str, edit: &TextEdit) -> Option<(Parsed, MovesSplice)> {
    let [block] = old.moves_blocks.as_slice() else {
        return None;
    };
    if edit.start < block.body.start || edit.old_end > block.body.end {
        return None;
    }
    let delta = edit.new_end as isize - edit.old_end as isize;
    let closed = block.end > block.body.end;
    let near_edit = text.get(edit.start.saturating_sub(3)..(edit.new_end + 3).min(text.len()))?;
    if near_edit.contains("}END") {
        return None;
    }
    let first = old.moves.partition_point(|m| m.range.end < edit.start);
    // The moves are in the order of the text: those before `first` end before the edit.
    let old_end = first.max(
        old.moves
            .partition_point(|m| m.item_start() <= edit.old_end),
    );
    let reread_start = first
        .checked_sub(1)
        .and_then(|before| old.moves.get(before))
        .map_or(block.body.start, |before| before.range.end);
    let reread_old_end = old
        .moves
        .get(old_end)
        .map_or(block.body.end, |m| m.item_start());
    let moved = |at: usize| {
        if at >= reread_old_end {
            at.saturating_add_signed(delta)
        } else {
            at
        }
    };
    let moved_range = |range: &Range<usize>| moved(range.start)..moved(range.end);
    // Everything else in the file is wholly before the words read again, or wholly after.
    let before = |range: &Range<usize>| range.end <= reread_start;
    let replaced =
        |range: &Range<usize>| range.start >= reread_start && range.end <= reread_old_end;
    let after = |range: &Range<usize>| range.start >= reread_old_end;
    let placed = |range: &Range<usize>| before(range) || replaced(range) || after(range);
    if !old.diagnostics.iter().all(|d| placed(&d.range))
        || !old.tokens.iter().all(|t| placed(&t.range))
    {
        return None;
    }
    let block = MovesBlock {
        start: block.start,
        body: block.body.start..moved(block.body.end),
        end: if closed { moved(block.end) } else { text.len() },
    };
    let mut parsed = Parsed {
        format: old.format,
        start: old.start.clone(),
        position_range: old.position_range.as_ref().map(moved_range),
        moves: WrittenMoves::new(),
        moves_blocks: vec![block.clone()],
        name: old.name.clone(),
        selection: if old.selection.end <= block.body.start || after(&old.selection) {
            moved_range(&old.selection)
        } else {
            0..0
        },
        diagnostics: old
            .diagnostics
            .iter()
            .filter(|d| before(&d.range))
            .cloned()
            .collect(),
        tokens: old
            .tokens
            .iter()
            .filter(|t| before(&t.range))
            .cloned()
            .collect(),
        folds: old
            .folds
            .iter()
            .filter(|(range, comment)| *comment || *range != (old_block_range(old)))
            .map(|(range, comment)| (moved_range(range), *comment))
            .collect(),
        slots: old
            .slots
            .iter()
            .map(|slot| match slot {
                Slot::BoardField { range, annotated } => Slot::BoardField {
                    range: moved_range(range),
                    annotated: *annotated,
                },
                Slot::Cell(range) => Slot::Cell(moved_range(range)),
                Slot::Moves(range) => Slot::Moves(moved_range(range)),
            })
            .collect(),
    };
    if text[block.start..block.end].contains(['\n', '\r']) {
        parsed.folds.push((block.start..block.end, false));
    }
    let mut moves = WrittenMoves::new();
    moves.extend_from(&old.moves, 0..first, 0);
    let leftover = read_move_words(
        text,
        reread_start..moved(reread_old_end),
        &mut parsed,
        &mut moves,
    );
    let new_end = moves.len();
    if let Some(mut next) = old.moves.get(old_end).map(|m| m.shifted(delta)) {
        match leftover {
            Some(number) if next.number.is_none() => next.number = Some(number),
            Some((_, orphan)) => parsed.token(orphan, TokenKind::Number),
            None => {}
        }
        moves.push(next);
        moves.extend_from(&old.moves, old_end + 1..old.moves.len(), delta);
    } else if let Some((_, orphan)) = leftover {
        parsed.token(orphan, TokenKind::Number);
    }
    parsed.moves = moves;
    if parsed.selection.is_empty() {
        parsed.selection = parsed.moves.first().map_or(0..0, |m| m.range);
    }
    parsed.diagnostics.extend(
        old.diagnostics
            .iter()
            .filter(|d| after(&d.range))
            .map(|d| d.shifted(delta)),
    );
    parsed.tokens.extend(
        old.tokens
            .iter()
            .filter(|t| after(&t.range))
            .map(|t| SemanticToken {
                range: moved_range(&t.range),
                kind: t.kind,
            }),
    );
    Some((
        parsed,
        MovesSplice {
            first,
            old_end,
            new_end,
        },
    ))
}

/// The range of the only moves block, as its fold has it.
fn old_block_range(parsed: &Parsed) -> Range<usize> {
    parsed
        .moves_blocks
        .first()
        .map_or(0..0, |block| block.start..block.end)
}

/// Reads the words of `text[range]` (whole words of a moves block) into `moves`: each move
/// with the number written before it; returns a number no move followed.
fn read_move_words(
    text: &str,
    range: Range<usize>,
    parsed: &mut Parsed,
    moves: &mut WrittenMoves,
) -> Option<(u32, Range<usize>)> {
    let mut number: Option<(u32, Range<usize>)> = None;
    for word in words(text, range) {
        let mut rest = word.clone();
        let digits = text[rest.clone()]
            .bytes()
            .take_while(u8::is_ascii_digit)
            .count();
        let dots = text[rest.start + digits..rest.end]
            .bytes()
            .take_while(|b| *b == b'.')
            .count();
        let is_move_start = |r: &Range<usize>| parse_move(&text[r.clone()]).is_some();
        if digits > 0 && dots > 0 && !is_move_start(&rest) {
            let number_range = rest.start..rest.start + digits + dots;
            let value = text[rest.start..rest.start + digits].parse().ok();
            // A number followed by another one numbers nothing.
            if let Some((_, orphan)) = number.take() {
                parsed.token(orphan, TokenKind::Number);
            }
            number = match value {
                Some(value) => Some((value, number_range.clone())),
                None => {
                    parsed.token(number_range.clone(), TokenKind::Number);
                    None
                }
            };
            rest.start = number_range.end;
            if rest.is_empty() {
                continue;
            }
        }
        let word_text = &text[rest.clone()];
        if matches!(word_text, "1-0" | "0-1" | "1/2-1/2" | "*") {
            parsed.token(rest, TokenKind::Keyword);
            continue;
        }
        let written = parse_move(word_text);
        if written.is_none() && is_mistyped_number(word_text) {
            // Read as a move, it would be skipped in a move's place and every later move
            // would be the other side's: one letter typed before `12.` made each of them a
            // warning.
            parsed.error(
                rest.clone(),
                "wxf-syntax",
                format!("`{word_text}` is not a move number: a move number is digits and a dot, like `12.`; it is skipped, and the moves after it keep their sides"),
            );
            continue;
        }
        match written {
            Some(written) => {
                if written.equals_for_sideways {
                    parsed.diagnostics.push(
                        Diagnostic::warning(
                            rest.start + 2..rest.start + 3,
                            "wxf-equals-sideways",
                            "WXF writes a sideways move with `.`; xiangqi-setup does not read `=` there",
                        )
                        .with_fix(Fix {
                            title: "Write `.`".to_string(),
                            edits: vec![(rest.start + 2..rest.start + 3, ".".to_string())],
                        }),
                    );
                }
            }
            None => {
                let message = if word_text.contains(['{', '}']) {
                    format!("`{word_text}`: WXF moves cannot hold braces")
                } else {
                    format!("`{word_text}` is not a WXF move: a piece letter, its file (or `+`/`-` for the front/rear piece), `+` forwards, `-` backwards or `.` sideways, then a file or a number of ranks, like `H2+3`; it is skipped, and the next move is the other side's")
                };
                parsed.error(rest.clone(), "wxf-syntax", message);
            }
        }
        moves.push(WrittenMove {
            range: rest,
            parsed: written,
            number: number.take(),
        });
    }
    number
}

/// Whether a word that is not a move reads as a move number with something typed into it
/// (`x12.`, `1x.`): it ends in a dot and holds a digit, but no sign of a move's direction
/// or tandem. A piece letter and a digit then a dot (`C2.`) is a sideways move being
/// typed, and stays a move.
fn is_mistyped_number(word: &str) -> bool {
    let body = word.trim_end_matches('.');
    let being_typed = matches!(
        body.as_bytes(),
        [letter, digit] if Man::from_letter(char::from(*letter)).is_some() && digit.is_ascii_digit()
    );
    body.len() < word.len()
        && body.bytes().any(|b| b.is_ascii_digit())
        && !body.bytes().all(|b| b.is_ascii_digit())
        && !body.contains(['+', '-', '=', '.'])
        && !being_typed
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLAYOK: &str = "FORMAT  WXF\r\nRED     jugador rojo ; 1200 ;;\r\nBLACK   jugador negro ; 1240 ;;\r\nRESULT  0-1\r\nSTART{\r\n 1. P3+1 c8.7   2. E7+5 c2.5   3. H2+3 h2+3\r\n10. H++7 c7.3 }END\r\n";

    #[test]
    fn a_record_with_header_and_moves() {
        let parsed = read_wxf(PLAYOK);
        assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
        assert_eq!(parsed.name, "jugador rojo – jugador negro");
        let moves: Vec<_> = parsed.moves.iter().map(|m| m.text(PLAYOK)).collect();
        assert_eq!(
            moves,
            ["P3+1", "c8.7", "E7+5", "c2.5", "H2+3", "h2+3", "H++7", "c7.3"]
        );
        let written = |index| parsed.moves.get(index).unwrap();
        assert_eq!(written(6).number.map(|n| n.0), Some(10));
        assert_eq!(written(1).number, None);
        assert_eq!(&PLAYOK[written(0).range], "P3+1");
        assert_eq!(parsed.start.board(), Board::initial());
        assert_eq!(parsed.folds.len(), 2, "the header and the moves fold");
    }

    #[test]
    fn the_fen_line_gives_the_start() {
        let text = "FORMAT  \tWXF\r\nFEN  \t\t4kaer1/4a2c1/2h1e1h2/3Rp1C1p/2C6/5rP2/1pP1P3P/8E/9/1cEAKA1R1 b\r\n\r\nSTART{\r\n}END\r\n";
        let parsed = read_wxf(text);
        assert!(parsed.diagnostics.is_empty(), "{:?}", parsed.diagnostics);
        assert_eq!(parsed.start.side_to_move, Some(Side::Black));
        assert_eq!(parsed.start.atoms.len(), 27);
        assert!(parsed.moves.is_empty());
    }

    #[test]
    fn a_setup_block_and_bad_items() {
        let text = "FORMAT WXF\nSETUP{ Ke0 ke9 Ra0 Zz9 BLACK }\nSTART{\n 1. r1+1 x9+1 1-0\n}END\n";
        let parsed = read_wxf(text);
        let found: Vec<_> = parsed
            .diagnostics
            .iter()
            .map(|d| (d.code, &text[d.range.clone()]))
            .collect();
        assert_eq!(found, [("wxf-setup-syntax", "Zz9"), ("wxf-syntax", "x9+1")]);
        assert_eq!(parsed.start.side_to_move, Some(Side::Black));
        assert_eq!(parsed.start.atoms.len(), 3);
        // The word that is not a move keeps its place among the moves, read as none.
        assert_eq!(parsed.moves.len(), 2);
        let second = parsed.moves.get(1).unwrap();
        assert_eq!(second.text(text), "x9+1");
        assert_eq!(second.parsed, None);
    }

    #[test]
    fn a_move_number_typed_into_is_no_move() {
        let text = "FORMAT WXF\nSTART{\n x1. P3+1 c8.7\n 2x. E7+5 c2.5\n 3. C2. h2+3\n}END\n";
        let parsed = read_wxf(text);
        let found: Vec<_> = parsed
            .diagnostics
            .iter()
            .map(|d| (d.code, &text[d.range.clone()]))
            .collect();
        assert_eq!(
            found,
            [
                ("wxf-syntax", "x1."),
                ("wxf-syntax", "2x."),
                ("wxf-syntax", "C2.")
            ]
        );
        let moves: Vec<_> = parsed.moves.iter().map(|m| m.text(text)).collect();
        // The half-typed sideways move keeps its place; the broken numbers take none.
        assert_eq!(moves, ["P3+1", "c8.7", "E7+5", "c2.5", "C2.", "h2+3"]);
        for (word, mistyped) in [
            ("x1.", true),
            ("1x.", true),
            ("x12..", true),
            ("C2.", false),
            ("c2.", false),
            ("3+.", false),
            ("x.", false),
            ("2.", false),
            ("12x", false),
            ("H2.5", false),
        ] {
            assert_eq!(is_mistyped_number(word), mistyped, "{word}");
        }
    }

    /// `text` with the first `find` replaced by `replace`, and the edit that makes it.
    fn replaced(text: &str, find: &str, replace: &str) -> (String, TextEdit) {
        let at = text.find(find).unwrap();
        let mut new = text.to_string();
        new.replace_range(at..at + find.len(), replace);
        let edit = TextEdit {
            start: at,
            old_end: at + find.len(),
            new_end: at + replace.len(),
        };
        (new, edit)
    }

    /// What the document keeps of a reading, in an order that does not depend on how
    /// the text was read.
    fn summary(parsed: &Parsed) -> String {
        let mut diagnostics: Vec<String> = parsed
            .diagnostics
            .iter()
            .map(|d| format!("{d:?}"))
            .collect();
        diagnostics.sort();
        let mut tokens: Vec<_> = parsed
            .tokens
            .iter()
            .cloned()
            .chain(parsed.moves.iter().flat_map(|m| m.tokens()))
            .map(|t| (t.range.start, t.range.end, format!("{:?}", t.kind)))
            .collect();
        tokens.sort();
        let mut folds = parsed.folds.clone();
        folds.sort_by_key(|(range, comment)| (range.start, range.end, *comment));
        format!(
            "{:?}\n{:?}\n{:?}\n{:?}\n{diagnostics:?}\n{tokens:?}\n{folds:?}\n{:?}\n{:?}",
            parsed.moves,
            parsed.moves_blocks,
            parsed.selection,
            parsed.position_range,
            parsed.slots,
            parsed.name
        )
    }

    #[test]
    fn an_edit_among_the_moves_reads_only_its_words_again() {
        let text = "FORMAT WXF\nGAME g\nSTART{\n 1. P3+1 c8.7 2. E7+5 c2=5\n 3. H2+3 h2+3 4.\n}END\nRED r\n";
        let old = read_wxf(text);
        let cases = [
            ("E7+5", "E7+6"),
            ("E7+5", "Ex7+5"),
            ("E7+5 ", ""),
            ("2. ", ""),
            ("c2=5", "c2.5"),
            ("h2+3 4.", "h2+3 4. 5."),
            (" 4.", " 4. R1+1"),
            ("1. ", "1. 7. "),
            ("3. H2+3", "3.H2+3"),
        ];
        for (find, replace) in cases {
            let (new, edit) = replaced(text, find, replace);
            let (reread, splice) = reread_moves(&old, &new, &edit)
                .unwrap_or_else(|| panic!("{find:?} → {replace:?} is read again"));
            assert_eq!(
                summary(&reread),
                summary(&read_wxf(&new)),
                "{find:?} → {replace:?}"
            );
            assert!(splice.old_end - splice.first <= 3, "{find:?}: {splice:?}");
        }
        // Edits that may move the block's end, or lie outside it, read the record whole.
        for (find, replace) in [("4.\n}", "4.}END\n}"), ("\n}END", "}EN"), ("GAME", "GAM")] {
            let (new, edit) = replaced(text, find, replace);
            assert!(reread_moves(&old, &new, &edit).is_none(), "{find:?}");
        }
    }

    #[test]
    fn an_edit_outside_the_moves_takes_them_from_the_reading_before() {
        let text =
            "FORMAT WXF\nGAME g\nSTART{\n 1. P3+1 c8.7 2. E7+5 c2=5\n 3. H2+3 1-0 x\n}END\nRED r\n";
        let old = read_wxf(text);
        // A reading whose first move differs shows whether the moves were taken from it.
        let mut marked = old.clone();
        marked.moves = (old.moves.iter().enumerate())
            .map(|(index, written)| WrittenMove {
                parsed: written.parsed.filter(|_| index > 0),
                ..written
            })
            .collect();
        for (find, replace, reused) in [
            ("GAME g", "GAME gx", true),
            ("GAME g\n", "", true),
            ("RED r", "RED rx", true),
            ("FORMAT", "FEN 9/9/9/9/9/9/9/9/9/9 w\nFORMAT", true),
            ("\nSTART{", "START{", false),
            ("g\n", "g\n  ", true),
            ("\nSTART{", "xSTART{", false),
            ("P3+1", "P3+2", false),
        ] {
            let (new, edit) = replaced(text, find, replace);
            let previous = |parsed| {
                Some(Previous {
                    parsed,
                    edit: &edit,
                })
            };
            let fresh = read_wxf(&new);
            let reread = read_wxf_reusing(&new, previous(&old));
            assert_eq!(summary(&reread), summary(&fresh), "{find:?} → {replace:?}");
            let from_marked = read_wxf_reusing(&new, previous(&marked));
            let marked_kept = from_marked
                .moves
                .first()
                .is_some_and(|m| m.parsed.is_none());
            assert_eq!(marked_kept, reused, "{find:?} → {replace:?}");
        }
    }

    #[test]
    fn unclosed_blocks_and_stray_lines() {
        let text = "FORMAT WXF\nthis is not a header\nSTART{\n 1. P3+1 C2=5\n";
        let parsed = read_wxf(text);
        let found: Vec<_> = parsed
            .diagnostics
            .iter()
            .map(|d| (d.code, &text[d.range.clone()]))
            .collect();
        assert_eq!(
            found,
            [
                ("wxf-syntax", "this is not a header"),
                ("wxf-unclosed-block", "START{"),
                ("wxf-equals-sideways", "="),
            ]
        );
        assert_eq!(parsed.moves.len(), 2);
    }
}
