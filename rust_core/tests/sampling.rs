//! The Monte Carlo sampler is uniform over legal deals: every compatible combination of hands
//! (and board) is equally likely, or proportional to its weights, with collisions rejecting
//! the whole deal. Checked with chi-square tests at fixed seeds.

mod common;

use common::frequencies;
use pql_core::cards::{parse_cards, CardSet};
use pql_core::deal::source::{BoardSource, DealSpec, HandSource, SlotHand, WeightedList, OPEN};
use pql_core::games::Game;
use std::collections::HashMap;

fn hands(texts: &[&str]) -> Vec<SlotHand> {
    texts.iter().map(|t| SlotHand::from_set(parse_cards(t).unwrap())).collect()
}

/// Pearson's statistic against expected probabilities; passes when within ~5 standard
/// deviations of its mean (df), so a correct sampler fails with negligible probability.
fn assert_chi_square<K: std::hash::Hash + Eq + std::fmt::Debug>(counts: &HashMap<K, f64>, expected: &HashMap<K, f64>) {
    let n: f64 = counts.values().sum();
    for k in counts.keys() {
        assert!(expected.contains_key(k), "outcome {k:?} is not a legal deal");
    }
    let chi: f64 =
        expected.iter().map(|(k, p)| (counts.get(k).copied().unwrap_or(0.0) - n * p).powi(2) / (n * p)).sum();
    let df = (expected.len() - 1) as f64;
    assert!(chi < df + 5.0 * (2.0 * df).sqrt(), "chi-square {chi:.1} with {df} degrees of freedom");
}

#[test]
fn overlapping_ranges_are_uniform_over_compatible_pairs() {
    let p1 = ["AsAh", "AsKs", "KdKc", "QhQd"];
    let p2 = ["AsKd", "KsKh", "QcQs", "AhAd"];
    let spec = DealSpec::new(
        Game::Holdem,
        vec![
            HandSource::Range(WeightedList::uniform(hands(&p1))),
            HandSource::Range(WeightedList::uniform(hands(&p2))),
        ],
        BoardSource::Random,
        CardSet::EMPTY,
    );
    let legal: Vec<(u64, u64)> = p1
        .iter()
        .flat_map(|a| p2.iter().map(move |b| (parse_cards(a).unwrap(), parse_cards(b).unwrap())))
        .filter(|(a, b)| !a.overlaps(*b))
        .map(|(a, b)| (a.0, b.0))
        .collect();
    assert!(legal.len() < 16, "the test needs blocked combinations");
    let expected = legal.iter().map(|&k| (k, 1.0 / legal.len() as f64)).collect();
    let counts = frequencies(&spec, 200_000, 7, |d| (d.hole[0].0, d.hole[1].0));
    assert_chi_square(&counts, &expected);
}

#[test]
fn weights_multiply_across_players() {
    let p1 = ["AsAh", "KdKc"];
    let p2 = ["AsKd", "QcQs"];
    let spec = DealSpec::new(
        Game::Holdem,
        vec![
            HandSource::Range(WeightedList::weighted(hands(&p1), vec![2, 1])),
            HandSource::Range(WeightedList::weighted(hands(&p2), vec![1, 3])),
        ],
        BoardSource::Random,
        CardSet::EMPTY,
    );
    // AsAh+AsKd and KdKc+AsKd collide; the legal pairs weigh 2*3 and 1*3.
    let key = |a: &str, b: &str| (parse_cards(a).unwrap().0, parse_cards(b).unwrap().0);
    let expected = HashMap::from([(key("AsAh", "QcQs"), 6.0 / 9.0), (key("KdKc", "QcQs"), 3.0 / 9.0)]);
    let counts = frequencies(&spec, 100_000, 7, |d| (d.hole[0].0, d.hole[1].0));
    assert_chi_square(&counts, &expected);
}

#[test]
fn random_hands_avoid_fixed_cards_and_cover_the_rest_uniformly() {
    // A random opponent's first card, given a fixed hand and a fixed flop: uniform over the
    // 47 cards left (its hand as a whole is uniform over pairs of them).
    let flop = parse_cards("2c7dJh").unwrap();
    let mut board = [OPEN; 5];
    for (slot, c) in board.iter_mut().zip(flop.iter()) {
        *slot = c.index();
    }
    let spec = DealSpec::new(
        Game::Holdem,
        vec![HandSource::Range(WeightedList::uniform(hands(&["AsAh"]))), HandSource::Random],
        BoardSource::Boards(WeightedList::uniform(vec![board])),
        CardSet::EMPTY,
    );
    let counts = frequencies(&spec, 200_000, 7, |d| d.hole[1].0);
    let left: Vec<_> = Game::Holdem.deck().cards().minus(parse_cards("AsAh2c7dJh").unwrap()).iter().collect();
    assert_eq!(left.len(), 47);
    let mut expected = HashMap::new();
    for (i, a) in left.iter().enumerate() {
        for b in &left[i + 1..] {
            expected.insert(CardSet::from_cards([*a, *b]).0, 1.0 / 1081.0);
        }
    }
    assert_chi_square(&counts, &expected);
}

/// The deal spec of a statement's from clause.
fn spec_of(from: &str) -> DealSpec {
    let text = format!("select count(true) from {from}");
    pql_core::plan::compile::compile_program(&text).unwrap().remove(0).plan.spec
}

/// Three players who each need two aces can never be dealt: the counting argument says so at
/// once, where scanning 6,961 hands per node of the prefix search took seconds and sampling then
/// rejected two million deals before saying so.
#[test]
fn impossible_ranges_are_found_out_before_any_trial() {
    let three = spec_of("game='omahahi', a='AA**', b='AA**', c='AA**'");
    let t = std::time::Instant::now();
    assert_eq!(three.has_legal_deal(2_000_000), Some(false));
    // Listing the fixed parts stops at its work limit instead of scanning on.
    assert!(three.prefixes(200_000).is_none());
    assert!(t.elapsed() < std::time::Duration::from_secs(2), "{:?}", t.elapsed());
    let two = spec_of("game='omahahi', a='AA**', b='AA**'");
    assert_eq!(two.has_legal_deal(2_000_000), Some(true));
    // A card every hand of two ranges holds, and dead cards, count too.
    let as_twice = spec_of("game='omahahi', syntax='generic', a='As***', b='As***'");
    assert_eq!(as_twice.has_legal_deal(2_000_000), Some(false));
    let dead_aces = spec_of("game='omahahi', a='AA**', dead='AsAhAd'");
    assert_eq!(dead_aces.has_legal_deal(2_000_000), Some(false));
}

/// The search itself (not only the counting) proves a collision of fixed hands.
#[test]
fn colliding_fixed_hands_have_no_legal_deal() {
    let spec = DealSpec::new(
        Game::Holdem,
        vec![
            HandSource::Range(WeightedList::uniform(hands(&["AsAh", "KsKh"]))),
            HandSource::Range(WeightedList::uniform(hands(&["AsKh", "AhKs"]))),
        ],
        BoardSource::Random,
        CardSet::EMPTY,
    );
    assert_eq!(spec.has_legal_deal(1000), Some(false));
    let spec = DealSpec::new(
        Game::Holdem,
        vec![
            HandSource::Range(WeightedList::uniform(hands(&["AsAh", "KsKh"]))),
            HandSource::Range(WeightedList::uniform(hands(&["AsKh", "AhQs"]))),
        ],
        BoardSource::Random,
        CardSet::EMPTY,
    );
    assert_eq!(spec.has_legal_deal(1000), Some(true));
}
