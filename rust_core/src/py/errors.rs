//! `PqlError` -> the exception classes of `pql_repl.base.errors`, and panics -> `PqlRuntimeError`.

use crate::error::{ErrorKind, PqlError, SourceMap};
use crate::run::runner::{panic_message, WORKER_THREAD_PREFIX};
use pyo3::prelude::*;
use std::cell::Cell;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Once;

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
/// line and column computed against `source`, which starts at `origin` (line, column) of a
/// larger text ((1, 1) for a whole text). The core caps the list (`error::cap_errors`), and the
/// positions come from one `SourceMap`, so this is linear in the text.
pub fn to_py_err_at(py: Python<'_>, source: &str, origin: (usize, usize), errors: &[PqlError]) -> PyErr {
    // Failing to build the exception (pql_repl.base.errors missing) still yields a Python error, and
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
    let module = py.import("pql_repl.base.errors")?;
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
    match contained(f) {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(errors)) | Err(errors) => Err(to_py_err_at(py, source, origin, &errors)),
    }
}

/// Runs `f` on this thread with its panics caught (and kept off stderr by the quiet hook): a
/// panic becomes an internal `PqlError`.
pub fn contained<T>(f: impl FnOnce() -> T) -> Result<T, Vec<PqlError>> {
    QUIET.with(|q| q.set(q.get() + 1));
    let result = catch_unwind(AssertUnwindSafe(f));
    QUIET.with(|q| q.set(q.get() - 1));
    result.map_err(|panic| vec![PqlError::runtime(format!("internal error: {}", panic_message(panic.as_ref())))])
}

thread_local! {
    /// Above zero while [`contained`] runs code on this thread.
    static QUIET: Cell<u32> = const { Cell::new(0) };
}

/// Installs (once per process) a panic hook that says nothing about the panics the bindings
/// contain: those on a thread inside [`contained`] and those of the runner's worker threads
/// (named `pql-…`), which come back to Python as `PqlRuntimeError` with the panic's message.
/// Any other panic, or any at all when `RUST_BACKTRACE` is set (for debugging), goes to the
/// hook that was there before.
pub fn install_quiet_panic_hook() {
    static INSTALLED: Once = Once::new();
    INSTALLED.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let ours = QUIET.with(Cell::get) > 0
                || std::thread::current().name().is_some_and(|n| n.starts_with(WORKER_THREAD_PREFIX));
            if !ours || std::env::var_os("RUST_BACKTRACE").is_some() {
                previous(info);
            }
        }));
    });
}
