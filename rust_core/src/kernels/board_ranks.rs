//! Exact showdown tallies of given hold'em (and short deck) hands over every completion of the
//! board, visiting rank multisets instead of boards.
//!
//! Without a flush a seven-card hand is rated by its ranks alone, so every board with the same
//! rank multiset gives the same outcome; the boards of a multiset are counted, not visited (the
//! product over its ranks of the ways to choose that many of the rank's cards left). That
//! counts flush boards as if they had no flush, so they are then corrected one by one: a board
//! matters for flushes when some suit's board cards and the most any player holds of that
//! suit reach five, and with two hole cards that needs three board cards of the suit, so at
//! most one suit of a board can matter. The boards that matter for suit `s` are its `t` board
//! cards of `s` (every choice of them, `t` at least what a flush needs) and the rest of the
//! board, whose suits no longer matter, by rank multiset with its count; each is rated with
//! and without its flushes, and its count moves from the outcome without to the outcome with.
//! Preflop heads-up this is about 6,000 multisets and 20,000 flush boards instead of 1,712,304
//! boards; every count is exactly the plain enumeration's.

use crate::cards::{Card, CardSet};
use crate::deal::MAX_PLAYERS;
use crate::eval::{keys_of, rank_key, BoardRankSlots, SevenCards, FIVE_RANK_SLOTS};

/// 5^rank: a rank's digit in a rank key.
const RANK_DIGIT: [u32; 13] = {
    let mut t = [0u32; 13];
    let mut r = 0;
    let mut d = 1;
    while r < 13 {
        t[r] = d;
        d *= 5;
        r += 1;
    }
    t
};

/// C(n, k) for the at most four cards of a rank.
const CHOOSE: [[u64; 5]; 5] = [[1, 0, 0, 0, 0], [1, 1, 0, 0, 0], [1, 2, 1, 0, 0], [1, 3, 3, 1, 0], [1, 4, 6, 4, 1]];

/// What the counting needs of one showdown: the players' rank keys (hole and known board), how
/// the unsuited ranks of a board are read, and the suits' facts.
struct Counting<'a> {
    seven: SevenCards,
    hands: &'a [CardSet],
    known: CardSet,
    /// Each player's rank key with the known board cards.
    own: [u32; MAX_PLAYERS],
    /// Five open cards: each player's ranks by board slot (one hash a board).
    rows: Option<(BoardRankSlots, Vec<&'static [u16; FIVE_RANK_SLOTS]>)>,
}

impl Counting<'_> {
    /// Each player's rank without flushes when the open cards' rank key is `key`.
    #[inline]
    fn unsuited(&self, key: u32, ranks: &mut [u16; MAX_PLAYERS]) {
        let n = self.hands.len();
        match &self.rows {
            Some((slots, rows)) => {
                let slot = slots.slot(key);
                for (r, row) in ranks.iter_mut().zip(rows) {
                    *r = row[slot];
                }
            }
            None => {
                for (r, &own) in ranks[..n].iter_mut().zip(&self.own) {
                    *r = self.seven.order(own + key);
                }
            }
        }
    }
}

/// The mask of the players whose ranks are the best.
#[inline]
fn winners(ranks: &[u16]) -> usize {
    let best = ranks.iter().copied().max().unwrap_or(0);
    ranks.iter().enumerate().fold(0, |w, (p, &r)| w | usize::from(r == best) << p)
}

/// Every multiset of `size` ranks with at most `avail[r]` of rank `r`: its rank key and the
/// number of ways to choose its cards (the product of C(avail[r], count)).
fn multisets(avail: &[u8; 13], size: usize) -> Vec<(u32, u64)> {
    // Each step adds a rank not yet in the multiset, above the last one added.
    fn go(avail: &[u8; 13], from: usize, left: usize, key: u32, ways: u64, out: &mut Vec<(u32, u64)>) {
        if left == 0 {
            out.push((key, ways));
            return;
        }
        for rank in from..13 {
            let have = usize::from(avail[rank]);
            for (count, &choose) in CHOOSE[have].iter().enumerate().take(have.min(left) + 1).skip(1) {
                let (key, ways) = (key + RANK_DIGIT[rank] * count as u32, ways * choose);
                go(avail, rank + 1, left - count, key, ways, out);
            }
        }
    }
    let mut out = Vec::new();
    go(avail, 0, size, 0, 1, &mut out);
    out
}

