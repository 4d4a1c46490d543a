//! The engine: deals (Monte Carlo with rejection, or exhaustive), per-deal evaluation of
//! selectors, mergeable aggregates and the parallel runner with progress and cancel.

pub mod aggregate;
mod board_completions;
pub mod compile;
pub mod deal;
pub mod expr;
pub mod given_tally;
pub mod holdem_equity;
pub mod library;
pub mod nuts;
pub mod omaha_equity;
pub mod outcome;
pub mod plan;
pub mod rng;
pub mod runner;
pub mod showdown;
pub mod source;
pub mod stud_equity;
pub mod trial;
pub mod value;
pub mod versus;

/// The keyword of a flop category stored as its index.
pub fn flop_category_name(i: u8) -> &'static str {
    crate::eval::FlopHandCategory::from_index(i).name()
}
