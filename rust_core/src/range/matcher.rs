//! Matching a term's slots to distinct cards with bitmasks: each slot carries the set of cards it
//! may take; variables bind a rank or a suit on first use, and different variables take different
//! values. Backtracking over at most five hole cards, with identical slots taken in increasing
//! card order so that `RRR` does not try every permutation of the same cards.

use crate::cards::{Card, CardSet, Deck};

pub(crate) const NO_VAR: u8 = u8::MAX;

/// One card slot: the cards it may take, and the rank and suit variables it binds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Slot {
    pub cards: CardSet,
    pub rank_var: u8,
    pub suit_var: u8,
}

impl Slot {
    fn is_wild(&self) -> bool {
        self.rank_var == NO_VAR
            && self.suit_var == NO_VAR
            && (self.cards == CardSet::FULL || self.cards == Deck::Short.cards())
    }
}

/// A compiled term.
#[derive(Clone, Debug)]
pub(crate) struct Term {
    /// The slots as written, for positional matching (boards).
    positional: Vec<Slot>,
    /// The constrained slots, most selective first, identical slots adjacent.
    sorted: Vec<Slot>,
    /// Whether `sorted[i]` is identical to `sorted[i - 1]`.
    same_as_prev: Vec<bool>,
    /// Slots that take any card and bind nothing: only their number matters.
    wild: usize,
}

#[derive(Clone)]
struct Bindings {
    rank: [u8; 32],
    rank_used: u16,
    suit: [u8; 8],
    suit_used: u8,
}

impl Bindings {
    fn new() -> Bindings {
        Bindings { rank: [NO_VAR; 32], rank_used: 0, suit: [NO_VAR; 8], suit_used: 0 }
    }

    /// Binds the slot's variables to `c` if consistent; returns what to undo.
    #[inline]
    fn bind(&mut self, s: &Slot, c: Card) -> Option<(bool, bool)> {
        let mut new_rank = false;
        if s.rank_var != NO_VAR {
            let v = s.rank_var as usize;
            if self.rank[v] == NO_VAR {
                if self.rank_used & 1 << c.rank() != 0 {
                    return None;
                }
                new_rank = true;
            } else if self.rank[v] != c.rank() {
                return None;
            }
        }
        let mut new_suit = false;
        if s.suit_var != NO_VAR {
            let v = s.suit_var as usize;
            if self.suit[v] == NO_VAR {
                if self.suit_used & 1 << c.suit() != 0 {
                    return None;
                }
                new_suit = true;
            } else if self.suit[v] != c.suit() {
                return None;
            }
        }
        if new_rank {
            self.rank[s.rank_var as usize] = c.rank();
            self.rank_used |= 1 << c.rank();
        }
        if new_suit {
            self.suit[s.suit_var as usize] = c.suit();
            self.suit_used |= 1 << c.suit();
        }
        Some((new_rank, new_suit))
    }

    #[inline]
    fn unbind(&mut self, s: &Slot, c: Card, undo: (bool, bool)) {
        if undo.0 {
            self.rank[s.rank_var as usize] = NO_VAR;
            self.rank_used &= !(1 << c.rank());
        }
        if undo.1 {
            self.suit[s.suit_var as usize] = NO_VAR;
            self.suit_used &= !(1 << c.suit());
        }
    }
}

impl Term {
    pub fn new(positional: Vec<Slot>) -> Term {
        let mut sorted: Vec<Slot> = positional.iter().copied().filter(|s| !s.is_wild()).collect();
        let wild = positional.len() - sorted.len();
        sorted.sort_by_key(|s| (s.cards.len(), s.cards.bits(), s.rank_var, s.suit_var));
        let same_as_prev = (0..sorted.len()).map(|i| i > 0 && sorted[i] == sorted[i - 1]).collect();
        Term { positional, sorted, same_as_prev, wild }
    }

    pub fn len(&self) -> usize {
        self.positional.len()
    }

    /// Whether every slot takes any card and binds nothing (`***`): any cards match.
    pub fn is_wild(&self) -> bool {
        self.sorted.is_empty()
    }

    /// At most how many assignments `for_each_constrained` visits (the product of its slots'
    /// choices in `deck`), and how many slots it fills.
    pub fn constrained_bound(&self, deck: CardSet) -> (f64, usize) {
        let product = self.sorted.iter().map(|s| f64::from(s.cards.intersect(deck).len())).product();
        (product, self.sorted.len())
    }

    /// Calls `found` with the cards of every way to give the constrained slots (those other than
    /// `*`) distinct cards of `deck`, identical slots in increasing card order, variables bound
    /// as `matches_hand` binds them. A hand matches the term exactly when it holds the cards of
    /// one of these ways (its other cards are free).
    pub fn for_each_constrained(&self, deck: CardSet, found: &mut dyn FnMut(CardSet)) {
        let mut b = Bindings::new();
        self.visit_sorted(0, deck, CardSet::EMPTY, 0, &mut b, found);
    }

    fn visit_sorted(
        &self,
        i: usize,
        deck: CardSet,
        used: CardSet,
        prev: u8,
        b: &mut Bindings,
        found: &mut dyn FnMut(CardSet),
    ) {
        let Some(s) = self.sorted.get(i) else { return found(used) };
        let mut cand = s.cards.intersect(deck).minus(used).bits();
        if self.same_as_prev[i] {
            cand &= !((2u64 << prev) - 1);
        }
        while cand != 0 {
            let idx = cand.trailing_zeros() as u8;
            cand &= cand - 1;
            let c = Card::from_index(idx);
            if let Some(undo) = b.bind(s, c) {
                self.visit_sorted(i + 1, deck, used.with(c), idx, b, found);
                b.unbind(s, c, undo);
            }
        }
    }

