//! Chess variants with a piecepack (optionally with a subpack, whose small tiles
//! stand in for the officers).

use crate::model::piece::{PieceKind, Side};
use crate::ppn::rules::rng::RRng;
use crate::ppn::rules::setups::env::Env;
use crate::ppn::rules::setups::error::SetupError;
use crate::ppn::rules::setups::frame::{
    cat, cfg, coins, dice, each, fill_ranks, pawns, stack, tiles, times, Row, UNDECIDED,
};

use crate::ppn::rules::setups::games::boards::tile_board;

type Built = Result<Vec<Row>, SetupError>;

/// Officers as small subpack tiles, face up.
fn as_subpack(rows: Vec<Row>) -> Vec<Row> {
    rows.into_iter()
        .map(|r| Row {
            kind: PieceKind::Tile,
            side: Side::Face,
            cfg: Some(cfg("subpack")),
            ..r
        })
        .collect()
}

fn with_rank(rows: Vec<Row>, rank: i32) -> Vec<Row> {
    rows.into_iter()
        .map(|r| Row {
            rank: Some(rank),
            ..r
        })
        .collect()
}

fn subpack_flag(env: &Env, forced: bool) -> Result<bool, SetupError> {
    Ok(forced || env.args.flag("has_subpack")?.unwrap_or(false))
}

/// Back-rank officers by chess rank (1 pawn .. 6 king), files a to h.
const STANDARD_BACK_RANK: [i32; 8] = [4, 2, 3, 5, 6, 3, 2, 4];

/// Both armies for a given back rank.
fn chess_pieces(has_subpack: bool, back_rank: [i32; 8]) -> Vec<Row> {
    if has_subpack {
        let black_pawns = coins()
            .back()
            .x(1..=8)
            .y(7)
            .angle(180)
            .suit(each([1, 2], 4))
            .rank(times(3..=6, 2))
            .rows();
        let black_officers = tiles()
            .cfg("subpack")
            .suit(each([1, 2], 4))
            .x(1..=8)
            .y(8)
            .angle(180)
            .rank(back_rank.to_vec())
            .rows();
        let white_pawns = coins()
            .back()
            .x(1..=8)
            .y(2)
            .suit(each([4, 3], 4))
            .rank(times(3..=6, 2))
            .rows();
        let white_officers = tiles()
            .cfg("subpack")
            .suit(each([4, 3], 4))
            .x(1..=8)
            .y(1)
            .rank(back_rank.to_vec())
            .rows();
        return stack(vec![
            black_pawns,
            white_pawns,
            white_officers,
            black_officers,
        ]);
    }
    // Files of an officer: black's then white's mirrored.
    let files = |rank: i32| -> Vec<i32> {
        let found: Vec<i32> = (1..=8)
            .filter(|&f| back_rank[f as usize - 1] == rank)
            .collect();
        cat(&[&found, &found.iter().rev().copied().collect::<Vec<_>>()])
    };
    let pawn_ranks = [1, 1, 3, 3, 4, 4, 5, 6];
    let black_pawns = coins()
        .back()
        .x(1..=8)
        .y(7)
        .angle(180)
        .suit((1..=8).map(|i| (i + 1) % 2 + 1).collect::<Vec<_>>())
        .rank(pawn_ranks)
        .rows();
    let white_pawns = coins()
        .back()
        .x(1..=8)
        .y(2)
        .suit((1..=8).map(|i| i % 2 + 3).collect::<Vec<_>>())
        .rank(pawn_ranks)
        .rows();
    let corners_y = [8, 8, 1, 1];
    let corners_angle = [180, 180, 0, 0];
    let rooks = dice()
        .rank(4)
        .x(files(4))
        .y(corners_y)
        .angle(corners_angle)
        .rows();
    let knights = coins()
        .rank(2)
        .suit(1..=4)
        .x(files(2))
        .y(corners_y)
        .angle(corners_angle)
        .rows();
    let bishops = pawns().x(files(3)).y(corners_y).angle(corners_angle).rows();
    let queens = coins()
        .rank(5)
        .suit([3, 2])
        .x(files(5))
        .y([8, 1])
        .angle([180, 0])
        .rows();
    let kings = coins()
        .rank(6)
        .suit([4, 1])
        .x(files(6))
        .y([8, 1])
        .angle([180, 0])
        .rows();
    stack(vec![
        black_pawns,
        white_pawns,
        rooks,
        knights,
        bishops,
        queens,
        kings,
    ])
}

