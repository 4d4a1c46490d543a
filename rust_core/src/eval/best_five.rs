//! The five cards a hand uses, for display. Not on any hot path: it tries every legal five-card
//! choice and keeps the best, which is obviously right.

use super::{rate_hi, rate_lo8, rate_razz, HiRating, LoRating};
use crate::cards::{Card, CardSet};
use crate::games::Game;

/// Every way to build a five-card hand (fewer when there are fewer cards) under the game's rule.
fn choices(game: Game, hole: CardSet, board: CardSet) -> Vec<CardSet> {
    if game.is_omaha() {
        let mut out = Vec::new();
        for two in subsets(&hole.to_vec(), 2) {
            for three in subsets(&board.to_vec(), 3) {
                out.push(two.union(three));
            }
        }
        out
    } else {
        let all = hole.union(board);
        subsets(&all.to_vec(), all.len().min(5) as usize)
    }
}

fn subsets(cards: &[Card], k: usize) -> Vec<CardSet> {
    let n = cards.len();
    let mut out = Vec::new();
    if k > n {
        return out;
    }
    for mask in 0u32..(1 << n) {
        if mask.count_ones() as usize == k {
            out.push((0..n).filter(|i| mask & (1 << i) != 0).map(|i| cards[i]).collect());
        }
    }
    out
}

/// The best hi hand and the cards it uses.
pub fn best_five_hi(game: Game, hole: CardSet, board: CardSet) -> Option<(HiRating, CardSet)> {
    choices(game, hole, board).into_iter().map(|five| (rate_hi(five, game.hi_rules()), five)).max_by_key(|x| x.0)
}

/// Among the five-card choices rated `best`, one using the fewest of `hole`'s cards (how many
/// cards "play").
pub fn best_five_hi_fewest(game: Game, hole: CardSet, board: CardSet, best: HiRating) -> Option<(HiRating, CardSet)> {
    choices(game, hole, board)
        .into_iter()
        .map(|five| (rate_hi(five, game.hi_rules()), five))
        .filter(|&(r, _)| r == best)
        .min_by_key(|&(_, five)| five.intersect(hole).len())
}

/// The best low (razz: any low; 8-or-better games: a qualifying low) and the cards it uses.
pub fn best_five_lo(game: Game, hole: CardSet, board: CardSet) -> Option<(LoRating, CardSet)> {
    let rate = |five: CardSet| match game {
        Game::Razz => Some(rate_razz(five)),
        Game::Stud8 | Game::Omaha8 | Game::Omaha85 => rate_lo8(five),
        _ => None,
    };
    choices(game, hole, board).into_iter().filter_map(|five| rate(five).map(|r| (r, five))).max_by_key(|x| x.0)
}
