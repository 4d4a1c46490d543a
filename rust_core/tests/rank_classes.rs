//! Exact razz by rank class (issue 16): fixed parts whose players hold the same ranks in the same
//! positions are one computation, counted for all of them; in stud hi and hi/lo, hands fixed by
//! rank are one computation per flush class. Checked against the plain listing of every fixed
//! part (forced by a where clause that reads the hands, so that the statement is not about the
//! showdown alone), on the seed's race, which is even both ways in razz, and in stud against a
//! Monte Carlo run.

use pql_core::deal::rank_classes::rank_class_prefixes;
use pql_core::plan::compile::compile_program;
use pql_core::run::runner::{start, Progress, RunOptions};
use std::sync::Arc;

fn exact(text: &str) -> Progress {
    let statements = compile_program(text).unwrap_or_else(|e| panic!("{text}: {e:?}"));
    let plan = Arc::new(statements[0].plan.clone());
    let opts = RunOptions { exact: Some(true), seed: Some(3), threads: 2, ..RunOptions::default() };
    let p = start(&plan, &opts).wait();
    assert!(p.error.is_none(), "{text}: {:?}", p.error);
    assert!(p.exact, "{text}");
    p
}

fn value(p: &Progress, i: usize) -> f64 {
    p.aggregates[i].estimate().unwrap().0
}

/// Clubs and diamonds dead: two suits a rank, so the plain listing stays small (and in stud,
/// flushes, five of seven cards in one of two suits, are common).
const TWO_SUITS: &str = "dead='AcAd2c2d3c3d4c4d5c5d6c6d7c7d8c8d9c9dTcTdJcJdQcQdKcKd'";

/// `select {selectors} {from}` counted by class gives what the plain listing gives, forced by
/// `always`, a where clause that reads the hands and always holds: the same deals and values.
fn same_as_the_plain_listing(selectors: &str, from: &str, always: &str) {
    let fast = exact(&format!("select {selectors} {from}"));
    let plain = exact(&format!("select {selectors} {from} where {always}"));
    assert_eq!((fast.attempted, fast.accepted), (plain.attempted, plain.accepted), "{from}");
    for i in 0..fast.aggregates.len() {
        assert!(
            (value(&fast, i) - value(&plain, i)).abs() < 1e-12,
            "{from}: {} vs {}",
            value(&fast, i),
            value(&plain, i)
        );
    }
}

#[test]
fn rank_classes_count_what_the_plain_listing_counts() {
    for (hero, villain) in [
        // Six cards each fixed by rank, the seventh dealt.
        ("A34567", "(3-2-)4567"),
        ("(5-5-)2349", "A(7-)K45Q"),
        ("(A-3-)9TJ8", "(2-4-)[5,6]T9Q"),
    ] {
        let from = format!("from game='razz', hero='{hero}', villain='{villain}', {TWO_SUITS}");
        same_as_the_plain_listing("avg(riverEquity(hero)), count(winsLo(villain))", &from, "not pocketPair(hero)");
    }
}

#[test]
fn the_seed_race_is_exact_and_even() {
    // docs/language/ranges.md, stud hands: (3-2-)45678 against A345678 is 50% both ways.
    let p = exact("select avg(riverEquity(hero)), avg(riverEquity(villain)) from game='razz', hero='A345678', villain='(3-2-)45678'");
    assert!((value(&p, 0) - 0.5).abs() < 1e-12 && (value(&p, 1) - 0.5).abs() < 1e-12);
    // 12^6 (16 + 12 + 16) suited pairs of hands: ranks both hold take two of four suits.
    assert_eq!(p.attempted, 131_383_296);
}

#[test]
fn stud_flush_classes_count_what_the_plain_listing_counts() {
    for game in ["studhi", "stud8"] {
        for players in [
            "hero='A345678', villain='(3-2-)45678'",
            "hero='AKQJ942', villain='KQJT853'",
            // Pairs: down (one hand whichever way round), and down and up (two hands).
            "hero='AAQJ942', villain='KQJT853'",
            "hero='(A-A-)QJ942', villain='KQKT853'",
            // Three hands, the third sharing the ace with the first and the deuce with the second.
            "hero='A345678', villain='(3-2-)45678', p3='AKQJT92'",
        ] {
            let from = format!("from game='{game}', {players}, {TWO_SUITS}");
            let selectors = "avg(riverEquity(hero)), count(winsHi(villain)), avg(riverEquity(villain))";
            // The fast path is taken: fewer representatives than fixed parts.
            let plan = compile_program(&format!("select {selectors} {from}")).unwrap().remove(0).plan;
            let classes = rank_class_prefixes(&plan.spec, 200_000).unwrap_or_else(|| panic!("{from}: by flush class"));
            assert!(classes.len() < plan.spec.prefix_bound() as usize, "{from}: {} classes", classes.len());
            // (Never both pocket pairs here.)
            same_as_the_plain_listing(selectors, &from, "not (pocketPair(hero) and pocketPair(villain))");
        }
    }
}

#[test]
fn a_stud_race_fixed_by_rank_is_exact_and_agrees_with_sampling() {
    let text = "select avg(riverEquity(hero)) from game='studhi', hero='A345678', villain='(3-2-)45678'";
    let p = exact(text);
    // Hero's seven ranks take any suits (4^7); the villain's deuce any of four, its six ranks
    // that hero also holds one of the three suits left each.
    assert_eq!(p.attempted, 4u64.pow(7) * 4 * 3u64.pow(6));
    let statements = compile_program(text).unwrap();
    let plan = Arc::new(statements[0].plan.clone());
    let opts = RunOptions { exact: Some(false), trials: 400_000, seed: Some(5), threads: 2, ..RunOptions::default() };
    let sampled = start(&plan, &opts).wait();
    let (mean, se) = sampled.aggregates[0].estimate().unwrap();
    assert!(!sampled.exact);
    assert!((value(&p, 0) - mean).abs() < 4.0 * se, "exact {} v sampled {mean} ± {se}", value(&p, 0));
}
