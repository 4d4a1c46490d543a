//! Stud-family deals by rank. Razz ignores suits, so two fixed parts whose players hold the same
//! ranks in the same positions, with as many cards of each rank left, have the same outcomes on
//! every completion. When every range holds, for each of its rank patterns, every suited hand of
//! that pattern (as `(3-2-)45678` or `A345678` do), the fixed parts of a pattern combination
//! are counted rather than listed: one representative each, standing for all of them
//! (`Prefix::copies`). The seed's race `A345678` v `(3-2-)45678` is then three fixed parts
//! instead of 124 million.
//!
//! Stud hi and stud hi/lo hands whose seven cards are all fixed by rank (pairs and all) are
//! counted the same way, one representative per flush class (`deal::flush_classes`): with suits
//! free, a showdown depends on them only through who holds which flush.

use super::exhaustive::Prefix;
use super::flush_classes::{flush_classes, FLUSH_STEPS};
use super::source::{place_slots, BoardSource, DealSpec, HandSource, OPEN};
use super::Deal;
use crate::cards::{Card, CardSet};
use crate::games::Game;
use std::collections::{HashMap, HashSet};

/// A player's ranks by position (`OPEN` where dealt), the two down cards in order of rank.
type Pattern = [u8; 7];

/// The rank classes of `spec`'s fixed parts, each a representative prefix with its `copies`
/// and weight; `None` when the spec is not razz or stud with every card fixed by rank, has
/// weighted ranges or a dead-card pattern, a range misses some suited hand of one of its
/// patterns, a razz hand holds a rank twice, the combinations of patterns exceed `limit`, or
/// stud's flush classes are too many to count.
pub fn rank_class_prefixes(spec: &DealSpec, limit: usize) -> Option<Vec<Prefix>> {
    let by_flush = matches!(spec.game, Game::StudHi | Game::Stud8);
    if !(spec.game == Game::Razz || by_flush)
        || !spec.dead_sets.is_empty()
        || !matches!(spec.board, BoardSource::Random)
    {
        return None;
    }
    let mut avail = [0u8; 13];
    for c in &spec.deck {
        avail[usize::from(c.rank())] += 1;
    }
    // Each player's patterns (a random hand: one pattern, all open).
    let mut patterns: Vec<Vec<Pattern>> = Vec::with_capacity(spec.players.len());
    for src in &spec.players {
        match src {
            HandSource::Random => patterns.push(vec![[OPEN; 7]]),
            HandSource::Range(list) => {
                if !list.weights.is_empty() {
                    return None;
                }
                let mut count: HashMap<Pattern, u64> = HashMap::new();
                // Stud hands are told apart by position too (an ace down and one up, or the
                // other way round); razz ones by their cards.
                let mut seen: HashSet<(CardSet, [u8; 7])> = HashSet::new();
                for hand in &list.items {
                    if hand.fixed.overlaps(spec.dead) {
                        continue;
                    }
                    if !seen.insert((hand.fixed, if by_flush { hand.slots } else { [OPEN; 7] })) {
                        return None;
                    }
                    let pattern = pattern_of(hand.slots);
                    let ranks = pattern.iter().filter(|&&r| r != OPEN);
                    if !by_flush && ranks.clone().count() != hand.fixed.rank_mask().count_ones() as usize {
                        // A rank twice in one razz hand: its suited hands are not a product.
                        return None;
                    }
                    *count.entry(pattern).or_insert(0) += 1;
                }
                // Every suited hand of each pattern is there.
                if count.iter().any(|(pattern, &n)| n != suited_hands(*pattern, &avail)) {
                    return None;
                }
                let mut list: Vec<Pattern> = count.into_keys().collect();
                list.sort_unstable();
                patterns.push(list);
            }
        }
    }
    let combinations: f64 = patterns.iter().map(|p| p.len() as f64).product();
    if combinations > limit as f64 {
        return None;
    }
    if by_flush {
        // Suits matter through flushes, which open cards could still complete: every card fixed.
        let all_fixed = patterns.iter().flatten().all(|p| !p.contains(&OPEN));
        if !all_fixed || combinations > FLUSH_COMBINATIONS as f64 {
            return None;
        }
    }
    let mut out = Vec::new();
    let mut chosen: Vec<Pattern> = Vec::with_capacity(patterns.len());
    let mut counted = true;
    let mut budget = FLUSH_STEPS;
    combine(&patterns, &mut chosen, &mut |chosen| {
        if !counted {
            return;
        }
        if by_flush {
            match flush_representatives(spec, chosen, &mut budget) {
                Some(prefixes) => out.extend(prefixes),
                None => counted = false,
            }
        } else {
            out.extend(representative(spec, chosen, &avail));
        }
    });
    // The deals are counted in a u64 (a run's attempts): more, and the plain listing decides.
    let total = out.iter().try_fold(0u64, |sum, p| sum.checked_add(p.copies));
    (counted && total.is_some()).then_some(out)
}