    /// The cards of a one-slot term without variables (a stud card position).
    pub fn single_slot_cards(&self) -> Option<CardSet> {
        match self.positional.as_slice() {
            [s] if s.rank_var == NO_VAR && s.suit_var == NO_VAR => Some(s.cards),
            _ => None,
        }
    }

    /// Whether the slots can be given distinct cards of `hand` (leftover cards are free).
    #[cfg(test)]
    pub fn matches_hand(&self, hand: CardSet) -> bool {
        self.matches_hand_counting(hand, &mut 0)
    }

    /// As `matches_hand`, adding to `steps` the cards it tries in slots: what the test cost (a
    /// term of several variables may try every order of the hand's cards).
    pub fn matches_hand_counting(&self, hand: CardSet, steps: &mut u64) -> bool {
        if (hand.len() as usize) < self.sorted.len() + self.wild {
            return false;
        }
        if self.sorted.iter().any(|s| !s.cards.overlaps(hand)) {
            return false;
        }
        let mut b = Bindings::new();
        self.assign_sorted(0, hand, CardSet::EMPTY, 0, &mut b, steps)
    }

    fn assign_sorted(
        &self,
        i: usize,
        hand: CardSet,
        used: CardSet,
        prev: u8,
        b: &mut Bindings,
        steps: &mut u64,
    ) -> bool {
        let Some(s) = self.sorted.get(i) else { return true };
        let mut cand = s.cards.intersect(hand).minus(used).bits();
        if self.same_as_prev[i] {
            // Identical slots take their cards in increasing order.
            cand &= !((2u64 << prev) - 1);
        }
        while cand != 0 {
            let idx = cand.trailing_zeros() as u8;
            cand &= cand - 1;
            let c = Card::from_index(idx);
            *steps += 1;
            if let Some(undo) = b.bind(s, c) {
                if self.assign_sorted(i + 1, hand, used.with(c), idx, b, steps) {
                    return true;
                }
                b.unbind(s, c, undo);
            }
        }
        false
    }

    /// Positional matching: slot `i` takes a distinct card of `pools[i]` (the flop's cards for
    /// the three flop slots, the turn card for the fourth, ...). `pools` is as long as the term.
    pub fn matches_pools(&self, pools: &[CardSet]) -> bool {
        let mut b = Bindings::new();
        self.assign_positional(0, pools, CardSet::EMPTY, &mut b, &mut |_| true)
    }

    /// Calls `found` with every assignment of distinct cards from `pools` to the slots, in slot
    /// order; stops early when `found` returns true, or when `placements` (the cards it may try
    /// in a slot, counted down) runs out: a pattern of many slots whose variables cannot all be
    /// bound would otherwise search for ever without finding one.
    pub fn for_each_assignment(
        &self,
        pools: &[CardSet],
        placements: &mut usize,
        found: &mut dyn FnMut(&[Card]) -> bool,
    ) {
        // Different variables take different values: more of them than ranks or suits bind none.
        let vars =
            |f: fn(&Slot) -> u8| self.positional.iter().map(f).filter(|&v| v != NO_VAR).max().map_or(0, |v| v + 1);
        if vars(|s| s.rank_var) > 13 || vars(|s| s.suit_var) > 4 {
            return;
        }
        let mut b = Bindings::new();
        let mut cards: Vec<Card> = Vec::with_capacity(self.positional.len());
        self.enumerate(0, pools, CardSet::EMPTY, &mut b, &mut cards, placements, found);
    }

    fn assign_positional(
        &self,
        i: usize,
        pools: &[CardSet],
        used: CardSet,
        b: &mut Bindings,
        found: &mut dyn FnMut(CardSet) -> bool,
    ) -> bool {
        let Some(s) = self.positional.get(i) else { return found(used) };
        let mut cand = s.cards.intersect(pools[i]).minus(used).bits();
        while cand != 0 {
            let c = Card::from_index(cand.trailing_zeros() as u8);
            cand &= cand - 1;
            if let Some(undo) = b.bind(s, c) {
                if self.assign_positional(i + 1, pools, used.with(c), b, found) {
                    return true;
                }
                b.unbind(s, c, undo);
            }
        }
        false
    }

    #[allow(clippy::too_many_arguments)] // the search's state, passed down each level
    fn enumerate(
        &self,
        i: usize,
        pools: &[CardSet],
        used: CardSet,
        b: &mut Bindings,
        cards: &mut Vec<Card>,
        placements: &mut usize,
        found: &mut dyn FnMut(&[Card]) -> bool,
    ) -> bool {
        let Some(s) = self.positional.get(i) else { return found(cards) };
        let mut cand = s.cards.intersect(pools[i]).minus(used).bits();
        while cand != 0 {
            if *placements == 0 {
                return true;
            }
            *placements -= 1;
            let c = Card::from_index(cand.trailing_zeros() as u8);
            cand &= cand - 1;
            if let Some(undo) = b.bind(s, c) {
                cards.push(c);
                let stop = self.enumerate(i + 1, pools, used.with(c), b, cards, placements, found);
                cards.pop();
                b.unbind(s, c, undo);
                if stop {
                    return true;
                }
            }
        }
        false
    }
}
