//! A move made on the board, written as WXF writes it (`C2.5`), by the rules of xiangqi:
//! the legal targets of a piece are its legal moves, and an illegal move is refused with the
//! reason. A diagram of one position (annoFEN, XAY, FEN) takes no move.
//!
//! A move on the record's last state extends it (Black's reply on its move's line, a new
//! numbered line for Red's move); on an earlier state it is inserted there (the later moves
//! follow, checked again) or replaces every later move, and the moves from there on are
//! laid out anew, one numbered pair a line.

use std::fmt::Write as _;

use crate::model::format::Format;
use crate::model::notation_document::{
    MoveAnswer, MoveQuestion, MoveRequest, Placement, StateRef, Targets,
};
use crate::xiangqi::board::{Board, Point, Side};
use crate::xiangqi::document::XiangqiDocument;
use crate::xiangqi::replay::{move_number, side_of};
use crate::xiangqi::rules::{check_move, legal_moves};
use crate::xiangqi::wxf_move::write_move;

/// The board of `state` and the side to move there.
fn position(document: &XiangqiDocument, state: StateRef) -> Option<(Board, Side)> {
    if state.game != 0 {
        return None;
    }
    let board = document.board_at_state(state.index)?;
    Some((board, side_of(document.first_side(), state.index)))
}

pub fn legal_targets(document: &XiangqiDocument, state: StateRef, from: &str) -> Targets {
    if document.parsed.format != Format::Wxf {
        return Targets::ReadOnly(diagram_takes_no_move(document));
    }
    let targets = (|| {
        let (board, side) = position(document, state)?;
        let from = Point::parse(from)?;
        let moves = legal_moves(&board, side);
        Some(
            moves
                .into_iter()
                .filter(|(start, _)| *start == from)
                .map(|(_, to)| to.name())
                .collect(),
        )
    })();
    Targets::Only(targets.unwrap_or_default())
}

fn diagram_takes_no_move(document: &XiangqiDocument) -> String {
    format!(
        "{} is a diagram of one position: moves are written in a WXF record",
        document.parsed.format.title()
    )
}

pub fn enter_move(document: &XiangqiDocument, request: &MoveRequest) -> MoveAnswer {
    if document.parsed.format != Format::Wxf {
        return MoveAnswer::Refused(diagram_takes_no_move(document));
    }
    let Some((board, side)) = position(document, request.state) else {
        return MoveAnswer::Refused("there is no such state".to_string());
    };
    let (Some(from), Some(to)) = (Point::parse(&request.from), Point::parse(&request.to)) else {
        return MoveAnswer::Refused(format!(
            "{} → {} are not points of the board",
            request.from, request.to
        ));
    };
    let Some(man) = board.get(from) else {
        return MoveAnswer::Refused(format!("there is no piece on {}", request.from));
    };
    if man.side != side {
        return MoveAnswer::Refused(format!(
            "it is {}'s move, and the {} is {}'s",
            side.name(),
            man.describe(),
            man.side.name()
        ));
    }
    if let Err(illegal) = check_move(&board, from, to) {
        return MoveAnswer::Refused(illegal.to_string());
    }
    if !legal_moves(&board, side).contains(&(from, to)) {
        return MoveAnswer::Refused(format!(
            "the move leaves {}'s general in check",
            side.name()
        ));
    }
    let Some(written) =
        write_move(&board, from, to).map(|text| in_records_case(document, side, text))
    else {
        return MoveAnswer::Refused(format!(
            "WXF cannot write the {}'s move {}–{}",
            man.describe(),
            request.from,
            request.to
        ));
    };
    let moves = document.written_moves();
    let index = request.state.index;
    if index >= moves.len() {
        return appended(document, &written);
    }
    match request.placement {
        None => MoveAnswer::Ask(MoveQuestion::InsertOrReplace),
        Some(placement) => laid_out_anew(document, index, &written, placement),
    }
}

/// `text` in the case the record writes `side`'s moves in: a record that writes Black's
/// moves in upper case (as some software does) gets one more so.
fn in_records_case(document: &XiangqiDocument, side: Side, text: String) -> String {
    if side != Side::Black {
        return text;
    }
    let first = document.first_side();
    let record = &document.text;
    let upper = (document.written_moves().iter().enumerate())
        .filter(|(index, _)| side_of(first, *index) == Side::Black)
        .last()
        .and_then(|(_, written)| {
            written
                .text(record)
                .chars()
                .find(|c| c.is_ascii_alphabetic())
        })
        .is_some_and(|c| c.is_ascii_uppercase());
    if upper {
        text.to_ascii_uppercase()
    } else {
        text
    }
}

/// `written` after the record's last move.
fn appended(document: &XiangqiDocument, written: &str) -> MoveAnswer {
    let text = &document.text;
    let moves = document.written_moves();
    let first = document.first_side();
    let count = moves.len();
    let Some(block) = document.parsed.moves_blocks.first() else {
        // No moves block yet: one at the end of the record.
        let mut at = text.len();
        let mut inserted = String::new();
        if !text.ends_with('\n') && !text.is_empty() {
            inserted.push('\n');
        }
        inserted.push_str("START{\n");
        let cursor_in = inserted.len() + numbered(first, 0).len();
        let _ = writeln!(inserted, "{}{written}", numbered(first, 0));
        inserted.push_str("}END\n");
        at = at.min(text.len());
        return MoveAnswer::Edit {
            range: at..at,
            cursor: at + cursor_in,
            text: inserted,
            written: written.to_string(),
        };
    };
    let (at, inserted) = match moves.get(count.wrapping_sub(1)) {
        // Black's reply goes on its move's line.
        Some(last) if side_of(first, count) == Side::Black => {
            (last.range.end, format!(" {written}"))
        }
        Some(last) => (
            last.range.end,
            format!("\n{}{written}", numbered(first, count)),
        ),
        None => (
            block.body.start,
            format!("\n{}{written}", numbered(first, 0)),
        ),
    };
    MoveAnswer::Edit {
        range: at..at,
        cursor: at + inserted.len() - written.len(),
        text: inserted,
        written: written.to_string(),
    }
}

