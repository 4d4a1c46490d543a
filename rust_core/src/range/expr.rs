//! The combination layer shared by every range syntax: `,` union, `:` intersection, `!`
//! difference, parentheses and weights, around leaves (hands, classes, percentages) whose
//! text the syntax modules read. `:`/`!` bind tighter than `,` and associate left to right.
//!
//! A weight goes on a top-level part in one of three forms, each meaning what it means where it
//! comes from: pql's `AA@75` (a percent, decimals allowed: `@33.3`); Pio's and GTO
//! Wizard's `AA:0.75` (a fraction of full weight; only a number written `0`, `1`, `0.xxx`,
//! `1.0…` or `.xxx` after a `:` is one: no range term is such a number, stud ranks included,
//! so `A:2` is still a stud hand); and Equilab's, Flopzilla's and GTO+'s brackets
//! `[75]AA,KK[/75]` (a percent on every part between them; brackets do not nest). A part with
//! no weight has full weight, as in those tools. Weights are held in [`WEIGHT_FULL`]ths of full
//! weight (finer digits are rounded to the nearest); a part of weight 0 adds no hand.
//! In the classic syntax the words `and`/`&`/`intersection`, `or`/`|`/`union` and `not` are
//! synonyms (`HoldemHand`'s spellings), and two operands side by side, one of them a class word,
//! mean *and*: `Connected Suited`, `AK Suited`, `(AK* | AA) Offset`.
//!
//! Range texts come from users, so nothing here recurses without a bound: a chain `a:b!c…` is a
//! flat list read and evaluated by loops, and only parentheses and `!` prefixes nest, at most
//! [`RANGE_MAX_DEPTH`] deep; a range has at most [`RANGE_MAX_PARTS`] leaves.

use super::{WEIGHT_FULL, WEIGHT_PERCENT};
use crate::error::{PqlError, Span};
use crate::limits::{RANGE_MAX_DEPTH, RANGE_MAX_PARTS};

/// A parsed range expression; leaves are spans of the range text. Its depth is the nesting of
/// parentheses and complements, at most [`RANGE_MAX_DEPTH`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Node {
    Leaf(Span),
    Union(Vec<Node>),
    /// `a : b ! c …`: the first operand, then each operator with its right operand, applied
    /// left to right.
    Chain(Box<Node>, Vec<(ChainOp, Node)>),
    /// `!X` or `not X` at the start of an operand: every hand except X.
    Complement(Box<Node>),
}

/// The operators of a chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum ChainOp {
    /// `:`, `&`, `and`: hands in both.
    Inter,
    /// `!`, `not` between operands: hands of the left not in the right.
    Minus,
}

/// A top-level comma-separated part with its optional weight, in [`WEIGHT_FULL`]ths of full
/// weight (0: the part adds no hand).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Part {
    pub node: Node,
    pub weight: Option<u32>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tok {
    Comma,
    Colon,
    Bang,
    LParen,
    RParen,
    /// `@75` or `:0.75`: the weight of the part it ends.
    Weight(u32),
    /// `[75]`: the parts up to the matching `[/75]` have this weight.
    Open(u32),
    /// `[/75]`.
    Close(u32),
    Leaf,
}

