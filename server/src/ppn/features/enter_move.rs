//! A move made on the board, written as PPN writes it: `e2-e4`, or `e2:e4` for the
//! displacement capture onto an occupied square (`e2-e4` there stacks the piece on top).
//! PPN's moves are free: any square may be a target, and the move is written as made.
//!
//! A move on the game's last state extends the game, numbered after the move before it
//! (`3...` after `3.` in a game that numbers replies so, else `4.`). On an earlier state it
//! is inserted after that state (with the `.` shortcut, the label before it and a period,
//! so no later MoveNumber is repeated; a move before the first one is a setup move), or
//! replaces every later move.

use std::ops::Range;

use crate::model::notation_document::{
    MoveAnswer, MoveQuestion, MoveRequest, Placement, StateRef, Targets,
};
use crate::model::piece::PieceKind;
use crate::ppn::document::PpnDocument;
use crate::ppn::reader::movetext::{is_movetext_whitespace, MoveRecord};
use crate::render::words::square_of_name;

/// Every square is a target: PPN checks no rules of the game.
pub fn legal_targets(document: &PpnDocument, state: StateRef, from: &str) -> Targets {
    match pieces_on(document, state, from) {
        Some(count) if count > 0 => Targets::Any,
        _ => Targets::Only(Vec::new()),
    }
}

/// How many pieces (not boards or tiles, which are the board) stand on `square` in
/// `state`; `None` when there is no such state or the name is no square.
fn pieces_on(document: &PpnDocument, state: StateRef, square: &str) -> Option<usize> {
    let (x, y) = square_of_name(square)?;
    let game = document.replay.games.get(state.game)?;
    let replayed = game.state(state.index)?;
    let on = replayed.pieces().iter().filter(|piece| {
        !matches!(piece.kind, PieceKind::Board | PieceKind::Tile)
            && (piece.x - x as f64).abs() < 0.25
            && (piece.y - y as f64).abs() < 0.25
    });
    Some(on.count())
}

pub fn enter_move(document: &PpnDocument, request: &MoveRequest) -> MoveAnswer {
    let state = request.state;
    let (Some(game), Some(source)) = (
        document.replay.games.get(state.game),
        document.game_sources().get(state.game),
    ) else {
        return MoveAnswer::Refused("there is no such game".to_string());
    };
    if square_of_name(&request.from).is_none() || square_of_name(&request.to).is_none() {
        return MoveAnswer::Refused(format!(
            "{} → {} are not squares of the board",
            request.from, request.to
        ));
    }
    match pieces_on(document, state, &request.from) {
        None => return MoveAnswer::Refused("there is no such state".to_string()),
        Some(0) => {
            return MoveAnswer::Refused(format!("there is no piece on {}", request.from));
        }
        Some(_) => {}
    }
    if request.from == request.to {
        return MoveAnswer::Refused("a move goes to another square".to_string());
    }
    let occupied = pieces_on(document, state, &request.to).unwrap_or(0) > 0;
    let token = match (occupied, request.capture) {
        (true, None) => return MoveAnswer::Ask(MoveQuestion::CaptureOrStack),
        (true, Some(true)) => ":",
        _ => "-",
    };
    let written = format!("{}{token}{}", request.from, request.to);
    let moves = game.moves();
    let text = &document.text;
    let movetext_end = trimmed_end(text, &source.movetext);
    // The state after move `index - 1` (0 is the start): the moves before it stay.
    let before = &moves[..state.index.min(moves.len())];
    let at_end = state.index >= moves.len();
    if at_end {
        return appended(
            text,
            &source.movetext,
            movetext_end,
            (before, moves),
            &written,
        );
    }
    match request.placement {
        None => MoveAnswer::Ask(MoveQuestion::InsertOrReplace),
        Some(Placement::ReplaceRest) => {
            let from = before
                .last()
                .map_or(source.movetext.start, |last| last.source().end);
            let mut answer = appended(text, &source.movetext, from, (before, moves), &written);
            if let MoveAnswer::Edit { range, .. } = &mut answer {
                *range = from..movetext_end;
            }
            answer
        }
        Some(Placement::Insert | Placement::Variation) => match before.last() {
            Some(last) => {
                let at = last.source().end;
                let inserted = format!(" . {written}");
                MoveAnswer::Edit {
                    range: at..at,
                    cursor: at + inserted.len() - written.len(),
                    text: inserted,
                    written,
                }
            }
            // Before the first move: a setup move, played before it.
            None => {
                let at = moves[0].source().start;
                MoveAnswer::Edit {
                    range: at..at,
                    cursor: at,
                    text: format!("{written} "),
                    written,
                }
            }
        },
    }
}

/// The end of `range` of `text` with its trailing whitespace left out.
fn trimmed_end(text: &str, range: &Range<usize>) -> usize {
    let trimmed = text[range.clone()].trim_end_matches(is_movetext_whitespace);
    range.start + trimmed.len()
}

/// `written` appended at `at` (the end of the game's moves so far), numbered after
/// `before`, the moves it follows, as the game's `moves` number theirs.
fn appended(
    text: &str,
    movetext: &Range<usize>,
    at: usize,
    (before, moves): (&[MoveRecord], &[MoveRecord]),
    written: &str,
) -> MoveAnswer {
    let label = next_label(before, moves);
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    // A new line once the line would grow past a formatter's width.
    let separator = if at == movetext.start || text[movetext.start..at].trim().is_empty() {
        ""
    } else if at - line_start + label.len() + written.len() + 2 > 80 {
        "\n"
    } else {
        " "
    };
    let mut inserted = format!("{separator}{label} {written}");
    if at == text.len() {
        // The file's last line keeps its line end.
        inserted.push('\n');
    }
    let cursor = at + separator.len() + label.len() + 1;
    MoveAnswer::Edit {
        range: at..at,
        cursor,
        text: inserted,
        written: written.to_string(),
    }
}

