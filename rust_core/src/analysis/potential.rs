//! Hand potential (Loki): how often the cards to come turn p's hand from behind to ahead
//! (positive) or from ahead to behind (negative), against a weighted field of holdings.

use super::{draw_cards, HiRater, Holding};
use crate::cards::{binomial, for_each_combination, Card, CardSet};
use crate::eval::{biased_flush_suit, hi_table, keys_of, rank_key, BoardRankSlots, SevenCards, FLUSH_BITS, SUIT_BIAS};
use crate::games::Game;
use crate::rng::Rng;
use std::cmp::Ordering;

/// How far the board is completed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lookahead {
    /// The next card only.
    OneCard,
    /// Every card to the river.
    River,
}

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Potential {
    pub positive: f64,
    pub negative: f64,
}

/// Pairs (holding, completion) enumerated exactly up to this many: hold'em on the flop looking
/// to the river (1,081 × 990) fits; beyond, [`POTENTIAL_SAMPLES`] pairs are drawn instead.
pub const POTENTIAL_BUDGET: f64 = 1_200_000.0;
/// Pairs drawn (holding by weight, completion uniformly) when the enumeration is too large.
pub const POTENTIAL_SAMPLES: usize = 20_000;

pub(super) const AHEAD: usize = 0;
pub(super) const TIED: usize = 1;
pub(super) const BEHIND: usize = 2;

fn state(order: Ordering) -> usize {
    match order {
        Ordering::Greater => AHEAD,
        Ordering::Equal => TIED,
        Ordering::Less => BEHIND,
    }
}

/// p's `hand` with `board`, against `holdings` (none sharing a card with the hand or board),
/// with `need` more board cards drawn from `unseen` (the cards p cannot see). Exact when the
/// enumeration fits [`POTENTIAL_BUDGET`], otherwise sampled with `rng`.
pub fn potential(
    game: Game,
    hand: CardSet,
    board: CardSet,
    holdings: &[Holding],
    unseen: &[Card],
    need: usize,
    rng: &mut Rng,
) -> Potential {
    if need == 0 || holdings.is_empty() {
        return Potential::default();
    }
    let now_rater = HiRater::new(game, board);
    let mine_now = now_rater.rate(hand);
    let now: Vec<u8> = holdings.iter().map(|h| state(mine_now.cmp(&now_rater.rate(h.cards))) as u8).collect();
    // hp[now][final], weighted.
    let mut hp = [[0.0f64; 3]; 3];
    let pairs = holdings.len() as f64 * binomial(unseen.len(), need);
    if pairs <= POTENTIAL_BUDGET {
        if !by_board_rows(game, hand, board, holdings, &now, unseen, need, &mut hp) {
            every_pair(game, hand, board, holdings, &now, unseen, need, &mut hp);
        }
    } else {
        let mut cumulative = Vec::with_capacity(holdings.len());
        let mut total = 0.0;
        for h in holdings {
            total += h.weight;
            cumulative.push(total);
        }
        if total <= 0.0 {
            return Potential::default();
        }
        for _ in 0..POTENTIAL_SAMPLES {
            let x = rng.unit() * total;
            let i = cumulative.partition_point(|&c| c <= x).min(holdings.len() - 1);
            let h = holdings[i];
            let extra = draw_cards(unseen, need, h.cards, rng);
            let rater = HiRater::new(game, board.union(extra));
            hp[now[i] as usize][state(rater.rate(hand).cmp(&rater.rate(h.cards)))] += 1.0;
        }
    }
    from_table(&hp)
}

/// The exact transition table, one evaluation per (holding, completion): the reference.
#[allow(clippy::too_many_arguments)]
fn every_pair(
    game: Game,
    hand: CardSet,
    board: CardSet,
    holdings: &[Holding],
    now: &[u8],
    unseen: &[Card],
    need: usize,
    hp: &mut [[f64; 3]; 3],
) {
    for_each_combination(unseen, need, CardSet::EMPTY, &mut |extra| {
        let rater = HiRater::new(game, board.union(extra));
        let mine = rater.rate(hand);
        for (h, &n) in holdings.iter().zip(now) {
            if !h.cards.overlaps(extra) {
                hp[n as usize][state(mine.cmp(&rater.rate(h.cards)))] += h.weight;
            }
        }
    });
}

