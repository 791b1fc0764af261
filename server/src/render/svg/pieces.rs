//! The piecepack's components and their kin: tiles, coins, dice, pawns, saucers, pyramids,
//! matchsticks, dominoes and cards, with their suit symbols, ranks and pips.

use std::fmt::Write as _;

use super::view::View;
use super::writer::{fill_style, n, rect, rotation, Writer};
use crate::model::piece::{Piece, Side};
use crate::render::{family, matchstick_length, suit_color, Family};

/// The glyphs and colour of a piecepack-like suit.
pub(super) fn suit_symbol(piece: &Piece) -> String {
    let index = usize::try_from(piece.suit - 1).ok();
    let pick = |symbols: &[&str]| {
        index
            .and_then(|i| symbols.get(i).copied())
            .unwrap_or("?")
            .to_string()
    };
    match family(&piece.cfg) {
        Family::FrenchPiecepack { hollow: false } | Family::PlayingCards => {
            pick(&["♥", "♠", "♣", "♦"])
        }
        Family::FrenchPiecepack { hollow: true } => pick(&["♡", "♤", "♧", "♢"]),
        _ => pick(&["☀", "☾", "♛", "⚜"]),
    }
}

pub(super) fn ink(piece: &Piece) -> &'static str {
    match family(&piece.cfg) {
        Family::FrenchPiecepack { .. } | Family::PlayingCards => {
            if matches!(piece.suit, 1 | 4) {
                "#c62828"
            } else {
                "#111111"
            }
        }
        _ => {
            if piece.suit == 6 {
                "#888888"
            } else {
                suit_color(piece.suit)
            }
        }
    }
}

pub(super) fn rank_symbol(piece: &Piece) -> String {
    match family(&piece.cfg) {
        Family::PlayingCards => [
            "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K",
        ]
        .get(usize::try_from(piece.rank - 1).unwrap_or(99))
        .map_or_else(|| "★".to_string(), |s| s.to_string()),
        _ => match piece.rank {
            1 => "n".to_string(),
            2 => "a".to_string(),
            r => (r - 1).to_string(),
        },
    }
}

pub(super) fn draw_tile(writer: &mut Writer, piece: &Piece, view: &View) {
    let (cx, cy) = view.at(piece.x, piece.y);
    let line = view.len(0.03);
    if family(&piece.cfg) == Family::Dominoes {
        draw_domino(writer, piece, view);
        return;
    }
    let size = if &*piece.cfg == "subpack" { 1.0 } else { 2.0 };
    if piece.side == Side::Back {
        rect(
            writer,
            piece,
            view,
            (size * 0.97, size * 0.97),
            0.08 * size,
            &fill_style("#e8dfc4", "#3b3326", line * 1.5),
        );
        // The back of a tile is ruled into cells: lay tiles back up and they make a grid.
        let half = view.len(size * 0.97) / 2.0;
        let _ = write!(
            writer.body,
            "<path d=\"M{} {}L{} {}M{} {}L{} {}\" stroke=\"#3b3326\" stroke-width=\"{}\"{}/>",
            n(cx - half),
            n(cy),
            n(cx + half),
            n(cy),
            n(cx),
            n(cy - half),
            n(cx),
            n(cy + half),
            n(line * 1.3),
            rotation(piece.angle, cx, cy)
        );
        return;
    }
    rect(
        writer,
        piece,
        view,
        (size * 0.97, size * 0.97),
        0.08 * size,
        &fill_style("#fbf8ef", "#3b3326", line * 1.5),
    );
    let colour = ink(piece);
    let style = format!("fill=\"{colour}\"");
    writer.text(
        &rank_symbol(piece),
        cx,
        cy,
        view.len(0.75 * size),
        &style,
        piece.angle,
    );
    // The suit in the corner that is the tile's top left.
    let angle = piece.angle.to_radians();
    let (ox, oy) = (-0.31 * size, 0.31 * size);
    let (rx, ry) = (
        ox * angle.cos() - oy * angle.sin(),
        ox * angle.sin() + oy * angle.cos(),
    );
    let (sx, sy) = view.at(piece.x + rx, piece.y + ry);
    draw_suit(
        writer,
        piece,
        (sx, sy),
        view.len(0.3 * size),
        &style,
        piece.angle,
    );
}

