//! Writing xiangqi positions and games in other formats: annoFEN and XAY (each other's
//! equal, annotations and all), PPN (a `GameType: Xiangqi` game played with piecepack
//! components, as PPN's game library sets it up) and WXF (from the boards of a PPN game).

use std::fmt::Write as _;

use crate::model::format::Format;
use crate::model::notation_document::{ConvertError, NotationDocument, Target};
use crate::model::piece::{Piece, PieceKind, Side as PieceSide};

use crate::xiangqi::board::{Board, Kind, Man, Point, Side, FILES, RANKS};
use crate::xiangqi::document::XiangqiDocument;
use crate::xiangqi::reader::position::{Atom, AtomKind, Position};
use crate::xiangqi::replay::move_number;
use crate::xiangqi::wxf_move::write_move;

/// The formats a document converts to.
pub fn conversions(document: &XiangqiDocument) -> Vec<Target> {
    match document.format() {
        Format::AnnoFen => vec![Target::Ppn, Target::Xay],
        Format::Xay => vec![Target::Ppn, Target::AnnoFen],
        Format::Wxf => vec![Target::Ppn, Target::AnnoFen, Target::Xay],
        _ => vec![Target::Ppn, Target::AnnoFen, Target::Xay],
    }
}

pub fn convert(document: &XiangqiDocument, target: Target) -> Result<String, ConvertError> {
    if !conversions(document).contains(&target) {
        return Err(ConvertError(format!(
            "a {} file cannot be converted to {}",
            document.format().name(),
            target.name()
        )));
    }
    if document.has_errors() {
        return Err(ConvertError(format!(
            "the {} file has errors (see `ppn-ls --check`); a conversion would not show the same boards",
            document.format().name()
        )));
    }
    let comments = leading_comments(document);
    let position = position_to_write(document);
    match target {
        Target::AnnoFen => Ok(write_annofen(&position, &comments)),
        Target::Xay => Ok(write_xay(&position, &comments)),
        Target::Ppn => Ok(write_ppn(document, &comments)),
        Target::Otn | Target::Wxf => Err(ConvertError("not a target of xiangqi positions".into())),
    }
}

/// The position a WXF record converts to as a diagram: the board after its last move,
/// with the move marked (`bm` where the piece left, `pm` where it went), as xiangqi-setup
/// draws it with `--annotate-last-move`; for the other formats, the position itself.
fn position_to_write(document: &XiangqiDocument) -> Position {
    if document.format() != Format::Wxf {
        return document.start_position().clone();
    }
    let played = document.played();
    let Some(last) = played.last() else {
        return Position::of_board(&document.start, document.start_position().side_to_move);
    };
    let board = document
        .board_at_state(played.len())
        .unwrap_or_else(|| Board::clone(&document.start));
    let mut position = Position::of_board(&board, Some(last.side.other()));
    for (point, code) in [(last.from, "bm"), (last.to, "pm")] {
        if let (Some(point), Some(kind)) = (point, crate::xiangqi::annotation::Code::parse(code)) {
            let at = position
                .atoms
                .iter()
                .position(|atom| {
                    (std::cmp::Reverse(atom.point.rank), atom.point.file)
                        > (std::cmp::Reverse(point.rank), point.file)
                })
                .unwrap_or(position.atoms.len());
            position.atoms.insert(
                at,
                Atom {
                    point,
                    kind: AtomKind::Code(kind),
                    range: 0..0,
                    text: code.to_string(),
                },
            );
        }
    }
    position
}

/// The full-line `#` comments at the top of the file (before the position), which the
/// annotated formats both have.
fn leading_comments(document: &XiangqiDocument) -> Vec<String> {
    if !matches!(
        document.format(),
        Format::AnnoFen | Format::Xay | Format::Fen
    ) {
        return Vec::new();
    }
    let text = document.text();
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.trim().trim_start_matches('\u{feff}');
        if line.is_empty() {
            continue;
        }
        match line.strip_prefix('#') {
            Some(comment) => out.push(comment.trim().to_string()),
            None => break,
        }
    }
    out
}

/// The atoms of each point, rank 9 first, file `a` first.
fn rows(position: &Position) -> Vec<Vec<Vec<&Atom>>> {
    let cells = position.cells();
    (0..RANKS)
        .rev()
        .map(|rank| {
            (0..FILES)
                .map(|file| {
                    Point::new(file, rank)
                        .map(|point| cells[point.index()].clone())
                        .unwrap_or_default()
                })
                .collect()
        })
        .collect()
}

