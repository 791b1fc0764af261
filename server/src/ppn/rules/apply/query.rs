//! Read-only questions editors ask about a game at one point: what the parts of a token
//! are, and which pieces a PieceId names. Nothing here changes the state.

use std::ops::Range;

use crate::model::piece::Piece;
use crate::ppn::reader::issue::Issue;
use crate::ppn::reader::location::{Anchor, Location, LocationKind};
use crate::ppn::reader::macros::{macro_references, MacroTable};
use crate::ppn::reader::piece_id::PieceId;
use crate::ppn::reader::piece_spec::{ParserOptions, PieceSpec};
use crate::ppn::rules::apply::resolve::Context;
use crate::ppn::rules::apply::submove::{split_submoves, Submove};
use crate::ppn::rules::state::GameState;

/// What a span of a token means to the move parser.
#[derive(Clone, Debug, PartialEq)]
pub enum TokenPart {
    /// A PieceSpec that creates or changes a piece (a drop, `=`, `~`).
    PieceSpec(Box<PieceSpec>),
    /// A PieceId that is not part of another PieceId; `text` is the sub-move it was read
    /// from, which the PieceId's own ranges point into.
    PieceId { id: PieceId, text: String },
    /// Where pieces go, or the Location an offset is taken from.
    Location(Location),
}

/// One part of a token.
#[derive(Clone, Debug, PartialEq)]
pub struct TokenElement {
    /// Bytes of the token's text.
    pub range: Range<usize>,
    /// Which sub-move of the token it belongs to (`b5-c5*b4` has two).
    pub submove: usize,
    pub part: TokenPart,
}

impl GameState {
    /// The macros the movetext of this game can use.
    pub fn macros(&self) -> &MacroTable {
        &self.macros
    }

    /// The settings of the game's movetext parser.
    pub fn parser_options(&self) -> &ParserOptions {
        &self.options
    }

    /// The PieceSpecs, PieceIds and Locations of one token (brace-expanded, as a move's
    /// token), with ranges into the token. Empty for a token that uses macros, whose parts
    /// cannot be traced back to its text; sub-moves that do not parse give nothing.
    pub fn token_elements(&self, token: &str) -> Vec<TokenElement> {
        if !macro_references(token).is_empty() {
            return Vec::new();
        }
        let mut elements = Vec::new();
        for (index, part) in split_submoves(token).enumerate() {
            let read = self.read_submove(&part.text);
            let Ok(submove) = &read.submove else {
                continue;
            };
            let mut found = Vec::new();
            collect_submove(submove, &part.text, &mut found);
            elements.extend(found.into_iter().map(|(range, part_kind)| TokenElement {
                range: part.map_range(&range),
                submove: index,
                part: part_kind,
            }));
        }
        elements
    }

    /// The pieces a PieceId read from the sub-move `text` identifies on the board now,
    /// bottom first.
    pub fn identify(&self, id: &PieceId, text: &str) -> Result<Vec<&Piece>, Issue> {
        let warnings = std::cell::RefCell::new(Vec::new());
        let context = Context {
            warnings: &warnings,
            text,
            move_start: self.move_start.as_deref().unwrap_or(&self.board),
            active: &self.active,
            scale_factor: self.scale_factor,
            options: &self.options,
            footprint: &self.footprint,
        };
        let positions = context.positions(id, &self.board)?;
        Ok(positions
            .iter()
            .filter_map(|&i| self.board.pieces.get(i))
            .collect())
    }
}

