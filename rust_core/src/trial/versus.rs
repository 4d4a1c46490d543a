//! p's hand against what the opponents could hold: equity against ranges (`HvREquity`,
//! `HvPerceivedRangeEquity`) and the analysis functions (hand strength, potential, draws),
//! with the opponents' holdings taken from their hand sources. What they compute is kept across
//! the deals of a run (per worker), keyed by every card it depends on.
//!
//! - `HvREquity`: exact — every joint holding of the opponents (stud: given their up cards)
//!   and every way to deal the rest, by the rank-table fast paths from the flop and turn and
//!   the stud tables — when that costs at most [`HVR_EXACT_BUDGET`] showdowns per deal (or
//!   [`HVR_REPEATED_BUDGET`] when p's hand and the board repeat in every deal, as with a fixed
//!   hand and board). Otherwise [`HVR_SAMPLES`] joint deals from a fresh stream each time, so
//!   that the run's standard error includes that sampling: hold'em before the flop against
//!   wide ranges, Omaha flops against random hands on random boards, stud before sixth street.
//!   An `avg` of the call itself in a Monte Carlo run takes [`HVR_AVERAGED_SAMPLES`]: the same
//!   mean, a noisier value per deal (see there). Wide ranges are counted, not listed, when
//!   judging whether the exact enumeration fits.
//! - hand strength heads-up: every holding up to `MAX_EXACT_HOLDINGS` (all of hold'em), else a
//!   sample seeded by the deal; potential heads-up: see `analysis::potential`. Against several
//!   opponents both are joint (`analysis::joint`): exact while the joint deals fit its budget,
//!   else sampled from the deal's own stream (reproducible, flagged as sampled).

use super::{memo_key, CacheKey, Trial};
use crate::analysis::{
    self, deal_rng, draw_cards, random_holdings, Field, HiRater, Holding, Lookahead, Opponent, Potential,
};
use crate::analysis::{MAX_EXACT_HOLDINGS, SAMPLED_HOLDINGS};
use crate::cards::{binomial, for_each_combination, Card, CardSet};
use crate::deal::source::{HandSource, SlotHand, WeightedList, OPEN};
use crate::deal::{Deal, MAX_PLAYERS};
use crate::games::{Game, Street};
use crate::kernels::holdem_equity::holdem_equity;
use crate::kernels::omaha_equity::omaha_equity;
use crate::kernels::showdown::Showdown;
use crate::kernels::stud_equity;
use crate::plan::cost::{HVR_AVERAGED_SAMPLES, HVR_EXACT_BUDGET, HVR_REPEATED_BUDGET, HVR_SAMPLES};
use crate::plan::expr::HvrUse;
use crate::rng::Rng;

/// Rejected joint deals tolerated per sample before giving up (ranges that rarely fit).
const HVR_MAX_ATTEMPTS: u32 = 100;

const MEMO_HS: u8 = 1;
const MEMO_POT_RIVER: u8 = 2;
const MEMO_POT_ONE: u8 = 3;
const MEMO_DRAWS: u8 = 4;
const MEMO_HVR: u8 = 5;
const MEMO_MATCHUP: u8 = 6;
const MEMO_POT_RIVER_AVERAGED: u8 = 7;
const MEMO_POT_ONE_AVERAGED: u8 = 8;

