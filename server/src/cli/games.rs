//! `ppn-ls games`: every game setup ppn-ls knows, with its systems and arguments as a PPN
//! author writes them in `GameType`, and an example for each game.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use std::path::PathBuf;

use serde_json::json;

use crate::cli::args::ReplayFormat;
use crate::cli::output::{display_path, io_message, source_path};
use crate::cli::output::{print_out, read_input, report_error};
use crate::cli::paths;
use crate::cli::snippet::ColumnIndex;
use crate::exit_code;
use crate::ide::workspace::games_in;
use crate::ppn::rules::setups::{known_games, normalize_name, title_case, GameInfo};

pub fn run(format: ReplayFormat) -> i32 {
    let games = games_by_name();
    match format {
        ReplayFormat::Text => print_out(&to_text(&games)),
        ReplayFormat::Json => print_out(&(to_json(&games) + "\n")),
    }
    exit_code::SUCCESS
}

/// `ppn-ls games --find TEXT PATH...`: the games of the files whose metadata holds every
/// word of `find` (every game without it), one a line as `file:line: name (summary)`, or as
/// JSON. Exits 1 when none is found, 2 when a path cannot be read.
pub fn run_find(find: Option<&str>, paths: &[PathBuf], format: ReplayFormat) -> i32 {
    let paths = if paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        paths.to_vec()
    };
    let collected = paths::collect(&paths);
    let mut failed = false;
    for (path, why) in &collected.failures {
        report_error(display_path(path), why);
        failed = true;
    }
    let query = find.unwrap_or("");
    let mut text_out = String::new();
    let mut json_out = Vec::new();
    for file in &collected.files {
        let name = display_path(file);
        let text = match read_input(file) {
            Ok(text) => text,
            Err(err) => {
                report_error(&name, io_message(&err));
                failed = true;
                continue;
            }
        };
        let path = source_path(file);
        let index = ColumnIndex::new(&text);
        for game in games_in(path, &text)
            .iter()
            .filter(|game| game.matches(query))
        {
            let line = index.position(game.selection.start).line;
            let summary = game.summary();
            match format {
                ReplayFormat::Text if summary.is_empty() => {
                    let _ = writeln!(text_out, "{name}:{line}: {}", game.name);
                }
                ReplayFormat::Text => {
                    let _ = writeln!(text_out, "{name}:{line}: {} ({summary})", game.name);
                }
                ReplayFormat::Json => {
                    let tags: serde_json::Map<String, serde_json::Value> = game
                        .tags
                        .iter()
                        .map(|(key, value)| (key.clone(), json!(value)))
                        .collect();
                    json_out.push(json!({
                        "file": name,
                        "line": line,
                        "name": game.name,
                        "summary": summary,
                        "tags": tags,
                    }));
                }
            }
        }
    }
    let found = !text_out.is_empty() || !json_out.is_empty();
    match format {
        ReplayFormat::Text => print_out(&text_out),
        ReplayFormat::Json => print_out(&(serde_json::Value::Array(json_out).to_string() + "\n")),
    }
    if failed {
        exit_code::USAGE
    } else if found {
        exit_code::SUCCESS
    } else {
        1
    }
}

/// Every game by a name that can be typed (the reference also exports names, such as
/// `12345ive`, that its own normalisation turns into another).
fn games_by_name() -> BTreeMap<&'static str, Vec<GameInfo>> {
    let mut games: BTreeMap<&'static str, Vec<GameInfo>> = BTreeMap::new();
    for game in known_games()
        .into_iter()
        .filter(|game| normalize_name(game.name) == game.name)
    {
        games.entry(game.name).or_default().push(game);
    }
    for systems in games.values_mut() {
        systems.sort_by_key(|g| g.system);
    }
    games
}

/// The game's name as a player writes it: `Four Field Kono`; names that would not read
/// back the same way (`12345ive`) are shown as they are.
fn title(name: &str) -> String {
    let titled = title_case(name);
    if normalize_name(&titled) == name {
        titled
    } else {
        name.to_string()
    }
}

