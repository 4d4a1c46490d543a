//! Monte Carlo showdowns of hold'em (and short deck) hands drawn from ranges, tallied by who
//! wins: the inner loop of equity questions about ranges, as [`super::given_tally`] is for
//! given hands.
//!
//! A deal is the ranges' hands and the open cards (the board still to come, and two cards for
//! each player without a range) drawn from the cards left. Narrow ranges are drawn as one: every
//! compatible combination of their hands is listed once with its weight (the product of the
//! hands' weights), and a deal draws one of them, which is exactly drawing each range and
//! rejecting the deals where two hands share a card, without the rejections. Wide ranges, whose
//! combinations would not fit in cache, are drawn apart and a collision rejects the deal. The
//! open cards are drawn as positions among the cards left (all of them from one 64-bit number,
//! [`Rng::candidate_positions`]), the deal rejected when two coincide or one is held by a range's
//! hand, which keeps every legal deal equally likely. Each hand is rated from its summed card
//! keys (one rank-table read, or for the rare flush one by the suit's ranks).

use crate::cards::{Card, CardSet};
use crate::deal::source::{BoardSource, DealSpec, HandSource, OPEN};
use crate::deal::{Deal, MAX_PLAYERS};
use crate::eval::{card_key, flush_suit, has_flush, hi_table, keys_of, rank_key, SevenCards};
use crate::games::PotSplit;
use crate::rng::{distinct_threshold, Rng, WyRand};

/// Combinations of ranges listed at most this many (about 1.5 MB heads-up): narrower ranges
/// are drawn as one, wider ones apart.
const JOINT_LIMIT: usize = 65_536;
/// Open cards drawn by positions from one 64-bit number: at most this many (52^9 < 2^64).
const MOST_OPEN: usize = 9;
/// Candidate deals drawn before they are rated (see [`RangeDraws::sample`]).
const BLOCK: usize = 256;

/// How one of several items is drawn: uniformly, or by cumulative (whole) weights, from one
/// 64-bit number by Lemire's multiply, exactly, with the rejection of the numbers whose
/// leftover falls below `threshold` ((2^64 - total) mod total: a fraction below total / 2^64).
struct Picks {
    total: u64,
    threshold: u64,
    /// Empty when every item weighs the same.
    cumulative: Vec<u64>,
}

impl Picks {
    fn new(weights: &[f64]) -> Picks {
        let uniform = weights.iter().all(|&w| w == weights[0]);
        // Range weights are whole numbers (products of them for combinations).
        let cumulative: Vec<u64> = if uniform {
            Vec::new()
        } else {
            weights
                .iter()
                .scan(0u64, |total, &w| {
                    *total += w as u64;
                    Some(*total)
                })
                .collect()
        };
        let total = cumulative.last().copied().unwrap_or(weights.len() as u64).max(1);
        Picks { total, threshold: total.wrapping_neg() % total, cumulative }
    }

    /// An index from the random number `x`, and whether it stands.
    #[inline]
    fn pick(&self, x: u64) -> (usize, bool) {
        let m = u128::from(x) * u128::from(self.total);
        (self.index((m >> 64) as u64), m as u64 >= self.threshold)
    }

    /// The item at `target`, uniform below `total`.
    #[inline]
    fn index(&self, target: u64) -> usize {
        if self.cumulative.is_empty() {
            target as usize
        } else {
            self.cumulative.partition_point(|&c| c <= target)
        }
    }
}

/// Ranges drawn as one: every compatible choice of a hand for each of its seats.
struct Group {
    /// The seats (indices into `RangeDraws::seats`) whose hands the group deals.
    seats: Vec<usize>,
    /// Each choice's hands' keys and cards, `seats.len()` a choice.
    keys: Vec<u64>,
    bits: Vec<u64>,
    /// Each choice's cards in all.
    used: Vec<u64>,
    weights: Vec<f64>,
    picks: Picks,
}

impl Group {
    fn choices(&self) -> usize {
        self.used.len()
    }

