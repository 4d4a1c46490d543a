//! Exact Omaha equity from the flop or the turn, fast enough to run once per Monte Carlo deal.
//!
//! Without a flush, an Omaha hand's strength depends only on the ranks of the cards to come, so
//! each player's hi (and 8-or-better low) is tabulated once per deal by the ranks of the one or
//! two new cards: a few hundred table lookups instead of 60 per player per completion. The
//! completions are then visited once: those that make three cards of a suit on the board are
//! rated one by one (flushes need suits); the rest are only counted per rank pair and settled
//! from the tables at the end.

use super::board_completions::{cards_to_come, one_seat, settle, split_among};
use crate::cards::{Card, CardSet};
use crate::deal::MAX_PLAYERS;
use crate::eval::{FIVE, RANK_KEYS};
use crate::games::{Game, PotSplit};
use std::sync::LazyLock;

/// No qualifying low (greater than every low mask, where smaller is better).
const NO_LO: u32 = u32::MAX;
const LO8_BITS: u32 = 0xFF;

/// Ace-low bit of a rank (ace = bit 0, deuce = bit 1 ... king = bit 12).
#[inline]
fn lo_bit(rank: u8) -> u32 {
    1 << ((u32::from(rank) + 1) % 13)
}

/// The three lowest bits of `m`.
#[inline]
fn lowest3(m: u32) -> u32 {
    let a = m & m.wrapping_neg();
    let m = m ^ a;
    let b = m & m.wrapping_neg();
    let m = m ^ b;
    a | b | (m & m.wrapping_neg())
}

/// Pushes `x` unless already present (the lists are short).
#[inline]
fn push_unique(list: &mut [u32; 64], n: &mut usize, x: u32) {
    if !list[..*n].contains(&x) {
        list[*n] = x;
        *n += 1;
    }
}

/// Strength (the five-card table's numbering, 0 = impossible) of every five-rank hand, reached
/// from a multiset of three or four fixed ranks plus the new cards' ranks. A player's table for
/// a deal is then the elementwise maximum of a few of these rows.
struct PartialTables {
    /// `[multiset of 3 ranks][r1 * 13 + r2]`.
    three: Vec<[u16; 169]>,
    /// `[multiset of 4 ranks][r]`.
    four: Vec<[u16; 13]>,
}

/// Index of a sorted rank multiset `a <= b <= c` among all 455 (combinatorial number system).
#[inline]
fn index3(mut r: [usize; 3]) -> usize {
    r.sort_unstable();
    r[2] * (r[2] + 1) * (r[2] + 2) / 6 + r[1] * (r[1] + 1) / 2 + r[0]
}

/// Index of a sorted rank multiset `a <= b <= c <= d` among all 1,820.
#[inline]
fn index4(mut r: [usize; 4]) -> usize {
    r.sort_unstable();
    r[3] * (r[3] + 1) * (r[3] + 2) * (r[3] + 3) / 24 + r[2] * (r[2] + 1) * (r[2] + 2) / 6 + r[1] * (r[1] + 1) / 2 + r[0]
}

/// Strength of five ranks without a flush, 0 when a rank occurs five times.
fn strength_of(ranks: &[usize]) -> u16 {
    let mut count = [0u8; 13];
    for &r in ranks {
        count[r] += 1;
    }
    if count.iter().any(|&c| c > 4) {
        return 0;
    }
    FIVE.by_key[ranks.iter().map(|&r| RANK_KEYS[r]).sum::<u32>() as usize]
}

/// Strength of the ranks of five real cards (never five of a rank).
#[inline]
fn real_strength(ranks: &[usize; 5]) -> u16 {
    FIVE.by_key[ranks.iter().map(|&r| RANK_KEYS[r]).sum::<u32>() as usize]
}

static PARTIAL: LazyLock<PartialTables> = LazyLock::new(|| {
    let mut three = vec![[0u16; 169]; 455];
    let mut four = vec![[0u16; 13]; 1820];
    for a in 0..13 {
        for b in a..13 {
            for c in b..13 {
                let row = &mut three[index3([a, b, c])];
                for r1 in 0..13 {
                    for r2 in 0..13 {
                        row[r1 * 13 + r2] = strength_of(&[a, b, c, r1, r2]);
                    }
                }
                for d in c..13 {
                    let row = &mut four[index4([a, b, c, d])];
                    for (r, v) in row.iter_mut().enumerate() {
                        *v = strength_of(&[a, b, c, d, r]);
                    }
                }
            }
        }
    }
    PartialTables { three, four }
});

