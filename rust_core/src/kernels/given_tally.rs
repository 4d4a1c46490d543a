//! Showdowns of given hands over many deals, tallied by who wins: the innermost loops of equity
//! questions about given hands in every game, exhaustive and Monte Carlo.
//!
//! In hold'em, short deck and the stud games every player ends with seven cards, and a
//! seven-card hand without a flush (and any low) is rated from its base-5 rank key, and rank
//! keys add: each player's key is the sum over their cards, given or dealt, and the board's.
//! Suit counts add the same way (a nibble per suit), and a nibble of five or more says "flush",
//! which is then rated from the cards themselves. In Omaha the river board's key picks a row of
//! best unsuited hands by hole rank pair, and each hand reads its pairs' entries; a board with
//! three cards of a suit lets hands with two of that suit try their flushes.
//!
//! The deals' side builds a tally here: `FixedDeal::given_tally` (Monte Carlo) and
//! `DealSpec::given_tally` (an exact prefix) are defined at the end of this file, since the deal
//! room knows nothing of who wins.

use super::board_ranks;
use crate::cards::{Card, CardSet};
use crate::deal::exhaustive::Prefix;
use crate::deal::source::{place, BoardSource, DealSpec, FixedDeal, HandSource, BOARD, OPEN};
use crate::deal::suit_classes::SuitMap;
use crate::deal::{Deal, MAX_PLAYERS};
use crate::eval::{
    best_flush, card_key, flush_suit, has_flush, hi_table, keys_of, omaha_lo8_of_ranks, omaha_river, BoardRankSlots,
    HiRating, HiTable, LoRating, LowTable, OmahaHole, SevenCards, FIVE_RANK_SLOTS, LO8_SEVEN, RAZZ_SEVEN,
};
use crate::games::{Game, PotSplit};
use crate::rng::{distinct_threshold, PartialShuffle, Rng, WyRand};

/// Player `p` shows `rating`: `best` and the mask of the players who hold it follow.
#[inline]
fn contend<T: PartialOrd>(rating: T, p: usize, best: &mut T, winners: &mut usize) {
    if rating > *best {
        *best = rating;
        *winners = 1 << p;
    } else if rating == *best {
        *winners |= 1 << p;
    }
}

/// [`contend`] for lows, where `LoRating(0)` is "no qualifying low" and never wins.
#[inline]
fn contend_low(rating: LoRating, p: usize, best: &mut LoRating, winners: &mut usize) {
    if rating != LoRating(0) {
        contend(rating, p, best, winners);
    }
}

/// The mask of the players whose seven cards (keys `own[p] + board`) rank best, from their
/// orders; `None` when someone has a flush (the orders only rank hands without one).
#[allow(clippy::inline_always)]
#[inline(always)]
fn hi_winners(seven: SevenCards, own: &[u64], board: u64) -> Option<usize> {
    let mut orders = [0u16; MAX_PLAYERS];
    let mut flush = false;
    for (order, &own) in orders.iter_mut().zip(own) {
        let k = own + board;
        flush |= has_flush(k);
        *order = seven.order(k as u32);
    }
    if flush {
        return None;
    }
    Some(winners_of(&orders[..own.len().min(MAX_PLAYERS)]))
}

/// The mask of the players whose orders (or ratings) are the best, without a branch on who that
/// is.
#[allow(clippy::inline_always)]
#[inline(always)]
fn winners_of<T: Ord + Copy + Default>(orders: &[T]) -> usize {
    let best = orders.iter().copied().max().unwrap_or_default();
    orders.iter().enumerate().fold(0, |w, (p, &r)| w | usize::from(r == best) << p)
}

/// What a board's outcome needs: the table, the board hash, each hand's row by board and keys.
struct BoardHands<'a> {
    seven: SevenCards,
    slots: BoardRankSlots,
    rows: &'a [&'a [u16; FIVE_RANK_SLOTS]],
    own: &'a [u64],
}

/// Hold'em and short deck with given hands and only board cards to come: each hand's order (as
/// [`SevenCards::order`]) by its board's rank multiset, a 16 KB row a hand, so that a board
/// is hashed once and each hand reads one entry, instead of hashing each hand's seven cards
/// into a 128 KB table.
struct BoardOrders {
    seven: SevenCards,
    slots: BoardRankSlots,
    rows: Vec<&'static [u16; FIVE_RANK_SLOTS]>,
}

impl BoardOrders {
    /// The rows, for a [`BoardHands`].
    fn rows(&self) -> Vec<&'static [u16; FIVE_RANK_SLOTS]> {
        self.rows.clone()
    }
}

/// Every pair and every triple of the cards left, by their keys and bits: five board cards are
/// one of each that share no card. Every five-card board is ten such (pair, triple) choices
/// (its C(5, 2) splits), so among the draws that stand all boards are equally likely. A draw is
/// two table reads from one 64-bit number, and one in eight (for 48 cards) fails, where five
/// positions drawn one by one need five products and one in five fails.
struct BoardParts {
    pairs: Vec<(u64, u64)>,
    triples: Vec<(u64, u64)>,
    /// Draws whose leftover falls below this are rejected, so that both indices are exactly
    /// uniform (as in [`PartialShuffle`]).
    threshold: u64,
}

