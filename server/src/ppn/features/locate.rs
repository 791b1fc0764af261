//! What is at a byte offset of a document: the game, the move, the token, and what the
//! parts of that token mean at that point of the game.
//!
//! Offsets are byte offsets into the analysed text; any offset is accepted (past the end,
//! inside a character) and simply finds nothing or the nearest thing.

use std::ops::Range;

use serde_yaml::Value;

use crate::model::piece::Piece;
use crate::ppn::document::PpnDocument;
use crate::ppn::reader::games::GameSource;
use crate::ppn::reader::macros::macro_references;
use crate::ppn::reader::metadata::scalar_text;
use crate::ppn::replay::ReplayedGame;
use crate::ppn::rules::state::GameState;
use crate::ppn::rules::{TokenElement, TokenPart};
use std::sync::Arc;

use crate::ppn::reader::movetext::MoveRecord;

/// Whether `offset` is on one of the bytes of `range`.
pub fn covers(range: &Range<usize>, offset: usize) -> bool {
    range.start <= offset && offset < range.end
}

/// Whether `offset` is on `range` or just after it, where a cursor that finished typing it
/// stands.
pub fn touches(range: &Range<usize>, offset: usize) -> bool {
    range.start <= offset && offset <= range.end
}

/// One game of the document: its replay and where its parts are.
#[derive(Clone, Debug)]
pub struct GameAt<'a> {
    /// Zero-based, in document order.
    pub index: usize,
    pub game: &'a ReplayedGame,
    pub source: GameSource,
}

impl<'a> GameAt<'a> {
    /// The game's moves; the one at index `i` led to the game's state `i + 1`.
    pub fn moves(&self) -> &'a [MoveRecord] {
        self.game.moves()
    }

    /// The game before any move.
    pub fn setup_state(&self) -> Option<Arc<GameState>> {
        self.game.game_state(0)
    }

    /// The game after move `index` (of [`GameAt::moves`]).
    pub fn state_after(&self, index: usize) -> Option<Arc<GameState>> {
        self.game.game_state(index + 1)
    }

    /// The game right before token `token` of move `index` is played: the state before the
    /// move with the move's earlier tokens applied.
    pub fn state_before_token(
        &self,
        moves: &[MoveRecord],
        index: usize,
        token: usize,
    ) -> Option<GameState> {
        let record = moves.get(index)?;
        let mut state = Arc::unwrap_or_clone(self.game.game_state(index)?);
        let earlier: Vec<&str> = record.tokens().take(token).map(|t| t.text).collect();
        // Problems of the earlier tokens are the diagnostics' business, not the caller's.
        let _ = state.apply_move_start(&earlier);
        Some(state)
    }

    /// The value of a top-level metadata key, if it is a text.
    pub fn metadata_text(&self, key: &str) -> Option<String> {
        self.game.metadata.get(key).and_then(scalar_text)
    }

    /// The metadata key whose value `offset` is in, with that value's range.
    pub fn metadata_value_at(&self, text: &str, offset: usize) -> Option<(String, Range<usize>)> {
        let source = self.game.metadata.source.as_ref()?;
        if !touches(source, offset) {
            return None;
        }
        self.game
            .metadata
            .mapping
            .keys()
            .filter_map(Value::as_str)
            .filter_map(|key| {
                let range = self.game.metadata.value_range(text, key)?;
                touches(&range, offset).then(|| (key.to_string(), range))
            })
            .min_by_key(|(_, range)| range.len())
    }
}

/// Every game of the analysed document, with its replay.
pub fn games(analysis: &PpnDocument) -> Vec<GameAt<'_>> {
    analysis
        .game_sources()
        .iter()
        .cloned()
        .zip(&analysis.replay.games)
        .enumerate()
        .map(|(index, (source, game))| GameAt {
            index,
            game,
            source,
        })
        .collect()
}

/// The game `offset` is in; the end of the text belongs to the last game.
pub fn game_at(analysis: &PpnDocument, offset: usize) -> Option<GameAt<'_>> {
    // The games follow each other in the text: searched by halves, not listed (every
    // request asks, and a file may hold thousands of games).
    let sources = analysis.game_sources();
    let sources = &sources[..sources.len().min(analysis.replay.games.len())];
    let last = sources.len().checked_sub(1)?;
    let index = sources.partition_point(|source| source.range.end <= offset);
    let index = match sources.get(index) {
        Some(source) if covers(&source.range, offset) => index,
        _ => (offset >= sources[last].range.end).then_some(last)?,
    };
    Some(GameAt {
        index,
        game: &analysis.replay.games[index],
        source: sources[index].clone(),
    })
}

