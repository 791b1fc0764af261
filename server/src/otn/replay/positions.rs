//! Which states of a line hold each position, for threefold repetition: a position is
//! reached a third time when two earlier states hold it, so only the first two states of
//! each position are kept.
//!
//! A main line keeps them in layers that revisions share: an update keeps the layers of
//! the revision before, adds one for the states it played, and drops those whose states it
//! all played again. An entry names a state, and counts only where the line that asks has
//! that position at that state: the entries a layer made for states an edit replaced then
//! count for nothing, and the layer still answers for the states the edit kept, so that an
//! update neither copies nor counts again the positions of the states it kept.

use std::collections::HashMap;
use std::ops::Range;
use std::sync::Arc;

use crate::otn::replay::states::Plies;

/// Hashes a position hash with one multiplication: the keys are hashes already, and a
/// general-purpose hasher doubled the cost of replaying a move.
#[derive(Clone, Copy, Default)]
pub struct PositionHasher(u64);

impl std::hash::Hasher for PositionHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for byte in bytes {
            self.write_u64(u64::from(*byte));
        }
    }

    fn write_u64(&mut self, value: u64) {
        self.0 = (self.0 ^ value).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

/// A map keyed by position hashes.
pub type PositionMap<V> = HashMap<u64, V, std::hash::BuildHasherDefault<PositionHasher>>;

/// No state: a free place among a position's first two.
const NO_STATE: u32 = u32::MAX;

/// The first two states of a line holding each position, as one replay played them.
#[derive(Debug)]
struct Layer {
    /// From the first to the last state recorded: an update that plays all of them again
    /// replaces every entry.
    covers: Range<usize>,
    first_states: PositionMap<[u32; 2]>,
}

/// One bit for each of many positions (and, by chance, some others), so that a position
/// whose bit is clear is known not to be among them without a look into a map.
struct Filter {
    bits: Box<[u64]>,
    /// How far a position's hash is shifted for its bit: there are 2^(64 - shift) bits.
    shift: u32,
}

/// Bits of a filter per position: one position in sixteen or fewer of those not in it
/// finds its bit set.
const FILTER_BITS_PER_POSITION: usize = 16;

impl Filter {
    fn of(hashes: impl Iterator<Item = u64>, count: usize) -> Filter {
        let bits = (count * FILTER_BITS_PER_POSITION)
            .next_power_of_two()
            .max(64);
        let mut filter = Filter {
            bits: vec![0u64; bits / 64].into_boxed_slice(),
            shift: 64 - bits.trailing_zeros(),
        };
        for hash in hashes {
            filter.insert(hash);
        }
        filter
    }

    fn bit(&self, hash: u64) -> usize {
        (hash.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> self.shift) as usize
    }

    fn insert(&mut self, hash: u64) {
        let bit = self.bit(hash);
        self.bits[bit / 64] |= 1 << (bit % 64);
    }

    fn may_hold(&self, hash: u64) -> bool {
        let bit = self.bit(hash);
        self.bits[bit / 64] & (1 << (bit % 64)) != 0
    }
}

/// The first two states of a main line holding each position, in layers shared with the
/// revisions before and after (see the module's notes).
#[derive(Clone, Debug, Default)]
pub struct Positions {
    layers: Vec<Arc<Layer>>,
}

/// How many layers a line keeps before they are made into one again: each one more is
/// one more map to look into for a position already seen.
const MOST_LAYERS: usize = 4;

impl Positions {
    /// How many states before state `index` of `plies` hold the position `hash`, up to two.
    #[cfg(test)]
    pub fn earlier(&self, hash: u64, index: usize, plies: &Plies) -> u32 {
        let mut earlier = Earlier::default();
        earlier.look_in(&self.layers, hash, index, plies);
        earlier.count()
    }

    /// The positions of `plies`, counted anew.
    fn of(plies: &Plies) -> Positions {
        let mut first_states = PositionMap::default();
        first_states.reserve(plies.len());
        for (index, hash) in plies.hashes(0..plies.len()).enumerate() {
            let states: &mut [u32; 2] = first_states.entry(hash).or_insert([NO_STATE; 2]);
            if let Some(free) = states.iter_mut().find(|state| **state == NO_STATE) {
                *free = index as u32;
            }
        }
        Positions {
            layers: vec![Arc::new(Layer {
                covers: 0..plies.len(),
                first_states,
            })],
        }
    }
}

/// Equal whatever their layers: two lines' layers differ with the revisions they come
/// from, not with what they answer for the line (which the tests check against its
/// states).
impl PartialEq for Positions {
    fn eq(&self, _: &Positions) -> bool {
        true
    }
}

impl Eq for Positions {}

/// Distinct earlier states found holding a position, up to two.
#[derive(Default)]
struct Earlier {
    states: [u32; 2],
    found: usize,
}

impl Earlier {
    fn add(&mut self, state: u32) {
        if self.found < 2 && !self.states[..self.found].contains(&state) {
            self.states[self.found] = state;
            self.found += 1;
        }
    }

    /// Adds the states before `end` the layers record for `hash` that hold it in `plies`.
    fn look_in(&mut self, layers: &[Arc<Layer>], hash: u64, end: usize, plies: &Plies) {
        for layer in layers {
            let Some(states) = layer.first_states.get(&hash) else {
                continue;
            };
            for &state in states {
                if state != NO_STATE && (state as usize) < end && plies.hash(state as usize) == hash
                {
                    self.add(state);
                }
            }
        }
    }

    fn count(&self) -> u32 {
        self.found as u32
    }
}

/// The first two states of each position a replay plays. Most positions are new: they are
/// listed as they come and put into the map a run at a time (a map that takes each as it
/// comes waits for memory at every move), and a filter of those listed tells the few that
/// came before.
#[derive(Default)]
struct Played {
    map: PositionMap<[u32; 2]>,
    /// Recorded since the map last took them.
    listed: Vec<(u64, [u32; 2])>,
    /// Every position recorded, once room is made for many; until then, the map holds them
    /// all and is asked about each.
    filter: Option<Filter>,
}

/// How many positions are listed before the map takes them.
const MOST_LISTED: usize = 128;

impl Played {
    fn len(&self) -> usize {
        self.map.len() + self.listed.len()
    }

    /// Makes room for `count` positions in all.
    fn make_room(&mut self, count: usize) {
        self.map.reserve(count.saturating_sub(self.map.len()));
        let mut filter = Filter::of(std::iter::empty(), count.max(self.len()));
        for hash in self.map.keys() {
            filter.insert(*hash);
        }
        self.filter = Some(filter);
    }

    fn find(&mut self, hash: u64) -> Option<&mut [u32; 2]> {
        if !self
            .filter
            .as_ref()
            .is_none_or(|filter| filter.may_hold(hash))
        {
            return None;
        }
        // The latest first: a position comes back most often a few moves later.
        match self
            .listed
            .iter_mut()
            .rev()
            .find(|(listed, _)| *listed == hash)
        {
            Some((_, states)) => Some(states),
            None => self.map.get_mut(&hash),
        }
    }

    /// Records a position not recorded yet.
    fn insert(&mut self, hash: u64, states: [u32; 2]) {
        match &mut self.filter {
            None => {
                self.map.insert(hash, states);
            }
            Some(filter) => {
                filter.insert(hash);
                self.listed.push((hash, states));
                if self.listed.len() == MOST_LISTED {
                    self.map.extend(self.listed.drain(..));
                }
            }
        }
    }

    fn into_map(mut self) -> PositionMap<[u32; 2]> {
        self.map.extend(self.listed.drain(..));
        self.map
    }
}

/// How often a line being played has reached each position, up to three times: from the
/// positions before its start (a variation's parent line's), counted; from the layers of
/// the previous replay, for the states this one kept; and from the states it plays.
pub struct Repetitions<'a> {
    before: PositionMap<u32>,
    previous: &'a [Arc<Layer>],
    /// How many states were kept from the previous replay: its layers are asked about
    /// those only (the states played after them are recorded here, and the previous
    /// replay's entries for the states they replaced count for nothing).
    kept: usize,
    /// The positions of the states kept, once many positions are asked about.
    kept_filter: Option<Filter>,
    played: Played,
    /// From the first to the last state played.
    covers: Option<Range<usize>>,
    /// How many positions a replay to the end of the line records: room for them is made
    /// once a long replay looks likely, instead of the map growing again and again.
    pub expected: usize,
}

