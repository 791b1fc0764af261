//! Game setups: the starting board named by a game's `SetUp` or `GameType`
//! metadata, reproducing the reference's setups piece for piece.
//!
//! A setup is found by game system and normalised game name; when a system has no
//! setup of its own for a game (or rejects the arguments), the piecepack setup of
//! that game is used.  Random setups draw from [`RRng`], R's generator, so that a
//! `Seed` gives the reference's board.
//!
//! Each game is one entry of the catalogue in `games/mod.rs` (names, arguments
//! and the function building it); the functions describe their boards as groups
//! of pieces (`frame::Group`) on shared boards (`games/boards.rs`).

mod args;
mod cache;
mod env;
mod error;
mod frame;
mod games;
mod names;
mod setup;

use std::sync::Arc;

use serde_yaml::Value;

pub use args::Args;
pub use cache::{clear as clear_setup_cache, MAX_CACHED_PIECES, MAX_CACHED_SETUPS};
pub(crate) use env::Env;
pub use error::SetupError;
pub use names::title_case;
pub use names::{normalize_name, normalize_system};
pub use setup::{Setup, SetupContext};

use frame::Row;

/// One argument a setup takes, with its default as the reference writes it.
#[derive(Clone, Debug, PartialEq)]
pub struct ArgumentInfo {
    pub name: &'static str,
    pub default: &'static str,
}

impl ArgumentInfo {
    /// The key as a PPN author writes it in `SetUp`/`GameType`: `Has Subpack`,
    /// `Max Tiles`, `Nrows` (each reads back as the argument's name).
    pub fn key(&self) -> String {
        title_case(self.name)
    }

    /// The default as a PPN author would write the value (`24`, `false`, `Basic`),
    /// with what an unset value means.
    pub fn ppn_default(&self) -> String {
        ppn_value(self.name, self.default)
    }
}

/// A default written in R (`24L`, `FALSE`, `NULL`, `c("Basic", "Free")`,
/// `getOption(...)`) as a metadata value.
fn ppn_value(name: &str, default: &str) -> String {
    const DEALT_AT_RANDOM: &[&str] = &["seed", "tiles", "coins", "dice", "pawns", "pips"];
    let default = default.trim();
    if default.starts_with("getOption(") {
        let value = default
            .trim_end_matches(')')
            .rsplit(',')
            .next()
            .unwrap_or("1")
            .trim();
        return format!("{value} (2 under `MovetextParser: Checker` or `Chess`)");
    }
    if default == "NULL" {
        return if DEALT_AT_RANDOM.contains(&name) {
            "random".to_string()
        } else {
            "none".to_string()
        };
    }
    if let Some(list) = default
        .strip_prefix("c(")
        .and_then(|rest| rest.strip_suffix(')'))
    {
        let choices: Vec<String> = list.split(',').map(|c| unquote(c.trim())).collect();
        return match choices.split_first() {
            Some((first, [])) => first.clone(),
            Some((first, rest)) => format!("{first} (or {})", rest.join(", ")),
            None => String::new(),
        };
    }
    if let Some(other) = default.strip_suffix(" * scale_factor") {
        let factor = other.trim().trim_end_matches(".0");
        let key = title_case("scale_factor");
        return if factor == "1" {
            format!("same as {key}")
        } else {
            format!("{factor} × {key}")
        };
    }
    if known_argument_name(default) {
        return format!("same as {}", title_case(default));
    }
    match default {
        "TRUE" => return "true".to_string(),
        "FALSE" => return "false".to_string(),
        "(face up)" => return "face".to_string(),
        _ => {}
    }
    if let Some(integer) = default.strip_suffix('L') {
        if integer.parse::<i64>().is_ok() {
            return integer.to_string();
        }
    }
    unquote(default)
}

fn unquote(text: &str) -> String {
    text.strip_prefix('"')
        .and_then(|t| t.strip_suffix('"'))
        .unwrap_or(text)
        .to_string()
}

fn known_argument_name(text: &str) -> bool {
    games::catalogue()
        .iter()
        .any(|game| game.arguments.iter().any(|(name, _)| *name == text))
}

