//! What editors and tools ask of an OTN file (the [`NotationDocument`] contract): its
//! states and boards, diagnostics, outline and folds; hover texts, completion of rules keys,
//! values and tag names, semantic tokens, and inlay hints with the captures a record leaves out.

use std::fmt::Write as _;
use std::io;
use std::ops::Range;

use serde_json::json;

use crate::diagnostic::Diagnostic;
use crate::model::edit::TextEdit;
use crate::model::editor_diagnostics::Shown;
use crate::model::features::{
    Completion, CompletionKind, Fold, FoldKind, HintKind, InlayHint, SemanticToken, Symbol,
    SymbolKind, TokenKind,
};
use crate::model::format::Format;
use crate::model::line_index::LineIndex;
use crate::model::notation_document::{
    ConvertError, GameSummary, HoverBoard, LineState, MoveAnswer, MoveAt, MoveRequest,
    NotationDocument, NotationHover, StateRef, Target, Targets, Variation,
};
use crate::model::scene::Scene;
use crate::otn::board::{Man, Square};
use crate::otn::document::OtnDocument;
use crate::otn::reader::moves::{capture_record, MoveRecord, MoveWord};
use crate::otn::reader::FileKind;
use crate::otn::variant::{key_info, keys, ValueKind};

impl NotationDocument for OtnDocument {
    fn format(&self) -> Format {
        Format::Otn
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
        OtnDocument::diagnostics(self)
    }

    fn diagnostics_shown(&self, most: usize) -> Shown {
        self.shown(most)
    }

    fn games(&self) -> Vec<GameSummary> {
        if self.replay.lines.is_empty() {
            return Vec::new();
        }
        let selection = self
            .replay
            .rules_range
            .clone()
            .or_else(|| self.file.body.clone())
            .unwrap_or(0..0);
        vec![GameSummary {
            name: self.game_name(),
            range: 0..self.text.len(),
            selection,
            start: StateRef { game: 0, index: 0 },
        }]
    }

    fn main_line(&self, game: usize) -> Vec<LineState> {
        if game != 0 || self.replay.lines.is_empty() {
            return Vec::new();
        }
        (0..self.replay.lines[0].plies.len())
            .map(|index| self.line_state(0, index))
            .collect()
    }

    fn variations(&self, game: usize) -> Vec<Variation> {
        if game != 0 {
            return Vec::new();
        }
        let lines = &self.replay.lines;
        (1..lines.len())
            .filter_map(|index| {
                let line = &lines[index];
                let (parent, at) = line.parent?;
                Some(Variation {
                    name: line.path.prefix(),
                    from: self.state_ref(parent, at),
                    states: (1..line.plies.len())
                        .map(|state| self.line_state(index, state))
                        .collect(),
                })
            })
            .collect()
    }

    fn move_at(&self, offset: usize, or_before: bool) -> Option<MoveAt> {
        if self.replay.lines.is_empty() {
            return None;
        }
        let found = self.move_index_at(offset).or_else(|| {
            if !or_before {
                return None;
            }
            Some(
                self.replay
                    .move_starting_before(offset)
                    .map_or((0, 0), |(_, line, index)| (line, index)),
            )
        })?;
        let (line, index) = found;
        let l = &self.replay.lines[line];
        Some(MoveAt {
            label: l.label(index),
            range: (index > 0).then(|| l.plies.at(index).range),
            state: self.state_ref(line, index),
        })
    }

    fn scene(&self, state: StateRef) -> Option<Scene> {
        let (line, index) = self.locate(state)?;
        self.scene_of(line, index)
    }

    fn symbols(&self) -> Vec<Symbol> {
        if self.replay.lines.is_empty() {
            return Vec::new();
        }
        let games = self.games();
        let game = &games[0];
        vec![Symbol {
            name: game.name.clone(),
            detail: Some(self.rules_text()),
            kind: SymbolKind::Game,
            range: game.range.clone(),
            selection: game.selection.clone(),
            children: self.move_symbols(0, &self.children()),
        }]
    }