/// `digits[.digits]` or `.digits` times `scale` (a power of ten), rounded to the nearest whole
/// number (halves up), without floating point; `None` when `text` is not such a number or its
/// value passes `most` (in the same units).
fn scaled_decimal(text: &str, scale: u64, most: u64) -> Option<u64> {
    let (int, frac) = text.split_once('.').unwrap_or((text, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if !digits(int) || !digits(frac) || (int.is_empty() && frac.is_empty()) || (text.contains('.') && frac.is_empty()) {
        return None;
    }
    let int = int.trim_start_matches('0');
    if int.len() > 12 {
        return None;
    }
    let places = scale.ilog10() as usize;
    let mut value = if int.is_empty() { 0 } else { int.parse::<u64>().ok()? } * scale;
    let mut unit = scale;
    for b in frac.bytes().take(places) {
        unit /= 10;
        value += u64::from(b - b'0') * unit;
    }
    if frac.as_bytes().get(places).is_some_and(|&b| b >= b'5') {
        value += 1;
    }
    (value <= most).then_some(value)
}

/// A percent weight (`75`, `33.3`, `.5`) in [`WEIGHT_FULL`]ths: 0 to 100.
fn percent_weight(text: &str) -> Option<u32> {
    scaled_decimal(text, u64::from(WEIGHT_PERCENT), u64::from(WEIGHT_FULL)).map(|w| w as u32)
}

/// Whether `text` after a `:` is a weight (Pio's `AA:0.75`): `0`, `1`, `0.xxx`, `1.0…`, `.xxx`.
/// No range term is written so, in any game (`0` and `1` are no ranks, `.` is in no term).
fn is_colon_weight(text: &str) -> bool {
    let b = text.as_bytes();
    match b {
        [b'0' | b'1'] => true,
        [b'0', b'.', rest @ ..] | [b'.', rest @ ..] => !rest.is_empty() && rest.iter().all(u8::is_ascii_digit),
        [b'1', b'.', rest @ ..] => !rest.is_empty() && rest.iter().all(|&c| c == b'0'),
        _ => false,
    }
}

/// A weight bracket at `at`: `[75]` (or `[/75]` when the bool is true) with its weight and
/// where it ends. The number is a percent as those tools write it (`50`, `12.5`, `50.0`).
fn weight_bracket(text: &str, at: usize) -> Option<(bool, u32, usize)> {
    let rest = text.get(at..)?.strip_prefix('[')?;
    let (close, rest) = match rest.strip_prefix('/') {
        Some(r) => (true, r),
        None => (false, rest),
    };
    // A weight is a short number: look no further for its `]` (a long text of `[` stays linear).
    let end = rest.bytes().take(24).position(|b| b == b']')?;
    let number = &rest[..end];
    if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return None;
    }
    let weight = percent_weight(number)?;
    Some((close, weight, at + 1 + usize::from(close) + end + 1))
}

/// An opening weight bracket at `at` (its weight and end): `[75]` with a closing `[/…]` after it
/// (`last_close`: where the text's last `[/` is), or one whose number is not one rank (`[7]`
/// alone is the generic syntax's rank list).
fn opening_bracket(text: &str, at: usize, last_close: Option<usize>) -> Option<(u32, usize)> {
    let (close, weight, end) = weight_bracket(text, at)?;
    let one_rank = end - at == 3;
    (!close && (!one_rank || last_close.is_some_and(|c| c >= end))).then_some((weight, end))
}

/// Characters that end a leaf (outside brackets).
fn is_operator(c: char) -> bool {
    matches!(c, ',' | ':' | '!' | '(' | ')' | '@' | '&' | '|')
}

/// Stud hands use parentheses inside a hand (`(3-3-)45678`, `(3- 3-) 4 5`): a `(` whose group
/// holds only hand characters and whitespace is part of the leaf, not an expression parenthesis.
/// Returns the end of such a group.
fn hand_group_end(text: &str, open: usize) -> Option<usize> {
    let mut depth = 0i32;
    for (i, c) in text[open + 1..].char_indices() {
        match c {
            // Words such as `and` inside make it an expression: `(AA and KK)`.
            ')' if depth == 0 => {
                let inner = &text[open + 1..open + 1 + i];
                return (i > 0 && super::spaced::joins(inner)).then_some(open + 1 + i + 1);
            }
            '[' => depth += 1,
            ']' => depth -= 1,
            ',' if depth > 0 => {}
            c if is_operator(c) => return None,
            _ => {}
        }
    }
    None
}

fn lex(text: &str, words: bool, stud: bool) -> Result<Vec<(Tok, Span)>, PqlError> {
    let bytes = text.as_bytes();
    let mut toks: Vec<(Tok, Span)> = Vec::new();
    let last_close = text.rfind("[/");
    let mut i = 0;
    while i < text.len() {
        let c = text[i..].chars().next().unwrap_or(' ');
        if c.is_whitespace() {
            i += c.len_utf8();
            continue;
        }
        let one = |t| (t, Span::new(i, i + 1));
        match c {
            ',' | '|' => toks.push(one(Tok::Comma)),
            ':' | '&' => toks.push(one(Tok::Colon)),
            '!' => toks.push(one(Tok::Bang)),
            '(' if !(stud && hand_group_end(text, i).is_some()) => toks.push(one(Tok::LParen)),
            ')' => toks.push(one(Tok::RParen)),
            '@' => {
                let start = i;
                let mut j = i + 1;
                while j < bytes.len() && (bytes[j].is_ascii_digit() || bytes[j] == b'.') {
                    j += 1;
                }
                let number = &text[i + 1..j];
                let span = Span::new(start, j.max(start + 1));
                if scaled_decimal(number, 1, u64::MAX).is_none() {
                    return Err(PqlError::range(
                        "expected a weight (a percent from 0 to 100, e.g. 75 or 33.3) after '@'",
                        span,
                    ));
                }
                let weight = percent_weight(number).ok_or_else(|| {
                    PqlError::range(format!("weight {number} is out of range: weights are 0 to 100 (percent)"), span)
                })?;
                toks.push((Tok::Weight(weight), span));
                i = j;
                continue;
            }
            '[' if weight_bracket(text, i).is_some_and(|b| b.0) => {
                let (_, weight, end) = weight_bracket(text, i).expect("a closing bracket");
                toks.push((Tok::Close(weight), Span::new(i, end)));
                i = end;
                continue;
            }
            '[' if opening_bracket(text, i, last_close).is_some() => {
                let (weight, end) = opening_bracket(text, i, last_close).expect("an opening bracket");
                toks.push((Tok::Open(weight), Span::new(i, end)));
                i = end;
                continue;
            }
            _ => {
                let start = i;
                let mut depth = 0i32;
                let mut j = i;
                while j < text.len() {
                    let d = text[j..].chars().next().unwrap_or(' ');
                    if depth == 0 && d == '(' && stud {
                        if let Some(end) = hand_group_end(text, j) {
                            j = end;
                            continue;
                        }
                    }
                    if depth == 0 && (d.is_whitespace() || is_operator(d)) {
                        break;
                    }
                    // `KK[/75]`: the closing bracket ends the leaf.
                    if depth == 0 && d == '[' && j > start && weight_bracket(text, j).is_some_and(|b| b.0) {
                        break;
                    }
                    if d == '[' {
                        depth += 1;
                    } else if d == ']' {
                        depth -= 1;
                    }
                    j += d.len_utf8();
                }
                let span = Span::new(start, j);
                let word = &text[start..j];
                let tok = if words && (word.eq_ignore_ascii_case("and") || word.eq_ignore_ascii_case("intersection")) {
                    Tok::Colon
                } else if words && (word.eq_ignore_ascii_case("or") || word.eq_ignore_ascii_case("union")) {
                    Tok::Comma
                } else if words && word.eq_ignore_ascii_case("not") {
                    Tok::Bang
                } else {
                    Tok::Leaf
                };
                toks.push((tok, span));
                i = j;
                continue;
            }
        }
        i += 1;
    }
    if words {
        merge_group_spans(text, &mut toks);
    }
    merge_spaced_cards(text, &mut toks);
    if words {
        and_adjacent_classes(text, &mut toks);
    }
    colon_weights(text, &mut toks)?;
    Ok(toks)
}

/// Pio's `AA:0.75`: a `:` followed by a number of the weight form is the part's weight (in
/// [`WEIGHT_FULL`]ths: 0.75 of full weight). Another number with a point there (`AA:1.5`) is
/// no range term either: it is refused as a weight out of range.
fn colon_weights(text: &str, toks: &mut Vec<(Tok, Span)>) -> Result<(), PqlError> {
    let mut out: Vec<(Tok, Span)> = Vec::with_capacity(toks.len());
    let mut i = 0;
    while i < toks.len() {
        let (tok, span) = toks[i];
        if let (Tok::Colon, Some(&(Tok::Leaf, leaf))) = (tok, toks.get(i + 1)) {
            let number = &text[leaf.start..leaf.end];
            if &text[span.start..span.end] == ":" {
                if is_colon_weight(number) {
                    let weight = scaled_decimal(number, u64::from(WEIGHT_FULL), u64::from(WEIGHT_FULL))
                        .expect("a weight of the form 0, 1, 0.xxx, 1.0 or .xxx")
                        as u32;
                    out.push((Tok::Weight(weight), span.to(leaf)));
                    i += 2;
                    continue;
                }
                if number.contains('.') && scaled_decimal(number, 1, u64::MAX).is_some() {
                    return Err(PqlError::range(
                        format!("weight {number} is out of range: a weight after ':' is from 0 to 1"),
                        span.to(leaf),
                    )
                    .with_hint("write e.g. AA:0.75 (or AA@75)"));
                }
            }
        }
        out.push((tok, span));
        i += 1;
    }
    *toks = out;
    Ok(())
}

/// `HoldemHand`'s `Connected Suited`: two operands side by side, one of them a class word, are
/// intersected (a `:` between them, placed on the gap).
fn and_adjacent_classes(text: &str, toks: &mut Vec<(Tok, Span)>) {
    let class = |t: &(Tok, Span)| t.0 == Tok::Leaf && super::classes::is_class_word(&text[t.1.start..t.1.end]);
    let mut out: Vec<(Tok, Span)> = Vec::with_capacity(toks.len());
    for &t in toks.iter() {
        if let Some(&prev) = out.last() {
            let ends = matches!(prev.0, Tok::Leaf | Tok::RParen);
            let starts = matches!(t.0, Tok::Leaf | Tok::LParen);
            if ends && starts && (class(&prev) || class(&t)) {
                out.push((Tok::Colon, Span::new(prev.1.end, t.1.start)));
            }
        }
        out.push(t);
    }
    *toks = out;
}

/// `Qs Ts Jd 2d`: words of cards with only whitespace between them are one leaf, one hand
/// (`spaced` reads it); a comma still separates hands.
fn merge_spaced_cards(text: &str, toks: &mut Vec<(Tok, Span)>) {
    let word = |span: Span| &text[span.start..span.end];
    let mut out: Vec<(Tok, Span)> = Vec::with_capacity(toks.len());
    for &(tok, span) in toks.iter() {
        if let Some((Tok::Leaf, last)) = out.last_mut() {
            if tok == Tok::Leaf && super::spaced::joins(word(*last)) && super::spaced::joins(word(span)) {
                *last = last.to(span);
                continue;
            }
        }
        out.push((tok, span));
    }
    *toks = out;
}

/// Classic `group2 to group5`, `AA through TT`: one leaf covering the three words (the span's
/// reader sees them together).
fn merge_group_spans(text: &str, toks: &mut Vec<(Tok, Span)>) {
    let mut out: Vec<(Tok, Span)> = Vec::with_capacity(toks.len());
    let mut i = 0;
    while i < toks.len() {
        if i + 2 < toks.len()
            && toks[i].0 == Tok::Leaf
            && toks[i + 1].0 == Tok::Leaf
            && toks[i + 2].0 == Tok::Leaf
            && matches!(text[toks[i + 1].1.start..toks[i + 1].1.end].to_ascii_lowercase().as_str(), "to" | "through")
        {
            out.push((Tok::Leaf, toks[i].1.to(toks[i + 2].1)));
            i += 3;
        } else {
            out.push(toks[i]);
            i += 1;
        }
    }
    *toks = out;
}

struct Parser<'a> {
    text: &'a str,
    toks: Vec<(Tok, Span)>,
    pos: usize,
    /// Parentheses and complements open around the operand being read.
    depth: u32,
    leaves: usize,
}

