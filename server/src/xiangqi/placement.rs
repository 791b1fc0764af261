//! Warnings about a position as drawn: pieces where the rules never let them stand, more
//! pieces than a set has, markers that do not fit their point, arrows off the board.
//!
//! A diagram may show Red at the top (a board seen from Black's side); when Red's general
//! stands in the upper palace the checks read the board turned round.

use std::collections::HashMap;

use crate::diagnostic::Diagnostic;
use crate::model::scene::MarkShape;

use crate::xiangqi::annotation::Code;
use crate::xiangqi::board::{Board, Kind, Man, Point, Side};
use crate::xiangqi::reader::position::{Atom, Position};
use crate::xiangqi::rules::{
    checker, generals_facing, in_palace, is_advisor_point, is_elephant_point,
};

/// Whether the diagram has Red at the top.
fn upside_down(position: &Position) -> bool {
    let general_rank = |side| {
        position
            .men()
            .find(|(_, man)| *man == Man::new(side, Kind::General))
            .map(|(atom, _)| atom.point.rank)
    };
    match (general_rank(Side::Red), general_rank(Side::Black)) {
        (Some(red), _) => red >= 7,
        (None, Some(black)) => black <= 2,
        (None, None) => false,
    }
}

/// Every placement and annotation warning of a position.
pub fn check_position(position: &Position) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    check_annotations(position, &mut out);
    check_men(position, &mut out);
    out
}

fn check_annotations(position: &Position, out: &mut Vec<Diagnostic>) {
    let occupied: Vec<Point> = position.men().map(|(atom, _)| atom.point).collect();
    let mut seen: HashMap<(Point, Code), &Atom> = HashMap::new();
    for (atom, code) in position.codes() {
        if let Some(first) = seen.get(&(atom.point, code)) {
            out.push(
                Diagnostic::warning(
                    atom.range.clone(),
                    "xiangqi-duplicate-annotation",
                    format!("{} already has `{}`", atom.point, atom.text),
                )
                .with_related(first.range.clone(), "the first one"),
            );
        } else {
            seen.insert((atom.point, code), atom);
        }
        match code {
            Code::Arrow { .. } => {
                if code.arrow_end(atom.point).is_none() {
                    out.push(Diagnostic::warning(
                        atom.range.clone(),
                        "xiangqi-arrow-off-board",
                        format!(
                            "`{}` on {}: {}",
                            atom.text,
                            atom.point,
                            code.explain_at(atom.point)
                        ),
                    ));
                }
            }
            Code::Marker { shape, .. } => {
                let has_piece = occupied.contains(&atom.point);
                match (shape, has_piece) {
                    (MarkShape::Piece, false) => out.push(Diagnostic::warning(
                        atom.range.clone(),
                        "xiangqi-marker-on-empty",
                        format!(
                            "`{}` marks a piece, but {} is empty (the marks for empty points are `b{}`)",
                            atom.text,
                            atom.point,
                            &atom.text[1..]
                        ),
                    )),
                    (MarkShape::Blank, true) => out.push(Diagnostic::warning(
                        atom.range.clone(),
                        "xiangqi-marker-on-piece",
                        format!(
                            "`{}` marks an empty point, but a piece stands on {} (the marks for pieces are `p{}`)",
                            atom.text,
                            atom.point,
                            &atom.text[1..]
                        ),
                    )),
                    _ => {}
                }
            }
        }
    }
}

