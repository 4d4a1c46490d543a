//! The `simulate` statement end to end (the rules of docs/language/simulate.md): the checker's positioned errors,
//! EV(fold) = 0, river spots with no betting left equal to exact arithmetic, the obvious-move
//! stop on a clear spot and not on a coin flip, opponents dealt by weight (chi-square), and
//! reweighting from observed actions.

use pql_core::cards::{parse_cards, CardSet};
use pql_core::eval::rate_hi;
use pql_core::games::HiRules;
use pql_core::pql::check_program;
use pql_core::pql::typed::Action;
use pql_core::range::Macros;
use pql_core::rng::Rng;
use pql_core::simulate::hand::Sampler;
use pql_core::simulate::program::{compile_program, Compiled};
use pql_core::simulate::run::{Simulation, State};
use pql_core::simulate::spot::Spot;

fn spot(text: &str) -> Spot {
    match compile_program(text, (1, 1), &Macros::none(), &[]) {
        Ok(mut v) => match v.remove(0) {
            Compiled::Simulate(s) => *s,
            Compiled::Query(_) => panic!("not a simulate statement"),
        },
        Err(e) => panic!("{text}: {:?}", e.iter().map(|e| e.render(text)).collect::<Vec<_>>()),
    }
}

fn run(text: &str, trials: u64, seed: u64) -> State {
    Simulation::new(spot(text), trials, seed, None).run_here().expect("runs")
}

fn ev(state: &State, action: Action) -> (f64, f64) {
    let i = state.actions.iter().position(|&a| a == action).expect("listed");
    (state.sums.mean(i), state.sums.stderr(i))
}

/// The first error's message and the text it points at.
fn error(text: &str) -> (String, String) {
    let errors = check_program(text).expect_err(text);
    let e = &errors[0];
    let span = e.span.expect("positioned");
    (e.message.clone(), text[span.start..span.end].to_string())
}

