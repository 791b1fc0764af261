//! What is drawn over the board besides its pieces: the outlines of what a move changed,
//! marked squares, arrows and other annotations, and the coordinates on the edges.

use std::fmt::Write as _;

use super::view::View;
use super::writer::{n, Writer};
use crate::model::piece::{Piece, PieceKind};
use crate::model::scene::{Annotation, MarkColor, MarkShape, Scene, SquareRole};
use crate::render::{axes, extent, Extent};

pub(super) fn draw_highlight(writer: &mut Writer, piece: &Piece, view: &View, scale: f64) {
    let area = match piece.kind {
        PieceKind::Tile | PieceKind::Card | PieceKind::Board => extent(piece),
        _ => Extent::around(piece.x, piece.y, 0.46 * scale, 0.46 * scale),
    };
    let (x0, y0) = view.at(area.xmin, area.ymax);
    let (x1, y1) = view.at(area.xmax, area.ymin);
    let _ = write!(
        writer.body,
        "<rect class=\"changed\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"{}\" \
         fill=\"none\" stroke=\"#f5a300\" stroke-width=\"{}\"/>",
        n(x0.min(x1)),
        n(y0.min(y1)),
        n((x1 - x0).abs()),
        n((y1 - y0).abs()),
        n(view.len(0.08)),
        n(view.len(0.07))
    );
}

pub(super) fn draw_squares(writer: &mut Writer, scene: &Scene, view: &View) {
    for square in &scene.squares {
        let (x0, y0) = view.at(square.x - 0.5, square.y + 0.5);
        let (x1, y1) = view.at(square.x + 0.5, square.y - 0.5);
        let (left, top) = (x0.min(x1), y0.min(y1));
        let size = (x1 - x0).abs();
        let (fill, cross) = match square.role {
            SquareRole::Throne | SquareRole::Corner => ("#9c6b30", true),
            SquareRole::AttackerFort => ("#d9b98a", false),
            SquareRole::DefenderFort => ("#eadbb8", false),
        };
        let _ = write!(
            writer.body,
            "<g class=\"square {role:?}\"><rect x=\"{}\" y=\"{}\" width=\"{s}\" height=\"{s}\" \
             fill=\"{fill}\" stroke=\"#5a4632\" stroke-width=\"{}\"/>",
            n(left),
            n(top),
            n(view.len(0.03)),
            role = square.role,
            s = n(size),
        );
        if cross {
            let inset = size * 0.22;
            let _ = write!(
                writer.body,
                "<path d=\"M{} {}L{} {}M{} {}L{} {}\" stroke=\"#f3e2bf\" stroke-width=\"{}\"/>",
                n(left + inset),
                n(top + inset),
                n(left + size - inset),
                n(top + size - inset),
                n(left + size - inset),
                n(top + inset),
                n(left + inset),
                n(top + size - inset),
                n(view.len(0.05))
            );
        }
        writer.push("</g>");
    }
}

pub(super) fn mark_color(color: MarkColor) -> &'static str {
    match color {
        MarkColor::Blue => "#1f6fd1",
        MarkColor::Green => "#2ca02c",
        MarkColor::Magenta => "#d6269d",
    }
}

pub(super) fn draw_annotations(writer: &mut Writer, scene: &Scene, view: &View) {
    for annotation in &scene.annotations {
        match annotation {
            Annotation::Arrow { from, to } => {
                let (x0, y0) = view.at(from.0, from.1);
                let (x1, y1) = view.at(to.0, to.1);
                let (dx, dy) = (x1 - x0, y1 - y0);
                let length = (dx * dx + dy * dy).sqrt();
                if length < 1.0 {
                    continue;
                }
                let (ux, uy) = (dx / length, dy / length);
                let head = view.len(0.3);
                let (bx, by) = (x1 - ux * head, y1 - uy * head);
                let (px, py) = (-uy * head * 0.5, ux * head * 0.5);
                let _ = write!(
                    writer.body,
                    "<g class=\"arrow\" opacity=\"0.85\"><line x1=\"{}\" y1=\"{}\" x2=\"{}\" \
                     y2=\"{}\" stroke=\"#1f6fd1\" stroke-width=\"{}\" stroke-linecap=\"round\"/>\
                     <path d=\"M{} {}L{} {}L{} {}Z\" fill=\"#1f6fd1\"/></g>",
                    n(x0),
                    n(y0),
                    n(bx),
                    n(by),
                    n(view.len(0.09)),
                    n(x1),
                    n(y1),
                    n(bx + px),
                    n(by + py),
                    n(bx - px),
                    n(by - py)
                );
            }
            Annotation::Marker { at, shape, color } => {
                let (x, y) = view.at(at.0, at.1);
                let colour = mark_color(*color);
                match shape {
                    MarkShape::Blank => {
                        let _ = write!(
                            writer.body,
                            "<circle class=\"marker\" cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{colour}\"/>",
                            n(x),
                            n(y),
                            n(view.len(0.16))
                        );
                    }
                    MarkShape::Piece => {
                        let _ = write!(
                            writer.body,
                            "<circle class=\"marker\" cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"none\" \
                             stroke=\"{colour}\" stroke-width=\"{}\"/>",
                            n(x),
                            n(y),
                            n(view.len(0.5)),
                            n(view.len(0.08))
                        );
                    }
                }
            }
        }
    }
}

pub(super) fn draw_coordinates(writer: &mut Writer, scene: &Scene, view: &View) {
    let axes = axes(scene);
    let bounds = view.bounds;
    let size = view.len(0.28);
    let style = "fill=\"#555555\"";
    let first = |low: f64| low.ceil().max(1.0) as i64;
    let mut x = first(bounds.xmin);
    while (x as f64) <= bounds.xmax && x < 200 {
        if let Some(label) = axes.file(x) {
            let (px, _) = view.at(x as f64, bounds.ymin);
            let py = view.top + view.len(bounds.height()) + view.len(0.25);
            writer.text(&label, px, py, size, style, 0.0);
        }
        x += 1;
    }
    let mut y = first(bounds.ymin);
    while (y as f64) <= bounds.ymax && y < 200 {
        if let Some(label) = axes.rank(y) {
            let (_, py) = view.at(bounds.xmin, y as f64);
            writer.text(&label, view.left - view.len(0.25), py, size, style, 0.0);
        }
        y += 1;
    }
}
