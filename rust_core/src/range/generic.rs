//! The generic syntax (docs/language/ranges.md, the generic syntax): terms of card slots with ranks, suits, rank and suit
//! variables, spans, lists and macros, compiled into `matcher::Term`s.
//!
//! Letters are case-insensitive (`r` is `R`, `S` is spades) except the suit variables, which are
//! the lower-case `w x y z` of the spec: `W X Y Z` are rank variables like any other letter.
//!
//! Decisions where the spec is silent:
//! "a value written explicitly" is a single rank or suit of a slot (`A`, `Ks`), not the members of
//! a span or list, so `[A-K]R` lets R be a queen but `AR` never lets R be an ace; an unbracketed
//! `+`/`-` on a term of several cards is a lockstep span (`AT+` is only AT: write `A[T+]` for a
//! kicker span); a suit after a bracket applies to the whole list (`[A-T]s`).

use super::cursor::Cursor;
use super::matcher::{Slot, Term, NO_VAR};
use crate::cards::{parse_rank, parse_suit, CardSet, Deck, Rank, Suit, ACE};
use crate::error::{PqlError, Span};

/// How a leaf of a generic range reads.
#[derive(Clone, Debug)]
pub(crate) enum Leaf {
    /// A lone `*`: every hand.
    All,
    /// `15%`, `5%-10%`, `15%6h`: positions in the game's ordering, in percent.
    Percent { from: f64, to: f64, six_max: bool },
    /// A union of terms (a lockstep span expands to several).
    Terms(Vec<Term>),
}

/// What a `$ds`-style suffix does to the leaf before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FilterOp {
    Inter,
    Minus,
}

/// A leaf with the suffix macros that follow it (`AA$ds$np`).
#[derive(Clone, Debug)]
pub(crate) struct FilteredLeaf {
    pub leaf: Leaf,
    /// Each macro's operation, pattern and name (`$ds`).
    pub filters: Vec<(FilterOp, Term, &'static str)>,
}

/// One slot as written, before variables are resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RankPart {
    Any,
    Exact(Rank),
    /// A span or list: the allowed cards directly (suits may already be fixed by the list).
    Cards(CardSet),
    Var(u8),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SuitPart {
    Any,
    Exact(Suit),
    Var(u8),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct SlotSpec {
    rank: RankPart,
    suit: SuitPart,
}

/// The order of ranks in spans: aces high, or low in razz.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RankOrder {
    pub ace_low: bool,
}

impl RankOrder {
    pub fn ordinal(self, r: Rank) -> u8 {
        if self.ace_low {
            if r == ACE {
                0
            } else {
                r + 1
            }
        } else {
            r
        }
    }
    pub fn rank(self, ordinal: u8) -> Rank {
        if self.ace_low {
            if ordinal == 0 {
                ACE
            } else {
                ordinal - 1
            }
        } else {
            ordinal
        }
    }
    /// Every rank between `a` and `b` inclusive in this order, as a rank mask.
    pub fn between(self, a: Rank, b: Rank) -> u16 {
        let (lo, hi) = {
            let (x, y) = (self.ordinal(a), self.ordinal(b));
            (x.min(y), x.max(y))
        };
        (lo..=hi).fold(0u16, |m, o| m | 1 << self.rank(o))
    }
}

/// Cards of any suit whose rank is in `mask`.
pub(crate) fn cards_of_ranks(mask: u16) -> CardSet {
    let m = u64::from(mask);
    CardSet::from_bits(m | m << 16 | m << 32 | m << 48)
}

pub(crate) fn cards_of_suit(suit: Suit) -> CardSet {
    CardSet::from_bits(0x1FFFu64 << (16 * suit as u32))
}

fn is_suit_var(c: char) -> bool {
    matches!(c, 'w' | 'x' | 'y' | 'z')
}

fn is_rank_var(c: char) -> bool {
    c.is_ascii_alphabetic() && parse_rank(c).is_none() && parse_suit(c).is_none() && !is_suit_var(c)
}

/// Reads one generic leaf; spans in errors are shifted by `offset` into the range text.
pub(crate) struct TermParser<'a> {
    text: &'a str,
    pos: usize,
    offset: usize,
    order: RankOrder,
    deck: Deck,
    rank_vars: Vec<char>,
    suit_vars: Vec<char>,
}

