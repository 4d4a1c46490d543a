//! Every starting hand of a flop game, enumerated once, and sets of them as bitsets.
//!
//! Hands are numbered in colex order of their cards' positions in the game's deck, so a hand's
//! number is computed from its cards directly (no search): range operations become bit operations
//! over a fixed numbering, and `contains_hand` is a lookup.

use crate::cards::{Card, CardSet, Deck};
use crate::games::Game;
use std::sync::OnceLock;

/// The hands of one (deck, hole-card count) pair.
pub(crate) struct Universe {
    pub hands: Vec<CardSet>,
    deck: Deck,
    k: usize,
    /// Position of each card (by bit index) in the deck's list; 255 when not in the deck.
    position: [u8; 64],
    binom: [[u32; 6]; 53],
}

impl Universe {
    fn build(deck: Deck, k: usize) -> Universe {
        let cards: Vec<Card> = deck.cards().iter().collect::<Vec<_>>();
        let mut sorted = cards.clone();
        sorted.sort_by_key(|c| c.dense());
        let mut position = [255u8; 64];
        for (i, c) in sorted.iter().enumerate() {
            position[c.index() as usize] = i as u8;
        }
        let mut binom = [[0u32; 6]; 53];
        for n in 0..53 {
            binom[n][0] = 1;
            for r in 1..6 {
                binom[n][r] = if n == 0 { 0 } else { binom[n - 1][r - 1] + binom[n - 1][r] };
            }
        }
        let n = sorted.len();
        let total = binom[n][k] as usize;
        let mut hands = Vec::with_capacity(total);
        // Gosper's hack visits k-subsets of n positions in increasing numeric order: colex order.
        let mut mask: u64 = (1u64 << k) - 1;
        let limit = 1u64 << n;
        while mask < limit {
            let mut set = CardSet::EMPTY;
            let mut m = mask;
            while m != 0 {
                set.insert(sorted[m.trailing_zeros() as usize]);
                m &= m - 1;
            }
            hands.push(set);
            let c = mask & mask.wrapping_neg();
            let r = mask + c;
            mask = (((r ^ mask) >> 2) / c) | r;
        }
        debug_assert_eq!(hands.len(), total);
        Universe { hands, deck, k, position, binom }
    }

    pub fn len(&self) -> usize {
        self.hands.len()
    }

    /// The number of `hand`, or `None` when it is not a hand of this universe.
    pub fn index_of(&self, hand: CardSet) -> Option<usize> {
        if hand.len() as usize != self.k || hand.minus(self.deck.cards()) != CardSet::EMPTY {
            return None;
        }
        let mut positions = [0u8; 8];
        for (i, c) in hand.iter().enumerate() {
            positions[i] = self.position[c.index() as usize];
        }
        let positions = &mut positions[..self.k];
        positions.sort_unstable();
        Some(positions.iter().enumerate().map(|(i, &p)| self.binom[p as usize][i + 1] as usize).sum())
    }
}

/// The universe of `game` (a flop game).
pub(crate) fn universe(game: Game) -> &'static Universe {
    static HOLDEM: OnceLock<Universe> = OnceLock::new();
    static SHORT: OnceLock<Universe> = OnceLock::new();
    static OMAHA: OnceLock<Universe> = OnceLock::new();
    static OMAHA5: OnceLock<Universe> = OnceLock::new();
    let (cell, deck) = match (game.deck(), game.hole_cards()) {
        (Deck::Short, _) => (&SHORT, Deck::Short),
        (_, 4) => (&OMAHA, Deck::Standard),
        (_, 5) => (&OMAHA5, Deck::Standard),
        _ => (&HOLDEM, Deck::Standard),
    };
    cell.get_or_init(|| Universe::build(deck, game.hole_cards()))
}

/// A set of hands of one universe, one bit per hand number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct HandSet {
    words: Vec<u64>,
    len: usize,
}

impl HandSet {
    pub fn empty(len: usize) -> HandSet {
        HandSet { words: vec![0; len.div_ceil(64)], len }
    }

    pub fn full(len: usize) -> HandSet {
        let mut s = HandSet { words: vec![u64::MAX; len.div_ceil(64)], len };
        s.trim();
        s
    }

    fn trim(&mut self) {
        let rem = self.len % 64;
        if rem != 0 {
            if let Some(last) = self.words.last_mut() {
                *last &= (1u64 << rem) - 1;
            }
        }
    }

    /// The hands of `universe` for which `pred` holds.
    pub fn from_predicate(universe: &Universe, mut pred: impl FnMut(CardSet) -> bool) -> HandSet {
        let mut s = HandSet::empty(universe.len());
        for (w, chunk) in s.words.iter_mut().zip(universe.hands.chunks(64)) {
            let mut bits = 0u64;
            for (i, &h) in chunk.iter().enumerate() {
                bits |= u64::from(pred(h)) << i;
            }
            *w = bits;
        }
        s
    }

    /// The machine words the set takes.
    pub fn words_len(&self) -> usize {
        self.words.len()
    }

    pub fn insert(&mut self, i: usize) {
        self.words[i / 64] |= 1 << (i % 64);
    }

    pub fn contains(&self, i: usize) -> bool {
        self.words[i / 64] >> (i % 64) & 1 != 0
    }

    #[cfg(test)]
    pub fn count(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    pub fn union_with(&mut self, o: &HandSet) {
        self.words.iter_mut().zip(&o.words).for_each(|(a, b)| *a |= b);
    }

    pub fn intersect_with(&mut self, o: &HandSet) {
        self.words.iter_mut().zip(&o.words).for_each(|(a, b)| *a &= b);
    }

    pub fn minus_with(&mut self, o: &HandSet) {
        self.words.iter_mut().zip(&o.words).for_each(|(a, b)| *a &= !b);
    }

    /// Hand numbers in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.words.iter().enumerate().flat_map(|(wi, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                if w == 0 {
                    return None;
                }
                let b = w.trailing_zeros() as usize;
                w &= w - 1;
                Some(wi * 64 + b)
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;

    #[test]
    fn sizes_and_numbering_agree() {
        for (game, n) in [(Game::Holdem, 1326), (Game::ShortDeck, 630), (Game::OmahaHi, 270_725)] {
            let u = universe(game);
            assert_eq!(u.len(), n);
            for (i, &h) in u.hands.iter().enumerate().step_by(97) {
                assert_eq!(u.index_of(h), Some(i));
            }
        }
        let u = universe(Game::ShortDeck);
        assert_eq!(u.index_of(parse_cards("As2s").unwrap()), None);
        assert_eq!(u.index_of(parse_cards("AsKsQs").unwrap()), None);
    }

    #[test]
    fn bitset_operations() {
        let mut a = HandSet::empty(130);
        a.insert(3);
        a.insert(129);
        let mut b = HandSet::full(130);
        assert_eq!(b.count(), 130);
        b.minus_with(&a);
        assert_eq!(b.count(), 128);
        assert!(!b.contains(129));
        a.union_with(&b);
        assert_eq!(a, HandSet::full(130));
        assert_eq!(a.iter().count(), 130);
    }
}
