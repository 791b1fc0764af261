//! `ppn-ls replay`: the board after every move, as JSON or as diagrams.

use std::fmt::Write as _;
use std::path::Path;

use serde_json::{json, Value};

use super::{print_out, read_input, ReplayFormat, EXIT_USAGE};
use crate::ide::board::{piece_json, render_board};
use crate::ppn::engine::replay::{replay_document, ReplayedState};

pub fn run(file: &Path, format: ReplayFormat, game: Option<usize>, label: Option<&str>) -> i32 {
    let text = match read_input(file) {
        Ok(text) => text,
        Err(err) => {
            eprintln!("ppn-ls: {}: {err}", file.display());
            return EXIT_USAGE;
        }
    };
    let replay = replay_document(&text);
    if let Some(n) = game {
        if n == 0 || n > replay.games.len() {
            eprintln!(
                "ppn-ls: --game {n}: the file has {} game(s)",
                replay.games.len()
            );
            return EXIT_USAGE;
        }
    }
    let selected: Vec<(usize, Vec<&ReplayedState>)> = replay
        .games
        .iter()
        .enumerate()
        .filter(|(i, _)| game.is_none_or(|n| n == i + 1))
        .map(|(i, g)| {
            let states = g
                .states
                .iter()
                .filter(|s| label.is_none_or(|l| s.label == l))
                .map(|s| &**s)
                .collect();
            (i + 1, states)
        })
        .collect();
    if let Some(label) = label {
        if selected.iter().all(|(_, states)| states.is_empty()) {
            eprintln!("ppn-ls: --move {label}: no move has that label");
            return EXIT_USAGE;
        }
    }
    let file_name = file
        .file_name()
        .map_or_else(|| "-".to_string(), |n| n.to_string_lossy().into_owned());
    match format {
        ReplayFormat::Json => print_out(&(to_json(&file_name, &selected) + "\n")),
        ReplayFormat::Text => print_out(&to_text(&selected, replay.games.len() > 1)),
    }
    0
}

fn to_json(file_name: &str, games: &[(usize, Vec<&ReplayedState>)]) -> String {
    let games: Vec<Value> = games
        .iter()
        .map(|(_, states)| {
            let states: Vec<Value> = states
                .iter()
                .map(|s| {
                    json!({
                        "move": s.label,
                        "text": s.text,
                        "comment": s.comment,
                        "pieces": s.pieces().iter().map(piece_json).collect::<Vec<_>>(),
                    })
                })
                .collect();
            json!({ "states": states })
        })
        .collect();
    json!({ "file": file_name, "games": games }).to_string()
}

fn to_text(games: &[(usize, Vec<&ReplayedState>)], several_games: bool) -> String {
    let mut out = String::new();
    for (number, states) in games {
        if several_games {
            let _ = writeln!(out, "=== Game {number}");
        }
        for state in states {
            let _ = write!(out, "--- {}", state.label);
            if !state.text.is_empty() {
                let _ = write!(out, " {}", state.text);
            }
            if !state.comment.is_empty() {
                let _ = write!(out, " {{{}}}", state.comment);
            }
            out.push('\n');
            out.push_str(&render_board(state.pieces()));
            out.push('\n');
        }
    }
    out
}
