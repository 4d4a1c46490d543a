//! How a range hits a board (Flopzilla's question): for every starting hand of a two-card game
//! that the board and the dead cards leave possible, its hand type, its flop category (on a
//! flop) and its draws (on the flop and the turn). The explorer adds these up with the range's
//! weights, so editing the range costs no new computation.

use super::classes::Classes;
use crate::analysis::{backdoor_flush_draw, draws};
use crate::cards::{Card, CardSet};
use crate::eval::{rate_hi, FlopHandCategory, HandType};
use crate::trial::nuts::flop_category_of;

/// Draw bits of [`HandFacts::draws`].
pub const FLUSH_DRAW: u8 = 1;
pub const OPEN_ENDED: u8 = 2;
pub const GUTSHOT: u8 = 4;
pub const BACKDOOR_FLUSH: u8 = 8;
/// The draws in bit order, as PQL names them.
pub const DRAW_NAMES: [&str; 4] = ["flushdraw", "openended", "gutshot", "backdoorflush"];

/// What one starting hand has on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HandFacts {
    pub hand_type: HandType,
    /// On a three-card board only.
    pub flop_category: Option<FlopHandCategory>,
    /// [`FLUSH_DRAW`] | [`OPEN_ENDED`] | [`GUTSHOT`] | [`BACKDOOR_FLUSH`] (the definitions of
    /// `flushDraw`, `openEndedStraightDraw`, `gutshotStraightDraw` and `backdoorFlushDraw`
    /// with no other player's cards known).
    pub draws: u8,
}

/// The facts of every hand of `classes` on `board` (three to five cards), None for the hands
/// the board or the `dead` cards make impossible.
pub fn breakdown(classes: &Classes, board: CardSet, dead: CardSet) -> Vec<Option<HandFacts>> {
    let game = classes.game;
    let rules = game.hi_rules();
    let deck = game.deck().cards();
    let drawing = matches!(board.len(), 3 | 4);
    classes
        .hands
        .iter()
        .map(|&hand| {
            if hand.overlaps(board) || hand.overlaps(dead) || board.len() < 3 {
                return None;
            }
            let hand_type = rate_hi(hand.union(board), rules).hand_type();
            let flop_category = (board.len() == 3).then(|| flop_category_of(hand, board, game));
            let mut bits = 0;
            if drawing {
                let unseen: Vec<Card> = deck.minus(hand).minus(board).minus(dead).iter().collect();
                let d = draws(game, hand, board, &unseen, &[]);
                bits |= if d.flush > 0 { FLUSH_DRAW } else { 0 };
                bits |= if d.open_ended() { OPEN_ENDED } else { 0 };
                bits |= if d.gutshot() { GUTSHOT } else { 0 };
                if board.len() == 3 && backdoor_flush_draw(game, hand, board) {
                    bits |= BACKDOOR_FLUSH;
                }
            }
            Some(HandFacts { hand_type, flop_category, draws: bits })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;
    use crate::games::Game;

    #[test]
    fn facts_of_some_hands() {
        let classes = Classes::new(Game::Holdem).unwrap();
        let board = parse_cards("Kh9h7d").unwrap();
        let facts = breakdown(&classes, board, parse_cards("As").unwrap());
        let of = |h: &str| {
            let i = classes.hands.iter().position(|&x| x == parse_cards(h).unwrap()).unwrap();
            facts[i]
        };
        assert_eq!(of("KsKd").unwrap().flop_category, Some(FlopHandCategory::Set));
        assert_eq!(of("KsKd").unwrap().hand_type, HandType::Trips);
        assert!(of("AsQs").is_none() && of("Kh9c").is_none());
        let f = of("QhJh").unwrap();
        assert_eq!((f.hand_type, f.draws), (HandType::HighCard, FLUSH_DRAW | GUTSHOT));
        assert_eq!(of("8s6c").unwrap().draws, OPEN_ENDED);
        assert_eq!(of("8s5c").unwrap().draws, GUTSHOT);
        assert_eq!(of("QdJd").unwrap().draws, GUTSHOT | BACKDOOR_FLUSH);
        // No draws on the river, no flop category past the flop.
        let river = breakdown(&classes, parse_cards("Kh9h7d2c3s").unwrap(), CardSet::EMPTY);
        let i = classes.hands.iter().position(|&x| x == parse_cards("QhJh").unwrap()).unwrap();
        assert_eq!(river[i].map(|f| (f.draws, f.flop_category)), Some((0, None)));
    }
}
