//! Gaps found by the audit of issue 6, through the whole pipeline (PQL text, checker, planner,
//! runner): labels, razz rank order, outs before the flop, stud up cards, exact equities.

use pql_core::plan::compile::compile_program;
use pql_core::run::runner::{start, Progress, RunOptions};
use std::sync::Arc;

fn run_with(text: &str, trials: u64, exact: Option<bool>) -> Progress {
    let statements = compile_program(text).unwrap_or_else(|e| panic!("{text}: {e:?}"));
    let plan = Arc::new(statements[0].plan.clone());
    let opts = RunOptions { trials, seed: Some(5), threads: 2, exact, ..RunOptions::default() };
    let p = start(&plan, &opts).wait();
    assert!(p.error.is_none(), "{text}: {:?}", p.error);
    p
}

/// Every selector's value (avg, or count as a fraction) of the first statement.
fn values(text: &str, trials: u64) -> Vec<f64> {
    run_with(text, trials, None).aggregates.iter().map(|a| a.estimate().map_or(f64::NAN, |e| e.0)).collect()
}

/// The labels of a histogram selector (the first one), in order.
fn labels(text: &str, trials: u64) -> Vec<String> {
    run_with(text, trials, None).aggregates[0].buckets().into_iter().map(|b| b.0).collect()
}

fn type_error(text: &str) -> String {
    match compile_program(text) {
        Ok(_) => panic!("{text} should not check"),
        Err(errors) => errors.iter().map(|e| e.message.clone()).collect::<Vec<_>>().join("; "),
    }
}

#[test]
fn an_empty_rank_set_reads_none() {
    // Pocket aces on any flop: two distinct ranks at most in the hand, so no third.
    assert_eq!(
        labels(
            "select histogram(nthRank(3, handRanks(hero, flop))) from game='holdem', hero='AsAh', board='2c3d4h'",
            50
        ),
        ["none"]
    );
    assert_eq!(
        labels("select histogram(duplicatedHandRanks(hero, flop)) from game='holdem', hero='AsKh', board='2c3d4h'", 5),
        ["none"]
    );
}

#[test]
fn razz_ranks_put_the_ace_lowest() {
    let q = "from game='razz', hero='AsKd2c'";
    assert_eq!(labels(&format!("select histogram(maxRank(handRanks(hero, third))) {q}"), 10), ["K"]);
    assert_eq!(labels(&format!("select histogram(minRank(handRanks(hero, third))) {q}"), 10), ["A"]);
    assert_eq!(labels(&format!("select histogram(nthRank(2, handRanks(hero, third))) {q}"), 10), ["2"]);
    let v = values(
        &format!(
            "select count(minRank(handRanks(hero, third)) < toRank('2')), count(toRank('A') <= toRank('K')), \
             count(toRank('A') = toRank('A')) {q}"
        ),
        10,
    );
    assert_eq!(v, [1.0, 1.0, 1.0]);
    // Every other game keeps the ace high.
    let q = "from game='studhi', hero='AsKd2c'";
    assert_eq!(labels(&format!("select histogram(maxRank(handRanks(hero, third))) {q}"), 10), ["A"]);
    assert_eq!(labels(&format!("select histogram(minRank(handRanks(hero, third))) {q}"), 10), ["2"]);
    assert_eq!(values(&format!("select count(toRank('A') > toRank('K')) {q}"), 10), [1.0]);
}

#[test]
fn outs_before_the_flop_are_zero() {
    let v = values(
        "select avg(nutHiOuts(hero, preflop)), avg(outsToHandType(hero, preflop, flush)) \
         from game='holdem', hero='AsAh', villain='KK'",
        200,
    );
    assert_eq!(v, [0.0, 0.0]);
    let v = values("select avg(nutLoOuts(hero, preflop)) from game='omaha8', hero='As2d3c4h', villain='*'", 50);
    assert_eq!(v, [0.0]);
}

#[test]
fn up_cards_are_third_to_sixth_street() {
    let e = type_error("select histogram(upCard(hero, seventh)) from game='stud', hero='*'");
    assert!(e.contains("face down"), "{e}");
    // Sixth street is the last up card: the hand's sixth card.
    assert_eq!(labels("select histogram(upCard(hero, sixth)) from game='stud', hero='2c3c4c5c6c7c8c'", 5), ["7c"]);
    assert_eq!(labels("select histogram(upCard(hero, third)) from game='stud', hero='2c3c4c5c6c7c8c'", 5), ["4c"]);
}
