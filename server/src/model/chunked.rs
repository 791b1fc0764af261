//! A list kept in chunks behind `Arc`s: a revision built from the one before it shares every
//! chunk an edit did not touch instead of copying (and later freeing) each item.

use std::ops::{Index, Range};
use std::sync::Arc;

/// Items per chunk: every chunk but the last holds this many.
const CHUNK: usize = 64;

#[derive(Clone, Debug)]
pub struct ChunkedVec<T> {
    chunks: Vec<Arc<Vec<T>>>,
    len: usize,
}

impl<T> Default for ChunkedVec<T> {
    fn default() -> Self {
        ChunkedVec {
            chunks: Vec::new(),
            len: 0,
        }
    }
}

impl<T: Clone> ChunkedVec<T> {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn get(&self, index: usize) -> Option<&T> {
        self.chunks.get(index / CHUNK)?.get(index % CHUNK)
    }

    pub fn last(&self) -> Option<&T> {
        self.chunks.last()?.last()
    }

    pub fn iter(&self) -> impl Iterator<Item = &T> + '_ {
        self.chunks.iter().flat_map(|chunk| chunk.iter())
    }

    pub fn push(&mut self, item: T) {
        match self.chunks.last_mut() {
            Some(chunk) if chunk.len() < CHUNK => Arc::make_mut(chunk).push(item),
            _ => {
                let mut chunk = Vec::with_capacity(CHUNK);
                chunk.push(item);
                self.chunks.push(Arc::new(chunk));
            }
        }
        self.len += 1;
    }

    /// Appends `other[range]`, sharing `other`'s chunks wherever they fall on this list's
    /// chunk boundaries.
    pub fn extend_from(&mut self, other: &ChunkedVec<T>, range: Range<usize>) {
        let end = range.end.min(other.len);
        let mut index = range.start;
        while index < end {
            let chunk = &other.chunks[index / CHUNK];
            if self.len.is_multiple_of(CHUNK)
                && index.is_multiple_of(CHUNK)
                && index + chunk.len() <= end
            {
                self.chunks.push(chunk.clone());
                self.len += chunk.len();
                index += chunk.len();
            } else {
                self.push(chunk[index % CHUNK].clone());
                index += 1;
            }
        }
    }

    /// Whether this list and `other` hold item `index` in the same shared chunk.
    pub fn shares_item(&self, other: &ChunkedVec<T>, index: usize) -> bool {
        match (
            self.chunks.get(index / CHUNK),
            other.chunks.get(index / CHUNK),
        ) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }
}

impl<T: Clone> Index<usize> for ChunkedVec<T> {
    type Output = T;

    fn index(&self, index: usize) -> &T {
        &self.chunks[index / CHUNK][index % CHUNK]
    }
}

impl<T: Clone + PartialEq> PartialEq for ChunkedVec<T> {
    fn eq(&self, other: &Self) -> bool {
        self.len == other.len && self.iter().eq(other.iter())
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
            // The chunks wholly before the change are shared; so are those after it when
            // the change keeps the length.
            assert_eq!(new.shares_item(&old, 0), keep >= 64, "{keep} {skip}");
            assert_eq!(
                new.shares_item(&old, 299),
                skip == 1 && keep < 256,
                "{keep} {skip}"
            );
        }
    }

    #[test]
    fn a_shared_chunk_is_copied_before_it_changes() {
        let old = list(0..10);
        let mut new = ChunkedVec::new();
        new.extend_from(&old, 0..10);
        assert!(new.shares_item(&old, 0));
        new.push(10);
        assert!(!new.shares_item(&old, 0));
        assert!(old.iter().copied().eq(0..10));
        assert!(new.iter().copied().eq(0..11));
    }
}
