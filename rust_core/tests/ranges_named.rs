//! Named ranges (user macros such as `$open`, passed in by the caller) in every range syntax.

use pql_core::games::Game;
use pql_core::plan::compile::compile_program_with;
use pql_core::range::{parse_range, parse_range_with, Macros, Syntax};

fn macros(pairs: &[(&str, &str)]) -> Macros {
    Macros::from_pairs(pairs.iter().copied()).unwrap()
}

fn hands(text: &str, game: Game, syntax: Syntax, m: &Macros) -> Vec<String> {
    let r = parse_range_with(text, game, syntax, m).unwrap_or_else(|e| panic!("{text}: {}", e.message));
    let mut v: Vec<String> = r.to_strings().into_iter().zip(r.weights()).map(|(h, w)| format!("{h}@{w}")).collect();
    v.sort();
    v
}

fn plain(text: &str, game: Game, syntax: Syntax) -> Vec<String> {
    hands(text, game, syntax, &Macros::none())
}

#[test]
fn a_named_range_reads_as_its_text_wherever_a_leaf_stands() {
    let m = macros(&[("$open", "QQ+, AKs"), ("$Wide", "$open, 22")]);
    let h = Game::Holdem;
    let c = Syntax::Classic;
    assert_eq!(hands("$open", h, c, &m), plain("QQ+, AKs", h, c));
    assert_eq!(hands("$OPEN, JJ", h, c, &m), plain("QQ+, AKs, JJ", h, c));
    assert_eq!(hands("$open:suited", h, c, &m), plain("AKs", h, c));
    assert_eq!(hands("$open!KK", h, c, &m), plain("QQ, AA, AKs", h, c));
    assert_eq!(hands("!$open", h, c, &m), plain("!(QQ+, AKs)", h, c));
    assert_eq!(hands("$wide", h, c, &m), plain("QQ+, AKs, 22", h, c));
    assert_eq!(hands("$open@7, 22@3", h, c, &m), plain("QQ+@7, AKs@7, 22@3", h, c));
}

#[test]
fn weights_of_a_named_range_count_when_it_is_the_whole_range() {
    let m = macros(&[("mix", "AA@50, KK@100")]);
    let h = Game::Holdem;
    let c = Syntax::Classic;
    assert_eq!(hands(" $mix ", h, c, &m), plain("AA@50, KK@100", h, c));
    // Combined, only its hands count.
    assert_eq!(hands("$mix, 22", h, c, &m), plain("AA, KK, 22", h, c));
}

#[test]
fn named_ranges_work_in_omaha_and_stud() {
    assert!(Macros::from_pairs([("ds", "AA**")]).is_err());
    let m = macros(&[("aces", "AA**"), ("rolled", "(3-3-)3")]);
    let o = Game::OmahaHi;
    let g = Syntax::Generic;
    assert_eq!(hands("$aces:xxyy", o, g, &m), plain("AA**$ds", o, g));
    assert_eq!(hands("$aces", o, Syntax::Classic, &m), plain("AA**", o, Syntax::Classic));
    let s = Game::StudHi;
    assert_eq!(hands("$rolled", s, Syntax::Classic, &m), plain("(3-3-)3", s, Syntax::Classic));
    assert_eq!(hands("$rolled, 33A", s, Syntax::Classic, &m), plain("(3-3-)3, 33A", s, Syntax::Classic));
}

#[test]
fn mistakes_are_placed_on_the_name() {
    let m = macros(&[("bad", "AK, 1"), ("a1", "$b1"), ("b1", "$a1, AA")]);
    let e = parse_range_with("QQ, $bad", Game::Holdem, Syntax::Classic, &m).unwrap_err();
    assert!(e.message.starts_with("in $bad:"), "{}", e.message);
    assert_eq!(e.span.map(|s| (s.start, s.end)), Some((4, 8)));
    let e = parse_range_with("$a1", Game::Holdem, Syntax::Classic, &m).unwrap_err();
    assert!(e.message.contains("$a1 -> $b1 -> $a1"), "{}", e.message);
    // Undefined: the range reader's own error, as before.
    assert!(parse_range("$open", Game::Holdem, Syntax::Classic).is_err());
    assert!(Macros::from_pairs([("$np", "AA")]).is_err());
}

#[test]
fn queries_use_the_named_ranges_they_are_given() {
    let m = macros(&[("open", "QQ+, AKs")]);
    let q = "select avg(riverEquity(hero)) from hero='$open', villain='$open:AKs'";
    let compiled = compile_program_with(q, (1, 1), &m).unwrap();
    assert_eq!(compiled[0].plan.spec.players.len(), 2);
    let e = compile_program_with(q, (1, 1), &Macros::none()).unwrap_err();
    assert!(!e.is_empty());
}
