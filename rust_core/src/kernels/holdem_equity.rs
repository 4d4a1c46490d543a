//! Exact hold'em (and short deck) equity from the flop or the turn, by the same idea as
//! [`super::omaha_equity`]: without a flush a hand depends only on ranks, so each player's hand
//! is rated once per rank pair of the cards to come; completions that put three cards of a
//! suit on the board (where someone may hold a flush) are rated one by one.

use super::board_completions::{cards_to_come, one_seat, settle, split_among};
use crate::cards::{Card, CardSet};
use crate::deal::MAX_PLAYERS;
use crate::eval::{rate_hi, HiRating};
use crate::games::{Game, PotSplit};

/// Per-worker memory for [`holdem_equity`]: each seat's ratings by the new cards' ranks.
#[derive(Default)]
pub struct HoldemScratch {
    tables: Vec<[HiRating; 169]>,
}

/// Ranks held at least once, twice, three and four times.
#[derive(Clone, Copy, Default)]
struct RankCounts([u16; 4]);

impl RankCounts {
    #[inline]
    fn add(mut self, rank: usize) -> RankCounts {
        let bit = 1u16 << rank;
        // The first level that does not have the rank yet gets it.
        for level in &mut self.0 {
            if *level & bit == 0 {
                *level |= bit;
                break;
            }
        }
        self
    }

    /// Cards with these rank counts and no five in one suit, so the rating is the ranks' hand
    /// without a flush: ranks held twice or more go to the first two suits (and the third and
    /// fourth as counts allow), single ranks alternate between the first two. Of seven cards a
    /// suit then gets at most four (pairs p plus half of at most 7 - 2p singles).
    #[inline]
    fn unsuited(self) -> CardSet {
        let [m1, m2, m3, m4] = self.0.map(u64::from);
        let mut singles = m1 & !m2;
        let (mut c, mut d) = (m2, m2);
        let mut to_c = true;
        while singles != 0 {
            let b = singles & singles.wrapping_neg();
            if to_c {
                c |= b;
            } else {
                d |= b;
            }
            to_c = !to_c;
            singles ^= b;
        }
        CardSet::from_bits(c | (d << 16) | (m3 << 32) | (m4 << 48))
    }
}

/// Exact equity of player `p` among `hands` with a three- or four-card `board`, the rest coming
/// from `remaining`. `None` when the fast path does not apply (not a two-card hi game).
pub fn holdem_equity(
    game: Game,
    hands: &[CardSet],
    p: usize,
    board: CardSet,
    remaining: &[Card],
    scratch: &mut HoldemScratch,
) -> Option<f64> {
    one_seat(p, |shares| holdem_equities(game, hands, board, remaining, scratch, shares))
}

