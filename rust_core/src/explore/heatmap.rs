//! Every starting hand's equity against the other players at once: the explorer's heatmap.
//!
//! The question for one hand class `C` is PQL's `avg(riverEquity(hero))` with `hero='C'`: hero
//! dealt uniformly from `C`, the others from their ranges, the board from its pattern, whole
//! deals rejected on a collision. Asking it 169 times would deal 169 times; instead each trial
//! deals the villains and the board once and scores **every** starting hand the deal leaves
//! room for. That is an importance sample of each class's deals: a deal where `n` of `C`'s
//! combos fit stands for `n` hero deals, so each class's equity is the ratio of the pot shares
//! won to the combos scored, over all trials, with the ratio estimator's standard error.
//!
//! With a fixed flop or turn and one opponent the equity is exact instead: every runout is
//! enumerated, and on each the hands are sorted by strength so that every hero combo's wins and
//! ties against the whole (weighted) opponent range, less the combos sharing its cards, come
//! from running sums (`O(n log n)` a runout rather than `O(n^2)`).
//!
//! Pot shares are counted in integers (ties of up to ten players divide [`POT`]), so sums are
//! exact and the answer for a seed does not depend on the thread count.

use super::background::{Job, Remote, Work};
use super::classes::Classes;
use super::Table;
use crate::analysis::draw_cards;
use crate::cards::{for_each_combination, Card, CardSet};
use crate::error::PqlError;
use crate::eval::{hi_table, HiRating, HiTable};
use crate::games::Game;
use crate::range::Range;
use crate::rng::Rng;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

/// One pot in Monte Carlo share units: every split among up to ten tied players is whole.
pub const POT: u64 = 2520;
/// Accepted trials per Monte Carlo item.
pub const CHUNK: u64 = 256;
/// Runouts per exact item.
const RUNOUTS_PER_ITEM: usize = 16;
/// A chunk gives up after this many rejected deals per accepted one (ranges and a board that
/// can hardly be dealt together).
const MAX_REJECTIONS: u64 = 2_000;
/// Monte Carlo trials before a class no deal ever fitted counts as impossible (it never gets a
/// standard error, so it must not hold up the stop on precision).
const IMPOSSIBLE_AFTER: u64 = 20_000;
/// Trials before the precision target is judged (standard errors of tiny samples are noisy).
const MIN_TRIALS_FOR_PRECISION: u64 = 2_000;

/// What the heatmap is computed against.
#[derive(Clone, Debug)]
pub struct HeatmapSpec {
    pub game: Game,
    /// Every other player's range (a full range is dealt from the deck).
    pub villains: Vec<Range>,
    pub table: Table,
}

#[derive(Clone, Copy, Debug)]
pub struct HeatmapOptions {
    /// Monte Carlo trials at most (accepted deals).
    pub trials: u64,
    pub seed: u64,
    pub threads: usize,
    /// Stop once every class's 95% margin (1.96 standard errors) is at most this.
    pub precision: Option<f64>,
    /// `Some(true)`: exact or an error; `Some(false)`: Monte Carlo; `None`: exact when it can be.
    pub exact: Option<bool>,
}

/// Sums of a ratio estimator over trials: per trial `s` (shares won) and `n` (combos scored).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Moments {
    pub s: u128,
    pub n: u128,
    pub ss: u128,
    pub nn: u128,
    pub sn: u128,
}

impl Moments {
    #[inline]
    fn add(&mut self, s: u64, n: u64) {
        let (s, n) = (u128::from(s), u128::from(n));
        self.s += s;
        self.n += n;
        self.ss += s * s;
        self.nn += n * n;
        self.sn += s * n;
    }

    fn merge(&mut self, o: &Moments) {
        self.s += o.s;
        self.n += o.n;
        self.ss += o.ss;
        self.nn += o.nn;
        self.sn += o.sn;
    }

