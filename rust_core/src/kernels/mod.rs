//! The specialised inner loops: who wins at showdown, and the fast paths that settle many deals
//! at once instead of rating each one by one.
//!
//! - `showdown`: one deal's hi and lo ratings and pot shares; the plain path, and the reference
//!   every kernel here is tested against.
//! - `given_tally`: showdowns of given hands over many deals, tallied by who wins, exhaustive
//!   and Monte Carlo (equity questions about given hands in every game); `board_ranks`: its
//!   exact hold'em boards, counted by rank multiset; `range_draws`: the Monte Carlo showdowns
//!   of hold'em hands from ranges and random hands, on the deals of `deal::joint` (the same
//!   deals, from the same stream, as the deal-by-deal path).
//! - `holdem_equity`, `omaha_equity` (sharing `board_completions`): exact equity from the flop
//!   or the turn; `stud_equity`: exact stud equity on a street.
//!
//! May use: `cards`, `games`, `eval`, `deal`, `rng`. Knows nothing of PQL: the trial's
//! functions and the runner call these. A faster engine's inner loop goes here, tested against
//! `showdown` on random deals.

mod board_completions;
pub mod board_ranks;
pub mod given_tally;
pub mod holdem_equity;
pub mod omaha_equity;
pub mod range_draws;
pub mod showdown;
pub mod stud_equity;