/// Cards left of each rank in `cards`.
fn rank_counts(cards: CardSet) -> [u8; 13] {
    std::array::from_fn(|r| cards.rank_count(r as u8) as u8)
}

/// Whether the counting applies: every player holds two cards (no suit then matters for more
/// than one board), one to five board cards are to come, and enough cards are left.
pub fn applies(hands: &[CardSet], known: CardSet, remaining: CardSet) -> bool {
    let open = 5usize.checked_sub(known.len() as usize);
    (1..=MAX_PLAYERS).contains(&hands.len())
        && hands.iter().all(|h| h.len() == 2)
        && open.is_some_and(|k| k >= 1 && remaining.len() as usize >= k)
}

/// Adds to `counts` (indexed by the mask of the hi winners) the outcome of every completion of
/// the board `known` from the cards `remaining`, each counted once, as the plain enumeration
/// would; `examples[o]`, when empty, gets the open cards of one completion whose outcome is `o`.
/// See the module doc; [`applies`] must hold.
pub fn tally(
    seven: SevenCards,
    hands: &[CardSet],
    known: CardSet,
    remaining: CardSet,
    counts: &mut [u64],
    examples: &mut [Option<Vec<Card>>],
) {
    debug_assert!(applies(hands, known, remaining));
    let n = hands.len();
    let k = 5 - known.len() as usize;
    let mut own = [0u32; MAX_PLAYERS];
    for (o, &h) in own.iter_mut().zip(hands) {
        *o = rank_key(keys_of(h.union(known)));
    }
    // Five open cards: one row a player, read by the board's slot. Fewer: a hash a player.
    let rows = if k == 5 { hands.iter().map(|&h| seven.by_board(h)).collect::<Option<Vec<_>>>() } else { None };
    let showdown = Counting { seven, hands, known, own, rows: rows.map(|rows| (BoardRankSlots::new(), rows)) };
    let mut totals = vec![0i64; counts.len()];
    let avail = rank_counts(remaining);
    let mut ranks = [0u16; MAX_PLAYERS];
    for (key, ways) in multisets(&avail, k) {
        showdown.unsuited(key, &mut ranks);
        totals[winners(&ranks[..n])] += ways as i64;
    }
    for s in 0..4u8 {
        flush_corrections(&showdown, s, remaining, &mut totals, examples);
    }
    for (count, &total) in counts.iter_mut().zip(&totals) {
        debug_assert!(total >= 0);
        *count += total as u64;
    }
    for (o, example) in examples.iter_mut().enumerate() {
        if example.is_none() && totals[o] > 0 {
            *example = Some(plain_example(&showdown, remaining, o));
        }
    }
}

/// The corrections for the boards on which suit `s` matters (see the module doc): each such
/// board's count moves from its outcome without flushes to its outcome with them.
fn flush_corrections(
    showdown: &Counting,
    s: u8,
    remaining: CardSet,
    totals: &mut [i64],
    examples: &mut [Option<Vec<Card>>],
) {
    let hands = showdown.hands;
    let n = hands.len();
    let k = 5 - showdown.known.len() as usize;
    let known_lane = u32::from(showdown.known.suit_mask(s));
    let held = |p: usize| hands[p].suit_mask(s).count_ones();
    let most_held = (0..n).map(held).max().unwrap_or(0);
    let known_count = known_lane.count_ones();
    let suited = u32::from(remaining.suit_mask(s));
    // Fewer board cards of `s` than this and nobody can hold five of it.
    let need = 5u32.saturating_sub(known_count + most_held) as usize;
    let most = k.min(suited.count_ones() as usize);
    if need > most {
        return;
    }
    // The other cards by rank: their suits cannot make a flush on a board where `s` matters.
    let others = rank_counts(remaining.minus(CardSet::from_bits(u64::from(suited) << (16 * u32::from(s)))));
    let rests: Vec<Vec<(u32, u64)>> = (0..=k - need).map(|size| multisets(&others, size)).collect();
    let mut unsuited = [0u16; MAX_PLAYERS];
    let mut best = [0u16; MAX_PLAYERS];
    let mut flushes = [0u16; MAX_PLAYERS];
    for t in need..=most {
        for_each_subset(suited, t, &mut |chosen| {
            let chosen_key: u32 = bits(chosen).map(|r| RANK_DIGIT[r]).sum();
            for (p, f) in flushes[..n].iter_mut().enumerate() {
                let lane = u32::from(hands[p].suit_mask(s)) | known_lane | chosen;
                *f = if lane.count_ones() >= 5 { showdown.seven.flush_order(lane) } else { 0 };
            }
            for &(key, ways) in &rests[k - t] {
                showdown.unsuited(chosen_key + key, &mut unsuited);
                for ((b, &u), &f) in best[..n].iter_mut().zip(&unsuited).zip(&flushes) {
                    *b = u.max(f);
                }
                let (without, with) = (winners(&unsuited[..n]), winners(&best[..n]));
                if without != with {
                    totals[without] -= ways as i64;
                    totals[with] += ways as i64;
                }
                if examples[with].is_none() {
                    examples[with] = Some(flush_board(s, chosen, key, remaining));
                }
            }
        });
    }
}

