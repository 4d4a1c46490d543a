//! Helpers shared by the sampling tests.

use pql_core::sim::deal::Deal;
use pql_core::sim::rng::Rng;
use pql_core::sim::source::DealSpec;
use std::collections::HashMap;
use std::hash::Hash;

/// Samples `n` accepted deals of `spec` with `seed` and counts each outcome `key(deal)`.
pub fn frequencies<K: Hash + Eq>(spec: &DealSpec, n: usize, seed: u64, key: impl Fn(&Deal) -> K) -> HashMap<K, f64> {
    let mut rng = Rng::new(seed, 0);
    let mut deal = Deal::new(spec.game, spec.players.len());
    let mut counts = HashMap::new();
    let mut accepted = 0;
    while accepted < n {
        if spec.sample(&mut rng, &mut deal) {
            *counts.entry(key(&deal)).or_insert(0.0) += 1.0;
            accepted += 1;
        }
    }
    counts
}
