//! The PQL lexer: text -> tokens with byte spans. Comments and whitespace are dropped; a bad
//! character becomes an error and is skipped, so the parser always sees a complete stream
//! ending in `Eof`.

use super::vocab::KEYWORDS;
use crate::error::{excerpt, PqlError, Span};

/// The reserved words of PQL (docs/language/statements.md). Selector names, streets and hand types are not
/// reserved: they are identifiers resolved by the parser and the checker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keyword {
    Select,
    Simulate,
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
    const ALL: [Keyword; 15] = [
        Keyword::Select,
        Keyword::Simulate,
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
    /// `.`, which joins a player and a setting in a simulate key (`villain.raise_threshold`).
    Dot,
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
                format!("the string {}", excerpt(source.get(self.span.start..self.span.end).unwrap_or("''")))
            }
            _ => format!("'{}'", excerpt(source.get(self.span.start..self.span.end).unwrap_or(""))),
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
                b'\'' | b'"' => self.string(b),
                b'0'..=b'9' => self.number(),
                b'.' if self.peek(1).is_ascii_digit() => self.number(),
                b'a'..=b'z' | b'A'..=b'Z' | b'_' => self.word(),
                _ if self.at_foreign_letter() => self.word(),
                _ => self.symbol(),
            }
        }
        let end = self.bytes.len();
        self.tokens.push(Token { kind: TokenKind::Eof, span: Span::new(end, end) });
    }

    /// The character at `pos`.
    fn char_at(&self, pos: usize) -> Option<char> {
        self.src.get(pos..).and_then(|rest| rest.chars().next())
    }

    /// A letter outside ASCII (`é`): read into the word so `hérö` is one bad name, not six errors.
    fn at_foreign_letter(&self) -> bool {
        self.char_at(self.pos).is_some_and(|c| !c.is_ascii() && c.is_alphanumeric())
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

    /// Quoted by `quote`, no escapes (docs/language/statements.md): the contents run to the next same quote.
    /// Double quotes read exactly as single ones, as the Odds Oracle's web runner read them.
    fn string(&mut self, quote: u8) {
        let start = self.pos;
        self.pos += 1;
        if let Some(len) = self.src[self.pos..].find(quote as char) {
            let content = Span::new(self.pos, self.pos + len);
            self.pos += len + 1;
            self.push(TokenKind::Str { content }, start);
        } else {
            // Read the rest as the string so one missing quote gives one error.
            let content = Span::new(self.pos, self.bytes.len());
            self.pos = self.bytes.len();
            self.errors.push(PqlError::syntax(
                format!("unterminated string: expected a closing quote ({})", quote as char),
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
                format!("'{}' is not a number or a name (names start with a letter)", excerpt(text)),
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
            self.errors
                .push(PqlError::syntax(format!("number '{}' is too large", excerpt(text)), Span::new(start, self.pos)));
            self.push(TokenKind::Int(0), start);
        }
    }

    fn word(&mut self) {
        let start = self.pos;
        let mut foreign = false;
        loop {
            if self.peek(0).is_ascii_alphanumeric() || self.peek(0) == b'_' {
                self.pos += 1;
            } else if self.at_foreign_letter() {
                foreign = true;
                self.pos += self.char_at(self.pos).map_or(1, char::len_utf8);
            } else {
                break;
            }
        }
        let text = &self.src[start..self.pos];
        if foreign {
            self.errors.push(
                PqlError::syntax(
                    format!("'{}' is not a valid name: names use ASCII letters, digits and _", excerpt(text)),
                    Span::new(start, self.pos),
                )
                .with_hint("spell it without accents, e.g. hero"),
            );
        }
        let kind = match Keyword::from_name(text) {
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
            (b'=', b'<') => return self.stand_in(TokenKind::Le, 2, "'=<' is not an operator: write '<='"),
            (b'=', b'>') => return self.stand_in(TokenKind::Ge, 2, "'=>' is not an operator: write '>='"),
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
            (b'.', _) => (TokenKind::Dot, 1),
            // Operators of other languages: reported, and read as the PQL word they stand for so
            // the rest of the statement parses as meant.
            (b'&', b'&') => return self.stand_in(TokenKind::Keyword(Keyword::And), 2, "unexpected '&&': write 'and'"),
            (b'&', _) => return self.stand_in(TokenKind::Keyword(Keyword::And), 1, "unexpected '&': write 'and'"),
            (b'|', _) => {
                return self.stand_in(
                    TokenKind::Keyword(Keyword::Or),
                    1,
                    "unexpected '|': write 'or' to join conditions ('||' joins strings)",
                )
            }
            (b'!', _) => {
                return self.stand_in(TokenKind::Keyword(Keyword::Not), 1, "unexpected '!': write 'not' or '<>'")
            }
            _ => {
                let ch = self.char_at(start).unwrap_or('?');
                if let Some(close) = other_quote(ch) {
                    return self.other_string(ch, close);
                }
                return self.bad_characters();
            }
        };
        self.pos += len;
        self.push(kind, start);
    }

    /// Reports the `len` bytes at `pos` with `message` and reads them as `kind`.
    fn stand_in(&mut self, kind: TokenKind, len: usize, message: &str) {
        let start = self.pos;
        self.pos += len;
        self.errors.push(PqlError::syntax(message, Span::new(start, self.pos)));
        self.push(kind, start);
    }

    /// A string in curly quotes: one error, and read as the string it was meant to be.
    fn other_string(&mut self, open: char, close: char) {
        let start = self.pos;
        self.pos += open.len_utf8();
        let rest = &self.src[self.pos..];
        // Up to the matching quote (or a straight one) on the same line; else the quote alone
        // is bad. The search stops at the next quote of the same kind, so the lexer stays linear.
        let end = rest
            .char_indices()
            .find(|&(_, c)| c == close || c == '\'' || c == open || c == '\n')
            .filter(|&(_, c)| c != '\n');
        let message = format!("unexpected '{open}': strings use straight quotes ('AA' or \"AA\")");
        let hint = "an editor may have curled the quotes: type ' (U+0027)";
        match end {
            Some((len, c)) => {
                let content = Span::new(self.pos, self.pos + len);
                self.pos += len + c.len_utf8();
                self.errors.push(PqlError::syntax(message, Span::new(start, start + open.len_utf8())).with_hint(hint));
                self.push(TokenKind::Str { content }, start);
            }
            None => self.errors.push(PqlError::syntax(message, Span::new(start, self.pos)).with_hint(hint)),
        }
    }

    /// A run of characters PQL has no use for, possibly separated by whitespace: one error.
    /// The first character is always taken, so the lexer moves on.
    fn bad_characters(&mut self) {
        let start = self.pos;
        let first = self.char_at(start).unwrap_or('?');
        let mut end = start + first.len_utf8();
        let mut count = 1usize;
        let mut at = end;
        while let Some(c) = self.char_at(at) {
            if c.is_ascii_whitespace() {
                at += 1;
            } else if is_bad(c) {
                count += 1;
                at += c.len_utf8();
                end = at;
            } else {
                break;
            }
        }
        self.pos = end;
        let message = if count == 1 {
            format!("unexpected character {}", describe_char(first))
        } else {
            let shown: String = self.src[start..end]
                .chars()
                .map(|c| if c.is_ascii_whitespace() { c.to_string() } else { visible(c) })
                .collect();
            format!("unexpected characters '{}'", excerpt(&shown))
        };
        self.errors.push(PqlError::syntax(message, Span::new(start, end)));
    }
}

/// The closing quote of a quote PQL does not use: curly single and double quotes.
fn other_quote(open: char) -> Option<char> {
    match open {
        '\u{2018}' | '\u{2019}' | '\u{201B}' => Some('\u{2019}'),
        '\u{201C}' | '\u{201D}' | '\u{201F}' => Some('\u{201D}'),
        _ => None,
    }
}

/// A character the lexer has no token or special message for.
fn is_bad(c: char) -> bool {
    !(c.is_ascii_alphanumeric()
        || c.is_ascii_whitespace()
        || "_'(),;=<>!|&+-*/.\"".contains(c)
        || other_quote(c).is_some()
        || (!c.is_ascii() && c.is_alphanumeric()))
}

/// How a character shows in a message: itself when visible, else its code point.
fn visible(c: char) -> String {
    if c.is_control() || c.is_whitespace() || is_invisible(c) {
        format!("U+{:04X}", u32::from(c))
    } else {
        c.to_string()
    }
}

/// Characters that print as nothing.
fn is_invisible(c: char) -> bool {
    matches!(c, '\u{200B}'..='\u{200F}' | '\u{2060}'..='\u{2064}' | '\u{FEFF}' | '\u{00AD}' | '\u{034F}')
}

/// `'@'`, or `U+00A0 (a no-break space)` for a character that does not show.
fn describe_char(c: char) -> String {
    let name = match c {
        '\0' => Some("a NUL character"),
        '\u{00A0}' | '\u{202F}' => Some("a no-break space"),
        '\u{200B}' => Some("a zero-width space"),
        '\u{FEFF}' => Some("a byte order mark"),
        '\u{2028}' | '\u{2029}' => Some("a line separator"),
        '\u{00AD}' => Some("a soft hyphen"),
        _ if c.is_control() => Some("a control character"),
        _ if c.is_whitespace() => Some("a space that is not a plain space"),
        _ if is_invisible(c) => Some("an invisible character"),
        _ => None,
    };
    match name {
        Some(name) => format!("U+{:04X} ({name})", u32::from(c)),
        None if c.is_ascii() => format!("'{c}'"),
        None => format!("'{c}' (U+{:04X})", u32::from(c)),
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

    fn messages(text: &str) -> Vec<String> {
        tokenize(text).1.into_iter().map(|e| e.message).collect()
    }

    #[test]
    fn a_run_of_bad_characters_is_one_error() {
        let (tokens, errors) = tokenize("a @@ @ #\tb");
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].message, "unexpected characters '@@ @ #'");
        assert_eq!(errors[0].span, Some(Span::new(2, 8)));
        assert_eq!(tokens.len(), 3);
        // A megabyte of garbage is one short error.
        let garbage = "@#$%^~`?".repeat(125_000);
        let errors = messages(&garbage);
        assert_eq!(errors.len(), 1);
        assert!(errors[0].len() < 80, "{}", errors[0]);
    }

    #[test]
    fn invisible_characters_are_named_by_code_point() {
        assert_eq!(messages("a\u{a0}b"), ["unexpected character U+00A0 (a no-break space)"]);
        assert_eq!(messages("a\u{200b}b"), ["unexpected character U+200B (a zero-width space)"]);
        assert_eq!(messages("a\u{0}b"), ["unexpected character U+0000 (a NUL character)"]);
        assert_eq!(messages("a\u{feff}"), ["unexpected character U+FEFF (a byte order mark)"]);
        assert_eq!(messages("€"), ["unexpected character '€' (U+20AC)"]);
        assert_eq!(messages("\u{a0}\u{a0}"), ["unexpected characters 'U+00A0U+00A0'"]);
    }

    #[test]
    fn names_with_foreign_letters_are_one_bad_name() {
        let (tokens, errors) = tokenize("hérö='AA'");
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].message, "'hérö' is not a valid name: names use ASCII letters, digits and _");
        assert_eq!(tokens[0].kind, TokenKind::Ident);
        assert_eq!(tokens[0].span, Span::new(0, 6));
        assert_eq!(tokens[1].kind, TokenKind::Eq);
    }

    #[test]
    fn double_quotes_read_as_single_quotes() {
        for (text, inner) in [("x=\"AA\"", "AA"), ("x=\"it's\"", "it's"), ("x='say \"hi\"'", "say \"hi\"")] {
            let (tokens, errors) = tokenize(text);
            assert!(errors.is_empty(), "{text}: {errors:?}");
            let TokenKind::Str { content } = tokens[2].kind else { panic!("{text}: {tokens:?}") };
            assert_eq!(&text[content.start..content.end], inner, "{text}");
            assert_eq!(tokens[3].kind, TokenKind::Eof, "{text}");
        }
        let (_, errors) = tokenize("x=\"AA");
        assert_eq!(errors.len(), 1);
        assert!(errors[0].message.contains("closing quote (\")"), "{}", errors[0].message);
    }

    #[test]
    fn other_quotes_are_read_as_strings_with_one_error() {
        for text in ["x=’AA’", "x=‘AA’", "x=“AA”", "x=’AA'"] {
            let (tokens, errors) = tokenize(text);
            assert_eq!(errors.len(), 1, "{text}");
            let TokenKind::Str { content } = tokens[2].kind else { panic!("{text}: {tokens:?}") };
            assert_eq!(&text[content.start..content.end], "AA", "{text}");
            assert_eq!(tokens[3].kind, TokenKind::Eof, "{text}");
        }
        // No closing quote on the line: only the quote is bad.
        let (tokens, errors) = tokenize("x=’AA\ny");
        assert_eq!(errors.len(), 1);
        assert_eq!(tokens.iter().filter(|t| t.kind == TokenKind::Ident).count(), 3);
    }

    #[test]
    fn operators_of_other_languages_stand_in_for_ours() {
        let (tokens, errors) = tokenize("a && b & c | d ! e =< f => g");
        let kinds: Vec<_> = tokens.iter().map(|t| t.kind.clone()).filter(|k| *k != TokenKind::Ident).collect();
        assert_eq!(
            kinds,
            [
                TokenKind::Keyword(Keyword::And),
                TokenKind::Keyword(Keyword::And),
                TokenKind::Keyword(Keyword::Or),
                TokenKind::Keyword(Keyword::Not),
                TokenKind::Le,
                TokenKind::Ge,
                TokenKind::Eof
            ]
        );
        assert_eq!(errors.len(), 6);
        assert_eq!(errors[0].message, "unexpected '&&': write 'and'");
    }

    #[test]
    fn keyword_table_matches_the_enum() {
        for k in Keyword::ALL {
            assert_eq!(Keyword::from_name(k.name()), Some(k));
        }
        assert_eq!(Keyword::ALL.len(), KEYWORDS.len());
    }
}
