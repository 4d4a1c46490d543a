//! The PQL people already write (issue 15), at the engine's level: bare selectors, streets left
//! out, openpql's spellings, generic terms in classic hold'em ranges, whitespace between the cards
//! of a hand, `board=''`. `tests/test_compat_corpus.py` runs each form against its spelled-out
//! twin; here are the readings themselves.

use pql_core::cards::{parse_cards, CardSet};
use pql_core::functions::types::Type;
use pql_core::functions::{catalog, lookup, Func};
use pql_core::games::{Game, Street};
use pql_core::plan::compile::compile_program;
use pql_core::pql::check_program;
use pql_core::pql::typed::{CheckedStatement, SelectorName, TExprKind};
use pql_core::range::{parse_board, parse_dead, parse_range, Syntax};
use std::collections::HashSet;

fn one(text: &str) -> CheckedStatement {
    match check_program(text) {
        Ok(mut s) => {
            assert_eq!(s.len(), 1, "{text}");
            s.remove(0)
        }
        Err(errors) => panic!("{text}\n{}", errors.iter().map(|e| e.render(text)).collect::<Vec<_>>().join("\n")),
    }
}

fn first_error(text: &str) -> String {
    match check_program(text) {
        Ok(_) => match compile_program(text) {
            Ok(_) => panic!("{text}: no error"),
            Err(e) => e[0].message.clone(),
        },
        Err(e) => e[0].message.clone(),
    }
}

fn hands(text: &str, game: Game, syntax: Syntax) -> HashSet<CardSet> {
    match parse_range(text, game, syntax) {
        Ok(r) => r.flop_combos().iter().copied().collect(),
        Err(e) => panic!("{text}: {}", e.message),
    }
}

#[test]
fn a_bare_selector_is_avg_count_or_histogram_by_its_type_and_named_as_written() {
    let s = one("select equity(hero), winsHi(hero)  and  not tiesHi(villain), handType(hero, flop), riverCard(), \
         1 + 1, fractionalRiverEquity(hero) as f, nutHiOuts(hero, flop), avg(riverEquity(hero)) \
         from hero='AA', villain='KK'");
    let kinds: Vec<SelectorName> = s.selectors.iter().map(|x| x.kind).collect();
    let (avg, count, histogram) = (SelectorName::Avg, SelectorName::Count, SelectorName::Histogram);
    assert_eq!(kinds, [avg, count, histogram, histogram, avg, avg, avg, avg]);
    let names: Vec<&str> = s.selectors.iter().map(|x| x.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "equity(hero)",
            "winsHi(hero) and not tiesHi(villain)",
            "handType(hero, flop)",
            "riverCard()",
            "1 + 1",
            "f",
            "nutHiOuts(hero, flop)",
            "avg(riverEquity(hero))"
        ]
    );
    // The same text twice keeps names unique.
    let s = one("select equity(hero), equity(hero) from hero='AA', villain='KK'");
    assert_eq!(s.selectors[1].name, "equity(hero) #2");
    // A misspelt selector is still called one; a misspelt function is a function.
    assert!(first_error("select cout(winsHi(hero)) from hero='AA'").contains("did you mean 'count'"));
    assert!(first_error("select equty(hero) from hero='AA'").contains("did you mean 'equity'"));
}

#[test]
fn a_street_left_out_is_the_last_street() {
    let street_of = |text: &str| match &one(text).selectors[0].expr.kind {
        TExprKind::Call { args, .. } => match args.last().map(|a| &a.kind) {
            Some(TExprKind::Street(s)) => *s,
            other => panic!("{text}: {other:?}"),
        },
        other => panic!("{text}: {other:?}"),
    };
    assert_eq!(street_of("select equity(hero) from hero='AA', villain='KK'"), Street::River);
    assert_eq!(street_of("select handType(hero) from game='stud', hero='AA', villain='KK'"), Street::Seventh);
    assert_eq!(street_of("select pairedBoard() from hero='AA'"), Street::River);
    assert_eq!(street_of("select loRating(hero) from game='razz', hero='A23', villain='KK'"), Street::Seventh);
    // Functions about cards still to come must name their street.
    assert_eq!(first_error("select nutHiOuts(hero) from hero='AA'"), "nutHiOuts takes 2 arguments, found 1");
    assert_eq!(first_error("select upCard(hero) from game='stud', hero='AA'"), "upCard takes 2 arguments, found 1");
    for f in catalog() {
        if f.street_has_default() {
            assert_eq!(f.params.last().map(|p| p.ty), Some(Type::Street), "{}", f.name);
            assert!(f.signature().contains(" = "), "{}", f.signature());
        }
    }
    assert!(lookup("HvHEquity").unwrap().street_has_default());
    assert!(!lookup("positivePotential").unwrap().street_has_default());
}

