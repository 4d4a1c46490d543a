//! Where the cards of a deal come from ([`DealSpec`]), and Monte Carlo deals from it: uniform
//! random deals with whole-deal rejection, or, when the fixed part never changes, a partial
//! shuffle of the remaining cards ([`FixedDeal`]). The other way of dealing, every compatible
//! deal once, is `exhaustive`.
//!
//! Players with a range are drawn from it (uniformly, or by weight); a collision with anything
//! already dealt rejects the whole deal. Players without a range, random board cards and stud
//! cards not fixed by a range are then dealt from the remaining deck, which keeps the result
//! uniform over compatible deals: every compatible prefix leaves the same number of cards.

use super::joint::JointDeal;
use super::{Deal, MAX_PLAYERS};
use crate::cards::{Card, CardSet};
use crate::games::Game;
use crate::range::BoardRange;
use crate::rng::{PartialShuffle, Rng};
use std::sync::Arc;

/// A position with no card fixed by a range: dealt at random.
pub const OPEN: u8 = 0xFF;

/// A list of hands (or boards) with optional weights, sampled by cumulative weight.
#[derive(Clone, Debug)]
pub struct WeightedList<T> {
    pub items: Vec<T>,
    /// Cumulative weights; empty when all weights are equal.
    cumulative: Vec<u64>,
    pub weights: Vec<u32>,
}

impl<T> WeightedList<T> {
    pub fn uniform(items: Vec<T>) -> Self {
        WeightedList { items, cumulative: Vec::new(), weights: Vec::new() }
    }

    /// `weights` parallel to `items`; equal weights collapse to the uniform case.
    pub fn weighted(items: Vec<T>, weights: Vec<u32>) -> Self {
        if weights.is_empty() || weights.iter().all(|&w| w == weights[0]) {
            return Self::uniform(items);
        }
        let mut total = 0u64;
        let cumulative = weights
            .iter()
            .map(|&w| {
                total += u64::from(w);
                total
            })
            .collect();
        WeightedList { items, cumulative, weights }
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    pub fn weight(&self, i: usize) -> f64 {
        self.weights.get(i).map_or(1.0, |&w| f64::from(w))
    }

    #[inline]
    pub fn sample(&self, rng: &mut Rng) -> usize {
        // A fixed hand (the most common range) needs no random number.
        if self.items.len() == 1 {
            return 0;
        }
        if self.cumulative.is_empty() {
            return rng.below(self.items.len() as u64) as usize;
        }
        let total = *self.cumulative.last().unwrap_or(&1);
        let x = rng.next_u64() % total;
        self.cumulative.partition_point(|&c| c <= x)
    }
}

/// A player's hand in dealing order: fixed cards and `OPEN` positions (stud ranges may fix only
/// some streets). Flop-game hands are always fully fixed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SlotHand {
    pub slots: [u8; 7],
    pub len: u8,
    /// The fixed cards as a set.
    pub fixed: CardSet,
}

impl SlotHand {
    /// A hand with every card fixed (flop games).
    pub fn from_set(set: CardSet) -> SlotHand {
        let mut slots = [OPEN; 7];
        for (i, c) in set.iter().take(7).enumerate() {
            slots[i] = c.index();
        }
        SlotHand { slots, len: set.len() as u8, fixed: set }
    }

    /// A stud hand: position i is the i-th card dealt, `None` for open positions.
    pub fn from_positions(cards: &[Option<Card>]) -> SlotHand {
        let mut slots = [OPEN; 7];
        let mut fixed = CardSet::EMPTY;
        for (i, c) in cards.iter().take(7).enumerate() {
            if let Some(c) = c {
                slots[i] = c.index();
                fixed.insert(*c);
            }
        }
        SlotHand { slots, len: 7, fixed }
    }
}

/// Where a player's cards come from.
#[derive(Clone, Debug)]
pub enum HandSource {
    /// Any hand of the game: dealt from the remaining deck.
    Random,
    Range(WeightedList<SlotHand>),
}

/// Where the board comes from.
#[derive(Clone, Debug)]
pub enum BoardSource {
    Random,
    /// A board pattern's boards by position (flop cards first), `OPEN` where dealt at random.
    Boards(WeightedList<[u8; 5]>),
    /// A pattern with too many boards to list: the board is dealt at random from the cards left
    /// and the deal rejected when it does not match, which keeps it uniform over the matching
    /// boards (exact runs skip the boards that do not match).
    Pattern(Arc<BoardRange>),
}

