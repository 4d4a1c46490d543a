//! Ranges as the range parser reads them are sampled uniformly over legal deals (or by weight):
//! chi-square tests on deals drawn from compiled statements, against expectations counted from
//! the parsed ranges themselves. Blocked cards, weights, stud ranges with open positions, a board
//! pattern drawn by rejection and a dead-card pattern.

mod common;

use common::frequencies;
use pql_core::cards::{Card, CardSet};
use pql_core::deal::source::DealSpec;
use pql_core::deal::Deal;
use pql_core::games::Game;
use pql_core::plan::compile::compile_program;
use pql_core::range::{parse_range, Syntax};
use std::collections::HashMap;
use std::hash::Hash;

fn spec(query: &str) -> DealSpec {
    let statements = compile_program(query).unwrap_or_else(|e| panic!("{query}: {e:?}"));
    statements[0].plan.spec.clone()
}

/// Pearson's statistic against expected weights (normalised here); passes within ~5 standard
/// deviations of its mean (df), so a correct sampler fails with negligible probability.
fn assert_chi_square<K: Hash + Eq + std::fmt::Debug>(counts: &HashMap<K, f64>, weights: &HashMap<K, f64>) {
    let n: f64 = counts.values().sum();
    let total: f64 = weights.values().sum();
    for k in counts.keys() {
        assert!(weights.contains_key(k), "outcome {k:?} is not a legal deal");
    }
    let chi: f64 = weights
        .iter()
        .map(|(k, w)| {
            let e = n * w / total;
            (counts.get(k).copied().unwrap_or(0.0) - e).powi(2) / e
        })
        .sum();
    let df = (weights.len() - 1) as f64;
    assert!(chi < df + 5.0 * (2.0 * df).sqrt(), "chi-square {chi:.1} with {df} degrees of freedom");
}

fn flop_hands(text: &str, game: Game, syntax: Syntax) -> Vec<(CardSet, f64)> {
    let r = parse_range(text, game, syntax).unwrap();
    r.flop_combos().iter().zip(r.weights()).map(|(&h, &w)| (h, f64::from(w))).collect()
}

/// Every pair of hands of two flop-game ranges that share no card, weights multiplied.
fn legal_pairs(a: &[(CardSet, f64)], b: &[(CardSet, f64)]) -> HashMap<(u64, u64), f64> {
    let mut out = HashMap::new();
    for &(x, wx) in a {
        for &(y, wy) in b.iter().filter(|(y, _)| !y.overlaps(x)) {
            out.insert((x.bits(), y.bits()), wx * wy);
        }
    }
    out
}

#[test]
fn classic_holdem_ranges_with_blocked_cards() {
    let (p1, p2) = ("AK, QQ", "AsKs, KK, QcJc");
    let expected =
        legal_pairs(&flop_hands(p1, Game::Holdem, Syntax::Classic), &flop_hands(p2, Game::Holdem, Syntax::Classic));
    // AK against KK and AsKs, QQ against QcJc: blocked pairs make the combinations uneven.
    assert!(expected.len() < 22 * 8);
    let s = spec(&format!("select count(winsHi(p1)) from game='holdem', p1='{p1}', p2='{p2}'"));
    let counts = frequencies(&s, 300_000, 1, |d| (d.hole[0].bits(), d.hole[1].bits()));
    assert_chi_square(&counts, &expected);
}

#[test]
fn weighted_generic_omaha_ranges() {
    let (p1, p2) = ("AAKK@3, AAQQ@1", "KKQQ@2, AsKsQsJs@5");
    let a = flop_hands(p1, Game::OmahaHi, Syntax::Generic);
    let b = flop_hands(p2, Game::OmahaHi, Syntax::Generic);
    let expected = legal_pairs(&a, &b);
    let s = spec(&format!("select count(winsHi(p1)) from game='omahahi', syntax='generic', p1='{p1}', p2='{p2}'"));
    let counts = frequencies(&s, 400_000, 2, |d| (d.hole[0].bits(), d.hole[1].bits()));
    assert_chi_square(&counts, &expected);
}

/// A stud hand's two down cards as an unordered pair.
fn downs(d: &Deal, p: usize) -> u64 {
    CardSet::from_cards([d.stud[p][0], d.stud[p][1]]).bits()
}

