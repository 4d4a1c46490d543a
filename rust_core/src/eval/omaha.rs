//! Omaha hands: exactly two hole cards and three board cards, for hi and for the 8-or-better low.
//!
//! A board is prepared once per deal (its ten 3-card subsets), a hole hand once per player (its
//! two-card subsets); rating is then a handful of table lookups.

use super::five::{FIVE, RANK_KEYS};
use super::lo::{ace_low, LO8_MASK};
use super::tables::keep_low;
use super::{HiRating, LoRating};
use crate::cards::{Card, CardSet};

#[derive(Clone, Copy, Default)]
struct Pair {
    key: u32,
    /// The pair's suit when suited, else 4.
    suit: u8,
    /// Both ranks as a 13-bit mask (for flushes).
    ranks: u32,
    /// Ace-low mask of a pair of two distinct ranks eight or lower, else 0.
    lo: u32,
}

/// A hole hand of 4 or 5 cards as its two-card subsets.
pub struct OmahaHole {
    pairs: [Pair; 10],
    n: usize,
}

impl OmahaHole {
    pub fn new(hole: CardSet) -> OmahaHole {
        // A fixed array, not a Vec: this runs once per player per deal in the hot loop.
        let mut cards = [Card::from_index(0); 5];
        let mut len = 0;
        for c in hole.iter().take(5) {
            cards[len] = c;
            len += 1;
        }
        let cards = &cards[..len];
        let mut pairs = [Pair::default(); 10];
        let mut n = 0;
        for i in 0..cards.len() {
            for j in i + 1..cards.len() {
                if n == pairs.len() {
                    break;
                }
                let (a, b) = (cards[i], cards[j]);
                let lo_a = ace_low(1 << a.rank());
                let lo_b = ace_low(1 << b.rank());
                pairs[n] = Pair {
                    key: RANK_KEYS[a.rank() as usize] + RANK_KEYS[b.rank() as usize],
                    suit: if a.suit() == b.suit() { a.suit() } else { 4 },
                    ranks: (1 << a.rank()) | (1 << b.rank()),
                    lo: if lo_a != lo_b && (lo_a | lo_b) & !LO8_MASK == 0 { lo_a | lo_b } else { 0 },
                };
                n += 1;
            }
        }
        OmahaHole { pairs, n }
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
        let mut cards = [Card::from_index(0); 5];
        let mut len = 0;
        for c in board.iter().take(5) {
            cards[len] = c;
            len += 1;
        }
        let cards = &cards[..len];
        let mut triple_keys = [0u32; 10];
        let mut n = 0;
        for_each_triple(cards.len(), |i, j, k| {
            triple_keys[n] = RANK_KEYS[cards[i].rank() as usize]
                + RANK_KEYS[cards[j].rank() as usize]
                + RANK_KEYS[cards[k].rank() as usize];
            n += 1;
        });
        let mut flush_suit = 4;
        let mut flush_triples = [0u32; 10];
        let mut n_flush = 0;
        for suit in 0..4u8 {
            let lane = board.suit_mask(suit) as u32;
            if lane.count_ones() >= 3 {
                flush_suit = suit;
                let mut ranks = [0u32; 5];
                let mut n_ranks = 0;
                for r in (0..13).filter(|r| lane & (1 << r) != 0).take(5) {
                    ranks[n_ranks] = r;
                    n_ranks += 1;
                }
                for_each_triple(n_ranks, |i, j, k| {
                    flush_triples[n_flush] = (1 << ranks[i]) | (1 << ranks[j]) | (1 << ranks[k]);
                    n_flush += 1;
                });
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

fn for_each_triple(len: usize, mut f: impl FnMut(usize, usize, usize)) {
    for i in 0..len {
        for j in i + 1..len {
            for k in j + 1..len {
                f(i, j, k);
            }
        }
    }
}

/// The best Omaha hi hand (exactly two hole and three board cards). `HiRating::NONE` with fewer
/// than three board cards.
pub fn omaha_hi(hole: &OmahaHole, board: &OmahaBoard) -> HiRating {
    let t = &*FIVE;
    let mut best = 0u16;
    for &tk in &board.triple_keys[..board.n] {
        for p in &hole.pairs[..hole.n] {
            best = best.max(t.by_key[(tk + p.key) as usize]);
        }
    }
    if board.flush_suit < 4 {
        for p in hole.pairs[..hole.n].iter().filter(|p| p.suit == board.flush_suit) {
            for &tr in &board.flush_triples[..board.n_flush] {
                best = best.max(t.flush[(tr | p.ranks) as usize]);
            }
        }
    }
    t.rating[best as usize]
}

/// The best Omaha 8-or-better low, if any (two distinct low hole ranks, three other distinct low
/// board ranks).
pub fn omaha_lo8(hole: &OmahaHole, board: &OmahaBoard) -> Option<LoRating> {
    let mut best = u32::MAX;
    for p in hole.pairs[..hole.n].iter().filter(|p| p.lo != 0) {
        let rest = board.lo & !p.lo;
        if rest.count_ones() >= 3 {
            best = best.min(p.lo | keep_low(rest, 3));
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
