//! The PQL language front end: lexer, parser (spans on every node), type checker.
//! `check_program` is the entry point the planner and the Python API call.

pub mod ast;
pub mod checker;
pub mod lexer;
pub mod parser;
pub mod typed;
pub mod types;
pub mod vocab;

pub use vocab::{KEYWORDS, RESERVED_KEYS, SELECTORS};

use crate::error::PqlError;
use typed::CheckedStatement;

/// Parses and checks every `;`-separated statement of `text` (empty statements are skipped).
/// All errors of all statements are returned together, in source order.
pub fn check_program(text: &str) -> Result<Vec<CheckedStatement>, Vec<PqlError>> {
    let (statements, mut errors) = parser::parse_program(text);
    let mut checked = Vec::with_capacity(statements.len());
    for statement in &statements {
        match checker::check_statement(text, statement) {
            Ok(c) => checked.push(c),
            Err(e) => errors.extend(e),
        }
    }
    if errors.is_empty() {
        Ok(checked)
    } else {
        errors.sort_by_key(|e| e.span.map_or(0, |s| s.start));
        Err(errors)
    }
}
