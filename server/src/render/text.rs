//! Text diagrams in the style of the reference's `cat_piece`: every unit of the board is two
//! character cells, so pieces sit on even columns and rows and the lines between cells on
//! odd ones; boards and tiles are drawn with lines that join where they meet, pieces with
//! one character each. A legend names what is not obvious and stacks are listed.
//!
//! Three sets of characters draw the same picture ([`BoardStyle`] and `ascii`):
//! - plain (the default): characters every monospace font has (DejaVu Sans Mono's, from
//!   which Menlo and most Linux fallbacks derive), each one column wide: box drawing for the
//!   lines (East Asian "ambiguous" width, drawn two columns wide only by a terminal set to
//!   draw such characters wide: `--ascii` is for that one), one symbol or letter a piece,
//!   no character that combines with another;
//! - reference: the reference's glyphs, box drawing and a suit or rank inside a combining
//!   enclosure for coins, dice and pawns;
//! - ASCII, for terminals without Unicode.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use super::{
    axes, board_cell_width, board_cells, extent, family, is_light, scene_extent, Axes, Extent,
    Family,
};
use crate::model::games::{TaflMan, XiangqiPiece};
use crate::model::piece::{Piece, PieceKind, Side};
use crate::model::scene::{Annotation, MarkShape, Scene, SquareRole};
use crate::render::words::{describe_piece, location_name};

/// The characters a diagram is drawn with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum BoardStyle {
    /// Characters DejaVu Sans Mono has, each one column wide: box-drawing lines, pieces as
    /// one symbol or letter each, no combining marks.
    #[default]
    Plain,
    /// The reference's glyphs: box drawing, and combining enclosures around coins, dice
    /// and pawns (which most monospace fonts lack).
    Reference,
}

impl BoardStyle {
    /// The names users write (`--board-style`, the `hover.board` setting).
    pub const NAMES: [(&'static str, BoardStyle); 2] = [
        ("plain", BoardStyle::Plain),
        ("reference", BoardStyle::Reference),
    ];
}

/// How to draw a diagram.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextOptions {
    /// Files and ranks on the edges; the picture cropped to the pieces.
    pub coordinates: bool,
    /// Only ASCII characters (whatever the style).
    pub ascii: bool,
    /// Explain the glyphs that are not obvious, and list stacks.
    pub legend: bool,
    /// Mark the cells the move emptied.
    pub changes: bool,
    pub style: BoardStyle,
}

impl Default for TextOptions {
    fn default() -> Self {
        TextOptions {
            coordinates: true,
            ascii: false,
            legend: true,
            changes: false,
            style: BoardStyle::default(),
        }
    }
}

impl TextOptions {
    /// The reference's own diagram: its glyphs, no coordinates, no legend.
    pub fn reference() -> Self {
        TextOptions {
            coordinates: false,
            ascii: false,
            legend: false,
            changes: false,
            style: BoardStyle::Reference,
        }
    }
}

/// The characters a diagram is drawn with, `ascii` taken into account.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Glyphs {
    Plain,
    Reference,
    /// The reference's glyphs, turned into ASCII as the rows are written.
    Ascii,
}

impl Glyphs {
    fn of(options: &TextOptions) -> Glyphs {
        match (options.ascii, options.style) {
            (true, _) => Glyphs::Ascii,
            (false, BoardStyle::Plain) => Glyphs::Plain,
            (false, BoardStyle::Reference) => Glyphs::Reference,
        }
    }

    /// Plain and reference glyphs by style; ASCII starts from the reference's.
    fn pick<'a>(self, plain: &'a str, reference: &'a str) -> &'a str {
        if self == Glyphs::Plain {
            plain
        } else {
            reference
        }
    }
}

/// The largest diagram drawn, in character cells on a side; larger (or scattered) boards
/// are listed instead of drawn.
const MAX_CELLS: i64 = 400;

/// A text diagram of a scene, ending with a newline.
pub fn diagram(scene: &Scene, options: &TextOptions) -> String {
    let scene = &crate::render::sanitized::sane_scene(scene);
    let Some(bounds) = scene_extent(scene) else {
        return "(empty board)\n".to_string();
    };
    let mut canvas = match Canvas::for_bounds(bounds, options.coordinates) {
        Some(canvas) => canvas,
        None => return listing(scene, "The board is too large to draw; its pieces"),
    };
    let mut ctx = Context {
        legend: BTreeSet::new(),
        glyphs: Glyphs::of(options),
    };
    // Boards first (they are normally at the bottom anyway), then the marked squares on
    // them, then everything else in order.
    for piece in scene.pieces.iter().filter(|p| p.kind == PieceKind::Board) {
        draw_piece(&mut canvas, piece, &mut ctx);
    }
    for square in &scene.squares {
        if let Some((col, row)) = canvas.cell(square.x, square.y) {
            canvas.put(col, row, "⊠");
            ctx.legend.insert(match square.role {
                SquareRole::Throne | SquareRole::Corner => Legend::TaflSquares,
                SquareRole::AttackerFort | SquareRole::DefenderFort => Legend::TaflSquares,
            });
        }
    }
    for piece in scene.pieces.iter().filter(|p| p.kind != PieceKind::Board) {
        draw_piece(&mut canvas, piece, &mut ctx);
    }
    if options.changes {
        // Over the board's lines, never over a piece.
        for &(x, y) in &scene.vacated {
            if let Some((col, row)) = canvas.cell(x, y) {
                let cell = canvas.get(col, row);
                if cell.trim().is_empty() || box_bits(cell).is_some() {
                    canvas.put(col, row, ctx.glyphs.pick("✕", "×"));
                    ctx.legend.insert(Legend::Vacated);
                }
            }
        }
    }
    for annotation in &scene.annotations {
        if let Annotation::Marker { at, shape, .. } = annotation {
            if *shape == MarkShape::Blank {
                if let Some((col, row)) = canvas.cell(at.0, at.1) {
                    canvas.put(col, row, ctx.glyphs.pick("⊚", "◎"));
                    ctx.legend.insert(Legend::Markers);
                }
            }
        }
    }
    let mut out = canvas.render(options, ctx.glyphs, axes(scene));
    if options.legend {
        out.push_str(&stacks(scene));
        if ctx.glyphs != Glyphs::Reference {
            // Only the reference's combining dots show a pyramid's size.
            out.push_str(&pyramid_sizes(scene));
        }
        out.push_str(&annotations(scene));
        for line in legend_lines(&ctx.legend, ctx.glyphs) {
            out.push_str(&line);
            out.push('\n');
        }
    }
    out
}

/// The pieces in words, for boards that cannot be drawn.
fn listing(scene: &Scene, title: &str) -> String {
    let mut out = format!("{title}:\n");
    for piece in &scene.pieces {
        let _ = writeln!(
            out,
            "  {}: {}",
            location_name(piece.x, piece.y),
            describe_piece(piece)
        );
    }
    out
}

