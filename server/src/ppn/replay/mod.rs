//! A whole document replayed: games → metadata → setup → moves → board states, with every
//! problem found on the way as a located diagnostic.
//!
//! A replay can be brought up to date with an edit of its text ([`Replay::update`]): each
//! game, each move's state and its diagnostics only depend on the game's own text, so
//! games the edit left alone are kept (moved along), and an edited game keeps the states
//! of the moves before the first one that changed.

pub(crate) mod overlay;

use std::borrow::Cow;
use std::ops::Range;
use std::sync::{Arc, OnceLock};

use serde_yaml::{Mapping, Value};

use crate::diagnostic::{Diagnostic, Severity};
pub use crate::model::edit::TextEdit;
use crate::model::piece::Piece;
use crate::ppn::reader::games::{split_games_checked, DocumentProblem, GameSource};
use crate::ppn::reader::macros::MacroTable;
use crate::ppn::reader::metadata::{parse_metadata, scalar_text, Metadata};
use crate::ppn::reader::movetext::{
    split_movetext_resumable, MoveRecord, MovetextProblem, ResumableSplit, SETUP_LABEL,
};
use crate::ppn::reader::piece_spec::ParserOptions;
use crate::ppn::replay::overlay::Overlay;
use crate::ppn::rules::apply::submove::ReadSubmoves;
use crate::ppn::rules::apply::MAX_PIECES;
use crate::ppn::rules::footprint::Footprint;
use crate::ppn::rules::setups::{
    describe_unknown_argument, normalize_name, setup_from_metadata_seeded, Setup, SetupContext,
    SetupError,
};
use crate::ppn::rules::state::{with_token_texts, GameState};

/// Setups that deal pieces at random without a `Seed` (Shogi's pawns, Plans of Action's
/// coin ranks when only `Coins` is given, ...) draw from this seed, so a file always shows
/// the same board; the reference draws them differently on every run.
pub const UNSEEDED_SETUP_SEED: i32 = 1;

/// The board after one move (or the starting board), made on request from the game's
/// snapshots: a game keeps a board only every few dozen moves.
#[derive(Clone, Debug)]
pub struct ReplayedState {
    /// The move label as the reference writes it: `1.`, `1...`, `2..`, `SetupFn.`.
    pub label: String,
    /// The move's text: comments removed, braces expanded, macros not substituted.
    pub text: String,
    pub comment: String,
    /// Where the move is in the document; `None` for the starting board.
    pub source: Option<Range<usize>>,
    /// The game after the move: pieces and active pieces, so PieceIds can be resolved at
    /// this point and replay can resume from here.
    pub state: Arc<GameState>,
    /// What went wrong in this move (none for the starting board).
    pub diagnostics: Vec<Diagnostic>,
}

impl ReplayedState {
    /// Every piece on the board, bottom (earliest) first.
    pub fn pieces(&self) -> &[Piece] {
        self.state.pieces()
    }
}

/// At least this many moves share one snapshot of the board; boards of many pieces take
/// snapshots further apart (see [`moves_per_snapshot`]).
pub const MIN_MOVES_PER_SNAPSHOT: usize = 32;

/// How many moves a chunk started with `pieces` pieces holds: the pieces stored in snapshots
/// stay under about an eighth of a piece per move, so a 2,000-piece board over 10,000 moves
/// keeps a few megabytes, while any state is still at most a few hundred moves away from
/// its snapshot.
fn moves_per_snapshot(pieces: usize) -> usize {
    MIN_MOVES_PER_SNAPSHOT.max(pieces / 8)
}

/// A stretch of consecutive moves: the board before the first one, and what playing them
/// gave. Shared between revisions: an edit keeps every chunk before it, and every chunk
/// after the point where the board is again what it was; where the board differs for good
/// but in places the moves never read, a chunk's board is patched and the rest shared.
#[derive(Debug)]
struct Chunk {
    /// The game before the chunk's first move.
    start: Arc<GameState>,
    played: Arc<Played>,
}

/// What playing a chunk's moves gave: the same from any board that agrees with the one
/// they were played on where they read it.
#[derive(Debug)]
struct Played {
    /// The problems of the moves: the move's index in the chunk, and the diagnostic with
    /// its range relative to the move's start, so that a chunk moved in the file is kept
    /// as it is.
    diagnostics: Vec<(usize, RelativeDiagnostic)>,
    /// What the moves read of the board.
    footprint: Footprint,
}

#[derive(Clone, Debug)]
struct RelativeDiagnostic {
    start: isize,
    end: isize,
    diagnostic: Diagnostic,
}

impl RelativeDiagnostic {
    fn new(diagnostic: Diagnostic, move_start: usize) -> RelativeDiagnostic {
        RelativeDiagnostic {
            start: diagnostic.range.start as isize - move_start as isize,
            end: diagnostic.range.end as isize - move_start as isize,
            diagnostic,
        }
    }

    fn at(&self, move_start: usize) -> Diagnostic {
        let absolute = |relative: isize| move_start.saturating_add_signed(relative);
        Diagnostic {
            range: absolute(self.start)..absolute(self.end),
            ..self.diagnostic.clone()
        }
    }
}

