//! Stud, stud8 and razz hands (docs/language/ranges.md, stud hands), read the same way in both syntaxes.
//!
//! A hand lists positions in dealing order (two down, four up, one down); each is a card, a rank,
//! a ceiling `7-`, a floor `T+`, a list `[A,2,3]` or `*`; parentheses forbid the grouped cards
//! from sharing a rank. A hand stands for every suited assignment of its positions (distinct
//! cards, parentheses respected), positions not written stay open (`None`), and the two down
//! cards are unordered: the set is deduplicated with them sorted. Sampling uniformly over that set
//! is what makes `(3-2-)45678` and `(3-3-)45678` the same range.
//!
//! Every hand of a set fixes the same positions (the set's mask), and the two down cards are
//! fixed together or not at all. Then two different entries never stand for a common dealt hand,
//! and every entry completes to the same number of deals, so uniform over entries is uniform over
//! the dealt hands the range stands for. Combining sets that fix different positions (`A, AK`,
//! `*:AK`, `A!AK`) first completes each to the positions either fixes, entry by entry over the
//! deck ("refinement"); a set that fixes nothing is `*`, every hand, and combines without it.

use super::cursor::Cursor;
use super::expr::{self, SetOps};
use super::generic::{cards_of_ranks, cards_of_suit, parse_terms, RankOrder};
use super::{NamedLeaf, Range, Syntax, WEIGHT_FULL};
use crate::cards::{parse_rank, parse_suit, Card, CardSet, Deck};
use crate::error::{excerpt, PqlError, Span};
use crate::games::Game;
use std::collections::HashSet;

pub(crate) type StudHand = [Option<Card>; 7];

use crate::limits::{RANGE_MAX_WORK, STUD_MAX_HANDS as MAX_HANDS};

/// Both down cards (positions 0 and 1).
const DOWN: u8 = 0b11;

/// A set of stud hands, sorted and without duplicates, every one fixing exactly the positions in
/// `mask` (down cards both or neither). `mask == 0` with one entry is every hand.
#[derive(Clone, Debug)]
struct StudSet {
    mask: u8,
    hands: Vec<StudHand>,
    deck: CardSet,
}

fn too_many() -> String {
    format!(
        "completing these hands to the same cards gives more than {MAX_HANDS} suited hands: fix the same \
         positions in every part (each part is completed to the cards the others fix)"
    )
}

impl StudSet {
    fn new(mask: u8, mut hands: Vec<StudHand>, deck: CardSet) -> StudSet {
        hands.sort_unstable();
        hands.dedup();
        StudSet { mask, hands, deck }
    }

    fn full(deck: CardSet) -> StudSet {
        StudSet { mask: 0, hands: vec![[None; 7]], deck }
    }

    fn is_full(&self) -> bool {
        self.mask == 0 && !self.hands.is_empty()
    }

    /// Completes every hand to fix the positions of `mask` too: each newly fixed position takes
    /// every deck card the hand does not hold (the down cards as unordered pairs).
    fn refine(&mut self, mask: u8) -> Result<(), String> {
        let new = mask & !self.mask;
        if new == 0 {
            return Ok(());
        }
        let mut out = Vec::new();
        for h in &self.hands {
            let used: CardSet = h.iter().flatten().copied().collect();
            complete(*h, new, 0, self.deck.minus(used), &mut out)?;
        }
        *self = StudSet::new(self.mask | new, out, self.deck);
        Ok(())
    }

    /// Whether `h` (fixing at least this set's positions) is in the set.
    fn holds(&self, h: &StudHand) -> bool {
        self.hands.binary_search(&project(h, self.mask)).is_ok()
    }

    /// The number of entries refining `self` to `mask` would give, roughly (for choosing which
    /// side of an intersection to refine).
    fn refined_size(&self, mask: u8) -> f64 {
        let new = mask & !self.mask;
        let n = f64::from(self.deck.len());
        let per = |bits: u8| f64::from(bits.count_ones());
        self.hands.len() as f64 * if new & DOWN != 0 { n * n / 2.0 } else { 1.0 } * n.powf(per(new & !DOWN))
    }

    /// Keeps the hands for which "`o` holds it" is `keep`, `self` refined to fix `o`'s positions
    /// too (so each hand is tested by its projection on them).
    fn filter_by(&mut self, o: &StudSet, keep: bool) -> Result<(), String> {
        self.refine(o.mask)?;
        self.hands.retain(|h| o.holds(h) == keep);
        Ok(())
    }
}