/// The move whose text (MoveNumber through last token or comment) `offset` is on.
pub fn move_at(moves: &[MoveRecord], offset: usize) -> Option<usize> {
    // The moves are in the order of the text: searched by halves, not walked (a hover at
    // the end of a 100,000-move game walked them all).
    let index = moves.partition_point(|record| record.source().end <= offset);
    moves
        .get(index)
        .filter(|record| covers(&record.source(), offset))
        .map(|_| index)
}

/// The move `offset` is on or just after (the first of two it touches).
pub fn move_touching(moves: &[MoveRecord], offset: usize) -> Option<usize> {
    let index = moves.partition_point(|record| record.source().end < offset);
    moves
        .get(index)
        .filter(|record| touches(&record.source(), offset))
        .map(|_| index)
}

/// The move under `offset` or, between moves, the last one before it.
pub fn move_at_or_before(moves: &[MoveRecord], offset: usize) -> Option<usize> {
    moves
        .partition_point(|record| record.source().start <= offset)
        .checked_sub(1)
}

/// The token of `record` written at `offset` (the first of a brace expansion's tokens).
pub fn token_at(record: &MoveRecord, offset: usize) -> Option<usize> {
    record
        .tokens()
        .position(|token| covers(&token.source, offset))
}

/// A `` `name' `` in the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MacroUse {
    pub name: String,
    /// From the backtick through the quote.
    pub range: Range<usize>,
}

/// Every macro use in `range` of `text`.
pub fn macro_uses(text: &str, range: Range<usize>) -> Vec<MacroUse> {
    let Some(slice) = text.get(range.clone()) else {
        return Vec::new();
    };
    macro_references(slice)
        .into_iter()
        .map(|found| MacroUse {
            name: slice[found.start + 1..found.end - 1].to_string(),
            range: range.start + found.start..range.start + found.end,
        })
        .collect()
}

/// Every macro use in the moves (not the comments) of a game, in document order.
pub fn macro_uses_in_moves(text: &str, moves: &[MoveRecord]) -> Vec<MacroUse> {
    let mut sources: Vec<Range<usize>> = moves
        .iter()
        .flat_map(|record| record.tokens().map(|token| token.source.clone()))
        .collect();
    sources.sort_by_key(|range| (range.start, range.end));
    sources.dedup();
    sources
        .into_iter()
        .flat_map(|source| macro_uses(text, source))
        .collect()
}

/// A part of a move under the cursor, read as the move parser reads it.
#[derive(Clone, Debug)]
pub struct ElementAt {
    /// Where it is in the file.
    pub range: Range<usize>,
    pub part: TokenPart,
    /// The game right before the token holding it is played.
    pub state: GameState,
}

impl ElementAt {
    /// For a PieceId: the pieces it names at this point of the game, bottom first.
    pub fn identified(&self) -> Option<Result<Vec<&Piece>, String>> {
        match &self.part {
            TokenPart::PieceId { id, text } => {
                Some(self.state.identify(id, text).map_err(|issue| issue.message))
            }
            _ => None,
        }
    }
}

/// The innermost PieceSpec, PieceId or Location of a move at `offset`. Only for tokens
/// written as played: the parts of brace expansions and macros are not in the file.
pub fn element_at(
    text: &str,
    game: &GameAt<'_>,
    moves: &[MoveRecord],
    offset: usize,
) -> Option<ElementAt> {
    let index = move_at(moves, offset)?;
    let record = &moves[index];
    let token_index = token_at(record, offset)?;
    let token = record.token(token_index)?;
    if text.get(token.source.clone()) != Some(token.text) {
        return None;
    }
    let state = game.state_before_token(moves, index, token_index)?;
    let start = token.source.start;
    let elements: Vec<TokenElement> = state.token_elements(token.text);
    let chosen = elements
        .into_iter()
        .filter(|element| covers(&element.range, offset - start))
        .min_by_key(|element| element.range.len())?;
    Some(ElementAt {
        range: start + chosen.range.start..start + chosen.range.end,
        part: chosen.part,
        state,
    })
}

/// The board of the move under the cursor (or the last move before it).
#[derive(Clone, Debug, PartialEq)]
pub struct BoardAt {
    /// The move label as the replay writes it (`1.`, `2...`, `SetupFn.` before any move).
    pub label: String,
    /// The board as a text diagram.
    pub text: String,
    pub pieces: Vec<Piece>,
}

