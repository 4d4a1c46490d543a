//! `Program` (a checked PQL text) and `RunHandle` (a statement running in the background).

use super::catalog::macros_from;
use super::columns::Errors;
use super::errors::{contained, guarded_at, to_py_err_at};
use super::simulate::SimulationRun;
use crate::interrupt::Interrupt;
use crate::plan::compile::CompiledStatement;
use crate::run::cluster::ClusterSample;
use crate::run::pieces::{self, ItemSpan, Piece};
use crate::run::runner::{self, default_threads, Enumerated, Progress, RunOptions};
use crate::simulate::program::{compile_program_stopping, Compiled};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Program>()?;
    m.add_class::<RunHandle>()?;
    m.add_function(wrap_pyfunction!(monte_chunks, m)?)?;
    Ok(())
}

/// The chunks of a Monte Carlo run of `trials` trials (see `Program::run_chunks`).
#[pyfunction]
fn monte_chunks(trials: u64) -> u64 {
    runner::monte_chunks(trials)
}

#[pyclass(module = "pql_repl._core", frozen)]
pub struct Program {
    /// Shared with every run it starts: a text of many statements is not copied for each.
    text: Arc<str>,
    /// Line and column of the text's first character in the script it came from.
    origin: (usize, usize),
    statements: Vec<Arc<Compiled>>,
}

/// Asked, while a text is checked without the GIL, whether to stop: at most every
/// `ASK_EVERY` it takes the GIL, runs the signal handlers and calls `stop`; what they raise is
/// kept for the caller.
struct Asker {
    stop: Option<Py<PyAny>>,
    last: Mutex<Instant>,
    raised: Mutex<Option<PyErr>>,
}

const ASK_EVERY: Duration = Duration::from_millis(50);

impl Asker {
    fn asked(&self) -> bool {
        if self.raised.lock().map_or(true, |r| r.is_some()) {
            return true;
        }
        {
            let Ok(mut last) = self.last.lock() else { return true };
            if last.elapsed() < ASK_EVERY {
                return false;
            }
            *last = Instant::now();
        }
        let answer = Python::attach(|py| {
            py.check_signals()?;
            match &self.stop {
                Some(stop) => stop.bind(py).call0()?.is_truthy(),
                None => Ok(false),
            }
        });
        match answer {
            Ok(stop) => stop,
            Err(e) => {
                if let Ok(mut raised) = self.raised.lock() {
                    *raised = Some(e);
                }
                true
            }
        }
    }
}

#[pymethods]
impl Program {
    /// `origin`: the line and column where `text` starts in a larger text (a statement of a
    /// script), so errors name positions of that text; spans stay offsets into `text`.
    /// `macros`: the user's named ranges, name -> range text.
    /// `observations`: (player, action, street) seen at the table, reweighting the ranges of
    /// simulate statements that seat the player. The text is checked with the GIL released (a
    /// front end's other threads go on), and stops with `PqlCancelled` once `stop()` answers
    /// true, with an error at the statement past `time_limit` seconds, and with the exception a
    /// signal handler raises (Ctrl-C's `KeyboardInterrupt` on the main thread).
    #[new]
    #[pyo3(signature = (text, origin=None, macros=None, observations=None, time_limit=None, stop=None))]
    fn new(
        py: Python<'_>,
        text: &str,
        origin: Option<(usize, usize)>,
        macros: Option<HashMap<String, String>>,
        observations: Option<Vec<(String, String, String)>>,
        time_limit: Option<f64>,
        stop: Option<Py<PyAny>>,
    ) -> PyResult<Program> {
        let origin = origin.map_or((1, 1), |(line, col)| (line.max(1), col.max(1)));
        let macros = macros_from(macros)?;
        let observed = super::simulate::observed(observations.unwrap_or_default())?;
        let limit = time_limit.filter(|t| t.is_finite() && *t > 0.0).map(|t| Duration::from_secs_f64(t.min(1e9)));
        let asker = Asker { stop, last: Mutex::new(Instant::now()), raised: Mutex::new(None) };
        let asked = || asker.asked();
        let interrupt = Interrupt::new(Some(&asked), limit);
        let compiled =
            py.detach(|| contained(|| compile_program_stopping(text, origin, &macros, &observed, &interrupt)));
        if let Some(raised) = asker.raised.lock().ok().and_then(|mut r| r.take()) {
            return Err(raised);
        }
        let statements = guarded_at(py, text, origin, || compiled.and_then(|c| c))?;
        Ok(Program { text: Arc::from(text), origin, statements: statements.into_iter().map(Arc::new).collect() })
    }

