//! A whole document replayed: games → metadata → setup → moves → board states, with every
//! problem found on the way as a located diagnostic.
//!
//! A replay can be brought up to date with an edit of its text ([`Replay::update`]): each
//! game, each move's state and its diagnostics only depend on the game's own text, so
//! games the edit left alone are kept (moved along), and an edited game keeps the states
//! of the moves before the first one that changed.

use std::borrow::Cow;
use std::ops::Range;
use std::sync::{Arc, OnceLock};

use serde_yaml::{Mapping, Value};

use crate::diagnostic::{Diagnostic, Severity};
pub use crate::model::edit::TextEdit;
use crate::model::piece::Piece;
use crate::ppn::engine::setups::{
    describe_unknown_argument, normalize_name, setup_from_metadata_seeded, Setup, SetupContext,
    SetupError,
};
use crate::ppn::engine::state::GameState;
use crate::ppn::notation::document::{split_games_checked, DocumentProblem, GameSource};
use crate::ppn::notation::macros::MacroTable;
use crate::ppn::notation::metadata::{parse_metadata, scalar_text, Metadata};
use crate::ppn::notation::movetext::{
    split_movetext_resumable, MoveRecord, MovetextProblem, ResumableSplit, SETUP_LABEL,
};
use crate::ppn::notation::piece_spec::ParserOptions;

/// Setups that deal pieces at random without a `Seed` (Shogi's pawns, Plans of Action's
/// coin ranks when only `Coins` is given, ...) draw from this seed, so a file always shows
/// the same board; the reference draws them differently on every run.
pub const UNSEEDED_SETUP_SEED: i32 = 1;

/// The board after one move (or the starting board).
#[derive(Clone, Debug)]
pub struct ReplayedState {
    /// The move label as the reference writes it: `1.`, `1...`, `2..`, `SetupFn.`.
    pub label: String,
    /// The move's text: comments removed, braces expanded, macros not substituted.
    pub text: String,
    pub comment: String,
    /// Where the move is in the document; `None` for the starting board.
    pub source: Option<Range<usize>>,
    /// The game after the move: pieces, active pieces and the move's starting board, so
    /// PieceIds can be resolved at this point and replay can resume from here. Shared, so
    /// that moving a game in the file does not copy its boards.
    pub state: Arc<GameState>,
    /// What went wrong in this move (none for the starting board).
    pub diagnostics: Vec<Diagnostic>,
}

impl ReplayedState {
    /// Every piece on the board, bottom (earliest) first.
    pub fn pieces(&self) -> &[Piece] {
        self.state.pieces()
    }
}

#[derive(Clone, Debug)]
pub struct ReplayedGame {
    pub range: Range<usize>,
    pub metadata: Metadata,
    /// Problems of the metadata block and of the settings read from it.
    pub metadata_diagnostics: Vec<Diagnostic>,
    /// Problems found while cutting the movetext into moves.
    pub movetext_diagnostics: Vec<Diagnostic>,
    /// The starting board first, then one state per move. Shared, so that a new revision
    /// of the document keeps the states of the moves an edit did not change.
    pub states: Vec<Arc<ReplayedState>>,
    /// The moves as they were split, to tell which ones an edit changed and to split the
    /// movetext again from where it changed.
    split: ResumableSplit,
    /// How far the game has moved in the file since `split` was made: it is moved along
    /// only when the game itself is edited.
    split_moved_by: isize,
    /// The moves with their ranges in the current text, made on first use when the game
    /// has moved since it was split.
    moved_moves: OnceLock<Vec<Arc<MoveRecord>>>,
}

impl ReplayedGame {
    /// How many moves the game has.
    pub fn move_count(&self) -> usize {
        self.split.moves.len()
    }

    /// Move `index` as it was split, with its ranges in the current text; move `i` led to
    /// state `i + 1`.
    pub fn move_record(&self, index: usize) -> Option<MoveRecord> {
        let record = self.split.moves.get(index)?;
        Some(if self.split_moved_by == 0 {
            MoveRecord::clone(record)
        } else {
            record.shifted(self.split_moved_by)
        })
    }

    /// Every move, in order, with its ranges in the current text.
    pub fn moves(&self) -> &[Arc<MoveRecord>] {
        if self.split_moved_by == 0 {
            return &self.split.moves;
        }
        self.moved_moves.get_or_init(|| {
            self.split
                .moves
                .iter()
                .map(|record| Arc::new(record.shifted(self.split_moved_by)))
                .collect()
        })
    }

