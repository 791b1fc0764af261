//! What an analysed document answers, whatever its notation. The `ide` layer builds every
//! editor feature and every command-line output on this trait alone, so hover boards,
//! symbols, folding, the board panel, pictures and `--check` output are written once.
//!
//! A notation implements [`NotationDocument`] for one revision of a file: the text, its
//! diagnostics, its games and moves with byte ranges, the board after each move as a
//! [`Scene`], and its own extras (hover texts, completions, semantic tokens, inlay hints,
//! folds, definitions). Everything is in byte offsets of the document's text; the edges
//! (LSP, CLI) convert to lines and columns.

use std::fmt;
use std::io;
use std::ops::Range;

use crate::diagnostic::Diagnostic;
use crate::model::edit::TextEdit;
use crate::model::editor_diagnostics::Shown;
use crate::model::features::{Completion, Fold, InlayHint, SemanticToken, Symbol};
use crate::model::format::Format;
use crate::model::line_index::LineIndex;
use crate::model::scene::Scene;

/// One board state of a document: a game, and a notation-defined index of a state in it
/// (for PPN the state after move `index - 1`, 0 being the starting board; a notation with
/// variations numbers the states of its variations too).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StateRef {
    pub game: usize,
    pub index: usize,
}

/// A game of the document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSummary {
    /// What to call it: `Tablut`, `Copenhagen (11×11)`, `game 2`.
    pub name: String,
    /// Everything the game covers.
    pub range: Range<usize>,
    /// What to highlight when it is chosen (its first line, its title).
    pub selection: Range<usize>,
    /// The starting board.
    pub start: StateRef,
}

/// A state of a game's main line, in order: the starting board, then one per move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineState {
    /// What users call this point of the game: `start`, `1.`, `12...`, `3b`, `P3+1`.
    pub label: String,
    /// The move's text as written (empty for the starting board).
    pub text: String,
    /// The comments on the move, joined by one space.
    pub comment: String,
    /// The move in the document; `None` for a starting board.
    pub range: Option<Range<usize>>,
    pub state: StateRef,
}

impl LineState {
    /// Whether a user naming a move `wanted` (`--move`) means this state: its label, its
    /// label without the one dot that ends it (`2` for `2.`, while `2...` stays written
    /// out), or the move's text.
    pub fn answers_to(&self, wanted: &str) -> bool {
        let bare_label = self
            .label
            .strip_suffix('.')
            .filter(|bare| !bare.ends_with('.'));
        self.label == wanted
            || bare_label == Some(wanted)
            || (!self.text.is_empty() && self.text == wanted)
    }
}

/// A line of play that branches off another: a variation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variation {
    /// What it is called (`3a.1.`).
    pub name: String,
    /// The state it branches from, in the main line or in another variation.
    pub from: StateRef,
    /// Its moves, one state each (the state it branches from is not one of them).
    pub states: Vec<LineState>,
}

/// The move under (or, with [`NotationDocument::move_at`]'s `or_before`, last before) an
/// offset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveAt {
    pub label: String,
    /// The move in the document; `None` for the starting board of a game with no move yet.
    pub range: Option<Range<usize>>,
    /// The board after the move.
    pub state: StateRef,
}

/// A hover a notation has something to say about, beyond the board.
#[derive(Clone, Debug, PartialEq)]
pub struct NotationHover {
    /// What the hover is about.
    pub range: Range<usize>,
    /// Markdown, shown first.
    pub markdown: String,
    /// A board to show below the text, if any.
    pub board: Option<HoverBoard>,
}

/// A board shown in a hover.
#[derive(Clone, Debug, PartialEq)]
pub struct HoverBoard {
    pub state: StateRef,
    /// The caption: usually the move's label.
    pub label: String,
    /// Pieces to emphasise (indices into the scene's pieces) instead of those the move
    /// changed, e.g. the pieces a PieceId names.
    pub marked: Option<Vec<usize>>,
}

/// Conversions a notation offers besides its own format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    Ppn,
    Otn,
    AnnoFen,
    Xay,
    Wxf,
}

impl Target {
    pub fn name(self) -> &'static str {
        match self {
            Target::Ppn => "ppn",
            Target::Otn => "otn",
            Target::AnnoFen => "annofen",
            Target::Xay => "xay",
            Target::Wxf => "wxf",
        }
    }

    pub fn from_name(name: &str) -> Option<Target> {
        [
            Target::Ppn,
            Target::Otn,
            Target::AnnoFen,
            Target::Xay,
            Target::Wxf,
        ]
        .into_iter()
        .find(|target| target.name() == name.to_ascii_lowercase())
    }
}

/// Why a document cannot be converted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConvertError(pub String);