    /// One dict per statement: query, game, players, selectors, span.
    fn statements<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let out = PyList::empty(py);
        for s in &self.statements {
            let d = PyDict::new(py);
            match &**s {
                Compiled::Query(s) => {
                    d.set_item("query", &s.query)?;
                    d.set_item("game", s.plan.spec.game.name())?;
                    d.set_item("players", &s.players)?;
                    d.set_item("selectors", s.plan.selectors.iter().map(|x| x.name.clone()).collect::<Vec<_>>())?;
                    d.set_item("span", (s.span.start, s.span.end))?;
                    d.set_item("kind", "select")?;
                }
                Compiled::Simulate(spot) => super::simulate::describe(&d, spot)?,
            }
            out.append(d)?;
        }
        Ok(out)
    }

    /// A simulate statement's players, each with its holdings and their weights after
    /// reweighting (heaviest first); None for a select statement.
    fn holdings<'py>(&self, py: Python<'py>, index: usize) -> PyResult<Option<Bound<'py, PyDict>>> {
        match self.statements.get(index).map(|s| &**s) {
            Some(Compiled::Simulate(spot)) => super::simulate::holdings(py, spot).map(Some),
            Some(Compiled::Query(_)) => Ok(None),
            None => Err(pyo3::exceptions::PyIndexError::new_err(format!("no statement {index}"))),
        }
    }

    /// Starts statement `index` in background threads. `item_limit` stops an exhaustive run
    /// after that many work items (a run cut short at a chosen point, for tests).
    #[pyo3(signature = (index, trials, seed=None, exact=None, threads=None, time_limit=None, precision=None, item_limit=None, precision_after=None))]
    #[allow(clippy::too_many_arguments)] // mirrors the keyword arguments of the Python API
    fn start(
        &self,
        py: Python<'_>,
        index: usize,
        trials: u64,
        seed: Option<u64>,
        exact: Option<bool>,
        threads: Option<usize>,
        time_limit: Option<f64>,
        precision: Option<f64>,
        item_limit: Option<u64>,
        precision_after: Option<f64>,
    ) -> PyResult<RunHandle> {
        let stmt = self
            .statements
            .get(index)
            .cloned()
            .ok_or_else(|| pyo3::exceptions::PyIndexError::new_err(format!("no statement {index}")))?;
        if trials == 0 {
            return Err(pyo3::exceptions::PyValueError::new_err("trials must be at least 1"));
        }
        let stmt = match &*stmt {
            Compiled::Simulate(spot) => {
                let run = SimulationRun::start(py, spot, index, trials, seed, threads, time_limit)
                    .map_err(|errors| to_py_err_at(py, &self.text, self.origin, &errors))?;
                return Ok(RunHandle {
                    stmt: None,
                    index,
                    source: Arc::clone(&self.text),
                    origin: self.origin,
                    handle: Mutex::new(None),
                    simulation: Some(run),
                });
            }
            Compiled::Query(q) => Arc::clone(q),
        };
        let opts = RunOptions {
            trials,
            seed,
            exact,
            threads: threads.unwrap_or_else(default_threads).max(1),
            // A limit too long for a Duration is no limit.
            time_limit: time_limit.filter(|t| *t > 0.0).and_then(|t| Duration::try_from_secs_f64(t).ok()),
            precision: precision.filter(|p| *p > 0.0),
            // An automatic precision that waits longer than a Duration holds never applies.
            precision_after: precision_after
                .filter(|t| *t >= 0.0)
                .map(|t| Duration::try_from_secs_f64(t).unwrap_or(Duration::MAX)),
            item_limit,
            chunks: None,
            items: None,
        };
        // Choosing the mode (and listing an exhaustive run's deals) happens on this thread:
        // without the GIL, and with any panic turned into PqlRuntimeError (docs/python.md).
        let plan = Arc::new(stmt.plan.clone());
        let handle = py
            .detach(|| contained(|| runner::start(&plan, &opts)))
            .map_err(|errors| to_py_err_at(py, &self.text, self.origin, &errors))?;
        Ok(RunHandle {
            stmt: Some(stmt),
            index,
            source: Arc::clone(&self.text),
            origin: self.origin,
            handle: Mutex::new(Some(handle)),
            simulation: None,
        })
    }

    /// How statement `index` would run with these options: `None` for Monte Carlo, or its
    /// exhaustive run's (work items, deals, why it enumerates), the items laid out for
    /// `layout` threads; raises what the run would.
    #[pyo3(signature = (index, trials, exact=None, layout=1))]
    fn exact_layout(
        &self,
        py: Python<'_>,
        index: usize,
        trials: u64,
        exact: Option<bool>,
        layout: usize,
    ) -> PyResult<Option<(u64, u64, &'static str)>> {
        let stmt = self.query(index)?;
        let opts = RunOptions { trials: trials.max(1), exact, ..RunOptions::default() };
        let found = py
            .detach(|| contained(|| pieces::exact_layout(&stmt.plan, &opts, layout.max(1)).map_err(|e| vec![e])))
            .and_then(|m| m)
            .map_err(|errors| to_py_err_at(py, &self.text, self.origin, &errors))?;
        Ok(found.map(|l| (l.items, l.deals, l.because.name())))
    }

    /// Chunks `lo..hi` of a Monte Carlo run of statement `index` (`trials`, `seed`), run here
    /// to the end: each chunk's counts and aggregates as `parts.rs` writes them, in chunk order.
    #[pyo3(signature = (index, trials, seed, lo, hi, threads=None))]
    #[allow(clippy::too_many_arguments)] // mirrors the keyword arguments of the Python API
    fn run_chunks<'py>(
        &self,
        py: Python<'py>,
        index: usize,
        trials: u64,
        seed: u64,
        lo: u64,
        hi: u64,
        threads: Option<usize>,
    ) -> PyResult<Bound<'py, PyList>> {
        let opts = RunOptions {
            trials: trials.max(1),
            seed: Some(seed),
            exact: Some(false),
            threads: threads.unwrap_or_else(default_threads).max(1),
            chunks: Some((lo, hi)),
            ..RunOptions::default()
        };
        self.run_pieces(py, index, &opts)
    }

    /// The work items at positions `lo..hi` of the exhaustive run of statement `index` (as
    /// `exact_layout` gave it for `trials`, `exact` and `layout`; `seed` orders the items),
    /// run here to the end: each item's counts and aggregates, in the order's order.
    #[pyo3(signature = (index, trials, exact, seed, lo, hi, layout, threads=None))]
    #[allow(clippy::too_many_arguments)] // mirrors the keyword arguments of the Python API
    fn run_items<'py>(
        &self,
        py: Python<'py>,
        index: usize,
        trials: u64,
        exact: Option<bool>,
        seed: u64,
        lo: u64,
        hi: u64,
        layout: usize,
        threads: Option<usize>,
    ) -> PyResult<Bound<'py, PyList>> {
        let opts = RunOptions {
            trials: trials.max(1),
            seed: Some(seed),
            exact,
            threads: threads.unwrap_or_else(default_threads).max(1),
            items: Some(ItemSpan { lo, hi, layout: layout.max(1) }),
            ..RunOptions::default()
        };
        self.run_pieces(py, index, &opts)
    }

    /// The final snapshot of a Monte Carlo run of statement `index` made of the chunks that
    /// `run_chunks` gave (from any number of calls, in any order).
    fn merge_chunks<'py>(
        &self,
        py: Python<'py>,
        index: usize,
        chunks: &Bound<'py, PyList>,
        seed: u64,
        elapsed: f64,
    ) -> PyResult<Bound<'py, PyDict>> {
        let stmt = self.query(index)?;
        let chunks = pieces_from(&stmt, chunks)?;
        let progress = pieces::merge_chunks(&stmt.plan, chunks, seed, seconds(elapsed));
        if let Some(e) = &progress.error {
            return Err(to_py_err_at(py, &self.text, self.origin, std::slice::from_ref(e)));
        }
        snapshot(py, &stmt, index, &progress)
    }

    /// A snapshot of the exhaustive run of statement `index` laid out as `layout` (from
    /// `exact_layout`) made of the items that `run_items` gave so far (from any number of
    /// calls, in any order); `end`: the run ends here (all are in, or it is cut short).
    #[allow(clippy::too_many_arguments)] // mirrors the keyword arguments of the Python API
    fn merge_items<'py>(
        &self,
        py: Python<'py>,
        index: usize,
        layout: (u64, u64, String),
        items: &Bound<'py, PyList>,
        seed: u64,
        elapsed: f64,
        end: bool,
    ) -> PyResult<Bound<'py, PyDict>> {
        let stmt = self.query(index)?;
        let (count, deals, because) = layout;
        let because = Enumerated::from_name(&because)
            .ok_or_else(|| PyValueError::new_err(format!("no such reason to enumerate: '{because}'")))?;
        let layout = pieces::ExactLayout { items: count, deals, because };
        let items = pieces_from(&stmt, items)?;
        let progress = pieces::merge_items(&stmt.plan, &layout, items, seed, seconds(elapsed), end);
        if let Some(e) = &progress.error {
            return Err(to_py_err_at(py, &self.text, self.origin, std::slice::from_ref(e)));
        }
        snapshot(py, &stmt, index, &progress)
    }
}

