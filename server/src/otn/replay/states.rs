//! A line's states in chunks of [`CHUNK`], each full one behind an `Arc` with how far
//! edits have moved its text since it was played: a revision shares the chunks an edit left
//! as they were with the revision before it, so that an edit costs no copy of the line.
//! The chunk being filled is owned, not shared: appending a state asks no `Arc` whether it
//! is shared (an atomic operation, waiting for the move's stores, that was a tenth of a
//! replay).

use std::ops::Range;
use std::sync::Arc;

use crate::model::editor_diagnostics::{outline_key, OutlineKey, Tally};
use crate::otn::board::Man;
use crate::otn::replay::ply::{remake_move, Ply};
use crate::otn::replay::problems::MoveProblem;

/// How many states a chunk holds; a chunk keeps the board of its first state, the boards
/// of the others are made again from it.
pub const CHUNK: usize = 32;
const _: () = assert!(
    CHUNK == u32::BITS as usize,
    "a chunk's verdicts are one bit a state"
);

#[derive(Clone, Debug, Default)]
struct Chunk {
    /// The board of the chunk's first state.
    board: Vec<u8>,
    plies: Vec<Ply>,
    /// The hashes of the chunk's positions, apart from the states: looked through in
    /// runs, for repetitions.
    hashes: Vec<u64>,
    /// The captures of the chunk's states; a state's `captures` range is into this list.
    captures: Vec<(u16, Man)>,
    /// What is wrong with the chunk's moves, with the index of each move's state, in order.
    problems: Vec<(usize, MoveProblem)>,
    /// Their outlines' tally (where they were read), kept as they are found, so that an
    /// editor's diagnostics are picked without a pass over every problem.
    problem_tally: Tally,
    /// Which of the chunk's states reached a verdict, one bit each.
    verdicts: u32,
}

/// The outline key of a chunk's problem, its move `shift` bytes from where it was read.
fn problem_key(problem: &MoveProblem, shift: isize) -> OutlineKey {
    let (range, severity, code) = problem.outline(shift);
    outline_key(&range, severity, code)
}

/// The states of a line, state 0 first.
#[derive(Clone, Debug, Default)]
pub struct Plies {
    /// Full chunks of [`CHUNK`] states.
    chunks: Vec<(isize, Arc<Chunk>)>,
    /// The states after those, fewer than [`CHUNK`]; empty (and without a board) when the
    /// line ends with a full chunk.
    open: (isize, Chunk),
    len: usize,
}

impl Plies {
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Chunk `number` (the open one after the full ones) and its text's shift.
    fn chunk(&self, number: usize) -> (isize, &Chunk) {
        match self.chunks.get(number) {
            Some((shift, chunk)) => (*shift, chunk),
            None => (self.open.0, &self.open.1),
        }
    }

    /// Every chunk in order, the open one last (maybe empty), each with its text's shift.
    fn all_chunks(&self) -> impl Iterator<Item = (isize, &Chunk)> {
        self.chunks
            .iter()
            .map(|(shift, chunk)| (*shift, &**chunk))
            .chain(std::iter::once((self.open.0, &self.open.1)))
    }

    /// State `index` as played, and how far its text has moved since: reading it this way
    /// costs no copy, but its ranges are off by that much.
    pub fn as_read(&self, index: usize) -> (&Ply, isize) {
        let (shift, chunk) = self.chunk(index / CHUNK);
        (&chunk.plies[index % CHUNK], shift)
    }

    /// State `index` with its ranges where they are now.
    pub fn get(&self, index: usize) -> Option<Ply> {
        (index < self.len).then(|| {
            let (ply, shift) = self.as_read(index);
            ply.shifted(shift)
        })
    }

    /// State `index`; it must exist.
    pub fn at(&self, index: usize) -> Ply {
        self.get(index).expect("a state of the line")
    }

    pub fn last(&self) -> Option<Ply> {
        self.len.checked_sub(1).and_then(|last| self.get(last))
    }