#[derive(Clone, Debug)]
pub struct ReplayedGame {
    pub range: Range<usize>,
    pub metadata: Metadata,
    /// Problems of the metadata block and of the settings read from it.
    pub metadata_diagnostics: Vec<Diagnostic>,
    /// Problems found while cutting the movetext into moves.
    pub movetext_diagnostics: Vec<Diagnostic>,
    /// The moves in chunks, each with the board before its first move; never empty (the
    /// first chunk starts with the starting board).
    chunks: Arc<[Arc<Chunk>]>,
    /// The index of each chunk's first move.
    chunk_starts: Arc<[usize]>,
    /// The moves as they were split, to tell which ones an edit changed and to split the
    /// movetext again from where it changed.
    split: Arc<ResumableSplit>,
    /// How far the game has moved in the file since `split` was made: it is moved along
    /// only when the game itself is edited.
    split_moved_by: isize,
    /// The moves with their ranges in the current text, made on first use when the game
    /// has moved since it was split.
    moved_moves: OnceLock<Vec<MoveRecord>>,
    /// The sub-moves read while replaying the game after edits, for the next edits.
    read_submoves: Arc<ReadSubmoves>,
    /// How many moves were replayed to make this revision of the game (the others' chunks
    /// were kept from the previous revision).
    moves_replayed: usize,
}

impl ReplayedGame {
    /// How many moves were replayed to make this revision of the game; an edit replays
    /// only from the chunk it changed to the first chunk whose board is again the same.
    pub fn moves_replayed(&self) -> usize {
        self.moves_replayed
    }

    /// How many moves the game has.
    pub fn move_count(&self) -> usize {
        self.split.moves.len()
    }

    /// How many states the game has: the starting board and one per move.
    pub fn state_count(&self) -> usize {
        self.move_count() + 1
    }

    /// Where move `index` starts in the current text.
    fn move_start(&self, index: usize) -> usize {
        self.split.moves[index]
            .source()
            .start
            .saturating_add_signed(self.split_moved_by)
    }

    /// Every move, in order, with its ranges in the current text.
    /// Where the first move starts in the current text, without making every move's new
    /// place as [`ReplayedGame::moves`] does for a game an edit elsewhere moved along.
    pub fn first_move_start(&self) -> Option<usize> {
        (self.move_count() > 0).then(|| self.move_start(0))
    }

    pub fn moves(&self) -> &[MoveRecord] {
        if self.split_moved_by == 0 {
            return &self.split.moves;
        }
        self.moved_moves.get_or_init(|| {
            self.split
                .moves
                .iter()
                .map(|record| record.shifted(self.split_moved_by))
                .collect()
        })
    }

    /// The chunk that state `index` is made from.
    fn chunk_of_state(&self, index: usize) -> usize {
        self.chunk_starts
            .partition_point(|&start| start <= index)
            .saturating_sub(1)
    }

    /// The game after `index` moves (0: the starting board).
    pub fn game_state(&self, index: usize) -> Option<Arc<GameState>> {
        if index > self.move_count() {
            return None;
        }
        let chunk = self.chunk_of_state(index);
        let first = self.chunk_starts[chunk];
        let start = &self.chunks[chunk].start;
        if index == first {
            return Some(start.clone());
        }
        let mut state = GameState::clone(start);
        for record in &self.split.moves[first..index] {
            state.replay(record);
        }
        Some(Arc::new(state))
    }

    /// State `index`: 0 is the starting board, `i` the board after move `i - 1`.
    pub fn state(&self, index: usize) -> Option<ReplayedState> {
        let state = self.game_state(index)?;
        Some(self.replayed_state(index, state))
    }

    fn replayed_state(&self, index: usize, state: Arc<GameState>) -> ReplayedState {
        let Some(move_index) = index.checked_sub(1) else {
            return ReplayedState {
                label: SETUP_LABEL.to_string(),
                text: String::new(),
                comment: String::new(),
                source: None,
                state,
                diagnostics: Vec::new(),
            };
        };
        let record = &self.split.moves[move_index];
        ReplayedState {
            label: record.label().to_string(),
            text: record.text().to_string(),
            comment: record.comment().to_string(),
            source: Some(shift_range(&record.source(), self.split_moved_by)),
            state,
            diagnostics: self.move_diagnostics(move_index).collect(),
        }
    }

