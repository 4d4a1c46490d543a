//! Nuts, outs and the analysis functions on hand-built deals: the function reference's and docs/analysis.md's
//! examples, and cross-checks on random deals against slow reference implementations.

use pql_core::cards::{parse_cards, Card, CardSet};
use pql_core::deal::source::{HandSource, SlotHand, WeightedList};
use pql_core::deal::Deal;
use pql_core::eval::{best_five_hi, HandType, HiRating};
use pql_core::games::{Game, Street};
use pql_core::kernels::showdown::Showdown;
use pql_core::plan::expr::{Builtin, HvrUse};
use pql_core::plan::value::Value;
use pql_core::rng::Rng;
use pql_core::trial::{Scratch, Trial};

fn cards(s: &str) -> CardSet {
    parse_cards(s).unwrap()
}

/// A flop-game deal: `board` gives the known cards; the rest of the five are filled with cards
/// nobody holds (they only matter on later streets).
fn deal(game: Game, hands: &[&str], board: &str, dead: &str) -> Deal {
    let mut d = Deal::new(game, hands.len());
    let mut used = cards(dead).union(cards(board));
    for (p, h) in hands.iter().enumerate() {
        d.hole[p] = cards(h);
        used = used.union(d.hole[p]);
    }
    let mut b: Vec<Card> = cards_in_order(board);
    let mut filler = game.deck().cards().minus(used).iter();
    while b.len() < 5 {
        b.push(filler.next().unwrap());
    }
    d.board.copy_from_slice(&b);
    d.dead = cards(dead);
    d
}

fn cards_in_order(s: &str) -> Vec<Card> {
    (0..s.len() / 2).map(|i| parse_cards(&s[2 * i..2 * i + 2]).unwrap().first().unwrap()).collect()
}

fn run<R>(d: &Deal, sources: &[HandSource], f: impl FnOnce(&mut Trial) -> R) -> R {
    let deck = d.game.deck().cards().minus(d.dead).to_vec();
    let mut scratch = Scratch::default();
    let mut t = Trial::new(d, &deck, &mut scratch).with_sources(sources);
    f(&mut t)
}

fn call(d: &Deal, b: &Builtin) -> Value {
    run(d, &[], |t| t.call(b))
}

fn num(v: &Value) -> f64 {
    v.as_f64()
}

#[test]
fn spec_nut_hi_examples() {
    let d = deal(Game::Holdem, &["Qs5s", "2c3d"], "JsKsAs", "");
    assert_eq!(call(&d, &Builtin::NutHi(0, Street::Flop)), Value::Bool(true));
    let d = deal(Game::Holdem, &["As2s", "2c3d"], "KsQsJs", "");
    assert_eq!(call(&d, &Builtin::NutHi(0, Street::Flop)), Value::Bool(false));
    let d = deal(Game::Holdem, &["As2s", "2c3d"], "KsQsJs", "Ts");
    assert_eq!(call(&d, &Builtin::NutHi(0, Street::Flop)), Value::Bool(true));
}

#[test]
fn spec_outs_to_hand_type_examples() {
    let d = deal(Game::Holdem, &["JsTh", "2d3d"], "9h8s2c", "");
    assert_eq!(call(&d, &Builtin::OutsToHandType(0, Street::Flop, HandType::Straight)), Value::Int(8));
    let d = deal(Game::Holdem, &["JsTh", "2d3d"], "9h8s2c", "7s");
    assert_eq!(call(&d, &Builtin::OutsToHandType(0, Street::Flop, HandType::Straight)), Value::Int(7));
    let d = deal(Game::Holdem, &["Th9h", "AdAc"], "8h7h2c3c", "");
    assert_eq!(call(&d, &Builtin::OutsToHandType(0, Street::Turn, HandType::Straight)), Value::Int(6));
}

#[test]
fn spec_nut_hi_for_hand_type_example() {
    let d = deal(Game::Holdem, &["AsKh", "2c3c"], "AdTd2d", "");
    assert_eq!(call(&d, &Builtin::NutHiForHandType(0, Street::Flop)), Value::Bool(true));
    // A-Q has a pair of aces too, but A-K is a better one.
    let d = deal(Game::Holdem, &["AsQh", "2c3c"], "AdTd2d", "");
    assert_eq!(call(&d, &Builtin::NutHiForHandType(0, Street::Flop)), Value::Bool(false));
    assert_eq!(call(&d, &Builtin::NutHi(0, Street::Flop)), Value::Bool(false));
}

