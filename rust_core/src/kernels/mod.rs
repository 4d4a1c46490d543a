//! The specialised inner loops.

mod board_completions;
pub mod given_tally;
pub mod holdem_equity;
pub mod omaha_equity;
pub mod showdown;
pub mod stud_equity;
