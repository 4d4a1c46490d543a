//! Run-time values of PQL expressions.

use crate::cards::{rank_char, Card, CardSet};
use crate::eval::{HandType, HiRating, LoRating};
use crate::games::{HiRules, Street};
use crate::kernels::showdown::Fraction;
use std::cmp::Ordering;
use std::fmt;
use std::sync::Arc;

#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Bool(bool),
    Int(i64),
    Num(f64),
    Frac(Fraction),
    Card(Card),
    /// 0 = deuce ... 12 = ace.
    Rank(u8),
    /// 13-bit mask, deuce = bit 0.
    RankSet(u16),
    CardSet(CardSet),
    Str(Arc<str>),
    Street(Street),
    /// A hand type with its strength under the game's rules (short deck reorders types).
    HandType(HandType, u8),
    /// Index into the flop hand categories, ascending.
    FlopCat(u8),
    Hi(HiRating),
    /// `None`: no qualifying low (worse than every low).
    Lo(Option<LoRating>),
    Player(u8),
    /// No value: a `case` without `else` that no arm matched. Aggregates leave it out.
    Null,
}

impl Value {
    /// A hand type ordered by `rules`.
    pub fn hand_type(t: HandType, rules: HiRules) -> Value {
        Value::HandType(t, t.order(rules) as u8)
    }

    pub fn as_bool(&self) -> bool {
        match self {
            Value::Bool(b) => *b,
            Value::Int(i) => *i != 0,
            Value::Num(x) => *x != 0.0,
            _ => false,
        }
    }

    /// Numeric view (integers, doubles, fractions widen).
    pub fn as_f64(&self) -> f64 {
        match self {
            Value::Bool(b) => f64::from(u8::from(*b)),
            Value::Int(i) => *i as f64,
            Value::Num(x) => *x,
            Value::Frac(f) => f.to_f64(),
            Value::Rank(r) => f64::from(*r),
            _ => f64::NAN,
        }
    }

    /// A total order among values of one type (and numbers across int/double/fraction).
    pub fn compare(&self, other: &Value) -> Ordering {
        use Value as V;
        match (self, other) {
            (V::Bool(a), V::Bool(b)) => a.cmp(b),
            (V::Int(a), V::Int(b)) => a.cmp(b),
            (V::Frac(a), V::Frac(b)) => a.cmp(b),
            (V::Card(a), V::Card(b)) => (a.rank(), a.suit()).cmp(&(b.rank(), b.suit())),
            (V::Rank(a), V::Rank(b)) => a.cmp(b),
            (V::RankSet(a), V::RankSet(b)) => a.cmp(b),
            (V::CardSet(a), V::CardSet(b)) => a.cmp(b),
            (V::Str(a), V::Str(b)) => a.cmp(b),
            (V::Street(a), V::Street(b)) => a.cmp(b),
            (V::HandType(_, a), V::HandType(_, b)) => a.cmp(b),
            (V::FlopCat(a), V::FlopCat(b)) => a.cmp(b),
            (V::Hi(a), V::Hi(b)) => a.cmp(b),
            (V::Lo(a), V::Lo(b)) => a.cmp(b),
            (V::Player(a), V::Player(b)) => a.cmp(b),
            (a, b) => a.as_f64().total_cmp(&b.as_f64()),
        }
    }
}

/// Rank set as `AKQ` (high to low); the empty set reads `none` (a histogram label of `''`
/// would look like a missing value).
pub fn rank_set_text(mask: u16) -> String {
    if mask == 0 {
        return "none".to_string();
    }
    (0..13u8).rev().filter(|r| mask & (1 << r) != 0).map(rank_char).collect()
}

/// Card set as `Ks Kh 8s` (high rank first, spades before hearts, diamonds, clubs); the empty
/// set reads `none`.
pub fn card_set_text(set: CardSet) -> String {
    if set.is_empty() {
        return "none".to_string();
    }
    let mut cards: Vec<_> = set.iter().collect();
    cards.sort_by_key(|c| std::cmp::Reverse((c.rank(), c.suit())));
    cards.iter().map(ToString::to_string).collect::<Vec<_>>().join(" ")
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Bool(b) => write!(f, "{b}"),
            Value::Int(i) => write!(f, "{i}"),
            Value::Num(x) => write!(f, "{}", format_number(*x)),
            Value::Frac(x) => write!(f, "{x}"),
            Value::Card(c) => write!(f, "{c}"),
            Value::Rank(r) => write!(f, "{}", rank_char(*r)),
            Value::RankSet(m) => write!(f, "{}", rank_set_text(*m)),
            Value::CardSet(s) => f.write_str(&card_set_text(*s)),
            Value::Str(s) => f.write_str(s),
            Value::Street(s) => write!(f, "{s}"),
            Value::HandType(t, _) => write!(f, "{t}"),
            Value::FlopCat(c) => f.write_str(crate::eval::FlopHandCategory::from_index(*c).name()),
            Value::Hi(r) => write!(f, "{}", describe_hi(*r)),
            Value::Lo(Some(r)) => f.write_str(&r.describe()),
            Value::Lo(None) => f.write_str("no low"),
            Value::Player(p) => write!(f, "player {}", p + 1),
            Value::Null => f.write_str("null"),
        }
    }
}

/// `pair of aces`-style name for a hi rating: its category and the top rank involved.
pub fn describe_hi(r: HiRating) -> String {
    let payload = r.payload();
    let top = |x: u32| rank_char((x & 15) as u8);
    match r.hand_type() {
        HandType::HighCard | HandType::Flush => {
            format!("{} {}-high", r.hand_type(), rank_char((payload & 0x1FFF).ilog2() as u8))
        }
        HandType::Pair => format!("pair of {}", top(payload >> 13)),
        HandType::TwoPair => format!("twopair {}{}", top(payload >> 17), top(payload >> 13)),
        HandType::Trips => format!("trips {}", top(payload >> 13)),
        HandType::Straight | HandType::StraightFlush => {
            format!("{} {}-high", r.hand_type(), rank_char((payload.saturating_sub(1)) as u8))
        }
        HandType::FullHouse => format!("fullhouse {} over {}", top(payload >> 4), top(payload)),
        HandType::Quads => format!("quads {}", top(payload >> 4)),
    }
}

/// Numbers print without trailing zeros (`6`, `0.5`, `0.8521`).
pub fn format_number(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{x:.0}")
    } else {
        let s = format!("{x:.6}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fractions_reduce_and_order() {
        assert_eq!(Fraction::new(2, 8).to_string(), "1/4");
        assert_eq!(Fraction::new(3, 3).to_string(), "1");
        assert!(Fraction::new(1, 3) < Fraction::new(1, 2));
        assert_eq!(format_number(6.0), "6");
        assert_eq!(format_number(0.5), "0.5");
    }

    #[test]
    fn rank_sets_print_high_to_low_and_empty_as_none() {
        assert_eq!(Value::RankSet(0b1_0000_0000_0011).to_string(), "A32");
        assert_eq!(Value::RankSet(0).to_string(), "none");
    }
}
