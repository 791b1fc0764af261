//! Pieces for the editors and the command line: as JSON (the conformance schema) and as a
//! text diagram; the words for pieces and places live with the pictures.

pub use crate::render::words::{describe_piece, file_letters, format_number, location_name};

use crate::model::piece::Piece;

/// A piece as the conformance data writes it: whole numbers as integers, the angle in
/// [0, 360). Shared by `replay --format json` and the `ppn/boardAt` request.
pub fn piece_json(piece: &Piece) -> serde_json::Value {
    let number = |value: f64| {
        if value.fract() == 0.0 && value.abs() < 9e15 {
            serde_json::json!(value as i64)
        } else {
            serde_json::json!(value)
        }
    };
    serde_json::json!({
        "piece_side": piece.piece_side(),
        "suit": piece.suit,
        "rank": piece.rank,
        "cfg": &*piece.cfg,
        "x": number(piece.x),
        "y": number(piece.y),
        "angle": number(piece.angle.rem_euclid(360.0)),
    })
}

/// A text diagram of a bare list of pieces (coordinates, legend and stacks included).
pub fn render_board(pieces: &[Piece]) -> String {
    crate::render::text::diagram(
        &crate::render::scene_of_pieces(pieces),
        &crate::render::text::TextOptions::default(),
    )
}