/// Pieces sent back by `run_chunks` or `run_items`, read for statement `stmt`.
fn pieces_from(stmt: &CompiledStatement, sent: &Bound<'_, PyList>) -> PyResult<Vec<Piece>> {
    let template = stmt.plan.new_aggregates();
    sent.iter().map(|c| super::parts::piece_from_py(&c, &template)).collect()
}

fn seconds(elapsed: f64) -> Duration {
    Duration::try_from_secs_f64(elapsed.max(0.0)).unwrap_or_default()
}

impl Program {
    /// A run of some chunks or items of statement `index`, to its end: its pieces in order.
    fn run_pieces<'py>(&self, py: Python<'py>, index: usize, opts: &RunOptions) -> PyResult<Bound<'py, PyList>> {
        let stmt = self.query(index)?;
        let plan = Arc::new(stmt.plan.clone());
        let progress = py
            .detach(|| contained(|| runner::start(&plan, opts).wait()))
            .map_err(|errors| to_py_err_at(py, &self.text, self.origin, &errors))?;
        if let Some(e) = &progress.error {
            return Err(to_py_err_at(py, &self.text, self.origin, std::slice::from_ref(e)));
        }
        let mut pieces = progress.pieces;
        pieces.sort_by_key(|c| c.place);
        let out = PyList::empty(py);
        for c in &pieces {
            out.append(super::parts::piece_to_py(py, c)?)?;
        }
        Ok(out)
    }

    /// Select statement `index`; an error for a simulate statement or no such statement.
    fn query(&self, index: usize) -> PyResult<Arc<CompiledStatement>> {
        match self.statements.get(index).map(|s| &**s) {
            Some(Compiled::Query(q)) => Ok(Arc::clone(q)),
            Some(Compiled::Simulate(_)) => Err(PyValueError::new_err("a simulate statement runs whole")),
            None => Err(pyo3::exceptions::PyIndexError::new_err(format!("no statement {index}"))),
        }
    }
}

