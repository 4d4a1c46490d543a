//! Every bound the engine puts on the size of what it is given, in one place (docs/limits.md).
//!
//! Each keeps hostile or mistaken input (a megabyte of `!`, a million selectors) from costing
//! unbounded stack, memory or time: past one, the text is refused with a positioned error that
//! names the bound. The Python package reads them all through `pql_repl.base.limits`, which adds the
//! bounds on the files the front ends read.

/// Parentheses, calls, `case` and prefix operators of a query nested deeper than this are
/// refused: the parser recurses into each.
pub const QUERY_MAX_DEPTH: u32 = 100;

/// Expression trees deeper than this are refused: the checker, the planner, the evaluator and
/// `Drop` recurse over the tree. A chain of binary operators (`a or b or c ...`) is parsed by a
/// loop but builds a tree as deep as it is long, so this bounds it. At 200 the check still fits
/// a 1 MiB stack in a debug build (about 4 KiB a level there); a longer chain can be grouped:
/// `(a or … or b) or (c or … or d)` is only as deep as its parts.
pub const QUERY_MAX_TREE_DEPTH: u32 = 200;

/// Selectors in one statement.
pub const MAX_SELECTORS: usize = 1_000;

/// `when … then …` arms in one `case`.
pub const MAX_CASE_ARMS: usize = 1_000;

/// The most players a statement may seat. Hold'em's deck could deal 23, but per-deal state is
/// sized for ten (winner masks, per-player caches), as the original PQL's tables were.
pub const MAX_PLAYERS: usize = 10;

/// Errors one text reports at most; the rest are counted in a last entry.
pub const MAX_ERRORS: usize = 50;

/// Parentheses and `!`/`not` prefixes of a range (or board, or dead-card pattern) nested deeper
/// than this are refused: reading and evaluating the expression recurse into each.
pub const RANGE_MAX_DEPTH: u32 = 100;

/// Parts (hands, classes, patterns: the leaves between `,` `:` `!`) of one range. Chains of any
/// length up to this are read by loops; identical parts are read once.
pub const RANGE_MAX_PARTS: usize = 100_000;

/// Steps of work while reading one range: a hand tested, a card tried in a slot of a pattern,
/// 32 hands of a set made and combined, a stud hand made. A part whose hands are few is read by
/// listing them; any other tests every hand of the game (2,598,960 in 5-card Omaha, and a
/// pattern of variables tries several orders of each hand's cards), so this bounds the time a
/// range takes to read to about a second.
pub const RANGE_MAX_WORK: u64 = 100_000_000;

/// Hands a stud range may stand for once its parts are completed to the same cards: they are
/// held in memory.
pub const STUD_MAX_HANDS: usize = 3_000_000;

/// A `board=` pattern with more boards than this is not listed but drawn by rejection.
pub const BOARD_MAX_LISTED: usize = 2_000_000;

/// Cards tried in a slot while listing a board or dead-card pattern (flop orderings included)
/// before giving up on the list: also bounds the search of a pattern whose variables cannot
/// all be bound.
pub const PATTERN_MAX_ASSIGNMENTS: usize = 12_000_000;

/// Sets of cards a `dead=` pattern may allow: they are held in memory.
pub const DEAD_MAX_SETS: usize = 200_000;

/// Different values one `histogram` may count: past this the run stops with an error rather
/// than holding (and printing) millions of buckets.
pub const MAX_HISTOGRAM_BUCKETS: usize = 10_000;

/// Every bound above by name, for `pql_repl.base.limits` and the documentation.
pub const ALL: [(&str, u64); 14] = [
    ("query_max_depth", QUERY_MAX_DEPTH as u64),
    ("query_max_tree_depth", QUERY_MAX_TREE_DEPTH as u64),
    ("max_selectors", MAX_SELECTORS as u64),
    ("max_case_arms", MAX_CASE_ARMS as u64),
    ("max_players", MAX_PLAYERS as u64),
    ("max_errors", MAX_ERRORS as u64),
    ("range_max_depth", RANGE_MAX_DEPTH as u64),
    ("range_max_parts", RANGE_MAX_PARTS as u64),
    ("range_max_work", RANGE_MAX_WORK),
    ("stud_max_hands", STUD_MAX_HANDS as u64),
    ("board_max_listed", BOARD_MAX_LISTED as u64),
    ("pattern_max_assignments", PATTERN_MAX_ASSIGNMENTS as u64),
    ("dead_max_sets", DEAD_MAX_SETS as u64),
    ("max_histogram_buckets", MAX_HISTOGRAM_BUCKETS as u64),
];

/// `n` with its digits grouped in threes (`100,000`), as limits are written in messages.
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::grouped;

    #[test]
    fn digits_are_grouped_in_threes() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
        assert_eq!(grouped(100_000), "100,000");
        assert_eq!(grouped(3_000_000), "3,000,000");
    }
}