/// Cells holding more than one piece that the diagram shows only the top of: several
/// tiles, or several coins, dice, pawns or other pieces (one piece on a tile or a board is
/// what the diagram shows anyway).
fn stacks(scene: &Scene) -> String {
    let mut groups: BTreeMap<(i64, i64), Vec<&Piece>> = BTreeMap::new();
    for piece in scene
        .pieces
        .iter()
        .filter(|p| p.kind != PieceKind::Board && p.x.is_finite() && p.y.is_finite())
    {
        let key = (
            (piece.x * 1024.0).round() as i64,
            (piece.y * 1024.0).round() as i64,
        );
        groups.entry(key).or_default().push(piece);
    }
    let mut out = String::new();
    let mut tile_stacks = Vec::new();
    for stack in groups.values() {
        let tiles = stack.iter().filter(|p| p.kind == PieceKind::Tile).count();
        let others = stack.len() - tiles;
        if tiles < 2 && others < 2 {
            continue;
        }
        if others == 0 {
            // A stack of tiles is a raised part of the board: its height is what matters.
            tile_stacks.push(format!("{} ×{tiles}", area_name(stack[0])));
            continue;
        }
        if out.is_empty() {
            out.push_str("Stacks, bottom to top:\n");
        }
        let names: Vec<String> = stack.iter().map(|p| describe_piece(p)).collect();
        let _ = writeln!(
            out,
            "  {}: {}",
            location_name(stack[0].x, stack[0].y),
            names.join("; ")
        );
    }
    if !tile_stacks.is_empty() {
        let _ = writeln!(out, "Tiles stacked: {}", tile_stacks.join(", "));
    }
    out
}

/// Each pyramid's size (1 to 3) by its place, for the glyphs that cannot show it.
fn pyramid_sizes(scene: &Scene) -> String {
    let sizes: Vec<String> = scene
        .pieces
        .iter()
        .filter(|piece| piece.kind == PieceKind::Pyramid)
        .map(|piece| format!("{} {}", location_name(piece.x, piece.y), piece.rank))
        .collect();
    if sizes.is_empty() {
        String::new()
    } else {
        format!("Pyramid sizes: {}\n", sizes.join(", "))
    }
}

/// Where a piece lies: its cell, or for a tile between cells the cells it covers (`d1–e2`).
fn area_name(piece: &Piece) -> String {
    let area = extent(piece);
    let corner = |x: f64, y: f64| {
        let whole = x.fract() == 0.0 && y.fract() == 0.0 && x >= 1.0 && y >= 1.0;
        whole.then(|| location_name(x, y))
    };
    if piece.x.fract() == 0.5 && piece.y.fract() == 0.5 {
        if let (Some(low), Some(high)) = (
            corner(area.xmin + 0.5, area.ymin + 0.5),
            corner(area.xmax - 0.5, area.ymax - 0.5),
        ) {
            return format!("{low}–{high}");
        }
    }
    location_name(piece.x, piece.y)
}

fn annotations(scene: &Scene) -> String {
    let axes = axes(scene);
    let name = |(x, y): (f64, f64)| -> String {
        let whole = x.fract() == 0.0 && y.fract() == 0.0;
        match (whole, axes.file(x as i64), axes.rank(y as i64)) {
            (true, Some(file), Some(rank)) => format!("{file}{rank}"),
            _ => location_name(x, y),
        }
    };
    let arrows: Vec<String> = scene
        .annotations
        .iter()
        .filter_map(|annotation| match annotation {
            Annotation::Arrow { from, to } => Some(format!("{}→{}", name(*from), name(*to))),
            Annotation::Marker { .. } => None,
        })
        .collect();
    let markers: Vec<String> = scene
        .annotations
        .iter()
        .filter_map(|annotation| match annotation {
            Annotation::Marker { at, color, .. } => {
                Some(format!("{} ({color:?})", name(*at)).to_lowercase())
            }
            Annotation::Arrow { .. } => None,
        })
        .collect();
    let mut out = String::new();
    if !arrows.is_empty() {
        let _ = writeln!(out, "Arrows: {}", arrows.join(", "));
    }
    if !markers.is_empty() {
        let _ = writeln!(out, "Markers: {}", markers.join(", "));
    }
    out
}

/// What drawing the pieces needs to know and notes for the legend.
struct Context {
    legend: BTreeSet<Legend>,
    /// In ASCII, suits and ranks are letters chosen by the piece (the same symbol can mean
    /// a Crown or a queen, so the piece decides, not the glyph).
    glyphs: Glyphs,
}

/// What a legend line explains.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Legend {
    PiecepackSuits,
    PiecepackRanks,
    FrenchSuits,
    Coin,
    Die,
    Pawn,
    FrenchPawn,
    Saucer,
    CheckersKings,
    Pyramids,
    Tafl,
    TaflSquares,
    Xiangqi,
    Cards,
    Vacated,
    Markers,
}

