//! The starting-hand classes of a two-card game (`AA`, `AKs`, `AKo`: 169 in hold'em, 81 in
//! short deck), each with its combos, in the grid's order, and the game's starting-hand
//! ordering over them (the one `15%` reads).

use crate::cards::{CardSet, Rank, RANK_CHARS};
use crate::error::PqlError;
use crate::games::Game;
use crate::range::{hand_percentile, parse_range, Ordering, Syntax};

/// One class: its name and its combos (positions in [`Classes::hands`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandClass {
    pub name: String,
    pub combos: Vec<usize>,
}

/// Every starting hand of a two-card game and the classes they fall into.
#[derive(Clone, Debug)]
pub struct Classes {
    pub game: Game,
    /// Every starting hand, in the order of the game's full range (`**`).
    pub hands: Vec<CardSet>,
    /// The class of each hand (a position in `classes`).
    pub class_of: Vec<u16>,
    /// Row by row of the grid: ranks high to low, the pair on the diagonal, suited classes to
    /// its right, offsuit ones below.
    pub classes: Vec<HandClass>,
}

/// `AKs`, `AKo` or `77` for a two-card hand.
pub fn class_name(hand: CardSet) -> String {
    let cards = hand.to_vec();
    let (a, b) = (cards[0], cards[1]);
    let (hi, lo) = if a.rank() >= b.rank() { (a, b) } else { (b, a) };
    let mut name = format!("{}{}", hi.rank_char(), lo.rank_char());
    if hi.rank() != lo.rank() {
        name.push(if hi.suit() == lo.suit() { 's' } else { 'o' });
    }
    name
}

/// The grid position (row, column) of a class: row and column are ranks high to low among the
/// deck's `ranks`; suited above the diagonal, offsuit below.
fn grid_position(hi: Rank, lo: Rank, suited: bool, ranks: &[Rank]) -> (usize, usize) {
    let at = |r: Rank| ranks.iter().position(|&x| x == r).unwrap_or(0);
    let (h, l) = (at(hi), at(lo));
    if suited {
        (h, l)
    } else {
        (l, h)
    }
}

impl Classes {
    pub fn new(game: Game) -> Result<Classes, PqlError> {
        super::two_card_game(game)?;
        let hands = parse_range("**", game, Syntax::Classic)?.flop_combos().to_vec();
        // Ranks of the deck, high to low.
        let ranks: Vec<Rank> = (0..13u8).rev().filter(|&r| r >= game.deck().lowest_rank()).collect();
        let n = ranks.len();
        let mut slots: Vec<Option<HandClass>> = vec![None; n * n];
        let mut class_at = vec![0usize; hands.len()];
        for (i, &h) in hands.iter().enumerate() {
            let cards = h.to_vec();
            let (hi, lo) = (cards[0].rank().max(cards[1].rank()), cards[0].rank().min(cards[1].rank()));
            let suited = hi != lo && cards[0].suit() == cards[1].suit();
            let (row, col) = grid_position(hi, lo, suited, &ranks);
            let slot = row * n + col;
            slots[slot].get_or_insert_with(|| HandClass { name: class_name(h), combos: Vec::new() }).combos.push(i);
            class_at[i] = slot;
        }
        // Every slot of the grid holds a class (pairs, suited and offsuit of every rank pair).
        let mut number = vec![0u16; n * n];
        let mut classes = Vec::with_capacity(n * n);
        for (slot, c) in slots.into_iter().enumerate() {
            if let Some(c) = c {
                number[slot] = classes.len() as u16;
                classes.push(c);
            }
        }
        let class_of = class_at.iter().map(|&s| number[s]).collect();
        Ok(Classes { game, hands, class_of, classes })
    }

    /// The classes in the game's starting-hand `ordering`, best first, each with its percentile
    /// (the `N%` range that first holds it: `15%` holds every class of percentile 15 or less).
    pub fn ordering(&self, ordering: Ordering) -> Vec<(usize, f64)> {
        let mut order: Vec<(usize, f64)> = self
            .classes
            .iter()
            .enumerate()
            .map(|(i, c)| (i, hand_percentile(self.game, self.hands[c.combos[0]], false, ordering)))
            .collect();
        order.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
        order
    }

    /// The rank characters of the grid's rows, high to low (`AKQJT98765432`).
    pub fn rank_chars(&self) -> String {
        (0..13u8).rev().filter(|&r| r >= self.game.deck().lowest_rank()).map(|r| RANK_CHARS[r as usize]).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holdem_and_short_deck_classes() {
        let c = Classes::new(Game::Holdem).unwrap();
        assert_eq!(c.classes.len(), 169);
        assert_eq!(c.hands.len(), 1326);
        assert_eq!(c.classes[0].name, "AA");
        assert_eq!(c.classes[1].name, "AKs");
        assert_eq!(c.classes[13].name, "AKo");
        let sizes = |name: &str| c.classes.iter().find(|k| k.name == name).unwrap().combos.len();
        assert_eq!((sizes("AA"), sizes("AKs"), sizes("AKo")), (6, 4, 12));
        for (i, h) in c.hands.iter().enumerate() {
            assert_eq!(c.classes[c.class_of[i] as usize].name, class_name(*h));
        }
        let s = Classes::new(Game::ShortDeck).unwrap();
        assert_eq!(s.classes.len(), 81);
        assert_eq!(s.rank_chars(), "AKQJT9876");
        let order = c.ordering(Ordering::default());
        assert_eq!(c.classes[order[0].0].name, "AA");
        assert!(order.windows(2).all(|w| w[0].1 <= w[1].1));
        assert!(Classes::new(Game::OmahaHi).is_err());
    }
}