impl Trial<'_> {
    fn source(&self, q: usize) -> Option<&HandSource> {
        self.sources.get(q)
    }

    /// Cards p knows on `street`: its own cards, the board, the dead cards and, in stud, every
    /// other player's up cards.
    fn known_to(&self, p: usize, street: Street) -> CardSet {
        let d = self.deal;
        let mut known = d.hand_at(p, street).union(d.board_at(street)).union(d.dead);
        if d.game.is_stud() {
            for q in (0..d.players).filter(|&q| q != p) {
                known = known.union(d.up_cards(q, street));
            }
        }
        known
    }

    /// Holdings of `k` cards an opponent with `source` could have, none touching `known`,
    /// weighted by the range (`out`); sampled when too many. Stud ranges count as random.
    fn holdings_from(
        &self,
        source: Option<&HandSource>,
        known: CardSet,
        unseen: &[Card],
        k: usize,
        rng: &mut Rng,
        out: &mut Vec<Holding>,
    ) {
        match source {
            Some(HandSource::Range(list)) if !self.deal.game.is_stud() => range_holdings(list, known, rng, out),
            _ => {
                random_holdings(unseen, k, rng, out);
            }
        }
    }

    /// The suit-canonical cross-deal key of a value of p on `street` that depends on p's cards,
    /// the board, the dead cards and the opponents' sources, when no source tells suits apart.
    /// Its kind is offset so that it never meets a key of the deal's own suits.
    fn symmetric_key(&mut self, kind: u8, p: usize, street: Street) -> Option<CacheKey> {
        self.opponents_symmetric(p).then(|| self.canonical_cards_key(kind | 0x80, p, street, &[]).0)
    }

    /// Hand strength: heads-up HS₁ against the opponent's range; against several opponents,
    /// p's share of the pot now averaged over their joint deals.
    ///
    /// `averaged` (the call is a selector's whole `avg` argument): in a Monte Carlo run a value
    /// that must be sampled is drawn afresh in every deal from the deal's own stream, with
    /// [`analysis::joint::JOINT_AVERAGED_SAMPLES`] joint deals, so the run's trials drive the
    /// inner sampling and its standard error covers it. Otherwise a sampled value is drawn from
    /// a stream seeded by the cards it depends on and kept across deals (a fixed value of the
    /// deal, for `where` and histograms), and the run is flagged as sampled inside.
    pub fn hand_strength(&mut self, p: usize, street: Street, averaged: bool) -> f64 {
        let fresh = averaged && self.scratch.outer_sampled;
        let key = memo_key(MEMO_HS, p, street);
        if let Some([v, _]) = self.memo(key) {
            return v;
        }
        // Across deals: p's cards, the board, the dead cards and (stud) the up cards seen; under
        // the suits' canonical names when no opponent's range tells suits apart, heads-up (a
        // joint sum over several fields could differ in its last bit from one renaming to another).
        let canonical = self.symmetric_key(MEMO_HS, p, street).filter(|_| self.deal.players <= 2);
        let mut cross = self.cards_key(MEMO_HS, p, street);
        self.push_up_cards(&mut cross, p, street);
        // A fresh draw's key: kept across deals only once known to be exact (see the end).
        let mut exact_key = cross;
        exact_key.push(u64::MAX);
        let keys: Vec<&CacheKey> = if fresh {
            canonical.iter().chain([&exact_key]).collect()
        } else {
            canonical.iter().chain([&cross]).collect()
        };
        for k in keys {
            if let Some([bits, _]) = self.cached(k) {
                let v = f64::from_bits(bits);
                self.remember(key, [v, 0.0]);
                return v;
            }
        }
        let d = self.deal;
        let hand = d.hand_at(p, street);
        let known = self.known_to(p, street);
        let unseen = self.deck_without(known);
        let mut rng = if fresh { self.fresh_stream(1, known) } else { deal_rng(1, known) };
        let start = rng.clone();
        let samples = if fresh { analysis::joint::JOINT_AVERAGED_SAMPLES } else { analysis::joint::JOINT_SAMPLES };
        let sampled;
        let hs = if d.players > 2 {
            let opponents = self.joint_opponents(p, street, known);
            let field = Field { opponents: &opponents, known, unseen: &unseen };
            let joint = analysis::joint_strength(d.game, hand, d.board_at(street), &field, &mut rng, samples);
            sampled = !joint.exact;
            joint.value
        } else {
            let rater = HiRater::new(d.game, d.board_at(street));
            let mine = rater.rate(hand);
            let mut holdings = std::mem::take(&mut self.scratch.holdings);
            let q = usize::from(p == 0);
            if d.game.is_stud() {
                // Stud: the opponent's up cards are seen; its down cards are any unseen.
                let up = d.up_cards(q, street);
                let down = hand.len().saturating_sub(up.len()) as usize;
                holdings.clear();
                for_each_combination(&unseen, down, up, &mut |cards| holdings.push(Holding { cards, weight: 1.0 }));
            } else {
                self.holdings_from(self.source(q), known, &unseen, hand.len() as usize, &mut rng, &mut holdings);
            }
            let v = analysis::tally(&rater, mine, &holdings).strength();
            self.scratch.holdings = holdings;
            // A draw from the stream means some holdings were sampled.
            sampled = rng != start;
            v
        };
        self.scratch.inner_sampled |= sampled;
        self.remember(key, [hs, 0.0]);
        // A sampled value is this deal's own (drawn by its cards, or afresh); an exact one holds
        // for every renaming of the suits. A fresh draw is never kept for another deal.
        if fresh && sampled {
            return hs;
        }
        let store = canonical.filter(|_| !sampled).unwrap_or(if fresh { exact_key } else { cross });
        self.cache(&store, [hs.to_bits(), 0]);
        hs
    }

    /// Where each of p's opponents' holdings on `street` come from, for the joint analysis:
    /// its range (hold'em and Omaha) or any unseen cards (with its up cards in stud).
    fn joint_opponents(&self, p: usize, street: Street, known: CardSet) -> Vec<Opponent> {
        let d = self.deal;
        let k = d.hand_at(p, street).len() as usize;
        (0..d.players)
            .filter(|&q| q != p)
            .map(|q| match self.source(q) {
                Some(HandSource::Range(list)) if !d.game.is_stud() => {
                    let mut out = Vec::new();
                    push_range_holdings(list, known, &mut out);
                    Opponent::Listed(out)
                }
                _ => {
                    let up = if d.game.is_stud() { d.up_cards(q, street) } else { CardSet::EMPTY };
                    Opponent::Random { up, down: k.saturating_sub(up.len() as usize) }
                }
            })
            .collect()
    }

    /// Positive and negative potential (docs/analysis.md): heads-up against the opponent's range,
    /// against several opponents over their joint deals. Zero on the last street and in stud.
    ///
    /// `averaged` (the call is a selector's whole `avg` argument): in a Monte Carlo run a value
    /// that must be sampled is drawn afresh in every deal from the deal's own stream by
    /// [`analysis::conditional_potential`] (an unbiased estimate from a few samples), so the
    /// run's trials drive the inner sampling and its standard error covers it. Otherwise a
    /// sampled value is drawn from a stream seeded by the cards it depends on and kept across
    /// deals, and the run is flagged as sampled inside.
    pub fn potential(&mut self, p: usize, street: Street, look: Lookahead, averaged: bool) -> Potential {
        let fresh = averaged && self.scratch.outer_sampled;
        let kind = if look == Lookahead::River { MEMO_POT_RIVER } else { MEMO_POT_ONE };
        // A fresh draw is this deal's own, apart from the kept value of the same call.
        let memo_kind = match (fresh, look) {
            (false, _) => kind,
            (true, Lookahead::River) => MEMO_POT_RIVER_AVERAGED,
            (true, Lookahead::OneCard) => MEMO_POT_ONE_AVERAGED,
        };
        let key = memo_key(memo_kind, p, street);
        if let Some([positive, negative]) = self.memo(key) {
            return Potential { positive, negative };
        }
        // Under the suits' canonical names heads-up (several ranges weigh holdings by fractions,
        // whose sums could differ in the last bit from one renaming to another).
        let canonical = self.symmetric_key(kind, p, street).filter(|_| self.deal.players <= 2);
        let mut cross = self.cards_key(kind, p, street);
        self.push_up_cards(&mut cross, p, street);
        // A fresh call reads and keeps only exact values across deals (see the end).
        let mut exact_key = cross;
        exact_key.push(u64::MAX);
        let keys: Vec<&CacheKey> = if fresh {
            canonical.iter().chain([&exact_key]).collect()
        } else {
            canonical.iter().chain([&cross]).collect()
        };
        for k in keys {
            if let Some([positive, negative]) = self.cached(k) {
                let pot = Potential { positive: f64::from_bits(positive), negative: f64::from_bits(negative) };
                self.remember(key, [pot.positive, pot.negative]);
                return pot;
            }
        }
        let d = self.deal;
        let board = d.board_at(street);
        // One card ahead from before the flop is the flop.
        let need = match look {
            _ if d.game.is_stud() || board.len() >= 5 => 0,
            Lookahead::River => 5 - board.len() as usize,
            Lookahead::OneCard if board.is_empty() => 3,
            Lookahead::OneCard => 1,
        };
        let hand = d.hand_at(p, street);
        let known = self.known_to(p, street);
        let unseen = self.deck_without(known);
        let seeded = deal_rng(2 + u64::from(kind), known);
        let mut rng = if fresh { self.fresh_stream(2 + u64::from(kind), known) } else { seeded.clone() };
        let start = rng.clone();
        let mut sampled = false;
        let samples = analysis::joint::POTENTIAL_AVERAGED_SAMPLES;
        let pot = if need == 0 {
            Potential::default()
        } else if d.players > 2 {
            let opponents = self.joint_opponents(p, street, known);
            let field = Field { opponents: &opponents, known, unseen: &unseen };
            let joint = if fresh {
                analysis::averaged_potential(d.game, hand, board, &field, need, &mut rng, samples)
            } else {
                analysis::joint_potential(d.game, hand, board, &field, need, &mut rng)
            };
            sampled = !joint.exact;
            joint.value
        } else {
            let mut holdings = std::mem::take(&mut self.scratch.holdings);
            let q = usize::from(p == 0);
            self.holdings_from(self.source(q), known, &unseen, hand.len() as usize, &mut rng, &mut holdings);
            // Exact when every holding was listed and the pairs fit the budget.
            let listed = rng == start;
            let pairs = holdings.len() as f64 * binomial(unseen.len(), need);
            let pot = if fresh && !(listed && pairs <= analysis::potential::POTENTIAL_BUDGET) {
                let opponents = self.joint_opponents(p, street, known);
                let field = Field { opponents: &opponents, known, unseen: &unseen };
                analysis::conditional_potential(d.game, hand, board, &field, need, &mut rng, samples).value
            } else {
                analysis::potential(d.game, hand, board, &holdings, &unseen, need, &mut rng)
            };
            self.scratch.holdings = holdings;
            sampled = rng != start;
            pot
        };
        self.scratch.inner_sampled |= sampled;
        self.remember(key, [pot.positive, pot.negative]);
        // A fresh draw is never kept for another deal; an exact value is, for every renaming of
        // the suits where it may be.
        if fresh && sampled {
            return pot;
        }
        let store = canonical.filter(|_| !sampled).unwrap_or(if fresh { exact_key } else { cross });
        self.cache(&store, [pot.positive.to_bits(), pot.negative.to_bits()]);
        pot
    }

    /// Outs, straight cards and flush cards (docs/analysis.md), on the flop and turn of flop games.
    pub fn draws(&mut self, p: usize, street: Street) -> analysis::Draws {
        let key = memo_key(MEMO_DRAWS, p, street);
        if let Some([a, b]) = self.memo(key) {
            // Three small counts packed in one double, the out cards' bits in the other.
            let a = a as u32;
            let out_cards = CardSet::from_bits(b.to_bits());
            return analysis::Draws { outs: a & 0xFF, straight: (a >> 8) & 0xFF, flush: a >> 16, out_cards };
        }
        let d = self.deal;
        let draws = if d.game.is_stud() || !matches!(street, Street::Flop | Street::Turn) {
            analysis::Draws::default()
        } else {
            let hand = d.hand_at(p, street);
            let board = d.board_at(street);
            let others: Vec<CardSet> = (0..d.players).filter(|&q| q != p).map(|q| d.hole[q]).collect();
            // docs/analysis.md: unseen cards are the deck less every player's cards, the board and the
            // dead cards, so a card another player holds is never a draw card either.
            let known = others.iter().fold(hand.union(board).union(d.dead), |k, &o| k.union(o));
            let unseen = self.deck_without(known);
            analysis::draws(d.game, hand, board, &unseen, &others)
        };
        let packed = [
            f64::from(draws.outs | (draws.straight << 8) | (draws.flush << 16)),
            f64::from_bits(draws.out_cards.bits()),
        ];
        self.remember(key, packed);
        draws
    }

    /// The out cards `HoldemHand`'s heuristic keeps (docs/analysis.md): with other players in the deal
    /// their hands are known and every out beats them, so these are the outs; alone, the
    /// heuristic judges each out.
    pub fn discounted_out_cards(&mut self, p: usize, street: Street) -> CardSet {
        let outs = self.draws(p, street).out_cards;
        let d = self.deal;
        if d.players > 1 || outs.is_empty() {
            return outs;
        }
        analysis::discounted_outs(d.game, d.hand_at(p, street), d.board_at(street), outs)
    }

    /// Exactly three cards of a suit usable by p on the flop (docs/analysis.md).
    pub fn backdoor_flush_draw(&self, p: usize, street: Street) -> bool {
        let d = self.deal;
        street == Street::Flop
            && !d.game.is_stud()
            && analysis::backdoor_flush_draw(d.game, d.hole[p], d.board_at(street))
    }

    /// p's actual hand against every other player's whole range (card removal respected). In
    /// stud each opponent's up cards on `street` are seen: its range is read given them.
    /// `repeats`: p's hand and the board up to `street` are the same in every deal, so an
    /// exact answer is computed once and kept (a larger enumeration is worth it).
    pub fn hvr_equity(&mut self, p: usize, street: Street, how: HvrUse) -> f64 {
        let opponents: Vec<(Option<usize>, Option<&HandSource>)> =
            (0..self.deal.players).filter(|&q| q != p).map(|q| (Some(q), self.sources.get(q))).collect();
        self.equity_against(p, street, &opponents, 0, how)
    }

    /// p's actual hand against `range` alone, heads-up (no seat: in stud no up cards condition
    /// it, but every up card on the table is seen).
    pub fn perceived_range_equity(&mut self, p: usize, street: Street, range: &HandSource, how: HvrUse) -> f64 {
        let tag = std::ptr::from_ref(range) as u64;
        self.equity_against(p, street, &[(None, Some(range))], tag, how)
    }

    /// p's share of the pot against `opponents` (their seat, for stud up cards, and where
    /// their cards come from; None: random), the cards known up to `street` and the rest
    /// dealt: exact (every joint holding and every way to deal the rest, kept across deals)
    /// when that costs at most the budget, otherwise sampled from a fresh stream. 0 when no
    /// opponent holding fits.
    fn equity_against(
        &mut self,
        p: usize,
        street: Street,
        opponents: &[(Option<usize>, Option<&HandSource>)],
        tag: u64,
        how: HvrUse,
    ) -> f64 {
        let d = self.deal;
        if opponents.is_empty() {
            return 1.0;
        }
        let hand = d.hand_at(p, street);
        let board = d.board_at(street);
        // p knows its cards, the board, the dead cards and (stud) every up card on the table.
        let known = self.known_to(p, street);
        let mut key = self.cards_key(MEMO_HVR, p, street);
        key.push(tag);
        self.push_up_cards(&mut key, p, street);
        if let Some([bits, _]) = self.cached(&key) {
            return f64::from_bits(bits);
        }
        let unseen = self.deck_without(known);
        let budget = if how.repeats { HVR_REPEATED_BUDGET } else { HVR_EXACT_BUDGET };
        let samples = if how.averaged && self.scratch.outer_sampled { HVR_AVERAGED_SAMPLES } else { HVR_SAMPLES };
        if self.surely_over_budget(street, opponents, known, unseen.len(), budget) {
            let mut rng = self.fresh_rng(7, known);
            return sampled_equity(d, p, street, opponents, known, &unseen, samples, &mut rng);
        }
        let (lists, cost) = self.listed_holdings(street, opponents, known, &unseen, budget);
        if cost <= budget {
            let e = self.exact_joint(hand, board, known, &lists, street);
            self.cache(&key, [e.to_bits(), 0]);
            return e;
        }
        let mut rng = self.fresh_rng(7, known);
        sampled_equity(d, p, street, opponents, known, &unseen, samples, &mut rng)
    }

    /// Every opponent's holdings (see [`Trial::opponent_holdings`]) and what enumerating them
    /// all exactly would cost; infinite (and the lists cut short) past `budget`.
    // Listed or too many: a match reads better than `if let` here.
    #[allow(clippy::single_match_else)]
    fn listed_holdings(
        &self,
        street: Street,
        opponents: &[(Option<usize>, Option<&HandSource>)],
        known: CardSet,
        unseen: &[Card],
        budget: f64,
    ) -> (Vec<Vec<Holding>>, f64) {
        let mut lists = Vec::with_capacity(opponents.len());
        let mut holdings_cost = 1.0;
        for &(q, src) in opponents {
            match self.opponent_holdings(q, src, street, known, unseen, budget / holdings_cost) {
                Some(list) => {
                    holdings_cost *= list.len().max(1) as f64;
                    lists.push(list);
                }
                None => {
                    holdings_cost = f64::INFINITY;
                    break;
                }
            }
        }
        // Cards the holdings take from the unseen ones (stud up cards are seen already).
        let hidden: usize = lists
            .iter()
            .zip(opponents)
            .map(|(l, &(q, _))| l.first().map_or(0, |h| h.cards.len() as usize).saturating_sub(self.seen_of(q, street)))
            .sum();
        let rest = unseen.len().saturating_sub(hidden);
        let board = self.deal.board_at(street).len() as usize;
        let cost = holdings_cost * per_holding_cost(self.deal.game, street, 1 + opponents.len(), rest, board);
        (lists, cost)
    }

    /// Whether the exact enumeration against `opponents` surely costs more than `budget`, judged
    /// by counting holdings (with an early stop) instead of listing them: a wide range has tens
    /// of thousands, and listing them in every deal that then samples cost a fifth of an Omaha
    /// `HvREquity` against 20%. The count bounds the listed cost from below (empty lists and
    /// fewer hidden cards only raise it), so the choice is the listing's own. Flop games only.
    fn surely_over_budget(
        &self,
        street: Street,
        opponents: &[(Option<usize>, Option<&HandSource>)],
        known: CardSet,
        unseen: usize,
        budget: f64,
    ) -> bool {
        let game = self.deal.game;
        if game.is_stud() {
            return false;
        }
        let k = game.hole_cards();
        let board = self.deal.board_at(street).len() as usize;
        let rest = unseen.saturating_sub(k * opponents.len());
        let mut cost = per_holding_cost(game, street, 1 + opponents.len(), rest, board);
        for &(_, src) in opponents {
            let holdings = match src {
                Some(HandSource::Range(list)) => count_avoiding(list, known, budget / cost),
                _ => binomial(unseen, k),
            };
            cost *= holdings;
            if cost > budget {
                return true;
            }
        }
        false
    }

    /// Cards of opponent `q` that p sees on `street` (stud up cards).
    fn seen_of(&self, q: Option<usize>, street: Street) -> usize {
        match q {
            Some(q) if self.deal.game.is_stud() => self.deal.up_cards(q, street).len() as usize,
            _ => 0,
        }
    }

    /// Every holding (its cards as of `street`, up cards included) an opponent at seat `q`
    /// with `src` could have, none touching `known` except its own up cards, weighted; None
    /// when there are more than `limit` or they cannot be listed (stud ranges fixing later
    /// cards).
    #[allow(clippy::single_match_else)]
    fn opponent_holdings(
        &self,
        q: Option<usize>,
        src: Option<&HandSource>,
        street: Street,
        known: CardSet,
        unseen: &[Card],
        limit: f64,
    ) -> Option<Vec<Holding>> {
        let d = self.deal;
        let mut out = Vec::new();
        if !d.game.is_stud() {
            let k = d.game.hole_cards();
            match src {
                Some(HandSource::Range(list)) => {
                    if list.len() as f64 > limit {
                        return None;
                    }
                    push_range_holdings(list, known, &mut out);
                }
                _ => {
                    if binomial(unseen.len(), k) > limit {
                        return None;
                    }
                    for_each_combination(unseen, k, CardSet::EMPTY, &mut |cards| {
                        out.push(Holding { cards, weight: 1.0 });
                    });
                }
            }
            return Some(out);
        }
        // Stud: positions dealt by `street`; the up ones (third to sixth card) are seen when the
        // opponent has a seat.
        let n = street.cards_known();
        let visible = |i: usize| q.is_some() && (2..6).contains(&i) && i < n;
        let up = q.map_or(CardSet::EMPTY, |q| d.up_cards(q, street));
        let hidden = (0..n).filter(|&i| !visible(i)).count();
        match src {
            Some(HandSource::Range(list)) => {
                let mut total = 0.0;
                for (i, h) in list.items.iter().enumerate() {
                    let slots = &h.slots[..7];
                    if slots[n..].iter().any(|&s| s != OPEN) {
                        return None;
                    }
                    let mut fixed_down = CardSet::EMPTY;
                    let mut open_up = 0;
                    let mut fits = true;
                    for (pos, &slot) in slots[..n].iter().enumerate() {
                        if visible(pos) {
                            let shown = q.map(|q| d.stud[q][pos]);
                            if slot == OPEN {
                                open_up += 1;
                            } else if Some(Card::from_index(slot)) != shown {
                                fits = false;
                            }
                        } else if slot != OPEN {
                            let c = Card::from_index(slot);
                            if known.contains(c) {
                                fits = false;
                            }
                            fixed_down.insert(c);
                        }
                    }
                    if !fits {
                        continue;
                    }
                    let free: Vec<Card> = unseen.iter().copied().filter(|c| !fixed_down.contains(*c)).collect();
                    let open_down = hidden - fixed_down.len() as usize;
                    let ways = binomial(free.len(), open_down);
                    total += ways;
                    if total > limit {
                        return None;
                    }
                    // Each way to fill the open down cards is equally likely given the hand; an
                    // open up position matches the card shown with chance 1 / (cards left).
                    let weight = list.weight(i) / ways / (free.len() as f64).powi(open_up);
                    for_each_combination(&free, open_down, up.union(fixed_down), &mut |cards| {
                        out.push(Holding { cards, weight });
                    });
                }
            }
            _ => {
                if binomial(unseen.len(), hidden) > limit {
                    return None;
                }
                for_each_combination(unseen, hidden, up, &mut |cards| out.push(Holding { cards, weight: 1.0 }));
            }
        }
        Some(out)
    }

    /// The weighted average of p's share over every joint holding of the opponents (`lists`,
    /// no card twice) and every way to deal the rest.
    fn exact_joint(
        &mut self,
        hand: CardSet,
        board: CardSet,
        known: CardSet,
        lists: &[Vec<Holding>],
        street: Street,
    ) -> f64 {
        let mut hands = [CardSet::EMPTY; MAX_PLAYERS];
        hands[0] = hand;
        let mut acc = (0.0, 0.0);
        self.joint(&mut hands, 1, lists, (board, known), known, street, 1.0, &mut acc);
        if acc.1 > 0.0 {
            acc.0 / acc.1
        } else {
            0.0
        }
    }

    /// Opponent `j` onwards (`hands[..j]` chosen, `taken`: the known cards and their hidden
    /// cards).
    #[allow(clippy::too_many_arguments)]
    fn joint(
        &mut self,
        hands: &mut [CardSet; MAX_PLAYERS],
        j: usize,
        lists: &[Vec<Holding>],
        (board, known): (CardSet, CardSet),
        taken: CardSet,
        street: Street,
        weight: f64,
        acc: &mut (f64, f64),
    ) {
        if j > lists.len() {
            let share = self.share_against(&hands[..j], board, taken, street);
            acc.0 += weight * share;
            acc.1 += weight;
            return;
        }
        for h in &lists[j - 1] {
            // A stud holding includes the opponent's own up cards, which p knows already.
            let hidden = h.cards.minus(known);
            if hidden.overlaps(taken) {
                continue;
            }
            hands[j] = h.cards;
            self.joint(hands, j + 1, lists, (board, known), taken.union(hidden), street, weight * h.weight, acc);
        }
    }

    /// Seat 0's share among `hands` (cards as of `street`) with `board`, every way to deal the
    /// rest of the deck outside `taken` visited once.
    fn share_against(&mut self, hands: &[CardSet], board: CardSet, taken: CardSet, street: Street) -> f64 {
        let d = self.deal;
        let game = d.game;
        let remaining = self.deck_without(taken);
        if game.is_stud() {
            let mut shares = [0.0; MAX_PLAYERS];
            let per_player = 7 - street.cards_known();
            stud_equity::stud_equities(game, hands, &remaining, per_player, &mut self.scratch.stud, &mut shares);
            return shares[0];
        }
        let need = game.board_cards() - board.len() as usize;
        if need == 0 {
            return Showdown::new(game, hands, board).share(0);
        }
        // Heads-up before the flop the same two hands recur across deals: keep each matchup.
        let mut key = CacheKey::new(MEMO_MATCHUP, 0, street);
        for h in hands {
            key.push(h.bits());
        }
        key.push(d.dead.bits());
        if need > 2 {
            if let Some([bits, _]) = self.cached(&key) {
                return f64::from_bits(bits);
            }
        }
        let s = &mut *self.scratch;
        let fast = holdem_equity(game, hands, 0, board, &remaining, &mut s.holdem)
            .or_else(|| omaha_equity(game, hands, 0, board, &remaining, &mut s.omaha));
        let share = fast.unwrap_or_else(|| {
            let (mut sum, mut n) = (0.0, 0.0);
            for_each_combination(&remaining, need, board, &mut |full| {
                sum += Showdown::new(game, hands, full).share(0);
                n += 1.0;
            });
            if n > 0.0 {
                sum / n
            } else {
                0.0
            }
        });
        if need > 2 {
            self.cache(&key, [share.to_bits(), 0]);
        }
        share
    }
}

