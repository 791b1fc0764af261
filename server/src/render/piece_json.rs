//! Pieces as JSON, in the conformance schema: `replay --format json`, the `ppn/boardAt`
//! request and the page's worker write them so.

use crate::model::piece::Piece;

/// A piece as the conformance data writes it: whole numbers as integers, the angle in
/// [0, 360). Shared by `replay --format json` and the `ppn/boardAt` request.
pub fn piece_json(piece: &Piece) -> serde_json::Value {
    serde_json::to_value(PieceJson(piece)).unwrap_or_default()
}

/// [`piece_json`] written straight to a serializer (`replay --format json` writes hundreds
/// of megabytes of them), its keys in the order a JSON object of `serde_json` sorts them.
pub struct PieceJson<'a>(pub &'a Piece);

impl serde::Serialize for PieceJson<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let piece = self.0;
        let mut map = serializer.serialize_map(Some(7))?;
        map.serialize_entry("angle", &JsonNumber(piece.angle.rem_euclid(360.0)))?;
        map.serialize_entry("cfg", &*piece.cfg)?;
        map.serialize_entry(
            "piece_side",
            &format_args!("{}_{}", piece.kind.name(), piece.side.name()),
        )?;
        map.serialize_entry("rank", &piece.rank)?;
        map.serialize_entry("suit", &piece.suit)?;
        map.serialize_entry("x", &JsonNumber(piece.x))?;
        map.serialize_entry("y", &JsonNumber(piece.y))?;
        map.end()
    }
}

/// A whole number as an integer, any other as a float.
struct JsonNumber(f64);

impl serde::Serialize for JsonNumber {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if self.0.fract() == 0.0 && self.0.abs() < 9e15 {
            serializer.serialize_i64(self.0 as i64)
        } else {
            serializer.serialize_f64(self.0)
        }
    }
}
