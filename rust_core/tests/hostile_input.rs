//! Hostile input (issue 24): nesting, chains and sizes far past what anyone writes end with a
//! positioned error that names the limit, never a stack overflow; repeated patterns are read
//! once. Runs on the test thread's default stack (2 MiB), as the Python bindings do not.

use pql_core::games::Game;
use pql_core::limits::{MAX_CASE_ARMS, MAX_SELECTORS, RANGE_MAX_DEPTH, RANGE_MAX_PARTS};
use pql_core::pql::check_program;
use pql_core::range::{parse_board, parse_dead, parse_range, Syntax};
use std::sync::Arc;

const GAMES: [Game; 4] = [Game::Holdem, Game::OmahaHi, Game::StudHi, Game::Razz];

fn range_error(text: &str, game: Game, syntax: Syntax) -> String {
    match parse_range(text, game, syntax) {
        Ok(r) => panic!("{} hands from a hostile range", r.len()),
        Err(e) => {
            let span = e.span.expect("a position");
            assert!(span.end <= text.len());
            e.message
        }
    }
}

#[test]
fn deep_ranges_are_refused_at_the_limit_in_every_syntax_and_game() {
    let too_deep = format!("more than {RANGE_MAX_DEPTH} levels");
    let n = 50_000;
    for text in [
        format!("{}AA", "!".repeat(n)),
        format!("{}AA{}", "(".repeat(n), ")".repeat(n)),
        format!("{}AA", "not ".repeat(n)),
        format!("{}AA{}", "(!".repeat(n), ")".repeat(n)),
    ] {
        for game in GAMES {
            for syntax in Syntax::ALL {
                let message = range_error(&text, game, syntax);
                // `not` is a word of the classic syntax only; in the generic one it is no hand.
                let words = text.starts_with("not") && syntax == Syntax::Generic;
                assert!(message.contains(&too_deep) || words, "{message}");
            }
        }
    }
    // Just under the limit is read.
    let d = RANGE_MAX_DEPTH as usize;
    let nested = format!("{}KK{}", "(".repeat(d), ")".repeat(d));
    assert_eq!(parse_range(&nested, Game::Holdem, Syntax::Classic).unwrap().len(), 6);
    let bangs = format!("{}AA", "!".repeat(d));
    assert_eq!(parse_range(&bangs, Game::Holdem, Syntax::Classic).unwrap().len(), 6);
    let over = format!("{}AA", "!".repeat(d + 1));
    assert!(range_error(&over, Game::Holdem, Syntax::Classic).contains(&too_deep));
}

#[test]
fn long_flat_chains_are_read_by_loops() {
    let parts = RANGE_MAX_PARTS;
    for game in GAMES {
        let one = |t: &str| parse_range(t, game, Syntax::Classic).unwrap().to_strings();
        for hand in ["AA", "KsKh", "A"] {
            if let Ok(r) = parse_range(hand, game, Syntax::Classic) {
                let inter = vec![hand; parts].join(":");
                assert_eq!(one(&inter), r.to_strings());
                let minus = format!("{}!{hand}", vec!["*"; parts - 1].join(":"));
                assert!(parse_range(&minus, game, Syntax::Classic).is_ok_and(|m| m.len() > r.len()));
            }
        }
        // Parenthesised unions of many parts too (stud sets are sorted once, not per part).
        let hands = ["AsKs", "AsKh", "AsKd", "AsKc", "AhKs"];
        let union = format!("({})", (0..parts).map(|i| hands[i % hands.len()]).collect::<Vec<_>>().join(","));
        let plain = hands.join(",");
        assert_eq!(one(&union), one(&plain));
    }
}

#[test]
fn too_many_parts_are_refused_naming_the_limit() {
    let text = vec!["AKs"; RANGE_MAX_PARTS + 1].join(", ");
    let message = range_error(&text, Game::Holdem, Syntax::Classic);
    assert!(message.contains("more than 100,000 parts"), "{message}");
    // As a board or dead-card pattern too.
    let boards = vec!["AsKsQs"; RANGE_MAX_PARTS + 1].join(",");
    assert!(parse_board(&boards, Game::Holdem).unwrap_err().message.contains("parts"));
    assert!(parse_dead(&boards, Game::Holdem).unwrap_err().message.contains("parts"));
}

