//! Board patterns (docs/language/boards.md) for `board=` and `boardInRange`, however many boards they allow;
//! dead cards in the generic syntax.

mod common;

use pql_core::cards::{parse_card, Card};
use pql_core::deal::source::BoardSource;
use pql_core::games::Game;
use pql_core::plan::compile::compile_program;
use pql_core::range::{parse_board, parse_board_pattern, parse_dead};

fn cards(text: &str) -> Vec<Card> {
    (0..text.len() / 2).map(|i| parse_card(&text[2 * i..2 * i + 2]).unwrap()).collect()
}

fn run(text: &str, trials: u64, exact: Option<bool>) -> (Vec<f64>, bool) {
    common::run_first(text, trials, exact, 3)
}

fn compile_error(text: &str) -> String {
    compile_program(text).map(|_| ()).unwrap_err()[0].message.clone()
}

#[test]
fn board_in_range_takes_patterns_with_many_boards() {
    let board = cards("2c7dJhTsKs");
    let m = |p: &str| parse_board_pattern(p, Game::Holdem).unwrap().matches(&board);
    assert!(m("****Ks"));
    assert!(!m("****Kh"));
    assert!(m("***[2-T]"));
    assert!(!m("***[2-7]"));
    assert!(m("[2-9]****"));
    assert!(m("*****"));
    // Through a query: the river is the king of spades once in 50 rivers.
    let (v, _) = run("select count(boardInRange('****Ks')) from game='holdem', p1='AsAh'", 300_000, Some(false));
    assert!((v[0] - 0.02).abs() < 0.0015, "{v:?}");
}

#[test]
fn a_board_with_too_many_boards_to_list_is_sampled_by_rejection() {
    let b = parse_board("[2-9]****", Game::Holdem).unwrap();
    assert!(b.boards().is_none() && !b.is_any());
    let q = "select count(boardInRange('[2-9]')), count(boardInRange('A')) from game='holdem', p1='AsAh', \
             board='[2-9]****'";
    assert!(matches!(compile_program(q).unwrap()[0].plan.spec.board, BoardSource::Pattern(_)));
    let (v, _) = run(q, 300_000, Some(false));
    assert_eq!(v[0], 1.0);
    // Flops holding a card 2..9 (of the 50 left): C(50,3) - C(18,3); of those, holding one of
    // the two aces left: (C(50,3) - C(48,3)) - (C(18,3) - C(16,3)).
    let want = (2304.0 - 256.0) / (19600.0 - 816.0);
    assert!((v[1] - want).abs() < 0.003, "{v:?} vs {want}");
    // Exact runs skip the boards that do not match: with 8..A left (26 cards after the aces),
    // flops holding an 8 or a 9: C(26,3) - C(18,3); with an ace too: (C(26,3) - C(24,3)) -
    // (C(18,3) - C(16,3)).
    let q = "select count(boardInRange('[8-9]')), count(boardInRange('A')) from game='holdem', p1='AsAh', \
             board='[8-9]****', dead='2c2d2h2s3c3d3h3s4c4d4h4s5c5d5h5s6c6d6h6s7c7d7h7s'";
    let (exact, was_exact) = run(q, 0, Some(true));
    assert!(was_exact);
    let want = 320.0 / 1784.0;
    assert_eq!(exact[0], 1.0);
    assert!((exact[1] - want).abs() < 1e-12, "{exact:?} vs {want}");
    let (mc, _) = run(q, 200_000, Some(false));
    assert!((mc[1] - want).abs() < 0.004, "{mc:?} vs {want}");
}

#[test]
fn only_wild_slots_mean_no_board() {
    for text in ["*****", "***", "*", "KsKdKh, ***"] {
        let b = parse_board(text, Game::Holdem).unwrap();
        assert!(b.is_any(), "{text}");
    }
    let q = "select count(winsHi(p1)) from game='holdem', p1='AsAh', p2='KsKh', board='*****'";
    assert!(matches!(compile_program(q).unwrap()[0].plan.spec.board, BoardSource::Random));
    let (with, _) = run(q, 0, Some(true));
    let (without, _) = run("select count(winsHi(p1)) from game='holdem', p1='AsAh', p2='KsKh'", 0, Some(true));
    assert_eq!(with, without);
}