/// `h` with only the positions of `mask` kept.
fn project(h: &StudHand, mask: u8) -> StudHand {
    let mut p = *h;
    for (i, c) in p.iter_mut().enumerate() {
        if mask & 1 << i == 0 {
            *c = None;
        }
    }
    p
}

/// Every completion of `h` on the positions of `new` from index `i` on, with cards of `free`.
fn complete(mut h: StudHand, new: u8, i: usize, free: CardSet, out: &mut Vec<StudHand>) -> Result<(), String> {
    if i == 7 {
        if out.len() >= MAX_HANDS {
            return Err(too_many());
        }
        out.push(h);
        return Ok(());
    }
    if i == 0 && new & DOWN != 0 {
        // The down cards as an unordered pair, lower card first (as `normalize` keeps them).
        for a in free {
            for b in free.iter().filter(|b| b.index() > a.index()) {
                h[0] = Some(a);
                h[1] = Some(b);
                complete(h, new, 2, free.minus(CardSet::from_cards([a, b])), out)?;
            }
        }
        return Ok(());
    }
    if new & 1 << i == 0 {
        return complete(h, new, i + 1, free, out);
    }
    for c in free {
        h[i] = Some(c);
        complete(h, new, i + 1, free.minus(CardSet::EMPTY.with(c)), out)?;
    }
    Ok(())
}

impl SetOps for StudSet {
    fn union_with(&mut self, o: &Self) -> Result<(), String> {
        if o.hands.is_empty() || self.is_full() {
            return Ok(());
        }
        if self.hands.is_empty() || o.is_full() {
            *self = o.clone();
            return Ok(());
        }
        let mut o = o.clone();
        self.refine(o.mask)?;
        o.refine(self.mask)?;
        let mut v = std::mem::take(&mut self.hands);
        v.extend_from_slice(&o.hands);
        *self = StudSet::new(self.mask, v, self.deck);
        Ok(())
    }
    fn intersect_with(&mut self, o: &Self) -> Result<(), String> {
        if self.hands.is_empty() || o.is_full() {
            return Ok(());
        }
        if o.hands.is_empty() || self.is_full() {
            *self = o.clone();
            return Ok(());
        }
        // Refine the side that stays smaller, and test its hands against the other.
        let mask = self.mask | o.mask;
        if o.refined_size(mask) < self.refined_size(mask) {
            let mut other = o.clone();
            other.filter_by(self, true)?;
            *self = other;
            Ok(())
        } else {
            self.filter_by(o, true)
        }
    }
    fn minus_with(&mut self, o: &Self) -> Result<(), String> {
        if self.hands.is_empty() || o.hands.is_empty() {
            return Ok(());
        }
        if o.is_full() {
            self.hands.clear();
            return Ok(());
        }
        self.filter_by(o, false)
    }
    const BATCHED_UNION: bool = true;
    fn union_all(sets: Vec<Self>) -> Result<Self, String> {
        // One sort for the whole union, not one per operand.
        let deck = sets[0].deck;
        if sets.iter().any(StudSet::is_full) {
            return Ok(StudSet::full(deck));
        }
        let mut sets: Vec<StudSet> = sets.into_iter().filter(|s| !s.hands.is_empty()).collect();
        let mask = sets.iter().fold(0u8, |m, s| m | s.mask);
        let mut hands = Vec::new();
        for set in &mut sets {
            set.refine(mask)?;
            hands.extend_from_slice(&set.hands);
            if hands.len() > 4 * MAX_HANDS {
                return Err(too_many());
            }
        }
        Ok(StudSet::new(mask, hands, deck))
    }
    fn words(&self) -> usize {
        self.hands.len()
    }
}

/// The two down cards in a fixed order (known cards first, by card), so that equal hands compare
/// equal whichever way the down cards were written.
fn normalize(mut h: StudHand) -> StudHand {
    let key = |c: Option<Card>| c.map_or(u16::MAX, |c| u16::from(c.index()));
    if key(h[1]) < key(h[0]) {
        h.swap(0, 1);
    }
    h
}

/// One written position: its cards, or `None` for `*`.
struct Position {
    cards: Option<CardSet>,
    group: Option<usize>,
}

struct Reader<'a> {
    text: &'a str,
    pos: usize,
    offset: usize,
    order: RankOrder,
    deck: Deck,
}

impl Cursor for Reader<'_> {
    fn cursor(&self) -> (&str, usize, usize) {
        (self.text, self.pos, self.offset)
    }
}

