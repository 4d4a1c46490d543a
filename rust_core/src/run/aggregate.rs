//! Selector aggregates. Each is a plain sum that merges across chunks and threads, so partial
//! results can be reported at any time and the final one does not depend on scheduling.

use crate::limits::{grouped, MAX_HISTOGRAM_BUCKETS};
use crate::plan::value::{format_number, Value};
use crate::plan::HistogramKind;
use std::collections::btree_map::Entry;
use std::collections::BTreeMap;

#[derive(Clone, Debug)]
pub enum Aggregate {
    Avg {
        sum: f64,
        sum_sq: f64,
        weight: f64,
        n: u64,
    },
    Count {
        hits: f64,
        weight: f64,
        n: u64,
    },
    /// At most [`MAX_HISTOGRAM_BUCKETS`] buckets; `overflowed` when a value had no room.
    Histogram {
        kind: HistogramKind,
        buckets: BTreeMap<HistKey, (f64, Value)>,
        weight: f64,
        overflowed: bool,
    },
    Max(Option<Value>),
    Min(Option<Value>),
}

/// Orders histogram buckets by the value's natural order.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct HistKey {
    order: i64,
    text: String,
}

impl HistKey {
    /// The key of a bucket sent from another process (`order`, `label` as they were there).
    pub fn new(order: i64, text: String) -> HistKey {
        HistKey { order, text }
    }

    /// The bucket's label, as [`Aggregate::buckets`] shows it.
    pub fn label(&self) -> &str {
        &self.text
    }

    /// Where the bucket goes among the others.
    pub fn order(&self) -> i64 {
        self.order
    }
}

impl Aggregate {
    pub fn avg() -> Self {
        Aggregate::Avg { sum: 0.0, sum_sq: 0.0, weight: 0.0, n: 0 }
    }
    pub fn count() -> Self {
        Aggregate::Count { hits: 0.0, weight: 0.0, n: 0 }
    }
    pub fn histogram(kind: HistogramKind) -> Self {
        Aggregate::Histogram { kind, buckets: BTreeMap::new(), weight: 0.0, overflowed: false }
    }

    /// Empties the aggregate, keeping its kind.
    pub fn reset(&mut self) {
        *self = match self {
            Aggregate::Avg { .. } => Aggregate::avg(),
            Aggregate::Count { .. } => Aggregate::count(),
            Aggregate::Histogram { kind, .. } => Aggregate::histogram(*kind),
            Aggregate::Max(_) => Aggregate::Max(None),
            Aggregate::Min(_) => Aggregate::Min(None),
        };
    }

    /// Adds one accepted trial with weight `w` (1 in Monte Carlo, the deal's weight when exact).
    #[inline]
    pub fn add(&mut self, v: &Value, w: f64) {
        self.add_repeated(v, w, 1);
    }

    /// Adds `times` trials of equal value, each of weight `w` (outcome tallies replay this way).
    #[inline]
    pub fn add_repeated(&mut self, v: &Value, w: f64, times: u64) {
        let total = w * times as f64;
        // A `case` without `else` that matched nothing: no value to average, bucket or rank;
        // for `count` it is simply not a hit.
        if *v == Value::Null && !matches!(self, Aggregate::Count { .. }) {
            return;
        }
        match self {
            Aggregate::Avg { sum, sum_sq, weight, n } => {
                let x = v.as_f64();
                *sum += total * x;
                *sum_sq += total * x * x;
                *weight += total;
                *n += times;
            }
            Aggregate::Count { hits, weight, n } => {
                if v.as_bool() {
                    *hits += total;
                }
                *weight += total;
                *n += times;
            }
            Aggregate::Histogram { kind, buckets, weight, overflowed } => {
                let (key, shown) = bucket(*kind, v);
                add_to_bucket(buckets, key, || shown, total, overflowed);
                *weight += total;
            }
            Aggregate::Max(best) => {
                if best.as_ref().is_none_or(|b| v.compare(b).is_gt()) {
                    *best = Some(v.clone());
                }
            }
            Aggregate::Min(best) => {
                if best.as_ref().is_none_or(|b| v.compare(b).is_lt()) {
                    *best = Some(v.clone());
                }
            }
        }
    }