    /// The problems of move `index`.
    pub fn move_diagnostics(&self, index: usize) -> impl Iterator<Item = Diagnostic> + '_ {
        let chunk = self.chunk_starts.partition_point(|&start| start <= index) - 1;
        let in_chunk = index - self.chunk_starts[chunk];
        let move_start = self.move_start(index);
        self.chunks[chunk]
            .played
            .diagnostics
            .iter()
            .filter(move |(at, _)| *at == in_chunk)
            .map(move |(_, diagnostic)| diagnostic.at(move_start))
    }

    /// The problems of every move, in move order.
    pub fn all_move_diagnostics(&self) -> impl Iterator<Item = Diagnostic> + '_ {
        self.indexed_move_diagnostics()
            .map(|(_, diagnostic)| diagnostic)
    }

    /// The problems of every move, in move order, each with its move's index.
    pub fn indexed_move_diagnostics(&self) -> impl Iterator<Item = (usize, Diagnostic)> + '_ {
        self.chunks
            .iter()
            .zip(self.chunk_starts.iter())
            .flat_map(move |(chunk, &first)| {
                chunk
                    .played
                    .diagnostics
                    .iter()
                    .map(move |(at, diagnostic)| {
                        let index = first + at;
                        (index, diagnostic.at(self.move_start(index)))
                    })
            })
    }

    /// The problems of each move from move `first` on, in move order (no board is made).
    pub fn diagnostics_by_move_from(&self, first: usize) -> Vec<Vec<Diagnostic>> {
        let mut by_move = vec![Vec::new(); self.move_count().saturating_sub(first)];
        let chunks = self.chunks.iter().zip(self.chunk_starts.iter());
        for (chunk, &start) in chunks.skip(self.chunk_of_state(first)) {
            for (at, diagnostic) in &chunk.played.diagnostics {
                let index = start + at;
                let slot = index.checked_sub(first).and_then(|i| by_move.get_mut(i));
                if let Some(slot) = slot {
                    slot.push(diagnostic.at(self.move_start(index)));
                }
            }
        }
        by_move
    }

    /// Every state from the starting board on, each made from the one before.
    pub fn states(&self) -> impl Iterator<Item = ReplayedState> + '_ {
        self.states_from(0)
    }

    /// Every state from state `first` on.
    pub fn states_from(&self, first: usize) -> impl Iterator<Item = ReplayedState> + '_ {
        let mut current: Option<Arc<GameState>> = None;
        (first..self.state_count())
            .map(move |index| {
                let state = match current.take() {
                    Some(previous) => {
                        let chunk = self.chunk_of_state(index);
                        if self.chunk_starts[chunk] == index {
                            self.chunks[chunk].start.clone()
                        } else {
                            let mut state = Arc::unwrap_or_clone(previous);
                            state.replay(&self.split.moves[index - 1]);
                            Arc::new(state)
                        }
                    }
                    None => self.game_state(index)?,
                };
                current = Some(state.clone());
                Some(self.replayed_state(index, state))
            })
            .map_while(|state| state)
    }

    /// The state after the move whose text holds `offset` (an offset just past a move's end
    /// still counts as that move); `None` outside every move.
    pub fn state_at(&self, offset: usize) -> Option<ReplayedState> {
        let index = self.state_index_at(offset)?;
        self.state(index)
    }

    /// The index of the state after the move whose text holds `offset`.
    pub fn state_index_at(&self, offset: usize) -> Option<usize> {
        let offset = offset.checked_add_signed(-self.split_moved_by)?;
        let moves = &self.split.moves;
        let after = moves.partition_point(|record| record.source().start <= offset);
        let index = after.checked_sub(1)?;
        (offset <= moves[index].source().end).then_some(index + 1)
    }

    fn shifted(&self, delta: isize) -> ReplayedGame {
        if delta == 0 {
            return self.clone();
        }
        ReplayedGame {
            range: shift_range(&self.range, delta),
            metadata: Metadata {
                mapping: self.metadata.mapping.clone(),
                source: self.metadata.source.as_ref().map(|r| shift_range(r, delta)),
            },
            metadata_diagnostics: shift_diagnostics(&self.metadata_diagnostics, delta),
            movetext_diagnostics: shift_diagnostics(&self.movetext_diagnostics, delta),
            chunks: self.chunks.clone(),
            chunk_starts: self.chunk_starts.clone(),
            split: self.split.clone(),
            split_moved_by: self.split_moved_by + delta,
            moved_moves: OnceLock::new(),
            read_submoves: Arc::clone(&self.read_submoves),
            moves_replayed: 0,
        }
    }

    /// Every diagnostic of the game, in the order a replay finds them.
    fn diagnostics(&self) -> impl Iterator<Item = Diagnostic> + '_ {
        self.metadata_diagnostics
            .iter()
            .chain(&self.movetext_diagnostics)
            .cloned()
            .chain(self.all_move_diagnostics())
    }
}

/// Replays moves into chunks.
struct ChunkBuilder {
    chunks: Vec<Arc<Chunk>>,
    chunk_starts: Vec<usize>,
    /// The chunk being filled: its first move, its start and its diagnostics.
    first: usize,
    start: Arc<GameState>,
    moves: usize,
    diagnostics: Vec<(usize, RelativeDiagnostic)>,
    /// How many moves it replayed.
    replayed: usize,
}

impl ChunkBuilder {
    fn new(
        chunks: Vec<Arc<Chunk>>,
        chunk_starts: Vec<usize>,
        first: usize,
        start: Arc<GameState>,
    ) -> Self {
        ChunkBuilder {
            chunks,
            chunk_starts,
            first,
            start,
            moves: 0,
            diagnostics: Vec::new(),
            replayed: 0,
        }
    }

    /// The move index the next replayed move has.
    fn next_move(&self) -> usize {
        self.first + self.moves
    }

    /// Whether the chunk being filled is full, so that the next move starts a new one.
    fn full(&self, state: &GameState) -> bool {
        self.moves >= moves_per_snapshot(state.pieces().len())
    }

    /// Ends the chunk being filled (an empty one is dropped), its moves having read
    /// `footprint`; the next one starts from `state`.
    fn cut(&mut self, state: Arc<GameState>, footprint: Footprint) {
        let first = self.next_move();
        if self.moves > 0 {
            self.finish_chunk(footprint);
        }
        self.first = first;
        self.start = state;
    }

    fn finish_chunk(&mut self, footprint: Footprint) {
        self.chunks.push(Arc::new(Chunk {
            start: self.start.clone(),
            played: Arc::new(Played {
                diagnostics: std::mem::take(&mut self.diagnostics),
                footprint,
            }),
        }));
        self.chunk_starts.push(self.first);
        self.moves = 0;
    }

