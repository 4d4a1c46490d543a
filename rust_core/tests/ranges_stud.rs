//! Stud, stud8 and razz hands (docs/language/ranges.md).

mod common;

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
    // One down card Q or better: the down pairs holding one of those 12 cards.
    assert_eq!(range("Q+", Game::StudHi).len(), 1326 - 780);
    // A written down card fixes both: the `*` beside it is any card. Per king up, the pairs of
    // the other 51 cards holding an ace or a deuce: C(51,2) - C(43,2).
    assert_eq!(range("[A,2]*K", Game::Razz).len(), 4 * (1275 - 903));
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

fn run(text: &str, trials: u64, exact: Option<bool>) -> (Vec<f64>, bool) {
    common::run_first(text, trials, exact, 11)
}

#[test]
fn a_down_card_fixes_both_down_cards() {
    // One ace down: the 198 unordered down pairs holding an ace (6 AA + 4 * 48), each once.
    let a = range("A", Game::StudHi);
    assert_eq!(a.len(), 198);
    assert_eq!(hands("*A", Game::StudHi), hands("A", Game::StudHi));
    assert!(a.to_strings().iter().all(|h| h.ends_with("*****")));
    assert_eq!(a.to_strings().iter().filter(|h| h.starts_with('A') && h[2..].starts_with('A')).count(), 6);
    // An up card alone leaves the down cards open.
    assert_eq!(range("**K", Game::StudHi).to_strings().len(), 4);
}

#[test]
fn combining_hands_that_fix_different_positions() {
    let g = Game::StudHi;
    let ak = hands("AK", g);
    // Intersections refine open positions.
    assert_eq!(hands("A:AK", g), ak);
    assert_eq!(hands("*:AK", g), ak);
    assert_eq!(hands("AK:*", g), ak);
    assert_eq!(hands("(AA,KK):**", g), hands("AA, KK", g));
    // KK holds no ace: only AA is both a pair of aces or kings and a hand with an ace down.
    assert_eq!(hands("(AA,KK):A*", g), hands("AA", g));
    // Per king up, the pairs of the other 51 cards holding an ace: 198 less the four with that king.
    assert_eq!(hands("A:**K", g).len(), 4 * (198 - 4));
    // Differences remove every refinement of what is removed.
    let a_not_ak = hands("A!AK", g);
    assert_eq!(a_not_ak.len(), 198 - 16);
    assert!(a_not_ak.is_disjoint(&ak));
    assert_eq!(hands("!AK", g).len(), 1326 - 16);
    assert!(parse_range("AK!*", g, Syntax::Classic).unwrap_err().message.contains("no hand"));
    assert!(parse_range("AK!A", g, Syntax::Classic).unwrap_err().message.contains("no hand"));
    // Unions are unions of the hands the parts stand for.
    assert!(range("*, AKQ", g).is_full());
    assert!(range("AKQ, *", g).is_full());
    assert_eq!(hands("A, AK", g), hands("A", g));
    assert_eq!(hands("AK, A", g), hands("A", g));
    // An ace down or a king up: 198 * 50 + 1326 * 4 - the hands with both.
    let either = range("A, **K", g);
    assert_eq!(either.len(), hands("A:**K", g).len() + hands("**K!A", g).len() + hands("A!**K", g).len());
    // The razz groups survive refinement.
    assert_eq!(hands("(3-3-)45678:A", Game::Razz).len(), hands("(3-3-)45678", Game::Razz).len() / 3 * 2);
}

#[test]
fn combining_parts_too_deep_to_complete_is_an_error() {
    let e = parse_range("A, 2c3c4c5c6c7c8c", Game::StudHi, Syntax::Classic).unwrap_err();
    assert!(e.message.contains("more than"), "{}", e.message);
    assert_eq!(e.span.map(|s| (s.start, s.end)), Some((0, 1)));
    // A union with every hand is every hand, however deep the other part.
    assert!(range("*, 2c3c4c5c6c7c8c", Game::StudHi).is_full());
}

