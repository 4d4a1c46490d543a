//! Small, fast, seedable generators: xoshiro256++ with independent streams per chunk, and wyrand
//! (seeded from it) for the one loop that draws Monte Carlo boards.
//! Uses nothing else of the crate; every room may use it (the evaluators' and ranges' tests,
//! analysis samples, the deal sources and the runner's streams).

/// xoshiro256++: 256 bits of state, excellent statistical quality, about a nanosecond a draw.
#[derive(Clone, Debug, PartialEq, Eq)]
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

    /// Moves a uniform random choice of `k` of `n` items, in uniform random order, to the front
    /// (`plan` is for n and k): a partial Fisher-Yates shuffle, done by `swap(i, j)` of positions
    /// (i <= j < n). Several swap positions come from one 64-bit draw (see [`PartialShuffle`]).
    #[inline]
    pub fn partial_shuffle(&mut self, plan: &PartialShuffle, mut swap: impl FnMut(usize, usize)) {
        let n = plan.n;
        for b in &plan.batches {
            loop {
                let first = self.next_u64();
                let mut x = first;
                for t in b.start..b.end {
                    let m = u128::from(x) * (n - t) as u128;
                    swap(t, t + (m >> 64) as usize);
                    x = m as u64;
                }
                if x >= b.threshold {
                    break;
                }
                undo_batch(n, b, first, &mut swap);
            }
        }
    }

    /// `K` distinct positions below `n` (n <= 64), uniform over the ordered choices: `K` positions
    /// from one 64-bit draw (batched, with `threshold` from [`distinct_threshold`]), the whole
    /// draw repeated when two coincide. Unlike a shuffle it writes nothing, so deal after deal
    /// carries no dependency through memory.
    #[inline]
    pub fn distinct_positions<const K: usize>(&mut self, n: usize, threshold: u64) -> [usize; K] {
        loop {
            if let (positions, true) = self.candidate_positions::<K>(n, threshold) {
                return positions;
            }
        }
    }

    /// One draw of [`Rng::distinct_positions`], and whether it stands (`false`: draw again).
    /// For loops that keep the draws that stand without branching on it: which draws fail is
    /// random (a fifth of them for five cards of 48), and a mispredicted branch costs more than
    /// the draw.
    // `&`, not `&&`: both sides are cheap, and a branch on random outcomes mispredicts.
    #[allow(clippy::needless_bitwise_bool)]
    #[inline]
    pub fn candidate_positions<const K: usize>(&mut self, n: usize, threshold: u64) -> ([usize; K], bool) {
        let mut x = self.next_u64();
        let mut positions = [0usize; K];
        let mut seen = 0u64;
        for position in &mut positions {
            let m = u128::from(x) * n as u128;
            *position = (m >> 64) as usize & 63;
            seen |= 1 << *position;
            x = m as u64;
        }
        (positions, (x >= threshold) & (seen.count_ones() as usize == K))
    }

    /// Uniform in `[0, 1)`.
    #[inline]
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}

/// wyrand (Wang Yi's generator): 64 bits of state, one add and one 64x64-bit multiply a number,
/// and it passes the usual statistical test batteries. About half the work of
/// [`Rng::next_u64`], for the one loop where that shows: drawing Monte Carlo boards, seeded from
/// the chunk's [`Rng`] so that runs stay reproducible. Beside it, a stratified sequence
/// ([`WyRand::next_stratified`]) for the one choice of a deal that decides most of its variance.
#[derive(Clone, Debug)]
pub struct WyRand {
    state: u64,
    weyl: u64,
}

impl WyRand {
    /// The state and the stratified sequence's start are expanded from `seed` by `SplitMix64`:
    /// wyrand's first numbers from nearby states (consecutive seeds, say) are nearly evenly
    /// spaced, not independent.
    pub fn new(seed: u64) -> WyRand {
        let mut x = seed;
        WyRand { state: splitmix(&mut x), weyl: splitmix(&mut x) }
    }

    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0xa076_1d64_78bd_642f);
        mix(self.state)
    }

    /// The next number of Weyl's sequence from a random start: steps of 2^64 over the golden
    /// ratio. Each number alone is uniform (the start is), and any n in a row spread over n equal
    /// parts of the range about one to a part (the sequence of the golden ratio's multiples is
    /// the most evenly spread there is), so a choice drawn from them is stratified: each item of
    /// a list comes up in proportion to its share, not by chance. Not independent from one
    /// number to the next: for one choice a deal only, whose other cards are drawn by
    /// [`WyRand::next_u64`].
    #[inline]
    pub fn next_stratified(&mut self) -> u64 {
        self.weyl = self.weyl.wrapping_add(0x9E37_79B9_7F4A_7C15);
        self.weyl
    }
}

/// wyrand's output function.
#[inline]
fn mix(x: u64) -> u64 {
    let t = u128::from(x) * u128::from(x ^ 0xe703_7ed1_a0b4_28db);
    (t >> 64) as u64 ^ t as u64
}