    /// Adds a chunk made elsewhere, starting at move `first`, after the chunks made so
    /// far; the chunk being filled must be empty. The next move replayed starts a chunk
    /// from `state` at move `next`.
    fn push_made(&mut self, first: usize, chunk: Chunk) {
        debug_assert_eq!(self.moves, 0);
        self.chunks.push(Arc::new(chunk));
        self.chunk_starts.push(first);
    }

    /// Starts the next chunk at move `first` from `state`; the chunk being filled must be
    /// empty.
    fn start_at(&mut self, first: usize, state: Arc<GameState>) {
        debug_assert_eq!(self.moves, 0);
        self.first = first;
        self.start = state;
    }

    /// Replays `record` (of `text`) on `state`.
    fn replay(&mut self, text: &str, state: &mut GameState, record: &MoveRecord) {
        if self.full(state) {
            let footprint = state.footprint.take();
            self.cut(Arc::new(state.clone()), footprint);
        }
        for diagnostic in replay_move(text, state, record) {
            self.diagnostics.push((
                self.moves,
                RelativeDiagnostic::new(diagnostic, record.source().start),
            ));
        }
        self.moves += 1;
        self.replayed += 1;
    }

    fn finish(mut self, footprint: Footprint) -> (Vec<Arc<Chunk>>, Vec<usize>, usize) {
        if self.moves > 0 || self.chunks.is_empty() {
            self.finish_chunk(footprint);
        }
        (self.chunks, self.chunk_starts, self.replayed)
    }
}

#[derive(Clone, Debug, Default)]
pub struct Replay {
    pub games: Vec<ReplayedGame>,
    /// Problems of the document's notation and moves (syntax errors are the grammar's).
    pub diagnostics: Vec<Diagnostic>,
}

/// Replay every game of a document.
pub fn replay_document(text: &str) -> Replay {
    let (sources, problems) = split_games_checked(text);
    replay_games(text, sources, problems)
}

/// [`replay_document`] for a text already cut into games (`split_games_checked`).
pub fn replay_games(
    text: &str,
    sources: Vec<GameSource>,
    problems: Vec<DocumentProblem>,
) -> Replay {
    let games = sources
        .into_iter()
        .map(|source| replay_game(text, source))
        .collect();
    Replay::assemble(games, problems)
}

impl Replay {
    fn assemble(games: Vec<ReplayedGame>, problems: Vec<DocumentProblem>) -> Replay {
        let mut diagnostics: Vec<Diagnostic> = problems
            .into_iter()
            .map(|problem| Diagnostic {
                related: Vec::new(),
                fixes: Vec::new(),
                range: problem.range,
                severity: problem.code.severity(),
                code: problem.code.as_str(),
                message: problem.message,
            })
            .collect();
        diagnostics.extend(games.iter().flat_map(|game| game.diagnostics()));
        Replay { games, diagnostics }
    }

    /// The replay of `new_text`, which `edit` made from `old_text`, the text of this
    /// replay. Exactly what [`replay_document`] gives, but games the edit left alone are
    /// reused, and a game it changed is replayed only from its first changed move.
    pub fn update(&self, old_text: &str, new_text: &str, edit: &TextEdit) -> Replay {
        let (sources, problems) = split_games_checked(new_text);
        self.update_games(old_text, new_text, edit, sources, problems)
    }

    /// [`Replay::update`] for a new text already cut into games (`split_games_checked`).
    pub fn update_games(
        &self,
        old_text: &str,
        new_text: &str,
        edit: &TextEdit,
        sources: Vec<GameSource>,
        problems: Vec<DocumentProblem>,
    ) -> Replay {
        let edit = &edit.checked(old_text, new_text);
        let games = sources
            .into_iter()
            .map(|source| {
                let old_game = edit.old_offset(source.range.start).and_then(|start| {
                    let index = self
                        .games
                        .binary_search_by_key(&start, |game| game.range.start)
                        .ok()?;
                    self.games.get(index)
                });
                match old_game {
                    Some(old) => update_game(old, old_text, new_text, source, edit),
                    None => replay_game(new_text, source),
                }
            })
            .collect();
        Replay::assemble(games, problems)
    }
}

