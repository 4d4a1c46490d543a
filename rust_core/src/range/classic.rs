//! The classic hold'em syntax (docs/language/ranges.md, the classic syntax): `AsKs`, `AKs`, `AKo`, `AK`, `AsK`, `QQ+`, `ATs+`,
//! `AK-AT`, `KQs-K9s`, `QTs-86s`, `TT-77`, `*`; plus the named classes of `classes`.
//! A leaf becomes a list of two-card patterns, each tested against the 1,326 (or 630) hands.

use super::classes;
use super::cursor::Cursor;
use super::generic::{cards_of_ranks, cards_of_suit};
use crate::cards::{parse_rank, parse_suit, CardSet, Rank, Suit, ACE};
use crate::error::{excerpt, PqlError, Span};

/// Which two-card hands a classic pattern allows by suit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Suitedness {
    Any,
    Suited,
    Offsuit,
}

/// Two cards: one from `a`, a different one from `b`, with the suit relation `suits`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Pattern {
    pub a: CardSet,
    pub b: CardSet,
    pub suits: Suitedness,
}

impl Pattern {
    pub fn ranks(hi: Rank, lo: Rank, suits: Suitedness) -> Pattern {
        Pattern { a: cards_of_ranks(1 << hi), b: cards_of_ranks(1 << lo), suits }
    }

    pub fn matches(&self, hand: CardSet) -> bool {
        let mut it = hand.iter();
        let (Some(x), Some(y)) = (it.next(), it.next()) else { return false };
        let suited = x.suit() == y.suit();
        let suit_ok = match self.suits {
            Suitedness::Any => true,
            Suitedness::Suited => suited,
            Suitedness::Offsuit => !suited,
        };
        suit_ok && ((self.a.contains(x) && self.b.contains(y)) || (self.a.contains(y) && self.b.contains(x)))
    }
}

/// What a classic leaf means.
#[derive(Clone, Debug)]
pub(crate) enum ClassicLeaf {
    All,
    Percent { from: f64, to: f64, six_max: bool },
    Patterns(Vec<Pattern>),
}

/// One card of a hand token as written: a rank (optionally suited) or `*`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct CardSpec {
    rank: Option<Rank>,
    suit: Option<Suit>,
}

impl CardSpec {
    fn cards(self) -> CardSet {
        let mut c = self.rank.map_or(CardSet::FULL, |r| cards_of_ranks(1 << r));
        if let Some(s) = self.suit {
            c = c.intersect(cards_of_suit(s));
        }
        c
    }
}

/// A hand token before spans: two cards (the second may be missing) and a suit marker.
#[derive(Clone, Copy, Debug)]
struct HandSpec {
    first: CardSpec,
    second: Option<CardSpec>,
    suits: Suitedness,
    span: Span,
}

impl HandSpec {
    /// Both ranks, higher first, when the hand is written with ranks only.
    fn ranks(&self) -> Option<(Rank, Rank)> {
        let s = self.second?;
        if self.first.suit.is_some() || s.suit.is_some() {
            return None;
        }
        let (a, b) = (self.first.rank?, s.rank?);
        Some((a.max(b), a.min(b)))
    }

    fn pattern(&self) -> Pattern {
        let b = self.second.map_or(CardSet::FULL, CardSpec::cards);
        Pattern { a: self.first.cards(), b, suits: self.suits }
    }
}

const CARD_EXPECTED: &str = "a suit (s, h, d, c) or a rank";

struct Reader<'a> {
    text: &'a str,
    pos: usize,
    offset: usize,
}

impl Cursor for Reader<'_> {
    fn cursor(&self) -> (&str, usize, usize) {
        (self.text, self.pos, self.offset)
    }
}

