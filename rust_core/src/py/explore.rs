//! The range explorer's engine calls: the classes of a two-card game, the heatmap and the
//! equity distribution (background jobs polled for snapshots), the board breakdown, and a short
//! summary of a range (its size and a sample of its hands).

use super::catalog::{macros_from, parse_ordering, parse_syntax};
use super::errors::{contained, guarded, to_py_err_at};
use super::evaluate::parse_game;
use crate::error::PqlError;
use crate::eval::{FlopHandCategory, HandType};
use crate::explore::background::{Job, Remote};
use crate::explore::breakdown::{breakdown as board_breakdown, DRAW_NAMES};
use crate::explore::classes::Classes;
use crate::explore::distribution::{self, Distribution, DistributionSpec, BUCKETS};
use crate::explore::heatmap::{Heatmap, HeatmapOptions, HeatmapRemote, HeatmapSpec};
use crate::explore::Table;
use crate::games::Game;
use crate::range::{parse_board, parse_dead, parse_range_ordered, Macros, Ordering, Range, Syntax};
use crate::rng::Rng;
use crate::run::runner::default_threads;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(hand_classes, m)?)?;
    m.add_function(wrap_pyfunction!(breakdown, m)?)?;
    m.add_function(wrap_pyfunction!(range_summary, m)?)?;
    m.add_class::<HeatmapRun>()?;
    m.add_class::<DistributionRun>()?;
    Ok(())
}

/// Reads `text` (one player's range, a board, dead cards) with `read`; an error is raised with
/// positions inside `text`.
fn read<T>(py: Python<'_>, text: &str, read: impl FnOnce() -> Result<T, PqlError>) -> PyResult<T> {
    guarded(py, text, || read().map_err(|e| vec![e]))
}

fn unplaced(py: Python<'_>, e: PqlError) -> PyErr {
    to_py_err_at(py, "", (1, 1), &[PqlError { span: None, ..e }])
}

fn game_arg(py: Python<'_>, game: &str) -> PyResult<Game> {
    parse_game(game).map_err(|e| unplaced(py, e))
}

/// How range texts are read: their syntax and the ordering their `N%` reads.
#[derive(Clone, Copy)]
struct Reading {
    syntax: Syntax,
    ordering: Ordering,
}

fn reading_arg(py: Python<'_>, syntax: Option<&str>, ordering: Option<&str>) -> PyResult<Reading> {
    let syntax = parse_syntax(syntax).map_err(|e| unplaced(py, e))?;
    let ordering = parse_ordering(ordering).map_err(|e| unplaced(py, e))?;
    Ok(Reading { syntax, ordering })
}

/// One range text read as `reading` says, its errors placed in it.
fn range_arg(py: Python<'_>, text: &str, game: Game, reading: Reading, macros: &Macros) -> PyResult<Range> {
    read(py, text, || parse_range_ordered(text, game, reading.syntax, reading.ordering, macros))
}

/// The cards shared by every deal: `board=` and `dead=` as a query gives them.
fn table_arg(py: Python<'_>, game: Game, board: Option<&str>, dead: Option<&str>) -> PyResult<Table> {
    let board = match board.filter(|b| !b.trim().is_empty()) {
        Some(b) => Some(read(py, b, || parse_board(b, game))?),
        None => None,
    };
    let dead = match dead.filter(|d| !d.trim().is_empty()) {
        Some(d) => read(py, d, || parse_dead(d, game))?,
        None => crate::range::DeadCards::default(),
    };
    Table::new(board.as_deref(), dead).map_err(|e| unplaced(py, e))
}

fn ranges_arg(py: Python<'_>, texts: &[String], game: Game, reading: Reading, macros: &Macros) -> PyResult<Vec<Range>> {
    texts.iter().map(|t| range_arg(py, t, game, reading, macros)).collect()
}

