//! One selector's aggregate as a result column dict (docs/cli.md, output formats).

use crate::plan::value::Value;
use crate::plan::Selector;
use crate::run::aggregate::Aggregate;
use crate::run::cluster::ClusterSample;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

/// Where a column's standard errors come from.
#[derive(Clone, Copy)]
pub enum Errors<'a> {
    /// Monte Carlo: independent trials (histogram buckets' errors are left to the reader).
    Sampled,
    /// A finished enumeration: none.
    None,
    /// An enumeration so far or cut short: selector `.1` of a sample of its work items.
    Items(&'a ClusterSample, usize),
}

pub fn column<'py>(
    py: Python<'py>,
    sel: &Selector,
    agg: &Aggregate,
    errors: Errors<'_>,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("name", &sel.name)?;
    d.set_item("selector", sel.kind.name())?;
    match agg {
        Aggregate::Avg { .. } | Aggregate::Count { .. } => {
            let est = agg.estimate();
            d.set_item("value", est.map(|e| e.0))?;
            let stderr = match errors {
                Errors::Sampled => est.map(|e| e.1),
                Errors::None => None,
                Errors::Items(sample, i) => sample.stderr(i, agg),
            };
            d.set_item("stderr", stderr)?;
            if let Aggregate::Count { hits, .. } = agg {
                d.set_item("count", *hits)?;
            }
        }
        Aggregate::Histogram { .. } => {
            let buckets = PyList::empty(py);
            let stderrs = match errors {
                Errors::Items(sample, i) => sample.bucket_stderrs(i, agg),
                _ => std::collections::HashMap::new(),
            };
            for (label, count, fraction) in agg.buckets() {
                let b = PyDict::new(py);
                if let Some(se) = stderrs.get(&label) {
                    b.set_item("stderr", *se)?;
                }
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