    fn folds(&self) -> Vec<Fold> {
        let mut folds = Vec::new();
        let line_of = |offset: usize| self.line_index.line_of(offset);
        for line in self.replay.lines.iter().skip(1) {
            let range = self.line_range(line);
            let (start, end) = (line_of(range.start), line_of(range.end));
            if end > start {
                folds.push(Fold {
                    start_line: start,
                    end_line: end,
                    kind: FoldKind::Region,
                });
            }
        }
        let turns = &self.file.turns;
        let commentary = (0..turns.len()).filter_map(|t| turns.commentary_range(t));
        let tags = self.file.tags.iter().map(|t| t.range.clone());
        for range in commentary.chain(tags) {
            let (start, end) = (
                line_of(range.start),
                line_of(range.end.saturating_sub(1).max(range.start)),
            );
            if end > start {
                folds.push(Fold {
                    start_line: start,
                    end_line: end,
                    kind: FoldKind::Comment,
                });
            }
        }
        folds.sort_by_key(|f| (f.start_line, std::cmp::Reverse(f.end_line)));
        folds
    }

    fn hover(&self, offset: usize) -> Option<NotationHover> {
        crate::otn::features::hover(self, offset)
    }

    fn completions(&self, offset: usize) -> Vec<Completion> {
        crate::otn::features::completions(self, offset)
    }

    fn each_semantic_token(&self, range: Range<usize>, emit: &mut dyn FnMut(SemanticToken)) {
        crate::otn::features::each_semantic_token(self, range, emit)
    }

    fn inlay_hints(&self, range: Range<usize>) -> Vec<InlayHint> {
        crate::otn::features::inlay_hints(self, range)
    }

    fn write_replay_json(
        &self,
        file: &str,
        only: Option<&[StateRef]>,
        out: &mut dyn io::Write,
    ) -> io::Result<()> {
        write!(out, "{{\"file\":{},\"games\":[", json!(file))?;
        let wanted_any = |line: usize, from: usize| {
            let l = &self.replay.lines[line];
            (from..l.plies.len())
                .any(|i| only.is_none_or(|only| only.contains(&self.state_ref(line, i))))
        };
        if !self.replay.lines.is_empty()
            && (wanted_any(0, 0) || (1..self.replay.lines.len()).any(|l| wanted_any(l, 1)))
        {
            write!(
                out,
                "{{\"format\":\"otn\",\"rules\":{},\"states\":[",
                json!(self.rules_text())
            )?;
            self.write_states(0, only, true, out)?;
            out.write_all(b"],\"variations\":[")?;
            let mut first = true;
            for (l, line) in self.replay.lines.iter().enumerate().skip(1) {
                if !wanted_any(l, 1) {
                    continue;
                }
                if !std::mem::take(&mut first) {
                    out.write_all(b",")?;
                }
                let root = line.parent.and_then(|(parent, before)| {
                    let parent = &self.replay.lines[parent];
                    (before + 1 < parent.plies.len()).then(|| parent.label(before + 1))
                });
                write!(
                    out,
                    "{{\"address\":{},\"replaces\":{},\"states\":[",
                    json!(line.path.prefix()),
                    json!(root)
                )?;
                self.write_states(l, only, false, out)?;
                out.write_all(b"]}")?;
            }
            out.write_all(b"]}")?;
        }
        out.write_all(b"]}\n")
    }

    fn legal_targets(&self, state: StateRef, from: &str) -> Targets {
        crate::otn::enter_move::legal_targets(self, state, from)
    }

    fn enter_move(&self, request: &MoveRequest) -> MoveAnswer {
        crate::otn::enter_move::enter_move(self, request)
    }

    fn conversions(&self) -> Vec<Target> {
        if self.replay.lines.is_empty() {
            Vec::new()
        } else {
            vec![Target::Ppn]
        }
    }

    fn convert(&self, target: Target) -> Result<String, ConvertError> {
        match target {
            Target::Ppn => crate::otn::convert::to_ppn(self),
            _ => Err(ConvertError(format!(
                "an OTN file converts to ppn, not to {}",
                target.name()
            ))),
        }
    }
}

/// The tags of an OTN game record, with what each holds.
pub const TAGS: &[(&str, &str)] = &[
    ("event", "tournament or match event name"),
    ("site", "where the game was played: city, country, or a URL"),
    ("date", "date of the game, YYYY.MM.DD"),
    ("round", "round in the tournament or match"),
    ("attackers", "player of the attackers"),
    ("defenders", "player of the defenders"),
    (
        "result",
        "1 (attackers win), -1 (defenders win), 0 (draw) or ? (other)",
    ),
    ("annotator", "who wrote the commentary"),
    ("compiler", "who assembled this file"),
    (
        "time-control",
        "main time in seconds, overtimes and increment, e.g. `3600 30/3 3i`",
    ),
    (
        "time-remaining",
        "time left at the end, attackers first, then defenders",
    ),
    ("termination", "how the game ended, in words"),
    ("variant", "name of the tafl variant"),
    ("start-comment", "commentary shown at the start of the game"),
    (
        "puzzle-mode",
        "none, loose or strict: whether this record is a puzzle",
    ),
    (
        "puzzle-prestart",
        "the move address where a puzzle's replay begins",
    ),
    ("puzzle-start", "the move address where the puzzle begins"),
    (
        "position",
        "a position record to start from instead of the rules' start",
    ),
    ("rules", "the OTN rules string; the last tag"),
];

