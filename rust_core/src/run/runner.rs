//! Runs a plan on all cores: Monte Carlo in fixed-size chunks (each with its own random stream,
//! so a seed gives the same answer whatever the thread count), or exhaustively in work items.
//! Workers merge their aggregates into a shared state that callers read as snapshots.

use super::aggregate::Aggregate;
use super::cluster::{ClusterSample, InOrder};
use super::item_order::{work_items, ItemClaims, ItemOrder};
use super::outcome::OutcomeTally;
use super::pieces::{ItemSpan, Piece};
use crate::deal::exhaustive::Prefix;
use crate::deal::joint::JointDraw;
use crate::deal::rank_classes::rank_class_prefixes;
use crate::deal::source::{FixedDeal, MonteSource};
use crate::deal::suit_classes::{suit_classes, SuitClass, SuitMap};
use crate::deal::{Deal, MAX_PLAYERS};
use crate::error::PqlError;
use crate::kernels::given_tally::GivenTally;
use crate::kernels::range_draws::RangeDraws;
use crate::plan::{Plan, SelectorKind};
use crate::rng::{Rng, WyRand};
use crate::trial::{Scratch, Trial};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// Monte Carlo trials per chunk: small enough for several snapshots a second and a prompt
/// cancel, large enough that merging costs nothing.
const CHUNK: u64 = 4096;
/// Deals tried before judging a where clause's acceptance rate.
const GUARD_ATTEMPTS: u64 = 2_000_000;
/// Below this acceptance rate after `GUARD_ATTEMPTS`, the run stops with an explanation.
const GUARD_RATE: f64 = 1e-5;
/// Below this acceptance rate, a run with no time limit is judged by the time it would take...
const PROJECTION_RATE: f64 = 0.1;
/// ... once it has run this long (the rate and the speed are known well enough by then) ...
const PROJECTION_AFTER: Duration = Duration::from_secs(1);
/// ... and stops with an explanation when the trials asked for would take longer than this.
const PROJECTED_LIMIT: Duration = Duration::from_mins(1);
/// Exhaustive runs are chosen automatically up to this many evaluations (deals × players).
pub const AUTO_EXACT_LIMIT: f64 = 1e8;
/// Steps of the search for one legal deal before a run starts (a few milliseconds at most).
const LEGAL_DEAL_SEARCH: usize = 2_000_000;
/// Forced exhaustive runs refuse beyond this.
pub const FORCED_EXACT_LIMIT: f64 = 2e11;

#[derive(Clone, Debug)]
pub struct RunOptions {
    pub trials: u64,
    pub seed: Option<u64>,
    pub exact: Option<bool>,
    pub threads: usize,
    pub time_limit: Option<Duration>,
    /// Stop once every avg/count standard error (and every histogram share's) is below this.
    pub precision: Option<f64>,
    /// Apply `precision` only while the run's projected length (elapsed over the share done)
    /// exceeds this: the REPLs' automatic precision, which leaves quick runs whole. A target so
    /// applied does not steer the choice of exhaustive runs and is never reported unreachable.
    pub precision_after: Option<Duration>,
    /// Exhaustive runs: stop after this many work items (a run cut short at a chosen point,
    /// for tests of what such a run reports).
    pub item_limit: Option<u64>,
    /// Monte Carlo: only chunks `lo..hi` of the run (each on its own stream, as in the whole
    /// run), each kept apart in [`Progress::pieces`]: a cluster task's share, which the
    /// client merges with the other tasks' in chunk order.
    pub chunks: Option<(u64, u64)>,
    /// Exhaustive: only some work items of the order, each kept apart in
    /// [`Progress::pieces`] (a cluster task's share, see `pieces.rs`).
    pub items: Option<ItemSpan>,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            trials: 600_000,
            seed: None,
            exact: None,
            threads: default_threads(),
            time_limit: None,
            precision: None,
            precision_after: None,
            item_limit: None,
            chunks: None,
            items: None,
        }
    }
}

/// The most worker threads a run starts, whatever it is asked for: far more than any machine
/// has cores, and few enough to spawn (`threads` comes from users).
pub const MAX_THREADS: usize = 1024;

pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
}

/// What a run has produced so far.
#[derive(Clone, Debug)]
pub struct Progress {
    pub aggregates: Vec<Aggregate>,
    /// Accepted trials (deals counted once each, also when weighted).
    pub accepted: u64,
    pub attempted: u64,
    pub exact: bool,
    pub seed: Option<u64>,
    pub elapsed: Duration,
    pub done: bool,
    /// Work finished as a fraction, for progress bars.
    pub fraction: f64,
    pub error: Option<PqlError>,
    /// Whether the run enumerates deals. Its work items go in a seeded random order, and only
    /// whole items, taken in that order, count: until it ends, and when it is cut short, the
    /// aggregates are those of a sample of the items (see `sample` for their errors).
    pub exhaustive: bool,
    /// Why an exhaustive run enumerates.
    pub enumerated_because: Option<Enumerated>,
    /// The items of an exhaustive run counted so far, with what their standard errors need.
    pub sample: Option<ClusterSample>,
    /// The deals of the whole enumeration, for exhaustive runs.
    pub total_deals: Option<u64>,
    /// Set when a time limit, an item limit or cancel cut an exhaustive run short: `exact` is
    /// then false, and the aggregates are estimates from a random sample of its work items.
    pub truncated: bool,
    /// Set when the run ended because `cancel()` was called.
    pub cancelled: bool,
    /// Set when a Monte Carlo run stopped before its trials because every selector reached
    /// the precision target.
    pub precision_reached: bool,
    /// Some function sampled inside a deal (an inner enumeration too large to do exactly, such
    /// as `HvREquity` against a wide range before the flop): an exhaustive run is then not
    /// exact.
    pub inner_sampled: bool,
    /// The chunks of a run of some chunks ([`RunOptions::chunks`]) or the work items of a run
    /// of some items ([`RunOptions::items`]), each on its own, in the order they ended.
    pub pieces: Vec<Piece>,
}

/// The chunks of a Monte Carlo run of `trials` trials: a run of some of them
/// ([`RunOptions::chunks`]) names them by their place among these.
pub fn monte_chunks(trials: u64) -> u64 {
    trials.div_ceil(CHUNK)
}

pub(super) fn never_held(attempted: u64) -> PqlError {
    PqlError::runtime(format!("no deal was accepted out of {attempted} tried: the where clause never held"))
}

