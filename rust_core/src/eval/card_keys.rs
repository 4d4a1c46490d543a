//! Card keys: each card as one 64-bit number whose sum over a hand says both what the rank
//! tables need and whether the hand holds a flush, so that a hand built a card at a time (a
//! board dealt card by card, a player's cards added to a board) costs one addition a card.
//!
//! The low half holds the card's base-5 rank digit (5^rank): the sum over up to seven cards is
//! the rank multiset's key of `rank_tables` (at most four of a rank: no carries, and
//! 5^13 < 2^31). The high half holds a one in the card's suit's nibble (suit s at bits
//! 32 + 4s): the sum counts each suit's cards (at most seven, so a nibble never carries).

use crate::cards::{Card, CardSet};

/// Per card index (suit * 16 + rank): its key (see the module doc); zero for indices that are
/// no card. Every byte has an entry, so that a card's index needs no mask to read it. Then the
/// same keys with [`SUIT_BIAS`] added: a sum started from one card's key read there is biased
/// with no addition of its own. One table for both, so a loop holds one address for them.
static CARD_KEYS: [u64; 512] = {
    let mut t = [0u64; 512];
    let mut i = 0;
    while i < 64 {
        let (suit, rank) = (i / 16, i % 16);
        if rank < 13 {
            t[i] = 5u64.pow(rank as u32) | 1 << (32 + 4 * suit);
        }
        i += 1;
    }
    while i < 512 {
        if i >= 256 {
            t[i] = t[i - 256] + SUIT_BIAS;
        }
        i += 1;
    }
    t
};

/// The key of one card.
#[inline]
pub fn card_key(c: Card) -> u64 {
    CARD_KEYS[usize::from(c.index())]
}

/// The key of one card plus [`SUIT_BIAS`].
#[inline]
pub fn biased_card_key(c: Card) -> u64 {
    CARD_KEYS[256 | usize::from(c.index())]
}

/// Added to summed keys, this makes a suit's nibble reach 8 exactly when the suit holds five
/// cards or more: a sum started from it tests for a flush with one AND ([`FLUSH_BITS`]).
pub const SUIT_BIAS: u64 = 0x3333 << 32;

/// The bits of a [`SUIT_BIAS`]ed sum that say "flush" (one per suit's nibble).
pub const FLUSH_BITS: u64 = 0x8888 << 32;

/// The summed keys of a set of cards.
pub fn keys_of(cards: CardSet) -> u64 {
    cards.iter().map(card_key).sum()
}

/// The rank multiset's key (the low half) of summed keys.
#[inline]
pub const fn rank_key(keys: u64) -> u32 {
    keys as u32
}

/// Some suit holds five cards or more (of at most seven cards: every nibble is at most 7).
#[inline]
pub const fn has_flush(keys: u64) -> bool {
    (keys + SUIT_BIAS) & FLUSH_BITS != 0
}

/// The suit holding five cards or more, when [`has_flush`].
#[inline]
pub const fn flush_suit(keys: u64) -> u32 {
    biased_flush_suit(keys + SUIT_BIAS)
}

/// [`flush_suit`] of a [`SUIT_BIAS`]ed sum.
#[inline]
pub const fn biased_flush_suit(biased: u64) -> u32 {
    (biased & FLUSH_BITS).trailing_zeros() / 4 - 8
}

/// How many cards of `suit` the summed keys count.
#[inline]
pub const fn suit_count(keys: u64, suit: u32) -> u32 {
    ((keys >> (32 + 4 * (suit & 3))) & 15) as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    #[test]
    fn sums_count_ranks_and_suits() {
        let mut rng = Rng::new(9, 0);
        let deck: Vec<Card> = crate::cards::Deck::Standard.cards().to_vec();
        for _ in 0..20_000 {
            let n = 1 + rng.below(7) as u32;
            let mut set = CardSet::EMPTY;
            while set.len() < n {
                set.insert(deck[rng.below(52) as usize]);
            }
            let keys = keys_of(set);
            let mut digits = rank_key(keys);
            for r in 0..13u8 {
                assert_eq!(digits % 5, set.rank_count(r), "{set}");
                digits /= 5;
            }
            for s in 0..4u8 {
                assert_eq!(suit_count(keys, u32::from(s)), set.suit_mask(s).count_ones());
            }
            let flush = (0..4u8).find(|&s| set.suit_mask(s).count_ones() >= 5);
            assert_eq!(has_flush(keys), flush.is_some(), "{set}");
            if let Some(s) = flush {
                assert_eq!(flush_suit(keys), u32::from(s));
            }
        }
    }
}