impl<'a> Parser<'a> {
    fn peek(&self) -> Option<(Tok, Span)> {
        self.toks.get(self.pos).copied()
    }

    fn end_span(&self) -> Span {
        Span::new(self.text.len(), self.text.len())
    }

    fn unexpected(&self, what: &str) -> PqlError {
        match self.peek() {
            Some((_, span)) => PqlError::range(
                format!("expected {what}, found '{}'", crate::error::excerpt(&self.text[span.start..span.end])),
                span,
            ),
            None => PqlError::range(format!("expected {what}, found the end of the range"), self.end_span()),
        }
    }

    fn parts(&mut self) -> Result<Vec<Part>, PqlError> {
        let mut parts = Vec::new();
        // The weight bracket open around the parts being read (`[75]AA,KK[/75]`).
        let mut bracket: Option<(u32, Span)> = None;
        loop {
            if let Some((Tok::Open(w), span)) = self.peek() {
                if let Some((_, open)) = bracket {
                    return Err(PqlError::range(
                        format!(
                            "weight brackets do not nest: '{}' is still open here",
                            &self.text[open.start..open.end]
                        ),
                        span,
                    )
                    .with_hint("close each bracket before the next: [75]AA,KK[/75],[50]QQ[/50]"));
                }
                bracket = Some((w, span));
                self.pos += 1;
            }
            let start = self.peek().map_or(self.end_span(), |t| t.1);
            let node = self.chain()?;
            let mut weight = None;
            let mut end = self.toks.get(self.pos.wrapping_sub(1)).map_or(start, |t| t.1);
            if let Some((Tok::Weight(w), span)) = self.peek() {
                weight = Some(w);
                end = span;
                self.pos += 1;
                if let Some((Tok::Weight(_), again)) = self.peek() {
                    return Err(PqlError::range("this part has two weights", start.to(again)));
                }
            }
            if let Some((w, open)) = bracket {
                if weight.is_some() {
                    return Err(PqlError::range(
                        format!(
                            "this part has a weight of its own inside the weight bracket '{}'",
                            &self.text[open.start..open.end]
                        ),
                        start.to(end),
                    ));
                }
                weight = Some(w);
            }
            parts.push(Part { node, weight, span: start.to(end) });
            if let Some((Tok::Close(w), span)) = self.peek() {
                match bracket {
                    Some((open_w, _)) if open_w == w => bracket = None,
                    Some((_, open)) => {
                        return Err(PqlError::range(
                            format!(
                                "'{}' does not close '{}'",
                                &self.text[span.start..span.end],
                                &self.text[open.start..open.end]
                            ),
                            span,
                        ))
                    }
                    None => {
                        return Err(PqlError::range(
                            format!("'{}' closes no weight bracket", &self.text[span.start..span.end]),
                            span,
                        ))
                    }
                }
                self.pos += 1;
                // `[50]AA[/50][25]KK[/25]`: the next bracket may follow without a comma.
                if matches!(self.peek(), Some((Tok::Open(_), _))) {
                    continue;
                }
            }
            match self.peek() {
                None => break,
                Some((Tok::Comma, _)) => self.pos += 1,
                Some((Tok::Leaf, span)) => {
                    return Err(PqlError::range(
                        format!(
                            "expected ',', ':' or '!' before '{}'",
                            crate::error::excerpt(&self.text[span.start..span.end])
                        ),
                        span,
                    ))
                }
                Some((Tok::Weight(_), span)) => {
                    return Err(PqlError::range("this part has two weights", start.to(span)))
                }
                Some(_) => return Err(self.unexpected("',', ':', '!' or the end of the range")),
            }
        }
        if let Some((_, open)) = bracket {
            let number = &self.text[open.start + 1..open.end - 1];
            return Err(PqlError::range(
                format!("the weight bracket '{}' is not closed", &self.text[open.start..open.end]),
                open,
            )
            .with_hint(format!("close it after its last part: [{number}]AA,KK[/{number}]")));
        }
        Ok(parts)
    }

