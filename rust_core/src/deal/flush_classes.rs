//! Stud hands fixed by rank, counted by flush. When every card of every hand has a given rank and
//! only the suits are free, a hi showdown depends on the suits through flushes alone: a hand's
//! rating follows from its ranks and, when five or more of its cards share a suit, from which of
//! its cards those are. So the suit assignments of the players' cards fall into few classes, keyed
//! by each player's flush positions, and each class needs one showdown, counted for all of its
//! assignments (the seed's race `A345678` v `(3-2-)45678` in stud: about two hundred classes
//! instead of 131 million deals).
//!
//! Counting: players are taken in turn. A player's cards of ranks that a later player also holds
//! are given their suits one by one (they decide which suits the later player can still have);
//! its other cards are counted in closed form, since within a hand the ranks differ and each such
//! card's suit is free among those left of its rank: for a flush suit `s` and the exact set of
//! those cards that take it, the rest take any other suit left. What the later players can do
//! depends only on which cards of their ranks are taken, which is remembered.

use crate::cards::{Card, CardSet};
use std::collections::HashMap;
use std::rc::Rc;

/// The suit assignments of one class.
#[derive(Clone, Debug)]
pub struct FlushClass {
    /// Per player, the positions (bit `i` for position `i`) of the cards of its flush suit; 0
    /// without a flush.
    pub flush_positions: Vec<u8>,
    /// How many suit assignments the class holds (seven hands of seven cards can hold more
    /// than a u64 counts).
    pub count: u128,
    /// One of them: each player's cards by position.
    pub example: Vec<[Card; 7]>,
}

/// The classes of the suit assignments of `patterns` (each player's rank by position) from the
/// cards of `deck`, cards of one rank going to distinct suits. Two down cards of one rank (the
/// first two positions) are one hand whichever way round: such a hand's flush positions name the
/// first of them, and its assignments are counted once. Assignments that cannot be made (too few
/// cards of a rank) are in no class. `None` when counting would take more than `budget` suit
/// choices (many players sharing many ranks); what it takes is taken off `budget`, which callers
/// share between several counts (see [`FLUSH_STEPS`]).
pub fn flush_classes(patterns: &[[u8; 7]], deck: CardSet, budget: &mut usize) -> Option<Vec<FlushClass>> {
    let n = patterns.len();
    // later[q]: the cards of the ranks some player after q holds.
    let mut later = vec![CardSet::EMPTY; n + 1];
    for q in (0..n).rev() {
        let ranks = patterns[q].iter().fold(0u16, |m, &r| m | 1 << r);
        later[q] = later[q + 1].union(cards_of_ranks(ranks));
    }
    let symmetric = (1..4).all(|s| deck.suit_mask(s) == deck.suit_mask(0));
    let mut counter = Counter { patterns, deck, later, memo: HashMap::new(), steps: 0, budget: *budget, symmetric };
    let by_position = counter.classes_from(0, CardSet::EMPTY);
    if counter.steps > counter.budget {
        *budget = 0;
        return None;
    }
    *budget -= counter.steps;
    // Down pairs: swapping the pair's suits is a pairing of the assignments (the two suits differ)
    // that keeps the outcome, so the classes under the first-named key hold each hand twice.
    let down_pairs: Vec<usize> = (0..patterns.len()).filter(|&q| patterns[q][0] == patterns[q][1]).collect();
    let mut merged: HashMap<Vec<u8>, FlushClass> = HashMap::new();
    for class in by_position.iter() {
        let mut class = class.clone();
        for &q in &down_pairs {
            if class.flush_positions[q] & 0b10 != 0 {
                class.flush_positions[q] ^= 0b11;
                class.example[q].swap(0, 1);
            }
        }
        match merged.get_mut(&class.flush_positions) {
            Some(known) => known.count += class.count,
            None => {
                merged.insert(class.flush_positions.clone(), class);
            }
        }
    }
    let mut classes: Vec<FlushClass> = merged.into_values().collect();
    for class in &mut classes {
        class.count >>= down_pairs.len();
    }
    classes.sort_by(|a, b| a.flush_positions.cmp(&b.flush_positions));
    Some(classes)
}

/// Suit choices worth spending on counting one statement's deals by flush class (about a second).
pub const FLUSH_STEPS: usize = 4_000_000;

/// Every card of the ranks in `ranks` (bit `r` for rank `r`).
fn cards_of_ranks(ranks: u16) -> CardSet {
    let r = u64::from(ranks);
    CardSet::from_bits(r | r << 16 | r << 32 | r << 48)
}