/// One player's hand prepared for a deal.
#[derive(Clone)]
pub struct Player {
    /// Non-flush hi strength by the new cards' ranks (`r1 * 13 + r2`; turn: `r * 13 + r`).
    hi: [u16; 169],
    /// Best low (ace-low mask, smaller is better, `NO_LO` for none) by the new cards' ranks.
    lo: [u32; 169],
    /// Rank masks of the hole pairs of each suit (both cards of that suit).
    suited: [[u16; 10]; 4],
    n_suited: [usize; 4],
}

impl Default for Player {
    fn default() -> Self {
        Player { hi: [0; 169], lo: [NO_LO; 169], suited: [[0; 10]; 4], n_suited: [0; 4] }
    }
}

impl Player {
    fn prepare(&mut self, hole: CardSet, board: &[Card], hi_lo: bool) {
        let partial = &*PARTIAL;
        let mut cards = [Card::from_index(0); 5];
        let mut len = 0;
        for c in hole.iter().take(5) {
            cards[len] = c;
            len += 1;
        }
        let cards = &cards[..len];
        let board_ranks: [usize; 4] = std::array::from_fn(|i| board.get(i).map_or(0, |c| c.rank() as usize));
        // Rows of the partial tables this hand can use, each once.
        let (mut rows3, mut n3, mut rows4, mut n4) = ([0u32; 64], 0, [0u32; 64], 0);
        let mut fixed = 0u16;
        self.n_suited = [0; 4];
        let mut lo_pairs = [0u32; 10];
        let mut n_lo = 0;
        for i in 0..len {
            for j in i + 1..len {
                let (a, b) = (cards[i], cards[j]);
                let (ra, rb) = (a.rank() as usize, b.rank() as usize);
                if board.len() == 3 {
                    fixed = fixed.max(real_strength(&[ra, rb, board_ranks[0], board_ranks[1], board_ranks[2]]));
                    for x in 0..3 {
                        push_unique(&mut rows3, &mut n3, index3([ra, rb, board_ranks[x]]) as u32);
                        for y in x + 1..3 {
                            push_unique(&mut rows4, &mut n4, index4([ra, rb, board_ranks[x], board_ranks[y]]) as u32);
                        }
                    }
                } else {
                    for x in 0..4 {
                        for y in x + 1..4 {
                            push_unique(&mut rows4, &mut n4, index4([ra, rb, board_ranks[x], board_ranks[y]]) as u32);
                            for z in y + 1..4 {
                                fixed =
                                    fixed.max(real_strength(&[ra, rb, board_ranks[x], board_ranks[y], board_ranks[z]]));
                            }
                        }
                    }
                }
                if a.suit() == b.suit() {
                    let s = a.suit() as usize;
                    self.suited[s][self.n_suited[s]] = (1 << ra) | (1 << rb);
                    self.n_suited[s] += 1;
                }
                let (la, lb) = (lo_bit(a.rank()), lo_bit(b.rank()));
                if la != lb && (la | lb) & !LO8_BITS == 0 {
                    lo_pairs[n_lo] = la | lb;
                    n_lo += 1;
                }
            }
        }
        // One new card with two fixed board cards: a row of 13.
        let mut one = [fixed; 13];
        for &row in &rows4[..n4] {
            for (o, &v) in one.iter_mut().zip(&partial.four[row as usize]) {
                *o = (*o).max(v);
            }
        }
        if board.len() == 3 {
            // Two new cards with one board card: elementwise maxima of 169-wide rows.
            self.hi = [0; 169];
            for &row in &rows3[..n3] {
                for (h, &v) in self.hi.iter_mut().zip(&partial.three[row as usize]) {
                    *h = (*h).max(v);
                }
            }
            for r1 in 0..13 {
                for r2 in 0..13 {
                    let h = &mut self.hi[r1 * 13 + r2];
                    *h = (*h).max(one[r1]).max(one[r2]);
                }
            }
        } else {
            for (r, &v) in one.iter().enumerate() {
                self.hi[r * 13 + r] = v;
            }
        }
        if hi_lo {
            self.lo = [NO_LO; 169];
            if n_lo > 0 {
                let board_lo = board.iter().fold(0, |m, c| m | lo_bit(c.rank())) & LO8_BITS;
                for r1 in 0..13u8 {
                    for r2 in r1..13u8 {
                        let new = if board.len() == 3 { lo_bit(r1) | lo_bit(r2) } else { lo_bit(r2) };
                        let bl = board_lo | (new & LO8_BITS);
                        let mut best = NO_LO;
                        for &pl in &lo_pairs[..n_lo] {
                            let rest = bl & !pl;
                            if rest.count_ones() >= 3 {
                                best = best.min(pl | lowest3(rest));
                            }
                        }
                        self.lo[usize::from(r1) * 13 + usize::from(r2)] = best;
                        self.lo[usize::from(r2) * 13 + usize::from(r1)] = best;
                    }
                }
            }
        }
    }

