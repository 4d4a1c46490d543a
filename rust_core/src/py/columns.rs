//! One selector's aggregate as a result column dict (DESIGN.md §5).

use crate::plan::value::Value;
use crate::plan::Selector;
use crate::run::aggregate::Aggregate;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

/// `exhaustive`: the aggregate comes from an enumeration (no standard errors).
pub fn column<'py>(py: Python<'py>, sel: &Selector, agg: &Aggregate, exhaustive: bool) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("name", &sel.name)?;
    d.set_item("selector", sel.kind.name())?;
    match agg {
        Aggregate::Avg { .. } | Aggregate::Count { .. } => {
            let est = agg.estimate();
            d.set_item("value", est.map(|e| e.0))?;
            d.set_item("stderr", if exhaustive { None } else { est.map(|e| e.1) })?;
            if let Aggregate::Count { hits, .. } = agg {
                d.set_item("count", *hits)?;
            }
        }
        Aggregate::Histogram { .. } => {
            let buckets = PyList::empty(py);
            for (label, count, fraction) in agg.buckets() {
                let b = PyDict::new(py);
                b.set_item("label", label)?;
                b.set_item("count", count)?;
                b.set_item("fraction", fraction)?;
                buckets.append(b)?;
            }
            d.set_item("buckets", buckets)?;
        }
        Aggregate::Max(v) | Aggregate::Min(v) => match v {
            Some(Value::Num(x)) => d.set_item("value", *x)?,
            Some(Value::Int(i)) => d.set_item("value", *i)?,
            Some(Value::Frac(f)) => d.set_item("value", f.to_string())?,
            Some(Value::Bool(b)) => d.set_item("value", *b)?,
            Some(other) => d.set_item("value", other.to_string())?,
            None => d.set_item("value", py.None())?,
        },
    }
    Ok(d)
}
