//! A range's spread of equities against the other players (the Omaha explorer's bar chart):
//! the share of the range whose equity falls in each tenth from 0 to 1.
//!
//! Hands are drawn from the range by weight; each one's equity is estimated from its own
//! deals of the others and the board. Under PQL's whole-deal rejection a hand that the others'
//! ranges often collide with is dealt less often, so each hand counts with its acceptance rate
//! (the share of its deals that fitted): an importance weight that makes the buckets those of
//! hands dealt as the engine deals them. Sums are integers, so a seed repeats exactly.

use super::background::{Job, Work};
use super::Table;
use crate::analysis::draw_cards;
use crate::cards::{Card, CardSet};
use crate::error::PqlError;
use crate::games::Game;
use crate::kernels::showdown::Showdown;
use crate::range::Range;
use crate::rng::Rng;
use std::sync::atomic::{AtomicBool, Ordering};

/// Equity buckets: tenths.
pub const BUCKETS: usize = 10;
/// Hands drawn per item.
const HANDS_PER_ITEM: u64 = 8;
/// Fixed-point unit of a hand's weight (its acceptance rate).
const WEIGHT_UNIT: u64 = 1 << 20;
/// Equities are summed in millionths.
const EQUITY_UNIT: f64 = 1e6;
/// Deals tried per hand before it counts as impossible.
const MAX_ATTEMPTS_PER_DEAL: u64 = 1_000;

/// What the distribution is computed for.
#[derive(Clone, Debug)]
pub struct DistributionSpec {
    pub game: Game,
    pub hero: Range,
    pub villains: Vec<Range>,
    pub table: Table,
    /// Hands drawn from the hero's range.
    pub hands: u64,
    /// Deals per hand.
    pub deals: u64,
    pub seed: u64,
}

/// The weight of hands per bucket, and the weighted mean equity.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DistributionState {
    pub buckets: [u64; BUCKETS],
    /// Σ weight × equity (millionths).
    pub weighted_equity: u128,
    pub hands: u64,
}

impl DistributionState {
    /// Each bucket's share of the range (summing to 1), and the range's mean equity.
    pub fn shares(&self) -> ([f64; BUCKETS], Option<f64>) {
        let total: u64 = self.buckets.iter().sum();
        if total == 0 {
            return ([0.0; BUCKETS], None);
        }
        let shares = self.buckets.map(|b| b as f64 / total as f64);
        let mean = self.weighted_equity as f64 / EQUITY_UNIT / total as f64;
        (shares, Some(mean))
    }
}

/// The distribution as background work.
pub struct Distribution {
    spec: DistributionSpec,
    deck: Vec<Card>,
}

impl Distribution {
    /// One deal for hero `hand`: the others and the board; None on a collision.
    fn deal(&self, hand: CardSet, rng: &mut Rng, seats: &mut Vec<CardSet>) -> Option<CardSet> {
        let t = &self.spec.table;
        let mut used = t.dead.fixed.union(hand);
        if !t.dead.choices.is_empty() {
            let d = t.dead.choices[rng.below(t.dead.choices.len() as u64) as usize];
            if d.overlaps(used) {
                return None;
            }
            used = used.union(d);
        }
        let board = t.boards[rng.below(t.boards.len() as u64) as usize];
        if board.overlaps(used) {
            return None;
        }
        used = used.union(board);
        seats.clear();
        seats.push(hand);
        for range in &self.spec.villains {
            if range.is_full() {
                seats.push(CardSet::EMPTY);
                continue;
            }
            let h = range.flop_combos()[range.pick(rng.unit())?];
            if h.overlaps(used) {
                return None;
            }
            used = used.union(h);
            seats.push(h);
        }
        let k = self.spec.game.hole_cards();
        for (s, range) in seats[1..].iter_mut().zip(&self.spec.villains) {
            if range.is_full() {
                *s = draw_cards(&self.deck, k, used, rng);
                used = used.union(*s);
            }
        }
        Some(board.union(draw_cards(&self.deck, 5 - t.board_len, used, rng)))
    }
}

impl Work for Distribution {
    type Part = DistributionState;
    type State = DistributionState;
    type Scratch = Vec<CardSet>;

