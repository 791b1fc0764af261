//! The picture's frame: the options a picture is drawn with, the area the scenes take, and
//! the view that turns scene units (y up) into pixels (y down), flipped if asked.

use crate::model::piece::{Piece, PieceKind};
use crate::model::scene::Scene;
use crate::render::{extent, Extent};

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

pub(super) const DEFAULT_UNIT: f64 = 48.0;

pub(super) const MAX_DEFAULT_WIDTH: f64 = 960.0;

/// The largest picture drawn, in pixels on a side.
pub const MAX_PIXELS: u32 = 4096;

/// The area a piece takes in a picture: its footprint, and a margin around go and xiangqi
/// grids, whose pieces sit on the outermost lines.
pub(super) fn picture_extent(piece: &Piece) -> Extent {
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
pub(super) struct View {
    pub(super) bounds: Extent,
    pub(super) unit: f64,
    pub(super) flip: bool,
    /// Pixels left of and above the board (labels, caption).
    pub(super) left: f64,
    pub(super) top: f64,
    pub(super) width: f64,
    pub(super) height: f64,
    /// What the picture shows, for those who cannot see it: the caption.
    pub(super) title: Option<String>,
}

impl View {
    pub(super) fn new(bounds: Extent, options: &SvgOptions) -> View {
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
    pub(super) fn at(&self, x: f64, y: f64) -> (f64, f64) {
        let (dx, dy) = if self.flip {
            (self.bounds.xmax - x, y - self.bounds.ymin)
        } else {
            (x - self.bounds.xmin, self.bounds.ymax - y)
        };
        (self.left + dx * self.unit, self.top + dy * self.unit)
    }

    /// Pixels for a length in units.
    pub(super) fn len(&self, units: f64) -> f64 {
        units * self.unit
    }
}