/// The classes of a two-card game: `names` (grid order, row by row), `hands` (every starting
/// hand), `class_of` (each hand's class), `ordering` (class numbers best first with their
/// percentiles in `ordering`, the default when `None`) and `ranks` (the grid's rows, high to
/// low).
#[pyfunction]
#[pyo3(signature = (game, ordering = None))]
fn hand_classes<'py>(py: Python<'py>, game: &str, ordering: Option<&str>) -> PyResult<Bound<'py, PyDict>> {
    let g = game_arg(py, game)?;
    let ordering = parse_ordering(ordering).map_err(|e| unplaced(py, e))?;
    let classes = Classes::new(g).map_err(|e| unplaced(py, e))?;
    let d = PyDict::new(py);
    d.set_item("game", g.name())?;
    d.set_item("names", classes.classes.iter().map(|c| c.name.as_str()).collect::<Vec<_>>())?;
    d.set_item("hands", classes.hands.iter().map(ToString::to_string).collect::<Vec<_>>())?;
    d.set_item("class_of", &classes.class_of)?;
    d.set_item("ordering", classes.ordering(ordering))?;
    d.set_item("ranks", classes.rank_chars())?;
    Ok(d)
}

/// Every hand's facts on a board (three to five cards, fixed): `hands` parallel to
/// `hand_classes(game)["hands"]`, each None (impossible) or `(hand type, flop category or -1,
/// draw bits)`; the names of the hand types, flop categories and draw bits (worst first).
#[pyfunction]
#[pyo3(signature = (game, board, dead = None))]
fn breakdown<'py>(py: Python<'py>, game: &str, board: &str, dead: Option<&str>) -> PyResult<Bound<'py, PyDict>> {
    let g = game_arg(py, game)?;
    let table = table_arg(py, g, Some(board), dead)?;
    let Some(cards) = table.fixed().filter(|b| b.len() >= 3) else {
        return Err(unplaced(py, PqlError::runtime("the board breakdown needs a board of three to five known cards")));
    };
    let classes = Classes::new(g).map_err(|e| unplaced(py, e))?;
    let dead_cards = table.dead.fixed;
    let facts = py.detach(|| contained(|| board_breakdown(&classes, cards, dead_cards))).map_err(|e| {
        let first = e.into_iter().next().unwrap_or_else(|| PqlError::runtime("internal error"));
        unplaced(py, first)
    })?;
    let hands = PyList::empty(py);
    for f in facts {
        match f {
            Some(f) => {
                let flop = f.flop_category.map_or(-1, |c| c as i32);
                hands.append((f.hand_type as u32, flop, f.draws))?;
            }
            None => hands.append(py.None())?,
        }
    }
    let d = PyDict::new(py);
    d.set_item("hands", hands)?;
    d.set_item("hand_types", HandType::ALL.map(HandType::name))?;
    d.set_item("flop_categories", FlopHandCategory::ALL.map(FlopHandCategory::name))?;
    d.set_item("draws", DRAW_NAMES)?;
    Ok(d)
}

/// A range in brief: `hands` (how many), `total` (hands of the game, None in stud), `weighted`
/// (the hands counted by weight: a hand at full weight counts 1), `sample` (up to `sample` of
/// them, drawn with `seed`, by weight), `weighted_range` (whether it has weights).
#[pyfunction]
#[pyo3(signature = (text, game = "holdem", syntax = None, macros = None, sample = 0, seed = 0, ordering = None))]
#[allow(clippy::too_many_arguments)] // mirrors the keyword arguments of the Python API
fn range_summary<'py>(
    py: Python<'py>,
    text: &str,
    game: &str,
    syntax: Option<&str>,
    macros: Option<HashMap<String, String>>,
    sample: usize,
    seed: u64,
    ordering: Option<&str>,
) -> PyResult<Bound<'py, PyDict>> {
    let g = game_arg(py, game)?;
    let r = reading_arg(py, syntax, ordering)?;
    let macros = macros_from(macros)?;
    let range = py.detach(|| contained(|| parse_range_ordered(text, g, r.syntax, r.ordering, &macros)));
    let range = match range {
        Ok(r) => r.map_err(|e| to_py_err_at(py, text, (1, 1), &[e]))?,
        Err(e) => return Err(to_py_err_at(py, text, (1, 1), &e)),
    };
    let total = (!g.is_stud()).then(|| crate::cards::binomial(g.deck().size() as usize, g.hole_cards()) as u64);
    let weighted: f64 = if range.is_weighted() {
        let full = f64::from(range.full_weight());
        range.weights().iter().map(|&w| f64::from(w) / full).sum()
    } else {
        range.len() as f64
    };
    let mut rng = Rng::new(seed, 0);
    let hands: Vec<String> =
        (0..sample.min(range.len())).filter_map(|_| range.pick(rng.unit())).map(|i| range.hand_string(i)).collect();
    let d = PyDict::new(py);
    d.set_item("game", g.name())?;
    d.set_item("hands", range.len())?;
    d.set_item("total", total)?;
    d.set_item("weighted", weighted)?;
    d.set_item("weighted_range", range.is_weighted())?;
    d.set_item("sample", hands)?;
    Ok(d)
}

