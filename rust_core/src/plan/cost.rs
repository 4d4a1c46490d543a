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