impl BoardParts {
    fn new(cards: &[Card]) -> BoardParts {
        let part = |of: &[Card]| of.iter().fold((0, 0), |(keys, bits), &c| (keys + card_key(c), bits | c.bit()));
        let n = cards.len();
        let mut pairs = Vec::with_capacity(n * n / 2);
        let mut triples = Vec::with_capacity(n * n * n / 6);
        for i in 0..n {
            for j in i + 1..n {
                pairs.push(part(&[cards[i], cards[j]]));
                for k in j + 1..n {
                    triples.push(part(&[cards[i], cards[j], cards[k]]));
                }
            }
        }
        let product = (pairs.len() as u128 * triples.len() as u128).max(1);
        BoardParts { pairs, triples, threshold: (((1u128 << 64) - product) % product) as u64 }
    }

    /// One draw from the random number `x`: the board's keys and bits, and whether it stands
    /// (the parts share no card and the number is not rejected).
    // `&`, not `&&`: both sides are cheap, and a branch on random outcomes mispredicts.
    #[allow(clippy::needless_bitwise_bool)]
    #[inline]
    fn candidate_from(&self, x: u64) -> (u64, u64, bool) {
        let (pairs, triples) = (&self.pairs[..], &self.triples[..]);
        let m = u128::from(x) * pairs.len() as u128;
        let (pair_keys, pair_bits) = pairs[(m >> 64) as usize];
        let m = u128::from(m as u64) * triples.len() as u128;
        let (triple_keys, triple_bits) = triples[(m >> 64) as usize];
        let stands = (m as u64 >= self.threshold) & (pair_bits & triple_bits == 0);
        (pair_keys + triple_keys, pair_bits | triple_bits, stands)
    }
}

/// The slot of the board's keys, after the players'.
const BOARD_SLOT: usize = MAX_PLAYERS;

/// Given hands (and board cards), the open positions of a deal and the cards they come from.
pub struct GivenTally {
    hi: Option<&'static HiTable>,
    lo: Option<&'static LowTable>,
    /// Hi-only seven-card games: the table's order of flushless hands, for `hi_outcome`.
    seven: Option<SevenCards>,
    /// Every player holds two given cards and only board cards are dealt: hands are rated by
    /// board (see [`BoardOrders`]).
    by_board: bool,
    players: usize,
    /// Each player's given cards, then (at `BOARD_SLOT`) the known board cards.
    given: [CardSet; MAX_PLAYERS + 1],
    given_keys: [u64; MAX_PLAYERS + 1],
    /// (player or board, position) of each open card in dealing order, and the key slot it
    /// adds to.
    open: Vec<(usize, usize)>,
    slots: Vec<usize>,
    /// The cards the open positions come from (the first `left`), in an array of fixed size so
    /// that positions masked with 63 need no bounds checks.
    remaining: [Card; 64],
    left: usize,
    /// Omaha: each hand's two-card rank pairs, and whether the pot has a low half.
    omaha: Option<OmahaSeats>,
    /// Deals by outcome: hi winner mask, plus the lo winner mask shifted by `players`.
    pub counts: Vec<u64>,
    /// Five-card boards' pairs and triples, made on the first draw of one.
    board_parts: Option<BoardParts>,
    /// The hands' orders by board, made on the first draw of a board.
    board_orders: Option<BoardOrders>,
    /// The open cards of the first deal of each outcome, to replay it.
    examples: Vec<Option<Vec<Card>>>,
}

struct OmahaSeats {
    pairs: Vec<OmahaHole>,
    lo: bool,
}

impl GivenTally {
    /// When every player's hand is given or dealt at `open` positions (`BOARD` for the board, as
    /// in `DealSpec`) from `remaining`, and ends with seven cards (Omaha: with its hole cards
    /// given and a five-card board); `None` otherwise.
    pub fn new(
        game: Game,
        hands: &[CardSet],
        board: CardSet,
        open: &[(usize, usize)],
        remaining: &[Card],
    ) -> Option<GivenTally> {
        let players = hands.len();
        if players > MAX_PLAYERS || remaining.len() > 64 || remaining.len() < open.len() {
            return None;
        }
        let slot_of = |owner: usize| if owner < players { owner } else { BOARD_SLOT };
        let slots: Vec<usize> = open.iter().map(|&(owner, _)| slot_of(owner)).collect();
        let open_board = slots.iter().filter(|&&s| s == BOARD_SLOT).count();
        let board_cards = board.len() as usize + open_board;
        let omaha = game.is_omaha().then(|| OmahaSeats {
            pairs: hands.iter().map(|&h| OmahaHole::new(h)).collect(),
            lo: game.pot_split() == PotSplit::HiLo8,
        });
        let complete = if omaha.is_some() {
            board_cards == 5 && open_board == open.len() && hands.iter().all(|h| h.len() == game.hole_cards() as u32)
        } else {
            (0..players).all(|p| {
                let own = hands[p].len() as usize + slots.iter().filter(|&&s| s == p).count();
                own + if game.is_stud() { 0 } else { board_cards } == 7
            })
        };
        if !complete {
            return None;
        }
        let (hi, lo) = match game.pot_split() {
            PotSplit::HiOnly => (Some(hi_table(game.hi_rules())), None),
            PotSplit::HiLo8 => (Some(hi_table(game.hi_rules())), Some(&*LO8_SEVEN)),
            PotSplit::LoOnly => (None, Some(&*RAZZ_SEVEN)),
        };
        let mut given = [CardSet::EMPTY; MAX_PLAYERS + 1];
        given[..players].copy_from_slice(hands);
        given[BOARD_SLOT] = board;
        let mut remaining_cards = [Card::from_index(0); 64];
        remaining_cards[..remaining.len()].copy_from_slice(remaining);
        let outcomes = 1 << (players * if lo.is_some() { 2 } else { 1 });
        let seven = hi.filter(|_| lo.is_none() && omaha.is_none()).map(HiTable::seven_cards);
        let by_board = slots.iter().all(|&s| s == BOARD_SLOT) && hands.iter().all(|h| h.len() == 2);
        Some(GivenTally {
            hi,
            lo,
            seven,
            by_board,
            players,
            given,
            given_keys: given.map(keys_of),
            open: open.to_vec(),
            slots,
            remaining: remaining_cards,
            left: remaining.len(),
            omaha,
            counts: vec![0; outcomes],
            board_parts: None,
            board_orders: None,
            examples: vec![None; outcomes],
        })
    }

