//! Showdown-only statements: when every selector and the `where` clause depend
//! on nothing but who wins each half of the pot, deals are tallied by their winner masks and
//! each distinct outcome is evaluated once with its total weight. The hot loop then costs one
//! showdown and one counter increment per deal.

use super::aggregate::Aggregate;
use crate::cards::CardSet;
use crate::deal::Deal;
use crate::eval::{hi_table, HiTable};
use crate::games::{Game, PotSplit};
use crate::kernels::showdown::Showdown;
use crate::plan::expr::{Builtin, Expr};
use crate::plan::Plan;
use crate::trial::Scratch;

/// Whether `e`'s value on a deal is fixed by the deal's hi and lo winner masks.
pub fn depends_only_on_winners(e: &Expr) -> bool {
    match e {
        Expr::Const(_) => true,
        Expr::Call(b) => matches!(
            **b,
            Builtin::RiverEquity(_)
                | Builtin::FractionalRiverEquity(_)
                | Builtin::WinsHi(_)
                | Builtin::TiesHi(_)
                | Builtin::WinsLo(_)
                | Builtin::TiesLo(_)
                | Builtin::Scoops(_)
        ),
        Expr::Not(x) | Expr::Neg(x) => depends_only_on_winners(x),
        Expr::And(a, b) | Expr::Or(a, b) | Expr::Cmp(_, a, b) | Expr::Arith(_, a, b) | Expr::Concat(a, b) => {
            depends_only_on_winners(a) && depends_only_on_winners(b)
        }
        Expr::Case(arms, otherwise) => {
            arms.iter().all(|(c, v)| depends_only_on_winners(c) && depends_only_on_winners(v))
                && otherwise.as_ref().is_none_or(|o| depends_only_on_winners(o))
        }
    }
}

impl Plan {
    /// Whether exact runs may tally deals by outcome (see the module doc).
    pub fn tallies_by_outcome(&self) -> bool {
        self.selectors.iter().all(|s| depends_only_on_winners(&s.expr))
            && self.filter.as_ref().is_none_or(depends_only_on_winners)
    }
}

/// Deals counted by (hi winners, lo winners), with one representative deal per outcome.
pub struct OutcomeTally {
    showdown: Showdown,
    /// Hi-only games: indexed by the hi winner mask directly.
    by_hi: Vec<(f64, Option<Deal>)>,
    /// Games with a low: a short list (few distinct outcomes occur).
    by_both: Vec<((u32, u32), f64, Deal)>,
    has_lo: bool,
    /// Set for flop games with a plain hi showdown (not Omaha): the fast path's evaluator.
    hi_table: Option<&'static HiTable>,
}

impl OutcomeTally {
    pub fn new(game: Game, players: usize) -> OutcomeTally {
        let has_lo = game.has_lo();
        OutcomeTally {
            showdown: Showdown::new(game, &[], CardSet::EMPTY),
            by_hi: if has_lo { Vec::new() } else { vec![(0.0, None); 1 << players] },
            by_both: Vec::new(),
            has_lo,
            hi_table: (game.pot_split() == PotSplit::HiOnly && !game.is_omaha() && !game.is_stud())
                .then(|| hi_table(game.hi_rules())),
        }
    }

    /// Counts one deal.
    #[inline]
    pub fn add(&mut self, deal: &Deal) {
        match self.hi_table {
            Some(table) => self.add_hi_only(table, deal),
            None => self.add_any(deal),
        }
    }

    /// Counts `count` deals like `deal`, whose hi and lo winners are the masks `hi` and `lo`.
    pub fn add_outcome(&mut self, hi: u32, lo: u32, count: f64, deal: &Deal) {
        if self.has_lo {
            match self.by_both.iter_mut().find(|(k, _, _)| *k == (hi, lo)) {
                Some(entry) => entry.1 += count,
                None => self.by_both.push(((hi, lo), count, deal.clone())),
            }
            return;
        }
        let entry = &mut self.by_hi[hi as usize];
        entry.0 += count;
        if entry.1.is_none() {
            entry.1 = Some(deal.clone());
        }
    }

    /// Any game: the whole showdown, then its winners.
    #[inline(never)]
    fn add_any(&mut self, deal: &Deal) {
        self.showdown.rate_deal(deal);
        let s = &self.showdown;
        let mut hi = 0u32;
        let mut lo = 0u32;
        for p in 0..s.players {
            if s.hi_winners > 0 && s.hi[p] == s.best_hi {
                hi |= 1 << p;
            }
            if s.lo_winners > 0 && s.lo[p] == s.best_lo {
                lo |= 1 << p;
            }
        }
        if self.has_lo {
            match self.by_both.iter_mut().find(|(k, _, _)| *k == (hi, lo)) {
                Some(entry) => entry.1 += 1.0,
                None => self.by_both.push(((hi, lo), 1.0, deal.clone())),
            }
        } else {
            let entry = &mut self.by_hi[hi as usize];
            entry.0 += 1.0;
            if entry.1.is_none() {
                entry.1 = Some(deal.clone());
            }
        }
    }

    /// Hold'em and short deck: the hi winners straight from the evaluator, the hottest loop of
    /// exact equity questions.
    #[inline]
    fn add_hi_only(&mut self, table: &HiTable, deal: &Deal) {
        let b = &deal.board;
        let board = CardSet::from_cards([b[0], b[1], b[2], b[3], b[4]]);
        let (mut best, mut winners) = (0u32, 0u32);
        for (p, hole) in deal.hole[..deal.players].iter().enumerate() {
            let r = table.rate(hole.union(board)).0;
            if r > best {
                best = r;
                winners = 1 << p;
            } else if r == best {
                winners |= 1 << p;
            }
        }
        let entry = &mut self.by_hi[winners as usize];
        entry.0 += 1.0;
        if entry.1.is_none() {
            entry.1 = Some(deal.clone());
        }
    }

    /// Evaluates each outcome once with its count times `weight`; returns the accepted deals.
    pub fn replay(&mut self, plan: &Plan, weight: f64, aggs: &mut [Aggregate], scratch: &mut Scratch) -> u64 {
        let mut accepted = 0u64;
        let mut visit = |count: f64, deal: &Deal| {
            if plan.trials(deal, weight, count as u64, aggs, scratch) {
                accepted += count as u64;
            }
        };
        for (count, deal) in &self.by_hi {
            if let Some(deal) = deal {
                visit(*count, deal);
            }
        }
        for (_, count, deal) in &self.by_both {
            visit(*count, deal);
        }
        for entry in &mut self.by_hi {
            *entry = (0.0, None);
        }
        self.by_both.clear();
        accepted
    }
}