impl Reader<'_> {
    fn card(&mut self) -> Result<CardSpec, PqlError> {
        match self.peek() {
            Some('*') => {
                self.pos += 1;
                Ok(CardSpec { rank: None, suit: None })
            }
            Some('1') if self.peek_at(1) == Some('0') => {
                Err(PqlError::range("'10' is not a rank: write T for ten", self.span_here()))
            }
            Some(c) if parse_rank(c).is_some() => {
                self.pos += 1;
                Ok(CardSpec { rank: parse_rank(c), suit: None })
            }
            _ => Err(self.err_here("a rank (A K Q J T 9-2) or '*'")),
        }
    }

    /// A suit right after a card, unless it is the `s` of `AKs` (a suit letter at the end or
    /// before a span sign, after a second card whose first card has no suit).
    fn hand(&mut self) -> Result<HandSpec, PqlError> {
        let start = self.pos;
        let mut first = self.card()?;
        if let Some(s) = self.peek().and_then(parse_suit) {
            // `As...`: a suit when a card follows, or when the token is a single card.
            if self.peek_at(1).is_none_or(|c| c == '*' || parse_rank(c).is_some()) {
                first.suit = Some(s);
                self.pos += 1;
            }
        }
        let mut second = None;
        let mut suits = Suitedness::Any;
        if self.peek().is_some_and(|c| c == '*' || c == '1' || parse_rank(c).is_some()) {
            let mut card = self.card()?;
            match self.peek() {
                // `AKs` is suited (never "an ace and the king of spades").
                Some(c @ ('s' | 'o')) if first.suit.is_none() => {
                    suits = if c == 's' { Suitedness::Suited } else { Suitedness::Offsuit };
                    self.pos += 1;
                }
                Some(c) if parse_suit(c).is_some() => {
                    card.suit = parse_suit(c);
                    self.pos += 1;
                }
                _ => {}
            }
            second = Some(card);
        }
        let span = Span::new(self.offset + start, self.offset + self.pos);
        let hand = HandSpec { first, second, suits, span };
        if suits != Suitedness::Any && hand.ranks().is_some_and(|(a, b)| a == b) {
            return Err(PqlError::range("a pair cannot be suited or offsuit", span));
        }
        if suits != Suitedness::Any && hand.ranks().is_none() {
            return Err(PqlError::range("'s' and 'o' follow two ranks, as in AKs or AKo", span));
        }
        Ok(hand)
    }
}

fn ranks_between(a: Rank, b: Rank) -> impl Iterator<Item = Rank> {
    a.min(b)..=a.max(b)
}

/// Expands `X+`, `X-` and `X-Y` into rank patterns.
fn span_patterns(a: &HandSpec, b: Option<&HandSpec>, up: bool, lowest: Rank) -> Result<Vec<Pattern>, PqlError> {
    let need_ranks = |h: &HandSpec| {
        h.ranks()
            .ok_or_else(|| PqlError::range("spans take two ranks without suits, as in QQ+, ATs+ or KQs-K9s", h.span))
    };
    let (h1, l1) = need_ranks(a)?;
    let Some(b) = b else {
        return Ok(if h1 == l1 {
            let range: Vec<Rank> = if up { (h1..=ACE).collect() } else { (lowest..=h1).collect() };
            range.into_iter().map(|r| Pattern::ranks(r, r, Suitedness::Any)).collect()
        } else {
            let range: Vec<Rank> = if up { (l1..h1).collect() } else { (lowest..=l1).collect() };
            range.into_iter().map(|k| Pattern::ranks(h1, k, a.suits)).collect()
        });
    };
    let (h2, l2) = need_ranks(b)?;
    let span = a.span.to(b.span);
    if a.suits != b.suits {
        return Err(PqlError::range("both ends of a span need the same 's' or 'o'", span));
    }
    if h1 == l1 && h2 == l2 {
        return Ok(ranks_between(h1, h2).map(|r| Pattern::ranks(r, r, Suitedness::Any)).collect());
    }
    if h1 == l1 || h2 == l2 {
        return Err(PqlError::range("a span joins two pairs or two non-pairs", span));
    }
    if h1 == h2 {
        return Ok(ranks_between(l1, l2).filter(|&k| k < h1).map(|k| Pattern::ranks(h1, k, a.suits)).collect());
    }
    if h1 - l1 == h2 - l2 {
        let gap = h1 - l1;
        return Ok(ranks_between(h1, h2).map(|h| Pattern::ranks(h, h - gap, a.suits)).collect());
    }
    Err(PqlError::range("a span keeps either the first card (AK-AT, KQs-K9s) or the gap (QTs-86s, TT-77)", span))
}

/// `AA to TT`, `KQs through K9s`: the two hands of a worded span (as `AA-TT`), or `None` when
/// `text` is not three words with `to` or `through` in the middle.
fn to_span(text: &str, offset: usize) -> Result<Option<(HandSpec, HandSpec)>, PqlError> {
    let words: Vec<(usize, &str)> =
        text.split_whitespace().map(|w| (w.as_ptr() as usize - text.as_ptr() as usize, w)).collect();
    let [(ia, a), (_, to), (ib, b)] = words.as_slice() else { return Ok(None) };
    if !to.eq_ignore_ascii_case("to") && !to.eq_ignore_ascii_case("through") {
        return Ok(None);
    }
    let whole_hand = |word: &str, at: usize| {
        let mut r = Reader { text: word, pos: 0, offset: offset + at };
        let hand = r.hand()?;
        if r.pos < word.len() {
            return Err(r.err_here("the end of the hand (a span joins two hands, as in AA to TT)"));
        }
        Ok(hand)
    };
    Ok(Some((whole_hand(a, *ia)?, whole_hand(b, *ib)?)))
}

