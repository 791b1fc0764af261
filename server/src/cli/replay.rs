//! `ppn-ls replay`: the board after every move, as JSON or as diagrams.

use std::fmt::Write as _;
use std::path::Path;

use super::{print_out, read_input, ReplayFormat, EXIT_USAGE};
use crate::ide::board::{describe_piece, location_name};
use crate::ide::document::analyze;
use crate::model::document::{LineState, NotationDocument};
use crate::model::scene::Scene;
use crate::render::text::{diagram, TextOptions};

/// How `replay --format text` draws.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TextStyle {
    /// After the starting board, only what each move changed.
    pub changes: bool,
    pub ascii: bool,
}

pub fn run(
    file: &Path,
    format: ReplayFormat,
    game: Option<usize>,
    label: Option<&str>,
    style: TextStyle,
) -> i32 {
    let text = match read_input(file) {
        Ok(text) => text,
        Err(err) => {
            eprintln!("ppn-ls: {}: {err}", file.display());
            return EXIT_USAGE;
        }
    };
    let path = (file.as_os_str() != "-").then_some(file);
    let document = analyze(path, text);
    let games = document.games();
    if let Some(n) = game {
        if n == 0 || n > games.len() {
            eprintln!("ppn-ls: --game {n}: the file has {} game(s)", games.len());
            return EXIT_USAGE;
        }
    }
    let file_name = file
        .file_name()
        .map_or_else(|| "-".to_string(), |n| n.to_string_lossy().into_owned());
    if format == ReplayFormat::Json && game.is_none() && label.is_none() {
        let mut out = std::io::BufWriter::new(std::io::stdout().lock());
        let written = document
            .write_replay_json(&file_name, None, &mut out)
            .and_then(|()| std::io::Write::flush(&mut out));
        return match written {
            Ok(()) => 0,
            // A reader that went away (`| head`) is not an error.
            Err(err) if err.kind() == std::io::ErrorKind::BrokenPipe => 0,
            Err(err) => {
                eprintln!("ppn-ls: writing the replay: {err}");
                EXIT_USAGE
            }
        };
    }
    let selected: Vec<(usize, Vec<LineState>)> = (0..games.len())
        .filter(|i| game.is_none_or(|n| n == i + 1))
        .map(|i| {
            let states = document
                .main_line(i)
                .into_iter()
                .filter(|s| label.is_none_or(|l| s.label == l || s.text == l))
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
    match format {
        ReplayFormat::Json => {
            let only: Vec<_> = selected
                .iter()
                .flat_map(|(_, states)| states.iter().map(|state| state.state))
                .collect();
            let mut out = Vec::new();
            let _ = document.write_replay_json(&file_name, Some(&only), &mut out);
            print_out(&String::from_utf8_lossy(&out));
        }
        ReplayFormat::Text => print_out(&to_text(&*document, &selected, games.len() > 1, style)),
    }
    0
}

fn to_text(
    document: &dyn NotationDocument,
    games: &[(usize, Vec<LineState>)],
    several_games: bool,
    style: TextStyle,
) -> String {
    let options = TextOptions {
        ascii: style.ascii,
        ..TextOptions::default()
    };
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
            if let Some(scene) = document.scene(state.state) {
                if style.changes && state.state.index > 0 {
                    out.push_str(&changes(&scene));
                } else {
                    out.push_str(&diagram(&scene, &options));
                }
            }
            out.push('\n');
        }
    }
    out
}

/// What a move changed, in words: the pieces it moved, added or turned, and the cells it
/// emptied.
fn changes(scene: &Scene) -> String {
    let mut out = String::new();
    for &index in &scene.highlighted {
        if let Some(piece) = scene.pieces.get(index) {
            let _ = writeln!(
                out,
                "  {}: {}",
                location_name(piece.x, piece.y),
                describe_piece(piece)
            );
        }
    }
    if !scene.vacated.is_empty() {
        let cells: Vec<String> = scene
            .vacated
            .iter()
            .map(|&(x, y)| location_name(x, y))
            .collect();
        let _ = writeln!(out, "  emptied: {}", cells.join(", "));
    }
    if out.is_empty() {
        out.push_str("  (nothing changed)\n");
    }
    out
}
