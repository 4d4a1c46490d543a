//! The catalogue and the vocabulary for Python: `functions()`, `keywords()`, `game_streets()`,
//! and `parse_range()` for `.range` and the range grid. Everything is read from the core's own
//! tables, so help, completion and highlighting cannot drift from the checker.

use super::errors::guarded;
use super::evaluate::parse_game;
use crate::error::{did_you_mean, PqlError, Span};
use crate::eval::{FlopHandCategory, HandType};
use crate::functions::{catalog, names};
use crate::games::{Game, Street};
use crate::pql::{KEYWORDS, RESERVED_KEYS, SELECTORS};
use crate::range::{check_macro_name, parse_range_ordered, Macros, Ordering, Syntax, CLASS_NAMES};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::collections::HashMap;

/// Words that join named classes in the classic hold'em syntax (docs/language/ranges.md, the classic syntax); the class names
/// themselves come from the range reader.
const RANGE_CONNECTIVES: &[&str] = &["and", "or", "not", "to", "through"];

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(functions, m)?)?;
    m.add_function(wrap_pyfunction!(keywords, m)?)?;
    m.add_function(wrap_pyfunction!(game_streets, m)?)?;
    m.add_function(wrap_pyfunction!(parse_range, m)?)?;
    m.add_function(wrap_pyfunction!(range_name_error, m)?)?;
    Ok(())
}

