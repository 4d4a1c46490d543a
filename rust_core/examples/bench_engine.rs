//! Engine speed: exact and Monte Carlo equity runs, medians of several repeats.
//! `cargo run --release -p pql_core --example bench_engine` (`BENCH_ONLY=text`: only the rows whose
//! label contains `text`, e.g. under a profiler)

use pql_core::cards::{parse_cards, CardSet};
use pql_core::deal::source::{BoardSource, DealSpec, HandSource, SlotHand, WeightedList};
use pql_core::games::Game;
use pql_core::plan::expr::{Builtin, Expr};
use pql_core::plan::{Plan, Selector, SelectorKind};
use pql_core::run::runner::{start, RunOptions};
use std::sync::Arc;
use std::time::Instant;

fn fixed(h: &str) -> HandSource {
    HandSource::Range(WeightedList::uniform(vec![SlotHand::from_set(parse_cards(h).expect("cards"))]))
}

/// A stud hand whose first cards are given, the rest dealt.
fn stud(h: &str) -> HandSource {
    let cards: Vec<Option<pql_core::cards::Card>> = parse_cards(h).expect("cards").iter().map(Some).collect();
    let mut positions = cards.clone();
    positions.resize(7, None);
    HandSource::Range(WeightedList::uniform(vec![SlotHand::from_positions(&positions)]))
}

fn equity_plan(game: Game, players: Vec<HandSource>) -> Arc<Plan> {
    let n = players.len();
    Arc::new(Plan {
        query: "bench".into(),
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
    })
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

fn time(label: &str, plan: &Arc<Plan>, opts: &RunOptions, repeats: usize) {
    if std::env::var("BENCH_ONLY").is_ok_and(|only| !label.contains(&only)) {
        return;
    }
    let mut secs = Vec::new();
    let mut trials = 0;
    let mut value = 0.0;
    for _ in 0..repeats {
        let t = Instant::now();
        let p = start(plan, opts).wait();
        secs.push(t.elapsed().as_secs_f64());
        trials = p.accepted;
        value = p.aggregates[0].estimate().map_or(f64::NAN, |e| e.0);
    }
    let m = median(secs);
    println!(
        "{label:<44} {:>9.1} ms  {trials:>9} trials  {:>7.2} M trials/s  (p0 {value:.5})",
        m * 1e3,
        trials as f64 / m / 1e6
    );
}

fn main() {
    let one = RunOptions { threads: 1, ..RunOptions::default() };
    let all = RunOptions::default();
    let exact = |o: &RunOptions| RunOptions { exact: Some(true), ..o.clone() };
    let mc = |o: &RunOptions| RunOptions { exact: Some(false), seed: Some(1), ..o.clone() };
    let aa_kk = equity_plan(Game::Holdem, vec![fixed("AsAh"), fixed("KsKd")]);
    // `PROFILE_EXACT=1` / `PROFILE_MC=1`: one single-threaded run, for a profiler.
    if std::env::var_os("PROFILE_MC").is_some() {
        time("MC 600k AsAh vs KsKd, 1 thread", &aa_kk, &mc(&one), 15);
        return;
    }
    if std::env::var_os("PROFILE_EXACT").is_some() {
        time("exact AsAh vs KsKd, 1 thread", &aa_kk, &exact(&one), 9);
        return;
    }
    time("exact AsAh vs KsKd, all threads", &aa_kk, &exact(&all), 7);
    time("exact AsAh vs KsKd, 1 thread", &aa_kk, &exact(&one), 5);
    time("MC 600k AsAh vs KsKd, all threads", &aa_kk, &mc(&all), 7);
    time("MC 600k AsAh vs KsKd, 1 thread", &aa_kk, &mc(&one), 5);
    let aa_rand = equity_plan(Game::Holdem, vec![fixed("AsAh"), HandSource::Random]);
    time("MC 600k AsAh vs random, 1 thread", &aa_rand, &mc(&one), 5);
    let plo = equity_plan(Game::OmahaHi, vec![fixed("AsAhKsKh"), fixed("QdJdTc9c")]);
    time("MC 600k PLO AAKK vs QJT9, 1 thread", &plo, &mc(&one), 5);
    let o8 = equity_plan(Game::Omaha8, vec![fixed("As2h3sKh"), fixed("QdJdTc9c")]);
    time("MC 600k O8 A23K vs QJT9, 1 thread", &o8, &mc(&one), 5);
    let stud_given = equity_plan(Game::StudHi, vec![stud("AsAdKs"), stud("QhQcJh")]);
    time("MC 600k stud AsAdKs vs QhQcJh, 1 thread", &stud_given, &mc(&one), 5);
    let razz_given = equity_plan(Game::Razz, vec![stud("As2d3c"), stud("4h5h6s")]);
    time("MC 600k razz As2d3c vs 4h5h6s, 1 thread", &razz_given, &mc(&one), 5);
    let stud = equity_plan(Game::StudHi, vec![HandSource::Random, HandSource::Random]);
    time("MC 600k stud random vs random, 1 thread", &stud, &mc(&one), 5);
    let razz = equity_plan(Game::Razz, vec![HandSource::Random, HandSource::Random]);
    time("MC 600k razz random vs random, 1 thread", &razz, &mc(&one), 5);
}