/// A random Chess960 back rank (by chess rank, files a to h).
pub(crate) fn fischer_random_back_rank(rng: &mut RRng) -> [i32; 8] {
    let dark_bishop = [1, 3, 5, 7][rng.unif_index(4)];
    let light_bishop = [2, 4, 6, 8][rng.unif_index(4)];
    let free: Vec<i32> = (1..=8)
        .filter(|c| *c != dark_bishop && *c != light_bishop)
        .collect();
    let mut rook_king_rook: Vec<i32> = rng
        .sample_without_replacement(6, 3)
        .into_iter()
        .map(|i| free[i - 1])
        .collect();
    rook_king_rook.sort();
    let rest: Vec<i32> = free
        .iter()
        .copied()
        .filter(|c| !rook_king_rook.contains(c))
        .collect();
    let knight_knight_queen = rng.shuffle(&rest);
    let mut back_rank = [0; 8];
    let placed = [
        (dark_bishop, 3),
        (light_bishop, 3),
        (rook_king_rook[0], 4),
        (rook_king_rook[1], 6),
        (rook_king_rook[2], 4),
        (knight_knight_queen[0], 2),
        (knight_knight_queen[1], 2),
        (knight_knight_queen[2], 5),
    ];
    for (file, rank) in placed {
        back_rank[file as usize - 1] = rank;
    }
    back_rank
}

pub(crate) fn chess(env: &mut Env) -> Built {
    chess_with(env, false)
}
pub(crate) fn chess_with(env: &mut Env, forced_subpack: bool) -> Built {
    let has_subpack = subpack_flag(env, forced_subpack)?;
    Ok(stack(vec![
        tile_board(8, 8).rows(),
        chess_pieces(has_subpack, STANDARD_BACK_RANK),
    ]))
}

pub(crate) fn chess960(env: &mut Env) -> Built {
    chess960_with(env, false)
}
pub(crate) fn chess960_with(env: &mut Env, forced_subpack: bool) -> Built {
    let has_subpack = subpack_flag(env, forced_subpack)?;
    let back_rank = fischer_random_back_rank(&mut env.rng);
    Ok(stack(vec![
        tile_board(8, 8).rows(),
        chess_pieces(has_subpack, back_rank),
    ]))
}

pub(crate) fn alice_chess(env: &mut Env) -> Built {
    alice_chess_with(env, false)
}
pub(crate) fn alice_chess_with(env: &mut Env, forced_subpack: bool) -> Built {
    let has_subpack = subpack_flag(env, forced_subpack)?;
    let per_board = env.args.integer("max_tiles")?.unwrap_or(24) / 2;
    let first = tile_board(8, 8).max_tiles(per_board).try_rows()?;
    let second = tile_board(8, 8)
        .max_tiles(per_board)
        .at(11.0, 1.0)
        .try_rows()?;
    Ok(stack(vec![
        first,
        second,
        chess_pieces(has_subpack, STANDARD_BACK_RANK),
    ]))
}

pub(crate) fn baroque_chess(env: &mut Env) -> Built {
    baroque_chess_with(env, false)
}
pub(crate) fn baroque_chess_with(env: &mut Env, forced_subpack: bool) -> Built {
    let has_subpack = subpack_flag(env, forced_subpack)?;
    let board = tile_board(8, 8).rows();
    let black_pawns = coins()
        .back()
        .suit((1..=8).map(|i| (i + 1) % 2 + 1).collect::<Vec<_>>())
        .rank(UNDECIDED)
        .x(1..=8)
        .y(7)
        .angle(180)
        .rows();
    let white_pawns = coins()
        .back()
        .suit((1..=8).map(|i| i % 2 + 3).collect::<Vec<_>>())
        .rank(UNDECIDED)
        .x(1..=8)
        .y(2)
        .rows();
    let corners = coins().suit(1..=4).x([1, 8, 8, 1]).y([8, 8, 1, 1]);
    let rooks: Vec<Row> = if has_subpack {
        corners
            .rows()
            .into_iter()
            .zip([180.0, 0.0, 0.0, 180.0])
            .enumerate()
            .map(|(i, (r, angle))| Row {
                kind: if i % 2 == 0 {
                    PieceKind::Tile
                } else {
                    PieceKind::Die
                },
                side: Side::Face,
                cfg: Some(cfg(if i % 2 == 0 { "subpack" } else { "piecepack" })),
                rank: Some(4),
                angle,
                ..r
            })
            .collect()
    } else {
        corners.rank([4, 1, 4, 1]).angle([180, 180, 0, 0]).rows()
    };
    let knights = dice()
        .rank(2)
        .x([2, 7, 7, 2])
        .y([8, 8, 1, 1])
        .angle([180, 180, 0, 0])
        .rows();
    let bishops = pawns()
        .x([3, 6, 6, 3])
        .y([8, 8, 1, 1])
        .angle([180, 180, 0, 0])
        .rows();
    let queens = coins()
        .suit([1, 3])
        .rank(5)
        .x([4, 5])
        .y([8, 1])
        .angle([180, 0])
        .rows();
    let kings = coins()
        .suit([2, 4])
        .rank(6)
        .x([5, 4])
        .y([8, 1])
        .angle([180, 0])
        .rows();
    let officers = if has_subpack {
        as_subpack(stack(vec![knights, with_rank(bishops, 3), queens, kings]))
    } else {
        stack(vec![knights, bishops, queens, kings])
    };
    let mut rows = stack(vec![board, black_pawns, white_pawns, rooks, officers]);
    fill_ranks(&mut rows, &mut env.rng);
    Ok(rows)
}

