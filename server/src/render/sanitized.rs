//! Pieces with their numbers brought within bounds before they are drawn, so that a
//! hostile file's `suit: 2147483647` or infinite angle cannot overflow a renderer.

use crate::model::piece::Piece;
use crate::model::scene::Scene;

/// A piece whose numbers a renderer can compute with: suit and rank within ±1000 (no
/// real component has more), a finite angle.
pub fn sane(piece: &Piece) -> Piece {
    Piece {
        suit: piece.suit.clamp(-1000, 1000),
        rank: piece.rank.clamp(-1000, 1000),
        angle: if piece.angle.is_finite() {
            piece.angle
        } else {
            0.0
        },
        ..*piece
    }
}

/// The scene with every piece made [`sane`].
pub fn sane_scene(scene: &Scene) -> Scene {
    Scene {
        pieces: scene.pieces.iter().map(sane).collect(),
        ..scene.clone()
    }
}
