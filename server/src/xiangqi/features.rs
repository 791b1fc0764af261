//! What editors and tools ask of a xiangqi-setup file (the [`NotationDocument`] contract):
//! its states and boards, outline, folds and hints, and its hovers and completions.

use std::io;
use std::ops::Range;

use serde_json::json;

use crate::diagnostic::Diagnostic;
use crate::model::edit::TextEdit;
use crate::model::editor_diagnostics::Shown;
use crate::model::features::{
    Completion, CompletionKind, Fold, FoldKind, HintKind, InlayHint, SemanticToken, Symbol,
    SymbolKind,
};
use crate::model::format::Format;
use crate::model::line_index::LineIndex;
use crate::model::notation_document::{
    ConvertError, GameSummary, HoverBoard, LineState, MoveAnswer, MoveAt, MoveRequest,
    NotationDocument, NotationHover, StateRef, Target, Targets,
};
use crate::model::scene::Scene;
use crate::xiangqi::annotation::Code;
use crate::xiangqi::board::{letter_note, Board, Kind, Man, Side};
use crate::xiangqi::document::{board_scene, position_scene, XiangqiDocument};
use crate::xiangqi::reader::parsed::Slot;
use crate::xiangqi::reader::position::{AtomKind, Position};
use crate::xiangqi::reader::wxf::HEADER_KEYS;
use crate::xiangqi::replay::{side_of, Outcome};
use crate::xiangqi::rules::{in_check, legal_moves};
use crate::xiangqi::wxf_move::write_move;

/// One state of `replay --format json`, its fields in the documented order.
#[derive(serde::Serialize)]
struct StateJson {
    #[serde(rename = "move")]
    label: String,
    fen: String,
    annotations: Vec<AnnotationJson>,
}

#[derive(serde::Serialize)]
struct AnnotationJson {
    square: String,
    code: String,
}

/// The annotations of a position for JSON: `{"square": "b9", "code": "a+1-2"}`.
fn annotations_json(position: &Position) -> Vec<AnnotationJson> {
    position
        .codes()
        .map(|(atom, code)| AnnotationJson {
            square: atom.point.name(),
            code: code.text(),
        })
        .collect()
}

impl NotationDocument for XiangqiDocument {
    fn format(&self) -> Format {
        self.parsed.format
    }

    fn text(&self) -> &str {
        &self.text
    }

    fn line_index(&self) -> &LineIndex {
        &self.line_index
    }

    fn update(&self, text: String, edit: &TextEdit) -> Box<dyn NotationDocument> {
        Box::new(self.updated(text, edit))
    }

    fn diagnostics(&self) -> &[Diagnostic] {
        self.all_diagnostics()
    }

    fn diagnostics_shown(&self, most: usize) -> Shown {
        self.shown(most)
    }

    fn games(&self) -> Vec<GameSummary> {
        let content = crate::xiangqi::reader::parsed::trimmed(&self.text, 0..self.text.len());
        vec![GameSummary {
            name: self.parsed.name.clone(),
            range: if content.is_empty() {
                0..self.text.len()
            } else {
                content
            },
            selection: self.parsed.selection.clone(),
            start: StateRef { game: 0, index: 0 },
        }]
    }

    fn main_line(&self, game: usize) -> Vec<LineState> {
        if game != 0 {
            return Vec::new();
        }
        let mut states = vec![LineState {
            label: "start".to_string(),
            text: String::new(),
            comment: String::new(),
            range: None,
            state: StateRef { game: 0, index: 0 },
        }];
        for (index, written) in self.parsed.moves.iter().enumerate() {
            states.push(LineState {
                label: self.state_label(index + 1),
                text: written.text(&self.text).to_string(),
                comment: String::new(),
                range: Some(written.range.clone()),
                state: StateRef {
                    game: 0,
                    index: index + 1,
                },
            });
        }
        states
    }

    fn move_at(&self, offset: usize, or_before: bool) -> Option<MoveAt> {
        let index = match self.move_index(offset) {
            Some(index) => index + 1,
            None if or_before => self
                .parsed
                .moves
                .partition_point(|m| m.range.start <= offset),
            None => return None,
        };
        Some(MoveAt {
            label: self.state_label(index),
            range: index
                .checked_sub(1)
                .and_then(|i| self.parsed.moves.get(i))
                .map(|m| m.range),
            state: StateRef { game: 0, index },
        })
    }

    fn scene(&self, state: StateRef) -> Option<Scene> {
        if state.game != 0 {
            return None;
        }
        if state.index == 0 {
            return Some(position_scene(&self.parsed.start));
        }
        let played = self.played.get(state.index - 1)?;
        Some(board_scene(
            &self.board_at_state(state.index)?,
            Some(played),
        ))
    }

    fn symbols(&self) -> Vec<Symbol> {
        let children = self
            .parsed
            .moves
            .iter()
            .enumerate()
            .map(|(index, written)| Symbol {
                name: self.state_label(index + 1),
                detail: Some(written.text(&self.text).to_string()),
                kind: SymbolKind::Move,
                range: written
                    .number
                    .as_ref()
                    .map_or(written.range.start, |n| n.1.start)
                    ..written.range.end,
                selection: written.range.clone(),
                children: Vec::new(),
            })
            .collect();
        let game = &self.games()[0];
        vec![Symbol {
            name: game.name.clone(),
            detail: Some(self.parsed.format.name().to_string()),
            kind: SymbolKind::Game,
            range: game.range.clone(),
            selection: game.selection.clone(),
            children,
        }]
    }

