//! Completion: macro names after a backtick; metadata keys, game names, systems and
//! movetext parsers in the metadata.

use std::collections::BTreeMap;
use std::ops::Range;

pub use crate::model::features::{Completion, CompletionKind};
use crate::ppn::document::PpnDocument;
use crate::ppn::features::locate::{game_at, touches, GameAt};
use crate::ppn::features::navigation::{metadata_macro_keys, setup_macros};
use crate::ppn::reader::macros::{MacroError, MacroTable};
use crate::ppn::rules::setups::{known_games, normalize_name};

/// Metadata keys a player may want, with what each is for.
pub const METADATA_KEYS: &[(&str, &str)] = &[
    ("GameType", "the game played; sets up its starting board"),
    (
        "SetUp",
        "the starting board, overriding GameType's (a name, or a mapping with Name, System and arguments)",
    ),
    ("MovetextParser", "how to read the moves (Default, Checker, Chess, ...)"),
    ("Macros", "a mapping of macro names to the text they stand for"),
    ("ScalingFactor", "how many inches one Location step is worth"),
    ("Event", "the name of the tournament or match"),
    ("Site", "where the game was played"),
    ("Date", "when the game was played"),
    ("Round", "the round of the event"),
    ("Result", "the result, e.g. 1-0"),
    ("White", "the first player"),
    ("Black", "the second player"),
    ("Annotator", "who wrote the comments"),
];

/// The movetext parsers the replay knows.
pub const PARSERS: &[&str] = &[
    "Default",
    "Piecepack",
    "Alquerque",
    "Checker",
    "Chess",
    "Domino",
    "Go",
    "Marble",
    "Morris",
    "Tarot",
];

/// The completions at byte `offset`; empty where nothing fits.
pub fn completions(analysis: &PpnDocument, offset: usize) -> Vec<Completion> {
    let text = &analysis.text;
    let Some(offset) = char_boundary_at_or_before(text, offset) else {
        return Vec::new();
    };
    let Some(game) = game_at(analysis, offset) else {
        return Vec::new();
    };
    if let Some(prefix_start) = macro_prefix_start(text, offset) {
        return macro_completions(text, &game, prefix_start..macro_name_end(text, offset));
    }
    let in_metadata = game
        .game
        .metadata
        .source
        .as_ref()
        .is_some_and(|source| touches(source, offset));
    if in_metadata {
        return metadata_completions(text, &game, offset);
    }
    Vec::new()
}

fn char_boundary_at_or_before(text: &str, offset: usize) -> Option<usize> {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset = offset.checked_sub(1)?;
    }
    Some(offset)
}

/// Where the name being typed after a backtick starts (just after the backtick).
fn macro_prefix_start(text: &str, offset: usize) -> Option<usize> {
    let (line_start, before) = line_before(text, offset);
    let tick = line_start + before.rfind('`')?;
    let typed = &text[tick + 1..offset];
    let still_a_name = !typed
        .chars()
        .any(|c| c.is_whitespace() || c == '\'' || c == '`');
    still_a_name.then_some(tick + 1)
}

/// The end of the name under the cursor, with its closing quote if there is one, so that
/// accepting a completion does not leave half a name or two quotes.
fn macro_name_end(text: &str, offset: usize) -> usize {
    let after = &text[offset..];
    let name_len = after
        .find(|c: char| c.is_whitespace() || c == '\'' || c == '`')
        .unwrap_or(after.len());
    let end = offset + name_len;
    if text[end..].starts_with('\'') {
        end + 1
    } else {
        end
    }
}

