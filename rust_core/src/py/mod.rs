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
mod run;

use pyo3::prelude::*;
use pyo3::types::PyDict;

/// Every bound of `crate::limits` by name (`pql_repl.limits` reads them).
#[pyfunction]
fn limits(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let d = PyDict::new(py);
    for (name, value) in crate::limits::ALL {
        d.set_item(name, value)?;
    }
    Ok(d)
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    errors::install_quiet_panic_hook();
    evaluate::register(m)?;
    run::register(m)?;
    catalog::register(m)?;
    m.add_function(wrap_pyfunction!(limits, m)?)?;
    Ok(())
}
