//! The classic syntax (docs/language/ranges.md) and boards and dead cards (docs/language/boards.md).

use pql_core::cards::{parse_cards, Card};
use pql_core::games::Game;
use pql_core::range::{parse_board, parse_board_pattern, parse_dead, parse_range, Syntax};

fn count(text: &str, game: Game) -> usize {
    match parse_range(text, game, Syntax::Classic) {
        Ok(r) => r.len(),
        Err(e) => panic!("{text}: {}", e.message),
    }
}

fn cards(text: &str) -> Vec<Card> {
    let mut v = Vec::new();
    let mut i = 0;
    while i + 2 <= text.len() {
        v.push(parse_cards(&text[i..i + 2]).unwrap().first().unwrap());
        i += 2;
    }
    v
}

#[test]
fn holdem_hands_by_count() {
    let cases = [
        ("AsKs", 1),
        ("AKs", 4),
        ("AKo", 12),
        ("AK", 16),
        ("AsK", 4),
        ("KK", 6),
        ("QQ+", 18),
        ("ATs+", 16),
        ("KTo+", 36),
        ("AK-AT", 64),
        ("KQs-K9s", 16),
        ("QTs-86s", 20),
        ("86s-QTs", 20),
        ("TT-77", 24),
        ("22+", 78),
        ("*", 1326),
        ("**", 1326),
        ("AA, KK", 12),
        ("QQ+!KK", 12),
        ("(AK, AA):AsAh, AsKd", 2),
        ("KQ-K9:suited", 16),
    ];
    for (text, n) in cases {
        assert_eq!(count(text, Game::Holdem), n, "{text}");
    }
    assert!(parse_range("**", Game::Holdem, Syntax::Classic).unwrap().is_full());
}

#[test]
fn short_deck_uses_its_deck() {
    assert_eq!(count("*", Game::ShortDeck), 630);
    assert_eq!(count("66+", Game::ShortDeck), 54);
    assert_eq!(count("A6s+", Game::ShortDeck), 32);
    assert_eq!(count("AK", Game::ShortDeckTriton), 16);
}

#[test]
fn named_classes() {
    let sizes = [
        ("group1", 28),
        ("group2", 6 + 12 + 4 + 4 + 4),
        ("group3", 6 + 4 * 4 + 12),
        ("group4", 4 + 12 + 6 + 4 + 4 + 4 + 12 + 4),
        ("group5", 6 + 4 + 4 + 4 + 12 + 12 + 12 + 4 + 4 + 8 * 4 + 4),
        ("group6", 6 + 12 + 6 + 4 + 12 + 12 + 4 + 4 + 4 + 4),
        ("group7", 6 + 12 + 4 + 12 + 4 + 6 + 12 + 4 + 6 + 7 * 4 + 4 + 4),
        ("group8", 12 + 12 + 12 + 12 + 4 + 4 + 4 + 4 + 12 + 4 + 12 + 12 + 4 + 12 + 12),
        ("suited", 312),
        ("offsuit", 936),
        ("pair", 78),
        // The ace plays high and low: AK..32 and A2; A3, A4, A5 for the gaps.
        ("connected", 13 * 16),
        ("gap1", 12 * 16),
        ("gap2", 11 * 16),
        ("gap3", 10 * 16),
        ("Kx", 7 * 16),
        ("8x", 6 * 16),
        ("Axs", 7 * 4),
    ];
    for (name, n) in sizes {
        assert_eq!(count(name, Game::Holdem), n, "{name}");
    }
    let g: usize = (2..=5).map(|i| count(&format!("group{i}"), Game::Holdem)).sum();
    assert_eq!(count("group2-group5", Game::Holdem), g);
    assert_eq!(count("group2 to group5", Game::Holdem), g);
    assert_eq!(count("group2 through group5", Game::Holdem), g);
    // The groups do not overlap.
    let all: usize = (1..=8).map(|i| count(&format!("group{i}"), Game::Holdem)).sum();
    assert_eq!(count("group1-group8", Game::Holdem), all);
    assert_eq!(count("(AK | AA) & offsuit", Game::Holdem), 12);
    assert_eq!(count("pair and not QQ+", Game::Holdem), 60);
    assert_eq!(count("not pair", Game::Holdem), 1248);
    assert_eq!(count("suited or pair", Game::Holdem), 390);
}