    /// The state after the move whose text holds `offset` (an offset just past a move's end
    /// still counts as that move); `None` outside every move.
    pub fn state_at(&self, offset: usize) -> Option<&Arc<ReplayedState>> {
        let after = self.states.partition_point(|state| {
            state
                .source
                .as_ref()
                .is_none_or(|source| source.start <= offset)
        });
        let state = self.states.get(after.checked_sub(1)?)?;
        let source = state.source.as_ref()?;
        (offset <= source.end).then_some(state)
    }

    fn shifted(&self, delta: isize) -> ReplayedGame {
        if delta == 0 {
            return self.clone();
        }
        let states = self
            .states
            .iter()
            .map(|state| match &state.source {
                None => state.clone(),
                Some(source) => Arc::new(ReplayedState {
                    label: state.label.clone(),
                    text: state.text.clone(),
                    comment: state.comment.clone(),
                    source: Some(shift_range(source, delta)),
                    state: state.state.clone(),
                    diagnostics: shift_diagnostics(&state.diagnostics, delta),
                }),
            })
            .collect();
        ReplayedGame {
            range: shift_range(&self.range, delta),
            metadata: Metadata {
                mapping: self.metadata.mapping.clone(),
                source: self.metadata.source.as_ref().map(|r| shift_range(r, delta)),
            },
            metadata_diagnostics: shift_diagnostics(&self.metadata_diagnostics, delta),
            movetext_diagnostics: shift_diagnostics(&self.movetext_diagnostics, delta),
            states,
            split: self.split.clone(),
            split_moved_by: self.split_moved_by + delta,
            moved_moves: OnceLock::new(),
        }
    }

    /// Every diagnostic of the game, in the order a replay finds them.
    fn diagnostics(&self) -> impl Iterator<Item = &Diagnostic> {
        self.metadata_diagnostics
            .iter()
            .chain(&self.movetext_diagnostics)
            .chain(self.states.iter().flat_map(|state| &state.diagnostics))
    }
}

#[derive(Clone, Debug, Default)]
pub struct Replay {
    pub games: Vec<ReplayedGame>,
    /// Problems of the document's notation and moves (syntax errors are the grammar's).
    pub diagnostics: Vec<Diagnostic>,
}

/// Replay every game of a document.
pub fn replay_document(text: &str) -> Replay {
    let (sources, problems) = split_games_checked(text);
    let games = sources
        .into_iter()
        .map(|source| replay_game(text, source))
        .collect();
    Replay::assemble(games, problems)
}

impl Replay {
    fn assemble(games: Vec<ReplayedGame>, problems: Vec<DocumentProblem>) -> Replay {
        let mut diagnostics: Vec<Diagnostic> = problems
            .into_iter()
            .map(|problem| Diagnostic {
                related: Vec::new(),
                fixes: Vec::new(),
                range: problem.range,
                severity: Severity::Warning,
                code: problem.code.as_str(),
                message: problem.message,
            })
            .collect();
        diagnostics.extend(games.iter().flat_map(|game| game.diagnostics().cloned()));
        Replay { games, diagnostics }
    }

    /// The replay of `new_text`, which `edit` made from `old_text`, the text of this
    /// replay. Exactly what [`replay_document`] gives, but games the edit left alone are
    /// reused, and a game it changed is replayed only from its first changed move.
    pub fn update(&self, old_text: &str, new_text: &str, edit: &TextEdit) -> Replay {
        let edit = &edit.checked(old_text, new_text);
        let (sources, problems) = split_games_checked(new_text);
        let games = sources
            .into_iter()
            .map(|source| {
                let old_game = edit.old_offset(source.range.start).and_then(|start| {
                    let index = self
                        .games
                        .binary_search_by_key(&start, |game| game.range.start)
                        .ok()?;
                    self.games.get(index)
                });
                match old_game {
                    Some(old) => update_game(old, old_text, new_text, source, edit),
                    None => replay_game(new_text, source),
                }
            })
            .collect();
        Replay::assemble(games, problems)
    }
}