pub(crate) fn chaturaji(env: &mut Env) -> Built {
    chaturaji_with(env, false)
}
pub(crate) fn chaturaji_with(env: &mut Env, forced_subpack: bool) -> Built {
    let has_subpack = subpack_flag(env, forced_subpack)?;
    let board = tile_board(8, 8).rows();
    let facing = [-90, 180, 90, 0];
    let soldiers = coins()
        .back()
        .x(cat(&[&[2; 4], &[5, 6, 7, 8], &[7; 4], &[1, 2, 3, 4]]))
        .y(cat(&[&[5, 6, 7, 8], &[7; 4], &[1, 2, 3, 4], &[2; 4]]))
        .suit(each(1..=4, 4))
        .rank(UNDECIDED)
        .angle(each(facing, 4))
        .rows();
    let boats = coins()
        .rank(3)
        .suit(1..=4)
        .x([1, 8, 8, 1])
        .y([8, 8, 1, 1])
        .angle(facing)
        .rows();
    let horses = coins()
        .rank(2)
        .suit(1..=4)
        .x([1, 7, 8, 2])
        .y([7, 8, 2, 1])
        .angle(facing)
        .rows();
    let rooks = dice()
        .rank(4)
        .x([1, 6, 8, 3])
        .y([6, 8, 3, 1])
        .angle(facing)
        .rows();
    let kings = pawns().x([1, 5, 8, 4]).y([5, 8, 4, 1]).angle(facing).rows();
    let officers = if has_subpack {
        as_subpack(stack(vec![boats, horses, rooks, with_rank(kings, 6)]))
    } else {
        stack(vec![boats, horses, rooks, kings])
    };
    let mut rows = stack(vec![board, soldiers, officers]);
    fill_ranks(&mut rows, &mut env.rng);
    Ok(rows)
}

pub(crate) fn chinese_chess(env: &mut Env) -> Built {
    chinese_chess_with(env, false)
}
pub(crate) fn chinese_chess_with(env: &mut Env, forced_subpack: bool) -> Built {
    let has_subpack = subpack_flag(env, forced_subpack)?;
    let facing = each([180, 0], 2);
    let suits = [1, 2, 4, 3];
    // A file and its mirror, for black (top) then red (bottom).
    let mirrored_x = |x: i32| times([x, 10 - x], 2);
    let mirrored_y = |y: i32| each([11 - y, y], 2);
    let board = tile_board(10, 9).rank(each(3..=6, 4)).rows();
    let river = tiles()
        .suit([1, 3])
        .rank(2)
        .x(5)
        .y([9, 2])
        .angle([180, 0])
        .rows();
    let soldier_suits = |offset: i32| (1..=5).map(|i| (i + 1) % 2 + offset).collect::<Vec<_>>();
    let red_soldiers = coins()
        .back()
        .suit(soldier_suits(3))
        .rank([1, 4, 6, 1, 4])
        .x([1, 3, 5, 7, 9])
        .y(4)
        .rows();
    let black_soldiers = coins()
        .back()
        .suit(soldier_suits(1))
        .rank([1, 4, 6, 1, 4])
        .x([1, 3, 5, 7, 9])
        .y(7)
        .angle(180)
        .rows();
    let cannons = pawns()
        .suit(suits)
        .x(mirrored_x(2))
        .y(mirrored_y(3))
        .angle(facing.clone())
        .rows();
    let chariots = dice()
        .suit(suits)
        .rank(4)
        .x(mirrored_x(1))
        .y(mirrored_y(1))
        .angle(facing.clone())
        .rows();
    let officer = |rank: i32, file: i32| {
        coins()
            .suit(suits)
            .rank(rank)
            .x(mirrored_x(file))
            .y(mirrored_y(1))
            .angle(facing.clone())
            .rows()
    };
    let generals = coins()
        .suit([4, 2])
        .rank(6)
        .x(5)
        .y([1, 10])
        .angle([0, 180])
        .rows();
    let officers = stack(vec![
        officer(2, 2),
        officer(3, 3),
        officer(5, 4),
        generals,
        chariots,
    ]);
    let officers = if has_subpack {
        as_subpack(officers)
    } else {
        officers
    };
    Ok(stack(vec![
        board,
        river,
        red_soldiers,
        black_soldiers,
        cannons,
        officers,
    ]))
}