fn collect_submove(submove: &Submove, text: &str, found: &mut Vec<(Range<usize>, TokenPart)>) {
    let piece = |id: &PieceId, found: &mut Vec<(Range<usize>, TokenPart)>| {
        found.push((
            id.range.clone(),
            TokenPart::PieceId {
                id: id.clone(),
                text: text.to_string(),
            },
        ));
    };
    match submove {
        Submove::Drop {
            spec,
            spec_range,
            location,
            order,
            ..
        } => {
            found.push((spec_range.clone(), TokenPart::PieceSpec(spec.clone())));
            collect_location(location, text, found);
            if let Some(order) = order {
                piece(order, found);
            }
        }
        Submove::Move {
            target,
            location,
            order,
            ..
        } => {
            piece(target, found);
            // `!` moves to where the piece is: its Location spans the whole sub-move.
            if location.range != (0..text.len()) {
                collect_location(location, text, found);
            }
            if let Some(order) = order {
                piece(order, found);
            }
        }
        Submove::Remove(target) | Submove::Flip(target) => piece(target, found),
        Submove::Rotate { target, center, .. } => {
            piece(target, found);
            if let Some(center) = center.as_ref().filter(|c| c.range != target.range) {
                collect_location(center, text, found);
            }
        }
        Submove::Update {
            target,
            spec,
            spec_range,
        }
        | Submove::Replace {
            target,
            spec,
            spec_range,
        } => {
            piece(target, found);
            found.push((spec_range.clone(), TokenPart::PieceSpec(spec.clone())));
        }
        Submove::Capture { mover, captured } => {
            piece(mover, found);
            piece(captured, found);
        }
        Submove::Swap(first, second) => {
            piece(first, found);
            piece(second, found);
        }
    }
}

/// A Location, and the PieceIds and Locations it is measured from.
fn collect_location(location: &Location, text: &str, found: &mut Vec<(Range<usize>, TokenPart)>) {
    if found.iter().any(|(range, _)| *range == location.range) {
        return;
    }
    found.push((
        location.range.clone(),
        TokenPart::Location(location.clone()),
    ));
    match &location.kind {
        LocationKind::OfPiece(id) => found.push((
            id.range.clone(),
            TokenPart::PieceId {
                id: (**id).clone(),
                text: text.to_string(),
            },
        )),
        LocationKind::Relative {
            anchor: Some(anchor),
            ..
        } => match anchor.as_ref() {
            Anchor::Location(inner) => collect_location(inner, text, found),
            Anchor::Piece(id) => found.push((
                id.range.clone(),
                TokenPart::PieceId {
                    id: id.clone(),
                    text: text.to_string(),
                },
            )),
        },
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::piece::{PieceKind, Side};
    use crate::ppn::reader::macros::MacroTable;

    fn state() -> GameState {
        let mut state = GameState::new(
            Vec::new(),
            1.0,
            MacroTable::builtins(),
            ParserOptions::default(),
        );
        assert!(state.apply_move(&["S@b2", "M@b2", "A@c3"]).is_empty());
        state
    }

    fn spans<'a>(token: &'a str, elements: &[TokenElement]) -> Vec<(&'a str, &'static str)> {
        elements
            .iter()
            .map(|e| {
                let kind = match e.part {
                    TokenPart::PieceSpec(_) => "spec",
                    TokenPart::PieceId { .. } => "id",
                    TokenPart::Location(_) => "location",
                };
                (&token[e.range.clone()], kind)
            })
            .collect()
    }

    #[test]
    fn parts_of_tokens_point_into_the_token() {
        let state = state();
        let token = "b2-c3%?A*3?S";
        let elements = state.token_elements(token);
        assert_eq!(
            spans(token, &elements),
            [
                ("b2", "id"),
                ("c3", "location"),
                ("?A", "id"),
                ("3?S", "id")
            ]
        );
        assert_eq!(elements[3].submove, 1);
        let token = "Ct@<1,0>$?M";
        assert_eq!(
            spans(token, &state.token_elements(token)),
            [("Ct", "spec"), ("<1,0>$?M", "location"), ("?M", "id")]
        );
        assert!(state.token_elements("`q'@b2").is_empty());
    }

    #[test]
    fn identifies_pieces_without_changing_the_board() {
        let state = state();
        let elements = state.token_elements("b2-c3");
        let TokenPart::PieceId { id, text } = &elements[0].part else {
            panic!("not a PieceId: {elements:?}");
        };
        let found = state.identify(id, text).expect("b2 holds pieces");
        assert_eq!(found.len(), 1);
        assert_eq!((found[0].kind, found[0].suit), (PieceKind::Coin, 2));
        assert_eq!(found[0].side, Side::Back);
        let elements = state.token_elements("a1-c3");
        let TokenPart::PieceId { id, text } = &elements[0].part else {
            panic!("not a PieceId: {elements:?}");
        };
        let error = state.identify(id, text).unwrap_err();
        assert_eq!(error.code, "no-piece");
        assert_eq!(state.pieces().len(), 3);
    }
}