    /// The ratio `s / (scale n)` and its standard error over `trials` trials (the delta
    /// method's variance of a ratio estimator); None when nothing was scored.
    pub fn estimate(&self, trials: u64, scale: f64) -> Option<(f64, f64)> {
        if self.n == 0 {
            return None;
        }
        let ratio = self.s as f64 / self.n as f64;
        if trials < 2 {
            return Some((ratio / scale, f64::INFINITY));
        }
        let t = trials as f64;
        // Σ (s - R n)^2 = Σ s² - 2 R Σ sn + R² Σ n²: no cancellation to speak of, the terms
        // are of the size of the sum.
        let residual = (self.ss as f64 - 2.0 * ratio * self.sn as f64 + ratio * ratio * self.nn as f64).max(0.0);
        let mean_n = self.n as f64 / t;
        let var = residual / ((t - 1.0) * t * mean_n * mean_n);
        Some((ratio / scale, var.sqrt() / scale))
    }
}

/// The weights of the range being explored, for its own equity (`set_focus`); `version`
/// tells a chunk's sums apart from those of an older focus.
#[derive(Clone, Debug, Default)]
struct Focus {
    version: u64,
    weights: Arc<Vec<u32>>,
}

/// Everything merged so far.
#[derive(Clone, Debug)]
pub struct HeatmapState {
    pub exact: bool,
    /// Monte Carlo: accepted trials. Exact: runouts enumerated.
    pub trials: u64,
    pub attempted: u64,
    /// Per starting hand: shares won and deals scored (their weight, when exact). Equity is
    /// `won / (scale * deals)`.
    pub won: Vec<u64>,
    pub deals: Vec<u64>,
    /// One unit of `deals` is worth this many of `won`.
    pub scale: u64,
    /// Monte Carlo: each class's per-trial sums.
    pub classes: Vec<Moments>,
    /// Monte Carlo: the focus range's per-trial sums since it was last set, and their trials.
    pub focus: Moments,
    pub focus_trials: u64,
    pub focus_version: u64,
}

/// A heatmap as numbers: per class and per hand, and the focus range's own equity.
#[derive(Clone, Debug, Default)]
pub struct HeatmapReport {
    /// Per class (in [`Classes`] order): equity and standard error (0 when exact), None for a
    /// class no deal has fitted.
    pub classes: Vec<Option<(f64, f64)>>,
    /// Per starting hand: equity (None: never scored).
    pub hands: Vec<Option<f64>>,
    /// The focus range's weighted equity and its standard error.
    pub focus: Option<(f64, f64)>,
}

impl HeatmapState {
    fn new(classes: usize, hands: usize, exact: bool) -> HeatmapState {
        HeatmapState {
            exact,
            trials: 0,
            attempted: 0,
            won: vec![0; hands],
            deals: vec![0; hands],
            scale: if exact { 2 } else { POT },
            classes: vec![Moments::default(); if exact { 0 } else { classes }],
            focus: Moments::default(),
            focus_trials: 0,
            focus_version: 0,
        }
    }

    /// Equities of every class and hand, and of the range weighted by `focus` (one weight per
    /// hand; none: no focus equity).
    pub fn report(&self, classes: &Classes, focus: Option<&[u32]>) -> HeatmapReport {
        let scale = self.scale as f64;
        let hands =
            self.won.iter().zip(&self.deals).map(|(&w, &d)| (d > 0).then(|| w as f64 / (scale * d as f64))).collect();
        let class_rows = classes
            .classes
            .iter()
            .enumerate()
            .map(|(i, c)| {
                if self.exact {
                    let won: u64 = c.combos.iter().map(|&h| self.won[h]).sum();
                    let deals: u64 = c.combos.iter().map(|&h| self.deals[h]).sum();
                    (deals > 0).then(|| (won as f64 / (scale * deals as f64), 0.0))
                } else {
                    self.classes[i].estimate(self.trials, scale)
                }
            })
            .collect();
        let focus = focus.and_then(|w| {
            let (mut won, mut deals) = (0u128, 0u128);
            for (h, &wt) in w.iter().enumerate().take(self.won.len()) {
                won += u128::from(wt) * u128::from(self.won[h]);
                deals += u128::from(wt) * u128::from(self.deals[h]);
            }
            if deals == 0 {
                return None;
            }
            let value = won as f64 / (scale * deals as f64);
            if self.exact {
                return Some((value, 0.0));
            }
            // The value uses every trial; the error was measured on the trials since the focus
            // was set, and shrinks as one over the root of the trials.
            let stderr = self
                .focus
                .estimate(self.focus_trials, scale)
                .map_or(f64::INFINITY, |(_, se)| se * (self.focus_trials as f64 / self.trials.max(1) as f64).sqrt());
            Some((value, stderr))
        });
        HeatmapReport { classes: class_rows, hands, focus }
    }
}

