//! One trial (docs/language/simulate.md): a deal of every player's hand by weight and of the cards to come,
//! then the hand played out from the decision once per candidate action. The hero's first
//! action is fixed; every later action of every player comes from its probability triple.
//! Betting is fixed limit, four bets a round; stacks are deep enough for every bet.
//!
//! The state at the decision (pql's rules, docs/language/simulate.md): the from
//! clause lists the players in their acting order on every later street. With something to call
//! (`tocall` > 0) every other player has matched the bet already and acts again only after a
//! raise; with nothing to call, the players listed after the hero have yet to act (those before
//! it checked). `to_act` names the players yet to act this round after the hero instead, in
//! their order; they owe what the hero owes.

use super::spot::{Spot, Weighted};
use super::strength::Strengths;
use super::triple::{pick, triple, Situation};
use crate::cards::{Card, CardSet};
use crate::eval::rate_hi;
use crate::games::Street;
use crate::pql::typed::Action;
use crate::rng::Rng;

/// Bets in a round: a bet and three raises.
pub const CAP: u32 = 4;
/// Deals rejected in a row before the ranges are declared to leave no legal deal.
pub const MAX_REJECTIONS: u32 = 100_000;

/// Every seat's hand and the board cards still to come, in order.
#[derive(Clone, Debug, PartialEq)]
pub struct Deal {
    pub hands: Vec<CardSet>,
    pub future: Vec<Card>,
}

/// Running weight totals of each seat's holdings, for drawing by weight.
pub struct Sampler {
    cumulative: Vec<Vec<f64>>,
    /// Cards neither known nor... every card of the game's deck not on the board or dead.
    deck: Vec<Card>,
    future: usize,
}

impl Sampler {
    pub fn new(spot: &Spot) -> Sampler {
        let cumulative = spot
            .holdings
            .iter()
            .map(|list| {
                list.iter()
                    .scan(0.0, |acc, h: &Weighted| {
                        *acc += h.weight;
                        Some(*acc)
                    })
                    .collect()
            })
            .collect();
        let deck = spot.game.deck().cards().minus(spot.known()).iter().collect();
        Sampler { cumulative, deck, future: 5 - spot.board.len() }
    }

    /// A deal uniform over the legal deals, each seat's holding in proportion to its weight
    /// (a deal whose hands share a card is rejected whole). `None` after `MAX_REJECTIONS`.
    pub fn deal(&self, spot: &Spot, rng: &mut Rng) -> Option<Deal> {
        let mut hands = Vec::with_capacity(spot.holdings.len());
        'deal: for _ in 0..MAX_REJECTIONS {
            hands.clear();
            let mut taken = CardSet::EMPTY;
            for (list, cumulative) in spot.holdings.iter().zip(&self.cumulative) {
                let total = *cumulative.last().expect("no empty range");
                let target = rng.unit() * total;
                let i = cumulative.partition_point(|&c| c <= target).min(list.len() - 1);
                let cards = list[i].cards;
                if cards.overlaps(taken) {
                    continue 'deal;
                }
                taken = taken.union(cards);
                hands.push(cards);
            }
            let mut future = Vec::with_capacity(self.future);
            while future.len() < self.future {
                let c = self.deck[rng.below(self.deck.len() as u64) as usize];
                if !taken.contains(c) {
                    taken.insert(c);
                    future.push(c);
                }
            }
            return Some(Deal { hands, future });
        }
        None
    }
}

/// The hand in progress.
struct Table<'a> {
    spot: &'a Spot,
    deal: &'a Deal,
    live: Vec<bool>,
    /// Chips each seat has put in this round.
    put: Vec<f64>,
    acted: Vec<bool>,
    called: Vec<bool>,
    level: f64,
    bets: u32,
    pot: f64,
    /// The hero's chips put in since the decision.
    spent: f64,
    board: CardSet,
    street: Street,
}

fn bet_size(spot: &Spot, street: Street) -> f64 {
    match street {
        Street::Turn | Street::River => 2.0 * spot.spec.bet,
        _ => spot.spec.bet,
    }
}

fn next_street(s: Street) -> Street {
    match s {
        Street::Preflop => Street::Flop,
        Street::Flop => Street::Turn,
        _ => Street::River,
    }
}

