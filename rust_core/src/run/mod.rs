//! Running a plan on all cores: `runner` chooses exact enumeration or Monte Carlo, splits the
//! work into chunks (each Monte Carlo chunk with its own random stream, so a seed gives the
//! same answer whatever the thread count), evaluates every deal with a trial or a kernel's
//! tally, and merges the chunks' mergeable `aggregate`s into snapshots with standard errors,
//! progress and cancel; `outcome` evaluates showdown-only statements once per distinct winner;
//! `item_order` visits an enumeration's work items in a seeded random order and `cluster`
//! turns the items finished so far into estimates with standard errors (a run cut short);
//! `pieces` cuts a run into chunks or items that run elsewhere (a cluster's tasks) and merges
//! them back.
//!
//! May use: `plan`, `trial`, `kernels`, `deal`, `rng`, `eval`, `games`, `cards`, `error`.
//! Used by `py` and by the Rust tests and benchmarks.

pub mod aggregate;
pub mod cluster;
pub mod item_order;
pub mod outcome;
pub mod pieces;
pub mod runner;