/// An annoFEN file of the position.
pub fn write_annofen(position: &Position, comments: &[String]) -> String {
    let mut out = String::new();
    for comment in comments {
        let _ = writeln!(out, "# {comment}");
    }
    out.push_str("v1 ");
    for (index, row) in rows(position).into_iter().enumerate() {
        if index > 0 {
            out.push('/');
        }
        let mut empty = 0;
        for cell in row {
            if cell.is_empty() {
                empty += 1;
                continue;
            }
            if empty > 0 {
                let _ = write!(out, "{empty}");
                empty = 0;
            }
            let atom_text = |atom: &Atom| match atom.kind {
                AtomKind::Man(_) => atom.text.clone(),
                AtomKind::Code(_) => format!("<{}>", atom.text),
            };
            match cell.as_slice() {
                [atom] => out.push_str(&atom_text(atom)),
                atoms => {
                    out.push('[');
                    for atom in atoms {
                        out.push_str(&atom_text(atom));
                    }
                    out.push(']');
                }
            }
        }
        if empty > 0 {
            let _ = write!(out, "{empty}");
        }
    }
    if let Some(side) = position.side_to_move {
        out.push_str(match side {
            Side::Red => " w",
            Side::Black => " b",
        });
    }
    out.push('\n');
    out
}

/// A XAY file of the position, every row written out and a `# river` line between the
/// two halves, as xiangqi-setup's examples do.
pub fn write_xay(position: &Position, comments: &[String]) -> String {
    let mut out = String::new();
    for comment in comments {
        let _ = writeln!(out, "# {comment}");
    }
    out.push_str("version: '1'\nsetup: [\n");
    for (index, row) in rows(position).into_iter().enumerate() {
        if index == 5 {
            out.push_str("  # river\n");
        }
        let used = row
            .iter()
            .rposition(|cell| !cell.is_empty())
            .map_or(0, |i| i + 1);
        let cells: Vec<String> = row[..used]
            .iter()
            .map(|cell| {
                let atoms: Vec<&str> = cell.iter().map(|atom| atom.text.as_str()).collect();
                format!("[{}]", atoms.join(", "))
            })
            .collect();
        let _ = writeln!(out, "  [{}],", cells.join(", "));
    }
    out.push_str("]\n");
    out
}

/// The piecepack components PPN's xiangqi is played with: Black takes Suns and Moons,
/// Red Arms and Crowns (the general is the 5 coin of Moons or Arms); officers are coins
/// face up (horse ace, elephant 2, advisor 4, general 5), soldiers coins face down,
/// cannons pawns and chariots dice showing 3.
pub fn man_of_piece(piece: &Piece) -> Option<Man> {
    if !matches!(piece.cfg.name(), "piecepack" | "subpack") {
        return None;
    }
    let side = match piece.suit {
        1 | 2 => Side::Black,
        3 | 4 => Side::Red,
        _ => return None,
    };
    let kind = match (piece.kind, piece.side) {
        (PieceKind::Coin, PieceSide::Back) => Kind::Soldier,
        (PieceKind::Coin, PieceSide::Face) => match piece.rank {
            2 => Kind::Horse,
            3 => Kind::Elephant,
            5 => Kind::Advisor,
            6 => Kind::General,
            _ => return None,
        },
        (PieceKind::Pawn, _) => Kind::Cannon,
        (PieceKind::Die, _) => Kind::Chariot,
        _ => return None,
    };
    Some(Man::new(side, kind))
}

/// The point of a PPN piece, if it stands on one.
pub fn point_of_piece(piece: &Piece) -> Option<Point> {
    if piece.x.fract() != 0.0 || piece.y.fract() != 0.0 {
        return None;
    }
    Point::at(piece.x as i32 - 1, piece.y as i32 - 1)
}

/// The xiangqi board PPN pieces show (tiles and anything not a xiangqi man left out).
/// `Err` names a man off the points of the board.
pub fn board_of_pieces(pieces: &[Piece]) -> Result<Board, String> {
    let mut board = Board::default();
    for piece in pieces {
        let Some(man) = man_of_piece(piece) else {
            continue;
        };
        let point = point_of_piece(piece).ok_or_else(|| {
            format!(
                "a {} at ({}, {}) is not on a point of the board",
                man.describe(),
                piece.x,
                piece.y
            )
        })?;
        board.put(point, Some(man));
    }
    Ok(board)
}

/// A point as PPN names it: file letter, then rank + 1.
fn ppn_square(point: Point) -> String {
    format!("{}{}", char::from(b'a' + point.file), point.rank + 1)
}