#[test]
fn weights_in_classic() {
    let r = parse_range("AA@10, AKs@5", Game::Holdem, Syntax::Classic).unwrap();
    assert!(r.is_weighted());
    assert_eq!(r.len(), 10);
    assert_eq!(r.weight_of(parse_cards("AhAd").unwrap()), 10);
    assert_eq!(r.weight_of(parse_cards("AhKh").unwrap()), 5);
}

#[test]
fn omaha_classic_reads_ranks_cards_and_wildcards() {
    assert_eq!(count("AA67", Game::OmahaHi), 6 * 4 * 4);
    assert_eq!(count("AAs6s7", Game::OmahaHi), 3 * 4);
    assert_eq!(count("QQ**", Game::OmahaHi), 6_961);
    assert_eq!(count("*", Game::Omaha8), 270_725);
    assert_eq!(count("AA@5, KK@2", Game::OmahaHi), 2 * 6_961 - 6 * 6);
}

#[test]
fn errors_name_the_expected_thing_at_its_place() {
    let e = parse_range("AK#", Game::Holdem, Syntax::Classic).unwrap_err();
    assert_eq!(e.span.map(|s| (s.start, s.end)), Some((2, 3)));
    assert!(e.message.starts_with("expected a suit (s, h, d, c), 'o', '+' or '-'"), "{}", e.message);
    assert!(e.message.ends_with("found '#'"), "{}", e.message);
    // One card and something that is no card: a suit or a second card was expected.
    let e = parse_range("A#", Game::Holdem, Syntax::Classic).unwrap_err();
    assert_eq!(e.message, "expected a suit (s, h, d, c) or a rank, found '#'");
    // A third card: the hand is too long (not "expected a rank, found 'Q'").
    let e = parse_range("AsKsQs", Game::Holdem, Syntax::Classic).unwrap_err();
    assert_eq!(e.message, "a hold'em hand has 2 cards; 'AsKsQs' has more");
    assert_eq!(e.span.map(|s| (s.start, s.end)), Some((4, 6)));
    assert!(parse_range("AKQ", Game::Holdem, Syntax::Classic).unwrap_err().message.contains("2 cards"));
    // After a whole hand ('s' read as suited) only a span sign may follow.
    let e = parse_range("AKss", Game::Holdem, Syntax::Classic).unwrap_err();
    assert_eq!(e.message, "expected '+', '-' or the end of the hand after 'AKs', found 's'");
    assert_eq!(e.span.map(|s| (s.start, s.end)), Some((3, 4)));
    let e = parse_range("AsKsh", Game::Holdem, Syntax::Classic).unwrap_err();
    assert!(e.message.starts_with("expected '+', '-' or the end of the hand after 'AsKs'"), "{}", e.message);
    let e = parse_range("QQ+, AK#", Game::Holdem, Syntax::Classic).unwrap_err();
    assert_eq!(e.span.map(|s| s.start), Some(7));
    let e = parse_range("AA:KK", Game::Holdem, Syntax::Classic).unwrap_err();
    assert!(e.message.contains("'AA:KK' matches no hand"), "{}", e.message);
    let e = parse_range("grop3", Game::Holdem, Syntax::Classic).unwrap_err();
    assert_eq!(e.hint.as_deref(), Some("did you mean 'group3'?"));
    let e = parse_range("A10s", Game::Holdem, Syntax::Classic).unwrap_err();
    assert!(e.message.contains("write T"), "{}", e.message);
}

