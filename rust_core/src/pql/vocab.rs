//! PQL's vocabulary, the one source of truth for the lexer, the checker, completion and help.

/// Reserved words, in the order of `lexer::Keyword`.
pub const KEYWORDS: &[&str] =
    &["select", "as", "from", "where", "and", "or", "not", "case", "when", "then", "else", "end", "true", "false"];

/// The aggregate selectors of a select list.
pub const SELECTORS: &[&str] = &["avg", "count", "histogram", "max", "min"];

/// From-clause keys that are not players.
pub const RESERVED_KEYS: &[&str] = &["game", "syntax", "board", "dead"];
