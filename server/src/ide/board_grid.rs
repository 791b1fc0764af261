//! The board of a state as a grid of squares, for entering moves on it and for those who
//! cannot see the picture: each square's name, what stands on it (top first, in words), and
//! where it lies on the picture `render::svg` draws, so that targets can be laid over it.

use crate::model::notation_document::{NotationDocument, StateRef, Targets};
use crate::model::piece::PieceKind;
use crate::render::svg::{picture_boxes, scenes_extent, SvgOptions};
use crate::render::words::describe_piece;
use crate::render::{axes, Axes};

/// One square (or point, on a xiangqi board) of the grid.
#[derive(Clone, Debug, PartialEq)]
pub struct GridSquare {
    /// As moves name it: `e5`; on a xiangqi board `e0` (ranks from 0).
    pub name: String,
    /// The pieces standing on it, top first, in words (`null of Suns coin, face up`).
    pub pieces: Vec<String>,
    /// Where it lies on the picture, as fractions of the picture's width and height.
    pub left: f64,
    pub top: f64,
    pub width: f64,
    pub height: f64,
}

/// The squares of a board as drawn: rows from the top of the picture, squares from its left.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BoardGrid {
    pub rows: Vec<Vec<GridSquare>>,
}

impl BoardGrid {
    pub fn squares(&self) -> impl Iterator<Item = &GridSquare> {
        self.rows.iter().flatten()
    }

    pub fn square(&self, name: &str) -> Option<&GridSquare> {
        self.squares().find(|square| square.name == name)
    }
}

/// More squares than any board has: a scene spread wider (a hostile file's far-off piece)
/// gets no grid rather than millions of targets.
const MOST_SQUARES: i64 = 4_096;

/// The grid of `state`'s board as [`crate::render::svg::svg`] draws it with `options`:
/// every whole point of the picture's extent. `None` where there is no such state, or the
/// board is too wide to lay targets over.
pub fn board_grid(
    document: &dyn NotationDocument,
    state: StateRef,
    options: &SvgOptions,
) -> Option<BoardGrid> {
    let scene = document.scene(state)?;
    let bounds = scenes_extent([&scene])?;
    let (x_from, x_to) = (bounds.xmin.ceil() as i64, bounds.xmax.floor() as i64);
    let (y_from, y_to) = (bounds.ymin.ceil() as i64, bounds.ymax.floor() as i64);
    let columns = x_to.saturating_sub(x_from).saturating_add(1);
    let ranks = y_to.saturating_sub(y_from).saturating_add(1);
    if columns <= 0 || ranks <= 0 || columns.saturating_mul(ranks) > MOST_SQUARES {
        return None;
    }
    let axes = axes(&scene);
    // Rows top first as drawn: the highest rank first, or the lowest on a flipped board.
    let mut ys: Vec<i64> = (y_from..=y_to).rev().collect();
    let mut xs: Vec<i64> = (x_from..=x_to).collect();
    if options.flip {
        ys.reverse();
        xs.reverse();
    }
    let points: Vec<(f64, f64)> = ys
        .iter()
        .flat_map(|&y| xs.iter().map(move |&x| (x as f64, y as f64)))
        .collect();
    let boxes = picture_boxes(&scene, options, &points);
    let mut on_point: std::collections::HashMap<(i64, i64), Vec<String>> = Default::default();
    // Bottom first in the scene; a point's list is read top first.
    for piece in scene.pieces.iter().rev() {
        if matches!(piece.kind, PieceKind::Board | PieceKind::Tile) {
            continue;
        }
        let (x, y) = (piece.x.round(), piece.y.round());
        if (piece.x - x).abs() < 0.25 && (piece.y - y).abs() < 0.25 {
            on_point
                .entry((x as i64, y as i64))
                .or_default()
                .push(describe_piece(piece));
        }
    }
    let name = |x: i64, y: i64| {
        let file = axes.file(x).unwrap_or_else(|| x.to_string());
        let rank = axes.rank(y).unwrap_or_else(|| y.to_string());
        match axes {
            Axes::Algebraic | Axes::Xiangqi => format!("{file}{rank}"),
        }
    };
    let mut rows = Vec::with_capacity(ys.len());
    let mut boxes = boxes.into_iter();
    for &y in &ys {
        let mut row = Vec::with_capacity(xs.len());
        for &x in &xs {
            let [left, top, width, height] = boxes.next().unwrap_or_default();
            row.push(GridSquare {
                name: name(x, y),
                pieces: on_point.remove(&(x, y)).unwrap_or_default(),
                left,
                top,
                width,
                height,
            });
        }
        rows.push(row);
    }
    Some(BoardGrid { rows })
}