    /// The outcome (hi winners, lo winners << players) of the deal whose open cards are `new`,
    /// each player's keys being `keys[p] + keys[BOARD_SLOT]`.
    // Always inlined: these two are the body of every innermost loop, and a call each costs as
    // much as the work (measured: a third of the instructions of an exhaustive run).
    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn outcome(&self, keys: &[u64; MAX_PLAYERS + 1], new: &[Card]) -> usize {
        if let Some(omaha) = &self.omaha {
            return self.omaha_outcome(omaha, keys[BOARD_SLOT], new);
        }
        let board = keys[BOARD_SLOT];
        let (mut best_hi, mut hi_winners) = (HiRating::NONE, 0usize);
        let (mut best_lo, mut lo_winners) = (LoRating(0), 0usize);
        for (p, &own) in keys[..self.players].iter().enumerate() {
            let k = own + board;
            if let Some(hi) = self.hi {
                let r = if has_flush(k) { hi.rate(self.cards_of(p, new)) } else { hi.rate_seven_cards(k as u32) };
                contend(r, p, &mut best_hi, &mut hi_winners);
            }
            if let Some(lo) = self.lo {
                contend_low(lo.rate_seven(k as u32), p, &mut best_lo, &mut lo_winners);
            }
        }
        hi_winners | lo_winners << self.players
    }

    /// [`GivenTally::outcome`] of a hi-only seven-card game, without branches on who wins: the
    /// ratings, then the mask of those equal to the best. A flush anywhere (a few deals in a
    /// hundred) takes the general path.
    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn hi_outcome(&self, seven: SevenCards, keys: &[u64; MAX_PLAYERS + 1], new: &[Card]) -> usize {
        let players = self.players.min(MAX_PLAYERS);
        hi_winners(seven, &keys[..players], keys[BOARD_SLOT]).unwrap_or_else(|| self.outcome(keys, new))
    }

    /// [`GivenTally::outcome`] in Omaha, from the whole board's keys.
    #[inline]
    fn omaha_outcome(&self, omaha: &OmahaSeats, board_keys: u64, new: &[Card]) -> usize {
        let river = omaha_river(board_keys as u32);
        // The suit with three board cards or more (at most one of five): a nibble of 3 or more.
        let suited = ((board_keys >> 32) as u32 + 0x5555) & 0x8888;
        let board = || new.iter().fold(self.given[BOARD_SLOT], |b, &c| b.with(c));
        let board_ranks = if omaha.lo { board().rank_mask() } else { 0 };
        let (mut best_hi, mut hi_winners) = (0u16, 0usize);
        let (mut best_lo, mut lo_winners) = (LoRating(0), 0usize);
        for (p, hole) in omaha.pairs.iter().enumerate() {
            let mut r = hole.best_in_row(river);
            if suited != 0 {
                let suit = (suited.trailing_zeros() / 4) as u8;
                let own = self.given[p].suit_mask(suit);
                if own.count_ones() >= 2 {
                    r = r.max(best_flush(u32::from(own), u32::from(board().suit_mask(suit))));
                }
            }
            contend(r, p, &mut best_hi, &mut hi_winners);
            if omaha.lo {
                let lo = omaha_lo8_of_ranks(self.given[p].rank_mask(), board_ranks).unwrap_or_default();
                contend_low(lo, p, &mut best_lo, &mut lo_winners);
            }
        }
        hi_winners | lo_winners << self.players
    }

    /// Player `p`'s seven cards when the open cards are `new` (for flushes, rarely).
    #[cold]
    fn cards_of(&self, p: usize, new: &[Card]) -> CardSet {
        let mut cards = self.given[p].union(self.given[BOARD_SLOT]);
        for (&slot, &c) in self.slots.iter().zip(new) {
            if slot == p || slot == BOARD_SLOT {
                cards.insert(c);
            }
        }
        cards
    }

    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn count(&mut self, outcome: usize, new: &[Card]) {
        self.counts[outcome] += 1;
        if self.examples[outcome].is_none() {
            self.examples[outcome] = Some(new.to_vec());
        }
    }

    /// Into how many parts [`GivenTally::enumerate`] splits the work: the number of cards the
    /// first open card can be, or one when the boards are counted by rank multiset
    /// ([`board_ranks`], which does the whole enumeration in less time than a part would take).
    pub fn splits(&self) -> usize {
        if self.by_ranks() {
            return 1;
        }
        (self.left + 1).saturating_sub(self.open.len()).max(1)
    }

    /// Whether the boards are counted by rank multiset (hi-only hold'em and short deck, two given
    /// cards a hand, only board cards to come).
    fn by_ranks(&self) -> bool {
        self.seven.is_some() && self.by_board
    }