fn legend_lines(legend: &BTreeSet<Legend>, glyphs: Glyphs) -> Vec<String> {
    let mut parts = Vec::new();
    for item in legend {
        let text = match (item, glyphs) {
            (Legend::PiecepackSuits, Glyphs::Plain) => "☀ Suns, ☾ Moons, ♛ Crowns, ⚜ Arms",
            (Legend::PiecepackSuits, Glyphs::Reference) => "☀ Suns, ☾ Moons, ♛ Crowns, ⸸ Arms",
            (Legend::PiecepackSuits, Glyphs::Ascii) => "S Suns, M Moons, C Crowns, A Arms",
            (Legend::PiecepackRanks, _) => "n null, a ace",
            (Legend::FrenchSuits, Glyphs::Plain) => "h s c d Hearts, Spades, Clubs, Diamonds",
            (Legend::FrenchSuits, Glyphs::Reference) => "♥ ♠ ♣ ♦ (♡ ♤ ♧ ♢) French suits",
            (Legend::FrenchSuits, Glyphs::Ascii) => "H S C D (h s c d) French suits",
            (Legend::Coin, Glyphs::Plain) => "coins show their rank, or their suit when back up",
            (Legend::Coin, Glyphs::Reference) => "x⃝ coin",
            (Legend::Coin, Glyphs::Ascii) => "coins show their rank, or their suit in lower case",
            (Legend::Die, Glyphs::Plain) => "dice ▢ ⚀ ⚁ ⚂ ⚃ ⚄ null, ace, 2, 3, 4, 5",
            (Legend::Die, Glyphs::Reference) => "x⃞ die",
            (Legend::Die, Glyphs::Ascii) => "dice show their rank",
            (Legend::Pawn, Glyphs::Plain) => "S M C A pawns",
            (Legend::FrenchPawn, Glyphs::Plain) => "H S C D pawns",
            (Legend::FrenchPawn, _) => "",
            (Legend::Pawn, Glyphs::Reference) => "x⃟ pawn",
            (Legend::Pawn, Glyphs::Ascii) => "pawns show their suit",
            (Legend::Saucer, Glyphs::Plain) => "◉ ❍ saucer face, back",
            (Legend::Saucer, Glyphs::Reference) => "◉ ◎ saucer face, back",
            (Legend::Saucer, Glyphs::Ascii) => "@ o saucer face, back",
            (Legend::CheckersKings, Glyphs::Plain) => "⚈ ⚆ men, ♚ ♔ kings",
            (Legend::CheckersKings, Glyphs::Reference) => "⛂ ⛀ men, ⛃ ⛁ kings",
            (Legend::CheckersKings, Glyphs::Ascii) => "x o men, X O kings",
            (Legend::Pyramids, Glyphs::Plain) => {
                "▴ ◂ ▾ ▸ pyramid lying (pointing its way), ◼ standing; hollow: light"
            }
            (Legend::Pyramids, Glyphs::Reference) => {
                "▲ pyramid lying (pointing its way), ■ standing; dots below: its size"
            }
            (Legend::Pyramids, Glyphs::Ascii) => {
                "^ > v < pyramid lying (pointing its way), # standing"
            }
            (Legend::Tafl, Glyphs::Plain) => "⚈ attackers, ⚆ defenders, ♔ king",
            (Legend::Tafl, Glyphs::Reference) => "● attackers, ○ defenders, ♔ king",
            (Legend::Tafl, Glyphs::Ascii) => "X attackers, O defenders, K king",
            (Legend::TaflSquares, Glyphs::Ascii) => "# throne and corners",
            (Legend::TaflSquares, _) => "⊠ throne and corners",
            (Legend::Xiangqi, _) => {
                "upper case Red, lower case Black: K general, A advisor, E elephant, \
                 H horse, R chariot, C cannon, P soldier"
            }
            (Legend::Cards, Glyphs::Plain) => "cards show rank and suit; ░ a card's back",
            (Legend::Cards, Glyphs::Reference) => "cards show rank and suit; ▒ a card's back",
            (Legend::Cards, Glyphs::Ascii) => "cards show rank and suit; # a card's back",
            (Legend::Vacated, Glyphs::Plain) => "✕ emptied by the move",
            (Legend::Vacated, Glyphs::Reference) => "× emptied by the move",
            (Legend::Vacated, Glyphs::Ascii) => "x emptied by the move",
            (Legend::Markers, Glyphs::Plain) => "⊚ marked point",
            (Legend::Markers, Glyphs::Reference) => "◎ marked point",
            (Legend::Markers, Glyphs::Ascii) => "@ marked point",
        };
        if !text.is_empty() {
            parts.push(text.to_string());
        }
    }
    if parts.is_empty() {
        Vec::new()
    } else {
        vec![format!("Key: {}", parts.join("; "))]
    }
}

/// A grid of character cells; (0, 0) is the bottom-left cell.
struct Canvas {
    cells: Vec<String>,
    width: i64,
    height: i64,
    /// The scene coordinates of cell (0, 0).
    x0: f64,
    y0: f64,
}

impl Canvas {
    /// A canvas that holds `bounds`: from the origin (or below) as the reference does, or
    /// cropped to the pieces when coordinates are drawn around it.
    fn for_bounds(bounds: Extent, cropped: bool) -> Option<Canvas> {
        let (x0, y0) = if cropped {
            (bounds.xmin, bounds.ymin)
        } else {
            (bounds.xmin.min(0.0), bounds.ymin.min(0.0))
        };
        // Far from the origin a cell is below the precision of a coordinate.
        let far = [bounds.xmin, bounds.xmax, bounds.ymin, bounds.ymax]
            .iter()
            .any(|v| v.abs() > 1e6);
        if far {
            return None;
        }
        let width = (2.0 * (bounds.xmax - x0)).round() + 1.0;
        let height = (2.0 * (bounds.ymax - y0)).round() + 1.0;
        if !(1.0..=MAX_CELLS as f64).contains(&width) || !(1.0..=MAX_CELLS as f64).contains(&height)
        {
            return None;
        }
        let (width, height) = (width as i64, height as i64);
        Some(Canvas {
            cells: vec![" ".to_string(); (width * height) as usize],
            width,
            height,
            x0,
            y0,
        })
    }

    /// The cell of scene point (x, y), if it is on the canvas.
    fn cell(&self, x: f64, y: f64) -> Option<(i64, i64)> {
        if !x.is_finite() || !y.is_finite() {
            return None;
        }
        let col = (2.0 * (x - self.x0)).round();
        let row = (2.0 * (y - self.y0)).round();
        let inside =
            (0.0..self.width as f64).contains(&col) && (0.0..self.height as f64).contains(&row);
        inside.then_some((col as i64, row as i64))
    }

    fn index(&self, col: i64, row: i64) -> Option<usize> {
        ((0..self.width).contains(&col) && (0..self.height).contains(&row))
            .then(|| (row * self.width + col) as usize)
    }

    fn get(&self, col: i64, row: i64) -> &str {
        self.index(col, row).map_or(" ", |i| &self.cells[i])
    }

    fn put(&mut self, col: i64, row: i64, text: &str) {
        if let Some(i) = self.index(col, row) {
            self.cells[i] = text.to_string();
        }
    }

    /// Joins a box-drawing line into the cell: each of top, right, bottom, left is set
    /// (0 none, 1 light, 2 heavy) or left as it is.
    fn edge(&mut self, col: i64, row: i64, sides: [Option<u8>; 4]) {
        let mut bits = box_bits(self.get(col, row)).unwrap_or([0; 4]);
        for (bit, side) in bits.iter_mut().zip(sides) {
            if let Some(side) = side {
                *bit = side;
            }
        }
        let glyph = box_char(bits).map_or_else(|| " ".to_string(), String::from);
        self.put(col, row, &glyph);
    }

    /// A box of half-width `w` and half-height `h` cells around (cx, cy), emptied inside.
    fn border(&mut self, cx: i64, cy: i64, w: i64, h: i64) {
        for i in 1 - h..h {
            for j in 1 - w..w {
                self.put(cx + j, cy + i, " ");
            }
        }
        for i in 1 - w..w {
            self.edge(cx + i, cy + h, [None, Some(1), Some(0), Some(1)]);
            self.edge(cx + i, cy - h, [Some(0), Some(1), None, Some(1)]);
        }
        for j in 1 - h..h {
            self.edge(cx + w, cy + j, [Some(1), None, Some(1), Some(0)]);
            self.edge(cx - w, cy + j, [Some(1), Some(0), Some(1), None]);
        }
        self.edge(cx - w, cy + h, [None, Some(1), Some(1), None]);
        self.edge(cx + w, cy + h, [None, None, Some(1), Some(1)]);
        self.edge(cx - w, cy - h, [Some(1), Some(1), None, None]);
        self.edge(cx + w, cy - h, [Some(1), None, None, Some(1)]);
    }

