//! p's hand against what the opponents could hold: equity against ranges (`HvREquity`,
//! `HvPerceivedRangeEquity`) and the analysis functions (hand strength, potential, draws),
//! with the opponents' holdings taken from their hand sources.
//!
//! Inner work per deal is exact when small and otherwise a fixed-size sample from a random
//! stream seeded by the deal's cards, so one deal always gets one answer:
//! - `HvREquity`: exact (holdings × board completions) for one opponent up to
//!   [`HVR_EXACT_BUDGET`] showdowns (hold'em turn and river against any range; the flop against
//!   a range of up to ~200 hands), else [`HVR_SAMPLES`] joint deals of every opponent's holding
//!   and the rest of the board.
//! - hand strength: every holding up to `MAX_EXACT_HOLDINGS` (all of hold'em), else a sample;
//!   potential: see `analysis::potential`.

use super::deal::Deal;
use super::holdem_equity::holdem_equity;
use super::omaha_equity::omaha_equity;
use super::showdown::Showdown;
use super::source::{binomial, HandSource, SlotHand, WeightedList};
use super::trial::{for_each_combination, memo_key, Trial};
use crate::analysis::{self, deal_rng, draw_cards, random_holdings, HiRater, Holding, Lookahead, Potential};
use crate::analysis::{MAX_EXACT_HOLDINGS, SAMPLED_HOLDINGS};
use crate::cards::{Card, CardSet};
use crate::games::Street;
use crate::sim::rng::Rng;
use std::collections::HashMap;

/// Showdowns enumerated exactly for `HvREquity` against one opponent.
pub const HVR_EXACT_BUDGET: f64 = 200_000.0;
/// Joint deals sampled for `HvREquity` when the exact enumeration is too large.
pub const HVR_SAMPLES: u32 = 2_000;
/// Rejected joint deals tolerated per sample before giving up (ranges that rarely fit).
const HVR_MAX_ATTEMPTS: u32 = 100;

/// About how many evaluations `HvREquity` costs per deal on `street`, for choosing exact runs.
pub fn inner_cost_hvr(game: crate::games::Game, street: Street) -> f64 {
    if street == game.last_street() {
        f64::from(HVR_SAMPLES)
    } else {
        50_000.0
    }
}

/// About how many evaluations a potential costs per deal looking from `street`.
pub fn inner_cost_potential(street: Street, one_card: bool) -> f64 {
    match street {
        Street::Flop if !one_card => analysis::potential::POTENTIAL_BUDGET,
        _ => 50_000.0,
    }
}

