//! Stud, stud8 and razz hands (PQL-SPEC §5.3).

use super::{Range, Syntax};
use crate::cards::Card;
use crate::error::{PqlError, Span};
use crate::games::Game;

pub(crate) fn parse(text: &str, game: Game, syntax: Syntax) -> Result<Range, PqlError> {
    let _ = (game, syntax);
    Err(PqlError::range("stud ranges are not available yet", Span::new(0, text.len())))
}

pub(crate) fn contains(hands: &[[Option<Card>; 7]], cards: &[Card]) -> bool {
    let _ = (hands, cards);
    false
}

pub(crate) fn hand_string(hand: &[Option<Card>; 7]) -> String {
    hand.iter().map(|c| c.map_or("*".to_string(), |c| c.to_string())).collect()
}
