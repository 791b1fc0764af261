//! A top-down picture of the real components as SVG: boards with their grids and special
//! squares, piecepack tiles, coins, dice, pawns, pyramids and matchsticks, dominoes, cards,
//! chess men, checkers, stones, tafl men and xiangqi pieces, with coordinates on the edges.
//! Letters and symbols are outlines of the bundled fonts ([`crate::render::font`]), defined once
//! and reused, so the picture needs no font wherever it is shown.

use std::fmt::Write as _;

use crate::model::scene::Scene;
use crate::render::Extent;

// The files draw on one another in one direction only: `scene` lays out a picture with
// `marks`, `pieces`, `bits` and `boards`, which all draw with `writer` in the frame of `view`.
mod bits;
mod boards;
mod marks;
mod pieces;
mod scene;
mod view;
mod writer;

use scene::draw_scene;
use view::View;
pub use view::{scenes_extent, SvgOptions, MAX_PIXELS};
use writer::{document, n, Writer};

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

#[cfg(test)]
mod tests;