/// A grid as the page and the language server send it: `{rows: [[{name, pieces, left,
/// top, width, height}]], text}` (`text` as [`board_as_text`]).
pub fn grid_json(grid: &BoardGrid) -> serde_json::Value {
    let rows: Vec<serde_json::Value> = grid
        .rows
        .iter()
        .map(|row| {
            row.iter()
                .map(|square| {
                    serde_json::json!({
                        "name": square.name,
                        "pieces": square.pieces,
                        "left": square.left,
                        "top": square.top,
                        "width": square.width,
                        "height": square.height,
                    })
                })
                .collect()
        })
        .collect();
    serde_json::json!({"rows": rows, "text": board_as_text(grid)})
}

/// Where a piece may go, as the page and the language server send it: `{any: true}`,
/// `{only: [square]}` or `{readOnly: why}`.
pub fn targets_json(targets: &Targets) -> serde_json::Value {
    match targets {
        Targets::Any => serde_json::json!({"any": true}),
        Targets::Only(squares) => serde_json::json!({"only": squares}),
        Targets::ReadOnly(why) => serde_json::json!({"readOnly": why}),
    }
}

/// What changed between two boards, in words, for those who do not see the picture: "the
/// white pawn moves from e2 to e4", "the black knight on f6 is taken", "a Suns coin is
/// placed on b2". Pieces are matched by what they are, so a move reads the same in every
/// notation. Empty when nothing changed.
pub fn describe_change(before: &BoardGrid, after: &BoardGrid) -> String {
    use std::collections::BTreeMap;
    // What each square lost and gained, as multisets of words, in board order.
    let order: Vec<&str> = after.squares().map(|square| square.name.as_str()).collect();
    let pieces_of = |grid: &BoardGrid| -> BTreeMap<String, Vec<String>> {
        grid.squares()
            .filter(|square| !square.pieces.is_empty())
            .map(|square| (square.name.clone(), square.pieces.clone()))
            .collect()
    };
    let (old, new) = (pieces_of(before), pieces_of(after));
    let mut left: Vec<(String, String)> = Vec::new();
    let mut arrived: Vec<(String, String)> = Vec::new();
    let empty = Vec::new();
    let mut names: Vec<&String> = old.keys().chain(new.keys()).collect();
    names.sort_by_key(|name| order.iter().position(|known| known == name));
    names.dedup();
    for name in names {
        let (was, is) = (
            old.get(name).unwrap_or(&empty),
            new.get(name).unwrap_or(&empty),
        );
        let mut remaining = is.clone();
        for piece in was {
            match remaining.iter().position(|other| other == piece) {
                Some(found) => {
                    remaining.remove(found);
                }
                None => left.push((name.clone(), piece.clone())),
            }
        }
        arrived.extend(remaining.into_iter().map(|piece| (name.clone(), piece)));
    }
    let mut sentences = Vec::new();
    // A piece that left one square and arrived on another moved; what else left was taken.
    let mut moved_to: Vec<(String, String, String)> = Vec::new();
    arrived.retain(
        |(to, piece)| match left.iter().position(|(_, gone)| gone == piece) {
            Some(found) => {
                let (from, _) = left.remove(found);
                moved_to.push((piece.clone(), from, to.clone()));
                false
            }
            None => true,
        },
    );
    for (piece, from, to) in &moved_to {
        sentences.push(format!("the {} moves from {from} to {to}", set_off(piece)));
    }
    for (square, piece) in &left {
        sentences.push(format!("the {} on {square} is taken", set_off(piece)));
    }
    for (square, piece) in &arrived {
        sentences.push(format!("a {piece} is placed on {square}"));
    }
    sentences.join("; ")
}