#[test]
fn boards_list_and_match() {
    let listed = |p: &str| parse_board(p, Game::Holdem).unwrap().boards().expect("listed").to_vec();
    assert_eq!(listed("KcJdJh").len(), 1);
    assert_eq!(listed("Aw9x2y").len(), 4 * 3 * 2);
    // Flops listed once as sets: distinct ranks per slot except 8 in both of the last two.
    let boards = listed("[K-T][9-7][8-5]");
    let n = boards.len();
    assert!(boards.iter().all(|x| x.len() == 3));
    let mut flops: Vec<Vec<Card>> = boards;
    flops.dedup();
    assert_eq!(flops.len(), n);
    // Slots of 16, 12 and 16 cards; the last two share the eights and sevens (8 cards). Ordered
    // choices: 16 * (12 * 16 - 8); a set whose two lower cards are both eights or sevens is
    // counted twice: 16 * C(8, 2) such sets.
    assert_eq!(n, 16 * (12 * 16 - 8) - 16 * 28);
    assert!(parse_board("", Game::Holdem).unwrap().matches(&cards("AsKdJhKc3s")));
}

#[test]
fn board_in_range_flop_unordered_turn_river_positional() {
    let board = cards("AsKdJhKc3s");
    let m = |p: &str| parse_board_pattern(p, Game::Holdem).unwrap().matches(&board);
    assert!(!m("AKK"));
    assert!(!m("AKJ3K"));
    assert!(m("KJAK3"));
    assert!(m("AKJ"));
    assert!(m("JKA"));
    assert!(m("AwKxJy"));
    assert!(!m("AwKwJy"));
    assert!(m("[A-Q]KJK"));
    assert!(!parse_board_pattern("AKJ3K2", Game::Holdem).is_ok_and(|b| b.matches(&board)));
    let short = cards("AsKdJh");
    assert!(!parse_board_pattern("AKJK", Game::Holdem).unwrap().matches(&short));
}

#[test]
fn dead_cards() {
    assert_eq!(parse_dead("AsKd", Game::Holdem).unwrap().fixed.len(), 2);
    let e = parse_dead("As1d", Game::Holdem).unwrap_err();
    assert_eq!(e.span.map(|s| s.start), Some(2));
    assert!(parse_dead("2s", Game::ShortDeck).is_err());
    assert!(parse_board("AA", Game::StudHi).is_err());
}

#[test]
fn to_and_through_join_hands_as_a_dash_does() {
    let set = |t: &str| parse_range(t, Game::Holdem, Syntax::Classic).unwrap().to_strings();
    for (words, dash) in [
        ("AA to TT", "AA-TT"),
        ("KQs to K9s", "KQs-K9s"),
        ("AKs through ATs", "AKs-ATs"),
        ("QTs TO 86s", "QTs-86s"),
        ("22 to 44", "22-44"),
    ] {
        assert_eq!(set(words), set(dash), "{words}");
    }
    assert_eq!(count("AA to TT, AKs", Game::Holdem), 5 * 6 + 4);
    assert_eq!(count("(KK to QQ) and not KsKh", Game::Holdem), 11);
    // Errors point at the hand that is wrong.
    let e = parse_range("AA to TTs", Game::Holdem, Syntax::Classic).unwrap_err();
    assert_eq!(e.span.map(|s| s.start), Some(6), "{}", e.message);
    let e = parse_range("AKs to QQ", Game::Holdem, Syntax::Classic).unwrap_err();
    assert!(e.message.contains("same 's' or 'o'") || e.message.contains("two pairs"), "{}", e.message);
    // Elsewhere spans are written with '-'.
    let e = parse_range("AA** to KK**", Game::OmahaHi, Syntax::Classic).unwrap_err();
    assert!(e.message.contains("write spans with '-'"), "{}", e.message);
}

#[test]
fn connectors_and_gaps_play_the_ace_low_too() {
    let has = |class: &str, hand: &str| {
        parse_range(class, Game::Holdem, Syntax::Classic).unwrap().to_strings().contains(&hand.to_string())
    };
    assert!(has("connected", "As2h"));
    assert!(has("connected", "AsKh"));
    assert!(has("gap1", "As3h"));
    assert!(has("gap2", "As4h"));
    assert!(has("gap3", "As5h"));
    assert!(!has("gap3", "As6h"));
    assert!(!has("connected", "As3h"));
    // Short deck: the ace's low neighbour is the six.
    let short = parse_range("connected", Game::ShortDeck, Syntax::Classic).unwrap().to_strings();
    assert!(short.contains(&"As6h".to_string()));
    assert_eq!(short.len(), 9 * 16);
}
