//! Where the cards of a deal come from, and the two ways of dealing them: uniform random deals
//! with whole-deal rejection, and exhaustive enumeration of every compatible deal.
//!
//! Players with a range are drawn from it (uniformly, or by weight); a collision with anything
//! already dealt rejects the whole deal. Players without a range, random board cards and stud
//! cards not fixed by a range are then dealt from the remaining deck, which keeps the result
//! uniform over compatible deals: every compatible prefix leaves the same number of cards.

use super::{Deal, MAX_PLAYERS};
use crate::cards::{Card, CardSet};
use crate::games::Game;
use crate::kernels::given_tally::GivenTally;
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

    fn cards_per_hand(&self) -> usize {
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

    /// The showdown tally of this deal's given hands (see [`GivenTally`]), when it applies.
    pub fn given_tally(&self) -> Option<GivenTally> {
        let t = &self.template;
        let open_board: Vec<usize> = self.open.iter().filter(|o| o.0 == BOARD).map(|o| o.1).collect();
        let board_cards = if t.game.is_stud() { 0 } else { t.game.board_cards() };
        let known = (0..board_cards).filter(|i| !open_board.contains(i)).map(|i| t.board[i]).collect();
        let left = self.shuffle.len();
        GivenTally::new(t.game, &t.hole[..t.players], known, &self.open, &self.in_deck_order[..left])
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
fn place_slots(dst: &mut [Card; 7], slots: [u8; 7]) {
    for (d, s) in dst.iter_mut().zip(slots) {
        *d = Card::from_index(s);
    }
}

/// One deal's fixed part (ranges and board pattern) with its weight, before open cards are dealt.
#[derive(Clone, Debug)]
pub struct Prefix {
    pub deal: Deal,
    pub used: CardSet,
    pub weight: f64,
    pub board_slots: [u8; 5],
}

/// A group of open positions dealt together as an unordered set.
#[derive(Clone, Debug)]
struct Group {
    /// (player or `BOARD`, position) of each open card in the group.
    targets: Vec<(usize, usize)>,
}

const BOARD: usize = MAX_PLAYERS;

/// Work allowed per prefix asked for when listing prefixes (nodes plus hands scanned).
const PREFIX_WORK: usize = 32;

impl DealSpec {
    /// Whether some deal is legal: every player can be given a hand of its range and the board
    /// a board of its pattern, all disjoint and clear of the dead cards. `Some(false)` is a
    /// proof that nothing can be dealt; `None` means the search gave up after `budget` steps.
    /// Cheap counting arguments come first (the players of `AA**, AA**, AA**` need six aces of
    /// four), then a bounded backtracking search over the distinct fixed card sets.
    pub fn has_legal_deal(&self, budget: usize) -> Option<bool> {
        let mut lists: Vec<Vec<CardSet>> = Vec::new();
        for src in &self.players {
            if let HandSource::Range(list) = src {
                lists.push(list.items.iter().map(|h| h.fixed).collect());
            }
        }
        if let BoardSource::Boards(list) = &self.board {
            lists.push(
                list.items
                    .iter()
                    .map(|slots| slots.iter().filter(|&&b| b != OPEN).map(|&b| Card::from_index(b)).collect())
                    .collect(),
            );
        }
        for list in &mut lists {
            list.retain(|set| !set.overlaps(self.dead));
            list.sort_unstable();
            list.dedup();
            if list.is_empty() {
                return Some(false);
            }
        }
        if !self.enough_cards_for(&lists) {
            return Some(false);
        }
        lists.sort_by_key(Vec::len);
        let mut steps = 0usize;
        disjoint_choice(&lists, self.dead, &mut steps, budget)
    }

    /// Necessary conditions: the cards every choice of a list must take, summed over the lists,
    /// fit in the deck, counted by rank, by suit and card by card.
    fn enough_cards_for(&self, lists: &[Vec<CardSet>]) -> bool {
        let deck: CardSet = self.deck.iter().copied().collect();
        let mut by_rank = [0u32; 13];
        let mut by_suit = [0u32; 4];
        let mut every = CardSet::EMPTY;
        for list in lists {
            let common = list.iter().fold(CardSet::FULL, |a, &s| a.intersect(s));
            if common.overlaps(every) {
                return false;
            }
            every = every.union(common);
            for (r, need) in by_rank.iter_mut().enumerate() {
                *need += list.iter().map(|s| s.rank_count(r as u8)).min().unwrap_or(0);
            }
            for (suit, need) in by_suit.iter_mut().enumerate() {
                *need += list.iter().map(|s| s.suit_mask(suit as u8).count_ones()).min().unwrap_or(0);
            }
        }
        by_rank.iter().enumerate().all(|(r, &need)| need <= deck.rank_count(r as u8))
            && by_suit.iter().enumerate().all(|(suit, &need)| need <= deck.suit_mask(suit as u8).count_ones())
    }
}

/// Depth-first search for one card set from each list, pairwise disjoint and clear of `used`.
fn disjoint_choice(lists: &[Vec<CardSet>], used: CardSet, steps: &mut usize, budget: usize) -> Option<bool> {
    let Some((first, rest)) = lists.split_first() else {
        return Some(true);
    };
    for &set in first {
        *steps += 1;
        if *steps > budget {
            return None;
        }
        if !set.overlaps(used) && disjoint_choice(rest, used.union(set), steps, budget)? {
            return Some(true);
        }
    }
    Some(false)
}

impl DealSpec {
    /// Every compatible fixed part: the product of the ranges and board patterns, minus
    /// collisions. `limit` bounds the work; `None` when there would be more.
    pub fn prefixes(&self, limit: usize) -> Option<Vec<Prefix>> {
        let mut out = Vec::new();
        let mut visited = 0usize;
        let no_pattern = [CardSet::EMPTY];
        let dead_sets: &[CardSet] = if self.dead_sets.is_empty() { &no_pattern } else { &self.dead_sets };
        for &drawn in dead_sets {
            let mut deal = Deal::new(self.game, self.players.len());
            deal.dead = self.dead.union(drawn);
            let start = Prefix { deal, used: self.dead.union(drawn), weight: 1.0, board_slots: [OPEN; 5] };
            if !self.extend_prefix(0, start, &mut out, limit, &mut visited) {
                return None;
            }
        }
        Some(out)
    }

    /// `visited` counts the nodes of the search and every hand or board looked at in them (a
    /// node may scan thousands of hands that all collide): at most `PREFIX_WORK` per prefix
    /// allowed.
    fn extend_prefix(&self, p: usize, cur: Prefix, out: &mut Vec<Prefix>, limit: usize, visited: &mut usize) -> bool {
        let budget = limit.saturating_mul(PREFIX_WORK);
        *visited += 1;
        if *visited > budget || out.len() > limit {
            return false;
        }
        if p == self.players.len() {
            match &self.board {
                BoardSource::Random | BoardSource::Pattern(_) => out.push(cur),
                BoardSource::Boards(list) => {
                    *visited += list.len();
                    if *visited > budget {
                        return false;
                    }
                    for (i, slots) in list.items.iter().enumerate() {
                        let fixed: CardSet =
                            slots.iter().filter(|&&b| b != OPEN).map(|&b| Card::from_index(b)).collect();
                        if fixed.overlaps(cur.used) {
                            continue;
                        }
                        let mut next = cur.clone();
                        next.used = next.used.union(fixed);
                        next.weight *= list.weight(i);
                        next.board_slots = *slots;
                        out.push(next);
                        if out.len() > limit {
                            return false;
                        }
                    }
                }
            }
            return true;
        }
        match &self.players[p] {
            HandSource::Random => self.extend_prefix(p + 1, cur, out, limit, visited),
            HandSource::Range(list) => {
                *visited += list.len();
                if *visited > budget {
                    return false;
                }
                for (i, hand) in list.items.iter().enumerate() {
                    if hand.fixed.overlaps(cur.used) {
                        continue;
                    }
                    let mut next = cur.clone();
                    next.used = next.used.union(hand.fixed);
                    next.weight *= list.weight(i);
                    next.deal.hole[p] = hand.fixed;
                    if self.game.is_stud() {
                        place_slots(&mut next.deal.stud[p], hand.slots);
                    }
                    if !self.extend_prefix(p + 1, next, out, limit, visited) {
                        return false;
                    }
                }
                true
            }
        }
    }

    /// The open positions of a prefix, grouped by street boundaries.
    fn groups(&self, prefix: &Prefix) -> Vec<Group> {
        let mut groups = Vec::new();
        let stud = self.game.is_stud();
        let per = self.cards_per_hand();
        for (p, src) in self.players.iter().enumerate() {
            let open: Vec<usize> = match src {
                HandSource::Random => (0..per).collect(),
                HandSource::Range(_) if stud => (0..7).filter(|&i| prefix.deal.stud[p][i].index() == OPEN).collect(),
                HandSource::Range(_) => Vec::new(),
            };
            if stud {
                self.split_by_street(p, &open, &mut groups);
            } else if !open.is_empty() {
                groups.push(Group { targets: open.iter().map(|&i| (p, i)).collect() });
            }
        }
        let open_board: Vec<usize> = (0..self.game.board_cards()).filter(|&i| prefix.board_slots[i] == OPEN).collect();
        self.split_by_street(BOARD, &open_board, &mut groups);
        groups
    }

    fn split_by_street(&self, owner: usize, open: &[usize], groups: &mut Vec<Group>) {
        let mut current: Vec<(usize, usize)> = Vec::new();
        for &i in open {
            if !current.is_empty() && (current.last().map_or(0, |x| x.1)..i).any(|b| self.splits.boundary_before(b + 1))
            {
                groups.push(Group { targets: std::mem::take(&mut current) });
            }
            current.push((owner, i));
        }
        if !current.is_empty() {
            groups.push(Group { targets: current });
        }
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
        let mut deal = prefix.deal.clone();
        deal.dead = self.dead.union(prefix.deal.dead);
        for (i, &b) in prefix.board_slots.iter().enumerate() {
            if b != OPEN {
                deal.board[i] = Card::from_index(b);
            }
        }
        Some((tally, deal))
    }

    /// Number of deals `prefix` completes to.
    pub fn completions(&self, prefix: &Prefix) -> f64 {
        let mut left = self.deck.len() - (prefix.used.minus(self.dead)).len() as usize;
        let mut total = 1.0;
        for g in self.groups(prefix) {
            let k = g.targets.len();
            total *= binomial(left, k);
            left = left.saturating_sub(k);
        }
        total
    }

    /// Calls `visit` with every completion of `prefix` whose first group's lowest card is the
    /// `first`-th remaining card (so work can be split by `first`); `None` visits all of them.
    /// Returns false if `visit` asked to stop.
    pub fn enumerate(&self, prefix: &Prefix, first: Option<usize>, visit: &mut dyn FnMut(&Deal) -> bool) -> bool {
        let groups = self.groups(prefix);
        let mut deal = prefix.deal.clone();
        for (i, &b) in prefix.board_slots.iter().enumerate() {
            if b != OPEN {
                deal.board[i] = Card::from_index(b);
            }
        }
        deal.dead = self.dead.union(prefix.deal.dead);
        let remaining: Vec<Card> = self.deck.iter().copied().filter(|c| !prefix.used.contains(*c)).collect();
        let mut matching;
        let visit: &mut dyn FnMut(&Deal) -> bool = match &self.board {
            // Boards that do not match the pattern are no deals: skipped, not visited.
            BoardSource::Pattern(pattern) => {
                let n_board = self.game.board_cards();
                matching = move |d: &Deal| !pattern.matches(&d.board[..n_board]) || visit(d);
                &mut matching
            }
            _ => visit,
        };
        let mut e = Enumerator { groups: &groups, deal, visit };
        if groups.is_empty() {
            return first.is_none_or(|f| f == 0) && e.finish();
        }
        e.group(0, &remaining, first)
    }

    /// How many ways `first` can split the work of a prefix (the first group's card choices).
    pub fn split_count(&self, prefix: &Prefix) -> usize {
        let groups = self.groups(prefix);
        match groups.first() {
            None => 1,
            Some(g) => {
                let left = self.deck.len() - prefix.used.minus(self.dead).len() as usize;
                (left + 1).saturating_sub(g.targets.len())
            }
        }
    }
}

struct Enumerator<'a> {
    groups: &'a [Group],
    deal: Deal,
    visit: &'a mut dyn FnMut(&Deal) -> bool,
}

impl Enumerator<'_> {
    fn finish(&mut self) -> bool {
        // Hole sets of stud hands are rebuilt from their slots.
        if self.deal.game.is_stud() {
            for p in 0..self.deal.players {
                self.deal.hole[p] = self.deal.stud[p].iter().copied().collect();
            }
        }
        (self.visit)(&self.deal)
    }

    fn place(&mut self, target: (usize, usize), c: Card) {
        let (owner, pos) = target;
        if owner == BOARD {
            self.deal.board[pos] = c;
        } else if self.deal.game.is_stud() {
            self.deal.stud[owner][pos] = c;
        } else {
            self.deal.hole[owner].insert(c);
        }
    }

    fn unplace(&mut self, target: (usize, usize), c: Card) {
        let (owner, _) = target;
        if owner != BOARD && !self.deal.game.is_stud() {
            self.deal.hole[owner].remove(c);
        }
    }

    fn group(&mut self, g: usize, remaining: &[Card], first: Option<usize>) -> bool {
        if g == self.groups.len() {
            return self.finish();
        }
        let k = self.groups[g].targets.len();
        self.choose(g, 0, k, remaining, 0, first)
    }

    /// Chooses the `j`-th card of group `g` among `remaining[from..]`.
    fn choose(&mut self, g: usize, j: usize, k: usize, remaining: &[Card], from: usize, first: Option<usize>) -> bool {
        if j == k {
            if g + 1 == self.groups.len() {
                return self.finish();
            }
            let rest: Vec<Card> = remaining
                .iter()
                .copied()
                .filter(|c| !self.groups[g].targets.iter().any(|&t| self.holds(t, *c)))
                .collect();
            return self.group(g + 1, &rest, None);
        }
        let end = remaining.len() + j + 1 - k;
        let range = match (j, first) {
            (0, Some(f)) => f..(f + 1).min(end),
            _ => from..end,
        };
        let target = self.groups[g].targets[j];
        // The last card of the last board group: the innermost loop of every enumeration, kept
        // free of recursion and bookkeeping.
        if j + 1 == k && g + 1 == self.groups.len() && target.0 == BOARD {
            for &c in &remaining[range] {
                self.deal.board[target.1] = c;
                if !(self.visit)(&self.deal) {
                    return false;
                }
            }
            return true;
        }
        for i in range {
            let c = remaining[i];
            self.place(target, c);
            let ok = self.choose(g, j + 1, k, remaining, i + 1, first);
            self.unplace(target, c);
            if !ok {
                return false;
            }
        }
        true
    }

    fn holds(&self, target: (usize, usize), c: Card) -> bool {
        let (owner, pos) = target;
        if owner == BOARD {
            self.deal.board[pos] == c
        } else if self.deal.game.is_stud() {
            self.deal.stud[owner][pos] == c
        } else {
            self.deal.hole[owner].contains(c)
        }
    }
}

pub fn binomial(n: usize, k: usize) -> f64 {
    if k > n {
        return 0.0;
    }
    let k = k.min(n - k);
    (0..k).fold(1.0, |acc, i| acc * (n - i) as f64 / (i + 1) as f64)
}