#[test]
fn stud_ranges_with_open_down_cards_and_blocked_cards() {
    // p1: an ace among the down cards (the other any card); p2: AK or KK down. Every legal pair
    // of down pairs is one class of deals, all of the same size (the rest is dealt at random).
    let p1: Vec<u64> = parse_range("A", Game::StudHi, Syntax::Classic)
        .unwrap()
        .stud_hands()
        .iter()
        .map(|h| CardSet::from_cards([h[0].unwrap(), h[1].unwrap()]).bits())
        .collect();
    assert_eq!(p1.len(), 198);
    let p2: Vec<u64> = parse_range("AK, KK", Game::StudHi, Syntax::Classic)
        .unwrap()
        .stud_hands()
        .iter()
        .map(|h| CardSet::from_cards([h[0].unwrap(), h[1].unwrap()]).bits())
        .collect();
    let mut expected = HashMap::new();
    for &a in &p1 {
        for &b in p2.iter().filter(|&&b| a & b == 0) {
            expected.insert((a, b), 1.0);
        }
    }
    let s = spec("select count(winsHi(p1)) from game='studhi', p1='A', p2='AK, KK'");
    let counts = frequencies(&s, 500_000, 3, |d| (downs(d, 0), downs(d, 1)));
    assert_chi_square(&counts, &expected);
}

#[test]
fn stud_range_with_an_open_down_pair_and_a_fixed_up_card() {
    // p1 shows a king on third street, its down cards open; p2 holds KsKh down. Outcome: p1's up
    // king and how many aces p1 has down (0, 1, 2), counted over the 49 cards left.
    let s = spec("select count(winsHi(p1)) from game='studhi', p1='**K', p2='KsKh'");
    let counts = frequencies(&s, 300_000, 4, |d| {
        let aces = [d.stud[0][0], d.stud[0][1]].iter().filter(|c| c.rank() == 12).count();
        (d.stud[0][2].index(), aces)
    });
    let choose = |n: f64, k: u32| match k {
        0 => 1.0,
        1 => n,
        _ => n * (n - 1.0) / 2.0,
    };
    let mut expected = HashMap::new();
    for up in ["Kd", "Kc"] {
        let card = pql_core::cards::parse_card(up).unwrap();
        // 52 - KsKh - the up king = 49 cards, 4 of them aces.
        for aces in 0..3u32 {
            expected.insert((card.index(), aces as usize), choose(4.0, aces) * choose(45.0, 2 - aces));
        }
    }
    assert_chi_square(&counts, &expected);
}

#[test]
fn a_board_pattern_drawn_by_rejection() {
    // Too many boards to list: drawn at random and kept when they match. Outcome: how many flop
    // cards are 2..9 and the turn's rank, counted over every flop and turn left after AsAh.
    let s = spec("select count(winsHi(p1)) from game='holdem', p1='AsAh', board='[2-9]****'");
    let low = |c: &Card| c.rank() <= 7;
    let counts = frequencies(&s, 300_000, 5, |d| (d.board[..3].iter().filter(|c| low(c)).count(), d.board[3].rank()));
    let left: Vec<Card> =
        Game::Holdem.deck().cards().minus(pql_core::cards::parse_cards("AsAh").unwrap()).iter().collect();
    let mut expected = HashMap::new();
    for i in 0..left.len() {
        for j in i + 1..left.len() {
            for k in j + 1..left.len() {
                let flop = [left[i], left[j], left[k]];
                let n = flop.iter().filter(|c| low(c)).count();
                if n == 0 {
                    continue;
                }
                for turn in left.iter().filter(|c| !flop.contains(c)) {
                    *expected.entry((n, turn.rank())).or_insert(0.0) += 1.0;
                }
            }
        }
    }
    assert_chi_square(&counts, &expected);
}

#[test]
fn a_dead_card_pattern_blocked_by_a_hand() {
    // One king dead, never the one p1 holds: Kh, Kd, Kc equally often.
    let s = spec("select count(winsHi(p1)) from game='holdem', p1='KsAh', dead='K'");
    let counts = frequencies(&s, 60_000, 6, |d| d.dead.bits());
    let expected: HashMap<u64, f64> =
        ["Kh", "Kd", "Kc"].iter().map(|k| (pql_core::cards::parse_cards(k).unwrap().bits(), 1.0)).collect();
    assert_chi_square(&counts, &expected);
}