fn contains(range: &Range<usize>, offset: usize) -> bool {
    range.start <= offset && offset <= range.end
}

pub fn hover(document: &OtnDocument, offset: usize) -> Option<NotationHover> {
    let text = &document.text;
    // A move: its board.
    if let Some((range, line, index)) = document.replay.move_at(offset) {
        let l = &document.replay.lines[line];
        let label = l.label(index);
        let mut markdown = format!("**{label}** `{}`", &text[range.clone()]);
        let captured = document.captured(line, index);
        if !captured.is_empty() {
            let names: Vec<String> = captured
                .iter()
                .map(|(square, man)| format!("{} on {square}", man.describe()))
                .collect();
            let _ = write!(markdown, "\n\ncaptures {}", names.join(", "));
        }
        if let Some(verdict) = l.plies.as_read(index).0.verdict {
            let _ = write!(markdown, "\n\n**{}**", capitalise(&verdict.describe()));
        }
        let comment = document.comment(line, index);
        if !comment.is_empty() {
            let _ = write!(markdown, "\n\n> {comment}");
        }
        return Some(NotationHover {
            range,
            markdown,
            board: Some(HoverBoard {
                state: document.state_ref(line, index),
                label,
                marked: None,
            }),
        });
    }
    // A rules entry.
    if let Some(parsed) = &document.replay.rules {
        for entry in &parsed.entries {
            let key = &text[entry.key.clone()];
            let value = &text[entry.value.clone()];
            if contains(&entry.key, offset) {
                let markdown = match key_info(key) {
                    Some(info) => {
                        let mut out = format!("**{key}**: {}\n\n{}", info.title, info.doc);
                        if let ValueKind::Choice(choices) = info.values {
                            out.push('\n');
                            for (letter, meaning) in choices {
                                let _ = write!(out, "\n- `{letter}`: {meaning}");
                            }
                        }
                        if !info.default.is_empty() {
                            let _ = write!(out, "\n\nDefault: `{}`", info.default);
                        }
                        out
                    }
                    None => format!("`{key}` is not an OTN rules key; OpenTafl ignores it"),
                };
                return Some(NotationHover {
                    range: entry.key.clone(),
                    markdown,
                    board: None,
                });
            }
            if contains(&entry.value, offset) {
                let Some(info) = key_info(key) else {
                    continue;
                };
                let markdown = match info.values {
                    ValueKind::Choice(choices) => {
                        match choices.iter().find(|(letter, _)| *letter == value) {
                            Some((_, meaning)) => {
                                format!("**{key}:{value}**: {}: {meaning}", info.title)
                            }
                            None => format!("**{key}**: {}", info.title),
                        }
                    }
                    ValueKind::Pieces => {
                        let set =
                            crate::otn::board::PieceSet::from_letters(value).unwrap_or_default();
                        format!("**{key}**: {}: {}", info.title, set.describe())
                    }
                    ValueKind::Position => {
                        return Some(NotationHover {
                            range: entry.value.clone(),
                            markdown: format!("**{key}**: {}", info.title),
                            board: document.replay.lines.first().map(|_| HoverBoard {
                                state: document.state_ref(0, 0),
                                label: "start".to_string(),
                                marked: None,
                            }),
                        })
                    }
                    _ => format!("**{key}**: {}", info.title),
                };
                return Some(NotationHover {
                    range: entry.value.clone(),
                    markdown,
                    board: None,
                });
            }
        }
    }
    // A turn's number: which line of play, and the board after the turn.
    let turns = &document.file.turns;
    let turn_here = turns
        .count_starting_before(offset.saturating_add(1))
        .checked_sub(1)
        .filter(|t| contains(&turns.address_range(*t), offset))
        .and_then(|t| turns.get(t));
    if let Some(turn) = turn_here {
        let line_name = if turn.address.line.is_main() {
            "the main line".to_string()
        } else {
            let (parent, root) = turn.address.line.parent().unwrap_or_default();
            format!(
                "variation {}, off {}{}",
                turn.address.line.prefix(),
                parent.prefix(),
                root.name()
            )
        };
        let last = document
            .replay
            .move_starting_before(turn.range.end)
            .filter(|(range, _, _)| range.start >= turn.range.start && range.end <= turn.range.end);
        return Some(NotationHover {
            range: turn.address.range.clone(),
            markdown: format!("**Turn {}** of {line_name}", turn.address.turn),
            board: last.map(|(_, line, index)| HoverBoard {
                state: document.state_ref(line, index),
                label: document.replay.lines[line].label(index),
                marked: None,
            }),
        });
    }
    // A tag.
    for tag in &document.file.tags {
        if contains(&tag.value, offset) && &text[tag.name.clone()] == "result" {
            let value = text[tag.value.clone()].trim();
            let meaning = match value {
                "1" => "the attackers win",
                "-1" => "the defenders win",
                "0" => "a draw",
                "?" => "another result, or none yet",
                _ => "not a result: 1, -1, 0 or ?",
            };
            return Some(NotationHover {
                range: tag.value.clone(),
                markdown: format!("**result** `{value}`: {meaning}"),
                board: None,
            });
        }
        if contains(&tag.name, offset) {
            let name = &text[tag.name.clone()];
            let markdown = match TAGS.iter().find(|(tag, _)| *tag == name) {
                Some((_, meaning)) => format!("**{name}**: {meaning}"),
                None => format!("**{name}**: not one of OTN's tags"),
            };
            return Some(NotationHover {
                range: tag.name.clone(),
                markdown,
                board: None,
            });
        }
    }
    // A position file: its board.
    if document.file.kind == FileKind::Position {
        let range = document.file.body.clone()?;
        if contains(&range, offset) {
            return Some(NotationHover {
                range,
                markdown: "**position**".to_string(),
                board: Some(HoverBoard {
                    state: document.state_ref(0, 0),
                    label: "position".to_string(),
                    marked: None,
                }),
            });
        }
    }
    None
}

fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

pub fn completions(document: &OtnDocument, offset: usize) -> Vec<Completion> {
    let text = &document.text;
    let Some(before) = text.get(..offset) else {
        return Vec::new();
    };
    let rules_range = match document.file.kind {
        FileKind::Rules => document
            .file
            .body
            .clone()
            .map(|r| r.start..r.end.max(offset)),
        FileKind::GameRecord => document
            .file
            .tags
            .iter()
            .find(|t| &text[t.name.clone()] == "rules")
            .map(|t| t.value.clone()),
        _ => None,
    };
    // In the rules string: keys, or a key's values.
    if let Some(range) = rules_range.filter(|r| contains(r, offset)) {
        let word_start = before[range.start..]
            .rfind(|c: char| c.is_ascii_whitespace())
            .map_or(range.start, |i| range.start + i + 1);
        let word = &text[word_start..offset];
        return match word.split_once(':') {
            None => {
                let present: Vec<&str> = document
                    .replay
                    .rules
                    .as_ref()
                    .map(|r| r.entries.iter().map(|e| &text[e.key.clone()]).collect())
                    .unwrap_or_default();
                keys()
                    .filter(|info| !present.contains(&info.key) || info.key == word)
                    .enumerate()
                    .map(|(i, info)| Completion {
                        label: info.key.to_string(),
                        kind: CompletionKind::Key,
                        detail: Some(info.title.to_string()),
                        documentation: Some(info.doc.to_string()),
                        insert: format!("{}:", info.key),
                        replace: word_start..offset,
                        sort: format!("{i:03}"),
                    })
                    .collect()
            }
            Some((key, _)) => {
                let value_start = word_start + key.len() + 1;
                match key_info(key).map(|info| info.values) {
                    Some(ValueKind::Choice(choices)) => choices
                        .iter()
                        .enumerate()
                        .map(|(i, (letter, meaning))| Completion {
                            label: (*letter).to_string(),
                            kind: CompletionKind::Value,
                            detail: Some((*meaning).to_string()),
                            documentation: None,
                            insert: (*letter).to_string(),
                            replace: value_start..offset,
                            sort: format!("{i:03}"),
                        })
                        .collect(),
                    Some(ValueKind::Pieces) => {
                        let typed = &text[value_start..offset];
                        "tcnkmgTCNKMG"
                            .chars()
                            .filter(|c| !typed.contains(*c))
                            .enumerate()
                            .map(|(i, letter)| Completion {
                                label: letter.to_string(),
                                kind: CompletionKind::Value,
                                detail: Man::from_letter(letter).map(Man::describe),
                                documentation: None,
                                insert: letter.to_string(),
                                replace: offset..offset,
                                sort: format!("{i:03}"),
                            })
                            .collect()
                    }
                    _ => Vec::new(),
                }
            }
        };
    }
    // A tag name right after `[`, before the first turn.
    let line_start = before.rfind(['\n', '\r']).map_or(0, |i| i + 1);
    let line = &before[line_start..];
    let turns = &document.file.turns;
    let first_turn = if turns.is_empty() {
        usize::MAX
    } else {
        turns.range(0).start
    };
    if document.file.kind != FileKind::Rules
        && offset <= first_turn
        && line.starts_with('[')
        && line[1..]
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b == b'-')
    {
        return TAGS
            .iter()
            .enumerate()
            .map(|(i, (name, meaning))| Completion {
                label: (*name).to_string(),
                kind: CompletionKind::Key,
                detail: Some((*meaning).to_string()),
                documentation: None,
                insert: format!("{name}:"),
                replace: line_start + 1..offset,
                sort: format!("{i:03}"),
            })
            .collect();
    }
    Vec::new()
}