    pub fn iter(&self) -> impl Iterator<Item = Ply> + '_ {
        (0..self.len).map(|index| self.at(index))
    }

    /// The position hashes of states `range`.
    pub fn hashes(&self, range: Range<usize>) -> impl Iterator<Item = u64> + '_ {
        let first_chunk = range.start / CHUNK;
        let skip = range.start % CHUNK;
        self.all_chunks()
            .skip(first_chunk)
            .flat_map(|(_, chunk)| chunk.hashes.iter().copied())
            .skip(skip)
            .take(range.len())
    }

    /// The position hash of state `index`.
    pub fn hash(&self, index: usize) -> u64 {
        self.chunk(index / CHUNK).1.hashes[index % CHUNK]
    }

    /// The squares captured by state `index`'s move and the man each held.
    pub fn captures(&self, index: usize) -> &[(u16, Man)] {
        let (_, chunk) = self.chunk(index / CHUNK);
        let range = &chunk.plies[index % CHUNK].captures;
        &chunk.captures[range.start as usize..range.end as usize]
    }

    /// Every state's captures, in order.
    pub fn all_captures(&self) -> Vec<(u16, Man)> {
        self.all_chunks()
            .flat_map(|(_, chunk)| chunk.captures.iter().copied())
            .collect()
    }

    /// What is wrong with the moves, by state index, in order, each with how far its text
    /// has moved since it was found.
    pub fn problems(&self) -> impl Iterator<Item = (usize, &MoveProblem, isize)> + '_ {
        self.all_chunks().flat_map(|(shift, chunk)| {
            chunk
                .problems
                .iter()
                .map(move |(index, problem)| (*index, problem, shift))
        })
    }

    /// Calls `found` with each problem of the moves, as [`Plies::problems`] gives them: a
    /// loop for the passes over tens of thousands of them.
    pub fn each_problem<'a>(&'a self, mut found: impl FnMut(usize, &'a MoveProblem, isize)) {
        for (shift, chunk) in self.all_chunks() {
            for (index, problem) in &chunk.problems {
                found(*index, problem, shift);
            }
        }
    }

    /// How many problems the moves of the line have.
    pub fn problem_count(&self) -> usize {
        self.problem_counts().sum()
    }

    /// Adds the outlines of the moves' problems to `tally`, a chunk's at a time.
    pub fn tally_problems(&self, tally: &mut Tally) {
        for (shift, chunk) in self.all_chunks() {
            let (Some((_, first)), Some((_, last))) =
                (chunk.problems.first(), chunk.problems.last())
            else {
                continue;
            };
            tally.add_run(
                problem_key(first, shift),
                problem_key(last, shift),
                chunk.problem_tally.counts(),
                chunk.problem_tally.in_order(),
            );
        }
    }

    /// How many problems the moves of each chunk have, in order.
    pub fn problem_counts(&self) -> impl Iterator<Item = usize> + '_ {
        self.all_chunks().map(|(_, chunk)| chunk.problems.len())
    }

    /// Problem `at` of chunk `chunk` (counted as [`Plies::problem_counts`] counts them), as
    /// [`Plies::problems`] gives it.
    pub fn chunk_problem(&self, chunk: usize, at: usize) -> Option<(usize, &MoveProblem, isize)> {
        if chunk > self.chunks.len() {
            return None;
        }
        let (shift, chunk) = self.chunk(chunk);
        let (index, problem) = chunk.problems.get(at)?;
        Some((*index, problem, shift))
    }

    /// How many of the states after state 0 have their move start before `offset` (the
    /// states of a line are in the order of their moves in the text).
    pub fn moves_starting_before(&self, offset: usize) -> usize {
        let (mut low, mut high) = (1, self.len.max(1));
        while low < high {
            let middle = (low + high) / 2;
            let (ply, shift) = self.as_read(middle);
            if ply.range.start.saturating_add_signed(shift) < offset {
                low = middle + 1;
            } else {
                high = middle;
            }
        }
        low - 1
    }

    /// The last state at or before `index` whose move reached a verdict.
    pub fn last_verdict_at(&self, index: usize) -> Option<usize> {
        let index = index.min(self.len.checked_sub(1)?);
        let last_chunk = index / CHUNK;
        let in_last = (index % CHUNK) as u32;
        let up_to = |chunk: usize| {
            if chunk == last_chunk {
                in_last
            } else {
                CHUNK as u32 - 1
            }
        };
        (0..=last_chunk).rev().find_map(|chunk| {
            let mask = if up_to(chunk) == 31 {
                u32::MAX
            } else {
                (1u32 << (up_to(chunk) + 1)) - 1
            };
            let bits = self.chunk(chunk).1.verdicts & mask;
            (bits != 0).then(|| chunk * CHUNK + (31 - bits.leading_zeros()) as usize)
        })
    }

    /// The first state before `end` whose move reached a verdict.
    pub fn first_verdict_before(&self, end: usize) -> Option<usize> {
        let end = end.min(self.len);
        self.all_chunks()
            .enumerate()
            .find_map(|(chunk, (_, states))| {
                (states.verdicts != 0)
                    .then(|| chunk * CHUNK + states.verdicts.trailing_zeros() as usize)
            })
            .filter(|first| *first < end)
    }

    /// The board of state `index`, made from its chunk's first.
    pub fn board(&self, index: usize) -> Vec<u8> {
        let (_, chunk) = self.chunk(index / CHUNK);
        let mut board = chunk.board.clone();
        let first = index - index % CHUNK;
        for at in first + 1..=index {
            remake_move(&mut board, self.as_read(at).0, self.captures(at));
        }
        board
    }

    /// Appends a state and its position's hash: its move's captures and problems
    /// (`ply.captures` is set here), and the board it reached.
    pub fn push(
        &mut self,
        (mut ply, hash): (Ply, u64),
        captures: impl IntoIterator<Item = (u16, Man)>,
        problems: &mut Vec<MoveProblem>,
        board: &[u8],
    ) {
        let index = self.len;
        if index.is_multiple_of(CHUNK) {
            self.open = (
                0,
                Chunk {
                    board: board.to_vec(),
                    plies: Vec::with_capacity(CHUNK),
                    hashes: Vec::with_capacity(CHUNK),
                    ..Chunk::default()
                },
            );
        }
        let (shift, chunk) = &mut self.open;
        let shift = *shift;
        let start = chunk.captures.len() as u32;
        chunk.captures.extend(captures);
        ply.captures = start..chunk.captures.len() as u32;
        if ply.verdict.is_some() {
            chunk.verdicts |= 1 << (index % CHUNK);
        }
        if shift != 0 {
            ply.shift(-shift);
        }
        chunk.plies.push(ply);
        chunk.hashes.push(hash);
        if !problems.is_empty() {
            if chunk.problems.is_empty() {
                // Moves that have one often come in runs: room for one a state.
                chunk.problems.reserve(CHUNK);
            }
            for mut problem in problems.drain(..) {
                problem.shift(-shift);
                chunk.problem_tally.add_key(problem_key(&problem, 0));
                chunk.problems.push((index, problem));
            }
        }
        self.len += 1;
        if self.len.is_multiple_of(CHUNK) {
            let (shift, full) = std::mem::take(&mut self.open);
            self.chunks.push((shift, Arc::new(full)));
        }
    }

    /// The first `len` states.
    pub fn truncated(&self, len: usize) -> Plies {
        let len = len.min(self.len);
        let whole = len / CHUNK;
        let mut kept = Plies {
            chunks: self.chunks[..whole].to_vec(),
            open: Default::default(),
            len: whole * CHUNK,
        };
        let rest = len % CHUNK;
        if rest > 0 {
            let (shift, chunk) = self.chunk(whole);
            let captures_end = chunk.plies[rest - 1].captures.end as usize;
            kept.open = (
                shift,
                Chunk {
                    board: chunk.board.clone(),
                    plies: chunk.plies[..rest].to_vec(),
                    hashes: chunk.hashes[..rest].to_vec(),
                    captures: chunk.captures[..captures_end].to_vec(),
                    verdicts: chunk.verdicts & ((1 << rest) - 1),
                    problems: Vec::new(),
                    problem_tally: Tally::default(),
                },
            );
            let open = &mut kept.open.1;
            for (index, problem) in chunk.problems.iter().filter(|(index, _)| *index < len) {
                open.problem_tally.add_key(problem_key(problem, 0));
                open.problems.push((*index, problem.clone()));
            }
            kept.len = len;
        }
        kept
    }

    /// Appends `old`'s states after these (the same index on), their text `delta` bytes
    /// further on: those of whole chunks shared, not copied.
    pub fn extend_from(&mut self, old: &Plies, delta: isize) {
        while self.len < old.len && !self.len.is_multiple_of(CHUNK) {
            let index = self.len;
            let (ply, shift) = old.as_read(index);
            let (_, chunk) = old.chunk(index / CHUNK);
            let mut problems = chunk
                .problems
                .iter()
                .filter(|(at, _)| *at == index)
                .map(|(_, problem)| problem.shifted(shift + delta))
                .collect();
            // Not a chunk's first state: the board is not kept.
            self.push(
                (ply.shifted(shift + delta), chunk.hashes[index % CHUNK]),
                old.captures(index).iter().copied(),
                &mut problems,
                &[],
            );
        }
        if self.len < old.len {
            self.chunks.extend(
                old.chunks[self.len / CHUNK..]
                    .iter()
                    .map(|(shift, chunk)| (shift + delta, Arc::clone(chunk))),
            );
            self.open = (old.open.0 + delta, old.open.1.clone());
            self.len = old.len;
        }
    }
}

impl PartialEq for Plies {
    fn eq(&self, other: &Plies) -> bool {
        self.len == other.len
            && self.iter().eq(other.iter())
            && self.hashes(0..self.len).eq(other.hashes(0..other.len))
            && (0..self.len).all(|index| self.captures(index) == other.captures(index))
            && self
                .problems()
                .map(|(index, problem, shift)| (index, problem.shifted(shift)))
                .eq(other
                    .problems()
                    .map(|(index, problem, shift)| (index, problem.shifted(shift))))
            && self
                .all_chunks()
                .zip(other.all_chunks())
                .all(|((_, a), (_, b))| a.board == b.board)
    }
}

impl Eq for Plies {}
