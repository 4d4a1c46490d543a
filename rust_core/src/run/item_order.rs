//! The order in which an exhaustive run visits its work items: a seeded pseudo-random
//! permutation of `0..n`, computed position by position without storing it. Any first part of
//! the order is then a uniform-looking sample of the items without replacement, so an
//! enumeration cut short (cancel, time limit) estimates the whole instead of describing
//! whichever items come first in deck order (see `cluster.rs`).
//!
//! The permutation is a balanced Feistel network on the smallest power of four at least `n`
//! (a bijection of that domain whatever its round function), restricted to `0..n` by cycle
//! walking: a value that falls outside is put through the network again until it lands inside.
//! The domain is under four times `n`, so fewer than four passes are expected.

use std::sync::atomic::{AtomicU64, Ordering};

/// Rounds of the Feistel network: six rounds of a well-mixed round function leave no visible
/// structure between neighbouring positions.
const ROUNDS: usize = 6;

/// A seeded bijection of `0..n`: position -> item.
#[derive(Clone, Debug)]
pub struct ItemOrder {
    n: u64,
    /// Bits of each half of the Feistel domain.
    half_bits: u32,
    keys: [u64; ROUNDS],
}

impl ItemOrder {
    pub fn new(n: u64, seed: u64) -> ItemOrder {
        // Bits to write n - 1, rounded up to an even count (at least 2, so each half has one).
        let bits = (u64::BITS - n.saturating_sub(1).leading_zeros()).max(1);
        let half_bits = bits.div_ceil(2);
        let mut state = seed;
        let keys = std::array::from_fn(|_| splitmix(&mut state));
        ItemOrder { n, half_bits, keys }
    }

    pub fn len(&self) -> u64 {
        self.n
    }

    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// The item visited at `position` (< n).
    pub fn item(&self, position: u64) -> u64 {
        debug_assert!(position < self.n, "position {position} of {}", self.n);
        if self.n <= 1 {
            return position;
        }
        let mut x = self.feistel(position);
        while x >= self.n {
            x = self.feistel(x);
        }
        x
    }

    fn feistel(&self, x: u64) -> u64 {
        let mask = (1u64 << self.half_bits) - 1;
        let (mut left, mut right) = (x >> self.half_bits, x & mask);
        for &key in &self.keys {
            let mixed = left ^ (mix(right ^ key) & mask);
            left = right;
            right = mixed;
        }
        (left << self.half_bits) | right
    }
}

/// Below this many prefixes per worker thread (and at least `MIN_PREFIX_ITEMS`), each part of a
/// prefix is a work item of its own; from it on, a work item is a whole prefix.
const PREFIXES_PER_THREAD: usize = 8;
const MIN_PREFIX_ITEMS: usize = 16;

/// The work items of an enumeration, the units of its order and of the sample a run cut short
/// makes, as ranges of its parts (`parts`: (prefix, part) in prefix order). With many prefixes
/// a work item is a prefix with all its parts: one worker enumerates them in turn, keeping the
/// prefix's tables (rebuilding a showdown tally's tables for every part in a random order cost
/// thirty times the enumeration of a flop's ranges). With few, each part is an item, so that
/// the threads share the work and the sample has enough items.
pub fn work_items(parts: &[(usize, usize)], threads: usize) -> Vec<std::ops::Range<usize>> {
    let prefixes = parts.last().map_or(0, |p| p.0 + 1);
    if prefixes < MIN_PREFIX_ITEMS.max(PREFIXES_PER_THREAD * threads) {
        return (0..parts.len()).map(|i| i..i + 1).collect();
    }
    let mut items = Vec::with_capacity(prefixes);
    let mut start = 0;
    for i in 1..=parts.len() {
        if i == parts.len() || parts[i].0 != parts[start].0 {
            items.push(start..i);
            start = i;
        }
    }
    items
}

/// The work items of an order handed out to worker threads one at a time, the first `end` of
/// them (all, or fewer when a run is limited to a number of items).
pub struct ItemClaims {
    next: AtomicU64,
    order: ItemOrder,
    items: Vec<std::ops::Range<usize>>,
    end: u64,
}

impl ItemClaims {
    pub fn new(order: ItemOrder, items: Vec<std::ops::Range<usize>>, limit: Option<u64>) -> ItemClaims {
        debug_assert_eq!(order.len(), items.len() as u64);
        let end = limit.map_or(order.len(), |l| l.min(order.len()));
        ItemClaims { next: AtomicU64::new(0), order, items, end }
    }