    /// Operands joined by `:` and `!`, read by a loop however many there are. Each operand
    /// filters what the first leaves (`∩ b`, `∖ c`): filters commute and applying one twice
    /// changes nothing, so an operand written again with the same operator is dropped.
    fn chain(&mut self) -> Result<Node, PqlError> {
        let first = self.unary()?;
        let mut rest = Vec::new();
        let mut seen = std::collections::HashSet::new();
        loop {
            let op = match self.peek() {
                Some((Tok::Colon, _)) => ChainOp::Inter,
                Some((Tok::Bang, _)) => ChainOp::Minus,
                _ => break,
            };
            self.pos += 1;
            let start = self.pos;
            let operand = self.unary()?;
            if seen.insert((op, self.written(start))) {
                rest.push((op, operand));
            }
        }
        Ok(if rest.is_empty() { first } else { Node::Chain(Box::new(first), rest) })
    }

    /// The text of the tokens from `start` to the last one read: an operand as written.
    fn written(&self, start: usize) -> &'a str {
        let span = self.toks[start].1.to(self.toks[self.pos - 1].1);
        &self.text[span.start..span.end]
    }

    /// One level deeper (a parenthesis or a complement at `span`), refused past the limit.
    fn enter(&mut self, span: Span) -> Result<(), PqlError> {
        self.depth += 1;
        if self.depth > RANGE_MAX_DEPTH {
            return Err(PqlError::range(
                format!("range nested too deeply (more than {RANGE_MAX_DEPTH} levels of parentheses and '!')"),
                span,
            ));
        }
        Ok(())
    }

    fn unary(&mut self) -> Result<Node, PqlError> {
        match self.peek() {
            Some((Tok::Bang, span)) => {
                self.pos += 1;
                self.enter(span)?;
                let inner = self.unary()?;
                self.depth -= 1;
                Ok(Node::Complement(Box::new(inner)))
            }
            Some((Tok::LParen, open)) => {
                self.pos += 1;
                self.enter(open)?;
                let mut alts = Vec::new();
                // An alternative written again adds nothing to the union.
                let mut seen = std::collections::HashSet::new();
                loop {
                    let start = self.pos;
                    let alt = self.chain()?;
                    if seen.insert(self.written(start)) {
                        alts.push(alt);
                    }
                    match self.peek() {
                        Some((Tok::Comma, _)) => self.pos += 1,
                        Some((Tok::RParen, _)) => {
                            self.pos += 1;
                            break;
                        }
                        Some((Tok::Weight(_), span)) => {
                            return Err(PqlError::range(
                                "weights go on the top-level parts of a range, after the closing parenthesis",
                                span,
                            ))
                        }
                        None => return Err(PqlError::range("unclosed parenthesis", open)),
                        Some(_) => return Err(self.unexpected("',', ':', '!' or ')'")),
                    }
                }
                self.depth -= 1;
                Ok(if alts.len() == 1 { alts.pop().expect("one") } else { Node::Union(alts) })
            }
            Some((Tok::Leaf, span)) => {
                self.pos += 1;
                self.leaves += 1;
                if self.leaves > RANGE_MAX_PARTS {
                    return Err(PqlError::range(
                        format!("the range has more than {} parts", crate::limits::grouped(RANGE_MAX_PARTS as u64)),
                        span,
                    )
                    .with_hint("a range this long is better written with spans and classes: AKs-A2s, QQ+, 15%"));
                }
                Ok(Node::Leaf(span))
            }
            Some((Tok::Open(_) | Tok::Close(_), span)) if self.depth > 0 => Err(PqlError::range(
                "weight brackets go around the top-level parts of a range, outside parentheses",
                span,
            )),
            _ => Err(self.unexpected("a hand")),
        }
    }
}