#[test]
fn weighted_parts_are_completed_before_taking_the_larger_weight() {
    let r = parse_range("A@2, AK@7", Game::StudHi, Syntax::Generic).unwrap();
    assert_eq!(r.len(), 198);
    let heavy = r.weights().iter().filter(|&&w| w == 7).count();
    assert_eq!(heavy, 16);
}

#[test]
fn sampling_is_uniform_over_the_hands_a_union_stands_for() {
    // `A, AK` is `A`: AK is 16 of its 198 down pairs (8.08%), not half the entries.
    let (v, exact) = run("select count(inRange(p1, 'AK')) from game='studhi', p1='A, AK'", 400_000, Some(false));
    assert!(!exact);
    assert!((v[0] - 16.0 / 198.0).abs() < 0.003, "{v:?}");
    // `*, AKQ` is every hand: AKQ is as rare as anywhere (16/1326 * 4/50).
    let (v, _) = run("select count(inRange(p1, 'AKQ')) from game='studhi', p1='*, AKQ'", 400_000, Some(false));
    assert!((v[0] - 16.0 / 1326.0 * 4.0 / 50.0).abs() < 0.0005, "{v:?}");
}

#[test]
fn open_down_cards_are_sampled_uniformly() {
    // One ace down against a random hand: AA is 6 of the 198 pairs holding an ace (3.03%).
    let (v, _) = run("select count(inRange(p1, 'AA')) from game='studhi', p1='A', p2='*'", 400_000, Some(false));
    assert!((v[0] - 6.0 / 198.0).abs() < 0.0015, "{v:?}");
    // Exact and sampled runs agree.
    let q = "select count(inRange(p1, 'AA')) from game='studhi', p1='A', p2='KsKdKhKc', \
             dead='2c2d2h2s3c3d3h3s4c4d4h4s5c5d5h5s6c6d6h6s7c7d7h7s8c8d8h8s9c9d9h9s'";
    let (exact, was_exact) = run(q, 0, Some(true));
    assert!(was_exact);
    // Aces and T, J, Q are left (16 cards): 6 AA of the 6 + 4 * 12 pairs holding an ace.
    assert!((exact[0] - 6.0 / 54.0).abs() < 1e-12, "{exact:?}");
    let (mc, _) = run(q, 200_000, Some(false));
    assert!((mc[0] - exact[0]).abs() < 0.003, "{mc:?} vs {exact:?}");
}

#[test]
fn exact_runs_deal_the_positions_a_stud_range_reads_on_their_own() {
    // The third-street up card is a king 4 times in 50, enumerated or sampled.
    let q = "select count(inRange(p1, '**K')) from game='studhi', p1='AsAh'";
    let (exact, was_exact) = run(q, 0, Some(true));
    assert!(was_exact);
    assert!((exact[0] - 4.0 / 50.0).abs() < 1e-12, "{exact:?}");
    let (mc, _) = run(q, 200_000, Some(false));
    assert!((mc[0] - 0.08).abs() < 0.003, "{mc:?}");
    // Open down cards too: with T..A left (20 cards), a given card is the up card 1 time in 20,
    // and an ace down 1 - C(16,2)/C(20,2) of the time.
    let dead = "dead='2c2d2h2s3c3d3h3s4c4d4h4s5c5d5h5s6c6d6h6s7c7d7h7s8c8d8h8s9c9d9h9s'";
    let q = format!(
        "select count(upCard(p1, third) = toCard('Kd')), count(inRange(p1, 'A')), count(inRange(p1, '**Kd')) \
         from game='studhi', p1='*', {dead}"
    );
    let (exact, was_exact) = run(&q, 0, Some(true));
    assert!(was_exact);
    let want = [0.05, 1.0 - 120.0 / 190.0, 0.05];
    for (got, want) in exact.iter().zip(want) {
        assert!((got - want).abs() < 1e-12, "{exact:?}");
    }
}
