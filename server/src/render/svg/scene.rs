//! One scene drawn in order: the caption, the board's squares, shadows and stacked pieces
//! from the bottom up (raised a little for each piece under them), the marks and the
//! coordinates; and the choice of how each piece is drawn.

use std::collections::HashMap;
use std::fmt::Write as _;

use super::bits::draw_bit;
use super::boards::draw_board;
use super::marks::{draw_annotations, draw_coordinates, draw_highlight, draw_squares};
use super::pieces::{
    draw_card, draw_coin, draw_die, draw_matchstick, draw_pawn, draw_pyramid, draw_saucer,
    draw_tile,
};
use super::view::{SvgOptions, View};
use super::writer::{area_rect, escape, n, Writer};
use crate::model::piece::{Piece, PieceKind};
use crate::model::scene::Scene;
use crate::render::font::glyph;
use crate::render::words::describe_piece;
use crate::render::{extent, Extent};

pub(super) fn draw_scene(writer: &mut Writer, scene: &Scene, view: &View, options: &SvgOptions) {
    let scene = &crate::render::sanitized::sane_scene(scene);
    if let Some(caption) = &options.caption {
        if !caption.is_empty() {
            let size = view.len(0.36);
            let caption = fit(caption, (view.width - view.len(0.3)) / size);
            writer.text(
                &caption,
                view.width / 2.0,
                view.len(0.4),
                size,
                "fill=\"#222222\"",
                0.0,
            );
        }
    }
    let boards: Vec<usize> = (0..scene.pieces.len())
        .filter(|&i| scene.pieces[i].kind == PieceKind::Board)
        .collect();
    for &i in &boards {
        draw_piece(writer, scene, i, &scene.pieces[i], view, 1.0);
    }
    draw_squares(writer, scene, view);
    let heights = elevations(scene);
    let perches = perches(scene);
    let mut emphasised = vec![false; scene.pieces.len()];
    for &i in &scene.highlighted {
        if let Some(flag) = emphasised.get_mut(i) {
            *flag = true;
        }
    }
    for i in (0..scene.pieces.len()).filter(|&i| scene.pieces[i].kind != PieceKind::Board) {
        let lifted = lift(&scene.pieces[i], heights[i]);
        if heights[i] > 0 && scene.pieces[i].kind == PieceKind::Tile {
            draw_shadow(writer, &lifted, view);
        }
        let (placed, scale) = perch(&lifted, perches[i]);
        draw_piece(writer, scene, i, &placed, view, scale);
        if options.changes && emphasised[i] {
            draw_highlight(writer, &placed, view, scale);
        }
    }
    if options.changes {
        for &i in &boards {
            if emphasised[i] {
                draw_highlight(writer, &scene.pieces[i], view, 1.0);
            }
        }
        // Over the pieces, which would hide them: a tile under the emptied cell, or the
        // captured piece's neighbours.
        for &(x, y) in &scene.vacated {
            let (px, py) = view.at(x, y);
            let _ = write!(
                writer.body,
                "<circle class=\"vacated\" cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"none\" \
                 stroke=\"#f5a300\" stroke-width=\"{}\" stroke-dasharray=\"{} {}\"/>",
                n(px),
                n(py),
                n(view.len(0.32)),
                n(view.len(0.06)),
                n(view.len(0.12)),
                n(view.len(0.08))
            );
        }
    }
    draw_annotations(writer, scene, view);
    if options.coordinates {
        draw_coordinates(writer, scene, view);
    }
}