impl Reader<'_> {
    fn positions(&mut self) -> Result<Vec<Position>, PqlError> {
        let mut out = Vec::new();
        let mut groups = 0;
        while let Some(c) = self.peek() {
            if c == '(' {
                let open = self.span_here();
                self.pos += 1;
                let g = groups;
                groups += 1;
                while self.peek().is_some_and(|c| c != ')') {
                    out.push(Position { cards: self.position()?, group: Some(g) });
                }
                if self.peek() != Some(')') {
                    return Err(PqlError::range("unclosed '(' in a stud hand", open));
                }
                self.pos += 1;
            } else {
                out.push(Position { cards: self.position()?, group: None });
            }
            if out.len() > 7 {
                return Err(PqlError::range(
                    "a stud hand has at most 7 cards",
                    Span::new(self.offset, self.offset + self.text.len()),
                ));
            }
        }
        Ok(out)
    }

    fn position(&mut self) -> Result<Option<CardSet>, PqlError> {
        let Some(c) = self.peek() else { return Err(self.err_here("a card")) };
        if c == '*' {
            self.pos += 1;
            return Ok(None);
        }
        if c == '[' {
            let start = self.pos;
            let end = self.text[start..]
                .find(']')
                .map(|i| start + i + 1)
                .ok_or_else(|| PqlError::range("unclosed '['", self.span_here()))?;
            let span = Span::new(self.offset + start, self.offset + end);
            let terms = parse_terms(&self.text[start..end], self.offset + start, self.order, self.deck)?;
            self.pos = end;
            return match terms.as_slice() {
                [t] => Ok(Some(
                    t.single_slot_cards()
                        .ok_or_else(|| PqlError::range("a list fills one card of a stud hand", span))?,
                )),
                _ => Err(PqlError::range("a list fills one card of a stud hand", span)),
            };
        }
        if c == '1' && self.text[self.pos..].starts_with("10") {
            return Err(PqlError::range("'10' is not a rank: write T for ten", self.span_here()));
        }
        let Some(rank) = parse_rank(c) else {
            return Err(self.err_here("a rank (A K Q J T 9-2), '*', '[' or '('"));
        };
        self.pos += 1;
        let mut cards = cards_of_ranks(1 << rank);
        let mut suit = None;
        if let Some(s) = self.peek().and_then(parse_suit) {
            self.pos += 1;
            suit = Some(s);
        }
        match self.peek() {
            Some('-') => {
                self.pos += 1;
                cards = cards_of_ranks(self.order.between(rank, self.order.rank(0)));
            }
            Some('+') => {
                self.pos += 1;
                cards = cards_of_ranks(self.order.between(rank, self.order.rank(12)));
            }
            _ => {}
        }
        if let Some(s) = suit {
            cards = cards.intersect(cards_of_suit(s));
        }
        Ok(Some(cards.intersect(self.deck.cards())))
    }
}

/// Every suited hand of one written stud hand, fixing the positions written with cards (both
/// down cards when either is written: a `*` beside a written down card is then every card).
fn expand(text: &str, offset: usize, game: Game) -> Result<StudSet, PqlError> {
    let span = Span::new(offset, offset + text.len());
    let deck = game.deck().cards();
    if text == "*" {
        return Ok(StudSet::full(deck));
    }
    let order = RankOrder { ace_low: game == Game::Razz };
    let mut r = Reader { text, pos: 0, offset, order, deck: game.deck() };
    let mut positions = r.positions()?;
    let mut mask = positions.iter().enumerate().filter(|(_, p)| p.cards.is_some()).fold(0u8, |m, (i, _)| m | 1 << i);
    if mask & DOWN != 0 {
        mask |= DOWN;
        while positions.len() < 2 {
            positions.push(Position { cards: None, group: None });
        }
    }
    for (i, p) in positions.iter_mut().enumerate() {
        if mask & 1 << i != 0 && p.cards.is_none() {
            p.cards = Some(deck);
        }
    }
    let mut out: Vec<StudHand> = Vec::new();
    let mut hand: StudHand = [None; 7];
    let mut too_many = false;
    fill(&positions, 0, CardSet::EMPTY, &mut hand, &mut out, &mut too_many);
    if too_many {
        return Err(PqlError::range(
            format!(
                "the stud hand '{}' stands for more than {MAX_HANDS} suited hands; fix more of its cards",
                excerpt(text)
            ),
            span,
        ));
    }
    Ok(StudSet::new(mask, out, deck))
}