struct Counter<'a> {
    patterns: &'a [[u8; 7]],
    deck: CardSet,
    later: Vec<CardSet>,
    /// Classes of players `q..` by `q` and the cards of their ranks already taken.
    memo: HashMap<(usize, u64), Rc<Vec<FlushClass>>>,
    /// Suit choices made so far; past `budget` the count stops, incomplete.
    steps: usize,
    budget: usize,
    /// Every suit of the deck holds the same ranks: renaming suits changes no count.
    symmetric: bool,
}

impl Counter<'_> {
    /// The classes of players `q..` when the cards `used` are taken.
    fn classes_from(&mut self, q: usize, used: CardSet) -> Rc<Vec<FlushClass>> {
        if q == self.patterns.len() {
            return Rc::new(vec![FlushClass { flush_positions: Vec::new(), count: 1, example: Vec::new() }]);
        }
        // Only the taken cards of these players' ranks matter to them.
        let key = (q, used.intersect(self.later[q]).bits());
        if let Some(known) = self.memo.get(&key) {
            return Rc::clone(known);
        }
        let pattern = self.patterns[q];
        // Cards whose rank a later player holds, or this hand twice: suited one by one.
        let twice = |i: usize| (0..7).any(|j| j != i && pattern[j] == pattern[i]);
        let shared: Vec<usize> =
            (0..7).filter(|&i| self.later[q + 1].contains(Card::new(pattern[i], 0)) || twice(i)).collect();
        let mut merged: HashMap<Vec<u8>, FlushClass> = HashMap::new();
        let mut suits = [0u8; 7];
        // The first player's suits up to their names, when the deck does not tell suits apart.
        let canonical = (q == 0 && self.symmetric).then_some(0);
        self.suit_shared(q, &shared, 0, used, canonical, &mut suits, &mut merged);
        let mut out: Vec<FlushClass> = merged.into_values().collect();
        out.sort_by(|a, b| a.flush_positions.cmp(&b.flush_positions));
        let out = Rc::new(out);
        self.memo.insert(key, Rc::clone(&out));
        out
    }

    /// Gives the shared positions from `k` on their suits, then counts the player's own cards and
    /// combines them with the later players' classes. With `canonical` (the suits named so far),
    /// suits are named in order of first use and each such choice stands for its renamings: the
    /// classes do not name suits, so renamed choices count the same.
    #[allow(clippy::too_many_arguments)]
    fn suit_shared(
        &mut self,
        q: usize,
        shared: &[usize],
        k: usize,
        used: CardSet,
        canonical: Option<u8>,
        suits: &mut [u8; 7],
        merged: &mut HashMap<Vec<u8>, FlushClass>,
    ) {
        let pattern = self.patterns[q];
        self.steps += 1;
        if self.steps > self.budget {
            return;
        }
        if let Some(&i) = shared.get(k) {
            let last = canonical.map_or(3, |named| named.min(3));
            for s in 0..=last {
                let c = Card::new(pattern[i], s);
                if self.deck.contains(c) && !used.contains(c) {
                    suits[i] = s;
                    let named = canonical.map(|named| named.max(s + 1));
                    self.suit_shared(q, shared, k + 1, used.with(c), named, suits, merged);
                }
            }
            return;
        }
        // Renamings of the named suits: 4 * 3 * ... for each suit named.
        let renamings: u128 = canonical.map_or(1, |named| (0..u128::from(named)).map(|i| 4 - i).product());
        let own = own_classes(pattern, shared, *suits, self.deck.minus(used));
        if own.is_empty() {
            return;
        }
        let rest = self.classes_from(q + 1, used);
        for (positions, count, cards) in own {
            for r in rest.iter() {
                let mut key = Vec::with_capacity(r.flush_positions.len() + 1);
                key.push(positions);
                key.extend_from_slice(&r.flush_positions);
                let entry = merged.entry(key).or_insert_with_key(|key| {
                    let mut example = Vec::with_capacity(r.example.len() + 1);
                    example.push(cards);
                    example.extend_from_slice(&r.example);
                    FlushClass { flush_positions: key.clone(), count: 0, example }
                });
                entry.count += u128::from(count) * r.count * renamings;
            }
        }
    }
}

