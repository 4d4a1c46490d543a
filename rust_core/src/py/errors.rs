//! `PqlError` -> the exception classes of `pql_repl.errors`, and panics -> `PqlRuntimeError`.

use crate::error::{ErrorKind, PqlError, SourceMap};
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
/// line and column computed against `source`. The core caps the list (`error::cap_errors`), and
/// the positions come from one `SourceMap`, so this is linear in the text.
pub fn to_py_err(py: Python<'_>, source: &str, errors: &[PqlError]) -> PyErr {
    to_py_err_at(py, source, (1, 1), errors)
}

/// As `to_py_err`, for a `source` that starts at `origin` (line, column) of a larger text.
pub fn to_py_err_at(py: Python<'_>, source: &str, origin: (usize, usize), errors: &[PqlError]) -> PyErr {
    // Failing to build the exception (pql_repl.errors missing) still yields a Python error, and
    // a panic while rendering becomes PqlRuntimeError like any other.
    match catch_unwind(AssertUnwindSafe(|| build(py, &SourceMap::with_origin(source, origin), errors))) {
        Ok(built) => built.unwrap_or_else(|e| e),
        Err(panic) => {
            let internal = PqlError::runtime(format!("internal error while reporting: {}", panic_message(&*panic)));
            build(py, &SourceMap::new(""), &[internal]).unwrap_or_else(|e| e)
        }
    }
}

fn build(py: Python<'_>, map: &SourceMap, errors: &[PqlError]) -> PyResult<PyErr> {
    let module = py.import("pql_repl.errors")?;
    let mut items = Vec::with_capacity(errors.len());
    for e in errors {
        let (line, col) = map.line_col_of(e).map_or((None, None), |(l, c)| (Some(l), Some(c)));
        let span = e.span.map(|s| (s.start, s.end));
        let cls = module.getattr(class_name(e.kind))?;
        let rendered = map.render(e);
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
    guarded_at(py, source, (1, 1), f)
}

/// As `guarded`, for a `source` that starts at `origin` (line, column) of a larger text.
pub fn guarded_at<T>(
    py: Python<'_>,
    source: &str,
    origin: (usize, usize),
    f: impl FnOnce() -> Result<T, Vec<PqlError>>,
) -> PyResult<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(errors)) => Err(to_py_err_at(py, source, origin, &errors)),
        Err(panic) => {
            let what = panic_message(&*panic);
            Err(to_py_err(py, source, &[PqlError::runtime(format!("internal error: {what}"))]))
        }
    }
}

fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_string()))
        .unwrap_or_else(|| "unknown panic".into())
}