/// The board after the move under (or last before) `offset`; the starting board when the
/// offset is before the first move of its game; `None` outside any game.
pub fn board_at(analysis: &PpnDocument, offset: usize) -> Option<BoardAt> {
    let game = game_at(analysis, offset)?;
    let moves = game.moves();
    let state_index = move_at_or_before(moves, offset).map_or(0, |index| index + 1);
    let state = game.game.state(state_index)?;
    Some(BoardAt {
        label: state.label.clone(),
        text: crate::render::text::diagram_of_pieces(state.pieces()),
        pieces: state.pieces().to_vec(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const TWO_GAMES: &str = "---\nEvent: one\n...\n1. S@b2 2. b2-c3 {moved}\n\
                             ---\nMacros:\n  home: M@a1\n...\n1. `home' 2. t@{b,d}2\n";

    fn analysis(text: &str) -> PpnDocument {
        PpnDocument::new(text.to_string())
    }

    #[test]
    fn finds_the_game_and_the_move_at_an_offset() {
        let analysis = analysis(TWO_GAMES);
        let second = TWO_GAMES.rfind("---").unwrap();
        assert_eq!(game_at(&analysis, 0).map(|g| g.index), Some(0));
        assert_eq!(game_at(&analysis, second - 1).map(|g| g.index), Some(0));
        assert_eq!(game_at(&analysis, second).map(|g| g.index), Some(1));
        assert_eq!(game_at(&analysis, usize::MAX).map(|g| g.index), Some(1));
        let game = game_at(&analysis, 0).unwrap();
        let moves = game.moves();
        let c3 = TWO_GAMES.find("c3").unwrap();
        assert_eq!(move_at(moves, c3), Some(1));
        assert_eq!(move_at(moves, TWO_GAMES.find("2.").unwrap() - 1), None);
        assert_eq!(
            move_at_or_before(moves, TWO_GAMES.find("2.").unwrap() - 1),
            Some(0)
        );
        assert_eq!(move_at_or_before(moves, 0), None);
    }

    #[test]
    fn games_and_moves_found_by_halves_are_those_a_walk_finds_at_every_offset() {
        let folder =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/conformance/examples");
        let mut texts = vec![TWO_GAMES.to_string(), "1.a1-b2 2.c3 {x}3.d4\n".to_string()];
        for entry in std::fs::read_dir(folder).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|x| x == "ppn") {
                texts.push(std::fs::read_to_string(path).unwrap());
            }
        }
        texts.push(format!("{TWO_GAMES}\n\n{TWO_GAMES}{TWO_GAMES}"));
        let mut moves_seen = 0;
        for text in &texts {
            let analysis = analysis(text);
            let all = games(&analysis);
            for offset in 0..=text.len() + 1 {
                let last = all.len() - 1;
                let walked = all
                    .iter()
                    .position(|game| covers(&game.source.range, offset))
                    .or_else(|| (offset >= all[last].source.range.end).then_some(last));
                let found = game_at(&analysis, offset);
                assert_eq!(
                    found.as_ref().map(|game| game.index),
                    walked,
                    "offset {offset}"
                );
                if let (Some(found), Some(walked)) = (found, walked) {
                    assert_eq!(found.source, all[walked].source);
                    assert!(std::ptr::eq(found.game, all[walked].game));
                }
            }
            for game in all {
                let moves = game.moves();
                moves_seen += moves.len();
                for offset in 0..=text.len() + 1 {
                    let walked = moves.iter().position(|r| covers(&r.source(), offset));
                    assert_eq!(move_at(moves, offset), walked, "offset {offset}");
                    let walked = moves.iter().position(|r| touches(&r.source(), offset));
                    assert_eq!(move_touching(moves, offset), walked, "offset {offset}");
                    let walked = moves.iter().rposition(|r| r.source().start <= offset);
                    assert_eq!(move_at_or_before(moves, offset), walked, "offset {offset}");
                }
            }
        }
        assert!(moves_seen > 500, "{moves_seen}");
    }

    #[test]
    fn elements_are_read_before_their_token_is_played() {
        let analysis = analysis(TWO_GAMES);
        let game = game_at(&analysis, 0).unwrap();
        let moves = game.moves();
        let b2 = TWO_GAMES.find("b2-").unwrap();
        let element = element_at(&analysis.text, &game, moves, b2 + 1).unwrap();
        assert_eq!(element.range, b2..b2 + 2);
        let pieces = element.identified().unwrap().unwrap();
        assert_eq!(pieces.len(), 1);
        // Before the move, the coin is still on b2.
        assert_eq!((pieces[0].x, pieces[0].y), (2.0, 2.0));
        let c3 = TWO_GAMES.find("c3").unwrap();
        let element = element_at(&analysis.text, &game, moves, c3).unwrap();
        assert!(matches!(element.part, TokenPart::Location(_)));
        // Brace expansions are not in the file as played.
        let game = game_at(&analysis, TWO_GAMES.len()).unwrap();
        let moves = game.moves();
        let braces = TWO_GAMES.find("t@{").unwrap();
        assert!(element_at(&analysis.text, &game, moves, braces).is_none());
    }

    #[test]
    fn finds_macro_uses_and_metadata_values() {
        let analysis = analysis(TWO_GAMES);
        let game = game_at(&analysis, TWO_GAMES.len()).unwrap();
        let moves = game.moves();
        let uses = macro_uses_in_moves(&analysis.text, moves);
        let at = TWO_GAMES.find("`home'").unwrap();
        assert_eq!(
            uses,
            [MacroUse {
                name: "home".to_string(),
                range: at..at + 6
            }]
        );
        let value = TWO_GAMES.find("M@a1").unwrap();
        let (key, range) = game.metadata_value_at(&analysis.text, value + 1).unwrap();
        assert_eq!((key.as_str(), &TWO_GAMES[range]), ("Macros", "home: M@a1"));
    }

    #[test]
    fn the_board_at_the_cursor_is_the_last_move_played() {
        let analysis = analysis(TWO_GAMES);
        let board = board_at(&analysis, TWO_GAMES.find("{moved}").unwrap() + 2).unwrap();
        assert_eq!(board.label, "2.");
        assert_eq!(board.pieces.len(), 1);
        assert_eq!((board.pieces[0].x, board.pieces[0].y), (3.0, 3.0));
        let before = board_at(&analysis, 2).unwrap();
        assert_eq!(
            (before.label.as_str(), before.pieces.len()),
            ("SetupFn.", 0)
        );
        let end = board_at(&analysis, TWO_GAMES.len()).unwrap();
        assert_eq!((end.label.as_str(), end.pieces.len()), ("2.", 3));
    }

    /// The conformance examples and some malformed texts, to sweep the offsets of (every
    /// offset of the short texts, every third of the examples, to keep debug builds quick),
    /// each with the step to take.
    fn sweep_texts() -> Vec<(String, usize)> {
        let dir =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/conformance/examples");
        let mut texts: Vec<(String, usize)> = std::fs::read_dir(&dir)
            .expect("the conformance examples are in the repository")
            .filter_map(|entry| entry.ok().map(|e| e.path()))
            .filter(|path| path.extension().is_some_and(|ext| ext == "ppn"))
            .filter_map(|path| std::fs::read_to_string(path).ok())
            .map(|text| (text, 3))
            .collect();
        assert!(texts.len() >= 10, "only {} examples", texts.len());
        texts.extend(
            [
                "---\r\nMacros:\r\n  m: 🂡@b2\r\n...\r\n1. `m' {🁣\r`m'} 2. `m\r",
                "---\nGameType: [unclosed\n...\n1. t@{b,d}{1..9999999} 2. ?@& `' }{",
                "\u{feff}🂡🁣\n\n---\n---\n...\n;;. 1. 2. @>",
                "",
            ]
            .map(|text| (text.to_string(), 1)),
        );
        texts
    }

    #[test]
    fn every_offset_gives_answers_about_that_offset() {
        use crate::ppn::features::{completion, hover, navigation};
        for (text, step) in sweep_texts() {
            let analysis = analysis(&text);
            for offset in (0..=text.len() + 1).step_by(step) {
                let mut boundary = offset.min(text.len());
                while !text.is_char_boundary(boundary) {
                    boundary -= 1;
                }
                if let Some(found) = hover::hover(&analysis, offset) {
                    assert!(touches(&found.range, offset), "{offset} {found:?}");
                    assert!(!found.markdown.is_empty());
                }
                for item in completion::completions(&analysis, offset) {
                    assert!(touches(&item.replace, boundary), "{offset} {item:?}");
                }
                let named = navigation::macro_at(&analysis, offset).map(|m| m.name);
                if let Some(key) = navigation::definition(&analysis, offset) {
                    assert_eq!(text.get(key).map(str::to_string), named);
                }
                for range in navigation::references(&analysis, offset, true) {
                    let written = text.get(range).unwrap_or_default();
                    let name = named.clone().unwrap_or_default();
                    assert!(
                        written == name || written == format!("`{name}'"),
                        "{written}"
                    );
                }
                let board = board_at(&analysis, offset).expect("every offset is in a game");
                let game = game_at(&analysis, offset).expect("every offset is in a game");
                assert!(game
                    .game
                    .states()
                    .any(|state| state.label == board.label && state.pieces() == board.pieces));
            }
        }
    }
}
