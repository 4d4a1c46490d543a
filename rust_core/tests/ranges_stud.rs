//! PQL-SPEC §5.3: stud, stud8 and razz hands.

use pql_core::cards::{parse_card, Card};
use pql_core::games::Game;
use pql_core::range::{parse_range, Range, Syntax};
use std::collections::BTreeSet;

fn range(text: &str, game: Game) -> Range {
    match parse_range(text, game, Syntax::Classic) {
        Ok(r) => r,
        Err(e) => panic!("{text}: {}", e.message),
    }
}

fn hands(text: &str, game: Game) -> BTreeSet<String> {
    range(text, game).to_strings().into_iter().collect()
}

fn cards(text: &str) -> Vec<Card> {
    (0..text.len() / 2).map(|i| parse_card(&text[2 * i..2 * i + 2]).unwrap()).collect()
}

#[test]
fn parenthesised_groups_are_sets_of_suited_hands() {
    let a = hands("(3-2-)45678", Game::Razz);
    let b = hands("(3-3-)45678", Game::Razz);
    assert_eq!(a, b);
    // Down cards: two different ranks of A, 2, 3 (3 rank pairs, 16 suitings); then 4^5 up cards.
    assert_eq!(a.len(), 3 * 16 * 4usize.pow(5));
    assert!(a.iter().all(|h| h.len() == 14));
}

#[test]
fn the_down_cards_are_unordered() {
    assert_eq!(hands("KsJhTd", Game::StudHi), hands("JhKsTd", Game::StudHi));
    assert_eq!(range("KsJhTd", Game::StudHi).len(), 1);
    assert_eq!(range("AK", Game::StudHi).len(), 16);
    assert_eq!(range("AA", Game::StudHi).len(), 6);
    assert_eq!(range("AKQJT98", Game::StudHi).len(), 4usize.pow(7));
}

#[test]
fn ceilings_floors_lists_and_groups() {
    // Razz: 7- is A..7. With the group: three different ranks, the up card a seven.
    assert_eq!(range("(7-7-7)", Game::Razz).len(), 15 * 16 * 4);
    // Without the group: down cards any two of the 28 cards A..7, the up card any other seven.
    assert_eq!(range("7-7-7", Game::Razz).len(), 276 * 4 + 24 * 4 * 3 + 6 * 2);
    // Stud hi: aces are high, so 3- is 2 and 3 only.
    assert_eq!(range("3-3-", Game::StudHi).len(), 28);
    assert_eq!(range("Q+", Game::StudHi).len(), 12);
    assert_eq!(range("[A,2]*K", Game::Razz).len(), 8 * 4);
    assert_eq!(range("**Ks", Game::StudHi).len(), 1);
}

#[test]
fn open_positions_and_full_ranges() {
    let r = range("*", Game::Stud8);
    assert!(r.is_full());
    assert_eq!(r.stud_hands()[0], [None; 7]);
    let r = range("AsKs", Game::StudHi);
    assert_eq!(r.to_strings(), vec!["AsKs*****".to_string()]);
    assert!(r.contains_hand(&cards("AsKs2c3c4c5c6c")));
    assert!(r.contains_hand(&cards("KsAs2c3c4c5c6c")));
    assert!(!r.contains_hand(&cards("AsKh2c3c4c5c6c")));
    assert!(range("**As", Game::StudHi).contains_hand(&cards("KsKh As2c3c4c5c".replace(' ', "").as_str())));
}

#[test]
fn weights_and_errors() {
    let r = parse_range("AA@5, KK@2, AsAh@9", Game::StudHi, Syntax::Generic).unwrap();
    assert!(r.is_weighted());
    assert_eq!(r.len(), 12);
    let mut w: Vec<u32> = r.weights().to_vec();
    w.sort_unstable();
    assert_eq!(w, [vec![2; 6], vec![5; 5], vec![9]].concat());
    let e = parse_range("7-7-7-7-7-7-7-", Game::Razz, Syntax::Classic).unwrap_err();
    assert!(e.message.contains("more than"), "{}", e.message);
    let e = parse_range("AKz", Game::StudHi, Syntax::Classic).unwrap_err();
    assert_eq!(e.span.map(|s| s.start), Some(2));
    assert!(parse_range("15%", Game::Razz, Syntax::Classic).is_err());
    assert!(parse_range("AAAAA", Game::StudHi, Syntax::Classic).unwrap_err().message.contains("no hand"));
}
