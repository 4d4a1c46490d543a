//! Monte Carlo showdowns of hold'em (and short deck) hands drawn from ranges and random hands,
//! tallied by who wins: the inner loop of equity questions about ranges and random hands, as
//! [`super::given_tally`] is for given hands.
//!
//! The deals are [`JointDeal`]'s, from the same random stream as the per-deal trial loop, so a
//! statement tallied here sees the deals its other spellings see. Each hand is rated from its
//! summed card keys: the hands' keys are summed once per choice of the ranges, the board's once
//! a deal, and each player adds the two (one rank-table read, or for the rare flush one by the
//! suit's ranks).

use crate::cards::{ByCount, Card, CardSet, NthCard, Pdep};
use crate::deal::joint::{JointDeal, JointDraw};
use crate::deal::source::OPEN;
use crate::deal::{Deal, MAX_PLAYERS};
use crate::eval::{card_key, flush_suit, has_flush, hi_table, keys_of, rank_key, SevenCards};
use crate::games::PotSplit;
use crate::rng::WyRand;

/// Deals drawn before they are rated: drawing has branches on random cards, rating has table
/// reads, and apart each loop runs without waiting on the other.
const BLOCK: usize = 128;

/// Showdowns of the deals of a [`JointDeal`].
pub struct RangeDraws {
    seven: SevenCards,
    joint: JointDeal,
    /// Every hand a seat can hold, as its summed card keys and its cards, by slot (as
    /// [`JointDeal::holdings`]).
    hands: Vec<[u64; 2]>,
    /// The known board cards' keys and bits.
    known_keys: u64,
    known_bits: u64,
    /// All ones for each of the five card slots of a draw that is drawn, zero for the others: the
    /// board is read from all five slots, without a loop on the number drawn.
    open_mask: [u64; 5],
    /// Deals by hi winner mask of seats since the last `clear`.
    counts: Vec<u64>,
    /// One deal of each outcome (by mask of seats).
    examples: Vec<Option<JointDraw>>,
    /// The players' mask of each seats' mask.
    players_of: Vec<u32>,
}

impl RangeDraws {
    /// The tally of `joint`'s deals, for a hi-only game (every two-card flop game).
    pub fn new(joint: &JointDeal) -> Option<RangeDraws> {
        let game = joint.game;
        if game.pot_split() != PotSplit::HiOnly || game.is_omaha() || game.is_stud() || game.hole_cards() != 2 {
            return None;
        }
        let seats = joint.seats.len();
        let hands = joint.holdings.iter().map(|&h| [keys_of(CardSet::from_bits(h)), h]).collect();
        let known: CardSet = joint.board_slots.iter().filter(|&&b| b != OPEN).map(|&b| Card::from_index(b)).collect();
        let outcomes = 1usize << seats;
        let players_of = (0..outcomes)
            .map(|o| joint.seats.iter().enumerate().fold(0u32, |m, (s, &p)| m | u32::from(o >> s & 1 == 1) << p))
            .collect();
        Some(RangeDraws {
            seven: hi_table(game.hi_rules()).seven_cards(),
            joint: joint.clone(),
            hands,
            known_keys: keys_of(known),
            known_bits: known.bits(),
            open_mask: std::array::from_fn(|i| if i < joint.open_board.len() { !0 } else { 0 }),
            counts: vec![0; outcomes],
            examples: vec![None; outcomes],
            players_of,
        })
    }

    /// Forgets the counts (examples are kept: any deal of an outcome serves).
    pub fn clear(&mut self) {
        self.counts.fill(0);
    }

    /// The deals counted since the last `clear`, by hi winner mask of players.
    pub fn counts(&self) -> Vec<u64> {
        let mut by_players = vec![0; self.counts.len()];
        for (&count, &players) in self.counts.iter().zip(&self.players_of) {
            by_players[players as usize] += count;
        }
        by_players
    }

    /// The next `trials` deals of `rng`, each counted by its hi winners.
    pub fn sample(&mut self, rng: &mut WyRand, trials: u64) {
        #[cfg(target_arch = "x86_64")]
        if let Some(pdep) = Pdep::detect() {
            #[allow(unsafe_code)]
            // SAFETY: a `Pdep` is made only where the processor has BMI1 and BMI2.
            unsafe {
                self.sample_bmi2(pdep, rng, trials);
            }
            return;
        }
        self.sample_by(ByCount, rng, trials);
    }

    /// [`RangeDraws::sample`] compiled for BMI1 and BMI2, where the board's cards are found by
    /// `pdep`.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi1,bmi2")]
    fn sample_bmi2(&mut self, pdep: Pdep, rng: &mut WyRand, trials: u64) {
        self.sample_by(pdep, rng, trials);
    }

