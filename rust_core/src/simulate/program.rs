//! A program's statements compiled, each a query plan (`select`) or a simulation spot
//! (`simulate`): what the Python glue holds and starts.

use super::spot::{self, Observed, Spot};
use crate::error::PqlError;
use crate::interrupt::Interrupt;
use crate::plan::compile::{compile_checked, CompiledStatement};
use crate::range::Macros;

pub enum Compiled {
    Query(std::sync::Arc<CompiledStatement>),
    Simulate(Box<Spot>),
}

/// Parses, checks and compiles every statement of `text` (starting at `origin` of a larger
/// text), with the user's named ranges; `observed`: actions seen at the table (the REPL's
/// `.observe`), added to every simulate statement's `history` for the players it seats.
pub fn compile_program(
    text: &str,
    origin: (usize, usize),
    macros: &Macros,
    observed: &[Observed],
) -> Result<Vec<Compiled>, Vec<PqlError>> {
    compile_program_stopping(text, origin, macros, observed, &Interrupt::NONE)
}

/// As `compile_program`, stopping when `interrupt` says so: between two statements and between
/// two observations of a simulate statement's history (each may read ranges for a second).
/// Cancelled, it returns a `Cancelled` error; past the time limit, an error at the statement.
pub fn compile_program_stopping(
    text: &str,
    origin: (usize, usize),
    macros: &Macros,
    observed: &[Observed],
    interrupt: &Interrupt,
) -> Result<Vec<Compiled>, Vec<PqlError>> {
    let checked = crate::pql::check_program_at(text, origin)?;
    let mut compiled = Vec::with_capacity(checked.len());
    let mut errors = Vec::new();
    for statement in &checked {
        if let Err(why) = interrupt.check() {
            return Err(vec![why.error(statement.span)]);
        }
        let result = if statement.simulate.is_some() {
            spot::compile_stopping(statement, macros, observed, interrupt).map(|s| Compiled::Simulate(Box::new(s)))
        } else {
            compile_checked(statement, macros).map(|q| Compiled::Query(std::sync::Arc::new(q)))
        };
        match result {
            Ok(c) => compiled.push(c),
            Err(e) => errors.extend(e),
        }
    }
    if errors.is_empty() {
        Ok(compiled)
    } else {
        Err(crate::error::cap_errors(errors))
    }
}
