//! The board as something to play on and to read: its squares laid over the picture, the
//! squares a picked piece may go to, a move made on it written into the text, and the
//! board and each move in words for screen readers. Squares are named as moves name them
//! (`e5`); offsets are UTF-16 units, as everywhere in this crate.

use ppn_ls::ide::board_grid::{grid_json, targets_json, BoardGrid};
use ppn_ls::ide::viewer::{change_in_words_of, viewer_grid};
use ppn_ls::model::notation_document::{MoveAnswer, MoveRequest, Placement, StateRef};
use serde_json::{json, Value};
use wasm_bindgen::prelude::*;

use crate::{picture_options, Session};

#[wasm_bindgen]
impl Session {
    /// The squares of state `state` of game `game` as drawn (flipped or not): `{rows:
    /// [[{name, pieces, left, top, width, height}]], text}`, rows from the top of the
    /// picture, places as fractions of its size, pieces in words top first; `text` lists
    /// the occupied squares ("e4: white pawn"). `null` where there is no such board or it is
    /// too wide to play on.
    pub fn grid(&self, game: u32, state: u32, flipped: bool) -> String {
        match self.board_grid(game, state, flipped) {
            Some(grid) => grid_json(&grid).to_string(),
            None => "null".to_string(),
        }
    }

    /// What state `state` changed, in words ("the white pawn moves from e2 to e4"), for the
    /// page to announce; empty for a game's first board or where nothing changed.
    pub fn change(&self, game: u32, state: u32) -> String {
        let state = StateRef {
            game: game as usize,
            index: state as usize,
        };
        change_in_words_of(&*self.document, self.viewer_games(), state)
    }

    /// Where the piece on `from` may go on state `state`: `{"any": true}` where the
    /// notation has no rules to check (PPN's free moves), `{"only": [names]}`, or
    /// `{"readOnly": why}` where the document takes no move (a diagram of one position).
    pub fn targets(&self, game: u32, state: u32, from: &str) -> String {
        let at = StateRef {
            game: game as usize,
            index: state as usize,
        };
        targets_json(&self.document.legal_targets(at, from)).to_string()
    }

    /// A move made on the board from `from` to `to` on state `state`, written in the
    /// document's notation. `capture`: 1 takes what stands on `to`, 0 stacks on it, -1
    /// asks; `placement` (`insert`, `replace`, `variation`, or empty to ask) where the state
    /// is not its line's last. Answers `{"edit": {from, to, text, cursor, written}}` (UTF-16
    /// units of the text as it is: replace `from..to` by `text`; `cursor` is where the move
    /// lies in the new text), `{"ask": "capture-or-stack" | "insert-or-replace"}` or
    /// `{"refused": why}`.
    pub fn enter_move(
        &self,
        game: u32,
        state: u32,
        from: &str,
        to: &str,
        capture: i32,
        placement: &str,
    ) -> String {
        let request = MoveRequest {
            state: StateRef {
                game: game as usize,
                index: state as usize,
            },
            from: from.to_string(),
            to: to.to_string(),
            capture: match capture {
                0 => Some(false),
                1 => Some(true),
                _ => None,
            },
            placement: Placement::from_name(placement),
        };
        self.move_answer(self.document.enter_move(&request))
            .to_string()
    }
}

impl Session {
    fn board_grid(&self, game: u32, state: u32, flipped: bool) -> Option<BoardGrid> {
        let line_state = self.line_state(game, state)?;
        viewer_grid(&*self.document, line_state, &picture_options(flipped))
    }