const MEMO_HS: u8 = 1;
const MEMO_POT_RIVER: u8 = 2;
const MEMO_POT_ONE: u8 = 3;
const MEMO_DRAWS: u8 = 4;

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

    /// Hand strength (ANALYSIS.md): the product over opponents of HS₁ against each one's range.
    pub fn hand_strength(&mut self, p: usize, street: Street) -> f64 {
        let key = memo_key(MEMO_HS, p, street);
        if let Some([v, _]) = self.memo(key) {
            return v;
        }
        let d = self.deal;
        let hand = d.hand_at(p, street);
        let known = self.known_to(p, street);
        let unseen = self.deck_without(known);
        let rater = HiRater::new(d.game, d.board_at(street));
        let mine = rater.rate(hand);
        let mut rng = deal_rng(1, known);
        let mut holdings = std::mem::take(&mut self.scratch.holdings);
        let mut hs = 1.0;
        // Opponents with the same source (e.g. several random hands) share one HS₁.
        let mut last: Option<(Option<*const HandSource>, f64)> = None;
        for q in (0..d.players).filter(|&q| q != p) {
            let src = self.source(q);
            let id = src.filter(|s| matches!(s, HandSource::Range(_))).map(std::ptr::from_ref);
            let hs1 = match last {
                _ if d.game.is_stud() => {
                    // Stud: the opponent's up cards are seen; its down cards are any unseen.
                    let up = d.up_cards(q, street);
                    let down = hand.len().saturating_sub(up.len()) as usize;
                    holdings.clear();
                    for_each_combination(&unseen, down, up, &mut |cards| holdings.push(Holding { cards, weight: 1.0 }));
                    analysis::tally(&rater, mine, &holdings).strength()
                }
                Some((prev, v)) if prev == id => v,
                _ => {
                    self.holdings_from(src, known, &unseen, hand.len() as usize, &mut rng, &mut holdings);
                    let v = analysis::tally(&rater, mine, &holdings).strength();
                    last = Some((id, v));
                    v
                }
            };
            hs *= hs1;
        }
        self.scratch.holdings = holdings;
        self.remember(key, [hs, 0.0]);
        hs
    }

    /// Positive and negative potential (ANALYSIS.md) against the field: one range whose weight
    /// for each holding is the average of the opponents' weights. Zero on the last street and
    /// in stud.
    pub fn potential(&mut self, p: usize, street: Street, look: Lookahead) -> Potential {
        let kind = if look == Lookahead::River { MEMO_POT_RIVER } else { MEMO_POT_ONE };
        let key = memo_key(kind, p, street);
        if let Some([positive, negative]) = self.memo(key) {
            return Potential { positive, negative };
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
        let mut rng = deal_rng(2 + u64::from(kind), known);
        let mut holdings = std::mem::take(&mut self.scratch.holdings);
        self.field_holdings(p, known, &unseen, hand.len() as usize, &mut rng, &mut holdings);
        let pot = if need == 0 {
            Potential::default()
        } else {
            analysis::potential(d.game, hand, board, &holdings, &unseen, need, &mut rng)
        };
        self.scratch.holdings = holdings;
        self.remember(key, [pot.positive, pot.negative]);
        pot
    }

    /// The field's holdings: each holding weighted by the average of the opponents' weights
    /// (a random opponent weighs every holding 1).
    fn field_holdings(
        &self,
        p: usize,
        known: CardSet,
        unseen: &[Card],
        k: usize,
        rng: &mut Rng,
        out: &mut Vec<Holding>,
    ) {
        let d = self.deal;
        let opponents: Vec<Option<&HandSource>> = (0..d.players).filter(|&q| q != p).map(|q| self.source(q)).collect();
        let ranges: Vec<&WeightedList<SlotHand>> = opponents
            .iter()
            .filter_map(|s| match s {
                Some(HandSource::Range(list)) if !d.game.is_stud() => Some(list),
                _ => None,
            })
            .collect();
        if ranges.is_empty() || opponents.is_empty() {
            random_holdings(unseen, k, rng, out);
            return;
        }
        if ranges.len() == 1 && opponents.len() == 1 {
            range_holdings(ranges[0], known, rng, out);
            return;
        }
        let n = opponents.len() as f64;
        let mut summed: HashMap<u64, f64> = HashMap::new();
        for list in &ranges {
            for (i, h) in list.items.iter().enumerate() {
                if !h.fixed.overlaps(known) {
                    *summed.entry(h.fixed.bits()).or_insert(0.0) += list.weight(i) / n;
                }
            }
        }
        let random = (opponents.len() - ranges.len()) as f64 / n;
        if random > 0.0 {
            random_holdings(unseen, k, rng, out);
            for h in out.iter_mut() {
                h.weight = random + summed.get(&h.cards.bits()).copied().unwrap_or(0.0);
            }
        } else {
            out.clear();
            out.extend(summed.into_iter().map(|(bits, weight)| Holding { cards: CardSet::from_bits(bits), weight }));
            // A fixed order keeps sampled potentials reproducible.
            out.sort_unstable_by_key(|h| h.cards.bits());
        }
    }

    /// Outs, straight cards and flush cards (ANALYSIS.md), on the flop and turn of flop games.
    pub fn draws(&mut self, p: usize, street: Street) -> analysis::Draws {
        let key = memo_key(MEMO_DRAWS, p, street);
        if let Some([a, b]) = self.memo(key) {
            // Three small counts packed in two doubles.
            let (a, b) = (a as u32, b as u32);
            return analysis::Draws { outs: a & 0xFFFF, straight: a >> 16, flush: b };
        }
        let d = self.deal;
        let draws = if d.game.is_stud() || !matches!(street, Street::Flop | Street::Turn) {
            analysis::Draws::default()
        } else {
            let hand = d.hand_at(p, street);
            let board = d.board_at(street);
            let others: Vec<CardSet> = (0..d.players).filter(|&q| q != p).map(|q| d.hole[q]).collect();
            // ANALYSIS.md: unseen cards are the deck less every player's cards, the board and the
            // dead cards, so a card another player holds is never a draw card either.
            let known = others.iter().fold(hand.union(board).union(d.dead), |k, &o| k.union(o));
            let unseen = self.deck_without(known);
            analysis::draws(d.game, hand, board, &unseen, &others)
        };
        let packed = [f64::from(draws.outs | (draws.straight << 16)), f64::from(draws.flush)];
        self.remember(key, packed);
        draws
    }

    /// Exactly three cards of a suit usable by p on the flop (ANALYSIS.md).
    pub fn backdoor_flush_draw(&self, p: usize, street: Street) -> bool {
        let d = self.deal;
        street == Street::Flop
            && !d.game.is_stud()
            && analysis::backdoor_flush_draw(d.game, d.hole[p], d.board_at(street))
    }

    /// p's actual hand against every other player's whole range (card removal respected).
    pub fn hvr_equity(&mut self, p: usize, street: Street) -> f64 {
        let opponents: Vec<Option<&HandSource>> =
            (0..self.deal.players).filter(|&q| q != p).map(|q| self.sources.get(q)).collect();
        self.equity_against(p, street, &opponents)
    }

    /// p's actual hand against `range` alone, heads-up.
    pub fn perceived_range_equity(&mut self, p: usize, street: Street, range: &HandSource) -> f64 {
        self.equity_against(p, street, &[Some(range)])
    }

    /// p's share of the pot against opponents drawn from `opponents` (None: random), with the
    /// board known up to `street` and the rest dealt; 0 when no opponent holding fits.
    fn equity_against(&mut self, p: usize, street: Street, opponents: &[Option<&HandSource>]) -> f64 {
        let d = self.deal;
        if opponents.is_empty() {
            return 1.0;
        }
        let hand = d.hand_at(p, street);
        let board = d.board_at(street);
        // Only p's cards, the board and the dead cards are known here: the opponents' own
        // cards come from their ranges.
        let known = hand.union(board).union(d.dead);
        let unseen = self.deck_without(known);
        let mut rng = deal_rng(7, known);
        if !d.game.is_stud() && opponents.len() == 1 {
            let k = d.game.hole_cards();
            let need = d.game.board_cards() - board.len() as usize;
            let count = match opponents[0] {
                Some(HandSource::Range(list)) => list.len() as f64,
                _ => binomial(unseen.len(), k),
            };
            if count * binomial(unseen.len().saturating_sub(k), need) <= HVR_EXACT_BUDGET {
                let mut holdings = std::mem::take(&mut self.scratch.holdings);
                match opponents[0] {
                    Some(HandSource::Range(list)) => range_holdings(list, known, &mut rng, &mut holdings),
                    _ => {
                        random_holdings(&unseen, k, &mut rng, &mut holdings);
                    }
                }
                let e = exact_equity(d, hand, board, &holdings, &unseen, need, self.scratch);
                self.scratch.holdings = holdings;
                return e;
            }
        }
        sampled_equity(d, p, street, opponents, &unseen, &mut rng)
    }
}

