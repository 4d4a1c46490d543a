//! A `simulate` statement running in the background, seen from Python: snapshots in the
//! statement shape (docs/cli.md, output formats; one `avg` column per action: EV and its standard error),
//! plus `chosen`, `stopped_early`, `stopped_after`, `gap` and `gap_stderr`.

use super::errors::contained;
use crate::error::PqlError;
use crate::explore::background::{Job, Remote, Snapshot};
use crate::games::Street;
use crate::pql::typed::{Action, Choice};
use crate::rng::Rng;
use crate::run::runner::{default_threads, fresh_seed};
use crate::simulate::run::{start, Simulation, State, MIXED_SHARE_OF_BET};
use crate::simulate::spot::{Observed, Spot};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

/// EVs closer than this share of the small bet tie, and the tie goes to the more aggressive
/// action (docs/language/simulate.md: a tie within the reported precision).
pub const TIE_SHARE_OF_BET: f64 = 0.005;

/// `(player, action, street)` triples as observations; a `ValueError` names a bad action or street.
pub fn observed(list: Vec<(String, String, String)>) -> PyResult<Vec<Observed>> {
    list.into_iter()
        .map(|(player, action, street)| {
            let a = Action::from_name(action.trim()).ok_or_else(|| {
                pyo3::exceptions::PyValueError::new_err(format!(
                    "unknown action '{action}': fold, check, call, bet or raise"
                ))
            })?;
            let s = Street::from_name(street.trim()).filter(|s| !s.is_stud()).ok_or_else(|| {
                pyo3::exceptions::PyValueError::new_err(format!(
                    "unknown street '{street}': preflop, flop, turn or river"
                ))
            })?;
            Ok(Observed { player, action: a, street: s })
        })
        .collect()
}

/// Every player's holdings with weights, heaviest first: `{player: [(hand, weight), ...]}`.
pub fn holdings<'py>(py: Python<'py>, spot: &Spot) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for (name, list) in spot.players.iter().zip(&spot.holdings) {
        let mut rows: Vec<(String, f64)> = list.iter().map(|h| (h.cards.to_string(), h.weight)).collect();
        rows.sort_by(|a, b| b.1.total_cmp(&a.1));
        d.set_item(name, rows)?;
    }
    Ok(d)
}

/// `Program.statements()`'s dict for a simulate statement.
pub fn describe(d: &Bound<'_, PyDict>, spot: &Spot) -> PyResult<()> {
    d.set_item("query", &spot.query)?;
    d.set_item("game", spot.game.name())?;
    d.set_item("players", &spot.players)?;
    d.set_item("selectors", spot.actions().iter().map(|a| a.name()).collect::<Vec<_>>())?;
    d.set_item("span", (spot.span.start, spot.span.end))?;
    d.set_item("kind", "simulate")?;
    Ok(())
}

pub struct SimulationRun {
    job: Mutex<Job<Simulation>>,
    /// Cancels while `poll` holds the job.
    remote: Remote<Simulation>,
    query: String,
    game: &'static str,
    index: usize,
    trials: u64,
    seed: u64,
    tie: f64,
    /// `choose='mixed'`: how near the best an EV must be, and the run's draw among them.
    mixed: Option<(f64, u64)>,
}

impl SimulationRun {
    pub fn start(
        py: Python<'_>,
        spot: &Spot,
        index: usize,
        trials: u64,
        seed: Option<u64>,
        threads: Option<usize>,
        time_limit: Option<f64>,
    ) -> Result<SimulationRun, Vec<PqlError>> {
        let seed = seed.unwrap_or_else(fresh_seed);
        let deadline = time_limit
            .filter(|t| *t > 0.0)
            .and_then(|t| Duration::try_from_secs_f64(t).ok())
            .and_then(|d| Instant::now().checked_add(d));
        let threads = threads.unwrap_or_else(default_threads).max(1);
        let spot = spot.clone();
        let (query, game, tie) = (spot.query.clone(), spot.game.name(), spot.spec.bet * TIE_SHARE_OF_BET);
        // A stream of its own (not one of the trials'), so the draw is the seed's alone.
        let mixed = (spot.spec.choose == Choice::Mixed)
            .then(|| (spot.spec.bet * MIXED_SHARE_OF_BET, Rng::new(seed, u64::MAX).next_u64()));
        let job = py.detach(|| contained(|| start(Simulation::new(spot, trials, seed, deadline), threads)))?;
        let remote = job.remote();
        Ok(SimulationRun { job: Mutex::new(job), remote, query, game, index, trials, seed, tie, mixed })
    }