struct Shared {
    state: Mutex<Progress>,
    changed: Condvar,
    /// Set by `cancel()`.
    cancel: AtomicBool,
    /// Set when the run must end early for another reason (time limit, a worker's error).
    stop: AtomicBool,
    /// Bumped on every merge so pollers can tell new data from old.
    version: AtomicU64,
    /// Pollers waiting for the next merge (not only for the end). Workers wake the condvar after
    /// a merge only when there is one: a wake-up is a system call, and at one per chunk it cost a
    /// sixth of a one-thread Monte Carlo run's time.
    eager_pollers: AtomicUsize,
    /// When the run started, for the elapsed time of partial snapshots.
    started: Instant,
    /// Items of an exhaustive run finished ahead of an earlier one, waiting for their turn to
    /// join the sample (locked before `state` when both are).
    in_order: Mutex<InOrder<(Vec<Aggregate>, FinishedItem<'static>)>>,
    /// Deals of the exhaustive run's finished items, waiting or counted, for the progress bar.
    deals_finished: AtomicU64,
    /// A run of some chunks or items (a cluster task): each is kept apart in `pieces`, and
    /// the whole run, which the client merges, is judged there (a task whose share of the
    /// deals all fail the where clause is no error).
    keep_pieces: bool,
}

/// One work item of an exhaustive run, enumerated to its end (a waiting one keeps its
/// aggregates beside it: most items go straight in and are not copied).
#[derive(Clone, Copy)]
pub(super) struct FinishedItem<'a> {
    pub aggregates: &'a [Aggregate],
    pub accepted: u64,
    pub attempted: u64,
}

impl Shared {
    fn halted(&self) -> bool {
        self.cancel.load(Ordering::Relaxed) || self.stop.load(Ordering::Relaxed)
    }

    /// After a merge into `state`: new data for pollers, and a wake-up for those waiting for it.
    /// (The version is bumped before the pollers are counted, and a poller counts itself before
    /// it reads the version: either it sees the new version or it is woken.)
    fn merged(&self) {
        self.version.fetch_add(1, Ordering::SeqCst);
        if self.eager_pollers.load(Ordering::SeqCst) > 0 {
            self.changed.notify_all();
        }
    }

    /// Counts a work item of an exhaustive run, enumerated to its end, into the sample when
    /// every earlier position of the order is in; until then it waits.
    /// The error when a histogram now holds more values than it may.
    fn item_finished(
        &self,
        plan: &Plan,
        position: u64,
        item: &FinishedItem<'_>,
        inner_sampled: bool,
    ) -> Option<PqlError> {
        let mut queue = self.in_order.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let finished = self.deals_finished.fetch_add(item.attempted, Ordering::Relaxed) + item.attempted;
        let mut st = self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if inner_sampled {
            st.inner_sampled = true;
            st.exact = false;
        }
        if self.keep_pieces {
            let aggregates = item.aggregates.to_vec();
            let (accepted, attempted) = (item.accepted, item.attempted);
            st.pieces.push(Piece { place: position, accepted, attempted, aggregates, inner_sampled });
        }
        if queue.is_next(position) {
            st.count_item(item);
            for waiting in queue.took(position) {
                st.count_item(&FinishedItem { aggregates: &waiting.0, ..waiting.1 });
            }
        } else {
            queue.wait(position, (item.aggregates.to_vec(), FinishedItem { aggregates: &[], ..*item }));
        }
        st.fraction = st.total_deals.map_or(1.0, |total| finished as f64 / total.max(1) as f64);
        let failed = overflow(plan, &st.aggregates);
        drop(st);
        drop(queue);
        self.merged();
        failed
    }
}

impl Progress {
    /// A run of `plan` with `seed` before any deal. (An exhaustive run's seed orders its work
    /// items; it is reported while the run is a sample of them, dropped once it is complete.)
    pub(super) fn start(plan: &Plan, seed: u64) -> Progress {
        Progress {
            aggregates: plan.new_aggregates(),
            accepted: 0,
            attempted: 0,
            exact: false,
            exhaustive: false,
            enumerated_because: None,
            sample: None,
            total_deals: None,
            seed: Some(seed),
            elapsed: Duration::ZERO,
            done: false,
            fraction: 0.0,
            error: None,
            truncated: false,
            cancelled: false,
            precision_reached: false,
            inner_sampled: false,
            pieces: Vec::new(),
        }
    }

    /// An exhaustive run ending: exact when every item is in, else an estimate from the
    /// sample of items it has.
    pub(super) fn close_enumeration(&mut self) {
        if self.sample.as_ref().is_some_and(ClusterSample::complete) {
            self.fraction = 1.0;
            // The whole enumeration: the order of its items changes nothing.
            self.seed = None;
        } else {
            self.truncated = true;
            self.exact = false;
        }
    }

    /// Adds a finished work item of an exhaustive run to the totals and to the sample.
    pub(super) fn count_item(&mut self, item: &FinishedItem<'_>) {
        for (g, l) in self.aggregates.iter_mut().zip(item.aggregates) {
            g.merge(l);
        }
        if let Some(sample) = &mut self.sample {
            sample.add_item(item.aggregates);
        }
        self.accepted += item.accepted;
        self.attempted += item.attempted;
    }
}

/// A run in the background; poll it for snapshots, cancel it from any thread.
pub struct RunHandle {
    shared: Arc<Shared>,
    threads: Vec<std::thread::JoinHandle<()>>,
    seen: u64,
}

impl RunHandle {
    /// Waits up to `timeout` for news; returns a snapshot when there is new data or the run has
    /// ended, `None` on timeout without news.
    pub fn poll(&mut self, timeout: Duration) -> Option<Progress> {
        self.poll_for(timeout, false)
    }

    /// As [`RunHandle::poll`], but with `until_end` it sleeps through the news until the run
    /// ends or `timeout` passes, then returns the latest snapshot (if anything changed): for a
    /// reader that wants a snapshot every so often, not one per chunk of work.
    pub fn poll_for(&mut self, timeout: Duration, until_end: bool) -> Option<Progress> {
        let shared = &self.shared;
        let seen = self.seen;
        let fresh = |p: &Progress| p.done || shared.version.load(Ordering::Acquire) != seen;
        let wake = |p: &Progress| if until_end { p.done } else { fresh(p) };
        if !until_end {
            shared.eager_pollers.fetch_add(1, Ordering::SeqCst);
        }
        let guard = shared.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let guard = if wake(&guard) {
            guard
        } else {
            shared
                .changed
                .wait_timeout_while(guard, timeout, |p| !wake(p))
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .0
        };
        if !until_end {
            shared.eager_pollers.fetch_sub(1, Ordering::SeqCst);
        }
        if !fresh(&guard) {
            return None;
        }
        self.seen = shared.version.load(Ordering::Acquire);
        let mut snap = guard.clone();
        drop(guard);
        if !snap.done {
            snap.elapsed = shared.started.elapsed();
        }
        if snap.done {
            for t in self.threads.drain(..) {
                let _ = t.join();
            }
        }
        Some(snap)
    }

    pub fn cancel(&self) {
        self.shared.cancel.store(true, Ordering::Release);
    }

    /// Blocks until the end; the final progress.
    pub fn wait(mut self) -> Progress {
        loop {
            if let Some(p) = self.poll_for(Duration::from_millis(200), true) {
                if p.done {
                    return p;
                }
            }
        }
    }
}

impl Drop for RunHandle {
    /// A run nobody can poll or cancel any more (an abandoned stream, an interrupted caller)
    /// stops instead of computing on in the background.
    fn drop(&mut self) {
        self.cancel();
    }
}

/// How a plan will be run.
pub enum Mode {
    Monte,
    /// Every deal of these fixed parts, `deals` in all.
    Exact(Vec<Prefix>, f64),
}