/// One completed five-card board of [`by_board_rows`]: its cards, its cards' keys summed from
/// [`SUIT_BIAS`], its rank multiset's slot in the by-board rows and p's rank on it.
struct Completed {
    cards: u64,
    keys: u64,
    slot: usize,
    mine: u16,
}

/// The rank of seven cards (`cards`, their keys summed from [`SUIT_BIAS`] in `biased`): a
/// flush by its suit's rank mask, any other hand by `flushless`.
#[inline]
fn rank_of(seven: SevenCards, biased: u64, cards: u64, flushless: impl FnOnce() -> u16) -> u16 {
    if biased & FLUSH_BITS != 0 {
        let suit = biased_flush_suit(biased);
        seven.flush_order(((cards >> (16 * suit)) & 0x1FFF) as u32)
    } else {
        flushless()
    }
}

/// AHEAD, TIED or BEHIND without a branch.
#[inline]
fn versus(mine: u16, theirs: u16) -> usize {
    usize::from(mine <= theirs) + usize::from(mine < theirs)
}

/// The exact transition table of [`potential`] when every hand holds two cards and the board is
/// completed to five (hold'em and short deck looking to the river), counted by rank pair.
///
/// Without a flush a holding's rank is its rank pair's row by board ([`SevenCards::by_board`])
/// at the board's rank multiset: the outcomes on every board are counted once per rank pair,
/// and each holding then takes away the boards that hold one of its cards (about 90 of 1,081)
/// and corrects those where it has a flush: boards with 5 - k or more cards of a suit it holds k
/// cards of (three for a suited holding, four, or a five-card flush on the board). Each holding adds its
/// weight times whole-number counts, so unit weights give exactly the plain sums (fractional
/// weights may differ in the last bits). False, touching nothing, when it does not apply.
#[allow(clippy::too_many_arguments)]
fn by_board_rows(
    game: Game,
    hand: CardSet,
    board: CardSet,
    holdings: &[Holding],
    now: &[u8],
    unseen: &[Card],
    need: usize,
    hp: &mut [[f64; 3]; 3],
) -> bool {
    if game.is_omaha()
        || hand.len() != 2
        || board.len() as usize + need != 5
        || holdings.iter().any(|h| h.cards.len() != 2)
    {
        return false;
    }
    let seven = hi_table(game.hi_rules()).seven_cards();
    let slots = BoardRankSlots::new();
    let (Some(my_row), board_keys, hand_keys) = (seven.by_board(hand), SUIT_BIAS + keys_of(board), keys_of(hand))
    else {
        return false;
    };
    let Some(rows) = holdings.iter().map(|h| seven.by_board(h.cards)).collect::<Option<Vec<_>>>() else {
        return false;
    };
    // Every completed board; per card the boards holding it; per suit and count k the boards
    // with 5 - k or more of the suit (`at_least[suit][k]`: where a holding with k cards of the
    // suit has a flush; at most one suit of a board has three or more).
    let mut boards = Vec::with_capacity(binomial(unseen.len(), need) as usize);
    let mut holding_card: Vec<Vec<u32>> = vec![Vec::new(); 64];
    let mut at_least: [[Vec<u32>; 3]; 4] = Default::default();
    for_each_combination(unseen, need, CardSet::EMPTY, &mut |extra| {
        let cards = board.union(extra).bits();
        let keys = board_keys + keys_of(extra);
        let slot = slots.slot(rank_key(keys));
        let mine = rank_of(seven, keys + hand_keys, cards | hand.bits(), || my_row[slot]);
        let at = boards.len() as u32;
        for c in extra {
            holding_card[usize::from(c.index())].push(at);
        }
        for (suit, lists) in at_least.iter_mut().enumerate() {
            // The biased nibble: the suit's cards plus three.
            let n = ((keys >> (32 + 4 * suit)) & 15) as usize;
            for (k, list) in lists.iter_mut().enumerate() {
                if n + k >= 8 {
                    list.push(at);
                }
            }
        }
        boards.push(Completed { cards, keys, slot, mine });
    });
    // Per rank pair (its row): the flushless outcome on every board, and their totals.
    let mut pairs: Vec<(*const u16, Vec<u8>, [u32; 3])> = Vec::new();
    for ((h, &n), row) in holdings.iter().zip(now).zip(rows) {
        let at = pairs.iter().position(|(r, ..)| std::ptr::eq(*r, row.as_ptr())).unwrap_or_else(|| {
            let mut totals = [0u32; 3];
            let outcomes = boards
                .iter()
                .map(|c| {
                    let v = versus(c.mine, row[c.slot]);
                    totals[v] += 1;
                    v as u8
                })
                .collect();
            pairs.push((row.as_ptr(), outcomes, totals));
            pairs.len() - 1
        });
        let (_, outcomes, totals) = &pairs[at];
        let mut counts = *totals;
        let mut cards = h.cards.iter();
        let (Some(a), Some(b)) = (cards.next(), cards.next()) else { return false };
        for &i in &holding_card[usize::from(a.index())] {
            counts[usize::from(outcomes[i as usize])] -= 1;
        }
        for &i in &holding_card[usize::from(b.index())] {
            // (A board holding both cards was taken away with the first.)
            if boards[i as usize].cards & a.bit() == 0 {
                counts[usize::from(outcomes[i as usize])] -= 1;
            }
        }
        let (bits, keys) = (h.cards.bits(), keys_of(h.cards));
        let held =
            |suit: usize| usize::from(usize::from(a.suit()) == suit) + usize::from(usize::from(b.suit()) == suit);
        for &i in at_least.iter().enumerate().flat_map(|(suit, lists)| &lists[held(suit)]) {
            let c = &boards[i as usize];
            if c.cards & bits == 0 {
                let theirs = rank_of(seven, c.keys + keys, c.cards | bits, || row[c.slot]);
                let (was, is) = (usize::from(outcomes[i as usize]), versus(c.mine, theirs));
                counts[was] -= 1;
                counts[is] += 1;
            }
        }
        for (cell, count) in hp[n as usize].iter_mut().zip(counts) {
            *cell += h.weight * f64::from(count);
        }
    }
    true
}

