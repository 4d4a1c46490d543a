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
//! The board still to come is drawn a card at a time: six random bits are a card's bit index
//! (`suit * 16 + rank`), kept when that card is still in the deck, so each card is uniform over
//! the cards left (the technique of the fastest open equity calculators). Every compatible
//! prefix leaves the same number of cards, so every legal deal is equally likely (by weight).
//!
//! The deal's first choice is stratified: the choice of the one group when the ranged seats form
//! one, or without ranges the first random seat's hand, is drawn from
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
use crate::cards::{Card, CardSet};
use crate::rng::WyRand;

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
}

impl Group {
    pub fn choices(&self) -> usize {
        self.used.len()
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

    /// How many compatible choices [`Group::join`] would make.
    fn join_size(&self, other: &Group) -> usize {
        self.used.iter().map(|&u| other.used.iter().filter(|&&v| u & v == 0).count()).sum()
    }
}

/// One deal drawn by [`JointDeal::draw`]: each group's choice, each random seat's hand (an index
/// into [`JointDeal::hands`]) and the open board cards' bit indices in the low six bits of each
/// byte (the first as many as the board has open slots; the rest are scratch the draw writes in
/// passing).
#[derive(Clone, Copy, Debug, Default)]
pub struct JointDraw {
    pub choices: [u32; MAX_PLAYERS],
    pub random: [u16; MAX_PLAYERS],
    pub cards: [u8; 16],
}

/// The deal source of a two-card flop game with ranges and random hands (see the module doc).
#[derive(Clone, Debug)]
pub struct JointDeal {
    /// The player of each seat: ranged seats first, then the players without a range.
    pub seats: Vec<usize>,
    pub groups: Vec<Group>,
    /// Seats without a range (the last ones).
    pub random: usize,
    /// The board: its known cards' indices, `OPEN` where drawn.
    pub board_slots: [u8; 5],
    /// The board positions drawn, in order.
    pub open_board: Vec<usize>,
    /// The cards the open cards come from: the deck without dead and known board cards.
    pub pool: u64,
    /// Every two-card hand of `pool`'s cards, for the random seats (empty without any).
    pub hands: Vec<u64>,
    /// Lemire's rejection threshold for an index into `hands`.
    hands_threshold: u64,
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
        let mut hands = Vec::new();
        if !random.is_empty() {
            let cards = pool.to_vec();
            for (i, a) in cards.iter().enumerate() {
                hands.extend(cards[i + 1..].iter().map(|b| a.bit() | b.bit()));
            }
        }
        let count = (hands.len() as u64).max(1);
        Some(JointDeal {
            hands,
            hands_threshold: count.wrapping_neg() % count,
            seats: ranged.iter().chain(&random).copied().collect(),
            groups,
            random: random.len(),
            board_slots,
            open_board,
            pool: pool.bits(),
            players,
            game,
            dead: self.dead,
        })
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
            groups.push(Group { seats: vec![seat], used: hands.clone(), hands, picks: Picks::new(&weights), weights });
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
        JointDeal { groups, ..self.clone() }
    }