fn fill(ps: &[Position], i: usize, used: CardSet, hand: &mut StudHand, out: &mut Vec<StudHand>, too_many: &mut bool) {
    if *too_many {
        return;
    }
    let Some(p) = ps.get(i) else {
        if out.len() >= MAX_HANDS {
            *too_many = true;
        } else {
            out.push(normalize(*hand));
        }
        return;
    };
    let Some(cards) = p.cards else {
        hand[i] = None;
        fill(ps, i + 1, used, hand, out, too_many);
        return;
    };
    // Ranks already taken by earlier cards of the same parenthesised group.
    let taken = p.group.map_or(0u16, |g| {
        (0..i).filter(|&j| ps[j].group == Some(g)).filter_map(|j| hand[j]).fold(0u16, |m, c| m | 1 << c.rank())
    });
    for c in cards.minus(used).minus(cards_of_ranks(taken)) {
        hand[i] = Some(c);
        fill(ps, i + 1, used.with(c), hand, out, too_many);
    }
    hand[i] = None;
}

pub(crate) fn parse(text: &str, game: Game, syntax: Syntax, named: &mut NamedLeaf<'_>) -> Result<Range, PqlError> {
    let parts = expr::parse(text, syntax == Syntax::Classic, true)?;
    let deck = game.deck().cards();
    let mut memo = expr::LeafMemo::new(text);
    // The work of reading the range, in hands made and combined, bounded by RANGE_MAX_WORK.
    let mut made = 0u64;
    let mut leaf = |span: Span| {
        if let Some(range) = named(&text[span.start..span.end], span) {
            // Combined with other leaves, a named range counts by its hands (not its weights).
            let range = range?;
            return Ok(StudSet::new(range.stud_positions(), range.stud_hands().to_vec(), deck));
        }
        let set = memo.get(span, |span| read_leaf(text, span, game))?;
        made += set.hands.len() as u64;
        if made > RANGE_MAX_WORK {
            return Err(super::too_costly(game, span));
        }
        Ok(set)
    };
    let all = || StudSet::full(deck);
    let weighted = parts.iter().any(|p| p.weight.is_some());
    let mut sets = Vec::with_capacity(parts.len());
    for part in &parts {
        let set = expr::eval(&part.node, &mut leaf, &all)?;
        // A part without a weight has full weight; one of weight 0 adds no hand.
        let weight = part.weight.unwrap_or(WEIGHT_FULL);
        if weight > 0 {
            sets.push((set, weight, part.span));
        }
    }
    if !weighted && sets.iter().any(|s| s.0.is_full()) {
        return Ok(stud_range(game, vec![([None; 7], WEIGHT_FULL)], false));
    }
    // Every part completed to the positions any part fixes, so that the hands are comparable.
    let mask = sets.iter().filter(|s| !s.0.hands.is_empty()).fold(0u8, |m, s| m | s.0.mask);
    let mut all_hands: Vec<(StudHand, u32)> = Vec::new();
    for (set, w, span) in &mut sets {
        if set.hands.is_empty() {
            continue;
        }
        set.refine(mask).map_err(|m| PqlError::range(m, *span))?;
        all_hands.extend(set.hands.iter().map(|&h| (h, *w)));
        if all_hands.len() > 4 * MAX_HANDS {
            return Err(PqlError::range(too_many(), *span));
        }
    }
    // Duplicates keep the largest weight: sort by hand, heaviest first, keep the first of each.
    all_hands.sort_unstable_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
    all_hands.dedup_by(|a, b| a.0 == b.0);
    Ok(stud_range(game, all_hands, weighted))
}

/// The hands of one leaf of a stud range.
fn read_leaf(text: &str, span: Span, game: Game) -> Result<StudSet, PqlError> {
    {
        let t = &text[span.start..span.end];
        if t.starts_with(|c: char| c.is_ascii_digit()) && t.contains('%') {
            return Err(PqlError::range("percentages exist for flop games only", span));
        }
        if let Some(e) = super::worded_span_error(t, span.start, game) {
            return Err(e);
        }
        super::spaced::read_leaf(t, span.start, |t, offset| expand(t, offset, game))
    }
}

fn stud_range(game: Game, hands: Vec<(StudHand, u32)>, weighted: bool) -> Range {
    let full = !weighted && hands.len() == 1 && hands[0].0 == [None; 7];
    let fine: Vec<u32> = hands.iter().map(|h| if weighted { h.1 } else { WEIGHT_FULL }).collect();
    let (weights, unit) = super::relative(fine, weighted);
    Range {
        game,
        flop: Vec::new(),
        stud: hands.into_iter().map(|h| h.0).collect(),
        unit,
        weights,
        weighted,
        full,
        indices: Vec::new(),
        stud_index: None,
        cumulative: std::sync::OnceLock::new(),
    }
    .with_stud_index()
}

