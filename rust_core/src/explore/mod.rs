//! Range exploration: what the REPL's range explorer asks while the user edits a range. Every
//! starting-hand class's equity against the other players at once (`heatmap`), how a range hits
//! a board (`breakdown`), a range's spread of equities (`distribution`), and the classes of the
//! two-card games in their starting-hand order (`classes`). The long computations run in the
//! background (`background`): streamed snapshots, cancellable, reproducible for a seed.
//!
//! May use: `error`, `rng`, `cards`, `games`, `eval`, `analysis`, `range`, `trial` (flop
//! categories), `run` (thread counts). Used by `py` and the benchmarks.

pub mod background;
pub mod breakdown;
pub mod classes;
pub mod distribution;
pub mod heatmap;

use crate::cards::CardSet;
use crate::error::PqlError;
use crate::games::Game;
use crate::range::{BoardRange, DeadCards};

/// The cards every deal of an exploration shares or draws from: known board cards (a fixed
/// board, or one of a listed pattern's boards per deal) and dead cards.
#[derive(Clone, Debug, Default)]
pub struct Table {
    /// The boards dealt from, each as a set of known cards; one empty board when none is given.
    pub boards: Vec<CardSet>,
    /// How many cards each board of `boards` shows.
    pub board_len: usize,
    pub dead: DeadCards,
}

impl Table {
    /// From a parsed `board=` (None: no board) and `dead=`; a pattern with too many boards to
    /// list is refused (an exploration deals its boards from the list).
    pub fn new(board: Option<&BoardRange>, dead: DeadCards) -> Result<Table, PqlError> {
        let (boards, board_len) = match board {
            Some(b) if !b.is_any() => {
                let Some(list) = b.boards() else {
                    return Err(PqlError::runtime(
                        "the board pattern allows too many boards to explore: name more of its cards",
                    ));
                };
                (list.iter().map(|cards| CardSet::from_cards(cards.iter().copied())).collect(), b.cards_len())
            }
            _ => (vec![CardSet::EMPTY], 0),
        };
        Ok(Table { boards, board_len, dead })
    }

    /// The one board every deal shows, when there is exactly one and no dead-card choice.
    pub fn fixed(&self) -> Option<CardSet> {
        (self.boards.len() == 1 && self.dead.choices.is_empty()).then(|| self.boards[0])
    }
}

/// The game's two-card check: the grid, the heatmap and the breakdown are hold'em-shaped.
pub(crate) fn two_card_game(game: Game) -> Result<(), PqlError> {
    if game.is_stud() || game.hole_cards() != 2 {
        return Err(PqlError::runtime(format!(
            "{} has no 13x13 grid: the heatmap is for hold'em and short deck",
            game.title()
        )));
    }
    Ok(())
}