    pub fn merge(&mut self, other: &Aggregate) {
        match (self, other) {
            (Aggregate::Avg { sum, sum_sq, weight, n }, Aggregate::Avg { sum: s2, sum_sq: q2, weight: w2, n: n2 }) => {
                *sum += s2;
                *sum_sq += q2;
                *weight += w2;
                *n += n2;
            }
            (Aggregate::Count { hits, weight, n }, Aggregate::Count { hits: h2, weight: w2, n: n2 }) => {
                *hits += h2;
                *weight += w2;
                *n += n2;
            }
            (
                Aggregate::Histogram { buckets, weight, overflowed, .. },
                Aggregate::Histogram { buckets: b2, weight: w2, overflowed: o2, .. },
            ) => {
                for (k, (c, v)) in b2 {
                    add_to_bucket(buckets, k.clone(), || v.clone(), *c, overflowed);
                }
                *weight += w2;
                *overflowed |= o2;
            }
            (Aggregate::Max(a), Aggregate::Max(Some(b))) if a.as_ref().is_none_or(|x| b.compare(x).is_gt()) => {
                *a = Some(b.clone());
            }
            (Aggregate::Min(a), Aggregate::Min(Some(b))) if a.as_ref().is_none_or(|x| b.compare(x).is_lt()) => {
                *a = Some(b.clone());
            }
            _ => {}
        }
    }

    /// Mean (avg) or fraction (count), with its standard error over `n` independent trials.
    pub fn estimate(&self) -> Option<(f64, f64)> {
        match self {
            Aggregate::Avg { sum, sum_sq, weight, n } if *weight > 0.0 => {
                let mean = sum / weight;
                let var = (sum_sq / weight - mean * mean).max(0.0);
                Some((mean, (var / (*n as f64)).sqrt()))
            }
            Aggregate::Count { hits, weight, n } if *weight > 0.0 => {
                let p = hits / weight;
                Some((p, (p * (1.0 - p) / (*n as f64)).sqrt()))
            }
            _ => None,
        }
    }

    /// Whether a histogram met more different values than it may hold.
    pub fn overflowed(&self) -> bool {
        matches!(self, Aggregate::Histogram { overflowed: true, .. })
    }

    /// Histogram rows in the value's natural order: (label, weight, fraction).
    pub fn buckets(&self) -> Vec<(String, f64, f64)> {
        match self {
            Aggregate::Histogram { buckets, weight, .. } => buckets
                .iter()
                .map(|(k, (c, _))| (k.text.clone(), *c, if *weight > 0.0 { c / weight } else { 0.0 }))
                .collect(),
            _ => Vec::new(),
        }
    }
}

/// Adds `weight` to the bucket `key`, making it when there is room for one more.
fn add_to_bucket(
    buckets: &mut BTreeMap<HistKey, (f64, Value)>,
    key: HistKey,
    shown: impl FnOnce() -> Value,
    weight: f64,
    overflowed: &mut bool,
) {
    let room = buckets.len() < MAX_HISTOGRAM_BUCKETS;
    match buckets.entry(key) {
        Entry::Occupied(mut e) => e.get_mut().0 += weight,
        Entry::Vacant(e) if room => {
            e.insert((weight, shown()));
        }
        Entry::Vacant(_) => *overflowed = true,
    }
}

/// The error that stops a run whose histogram `name` overflowed.
pub fn too_many_buckets(name: &str) -> crate::error::PqlError {
    crate::error::PqlError::runtime(format!(
        "the histogram '{}' counts more than {} different values",
        crate::error::excerpt(name),
        grouped(MAX_HISTOGRAM_BUCKETS as u64)
    ))
    .with_hint("group the values, e.g. histogram(case when x < 10 then 'low' else 'high' end), or use avg, min and max")
}

