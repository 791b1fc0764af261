//! A small deterministic source of numbers for tests that try many random cases: the same
//! cases on every run, so a failure can be found again.

/// xorshift64: good enough to spread test cases, and the same sequence for the same seed.
pub(crate) struct Xorshift(u64);

impl Xorshift {
    /// `seed` must not be zero (the sequence would stay at zero).
    pub(crate) fn new(seed: u64) -> Xorshift {
        Xorshift(seed)
    }

    /// The next number below `bound`, which must not be zero.
    pub(crate) fn below(&mut self, bound: usize) -> usize {
        let seed = &mut self.0;
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        (*seed % bound as u64) as usize
    }

    /// A text of fewer than `most` pieces, each picked from `pieces`.
    pub(crate) fn text_of(&mut self, pieces: &[&str], most: usize) -> String {
        let count = self.below(most);
        (0..count)
            .map(|_| pieces[self.below(pieces.len())])
            .collect()
    }
}