/// What may follow a card slot, for error messages.
const SLOT_EXPECTED: &str = "a rank (A K Q J T 9-2), a suit (s, h, d, c), a variable, '*' or '['";

impl Cursor for TermParser<'_> {
    fn cursor(&self) -> (&str, usize, usize) {
        (self.text, self.pos, self.offset)
    }
}

impl<'a> TermParser<'a> {
    pub fn new(text: &'a str, offset: usize, order: RankOrder, deck: Deck) -> TermParser<'a> {
        TermParser { text, pos: 0, offset, order, deck, rank_vars: Vec::new(), suit_vars: Vec::new() }
    }

    fn rank_var(&mut self, c: char) -> u8 {
        let c = c.to_ascii_uppercase();
        if let Some(i) = self.rank_vars.iter().position(|&v| v == c) {
            return i as u8;
        }
        self.rank_vars.push(c);
        (self.rank_vars.len() - 1) as u8
    }

    fn suit_var(&mut self, c: char) -> u8 {
        if let Some(i) = self.suit_vars.iter().position(|&v| v == c) {
            return i as u8;
        }
        self.suit_vars.push(c);
        (self.suit_vars.len() - 1) as u8
    }

    /// The whole leaf.
    pub fn parse_leaf(&mut self) -> Result<FilteredLeaf, PqlError> {
        let leaf = if self.text == "*" {
            self.pos = 1;
            Leaf::All
        } else if self.peek().is_some_and(|c| c.is_ascii_digit() || c == '.') && self.text.contains('%') {
            self.percent()?
        } else if let Some(terms) = self.rundown_macro() {
            Leaf::Terms(terms)
        } else {
            Leaf::Terms(self.spanned_terms()?)
        };
        let mut filters = Vec::new();
        while self.peek() == Some('$') {
            filters.push(self.filter_macro()?);
        }
        if self.pos < self.text.len() {
            return Err(self.err_here(SLOT_EXPECTED));
        }
        Ok(FilteredLeaf { leaf, filters })
    }

    fn number(&mut self) -> Result<f64, PqlError> {
        let start = self.pos;
        while self.peek().is_some_and(|c| c.is_ascii_digit() || c == '.') {
            self.pos += 1;
        }
        let span = Span::new(self.offset + start, self.offset + self.pos);
        self.text[start..self.pos]
            .parse::<f64>()
            .map_err(|_| PqlError::range("expected a percentage such as 15%", span))
    }

    fn percent(&mut self) -> Result<Leaf, PqlError> {
        let start = self.pos;
        let mut from = 0.0;
        let mut to = self.number()?;
        if self.peek() != Some('%') {
            return Err(self.err_here("'%'"));
        }
        self.pos += 1;
        if self.peek() == Some('-') {
            self.pos += 1;
            from = to;
            to = self.number()?;
            if self.peek() != Some('%') {
                return Err(self.err_here("'%'"));
            }
            self.pos += 1;
        }
        let mut six_max = false;
        if self.text[self.pos..].to_ascii_lowercase().starts_with("6h") {
            six_max = true;
            self.pos += 2;
        }
        let span = Span::new(self.offset + start, self.offset + self.pos);
        if !(0.0..=100.0).contains(&from) || !(0.0..=100.0).contains(&to) || from > to {
            return Err(PqlError::range("percentages run from 0% to 100%, the smaller first", span));
        }
        Ok(Leaf::Percent { from, to, six_max })
    }

    /// `$0G`, `$1G`, `$2G`: four-card rundowns with no gap, one one-rank gap, two one-rank gaps.
    fn rundown_macro(&mut self) -> Option<Vec<Term>> {
        let head = self.text[self.pos..].get(..3)?;
        let name = ["$0G", "$1G", "$2G"].into_iter().position(|m| head.eq_ignore_ascii_case(m))?;
        self.pos += 3;
        let steps: &[[u8; 3]] = match name {
            0 => &[[1, 1, 1]],
            1 => &[[1, 1, 2], [1, 2, 1], [2, 1, 1]],
            _ => &[[1, 2, 2], [2, 1, 2], [2, 2, 1]],
        };
        let mut terms = Vec::new();
        for s in steps {
            let width = s.iter().sum::<u8>();
            for low in 0..=(12 - width) {
                let ranks = [low, low + s[0], low + s[0] + s[1], low + width];
                let slots: Vec<SlotSpec> =
                    ranks.iter().map(|&r| SlotSpec { rank: RankPart::Exact(r), suit: SuitPart::Any }).collect();
                terms.push(self.compile(&slots));
            }
        }
        Some(terms)
    }

    fn filter_macro(&mut self) -> Result<(FilterOp, Term, &'static str), PqlError> {
        let rest = &self.text[self.pos..];
        let span = Span::new(self.offset + self.pos, self.offset + self.pos + rest.len().min(3));
        let name = rest.get(..3).unwrap_or(rest).to_ascii_lowercase();
        let (op, pattern, name) = match name.as_str() {
            "$ds" => (FilterOp::Inter, "xxyy", "$ds"),
            "$ss" => (FilterOp::Inter, "xxyz", "$ss"),
            "$np" => (FilterOp::Minus, "RR", "$np"),
            "$op" => (FilterOp::Inter, "RRON", "$op"),
            "$tp" => (FilterOp::Inter, "RROO", "$tp"),
            "$nt" => (FilterOp::Minus, "RRR", "$nt"),
            _ => {
                return Err(PqlError::range(
                    "unknown macro: expected $ds, $ss, $np, $op, $tp or $nt after a hand",
                    span,
                ))
            }
        };
        self.pos += 3;
        let mut inner = TermParser::new(pattern, 0, self.order, self.deck);
        let slots = inner.slots()?;
        Ok((op, inner.compile(&slots), name))
    }

    /// Slots, then an optional span suffix: `+`, `-`, or `-` and the other end.
    fn spanned_terms(&mut self) -> Result<Vec<Term>, PqlError> {
        let start = self.pos;
        let first = self.slots()?;
        let first_span = Span::new(self.offset + start, self.offset + self.pos);
        match self.peek() {
            Some('+') => {
                self.pos += 1;
                self.open_span(&first, true, first_span)
            }
            Some('-') => {
                self.pos += 1;
                if self.peek().is_none_or(|c| c == '$') {
                    return self.open_span(&first, false, first_span);
                }
                let second_start = self.pos;
                let second = self.slots()?;
                let span = Span::new(self.offset + start, self.offset + self.pos);
                let second_span = Span::new(self.offset + second_start, self.offset + self.pos);
                self.closed_span(&first, &second, span, second_span)
            }
            _ => Ok(vec![self.compile(&first)]),
        }
    }

    /// `T+`, `7-`, `5c-` on one slot; `9876-`, `76c+` in lockstep on several.
    fn open_span(&mut self, slots: &[SlotSpec], up: bool, span: Span) -> Result<Vec<Term>, PqlError> {
        if let [one] = slots {
            let RankPart::Exact(r) = one.rank else {
                return Err(PqlError::range("a span needs an explicit rank such as T+ or 7-", span));
            };
            let end = if up { self.order.rank(12) } else { self.order.rank(0) };
            let spec = SlotSpec { rank: RankPart::Cards(self.span_cards(r, end, one.suit)), suit: one.suit };
            return Ok(vec![self.compile(&[spec])]);
        }
        let ords: Vec<u8> = slots
            .iter()
            .filter_map(|s| match s.rank {
                RankPart::Exact(r) => Some(self.order.ordinal(r)),
                _ => None,
            })
            .collect();
        if ords.is_empty() {
            return Err(PqlError::range("a span needs explicit ranks such as 9876- or 76+", span));
        }
        let lowest = if self.order.ace_low { 0 } else { self.deck.lowest_rank() };
        let (max, min) =
            (*ords.iter().max().expect("ords is not empty"), *ords.iter().min().expect("ords is not empty"));
        let steps: Vec<i32> = if up {
            (0..=i32::from(12 - max)).collect()
        } else {
            (0..=i32::from(min.saturating_sub(lowest))).map(|d| -d).collect()
        };
        Ok(steps.into_iter().map(|d| self.compile(&self.shifted(slots, d))).collect())
    }

    /// `A-Q`, `5c-2c` on one slot; `TT-77`, `KQ-T9`, `T8-53` in lockstep.
    fn closed_span(&mut self, a: &[SlotSpec], b: &[SlotSpec], span: Span, b_span: Span) -> Result<Vec<Term>, PqlError> {
        if let ([x], [y]) = (a, b) {
            if let (RankPart::Exact(r1), RankPart::Exact(r2)) = (x.rank, y.rank) {
                if x.suit != y.suit {
                    return Err(PqlError::range("both ends of a span need the same suit", span));
                }
                let spec = SlotSpec { rank: RankPart::Cards(self.span_cards(r1, r2, x.suit)), suit: x.suit };
                return Ok(vec![self.compile(&[spec])]);
            }
            return Err(PqlError::range("a span needs explicit ranks at both ends, such as A-Q", span));
        }
        let shape_error = || {
            PqlError::range("both ends of a span need the same shape and the same distance on every card", b_span)
                .with_hint("e.g. TT-77, KQ-T9, T8-53")
        };
        if a.len() != b.len() {
            return Err(shape_error());
        }
        let mut delta: Option<i32> = None;
        for (x, y) in a.iter().zip(b) {
            if x.suit != y.suit {
                return Err(shape_error());
            }
            match (x.rank, y.rank) {
                (RankPart::Exact(r1), RankPart::Exact(r2)) => {
                    let d = i32::from(self.order.ordinal(r2)) - i32::from(self.order.ordinal(r1));
                    if delta.is_some_and(|e| e != d) {
                        return Err(shape_error());
                    }
                    delta = Some(d);
                }
                (p, q) if p == q => {}
                _ => return Err(shape_error()),
            }
        }
        let Some(delta) = delta else {
            return Err(PqlError::range("a span needs explicit ranks such as TT-77", span));
        };
        let step = delta.signum();
        let mut terms = Vec::new();
        let mut d = 0;
        loop {
            terms.push(self.compile(&self.shifted(a, d)));
            if d == delta {
                break;
            }
            d += step;
        }
        Ok(terms)
    }

    fn span_cards(&self, a: Rank, b: Rank, suit: SuitPart) -> CardSet {
        let cards = cards_of_ranks(self.order.between(a, b));
        match suit {
            SuitPart::Exact(s) => cards.intersect(cards_of_suit(s)),
            _ => cards,
        }
    }

    fn shifted(&self, slots: &[SlotSpec], d: i32) -> Vec<SlotSpec> {
        slots
            .iter()
            .map(|s| match s.rank {
                RankPart::Exact(r) => {
                    let o = (i32::from(self.order.ordinal(r)) + d).clamp(0, 12) as u8;
                    SlotSpec { rank: RankPart::Exact(self.order.rank(o)), suit: s.suit }
                }
                _ => *s,
            })
            .collect()
    }

    /// One or more slots, up to a span sign, a macro or the end.
    fn slots(&mut self) -> Result<Vec<SlotSpec>, PqlError> {
        let mut slots = Vec::new();
        while let Some(c) = self.peek() {
            if matches!(c, '+' | '-') || (c == '$' && !self.slot_macro_ahead()) {
                break;
            }
            slots.push(self.slot()?);
        }
        if slots.is_empty() {
            return Err(self.err_here(SLOT_EXPECTED));
        }
        Ok(slots)
    }

    fn slot_macro_ahead(&self) -> bool {
        // Slot macros are upper case; the suffix macros ($ds, $np, ...) lower case.
        self.peek_at(1).is_some_and(|c| matches!(c, 'B' | 'R' | 'F' | 'M' | 'Z' | 'N' | 'L' | 'W'))
    }

    fn slot(&mut self) -> Result<SlotSpec, PqlError> {
        let c = self.peek().expect("slots() calls slot() only before the end");
        let rank = if c == '*' {
            self.pos += 1;
            RankPart::Any
        } else if c == '[' {
            RankPart::Cards(self.bracket()?)
        } else if c == '$' {
            RankPart::Cards(self.slot_macro()?)
        } else if let Some(r) = parse_rank(c) {
            self.pos += 1;
            RankPart::Exact(r)
        } else if parse_suit(c).is_some() || is_suit_var(c) {
            // A bare suit: any rank of that suit.
            RankPart::Any
        } else if is_rank_var(c) {
            self.pos += 1;
            RankPart::Var(self.rank_var(c))
        } else if c == '1' && self.peek_at(1) == Some('0') {
            return Err(PqlError::range("'10' is not a rank: write T for ten", self.span_here()));
        } else {
            return Err(self.err_here(SLOT_EXPECTED));
        };
        let suit = if let Some(suit) = self.peek().and_then(parse_suit) {
            self.pos += 1;
            SuitPart::Exact(suit)
        } else if let Some(s) = self.peek().filter(|&s| is_suit_var(s)) {
            self.pos += 1;
            SuitPart::Var(self.suit_var(s))
        } else {
            SuitPart::Any
        };
        Ok(SlotSpec { rank, suit })
    }

    fn slot_macro(&mut self) -> Result<CardSet, PqlError> {
        let span = Span::new(self.offset + self.pos, self.offset + self.pos + 2);
        let name = self.peek_at(1);
        let o = self.order;
        let ranks = |s: &str| s.chars().filter_map(parse_rank).fold(0u16, |m, r| m | 1 << r);
        let mask = match name {
            Some('B') => o.between(ACE, 9),
            Some('R') => o.between(ACE, 8),
            Some('F') => o.between(11, 9),
            Some('M') => o.between(8, 5),
            Some('Z') => o.between(4, 0),
            Some('N') => o.between(11, 7),
            Some('L') => ranks("A2345678"),
            Some('W') => ranks("A2345"),
            _ => return Err(PqlError::range("unknown macro: expected $B $R $F $M $Z $N $L or $W in a hand", span)),
        };
        self.pos += 2;
        Ok(cards_of_ranks(mask))
    }

    /// `[K-]`, `[T+]`, `[5c-]`, `[Jh]`, `[2s,Jc,T]`, `[A-J]`: the cards one slot may take.
    fn bracket(&mut self) -> Result<CardSet, PqlError> {
        let open = self.span_here();
        self.pos += 1;
        let mut cards = CardSet::EMPTY;
        loop {
            cards = cards.union(self.list_element()?);
            match self.peek() {
                Some(',') => self.pos += 1,
                Some(']') => {
                    self.pos += 1;
                    return Ok(cards);
                }
                None => return Err(PqlError::range("unclosed '['", open)),
                Some(_) => return Err(self.err_here("',' or ']'")),
            }
        }
    }

    fn list_element(&mut self) -> Result<CardSet, PqlError> {
        let Some(c) = self.peek() else { return Err(self.err_here("a rank")) };
        let rank = if c == '*' {
            self.pos += 1;
            None
        } else if let Some(r) = parse_rank(c) {
            self.pos += 1;
            Some(r)
        } else if parse_suit(c).is_some() {
            None
        } else {
            return Err(self.err_here("a rank (A K Q J T 9-2), a suit or '*'"));
        };
        let suit = self.peek().and_then(parse_suit);
        if suit.is_some() {
            self.pos += 1;
        }
        let suit_part = suit.map_or(SuitPart::Any, SuitPart::Exact);
        let with_suit = |cards: CardSet| suit.map_or(cards, |s| cards.intersect(cards_of_suit(s)));
        let Some(r) = rank else {
            return Ok(with_suit(CardSet::FULL));
        };
        match self.peek() {
            Some('+') => {
                self.pos += 1;
                Ok(with_suit(cards_of_ranks(self.order.between(r, self.order.rank(12)))))
            }
            Some('-') => {
                self.pos += 1;
                let end = match self.peek().and_then(parse_rank) {
                    Some(r2) => {
                        self.pos += 1;
                        if let Some(s2) = self.peek().and_then(parse_suit) {
                            self.pos += 1;
                            if suit != Some(s2) {
                                return Err(PqlError::range(
                                    "both ends of a span need the same suit",
                                    Span::new(self.offset + self.pos - 1, self.offset + self.pos),
                                ));
                            }
                        }
                        r2
                    }
                    None => self.order.rank(0),
                };
                Ok(self.span_cards(r, end, suit_part))
            }
            _ => Ok(with_suit(cards_of_ranks(1 << r))),
        }
    }

    /// Resolves variables: a variable never takes a value written explicitly in the same term.
    fn compile(&self, specs: &[SlotSpec]) -> Term {
        let deck = self.deck.cards();
        let explicit_ranks = specs.iter().fold(0u16, |m, s| match s.rank {
            RankPart::Exact(r) => m | 1 << r,
            _ => m,
        });
        let explicit_suits = specs.iter().fold(0u8, |m, s| match s.suit {
            SuitPart::Exact(x) => m | 1 << x,
            _ => m,
        });
        let slots = specs
            .iter()
            .map(|s| {
                let (mut cards, rank_var) = match s.rank {
                    RankPart::Any => (CardSet::FULL, NO_VAR),
                    RankPart::Exact(r) => (cards_of_ranks(1 << r), NO_VAR),
                    RankPart::Cards(c) => (c, NO_VAR),
                    RankPart::Var(v) => (cards_of_ranks(0x1FFF & !explicit_ranks), v),
                };
                let suit_var = match s.suit {
                    SuitPart::Any => NO_VAR,
                    SuitPart::Exact(x) => {
                        cards = cards.intersect(cards_of_suit(x));
                        NO_VAR
                    }
                    SuitPart::Var(v) => {
                        let allowed = (0..4u8)
                            .filter(|x| explicit_suits & 1 << x == 0)
                            .fold(CardSet::EMPTY, |m, x| m.union(cards_of_suit(x)));
                        cards = cards.intersect(allowed);
                        v
                    }
                };
                Slot { cards: cards.intersect(deck), rank_var, suit_var }
            })
            .collect();
        Term::new(slots)
    }
}

/// Parses the generic leaf `text` found at `offset` of the range text.
pub(crate) fn parse_leaf(text: &str, offset: usize, order: RankOrder, deck: Deck) -> Result<FilteredLeaf, PqlError> {
    TermParser::new(text, offset, order, deck).parse_leaf()
}

/// Parses a plain term (no percent, macros allowed), for boards and stud parts.
pub(crate) fn parse_terms(text: &str, offset: usize, order: RankOrder, deck: Deck) -> Result<Vec<Term>, PqlError> {
    let mut p = TermParser::new(text, offset, order, deck);
    let terms = match p.rundown_macro() {
        Some(t) => t,
        None => p.spanned_terms()?,
    };
    if p.pos < text.len() {
        return Err(p.err_here(SLOT_EXPECTED));
    }
    Ok(terms)
}
