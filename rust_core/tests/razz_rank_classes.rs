//! Exact razz by rank class (issue 16): fixed parts whose players hold the same ranks in the same
//! positions are one computation, counted for all of them. Checked against the plain listing of
//! every fixed part (forced by a where clause that reads the hands, so that the statement is not
//! about the showdown alone), and on the seed's race, which is even both ways.

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

#[test]
fn rank_classes_count_what_the_plain_listing_counts() {
    // Clubs and diamonds dead: two suits a rank, so the plain listing stays small.
    let dead = "dead='AcAd2c2d3c3d4c4d5c5d6c6d7c7d8c8d9c9dTcTdJcJdQcQdKcKd'";
    for (hero, villain) in [
        // Six cards each fixed by rank, the seventh dealt.
        ("A34567", "(3-2-)4567"),
        ("(5-5-)2349", "A(7-)K45Q"),
        ("(A-3-)9TJ8", "(2-4-)[5,6]T9Q"),
    ] {
        let from = format!("from game='razz', hero='{hero}', villain='{villain}', {dead}");
        let fast = exact(&format!("select avg(riverEquity(hero)), count(winsLo(villain)) {from}"));
        let plain =
            exact(&format!("select avg(riverEquity(hero)), count(winsLo(villain)) {from} where not pocketPair(hero)"));
        assert_eq!((fast.attempted, fast.accepted), (plain.attempted, plain.accepted), "{from}");
        for i in 0..2 {
            assert!(
                (value(&fast, i) - value(&plain, i)).abs() < 1e-12,
                "{from}: {} vs {}",
                value(&fast, i),
                value(&plain, i)
            );
        }
    }
}

#[test]
fn the_seed_race_is_exact_and_even() {
    // PQL-SPEC 5.3: (3-2-)45678 against A345678 is 50% both ways.
    let p = exact("select avg(riverEquity(hero)), avg(riverEquity(villain)) from game='razz', hero='A345678', villain='(3-2-)45678'");
    assert!((value(&p, 0) - 0.5).abs() < 1e-12 && (value(&p, 1) - 0.5).abs() < 1e-12);
    // 12^6 (16 + 12 + 16) suited pairs of hands: ranks both hold take two of four suits.
    assert_eq!(p.attempted, 131_383_296);
}
