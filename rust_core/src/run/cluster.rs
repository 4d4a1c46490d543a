//! What an exhaustive run cut short can say: its work items are visited in a seeded random
//! order (`item_order.rs`), so the items finished first are a sample of the items drawn
//! without replacement, and each selector's value over them (a sum over the items' deals
//! divided by the items' weight) is a ratio estimator of the whole enumeration's value. This
//! module takes the finished items in the order they were handed out (an item finished ahead
//! of an earlier one waits, so the sample is always a first part of the order, never biased
//! towards small items that finish quickly), and keeps the moments its standard error needs.
//!
//! The standard error is the cluster-sampling one of a ratio `R = Σy / Σw` over `n` of the `N`
//! items, `y` an item's sum and `w` its weight:
//! `SE² = (1 - n/N) · n / (Σw)² · Σ(y - R·w)² / (n - 1)`,
//! with the finite-population correction `1 - n/N`, so it is 0 once every item is done (the
//! value is then the exact one).

use super::aggregate::{Aggregate, HistKey};
use std::collections::{BTreeMap, HashMap};

/// Fewer items than this give no standard error: their spread says too little of the spread
/// of all the items (items differ in size and content, a few big ones may be unseen, and a
/// dozen items that happen to share one value, as hands facing the same two outs do, would
/// claim an error near 0).
pub const MIN_ITEMS: u64 = 30;

/// Σy² and Σy·w over the items, for one ratio (an average, a count, a histogram bucket).
#[derive(Clone, Copy, Debug, Default)]
struct Cross {
    yy: f64,
    yw: f64,
}

/// One selector's item moments: Σw², and the cross terms of its ratio (avg, count: `None`) or
/// of each histogram bucket (absent buckets have y = 0 and add nothing).
#[derive(Clone, Debug, Default)]
struct Moments {
    ww: f64,
    cross: BTreeMap<Option<HistKey>, Cross>,
}

/// The finished items of an enumeration, taken into the sample in order.
#[derive(Clone, Debug)]
pub struct ClusterSample {
    /// Items of the whole enumeration (N).
    pub items_total: u64,
    /// Items in the sample (n): positions `0..items_done` of the order.
    pub items_done: u64,
    moments: Vec<Moments>,
    /// The items' values were sampled inside their deals: even the whole enumeration has an
    /// error, taken as the spread of the items without the finite-population correction (see
    /// [`ClusterSample::with_inner_noise`]).
    inner_noise: bool,
}

impl ClusterSample {
    pub fn new(selectors: usize, items_total: u64) -> ClusterSample {
        ClusterSample { items_total, items_done: 0, moments: vec![Moments::default(); selectors], inner_noise: false }
    }

    /// The sample read as one whose items' values were sampled inside their deals. Each item's
    /// sum then carries its own sampling noise, independent from item to item, which adds to
    /// the spread of the sums; the spread without the finite-population correction (the error
    /// of items drawn with replacement) is at least that noise's share, so it covers the real
    /// error, conservatively, also once every item is in.
    pub fn with_inner_noise(&self) -> ClusterSample {
        ClusterSample { inner_noise: true, ..self.clone() }
    }

    pub fn complete(&self) -> bool {
        self.items_done >= self.items_total
    }

    /// Counts one item's aggregates (one per selector) into the moments; the caller merges
    /// them into the run's totals.
    pub fn add_item(&mut self, item: &[Aggregate]) {
        self.items_done += 1;
        for (m, agg) in self.moments.iter_mut().zip(item) {
            let mut add = |key: Option<HistKey>, y: f64, w: f64| {
                let c = m.cross.entry(key).or_default();
                c.yy += y * y;
                c.yw += y * w;
            };
            let w = match agg {
                Aggregate::Avg { sum, weight, .. } => {
                    add(None, *sum, *weight);
                    *weight
                }
                Aggregate::Count { hits, weight, .. } => {
                    add(None, *hits, *weight);
                    *weight
                }
                Aggregate::Histogram { buckets, weight, .. } => {
                    for (key, (count, _)) in buckets {
                        add(Some(key.clone()), *count, *weight);
                    }
                    *weight
                }
                Aggregate::Max(_) | Aggregate::Min(_) => 0.0,
            };
            m.ww += w * w;
        }
    }

    /// The standard error of selector `i`'s value (avg, count) given its merged aggregate;
    /// `None` when it has none (max, min, nothing accepted, or fewer than [`MIN_ITEMS`] items
    /// of more).
    pub fn stderr(&self, i: usize, total: &Aggregate) -> Option<f64> {
        let (y, w) = match total {
            Aggregate::Avg { sum, weight, .. } => (*sum, *weight),
            Aggregate::Count { hits, weight, .. } => (*hits, *weight),
            _ => return None,
        };
        let m = self.moments.get(i)?;
        self.ratio_stderr(y, w, m.ww, m.cross.get(&None).copied().unwrap_or_default())
    }

