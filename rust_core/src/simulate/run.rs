//! A simulation running in the background (the exploration machinery of `explore::background`):
//! trials in numbered batches, each batch on its own random stream, merged in batch order so a
//! seed gives the same answer and the same stopping point whatever the thread count. The
//! statistics are per action (mean, standard error) and per pair of actions (the paired
//! difference, whose error common random numbers make small); the obvious-move stop and the
//! choice follow docs/language/simulate.md.

use super::hand::{play, Sampler};
use super::spot::Spot;
use super::strength::Strengths;
use crate::error::PqlError;
use crate::explore::background::{Job, Work};
use crate::pql::typed::{Action, StopRule};
use crate::rng::Rng;
use std::collections::BTreeMap;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Trials per batch: the unit of work shared out to threads and of the stopping check.
pub const BATCH: u64 = 25;
/// No obvious-move stop before this many trials (docs/language/simulate.md).
pub const MIN_TRIALS_TO_STOP: u64 = 200;
/// `stop='paired'`: the best EV must beat every other by more than this many standard errors
/// of their paired difference. With 200, 400, 800, … looks a wrong stop between two equal
/// actions is about 0.3% a look; `benchmarks/simulate_stop.py` measures the choices it makes.
pub const PAIRED_STOP_Z: f64 = 3.0;
/// `choose='mixed'`: actions whose EV is within this share of the small bet of the best are
/// nearly equal (Loki-2's random choice among them).
pub const MIXED_SHARE_OF_BET: f64 = 0.1;
/// Cached strengths a worker keeps before starting afresh (bounds memory on long runs).
const CACHE_LIMIT: usize = 400_000;

/// Sums over trials: per action Σx and Σx², per pair Σxᵢxⱼ.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Sums {
    pub trials: u64,
    pub sum: Vec<f64>,
    pub squares: Vec<f64>,
    /// Row-major k×k.
    pub products: Vec<f64>,
}

impl Sums {
    pub fn new(k: usize) -> Sums {
        Sums { trials: 0, sum: vec![0.0; k], squares: vec![0.0; k], products: vec![0.0; k * k] }
    }

    pub fn add(&mut self, results: &[f64]) {
        let k = self.sum.len();
        self.trials += 1;
        for i in 0..k {
            self.sum[i] += results[i];
            self.squares[i] += results[i] * results[i];
            for j in 0..k {
                self.products[i * k + j] += results[i] * results[j];
            }
        }
    }

    pub fn merge(&mut self, other: &Sums) {
        self.trials += other.trials;
        for (a, b) in self.sum.iter_mut().zip(&other.sum) {
            *a += b;
        }
        for (a, b) in self.squares.iter_mut().zip(&other.squares) {
            *a += b;
        }
        for (a, b) in self.products.iter_mut().zip(&other.products) {
            *a += b;
        }
    }

    pub fn mean(&self, i: usize) -> f64 {
        if self.trials == 0 {
            0.0
        } else {
            self.sum[i] / self.trials as f64
        }
    }

    /// The standard error of action i's mean (0 with fewer than two trials).
    pub fn stderr(&self, i: usize) -> f64 {
        self.stderr_of(self.squares[i], self.sum[i])
    }

    /// The standard error of the mean of the paired difference xᵢ − xⱼ.
    pub fn diff_stderr(&self, i: usize, j: usize) -> f64 {
        let k = self.sum.len();
        let squares = self.squares[i] + self.squares[j] - 2.0 * self.products[i * k + j];
        self.stderr_of(squares, self.sum[i] - self.sum[j])
    }

    fn stderr_of(&self, squares: f64, sum: f64) -> f64 {
        let n = self.trials as f64;
        if self.trials < 2 {
            return 0.0;
        }
        let variance = ((squares - sum * sum / n) / (n - 1.0)).max(0.0);
        (variance / n).sqrt()
    }
}

/// What a run knows so far.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    pub actions: Vec<Action>,
    pub sums: Sums,
    /// Set when the obvious-move rule stopped the run, with the trial count then.
    pub stopped_after: Option<u64>,
    pub stop: StopRule,
    /// Batches finished out of order, waiting for those before them.
    pending: BTreeMap<u64, Sums>,
    next: u64,
}

impl State {
    pub fn new(actions: Vec<Action>, stop: StopRule) -> State {
        let k = actions.len();
        State { actions, sums: Sums::new(k), stopped_after: None, stop, pending: BTreeMap::new(), next: 0 }
    }