#[test]
fn a_board_has_three_to_five_cards() {
    for text in ["Ks", "KsKd", "[K-T]*"] {
        let e = parse_board(text, Game::Holdem).unwrap_err();
        assert!(e.message.contains("3, 4 or 5 cards"), "{text}: {}", e.message);
    }
    let m = compile_error("select count(winsHi(p1)) from game='holdem', p1='AsAh', board='KsKd'");
    assert!(m.contains("3, 4 or 5 cards"), "{m}");
    assert!(parse_board("", Game::Holdem).unwrap().is_any());
    assert!(parse_board("KsKdKh2c", Game::Holdem).is_ok());
    assert!(parse_board("KsKdKh2c3c4c", Game::Holdem).is_err());
}

#[test]
fn dead_cards_take_the_generic_syntax() {
    let choices = |t: &str, g: Game| parse_dead(t, g).unwrap().choices.len();
    assert_eq!(choices("K", Game::Holdem), 4);
    assert_eq!(choices("Kw", Game::Holdem), 4);
    assert_eq!(choices("[K-Q]", Game::Holdem), 8);
    assert_eq!(choices("AsKx", Game::Holdem), 3);
    assert_eq!(choices("AsKs, QdQ", Game::Holdem), 4);
    assert_eq!(choices("K", Game::StudHi), 4);
    assert_eq!(choices("**", Game::Holdem), 1326);
    // Plain cards are all dead, with or without spaces and commas; one set is fixed cards too.
    assert_eq!(parse_dead("AsKs, QdQc", Game::Holdem).unwrap().fixed.len(), 4);
    for text in ["AsKd", "As Kd", "As, Kd", "[As][Kd]"] {
        let d = parse_dead(text, Game::Holdem).unwrap();
        assert_eq!((d.fixed.len(), d.choices.len()), (2, 0), "{text}");
    }
    let e = parse_dead("*****", Game::Holdem).unwrap_err();
    assert!(e.message.contains("more than"), "{}", e.message);
    assert!(parse_dead("AA@3", Game::Holdem).unwrap_err().message.contains("no weights"));
}

#[test]
fn a_dead_card_pattern_is_drawn_anew_in_each_deal() {
    // One king is dead, a different one each deal: of the 44 cards left after AsAh, the board
    // and the dead king, three are kings.
    let q = "select count(inRange(p2, 'K*')) from game='holdem', p1='AsAh', p2='*', board='2c3c4c5c6d', \
             dead='K'";
    let (exact, was_exact) = run(q, 0, Some(true));
    assert!(was_exact);
    let want = 1.0 - 820.0 / 946.0;
    assert!((exact[0] - want).abs() < 1e-12, "{exact:?} vs {want}");
    let (mc, _) = run(q, 200_000, Some(false));
    assert!((mc[0] - want).abs() < 0.004, "{mc:?} vs {want}");
    // The dead card is never dealt: with the king of spades in p1's hand, Kh, Kd or Kc is dead,
    // so p2 holds at most two kings and never the dead one.
    let q = "select count(inRange(p2, 'KK')), count(inRange(p2, 'KhKd')) from game='holdem', p1='KsAh', \
             p2='*', board='2c3c4c5c6d', dead='[Kh,Kd,Kc]'";
    let (exact, _) = run(q, 0, Some(true));
    // Two kings left of 44 cards: 1 pair of C(44,2); KhKd only when Kc is dead (a third).
    assert!((exact[0] - 1.0 / 946.0).abs() < 1e-12, "{exact:?}");
    assert!((exact[1] - 1.0 / 946.0 / 3.0).abs() < 1e-12, "{exact:?}");
}