/// Parses `text` into its top-level parts. `words`: the classic word operators.
/// `stud`: parentheses that hold only hand characters belong to the hand (no-pair groups).
pub(crate) fn parse(text: &str, words: bool, stud: bool) -> Result<Vec<Part>, PqlError> {
    let toks = lex(text, words, stud)?;
    if toks.is_empty() {
        return Err(PqlError::range("empty range", Span::new(0, text.len())));
    }
    let mut p = Parser { text, toks, pos: 0, depth: 0, leaves: 0 };
    let mut parts = p.parts()?;
    // A part written again (same text, same weight) adds nothing to the union: read it once.
    let mut seen = std::collections::HashSet::new();
    parts.retain(|p| seen.insert((&text[p.span.start..p.span.end], p.weight)));
    Ok(parts)
}

/// A set algebra the expression is evaluated in (flop hands, stud hands). An operation may
/// fail (a stud set too large to hold); the message is placed on the operator's operands.
pub(crate) trait SetOps: Sized {
    fn union_with(&mut self, o: &Self) -> Result<(), String>;
    fn intersect_with(&mut self, o: &Self) -> Result<(), String>;
    fn minus_with(&mut self, o: &Self) -> Result<(), String>;
    /// Whether a union of several operands is computed at once by [`SetOps::union_all`] (a
    /// set kept sorted, which operand-by-operand unions would sort again each time), rather
    /// than operand by operand (bitsets: no need to hold every operand at once).
    const BATCHED_UNION: bool = false;
    /// The union of `sets` (at least one).
    fn union_all(sets: Vec<Self>) -> Result<Self, String> {
        let mut sets = sets.into_iter();
        let mut acc = sets.next().expect("a union has operands");
        for s in sets {
            acc.union_with(&s)?;
        }
        Ok(acc)
    }
    /// About how many machine words the set holds, for bounding a [`LeafMemo`].
    fn words(&self) -> usize;
}