#[test]
fn the_statement_checks_and_errors_point_at_the_mistake() {
    let ok = "simulate fold, call, raise from game='holdem', hero='AhKh', villain='QQ+@90, 22-JJ@40, AK@80, *@5', \
              board='Kd7c2h', pot=10, tocall=2, bet=2, stakes='limit'";
    let s = spot(ok);
    assert_eq!(s.actions(), vec![Action::Fold, Action::Call, Action::Raise]);
    assert_eq!((s.spec.pot, s.spec.tocall, s.spec.bet, s.spec.hero), (10.0, 2.0, 2.0, 0));
    let cases: &[(&str, &str, &str)] = &[
        ("simulate check, call from hero='AA', villain='KK', pot=4, tocall=2, bet=2", "cannot check", "check"),
        ("simulate call from hero='AA', villain='KK', pot=4, tocall=0, bet=2", "cannot call", "call"),
        ("simulate raise from hero='AA', villain='KK', pot=4, tocall=0, bet=2", "cannot raise", "raise"),
        ("simulate bet from hero='AA', villain='KK', pot=4, tocall=2, bet=2", "cannot bet", "bet"),
        ("simulate raise from hero='AA', villain='KK', pot=4, tocall=2, bet=2, raises=3", "capped", "raise"),
        ("simulate call from hero='AA', villain='KK', tocall=2, bet=2", "needs pot=", ""),
        ("simulate call from hero='AA', villain='KK', pot=-4, tocall=2, bet=2", "must not be negative", "-4"),
        ("simulate call from hero='AA', villain='KK', pot=2, tocall=10, bet=2", "is more than the pot (2)", "10"),
        ("simulate call from hero='AA', villain='KK', pot=4, tocall=2, bet='2'", "must be a number", "'2'"),
        ("simulate call from hero='AA', villain='KK', pot=4, tocall=2, bet=2, stop='soon'", "not one of", "soon"),
        ("simulate call from hero='AA', villain='KK', pot=4, tocall=2, bet=2, choose=1", "must be quoted", "choose=1"),
        ("simulate call from hero='AA', villain='KK', pot=4, tocall=2, bet=2, choose='random'", "'mixed'", "random"),
        (
            "simulate call from hero='AA', villain='KK', pot=4, tocall=2, bet=2, tocal=3",
            "did you mean 'tocall'",
            "tocal",
        ),
        (
            "simulate call from hero='AA', villain='KK', pot=4, tocall=2, bet=2, histroy='villain:raise@flop'",
            "did you mean 'history'",
            "histroy",
        ),
        (
            "simulate call from hero='AA', villain='KK', pot=4, tocall=2, bet=2, colour=3",
            "unknown key 'colour'",
            "colour",
        ),
        ("simulate cal from hero='AA', villain='KK', pot=4, tocall=2, bet=2", "did you mean 'call'", "cal"),
        (
            "simulate call from hero='AA', villain='KK', pot=4, tocall=2, bet=2, stakes='nolimit'",
            "cannot be simulated",
            "nolimit",
        ),
        (
            "simulate call from game='omaha', hero='AAKK', villain='*', pot=4, tocall=2, bet=2",
            "hold'em and short deck",
            "omaha",
        ),
        (
            "simulate call from hero='AA', villain='KK', pot=4, tocall=2, bet=2, history='vilain:raise@flop'",
            "unknown player 'vilain'",
            "vilain:raise@flop",
        ),
        (
            "simulate call from hero='AA', villain='KK', pot=4, tocall=2, bet=2, villain.raise_threshold=1.5",
            "between 0 and 1",
            "1.5",
        ),
        (
            "simulate call from hero='AA', villain='KK', pot=4, tocall=2, bet=2, villain.raise_treshold=0.9",
            "did you mean 'raise_threshold'",
            "villain.raise_treshold",
        ),
        ("simulate call, call from hero='AA', villain='KK', pot=4, tocall=2, bet=2", "listed twice", "call"),
    ];
    for (text, message, at) in cases {
        let (m, written) = error(text);
        assert!(m.contains(message), "{text}: {m}");
        if !at.is_empty() {
            assert_eq!(&written, at, "{text}: {m}");
        }
    }
    // A select statement reads as before, and `simulate` is no longer a parse error.
    assert!(check_program("select avg(equity(hero)) from hero='AA', villain='KK'").is_ok());
}

#[test]
fn folding_is_worth_nothing_in_every_spot() {
    for text in [
        "simulate fold, call, raise from hero='AhKh', villain='QQ+@90, 22-JJ@40, AK@80, *@5', board='Kd7c2h', pot=10, tocall=2, bet=2",
        "simulate fold, check, bet from hero='7c2d', villain='*', v2='*', board='AsKsQs', pot=6, tocall=0, bet=2",
        "simulate fold, call from hero='AA', villain='*', pot=3, tocall=1, bet=2",
    ] {
        let st = run(text, 300, 7);
        assert_eq!(ev(&st, Action::Fold), (0.0, 0.0), "{text}");
    }
}

/// The pot share of `hero` against one holding on a full board: 1, 1/2 or 0.
fn share(hero: CardSet, villain: CardSet, board: CardSet) -> f64 {
    let (h, v) = (rate_hi(hero.union(board), HiRules::Standard), rate_hi(villain.union(board), HiRules::Standard));
    match h.cmp(&v) {
        std::cmp::Ordering::Greater => 1.0,
        std::cmp::Ordering::Equal => 0.5,
        std::cmp::Ordering::Less => 0.0,
    }
}

