//! pql core: cards, evaluators, games, range languages, the PQL language and the engine that
//! answers it (plan, deals, trials, kernels, runner), and hand analysis.
//!
//! Everything here is pure Rust; the Python bindings live in `py` behind the `python` feature.
//! The rooms are listed lowest first: each uses only rooms listed before it (ARCHITECTURE.md).

pub mod limits;
pub mod error;
pub mod interrupt;
pub mod rng;

pub mod cards;
pub mod games;
pub mod eval;
pub mod analysis;
pub mod range;
pub mod functions;
pub mod pql;

pub mod deal;
pub mod kernels;
pub mod plan;
pub mod trial;
pub mod run;
pub mod explore;
pub mod simulate;

#[cfg(feature = "python")]
mod py;

pub use error::{ErrorKind, PqlError, Span};
