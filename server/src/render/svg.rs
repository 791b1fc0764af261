//! A top-down picture of the real components as SVG: boards with their grids and special
//! squares, piecepack tiles, coins, dice, pawns, pyramids and matchsticks, dominoes, cards,
//! chess men, checkers, stones, tafl men and xiangqi pieces, with coordinates on the edges.
//! Letters and symbols are outlines of the bundled fonts ([`crate::render::font`]), defined once
//! and reused, so the picture needs no font wherever it is shown.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;

use super::{
    axes, board_cell_width, board_cells, extent, family, is_light, matchstick_length, suit_color,
    Extent, Family,
};
use crate::model::games::{TaflMan, XiangqiPiece};
use crate::model::piece::{Piece, PieceKind, Side};
use crate::model::scene::{Annotation, MarkColor, MarkShape, Scene, SquareRole};
use crate::render::font::{glyph, short, Glyph};

/// A straight line between two scene points.
type Segment = ((f64, f64), (f64, f64));
use crate::render::words::describe_piece;

/// How to draw a picture.
#[derive(Clone, Debug, PartialEq)]
pub struct SvgOptions {
    /// The picture's width in pixels; by default 48 pixels a unit, at most 960 wide.
    pub width: Option<u32>,
    /// Seen from the other side: turned half a turn, pieces kept upright.
    pub flip: bool,
    /// Outline the pieces the move changed (or a PieceId names) and the cells it emptied.
    pub changes: bool,
    /// Files and ranks on the edges.
    pub coordinates: bool,
    /// A line of text above the board: the move's label and text.
    pub caption: Option<String>,
}

impl Default for SvgOptions {
    fn default() -> Self {
        SvgOptions {
            width: None,
            flip: false,
            changes: true,
            coordinates: true,
            caption: None,
        }
    }
}

const DEFAULT_UNIT: f64 = 48.0;
const MAX_DEFAULT_WIDTH: f64 = 960.0;
/// The largest picture drawn, in pixels on a side.
pub const MAX_PIXELS: u32 = 4096;

/// The area a piece takes in a picture: its footprint, and a margin around go and xiangqi
/// grids, whose pieces sit on the outermost lines.
fn picture_extent(piece: &Piece) -> Extent {
    let mut area = extent(piece);
    if piece.kind == PieceKind::Board && matches!(&*piece.cfg, "go" | "morris" | "alquerque") {
        area = Extent::around(
            piece.x,
            piece.y,
            area.width() / 2.0 + 0.5,
            area.height() / 2.0 + 0.5,
        );
    }
    area
}

/// The area every scene covers, so that the frames of an animation share one frame.
pub fn scenes_extent<'a>(scenes: impl IntoIterator<Item = &'a Scene>) -> Option<Extent> {
    scenes
        .into_iter()
        .flat_map(|scene| scene.pieces.iter())
        .filter(|piece| piece.x.is_finite() && piece.y.is_finite())
        .map(picture_extent)
        .reduce(Extent::union)
}

/// Where the board goes in the picture.
#[derive(Clone, Debug)]
struct View {
    bounds: Extent,
    unit: f64,
    flip: bool,
    /// Pixels left of and above the board (labels, caption).
    left: f64,
    top: f64,
    width: f64,
    height: f64,
    /// What the picture shows, for those who cannot see it: the caption.
    title: Option<String>,
}

impl View {
    fn new(bounds: Extent, options: &SvgOptions) -> View {
        let margin = if options.coordinates { 0.5 } else { 0.15 };
        let caption = if options.caption.is_some() { 0.6 } else { 0.0 };
        let units_wide = bounds.width() + 2.0 * margin;
        let units_high = bounds.height() + 2.0 * margin + caption;
        let mut unit = match options.width {
            Some(width) => f64::from(width.clamp(16, MAX_PIXELS)) / units_wide,
            None => DEFAULT_UNIT.min(MAX_DEFAULT_WIDTH / units_wide),
        };
        let longest = units_wide.max(units_high);
        if longest * unit > f64::from(MAX_PIXELS) {
            unit = f64::from(MAX_PIXELS) / longest;
        }
        View {
            bounds,
            unit,
            flip: options.flip,
            left: margin * unit,
            top: (margin + caption) * unit,
            width: (units_wide * unit).round().max(1.0),
            height: (units_high * unit).round().max(1.0),
            title: options
                .caption
                .clone()
                .filter(|caption| !caption.is_empty())
                .map(|caption| match caption.as_str() {
                    "start" => "The starting board".to_string(),
                    _ => format!("The board after {caption}"),
                }),
        }
    }

    /// The pixel position of scene point (x, y).
    fn at(&self, x: f64, y: f64) -> (f64, f64) {
        let (dx, dy) = if self.flip {
            (self.bounds.xmax - x, y - self.bounds.ymin)
        } else {
            (x - self.bounds.xmin, self.bounds.ymax - y)
        };
        (self.left + dx * self.unit, self.top + dy * self.unit)
    }

    /// Pixels for a length in units.
    fn len(&self, units: f64) -> f64 {
        units * self.unit
    }
}