/// Words of sets a [`LeafMemo`] holds at most (32 MiB).
const MEMO_WORDS: usize = 1 << 22;

/// The sets of the leaves read so far, by their text, so that a leaf written many times
/// (`AA:AA:…`, a pasted list) is read once: reading a leaf of a large game tests every hand.
pub(crate) struct LeafMemo<'t, S> {
    text: &'t str,
    seen: std::collections::HashMap<&'t str, S>,
    room: usize,
}

impl<'t, S: SetOps + Clone> LeafMemo<'t, S> {
    pub fn new(text: &'t str) -> LeafMemo<'t, S> {
        LeafMemo { text, seen: std::collections::HashMap::new(), room: MEMO_WORDS }
    }

    /// The set of the leaf at `span`, from `read` the first time its text is met.
    pub fn get(&mut self, span: Span, read: impl FnOnce(Span) -> Result<S, PqlError>) -> Result<S, PqlError> {
        let key = &self.text[span.start..span.end];
        if let Some(set) = self.seen.get(key) {
            return Ok(set.clone());
        }
        let set = read(span)?;
        if set.words() <= self.room {
            self.room -= set.words();
            self.seen.insert(key, set.clone());
        }
        Ok(set)
    }
}

/// The text a node covers: from its first leaf to its last.
fn node_span(node: &Node) -> Span {
    match node {
        Node::Leaf(s) => *s,
        Node::Union(alts) => node_span(&alts[0]).to(node_span(&alts[alts.len() - 1])),
        Node::Chain(first, rest) => node_span(first).to(rest.last().map_or(Span::default(), |(_, n)| node_span(n))),
        Node::Complement(a) => node_span(a),
    }
}

/// Evaluates `node`, reading each leaf with `leaf`; `all` is every hand (for complements).
/// Recurses only as deep as the node nests (at most [`RANGE_MAX_DEPTH`]).
pub(crate) fn eval<S: SetOps + Clone>(
    node: &Node,
    leaf: &mut dyn FnMut(Span) -> Result<S, PqlError>,
    all: &dyn Fn() -> S,
) -> Result<S, PqlError> {
    Ok(match node {
        Node::Leaf(span) => leaf(*span)?,
        Node::Union(alts) => {
            let placed = |m| PqlError::range(m, node_span(node));
            if S::BATCHED_UNION {
                let sets = alts.iter().map(|a| eval(a, leaf, all)).collect::<Result<Vec<S>, PqlError>>()?;
                S::union_all(sets).map_err(placed)?
            } else {
                let mut acc = eval(&alts[0], leaf, all)?;
                for a in &alts[1..] {
                    let next = eval(a, leaf, all)?;
                    acc.union_with(&next).map_err(placed)?;
                }
                acc
            }
        }
        Node::Chain(first, rest) => {
            let mut acc = eval(first, leaf, all)?;
            for (i, (op, operand)) in rest.iter().enumerate() {
                let other = eval(operand, leaf, all)?;
                let done = match op {
                    ChainOp::Inter => acc.intersect_with(&other),
                    ChainOp::Minus => acc.minus_with(&other),
                };
                // The message is placed on the operands combined so far.
                done.map_err(|m| PqlError::range(m, node_span(first).to(node_span(&rest[i].1))))?;
            }
            acc
        }
        Node::Complement(a) => {
            let mut acc = all();
            let other = eval(a, leaf, all)?;
            acc.minus_with(&other).map_err(|m| PqlError::range(m, node_span(node)))?;
            acc
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leaves(text: &str, node: &Node) -> String {
        match node {
            Node::Leaf(s) => text[s.start..s.end].to_string(),
            Node::Union(a) => format!("({})", a.iter().map(|n| leaves(text, n)).collect::<Vec<_>>().join(",")),
            Node::Chain(first, rest) => {
                let mut out = leaves(text, first);
                for (op, n) in rest {
                    let sign = if *op == ChainOp::Inter { ':' } else { '!' };
                    out = format!("[{out}{sign}{}]", leaves(text, n));
                }
                out
            }
            Node::Complement(a) => format!("~{}", leaves(text, a)),
        }
    }

    /// A weight as a percent, as `@` writes it (`@75`, `@33.3`).
    fn percent(w: u32) -> String {
        let whole = w / WEIGHT_PERCENT;
        let frac = w % WEIGHT_PERCENT;
        if frac == 0 {
            format!("@{whole}")
        } else {
            format!("@{whole}.{}", format!("{frac:04}").trim_end_matches('0'))
        }
    }

    fn show_in(text: &str, words: bool, stud: bool) -> String {
        parse(text, words, stud)
            .unwrap()
            .iter()
            .map(|p| format!("{}{}", leaves(text, &p.node), p.weight.map_or(String::new(), percent)))
            .collect::<Vec<_>>()
            .join(" ; ")
    }

    fn show(text: &str, words: bool) -> String {
        show_in(text, words, false)
    }

    #[test]
    fn precedence_and_grouping() {
        assert_eq!(show("AA:xxyy, JJ!JJJ, KK", false), "[AA:xxyy] ; [JJ!JJJ] ; KK");
        assert_eq!(show("A:B!C:D", false), "[[[A:B]!C]:D]");
        assert_eq!(show("(AA,KK):xxyy@3", false), "[(AA,KK):xxyy]@3");
        assert_eq!(show("K[2s,Jc,T], AA", false), "K[2s,Jc,T] ; AA");
        assert_eq!(show("(AK | AA) & offsuit", true), "[(AK,AA):offsuit]");
        assert_eq!(show("group2 to group5 and not suited", true), "[group2 to group5:~suited]");
        assert_eq!(show("pair not QQ", true), "[pair!QQ]");
        // Cards with whitespace between them are one leaf; words and commas still separate.
        assert_eq!(show("Qs Ts  Jd 2d, AA", false), "Qs Ts  Jd 2d ; AA");
        assert_eq!(show("AA to TT, As Kd", true), "AA to TT ; As Kd");
        assert_eq!(show("Ac Kd and suited", true), "[Ac Kd:suited]");
        let stud = |t: &str| {
            let parts = parse(t, false, true).unwrap();
            parts.iter().map(|p| leaves(t, &p.node)).collect::<Vec<_>>().join(" ; ")
        };
        assert_eq!(stud("(3-3-)45678, 45(6-7-)"), "(3-3-)45678 ; 45(6-7-)");
        assert_eq!(stud("(AA, KK):A"), "[(AA,KK):A]");
        assert_eq!(stud("(3- 3-) 4 5, A"), "(3- 3-) 4 5 ; A");
        let words = |t: &str| {
            let parts = parse(t, true, true).unwrap();
            parts.iter().map(|p| leaves(t, &p.node)).collect::<Vec<_>>().join(" ; ")
        };
        assert_eq!(words("(AA and KK)"), "[AA:KK]");
    }

    #[test]
    fn weights_of_other_tools_are_read_as_they_mean_there() {
        // Equilab, Flopzilla, GTO+: a percent on every part between `[N]` and `[/N]`.
        assert_eq!(show("[75]AA,KK[/75],QQ", false), "AA@75 ; KK@75 ; QQ");
        assert_eq!(show("[50.0]JTs,KJo[/50.0],[12.5]AhKh[/12.5]", false), "JTs@50 ; KJo@50 ; AhKh@12.5");
        assert_eq!(show("[50]AsKh, KK[/50], 55, Jh3s", false), "AsKh@50 ; KK@50 ; 55 ; Jh3s");
        assert_eq!(show("[50]AA[/50][25]KK[/25]", false), "AA@50 ; KK@25");
        assert_eq!(show("[33.33]AA:xxyy[/33.33]", false), "[AA:xxyy]@33.33");
        // `[7]` alone is a rank list of the generic syntax; with a closing bracket, a weight.
        assert_eq!(show("[7]AA*", false), "[7]AA*");
        assert_eq!(show("[7]AA**[/7]", false), "AA**@7");
        // PioSolver and GTO Wizard: a fraction of full weight after `:`, on classes and combos.
        assert_eq!(show("AA:0.75,KK:1,AKs:0.5", false), "AA@75 ; KK@100 ; AKs@50");
        assert_eq!(show("AcAd:0.5,KsKh,QsQd:0.25", false), "AcAd@50 ; KsKh ; QsQd@25");
        assert_eq!(show("AA:0.0625, KK:.333, QQ:1.00, JJ:0", false), "AA@6.25 ; KK@33.3 ; QQ@100 ; JJ@0");
        assert_eq!(show("AA:xxyy:0.8642", false), "[AA:xxyy]@86.42");
        // Six decimals of a fraction are held exactly, finer ones rounded.
        assert_eq!(parse("AA:0.123456", false, false).unwrap()[0].weight, Some(123_456));
        assert_eq!(parse("AA:0.1234565", false, false).unwrap()[0].weight, Some(123_457));
        assert_eq!(parse("AA@33.33335", false, false).unwrap()[0].weight, Some(333_334));
        // Stud: digits are ranks, so only a number of the weight form after `:` is a weight.
        assert_eq!(show_in("A:2, K:0.5", false, true), "[A:2] ; K@50");
        assert_eq!(show_in("(3-3-)45678:.25", false, true), "(3-3-)45678@25");
        // pql's own `@` takes decimals; an unweighted part has full weight beside weighted ones.
        assert_eq!(show("QQ+, AKs, A5s@50", false), "QQ+ ; AKs ; A5s@50");
        assert_eq!(show("AA@33.3, KK@0.5, QQ@.25", false), "AA@33.3 ; KK@0.5 ; QQ@0.25");
    }

    #[test]
    fn misplaced_weights_are_pointed_at() {
        let at = |text: &str| {
            let e = parse(text, false, false).unwrap_err();
            let span = e.span.expect("a placed error");
            (text[span.start..span.end].to_string(), e.message)
        };
        let (placed, message) = at("[75]AA,KK");
        assert_eq!(placed, "[75]");
        assert!(message.contains("not closed"), "{message}");
        let (placed, message) = at("[75]AA,[50]KK[/50]");
        assert_eq!(placed, "[50]");
        assert!(message.contains("do not nest"), "{message}");
        let (placed, message) = at("[75]AA,KK[/50]");
        assert_eq!(placed, "[/50]");
        assert!(message.contains("does not close"), "{message}");
        let (placed, message) = at("AA,KK[/50]");
        assert_eq!(placed, "[/50]");
        assert!(message.contains("closes no"), "{message}");
        let (placed, message) = at("[75]AA,KK@50[/75]");
        assert_eq!(placed, "KK@50");
        assert!(message.contains("of its own"), "{message}");
        let (placed, message) = at("AA:0.5@50, KK");
        assert_eq!(placed, "AA:0.5@50");
        assert!(message.contains("two weights"), "{message}");
        let (placed, message) = at("AA:1.5, KK");
        assert_eq!(placed, ":1.5");
        assert!(message.contains("0 to 1"), "{message}");
        let (placed, message) = at("AA@150");
        assert_eq!(placed, "@150");
        assert!(message.contains("0 to 100"), "{message}");
        let (placed, message) = at("(AA:0.5, KK)");
        assert_eq!(placed, ":0.5");
        assert!(message.contains("top-level"), "{message}");
        let (placed, _) = at("([50]AA[/50], KK)");
        assert_eq!(placed, "[50]");
        assert!(parse("AA@", false, false).unwrap_err().message.contains("expected a weight"));
    }

    #[test]
    fn errors_point_at_the_problem() {
        // Weighted and unweighted parts mix; a weight of 0 is read (its part adds no hand).
        assert_eq!(parse("AA@10, KK", false, false).unwrap()[1].weight, None);
        assert_eq!(parse("AA@0", false, false).unwrap()[0].weight, Some(0));
        let e = parse("(AA, KK", false, false).unwrap_err();
        assert_eq!(e.span, Some(Span::new(0, 1)));
        let e = parse("(AA) KK", true, false).unwrap_err();
        assert_eq!(e.span, Some(Span::new(5, 7)));
        // With a class word on either side, side by side means and (`HoldemHand`'s queries).
        let parts = parse("pair suited", true, false).unwrap();
        assert!(matches!(&parts[0].node, Node::Chain(_, rest) if rest[0].0 == ChainOp::Inter));
        assert!(parse("  ", false, false).unwrap_err().message.contains("empty"));
        let e = parse("(AA@3, KK)", false, false).unwrap_err();
        assert!(e.message.contains("top-level"), "{}", e.message);
    }
}