    /// Every compatible choice of one from each of two groups.
    fn join(&self, other: &Group) -> Group {
        let (a, b) = (self.seats.len(), other.seats.len());
        let mut g = Group {
            seats: self.seats.iter().chain(&other.seats).copied().collect(),
            keys: Vec::new(),
            bits: Vec::new(),
            used: Vec::new(),
            weights: Vec::new(),
            picks: Picks::new(&[1.0]),
        };
        for i in 0..self.choices() {
            for j in 0..other.choices() {
                if self.used[i] & other.used[j] == 0 {
                    g.keys.extend_from_slice(&self.keys[i * a..(i + 1) * a]);
                    g.keys.extend_from_slice(&other.keys[j * b..(j + 1) * b]);
                    g.bits.extend_from_slice(&self.bits[i * a..(i + 1) * a]);
                    g.bits.extend_from_slice(&other.bits[j * b..(j + 1) * b]);
                    g.used.push(self.used[i] | other.used[j]);
                    g.weights.push(self.weights[i] * other.weights[j]);
                }
            }
        }
        g.picks = Picks::new(&g.weights);
        g
    }

    /// How many compatible choices [`Group::join`] would make.
    fn join_size(&self, other: &Group) -> usize {
        self.used.iter().map(|&u| other.used.iter().filter(|&&v| u & v == 0).count()).sum()
    }
}

/// Showdowns of hands drawn from ranges, and random hands, with a random board.
pub struct RangeDraws {
    seven: SevenCards,
    /// The player of each seat: ranged seats first, then the players without a range.
    seats: Vec<usize>,
    groups: Vec<Group>,
    /// Seats without a range: two open cards each, after the board's.
    random: usize,
    /// The cards the open cards come from, by position, and the rejection threshold of their
    /// positions.
    pool: Vec<Card>,
    pool_keys: [u64; 64],
    pool_bits: [u64; 64],
    threshold: u64,
    /// When the hands are one group and its choice and the open cards' positions fit in one
    /// 64-bit number: the rejection threshold of that number.
    one_draw: Option<u64>,
    /// Board cards known, and the positions of the open ones.
    known: CardSet,
    known_keys: u64,
    open_positions: Vec<usize>,
    /// Deals by hi winner mask (of players) since the last `clear`.
    pub counts: Vec<u64>,
    /// One deal of each outcome: each group's choice and the open cards' positions.
    examples: Vec<Option<(Vec<usize>, Vec<usize>)>>,
}

impl DealSpec {
    /// The sampler of [`RangeDraws`] for this spec, when it applies: a hi-only hold'em or
    /// short-deck game whose players hold hands of their ranges or random hands, with at least
    /// one range of several hands, a random board (or one with known cards), fixed dead cards,
    /// and at most nine open cards. `None` otherwise.
    pub fn range_draws(&self) -> Option<RangeDraws> {
        let game = self.game;
        let players = self.players.len();
        if game.pot_split() != PotSplit::HiOnly
            || game.is_omaha()
            || game.is_stud()
            || game.hole_cards() != 2
            || !self.dead_sets.is_empty()
            || !(2..=MAX_PLAYERS).contains(&players)
        {
            return None;
        }
        let board_slots = match &self.board {
            BoardSource::Random => [OPEN; 5],
            BoardSource::Boards(list) if list.len() == 1 => list.items[0],
            _ => return None,
        };
        let known: CardSet = board_slots.iter().filter(|&&b| b != OPEN).map(|&b| Card::from_index(b)).collect();
        let open_positions: Vec<usize> = (0..5).filter(|&i| board_slots[i] == OPEN).collect();
        let ranged: Vec<usize> = (0..players).filter(|&p| matches!(self.players[p], HandSource::Range(_))).collect();
        let random: Vec<usize> = (0..players).filter(|&p| matches!(self.players[p], HandSource::Random)).collect();
        let several = ranged.iter().any(|&p| matches!(&self.players[p], HandSource::Range(l) if l.len() > 1));
        let pool: Vec<Card> = self.deck.iter().copied().filter(|&c| !known.contains(c)).collect();
        let open = open_positions.len() + 2 * random.len();
        if !several || open > MOST_OPEN || open == 0 || pool.len() > 64 {
            return None;
        }
        let threshold = distinct_threshold(pool.len(), open)?;
        let groups = self.range_groups(&ranged, known, JOINT_LIMIT)?;
        let mut pool_keys = [0u64; 64];
        let mut pool_bits = [0u64; 64];
        for (i, &c) in pool.iter().enumerate() {
            pool_keys[i] = card_key(c);
            pool_bits[i] = c.bit();
        }
        let outcomes = 1 << players;
        let one_draw = match groups.as_slice() {
            [g] => {
                let product = (0..open)
                    .try_fold(u128::from(g.picks.total), |p, _| Some(p * pool.len() as u128).filter(|&p| p < 1 << 64));
                product.map(|p| (((1u128 << 64) - p) % p) as u64)
            }
            _ => None,
        };
        Some(RangeDraws {
            seven: hi_table(game.hi_rules()).seven_cards(),
            seats: ranged.iter().chain(&random).copied().collect(),
            groups,
            random: random.len(),
            pool,
            pool_keys,
            pool_bits,
            threshold,
            one_draw,
            known,
            known_keys: keys_of(known),
            open_positions,
            counts: vec![0; outcomes],
            examples: vec![None; outcomes],
        })
    }