#[test]
fn cards_play_and_flop_category() {
    let d = deal(Game::Holdem, &["2c3d", "AsKs"], "AhKhQhJhTh", "");
    assert_eq!(call(&d, &Builtin::CardsPlay(0, Street::River)), Value::Int(0));
    let d = deal(Game::Holdem, &["AsKd", "2c3d"], "Ah7c2d", "");
    assert_eq!(
        call(&d, &Builtin::FlopHandCategory(0)),
        Value::FlopCat(pql_core::eval::FlopHandCategory::TopPair as u8)
    );
}

/// docs/analysis.md: A♦Q♣ on 3♥4♣J♥ against one random opponent.
#[test]
fn analysis_example_through_the_engine() {
    let d = deal(Game::Holdem, &["AdQc", "7s7d"], "3h4cJh", "");
    let hs = num(&call(&d, &Builtin::HandStrength(0, Street::Flop, false)));
    assert!((hs - 0.5851).abs() < 5e-5, "{hs}");
    let ppot = num(&call(&d, &Builtin::PositivePotential(0, Street::Flop, false)));
    let npot = num(&call(&d, &Builtin::NegativePotential(0, Street::Flop, false)));
    let ppot1 = num(&call(&d, &Builtin::PositivePotential1(0, Street::Flop, false)));
    assert!((ppot - 0.2083).abs() < 5e-5, "{ppot}");
    assert!((npot - 0.2737).abs() < 5e-5, "{npot}");
    assert!((ppot1 - 0.1083).abs() < 5e-5, "{ppot1}");
    let ehs = num(&call(&d, &Builtin::EffectiveHandStrength(0, Street::Flop, false)));
    assert!((ehs - (hs + (1.0 - hs) * ppot)).abs() < 1e-12);
    // With two random opponents hand strength is joint (issue 19), not HS₁ squared: being best
    // against both at once is rarer than against each (analysis::joint checks it by brute force).
    let d3 = deal(Game::Holdem, &["AdQc", "7s7d", "8s8d"], "3h4cJh", "");
    let hs3 = num(&call(&d3, &Builtin::HandStrength(0, Street::Flop, false)));
    assert!(hs3 > 0.0 && hs3 < hs && (hs3 - hs * hs).abs() > 1e-3, "{hs3} {hs}");
}

/// Exact equity of `hand` against a uniformly random opponent: every holding, every completion.
fn brute_equity_vs_random(game: Game, hand: CardSet, board: CardSet, weights: &dyn Fn(CardSet) -> f64) -> f64 {
    let unseen: Vec<Card> = game.deck().cards().minus(hand).minus(board).iter().collect();
    let need = 5 - board.len() as usize;
    let (mut total, mut weight) = (0.0, 0.0);
    for i in 0..unseen.len() {
        for j in i + 1..unseen.len() {
            let h = CardSet::EMPTY.with(unseen[i]).with(unseen[j]);
            let w = weights(h);
            if w == 0.0 {
                continue;
            }
            let rest: Vec<Card> = unseen.iter().copied().filter(|c| !h.contains(*c)).collect();
            each_subset(&rest, need, board, &mut |full| {
                total += w * Showdown::new(game, &[hand, h], full).share(0);
                weight += w;
            });
        }
    }
    total / weight
}

fn each_subset(cards: &[Card], k: usize, acc: CardSet, f: &mut dyn FnMut(CardSet)) {
    if k == 0 {
        f(acc);
        return;
    }
    for i in 0..cards.len() {
        each_subset(&cards[i + 1..], k - 1, acc.with(cards[i]), f);
    }
}

/// Showdown hand strength heads-up with uniform weights equals the exact all-in equity against a
/// random hand (a self-check of the definitions in docs/analysis.md), and so does `HvREquity` against a random opponent.
#[test]
fn showdown_hand_strength_is_equity_against_a_random_hand() {
    for (hand, board) in [("AdQc", "3h4cJh5s"), ("7h6h", "8h9cKd2h"), ("KsKd", "As7c2dQh")] {
        let d = deal(Game::Holdem, &[hand, "2c2s"], board, "");
        let exact = brute_equity_vs_random(Game::Holdem, cards(hand), cards(board), &|_| 1.0);
        let shs = num(&call(&d, &Builtin::ShowdownHandStrength(0, Street::Turn, false)));
        assert!((shs - exact).abs() < 1e-9, "{hand} on {board}: {shs} vs {exact}");
        let hvr = num(&call(&d, &Builtin::HvREquity(0, Street::Turn, HvrUse { repeats: false, averaged: false })));
        assert!((hvr - exact).abs() < 1e-9, "{hand} on {board}: HvR {hvr} vs {exact}");
    }
}

