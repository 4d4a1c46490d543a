//! Hand potential (Loki): how often the cards to come turn p's hand from behind to ahead
//! (positive) or from ahead to behind (negative), against a weighted field of holdings.

use super::{draw_cards, HiRater, Holding};
use crate::cards::{binomial, for_each_combination, Card, CardSet};
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
        for_each_combination(unseen, need, CardSet::EMPTY, &mut |extra| {
            let rater = HiRater::new(game, board.union(extra));
            let mine = rater.rate(hand);
            for (h, &n) in holdings.iter().zip(&now) {
                if !h.cards.overlaps(extra) {
                    hp[n as usize][state(mine.cmp(&rater.rate(h.cards)))] += h.weight;
                }
            }
        });
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

/// PPOT and NPOT from the transition table (ANALYSIS.md).
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

    /// ANALYSIS.md's example: A♦Q♣ on 3♥4♣J♥ against a uniform opponent.
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
}