    /// The ranged seats' hands in groups drawn as one: each range its own group at first, then
    /// the two groups whose joint choices are fewest joined, while they stay within `limit`.
    /// `None` when some range has no hand clear of the dead and known cards, or two groups have
    /// no compatible choice.
    fn range_groups(&self, ranged: &[usize], known: CardSet, limit: usize) -> Option<Vec<Group>> {
        let blocked = self.dead.union(known);
        let mut groups: Vec<Group> = Vec::new();
        for (seat, &p) in ranged.iter().enumerate() {
            let HandSource::Range(list) = &self.players[p] else { return None };
            let keep: Vec<usize> = (0..list.len()).filter(|&i| !list.items[i].fixed.overlaps(blocked)).collect();
            let sets: Vec<CardSet> = keep.iter().map(|&i| list.items[i].fixed).collect();
            let weights: Vec<f64> = keep.iter().map(|&i| list.weight(i)).collect();
            if sets.is_empty() {
                return None;
            }
            groups.push(Group {
                seats: vec![seat],
                keys: sets.iter().map(|&h| keys_of(h)).collect(),
                bits: sets.iter().map(|h| h.bits()).collect(),
                used: sets.iter().map(|h| h.bits()).collect(),
                picks: Picks::new(&weights),
                weights,
            });
        }
        loop {
            let mut best: Option<(usize, usize, usize)> = None;
            for i in 0..groups.len() {
                for j in i + 1..groups.len() {
                    // Cheap bound first: the product of the sizes.
                    if groups[i].choices().saturating_mul(groups[j].choices()) > limit.saturating_mul(8) {
                        continue;
                    }
                    let size = groups[i].join_size(&groups[j]);
                    if size <= limit && best.is_none_or(|b| size < b.2) {
                        best = Some((i, j, size));
                    }
                }
            }
            let Some((i, j, size)) = best else { break };
            if size == 0 {
                return None;
            }
            let joined = groups[i].join(&groups[j]);
            groups.remove(j);
            groups[i] = joined;
        }
        Some(groups)
    }
}

/// One candidate deal of a block: each group's choice and the open cards' positions.
#[derive(Clone, Copy)]
struct Candidate<const K: usize> {
    choices: [u32; MAX_PLAYERS],
    positions: [u8; K],
}

impl RangeDraws {
    /// Forgets the counts (examples are kept: any deal of an outcome serves).
    pub fn clear(&mut self) {
        self.counts.fill(0);
    }