/// The user's named ranges for the range reader; a bad name is a `ValueError` naming it.
pub fn macros_from(macros: Option<HashMap<String, String>>) -> PyResult<Macros> {
    let Some(map) = macros else { return Ok(Macros::none()) };
    Macros::from_pairs(map.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .map_err(pyo3::exceptions::PyValueError::new_err)
}

/// Why `name` (with or without its `$`) cannot name a range, or None.
#[pyfunction]
fn range_name_error(name: &str) -> Option<String> {
    check_macro_name(name.strip_prefix('$').unwrap_or(name)).err()
}

/// One dict per catalogue entry (aliases included): name, args, returns, doc, example, games,
/// origin, signature, and the street a call may leave out (`street_default`, or None).
#[pyfunction]
fn functions(py: Python<'_>) -> PyResult<Bound<'_, PyList>> {
    let out = PyList::empty(py);
    for f in catalog() {
        let d = PyDict::new(py);
        d.set_item("name", f.name)?;
        let args = PyList::empty(py);
        for (i, p) in f.params.iter().enumerate() {
            let a = PyDict::new(py);
            a.set_item("name", p.name)?;
            a.set_item("type", f.param_type_name(i))?;
            args.append(a)?;
        }
        d.set_item("args", args)?;
        d.set_item("returns", f.returns.name())?;
        d.set_item("doc", f.doc)?;
        d.set_item("example", f.example)?;
        d.set_item("games", f.applies.games().map(Game::name).collect::<Vec<_>>())?;
        d.set_item("origin", f.origin.name())?;
        d.set_item("signature", f.signature())?;
        d.set_item("street_default", f.street_has_default().then(|| f.default_street_names()))?;
        out.append(d)?;
    }
    Ok(out)
}

/// Every class of word of the language, each list in its natural order (hand types and flop
/// categories worst first, as docs/language/statements.md lists them).
#[pyfunction]
fn keywords(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("keywords", KEYWORDS)?;
    d.set_item("selectors", SELECTORS)?;
    d.set_item("reserved_keys", RESERVED_KEYS)?;
    d.set_item("games", Game::all_names().collect::<Vec<_>>())?;
    d.set_item("streets", Street::ALL.map(Street::name))?;
    d.set_item("hand_types", HandType::ALL.map(HandType::name))?;
    d.set_item("flop_categories", FlopHandCategory::ALL.map(FlopHandCategory::name))?;
    d.set_item("syntaxes", Syntax::ALL.map(Syntax::name))?;
    d.set_item("orderings", Ordering::ALL.map(Ordering::name))?;
    d.set_item("functions", names().collect::<Vec<_>>())?;
    d.set_item("range_keywords", [CLASS_NAMES, RANGE_CONNECTIVES].concat())?;
    d.set_item("actions", crate::pql::ACTIONS)?;
    d.set_item("simulate_keys", crate::pql::SIMULATE_KEYS)?;
    Ok(d)
}

/// Every game name and alias -> the game's streets, first to last.
#[pyfunction]
fn game_streets(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let d = PyDict::new(py);
    for g in Game::ALL {
        let streets: Vec<&str> = g.streets().iter().map(|s| s.name()).collect();
        for name in g.names() {
            d.set_item(*name, &streets)?;
        }
    }
    Ok(d)
}

pub(super) fn parse_syntax(name: Option<&str>) -> Result<Syntax, PqlError> {
    let Some(name) = name else {
        return Ok(Syntax::default());
    };
    Syntax::from_name(name.trim()).ok_or_else(|| {
        let mut e = PqlError::range(format!("unknown syntax '{name}'"), Span::new(0, name.len()));
        if let Some(s) = did_you_mean(name, Syntax::ALL.map(Syntax::name)) {
            e = e.with_hint(format!("did you mean '{s}'?"));
        }
        e
    })
}

/// The ordering of starting hands `N%` reads (`ordering='equity'`); the default when `None`.
pub(super) fn parse_ordering(name: Option<&str>) -> Result<Ordering, PqlError> {
    let Some(name) = name else {
        return Ok(Ordering::default());
    };
    Ordering::from_name(name.trim()).ok_or_else(|| {
        let mut e = PqlError::range(format!("unknown ordering '{name}'"), Span::new(0, name.len()));
        if let Some(s) = did_you_mean(name, Ordering::ALL.map(Ordering::name)) {
            e = e.with_hint(format!("did you mean '{s}'?"));
        }
        e
    })
}

/// `{"game", "combos", "weights", "full"}` for a range read as a player's range of `game` would
/// be: the hands in rank order (`Range::rank_order`); `weights` the whole numbers the engine
/// draws by (all 1 when unweighted, a range's percents when it is weighted in whole percents);
/// `full` the weight of a hand at full weight on that scale (1, 100, 1000 … up to a million).
/// Errors in the text carry line and column within it; the GIL is released while parsing.
#[pyfunction]
#[pyo3(signature = (text, game = "holdem", syntax = None, macros = None, ordering = None))]
fn parse_range<'py>(
    py: Python<'py>,
    text: &str,
    game: &str,
    syntax: Option<&str>,
    macros: Option<HashMap<String, String>>,
    ordering: Option<&str>,
) -> PyResult<Bound<'py, PyDict>> {
    // A bad game or syntax argument has no place in `text`, so its error carries no position.
    let unplaced = |e: PqlError| vec![PqlError { span: None, ..e }];
    let macros = macros_from(macros)?;
    let (g, combos, weights, full) = guarded(py, text, || {
        let g = parse_game(game).map_err(unplaced)?;
        let s = parse_syntax(syntax).map_err(unplaced)?;
        let o = parse_ordering(ordering).map_err(unplaced)?;
        let range = py.detach(|| parse_range_ordered(text, g, s, o, &macros)).map_err(|e| vec![e])?;
        // In rank order: `AsAh` first (the universe's order puts `KsKh` before it).
        let order = range.rank_order();
        let combos: Vec<String> = order.iter().map(|&i| range.hand_string(i)).collect();
        let weights: Vec<u32> = order.iter().map(|&i| range.weights()[i]).collect();
        Ok((g, combos, weights, range.full_weight()))
    })?;
    let d = PyDict::new(py);
    d.set_item("game", g.name())?;
    d.set_item("combos", combos)?;
    d.set_item("weights", weights)?;
    d.set_item("full", full)?;
    Ok(d)
}