impl fmt::Display for ConvertError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A move made on a board (dragged, clicked, typed on the keyboard), to be written into
/// the text in the document's own notation after the state shown.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct MoveRequest {
    /// The state the move is made on.
    pub state: StateRef,
    /// The squares it goes from and to, named as the board grid names them (`e5`).
    pub from: String,
    pub to: String,
    /// For a move onto an occupied square where the notation can do either: whether it
    /// takes what is there (`true`) or stacks on it (`false`); `None` asks.
    pub capture: Option<bool>,
    /// Where the move goes when the state is not its line's last; `None` asks where the
    /// notation has a choice.
    pub placement: Option<Placement>,
}

/// Where a move made on an earlier state goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    /// Between the state and the move after it; the later moves follow it (and are
    /// checked again).
    Insert,
    /// In place of every move after the state.
    ReplaceRest,
    /// As a new line of play from the state (OpenTafl's variations).
    Variation,
}

impl Placement {
    /// As the page and the language server name it: `insert`, `replace`, `variation`.
    pub fn from_name(name: &str) -> Option<Placement> {
        match name {
            "insert" => Some(Placement::Insert),
            "replace" => Some(Placement::ReplaceRest),
            "variation" => Some(Placement::Variation),
            _ => None,
        }
    }
}

/// What a board's move becomes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveAnswer {
    /// Write it: `range` of the text replaced by `text`. `cursor` is an offset in the new
    /// text on the move, where an editor puts the cursor to show the board after it;
    /// `written` is the move as the notation writes it.
    Edit {
        range: Range<usize>,
        text: String,
        cursor: usize,
        written: String,
    },
    /// Ask the person who made it first.
    Ask(MoveQuestion),
    /// It cannot be written, and why.
    Refused(String),
}

/// A choice a move needs before it can be written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveQuestion {
    /// Onto an occupied square: take what is there, or stack on it.
    CaptureOrStack,
    /// On an earlier state: insert it, or replace the rest of the game.
    InsertOrReplace,
}

impl MoveQuestion {
    /// As the page and the language server name it.
    pub fn name(self) -> &'static str {
        match self {
            MoveQuestion::CaptureOrStack => "capture-or-stack",
            MoveQuestion::InsertOrReplace => "insert-or-replace",
        }
    }
}

/// Where a square's piece may go: every square (a notation without rules, such as PPN's
/// free moves), or these squares only.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Targets {
    Any,
    Only(Vec<String>),
    /// No move is written in this document, and why.
    ReadOnly(String),
}

/// One analysed revision of a document in some notation. Implementations are immutable
/// snapshots, shared between threads; every method is cheap unless it says otherwise,
/// and none may panic on any input.
pub trait NotationDocument: Send + Sync + fmt::Debug {
    fn format(&self) -> Format;

    /// The document's text.
    fn text(&self) -> &str;

    fn line_index(&self) -> &LineIndex;

    /// The analysis of `text`, which `edit` made from this document's text (an edit that
    /// does not fit is taken as the replacement of the whole text). Must equal a fresh
    /// analysis of `text`; a notation reuses what the edit left alone.
    fn update(&self, text: String, edit: &TextEdit) -> Box<dyn NotationDocument>;

    /// Every diagnostic, sorted by position.
    fn diagnostics(&self) -> &[Diagnostic];

    /// What an editor is sent of the diagnostics: `most` at most (see [`Shown`]). A
    /// notation whose records can make thousands answers without putting them all in
    /// words ([`Shown::of_outlines`]).
    fn diagnostics_shown(&self, most: usize) -> Shown {
        Shown::of(self.diagnostics(), most)
    }

    /// The games, in document order.
    fn games(&self) -> Vec<GameSummary>;

    /// The main line of a game: its starting board, then one state per move. Linear in the
    /// game's length.
    fn main_line(&self, game: usize) -> Vec<LineState>;

    /// The variations of a game, each after the line it branches from. Linear in their
    /// length.
    fn variations(&self, game: usize) -> Vec<Variation> {
        let _ = game;
        Vec::new()
    }

    /// The move whose text holds `offset` (an offset just past a move's end counts); with
    /// `or_before`, also the last move before `offset` in the same game, or the game's
    /// starting board.
    fn move_at(&self, offset: usize, or_before: bool) -> Option<MoveAt>;

    /// The board of a state, with the pieces the move leading to it changed as
    /// [`Scene::highlighted`] and the cells it emptied as [`Scene::vacated`].
    fn scene(&self, state: StateRef) -> Option<Scene>;

    /// The games, their moves and variations, for an outline. Linear in the document.
    fn symbols(&self) -> Vec<Symbol>;

    /// Folds of the document, sorted by start line.
    fn folds(&self) -> Vec<Fold>;

    /// What the notation says at `offset`: a move's board, a key's meaning, ...
    fn hover(&self, offset: usize) -> Option<NotationHover>;

    fn completions(&self, offset: usize) -> Vec<Completion> {
        let _ = offset;
        Vec::new()
    }

    /// The tokens overlapping `range`, sorted and disjoint, given to `emit` one by one in
    /// order as they are found: a long document's tokens are never all held at once.
    fn each_semantic_token(&self, range: Range<usize>, emit: &mut dyn FnMut(SemanticToken)) {
        let _ = (range, emit);
    }