/// A piece's words as the subject of a sentence: "3 of Arms coin, back up," closes its
/// own aside with a comma, so that what follows reads as the verb.
fn set_off(piece: &str) -> String {
    if piece.contains(',') {
        format!("{piece},")
    } else {
        piece.to_string()
    }
}

/// A board as text, a line per occupied square: "e4: white pawn" (a stack top to bottom).
pub fn board_as_text(grid: &BoardGrid) -> Vec<String> {
    grid.squares()
        .filter(|square| !square.pieces.is_empty())
        .map(|square| format!("{}: {}", square.name, square.pieces.join("; on ")))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ide::analyze::analyze;

    #[test]
    fn a_chess_board_is_eight_rows_of_eight_named_squares_with_their_pieces() {
        let text = "---\nGameType: Chess\n...\n1. e2-e4\n";
        let document = analyze(Some(std::path::Path::new("a.ppn")), text.to_string());
        let after = StateRef { game: 0, index: 1 };
        let grid = board_grid(&*document, after, &SvgOptions::default()).unwrap();
        assert_eq!(grid.rows.len(), 8);
        assert!(grid.rows.iter().all(|row| row.len() == 8));
        assert_eq!(grid.rows[0][0].name, "a8");
        assert_eq!(grid.rows[7][7].name, "h1");
        assert!(grid.square("e2").unwrap().pieces.is_empty());
        assert_eq!(grid.square("e4").unwrap().pieces.len(), 1);
        // Every square inside the picture, squares of one row side by side.
        for square in grid.squares() {
            assert!(square.left >= 0.0 && square.left + square.width <= 1.0 + 1e-9);
            assert!(square.top >= 0.0 && square.top + square.height <= 1.0 + 1e-9);
        }
        let (a8, b8) = (&grid.rows[0][0], &grid.rows[0][1]);
        assert!((a8.left + a8.width - b8.left).abs() < 1e-9);
        // Flipped: seen from the other side, h1 comes first.
        let options = SvgOptions {
            flip: true,
            ..SvgOptions::default()
        };
        let flipped = board_grid(&*document, after, &options).unwrap();
        assert_eq!(flipped.rows[0][0].name, "h1");
    }

    #[test]
    fn a_xiangqi_board_names_its_points_from_rank_0() {
        let text = "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w\n";
        let document = analyze(Some(std::path::Path::new("a.fen")), text.to_string());
        let grid = board_grid(&*document, StateRef::default(), &SvgOptions::default()).unwrap();
        assert_eq!(grid.rows.len(), 10);
        assert_eq!(grid.rows[9][4].name, "e0");
        assert_eq!(grid.square("e0").unwrap().pieces.len(), 1);
        assert_eq!(grid.square("e9").unwrap().pieces.len(), 1);
    }

    #[test]
    fn a_change_is_told_in_words_moves_captures_and_placements() {
        let text = "---\nGameType: Chess\n...\n1. e2-e4 1... d7-d5 2. e4:d5 3. S@c4\n";
        let document = analyze(Some(std::path::Path::new("a.ppn")), text.to_string());
        let grid = |index| {
            board_grid(
                &*document,
                StateRef { game: 0, index },
                &SvgOptions::default(),
            )
            .unwrap()
        };
        let change = |index| describe_change(&grid(index - 1), &grid(index));
        let first = change(1);
        assert!(first.contains("moves from e2 to e4"), "{first}");
        assert!(
            first.starts_with("the white pawn") || first.starts_with("the "),
            "{first}"
        );
        let capture = change(3);
        assert!(capture.contains("moves from e4 to d5"), "{capture}");
        assert!(capture.contains("on d5 is taken"), "{capture}");
        let placed = change(4);
        assert!(placed.contains("is placed on c4"), "{placed}");
        assert_eq!(describe_change(&grid(2), &grid(2)), "");
        let listed = board_as_text(&grid(0));
        assert_eq!(listed.len(), 32);
        assert!(listed[0].starts_with("a8: "), "{listed:?}");
    }
}