/// The number a line starting with move `index` begins with, as WXF records write it.
fn numbered(first: Side, index: usize) -> String {
    format!("{:>2}. ", move_number(first, index))
}

/// The moves block from move `index` on laid out anew with `written` inserted there (the
/// later moves after it) or in place of every later move.
fn laid_out_anew(
    document: &XiangqiDocument,
    index: usize,
    written: &str,
    placement: Placement,
) -> MoveAnswer {
    let text = &document.text;
    let moves: Vec<String> = document
        .written_moves()
        .iter()
        .map(|m| m.text(text).to_string())
        .collect();
    let Some(block) = document.parsed.moves_blocks.first() else {
        return MoveAnswer::Refused("the record has no moves block".to_string());
    };
    let mut all: Vec<&str> = moves[..index].iter().map(String::as_str).collect();
    all.push(written);
    if placement != Placement::ReplaceRest {
        all.extend(moves[index..].iter().map(String::as_str));
    }
    let first = document.first_side();
    let mut body = String::from("\n");
    let mut cursor = 0;
    let mut line = String::new();
    for (at, word) in all.iter().enumerate() {
        if side_of(first, at) == Side::Red || at == 0 {
            if !line.is_empty() {
                body.push_str(line.trim_end());
                body.push('\n');
                line.clear();
            }
            line.push_str(&numbered(first, at));
        }
        if at == index {
            cursor = body.len() + line.len();
        }
        line.push_str(word);
        line.push(' ');
    }
    body.push_str(line.trim_end());
    body.push('\n');
    MoveAnswer::Edit {
        range: block.body.clone(),
        cursor: block.body.start + cursor,
        text: body,
        written: written.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::edit::with_replacements;
    use crate::model::notation_document::NotationDocument;

    const RECORD: &str = "FORMAT WXF\nFEN rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR r\nSTART{\n 1. C2.5 H8+7\n 2. H2+3\n}END\n";

    fn request(index: usize, from: &str, to: &str) -> MoveRequest {
        MoveRequest {
            state: StateRef { game: 0, index },
            from: from.to_string(),
            to: to.to_string(),
            ..MoveRequest::default()
        }
    }

    fn written(text: &str, request: &MoveRequest) -> String {
        let document = XiangqiDocument::new(Format::Wxf, text.to_string());
        match document.enter_move(request) {
            MoveAnswer::Edit {
                range,
                text: new,
                cursor,
                written,
            } => {
                let edited = with_replacements(text, &[(range, new)]);
                assert!(edited[cursor..].starts_with(&written), "{edited:?}");
                edited
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_reply_at_the_end_goes_on_its_moves_line_and_a_red_move_on_a_new_one() {
        // Black's chariot on i9 to h9 (`R9.8`, in upper case as the record writes Black's
        // moves) after 2. H2+3.
        let black = written(RECORD, &request(3, "i9", "h9"));
        assert!(black.contains(" 2. H2+3 R9.8\n}END"), "{black}");
        let red = written(&black, &request(4, "i0", "h0"));
        assert!(red.contains(" 2. H2+3 R9.8\n 3. R1.2\n}END"), "{red}");
        let document = XiangqiDocument::new(Format::Wxf, red);
        assert!(
            document.diagnostics().is_empty(),
            "{:?}",
            document.diagnostics()
        );
    }

    #[test]
    fn illegal_moves_are_refused_with_the_rules_reason() {
        let document = XiangqiDocument::new(Format::Wxf, RECORD.to_string());
        let MoveAnswer::Refused(why) = document.enter_move(&request(3, "a0", "a5")) else {
            panic!("Red moved on Black's turn");
        };
        assert!(why.starts_with("it is Black's move"), "{why}");
        let MoveAnswer::Refused(why) = document.enter_move(&request(3, "b9", "b5")) else {
            panic!("a horse moved as a chariot");
        };
        assert!(!why.is_empty());
        let Targets::Only(targets) = document.legal_targets(StateRef { game: 0, index: 3 }, "b9")
        else {
            panic!("xiangqi names its targets");
        };
        assert!(
            targets.contains(&"a7".to_string()) || targets.contains(&"c7".to_string()),
            "{targets:?}"
        );
    }

    #[test]
    fn an_earlier_move_is_inserted_or_replaces_the_rest() {
        let document = XiangqiDocument::new(Format::Wxf, RECORD.to_string());
        assert_eq!(
            document.enter_move(&request(1, "b9", "c7")),
            MoveAnswer::Ask(MoveQuestion::InsertOrReplace)
        );
        let mut replace = request(1, "i9", "i8");
        replace.placement = Some(Placement::ReplaceRest);
        let replaced = written(RECORD, &replace);
        assert!(
            replaced.contains("START{\n 1. C2.5 R9+1\n}END"),
            "{replaced}"
        );
        let mut insert = request(1, "i9", "i8");
        insert.placement = Some(Placement::Insert);
        let inserted = written(RECORD, &insert);
        assert!(
            inserted.contains("START{\n 1. C2.5 R9+1\n 2. H8+7 H2+3\n}END"),
            "{inserted}"
        );
    }

    #[test]
    fn a_diagram_takes_no_move() {
        let document = XiangqiDocument::new(
            Format::Fen,
            "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w\n".to_string(),
        );
        assert!(matches!(
            document.enter_move(&request(0, "h2", "e2")),
            MoveAnswer::Refused(_)
        ));
    }
}