fn macro_completions(text: &str, game: &GameAt<'_>, replace: Range<usize>) -> Vec<Completion> {
    let Some(state) = game.setup_state() else {
        return Vec::new();
    };
    let table = state.macros();
    let own: Vec<String> = metadata_macro_keys(text, game)
        .into_iter()
        .map(|(name, _)| name)
        .collect();
    let from_setup: Vec<String> = setup_macros(game)
        .into_iter()
        .map(|(name, _)| name)
        .collect();
    let builtins = MacroTable::builtins();
    table
        .names()
        .into_iter()
        .map(|name| {
            let (rank, origin) = if own.iter().any(|n| n == name) {
                (0, "defined in the metadata")
            } else if from_setup.iter().any(|n| n == name) {
                (1, "defined by the setup")
            } else if builtins.resolve(name).is_some() {
                (2, "built in")
            } else {
                (3, "")
            };
            let value = match table.resolve(name) {
                Some(Ok(value)) => value.to_string(),
                Some(Err(MacroError::Cycle)) => "(uses itself: no value)".to_string(),
                Some(Err(error)) => format!("({})", error.message(name)),
                None => String::new(),
            };
            Completion {
                label: name.to_string(),
                kind: CompletionKind::Macro,
                detail: Some(value),
                documentation: (!origin.is_empty()).then(|| origin.to_string()),
                insert: format!("{name}'"),
                replace: replace.clone(),
                sort: format!("{rank}{name}"),
            }
        })
        .collect()
}

/// The line of `offset` up to the offset, and where that line starts.
fn line_before(text: &str, offset: usize) -> (usize, &str) {
    let start = text[..offset].rfind(['\n', '\r']).map_or(0, |at| at + 1);
    (start, &text[start..offset])
}

fn line_end(text: &str, offset: usize) -> usize {
    text[offset..]
        .find(['\n', '\r'])
        .map_or(text.len(), |at| offset + at)
}

fn indentation(line: &str) -> usize {
    line.len() - line.trim_start_matches([' ', '\t']).len()
}

/// The top-level key a nested line belongs to: the last unindented `key:` above it.
fn parent_key(text: &str, metadata_start: usize, line_start: usize) -> Option<String> {
    text.get(metadata_start..line_start)?
        .lines()
        .rev()
        .find(|line| !line.trim().is_empty() && indentation(line) == 0)
        .and_then(|line| line.split_once(':'))
        .map(|(key, _)| key.trim().to_string())
}

/// The value of `key` among the indented lines around the line starting at `line_start`.
fn sibling_value(
    text: &str,
    metadata_start: usize,
    line_start: usize,
    key: &str,
) -> Option<String> {
    let above = text.get(metadata_start..line_start)?.lines().rev();
    let below = text.get(line_start..)?.lines().skip(1);
    let in_block = |line: &&str| indentation(line) > 0 || line.trim().is_empty();
    above
        .take_while(in_block)
        .chain(below.take_while(in_block))
        .find_map(|line| {
            let (found, value) = line.trim().split_once(':')?;
            (found.trim() == key).then(|| value.trim().to_string())
        })
        .filter(|value| !value.is_empty())
}

