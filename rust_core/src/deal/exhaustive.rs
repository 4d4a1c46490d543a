//! Exhaustive enumeration: every compatible deal exactly once. A spec's fixed parts (each
//! player's hand from its range, the board from its pattern) are listed as prefixes with their
//! weights; the open cards of each prefix are then dealt in groups of unordered choices, split
//! at the street boundaries the statement looks at. Also the search that proves whether any
//! legal deal exists at all.

use super::source::{place_slots, BoardSource, DealSpec, HandSource, BOARD, OPEN};
use super::Deal;
use crate::cards::{binomial, Card, CardSet};

/// One deal's fixed part (ranges and board pattern) with its weight, before open cards are dealt.
#[derive(Clone, Debug)]
pub struct Prefix {
    pub deal: Deal,
    pub used: CardSet,
    pub weight: f64,
    pub board_slots: [u8; 5],
    /// How many fixed parts this one stands for (1, or a razz rank class's size: see
    /// `deal::rank_classes`); its weight already includes them, its deals count this many
    /// times.
    pub copies: u64,
}

/// A group of open positions dealt together as an unordered set.
#[derive(Clone, Debug)]
pub struct Group {
    /// (player or [`BOARD`], position) of each open card in the group.
    pub targets: Vec<(usize, usize)>,
}

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
            let start = Prefix { deal, used: self.dead.union(drawn), weight: 1.0, board_slots: [OPEN; 5], copies: 1 };
            if !self.extend_prefix(0, start, &mut out, limit, &mut visited) {
                return None;
            }
        }
        Some(out)
    }

    /// How many fixed parts [`DealSpec::prefixes`] would list, at most: the product of the
    /// ranges' and the board list's sizes (and the dead-card pattern's), before collisions.
    pub fn prefix_bound(&self) -> f64 {
        let mut bound = self.dead_sets.len().max(1) as f64;
        for src in &self.players {
            if let HandSource::Range(list) = src {
                bound *= list.len() as f64;
            }
        }
        if let BoardSource::Boards(list) = &self.board {
            bound *= list.len() as f64;
        }
        bound
    }

    /// An estimate of the deals of an enumeration too large to list, in a few milliseconds:
    /// [`DealSpec::prefix_bound`] times the share of `samples` random choices (one hand of each
    /// range, a board, a dead set) whose cards are disjoint, times the completions of one such
    /// choice: (fixed parts, deals). `None` when no sampled choice is legal.
    pub fn estimated_deals(&self, samples: u32, rng: &mut crate::rng::Rng) -> Option<(f64, f64)> {
        let mut legal = 0u32;
        let mut completions = None;
        for _ in 0..samples {
            let mut deal = Deal::new(self.game, self.players.len());
            let mut used = self.dead;
            if !self.dead_sets.is_empty() {
                used = used.union(self.dead_sets[rng.below(self.dead_sets.len() as u64) as usize]);
            }
            deal.dead = used;
            let mut ok = true;
            for (p, src) in self.players.iter().enumerate() {
                if let HandSource::Range(list) = src {
                    let hand = &list.items[rng.below(list.len() as u64) as usize];
                    ok &= !hand.fixed.overlaps(used);
                    used = used.union(hand.fixed);
                    deal.hole[p] = hand.fixed;
                    if self.game.is_stud() {
                        place_slots(&mut deal.stud[p], hand.slots);
                    }
                }
            }
            let mut board_slots = [OPEN; 5];
            if let BoardSource::Boards(list) = &self.board {
                board_slots = list.items[rng.below(list.len() as u64) as usize];
                let fixed: CardSet = board_slots.iter().filter(|&&b| b != OPEN).map(|&b| Card::from_index(b)).collect();
                ok &= !fixed.overlaps(used);
                used = used.union(fixed);
            }
            if ok {
                legal += 1;
                if completions.is_none() {
                    completions = Some(self.completions(&Prefix { deal, used, weight: 1.0, board_slots, copies: 1 }));
                }
            }
        }
        let prefixes = self.prefix_bound() * f64::from(legal) / f64::from(samples.max(1));
        Some((prefixes, prefixes * completions?))
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
    pub fn groups(&self, prefix: &Prefix) -> Vec<Group> {
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
        let deal = self.start_deal(prefix);
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
        let mut e = Enumerator { groups: &groups, deal, visit, judged: None };
        if groups.is_empty() {
            return first.is_none_or(|f| f == 0) && e.finish();
        }
        e.group(0, &remaining, first)
    }

    /// As [`DealSpec::enumerate`], judging each partial deal once the cards a test reads are
    /// dealt: every player's cards and the first `board_cards` of the board (flop games, no board
    /// pattern). `visit(deal, false)` is that test; when it fails the completions of that partial
    /// deal are not visited but counted into `skipped`. `visit(deal, true)` visits a complete
    /// deal that passed, and returns false to stop. Without a point to judge at before the last
    /// card ([`DealSpec::judges_early`] false), every deal is visited as complete, untested.
    /// Returns false if `visit` asked to stop.
    pub fn enumerate_judged(
        &self,
        prefix: &Prefix,
        first: Option<usize>,
        board_cards: usize,
        skipped: &mut u64,
        visit: &mut dyn FnMut(&Deal, bool) -> bool,
    ) -> bool {
        let groups = self.groups(prefix);
        let Some(at) = self.judge_at(&groups, board_cards) else {
            return self.enumerate(prefix, first, &mut |d| visit(d, true));
        };
        let deal = self.start_deal(prefix);
        let remaining: Vec<Card> = self.deck.iter().copied().filter(|c| !prefix.used.contains(*c)).collect();
        if at == 0 {
            // Nothing left to deal is read: one judgement for this part of the prefix.
            if !visit(&deal, false) {
                *skipped += part_completions(&groups, remaining.len(), first);
                return true;
            }
            let mut pass = |d: &Deal| visit(d, true);
            let mut e = Enumerator { groups: &groups, deal, visit: &mut pass, judged: None };
            return e.group(0, &remaining, first);
        }
        let visit = std::cell::RefCell::new(visit);
        let mut pass = |d: &Deal| (visit.borrow_mut())(d, true);
        let mut judge = |d: &Deal| (visit.borrow_mut())(d, false);
        let mut judged = Judged { at, test: &mut judge, skipped: 0 };
        let done = {
            let mut e = Enumerator { groups: &groups, deal, visit: &mut pass, judged: Some(&mut judged) };
            e.group(0, &remaining, first)
        };
        *skipped += judged.skipped;
        done
    }

    /// Whether [`DealSpec::enumerate_judged`] tests the deals of `prefix` before their last
    /// cards are dealt.
    pub fn judges_early(&self, prefix: &Prefix, board_cards: usize) -> bool {
        self.judge_at(&self.groups(prefix), board_cards).is_some()
    }

    /// The group before which every card of the hands and the first `board_cards` of the board
    /// are dealt; `None` when that is only after the last group (nothing to gain) or the board
    /// is a pattern (its non-matching boards are no deals, so skipped ones could not be
    /// counted), or in stud.
    fn judge_at(&self, groups: &[Group], board_cards: usize) -> Option<usize> {
        if self.game.is_stud() || matches!(self.board, BoardSource::Pattern(_)) {
            return None;
        }
        let read = |g: &Group| g.targets.iter().any(|&(owner, pos)| owner != BOARD || pos < board_cards);
        let at = groups.iter().rposition(read).map_or(0, |i| i + 1);
        (at < groups.len()).then_some(at)
    }

    /// The deal of `prefix` before its open cards: its hands, its known board cards in place and
    /// its dead cards.
    pub fn start_deal(&self, prefix: &Prefix) -> Deal {
        let mut deal = prefix.deal.clone();
        for (i, &b) in prefix.board_slots.iter().enumerate() {
            if b != OPEN {
                deal.board[i] = Card::from_index(b);
            }
        }
        deal.dead = self.dead.union(prefix.deal.dead);
        deal
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

/// Deals of the groups from `g` on with `left` cards to deal them from.
fn completions_from(groups: &[Group], left: usize) -> u64 {
    let mut left = left;
    let mut total = 1u64;
    for g in groups {
        let k = g.targets.len();
        total = total.saturating_mul(binomial(left, k) as u64);
        left = left.saturating_sub(k);
    }
    total
}

/// Deals of a prefix's part `first` (all of them for `None`): the first group's choices whose
/// lowest card is the `first`-th of `left`, times the rest.
fn part_completions(groups: &[Group], left: usize, first: Option<usize>) -> u64 {
    let Some((g0, rest)) = groups.split_first() else {
        return u64::from(first.is_none_or(|f| f == 0));
    };
    let k = g0.targets.len();
    let choices = match first {
        None => binomial(left, k),
        Some(f) if f + k <= left => binomial(left - f - 1, k - 1),
        Some(_) => 0.0,
    };
    (choices as u64).saturating_mul(completions_from(rest, left.saturating_sub(k)))
}

/// The test of a partial deal in [`DealSpec::enumerate_judged`]: where it is made and what it
/// has skipped.
struct Judged<'a> {
    at: usize,
    test: &'a mut dyn FnMut(&Deal) -> bool,
    skipped: u64,
}

impl Judged<'_> {
    fn test(&mut self, deal: &Deal) -> bool {
        (self.test)(deal)
    }
}

struct Enumerator<'a, 'j> {
    groups: &'a [Group],
    deal: Deal,
    visit: &'a mut dyn FnMut(&Deal) -> bool,
    /// The test made before the group `at`, if any.
    judged: Option<&'a mut Judged<'j>>,
}

impl Enumerator<'_, '_> {
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
        if let Some(judged) = self.judged.as_deref_mut() {
            if judged.at == g && g > 0 && !judged.test(&self.deal) {
                judged.skipped += completions_from(&self.groups[g..], remaining.len());
                return true;
            }
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