/// The open cards of one board: ranks `chosen` in suit `s`, and for the rank key `rest` cards
/// of other suits from `remaining`.
fn flush_board(s: u8, chosen: u32, rest: u32, remaining: CardSet) -> Vec<Card> {
    let mut cards: Vec<Card> = bits(chosen).map(|r| Card::new(r as u8, s)).collect();
    let mut key = rest;
    for r in 0..13u8 {
        let count = key % 5;
        key /= 5;
        let offered = (0..4u8).filter(|&t| t != s).map(|t| Card::new(r, t)).filter(|&c| remaining.contains(c));
        cards.extend(offered.take(count as usize));
    }
    cards
}

/// The open cards of one board without a suit that matters whose outcome (without flushes) is
/// `outcome`. Some multiset of that outcome has such a board when its count is positive after
/// the corrections (the corrections only take away boards where a suit matters).
fn plain_example(showdown: &Counting, remaining: CardSet, outcome: usize) -> Vec<Card> {
    let n = showdown.hands.len();
    let k = 5 - showdown.known.len() as usize;
    // How many more board cards of each suit the board may take before the suit matters.
    let room: [i32; 4] = std::array::from_fn(|s| {
        let s = s as u8;
        let most_held = showdown.hands.iter().map(|h| h.suit_mask(s).count_ones()).max().unwrap_or(0);
        4 - (most_held + showdown.known.suit_mask(s).count_ones()) as i32
    });
    let mut ranks = [0u16; MAX_PLAYERS];
    multisets(&rank_counts(remaining), k)
        .into_iter()
        .find_map(|(key, _)| {
            showdown.unsuited(key, &mut ranks);
            (winners(&ranks[..n]) == outcome).then(|| board_within(key, remaining, room)).flatten()
        })
        .expect("an outcome counted without flushes has a board without one")
}

/// Cards of rank multiset `key` from `remaining` with at most `room[s]` of each suit.
fn board_within(key: u32, remaining: CardSet, room: [i32; 4]) -> Option<Vec<Card>> {
    fn place(ranks: &[u8], remaining: CardSet, room: &mut [i32; 4], out: &mut Vec<Card>) -> bool {
        let Some((&r, rest)) = ranks.split_first() else { return true };
        for s in 0..4u8 {
            let c = Card::new(r, s);
            if room[s as usize] > 0 && remaining.contains(c) && !out.contains(&c) {
                room[s as usize] -= 1;
                out.push(c);
                if place(rest, remaining, room, out) {
                    return true;
                }
                out.pop();
                room[s as usize] += 1;
            }
        }
        false
    }
    let mut ranks = Vec::new();
    let mut key = key;
    for r in 0..13u8 {
        ranks.extend(std::iter::repeat_n(r, (key % 5) as usize));
        key /= 5;
    }
    let mut out = Vec::with_capacity(ranks.len());
    let mut room = room;
    place(&ranks, remaining, &mut room, &mut out).then_some(out)
}

/// The set bits of a rank mask, lowest first.
fn bits(mut mask: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let r = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            r
        })
    })
}