/// About what one opponent holding costs `HvREquity` (showdown-sized units) with `players`
/// hands, `rest` cards left and `board` cards known on `street`.
fn per_holding_cost(game: Game, street: Street, players: usize, rest: usize, board: usize) -> f64 {
    if game.is_stud() {
        let per = 7 - street.cards_known();
        return stud_equity::assignments(players, rest, per).max(1.0);
    }
    // Omaha hands rate 60 two-plus-three choices; five cards 100.
    let weight = match game.hole_cards() {
        2 => 1.0,
        4 => 4.0,
        _ => 10.0,
    };
    let need = game.board_cards() - board;
    weight
        * match need {
            0 => 1.0,
            // The rank-table fast paths: a few dozen ratings, then one lookup per completion.
            1 | 2 => 50.0 + binomial(rest, need) / 8.0,
            _ => binomial(rest, need),
        }
}

/// Appends every holding of `list` that avoids `known`, with its weight.
fn push_range_holdings(list: &WeightedList<SlotHand>, known: CardSet, out: &mut Vec<Holding>) {
    out.extend(
        list.items
            .iter()
            .enumerate()
            .filter(|(_, h)| !h.fixed.overlaps(known))
            .map(|(i, h)| Holding { cards: h.fixed, weight: list.weight(i) }),
    );
}

