//! An exhaustive run cut short is a sample: its work items go in a seeded random order, so
//! the items done first estimate the whole enumeration, with standard errors that shrink to
//! 0 as it completes. The runs here are cut short by an item limit, not by a clock, so they
//! stop at the same point on any machine.

use pql_core::plan::Plan;
use pql_core::run::aggregate::Aggregate;
use pql_core::run::runner::{start, Enumerated, Progress, RunOptions};
use std::sync::Arc;

fn compiled(text: &str) -> Arc<Plan> {
    let mut statements = pql_core::plan::compile::compile_program(text).unwrap();
    Arc::new(statements.remove(0).plan)
}

/// Per-deal selectors (the generic enumeration) over ranges and a flop: 120 prefixes, each a
/// work item.
const PER_DEAL: &str = "select avg(riverEquity(a)) as eq, count(handType(a, river) >= twopair) as twopair, \
     histogram(handType(a, river)) from game='holdem', a='AA,KK', b='QQ,JJ,AKs', board='Kh7d2c'";

/// Showdown-only selectors over given hands: the showdown tally's own enumeration (hold'em's
/// counts a prefix's boards by rank multiset in one piece), each prefix a work item.
const TALLIED: &str = "select avg(riverEquity(a)) as eq, count(winsHi(b)) from game='holdem', \
     a='AKs,AQs,AJs,ATs', b='77,88,99', board='Kh7d2c'";

fn run(plan: &Arc<Plan>, seed: u64, items: Option<u64>, threads: usize) -> Progress {
    let opts = RunOptions { exact: Some(true), seed: Some(seed), item_limit: items, threads, ..RunOptions::default() };
    let p = start(plan, &opts).wait();
    assert!(p.error.is_none(), "{:?}", p.error);
    p
}

/// The value and standard error of avg/count selector `i`.
fn estimate(p: &Progress, i: usize) -> (f64, Option<f64>) {
    let sample = p.sample.as_ref().expect("an exhaustive run keeps its sample");
    (p.aggregates[i].estimate().unwrap().0, sample.stderr(i, &p.aggregates[i]))
}

/// Fixed seeds, a third of the items: every estimate of every selector (histogram buckets
/// included) is within a few standard errors of the exact value, and about 95% of them within
/// 1.96 (an ordered first third, as runs cut short used to report, is far off: the first
/// hands of the ranges and the board's lowest cards come first).
#[test]
fn a_cut_short_enumeration_estimates_the_exact_answer() {
    for (text, name) in [(PER_DEAL, "per deal"), (TALLIED, "tallied")] {
        let plan = compiled(text);
        let exact = run(&plan, 1, None, 2);
        assert!(exact.exact && !exact.truncated);
        let items = exact.sample.as_ref().unwrap().items_total;
        assert!(items >= 40, "{name}: {items} items");
        let (mut within, mut total) = (0, 0);
        let mut check = |value: f64, truth: f64, se: f64, what: &str| {
            assert!(se > 0.0, "{name} {what}");
            assert!((value - truth).abs() < 4.5 * se, "{name} {what}: {value} ± {se} vs exact {truth}");
            total += 1;
            if (value - truth).abs() < 1.96 * se {
                within += 1;
            }
        };
        for seed in 1..=30 {
            let cut = run(&plan, seed, Some(items / 3), 2);
            assert!(cut.truncated && !cut.exact && cut.exhaustive, "{name}");
            assert_eq!(cut.sample.as_ref().unwrap().items_done, items / 3);
            assert_eq!(cut.seed, Some(seed));
            assert!(cut.attempted < exact.attempted);
            for i in 0..2 {
                let (value, se) = estimate(&cut, i);
                check(
                    value,
                    estimate(&exact, i).0,
                    se.expect("a standard error"),
                    &format!("seed {seed} selector {i}"),
                );
            }
            if let Some(h @ Aggregate::Histogram { .. }) = cut.aggregates.get(2) {
                let errors = cut.sample.as_ref().unwrap().bucket_stderrs(2, h);
                let truth: std::collections::HashMap<String, f64> =
                    exact.aggregates[2].buckets().into_iter().map(|(label, _, share)| (label, share)).collect();
                for (label, _, share) in h.buckets() {
                    if truth[&label] < 0.05 {
                        continue;
                    }
                    check(share, truth[&label], errors[&label], &label);
                }
            }
        }
        let share = f64::from(within) / f64::from(total);
        assert!(share > 0.85, "{name}: {within} of {total} within 1.96 standard errors");
    }
}