/// How many tiles each piece stands on: tiles stacked on tiles (Fuji-san's mountain) and
/// the pieces on them are drawn a little up and to the left per level, so stacks show.
pub(super) fn elevations(scene: &Scene) -> Vec<u32> {
    let mut heights = vec![0u32; scene.pieces.len()];
    // The tiles drawn so far, by the unit cells their extents cover, so that a piece looks
    // only at the tiles near it: a scene costs O(pieces), not O(pieces × tiles).
    let mut tiles_by_cell: HashMap<(i64, i64), Vec<(Extent, u32)>> = HashMap::new();
    let mut wide_tiles: Vec<(Extent, u32)> = Vec::new();
    for (i, piece) in scene.pieces.iter().enumerate() {
        if piece.kind == PieceKind::Board {
            continue;
        }
        let inside = |area: &Extent| {
            piece.x > area.xmin + 1e-6
                && piece.x < area.xmax - 1e-6
                && piece.y > area.ymin + 1e-6
                && piece.y < area.ymax - 1e-6
        };
        let lift = u32::from(piece.kind == PieceKind::Tile);
        let near = tiles_by_cell
            .get(&unit_cell(piece.x, piece.y))
            .into_iter()
            .flatten()
            .chain(&wide_tiles);
        heights[i] = near
            .filter(|(area, _)| inside(area))
            .map(|(_, height)| height + lift)
            .max()
            .unwrap_or(0);
        if piece.kind != PieceKind::Tile {
            continue;
        }
        let area = extent(piece);
        let (low, high) = (
            unit_cell(area.xmin, area.ymin),
            unit_cell(area.xmax, area.ymax),
        );
        let span = |from: i64, to: i64| i128::from(to) - i128::from(from) + 1;
        let cells = span(low.0, high.0) * span(low.1, high.1);
        if !(1..=MOST_CELLS_INDEXED).contains(&cells) {
            wide_tiles.push((area, heights[i]));
            continue;
        }
        for cx in low.0..=high.0 {
            for cy in low.1..=high.1 {
                let tiles = tiles_by_cell.entry((cx, cy)).or_default();
                // A tile laid exactly on another, no lower, hides it from every piece
                // above: stacks of tiles keep one entry, not one per tile.
                tiles.retain(|(other, height)| !(*other == area && *height <= heights[i]));
                tiles.push((area, heights[i]));
            }
        }
    }
    heights
}

/// A tile covering more unit cells than this is looked at by every piece instead of being
/// indexed by cell (no tile is that large; a hostile scene could make one).
pub(super) const MOST_CELLS_INDEXED: i128 = 64;

/// The unit cell holding a point (for indexing, not drawing).
pub(super) fn unit_cell(x: f64, y: f64) -> (i64, i64) {
    // `as` saturates, so a point far off stays a valid key.
    (x.floor() as i64, y.floor() as i64)
}

pub(super) const LIFT_PER_LEVEL: f64 = 0.08;

/// How many pieces with a face (dice, coins) each piece stands on at its point: a pawn on a
/// die, a coin on a coin. Such a piece is drawn smaller, towards the cell's top right
/// corner ([`perch`]), so that the face under it still shows.
pub(super) fn perches(scene: &Scene) -> Vec<u32> {
    let small = |piece: &Piece| {
        !matches!(
            piece.kind,
            PieceKind::Board | PieceKind::Tile | PieceKind::Card
        )
    };
    let mut levels = vec![0u32; scene.pieces.len()];
    // The highest small piece so far at each point (by its coordinates' bits).
    let mut top_at_point: HashMap<(u64, u64), usize> = HashMap::new();
    for (i, piece) in scene.pieces.iter().enumerate() {
        if !small(piece) {
            continue;
        }
        let point = ((piece.x + 0.0).to_bits(), (piece.y + 0.0).to_bits());
        // The highest piece under it at its point decides.
        if let Some(&j) = top_at_point.get(&point) {
            let under = &scene.pieces[j];
            let faced = matches!(under.kind, PieceKind::Die | PieceKind::Coin);
            levels[i] = if faced || levels[j] > 0 {
                levels[j] + 1
            } else {
                0
            };
        }
        top_at_point.insert(point, i);
    }
    levels
}