    /// One deal into `d`: each group's choice (the groups redrawn when two collide), then the
    /// open cards one by one from the cards left.
    // `&`, not `&&`: both sides are cheap, and a branch on random outcomes mispredicts. Always
    // inlined: in the tally's loop over a block of deals its fields are read once a block.
    #[allow(clippy::needless_bitwise_bool, clippy::inline_always)]
    #[inline(always)]
    pub fn draw(&self, rng: &mut WyRand, d: &mut JointDraw) {
        let mut used = 0u64;
        match self.groups.as_slice() {
            [] => {}
            [g] if g.choices() == 1 => used = g.used[0],
            // One group: its choice is the deal's stratified one (see the module doc).
            [g] => loop {
                let (i, fair) = g.picks.pick(rng.next_stratified());
                d.choices[0] = i as u32;
                used = g.used[i];
                if fair {
                    break;
                }
            },
            groups => loop {
                let mut stands = true;
                used = 0;
                for (g, choice) in groups.iter().zip(&mut d.choices) {
                    let (i, fair) = if g.choices() == 1 { (0, true) } else { g.picks.pick(rng.next_u64()) };
                    let u = g.used[i];
                    stands &= fair & (u & used == 0);
                    used |= u;
                    *choice = i as u32;
                }
                if stands {
                    break;
                }
            },
        }
        // Each random seat: a hand of the cards left, redrawn while it shares a card with the
        // hands before (rarely).
        let seats = &mut d.random[..self.random.min(MAX_PLAYERS)];
        // Without groups, the first random seat's hand is the stratified choice: it never
        // collides, so it is redrawn only by Lemire's rejection (almost never).
        let independent = match seats {
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
        for hand in independent {
            *hand = loop {
                if let Some((i, cards)) = self.random_hand(rng.next_u64(), used) {
                    used |= cards;
                    break i;
                }
            };
        }
        let open = self.open_board.len();
        // The cards still free to draw: those left and not looked at yet.
        let mut free = self.pool & !used;
        // Ten six-bit cards from each random number, kept or not without a branch: which are kept
        // is random, and a mispredicted branch costs more than a card. (Cards kept beyond the
        // board's are never read; at most 4 + 10 are written.) They are written in place: read
        // back through a copy, the byte stores could not forward to the copy's wide load, which
        // then waited for them to reach the cache (a seventh of a ranged run's time). A card looked
        // at leaves `free` whether kept or not (one not kept was not free anyway), so one card's
        // test waits for one AND of the card before, not for whether that card was kept. The
        // byte written holds two bits of the next card above the six of this one: readers mask.
        let cards = &mut d.cards;
        let mut n = 0usize;
        while n < open {
            let mut bits = rng.next_u64();
            for _ in 0..10 {
                let bit = 1u64 << (bits & 63);
                cards[n & 15] = bits as u8;
                n += usize::from(free & bit != 0);
                free &= !bit;
                bits >>= 6;
            }
        }
    }

    /// The random hand that the random number `x` picks, as its index into `hands` and its cards;
    /// `None` when it shares a card with `used` or Lemire's multiply rejects `x`.
    // `&`, not `&&`: one branch on both, not two.
    #[allow(clippy::needless_bitwise_bool)]
    #[inline]
    fn random_hand(&self, x: u64, used: u64) -> Option<(u16, u64)> {
        let m = u128::from(x) * self.hands.len() as u128;
        let i = (m >> 64) as usize;
        let cards = self.hands.get(i).copied().unwrap_or(u64::MAX);
        ((m as u64 >= self.hands_threshold) & (cards & used == 0)).then_some((i as u16, cards))
    }

    /// Each group's hand choice's cards for seat `j` of group `g`.
    #[inline]
    pub fn hand(&self, g: usize, choice: usize, j: usize) -> u64 {
        let group = &self.groups[g];
        group.hands[choice * group.seats.len() + j]
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
        for (g, (group, &choice)) in self.groups.iter().zip(&d.choices).enumerate() {
            for (j, &seat) in group.seats.iter().enumerate() {
                deal.hole[self.seats[seat]] = CardSet::from_bits(self.hand(g, choice as usize, j));
            }
        }
        for (&i, &c) in self.open_board.iter().zip(&d.cards) {
            deal.board[i] = Card::from_index(c & 63);
        }
        for (&p, &hand) in self.seats[self.ranged()..].iter().zip(&d.random) {
            deal.hole[p] = CardSet::from_bits(self.hands[usize::from(hand)]);
        }
    }

    /// The next deal: [`JointDeal::draw`], then [`JointDeal::place`].
    #[inline]
    pub fn sample(&self, rng: &mut WyRand, draw: &mut JointDraw, deal: &mut Deal) {
        self.draw(rng, draw);
        self.place(draw, deal);
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
                    joint.draw(&mut rng, &mut d);
                }
                *counts.entry(d.choices[0] as usize).or_insert(0.0) += 1.0;
            }
            assert_chi_square(&counts, &share);
        }
        for seed in 0..5 {
            let mut rng = WyRand::new(seed);
            let mut counts = vec![0.0; group.choices()];
            for _ in 0..4_000 {
                joint.draw(&mut rng, &mut d);
                counts[d.choices[0] as usize] += 1.0;
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
}