    /// As `RunHandle.poll`: news within `wait` (with `until_end`, the latest by then, or the end).
    pub fn poll<'py>(
        &self,
        py: Python<'py>,
        wait: Duration,
        until_end: bool,
    ) -> Result<Option<Bound<'py, PyDict>>, Vec<PqlError>> {
        let snap = py.detach(|| {
            contained(|| {
                let mut job = self.job.lock().unwrap_or_else(PoisonError::into_inner);
                let due = Instant::now() + wait;
                let mut latest = None;
                loop {
                    let left = due.saturating_duration_since(Instant::now());
                    match job.poll(left) {
                        Some(s) if s.done || !until_end => return Some(s),
                        Some(s) => latest = Some(s),
                        None => return latest,
                    }
                    if Instant::now() >= due {
                        return latest;
                    }
                }
            })
        })?;
        let Some(snap) = snap else { return Ok(None) };
        if let Some(e) = &snap.error {
            return Err(vec![e.clone()]);
        }
        self.snapshot(py, &snap).map(Some).map_err(|e| vec![PqlError::runtime(e.to_string())])
    }

    pub fn cancel(&self) {
        self.remote.cancel();
    }

    fn snapshot<'py>(&self, py: Python<'py>, snap: &Snapshot<State>) -> PyResult<Bound<'py, PyDict>> {
        let state = &snap.state;
        let sums = &state.sums;
        let d = PyDict::new(py);
        d.set_item("kind", "simulate")?;
        d.set_item("query", &self.query)?;
        d.set_item("game", self.game)?;
        d.set_item("trials", sums.trials)?;
        d.set_item("accepted", sums.trials)?;
        d.set_item("attempted", sums.trials)?;
        d.set_item("exact", false)?;
        d.set_item("seed", self.seed)?;
        d.set_item("elapsed_s", snap.elapsed.as_secs_f64())?;
        d.set_item("index", self.index)?;
        d.set_item("done", snap.done)?;
        let progress = if snap.done { 1.0 } else { sums.trials as f64 / self.trials.max(1) as f64 };
        d.set_item("progress", progress.min(1.0))?;
        d.set_item("truncated", false)?;
        d.set_item("total_deals", py.None())?;
        d.set_item("cancelled", snap.cancelled)?;
        d.set_item("inner_sampled", false)?;
        d.set_item("enumerated_because", py.None())?;
        let columns = PyList::empty(py);
        for (i, action) in state.actions.iter().enumerate() {
            let c = PyDict::new(py);
            c.set_item("name", action.name())?;
            c.set_item("selector", "avg")?;
            let has = sums.trials > 0;
            c.set_item("value", has.then(|| sums.mean(i)))?;
            c.set_item("stderr", has.then(|| sums.stderr(i)))?;
            columns.append(c)?;
        }
        d.set_item("columns", columns)?;
        let ranking = state.ranking(self.tie);
        let chosen = (sums.trials > 0).then(|| state.actions[state.chosen(self.tie, self.mixed)].name());
        d.set_item("chosen", chosen)?;
        d.set_item("stopped_early", state.stopped_after.is_some())?;
        d.set_item("stopped_after", state.stopped_after)?;
        if ranking.len() >= 2 && sums.trials > 0 {
            d.set_item("gap", sums.mean(ranking[0]) - sums.mean(ranking[1]))?;
            d.set_item("gap_stderr", sums.diff_stderr(ranking[0], ranking[1]))?;
        }
        Ok(d)
    }
}