/// Reads a classic hold'em leaf at `offset` of the range text.
pub(crate) fn parse_leaf(text: &str, offset: usize, lowest: Rank) -> Result<ClassicLeaf, PqlError> {
    let span = Span::new(offset, offset + text.len());
    if text == "*" || text == "**" {
        return Ok(ClassicLeaf::All);
    }
    if text.starts_with(|c: char| c.is_ascii_digit() || c == '.') && text.contains('%') {
        let leaf = super::generic::parse_leaf(
            text,
            offset,
            super::generic::RankOrder { ace_low: false },
            crate::cards::Deck::Standard,
        )?;
        return match leaf.leaf {
            super::generic::Leaf::Percent { from, to, six_max } if leaf.filters.is_empty() => {
                Ok(ClassicLeaf::Percent { from, to, six_max })
            }
            _ => Err(PqlError::range("expected a percentage such as 15% or 5%-10%", span)),
        };
    }
    if let Some(patterns) = classes::named(text, offset, lowest)? {
        return Ok(ClassicLeaf::Patterns(patterns));
    }
    if let Some((a, b)) = to_span(text, offset)? {
        return Ok(ClassicLeaf::Patterns(span_patterns(&a, Some(&b), false, lowest)?));
    }
    let first_char = text.chars().next().unwrap_or(' ');
    if first_char != '*' && parse_rank(first_char).is_none() && !(first_char == '1' && text[1..].starts_with('0')) {
        let mut e = PqlError::range(format!("unknown hand or class '{}'", excerpt(text)), span);
        if let Some(s) = crate::error::did_you_mean(text, classes::NAMES.iter().copied()) {
            e = e.with_hint(format!("did you mean '{s}'?"));
        }
        return Err(e);
    }
    let mut r = Reader { text, pos: 0, offset };
    let a = r.hand()?;
    let patterns = match r.peek() {
        None => vec![a.pattern()],
        Some('+') => {
            r.pos += 1;
            span_patterns(&a, None, true, lowest)?
        }
        Some('-') => {
            r.pos += 1;
            if r.peek().is_none() {
                span_patterns(&a, None, false, lowest)?
            } else {
                let b = r.hand()?;
                span_patterns(&a, Some(&b), false, lowest)?
            }
        }
        Some(c) => {
            let read = &text[..r.pos];
            return Err(if a.second.is_none() {
                r.err_here(CARD_EXPECTED)
            } else if c == '*' || parse_rank(c).is_some() {
                // A third card: the hand is too long, not "a suit or a rank" short.
                PqlError::range(
                    format!("a hold'em hand has 2 cards; '{}' has more", excerpt(text)),
                    Span::new(offset + r.pos, offset + text.len()),
                )
                .with_hint("separate hands with ',' (AsKs, Qs)")
            } else if a.suits != Suitedness::Any || a.second.is_some_and(|s| s.suit.is_some()) {
                r.err_here(&format!("'+', '-' or the end of the hand after '{read}'"))
            } else {
                r.err_here("a suit (s, h, d, c), 'o', '+' or '-' after two ranks")
                    .with_hint("after two cards: 's' (suited), 'o' (offsuit), '+' or '-'")
            });
        }
    };
    if r.pos < text.len() {
        return Err(r.err_here("',', ':' or '!' (one hand per part)"));
    }
    Ok(ClassicLeaf::Patterns(patterns))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suited_marker_and_suits() {
        let ClassicLeaf::Patterns(p) = parse_leaf("AKs", 0, 0).unwrap() else { panic!() };
        assert_eq!(p[0].suits, Suitedness::Suited);
        let ClassicLeaf::Patterns(p) = parse_leaf("AsKs", 0, 0).unwrap() else { panic!() };
        assert_eq!(p[0].suits, Suitedness::Any);
        assert_eq!(p[0].a.len(), 1);
        assert_eq!(p[0].b.len(), 1);
        let ClassicLeaf::Patterns(p) = parse_leaf("AsK", 0, 0).unwrap() else { panic!() };
        assert_eq!((p[0].a.len(), p[0].b.len()), (1, 4));
    }

    #[test]
    fn bad_characters_are_pointed_at() {
        let e = parse_leaf("AKz", 10, 0).unwrap_err();
        assert_eq!(e.span, Some(Span::new(12, 13)));
        assert!(e.message.starts_with("expected a suit (s, h, d, c), 'o', '+' or '-'"), "{}", e.message);
        assert!(e.message.ends_with("found 'z'"), "{}", e.message);
        let e = parse_leaf("suitd", 0, 0).unwrap_err();
        assert_eq!(e.hint.as_deref(), Some("did you mean 'suited'?"));
        assert!(parse_leaf("AAs", 0, 0).is_err());
        assert!(parse_leaf("AK-QT", 0, 0).unwrap_err().message.contains("first card"));
    }
}
