//! Pieces of a run sent between processes, for a cluster's tasks (`pql_repl.api.cluster`): a
//! worker runs chunks `lo..hi` of a Monte Carlo run, or the work items at positions `lo..hi`
//! of an exhaustive one, and sends back each piece's aggregates as plain tuples; the client
//! merges them in the local run's order (`run::pieces`), which gives its answer to the last bit.
//!
//! An aggregate as a tuple: `("avg", sum, sum_sq, weight, n)`, `("count", hits, weight, n)`,
//! `("histogram", weight, overflowed, [(order, label, count), ...])`, `("max"|"min", value)`
//! with a number, a whole number, a boolean or None. A max or min of another kind of value
//! (a hand type) cannot be sent: `run_chunks` raises `ValueError`, and the statement runs
//! whole on one worker.

use crate::plan::value::Value;
use crate::run::aggregate::{Aggregate, HistKey};
use crate::run::pieces::Piece;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};
use std::collections::BTreeMap;

/// A piece as `(place, accepted, attempted, inner_sampled, [aggregate, ...])`.
pub fn piece_to_py<'py>(py: Python<'py>, part: &Piece) -> PyResult<Bound<'py, PyTuple>> {
    let aggregates = PyList::empty(py);
    for a in &part.aggregates {
        aggregates.append(aggregate_to_py(py, a)?)?;
    }
    (part.place, part.accepted, part.attempted, part.inner_sampled, aggregates).into_pyobject(py)
}

/// The piece sent as [`piece_to_py`] made it, its aggregates of the kinds of `template` (the
/// statement's own, which says each histogram's kind).
pub fn piece_from_py(item: &Bound<'_, PyAny>, template: &[Aggregate]) -> PyResult<Piece> {
    let (place, accepted, attempted, inner_sampled, aggregates): (u64, u64, u64, bool, Vec<Bound<'_, PyAny>>) =
        item.extract()?;
    if aggregates.len() != template.len() {
        return Err(PyValueError::new_err("a piece of another statement: its selectors differ"));
    }
    let aggregates =
        aggregates.iter().zip(template).map(|(a, t)| aggregate_from_py(a, t)).collect::<PyResult<Vec<_>>>()?;
    Ok(Piece { place, accepted, attempted, aggregates, inner_sampled })
}

fn aggregate_to_py<'py>(py: Python<'py>, a: &Aggregate) -> PyResult<Bound<'py, PyAny>> {
    Ok(match a {
        Aggregate::Avg { sum, sum_sq, weight, n } => ("avg", *sum, *sum_sq, *weight, *n).into_pyobject(py)?.into_any(),
        Aggregate::Count { hits, weight, n } => ("count", *hits, *weight, *n).into_pyobject(py)?.into_any(),
        Aggregate::Histogram { buckets, weight, overflowed, .. } => {
            let rows: Vec<(i64, String, f64)> =
                buckets.iter().map(|(k, (c, _))| (k.order(), k.label().to_string(), *c)).collect();
            ("histogram", *weight, *overflowed, rows).into_pyobject(py)?.into_any()
        }
        Aggregate::Max(v) => ("max", extreme_to_py(py, v.as_ref())?).into_pyobject(py)?.into_any(),
        Aggregate::Min(v) => ("min", extreme_to_py(py, v.as_ref())?).into_pyobject(py)?.into_any(),
    })
}

fn extreme_to_py<'py>(py: Python<'py>, v: Option<&Value>) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        None => py.None().into_bound(py),
        Some(Value::Num(x)) => x.into_pyobject(py)?.into_any(),
        Some(Value::Int(i)) => i.into_pyobject(py)?.into_any(),
        Some(Value::Bool(b)) => b.into_pyobject(py)?.to_owned().into_any(),
        Some(other) => {
            return Err(PyValueError::new_err(format!("a max or min of {other} cannot be sent to another process")))
        }
    })
}

fn aggregate_from_py(item: &Bound<'_, PyAny>, template: &Aggregate) -> PyResult<Aggregate> {
    let kind: String = item.get_item(0)?.extract()?;
    Ok(match (kind.as_str(), template) {
        ("avg", Aggregate::Avg { .. }) => {
            let (_, sum, sum_sq, weight, n): (String, f64, f64, f64, u64) = item.extract()?;
            Aggregate::Avg { sum, sum_sq, weight, n }
        }
        ("count", Aggregate::Count { .. }) => {
            let (_, hits, weight, n): (String, f64, f64, u64) = item.extract()?;
            Aggregate::Count { hits, weight, n }
        }
        ("histogram", Aggregate::Histogram { kind, .. }) => {
            let (_, weight, overflowed, rows): (String, f64, bool, Vec<(i64, String, f64)>) = item.extract()?;
            // The shown value only matters where the bucket was made: the label is kept.
            let buckets: BTreeMap<HistKey, (f64, Value)> = rows
                .into_iter()
                .map(|(order, label, count)| {
                    let shown = Value::Str(label.as_str().into());
                    (HistKey::new(order, label), (count, shown))
                })
                .collect();
            Aggregate::Histogram { kind: *kind, buckets, weight, overflowed }
        }
        ("max", Aggregate::Max(_)) => Aggregate::Max(extreme_from_py(&item.get_item(1)?)?),
        ("min", Aggregate::Min(_)) => Aggregate::Min(extreme_from_py(&item.get_item(1)?)?),
        _ => return Err(PyValueError::new_err(format!("a piece of another statement: '{kind}' aggregate"))),
    })
}

fn extreme_from_py(v: &Bound<'_, PyAny>) -> PyResult<Option<Value>> {
    if v.is_none() {
        return Ok(None);
    }
    Ok(Some(if v.is_instance_of::<pyo3::types::PyBool>() {
        Value::Bool(v.extract()?)
    } else if v.is_instance_of::<pyo3::types::PyInt>() {
        Value::Int(v.extract()?)
    } else {
        Value::Num(v.extract()?)
    }))
}
