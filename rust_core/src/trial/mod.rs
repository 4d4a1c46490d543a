//! One deal being evaluated: a [`Trial`] holds the deal and the lazily computed, cached facts
//! that several selectors share. The plan's expressions are evaluated on it (`evaluate`) and
//! every built-in function is answered on it (`library`; the costlier bodies beside it:
//! `versus` for equity against ranges, hand strength, potential and draws, `nuts` for nuts,
//! outs and flop categories).
//!
//! May use: `plan` (expressions, built-ins, values, budgets), `deal`, `kernels`, `analysis`,
//! `range`, `eval`, `games`, `cards`, `rng`, `error`. A new built-in function's body goes in
//! `library` (or a file beside it when it is large).

pub mod evaluate;
pub mod library;
pub mod nuts;
pub mod versus;

use crate::cards::{for_each_combination, Card, CardSet};
use crate::deal::source::HandSource;
use crate::deal::{Deal, MAX_PLAYERS};
use crate::error::{PqlError, Span};
use crate::eval::{rate_hi, HiRating, LoRating, OmahaBoard, OmahaHole};
use crate::games::Street;
use crate::kernels::showdown::Showdown;
use crate::kernels::{holdem_equity, omaha_equity, stud_equity};
use std::collections::HashMap;

/// Values remembered across deals, per worker, at most this many (then forgotten at once).
pub const CROSS_DEAL_ENTRIES: usize = 1 << 16;

/// A cross-deal cache key: what was computed (kind, player, street) and every card it depends
/// on, as a few words.
#[derive(Clone, Copy, Debug)]
pub struct CacheKey {
    words: [u64; 16],
    len: usize,
}

impl CacheKey {
    pub fn new(kind: u8, p: usize, street: Street) -> CacheKey {
        let mut k = CacheKey { words: [0; 16], len: 0 };
        k.push(u64::from(memo_key(kind, p, street)));
        k
    }

    pub fn push(&mut self, word: u64) {
        if self.len < self.words.len() {
            self.words[self.len] = word;
        }
        self.len += 1;
    }

    fn as_slice(&self) -> Option<&[u64]> {
        // A key that did not fit is never cached.
        self.words.get(..self.len)
    }
}

/// The costly functions' values by what they depend on, kept from deal to deal (p's cards and
/// the board repeat across many deals of a run).
#[derive(Default)]
pub struct CrossDeal {
    map: HashMap<Box<[u64]>, [u64; 2]>,
}

/// Per-worker memory for the facts computed about a deal, reused from deal to deal so that
/// starting a deal costs two stores instead of clearing every slot.
pub struct Scratch {
    showdown: Showdown,
    showdown_valid: bool,
    hi: [[HiRating; 9]; MAX_PLAYERS],
    /// Bit `p * 9 + street`: `hi[p][street]` holds this deal's value.
    hi_valid: u128,
    /// Results of the costly analysis functions on this deal, by [`memo_key`].
    memo: Vec<(u32, [f64; 2])>,
    pub(crate) omaha: omaha_equity::OmahaScratch,
    pub(crate) holdem: holdem_equity::HoldemScratch,
    /// Reusable buffer for opponent holdings.
    pub(crate) holdings: Vec<crate::analysis::Holding>,
    pub(crate) stud: stud_equity::StudScratch,
    /// Values of costly functions kept across deals.
    pub(crate) cross: CrossDeal,
    /// Inner samples drawn in this unit of work (a Monte Carlo chunk, an exhaustive work item)
    /// so far: each sampled inner value gets its own stream.
    pub(crate) fresh: u64,
    /// The unit of work's own share of the inner streams ([`Scratch::begin_unit`]): the unit,
    /// not the worker that happens to run it, decides its inner samples, so that a seed gives
    /// the same answer whatever the thread count.
    unit_stream: u64,
    /// Whether each seat's hand source is the same under every renaming of the suits (random
    /// hands, ranges such as `20%`), judged once for the sources at this address.
    symmetric_sources: Option<(usize, Vec<bool>)>,
    /// Where a division by zero happened (the first one), for the run to stop with an error.
    division_by_zero: Option<Span>,
    /// Set (for good) once an inner value was sampled rather than enumerated: an exhaustive
    /// run is then not exact.
    pub(crate) inner_sampled: bool,
    /// The run samples its deals (Monte Carlo): its standard error then measures the noise of
    /// a sampled inner value too, so one that is only averaged may take fewer samples.
    pub outer_sampled: bool,
}