    /// Lines between the cells of a board (or a tile's quarters), `cell` cells apart.
    fn gridlines(&mut self, cx: i64, cy: i64, w: i64, h: i64, cell: i64, heavy: bool) {
        let lines = |centre: i64, half: i64| -> Vec<i64> {
            let mut at = Vec::new();
            let mut offset = 2 * cell - half;
            while cell > 0 && offset <= half - 2 * cell {
                at.push(centre + offset);
                offset += 2 * cell;
            }
            at
        };
        let xs = lines(cx, w);
        let ys = lines(cy, h);
        let (horizontal, vertical, cross, weight) = if heavy {
            ("━", "┃", "╋", 2)
        } else {
            ("─", "│", "┼", 1)
        };
        for &y in &ys {
            for x in cx + 1 - w..cx + w {
                self.put(x, y, horizontal);
            }
        }
        for &x in &xs {
            for y in cy + 1 - h..cy + h {
                self.put(x, y, vertical);
            }
        }
        for &y in &ys {
            for &x in &xs {
                self.put(x, y, cross);
            }
        }
        for &x in &xs {
            self.edge(x, cy + h, [None, Some(1), Some(weight), Some(1)]);
            self.edge(x, cy - h, [Some(weight), Some(1), None, Some(1)]);
        }
        for &y in &ys {
            self.edge(cx + w, y, [Some(1), None, Some(1), Some(weight)]);
            self.edge(cx - w, y, [Some(1), Some(weight), Some(1), None]);
        }
    }

    /// Alquerque's diagonals in every cell of a board of half-size `w` × `h`.
    fn diagonals(&mut self, cx: i64, cy: i64, w: i64, h: i64) {
        let mut dy = 0;
        while 2 * dy + 1 < 2 * h {
            let mut dx = 0;
            while 2 * dx + 1 < 2 * w {
                let glyph = if (dx + dy) % 2 == 0 { "╱" } else { "╲" };
                self.put(cx - w + 2 * dx + 1, cy - h + 2 * dy + 1, glyph);
                dx += 1;
            }
            dy += 1;
        }
    }

    /// A light line between two cells on one row or column, joined to what it meets.
    fn segment(&mut self, (c1, r1): (i64, i64), (c2, r2): (i64, i64)) {
        if r1 == r2 {
            let (from, to) = (c1.min(c2), c1.max(c2));
            for col in from..=to {
                let left = (col > from).then_some(1);
                let right = (col < to).then_some(1);
                self.edge(col, r1, [None, right, None, left]);
            }
        } else if c1 == c2 {
            let (from, to) = (r1.min(r2), r1.max(r2));
            for row in from..=to {
                let down = (row > from).then_some(1);
                let up = (row < to).then_some(1);
                self.edge(c1, row, [up, None, down, None]);
            }
        }
    }

    /// The rows and columns that hold something: the reference keeps the blank ones around
    /// its pictures, a diagram with coordinates drops them.
    fn inked(&self, cropped: bool) -> (std::ops::Range<i64>, std::ops::Range<i64>) {
        if !cropped {
            return (0..self.width, 0..self.height);
        }
        let blank = |col: i64, row: i64| self.get(col, row).trim().is_empty();
        let used_col = |col: i64| (0..self.height).any(|row| !blank(col, row));
        let used_row = |row: i64| (0..self.width).any(|col| !blank(col, row));
        let first_col = (0..self.width).find(|&c| used_col(c)).unwrap_or(0);
        let last_col = (0..self.width).rev().find(|&c| used_col(c)).unwrap_or(0);
        let first_row = (0..self.height).find(|&r| used_row(r)).unwrap_or(0);
        let last_row = (0..self.height).rev().find(|&r| used_row(r)).unwrap_or(0);
        (first_col..last_col + 1, first_row..last_row + 1)
    }

    fn render(&self, options: &TextOptions, glyphs: Glyphs, axes: Axes) -> String {
        let (columns, lines) = self.inked(options.coordinates);
        let mut rows: Vec<String> = Vec::new();
        let mut label_width = 0;
        let rank_label = |row: i64| -> Option<String> {
            let y = self.y0 + row as f64 / 2.0;
            (y.fract() == 0.0).then(|| axes.rank(y as i64)).flatten()
        };
        if options.coordinates {
            label_width = lines
                .clone()
                .filter_map(|row| rank_label(row).map(|label| label.chars().count()))
                .max()
                .unwrap_or(0);
        }
        for row in lines.clone().rev() {
            let mut line = String::new();
            if options.coordinates && label_width > 0 {
                let label = rank_label(row).unwrap_or_default();
                let _ = write!(line, "{label:>label_width$} ");
            }
            for col in columns.clone() {
                let cell = self.get(col, row);
                match glyphs {
                    Glyphs::Ascii => line.push_str(&ascii_cell(cell)),
                    Glyphs::Plain | Glyphs::Reference => line.push_str(cell),
                }
            }
            rows.push(line.trim_end().to_string());
        }
        if options.coordinates {
            let margin = if label_width > 0 { label_width + 1 } else { 0 };
            let mut files = vec![' '; margin + self.width as usize + 4];
            let mut free_from = margin;
            for col in columns.clone() {
                let x = self.x0 + col as f64 / 2.0;
                let at = margin + (col - columns.start) as usize;
                let label = (x.fract() == 0.0).then(|| axes.file(x as i64)).flatten();
                if let Some(label) = label.filter(|_| at >= free_from) {
                    if files.len() < at + label.len() {
                        files.resize(at + label.len(), ' ');
                    }
                    for (i, c) in label.chars().enumerate() {
                        files[at + i] = c;
                    }
                    free_from = at + label.len() + 1;
                }
            }
            let files: String = files.into_iter().collect();
            let files = files.trim_end().to_string();
            if !files.is_empty() {
                rows.push(files);
            }
        }
        let mut out = rows.join("\n");
        out.push('\n');
        out
    }
}

include!("box_table.rs");

fn box_bits(cell: &str) -> Option<[u8; 4]> {
    let mut chars = cell.chars();
    let first = chars.next()?;
    if chars.next().is_some() {
        return None;
    }
    BOX_CHARS
        .iter()
        .find(|(glyph, _)| *glyph == first)
        .map(|(_, bits)| *bits)
}

fn box_char(bits: [u8; 4]) -> Option<char> {
    BOX_CHARS
        .iter()
        .find(|(_, b)| *b == bits)
        .map(|(glyph, _)| *glyph)
}

/// A line's ASCII form: box drawing as `+ - |`, diagonals as `/ \`.
fn ascii_line(cell: &str) -> Option<&'static str> {
    if let Some([top, right, bottom, left]) = box_bits(cell) {
        let vertical = top > 0 || bottom > 0;
        let horizontal = left > 0 || right > 0;
        return Some(match (vertical, horizontal) {
            (true, true) => "+",
            (true, false) => "|",
            _ => "-",
        });
    }
    match cell {
        "╱" => Some("/"),
        "╲" => Some("\\"),
        _ => None,
    }
}

