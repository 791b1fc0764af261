//! The game bits that are not piecepack components: chess men, checkers, go stones, tafl
//! men and xiangqi pieces, each drawn as its family draws it.

use std::fmt::Write as _;

use super::view::View;
use super::writer::{disc, n, Writer};
use crate::model::games::{TaflMan, XiangqiPiece};
use crate::model::piece::{Piece, Side};
use crate::render::{family, is_light, suit_color, Family};

pub(super) fn draw_bit(writer: &mut Writer, piece: &Piece, view: &View) {
    let (cx, cy) = view.at(piece.x, piece.y);
    let light = is_light(piece);
    let line = view.len(0.03);
    match family(&piece.cfg) {
        Family::Chess => {
            let symbol = ["♟", "♞", "♝", "♜", "♛", "♚"]
                .get(usize::try_from(piece.rank - 1).unwrap_or(9))
                .copied()
                .unwrap_or("?");
            let (fill, stroke) = if light {
                ("#ffffff", "#111111")
            } else {
                (
                    if piece.suit == 2 {
                        "#1a1a1a"
                    } else {
                        suit_color(piece.suit)
                    },
                    "#ffffff",
                )
            };
            let style = format!(
                "fill=\"{fill}\" stroke=\"{stroke}\" stroke-width=\"{}\" paint-order=\"stroke\"",
                n(0.05)
            );
            writer.text(symbol, cx, cy, view.len(0.82), &style, piece.angle);
            if light {
                // The solid glyph filled white needs its inner lines drawn over it.
                let outline = ["♙", "♘", "♗", "♖", "♕", "♔"]
                    .get(usize::try_from(piece.rank - 1).unwrap_or(9))
                    .copied()
                    .unwrap_or("?");
                writer.text(
                    outline,
                    cx,
                    cy,
                    view.len(0.82),
                    "fill=\"#111111\"",
                    piece.angle,
                );
            }
        }
        Family::Checkers | Family::Reversi => {
            let reversi = family(&piece.cfg) == Family::Reversi;
            let shown_light = if reversi && piece.side == Side::Back {
                !light
            } else {
                light
            };
            let fill = if shown_light {
                "#f4f1e8"
            } else if reversi || piece.suit == 2 {
                "#1f1f1f"
            } else {
                suit_color(piece.suit)
            };
            let ring = if shown_light { "#555555" } else { "#dddddd" };
            disc(writer, cx, cy, view.len(0.4), fill, "#111111", line);
            if !reversi {
                let _ = write!(
                    writer.body,
                    "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"none\" stroke=\"{ring}\" stroke-width=\"{}\"/>",
                    n(cx),
                    n(cy),
                    n(view.len(0.28)),
                    n(line)
                );
                if piece.side == Side::Face {
                    writer.text(
                        "♛",
                        cx,
                        cy,
                        view.len(0.36),
                        &format!("fill=\"{ring}\""),
                        0.0,
                    );
                }
            }
        }
        Family::Go | Family::Stones => {
            let r = if family(&piece.cfg) == Family::Go {
                0.47
            } else {
                0.36
            };
            let fill = match piece.suit {
                2 => "#111111",
                6 => "#f7f7f7",
                suit => suit_color(suit),
            };
            let stroke = if piece.suit == 2 {
                "#000000"
            } else {
                "#333333"
            };
            disc(writer, cx, cy, view.len(r), fill, stroke, line);
        }
        Family::Tafl => {
            let (fill, stroke, text) = if light {
                ("#f6f1e4", "#3a2d1c", "#3a2d1c")
            } else {
                ("#2b2520", "#f6f1e4", "#f6f1e4")
            };
            disc(writer, cx, cy, view.len(0.4), fill, stroke, line * 1.5);
            let mark = match TaflMan::from_rank(piece.rank) {
                Some(TaflMan::King) => "♚",
                Some(TaflMan::Commander) => "C",
                Some(TaflMan::Knight) => "♞",
                Some(TaflMan::Guard) => "G",
                Some(TaflMan::Mercenary) => "M",
                Some(TaflMan::Taflman) | None => "",
            };
            if mark == "♚" {
                let _ = write!(
                    writer.body,
                    "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"none\" stroke=\"#c8961e\" stroke-width=\"{}\"/>",
                    n(cx),
                    n(cy),
                    n(view.len(0.34)),
                    n(line * 2.0)
                );
            }
            let size = if mark == "♚" { 0.7 } else { 0.5 };
            writer.text(
                mark,
                cx,
                cy,
                view.len(size),
                &format!("fill=\"{text}\""),
                0.0,
            );
        }
        Family::Xiangqi => {
            let red = piece.suit != 2;
            let colour = if red { "#c0281e" } else { "#1c1c1c" };
            disc(
                writer,
                cx,
                cy,
                view.len(0.44),
                "#f7e7c4",
                colour,
                line * 1.5,
            );
            let _ = write!(
                writer.body,
                "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"{}\"/>",
                n(cx),
                n(cy),
                n(view.len(0.36)),
                n(line * 0.8)
            );
            let name = XiangqiPiece::from_rank(piece.rank).map_or("?", |kind| {
                let index = XiangqiPiece::ALL
                    .iter()
                    .position(|k| *k == kind)
                    .unwrap_or(0);
                if red {
                    ["帥", "仕", "相", "傌", "俥", "炮", "兵"][index]
                } else {
                    ["將", "士", "象", "馬", "車", "砲", "卒"][index]
                }
            });
            writer.text(
                name,
                cx,
                cy,
                view.len(0.48),
                &format!("fill=\"{colour}\""),
                0.0,
            );
        }
        _ => {
            let fill = suit_color(piece.suit);
            disc(writer, cx, cy, view.len(0.36), fill, "#222222", line);
            if piece.side == Side::Face {
                let text = if matches!(piece.suit, 5 | 6) {
                    "#222222"
                } else {
                    "#ffffff"
                };
                writer.text(
                    &piece.rank.to_string(),
                    cx,
                    cy,
                    view.len(0.35),
                    &format!("fill=\"{text}\""),
                    0.0,
                );
            }
        }
    }
}