    /// Every way to deal the open cards whose first is `remaining[first]` and the rest later
    /// cards (all of them for `None`), each counted once: for open cards that form one unordered
    /// group (the board of a flop game). When the work is not split ([`GivenTally::splits`] is
    /// one), `Some(0)` is all of it.
    pub fn enumerate(&mut self, first: Option<usize>) {
        let n = self.left;
        let k = self.open.len();
        if let (Some(seven), true) = (self.seven, self.by_ranks() && k > 0) {
            if first.is_none_or(|f| f == 0) {
                let remaining = CardSet::from_cards(self.remaining[..n].iter().copied());
                let hands = &self.given[..self.players];
                board_ranks::tally(
                    seven,
                    hands,
                    self.given[BOARD_SLOT],
                    remaining,
                    &mut self.counts,
                    &mut self.examples,
                );
            }
            return;
        }
        if k == 0 {
            if first.is_none_or(|f| f == 0) {
                let o = self.outcome(&self.given_keys, &[]);
                self.count(o, &[]);
            }
            return;
        }
        let starts = match first {
            Some(f) => f..(f + 1).min(n + 1 - k),
            None => 0..n + 1 - k,
        };
        let mut chosen = [Card::from_index(0); 64];
        let mut keys = self.given_keys;
        let slot = self.slots[0];
        for i in starts {
            let c = self.remaining[i & 63];
            chosen[0] = c;
            keys[slot] += card_key(c);
            self.extend(i + 1, 1, &mut keys, &mut chosen);
            keys[slot] -= card_key(c);
        }
    }

    /// Chooses the `depth`-th open card among `remaining[from..]`, adding its keys to `keys`
    /// while its deals are visited.
    fn extend(&mut self, from: usize, depth: usize, keys: &mut [u64; MAX_PLAYERS + 1], chosen: &mut [Card; 64]) {
        let k = self.open.len();
        if depth == k {
            let o = self.outcome(keys, &chosen[..k]);
            self.count(o, &chosen[..k]);
            return;
        }
        let slot = self.slots[depth] % (MAX_PLAYERS + 1);
        for i in from..self.left + 1 + depth - k {
            let c = self.remaining[i & 63];
            chosen[depth] = c;
            keys[slot] += card_key(c);
            if depth + 1 == k {
                // The innermost loop, without the recursion.
                let o = self.outcome(keys, &chosen[..k]);
                self.count(o, &chosen[..k]);
            } else {
                self.extend(i + 1, depth + 1, keys, chosen);
            }
            keys[slot] -= card_key(c);
        }
    }

    /// `trials` random deals of the open cards, uniform over the remaining cards (a partial
    /// shuffle of them, by `shuffle`: the order left behind carries on to the next call).
    pub fn sample(&mut self, rng: &mut Rng, shuffle: &PartialShuffle, trials: u64) {
        // Drawing positions with replacement and rejecting repeats pays when repeats are rare;
        // otherwise the partial shuffle below.
        let (n, k) = (self.left, self.open.len());
        let all_distinct = (0..k).map(|i| (n - i) as f64 / n as f64).product::<f64>();
        if let (true, Some(threshold)) = (all_distinct >= 0.7, distinct_threshold(n, k)) {
            match self.open.len() {
                1 => return self.sample_batched::<1>(rng, threshold, trials),
                2 => return self.sample_batched::<2>(rng, threshold, trials),
                5 => return self.sample_batched::<5>(rng, threshold, trials),
                8 => return self.sample_batched::<8>(rng, threshold, trials),
                _ => {}
            }
        }
        let k = self.open.len();
        // The open cards' slots as runs of one slot (a player's cards are dealt together): each
        // run's keys summed in a register, then added to its slot once. Added card by card, each
        // addition to a slot waited for the one before to pass through memory.
        let mut runs: Vec<(usize, usize)> = Vec::new();
        for (i, &slot) in self.slots.iter().enumerate() {
            match runs.last_mut() {
                Some((last, end)) if *last == slot => *end = i + 1,
                _ => runs.push((slot, i + 1)),
            }
        }
        for _ in 0..trials {
            let cards = &mut self.remaining;
            rng.partial_shuffle(shuffle, |i, j| cards.swap(i & 63, j & 63));
            let mut keys = self.given_keys;
            let mut start = 0;
            for &(slot, end) in &runs {
                keys[slot % (MAX_PLAYERS + 1)] += self.remaining[start..end].iter().map(|&c| card_key(c)).sum::<u64>();
                start = end;
            }
            // Read in place, not copied: a wide copy of bytes the shuffle just stored one by one
            // waits for the stores to reach the cache.
            let new = &self.remaining[..k];
            let o = match self.seven {
                Some(seven) => self.hi_outcome(seven, &keys, new),
                None => self.outcome(&keys, new),
            };
            // `count`'s work, written out: `self.count` would borrow all of `self` while `new`
            // still reads `remaining`.
            self.counts[o] += 1;
            if self.examples[o].is_none() {
                self.examples[o] = Some(new.to_vec());
            }
        }
    }

