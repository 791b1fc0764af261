//! Built setups, kept for the next game that asks for the same one.
//!
//! A file often holds many games of one setup, and an editor re-reads a game's setup on
//! every edit of its metadata; building a setup runs its column "frames" and its random
//! dealing, which costs far more than looking it up. Only deterministic builds are kept
//! (those with a session seed: a `Seed` argument or the replay's fixed seed), keyed by the
//! normalised request: game and system names, the arguments by normalised name, the
//! movetext parser's cell width and the seed. The cache is shared by every thread and
//! bounded in entries and in pieces; when full, the least recently used setup goes.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

use crate::ppn::rules::setups::args::Args;
use crate::ppn::rules::setups::setup::Setup;

/// At most this many setups are kept...
pub const MAX_CACHED_SETUPS: usize = 64;
/// ...holding at most this many pieces together (a large setup is built every time
/// rather than crowd out the rest).
pub const MAX_CACHED_PIECES: usize = 50_000;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct SetupKey {
    pub game: String,
    pub system: String,
    pub args: Args,
    pub cell_width: Option<u32>,
    pub seed: i32,
}

struct Entry {
    setup: Arc<Setup>,
    last_used: u64,
}

#[derive(Default)]
struct Cache {
    entries: HashMap<SetupKey, Entry>,
    pieces: usize,
    clock: u64,
}

fn cache() -> MutexGuard<'static, Cache> {
    static CACHE: OnceLock<Mutex<Cache>> = OnceLock::new();
    CACHE
        .get_or_init(Mutex::default)
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Cache {
    fn get(&mut self, key: &SetupKey) -> Option<Arc<Setup>> {
        self.clock += 1;
        let now = self.clock;
        let entry = self.entries.get_mut(key)?;
        entry.last_used = now;
        Some(entry.setup.clone())
    }

    fn put(&mut self, key: SetupKey, setup: Arc<Setup>) {
        let size = setup.pieces.len();
        if size > MAX_CACHED_PIECES / 4 {
            return;
        }
        self.clock += 1;
        if let Some(replaced) = self.entries.remove(&key) {
            self.pieces -= replaced.setup.pieces.len();
        }
        while self.entries.len() >= MAX_CACHED_SETUPS || self.pieces + size > MAX_CACHED_PIECES {
            let Some(oldest) = self
                .entries
                .iter()
                .min_by_key(|(_, entry)| entry.last_used)
                .map(|(key, _)| key.clone())
            else {
                break;
            };
            if let Some(gone) = self.entries.remove(&oldest) {
                self.pieces -= gone.setup.pieces.len();
            }
        }
        let entry = Entry {
            setup,
            last_used: self.clock,
        };
        self.entries.insert(key, entry);
        self.pieces += size;
    }
}

/// The setup built for `key` before, if it is still kept.
pub(crate) fn get(key: &SetupKey) -> Option<Arc<Setup>> {
    cache().get(key)
}

/// Keeps `setup`, built for `key`, making room by forgetting the least recently used.
pub(crate) fn put(key: SetupKey, setup: Arc<Setup>) {
    cache().put(key, setup);
}

/// Forgets every kept setup (for benchmarks that measure building them).
pub fn clear() {
    let mut cache = cache();
    cache.entries.clear();
    cache.pieces = 0;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::piece::{Cfg, Piece, PieceKind, Side};

    fn key(game: &str) -> SetupKey {
        SetupKey {
            game: game.to_string(),
            system: "piecepack".to_string(),
            args: Args::default(),
            cell_width: None,
            seed: 1,
        }
    }

    fn setup(pieces: usize) -> Arc<Setup> {
        let piece = Piece {
            kind: PieceKind::Coin,
            side: Side::Back,
            suit: 1,
            rank: 1,
            cfg: Cfg::piecepack(),
            x: 1.0,
            y: 1.0,
            angle: 0.0,
        };
        Arc::new(Setup {
            pieces: vec![piece; pieces],
            ..Setup::default()
        })
    }

    #[test]
    fn the_least_recently_used_setup_makes_room() {
        let mut cache = Cache::default();
        for i in 0..MAX_CACHED_SETUPS {
            cache.put(key(&format!("game{i}")), setup(1));
        }
        assert!(cache.get(&key("game0")).is_some());
        cache.put(key("one more"), setup(1));
        assert_eq!(cache.entries.len(), MAX_CACHED_SETUPS);
        assert!(cache.get(&key("game0")).is_some(), "just used, so kept");
        assert!(
            cache.get(&key("game1")).is_none(),
            "the least recently used"
        );
        assert!(cache.get(&key("one more")).is_some());
    }

    #[test]
    fn the_pieces_kept_are_bounded() {
        let mut cache = Cache::default();
        let large = MAX_CACHED_PIECES / 4;
        for i in 0..10 {
            cache.put(key(&format!("large{i}")), setup(large));
            assert!(cache.pieces <= MAX_CACHED_PIECES);
        }
        assert_eq!(cache.pieces, 4 * large);
        assert!(cache.get(&key("large9")).is_some());
        cache.put(key("too large"), setup(large + 1));
        assert!(cache.get(&key("too large")).is_none());
        cache.put(key("large9"), setup(2));
        assert_eq!(
            cache.pieces,
            3 * large + 2,
            "a replaced entry's pieces are let go"
        );
    }
}