#[test]
fn showdown_hand_strength_on_the_flop_matches_exact_equity() {
    let d = deal(Game::Holdem, &["AdQc", "2c2s"], "3h4cJh", "");
    let exact = brute_equity_vs_random(Game::Holdem, cards("AdQc"), cards("3h4cJh"), &|_| 1.0);
    let shs = num(&call(&d, &Builtin::ShowdownHandStrength(0, Street::Flop, false)));
    assert!((shs - exact).abs() < 1e-9, "{shs} vs {exact}");
    // HvREquity enumerates the flop too when hand and board repeat (1,081 holdings, the
    // rank-table fast path each).
    let hvr = num(&call(&d, &Builtin::HvREquity(0, Street::Flop, HvrUse { repeats: true, averaged: false })));
    assert!((hvr - exact).abs() < 1e-9, "{hvr} vs {exact}");
}

fn weighted_range(hands: &[(&str, u32)]) -> HandSource {
    let items = hands.iter().map(|(h, _)| SlotHand::from_set(cards(h))).collect();
    HandSource::Range(WeightedList::weighted(items, hands.iter().map(|&(_, w)| w).collect()))
}

#[test]
fn equity_against_a_weighted_range() {
    let range = [("AsAd", 10), ("KsKd", 5), ("QhJh", 1), ("7c7d", 3), ("AhKh", 2)];
    let source = weighted_range(&range);
    let weight_of = |h: CardSet| range.iter().find(|(x, _)| cards(x) == h).map_or(0.0, |&(_, w)| f64::from(w));
    // p holds Ac: the AsAd combo is still possible, AhKh too; the turn is known.
    let d = deal(Game::Holdem, &["Ac9c", "KsKd"], "9h8c2h3s", "");
    let exact = brute_equity_vs_random(Game::Holdem, cards("Ac9c"), cards("9h8c2h3s"), &weight_of);
    let got = run(&d, &[HandSource::Random, source.clone()], |t| {
        num(&t.call(&Builtin::HvREquity(0, Street::Turn, HvrUse { repeats: false, averaged: false })))
    });
    assert!((got - exact).abs() < 1e-9, "{got} vs {exact}");
    let perceived = std::sync::Arc::new(source);
    let got = num(&call(
        &d,
        &Builtin::HvPerceivedRangeEquity(
            0,
            Street::Turn,
            perceived.clone(),
            HvrUse { repeats: false, averaged: false },
        ),
    ));
    assert!((got - exact).abs() < 1e-9, "{got} vs {exact}");
    // The flop is enumerated too (five hands × 45 × 44 / 2 completions).
    let exact = brute_equity_vs_random(Game::Holdem, cards("Ac9c"), cards("9h8c2h"), &weight_of);
    let got = num(&call(
        &d,
        &Builtin::HvPerceivedRangeEquity(0, Street::Flop, perceived, HvrUse { repeats: false, averaged: false }),
    ));
    assert!((got - exact).abs() < 1e-9, "{got} vs {exact}");
}

#[test]
fn hand_strength_against_a_weighted_range() {
    let range = [("AsAd", 10), ("KsKd", 5), ("QhJh", 1), ("7c7d", 3)];
    let d = deal(Game::Holdem, &["Ac9c", "KsKd"], "9h8c2h", "");
    let hs = run(&d, &[HandSource::Random, weighted_range(&range)], |t| t.hand_strength(0, Street::Flop, false));
    // p's pair of nines is ahead of Q-J (weight 1) and 7-7 (3), behind A-A (10) and K-K (5).
    let expected = (1.0 + 3.0) / (10.0 + 5.0 + 1.0 + 3.0);
    assert!((hs - expected).abs() < 1e-12, "{hs} vs {expected}");
}

#[test]
fn draws_and_max_hi_rating() {
    let d = deal(Game::Holdem, &["8h7h", "AsAd"], "6h5hKd", "");
    assert_eq!(call(&d, &Builtin::FlushDrawCount(0, Street::Flop)), Value::Int(9));
    assert_eq!(call(&d, &Builtin::FlushDraw(0, Street::Flop)), Value::Bool(true));
    assert_eq!(call(&d, &Builtin::StraightDrawCount(0, Street::Flop)), Value::Int(6));
    assert_eq!(call(&d, &Builtin::OpenEndedStraightDraw(0, Street::Flop)), Value::Bool(true));
    assert_eq!(call(&d, &Builtin::GutshotStraightDraw(0, Street::Flop)), Value::Bool(false));
    assert_eq!(call(&d, &Builtin::BackdoorFlushDraw(0, Street::Flop)), Value::Bool(false));
    // Outs against aces: the nine hearts and the six other nines and fours (straight), minus
    // none held by the aces: 15.
    assert_eq!(call(&d, &Builtin::Outs(0, Street::Flop)), Value::Int(15));
    assert_eq!(call(&d, &Builtin::MaxHiRating(1, Street::Flop)), Value::Bool(true));
    assert_eq!(call(&d, &Builtin::MaxHiRating(0, Street::Flop)), Value::Bool(false));
    // No draws on the river.
    assert_eq!(call(&d, &Builtin::Outs(0, Street::River)), Value::Int(0));
}

