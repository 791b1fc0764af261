//! One revision of a document, analysed once and then read by every editor feature.
//!
//! A revision made by an edit is analysed from the previous one: only the segments of the
//! syntax the edit touched are parsed again (see [`DocumentSyntax::update`]), and the
//! replay keeps every game and every move the edit left alone (see [`Replay::update`]).
//! Either way the result is what a fresh analysis gives.

use crate::diagnostic::Diagnostic;
use crate::model::line_index::LineIndex;
use crate::ppn::diagnostics::diagnostics_of;
use crate::ppn::reader::games::{split_games, split_games_checked, GameSource};
use crate::ppn::reader::syntax::segments::DocumentSyntax;
pub use crate::ppn::replay::TextEdit;
use crate::ppn::replay::{replay_games, Replay, ReplayedGame, ReplayedState};

/// The text with its syntax, its replay (every game's states) and its diagnostics.
#[derive(Debug)]
pub struct PpnDocument {
    pub text: String,
    pub line_index: LineIndex,
    pub syntax: DocumentSyntax,
    pub replay: Replay,
    pub diagnostics: Vec<Diagnostic>,
    /// The games of the text, as [`split_games`] cuts them.
    game_sources: Vec<GameSource>,
}

impl PpnDocument {
    pub fn new(text: String) -> PpnDocument {
        let (games, problems) = split_games_checked(&text);
        let replayed_games = games.clone();
        let (syntax, replay) = parse_while(
            || DocumentSyntax::parse(&text, &games),
            || replay_games(&text, replayed_games, problems),
        );
        let line_index = LineIndex::new(&text);
        PpnDocument::from_parts(text, line_index, games, syntax, replay)
    }

    /// The analysis of `text` for tools that show boards and nothing else (`replay`,
    /// `render`): the syntax is not read, since on a long game it holds megabytes that such
    /// a tool never looks at. Its syntax errors, comments and token kinds are therefore
    /// empty; it is not for an editor, nor to be updated.
    pub fn boards_only(text: String) -> PpnDocument {
        let (games, problems) = split_games_checked(&text);
        let replay = replay_games(&text, games.clone(), problems);
        let line_index = LineIndex::new(&text);
        PpnDocument::from_parts(text, line_index, games, DocumentSyntax::unread(), replay)
    }

    /// The analysis of `text`, which `edit` made from this analysis's text.
    pub fn update(&self, text: String, edit: &TextEdit) -> PpnDocument {
        let edit = &edit.checked(&self.text, &text);
        let (games, problems) = split_games_checked(&text);
        // Only the segments the edit touched are parsed: too little to be worth a thread.
        let syntax = self
            .syntax
            .update(&text, &games, edit.start..edit.old_end, edit.new_end);
        let replay = self
            .replay
            .update_games(&self.text, &text, edit, games.clone(), problems);
        let line_index = self.line_index.update(&text, edit);
        PpnDocument::from_parts(text, line_index, games, syntax, replay)
    }

    fn from_parts(
        text: String,
        line_index: LineIndex,
        game_sources: Vec<GameSource>,
        syntax: DocumentSyntax,
        replay: Replay,
    ) -> PpnDocument {
        let diagnostics = diagnostics_of(&text, &syntax, &replay);
        PpnDocument {
            line_index,
            text,
            syntax,
            replay,
            diagnostics,
            game_sources,
        }
    }

    /// An analysis whose diagnostics come from elsewhere and which replays nothing: for
    /// exercising the protocol layer with known diagnostics.
    pub fn with_diagnostics(text: String, diagnostics: Vec<Diagnostic>) -> PpnDocument {
        let game_sources = split_games(&text);
        PpnDocument {
            line_index: LineIndex::new(&text),
            syntax: DocumentSyntax::parse(&text, &game_sources),
            replay: Replay::default(),
            text,
            diagnostics,
            game_sources,
        }
    }

    /// The games of the text, as [`split_games`] cuts them.
    pub fn game_sources(&self) -> &[GameSource] {
        &self.game_sources
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

/// Parses on another thread while `replay` runs: on a long game each takes about as long
/// as the other.
fn parse_while<Parsed: Send>(
    parse: impl FnOnce() -> Parsed + Send,
    replay: impl FnOnce() -> Replay,
) -> (Parsed, Replay) {
    let parse = std::sync::Mutex::new(Some(parse));
    let take = || parse.lock().ok().and_then(|mut parse| parse.take());
    std::thread::scope(|scope| {
        let parsing =
            std::thread::Builder::new().spawn_scoped(scope, || take().map(|parse| parse()));
        let replay = replay();
        let parsed = parsing.ok().and_then(|parsing| {
            parsing
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
        });
        // No thread to spare: parse after the replay.
        let syntax = parsed.unwrap_or_else(|| take().expect("the parse has not run")());
        (syntax, replay)
    })
}
