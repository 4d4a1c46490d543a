//! The `simulate` statement (docs/language/simulate.md, Loki-2's selective sampling): the expected value of
//! each candidate action, found by playing the hand out many times from one deal per trial
//! against opponents drawn from weighted ranges, every later action drawn from the player's
//! probability triple. `strength` (EHS' as the simulated players see it), `triple` (the
//! probability triple), `spot` (the statement made ready: holdings, weights, reweighting from
//! observed actions), `hand` (one trial's deal and play), `run` (batches in the background,
//! statistics, the obvious-move stop, the choice), `program` (a program's statements, select or
//! simulate, compiled for the Python glue).
//!
//! May use: `error`, `rng`, `cards`, `games`, `eval`, `analysis`, `range`, `pql`, `plan`
//! (statement compilation), `run` (thread counts, seeds), `explore` (the background jobs).
//! Used by `py` and the benchmarks.

pub mod hand;
pub mod program;
pub mod run;
pub mod spot;
pub mod strength;
pub mod triple;