/// `old`, a game of `old_text`, as far as it still holds for `source` in `new_text`.
fn update_game(
    old: &ReplayedGame,
    old_text: &str,
    new_text: &str,
    source: GameSource,
    edit: &TextEdit,
) -> ReplayedGame {
    let at_file_start = |range: &Range<usize>| range.start == 0;
    if old_text.get(old.range.clone()) == new_text.get(source.range.clone())
        && at_file_start(&old.range) == at_file_start(&source.range)
    {
        let delta = source.range.start as isize - old.range.start as isize;
        return old.shifted(delta);
    }
    let same_metadata = old.range.start == source.range.start
        && old.metadata.source == source.metadata
        && source
            .metadata
            .as_ref()
            .is_none_or(|range| old_text.get(range.clone()) == new_text.get(range.clone()));
    if !same_metadata {
        return replay_game(new_text, source);
    }
    let old_split = match old.split_moved_by {
        0 => Cow::Borrowed(&old.split),
        delta => Cow::Owned(old.split.shifted(delta)),
    };
    let (split, kept) = old_split.resplit(new_text, source.movetext.clone(), edit.start);
    let unchanged = kept
        + old_split.moves[kept..]
            .iter()
            .zip(&split.moves[kept..])
            .take_while(|(before, after)| same_move(before, old_text, after, new_text))
            .count();
    let mut states: Vec<Arc<ReplayedState>> = old.states[..=unchanged].to_vec();
    let mut state = GameState::clone(&states[unchanged].state);
    for record in &split.moves[unchanged..] {
        states.push(Arc::new(replay_move(new_text, &mut state, record)));
    }
    ReplayedGame {
        range: source.range,
        metadata: old.metadata.clone(),
        metadata_diagnostics: old.metadata_diagnostics.clone(),
        movetext_diagnostics: movetext_diagnostics(&split.problems),
        states,
        split,
        split_moved_by: 0,
        moved_moves: OnceLock::new(),
    }
}

/// Whether replaying `after` (of `new_text`) gives what replaying `before` (of
/// `old_text`) gave, diagnostics included, from the same state.
fn same_move(before: &MoveRecord, old_text: &str, after: &MoveRecord, new_text: &str) -> bool {
    before == after
        && before
            .tokens
            .iter()
            .all(|token| old_text.get(token.source.clone()) == new_text.get(token.source.clone()))
}

fn shift_range(range: &Range<usize>, delta: isize) -> Range<usize> {
    range.start.saturating_add_signed(delta)..range.end.saturating_add_signed(delta)
}

fn shift_diagnostics(diagnostics: &[Diagnostic], delta: isize) -> Vec<Diagnostic> {
    diagnostics
        .iter()
        .map(|diagnostic| diagnostic.shifted(delta))
        .collect()
}

fn movetext_diagnostics(problems: &[MovetextProblem]) -> Vec<Diagnostic> {
    problems
        .iter()
        .map(|problem| Diagnostic {
            related: Vec::new(),
            fixes: Vec::new(),
            range: problem.range.clone(),
            severity: problem.severity,
            code: problem.code.as_str(),
            message: problem.message.clone(),
        })
        .collect()
}

fn replay_game(text: &str, source: GameSource) -> ReplayedGame {
    let (metadata, mut metadata_diagnostics) = parse_metadata(text, source.metadata.clone());
    let settings = GameSettings::read(text, &metadata, &mut metadata_diagnostics);
    let split = split_movetext_resumable(text, source.movetext.clone());
    let mut state = GameState::new(
        settings.setup.pieces,
        settings.scale_factor,
        MacroTable::with_overrides(&settings.setup.macros, &settings.macros),
        settings.options,
    );
    let mut states = Vec::with_capacity(split.moves.len() + 1);
    states.push(Arc::new(ReplayedState {
        label: SETUP_LABEL.to_string(),
        text: String::new(),
        comment: String::new(),
        source: None,
        state: Arc::new(state.clone()),
        diagnostics: Vec::new(),
    }));
    for record in &split.moves {
        states.push(Arc::new(replay_move(text, &mut state, record)));
    }
    ReplayedGame {
        range: source.range,
        metadata,
        metadata_diagnostics,
        movetext_diagnostics: movetext_diagnostics(&split.problems),
        states,
        split,
        split_moved_by: 0,
        moved_moves: OnceLock::new(),
    }
}