/// A piece's suit symbol centred on `at`, `size` its em. The font's Moon is a thin
/// outline that reads as an arc at a coin's size: the Moons are drawn as a solid crescent
/// instead, as tall as the other suits' ink.
pub(super) fn draw_suit(
    writer: &mut Writer,
    piece: &Piece,
    (cx, cy): (f64, f64),
    size: f64,
    style: &str,
    angle: f64,
) {
    if family(&piece.cfg) != Family::Piecepack || piece.suit != 2 {
        writer.text(&suit_symbol(piece), cx, cy, size, style, angle);
        return;
    }
    // Two circles: the outer one's left part, less the inner one. The ink's middle is left
    // of the outer circle's centre, so the crescent is moved right.
    // The inner circle, 0.85 of the outer one's radius and 0.45 of it to the right, meets
    // the outer one at (0.5333, ±0.8457) of its radius.
    let outer = 0.39 * size;
    let inner = 0.85 * outer;
    let (ix, iy) = (0.5333 * outer, 0.8457 * outer);
    let ox = cx + 0.25 * outer;
    let turn = if angle.is_finite() && angle.rem_euclid(360.0) != 0.0 {
        format!(" transform=\"rotate({} {} {})\"", n(-angle), n(cx), n(cy))
    } else {
        String::new()
    };
    let _ = write!(
        writer.body,
        "<path class=\"moon\" d=\"M{} {}A{} {} 0 1 0 {} {}A{} {} 0 1 1 {} {}Z\" {style}{turn}/>",
        n(ox + ix),
        n(cy - iy),
        n(outer),
        n(outer),
        n(ox + ix),
        n(cy + iy),
        n(inner),
        n(inner),
        n(ox + ix),
        n(cy - iy),
    );
}

/// Pip positions on a domino half or a die face, in units of the half's size.
pub(super) fn pip_layout(count: i32) -> &'static [(f64, f64)] {
    const C: f64 = 0.0;
    const A: f64 = 0.27;
    match count {
        1 => &[(C, C)],
        2 => &[(-A, -A), (A, A)],
        3 => &[(-A, -A), (C, C), (A, A)],
        4 => &[(-A, -A), (A, -A), (-A, A), (A, A)],
        5 => &[(-A, -A), (A, -A), (C, C), (-A, A), (A, A)],
        6 => &[(-A, -A), (A, -A), (-A, C), (A, C), (-A, A), (A, A)],
        7 => &[(-A, -A), (A, -A), (-A, C), (C, C), (A, C), (-A, A), (A, A)],
        8 => &[
            (-A, -A),
            (C, -A),
            (A, -A),
            (-A, C),
            (A, C),
            (-A, A),
            (C, A),
            (A, A),
        ],
        9 => &[
            (-A, -A),
            (C, -A),
            (A, -A),
            (-A, C),
            (C, C),
            (A, C),
            (-A, A),
            (C, A),
            (A, A),
        ],
        _ => &[],
    }
}

/// Pips (or, past nine, the number) around (cx, cy) in a square `size` pixels wide.
pub(super) fn draw_pips(
    writer: &mut Writer,
    count: i32,
    cx: f64,
    cy: f64,
    size: f64,
    colour: &str,
) {
    let layout = pip_layout(count);
    if layout.is_empty() && count > 0 {
        writer.text(
            &count.to_string(),
            cx,
            cy,
            size * 0.6,
            &format!("fill=\"{colour}\""),
            0.0,
        );
        return;
    }
    for (dx, dy) in layout {
        let _ = write!(
            writer.body,
            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{colour}\"/>",
            n(cx + dx * size),
            n(cy + dy * size),
            n(size * 0.09)
        );
    }
}

pub(super) fn domino_colors(cfg: &str) -> (&'static str, &'static str) {
    match cfg {
        "dominoes_black" => ("#222222", "#ffffff"),
        "dominoes_blue" => ("#1f5fa8", "#ffffff"),
        "dominoes_green" => ("#2f7d4f", "#ffffff"),
        "dominoes_red" => ("#b3261e", "#ffffff"),
        "dominoes_yellow" => ("#f2c230", "#222222"),
        _ => ("#fbfaf5", "#222222"),
    }
}