/// What one item contributes.
pub struct HeatmapPart {
    trials: u64,
    attempted: u64,
    won: Vec<u64>,
    deals: Vec<u64>,
    classes: Vec<Moments>,
    focus: Moments,
    focus_version: u64,
}

/// The hands, their cards and classes, shared by every item.
struct Hands {
    rating: &'static HiTable,
    cards: Vec<CardSet>,
    pairs: Vec<(u8, u8)>,
    class_of: Vec<u16>,
    classes: usize,
    deck: Vec<Card>,
}

impl Hands {
    fn new(classes: &Classes) -> Hands {
        let pairs = classes
            .hands
            .iter()
            .map(|h| {
                let v = h.to_vec();
                (v[0].index(), v[1].index())
            })
            .collect();
        Hands {
            rating: hi_table(classes.game.hi_rules()),
            cards: classes.hands.clone(),
            pairs,
            class_of: classes.class_of.clone(),
            classes: classes.classes.len(),
            deck: classes.game.deck().cards().iter().collect(),
        }
    }

    #[inline]
    fn rate(&self, cards: CardSet) -> HiRating {
        self.rating.rate_seven(cards)
    }
}

/// The Monte Carlo heatmap.
pub struct MonteCarlo {
    hands: Hands,
    spec: HeatmapSpec,
    trials: u64,
    seed: u64,
    precision: Option<f64>,
    focus: Mutex<Focus>,
}

/// A worker's per-trial sums, kept between items.
#[derive(Default)]
pub struct TrialScratch {
    class_s: Vec<u64>,
    class_n: Vec<u64>,
}

impl MonteCarlo {
    /// Deals one trial's known cards: dead cards, the board (completed to five), the
    /// villains. None when the deal collides (rejected whole).
    #[inline]
    fn deal(&self, rng: &mut Rng, villains: &mut [CardSet]) -> Option<(CardSet, CardSet)> {
        let table = &self.spec.table;
        let mut used = table.dead.fixed;
        if !table.dead.choices.is_empty() {
            let d = table.dead.choices[rng.below(table.dead.choices.len() as u64) as usize];
            if d.overlaps(used) {
                return None;
            }
            used = used.union(d);
        }
        let board = if table.boards.len() == 1 {
            table.boards[0]
        } else {
            table.boards[rng.below(table.boards.len() as u64) as usize]
        };
        if board.overlaps(used) {
            return None;
        }
        used = used.union(board);
        // Players with a range first, then those dealt from the deck, as the engine deals
        // (uniform over compatible deals).
        for (v, range) in villains.iter_mut().zip(&self.spec.villains) {
            if range.is_full() {
                continue;
            }
            let i = range.pick(rng.unit())?;
            let h = range.flop_combos()[i];
            if h.overlaps(used) {
                return None;
            }
            *v = h;
            used = used.union(h);
        }
        for (v, range) in villains.iter_mut().zip(&self.spec.villains) {
            if range.is_full() {
                *v = draw_cards(&self.hands.deck, 2, used, rng);
                used = used.union(*v);
            }
        }
        let rest = 5 - table.board_len;
        let board = board.union(draw_cards(&self.hands.deck, rest, used, rng));
        Some((board, used.union(board)))
    }
}

impl Work for MonteCarlo {
    type Part = HeatmapPart;
    type State = HeatmapState;
    type Scratch = TrialScratch;

    fn items(&self) -> u64 {
        self.trials.div_ceil(CHUNK)
    }

