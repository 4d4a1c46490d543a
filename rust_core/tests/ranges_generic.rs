//! The generic syntax (docs/language/ranges.md), with the hand counts of its terms.

use pql_core::cards::parse_cards;
use pql_core::games::Game;
use pql_core::range::{parse_range, Syntax};

fn count(text: &str, game: Game) -> usize {
    match parse_range(text, game, Syntax::Generic) {
        Ok(r) => r.len(),
        Err(e) => panic!("{text}: {}", e.message),
    }
}

#[test]
fn omaha_counts_of_the_spec() {
    let cases = [
        ("*", 270_725),
        ("ww", 242_164),
        ("wx", 267_865),
        ("www", 47_476),
        ("wwxx", 36_504),
        ("wwxy", 158_184),
        ("wxyz", 28_561),
        ("AA", 6_961),
        ("AwKw", 4_894),
        ("AwKx", 13_532),
        ("RR", 87_685),
        ("RRR", 2_509),
        ("RRRR", 13),
        ("RROO", 2_808),
        ("RRON", 82_368),
        ("RONP", 183_040),
        ("AcAdKwKx", 1),
        ("$0G", 2_560),
        ("$1G", 6_912),
        ("$2G", 6_144),
    ];
    for (text, n) in cases {
        assert_eq!(count(text, Game::OmahaHi), n, "{text}");
    }
}

#[test]
fn holdem_counts_of_the_spec() {
    for (text, n) in [("AwKw", 4), ("AxKy", 12), ("AK", 16), ("RR", 78), ("**", 1326), ("*", 1326)] {
        assert_eq!(count(text, Game::Holdem), n, "{text}");
    }
}

#[test]
fn lone_star_and_wildcards_are_full() {
    for g in [Game::Holdem, Game::OmahaHi, Game::ShortDeck] {
        let r = parse_range("*", g, Syntax::Generic).unwrap();
        assert!(r.is_full());
    }
    assert!(parse_range("****", Game::OmahaHi, Syntax::Generic).unwrap().is_full());
    assert_eq!(count("*", Game::ShortDeck), 630);
}

/// Counts hands of `k` cards from the 52-card deck satisfying `pred` on (rank, suit) pairs, with
/// ranks 0 = deuce .. 12 = ace: an independent brute force for the expectations below.
type Hand = [(u8, u8)];

fn brute(k: usize, pred: impl Fn(&Hand) -> bool) -> usize {
    fn rec(start: u8, k: usize, cur: &mut Vec<(u8, u8)>, pred: &dyn Fn(&Hand) -> bool, n: &mut usize) {
        if cur.len() == k {
            *n += usize::from(pred(cur));
            return;
        }
        for c in start..52 {
            cur.push((c / 4, c % 4));
            rec(c + 1, k, cur, pred, n);
            cur.pop();
        }
    }
    let mut n = 0;
    rec(0, k, &mut Vec::new(), &pred, &mut n);
    n
}

fn has(h: &[(u8, u8)], rank: u8) -> usize {
    h.iter().filter(|c| c.0 == rank).count()
}

fn suit_pattern(h: &[(u8, u8)]) -> Vec<usize> {
    let mut counts: Vec<usize> = (0..4).map(|s| h.iter().filter(|c| c.1 == s).count()).filter(|&n| n > 0).collect();
    counts.sort_unstable();
    counts
}

const A: u8 = 12;
const K: u8 = 11;
const Q: u8 = 10;
const J: u8 = 9;
const T: u8 = 8;

#[test]
fn slots_take_distinct_cards_and_leave_the_rest_free() {
    assert_eq!(count("AA", Game::Holdem), 6);
    assert_eq!(count("AA**", Game::OmahaHi), 6_961);
    assert_eq!(count("AAA", Game::OmahaHi), 193);
    assert_eq!(count("AA", Game::Omaha5Hi), brute(5, |h| has(h, A) >= 2));
    assert_eq!(count("sshh", Game::OmahaHi), 78 * 78);
    assert_eq!(count("ss", Game::Holdem), 78);
    assert_eq!(count("JJ!JJJ", Game::OmahaHi), 6 * 1128);
    assert_eq!(count("AA!AsAh", Game::Holdem), 5);
}

#[test]
fn variables_never_take_explicit_values_and_differ() {
    assert_eq!(count("AR", Game::Holdem), 4 * 48);
    assert_eq!(count("RO", Game::Holdem), 1326 - 78);
    assert_eq!(count("Asw", Game::Holdem), 51 - 12); // w is never spades
    assert_eq!(count("AwAx", Game::Holdem), 6);
    assert_eq!(count("KsRs", Game::Holdem), 12);
}