/// `old`, a game of `old_text`, as far as it still holds for `source` in `new_text`.
fn update_game(
    old: &ReplayedGame,
    old_text: &str,
    new_text: &str,
    source: GameSource,
    edit: &TextEdit,
) -> ReplayedGame {
    let at_file_start = |range: &Range<usize>| range.start == 0;
    if old_text.get(old.range.clone()) == new_text.get(source.range.clone())
        && at_file_start(&old.range) == at_file_start(&source.range)
    {
        let delta = source.range.start as isize - old.range.start as isize;
        return old.shifted(delta);
    }
    let same_metadata = old.range.start == source.range.start
        && old.metadata.source == source.metadata
        && source
            .metadata
            .as_ref()
            .is_none_or(|range| old_text.get(range.clone()) == new_text.get(range.clone()));
    if !same_metadata {
        return replay_game(new_text, source);
    }
    let old_split = match old.split_moved_by {
        0 => Cow::Borrowed(&*old.split),
        delta => Cow::Owned(old.split.shifted(delta)),
    };
    let (split, kept, in_step_from) =
        old_split.resplit_in_step(new_text, source.movetext.clone(), edit);
    let unchanged = kept
        + old_split.moves[kept..]
            .iter()
            .zip(&split.moves[kept..])
            .take_while(|(before, after)| same_move(before, old_text, after, new_text))
            .count();
    // Every chunk whose moves are all unchanged is kept; replay resumes at the start of
    // the chunk holding the first changed move.
    let resume_chunk = old
        .chunk_starts
        .partition_point(|&first| first <= unchanged)
        - 1;
    let resume_at = old.chunk_starts[resume_chunk];
    let mut builder = ChunkBuilder::new(
        old.chunks[..resume_chunk].to_vec(),
        old.chunk_starts[..resume_chunk].to_vec(),
        resume_at,
        old.chunks[resume_chunk].start.clone(),
    );
    let mut state = GameState::clone(&old.chunks[resume_chunk].start);
    state.read_submoves = Some(Arc::clone(&old.read_submoves));
    state.footprint.start();
    // Pieces born up to here are the same pieces in both revisions; the later ones may be
    // numbered otherwise.
    let threshold = state.max_serial;
    // From `same_from` on, the new moves are the old ones moved along (by `moves_delta`
    // moves and `bytes_delta` bytes): once the board at an old chunk's start is the same
    // again, the old chunks from there on hold for the new text; once it differs only
    // where the old chunks' moves do not read, they hold with their boards patched.
    let moves_delta = split.moves.len() as isize - old_split.moves.len() as isize;
    let bytes_delta = new_text.len() as isize - old_text.len() as isize;
    let same_from = if in_step_from < split.moves.len() {
        in_step_from
    } else {
        split.moves.len()
            - split
                .moves
                .iter()
                .rev()
                .zip(old_split.moves.iter().rev())
                .take_while(|(after, before)| {
                    before.source().start >= edit.old_end
                        && same_move_moved(before, after, bytes_delta)
                })
                .count()
    };
    let new_index = |old_index: usize| old_index.saturating_add_signed(moves_delta);
    let mut index = resume_at;
    // The move where the state was last compared with the old one (not again there).
    let mut compared_at = None;
    let finished = loop {
        if index >= same_from.max(unchanged + 1) && compared_at != Some(index) {
            compared_at = Some(index);
            let old_index = index.saturating_add_signed(-moves_delta);
            let old_chunk = old.chunk_starts.binary_search(&old_index).ok();
            let overlay = old_chunk
                .and_then(|chunk| Overlay::between(&old.chunks[chunk].start, &state, threshold));
            if let (Some(mut chunk), Some(mut overlay)) = (old_chunk, overlay) {
                let footprint = state.footprint.take();
                builder.cut(old.chunks[chunk].start.clone(), footprint);
                if overlay.is_empty() {
                    // In step again: the old chunks from here on hold as they are.
                    builder.chunks.extend(old.chunks[chunk..].iter().cloned());
                    builder.chunk_starts.extend(
                        old.chunk_starts[chunk..]
                            .iter()
                            .map(|&first| new_index(first)),
                    );
                    break None;
                }
                // Each old chunk whose moves read nothing the patch touches holds, its board
                // patched.
                while let Some(kept) = old.chunks.get(chunk) {
                    if overlay.conflicts_with(&kept.played.footprint) {
                        break;
                    }
                    builder.push_made(
                        new_index(old.chunk_starts[chunk]),
                        Chunk {
                            start: Arc::new(overlay.apply(&kept.start)),
                            played: Arc::clone(&kept.played),
                        },
                    );
                    overlay = overlay.after(&kept.played.footprint);
                    chunk += 1;
                }
                let Some(conflicting) = old.chunks.get(chunk) else {
                    break None;
                };
                // The moves of this one are played again, from its board patched.
                index = new_index(old.chunk_starts[chunk]);
                compared_at = Some(index);
                state = overlay.apply(&conflicting.start);
                state.read_submoves = Some(Arc::clone(&old.read_submoves));
                state.footprint.start();
                builder.start_at(index, Arc::new(state.clone()));
            }
        }
        let Some(record) = split.moves.get(index) else {
            break Some(state.footprint.take());
        };
        builder.replay(new_text, &mut state, record);
        index += 1;
    };
    let (chunks, chunk_starts, moves_replayed) = match finished {
        Some(footprint) => builder.finish(footprint),
        None => {
            let replayed = builder.replayed;
            (builder.chunks, builder.chunk_starts, replayed)
        }
    };
    ReplayedGame {
        range: source.range,
        metadata: old.metadata.clone(),
        metadata_diagnostics: old.metadata_diagnostics.clone(),
        movetext_diagnostics: movetext_diagnostics(&split.problems),
        chunks: chunks.into(),
        chunk_starts: chunk_starts.into(),
        split: Arc::new(split),
        split_moved_by: 0,
        moved_moves: OnceLock::new(),
        read_submoves: Arc::clone(&old.read_submoves),
        moves_replayed,
    }
}

/// Whether replaying `after` (of `new_text`) gives what replaying `before` (of
/// `old_text`) gave, diagnostics included, from the same state.
fn same_move(before: &MoveRecord, old_text: &str, after: &MoveRecord, new_text: &str) -> bool {
    before == after
        && before
            .tokens()
            .all(|token| old_text.get(token.source.clone()) == new_text.get(token.source.clone()))
}

/// Whether `after` is `before` moved by `delta` bytes, with the same text; for moves after
/// the edit, whose bytes are the same moved along.
fn same_move_moved(before: &MoveRecord, after: &MoveRecord, delta: isize) -> bool {
    before.shifted(delta) == *after
}

