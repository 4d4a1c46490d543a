use super::{Card, Rank, Suit};
use std::fmt;

/// A set of cards as a bitmask: bit `suit * 16 + rank`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct CardSet(pub u64);

const LANE: u64 = 0x1FFF;

impl CardSet {
    pub const EMPTY: CardSet = CardSet(0);
    pub const FULL: CardSet = CardSet(0x1FFF_1FFF_1FFF_1FFF);

    pub const fn from_bits(bits: u64) -> CardSet {
        CardSet(bits)
    }
    pub const fn bits(self) -> u64 {
        self.0
    }
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
    pub const fn contains(self, c: Card) -> bool {
        self.0 & c.bit() != 0
    }
    pub const fn with(self, c: Card) -> CardSet {
        CardSet(self.0 | c.bit())
    }
    pub fn insert(&mut self, c: Card) {
        self.0 |= c.bit();
    }
    pub fn remove(&mut self, c: Card) {
        self.0 &= !c.bit();
    }
    pub const fn union(self, o: CardSet) -> CardSet {
        CardSet(self.0 | o.0)
    }
    pub const fn intersect(self, o: CardSet) -> CardSet {
        CardSet(self.0 & o.0)
    }
    pub const fn minus(self, o: CardSet) -> CardSet {
        CardSet(self.0 & !o.0)
    }
    pub const fn overlaps(self, o: CardSet) -> bool {
        self.0 & o.0 != 0
    }
    /// The 13-bit rank mask of one suit.
    pub const fn suit_mask(self, suit: Suit) -> u16 {
        ((self.0 >> (suit as u32 * 16)) & LANE) as u16
    }
    /// Ranks present in any suit.
    pub const fn rank_mask(self) -> u16 {
        let b = self.0;
        ((b | b >> 16 | b >> 32 | b >> 48) & LANE) as u16
    }
    /// How many cards of `rank` the set holds.
    pub const fn rank_count(self, rank: Rank) -> u32 {
        ((self.0 >> rank) & 0x0001_0001_0001_0001).count_ones()
    }
    pub fn iter(self) -> CardSetIter {
        CardSetIter(self.0)
    }
    /// The lowest card, if any.
    pub fn first(self) -> Option<Card> {
        (self.0 != 0).then(|| Card::from_index(self.0.trailing_zeros() as u8))
    }
    pub fn from_cards<I: IntoIterator<Item = Card>>(cards: I) -> CardSet {
        cards.into_iter().fold(CardSet::EMPTY, CardSet::with)
    }
    pub fn to_vec(self) -> Vec<Card> {
        self.iter().collect()
    }
}

impl FromIterator<Card> for CardSet {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> Self {
        CardSet::from_cards(iter)
    }
}

/// Iterates from the lowest bit (clubs deuce) upward.
#[derive(Clone)]
pub struct CardSetIter(u64);

impl Iterator for CardSetIter {
    type Item = Card;
    fn next(&mut self) -> Option<Card> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(Card::from_index(i as u8))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for CardSetIter {}

impl IntoIterator for CardSet {
    type Item = Card;
    type IntoIter = CardSetIter;
    fn into_iter(self) -> CardSetIter {
        self.iter()
    }
}

impl fmt::Display for CardSet {
    /// Cards from the highest rank down, the way players write hands (`AsKd`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut cards = self.to_vec();
        cards.sort_by(|a, b| b.rank().cmp(&a.rank()).then(b.suit().cmp(&a.suit())));
        for c in cards {
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CardSet({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;

    #[test]
    fn masks_and_counts() {
        let s = parse_cards("AsAhKd2c").unwrap();
        assert_eq!(s.len(), 4);
        assert_eq!(s.rank_count(12), 2);
        assert_eq!(s.rank_mask(), (1 << 12) | (1 << 11) | 1);
        assert_eq!(s.suit_mask(3), 1 << 12);
        assert_eq!(s.to_string(), "AsAhKd2c");
        assert_eq!(CardSet::FULL.len(), 52);
    }
}