/// How [`Rng::partial_shuffle`] draws `k` of `n` items: the positions' bounds n, n - 1, ... in
/// batches whose product stays below 2^64, each batch from one 64-bit draw. This is the batched
/// method of Brackett-Rozinsky and Lemire: the bounds' mixed-radix digits of Lemire's
/// multiply-and-reject for their product, so every outcome is exactly equally likely (the
/// rejection runs for a fraction below product / 2^64 of the draws: almost never).
#[derive(Clone, Debug)]
pub struct PartialShuffle {
    n: usize,
    batches: Vec<Batch>,
}

#[derive(Clone, Debug)]
struct Batch {
    start: usize,
    end: usize,
    /// Draws whose leftover falls below this are rejected: (2^64 - product) mod product.
    threshold: u64,
}

impl PartialShuffle {
    /// The number of items shuffled.
    pub fn len(&self) -> usize {
        self.n
    }

    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    pub fn new(n: usize, k: usize) -> PartialShuffle {
        let k = k.min(n);
        let mut batches = Vec::new();
        let mut start = 0;
        while start < k {
            let mut product: u128 = 1;
            let mut end = start;
            while end < k && product * ((n - end) as u128) < 1 << 64 {
                product *= (n - end) as u128;
                end += 1;
            }
            let threshold = (((1u128 << 64) - product) % product) as u64;
            batches.push(Batch { start, end, threshold });
            start = end;
        }
        PartialShuffle { n, batches }
    }
}

/// The rejection threshold of [`Rng::distinct_positions`] for `k` positions below `n`, when
/// n^k < 2^64 (one draw carries them all).
pub fn distinct_threshold(n: usize, k: usize) -> Option<u64> {
    let product = (0..k).try_fold(1u128, |p, _| Some(p * n as u128).filter(|&p| p < 1 << 64))?;
    Some((((1u128 << 64) - product) % product) as u64)
}

/// Reverses a rejected batch's swaps (recomputed from its draw), newest first.
#[cold]
fn undo_batch(n: usize, b: &Batch, first: u64, swap: &mut impl FnMut(usize, usize)) {
    let mut swaps = Vec::with_capacity(b.end - b.start);
    let mut x = first;
    for t in b.start..b.end {
        let m = u128::from(x) * (n - t) as u128;
        swaps.push((t, t + (m >> 64) as usize));
        x = m as u64;
    }
    for &(a, c) in swaps.iter().rev() {
        swap(a, c);
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
    fn partial_shuffles_choose_every_ordered_sample_equally_often() {
        // Three of five items in order: 60 outcomes; chi-square with 59 degrees of freedom
        // (99.9% quantile about 98), over enough draws that batches of every length are used.
        let mut r = Rng::new(5, 0);
        let mut counts = std::collections::HashMap::new();
        let mut items = [0u8, 1, 2, 3, 4];
        let three_of_five = PartialShuffle::new(5, 3);
        for _ in 0..120_000 {
            r.partial_shuffle(&three_of_five, |i, j| items.swap(i, j));
            *counts.entry([items[0], items[1], items[2]]).or_insert(0u32) += 1;
        }
        assert_eq!(counts.len(), 60);
        let chi: f64 = counts.values().map(|&c| (f64::from(c) - 2000.0).powi(2) / 2000.0).sum();
        assert!(chi < 98.0, "chi-square {chi}");
        // A deck's worth: more positions than one 64-bit draw can carry; all distinct.
        let mut deck: Vec<u8> = (0..52).collect();
        r.partial_shuffle(&PartialShuffle::new(52, 52), |i, j| deck.swap(i, j));
        let mut sorted = deck.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..52).collect::<Vec<u8>>());
    }

    #[test]
    fn distinct_positions_are_uniform_over_ordered_choices() {
        // Two of four positions: 12 ordered choices; chi-square with 11 degrees of freedom
        // (99.9% quantile about 31.3).
        let mut r = Rng::new(8, 0);
        let threshold = distinct_threshold(4, 2).unwrap();
        let mut counts = std::collections::HashMap::new();
        for _ in 0..60_000 {
            let [a, b] = r.distinct_positions::<2>(4, threshold);
            assert!(a != b && a < 4 && b < 4);
            *counts.entry((a, b)).or_insert(0u32) += 1;
        }
        assert_eq!(counts.len(), 12);
        let chi: f64 = counts.values().map(|&c| (f64::from(c) - 5000.0).powi(2) / 5000.0).sum();
        assert!(chi < 31.3, "chi-square {chi}");
        assert_eq!(distinct_threshold(52, 12), None);
    }

    #[test]
    fn a_rejected_batch_leaves_the_items_as_they_were() {
        let b = Batch { start: 0, end: 5, threshold: 0 };
        let mut items: Vec<u32> = (0..10).collect();
        let mut x = 0x1234_5678_9ABC_DEF0u64;
        for t in 0..5 {
            let m = u128::from(x) * (10 - t) as u128;
            items.swap(t, t + (m >> 64) as usize);
            x = m as u64;
        }
        undo_batch(10, &b, 0x1234_5678_9ABC_DEF0, &mut |i, j| items.swap(i, j));
        assert_eq!(items, (0..10).collect::<Vec<u32>>());
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
