//! Runs cut into pieces (a cluster's tasks, issue 17). A Monte Carlo run cut into runs of some
//! of its chunks: each chunk is dealt from its own stream whatever runs it, and the pieces
//! merged in chunk order are the one-thread run to the last bit, whatever the pieces' thread
//! counts and the order they arrive in. An exhaustive run cut into runs of some of its work
//! items: merged in the order's order they are the local run laid out for as many threads.

use pql_core::plan::compile::compile_program;
use pql_core::plan::Plan;
use pql_core::run::pieces::{exact_layout, merge_chunks, merge_items, ItemSpan, Piece};
use pql_core::run::runner::{monte_chunks, start, RunOptions};
use std::sync::Arc;
use std::time::Duration;

fn plan_of(text: &str) -> Arc<Plan> {
    let statements = compile_program(text).unwrap_or_else(|e| panic!("{e:?}"));
    Arc::new(statements[0].plan.clone())
}

const TEXT: &str = "select avg(riverEquity(hero)), count(winsHi(hero)), histogram(handType(hero, flop)), \
                    max(riverEquity(villain)) from hero='AKs, QQ', villain='22+, ATs+' \
                    where handType(hero, turn) >= pair";

#[test]
fn parts_merged_in_chunk_order_are_the_one_thread_run() {
    let plan = plan_of(TEXT);
    let trials = 50_000;
    let whole = RunOptions { trials, seed: Some(9), exact: Some(false), threads: 1, ..RunOptions::default() };
    let one_thread = start(&plan, &whole).wait();
    assert!(one_thread.error.is_none(), "{:?}", one_thread.error);

    let chunks = monte_chunks(trials);
    assert_eq!(chunks, 13);
    let mut parts: Vec<Piece> = Vec::new();
    for (i, (lo, hi)) in [(5, 13), (0, 2), (2, 5)].into_iter().enumerate() {
        let opts = RunOptions { chunks: Some((lo, hi)), threads: 1 + i, ..whole.clone() };
        let p = start(&plan, &opts).wait();
        assert!(p.error.is_none(), "{:?}", p.error);
        let mut got: Vec<u64> = p.pieces.iter().map(|c| c.place).collect();
        got.sort_unstable();
        assert_eq!(got, (lo..hi).collect::<Vec<_>>());
        parts.extend(p.pieces);
    }
    // A task that ran twice (its worker died after finishing) counts once.
    parts.push(parts[0].clone());
    let merged = merge_chunks(&plan, parts, 9, Duration::ZERO);
    assert!(merged.error.is_none(), "{:?}", merged.error);
    assert_eq!((merged.accepted, merged.attempted), (one_thread.accepted, one_thread.attempted));
    assert!(merged.attempted > merged.accepted, "the where clause rejects some deals");
    // Debug prints every float exactly (the shortest text that reads back to the same bits).
    assert_eq!(format!("{:?}", merged.aggregates), format!("{:?}", one_thread.aggregates));
}

#[test]
fn a_part_outside_the_run_has_no_chunks() {
    let plan = plan_of("select avg(riverEquity(hero)) from hero='AA', villain='KK'");
    let opts =
        RunOptions { trials: 10_000, seed: Some(1), exact: Some(false), chunks: Some((3, 9)), ..RunOptions::default() };
    let p = start(&plan, &opts).wait();
    assert!(p.pieces.is_empty());
    assert_eq!(p.accepted, 0);
}

/// An enumeration with a where clause, several kinds of selector and more work items than
/// threads (a prefix per pair of hands, each split by turn card).
const EXACT: &str = "select avg(riverEquity(hero)), count(winsHi(hero)), histogram(handType(hero, river)) \
                     from hero='AKs, QQ', villain='JJ+, AQs+', board='Kd7h2c' \
                     where handType(hero, turn) >= twopair";

