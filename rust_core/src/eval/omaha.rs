//! Omaha hands: exactly two hole cards and three board cards, for hi and for the 8-or-better low.
//!
//! A board is prepared once per deal (its ten 3-card subsets), a hole hand once per player (its
//! two-card subsets); rating is then a handful of table lookups. On the river, the commonest
//! case, a table gives the best unsuited hand of each pair of hole ranks with the board's ranks
//! directly: one lookup per two-card subset instead of ten.

use super::five::{FIVE, RANK_KEYS};
use super::lo::{ace_low, LO8_MASK};
use super::rank_tables::{five_rank_slot, five_rank_slot_of_key, rank_multisets, FIVE_RANK_SLOTS};
use super::tables::keep_low;
use super::{HiRating, LoRating};
use crate::cards::CardSet;
use std::sync::LazyLock;

/// Two ranks r1 <= r2 (0 = deuce) as one of 91 numbers.
const fn rank_pair(r1: usize, r2: usize) -> usize {
    r2 * (r2 + 1) / 2 + r1
}

/// `RIVER[five_rank_slot(board)][rank_pair(a, b)]`: the strength (as in [`FIVE`]) of the best
/// hand without a flush made of hole ranks a and b and three of the five board ranks; 0 when the
/// seven cards would need a fifth card of a rank. Rows are padded to 128 entries so that a pair
/// number masked with 127 needs no bounds check. 2 MB, built on first use (about 0.6 M entries of
/// ten lookups each); a hand reads two or three cache lines of its board's row.
static RIVER: LazyLock<Vec<[u16; 128]>> = LazyLock::new(|| {
    let five = &*FIVE;
    let mut table = vec![[0u16; 128]; FIVE_RANK_SLOTS];
    for board in rank_multisets(5) {
        let ranks: Vec<usize> = board.iter().map(|c| usize::from(c.rank())).collect();
        let row = &mut table[five_rank_slot(board)];
        for r2 in 0..13 {
            for r1 in 0..=r2 {
                let on_board = |r: usize| ranks.iter().filter(|&&x| x == r).count();
                if on_board(r1) + 1 + usize::from(r1 == r2) > 4 || on_board(r2) + 1 + usize::from(r1 == r2) > 4 {
                    continue;
                }
                let pair = RANK_KEYS[r1] + RANK_KEYS[r2];
                row[rank_pair(r1, r2)] = TRIPLES
                    .iter()
                    .map(|&(i, j, k)| {
                        five.by_key[(pair + RANK_KEYS[ranks[i]] + RANK_KEYS[ranks[j]] + RANK_KEYS[ranks[k]]) as usize]
                    })
                    .max()
                    .unwrap_or(0);
            }
        }
    }
    table
});

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

/// A hole hand of 2 to 5 cards: its ranks and the rank pairs of its two-card subsets (all the
/// unsuited hi needs) and the cards, from which the rarer flush and low questions are answered.
#[derive(Clone, Debug)]
pub struct OmahaHole {
    ranks: [u8; 8],
    /// The first `n` entries are the pairs; the rest repeat the first, so that reading six (or
    /// all ten) of them needs no count and changes no maximum.
    rank_pairs: [u8; 10],
    n: usize,
    cards: CardSet,
}

impl OmahaHole {
    #[inline]
    pub fn new(hole: CardSet) -> OmahaHole {
        // Fixed arrays, not Vecs: this runs once per player per deal in the hot loop.
        let mut ranks = [0u8; 8];
        let mut len = 0;
        let mut bits = hole.bits();
        while bits != 0 && len < 5 {
            ranks[len] = (bits.trailing_zeros() & 15) as u8;
            bits &= bits - 1;
            len += 1;
        }
        let n = pairs_of(len);
        // Ten fixed steps (no count-long loop and no fill): the pairs past `n` repeat the first.
        let rank_pairs = std::array::from_fn(|k| {
            let (i, j) = if k < n { PAIRS[k] } else { PAIRS[0] };
            PAIR_OF_RANKS[usize::from(ranks[i & 7] & 15)][usize::from(ranks[j & 7] & 15)]
        });
        OmahaHole { ranks, rank_pairs, n, cards: hole }
    }