/// The PieceSpec of a man's component, using the `nth` component of its kind and side.
fn piece_spec(man: Man, nth: usize) -> String {
    let suits = match man.side {
        Side::Red => ['A', 'C'],
        Side::Black => ['S', 'M'],
    };
    let suit = match man.kind {
        Kind::General => suits[usize::from(man.side == Side::Black)],
        _ => suits[nth % 2],
    };
    let angle = if man.side == Side::Black { "v" } else { "" };
    match man.kind {
        Kind::General => format!("cf{suit}5{angle}"),
        Kind::Advisor => format!("cf{suit}4{angle}"),
        Kind::Elephant => format!("cf{suit}2{angle}"),
        Kind::Horse => format!("cf{suit}a{angle}"),
        Kind::Chariot => format!("d{suit}3{angle}"),
        Kind::Cannon => format!("p{suit}{angle}"),
        Kind::Soldier => format!("cb{suit}{angle}"),
    }
}

/// The setup moves that turn PPN's opening position into `board`: remove what differs,
/// drop what is missing.
fn setup_moves(board: &Board) -> Vec<String> {
    let initial = Board::initial();
    let mut moves = Vec::new();
    for point in Point::all() {
        let had = initial.get(point);
        if had.is_some() && had != board.get(point) {
            moves.push(format!("*{}", ppn_square(point)));
        }
    }
    let mut used: std::collections::HashMap<Man, usize> = std::collections::HashMap::new();
    for (point, man) in board.men() {
        if initial.get(point) == Some(man) {
            continue;
        }
        let nth = used.entry(man).or_default();
        moves.push(format!("{}@{}", piece_spec(man, *nth), ppn_square(point)));
        *nth += 1;
    }
    moves
}

fn write_ppn(document: &XiangqiDocument, comments: &[String]) -> String {
    let mut out = String::from("---\nGameType: Xiangqi\n...\n");
    let source = match document.format() {
        Format::AnnoFen => "an annoFEN position",
        Format::Xay => "a XAY position",
        Format::Fen => "a FEN position",
        _ => "a WXF record",
    };
    let mut note = format!("Converted from {source}");
    if !comments.is_empty() {
        note.push_str(": ");
        note.push_str(&comments.join(" "));
    }
    let codes: Vec<String> = document
        .start_position()
        .codes()
        .map(|(atom, code)| format!("{} {}", atom.point, code.text()))
        .collect();
    if !codes.is_empty() {
        note.push_str(&format!(
            ". Annotations (PPN draws none): {}",
            codes.join(", ")
        ));
    }
    let _ = writeln!(out, "{{ {} }}", note.replace(['{', '}'], ""));
    let setup = setup_moves(&document.start);
    if !setup.is_empty() {
        let _ = writeln!(out, "{}", setup.join(" "));
    }
    let mut line = String::new();
    let first = document.first_side();
    for (index, played) in document.played().iter().enumerate() {
        let (Some(from), Some(to)) = (played.from, played.to) else {
            continue;
        };
        let token = if played.captured.is_some() { ':' } else { '-' };
        let text = format!("{}{token}{}", ppn_square(from), ppn_square(to));
        let number = move_number(first, index);
        let label = match (played.side, index) {
            (Side::Red, _) => format!("{number}."),
            (Side::Black, 0) => format!("{number}.."),
            (Side::Black, _) => ".".to_string(),
        };
        if played.side == Side::Red && !line.is_empty() {
            let _ = writeln!(out, "{}", line.trim_end());
            line.clear();
        }
        let _ = write!(line, "{label} {text} ");
    }
    if !line.is_empty() {
        let _ = writeln!(out, "{}", line.trim_end());
    }
    out
}