/// How many positions are recorded before room is made for all those expected, and the
/// states kept are filtered.
const POSITIONS_BEFORE_MAKING_ROOM: usize = 64;

impl<'a> Repetitions<'a> {
    /// A line that starts after the positions `before`.
    pub fn after(before: impl Iterator<Item = u64>) -> Repetitions<'a> {
        let mut counts = PositionMap::default();
        for hash in before {
            *counts.entry(hash).or_default() += 1;
        }
        Repetitions {
            before: counts,
            previous: &[],
            kept: 0,
            kept_filter: None,
            played: Played::default(),
            covers: None,
            expected: 0,
        }
    }

    /// A main line that keeps the first `kept` states of a line played before, whose
    /// positions are `previous`.
    pub fn keeping(previous: &'a Positions, kept: usize) -> Repetitions<'a> {
        Repetitions {
            before: PositionMap::default(),
            previous: &previous.layers,
            kept,
            kept_filter: None,
            played: Played::default(),
            covers: None,
            expected: 0,
        }
    }

    /// State `index` of a line, after `plies`, reaches `hash`: how often the line has
    /// reached it (three for three times or more).
    pub fn reach(&mut self, hash: u64, index: usize, plies: &Plies) -> u32 {
        if self.played.len() == POSITIONS_BEFORE_MAKING_ROOM && self.played.filter.is_none() {
            self.played.make_room(self.expected);
            if self.kept > 0 && !self.previous.is_empty() {
                // The states kept looked through once, rather than their layers' maps
                // for each position.
                self.kept_filter = Some(Filter::of(plies.hashes(0..self.kept), self.kept));
            }
        }
        let mut earlier = Earlier::default();
        if self
            .kept_filter
            .as_ref()
            .is_none_or(|filter| filter.may_hold(hash))
        {
            earlier.look_in(self.previous, hash, self.kept.min(index), plies);
        }
        let played = self.played.find(hash);
        if let Some(states) = &played {
            for &state in states.iter() {
                if state != NO_STATE {
                    earlier.add(state);
                }
            }
        }
        let before = if self.before.is_empty() {
            0
        } else {
            self.before.get(&hash).copied().unwrap_or(0)
        };
        let seen = (before + earlier.count()).min(2);
        if seen < 2 {
            // Fewer than two states before hold it: this is one of its first two (a free
            // place is there, since the states played that hold it were counted).
            match played {
                Some(states) => {
                    if let Some(free) = states.iter_mut().find(|state| **state == NO_STATE) {
                        *free = index as u32;
                    }
                }
                None => self.played.insert(hash, [index as u32, NO_STATE]),
            }
        }
        let covers = self.covers.get_or_insert(index..index);
        covers.end = index + 1;
        seen + 1
    }

    /// The positions of the line played, `plies`, whose states `replayed` this replay
    /// played (the others kept from the previous replay or taken from it after them).
    pub fn into_positions(
        self,
        previous: Option<&Positions>,
        plies: &Plies,
        replayed: Range<usize>,
    ) -> Positions {
        let mut layers: Vec<Arc<Layer>> = previous
            .map(|previous| {
                previous
                    .layers
                    .iter()
                    .filter(|layer| {
                        layer.covers.start < replayed.start || layer.covers.end > replayed.end
                    })
                    .cloned()
                    .collect()
            })
            .unwrap_or_default();
        if let Some(covers) = self.covers {
            layers.push(Arc::new(Layer {
                covers,
                first_states: self.played.into_map(),
            }));
        }
        if layers.len() > MOST_LAYERS {
            return Positions::of(plies);
        }
        Positions { layers }
    }
}