    fn move_answer(&self, answer: MoveAnswer) -> Value {
        match answer {
            MoveAnswer::Edit {
                range,
                text,
                cursor,
                written,
            } => {
                let old = self.document.text();
                let (start, end) = (range.start.min(old.len()), range.end.min(old.len()));
                // The cursor counted in the new text: the text before the edit, then the
                // inserted text, then what followed it.
                let units = |s: &str| s.encode_utf16().count();
                let before = self.offsets.unit(old, start);
                let cursor_unit = if cursor <= start {
                    self.offsets.unit(old, cursor)
                } else if cursor <= start + text.len() {
                    before + units(&text[..cursor - start])
                } else {
                    let after = (cursor - start - text.len() + end).min(old.len());
                    before + units(&text) + self.offsets.unit(old, after)
                        - self.offsets.unit(old, end)
                };
                json!({"edit": {
                    "from": before,
                    "to": self.offsets.unit(old, end),
                    "text": text,
                    "cursor": cursor_unit,
                    "written": written,
                }})
            }
            MoveAnswer::Ask(question) => json!({"ask": question.name()}),
            MoveAnswer::Refused(why) => json!({"refused": why}),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opened(name: &str, text: &str) -> Session {
        let mut session = Session::new();
        session.open(name, text.to_string());
        session
    }

    fn answer(
        session: &Session,
        state: u32,
        from: &str,
        to: &str,
        capture: i32,
        placement: &str,
    ) -> Value {
        serde_json::from_str(&session.enter_move(0, state, from, to, capture, placement)).unwrap()
    }

    /// The text after applying an `edit` answer, counted in UTF-16 units as the page does.
    fn applied(text: &str, edit: &Value) -> (String, usize) {
        let units: Vec<u16> = text.encode_utf16().collect();
        let (from, to) = (
            edit["from"].as_u64().unwrap() as usize,
            edit["to"].as_u64().unwrap() as usize,
        );
        let mut new: Vec<u16> = units[..from].to_vec();
        new.extend(edit["text"].as_str().unwrap().encode_utf16());
        new.extend(&units[to..]);
        (
            String::from_utf16(&new).unwrap(),
            edit["cursor"].as_u64().unwrap() as usize,
        )
    }

    #[test]
    fn a_grid_names_each_square_and_lists_the_pieces_in_words() {
        let session = opened("a.ppn", "---\nGameType: Chess\n...\n1. e2-e4\n");
        let grid: Value = serde_json::from_str(&session.grid(0, 1, false)).unwrap();
        assert_eq!(grid["rows"].as_array().unwrap().len(), 8);
        assert_eq!(grid["rows"][0][0]["name"], "a8");
        let e4 = grid["rows"][4][4].clone();
        assert_eq!(e4["name"], "e4");
        assert_eq!(e4["pieces"].as_array().unwrap().len(), 1);
        assert!(grid["text"]
            .as_array()
            .unwrap()
            .iter()
            .any(|line| line.as_str().unwrap().starts_with("e4: ")));
        assert_eq!(session.grid(0, 99, false), "null");
        let flipped: Value = serde_json::from_str(&session.grid(0, 1, true)).unwrap();
        assert_eq!(flipped["rows"][0][0]["name"], "h1");
        assert!(
            session.change(0, 1).contains("moves from e2 to e4"),
            "{}",
            session.change(0, 1)
        );
        assert_eq!(session.change(0, 0), "");
    }

    #[test]
    fn a_move_on_the_board_is_written_where_the_page_applies_it() {
        // A wide character before the move: UTF-16 units and bytes differ.
        let text = "---\nGameType: Chess\n...\n1. e2-e4 {🂡 open}\n";
        let session = opened("a.ppn", text);
        let edit = answer(&session, 1, "d7", "d5", -1, "");
        let (new, cursor) = applied(text, &edit["edit"]);
        assert!(new.contains("d7-d5"), "{new}");
        let units: Vec<u16> = new.encode_utf16().collect();
        let at_cursor = String::from_utf16(&units[..cursor]).unwrap();
        assert!(
            new[at_cursor.len()..].starts_with("d7-d5")
                || at_cursor.ends_with("d7-d5")
                || new[at_cursor.len()..].contains("d7-d5"),
            "{new:?} at {cursor}"
        );
        // The move written is read back as the next state.
        let mut check = Session::new();
        let summary: Value = serde_json::from_str(&check.open("a.ppn", new)).unwrap();
        assert_eq!(summary["games"][0]["states"].as_array().unwrap().len(), 3);
        // Onto an occupied square: asked, then each answer written.
        assert_eq!(
            answer(&session, 1, "e4", "e7", -1, "")["ask"],
            "capture-or-stack"
        );
        assert!(answer(&session, 1, "e4", "e7", 1, "")["edit"]["written"]
            .as_str()
            .unwrap()
            .contains(':'));
        // On an earlier state: asked where it goes.
        assert_eq!(
            answer(&session, 0, "d2", "d4", -1, "")["ask"],
            "insert-or-replace"
        );
        assert!(answer(&session, 0, "d2", "d4", -1, "replace")["edit"].is_object());
        // Nothing there: refused, with why.
        assert!(
            answer(&session, 1, "d4", "d5", -1, "")["refused"]
                .as_str()
                .unwrap()
                .len()
                > 5
        );
    }

    #[test]
    fn tafl_targets_are_the_rules_and_an_illegal_move_is_refused() {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../examples/brandubh-short.otg"
        ))
        .unwrap();
        let session = opened("brandubh-short.otg", &text);
        let targets: Value = serde_json::from_str(&session.targets(0, 0, "d2")).unwrap();
        let only = targets["only"].as_array().unwrap();
        assert!(!only.is_empty(), "{targets}");
        let target = only[0].as_str().unwrap();
        let refused = answer(&session, 0, "d2", "a1", -1, "variation");
        assert!(refused["refused"].is_string(), "{refused}");
        let written = answer(&session, 0, "d2", target, -1, "variation");
        assert!(written["edit"]["written"].is_string(), "{written}");
        let any: Value = serde_json::from_str(
            &opened("a.ppn", "---\nGameType: Chess\n...\n").targets(0, 0, "e2"),
        )
        .unwrap();
        assert_eq!(any["any"], true);
    }
}
