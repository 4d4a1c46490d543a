//! A run cut into pieces that run anywhere (a cluster's tasks, `pql_repl.api.cluster`), and the
//! pieces merged back into the run. A piece is a Monte Carlo chunk or a work item of an
//! exhaustive run, named by its place: the chunk's number, the item's position in the seeded
//! order of items. A task runs a range of them ([`RunOptions::chunks`],
//! [`RunOptions::items`]) and keeps each one's aggregates apart; the client merges them in the
//! order a local run does, so the answer is a local run's to the last bit: a one-thread run's
//! for Monte Carlo, for an enumeration a run whose items were laid out for the same thread
//! count ([`ItemSpan::layout`]).

use super::cluster::ClusterSample;
use super::item_order::work_items;
use super::runner::{
    choose_mode, enumerated_because, never_held, overflow, Enumerated, FinishedItem, Mode, Progress, RunOptions, Work,
};
use crate::error::PqlError;
use crate::plan::Plan;
use crate::run::aggregate::Aggregate;
use std::time::Duration;

/// One chunk's or work item's own aggregates and counts.
#[derive(Clone, Debug)]
pub struct Piece {
    /// The chunk's number, or the item's position in the order.
    pub place: u64,
    pub accepted: u64,
    pub attempted: u64,
    pub aggregates: Vec<Aggregate>,
    /// Some function sampled inside a deal (see [`Progress::inner_sampled`]).
    pub inner_sampled: bool,
}

/// The work items at positions `lo..hi` of an exhaustive run's order, the items laid out as
/// a run on `layout` threads lays them out (the layout depends on the thread count, and every
/// task and the client must share one).
#[derive(Clone, Copy, Debug)]
pub struct ItemSpan {
    pub lo: u64,
    pub hi: u64,
    pub layout: usize,
}

/// What a client needs of an exhaustive run to cut it into tasks and to merge them.
#[derive(Clone, Copy, Debug)]
pub struct ExactLayout {
    /// Work items in the order.
    pub items: u64,
    /// Deals of the whole enumeration.
    pub deals: u64,
    pub because: Enumerated,
}

/// The layout of `plan`'s exhaustive run with `opts` and its items laid out for `layout`
/// threads; `None` when the run would be Monte Carlo.
pub fn exact_layout(plan: &Plan, opts: &RunOptions, layout: usize) -> Result<Option<ExactLayout>, PqlError> {
    let mode = choose_mode(plan, opts)?;
    let because = enumerated_because(plan, opts, &mode);
    let (Mode::Exact(prefixes, deals), Some(because)) = (mode, because) else {
        return Ok(None);
    };
    let work = Work::new(plan, prefixes);
    let items = work_items(&work.items, layout).len() as u64;
    Ok(Some(ExactLayout { items, deals: deals as u64, because }))
}

/// The result of a Monte Carlo run made of `pieces` (runs of some of its chunks, done
/// anywhere): their chunks merged in chunk order, as a one-thread run merges them, so the
/// answer is that run's to the last bit. The same checks end it: a histogram that overflowed,
/// a where clause that never held.
pub fn merge_chunks(plan: &Plan, mut pieces: Vec<Piece>, seed: u64, elapsed: Duration) -> Progress {
    pieces.sort_by_key(|p| p.place);
    pieces.dedup_by_key(|p| p.place); // a task run twice (its worker died) counts once
    let mut run = Progress { elapsed, done: true, fraction: 1.0, ..Progress::start(plan, seed) };
    for piece in &pieces {
        for (g, l) in run.aggregates.iter_mut().zip(&piece.aggregates) {
            g.merge(l);
        }
        run.accepted += piece.accepted;
        run.attempted += piece.attempted;
    }
    run.inner_sampled = pieces.iter().any(|p| p.inner_sampled);
    run.error = overflow(plan, &run.aggregates);
    if run.error.is_none() && run.accepted == 0 && run.attempted > 0 {
        run.error = Some(never_held(run.attempted));
    }
    run
}

/// The state of an exhaustive run of `layout` made of `pieces` (work items done anywhere):
/// the items from position 0 on, as far as none is missing, merged in order as a local run
/// merges them (so a complete run is the local run's answer to the last bit, and one cut
/// short is an estimate from the first items of the order, with its standard errors). `end`:
/// the run ends here (every task is in, or it is cancelled or out of time).
pub fn merge_items(
    plan: &Plan,
    layout: &ExactLayout,
    mut pieces: Vec<Piece>,
    seed: u64,
    elapsed: Duration,
    end: bool,
) -> Progress {
    pieces.sort_by_key(|p| p.place);
    pieces.dedup_by_key(|p| p.place);
    let mut run = Progress {
        exact: true,
        exhaustive: true,
        enumerated_because: Some(layout.because),
        total_deals: Some(layout.deals),
        sample: Some(ClusterSample::new(plan.selectors.len(), layout.items)),
        elapsed,
        done: end,
        ..Progress::start(plan, seed)
    };
    let finished: u64 = pieces.iter().map(|p| p.attempted).sum();
    run.fraction = finished as f64 / layout.deals.max(1) as f64;
    run.inner_sampled = pieces.iter().any(|p| p.inner_sampled);
    run.exact = !run.inner_sampled;
    for (position, piece) in (0u64..).zip(&pieces) {
        if piece.place != position {
            break;
        }
        let (accepted, attempted) = (piece.accepted, piece.attempted);
        run.count_item(&FinishedItem { aggregates: &piece.aggregates, accepted, attempted });
    }
    run.error = overflow(plan, &run.aggregates);
    if end && run.error.is_none() {
        run.close_enumeration();
        if run.accepted == 0 && run.attempted > 0 && run.sample.as_ref().is_some_and(ClusterSample::complete) {
            run.error = Some(never_held(run.attempted));
        }
    }
    run
}