#[test]
fn a_capped_river_is_pure_arithmetic() {
    // One villain hand: no randomness left. Hero's straight beats the set: EV(call) = pot.
    let st = run(
        "simulate fold, call from hero='9c8c', villain='TdTh', board='Ts7h6d2c3s', pot=12, tocall=4, bet=2, raises=3",
        50,
        1,
    );
    assert_eq!(ev(&st, Action::Call), (12.0, 0.0));
    // A tie splits pot + call: (12 + 4)/2 - 4 = 4.
    let st = run(
        "simulate call from hero='AcKd', villain='AdKc', board='Ts7h6d2c2s', pot=12, tocall=4, bet=2, raises=3",
        50,
        1,
    );
    assert_eq!(ev(&st, Action::Call), (4.0, 0.0));
    // Behind: the call is lost.
    let st = run(
        "simulate call from hero='AcKd', villain='7c7d', board='Ts7h6d2c2s', pot=12, tocall=4, bet=2, raises=3",
        50,
        1,
    );
    assert_eq!(ev(&st, Action::Call), (-4.0, 0.0));

    // A weighted range: the estimate agrees with the exact enumeration P(win)·(pot + tocall) − tocall.
    let text = "simulate call from hero='AcQd', villain='AK@30, QQ@50, AQ@100, JT@20, 98s@70', board='Ts7h6d2cQs', \
                pot=12, tocall=4, bet=2, raises=3";
    let s = spot(text);
    let (hero, board) = (parse_cards("AcQd").unwrap(), parse_cards("Ts7h6d2cQs").unwrap());
    let (mut won, mut total) = (0.0, 0.0);
    for h in &s.holdings[1] {
        if !h.cards.overlaps(hero) {
            won += h.weight * share(hero, h.cards, board);
            total += h.weight;
        }
    }
    let exact = won / total * 16.0 - 4.0;
    let st = run(text, 20_000, 3);
    let (mean, se) = ev(&st, Action::Call);
    assert!((mean - exact).abs() < 4.0 * se, "{mean} ± {se} vs {exact}");
}

#[test]
fn the_nuts_against_a_caller_raise_and_stop_early() {
    // The royal flush against a set that calls everything (call threshold 0, raise threshold 1).
    let text =
        "simulate fold, call, raise from hero='Th9c', villain='2d2s', board='AhKhQhJh2c', pot=10, tocall=4, bet=2, \
                villain.call_threshold=0, villain.raise_threshold=1";
    for seed in 1..=5 {
        let st = run(text, 10_000, seed);
        let (call, raise) = (ev(&st, Action::Call).0, ev(&st, Action::Raise).0);
        assert_eq!(call, 10.0);
        assert!(raise > call, "{raise} {call}");
        assert_eq!(st.stopped_after, Some(200), "seed {seed}");
        assert_eq!(st.actions[st.ranking(0.01)[0]], Action::Raise);
    }
}

#[test]
fn a_coin_flip_runs_to_the_end() {
    // On the river, A-K beats A-Q and loses to 9-9: half the villain's hands each way. The
    // villain calls everything, so calling 4 into 4 and raising to the cap are both worth 0
    // on average: calling wins or loses 4, raising 8.
    let text =
        "simulate call, raise from hero='AcKc', villain='AdQd, 9c9h', board='2c3d7h8sTd', pot=4, tocall=4, bet=2, \
                raises=2, villain.call_threshold=0, villain.raise_threshold=1";
    for seed in 1..=10 {
        let st = run(text, 10_000, seed);
        assert_eq!(st.stopped_after, None, "seed {seed}");
        assert_eq!(st.sums.trials, 10_000);
        // Every trial's outcomes are ±4 and ±8 together.
        assert!((ev(&st, Action::Raise).0 - 2.0 * ev(&st, Action::Call).0).abs() < 1e-9);
    }
}

/// A coin flip against folding (whose EV has no error) is a one-error margin under Loki-2's rule
/// (`stop='loki'`): looked at after 200, 400, …, 6400 trials it stops some runs, as
/// docs/language/simulate.md's rule says it may.
#[test]
fn folding_against_a_coin_flip_is_a_one_error_margin_under_lokis_rule() {
    let text =
        "simulate fold, call from hero='AcKc', villain='AdQd, 9c9h', board='2c3d7h8sTd', pot=4, tocall=4, bet=2, \
                raises=3, stop='loki'";
    let stops = (1..=40).filter(|&seed| run(text, 10_000, seed).stopped_after.is_some()).count();
    // About 7 in 10 runs stop somewhere (a Monte Carlo of the rule itself agrees).
    assert!((15..=38).contains(&stops), "{stops} of 40");
}