/// How the open cards of a deal are grouped when enumerating: cards in one group are dealt as
/// an unordered set. Functions that look at a street need it as its own group.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct StreetSplits {
    /// Bit i set: a group boundary after the i-th card of a board or stud hand (0-based count
    /// of cards dealt before the boundary, 1..=6).
    pub after: u8,
}

impl StreetSplits {
    pub fn boundary_before(self, position: usize) -> bool {
        position > 0 && position < 7 && self.after & (1 << position) != 0
    }
}

/// Everything needed to deal one statement.
#[derive(Clone, Debug)]
pub struct DealSpec {
    pub game: Game,
    pub players: Vec<HandSource>,
    pub board: BoardSource,
    /// Dead cards removed from the deck.
    pub dead: CardSet,
    /// A `dead=` pattern's sets of cards: one of them, uniformly, is dead in each deal (empty:
    /// only `dead`).
    pub dead_sets: Vec<CardSet>,
    /// The deck minus dead cards, in a fixed order.
    pub deck: Vec<Card>,
    pub splits: StreetSplits,
}

impl DealSpec {
    pub fn new(game: Game, players: Vec<HandSource>, board: BoardSource, dead: CardSet) -> DealSpec {
        let deck = game.deck().cards().minus(dead).to_vec();
        DealSpec { game, players, board, dead, dead_sets: Vec::new(), deck, splits: StreetSplits::default() }
    }

    /// Adds a dead-card pattern's sets (all the same size): each deal kills one of them.
    pub fn with_dead_sets(mut self, sets: Vec<CardSet>) -> DealSpec {
        self.dead_sets = sets;
        self
    }

    pub(super) fn cards_per_hand(&self) -> usize {
        self.game.hole_cards()
    }

    /// Cards needed by one deal (all hands, the board and the dead cards a pattern draws).
    pub fn cards_needed(&self) -> usize {
        let drawn_dead = self.dead_sets.first().map_or(0, |s| s.len() as usize);
        self.players.len() * self.cards_per_hand() + self.game.board_cards() + drawn_dead
    }

    /// Deals one candidate; `false` when fixed cards collide (the deal must be rejected).
    #[inline]
    pub fn sample(&self, rng: &mut Rng, deal: &mut Deal) -> bool {
        let mut used = self.dead;
        if !self.dead_sets.is_empty() {
            // A dead-card pattern: its cards are drawn first; nothing is dealt yet to collide.
            used = used.union(self.dead_sets[rng.below(self.dead_sets.len() as u64) as usize]);
        }
        deal.dead = used;
        let stud = self.game.is_stud();
        // Ranges first: a collision rejects the whole deal.
        for (p, src) in self.players.iter().enumerate() {
            if let HandSource::Range(list) = src {
                let hand = &list.items[list.sample(rng)];
                if used.overlaps(hand.fixed) {
                    return false;
                }
                used = used.union(hand.fixed);
                if stud {
                    place_slots(&mut deal.stud[p], hand.slots);
                }
                deal.hole[p] = hand.fixed;
            }
        }
        let mut board_slots = [OPEN; 5];
        if let BoardSource::Boards(list) = &self.board {
            board_slots = list.items[list.sample(rng)];
            for &b in &board_slots {
                if b != OPEN {
                    let c = Card::from_index(b);
                    if used.contains(c) {
                        return false;
                    }
                    used.insert(c);
                }
            }
        }
        // Everything else from the remaining deck.
        let n = self.deck.len() as u64;
        let mut draw = |used: &mut CardSet| loop {
            let c = self.deck[rng.below(n) as usize];
            if !used.contains(c) {
                used.insert(c);
                return c;
            }
        };
        for (p, src) in self.players.iter().enumerate() {
            match src {
                HandSource::Random => {
                    if stud {
                        let mut set = CardSet::EMPTY;
                        for slot in &mut deal.stud[p] {
                            *slot = draw(&mut used);
                            set.insert(*slot);
                        }
                        deal.hole[p] = set;
                    } else {
                        let mut set = CardSet::EMPTY;
                        for _ in 0..self.cards_per_hand() {
                            set.insert(draw(&mut used));
                        }
                        deal.hole[p] = set;
                    }
                }
                HandSource::Range(_) if stud => {
                    let mut set = deal.hole[p];
                    for slot in &mut deal.stud[p] {
                        if slot.index() == OPEN {
                            *slot = draw(&mut used);
                            set.insert(*slot);
                        }
                    }
                    deal.hole[p] = set;
                }
                HandSource::Range(_) => {}
            }
        }
        let n_board = self.game.board_cards();
        for (dst, &slot) in deal.board[..n_board].iter_mut().zip(&board_slots) {
            *dst = if slot == OPEN { draw(&mut used) } else { Card::from_index(slot) };
        }
        match &self.board {
            BoardSource::Pattern(pattern) => pattern.matches(&deal.board[..n_board]),
            _ => true,
        }
    }
}

