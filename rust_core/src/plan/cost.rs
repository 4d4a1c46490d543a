//! What the costly functions may spend per deal, and what the planner expects them to cost.
//! The budgets are kept by the trial's functions (`trial::versus`: exact `HvREquity` while it
//! fits, sampled beyond); the planner adds up the costs to choose between exact enumeration
//! and Monte Carlo (`Plan::inner_cost`).

use crate::analysis::potential::POTENTIAL_BUDGET;
use crate::games::{Game, Street};

/// Showdowns (or their fast-path equivalent) enumerated exactly for `HvREquity` per deal.
pub const HVR_EXACT_BUDGET: f64 = 100_000.0;
/// The same when p's hand and the board on the street are fixed: computed once per run and
/// worker, kept across deals (an Omaha flop against a random hand fits).
pub const HVR_REPEATED_BUDGET: f64 = 200_000_000.0;
/// Joint deals sampled for `HvREquity` when the exact enumeration is too large.
pub const HVR_SAMPLES: u32 = 2_000;
/// The same for an `HvREquity` that is an `avg` selector's whole expression in a Monte Carlo
/// run: each deal's value is then an unbiased estimate of the same equity, whose noise the
/// run's standard error measures with the rest, and only the mean is reported, so the mean
/// means what it did and only its noise grows. A trial's variance is the spread of the equity
/// from deal to deal plus the inner samples' (about 0.2 / samples): for Omaha `AA**` against
/// 20% on the flop 0.0186 + 0.2 / samples, and a trial costs about 4 + 0.12 · samples µs on two
/// cores, so the time to a given error is least near 20 samples and 50 is within a fifth of it
/// (2,000: 25 times slower). Where the equity hardly varies between deals the inner samples are
/// all the noise, and fewer per trial cost only the trial's fixed part. Issue 16, measured in
/// `benchmarks/bench_hvr.py`.
pub const HVR_AVERAGED_SAMPLES: u32 = 50;

/// About how many evaluations `HvREquity` costs per deal on `street`, for choosing exact runs.
pub fn inner_cost_hvr(game: Game, street: Street) -> f64 {
    if street == game.last_street() {
        f64::from(HVR_SAMPLES)
    } else {
        50_000.0
    }
}

/// About how many evaluations a potential costs per deal looking from `street`.
pub fn inner_cost_potential(street: Street, one_card: bool) -> f64 {
    match street {
        Street::Flop if !one_card => POTENTIAL_BUDGET,
        _ => 50_000.0,
    }
}
