//! Code lenses above each game: the board at its end, and the game played through.

use std::ops::Range;

use crate::model::notation_document::NotationDocument;

/// The command the lenses run: the editor's board panel (`ppn.showBoard` in VS Code),
/// given the document, a position and whether to play the game through from there.
pub const SHOW_BOARD_COMMAND: &str = "ppn.showBoard";

/// Past this many games, a document gets no lenses: a collection of thousands of games
/// would get a line of them per game after every edit.
pub const MOST_GAMES_WITH_LENSES: usize = 1_000;

/// One lens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lens {
    /// The line it stands above (a game's first line).
    pub range: Range<usize>,
    pub title: &'static str,
    /// Where the board is shown from.
    pub offset: usize,
    /// Play the game through from `offset` rather than show one board.
    pub animate: bool,
}

/// "Show board" (the board after the game's last move) and "Animate" (from its start)
/// above each game.
pub fn code_lenses(document: &dyn NotationDocument) -> Vec<Lens> {
    let games = document.games();
    if games.len() > MOST_GAMES_WITH_LENSES {
        return Vec::new();
    }
    games
        .into_iter()
        .flat_map(|game| {
            [
                Lens {
                    range: game.selection.clone(),
                    title: "Show board",
                    offset: game.range.end,
                    animate: false,
                },
                Lens {
                    range: game.selection.clone(),
                    title: "Animate",
                    offset: game.range.start,
                    animate: true,
                },
            ]
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ide::analyze::{analyze, board_at};

    #[test]
    fn each_game_gets_its_board_and_its_animation() {
        let text = "---\nEvent: A\n...\n1. S@a1 2. S@b2\n---\nEvent: B\n...\n1. M@c3\n";
        let document = analyze(None, text.to_string());
        let lenses = code_lenses(&*document);
        assert_eq!(lenses.len(), 4);
        assert_eq!(&text[lenses[0].range.clone()], "---");
        assert_eq!(lenses[0].title, "Show board");
        // The board shown is the game's last.
        let shown = board_at(&*document, lenses[0].offset).expect("a board");
        assert_eq!(shown.label, "2.");
        assert_eq!(shown.pieces.len(), 2);
        let start = board_at(&*document, lenses[1].offset).expect("a board");
        assert_eq!(start.label, "start");
        assert!(lenses[1].animate);
        assert_eq!(board_at(&*document, lenses[2].offset).unwrap().label, "1.");
    }
}