    /// [`GivenTally::sample`] when the `K` open cards' positions among the remaining cards come
    /// from one 64-bit draw (see [`Rng::distinct_positions`]): the draw, the keys and the
    /// showdown in one loop, unrolled for the commonest numbers of open cards.
    #[inline(never)]
    fn sample_batched<const K: usize>(&mut self, rng: &mut Rng, threshold: u64, trials: u64) {
        let n = self.left;
        let mut slots = [0usize; K];
        for (s, &slot) in slots.iter_mut().zip(&self.slots) {
            *s = slot % (MAX_PLAYERS + 1);
        }
        let seven = self.seven;
        if let (Some(seven), true) = (seven, self.by_board) {
            return self.sample_board::<K>(seven, rng, threshold, trials);
        }
        for _ in 0..trials {
            let positions = rng.distinct_positions::<K>(n, threshold);
            let mut keys = self.given_keys;
            let mut new = [Card::from_index(0); K];
            for ((card, &position), &slot) in new.iter_mut().zip(&positions).zip(&slots) {
                *card = self.remaining[position & 63];
                keys[slot] += card_key(*card);
            }
            let o = match seven {
                Some(seven) => self.hi_outcome(seven, &keys, &new),
                None => self.outcome(&keys, &new),
            };
            self.count(o, &new);
        }
    }

    /// [`GivenTally::sample_batched`] when every open card is a board card of a hi-only
    /// seven-card game (hold'em, short deck). Boards are drawn a block at a time, then rated: the
    /// draws that stand are kept by advancing a count rather than by a branch (which draws fail
    /// is random), and rating a block of boards has no draw in between, so consecutive boards'
    /// table reads overlap. A whole board of five is a pair and a triple (see [`BoardParts`]),
    /// and each hand's order is read by the board's ranks (see [`BoardOrders`]).
    fn sample_board<const K: usize>(&mut self, seven: SevenCards, rng: &mut Rng, threshold: u64, trials: u64) {
        let orders = self.take_board_orders(seven);
        if K == 5 {
            let parts = self.board_parts.take().unwrap_or_else(|| BoardParts::new(&self.remaining[..self.left]));
            let board = self.given_keys[BOARD_SLOT];
            // The cheapest good generator for the hottest loop, seeded from the chunk's.
            let mut fast = WyRand::new(rng.next_u64());
            self.sample_board_by(&orders, trials, || {
                let (keys, bits, stands) = parts.candidate_from(fast.next_u64());
                (board + keys, bits, stands)
            });
            self.board_parts = Some(parts);
        } else {
            let (n, remaining, board) = (self.left, self.remaining, self.given_keys[BOARD_SLOT]);
            self.sample_board_by(&orders, trials, || {
                let (positions, stands) = rng.candidate_positions::<K>(n, threshold);
                let (mut keys, mut bits) = (board, 0u64);
                for &position in &positions {
                    let card = remaining[position & 63];
                    keys += card_key(card);
                    bits |= card.bit();
                }
                (keys, bits, stands)
            });
        }
        self.board_orders = Some(orders);
    }

    /// [`GivenTally::sample_board`] with boards from `candidate`: a board's keys (the known board
    /// cards' included), its open cards' bits, and whether the draw stands.
    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn sample_board_by(&mut self, orders: &BoardOrders, trials: u64, mut candidate: impl FnMut() -> (u64, u64, bool)) {
        const BLOCK: usize = 256;
        let (rows, own) = (orders.rows(), self.given_keys);
        let hands = BoardHands { seven: orders.seven, slots: orders.slots, rows: &rows, own: &own[..rows.len()] };
        // A board's keys and its card bits (the bits are for the rare flush, and for examples).
        let mut keys = [0u64; BLOCK];
        let mut bits = [0u64; BLOCK];
        let mut left = trials;
        while left > 0 {
            let want = BLOCK.min(usize::try_from(left).unwrap_or(BLOCK));
            let mut filled = 0;
            while filled < want {
                let (board_keys, board_bits, stands) = candidate();
                // Written either way; kept only by counting it.
                keys[filled % BLOCK] = board_keys;
                bits[filled % BLOCK] = board_bits;
                filled += usize::from(stands);
            }
            // The number of hands as a constant for the common tables: the rating unrolls.
            let (keys, bits) = (&keys[..want], &bits[..want]);
            match rows.len() {
                2 => self.tally_boards::<2>(&hands, keys, bits),
                3 => self.tally_boards::<3>(&hands, keys, bits),
                _ => self.tally_boards::<0>(&hands, keys, bits),
            }
            left -= want as u64;
        }
    }

    /// The hands' orders by board (made on first use; put back with `self.board_orders = ...`).
    fn take_board_orders(&mut self, seven: SevenCards) -> BoardOrders {
        let players = self.players.min(MAX_PLAYERS);
        self.board_orders.take().unwrap_or_else(|| {
            // Two cards a hand: `by_board` above.
            let rows = self.given[..players].iter().map(|&h| seven.by_board(h).expect("two cards")).collect();
            BoardOrders { seven, slots: BoardRankSlots::new(), rows }
        })
    }

    /// The outcome of a whole board (its keys, the known cards' included, and its open cards'
    /// bits) in a hi-only seven-card game whose hands' keys are `own` and orders by board `rows`.
    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn board_outcome(
        &self,
        seven: SevenCards,
        slots: BoardRankSlots,
        rows: &[&[u16; FIVE_RANK_SLOTS]],
        own: &[u64],
        board_keys: u64,
        board_bits: u64,
    ) -> usize {
        let slot = slots.slot(board_keys as u32);
        let mut orders = [0u16; MAX_PLAYERS];
        let mut flush = false;
        for ((order, row), &own) in orders.iter_mut().zip(rows).zip(own) {
            flush |= has_flush(own + board_keys);
            *order = row[slot];
        }
        if !flush {
            return winners_of(&orders[..own.len().min(MAX_PLAYERS)]);
        }
        // A few boards in a hundred: compare ratings, each hand's flush against its best hand
        // without one (a full house or quads may beat it).
        let board = self.given[BOARD_SLOT].union(CardSet::from_bits(board_bits));
        let mut ratings = [HiRating::NONE; MAX_PLAYERS];
        for (p, (rating, &own)) in ratings.iter_mut().zip(own).enumerate() {
            let keys = own + board_keys;
            *rating = seven.rating(orders[p]);
            if has_flush(keys) {
                *rating = (*rating).max(seven.flush(self.given[p].union(board), flush_suit(keys)));
            }
        }
        winners_of(&ratings[..own.len().min(MAX_PLAYERS)])
    }

