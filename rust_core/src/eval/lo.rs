//! A-5 lowball: razz (best low of any shape) and the 8-or-better qualifying low.

use super::tables::{keep_low, top_bit};
use super::{LoRating, LoShape};
use crate::cards::CardSet;

/// Ace-low ranks A..8 (bits 0..7 of an ace-low mask).
pub const LO8_MASK: u32 = 0xFF;

/// A 13-bit hi rank mask (deuce = bit 0, ace = bit 12) as an ace-low mask (ace = bit 0).
#[inline]
pub(crate) const fn ace_low(mask: u32) -> u32 {
    ((mask << 1) | (mask >> 12)) & 0x1FFF
}

/// A card set's ranks as an ace-low mask (ace = bit 0 ... king = bit 12).
pub fn ace_low_mask(ranks: u16) -> u32 {
    ace_low(u32::from(ranks))
}

/// The four ace-low suit lanes of a card set.
#[inline]
fn lanes(cards: CardSet) -> [u32; 4] {
    let b = cards.bits();
    [0, 16, 32, 48].map(|sh| ace_low(((b >> sh) & 0x1FFF) as u32))
}

/// The best 8-or-better low in `cards` (five distinct ranks eight or lower), if any.
#[inline]
pub fn rate_lo8(cards: CardSet) -> Option<LoRating> {
    let lows = ace_low(cards.rank_mask() as u32) & LO8_MASK;
    (lows.count_ones() >= 5).then(|| LoRating::from_low_mask(keep_low(lows, 5)))
}

/// The best razz hand: five distinct low ranks when there are five, otherwise the least-paired
/// hand, lower pairs being better (straights and flushes do not count). Fewer than five cards
/// (early stud streets) are rated as they are.
pub fn rate_razz(cards: CardSet) -> LoRating {
    let [c, d, h, s] = lanes(cards);
    let r1 = c | d | h | s;
    let distinct = r1.count_ones();
    let used = cards.len().min(5);
    if distinct >= used {
        return LoRating::from_low_mask(keep_low(r1, used));
    }
    let r2 = (c & d) | (h & s) | ((c | d) & (h | s));
    let r3 = (c & d & (h | s)) | (h & s & (c | d));
    let low_bit = |m: u32| m.trailing_zeros();
    // Every distinct rank is used once; the missing cards repeat ranks, as cheaply as possible.
    match used - distinct {
        1 => {
            let p = low_bit(r2);
            LoRating::make(LoShape::Pair, (p << 13) | (r1 & !(1 << p)))
        }
        2 if r2.count_ones() >= 2 => {
            let two = keep_low(r2, 2);
            let (lo, hi) = (low_bit(two), top_bit(two));
            LoRating::make(LoShape::TwoPair, (hi << 17) | (lo << 13) | (r1 & !two))
        }
        2 => {
            let t = low_bit(r3);
            LoRating::make(LoShape::Trips, (t << 13) | (r1 & !(1 << t)))
        }
        3 if r3 != 0 && (r2 & !(1 << low_bit(r3))) != 0 => {
            let t = low_bit(r3);
            let p = low_bit(r2 & !(1 << t));
            LoRating::make(LoShape::FullHouse, (t << 4) | p)
        }
        _ => {
            let q = low_bit(c & d & h & s);
            let rest = r1 & !(1 << q);
            LoRating::make(LoShape::Quads, (q << 4) | if rest == 0 { 0 } else { low_bit(rest) })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;

    fn razz(s: &str) -> LoRating {
        rate_razz(parse_cards(s).unwrap())
    }

    #[test]
    fn razz_orders_lows() {
        assert_eq!(razz("As2d3c4h5sKsKd").describe(), "5-4-3-2-A");
        assert!(razz("As2d3c4h5s") > razz("As2d3c4h6s"));
        assert!(razz("8s6d4c3h2s") > razz("8s6d5c4h3s"));
        assert!(razz("Ks Qd Jc Th 9s") > razz("As Ad 2c 3h 4s"));
        assert!(razz("AsAd2c3h4s") > razz("2s2d3c4hAs").min(razz("AsAd2c3h5s")));
        assert_eq!(razz("AsAd2c2h3sKdKc").shape(), LoShape::Pair);
        assert_eq!(razz("AsAd2c2h3s3d2d").shape(), LoShape::TwoPair);
        assert_eq!(razz("AsAdAc2h2sKdKc").shape(), LoShape::TwoPair);
        assert_eq!(razz("AsAdAcAh2s2d2c").shape(), LoShape::FullHouse);
        assert_eq!(razz("AsAdAcAh2s").shape(), LoShape::Quads);
        assert_eq!(razz("2s3s4s").describe(), "4-3-2");
    }

    #[test]
    fn eight_or_better_qualifies() {
        let lo = |s: &str| rate_lo8(parse_cards(s).unwrap());
        assert_eq!(lo("As2d3c4h8sKsKd").unwrap().describe(), "8-4-3-2-A");
        assert!(lo("As2d3c4h9sKsKd").is_none());
        assert!(lo("AsAd3c4h8s8dKd").is_none());
        assert!(lo("As2d3c4h5s").unwrap() > lo("As2d3c4h6s").unwrap());
    }
}
