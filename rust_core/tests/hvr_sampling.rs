//! `HvREquity` sampled inside the deals of a Monte Carlo run (issue 16): an average of it alone
//! takes fewer inner samples (`cost::HVR_AVERAGED_SAMPLES`) and means the same; the inner
//! samples of a chunk are the chunk's own, so a seed gives the same answer whatever the thread
//! count or the parts a cluster cuts the run into.

use pql_core::plan::compile::compile_program;
use pql_core::plan::expr::{Builtin, Expr, HvrUse};
use pql_core::plan::Plan;
use pql_core::run::pieces::{merge_chunks, Piece};
use pql_core::run::runner::{monte_chunks, start, Progress, RunOptions};
use std::sync::Arc;
use std::time::Duration;

fn plan(text: &str) -> Arc<Plan> {
    let statements = compile_program(text).unwrap_or_else(|e| panic!("{e:?}"));
    Arc::new(statements[0].plan.clone())
}

/// The `averaged` flag of every `HvREquity`-like call in `e`.
fn averaged_flags(e: &Expr, out: &mut Vec<bool>) {
    match e {
        Expr::Call(b) => match &**b {
            Builtin::HvREquity(_, _, how) | Builtin::HvPerceivedRangeEquity(_, _, _, how) => out.push(how.averaged),
            _ => {}
        },
        Expr::Not(x) | Expr::Neg(x) => averaged_flags(x, out),
        Expr::And(a, b) | Expr::Or(a, b) | Expr::Cmp(_, a, b) | Expr::Arith(_, a, b) | Expr::Concat(a, b) => {
            averaged_flags(a, out);
            averaged_flags(b, out);
        }
        Expr::Case(arms, otherwise) => {
            for (c, v) in arms {
                averaged_flags(c, out);
                averaged_flags(v, out);
            }
            if let Some(o) = otherwise {
                averaged_flags(o, out);
            }
        }
        Expr::Const(_) => {}
    }
}

#[test]
fn only_an_avg_of_the_call_itself_is_averaged() {
    let p = plan(
        "select avg(HvREquity(hero, flop)), avg(HvREquity(hero, flop) + 0), count(HvREquity(hero, turn) > 0.5), \
         histogram(HvREquity(hero, river)), max(HvREquity(hero, flop)), count(minHvREquity(hero, flop, 0.5)), \
         avg(HvPerceivedRangeEquity(hero, flop, 'QQ+')), avg(case when HvREquity(hero, flop) > 0.5 then 1 else 0 end) \
         from game='omahahi', hero='AA**', villain='20%' where HvREquity(hero, flop) > 0.2",
    );
    let flags = |e: &Expr| {
        let mut out = Vec::new();
        averaged_flags(e, &mut out);
        out
    };
    let got: Vec<Vec<bool>> = p.selectors.iter().map(|s| flags(&s.expr)).collect();
    let want =
        vec![vec![true], vec![false], vec![false], vec![false], vec![false], vec![false], vec![true], vec![false]];
    assert_eq!(got, want);
    assert_eq!(flags(p.filter.as_ref().unwrap()), vec![false]);
    // The flag goes with the call only: p's hand repeating is judged as before.
    let fixed = plan("select avg(HvREquity(hero, flop)) from hero='AsAh', villain='20%', board='2c7d9h'");
    let Expr::Call(b) = &fixed.selectors[0].expr else { panic!("a call") };
    assert!(matches!(**b, Builtin::HvREquity(_, _, HvrUse { repeats: true, averaged: true })));
}

fn run(plan: &Arc<Plan>, opts: &RunOptions) -> Progress {
    let p = start(plan, opts).wait();
    assert!(p.error.is_none(), "{:?}", p.error);
    p
}

/// Sampled inner values drawn per chunk: one thread and three threads give the same answer (up
/// to the order in which the threads' chunks are summed), and a run cut into parts merged in
/// chunk order gives it to the last bit. (Every sampled inner value draws its stream the same
/// way; before, a worker's count of them ran on from chunk to chunk.)
#[test]
fn sampled_inner_values_are_the_same_whatever_the_threads_and_parts() {
    let plan = plan("select avg(HvREquity(hero, flop)) from game='omahahi', hero='AA**', villain='20%'");
    // Three chunks, the last one short.
    let trials = 8_300;
    assert_eq!(monte_chunks(trials), 3);
    let whole = RunOptions { trials, seed: Some(4), exact: Some(false), threads: 1, ..RunOptions::default() };
    let one = run(&plan, &whole);
    assert!(one.inner_sampled);
    let three = run(&plan, &RunOptions { threads: 3, ..whole.clone() });
    let (mean_one, se_one) = one.aggregates[0].estimate().unwrap();
    let (mean_three, se_three) = three.aggregates[0].estimate().unwrap();
    assert!((mean_one - mean_three).abs() < 1e-12 && (se_one - se_three).abs() < 1e-12, "{mean_one} v {mean_three}");
    let mut parts: Vec<Piece> = Vec::new();
    for (lo, hi) in [(2, 3), (0, 2)] {
        parts.extend(run(&plan, &RunOptions { chunks: Some((lo, hi)), threads: 2, ..whole.clone() }).pieces);
    }
    let merged = merge_chunks(&plan, parts, 4, Duration::ZERO);
    assert_eq!(format!("{:?}", merged.aggregates), format!("{:?}", one.aggregates));
}

/// Against two opponents' ranges with p's hand and the board fixed, `HvREquity` is the same
/// number in every deal (the opponents' cards are unknown to p) and too large to enumerate, so
/// all of a run's noise is the inner sampling: the averaged call (fewer samples a deal) and the
/// same call inside an expression (the full count) must agree within their errors, and the
/// averaged one must be the noisier.
#[test]
fn an_averaged_call_means_what_the_full_one_does() {
    let plan = plan(
        "select avg(HvREquity(hero, flop)), avg(HvREquity(hero, flop) + 0) from game='omahahi', \
         hero='AsKsQdJd', villain='20%', villain2='30%', board='Ts9d2c'",
    );
    let p = run(&plan, &RunOptions { trials: 1_000, seed: Some(11), exact: Some(false), ..RunOptions::default() });
    assert!(p.inner_sampled);
    let (averaged, se_a) = p.aggregates[0].estimate().unwrap();
    let (full, se_f) = p.aggregates[1].estimate().unwrap();
    assert!(
        (averaged - full).abs() < 4.0 * (se_a * se_a + se_f * se_f).sqrt(),
        "{averaged} ± {se_a} v {full} ± {se_f}"
    );
    // sqrt(2,000 / 50) ≈ 6.3 times the full count's error.
    assert!(se_a > 3.0 * se_f && se_a < 12.0 * se_f, "{se_a} v {se_f}");
}