    /// Keeps the board whose open cards are `bits` as outcome `o`'s example if it has none.
    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn keep_example(&mut self, o: usize, bits: u64) {
        if self.examples[o].is_none() {
            self.examples[o] = Some(CardSet::from_bits(bits).to_vec());
        }
    }

    /// Counts the outcome of each board (its keys and card bits) of a hi-only seven-card game.
    /// `N` is the number of hands when it is a constant (as in [`GivenTally::board_choices`]).
    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn tally_boards<const N: usize>(&mut self, hands: &BoardHands, keys: &[u64], bits: &[u64]) {
        let (rows, own) = if N > 0 { (&hands.rows[..N], &hands.own[..N]) } else { (hands.rows, hands.own) };
        // Heads up (four outcomes), the block's counts are 16-bit fields of a register (a block
        // is at most 256 boards): no add to memory that waits for the one before.
        let packed = own.len() <= 2;
        let mut fields = 0u64;
        for (&board_keys, &board_bits) in keys.iter().zip(bits) {
            let o = self.board_outcome(hands.seven, hands.slots, rows, own, board_keys, board_bits);
            if packed {
                fields += 1 << (16 * (o & 3));
            } else {
                self.counts[o] += 1;
            }
            self.keep_example(o, board_bits);
        }
        if packed {
            for (o, count) in self.counts.iter_mut().enumerate().take(4) {
                *count += u64::from((fields >> (16 * o)) as u16);
            }
        }
    }

    /// Puts the remaining cards back in the order they were given.
    pub fn reset_order(&mut self, order: &[Card]) {
        self.remaining[..order.len()].copy_from_slice(order);
    }

    /// Forgets the counts (examples are kept: any deal of an outcome serves).
    pub fn clear(&mut self) {
        self.counts.fill(0);
    }

    /// Each outcome counted since the last `clear`, given to `add` as its hi and lo winner
    /// masks, its count, and `deal` with the open cards of one of its deals placed.
    pub fn for_each_outcome(&self, deal: &mut Deal, add: impl FnMut(u32, u32, u64, &Deal)) {
        let hands = self.given;
        self.for_each_outcome_as(deal, &hands[..self.players], SuitMap::IDENTITY, add);
    }

    /// [`GivenTally::for_each_outcome`] for a deal that is this one with its suits renamed by
    /// `map` (a prefix of the same suit class, see `deal::suit_classes`): `hands` are its given
    /// hands, and the open cards of each outcome's deal are renamed too, so that the deal given
    /// to `add` has that outcome.
    pub fn for_each_outcome_as(
        &self,
        deal: &mut Deal,
        hands: &[CardSet],
        map: SuitMap,
        mut add: impl FnMut(u32, u32, u64, &Deal),
    ) {
        let mask = (1usize << self.players) - 1;
        let mut renamed = Vec::new();
        for (outcome, &count) in self.counts.iter().enumerate() {
            if let (true, Some(new)) = (count > 0, &self.examples[outcome]) {
                deal.hole[..self.players].copy_from_slice(&hands[..self.players]);
                renamed.clear();
                renamed.extend(new.iter().map(|&c| map.card(c)));
                place(deal, &self.open, &renamed);
                add((outcome & mask) as u32, (outcome >> self.players & mask) as u32, count, deal);
            }
        }
    }
}

impl FixedDeal {
    /// The showdown tally of this deal's given hands (see [`GivenTally`]), when it applies.
    pub fn given_tally(&self) -> Option<GivenTally> {
        let t = self.template();
        let open_board: Vec<usize> = self.open().iter().filter(|o| o.0 == BOARD).map(|o| o.1).collect();
        let board_cards = if t.game.is_stud() { 0 } else { t.game.board_cards() };
        let known = (0..board_cards).filter(|i| !open_board.contains(i)).map(|i| t.board[i]).collect();
        GivenTally::new(t.game, &t.hole[..t.players], known, self.open(), self.deck_order())
    }
}

impl DealSpec {
    /// Whether exact prefixes of this spec deal nothing but board cards, to hands all given:
    /// a flop game whose players all hold a hand of their range and whose board is not a
    /// pattern tested board by board. Their showdowns are tallied by
    /// [`DealSpec::given_tally`], and their deals, which differ only by the names of the
    /// suits, are enumerated once (see `deal::suit_classes`).
    pub fn tallies_given_hands(&self) -> bool {
        !self.game.is_stud()
            && self.players.iter().all(|p| matches!(p, HandSource::Range(_)))
            && !matches!(self.board, BoardSource::Pattern(_))
    }

