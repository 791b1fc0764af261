//! What a stretch of moves looked at on the board: the points where it looked for pieces,
//! the pieces it acted on, the features it searched for, and whether it read or replaced
//! the active pieces. Two boards that agree on all of that make the moves do the same
//! thing (see [`crate::ppn::replay::overlay`]), so an edit that changes a board somewhere the later
//! moves never look is carried along without playing them again.
//!
//! Points are kept as bits of a small Bloom filter: a point that was not read may seem
//! read (the moves are then played again, which is always right), never the other way.

use std::sync::atomic::{AtomicU64, AtomicU8, AtomicUsize, Ordering};
use std::sync::Mutex;

use crate::model::piece::{Cfg, Piece, PieceKind, Side};
use crate::ppn::reader::piece_spec::{PieceTemplate, StatedFeatures};

/// Bits of the filter of points read, per point read (about one in a hundred points not
/// read then seems read), at least and at most this many in all (a power of two each).
const BITS_PER_POINT: usize = 16;
const LEAST_POINT_BITS: usize = 512;
const MOST_POINT_BITS: usize = 1 << 14;
/// Cells of the grid points are counted in, per board unit: a cell is wider than twice
/// the distance under which a piece counts as at a point, so the points within that
/// distance of any point fall in at most two cells on each axis. Cells are centred on
/// the grid's points, where most pieces stand: the points near one of those fall in one.
const CELLS_PER_UNIT: f64 = 128.0;
/// How far from a point a piece still counts as at it (`resolve::is_at`: a squared
/// distance under 0.5e-5), with some room.
const AT_DISTANCE: f64 = 0.0023;

/// The first thing a stretch of moves did with the active pieces.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum ActiveUse {
    /// Nothing: the active pieces after the stretch are those before it.
    #[default]
    None,
    /// Read them (an empty PieceId, a Location of the active pieces).
    Read,
    /// Took some out or changed their identities (a removal, a flip), keeping the others.
    Modify,
    /// Replaced them all without reading them.
    Set,
}

/// The features of pieces a search looked for (angles aside: a search may compare them
/// either way).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct SearchedFeatures {
    kind: Option<PieceKind>,
    side: Option<Side>,
    suit: Option<i32>,
    rank: Option<i32>,
    cfg: Option<Cfg>,
}

impl SearchedFeatures {
    pub(crate) fn stated(stated: &StatedFeatures) -> SearchedFeatures {
        SearchedFeatures {
            kind: stated.kind,
            side: stated.side,
            suit: stated.suit,
            rank: stated.rank,
            cfg: stated.cfg,
        }
    }

    pub(crate) fn template(template: &PieceTemplate) -> SearchedFeatures {
        SearchedFeatures {
            kind: Some(template.kind),
            side: Some(template.side),
            suit: Some(template.suit),
            rank: Some(template.rank),
            cfg: Some(template.cfg),
        }
    }

    fn matches(&self, piece: &Piece) -> bool {
        self.kind.is_none_or(|k| piece.kind == k)
            && self.side.is_none_or(|s| piece.side == s)
            && self.suit.is_none_or(|s| piece.suit == s)
            && self.rank.is_none_or(|r| piece.rank == r)
            && self.cfg.is_none_or(|c| piece.cfg == c)
    }
}

/// What a stretch of moves read of the board; see the module's documentation.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Footprint {
    /// The filter of points read: a number of bits that is a power of two.
    points: Vec<u64>,
    searches: Vec<SearchedFeatures>,
    /// Something read every piece (`2b4`, the pieces nearest a point).
    whole_board: bool,
    /// A piece went to the bottom of the board with nothing named to go below.
    to_bottom: bool,
    active: ActiveUse,
    /// The most pieces the board held when a piece was dropped (a full board refuses it).
    most_pieces_at_drop: usize,
}

impl Default for Footprint {
    fn default() -> Self {
        Footprint {
            points: Vec::new(),
            searches: Vec::new(),
            whole_board: false,
            to_bottom: false,
            active: ActiveUse::None,
            most_pieces_at_drop: 0,
        }
    }
}

