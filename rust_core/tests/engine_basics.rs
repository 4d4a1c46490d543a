//! The runner on hand-built plans: exact and Monte Carlo agree, shares sum to one.

use pql_core::cards::parse_cards;
use pql_core::cards::CardSet;
use pql_core::deal::source::{BoardSource, DealSpec, HandSource, SlotHand, WeightedList};
use pql_core::games::Game;
use pql_core::plan::expr::{Builtin, Expr};
use pql_core::plan::{Plan, Selector, SelectorKind};
use pql_core::run::runner::{choose_mode, start, Mode, RunOptions};
use std::sync::Arc;
use std::time::Duration;

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

const ELEVEN_PLAYERS: &str = "select count(winsHi(a)) from a='AsAh', b='KsKd', c='QsQd', d='JsJd', \
     e='TsTd', f='9s9d', g='8s8d', h='7s7d', i='6s6d', j='5s5d', k='4s4d', board='2c3c4c'";

/// Ten seats is the limit: the checker names the eleventh player where it is declared (it
/// used to pass, and the sampler then indexed past its per-player arrays).
#[test]
fn an_eleventh_player_is_a_type_error_at_its_key() {
    let errors = pql_core::pql::check_program(ELEVEN_PLAYERS).unwrap_err();
    assert_eq!(errors[0].kind, pql_core::ErrorKind::Type);
    let at = ELEVEN_PLAYERS.find("k='4s4d'").unwrap();
    assert_eq!(errors[0].span.map(|s| s.start), Some(at));
    assert!(errors[0].message.contains("at most 10"), "{}", errors[0].message);
    // Ten players still run.
    let ten = ELEVEN_PLAYERS.replace(", k='4s4d'", "");
    assert!(pql_core::pql::check_program(&ten).is_ok());
}

/// A plan built by hand with too many players ends with an error, not a panic.
#[test]
fn a_hand_built_plan_with_eleven_players_is_refused() {
    let hands = ["AsAh", "KsKd", "QsQd", "JsJd", "TsTd", "9s9d", "8s8d", "7s7d", "6s6d", "5s5d", "4s4d"];
    let plan = Arc::new(equity_plan(Game::Holdem, hands.iter().map(|h| fixed(h)).collect()));
    for exact in [None, Some(true), Some(false)] {
        let p = start(&plan, &RunOptions { exact, trials: 1000, ..RunOptions::default() }).wait();
        let e = p.error.expect("an error");
        assert!(e.message.contains("too many players"), "{}", e.message);
    }
}

fn compiled(text: &str) -> Arc<Plan> {
    let mut statements = pql_core::plan::compile::compile_program(text).unwrap();
    Arc::new(statements.remove(0).plan)
}

/// A finished enumeration visited every deal it counted beforehand.
#[test]
fn an_exhaustive_run_reports_the_size_of_its_enumeration() {
    let plan = Arc::new(equity_plan(Game::Holdem, vec![fixed("AsAh"), fixed("KsKd")]));
    let p = start(&plan, &RunOptions { exact: Some(true), ..RunOptions::default() }).wait();
    assert!(p.exact && p.exhaustive && !p.truncated);
    assert_eq!(p.total_deals, Some(1_712_304));
    assert_eq!(p.attempted, 1_712_304);
    // Stud, a where clause and per-deal selectors take the other enumeration paths.
    let plan = compiled(
        "select avg(riverEquity(a)), max(hiRating(a, seventh)) from game='studhi', syntax='generic', \
         a='AsAhKd9c8c', b='QsQdJh2c3c' where handType(b, seventh) <> straightflush",
    );
    let p = start(&plan, &RunOptions { exact: Some(true), ..RunOptions::default() }).wait();
    assert!(p.error.is_none(), "{:?}", p.error);
    assert!(p.exact && !p.truncated);
    assert_eq!(p.total_deals, Some(p.attempted));
}

