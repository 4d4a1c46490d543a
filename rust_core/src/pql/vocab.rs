//! PQL's vocabulary, the one source of truth for the lexer, the checker, completion and help.

/// Reserved words, in the order of `lexer::Keyword`.
pub const KEYWORDS: &[&str] = &[
    "select", "simulate", "as", "from", "where", "and", "or", "not", "case", "when", "then", "else", "end", "true",
    "false",
];

/// The aggregate selectors of a select list.
pub const SELECTORS: &[&str] = &["avg", "count", "histogram", "max", "min"];

/// From-clause keys that are not players.
pub const RESERVED_KEYS: &[&str] = &["game", "syntax", "ordering", "board", "dead"];

/// The candidate actions of a `simulate` statement, least aggressive first.
pub const ACTIONS: &[&str] = &["fold", "check", "call", "bet", "raise"];

/// From-clause keys of a `simulate` statement beside `RESERVED_KEYS` (docs/language/simulate.md); the two
/// thresholds may also be given per player (`villain.raise_threshold=0.8`).
pub const SIMULATE_KEYS: &[&str] = &[
    "pot",
    "tocall",
    "bet",
    "raises",
    "stakes",
    "to_act",
    "folded",
    "history",
    "call_threshold",
    "raise_threshold",
    "stop",
    "choose",
];

/// The settings a player may be given in a `simulate` statement (`villain.raise_threshold`).
pub const PLAYER_SETTINGS: &[&str] = &["call_threshold", "raise_threshold"];