/// Evaluations a second per worker thread assumed when judging whether an exhaustive run fits
/// a time limit: a low figure (Omaha and per-deal selectors on a loaded machine), so that an
/// enumeration is chosen only when it surely finishes.
const ASSUMED_EVALUATIONS_PER_THREAD_SECOND: f64 = 2e6;
/// An automatic exhaustive run under a time limit must be expected to take at most this share
/// of it: one cut short is an estimate from a sample of its work items, less precise than the
/// Monte Carlo run the time would have allowed.
const TIME_LIMIT_SHARE: f64 = 1.0 / 3.0;

/// Chooses Monte Carlo or exhaustive enumeration: exhaustive when asked, or automatically when
/// it is small (under `AUTO_EXACT_LIMIT` evaluations) or no more work than the Monte Carlo run
/// asked for (no more deals than trials: a trial costs what a deal does), and under a time
/// limit only when it is expected to end well within it. Errors when exhaustive is forced on
/// something too large, or when nothing can be dealt.
pub fn choose_mode(plan: &Plan, opts: &RunOptions) -> Result<Mode, PqlError> {
    let exact = opts.exact;
    // The checker refuses an eleventh player; plans built by hand are checked here.
    if plan.spec.players.len() > MAX_PLAYERS {
        return Err(PqlError::runtime(format!(
            "too many players: {} (at most {MAX_PLAYERS} can be seated)",
            plan.spec.players.len()
        )));
    }
    // Ranges that can never be dealt together are an error before any trial, also when the
    // enumeration of fixed parts below would be too big to find that out.
    if plan.spec.has_legal_deal(LEGAL_DEAL_SEARCH) == Some(false) {
        return Err(no_legal_deal());
    }
    if exact == Some(false) {
        return Ok(Mode::Monte);
    }
    let limit = if exact == Some(true) { FORCED_PREFIXES } else { 200_000 };
    // Razz (and stud hands fixed by rank) about the showdown alone: fixed parts counted by class.
    let by_rank = if plan.tallies_by_outcome() { rank_class_prefixes(&plan.spec, 200_000) } else { None };
    if let Some(prefixes) = by_rank {
        if prefixes.is_empty() {
            return Err(no_legal_deal());
        }
        return Ok(decide_exact(plan, opts, prefixes)?.unwrap_or(Mode::Monte));
    }
    if exact == Some(true) && plan.spec.prefix_bound() > limit as f64 {
        // Too many fixed parts to list quickly: judged from an estimate before listing any.
        let mut rng = Rng::new(0x5123, 0);
        if let Some((fixed, deals)) = plan.spec.estimated_deals(4096, &mut rng) {
            let evaluations = forced_evaluations(plan, deals);
            let with_inner = deals * plan.spec.players.len() as f64 * plan.inner_cost;
            // (Well beyond the listing's bound, the listing would fail after seconds.)
            if evaluations > forced_limit(plan, opts) || with_inner > FORCED_EXACT_LIMIT {
                return Err(too_large(deals, evaluations, true));
            }
            if fixed > 1.5 * limit as f64 {
                return Err(PqlError::runtime(format!(
                    "too large to enumerate exactly: about {deals:.3e} deals, from about {fixed:.3e} combinations of \
                     the players' ranges (at most {limit} can be listed)"
                ))
                .with_hint("run without --exact for a Monte Carlo answer"));
            }
        }
    }
    let Some(prefixes) = plan.spec.prefixes(limit) else {
        if exact == Some(true) {
            return Err(PqlError::runtime(format!(
                "too large to enumerate exactly: the players' ranges combine into more than {limit} fixed deals"
            ))
            .with_hint("run without --exact for a Monte Carlo answer"));
        }
        return Ok(Mode::Monte);
    };
    if prefixes.is_empty() {
        return Err(no_legal_deal());
    }
    Ok(decide_exact(plan, opts, prefixes)?.unwrap_or(Mode::Monte))
}

/// Deals of `prefixes` as visited (each once) and as counted (each `copies` times).
fn deals_of(plan: &Plan, prefixes: &[Prefix]) -> (f64, f64) {
    prefixes.iter().fold((0.0, 0.0), |(visited, counted), p| {
        let n = plan.spec.completions(p);
        (visited + n, counted + n * p.copies as f64)
    })
}

/// Exhaustive enumeration of `prefixes` when asked for (unless hopeless) or when it pays;
/// `None`: Monte Carlo.
fn decide_exact(plan: &Plan, opts: &RunOptions, prefixes: Vec<Prefix>) -> Result<Option<Mode>, PqlError> {
    let (visited, deals) = deals_of(plan, &prefixes);
    let evaluations = visited * plan.spec.players.len() as f64 * plan.inner_cost;
    if opts.exact == Some(true) {
        let weighted = forced_evaluations(plan, visited);
        if weighted > forced_limit(plan, opts) {
            return Err(too_large(deals, weighted, false));
        }
        if evaluations > FORCED_EXACT_LIMIT {
            return Err(too_large(deals, evaluations, false));
        }
        return Ok(Some(Mode::Exact(prefixes, deals)));
    }
    let cheaper = auto_reason(plan, opts, deals, visited).is_some();
    let fits = opts.time_limit.is_none_or(|limit| {
        let threads = opts.threads.clamp(1, MAX_THREADS) as f64;
        evaluations / (ASSUMED_EVALUATIONS_PER_THREAD_SECOND * threads) <= TIME_LIMIT_SHARE * limit.as_secs_f64()
    });
    Ok((cheaper && fits).then_some(Mode::Exact(prefixes, deals)))
}

/// Fixed parts a forced exhaustive run lists at most (about a second's work).
const FORCED_PREFIXES: usize = 5_000_000;
/// Evaluations (see [`forced_evaluations`]) beyond which a forced exhaustive run with no time
/// limit is refused: at the tens of millions of showdowns a second two cores do, minutes.
pub const FORCED_PROJECTED_LIMIT: f64 = 1e10;

/// The work of enumerating `deals` deals of `plan` in showdown-sized evaluations: a deal costs
/// one per player, an Omaha hand rates sixty hole-and-board choices (counted as four), a hi/lo
/// showdown rates both halves. (Inner enumerations are left out: they are mostly kept across
/// deals; [`FORCED_EXACT_LIMIT`] bounds them.)
fn forced_evaluations(plan: &Plan, deals: f64) -> f64 {
    let game = plan.spec.game;
    let per_hand = match game.hole_cards() {
        2 | 3 | 7 => 1.0,
        4 => 4.0,
        _ => 10.0,
    };
    let halves = if game.has_lo() { 1.5 } else { 1.0 };
    deals * plan.spec.players.len() as f64 * per_hand * halves
}

/// The most evaluations a forced exhaustive run may take: [`FORCED_PROJECTED_LIMIT`], or the
/// old bound [`FORCED_EXACT_LIMIT`] where most deals are counted rather than visited (showdown
/// tallies of given hold'em hands, by board rank multiset) or where a time limit cuts a long
/// run short into an estimate.
fn forced_limit(plan: &Plan, opts: &RunOptions) -> f64 {
    let counted = plan.tallies_by_outcome() && plan.spec.tallies_boards_by_rank();
    if counted || opts.time_limit.is_some() {
        FORCED_EXACT_LIMIT
    } else {
        FORCED_PROJECTED_LIMIT
    }
}