/// Applies the move to `state`; the state after it, with the move's diagnostics.
fn replay_move(text: &str, state: &mut GameState, record: &MoveRecord) -> ReplayedState {
    let tokens: Vec<&str> = record.tokens.iter().map(|t| t.text.as_str()).collect();
    let diagnostics = state
        .apply_move(&tokens)
        .into_iter()
        .filter_map(|issue| {
            let token = record.tokens.get(issue.token)?;
            let written = text.get(token.source.clone())?;
            // Inside a token that braces did not change, the engine's offsets are the file's.
            let range = if written == token.text && issue.range.end <= written.len() {
                token.source.start + issue.range.start..token.source.start + issue.range.end
            } else {
                token.source.clone()
            };
            Some(Diagnostic {
                related: Vec::new(),
                fixes: Vec::new(),
                range,
                severity: issue.severity,
                code: issue.code,
                message: issue.message,
            })
        })
        .collect();
    ReplayedState {
        label: record.label.clone(),
        text: record.text.clone(),
        comment: record.comment.clone(),
        source: Some(record.source.clone()),
        state: Arc::new(state.clone()),
        diagnostics,
    }
}

/// What a game's metadata decides before its first move.
struct GameSettings {
    setup: Setup,
    scale_factor: f64,
    macros: Vec<(String, String)>,
    options: ParserOptions,
}

impl GameSettings {
    fn read(text: &str, metadata: &Metadata, diagnostics: &mut Vec<Diagnostic>) -> GameSettings {
        let mut problem = |key: &str, severity, code, message: String| {
            let range = metadata
                .value_range(text, key)
                .or_else(|| metadata.source.clone())
                .unwrap_or(0..0);
            diagnostics.push(Diagnostic {
                related: Vec::new(),
                fixes: Vec::new(),
                range,
                severity,
                code,
                message,
            });
        };

        let parser = MovetextParser::read(metadata.get("MovetextParser"));
        let options = match ParserOptions::for_parser(&parser.name, parser.cell_width) {
            Some(options) => options,
            None => {
                problem(
                    "MovetextParser",
                    Severity::Error,
                    "unknown-movetext-parser",
                    format!(
                        "unknown MovetextParser `{}`; known parsers: Default, Piecepack, \
                         Alquerque, Checker, Chess, Domino, Go, Marble, Morris, Tarot",
                        parser.name
                    ),
                );
                ParserOptions::default()
            }
        };
        for key in &parser.unknown_keys {
            problem(
                "MovetextParser",
                Severity::Warning,
                "unknown-parser-option",
                format!("the movetext parser does not take `{key}`; it is ignored"),
            );
        }
        let context = SetupContext::for_parser(&parser.name, parser.cell_width);

        let mut unknown_argument_diagnostics = Vec::new();
        let setup_key = ["SetUp", "GameType"]
            .into_iter()
            .find(|key| metadata.get(key).is_some());
        let setup = match setup_key.and_then(|key| Some((key, metadata.get(key)?))) {
            None => empty_setup(),
            Some((key, value)) => {
                let mut value = value.clone();
                loop {
                    match setup_from_metadata_seeded(&value, &context, UNSEEDED_SETUP_SEED) {
                        Ok(setup) => break setup,
                        // The reference refuses such a setup; the board is still clear.
                        Err(SetupError::UnknownArgument { argument, accepted }) => {
                            if !remove_argument(&mut value, &argument) {
                                let err = SetupError::UnknownArgument { argument, accepted };
                                problem(
                                    key,
                                    Severity::Error,
                                    "bad-setup-argument",
                                    format!("{key}: {err}"),
                                );
                                break empty_setup();
                            }
                            unknown_argument_diagnostics
                                .push(unknown_argument(text, metadata, key, &argument, &accepted));
                        }
                        Err(err) => {
                            let code = match &err {
                                SetupError::UnknownGame { .. } => "unknown-game",
                                SetupError::UnknownSystem { .. } => "unknown-system",
                                SetupError::BadArgument { .. }
                                | SetupError::UnknownArgument { .. } => "bad-setup-argument",
                                SetupError::BadValue { .. } => "bad-setup",
                            };
                            problem(key, Severity::Error, code, format!("{key}: {err}"));
                            break empty_setup();
                        }
                    }
                }
            }
        };

        let mut scale_factor = setup.scale_factor;
        if let Some(value) = parser.scale_factor.or_else(|| {
            metadata
                .get("ScalingFactor")
                .map(|v| v.as_f64().filter(|f| *f > 0.0).ok_or(()))
        }) {
            match value {
                Ok(scale) => scale_factor = scale,
                Err(()) => problem(
                    "ScalingFactor",
                    Severity::Error,
                    "bad-scaling-factor",
                    "ScalingFactor must be a positive number".to_string(),
                ),
            }
        }

        let mut macros = Vec::new();
        match metadata.get("Macros") {
            None => {}
            Some(Value::Mapping(mapping)) => {
                for (name, value) in mapping {
                    match (scalar_text(name), scalar_text(value)) {
                        (Some(name), Some(value)) => macros.push((name, value)),
                        _ => problem(
                            "Macros",
                            Severity::Error,
                            "bad-macro",
                            "every macro must map a name to a text".to_string(),
                        ),
                    }
                }
            }
            Some(_) => problem(
                "Macros",
                Severity::Error,
                "bad-macro",
                "Macros must be a mapping of macro names to their texts".to_string(),
            ),
        }

        diagnostics.extend(unknown_argument_diagnostics);
        GameSettings {
            setup,
            scale_factor,
            macros,
            options,
        }
    }
}