/// One player's classes when the positions `shared` have the suits `suits` and the others take
/// any suit `left` of their rank: (flush positions, assignments, one of them).
fn own_classes(pattern: [u8; 7], shared: &[usize], suits: [u8; 7], left: CardSet) -> Vec<(u8, u64, [Card; 7])> {
    let is_shared = shared.iter().fold(0u8, |m, &i| m | 1 << i);
    let free: Vec<usize> = (0..7).filter(|&i| is_shared & 1 << i == 0).collect();
    let mut choices = [0u8; 7];
    for &i in &free {
        choices[i] = (0..4u8).fold(0, |m, s| m | u8::from(left.contains(Card::new(pattern[i], s))) << s);
        if choices[i] == 0 {
            return Vec::new();
        }
    }
    let ways = |i: usize| u64::from(choices[i].count_ones());
    let total: u64 = free.iter().map(|&i| ways(i)).product();
    let mut out: Vec<(u8, u64, [Card; 7])> = Vec::new();
    let mut flushes = 0u64;
    for s in 0..4u8 {
        let on_suit = shared.iter().fold(0u8, |m, &i| m | u8::from(suits[i] == s) << i);
        // The free positions that can take s; each subset of them is one exact set that does.
        let can: Vec<usize> = free.iter().copied().filter(|&i| choices[i] & 1 << s != 0).collect();
        if on_suit.count_ones() as usize + can.len() < 5 {
            continue;
        }
        for subset in 0..1u32 << can.len() {
            let taking = can.iter().enumerate().fold(0u8, |m, (j, &i)| m | u8::from(subset & 1 << j != 0) << i);
            let positions = on_suit | taking;
            if positions.count_ones() < 5 {
                continue;
            }
            let count: u64 = free
                .iter()
                .filter(|&&i| taking & 1 << i == 0)
                .map(|&i| ways(i) - u64::from(choices[i] & 1 << s != 0))
                .product();
            if count == 0 {
                continue;
            }
            flushes += count;
            let cards = cards_with(pattern, suits, &free, |i| {
                if taking & 1 << i != 0 {
                    s
                } else {
                    lowest(choices[i] & !(1 << s))
                }
            });
            match out.iter_mut().find(|(p, _, _)| *p == positions) {
                Some(class) => class.1 += count,
                None => out.push((positions, count, cards)),
            }
        }
    }
    if total > flushes {
        let example =
            no_flush(pattern, suits, &free, choices).expect("assignments without a flush are counted, so one exists");
        out.push((0, total - flushes, example));
    }
    out
}

/// The lowest suit in a mask of suits.
fn lowest(mask: u8) -> u8 {
    mask.trailing_zeros() as u8
}

/// The player's cards: shared positions with `suits`, free ones with `suit_of`.
fn cards_with(pattern: [u8; 7], suits: [u8; 7], free: &[usize], suit_of: impl Fn(usize) -> u8) -> [Card; 7] {
    let mut cards = [Card::new(0, 0); 7];
    for i in 0..7 {
        let s = if free.contains(&i) { suit_of(i) } else { suits[i] };
        cards[i] = Card::new(pattern[i], s);
    }
    cards
}