/// A known setup.
#[derive(Clone, Debug, PartialEq)]
pub struct GameInfo {
    /// Normalised name, e.g. `nine_mens_morris`.
    pub name: &'static str,
    /// Normalised system, e.g. `piecepack`.
    pub system: &'static str,
    pub arguments: Vec<ArgumentInfo>,
}

/// Every setup, one entry per (system, name) pair, aliases included.
pub fn known_games() -> Vec<GameInfo> {
    games::catalogue()
        .iter()
        .flat_map(|game| {
            game.names.iter().map(move |name| GameInfo {
                name,
                system: game.system,
                arguments: game
                    .arguments
                    .iter()
                    .map(|&(name, default)| ArgumentInfo { name, default })
                    .collect(),
            })
        })
        .collect()
}

/// An argument the setup does not take, in words: `written` is the key as the file
/// writes it, `argument` its normalised name. Returns the message and, when an accepted
/// argument is close, the key to write instead.
pub fn describe_unknown_argument(
    written: &str,
    argument: &str,
    accepted: &[String],
) -> (String, Option<String>) {
    let key_of = |name: &str| title_case(name);
    let squashed = |name: &str| name.replace('_', "");
    let same_letters = accepted
        .iter()
        .find(|name| squashed(name) == squashed(argument))
        .cloned();
    let read_as_before = same_letters
        .as_ref()
        .is_some_and(|name| *name == written.to_lowercase().replace(' ', "_"));
    let suggestion = same_letters
        .or_else(|| {
            names::closest(argument, accepted.iter().map(String::as_str))
                .into_iter()
                .next()
        })
        .map(|name| key_of(&name));
    let mut message = format!("`{written}` is not an argument of this setup");
    if argument != written.to_lowercase() {
        message.push_str(&format!(" (it reads as `{argument}`)"));
    }
    message.push('.');
    if let Some(key) = &suggestion {
        message.push_str(&format!(" Did you mean `{key}`?"));
        if read_as_before {
            message.push_str(&format!(
                " (PPN 0.5's tools only lower-cased names, so `{written}` was `{}` then; \
                 since 2020 names split into words at capitals.)",
                written.to_lowercase()
            ));
        }
    }
    if accepted.is_empty() {
        message.push_str(" It takes no arguments.");
    } else {
        let keys: Vec<String> = accepted.iter().map(|name| key_of(name)).collect();
        message.push_str(&format!(" It takes {}.", keys.join(", ")));
    }
    (message, suggestion)
}

/// The starting board of a game from its whole metadata mapping: `SetUp` if
/// present (and not null), else `GameType`, else an empty board.
pub fn setup_from_game_metadata(metadata: &Value, ctx: &SetupContext) -> Result<Setup, SetupError> {
    let present = |key: &str| metadata.get(key).filter(|v| !v.is_null());
    match present("SetUp").or_else(|| present("GameType")) {
        Some(value) => setup_from_metadata(value, ctx),
        None => Ok(Setup::default()),
    }
}

/// Build the setup named by a `SetUp` or `GameType` metadata value.  Random
/// setups without a `Seed` differ from call to call, as in the reference.
pub fn setup_from_metadata(value: &Value, ctx: &SetupContext) -> Result<Setup, SetupError> {
    build_from_metadata(value, ctx, None)
}

/// Like [`setup_from_metadata`], but random choices not fixed by a `Seed`
/// argument come from a random stream started with `session_seed` (R's
/// `set.seed(session_seed)`), e.g. for reproducible replays of setups such as
/// Shogi whose pawns are dealt at random without any `Seed` argument.
pub fn setup_from_metadata_seeded(
    value: &Value,
    ctx: &SetupContext,
    session_seed: i32,
) -> Result<Setup, SetupError> {
    build_from_metadata(value, ctx, Some(session_seed))
}