    /// Whether every exact prefix's showdown tally counts its boards by rank multiset in one
    /// piece (see [`GivenTally::splits`]): [`DealSpec::tallies_given_hands`] in a hi-only
    /// hold'em or short-deck game.
    pub fn tallies_boards_by_rank(&self) -> bool {
        let game = self.game;
        self.tallies_given_hands() && game.pot_split() == PotSplit::HiOnly && !game.is_omaha() && game.hole_cards() == 2
    }

    /// For a prefix whose only open cards are the board's (one unordered group): the showdown
    /// tally of its given hands (see [`GivenTally`]) and the deal to replay its outcomes on;
    /// `None` otherwise.
    pub fn given_tally(&self, prefix: &Prefix) -> Option<(GivenTally, Deal)> {
        let groups = self.groups(prefix);
        // A sampled board pattern rejects boards that do not match: not every completion counts.
        let [group] = groups.as_slice() else { return None };
        if matches!(self.board, BoardSource::Pattern(_)) || group.targets.iter().any(|t| t.0 != BOARD) {
            return None;
        }
        let known: CardSet = prefix.board_slots.iter().filter(|&&b| b != OPEN).map(|&b| Card::from_index(b)).collect();
        let remaining: Vec<Card> = self.deck.iter().copied().filter(|c| !prefix.used.contains(*c)).collect();
        let hands = &prefix.deal.hole[..self.players.len()];
        let tally = GivenTally::new(self.game, hands, known, &group.targets, &remaining)?;
        Some((tally, self.start_deal(prefix)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;
    use crate::deal::source::{BoardSource, DealSpec, HandSource, SlotHand, WeightedList};
    use crate::kernels::showdown::Showdown;

    /// The (hi, lo) winner masks of a showdown, as `OutcomeTally` counts them.
    fn showdown_outcome(game: Game, hands: &[CardSet], board: CardSet) -> usize {
        let s = Showdown::new(game, hands, board);
        let mut o = 0;
        for p in 0..hands.len() {
            if s.has_best_hi(p) {
                o |= 1 << p;
            }
            if s.has_best_lo(p) {
                o |= 1 << (p + hands.len());
            }
        }
        o
    }

    #[test]
    fn enumeration_matches_a_showdown_per_board() {
        for (game, hands, board) in [
            (Game::Holdem, vec!["AsAh", "KsKd"], "2s7s"),
            (Game::Holdem, vec!["AsKs", "QsJs", "9h9d"], "Ts2s3d"),
            (Game::ShortDeck, vec!["AsKs", "9h9d"], "6s7s8d"),
            (Game::ShortDeckTriton, vec!["AhKd", "QcQd"], "QsJhTs"),
            (Game::OmahaHi, vec!["AsKsQdJd", "9h9d8s7s"], "Ts2s3d"),
            (Game::Omaha8, vec!["As2s3dKd", "4h5d8s7s", "AhAcQcQh"], "6s2c"),
            (Game::Omaha85, vec!["As2s3dKdQh", "4h5d8s7s7h"], "6s2cTs"),
            (Game::Omaha5Hi, vec!["AsKsQdJdTh", "9h9d8s7s6s"], "5s"),
        ] {
            let hands: Vec<CardSet> = hands.iter().map(|h| parse_cards(h).unwrap()).collect();
            let board = parse_cards(board).unwrap();
            let used = hands.iter().fold(board, |u, &h| u.union(h));
            let remaining: Vec<Card> = game.deck().cards().minus(used).to_vec();
            let open: Vec<(usize, usize)> = (board.len() as usize..5).map(|i| (MAX_PLAYERS, i)).collect();
            let mut t = GivenTally::new(game, &hands, board, &open, &remaining).unwrap();
            t.enumerate(None);
            let mut expected = vec![0u64; t.counts.len()];
            crate::cards::for_each_combination(&remaining, open.len(), board, &mut |b| {
                expected[showdown_outcome(game, &hands, b)] += 1;
            });
            assert_eq!(t.counts, expected, "{game:?}");
            // Split by first card, the parts add up to the whole.
            let mut parts = GivenTally::new(game, &hands, board, &open, &remaining).unwrap();
            for f in 0..remaining.len() {
                parts.enumerate(Some(f));
            }
            assert_eq!(parts.counts, expected);
        }
    }

    #[test]
    fn sampled_deals_are_rated_like_showdowns() {
        // Given hands (stud: three cards each, four dealt; flop games: a random board). Every
        // sampled deal's outcome, replayed on its example deal, is that deal's showdown, and
        // every outcome seen has an example; also deal by deal.
        let cases: [(Game, [&str; 2]); 10] = [
            (Game::StudHi, ["As2d3c", "4h5h6s"]),
            (Game::StudHi, ["KsKh7s", "8s9sTs"]),
            (Game::Stud8, ["As2d3c", "4h5h6s"]),
            (Game::Stud8, ["KsKh7s", "8s9sTs"]),
            (Game::Razz, ["As2d3c", "4h5h6s"]),
            (Game::Razz, ["KsKh7s", "8s9sTs"]),
            (Game::Holdem, ["AsAh", "KsKd"]),
            (Game::ShortDeck, ["AsKs", "9h9d"]),
            (Game::OmahaHi, ["AsAhKsKh", "QdJdTc9c"]),
            (Game::Omaha8, ["As2h3sKh", "QdJdTc9c"]),
        ];
        let mut specs = Vec::new();
        for (game, hands) in cases {
            let given: Vec<SlotHand> = hands
                .iter()
                .map(|h| {
                    let cards = parse_cards(h).unwrap();
                    if !game.is_stud() {
                        return SlotHand::from_set(cards);
                    }
                    let mut positions: Vec<Option<Card>> = cards.iter().map(Some).collect();
                    positions.resize(7, None);
                    SlotHand::from_positions(&positions)
                })
                .collect();
            let players = given.iter().map(|h| HandSource::Range(WeightedList::uniform(vec![*h]))).collect();
            specs.push(DealSpec::new(game, players, BoardSource::Random, CardSet::EMPTY));
        }
        // Random hands: many open cards, dealt by the partial shuffle.
        for game in [Game::Holdem, Game::ShortDeck] {
            specs.push(DealSpec::new(game, vec![HandSource::Random; 2], BoardSource::Random, CardSet::EMPTY));
        }
        for spec in specs {
            let game = spec.game;
            let fixed = spec.fixed_deal().unwrap();
            let mut t = fixed.given_tally().unwrap();
            let mut rng = Rng::new(7, 0);
            t.sample(&mut rng, fixed.shuffle(), 20_000);
            assert_eq!(t.counts.iter().sum::<u64>(), 20_000);
            let mut deal = fixed.start();
            let mut seen = 0;
            t.for_each_outcome(&mut deal, |hi, lo, _, d| {
                let hands = &d.hole[..2];
                assert!(hands
                    .iter()
                    .all(|h| h.len() as usize + d.full_board().len() as usize == 7 + 2 * usize::from(game.is_omaha())));
                assert_eq!(showdown_outcome(game, hands, d.full_board()), (hi | lo << 2) as usize, "{game:?}");
                seen += 1;
            });
            assert_eq!(seen, t.counts.iter().filter(|&&c| c > 0).count());
            let mut rng = Rng::new(11, 0);
            for _ in 0..2_000 {
                let mut one = fixed.given_tally().unwrap();
                one.sample(&mut rng, fixed.shuffle(), 1);
                one.for_each_outcome(&mut deal, |hi, lo, count, d| {
                    assert_eq!(count, 1);
                    assert_eq!(showdown_outcome(game, &d.hole[..2], d.full_board()), (hi | lo << 2) as usize);
                });
            }
        }
    }

    #[test]
    fn board_parts_draw_every_board_equally_often() {
        // Ten cards: 252 boards of five. 252,000 draws that stand: each board 1,000 times
        // expected (standard deviation about 31.6); the chi-square statistic (251 degrees of
        // freedom: mean 251, standard deviation about 22.4) must be unremarkable.
        let cards: Vec<Card> = parse_cards("As Kd Qh Jc Ts 9d 8h 7c 6s 5d").unwrap().iter().collect();
        let parts = BoardParts::new(&cards);
        let mut rng = Rng::new(21, 0);
        let mut counts = std::collections::HashMap::new();
        let mut stood = 0;
        while stood < 252_000 {
            let (keys, bits, stands) = parts.candidate_from(rng.next_u64());
            if stands {
                assert_eq!(bits.count_ones(), 5);
                assert_eq!(keys, keys_of(CardSet::from_bits(bits)));
                *counts.entry(bits).or_insert(0u64) += 1;
                stood += 1;
            }
        }
        assert_eq!(counts.len(), 252);
        let chi2: f64 = counts.values().map(|&c| (c as f64 - 1000.0).powi(2) / 1000.0).sum();
        assert!(chi2 < 251.0 + 5.0 * 22.4, "chi-square {chi2}");
        assert!(counts.values().all(|&c| (842..=1158).contains(&c)), "{counts:?}");
    }

    #[test]
    fn sampled_boards_match_enumerated_frequencies() {
        // Three and four given hold'em hands with a flop given (turn and river drawn, two cards)
        // and with no board (five drawn, the pair-and-triple draw): each outcome's sampled
        // share within five standard errors of its exact share.
        for (hands, board) in [
            (vec!["AsKs", "QhQd", "7c6c"], "Ts9s2c"),
            (vec!["AsKs", "QhQd", "7c6c"], ""),
            (vec!["AsKs", "QhQd", "7c6c", "2h2d"], ""),
        ] {
            let hands: Vec<CardSet> = hands.iter().map(|h| parse_cards(h).unwrap()).collect();
            let board = parse_cards(board).unwrap();
            let used = hands.iter().fold(board, |u, &h| u.union(h));
            let remaining: Vec<Card> = Game::Holdem.deck().cards().minus(used).to_vec();
            let open: Vec<(usize, usize)> = (board.len() as usize..5).map(|i| (MAX_PLAYERS, i)).collect();
            let mut exact = GivenTally::new(Game::Holdem, &hands, board, &open, &remaining).unwrap();
            exact.enumerate(None);
            let total: u64 = exact.counts.iter().sum();
            let mut sampled = GivenTally::new(Game::Holdem, &hands, board, &open, &remaining).unwrap();
            let shuffle = PartialShuffle::new(remaining.len(), open.len());
            let trials = 200_000u64;
            sampled.sample(&mut Rng::new(17, 0), &shuffle, trials);
            assert_eq!(sampled.counts.iter().sum::<u64>(), trials);
            for (o, (&e, &s)) in exact.counts.iter().zip(&sampled.counts).enumerate() {
                let p = e as f64 / total as f64;
                let se = (p * (1.0 - p) / trials as f64).sqrt().max(1e-9);
                let share = s as f64 / trials as f64;
                assert!((share - p).abs() < 5.0 * se + 1e-6, "outcome {o}: sampled {share}, exact {p}");
                assert_eq!(s > 0, sampled.examples[o].is_some());
            }
        }
    }
}
