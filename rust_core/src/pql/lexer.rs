//! The PQL lexer: text -> tokens with byte spans. Comments and whitespace are dropped; a bad
//! character becomes an error and is skipped, so the parser always sees a complete stream
//! ending in `Eof`.

use super::vocab::KEYWORDS;
use crate::error::{PqlError, Span};

/// The reserved words of PQL (PQL-SPEC §1). Selector names, streets and hand types are not
/// reserved: they are identifiers resolved by the parser and the checker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keyword {
    Select,
    As,
    From,
    Where,
    And,
    Or,
    Not,
    Case,
    When,
    Then,
    Else,
    End,
    True,
    False,
}

impl Keyword {
    const ALL: [Keyword; 14] = [
        Keyword::Select,
        Keyword::As,
        Keyword::From,
        Keyword::Where,
        Keyword::And,
        Keyword::Or,
        Keyword::Not,
        Keyword::Case,
        Keyword::When,
        Keyword::Then,
        Keyword::Else,
        Keyword::End,
        Keyword::True,
        Keyword::False,
    ];

    pub fn name(self) -> &'static str {
        KEYWORDS[self as usize]
    }

    pub fn from_name(word: &str) -> Option<Keyword> {
        Self::ALL.into_iter().find(|k| k.name().eq_ignore_ascii_case(word))
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum TokenKind {
    Ident,
    Keyword(Keyword),
    Int(i64),
    Double(f64),
    /// A single-quoted string; `content` is the span inside the quotes.
    Str {
        content: Span,
    },
    LParen,
    RParen,
    Comma,
    Semicolon,
    Eq,
    /// `<>` or `!=`.
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Concat,
    Plus,
    Minus,
    Star,
    Slash,
    Eof,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    pub kind: TokenKind,
    pub span: Span,
}

impl Token {
    /// How the token is named in "found ..." messages.
    pub fn describe(&self, source: &str) -> String {
        match self.kind {
            TokenKind::Eof => "the end of the query".to_string(),
            TokenKind::Str { .. } => {
                format!("the string {}", source.get(self.span.start..self.span.end).unwrap_or("''"))
            }
            _ => format!("'{}'", source.get(self.span.start..self.span.end).unwrap_or("")),
        }
    }
}

/// Splits `source` into tokens (always ending with `Eof`) and the lexical errors found.
pub fn tokenize(source: &str) -> (Vec<Token>, Vec<PqlError>) {
    let mut lexer = Lexer { src: source, bytes: source.as_bytes(), pos: 0, tokens: Vec::new(), errors: Vec::new() };
    lexer.run();
    (lexer.tokens, lexer.errors)
}

struct Lexer<'a> {
    src: &'a str,
    bytes: &'a [u8],
    pos: usize,
    tokens: Vec<Token>,
    errors: Vec<PqlError>,
}

