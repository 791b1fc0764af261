//! Boards: checkered and plain grids, go, morris and alquerque lines, tafl and xiangqi
//! boards with their special squares and river.

use std::fmt::Write as _;

use super::view::{picture_extent, View};
use super::writer::{area_rect, disc, lines, n, Segment, Writer};
use crate::model::piece::{Piece, Side};
use crate::render::{board_cell_width, board_cells, extent, Extent};

/// Light and dark squares of a board in colour `suit`.
pub(super) fn board_colors(suit: i32) -> (&'static str, &'static str) {
    match suit {
        1 => ("#f7e8dc", "#d9835a"),
        2 => ("#eeeeee", "#777777"),
        3 => ("#eeeed2", "#769656"),
        4 => ("#e3edf5", "#5b8fb9"),
        5 => ("#fbf1d6", "#d9a441"),
        6 => ("#ffffff", "#cccccc"),
        _ => ("#f0d9b5", "#b58863"),
    }
}

/// Lines through the points `from..=to` both ways: a grid of points (go, alquerque).
pub(super) fn point_grid(from: (f64, f64), count: (i64, i64)) -> Vec<Segment> {
    let (x0, y0) = from;
    let (x1, y1) = (x0 + (count.0 - 1) as f64, y0 + (count.1 - 1) as f64);
    let mut segments = Vec::new();
    for i in 0..count.0 {
        let x = x0 + i as f64;
        segments.push(((x, y0), (x, y1)));
    }
    for j in 0..count.1 {
        let y = y0 + j as f64;
        segments.push(((x0, y), (x1, y)));
    }
    segments
}

pub(super) fn draw_board(writer: &mut Writer, piece: &Piece, view: &View) {
    let area = extent(piece);
    let cells = i64::from(board_cells(piece));
    let cell = board_cell_width(piece);
    let outline = format!("stroke=\"#3b3326\" stroke-width=\"{}\"", n(view.len(0.04)));
    match &*piece.cfg {
        "go" => {
            let frame = picture_extent(piece);
            area_rect(writer, frame, view, &format!("fill=\"#dcb35c\" {outline}"));
            let lines_count = cells + 1;
            lines(
                writer,
                &point_grid((area.xmin, area.ymin), (lines_count, lines_count)),
                view,
                0.035,
                "#2b2014",
            );
            let stars: &[i64] = match lines_count {
                19 => &[4, 10, 16],
                13 => &[4, 7, 10],
                9 => &[3, 5, 7],
                15 => &[4, 8, 12],
                _ => &[],
            };
            for &sx in stars {
                for &sy in stars {
                    let (px, py) =
                        view.at(area.xmin + (sx - 1) as f64, area.ymin + (sy - 1) as f64);
                    disc(writer, px, py, view.len(0.09), "#2b2014", "none", 0.0);
                }
            }
        }
        "alquerque" | "morris" => {
            let frame = picture_extent(piece);
            area_rect(writer, frame, view, &format!("fill=\"#efe3c8\" {outline}"));
            let segments = if &*piece.cfg == "alquerque" {
                let mut segments = point_grid((area.xmin, area.ymin), (5, 5));
                for k in [0.0, 2.0] {
                    let (x0, y0) = (area.xmin, area.ymin);
                    segments.push(((x0 + k, y0), (x0 + 4.0, y0 + 4.0 - k)));
                    segments.push(((x0, y0 + k), (x0 + 4.0 - k, y0 + 4.0)));
                    segments.push(((x0 + k, y0 + 4.0), (x0 + 4.0, y0 + k)));
                    segments.push(((x0, y0 + 4.0 - k), (x0 + 4.0 - k, y0)));
                }
                segments
            } else {
                morris_lines(piece, cells)
            };
            lines(writer, &segments, view, 0.05, "#3b3326");
        }
        "marbles" => {
            area_rect(writer, area, view, &format!("fill=\"#c9a46b\" {outline}"));
            for i in 0..cells {
                for j in 0..cells {
                    let (px, py) = view.at(area.xmin + 0.5 + i as f64, area.ymin + 0.5 + j as f64);
                    disc(
                        writer,
                        px,
                        py,
                        view.len(0.3),
                        "#8c6a3c",
                        "#5a4325",
                        view.len(0.02),
                    );
                }
            }
        }
        "reversi" => {
            area_rect(writer, area, view, &format!("fill=\"#2e7d4f\" {outline}"));
            lines(
                writer,
                &cell_lines(area, cells, cell),
                view,
                0.03,
                "#0f2a1a",
            );
        }
        "tafl" => {
            area_rect(writer, area, view, &format!("fill=\"#e9d3a4\" {outline}"));
            lines(
                writer,
                &cell_lines(area, cells, cell),
                view,
                0.03,
                "#6b5132",
            );
        }
        "xiangqi" => draw_xiangqi_board(writer, piece, view, &outline),
        _ => {
            let (light, dark) = board_colors(piece.suit);
            area_rect(writer, area, view, &format!("fill=\"{light}\" {outline}"));
            if piece.side == Side::Face {
                // Checkered: the bottom-left square is dark, as on a chess board.
                let mut d = String::new();
                for i in 0..cells {
                    for j in 0..cells {
                        if (i + j) % 2 != 0 {
                            continue;
                        }
                        let x = area.xmin + i as f64 * cell;
                        let y = area.ymin + j as f64 * cell;
                        let (x0, y0) = view.at(x, y + cell);
                        let (x1, y1) = view.at(x + cell, y);
                        let _ = write!(
                            d,
                            "M{} {}H{}V{}H{}Z",
                            n(x0.min(x1)),
                            n(y0.min(y1)),
                            n(x0.max(x1)),
                            n(y0.max(y1)),
                            n(x0.min(x1))
                        );
                    }
                }
                let _ = write!(writer.body, "<path d=\"{d}\" fill=\"{dark}\"/>");
            } else {
                lines(writer, &cell_lines(area, cells, cell), view, 0.03, dark);
            }
            area_rect(writer, area, view, &format!("fill=\"none\" {outline}"));
        }
    }
}