#[test]
fn ranges_too_costly_to_read_are_refused_naming_the_limit() {
    // 156 different patterns such as AKRx*, each testing all 2,598,960 hands of 5-card Omaha.
    let ranks: Vec<char> = "AKQJT98765432".chars().collect();
    let mut parts = Vec::new();
    for a in 0..13 {
        for b in a + 1..13 {
            for suit in ['x', 'y'] {
                parts.push(format!("{}{}R{suit}", ranks[a], ranks[b]));
            }
        }
    }
    let five: Vec<String> = parts.iter().map(|p| format!("{p}*")).collect();
    let message = range_error(&five.join(","), Game::Omaha5Hi, Syntax::Generic);
    assert!(message.contains("more than 100,000,000 steps"), "{message}");
    // So is one part of variables that tries every order of every hand's cards.
    let message = range_error("flopp", Game::Omaha5Hi, Syntax::Classic);
    assert!(message.contains("more than 100,000,000 steps"), "{message}");
    // In 4-card Omaha each names few enough hands to list them.
    assert!(parse_range(&parts.join(","), Game::OmahaHi, Syntax::Generic).is_ok());
    // A long list of hands written card by card costs no such test.
    let cards: Vec<String> = pql_core::cards::Deck::Standard.cards().iter().map(|c| c.to_string()).collect();
    let mut hands = Vec::new();
    let mut pick = [0usize, 1, 2, 3, 4];
    while hands.len() < RANGE_MAX_PARTS {
        hands.push(pick.iter().map(|&i| cards[i].as_str()).collect::<String>());
        // The next five-card combination in colex order.
        let mut i = 0;
        while i < 4 && pick[i] + 1 == pick[i + 1] {
            pick[i] = i;
            i += 1;
        }
        pick[i] += 1;
    }
    assert!(parse_range(&hands.join(","), Game::Omaha5Hi, Syntax::Generic).is_ok());
}

#[test]
fn deep_board_and_dead_patterns_are_errors() {
    let deep = format!("{}AsKsQs{}", "(".repeat(30_000), ")".repeat(30_000));
    assert!(parse_board(&deep, Game::Holdem).unwrap_err().message.contains("nested too deeply"));
    assert!(parse_dead(&deep, Game::Holdem).unwrap_err().message.contains("nested too deeply"));
}

#[test]
fn queries_with_hostile_ranges_are_checked_without_a_crash() {
    let deep = format!("select count(winsHi(h)) from h='{}AA', v='KK'", "!".repeat(30_000));
    let errors = pql_core::plan::compile::compile_program(&deep).unwrap_err();
    assert!(errors[0].message.contains("nested too deeply"), "{}", errors[0].message);
    let chain = format!("select count(winsHi(h)) from h='{}', v='KK'", vec!["AA"; 50_000].join(":"));
    assert!(pql_core::plan::compile::compile_program(&chain).is_ok());
}

#[test]
fn selectors_and_case_arms_are_bounded() {
    let selectors = vec!["count(winsHi(h))"; MAX_SELECTORS + 1].join(", ");
    let errors = check_program(&format!("select {selectors} from h='AA', v='KK'")).unwrap_err();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].message.contains("at most 1,000 selectors"), "{}", errors[0].message);
    let fine = vec!["count(winsHi(h))"; MAX_SELECTORS].join(", ");
    assert!(check_program(&format!("select {fine} from h='AA', v='KK'")).is_ok());

    let arms = vec!["when winsHi(h) then 1"; MAX_CASE_ARMS + 1].join(" ");
    let errors = check_program(&format!("select avg(case {arms} else 0 end) from h='AA'")).unwrap_err();
    assert!(errors[0].message.contains("at most 1,000 'when' arms"), "{}", errors[0].message);
}

#[test]
fn too_many_players_are_reported_once() {
    let players: Vec<String> = (0..200_000).map(|i| format!("p{i}='AA'")).collect();
    let errors = check_program(&format!("select count(winsHi(p0)) from {}", players.join(", "))).unwrap_err();
    assert_eq!(errors.len(), 1);
    assert!(errors[0].message.starts_with("too many players"));
}

#[test]
fn a_board_pattern_is_read_once_for_every_statement_that_names_it() {
    let a = parse_board("[2-9]****", Game::Holdem).unwrap();
    let b = parse_board("[2-9]****", Game::Holdem).unwrap();
    assert!(Arc::ptr_eq(&a, &b));
    // Another game reads it anew.
    let c = parse_board("[2-9]****", Game::OmahaHi).unwrap();
    assert!(!Arc::ptr_eq(&a, &c));
    // Errors are remembered too, and say the same.
    let e1 = parse_board("[2-9]", Game::Holdem).unwrap_err();
    let e2 = parse_board("[2-9]", Game::Holdem).unwrap_err();
    assert_eq!(e1, e2);
}