fn build_from_metadata(
    value: &Value,
    ctx: &SetupContext,
    session_seed: Option<i32>,
) -> Result<Setup, SetupError> {
    let (name, system, args) = match value {
        Value::String(name) => (name.clone(), ctx.default_system.clone(), Args::default()),
        Value::Mapping(_) => Args::from_mapping(value, &ctx.default_system)?,
        Value::Number(number) => (
            number.to_string(),
            ctx.default_system.clone(),
            Args::default(),
        ),
        Value::Bool(_) | Value::Null | Value::Sequence(_) | Value::Tagged(_) => {
            return Err(SetupError::BadValue {
                message: "expected a game name or a mapping with `Name`".to_string(),
            })
        }
    };
    build(&name, &system, args, ctx, session_seed)
}

fn build(
    name: &str,
    system: &str,
    args: Args,
    ctx: &SetupContext,
    session_seed: Option<i32>,
) -> Result<Setup, SetupError> {
    let game_name = normalize_name(name);
    let system_name = normalize_system(system);
    // Without a session seed an unseeded setup is dealt anew each time: nothing to keep.
    let Some(seed) = session_seed else {
        return build_uncached(name, system, &game_name, &system_name, args, ctx, None);
    };
    let key = cache::SetupKey {
        game: game_name,
        system: system_name,
        args,
        cell_width: ctx.cell_width,
        seed,
    };
    if let Some(setup) = cache::get(&key) {
        return Ok(Setup::clone(&setup));
    }
    let setup = build_uncached(
        name,
        system,
        &key.game,
        &key.system,
        key.args.clone(),
        ctx,
        Some(seed),
    )?;
    cache::put(key, Arc::new(setup.clone()));
    Ok(setup)
}

fn build_uncached(
    name: &str,
    system: &str,
    game_name: &str,
    system_name: &str,
    args: Args,
    ctx: &SetupContext,
    session_seed: Option<i32>,
) -> Result<Setup, SetupError> {
    let known_system = names::KNOWN_SYSTEMS.contains(&system_name);
    let own = games::find(system_name, game_name);
    let fallback = games::find("piecepack", game_name);
    // As in the reference, the piecepack setup is also tried when the system's
    // own setup rejects the arguments; the first error is the one reported.
    let mut first_error = None;
    for game in [own, fallback].into_iter().flatten() {
        match build_game(game, &args, ctx, session_seed) {
            Ok(setup) => return Ok(setup),
            Err(error) => {
                first_error.get_or_insert(error);
            }
        }
    }
    if let Some(error) = first_error {
        return Err(error);
    }
    if !known_system {
        return Err(SetupError::UnknownSystem {
            system: system.to_string(),
            suggestions: names::closest(system_name, names::KNOWN_SYSTEMS.iter().copied()),
        });
    }
    let candidates = known_games();
    let in_system = candidates
        .iter()
        .filter(|g| g.system == system_name || g.system == "piecepack")
        .map(|g| g.name)
        // Only suggest what works when typed (the reference also exports names
        // such as `12345ive` that its own normalisation cannot reach).
        .filter(|n| normalize_name(n) == *n);
    let suggestions = names::closest(game_name, in_system);
    Err(SetupError::UnknownGame {
        name: name.to_string(),
        system: system_name.to_string(),
        suggestions,
    })
}

