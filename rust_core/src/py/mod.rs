//! The Python extension `pql_repl._core`: conversions, error mapping, panic containment.
//!
//! Everything returned is plain data (dicts, lists, ints); the typed Python classes live in
//! `pql_repl` so this glue stays thin.
//!
//! May use every room; none uses it. Runs go through `run::runner`, statements through
//! `plan::compile`.

mod catalog;
mod columns;
mod errors;
mod evaluate;
mod explore;
mod parts;
mod run;
mod simulate;

use pyo3::prelude::*;
use pyo3::types::PyDict;

/// Every bound of `crate::limits` by name (`pql_repl.base.limits` reads them).
#[pyfunction]
fn limits(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let d = PyDict::new(py);
    for (name, value) in crate::limits::ALL {
        d.set_item(name, value)?;
    }
    Ok(d)
}

/// Starts building the standard hi hand tables (hold'em's, the default game's) on another
/// thread and returns at once. The `pql` command calls it before it loads the rest of itself,
/// so the tables (a few milliseconds of work) are ready when its first statement runs; whoever
/// needs them earlier waits for that thread instead of building them again.
#[pyfunction]
fn warm_up() {
    std::thread::spawn(|| crate::eval::hi_table(crate::games::HiRules::Standard).rate(crate::cards::CardSet::EMPTY));
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    errors::install_quiet_panic_hook();
    m.add_function(wrap_pyfunction!(warm_up, m)?)?;
    evaluate::register(m)?;
    run::register(m)?;
    catalog::register(m)?;
    explore::register(m)?;
    m.add_function(wrap_pyfunction!(limits, m)?)?;
    Ok(())
}