fn too_large(deals: f64, evaluations: f64, estimated: bool) -> PqlError {
    let about = if estimated { "about " } else { "" };
    PqlError::runtime(format!(
        "too large to enumerate exactly: {about}{deals:.3e} deals ({about}{evaluations:.3e} evaluations; \
         at most {FORCED_PROJECTED_LIMIT:.0e} without a time limit)"
    ))
    .with_hint("run without --exact for a Monte Carlo answer, or give a time limit for an estimate from part of it")
}

/// Why an exhaustive run enumerates rather than samples.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Enumerated {
    /// Asked for (`exact`).
    Asked,
    /// Small: under `AUTO_EXACT_LIMIT` evaluations.
    Small,
    /// The trials asked for are at least as many as there are deals (a trial costs what a
    /// deal does, so enumerating is no more work and exact).
    FewerDealsThanTrials,
}

impl Enumerated {
    pub fn name(self) -> &'static str {
        match self {
            Enumerated::Asked => "asked",
            Enumerated::Small => "small",
            Enumerated::FewerDealsThanTrials => "fewer deals than trials",
        }
    }

    pub fn from_name(name: &str) -> Option<Enumerated> {
        [Enumerated::Asked, Enumerated::Small, Enumerated::FewerDealsThanTrials].into_iter().find(|e| e.name() == name)
    }
}

/// Why an automatic run would rather enumerate `deals` deals than sample; `None`: sample.
/// (`deals` as counted, `visited` as enumerated: fewer when razz fixed parts are counted by
/// rank class.)
fn auto_reason(plan: &Plan, opts: &RunOptions, deals: f64, visited: f64) -> Option<Enumerated> {
    let evaluations = visited * plan.spec.players.len() as f64 * plan.inner_cost;
    if evaluations <= AUTO_EXACT_LIMIT {
        Some(Enumerated::Small)
    } else if (opts.precision.is_none() || opts.precision_after.is_some()) && deals <= opts.trials as f64 {
        // (A precision target may stop Monte Carlo long before its trials are done.)
        Some(Enumerated::FewerDealsThanTrials)
    } else {
        None
    }
}

fn no_legal_deal() -> PqlError {
    PqlError::runtime("no legal deal: the players' ranges, the board and the dead cards always share a card")
        .with_hint("check the ranges for conflicting cards")
}

/// Starts a run of `plan` in background threads.
pub fn start(plan: &Arc<Plan>, opts: &RunOptions) -> RunHandle {
    let seed = opts.seed.unwrap_or_else(fresh_seed);
    let started = Instant::now();
    let mode = choose_mode(plan, opts);
    let (exact, total_deals) = match &mode {
        Ok(Mode::Exact(_, deals)) => (true, Some(*deals as u64)),
        _ => (false, None),
    };
    let enumerated_because = mode.as_ref().ok().and_then(|m| enumerated_because(plan, opts, m));
    let shared = Arc::new(Shared {
        state: Mutex::new(Progress {
            exact,
            exhaustive: exact,
            enumerated_because,
            total_deals,
            ..Progress::start(plan, seed)
        }),
        changed: Condvar::new(),
        cancel: AtomicBool::new(false),
        stop: AtomicBool::new(false),
        version: AtomicU64::new(0),
        eager_pollers: AtomicUsize::new(0),
        started,
        in_order: Mutex::new(InOrder::starting_at(opts.items.map_or(0, |span| span.lo))),
        deals_finished: AtomicU64::new(0),
        keep_pieces: opts.chunks.is_some() || opts.items.is_some(),
    });
    let mode = match mode {
        Ok(Mode::Monte) if opts.items.is_some() => {
            let e = PqlError::runtime("the work items of a run that samples: the statement runs by Monte Carlo here");
            finish(&shared, started, Some(e));
            return RunHandle { shared, threads: Vec::new(), seen: 0 };
        }
        Ok(m) => m,
        Err(e) => {
            finish(&shared, started, Some(e));
            return RunHandle { shared, threads: Vec::new(), seen: 0 };
        }
    };
    let threads = opts.threads.clamp(1, MAX_THREADS);
    let deadline = opts.time_limit.map(|t| started + t);
    let live = Arc::new(AtomicUsize::new(threads));
    let mut handles = Vec::with_capacity(threads);
    match mode {
        Mode::Monte => {
            let all = monte_chunks(opts.trials);
            let (first, chunks) = opts.chunks.map_or((0, all), |(lo, hi)| (lo.min(all), hi.clamp(lo.min(all), all)));
            let part = Part { first, keep: opts.chunks.is_some() };
            let next = Arc::new(AtomicU64::new(first));
            let guard = Arc::new(Guard::default());
            for _ in 0..threads {
                let (this_run, this_live) = (shared.clone(), live.clone());
                let (plan, shared, next, live, guard) =
                    (plan.clone(), shared.clone(), next.clone(), live.clone(), guard.clone());
                let trials = opts.trials;
                let precision = opts.precision.map(|target| Precision { target, after: opts.precision_after });
                spawn_worker(&mut handles, &this_run, &this_live, started, move || {
                    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        monte_worker(&plan, &shared, &next, &guard, chunks, part, trials, seed, deadline, precision)
                    }));
                    let err = match result {
                        Ok(r) => r.err(),
                        Err(panic) => Some(internal_error("sampling", panic.as_ref())),
                    };
                    worker_done(&shared, &live, started, err.as_ref());
                });
            }
        }
        Mode::Exact(prefixes, _) => {
            let work = Work::new(plan, prefixes);
            // The work items in a seeded random order, so that those done first are a sample.
            // (A cluster task lays them out as its client did, for the client's thread count.)
            let units = work_items(&work.items, opts.items.map_or(threads, |span| span.layout));
            shared.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner).sample =
                Some(ClusterSample::new(plan.selectors.len(), units.len() as u64));
            let order = ItemOrder::new(units.len() as u64, seed);
            let claims = match opts.items {
                Some(span) => ItemClaims::span(order, units, span.lo..span.hi),
                None => ItemClaims::new(order, units, opts.item_limit),
            };
            let (claims, work) = (Arc::new(claims), Arc::new(work));
            for _ in 0..threads {
                let (this_run, this_live) = (shared.clone(), live.clone());
                let (plan, shared, claims, live, work) =
                    (plan.clone(), shared.clone(), claims.clone(), live.clone(), work.clone());
                spawn_worker(&mut handles, &this_run, &this_live, started, move || {
                    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        exact_worker(&plan, &shared, &claims, &work, deadline)
                    }));
                    let err = match result {
                        Ok(r) => r.err(),
                        Err(panic) => Some(internal_error("enumerating", panic.as_ref())),
                    };
                    worker_done(&shared, &live, started, err.as_ref());
                });
            }
        }
    }
    RunHandle { shared, threads: handles, seen: 0 }
}

/// Worker threads are named with this prefix (so a panic hook can tell them apart).
pub const WORKER_THREAD_PREFIX: &str = "pql-";