    /// Actions by EV, best first; ties (within `tie`) go to the more aggressive.
    pub fn ranking(&self, tie: f64) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.actions.len()).collect();
        order.sort_by(|&a, &b| {
            let (ea, eb) = (self.sums.mean(a), self.sums.mean(b));
            if (ea - eb).abs() <= tie {
                self.actions[b].cmp(&self.actions[a])
            } else {
                eb.total_cmp(&ea)
            }
        });
        order
    }

    /// The obvious move of the run's [`StopRule`]: Loki-2's (the best EV exceeds the second
    /// best by more than the sum of their standard errors) or the paired one (the best exceeds
    /// every other by [`PAIRED_STOP_Z`] standard errors of the paired difference). It is looked
    /// at after 200, 400, 800, … trials only: a margin looked at after every batch would, sooner
    /// or later, stop a coin flip too.
    pub fn obvious(&self) -> bool {
        let n = self.sums.trials;
        let checkpoint = n >= MIN_TRIALS_TO_STOP
            && n.is_multiple_of(MIN_TRIALS_TO_STOP)
            && (n / MIN_TRIALS_TO_STOP).is_power_of_two();
        if !checkpoint || self.actions.len() < 2 {
            return false;
        }
        let order = self.ranking(0.0);
        let (a, b) = (order[0], order[1]);
        let s = &self.sums;
        match self.stop {
            StopRule::Never => false,
            StopRule::Loki => s.mean(a) - s.mean(b) > s.stderr(a) + s.stderr(b),
            StopRule::Paired => order[1..].iter().all(|&b| s.mean(a) - s.mean(b) > PAIRED_STOP_Z * s.diff_stderr(a, b)),
        }
    }

    /// The chosen action: the first of [`State::ranking`] (ties within `tie` to the more
    /// aggressive), or with `mixed` = (`within`, `draw`) one of the actions whose EV is within
    /// `within` of the best, picked by `draw` (a number from the run's seed, so a seed gives the
    /// same choice from the same EVs).
    pub fn chosen(&self, tie: f64, mixed: Option<(f64, u64)>) -> usize {
        let order = self.ranking(tie);
        let Some((within, draw)) = mixed else { return order[0] };
        let best = self.sums.mean(order[0]);
        let mut near: Vec<usize> = order.into_iter().filter(|&i| best - self.sums.mean(i) <= within).collect();
        near.sort_unstable();
        near[(draw % near.len() as u64) as usize]
    }
}

/// The work of one simulation: `trials` trials in batches.
pub struct Simulation {
    pub spot: Spot,
    sampler: Sampler,
    actions: Vec<Action>,
    trials: u64,
    seed: u64,
    deadline: Option<Instant>,
}

impl Simulation {
    pub fn new(spot: Spot, trials: u64, seed: u64, deadline: Option<Instant>) -> Simulation {
        let sampler = Sampler::new(&spot);
        let actions = spot.actions();
        Simulation { spot, sampler, actions, trials, seed, deadline }
    }

    /// Plays trials `first..end` (each on its own stream) into sums.
    pub fn trials(&self, first: u64, end: u64, strengths: &mut Strengths) -> Result<Sums, PqlError> {
        let mut sums = Sums::new(self.actions.len());
        let mut results = vec![0.0; self.actions.len()];
        for trial in first..end {
            let mut rng = Rng::new(self.seed, trial);
            let Some(deal) = self.sampler.deal(&self.spot, &mut rng) else {
                return Err(PqlError::runtime(
                    "the players' ranges leave no legal deal: they share every hand's cards",
                ));
            };
            // Common random numbers: every action's hand draws its actions from one stream.
            let actions_seed = rng.next_u64();
            for (r, &a) in results.iter_mut().zip(&self.actions) {
                *r = play(&self.spot, &deal, a, &mut Rng::new(actions_seed, 0), strengths);
            }
            sums.add(&results);
        }
        if strengths.len() > CACHE_LIMIT {
            *strengths = Strengths::new(self.spot.game);
        }
        Ok(sums)
    }

    /// Runs every trial on this thread (tests and benchmarks); the final state.
    pub fn run_here(&self) -> Result<State, PqlError> {
        let mut state = State::new(self.actions.clone(), self.spot.spec.stop);
        let mut strengths = Strengths::new(self.spot.game);
        for item in 0..self.items() {
            let part = self.run_item(item, &mut strengths)?;
            self.merge(&mut state, part);
            if self.enough(&state) {
                break;
            }
        }
        Ok(state)
    }

    fn run_item(&self, item: u64, strengths: &mut Strengths) -> Result<(u64, Sums), PqlError> {
        let first = item * BATCH;
        Ok((item, self.trials(first, (first + BATCH).min(self.trials), strengths)?))
    }
}

/// A worker's strengths, kept across its batches.
#[derive(Default)]
pub struct Scratch(Option<Strengths>);

impl Work for Simulation {
    type Part = (u64, Sums);
    type State = State;
    type Scratch = Scratch;

    fn items(&self) -> u64 {
        self.trials.div_ceil(BATCH)
    }

    fn run(&self, item: u64, scratch: &mut Scratch, _stop: &AtomicBool) -> Result<Self::Part, PqlError> {
        let strengths = scratch.0.get_or_insert_with(|| Strengths::new(self.spot.game));
        self.run_item(item, strengths)
    }

    /// Batches are merged in their order, and the stopping rule looks only at that prefix.
    fn merge(&self, state: &mut State, (item, sums): Self::Part) {
        state.pending.insert(item, sums);
        while let Some(sums) = state.pending.remove(&state.next) {
            if state.stopped_after.is_some() {
                break;
            }
            state.sums.merge(&sums);
            state.next += 1;
            if state.obvious() {
                state.stopped_after = Some(state.sums.trials);
            }
        }
    }

    fn enough(&self, state: &State) -> bool {
        state.stopped_after.is_some() || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// Starts a simulation on `threads` threads.
pub fn start(sim: Simulation, threads: usize) -> Job<Simulation> {
    let state = State::new(sim.actions.clone(), sim.spot.spec.stop);
    Job::start(sim, state, threads)
}
