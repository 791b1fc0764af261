//! Pixels from the SVG pictures: PNG through resvg, animated GIF through the `gif` crate.
//! Every picture carries its text as outlines, so no font is loaded here and the output is
//! the same on every machine.

use std::fmt;

use resvg::tiny_skia::Pixmap;
use resvg::usvg;

/// Why a picture could not be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RasterError(pub String);

impl fmt::Display for RasterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The pixels of an SVG picture, at its own size.
pub fn pixels(svg: &str) -> Result<Pixmap, RasterError> {
    let tree = usvg::Tree::from_str(svg, &usvg::Options::default())
        .map_err(|err| RasterError(format!("the picture is not valid SVG: {err}")))?;
    let size = tree.size().to_int_size();
    let mut pixmap = Pixmap::new(size.width(), size.height()).ok_or_else(|| {
        RasterError(format!(
            "a picture of {} × {} pixels cannot be made",
            size.width(),
            size.height()
        ))
    })?;
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::identity(),
        &mut pixmap.as_mut(),
    );
    Ok(pixmap)
}

/// An SVG picture as a PNG file.
pub fn png(svg: &str) -> Result<Vec<u8>, RasterError> {
    pixels(svg)?
        .encode_png()
        .map_err(|err| RasterError(format!("PNG encoding failed: {err}")))
}

/// An animated GIF of SVG pictures of the same size, shown `milliseconds` each, looping.
/// The frames are drawn and encoded one at a time.
pub fn gif<'a>(
    frames: impl IntoIterator<Item = String>,
    milliseconds: u32,
    out: &'a mut Vec<u8>,
) -> Result<usize, RasterError> {
    let mut encoder: Option<gif::Encoder<&'a mut Vec<u8>>> = None;
    let mut out = Some(out);
    let mut size = (0u16, 0u16);
    let mut count = 0;
    let mut previous: Option<Vec<u8>> = None;
    let delay = u16::try_from((milliseconds / 10).max(1)).unwrap_or(u16::MAX);
    for svg in frames {
        let pixmap = pixels(&svg)?;
        let (width, height) = (
            u16::try_from(pixmap.width()).map_err(|_| too_big())?,
            u16::try_from(pixmap.height()).map_err(|_| too_big())?,
        );
        if encoder.is_none() {
            size = (width, height);
            let Some(sink) = out.take() else {
                return Err(RasterError("the GIF writer was lost".to_string()));
            };
            let mut created = gif::Encoder::new(sink, width, height, &[])
                .map_err(|err| RasterError(format!("GIF encoding failed: {err}")))?;
            created
                .set_repeat(gif::Repeat::Infinite)
                .map_err(|err| RasterError(format!("GIF encoding failed: {err}")))?;
            encoder = Some(created);
        }
        if (width, height) != size {
            return Err(RasterError(
                "the frames of an animation differ in size".to_string(),
            ));
        }
        let rgba = pixmap.take();
        // Only the part that changed since the last frame is encoded; the rest stays.
        let (left, top, width, height) = match &previous {
            Some(before) => changed_area(before, &rgba, size.0, size.1),
            None => (0, 0, size.0, size.1),
        };
        let mut part = crop(&rgba, size.0, (left, top, width, height));
        let mut frame = gif::Frame::from_rgba_speed(width, height, &mut part, 20);
        frame.left = left;
        frame.top = top;
        frame.delay = delay;
        frame.dispose = gif::DisposalMethod::Keep;
        if let Some(encoder) = encoder.as_mut() {
            encoder
                .write_frame(&frame)
                .map_err(|err| RasterError(format!("GIF encoding failed: {err}")))?;
        }
        previous = Some(rgba);
        count += 1;
    }
    if count == 0 {
        return Err(RasterError("there is no board to animate".to_string()));
    }
    Ok(count)
}