    /// [`RangeDraws::sample`], the board's cards found by `nth`. Always inlined, so that the
    /// loops are compiled for the caller's processor features.
    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn sample_by(&mut self, nth: impl NthCard, rng: &mut WyRand, trials: u64) {
        // The number of seats, and whether the whole board is drawn, as constants for the
        // commonest: the draw and the rating unroll.
        match (self.joint.seats.len(), self.joint.open_board.len() == 5) {
            (2, true) => self.sample_n::<2, true>(nth, rng, trials),
            (2, false) => self.sample_n::<2, false>(nth, rng, trials),
            (3, true) => self.sample_n::<3, true>(nth, rng, trials),
            (3, false) => self.sample_n::<3, false>(nth, rng, trials),
            (_, true) => self.sample_n::<0, true>(nth, rng, trials),
            (_, false) => self.sample_n::<0, false>(nth, rng, trials),
        }
    }

    /// [`RangeDraws::sample_by`] with `N` seats (0: any number), the whole board drawn if `FULL`.
    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn sample_n<const N: usize, const FULL: bool>(&mut self, nth: impl NthCard, rng: &mut WyRand, trials: u64) {
        let mut block = [JointDraw::default(); BLOCK];
        let mut left = trials;
        while left > 0 {
            let want = BLOCK.min(usize::try_from(left).unwrap_or(BLOCK));
            for d in &mut block[..want] {
                self.joint.draw::<FULL>(nth, rng, d);
            }
            // Heads up (four outcomes), the block's counts are 16-bit fields of a register: no
            // add to memory that waits for the one before.
            let mut fields = 0u64;
            // With few seats, the outcomes still without an example are the bits of a register.
            let mut missing = if N > 0 { self.missing_examples() } else { 0 };
            for d in &block[..want] {
                let o = self.outcome::<N, FULL>(d);
                if N == 2 {
                    fields += 1 << (16 * (o & 3));
                } else {
                    self.counts[o] += 1;
                }
                if N > 0 {
                    if missing >> (o & 63) & 1 == 1 {
                        self.examples[o] = Some(*d);
                        missing &= !(1 << (o & 63));
                    }
                } else if self.examples[o].is_none() {
                    self.examples[o] = Some(*d);
                }
            }
            if N == 2 {
                for (o, count) in self.counts.iter_mut().enumerate().take(4) {
                    *count += (fields >> (16 * o)) & 0xFFFF;
                }
            }
            left -= want as u64;
        }
    }

    /// The outcomes (below 64) without an example yet, as a mask.
    fn missing_examples(&self) -> u64 {
        self.examples.iter().take(64).enumerate().fold(0, |m, (o, e)| m | u64::from(e.is_none()) << o)
    }

    /// The hi winners (a mask of seats) of one deal, `N` seats (0: any number), the whole board
    /// drawn if `FULL`.
    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn outcome<const N: usize, const FULL: bool>(&self, d: &JointDraw) -> usize {
        // All five slots, those not drawn masked out: no loop on the number drawn.
        let board_keys = if FULL {
            d.cards.iter().map(|&c| card_key(Card::from_index(c))).sum()
        } else {
            (0..5).fold(self.known_keys, |k, i| k + (card_key(Card::from_index(d.cards[i])) & self.open_mask[i]))
        };
        let seats = if N > 0 { N } else { self.joint.seats.len() };
        let mut ranks = [0u16; MAX_PLAYERS];
        for (rank, &slot) in ranks.iter_mut().zip(&d.slots[..seats]) {
            let [keys, bits] = self.hands[slot as usize];
            let all = keys + board_keys;
            *rank = if has_flush(all) { self.flush_order(d, bits, all) } else { self.seven.order(rank_key(all)) };
        }
        let best = ranks[..seats].iter().copied().max().unwrap_or(0);
        ranks[..seats].iter().enumerate().fold(0usize, |w, (s, &r)| w | usize::from(r == best) << s)
    }

    /// The rank of a hand with a flush (rare: its board's cards are gathered only then).
    #[cold]
    #[inline(never)]
    fn flush_order(&self, d: &JointDraw, bits: u64, all: u64) -> u16 {
        let board = (0..5).fold(self.known_bits, |b, i| b | ((1 << (d.cards[i] & 63)) & self.open_mask[i]));
        self.seven.flush_order((((bits | board) >> (16 * flush_suit(all))) & 0x1FFF) as u32)
    }

