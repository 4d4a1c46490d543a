//! Engine speed: exact and Monte Carlo equity runs, medians of several repeats.
//! `cargo run --release -p pql_core --example bench_engine` (`BENCH_ONLY=text`: only the rows whose
//! label contains `text`, e.g. under a profiler)

use pql_core::cards::{parse_cards, CardSet};
use pql_core::deal::source::{BoardSource, DealSpec, HandSource, SlotHand, WeightedList};
use pql_core::games::Game;
use pql_core::plan::compile::compile_program;
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

const WIDE: &str = "select avg(riverEquity(p1)) from game='holdem', p1='QQ+, AKs, AKo', p2='22+'";
const THREE_WAY: &str = "select avg(riverEquity(p1)) from game='holdem', p1='AhKh', p2='QQ', p3='JTs'";
const RANDOM: &str = "select avg(riverEquity(p1)) from game='holdem', p1='*', p2='*'";

/// The plan of a one-statement query.
fn query(text: &str) -> Arc<Plan> {
    let mut statements = compile_program(text).expect("a valid query");
    Arc::new(statements.remove(0).plan)
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

/// CPU time of the whole process so far, worker threads included (Linux `/proc/self/stat`, in
/// clock ticks of 10 ms: only long spans read well), `None` elsewhere.
fn process_cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command name (which may hold spaces) start with the state.
    let fields: Vec<&str> = text.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

fn time(label: &str, plan: &Arc<Plan>, opts: &RunOptions, repeats: usize) {
    if std::env::var("BENCH_ONLY").is_ok_and(|only| !label.contains(&only)) {
        return;
    }
    let mut secs = Vec::new();
    let mut trials = 0;
    let mut value = 0.0;
    // Untimed: tables made on first use; it also says how many repeats make half a second of
    // CPU time, enough for the coarse CPU clock.
    let t = Instant::now();
    start(plan, opts).wait();
    let repeats = repeats.max((0.5 / t.elapsed().as_secs_f64().max(1e-4)).ceil().min(200.0) as usize);
    let (cpu, wall) = (process_cpu_seconds(), Instant::now());
    for _ in 0..repeats {
        let t = Instant::now();
        let p = start(plan, opts).wait();
        secs.push(t.elapsed().as_secs_f64());
        trials = p.accepted;
        value = p.aggregates[0].estimate().map_or(f64::NAN, |e| e.0);
    }
    // The CPU time of all the repeats (coarse: ticks of 10 ms), per repeat.
    let cpu = match (cpu, process_cpu_seconds()) {
        (Some(a), Some(b)) if wall.elapsed().as_secs_f64() > 0.2 => {
            format!("{:>8.1} ms CPU", (b - a) * 1e3 / repeats as f64)
        }
        _ => "       - ms CPU".to_string(),
    };
    let m = median(secs);
    println!(
        "{label:<44} {:>9.1} ms  {cpu}  {trials:>10} trials  {:>8.2} M trials/s  (p0 {value:.5})",
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
    if std::env::var_os("PROFILE_MC_RANGES").is_some() {
        time("MC 600k QQ+,AKs,AKo vs 22+, 1 thread", &query(WIDE), &mc(&one), 30);
        return;
    }
    if std::env::var_os("PROFILE_RANGES").is_some() {
        time("exact QQ+,AKs,AKo vs 22+, 1 thread", &query(WIDE), &exact(&one), 5);
        return;
    }
    time("exact AsAh vs KsKd, all threads", &aa_kk, &exact(&all), 7);
    time("exact AsAh vs KsKd, 1 thread", &aa_kk, &exact(&one), 5);
    time("MC 600k AsAh vs KsKd, all threads", &aa_kk, &mc(&all), 7);
    time("MC 600k AsAh vs KsKd, 1 thread", &aa_kk, &mc(&one), 5);
    time("exact QQ+,AKs,AKo vs 22+, all threads", &query(WIDE), &exact(&all), 5);
    time("exact QQ+,AKs,AKo vs 22+, 1 thread", &query(WIDE), &exact(&one), 5);
    time("exact AhKh vs QQ vs JTs, 1 thread", &query(THREE_WAY), &exact(&one), 5);
    time("MC 600k QQ+,AKs,AKo vs 22+, 1 thread", &query(WIDE), &mc(&one), 5);
    time("MC 600k random vs random, 1 thread", &query(RANDOM), &mc(&one), 5);
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
