//! A move made on the board, written as OpenTafl writes it (`a4-a3`, with the captures the
//! rules compute: `f1-f3xe3`), by the rules the record's rules string describes: the legal
//! targets of a man are where the rules let it go, and an illegal move is refused with the
//! reason.
//!
//! A move on a line's last state extends the line (a reply on its turn's line, the next
//! turn on a line of its own); on an earlier state it starts a variation there, as OpenTafl
//! writes them (`3b.1.1b. ..... c4-c6` on the line after the turn it branches from).

use std::ops::Range;

use crate::model::notation_document::{MoveAnswer, MoveRequest, StateRef, Targets};
use crate::otn::board::{Man, Square, TaflSide};
use crate::otn::document::OtnDocument;
use crate::otn::reader::moves::{capture_record, MoveType};
use crate::otn::reader::{AddressMove, LinePath};
use crate::otn::replay::{illegality, Line};
use crate::otn::rules::{apply, destinations, man_at};
use crate::otn::variant::Rules;
use crate::render::words::square_of_name;

/// The line, the index of the state in it, and the rules, for `state`.
fn located(document: &OtnDocument, state: StateRef) -> Option<(&Line, usize, &Rules)> {
    if state.game != 0 {
        return None;
    }
    let rules = &document.replay.rules.as_ref()?.rules;
    let (line, index) = document.replay.locate(state.index)?;
    Some((&document.replay.lines[line], index, rules))
}

/// A square's index on the board, from the grid's name (`a1` is index 0).
fn square(rules: &Rules, name: &str) -> Option<usize> {
    let (x, y) = square_of_name(name)?;
    let square = Square::new(usize::try_from(x - 1).ok()?, usize::try_from(y - 1).ok()?);
    square.on_board(rules.dim).then(|| square.index(rules.dim))
}

pub fn legal_targets(document: &OtnDocument, state: StateRef, from: &str) -> Targets {
    let targets = (|| {
        let (line, index, rules) = located(document, state)?;
        let board = line.board(index);
        let from = square(rules, from)?;
        let man = man_at(&board, from)?;
        let ply = line.plies.at(index);
        let allowed = |to: usize| {
            illegality(rules, &board, (from, to), man, ply.next_side, ply.berserker).is_none()
        };
        Some(
            destinations(rules, &board, from)
                .into_iter()
                .filter(|&(to, _)| allowed(to))
                .map(|(to, _)| Square::of_index(to, rules.dim).name())
                .collect(),
        )
    })();
    Targets::Only(targets.unwrap_or_default())
}

pub fn enter_move(document: &OtnDocument, request: &MoveRequest) -> MoveAnswer {
    let Some((line, index, rules)) = located(document, request.state) else {
        return MoveAnswer::Refused("there is no such state (or the record has no rules)".into());
    };
    let (Some(from), Some(to)) = (square(rules, &request.from), square(rules, &request.to)) else {
        return MoveAnswer::Refused(format!(
            "{} → {} are not squares of the {}×{} board",
            request.from, request.to, rules.dim, rules.dim
        ));
    };
    let mut board = line.board(index);
    let Some(man) = man_at(&board, from) else {
        return MoveAnswer::Refused(format!("there is no man on {}", request.from));
    };
    let ply = line.plies.at(index);
    if let Some(why) = illegality(rules, &board, (from, to), man, ply.next_side, ply.berserker) {
        let mut words = String::new();
        why.push_words(rules, &mut words);
        return MoveAnswer::Refused(words);
    }
    let outcome = apply(rules, &mut board, from, to);
    let captured: Vec<(Square, Man)> = (outcome.captures.iter())
        .map(|&(at, man)| (Square::of_index(at, rules.dim), man))
        .collect();
    let written = format!(
        "{}{}{}{}",
        request.from,
        MoveType::of(outcome.jump, ply.berserker.is_some()).symbol(),
        request.to,
        capture_record(&captured)
    );
    if index + 1 >= line.plies.len() {
        extended(document, line, rules, written)
    } else {
        variation(document, line, index, written)
    }
}

/// The end of the file's turn `turn` of `line`'s turns, commentary included, in the text.
fn turn_end(document: &OtnDocument, turn: usize) -> usize {
    let (read, shift) = document.file.turns.as_read(turn);
    let end = read
        .commentary
        .as_ref()
        .map_or(read.range.end, |commentary| commentary.range.end);
    crate::otn::reader::moves::shift_range(&(end..end), shift).end
}

/// `written` after the last move of `line`.
fn extended(document: &OtnDocument, line: &Line, rules: &Rules, written: String) -> MoveAnswer {
    let last = line.plies.at(line.plies.len() - 1);
    let start_side = if rules.attackers_first {
        TaflSide::Attackers
    } else {
        TaflSide::Defenders
    };
    let last_mover = line
        .plies
        .len()
        .checked_sub(2)
        .map(|before| line.plies.at(before).next_side);
    let new_turn = line.plies.len() == 1
        || (last.next_side == start_side
            && last.berserker.is_none()
            && last_mover != Some(start_side));
    let text = &document.text;
    match line.turns.last() {
        Some(&turn) if !new_turn => {
            // The turn's second move: on its line, after its first.
            let (read, shift) = document.file.turns.as_read(turn);
            let at = crate::otn::reader::moves::shift_range(&read.range, shift).end;
            edit(at..at, format!(" {written}"), written)
        }
        last_turn => {
            let number = if line.plies.len() == 1 {
                1
            } else {
                last.address.turn + 1
            };
            let address = if line.path.is_main() {
                format!("{number}.")
            } else {
                format!("{}{number}a.", line.path.prefix())
            };
            // With no turn yet the first goes after the tags and any blank lines the user left.
            let at = last_turn.map_or(text.len(), |&turn| turn_end(document, turn));
            let before = if at == 0 || text[..at].ends_with('\n') {
                ""
            } else {
                "\n"
            };
            let after = if text[at..].starts_with('\n') {
                ""
            } else {
                "\n"
            };
            let inserted = format!("{before}{address} {written}{after}");
            edit(at..at, inserted, written)
        }
    }
}

