//! One deal being evaluated: lazily computed, cached facts that several selectors share.

use super::deal::{Deal, MAX_PLAYERS};
use super::showdown::Showdown;
use super::source::HandSource;
use crate::cards::{Card, CardSet};
use crate::eval::{rate_hi, HiRating, LoRating, OmahaBoard, OmahaHole};
use crate::games::Street;
use std::collections::HashSet;

/// A set of concrete hands for `inRange`.
/// Stud equities on early streets are sampled (seven-card completions are too many to list).
pub const STUD_EQUITY_SAMPLES: u32 = 4000;
/// Sixth-street stud equities visit every way to deal the last cards up to this many.
pub const STUD_EXACT_ASSIGNMENTS: f64 = 50_000.0;

#[derive(Debug, Default)]
pub struct HandSet(pub HashSet<CardSet>);

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
    pub(crate) omaha: super::omaha_equity::OmahaScratch,
    pub(crate) holdem: super::holdem_equity::HoldemScratch,
    /// Reusable buffer for opponent holdings.
    pub(crate) holdings: Vec<crate::analysis::Holding>,
}

impl Default for Scratch {
    fn default() -> Self {
        Scratch {
            showdown: Showdown::new(crate::games::Game::Holdem, &[], CardSet::EMPTY),
            showdown_valid: false,
            hi: [[HiRating::NONE; 9]; MAX_PLAYERS],
            hi_valid: 0,
            memo: Vec::new(),
            omaha: super::omaha_equity::OmahaScratch::default(),
            holdem: super::holdem_equity::HoldemScratch::default(),
            holdings: Vec::new(),
        }
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

    /// A value computed earlier on this deal under `key`.
    pub(crate) fn memo(&self, key: u32) -> Option<[f64; 2]> {
        self.scratch.memo.iter().find(|(k, _)| *k == key).map(|(_, v)| *v)
    }

    pub(crate) fn remember(&mut self, key: u32, value: [f64; 2]) {
        self.scratch.memo.push((key, value));
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
        if super::omaha_equity::omaha_equities(d.game, hands, known_board, remaining, &mut s.omaha, &mut shares)
            || super::holdem_equity::holdem_equities(d.game, hands, known_board, remaining, &mut s.holdem, &mut shares)
        {
            for (q, &e) in shares[..d.players].iter().enumerate() {
                self.remember(memo_key(MEMO_HVH, q, street), [e, 0.0]);
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

    /// Stud: every way to complete every player's remaining cards is too many early on, so the
    /// completions are enumerated exactly from sixth street and sampled (fixed stream) before.
    fn stud_hvh_equity(&mut self, p: usize, street: Street) -> f64 {
        let d = self.deal;
        let known = street.cards_known();
        let mut used = d.dead;
        for q in 0..d.players {
            used = used.union(d.hand_at(q, street));
        }
        let remaining = self.deck_without(used);
        let per_player = 7 - known;
        // Sixth street: one card each, so every assignment can be visited when they are few.
        let assignments = (0..d.players).map(|q| (remaining.len() - q) as f64).product::<f64>();
        if per_player == 1 && assignments <= STUD_EXACT_ASSIGNMENTS {
            let mut hands = [CardSet::EMPTY; MAX_PLAYERS];
            for (q, slot) in hands[..d.players].iter_mut().enumerate() {
                *slot = d.hand_at(q, street);
            }
            let (mut total, mut n) = (0.0, 0u64);
            deal_one_each(&remaining, &mut hands[..d.players], 0, CardSet::EMPTY, &mut |hs| {
                total += Showdown::new(d.game, hs, CardSet::EMPTY).share(p);
                n += 1;
            });
            return if n == 0 { 0.0 } else { total / n as f64 };
        }
        let mut rng = super::rng::Rng::new(0x5EED, u64::from(used.bits().count_ones()) ^ used.bits());
        let samples = STUD_EQUITY_SAMPLES;
        let mut total = 0.0;
        let mut hands = [CardSet::EMPTY; MAX_PLAYERS];
        for _ in 0..samples {
            let mut taken = CardSet::EMPTY;
            for (q, slot) in hands[..d.players].iter_mut().enumerate() {
                let mut h = d.hand_at(q, street);
                for _ in 0..per_player {
                    loop {
                        let c = remaining[rng.below(remaining.len() as u64) as usize];
                        if !taken.contains(c) {
                            taken.insert(c);
                            h.insert(c);
                            break;
                        }
                    }
                }
                *slot = h;
            }
            total += Showdown::new(d.game, &hands[..d.players], CardSet::EMPTY).share(p);
        }
        total / f64::from(samples)
    }
}

/// Visits every way to give each of `hands` (from index `q`) one more card of `cards`, no card
/// twice.
fn deal_one_each(cards: &[Card], hands: &mut [CardSet], q: usize, taken: CardSet, f: &mut impl FnMut(&[CardSet])) {
    if q == hands.len() {
        f(hands);
        return;
    }
    for &c in cards.iter().filter(|&&c| !taken.contains(c)) {
        let before = hands[q];
        hands[q] = before.with(c);
        deal_one_each(cards, hands, q + 1, taken.with(c), f);
        hands[q] = before;
    }
}

/// Visits `base` plus every `k`-card combination of `cards`.
pub fn for_each_combination(cards: &[Card], k: usize, base: CardSet, f: &mut impl FnMut(CardSet)) {
    fn go(cards: &[Card], start: usize, k: usize, acc: CardSet, f: &mut impl FnMut(CardSet)) {
        if k == 0 {
            f(acc);
            return;
        }
        if cards.len() < k {
            return;
        }
        for i in start..=cards.len() - k {
            go(cards, i + 1, k - 1, acc.with(cards[i]), f);
        }
    }
    go(cards, 0, k, base, f);
}
