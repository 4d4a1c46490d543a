//! Exact stud equity on a street: every way to deal each player's remaining cards. Each
//! player's hand is rated once per combination of its own new cards (a table of a few hundred
//! entries), then every assignment of disjoint combinations to the players is settled from the
//! tables: heads-up on fifth street that is 861 ratings per player and ~671,000 table lookups
//! instead of as many seven-card showdowns.

use crate::cards::{binomial, for_each_combination, Card, CardSet};
use crate::deal::MAX_PLAYERS;
use crate::eval::{rate_hi, rate_lo8, rate_razz, HiRating, LoRating};
use crate::games::{Game, PotSplit};

/// Assignments of the remaining cards visited exactly, at most; more are sampled by the caller.
/// Heads-up fifth street (~671,000) and sixth street at any table size fit.
pub const STUD_EXACT_SHOWDOWNS: f64 = 1_000_000.0;

/// Stud equities with more ways to deal the remaining cards than [`STUD_EXACT_SHOWDOWNS`]
/// (third and fourth street, fifth street three-handed) are sampled: this many deals, from a
/// fresh stream each time, so that the run's standard error includes the sampling.
pub const STUD_EQUITY_SAMPLES: u32 = 4000;

/// How many assignments [`stud_equities`] visits: `players` hands each getting `per_player` of
/// `remaining` cards.
pub fn assignments(players: usize, remaining: usize, per_player: usize) -> f64 {
    (0..players).map(|q| binomial(remaining.saturating_sub(q * per_player), per_player)).product()
}

/// One player's hand completed by one combination of new cards.
#[derive(Clone, Copy)]
struct Entry {
    new: CardSet,
    hi: HiRating,
    lo: Option<LoRating>,
}

/// Per-worker memory for [`stud_equities`]: the players' tables.
#[derive(Default)]
pub struct StudScratch {
    tables: Vec<Vec<Entry>>,
    /// Heads-up: the second player's sorted keys among entries holding each card.
    by_card: Vec<Vec<u32>>,
}

/// The single key a showdown is decided by when there is no hi/lo split (greater is better).
#[inline]
fn key(split: PotSplit, e: &Entry) -> u32 {
    if split == PotSplit::LoOnly {
        e.lo.map_or(0, |l| l.0)
    } else {
        e.hi.0
    }
}

/// Heads-up, one or two new cards each, decided by one key: the first player's summed share and
/// the number of assignments. For each of its entries the second player's entries below (and
/// equal to) its key are counted by binary search, less those sharing a card with it (by the
/// per-card lists; an entry sharing both of two cards is the same combination, at the same
/// index in both tables, taken back once).
fn heads_up_ranked(split: PotSplit, t0: &[Entry], t1: &[Entry], by_card: &mut Vec<Vec<u32>>) -> (f64, f64) {
    if by_card.len() < 64 {
        by_card.resize_with(64, Vec::new);
    }
    for list in by_card.iter_mut() {
        list.clear();
    }
    let mut all: Vec<u32> = Vec::with_capacity(t1.len());
    for e in t1 {
        let k = key(split, e);
        all.push(k);
        for c in e.new {
            by_card[c.index() as usize].push(k);
        }
    }
    all.sort_unstable();
    for list in by_card.iter_mut() {
        list.sort_unstable();
    }
    let below = |v: &[u32], x: u32| v.partition_point(|&k| k < x) as f64;
    let upto = |v: &[u32], x: u32| v.partition_point(|&k| k <= x) as f64;
    let (mut won, mut count) = (0.0, 0.0);
    for (i, a) in t0.iter().enumerate() {
        let ka = key(split, a);
        let (mut less, mut leq, mut n) = (below(&all, ka), upto(&all, ka), all.len() as f64);
        for c in a.new {
            let list = &by_card[c.index() as usize];
            less -= below(list, ka);
            leq -= upto(list, ka);
            n -= list.len() as f64;
        }
        if a.new.len() == 2 {
            // Both tables list the same combinations in the same order.
            let kb = key(split, &t1[i]);
            less += f64::from(u8::from(kb < ka));
            leq += f64::from(u8::from(kb <= ka));
            n += 1.0;
        }
        won += less + (leq - less) / 2.0;
        count += n;
    }
    (won, count)
}

/// Every player's exact equity (into `shares`) when each of `hands` gets `per_player` more cards
/// from `remaining`, no card twice.
pub fn stud_equities(
    game: Game,
    hands: &[CardSet],
    remaining: &[Card],
    per_player: usize,
    scratch: &mut StudScratch,
    shares: &mut [f64],
) {
    let n = hands.len();
    let split = game.pot_split();
    let rules = game.hi_rules();
    if scratch.tables.len() < n {
        scratch.tables.resize_with(n, Vec::new);
    }
    for (table, &hand) in scratch.tables.iter_mut().zip(hands) {
        table.clear();
        for_each_combination(remaining, per_player, CardSet::EMPTY, &mut |new| {
            let all = hand.union(new);
            let (hi, lo) = match split {
                PotSplit::HiOnly => (rate_hi(all, rules), None),
                PotSplit::HiLo8 => (rate_hi(all, rules), rate_lo8(all)),
                PotSplit::LoOnly => (HiRating::NONE, Some(rate_razz(all))),
            };
            table.push(Entry { new, hi, lo });
        });
    }
    let tables = &scratch.tables[..n];
    let mut acc = [0.0f64; MAX_PLAYERS];
    let mut count = 0.0f64;
    let mut his = [HiRating::NONE; MAX_PLAYERS];
    let mut los = [None; MAX_PLAYERS];
    if n == 2 && split != PotSplit::HiLo8 && (1..=2).contains(&per_player) {
        // Heads-up with one ranking (hi, or razz's low): count by sorted keys.
        let (won, count) = heads_up_ranked(split, &tables[0], &tables[1], &mut scratch.by_card);
        let s0 = if count > 0.0 { won / count } else { 0.0 };
        shares[0] = s0;
        shares[1] = if count > 0.0 { 1.0 - s0 } else { 0.0 };
        return;
    }
    if n == 2 {
        // The common case, without the recursion.
        for a in &tables[0] {
            his[0] = a.hi;
            los[0] = a.lo;
            for b in tables[1].iter().filter(|b| !b.new.overlaps(a.new)) {
                his[1] = b.hi;
                los[1] = b.lo;
                add_shares(split, &his[..2], &los[..2], &mut acc);
                count += 1.0;
            }
        }
    } else {
        assign(split, tables, 0, CardSet::EMPTY, &mut his, &mut los, &mut acc, &mut count);
    }
    for (out, a) in shares.iter_mut().zip(&acc[..n]) {
        *out = if count > 0.0 { a / count } else { 0.0 };
    }
}

