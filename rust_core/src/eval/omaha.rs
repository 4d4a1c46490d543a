//! Omaha hands: exactly two hole cards and three board cards, for hi and for the 8-or-better low.
//!
//! A board is prepared once per deal (its ten 3-card subsets), a hole hand once per player (its
//! two-card subsets); rating is then a handful of table lookups.

use super::five::{FIVE, RANK_KEYS};
use super::lo::{ace_low, LO8_MASK};
use super::tables::keep_low;
use super::{HiRating, LoRating};
use crate::cards::CardSet;

/// Index pairs and triples of up to five cards, ordered so that those of the first `n` cards come
/// first: the subsets of `n` cards are a prefix of `C(n, 2)` or `C(n, 3)` entries.
const PAIRS: [(usize, usize); 10] = [(0, 1), (0, 2), (1, 2), (0, 3), (1, 3), (2, 3), (0, 4), (1, 4), (2, 4), (3, 4)];
const TRIPLES: [(usize, usize, usize); 10] =
    [(0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3), (0, 1, 4), (0, 2, 4), (1, 2, 4), (0, 3, 4), (1, 3, 4), (2, 3, 4)];

const fn pairs_of(n: usize) -> usize {
    n * n.saturating_sub(1) / 2
}

const fn triples_of(n: usize) -> usize {
    n * n.saturating_sub(1) * n.saturating_sub(2) / 6
}

/// `RANK_KEYS` padded to sixteen entries, so a card index masked with 15 needs no bounds check.
const KEY_OF_RANK: [u32; 16] = {
    let mut t = [0u32; 16];
    let mut r = 0;
    while r < 13 {
        t[r] = RANK_KEYS[r];
        r += 1;
    }
    t
};

/// The rank keys of the first five cards of a set and how many there are. Eight slots so that
/// indices masked with 7 need no bounds checks.
#[inline]
fn keys_of(set: CardSet) -> ([u32; 8], usize) {
    let mut keys = [0u32; 8];
    let mut bits = set.bits();
    let mut len = 0;
    while bits != 0 && len < 5 {
        keys[len] = KEY_OF_RANK[(bits.trailing_zeros() & 15) as usize];
        bits &= bits - 1;
        len += 1;
    }
    (keys, len)
}

/// The lowest five set bits of a mask, one per entry, and how many there are.
#[inline]
fn bits_of(mask: u32) -> ([u32; 8], usize) {
    let mut bits = [0u32; 8];
    let mut rest = mask;
    let mut len = 0;
    while rest != 0 && len < 5 {
        bits[len] = rest & rest.wrapping_neg();
        rest &= rest - 1;
        len += 1;
    }
    (bits, len)
}

/// A hole hand of 2 to 5 cards: the rank-key sums of its two-card subsets (all the unsuited hi
/// needs) and the cards, from which the rarer flush and low questions are answered.
pub struct OmahaHole {
    keys: [u32; 10],
    n: usize,
    cards: CardSet,
}

impl OmahaHole {
    pub fn new(hole: CardSet) -> OmahaHole {
        // Fixed arrays, not Vecs: this runs once per player per deal in the hot loop.
        let (card_keys, len) = keys_of(hole);
        let n = pairs_of(len);
        let mut keys = [0u32; 10];
        for (key, &(i, j)) in keys.iter_mut().zip(&PAIRS[..n]) {
            *key = card_keys[i & 7] + card_keys[j & 7];
        }
        OmahaHole { keys, n, cards: hole }
    }
}

/// A board of 3 to 5 cards as its three-card subsets.
pub struct OmahaBoard {
    triple_keys: [u32; 10],
    n: usize,
    /// The suit with three or more board cards (at most one on five cards), else 4.
    flush_suit: u8,
    /// Rank masks of the three-card subsets of that suit's board cards.
    flush_triples: [u32; 10],
    n_flush: usize,
    /// Distinct ace-low ranks eight or lower on the board.
    lo: u32,
}