/// Deals of a spec whose fixed part never changes: every player is one hand (or a random hand)
/// and the board one pattern, as in equity questions about given hands. Each deal is then the
/// fixed cards plus a uniform random ordered choice of the remaining cards for the open
/// positions: a partial shuffle, with no collisions to reject. The remaining cards are this
/// sampler's own (their order carries over from deal to deal), so each worker holds one.
pub struct FixedDeal {
    template: Deal,
    /// (player or `BOARD`, position) of each open card, in dealing order.
    open: Vec<(usize, usize)>,
    /// When the open cards are exactly the board from this position on (given hands, a random
    /// board): they are copied in one go.
    board_from: Option<usize>,
    /// Players with open cards, whose card sets are rebuilt every deal.
    refilled: Vec<usize>,
    /// The cards left, at most 52, in a fixed-size array so that positions need no bounds checks.
    remaining: [Card; 64],
    /// `remaining` in deck order, restored by [`FixedDeal::restart`].
    in_deck_order: [Card; 64],
    shuffle: PartialShuffle,
}

impl FixedDeal {
    /// The first deal's starting point (fixed cards in place); [`FixedDeal::sample`] then fills
    /// the open positions of the same `Deal` on every call.
    pub fn start(&self) -> Deal {
        self.template.clone()
    }

    /// The deal with its fixed cards in place (open positions unset).
    pub fn template(&self) -> &Deal {
        &self.template
    }

    /// (player or [`BOARD`], position) of each open card, in dealing order.
    pub fn open(&self) -> &[(usize, usize)] {
        &self.open
    }

    /// The remaining cards in deck order (as [`FixedDeal::restart`] puts them).
    pub fn deck_order(&self) -> &[Card] {
        &self.in_deck_order[..self.shuffle.len()]
    }

    /// The partial shuffle that deals the open cards.
    pub fn shuffle(&self) -> &PartialShuffle {
        &self.shuffle
    }

    /// Puts the remaining cards back in deck order, so that the deals that follow depend only on
    /// the random stream (a chunk's deals on its seed, whichever worker runs it).
    pub fn restart(&mut self) {
        self.remaining.copy_from_slice(&self.in_deck_order);
    }

    #[inline]
    pub fn sample(&mut self, rng: &mut Rng, deal: &mut Deal) {
        let cards = &mut self.remaining;
        rng.partial_shuffle(&self.shuffle, |i, j| cards.swap(i & 63, j & 63));
        if let Some(from) = self.board_from {
            let r = &self.remaining;
            // Fixed-size stores: a slice copy of this size would be a call to memcpy.
            match from {
                0 => deal.board = [r[0], r[1], r[2], r[3], r[4]],
                3 => [deal.board[3], deal.board[4]] = [r[0], r[1]],
                4 => deal.board[4] = r[0],
                _ => {
                    for i in from..5 {
                        deal.board[i] = r[(i - from) & 63];
                    }
                }
            }
            return;
        }
        for &p in &self.refilled {
            deal.hole[p] = self.template.hole[p];
        }
        place(deal, &self.open, &self.remaining[..self.open.len()]);
    }
}

