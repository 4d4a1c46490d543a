//! Forced exhaustive runs that could never finish are refused before any work (issue 16): by
//! their projected evaluations in every game, and, when the fixed parts are too many to list,
//! from an estimate, with the size in the message. Runs the size check lets through still run.

use pql_core::plan::compile::compile_program;
use pql_core::run::runner::{start, Progress, RunOptions};
use std::sync::Arc;
use std::time::Duration;

fn forced(text: &str, time_limit: Option<Duration>) -> Progress {
    let statements = compile_program(text).unwrap_or_else(|e| panic!("{text}: {e:?}"));
    let plan = Arc::new(statements[0].plan.clone());
    let opts = RunOptions { exact: Some(true), seed: Some(1), threads: 2, time_limit, ..RunOptions::default() };
    start(&plan, &opts).wait()
}

/// The number after `label` in `message` (`1.234e10`).
fn number_after(message: &str, label: &str) -> f64 {
    let at = message.find(label).unwrap_or_else(|| panic!("{label} in {message}")) + label.len();
    let rest = message[at..].trim_start_matches("about ");
    rest.split([' ', ')']).next().unwrap().parse().unwrap_or_else(|_| panic!("{message}"))
}

#[test]
fn hopeless_enumerations_are_refused_with_their_size() {
    for (text, at_least) in [
        // Stud with every later card to deal: about 1.8e10 deals.
        ("select avg(riverEquity(p1)) from game='studhi', p1='AsAdKs', p2='QhQcJh'", 1e10),
        ("select avg(riverEquity(p1)) from game='razz', p1='As2d3c', p2='4h5h6s'", 1e10),
        // Omaha hi/lo, three random hands.
        ("select avg(riverEquity(p1)) from game='omaha8', p1='*', p2='*', p3='*'", 1e15),
        // Ranges too many to list: judged from a sample of them (the where clause reads the
        // hands, so the fixed parts are not counted by flush class).
        (
            "select avg(riverEquity(hero)) from game='studhi', hero='A345678', villain='(3-2-)45678' \
             where not pocketPair(hero)",
            1e7,
        ),
    ] {
        let p = forced(text, None);
        let e = p.error.unwrap_or_else(|| panic!("{text} ran"));
        assert!(e.message.starts_with("too large to enumerate exactly"), "{text}: {}", e.message);
        let deals = number_after(&e.message, "exactly: ");
        assert!(deals >= at_least, "{text}: {}", e.message);
        assert_eq!(p.attempted, 0, "{text}");
    }
}

#[test]
fn a_time_limit_lets_a_long_enumeration_run_into_an_estimate() {
    let text = "select avg(riverEquity(p1)) from game='studhi', p1='AsAdKs', p2='QhQcJh'";
    let p = forced(text, Some(Duration::from_millis(300)));
    assert!(p.error.is_none(), "{:?}", p.error);
    assert!(p.truncated && !p.exact);
}
