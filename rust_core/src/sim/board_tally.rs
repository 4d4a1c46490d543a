//! Hold'em and short-deck showdowns of given hands over many boards, tallied by who wins: the
//! innermost loops of equity questions about given hands, exhaustive and Monte Carlo.
//!
//! A seven-card hand without a flush is rated from its base-5 rank key, and rank keys add: each
//! hand's key is its hole key plus the board's, and the board's is a sum over its cards, built
//! up card by card. Suit counts add the same way (a nibble per suit), and a nibble of five or
//! more says "flush", which is then rated from the cards themselves (rarely).

use super::deal::MAX_PLAYERS;
use super::rng::{PartialShuffle, Rng};
use crate::cards::{Card, CardSet};
use crate::eval::{hi_table, HiRating, HiTable};
use crate::games::{Game, PotSplit};

/// Per card index (suit * 16 + rank): in the low half 5^rank, the card's base-5 rank digit, and
/// in the high half a one in its suit's nibble. Sums over up to seven cards keep both apart
/// (5^13 < 2^32; at most seven of a suit), so one addition a card tracks both.
static CARD_KEYS: [u64; 64] = {
    let mut t = [0u64; 64];
    let mut i = 0;
    while i < 64 {
        let (suit, rank) = (i / 16, i % 16);
        if rank < 13 {
            t[i] = 5u64.pow(rank as u32) | 1 << (32 + 4 * suit);
        }
        i += 1;
    }
    t
};

#[inline]
fn card_keys(c: Card) -> u64 {
    CARD_KEYS[usize::from(c.index() & 63)]
}

/// Some suit holds five cards or more (every nibble is at most 7 with seven cards).
#[inline]
const fn has_flush(keys: u64) -> bool {
    (keys + (0x3333 << 32)) & (0x8888 << 32) != 0
}

/// Rank key and suit counts of a set of cards, summed.
fn keys_of(cards: CardSet) -> u64 {
    cards.iter().map(card_keys).sum()
}

/// Given hands and board cards, and the cards the rest of the board comes from.
pub struct BoardTally {
    table: &'static HiTable,
    players: usize,
    hole: [CardSet; MAX_PLAYERS],
    hole_keys: [u64; MAX_PLAYERS],
    /// The known board cards and their keys.
    board: CardSet,
    board_keys: u64,
    /// Board cards to come.
    open: usize,
    /// The cards the board comes from (the first `left`), in an array of fixed size so that
    /// positions masked with 63 need no bounds checks.
    remaining: [Card; 64],
    left: usize,
    /// Deals by hi winner mask.
    pub counts: Vec<u64>,
    /// The first board (known cards and then the new ones) of each winner mask, to replay it.
    pub example: Vec<Option<[Card; 5]>>,
}

impl BoardTally {
    /// For a hi-only flop game other than Omaha (whose hands are two-plus-three, not seven
    /// cards) with all of `hands` given: `None` otherwise.
    pub fn new(game: Game, hands: &[CardSet], board: CardSet, remaining: &[Card]) -> Option<BoardTally> {
        if game.is_omaha() || game.is_stud() || game.pot_split() != PotSplit::HiOnly || hands.len() > MAX_PLAYERS {
            return None;
        }
        let open = 5usize.checked_sub(board.len() as usize)?;
        if hands.iter().any(|h| h.len() != 2) || remaining.len() < open || remaining.len() > 64 {
            return None;
        }
        let mut t = BoardTally {
            table: hi_table(game.hi_rules()),
            players: hands.len(),
            hole: [CardSet::EMPTY; MAX_PLAYERS],
            hole_keys: [0; MAX_PLAYERS],
            board,
            board_keys: keys_of(board),
            open,
            remaining: [Card::from_index(0); 64],
            left: remaining.len(),
            counts: vec![0; 1 << hands.len()],
            example: vec![None; 1 << hands.len()],
        };
        t.remaining[..remaining.len()].copy_from_slice(remaining);
        for (p, &h) in hands.iter().enumerate() {
            t.hole[p] = h;
            t.hole_keys[p] = keys_of(h);
        }
        Some(t)
    }

    /// Board cards still to come.
    pub fn open(&self) -> usize {
        self.open
    }

    /// The hi winners of the board whose whole keys are given, `new` being the cards added to
    /// the known board.
    #[inline]
    fn winners(&self, board_keys: u64, new: impl Fn() -> CardSet) -> u32 {
        let (mut best, mut winners) = (HiRating::NONE, 0u32);
        for p in 0..self.players {
            let keys = board_keys + self.hole_keys[p];
            let r = if has_flush(keys) {
                self.table.rate(self.hole[p].union(self.board).union(new()))
            } else {
                self.table.rate_seven_unsuited(keys as u32)
            };
            if r > best {
                best = r;
                winners = 1 << p;
            } else if r == best {
                winners |= 1 << p;
            }
        }
        winners
    }

    #[inline]
    fn count(&mut self, winners: u32, new: &[Card]) {
        let w = winners as usize;
        self.counts[w] += 1;
        if self.example[w].is_none() {
            let mut board = [Card::from_index(0); 5];
            for (slot, c) in board.iter_mut().zip(self.board.iter().chain(new.iter().copied())) {
                *slot = c;
            }
            self.example[w] = Some(board);
        }
    }