/// A heatmap computing in the background.
#[pyclass(module = "pql_repl._core", frozen)]
pub struct HeatmapRun {
    classes: Arc<Classes>,
    /// Held by `poll` while it waits; `remote` cancels and refocuses meanwhile.
    heatmap: Mutex<Heatmap>,
    remote: HeatmapRemote,
    focus: Mutex<Option<Vec<u32>>>,
}

#[pymethods]
impl HeatmapRun {
    /// Starts the heatmap of `game`'s classes against `villains` (range texts) with `board`
    /// and `dead` as a query's from clause gives them.
    #[new]
    #[pyo3(signature = (game, villains, board = None, dead = None, syntax = None, macros = None,
                        trials = 1_000_000, seed = 0, threads = None, precision = None, exact = None,
                        ordering = None))]
    #[allow(clippy::too_many_arguments)] // mirrors the keyword arguments of the Python API
    #[allow(clippy::needless_pass_by_value)] // PyO3 extracts a list argument as an owned Vec
    fn new(
        py: Python<'_>,
        game: &str,
        villains: Vec<String>,
        board: Option<&str>,
        dead: Option<&str>,
        syntax: Option<&str>,
        macros: Option<HashMap<String, String>>,
        trials: u64,
        seed: u64,
        threads: Option<usize>,
        precision: Option<f64>,
        exact: Option<bool>,
        ordering: Option<&str>,
    ) -> PyResult<HeatmapRun> {
        let g = game_arg(py, game)?;
        let r = reading_arg(py, syntax, ordering)?;
        let macros = macros_from(macros)?;
        let villains = ranges_arg(py, &villains, g, r, &macros)?;
        let table = table_arg(py, g, board, dead)?;
        let opts =
            HeatmapOptions { trials, seed, threads: threads.unwrap_or_else(default_threads).max(1), precision, exact };
        let started = py.detach(|| {
            contained(|| {
                let classes = Classes::new(g)?;
                let heatmap = Heatmap::start(&classes, HeatmapSpec { game: g, villains, table }, &opts)?;
                Ok::<_, PqlError>((classes, heatmap))
            })
        });
        let (classes, heatmap) = match started {
            Ok(Ok(v)) => v,
            Ok(Err(e)) => return Err(unplaced(py, e)),
            Err(e) => return Err(to_py_err_at(py, "", (1, 1), &e)),
        };
        let remote = heatmap.remote();
        Ok(HeatmapRun { classes: Arc::new(classes), heatmap: Mutex::new(heatmap), remote, focus: Mutex::new(None) })
    }

    /// Waits up to `timeout` seconds (GIL released) for news: a snapshot dict, or None.
    fn poll<'py>(&self, py: Python<'py>, timeout: f64) -> PyResult<Option<Bound<'py, PyDict>>> {
        let wait = Duration::try_from_secs_f64(timeout.clamp(0.0, 3600.0)).unwrap_or_default();
        let focus = self.focus.lock().unwrap_or_else(PoisonError::into_inner).clone();
        let classes = Arc::clone(&self.classes);
        let polled = py.detach(|| {
            contained(|| {
                let snap = self.heatmap.lock().unwrap_or_else(PoisonError::into_inner).poll(wait)?;
                let report = snap.state.report(&classes, focus.as_deref());
                Some((snap, report))
            })
        });
        let polled = polled.map_err(|e| to_py_err_at(py, "", (1, 1), &e))?;
        let Some((snap, report)) = polled else { return Ok(None) };
        if let Some(e) = snap.error {
            return Err(unplaced(py, e));
        }
        let d = PyDict::new(py);
        d.set_item("exact", snap.state.exact)?;
        d.set_item("trials", snap.state.trials)?;
        d.set_item("attempted", snap.state.attempted)?;
        d.set_item("done", snap.done)?;
        d.set_item("cancelled", snap.cancelled)?;
        d.set_item("progress", if snap.items == 0 { 1.0 } else { snap.merged as f64 / snap.items as f64 })?;
        d.set_item("elapsed_s", snap.elapsed.as_secs_f64())?;
        d.set_item("classes", report.classes)?;
        d.set_item("hands", report.hands)?;
        d.set_item("focus", report.focus)?;
        Ok(Some(d))
    }

    /// The explored range (one weight per hand of `hand_classes`, 0 outside it), for its own
    /// equity in later snapshots.
    fn set_focus(&self, weights: Vec<u32>) {
        *self.focus.lock().unwrap_or_else(PoisonError::into_inner) = Some(weights.clone());
        self.remote.set_focus(weights);
    }

    fn cancel(&self) {
        self.remote.cancel();
    }
}