pub(super) fn draw_domino(writer: &mut Writer, piece: &Piece, view: &View) {
    let (cx, cy) = view.at(piece.x, piece.y);
    let (fill, pip) = domino_colors(&piece.cfg);
    let line = view.len(0.03);
    let _ = write!(writer.body, "<g{}>", rotation(piece.angle, cx, cy));
    let (w, h) = (view.len(0.96), view.len(1.96));
    let _ = write!(
        writer.body,
        "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"{}\" {}/>",
        n(cx - w / 2.0),
        n(cy - h / 2.0),
        n(w),
        n(h),
        n(view.len(0.1)),
        fill_style(fill, "#333333", line * 1.5)
    );
    if piece.side != Side::Back {
        let _ = write!(
            writer.body,
            "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{pip}\" stroke-width=\"{}\"/>",
            n(cx - w * 0.4),
            n(cy),
            n(cx + w * 0.4),
            n(cy),
            n(line * 1.3)
        );
        // The rank is the top half when the domino is upright, the suit the bottom one.
        let half = view.len(1.0);
        draw_pips(writer, piece.rank - 1, cx, cy - half / 2.0, half, pip);
        draw_pips(writer, piece.suit - 1, cx, cy + half / 2.0, half, pip);
    }
    writer.push("</g>");
}

pub(super) fn draw_card(writer: &mut Writer, piece: &Piece, view: &View) {
    let (cx, cy) = view.at(piece.x, piece.y);
    let line = view.len(0.03);
    if piece.side == Side::Back {
        rect(
            writer,
            piece,
            view,
            (1.9, 2.9),
            0.15,
            &fill_style("#3a5a9b", "#ffffff", line * 3.0),
        );
        return;
    }
    rect(
        writer,
        piece,
        view,
        (1.9, 2.9),
        0.15,
        &fill_style("#ffffff", "#333333", line),
    );
    let style = format!("fill=\"{}\"", ink(piece));
    let _ = write!(writer.body, "<g{}>", rotation(piece.angle, cx, cy));
    writer.text(
        &rank_symbol(piece),
        cx - view.len(0.6),
        cy - view.len(1.1),
        view.len(0.45),
        &style,
        0.0,
    );
    writer.text(
        &suit_symbol(piece),
        cx - view.len(0.6),
        cy - view.len(0.65),
        view.len(0.35),
        &style,
        0.0,
    );
    writer.text(&suit_symbol(piece), cx, cy, view.len(1.0), &style, 0.0);
    writer.push("</g>");
}

pub(super) fn draw_coin(writer: &mut Writer, piece: &Piece, view: &View) {
    let (cx, cy) = view.at(piece.x, piece.y);
    let _ = write!(
        writer.body,
        "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" {}/>",
        n(cx),
        n(cy),
        n(view.len(0.37)),
        fill_style(
            if piece.side == Side::Back {
                "#efe2bd"
            } else {
                "#fbf6e6"
            },
            "#6b5a37",
            view.len(0.035)
        )
    );
    let style = format!("fill=\"{}\"", ink(piece));
    if piece.side == Side::Back {
        draw_suit(writer, piece, (cx, cy), view.len(0.42), &style, piece.angle);
    } else {
        writer.text(
            &rank_symbol(piece),
            cx,
            cy,
            view.len(0.42),
            &style,
            piece.angle,
        );
    }
}

pub(super) fn draw_die(writer: &mut Writer, piece: &Piece, view: &View) {
    let (cx, cy) = view.at(piece.x, piece.y);
    let fam = family(&piece.cfg);
    let (fill, colour) = match fam {
        Family::Dice | Family::DiceFudge | Family::DiceNumeral => {
            let fill = suit_color(piece.suit);
            let pip = if matches!(piece.suit, 5 | 6) {
                "#222222"
            } else {
                "#ffffff"
            };
            (fill, pip)
        }
        _ => ("#fbf6e6", ink(piece)),
    };
    rect(
        writer,
        piece,
        view,
        (0.56, 0.56),
        0.08,
        &fill_style(fill, "#333333", view.len(0.03)),
    );
    match fam {
        Family::Dice => {
            let _ = write!(writer.body, "<g{}>", rotation(piece.angle, cx, cy));
            draw_pips(writer, piece.rank, cx, cy, view.len(0.56), colour);
            writer.push("</g>");
        }
        Family::DiceFudge => {
            let symbol = match piece.rank {
                1 | 6 => "−",
                3 | 4 => "+",
                _ => "",
            };
            writer.text(
                symbol,
                cx,
                cy,
                view.len(0.4),
                &format!("fill=\"{colour}\""),
                piece.angle,
            );
        }
        Family::DiceNumeral => writer.text(
            &piece.rank.to_string(),
            cx,
            cy,
            view.len(0.38),
            &format!("fill=\"{colour}\""),
            piece.angle,
        ),
        _ => writer.text(
            &rank_symbol(piece),
            cx,
            cy,
            view.len(0.36),
            &format!("fill=\"{colour}\""),
            piece.angle,
        ),
    }
}