/// An enumeration stopped by its time limit is reported as cut short, not as exact (what it
/// estimates from the work items it finished: `enumeration_sample.rs`).
#[test]
fn an_exhaustive_run_cut_short_says_so() {
    let plan = compiled(
        "select avg(riverEquity(a)), histogram(handType(a, river)) from game='omahahi', \
         a='AsAhKsKh', b='QdJdTc9c', c='8h8d7c6c'",
    );
    let opts = RunOptions { exact: Some(true), time_limit: Some(Duration::from_millis(2)), ..RunOptions::default() };
    let p = start(&plan, &opts).wait();
    assert!(p.error.is_none(), "{:?}", p.error);
    assert!(p.truncated && p.exhaustive && !p.exact);
    let total = p.total_deals.unwrap();
    assert!(p.attempted < total, "{} of {total}", p.attempted);
}

/// Under a time limit the planner prefers Monte Carlo unless the enumeration surely fits: an
/// enumeration cut short estimates from a sample of its work items, less precisely than
/// Monte Carlo in the same time.
#[test]
fn a_short_time_limit_prefers_monte_carlo() {
    let plan = Arc::new(equity_plan(Game::Holdem, vec![fixed("AsAh"), fixed("KsKd")]));
    let limited = RunOptions { time_limit: Some(Duration::from_millis(50)), ..RunOptions::default() };
    assert!(matches!(choose_mode(&plan, &limited), Ok(Mode::Monte)));
    let roomy = RunOptions { time_limit: Some(Duration::from_mins(1)), ..RunOptions::default() };
    assert!(matches!(choose_mode(&plan, &roomy), Ok(Mode::Exact(..))));
    assert!(matches!(choose_mode(&plan, &RunOptions::default()), Ok(Mode::Exact(..))));
}

/// Exhaustive when it is no more work than the Monte Carlo run asked for: the nut functions'
/// inner cost put this 2,970-deal statement over the evaluation threshold, and 600,000
/// Monte Carlo trials (200 times the work) ran instead.
#[test]
fn exhaustive_when_there_are_fewer_deals_than_trials() {
    let plan = compiled(
        "select count(nutHi(hero, flop)), avg(nutHiOuts(hero, flop)), avg(outsToHandType(hero, flop, flush)) \
         from game='holdem', hero='AhKh', villain='QQ', board='Qh7h2c'",
    );
    match choose_mode(&plan, &RunOptions::default()) {
        Ok(Mode::Exact(_, deals)) => assert_eq!(deals, 2_970.0),
        _ => panic!("expected an exhaustive run"),
    }
    // Asked for fewer trials than there are deals, sampling is the cheaper way.
    let few = RunOptions { trials: 1000, ..RunOptions::default() };
    assert!(matches!(choose_mode(&plan, &few), Ok(Mode::Monte)));
}

const RARE_WHERE: &str =
    "select count(winsHi(hero)) from hero='*', villain='*' where handType(hero, river) = straightflush";

/// A where clause that keeps 0.03% of deals is above the low-rate guard but would run for many
/// minutes: with no time limit the run stops early and says why (it used to run silently).
#[test]
fn a_rare_where_clause_stops_with_a_projection() {
    let plan = compiled(RARE_WHERE);
    let t = std::time::Instant::now();
    let opts = RunOptions { trials: 10_000_000, seed: Some(1), ..RunOptions::default() };
    let p = start(&plan, &opts).wait();
    let e = p.error.expect("an error");
    assert!(e.message.contains("keep only 0.0"), "{}", e.message);
    assert!(e.message.contains("10000000 trials would take about"), "{}", e.message);
    assert!(e.hint.as_deref().is_some_and(|h| h.contains("--time-limit")));
    assert!(t.elapsed() < Duration::from_secs(30), "{:?}", t.elapsed());
    // With a time limit it runs until then and reports.
    let limited = RunOptions { time_limit: Some(Duration::from_millis(1500)), ..opts };
    let p = start(&plan, &limited).wait();
    assert!(p.error.is_none(), "{:?}", p.error);
    assert!(p.accepted > 0 && p.accepted < 10_000_000);
}

