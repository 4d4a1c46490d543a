//! `PqlError` -> the exception classes of `pql_repl.errors`, and panics -> `PqlRuntimeError`.

use crate::error::{ErrorKind, PqlError};
use pyo3::prelude::*;
use std::panic::{catch_unwind, AssertUnwindSafe};

fn class_name(kind: ErrorKind) -> &'static str {
    match kind {
        ErrorKind::Syntax => "PqlSyntaxError",
        ErrorKind::Type => "PqlTypeError",
        ErrorKind::Range => "PqlRangeError",
        ErrorKind::Runtime => "PqlRuntimeError",
        ErrorKind::Cancelled => "PqlCancelled",
    }
}

/// The Python exception for `errors` (the first one leads; all are attached as `.errors`), with
/// line and column computed against `source`.
pub fn to_py_err(py: Python<'_>, source: &str, errors: &[PqlError]) -> PyErr {
    // Failing to build the exception (pql_repl.errors missing) still yields a Python error.
    build(py, source, errors).unwrap_or_else(|e| e)
}

fn build(py: Python<'_>, source: &str, errors: &[PqlError]) -> PyResult<PyErr> {
    let module = py.import("pql_repl.errors")?;
    let mut items = Vec::with_capacity(errors.len());
    for e in errors {
        let (line, col) = e.line_col(source).map_or((None, None), |(l, c)| (Some(l), Some(c)));
        let span = e.span.map(|s| (s.start, s.end));
        let cls = module.getattr(class_name(e.kind))?;
        let rendered = e.render(source);
        items.push(cls.call1((e.message.clone(), line, col, span, e.hint.clone(), rendered))?);
    }
    let first = items.first().cloned().ok_or_else(|| pyo3::exceptions::PyValueError::new_err("no error given"))?;
    if items.len() > 1 {
        first.setattr("errors", items)?;
    }
    Ok(PyErr::from_value(first))
}

/// Runs `f`, turning a Rust panic into `PqlRuntimeError` so it never reaches Python as a
/// `BaseException`.
pub fn guarded<T>(py: Python<'_>, source: &str, f: impl FnOnce() -> Result<T, Vec<PqlError>>) -> PyResult<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(errors)) => Err(to_py_err(py, source, &errors)),
        Err(panic) => {
            let what = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_string()))
                .unwrap_or_else(|| "unknown panic".into());
            Err(to_py_err(py, source, &[PqlError::runtime(format!("internal error: {what}"))]))
        }
    }
}