/// The ASCII form of a cell: box drawing as `+ - |`, symbols as letters, combining marks
/// dropped.
fn ascii_cell(cell: &str) -> String {
    if let Some(line) = ascii_line(cell) {
        return line.to_string();
    }
    let base = cell.chars().next().unwrap_or(' ');
    let mapped = match base {
        '☀' => 'S',
        '☾' => 'M',
        '⸸' => 'A',
        '♥' => 'H',
        '♠' => 'S',
        '♣' => 'C',
        '♦' => 'D',
        '♡' => 'h',
        '♤' => 's',
        '♧' => 'c',
        '♢' => 'd',
        '♟' => 'p',
        '♞' => 'n',
        '♝' => 'b',
        '♜' => 'r',
        '♛' => 'q',
        '♚' => 'k',
        '♙' => 'P',
        '♘' => 'N',
        '♗' => 'B',
        '♖' => 'R',
        '♕' => 'Q',
        '♔' => 'K',
        '⛂' => 'x',
        '⛀' => 'o',
        '⛃' => 'X',
        '⛁' => 'O',
        '●' => 'X',
        '○' => 'O',
        '◆' | '■' => '#',
        '◇' | '□' => '+',
        '▲' | '△' => '^',
        '▼' | '▽' => 'v',
        '◀' | '◁' => '<',
        '▶' | '▷' => '>',
        '◤' | '◸' | '◢' | '◿' => '\\',
        '◣' | '◺' | '◥' | '◹' => '/',
        '·' => '1',
        '⠌' | '⠡' => '2',
        '⋰' | '⋱' => '3',
        '∷' => '4',
        '⁙' => '5',
        '⠿' | '…' => '6',
        '−' => '-',
        '╲' => '\\',
        '╱' => '/',
        '◉' => '@',
        '◎' => '@',
        '◌' => '.',
        '⊠' => '#',
        '×' => 'x',
        '▒' => '#',
        c if c.is_ascii() => c,
        _ => '?',
    };
    mapped.to_string()
}

/// The glyph of a piece's suit on its back, a tile's corner, a coin's back (and, but in the
/// plain style, a pawn).
fn suit_glyph(piece: &Piece, ctx: &mut Context) -> String {
    let index = usize::try_from(piece.suit - 1).ok();
    let pick = |glyphs: &[&str]| {
        index
            .and_then(|i| glyphs.get(i).copied())
            .unwrap_or("?")
            .to_string()
    };
    let plain = ctx.glyphs == Glyphs::Plain;
    let light = is_light(piece);
    match family(&piece.cfg) {
        Family::Piecepack => {
            ctx.legend.insert(Legend::PiecepackSuits);
            match ctx.glyphs {
                Glyphs::Plain => pick(&["☀", "☾", "♛", "⚜"]),
                Glyphs::Reference => pick(&["☀", "☾", "♛", "⸸"]),
                Glyphs::Ascii => pick(&["S", "M", "C", "A"]),
            }
        }
        // Hearts, spades and clubs are "ambiguous" characters, two columns wide in some
        // terminals: the plain style writes French suits by their initials.
        Family::FrenchPiecepack { .. } | Family::PlayingCards if plain => {
            ctx.legend.insert(Legend::FrenchSuits);
            pick(&["h", "s", "c", "d"])
        }
        Family::FrenchPiecepack { hollow: false } | Family::PlayingCards => {
            ctx.legend.insert(Legend::FrenchSuits);
            pick(&["♥", "♠", "♣", "♦"])
        }
        Family::FrenchPiecepack { hollow: true } => {
            ctx.legend.insert(Legend::FrenchSuits);
            pick(&["♡", "♤", "♧", "♢"])
        }
        Family::Dominoes => pips(piece.suit - 1, ctx.glyphs),
        Family::Checkers => ctx
            .glyphs
            .pick(light_dark(light, "⚆", "⚈"), light_dark(light, "⛀", "⛂"))
            .to_string(),
        Family::Reversi => ctx
            .glyphs
            .pick(light_dark(light, "⚆", "⚈"), light_dark(light, "⛁", "⛃"))
            .to_string(),
        Family::Go | Family::Stones if &*piece.cfg == "cubes" => ctx
            .glyphs
            .pick(light_dark(light, "◻", "◼"), light_dark(light, "□", "■"))
            .to_string(),
        Family::Go | Family::Stones => ctx
            .glyphs
            .pick(light_dark(light, "⚆", "⚈"), light_dark(light, "○", "●"))
            .to_string(),
        Family::Dice | Family::DiceFudge | Family::DiceNumeral => " ".to_string(),
        _ => piece.suit.to_string().chars().take(1).collect(),
    }
}

fn light_dark<'a>(light: bool, light_glyph: &'a str, dark_glyph: &'a str) -> &'a str {
    if light {
        light_glyph
    } else {
        dark_glyph
    }
}

/// A pawn in the plain style: its suit's initial in capitals, as PPN writes it (`pS`), so
/// that it differs from a coin's back, which shows the suit's symbol.
fn pawn_letter(piece: &Piece, ctx: &mut Context) -> String {
    let index = usize::try_from(piece.suit - 1).ok();
    let letters: &[&str] = match family(&piece.cfg) {
        Family::Piecepack => &["S", "M", "C", "A"],
        Family::FrenchPiecepack { .. } => &["H", "S", "C", "D"],
        _ => return suit_glyph(piece, ctx),
    };
    index
        .and_then(|i| letters.get(i).copied())
        .unwrap_or("?")
        .to_string()
}

/// The glyph of a piece's rank on its face.
fn rank_glyph(piece: &Piece, ctx: &mut Context) -> String {
    let index = usize::try_from(piece.rank - 1).ok();
    let pick = |glyphs: &[&str]| {
        index
            .and_then(|i| glyphs.get(i).copied())
            .map(str::to_string)
    };
    let plain = ctx.glyphs == Glyphs::Plain;
    let light = is_light(piece);
    let glyph = match family(&piece.cfg) {
        Family::Piecepack | Family::FrenchPiecepack { .. } => {
            if piece.rank <= 2 {
                ctx.legend.insert(Legend::PiecepackRanks);
            }
            pick(&["n", "a", "2", "3", "4", "5"]).or_else(|| digit(piece.rank - 1))
        }
        Family::Chess => match (ctx.glyphs == Glyphs::Ascii, light) {
            (true, true) => pick(&["P", "N", "B", "R", "Q", "K"]),
            (true, false) => pick(&["p", "n", "b", "r", "q", "k"]),
            (false, true) => pick(&["♙", "♘", "♗", "♖", "♕", "♔"]),
            (false, false) => pick(&["♟", "♞", "♝", "♜", "♛", "♚"]),
        },
        Family::Checkers => Some(
            ctx.glyphs
                .pick(light_dark(light, "♔", "♚"), light_dark(light, "⛁", "⛃"))
                .to_string(),
        ),
        Family::Reversi => Some(
            ctx.glyphs
                .pick(light_dark(light, "⚆", "⚈"), light_dark(light, "⛁", "⛃"))
                .to_string(),
        ),
        Family::Dice if plain => die_face(piece.rank),
        Family::Dice => pick(&["·", "⠌", "⋰", "∷", "⁙", "⠿"]).or_else(|| digit(piece.rank)),
        Family::DiceFudge if plain => pick(&["⊟", "▢", "⊞", "⊞", "▢", "⊟"]),
        Family::DiceFudge => pick(&["−", " ", "+", "+", " ", "−"]),
        Family::DiceNumeral => digit(piece.rank),
        Family::Dominoes => Some(pips(piece.rank - 1, ctx.glyphs)),
        Family::PlayingCards => pick(&[
            "A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "*",
        ]),
        _ => digit(piece.rank),
    };
    glyph.unwrap_or_else(|| "?".to_string())
}

