//! Exact counts over every hand of a deck: the evaluators must reproduce the known frequencies.

use pql_core::cards::{Card, CardSet, Deck};
use pql_core::eval::{
    five_card_hand_number, rate_hi, rate_hi_bits, rate_hi_standard, rate_lo8, rate_razz, HandType, DISTINCT_FIVE,
};
use pql_core::games::HiRules;
use std::collections::HashSet;

fn deck(d: Deck) -> Vec<Card> {
    d.cards().to_vec()
}

/// Calls `f` with every `k`-card subset of `cards`.
fn for_each_subset(cards: &[Card], k: usize, f: &mut impl FnMut(CardSet)) {
    fn go(cards: &[Card], start: usize, k: usize, acc: CardSet, f: &mut impl FnMut(CardSet)) {
        if k == 0 {
            f(acc);
            return;
        }
        for i in start..=cards.len() - k {
            go(cards, i + 1, k - 1, acc.with(cards[i]), f);
        }
    }
    go(cards, 0, k, CardSet::EMPTY, f);
}

fn category_counts(cards: &[Card], k: usize, rules: HiRules) -> [u64; 9] {
    let mut counts = [0u64; 9];
    for_each_subset(cards, k, &mut |h| {
        counts[rate_hi(h, rules).hand_type() as usize] += 1;
    });
    counts
}

#[test]
fn five_card_categories_and_distinct_values() {
    let d = deck(Deck::Standard);
    assert_eq!(
        category_counts(&d, 5, HiRules::Standard),
        [1_302_540, 1_098_240, 123_552, 54_912, 10_200, 5_108, 3_744, 624, 40]
    );
    let mut distinct = HashSet::new();
    for_each_subset(&d, 5, &mut |h| {
        distinct.insert(rate_hi_standard(h));
    });
    assert_eq!(distinct.len(), DISTINCT_FIVE);
    let mut numbers: Vec<u32> = distinct.iter().map(|&r| five_card_hand_number(r)).collect();
    numbers.sort_unstable();
    assert_eq!(numbers, (1..=7462).collect::<Vec<u32>>());
}

#[test]
fn seven_card_categories() {
    // 133,784,560 hands, enumerated with nested loops so the sweep stays fast.
    let d = deck(Deck::Standard);
    let mut counts = [0u64; 9];
    let n = d.len();
    for a in 0..n {
        let s1 = d[a].bit();
        for b in a + 1..n {
            let s2 = s1 | d[b].bit();
            for c in b + 1..n {
                let s3 = s2 | d[c].bit();
                for e in c + 1..n {
                    let s4 = s3 | d[e].bit();
                    for f in e + 1..n {
                        let s5 = s4 | d[f].bit();
                        for g in f + 1..n {
                            let s6 = s5 | d[g].bit();
                            for h in g + 1..n {
                                counts[rate_hi_standard(CardSet(s6 | d[h].bit())).hand_type() as usize] += 1;
                            }
                        }
                    }
                }
            }
        }
    }
    assert_eq!(counts.iter().sum::<u64>(), 133_784_560);
    assert_eq!(
        counts,
        [23_294_460, 58_627_800, 31_433_400, 6_461_620, 6_180_020, 4_047_644, 3_473_184, 224_848, 41_584]
    );
}

#[test]
fn tables_equal_bit_arithmetic_on_every_seven_card_hand() {
    // The table evaluator is built from the bit-arithmetic one; both must agree on all
    // 133,784,560 hands (and on every six-card hand of a short deck under both orderings).
    let d = deck(Deck::Standard);
    let n = d.len();
    let mut mismatches = 0u64;
    for a in 0..n {
        for b in a + 1..n {
            let s2 = d[a].bit() | d[b].bit();
            for c in b + 1..n {
                for e in c + 1..n {
                    let s4 = s2 | d[c].bit() | d[e].bit();
                    for f in e + 1..n {
                        for g in f + 1..n {
                            let s6 = s4 | d[f].bit() | d[g].bit();
                            for last in &d[g + 1..] {
                                let hand = CardSet(s6 | last.bit());
                                mismatches +=
                                    u64::from(rate_hi_standard(hand) != rate_hi_bits(hand, HiRules::Standard));
                            }
                        }
                    }
                }
            }
        }
    }
    assert_eq!(mismatches, 0);
    let sd = deck(Deck::Short);
    for rules in [HiRules::ShortDeck, HiRules::Triton] {
        for k in [5, 6] {
            for_each_subset(&sd, k, &mut |h| assert_eq!(rate_hi(h, rules), rate_hi_bits(h, rules), "{h} {rules:?}"));
        }
    }
}

#[test]
fn short_deck_categories_in_both_orderings() {
    let d = deck(Deck::Short);
    let expected = [122_400, 193_536, 36_288, 16_128, 6_120, 480, 1_728, 288, 24];
    for rules in [HiRules::ShortDeck, HiRules::Triton] {
        assert_eq!(category_counts(&d, 5, rules), expected, "{rules:?}");
    }
    // The category order decides which beats which: the best flush beats the best full house
    // in both, the best straight beats the best trips only in the ordinary short deck.
    let best_of = |rules, t: HandType| {
        let mut best = None;
        for_each_subset(&d, 5, &mut |h| {
            let r = rate_hi(h, rules);
            if r.hand_type() == t {
                best = best.max(Some(r));
            }
        });
        best.unwrap()
    };
    let worst_of = |rules, t: HandType| {
        let mut worst = None;
        for_each_subset(&d, 5, &mut |h| {
            let r = rate_hi(h, rules);
            if r.hand_type() == t && worst.is_none_or(|w| r < w) {
                worst = Some(r);
            }
        });
        worst.unwrap()
    };
    for rules in [HiRules::ShortDeck, HiRules::Triton] {
        assert!(worst_of(rules, HandType::Flush) > best_of(rules, HandType::FullHouse));
    }
    assert!(worst_of(HiRules::ShortDeck, HandType::Straight) > best_of(HiRules::ShortDeck, HandType::Trips));
    assert!(worst_of(HiRules::Triton, HandType::Trips) > best_of(HiRules::Triton, HandType::Straight));
}

#[test]
fn distinct_lows() {
    let d = deck(Deck::Standard);
    let mut lo8 = HashSet::new();
    let mut razz = HashSet::new();
    let mut qualifying = 0u64;
    for_each_subset(&d, 5, &mut |h| {
        if let Some(r) = rate_lo8(h) {
            lo8.insert(r);
            qualifying += 1;
        }
        razz.insert(rate_razz(h));
    });
    assert_eq!(lo8.len(), 56);
    // 56 rank sets, each with 4^5 suitings.
    assert_eq!(qualifying, 56 * 1024);
    // Razz ignores suits and straights: one value per multiset of five ranks.
    assert_eq!(razz.len(), 6_175);
}