    /// `trials` random deals, each counted by its hi winners. Candidates are drawn a block at
    /// a time and rated after: the ones that stand are kept by advancing a count rather than by
    /// a branch (which draws fail is random), and rating a block has no draw in between.
    pub fn sample(&mut self, rng: &mut Rng, trials: u64) {
        match self.open_positions.len() + 2 * self.random {
            1 => self.sample_k::<1>(rng, trials),
            2 => self.sample_k::<2>(rng, trials),
            3 => self.sample_k::<3>(rng, trials),
            4 => self.sample_k::<4>(rng, trials),
            5 => self.sample_k::<5>(rng, trials),
            6 => self.sample_k::<6>(rng, trials),
            7 => self.sample_k::<7>(rng, trials),
            8 => self.sample_k::<8>(rng, trials),
            _ => self.sample_k::<9>(rng, trials),
        }
    }

    /// [`RangeDraws::sample`] with `K` open cards.
    fn sample_k<const K: usize>(&mut self, rng: &mut Rng, trials: u64) {
        // The cheapest good generator for the hottest loop, seeded from the chunk's.
        let mut fast = WyRand::new(rng.next_u64());
        let blank = Candidate::<K> { choices: [0; MAX_PLAYERS], positions: [0; K] };
        let mut block = [blank; BLOCK];
        let mut left = trials;
        while left > 0 {
            let want = BLOCK.min(usize::try_from(left).unwrap_or(BLOCK));
            let mut filled = 0;
            while filled < want {
                // Written either way; kept only by counting it.
                let stands = self.candidate::<K>(&mut fast, &mut block[filled % BLOCK]);
                filled += usize::from(stands);
            }
            for c in &block[..want] {
                self.rate(c);
            }
            left -= want as u64;
        }
    }

    /// One candidate deal, and whether it stands: every draw fair, the open cards distinct, and
    /// no card dealt twice.
    // `&`, not `&&`: both sides are cheap, and a branch on random outcomes mispredicts.
    #[allow(clippy::needless_bitwise_bool)]
    #[inline]
    fn candidate<const K: usize>(&self, rng: &mut WyRand, c: &mut Candidate<K>) -> bool {
        let (mut used, mut stands) = (0u64, true);
        let mut x = rng.next_u64();
        let threshold = if let (Some(threshold), [g]) = (self.one_draw, self.groups.as_slice()) {
            // One number: the choice (Lemire's multiply), then the positions from what is left.
            let m = u128::from(x) * u128::from(g.picks.total);
            let i = g.picks.index((m >> 64) as u64);
            x = m as u64;
            used = g.used[i];
            c.choices[0] = i as u32;
            threshold
        } else {
            for (g, choice) in self.groups.iter().zip(&mut c.choices) {
                let (i, fair) = g.picks.pick(x);
                let u = g.used[i];
                stands &= fair & (u & used == 0);
                used |= u;
                *choice = i as u32;
                x = rng.next_u64();
            }
            self.threshold
        };
        let n = self.pool.len() as u128;
        let mut seen = 0u64;
        for position in &mut c.positions {
            let m = u128::from(x) * n;
            let i = (m >> 64) as usize & 63;
            *position = i as u8;
            seen |= self.pool_bits[i];
            x = m as u64;
        }
        stands & (x >= threshold) & (seen.count_ones() as usize == K) & (seen & used == 0)
    }