    fn run(&self, item: u64, scratch: &mut TrialScratch, stop: &AtomicBool) -> Result<HeatmapPart, PqlError> {
        let h = &self.hands;
        let focus = self.focus.lock().unwrap_or_else(PoisonError::into_inner).clone();
        let want = CHUNK.min(self.trials - item * CHUNK);
        let mut rng = Rng::new(self.seed, item);
        let n = h.cards.len();
        let mut part = HeatmapPart {
            trials: 0,
            attempted: 0,
            won: vec![0; n],
            deals: vec![0; n],
            classes: vec![Moments::default(); h.classes],
            focus: Moments::default(),
            focus_version: focus.version,
        };
        scratch.class_s.resize(h.classes, 0);
        scratch.class_n.resize(h.classes, 0);
        let mut villains = vec![CardSet::EMPTY; self.spec.villains.len()];
        while part.trials < want {
            part.attempted += 1;
            if part.attempted > want * MAX_REJECTIONS + 10_000 {
                return Err(PqlError::runtime(
                    "the other players' ranges, the board and the dead cards can hardly be dealt together",
                ));
            }
            if part.attempted.is_multiple_of(64) && stop.load(Ordering::Relaxed) {
                return Ok(part);
            }
            let Some((board, used)) = self.deal(&mut rng, &mut villains) else { continue };
            part.trials += 1;
            let mut best = HiRating::NONE;
            let mut ties = 0u64;
            for &v in &villains {
                let r = h.rate(v.union(board));
                if r > best {
                    best = r;
                    ties = 1;
                } else if r == best {
                    ties += 1;
                }
            }
            let tie_share = POT / (ties + 1);
            scratch.class_s.fill(0);
            scratch.class_n.fill(0);
            let (mut focus_s, mut focus_n) = (0u64, 0u64);
            for (i, &cards) in h.cards.iter().enumerate() {
                if cards.overlaps(used) {
                    continue;
                }
                let r = h.rate(cards.union(board));
                let share = match r.cmp(&best) {
                    std::cmp::Ordering::Greater => POT,
                    std::cmp::Ordering::Equal => tie_share,
                    std::cmp::Ordering::Less => 0,
                };
                part.won[i] += share;
                part.deals[i] += 1;
                let c = h.class_of[i] as usize;
                scratch.class_s[c] += share;
                scratch.class_n[c] += 1;
                if let Some(&w) = focus.weights.get(i) {
                    focus_s += u64::from(w) * share;
                    focus_n += u64::from(w);
                }
            }
            for (m, (&s, &n)) in part.classes.iter_mut().zip(scratch.class_s.iter().zip(&scratch.class_n)) {
                m.add(s, n);
            }
            part.focus.add(focus_s, focus_n);
        }
        Ok(part)
    }

    fn merge(&self, state: &mut HeatmapState, part: HeatmapPart) {
        merge_counts(state, &part);
        for (m, p) in state.classes.iter_mut().zip(&part.classes) {
            m.merge(p);
        }
        if part.focus_version == state.focus_version {
            state.focus.merge(&part.focus);
            state.focus_trials += part.trials;
        }
    }

    fn enough(&self, state: &HeatmapState) -> bool {
        let Some(target) = self.precision else { return false };
        if state.trials < MIN_TRIALS_FOR_PRECISION {
            return false;
        }
        state.classes.iter().all(|m| match m.estimate(state.trials, POT as f64) {
            Some((_, se)) => 1.96 * se <= target,
            None => state.trials >= IMPOSSIBLE_AFTER,
        })
    }
}

fn merge_counts(state: &mut HeatmapState, part: &HeatmapPart) {
    state.trials += part.trials;
    state.attempted += part.attempted;
    for (a, b) in state.won.iter_mut().zip(&part.won) {
        *a += b;
    }
    for (a, b) in state.deals.iter_mut().zip(&part.deals) {
        *a += b;
    }
}

/// The exact heatmap: one opponent, a fixed board of three or four cards, every runout.
pub struct Exact {
    hands: Hands,
    board: CardSet,
    dead: CardSet,
    runouts: Vec<CardSet>,
    /// The opponent's weight of each starting hand (0: not in its range).
    villain: Vec<u64>,
}

/// Per-runout lists, kept between items.
#[derive(Default)]
pub struct ExactScratch {
    villains: Vec<(HiRating, usize)>,
    heroes: Vec<(HiRating, usize)>,
}