    /// Every completion of the board whose lowest new card is `remaining[first]` (all of them
    /// for `None`), each counted once.
    pub fn enumerate(&mut self, first: Option<usize>) {
        let n = self.left;
        let k = self.open;
        if k == 0 {
            if first.is_none_or(|f| f == 0) {
                let w = self.winners(self.board_keys, || CardSet::EMPTY);
                self.count(w, &[]);
            }
            return;
        }
        let starts = match first {
            Some(f) => f..(f + 1).min(n + 1 - k),
            None => 0..n + 1 - k,
        };
        let mut chosen = [Card::from_index(0); 5];
        for i in starts {
            let c = self.remaining[i & 63];
            chosen[0] = c;
            self.extend(i + 1, 1, self.board_keys + card_keys(c), &mut chosen);
        }
    }

    /// Chooses the `depth`-th new card among `remaining[from..]`.
    fn extend(&mut self, from: usize, depth: usize, keys: u64, chosen: &mut [Card; 5]) {
        let k = self.open;
        if depth == k {
            let new = &chosen[..k];
            let w = self.winners(keys, || new.iter().copied().collect());
            self.count(w, new);
            return;
        }
        let n = self.left;
        for i in from..n + 1 + depth - k {
            let c = self.remaining[i & 63];
            chosen[depth] = c;
            if depth + 1 == k {
                // The innermost loop, without the recursion.
                let new = &chosen[..k];
                let w = self.winners(keys + card_keys(c), || new.iter().copied().collect());
                self.count(w, new);
            } else {
                self.extend(i + 1, depth + 1, keys + card_keys(c), chosen);
            }
        }
    }

    /// `trials` random completions of the board, uniform over the remaining cards (a partial
    /// shuffle of them: the order left behind carries on to the next call).
    pub fn sample(&mut self, rng: &mut Rng, shuffle: &PartialShuffle, trials: u64) {
        if let Some(threshold) = shuffle.single_batch() {
            match self.open {
                5 => return self.sample_batched::<5>(rng, threshold, trials),
                2 => return self.sample_batched::<2>(rng, threshold, trials),
                1 => return self.sample_batched::<1>(rng, threshold, trials),
                _ => {}
            }
        }
        let k = self.open;
        for _ in 0..trials {
            let cards = &mut self.remaining;
            rng.partial_shuffle(shuffle, |i, j| cards.swap(i & 63, j & 63));
            let keys = self.board_keys + self.remaining[..k].iter().copied().map(card_keys).sum::<u64>();
            let new = &self.remaining[..k];
            let w = self.winners(keys, || new.iter().copied().collect());
            let w = w as usize;
            self.counts[w] += 1;
            if self.example[w].is_none() {
                let mut board = [Card::from_index(0); 5];
                for (slot, c) in board.iter_mut().zip(self.board.iter().chain(self.remaining[..k].iter().copied())) {
                    *slot = c;
                }
                self.example[w] = Some(board);
            }
        }
    }

    /// [`BoardTally::sample`] when the `K` new cards come from one 64-bit draw: the shuffle, the
    /// keys and the showdown in one loop, unrolled for the commonest board sizes.
    #[inline(never)]
    fn sample_batched<const K: usize>(&mut self, rng: &mut Rng, threshold: u64, trials: u64) {
        let n = self.left;
        for _ in 0..trials {
            let offsets = rng.batch_offsets::<K>(n, threshold);
            let mut keys = self.board_keys;
            for (t, &offset) in offsets.iter().enumerate() {
                self.remaining.swap(t & 63, (t + offset) & 63);
                keys += card_keys(self.remaining[t & 63]);
            }
            let mut new = [Card::from_index(0); K];
            new.copy_from_slice(&self.remaining[..K]);
            let w = self.winners(keys, || new.iter().copied().collect());
            self.count(w, &new);
        }
    }

    /// Puts the remaining cards back in the order they were given.
    pub fn reset_order(&mut self, order: &[Card]) {
        self.remaining[..order.len()].copy_from_slice(order);
    }

    /// Forgets the counts (examples are kept: any board of an outcome serves).
    pub fn clear(&mut self) {
        self.counts.fill(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;
    use crate::sim::showdown::Showdown;

    fn winners_by_showdown(game: Game, hands: &[CardSet], board: CardSet) -> u32 {
        let s = Showdown::new(game, hands, board);
        (0..hands.len()).filter(|&p| s.has_best_hi(p)).fold(0, |m, p| m | 1 << p)
    }

    #[test]
    fn enumeration_matches_a_showdown_per_board() {
        for (game, hands, board) in [
            (Game::Holdem, vec!["AsAh", "KsKd"], "2s7s"),
            (Game::Holdem, vec!["AsKs", "QsJs", "9h9d"], "Ts2s3d"),
            (Game::ShortDeck, vec!["AsKs", "9h9d"], "6s7s8d"),
            (Game::ShortDeckTriton, vec!["AhKd", "QcQd"], "QsJhTs"),
        ] {
            let hands: Vec<CardSet> = hands.iter().map(|h| parse_cards(h).unwrap()).collect();
            let board = parse_cards(board).unwrap();
            let used = hands.iter().fold(board, |u, &h| u.union(h));
            let remaining: Vec<Card> = game.deck().cards().minus(used).to_vec();
            let mut t = BoardTally::new(game, &hands, board, &remaining).unwrap();
            t.enumerate(None);
            let mut expected = vec![0u64; 1 << hands.len()];
            crate::sim::trial::for_each_combination(&remaining, t.open(), board, &mut |b| {
                expected[winners_by_showdown(game, &hands, b) as usize] += 1;
            });
            assert_eq!(t.counts, expected, "{game:?}");
            // Split by first card, the parts add up to the whole.
            let mut parts = BoardTally::new(game, &hands, board, &remaining).unwrap();
            for f in 0..remaining.len() {
                parts.enumerate(Some(f));
            }
            assert_eq!(parts.counts, expected);
        }
    }
}