#[test]
fn draw_counts_leave_out_the_cards_other_players_hold() {
    // docs/analysis.md's unseen cards exclude every player's cards: with Ah and 9c held by the
    // villain, 8h7h on 6h5hKd has eight flush cards and five straight cards (9s 9d 4s 4c 4d).
    let d = deal(Game::Holdem, &["8h7h", "Ah9c"], "6h5hKd", "");
    assert_eq!(call(&d, &Builtin::FlushDrawCount(0, Street::Flop)), Value::Int(8));
    assert_eq!(call(&d, &Builtin::StraightDrawCount(0, Street::Flop)), Value::Int(5));
}

// ---- Cross-checks against slow references on random deals. ----

fn random_deal(game: Game, players: usize, rng: &mut Rng) -> Deal {
    let mut deck: Vec<Card> = game.deck().cards().iter().collect();
    for i in (1..deck.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        deck.swap(i, j);
    }
    let mut d = Deal::new(game, players);
    let mut it = deck.into_iter();
    for p in 0..players {
        if game.is_stud() {
            for i in 0..7 {
                d.stud[p][i] = it.next().unwrap();
            }
            d.hole[p] = d.stud[p].iter().copied().collect();
        } else {
            d.hole[p] = (0..game.hole_cards()).map(|_| it.next().unwrap()).collect();
        }
    }
    if !game.is_stud() {
        for i in 0..5 {
            d.board[i] = it.next().unwrap();
        }
    }
    d
}

/// Best hi of `hole` with `board` by trying every five-card choice the game allows.
fn slow_hi(game: Game, hole: CardSet, board: CardSet) -> HiRating {
    best_five_hi(game, hole, board).map_or(HiRating::NONE, |(r, _)| r)
}

/// nutHi by brute force: every holding of the game's size an opponent could have.
fn slow_nut_hi(d: &Deal, p: usize, street: Street) -> bool {
    let board = d.board_at(street);
    let mine = slow_hi(d.game, d.hole[p], board);
    let unseen: Vec<Card> = d.game.deck().cards().minus(d.hole[p]).minus(board).minus(d.dead).iter().collect();
    let mut nut = true;
    each_subset(&unseen, 2, CardSet::EMPTY, &mut |h| {
        // Omaha: the other holding cards do not matter for the best hand using two of them.
        if slow_hi(d.game, h, board) > mine {
            nut = false;
        }
    });
    nut
}

#[test]
fn nut_hi_matches_brute_force_on_random_deals() {
    let mut rng = Rng::new(42, 0);
    for game in [Game::Holdem, Game::OmahaHi, Game::ShortDeck] {
        let mut nuts = 0;
        for _ in 0..25 {
            let d = random_deal(game, 2, &mut rng);
            for street in [Street::Flop, Street::Turn, Street::River] {
                let expected = slow_nut_hi(&d, 0, street);
                nuts += usize::from(expected);
                assert_eq!(call(&d, &Builtin::NutHi(0, street)), Value::Bool(expected), "{game:?} {d:?} {street}");
            }
        }
        eprintln!("{game:?}: {nuts} nut hands of 75");
    }
}

/// nutHiForHandType by brute force: no holding makes a better hand of p's type.
fn slow_nut_for_type(d: &Deal, p: usize, street: Street) -> bool {
    let board = d.board_at(street);
    let mine = slow_hi(d.game, d.hole[p], board);
    let unseen: Vec<Card> = d.game.deck().cards().minus(d.hole[p]).minus(board).minus(d.dead).iter().collect();
    let mut nut = true;
    each_subset(&unseen, 2, CardSet::EMPTY, &mut |h| {
        let r = slow_hi(d.game, h, board);
        if r.hand_type() == mine.hand_type() && r > mine {
            nut = false;
        }
    });
    nut
}

