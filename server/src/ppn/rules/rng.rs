//! A bit-exact re-implementation of R's default random number generator
//! (Mersenne-Twister with `set.seed()` scrambling, "Rejection" sampling), so that
//! random setups given a `Seed` produce the same board as the reference.

const STATE_LEN: usize = 624;
const SHIFT_OFFSET: usize = 397;
const MATRIX_A: u32 = 0x9908_b0df;
const UPPER_MASK: u32 = 0x8000_0000;
const LOWER_MASK: u32 = 0x7fff_ffff;
const TEMPERING_MASK_B: u32 = 0x9d2c_5680;
const TEMPERING_MASK_C: u32 = 0xefc6_0000;
/// R maps the 32-bit output to [0, 1) with this factor (2^-32).
const TWO_POW_MINUS_32: f64 = 2.328_306_436_538_696_3e-10;
/// R never returns exactly 0 or 1 from `unif_rand()`; it nudges by half of 2^-32.
const HALF_ULP: f64 = 0.5 * 2.328_306_437_080_797e-10;

/// R's random number generator state after `set.seed(seed)` with the default kinds
/// (`RNGkind("Mersenne-Twister", "Inversion", "Rejection")`).
#[derive(Clone)]
pub struct RRng {
    state: [u32; STATE_LEN],
    position: usize,
}

impl RRng {
    /// The state R is in after `set.seed(seed)`.
    pub fn from_seed(seed: i32) -> RRng {
        let mut scrambled = seed as u32;
        let next = |s: u32| s.wrapping_mul(69069).wrapping_add(1);
        for _ in 0..50 {
            scrambled = next(scrambled);
        }
        // R's seed vector for this generator is 625 integers: the position counter
        // first, then the twister state; all are filled by the same recurrence.
        scrambled = next(scrambled);
        let mut state = [0u32; STATE_LEN];
        for word in state.iter_mut() {
            scrambled = next(scrambled);
            *word = scrambled;
        }
        RRng {
            state,
            position: STATE_LEN,
        }
    }

    fn regenerate(&mut self) {
        let mix = |upper: u32, lower: u32, far: u32| {
            let y = (upper & UPPER_MASK) | (lower & LOWER_MASK);
            far ^ (y >> 1) ^ if y & 1 == 1 { MATRIX_A } else { 0 }
        };
        for k in 0..STATE_LEN {
            let next = self.state[(k + 1) % STATE_LEN];
            let far = self.state[(k + SHIFT_OFFSET) % STATE_LEN];
            self.state[k] = mix(self.state[k], next, far);
        }
        self.position = 0;
    }

    fn next_u32(&mut self) -> u32 {
        if self.position >= STATE_LEN {
            self.regenerate();
        }
        let mut y = self.state[self.position];
        self.position += 1;
        y ^= y >> 11;
        y ^= (y << 7) & TEMPERING_MASK_B;
        y ^= (y << 15) & TEMPERING_MASK_C;
        y ^= y >> 18;
        y
    }

    /// R's `unif_rand()`: a uniform number strictly inside (0, 1).
    pub fn unif_rand(&mut self) -> f64 {
        let value = f64::from(self.next_u32()) * TWO_POW_MINUS_32;
        if value <= 0.0 {
            HALF_ULP
        } else if 1.0 - value <= 0.0 {
            1.0 - HALF_ULP
        } else {
            value
        }
    }

    /// A random integer made of `bits` random bits, drawn 16 bits at a time as R does.
    fn random_bits(&mut self, bits: u32) -> u64 {
        let mut value: u64 = 0;
        let mut drawn = 0;
        while drawn <= bits {
            let chunk = (self.unif_rand() * 65536.0).floor() as u64;
            value = value.wrapping_mul(65536).wrapping_add(chunk);
            drawn += 16;
        }
        value & ((1u64 << bits) - 1)
    }

    /// R's `R_unif_index(n)`: a uniform integer in `0..n` by rejection sampling.
    pub fn unif_index(&mut self, n: usize) -> usize {
        if n == 0 {
            return 0;
        }
        let bits = (n as f64).log2().ceil() as u32;
        loop {
            let candidate = self.random_bits(bits);
            if candidate < n as u64 {
                return candidate as usize;
            }
        }
    }

    /// R's `sample.int(n)`: a random permutation of `1..=n`.
    pub fn permutation(&mut self, n: usize) -> Vec<usize> {
        self.sample_without_replacement(n, n)
    }

    /// R's `sample.int(n, size)`: `size` distinct values from `1..=n`.
    pub fn sample_without_replacement(&mut self, n: usize, size: usize) -> Vec<usize> {
        let mut pool: Vec<usize> = (0..n).collect();
        let mut remaining = n;
        let mut chosen = Vec::with_capacity(size.min(n));
        for _ in 0..size.min(n) {
            let j = self.unif_index(remaining);
            chosen.push(pool[j] + 1);
            remaining -= 1;
            pool[j] = pool[remaining];
        }
        chosen
    }

    /// R's `sample.int(n, size, replace = TRUE)`: `size` values from `1..=n`.
    pub fn sample_with_replacement(&mut self, n: usize, size: usize) -> Vec<usize> {
        (0..size).map(|_| self.unif_index(n) + 1).collect()
    }

    /// R's `x[sample.int(length(x))]` (what `sample(x)` does when `x` has 2+ elements).
    pub fn shuffle<T: Clone>(&mut self, items: &[T]) -> Vec<T> {
        self.permutation(items.len())
            .into_iter()
            .map(|i| items[i - 1].clone())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Expected values below were printed by R 4.x with the default RNG kinds.

    #[test]
    fn runif_matches_r() {
        let mut rng = RRng::from_seed(42);
        let expected = [
            0.914_806_043_496_355_4,
            0.937_075_413_297_861_8,
            0.286_139_534_786_343_6,
            0.830_447_626_067_325_5,
            0.641_745_518_893_003_5,
        ];
        for value in expected {
            assert_eq!(rng.unif_rand(), value);
        }
    }

    #[test]
    fn negative_seed_matches_r() {
        let mut rng = RRng::from_seed(-7);
        let expected = [
            0.326_494_855_573_400_86,
            0.539_861_117_023_974_7,
            0.254_736_220_929_771_66,
        ];
        for value in expected {
            assert_eq!(rng.unif_rand(), value);
        }
    }

    #[test]
    fn state_regeneration_matches_r() {
        let mut rng = RRng::from_seed(2);
        let draws: Vec<f64> = (0..700).map(|_| rng.unif_rand()).collect();
        assert_eq!(draws[623], 0.344_378_424_109_891_06);
        assert_eq!(draws[624], 0.307_813_602_732_494_5);
        assert_eq!(draws[699], 0.523_993_709_124_624_7);
    }

    #[test]
    fn permutation_matches_r() {
        let mut rng = RRng::from_seed(42);
        assert_eq!(
            rng.permutation(24),
            vec![
                17, 5, 1, 10, 4, 18, 24, 15, 8, 7, 20, 9, 23, 14, 21, 2, 19, 3, 22, 6, 16, 12, 11,
                13
            ]
        );
    }

    #[test]
    fn sampling_with_replacement_matches_r() {
        let mut rng = RRng::from_seed(1);
        assert_eq!(
            rng.sample_with_replacement(6, 10),
            vec![1, 4, 1, 2, 5, 3, 6, 2, 3, 3]
        );
    }

    #[test]
    fn large_population_sampling_matches_r() {
        let mut rng = RRng::from_seed(123);
        assert_eq!(
            rng.sample_without_replacement(100_000, 5),
            vec![51663, 57870, 2986, 29925, 95246]
        );
    }
}
