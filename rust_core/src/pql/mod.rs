//! The PQL language front end: lexer, parser (spans on every node), type checker.
//! `check_program` is the entry point the planner and the Python API call.
//!
//! May use: `functions` (the catalogue and the value types), `range` (syntax names), `eval`
//! (hand types, flop categories), `games`, `cards`, `error`.

pub mod ast;
pub mod checker;
pub mod lexer;
pub mod parser;
pub mod simulate;
pub mod typed;
pub mod vocab;

pub use vocab::{ACTIONS, KEYWORDS, PLAYER_SETTINGS, RESERVED_KEYS, SELECTORS, SIMULATE_KEYS};

use crate::error::{cap_errors, ErrorKind, PqlError, SourceMap};
use typed::CheckedStatement;

/// Parses and checks every `;`-separated statement of `text` (empty statements are skipped).
/// All errors of all statements are returned together: the syntax errors first, then the others,
/// each in source order, so the first error (the exception Python raises) is a syntax error
/// whenever the text has one. At most `error::MAX_ERRORS` are returned, then a count of the rest.
pub fn check_program(text: &str) -> Result<Vec<CheckedStatement>, Vec<PqlError>> {
    check_program_at(text, (1, 1))
}

/// As `check_program`, for a text whose first character is at `origin` (line, column) of a
/// larger text (a statement of a script): positions named in messages are those of the larger
/// text; spans stay offsets into `text`.
pub fn check_program_at(text: &str, origin: (usize, usize)) -> Result<Vec<CheckedStatement>, Vec<PqlError>> {
    let (statements, mut errors) = parser::parse_program_at(text, origin);
    let map = SourceMap::with_origin(text, origin);
    let mut checked = Vec::with_capacity(statements.len());
    for statement in &statements {
        match checker::check_statement(text, &map, statement, errors.len()) {
            Ok(c) => checked.push(c),
            Err(e) => errors.extend(e),
        }
    }
    if errors.is_empty() {
        Ok(checked)
    } else {
        errors.sort_by_key(|e| (e.kind != ErrorKind::Syntax, e.span.map_or(0, |s| s.start)));
        Err(cap_errors(errors))
    }
}