pub(crate) fn four_seasons_chess(env: &mut Env) -> Built {
    four_seasons_chess_with(env, false)
}
pub(crate) fn four_seasons_chess_with(env: &mut Env, forced_subpack: bool) -> Built {
    let has_subpack = subpack_flag(env, forced_subpack)?;
    let board = tile_board(8, 8).rows();
    let facing = [180, 90, 0, -90];
    let suits = [1, 4, 2, 3];
    let soldiers = coins()
        .back()
        .suit(each(suits, 4))
        .rank(times(3..=6, 4))
        .x([1, 2, 3, 3, 6, 6, 7, 8, 8, 7, 6, 6, 3, 3, 2, 1])
        .y([6, 6, 7, 8, 8, 7, 6, 6, 3, 3, 2, 1, 1, 2, 3, 3])
        .angle(each(facing, 4))
        .rows();
    let kings = pawns()
        .suit(suits)
        .angle(facing)
        .x([1, 8, 8, 1])
        .y([8, 8, 1, 1])
        .rows();
    let rooks = dice()
        .suit(suits)
        .rank(4)
        .x([2, 7, 7, 2])
        .y([8, 8, 1, 1])
        .angle(facing)
        .rows();
    let bishops = coins()
        .suit(suits)
        .rank(if has_subpack { 3 } else { 1 })
        .x([2, 7, 7, 2])
        .y([7, 7, 2, 2])
        .angle(facing)
        .rows();
    let knights = coins()
        .suit(suits)
        .rank(2)
        .x([1, 8, 8, 1])
        .y([7, 7, 2, 2])
        .angle(facing)
        .rows();
    let officers = if has_subpack {
        as_subpack(stack(vec![with_rank(kings, 6), rooks, bishops, knights]))
    } else {
        stack(vec![kings, rooks, bishops, knights])
    };
    Ok(stack(vec![board, soldiers, officers]))
}

pub(crate) fn jeson_mor(_: &mut Env) -> Built {
    let board = tile_board(9, 9).rows();
    let black = coins()
        .back()
        .x(1..=9)
        .y(9)
        .suit(cat(&[&[1; 5], &[2; 4]]))
        .rank(cat(&[&[1, 2, 3, 4, 5], &[1, 2, 3, 4]]))
        .angle(180)
        .rows();
    let white = coins()
        .back()
        .x(1..=9)
        .y(1)
        .suit(cat(&[&[4; 4], &[3; 5]]))
        .rank(cat(&[&[1, 2, 3, 4], &[1, 2, 3, 4, 5]]))
        .rows();
    let centre = dice().suit(4).rank(2).x(5).y(5).rows();
    Ok(stack(vec![board, black, white, centre]))
}