fn build_game(
    game: &games::Game,
    args: &Args,
    ctx: &SetupContext,
    session_seed: Option<i32>,
) -> Result<Setup, SetupError> {
    args.check_allowed(game.arguments)?;
    let mut env = Env::new(args.clone(), ctx, session_seed)?;
    let rows = (game.build)(&mut env)?;
    Ok(Setup {
        pieces: rows.into_iter().map(Row::into_piece).collect(),
        scale_factor: env.scale_factor,
        macros: env.macros,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::piece::{PieceKind, Side};

    fn yaml(text: &str) -> Value {
        serde_yaml::from_str(text).unwrap_or(Value::Null)
    }

    fn build(text: &str) -> Result<Setup, SetupError> {
        setup_from_metadata(&yaml(text), &SetupContext::default())
    }

    #[test]
    fn a_name_or_a_mapping_gives_the_same_setup() {
        let by_name = build("Four Field Kono");
        let by_mapping = build("{Name: four  FIELD kono, System: Piecepack}");
        assert_eq!(by_name, by_mapping);
        let pieces = by_name.map(|s| s.pieces).unwrap_or_default();
        assert_eq!(pieces.len(), 20);
        assert_eq!(pieces[0].kind, PieceKind::Tile);
        assert_eq!(
            (pieces[4].x, pieces[4].y, pieces[4].angle),
            (1.0, 4.0, 180.0)
        );
    }

    #[test]
    fn whole_metadata_prefers_set_up_to_game_type() {
        let ctx = SetupContext::default();
        let both = yaml("{GameType: Chess, SetUp: Tablut}");
        assert_eq!(setup_from_game_metadata(&both, &ctx), build("Tablut"));
        let null_set_up = yaml("{GameType: Chess, SetUp: ~}");
        assert_eq!(setup_from_game_metadata(&null_set_up, &ctx), build("Chess"));
        let neither = yaml("{Event: Casual}");
        assert_eq!(
            setup_from_game_metadata(&neither, &ctx).map(|s| s.pieces.len()),
            Ok(0)
        );
    }

    #[test]
    fn movetext_parser_sets_the_context() {
        let marble = SetupContext::from_metadata(&yaml("{MovetextParser: Marble}"));
        assert_eq!(marble.default_system, "marbles");
        let chess =
            SetupContext::from_metadata(&yaml("{MovetextParser: {Name: Chess, Cell Width: 1}}"));
        assert_eq!(
            (chess.default_system.as_str(), chess.cell_width),
            ("chess", Some(1))
        );
        let plain = SetupContext::from_metadata(&yaml("{GameType: Chess}"));
        assert_eq!(plain, SetupContext::default());
    }

    #[test]
    fn none_is_an_empty_board() {
        assert_eq!(build("None").map(|s| s.pieces.len()), Ok(0));
        let checker = SetupContext::for_parser("Checker", None);
        assert_eq!(
            setup_from_metadata(&yaml("None"), &checker).map(|s| s.pieces.len()),
            Ok(0)
        );
    }

    #[test]
    fn system_without_its_own_setup_falls_back_to_piecepack() {
        let reversi = build("{Name: Tablut, System: Reversi}");
        assert_eq!(reversi, build("Tablut"));
    }

    #[test]
    fn rejected_arguments_fall_back_to_the_piecepack_setup() {
        let checker_dodgem = build("{Name: Dodgem, System: checker, Variant: schoessow}");
        assert_eq!(checker_dodgem, build("{Name: Dodgem, Variant: schoessow}"));
        // When both refuse, the system's own complaint is reported.
        assert!(matches!(
            build("{Name: Dodgem, System: checker, Colour: red}"),
            Err(SetupError::UnknownArgument { accepted, .. }) if accepted.iter().any(|a| a == "cell_width")
        ));
    }

    #[test]
    fn unknown_games_suggest_close_names() {
        match build("Tablutt") {
            Err(err @ SetupError::UnknownGame { .. }) => {
                let SetupError::UnknownGame { suggestions, .. } = &err else {
                    unreachable!()
                };
                assert_eq!(suggestions.first().map(String::as_str), Some("tablut"));
                // Suggested as a player writes the name in `GameType`.
                assert!(err.to_string().contains("did you mean `Tablut`"), "{err}");
            }
            other => panic!("expected an unknown game, got {other:?}"),
        }
        match build("{Name: Tablut2, System: Checkerz}") {
            Err(SetupError::UnknownSystem { suggestions, .. }) => {
                assert!(
                    suggestions.contains(&"checker".to_string()),
                    "{suggestions:?}"
                );
            }
            other => panic!("expected an unknown system, got {other:?}"),
        }
    }

    #[test]
    fn arguments_are_checked() {
        assert!(matches!(
            build("{Name: Tablut, Seed: 3}"),
            Err(SetupError::UnknownArgument { argument, .. }) if argument == "seed"
        ));
        assert!(matches!(
            build("{Name: Desfases, Seed: many}"),
            Err(SetupError::BadArgument { argument, .. }) if argument == "seed"
        ));
        assert!(matches!(
            build("{Name: Alien City, Tiles: S1^}"),
            Err(SetupError::BadArgument { argument, .. }) if argument == "tiles"
        ));
        assert!(matches!(build("[1, 2]"), Err(SetupError::BadValue { .. })));
        assert!(matches!(
            build("{System: piecepack}"),
            Err(SetupError::BadValue { .. })
        ));
    }

    #[test]
    fn seeded_setups_are_reproducible() {
        let first = build("{Name: Japan, Seed: 7}");
        assert!(first.is_ok());
        assert_eq!(first, build("{Name: Japan, Seed: 7}"));
        assert_ne!(first, build("{Name: Japan, Seed: 8}"));
    }

    #[test]
    fn a_setup_kept_in_the_cache_is_the_one_built() {
        for (text, parser) in [
            ("Shogi", "Default"),
            ("{Name: Japan, Seed: 7}", "Default"),
            ("American Checkers", "Checker"),
            ("{Name: American Checkers, Cell Width: 1}", "Checker"),
            ("American Checkers", "Default"),
        ] {
            let ctx = SetupContext::for_parser(parser, None);
            let first = setup_from_metadata_seeded(&yaml(text), &ctx, 5);
            let again = setup_from_metadata_seeded(&yaml(text), &ctx, 5);
            let (name, system, args) = match yaml(text) {
                Value::String(name) => (name, ctx.default_system.clone(), Args::default()),
                mapping => Args::from_mapping(&mapping, &ctx.default_system).unwrap(),
            };
            let built = build_uncached(
                &name,
                &system,
                &normalize_name(&name),
                &normalize_system(&system),
                args,
                &ctx,
                Some(5),
            );
            assert!(built.is_ok(), "{text}");
            assert_eq!(first, built, "{text} under {parser}");
            assert_eq!(again, built, "{text} under {parser}");
        }
        let ctx = SetupContext::default();
        let other_seed = setup_from_metadata_seeded(&yaml("Shogi"), &ctx, 6);
        assert_ne!(
            other_seed,
            setup_from_metadata_seeded(&yaml("Shogi"), &ctx, 5),
            "the seed is part of the request"
        );
    }

    #[test]
    fn checker_parser_widens_cells() {
        let ctx = SetupContext::for_parser("Checker", None);
        assert_eq!(ctx.default_system, "checker");
        let setup = setup_from_metadata(&yaml("American Checkers"), &ctx);
        let setup = setup.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(setup.scale_factor, 2.0);
        let board = &setup.pieces[0];
        assert_eq!((board.kind, board.side), (PieceKind::Board, Side::Face));
        assert_eq!(
            (&*board.cfg, board.x, board.y, board.rank),
            ("checkers2", 9.0, 9.0, 8)
        );
        let first = &setup.pieces[1];
        assert_eq!(
            (&*first.cfg, first.x, first.y, first.suit),
            ("checkers2", 4.0, 16.0, 2)
        );
        // An explicit argument wins over the parser's width.
        let narrow = setup_from_metadata(&yaml("{Name: American Checkers, Cell Width: 1}"), &ctx);
        assert_eq!(narrow.map(|s| s.scale_factor), Ok(1.0));
    }

    #[test]
    fn scale_factors_are_reported() {
        assert_eq!(
            build("{Name: Desfases, Seed: 1}").map(|s| s.scale_factor),
            Ok(3.0)
        );
        assert_eq!(build("Tablut").map(|s| s.scale_factor), Ok(1.0));
        let marble = SetupContext::for_parser("Marble", None);
        let board = setup_from_metadata(&yaml("Board"), &marble);
        assert_eq!(board.map(|s| s.scale_factor), Ok(0.5));
    }

    #[test]
    fn unknown_arguments_are_named_as_written_with_a_suggestion() {
        let accepted: Vec<String> = ["nrows", "ncols", "x0", "y0", "max_tiles"]
            .map(String::from)
            .to_vec();
        let (message, suggestion) = describe_unknown_argument("NRows", "n_rows", &accepted);
        assert_eq!(suggestion.as_deref(), Some("Nrows"));
        assert_eq!(
            message,
            "`NRows` is not an argument of this setup (it reads as `n_rows`). Did you mean \
             `Nrows`? (PPN 0.5's tools only lower-cased names, so `NRows` was `nrows` then; \
             since 2020 names split into words at capitals.) It takes Nrows, Ncols, X0, Y0, \
             Max Tiles."
        );
        let (message, suggestion) = describe_unknown_argument("Max Tile", "max_tile", &accepted);
        assert_eq!(suggestion.as_deref(), Some("Max Tiles"));
        assert!(message.starts_with("`Max Tile` is not"), "{message}");
        let (message, suggestion) = describe_unknown_argument("Colour", "colour", &[]);
        assert_eq!(suggestion, None);
        assert_eq!(
            message,
            "`Colour` is not an argument of this setup. It takes no arguments."
        );
    }

    #[test]
    fn the_domino_tiles_setup_takes_its_size() {
        let ctx = SetupContext::for_parser("Domino", None);
        let count = |text: &str| setup_from_metadata(&yaml(text), &ctx).map(|s| s.pieces.len());
        assert_eq!(count("Tiles"), Ok(28));
        assert_eq!(count("{Name: Tiles, N: 10}"), Ok(55));
        assert_eq!(count("{Name: Tiles, N: 3}"), Ok(6));
        let double_two = setup_from_metadata(&yaml("{Name: Tiles, N: 3}"), &ctx).unwrap();
        let last = double_two.pieces.last().unwrap();
        assert_eq!((last.suit, last.rank, last.x, last.y), (3, 3, 3.0, 1.5));
        assert!(matches!(
            setup_from_metadata(&yaml("{Name: Tiles, N: 1000}"), &ctx),
            Err(SetupError::BadArgument { argument, .. }) if argument == "n"
        ));
    }

    #[test]
    fn argument_defaults_read_as_metadata_values() {
        let default = |name: &'static str, default: &'static str| {
            ArgumentInfo { name, default }.ppn_default()
        };
        assert_eq!(default("max_tiles", "24L"), "24");
        assert_eq!(default("has_subpack", "FALSE"), "false");
        assert_eq!(default("seed", "NULL"), "random");
        assert_eq!(default("fen", "NULL"), "none");
        assert_eq!(
            default("variant", "c(\"Basic\", \"Free\")"),
            "Basic (or Free)"
        );
        assert_eq!(default("variant", "\"vout\""), "vout");
        assert_eq!(default("ncols", "nrows"), "same as Nrows");
        assert_eq!(default("x0", "1.0 * scale_factor"), "same as Scale Factor");
        assert_eq!(
            default("cell_width", "getOption(\"ppdf.checker_cell_width\", 1)"),
            "1 (2 under `MovetextParser: Checker` or `Chess`)"
        );
        assert_eq!(default("die_width", "0.63"), "0.63");
        // Nothing R-like is left in any default.
        for game in known_games() {
            for argument in &game.arguments {
                let shown = argument.ppn_default();
                for r_syntax in ["NULL", "getOption", "c(", "\"", "TRUE", "FALSE"] {
                    assert!(!shown.contains(r_syntax), "{}: {shown}", argument.name);
                }
                assert!(
                    !(shown.ends_with('L') && shown[..shown.len() - 1].parse::<i64>().is_ok()),
                    "{shown}"
                );
            }
        }
    }

    #[test]
    fn argument_keys_read_back_as_their_names() {
        for game in known_games() {
            for argument in &game.arguments {
                assert_eq!(normalize_name(&argument.key()), argument.name);
            }
        }
    }

    #[test]
    fn known_games_lists_aliases_and_arguments() {
        let games = known_games();
        let xiangqi = games
            .iter()
            .find(|g| g.system == "piecepack" && g.name == "xiangqi");
        assert_eq!(
            xiangqi.map(|g| g.arguments.iter().map(|a| a.name).collect::<Vec<_>>()),
            Some(vec!["has_subpack"])
        );
        assert!(games
            .iter()
            .any(|g| g.system == "piecepack" && g.name == "chinese_chess"));
    }
}