impl Lexer<'_> {
    fn peek(&self, ahead: usize) -> u8 {
        self.bytes.get(self.pos + ahead).copied().unwrap_or(0)
    }

    fn push(&mut self, kind: TokenKind, start: usize) {
        self.tokens.push(Token { kind, span: Span::new(start, self.pos) });
    }

    fn run(&mut self) {
        while self.pos < self.bytes.len() {
            let start = self.pos;
            let b = self.bytes[start];
            match b {
                b' ' | b'\t' | b'\r' | b'\n' | 0x0c => self.pos += 1,
                b'-' if self.peek(1) == b'-' => self.skip_line_comment(),
                b'/' if self.peek(1) == b'*' => self.skip_block_comment(),
                b'\'' => self.string(),
                b'0'..=b'9' => self.number(),
                b'.' if self.peek(1).is_ascii_digit() => self.number(),
                b'a'..=b'z' | b'A'..=b'Z' | b'_' => self.word(),
                _ => self.symbol(),
            }
        }
        let end = self.bytes.len();
        self.tokens.push(Token { kind: TokenKind::Eof, span: Span::new(end, end) });
    }

    fn skip_line_comment(&mut self) {
        while self.pos < self.bytes.len() && self.bytes[self.pos] != b'\n' {
            self.pos += 1;
        }
    }

    fn skip_block_comment(&mut self) {
        let start = self.pos;
        self.pos += 2;
        loop {
            if self.pos >= self.bytes.len() {
                self.errors.push(
                    PqlError::syntax("unterminated comment: expected '*/'", Span::new(start, start + 2))
                        .with_hint("close the comment with */"),
                );
                return;
            }
            if self.bytes[self.pos] == b'*' && self.peek(1) == b'/' {
                self.pos += 2;
                return;
            }
            self.pos += 1;
        }
    }

    /// Single-quoted, no escapes (PQL-SPEC §1): the contents run to the next quote.
    fn string(&mut self) {
        let start = self.pos;
        self.pos += 1;
        if let Some(len) = self.src[self.pos..].find('\'') {
            let content = Span::new(self.pos, self.pos + len);
            self.pos += len + 1;
            self.push(TokenKind::Str { content }, start);
        } else {
            // Read the rest as the string so one missing quote gives one error.
            let content = Span::new(self.pos, self.bytes.len());
            self.pos = self.bytes.len();
            self.errors.push(PqlError::syntax(
                "unterminated string: expected a closing quote (')",
                Span::new(start, start + 1),
            ));
            self.push(TokenKind::Str { content }, start);
        }
    }

    fn number(&mut self) {
        let start = self.pos;
        while self.peek(0).is_ascii_digit() {
            self.pos += 1;
        }
        let mut is_double = false;
        if self.peek(0) == b'.' && self.peek(1).is_ascii_digit() {
            is_double = true;
            self.pos += 1;
            while self.peek(0).is_ascii_digit() {
                self.pos += 1;
            }
        }
        // `3abc` is one bad token, not a number followed by a name.
        if self.peek(0).is_ascii_alphabetic() || self.peek(0) == b'_' {
            while self.peek(0).is_ascii_alphanumeric() || self.peek(0) == b'_' {
                self.pos += 1;
            }
            let text = &self.src[start..self.pos];
            self.errors.push(PqlError::syntax(
                format!("'{text}' is not a number or a name (names start with a letter)"),
                Span::new(start, self.pos),
            ));
            self.push(TokenKind::Int(0), start);
            return;
        }
        let text = &self.src[start..self.pos];
        if is_double {
            let value = text.parse::<f64>().unwrap_or(0.0);
            self.push(TokenKind::Double(value), start);
        } else if let Ok(value) = text.parse::<i64>() {
            self.push(TokenKind::Int(value), start);
        } else {
            self.errors.push(PqlError::syntax(format!("number '{text}' is too large"), Span::new(start, self.pos)));
            self.push(TokenKind::Int(0), start);
        }
    }

    fn word(&mut self) {
        let start = self.pos;
        while self.peek(0).is_ascii_alphanumeric() || self.peek(0) == b'_' {
            self.pos += 1;
        }
        let kind = match Keyword::from_name(&self.src[start..self.pos]) {
            Some(k) => TokenKind::Keyword(k),
            None => TokenKind::Ident,
        };
        self.push(kind, start);
    }

    fn symbol(&mut self) {
        let start = self.pos;
        let (kind, len) = match (self.bytes[start], self.peek(1)) {
            (b'(', _) => (TokenKind::LParen, 1),
            (b')', _) => (TokenKind::RParen, 1),
            (b',', _) => (TokenKind::Comma, 1),
            (b';', _) => (TokenKind::Semicolon, 1),
            (b'=', b'=') => (TokenKind::Eq, 2),
            (b'=', _) => (TokenKind::Eq, 1),
            (b'<', b'>') | (b'!', b'=') => (TokenKind::Ne, 2),
            (b'<', b'=') => (TokenKind::Le, 2),
            (b'<', _) => (TokenKind::Lt, 1),
            (b'>', b'=') => (TokenKind::Ge, 2),
            (b'>', _) => (TokenKind::Gt, 1),
            (b'|', b'|') => (TokenKind::Concat, 2),
            (b'+', _) => (TokenKind::Plus, 1),
            (b'-', _) => (TokenKind::Minus, 1),
            (b'*', _) => (TokenKind::Star, 1),
            (b'/', _) => (TokenKind::Slash, 1),
            _ => {
                let ch = self.src[start..].chars().next().unwrap_or('?');
                self.pos += ch.len_utf8();
                let message = match ch {
                    '"' => "unexpected '\"': strings use single quotes ('AA')".to_string(),
                    '|' => "unexpected '|': string concatenation is '||'".to_string(),
                    '!' => "unexpected '!': write 'not' or '<>'".to_string(),
                    _ => format!("unexpected character '{ch}'"),
                };
                self.errors.push(PqlError::syntax(message, Span::new(start, self.pos)));
                return;
            }
        };
        self.pos += len;
        self.push(kind, start);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<TokenKind> {
        let (tokens, errors) = tokenize(text);
        assert!(errors.is_empty(), "{errors:?}");
        tokens.into_iter().map(|t| t.kind).collect()
    }

    #[test]
    fn numbers_in_every_form() {
        assert_eq!(
            kinds("3 0.5 .5"),
            vec![TokenKind::Int(3), TokenKind::Double(0.5), TokenKind::Double(0.5), TokenKind::Eof]
        );
    }

    #[test]
    fn keywords_are_case_insensitive_and_comments_vanish() {
        assert_eq!(
            kinds("SeLeCt /* a\ncomment */ hero -- rest\n<> != <= ||"),
            vec![
                TokenKind::Keyword(Keyword::Select),
                TokenKind::Ident,
                TokenKind::Ne,
                TokenKind::Ne,
                TokenKind::Le,
                TokenKind::Concat,
                TokenKind::Eof
            ]
        );
    }

    #[test]
    fn strings_keep_the_span_of_their_contents() {
        let (tokens, _) = tokenize("x='AKs, QQ+'");
        assert_eq!(tokens[2].kind, TokenKind::Str { content: Span::new(3, 11) });
        assert_eq!(tokens[2].span, Span::new(2, 12));
    }

    #[test]
    fn bad_input_is_reported_and_skipped() {
        let (tokens, errors) = tokenize("a # 'open");
        assert_eq!(errors.len(), 2);
        assert_eq!(errors[0].span, Some(Span::new(2, 3)));
        assert!(errors[1].message.starts_with("unterminated string"));
        assert_eq!(tokens.last().unwrap().kind, TokenKind::Eof);
        let (_, errors) = tokenize("/* never closed");
        assert!(errors[0].message.starts_with("unterminated comment"));
        let (_, errors) = tokenize("99999999999999999999 3x");
        assert_eq!(errors.len(), 2);
    }

    #[test]
    fn keyword_table_matches_the_enum() {
        for k in Keyword::ALL {
            assert_eq!(Keyword::from_name(k.name()), Some(k));
        }
        assert_eq!(Keyword::ALL.len(), KEYWORDS.len());
    }
}
