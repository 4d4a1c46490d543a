//! The runner.

pub mod aggregate;
pub mod outcome;
pub mod runner;