    fn folds(&self) -> Vec<Fold> {
        let mut folds: Vec<Fold> = self
            .parsed
            .folds
            .iter()
            .filter_map(|(range, comment)| {
                let start_line = self.line_index.line_of(range.start);
                let end_line = self
                    .line_index
                    .line_of(range.end.saturating_sub(1).max(range.start));
                (end_line > start_line).then_some(Fold {
                    start_line,
                    end_line,
                    kind: if *comment {
                        FoldKind::Comment
                    } else {
                        FoldKind::Region
                    },
                })
            })
            .collect();
        folds.sort_by_key(|fold| (fold.start_line, fold.end_line));
        folds
    }

    fn hover(&self, offset: usize) -> Option<NotationHover> {
        crate::xiangqi::features::hover(self, offset)
    }

    fn completions(&self, offset: usize) -> Vec<Completion> {
        crate::xiangqi::features::completions(self, offset)
    }

    fn each_semantic_token(&self, range: Range<usize>, emit: &mut dyn FnMut(SemanticToken)) {
        let moves = &self.parsed.moves;
        let first = moves.partition_point(|m| m.range.end <= range.start);
        let last = first.max(moves.partition_point(|m| m.item_start() < range.end));
        // The moves' tokens are in order: the few others are sorted and merged with them.
        let mut others: Vec<SemanticToken> = self
            .parsed
            .tokens
            .iter()
            .filter(|token| token.range.end > range.start && token.range.start < range.end)
            .cloned()
            .collect();
        others.sort_by_key(|token| (token.range.start, token.range.end));
        let mut others = others.into_iter().peekable();
        let mut covered_to = 0;
        let mut give = |token: SemanticToken| {
            let wanted = token.range.end > range.start && token.range.start < range.end;
            if wanted && token.range.start >= covered_to {
                covered_to = token.range.end;
                emit(token);
            }
        };
        for token in moves
            .iter_from(first)
            .take(last - first)
            .flat_map(|m| m.tokens())
        {
            while let Some(other) = others.next_if(|other| {
                (other.range.start, other.range.end) <= (token.range.start, token.range.end)
            }) {
                give(other);
            }
            give(token);
        }
        others.for_each(give);
    }

    fn inlay_hints(&self, range: Range<usize>) -> Vec<InlayHint> {
        self.parsed
            .moves
            .iter()
            .zip(self.played.iter())
            .filter(|(written, _)| {
                written.range.end >= range.start && written.range.end <= range.end
            })
            .filter_map(|(written, played)| {
                let captured = played.captured?;
                Some(InlayHint {
                    offset: written.range.end,
                    label: format!("×{}", captured.letter()),
                    kind: HintKind::Capture,
                    tooltip: Some(format!("captures the {}", captured.describe())),
                })
            })
            .collect()
    }

    fn write_replay_json(
        &self,
        file: &str,
        only: Option<&[StateRef]>,
        out: &mut dyn io::Write,
    ) -> io::Result<()> {
        let wanted = |index| only.is_none_or(|only| only.contains(&StateRef { game: 0, index }));
        write!(out, "{{\"file\":{},\"games\":[", json!(file))?;
        let count = self.played.len() + 1;
        if (0..count).any(wanted) {
            write!(
                out,
                "{{\"format\":{},\"states\":[",
                json!(self.parsed.format.name())
            )?;
            let mut first = true;
            for index in (0..count).filter(|&i| wanted(i)) {
                if !std::mem::take(&mut first) {
                    out.write_all(b",")?;
                }
                let (label, fen, annotations) = if index == 0 {
                    (
                        "start".to_string(),
                        self.start.fen_field(),
                        annotations_json(&self.parsed.start),
                    )
                } else {
                    let text = self
                        .parsed
                        .moves
                        .get(index - 1)
                        .map_or_else(String::new, |written| written.text(&self.text).to_string());
                    let board = self
                        .board_at_state(index)
                        .as_ref()
                        .map(Board::fen_field)
                        .unwrap_or_default();
                    (text, board, Vec::new())
                };
                serde_json::to_writer(
                    &mut *out,
                    &StateJson {
                        label,
                        fen,
                        annotations,
                    },
                )?;
            }
            out.write_all(b"]}")?;
        }
        out.write_all(b"]}\n")
    }

    fn legal_targets(&self, state: StateRef, from: &str) -> Targets {
        crate::xiangqi::enter_move::legal_targets(self, state, from)
    }

    fn enter_move(&self, request: &MoveRequest) -> MoveAnswer {
        crate::xiangqi::enter_move::enter_move(self, request)
    }

    fn conversions(&self) -> Vec<Target> {
        crate::xiangqi::convert::conversions(self)
    }

    fn convert(&self, target: Target) -> Result<String, ConvertError> {
        crate::xiangqi::convert::convert(self, target)
    }
}

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