#[test]
fn single_slot_spans_lists_and_brackets() {
    assert_eq!(count("A-Q", Game::Holdem), 1326 - 780);
    assert_eq!(count("T+", Game::Holdem), 1326 - 496);
    assert_eq!(count("7-", Game::Holdem), 1326 - 378);
    assert_eq!(count("5c-", Game::Holdem), 1326 - 1128);
    assert_eq!(count("K[2s,Jc,T]", Game::Holdem), 4 + 4 + 16);
    assert_eq!(count("[A,2,3,4,5]", Game::Holdem), 1326 - 496);
    assert_eq!(
        count("[K-][T+][5c-][Jh]", Game::OmahaHi),
        brute(4, |h| {
            // a card <= K, a card >= T, a club <= 5, the Jh, all different: with Jh and the
            // club fixed, the other two must cover "<= K" and ">= T".
            let jh = h.iter().position(|&c| c == (J, 2));
            let club = h.iter().position(|&c| c.1 == 0 && c.0 <= 3);
            let (Some(jh), Some(club)) = (jh, club) else { return false };
            let rest: Vec<_> = (0..4).filter(|&i| i != jh && i != club).map(|i| h[i]).collect();
            (rest[0].0 <= K && rest[1].0 >= T) || (rest[1].0 <= K && rest[0].0 >= T)
        })
    );
    assert_eq!(count("$B$B", Game::Holdem), 120);
    assert_eq!(count("$W$W", Game::Holdem), 190);
}

#[test]
fn lockstep_spans_keep_the_shape() {
    assert_eq!(count("TT-77", Game::Holdem), 24);
    assert_eq!(count("77-TT", Game::Holdem), 24);
    assert_eq!(count("KQ-T9", Game::Holdem), 64);
    assert_eq!(count("T8-53", Game::Holdem), 96);
    assert_eq!(count("76c+", Game::Holdem), 8 * 4);
    assert_eq!(count("9876-", Game::OmahaHi), 5 * 256);
    // Top ranks Q down to 4 (rank indices 10 down to 2).
    let tops: Vec<u8> = (2..=Q).collect();
    assert_eq!(
        count("QJTc-", Game::OmahaHi),
        brute(4, |h| tops.iter().any(|&t| has(h, t) >= 1 && has(h, t - 1) >= 1 && h.contains(&(t - 2, 0))))
    );
    let e = parse_range("KQ-T8", Game::Holdem, Syntax::Generic).unwrap_err();
    assert_eq!(e.span.map(|s| (s.start, s.end)), Some((3, 5)));
}

#[test]
fn macros() {
    assert_eq!(count("AA$ds", Game::OmahaHi), brute(4, |h| has(h, A) >= 2 && suit_pattern(h) == vec![2, 2]));
    assert_eq!(count("**$np", Game::Holdem), 1326 - 78);
    assert_eq!(count("*$np", Game::OmahaHi), 183_040);
    assert_eq!(count("*$op", Game::OmahaHi), 82_368);
    assert_eq!(count("*$tp", Game::OmahaHi), 2_808);
    assert_eq!(count("*$nt", Game::OmahaHi), 270_725 - 2_509);
    assert_eq!(count("*$ss", Game::OmahaHi), 158_184);
    assert_eq!(count("$0G$ds", Game::OmahaHi), 10 * 36);
}

#[test]
fn weights() {
    let r = parse_range("AA@10, KK@8", Game::Holdem, Syntax::Generic).unwrap();
    assert!(r.is_weighted());
    assert_eq!(r.len(), 12);
    let mut w: Vec<u32> = r.weights().to_vec();
    w.sort_unstable();
    assert_eq!(w, [vec![8; 6], vec![10; 6]].concat());
    let r = parse_range("AA@3, AsAh@7", Game::Holdem, Syntax::Generic).unwrap();
    assert_eq!(r.weight_of(parse_cards("AsAh").unwrap()), 7);
    assert_eq!(r.weight_of(parse_cards("AsAd").unwrap()), 3);
    assert_eq!(r.weight_of(parse_cards("KsKd").unwrap()), 0);
    let r = parse_range("(AA,KK):xxyy@3", Game::OmahaHi, Syntax::Generic).unwrap();
    assert!(r.weights().iter().all(|&w| w == 3));
    assert_eq!(r.len(), brute(4, |h| (has(h, A) >= 2 || has(h, 11) >= 2) && suit_pattern(h) == vec![2, 2]));
    // A part without a weight has full weight beside weighted ones (as in every tool that
    // writes weights).
    let r = parse_range("AA@10, KK", Game::Holdem, Syntax::Generic).unwrap();
    assert_eq!(r.weight_of(parse_cards("AsAh").unwrap()), 10);
    assert_eq!(r.weight_of(parse_cards("KsKh").unwrap()), 100);
    assert_eq!(r.full_weight(), 100);
    assert!(!parse_range("AA, KK", Game::Holdem, Syntax::Generic).unwrap().is_weighted());
}

#[test]
fn membership_and_strings() {
    let r = parse_range("AwKw", Game::Holdem, Syntax::Generic).unwrap();
    assert!(r.contains_hand(&parse_cards("KsAs").unwrap().to_vec()));
    assert!(!r.contains_hand(&parse_cards("KsAh").unwrap().to_vec()));
    let mut s = r.to_strings();
    s.sort();
    assert_eq!(s, ["AcKc", "AdKd", "AhKh", "AsKs"]);
}