fn bucket(kind: HistogramKind, v: &Value) -> (HistKey, Value) {
    if kind == HistogramKind::Percent {
        let pct = (v.as_f64() * 100.0).floor().clamp(0.0, 99.0) as i64;
        let text = format!("{pct}-{}%", pct + 1);
        return (HistKey { order: pct, text }, Value::Num(pct as f64 / 100.0));
    }
    let order = match v {
        Value::Bool(b) => i64::from(*b),
        Value::Int(i) => *i,
        Value::Num(x) => (x * 1e9).round() as i64,
        Value::Frac(f) => (f.to_f64() * 1e9).round() as i64,
        Value::Card(c) => i64::from(c.rank()) * 4 + i64::from(c.suit()),
        Value::Rank(r) => i64::from(*r),
        Value::RankSet(m) => i64::from(*m),
        // 52 bits: an exact order.
        Value::CardSet(s) => s.bits() as i64,
        Value::Street(s) => *s as i64,
        Value::HandType(_, strength) => i64::from(*strength),
        Value::FlopCat(c) => i64::from(*c),
        Value::Hi(r) => i64::from(r.0),
        Value::Lo(r) => r.map_or(-1, |r| i64::from(r.0)),
        Value::Player(p) => i64::from(*p),
        Value::Str(_) | Value::Null => 0,
    };
    let text = match v {
        Value::Num(x) => format_number(*x),
        other => other.to_string(),
    };
    (HistKey { order, text }, v.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn avg_and_count_estimate_with_standard_errors() {
        let mut a = Aggregate::avg();
        let mut b = Aggregate::avg();
        for i in 0..50 {
            a.add(&Value::Num(f64::from(i % 2)), 1.0);
            b.add(&Value::Num(f64::from(i % 2)), 1.0);
        }
        a.merge(&b);
        let (mean, se) = a.estimate().unwrap();
        assert!((mean - 0.5).abs() < 1e-12);
        assert!((se - 0.05).abs() < 1e-12);
        let mut c = Aggregate::count();
        c.add(&Value::Bool(true), 1.0);
        c.add(&Value::Bool(false), 3.0);
        assert_eq!(c.estimate().unwrap().0, 0.25);
    }

    #[test]
    fn histograms_order_buckets_naturally() {
        let mut h = Aggregate::histogram(HistogramKind::Exact);
        for t in [crate::eval::HandType::Flush, crate::eval::HandType::Pair, crate::eval::HandType::Flush] {
            h.add(&Value::hand_type(t, crate::games::HiRules::Standard), 1.0);
        }
        let rows = h.buckets();
        assert_eq!(rows[0].0, "pair");
        assert_eq!(rows[1], ("flush".to_string(), 2.0, 2.0 / 3.0));
        let mut p = Aggregate::histogram(HistogramKind::Percent);
        p.add(&Value::Num(1.0), 1.0);
        p.add(&Value::Num(0.455), 1.0);
        assert_eq!(p.buckets()[0].0, "45-46%");
        assert_eq!(p.buckets()[1].0, "99-100%");
    }

    #[test]
    fn histograms_hold_a_bounded_number_of_buckets() {
        let mut a = Aggregate::histogram(HistogramKind::Exact);
        let mut b = Aggregate::histogram(HistogramKind::Exact);
        for i in 0..MAX_HISTOGRAM_BUCKETS as i64 {
            a.add(&Value::Int(i), 1.0);
            b.add(&Value::Int(-1 - i), 1.0);
        }
        assert!(!a.overflowed());
        a.add(&Value::Int(0), 1.0); // a value it holds already
        assert!(!a.overflowed());
        let mut c = a.clone();
        c.add(&Value::Int(-1), 1.0);
        assert!(c.overflowed());
        assert_eq!(c.buckets().len(), MAX_HISTOGRAM_BUCKETS);
        a.merge(&b);
        assert!(a.overflowed());
        assert_eq!(a.buckets().len(), MAX_HISTOGRAM_BUCKETS);
        a.reset();
        assert!(!a.overflowed());
    }
}