impl ActiveUse {
    fn from_u8(value: u8) -> ActiveUse {
        match value {
            1 => ActiveUse::Read,
            2 => ActiveUse::Modify,
            3 => ActiveUse::Set,
            _ => ActiveUse::None,
        }
    }
}

/// The cell a coordinate falls in (saturating far off the board; NaN in cell 0).
fn cell(coordinate: f64) -> i64 {
    floor_to_i64(coordinate * CELLS_PER_UNIT + 0.5)
}

/// `value.floor() as i64`, without `floor`: x86-64 without SSE4.1 has no instruction for
/// it, and every point a move reads goes through here. Converting truncates towards zero
/// (saturating, NaN to 0), one too high for negative values with a fraction.
fn floor_to_i64(value: f64) -> i64 {
    let truncated = value as i64;
    if truncated as f64 > value {
        truncated.saturating_sub(1)
    } else {
        truncated
    }
}

/// A cell's hash, of which a filter of `2^k` bits takes two bits.
fn cell_hash((x, y): (i64, i64)) -> u64 {
    let mut hash = (x as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ (y as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    hash ^= hash >> 29;
    hash = hash.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    hash ^ (hash >> 32)
}

/// The two bits standing for a cell's `hash` in a filter of `bits` bits (a power of two).
fn hash_bits(hash: u64, bits: usize) -> [usize; 2] {
    [
        (hash as usize) & (bits - 1),
        ((hash >> 32) as usize) & (bits - 1),
    ]
}

impl Footprint {
    /// Whether pieces may have been looked for within reach of `point`.
    pub(crate) fn may_have_read_near(&self, (x, y): (f64, f64)) -> bool {
        let bits = self.points.len() * 64;
        if bits == 0 {
            return false;
        }
        let (low_x, high_x) = (cell(x - AT_DISTANCE), cell(x + AT_DISTANCE));
        let (low_y, high_y) = (cell(y - AT_DISTANCE), cell(y + AT_DISTANCE));
        let read = |column: i64, row: i64| {
            hash_bits(cell_hash((column, row)), bits)
                .iter()
                .all(|bit| self.points[bit / 64] & (1 << (bit % 64)) != 0)
        };
        read(low_x, low_y)
            || (high_x != low_x && read(high_x, low_y))
            || (high_y != low_y
                && (read(low_x, high_y) || (high_x != low_x && read(high_x, high_y))))
    }

    /// Whether a search looked for pieces like `piece`.
    pub(crate) fn searched_for(&self, piece: &Piece) -> bool {
        self.searches.iter().any(|search| search.matches(piece))
    }

    pub(crate) fn read_whole(&self) -> bool {
        self.whole_board
    }

    pub(crate) fn puts_at_bottom(&self) -> bool {
        self.to_bottom
    }

    pub(crate) fn active_use(&self) -> ActiveUse {
        self.active
    }

    pub(crate) fn most_pieces_at_drop(&self) -> usize {
        self.most_pieces_at_drop
    }
}

/// Notes what the moves applied to a state read ([`Footprint`]), once switched on (by a
/// replay, on the state it plays the moves on). A copy of the state notes nothing. The
/// notes are atomics only so that a state can be shared between threads: one thread
/// notes, with plain loads and stores.
#[derive(Debug, Default)]
pub(crate) struct FootprintRecorder(Option<Box<Notes>>);

#[derive(Debug)]
struct Notes {
    /// The filter of points read, at its largest; folded to the size the points read ask
    /// for when the stretch ends.
    points: [AtomicU64; MOST_POINT_BITS / 64],
    /// Bit `i`: word `i` of `points` may be set. A stretch reads few points, and taking
    /// its notes then visits only their words, not the whole filter.
    touched: [AtomicU64; MOST_POINT_BITS / 64 / 64],
    points_read: AtomicUsize,
    searches: Mutex<Vec<SearchedFeatures>>,
    whole_board: AtomicU8,
    to_bottom: AtomicU8,
    active: AtomicU8,
    most_pieces_at_drop: AtomicUsize,
}

impl Default for Notes {
    fn default() -> Self {
        Notes {
            points: std::array::from_fn(|_| AtomicU64::new(0)),
            touched: std::array::from_fn(|_| AtomicU64::new(0)),
            points_read: AtomicUsize::new(0),
            searches: Mutex::default(),
            whole_board: AtomicU8::new(0),
            to_bottom: AtomicU8::new(0),
            active: AtomicU8::new(0),
            most_pieces_at_drop: AtomicUsize::new(0),
        }
    }
}

impl Clone for FootprintRecorder {
    fn clone(&self) -> Self {
        FootprintRecorder(None)
    }
}

impl FootprintRecorder {
    pub(crate) fn start(&mut self) {
        self.0 = Some(Box::default());
    }

    /// What was read since the last call (or since it started); the notes start again.
    pub(crate) fn take(&mut self) -> Footprint {
        let Some(notes) = self.0.as_deref_mut() else {
            return Footprint::default();
        };
        // A bit's place in a smaller filter is its place in the largest one, cut: the
        // largest one folds onto it.
        let bits = (std::mem::take(notes.points_read.get_mut()) * BITS_PER_POINT)
            .next_power_of_two()
            .clamp(LEAST_POINT_BITS, MOST_POINT_BITS);
        let mut points = vec![0u64; bits / 64];
        for (group, touched) in notes.touched.iter_mut().enumerate() {
            let mut touched = std::mem::take(touched.get_mut());
            while touched != 0 {
                let index = group * 64 + touched.trailing_zeros() as usize;
                touched &= touched - 1;
                points[index % (bits / 64)] |= std::mem::take(notes.points[index].get_mut());
            }
        }
        let taken = Footprint {
            points,
            searches: std::mem::take(
                notes
                    .searches
                    .get_mut()
                    .unwrap_or_else(|poisoned| poisoned.into_inner()),
            ),
            whole_board: std::mem::take(notes.whole_board.get_mut()) != 0,
            to_bottom: std::mem::take(notes.to_bottom.get_mut()) != 0,
            active: ActiveUse::from_u8(std::mem::take(notes.active.get_mut())),
            most_pieces_at_drop: std::mem::take(notes.most_pieces_at_drop.get_mut()),
        };
        taken
    }

    /// Pieces were looked for at `point` (or a piece there was acted on).
    pub(crate) fn read_point(&self, (x, y): (f64, f64)) {
        let Some(notes) = &self.0 else { return };
        for bit in hash_bits(cell_hash((cell(x), cell(y))), MOST_POINT_BITS) {
            let set = |word: &AtomicU64, bit: usize| {
                word.store(
                    word.load(Ordering::Relaxed) | 1 << (bit % 64),
                    Ordering::Relaxed,
                );
            };
            set(&notes.points[bit / 64], bit);
            set(&notes.touched[bit / 64 / 64], bit / 64);
        }
        let read = &notes.points_read;
        read.store(read.load(Ordering::Relaxed) + 1, Ordering::Relaxed);
    }

    /// A search looked at every piece with these features.
    pub(crate) fn read_search(&self, features: SearchedFeatures) {
        let Some(notes) = &self.0 else { return };
        let mut searches = notes
            .searches
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if !searches.contains(&features) {
            searches.push(features);
        }
    }

    pub(crate) fn read_whole_board(&self) {
        if let Some(notes) = &self.0 {
            notes.whole_board.store(1, Ordering::Relaxed);
        }
    }

    pub(crate) fn put_at_bottom(&self) {
        if let Some(notes) = &self.0 {
            notes.to_bottom.store(1, Ordering::Relaxed);
        }
    }

    /// The active pieces were read, changed or replaced: only the first use counts.
    pub(crate) fn use_active(&self, used: ActiveUse) {
        if let Some(notes) = &self.0 {
            if notes.active.load(Ordering::Relaxed) == ActiveUse::None as u8 {
                notes.active.store(used as u8, Ordering::Relaxed);
            }
        }
    }

    /// A piece was dropped on a board of `pieces` pieces.
    pub(crate) fn drop_on(&self, pieces: usize) {
        if let Some(notes) = &self.0 {
            let most = notes.most_pieces_at_drop.load(Ordering::Relaxed);
            notes
                .most_pieces_at_drop
                .store(most.max(pieces), Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_random::Xorshift;

    #[test]
    fn floors_are_those_of_floor() {
        let mut values = vec![
            0.0,
            -0.0,
            0.5,
            -0.5,
            1.0,
            -1.0,
            -1.5,
            2.999_999_999,
            -2.000_000_001,
            1e300,
            -1e300,
            9.3e18,
            -9.3e18,
            4_503_599_627_370_497.0,
            -4_503_599_627_370_497.0,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            f64::MIN_POSITIVE,
            -f64::MIN_POSITIVE,
        ];
        let mut random = Xorshift::new(5);
        for _ in 0..10_000 {
            let scale = [1.0, 100.0, 1e6][random.below(3)];
            values.push((random.below(2_000_001) as f64 - 1e6) / 1e6 * scale);
        }
        for value in values {
            assert_eq!(floor_to_i64(value), value.floor() as i64, "{value}");
        }
    }

    #[test]
    fn a_point_read_is_found_from_any_point_a_piece_there_could_stand_on() {
        let mut random = Xorshift::new(7);
        for _ in 0..2_000 {
            let mut recorder = FootprintRecorder::default();
            recorder.start();
            let x = (random.below(4_000) as f64 - 2_000.0) / 97.0;
            let y = (random.below(4_000) as f64 - 2_000.0) / 89.0;
            recorder.read_point((x, y));
            let footprint = recorder.take();
            assert!(footprint.may_have_read_near((x, y)));
            // Anywhere a piece counts as at the point (a squared distance under 0.5e-5).
            for (dx, dy) in [
                (0.0022, 0.0),
                (-0.0022, 0.0),
                (0.0, 0.0022),
                (0.0015, -0.0015),
            ] {
                assert!(footprint.may_have_read_near((x + dx, y + dy)), "{x} {y}");
            }
        }
    }

    #[test]
    fn points_not_read_are_mostly_told_apart() {
        let mut recorder = FootprintRecorder::default();
        recorder.start();
        for x in 1..=8 {
            for y in 1..=4 {
                recorder.read_point((f64::from(x), f64::from(y)));
            }
        }
        let footprint = recorder.take();
        let mut seemingly_read = 0;
        for x in 1..=8 {
            for y in 5..=16 {
                seemingly_read +=
                    usize::from(footprint.may_have_read_near((f64::from(x), f64::from(y))));
                seemingly_read += usize::from(
                    footprint.may_have_read_near((f64::from(x) + 0.5, f64::from(y) + 0.5)),
                );
            }
        }
        assert!(seemingly_read < 16, "{seemingly_read} of 192");
    }

    #[test]
    fn taking_the_notes_gathers_every_point_and_leaves_none_behind() {
        let mut random = Xorshift::new(11);
        let mut recorder = FootprintRecorder::default();
        recorder.start();
        for count in [1, 3, 40, 700] {
            let points: Vec<(f64, f64)> = (0..count)
                .map(|_| {
                    (
                        random.below(300) as f64 / 7.0,
                        random.below(300) as f64 / 3.0,
                    )
                })
                .collect();
            for &point in &points {
                recorder.read_point(point);
            }
            let footprint = recorder.take();
            for &point in &points {
                assert!(footprint.may_have_read_near(point), "{point:?} of {count}");
            }
            let notes = recorder.0.as_deref().expect("started");
            let left = |words: &[AtomicU64]| words.iter().any(|w| w.load(Ordering::Relaxed) != 0);
            assert!(!left(&notes.points) && !left(&notes.touched), "{count}");
        }
    }

    #[test]
    fn only_the_first_use_of_the_active_pieces_counts() {
        let mut recorder = FootprintRecorder::default();
        recorder.use_active(ActiveUse::Read);
        recorder.start();
        recorder.use_active(ActiveUse::Set);
        recorder.use_active(ActiveUse::Read);
        assert_eq!(recorder.take().active_use(), ActiveUse::Set);
        assert_eq!(recorder.take().active_use(), ActiveUse::None);
    }

    #[test]
    fn a_copy_of_a_recorder_notes_nothing() {
        let mut recorder = FootprintRecorder::default();
        recorder.start();
        let mut copy = recorder.clone();
        copy.read_whole_board();
        assert!(!copy.take().read_whole());
        recorder.read_whole_board();
        assert!(recorder.take().read_whole());
    }
}