#[test]
fn omaha5_is_fast_enough_to_enumerate() {
    let n = brute(5, |h| has(h, A) >= 2);
    assert_eq!(count("AA**", Game::Omaha5Hi), n);
    assert_eq!(count("*", Game::Omaha5Hi), 2_598_960);
}

#[test]
fn errors_point_into_the_range() {
    let e = parse_range("AA:KK", Game::Holdem, Syntax::Generic).unwrap_err();
    assert!(e.message.contains("matches no hand"), "{}", e.message);
    assert!(e.message.contains("AA:KK"));
    let e = parse_range("AA, K1", Game::Holdem, Syntax::Generic).unwrap_err();
    assert_eq!(e.span.map(|s| s.start), Some(5));
    let e = parse_range("A[K,", Game::Holdem, Syntax::Generic).unwrap_err();
    assert_eq!(e.span.map(|s| s.start), Some(4));
    let e = parse_range("AA$xx", Game::OmahaHi, Syntax::Generic).unwrap_err();
    assert_eq!(e.span.map(|s| s.start), Some(2));
}

#[test]
fn picking_follows_the_weights() {
    use pql_core::rng::Rng;
    let r = parse_range("AA@10, KK@5, QQ@1", Game::Holdem, Syntax::Generic).unwrap();
    let total: u32 = r.weights().iter().sum();
    let draws = 160_000;
    let mut seen = vec![0u32; r.len()];
    let mut rng = Rng::new(11, 0);
    for _ in 0..draws {
        seen[r.pick(rng.unit()).unwrap()] += 1;
    }
    // Chi-square with 17 degrees of freedom; 40.79 is the 0.1% critical value.
    let chi2: f64 = seen
        .iter()
        .zip(r.weights())
        .map(|(&o, &w)| {
            let e = f64::from(draws) * f64::from(w) / f64::from(total);
            (f64::from(o) - e).powi(2) / e
        })
        .sum();
    assert!(chi2 < 40.79, "chi-square {chi2}");
    let u = parse_range("AK", Game::Holdem, Syntax::Generic).unwrap();
    assert_eq!(u.pick(0.0), Some(0));
    assert_eq!(u.pick(0.999_999), Some(15));
}

#[test]
fn suit_variables_are_lower_case_only() {
    // `Z` is a rank variable like R: a pair. `z` is a suit variable: two suited cards.
    assert_eq!(count("ZZ", Game::Holdem), 78);
    assert_eq!(count("zz", Game::Holdem), 312);
    assert_eq!(count("WX", Game::Holdem), count("RO", Game::Holdem));
    assert_eq!(count("AW", Game::Holdem), 4 * 48);
    assert_eq!(count("Ax", Game::Holdem), 4 * 51 - 6);
}

#[test]
fn a_term_with_more_cards_than_the_hand_is_an_error() {
    for (text, game, at) in [
        ("AwKwQw", Game::Holdem, (0, 6)),
        ("AA, KKQ", Game::Holdem, (4, 7)),
        ("AAKKQ", Game::OmahaHi, (0, 5)),
        ("AK$ds", Game::Holdem, (0, 5)),
        ("$0G", Game::ShortDeck, (0, 3)),
    ] {
        let e = parse_range(text, game, Syntax::Generic).unwrap_err();
        assert!(e.message.contains("cards, but a"), "{text}: {}", e.message);
        assert_eq!(e.span.map(|s| (s.start, s.end)), Some(at), "{text}");
    }
    assert_eq!(count("AAKKQ", Game::Omaha5Hi), count("AAKKQ", Game::Omaha85));
}

#[test]
fn holdem_class_words_are_refused_where_they_do_not_apply() {
    let cases = [
        ("AA, pair", Game::OmahaHi, Syntax::Classic, (4, 8)),
        ("AA, suited", Game::OmahaHi, Syntax::Classic, (4, 10)),
        ("AA, suited", Game::Holdem, Syntax::Generic, (4, 10)),
        ("15%:suited", Game::Holdem, Syntax::Generic, (4, 10)),
        ("group2-group5", Game::Omaha85, Syntax::Classic, (0, 13)),
        ("connected", Game::Omaha5Hi, Syntax::Generic, (0, 9)),
    ];
    for (text, game, syntax, at) in cases {
        let e = parse_range(text, game, syntax).unwrap_err();
        assert!(e.message.contains("hand class"), "{text}: {}", e.message);
        assert!(e.hint.is_some(), "{text}");
        assert_eq!(e.span.map(|s| (s.start, s.end)), Some(at), "{text}");
    }
    // In classic hold'em they are the classes, and Kx stays a king of suit x in generic.
    assert_eq!(parse_range("AA, pair", Game::Holdem, Syntax::Classic).unwrap().len(), 78);
    assert_eq!(count("Kx", Game::Holdem), 4 * 51 - 6);
}