/// More of the enumeration, smaller errors; all of it, none: the estimate is then the exact
/// value (the same sums, taken in another order).
#[test]
fn the_standard_error_shrinks_to_nothing_as_the_enumeration_completes() {
    let plan = compiled(PER_DEAL);
    let exact = run(&plan, 9, None, 2);
    let items = exact.sample.as_ref().unwrap().items_total;
    let errors: Vec<f64> = [items / 3, items / 2, items * 3 / 4]
        .iter()
        .map(|&k| estimate(&run(&plan, 9, Some(k), 2), 0).1.unwrap())
        .collect();
    assert!(errors[0] > errors[1] && errors[1] > errors[2] && errors[2] > 0.0, "{errors:?}");
    let all = run(&plan, 9, Some(items), 2);
    assert!(all.exact && !all.truncated);
    assert_eq!(all.seed, None);
    for i in 0..2 {
        let (value, se) = estimate(&all, i);
        assert_eq!(se, Some(0.0));
        assert!((value - estimate(&exact, i).0).abs() < 1e-12);
    }
    assert_eq!(all.attempted, exact.attempted);
    assert_eq!(all.aggregates[2].buckets().len(), exact.aggregates[2].buckets().len());
    for (a, b) in all.aggregates[2].buckets().iter().zip(exact.aggregates[2].buckets()) {
        assert_eq!(a.0, b.0);
        assert!((a.1 - b.1).abs() < 1e-9 * b.1.max(1.0), "{a:?} {b:?}");
    }
}

/// The sample is a first part of the order, whatever the threads: items finished ahead of
/// an earlier one wait for it, so one thread and four give the same cut-short answer.
#[test]
fn a_cut_short_answer_does_not_depend_on_the_threads() {
    let plan = compiled(PER_DEAL);
    let one = run(&plan, 4, Some(50), 1);
    let four = run(&plan, 4, Some(50), 4);
    assert_eq!(one.attempted, four.attempted);
    for i in 0..2 {
        assert_eq!(estimate(&one, i), estimate(&four, i));
    }
    assert_eq!(one.aggregates[2].buckets(), four.aggregates[2].buckets());
    // Another seed, another sample.
    assert_ne!(estimate(&run(&plan, 5, Some(50), 1), 0), estimate(&one, 0));
}

/// Why a run enumerates: asked, small, or fewer deals than the trials asked for.
#[test]
fn a_run_says_why_it_enumerates() {
    let plan = compiled(TALLIED);
    assert_eq!(run(&plan, 1, Some(1), 1).enumerated_because, Some(Enumerated::Asked));
    let auto = |trials: u64| {
        let opts = RunOptions { trials, item_limit: Some(1), ..RunOptions::default() };
        start(&plan, &opts).wait().enumerated_because
    };
    assert_eq!(auto(1000), Some(Enumerated::Small));
    // 2,970 deals with the nut functions' inner cost: over the evaluation threshold.
    let costly = compiled(
        "select count(nutHi(hero, flop)), avg(nutHiOuts(hero, flop)) from game='holdem', hero='AhKh', \
         villain='QQ', board='Qh7h2c'",
    );
    let opts = RunOptions { trials: 600_000, item_limit: Some(1), ..RunOptions::default() };
    assert_eq!(start(&costly, &opts).wait().enumerated_because, Some(Enumerated::FewerDealsThanTrials));
    let sampled = RunOptions { trials: 100, ..RunOptions::default() };
    assert_eq!(start(&costly, &sampled).wait().enumerated_because, None);
}