fn shift_range(range: &Range<usize>, delta: isize) -> Range<usize> {
    range.start.saturating_add_signed(delta)..range.end.saturating_add_signed(delta)
}

fn shift_diagnostics(diagnostics: &[Diagnostic], delta: isize) -> Vec<Diagnostic> {
    diagnostics
        .iter()
        .map(|diagnostic| diagnostic.shifted(delta))
        .collect()
}

fn movetext_diagnostics(problems: &[MovetextProblem]) -> Vec<Diagnostic> {
    problems
        .iter()
        .map(|problem| Diagnostic {
            related: Vec::new(),
            fixes: Vec::new(),
            range: problem.range.clone(),
            severity: problem.severity,
            code: problem.code.as_str(),
            message: problem.message.clone(),
        })
        .collect()
}

fn replay_game(text: &str, source: GameSource) -> ReplayedGame {
    let (metadata, mut metadata_diagnostics) = parse_metadata(text, source.metadata.clone());
    let settings = GameSettings::read(text, &metadata, &mut metadata_diagnostics);
    let split = split_movetext_resumable(text, source.movetext.clone());
    let mut state = GameState::new(
        settings.setup.pieces,
        settings.scale_factor,
        MacroTable::with_overrides(&settings.setup.macros, &settings.macros),
        settings.options,
    );
    let mut builder = ChunkBuilder::new(Vec::new(), Vec::new(), 0, Arc::new(state.clone()));
    state.footprint.start();
    for record in &split.moves {
        builder.replay(text, &mut state, record);
    }
    let (chunks, chunk_starts, moves_replayed) = builder.finish(state.footprint.take());
    ReplayedGame {
        range: source.range,
        metadata,
        metadata_diagnostics,
        movetext_diagnostics: movetext_diagnostics(&split.problems),
        chunks: chunks.into(),
        chunk_starts: chunk_starts.into(),
        split: Arc::new(split),
        split_moved_by: 0,
        moved_moves: OnceLock::new(),
        read_submoves: Arc::default(),
        moves_replayed,
    }
}

/// Applies the move to `state`; the move's diagnostics.
fn replay_move(text: &str, state: &mut GameState, record: &MoveRecord) -> Vec<Diagnostic> {
    let issues = with_token_texts(record, |tokens| state.apply_move(tokens));
    if issues.is_empty() {
        return Vec::new();
    }
    issues
        .into_iter()
        .filter_map(|issue| {
            let token = record.token(issue.token)?;
            let written = text.get(token.source.clone())?;
            // Inside a token that braces did not change, the engine's offsets are the file's.
            let range = if written == token.text && issue.range.end <= written.len() {
                token.source.start + issue.range.start..token.source.start + issue.range.end
            } else {
                token.source.clone()
            };
            Some(Diagnostic {
                related: Vec::new(),
                fixes: Vec::new(),
                range,
                severity: issue.severity,
                code: issue.code,
                message: issue.message,
            })
        })
        .collect()
}

/// What a game's metadata decides before its first move.
struct GameSettings {
    setup: Setup,
    scale_factor: f64,
    macros: Vec<(String, String)>,
    options: ParserOptions,
}

