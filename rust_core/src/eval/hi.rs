//! Hi evaluation of any number of cards up to seven by bit arithmetic on the four suit lanes.
//! The table evaluator (`rank_tables.rs`) is built from it and answers the hot path; this one rates
//! hands of fewer than five cards (early stud streets) and is the reference in tests.

use super::tables::{keep_top, top_bit, STRAIGHT_SHORT, STRAIGHT_STANDARD};
use super::{HandType, HiRating};
use crate::cards::CardSet;
use crate::games::HiRules;

/// The best hi hand in `cards` under `rules`.
#[inline]
pub fn rate_hi(cards: CardSet, rules: HiRules) -> HiRating {
    super::rank_tables::hi_table(rules).rate(cards)
}

/// The best standard hi hand (hold'em, stud, Omaha boards).
#[inline]
pub fn rate_hi_standard(cards: CardSet) -> HiRating {
    super::rank_tables::STANDARD.rate(cards)
}

/// [`rate_hi`] of exactly seven cards, a little faster (no count to check).
#[inline]
pub fn rate_hi_seven(cards: CardSet, rules: HiRules) -> HiRating {
    super::rank_tables::hi_table(rules).rate_seven(cards)
}

/// [`rate_hi`] by bit arithmetic, without tables.
pub fn rate_hi_bits(cards: CardSet, rules: HiRules) -> HiRating {
    match rules {
        HiRules::Standard => rate::<0>(cards),
        HiRules::ShortDeck => rate::<1>(cards),
        HiRules::Triton => rate::<2>(cards),
    }
}

const fn rules_of(r: u8) -> HiRules {
    match r {
        0 => HiRules::Standard,
        1 => HiRules::ShortDeck,
        _ => HiRules::Triton,
    }
}

#[inline]
fn rate<const R: u8>(cards: CardSet) -> HiRating {
    let rules = rules_of(R);
    let straights: &[u8; 8192] = if R == 0 { &STRAIGHT_STANDARD } else { &STRAIGHT_SHORT };
    let b = cards.bits();
    let c = (b & 0x1FFF) as u32;
    let d = ((b >> 16) & 0x1FFF) as u32;
    let h = ((b >> 32) & 0x1FFF) as u32;
    let s = ((b >> 48) & 0x1FFF) as u32;

    // With at most seven cards a flush excludes quads and full houses, so it settles the hand.
    for lane in [c, d, h, s] {
        if lane.count_ones() >= 5 {
            let sf = straights[lane as usize];
            return if sf != 0 {
                HiRating::make(rules, HandType::StraightFlush, sf as u32)
            } else {
                HiRating::make(rules, HandType::Flush, keep_top(lane, 5))
            };
        }
    }

    let r1 = c | d | h | s;
    let r2 = (c & d) | (h & s) | ((c | d) & (h | s));
    let r3 = (c & d & (h | s)) | (h & s & (c | d));
    let r4 = c & d & h & s;

    if r4 != 0 {
        let q = top_bit(r4);
        let rest = r1 & !(1 << q);
        let kicker = if rest == 0 { 0 } else { top_bit(rest) + 1 };
        return HiRating::make(rules, HandType::Quads, (q << 4) | kicker);
    }
    if r3 != 0 {
        let t = top_bit(r3);
        let pairs = r2 & !(1 << t);
        if pairs != 0 {
            return HiRating::make(rules, HandType::FullHouse, (t << 4) | top_bit(pairs));
        }
    }
    let straight = straights[r1 as usize];
    let trips = if r3 != 0 {
        let t = top_bit(r3);
        Some(HiRating::make(rules, HandType::Trips, (t << 13) | keep_top(r1 & !(1 << t), 2)))
    } else {
        None
    };
    if straight != 0 {
        let st = HiRating::make(rules, HandType::Straight, straight as u32);
        // Triton ranks trips above a straight; elsewhere the straight wins.
        return match trips {
            Some(t) if t > st => t,
            _ => st,
        };
    }
    if let Some(t) = trips {
        return t;
    }
    if r2 != 0 {
        let p1 = top_bit(r2);
        let below = r2 & !(1 << p1);
        if below != 0 {
            let p2 = top_bit(below);
            let kicker = keep_top(r1 & !((1 << p1) | (1 << p2)), 1);
            return HiRating::make(rules, HandType::TwoPair, (p1 << 17) | (p2 << 13) | kicker);
        }
        return HiRating::make(rules, HandType::Pair, (p1 << 13) | keep_top(r1 & !(1 << p1), 3));
    }
    HiRating::make(rules, HandType::HighCard, keep_top(r1, 5))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;

    fn hi(s: &str) -> HiRating {
        rate_hi_standard(parse_cards(s).unwrap())
    }

    #[test]
    fn categories_of_known_hands() {
        assert_eq!(hi("AsKsQsJsTs9d2c").hand_type(), HandType::StraightFlush);
        assert_eq!(hi("AsAhAdAcKs").hand_type(), HandType::Quads);
        assert_eq!(hi("AsAhAdKcKs2d").hand_type(), HandType::FullHouse);
        assert_eq!(hi("AsAhAdKcKsKd2c").hand_type(), HandType::FullHouse);
        assert_eq!(hi("As9s7s3s2sAh").hand_type(), HandType::Flush);
        assert_eq!(hi("As2d3c4h5s").hand_type(), HandType::Straight);
        assert_eq!(hi("7s7d7c2h5s").hand_type(), HandType::Trips);
        assert_eq!(hi("7s7d2c2h5s").hand_type(), HandType::TwoPair);
        assert_eq!(hi("7s7d3c2h5s").hand_type(), HandType::Pair);
        assert_eq!(hi("7s9d3c2h5s").hand_type(), HandType::HighCard);
    }

    #[test]
    fn ordering_within_categories() {
        assert!(hi("As2d3c4h5s") < hi("2d3c4h5s6s"));
        assert!(hi("AsAdKcKhQs") > hi("AsAdKcKhJs"));
        assert!(hi("AsAdKcKhQs2d3d") == hi("AsAdKcKhQs"));
        assert!(hi("KsKdKcAhAs") < hi("AsAdAcKhKs"));
        assert!(hi("AsAd9c8h7s") > hi("AsAd9c8h6s"));
    }

    #[test]
    fn short_deck_orders() {
        let sd = |s: &str| rate_hi(parse_cards(s).unwrap(), HiRules::ShortDeck);
        let tr = |s: &str| rate_hi(parse_cards(s).unwrap(), HiRules::Triton);
        assert_eq!(sd("As6d7c8h9s").hand_type(), HandType::Straight);
        assert!(sd("As6d7c8h9s") < sd("6d7c8h9sTs"));
        assert!(sd("As9s7s8sJs") > sd("AsAdAcKhKs"));
        assert!(sd("6d7c8h9sTs") > sd("AsAdAcKhQs"));
        assert!(tr("6d7c8h9sTs") < tr("AsAdAcKhQs"));
        // Trips and a straight in one hand: Triton reports the trips.
        assert_eq!(tr("8s8d8c9hTsJs7d").hand_type(), HandType::Trips);
        assert_eq!(sd("8s8d8c9hTsJs7d").hand_type(), HandType::Straight);
    }
}
