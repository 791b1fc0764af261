//! Words and Unicode diagrams for pieces and boards, shared by `replay --format text` and hover.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::model::piece::{Piece, PieceKind, Side};

/// The family of a configuration decides how its suits and ranks are named.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Family {
    Piecepack,
    PlayingCards,
    DualPiecepacks,
    Chess,
    Dice,
    Dominoes,
    Colored,
}

fn family(cfg: &str) -> Family {
    match cfg {
        "piecepack" | "subpack" | "hexpack" => Family::Piecepack,
        "playing_cards_expansion" | "playing_cards" | "playing_cards_tarot" => Family::PlayingCards,
        "dual_piecepacks_expansion" => Family::DualPiecepacks,
        "chess1" | "chess2" => Family::Chess,
        "dice" => Family::Dice,
        _ if cfg.starts_with("dominoes") => Family::Dominoes,
        _ => Family::Colored,
    }
}

const PIECEPACK_SUITS: [&str; 4] = ["Suns", "Moons", "Crowns", "Arms"];
const CARD_SUITS: [&str; 4] = ["Hearts", "Spades", "Clubs", "Diamonds"];
const COLORS: [&str; 6] = ["Red", "Black", "Green", "Blue", "Yellow", "White"];
const CHESS_RANKS: [&str; 6] = ["pawn", "knight", "bishop", "rook", "queen", "king"];

fn nth<'a>(names: &[&'a str], one_based: i32) -> Option<&'a str> {
    usize::try_from(one_based - 1)
        .ok()
        .and_then(|i| names.get(i).copied())
}

fn suit_name(piece: &Piece) -> String {
    let known = match family(&piece.cfg) {
        Family::Piecepack => nth(&PIECEPACK_SUITS, piece.suit),
        Family::PlayingCards | Family::DualPiecepacks => nth(&CARD_SUITS, piece.suit),
        Family::Chess | Family::Colored | Family::Dice => nth(&COLORS, piece.suit),
        Family::Dominoes => None,
    };
    known.map_or_else(|| format!("suit {}", piece.suit), str::to_string)
}

fn rank_name(piece: &Piece) -> String {
    match family(&piece.cfg) {
        Family::Piecepack | Family::DualPiecepacks => match piece.rank {
            1 => "null".to_string(),
            2 => "ace".to_string(),
            r => (r - 1).to_string(),
        },
        Family::Chess => nth(&CHESS_RANKS, piece.rank)
            .map_or_else(|| format!("rank {}", piece.rank), str::to_string),
        Family::Dice => format!("{} pips", piece.rank),
        _ => piece.rank.to_string(),
    }
}

/// A piece in words, e.g. "ace of Arms tile, face up, rotated 270°".
pub fn describe_piece(piece: &Piece) -> String {
    let kind = piece.kind.name();
    let mut text = match (family(&piece.cfg), piece.kind) {
        (Family::Chess, _) => format!("{} {}", suit_name(piece), rank_name(piece)),
        (Family::Dominoes, _) => format!(
            "{}-{} domino ({})",
            piece.suit - 1,
            piece.rank - 1,
            piece.cfg
        ),
        (Family::Dice, _) => format!("{} die showing {}", suit_name(piece), rank_name(piece)),
        (Family::Colored, _) => format!("{} {} ({})", suit_name(piece), kind, piece.cfg),
        (_, PieceKind::Pawn | PieceKind::Saucer | PieceKind::Board) => {
            format!("{} {}", suit_name(piece), kind)
        }
        _ => format!("{} of {} {}", rank_name(piece), suit_name(piece), kind),
    };
    let side = match piece.side {
        Side::Face => "face up",
        Side::Back => "back up",
        Side::Left => "lying on its left side",
        Side::Right => "lying on its right side",
        Side::Top => "standing up",
        Side::Base => "upside down",
    };
    let _ = write!(text, ", {side}");
    let angle = normalized_angle(piece.angle);
    if angle != 0.0 {
        let _ = write!(text, ", rotated {}°", format_number(angle));
    }
    text
}

fn normalized_angle(angle: f64) -> f64 {
    let a = angle.rem_euclid(360.0);
    if (360.0 - a).abs() < 1e-9 {
        0.0
    } else {
        a
    }
}

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