impl Default for Scratch {
    fn default() -> Self {
        Scratch {
            showdown: Showdown::new(crate::games::Game::Holdem, &[], CardSet::EMPTY),
            showdown_valid: false,
            hi: [[HiRating::NONE; 9]; MAX_PLAYERS],
            hi_valid: 0,
            memo: Vec::new(),
            omaha: omaha_equity::OmahaScratch::default(),
            holdem: holdem_equity::HoldemScratch::default(),
            holdings: Vec::new(),
            stud: stud_equity::StudScratch::default(),
            cross: CrossDeal::default(),
            fresh: 0,
            unit_stream: 0,
            symmetric_sources: None,
            division_by_zero: None,
            inner_sampled: false,
            outer_sampled: false,
        }
    }
}

impl Scratch {
    /// Starts a unit of work (Monte Carlo chunk `unit` of the run seeded `seed`, or an
    /// exhaustive work item): its inner samples are drawn from streams of its own.
    pub fn begin_unit(&mut self, seed: u64, unit: u64) {
        self.fresh = 0;
        self.unit_stream = crate::rng::Rng::new(seed ^ 0x1A2E_5EED, unit).next_u64();
    }

    /// The error of a division by zero met since the last call, if any (the runner ends the run
    /// with it: PQL has no value for it, and 0 or NaN would pass silently into an average).
    pub fn take_error(&mut self) -> Option<PqlError> {
        self.division_by_zero.take().map(|span| {
            PqlError::runtime("division by zero")
                .with_span(span)
                .with_hint("guard the divisor, e.g. case when x = 0 then 0 else y / x end")
        })
    }
}

/// Memo kind of `hvh_equity` (the analysis functions use 1..=4).
const MEMO_HVH: u8 = 10;

/// A memo key: what was computed (`kind`), for whom and on which street.
pub fn memo_key(kind: u8, p: usize, street: Street) -> u32 {
    (u32::from(kind) << 16) | ((p as u32) << 8) | street as u32
}

/// The deal and what has been computed about it so far.
pub struct Trial<'a> {
    pub deal: &'a Deal,
    /// The deck minus dead cards (for inner enumerations).
    pub deck: &'a [Card],
    /// Where each player's cards come from (ranges for `HvREquity`, hand strength and
    /// potential); empty or missing seats count as random hands.
    pub sources: &'a [HandSource],
    pub(crate) scratch: &'a mut Scratch,
}

