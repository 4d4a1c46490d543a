//! Monte Carlo deals of two-card flop games (hold'em, short deck) whose players hold hands of
//! their ranges or random hands, drawn without rejecting whole deals for colliding ranges.
//!
//! Narrow ranges are drawn as one: every compatible combination of their hands is listed once
//! with its weight (the product of the hands' weights), and a deal draws one of them, which is
//! exactly drawing each range and rejecting the deals where two hands share a card, without
//! the rejections. Ranges too wide to list together stay apart, and a collision between them
//! redraws the hands (whole-deal rejection, as [`DealSpec::sample`] does). A player without a
//! range then draws one of every two-card hand of the cards left, again until it shares no card
//! with the hands before (the number of hands to choose from is the same whatever those are).
//! The board still to come is drawn a card at a time, each the k-th of the cards left for a
//! uniform k below their number (`cards::NthCard`), all from one random number: nothing is
//! rejected. Every compatible prefix leaves the same number of cards, so every legal deal is
//! equally likely (by weight).
//!
//! The deal's first choice is stratified: the choice of the one group when the ranged seats form
//! one, or without ranges the first two random seats' hands as one pair (of a hand and a hand
//! clear of it: never colliding), or the first alone, is drawn from
//! [`WyRand::next_stratified`] instead of independent numbers. Each deal's choice alone is as
//! likely as before (the rest of the deal is drawn given it, and nothing redraws it: a random
//! seat that collides with it redraws only itself, which leaves every choice as likely, as each
//! leaves the same number of hands), but a run's choices come up in proportion to their weights
//! rather than by chance. That removes most of the spread between the choices' equities from an
//! answer's error (what the fastest open calculators get by walking their combined ranges); the
//! standard errors reported stay those of independent deals, so they overstate it a little.
//! With several groups every choice stays independent, since a collision redraws them all.
//!
//! This is the deal source of every Monte Carlo path of such a statement ([`DealSpec::source`]):
//! the per-deal trial loop places each draw in a [`Deal`], and the showdown tally
//! (`kernels::range_draws`) rates the same draws from the same random stream, so a statement
//! tallied by outcome sees the same deals for a seed as its spelling that is not.

use super::source::{BoardSource, DealSpec, HandSource, OPEN};
use super::{Deal, MAX_PLAYERS};
use crate::cards::{ByCount, Card, CardSet, NthCard, Pdep};
use crate::rng::WyRand;

/// The largest total weight of a group drawn as one (its choices' weights are whole numbers
/// summed in 64 bits).
const MAX_JOINT_WEIGHT: f64 = (1u64 << 62) as f64;

/// Combinations of ranges listed at most this many (about 1 MB heads-up): narrower ranges are
/// drawn as one, wider ones apart.
const JOINT_LIMIT: usize = 65_536;

/// How one of several items is drawn: uniformly, or by cumulative (whole) weights, from one
/// 64-bit number by Lemire's multiply, exactly, with the rejection of the numbers whose
/// leftover falls below `threshold` ((2^64 - total) mod total: a fraction below total / 2^64).
#[derive(Clone, Debug)]
pub struct Picks {
    pub total: u64,
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
#[derive(Clone, Debug)]
pub struct Group {
    /// The seats (indices into [`JointDeal::seats`]) whose hands the group deals.
    pub seats: Vec<usize>,
    /// Each choice's hands' cards, `seats.len()` a choice.
    pub hands: Vec<u64>,
    /// Each choice's cards in all.
    used: Vec<u64>,
    weights: Vec<f64>,
    picks: Picks,
    /// Where the group's hands begin in [`JointDeal::holdings`].
    base: usize,
}

impl Group {
    pub fn choices(&self) -> usize {
        self.used.len()
    }

    /// The sum of the choices' weights (a bound on the total of a join with it, times the other's).
    fn total_weight(&self) -> f64 {
        self.weights.iter().sum()
    }