/// An equity distribution computing in the background.
#[pyclass(module = "pql_repl._core", frozen)]
pub struct DistributionRun {
    job: Mutex<Job<Distribution>>,
    remote: Remote<Distribution>,
}

#[pymethods]
impl DistributionRun {
    #[new]
    #[pyo3(signature = (game, hero, villains, board = None, dead = None, syntax = None, macros = None,
                        hands = 2000, deals = 200, seed = 0, threads = None, ordering = None))]
    #[allow(clippy::too_many_arguments)] // mirrors the keyword arguments of the Python API
    #[allow(clippy::needless_pass_by_value)] // PyO3 extracts a list argument as an owned Vec
    fn new(
        py: Python<'_>,
        game: &str,
        hero: &str,
        villains: Vec<String>,
        board: Option<&str>,
        dead: Option<&str>,
        syntax: Option<&str>,
        macros: Option<HashMap<String, String>>,
        hands: u64,
        deals: u64,
        seed: u64,
        threads: Option<usize>,
        ordering: Option<&str>,
    ) -> PyResult<DistributionRun> {
        let g = game_arg(py, game)?;
        let r = reading_arg(py, syntax, ordering)?;
        let macros = macros_from(macros)?;
        let hero = range_arg(py, hero, g, r, &macros)?;
        let villains = ranges_arg(py, &villains, g, r, &macros)?;
        let table = table_arg(py, g, board, dead)?;
        let spec = DistributionSpec { game: g, hero, villains, table, hands, deals, seed };
        let threads = threads.unwrap_or_else(default_threads).max(1);
        let job = distribution::start(spec, threads).map_err(|e| unplaced(py, e))?;
        let remote = job.remote();
        Ok(DistributionRun { job: Mutex::new(job), remote })
    }

    /// Waits up to `timeout` seconds for news: `{"shares": [10 buckets], "mean", "hands",
    /// "done", "cancelled", "progress"}`, or None.
    fn poll<'py>(&self, py: Python<'py>, timeout: f64) -> PyResult<Option<Bound<'py, PyDict>>> {
        let wait = Duration::try_from_secs_f64(timeout.clamp(0.0, 3600.0)).unwrap_or_default();
        let polled = py
            .detach(|| contained(|| self.job.lock().unwrap_or_else(PoisonError::into_inner).poll(wait)))
            .map_err(|e| to_py_err_at(py, "", (1, 1), &e))?;
        let Some(snap) = polled else { return Ok(None) };
        if let Some(e) = snap.error {
            return Err(unplaced(py, e));
        }
        let (shares, mean) = snap.state.shares();
        let d = PyDict::new(py);
        d.set_item("shares", shares.to_vec())?;
        d.set_item("buckets", BUCKETS)?;
        d.set_item("mean", mean)?;
        d.set_item("hands", snap.state.hands)?;
        d.set_item("done", snap.done)?;
        d.set_item("cancelled", snap.cancelled)?;
        d.set_item("progress", if snap.items == 0 { 1.0 } else { snap.merged as f64 / snap.items as f64 })?;
        Ok(Some(d))
    }

    fn cancel(&self) {
        self.remote.cancel();
    }
}