#[test]
fn nut_hi_for_hand_type_matches_brute_force() {
    let mut rng = Rng::new(43, 0);
    for game in [Game::Holdem, Game::OmahaHi] {
        let mut trues = 0;
        for _ in 0..25 {
            let d = random_deal(game, 2, &mut rng);
            for street in [Street::Flop, Street::River] {
                let expected = slow_nut_for_type(&d, 0, street);
                trues += usize::from(expected);
                assert_eq!(call(&d, &Builtin::NutHiForHandType(0, street)), Value::Bool(expected), "{d:?} {street}");
            }
        }
        // Both answers occur, so the comparison means something.
        assert!(trues > 0 && trues < 50, "{game:?}: {trues}");
    }
}

/// outsToHandType by trying every card that can still come.
fn slow_outs_to_type(d: &Deal, p: usize, street: Street, t: HandType) -> i64 {
    let board = d.board_at(street);
    let now = slow_hi(d.game, d.hole[p], board);
    let mut used = d.dead.union(board);
    for q in 0..d.players {
        used = used.union(d.hole[q]);
    }
    d.game
        .deck()
        .cards()
        .minus(used)
        .iter()
        .filter(|&c| {
            let next = slow_hi(d.game, d.hole[p], board.with(c));
            next.hand_type() == t && next > now
        })
        .count() as i64
}

#[test]
fn outs_match_trying_every_card() {
    let mut rng = Rng::new(7, 0);
    for game in [Game::Holdem, Game::OmahaHi] {
        for _ in 0..20 {
            let d = random_deal(game, 3, &mut rng);
            for street in [Street::Flop, Street::Turn] {
                for t in [HandType::Pair, HandType::TwoPair, HandType::Straight, HandType::Flush, HandType::FullHouse] {
                    let expected = slow_outs_to_type(&d, 1, street, t);
                    assert_eq!(call(&d, &Builtin::OutsToHandType(1, street, t)), Value::Int(expected), "{d:?}");
                }
            }
        }
    }
}

/// nutHiOuts: the next cards after which p's hand is the nuts by brute force.
#[test]
fn nut_hi_outs_match_brute_force() {
    let mut rng = Rng::new(9, 0);
    for _ in 0..6 {
        let d = random_deal(Game::Holdem, 2, &mut rng);
        let board = d.board_at(Street::Flop);
        let used = d.hole[0].union(d.hole[1]).union(board);
        let mut expected = 0;
        for c in Game::Holdem.deck().cards().minus(used) {
            let mut d2 = d.clone();
            d2.board[3] = c;
            if slow_nut_hi(&d2, 0, Street::Turn) {
                expected += 1;
            }
        }
        assert_eq!(call(&d, &Builtin::NutHiOuts(0, Street::Flop)), Value::Int(expected), "{d:?}");
    }
}

#[test]
fn stud_nut_hi_uses_the_visible_up_cards() {
    let mut d = Deal::new(Game::StudHi, 2);
    // p: trip aces by fifth street (Ah up); the opponent shows K-K-K up: quads are possible.
    let p0 = ["As", "Ad", "Ah", "2c", "3d", "4s", "5s"];
    let p1 = ["7c", "8c", "Kc", "Kd", "Kh", "9s", "Td"];
    for i in 0..7 {
        d.stud[0][i] = cards(p0[i]).first().unwrap();
        d.stud[1][i] = cards(p1[i]).first().unwrap();
    }
    d.hole[0] = d.stud[0].iter().copied().collect();
    d.hole[1] = d.stud[1].iter().copied().collect();
    // Fifth street: the opponent's kings make trips (Ks is unseen: quads possible).
    assert_eq!(call(&d, &Builtin::NutHi(0, Street::Fifth)), Value::Bool(false));
    // Third street: the opponent shows one king; p's three aces are the nuts.
    assert_eq!(call(&d, &Builtin::NutHi(0, Street::Third)), Value::Bool(true));
}

#[test]
fn stud_equity_on_sixth_street_is_exact() {
    let mut d = Deal::new(Game::StudHi, 2);
    let p0 = ["6h", "5d", "8h", "7c", "6c", "Jh", "3d"];
    let p1 = ["2d", "4d", "Jd", "Kc", "9s", "Js", "Qc"];
    for i in 0..7 {
        d.stud[0][i] = cards(p0[i]).first().unwrap();
        d.stud[1][i] = cards(p1[i]).first().unwrap();
    }
    d.hole[0] = d.stud[0].iter().copied().collect();
    d.hole[1] = d.stud[1].iter().copied().collect();
    // Every pair of distinct seventh cards, one each, by brute force.
    let sixth = |p: usize| d.stud[p][..6].iter().copied().collect::<CardSet>();
    let rest: Vec<Card> = CardSet::FULL.minus(sixth(0)).minus(sixth(1)).iter().collect();
    let (mut total, mut n) = (0.0, 0.0);
    for &a in &rest {
        for &b in rest.iter().filter(|&&b| b != a) {
            total += Showdown::new(Game::StudHi, &[sixth(0).with(a), sixth(1).with(b)], CardSet::EMPTY).share(0);
            n += 1.0;
        }
    }
    let e = num(&call(&d, &Builtin::HvHEquity(0, Street::Sixth)));
    assert!((e - total / n).abs() < 1e-12, "{e} vs {}", total / n);
}

