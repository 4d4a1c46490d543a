//! Percent ranges and `handRanking`: every flop game's starting hands in order of strength.
//!
//! Hands are grouped into classes that differ only by a renaming of suits (169 in hold'em,
//! 16,432 in Omaha, 134,459 in 5-card Omaha); `rust_core/data/orderings/*.bin` (the Odds Oracle's
//! method, the default) and `orderings/equity/*.bin` (all-in equity) list the classes best first,
//! as numbers into the sorted list of class keys (2 bytes each, 3 when there are more than 65,536
//! classes). The tables are made by `examples/gen_orderings.rs`; the method is in
//! `rust_core/data/README.md`.
//!
//! Percent is counted in combos. A class's percentile is the position of its first combo,
//! `100 * (combos before it + 1) / all combos`; `from%-to%` holds the classes whose percentile is
//! in `(from, to]`, so `15%` holds a class that straddles 15% when it starts inside, `100%` is
//! every hand and `10%` is inside `20%`.

use super::universe::{universe, HandSet};
use crate::cards::CardSet;
use crate::error::{PqlError, Span};
use crate::games::Game;
use std::sync::OnceLock;

/// Which ordering of starting hands `N%` and `handRanking` read (`ordering='oracle'`, the
/// default, or `'equity'` in the from clause).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Ordering {
    /// The Odds Oracle's published method: what a hand wins at a table of conditional callers.
    #[default]
    Oracle,
    /// All-in equity against 8 (6-handed: 5) random hands.
    Equity,
}

impl Ordering {
    pub const ALL: [Ordering; 2] = [Ordering::Oracle, Ordering::Equity];

    pub fn name(self) -> &'static str {
        match self {
            Ordering::Oracle => "oracle",
            Ordering::Equity => "equity",
        }
    }

    pub fn from_name(name: &str) -> Option<Ordering> {
        Self::ALL.into_iter().find(|o| o.name().eq_ignore_ascii_case(name))
    }
}

/// The class key of a hand: its four per-suit rank masks, sorted, packed in a `u64`. Two hands
/// have the same key exactly when a renaming of suits turns one into the other.
pub fn class_key(hand: CardSet) -> u64 {
    let mut m = [hand.suit_mask(0), hand.suit_mask(1), hand.suit_mask(2), hand.suit_mask(3)];
    m.sort_unstable_by(|a, b| b.cmp(a));
    u64::from(m[0]) << 48 | u64::from(m[1]) << 32 | u64::from(m[2]) << 16 | u64::from(m[3])
}

/// The game whose ordering `game` uses: Triton short deck shares the short-deck ordering.
pub fn ordering_game(game: Game) -> Option<Game> {
    match game {
        Game::ShortDeckTriton => Some(Game::ShortDeck),
        g if g.is_stud() => None,
        g => Some(g),
    }
}

/// The games with an ordering of their own.
pub const ORDERING_GAMES: [Game; 6] =
    [Game::Holdem, Game::ShortDeck, Game::OmahaHi, Game::Omaha8, Game::Omaha5Hi, Game::Omaha85];

/// Every class key of a flop game, sorted (a class's number is its index here).
pub fn class_keys(game: Game) -> Vec<u64> {
    let mut keys: Vec<u64> = universe(game).hands.iter().map(|&h| class_key(h)).collect();
    keys.sort_unstable();
    keys.dedup();
    keys
}

/// The file name of an ordering under `rust_core/data/orderings/`.
pub fn ordering_file(game: Game, six_max: bool) -> String {
    format!("{}_{}.bin", game.name(), if six_max { "6max" } else { "full" })
}

/// Bytes per class number in an ordering file.
pub fn entry_width(classes: usize) -> usize {
    if classes > 1 << 16 {
        3
    } else {
        2
    }
}

