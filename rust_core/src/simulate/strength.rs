//! Effective hand strength as the simulated players see it (docs/language/simulate.md): EHS' = `HSₙ` +
//! (1 − `HSₙ`)·PPOT, where HS₁ is the hand's exact share against every holding of the cards the
//! player cannot see (uniform: a simulated player does not know the others' ranges), `HSₙ` =
//! `HS₁ⁿ` against n live opponents, and PPOT looks one card ahead (the two-card look of
//! `positivePotential` on the flop costs a million evaluations per hand; a simulation asks for
//! thousands of hands). Before the flop, `HSₙ` is the all-in equity against n random hands,
//! sampled with a fixed stream per hand. Answers are cached per board and hand: a run asks for
//! the same few again and again.

use crate::analysis::{potential, tally, HiRater, Holding};
use crate::cards::{for_each_combination, Card, CardSet};
use crate::eval::rate_hi;
use crate::games::Game;
use crate::rng::Rng;
use std::collections::HashMap;

/// Holdings PPOT is measured against at most (every k-th of the list): bounds its cost to
/// about 46 × this many evaluations.
pub const PPOT_HOLDINGS: usize = 100;
/// Deals sampled for a hand's all-in equity before the flop.
pub const PREFLOP_SAMPLES: usize = 600;

/// A hand's strength on one board, for one number of opponents.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Strength {
    /// `HSₙ`.
    pub hs: f64,
    /// PPOT (0 on the river and before the flop).
    pub ppot: f64,
}

impl Strength {
    /// EHS' = `HSₙ` + (1 − `HSₙ`)·PPOT.
    pub fn effective(self) -> f64 {
        self.hs + (1.0 - self.hs) * self.ppot
    }
}

/// HS₁ and PPOT of hands on boards, cached.
pub struct Strengths {
    game: Game,
    /// (board, hand) -> (HS₁, PPOT); preflop: (board empty, hand, opponents) in `preflop`.
    cache: HashMap<(u64, u64), (f64, f64)>,
    preflop: HashMap<(u64, usize), f64>,
    holdings: Vec<Holding>,
    unseen: Vec<Card>,
}

impl Strengths {
    pub fn new(game: Game) -> Strengths {
        Strengths { game, cache: HashMap::new(), preflop: HashMap::new(), holdings: Vec::new(), unseen: Vec::new() }
    }

    /// Answers cached.
    pub fn len(&self) -> usize {
        self.cache.len() + self.preflop.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The strength of `hand` on `board` against `opponents` live opponents (at least 1).
    pub fn of(&mut self, hand: CardSet, board: CardSet, opponents: usize) -> Strength {
        let n = opponents.max(1);
        if board.is_empty() {
            let hs = self.preflop_equity(hand, n);
            return Strength { hs, ppot: 0.0 };
        }
        let key = (board.bits(), hand.bits());
        let (hs1, ppot) = if let Some(&v) = self.cache.get(&key) {
            v
        } else {
            let v = self.compute(hand, board);
            self.cache.insert(key, v);
            v
        };
        Strength { hs: hs1.powi(n as i32), ppot }
    }

    fn compute(&mut self, hand: CardSet, board: CardSet) -> (f64, f64) {
        self.unseen.clear();
        self.unseen.extend(self.game.deck().cards().minus(hand).minus(board).iter());
        self.holdings.clear();
        let holdings = &mut self.holdings;
        for_each_combination(&self.unseen, 2, CardSet::EMPTY, &mut |cards| {
            holdings.push(Holding { cards, weight: 1.0 });
        });
        let rater = HiRater::new(self.game, board);
        let hs1 = tally(&rater, rater.rate(hand), &self.holdings).strength();
        let need = 5usize.saturating_sub(board.len() as usize).min(1);
        if need == 0 {
            return (hs1, 0.0);
        }
        let step = self.holdings.len().div_ceil(PPOT_HOLDINGS).max(1);
        let sample: Vec<Holding> = self.holdings.iter().step_by(step).copied().collect();
        // Exact for the sample (one card ahead fits the budget): the stream is never drawn on.
        let mut rng = Rng::new(0, 0);
        let p = potential(self.game, hand, board, &sample, &self.unseen, need, &mut rng);
        (hs1, p.positive)
    }

    /// All-in equity of `hand` against `n` random hands, sampled on a stream fixed by the hand.
    fn preflop_equity(&mut self, hand: CardSet, n: usize) -> f64 {
        if let Some(&e) = self.preflop.get(&(hand.bits(), n)) {
            return e;
        }
        let rules = self.game.hi_rules();
        let deck: Vec<Card> = self.game.deck().cards().minus(hand).iter().collect();
        let mut rng = Rng::new(0x5151_7E9F, hand.bits() ^ (n as u64) << 60);
        let mut share = 0.0;
        for _ in 0..PREFLOP_SAMPLES {
            let mut taken = hand;
            let board = crate::analysis::draw_cards(&deck, 5, taken, &mut rng);
            taken = taken.union(board);
            let mine = rate_hi(hand.union(board), rules);
            let (mut best, mut ties) = (true, 1u32);
            for _ in 0..n {
                let other = crate::analysis::draw_cards(&deck, 2, taken, &mut rng);
                taken = taken.union(other);
                let theirs = rate_hi(other.union(board), rules);
                if theirs > mine {
                    best = false;
                } else if theirs == mine {
                    ties += 1;
                }
            }
            if best {
                share += 1.0 / f64::from(ties);
            }
        }
        let e = share / PREFLOP_SAMPLES as f64;
        self.preflop.insert((hand.bits(), n), e);
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;

    /// docs/analysis.md's example: A♦Q♣ on 3♥4♣J♥, HS₁ = 0.5851 exactly; PPOT one card ahead is
    /// 0.1083 against every holding, and the thinned sample stays near it.
    #[test]
    fn ace_queen_on_three_four_jack() {
        let mut s = Strengths::new(Game::Holdem);
        let hand = parse_cards("AdQc").unwrap();
        let board = parse_cards("3h4cJh").unwrap();
        let one = s.of(hand, board, 1);
        assert!((one.hs - 0.5851).abs() < 5e-5, "{one:?}");
        assert!((one.ppot - 0.1083).abs() < 0.02, "{one:?}");
        let two = s.of(hand, board, 2);
        assert!((two.hs - 0.5851f64.powi(2)).abs() < 1e-4, "{two:?}");
        let river = s.of(hand, parse_cards("3h4cJh2s9d").unwrap(), 1);
        assert_eq!(river.ppot, 0.0);
    }

    #[test]
    fn aces_are_strong_before_the_flop() {
        let mut s = Strengths::new(Game::Holdem);
        let aces = s.of(parse_cards("AsAh").unwrap(), CardSet::EMPTY, 1).hs;
        let junk = s.of(parse_cards("7c2d").unwrap(), CardSet::EMPTY, 1).hs;
        // Exact: 0.852 and 0.346; 600 samples are within a few hundredths.
        assert!((aces - 0.852).abs() < 0.05, "{aces}");
        assert!((junk - 0.346).abs() < 0.06, "{junk}");
    }
}