    /// The items at positions `span` of the order only (a cluster task's share).
    pub fn span(order: ItemOrder, items: Vec<std::ops::Range<usize>>, span: std::ops::Range<u64>) -> ItemClaims {
        debug_assert_eq!(order.len(), items.len() as u64);
        let end = span.end.min(order.len());
        ItemClaims { next: AtomicU64::new(span.start.min(end)), order, items, end }
    }

    /// The next position and the parts of the item at it; `None` when all are handed out.
    pub fn claim(&self) -> Option<(u64, std::ops::Range<usize>)> {
        let position = self.next.fetch_add(1, Ordering::Relaxed);
        (position < self.end).then(|| (position, self.items[self.order.item(position) as usize].clone()))
    }
}

fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    mix(*state)
}

/// The `SplitMix64` finaliser: every input bit moves about half the output bits.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn visits(n: u64, seed: u64) -> Vec<u64> {
        let order = ItemOrder::new(n, seed);
        (0..n).map(|p| order.item(p)).collect()
    }

    #[test]
    fn every_item_is_visited_exactly_once() {
        let sizes = (0..=70).chain([127, 128, 129, 1000, 4095, 4096, 4097, 65_537]);
        for n in sizes {
            for seed in [0, 1, 0xDEAD_BEEF, u64::MAX] {
                let mut seen = visits(n, seed);
                seen.sort_unstable();
                assert!(seen.iter().copied().eq(0..n), "n = {n}, seed = {seed}");
            }
        }
    }

    #[test]
    fn work_items_are_prefixes_when_there_are_many() {
        let parts = |prefixes: usize| -> Vec<(usize, usize)> {
            (0..prefixes).flat_map(|p| (0..3 + p % 2).map(move |f| (p, f))).collect()
        };
        // Few prefixes: every part is an item.
        let few = parts(10);
        assert_eq!(work_items(&few, 1), (0..few.len()).map(|i| i..i + 1).collect::<Vec<_>>());
        // Many: a prefix is an item, its parts in a row, every part in exactly one.
        let many = parts(40);
        let items = work_items(&many, 2);
        assert_eq!(items.len(), 40);
        assert!(items.iter().all(|r| many[r.clone()].iter().all(|p| p.0 == many[r.start].0)));
        assert_eq!(items.iter().map(ExactSizeIterator::len).sum::<usize>(), many.len());
        // As many prefixes, but more threads to keep busy: parts again.
        assert_eq!(work_items(&many, 8).len(), many.len());
    }

    #[test]
    fn seeds_give_different_orders_and_a_seed_the_same_one() {
        assert_eq!(visits(1000, 7), visits(1000, 7));
        assert_ne!(visits(1000, 7), visits(1000, 8));
        // Not the identity, nor close to it: most items move.
        let moved = visits(1000, 7).iter().enumerate().filter(|&(p, &i)| p as u64 != i).count();
        assert!(moved > 950, "{moved} of 1000 moved");
    }

    /// The first part of the order behaves as a sample without replacement: over many seeds
    /// the mean item of the first tenth is the mean of all items, within a few standard errors
    /// (items in deck order would give a tenth of it), and each item starts the order about
    /// equally often.
    #[test]
    fn a_first_part_of_the_order_is_an_even_sample() {
        let (n, k, seeds) = (1000u64, 100u64, 400u64);
        let population_mean = (n - 1) as f64 / 2.0;
        let population_var = ((n * n - 1) as f64) / 12.0;
        // Variance of the mean of k items drawn without replacement.
        let se = (population_var / k as f64 * (1.0 - k as f64 / n as f64)).sqrt();
        let mut firsts = vec![0u32; 10];
        for seed in 0..seeds {
            let order = ItemOrder::new(n, seed);
            let mean = (0..k).map(|p| order.item(p) as f64).sum::<f64>() / k as f64;
            assert!((mean - population_mean).abs() < 5.0 * se, "seed {seed}: mean {mean}");
            firsts[(order.item(0) / 100) as usize] += 1;
        }
        // 400 first items in ten bins of 40 expected each.
        assert!(firsts.iter().all(|&c| (15..=70).contains(&c)), "{firsts:?}");
    }
}