/// A setup argument the setup does not take, on its key as written, with a did-you-mean
/// and a quick fix when an accepted argument is close.
fn unknown_argument(
    text: &str,
    metadata: &Metadata,
    key: &str,
    argument: &str,
    accepted: &[String],
) -> Diagnostic {
    let written = metadata
        .nested_keys(text, key)
        .into_iter()
        .find(|(_, written)| normalize_name(written.trim_matches(['"', '\''])) == argument);
    let range = written
        .as_ref()
        .map(|(range, _)| range.clone())
        .or_else(|| metadata.value_range(text, key))
        .unwrap_or(0..0);
    let shown = written
        .as_ref()
        .map_or(argument, |(_, written)| written.as_str());
    let (message, suggestion) = describe_unknown_argument(shown, argument, accepted);
    let diagnostic = Diagnostic::warning(
        range.clone(),
        "unknown-setup-argument",
        format!("{key}: {message} ppn-ls ignores it; the reference refuses the setup."),
    );
    match (suggestion, written) {
        (Some(suggested), Some(_)) => diagnostic.with_fix(crate::diagnostic::Fix {
            title: format!("write `{suggested}`"),
            edits: vec![(range, suggested)],
        }),
        _ => diagnostic,
    }
}

/// Drop the setup argument whose normalised name is `argument`; false if there is none.
fn remove_argument(value: &mut Value, argument: &str) -> bool {
    let Value::Mapping(mapping) = value else {
        return false;
    };
    let key = mapping
        .keys()
        .find(|key| scalar_text(key).is_some_and(|k| normalize_name(&k) == argument))
        .cloned();
    key.is_some_and(|key| mapping.remove(&key).is_some())
}

fn empty_setup() -> Setup {
    Setup {
        pieces: Vec::new(),
        scale_factor: 1.0,
        macros: Vec::new(),
    }
}

/// The `MovetextParser` value: a name, or a mapping with `Name` and the parser's options.
struct MovetextParser {
    name: String,
    cell_width: Option<u32>,
    scale_factor: Option<Result<f64, ()>>,
    unknown_keys: Vec<String>,
}

impl MovetextParser {
    fn read(value: Option<&Value>) -> MovetextParser {
        let mut parser = MovetextParser {
            name: "Default".to_string(),
            cell_width: None,
            scale_factor: None,
            unknown_keys: Vec::new(),
        };
        match value {
            None => {}
            Some(Value::Mapping(mapping)) => parser.read_mapping(mapping),
            Some(other) => {
                if let Some(name) = scalar_text(other) {
                    parser.name = name;
                }
            }
        }
        parser
    }