#[test]
fn openpql_spellings_name_our_functions() {
    assert_eq!(lookup("min_equity").map(|f| f.func), Some(Func::MinEquity));
    assert_eq!(lookup("wins_hi").map(|f| f.func), Some(Func::WinsHi));
    assert_eq!(lookup("NONINTERSECTING_HAND_RANKS").map(|f| f.func), Some(Func::NonIntersectingHandRanks));
    assert!(lookup("wins__hi_x").is_none());
    // No two of our names are the same once underscores and case are ignored.
    let mut seen = HashSet::new();
    for f in catalog() {
        assert!(seen.insert(f.name.replace('_', "").to_ascii_lowercase()), "{}", f.name);
    }
    // handRanks(p), duplicatedHandRanks(p): the player's own cards.
    one("select count(rankCount(handRanks(hero)) = 2), count(rankCount(duplicatedHandRanks(hero)) = 1) \
         from game='omaha', hero='AhAcKsQd'");
    // maxHiRating(street): the best hi among the players, a rating; maxHiRating(p) is ours.
    let s = one("select max(maxHiRating(river)), maxHiRating(hero) from hero='AA', villain='KK'");
    assert_eq!(s.selectors[0].expr.ty, Type::HiRating);
    match &s.selectors[0].expr.kind {
        TExprKind::Case { arms, otherwise: None } => assert_eq!(arms.len(), 2),
        other => panic!("{other:?}"),
    }
    assert_eq!(s.selectors[1].expr.ty, Type::Boolean);
    assert!(first_error("select max(maxHiRating(river)) from game='holdem'").contains("needs a player"));
}

#[test]
fn board_low_cards_are_asked_in_every_board_game() {
    for game in ["holdem", "shortdeck", "omahahi", "omaha8"] {
        one(&format!(
            "select avg(boardLoCardCount(flop)), count(boardAllowsMadeLo(river)), \
             count(boardHasOneDistinctLoCard(turn)), count(boardHasTwoDistinctLoCards()) from game='{game}', hero='*'"
        ));
    }
    assert!(first_error("select avg(boardLoCardCount(fifth)) from game='stud', hero='*'").contains("board games"));
}

#[test]
fn classic_hold_em_ranges_read_generic_terms_where_the_classic_reading_is_an_error() {
    let classic = |t: &str, g: Game| hands(t, g, Syntax::Classic);
    let generic = |t: &str, g: Game| hands(t, g, Syntax::Generic);
    for t in ["AwKw", "AxKy", "RR", "AwQw+", "[K-][T+]", "Ks-", "xx", "ss", "K[2s,Jc,T]", "A$W", "RR!AA", "AxKy, QQ+"] {
        for g in [Game::Holdem, Game::ShortDeck] {
            assert_eq!(classic(t, g), generic(t, g), "{t} in {g}");
        }
    }
    assert_eq!(classic("AwKw", Game::Holdem), classic("AKs", Game::Holdem));
    assert_eq!(classic("RR", Game::Holdem).len(), 78);
    assert_eq!(classic("RR", Game::ShortDeck).len(), 54);
    // Where both readings exist the classic one wins.
    let all_suited = |set: &HashSet<CardSet>| set.iter().all(|h| (0..4).any(|s| h.suit_mask(s).count_ones() == 2));
    assert!(all_suited(&classic("AKs", Game::Holdem)) && !all_suited(&generic("AKs", Game::Holdem)));
    for (t, classic_count, generic_count) in
        [("ATs+", 16, 4), ("AT+", 64, 16), ("76+", 16, 128), ("Kx", 112, 198), ("Kxs", 28, 39)]
    {
        assert_eq!(
            (classic(t, Game::Holdem).len(), generic(t, Game::Holdem).len()),
            (classic_count, generic_count),
            "{t}"
        );
    }
    assert_ne!(classic("Q9-", Game::Holdem), generic("Q9-", Game::Holdem));
    assert_ne!(classic("QTs-86s", Game::Holdem), generic("QTs-86s", Game::Holdem));
    // When neither reads, the error is the one of the notation the leaf uses.
    let err = |t: &str| parse_range(t, Game::Holdem, Syntax::Classic).unwrap_err();
    assert_eq!(err("[K-][T+][5c-]").message, "'[K-][T+][5c-]' has 3 cards, but a Texas hold'em hand has 2");
    assert_eq!(err("suitd").hint.as_deref(), Some("did you mean 'suited'?"));
    assert!(err("AK#").message.starts_with("expected a suit (s, h, d, c), 'o'"));
    // Omaha and stud read as before (their classic syntax is the generic one, or their own).
    assert_eq!(hands("AwKw**", Game::OmahaHi, Syntax::Classic), hands("AwKw**", Game::OmahaHi, Syntax::Generic));
}