/// Stud hands grouped by which positions they fix, each group a hash set of those cards, so that
/// `inRange` on a dealt hand costs a few lookups instead of a scan of the range.
#[derive(Clone, Debug, Default)]
pub(crate) struct StudIndex {
    groups: Vec<(u8, HashSet<[u8; 7]>)>,
}

const OPEN: u8 = u8::MAX;

fn known_mask(h: &StudHand) -> u8 {
    h.iter().enumerate().fold(0u8, |m, (i, c)| if c.is_some() { m | 1 << i } else { m })
}

impl StudIndex {
    pub fn new(hands: &[StudHand]) -> StudIndex {
        let mut groups: Vec<(u8, HashSet<[u8; 7]>)> = Vec::new();
        for h in hands {
            let mask = known_mask(h);
            let key = h.map(|c| c.map_or(OPEN, Card::index));
            match groups.iter_mut().find(|g| g.0 == mask) {
                Some(g) => {
                    g.1.insert(key);
                }
                None => groups.push((mask, HashSet::from([key]))),
            }
        }
        StudIndex { groups }
    }

    /// Whether dealt `cards` (dealing order, possibly fewer than seven) are one of the hands.
    pub fn contains(&self, cards: &[Card]) -> bool {
        self.groups.iter().any(|(mask, set)| {
            if (0..7).any(|i| mask & 1 << i != 0 && i >= cards.len()) {
                return false;
            }
            let mut key = [OPEN; 7];
            for i in 2..7 {
                if mask & 1 << i != 0 {
                    key[i] = cards[i].index();
                }
            }
            // Hands keep their known down cards first, in increasing card order.
            match mask & 3 {
                3 => {
                    let (a, b) = (cards[0].index(), cards[1].index());
                    (key[0], key[1]) = (a.min(b), a.max(b));
                    set.contains(&key)
                }
                1 => [cards[0], cards[1]].iter().any(|c| {
                    key[0] = c.index();
                    set.contains(&key)
                }),
                _ => set.contains(&key),
            }
        })
    }
}

/// The hand in dealing order, `*` where open; known down cards higher rank first (`AsKs*****`).
pub(crate) fn hand_string(hand: &StudHand) -> String {
    let mut h = *hand;
    if let (Some(a), Some(b)) = (h[0], h[1]) {
        if (b.rank(), b.suit()) > (a.rank(), a.suit()) {
            h.swap(0, 1);
        }
    }
    h.iter().map(|c| c.map_or("*".to_string(), |c| c.to_string())).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    /// The plain definition: positions 2..7 equal where known, the down cards either way round.
    fn scan(hands: &[StudHand], cards: &[Card]) -> bool {
        let at = |i: usize, want: Option<Card>| want.is_none_or(|w| cards.get(i) == Some(&w));
        hands
            .iter()
            .any(|h| (2..7).all(|i| at(i, h[i])) && ((at(0, h[0]) && at(1, h[1])) || (at(0, h[1]) && at(1, h[0]))))
    }

    #[test]
    fn the_index_agrees_with_the_definition() {
        let game = Game::StudHi;
        // Hands fixing different positions: one range fixes one set of positions, so several.
        let hands: Vec<StudHand> = ["As", "*Kd", "AK", "(3-3-)4", "**Q", "2c3c4c5c6c7c8c", "***Jh"]
            .iter()
            .flat_map(|t| super::super::parse_range(t, game, Syntax::Classic).unwrap().stud_hands().to_vec())
            .collect();
        let index = StudIndex::new(&hands);
        let deck: Vec<Card> = game.deck().cards().iter().collect();
        let mut rng = Rng::new(3, 0);
        let mut hits = 0;
        for n in 0..20_000 {
            let mut d = deck.clone();
            for i in 0..7 {
                let j = i + rng.below((d.len() - i) as u64) as usize;
                d.swap(i, j);
            }
            let len = 3 + n % 5;
            let dealt = &d[..len];
            let want = scan(&hands, dealt);
            hits += usize::from(want);
            assert_eq!(index.contains(dealt), want, "{dealt:?}");
        }
        assert!(hits > 1000, "{hits}");
    }
}