    fn read_mapping(&mut self, mapping: &Mapping) {
        for (key, value) in mapping {
            let Some(key) = scalar_text(key) else {
                continue;
            };
            // The reference lower-cases option names and joins words with underscores.
            match key.to_lowercase().replace([' ', '_'], "").as_str() {
                "name" => {
                    if let Some(name) = scalar_text(value) {
                        self.name = name;
                    }
                }
                "cellwidth" => {
                    self.cell_width = value.as_u64().and_then(|w| u32::try_from(w).ok());
                }
                "scalefactor" | "scalingfactor" => {
                    self.scale_factor = Some(value.as_f64().filter(|f| *f > 0.0).ok_or(()));
                }
                _ => self.unknown_keys.push(key),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes(text: &str) -> Vec<(&'static str, String)> {
        replay_document(text)
            .diagnostics
            .into_iter()
            .map(|d| (d.code, text[d.range].to_string()))
            .collect()
    }

    #[test]
    fn a_game_without_setup_starts_empty_and_records_every_move() {
        let replay = replay_document("---\n...\n1. S@b2 1... M@c3 {note}\n2. b2-b3\n");
        let game = &replay.games[0];
        let labels: Vec<_> = game.states.iter().map(|s| s.label.as_str()).collect();
        assert_eq!(labels, ["SetupFn.", "1.", "1...", "2."]);
        assert_eq!(game.states[2].comment, "note");
        let last = game.states[3].pieces();
        assert_eq!((last[1].x, last[1].y), (2.0, 3.0));
        assert!(replay.diagnostics.is_empty(), "{:?}", replay.diagnostics);
    }

    #[test]
    fn an_unknown_game_is_an_error_on_its_value() {
        let found = codes("---\nGameType: Tablot\n...\n1. S@b2\n");
        assert_eq!(found, [("unknown-game", "Tablot".to_string())]);
    }

    #[test]
    fn an_argument_the_setup_does_not_take_is_a_warning_and_ignored() {
        let text = "---\nGameType:\n  Name: Tablut\n  Colour: red\n...\n";
        let replay = replay_document(text);
        let found: Vec<_> = replay
            .diagnostics
            .iter()
            .map(|d| (d.code, d.severity))
            .collect();
        assert_eq!(found, [("unknown-setup-argument", Severity::Warning)]);
        assert!(replay.diagnostics[0].message.contains("`Colour`"));
        assert_eq!(&text[replay.diagnostics[0].range.clone()], "Colour");
        let plain = replay_document("---\nGameType: Tablut\n...\n");
        assert_eq!(
            replay.games[0].states[0].pieces(),
            plain.games[0].states[0].pieces()
        );
    }

    #[test]
    fn every_unknown_setup_argument_is_reported_on_its_key() {
        let text =
            "---\nSetUp:\n  Name: Rectangular Board\n  NRows: 5\n  Colour: red\n  NCols: 6\n...\n";
        let replay = replay_document(text);
        let found: Vec<_> = replay
            .diagnostics
            .iter()
            .map(|d| (d.code, &text[d.range.clone()]))
            .collect();
        assert_eq!(
            found,
            [
                ("unknown-setup-argument", "Colour"),
                ("unknown-setup-argument", "NCols"),
                ("unknown-setup-argument", "NRows"),
            ]
        );
        let rows = replay
            .diagnostics
            .iter()
            .find(|d| d.message.contains("NRows"))
            .unwrap();
        assert!(
            rows.message.contains("Did you mean `Nrows`?"),
            "{}",
            rows.message
        );
        assert_eq!(rows.fixes[0].edits[0].1, "Nrows");
        let flow = "---\nGameType: {Name: Tablut, Colour: red}\n...\n";
        let replay = replay_document(flow);
        assert_eq!(&flow[replay.diagnostics[0].range.clone()], "Colour");
    }

    #[test]
    fn an_unknown_parser_is_an_error_on_its_value() {
        let found = codes("---\nMovetextParser: Shogi\n...\n1. S@b2\n");
        assert_eq!(found, [("unknown-movetext-parser", "Shogi".to_string())]);
    }

    #[test]
    fn errors_point_into_the_file_and_later_moves_still_replay() {
        let text = "---\n...\n1. S@b2 2. *b5 3. `nope'@c3 4. M@d4\n";
        let replay = replay_document(text);
        let found: Vec<_> = replay
            .diagnostics
            .iter()
            .map(|d| (d.code, &text[d.range.clone()]))
            .collect();
        assert_eq!(found, [("no-piece", "b5"), ("unknown-macro", "`nope'")]);
        let last = replay.games[0].states.last().unwrap();
        assert_eq!(last.pieces().len(), 2);
    }

    #[test]
    fn macros_come_from_the_metadata() {
        let replay = replay_document("---\nMacros:\n  home: S@a1\n...\n1. `home'\n");
        assert!(replay.diagnostics.is_empty(), "{:?}", replay.diagnostics);
        assert_eq!(replay.games[0].states[1].pieces().len(), 1);
    }
}
