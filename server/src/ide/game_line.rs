//! The states of a game as places in the text, for an editor that steps through a game by
//! moving its cursor (VS Code's board panel, with the game viewer's controls): each state
//! of the main line and of the variations with the offset where the cursor shows it, so
//! that stepping and the board at the cursor always agree.

use std::ops::Range;

use crate::model::notation_document::{LineState, NotationDocument, StateRef};

/// A state of the game and where the cursor goes to show it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineStop {
    /// What users call it: `start`, `1.`, `12...`, `3b`.
    pub label: String,
    /// The move's text as written (empty for the starting board).
    pub text: String,
    /// The comments on the move, joined by one space.
    pub comment: String,
    /// The move in the document; `None` for the starting board.
    pub range: Option<Range<usize>>,
    /// An offset at which the board at the cursor is this state: the move's start, or for
    /// the starting board the first offset of the game where no move is before it.
    pub cursor: usize,
    pub state: StateRef,
}

/// A variation and where the cursor shows each of its states.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariationStops {
    /// What it is called (`3a.1.`).
    pub name: String,
    /// The state it branches from.
    pub from: StateRef,
    pub stops: Vec<LineStop>,
}

/// The states of the game at an offset: its main line and its variations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameLine {
    pub game: usize,
    /// The game's name, as in the outline.
    pub name: String,
    /// Everything the game covers.
    pub range: Range<usize>,
    /// The main line in order; a state no cursor offset shows (a starting board with no
    /// text of its own before the first move) is left out.
    pub stops: Vec<LineStop>,
    /// Each after the line it branches from.
    pub variations: Vec<VariationStops>,
    /// The state at the offset (in the main line or a variation).
    pub current: StateRef,
}

/// The states of the game that holds `offset` (or the last game before it), each with
/// where to put the cursor; `None` outside every game.
pub fn game_line_at(document: &dyn NotationDocument, offset: usize) -> Option<GameLine> {
    let at = document.move_at(offset, true)?;
    let game_index = at.state.game;
    let summary = document.games().into_iter().nth(game_index)?;
    let stop = |state: LineState| {
        let cursor = match &state.range {
            Some(range) => range.start,
            None => start_cursor(document, &summary.range, &summary.selection, state.state)?,
        };
        Some(LineStop {
            label: state.label,
            text: state.text,
            comment: state.comment,
            range: state.range,
            cursor,
            state: state.state,
        })
    };
    let stops = document
        .main_line(game_index)
        .into_iter()
        .filter_map(stop)
        .collect();
    let variations = document
        .variations(game_index)
        .into_iter()
        .map(|variation| VariationStops {
            name: variation.name,
            from: variation.from,
            stops: variation.states.into_iter().filter_map(stop).collect(),
        })
        .collect();
    Some(GameLine {
        game: game_index,
        name: summary.name,
        range: summary.range,
        stops,
        variations,
        current: at.state,
    })
}