/// Numbers as a player writes them: `3`, `2.5`.
pub fn format_number(value: f64) -> String {
    if value.fract() == 0.0 && value.abs() < 1e15 {
        format!("{}", value as i64)
    } else {
        let text = format!("{value:.6}");
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// The algebraic file letters for a column (1 = `a`, 27 = `aa`), as the spec defines them.
pub fn file_letters(column: i64) -> Option<String> {
    if column < 1 {
        return None;
    }
    let mut n = column;
    let mut letters = Vec::new();
    while n > 0 {
        n -= 1;
        letters.push((b'a' + (n % 26) as u8) as char);
        n /= 26;
    }
    Some(letters.into_iter().rev().collect())
}

/// A square's name: `c4` on the board, `(0,3)` off it, `(2.5,3)` between squares.
pub fn location_name(x: f64, y: f64) -> String {
    if x.fract() == 0.0 && y.fract() == 0.0 && y >= 1.0 {
        if let Some(letters) = file_letters(x as i64) {
            return format!("{letters}{}", y as i64);
        }
    }
    format!("({},{})", format_number(x), format_number(y))
}

/// Three characters that tell kind, suit and rank apart: `TS5` is the 5 of Suns tile face
/// up, `tS5` the same tile face down; see [`LEGEND`].
pub fn piece_glyph(piece: &Piece) -> String {
    let kind = match piece.kind {
        PieceKind::Tile => 'T',
        PieceKind::Coin => 'C',
        PieceKind::Die => 'D',
        PieceKind::Pawn => 'P',
        PieceKind::Matchstick => 'M',
        PieceKind::Saucer => 'S',
        PieceKind::Bit => 'B',
        PieceKind::Pyramid => 'Y',
        PieceKind::Card => 'K',
        PieceKind::Board => '#',
    };
    let kind = if matches!(piece.side, Side::Face | Side::Top) {
        kind
    } else {
        kind.to_ascii_lowercase()
    };
    let suit_index = usize::try_from(piece.suit - 1).ok();
    let pick = |chars: &[char]| {
        suit_index
            .and_then(|i| chars.get(i).copied())
            .unwrap_or('?')
    };
    let suit = match family(&piece.cfg) {
        Family::Piecepack => pick(&['S', 'M', 'C', 'A']),
        Family::PlayingCards => pick(&['♥', '♠', '♣', '♦']),
        Family::DualPiecepacks => pick(&['♡', '♤', '♧', '♢']),
        Family::Dominoes => digit(piece.suit - 1),
        _ => pick(&['R', 'K', 'G', 'B', 'Y', 'W']),
    };
    let rank = match family(&piece.cfg) {
        Family::Piecepack | Family::DualPiecepacks => match piece.rank {
            1 => 'n',
            2 => 'a',
            r => digit(r - 1),
        },
        Family::Chess => usize::try_from(piece.rank - 1)
            .ok()
            .and_then(|i| ['P', 'N', 'B', 'R', 'Q', 'K'].get(i).copied())
            .unwrap_or('?'),
        Family::Dominoes => digit(piece.rank - 1),
        _ => digit(piece.rank),
    };
    format!("{kind}{suit}{rank}")
}

fn digit(value: i32) -> char {
    u32::try_from(value)
        .ok()
        .and_then(|v| char::from_digit(v, 36))
        .unwrap_or('?')
}

pub const LEGEND: &str = "Cells show the top piece: kind (T tile, C coin, D die, P pawn, \
M matchstick, S saucer, B bit, Y pyramid, K card, # board; lower case when not face up), \
suit (S M C A piecepack, ♥♠♣♦ cards, R K G B Y W colours), rank (n null, a ace, digits; \
P N B R Q K chess).";

/// A text diagram of the board: a grid of the whole squares, then the stacks and the
/// pieces that sit between squares or off the board.
pub fn render_board(pieces: &[Piece]) -> String {
    let mut cells: BTreeMap<(i64, i64), Vec<&Piece>> = BTreeMap::new();
    let mut elsewhere = Vec::new();
    for piece in pieces {
        if piece.x.fract() == 0.0
            && piece.y.fract() == 0.0
            && piece.x.abs() < 1e6
            && piece.y.abs() < 1e6
        {
            cells
                .entry((piece.x as i64, piece.y as i64))
                .or_default()
                .push(piece);
        } else {
            elsewhere.push(piece);
        }
    }
    let mut out = String::new();
    if cells.is_empty() && elsewhere.is_empty() {
        out.push_str("(empty board)\n");
        return out;
    }
    if !cells.is_empty() {
        let min_x = cells.keys().map(|k| k.0).min().unwrap_or(1).min(1);
        let max_x = cells.keys().map(|k| k.0).max().unwrap_or(1);
        let min_y = cells.keys().map(|k| k.1).min().unwrap_or(1).min(1);
        let max_y = cells.keys().map(|k| k.1).max().unwrap_or(1);
        let label_width = max_y.to_string().len().max(min_y.to_string().len());
        let column_label = |x: i64| file_letters(x).unwrap_or_else(|| x.to_string());
        let header = |out: &mut String| {
            let _ = write!(out, "{:label_width$} ", "");
            let mut line = String::new();
            for x in min_x..=max_x {
                let _ = write!(line, " {:^3}", column_label(x));
            }
            out.push_str(line.trim_end());
            out.push('\n');
        };
        header(&mut out);
        for y in (min_y..=max_y).rev() {
            let _ = write!(out, "{y:>label_width$} ");
            for x in min_x..=max_x {
                match cells.get(&(x, y)).and_then(|stack| stack.last()) {
                    Some(top) => {
                        let _ = write!(out, " {}", piece_glyph(top));
                    }
                    None => out.push_str("  · "),
                }
            }
            let _ = writeln!(out, " {y}");
        }
        header(&mut out);
    }
    let stacks: Vec<_> = cells.iter().filter(|(_, stack)| stack.len() > 1).collect();
    if !stacks.is_empty() {
        out.push_str("Stacks, bottom to top:\n");
        for ((x, y), stack) in stacks {
            let names: Vec<String> = stack.iter().map(|p| describe_piece(p)).collect();
            let _ = writeln!(
                out,
                "  {}: {}",
                location_name(*x as f64, *y as f64),
                names.join("; ")
            );
        }
    }
    if !elsewhere.is_empty() {
        out.push_str("Between squares or off the grid, in play order:\n");
        for piece in elsewhere {
            let _ = writeln!(
                out,
                "  {}: {}",
                location_name(piece.x, piece.y),
                describe_piece(piece)
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn piece(
        kind: PieceKind,
        side: Side,
        suit: i32,
        rank: i32,
        cfg: &str,
        x: f64,
        y: f64,
    ) -> Piece {
        Piece {
            kind,
            side,
            suit,
            rank,
            cfg: cfg.into(),
            x,
            y,
            angle: 0.0,
        }
    }

    #[test]
    fn describes_pieces_in_words() {
        let mut tile = piece(PieceKind::Tile, Side::Face, 4, 2, "piecepack", 1.0, 1.0);
        tile.angle = -90.0;
        assert_eq!(
            describe_piece(&tile),
            "ace of Arms tile, face up, rotated 270°"
        );
        let queen = piece(PieceKind::Bit, Side::Face, 2, 5, "chess2", 1.0, 1.0);
        assert_eq!(describe_piece(&queen), "Black queen, face up");
        let coin = piece(PieceKind::Coin, Side::Back, 3, 1, "piecepack", 1.0, 1.0);
        assert_eq!(describe_piece(&coin), "null of Crowns coin, back up");
    }

    #[test]
    fn file_letters_are_big_endian_base_26_without_zero() {
        assert_eq!(file_letters(1).as_deref(), Some("a"));
        assert_eq!(file_letters(26).as_deref(), Some("z"));
        assert_eq!(file_letters(27).as_deref(), Some("aa"));
        assert_eq!(file_letters(28).as_deref(), Some("ab"));
        assert_eq!(file_letters(0), None);
        assert_eq!(location_name(2.5, 3.0), "(2.5,3)");
        assert_eq!(location_name(3.0, 4.0), "c4");
    }

    #[test]
    fn diagram_shows_top_pieces_stacks_and_loose_pieces() {
        let pieces = vec![
            piece(PieceKind::Tile, Side::Back, 1, 6, "piecepack", 1.0, 1.0),
            piece(PieceKind::Coin, Side::Face, 2, 2, "piecepack", 1.0, 1.0),
            piece(PieceKind::Pawn, Side::Face, 3, 1, "piecepack", 2.0, 2.0),
            piece(PieceKind::Die, Side::Face, 1, 4, "dice", 2.5, 1.0),
        ];
        let text = render_board(&pieces);
        let expected = [
            "    a   b",
            "2   ·  PCn 2",
            "1  CMa  ·  1",
            "    a   b",
            "Stacks, bottom to top:",
            "  a1: 5 of Suns tile, back up; ace of Moons coin, face up",
            "Between squares or off the grid, in play order:",
            "  (2.5,1): Red die showing 4 pips, face up",
        ];
        assert_eq!(text.lines().collect::<Vec<_>>(), expected);
    }
}