    /// Best flush (or straight flush) strength with the board's cards of `suit` (3 to 5 ranks):
    /// each suited hole pair with each three of those board ranks.
    #[inline]
    fn flush(&self, suit: usize, board_ranks: u16) -> u16 {
        let t = &*FIVE;
        let mut best = 0;
        for &pm in &self.suited[suit][..self.n_suited[suit]] {
            let mut rate = |three: u16| best = best.max(t.flush[usize::from(pm | three)]);
            match board_ranks.count_ones() {
                3 => rate(board_ranks),
                4 => each_bit(board_ranks, |b| rate(board_ranks ^ b)),
                _ => each_bit(board_ranks, |b| each_bit(board_ranks & !(b | (b - 1)), |c| rate(board_ranks ^ b ^ c))),
            }
        }
        best
    }
}

/// Calls `f` with each set bit of `mask` as a one-bit mask.
#[inline]
fn each_bit(mut mask: u16, mut f: impl FnMut(u16)) {
    while mask != 0 {
        let b = mask & mask.wrapping_neg();
        f(b);
        mask ^= b;
    }
}

/// Adds `weight` times each player's share of the pot, from these hi strengths and lows
/// (`NO_LO`: none), to `acc`.
#[inline]
fn add_shares(hi: &[u16], lo: &[u32], hi_lo: bool, weight: f64, acc: &mut [f64]) {
    let best_hi = hi.iter().copied().max().unwrap_or(0);
    let best_lo = if hi_lo { lo.iter().copied().min().unwrap_or(NO_LO) } else { NO_LO };
    // Without a qualifying low the hi takes the whole pot.
    let hi_part = if best_lo == NO_LO { weight } else { weight / 2.0 };
    split_among(hi, best_hi, hi_part, acc);
    if best_lo != NO_LO {
        split_among(lo, best_lo, weight / 2.0, acc);
    }
}

/// Per-worker memory for [`omaha_equity`] (one prepared hand per seat).
#[derive(Default)]
pub struct OmahaScratch {
    players: Vec<Player>,
}

/// Exact equity of player `p` among `hands` with a three- or four-card `board`, the rest of the
/// board coming from `remaining`. `None` when the fast path does not apply.
pub fn omaha_equity(
    game: Game,
    hands: &[CardSet],
    p: usize,
    board: CardSet,
    remaining: &[Card],
    scratch: &mut OmahaScratch,
) -> Option<f64> {
    one_seat(p, |shares| omaha_equities(game, hands, board, remaining, scratch, shares))
}