/// An SVG document being written: the glyphs used go into `<defs>` once.
struct Writer {
    body: String,
    glyphs: BTreeMap<char, Glyph>,
}

fn n(value: f64) -> String {
    short(value)
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

impl Writer {
    fn new() -> Writer {
        Writer {
            body: String::new(),
            glyphs: BTreeMap::new(),
        }
    }

    fn push(&mut self, text: &str) {
        self.body.push_str(text);
    }

    /// `text` centred on (cx, cy), `size` pixels high (an em), turned `angle` degrees
    /// counter-clockwise. Characters the fonts lack are left out.
    fn text(&mut self, text: &str, cx: f64, cy: f64, size: f64, style: &str, angle: f64) {
        let mut pen = 0.0;
        let mut placed = Vec::new();
        let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
        for c in text.chars() {
            let Some(found) = glyph(c) else {
                continue;
            };
            if !found.path.is_empty() {
                let (gx0, gy0, gx1, gy1) = found.bounds;
                x0 = x0.min(pen + gx0);
                x1 = x1.max(pen + gx1);
                y0 = y0.min(gy0);
                y1 = y1.max(gy1);
                placed.push((c, pen));
            }
            pen += found.advance;
            self.glyphs.entry(c).or_insert(found);
        }
        if placed.is_empty() {
            return;
        }
        // Centre the ink, not the advance box: symbols sit where the eye expects them.
        let ox = cx - (x0 + x1) / 2.0 * size;
        let oy = cy - (y0 + y1) / 2.0 * size;
        let turn = if angle.rem_euclid(360.0) != 0.0 {
            format!(" transform=\"rotate({} {} {})\"", n(-angle), n(cx), n(cy))
        } else {
            String::new()
        };
        let _ = write!(self.body, "<g{turn} {style}>");
        for (c, offset) in placed {
            let _ = write!(
                self.body,
                "<use href=\"#g{:x}\" transform=\"translate({} {}) scale({})\"/>",
                u32::from(c),
                n(ox + offset * size),
                n(oy),
                n(size)
            );
        }
        self.body.push_str("</g>");
    }

    fn defs(&self) -> String {
        let mut out = String::from("<defs>");
        for (c, found) in &self.glyphs {
            if !found.path.is_empty() {
                let _ = write!(
                    out,
                    "<path id=\"g{:x}\" d=\"{}\"/>",
                    u32::from(*c),
                    found.path.trim_end()
                );
            }
        }
        out.push_str("</defs>");
        out
    }
}

/// A picture of one board.
pub fn svg(scene: &Scene, options: &SvgOptions) -> String {
    let bounds = scenes_extent([scene]).unwrap_or(Extent::around(1.0, 1.0, 1.0, 1.0));
    let view = View::new(bounds, options);
    let mut writer = Writer::new();
    draw_scene(&mut writer, scene, &view, options);
    document(&view, &writer, &writer.body)
}

/// Where the unit squares around `points` (scene coordinates) lie on the picture [`svg`]
/// draws of `scene` with `options`: `[left, top, width, height]` as fractions of the
/// picture's width and height, for laying targets over it.
pub fn picture_boxes(scene: &Scene, options: &SvgOptions, points: &[(f64, f64)]) -> Vec<[f64; 4]> {
    let bounds = scenes_extent([scene]).unwrap_or(Extent::around(1.0, 1.0, 1.0, 1.0));
    let view = View::new(bounds, options);
    points
        .iter()
        .map(|&(x, y)| {
            let (x0, y0) = view.at(x - 0.5, y + 0.5);
            let (x1, y1) = view.at(x + 0.5, y - 0.5);
            let (left, right) = (x0.min(x1), x0.max(x1));
            let (top, bottom) = (y0.min(y1), y0.max(y1));
            [
                left / view.width,
                top / view.height,
                (right - left) / view.width,
                (bottom - top) / view.height,
            ]
        })
        .collect()
}

fn document(view: &View, writer: &Writer, body: &str) -> String {
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" \
         viewBox=\"0 0 {w} {h}\" role=\"img\"><title>{title}</title>{defs}\
         <rect width=\"{w}\" height=\"{h}\" fill=\"#ffffff\"/>{body}</svg>\n",
        w = n(view.width),
        h = n(view.height),
        title = escape(view.title.as_deref().unwrap_or("A board")),
        defs = writer.defs(),
    )
}

/// One board drawn as a frame of an animation.
pub struct Frame<'a> {
    pub scene: &'a Scene,
    pub caption: Option<String>,
}

/// The frames of an animation as pictures of their own, all in the frame of the whole
/// animation (for GIF), drawn one at a time as they are asked for.
pub fn still_frames<'a>(
    frames: &'a [Frame<'a>],
    options: &SvgOptions,
) -> impl Iterator<Item = String> + 'a {
    let bounds = scenes_extent(frames.iter().map(|frame| frame.scene))
        .unwrap_or(Extent::around(1.0, 1.0, 1.0, 1.0));
    let mut options = options.clone();
    if frames.iter().any(|frame| frame.caption.is_some()) {
        options.caption = Some(String::new());
    }
    let view = View::new(bounds, &options);
    frames.iter().map(move |frame| {
        let mut writer = Writer::new();
        let frame_options = SvgOptions {
            caption: frame.caption.clone(),
            ..options.clone()
        };
        draw_scene(&mut writer, frame.scene, &view, &frame_options);
        document(&view, &writer, &writer.body)
    })
}

