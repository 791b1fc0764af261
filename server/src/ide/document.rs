//! Every notation through one path: the analysis of a file in whatever format it is in,
//! and the editor features that are the same for all of them (hover boards, the board
//! panel, quick fixes), built on [`NotationDocument`] alone.

use std::ops::Range;
use std::path::Path;

use crate::diagnostic::{Diagnostic, Fix};
use crate::ide::analysis::DocumentAnalysis;
use crate::ide::board::render_board;
use crate::model::document::{NotationDocument, StateRef};
use crate::model::format::Format;
use crate::model::piece::Piece;

/// The analysis of `text`, read in the format its path and content say.
pub fn analyze(path: Option<&Path>, text: String) -> Box<dyn NotationDocument> {
    analyze_as(Format::detect(path, &text), text)
}

/// The analysis of `text` read as `format`.
pub fn analyze_as(format: Format, text: String) -> Box<dyn NotationDocument> {
    match format {
        Format::Otn => Box::new(crate::otn::document::OtnDocument::new(text)),
        Format::Ppn | Format::AnnoFen | Format::Xay | Format::Fen | Format::Wxf => {
            Box::new(DocumentAnalysis::new(text))
        }
    }
}

/// The analysis of `text`, which `edit` made from `previous`'s text: derived from
/// `previous` when the format stayed the same, fresh otherwise.
pub fn reanalyze(
    previous: &dyn NotationDocument,
    path: Option<&Path>,
    text: String,
    edit: &crate::model::edit::TextEdit,
) -> Box<dyn NotationDocument> {
    let format = Format::detect(path, &text);
    if format == previous.format() {
        previous.update(text, edit)
    } else {
        analyze_as(format, text)
    }
}

/// What to show, and the text it is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HoverInfo {
    pub range: Range<usize>,
    pub markdown: String,
}

/// The hover at `offset`: what the notation says there, with its board drawn below.
pub fn hover(document: &dyn NotationDocument, offset: usize) -> Option<HoverInfo> {
    let found = document.hover(offset)?;
    let mut markdown = found.markdown;
    if let Some(board) = &found.board {
        if let Some(scene) = document.scene(board.state) {
            if !markdown.is_empty() {
                markdown.push_str("\n\n");
            }
            markdown.push_str(&format!(
                "**{}**\n\n```text\n{}```",
                board.label,
                render_board(&scene.pieces)
            ));
        }
    }
    Some(HoverInfo {
        range: found.range,
        markdown,
    })
}

/// The board of the move under (or last before) a position.
#[derive(Clone, Debug, PartialEq)]
pub struct BoardAt {
    pub label: String,
    pub state: StateRef,
    /// The board as a text diagram.
    pub text: String,
    pub pieces: Vec<Piece>,
}

/// The board after the move under (or last before) `offset`; the starting board before
/// a game's first move; `None` outside every game.
pub fn board_at(document: &dyn NotationDocument, offset: usize) -> Option<BoardAt> {
    let at = document.move_at(offset, true)?;
    let scene = document.scene(at.state)?;
    Some(BoardAt {
        label: at.label,
        state: at.state,
        text: render_board(&scene.pieces),
        pieces: scene.pieces,
    })
}

/// The quick fixes of the diagnostics that overlap `range` (or touch it, for an empty
/// range), each with the diagnostic it fixes.
pub fn quick_fixes(
    document: &dyn NotationDocument,
    range: Range<usize>,
) -> Vec<(&Diagnostic, &Fix)> {
    document
        .diagnostics()
        .iter()
        .filter(|diagnostic| {
            diagnostic.range.start <= range.end && range.start <= diagnostic.range.end
        })
        .flat_map(|diagnostic| diagnostic.fixes.iter().map(move |fix| (diagnostic, fix)))
        .collect()
}