#[pyclass(module = "pql_repl._core", frozen)]
pub struct RunHandle {
    /// The query run (None for a simulation).
    stmt: Option<Arc<CompiledStatement>>,
    index: usize,
    source: Arc<str>,
    origin: (usize, usize),
    handle: Mutex<Option<runner::RunHandle>>,
    simulation: Option<SimulationRun>,
}

#[pymethods]
impl RunHandle {
    /// Waits up to `timeout` seconds (GIL released) for news; a snapshot dict, or None.
    /// With `until_end`, sleeps through the news until the run ends or the timeout passes, then
    /// gives the latest snapshot (None if nothing changed). Raises the run's error once it ends
    /// with one.
    #[pyo3(signature = (timeout, until_end=false))]
    fn poll<'py>(&self, py: Python<'py>, timeout: f64, until_end: bool) -> PyResult<Option<Bound<'py, PyDict>>> {
        // NaN (which clamp keeps) does not wait.
        let wait = Duration::try_from_secs_f64(timeout.clamp(0.0, 3600.0)).unwrap_or_default();
        if let Some(sim) = &self.simulation {
            return sim
                .poll(py, wait, until_end)
                .map_err(|errors| to_py_err_at(py, &self.source, self.origin, &errors));
        }
        let progress = py
            .detach(|| {
                contained(|| {
                    let mut guard = self.handle.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                    guard.as_mut().and_then(|h| h.poll_for(wait, until_end))
                })
            })
            .map_err(|errors| to_py_err_at(py, &self.source, self.origin, &errors))?;
        let Some(p) = progress else {
            return Ok(None);
        };
        if let Some(e) = &p.error {
            return Err(to_py_err_at(py, &self.source, self.origin, std::slice::from_ref(e)));
        }
        let stmt = self.stmt.as_ref().expect("a query run");
        Ok(Some(snapshot(py, stmt, self.index, &p)?))
    }

    fn cancel(&self) {
        if let Some(sim) = &self.simulation {
            sim.cancel();
        }
        if let Some(h) = self.handle.lock().unwrap_or_else(std::sync::PoisonError::into_inner).as_ref() {
            h.cancel();
        }
    }
}