/// Dropping the handle of a run cancels it: its workers (which share the plan) end promptly
/// instead of computing a billion trials nobody will read.
#[test]
fn dropping_a_run_handle_cancels_the_run() {
    let plan = Arc::new(equity_plan(Game::OmahaHi, vec![HandSource::Random, HandSource::Random]));
    let opts = RunOptions { exact: Some(false), trials: 1_000_000_000, ..RunOptions::default() };
    let handle = start(&plan, &opts);
    std::thread::sleep(Duration::from_millis(50));
    assert!(Arc::strong_count(&plan) > 1, "the workers hold the plan while they run");
    drop(handle);
    let t = std::time::Instant::now();
    while Arc::strong_count(&plan) > 1 {
        assert!(t.elapsed() < Duration::from_secs(5), "the run goes on after its handle is gone");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Division by zero is a runtime error at the divisor (it used to give 0 silently, so
/// `avg(1/0)` reported 0), in Monte Carlo and exhaustive runs alike; a guarded division runs.
#[test]
fn division_by_zero_is_an_error_at_the_divisor() {
    let cases = [
        "select avg(1/0) from hero='AA', villain='KK'",
        "select avg(riverEquity(hero) / riverEquity(villain)) from hero='AsAh', villain='KsKd'",
    ];
    for text in cases {
        let divisor = text.rfind('/').unwrap() + 1;
        for exact in [Some(true), Some(false)] {
            let p = start(&compiled(text), &RunOptions { exact, trials: 20_000, ..RunOptions::default() }).wait();
            let e = p.error.unwrap_or_else(|| panic!("{text}: no error"));
            assert_eq!(e.message, "division by zero");
            let span = e.span.unwrap();
            assert_eq!(text[span.start..span.end].trim_start(), text[divisor..text.rfind(')').unwrap()].trim_start());
        }
    }
    let guarded =
        "select avg(case when riverEquity(villain) = 0 then 0 else riverEquity(hero) / riverEquity(villain) end) \
                   from hero='AsAh', villain='KsKd'";
    let p = start(&compiled(guarded), &RunOptions { trials: 20_000, ..RunOptions::default() }).wait();
    assert!(p.error.is_none(), "{:?}", p.error);
}

/// A run stopped by its time limit between two deals counts only the deals it made: with no
/// where clause every one is kept (one uncounted attempt made the table say "100% of deals
/// kept"). The limit falls at a random point, so many short runs are tried.
#[test]
fn a_time_limit_leaves_no_phantom_attempt() {
    let plan = compiled("select avg(riverEquity(hero)) from hero='AA', villain='KK'");
    for ms in 0..60 {
        let opts = RunOptions {
            exact: Some(false),
            trials: u64::MAX / 2,
            threads: 1,
            time_limit: Some(Duration::from_micros(1000 + 499 * ms)),
            ..RunOptions::default()
        };
        let p = start(&plan, &opts).wait();
        assert!(p.error.is_none(), "{:?}", p.error);
        assert_eq!(p.attempted, p.accepted);
    }
}

/// An enumeration whose deals each sample an inner value (`HvREquity` before the flop against a
/// range: too many boards to enumerate inside every deal) visits every deal but is not exact;
/// the same enumeration with an inner value small enough to enumerate stays exact.
#[test]
fn an_enumeration_with_sampled_inner_values_is_not_exact() {
    let run = |street: &str| {
        let plan = compiled(&format!(
            "select avg(HvREquity(hero, {street})) from game='holdem', hero='AsAh', villain='15%', \
             board='2c7d9hTsJs'"
        ));
        let p = start(&plan, &RunOptions { exact: Some(true), ..RunOptions::default() }).wait();
        assert!(p.error.is_none(), "{:?}", p.error);
        p
    };
    let sampled = run("preflop");
    assert!(sampled.exhaustive && !sampled.truncated);
    assert!(sampled.inner_sampled && !sampled.exact);
    assert_eq!(sampled.total_deals, Some(sampled.attempted));
    let enumerated = run("flop");
    assert!(enumerated.exact && !enumerated.inner_sampled);
}
