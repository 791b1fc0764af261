//! Setups for the chess system: a checkered board and chess pieces, placed from
//! a FEN string.

use crate::model::piece::{PieceKind, Side};
use crate::ppn::rules::setups::args::bad;
use crate::ppn::rules::setups::env::Env;
use crate::ppn::rules::setups::error::SetupError;
use crate::ppn::rules::setups::frame::{each, stack, times, Group, Row};

use crate::ppn::rules::setups::games::boards::{square_board, with_cell_width};
use crate::ppn::rules::setups::games::fen::placements;
use crate::ppn::rules::setups::games::piecepack_chess::fischer_random_back_rank;

type Built = Result<Vec<Row>, SetupError>;

const BLACK: i32 = 2;
const GREEN: i32 = 3;
const WHITE: i32 = 6;

pub(crate) const FEN_ARGUMENTS: &[(&str, &str)] = &[
    ("cell_width", "getOption(\"ppdf.chess_cell_width\", 1)"),
    ("fen", "(the game's starting position)"),
];
pub(crate) const CHESS960_ARGUMENTS: &[(&str, &str)] = &[
    ("seed", "NULL"),
    ("cell_width", "getOption(\"ppdf.chess_cell_width\", 1)"),
    ("fen", "NULL"),
];

/// Chess rank of a FEN letter: pawn 1, knight 2, bishop 3, rook 4, queen 5, king 6.
fn chess_rank(symbol: char) -> Option<i32> {
    match symbol.to_ascii_lowercase() {
        'p' => Some(1),
        'n' => Some(2),
        'b' => Some(3),
        'r' => Some(4),
        'q' => Some(5),
        'k' => Some(6),
        _ => None,
    }
}

fn pieces_from_fen(fen: &str) -> Built {
    placements(fen)
        .into_iter()
        .map(|p| {
            let rank = chess_rank(p.symbol)
                .ok_or_else(|| bad("fen", &format!("unknown piece `{}`", p.symbol)))?;
            Ok(Row {
                kind: PieceKind::Bit,
                side: Side::Face,
                suit: Some(if p.symbol.is_ascii_uppercase() {
                    WHITE
                } else {
                    BLACK
                }),
                rank: Some(rank),
                cfg: None,
                x: p.x,
                y: p.y,
                angle: 0.0,
            })
        })
        .collect()
}

fn on_board(env: &mut Env, size: i32, pieces: Vec<Row>) -> Built {
    let cell_width = env.cell_width()?;
    env.scale_factor = f64::from(cell_width);
    Ok(with_cell_width(
        stack(vec![vec![square_board(size, GREEN)], pieces]),
        "chess",
        cell_width,
    ))
}

fn from_fen(env: &mut Env, size: i32, default_fen: &str) -> Built {
    let fen = env
        .args
        .text("fen")?
        .unwrap_or_else(|| default_fen.to_string());
    let pieces = pieces_from_fen(&fen)?;
    on_board(env, size, pieces)
}

pub(crate) fn chess(env: &mut Env) -> Built {
    from_fen(
        env,
        8,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    )
}

pub(crate) fn horde_chess(env: &mut Env) -> Built {
    from_fen(
        env,
        8,
        "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1",
    )
}

pub(crate) fn jeson_mor(env: &mut Env) -> Built {
    from_fen(env, 9, "nnnnnnnnn/9/9/9/9/9/9/9/NNNNNNNNN")
}

pub(crate) fn monochrome_chess(env: &mut Env) -> Built {
    from_fen(
        env,
        8,
        "RNBQKBNR/PPPPPPPP/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    )
}

pub(crate) fn racing_kings(env: &mut Env) -> Built {
    from_fen(env, 8, "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1")
}

pub(crate) fn chess960(env: &mut Env) -> Built {
    if env.args.text("fen")?.is_some() {
        return from_fen(env, 8, "");
    }
    let back_rank = fischer_random_back_rank(&mut env.rng);
    let army = |suit: i32, pawn_row: i32, back_row: i32| {
        Group::new(PieceKind::Bit, Side::Face)
            .no_cfg()
            .suit(suit)
            .rank([vec![1; 8], back_rank.to_vec()].concat())
            .x(times(1..=8, 2))
            .y(each([pawn_row, back_row], 8))
            .rows()
    };
    let pieces = stack(vec![army(WHITE, 2, 1), army(BLACK, 7, 8)]);
    on_board(env, 8, pieces)
}
