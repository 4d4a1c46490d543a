//! Percent ranges: the game's starting hands in order of strength (see `rust_core/data/README.md`).

use super::universe::HandSet;
use crate::cards::CardSet;
use crate::error::{PqlError, Span};
use crate::games::Game;

/// The hands from `from`% to `to`% of the ordering.
pub(crate) fn percent_set(game: Game, from: f64, to: f64, six_max: bool, span: Span) -> Result<HandSet, PqlError> {
    let _ = (game, from, to, six_max);
    Err(PqlError::range("percentage ranges are not available yet", span))
}

/// `handRanking`: a flop-game starting hand's position in the game's ordering as a percentile
/// in (0, 100]: `hand_percentile(..) <= 15` iff the hand is in `15%`.
pub fn hand_percentile(game: Game, hand: CardSet, six_max: bool) -> f64 {
    let _ = (game, hand, six_max);
    100.0
}