impl Exact {
    fn runout(&self, runout: CardSet, s: &mut ExactScratch, won: &mut [u64], deals: &mut [u64]) {
        let h = &self.hands;
        let board = self.board.union(runout);
        let blocked = board.union(self.dead);
        s.villains.clear();
        s.heroes.clear();
        let mut total = 0u64;
        let mut by_card = [0u64; 64];
        for (i, &cards) in h.cards.iter().enumerate() {
            if cards.overlaps(blocked) {
                continue;
            }
            let r = h.rate(cards.union(board));
            s.heroes.push((r, i));
            let w = self.villain[i];
            if w > 0 {
                s.villains.push((r, i));
                total += w;
                let (a, b) = h.pairs[i];
                by_card[a as usize] += w;
                by_card[b as usize] += w;
            }
        }
        s.villains.sort_unstable();
        s.heroes.sort_unstable();
        // Running sums over the villain hands weaker than (`below`) and at most as strong as
        // (`upto`) the hero hand at hand, in total and by card.
        let (mut below, mut upto) = (0u64, 0u64);
        let mut below_card = [0u64; 64];
        let mut upto_card = [0u64; 64];
        let (mut jb, mut ju) = (0usize, 0usize);
        for &(r, i) in &s.heroes {
            while jb < s.villains.len() && s.villains[jb].0 < r {
                let v = s.villains[jb].1;
                let w = self.villain[v];
                below += w;
                let (a, b) = h.pairs[v];
                below_card[a as usize] += w;
                below_card[b as usize] += w;
                jb += 1;
            }
            while ju < s.villains.len() && s.villains[ju].0 <= r {
                let v = s.villains[ju].1;
                let w = self.villain[v];
                upto += w;
                let (a, b) = h.pairs[v];
                upto_card[a as usize] += w;
                upto_card[b as usize] += w;
                ju += 1;
            }
            let (a, b) = (h.pairs[i].0 as usize, h.pairs[i].1 as usize);
            // The villain combo equal to the hero's holds both its cards: taken out twice by
            // the card sums, so added back once (it is weaker than nothing, so not `below`).
            let same = self.villain[i];
            let wins = below - below_card[a] - below_card[b];
            let ties = upto + same - upto_card[a] - upto_card[b] - wins;
            let all = total + same - by_card[a] - by_card[b];
            won[i] += 2 * wins + ties;
            deals[i] += all;
        }
    }
}

impl Work for Exact {
    type Part = HeatmapPart;
    type State = HeatmapState;
    type Scratch = ExactScratch;

    fn items(&self) -> u64 {
        self.runouts.len().div_ceil(RUNOUTS_PER_ITEM) as u64
    }

    fn run(&self, item: u64, scratch: &mut ExactScratch, stop: &AtomicBool) -> Result<HeatmapPart, PqlError> {
        let n = self.hands.cards.len();
        let mut part = HeatmapPart {
            trials: 0,
            attempted: 0,
            won: vec![0; n],
            deals: vec![0; n],
            classes: Vec::new(),
            focus: Moments::default(),
            focus_version: 0,
        };
        let start = item as usize * RUNOUTS_PER_ITEM;
        for &r in &self.runouts[start..(start + RUNOUTS_PER_ITEM).min(self.runouts.len())] {
            if stop.load(Ordering::Relaxed) {
                break;
            }
            self.runout(r, scratch, &mut part.won, &mut part.deals);
            part.trials += 1;
            part.attempted += 1;
        }
        Ok(part)
    }

    fn merge(&self, state: &mut HeatmapState, part: HeatmapPart) {
        merge_counts(state, &part);
    }
}

/// A running heatmap of either kind.
pub enum Heatmap {
    MonteCarlo(Job<MonteCarlo>),
    Exact(Job<Exact>),
}

/// The snapshot type both kinds produce.
pub type HeatmapSnapshot = super::background::Snapshot<HeatmapState>;

