//! Every distinct five-card standard hi hand, numbered by strength, and a table that rates five
//! cards from a sum of per-rank keys (used where many 5-card subsets are rated: Omaha).

use super::{rate_hi_standard, HiRating};
use crate::cards::{Card, CardSet};
use std::sync::LazyLock;

/// Per-rank keys whose sums are distinct for every multiset of five ranks (found by a greedy
/// search: each key is the smallest that keeps all five-card sums apart).
pub const RANK_KEYS: [u32; 13] = [1, 2, 6, 23, 95, 313, 993, 2423, 5625, 12523, 19999, 43259, 79416];
const KEY_SPACE: usize = (4 * 79416 + 43259 + 1) as usize;

/// Number of distinct five-card hi hands.
pub const DISTINCT_FIVE: usize = 7462;

pub struct FiveCardTables {
    /// Strength (1 = 7-5-4-3-2 ... 7462 = royal flush) of five non-suited ranks by key sum.
    pub by_key: Vec<u16>,
    /// Strength of a five-card flush by its 13-bit rank mask.
    pub flush: Vec<u16>,
    /// Rating of each strength, index 0 unused.
    pub rating: Vec<HiRating>,
}

pub static FIVE: LazyLock<FiveCardTables> = LazyLock::new(build);

fn build() -> FiveCardTables {
    let mut hands: Vec<(u32, Option<u32>, CardSet)> = Vec::with_capacity(DISTINCT_FIVE);
    // Flushes: five distinct ranks in one suit.
    for mask in 0u32..8192 {
        if mask.count_ones() == 5 {
            let cards = (0..13).filter(|r| mask & (1 << r) != 0).map(|r| Card::new(r as u8, 0)).collect();
            hands.push((mask, None, cards));
        }
    }
    // Non-flushes: every multiset of five ranks with at most four of a rank, suits spread so no
    // five share one.
    let mut counts = [0u8; 13];
    multisets(0, 5, &mut counts, &mut |counts| {
        let mut cards = CardSet::EMPTY;
        let mut next_suit = 0u8;
        let mut key = 0;
        for (r, &n) in counts.iter().enumerate() {
            for _ in 0..n {
                cards.insert(Card::new(r as u8, next_suit % 4));
                next_suit += 1;
                key += RANK_KEYS[r];
            }
        }
        hands.push((0, Some(key), cards));
    });
    let mut ratings: Vec<HiRating> = hands.iter().map(|h| rate_hi_standard(h.2)).collect();
    ratings.sort_unstable();
    ratings.dedup();
    assert_eq!(ratings.len(), DISTINCT_FIVE, "five-card table construction");
    let strength = |r: HiRating| (ratings.binary_search(&r).unwrap_or(0) + 1) as u16;

    let mut by_key = vec![0u16; KEY_SPACE];
    let mut flush = vec![0u16; 8192];
    for (mask, key, cards) in &hands {
        let s = strength(rate_hi_standard(*cards));
        match key {
            Some(k) => by_key[*k as usize] = s,
            None => flush[*mask as usize] = s,
        }
    }
    let mut rating = vec![HiRating::NONE];
    rating.extend(ratings);
    FiveCardTables { by_key, flush, rating }
}

fn multisets(rank: usize, left: u8, counts: &mut [u8; 13], visit: &mut impl FnMut(&[u8; 13])) {
    if rank == 13 {
        if left == 0 {
            visit(counts);
        }
        return;
    }
    for n in 0..=left.min(4) {
        counts[rank] = n;
        multisets(rank + 1, left - n, counts, visit);
    }
    counts[rank] = 0;
}

/// 1 = royal flush ... 7462 = 7-5-4-3-2, for a standard rating of five cards (0 when `rating` is
/// not a five-card hand, e.g. of fewer cards).
pub fn five_card_hand_number(rating: HiRating) -> u32 {
    let t = &FIVE.rating;
    match t[1..].binary_search(&rating) {
        Ok(i) => (DISTINCT_FIVE - i) as u32,
        Err(_) => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;

    #[test]
    fn hand_numbers_run_from_royal_to_seven_high() {
        let n = |s: &str| five_card_hand_number(rate_hi_standard(parse_cards(s).unwrap()));
        assert_eq!(n("AsKsQsJsTs"), 1);
        assert_eq!(n("7s5d4c3h2s"), 7462);
        assert_eq!(n("5s4s3s2sAs"), 10);
        assert_eq!(n("AsAdAcAhKs"), 11);
    }

    #[test]
    fn keys_separate_all_five_card_rank_multisets() {
        let used = FIVE.by_key.iter().filter(|&&s| s != 0).count();
        assert_eq!(used, 6175);
    }
}