/// How many holdings of `list` avoid `known`, counted up to the first past `limit`.
fn count_avoiding(list: &WeightedList<SlotHand>, known: CardSet, limit: f64) -> f64 {
    let mut n = 0.0;
    for h in &list.items {
        if !h.fixed.overlaps(known) {
            n += 1.0;
            if n > limit {
                break;
            }
        }
    }
    n
}

/// The holdings of `list` that avoid `known`, with their weights; a weighted sample of
/// [`SAMPLED_HOLDINGS`] when there are more than [`MAX_EXACT_HOLDINGS`].
fn range_holdings(list: &WeightedList<SlotHand>, known: CardSet, rng: &mut Rng, out: &mut Vec<Holding>) {
    out.clear();
    push_range_holdings(list, known, out);
    if out.len() > MAX_EXACT_HOLDINGS {
        let mut cumulative = Vec::with_capacity(out.len());
        let mut total = 0.0;
        for h in out.iter() {
            total += h.weight;
            cumulative.push(total);
        }
        let all = std::mem::take(out);
        for _ in 0..SAMPLED_HOLDINGS {
            let x = rng.unit() * total;
            let i = cumulative.partition_point(|&c| c <= x).min(all.len() - 1);
            out.push(Holding { cards: all[i].cards, weight: 1.0 });
        }
    }
}

