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
mod run;

use pyo3::prelude::*;

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    errors::install_quiet_panic_hook();
    evaluate::register(m)?;
    run::register(m)?;
    catalog::register(m)?;
    explore::register(m)?;
    Ok(())
}
