//! PPN's answers to the notation contract ([`NotationDocument`]), from a
//! [`PpnDocument`]: its replay, its syntax and the PPN editor features.

pub mod completion;
pub mod enter_move;
pub mod folding;
pub mod hover;
pub mod inlay_hints;
pub mod locate;
pub mod navigation;
pub mod rename;
pub mod semantic_tokens;
pub mod symbols;

use std::collections::{HashMap, HashSet};
use std::io;
use std::ops::Range;

use serde_json::json;

use crate::diagnostic::Diagnostic;
use crate::model::edit::TextEdit;
use crate::model::features::{Completion, Fold, InlayHint, SemanticToken, Symbol};
use crate::model::format::Format;
use crate::model::line_index::LineIndex;
use crate::model::notation_document::{
    ConvertError, GameSummary, LineState, MoveAnswer, MoveAt, MoveRequest, NotationDocument,
    NotationHover, StateRef, Target, Targets,
};
use crate::model::piece::Piece;
use crate::model::scene::Scene;
use crate::ppn::document::PpnDocument;
use crate::ppn::features::locate::{game_at, games, move_at_or_before, move_touching};
use crate::ppn::reader::metadata::scalar_text;
use crate::ppn::reader::movetext::{user_label, SETUP_LABEL};
use crate::ppn::replay::ReplayedGame;
use crate::ppn::rules::setups::normalize_name;
use crate::render::piece_json::PieceJson;

impl NotationDocument for PpnDocument {
    fn format(&self) -> Format {
        Format::Ppn
    }

    fn text(&self) -> &str {
        &self.text
    }

    fn line_index(&self) -> &LineIndex {
        &self.line_index
    }

    fn update(&self, text: String, edit: &TextEdit) -> Box<dyn NotationDocument> {
        Box::new(PpnDocument::update(self, text, edit))
    }

    fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    fn games(&self) -> Vec<GameSummary> {
        let symbols = crate::ppn::features::symbols::game_symbols(self);
        // Both in document order: each game's symbol is looked for from the last one found.
        let mut next_symbol = 0;
        games(self)
            .into_iter()
            .filter_map(|game| {
                next_symbol += symbols[next_symbol..]
                    .iter()
                    .position(|symbol| symbol.range.start >= game.game.range.start)?;
                let symbol = &symbols[next_symbol];
                Some(GameSummary {
                    name: symbol.name.clone(),
                    range: symbol.range.clone(),
                    selection: symbol.selection.clone(),
                    start: StateRef {
                        game: game.index,
                        index: 0,
                    },
                })
            })
            .collect()
    }

    fn main_line(&self, game: usize) -> Vec<LineState> {
        let Some(replayed) = self.replay.games.get(game) else {
            return Vec::new();
        };
        let start = LineState {
            label: user_label(SETUP_LABEL),
            text: String::new(),
            comment: String::new(),
            range: None,
            state: StateRef { game, index: 0 },
        };
        std::iter::once(start)
            .chain(
                replayed
                    .moves()
                    .iter()
                    .enumerate()
                    .map(|(index, record)| LineState {
                        label: user_label(record.label()),
                        text: record.text().to_string(),
                        comment: record.comment().to_string(),
                        range: Some(record.source().clone()),
                        state: StateRef {
                            game,
                            index: index + 1,
                        },
                    }),
            )
            .collect()
    }

    fn move_at(&self, offset: usize, or_before: bool) -> Option<MoveAt> {
        let game = game_at(self, offset)?;
        let moves = game.moves();
        let index = if or_before {
            move_at_or_before(moves, offset).map_or(0, |index| index + 1)
        } else {
            move_touching(moves, offset)? + 1
        };
        if index > game.game.move_count() {
            return None;
        }
        let record = index.checked_sub(1).map(|i| &moves[i]);
        Some(MoveAt {
            label: user_label(record.map_or(SETUP_LABEL, |record| record.label())),
            range: record.map(|record| record.source().clone()),
            state: StateRef {
                game: game.index,
                index,
            },
        })
    }