/// `samples` joint deals: every opponent's holding from its source (rejecting
/// collisions; in stud given the up cards it shows), then the rest of every hand (stud) and of
/// the board. `unseen`: the deck less `known`.
#[allow(clippy::too_many_arguments)]
fn sampled_equity(
    d: &Deal,
    p: usize,
    street: Street,
    opponents: &[(Option<usize>, Option<&HandSource>)],
    known: CardSet,
    unseen: &[Card],
    samples: u32,
    rng: &mut Rng,
) -> f64 {
    let stud = d.game.is_stud();
    let hand = d.hand_at(p, street);
    let board = d.board_at(street);
    let dealt = street.cards_known();
    let per_hand = if stud { 7 } else { d.game.hole_cards() };
    let need_board = if stud { 0 } else { d.game.board_cards() - board.len() as usize };
    let mut hands = [CardSet::EMPTY; MAX_PLAYERS];
    let n = opponents.len() + 1;
    // One showdown re-rated for every sample: p's prepared Omaha hand is kept from one to the next.
    let mut showdown = Showdown::new(d.game, &[], CardSet::EMPTY);
    let (mut total, mut accepted, mut attempts) = (0.0, 0u32, 0u32);
    'sample: while accepted < samples && attempts < samples * HVR_MAX_ATTEMPTS {
        attempts += 1;
        let mut taken = CardSet::EMPTY;
        // Range opponents first (they may reject), random ones after from what is left.
        for (i, &(q, src)) in opponents.iter().enumerate() {
            let up = match q {
                Some(q) if stud => d.up_cards(q, street),
                _ => CardSet::EMPTY,
            };
            let mut cards = up;
            if let Some(HandSource::Range(list)) = src {
                let h = &list.items[list.sample(rng)];
                if !stud {
                    // Flop games: every card of the hand is fixed and hidden (the loop below
                    // in one step).
                    if h.fixed.overlaps(known.union(taken)) {
                        continue 'sample;
                    }
                    taken = taken.union(h.fixed);
                    hands[i + 1] = h.fixed;
                    continue;
                }
                for (pos, &slot) in h.slots.iter().enumerate().filter(|(_, &s)| s != OPEN) {
                    let c = Card::from_index(slot);
                    let shown = stud && q.is_some() && (2..6).contains(&pos) && pos < dealt;
                    if shown {
                        if !up.contains(c) || q.is_some_and(|q| d.stud[q][pos] != c) {
                            continue 'sample;
                        }
                    } else if known.contains(c) || taken.contains(c) {
                        continue 'sample;
                    } else {
                        taken.insert(c);
                        cards.insert(c);
                    }
                }
            }
            hands[i + 1] = cards;
        }
        for hand_i in &mut hands[1..n] {
            let extra = draw_cards(unseen, per_hand.saturating_sub(hand_i.len() as usize), taken, rng);
            taken = taken.union(extra);
            *hand_i = hand_i.union(extra);
        }
        let mine_missing = if stud { 7 - hand.len() as usize } else { 0 };
        let mine = hand.union(draw_cards(unseen, mine_missing, taken, rng));
        taken = taken.union(mine);
        let full = board.union(draw_cards(unseen, need_board, taken, rng));
        hands[0] = mine;
        showdown.rate(d.game, &hands[..n], full);
        total += showdown.share(0);
        accepted += 1;
    }
    if accepted == 0 {
        0.0
    } else {
        total / f64::from(accepted)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trial::Scratch;

    /// Moves `k` random cards of `cards` to its front.
    fn shuffle_front(rng: &mut Rng, cards: &mut [Card], k: usize) {
        for i in 0..k {
            let j = i + rng.below((cards.len() - i) as u64) as usize;
            cards.swap(i, j);
        }
    }

    /// Counting holdings with an early stop (`surely_over_budget`) decides as listing them all
    /// does: on random deals and streets of hold'em, Omaha and Omaha 8, against one to three
    /// opponents each holding a random range of random width (near the budget's edge as often as
    /// far from it) or any hand.
    #[test]
    fn counting_holdings_decides_as_listing_them() {
        let mut rng = Rng::new(16, 3);
        let (mut over, mut under) = (0, 0);
        for round in 0..3_000 {
            let game = [Game::Holdem, Game::OmahaHi, Game::Omaha8][round % 3];
            let k = game.hole_cards();
            let players = 2 + (round / 3) % 3;
            let street = [Street::Preflop, Street::Flop, Street::Turn, Street::River][(round / 9) % 4];
            let deck = game.deck().cards().to_vec();
            let mut d = Deal::new(game, players);
            let mut shuffled = deck.clone();
            shuffle_front(&mut rng, &mut shuffled, k * players + 5);
            for p in 0..players {
                d.hole[p] = shuffled[p * k..(p + 1) * k].iter().copied().collect();
            }
            d.board.copy_from_slice(&shuffled[k * players..k * players + 5]);
            // Sources: seat 0 random; each opponent a range of a random width, or any hand.
            let mut sources = vec![HandSource::Random];
            for _ in 1..players {
                if rng.below(4) == 0 {
                    sources.push(HandSource::Random);
                    continue;
                }
                let width = [50, 200, 600, 2_000, 20_000][rng.below(5) as usize];
                let mut hands = Vec::new();
                for _ in 0..width {
                    let mut cards = deck.clone();
                    shuffle_front(&mut rng, &mut cards, k);
                    hands.push(SlotHand::from_set(cards[..k].iter().copied().collect()));
                }
                sources.push(HandSource::Range(WeightedList::uniform(hands)));
            }
            let mut scratch = Scratch::default();
            let t = Trial::new(&d, &deck, &mut scratch).with_sources(&sources);
            let opponents: Vec<(Option<usize>, Option<&HandSource>)> =
                (1..players).map(|q| (Some(q), sources.get(q))).collect();
            let known = t.known_to(0, street);
            let unseen = t.deck_without(known);
            for budget in [HVR_EXACT_BUDGET, HVR_REPEATED_BUDGET] {
                let surely = t.surely_over_budget(street, &opponents, known, unseen.len(), budget);
                let (lists, cost) = t.listed_holdings(street, &opponents, known, &unseen, budget);
                assert!(!surely || cost > budget, "{game:?} {street:?}: counted over, listed {cost}");
                // With every list non-empty the count is the listing's to the holding.
                if lists.len() == opponents.len() && lists.iter().all(|l| !l.is_empty()) || surely {
                    assert_eq!(surely, cost > budget, "{game:?} {street:?} {cost}");
                }
                if surely {
                    over += 1;
                } else {
                    under += 1;
                }
            }
        }
        // Both answers were met often.
        assert!(over > 1_000 && under > 1_000, "{over} over, {under} under");
    }
}