/// Visits every assignment of disjoint table entries to the players from `q` on.
#[allow(clippy::too_many_arguments)]
fn assign(
    split: PotSplit,
    tables: &[Vec<Entry>],
    q: usize,
    taken: CardSet,
    his: &mut [HiRating; MAX_PLAYERS],
    los: &mut [Option<LoRating>; MAX_PLAYERS],
    acc: &mut [f64; MAX_PLAYERS],
    count: &mut f64,
) {
    let n = tables.len();
    if q == n {
        add_shares(split, &his[..n], &los[..n], acc);
        *count += 1.0;
        return;
    }
    for e in tables[q].iter().filter(|e| !e.new.overlaps(taken)) {
        his[q] = e.hi;
        los[q] = e.lo;
        assign(split, tables, q + 1, taken.union(e.new), his, los, acc, count);
    }
}

/// Adds each player's share of one showdown (ties split; hi/lo halves; no low: the hi scoops).
#[inline]
fn add_shares(split: PotSplit, his: &[HiRating], los: &[Option<LoRating>], acc: &mut [f64]) {
    let best_lo = los.iter().copied().max().flatten();
    let hi_part = match (split, best_lo) {
        (PotSplit::LoOnly, _) => 0.0,
        (PotSplit::HiLo8, Some(_)) => 0.5,
        _ => 1.0,
    };
    if hi_part > 0.0 {
        let best = his.iter().copied().max().unwrap_or_default();
        let each = hi_part / his.iter().filter(|&&h| h == best).count() as f64;
        for (a, &h) in acc.iter_mut().zip(his) {
            if h == best {
                *a += each;
            }
        }
    }
    if let Some(best) = best_lo {
        let each = (1.0 - hi_part) / los.iter().filter(|&&l| l == Some(best)).count() as f64;
        for (a, &l) in acc.iter_mut().zip(los) {
            if l == Some(best) {
                *a += each;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels::board_completions::testing::shuffle;
    use crate::kernels::showdown::Showdown;
    use crate::rng::Rng;

    /// The plain way: a showdown for every way to deal the remaining cards.
    fn by_showdowns(game: Game, hands: &[CardSet], p: usize, remaining: &[Card], k: usize) -> f64 {
        fn go(game: Game, hands: &mut Vec<CardSet>, q: usize, p: usize, rem: &[Card], k: usize, acc: &mut (f64, f64)) {
            if q == hands.len() {
                acc.0 += Showdown::new(game, hands, CardSet::EMPTY).share(p);
                acc.1 += 1.0;
                return;
            }
            let taken: CardSet = hands.iter().fold(CardSet::EMPTY, |a, &h| a.union(h));
            let free: Vec<Card> = rem.iter().copied().filter(|c| !taken.contains(*c)).collect();
            let before = hands[q];
            for_each_combination(&free, k, CardSet::EMPTY, &mut |new| {
                hands[q] = before.union(new);
                go(game, hands, q + 1, p, rem, k, acc);
            });
            hands[q] = before;
        }
        let mut acc = (0.0, 0.0);
        go(game, &mut hands.to_vec(), 0, p, remaining, k, &mut acc);
        acc.0 / acc.1
    }

    #[test]
    fn matches_a_showdown_per_assignment() {
        let mut rng = Rng::new(21, 0);
        for round in 0..24 {
            let game = [Game::StudHi, Game::Stud8, Game::Razz][round % 3];
            let players = 2 + (round / 3) % 2;
            // Sixth street for three players, fifth or sixth heads-up; few remaining cards keep
            // the plain enumeration short.
            let known = if players == 3 || round % 2 == 0 { 6 } else { 5 };
            let mut deck: Vec<Card> = CardSet::FULL.iter().collect();
            shuffle(&mut deck, &mut rng);
            let mut it = deck.into_iter();
            let hands: Vec<CardSet> = (0..players).map(|_| (0..known).map(|_| it.next().unwrap()).collect()).collect();
            let remaining: Vec<Card> = it.take(if known == 5 { 14 } else { 30 }).collect();
            let mut shares = [0.0; MAX_PLAYERS];
            stud_equities(game, &hands, &remaining, 7 - known, &mut StudScratch::default(), &mut shares);
            for (p, &fast) in shares[..players].iter().enumerate() {
                let slow = by_showdowns(game, &hands, p, &remaining, 7 - known);
                assert!((fast - slow).abs() < 1e-12, "{game:?} {hands:?}: {fast} vs {slow}");
            }
            let total: f64 = shares[..players].iter().sum();
            assert!((total - 1.0).abs() < 1e-12);
        }
    }
}