    /// Every compatible choice of one from each of two groups.
    fn join(&self, other: &Group) -> Group {
        let (a, b) = (self.seats.len(), other.seats.len());
        let mut g = Group {
            seats: self.seats.iter().chain(&other.seats).copied().collect(),
            hands: Vec::new(),
            used: Vec::new(),
            weights: Vec::new(),
            picks: Picks::new(&[1.0]),
            base: 0,
        };
        for i in 0..self.choices() {
            for j in 0..other.choices() {
                if self.used[i] & other.used[j] == 0 {
                    g.hands.extend_from_slice(&self.hands[i * a..(i + 1) * a]);
                    g.hands.extend_from_slice(&other.hands[j * b..(j + 1) * b]);
                    g.used.push(self.used[i] | other.used[j]);
                    g.weights.push(self.weights[i] * other.weights[j]);
                }
            }
        }
        g.picks = Picks::new(&g.weights);
        g
    }

    /// Writes the slots of choice `i`'s hands, seat by seat.
    #[inline]
    fn put(&self, i: usize, slots: &mut [u32; MAX_PLAYERS]) {
        let width = self.seats.len();
        for (j, &seat) in self.seats.iter().enumerate() {
            slots[seat] = (self.base + i * width + j) as u32;
        }
    }

    /// How many compatible choices [`Group::join`] would make.
    fn join_size(&self, other: &Group) -> usize {
        self.used.iter().map(|&u| other.used.iter().filter(|&&v| u & v == 0).count()).sum()
    }
}

/// One deal drawn by [`JointDeal::draw`]: each seat's hand (its slot: an index into
/// [`JointDeal::holdings`]) and the open board cards' bit indices (the first as many as the board
/// has open slots).
#[derive(Clone, Copy, Debug, Default)]
pub struct JointDraw {
    pub slots: [u32; MAX_PLAYERS],
    pub cards: [u8; 5],
}

/// The deal source of a two-card flop game with ranges and random hands (see the module doc).
#[derive(Clone, Debug)]
pub struct JointDeal {
    /// The player of each seat: ranged seats first, then the players without a range.
    pub seats: Vec<usize>,
    pub groups: Vec<Group>,
    /// Every hand a seat can hold: each group's choices' hands (a choice's in the order of its
    /// group's seats), then `hands`.
    pub holdings: Vec<u64>,
    /// Seats without a range (the last ones).
    pub random: usize,
    /// The board: its known cards' indices, `OPEN` where drawn.
    pub board_slots: [u8; 5],
    /// The board positions drawn, in order.
    pub open_board: Vec<usize>,
    /// The cards the open cards come from: the deck without dead and known board cards.
    pub pool: u64,
    /// Every two-card hand of `pool`'s cards, for the random seats (empty without any), in
    /// colex order: by the second card, then the first, so that the hands of the first `n`
    /// cards come first whatever `n` (a pair of random hands relies on it).
    pub hands: Vec<u64>,
    /// Each of `hands`' cards, as indices into `pool`'s cards (the lower first).
    hand_cards: Vec<[u8; 2]>,
    /// Lemire's rejection threshold for an index into `hands`.
    hands_threshold: u64,
    /// Where the hands of pool card `b` as the higher begin in `hands`: `b * (b - 1) / 2`.
    hands_of_higher: [u16; 64],
    /// The number of hands a second random seat chooses from, clear of the first hand's cards
    /// (the hands of all the pool's cards but two), and Lemire's threshold for drawing the pair
    /// as one.
    second_hands: u64,
    pair_threshold: u64,
    /// Where `hands` begin in `holdings`.
    random_base: u32,
    /// The cards left for the board once every player holds a hand (all hands are of `pool`).
    board_left: u64,
    /// Lemire's rejection threshold for the open cards' indices: `2^64` modulo the number of
    /// their sequences.
    board_threshold: u64,
    players: usize,
    pub game: crate::games::Game,
    dead: CardSet,
}

impl DealSpec {
    /// The joint-list source of this spec, when it applies: a two-card flop game (hold'em, short
    /// deck) whose players hold hands of their ranges or random hands, with a random board or one
    /// board (known cards, the rest drawn), fixed dead cards, and at least one range of several
    /// hands or one random hand. `None` otherwise, and when some range has no hand clear of the
    /// dead and board cards or two ranges can never be dealt together.
    pub fn joint_deal(&self) -> Option<JointDeal> {
        let game = self.game;
        let players = self.players.len();
        if game.is_stud()
            || game.hole_cards() != 2
            || !self.dead_sets.is_empty()
            || !(1..=MAX_PLAYERS).contains(&players)
        {
            return None;
        }
        let board_slots = match &self.board {
            BoardSource::Random => [OPEN; 5],
            BoardSource::Boards(list) if list.len() == 1 => list.items[0],
            _ => return None,
        };
        let known: CardSet = board_slots.iter().filter(|&&b| b != OPEN).map(|&b| Card::from_index(b)).collect();
        let open_board: Vec<usize> = (0..game.board_cards().min(5)).filter(|&i| board_slots[i] == OPEN).collect();
        let ranged: Vec<usize> = (0..players).filter(|&p| matches!(self.players[p], HandSource::Range(_))).collect();
        let random: Vec<usize> = (0..players).filter(|&p| matches!(self.players[p], HandSource::Random)).collect();
        let several = ranged.iter().any(|&p| matches!(&self.players[p], HandSource::Range(l) if l.len() > 1));
        if !several && random.is_empty() {
            // Given hands: `FixedDeal`.
            return None;
        }
        let groups = self.range_groups(&ranged, known, JOINT_LIMIT)?;
        let pool = game.deck().cards().minus(self.dead).minus(known);
        // The board is drawn from the cards left by counting them: every hand must be of `pool`.
        if groups.iter().any(|g| g.used.iter().any(|&u| u & !pool.bits() != 0)) {
            return None;
        }
        let board_left = u64::from(pool.len()).checked_sub(2 * players as u64)?;
        let sequences = (0..open_board.len() as u64).try_fold(1u64, |m, i| board_left.checked_sub(i).map(|n| m * n))?;
        if sequences == 0 {
            return None;
        }
        let (mut hands, mut hand_cards) = (Vec::new(), Vec::new());
        let cards = pool.to_vec();
        if !random.is_empty() {
            for (b, high) in cards.iter().enumerate() {
                for (a, low) in cards[..b].iter().enumerate() {
                    hands.push(low.bit() | high.bit());
                    hand_cards.push([a as u8, b as u8]);
                }
            }
        }
        let count = (hands.len() as u64).max(1);
        let second_hands = (cards.len().saturating_sub(2) * cards.len().saturating_sub(3) / 2).max(1) as u64;
        let pairs = count * second_hands;
        Some(
            JointDeal {
                holdings: Vec::new(),
                hands,
                hand_cards,
                hands_threshold: count.wrapping_neg() % count,
                hands_of_higher: std::array::from_fn(|b| (b * b.saturating_sub(1) / 2) as u16),
                second_hands,
                pair_threshold: pairs.wrapping_neg() % pairs,
                random_base: 0,
                board_left,
                board_threshold: sequences.wrapping_neg() % sequences,
                seats: ranged.iter().chain(&random).copied().collect(),
                groups: Vec::new(),
                random: random.len(),
                board_slots,
                open_board,
                pool: pool.bits(),
                players,
                game,
                dead: self.dead,
            }
            .with_groups(groups),
        )
    }