/// Where the cursor shows a starting board: the game's title or its first offset, whichever
/// the document places before every move.
fn start_cursor(
    document: &dyn NotationDocument,
    range: &Range<usize>,
    selection: &Range<usize>,
    state: StateRef,
) -> Option<usize> {
    [selection.start, range.start].into_iter().find(|&offset| {
        document
            .move_at(offset, true)
            .is_some_and(|at| at.state == state)
    })
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use expect_test::expect;

    use super::*;
    use crate::fixture::{fixture, spot};
    use crate::ide::analyze::analyze;

    /// Every stop's cursor shows that stop's state, in every notation.
    fn assert_cursors_show_their_states(name: &str, text: &str) -> usize {
        let document = analyze(Some(Path::new(name)), text.to_string());
        let mut checked = 0;
        for (game, summary) in document.games().iter().enumerate() {
            let line = game_line_at(&*document, summary.range.start.max(summary.selection.start))
                .unwrap_or_else(|| panic!("{name}: no line for game {game}"));
            assert_eq!(line.game, game, "{name}");
            assert_eq!(
                line.stops.len(),
                document.main_line(game).len(),
                "{name}: game {game} has a state no cursor shows"
            );
            let mut previous = None;
            for stop in &line.stops {
                let at = document.move_at(stop.cursor, true).unwrap();
                assert_eq!(at.state, stop.state, "{name}: {}", stop.label);
                assert!(
                    previous < Some(stop.cursor),
                    "{name}: {} out of order",
                    stop.label
                );
                previous = Some(stop.cursor);
                checked += 1;
            }
            let variations = document.variations(game);
            assert_eq!(line.variations.len(), variations.len(), "{name}");
            for (listed, variation) in line.variations.iter().zip(&variations) {
                assert_eq!(
                    listed.stops.len(),
                    variation.states.len(),
                    "{name}: variation {} has a state no cursor shows",
                    listed.name
                );
                for stop in &listed.stops {
                    let at = document.move_at(stop.cursor, true).unwrap();
                    assert_eq!(
                        at.state, stop.state,
                        "{name}: {} {}",
                        listed.name, stop.label
                    );
                    checked += 1;
                }
            }
        }
        checked
    }

    #[test]
    fn each_stop_of_every_notation_is_where_the_cursor_shows_it() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut files = Vec::new();
        for folder in ["examples", "tests/otn/opentafl", "tests/xiangqi/samples"] {
            for entry in std::fs::read_dir(root.join(folder)).unwrap() {
                let path = entry.unwrap().path();
                if path.is_file() {
                    files.push(path);
                }
            }
        }
        files.sort();
        let mut stops = 0;
        for path in &files {
            let Ok(text) = std::fs::read_to_string(path) else {
                continue;
            };
            stops += assert_cursors_show_their_states(&path.display().to_string(), &text);
        }
        assert!(stops > 100, "{stops} stops in {} files", files.len());
        assert!(
            files.iter().any(|path| {
                let text = std::fs::read_to_string(path).unwrap_or_default();
                let document = analyze(Some(path), text);
                !document.variations(0).is_empty()
            }),
            "no sample has a variation"
        );
    }

    /// The game line at the cursor of `marked` (a PPN text): the game, then each stop: its
    /// label, where the cursor shows it, the move, and whether it is the current state.
    fn line_at(marked: &str) -> String {
        let fixture = fixture(marked);
        let document = analyze(None, fixture.text.clone());
        let Some(line) = game_line_at(&*document, fixture.offset) else {
            return "no game".to_string();
        };
        let mut shown = format!("game {} ({})\n", line.game, line.name);
        for stop in &line.stops {
            let cursor = spot(&fixture.text, &(stop.cursor..stop.cursor));
            shown.push_str(&format!(
                "{} shown from {}",
                stop.label,
                &cursor[..cursor.find('-').unwrap()]
            ));
            if let Some(range) = &stop.range {
                shown.push_str(&format!(
                    ", the move {} {:?}",
                    spot(&fixture.text, range),
                    stop.text
                ));
            }
            if stop.state == line.current {
                shown.push_str(", current");
            }
            shown.push('\n');
        }
        shown
    }

    #[test]
    fn the_line_is_that_of_the_game_at_the_offset() {
        expect![[r#"
            game 1 (Game 2: Tablut)
            start shown from 5:1
            1. shown from 8:1, the move 8:1-8:9 "1. d1-d3" "d1-d3", current
        "#]]
        .assert_eq(&line_at(
            "---\nGameType: Tablut\n...\n1. a4-a3 1... c5-c3\n\
             ---\nGameType: Tablut\n...\n1$0. d1-d3\n",
        ));
        expect![[r#"
            game 0 (Game 1: Tablut)
            start shown from 1:1, current
            1. shown from 4:1, the move 4:1-4:9 "1. a4-a3" "a4-a3"
            1... shown from 4:10, the move 4:10-4:20 "1... c5-c3" "c5-c3"
        "#]]
        .assert_eq(&line_at(
            "$0---\nGameType: Tablut\n...\n1. a4-a3 1... c5-c3\n\
             ---\nGameType: Tablut\n...\n1. d1-d3\n",
        ));
        assert!(game_line_at(&*analyze(None, String::new()), 0).is_none());
    }
}
