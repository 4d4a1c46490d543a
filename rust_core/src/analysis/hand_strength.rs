//! Hand strength (Loki): how often p's hand is ahead of an opponent's holding right now.

use super::{HiRater, Holding};
use crate::eval::HiRating;
use std::cmp::Ordering;

/// Weighted counts of opponent holdings that p is ahead of, tied with and behind.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tally {
    pub ahead: f64,
    pub tied: f64,
    pub behind: f64,
}

impl Tally {
    #[inline]
    pub fn add(&mut self, order: Ordering, weight: f64) {
        match order {
            Ordering::Greater => self.ahead += weight,
            Ordering::Equal => self.tied += weight,
            Ordering::Less => self.behind += weight,
        }
    }

    pub fn total(&self) -> f64 {
        self.ahead + self.tied + self.behind
    }

    /// HS₁ = (ahead + tied/2) / total; 0 when no holding is possible.
    pub fn strength(&self) -> f64 {
        let total = self.total();
        if total > 0.0 {
            (self.ahead + self.tied / 2.0) / total
        } else {
            0.0
        }
    }
}

/// p's hand (`mine`, rated by `rater`) against every holding (holdings that share a card with
/// p's hand or the board must already be left out).
pub fn tally(rater: &HiRater, mine: HiRating, holdings: &[Holding]) -> Tally {
    let mut t = Tally::default();
    for h in holdings {
        t.add(mine.cmp(&rater.rate(h.cards)), h.weight);
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{for_each_combination, parse_cards, CardSet};
    use crate::games::Game;

    /// docs/analysis.md's example: A♦Q♣ on 3♥4♣J♥ against every two-card holding.
    #[test]
    fn ace_queen_on_three_four_jack() {
        let hole = parse_cards("AdQc").unwrap();
        let board = parse_cards("3h4cJh").unwrap();
        let unseen: Vec<_> = CardSet::FULL.minus(hole).minus(board).iter().collect();
        let mut holdings = Vec::new();
        for_each_combination(&unseen, 2, CardSet::EMPTY, &mut |cards| holdings.push(Holding { cards, weight: 1.0 }));
        let rater = HiRater::new(Game::Holdem, board);
        let t = tally(&rater, rater.rate(hole), &holdings);
        assert_eq!((t.ahead, t.tied, t.behind), (628.0, 9.0, 444.0));
        assert!((t.strength() - 0.5851).abs() < 5e-5, "{}", t.strength());
    }
}