#[test]
fn stud_hand_strength_sees_the_up_cards() {
    let mut d = Deal::new(Game::StudHi, 2);
    let p0 = ["As", "Ad", "7h", "2c", "3d", "4s", "5s"];
    let p1 = ["8c", "9c", "Kc", "Jd", "Th", "9s", "Td"];
    for i in 0..7 {
        d.stud[0][i] = cards(p0[i]).first().unwrap();
        d.stud[1][i] = cards(p1[i]).first().unwrap();
    }
    d.hole[0] = d.stud[0].iter().copied().collect();
    d.hole[1] = d.stud[1].iter().copied().collect();
    let hs = num(&call(&d, &Builtin::HandStrength(0, Street::Third, false)));
    // Third street: p has aces with a seven; the opponent shows Kc. Of its C(48, 2) possible
    // down cards (52 minus p's three and the Kc), p is behind K-K (three kings: 3 holdings) and
    // Ah-Ac (aces with a king: 1 holding), and ahead of everything else.
    let total = 48.0 * 47.0 / 2.0;
    let expected = (total - 4.0) / total;
    assert!((hs - expected).abs() < 1e-12, "{hs} vs {expected}");
}

/// p's exact share against a weighted list of holdings by a showdown per completion.
fn brute_equity_vs_list(game: Game, hand: CardSet, board: CardSet, list: &[(&str, u32)]) -> f64 {
    let (mut total, mut weight) = (0.0, 0.0);
    for &(h, w) in list {
        let h = cards(h);
        if h.overlaps(hand) || h.overlaps(board) {
            continue;
        }
        let rest: Vec<Card> = game.deck().cards().minus(hand).minus(board).minus(h).iter().collect();
        each_subset(&rest, 5 - board.len() as usize, board, &mut |full| {
            total += f64::from(w) * Showdown::new(game, &[hand, h], full).share(0);
            weight += f64::from(w);
        });
    }
    total / weight
}

#[test]
fn omaha_equity_against_a_weighted_range_is_exact() {
    let range = [("AhKhQcJc", 4), ("8s8d7c6c", 2), ("As2s3d4d", 7), ("KdKcTs9s", 1)];
    for game in [Game::OmahaHi, Game::Omaha8] {
        let d = deal(game, &["Ac2c5h6h", "KdKcTs9s"], "3h4h9dJs", "");
        let source = std::sync::Arc::new(weighted_range(&range));
        for (street, board) in [(Street::Flop, "3h4h9d"), (Street::Turn, "3h4h9dJs")] {
            let exact = brute_equity_vs_list(game, cards("Ac2c5h6h"), cards(board), &range);
            let got = num(&call(
                &d,
                &Builtin::HvPerceivedRangeEquity(0, street, source.clone(), HvrUse { repeats: false, averaged: false }),
            ));
            assert!((got - exact).abs() < 1e-9, "{game:?} {street}: {got} vs {exact}");
        }
    }
}

#[test]
fn potential_against_two_equal_ranges_is_joint_not_heads_up() {
    let range = [("AsAd", 10), ("KsKd", 5), ("QhJh", 1), ("7c7d", 3), ("6h5h", 2)];
    let d2 = deal(Game::Holdem, &["Ac9c", "KsKd"], "9h8c2h", "");
    let d3 = deal(Game::Holdem, &["Ac9c", "KsKd", "2c2d"], "9h8c2h", "");
    let one = [HandSource::Random, weighted_range(&range)];
    let two = [HandSource::Random, weighted_range(&range), weighted_range(&range)];
    let heads_up = run(&d2, &one, |t| t.potential(0, Street::Flop, pql_core::analysis::Lookahead::River, false));
    let field = run(&d3, &two, |t| t.potential(0, Street::Flop, pql_core::analysis::Lookahead::River, false));
    // Joint against the field (issue 19): two opponents from the range, dealt together, are not
    // one opponent of it.
    assert!((heads_up.positive - field.positive).abs() > 1e-6 || (heads_up.negative - field.negative).abs() > 1e-6);
    // Against this range p is behind A-A and K-K and ahead of the rest, so both potentials are
    // strictly between 0 and 1.
    assert!(heads_up.positive > 0.0 && heads_up.positive < 1.0 && heads_up.negative > 0.0 && heads_up.negative < 1.0);
}