    /// The standard error of each histogram bucket's share of selector `i`, by bucket label
    /// (the labels of [`Aggregate::buckets`]).
    pub fn bucket_stderrs(&self, i: usize, total: &Aggregate) -> HashMap<String, f64> {
        let (Aggregate::Histogram { buckets, weight, .. }, Some(m)) = (total, self.moments.get(i)) else {
            return HashMap::new();
        };
        buckets
            .iter()
            .filter_map(|(key, (count, _))| {
                let cross = m.cross.get(&Some(key.clone())).copied().unwrap_or_default();
                Some((key.label().to_string(), self.ratio_stderr(*count, *weight, m.ww, cross)?))
            })
            .collect()
    }

    /// The module doc's formula for the ratio `y / w` (sums over the sample's items).
    fn ratio_stderr(&self, y: f64, w: f64, ww: f64, cross: Cross) -> Option<f64> {
        if self.complete() && !self.inner_noise {
            return Some(0.0);
        }
        let n = self.items_done as f64;
        if self.items_done < MIN_ITEMS || w <= 0.0 {
            return None;
        }
        let r = y / w;
        // Σ(y - r·w)², expanded; rounding can leave it a hair below zero.
        let residual = (cross.yy - 2.0 * r * cross.yw + r * r * ww).max(0.0);
        if self.inner_noise && residual == 0.0 {
            // Every item the same: the values sampled inside are one value kept across the
            // deals (not independent draws), whose error the items cannot show.
            return None;
        }
        let fpc = if self.inner_noise { 1.0 } else { 1.0 - n / self.items_total as f64 };
        Some((fpc * n / (w * w) * residual / (n - 1.0)).sqrt())
    }
}

/// Items finished out of order wait here until every earlier position is done, so that the
/// sample grows as a first part of the order.
pub struct InOrder<T> {
    next: u64,
    waiting: BTreeMap<u64, T>,
}

impl<T> InOrder<T> {
    /// The first item due is the one at `position` (0, or a cluster task's first).
    pub fn starting_at(position: u64) -> Self {
        InOrder { next: position, waiting: BTreeMap::new() }
    }

    /// Whether the item at `position` is the next one due (it can go straight in).
    pub fn is_next(&self, position: u64) -> bool {
        position == self.next
    }

    /// Records that the item at `position` (the next one due) went in; returns the waiting
    /// items that are now due, in order.
    pub fn took(&mut self, position: u64) -> Vec<T> {
        debug_assert_eq!(position, self.next);
        self.next += 1;
        let mut due = Vec::new();
        while let Some(item) = self.waiting.remove(&self.next) {
            due.push(item);
            self.next += 1;
        }
        due
    }