/// PPOT and NPOT from the transition table (docs/analysis.md).
pub(super) fn from_table(hp: &[[f64; 3]; 3]) -> Potential {
    let row = |s: usize| hp[s].iter().sum::<f64>();
    let ratio = |num: f64, den: f64| if den > 0.0 { num / den } else { 0.0 };
    Potential {
        positive: ratio(
            hp[BEHIND][AHEAD] + hp[BEHIND][TIED] / 2.0 + hp[TIED][AHEAD] / 2.0,
            row(BEHIND) + row(TIED) / 2.0,
        ),
        negative: ratio(
            hp[AHEAD][BEHIND] + hp[TIED][BEHIND] / 2.0 + hp[AHEAD][TIED] / 2.0,
            row(AHEAD) + row(TIED) / 2.0,
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;

    fn uniform(unseen: &[Card]) -> Vec<Holding> {
        let mut v = Vec::new();
        for_each_combination(unseen, 2, CardSet::EMPTY, &mut |cards| v.push(Holding { cards, weight: 1.0 }));
        v
    }

    /// docs/analysis.md's example: A♦Q♣ on 3♥4♣J♥ against a uniform opponent.
    #[test]
    fn ace_queen_on_three_four_jack() {
        let hole = parse_cards("AdQc").unwrap();
        let board = parse_cards("3h4cJh").unwrap();
        let unseen: Vec<Card> = CardSet::FULL.minus(hole).minus(board).iter().collect();
        let holdings = uniform(&unseen);
        let mut rng = Rng::new(1, 1);
        let two = potential(Game::Holdem, hole, board, &holdings, &unseen, 2, &mut rng);
        assert!((two.positive - 0.2083).abs() < 5e-5, "{two:?}");
        assert!((two.negative - 0.2737).abs() < 5e-5, "{two:?}");
        let one = potential(Game::Holdem, hole, board, &holdings, &unseen, 1, &mut rng);
        assert!((one.positive - 0.1083).abs() < 5e-5, "{one:?}");
    }
    /// The rank rows give exactly the plain table on random hands, boards (flop and turn, some
    /// of one suit), ranges (subsets of the holdings, unit and fractional weights) for every hold'em deck;
    /// unit weights sum to the same bits, fractional ones within rounding.
    #[test]
    fn rank_rows_match_every_pair() {
        let mut rng = Rng::new(16, 2);
        for round in 0..60 {
            let game = [Game::Holdem, Game::ShortDeck, Game::ShortDeckTriton][round % 3];
            let deck: Vec<Card> = game.deck().cards().iter().collect();
            let mut cards = CardSet::EMPTY;
            let shown = 2 + 3 + round % 2;
            let mut drawn: Vec<Card> = Vec::new();
            while drawn.len() < shown {
                let c = deck[rng.below(deck.len() as u64) as usize];
                // Every fifth board of one suit: flushes for many holdings.
                let off_suit = round % 5 == 0 && drawn.len() > 2 && c.suit() != drawn[2].suit();
                if !cards.contains(c) && !off_suit {
                    cards.insert(c);
                    drawn.push(c);
                }
            }
            let hand = CardSet::from_cards(drawn[..2].iter().copied());
            let board = CardSet::from_cards(drawn[2..].iter().copied());
            let unseen: Vec<Card> = deck.iter().copied().filter(|&c| !cards.contains(c)).collect();
            let fractional = round % 4 >= 2;
            let mut holdings = Vec::new();
            for h in uniform(&unseen) {
                if rng.below(3) != 0 {
                    holdings.push(Holding { weight: if fractional { 0.1 + rng.unit() } else { 1.0 }, ..h });
                }
            }
            let rater = HiRater::new(game, board);
            let mine = rater.rate(hand);
            let now: Vec<u8> = holdings.iter().map(|h| state(mine.cmp(&rater.rate(h.cards))) as u8).collect();
            let need = 5 - board.len() as usize;
            let (mut fast, mut plain) = ([[0.0; 3]; 3], [[0.0; 3]; 3]);
            assert!(by_board_rows(game, hand, board, &holdings, &now, &unseen, need, &mut fast));
            every_pair(game, hand, board, &holdings, &now, &unseen, need, &mut plain);
            for (f, p) in fast.iter().flatten().zip(plain.iter().flatten()) {
                if fractional {
                    assert!((f - p).abs() <= 1e-9 * p.abs().max(1.0), "{game:?} {hand} {board}: {fast:?} v {plain:?}");
                } else {
                    assert_eq!(f, p, "{game:?} {hand} {board}");
                }
            }
        }
    }

    /// Omaha, one card ahead from the flop, and hands of other sizes keep the plain path.
    #[test]
    fn rank_rows_only_for_two_cards_to_the_river() {
        let hole = parse_cards("AdQc").unwrap();
        let board = parse_cards("3h4cJh").unwrap();
        let unseen: Vec<Card> = CardSet::FULL.minus(hole).minus(board).iter().collect();
        let holdings = uniform(&unseen);
        let now = vec![0u8; holdings.len()];
        let mut hp = [[0.0; 3]; 3];
        assert!(!by_board_rows(Game::Holdem, hole, board, &holdings, &now, &unseen, 1, &mut hp));
        assert!(!by_board_rows(Game::OmahaHi, hole, board, &holdings, &now, &unseen, 2, &mut hp));
        assert_eq!(hp, [[0.0; 3]; 3]);
    }
}
