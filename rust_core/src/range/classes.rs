//! Named hold'em hand classes of the classic syntax, after `HoldemHand`'s pocket query language:
//! Sklansky's `group1`..`group8` (and `group2-group5`, `group2 to group5`), `suited`, `offsuit`,
//! `pair`, `connected`, `gap1`..`gap3`, and the `Kx` family; `HoldemHand`'s spellings `Offset`
//! (offsuit) and `AK*` (both ranks, any suits: `HoldemHand`'s own `AK` is offsuit only, ours both).
//!
//! Definitions used (`HoldemHand`'s source was not available to check; these follow Sklansky's
//! published groups): in the group lists `Axs` is A9s..A2s and `Kxs` is K8s..K2s (the suited
//! kickers not listed in a better group). The `Kx` class is a king with a smaller card below nine
//! (2..8) that does not pair it; `8x` is an eight with 2..7. `connected` and `gapN` are non-pairs
//! whose ranks differ by N+1, the ace high or low as `HoldemHand` has it ("As 2h has a gap of
//! 0"): `connected` is AK..32 and A2 (13 rank pairs), `gap1` AQ..42 and A3, `gap3` A5. In short
//! deck the ace's low neighbour is the six (A-6-7-8-9 is a straight): A6 is connected.

use super::classic::{parse_leaf, ClassicLeaf, Pattern, Suitedness};
use crate::cards::{parse_rank, Rank, ACE};
use crate::error::{PqlError, Span};

/// The class words, for suggestions.
pub const NAMES: &[&str] = &[
    "group1",
    "group2",
    "group3",
    "group4",
    "group5",
    "group6",
    "group7",
    "group8",
    "suited",
    "offsuit",
    "pair",
    "connected",
    "gap1",
    "gap2",
    "gap3",
    "offset",
];

/// Whether `word` names a class (its letters are never a hand): the words `HoldemHand` writes
/// next to each other to mean *and* (`Connected Suited`).
pub(crate) fn is_class_word(word: &str) -> bool {
    let lower = word.to_ascii_lowercase();
    NAMES.contains(&lower.as_str())
        || matches!(lower.as_str(), "pairs" | "connectors")
        || group_number(&lower).is_some()
}

/// Sklansky's groups, written in the classic syntax.
const GROUPS: [&str; 8] = [
    "AA KK QQ JJ AKs",
    "TT AKo AQs AJs KQs",
    "99 JTs QJs KJs ATs AQo",
    "T9s KQo 88 QTs 98s J9s AJo KTs",
    "77 87s Q9s T8s KJo QJo JTo 76s 97s A9s-A2s 65s",
    "66 ATo 55 86s KTo QTo 54s K9s J8s 75s",
    "44 J9o 64s T9o 53s 33 98o 43s 22 K8s-K2s T7s Q8s",
    "87o A9o Q9o 76o 42s 32s 96s 85s J8o J7s 65o 54o 74s K9o T8o",
];

fn group(n: usize) -> Vec<Pattern> {
    GROUPS[n - 1]
        .split_whitespace()
        .flat_map(|tok| match parse_leaf(tok, 0, 0) {
            Ok(ClassicLeaf::Patterns(p)) => p,
            other => unreachable!("group token {tok}: {other:?}"),
        })
        .collect()
}

fn group_number(word: &str) -> Option<usize> {
    let w = word.to_ascii_lowercase();
    let n: usize = w.strip_prefix("group")?.parse().ok()?;
    (1..=8).contains(&n).then_some(n)
}

/// Non-pairs whose ranks differ by `d`, aces high, and the ace with the rank `d` above the
/// deck's lowest (the ace played low).
fn distance(d: Rank, lowest: Rank) -> Vec<Pattern> {
    let mut v: Vec<Pattern> = (d..=12).map(|h| Pattern::ranks(h, h - d, Suitedness::Any)).collect();
    v.push(Pattern::ranks(ACE, lowest + d - 1, Suitedness::Any));
    v
}

/// The class named by `text`, or `None` when `text` is no class name. `lowest` is the deck's
/// lowest rank (where the ace plays low).
pub(crate) fn named(text: &str, offset: usize, lowest: Rank) -> Result<Option<Vec<Pattern>>, PqlError> {
    let span = Span::new(offset, offset + text.len());
    let lower = text.to_ascii_lowercase();
    let all_ranks = || (0..13u8).flat_map(|h| (0..=h).map(move |l| (h, l)));
    let simple = match lower.as_str() {
        "suited" => {
            Some(all_ranks().filter(|(h, l)| h != l).map(|(h, l)| Pattern::ranks(h, l, Suitedness::Suited)).collect())
        }
        // `HoldemHand`'s document writes `Offset` for offsuit.
        "offsuit" | "offset" => {
            Some(all_ranks().filter(|(h, l)| h != l).map(|(h, l)| Pattern::ranks(h, l, Suitedness::Offsuit)).collect())
        }
        "pair" | "pairs" => Some((0..13).map(|r| Pattern::ranks(r, r, Suitedness::Any)).collect()),
        "connected" | "connectors" => Some(distance(1, lowest)),
        "gap1" => Some(distance(2, lowest)),
        "gap2" => Some(distance(3, lowest)),
        "gap3" => Some(distance(4, lowest)),
        _ => None,
    };
    if simple.is_some() {
        return Ok(simple);
    }
    if let Some(n) = group_number(&lower) {
        return Ok(Some(group(n)));
    }
    // group2-group5, group2 to group5, group2 through group5
    let words: Vec<&str> = lower.split(|c: char| c.is_whitespace() || c == '-').filter(|w| !w.is_empty()).collect();
    if words.first().is_some_and(|w| w.starts_with("group")) {
        let ends = match words.as_slice() {
            [a, b] | [a, "to" | "through", b] => group_number(a).zip(group_number(b)),
            _ => None,
        };
        let Some((a, b)) = ends else {
            return Err(PqlError::range("expected group1..group8, or a run such as group2-group5", span));
        };
        return Ok(Some((a.min(b)..=a.max(b)).flat_map(group).collect()));
    }
    let chars: Vec<char> = text.chars().collect();
    // `HoldemHand`'s `AK*`: both ranks, any suits (its plain `AK` is offsuit only; ours is both).
    if let [a, b, '*'] = chars[..] {
        if let (Some(a), Some(b)) = (parse_rank(a), parse_rank(b)) {
            return Ok(Some(vec![Pattern::ranks(a.max(b), a.min(b), Suitedness::Any)]));
        }
    }
    // Kx, Kxs, Kxo: a rank with a smaller kicker below nine.
    if chars.len() >= 2 && chars[1] == 'x' {
        if let Some(r) = parse_rank(chars[0]) {
            let suits = match chars.get(2) {
                None => Suitedness::Any,
                Some('s') if chars.len() == 3 => Suitedness::Suited,
                Some('o') if chars.len() == 3 => Suitedness::Offsuit,
                _ => return Ok(None),
            };
            let below_nine = 7u8; // ranks 2..8 are 0..6
            return Ok(Some((0..r.min(below_nine)).map(|k| Pattern::ranks(r, k, suits)).collect()));
        }
    }
    Ok(None)
}