/// The default rule (three standard errors of the paired difference) stops almost no coin
/// flip: about 0.1% a look, six looks; `stop='none'` never stops, even the nuts.
#[test]
fn the_default_rule_runs_a_coin_flip_against_folding_to_the_end() {
    let text = "simulate fold, call from hero='AcKc', villain='AdQd, 9c9h', board='2c3d7h8sTd', pot=4, tocall=4, bet=2, raises=3";
    let stops = (1..=40).filter(|&seed| run(text, 10_000, seed).stopped_after.is_some()).count();
    assert!(stops <= 2, "{stops} of 40");
    let nuts = "simulate fold, call, raise from hero='Th9c', villain='2d2s', board='AhKhQhJh2c', pot=10, tocall=4, \
                bet=2, villain.call_threshold=0, villain.raise_threshold=1, stop='none'";
    assert_eq!(run(nuts, 2_000, 1).stopped_after, None);
}

#[test]
fn ties_go_to_the_more_aggressive_action() {
    // The hero's quads always win; the villain's ace-high pair is too weak to call a bet (its
    // chance is below the pot odds) and checks behind: checking and betting both win the pot.
    let text = "simulate check, bet from hero='AsAc', villain='7d6c', board='AdAh2s3c4d', pot=6, tocall=0, bet=2, \
                villain.call_threshold=1, villain.raise_threshold=1";
    let st = run(text, 400, 5);
    // The villain folds to the bet and checks behind: both win the pot of 6 every time.
    assert_eq!(ev(&st, Action::Check).0, 6.0);
    assert_eq!(ev(&st, Action::Bet).0, 6.0);
    assert_eq!(st.actions[st.ranking(0.01)[0]], Action::Bet);
}

#[test]
fn opponents_are_dealt_in_proportion_to_their_weights() {
    // Four villain holdings with weights 10, 20, 30, 40 (none touching the hero's cards).
    let s = spot("simulate call from hero='2c2d', villain='AsAh@10, KsKh@20, QsQh@30, JsJh@40', board='3c4d9h', pot=4, tocall=2, bet=2");
    let sampler = Sampler::new(&s);
    let mut rng = Rng::new(2024, 0);
    let n = 40_000;
    let mut counts = [0u32; 4];
    let order: Vec<CardSet> = ["AsAh", "KsKh", "QsQh", "JsJh"].iter().map(|h| parse_cards(h).unwrap()).collect();
    for _ in 0..n {
        let deal = sampler.deal(&s, &mut rng).unwrap();
        counts[order.iter().position(|&h| h == deal.hands[1]).unwrap()] += 1;
    }
    let chi2: f64 = counts
        .iter()
        .zip([0.1, 0.2, 0.3, 0.4])
        .map(|(&c, p)| {
            let e = p * n as f64;
            (f64::from(c) - e).powi(2) / e
        })
        .sum();
    // 3 degrees of freedom: 16.27 is the 0.999 quantile.
    assert!(chi2 < 16.27, "{counts:?} chi2 {chi2}");
}

