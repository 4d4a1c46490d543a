//! An executable statement: how to deal it, what to filter, what to aggregate.

pub mod compile;
pub mod expr;
pub mod value;

use self::expr::Expr;
use crate::deal::source::DealSpec;
use crate::run::aggregate::HistogramKind;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SelectorKind {
    Avg,
    Count,
    Histogram(HistogramKind),
    Max,
    Min,
}

impl SelectorKind {
    pub fn name(self) -> &'static str {
        match self {
            SelectorKind::Avg => "avg",
            SelectorKind::Count => "count",
            SelectorKind::Histogram(_) => "histogram",
            SelectorKind::Max => "max",
            SelectorKind::Min => "min",
        }
    }
}

#[derive(Clone, Debug)]
pub struct Selector {
    pub name: String,
    pub kind: SelectorKind,
    pub expr: Expr,
}

#[derive(Clone, Debug)]
pub struct Plan {
    /// The statement's text, for reports.
    pub query: String,
    pub spec: DealSpec,
    pub filter: Option<Expr>,
    pub selectors: Vec<Selector>,
    /// Evaluations per deal beyond the showdown (inner enumerations), for choosing exact runs.
    pub inner_cost: f64,
}
