//! Pieces and places in words: the titles of pictures, the stacks under a diagram, hover
//! texts and `replay --changes`.

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

/// What the bits of a configuration are called.
fn bit_name(cfg: &str) -> Option<&'static str> {
    match cfg {
        "go" | "alquerque" | "morris" => Some("stone"),
        "marbles" => Some("marble"),
        "checkers1" | "checkers2" => Some("checker"),
        "reversi" => Some("disc"),
        "cubes" => Some("cube"),
        _ => None,
    }
}

/// Tafl and xiangqi men by their names; `None` for other pieces.
fn game_piece_name(piece: &Piece) -> Option<String> {
    use crate::model::games::{TaflMan, TaflSide, XiangqiPiece, XiangqiSide};
    match (&*piece.cfg, piece.kind) {
        ("tafl", PieceKind::Board) => Some(format!("{0}×{0} tafl board", piece.rank)),
        ("xiangqi", PieceKind::Board) => Some("xiangqi board".to_string()),
        ("tafl", _) => {
            let side = match TaflSide::from_suit(piece.suit)? {
                TaflSide::Attackers => "attackers'",
                TaflSide::Defenders => "defenders'",
            };
            Some(format!("{side} {}", TaflMan::from_rank(piece.rank)?.name()))
        }
        ("xiangqi", _) => {
            let side = match XiangqiSide::from_suit(piece.suit)? {
                XiangqiSide::Red => "Red",
                XiangqiSide::Black => "Black",
            };
            Some(format!(
                "{side} {}",
                XiangqiPiece::from_rank(piece.rank)?.name()
            ))
        }
        _ => None,
    }
}

/// A piece in words, e.g. "ace of Arms tile, face up, rotated 270°".
pub fn describe_piece(piece: &Piece) -> String {
    let piece = &crate::render::sanitized::sane(piece);
    if let Some(name) = game_piece_name(piece) {
        return name;
    }
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
        (Family::Colored, PieceKind::Bit) if bit_name(&piece.cfg).is_some() => format!(
            "{} {}",
            suit_name(piece),
            bit_name(&piece.cfg).unwrap_or(kind)
        ),
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

/// The column and row of a square named as [`file_letters`] and a rank from 1 name it
/// (`c4`, `aa12`); `None` for any other text.
pub fn square_of_name(name: &str) -> Option<(i64, i64)> {
    let digits = name.find(|c: char| c.is_ascii_digit())?;
    let (letters, rank) = name.split_at(digits);
    if letters.is_empty() || letters.len() > 4 || !letters.bytes().all(|b| b.is_ascii_lowercase()) {
        return None;
    }
    let column = letters
        .bytes()
        .fold(0i64, |n, b| n * 26 + i64::from(b - b'a' + 1));
    let row: i64 = rank.parse().ok().filter(|&row| row >= 1)?;
    Some((column, row))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_names_read_back_as_their_files_and_ranks() {
        for (x, y) in [(1, 1), (3, 4), (26, 9), (27, 12), (53, 100)] {
            let name = location_name(x as f64, y as f64);
            assert_eq!(square_of_name(&name), Some((x, y)), "{name}");
        }
        for name in ["", "a", "4", "a0", "A1", "a-1", "(2,3)"] {
            assert_eq!(square_of_name(name), None, "{name}");
        }
    }

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
    fn stones_marbles_and_checkers_have_their_names() {
        let marble = piece(PieceKind::Bit, Side::Back, 6, 9, "marbles", 1.5, 1.5);
        assert_eq!(describe_piece(&marble), "White marble, back up");
        let stone = piece(PieceKind::Bit, Side::Face, 2, 1, "go", 1.0, 1.0);
        assert_eq!(describe_piece(&stone), "Black stone, face up");
    }

    #[test]
    fn tafl_and_xiangqi_men_have_their_names() {
        use crate::model::games::*;
        let king = tafl_man(TaflSide::Defenders, TaflMan::King, 5, 5);
        assert_eq!(describe_piece(&king), "defenders' king");
        assert_eq!(describe_piece(&tafl_board(11)), "11×11 tafl board");
        let horse = xiangqi_piece(XiangqiSide::Black, XiangqiPiece::Horse, 1, 9);
        assert_eq!(describe_piece(&horse), "Black horse");
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
}