    /// The best entry of a river row (see [`omaha_river`]) at this hole's rank pairs: the best
    /// unsuited hand. Every read is made and the maximum taken without a branch on the values
    /// (which one wins is as good as random, and a mispredicted branch costs more than a read);
    /// the one branch, on the hole's size, goes the same way for every hand of a game.
    #[inline]
    pub fn best_in_row(&self, row: &[u16; 128]) -> u16 {
        let at = |k: usize| row[usize::from(self.rank_pairs[k]) & 127];
        let six = at(0).max(at(1)).max(at(2).max(at(3))).max(at(4).max(at(5)));
        let best = if self.n > 6 { six.max(at(6).max(at(7))).max(at(8).max(at(9))) } else { six };
        if self.n == 0 {
            0
        } else {
            best
        }
    }

    /// The rank-key sum of the `k`-th two-card subset.
    #[inline]
    fn pair_key(&self, k: usize) -> u32 {
        let (i, j) = PAIRS[k % 10];
        KEY_OF_RANK[usize::from(self.ranks[i & 7] & 15)] + KEY_OF_RANK[usize::from(self.ranks[j & 7] & 15)]
    }
}

/// `PAIR_OF_RANKS[a][b]`: [`rank_pair`] of the two ranks in either order (padded to 16 ranks).
const PAIR_OF_RANKS: [[u8; 16]; 16] = {
    let mut t = [[0u8; 16]; 16];
    let mut a = 0;
    while a < 13 {
        let mut b = 0;
        while b < 13 {
            t[a][b] = if a <= b { rank_pair(a, b) } else { rank_pair(b, a) } as u8;
            b += 1;
        }
        a += 1;
    }
    t
};

/// A board of 3 to 5 cards, prepared once per deal for every player's hand.
pub struct OmahaBoard {
    cards: CardSet,
    /// A five-card board's row of `RIVER`.
    river_row: Option<&'static [u16; 128]>,
    /// Before the river: the rank-key sums of the three-card subsets.
    triple_keys: [u32; 10],
    n: usize,
    /// The card bits of the suit with three or more board cards (at most one of five cards), else
    /// 0: a hand with two cards there may have a flush.
    flush_lane: u64,
}

impl OmahaBoard {
    #[inline]
    pub fn new(board: CardSet) -> OmahaBoard {
        let len = board.len() as usize;
        // On the river the `RIVER` row replaces the triples' keys.
        let river_row = (len == 5).then(|| &RIVER[five_rank_slot(board)]);
        let mut n = 0;
        let mut triple_keys = [0u32; 10];
        if river_row.is_none() {
            let (keys, len) = keys_of(board);
            n = triples_of(len);
            for (key, &(i, j, k)) in triple_keys.iter_mut().zip(&TRIPLES[..n]) {
                *key = keys[i & 7] + keys[j & 7] + keys[k & 7];
            }
        }
        OmahaBoard { cards: board, river_row, triple_keys, n, flush_lane: flush_lane(board) }
    }
}

/// The bits of the suit in which `board` holds three cards or more, else 0 (with up to five board
/// cards there is at most one). No branch: whether a board has one is as good as random.
#[inline]
fn flush_lane(board: CardSet) -> u64 {
    (0..4).fold(0, |lane, suit| {
        let mask = 0x1FFFu64 << (16 * suit);
        lane | mask & 0u64.wrapping_sub(u64::from((board.bits() & mask).count_ones() >= 3))
    })
}

/// The best Omaha hi hand (exactly two hole and three board cards). `HiRating::NONE` with fewer
/// than three board cards.
#[inline]
pub fn omaha_hi(hole: &OmahaHole, board: &OmahaBoard) -> HiRating {
    let t = &*FIVE;
    let mut best = 0u16;
    if let Some(river) = board.river_row {
        best = hole.best_in_row(river);
    } else {
        for k in 0..hole.n {
            let pk = hole.pair_key(k);
            for &tk in &board.triple_keys[..board.n] {
                best = best.max(t.by_key[(tk + pk) as usize]);
            }
        }
    }
    let suited = hole.cards.bits() & board.flush_lane;
    if suited.count_ones() >= 2 {
        // One suit's bits: folding the lanes gives its rank mask.
        let ranks = |bits: u64| u32::from(CardSet::from_bits(bits).rank_mask());
        best = best.max(best_flush(ranks(suited), ranks(board.cards.bits() & board.flush_lane)));
    }
    t.rating[best as usize]
}