fn metadata_completions(text: &str, game: &GameAt<'_>, offset: usize) -> Vec<Completion> {
    let metadata_start = game
        .game
        .metadata
        .source
        .as_ref()
        .map_or(0, |source| source.start);
    let (line_start, before) = line_before(text, offset);
    let indent = indentation(before);
    let parent = (indent > 0)
        .then(|| parent_key(text, metadata_start, line_start))
        .flatten();
    let end = line_end(text, offset);
    match before.split_once(':') {
        None => {
            let key_start = line_start + indent;
            let mut key_end = offset
                + text[offset..end]
                    .find(|c: char| !c.is_alphanumeric())
                    .unwrap_or(end - offset);
            // A key already followed by its `:` (completing `Game` in `GameType: Chess`):
            // replace the colon too, so the completion's own `: ` is not doubled.
            let after_key = &text[key_end..end];
            if let Some(rest) = after_key.trim_start_matches([' ', '\t']).strip_prefix(':') {
                key_end = end - rest.trim_start_matches([' ', '\t']).len();
            }
            let replace = key_start..key_end;
            match parent.as_deref() {
                None => METADATA_KEYS
                    .iter()
                    .enumerate()
                    .map(|(i, (key, about))| key_completion(key, about, i, replace.clone()))
                    .collect(),
                Some("GameType" | "SetUp") => {
                    // Read from the text: while a key is being typed the YAML rarely parses.
                    let game_name = sibling_value(text, metadata_start, line_start, "Name");
                    setup_keys(game_name.as_deref(), &replace)
                }
                Some("MovetextParser") => [
                    ("Name", "the parser"),
                    (
                        "CellWidth",
                        "board cell width of the checker and chess parsers",
                    ),
                    ("ScaleFactor", "how many inches one Location step is worth"),
                ]
                .iter()
                .enumerate()
                .map(|(i, (key, about))| key_completion(key, about, i, replace.clone()))
                .collect(),
                Some(_) => Vec::new(),
            }
        }
        Some((key, value)) => {
            let key = key.trim();
            let value_start = offset - value.len() + indentation(value);
            let value_end = value_start + text[value_start..end].trim_end().len();
            let replace = value_start..value_end.max(offset);
            let context = match parent.as_deref() {
                None => key,
                Some(parent) => match (parent, key) {
                    ("GameType" | "SetUp", "Name") => "GameType",
                    ("GameType" | "SetUp", "System") => "System",
                    ("MovetextParser", "Name") => "MovetextParser",
                    _ => "",
                },
            };
            match context {
                "GameType" | "SetUp" => game_completions(&replace),
                "System" => system_completions(&replace),
                "MovetextParser" => PARSERS
                    .iter()
                    .enumerate()
                    .map(|(i, parser)| Completion {
                        label: parser.to_string(),
                        kind: CompletionKind::Parser,
                        detail: None,
                        documentation: None,
                        insert: parser.to_string(),
                        replace: replace.clone(),
                        sort: format!("{i:02}"),
                    })
                    .collect(),
                _ => Vec::new(),
            }
        }
    }
}

fn key_completion(key: &str, about: &str, order: usize, replace: Range<usize>) -> Completion {
    Completion {
        label: key.to_string(),
        kind: CompletionKind::MetadataKey,
        detail: Some(about.to_string()),
        documentation: None,
        insert: format!("{key}: "),
        replace,
        sort: format!("{order:02}"),
    }
}

/// `Name`, `System` and the arguments the named game's setup takes.
fn setup_keys(game_name: Option<&str>, replace: &Range<usize>) -> Vec<Completion> {
    let mut keys = vec![
        ("Name".to_string(), "the game's name".to_string()),
        (
            "System".to_string(),
            "the game system to set it up with".to_string(),
        ),
    ];
    if let Some(name) = game_name.map(normalize_name) {
        let mut arguments: Vec<(String, String)> = known_games()
            .into_iter()
            .filter(|game| game.name == name)
            .flat_map(|game| game.arguments)
            .map(|argument| {
                (
                    title_case(argument.name),
                    format!("setup argument (default {})", argument.ppn_default()),
                )
            })
            .collect();
        arguments.sort();
        arguments.dedup_by(|a, b| a.0 == b.0);
        keys.extend(arguments);
    }
    keys.iter()
        .enumerate()
        .map(|(i, (key, about))| key_completion(key, about, i, replace.clone()))
        .collect()
}