#[test]
fn whitespace_may_separate_the_cards_of_a_hand() {
    let same = |a: &str, b: &str, g: Game, s: Syntax| assert_eq!(hands(a, g, s), hands(b, g, s), "{a} / {b}");
    same("Ac Kd", "AcKd", Game::Holdem, Syntax::Classic);
    same("Ac Kd, Qs  Qh", "AcKd, QsQh", Game::Holdem, Syntax::Classic);
    same("Aw Kw", "AwKw", Game::Holdem, Syntax::Generic);
    same("Qs Ts Jd 2d", "QsTsJd2d", Game::OmahaHi, Syntax::Classic);
    same("A A * *", "AA**", Game::OmahaHi, Syntax::Generic);
    same("Ac Kd", "AcKd", Game::ShortDeck, Syntax::Classic);
    let stud = |t: &str| parse_range(t, Game::Razz, Syntax::Classic).unwrap().stud_hands().to_vec();
    assert_eq!(stud("(3- 3-) 4 5"), stud("(3-3-)45"));
    assert_eq!(stud("As Kd Qh"), stud("AsKdQh"));
    // Boards and dead cards too.
    let board = |t: &str| parse_board(t, Game::Holdem).unwrap().boards().map(<[_]>::to_vec);
    assert_eq!(board("Ah Kd 2c"), board("AhKd2c"));
    assert_eq!(board("Aw Kw Qw"), board("AwKwQw"));
    assert_eq!(parse_dead("As Kx", Game::Holdem).unwrap(), parse_dead("AsKx", Game::Holdem).unwrap());
    assert_eq!(parse_dead("2c, 7h", Game::Holdem).unwrap().fixed, parse_cards("2c7h").unwrap());
    // An error inside a spaced hand points at the card as written.
    let e = parse_range("Ac Kd  Qh", Game::Holdem, Syntax::Classic).unwrap_err();
    assert_eq!(e.span.map(|s| (s.start, s.end)), Some((7, 9)));
    // Words still separate; class words side by side mean and (HoldemHand's `Connected Suited`).
    assert_eq!(
        hands("suited connected", Game::Holdem, Syntax::Classic),
        hands("suited : connected", Game::Holdem, Syntax::Classic)
    );
    assert_eq!(hands("AK and suited", Game::Holdem, Syntax::Classic), hands("AKs", Game::Holdem, Syntax::Classic));
}

#[test]
fn an_empty_board_is_no_board_in_every_game() {
    for game in ["holdem", "omaha8", "stud", "razz"] {
        let text = format!("select avg(riverEquity(hero)) from game='{game}', hero='*', villain='*', board=''");
        assert!(compile_program(&text).is_ok(), "{text}");
    }
    assert!(first_error("select avg(riverEquity(hero)) from game='stud', hero='*', board='As'").contains("no board"));
}

#[test]
fn selectors_are_named_alike_with_or_without_their_word() {
    // Unnamed selectors are named as written, bare or not; streets written stay.
    let s = one("select avg(HvHEquity(hero, flop)), count(winsHi(hero)), equity(hero) from hero='AA', villain='KK'");
    let names: Vec<&str> = s.selectors.iter().map(|x| x.name.as_str()).collect();
    assert_eq!(names, ["avg(HvHEquity(hero, flop))", "count(winsHi(hero))", "equity(hero)"]);
    assert_eq!(s.game, Game::Holdem);
}