fn check_men(position: &Position, out: &mut Vec<Diagnostic>) {
    let flipped = upside_down(position);
    let seen_as = |point: Point| if flipped { point.rotated() } else { point };
    let mut on_point: HashMap<Point, &Atom> = HashMap::new();
    let mut counts: HashMap<Man, Vec<&Atom>> = HashMap::new();
    for (atom, man) in position.men() {
        if let Some(first) = on_point.get(&atom.point) {
            out.push(
                Diagnostic::warning(
                    atom.range.clone(),
                    "xiangqi-stacked-pieces",
                    format!(
                        "{} already holds a piece; only one piece stands on a point",
                        atom.point
                    ),
                )
                .with_related(first.range.clone(), "the other piece"),
            );
        } else {
            on_point.insert(atom.point, atom);
        }
        counts.entry(man).or_default().push(atom);
        let point = seen_as(atom.point);
        let side = man.side;
        let (code, problem) = match man.kind {
            Kind::General if !in_palace(side, point) => (
                "xiangqi-general-outside-palace",
                "stands outside its palace, which it never leaves",
            ),
            Kind::Advisor if !is_advisor_point(side, point) => (
                "xiangqi-advisor-off-point",
                "stands off the five points of its palace it can reach (the corners and the centre)",
            ),
            Kind::Elephant if !is_elephant_point(side, point) => {
                if side.own_half(point.rank) {
                    (
                        "xiangqi-elephant-off-point",
                        "stands off the seven points an elephant can reach",
                    )
                } else {
                    (
                        "xiangqi-elephant-off-point",
                        "stands across the river, which an elephant never crosses",
                    )
                }
            }
            Kind::Soldier if side.rank_from_home(point.rank) < 3 => (
                "xiangqi-soldier-behind",
                "stands behind the rank soldiers start on, and soldiers never move backwards",
            ),
            Kind::Soldier if side.own_half(point.rank) && point.file % 2 == 1 => (
                "xiangqi-soldier-sideways",
                "stands off the files soldiers start on before crossing the river, where they cannot move sideways",
            ),
            _ => continue,
        };
        let mut message = format!("the {} on {} {problem}", man.describe(), atom.point);
        if flipped {
            message.push_str(" (reading the board with Red at the top)");
        }
        out.push(Diagnostic::warning(atom.range.clone(), code, message));
    }
    let mut over: Vec<(&Man, &Vec<&Atom>)> = counts
        .iter()
        .filter(|(man, atoms)| atoms.len() > man.set_count())
        .collect();
    over.sort_by_key(|(man, atoms)| atoms[man.set_count()].range.start);
    for (man, atoms) in over {
        let extra = &atoms[man.set_count()..];
        let (code, message) = if man.kind == Kind::General {
            (
                "xiangqi-several-generals",
                format!(
                    "{} has {} generals; a side has one",
                    man.side.name(),
                    atoms.len()
                ),
            )
        } else {
            (
                "xiangqi-piece-count",
                format!(
                    "{} has {} {}s; a set has {}",
                    man.side.name(),
                    atoms.len(),
                    man.kind.name(),
                    man.set_count()
                ),
            )
        };
        let mut diagnostic = Diagnostic::warning(extra[0].range.clone(), code, message);
        for atom in atoms.iter().filter(|atom| atom.range != extra[0].range) {
            diagnostic =
                diagnostic.with_related(atom.range.clone(), format!("a {}", man.kind.name()));
        }
        out.push(diagnostic);
    }
    let board = position.board();
    check_generals(position, &board, out);
}

fn general_atom(position: &Position, side: Side) -> Option<&Atom> {
    position
        .men()
        .find(|(_, man)| *man == Man::new(side, Kind::General))
        .map(|(atom, _)| atom)
}