/// A die face of 1 to 6 pips (`⚀` … `⚅`); other numbers as digits.
fn die_face(pips: i32) -> Option<String> {
    const FACES: [&str; 6] = ["⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];
    usize::try_from(pips - 1)
        .ok()
        .and_then(|i| FACES.get(i))
        .map(|face| face.to_string())
        .or_else(|| digit(pips))
}

/// A die in the plain style: the face it shows, which no other piece shows (a blank face,
/// a piecepack's null, as an empty rounded square).
fn plain_die(piece: &Piece, ctx: &mut Context) -> String {
    let glyph = match family(&piece.cfg) {
        Family::Piecepack | Family::FrenchPiecepack { .. } => {
            if piece.rank == 1 {
                Some("▢".to_string())
            } else {
                die_face(piece.rank - 1)
            }
        }
        Family::DiceFudge => return rank_glyph(piece, ctx),
        _ => die_face(piece.rank),
    };
    glyph.unwrap_or_else(|| "?".to_string())
}

fn digit(value: i32) -> Option<String> {
    u32::try_from(value)
        .ok()
        .and_then(|v| char::from_digit(v, 36))
        .map(|c| c.to_string())
}

/// Domino pips: blank, then one to six dots (digits in the plain style); higher numbers
/// as digits.
fn pips(count: i32, glyphs: Glyphs) -> String {
    let dots = match count {
        0 => " ",
        _ if glyphs == Glyphs::Plain => "",
        1 => "·",
        2 => "⠌",
        3 => "⋰",
        4 => "∷",
        5 => "⁙",
        6 => "⠿",
        _ => "",
    };
    if dots.is_empty() {
        digit(count).unwrap_or_else(|| "?".to_string())
    } else {
        dots.to_string()
    }
}

/// The angle as one of the eight directions the diagrams can show (0, 45, …, 315).
fn octant(angle: f64) -> i64 {
    if !angle.is_finite() {
        return 0;
    }
    ((angle.rem_euclid(360.0) / 45.0).round() as i64).rem_euclid(8) * 45
}

fn quarter(angle: f64) -> i64 {
    if !angle.is_finite() {
        return 0;
    }
    ((angle.rem_euclid(360.0) / 90.0).round() as i64).rem_euclid(4) * 90
}

/// A symbol turned with its piece, where the reference has a character for the turned
/// symbol; otherwise (and always in the plain style, whose characters have no turned
/// forms) the symbol stays upright.
fn rotate(glyph: &str, angle: i64, glyphs: Glyphs) -> String {
    if glyphs == Glyphs::Plain {
        return glyph.to_string();
    }
    let turned = match (glyph, angle) {
        ("\u{20de}", 45 | 135 | 225 | 315) => "\u{20df}",
        ("\u{20df}", 45 | 135 | 225 | 315) => "\u{20de}",
        ("⠌", 90 | 270) => "⠡",
        ("⋰", 90 | 270) => "⋱",
        ("⠿", 90 | 270) => "…\u{20db}",
        ("3", 90) => "m",
        ("3", 270) => "ω",
        ("−", 90 | 270) => "|",
        _ => glyph,
    };
    turned.to_string()
}

fn draw_piece(canvas: &mut Canvas, piece: &Piece, ctx: &mut Context) {
    let Some((col, row)) = canvas.cell(piece.x, piece.y) else {
        return;
    };
    let angle = octant(piece.angle);
    let cfg = &*piece.cfg;
    let plain = ctx.glyphs == Glyphs::Plain;
    match (piece.kind, piece.side) {
        (PieceKind::Board, _) => draw_board(canvas, piece, col, row),
        (PieceKind::Tile, side) => draw_tile(canvas, piece, side, col, row, ctx),
        (PieceKind::Card, side) => {
            ctx.legend.insert(Legend::Cards);
            let (w, h) = if quarter(piece.angle) % 180 == 0 {
                (2, 3)
            } else {
                (3, 2)
            };
            canvas.border(col, row, w, h);
            if side == Side::Back {
                let back = ctx.glyphs.pick("░", "▒");
                for r in row + 1 - h..row + h {
                    for c in col + 1 - w..col + w {
                        canvas.put(c, r, back);
                    }
                }
            } else {
                canvas.put(col - 1, row, &rank_glyph(piece, ctx));
                canvas.put(col, row, &suit_glyph(piece, ctx));
            }
        }
        (PieceKind::Coin, side) => {
            ctx.legend.insert(Legend::Coin);
            let symbol = if side == Side::Back {
                // In ASCII a coin's suit is told from a pawn's by its case.
                let suit = suit_glyph(piece, ctx);
                if ctx.glyphs == Glyphs::Ascii {
                    suit.to_lowercase()
                } else {
                    suit
                }
            } else {
                rank_glyph(piece, ctx)
            };
            let symbol = rotate(&symbol, angle, ctx.glyphs);
            if plain {
                canvas.put(col, row, &symbol);
            } else {
                canvas.put(col, row, &format!("{symbol}\u{20dd}"));
            }
        }
        (PieceKind::Die, _) => {
            if family(cfg) == Family::Piecepack {
                ctx.legend.insert(Legend::Die);
            }
            if plain {
                let face = plain_die(piece, ctx);
                canvas.put(col, row, &face);
            } else {
                let symbol = rotate(&rank_glyph(piece, ctx), angle, ctx.glyphs);
                let square = rotate("\u{20de}", angle, ctx.glyphs);
                canvas.put(col, row, &format!("{symbol}{square}"));
            }
        }
        (PieceKind::Pawn, _) => {
            let french = matches!(family(cfg), Family::FrenchPiecepack { .. });
            ctx.legend.insert(if plain && french {
                Legend::FrenchPawn
            } else {
                Legend::Pawn
            });
            if plain {
                let letter = pawn_letter(piece, ctx);
                canvas.put(col, row, &letter);
            } else {
                let symbol = suit_glyph(piece, ctx);
                let diamond = rotate("\u{20df}", angle, ctx.glyphs);
                canvas.put(col, row, &format!("{symbol}{diamond}"));
            }
        }
        (PieceKind::Saucer, side) => {
            ctx.legend.insert(Legend::Saucer);
            let back = ctx.glyphs.pick("❍", "◎");
            canvas.put(col, row, if side == Side::Back { back } else { "◉" });
        }
        (PieceKind::Pyramid, side) => {
            ctx.legend.insert(Legend::Pyramids);
            let glyph = pyramid_glyph(piece.suit == 6, side, angle, ctx.glyphs);
            if plain {
                // Its size is listed under the diagram.
                canvas.put(col, row, glyph);
            } else {
                let dots = match piece.rank {
                    i32::MIN..=1 => "\u{0323}",
                    2 => "\u{0324}",
                    3 => "\u{20e8}",
                    4 => "\u{0324}\u{0308}",
                    5 => "\u{20e8}\u{0308}",
                    _ => "\u{20e8}\u{20db}",
                };
                canvas.put(col, row, &format!("{glyph}{dots}"));
            }
        }
        (PieceKind::Matchstick, _) => {
            draw_matchstick(canvas, piece.rank, piece.angle, col, row, ctx.glyphs);
        }
        (PieceKind::Bit, side) => {
            let glyph = bit_glyph(piece, side, ctx);
            canvas.put(col, row, &glyph);
        }
    }
}

/// A pyramid seen from above: standing, a square; lying, a triangle pointing its way.
fn pyramid_glyph(light: bool, side: Side, angle: i64, glyphs: Glyphs) -> &'static str {
    if side == Side::Top || side == Side::Base {
        return match (glyphs == Glyphs::Plain, angle % 90 == 0, light) {
            (true, true, false) => "◼",
            (true, true, true) => "◻",
            (true, false, false) => "❖",
            (true, false, true) => "◊",
            (false, true, false) => "■",
            (false, true, true) => "□",
            (false, false, false) => "◆",
            (false, false, true) => "◇",
        };
    }
    // The plain style's triangles have no solid forms pointing along a diagonal.
    let (solid, hollow) = if glyphs == Glyphs::Plain {
        (
            ["▴", "◸", "◂", "◺", "▾", "◿", "▸", "◹"],
            ["▵", "◸", "◃", "◺", "▿", "◿", "▹", "◹"],
        )
    } else {
        (
            ["▲", "◤", "◀", "◣", "▼", "◢", "▶", "◥"],
            ["△", "◸", "◁", "◺", "▽", "◿", "▷", "◹"],
        )
    };
    let turn = usize::try_from(angle / 45).unwrap_or(0) % 8;
    if light {
        hollow[turn]
    } else {
        solid[turn]
    }
}