struct Tokens<'a> {
    text: &'a str,
    tokens: Vec<SemanticToken>,
}

impl Tokens<'_> {
    /// Adds a token, cut at line ends (a token spans one line).
    fn push(&mut self, range: Range<usize>, kind: TokenKind) {
        let mut start = range.start;
        let slice = &self.text.as_bytes()[range.clone()];
        for i in memchr::memchr2_iter(b'\n', b'\r', slice) {
            if start < range.start + i {
                self.tokens.push(SemanticToken {
                    range: start..range.start + i,
                    kind,
                });
            }
            start = range.start + i + 1;
        }
        if start < range.end {
            self.tokens.push(SemanticToken {
                range: start..range.end,
                kind,
            });
        }
    }

    fn position(&mut self, range: Range<usize>) {
        let bytes = self.text.as_bytes();
        let mut i = range.start;
        while i < range.end {
            let b = bytes[i];
            let len = if b.is_ascii_digit() {
                bytes[i..range.end]
                    .iter()
                    .take_while(|d| d.is_ascii_digit())
                    .count()
            } else {
                1
            };
            let kind = match b {
                b'/' => TokenKind::Operator,
                b if b.is_ascii_digit() => TokenKind::Number,
                _ => TokenKind::Type,
            };
            if b.is_ascii() {
                self.push(i..i + len, kind);
            }
            i += len.max(1);
            while i < range.end && !self.text.is_char_boundary(i) {
                i += 1;
            }
        }
    }

    fn move_record(&mut self, record: &MoveRecord) {
        if let Some((_, range)) = &record.mover {
            self.push(range.clone(), TokenKind::Type);
        }
        self.push(record.from.1.clone(), TokenKind::Variable);
        self.push(record.kind.1.clone(), TokenKind::Operator);
        self.push(record.to.1.clone(), TokenKind::Variable);
        for capture in &record.captures {
            let separator = capture.range.start - 1;
            self.push(separator..separator + 1, TokenKind::Operator);
            let mut square_start = capture.range.start;
            if capture.man.is_some() {
                self.push(
                    capture.range.start..capture.range.start + 1,
                    TokenKind::Type,
                );
                square_start += 1;
            }
            self.push(square_start..capture.range.end, TokenKind::Variable);
        }
        if let Some((_, range)) = &record.info {
            self.push(range.clone(), TokenKind::EnumMember);
        }
    }
}