    fn scene(&self, state: StateRef) -> Option<Scene> {
        let game = self.replay.games.get(state.game)?;
        scene_of(game, state.index)
    }

    fn symbols(&self) -> Vec<Symbol> {
        crate::ppn::features::symbols::document_symbols(self)
    }

    fn folds(&self) -> Vec<Fold> {
        crate::ppn::features::folding::folding_ranges(self)
    }

    fn hover(&self, offset: usize) -> Option<NotationHover> {
        crate::ppn::features::hover::hover(self, offset).map(|found| NotationHover {
            range: found.range,
            markdown: found.markdown,
            board: found.board,
        })
    }

    fn completions(&self, offset: usize) -> Vec<Completion> {
        crate::ppn::features::completion::completions(self, offset)
    }

    fn each_semantic_token(&self, range: Range<usize>, emit: &mut dyn FnMut(SemanticToken)) {
        let (start, end) = (range.start, range.end);
        crate::ppn::features::semantic_tokens::for_each_token_in(self, range, &mut |token| {
            if token.range.end > start && token.range.start < end {
                emit(token);
            }
        });
    }

    fn inlay_hints(&self, range: Range<usize>) -> Vec<InlayHint> {
        crate::ppn::features::inlay_hints::inlay_hints(self, range)
    }

    fn definition(&self, offset: usize) -> Option<Range<usize>> {
        crate::ppn::features::navigation::definition(self, offset)
    }

    fn references(&self, offset: usize, include_declaration: bool) -> Vec<Range<usize>> {
        crate::ppn::features::navigation::references(self, offset, include_declaration)
    }

    fn prepare_rename(&self, offset: usize) -> Result<Option<(Range<usize>, String)>, String> {
        crate::ppn::features::rename::prepare_rename(self, offset)
    }

    fn rename(&self, offset: usize, new_name: &str) -> Result<Vec<(Range<usize>, String)>, String> {
        crate::ppn::features::rename::rename(self, offset, new_name)
    }

    fn game_error(&self, game: usize) -> Option<String> {
        reference_error(self.replay.games.get(game)?)
    }

    fn write_replay_json(
        &self,
        file: &str,
        only: Option<&[StateRef]>,
        out: &mut dyn io::Write,
    ) -> io::Result<()> {
        let wanted = |game, index| only.is_none_or(|only| only.contains(&StateRef { game, index }));
        write!(out, "{{\"file\":{},\"games\":[", json!(file))?;
        let mut first_game = true;
        for (number, game) in self.replay.games.iter().enumerate() {
            if !(0..game.state_count()).any(|index| wanted(number, index)) {
                continue;
            }
            if !std::mem::take(&mut first_game) {
                out.write_all(b",")?;
            }
            out.write_all(b"{")?;
            if let Some(error) = reference_error(game) {
                write!(out, "\"error\":{},", json!(error))?;
            }
            out.write_all(b"\"states\":[")?;
            let mut first_state = true;
            // States are made one from the other: only from the first wanted to the last.
            let (first, last) = match only {
                None => (0, game.state_count()),
                Some(only) => {
                    let indices = || {
                        only.iter()
                            .filter(|state| state.game == number)
                            .map(|state| state.index)
                    };
                    (
                        indices().min().unwrap_or(0),
                        indices().max().map_or(0, |last| last + 1),
                    )
                }
            };
            let states = game.states_from(first).take(last.saturating_sub(first));
            for (index, state) in states.enumerate() {
                let index = first + index;
                if !wanted(number, index) {
                    continue;
                }
                if !std::mem::take(&mut first_state) {
                    out.write_all(b",")?;
                }
                write!(
                    out,
                    "{{\"comment\":{},\"move\":{},\"pieces\":[",
                    json!(state.comment),
                    json!(state.label)
                )?;
                for (index, piece) in state.pieces().iter().enumerate() {
                    if index > 0 {
                        out.write_all(b",")?;
                    }
                    serde_json::to_writer(&mut *out, &PieceJson(piece))?;
                }
                write!(out, "],\"text\":{}}}", json!(state.text))?;
            }
            out.write_all(b"]}")?;
        }
        out.write_all(b"]}\n")
    }