fn bit_glyph(piece: &Piece, side: Side, ctx: &mut Context) -> String {
    match family(&piece.cfg) {
        Family::Tafl => {
            ctx.legend.insert(Legend::Tafl);
            let light = is_light(piece);
            let plain = ctx.glyphs == Glyphs::Plain;
            let glyph = match TaflMan::from_rank(piece.rank) {
                Some(TaflMan::King) => ["♚", "♔"],
                Some(TaflMan::Commander) if plain => ["❖", "◊"],
                Some(TaflMan::Commander) => ["◆", "◇"],
                Some(TaflMan::Knight) => ["♞", "♘"],
                Some(TaflMan::Guard) if plain => ["◼", "◻"],
                Some(TaflMan::Guard) => ["■", "□"],
                Some(TaflMan::Mercenary) if plain => ["▴", "▵"],
                Some(TaflMan::Mercenary) => ["▲", "△"],
                Some(TaflMan::Taflman) | None if plain => ["⚈", "⚆"],
                Some(TaflMan::Taflman) | None => ["●", "○"],
            };
            glyph[usize::from(light)].to_string()
        }
        Family::Xiangqi => {
            ctx.legend.insert(Legend::Xiangqi);
            let letter = XiangqiPiece::from_rank(piece.rank).map_or('?', XiangqiPiece::letter);
            if piece.suit == 2 {
                letter.to_ascii_lowercase().to_string()
            } else {
                letter.to_string()
            }
        }
        Family::Checkers => {
            if side == Side::Back {
                suit_glyph(piece, ctx)
            } else {
                ctx.legend.insert(Legend::CheckersKings);
                rank_glyph(piece, ctx)
            }
        }
        // Stones have no face: the reference draws both sides alike.
        Family::Go | Family::Stones => suit_glyph(piece, ctx),
        Family::Reversi => {
            // The back of a black disc is white: the reference pairs the colours so.
            let light = if side == Side::Back {
                piece.suit == 2
            } else {
                is_light(piece)
            };
            ctx.glyphs
                .pick(light_dark(light, "⚆", "⚈"), light_dark(light, "⛁", "⛃"))
                .to_string()
        }
        Family::Chess => rank_glyph(piece, ctx),
        _ => {
            if side == Side::Back {
                suit_glyph(piece, ctx)
            } else {
                rank_glyph(piece, ctx)
            }
        }
    }
}

fn draw_tile(
    canvas: &mut Canvas,
    piece: &Piece,
    side: Side,
    col: i64,
    row: i64,
    ctx: &mut Context,
) {
    let cfg = &*piece.cfg;
    let angle = quarter(piece.angle);
    if family(cfg) == Family::Dominoes {
        let sideways = angle % 180 != 0;
        let (w, h) = if sideways { (2, 1) } else { (1, 2) };
        canvas.border(col, row, w, h);
        if side != Side::Back {
            let suit = rotate(&suit_glyph(piece, ctx), angle, ctx.glyphs);
            let rank = rotate(&rank_glyph(piece, ctx), angle, ctx.glyphs);
            match angle {
                0 => {
                    canvas.put(col, row - 1, &suit);
                    canvas.put(col, row, "━");
                    canvas.put(col, row + 1, &rank);
                }
                90 => {
                    canvas.put(col - 1, row, &rank);
                    canvas.put(col, row, "┃");
                    canvas.put(col + 1, row, &suit);
                }
                180 => {
                    canvas.put(col, row - 1, &rank);
                    canvas.put(col, row, "━");
                    canvas.put(col, row + 1, &suit);
                }
                _ => {
                    canvas.put(col - 1, row, &suit);
                    canvas.put(col, row, "┃");
                    canvas.put(col + 1, row, &rank);
                }
            }
        }
        return;
    }
    if cfg == "subpack" {
        canvas.border(col, row, 1, 1);
        if side == Side::Back {
            // Half-size tiles: one line each way through the middle.
            canvas.put(col, row, "╋");
            canvas.edge(col, row + 1, [None, Some(1), Some(2), Some(1)]);
            canvas.edge(col, row - 1, [Some(2), Some(1), None, Some(1)]);
            canvas.edge(col + 1, row, [Some(1), None, Some(1), Some(2)]);
            canvas.edge(col - 1, row, [Some(1), Some(2), Some(1), None]);
        } else {
            canvas.put(col, row, &rank_glyph(piece, ctx));
        }
        return;
    }
    canvas.border(col, row, 2, 2);
    if side == Side::Back {
        canvas.gridlines(col, row, 2, 2, 1, true);
        return;
    }
    canvas.put(
        col,
        row,
        &rotate(&rank_glyph(piece, ctx), angle, ctx.glyphs),
    );
    let suit = suit_glyph(piece, ctx);
    let (dc, dr) = match angle {
        0 => (-1, 1),
        90 => (-1, -1),
        180 => (1, -1),
        _ => (1, 1),
    };
    canvas.put(col + dc, row + dr, &suit);
}

