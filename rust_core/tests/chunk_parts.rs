//! A Monte Carlo run cut into runs of some of its chunks (a cluster's tasks, issue 17): each
//! chunk is dealt from its own stream whatever runs it, and the parts merged in chunk order are
//! the one-thread run to the last bit, whatever the parts' thread counts and the order they
//! arrive in.

use pql_core::plan::compile::compile_program;
use pql_core::run::runner::{merge_chunk_parts, monte_chunks, start, ChunkPart, RunOptions};
use std::sync::Arc;
use std::time::Duration;

const TEXT: &str = "select avg(riverEquity(hero)), count(winsHi(hero)), histogram(handType(hero, flop)), \
                    max(riverEquity(villain)) from hero='AKs, QQ', villain='22+, ATs+' \
                    where handType(hero, turn) >= pair";

#[test]
fn parts_merged_in_chunk_order_are_the_one_thread_run() {
    let statements = compile_program(TEXT).unwrap_or_else(|e| panic!("{e:?}"));
    let plan = Arc::new(statements[0].plan.clone());
    let trials = 50_000;
    let whole = RunOptions { trials, seed: Some(9), exact: Some(false), threads: 1, ..RunOptions::default() };
    let one_thread = start(&plan, &whole).wait();
    assert!(one_thread.error.is_none(), "{:?}", one_thread.error);

    let chunks = monte_chunks(trials);
    assert_eq!(chunks, 13);
    let mut parts: Vec<ChunkPart> = Vec::new();
    for (i, (lo, hi)) in [(5, 13), (0, 2), (2, 5)].into_iter().enumerate() {
        let opts = RunOptions { chunks: Some((lo, hi)), threads: 1 + i, ..whole.clone() };
        let p = start(&plan, &opts).wait();
        assert!(p.error.is_none(), "{:?}", p.error);
        let mut got: Vec<u64> = p.chunk_parts.iter().map(|c| c.chunk).collect();
        got.sort_unstable();
        assert_eq!(got, (lo..hi).collect::<Vec<_>>());
        parts.extend(p.chunk_parts);
    }
    // A task that ran twice (its worker died after finishing) counts once.
    parts.push(parts[0].clone());
    let merged = merge_chunk_parts(&plan, parts, 9, Duration::ZERO);
    assert!(merged.error.is_none(), "{:?}", merged.error);
    assert_eq!((merged.accepted, merged.attempted), (one_thread.accepted, one_thread.attempted));
    assert!(merged.attempted > merged.accepted, "the where clause rejects some deals");
    // Debug prints every float exactly (the shortest text that reads back to the same bits).
    assert_eq!(format!("{:?}", merged.aggregates), format!("{:?}", one_thread.aggregates));
}

#[test]
fn a_part_outside_the_run_has_no_chunks() {
    let statements = compile_program("select avg(riverEquity(hero)) from hero='AA', villain='KK'")
        .unwrap_or_else(|e| panic!("{e:?}"));
    let plan = Arc::new(statements[0].plan.clone());
    let opts =
        RunOptions { trials: 10_000, seed: Some(1), exact: Some(false), chunks: Some((3, 9)), ..RunOptions::default() };
    let p = start(&plan, &opts).wait();
    assert!(p.chunk_parts.is_empty());
    assert_eq!(p.accepted, 0);
}