impl GameSettings {
    fn read(text: &str, metadata: &Metadata, diagnostics: &mut Vec<Diagnostic>) -> GameSettings {
        let mut problem = |key: &str, severity, code, message: String| {
            let range = metadata
                .value_range(text, key)
                .or_else(|| metadata.source.clone())
                .unwrap_or(0..0);
            diagnostics.push(Diagnostic {
                related: Vec::new(),
                fixes: Vec::new(),
                range,
                severity,
                code,
                message,
            });
        };

        let parser = MovetextParser::read(metadata.get("MovetextParser"));
        let options = match ParserOptions::for_parser(&parser.name, parser.cell_width) {
            Some(options) => options,
            None => {
                problem(
                    "MovetextParser",
                    Severity::Error,
                    "unknown-movetext-parser",
                    format!(
                        "unknown MovetextParser `{}`; known parsers: Default, Piecepack, \
                         Alquerque, Checker, Chess, Domino, Go, Marble, Morris, Tarot",
                        parser.name
                    ),
                );
                ParserOptions::default()
            }
        };
        for key in &parser.unknown_keys {
            problem(
                "MovetextParser",
                Severity::Warning,
                "unknown-parser-option",
                format!("the movetext parser does not take `{key}`; it is ignored"),
            );
        }
        let context = SetupContext::for_parser(&parser.name, parser.cell_width);

        let mut unknown_argument_diagnostics = Vec::new();
        let setup_key = ["SetUp", "GameType"]
            .into_iter()
            .find(|key| metadata.get(key).is_some());
        let setup = match setup_key.and_then(|key| Some((key, metadata.get(key)?))) {
            None => empty_setup(),
            Some((key, value)) => {
                let mut value = value.clone();
                loop {
                    match setup_from_metadata_seeded(&value, &context, UNSEEDED_SETUP_SEED) {
                        Ok(setup) => break setup,
                        // The reference refuses such a setup; the board is still clear.
                        Err(SetupError::UnknownArgument { argument, accepted }) => {
                            if !remove_argument(&mut value, &argument) {
                                let err = SetupError::UnknownArgument { argument, accepted };
                                problem(
                                    key,
                                    Severity::Error,
                                    "bad-setup-argument",
                                    format!("{key}: {err}"),
                                );
                                break empty_setup();
                            }
                            unknown_argument_diagnostics
                                .push(unknown_argument(text, metadata, key, &argument, &accepted));
                        }
                        Err(err) => {
                            let code = match &err {
                                SetupError::UnknownGame { .. } => "unknown-game",
                                SetupError::UnknownSystem { .. } => "unknown-system",
                                SetupError::BadArgument { .. }
                                | SetupError::UnknownArgument { .. } => "bad-setup-argument",
                                SetupError::BadValue { .. } => "bad-setup",
                            };
                            problem(key, Severity::Error, code, format!("{key}: {err}"));
                            break empty_setup();
                        }
                    }
                }
            }
        };

        let mut setup = setup;
        if setup.pieces.len() > MAX_PIECES {
            problem(
                setup_key.unwrap_or("SetUp"),
                Severity::Error,
                "too-many-pieces",
                format!(
                    "the setup places {} pieces; a board holds at most {MAX_PIECES}, so the \
                     others are left out",
                    setup.pieces.len()
                ),
            );
            setup.pieces.truncate(MAX_PIECES);
        }
        let mut scale_factor = setup.scale_factor;
        if let Some(value) = parser.scale_factor.or_else(|| {
            metadata
                .get("ScalingFactor")
                .map(|v| v.as_f64().filter(|f| *f > 0.0).ok_or(()))
        }) {
            match value {
                Ok(scale) => scale_factor = scale,
                Err(()) => problem(
                    "ScalingFactor",
                    Severity::Error,
                    "bad-scaling-factor",
                    "ScalingFactor must be a positive number".to_string(),
                ),
            }
        }

        let mut macros = Vec::new();
        match metadata.get("Macros") {
            None => {}
            Some(Value::Mapping(mapping)) => {
                for (name, value) in mapping {
                    match (scalar_text(name), scalar_text(value)) {
                        (Some(name), Some(value)) => macros.push((name, value)),
                        _ => problem(
                            "Macros",
                            Severity::Error,
                            "bad-macro",
                            "every macro must map a name to a text".to_string(),
                        ),
                    }
                }
            }
            Some(_) => problem(
                "Macros",
                Severity::Error,
                "bad-macro",
                "Macros must be a mapping of macro names to their texts".to_string(),
            ),
        }

        diagnostics.extend(unknown_argument_diagnostics);
        GameSettings {
            setup,
            scale_factor,
            macros,
            options,
        }
    }
}

/// A setup argument the setup does not take, on its key as written, with a did-you-mean
/// and a quick fix when an accepted argument is close.
fn unknown_argument(
    text: &str,
    metadata: &Metadata,
    key: &str,
    argument: &str,
    accepted: &[String],
) -> Diagnostic {
    let written = metadata
        .nested_keys(text, key)
        .into_iter()
        .find(|(_, written)| normalize_name(written.trim_matches(['"', '\''])) == argument);
    let range = written
        .as_ref()
        .map(|(range, _)| range.clone())
        .or_else(|| metadata.value_range(text, key))
        .unwrap_or(0..0);
    let shown = written
        .as_ref()
        .map_or(argument, |(_, written)| written.as_str());
    let (message, suggestion) = describe_unknown_argument(shown, argument, accepted);
    let diagnostic = Diagnostic::warning(
        range.clone(),
        "unknown-setup-argument",
        format!("{key}: {message} ppn-ls ignores it; the reference refuses the setup."),
    );
    match (suggestion, written) {
        (Some(suggested), Some(_)) => diagnostic.with_fix(crate::diagnostic::Fix {
            title: format!("write `{suggested}`"),
            edits: vec![(range, suggested)],
        }),
        _ => diagnostic,
    }
}

/// Drop the setup argument whose normalised name is `argument`; false if there is none.
fn remove_argument(value: &mut Value, argument: &str) -> bool {
    let Value::Mapping(mapping) = value else {
        return false;
    };
    let key = mapping
        .keys()
        .find(|key| scalar_text(key).is_some_and(|k| normalize_name(&k) == argument))
        .cloned();
    key.is_some_and(|key| mapping.remove(&key).is_some())
}

fn empty_setup() -> Setup {
    Setup {
        pieces: Vec::new(),
        scale_factor: 1.0,
        macros: Vec::new(),
    }
}

/// The `MovetextParser` value: a name, or a mapping with `Name` and the parser's options.
struct MovetextParser {
    name: String,
    cell_width: Option<u32>,
    scale_factor: Option<Result<f64, ()>>,
    unknown_keys: Vec<String>,
}

impl MovetextParser {
    fn read(value: Option<&Value>) -> MovetextParser {
        let mut parser = MovetextParser {
            name: "Default".to_string(),
            cell_width: None,
            scale_factor: None,
            unknown_keys: Vec::new(),
        };
        match value {
            None => {}
            Some(Value::Mapping(mapping)) => parser.read_mapping(mapping),
            Some(other) => {
                if let Some(name) = scalar_text(other) {
                    parser.name = name;
                }
            }
        }
        parser
    }

