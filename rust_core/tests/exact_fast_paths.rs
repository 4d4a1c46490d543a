//! Exact equity's fast paths against the plain enumeration, on random inputs: prefixes
//! enumerated once per suit class (`deal::suit_classes`), hold'em boards counted by rank
//! multiset (`kernels::board_ranks`) and the given-hands tally. The plain path is the same plan
//! with one more selector that needs each whole deal, which turns all of them off: every prefix
//! enumerated on its own, a showdown per deal. Answers must agree to the last deal.

use pql_core::cards::{Card, CardSet};
use pql_core::deal::source::{BoardSource, DealSpec, HandSource, SlotHand, WeightedList, OPEN};
use pql_core::games::{Game, Street};
use pql_core::plan::expr::{Builtin, Expr};
use pql_core::plan::{Plan, Selector, SelectorKind};
use pql_core::rng::Rng;
use pql_core::run::runner::{start, RunOptions};
use std::sync::Arc;

/// A random hand of `size` cards from `deck`, none of them in `taken`.
fn hand(rng: &mut Rng, deck: &[Card], size: usize, taken: CardSet) -> CardSet {
    let mut h = CardSet::EMPTY;
    while (h.len() as usize) < size {
        let c = deck[rng.below(deck.len() as u64) as usize];
        if !taken.contains(c) {
            h.insert(c);
        }
    }
    h
}

/// A random range: either random hands, or a few hands with every renaming of their suits
/// (as `AKs` or `QQ` give), so that many prefixes share a suit class. Random whole weights.
fn range(rng: &mut Rng, deck: &[Card], size: usize, taken: CardSet, hands: usize) -> HandSource {
    let mut sets: Vec<CardSet> = Vec::new();
    if rng.below(2) == 0 {
        for _ in 0..hands {
            sets.push(hand(rng, deck, size, taken));
        }
    } else {
        let base = hand(rng, deck, size, CardSet::EMPTY);
        let maps = [[0u8, 1, 2, 3], [1, 0, 3, 2], [2, 3, 0, 1], [3, 2, 1, 0], [1, 2, 3, 0], [0, 2, 1, 3]];
        for map in maps.iter().take(hands.max(2)) {
            let renamed: CardSet = base.iter().map(|c| Card::new(c.rank(), map[usize::from(c.suit() & 3)])).collect();
            if !renamed.overlaps(taken) && deck.iter().filter(|c| renamed.contains(**c)).count() == size {
                sets.push(renamed);
            }
        }
        if sets.is_empty() {
            sets.push(hand(rng, deck, size, taken));
        }
    }
    sets.sort_by_key(|s| s.bits());
    sets.dedup();
    let weights = sets.iter().map(|_| 1 + rng.below(3) as u32).collect();
    HandSource::Range(WeightedList::weighted(sets.into_iter().map(SlotHand::from_set).collect(), weights))
}

fn equity_plan(spec: DealSpec) -> Plan {
    let n = spec.players.len();
    Plan {
        query: "test".into(),
        spec,
        filter: None,
        selectors: (0..n)
            .map(|p| Selector {
                name: format!("p{p}"),
                kind: SelectorKind::Avg,
                expr: Expr::Call(Box::new(Builtin::RiverEquity(p))),
            })
            .collect(),
        inner_cost: 1.0,
    }
}

/// The answers of both paths: deals enumerated, and each player's equity.
fn both_paths(spec: DealSpec) -> [(u64, Vec<f64>); 2] {
    let n = spec.players.len();
    let fast = equity_plan(spec);
    let mut plain = fast.clone();
    plain.selectors.push(Selector {
        name: "hi".into(),
        kind: SelectorKind::Max,
        expr: Expr::Call(Box::new(Builtin::HiRating(0, Street::River))),
    });
    assert!(fast.tallies_by_outcome() && !plain.tallies_by_outcome());
    let opts = RunOptions { exact: Some(true), threads: 2, ..RunOptions::default() };
    [fast, plain].map(|plan| {
        let p = start(&Arc::new(plan), &opts).wait();
        assert!(p.error.is_none(), "{:?}", p.error);
        assert!(p.exact && !p.truncated);
        (p.accepted, (0..n).map(|i| p.aggregates[i].estimate().unwrap().0).collect())
    })
}

#[test]
fn suit_classes_and_rank_counting_give_the_plain_enumerations_answers() {
    let mut rng = Rng::new(2026, 0);
    let games = [Game::Holdem, Game::ShortDeck, Game::ShortDeckTriton, Game::OmahaHi, Game::Omaha8];
    let mut checked = 0;
    for round in 0..60 {
        let game = games[round % games.len()];
        let omaha = matches!(game, Game::OmahaHi | Game::Omaha8);
        let players = if omaha { 2 + round % 2 } else { 2 + round % 5 };
        let deck: Vec<Card> = game.deck().cards().to_vec();
        // Board cards known: the river, the turn or the flop to come; preflop now and then for
        // two players (1.7 million boards a prefix by the plain path).
        let known_count = match round % 6 {
            0 if players == 2 && !omaha => 0,
            1 | 2 => 4,
            _ => 3,
        };
        let dead_count = rng.below(3) as usize;
        let dead = hand(&mut rng, &deck, dead_count, CardSet::EMPTY);
        let known = hand(&mut rng, &deck, known_count, dead);
        let taken = dead.union(known);
        let per_range = if known_count == 0 { 2 } else { 2 + round % 4 };
        let sources: Vec<HandSource> =
            (0..players).map(|_| range(&mut rng, &deck, if omaha { 4 } else { 2 }, taken, per_range)).collect();
        let mut board = [OPEN; 5];
        for (slot, c) in board.iter_mut().zip(known.iter()) {
            *slot = c.index();
        }
        let board = if known_count == 0 {
            BoardSource::Random
        } else {
            BoardSource::Boards(WeightedList::uniform(vec![board]))
        };
        let spec = DealSpec::new(game, sources, board, dead);
        // Ranges that leave no legal deal are refused alike by both paths; skip them.
        if spec.prefixes(1_000_000).is_none_or(|p| p.is_empty()) {
            continue;
        }
        let [(fast_deals, fast), (plain_deals, plain)] = both_paths(spec);
        assert_eq!(fast_deals, plain_deals, "round {round} {game:?}");
        for (p, (x, y)) in fast.iter().zip(&plain).enumerate() {
            assert!((x - y).abs() < 1e-12, "round {round} {game:?} player {p}: {x} vs {y}");
        }
        checked += 1;
    }
    assert!(checked >= 40, "only {checked} rounds had legal deals");
}
