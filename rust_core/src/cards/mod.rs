//! Cards, ranks, suits and card sets.
//!
//! A card is a bit index `suit * 16 + rank` so that a [`CardSet`] (a `u64`) holds one 13-bit rank
//! mask per suit in its four 16-bit lanes: flushes and rank masks fall out of shifts and ORs.
//! Also choices of cards (`combinations`): every k-card combination, and how many there are; and
//! the k-th card of a set (`nth`), as a draw finds it.
//!
//! Uses nothing else of the crate: every other room stands on this one.

mod cardset;
mod combinations;
mod nth;
mod parse;

pub use cardset::{CardSet, CardSetIter};
pub use combinations::{binomial, for_each_combination};
pub use nth::{ByCount, NthCard, Pdep};
pub use parse::{parse_card, parse_cards, parse_rank, parse_suit, CardParseError};

use std::fmt;

/// Ranks from deuce (0) to ace (12).
pub type Rank = u8;
/// Suits: clubs 0, diamonds 1, hearts 2, spades 3.
pub type Suit = u8;

pub const RANK_CHARS: [char; 13] = ['2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K', 'A'];
pub const SUIT_CHARS: [char; 4] = ['c', 'd', 'h', 's'];
pub const ACE: Rank = 12;
pub const TEN: Rank = 8;
pub const FIVE: Rank = 3;
pub const SIX: Rank = 4;
pub const EIGHT: Rank = 6;
pub const NINE: Rank = 7;

/// One card; its value is the bit index inside a [`CardSet`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card(u8);

impl Card {
    /// `rank` in 0..13, `suit` in 0..4.
    pub const fn new(rank: Rank, suit: Suit) -> Card {
        debug_assert!(rank < 13 && suit < 4);
        Card((suit << 4) | rank)
    }
    pub const fn from_index(index: u8) -> Card {
        Card(index)
    }
    pub const fn index(self) -> u8 {
        self.0
    }
    pub const fn rank(self) -> Rank {
        self.0 & 15
    }
    pub const fn suit(self) -> Suit {
        self.0 >> 4
    }
    pub const fn bit(self) -> u64 {
        1 << self.0
    }
    /// Dense number 0..52 (rank-major: `2c 2d 2h 2s 3c ...`), handy for arrays and peers' formats.
    pub const fn dense(self) -> usize {
        self.rank() as usize * 4 + self.suit() as usize
    }
    pub const fn from_dense(n: usize) -> Card {
        Card::new((n / 4) as u8, (n % 4) as u8)
    }
    pub fn rank_char(self) -> char {
        RANK_CHARS[self.rank() as usize]
    }
    pub fn suit_char(self) -> char {
        SUIT_CHARS[self.suit() as usize]
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.rank_char(), self.suit_char())
    }
}

impl fmt::Debug for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The rank character of `rank` (`'A'`, `'T'`, `'2'`).
pub fn rank_char(rank: Rank) -> char {
    RANK_CHARS[rank as usize]
}

/// A deck: the 52-card deck or the 36-card short deck (sixes to aces).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Deck {
    Standard,
    Short,
}

impl Deck {
    pub const fn cards(self) -> CardSet {
        match self {
            Deck::Standard => CardSet::FULL,
            // Ranks 6..A are bits 4..12 of every lane.
            Deck::Short => CardSet::from_bits(0x1FF0_1FF0_1FF0_1FF0),
        }
    }
    pub const fn lowest_rank(self) -> Rank {
        match self {
            Deck::Standard => 0,
            Deck::Short => SIX,
        }
    }
    pub const fn size(self) -> u32 {
        self.cards().len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn card_layout_round_trips() {
        for n in 0..52 {
            let c = Card::from_dense(n);
            assert_eq!(c.dense(), n);
            assert_eq!(parse_card(&c.to_string()).unwrap(), c);
        }
        assert_eq!(Card::new(ACE, 3).to_string(), "As");
    }

    #[test]
    fn decks_have_the_right_sizes() {
        assert_eq!(Deck::Standard.size(), 52);
        assert_eq!(Deck::Short.size(), 36);
        assert!(Deck::Short.cards().iter().all(|c| c.rank() >= SIX));
    }
}