    /// What [`Self::each_semantic_token`] gives, in a list.
    fn semantic_tokens(&self, range: Range<usize>) -> Vec<SemanticToken> {
        let mut tokens = Vec::new();
        self.each_semantic_token(range, &mut |token| tokens.push(token));
        tokens
    }

    /// The hints whose position is in `range`.
    fn inlay_hints(&self, range: Range<usize>) -> Vec<InlayHint> {
        let _ = range;
        Vec::new()
    }

    /// Where what is named at `offset` is defined.
    fn definition(&self, offset: usize) -> Option<Range<usize>> {
        let _ = offset;
        None
    }

    /// Every use of what is named at `offset` (and its definition, if asked).
    fn references(&self, offset: usize, include_declaration: bool) -> Vec<Range<usize>> {
        let _ = (offset, include_declaration);
        Vec::new()
    }

    /// The name at `offset` that a rename would change, with the text to select for it;
    /// `Ok(None)` where nothing is named, an error saying why where the name cannot be
    /// renamed.
    fn prepare_rename(&self, offset: usize) -> Result<Option<(Range<usize>, String)>, String> {
        let _ = offset;
        Ok(None)
    }

    /// The edits that rename what is named at `offset` to `new_name` wherever the
    /// document names it, or why they cannot.
    fn rename(&self, offset: usize, new_name: &str) -> Result<Vec<(Range<usize>, String)>, String> {
        let _ = (offset, new_name);
        Err("there is nothing to rename here".to_string())
    }

    /// Why the notation's reference implementation cannot read game `game` at all (its
    /// metadata does not parse, or names a parser or a setup the reference does not
    /// have), if it cannot. `replay --format json` writes it as the game's `"error"` and
    /// exits non-zero.
    fn game_error(&self, game: usize) -> Option<String> {
        let _ = game;
        None
    }

    /// The replay in the notation's JSON schema (`ppn-ls replay --format json`), written
    /// as it is made, so that a long game never sits whole in memory. `file` is the name
    /// to put in the output; with `only`, just those states (and the games that hold
    /// them).
    fn write_replay_json(
        &self,
        file: &str,
        only: Option<&[StateRef]>,
        out: &mut dyn io::Write,
    ) -> io::Result<()>;

    /// The formats this document converts to.
    fn conversions(&self) -> Vec<Target> {
        Vec::new()
    }

    /// Where the piece on `from` may go in `state`, by the notation's rules; `Only` an
    /// empty list where there is nothing to move there; `ReadOnly` where the notation
    /// takes no move at all.
    fn legal_targets(&self, state: StateRef, from: &str) -> Targets {
        let _ = (state, from);
        Targets::ReadOnly(format!(
            "{} holds one position: moves are not written in it",
            self.format().title()
        ))
    }

    /// A move made on the board, written into the text in this notation; refused by a
    /// notation that takes no move (a diagram of one position).
    fn enter_move(&self, request: &MoveRequest) -> MoveAnswer {
        let _ = request;
        MoveAnswer::Refused(format!(
            "{} holds one position: moves are not written in it",
            self.format().title()
        ))
    }

    /// The document written in another notation.
    fn convert(&self, target: Target) -> Result<String, ConvertError> {
        Err(ConvertError(format!(
            "a {} file cannot be converted to {}",
            self.format().name(),
            target.name()
        )))
    }
}

/// What MoveNumbers of one move pair share: `12` of `12.`, `12...` and `12S.`; `Round2` of
/// `Round2.`; the whole stem of `setup.` (a label without digits).
pub fn pair_key(label: &str) -> &str {
    let stem = label.trim_end_matches('.');
    match stem.find(|c: char| c.is_ascii_digit()) {
        Some(first) => {
            let end = stem[first..]
                .find(|c: char| !c.is_ascii_digit())
                .map_or(stem.len(), |offset| first + offset);
            &stem[..end]
        }
        None => stem,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(label: &str, text: &str) -> LineState {
        LineState {
            label: label.to_string(),
            text: text.to_string(),
            comment: String::new(),
            range: None,
            state: StateRef { game: 0, index: 0 },
        }
    }

    #[test]
    fn a_move_answers_to_its_label_with_or_without_the_dot_that_ends_it() {
        let second = state("2.", "S@b2");
        assert!(second.answers_to("2.") && second.answers_to("2") && second.answers_to("S@b2"));
        assert!(!second.answers_to("2..") && !second.answers_to("22") && !second.answers_to(""));
        // `2...` (the second player's move 2) is not `2`: that is `2.`.
        let reply = state("2...", "c3-c4");
        assert!(reply.answers_to("2...") && !reply.answers_to("2") && !reply.answers_to("2.."));
        let start = state("start", "");
        assert!(start.answers_to("start") && !start.answers_to(""));
        let xiangqi = state("P3+1", "");
        assert!(xiangqi.answers_to("P3+1"));
    }
}
