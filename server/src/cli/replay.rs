//! `ppn-ls replay`: the board after every move, as JSON or as diagrams, for each file.

use std::fmt::Write as _;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::cli::args::ReplayFormat;
use crate::cli::output::{display_path, io_message, source_path};
use crate::cli::output::{read_input, report_error, report_warning};
use crate::cli::paths;
use crate::exit_code;
use crate::ide::analyze::analyze_boards;
use crate::model::notation_document::{LineState, NotationDocument};
use crate::model::scene::Scene;
use crate::render::text::{diagram, BoardStyle, TextOptions};
use crate::render::words::{describe_piece, location_name};

/// How `replay --format text` draws.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TextStyle {
    /// After the starting board, only what each move changed.
    pub changes: bool,
    pub ascii: bool,
    pub board: BoardStyle,
}

pub fn run(
    paths_given: &[PathBuf],
    format: ReplayFormat,
    game: Option<usize>,
    label: Option<&str>,
    style: TextStyle,
) -> i32 {
    let collected = paths::collect(paths_given);
    let mut exit = exit_code::SUCCESS;
    for (path, why) in &collected.failures {
        report_error(display_path(path), why);
        exit = exit_code::USAGE;
    }
    for directory in &collected.empty_directories {
        report_warning(display_path(directory), paths::empty_directory_message());
    }
    let several_files = collected.files.len() > 1;
    let mut out = BufWriter::new(io::stdout().lock());
    for file in &collected.files {
        let outcome = replay_file(&mut out, file, format, game, label, several_files, style);
        let code = match outcome {
            Ok(code) => code,
            Err(err) if err.kind() == io::ErrorKind::BrokenPipe => return exit,
            Err(err) => {
                report_error("standard output", io_message(&err));
                exit_code::USAGE
            }
        };
        exit = exit.max(code);
    }
    match out.flush() {
        Err(err) if err.kind() != io::ErrorKind::BrokenPipe => {
            report_error("standard output", io_message(&err));
            exit_code::USAGE
        }
        _ => exit,
    }
}

fn replay_file(
    out: &mut dyn Write,
    file: &Path,
    format: ReplayFormat,
    game: Option<usize>,
    label: Option<&str>,
    several_files: bool,
    style: TextStyle,
) -> io::Result<i32> {
    let name = display_path(file);
    let text = match read_input(file) {
        Ok(text) => text,
        Err(err) => {
            report_error(&name, io_message(&err));
            return Ok(exit_code::USAGE);
        }
    };
    let path = source_path(file);
    let document = analyze_boards(path, text);
    let games = document.games();
    if let Some(n) = game {
        if n == 0 || n > games.len() {
            report_error(
                &name,
                format!(
                    "--game {n}: the file has {} game{}",
                    games.len(),
                    if games.len() == 1 { "" } else { "s" }
                ),
            );
            return Ok(exit_code::USAGE);
        }
    }
    let file_name = source_path(file)
        .and_then(Path::file_name)
        .map_or_else(|| "-".to_string(), |n| n.to_string_lossy().into_owned());

    let chosen: Vec<usize> = (0..games.len())
        .filter(|i| game.is_none_or(|n| n == i + 1))
        .collect();
    let mut exit = exit_code::SUCCESS;
    for &index in &chosen {
        if let Some(why) = document.game_error(index) {
            report_error(
                &name,
                format!(
                    "game {}: the reference implementation cannot read this game: {why}",
                    index + 1
                ),
            );
            exit = exit_code::PROBLEMS;
        }
    }

    if format == ReplayFormat::Json && game.is_none() && label.is_none() {
        document.write_replay_json(&file_name, None, out)?;
        return Ok(exit);
    }
    let selected: Vec<(usize, Vec<LineState>)> = chosen
        .iter()
        .map(|&i| {
            let states = document
                .main_line(i)
                .into_iter()
                .filter(|s| label.is_none_or(|l| s.answers_to(l)))
                .collect();
            (i + 1, states)
        })
        .collect();
    if let Some(label) = label {
        if selected.iter().all(|(_, states)| states.is_empty()) {
            let labels: Vec<String> = chosen
                .iter()
                .flat_map(|&i| document.main_line(i))
                .map(|state| state.label)
                .collect();
            report_error(
                &name,
                format!(
                    "--move {label}: no move has that label; {}",
                    describe_labels(&labels)
                ),
            );
            return Ok(exit_code::USAGE);
        }
    }
    match format {
        ReplayFormat::Json => {
            let only: Vec<_> = selected
                .iter()
                .flat_map(|(_, states)| states.iter().map(|state| state.state))
                .collect();
            document.write_replay_json(&file_name, Some(&only), out)?;
        }
        ReplayFormat::Text => {
            if several_files {
                writeln!(out, "==> {name} <==")?;
            }
            let text = to_text(&*document, &selected, games.len() > 1, style);
            out.write_all(text.as_bytes())?;
        }
    }
    Ok(exit)
}

/// The labels a `--move` can name, shortened when there are many: `the labels are start,
/// 1., 1..., 2., …, 40. (81 in all)`.
pub fn describe_labels(labels: &[String]) -> String {
    const SHOWN_AT_EACH_END: usize = 8;
    let mut unique: Vec<&str> = Vec::with_capacity(labels.len());
    for label in labels {
        if !unique.contains(&label.as_str()) {
            unique.push(label);
        }
    }
    match unique.len() {
        0 => "the game has no moves".to_string(),
        n if n <= 2 * SHOWN_AT_EACH_END + 1 => format!("the labels are {}", unique.join(", ")),
        n => format!(
            "the labels are {}, …, {} ({n} in all)",
            unique[..SHOWN_AT_EACH_END].join(", "),
            unique[n - SHOWN_AT_EACH_END..].join(", ")
        ),
    }
}

fn to_text(
    document: &dyn NotationDocument,
    games: &[(usize, Vec<LineState>)],
    several_games: bool,
    style: TextStyle,
) -> String {
    let options = TextOptions {
        ascii: style.ascii,
        style: style.board,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_listed_and_shortened_when_many() {
        let few: Vec<String> = ["start", "1.", "1..."].map(String::from).to_vec();
        assert_eq!(describe_labels(&few), "the labels are start, 1., 1...");
        let many: Vec<String> = std::iter::once("start".to_string())
            .chain((1..=40).map(|n| format!("{n}.")))
            .collect();
        assert_eq!(
            describe_labels(&many),
            "the labels are start, 1., 2., 3., 4., 5., 6., 7., …, 33., 34., 35., 36., 37., 38., \
             39., 40. (41 in all)"
        );
    }
}