/// The place and scale of a piece perched `level` pieces up (see [`perches`]).
pub(super) fn perch(piece: &Piece, level: u32) -> (Piece, f64) {
    if level == 0 {
        return (*piece, 1.0);
    }
    // Clear of the face under it: a die's is 0.2 wide and 0.27 high about the point.
    let step = 0.08 * f64::from(level.min(8) - 1);
    let placed = Piece {
        x: piece.x + 0.34 + step,
        y: piece.y + 0.3 + step,
        ..*piece
    };
    (placed, 0.62)
}

pub(super) fn lift(piece: &Piece, height: u32) -> Piece {
    let shift = LIFT_PER_LEVEL * f64::from(height.min(12));
    Piece {
        x: piece.x - shift,
        y: piece.y + shift,
        ..*piece
    }
}

pub(super) fn draw_shadow(writer: &mut Writer, piece: &Piece, view: &View) {
    let area = extent(piece);
    let shifted = Extent {
        xmin: area.xmin + LIFT_PER_LEVEL,
        xmax: area.xmax + LIFT_PER_LEVEL,
        ymin: area.ymin - LIFT_PER_LEVEL,
        ymax: area.ymax - LIFT_PER_LEVEL,
    };
    area_rect(
        writer,
        shifted,
        view,
        "fill=\"#000000\" fill-opacity=\"0.35\"",
    );
}

/// `text` cut to `width` ems, with `...` where it was cut.
pub(super) fn fit(text: &str, width: f64) -> String {
    let advance = |c: char| glyph(c).map_or(0.0, |found| found.advance);
    if text.chars().map(advance).sum::<f64>() <= width {
        return text.to_string();
    }
    let room = width - 3.0 * advance('.');
    let mut used = 0.0;
    let mut out = String::new();
    for c in text.chars() {
        used += advance(c);
        if used > room {
            break;
        }
        out.push(c);
    }
    format!("{}...", out.trim_end())
}

pub(super) fn piece_group_open(writer: &mut Writer, scene: &Scene, index: usize) {
    let piece = &scene.pieces[index];
    let _ = write!(
        writer.body,
        "<g id=\"piece-{index}\" class=\"piece {} {}\"><title>{}</title>",
        piece.kind.name(),
        piece.side.name(),
        escape(&describe_piece(piece))
    );
}

/// Draws a piece, `scale` times its size about its centre.
pub(super) fn draw_piece(
    writer: &mut Writer,
    scene: &Scene,
    index: usize,
    piece: &Piece,
    view: &View,
    scale: f64,
) {
    if !piece.x.is_finite() || !piece.y.is_finite() {
        return;
    }
    piece_group_open(writer, scene, index);
    let scaled = scale != 1.0;
    if scaled {
        let (cx, cy) = view.at(piece.x, piece.y);
        let _ = write!(
            writer.body,
            "<g transform=\"matrix({} 0 0 {} {} {})\">",
            n(scale),
            n(scale),
            n(cx * (1.0 - scale)),
            n(cy * (1.0 - scale))
        );
    }
    match piece.kind {
        PieceKind::Board => draw_board(writer, piece, view),
        PieceKind::Tile => draw_tile(writer, piece, view),
        PieceKind::Card => draw_card(writer, piece, view),
        PieceKind::Coin => draw_coin(writer, piece, view),
        PieceKind::Die => draw_die(writer, piece, view),
        PieceKind::Pawn => draw_pawn(writer, piece, view),
        PieceKind::Saucer => draw_saucer(writer, piece, view),
        PieceKind::Pyramid => draw_pyramid(writer, piece, view),
        PieceKind::Matchstick => draw_matchstick(writer, piece, view),
        PieceKind::Bit => draw_bit(writer, piece, view),
    }
    if scaled {
        writer.push("</g>");
    }
    writer.push("</g>");
}

#[cfg(test)]
mod tests {
    use super::fit;

    #[test]
    fn long_captions_are_cut_to_the_picture() {
        assert_eq!(fit("1. a1-b2", 20.0), "1. a1-b2");
        let cut = fit(&"x".repeat(100), 10.0);
        assert!(cut.ends_with("...") && cut.len() < 30, "{cut}");
    }
}