pub(super) fn cell_lines(area: Extent, cells: i64, cell: f64) -> Vec<Segment> {
    let mut segments = Vec::new();
    for k in 1..cells {
        let offset = k as f64 * cell;
        segments.push((
            (area.xmin + offset, area.ymin),
            (area.xmin + offset, area.ymax),
        ));
        segments.push((
            (area.xmin, area.ymin + offset),
            (area.xmax, area.ymin + offset),
        ));
    }
    segments
}

pub(super) fn morris_lines(piece: &Piece, men: i64) -> Vec<Segment> {
    let (x, y) = (piece.x, piece.y);
    let square = |half: f64| {
        vec![
            ((x - half, y - half), (x + half, y - half)),
            ((x + half, y - half), (x + half, y + half)),
            ((x + half, y + half), (x - half, y + half)),
            ((x - half, y + half), (x - half, y - half)),
        ]
    };
    let mut segments = Vec::new();
    match men {
        2..=4 => {
            segments.extend(square(1.0));
            segments.push(((x - 1.0, y), (x + 1.0, y)));
            segments.push(((x, y - 1.0), (x, y + 1.0)));
            if men > 2 {
                segments.push(((x - 1.0, y - 1.0), (x + 1.0, y + 1.0)));
                segments.push(((x - 1.0, y + 1.0), (x + 1.0, y - 1.0)));
            }
        }
        5..=7 => {
            segments.extend(square(2.0));
            segments.extend(square(1.0));
            if men == 7 {
                segments.push(((x - 2.0, y), (x + 2.0, y)));
                segments.push(((x, y - 2.0), (x, y + 2.0)));
            } else {
                for (a, b) in [(-2.0, -1.0), (1.0, 2.0)] {
                    segments.push(((x + a, y), (x + b, y)));
                    segments.push(((x, y + a), (x, y + b)));
                }
            }
        }
        _ => {
            segments.extend(square(3.0));
            segments.extend(square(2.0));
            segments.extend(square(1.0));
            for (a, b) in [(-3.0, -1.0), (1.0, 3.0)] {
                segments.push(((x + a, y), (x + b, y)));
                segments.push(((x, y + a), (x, y + b)));
            }
            if men > 10 {
                for (sx, sy) in [(-1.0, -1.0), (1.0, 1.0), (-1.0, 1.0), (1.0, -1.0)] {
                    segments.push(((x + sx * 3.0, y + sy * 3.0), (x + sx, y + sy)));
                }
            }
        }
    }
    segments
}

pub(super) fn draw_xiangqi_board(writer: &mut Writer, piece: &Piece, view: &View, outline: &str) {
    let area = extent(piece);
    area_rect(writer, area, view, &format!("fill=\"#f1d7a0\" {outline}"));
    let (left, bottom) = (piece.x - 4.0, piece.y - 4.5);
    let mut segments = Vec::new();
    for rank in 0..10 {
        let y = bottom + f64::from(rank);
        segments.push(((left, y), (left + 8.0, y)));
    }
    for file in 0..9 {
        let x = left + f64::from(file);
        if file == 0 || file == 8 {
            segments.push(((x, bottom), (x, bottom + 9.0)));
        } else {
            segments.push(((x, bottom), (x, bottom + 4.0)));
            segments.push(((x, bottom + 5.0), (x, bottom + 9.0)));
        }
    }
    for base in [0.0, 7.0] {
        segments.push((
            (left + 3.0, bottom + base),
            (left + 5.0, bottom + base + 2.0),
        ));
        segments.push((
            (left + 5.0, bottom + base),
            (left + 3.0, bottom + base + 2.0),
        ));
    }
    lines(writer, &segments, view, 0.04, "#5a3d1e");
    // Each character of the river's words between two files, small enough to stay clear
    // of the men on the ranks either side (a man's disc reaches 0.44 from its point).
    let river = bottom + 4.5;
    let style = "fill=\"#8a5a2b\"";
    for (c, between) in [('楚', 1.5), ('河', 2.5), ('漢', 5.5), ('界', 6.5)] {
        let (x, y) = view.at(left + between, river);
        writer.text(&c.to_string(), x, y, view.len(RIVER_TEXT_SIZE), style, 0.0);
    }
}

/// The size of the river's characters, in units (their ink is about 0.9 of it).
pub(super) const RIVER_TEXT_SIZE: f64 = 0.4;