impl OmahaBoard {
    pub fn new(board: CardSet) -> OmahaBoard {
        let (keys, len) = keys_of(board);
        let n = triples_of(len);
        let mut triple_keys = [0u32; 10];
        if len == 5 {
            // The river, by far the commonest: shared partial sums instead of thirty additions.
            let [a, b, c, d, e] = [keys[0], keys[1], keys[2], keys[3], keys[4]];
            let (ab, cd, ce, de) = (a + b, c + d, c + e, d + e);
            triple_keys = [ab + c, ab + d, a + cd, b + cd, ab + e, a + ce, b + ce, a + de, b + de, c + de];
        } else {
            for (key, &(i, j, k)) in triple_keys.iter_mut().zip(&TRIPLES[..n]) {
                *key = keys[i & 7] + keys[j & 7] + keys[k & 7];
            }
        }
        let mut flush_suit = 4;
        let mut flush_triples = [0u32; 10];
        let mut n_flush = 0;
        for suit in 0..4u8 {
            let lane = board.suit_mask(suit) as u32;
            if lane.count_ones() >= 3 {
                flush_suit = suit;
                let (bits, len) = bits_of(lane);
                n_flush = triples_of(len);
                for (triple, &(i, j, k)) in flush_triples.iter_mut().zip(&TRIPLES[..n_flush]) {
                    *triple = bits[i & 7] | bits[j & 7] | bits[k & 7];
                }
            }
        }
        OmahaBoard {
            triple_keys,
            n,
            flush_suit,
            flush_triples,
            n_flush,
            lo: ace_low(board.rank_mask() as u32) & LO8_MASK,
        }
    }
}

/// The best Omaha hi hand (exactly two hole and three board cards). `HiRating::NONE` with fewer
/// than three board cards.
pub fn omaha_hi(hole: &OmahaHole, board: &OmahaBoard) -> HiRating {
    let t = &*FIVE;
    let mut best = 0u16;
    for &tk in &board.triple_keys[..board.n] {
        for &pk in &hole.keys[..hole.n] {
            best = best.max(t.by_key[(tk + pk) as usize]);
        }
    }
    if board.flush_suit < 4 {
        // Pairs of the hole's cards of the board's flush suit, as rank masks.
        let (bits, len) = bits_of(u32::from(hole.cards.suit_mask(board.flush_suit)));
        for &(i, j) in &PAIRS[..pairs_of(len)] {
            let ranks = bits[i & 7] | bits[j & 7];
            for &tr in &board.flush_triples[..board.n_flush] {
                best = best.max(t.flush[(tr | ranks) as usize]);
            }
        }
    }
    t.rating[best as usize]
}

/// The best Omaha 8-or-better low, if any (two distinct low hole ranks, three other distinct low
/// board ranks).
pub fn omaha_lo8(hole: &OmahaHole, board: &OmahaBoard) -> Option<LoRating> {
    let mut best = u32::MAX;
    // Two distinct low ranks of the hole: the pairs of bits of its low rank mask.
    let (bits, len) = bits_of(ace_low(u32::from(hole.cards.rank_mask())) & LO8_MASK);
    for &(i, j) in &PAIRS[..pairs_of(len)] {
        let two = bits[i & 7] | bits[j & 7];
        let rest = board.lo & !two;
        if rest.count_ones() >= 3 {
            best = best.min(two | keep_low(rest, 3));
        }
    }
    (best != u32::MAX).then(|| LoRating::from_low_mask(best))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;
    use crate::eval::HandType;

    fn hi(hole: &str, board: &str) -> HiRating {
        omaha_hi(&OmahaHole::new(parse_cards(hole).unwrap()), &OmahaBoard::new(parse_cards(board).unwrap()))
    }
    fn lo(hole: &str, board: &str) -> Option<LoRating> {
        omaha_lo8(&OmahaHole::new(parse_cards(hole).unwrap()), &OmahaBoard::new(parse_cards(board).unwrap()))
    }

    #[test]
    fn exactly_two_hole_cards_play() {
        // One spade in hand: no flush despite four on the board.
        assert_eq!(hi("As2d3c4h", "KsQsJs9s8d").hand_type(), HandType::HighCard);
        assert_eq!(hi("As2s3c4h", "KsQsJs9d8d").hand_type(), HandType::Flush);
        // Four aces in hand make only a pair of aces.
        assert_eq!(hi("AsAdAcAh", "2s7d9cJhKd").hand_type(), HandType::Pair);
        // Trips on the board need a hole pair for a full house.
        assert_eq!(hi("KsKd3c4h", "2s2d2cJhQd").hand_type(), HandType::FullHouse);
        assert_eq!(hi("Ks3d3c4h", "2s2d2cJhQd").hand_type(), HandType::FullHouse);
        assert_eq!(hi("AsKs3c4h", "QsJsTs2d2c").hand_type(), HandType::StraightFlush);
    }

    #[test]
    fn omaha_lows_use_two_and_three() {
        assert_eq!(lo("As2dKcKh", "3s4d8cJhQd").unwrap().describe(), "8-4-3-2-A");
        assert!(lo("As2d3c4h", "5s6dKcJhQd").is_none());
        assert!(lo("AsKdKcKh", "2s3d4c5hQd").is_none());
        assert_eq!(lo("As2d3c4h", "5s6d7cJhQd").unwrap().describe(), "7-6-5-2-A");
        assert_eq!(lo("AsAd3c4h", "5s2d7cJhQd").unwrap().describe(), "7-5-3-2-A");
    }
}
