//! One revision of a document, analysed once and then read by every editor feature.
//!
//! A revision made by an edit is analysed from the previous one: the syntax tree is
//! re-parsed incrementally, and the replay keeps every game and every move the edit left
//! alone (see [`Replay::update`]). Either way the result is what a fresh analysis gives.

use crate::diagnostic::Diagnostic;
use crate::ide::check::diagnostics_of;
use crate::model::line_index::LineIndex;
pub use crate::ppn::engine::replay::TextEdit;
use crate::ppn::engine::replay::{replay_document, Replay, ReplayedGame, ReplayedState};
use crate::ppn::notation::document::{split_games, GameSource};
use crate::ppn::syntax;
use std::sync::OnceLock;

/// The text with its syntax tree, its replay (every game's states) and its diagnostics.
#[derive(Debug)]
pub struct DocumentAnalysis {
    pub text: String,
    pub line_index: LineIndex,
    pub tree: tree_sitter::Tree,
    pub replay: Replay,
    pub diagnostics: Vec<Diagnostic>,
    /// The games of the text, cut on first use: every editor request needs them.
    game_sources: OnceLock<Vec<GameSource>>,
}

impl DocumentAnalysis {
    pub fn new(text: String) -> DocumentAnalysis {
        let (tree, replay) = parse_while(&text, None, || replay_document(&text));
        DocumentAnalysis::from_parts(text, tree, replay)
    }

    /// The analysis of `text`, which `edit` made from this analysis's text.
    pub fn update(&self, text: String, edit: &TextEdit) -> DocumentAnalysis {
        let edit = &edit.checked(&self.text, &text);
        let mut edited_tree = self.tree.clone();
        edited_tree.edit(&input_edit(&self.text, &text, edit));
        let (tree, replay) = parse_while(&text, Some(&edited_tree), || {
            self.replay.update(&self.text, &text, edit)
        });
        DocumentAnalysis::from_parts(text, tree, replay)
    }

    fn from_parts(text: String, tree: tree_sitter::Tree, replay: Replay) -> DocumentAnalysis {
        let diagnostics = diagnostics_of(&text, &tree, &replay);
        DocumentAnalysis {
            line_index: LineIndex::new(&text),
            text,
            tree,
            replay,
            diagnostics,
            game_sources: OnceLock::new(),
        }
    }

    /// An analysis whose diagnostics come from elsewhere and which replays nothing: for
    /// exercising the protocol layer with known diagnostics.
    pub fn with_diagnostics(text: String, diagnostics: Vec<Diagnostic>) -> DocumentAnalysis {
        DocumentAnalysis {
            line_index: LineIndex::new(&text),
            tree: syntax::parse(&text, None),
            replay: Replay::default(),
            text,
            diagnostics,
            game_sources: OnceLock::new(),
        }
    }

    /// The games of the text, as [`split_games`] cuts them.
    pub fn game_sources(&self) -> &[GameSource] {
        self.game_sources.get_or_init(|| split_games(&self.text))
    }

    /// The game holding `offset`, and the state after the move there if there is one.
    pub fn state_at(&self, offset: usize) -> Option<(&ReplayedGame, Option<ReplayedState>)> {
        let games = &self.replay.games;
        let index = games
            .partition_point(|game| game.range.start <= offset)
            .checked_sub(1)?;
        let game = games.get(index)?;
        (offset <= game.range.end).then(|| (game, game.state_at(offset)))
    }
}

/// Parses `text` (from `old`, an edited tree of the previous text) on another thread
/// while `replay` runs: on a long game each takes about as long as the other.
fn parse_while(
    text: &str,
    old: Option<&tree_sitter::Tree>,
    replay: impl FnOnce() -> Replay,
) -> (tree_sitter::Tree, Replay) {
    std::thread::scope(|scope| {
        let parsing = std::thread::Builder::new().spawn_scoped(scope, || syntax::parse(text, old));
        let replay = replay();
        let tree = match parsing {
            Ok(parsing) => parsing
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            // No thread to spare: parse after the replay.
            Err(_) => syntax::parse(text, old),
        };
        (tree, replay)
    })
}

/// The edit as tree-sitter wants it: bytes, and rows and columns counted its way (rows end
/// at `\n` only, columns are bytes).
fn input_edit(old_text: &str, new_text: &str, edit: &TextEdit) -> tree_sitter::InputEdit {
    tree_sitter::InputEdit {
        start_byte: edit.start,
        old_end_byte: edit.old_end,
        new_end_byte: edit.new_end,
        start_position: point_at(old_text, edit.start),
        old_end_position: point_at(old_text, edit.old_end),
        new_end_position: point_at(new_text, edit.new_end),
    }
}

fn point_at(text: &str, offset: usize) -> tree_sitter::Point {
    let before = &text.as_bytes()[..offset.min(text.len())];
    let row = before.iter().filter(|&&byte| byte == b'\n').count();
    let line_start = before
        .iter()
        .rposition(|&byte| byte == b'\n')
        .map_or(0, |newline| newline + 1);
    tree_sitter::Point {
        row,
        column: before.len() - line_start,
    }
}