impl DealSpec {
    /// The fixed-part sampler when this spec has a single fixed part (see [`FixedDeal`]) that
    /// leaves enough cards; `None` otherwise (ranges, several board patterns, collisions).
    pub fn fixed_deal(&self) -> Option<FixedDeal> {
        let single = |src: &HandSource| match src {
            HandSource::Random => true,
            HandSource::Range(list) => list.len() == 1,
        };
        let one_board = match &self.board {
            BoardSource::Random => true,
            BoardSource::Boards(list) => list.len() == 1,
            // Drawn by rejection.
            BoardSource::Pattern(_) => false,
        };
        // A dead-card pattern changes the dead cards from deal to deal.
        if !self.players.iter().all(single) || !one_board || !self.dead_sets.is_empty() {
            return None;
        }
        let mut prefixes = self.prefixes(64)?;
        if prefixes.len() != 1 {
            return None;
        }
        let prefix = prefixes.pop()?;
        let mut open = Vec::new();
        for g in self.groups(&prefix) {
            open.extend(g.targets);
        }
        let left: Vec<Card> = self.deck.iter().copied().filter(|c| !prefix.used.contains(*c)).collect();
        if left.len() < open.len() {
            return None;
        }
        let mut remaining = [Card::from_index(0); 64];
        remaining[..left.len()].copy_from_slice(&left);
        let mut template = prefix.deal;
        template.dead = self.dead;
        for (i, &b) in prefix.board_slots.iter().enumerate() {
            if b != OPEN {
                template.board[i] = Card::from_index(b);
            }
        }
        let mut refilled: Vec<usize> = open.iter().map(|t| t.0).filter(|&o| o != BOARD).collect();
        refilled.sort_unstable();
        refilled.dedup();
        let shuffle = PartialShuffle::new(left.len(), open.len());
        let board_from = open.first().filter(|&&(owner, from)| {
            owner == BOARD && open.len() == 5 - from && open.iter().zip(from..).all(|(&t, pos)| t == (BOARD, pos))
        });
        let board_from = board_from.map(|t| t.1);
        Some(FixedDeal { template, open, board_from, refilled, in_deck_order: remaining, remaining, shuffle })
    }
}

/// How a Monte Carlo run draws the deals of a spec. It depends on the spec alone (players,
/// ranges, board, dead cards), never on what a statement asks about the deals, so every Monte
/// Carlo path of a statement (tallied by outcome or trial by trial) sees the same deals for a
/// seed.
pub enum MonteSource {
    /// Given hands: a partial shuffle of the cards left ([`FixedDeal`]).
    Fixed(Box<FixedDeal>),
    /// Two-card games with ranges or random hands: narrow ranges as one list of compatible
    /// hands, and the open cards one by one ([`JointDeal`]).
    Joint(Box<JointDeal>),
    /// Anything else: [`DealSpec::sample`], rejecting whole deals whose cards collide.
    Rejection,
}

impl DealSpec {
    /// This spec's Monte Carlo source (see [`MonteSource`]).
    pub fn monte_source(&self) -> MonteSource {
        if let Some(joint) = self.joint_deal() {
            return MonteSource::Joint(Box::new(joint));
        }
        self.fixed_deal().map_or(MonteSource::Rejection, |f| MonteSource::Fixed(Box::new(f)))
    }
}

/// The owner of board positions in (owner, position) pairs: after the players' seats.
pub const BOARD: usize = MAX_PLAYERS;

/// Puts `cards` at the `open` positions of `deal` ((player or `BOARD`, position), in order): on
/// the board, or into a player's hand (adding to its card set, which must hold only the
/// player's other cards).
#[inline]
pub(crate) fn place(deal: &mut Deal, open: &[(usize, usize)], cards: &[Card]) {
    if deal.game.is_stud() {
        let slots = deal.stud.as_flattened_mut();
        for (&(owner, pos), &c) in open.iter().zip(cards) {
            deal.hole[owner].insert(c);
            slots[owner * 7 + pos] = c;
        }
        return;
    }
    for (&(owner, pos), &c) in open.iter().zip(cards) {
        if owner == BOARD {
            deal.board[pos] = c;
        } else {
            deal.hole[owner].insert(c);
        }
    }
}

/// Copies fixed slots into a stud hand, marking open ones with an `OPEN` card index.
#[inline]
pub(super) fn place_slots(dst: &mut [Card; 7], slots: [u8; 7]) {
    for (d, s) in dst.iter_mut().zip(slots) {
        *d = Card::from_index(s);
    }
}