    /// Rates one deal and counts its outcome.
    #[inline]
    fn rate<const K: usize>(&mut self, c: &Candidate<K>) {
        let mut keys = [0u64; MAX_PLAYERS];
        let mut bits = [0u64; MAX_PLAYERS];
        for (g, &choice) in self.groups.iter().zip(&c.choices) {
            let width = g.seats.len();
            let at = choice as usize * width;
            for (j, &seat) in g.seats.iter().enumerate() {
                keys[seat] = g.keys[at + j];
                bits[seat] = g.bits[at + j];
            }
        }
        let ranged = self.seats.len() - self.random;
        for (j, pair) in c.positions[self.open_positions.len()..].chunks_exact(2).enumerate() {
            let (a, b) = (usize::from(pair[0]) & 63, usize::from(pair[1]) & 63);
            keys[ranged + j] = self.pool_keys[a] + self.pool_keys[b];
            bits[ranged + j] = self.pool_bits[a] | self.pool_bits[b];
        }
        let (mut board_keys, mut board_bits) = (self.known_keys, self.known.bits());
        for &i in &c.positions[..self.open_positions.len()] {
            board_keys += self.pool_keys[usize::from(i) & 63];
            board_bits |= self.pool_bits[usize::from(i) & 63];
        }
        let seats = self.seats.len();
        let mut ranks = [0u16; MAX_PLAYERS];
        for ((rank, &k), &b) in ranks[..seats].iter_mut().zip(&keys).zip(&bits) {
            let all = k + board_keys;
            *rank = if has_flush(all) {
                let suit = flush_suit(all);
                self.seven.flush_order((((b | board_bits) >> (16 * suit)) & 0x1FFF) as u32)
            } else {
                self.seven.order(rank_key(all))
            };
        }
        let best = ranks[..seats].iter().copied().max().unwrap_or(0);
        let winners = ranks[..seats]
            .iter()
            .zip(&self.seats)
            .fold(0usize, |w, (&r, &player)| w | usize::from(r == best) << player);
        self.counts[winners] += 1;
        if self.examples[winners].is_none() {
            let choices = c.choices[..self.groups.len()].iter().map(|&i| i as usize).collect();
            let positions = c.positions.iter().map(|&i| usize::from(i)).collect();
            self.examples[winners] = Some((choices, positions));
        }
    }

    /// Each outcome counted since the last `clear`, given to `add` as its hi winner mask, its
    /// count, and `deal` set to one deal of that outcome.
    pub fn for_each_outcome(&self, deal: &mut Deal, mut add: impl FnMut(u32, u64, &Deal)) {
        for (outcome, &count) in self.counts.iter().enumerate() {
            let Some((choices, positions)) = &self.examples[outcome] else { continue };
            if count == 0 {
                continue;
            }
            for (g, &choice) in self.groups.iter().zip(choices) {
                let width = g.seats.len();
                for (j, &seat) in g.seats.iter().enumerate() {
                    deal.hole[self.seats[seat]] = CardSet::from_bits(g.bits[choice * width + j]);
                }
            }
            let open: Vec<Card> = positions.iter().map(|&i| self.pool[i]).collect();
            let board_open = self.open_positions.len();
            for (&i, &c) in self.open_positions.iter().zip(&open) {
                deal.board[i] = c;
            }
            let ranged = self.seats.len() - self.random;
            for (&p, pair) in self.seats[ranged..].iter().zip(open[board_open..].chunks_exact(2)) {
                deal.hole[p] = CardSet::from_cards([pair[0], pair[1]]);
            }
            add(outcome as u32, count, deal);
        }
    }