#[test]
fn equities_remembered_for_the_other_players_match_their_own() {
    let mut rng = Rng::new(77, 0);
    for game in [Game::Holdem, Game::OmahaHi, Game::Omaha8] {
        let d = random_deal(game, 3, &mut rng);
        for street in [Street::Flop, Street::Turn] {
            // In one trial: seat 0 first, the others from the memo; then each seat alone.
            let together: Vec<f64> =
                run(&d, &[], |t| (0..3).map(|q| num(&t.call(&Builtin::HvHEquity(q, street)))).collect());
            for (q, &e) in together.iter().enumerate() {
                let alone = num(&call(&d, &Builtin::HvHEquity(q, street)));
                assert!((e - alone).abs() < 1e-12, "{game:?} {street} seat {q}");
            }
            assert!((together.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        }
    }
}

// ---- The fast paths of nuts and outs (issue 16) against brute force. ----

/// nutLo by brute force: every two unseen cards an opponent could hold, rated with the board.
fn slow_nut_lo(d: &Deal, p: usize, street: Street) -> bool {
    use pql_core::eval::{omaha_lo8, OmahaBoard, OmahaHole};
    let board = d.board_at(street);
    let Some(mine) = omaha_lo8(&OmahaHole::new(d.hole[p]), &OmahaBoard::new(board)) else {
        return false;
    };
    let unseen: Vec<Card> = d.game.deck().cards().minus(d.hole[p]).minus(board).minus(d.dead).iter().collect();
    let mut nut = true;
    each_subset(&unseen, 2, CardSet::EMPTY, &mut |h| {
        if omaha_lo8(&OmahaHole::new(h), &OmahaBoard::new(board)).is_some_and(|r| r > mine) {
            nut = false;
        }
    });
    nut
}

/// A deal whose board is mostly of one suit (flush draws and made flushes are where the rank
/// classes of the fast path need their correction), with a dead card now and then.
fn suited_deal(game: Game, rng: &mut Rng) -> Deal {
    let mut d = random_deal(game, 2, rng);
    let suit = rng.below(4) as u8;
    let mut used: CardSet = d.hole[0].union(d.hole[1]);
    let mut board = Vec::new();
    for i in 0..5 {
        let want_suit = i < 4 && rng.below(3) > 0;
        let pick =
            game.deck().cards().minus(used).iter().filter(|c| !want_suit || c.suit() == suit).collect::<Vec<_>>();
        let c = pick[rng.below(pick.len() as u64) as usize];
        used.insert(c);
        board.push(c);
    }
    d.board.copy_from_slice(&board);
    if rng.below(3) == 0 {
        let left: Vec<Card> = game.deck().cards().minus(used).iter().collect();
        d.dead = CardSet::EMPTY.with(left[rng.below(left.len() as u64) as usize]);
    }
    d
}

/// The deal with its suits renamed by `map` (suit s becomes map[s]).
fn renamed(d: &Deal, map: [u8; 4]) -> Deal {
    let card = |c: Card| Card::new(c.rank(), map[usize::from(c.suit())]);
    let set = |s: CardSet| s.iter().map(card).collect::<CardSet>();
    let mut r = d.clone();
    for p in 0..d.players {
        r.hole[p] = set(d.hole[p]);
    }
    for i in 0..5 {
        r.board[i] = card(d.board[i]);
    }
    r.dead = set(d.dead);
    r
}

/// nutHi, nutHiOuts and nutLo on suited and random boards, hold'em, short deck and Omaha, each
/// deal and a suit-renamed copy asked of one worker's scratch (so that the second is answered
/// from the suit-canonical cache): the brute-force answers every time.
#[test]
fn nut_fast_paths_and_their_cache_match_brute_force() {
    let mut rng = Rng::new(16, 0);
    let deck_of = |d: &Deal| d.game.deck().cards().minus(d.dead).to_vec();
    let (mut nuts, mut outs_total) = (0, 0);
    for game in [Game::Holdem, Game::ShortDeck, Game::OmahaHi, Game::Omaha8] {
        let mut scratch = Scratch::default();
        for i in 0..24 {
            let d = if i % 3 == 0 { random_deal(game, 2, &mut rng) } else { suited_deal(game, &mut rng) };
            let map = [[1, 0, 2, 3], [3, 2, 1, 0], [0, 1, 2, 3], [2, 3, 0, 1]][i % 4];
            for d in [d.clone(), renamed(&d, map)] {
                let deck = deck_of(&d);
                for street in [Street::Flop, Street::Turn, Street::River] {
                    let expected = slow_nut_hi(&d, 0, street);
                    nuts += usize::from(expected);
                    let mut t = Trial::new(&d, &deck, &mut scratch);
                    assert_eq!(t.call(&Builtin::NutHi(0, street)), Value::Bool(expected), "{game:?} {d:?} {street}");
                    if game == Game::Omaha8 {
                        let lo = slow_nut_lo(&d, 0, street);
                        assert_eq!(t.call(&Builtin::NutLo(0, street)), Value::Bool(lo), "{d:?} {street}");
                    }
                }
                for street in [Street::Flop, Street::Turn] {
                    let known = d.board_at(street);
                    let used = d.hole[0].union(d.hole[1]).union(known).union(d.dead);
                    let mut expected = 0;
                    for c in game.deck().cards().minus(used) {
                        let mut d2 = d.clone();
                        // The next street's card: the other board cards are not seen then.
                        let pos = known.len() as usize;
                        let mut board: Vec<Card> = d.board[..pos].to_vec();
                        board.push(c);
                        let rest: Vec<Card> =
                            game.deck().cards().minus(used).minus(CardSet::EMPTY.with(c)).iter().collect();
                        board.extend(rest.iter().take(4 - pos));
                        d2.board.copy_from_slice(&board);
                        if slow_nut_hi(&d2, 0, if pos == 3 { Street::Turn } else { Street::River }) {
                            expected += 1;
                        }
                    }
                    outs_total += expected;
                    let mut t = Trial::new(&d, &deck, &mut scratch);
                    assert_eq!(t.call(&Builtin::NutHiOuts(0, street)), Value::Int(expected), "{game:?} {d:?} {street}");
                }
            }
        }
    }
    // Both answers occur, so the comparisons mean something.
    assert!(nuts > 0 && outs_total > 0, "{nuts} nuts, {outs_total} outs");
}

/// Every suit variant of each two-rank hand, with a weight per rank pair: a range no renaming of
/// the suits changes (as `20%` is).
fn symmetric_range(pairs: &[(&str, u32)]) -> HandSource {
    let mut hands = Vec::new();
    for &(ranks, w) in pairs {
        let r: Vec<char> = ranks.chars().collect();
        for a in ['c', 'd', 'h', 's'] {
            for b in ['c', 'd', 'h', 's'] {
                if r[0] == r[1] && a >= b {
                    continue;
                }
                hands.push((format!("{}{a}{}{b}", r[0], r[1]), w));
            }
        }
    }
    let refs: Vec<(&str, u32)> = hands.iter().map(|(h, w)| (h.as_str(), *w)).collect();
    weighted_range(&refs)
}

/// Hand strength and potential kept under the suits' canonical names (issue 16): a deal and its
/// renamings asked of one scratch give what a fresh scratch computes for each, against a
/// symmetric weighted range, a random hand, and a range that tells suits apart (kept by the
/// deal's own suits).
#[test]
fn hand_strength_and_potential_cached_by_suit_class_match_fresh_values() {
    let symmetric = symmetric_range(&[("AK", 3), ("QQ", 2), ("T9", 1), ("55", 4)]);
    let lopsided = weighted_range(&[("AsKs", 3), ("QhQd", 2), ("Tc9c", 1), ("5s5h", 4), ("AdKh", 1)]);
    let mut rng = Rng::new(161, 0);
    for villain in [symmetric, HandSource::Random, lopsided] {
        let sources = [HandSource::Random, villain];
        let mut scratch = Scratch::default();
        for i in 0..12 {
            let d =
                if i % 2 == 0 { random_deal(Game::Holdem, 2, &mut rng) } else { suited_deal(Game::Holdem, &mut rng) };
            let map = [[1, 0, 2, 3], [3, 2, 1, 0], [2, 3, 0, 1]][i % 3];
            for d in [d.clone(), renamed(&d, map)] {
                let deck = d.game.deck().cards().minus(d.dead).to_vec();
                for street in [Street::Flop, Street::Turn] {
                    let fresh = run(&d, &sources, |t| {
                        (t.hand_strength(0, street, false), t.call(&Builtin::PositivePotential(0, street, false)))
                    });
                    let mut t = Trial::new(&d, &deck, &mut scratch).with_sources(&sources);
                    let kept =
                        (t.hand_strength(0, street, false), t.call(&Builtin::PositivePotential(0, street, false)));
                    assert_eq!(kept.0.to_bits(), fresh.0.to_bits(), "{d:?} {street}");
                    assert_eq!(kept.1, fresh.1, "{d:?} {street}");
                }
            }
        }
    }
}