fn draw_matchstick(
    canvas: &mut Canvas,
    rank: i32,
    exact_angle: f64,
    col: i64,
    row: i64,
    glyphs: Glyphs,
) {
    let angle = octant(exact_angle);
    // A stick drawn as a heavy line in the plain style would read as a board's line.
    let (vertical, horizontal) = (glyphs.pick("▮", "┃"), glyphs.pick("▬", "━"));
    // Middle-sized sticks at a third of a turn span one cell: a single slanted stroke.
    let thirds = exact_angle.rem_euclid(180.0);
    if (4..=5).contains(&rank) && ((thirds - 60.0).abs() < 1e-9 || (thirds - 120.0).abs() < 1e-9) {
        let glyph = if (thirds - 60.0).abs() < 1e-9 {
            "╲"
        } else {
            "╱"
        };
        canvas.put(col, row, glyph);
        return;
    }
    let along = |canvas: &mut Canvas, reach: i64, glyph: &str, step: (i64, i64)| {
        for k in -reach..=reach {
            canvas.put(col + k * step.0, row + k * step.1, glyph);
        }
    };
    match rank {
        i32::MIN..=1 => {
            let square = if angle % 90 == 0 {
                glyphs.pick("◼", "■")
            } else {
                glyphs.pick("❖", "◆")
            };
            canvas.put(col, row, square);
        }
        2 | 3 => {
            let glyph = match angle % 180 {
                0 => vertical,
                90 => horizontal,
                45 => "╲",
                _ => "╱",
            };
            canvas.put(col, row, glyph);
        }
        _ => {
            let long = if rank >= 6 { 2 } else { 1 };
            match angle % 180 {
                0 => along(canvas, long, vertical, (0, 1)),
                90 => along(canvas, long, horizontal, (1, 0)),
                45 => along(canvas, 1, "╲", (1, -1)),
                _ => along(canvas, 1, "╱", (1, 1)),
            }
        }
    }
}

fn draw_board(canvas: &mut Canvas, piece: &Piece, col: i64, row: i64) {
    let cfg = &*piece.cfg;
    let cells = i64::from(board_cells(piece));
    let cell = board_cell_width(piece) as i64;
    match cfg {
        "xiangqi" => draw_xiangqi_board(canvas, col, row),
        "morris" => draw_morris_board(canvas, cells, col, row),
        "marbles" => {
            let w = cells * cell;
            canvas.border(col, row, w, w);
            let mut offset = cell - w;
            while offset <= w - cell {
                let mut other = cell - w;
                while other <= w - cell {
                    canvas.put(col + offset, row + other, "◌");
                    other += 2 * cell;
                }
                offset += 2 * cell;
            }
        }
        "alquerque" => {
            canvas.border(col, row, 4, 4);
            canvas.gridlines(col, row, 4, 4, 1, false);
            canvas.diagonals(col, row, 4, 4);
        }
        _ => {
            let w = cells * cell;
            canvas.border(col, row, w, w);
            canvas.gridlines(col, row, w, w, cell, true);
        }
    }
}

fn draw_morris_board(canvas: &mut Canvas, men: i64, x: i64, y: i64) {
    let w = match men {
        1 | 8..=i64::MAX => 6,
        2..=4 => 2,
        5..=7 => 4,
        _ => 6,
    };
    let hv = Some(1);
    canvas.border(x, y, w, w);
    let joins = |canvas: &mut Canvas, inner: i64| {
        canvas.edge(x - w, y, [Some(1), hv, Some(1), None]);
        canvas.edge(x + inner, y, [Some(1), hv, Some(1), None]);
        canvas.edge(x + w, y, [Some(1), None, Some(1), hv]);
        canvas.edge(x - inner, y, [Some(1), None, Some(1), hv]);
        canvas.edge(x, y + w, [None, Some(1), hv, Some(1)]);
        canvas.edge(x, y - inner, [None, Some(1), hv, Some(1)]);
        canvas.edge(x, y - w, [hv, Some(1), None, Some(1)]);
        canvas.edge(x, y + inner, [hv, Some(1), None, Some(1)]);
    };
    match men {
        2 => canvas.gridlines(x, y, w, w, 1, false),
        3 | 4 => {
            canvas.gridlines(x, y, w, w, 1, false);
            canvas.diagonals(x, y, w, w);
        }
        5 | 6 => {
            canvas.border(x, y, 2, 2);
            for d in [-3, 3] {
                canvas.put(x + d, y, "─");
                canvas.put(x, y + d, "│");
            }
            joins(canvas, 2);
        }
        7 => {
            canvas.border(x, y, 2, 2);
            canvas.gridlines(x, y, w, w, 2, false);
            for d in [-2, 2] {
                canvas.put(x + d, y, "┼");
                canvas.put(x, y + d, "┼");
            }
        }
        _ => {
            canvas.border(x, y, 4, 4);
            canvas.border(x, y, 2, 2);
            for d in [-5, -3, 3, 5] {
                canvas.put(x + d, y, "─");
                canvas.put(x, y + d, "│");
            }
            for d in [-4, 4] {
                canvas.put(x + d, y, "┼");
                canvas.put(x, y + d, "┼");
            }
            joins(canvas, 2);
            if men > 10 {
                for d in [3, 5] {
                    canvas.put(x - d, y - d, "╱");
                    canvas.put(x + d, y + d, "╱");
                    canvas.put(x - d, y + d, "╲");
                    canvas.put(x + d, y - d, "╲");
                }
            }
        }
    }
}

/// Nine files by ten ranks of points, the river between the fifth and sixth ranks, and the
/// palaces' diagonals. The board piece sits at the centre of the points.
fn draw_xiangqi_board(canvas: &mut Canvas, col: i64, row: i64) {
    // Points are two cells apart: files at col - 8 ..= col + 8, ranks at row - 9 ..= row + 9.
    let left = col - 8;
    let bottom = row - 9;
    let point = |file: i64, rank: i64| (left + 2 * file, bottom + 2 * rank);
    for rank in 0..10 {
        canvas.segment(point(0, rank), point(8, rank));
    }
    for file in 0..9 {
        if file == 0 || file == 8 {
            canvas.segment(point(file, 0), point(file, 9));
        } else {
            canvas.segment(point(file, 0), point(file, 4));
            canvas.segment(point(file, 5), point(file, 9));
        }
    }
    // The palace diagonals run from corner to corner: ╱ from bottom-left, ╲ from top-left.
    for base in [0, 7] {
        let (c, r) = point(3, base);
        canvas.put(c + 1, r + 1, "╱");
        canvas.put(c + 3, r + 3, "╱");
        canvas.put(c + 3, r + 1, "╲");
        canvas.put(c + 1, r + 3, "╲");
    }
}

/// A text diagram of a bare list of pieces (coordinates, legend and stacks included).
pub fn diagram_of_pieces(pieces: &[Piece]) -> String {
    diagram(&super::scene_of_pieces(pieces), &TextOptions::default())
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod plain_tests;