    /// Keeps the item at `position` (not yet due) until its turn.
    pub fn wait(&mut self, position: u64, item: T) {
        self.waiting.insert(position, item);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::value::Value;
    use crate::rng::Rng;

    /// A population of items of unequal sizes whose values drift with the item number, as an
    /// enumeration's items in deck order do.
    fn population(items: usize) -> Vec<Vec<f64>> {
        let mut rng = Rng::new(5, 0);
        (0..items)
            .map(|i| {
                let size = 1 + rng.below(40) as usize;
                (0..size).map(|_| i as f64 / items as f64 + rng.below(100) as f64 / 100.0).collect()
            })
            .collect()
    }

    fn item_aggregate(values: &[f64]) -> Aggregate {
        let mut a = Aggregate::avg();
        for &v in values {
            a.add(&Value::Num(v), 1.0);
        }
        a
    }

    /// Random first parts of the population: the estimate is within a few of its standard
    /// errors of the population's mean about as often as a normal variable is, and the
    /// standard error is 0 (the value exact) once every item is in.
    #[test]
    fn the_ratio_estimate_covers_the_population_value() {
        let pop = population(300);
        let all: Vec<f64> = pop.iter().flatten().copied().collect();
        let truth = all.iter().sum::<f64>() / all.len() as f64;
        let mut within = 0;
        let tries = 400;
        for seed in 0..tries {
            let order = super::super::item_order::ItemOrder::new(pop.len() as u64, seed);
            let mut sample = ClusterSample::new(1, pop.len() as u64);
            let mut total = Aggregate::avg();
            for p in 0..60 {
                let item = item_aggregate(&pop[order.item(p) as usize]);
                sample.add_item(std::slice::from_ref(&item));
                total.merge(&item);
            }
            let (value, _) = total.estimate().unwrap();
            let se = sample.stderr(0, &total).unwrap();
            assert!(se > 0.0);
            if (value - truth).abs() < 1.96 * se {
                within += 1;
            }
        }
        // About 95% expected; binomial spread over 400 tries is about 1.1%.
        let share = f64::from(within) / f64::from(tries as u32);
        assert!((0.90..=0.99).contains(&share), "{share}");
        let mut sample = ClusterSample::new(1, pop.len() as u64);
        let mut total = Aggregate::avg();
        for values in &pop {
            let item = item_aggregate(values);
            sample.add_item(std::slice::from_ref(&item));
            total.merge(&item);
        }
        assert!((total.estimate().unwrap().0 - truth).abs() < 1e-12);
        assert_eq!(sample.stderr(0, &total), Some(0.0));
    }

    /// Every item's values sampled inside its deals (a true value plus noise of its own): the
    /// whole enumeration's error read with the inner noise covers the noise's real spread, in
    /// about 95% of runs or more (it also counts the items' own spread, so it is conservative).
    #[test]
    fn a_whole_enumeration_of_noisy_values_has_an_error_that_covers_the_noise() {
        let pop = population(200);
        let all: Vec<f64> = pop.iter().flatten().copied().collect();
        let truth = all.iter().sum::<f64>() / all.len() as f64;
        let mut rng = crate::rng::Rng::new(77, 5);
        let (mut within, tries) = (0, 300);
        for _ in 0..tries {
            let mut sample = ClusterSample::new(1, pop.len() as u64);
            let mut total = Aggregate::avg();
            for values in &pop {
                let noisy: Vec<f64> = values.iter().map(|v| v + (rng.unit() - 0.5) * 2.0).collect();
                let item = item_aggregate(&noisy);
                sample.add_item(std::slice::from_ref(&item));
                total.merge(&item);
            }
            assert_eq!(sample.stderr(0, &total), Some(0.0), "exact values: no error");
            let se = sample.with_inner_noise().stderr(0, &total).unwrap();
            assert!(se > 0.0);
            if (total.estimate().unwrap().0 - truth).abs() < 1.96 * se {
                within += 1;
            }
        }
        let share = f64::from(within) / f64::from(tries);
        assert!(share >= 0.93, "{share}");
    }

    #[test]
    fn a_few_items_of_many_have_no_standard_error() {
        let mut sample = ClusterSample::new(1, 100);
        let mut total = Aggregate::avg();
        for i in 0..MIN_ITEMS {
            assert_eq!(sample.stderr(0, &total), None);
            let item = item_aggregate(&[0.5, i as f64]);
            sample.add_item(std::slice::from_ref(&item));
            total.merge(&item);
        }
        assert!(sample.stderr(0, &total).is_some_and(|se| se > 0.0));
        // All the items, however few: exact.
        let item = item_aggregate(&[0.5, 1.0]);
        let mut whole = ClusterSample::new(1, 1);
        whole.add_item(std::slice::from_ref(&item));
        assert_eq!(whole.stderr(0, &item), Some(0.0));
    }

    /// Histogram buckets are ratios too: a bucket seen in every item in the same share has no
    /// spread; one seen in some items only has.
    #[test]
    fn histogram_buckets_have_their_own_standard_errors() {
        let mut sample = ClusterSample::new(1, 100);
        let mut total = Aggregate::histogram(crate::plan::HistogramKind::Exact);
        for i in 0..MIN_ITEMS {
            let mut h = Aggregate::histogram(crate::plan::HistogramKind::Exact);
            h.add(&Value::Int(1), 1.0);
            h.add(&Value::Int(if i % 3 == 0 { 2 } else { 3 }), 1.0);
            sample.add_item(std::slice::from_ref(&h));
            total.merge(&h);
        }
        let se = sample.bucket_stderrs(0, &total);
        assert!(se["1"].abs() < 1e-9, "{se:?}");
        assert!(se["2"] > 0.01 && se["3"] > 0.01, "{se:?}");
    }

    #[test]
    fn items_finished_out_of_order_wait_for_their_turn() {
        let mut queue = InOrder::starting_at(0);
        assert!(!queue.is_next(2));
        queue.wait(2, "c");
        queue.wait(1, "b");
        assert!(queue.is_next(0));
        assert_eq!(queue.took(0), vec!["b", "c"]);
        assert!(queue.is_next(3));
        assert_eq!(queue.took(3), Vec::<&str>::new());
    }
}
