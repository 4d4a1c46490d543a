//! pql core: cards, evaluators, games, range languages, the PQL language, samplers and analysis.
//!
//! Everything here is pure Rust; the Python bindings live in `py` behind the `python` feature.

pub mod analysis;
pub mod cards;
pub mod error;
pub mod eval;
pub mod functions;
pub mod games;
pub mod limits;
pub mod pql;
pub mod range;
pub mod sim;

#[cfg(feature = "python")]
mod py;

pub use error::{ErrorKind, PqlError, Span};