/// A WXF record of a game given by its boards: the starting board, then the board after
/// each move. Each step must move one man (capturing or not).
pub fn write_wxf(name: &str, boards: &[Board]) -> Result<String, ConvertError> {
    let Some(start) = boards.first() else {
        return Err(ConvertError("the game has no board".into()));
    };
    let mut moves = Vec::new();
    let mut sides = Vec::new();
    for (step, pair) in boards.windows(2).enumerate() {
        let (before, after) = (&pair[0], &pair[1]);
        let (from, to) = single_move(before, after).ok_or_else(|| {
            ConvertError(format!(
                "move {} does not move exactly one piece, which WXF cannot write",
                step + 1
            ))
        })?;
        let man = before
            .get(from)
            .ok_or_else(|| ConvertError(format!("move {} moves nothing", step + 1)))?;
        if sides.last() == Some(&man.side) {
            return Err(ConvertError(format!(
                "{} moves twice in a row at move {}, which WXF cannot write",
                man.side.name(),
                step + 1
            )));
        }
        let text = write_move(before, from, to).ok_or_else(|| {
            ConvertError(format!(
                "move {} ({from}–{to}) is not a move of a {}",
                step + 1,
                man.describe()
            ))
        })?;
        sides.push(man.side);
        moves.push(text);
    }
    let first = sides.first().copied().unwrap_or(Side::Red);
    let mut out = String::new();
    let _ = writeln!(out, "FORMAT  WXF");
    let _ = writeln!(out, "GAME    {name}");
    let _ = writeln!(
        out,
        "FEN     {} {}",
        start.fen_field(),
        if first == Side::Red { "r" } else { "b" }
    );
    out.push_str("START{\n");
    let mut line = String::new();
    for (index, text) in moves.iter().enumerate() {
        let side = crate::xiangqi::replay::side_of(first, index);
        if side == Side::Red || index == 0 {
            if !line.is_empty() {
                let _ = writeln!(out, "{}", line.trim_end());
                line.clear();
            }
            let _ = write!(line, "{:>2}. ", move_number(first, index));
        }
        let _ = write!(line, "{text} ");
    }
    if !line.is_empty() {
        let _ = writeln!(out, "{}", line.trim_end());
    }
    out.push_str("}END\n");
    Ok(out)
}

/// A WXF record of a PPN xiangqi game, given the pieces of each of its states in order;
/// the first `setup` states (the starting board and the moves written before the first
/// move number) make the starting position.
pub fn wxf_of_ppn_game<'a>(
    name: &str,
    states: impl IntoIterator<Item = &'a [Piece]>,
    setup: usize,
) -> Result<String, ConvertError> {
    let mut boards: Vec<Board> = Vec::new();
    for (index, pieces) in states.into_iter().enumerate() {
        let board = board_of_pieces(pieces).map_err(ConvertError)?;
        if index < setup.max(1) {
            boards.clear();
        }
        if boards.last() != Some(&board) {
            boards.push(board);
        }
    }
    write_wxf(name, &boards)
}

/// The one man that moved between two boards: from where to where.
fn single_move(before: &Board, after: &Board) -> Option<(Point, Point)> {
    let changed: Vec<Point> = Point::all()
        .filter(|p| before.get(*p) != after.get(*p))
        .collect();
    match changed.as_slice() {
        [a, b] => {
            let (from, to) = if after.get(*a).is_none() {
                (*a, *b)
            } else {
                (*b, *a)
            };
            (after.get(from).is_none()
                && after.get(to) == before.get(from)
                && before.get(from).is_some())
            .then_some((from, to))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn annofen_cells_write_as_written() {
        let doc = XiangqiDocument::new(
            Format::AnnoFen,
            "# a\nv1 r[<bm><a+1-2>]bakabnr/9/1c[<pm>n]4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2[<pm>C]2[<bm><a-3+0>]1/9/RNBAKABNR\n".into(),
        );
        let annofen = doc.convert(Target::AnnoFen);
        assert!(
            annofen.is_err(),
            "a file is not converted to its own format"
        );
        let xay = doc.convert(Target::Xay).unwrap();
        assert!(xay.starts_with("# a\nversion: '1'\nsetup: [\n  [[r], [bm, a+1-2], [b], [a], [k], [a], [b], [n], [r]],\n"), "{xay}");
        let back = XiangqiDocument::new(Format::Xay, xay)
            .convert(Target::AnnoFen)
            .unwrap();
        assert_eq!(
            back,
            "# a\nv1 r[<bm><a+1-2>]bakabnr/9/1c[<pm>n]4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2[<pm>C]2[<bm><a-3+0>]1/9/RNBAKABNR\n"
        );
    }

    #[test]
    fn piece_specs_name_the_setups_components() {
        assert_eq!(piece_spec(Man::new(Side::Black, Kind::General), 0), "cfM5v");
        assert_eq!(piece_spec(Man::new(Side::Red, Kind::General), 0), "cfA5");
        assert_eq!(piece_spec(Man::new(Side::Red, Kind::Chariot), 1), "dC3");
        assert_eq!(piece_spec(Man::new(Side::Black, Kind::Soldier), 2), "cbSv");
    }

    #[test]
    fn a_single_move_is_found_between_boards() {
        let before = Board::initial();
        let mut after = before.clone();
        let (from, to) = (Point::parse("h2").unwrap(), Point::parse("e2").unwrap());
        after.put(to, after.get(from));
        after.put(from, None);
        assert_eq!(single_move(&before, &after), Some((from, to)));
        assert_eq!(single_move(&before, &before), None);
        let wxf = write_wxf("demo", &[before, after]).unwrap();
        assert!(wxf.contains("START{\n 1. C2.5\n}END"), "{wxf}");
    }
}
