//! Positions hashed for the repetition rules: a board's hash is the exclusive or of its
//! men's square keys (Zobrist hashing), so a move changes it by the keys of the squares it
//! changes instead of the whole board being read again.

use crate::otn::board::TaflSide;

/// A deterministic hash of a position: the board, the side to move and the man that must
/// move again.
pub fn position_hash(cells: &[u8], side: TaflSide, berserker: Option<u16>) -> u64 {
    position_hash_of(board_hash(cells), side, berserker)
}

/// The hash of a board: the exclusive or of its men's keys (Zobrist hashing), so that a
/// move changes it by the keys of the squares it changes, and the whole board is not read
/// again at every move.
pub fn board_hash(cells: &[u8]) -> u64 {
    cells
        .iter()
        .enumerate()
        .fold(0, |hash, (square, &cell)| hash ^ square_key(square, cell))
}

/// The hash of `boards.1`, which differs from `boards.0` (whose hash is `before`) only at
/// `changed` squares (a square named twice counts once).
pub(super) fn board_hash_after(
    before: u64,
    boards: (&[u8], &[u8]),
    changed: impl Iterator<Item = usize>,
) -> u64 {
    let mut hash = before;
    let mut done: [usize; 8] = [usize::MAX; 8];
    let mut count = 0;
    for square in changed {
        if done[..count].contains(&square) {
            continue;
        }
        if count < done.len() {
            done[count] = square;
        } else {
            // More squares than a move changes in any rules: read the board again.
            return board_hash(boards.1);
        }
        count += 1;
        hash ^= square_key(square, boards.0[square]) ^ square_key(square, boards.1[square]);
    }
    hash
}

/// What a square holding `cell` gives a board's hash: nothing when it is empty.
fn square_key(square: usize, cell: u8) -> u64 {
    if cell == 0 {
        0
    } else {
        scramble(((square as u64) << 8) | u64::from(cell))
    }
}

/// The hash of a position whose board hashes to `board`.
pub(super) fn position_hash_of(board: u64, side: TaflSide, berserker: Option<u16>) -> u64 {
    // Above every square's key's input: the side's key is no square's.
    const SIDE_DOMAIN: u64 = 1 << 40;
    board
        ^ scramble(
            SIDE_DOMAIN
                | u64::from(side == TaflSide::Defenders)
                | (u64::from(berserker.unwrap_or(u16::MAX)) << 8),
        )
}

/// SplitMix64's finaliser: a one-to-one map of 64-bit words whose outputs look random, so
/// that distinct inputs give distinct keys.
fn scramble(mut word: u64) -> u64 {
    word = (word ^ (word >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    word = (word ^ (word >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    word ^ (word >> 31)
}