#[test]
fn items_merged_in_order_are_the_local_run_laid_out_alike() {
    let plan = plan_of(EXACT);
    let layout_threads = 2;
    let whole = RunOptions { seed: Some(5), exact: Some(true), threads: layout_threads, ..RunOptions::default() };
    let local = start(&plan, &whole).wait();
    assert!(local.error.is_none() && local.exact, "{:?}", local.error);
    let layout = exact_layout(&plan, &whole, layout_threads).unwrap().expect("an exhaustive run");
    assert_eq!(Some(layout.deals), local.total_deals);
    let items = layout.items;
    assert!(items >= 12, "{items} items");

    let spans = [(items / 2, items), (0, items / 3), (items / 3, items / 2)];
    let mut pieces: Vec<Piece> = Vec::new();
    for (i, (lo, hi)) in spans.into_iter().enumerate() {
        let opts =
            RunOptions { threads: 1 + i, items: Some(ItemSpan { lo, hi, layout: layout_threads }), ..whole.clone() };
        let p = start(&plan, &opts).wait();
        assert!(p.error.is_none(), "{:?}", p.error);
        let mut got: Vec<u64> = p.pieces.iter().map(|c| c.place).collect();
        got.sort_unstable();
        assert_eq!(got, (lo..hi).collect::<Vec<_>>());
        pieces.extend(p.pieces);
    }
    // A task run twice (its worker died after finishing) counts once.
    pieces.push(pieces[1].clone());
    let merged = merge_items(&plan, &layout, pieces, 5, Duration::ZERO, true);
    assert!(merged.error.is_none(), "{:?}", merged.error);
    assert!(merged.exact && merged.done && !merged.truncated);
    assert_eq!((merged.accepted, merged.attempted), (local.accepted, local.attempted));
    assert!(merged.attempted > merged.accepted, "the where clause rejects some deals");
    assert_eq!(merged.seed, None, "a whole enumeration has no seed");
    assert_eq!(merged.enumerated_because, local.enumerated_because);
    assert_eq!(format!("{:?}", merged.aggregates), format!("{:?}", local.aggregates));
}

/// Items missing from the order (a task not yet in, or never: cancelled) cut the merge at the
/// first gap, as a local run cut after as many items, with the same sample and errors.
#[test]
fn a_gap_in_the_items_cuts_the_run_there() {
    let plan = plan_of(EXACT);
    let whole = RunOptions { seed: Some(8), exact: Some(true), threads: 1, ..RunOptions::default() };
    let layout = exact_layout(&plan, &whole, 1).unwrap().expect("an exhaustive run");
    let cut = layout.items / 2;
    let mut pieces = Vec::new();
    for (lo, hi) in [(0, cut), (cut + 1, layout.items)] {
        let opts = RunOptions { items: Some(ItemSpan { lo, hi, layout: 1 }), ..whole.clone() };
        pieces.extend(start(&plan, &opts).wait().pieces);
    }
    let merged = merge_items(&plan, &layout, pieces.clone(), 8, Duration::ZERO, true);
    let limited = start(&plan, &RunOptions { item_limit: Some(cut), ..whole.clone() }).wait();
    assert!(merged.truncated && !merged.exact && limited.truncated);
    assert_eq!(merged.seed, Some(8));
    assert_eq!((merged.accepted, merged.attempted), (limited.accepted, limited.attempted));
    assert_eq!(format!("{:?}", merged.aggregates), format!("{:?}", limited.aggregates));
    assert_eq!(format!("{:?}", merged.sample), format!("{:?}", limited.sample));
    // Not yet the end: a snapshot, not a result.
    let snapshot = merge_items(&plan, &layout, pieces, 8, Duration::ZERO, false);
    assert!(!snapshot.done && !snapshot.truncated);
    assert!(snapshot.fraction > 0.5 && snapshot.fraction < 1.0, "{}", snapshot.fraction);
}

#[test]
fn a_statement_that_samples_has_no_items() {
    let plan = plan_of("select avg(riverEquity(hero)) from hero='*', villain='*'");
    let opts = RunOptions { seed: Some(1), exact: Some(false), ..RunOptions::default() };
    assert!(exact_layout(&plan, &opts, 2).unwrap().is_none());
    let span = RunOptions { items: Some(ItemSpan { lo: 0, hi: 3, layout: 2 }), ..opts };
    let p = start(&plan, &span).wait();
    assert!(p.error.is_some_and(|e| e.to_string().contains("samples")));
}