impl Heatmap {
    /// Starts the heatmap of every class of `classes` against `spec`.
    pub fn start(classes: &Classes, spec: HeatmapSpec, opts: &HeatmapOptions) -> Result<Heatmap, PqlError> {
        if spec.villains.is_empty() {
            return Err(PqlError::runtime("the heatmap needs another player to play against"));
        }
        if spec.villains.iter().any(|r| r.game() != classes.game) || spec.game != classes.game {
            return Err(PqlError::runtime("the heatmap's ranges are of another game"));
        }
        let hands = Hands::new(classes);
        let exact_possible = spec.villains.len() == 1
            && spec.table.board_len >= 3
            && spec.table.fixed().is_some()
            && !spec.table.fixed().unwrap_or_default().overlaps(spec.table.dead.fixed);
        let exact = match opts.exact {
            Some(true) if !exact_possible => {
                return Err(PqlError::runtime(
                    "the exact heatmap needs one other player and a fixed board of three or more cards",
                ))
            }
            Some(e) => e,
            None => exact_possible,
        };
        let n = hands.cards.len();
        if exact {
            let board = spec.table.fixed().unwrap_or_default();
            let dead = spec.table.dead.fixed;
            let rest: Vec<Card> =
                hands.deck.iter().copied().filter(|c| !board.contains(*c) && !dead.contains(*c)).collect();
            let mut runouts = Vec::new();
            for_each_combination(&rest, 5 - spec.table.board_len, CardSet::EMPTY, &mut |r| runouts.push(r));
            let range = &spec.villains[0];
            let mut villain = vec![0u64; n];
            for (h, &cards) in hands.cards.iter().enumerate() {
                villain[h] = u64::from(range.weight_of(cards));
            }
            let work = Exact { hands, board, dead, runouts, villain };
            let state = HeatmapState::new(classes.classes.len(), n, true);
            return Ok(Heatmap::Exact(Job::start(work, state, opts.threads)));
        }
        if opts.trials == 0 {
            return Err(PqlError::runtime("the heatmap needs at least one trial"));
        }
        let work = MonteCarlo {
            hands,
            spec,
            trials: opts.trials,
            seed: opts.seed,
            precision: opts.precision.filter(|p| *p > 0.0),
            focus: Mutex::new(Focus::default()),
        };
        let state = HeatmapState::new(classes.classes.len(), n, false);
        Ok(Heatmap::MonteCarlo(Job::start(work, state, opts.threads)))
    }

    pub fn poll(&mut self, timeout: std::time::Duration) -> Option<HeatmapSnapshot> {
        match self {
            Heatmap::MonteCarlo(j) => j.poll(timeout),
            Heatmap::Exact(j) => j.poll(timeout),
        }
    }

    pub fn wait(self) -> HeatmapSnapshot {
        match self {
            Heatmap::MonteCarlo(j) => j.wait(),
            Heatmap::Exact(j) => j.wait(),
        }
    }

    pub fn cancel(&self) {
        self.remote().cancel();
    }

    pub fn is_exact(&self) -> bool {
        matches!(self, Heatmap::Exact(_))
    }

    /// See [`HeatmapRemote::set_focus`].
    pub fn set_focus(&self, weights: Vec<u32>) {
        self.remote().set_focus(weights);
    }

    /// A handle that cancels or refocuses the heatmap while another thread polls it.
    pub fn remote(&self) -> HeatmapRemote {
        match self {
            Heatmap::MonteCarlo(j) => HeatmapRemote::MonteCarlo(j.remote()),
            Heatmap::Exact(j) => HeatmapRemote::Exact(j.remote()),
        }
    }
}

/// Cancels or refocuses a heatmap without its poller.
#[derive(Clone)]
pub enum HeatmapRemote {
    MonteCarlo(Remote<MonteCarlo>),
    Exact(Remote<Exact>),
}

impl HeatmapRemote {
    pub fn cancel(&self) {
        match self {
            HeatmapRemote::MonteCarlo(r) => r.cancel(),
            HeatmapRemote::Exact(r) => r.cancel(),
        }
    }