fn ordering_bytes(game: Game, six_max: bool, ordering: Ordering) -> &'static [u8] {
    macro_rules! files {
        ($name:literal) => {
            (
                include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/data/orderings/", $name)).as_slice(),
                include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/data/orderings/equity/", $name)).as_slice(),
            )
        };
    }
    let (oracle, equity) = match (game, six_max) {
        (Game::Holdem, false) => files!("holdem_full.bin"),
        (Game::Holdem, true) => files!("holdem_6max.bin"),
        (Game::ShortDeck, false) => files!("shortdeck_full.bin"),
        (Game::ShortDeck, true) => files!("shortdeck_6max.bin"),
        (Game::OmahaHi, false) => files!("omahahi_full.bin"),
        (Game::OmahaHi, true) => files!("omahahi_6max.bin"),
        (Game::Omaha8, false) => files!("omaha8_full.bin"),
        (Game::Omaha8, true) => files!("omaha8_6max.bin"),
        (Game::Omaha5Hi, false) => files!("omahahi5_full.bin"),
        (Game::Omaha5Hi, true) => files!("omahahi5_6max.bin"),
        (Game::Omaha85, false) => files!("omaha85_full.bin"),
        (Game::Omaha85, true) => files!("omaha85_6max.bin"),
        _ => return &[],
    };
    match ordering {
        Ordering::Oracle => oracle,
        Ordering::Equity => equity,
    }
}

/// Each class's percentile (by class number) in the ordering `bytes` of `game`; `None` when the
/// bytes are not an ordering of the game's classes.
pub fn class_percentiles(game: Game, bytes: &[u8]) -> Option<Vec<f32>> {
    let keys = class_keys(game);
    let width = entry_width(keys.len());
    if bytes.len() != keys.len() * width {
        return None;
    }
    let mut size = vec![0u32; keys.len()];
    for &h in &universe(game).hands {
        size[keys.binary_search(&class_key(h)).expect("a class of the game")] += 1;
    }
    let total: u64 = size.iter().map(|&s| u64::from(s)).sum();
    let mut percentile = vec![f32::NAN; keys.len()];
    let mut before = 0u64;
    for e in bytes.chunks(width) {
        let class = e.iter().rev().fold(0usize, |acc, &b| acc << 8 | b as usize);
        if class >= keys.len() || !percentile[class].is_nan() {
            return None;
        }
        percentile[class] = (100.0 * (before + 1) as f64 / total as f64) as f32;
        before += u64::from(size[class]);
    }
    Some(percentile)
}

/// One ordering, ready to answer: class keys and each class's percentile.
struct Table {
    keys: Vec<u64>,
    percentile: Vec<f32>,
}

impl Table {
    fn build(game: Game, six_max: bool, ordering: Ordering) -> Option<Table> {
        let percentile = class_percentiles(game, ordering_bytes(game, six_max, ordering))?;
        Some(Table { keys: class_keys(game), percentile })
    }

    fn of(&self, hand: CardSet) -> f64 {
        self.keys.binary_search(&class_key(hand)).map_or(100.0, |i| f64::from(self.percentile[i]))
    }
}

fn table(game: Game, six_max: bool, ordering: Ordering) -> Option<&'static Table> {
    static TABLES: [OnceLock<Option<Table>>; 24] = [const { OnceLock::new() }; 24];
    let g = ordering_game(game)?;
    let i = (ORDERING_GAMES.iter().position(|&x| x == g)? * 2 + usize::from(six_max)) * 2 + ordering as usize;
    TABLES[i].get_or_init(|| Table::build(g, six_max, ordering)).as_ref()
}

/// The hands whose class percentile is in `(from, to]` (`from = 0` includes the first class).
pub(crate) fn percent_set(
    game: Game,
    from: f64,
    to: f64,
    six_max: bool,
    ordering: Ordering,
    span: Span,
) -> Result<HandSet, PqlError> {
    let Some(t) = table(game, six_max, ordering) else {
        return Err(PqlError::range(format!("no percentage ordering for {}", game.title()), span));
    };
    let uni = universe(game);
    if to >= 100.0 && from <= 0.0 {
        return Ok(HandSet::full(uni.len()));
    }
    Ok(HandSet::from_predicate(uni, |h| {
        let p = t.of(h);
        p > from && p <= to
    }))
}

/// `handRanking`: a flop-game starting hand's position in the game's ordering as a percentile
/// in (0, 100]: `hand_percentile(..) <= 15` iff the hand is in `15%`. Hands of no ordering (stud,
/// wrong size) give 100.
pub fn hand_percentile(game: Game, hand: CardSet, six_max: bool, ordering: Ordering) -> f64 {
    table(game, six_max, ordering).map_or(100.0, |t| t.of(hand))
}
