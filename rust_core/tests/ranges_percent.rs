//! Percent ranges and `handRanking` (docs/language/ranges.md, percentages).

use pql_core::cards::parse_cards;
use pql_core::games::Game;
use pql_core::range::{hand_percentile, parse_range, parse_range_ordered, Macros, Ordering, Range, Syntax};

fn range(text: &str, game: Game) -> Range {
    ordered(text, game, Ordering::default())
}

fn ordered(text: &str, game: Game, ordering: Ordering) -> Range {
    match parse_range_ordered(text, game, Syntax::Generic, ordering, &Macros::none()) {
        Ok(r) => r,
        Err(e) => panic!("{text} in {game} ({}): {}", ordering.name(), e.message),
    }
}

const GAMES: [Game; 4] = [Game::Holdem, Game::ShortDeck, Game::OmahaHi, Game::Omaha8];

#[test]
fn hundred_percent_is_every_hand() {
    for g in GAMES.into_iter().chain([Game::ShortDeckTriton]) {
        for text in ["100%", "100%6h", "0%-100%"] {
            assert!(range(text, g).is_full(), "{text} {g}");
        }
    }
}

#[test]
fn percentages_nest_and_partition() {
    for (g, o) in GAMES.into_iter().flat_map(|g| Ordering::ALL.map(|o| (g, o))) {
        for six in ["", "6h"] {
            let range = |text: &str, g| ordered(text, g, o);
            let r10 = range(&format!("10%{six}"), g);
            let r20 = range(&format!("20%{six}"), g);
            assert!(r10.flop_combos().iter().all(|h| r20.contains_hand(&h.to_vec())), "{g}{six}");
            let band = range(&format!("10%-20%{six}"), g);
            assert_eq!(r10.len() + band.len(), r20.len(), "{g}{six}");
            assert!(band.flop_combos().iter().all(|h| !r10.contains_hand(&h.to_vec())));
            // Counted in combos: a class is included when it starts inside, so the count passes
            // the mark by less than one class (at most 24 hands of a suit-renaming class).
            let total = range("*", g).len() as f64;
            let n = r20.len() as f64;
            assert!(n >= 0.2 * total - 1.0 && n <= 0.2 * total + 24.0, "{g}{six}: {n} of {total}");
        }
    }
}

#[test]
fn percentile_agrees_with_membership() {
    for (g, o) in GAMES.into_iter().flat_map(|g| Ordering::ALL.map(|o| (g, o))) {
        let r = ordered("15%", g, o);
        let all = range("*", g);
        for (i, h) in all.flop_combos().iter().enumerate().step_by(37) {
            let p = hand_percentile(g, *h, false, o);
            assert!(p > 0.0 && p <= 100.0);
            assert_eq!(p <= 15.0, r.contains_hand(&h.to_vec()), "{g} hand {i} {h} at {p}");
        }
    }
}

#[test]
fn well_known_hands_land_where_players_expect() {
    let p = |g, h: &str, six| hand_percentile(g, parse_cards(h).unwrap(), six, Ordering::default());
    // Aces are the best hold'em hand: the very first class.
    assert!((p(Game::Holdem, "AsAh", false) - 100.0 / 1326.0).abs() < 1e-3);
    assert!(p(Game::Holdem, "KsKh", false) < 1.0);
    assert!(p(Game::Holdem, "7s2h", false) > 90.0);
    assert!(p(Game::Holdem, "AsKs", true) < 5.0);
    assert!(p(Game::OmahaHi, "AsAhKsKh", false) < 1.0);
    assert!(p(Game::OmahaHi, "2s2h2d2c", false) > 99.0);
    assert!(p(Game::Omaha8, "AsAh2s3h", false) < 1.0);
    assert!(p(Game::Omaha5Hi, "AsAhKsKhQd", false) < 5.0);
    assert!(p(Game::Omaha85, "AsAh2s3h4d", false) < 5.0);
    assert!(range("AA", Game::Holdem)
        .flop_combos()
        .iter()
        .all(|h| range("1%", Game::Holdem).contains_hand(&h.to_vec())));
}

#[test]
fn five_card_omaha_orderings_load() {
    for g in [Game::Omaha5Hi, Game::Omaha85] {
        assert!(range("100%6h", g).is_full());
        let r = range("1%", g);
        assert!(r.len() >= 25_989 && r.len() < 25_989 + 120, "{}", r.len());
    }
}

#[test]
fn classic_percent_and_errors() {
    let r = parse_range("15%", Game::Holdem, Syntax::Classic).unwrap();
    assert_eq!(r.len(), range("15%", Game::Holdem).len());
    assert!(parse_range("5%-10%6h, AA", Game::Holdem, Syntax::Classic).is_ok());
    let e = parse_range("10%-5%", Game::Holdem, Syntax::Generic).unwrap_err();
    assert!(e.message.contains("smaller first"), "{}", e.message);
    assert!(parse_range("0%", Game::Holdem, Syntax::Generic).unwrap_err().message.contains("no hand"));
    assert_eq!(hand_percentile(Game::StudHi, parse_cards("AsAh").unwrap(), false, Ordering::Oracle), 100.0);
}

/// Player 1's `10%` in Omaha hi after dropping the combos that collide with the board `AdKs3s`
/// and player 2's `QsTsJd2d`: (combos holding `AA`, all combos). Exact counts, no sampling.
fn ploev_aces(ordering: Ordering) -> (usize, usize) {
    let known = parse_cards("AdKs3sQsTsJd2d").unwrap();
    let aces = range("AA", Game::OmahaHi);
    let live: Vec<_> = ordered("10%", Game::OmahaHi, ordering)
        .flop_combos()
        .iter()
        .copied()
        .filter(|h| h.intersect(known).is_empty())
        .collect();
    let with_aces = live.iter().filter(|h| aces.contains_hand(&h.to_vec())).count();
    (with_aces, live.len())
}

/// The check an Odds Oracle user ran against the Oracle itself (issue 23): about 24% (±2) of
/// player 1's `10%` holds aces there. `AA` is read as pql reads it in Omaha: at least two aces.
#[test]
fn ploev_check_oracle_ordering_matches_the_odds_oracle() {
    let (aces, all) = ploev_aces(Ordering::Oracle);
    let share = 100.0 * aces as f64 / all as f64;
    assert!((22.0..=26.0).contains(&share), "oracle ordering: {aces} of {all} = {share:.2}%");
}

/// The all-in-equity ordering, kept as `ordering='equity'`, gives the 18.7% pql gave before.
#[test]
fn ploev_check_equity_ordering_keeps_the_old_answer() {
    let (aces, all) = ploev_aces(Ordering::Equity);
    let share = 100.0 * aces as f64 / all as f64;
    assert!((share - 18.7).abs() < 0.1, "equity ordering: {aces} of {all} = {share:.2}%");
}