/// A river board's row of best unsuited hands by hole rank pair (the board's ranks given by
/// their base-5 key), to read several hands' values from.
#[inline]
pub fn omaha_river(board_key: u32) -> &'static [u16; 128] {
    &RIVER[five_rank_slot_of_key(board_key)]
}

/// The strength of the best flush (or straight flush) of two of the `hole` ranks and three of the
/// `board` ranks, all of one suit.
#[cold]
pub fn best_flush(hole: u32, board: u32) -> u16 {
    let flush = &FIVE.flush;
    let (hole_bits, hole_len) = bits_of(hole);
    let (board_bits, board_len) = bits_of(board);
    let mut best = 0;
    for &(i, j) in &PAIRS[..pairs_of(hole_len)] {
        let two = hole_bits[i & 7] | hole_bits[j & 7];
        for &(a, b, c) in &TRIPLES[..triples_of(board_len)] {
            best = best.max(flush[(two | board_bits[a & 7] | board_bits[b & 7] | board_bits[c & 7]) as usize]);
        }
    }
    best
}

/// The best Omaha 8-or-better low, if any (two distinct low hole ranks, three other distinct low
/// board ranks).
pub fn omaha_lo8(hole: &OmahaHole, board: &OmahaBoard) -> Option<LoRating> {
    omaha_lo8_of_ranks(hole.cards.rank_mask(), board.cards.rank_mask())
}

/// [`omaha_lo8`] from the rank masks (deuce = bit 0) of the hole and the board: all a low needs.
#[inline]
pub fn omaha_lo8_of_ranks(hole_ranks: u16, board_ranks: u16) -> Option<LoRating> {
    let mut best = u32::MAX;
    // Distinct low ranks of the board.
    let board_lo = ace_low(u32::from(board_ranks)) & LO8_MASK;
    // Two distinct low ranks of the hole: the pairs of bits of its low rank mask.
    let (bits, len) = bits_of(ace_low(u32::from(hole_ranks)) & LO8_MASK);
    for &(i, j) in &PAIRS[..pairs_of(len)] {
        let two = bits[i & 7] | bits[j & 7];
        let rest = board_lo & !two;
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
    fn agrees_with_every_two_plus_three_choice() {
        // The river table and the flush path against rating all 60 (or 100) five-card choices.
        use crate::cards::{Card, Deck};
        use crate::eval::rate_hi_bits;
        use crate::games::HiRules;
        let deck: Vec<Card> = Deck::Standard.cards().to_vec();
        let mut rng = crate::rng::Rng::new(9, 0);
        for round in 0..40_000 {
            // Two- and three-card holes too: the nut questions rate two cards at a time.
            let (holes, boards) = (2 + round % 4, 3 + round % 3);
            let mut pool = deck.clone();
            for i in 0..holes + boards {
                let j = i + rng.below((pool.len() - i) as u64) as usize;
                pool.swap(i, j);
            }
            // Every fourth deal is dealt from two suits only, so flushes are common.
            if (round / 4) % 4 == 0 {
                pool.retain(|c| c.suit() < 2);
                for i in 0..holes + boards {
                    let j = i + rng.below((pool.len() - i) as u64) as usize;
                    pool.swap(i, j);
                }
            }
            let hole: Vec<Card> = pool[..holes].to_vec();
            let board: Vec<Card> = pool[holes..holes + boards].to_vec();
            let mut best = HiRating::NONE;
            for a in 0..holes {
                for b in a + 1..holes {
                    for (i, j, k) in TRIPLES.iter().copied().filter(|&(_, _, k)| k < boards) {
                        let five = CardSet::from_cards([hole[a], hole[b], board[i], board[j], board[k]]);
                        best = best.max(rate_hi_bits(five, HiRules::Standard));
                    }
                }
            }
            let fast = omaha_hi(
                &OmahaHole::new(hole.iter().copied().collect()),
                &OmahaBoard::new(board.iter().copied().collect()),
            );
            assert_eq!(fast, best, "{hole:?} on {board:?}");
        }
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