    fn legal_targets(&self, state: StateRef, from: &str) -> Targets {
        enter_move::legal_targets(self, state, from)
    }

    fn enter_move(&self, request: &MoveRequest) -> MoveAnswer {
        enter_move::enter_move(self, request)
    }

    fn conversions(&self) -> Vec<Target> {
        let mut targets = Vec::new();
        if !self.xiangqi_games().is_empty() {
            targets.push(Target::Wxf);
        }
        if self
            .replay
            .games
            .iter()
            .any(|game| tafl_game(game).is_some())
        {
            targets.push(Target::Otn);
        }
        targets
    }

    fn convert(&self, target: Target) -> Result<String, ConvertError> {
        if target == Target::Otn {
            return self.tafl_to_otn();
        }
        let games = self.xiangqi_games();
        match (target, games.as_slice()) {
            (Target::Wxf, [game]) => {
                let name = ["Event", "GameType"]
                    .into_iter()
                    .find_map(|key| game.metadata.get(key).and_then(scalar_text))
                    .unwrap_or_else(|| "Xiangqi".to_string());
                let states: Vec<_> = game.states().collect();
                let setup = states
                    .iter()
                    .take_while(|state| state.label.starts_with(SETUP_LABEL))
                    .count();
                crate::xiangqi::convert::wxf_of_ppn_game(
                    &name,
                    states.iter().map(|state| state.pieces()),
                    setup,
                )
            }
            (Target::Wxf, []) => Err(ConvertError(
                "the file has no xiangqi game (`GameType: Xiangqi`) to write as WXF".into(),
            )),
            (Target::Wxf, several) => Err(ConvertError(format!(
                "the file has {} xiangqi games; a WXF record holds one",
                several.len()
            ))),
            _ => Err(ConvertError(format!(
                "a ppn file converts to wxf (xiangqi games) or otn (tafl games), not to {}",
                target.name()
            ))),
        }
    }
}

impl PpnDocument {
    /// The first tafl game written as an OpenTafl record.
    fn tafl_to_otn(&self) -> Result<String, ConvertError> {
        let game = self
            .replay
            .games
            .iter()
            .find_map(tafl_game)
            .ok_or_else(|| {
                ConvertError("no tafl game (GameType Tablut or Brandubh) to convert".to_string())
            })?;
        crate::otn::convert::from_ppn(&game)
    }

    /// The games PPN's library sets up as xiangqi, which convert to WXF records.
    fn xiangqi_games(&self) -> Vec<&ReplayedGame> {
        self.replay
            .games
            .iter()
            .filter(|game| {
                ["GameType", "SetUp"].into_iter().any(|key| {
                    game.metadata
                        .get(key)
                        .and_then(scalar_text)
                        .is_some_and(|name| {
                            matches!(normalize_name(&name).as_str(), "xiangqi" | "chinese_chess")
                        })
                })
            })
            .collect()
    }
}

/// A game as the OTN converter reads it, if it is a tafl game.
fn tafl_game(game: &ReplayedGame) -> Option<crate::otn::convert::PpnTaflGame> {
    use crate::ppn::reader::metadata::scalar_text;
    let metadata = &game.metadata;
    let name = |value: &serde_yaml::Value| {
        scalar_text(value)
            .or_else(|| value.get("Name").and_then(scalar_text))
            .map(|n| n.trim().to_lowercase().replace([' ', '-'], "_"))
    };
    let setup = metadata
        .get("SetUp")
        .or_else(|| metadata.get("GameType"))
        .and_then(name);
    let otn_rules = metadata.get("OtnRules").and_then(scalar_text);
    if !crate::otn::convert::is_tafl_game(setup.as_deref(), otn_rules.is_some()) {
        return None;
    }
    let values = metadata
        .mapping
        .iter()
        .filter_map(|(key, value)| Some((scalar_text(key)?, scalar_text(value)?)))
        .collect();
    Some(crate::otn::convert::PpnTaflGame {
        setup,
        otn_rules,
        metadata: values,
        states: game
            .states()
            .map(|state| (user_label(&state.label), state.pieces().to_vec()))
            .collect(),
    })
}