    /// The range being explored (one weight per starting hand, 0 outside it): its own equity
    /// is measured from now on (Monte Carlo: its standard error restarts).
    pub fn set_focus(&self, weights: Vec<u32>) {
        if let HeatmapRemote::MonteCarlo(r) = self {
            let version = {
                let mut f = r.work().focus.lock().unwrap_or_else(PoisonError::into_inner);
                f.version += 1;
                f.weights = Arc::new(weights);
                f.version
            };
            r.update(|s| {
                s.focus = Moments::default();
                s.focus_trials = 0;
                s.focus_version = version;
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;
    use crate::kernels::showdown::Showdown;
    use crate::range::{parse_board, parse_range, DeadCards, Syntax};

    fn spec(game: Game, villains: &[&str], board: &str) -> HeatmapSpec {
        let villains = villains.iter().map(|v| parse_range(v, game, Syntax::Classic).unwrap()).collect();
        let board = (!board.is_empty()).then(|| parse_board(board, game).unwrap());
        HeatmapSpec { game, villains, table: Table::new(board.as_deref(), DeadCards::default()).unwrap() }
    }

    fn opts(trials: u64, exact: Option<bool>) -> HeatmapOptions {
        HeatmapOptions { trials, seed: 7, threads: 2, precision: None, exact }
    }

    /// The plain path: every hero combo against every villain combo and runout, rated by the
    /// showdown kernel.
    fn brute_force(classes: &Classes, villain: &Range, board: CardSet) -> Vec<Option<f64>> {
        let game = classes.game;
        let deck: Vec<Card> = game.deck().cards().iter().filter(|c| !board.contains(*c)).collect();
        let rest = 5 - board.len() as usize;
        let mut won = vec![0f64; classes.hands.len()];
        let mut weight = vec![0f64; classes.hands.len()];
        for (i, &h) in classes.hands.iter().enumerate() {
            if h.overlaps(board) {
                continue;
            }
            for (j, &v) in villain.flop_combos().iter().enumerate() {
                if v.overlaps(h) || v.overlaps(board) {
                    continue;
                }
                let w = f64::from(villain.weights()[j]);
                let free: Vec<Card> = deck.iter().copied().filter(|c| !h.contains(*c) && !v.contains(*c)).collect();
                for_each_combination(&free, rest, CardSet::EMPTY, &mut |r| {
                    let s = Showdown::new(game, &[h, v], board.union(r));
                    won[i] += w * s.share(0);
                    weight[i] += w;
                });
            }
        }
        classes
            .classes
            .iter()
            .map(|c| {
                let (a, b) = c.combos.iter().fold((0.0, 0.0), |(a, b), &h| (a + won[h], b + weight[h]));
                (b > 0.0).then(|| a / b)
            })
            .collect()
    }

    #[test]
    fn exact_heatmap_matches_the_plain_path() {
        for (game, villain, board) in
            [(Game::Holdem, "QQ+@3, AK@1, 76s@2", "Kh7c2dQs"), (Game::ShortDeckTriton, "TT+, AK", "AsKd9h6c")]
        {
            let classes = Classes::new(game).unwrap();
            let s = spec(game, &[villain], board);
            let want = brute_force(&classes, &s.villains[0], parse_cards(board).unwrap());
            let snap = Heatmap::start(&classes, s, &opts(1, None)).unwrap().wait();
            assert!(snap.state.exact && snap.done);
            let got = snap.state.report(&classes, None);
            for (i, (g, w)) in got.classes.iter().zip(&want).enumerate() {
                match (g, w) {
                    (Some((g, se)), Some(w)) => {
                        assert!((g - w).abs() < 1e-12, "{} {g} {w}", classes.classes[i].name);
                        assert_eq!(*se, 0.0);
                    }
                    (None, None) => {}
                    _ => panic!("{}: {g:?} vs {w:?}", classes.classes[i].name),
                }
            }
        }
    }

    #[test]
    fn monte_carlo_agrees_with_exact_and_repeats_for_a_seed() {
        let game = Game::Holdem;
        let classes = Classes::new(game).unwrap();
        let exact = Heatmap::start(&classes, spec(game, &["JJ+, AQs+"], "Ah8d3c"), &opts(1, None)).unwrap().wait();
        let mc = |threads| {
            let o = HeatmapOptions { threads, ..opts(20_000, Some(false)) };
            Heatmap::start(&classes, spec(game, &["JJ+, AQs+"], "Ah8d3c"), &o).unwrap().wait()
        };
        let (one, two) = (mc(1), mc(3));
        assert_eq!(one.state.won, two.state.won, "same seed, other thread count");
        assert_eq!(one.state.classes, two.state.classes);
        let e = exact.state.report(&classes, None);
        let m = one.state.report(&classes, None);
        let mut outside = 0;
        let mut compared = 0;
        for (x, y) in e.classes.iter().zip(&m.classes) {
            if let (Some((x, _)), Some((y, se))) = (x, y) {
                compared += 1;
                if (x - y).abs() > 3.0 * se {
                    outside += 1;
                }
            }
        }
        assert!(compared > 150);
        // Three standard errors: about 0.3% of classes outside by chance.
        assert!(outside <= 3, "{outside} of {compared} classes outside 3 standard errors");
    }

    #[test]
    fn focus_equity_is_the_weighted_mean_of_its_hands() {
        let game = Game::Holdem;
        let classes = Classes::new(game).unwrap();
        let snap = Heatmap::start(&classes, spec(game, &["**"], "Ah8d3c2s"), &opts(1, None)).unwrap().wait();
        let aa: Vec<u32> =
            classes.hands.iter().map(|h| u32::from(crate::explore::classes::class_name(*h) == "AA")).collect();
        let r = snap.state.report(&classes, Some(&aa));
        let row = classes.classes.iter().position(|c| c.name == "AA").unwrap();
        let (f, _) = r.focus.unwrap();
        assert!((f - r.classes[row].unwrap().0).abs() < 1e-12);
    }

    #[test]
    fn multiway_monte_carlo_matches_per_class_deals() {
        // Hero AKs against two players: the class estimate agrees with dealing AKs itself.
        let game = Game::Holdem;
        let classes = Classes::new(game).unwrap();
        let s = spec(game, &["QQ+", "**"], "");
        let snap = Heatmap::start(&classes, s.clone(), &opts(60_000, None)).unwrap().wait();
        let r = snap.state.report(&classes, None);
        let row = classes.classes.iter().position(|c| c.name == "AKs").unwrap();
        let (eq, se) = r.classes[row].unwrap();
        let hero = parse_range("AKs", game, Syntax::Classic).unwrap();
        let mut rng = Rng::new(99, 0);
        let deck: Vec<Card> = game.deck().cards().iter().collect();
        let (mut sum, mut n) = (0.0, 0u64);
        while n < 200_000 {
            let h = hero.flop_combos()[rng.below(4) as usize];
            let q = s.villains[0].flop_combos()[rng.below(s.villains[0].len() as u64) as usize];
            if q.overlaps(h) {
                continue;
            }
            let r2 = draw_cards(&deck, 2, h.union(q), &mut rng);
            let b = draw_cards(&deck, 5, h.union(q).union(r2), &mut rng);
            sum += Showdown::new(game, &[h, q, r2], b).share(0);
            n += 1;
        }
        let direct = sum / n as f64;
        let direct_se = (0.25 / n as f64).sqrt();
        assert!((eq - direct).abs() < 4.0 * (se * se + direct_se * direct_se).sqrt(), "{eq} ± {se} vs {direct}");
    }

    #[test]
    fn precision_stops_early_and_cancel_ends() {
        let game = Game::Holdem;
        let classes = Classes::new(game).unwrap();
        let o = HeatmapOptions { precision: Some(0.05), ..opts(10_000_000, None) };
        let snap = Heatmap::start(&classes, spec(game, &["QQ+, AK"], ""), &o).unwrap().wait();
        assert!(snap.done && snap.state.trials < 10_000_000);
        let r = snap.state.report(&classes, None);
        assert!(r.classes.iter().flatten().all(|(_, se)| 1.96 * se <= 0.05));
        let h = Heatmap::start(&classes, spec(game, &["QQ+, AK"], ""), &opts(u64::MAX / 2, None)).unwrap();
        h.cancel();
        let snap = h.wait();
        assert!(snap.done && snap.cancelled);
        assert!(Heatmap::start(&classes, spec(game, &["QQ+", "KK"], "Kh7c2d"), &opts(100, Some(true))).is_err());
    }
}