    /// The ranged seats' hands in groups drawn as one: each range its own group at first, then
    /// the two groups whose joint choices are fewest joined, while they stay within `limit`.
    /// `None` when some range has no hand clear of the dead and known cards, or two groups have
    /// no compatible choice.
    pub fn range_groups(&self, ranged: &[usize], known: CardSet, limit: usize) -> Option<Vec<Group>> {
        let blocked = self.dead.union(known);
        let mut groups: Vec<Group> = Vec::new();
        for (seat, &p) in ranged.iter().enumerate() {
            let HandSource::Range(list) = &self.players[p] else { return None };
            let keep: Vec<usize> = (0..list.len()).filter(|&i| !list.items[i].fixed.overlaps(blocked)).collect();
            let weights: Vec<f64> = keep.iter().map(|&i| list.weight(i)).collect();
            if keep.is_empty() {
                return None;
            }
            let hands: Vec<u64> = keep.iter().map(|&i| list.items[i].fixed.bits()).collect();
            groups.push(Group {
                seats: vec![seat],
                used: hands.clone(),
                hands,
                picks: Picks::new(&weights),
                weights,
                base: 0,
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
                    // The joint weights are products, drawn by their whole running total: it must
                    // stay far inside 64 bits (fine weights of several seats would pass it).
                    if groups[i].total_weight() * groups[j].total_weight() > MAX_JOINT_WEIGHT {
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

impl JointDeal {
    /// Ranged seats (the first ones).
    pub fn ranged(&self) -> usize {
        self.seats.len() - self.random
    }

    /// The same source with its ranges each drawn apart (for tests: both ways are uniform).
    pub fn apart(&self, spec: &DealSpec) -> JointDeal {
        let ranged: Vec<usize> = self.seats[..self.ranged()].to_vec();
        let known: CardSet = self.board_slots.iter().filter(|&&b| b != OPEN).map(|&b| Card::from_index(b)).collect();
        let groups = spec.range_groups(&ranged, known, 0).unwrap_or_else(|| self.groups.clone());
        self.clone().with_groups(groups)
    }

    /// This source with `groups`, their hands and the random ones laid out in `holdings`.
    fn with_groups(mut self, mut groups: Vec<Group>) -> JointDeal {
        self.holdings.clear();
        for g in &mut groups {
            g.base = self.holdings.len();
            self.holdings.extend(&g.hands);
        }
        self.random_base = self.holdings.len() as u32;
        self.holdings.extend(&self.hands);
        self.groups = groups;
        self
    }

    /// One deal into `d`: each group's choice (the groups redrawn when two collide), each random
    /// seat's hand, then the open cards one by one from the cards left, each found by `nth`
    /// (every way finds the same card). `FULL`: the whole board is drawn (a constant, so the
    /// five cards' loop unrolls).
    // `&`, not `&&`: both sides are cheap, and a branch on random outcomes mispredicts. Always
    // inlined: in the tally's loop over a block of deals its fields are read once a block.
    #[allow(clippy::needless_bitwise_bool, clippy::inline_always)]
    #[inline(always)]
    pub fn draw<const FULL: bool>(&self, nth: impl NthCard, rng: &mut WyRand, d: &mut JointDraw) {
        let mut used = 0u64;
        match self.groups.as_slice() {
            [] => {}
            [g] if g.choices() == 1 => {
                used = g.used[0];
                g.put(0, &mut d.slots);
            }
            // One group: its choice is the deal's stratified one (see the module doc).
            [g] => loop {
                let (i, fair) = g.picks.pick(rng.next_stratified());
                used = g.used[i];
                if fair {
                    g.put(i, &mut d.slots);
                    break;
                }
            },
            groups => loop {
                let mut stands = true;
                used = 0;
                for g in groups {
                    let (i, fair) = if g.choices() == 1 { (0, true) } else { g.picks.pick(rng.next_u64()) };
                    let u = g.used[i];
                    stands &= fair & (u & used == 0);
                    used |= u;
                    g.put(i, &mut d.slots);
                }
                if stands {
                    break;
                }
            },
        }
        // Each random seat: a hand of the cards left, redrawn while it shares a card with the
        // hands before (rarely).
        let seats = &mut d.slots[self.ranged().min(MAX_PLAYERS)..self.seats.len().min(MAX_PLAYERS)];
        // Without groups, the first random seats' hands are the stratified choice: two as one
        // pair (drawn together, never colliding) or one alone (it never collides either). Either
        // is redrawn only by Lemire's rejection (almost never).
        let independent = match seats {
            [first, second, rest @ ..] if self.groups.is_empty() => {
                (*first, *second, used) = loop {
                    if let Some(pair) = self.random_pair(rng.next_stratified()) {
                        break pair;
                    }
                };
                rest
            }
            [first, rest @ ..] if self.groups.is_empty() => {
                *first = loop {
                    if let Some((i, cards)) = self.random_hand(rng.next_stratified(), 0) {
                        used = cards;
                        break i;
                    }
                };
                rest
            }
            all => all,
        };
        for slot in independent {
            *slot = loop {
                if let Some((i, cards)) = self.random_hand(rng.next_u64(), used) {
                    used |= cards;
                    break i;
                }
            };
        }
        // The open cards, each uniform over the cards left, with no rejection: the i-th is the
        // k-th of the cards left, k below their number. One random number gives every k: its
        // product with the number of cards left holds k in the high half and the rest in the
        // low half, carried to the next card, so the ks are the digits of one number below the
        // product of the counts (Lemire's multiply), exactly uniform unless the last rest falls
        // below Lemire's threshold; then (almost never) all are drawn again.
        let free = self.pool & !used;
        debug_assert_eq!(u64::from(free.count_ones()), self.board_left);
        let open = if FULL { 5 } else { self.open_board.len() };
        debug_assert_eq!(open, self.open_board.len());
        let free = nth.left(free);
        loop {
            let (mut x, mut count, mut left) = (rng.next_u64(), self.board_left, free);
            for card in &mut d.cards[..open] {
                let m = u128::from(x) * u128::from(count);
                *card = nth.take(&mut left, (m >> 64) as u32) as u8;
                x = m as u64;
                count -= 1;
            }
            if x >= self.board_threshold {
                break;
            }
        }
    }

    /// The random hand that the random number `x` picks, as its slot and its cards; `None` when it
    /// shares a card with `used` or Lemire's multiply rejects `x`.
    // `&`, not `&&`: one branch on both, not two.
    #[allow(clippy::needless_bitwise_bool)]
    #[inline]
    fn random_hand(&self, x: u64, used: u64) -> Option<(u32, u64)> {
        let m = u128::from(x) * self.hands.len() as u128;
        let i = (m >> 64) as usize;
        let cards = self.hands.get(i).copied().unwrap_or(u64::MAX);
        ((m as u64 >= self.hands_threshold) & (cards & used == 0)).then_some((self.random_base + i as u32, cards))
    }

    /// The two random hands that the random number `x` picks, as one of the pairs of a hand and
    /// a hand clear of its cards (so every such pair is as likely): their slots and their cards
    /// in all; `None` when Lemire's multiply rejects `x`. The first hand is the high half of `x`
    /// times the number of hands; the low half times the number of second hands picks the
    /// second among the hands of the pool's cards without the first's (the first ones in colex
    /// order), whose indices map onto the pool's by skipping the first's two.
    #[inline]
    fn random_pair(&self, x: u64) -> Option<(u32, u32, u64)> {
        let m = u128::from(x) * self.hands.len() as u128;
        let second = u128::from(m as u64) * u128::from(self.second_hands);
        let first = (m >> 64) as usize;
        let [p, q] = self.hand_cards.get(first).copied().unwrap_or_default();
        let [a, b] = self.hand_cards.get((second >> 64) as usize).copied().unwrap_or_default();
        let skip = |k: u8| {
            let k = k + u8::from(k >= p);
            k + u8::from(k >= q)
        };
        let (a, b) = (skip(a), skip(b));
        let i = usize::from(self.hands_of_higher[usize::from(b) & 63]) + usize::from(a);
        let (one, two) = (self.hands.get(first).copied()?, self.hands.get(i).copied()?);
        let base = self.random_base;
        (second as u64 >= self.pair_threshold).then_some((base + first as u32, base + i as u32, one | two))
    }

    /// A deal to place draws in: the players, the dead cards and the known board cards set.
    pub fn start(&self) -> Deal {
        let mut deal = Deal::new(self.game, self.players);
        deal.dead = self.dead;
        for (slot, &b) in deal.board.iter_mut().zip(&self.board_slots) {
            if b != OPEN {
                *slot = Card::from_index(b);
            }
        }
        deal
    }

    /// Puts the draw `d` into `deal` (made by [`JointDeal::start`]).
    #[inline]
    pub fn place(&self, d: &JointDraw, deal: &mut Deal) {
        for (&p, &slot) in self.seats.iter().zip(&d.slots) {
            deal.hole[p] = CardSet::from_bits(self.holdings[slot as usize]);
        }
        for (&i, &c) in self.open_board.iter().zip(&d.cards) {
            deal.board[i] = Card::from_index(c & 63);
        }
    }

    /// The next deal: [`JointDeal::draw`] (its cards found by `pdep` where that is fast), then
    /// [`JointDeal::place`].
    #[inline]
    pub fn sample(&self, rng: &mut WyRand, draw: &mut JointDraw, deal: &mut Deal) {
        match Pdep::detect() {
            #[cfg(target_arch = "x86_64")]
            #[allow(unsafe_code)]
            // SAFETY: a `Pdep` is made only where the processor has BMI1 and BMI2.
            Some(pdep) => unsafe { self.draw_bmi2(pdep, rng, draw) },
            _ => self.draw::<false>(ByCount, rng, draw),
        }
        self.place(draw, deal);
    }

    /// [`JointDeal::draw`] compiled for BMI1 and BMI2, its cards found by `pdep`.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi1,bmi2")]
    fn draw_bmi2(&self, pdep: Pdep, rng: &mut WyRand, d: &mut JointDraw) {
        self.draw::<false>(pdep, rng, d);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{for_each_combination, parse_cards};
    use crate::deal::source::{SlotHand, WeightedList};
    use crate::games::Game;
    use std::collections::HashMap;

    fn range(hands: &[&str], weights: &[u32]) -> HandSource {
        let hands = hands.iter().map(|h| SlotHand::from_set(parse_cards(h).unwrap())).collect();
        HandSource::Range(WeightedList::weighted(hands, weights.to_vec()))
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
    fn groups_of_fine_weights_stay_within_64_bits() {
        // Four seats weighted to a millionth (Pio's `:0.999999`): the product of their weights
        // passes 2^64, so they are not all drawn as one group, and every deal is drawn.
        let hands = [["AsAh", "KsKh"], ["QsQh", "JsJh"], ["TsTh", "9s9h"], ["8s8h", "7s7h"]];
        let seats = hands.iter().map(|h| range(h, &[999_999, 1])).collect();
        let spec = DealSpec::new(Game::Holdem, seats, BoardSource::Random, CardSet::EMPTY);
        let joint = spec.joint_deal().unwrap();
        assert!(joint.groups.len() > 1, "{} group", joint.groups.len());
        for g in &joint.groups {
            assert!(g.total_weight() <= MAX_JOINT_WEIGHT);
        }
        let mut d = JointDraw::default();
        let mut rng = WyRand::new(1);
        for _ in 0..100 {
            joint.draw::<false>(ByCount, &mut rng, &mut d);
        }
    }

    #[test]
    fn the_stratified_choice_is_by_weight_alone_and_in_proportion_over_a_run() {
        // Two weighted ranges drawn as one group, a random board. Any one deal's choice (the
        // first or the ninth of a run), over many runs: by weight, as an independent draw. Over
        // one run of 4,000 deals: every choice within four deals of its share (independent
        // draws miss by a few tens).
        let p1 = ["AsAh", "AsKs", "KdKc", "QhQd"];
        let p2 = ["AsKd", "KsKh", "QcQs", "AhAd", "2c2d"];
        let (w1, w2) = ([1, 2, 1, 3], [2, 1, 1, 1, 2]);
        let spec =
            DealSpec::new(Game::Holdem, vec![range(&p1, &w1), range(&p2, &w2)], BoardSource::Random, CardSet::EMPTY);
        let joint = spec.joint_deal().unwrap();
        let [group] = joint.groups.as_slice() else { panic!("one group") };
        let total: f64 = group.weights.iter().sum();
        let share: HashMap<usize, f64> = group.weights.iter().map(|w| w / total).enumerate().collect();
        let mut d = JointDraw::default();
        for at in [0, 8] {
            let mut counts = HashMap::new();
            for seed in 0..30_000u64 {
                let mut rng = WyRand::new(seed);
                for _ in 0..=at {
                    joint.draw::<false>(ByCount, &mut rng, &mut d);
                }
                *counts.entry(d.slots[group.seats[0]] as usize / 2).or_insert(0.0) += 1.0;
            }
            assert_chi_square(&counts, &share);
        }
        for seed in 0..5 {
            let mut rng = WyRand::new(seed);
            let mut counts = vec![0.0; group.choices()];
            for _ in 0..4_000 {
                joint.draw::<false>(ByCount, &mut rng, &mut d);
                counts[d.slots[group.seats[0]] as usize / 2] += 1.0;
            }
            for (i, &c) in counts.iter().enumerate() {
                assert!((c - 4_000.0 * share[&i]).abs() <= 4.0, "seed {seed} choice {i}: {c} of 4,000");
            }
        }
    }

    #[test]
    fn hands_are_uniform_over_legal_deals_by_weight() {
        // Overlapping weighted ranges and a random player, a flop and a dead card, joint and
        // apart: every legal combination of the three hands as often as the product of the
        // ranges' weights says (the random hand uniform over the cards left), and the turn and
        // river never a card dealt elsewhere.
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
        let joint = spec.joint_deal().unwrap();
        assert_eq!(joint.groups.len(), 1);
        let apart = joint.apart(&spec);
        assert_eq!(apart.groups.len(), 2);
        for (k, source) in [joint, apart].iter().enumerate() {
            let mut rng = WyRand::new(3 + k as u64);
            let (mut draw, mut deal) = (JointDraw::default(), source.start());
            let mut counts = HashMap::new();
            let mut turns = HashMap::new();
            for _ in 0..300_000 {
                source.sample(&mut rng, &mut draw, &mut deal);
                assert_eq!(deal.used().len(), 3 + 2 + 6 + 1, "{deal:?}");
                assert_eq!(CardSet::from_cards(deal.board[..3].iter().copied()), flop);
                *counts.entry((deal.hole[0].0, deal.hole[1].0, deal.hole[2].0)).or_insert(0.0) += 1.0;
                *turns.entry(deal.board[3].index()).or_insert(0.0) += 1.0;
            }
            assert_chi_square(&counts, &expected);
            // The turn, over all deals: each card in proportion to the legal deals that leave it.
            let mut turn_expected: HashMap<u8, f64> = HashMap::new();
            for (&(a, r, b), &p) in &expected {
                let used = flop.union(dead).union(CardSet(a)).union(CardSet(r)).union(CardSet(b));
                let free = Game::Holdem.deck().cards().minus(used);
                for c in free {
                    *turn_expected.entry(c.index()).or_insert(0.0) += p / f64::from(free.len());
                }
            }
            assert_chi_square(&turns, &turn_expected);
        }
    }

    #[test]
    fn random_hands_and_boards_are_uniform_cards() {
        // Two random hands and a random board, hold'em and short deck: every card of the deck
        // as often in every position, never one twice.
        for game in [Game::Holdem, Game::ShortDeck] {
            let spec = DealSpec::new(game, vec![HandSource::Random; 2], BoardSource::Random, CardSet::EMPTY);
            let source = spec.joint_deal().unwrap();
            let deck = game.deck().cards();
            let mut rng = WyRand::new(9);
            let (mut draw, mut deal) = (JointDraw::default(), source.start());
            let mut counts: HashMap<(usize, u8), f64> = HashMap::new();
            for _ in 0..100_000 {
                source.sample(&mut rng, &mut draw, &mut deal);
                assert_eq!(deal.used().len(), 9);
                assert_eq!(deal.used().minus(deck), CardSet::EMPTY);
                for (i, c) in deal.board.iter().enumerate() {
                    *counts.entry((i, c.index())).or_insert(0.0) += 1.0;
                }
                for c in deal.hole[1] {
                    *counts.entry((5, c.index())).or_insert(0.0) += 1.0;
                }
            }
            // Per deal: one card in each board position, two in the second hand.
            let n = deck.len() as f64;
            let expected: HashMap<(usize, u8), f64> = (0..6)
                .flat_map(|i| deck.iter().map(move |c| ((i, c.index()), if i == 5 { 2.0 } else { 1.0 } / 7.0 / n)))
                .collect();
            assert_chi_square(&counts, &expected);
        }
    }

    #[test]
    fn every_way_of_finding_cards_deals_the_same_deals() {
        // `sample` (by `pdep` where it is fast) and the draw by counting, from the same seed:
        // the same deals, with ranges and random hands, a random board or a known flop.
        let p1 = range(&["AsAh", "AsKs", "KdKc", "QhQd"], &[1, 2, 1, 3]);
        let p2 = range(&["AsKd", "KsKh", "QcQs", "AhAd", "2c2d"], &[2, 1, 1, 1, 2]);
        let mut flop = [OPEN; 5];
        for (slot, c) in flop.iter_mut().zip(parse_cards("Jh7d2s").unwrap().iter()) {
            *slot = c.index();
        }
        let cases = [
            (vec![p1.clone(), p2.clone()], BoardSource::Random),
            (vec![HandSource::Random; 3], BoardSource::Random),
            (vec![p1, HandSource::Random, p2], BoardSource::Boards(WeightedList::uniform(vec![flop]))),
        ];
        for (k, (sources, board)) in cases.into_iter().enumerate() {
            let joint = DealSpec::new(Game::Holdem, sources, board, CardSet::EMPTY).joint_deal().unwrap();
            let (mut a, mut b) = (WyRand::new(k as u64), WyRand::new(k as u64));
            let (mut da, mut db) = (JointDraw::default(), JointDraw::default());
            let (mut deal, mut counted) = (joint.start(), joint.start());
            for _ in 0..20_000 {
                joint.sample(&mut a, &mut da, &mut deal);
                joint.draw::<false>(ByCount, &mut b, &mut db);
                joint.place(&db, &mut counted);
                assert_eq!(format!("{deal:?}"), format!("{counted:?}"));
            }
        }
    }

    #[test]
    fn a_pair_of_random_hands_is_uniform_over_compatible_pairs_and_stratified_over_a_run() {
        // Two random players on a known board with 35 dead cards: 12 cards left, 66 hands for
        // the first player and 45 clear of it for the second. Any one deal's pair (the first or
        // the ninth of a run), over many runs: uniform over the 2,970 ordered pairs, as
        // independent draws. Over one run of ten deals a pair: every pair 9 to 11 times
        // (independent draws spread from about 0 to 22), and a third random player's hand
        // uniform over the hands clear of both.
        let deck = Game::Holdem.deck().cards().to_vec();
        let board: Vec<Card> = deck[..5].to_vec();
        let dead = CardSet::from_cards(deck[5..40].iter().copied());
        let mut slots = [OPEN; 5];
        for (slot, c) in slots.iter_mut().zip(&board) {
            *slot = c.index();
        }
        let boards = BoardSource::Boards(WeightedList::uniform(vec![slots]));
        let spec = DealSpec::new(Game::Holdem, vec![HandSource::Random; 2], boards.clone(), dead);
        let joint = spec.joint_deal().unwrap();
        let pool = CardSet::from_cards(deck[40..].iter().copied());
        let mut pairs = HashMap::new();
        for_each_combination(&pool.to_vec(), 2, CardSet::EMPTY, &mut |a| {
            for_each_combination(&pool.minus(a).to_vec(), 2, CardSet::EMPTY, &mut |b| {
                pairs.insert((a.0, b.0), 1.0 / 2970.0);
            });
        });
        assert_eq!(pairs.len(), 2970);
        let mut deal = joint.start();
        let mut d = JointDraw::default();
        for at in [0, 8] {
            let mut counts = HashMap::new();
            for seed in 0..60_000u64 {
                let mut rng = WyRand::new(seed);
                for _ in 0..=at {
                    joint.sample(&mut rng, &mut d, &mut deal);
                }
                *counts.entry((deal.hole[0].0, deal.hole[1].0)).or_insert(0.0) += 1.0;
            }
            assert_chi_square(&counts, &pairs);
        }
        let mut rng = WyRand::new(11);
        let mut counts: HashMap<(u64, u64), u32> = HashMap::new();
        for _ in 0..29_700 {
            joint.sample(&mut rng, &mut d, &mut deal);
            *counts.entry((deal.hole[0].0, deal.hole[1].0)).or_insert(0) += 1;
        }
        assert_eq!(counts.len(), 2970);
        assert!(counts.values().all(|&c| (9..=11).contains(&c)), "{:?}", counts.values().max());
        let three = DealSpec::new(Game::Holdem, vec![HandSource::Random; 3], boards, dead).joint_deal().unwrap();
        let (mut deal, mut third) = (three.start(), HashMap::new());
        let mut expected = HashMap::new();
        for _ in 0..100_000 {
            three.sample(&mut rng, &mut d, &mut deal);
            assert_eq!(deal.used().len(), 5 + 35 + 6, "{deal:?}");
            let clear = pool.minus(deal.hole[0]).minus(deal.hole[1]);
            for_each_combination(&clear.to_vec(), 2, CardSet::EMPTY, &mut |h| {
                *expected.entry(h.0).or_insert(0.0) += 1.0 / 28.0 / 100_000.0;
            });
            *third.entry(deal.hole[2].0).or_insert(0.0) += 1.0;
        }
        assert_chi_square(&third, &expected);
    }
}
