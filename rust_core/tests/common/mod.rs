//! Helpers shared by the integration tests.
// Each test crate compiles this module and uses only some of it.
#![allow(dead_code)]

use pql_core::deal::source::DealSpec;
use pql_core::deal::Deal;
use pql_core::plan::compile::compile_program;
use pql_core::rng::Rng;
use pql_core::run::runner::{start, RunOptions};
use std::collections::HashMap;
use std::hash::Hash;
use std::sync::Arc;

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

/// Every selector's value (avg, or count as a fraction) of the first statement of `text` run
/// on two threads with `seed`, and whether the run was exact.
pub fn run_first(text: &str, trials: u64, exact: Option<bool>, seed: u64) -> (Vec<f64>, bool) {
    let statements = compile_program(text).unwrap_or_else(|e| panic!("{text}: {e:?}"));
    let plan = Arc::new(statements[0].plan.clone());
    let opts = RunOptions { trials, seed: Some(seed), threads: 2, exact, ..RunOptions::default() };
    let p = start(&plan, &opts).wait();
    assert!(p.error.is_none(), "{text}: {:?}", p.error);
    (p.aggregates.iter().map(|a| a.estimate().map_or(f64::NAN, |e| e.0)).collect(), p.exact)
}