/// Starts one worker thread. When the system refuses a thread the run goes on with those it
/// has (the work is shared out dynamically); with none at all it ends with an error.
fn spawn_worker(
    handles: &mut Vec<std::thread::JoinHandle<()>>,
    shared: &Arc<Shared>,
    live: &AtomicUsize,
    started: Instant,
    work: impl FnOnce() + Send + 'static,
) {
    let name = format!("{WORKER_THREAD_PREFIX}worker-{}", handles.len());
    match std::thread::Builder::new().name(name).spawn(work) {
        Ok(h) => handles.push(h),
        Err(e) => {
            let err = handles.is_empty().then(|| PqlError::runtime(format!("cannot start a worker thread: {e}")));
            if err.is_some() {
                shared.stop.store(true, Ordering::Release);
            }
            worker_done(shared, live, started, err.as_ref());
        }
    }
}

/// The text of a panic's payload.
pub fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_string()))
        .unwrap_or_else(|| "unknown panic".into())
}

fn internal_error(doing: &str, panic: &(dyn std::any::Any + Send)) -> PqlError {
    PqlError::runtime(format!("internal error while {doing}: {}", panic_message(panic)))
}

/// The bits of a seed pql chooses itself (`fresh_seed`): 53, so that every reader of a result
/// keeps it exact, a float (pandas reads a CSV column with gaps as floats) or a JavaScript
/// number (JSON). A seed given to pql may have all 64.
pub const FRESH_SEED_BITS: u32 = 53;

/// A seed for a run given none: the clock and the process id, in `FRESH_SEED_BITS` bits.
pub fn fresh_seed() -> u64 {
    let t = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    let mixed = (t.as_nanos() as u64) ^ (u64::from(std::process::id()) << 32);
    mixed & ((1u64 << FRESH_SEED_BITS) - 1)
}

fn worker_done(shared: &Shared, live: &AtomicUsize, started: Instant, err: Option<&PqlError>) {
    if let Some(e) = &err {
        // One worker's failure ends the run for all.
        shared.stop.store(true, Ordering::Release);
        let mut st = shared.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if st.error.is_none() {
            st.error = Some((*e).clone());
        }
    }
    if live.fetch_sub(1, Ordering::AcqRel) == 1 {
        finish(shared, started, None);
    }
}

fn finish(shared: &Shared, started: Instant, err: Option<PqlError>) {
    let mut st = shared.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if st.error.is_none() {
        st.error = err;
    }
    let cancelled = shared.cancel.load(Ordering::Acquire);
    let stopped = cancelled || shared.stop.load(Ordering::Acquire);
    st.cancelled = cancelled;
    if st.error.is_none() && st.exhaustive {
        st.close_enumeration();
    }
    if st.error.is_none() && st.accepted == 0 && st.attempted > 0 && !stopped && !shared.keep_pieces {
        st.error = Some(never_held(st.attempted));
    }
    st.elapsed = started.elapsed();
    st.done = true;
    shared.version.fetch_add(1, Ordering::AcqRel);
    drop(st);
    shared.changed.notify_all();
}

/// Where a Monte Carlo run's chunks start, and whether each is kept apart (a run of some
/// chunks, [`RunOptions::chunks`]).
#[derive(Clone, Copy)]
struct Part {
    first: u64,
    keep: bool,
}

#[allow(clippy::too_many_arguments)]
fn monte_worker(
    plan: &Plan,
    shared: &Shared,
    next: &AtomicU64,
    guard: &Guard,
    chunks: u64,
    part: Part,
    trials: u64,
    seed: u64,
    deadline: Option<Instant>,
    precision: Option<Precision>,
) -> Result<(), PqlError> {
    // The spec's own way of dealing, whatever the selectors: given hands by a partial shuffle of
    // the cards left, two-card games' ranges and random hands by `JointDeal`.
    let (mut fixed, joint) = match plan.spec.monte_source() {
        MonteSource::Fixed(f) => (Some(*f), None),
        MonteSource::Joint(j) => (None, Some(j)),
        MonteSource::Rejection => (None, None),
    };
    let mut deal = match (&fixed, &joint) {
        (Some(f), _) => f.start(),
        (_, Some(j)) => j.start(),
        _ => Deal::new(plan.spec.game, plan.spec.players.len()),
    };
    let mut draw = JointDraw::default();
    let mut local = plan.new_aggregates();
    let mut scratch = Scratch::default();
    scratch.outer_sampled = true;
    // Without a where clause every sampled deal is a trial, so showdown-only statements can
    // be tallied by outcome and replayed at the end of each chunk.
    let mut tally = (plan.filter.is_none() && plan.tallies_by_outcome())
        .then(|| OutcomeTally::new(plan.spec.game, plan.spec.players.len()));
    // Given hands of a seven-card game in such a statement: the showdown tally's own loop does
    // the whole chunk.
    let mut given = match (&tally, &fixed) {
        (Some(_), Some(f)) => f.given_tally(),
        _ => None,
    };
    // Ranges and random hands of a two-card game in such a statement: the same deals, rated
    // from summed card keys.
    let mut ranged = match (&tally, &joint) {
        (Some(_), Some(j)) => RangeDraws::new(j),
        _ => None,
    };
    let check_every = plan.check_interval();
    let mut until_check = check_every;
    loop {
        if shared.halted() || deadline.is_some_and(|d| Instant::now() >= d) {
            return Ok(());
        }
        let chunk = next.fetch_add(1, Ordering::Relaxed);
        if chunk >= chunks {
            return Ok(());
        }
        let want = CHUNK.min(trials - chunk * CHUNK);
        let mut rng = Rng::new(seed, chunk);
        scratch.begin_unit(seed, chunk);
        if let Some(f) = &mut fixed {
            f.restart();
        }
        // The joint source's generator, seeded from the chunk's (for every path alike).
        let mut fast = WyRand::new(if joint.is_some() { rng.next_u64() } else { 0 });
        let (mut accepted, mut attempted) = (0u64, 0u64);
        // (attempted, accepted) of this chunk already counted by the guard.
        let mut reported = (0u64, 0u64);
        for a in &mut local {
            a.reset();
        }
        if let (Some(given), Some(f), Some(tally)) = (&mut given, &fixed, &mut tally) {
            accepted = tally_given(given, f, tally, &mut deal, &mut rng, want, shared, deadline);
            attempted = accepted;
        } else if let (Some(ranged), Some(tally)) = (&mut ranged, &mut tally) {
            accepted = tally_ranged(ranged, tally, &mut deal, &mut fast, want, shared, deadline);
            attempted = accepted;
        } else {
            while accepted < want {
                attempted += 1;
                if attempted % 65_536 == 0 {
                    if shared.halted() {
                        return Ok(());
                    }
                    guard.add(attempted - reported.0, accepted - reported.1);
                    reported = (attempted, accepted);
                    guard.check(shared, trials, deadline.is_none() && precision.is_none())?;
                }
                until_check -= 1;
                if until_check == 0 {
                    // Expensive trials (inner enumerations) would make a whole chunk outlast a
                    // cancel or a time limit: look at both as often as the cost calls for.
                    until_check = check_every;
                    if shared.cancel.load(Ordering::Relaxed) {
                        return Ok(());
                    }
                    if deadline.is_some_and(|d| Instant::now() >= d) {
                        shared.stop.store(true, Ordering::Release);
                        // This attempt is not made: a count one too high read as a rejected deal.
                        attempted -= 1;
                        break;
                    }
                }
                if let Some(f) = &mut fixed {
                    f.sample(&mut rng, &mut deal);
                } else if let Some(j) = &joint {
                    j.sample(&mut fast, &mut draw, &mut deal);
                } else if !plan.spec.sample(&mut rng, &mut deal) {
                    continue;
                }
                if let Some(tally) = &mut tally {
                    tally.add(&deal);
                    accepted += 1;
                } else if plan.trial(&deal, 1.0, &mut local, &mut scratch) {
                    accepted += 1;
                }
            }
        }
        if let Some(tally) = &mut tally {
            tally.replay(plan, 1.0, &mut local, &mut scratch);
        }
        if let Some(e) = scratch.take_error() {
            return Err(e);
        }
        // (An attempt not made at the time limit may leave `attempted` one below `reported`.)
        guard.add(attempted.saturating_sub(reported.0), accepted - reported.1);
        let mut st = shared.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        for (g, l) in st.aggregates.iter_mut().zip(&local) {
            g.merge(l);
        }
        st.accepted += accepted;
        st.attempted += attempted;
        if scratch.inner_sampled {
            st.inner_sampled = true;
            st.exact = false;
        }
        if part.keep {
            let inner_sampled = scratch.inner_sampled;
            st.pieces.push(Piece { place: chunk, accepted, attempted, aggregates: local.clone(), inner_sampled });
        }
        let share = (chunks * CHUNK).min(trials).saturating_sub(part.first * CHUNK).max(1);
        st.fraction = st.accepted as f64 / share as f64;
        let elapsed = shared.started.elapsed();
        let precise = precision.is_some_and(|p| p.reached(&st.aggregates, st.accepted, st.fraction, elapsed));
        st.precision_reached |= precise && st.fraction < 1.0;
        let failed = overflow(plan, &st.aggregates).or_else(|| {
            // With no time limit, a precision the run cannot reach soon is said, not waited for
            // (unless it is automatic: then the run goes on to its trials).
            let target = precision.filter(|p| deadline.is_none() && !precise && p.after.is_none())?.target;
            unreachable_precision(&st.aggregates, st.accepted, target, trials, elapsed)
        });
        drop(st);
        shared.merged();
        if let Some(e) = failed {
            return Err(e);
        }
        if precise {
            // The target precision is reached: no further chunks are needed.
            next.store(chunks, Ordering::Relaxed);
            return Ok(());
        }
    }
}