/// An assignment of the free positions (from `choices`) that leaves no suit with five cards.
fn no_flush(pattern: [u8; 7], suits: [u8; 7], free: &[usize], choices: [u8; 7]) -> Option<[Card; 7]> {
    fn go(k: usize, free: &[usize], choices: [u8; 7], chosen: &mut [u8; 7], per_suit: &mut [u8; 4]) -> bool {
        let Some(&i) = free.get(k) else { return true };
        for s in 0..4u8 {
            if choices[i] & 1 << s != 0 && per_suit[usize::from(s)] < 4 {
                chosen[i] = s;
                per_suit[usize::from(s)] += 1;
                if go(k + 1, free, choices, chosen, per_suit) {
                    return true;
                }
                per_suit[usize::from(s)] -= 1;
            }
        }
        false
    }
    let mut per_suit = [0u8; 4];
    for i in (0..7).filter(|i| !free.contains(i)) {
        per_suit[usize::from(suits[i])] += 1;
    }
    if per_suit.iter().any(|&n| n >= 5) {
        return None;
    }
    let mut chosen = suits;
    go(0, free, choices, &mut chosen, &mut per_suit).then(|| cards_with(pattern, chosen, &[], |_| 0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    /// Each player's flush positions in a full assignment (a down pair's named by its first).
    fn key_of(hands: &[[Card; 7]]) -> Vec<u8> {
        hands
            .iter()
            .map(|h| {
                let m = (0..4u8)
                    .map(|s| (0..7).fold(0u8, |m, i| m | u8::from(h[i].suit() == s) << i))
                    .find(|m| m.count_ones() >= 5)
                    .unwrap_or(0);
                if h[0].rank() == h[1].rank() && m & 0b10 != 0 {
                    m ^ 0b11
                } else {
                    m
                }
            })
            .collect()
    }

    /// Every assignment, one by one.
    fn brute(patterns: &[[u8; 7]], deck: CardSet) -> HashMap<Vec<u8>, u64> {
        fn go(
            patterns: &[[u8; 7]],
            deck: CardSet,
            at: usize,
            used: CardSet,
            hands: &mut Vec<[Card; 7]>,
            out: &mut HashMap<Vec<u8>, u64>,
        ) {
            let (q, i) = (at / 7, at % 7);
            if q == patterns.len() {
                *out.entry(key_of(hands)).or_insert(0) += 1;
                return;
            }
            for s in 0..4u8 {
                let c = Card::new(patterns[q][i], s);
                if deck.contains(c) && !used.contains(c) {
                    hands[q][i] = c;
                    go(patterns, deck, at + 1, used.with(c), hands, out);
                }
            }
        }
        let mut out = HashMap::new();
        let mut hands = vec![[Card::new(0, 0); 7]; patterns.len()];
        go(patterns, deck, 0, CardSet::EMPTY, &mut hands, &mut out);
        // A down pair's two orders are one hand.
        let pairs = patterns.iter().filter(|p| p[0] == p[1]).count();
        for n in out.values_mut() {
            assert_eq!(*n % (1 << pairs), 0, "each hand counted once per order of its down pairs");
            *n >>= pairs;
        }
        out
    }

    /// The classes of `patterns` on `deck` (within the budget), and their counts by key (one class
    /// a key), to compare with [`brute`].
    fn counted(patterns: &[[u8; 7]], deck: CardSet) -> (Vec<FlushClass>, HashMap<Vec<u8>, u64>) {
        let classes = flush_classes(patterns, deck, &mut FLUSH_STEPS.clone()).expect("within the budget");
        let counts: HashMap<Vec<u8>, u64> =
            classes.iter().map(|c| (c.flush_positions.clone(), u64::try_from(c.count).unwrap())).collect();
        assert_eq!(counts.len(), classes.len(), "one class per key");
        (classes, counts)
    }

    /// Seven ranks drawn mostly from a few so that players share ranks; one in three hands has a
    /// down pair, one in three a rank twice elsewhere.
    fn pattern(rng: &mut Rng) -> [u8; 7] {
        loop {
            let mut ranks: Vec<u8> = (0..7).map(|_| (rng.below(9) + 4 * u64::from(rng.below(4) == 0)) as u8).collect();
            ranks.sort_unstable();
            ranks.dedup();
            if ranks.len() == 7 {
                let mut p = [0u8; 7];
                for (dst, r) in p.iter_mut().zip(ranks.iter().rev()) {
                    *dst = *r;
                }
                match rng.below(3) {
                    0 => p[1] = p[0],
                    1 => p[4] = p[2],
                    _ => {}
                }
                return p;
            }
        }
    }

    #[test]
    fn classes_count_every_assignment_by_its_flush_positions() {
        let mut rng = Rng::new(16, 0);
        let mut flush_classes_seen = 0;
        let mut assignments = 0;
        for round in 0..80 {
            let players = 2 + usize::from(round % 4 == 3);
            let patterns: Vec<[u8; 7]> = (0..players).map(|_| pattern(&mut rng)).collect();
            // Some suits of some ranks gone (dead), so that the brute force stays small and
            // missing cards are exercised.
            let mut deck = CardSet::FULL;
            for r in 0..13u8 {
                let gone = if players == 3 { 2 } else { 1 + rng.below(2) as u8 };
                for s in 0..gone {
                    deck.remove(Card::new(r, (s + r) % 4));
                }
            }
            let want = brute(&patterns, deck);
            let (classes, got) = counted(&patterns, deck);
            assert_eq!(got, want, "{patterns:?}");
            assignments += want.values().sum::<u64>();
            flush_classes_seen += classes.iter().filter(|c| c.flush_positions.iter().any(|&m| m != 0)).count();
            for class in &classes {
                assert_eq!(key_of(&class.example), class.flush_positions);
                let cards: Vec<Card> = class.example.iter().flatten().copied().collect();
                let set = CardSet::from_cards(cards.iter().copied());
                assert_eq!(set.len() as usize, cards.len(), "distinct cards");
                assert!(set.minus(deck).is_empty(), "cards from the deck");
                for (hand, p) in class.example.iter().zip(&patterns) {
                    assert!(hand.iter().zip(p).all(|(c, &r)| c.rank() == r));
                }
            }
        }
        // A full deck (suits named in order of first use, each choice counted for its
        // renamings): AAKQJT9 against KKAT985, both with a down pair, five ranks shared.
        let patterns = [[12, 12, 11, 10, 9, 8, 7], [11, 11, 12, 8, 7, 6, 3]];
        let want = brute(&patterns, CardSet::FULL);
        assert_eq!(counted(&patterns, CardSet::FULL).1, want);
        assert!(flush_classes_seen > 80, "flushes are exercised: {flush_classes_seen}");
        assert!(assignments > 1_000_000, "{assignments} assignments");
    }
}