/// The hero's net result, in chips from the decision, of playing `deal` with `first` as its
/// action; `rng` draws every later action.
pub fn play(spot: &Spot, deal: &Deal, first: Action, rng: &mut Rng, strengths: &mut Strengths) -> f64 {
    if first == Action::Fold {
        return 0.0;
    }
    let spec = &spot.spec;
    let n = spot.players.len();
    let hero = spec.hero;
    let mut t = Table {
        spot,
        deal,
        live: (0..n).map(|p| !spec.folded.contains(&p)).collect(),
        put: vec![spec.tocall; n],
        acted: vec![true; n],
        called: vec![false; n],
        level: spec.tocall,
        bets: if spec.tocall > 0.0 { 1 + spec.raises } else { 0 },
        pot: spec.pot,
        spent: 0.0,
        board: CardSet::from_cards(spot.board.iter().copied()),
        street: spot.street,
    };
    t.put[hero] = 0.0;
    // The rest of this round: the hero, then who is to act, then the others in seat order.
    let after_hero: Vec<usize> = (1..n).map(|k| (hero + k) % n).collect();
    let mut order = vec![hero];
    if let Some(list) = &spec.to_act {
        for &p in list {
            t.put[p] = 0.0;
            t.acted[p] = false;
        }
        order.extend(list.iter().copied());
        order.extend(after_hero.iter().copied().filter(|p| !list.contains(p)));
    } else {
        if spec.tocall == 0.0 {
            for p in (hero + 1)..n {
                t.acted[p] = false;
            }
        }
        order.extend(after_hero);
    }
    t.apply(hero, first.part());
    t.round(&order, 1, rng, strengths);
    let seats: Vec<usize> = (0..n).collect();
    let mut future = deal.future.iter();
    while t.live_count() > 1 && t.street != Street::River {
        let need = if t.street == Street::Preflop { 3 } else { 1 };
        for _ in 0..need {
            t.board.insert(*future.next().expect("dealt to the river"));
        }
        t.street = next_street(t.street);
        t.level = 0.0;
        t.bets = 0;
        for p in 0..n {
            t.put[p] = 0.0;
            t.acted[p] = false;
            t.called[p] = false;
        }
        t.round(&seats, 0, rng, strengths);
    }
    t.hero_share() - t.spent
}

impl Table<'_> {
    fn live_count(&self) -> usize {
        self.live.iter().filter(|&&l| l).count()
    }

    /// Plays the round from `order[start]` on, around `order`, until every live player has
    /// acted and matched the bet (or one player is left).
    fn round(&mut self, order: &[usize], start: usize, rng: &mut Rng, strengths: &mut Strengths) {
        let mut i = start;
        let mut idle = 0;
        while self.live_count() > 1 && idle < order.len() {
            let p = order[i % order.len()];
            i += 1;
            if !self.live[p] || (self.acted[p] && self.put[p] >= self.level) {
                idle += 1;
                continue;
            }
            idle = 0;
            let part = self.choose(p, rng, strengths);
            self.apply(p, part);
        }
    }

    /// The part of p's triple drawn for it now.
    fn choose(&self, p: usize, rng: &mut Rng, strengths: &mut Strengths) -> usize {
        let size = bet_size(self.spot, self.street);
        let to_call = self.level - self.put[p];
        let s = strengths.of(self.deal.hands[p], self.board, self.live_count() - 1);
        let situation = Situation {
            ehs: s.effective(),
            // Before the flop there is no PPOT: the all-in equity is the chance to win.
            win_chance: if matches!(self.street, Street::River | Street::Preflop) { s.hs } else { s.ppot },
            to_call,
            pot: self.pot,
            bets_faced: (to_call / size).round() as u32,
            called_this_round: self.called[p],
            capped: self.bets >= CAP,
        };
        pick(triple(self.spot.thresholds(p), &situation), rng.unit())
    }

    /// Seat p folds (0), checks or calls (1), bets or raises (2; a call when capped).
    fn apply(&mut self, p: usize, part: usize) {
        let to_call = self.level - self.put[p];
        let mut chips = to_call;
        match part {
            0 if to_call > 0.0 => {
                self.live[p] = false;
                return;
            }
            2 if self.bets < CAP => {
                let size = bet_size(self.spot, self.street);
                self.level += size;
                self.bets += 1;
                chips += size;
                for (q, acted) in self.acted.iter_mut().enumerate() {
                    *acted = q == p;
                }
            }
            _ => {}
        }
        self.acted[p] = true;
        if chips > 0.0 {
            self.called[p] = true;
        }
        self.put[p] += chips;
        self.pot += chips;
        if p == self.spot.spec.hero {
            self.spent += chips;
        }
    }

    /// The hero's part of the pot: all of it when the others folded, its share of the best hands
    /// at showdown otherwise.
    fn hero_share(&self) -> f64 {
        let hero = self.spot.spec.hero;
        if !self.live[hero] {
            return 0.0;
        }
        if self.live_count() == 1 {
            return self.pot;
        }
        let rules = self.spot.game.hi_rules();
        let ratings: Vec<_> = (0..self.live.len())
            .filter(|&p| self.live[p])
            .map(|p| (p, rate_hi(self.deal.hands[p].union(self.board), rules)))
            .collect();
        let best = ratings.iter().map(|r| r.1).max().expect("players at showdown");
        let winners = ratings.iter().filter(|r| r.1 == best).count();
        if ratings.iter().any(|&(p, r)| p == hero && r == best) {
            self.pot / winners as f64
        } else {
            0.0
        }
    }
}
