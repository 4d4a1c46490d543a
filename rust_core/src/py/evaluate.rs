//! `evaluate()` for one hand and the batch raters used by benchmarks.

use super::errors::guarded;
use crate::cards::{parse_cards, Card, CardSet};
use crate::error::{PqlError, Span};
use crate::eval::{best_five_hi, best_five_lo, rate_hi_for, rate_lo_for, HiRating, LoRating};
use crate::games::Game;
use pyo3::prelude::*;
use pyo3::types::PyDict;

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(evaluate, m)?)?;
    m.add_function(wrap_pyfunction!(rate_batch, m)?)?;
    Ok(())
}

pub fn parse_game(name: &str) -> Result<Game, PqlError> {
    Game::from_name(name.trim()).ok_or_else(|| {
        let mut e = PqlError::range(format!("unknown game '{name}'"), Span::new(0, name.len()));
        if let Some(g) = crate::error::did_you_mean(name, Game::all_names()) {
            e = e.with_hint(format!("did you mean '{g}'?"));
        }
        e
    })
}

fn cards_arg(text: &str, what: &str) -> Result<CardSet, PqlError> {
    parse_cards(text).map_err(|e| PqlError::range(format!("{what}: {}", e.message), Span::new(e.offset, e.offset + 1)))
}

/// Checks the card counts a game allows, so `evaluate` answers only for real hands.
fn check_counts(game: Game, hole: CardSet, board: CardSet) -> Result<(), PqlError> {
    let (h, b) = (hole.len() as usize, board.len() as usize);
    if hole.overlaps(board) {
        return Err(PqlError::runtime("the same card is in the hole cards and on the board"));
    }
    let outside = hole.union(board).minus(game.deck().cards());
    if !outside.is_empty() {
        let named: Vec<String> = outside.iter().map(|c| format!("'{c}'")).collect();
        let verb = if named.len() == 1 { "is" } else { "are" };
        return Err(PqlError::runtime(format!(
            "{} {verb} not in the short deck: {game} is played with sixes to aces only",
            named.join(", ")
        )));
    }
    let ok = if game.is_stud() {
        b == 0 && (1..=7).contains(&h)
    } else if game.is_omaha() {
        h == game.hole_cards() && (3..=5).contains(&b)
    } else {
        h == 2 && (3..=5).contains(&b)
    };
    if ok {
        Ok(())
    } else if game.is_stud() {
        Err(PqlError::runtime(format!("{game}: give one to seven cards as the hole and no board (got {h} and {b})")))
    } else {
        Err(PqlError::runtime(format!(
            "{game}: expected {} hole cards and a board of 3 to 5 cards (got {h} and {b})",
            game.hole_cards()
        )))
    }
}

fn cards_text(c: CardSet) -> String {
    c.to_string()
}

/// `{"hi": {...} | None, "lo": {...} | None}`; each side has category, rating and cards.
#[pyfunction]
#[pyo3(signature = (hole, board = "", game = "holdem"))]
fn evaluate<'py>(py: Python<'py>, hole: &str, board: &str, game: &str) -> PyResult<Bound<'py, PyDict>> {
    // The arguments are separate texts, so errors name the argument instead of a position.
    let unplaced = |e: PqlError| vec![PqlError { span: None, ..e }];
    let (hi, lo) = guarded(py, "", || {
        let g = parse_game(game).map_err(unplaced)?;
        let h = cards_arg(hole, "hole").map_err(unplaced)?;
        let b = cards_arg(board, "board").map_err(unplaced)?;
        check_counts(g, h, b).map_err(unplaced)?;
        let hi: Option<(HiRating, CardSet)> = if g.has_hi() { best_five_hi(g, h, b) } else { None };
        let lo: Option<(LoRating, CardSet)> = if g.has_lo() { best_five_lo(g, h, b) } else { None };
        Ok((hi, lo))
    })?;
    let out = PyDict::new(py);
    match hi {
        Some((r, five)) => {
            let d = PyDict::new(py);
            d.set_item("category", r.hand_type().name())?;
            d.set_item("rating", r.0)?;
            d.set_item("cards", cards_text(five))?;
            out.set_item("hi", d)?;
        }
        None => out.set_item("hi", py.None())?,
    }
    match lo {
        Some((r, five)) => {
            let d = PyDict::new(py);
            d.set_item("category", r.describe())?;
            d.set_item("rating", r.0)?;
            d.set_item("cards", cards_text(five))?;
            out.set_item("lo", d)?;
        }
        None => out.set_item("lo", py.None())?,
    }
    Ok(out)
}

/// Rates many hands at once: `cards` holds dense card numbers (0..52, `rank * 4 + suit`, the
/// layout eval7 and phevaluator use), `hole` then `board` cards per hand. Returns hi ratings (lo
/// ratings for razz). The GIL is released while rating.
#[pyfunction]
#[pyo3(signature = (cards, hole, board, game = "holdem"))]
#[allow(clippy::needless_pass_by_value)] // PyO3 extracts an owned Vec from bytes or a list
fn rate_batch(py: Python<'_>, cards: Vec<u8>, hole: usize, board: usize, game: &str) -> PyResult<Vec<u32>> {
    let source = game.to_string();
    let g = guarded(py, &source, || parse_game(game).map_err(|e| vec![e]))?;
    // checked: huge counts from Python must not wrap into a small hand size.
    let per = hole.checked_add(board).unwrap_or(0);
    if per == 0 || !cards.len().is_multiple_of(per) || cards.iter().any(|&c| c >= 52) {
        return Err(pyo3::exceptions::PyValueError::new_err("cards must be dense card numbers, hole + board per hand"));
    }
    let result = py.detach(|| {
        let set = |s: &[u8]| s.iter().map(|&c| Card::from_dense(c as usize)).collect::<CardSet>();
        cards
            .chunks_exact(per)
            .map(|h| {
                let (hole_cards, board_cards) = (set(&h[..hole]), set(&h[hole..]));
                if g.has_hi() {
                    rate_hi_for(g, hole_cards, board_cards).0
                } else {
                    rate_lo_for(g, hole_cards, board_cards).map_or(0, |r| r.0)
                }
            })
            .collect()
    });
    Ok(result)
}