/// The MoveNumber of a move after `before`: `1.` for the first; after `3.`, `3...` in a game
/// whose `moves` number replies so, else `4.`; after `3...`, `4.`; after any other label
/// the `.` shortcut (the label before and a period).
fn next_label(before: &[MoveRecord], moves: &[MoveRecord]) -> String {
    let Some(last) = before.last() else {
        return "1.".to_string();
    };
    let number_with = |label: &str, dots: &str| -> Option<u64> {
        label
            .strip_suffix(dots)
            .filter(|digits| !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|digits| digits.parse().ok())
    };
    let label = last.label();
    if let Some(n) = number_with(label, "...") {
        return format!("{}.", n + 1);
    }
    if let Some(n) = number_with(label, ".") {
        let replies = moves
            .iter()
            .any(|record| number_with(record.label(), "...").is_some());
        return if replies {
            format!("{n}...")
        } else {
            format!("{}.", n + 1)
        };
    }
    if last.label_source().is_none() {
        // Moves before any MoveNumber are the setup.
        return "1.".to_string();
    }
    ".".to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::edit::with_replacements;

    fn entered(
        text: &str,
        state: usize,
        from: &str,
        to: &str,
        more: impl Fn(&mut MoveRequest),
    ) -> Result<String, MoveAnswer> {
        let document = PpnDocument::new(text.to_string());
        let mut request = MoveRequest {
            state: StateRef {
                game: 0,
                index: state,
            },
            from: from.to_string(),
            to: to.to_string(),
            ..MoveRequest::default()
        };
        more(&mut request);
        match enter_move(&document, &request) {
            MoveAnswer::Edit {
                range,
                text: new,
                cursor,
                written,
            } => {
                let edited = with_replacements(text, &[(range, new)]);
                assert!(
                    edited[cursor..].starts_with(&written),
                    "{edited:?} at {cursor}"
                );
                // The move written is one the document now replays without a problem.
                let after = PpnDocument::new(edited.clone());
                assert!(
                    after.diagnostics.is_empty(),
                    "{edited}: {:?}",
                    after.diagnostics
                );
                Ok(edited)
            }
            other => Err(other),
        }
    }

    const CHESS: &str = "---\nGameType: Chess\n...\n1. e2-e4 1... e7-e5\n";

    #[test]
    fn a_move_at_the_end_is_numbered_after_the_last() {
        assert_eq!(
            entered(CHESS, 2, "g1", "f3", |_| {}).unwrap(),
            "---\nGameType: Chess\n...\n1. e2-e4 1... e7-e5 2. g1-f3\n"
        );
        let white = "---\nGameType: Chess\n...\n1. e2-e4 1... e7-e5 2. g1-f3\n";
        assert_eq!(
            entered(white, 3, "b8", "c6", |_| {}).unwrap(),
            "---\nGameType: Chess\n...\n1. e2-e4 1... e7-e5 2. g1-f3 2... b8-c6\n"
        );
        // A game with no move yet.
        assert_eq!(
            entered("---\nGameType: Chess\n...\n", 0, "e2", "e4", |_| {}).unwrap(),
            "---\nGameType: Chess\n...\n1. e2-e4\n"
        );
    }

    #[test]
    fn onto_an_occupied_square_it_asks_then_takes_or_stacks() {
        let text = "---\n...\n1. S@b2 M@c3\n";
        assert_eq!(
            entered(text, 1, "b2", "c3", |_| {}),
            Err(MoveAnswer::Ask(MoveQuestion::CaptureOrStack))
        );
        assert_eq!(
            entered(text, 1, "b2", "c3", |r| r.capture = Some(true)).unwrap(),
            "---\n...\n1. S@b2 M@c3 2. b2:c3\n"
        );
        assert_eq!(
            entered(text, 1, "b2", "c3", |r| r.capture = Some(false)).unwrap(),
            "---\n...\n1. S@b2 M@c3 2. b2-c3\n"
        );
    }

    #[test]
    fn on_an_earlier_state_it_asks_then_inserts_or_replaces_the_rest() {
        assert_eq!(
            entered(CHESS, 1, "d7", "d5", |_| {}),
            Err(MoveAnswer::Ask(MoveQuestion::InsertOrReplace))
        );
        assert_eq!(
            entered(CHESS, 1, "d7", "d5", |r| r.placement =
                Some(Placement::ReplaceRest))
            .unwrap(),
            "---\nGameType: Chess\n...\n1. e2-e4 1... d7-d5\n"
        );
        let inserted = PpnDocument::new(
            entered(CHESS, 1, "g1", "f3", |r| {
                r.placement = Some(Placement::Insert);
            })
            .unwrap_or_else(|answer| panic!("{answer:?}")),
        );
        let labels: Vec<&str> = inserted.replay.games[0]
            .moves()
            .iter()
            .map(|m| m.label())
            .collect();
        assert_eq!(labels, ["1.", "1..", "1..."]);
    }

    #[test]
    fn nothing_to_move_is_refused_with_why() {
        let Err(MoveAnswer::Refused(why)) = entered(CHESS, 2, "d4", "d5", |_| {}) else {
            panic!("moved from an empty square");
        };
        assert_eq!(why, "there is no piece on d4");
    }
}