    /// The deal the outcomes are replayed on: the known board cards in place.
    pub fn start_deal(&self, spec: &DealSpec) -> Deal {
        let mut deal = Deal::new(spec.game, spec.players.len());
        deal.dead = spec.dead;
        if let BoardSource::Boards(list) = &spec.board {
            for (slot, &b) in deal.board.iter_mut().zip(&list.items[0]) {
                if b != OPEN {
                    *slot = Card::from_index(b);
                }
            }
        }
        deal
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{for_each_combination, parse_cards};
    use crate::deal::source::{SlotHand, WeightedList};
    use crate::games::Game;
    use crate::kernels::showdown::Showdown;
    use std::collections::HashMap;

    fn range(hands: &[&str], weights: &[u32]) -> HandSource {
        let hands = hands.iter().map(|h| SlotHand::from_set(parse_cards(h).unwrap())).collect();
        HandSource::Range(WeightedList::weighted(hands, weights.to_vec()))
    }

    /// The sampler with its ranges drawn as one (`joint`) or each apart.
    fn draws(spec: &DealSpec, joint: bool) -> RangeDraws {
        let mut d = spec.range_draws().unwrap();
        let ranged: Vec<usize> = d.seats[..d.seats.len() - d.random].to_vec();
        let known = d.known;
        d.groups = spec.range_groups(&ranged, known, if joint { JOINT_LIMIT } else { 0 }).unwrap();
        assert_eq!(d.groups.len(), if joint { 1 } else { ranged.len() });
        d.one_draw = None;
        d
    }

    /// One deal that stands: each player's hand and the open cards.
    fn deal_of<const K: usize>(d: &RangeDraws, rng: &mut WyRand) -> (Vec<CardSet>, Vec<Card>) {
        let mut c = Candidate::<K> { choices: [0; MAX_PLAYERS], positions: [0; K] };
        while !d.candidate::<K>(rng, &mut c) {}
        let mut hands = vec![CardSet::EMPTY; d.seats.len()];
        for (g, &choice) in d.groups.iter().zip(&c.choices) {
            for (j, &seat) in g.seats.iter().enumerate() {
                hands[d.seats[seat]] = CardSet::from_bits(g.bits[choice as usize * g.seats.len() + j]);
            }
        }
        let open: Vec<Card> = c.positions.iter().map(|&i| d.pool[usize::from(i)]).collect();
        let board_open = d.open_positions.len();
        let ranged = d.seats.len() - d.random;
        for (j, pair) in open[board_open..].chunks_exact(2).enumerate() {
            hands[d.seats[ranged + j]] = CardSet::from_cards([pair[0], pair[1]]);
        }
        (hands, open[..board_open].to_vec())
    }

    /// Pearson's statistic within about five standard deviations of its mean.
    fn assert_chi_square<K: std::hash::Hash + Eq + std::fmt::Debug>(
        counts: &HashMap<K, f64>,
        expected: &HashMap<K, f64>,
    ) {
        let n: f64 = counts.values().sum();
        assert!(counts.keys().all(|k| expected.contains_key(k)), "an illegal deal was drawn");
        let chi: f64 =
            expected.iter().map(|(k, p)| (counts.get(k).copied().unwrap_or(0.0) - n * p).powi(2) / (n * p)).sum();
        let df = (expected.len() - 1) as f64;
        assert!(chi < df + 5.0 * (2.0 * df).sqrt(), "chi-square {chi:.1} with {df} degrees of freedom");
    }

    #[test]
    fn hands_are_uniform_over_legal_deals_by_weight() {
        // Overlapping weighted ranges and a random player, a flop and a dead card, joint and
        // apart: every legal combination of the three hands as often as the product of the
        // ranges' weights says (the random hand uniform over the cards left).
        let p1 = ["AsAh", "AsKs", "KdKc", "QhQd"];
        let p2 = ["AsKd", "KsKh", "QcQs", "AhAd", "2c2d"];
        let (w1, w2) = ([1, 2, 1, 3], [2, 1, 1, 1, 2]);
        let (flop, dead) = (parse_cards("Jh7d2s").unwrap(), parse_cards("9c").unwrap());
        let mut board = [OPEN; 5];
        for (slot, c) in board.iter_mut().zip(flop.iter()) {
            *slot = c.index();
        }
        let spec = DealSpec::new(
            Game::Holdem,
            vec![range(&p1, &w1), HandSource::Random, range(&p2, &w2)],
            BoardSource::Boards(WeightedList::uniform(vec![board])),
            dead,
        );
        let mut expected = HashMap::new();
        for (a, &wa) in p1.iter().zip(&w1) {
            for (b, &wb) in p2.iter().zip(&w2) {
                let (a, b) = (parse_cards(a).unwrap(), parse_cards(b).unwrap());
                if a.overlaps(b) {
                    continue;
                }
                let free: Vec<Card> = Game::Holdem.deck().cards().minus(flop.union(dead).union(a).union(b)).to_vec();
                for_each_combination(&free, 2, CardSet::EMPTY, &mut |r| {
                    expected.insert((a.0, r.0, b.0), f64::from(wa * wb));
                });
            }
        }
        let total: f64 = expected.values().sum();
        for p in expected.values_mut() {
            *p /= total;
        }
        for joint in [true, false] {
            let d = draws(&spec, joint);
            let mut rng = WyRand::new(3 + u64::from(joint));
            let mut counts = HashMap::new();
            for _ in 0..300_000 {
                let (hands, turn_river) = deal_of::<4>(&d, &mut rng);
                let all = hands.iter().fold(flop.union(CardSet::from_cards(turn_river.iter().copied())), |u, &h| {
                    assert!(!u.overlaps(h) && !h.overlaps(dead));
                    u.union(h)
                });
                assert_eq!(all.len(), 3 + 2 + 6);
                *counts.entry((hands[0].0, hands[1].0, hands[2].0)).or_insert(0.0) += 1.0;
            }
            assert_chi_square(&counts, &expected);
        }
    }

    #[test]
    fn outcomes_match_the_enumeration_within_sampling_error() {
        // Small random ranges (2-4 players, hold'em and short deck, a flop known), joint and
        // apart: each outcome's sampled share within five standard errors of its exact share,
        // enumerated prefix by prefix with a showdown per board.
        let mut rng = Rng::new(41, 0);
        for round in 0..12 {
            let game = [Game::Holdem, Game::ShortDeck][round % 2];
            let players = 2 + round % 3;
            let deck: Vec<Card> = game.deck().cards().to_vec();
            let mut pick = |n: usize| -> Vec<CardSet> {
                (0..n)
                    .map(|_| loop {
                        let (a, b) =
                            (deck[rng.below(deck.len() as u64) as usize], deck[rng.below(deck.len() as u64) as usize]);
                        if a != b {
                            break CardSet::from_cards([a, b]);
                        }
                    })
                    .collect()
            };
            let ranges: Vec<Vec<CardSet>> = (0..players).map(|_| pick(3 + round % 4)).collect();
            let flop = loop {
                let f = pick(2);
                let f = f[0].union(f[1]);
                if f.len() >= 3 {
                    break CardSet::from_cards(f.iter().take(3));
                }
            };
            let mut board = [OPEN; 5];
            for (slot, c) in board.iter_mut().zip(flop.iter()) {
                *slot = c.index();
            }
            let sources = ranges
                .iter()
                .map(|r| HandSource::Range(WeightedList::uniform(r.iter().map(|&h| SlotHand::from_set(h)).collect())))
                .collect();
            let spec =
                DealSpec::new(game, sources, BoardSource::Boards(WeightedList::uniform(vec![board])), CardSet::EMPTY);
            let Some(prefixes) = spec.prefixes(100_000).filter(|p| !p.is_empty()) else { continue };
            let mut exact = vec![0.0f64; 1 << players];
            for prefix in &prefixes {
                let remaining: Vec<Card> = deck.iter().copied().filter(|&c| !prefix.used.contains(c)).collect();
                let hands = &prefix.deal.hole[..players];
                let mut counts = vec![0.0; 1 << players];
                for_each_combination(&remaining, 2, flop, &mut |b| {
                    let s = Showdown::new(game, hands, b);
                    counts[(0..players).filter(|&p| s.has_best_hi(p)).fold(0, |m, p| m | 1 << p)] += 1.0;
                });
                let total: f64 = counts.iter().sum();
                for (e, c) in exact.iter_mut().zip(&counts) {
                    *e += c / total / prefixes.len() as f64;
                }
            }
            for joint in [true, false] {
                let mut d = draws(&spec, joint);
                let trials = 200_000u64;
                d.sample(&mut Rng::new(round as u64, u64::from(joint)), trials);
                assert_eq!(d.counts.iter().sum::<u64>(), trials);
                for (o, (&p, &c)) in exact.iter().zip(&d.counts).enumerate() {
                    let share = c as f64 / trials as f64;
                    let se = (p * (1.0 - p) / trials as f64).sqrt().max(1e-9);
                    assert!((share - p).abs() < 5.0 * se + 1e-6, "{game:?} outcome {o}: {share} vs {p}");
                }
                // Every outcome seen has a deal of that outcome to replay.
                let mut deal = d.start_deal(&spec);
                let mut seen = 0;
                d.for_each_outcome(&mut deal, |o, _, deal| {
                    let s = Showdown::new(game, &deal.hole[..players], deal.full_board());
                    assert_eq!((0..players).filter(|&p| s.has_best_hi(p)).fold(0, |m, p| m | 1 << p), o as usize);
                    seen += 1;
                });
                assert_eq!(seen, d.counts.iter().filter(|&&c| c > 0).count());
            }
        }
    }
}