pub(super) fn draw_pawn(writer: &mut Writer, piece: &Piece, view: &View) {
    let (cx, cy) = view.at(piece.x, piece.y);
    let colour = ink(piece);
    let u = view.len(1.0);
    // A pawn seen from the front: a head on a flared body (the head's arc goes over the
    // top, against the clock on the screen).
    let path = format!(
        "M{} {}L{} {}Q{} {} {} {}A{} {} 0 1 0 {} {}Q{} {} {} {}Z",
        n(cx - 0.3 * u),
        n(cy + 0.38 * u),
        n(cx + 0.3 * u),
        n(cy + 0.38 * u),
        n(cx + 0.12 * u),
        n(cy + 0.1 * u),
        n(cx + 0.1 * u),
        n(cy - 0.08 * u),
        n(0.17 * u),
        n(0.17 * u),
        n(cx - 0.1 * u),
        n(cy - 0.08 * u),
        n(cx - 0.12 * u),
        n(cy + 0.1 * u),
        n(cx - 0.3 * u),
        n(cy + 0.38 * u),
    );
    let stroke = if piece.suit == 2 {
        "#dddddd"
    } else {
        "#222222"
    };
    let fill = if piece.suit == 6 { "#ffffff" } else { colour };
    let _ = write!(
        writer.body,
        "<path d=\"{path}\" {}{}/>",
        fill_style(fill, stroke, view.len(0.03)),
        rotation(piece.angle, cx, cy)
    );
}

pub(super) fn draw_saucer(writer: &mut Writer, piece: &Piece, view: &View) {
    let (cx, cy) = view.at(piece.x, piece.y);
    let colour = suit_color(piece.suit);
    let fill = if piece.side == Side::Back {
        "#eeeeee"
    } else {
        colour
    };
    let _ = write!(
        writer.body,
        "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" {}/><circle cx=\"{}\" cy=\"{}\" r=\"{}\" \
         fill=\"none\" stroke=\"#333333\" stroke-width=\"{}\"/>",
        n(cx),
        n(cy),
        n(view.len(0.37)),
        fill_style(fill, "#333333", view.len(0.03)),
        n(cx),
        n(cy),
        n(view.len(0.22)),
        n(view.len(0.025))
    );
}

pub(super) fn draw_pyramid(writer: &mut Writer, piece: &Piece, view: &View) {
    let (cx, cy) = view.at(piece.x, piece.y);
    let size = 0.35 + 0.13 * f64::from(piece.rank.clamp(1, 3));
    let half = view.len(size) / 2.0;
    let colour = suit_color(piece.suit);
    let stroke = if piece.suit == 2 {
        "#cccccc"
    } else {
        "#222222"
    };
    let width = view.len(0.025);
    if matches!(piece.side, Side::Top | Side::Base) {
        // From above: a square with its four faces meeting at the tip.
        let _ = write!(
            writer.body,
            "<g{}><rect x=\"{}\" y=\"{}\" width=\"{s}\" height=\"{s}\" {}/>\
             <path d=\"M{} {}L{} {}M{} {}L{} {}\" stroke=\"{stroke}\" stroke-width=\"{}\"/></g>",
            rotation(piece.angle, cx, cy),
            n(cx - half),
            n(cy - half),
            fill_style(colour, stroke, width),
            n(cx - half),
            n(cy - half),
            n(cx + half),
            n(cy + half),
            n(cx + half),
            n(cy - half),
            n(cx - half),
            n(cy + half),
            n(width),
            s = n(2.0 * half),
        );
    } else {
        // Lying down: a triangle pointing where the tip points.
        let length = half * 1.6;
        let _ = write!(
            writer.body,
            "<path d=\"M{} {}L{} {}L{} {}Z\" {}{}/>",
            n(cx),
            n(cy - length / 2.0),
            n(cx + half),
            n(cy + length / 2.0),
            n(cx - half),
            n(cy + length / 2.0),
            fill_style(colour, stroke, width),
            rotation(piece.angle, cx, cy)
        );
    }
}

pub(super) fn draw_matchstick(writer: &mut Writer, piece: &Piece, view: &View) {
    let length = matchstick_length(piece.rank);
    rect(
        writer,
        piece,
        view,
        (0.12, length),
        0.04,
        &fill_style(suit_color(piece.suit), "#222222", view.len(0.02)),
    );
}