/// A `GameType` line that sets the game up: the plain name when the default (piecepack)
/// system has it, else a mapping naming a system that does.
fn example(name: &str, systems: &[GameInfo]) -> String {
    let title = title(name);
    if systems.iter().any(|g| g.system == "piecepack") {
        format!("GameType: {title}")
    } else {
        let system = systems.first().map_or("piecepack", |g| g.system);
        format!("GameType: {{Name: {title}, System: {system}}}")
    }
}

fn arguments(game: &GameInfo) -> Vec<String> {
    game.arguments
        .iter()
        .map(|a| format!("{}: {}", a.key(), a.ppn_default()))
        .collect()
}

fn to_text(games: &BTreeMap<&'static str, Vec<GameInfo>>) -> String {
    let mut out = String::new();
    for (name, systems) in games {
        let _ = write!(out, "{}:", title(name));
        for (i, game) in systems.iter().enumerate() {
            let _ = write!(out, "{} {}", if i == 0 { "" } else { ";" }, game.system);
            let arguments = arguments(game);
            if !arguments.is_empty() {
                let _ = write!(out, " ({})", arguments.join(", "));
            }
        }
        let _ = writeln!(out, "\n    {}", example(name, systems));
    }
    let _ = writeln!(
        out,
        "{} games. Write `GameType: Name`, or a mapping to choose the system and set \
         arguments: `GameType: {{Name: Tablut, System: piecepack, Die Width: 0.5}}`.",
        games.len()
    );
    out
}

fn to_json(games: &BTreeMap<&'static str, Vec<GameInfo>>) -> String {
    let list: Vec<_> = games
        .iter()
        .map(|(name, systems)| {
            let entries: Vec<_> = systems
                .iter()
                .map(|game| {
                    let arguments: Vec<_> = game
                        .arguments
                        .iter()
                        .map(|a| {
                            json!({
                                "name": a.name,
                                "key": a.key(),
                                "default": a.ppn_default(),
                                "reference_default": a.default,
                            })
                        })
                        .collect();
                    json!({ "system": game.system, "arguments": arguments })
                })
                .collect();
            json!({
                "name": name,
                "title": title(name),
                "example": example(name, systems),
                "systems": entries,
            })
        })
        .collect();
    serde_json::Value::Array(list).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ppn::rules::setups::{setup_from_metadata, SetupContext};

    #[test]
    fn lists_each_game_once_with_all_its_systems() {
        let games = games_by_name();
        let chess: Vec<_> = games["international_chess"]
            .iter()
            .map(|g| g.system)
            .collect();
        assert!(
            chess.contains(&"chess") && chess.contains(&"piecepack"),
            "{chess:?}"
        );
        let text = to_text(&games);
        let mut lines = text.lines().skip_while(|l| !l.starts_with("Tablut:"));
        assert_eq!(lines.next(), Some("Tablut: piecepack (Die Width: 0.63)"));
        assert_eq!(lines.next(), Some("    GameType: Tablut"));
        let json: serde_json::Value = serde_json::from_str(&to_json(&games)).unwrap();
        assert_eq!(json.as_array().unwrap().len(), games.len());
    }

    #[test]
    fn defaults_are_written_as_metadata_values() {
        let text = to_text(&games_by_name());
        let checkers = text
            .lines()
            .find(|l| l.starts_with("American Checkers:"))
            .unwrap();
        assert_eq!(
            checkers,
            "American Checkers: checker (Cell Width: 1 (2 under `MovetextParser: Checker` \
             or `Chess`)); piecepack"
        );
        let alice = text
            .lines()
            .find(|l| l.starts_with("Alice Chess:"))
            .unwrap();
        assert_eq!(
            alice,
            "Alice Chess: piecepack (Has Subpack: false, Max Tiles: 24); stackpack (Max Tiles: 24)"
        );
        for r_syntax in ["NULL", "getOption", "c(\"", "24L", "FALSE"] {
            assert!(!text.contains(r_syntax), "{r_syntax} in the listing");
        }
    }

    #[test]
    fn every_example_sets_its_game_up() {
        for (name, systems) in games_by_name() {
            let example = example(name, &systems);
            let value = example.strip_prefix("GameType: ").unwrap();
            let yaml: serde_yaml::Value = serde_yaml::from_str(value).unwrap();
            let setup = setup_from_metadata(&yaml, &SetupContext::default());
            assert!(setup.is_ok(), "{example}: {setup:?}");
        }
    }
}
