//! The Monte Carlo deal source is the statement's players', ranges' and board's, not its
//! selectors' (issue 22): a statement tallied by outcome (`riverEquity` alone) and one whose
//! selectors are evaluated deal by deal (`HvHEquity`) see the same deals for a seed, also where
//! ranges of a two-card game are drawn as one list of compatible hands (`deal::joint`); and the
//! answers stay within sampling error of the exact ones.

use pql_core::deal::source::MonteSource;
use pql_core::plan::compile::compile_program;
use pql_core::plan::Plan;
use pql_core::run::runner::{start, Progress, RunOptions};
use std::sync::Arc;

fn plan(text: &str) -> Arc<Plan> {
    let mut statements = compile_program(text).unwrap_or_else(|e| panic!("{text}: {e:?}"));
    Arc::new(statements.remove(0).plan)
}

fn run(text: &str, trials: u64, exact: bool, seed: u64, threads: usize) -> Progress {
    let opts = RunOptions { trials, seed: Some(seed), threads, exact: Some(exact), ..RunOptions::default() };
    let p = start(&plan(text), &opts).wait();
    assert!(p.error.is_none(), "{text}: {:?}", p.error);
    p
}

fn value(p: &Progress, i: usize) -> f64 {
    p.aggregates[i].estimate().map_or(f64::NAN, |e| e.0)
}

/// Tables whose deals come from the joint-list source.
const JOINT: [&str; 8] = [
    "game='holdem', p1='QQ+, AKs, AKo', p2='22+'",
    "game='holdem', p1='AK', p2='AQ'",
    "game='holdem', p1='*', p2='*'",
    "game='holdem', p1='AsAh', p2='*', p3='KK'",
    "game='holdem', p1='AhKh', p2='QQ', p3='JTs'",
    "game='shortdeck', p1='AK', p2='TT+', board='Ah7d6c'",
    "game='holdem', p1='AK@3, 22@1', p2='*', dead='Kd', board='Qh7d6c2s'",
    "game='holdem', p1='JJ+', p2='AK, AQ', p3='TT-77', p4='*'",
];

#[test]
fn ranges_and_random_hands_of_two_card_games_use_the_joint_source() {
    for table in JOINT {
        let p = plan(&format!("select avg(riverEquity(p1)) from {table}"));
        assert!(matches!(p.spec.monte_source(), MonteSource::Joint(_)), "{table}");
    }
    for (table, fixed) in [
        ("game='holdem', p1='AsAh', p2='KsKd'", true),
        ("game='omahahi', p1='AA**', p2='KK**'", false),
        ("game='holdem', p1='AK', p2='QQ', board='[8-9]****'", false),
    ] {
        let p = plan(&format!("select avg(riverEquity(p1)) from {table}"));
        let source = p.spec.monte_source();
        assert!(matches!(source, MonteSource::Fixed(_)) == fixed, "{table}");
        assert!(!matches!(source, MonteSource::Joint(_)), "{table}");
    }
}

#[test]
fn tallied_and_deal_by_deal_statements_see_the_same_deals() {
    // `riverEquity` alone is tallied by outcome; beside `HvHEquity` (the same value, computed
    // per deal) the statement is evaluated deal by deal. Same seed: the same deals, so the same
    // counts, on one thread and on two (and the same sums of equities, up to the order of the
    // additions where a pot is split three ways).
    for table in JOINT {
        for threads in [1, 2] {
            let tallied =
                run(&format!("select avg(riverEquity(p1)), count(winsHi(p2)) from {table}"), 20_000, false, 3, threads);
            let per_deal = run(
                &format!("select avg(riverEquity(p1)), count(winsHi(p2)), avg(HvHEquity(p1, river)) from {table}"),
                20_000,
                false,
                3,
                threads,
            );
            assert_eq!((tallied.accepted, tallied.attempted), (per_deal.accepted, per_deal.attempted), "{table}");
            assert!((value(&tallied, 0) - value(&per_deal, 0)).abs() < 1e-12, "{table}");
            assert_eq!(value(&tallied, 1), value(&per_deal, 1), "{table}");
            assert!((value(&per_deal, 0) - value(&per_deal, 2)).abs() < 1e-9, "{table}");
        }
    }
}

#[test]
fn joint_source_answers_are_within_sampling_error_of_the_exact_ones() {
    // Tallied and deal by deal against the exact tally; with a where clause (deal by deal, some
    // deals rejected) against the exact run of the same statement where that is small.
    for (table, small) in [(JOINT[0], false), (JOINT[1], false), (JOINT[4], false), (JOINT[5], true), (JOINT[6], true)]
    {
        let reference = value(&run(&format!("select avg(riverEquity(p1)) from {table}"), 1, true, 1, 2), 0);
        let mut cases = vec![("avg(riverEquity(p1))", "", reference), ("avg(HvHEquity(p1, river))", "", reference)];
        let clause = " where handType(p1, flop) >= pair";
        if small {
            let exact = run(&format!("select avg(riverEquity(p1)) from {table}{clause}"), 1, true, 1, 2);
            assert!(exact.exact, "{table}");
            cases.push(("avg(riverEquity(p1))", clause, value(&exact, 0)));
        }
        for (selectors, clause, want) in cases {
            let text = format!("select {selectors} from {table}{clause}");
            let sampled = run(&text, 200_000, false, 17, 2);
            let (got, se) = sampled.aggregates[0].estimate().unwrap();
            assert!((got - want).abs() < 4.5 * se, "{text}: {got} ± {se} vs exact {want}");
        }
    }
}