/// Stud pattern combinations counted by flush class, at most; all of them share one budget of
/// suit choices ([`FLUSH_STEPS`]).
const FLUSH_COMBINATIONS: usize = 20_000;

/// How many hands of `pattern` the cards left (`avail` of each rank) make: the positions of a
/// rank take distinct suits, and a down pair is one hand whichever way round.
fn suited_hands(pattern: Pattern, avail: &[u8; 13]) -> u64 {
    let mut taken = [0u8; 13];
    let mut hands = 1u64;
    for &r in pattern.iter().filter(|&&r| r != OPEN) {
        let ri = usize::from(r);
        hands *= u64::from(avail[ri].saturating_sub(taken[ri]));
        taken[ri] += 1;
    }
    if pattern[0] != OPEN && pattern[0] == pattern[1] {
        hands /= 2;
    }
    hands
}

/// A hand's pattern: its ranks by position, the two down cards sorted.
fn pattern_of(slots: [u8; 7]) -> Pattern {
    let mut p = [OPEN; 7];
    for (dst, s) in p.iter_mut().zip(slots) {
        if s != OPEN {
            *dst = Card::from_index(s).rank();
        }
    }
    if p[0] > p[1] {
        p.swap(0, 1);
    }
    p
}

/// Calls `each` with every combination of one pattern per player.
fn combine(patterns: &[Vec<Pattern>], chosen: &mut Vec<Pattern>, each: &mut impl FnMut(&[Pattern])) {
    if chosen.len() == patterns.len() {
        each(chosen);
        return;
    }
    for &p in &patterns[chosen.len()] {
        chosen.push(p);
        combine(patterns, chosen, each);
        chosen.pop();
    }
}

/// One fixed part of the players' `patterns`, with the number of fixed parts it stands for:
/// for each rank, the players holding it take distinct suits of those left, in
/// `avail(avail - 1)...` ways. `None` when some rank is wanted more often than it is left.
fn representative(spec: &DealSpec, patterns: &[Pattern], avail: &[u8; 13]) -> Option<Prefix> {
    let mut copies = 1u64;
    let mut next_suit = [0usize; 13];
    let mut suits_of: [Vec<u8>; 13] = Default::default();
    let deck: CardSet = spec.deck.iter().copied().collect();
    for (r, suits) in suits_of.iter_mut().enumerate() {
        *suits = (0..4u8).filter(|&s| deck.contains(Card::new(r as u8, s))).collect();
    }
    let mut deal = Deal::new(spec.game, spec.players.len());
    let mut used = spec.dead;
    for (p, pattern) in patterns.iter().enumerate() {
        let mut slots = [OPEN; 7];
        for (slot, &r) in slots.iter_mut().zip(pattern) {
            if r == OPEN {
                continue;
            }
            let ri = usize::from(r);
            let k = next_suit[ri];
            let suit = *suits_of[ri].get(k)?;
            copies = copies.checked_mul(u64::from(avail[ri]) - k as u64)?;
            next_suit[ri] += 1;
            let c = Card::new(r, suit);
            *slot = c.index();
            used.insert(c);
        }
        if matches!(spec.players[p], HandSource::Range(_)) {
            place_slots(&mut deal.stud[p], slots);
            deal.hole[p] = slots.iter().filter(|&&s| s != OPEN).map(|&s| Card::from_index(s)).collect();
        }
    }
    deal.dead = spec.dead;
    Some(Prefix { deal, used, weight: copies as f64, board_slots: [OPEN; 5], copies })
}

/// One fixed part per flush class of the players' `patterns` (every position fixed), standing for
/// the class's suit assignments; `None` when they are too many to count.
fn flush_representatives(spec: &DealSpec, patterns: &[Pattern], budget: &mut usize) -> Option<Vec<Prefix>> {
    let deck: CardSet = spec.deck.iter().copied().collect();
    flush_classes(patterns, deck, budget)?
        .into_iter()
        .map(|class| {
            let copies = u64::try_from(class.count).ok()?;
            let mut deal = Deal::new(spec.game, spec.players.len());
            let mut used = spec.dead;
            for (p, cards) in class.example.iter().enumerate() {
                place_slots(&mut deal.stud[p], cards.map(Card::index));
                deal.hole[p] = cards.iter().copied().collect();
                used = used.union(deal.hole[p]);
            }
            deal.dead = spec.dead;
            Some(Prefix { deal, used, weight: copies as f64, board_slots: [OPEN; 5], copies })
        })
        .collect()
}
