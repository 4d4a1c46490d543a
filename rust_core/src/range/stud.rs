//! Stud, stud8 and razz hands (PQL-SPEC §5.3), read the same way in both syntaxes.
//!
//! A hand lists positions in dealing order (two down, four up, one down); each is a card, a rank,
//! a ceiling `7-`, a floor `T+`, a list `[A,2,3]` or `*`; parentheses forbid the grouped cards
//! from sharing a rank. A hand stands for every suited assignment of its positions (distinct
//! cards, parentheses respected), positions not written stay open (`None`), and the two down
//! cards are unordered: the set is deduplicated with them sorted. Sampling uniformly over that set
//! is what makes `(3-2-)45678` and `(3-3-)45678` the same range. In `:` and `!` stud hands compare
//! position by position, open positions included.

use super::cursor::Cursor;
use super::expr::{self, SetOps};
use super::generic::{cards_of_ranks, cards_of_suit, parse_terms, RankOrder};
use super::{Range, Syntax};
use crate::cards::{parse_rank, parse_suit, Card, CardSet, Deck};
use crate::error::{PqlError, Span};
use crate::games::Game;
use std::collections::HashSet;

pub(crate) type StudHand = [Option<Card>; 7];

/// More suited hands than this in one range is an error: the set is held in memory.
const MAX_HANDS: usize = 3_000_000;

/// A set of stud hands, sorted and without duplicates.
#[derive(Clone, Debug, Default)]
struct StudSet(Vec<StudHand>);

impl StudSet {
    fn from_vec(mut v: Vec<StudHand>) -> StudSet {
        v.sort_unstable();
        v.dedup();
        StudSet(v)
    }
}

impl SetOps for StudSet {
    fn union_with(&mut self, o: &Self) {
        let mut v = std::mem::take(&mut self.0);
        v.extend_from_slice(&o.0);
        *self = StudSet::from_vec(v);
    }
    fn intersect_with(&mut self, o: &Self) {
        self.0.retain(|h| o.0.binary_search(h).is_ok());
    }
    fn minus_with(&mut self, o: &Self) {
        self.0.retain(|h| o.0.binary_search(h).is_err());
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

/// Every suited hand of one written stud hand.
fn expand(text: &str, offset: usize, game: Game) -> Result<StudSet, PqlError> {
    let span = Span::new(offset, offset + text.len());
    if text == "*" {
        return Ok(StudSet(vec![[None; 7]]));
    }
    let order = RankOrder { ace_low: game == Game::Razz };
    let mut r = Reader { text, pos: 0, offset, order, deck: game.deck() };
    let positions = r.positions()?;
    let mut out: Vec<StudHand> = Vec::new();
    let mut hand: StudHand = [None; 7];
    let mut too_many = false;
    fill(&positions, 0, CardSet::EMPTY, &mut hand, &mut out, &mut too_many);
    if too_many {
        return Err(PqlError::range(
            format!("the stud hand '{text}' stands for more than {MAX_HANDS} suited hands; fix more of its cards"),
            span,
        ));
    }
    Ok(StudSet::from_vec(out))
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

pub(crate) fn parse(text: &str, game: Game, syntax: Syntax) -> Result<Range, PqlError> {
    let parts = expr::parse(text, syntax == Syntax::Classic, true)?;
    let mut leaf = |span: Span| -> Result<StudSet, PqlError> {
        let t = &text[span.start..span.end];
        if t.starts_with(|c: char| c.is_ascii_digit()) && t.contains('%') {
            return Err(PqlError::range("percentages exist for flop games only", span));
        }
        expand(t, span.start, game)
    };
    let all = || StudSet(vec![[None; 7]]);
    let weighted = parts.iter().any(|p| p.weight.is_some());
    let mut sets = Vec::with_capacity(parts.len());
    for part in &parts {
        sets.push((expr::eval(&part.node, &mut leaf, &all)?, part.weight.unwrap_or(1)));
    }
    let mut all_hands: Vec<(StudHand, u32)> =
        sets.iter().flat_map(|(s, w)| s.0.iter().map(move |&h| (h, *w))).collect();
    // Duplicates keep the largest weight: sort by hand, heaviest first, keep the first of each.
    all_hands.sort_unstable_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
    all_hands.dedup_by(|a, b| a.0 == b.0);
    let full = !weighted && all_hands.len() == 1 && all_hands[0].0 == [None; 7];
    let weights = if weighted { all_hands.iter().map(|h| h.1).collect() } else { vec![1; all_hands.len()] };
    Ok(Range {
        game,
        flop: Vec::new(),
        stud: all_hands.into_iter().map(|h| h.0).collect(),
        weights,
        weighted,
        full,
        indices: Vec::new(),
        stud_index: None,
        cumulative: std::sync::OnceLock::new(),
    }
    .with_stud_index())
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
    use crate::sim::rng::Rng;

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
        let r = super::super::parse_range("As, *Kd, AK, (3-3-)4, **Q, 2c3c4c5c6c7c8c", game, Syntax::Classic).unwrap();
        let index = StudIndex::new(r.stud_hands());
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
            let want = scan(r.stud_hands(), dealt);
            hits += usize::from(want);
            assert_eq!(index.contains(dealt), want, "{dealt:?}");
        }
        assert!(hits > 1000, "{hits}");
    }
}