/// The metadata problems on which the reference stops reading a game: YAML it cannot
/// parse, a parser or setup it does not have, a setup argument the setup does not take
/// (ppn-ls warns and goes on; the reference refuses the setup).
const REFERENCE_STOPS_ON: &[&str] = &[
    "yaml-error",
    "metadata-not-mapping",
    "unknown-movetext-parser",
    "unknown-game",
    "unknown-system",
    "bad-setup",
    "bad-setup-argument",
    "unknown-setup-argument",
];

fn reference_error(game: &ReplayedGame) -> Option<String> {
    game.metadata_diagnostics
        .iter()
        .find(|d| REFERENCE_STOPS_ON.contains(&d.code))
        .map(|d| d.message.clone())
}

/// The board of state `index` of `game`, with what the move leading to it changed.
fn scene_of(game: &ReplayedGame, index: usize) -> Option<Scene> {
    let Some(previous) = index.checked_sub(1) else {
        return Some(Scene {
            pieces: game.game_state(0)?.pieces().to_vec(),
            ..Scene::default()
        });
    };
    let mut states = game.states_from(previous);
    let before = states.next()?.state;
    let after = states.next()?.state;
    let mut scene = Scene {
        pieces: after.pieces().to_vec(),
        ..Scene::default()
    };
    // Keyed by serial and by square, so that a scene costs O(pieces), not
    // O(pieces²): a board of thousands of pieces is drawn at every state of a replay.
    let earlier: FastMap<u32, &Piece> = before.pieces_with_serials().collect();
    let mut serial_squares: FastMap<u32, SquareKey> = FastMap::default();
    let mut occupied: FastSet<SquareKey> = FastSet::default();
    for (position, (serial, piece)) in after.pieces_with_serials().enumerate() {
        if earlier.get(&serial).is_none_or(|old| **old != *piece) {
            scene.highlighted.push(position);
        }
        serial_squares.insert(serial, square_key(piece));
        occupied.insert(square_key(piece));
    }
    let mut vacated: FastSet<SquareKey> = FastSet::default();
    for (serial, old) in before.pieces_with_serials() {
        let square = square_key(old);
        let still_there = serial_squares.get(&serial) == Some(&square);
        if !still_there && !occupied.contains(&square) && vacated.insert(square) {
            scene.vacated.push((old.x, old.y));
        }
    }
    Some(scene)
}

/// A square as a hashable key: its coordinates' bits, with -0.0 read as 0.0 (equal as
/// numbers, so equal as squares).
type SquareKey = (u64, u64);
type FastMap<K, V> = HashMap<K, V, foldhash::fast::RandomState>;
type FastSet<K> = HashSet<K, foldhash::fast::RandomState>;

