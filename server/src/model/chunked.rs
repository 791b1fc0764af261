//! A list kept in chunks behind `Arc`s: a revision built from the one before it shares every
//! full chunk an edit did not touch instead of copying (and later freeing) each item.

use std::ops::{Index, Range};
use std::sync::Arc;

/// Items per chunk: every full chunk holds this many.
pub const CHUNK: usize = 64;

#[derive(Clone, Debug)]
pub struct ChunkedVec<T> {
    /// Full chunks, each shared by every revision that holds it, never changed.
    full: Vec<Arc<Vec<T>>>,
    /// The items after them, fewer than [`CHUNK`], owned: a push touches no reference count
    /// (a replay pushes an item a move).
    tail: Vec<T>,
}

impl<T> Default for ChunkedVec<T> {
    fn default() -> Self {
        ChunkedVec {
            full: Vec::new(),
            tail: Vec::new(),
        }
    }
}

impl<T: Clone> ChunkedVec<T> {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn len(&self) -> usize {
        self.full.len() * CHUNK + self.tail.len()
    }

    pub fn is_empty(&self) -> bool {
        self.full.is_empty() && self.tail.is_empty()
    }

    pub fn get(&self, index: usize) -> Option<&T> {
        match self.full.get(index / CHUNK) {
            Some(chunk) => chunk.get(index % CHUNK),
            None => self.tail.get(index - self.full.len() * CHUNK),
        }
    }

    pub fn last(&self) -> Option<&T> {
        self.tail
            .last()
            .or_else(|| self.full.last().and_then(|chunk| chunk.last()))
    }

    pub fn iter(&self) -> impl Iterator<Item = &T> + '_ {
        self.full
            .iter()
            .flat_map(|chunk| chunk.iter())
            .chain(self.tail.iter())
    }

    /// The items, a chunk at a time: every chunk but the last holds [`CHUNK`].
    pub fn chunks(&self) -> impl Iterator<Item = &[T]> + '_ {
        (self.full.iter().map(|chunk| chunk.as_slice()))
            .chain(Some(self.tail.as_slice()).filter(|tail| !tail.is_empty()))
    }

    pub fn push(&mut self, item: T) {
        if self.tail.capacity() == 0 {
            self.tail.reserve_exact(CHUNK);
        }
        self.tail.push(item);
        if self.tail.len() == CHUNK {
            let chunk = std::mem::replace(&mut self.tail, Vec::with_capacity(CHUNK));
            self.full.push(Arc::new(chunk));
        }
    }

    /// Appends `other[range]`, sharing `other`'s full chunks wherever they fall on this
    /// list's chunk boundaries.
    pub fn extend_from(&mut self, other: &ChunkedVec<T>, range: Range<usize>) {
        let end = range.end.min(other.len());
        let mut index = range.start;
        while index < end {
            let whole = self.tail.is_empty()
                && index.is_multiple_of(CHUNK)
                && index + CHUNK <= end
                && index / CHUNK < other.full.len();
            if whole {
                self.full.push(other.full[index / CHUNK].clone());
                index += CHUNK;
            } else {
                self.push(other[index].clone());
                index += 1;
            }
        }
    }

    /// Whether this list and `other` hold item `index` in the same shared chunk.
    pub fn shares_item(&self, other: &ChunkedVec<T>, index: usize) -> bool {
        match (self.full.get(index / CHUNK), other.full.get(index / CHUNK)) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }
}

impl<T: Clone> Index<usize> for ChunkedVec<T> {
    type Output = T;

    fn index(&self, index: usize) -> &T {
        self.get(index).expect("an index inside the list")
    }
}

impl<T: Clone + PartialEq> PartialEq for ChunkedVec<T> {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl<T: Clone + Eq> Eq for ChunkedVec<T> {}

impl<T: Clone> FromIterator<T> for ChunkedVec<T> {
    fn from_iter<I: IntoIterator<Item = T>>(items: I) -> Self {
        let mut list = ChunkedVec::new();
        for item in items {
            list.push(item);
        }
        list
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(range: Range<usize>) -> ChunkedVec<usize> {
        range.collect()
    }

    #[test]
    fn items_are_found_where_they_were_pushed() {
        let items = list(0..200);
        assert_eq!(items.len(), 200);
        assert_eq!(items.get(150), Some(&150));
        assert_eq!(items[63], 63);
        assert_eq!(items[64], 64);
        assert_eq!(items.get(200), None);
        assert_eq!(items.last(), Some(&199));
        assert!(items.iter().copied().eq(0..200));
        assert!(ChunkedVec::<usize>::new().last().is_none());
        // Two full chunks and nothing after them.
        assert_eq!(list(0..128).last(), Some(&127));
        assert_eq!(list(0..128).get(128), None);
    }

    #[test]
    fn extending_shares_the_chunks_that_line_up_and_copies_the_others() {
        let old = list(0..300);
        for (keep, skip) in [
            (0, 0),
            (64, 0),
            (100, 0),
            (100, 1),
            (260, 1),
            (128, 128),
            (100, 101),
            (5, 69),
            (300, 0),
        ] {
            let mut new = ChunkedVec::new();
            new.extend_from(&old, 0..keep);
            new.push(1000);
            new.extend_from(&old, keep + skip..old.len());
            let expected: Vec<usize> = (0..keep).chain([1000]).chain(keep + skip..300).collect();
            assert!(
                new.iter().copied().eq(expected.iter().copied()),
                "{keep} {skip}"
            );
            assert_eq!(new.len(), expected.len());
            // The full chunks wholly before the change are shared; so are those after it
            // when the change keeps the length. The last items (the tail) are copied.
            assert_eq!(new.shares_item(&old, 0), keep >= 64, "{keep} {skip}");
            assert_eq!(
                new.shares_item(&old, 255),
                keep >= 256 || (skip == 1 && keep < 192),
                "{keep} {skip}"
            );
            assert!(!new.shares_item(&old, 299));
        }
    }

    #[test]
    fn a_shared_chunk_stays_as_it_was_when_the_list_grows() {
        let old = list(0..70);
        let mut new = ChunkedVec::new();
        new.extend_from(&old, 0..70);
        assert!(new.shares_item(&old, 0));
        assert!(!new.shares_item(&old, 64));
        for item in 70..200 {
            new.push(item);
        }
        new.push(1000);
        assert!(new.shares_item(&old, 63));
        assert!(old.iter().copied().eq(0..70));
        assert!(new.iter().copied().eq((0..200).chain([1000])));
        assert_eq!(new.last(), Some(&1000));
        assert_eq!(new.get(200), Some(&1000));
        assert_eq!(new.get(201), None);
    }
}