/// A Monte Carlo run's precision target, and from what projected length it applies.
#[derive(Clone, Copy, Debug)]
struct Precision {
    target: f64,
    after: Option<Duration>,
}

impl Precision {
    /// Trials before the target is judged (standard errors of tiny samples are noisy).
    const MIN_TRIALS: u64 = 1000;

    /// Every selector's error is below the target after `accepted` trials (`fraction` of the
    /// run in `elapsed`), and, for an automatic target, the whole run would take longer than
    /// its `after`.
    fn reached(self, aggregates: &[Aggregate], accepted: u64, fraction: f64, elapsed: Duration) -> bool {
        let long = self
            .after
            .is_none_or(|after| fraction <= 0.0 || elapsed.as_secs_f64() / fraction.min(1.0) > after.as_secs_f64());
        accepted >= Self::MIN_TRIALS
            && long
            && aggregates.iter().all(|a| a.precision_error(accepted).is_none_or(|se| se < self.target))
    }
}

/// Up to `want` deals of a chunk by the showdown tally's own loop, counted into `tally`; fewer
/// when the run is cancelled or reaches its time limit.
#[allow(clippy::too_many_arguments)]
fn tally_given(
    given: &mut GivenTally,
    fixed: &FixedDeal,
    tally: &mut OutcomeTally,
    deal: &mut Deal,
    rng: &mut Rng,
    want: u64,
    shared: &Shared,
    deadline: Option<Instant>,
) -> u64 {
    given.reset_order(fixed.deck_order());
    given.clear();
    let mut done = 0;
    while done < want {
        if shared.cancel.load(Ordering::Relaxed) || past(deadline, shared) {
            break;
        }
        let block = (want - done).min(65_536);
        given.sample(rng, fixed.shuffle(), block);
        done += block;
    }
    given.for_each_outcome(deal, |hi, lo, count, deal| tally.add_outcome(hi, lo, count as f64, deal));
    done
}

/// Up to `want` deals of a chunk by [`RangeDraws`], counted into `tally`; fewer when the run is
/// cancelled or reaches its time limit.
fn tally_ranged(
    ranged: &mut RangeDraws,
    tally: &mut OutcomeTally,
    deal: &mut Deal,
    rng: &mut WyRand,
    want: u64,
    shared: &Shared,
    deadline: Option<Instant>,
) -> u64 {
    ranged.clear();
    let mut done = 0;
    while done < want {
        if shared.cancel.load(Ordering::Relaxed) || past(deadline, shared) {
            break;
        }
        let block = (want - done).min(65_536);
        ranged.sample(rng, block);
        done += block;
    }
    ranged.for_each_outcome(deal, |hi, count, deal| tally.add_outcome(hi, 0, count as f64, deal));
    done
}

/// Whether the time limit has passed; if so the run is told to stop.
fn past(deadline: Option<Instant>, shared: &Shared) -> bool {
    let over = deadline.is_some_and(|d| Instant::now() >= d);
    if over {
        shared.stop.store(true, Ordering::Release);
    }
    over
}

/// Deals tried and accepted by all the workers of a Monte Carlo run, for judging the where
/// clause's acceptance rate while the run goes on.
#[derive(Default)]
struct Guard {
    attempted: AtomicU64,
    accepted: AtomicU64,
}

impl Guard {
    fn add(&self, attempted: u64, accepted: u64) {
        self.attempted.fetch_add(attempted, Ordering::Relaxed);
        self.accepted.fetch_add(accepted, Ordering::Relaxed);
    }

    /// Stops a run whose where clause (or card conflicts) throws away nearly every deal: below
    /// `GUARD_RATE` after `GUARD_ATTEMPTS`, or, when the run has no other bound (`unbounded`:
    /// no time limit, no precision target), when the rate and the speed so far say that the
    /// trials asked for would take longer than `PROJECTED_LIMIT`.
    fn check(&self, shared: &Shared, trials: u64, unbounded: bool) -> Result<(), PqlError> {
        let attempted = self.attempted.load(Ordering::Relaxed);
        let accepted = self.accepted.load(Ordering::Relaxed);
        if attempted < GUARD_ATTEMPTS {
            return Ok(());
        }
        let rate = accepted as f64 / attempted as f64;
        if rate < GUARD_RATE {
            return Err(low_acceptance(accepted, attempted));
        }
        let elapsed = shared.started.elapsed();
        if !unbounded || rate >= PROJECTION_RATE || elapsed < PROJECTION_AFTER {
            return Ok(());
        }
        let projected = elapsed.as_secs_f64() * trials as f64 / accepted.max(1) as f64;
        if projected <= PROJECTED_LIMIT.as_secs_f64() {
            return Ok(());
        }
        Err(PqlError::runtime(format!(
            "the where clause and card conflicts keep only {} of deals ({accepted} of {attempted} so far): \
             {trials} trials would take about {}",
            percent(rate),
            duration_words(projected)
        ))
        .with_hint("give a time limit (--time-limit) to report what it allows, ask for fewer --trials, or loosen the where clause"))
    }
}