fn check_generals(position: &Position, board: &Board, out: &mut Vec<Diagnostic>) {
    let (Some(red), Some(black)) = (
        general_atom(position, Side::Red),
        general_atom(position, Side::Black),
    ) else {
        return;
    };
    if generals_facing(board).is_some() {
        out.push(
            Diagnostic::warning(
                black.range.clone(),
                "xiangqi-generals-facing",
                format!(
                    "the generals face each other on file {} with nothing between them, which the rules never allow",
                    char::from(b'a' + red.point.file)
                ),
            )
            .with_related(red.range.clone(), "Red's general"),
        );
        return;
    }
    let Some(to_move) = position.side_to_move else {
        return;
    };
    let waiting = to_move.other();
    if let Some((at, attacker)) = checker(board, waiting) {
        let general = if waiting == Side::Red { red } else { black };
        let mut diagnostic = Diagnostic::warning(
            general.range.clone(),
            "xiangqi-check-on-waiting-side",
            format!(
                "{}'s general is in check from the {} on {at} while it is {}'s turn: {} could capture it",
                waiting.name(),
                attacker.describe(),
                to_move.name(),
                to_move.name()
            ),
        );
        if let Some(atom) = position
            .men()
            .find(|(atom, _)| atom.point == at)
            .map(|(a, _)| a)
        {
            diagnostic = diagnostic.with_related(atom.range.clone(), "the checking piece");
        }
        out.push(diagnostic);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::xiangqi::reader::position::{read_board_field, FieldSyntax};

    fn check(field: &str, side: Option<Side>) -> Vec<(&'static str, String)> {
        let read = read_board_field(field, 0..field.len(), FieldSyntax::AnnoFen);
        let position = Position {
            atoms: read.atoms,
            side_to_move: side,
        };
        check_position(&position)
            .into_iter()
            .map(|d| (d.code, field[d.range].to_string()))
            .collect()
    }

    #[test]
    fn the_opening_position_is_clean() {
        let field = "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR";
        assert_eq!(check(field, Some(Side::Red)), []);
        let rotated: String = field.chars().rev().collect();
        let swapped: String = rotated
            .chars()
            .map(|c| {
                if c.is_ascii_lowercase() {
                    c.to_ascii_uppercase()
                } else {
                    c.to_ascii_lowercase()
                }
            })
            .collect();
        assert_eq!(
            check(&swapped, None),
            [],
            "Red at the top reads the board turned round"
        );
    }

    #[test]
    fn the_maintainers_wish_list() {
        // Generals facing; an advisor and an elephant off their points; a soldier moved
        // sideways before the river; one behind its start; a general outside the palace.
        let found = check("4k4/9/9/9/9/9/1P7/9/P2A3E1/2K5P", None);
        assert_eq!(
            found,
            [
                ("xiangqi-soldier-sideways", "P".to_string()),
                ("xiangqi-soldier-behind", "P".into()),
                ("xiangqi-advisor-off-point", "A".into()),
                ("xiangqi-elephant-off-point", "E".into()),
                ("xiangqi-general-outside-palace", "K".into()),
                ("xiangqi-soldier-behind", "P".into()),
            ]
        );
        let facing = check("4k4/9/9/9/9/9/9/9/9/4K4", None);
        assert_eq!(facing, [("xiangqi-generals-facing", "k".to_string())]);
        let across = check("4k4/9/9/9/2E6/9/9/9/9/3K5", None);
        assert_eq!(across, [("xiangqi-elephant-off-point", "E".to_string())]);
    }

    #[test]
    fn counts_and_several_generals() {
        let found = check("3kk4/9/9/9/9/9/9/9/9/RRR1K4", None);
        assert_eq!(
            found,
            [
                ("xiangqi-several-generals", "k".to_string()),
                ("xiangqi-piece-count", "R".into()),
            ]
        );
    }

    #[test]
    fn markers_arrows_and_stacks() {
        let found = check(
            "[<a+0+1>r]<pb>[<pm>R][<bm>R]5/9/9/9/9/9/9/9/9/[RH]3K[<bm><bm>]3",
            None,
        );
        assert_eq!(
            found,
            [
                ("xiangqi-arrow-off-board", "a+0+1".to_string()),
                ("xiangqi-marker-on-empty", "pb".into()),
                ("xiangqi-marker-on-piece", "bm".into()),
                ("xiangqi-duplicate-annotation", "bm".into()),
                ("xiangqi-stacked-pieces", "H".into()),
                ("xiangqi-piece-count", "R".into()),
            ]
        );
    }

    #[test]
    fn the_side_to_move_may_not_have_the_other_general_in_check() {
        let field = "4k4/9/9/9/9/9/9/9/4R4/3K5";
        assert_eq!(check(field, Some(Side::Black)), []);
        assert_eq!(
            check(field, Some(Side::Red)),
            [("xiangqi-check-on-waiting-side", "k".to_string())]
        );
    }
}
