//! Letters and symbols as outlines of two bundled fonts (see `server/assets/fonts/`), so
//! that pictures carry their own text: an SVG looks the same in every browser and editor,
//! and rasterising needs no installed font.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::{Mutex, OnceLock};

use ttf_parser::{Face, OutlineBuilder};

static LATIN: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-Bold-subset.ttf");
static CJK: &[u8] = include_bytes!("../../assets/fonts/NotoSerifCJKtc-Bold-subset.otf");

/// One character's outline, in ems: x to the right from the pen position, y downwards
/// from the baseline.
#[derive(Clone, Debug, PartialEq)]
pub struct Glyph {
    /// SVG path data.
    pub path: String,
    /// The ink's bounding box: x0, y0, x1, y1.
    pub bounds: (f64, f64, f64, f64),
    pub advance: f64,
}

fn faces() -> &'static [Face<'static>] {
    static FACES: OnceLock<Vec<Face<'static>>> = OnceLock::new();
    FACES.get_or_init(|| {
        [LATIN, CJK]
            .into_iter()
            .filter_map(|data| Face::parse(data, 0).ok())
            .collect()
    })
}

/// The outline of `c`, from the first bundled font that has it; `None` for a character
/// neither has (or one without ink, such as a space, which has an empty path).
pub fn glyph(c: char) -> Option<Glyph> {
    static CACHE: OnceLock<Mutex<HashMap<char, Option<Glyph>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    if let Some(found) = cache
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .get(&c)
    {
        return found.clone();
    }
    let found = outline(c);
    cache
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .insert(c, found.clone());
    found
}

fn outline(c: char) -> Option<Glyph> {
    for face in faces() {
        let Some(id) = face.glyph_index(c) else {
            continue;
        };
        let scale = 1.0 / f64::from(face.units_per_em());
        let advance = f64::from(face.glyph_hor_advance(id).unwrap_or(0)) * scale;
        let mut builder = PathBuilder {
            path: String::new(),
            scale,
        };
        let bounds = match face.outline_glyph(id, &mut builder) {
            Some(rect) => (
                f64::from(rect.x_min) * scale,
                -f64::from(rect.y_max) * scale,
                f64::from(rect.x_max) * scale,
                -f64::from(rect.y_min) * scale,
            ),
            None => (0.0, 0.0, 0.0, 0.0),
        };
        return Some(Glyph {
            path: builder.path,
            bounds,
            advance,
        });
    }
    None
}

struct PathBuilder {
    path: String,
    scale: f64,
}

impl PathBuilder {
    fn point(&mut self, x: f32, y: f32) {
        let x = f64::from(x) * self.scale;
        let y = -f64::from(y) * self.scale;
        let _ = write!(self.path, "{} {} ", short(x), short(y));
    }
}

/// A number with at most four decimals and no trailing zeros.
pub fn short(value: f64) -> String {
    let text = format!("{value:.4}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text == "-0" || text.is_empty() {
        "0".to_string()
    } else {
        text.to_string()
    }
}

impl OutlineBuilder for PathBuilder {
    fn move_to(&mut self, x: f32, y: f32) {
        self.path.push('M');
        self.point(x, y);
    }

    fn line_to(&mut self, x: f32, y: f32) {
        self.path.push('L');
        self.point(x, y);
    }

    fn quad_to(&mut self, x1: f32, y1: f32, x: f32, y: f32) {
        self.path.push('Q');
        self.point(x1, y1);
        self.point(x, y);
    }

    fn curve_to(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, x: f32, y: f32) {
        self.path.push('C');
        self.point(x1, y1);
        self.point(x2, y2);
        self.point(x, y);
    }

    fn close(&mut self) {
        self.path.push('Z');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_fonts_have_their_characters() {
        for c in [
            'a', '7', '♚', '♙', '☀', '☾', '♛', '⚜', '♥', '帥', '卒', '漢',
        ] {
            let found = glyph(c).unwrap_or_else(|| panic!("no glyph for {c}"));
            assert!(found.path.starts_with('M'), "{c}: {}", found.path);
            let (x0, y0, x1, y1) = found.bounds;
            assert!(x1 > x0 && y1 > y0, "{c}: {:?}", found.bounds);
            assert!(found.advance > 0.3, "{c}: advance {}", found.advance);
        }
        assert_eq!(glyph('\u{1F600}'), None);
    }

    #[test]
    fn numbers_are_short() {
        assert_eq!(short(1.0), "1");
        assert_eq!(short(-0.00001), "0");
        assert_eq!(short(0.12345), "0.1235");
    }
}