/// A small share as a percentage with two significant digits: `0.031%`.
fn percent(rate: f64) -> String {
    let p = 100.0 * rate;
    let decimals = if p > 0.0 { (1.0 - p.log10().floor()).clamp(0.0, 8.0) as usize } else { 0 };
    format!("{p:.decimals$}%")
}

/// Seconds as a person says them: `45 s`, `5.5 minutes`, `3.2 hours`, `12 days`.
fn duration_words(seconds: f64) -> String {
    if seconds < 90.0 {
        format!("{seconds:.0} s")
    } else if seconds < 5400.0 {
        format!("{:.1} minutes", seconds / 60.0)
    } else if seconds < 172_800.0 {
        format!("{:.1} hours", seconds / 3600.0)
    } else {
        format!("{:.0} days", seconds / 86_400.0)
    }
}

fn low_acceptance(accepted: u64, attempted: u64) -> PqlError {
    PqlError::runtime(format!(
        "the where clause and card conflicts accepted only {accepted} of {attempted} deals ({:.5}%)",
        100.0 * accepted as f64 / attempted as f64
    ))
    .with_hint("loosen the where clause or the ranges; almost every deal is thrown away")
}

/// The work of an exhaustive run: its prefixes, their suit classes, and the items (class, part)
/// that workers take in turn (a class's enumeration split by its first open card).
/// What an exhaustive run enumerates: its fixed parts, grouped into classes enumerated once,
/// and the parts of each class (`items`: (class, part) in class order).
pub(super) struct Work {
    pub items: Vec<(usize, usize)>,
    prefixes: Vec<Prefix>,
    classes: Vec<SuitClass>,
}

impl Work {
    pub fn new(plan: &Plan, prefixes: Vec<Prefix>) -> Work {
        // Showdown tallies of given hands: prefixes that differ only by the names of the
        // suits are one class, enumerated once. Otherwise every prefix is its own class.
        let tallied = plan.tallies_by_outcome() && plan.spec.tallies_given_hands();
        let classes = if tallied {
            suit_classes(&plan.spec, &prefixes)
        } else {
            (0..prefixes.len()).map(|i| SuitClass { members: vec![(i, SuitMap::IDENTITY)] }).collect()
        };
        // A prefix whose boards are counted by rank is one piece of work (GivenTally::splits).
        let whole = tallied && plan.spec.tallies_boards_by_rank();
        let splits = |c: &SuitClass| if whole { 1 } else { plan.spec.split_count(&prefixes[c.first()]) };
        let items = classes.iter().enumerate().flat_map(|(i, c)| (0..splits(c)).map(move |f| (i, f))).collect();
        Work { items, prefixes, classes }
    }
}

/// Why an exhaustive run of `mode` enumerates (`None` for Monte Carlo).
pub(super) fn enumerated_because(plan: &Plan, opts: &RunOptions, mode: &Mode) -> Option<Enumerated> {
    match mode {
        Mode::Exact(prefixes, deals) if opts.exact != Some(true) => {
            let visited = deals_of(plan, prefixes).0;
            Some(auto_reason(plan, opts, *deals, visited).unwrap_or(Enumerated::Small))
        }
        Mode::Exact(..) => Some(Enumerated::Asked),
        Mode::Monte => None,
    }
}

fn exact_worker(
    plan: &Plan,
    shared: &Shared,
    claims: &ItemClaims,
    work: &Work,
    deadline: Option<Instant>,
) -> Result<(), PqlError> {
    let mut local = plan.new_aggregates();
    let mut scratch = Scratch::default();
    let mut tally = plan.tallies_by_outcome().then(|| OutcomeTally::new(plan.spec.game, plan.spec.players.len()));
    let check_every = plan.check_interval();
    let players = plan.spec.players.len();
    let mut given_cache: Option<(usize, GivenTally)> = None;
    let judge_early = plan.filter_board_cards();
    // The work item being enumerated (its position in the order, its parts not yet done), and
    // the deals of it counted so far.
    let mut unit: Option<(u64, std::ops::Range<usize>)> = None;
    let (mut accepted, mut attempted) = (0u64, 0u64);
    loop {
        if shared.halted() {
            return Ok(());
        }
        if deadline.is_some_and(|d| Instant::now() >= d) {
            shared.stop.store(true, Ordering::Release);
            return Ok(());
        }
        // A new work item (its parts enumerated in turn) once the last one is done.
        if unit.as_ref().is_none_or(|(_, parts)| parts.is_empty()) {
            let Some(claimed) = claims.claim() else {
                return Ok(());
            };
            // The item (not its place in the seeded order) names its inner streams: a whole
            // enumeration's answer does not depend on the seed.
            scratch.begin_unit(0, claimed.1.start as u64);
            unit = Some(claimed);
            (accepted, attempted) = (0, 0);
            for a in &mut local {
                a.reset();
            }
        }
        let Some((position, parts)) = &mut unit else { unreachable!("a work item was just claimed") };
        let position = *position;
        let Some(i) = parts.next() else { unreachable!("a work item has parts left") };
        let (ci, first) = work.items[i];
        let class = &work.classes[ci];
        let mut count = 0u32;
        let mut cut = false;
        let given = if tally.is_some() {
            // Kept from item to item of one class: its tables are made once.
            if given_cache.as_ref().is_none_or(|(c, _)| *c != ci) {
                given_cache = plan.spec.given_tally(&work.prefixes[class.first()]).map(|(given, _)| (ci, given));
            }
            given_cache.as_mut()
        } else {
            None
        };
        if let (Some(tally), Some((_, given))) = (&mut tally, given) {
            // Given hands and an open board: the showdown tally's own enumeration, once for the
            // class, then replayed for each of its prefixes with the suits renamed.
            given.clear();
            given.enumerate(Some(first));
            let deals: u64 = given.counts.iter().sum();
            for &(pi, map) in &class.members {
                let prefix = &work.prefixes[pi];
                let mut deal = plan.spec.start_deal(prefix);
                given.for_each_outcome_as(&mut deal, &prefix.deal.hole[..players], map, |hi, lo, count, deal| {
                    tally.add_outcome(hi, lo, count as f64, deal);
                });
                attempted += deals;
                accepted += tally.replay(plan, prefix.weight, &mut local, &mut scratch);
            }
        } else if let Some(tally) = &mut tally {
            for &(pi, _) in &class.members {
                let prefix = &work.prefixes[pi];
                // A razz rank class's representative: its deals count once for each member.
                let copies = prefix.copies;
                plan.spec.enumerate(prefix, Some(first), &mut |deal| {
                    attempted += copies;
                    tally.add(deal);
                    count += 1;
                    if count == 1 << 16 {
                        count = 0;
                        cut = shared.halted() || past(deadline, shared);
                        return !cut;
                    }
                    true
                });
                accepted += copies * tally.replay(plan, prefix.weight, &mut local, &mut scratch);
                if cut {
                    break;
                }
            }
        } else if let Some(board_cards) = judge_early {
            // The where clause is judged once the cards it reads are dealt: a false one skips
            // (and counts as attempted) every completion of that partial deal.
            for &(pi, _) in &class.members {
                let prefix = &work.prefixes[pi];
                let mut skipped = 0u64;
                let judged_here = plan.spec.judges_early(prefix, board_cards);
                plan.spec.enumerate_judged(prefix, Some(first), board_cards, &mut skipped, &mut |deal, complete| {
                    if !complete {
                        return plan.passes(deal, &mut scratch);
                    }
                    attempted += 1;
                    let kept = if judged_here {
                        plan.selectors_on(deal, prefix.weight, &mut local, &mut scratch);
                        true
                    } else {
                        plan.trial(deal, prefix.weight, &mut local, &mut scratch)
                    };
                    accepted += u64::from(kept);
                    count += 1;
                    if u64::from(count) == check_every {
                        count = 0;
                        cut = shared.halted() || past(deadline, shared);
                        return !cut;
                    }
                    true
                });
                attempted += skipped;
                if cut {
                    break;
                }
            }
        } else {
            for &(pi, _) in &class.members {
                let prefix = &work.prefixes[pi];
                plan.spec.enumerate(prefix, Some(first), &mut |deal| {
                    attempted += 1;
                    if plan.trial(deal, prefix.weight, &mut local, &mut scratch) {
                        accepted += 1;
                    }
                    count += 1;
                    // Check for cancel and the time limit now and then inside big work items.
                    if u64::from(count) == check_every {
                        count = 0;
                        cut = shared.halted() || past(deadline, shared);
                        return !cut;
                    }
                    true
                });
                if cut {
                    break;
                }
            }
        }
        if let Some(e) = scratch.take_error() {
            return Err(e);
        }
        if cut {
            // Part of an item is no part of the sample: the run is ending without it.
            return Ok(());
        }
        if unit.as_ref().is_some_and(|(_, parts)| !parts.is_empty()) {
            continue;
        }
        let item = FinishedItem { aggregates: &local, accepted, attempted };
        if let Some(e) = shared.item_finished(plan, position, &item, scratch.inner_sampled) {
            return Err(e);
        }
    }
}