/// The JSON statement shape (docs/cli.md, output formats), plus `index`, `done`, `attempted`, `progress`,
/// `cancelled`, `truncated`, `total_deals`, `inner_sampled`, `precision_reached`, and for exhaustive runs
/// `enumerated_because`, `items_done` and `items_total` (the work items in the sample).
fn snapshot<'py>(
    py: Python<'py>,
    stmt: &CompiledStatement,
    index: usize,
    p: &Progress,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("query", &stmt.query)?;
    d.set_item("game", stmt.plan.spec.game.name())?;
    d.set_item("trials", p.accepted)?;
    d.set_item("accepted", p.accepted)?;
    d.set_item("attempted", p.attempted)?;
    d.set_item("exact", p.exact && p.done)?;
    d.set_item("seed", p.seed)?;
    d.set_item("elapsed_s", p.elapsed.as_secs_f64())?;
    d.set_item("index", index)?;
    d.set_item("done", p.done)?;
    d.set_item("progress", p.fraction.min(1.0))?;
    d.set_item("truncated", p.truncated)?;
    d.set_item("total_deals", p.total_deals)?;
    d.set_item("cancelled", p.cancelled)?;
    d.set_item("inner_sampled", p.inner_sampled)?;
    d.set_item("precision_reached", p.precision_reached)?;
    d.set_item("enumerated_because", p.enumerated_because.map(Enumerated::name))?;
    if let Some(sample) = &p.sample {
        d.set_item("items_done", sample.items_done)?;
        d.set_item("items_total", sample.items_total)?;
    }
    let columns = PyList::empty(py);
    // Values sampled inside the deals: the items' spread covers that noise (see there).
    let noisy = p.sample.as_ref().filter(|_| p.inner_sampled).map(ClusterSample::with_inner_noise);
    for (i, (sel, agg)) in stmt.plan.selectors.iter().zip(&p.aggregates).enumerate() {
        let errors = match (&noisy, &p.sample) {
            (_, None) => Errors::Sampled,
            (Some(noisy), Some(_)) => Errors::Items(noisy, i),
            // A whole enumeration of exact values has no error.
            (None, Some(sample)) if sample.complete() => Errors::None,
            (None, Some(sample)) => Errors::Items(sample, i),
        };
        columns.append(super::columns::column(py, sel, agg, errors)?)?;
    }
    d.set_item("columns", columns)?;
    Ok(d)
}