#[test]
fn observed_actions_reweight_the_range() {
    // A raise on this flop keeps the strong holdings at full weight and cuts the weak to 1%.
    let text = "simulate call from hero='AhKh', villain='KdKs, 3c3d, 8s5s', board='Kc7c2h', pot=10, tocall=2, bet=2, \
                history='villain:raise@flop'";
    let s = spot(text);
    let weight = |h: &str| s.holdings[1].iter().find(|w| w.cards == parse_cards(h).unwrap()).unwrap().weight;
    assert_eq!(weight("KdKs"), 1.0);
    assert!((weight("8s5s") - 0.01).abs() < 1e-12, "{}", weight("8s5s"));
    // A check keeps the weak.
    let s = spot(&text.replace("raise@flop", "check@flop"));
    let weight = |h: &str| s.holdings[1].iter().find(|w| w.cards == parse_cards(h).unwrap()).unwrap().weight;
    assert_eq!(weight("8s5s"), 1.0);
}

#[test]
fn a_seed_gives_the_same_answer_on_any_thread_count() {
    let text = "simulate fold, call, raise from hero='AhKh', villain='QQ+@90, 22-JJ@40, AK@80, *@5', board='Kd7c2h', pot=10, tocall=2, bet=2";
    let here = run(text, 1000, 9);
    let job = pql_core::simulate::run::start(Simulation::new(spot(text), 1000, 9, None), 3);
    let snap = job.wait();
    assert_eq!(snap.state.sums, here.sums);
}

#[test]
fn folded_players_and_players_to_act_follow_the_state() {
    // The hero's royal flush on a capped river: calling wins the pot. A folded player only
    // takes cards out of the deck; a player still to act who calls everything adds its call.
    let base = "simulate call from hero='Th9c', v1='2d2s', v2='AsAd', board='AhKhQhJh2c', pot=12, tocall=4, bet=2, \
                raises=3, v1.call_threshold=0, v1.raise_threshold=1, v2.call_threshold=0, v2.raise_threshold=1";
    let st = run(&format!("{base}, folded='v2'"), 50, 1);
    assert_eq!(ev(&st, Action::Call), (12.0, 0.0));
    let st = run(&format!("{base}, to_act='v2'"), 50, 1);
    assert_eq!(ev(&st, Action::Call), (16.0, 0.0));
    // Without to_act every other player has matched the bet already.
    let st = run(base, 50, 1);
    assert_eq!(ev(&st, Action::Call), (12.0, 0.0));
}

/// Not a test: how long the benchmark's spot takes on one thread (`-- --ignored --nocapture`).
#[test]
#[ignore = "a timing, run by hand"]
fn timing_of_the_benchmark_spot() {
    let text =
        "simulate call, raise from game='holdem', hero='Jh9h', villain='QQ+@90, 22-JJ@40, AK@80, AQ-AT@60, *@5', \
                board='Jd7c2h', pot=10, tocall=2, bet=2";
    let start = std::time::Instant::now();
    let st = run(text, 4000, 1);
    let i = 0;
    eprintln!(
        "{} trials in {:.3} s: call {:.3} raise {:.3} diff ±{:.3}",
        st.sums.trials,
        start.elapsed().as_secs_f64(),
        st.sums.mean(i),
        st.sums.mean(1),
        1.96 * st.sums.diff_stderr(0, 1)
    );
}

/// A history of thousands of actions is read in about the time of one per street (the
/// strengths are cached across observations), and its weights stay above zero: each action may
/// take a weight to a hundredth, which 2,000 of them would round to nothing.
#[test]
fn a_long_history_is_read_once_a_street_and_keeps_its_hands() {
    let history = vec!["villain:raise@flop"; 2_000].join(", ");
    let text = format!(
        "simulate fold, call, raise from game='holdem', hero='AhKh', villain='QQ+@90, 22-JJ@40, AK@80, *@5', \
         board='Kd7c2h', pot=10, tocall=2, bet=2, stakes='limit', history='{history}'"
    );
    let started = std::time::Instant::now();
    let s = spot(&text);
    assert!(started.elapsed() < std::time::Duration::from_mins(1), "{:?}", started.elapsed());
    assert!(s.holdings[1].iter().any(|h| h.weight > 0.0));
    let state = Simulation::new(s, 200, 7, None).run_here().expect("runs");
    assert!(state.sums.mean(0).is_finite());
}
