//! The where clause judged as soon as the cards it reads are dealt (issue 16): an exact run that
//! skips the completions of a rejected partial deal must count, accept and aggregate exactly what
//! the plain enumeration does, which judges every complete deal. The plain path is the same
//! statement with a clause that also reads the river (`and riverEquity(hero) >= 0`, always true).

use pql_core::plan::compile::compile_program;
use pql_core::rng::Rng;
use pql_core::run::runner::{start, Progress, RunOptions};
use std::sync::Arc;

fn exact(text: &str, threads: usize) -> Progress {
    let statements = compile_program(text).unwrap_or_else(|e| panic!("{text}: {e:?}"));
    let plan = Arc::new(statements[0].plan.clone());
    let opts = RunOptions { exact: Some(true), seed: Some(7), threads, ..RunOptions::default() };
    start(&plan, &opts).wait()
}

#[test]
fn early_judgement_counts_and_aggregates_what_the_plain_enumeration_does() {
    // (game, players and board) small enough to enumerate in full both ways.
    let tables = [
        "game='shortdeck', hero='AsKs', villain='QQ'",
        "game='shortdeck', hero='AK', villain='*', board='Qh7d6c'",
        "game='holdem', hero='AhKh', villain='QQ', dead='2c2d2h2s3c3d3h3s4c4d4h4s5c5d5h5s6c6d6h6s'",
        "game='holdem', hero='JT', villain='99', board='Ts8s3d'",
        "game='omahahi', hero='AsKsQdJd', villain='Th9h8c7c', dead='2c2d2h2s3c3d3h3s4c4d4h4s5c5d5h5s6c6d6h6s'",
        "game='omaha8', hero='As2d5h9c', villain='KQJT', board='3h7d9s'",
    ];

    // Clauses on the hands alone, on the flop, on the turn, and mixed.
    let clauses = [
        "pocketPair(villain)",
        "not pocketPair(villain) or pocketPair(hero)",
        "pairedBoard(flop)",
        "flushingBoard(flop) or handType(hero, flop) >= twopair",
        "handType(hero, turn) >= pair",
        "nutHi(hero, turn)",
        "hiRating(hero, flop) > hiRating(villain, flop)",
        "pairedBoard(turn) and not pocketPair(villain)",
    ];
    let mut rng = Rng::new(16, 1);
    let mut compared = 0;
    for table in tables {
        for _ in 0..3 {
            let clause = clauses[rng.below(clauses.len() as u64) as usize];
            let selectors = "avg(riverEquity(hero)), count(winsHi(villain)), avg(hvhEquity(hero, flop))";
            let fast = format!("select {selectors} from {table} where {clause}");
            let plain = format!("select {selectors} from {table} where ({clause}) and riverEquity(hero) >= 0");
            let threads = 1 + rng.below(2) as usize;
            let (a, b) = (exact(&fast, threads), exact(&plain, threads));
            // A clause that never holds is the same error both ways.
            assert_eq!(a.error.as_ref().map(|e| &e.message), b.error.as_ref().map(|e| &e.message), "{fast}");
            assert!(a.exact || a.error.is_some(), "{fast}");
            assert_eq!((a.attempted, a.accepted), (b.attempted, b.accepted), "{fast}");
            for (x, y) in a.aggregates.iter().zip(&b.aggregates) {
                let (x, y) = (x.estimate().map(|e| e.0), y.estimate().map(|e| e.0));
                match (x, y) {
                    (Some(x), Some(y)) => assert!((x - y).abs() < 1e-12, "{fast}: {x} vs {y}"),
                    _ => assert_eq!(x.is_some(), y.is_some(), "{fast}"),
                }
            }
            compared += usize::from(a.error.is_none());
        }
    }
    assert!(compared >= tables.len(), "{compared}");
}