/// Every subset of `size` of the set bits of `mask`.
fn for_each_subset(mask: u32, size: usize, visit: &mut impl FnMut(u32)) {
    fn go(mask: u32, size: usize, chosen: u32, visit: &mut impl FnMut(u32)) {
        if size == 0 {
            visit(chosen);
            return;
        }
        if (mask.count_ones() as usize) < size {
            return;
        }
        let low = mask & mask.wrapping_neg();
        go(mask ^ low, size - 1, chosen | low, visit);
        go(mask ^ low, size, chosen, visit);
    }
    go(mask, size, 0, visit);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::for_each_combination;
    use crate::eval::hi_table;
    use crate::games::Game;
    use crate::kernels::board_completions::testing::shuffle;
    use crate::kernels::showdown::Showdown;
    use crate::rng::Rng;

    /// The plain way: every completion, a showdown each.
    fn by_showdowns(game: Game, hands: &[CardSet], known: CardSet, remaining: CardSet) -> Vec<u64> {
        let mut counts = vec![0u64; 1 << hands.len()];
        let cards: Vec<Card> = remaining.to_vec();
        for_each_combination(&cards, 5 - known.len() as usize, known, &mut |board| {
            let s = Showdown::new(game, hands, board);
            counts[(0..hands.len()).filter(|&p| s.has_best_hi(p)).fold(0, |m, p| m | 1 << p)] += 1;
        });
        counts
    }

    #[test]
    fn counts_every_completion_as_the_plain_enumeration() {
        // Random hands, known board cards and dead cards, 2-6 players, every hold'em rules; a
        // third of the deals suited-heavy (flush boards everywhere). Every example replays to
        // its outcome.
        let mut rng = Rng::new(31, 0);
        for round in 0..240 {
            let game = [Game::Holdem, Game::ShortDeck, Game::ShortDeckTriton][round % 3];
            let players = 2 + round % 5;
            let mut deck: Vec<Card> = game.deck().cards().iter().collect();
            shuffle(&mut deck, &mut rng);
            if round % 3 == 1 {
                let mut keyed: Vec<((bool, u64), Card)> =
                    deck.iter().map(|&c| ((c.suit() > 1, rng.below(4)), c)).collect();
                keyed.sort_by_key(|k| k.0);
                deck = keyed.into_iter().map(|k| k.1).collect();
            }
            let mut it = deck.into_iter();
            let hands: Vec<CardSet> = (0..players).map(|_| (0..2).map(|_| it.next().unwrap()).collect()).collect();
            // Preflop is slow by showdowns: only for few players; flop and turn always.
            let known_count = match round % 4 {
                0 if players <= 3 => 0,
                0 | 1 => 3,
                2 => 4,
                _ => 2 + (round / 4) % 3,
            };
            let known: CardSet = (0..known_count).map(|_| it.next().unwrap()).collect();
            let dead: CardSet = (0..rng.below(4)).map(|_| it.next().unwrap()).collect();
            let remaining: CardSet = it.collect();
            if known_count == 0 && round % 8 != 0 {
                continue;
            }
            let table = hi_table(game.hi_rules());
            let mut counts = vec![0u64; 1 << players];
            let mut examples = vec![None; 1 << players];
            tally(table.seven_cards(), &hands, known, remaining, &mut counts, &mut examples);
            let expected = by_showdowns(game, &hands, known, remaining);
            assert_eq!(counts, expected, "{game:?} {hands:?} on {known} without {dead}");
            for (o, example) in examples.iter().enumerate() {
                assert_eq!(example.is_some(), counts[o] > 0, "outcome {o}");
                if let Some(cards) = example {
                    let board = cards.iter().fold(known, |b, &c| b.with(c));
                    assert_eq!(board.len(), 5);
                    assert!(!known.overlaps(CardSet::from_cards(cards.iter().copied())));
                    assert!(cards.iter().all(|&c| remaining.contains(c)));
                    let s = Showdown::new(game, &hands, board);
                    let winners = (0..players).filter(|&p| s.has_best_hi(p)).fold(0, |m, p| m | 1 << p);
                    assert_eq!(winners, o, "{hands:?} on {board}");
                }
            }
        }
    }
}