pub(crate) fn japanese_chess(env: &mut Env) -> Built {
    japanese_chess_with(env, false)
}
pub(crate) fn japanese_chess_with(env: &mut Env, forced_subpack: bool) -> Built {
    let has_subpack = subpack_flag(env, forced_subpack)?;
    let officer_cfg = env
        .args
        .text("cfg2")?
        .unwrap_or_else(|| "piecepack".to_string());
    let board = tile_board(9, 9).rows();
    let pawn_suits: Vec<i32> = (1..=9).map(|i| i % 4 + 1).collect();
    let lower_pawns = coins()
        .back()
        .x(1..=9)
        .y(3)
        .suit(pawn_suits)
        .rank(UNDECIDED)
        .rows();
    let upper_pawns: Vec<Row> = lower_pawns
        .iter()
        .map(|r| Row {
            y: 7.0,
            angle: 180.0,
            ..r.clone()
        })
        .collect();
    let mut pawn_rows = stack(vec![lower_pawns, upper_pawns]);
    fill_ranks(&mut pawn_rows, &mut env.rng);
    let officer = |rank: i32, suit: Vec<i32>, x: Vec<i32>, y: Vec<i32>, angle: Vec<i32>| {
        coins()
            .rank(rank)
            .cfg(&officer_cfg)
            .suit(suit)
            .x(x)
            .y(y)
            .angle(angle)
            .rows()
    };
    let both_sides = [0, 0, 180, 180];
    let bishops = officer(3, vec![2, 4], vec![2, 8], vec![2, 8], vec![0, 180]);
    let rooks = officer(4, vec![3, 1], vec![8, 2], vec![2, 8], vec![0, 180]);
    let lances = officer(
        5,
        vec![1, 2, 3, 4],
        vec![1, 9, 9, 1],
        vec![1, 1, 9, 9],
        both_sides.to_vec(),
    );
    let knights = officer(
        2,
        vec![4, 1, 2, 3],
        vec![2, 8, 8, 2],
        vec![1, 1, 9, 9],
        both_sides.to_vec(),
    );
    let silvers = officer(
        6,
        vec![3, 4, 1, 2],
        vec![3, 7, 7, 3],
        vec![1, 1, 9, 9],
        both_sides.to_vec(),
    );
    let golds = dice()
        .rank(6)
        .angle(both_sides)
        .x([4, 6, 6, 4])
        .y([1, 1, 9, 9])
        .rows();
    let kings = pawns()
        .suit([4, 3])
        .x([5, 5])
        .y([1, 9])
        .angle([0, 180])
        .rows();
    let mut rows = stack(vec![
        board, pawn_rows, bishops, rooks, lances, knights, silvers, golds, kings,
    ]);
    if has_subpack {
        for row in rows
            .iter_mut()
            .filter(|r| r.kind == PieceKind::Coin && r.side == Side::Face)
        {
            row.kind = PieceKind::Tile;
            row.cfg = Some(cfg("subpack"));
        }
    }
    Ok(rows)
}

pub(crate) fn minishogi(_: &mut Env) -> Built {
    let board = tile_board(5, 5).rows();
    let faces = coins()
        .x([1, 1, 4, 5, 5, 5, 2, 1])
        .y([2, 1, 1, 1, 4, 5, 5, 5])
        .rank([1, 6, 3, 4, 1, 6, 3, 4])
        .suit(each([1, 2], 4))
        .angle(each([0, 180], 4))
        .rows();
    let backs = coins()
        .back()
        .x([2, 3, 4, 3])
        .y([1, 1, 5, 5])
        .rank([4, 4, 5, 5])
        .suit([1, 2, 1, 2])
        .angle([0, 0, 180, 180])
        .rows();
    Ok(stack(vec![board, faces, backs]))
}

pub(crate) fn racing_kings(_: &mut Env) -> Built {
    let board = tile_board(8, 8).rows();
    let ranks = [6, 4, 3, 2, 5, 4, 3, 2];
    let black = coins()
        .angle(180)
        .rank(ranks)
        .suit(each([1, 2], 4))
        .x(times(1..=4, 2))
        .y(each([2, 1], 4))
        .rows();
    let white = coins()
        .rank(ranks)
        .suit(each([3, 4], 4))
        .x(times([8, 7, 6, 5], 2))
        .y(each([2, 1], 4))
        .rows();
    Ok(stack(vec![board, black, white]))
}

pub(crate) fn horde_chess(_: &mut Env) -> Built {
    let board = tile_board(8, 8).rows();
    let officers = tiles()
        .x(1..=8)
        .y(8)
        .angle(180)
        .suit(times(1..=4, 2))
        .rank(STANDARD_BACK_RANK.to_vec())
        .cfg("subpack")
        .rows();
    let mut black_pawns = pawns()
        .x(1..=8)
        .y(7)
        .angle(180)
        .suit(times([4, 3, 2, 1], 2))
        .rows();
    for (i, pawn) in black_pawns.iter_mut().enumerate() {
        pawn.cfg = Some(cfg(if i % 2 == 0 { "piecepack" } else { "subpack" }));
    }
    let horde = coins()
        .suit(times(1..=4, 6))
        .rank(each(1..=6, 4))
        .x(cat(&[
            &(1..=8).collect::<Vec<_>>(),
            &(1..=8).rev().collect::<Vec<_>>(),
            &(1..=8).collect::<Vec<_>>(),
        ]))
        .y(each([1, 2, 3], 8))
        .back()
        .rows();
    let vanguard = coins()
        .x([1, 2, 3, 4, 5, 6, 7, 8, 2, 3, 6, 7])
        .y(cat(&[&[4; 8], &[5; 4]]))
        .suit(times(1..=4, 3))
        .rank(each(1..=6, 2))
        .back()
        .cfg("subpack")
        .rows();
    Ok(stack(vec![board, officers, black_pawns, horde, vanguard]))
}