/// The holdings of `list` that avoid `known`, with their weights; a weighted sample of
/// [`SAMPLED_HOLDINGS`] when there are more than [`MAX_EXACT_HOLDINGS`].
fn range_holdings(list: &WeightedList<SlotHand>, known: CardSet, rng: &mut Rng, out: &mut Vec<Holding>) {
    out.clear();
    out.extend(
        list.items
            .iter()
            .enumerate()
            .filter(|(_, h)| !h.fixed.overlaps(known))
            .map(|(i, h)| Holding { cards: h.fixed, weight: list.weight(i) }),
    );
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

/// Weighted average share of p (`hand`) against each holding over every completion of the
/// board from `unseen` (by the rank-table fast paths from the flop and turn).
fn exact_equity(
    d: &Deal,
    hand: CardSet,
    board: CardSet,
    holdings: &[Holding],
    unseen: &[Card],
    need: usize,
    scratch: &mut super::trial::Scratch,
) -> f64 {
    let (mut total, mut weight) = (0.0, 0.0);
    let mut rest = [Card::from_index(0); 52];
    for h in holdings {
        let mut len = 0;
        for &c in unseen.iter().filter(|c| !h.cards.contains(**c)) {
            rest[len] = c;
            len += 1;
        }
        let hands = [hand, h.cards];
        let fast = holdem_equity(d.game, &hands, 0, board, &rest[..len], &mut scratch.holdem)
            .or_else(|| omaha_equity(d.game, &hands, 0, board, &rest[..len], &mut scratch.omaha));
        let share = fast.unwrap_or_else(|| {
            let (mut sum, mut n) = (0.0, 0.0);
            for_each_combination(&rest[..len], need, board, &mut |full| {
                sum += Showdown::new(d.game, &hands, full).share(0);
                n += 1.0;
            });
            if n > 0.0 {
                sum / n
            } else {
                0.0
            }
        });
        total += h.weight * share;
        weight += h.weight;
    }
    if weight > 0.0 {
        total / weight
    } else {
        0.0
    }
}

/// [`HVR_SAMPLES`] joint deals: every opponent's holding from its source (rejecting
/// collisions), then the rest of p's cards (stud) and of the board.
fn sampled_equity(
    d: &Deal,
    p: usize,
    street: Street,
    opponents: &[Option<&HandSource>],
    unseen: &[Card],
    rng: &mut Rng,
) -> f64 {
    let stud = d.game.is_stud();
    let hand = d.hand_at(p, street);
    let board = d.board_at(street);
    let per_hand = if stud { 7 } else { d.game.hole_cards() };
    let need_board = if stud { 0 } else { d.game.board_cards() - board.len() as usize };
    let mut hands = [CardSet::EMPTY; super::deal::MAX_PLAYERS];
    let n = opponents.len() + 1;
    let (mut total, mut accepted, mut attempts) = (0.0, 0u32, 0u32);
    'sample: while accepted < HVR_SAMPLES && attempts < HVR_SAMPLES * HVR_MAX_ATTEMPTS {
        attempts += 1;
        let mut taken = CardSet::EMPTY;
        // Range opponents first (they may reject), random ones after from what is left.
        for (i, src) in opponents.iter().enumerate() {
            if let Some(HandSource::Range(list)) = src {
                let fixed = list.items[list.sample(rng)].fixed;
                if fixed.overlaps(taken) || fixed.overlaps(hand) || fixed.overlaps(board) || fixed.overlaps(d.dead) {
                    continue 'sample;
                }
                taken = taken.union(fixed);
                hands[i + 1] = fixed;
            }
        }
        for (i, src) in opponents.iter().enumerate() {
            let fixed = match src {
                Some(HandSource::Range(_)) => hands[i + 1],
                _ => CardSet::EMPTY,
            };
            // Stud ranges may leave positions open; fill every hand to its full size.
            let missing = per_hand.saturating_sub(fixed.len() as usize);
            let extra = draw_cards(unseen, missing, taken, rng);
            taken = taken.union(extra);
            hands[i + 1] = fixed.union(extra);
        }
        let mine_missing = if stud { 7 - hand.len() as usize } else { 0 };
        let mine = hand.union(draw_cards(unseen, mine_missing, taken, rng));
        taken = taken.union(mine);
        let full = board.union(draw_cards(unseen, need_board, taken, rng));
        hands[0] = mine;
        total += Showdown::new(d.game, &hands[..n], full).share(0);
        accepted += 1;
    }
    if accepted == 0 {
        0.0
    } else {
        total / f64::from(accepted)
    }
}
