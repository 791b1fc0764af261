//! Writing the SVG text: the writer that collects the body and the glyphs it uses, the
//! document around them, and the plain shapes every drawing is made of (rectangles, discs,
//! lines).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::view::View;
use crate::model::piece::Piece;
use crate::render::font::{glyph, short, Glyph};
use crate::render::Extent;

/// A straight line between two scene points.
pub(super) type Segment = ((f64, f64), (f64, f64));

/// An SVG document being written: the glyphs used go into `<defs>` once.
pub(super) struct Writer {
    pub(super) body: String,
    pub(super) glyphs: BTreeMap<char, Glyph>,
}

pub(super) fn n(value: f64) -> String {
    short(value)
}

pub(super) fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

impl Writer {
    pub(super) fn new() -> Writer {
        Writer {
            body: String::new(),
            glyphs: BTreeMap::new(),
        }
    }

    pub(super) fn push(&mut self, text: &str) {
        self.body.push_str(text);
    }

    /// `text` centred on (cx, cy), `size` pixels high (an em), turned `angle` degrees
    /// counter-clockwise. Characters the fonts lack are left out.
    pub(super) fn text(
        &mut self,
        text: &str,
        cx: f64,
        cy: f64,
        size: f64,
        style: &str,
        angle: f64,
    ) {
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

    pub(super) fn defs(&self) -> String {
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

pub(super) fn document(view: &View, writer: &Writer, body: &str) -> String {
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

/// A rectangle of `w` × `h` units centred on the piece, turned with it.
pub(super) fn rect(
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

pub(super) fn rotation(angle: f64, cx: f64, cy: f64) -> String {
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

pub(super) fn fill_style(fill: &str, stroke: &str, width: f64) -> String {
    format!(
        "fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"{}\"",
        n(width)
    )
}

pub(super) fn disc(
    writer: &mut Writer,
    cx: f64,
    cy: f64,
    r: f64,
    fill: &str,
    stroke: &str,
    width: f64,
) {
    let _ = write!(
        writer.body,
        "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" {}/>",
        n(cx),
        n(cy),
        n(r),
        fill_style(fill, stroke, width)
    );
}

pub(super) fn lines(
    writer: &mut Writer,
    segments: &[Segment],
    view: &View,
    width: f64,
    colour: &str,
) {
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

pub(super) fn area_rect(writer: &mut Writer, area: Extent, view: &View, style: &str) {
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
