//! Analysis of one hand on one street (docs/analysis.md): outs and draws, hand strength, hand
//! potential. The functions here know cards and evaluators only; the engine (`trial::versus`)
//! chooses the opponents' holdings and calls them once per deal.
//!
//! May use: `cards`, `games`, `eval`, `rng`.

pub mod discounted;
pub mod draws;
pub mod hand_strength;
pub mod joint;
pub mod potential;

pub use discounted::discounted_outs;
pub use draws::{backdoor_flush_draw, draws, top_rank, Draws};
pub use hand_strength::{tally, Tally};
pub use joint::{averaged_potential, conditional_potential, joint_potential, joint_strength, Field, Joint, Opponent};
pub use potential::{potential, Lookahead, Potential};

use crate::cards::{binomial, for_each_combination, Card, CardSet};
use crate::eval::{omaha_hi, rate_hi, HiRating, OmahaBoard, OmahaHole};
use crate::games::Game;
use crate::rng::Rng;

/// Rates hi hands of one game on one board, the board prepared once. Omaha boards of fewer
/// than three cards rate the hole cards alone (as before the flop).
pub struct HiRater {
    game: Game,
    board: CardSet,
    omaha: Option<OmahaBoard>,
}

impl HiRater {
    pub fn new(game: Game, board: CardSet) -> HiRater {
        let omaha = (game.is_omaha() && board.len() >= 3).then(|| OmahaBoard::new(board));
        HiRater { game, board, omaha }
    }

    #[inline]
    pub fn rate(&self, hand: CardSet) -> HiRating {
        match &self.omaha {
            Some(ob) => omaha_hi(&OmahaHole::new(hand), ob),
            None if self.game.is_omaha() => rate_hi(hand, self.game.hi_rules()),
            None => rate_hi(hand.union(self.board), self.game.hi_rules()),
        }
    }
}

/// One opponent holding and its weight (1 unless a weighted range says otherwise).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Holding {
    pub cards: CardSet,
    pub weight: f64,
}

/// Up to this many holdings are enumerated exactly; beyond, a fixed-size sample stands in.
pub const MAX_EXACT_HOLDINGS: usize = 20_000;
/// Holdings drawn when there are too many to enumerate (uniform random `k`-card hands).
pub const SAMPLED_HOLDINGS: usize = 4_000;

/// Every `k`-card holding of `unseen` with weight 1, or, when there are more than
/// [`MAX_EXACT_HOLDINGS`], [`SAMPLED_HOLDINGS`] of them drawn uniformly with `rng` (a fixed
/// stream per deal keeps answers reproducible). Returns whether the list is exact.
pub fn random_holdings(unseen: &[Card], k: usize, rng: &mut Rng, out: &mut Vec<Holding>) -> bool {
    out.clear();
    if unseen.len() < k || k == 0 {
        return true;
    }
    if binomial(unseen.len(), k) <= MAX_EXACT_HOLDINGS as f64 {
        for_each_combination(unseen, k, CardSet::EMPTY, &mut |cards| out.push(Holding { cards, weight: 1.0 }));
        return true;
    }
    for _ in 0..SAMPLED_HOLDINGS {
        out.push(Holding { cards: draw_cards(unseen, k, CardSet::EMPTY, rng), weight: 1.0 });
    }
    false
}

/// `k` distinct cards of `cards` not in `taken`, uniformly (rejection; callers guarantee that
/// enough cards remain).
#[inline]
pub fn draw_cards(cards: &[Card], k: usize, taken: CardSet, rng: &mut Rng) -> CardSet {
    let mut drawn = CardSet::EMPTY;
    while (drawn.len() as usize) < k {
        let c = cards[rng.below(cards.len() as u64) as usize];
        if !taken.contains(c) {
            drawn.insert(c);
        }
    }
    drawn
}

/// A fixed random stream for the inner sample of one deal, so that a deal always gets the same
/// answer (exhaustive runs stay deterministic).
pub fn deal_rng(salt: u64, known: CardSet) -> Rng {
    Rng::new(0x005E_ED0F_A7A1 ^ salt, known.bits())
}