/// Every player's exact equity (into `shares`) as [`holdem_equity`]; false when the fast path
/// does not apply.
pub fn holdem_equities(
    game: Game,
    hands: &[CardSet],
    board: CardSet,
    remaining: &[Card],
    scratch: &mut HoldemScratch,
    shares: &mut [f64],
) -> bool {
    let n = hands.len();
    if game.is_stud() || game.is_omaha() || game.pot_split() != PotSplit::HiOnly {
        return false;
    }
    let Some(need) = cards_to_come(n, board, remaining, shares) else { return false };
    let rules = game.hi_rules();
    let mut avail = [0u8; 13];
    for c in remaining {
        avail[c.rank() as usize] += 1;
    }
    if scratch.tables.len() < n {
        scratch.tables.resize(n, [HiRating::NONE; 169]);
    }
    let tables = &mut scratch.tables[..n];
    for (table, &hole) in tables.iter_mut().zip(hands) {
        let base = hole.union(board).iter().fold(RankCounts::default(), |rc, c| rc.add(c.rank() as usize));
        for r1 in (0..13).filter(|&r| avail[r] > 0) {
            let one = base.add(r1);
            if need == 1 {
                table[r1 * 13 + r1] = rate_hi(one.unsuited(), rules);
            } else {
                for r2 in (r1..13).filter(|&r2| avail[r2] > u8::from(r2 == r1)) {
                    let r = rate_hi(one.add(r2).unsuited(), rules);
                    table[r1 * 13 + r2] = r;
                    table[r2 * 13 + r1] = r;
                }
            }
        }
    }
    let tables = &*tables;
    // The suit in which someone could hold a flush with new cards of suits (a, b), 4 for none.
    let board_suits: [u32; 4] = std::array::from_fn(|s| board.suit_mask(s as u8).count_ones());
    let most_held: [u32; 4] =
        std::array::from_fn(|s| hands.iter().map(|h| h.suit_mask(s as u8).count_ones()).max().unwrap_or(0));
    let flush_suit: [[u8; 4]; 4] = std::array::from_fn(|a| {
        std::array::from_fn(|b| {
            let on_board =
                |s: usize| board_suits[s] + u32::from(a == s) + if need == 2 { u32::from(b == s) } else { 0 };
            (0..4).find(|&s| on_board(s) >= 3 && on_board(s) + most_held[s] >= 5).map_or(4, |s| s as u8)
        })
    });
    let mut ratings = [HiRating::NONE; MAX_PLAYERS];
    // Adds `weight` split among the best hands to `acc`.
    let add_shares = |ratings: &[HiRating], weight: f64, acc: &mut [f64]| {
        split_among(ratings, ratings.iter().copied().max().unwrap_or_default(), weight, acc);
    };
    let mut by_ranks = [0u32; 169];
    let mut acc = [0.0f64; MAX_PLAYERS];
    let completions;
    if need == 2 {
        for (i, &a) in remaining.iter().enumerate() {
            for &b in &remaining[i + 1..] {
                let cell = a.rank() as usize * 13 + b.rank() as usize;
                if flush_suit[a.suit() as usize][b.suit() as usize] == 4 {
                    by_ranks[cell] += 1;
                } else {
                    let full = board.with(a).with(b);
                    for (r, &h) in ratings.iter_mut().zip(hands) {
                        *r = rate_hi(h.union(full), rules);
                    }
                    add_shares(&ratings[..n], 1.0, &mut acc);
                }
            }
        }
        completions = remaining.len() * (remaining.len() - 1) / 2;
    } else {
        for &a in remaining {
            let cell = a.rank() as usize * 14;
            if flush_suit[a.suit() as usize][0] == 4 {
                by_ranks[cell] += 1;
            } else {
                let full = board.with(a);
                for (r, &h) in ratings.iter_mut().zip(hands) {
                    *r = rate_hi(h.union(full), rules);
                }
                add_shares(&ratings[..n], 1.0, &mut acc);
            }
        }
        completions = remaining.len();
    }
    for (cell, &count) in by_ranks.iter().enumerate() {
        if count > 0 {
            for (r, t) in ratings.iter_mut().zip(tables) {
                *r = t[cell];
            }
            add_shares(&ratings[..n], f64::from(count), &mut acc);
        }
    }
    settle(&acc[..n], completions, shares);
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::board_completions::testing::{equity_by_showdowns, shuffle};
    use crate::rng::Rng;

    #[test]
    fn matches_a_showdown_per_completion() {
        let mut rng = Rng::new(12, 0);
        for round in 0..150 {
            let game = [Game::Holdem, Game::ShortDeck, Game::ShortDeckTriton][round % 3];
            let players = 2 + round % 4;
            let mut deck: Vec<Card> = game.deck().cards().iter().collect();
            shuffle(&mut deck, &mut rng);
            if round % 4 == 0 {
                // Suited-heavy deals: flushes on the board and in hand.
                let mut keyed: Vec<((bool, u64), Card)> =
                    deck.iter().map(|&c| ((c.suit() != 1, rng.below(3)), c)).collect();
                keyed.sort_by_key(|k| k.0);
                deck = keyed.into_iter().map(|k| k.1).collect();
                deck.swap(1, 20);
            }
            let mut it = deck.into_iter();
            let board: CardSet = (0..3 + (round / 3) % 2).map(|_| it.next().unwrap()).collect();
            let hands: Vec<CardSet> = (0..players).map(|_| (0..2).map(|_| it.next().unwrap()).collect()).collect();
            let remaining: Vec<Card> = it.collect();
            for p in 0..players {
                let fast = holdem_equity(game, &hands, p, board, &remaining, &mut HoldemScratch::default()).unwrap();
                let slow = equity_by_showdowns(game, &hands, p, board, &remaining);
                assert!((fast - slow).abs() < 1e-12, "{game:?} {hands:?} on {board}: {fast} vs {slow}");
            }
        }
    }

    #[test]
    fn spreading_ranks_over_suits_never_makes_a_flush() {
        // Every multiset of seven ranks (at most four of each): the right ranks, no flush.
        fn visit(rank: usize, left: u32, counts: &mut [u32; 13]) {
            if rank == 13 {
                if left == 0 {
                    let mut rc = RankCounts::default();
                    for (r, &c) in counts.iter().enumerate() {
                        for _ in 0..c {
                            rc = rc.add(r);
                        }
                    }
                    let set = rc.unsuited();
                    assert_eq!(set.len(), 7);
                    assert!((0..4).all(|s| set.suit_mask(s).count_ones() < 5), "{counts:?}");
                    assert!((0..13u8).all(|r| set.rank_count(r) == counts[r as usize]), "{counts:?}");
                }
                return;
            }
            for c in 0..=left.min(4) {
                counts[rank] = c;
                visit(rank + 1, left - c, counts);
            }
            counts[rank] = 0;
        }
        visit(0, 7, &mut [0; 13]);
    }
}