    fn items(&self) -> u64 {
        self.spec.hands.div_ceil(HANDS_PER_ITEM)
    }

    fn run(&self, item: u64, seats: &mut Vec<CardSet>, stop: &AtomicBool) -> Result<DistributionState, PqlError> {
        let mut rng = Rng::new(self.spec.seed, item);
        let mut part = DistributionState::default();
        let hands = HANDS_PER_ITEM.min(self.spec.hands - item * HANDS_PER_ITEM);
        let hero = &self.spec.hero;
        let mut showdown: Option<Showdown> = None;
        for _ in 0..hands {
            if stop.load(Ordering::Relaxed) {
                break;
            }
            let Some(i) = hero.pick(rng.unit()) else { break };
            let hand = hero.flop_combos()[i];
            let (mut won, mut dealt, mut attempts) = (0.0, 0u64, 0u64);
            while dealt < self.spec.deals && attempts < self.spec.deals * MAX_ATTEMPTS_PER_DEAL {
                attempts += 1;
                let Some(board) = self.deal(hand, &mut rng, seats) else { continue };
                let s = showdown.get_or_insert_with(|| Showdown::new(self.spec.game, seats, board));
                s.rate(self.spec.game, seats, board);
                won += s.share(0);
                dealt += 1;
            }
            part.hands += 1;
            if dealt == 0 {
                continue; // a hand nothing fits with has no weight
            }
            let equity = won / dealt as f64;
            let weight = dealt * WEIGHT_UNIT / attempts;
            let bucket = ((equity * BUCKETS as f64) as usize).min(BUCKETS - 1);
            part.buckets[bucket] += weight;
            part.weighted_equity += u128::from(weight) * (equity * EQUITY_UNIT).round() as u128;
        }
        Ok(part)
    }

    fn merge(&self, state: &mut DistributionState, part: DistributionState) {
        for (a, b) in state.buckets.iter_mut().zip(part.buckets) {
            *a += b;
        }
        state.weighted_equity += part.weighted_equity;
        state.hands += part.hands;
    }
}

/// Starts the distribution of `spec` on `threads` workers.
pub fn start(spec: DistributionSpec, threads: usize) -> Result<Job<Distribution>, PqlError> {
    if spec.game.is_stud() {
        return Err(PqlError::runtime("the equity distribution is for flop games"));
    }
    if spec.villains.is_empty() {
        return Err(PqlError::runtime("the equity distribution needs another player"));
    }
    if spec.hands == 0 || spec.deals == 0 {
        return Err(PqlError::runtime("the equity distribution needs hands and deals"));
    }
    let deck = spec.game.deck().cards().iter().collect();
    Ok(Job::start(Distribution { spec, deck }, DistributionState::default(), threads))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::range::{parse_range, DeadCards, Syntax};

    fn spec(game: Game, hero: &str, villain: &str, seed: u64) -> DistributionSpec {
        let r = |t: &str| parse_range(t, game, Syntax::Generic).unwrap();
        DistributionSpec {
            game,
            hero: r(hero),
            villains: vec![r(villain)],
            table: Table::new(None, DeadCards::default()).unwrap(),
            hands: 400,
            deals: 200,
            seed,
        }
    }

    #[test]
    fn one_hand_lands_in_its_equity_bucket_and_seeds_repeat() {
        // AA vs KK in hold'em: about 0.82.
        let s = start(spec(Game::Holdem, "AsAh", "KsKd", 1), 2).unwrap().wait();
        let (shares, mean) = s.state.shares();
        assert!((mean.unwrap() - 0.82).abs() < 0.01, "{mean:?}");
        // Each hand's equity is itself a 200-deal estimate (about ±0.03): it lands around 0.8.
        assert!(shares[7] + shares[8] > 0.99, "{shares:?}");
        let a = start(spec(Game::OmahaHi, "AA**", "**", 5), 1).unwrap().wait();
        let b = start(spec(Game::OmahaHi, "AA**", "**", 5), 3).unwrap().wait();
        assert_eq!(a.state, b.state);
        let (shares, mean) = a.state.shares();
        assert!((shares.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        assert!(mean.unwrap() > 0.55 && mean.unwrap() < 0.75, "{mean:?}");
    }
}