    fn read_mapping(&mut self, mapping: &Mapping) {
        for (key, value) in mapping {
            let Some(key) = scalar_text(key) else {
                continue;
            };
            // The reference lower-cases option names and joins words with underscores.
            match key.to_lowercase().replace([' ', '_'], "").as_str() {
                "name" => {
                    if let Some(name) = scalar_text(value) {
                        self.name = name;
                    }
                }
                "cellwidth" => {
                    self.cell_width = value.as_u64().and_then(|w| u32::try_from(w).ok());
                }
                "scalefactor" | "scalingfactor" => {
                    self.scale_factor = Some(value.as_f64().filter(|f| *f > 0.0).ok_or(()));
                }
                _ => self.unknown_keys.push(key),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes(text: &str) -> Vec<(&'static str, String)> {
        replay_document(text)
            .diagnostics
            .into_iter()
            .map(|d| (d.code, text[d.range].to_string()))
            .collect()
    }

    #[test]
    fn a_game_without_setup_starts_empty_and_records_every_move() {
        let replay = replay_document("---\n...\n1. S@b2 1... M@c3 {note}\n2. b2-b3\n");
        let game = &replay.games[0];
        let labels: Vec<_> = game.states().map(|s| s.label).collect();
        assert_eq!(labels, ["SetupFn.", "1.", "1...", "2."]);
        assert_eq!(game.state(2).unwrap().comment, "note");
        let last = game.state(3).unwrap();
        let last = last.pieces();
        assert_eq!((last[1].x, last[1].y), (2.0, 3.0));
        assert!(replay.diagnostics.is_empty(), "{:?}", replay.diagnostics);
    }

    #[test]
    fn an_unknown_game_is_an_error_on_its_value() {
        let found = codes("---\nGameType: Tablot\n...\n1. S@b2\n");
        assert_eq!(found, [("unknown-game", "Tablot".to_string())]);
    }

    #[test]
    fn an_argument_the_setup_does_not_take_is_a_warning_and_ignored() {
        let text = "---\nGameType:\n  Name: Tablut\n  Colour: red\n...\n";
        let replay = replay_document(text);
        let found: Vec<_> = replay
            .diagnostics
            .iter()
            .map(|d| (d.code, d.severity))
            .collect();
        assert_eq!(found, [("unknown-setup-argument", Severity::Warning)]);
        assert!(replay.diagnostics[0].message.contains("`Colour`"));
        assert_eq!(&text[replay.diagnostics[0].range.clone()], "Colour");
        let plain = replay_document("---\nGameType: Tablut\n...\n");
        assert_eq!(
            replay.games[0].state(0).unwrap().pieces(),
            plain.games[0].state(0).unwrap().pieces()
        );
    }

    #[test]
    fn every_unknown_setup_argument_is_reported_on_its_key() {
        let text =
            "---\nSetUp:\n  Name: Rectangular Board\n  NRows: 5\n  Colour: red\n  NCols: 6\n...\n";
        let replay = replay_document(text);
        let found: Vec<_> = replay
            .diagnostics
            .iter()
            .map(|d| (d.code, &text[d.range.clone()]))
            .collect();
        assert_eq!(
            found,
            [
                ("unknown-setup-argument", "Colour"),
                ("unknown-setup-argument", "NCols"),
                ("unknown-setup-argument", "NRows"),
            ]
        );
        let rows = replay
            .diagnostics
            .iter()
            .find(|d| d.message.contains("NRows"))
            .unwrap();
        assert!(
            rows.message.contains("Did you mean `Nrows`?"),
            "{}",
            rows.message
        );
        assert_eq!(rows.fixes[0].edits[0].1, "Nrows");
        let flow = "---\nGameType: {Name: Tablut, Colour: red}\n...\n";
        let replay = replay_document(flow);
        assert_eq!(&flow[replay.diagnostics[0].range.clone()], "Colour");
    }

    #[test]
    fn an_unknown_parser_is_an_error_on_its_value() {
        let found = codes("---\nMovetextParser: Shogi\n...\n1. S@b2\n");
        assert_eq!(found, [("unknown-movetext-parser", "Shogi".to_string())]);
    }

    #[test]
    fn errors_point_into_the_file_and_later_moves_still_replay() {
        let text = "---\n...\n1. S@b2 2. *b5 3. `nope'@c3 4. M@d4\n";
        let replay = replay_document(text);
        let found: Vec<_> = replay
            .diagnostics
            .iter()
            .map(|d| (d.code, &text[d.range.clone()]))
            .collect();
        assert_eq!(found, [("no-piece", "b5"), ("unknown-macro", "`nope'")]);
        let last = replay.games[0].state(replay.games[0].move_count()).unwrap();
        assert_eq!(last.pieces().len(), 2);
    }

    #[test]
    fn a_setup_of_more_pieces_than_a_board_holds_is_cut_at_the_cap() {
        let text = "---\nSetUp:\n  Name: Rectangular Board\n  nrows: 100\n  ncols: 100\n  \
                    max_tiles: 10000\n...\n1. S@a1\n";
        let replay = replay_document(text);
        let found: Vec<_> = replay
            .diagnostics
            .iter()
            .map(|d| (d.code, &text[d.range.clone()]))
            .collect();
        assert_eq!(found[0].0, "too-many-pieces");
        assert!(
            found[0].1.starts_with("Name: Rectangular Board"),
            "{found:?}"
        );
        let game = &replay.games[0];
        assert_eq!(game.state(0).unwrap().pieces().len(), MAX_PIECES);
    }

    #[test]
    fn macros_come_from_the_metadata() {
        let replay = replay_document("---\nMacros:\n  home: S@a1\n...\n1. `home'\n");
        assert!(replay.diagnostics.is_empty(), "{:?}", replay.diagnostics);
        assert_eq!(replay.games[0].state(1).unwrap().pieces().len(), 1);
    }
}
