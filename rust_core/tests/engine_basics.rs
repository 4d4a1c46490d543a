//! The runner on hand-built plans: exact and Monte Carlo agree, shares sum to one.

use pql_core::cards::parse_cards;
use pql_core::cards::CardSet;
use pql_core::games::Game;
use pql_core::sim::expr::Expr;
use pql_core::sim::library::Builtin;
use pql_core::sim::plan::{Plan, Selector, SelectorKind};
use pql_core::sim::runner::{start, RunOptions};
use pql_core::sim::source::{BoardSource, DealSpec, HandSource, SlotHand, WeightedList};
use std::sync::Arc;

fn fixed(h: &str) -> HandSource {
    HandSource::Range(WeightedList::uniform(vec![SlotHand::from_set(parse_cards(h).unwrap())]))
}

fn equity_plan(game: Game, players: Vec<HandSource>) -> Plan {
    let n = players.len();
    Plan {
        query: "test".into(),
        spec: DealSpec::new(game, players, BoardSource::Random, CardSet::EMPTY),
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

#[test]
fn exact_aces_against_kings() {
    let plan = Arc::new(equity_plan(Game::Holdem, vec![fixed("AsAh"), fixed("KsKd")]));
    let t = std::time::Instant::now();
    let p = start(&plan, &RunOptions { exact: Some(true), ..RunOptions::default() }).wait();
    eprintln!("exact in {:?}", t.elapsed());
    assert!(p.error.is_none(), "{:?}", p.error);
    assert!(p.exact);
    assert_eq!(p.accepted, 1_712_304);
    let a = p.aggregates[0].estimate().unwrap().0;
    let b = p.aggregates[1].estimate().unwrap().0;
    assert!((a + b - 1.0).abs() < 1e-9);
    let mc = start(&plan, &RunOptions { exact: Some(false), seed: Some(3), ..RunOptions::default() }).wait();
    let (m, se) = mc.aggregates[0].estimate().unwrap();
    assert_eq!(mc.accepted, 600_000);
    assert!((m - a).abs() < 4.0 * se, "mc {m} ± {se} vs exact {a}");
}

/// Exact runs tally showdown-only statements by outcome; adding a selector that needs the
/// whole deal turns tallying off. Both paths must give the same equities, also with ties,
/// split lows and quartering (Omaha hi/lo, every board).
#[test]
fn outcome_tally_equals_deal_by_deal_evaluation() {
    let cases = [
        (Game::Omaha8, ["As2s3dKc", "Ah2h4dKd", "QcJcTc9h"]),
        // Frequent split pots: both big hands hold ace-king.
        (Game::Holdem, ["AsKd", "AhKc", "2c2d"]),
    ];
    for (game, hands) in cases {
        let tallied = equity_plan(game, hands.iter().map(|h| fixed(h)).collect());
        let mut per_deal = tallied.clone();
        per_deal.selectors.push(Selector {
            name: "hi".into(),
            kind: SelectorKind::Max,
            expr: Expr::Call(Box::new(Builtin::HiRating(0, pql_core::games::Street::River))),
        });
        assert!(tallied.tallies_by_outcome() && !per_deal.tallies_by_outcome());
        let exact = RunOptions { exact: Some(true), ..RunOptions::default() };
        let a = start(&Arc::new(tallied), &exact).wait();
        let b = start(&Arc::new(per_deal), &exact).wait();
        assert!(a.exact && b.exact);
        assert_eq!(a.accepted, b.accepted);
        for p in 0..3 {
            let (x, y) = (a.aggregates[p].estimate().unwrap().0, b.aggregates[p].estimate().unwrap().0);
            assert!((x - y).abs() < 1e-12, "{game:?} player {p}: {x} vs {y}");
        }
    }
}

#[test]
fn an_absurd_thread_count_is_capped_not_a_panic() {
    // usize::MAX threads used to overflow the capacity of the handle list.
    let plan = Arc::new(equity_plan(Game::Holdem, vec![fixed("AsAh"), fixed("KsKd")]));
    let opts =
        RunOptions { exact: Some(false), trials: 5_000, seed: Some(1), threads: usize::MAX, ..RunOptions::default() };
    let p = start(&plan, &opts).wait();
    assert!(p.error.is_none(), "{:?}", p.error);
    assert_eq!(p.accepted, 5_000);
}
