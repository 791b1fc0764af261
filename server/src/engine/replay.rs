//! A whole document replayed: games → metadata → setup → moves → board states, with every
//! problem found on the way as a located diagnostic.

use std::ops::Range;

use serde_yaml::{Mapping, Value};

use crate::diagnostic::{Diagnostic, Severity};
use crate::engine::piece::Piece;
use crate::engine::setups::{
    normalize_name, setup_from_metadata_seeded, Setup, SetupContext, SetupError,
};
use crate::engine::state::GameState;
use crate::notation::document::split_games_checked;
use crate::notation::macros::MacroTable;
use crate::notation::metadata::{parse_metadata, scalar_text, Metadata};
use crate::notation::movetext::{split_movetext, MoveRecord, SETUP_LABEL};
use crate::notation::piece_spec::ParserOptions;

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
    /// PieceIds can be resolved at this point and replay can resume from here.
    pub state: GameState,
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
    /// The starting board first, then one state per move.
    pub states: Vec<ReplayedState>,
}

#[derive(Clone, Debug, Default)]
pub struct Replay {
    pub games: Vec<ReplayedGame>,
    /// Problems of the document's notation and moves (syntax errors are the grammar's).
    pub diagnostics: Vec<Diagnostic>,
}

/// Replay every game of a document.
pub fn replay_document(text: &str) -> Replay {
    let (games, problems) = split_games_checked(text);
    let mut replay = Replay::default();
    replay
        .diagnostics
        .extend(problems.into_iter().map(|problem| Diagnostic {
            range: problem.range,
            severity: Severity::Warning,
            code: problem.code.as_str(),
            message: problem.message,
        }));
    for game in games {
        let (metadata, metadata_diagnostics) = parse_metadata(text, game.metadata.clone());
        replay.diagnostics.extend(metadata_diagnostics);
        let settings = GameSettings::read(text, &metadata, &mut replay.diagnostics);
        let split = split_movetext(text, game.movetext.clone());
        replay
            .diagnostics
            .extend(split.problems.into_iter().map(|problem| Diagnostic {
                range: problem.range,
                severity: problem.severity,
                code: problem.code.as_str(),
                message: problem.message,
            }));
        let states = replay_moves(text, settings, &split.moves, &mut replay.diagnostics);
        replay.games.push(ReplayedGame {
            range: game.range,
            metadata,
            states,
        });
    }
    replay
}

fn replay_moves(
    text: &str,
    settings: GameSettings,
    moves: &[MoveRecord],
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<ReplayedState> {
    let mut state = GameState::new(
        settings.setup.pieces,
        settings.scale_factor,
        MacroTable::with_overrides(&settings.setup.macros, &settings.macros),
        settings.options,
    );
    let mut states = Vec::with_capacity(moves.len() + 1);
    states.push(ReplayedState {
        label: SETUP_LABEL.to_string(),
        text: String::new(),
        comment: String::new(),
        source: None,
        state: state.clone(),
    });
    for record in moves {
        let tokens: Vec<&str> = record.tokens.iter().map(|t| t.text.as_str()).collect();
        for issue in state.apply_move(&tokens) {
            let Some(token) = record.tokens.get(issue.token) else {
                continue;
            };
            let written = &text[token.source.clone()];
            // Inside a token that braces did not change, the engine's offsets are the file's.
            let range = if written == token.text && issue.range.end <= written.len() {
                token.source.start + issue.range.start..token.source.start + issue.range.end
            } else {
                token.source.clone()
            };
            diagnostics.push(Diagnostic {
                range,
                severity: issue.severity,
                code: issue.code,
                message: issue.message,
            });
        }
        states.push(ReplayedState {
            label: record.label.clone(),
            text: record.text.clone(),
            comment: record.comment.clone(),
            source: Some(record.source.clone()),
            state: state.clone(),
        });
    }
    states
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
                            let err = SetupError::UnknownArgument {
                                argument: argument.clone(),
                                accepted,
                            };
                            if !remove_argument(&mut value, &argument) {
                                problem(
                                    key,
                                    Severity::Error,
                                    "bad-setup-argument",
                                    format!("{key}: {err}"),
                                );
                                break empty_setup();
                            }
                            problem(
                                key,
                                Severity::Warning,
                                "unknown-setup-argument",
                                format!("{key}: {err}; it is ignored"),
                            );
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

        GameSettings {
            setup,
            scale_factor,
            macros,
            options,
        }
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
        assert!(replay.diagnostics[0].message.contains("`colour`"));
        let plain = replay_document("---\nGameType: Tablut\n...\n");
        assert_eq!(
            replay.games[0].states[0].pieces(),
            plain.games[0].states[0].pieces()
        );
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
