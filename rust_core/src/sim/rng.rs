//! A small, fast, seedable generator (xoshiro256++) with independent streams per thread.

/// xoshiro256++: 256 bits of state, excellent statistical quality, about a nanosecond a draw.
#[derive(Clone, Debug)]
pub struct Rng {
    s: [u64; 4],
}

/// `SplitMix64` expands a seed into well-mixed state words.
fn splitmix(x: &mut u64) -> u64 {
    *x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *x;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Rng {
    /// The generator for `stream` (a chunk or thread number) under `seed`.
    pub fn new(seed: u64, stream: u64) -> Rng {
        let mut x = seed ^ stream.wrapping_mul(0xD1B5_4A32_D192_ED03);
        let s = [splitmix(&mut x), splitmix(&mut x), splitmix(&mut x), splitmix(&mut x)];
        Rng { s }
    }

    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let s = &mut self.s;
        let result = s[0].wrapping_add(s[3]).rotate_left(23).wrapping_add(s[0]);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// Uniform in `0..n` (n > 0) by Lemire's multiply-shift; the bias is below 2^-32 for the
    /// small `n` used here (deck and range sizes).
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        ((self.next_u64() >> 32) * n) >> 32
    }

    /// Uniform in `[0, 1)`.
    #[inline]
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_are_reproducible_and_distinct() {
        let a: Vec<u64> = (0..4).map(|_| Rng::new(7, 0).next_u64()).collect();
        assert!(a.windows(2).all(|w| w[0] == w[1]));
        assert_ne!(Rng::new(7, 0).next_u64(), Rng::new(7, 1).next_u64());
    }

    #[test]
    fn below_is_uniform_enough() {
        let mut r = Rng::new(1, 0);
        let mut counts = [0u32; 52];
        for _ in 0..520_000 {
            counts[r.below(52) as usize] += 1;
        }
        // Chi-square with 51 degrees of freedom; 99.9% quantile is about 87.
        let chi: f64 = counts.iter().map(|&c| (f64::from(c) - 10_000.0).powi(2) / 10_000.0).sum();
        assert!(chi < 87.0, "chi-square {chi}");
    }
}
