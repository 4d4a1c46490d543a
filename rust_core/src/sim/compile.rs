//! Checked PQL statements -> executable plans: ranges compiled, players resolved to seats,
//! function calls turned into [`Builtin`](super::expr::Builtin)s.

use super::plan::Plan;
use crate::error::{PqlError, Span};

/// A statement ready to run, with what reports need to name it.
#[derive(Clone, Debug)]
pub struct CompiledStatement {
    pub query: String,
    pub span: Span,
    pub players: Vec<String>,
    pub plan: Plan,
}

/// Parses, checks and compiles every statement of `text`.
pub fn compile_program(text: &str) -> Result<Vec<CompiledStatement>, Vec<PqlError>> {
    let _ = text;
    Err(vec![PqlError::runtime("the PQL front end is being merged")])
}