/// The smallest rectangle (left, top, width, height) holding every pixel that differs
/// between two RGBA pictures of `width` × `height`; one pixel when none does.
fn changed_area(before: &[u8], after: &[u8], width: u16, height: u16) -> (u16, u16, u16, u16) {
    let (w, h) = (usize::from(width), usize::from(height));
    let (mut x0, mut y0, mut x1, mut y1) = (w, h, 0, 0);
    for y in 0..h {
        let row = y * w * 4..(y + 1) * w * 4;
        let (old, new) = (&before[row.clone()], &after[row]);
        if old == new {
            continue;
        }
        let first = (0..w).find(|&x| old[x * 4..x * 4 + 4] != new[x * 4..x * 4 + 4]);
        let last = (0..w)
            .rev()
            .find(|&x| old[x * 4..x * 4 + 4] != new[x * 4..x * 4 + 4]);
        if let (Some(first), Some(last)) = (first, last) {
            x0 = x0.min(first);
            x1 = x1.max(last);
            y0 = y0.min(y);
            y1 = y1.max(y);
        }
    }
    if x0 > x1 {
        return (0, 0, 1, 1);
    }
    let as_u16 = |v: usize| u16::try_from(v).unwrap_or(u16::MAX);
    (
        as_u16(x0),
        as_u16(y0),
        as_u16(x1 - x0 + 1),
        as_u16(y1 - y0 + 1),
    )
}

fn crop(rgba: &[u8], width: u16, (left, top, w, h): (u16, u16, u16, u16)) -> Vec<u8> {
    let stride = usize::from(width) * 4;
    let mut out = Vec::with_capacity(usize::from(w) * usize::from(h) * 4);
    for y in usize::from(top)..usize::from(top) + usize::from(h) {
        let start = y * stride + usize::from(left) * 4;
        out.extend_from_slice(&rgba[start..start + usize::from(w) * 4]);
    }
    out
}

fn too_big() -> RasterError {
    RasterError("a GIF frame is at most 65,535 pixels on a side".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SQUARE: &str = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"20\" height=\"10\">\
        <rect width=\"20\" height=\"10\" fill=\"#ffffff\"/><rect x=\"5\" width=\"5\" height=\"5\" fill=\"#ff0000\"/></svg>";

    #[test]
    fn png_has_the_pictures_size_and_pixels() {
        let pixmap = pixels(SQUARE).unwrap();
        assert_eq!((pixmap.width(), pixmap.height()), (20, 10));
        let red = pixmap.pixel(6, 1).unwrap();
        assert_eq!((red.red(), red.green(), red.blue()), (255, 0, 0));
        let white = pixmap.pixel(1, 8).unwrap();
        assert_eq!((white.red(), white.green(), white.blue()), (255, 255, 255));
        let bytes = png(SQUARE).unwrap();
        assert_eq!(&bytes[1..4], b"PNG");
    }

    #[test]
    fn a_gif_has_one_frame_per_picture() {
        let mut out = Vec::new();
        let count = gif(vec![SQUARE.to_string(); 3], 500, &mut out).unwrap();
        assert_eq!(count, 3);
        assert_eq!(&out[..6], b"GIF89a");
        let mut decoder = gif::DecodeOptions::new().read_info(&out[..]).unwrap();
        let mut frames = Vec::new();
        while let Some(frame) = decoder.read_next_frame().unwrap() {
            assert_eq!(frame.delay, 50);
            frames.push((frame.left, frame.top, frame.width, frame.height));
        }
        // The same picture three times: the first frame whole, then one unchanged pixel.
        assert_eq!(frames, [(0, 0, 20, 10), (0, 0, 1, 1), (0, 0, 1, 1)]);
        assert!(pixels("not svg").is_err());
        assert!(gif(Vec::new(), 100, &mut Vec::new()).is_err());
    }
}

#[cfg(test)]
mod area_tests {
    use super::*;

    #[test]
    fn only_the_changed_rectangle_is_encoded() {
        let before = vec![255u8; 4 * 4 * 3];
        let mut after = before.clone();
        // Pixels (1, 0) and (2, 2) change.
        after[4] = 0;
        after[(2 * 4 + 2) * 4 + 1] = 0;
        assert_eq!(changed_area(&before, &after, 4, 3), (1, 0, 2, 3));
        assert_eq!(crop(&after, 4, (1, 0, 2, 3)).len(), 2 * 3 * 4);
        assert_eq!(changed_area(&before, &before, 4, 3), (0, 0, 1, 1));
    }
}