/// An SVG that plays `frames` one after the other, `seconds` each, in a loop (SMIL
/// animation, which browsers play; a viewer that does not shows the first frame).
pub fn animation(frames: &[Frame<'_>], options: &SvgOptions, seconds: f64) -> String {
    let bounds = scenes_extent(frames.iter().map(|frame| frame.scene))
        .unwrap_or(Extent::around(1.0, 1.0, 1.0, 1.0));
    let mut options = options.clone();
    if frames.iter().any(|frame| frame.caption.is_some()) {
        options.caption = Some(String::new());
    }
    let view = View::new(bounds, &options);
    let mut writer = Writer::new();
    let count = frames.len().max(1) as f64;
    let seconds = if seconds.is_finite() && seconds > 0.0 {
        seconds
    } else {
        1.0
    };
    let total = seconds * count;
    for (i, frame) in frames.iter().enumerate() {
        let start = i as f64 / count;
        let end = (i as f64 + 1.0) / count;
        let _ = write!(
            writer.body,
            "<g id=\"frame-{i}\" visibility=\"{}\"><animate attributeName=\"visibility\" \
             values=\"hidden;visible;hidden\" keyTimes=\"0;{};{}\" dur=\"{}s\" \
             calcMode=\"discrete\" repeatCount=\"indefinite\"/>",
            if i == 0 { "visible" } else { "hidden" },
            n(start),
            n(end),
            n(total)
        );
        let frame_options = SvgOptions {
            caption: frame.caption.clone(),
            ..options.clone()
        };
        draw_scene(&mut writer, frame.scene, &view, &frame_options);
        writer.push("</g>");
    }
    let body = std::mem::take(&mut writer.body);
    document(&view, &writer, &body)
}

fn draw_scene(writer: &mut Writer, scene: &Scene, view: &View, options: &SvgOptions) {
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
fn elevations(scene: &Scene) -> Vec<u32> {
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
const MOST_CELLS_INDEXED: i128 = 64;

/// The unit cell holding a point (for indexing, not drawing).
fn unit_cell(x: f64, y: f64) -> (i64, i64) {
    // `as` saturates, so a point far off stays a valid key.
    (x.floor() as i64, y.floor() as i64)
}

const LIFT_PER_LEVEL: f64 = 0.08;

/// How many pieces with a face (dice, coins) each piece stands on at its point: a pawn on a
/// die, a coin on a coin. Such a piece is drawn smaller, towards the cell's top right
/// corner ([`perch`]), so that the face under it still shows.
fn perches(scene: &Scene) -> Vec<u32> {
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
fn perch(piece: &Piece, level: u32) -> (Piece, f64) {
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

fn lift(piece: &Piece, height: u32) -> Piece {
    let shift = LIFT_PER_LEVEL * f64::from(height.min(12));
    Piece {
        x: piece.x - shift,
        y: piece.y + shift,
        ..*piece
    }
}

fn draw_shadow(writer: &mut Writer, piece: &Piece, view: &View) {
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
fn fit(text: &str, width: f64) -> String {
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

fn draw_highlight(writer: &mut Writer, piece: &Piece, view: &View, scale: f64) {
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

fn draw_squares(writer: &mut Writer, scene: &Scene, view: &View) {
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

fn mark_color(color: MarkColor) -> &'static str {
    match color {
        MarkColor::Blue => "#1f6fd1",
        MarkColor::Green => "#2ca02c",
        MarkColor::Magenta => "#d6269d",
    }
}

fn draw_annotations(writer: &mut Writer, scene: &Scene, view: &View) {
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

fn draw_coordinates(writer: &mut Writer, scene: &Scene, view: &View) {
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

/// Light and dark squares of a board in colour `suit`.
fn board_colors(suit: i32) -> (&'static str, &'static str) {
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

fn piece_group_open(writer: &mut Writer, scene: &Scene, index: usize) {
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
fn draw_piece(
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

/// A rectangle of `w` × `h` units centred on the piece, turned with it.
fn rect(
    writer: &mut Writer,
    piece: &Piece,
    view: &View,
    (w, h): (f64, f64),
    round: f64,
    style: &str,
) {
    let (cx, cy) = view.at(piece.x, piece.y);
    let _ = write!(
        writer.body,
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"{}\"{} {style}/>",
        n(cx - view.len(w) / 2.0),
        n(cy - view.len(h) / 2.0),
        n(view.len(w)),
        n(view.len(h)),
        n(view.len(round)),
        rotation(piece.angle, cx, cy),
    );
}

fn rotation(angle: f64, cx: f64, cy: f64) -> String {
    let angle = if angle.is_finite() {
        angle.rem_euclid(360.0)
    } else {
        0.0
    };
    if angle == 0.0 {
        String::new()
    } else {
        format!(" transform=\"rotate({} {} {})\"", n(-angle), n(cx), n(cy))
    }
}

/// The glyphs and colour of a piecepack-like suit.
fn suit_symbol(piece: &Piece) -> String {
    let index = usize::try_from(piece.suit - 1).ok();
    let pick = |symbols: &[&str]| {
        index
            .and_then(|i| symbols.get(i).copied())
            .unwrap_or("?")
            .to_string()
    };
    match family(&piece.cfg) {
        Family::FrenchPiecepack { hollow: false } | Family::PlayingCards => {
            pick(&["♥", "♠", "♣", "♦"])
        }
        Family::FrenchPiecepack { hollow: true } => pick(&["♡", "♤", "♧", "♢"]),
        _ => pick(&["☀", "☾", "♛", "⚜"]),
    }
}

fn ink(piece: &Piece) -> &'static str {
    match family(&piece.cfg) {
        Family::FrenchPiecepack { .. } | Family::PlayingCards => {
            if matches!(piece.suit, 1 | 4) {
                "#c62828"
            } else {
                "#111111"
            }
        }
        _ => {
            if piece.suit == 6 {
                "#888888"
            } else {
                suit_color(piece.suit)
            }
        }
    }
}

fn rank_symbol(piece: &Piece) -> String {
    match family(&piece.cfg) {
        Family::PlayingCards => [
            "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K",
        ]
        .get(usize::try_from(piece.rank - 1).unwrap_or(99))
        .map_or_else(|| "★".to_string(), |s| s.to_string()),
        _ => match piece.rank {
            1 => "n".to_string(),
            2 => "a".to_string(),
            r => (r - 1).to_string(),
        },
    }
}

fn fill_style(fill: &str, stroke: &str, width: f64) -> String {
    format!(
        "fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"{}\"",
        n(width)
    )
}

fn draw_tile(writer: &mut Writer, piece: &Piece, view: &View) {
    let (cx, cy) = view.at(piece.x, piece.y);
    let line = view.len(0.03);
    if family(&piece.cfg) == Family::Dominoes {
        draw_domino(writer, piece, view);
        return;
    }
    let size = if &*piece.cfg == "subpack" { 1.0 } else { 2.0 };
    if piece.side == Side::Back {
        rect(
            writer,
            piece,
            view,
            (size * 0.97, size * 0.97),
            0.08 * size,
            &fill_style("#e8dfc4", "#3b3326", line * 1.5),
        );
        // The back of a tile is ruled into cells: lay tiles back up and they make a grid.
        let half = view.len(size * 0.97) / 2.0;
        let _ = write!(
            writer.body,
            "<path d=\"M{} {}L{} {}M{} {}L{} {}\" stroke=\"#3b3326\" stroke-width=\"{}\"{}/>",
            n(cx - half),
            n(cy),
            n(cx + half),
            n(cy),
            n(cx),
            n(cy - half),
            n(cx),
            n(cy + half),
            n(line * 1.3),
            rotation(piece.angle, cx, cy)
        );
        return;
    }
    rect(
        writer,
        piece,
        view,
        (size * 0.97, size * 0.97),
        0.08 * size,
        &fill_style("#fbf8ef", "#3b3326", line * 1.5),
    );
    let colour = ink(piece);
    let style = format!("fill=\"{colour}\"");
    writer.text(
        &rank_symbol(piece),
        cx,
        cy,
        view.len(0.75 * size),
        &style,
        piece.angle,
    );
    // The suit in the corner that is the tile's top left.
    let angle = piece.angle.to_radians();
    let (ox, oy) = (-0.31 * size, 0.31 * size);
    let (rx, ry) = (
        ox * angle.cos() - oy * angle.sin(),
        ox * angle.sin() + oy * angle.cos(),
    );
    let (sx, sy) = view.at(piece.x + rx, piece.y + ry);
    draw_suit(
        writer,
        piece,
        (sx, sy),
        view.len(0.3 * size),
        &style,
        piece.angle,
    );
}

/// A piece's suit symbol centred on `at`, `size` its em. The font's Moon is a thin
/// outline that reads as an arc at a coin's size: the Moons are drawn as a solid crescent
/// instead, as tall as the other suits' ink.
fn draw_suit(
    writer: &mut Writer,
    piece: &Piece,
    (cx, cy): (f64, f64),
    size: f64,
    style: &str,
    angle: f64,
) {
    if family(&piece.cfg) != Family::Piecepack || piece.suit != 2 {
        writer.text(&suit_symbol(piece), cx, cy, size, style, angle);
        return;
    }
    // Two circles: the outer one's left part, less the inner one. The ink's middle is left
    // of the outer circle's centre, so the crescent is moved right.
    // The inner circle, 0.85 of the outer one's radius and 0.45 of it to the right, meets
    // the outer one at (0.5333, ±0.8457) of its radius.
    let outer = 0.39 * size;
    let inner = 0.85 * outer;
    let (ix, iy) = (0.5333 * outer, 0.8457 * outer);
    let ox = cx + 0.25 * outer;
    let turn = if angle.is_finite() && angle.rem_euclid(360.0) != 0.0 {
        format!(" transform=\"rotate({} {} {})\"", n(-angle), n(cx), n(cy))
    } else {
        String::new()
    };
    let _ = write!(
        writer.body,
        "<path class=\"moon\" d=\"M{} {}A{} {} 0 1 0 {} {}A{} {} 0 1 1 {} {}Z\" {style}{turn}/>",
        n(ox + ix),
        n(cy - iy),
        n(outer),
        n(outer),
        n(ox + ix),
        n(cy + iy),
        n(inner),
        n(inner),
        n(ox + ix),
        n(cy - iy),
    );
}

/// Pip positions on a domino half or a die face, in units of the half's size.
fn pip_layout(count: i32) -> &'static [(f64, f64)] {
    const C: f64 = 0.0;
    const A: f64 = 0.27;
    match count {
        1 => &[(C, C)],
        2 => &[(-A, -A), (A, A)],
        3 => &[(-A, -A), (C, C), (A, A)],
        4 => &[(-A, -A), (A, -A), (-A, A), (A, A)],
        5 => &[(-A, -A), (A, -A), (C, C), (-A, A), (A, A)],
        6 => &[(-A, -A), (A, -A), (-A, C), (A, C), (-A, A), (A, A)],
        7 => &[(-A, -A), (A, -A), (-A, C), (C, C), (A, C), (-A, A), (A, A)],
        8 => &[
            (-A, -A),
            (C, -A),
            (A, -A),
            (-A, C),
            (A, C),
            (-A, A),
            (C, A),
            (A, A),
        ],
        9 => &[
            (-A, -A),
            (C, -A),
            (A, -A),
            (-A, C),
            (C, C),
            (A, C),
            (-A, A),
            (C, A),
            (A, A),
        ],
        _ => &[],
    }
}

/// Pips (or, past nine, the number) around (cx, cy) in a square `size` pixels wide.
fn draw_pips(writer: &mut Writer, count: i32, cx: f64, cy: f64, size: f64, colour: &str) {
    let layout = pip_layout(count);
    if layout.is_empty() && count > 0 {
        writer.text(
            &count.to_string(),
            cx,
            cy,
            size * 0.6,
            &format!("fill=\"{colour}\""),
            0.0,
        );
        return;
    }
    for (dx, dy) in layout {
        let _ = write!(
            writer.body,
            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{colour}\"/>",
            n(cx + dx * size),
            n(cy + dy * size),
            n(size * 0.09)
        );
    }
}

fn domino_colors(cfg: &str) -> (&'static str, &'static str) {
    match cfg {
        "dominoes_black" => ("#222222", "#ffffff"),
        "dominoes_blue" => ("#1f5fa8", "#ffffff"),
        "dominoes_green" => ("#2f7d4f", "#ffffff"),
        "dominoes_red" => ("#b3261e", "#ffffff"),
        "dominoes_yellow" => ("#f2c230", "#222222"),
        _ => ("#fbfaf5", "#222222"),
    }
}

fn draw_domino(writer: &mut Writer, piece: &Piece, view: &View) {
    let (cx, cy) = view.at(piece.x, piece.y);
    let (fill, pip) = domino_colors(&piece.cfg);
    let line = view.len(0.03);
    let _ = write!(writer.body, "<g{}>", rotation(piece.angle, cx, cy));
    let (w, h) = (view.len(0.96), view.len(1.96));
    let _ = write!(
        writer.body,
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"{}\" {}/>",
        n(cx - w / 2.0),
        n(cy - h / 2.0),
        n(w),
        n(h),
        n(view.len(0.1)),
        fill_style(fill, "#333333", line * 1.5)
    );
    if piece.side != Side::Back {
        let _ = write!(
            writer.body,
            "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{pip}\" stroke-width=\"{}\"/>",
            n(cx - w * 0.4),
            n(cy),
            n(cx + w * 0.4),
            n(cy),
            n(line * 1.3)
        );
        // The rank is the top half when the domino is upright, the suit the bottom one.
        let half = view.len(1.0);
        draw_pips(writer, piece.rank - 1, cx, cy - half / 2.0, half, pip);
        draw_pips(writer, piece.suit - 1, cx, cy + half / 2.0, half, pip);
    }
    writer.push("</g>");
}

fn draw_card(writer: &mut Writer, piece: &Piece, view: &View) {
    let (cx, cy) = view.at(piece.x, piece.y);
    let line = view.len(0.03);
    if piece.side == Side::Back {
        rect(
            writer,
            piece,
            view,
            (1.9, 2.9),
            0.15,
            &fill_style("#3a5a9b", "#ffffff", line * 3.0),
        );
        return;
    }
    rect(
        writer,
        piece,
        view,
        (1.9, 2.9),
        0.15,
        &fill_style("#ffffff", "#333333", line),
    );
    let style = format!("fill=\"{}\"", ink(piece));
    let _ = write!(writer.body, "<g{}>", rotation(piece.angle, cx, cy));
    writer.text(
        &rank_symbol(piece),
        cx - view.len(0.6),
        cy - view.len(1.1),
        view.len(0.45),
        &style,
        0.0,
    );
    writer.text(
        &suit_symbol(piece),
        cx - view.len(0.6),
        cy - view.len(0.65),
        view.len(0.35),
        &style,
        0.0,
    );
    writer.text(&suit_symbol(piece), cx, cy, view.len(1.0), &style, 0.0);
    writer.push("</g>");
}

fn draw_coin(writer: &mut Writer, piece: &Piece, view: &View) {
    let (cx, cy) = view.at(piece.x, piece.y);
    let _ = write!(
        writer.body,
        "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" {}/>",
        n(cx),
        n(cy),
        n(view.len(0.37)),
        fill_style(
            if piece.side == Side::Back {
                "#efe2bd"
            } else {
                "#fbf6e6"
            },
            "#6b5a37",
            view.len(0.035)
        )
    );
    let style = format!("fill=\"{}\"", ink(piece));
    if piece.side == Side::Back {
        draw_suit(writer, piece, (cx, cy), view.len(0.42), &style, piece.angle);
    } else {
        writer.text(
            &rank_symbol(piece),
            cx,
            cy,
            view.len(0.42),
            &style,
            piece.angle,
        );
    }
}

fn draw_die(writer: &mut Writer, piece: &Piece, view: &View) {
    let (cx, cy) = view.at(piece.x, piece.y);
    let fam = family(&piece.cfg);
    let (fill, colour) = match fam {
        Family::Dice | Family::DiceFudge | Family::DiceNumeral => {
            let fill = suit_color(piece.suit);
            let pip = if matches!(piece.suit, 5 | 6) {
                "#222222"
            } else {
                "#ffffff"
            };
            (fill, pip)
        }
        _ => ("#fbf6e6", ink(piece)),
    };
    rect(
        writer,
        piece,
        view,
        (0.56, 0.56),
        0.08,
        &fill_style(fill, "#333333", view.len(0.03)),
    );
    match fam {
        Family::Dice => {
            let _ = write!(writer.body, "<g{}>", rotation(piece.angle, cx, cy));
            draw_pips(writer, piece.rank, cx, cy, view.len(0.56), colour);
            writer.push("</g>");
        }
        Family::DiceFudge => {
            let symbol = match piece.rank {
                1 | 6 => "−",
                3 | 4 => "+",
                _ => "",
            };
            writer.text(
                symbol,
                cx,
                cy,
                view.len(0.4),
                &format!("fill=\"{colour}\""),
                piece.angle,
            );
        }
        Family::DiceNumeral => writer.text(
            &piece.rank.to_string(),
            cx,
            cy,
            view.len(0.38),
            &format!("fill=\"{colour}\""),
            piece.angle,
        ),
        _ => writer.text(
            &rank_symbol(piece),
            cx,
            cy,
            view.len(0.36),
            &format!("fill=\"{colour}\""),
            piece.angle,
        ),
    }
}

fn draw_pawn(writer: &mut Writer, piece: &Piece, view: &View) {
    let (cx, cy) = view.at(piece.x, piece.y);
    let colour = ink(piece);
    let u = view.len(1.0);
    // A pawn seen from the front: a head on a flared body (the head's arc goes over the
    // top, against the clock on the screen).
    let path = format!(
        "M{} {}L{} {}Q{} {} {} {}A{} {} 0 1 0 {} {}Q{} {} {} {}Z",
        n(cx - 0.3 * u),
        n(cy + 0.38 * u),
        n(cx + 0.3 * u),
        n(cy + 0.38 * u),
        n(cx + 0.12 * u),
        n(cy + 0.1 * u),
        n(cx + 0.1 * u),
        n(cy - 0.08 * u),
        n(0.17 * u),
        n(0.17 * u),
        n(cx - 0.1 * u),
        n(cy - 0.08 * u),
        n(cx - 0.12 * u),
        n(cy + 0.1 * u),
        n(cx - 0.3 * u),
        n(cy + 0.38 * u),
    );
    let stroke = if piece.suit == 2 {
        "#dddddd"
    } else {
        "#222222"
    };
    let fill = if piece.suit == 6 { "#ffffff" } else { colour };
    let _ = write!(
        writer.body,
        "<path d=\"{path}\" {}{}/>",
        fill_style(fill, stroke, view.len(0.03)),
        rotation(piece.angle, cx, cy)
    );
}

fn draw_saucer(writer: &mut Writer, piece: &Piece, view: &View) {
    let (cx, cy) = view.at(piece.x, piece.y);
    let colour = suit_color(piece.suit);
    let fill = if piece.side == Side::Back {
        "#eeeeee"
    } else {
        colour
    };
    let _ = write!(
        writer.body,
        "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" {}/><circle cx=\"{}\" cy=\"{}\" r=\"{}\" \
         fill=\"none\" stroke=\"#333333\" stroke-width=\"{}\"/>",
        n(cx),
        n(cy),
        n(view.len(0.37)),
        fill_style(fill, "#333333", view.len(0.03)),
        n(cx),
        n(cy),
        n(view.len(0.22)),
        n(view.len(0.025))
    );
}

fn draw_pyramid(writer: &mut Writer, piece: &Piece, view: &View) {
    let (cx, cy) = view.at(piece.x, piece.y);
    let size = 0.35 + 0.13 * f64::from(piece.rank.clamp(1, 3));
    let half = view.len(size) / 2.0;
    let colour = suit_color(piece.suit);
    let stroke = if piece.suit == 2 {
        "#cccccc"
    } else {
        "#222222"
    };
    let width = view.len(0.025);
    if matches!(piece.side, Side::Top | Side::Base) {
        // From above: a square with its four faces meeting at the tip.
        let _ = write!(
            writer.body,
            "<g{}><rect x=\"{}\" y=\"{}\" width=\"{s}\" height=\"{s}\" {}/>\
             <path d=\"M{} {}L{} {}M{} {}L{} {}\" stroke=\"{stroke}\" stroke-width=\"{}\"/></g>",
            rotation(piece.angle, cx, cy),
            n(cx - half),
            n(cy - half),
            fill_style(colour, stroke, width),
            n(cx - half),
            n(cy - half),
            n(cx + half),
            n(cy + half),
            n(cx + half),
            n(cy - half),
            n(cx - half),
            n(cy + half),
            n(width),
            s = n(2.0 * half),
        );
    } else {
        // Lying down: a triangle pointing where the tip points.
        let length = half * 1.6;
        let _ = write!(
            writer.body,
            "<path d=\"M{} {}L{} {}L{} {}Z\" {}{}/>",
            n(cx),
            n(cy - length / 2.0),
            n(cx + half),
            n(cy + length / 2.0),
            n(cx - half),
            n(cy + length / 2.0),
            fill_style(colour, stroke, width),
            rotation(piece.angle, cx, cy)
        );
    }
}

fn draw_matchstick(writer: &mut Writer, piece: &Piece, view: &View) {
    let length = matchstick_length(piece.rank);
    rect(
        writer,
        piece,
        view,
        (0.12, length),
        0.04,
        &fill_style(suit_color(piece.suit), "#222222", view.len(0.02)),
    );
}

fn disc(writer: &mut Writer, cx: f64, cy: f64, r: f64, fill: &str, stroke: &str, width: f64) {
    let _ = write!(
        writer.body,
        "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" {}/>",
        n(cx),
        n(cy),
        n(r),
        fill_style(fill, stroke, width)
    );
}

fn draw_bit(writer: &mut Writer, piece: &Piece, view: &View) {
    let (cx, cy) = view.at(piece.x, piece.y);
    let light = is_light(piece);
    let line = view.len(0.03);
    match family(&piece.cfg) {
        Family::Chess => {
            let symbol = ["♟", "♞", "♝", "♜", "♛", "♚"]
                .get(usize::try_from(piece.rank - 1).unwrap_or(9))
                .copied()
                .unwrap_or("?");
            let (fill, stroke) = if light {
                ("#ffffff", "#111111")
            } else {
                (
                    if piece.suit == 2 {
                        "#1a1a1a"
                    } else {
                        suit_color(piece.suit)
                    },
                    "#ffffff",
                )
            };
            let style = format!(
                "fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"{}\" paint-order=\"stroke\"",
                n(0.05)
            );
            writer.text(symbol, cx, cy, view.len(0.82), &style, piece.angle);
            if light {
                // The solid glyph filled white needs its inner lines drawn over it.
                let outline = ["♙", "♘", "♗", "♖", "♕", "♔"]
                    .get(usize::try_from(piece.rank - 1).unwrap_or(9))
                    .copied()
                    .unwrap_or("?");
                writer.text(
                    outline,
                    cx,
                    cy,
                    view.len(0.82),
                    "fill=\"#111111\"",
                    piece.angle,
                );
            }
        }
        Family::Checkers | Family::Reversi => {
            let reversi = family(&piece.cfg) == Family::Reversi;
            let shown_light = if reversi && piece.side == Side::Back {
                !light
            } else {
                light
            };
            let fill = if shown_light {
                "#f4f1e8"
            } else if reversi || piece.suit == 2 {
                "#1f1f1f"
            } else {
                suit_color(piece.suit)
            };
            let ring = if shown_light { "#555555" } else { "#dddddd" };
            disc(writer, cx, cy, view.len(0.4), fill, "#111111", line);
            if !reversi {
                let _ = write!(
                    writer.body,
                    "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"none\" stroke=\"{ring}\" stroke-width=\"{}\"/>",
                    n(cx),
                    n(cy),
                    n(view.len(0.28)),
                    n(line)
                );
                if piece.side == Side::Face {
                    writer.text(
                        "♛",
                        cx,
                        cy,
                        view.len(0.36),
                        &format!("fill=\"{ring}\""),
                        0.0,
                    );
                }
            }
        }
        Family::Go | Family::Stones => {
            let r = if family(&piece.cfg) == Family::Go {
                0.47
            } else {
                0.36
            };
            let fill = match piece.suit {
                2 => "#111111",
                6 => "#f7f7f7",
                suit => suit_color(suit),
            };
            let stroke = if piece.suit == 2 {
                "#000000"
            } else {
                "#333333"
            };
            disc(writer, cx, cy, view.len(r), fill, stroke, line);
        }
        Family::Tafl => {
            let (fill, stroke, text) = if light {
                ("#f6f1e4", "#3a2d1c", "#3a2d1c")
            } else {
                ("#2b2520", "#f6f1e4", "#f6f1e4")
            };
            disc(writer, cx, cy, view.len(0.4), fill, stroke, line * 1.5);
            let mark = match TaflMan::from_rank(piece.rank) {
                Some(TaflMan::King) => "♚",
                Some(TaflMan::Commander) => "C",
                Some(TaflMan::Knight) => "♞",
                Some(TaflMan::Guard) => "G",
                Some(TaflMan::Mercenary) => "M",
                Some(TaflMan::Taflman) | None => "",
            };
            if mark == "♚" {
                let _ = write!(
                    writer.body,
                    "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"none\" stroke=\"#c8961e\" stroke-width=\"{}\"/>",
                    n(cx),
                    n(cy),
                    n(view.len(0.34)),
                    n(line * 2.0)
                );
            }
            let size = if mark == "♚" { 0.7 } else { 0.5 };
            writer.text(
                mark,
                cx,
                cy,
                view.len(size),
                &format!("fill=\"{text}\""),
                0.0,
            );
        }
        Family::Xiangqi => {
            let red = piece.suit != 2;
            let colour = if red { "#c0281e" } else { "#1c1c1c" };
            disc(
                writer,
                cx,
                cy,
                view.len(0.44),
                "#f7e7c4",
                colour,
                line * 1.5,
            );
            let _ = write!(
                writer.body,
                "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"{}\"/>",
                n(cx),
                n(cy),
                n(view.len(0.36)),
                n(line * 0.8)
            );
            let name = XiangqiPiece::from_rank(piece.rank).map_or("?", |kind| {
                let index = XiangqiPiece::ALL
                    .iter()
                    .position(|k| *k == kind)
                    .unwrap_or(0);
                if red {
                    ["帥", "仕", "相", "傌", "俥", "炮", "兵"][index]
                } else {
                    ["將", "士", "象", "馬", "車", "砲", "卒"][index]
                }
            });
            writer.text(
                name,
                cx,
                cy,
                view.len(0.48),
                &format!("fill=\"{colour}\""),
                0.0,
            );
        }
        _ => {
            let fill = suit_color(piece.suit);
            disc(writer, cx, cy, view.len(0.36), fill, "#222222", line);
            if piece.side == Side::Face {
                let text = if matches!(piece.suit, 5 | 6) {
                    "#222222"
                } else {
                    "#ffffff"
                };
                writer.text(
                    &piece.rank.to_string(),
                    cx,
                    cy,
                    view.len(0.35),
                    &format!("fill=\"{text}\""),
                    0.0,
                );
            }
        }
    }
}

fn lines(writer: &mut Writer, segments: &[Segment], view: &View, width: f64, colour: &str) {
    let mut d = String::new();
    for ((x0, y0), (x1, y1)) in segments {
        let (a, b) = view.at(*x0, *y0);
        let (c, e) = view.at(*x1, *y1);
        let _ = write!(d, "M{} {}L{} {}", n(a), n(b), n(c), n(e));
    }
    let _ = write!(
        writer.body,
        "<path d=\"{d}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"{}\" stroke-linecap=\"square\"/>",
        n(view.len(width))
    );
}

fn area_rect(writer: &mut Writer, area: Extent, view: &View, style: &str) {
    let (x0, y0) = view.at(area.xmin, area.ymax);
    let (x1, y1) = view.at(area.xmax, area.ymin);
    let _ = write!(
        writer.body,
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" {style}/>",
        n(x0.min(x1)),
        n(y0.min(y1)),
        n((x1 - x0).abs()),
        n((y1 - y0).abs())
    );
}

/// Lines through the points `from..=to` both ways: a grid of points (go, alquerque).
fn point_grid(from: (f64, f64), count: (i64, i64)) -> Vec<Segment> {
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

fn draw_board(writer: &mut Writer, piece: &Piece, view: &View) {
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

fn cell_lines(area: Extent, cells: i64, cell: f64) -> Vec<Segment> {
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

fn morris_lines(piece: &Piece, men: i64) -> Vec<Segment> {
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

fn draw_xiangqi_board(writer: &mut Writer, piece: &Piece, view: &View, outline: &str) {
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
const RIVER_TEXT_SIZE: f64 = 0.4;

#[cfg(test)]
mod tests;

#[cfg(test)]
mod fit_tests {
    use super::fit;

    #[test]
    fn long_captions_are_cut_to_the_picture() {
        assert_eq!(fit("1. a1-b2", 20.0), "1. a1-b2");
        let cut = fit(&"x".repeat(100), 10.0);
        assert!(cut.ends_with("...") && cut.len() < 30, "{cut}");
    }
}
