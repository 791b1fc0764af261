//! `ppn-ls games`: every game setup ppn-ls knows, with its systems and arguments.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde_json::json;

use super::{print_out, ReplayFormat};
use crate::ppn::engine::setups::{known_games, GameInfo};

pub fn run(format: ReplayFormat) -> i32 {
    let games = games_by_name();
    match format {
        ReplayFormat::Text => print_out(&to_text(&games)),
        ReplayFormat::Json => print_out(&(to_json(&games) + "\n")),
    }
    0
}

fn games_by_name() -> BTreeMap<&'static str, Vec<GameInfo>> {
    let mut games: BTreeMap<&'static str, Vec<GameInfo>> = BTreeMap::new();
    for game in known_games() {
        games.entry(game.name).or_default().push(game);
    }
    for systems in games.values_mut() {
        systems.sort_by_key(|g| g.system);
    }
    games
}

fn to_text(games: &BTreeMap<&'static str, Vec<GameInfo>>) -> String {
    let mut out = String::new();
    for (name, systems) in games {
        let _ = write!(out, "{name}:");
        for (i, game) in systems.iter().enumerate() {
            let _ = write!(out, "{} {}", if i == 0 { "" } else { ";" }, game.system);
            if !game.arguments.is_empty() {
                let arguments: Vec<String> = game
                    .arguments
                    .iter()
                    .map(|a| format!("{} = {}", a.name, a.default))
                    .collect();
                let _ = write!(out, " ({})", arguments.join(", "));
            }
        }
        out.push('\n');
    }
    let _ = writeln!(
        out,
        "{} games. Use them as `GameType: Name` or `SetUp: {{Name: ..., System: ..., Argument: value}}`.",
        games.len()
    );
    out
}

fn to_json(games: &BTreeMap<&'static str, Vec<GameInfo>>) -> String {
    let list: Vec<_> = games
        .iter()
        .map(|(name, systems)| {
            let systems: Vec<_> = systems
                .iter()
                .map(|game| {
                    let arguments: Vec<_> = game
                        .arguments
                        .iter()
                        .map(|a| json!({ "name": a.name, "default": a.default }))
                        .collect();
                    json!({ "system": game.system, "arguments": arguments })
                })
                .collect();
            json!({ "name": name, "systems": systems })
        })
        .collect();
    serde_json::Value::Array(list).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let tablut = text.lines().find(|l| l.starts_with("tablut:")).unwrap();
        assert_eq!(tablut, "tablut: piecepack (die_width = 0.63)");
        let json: serde_json::Value = serde_json::from_str(&to_json(&games)).unwrap();
        assert_eq!(json.as_array().unwrap().len(), games.len());
    }
}
