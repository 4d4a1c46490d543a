//! What the exact flop and turn equity paths ([`super::holdem_equity`], [`super::omaha_equity`])
//! share: when they apply, how a pot is split among the best hands of one completion, and how
//! the tallies over every completion of the board become equities.

use crate::cards::{Card, CardSet};
use crate::deal::MAX_PLAYERS;

/// How many board cards are still to come (one or two) when `players` hands can be settled by
/// visiting every completion of `board` from `remaining`, into `shares`; `None` otherwise.
pub(super) fn cards_to_come(players: usize, board: CardSet, remaining: &[Card], shares: &[f64]) -> Option<usize> {
    let need = 5usize.checked_sub(board.len() as usize)?;
    let applies = (1..=2).contains(&need)
        && (1..=MAX_PLAYERS).contains(&players)
        && remaining.len() >= need
        && shares.len() >= players;
    applies.then_some(need)
}

/// Seat `p`'s equity from `equities`, which writes every seat's equity and says whether its
/// fast path applied.
pub(super) fn one_seat(p: usize, equities: impl FnOnce(&mut [f64]) -> bool) -> Option<f64> {
    let mut shares = [0.0; MAX_PLAYERS];
    equities(&mut shares).then(|| shares[p])
}

/// Adds `amount` split evenly among the seats whose value is `best` to their tallies in `acc`.
#[inline]
pub(super) fn split_among<T: PartialEq + Copy>(values: &[T], best: T, amount: f64, acc: &mut [f64]) {
    let each = amount / values.iter().filter(|&&v| v == best).count() as f64;
    for (a, &v) in acc.iter_mut().zip(values) {
        if v == best {
            *a += each;
        }
    }
}

/// Each seat's tally over `completions` equally likely boards, as its equity, into `shares`.
pub(super) fn settle(acc: &[f64], completions: usize, shares: &mut [f64]) {
    for (out, a) in shares.iter_mut().zip(acc) {
        *out = a / completions as f64;
    }
}

/// What the fast paths are checked against in their tests.
#[cfg(test)]
pub(super) mod testing {
    use crate::cards::{for_each_combination, Card, CardSet};
    use crate::games::Game;
    use crate::kernels::showdown::Showdown;
    use crate::rng::Rng;

    /// The plain way: seat `p`'s share of a showdown, averaged over every completion of `board`.
    pub fn equity_by_showdowns(game: Game, hands: &[CardSet], p: usize, board: CardSet, remaining: &[Card]) -> f64 {
        let (mut total, mut count) = (0.0, 0.0);
        for_each_combination(remaining, 5 - board.len() as usize, board, &mut |full| {
            total += Showdown::new(game, hands, full).share(p);
            count += 1.0;
        });
        total / count
    }

    /// `deck` in a random order (Fisher-Yates).
    pub fn shuffle(deck: &mut [Card], rng: &mut Rng) {
        for i in (1..deck.len()).rev() {
            deck.swap(i, rng.below(i as u64 + 1) as usize);
        }
    }
}
