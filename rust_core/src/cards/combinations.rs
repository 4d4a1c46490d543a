//! Choices of cards: visiting every `k`-card combination, and counting them.

use super::{Card, CardSet};

/// Visits `base` plus every `k`-card combination of `cards`.
pub fn for_each_combination(cards: &[Card], k: usize, base: CardSet, f: &mut impl FnMut(CardSet)) {
    fn go(cards: &[Card], start: usize, k: usize, acc: CardSet, f: &mut impl FnMut(CardSet)) {
        if k == 0 {
            f(acc);
            return;
        }
        if cards.len() < k {
            return;
        }
        for i in start..=cards.len() - k {
            go(cards, i + 1, k - 1, acc.with(cards[i]), f);
        }
    }
    go(cards, 0, k, base, f);
}

/// The number of ways to choose `k` of `n` items, as a float (it is multiplied into counts of
/// whole deals and compared with work budgets).
pub fn binomial(n: usize, k: usize) -> f64 {
    if k > n {
        return 0.0;
    }
    let k = k.min(n - k);
    (0..k).fold(1.0, |acc, i| acc * (n - i) as f64 / (i + 1) as f64)
}