/// The tokens overlapping `range`, given out in order: each turn's tokens as the turns
/// are walked, the others (tags, rules, a position) merged in, none overlapping another.
pub fn each_semantic_token(
    document: &OtnDocument,
    range: Range<usize>,
    emit: &mut dyn FnMut(SemanticToken),
) {
    let text = &document.text;
    let mut tokens = Tokens {
        text,
        tokens: Vec::new(),
    };
    for tag in &document.file.tags {
        tokens.push(tag.range.start..tag.range.start + 1, TokenKind::Keyword);
        tokens.push(tag.name.clone(), TokenKind::Property);
        match &text[tag.name.clone()] {
            "rules" => {}
            "position" => tokens.position(tag.value.clone()),
            _ => tokens.push(tag.value.clone(), TokenKind::String),
        }
        if text[..tag.range.end].ends_with(']') {
            tokens.push(tag.range.end - 1..tag.range.end, TokenKind::Keyword);
        }
    }
    if let Some(parsed) = &document.replay.rules {
        for entry in &parsed.entries {
            let key = &text[entry.key.clone()];
            tokens.push(entry.key.clone(), TokenKind::Property);
            match key_info(key).map(|i| i.values) {
                Some(ValueKind::Position) => tokens.position(entry.value.clone()),
                Some(ValueKind::Choice(_)) => {
                    tokens.push(entry.value.clone(), TokenKind::EnumMember)
                }
                Some(ValueKind::Dim | ValueKind::Speed) => {
                    tokens.push(entry.value.clone(), TokenKind::Number)
                }
                Some(ValueKind::Pieces) => tokens.push(entry.value.clone(), TokenKind::Type),
                Some(ValueKind::Squares) => tokens.push(entry.value.clone(), TokenKind::Variable),
                _ => tokens.push(entry.value.clone(), TokenKind::String),
            }
        }
    }
    if document.file.kind == FileKind::Position {
        if let Some(body) = document.file.body.clone() {
            tokens.position(body);
        }
    }
    let overlaps =
        |token: &SemanticToken| token.range.end > range.start && token.range.start < range.end;
    let mut others = std::mem::take(&mut tokens.tokens);
    others.retain(overlaps);
    others.sort_by_key(|t| (t.range.start, t.range.end));
    let mut others = others.into_iter().peekable();
    let mut covered_to = 0;
    let mut give = |token: SemanticToken| {
        if overlaps(&token) && token.range.start >= covered_to {
            covered_to = token.range.end;
            emit(token);
        }
    };
    let turns = &document.file.turns;
    for turn in turns.iter_from(turns.first_ending_from(range.start)) {
        if turn.range.start > range.end {
            break;
        }
        tokens.push(turn.address.range.clone(), TokenKind::Number);
        for word in &turn.moves {
            match word {
                MoveWord::Move(record) => tokens.move_record(record),
                MoveWord::Resign(r) | MoveWord::Placeholder(r) => {
                    tokens.push(r.clone(), TokenKind::Keyword)
                }
                MoveWord::Bad { .. } => {}
            }
        }
        if let Some(commentary) = &turn.commentary {
            tokens.push(commentary.range.clone(), TokenKind::Comment);
        }
        // A turn's few tokens in order, then merged with the others.
        tokens.tokens.sort_by_key(|t| (t.range.start, t.range.end));
        for token in tokens.tokens.drain(..) {
            while let Some(other) = others.next_if(|other| {
                (other.range.start, other.range.end) <= (token.range.start, token.range.end)
            }) {
                give(other);
            }
            give(token);
        }
    }
    others.for_each(give);
}

pub fn inlay_hints(document: &OtnDocument, range: Range<usize>) -> Vec<InlayHint> {
    let mut hints = Vec::new();
    let dim = document.replay.dim();
    let turns = &document.file.turns;
    for turn in turns.iter_from(turns.first_ending_from(range.start)) {
        if turn.range.end < range.start {
            continue;
        }
        if turn.range.start > range.end {
            break;
        }
        for word in &turn.moves {
            let MoveWord::Move(record) = word else {
                continue;
            };
            let at = record.captures_range.end;
            if !contains(&range, at) {
                continue;
            }
            let Some((line, index)) = document.replay.move_with_range(&record.range) else {
                continue;
            };
            let missing: Vec<(Square, Man)> = document.replay.lines[line]
                .ply_captures(index)
                .iter()
                .map(|(i, man)| (Square::of_index(usize::from(*i), dim), *man))
                .filter(|(square, _)| !record.captures.iter().any(|c| c.square == *square))
                .collect();
            if missing.is_empty() {
                continue;
            }
            let mut label = capture_record(&missing);
            if !record.captures.is_empty() {
                label = label.replacen('x', "/", 1);
            }
            let words: Vec<String> = missing
                .iter()
                .map(|(square, man)| format!("{} on {}", man.describe(), square.name()))
                .collect();
            hints.push(InlayHint {
                offset: at,
                label,
                kind: HintKind::Capture,
                tooltip: Some(format!("captures {} (not written)", words.join(" and "))),
            });
        }
    }
    hints
}
