//! Hovers and completions of xiangqi-setup files.

use std::ops::Range;

use crate::model::document::{HoverBoard, NotationDocument, NotationHover, StateRef};
use crate::model::features::{Completion, CompletionKind};

use super::annotation::Code;
use super::board::{letter_note, Kind, Man, Side};
use super::document::XiangqiDocument;
use super::notation::write_move;
use super::parsed::Slot;
use super::position::AtomKind;
use super::replay::{side_of, Outcome};
use super::rules::{in_check, legal_moves};
use super::wxf::HEADER_KEYS;

/// `offset` moved back to the start of the character it falls in (and into the text), so
/// that a position from a client can never split a character.
fn char_start(text: &str, offset: usize) -> usize {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

fn touches(range: &Range<usize>, offset: usize) -> bool {
    range.start <= offset && offset <= range.end
}

/// What the file says at `offset`, with the board it is about.
pub fn hover(document: &XiangqiDocument, offset: usize) -> Option<NotationHover> {
    let offset = char_start(document.text(), offset);
    if let Some(index) = document.move_index(offset) {
        return Some(move_hover(document, index));
    }
    let parsed = &document.parsed;
    let atoms = &parsed.start.atoms;
    if let Some(position) = atoms
        .iter()
        .position(|atom| !atom.range.is_empty() && touches(&atom.range, offset))
    {
        let atom = &atoms[position];
        let markdown = match atom.kind {
            AtomKind::Man(man) => {
                let mut text = format!(
                    "**`{}`** — the {} on {}",
                    atom.text,
                    man.describe(),
                    atom.point
                );
                if let Some(letter) = atom.text.chars().next() {
                    if let Some(note) = letter_note(letter) {
                        text.push_str(&format!(" (`{letter}` is {note})"));
                    }
                }
                text
            }
            AtomKind::Code(code) => {
                format!("**`{}`** — {}", atom.text, code.explain_at(atom.point))
            }
        };
        let marked = match atom.kind {
            AtomKind::Man(_) => Some(vec![
                1 + atoms[..position]
                    .iter()
                    .filter(|a| matches!(a.kind, AtomKind::Man(_)))
                    .count(),
            ]),
            AtomKind::Code(_) => None,
        };
        let mut board = document.hover_board(0);
        board.marked = marked;
        return Some(NotationHover {
            range: atom.range.clone(),
            markdown,
            board: Some(board),
        });
    }
    if let Some(range) = &parsed.position_range {
        if touches(range, offset) {
            let mut markdown = format!("**{}**", parsed.name);
            if let Some(side) = parsed.start.side_to_move {
                markdown.push_str(&format!(" — {} to move", side.name()));
            }
            return Some(NotationHover {
                range: range.clone(),
                markdown,
                board: Some(document.hover_board(0)),
            });
        }
    }
    header_hover(document, offset)
}

fn header_hover(document: &XiangqiDocument, offset: usize) -> Option<NotationHover> {
    let text = document.text();
    let offset = offset.min(text.len());
    let line_start = text[..offset].rfind(['\n', '\r']).map_or(0, |i| i + 1);
    let word_end = text[line_start..]
        .find(|c: char| !(c.is_ascii_uppercase() || c == '_'))
        .map_or(text.len(), |i| line_start + i);
    if offset > word_end || word_end == line_start {
        return None;
    }
    let key = &text[line_start..word_end];
    let (_, meaning) = HEADER_KEYS.iter().find(|(k, _)| *k == key)?;
    Some(NotationHover {
        range: line_start..word_end,
        markdown: format!("**{key}** — {meaning}"),
        board: None,
    })
}

fn move_hover(document: &XiangqiDocument, index: usize) -> NotationHover {
    let written = (document.written_moves().get(index)).expect("the move at the offset hovered");
    let played = &document.played()[index];
    let mut markdown = format!(
        "**{} `{}`** — {}",
        document.state_label(index + 1),
        written.text(document.text()),
        document.move_description(index)
    );
    match &played.outcome {
        Outcome::Illegal(error) => markdown.push_str(&format!("\n\nIllegal: {error}.")),
        Outcome::Unresolved(error) => markdown.push_str(&format!("\n\nNot played: {error}.")),
        Outcome::Unreadable => markdown.push_str("\n\nNot a WXF move."),
        Outcome::LooseTandem | Outcome::Legal => {}
    }
    if played.mover.is_some() {
        let opponent = played.side.other();
        let board = document.board_at_state(index + 1).unwrap_or_default();
        let check = in_check(&board, opponent);
        let no_move = legal_moves(&board, opponent).is_empty();
        match (check, no_move) {
            (true, true) => {
                markdown.push_str(&format!("\n\nCheckmate: {} has no move.", opponent.name()))
            }
            (false, true) => markdown.push_str(&format!(
                "\n\n{} has no legal move, and so loses.",
                opponent.name()
            )),
            (true, false) => markdown.push_str("\n\nCheck."),
            (false, false) => {}
        }
    }
    NotationHover {
        range: written.range.clone(),
        markdown,
        board: Some(HoverBoard {
            state: StateRef {
                game: 0,
                index: index + 1,
            },
            label: format!(
                "{} {}",
                document.state_label(index + 1),
                written.text(document.text())
            ),
            marked: None,
        }),
    }
}

/// The word being typed at `offset`: the characters of atoms, codes and moves before it.
fn word_before(text: &str, offset: usize) -> Range<usize> {
    let before = &text[..offset.min(text.len())];
    let start = before
        .char_indices()
        .rev()
        .take_while(|(_, c)| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.' | '='))
        .last()
        .map_or(offset, |(i, _)| i);
    start..offset
}

fn man_completions(replace: Range<usize>) -> Vec<Completion> {
    let mut out = Vec::new();
    for (side_order, side) in [Side::Red, Side::Black].into_iter().enumerate() {
        for (kind_order, kind) in Kind::ALL.into_iter().enumerate() {
            let man = Man::new(side, kind);
            out.push(Completion {
                label: man.letter().to_string(),
                kind: CompletionKind::Value,
                detail: Some(man.describe()),
                documentation: None,
                insert: man.letter().to_string(),
                replace: replace.clone(),
                sort: format!("0{side_order}{kind_order}"),
            });
        }
    }
    out
}

fn code_completions(replace: Range<usize>, brackets: bool) -> Vec<Completion> {
    Code::all()
        .into_iter()
        .enumerate()
        .map(|(order, code)| {
            let text = code.text();
            let insert = if brackets {
                format!("<{text}>")
            } else {
                text.clone()
            };
            Completion {
                label: insert.clone(),
                kind: CompletionKind::Code,
                detail: Some(code.summary()),
                documentation: None,
                insert,
                replace: replace.clone(),
                sort: format!("1{order:03}"),
            }
        })
        .collect()
}

/// Piece letters and annotation codes where a position is written; the legal moves where
/// a WXF move is.
pub fn completions(document: &XiangqiDocument, offset: usize) -> Vec<Completion> {
    let text = document.text();
    let offset = char_start(text, offset);
    for slot in &document.parsed.slots {
        match slot {
            Slot::BoardField { range, annotated } if touches(range, offset) => {
                let before = &text[range.start..offset];
                if *annotated {
                    if let Some(open) = before.rfind('<').filter(|&i| !before[i..].contains('>')) {
                        let start = range.start + open + 1;
                        let end = text[offset..]
                            .find(['>', '/', '[', ']', '<'])
                            .filter(|&i| text.as_bytes()[offset + i] == b'>')
                            .map_or(offset, |i| offset + i);
                        return code_completions(start..end, false);
                    }
                }
                let mut out = man_completions(offset..offset);
                if *annotated {
                    out.extend(code_completions(offset..offset, true));
                }
                return out;
            }
            Slot::Cell(range) if touches(range, offset) => {
                let replace = word_before(text, offset);
                let mut out = man_completions(replace.clone());
                out.extend(code_completions(replace, false));
                return out;
            }
            Slot::Moves(range) if touches(range, offset) => {
                return move_completions(document, offset)
            }
            _ => {}
        }
    }
    // A XAY cell being typed does not parse yet: `[` or `, ` before the word says where.
    if document.parsed.format == crate::model::format::Format::Xay {
        let replace = word_before(text, offset);
        let before = text[..replace.start].trim_end_matches([' ', '\t']);
        if before.ends_with('[') || before.ends_with(',') {
            let mut out = man_completions(replace.clone());
            out.extend(code_completions(replace, false));
            return out;
        }
    }
    Vec::new()
}

fn move_completions(document: &XiangqiDocument, offset: usize) -> Vec<Completion> {
    let replace = word_before(document.text(), offset);
    let moves = document.written_moves();
    let index = moves.partition_point(|m| {
        m.range.end < replace.start
            || (m.range.end == replace.start && m.range.start < replace.start && replace.is_empty())
    });
    let index = index.min(moves.len());
    let Some(board) = &document.board_at_state(index) else {
        return Vec::new();
    };
    let side = side_of(document.first_side(), index);
    let mut out: Vec<Completion> = legal_moves(board, side)
        .into_iter()
        .filter_map(|(from, to)| {
            let text = write_move(board, from, to)?;
            let man = board.get(from)?;
            let order = Kind::ALL.iter().position(|k| *k == man.kind).unwrap_or(0);
            let mut detail = format!("{} {from}–{to}", man.describe());
            if let Some(captured) = board.get(to) {
                detail.push_str(&format!(", captures the {}", captured.describe()));
            }
            Some(Completion {
                label: text.clone(),
                kind: CompletionKind::Value,
                detail: Some(detail),
                documentation: None,
                insert: text.clone(),
                replace: replace.clone(),
                sort: format!("{order}{text}"),
            })
        })
        .collect();
    out.sort_by(|a, b| a.sort.cmp(&b.sort));
    out
}