    /// Each outcome counted since the last `clear`, given to `add` as its hi winner mask (of
    /// players), its count, and `deal` (made by [`JointDeal::start`]) set to one deal of that
    /// outcome.
    pub fn for_each_outcome(&self, deal: &mut Deal, mut add: impl FnMut(u32, u64, &Deal)) {
        for ((&count, example), &players) in self.counts.iter().zip(&self.examples).zip(&self.players_of) {
            if let (true, Some(d)) = (count > 0, example) {
                self.joint.place(d, deal);
                add(players, count, deal);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::for_each_combination;
    use crate::deal::source::{BoardSource, DealSpec, HandSource, SlotHand, WeightedList};
    use crate::games::Game;
    use crate::kernels::showdown::Showdown;
    use crate::rng::Rng;

    fn winners(game: Game, deal: &Deal) -> usize {
        let s = Showdown::of_deal(deal);
        let _ = game;
        (0..deal.players).filter(|&p| s.has_best_hi(p)).fold(0, |m, p| m | 1 << p)
    }

    /// A random spec: 2-6 players, each a small random range, a random hand or a given hand,
    /// a random board or a known flop (or turn), sometimes a dead card.
    fn random_spec(game: Game, rng: &mut Rng, round: usize) -> DealSpec {
        let deck: Vec<Card> = game.deck().cards().to_vec();
        let card = |rng: &mut Rng| deck[rng.below(deck.len() as u64) as usize];
        let players = 2 + round % 5;
        let sources = (0..players)
            .map(|p| match (round + p) % 3 {
                0 => HandSource::Random,
                k => {
                    let hands: Vec<SlotHand> = (0..if k == 1 { 1 } else { 2 + round % 5 })
                        .filter_map(|_| {
                            let (a, b) = (card(rng), card(rng));
                            (a != b).then(|| SlotHand::from_set(CardSet::from_cards([a, b])))
                        })
                        .collect();
                    HandSource::Range(WeightedList::uniform(if hands.is_empty() {
                        vec![SlotHand::from_set(CardSet::from_cards([deck[0], deck[1]]))]
                    } else {
                        hands
                    }))
                }
            })
            .collect();
        // Known board cards and a dead card, all different.
        let mut board = [OPEN; 5];
        let mut known = CardSet::EMPTY;
        for slot in &mut board[..[0, 3, 4][round % 3]] {
            let c = loop {
                let c = card(rng);
                if !known.contains(c) {
                    break c;
                }
            };
            known.insert(c);
            *slot = c.index();
        }
        let dead = match card(rng) {
            c if round % 4 == 1 && !known.contains(c) => CardSet::from_cards([c]),
            _ => CardSet::EMPTY,
        };
        let board = if board[0] == OPEN {
            BoardSource::Random
        } else {
            BoardSource::Boards(WeightedList::uniform(vec![board]))
        };
        DealSpec::new(game, sources, board, dead)
    }

    #[test]
    fn tallies_the_showdowns_of_the_same_deals_as_the_trial_loop() {
        // The tally of a stream's deals and a showdown of each deal placed from the same stream
        // (as the per-deal trial loop draws them): the same counts, outcome by outcome.
        let mut rng = Rng::new(5, 0);
        let mut tried = 0;
        for round in 0..60 {
            let game = [Game::Holdem, Game::ShortDeck, Game::ShortDeckTriton][round % 3];
            let spec = random_spec(game, &mut rng, round);
            let Some(joint) = spec.joint_deal() else { continue };
            tried += 1;
            let mut tally = RangeDraws::new(&joint).unwrap();
            tally.sample(&mut WyRand::new(round as u64), 3000);
            let mut counts = vec![0u64; tally.counts().len()];
            let (mut stream, mut draw, mut deal) = (WyRand::new(round as u64), JointDraw::default(), joint.start());
            for _ in 0..3000 {
                joint.sample(&mut stream, &mut draw, &mut deal);
                assert_eq!(deal.used().len() as usize, 2 * deal.players + 5 + spec.dead.len() as usize, "{deal:?}");
                counts[winners(game, &deal)] += 1;
            }
            assert_eq!(tally.counts(), counts, "{game:?} round {round}");
            // Every outcome seen has a deal of that outcome to replay.
            let mut seen = 0;
            tally.for_each_outcome(&mut joint.start(), |o, _, deal| {
                assert_eq!(winners(game, deal), o as usize);
                seen += 1;
            });
            assert_eq!(seen, counts.iter().filter(|&&c| c > 0).count());
        }
        assert!(tried >= 40, "{tried}");
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
            let Some(joint) = spec.joint_deal() else { continue };
            for source in [joint.apart(&spec), joint] {
                let mut d = RangeDraws::new(&source).unwrap();
                let trials = 200_000u64;
                d.sample(&mut WyRand::new(round as u64), trials);
                let counts = d.counts();
                assert_eq!(counts.iter().sum::<u64>(), trials);
                for (o, (&p, &c)) in exact.iter().zip(&counts).enumerate() {
                    let share = c as f64 / trials as f64;
                    let se = (p * (1.0 - p) / trials as f64).sqrt().max(1e-9);
                    assert!((share - p).abs() < 5.0 * se + 1e-6, "{game:?} outcome {o}: {share} vs {p}");
                }
            }
        }
    }
}