/// `four_field_kono` as `Four Field Kono`.
fn title_case(snake: &str) -> String {
    snake
        .split('_')
        .map(|word| {
            let mut chars = word.chars();
            match chars.next() {
                Some(first) => first.to_uppercase().chain(chars).collect::<String>(),
                None => String::new(),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Every game name that sets up a board, once, written as a player would.
fn game_completions(replace: &Range<usize>) -> Vec<Completion> {
    let mut by_name: BTreeMap<&'static str, Vec<&'static str>> = BTreeMap::new();
    for game in known_games() {
        // Some exported names cannot be reached by typing them; suggest only the others.
        if normalize_name(game.name) == game.name {
            by_name.entry(game.name).or_default().push(game.system);
        }
    }
    by_name
        .into_iter()
        .map(|(name, mut systems)| {
            systems.sort_unstable();
            systems.dedup();
            let titled = title_case(name);
            let label = if normalize_name(&titled) == name {
                titled
            } else {
                name.to_string()
            };
            Completion {
                insert: label.clone(),
                label,
                kind: CompletionKind::Game,
                detail: Some(systems.join(", ")),
                documentation: None,
                replace: replace.clone(),
                sort: name.to_string(),
            }
        })
        .collect()
}

fn system_completions(replace: &Range<usize>) -> Vec<Completion> {
    let mut systems: Vec<&'static str> = known_games().into_iter().map(|g| g.system).collect();
    systems.sort_unstable();
    systems.dedup();
    systems
        .into_iter()
        .map(|system| Completion {
            label: system.to_string(),
            kind: CompletionKind::System,
            detail: None,
            documentation: None,
            insert: system.to_string(),
            replace: replace.clone(),
            sort: system.to_string(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use super::*;
    use crate::fixture::check_completions;
    use crate::model::format::Format::Ppn;

    #[test]
    fn macros_after_a_backtick() {
        // The game's own macros.
        check_completions(
            Ppn,
            "---\nMacros:\n  home: S@a1\n...\n1. `ho$0 2. b2-c3\n",
            expect![[r#"
                home => "home'" — S@a1
                and 150 more not matching "ho"
                replacing 5:5-5:7 "ho"
            "#]],
        );
        // The built-in ones, listed after the game's own.
        check_completions(
            Ppn,
            "1. `S$0\n",
            expect![[r#"
                S => "S'" — ♠
                S2 => "S2'" — 🂢
                S3 => "S3'" — 🂣
                S4 => "S4'" — 🂤
                S5 => "S5'" — 🂥
                S6 => "S6'" — 🂦
                S7 => "S7'" — 🂧
                S8 => "S8'" — 🂨
                S9 => "S9'" — 🂩
                SA => "SA'" — 🂡
                SC => "SC'" — 🂬
                SJ => "SJ'" — 🂫
                SK => "SK'" — 🂮
                SQ => "SQ'" — 🂭
                ST => "ST'" — 🂪
                and 135 more not matching "s"
                replacing 1:5-1:6 "S"
            "#]],
        );
        check_completions(
            Ppn,
            "1. `q$0\n",
            expect![[r#"
                Q => "Q'" — ♕
                q => "q'" — ♛
                and 148 more not matching "q"
                replacing 1:5-1:6 "q"
            "#]],
        );
        let analysis = PpnDocument::new("---\nMacros:\n  home: S@a1\n...\n1. `\n".to_string());
        let items = completions(&analysis, analysis.text.len() - 1);
        let sort_of = |label: &str| {
            let item = items.iter().find(|item| item.label == label).unwrap();
            item.sort.as_str()
        };
        assert_eq!((sort_of("home"), sort_of("q")), ("0home", "2q"));
        // After the quote the name is finished.
        check_completions(Ppn, "1. `q'$0@b2\n", expect![[""]]);
    }

    #[test]
    fn a_finished_name_is_replaced_with_its_quote() {
        check_completions(
            Ppn,
            "1. `h$0ome'@b2\n",
            expect![[r#"
                H => "H'" — ♥
                H2 => "H2'" — 🂲
                H3 => "H3'" — 🂳
                H4 => "H4'" — 🂴
                H5 => "H5'" — 🂵
                H6 => "H6'" — 🂶
                H7 => "H7'" — 🂷
                H8 => "H8'" — 🂸
                H9 => "H9'" — 🂹
                HA => "HA'" — 🂱
                HC => "HC'" — 🂼
                HJ => "HJ'" — 🂻
                HK => "HK'" — 🂾
                HQ => "HQ'" — 🂽
                HT => "HT'" — 🂺
                and 135 more not matching "h"
                replacing 1:5-1:10 "home'"
            "#]],
        );
    }

    #[test]
    fn metadata_keys_at_the_start_of_a_line() {
        check_completions(
            Ppn,
            "---\nEvent: x\n$0\n...\n1. S@b2\n",
            expect![[r#"
                GameType => "GameType: " — the game played; sets up its starting board
                SetUp => "SetUp: " — the starting board, overriding GameType's (a name, or a mapping with Name, System and arguments)
                MovetextParser => "MovetextParser: " — how to read the moves (Default, Checker, Chess, ...)
                Macros => "Macros: " — a mapping of macro names to the text they stand for
                ScalingFactor => "ScalingFactor: " — how many inches one Location step is worth
                Event => "Event: " — the name of the tournament or match
                Site => "Site: " — where the game was played
                Date => "Date: " — when the game was played
                Round => "Round: " — the round of the event
                Result => "Result: " — the result, e.g. 1-0
                White => "White: " — the first player
                Black => "Black: " — the second player
                Annotator => "Annotator: " — who wrote the comments
                replacing 3:1-3:1 ""
            "#]],
        );
        check_completions(
            Ppn,
            "---\nEvent: x\nGa$0\n...\n1. S@b2\n",
            expect![[r#"
                GameType => "GameType: " — the game played; sets up its starting board
                and 12 more not matching "ga"
                replacing 3:1-3:3 "Ga"
            "#]],
        );
    }

    #[test]
    fn completing_a_key_that_has_its_colon_keeps_one_colon() {
        check_completions(
            Ppn,
            "---\nGa$0meType: Chess\n...\n",
            expect![[r#"
                GameType => "GameType: " — the game played; sets up its starting board
                and 12 more not matching "ga"
                replacing 2:1-2:11 "GameType: "
            "#]],
        );
        check_completions(
            Ppn,
            "---\nSetUp:\n  Name: Tablut\n  Se$0:42\n...\n",
            expect![[r#"
                System => "System: " — the game system to set it up with
                and 2 more not matching "se"
                replacing 4:3-4:6 "Se:"
            "#]],
        );
    }

    #[test]
    fn game_names_systems_and_parsers_as_values() {
        check_completions(
            Ppn,
            "---\nGameType: Four F$0\n...\n",
            expect![[r#"
                Four Field Kono — checker, piecepack
                and 167 more not matching "four f"
                replacing 2:11-2:17 "Four F"
            "#]],
        );
        check_completions(
            Ppn,
            "---\nSetUp:\n  Name: Lasca\n  System: $0\n...\n",
            expect![[r#"
                alquerque
                checker
                chess
                domino
                go
                marble
                morris
                piecepack
                reversi
                stackpack
                replacing 4:11-4:11 ""
            "#]],
        );
        check_completions(
            Ppn,
            "---\nMovetextParser: $0\n...\n",
            expect![[r#"
                Default
                Piecepack
                Alquerque
                Checker
                Chess
                Domino
                Go
                Marble
                Morris
                Tarot
                replacing 2:17-2:17 ""
            "#]],
        );
        check_completions(
            Ppn,
            "---\nSetUp:\n  Name: Desfases\n  S$0\n...\n",
            expect![[r#"
                System => "System: " — the game system to set it up with
                Seed => "Seed: " — setup argument (default random)
                and 3 more not matching "s"
                replacing 4:3-4:4 "S"
            "#]],
        );
    }

    #[test]
    fn nothing_in_plain_moves_and_astral_names_are_whole() {
        check_completions(Ppn, "1. S@b$02\n", expect![[""]]);
        check_completions(
            Ppn,
            "---\nMacros: {🁣: \"`q'\"}\n...\n1. 🂡@b2 `🁣$0\n",
            expect![[r#"
                🁣 => "🁣'" — ♛
                and 150 more not matching "🁣"
                replacing 4:10-4:11 "🁣"
            "#]],
        );
        // An offset inside the glyph counts as the offset before it: the whole name is
        // replaced. (A marker cannot stand inside a glyph.)
        let analysis = PpnDocument::new("1. `🁣\n".to_string());
        let inside = completions(&analysis, 6);
        assert!(!inside.is_empty());
        assert!(inside.iter().all(|item| item.replace == (4..8)));
    }
}
