use super::{Card, CardSet, Rank, Suit};
use crate::error::excerpt;
use std::fmt;

/// A card text that is not a card; `offset` is the byte offset of the bad part.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CardParseError {
    pub message: String,
    pub offset: usize,
}

impl fmt::Display for CardParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for CardParseError {}

/// `'A'`, `'t'`, `'9'` -> rank. Only the standard characters, so typos are caught.
pub fn parse_rank(ch: char) -> Option<Rank> {
    let r = match ch.to_ascii_uppercase() {
        '2'..='9' => ch as u8 - b'2',
        'T' => 8,
        'J' => 9,
        'Q' => 10,
        'K' => 11,
        'A' => 12,
        _ => return None,
    };
    Some(r)
}

pub fn parse_suit(ch: char) -> Option<Suit> {
    match ch.to_ascii_lowercase() {
        'c' => Some(0),
        'd' => Some(1),
        'h' => Some(2),
        's' => Some(3),
        _ => None,
    }
}

/// One card such as `As`, `td`, `9H`.
pub fn parse_card(text: &str) -> Result<Card, CardParseError> {
    let set = parse_cards(text)?;
    match set.len() {
        1 => Ok(set.first().expect("one card")),
        n => Err(CardParseError { message: format!("expected one card, found {n} in '{}'", excerpt(text)), offset: 0 }),
    }
}

/// Cards written one after another, optionally separated by spaces or commas: `AsKd`, `As Kd 2c`.
/// A repeated card is an error.
pub fn parse_cards(text: &str) -> Result<CardSet, CardParseError> {
    let mut set = CardSet::EMPTY;
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut i = 0;
    while i < chars.len() {
        let (off, ch) = chars[i];
        if ch.is_whitespace() || ch == ',' {
            i += 1;
            continue;
        }
        if ch == '1' && chars.get(i + 1).is_some_and(|&(_, c)| c == '0') {
            return Err(CardParseError {
                message: format!("'10' is not a rank: write T for ten (at '{}')", excerpt(&text[off..])),
                offset: off,
            });
        }
        let Some(rank) = parse_rank(ch) else {
            return Err(CardParseError {
                message: format!(
                    "'{ch}' is not a rank (expected one of A K Q J T 9 8 7 6 5 4 3 2) in '{}'",
                    excerpt(text)
                ),
                offset: off,
            });
        };
        let Some(&(soff, sch)) = chars.get(i + 1) else {
            return Err(CardParseError {
                message: format!("card '{ch}' has no suit (expected s, h, d or c)"),
                offset: off,
            });
        };
        let Some(suit) = parse_suit(sch) else {
            return Err(CardParseError {
                message: format!("'{sch}' is not a suit (expected s, h, d or c) in '{}'", excerpt(text)),
                offset: soff,
            });
        };
        let card = Card::new(rank, suit);
        if set.contains(card) {
            return Err(CardParseError { message: format!("card {card} appears twice"), offset: off });
        }
        set.insert(card);
        i += 2;
    }
    Ok(set)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_cards_in_any_case() {
        assert_eq!(parse_card("As").unwrap(), Card::new(12, 3));
        assert_eq!(parse_card("ah").unwrap(), Card::new(12, 2));
        assert_eq!(parse_card("Td").unwrap(), Card::new(8, 1));
        assert_eq!(parse_cards("As Kd, 2c").unwrap().len(), 3);
    }

    #[test]
    fn bad_cards_name_the_bad_text() {
        let e = parse_card("10h").unwrap_err();
        assert!(e.message.contains("'10' is not a rank"), "{}", e.message);
        let e = parse_card("Zz").unwrap_err();
        assert!(e.message.contains("'Z' is not a rank"), "{}", e.message);
        let e = parse_cards("AsKx").unwrap_err();
        assert_eq!(e.offset, 3);
        assert!(e.message.contains("'x' is not a suit"));
        assert!(parse_cards("AsAs").unwrap_err().message.contains("twice"));
        assert!(parse_cards("A").unwrap_err().message.contains("no suit"));
    }
}