/// Every player's exact equity (into `shares`) as [`omaha_equity`]; false when the fast path
/// does not apply.
pub fn omaha_equities(
    game: Game,
    hands: &[CardSet],
    board: CardSet,
    remaining: &[Card],
    scratch: &mut OmahaScratch,
    shares: &mut [f64],
) -> bool {
    let n = hands.len();
    if !game.is_omaha() {
        return false;
    }
    let Some(need) = cards_to_come(n, board, remaining, shares) else { return false };
    let hi_lo = game.pot_split() == PotSplit::HiLo8;
    let mut board_cards = [Card::from_index(0); 4];
    for (slot, c) in board_cards.iter_mut().zip(board.iter()) {
        *slot = c;
    }
    let board_cards = &board_cards[..board.len() as usize];
    if scratch.players.len() < n {
        scratch.players.resize(n, Player::default());
    }
    let players = &mut scratch.players[..n];
    for (pl, &h) in players.iter_mut().zip(hands) {
        pl.prepare(h, board_cards, hi_lo);
    }
    let players = &*players;
    // The suit that reaches three board cards with new cards of suits (a, b), 4 for none.
    let board_suits: [u32; 4] = std::array::from_fn(|s| board.suit_mask(s as u8).count_ones());
    let flush_suit: [[u8; 4]; 4] = std::array::from_fn(|a| {
        std::array::from_fn(|b| {
            let extra = |s: usize| u32::from(a == s) + if need == 2 { u32::from(b == s) } else { 0 };
            // A three-card suit nobody can use (no player holds two of it) changes nothing.
            (0..4)
                .find(|&s| board_suits[s] + extra(s) >= 3 && players.iter().any(|pl| pl.n_suited[s] > 0))
                .map_or(4, |s| s as u8)
        })
    });
    let (mut hi, mut lo) = ([0u16; MAX_PLAYERS], [NO_LO; MAX_PLAYERS]);
    let mut acc = [0.0f64; MAX_PLAYERS];
    let mut completions = 0usize;
    // Completions without a three-card suit on the board, counted by their ranks.
    let mut by_ranks = [0u32; 169];
    let rate_flush = |suit: usize, ranks: u16, cell: usize, hi: &mut [u16], lo: &mut [u32], acc: &mut [f64]| {
        let board_ranks = board.suit_mask(suit as u8) | ranks;
        for (q, pl) in players.iter().enumerate() {
            hi[q] = if pl.n_suited[suit] > 0 { pl.hi[cell].max(pl.flush(suit, board_ranks)) } else { pl.hi[cell] };
            lo[q] = pl.lo[cell];
        }
        add_shares(&hi[..n], &lo[..n], hi_lo, 1.0, acc);
    };
    if need == 2 {
        for (i, &a) in remaining.iter().enumerate() {
            let (ra, sa) = (a.rank() as usize, a.suit() as usize);
            for &b in &remaining[i + 1..] {
                let (rb, sb) = (b.rank() as usize, b.suit() as usize);
                let cell = ra * 13 + rb;
                let s = flush_suit[sa][sb] as usize;
                if s == 4 {
                    by_ranks[cell] += 1;
                } else {
                    let ranks = (if sa == s { 1u16 << ra } else { 0 }) | (if sb == s { 1u16 << rb } else { 0 });
                    rate_flush(s, ranks, cell, &mut hi, &mut lo, &mut acc);
                }
            }
        }
        completions = remaining.len() * (remaining.len() - 1) / 2;
    } else {
        for &a in remaining {
            completions += 1;
            let (r, sa) = (a.rank() as usize, a.suit() as usize);
            let s = flush_suit[sa][0] as usize;
            if s == 4 {
                by_ranks[r * 13 + r] += 1;
            } else {
                let ranks = if sa == s { 1u16 << r } else { 0 };
                rate_flush(s, ranks, r * 13 + r, &mut hi, &mut lo, &mut acc);
            }
        }
    }
    for (cell, &count) in by_ranks.iter().enumerate() {
        if count == 0 {
            continue;
        }
        for (q, pl) in players.iter().enumerate() {
            hi[q] = pl.hi[cell];
            lo[q] = pl.lo[cell];
        }
        add_shares(&hi[..n], &lo[..n], hi_lo, f64::from(count), &mut acc);
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
        let mut rng = Rng::new(11, 0);
        let mut flushy = 0;
        for round in 0..120 {
            let game = [Game::OmahaHi, Game::Omaha8, Game::Omaha5Hi, Game::Omaha85][round % 4];
            let players = 2 + round % 3;
            let mut deck: Vec<Card> = CardSet::FULL.iter().collect();
            shuffle(&mut deck, &mut rng);
            // Every third deal gets a two-tone or monotone flop so that flushes are common.
            if round % 3 == 0 {
                let mut keyed: Vec<((bool, u64), Card)> =
                    deck.iter().map(|&c| ((c.suit() != 2, rng.below(4)), c)).collect();
                keyed.sort_by_key(|k| k.0);
                deck = keyed.into_iter().map(|k| k.1).collect();
                deck.swap(0, 30);
                flushy += 1;
            }
            let mut it = deck.into_iter();
            let board_len = 3 + (round / 4) % 2;
            let board: CardSet = (0..board_len).map(|_| it.next().unwrap()).collect();
            let hands: Vec<CardSet> =
                (0..players).map(|_| (0..game.hole_cards()).map(|_| it.next().unwrap()).collect()).collect();
            let remaining: Vec<Card> = it.collect();
            for p in 0..players {
                let fast = omaha_equity(game, &hands, p, board, &remaining, &mut OmahaScratch::default()).unwrap();
                let expected = equity_by_showdowns(game, &hands, p, board, &remaining);
                assert!((fast - expected).abs() < 1e-12, "{game:?} {hands:?} on {board}: {fast} vs {expected}");
            }
        }
        assert!(flushy > 0);
    }
}