impl<'a> Trial<'a> {
    pub fn new(deal: &'a Deal, deck: &'a [Card], scratch: &'a mut Scratch) -> Trial<'a> {
        scratch.showdown_valid = false;
        scratch.hi_valid = 0;
        scratch.memo.clear();
        Trial { deal, deck, sources: &[], scratch }
    }

    /// The players' hand sources (the plan's deal spec), for functions that look at ranges.
    #[must_use]
    pub fn with_sources(mut self, sources: &'a [HandSource]) -> Trial<'a> {
        self.sources = sources;
        self
    }

    /// Notes a division by zero at `divisor` (see [`Scratch::take_error`]).
    pub(crate) fn divided_by_zero(&mut self, divisor: Span) {
        self.scratch.division_by_zero.get_or_insert(divisor);
    }

    /// A value computed earlier on this deal under `key`.
    pub(crate) fn memo(&self, key: u32) -> Option<[f64; 2]> {
        self.scratch.memo.iter().find(|(k, _)| *k == key).map(|(_, v)| *v)
    }

    pub(crate) fn remember(&mut self, key: u32, value: [f64; 2]) {
        self.scratch.memo.push((key, value));
    }

    /// A cross-deal key for a value that depends on p's cards on `street`, the board then and
    /// the dead cards (callers push what else it depends on).
    pub(crate) fn cards_key(&self, kind: u8, p: usize, street: Street) -> CacheKey {
        let d = self.deal;
        let mut key = CacheKey::new(kind, p, street);
        key.push(d.hand_at(p, street).bits());
        key.push(d.board_at(street).bits());
        key.push(d.dead.bits());
        key
    }

    /// As [`Trial::cards_key`] with the suits renamed into a canonical form (hold'em and Omaha
    /// values do not depend on the suits' names, and most hands and boards are one of a few
    /// under renaming): the key, and the renaming from the deal's suits to the key's. `extra`
    /// sets are part of the key too (at most five).
    pub(crate) fn canonical_cards_key(
        &self,
        kind: u8,
        p: usize,
        street: Street,
        extra: &[CardSet],
    ) -> (CacheKey, crate::deal::suit_classes::SuitMap) {
        let d = self.deal;
        let mut sets = [CardSet::EMPTY; 8];
        sets[0] = d.hand_at(p, street);
        sets[1] = d.board_at(street);
        sets[2] = d.dead;
        let n = 3 + extra.len().min(5);
        sets[3..n].copy_from_slice(&extra[..n - 3]);
        let map = if extra.len() > 5 {
            crate::deal::suit_classes::SuitMap::IDENTITY
        } else {
            crate::deal::suit_classes::SuitMap::canonical(&sets[..n])
        };
        let mut key = CacheKey::new(kind, p, street);
        for set in &sets[..n] {
            key.push(map.set(*set).bits());
        }
        for set in extra.iter().skip(5) {
            key.push(set.bits());
        }
        (key, map)
    }

    /// Whether every player but `p` has a hand source that no renaming of the suits changes (a
    /// value against them is then one for every renaming of the deal). Never in stud, whose
    /// values are keyed by up cards as well.
    pub(crate) fn opponents_symmetric(&mut self, p: usize) -> bool {
        if self.deal.game.is_stud() {
            return false;
        }
        let at = self.sources.as_ptr() as usize;
        if self.scratch.symmetric_sources.as_ref().is_none_or(|(a, v)| *a != at || v.len() != self.sources.len()) {
            let judged = self
                .sources
                .iter()
                .map(|src| match src {
                    HandSource::Random => true,
                    HandSource::Range(list) => crate::deal::suit_classes::symmetric_under_suits(list),
                })
                .collect();
            self.scratch.symmetric_sources = Some((at, judged));
        }
        let judged = self.scratch.symmetric_sources.as_ref().map_or(&[][..], |(_, v)| v.as_slice());
        (0..self.deal.players).filter(|&q| q != p).all(|q| judged.get(q).copied().unwrap_or(true))
    }

    /// Adds every other player's stud up cards on `street` to `key`, seat by seat.
    pub(crate) fn push_up_cards(&self, key: &mut CacheKey, p: usize, street: Street) {
        let d = self.deal;
        if d.game.is_stud() {
            for q in (0..d.players).filter(|&q| q != p) {
                key.push(d.up_cards(q, street).bits());
            }
        }
    }

    /// A value kept from an earlier deal under `key`.
    pub(crate) fn cached(&self, key: &CacheKey) -> Option<[u64; 2]> {
        self.scratch.cross.map.get(key.as_slice()?).copied()
    }

    pub(crate) fn cache(&mut self, key: &CacheKey, value: [u64; 2]) {
        let Some(words) = key.as_slice() else { return };
        let map = &mut self.scratch.cross.map;
        if map.len() >= CROSS_DEAL_ENTRIES {
            map.clear();
        }
        map.insert(words.into(), value);
    }

    /// A random stream for one sampled inner value: seeded by the deal's `known` cards, the unit
    /// of work and a counter within it, so that repeated deals get independent samples (the
    /// run's standard error then measures the sampling too) while a run stays reproducible for
    /// its seed, whatever the thread count.
    pub(crate) fn fresh_rng(&mut self, salt: u64, known: CardSet) -> crate::rng::Rng {
        self.scratch.inner_sampled = true;
        self.fresh_stream(salt, known)
    }

    /// A stream of its own for this call in this deal, like [`Trial::fresh_rng`], for a value
    /// that may turn out exact (the caller flags the deal as sampled when it draws from it).
    pub(crate) fn fresh_stream(&mut self, salt: u64, known: CardSet) -> crate::rng::Rng {
        self.scratch.fresh += 1;
        let stream = self.scratch.unit_stream ^ salt ^ (self.scratch.fresh << 8);
        crate::rng::Rng::new(0x5EED ^ stream, known.bits())
    }

    /// The river (seventh street) showdown, computed once.
    /// The deck's cards outside `known` (those still to come or unseen), in deck order.
    pub(crate) fn deck_without(&self, known: CardSet) -> Vec<Card> {
        self.deck.iter().copied().filter(|c| !known.contains(*c)).collect()
    }

    pub fn showdown(&mut self) -> &Showdown {
        if !self.scratch.showdown_valid {
            self.scratch.showdown.rate_deal(self.deal);
            self.scratch.showdown_valid = true;
        }
        &self.scratch.showdown
    }

    /// p's hi rating on `street`.
    pub fn hi_rating(&mut self, p: usize, street: Street) -> HiRating {
        let slot = street as usize;
        let bit = 1u128 << (p * 9 + slot);
        if self.scratch.hi_valid & bit != 0 {
            return self.scratch.hi[p][slot];
        }
        let d = self.deal;
        let hand = d.hand_at(p, street);
        let board = d.board_at(street);
        let r = if d.game.is_omaha() && board.len() >= 3 {
            crate::eval::omaha_hi(&OmahaHole::new(hand), &OmahaBoard::new(board))
        } else if d.game.is_omaha() {
            // Before the flop an Omaha hand is only its hole cards.
            rate_hi(hand, d.game.hi_rules())
        } else {
            rate_hi(hand.union(board), d.game.hi_rules())
        };
        self.scratch.hi[p][slot] = r;
        self.scratch.hi_valid |= bit;
        r
    }

    /// p's low on `street` (`None`: no qualifying low, or a game without lows).
    pub fn lo_rating(&mut self, p: usize, street: Street) -> Option<LoRating> {
        let d = self.deal;
        let board = d.board_at(street);
        if d.game.is_omaha() && board.len() < 3 {
            return None;
        }
        crate::eval::rate_lo_for(d.game, d.hand_at(p, street), board)
    }

    /// Exact equity of p's hand against the other players' actual hands with the board known
    /// up to `street`; every completion of the board is visited once.
    pub fn hvh_equity(&mut self, p: usize, street: Street) -> f64 {
        let d = self.deal;
        if street == d.game.last_street() {
            return self.showdown().share(p);
        }
        if d.game.is_stud() {
            return self.stud_hvh_equity(p, street);
        }
        // One pass gives every player's equity: the others are remembered for their selectors.
        if let Some([e, _]) = self.memo(memo_key(MEMO_HVH, p, street)) {
            return e;
        }
        let cross = self.hvh_key(p, street);
        if let Some([bits, _]) = self.cached(&cross) {
            let e = f64::from_bits(bits);
            self.remember(memo_key(MEMO_HVH, p, street), [e, 0.0]);
            return e;
        }
        let e = self.hvh_equity_now(p, street);
        self.cache(&cross, [e.to_bits(), 0]);
        e
    }

    /// The cross-deal key of p's `HvHEquity` on `street`: every player's cards, the board then
    /// and the dead cards (given hands see the same flop many times in a run).
    fn hvh_key(&self, p: usize, street: Street) -> CacheKey {
        let d = self.deal;
        let mut key = CacheKey::new(MEMO_HVH, p, street);
        for q in 0..d.players {
            key.push(d.hole[q].bits());
        }
        key.push(d.board_at(street).bits());
        key.push(d.dead.bits());
        key
    }

    /// [`Trial::hvh_equity`] computed on this deal (flop games, before the river).
    fn hvh_equity_now(&mut self, p: usize, street: Street) -> f64 {
        let d = self.deal;
        let known_board = d.board_at(street);
        let mut used = d.dead.union(known_board);
        for q in 0..d.players {
            used = used.union(d.hole[q]);
        }
        let mut remaining = [Card::from_index(0); 52];
        let mut len = 0;
        for &c in self.deck.iter().filter(|c| !used.contains(**c)) {
            remaining[len] = c;
            len += 1;
        }
        let remaining = &remaining[..len];
        let need = 5 - known_board.len() as usize;
        let hands = &d.hole[..d.players];
        let mut shares = [0.0; MAX_PLAYERS];
        let s = &mut *self.scratch;
        if omaha_equity::omaha_equities(d.game, hands, known_board, remaining, &mut s.omaha, &mut shares)
            || holdem_equity::holdem_equities(d.game, hands, known_board, remaining, &mut s.holdem, &mut shares)
        {
            for (q, &e) in shares[..d.players].iter().enumerate() {
                self.remember(memo_key(MEMO_HVH, q, street), [e, 0.0]);
                let key = self.hvh_key(q, street);
                self.cache(&key, [e.to_bits(), 0]);
            }
            return shares[p];
        }
        let mut total = 0.0;
        let mut n = 0u64;
        for_each_combination(remaining, need, known_board, &mut |board| {
            total += Showdown::new(d.game, hands, board).share(p);
            n += 1;
        });
        if n == 0 {
            0.0
        } else {
            total / n as f64
        }
    }

    /// Stud: every way to deal every player's remaining cards, tabulated
    /// ([`stud_equity`]) when they are at most `STUD_EXACT_SHOWDOWNS` (heads-up from
    /// fifth street, sixth street at any table); sampled from a fresh stream before.
    fn stud_hvh_equity(&mut self, p: usize, street: Street) -> f64 {
        if let Some([e, _]) = self.memo(memo_key(MEMO_HVH, p, street)) {
            return e;
        }
        let d = self.deal;
        let known = street.cards_known();
        let mut used = d.dead;
        let mut hands = [CardSet::EMPTY; MAX_PLAYERS];
        for (q, slot) in hands[..d.players].iter_mut().enumerate() {
            *slot = d.hand_at(q, street);
            used = used.union(*slot);
        }
        let remaining = self.deck_without(used);
        let per_player = 7 - known;
        let n = d.players;
        if stud_equity::assignments(n, remaining.len(), per_player) <= stud_equity::STUD_EXACT_SHOWDOWNS {
            let mut shares = [0.0; MAX_PLAYERS];
            stud_equity::stud_equities(
                d.game,
                &hands[..n],
                &remaining,
                per_player,
                &mut self.scratch.stud,
                &mut shares,
            );
            for (q, &e) in shares[..n].iter().enumerate() {
                self.remember(memo_key(MEMO_HVH, q, street), [e, 0.0]);
            }
            return shares[p];
        }
        let mut rng = self.fresh_rng(0xE0, used);
        let samples = stud_equity::STUD_EQUITY_SAMPLES;
        let mut total = 0.0;
        let mut dealt = [CardSet::EMPTY; MAX_PLAYERS];
        for _ in 0..samples {
            let mut taken = CardSet::EMPTY;
            for (slot, &h) in dealt[..n].iter_mut().zip(&hands[..n]) {
                let extra = crate::analysis::draw_cards(&remaining, per_player, taken, &mut rng);
                taken = taken.union(extra);
                *slot = h.union(extra);
            }
            total += Showdown::new(d.game, &dealt[..n], CardSet::EMPTY).share(p);
        }
        total / f64::from(samples)
    }
}
