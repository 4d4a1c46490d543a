//! Planning: a checked statement becomes an executable [`Plan`] (`compile`): how to deal it (a
//! `deal::source::DealSpec`), what to filter and what to aggregate, as expressions whose
//! functions are resolved to built-ins (`expr`, values in `value`), and what the costly
//! functions cost per deal (`cost`), from which the runner chooses exact enumeration.
//!
//! May use: `pql` (the checked statement), `functions`, `range`, `deal`, `kernels` and
//! `analysis` (their budgets), `eval`, `games`, `cards`, `error`. Nothing here runs: `trial`
//! evaluates the expressions on a deal and `run` runs the plan.

pub mod compile;
pub mod cost;
pub mod expr;
pub mod value;

use self::expr::Expr;
use crate::deal::source::DealSpec;

/// How histogram values are bucketed and labelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HistogramKind {
    /// One bucket per distinct value.
    Exact,
    /// Equities: 100 one-percent buckets (0-1%, ..., 99-100%) as the original reports them.
    Percent,
}

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
