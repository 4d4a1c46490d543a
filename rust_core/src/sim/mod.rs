//! The engine: deals (Monte Carlo with rejection, or exhaustive), per-deal evaluation of
//! selectors, mergeable aggregates and the parallel runner with progress and cancel.

pub mod aggregate;
pub mod compile;
pub mod deal;
pub mod expr;
pub mod library;
pub mod plan;
pub mod rng;
pub mod runner;
pub mod showdown;
pub mod source;
pub mod trial;
pub mod value;

/// Flop hand categories in ascending order (PQL-SPEC §3).
pub const FLOP_CATEGORIES: [&str; 18] = [
    "flopnothing",
    "flopunderpair",
    "flopthirdpair",
    "floppocket23",
    "flopsecondpair",
    "floppocket12",
    "floptoppair",
    "flopoverpair",
    "flopbottomtwo",
    "floptopandbottom",
    "floptoptwo",
    "floptrips",
    "flopset",
    "flopstraight",
    "flopflush",
    "flopfullhouse",
    "flopquads",
    "flopstraightflush",
];

pub fn flop_category_name(i: u8) -> &'static str {
    FLOP_CATEGORIES.get(i as usize).copied().unwrap_or("flopnothing")
}