/// `written` as the first move of a new variation off the move after state `index` of
/// `line`, on the line after that move's turn.
fn variation(document: &OtnDocument, line: &Line, index: usize, written: String) -> MoveAnswer {
    let replaced: AddressMove = line.plies.at(index + 1).address;
    let mut path: Vec<(AddressMove, u32)> = line.path.0.clone();
    // The next free variation number off that move.
    let taken = (document.replay.lines.iter())
        .filter_map(|other| {
            let (last, number) = other.path.0.last()?;
            (other.path.0.len() == path.len() + 1
                && other.path.0[..path.len()] == path[..]
                && *last == replaced)
                .then_some(*number)
        })
        .max()
        .unwrap_or(0);
    path.push((replaced, taken + 1));
    let letter = char::from(b'a' + replaced.letter.min(25));
    let placeholders = "..... ".repeat(usize::from(replaced.letter));
    let address = format!("{}1{letter}.", LinePath(path).prefix());
    // After the turn holding the replaced move (and the variations already after it).
    let turn_of_move = line
        .turns
        .iter()
        .copied()
        .find(|&turn| {
            let (read, _) = document.file.turns.as_read(turn);
            read.address.turn == replaced.turn
        })
        .or_else(|| line.turns.last().copied());
    let text = &document.text;
    let at = turn_of_move.map_or(text.len(), |turn| turn_end(document, turn));
    let inserted = format!("\n{address} {placeholders}{written}");
    edit(at..at, inserted, written)
}

fn edit(range: Range<usize>, text: String, written: String) -> MoveAnswer {
    let cursor = range.start + text.rfind(&written).unwrap_or(0);
    MoveAnswer::Edit {
        range,
        text,
        cursor,
        written,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::edit::with_replacements;
    use crate::model::notation_document::NotationDocument;

    const BRANDUBH: &str =
        "[rules:dim:7 name:Brandubh ks:w cenh: cenhe: start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]\n\n";

    fn request(index: usize, from: &str, to: &str) -> MoveRequest {
        MoveRequest {
            state: StateRef { game: 0, index },
            from: from.to_string(),
            to: to.to_string(),
            ..MoveRequest::default()
        }
    }

    fn written(text: &str, request: &MoveRequest) -> String {
        let document = OtnDocument::new(text.to_string());
        match document.enter_move(request) {
            MoveAnswer::Edit {
                range,
                text: new,
                cursor,
                written,
            } => {
                let edited = with_replacements(text, &[(range, new)]);
                assert!(edited[cursor..].starts_with(&written), "{edited:?}");
                let after = OtnDocument::new(edited.clone());
                let errors: Vec<_> = (after.diagnostics().iter())
                    .filter(|d| d.severity == crate::diagnostic::Severity::Error)
                    .collect();
                assert!(errors.is_empty(), "{edited}\n{errors:?}");
                edited
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn moves_at_the_end_extend_the_turn_then_start_the_next() {
        let first = written(BRANDUBH, &request(0, "d2", "c2"));
        assert!(first.ends_with("\n1. d2-c2\n"), "{first}");
        let reply = written(&first, &request(1, "c4", "c3"));
        assert!(reply.ends_with("\n1. d2-c2 c4-c3\n"), "{reply}");
        let next = written(&reply, &request(2, "d1", "c1"));
        assert!(next.ends_with("\n1. d2-c2 c4-c3\n2. d1-c1\n"), "{next}");
    }

    #[test]
    fn a_capture_is_written_as_opentafl_writes_it() {
        let text = format!("{BRANDUBH}1. d2-c2 c4-c3\n2. d1-c1\n");
        // The defender on b... moves so that an attacker ends between two defenders.
        let document = OtnDocument::new(text.clone());
        let Targets::Only(targets) = document.legal_targets(StateRef { game: 0, index: 3 }, "e4")
        else {
            panic!("tafl names its targets");
        };
        assert!(!targets.is_empty());
        let Targets::Only(none) = document.legal_targets(StateRef { game: 0, index: 3 }, "d2")
        else {
            panic!();
        };
        assert!(
            none.is_empty(),
            "an attacker's man on the defenders' turn: {none:?}"
        );
    }

    #[test]
    fn an_earlier_move_starts_a_variation() {
        let text = format!("{BRANDUBH}1. d2-c2 c4-c3\n2. d1-c1\n");
        let varied = written(&text, &request(1, "c4", "c5"));
        assert!(
            varied.contains("1. d2-c2 c4-c3\n1b.1.1b. ..... c4-c5\n2. d1-c1"),
            "{varied}"
        );
        let document = OtnDocument::new(varied);
        assert_eq!(document.variations(0).len(), 1);
    }

    #[test]
    fn illegal_moves_are_refused_with_the_rules_reason() {
        let document = OtnDocument::new(format!("{BRANDUBH}1. d2-c2\n"));
        let MoveAnswer::Refused(why) = document.enter_move(&request(1, "d1", "d2")) else {
            panic!("the attackers moved twice");
        };
        assert_eq!(why, "the defenders are to move");
    }
}