/// The error for a histogram of the run that met more values than it may hold.
pub(super) fn overflow(plan: &Plan, aggregates: &[Aggregate]) -> Option<PqlError> {
    let i = aggregates.iter().position(Aggregate::overflowed)?;
    Some(super::aggregate::too_many_buckets(&plan.selectors[i].name))
}

/// Stops a run with a precision target and no time limit, once it has run `PROJECTION_AFTER`,
/// when the trials it would take to reach the target (or all `trials`, if fewer) would take
/// longer than `PROJECTED_LIMIT` at the speed so far: the standard error falls as 1/sqrt(n), so
/// `n · (se / target)²` trials reach it.
fn unreachable_precision(
    aggregates: &[Aggregate],
    accepted: u64,
    target: f64,
    trials: u64,
    elapsed: Duration,
) -> Option<PqlError> {
    if elapsed < PROJECTION_AFTER || accepted < 1000 {
        return None;
    }
    let worst = aggregates.iter().filter_map(Aggregate::estimate).map(|(_, se)| se).fold(0.0, f64::max);
    let needed = (accepted as f64 * (worst / target).powi(2)).min(trials as f64);
    let projected = elapsed.as_secs_f64() * needed / accepted as f64;
    if projected <= PROJECTED_LIMIT.as_secs_f64() {
        return None;
    }
    Some(
        PqlError::runtime(format!(
            "a standard error below {target:e} needs about {needed:.2e} trials, which would take about {}",
            duration_words(projected)
        ))
        .with_hint("give a time limit (--time-limit) to report what it reaches, or ask for a coarser --precision"),
    )
}

impl Plan {
    /// Evaluates the where clause and every selector on one deal; false when rejected.
    #[inline]
    pub fn trial(&self, deal: &Deal, weight: f64, aggs: &mut [Aggregate], scratch: &mut Scratch) -> bool {
        self.trials(deal, weight, 1, aggs, scratch)
    }

    /// As [`Plan::trial`] for `times` deals known to give the same values.
    #[inline]
    pub fn trials(&self, deal: &Deal, weight: f64, times: u64, aggs: &mut [Aggregate], scratch: &mut Scratch) -> bool {
        let mut t = Trial::new(deal, &self.spec.deck, scratch).with_sources(&self.spec.players);
        if let Some(w) = &self.filter {
            if !w.eval(&mut t).as_bool() {
                return false;
            }
        }
        for (sel, agg) in self.selectors.iter().zip(aggs.iter_mut()) {
            let v = sel.expr.eval(&mut t);
            agg.add_repeated(&v, weight, times);
        }
        true
    }

    /// The board cards the where clause reads, when an exact run may judge it on partial deals
    /// (flop games); `None` without a where clause.
    pub fn filter_board_cards(&self) -> Option<usize> {
        let filter = self.filter.as_ref()?;
        (!self.spec.game.is_stud()).then(|| filter.board_cards_read())
    }

    /// Whether the where clause holds on `deal` (true without one).
    pub fn passes(&self, deal: &Deal, scratch: &mut Scratch) -> bool {
        let mut t = Trial::new(deal, &self.spec.deck, scratch).with_sources(&self.spec.players);
        self.filter.as_ref().is_none_or(|w| w.eval(&mut t).as_bool())
    }

    /// Every selector on a deal whose where clause is known to hold.
    pub fn selectors_on(&self, deal: &Deal, weight: f64, aggs: &mut [Aggregate], scratch: &mut Scratch) {
        let mut t = Trial::new(deal, &self.spec.deck, scratch).with_sources(&self.spec.players);
        for (sel, agg) in self.selectors.iter().zip(aggs.iter_mut()) {
            let v = sel.expr.eval(&mut t);
            agg.add_repeated(&v, weight, 1);
        }
    }

    /// Trials between looks at cancel and the time limit: about 65,536 evaluations' worth.
    pub fn check_interval(&self) -> u64 {
        (65_536.0 / self.inner_cost.max(1.0)).clamp(1.0, 65_536.0) as u64
    }

    pub fn new_aggregates(&self) -> Vec<Aggregate> {
        self.selectors
            .iter()
            .map(|s| match s.kind {
                SelectorKind::Avg => Aggregate::avg(),
                SelectorKind::Count => Aggregate::count(),
                SelectorKind::Histogram(k) => Aggregate::histogram(k),
                SelectorKind::Max => Aggregate::Max(None),
                SelectorKind::Min => Aggregate::Min(None),
            })
            .collect()
    }
}