fn square_key(piece: &Piece) -> SquareKey {
    ((piece.x + 0.0).to_bits(), (piece.y + 0.0).to_bits())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn document(text: &str) -> PpnDocument {
        PpnDocument::new(text.to_string())
    }

    #[test]
    fn states_are_labelled_for_people() {
        let doc = document("---\n...\nS@a1 1. S@b2 1... b2-c3\n");
        let labels: Vec<_> = doc.main_line(0).into_iter().map(|s| s.label).collect();
        assert_eq!(labels, ["start", "setup", "1.", "1..."]);
    }

    #[test]
    fn setup_moves_chained_by_semicolons_are_labelled_setup_and_dots() {
        let doc = document(&format!("---\n...\nS@a1{}\n", ";".repeat(150)));
        let labels: Vec<_> = doc.main_line(0).into_iter().map(|s| s.label).collect();
        assert_eq!(&labels[..4], ["start", "setup", "setup.", "setup.."]);
        assert_eq!(labels[120], format!("setup{}", ".".repeat(119)));
        // Past 128 bytes, `SetupFn..` and its dots are written short, and so is `setup`.
        assert_eq!(labels[150], "setup.…(149 dots)");
        assert_eq!(labels.len(), 152);
    }

    #[test]
    fn a_scene_marks_what_the_move_changed() {
        let text = "---\n...\n1. S@b2 M@d4 2. b2-c3\n";
        let doc = document(text);
        let at = doc.move_at(text.find("c3").unwrap(), false).unwrap();
        assert_eq!(at.label, "2.");
        let scene = doc.scene(at.state).unwrap();
        assert_eq!(scene.pieces.len(), 2);
        let moved: Vec<_> = scene
            .highlighted
            .iter()
            .map(|&i| (scene.pieces[i].x, scene.pieces[i].y))
            .collect();
        assert_eq!(moved, [(3.0, 3.0)]);
        assert_eq!(scene.vacated, [(2.0, 2.0)]);
    }

    #[test]
    fn between_moves_the_last_move_before_counts_when_asked() {
        let text = "---\n...\n1. S@b2   2. b2-c3\n";
        let doc = document(text);
        let gap = text.find("   ").unwrap() + 2;
        assert_eq!(doc.move_at(gap, false), None);
        assert_eq!(doc.move_at(gap, true).unwrap().label, "1.");
        assert_eq!(doc.move_at(0, true).unwrap().label, "start");
    }

    #[test]
    fn replay_json_is_the_conformance_schema() {
        let doc = document("---\n...\n1. S@b2\n");
        let mut out = Vec::new();
        doc.write_replay_json("a.ppn", None, &mut out).unwrap();
        let value: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(value["file"], "a.ppn");
        let states = value["games"][0]["states"].as_array().unwrap();
        assert_eq!(states[0]["move"], "SetupFn.");
        assert_eq!(states[1]["move"], "1.");
        assert_eq!(states[1]["pieces"][0]["piece_side"], "coin_back");
        assert!(value["games"][0].get("error").is_none());
    }

    #[test]
    fn replay_json_writes_whole_numbers_as_integers_and_keys_in_order() {
        let doc = document("---\n...\n1. t@(1.5,2) {a \"note\"}\n");
        let mut out = Vec::new();
        doc.write_replay_json("a.ppn", None, &mut out).unwrap();
        let written = String::from_utf8(out).unwrap();
        let second_state = r#"{"comment":"a \"note\"","move":"1.","pieces":[{"angle":0,"cfg":"piecepack","piece_side":"tile_back","rank":1,"suit":1,"x":1.5,"y":2}],"text":"t@(1.5,2)"}"#;
        assert!(written.contains(second_state), "{written}");
        let value: serde_json::Value = serde_json::from_str(&written).unwrap();
        let piece = &value["games"][0]["states"][1]["pieces"][0];
        let state = doc.replay.games[0].state(1).unwrap();
        assert_eq!(
            *piece,
            crate::render::piece_json::piece_json(&state.pieces()[0])
        );
    }

    #[test]
    fn a_game_the_reference_cannot_read_has_an_error_in_the_replay_json() {
        let doc = document("---\nGameType: Chesss\n...\n1. S@b2\n---\nGameType: Chess\n...\n");
        assert!(doc.game_error(0).is_some_and(|e| e.contains("Chesss")));
        assert_eq!(doc.game_error(1), None);
        let mut out = Vec::new();
        doc.write_replay_json("a.ppn", None, &mut out).unwrap();
        let value: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert!(value["games"][0]["error"]
            .as_str()
            .unwrap()
            .contains("unknown game"));
        assert_eq!(value["games"][0]["states"].as_array().unwrap().len(), 2);
        assert!(value["games"][1].get("error").is_none());
    }
}
