//! Range languages (PQL-SPEC §5): generic, classic, named hold'em classes, stud hands,
//! percentages, weights; board patterns and dead cards. (Being written: see the ranges helper;
//! the signatures below are the contract the planner compiles against.)

use crate::cards::{Card, CardSet};
use crate::error::PqlError;
use crate::games::Game;

/// How the ranges of a statement are read (`syntax='classic'`, the default, or `'generic'`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Syntax {
    #[default]
    Classic,
    Generic,
}

impl Syntax {
    pub const ALL: [Syntax; 2] = [Syntax::Classic, Syntax::Generic];

    pub fn name(self) -> &'static str {
        match self {
            Syntax::Classic => "classic",
            Syntax::Generic => "generic",
        }
    }

    pub fn from_name(name: &str) -> Option<Syntax> {
        Self::ALL.into_iter().find(|s| s.name().eq_ignore_ascii_case(name))
    }
}

/// A compiled range: its hands with weights, cheap to sample and to enumerate.
#[derive(Clone, Debug)]
pub struct Range {
    game: Game,
    flop: Vec<CardSet>,
    stud: Vec<[Option<Card>; 7]>,
    weights: Vec<u32>,
    weighted: bool,
    full: bool,
}

impl Range {
    pub fn game(&self) -> Game {
        self.game
    }

    /// Number of hands.
    pub fn len(&self) -> usize {
        if self.game.is_stud() {
            self.stud.len()
        } else {
            self.flop.len()
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every hand of the game, unweighted (`*`, `**`, `100%`): the sampler deals it from the deck.
    pub fn is_full(&self) -> bool {
        self.full
    }

    /// Flop games: each hand as its set of hole cards (empty for stud games).
    pub fn flop_combos(&self) -> &[CardSet] {
        &self.flop
    }

    /// Stud games: each hand in dealing order (two down, four up, one down), `None` where the
    /// range leaves a card to be dealt at random (empty for flop games).
    pub fn stud_hands(&self) -> &[[Option<Card>; 7]] {
        &self.stud
    }

    /// One weight per hand, parallel to the hands; all 1 when the range has no `@` weights.
    pub fn weights(&self) -> &[u32] {
        &self.weights
    }

    pub fn is_weighted(&self) -> bool {
        self.weighted
    }

    /// Whether a dealt hand (cards in dealing order; order ignored in flop games) is in the range.
    pub fn contains_hand(&self, cards: &[Card]) -> bool {
        let _ = cards;
        false
    }

    /// The hands as card strings (`AsKs`; stud `AsKd7c` with `*` for open positions).
    pub fn to_strings(&self) -> Vec<String> {
        Vec::new()
    }
}

/// A board pattern: the boards it allows, for sampling, and a matcher for `boardInRange`.
#[derive(Clone, Debug)]
pub struct BoardRange {
    boards: Vec<Vec<Card>>,
}

impl BoardRange {
    /// Every board the pattern allows, cards by position (flop, turn, river); all the same length.
    pub fn boards(&self) -> &[Vec<Card>] {
        &self.boards
    }

    /// `boardInRange`: flop cards unordered, turn and river positional; a pattern longer than the
    /// board never matches.
    pub fn matches(&self, board: &[Card]) -> bool {
        let _ = board;
        false
    }
}

/// Parses a player's range. Error spans are byte offsets into `text`.
pub fn parse_range(text: &str, game: Game, syntax: Syntax) -> Result<Range, PqlError> {
    let _ = (text, game, syntax);
    Err(PqlError::range("ranges are being merged", crate::error::Span { start: 0, end: text.len() }))
}

/// Parses a `board=` value or a `boardInRange` pattern (generic syntax in both modes).
pub fn parse_board(text: &str, game: Game) -> Result<BoardRange, PqlError> {
    let _ = (text, game);
    Err(PqlError::range("boards are being merged", crate::error::Span { start: 0, end: text.len() }))
}

/// Parses `dead=`: the cards removed from the deck.
pub fn parse_dead(text: &str, game: Game) -> Result<CardSet, PqlError> {
    let _ = (text, game);
    Err(PqlError::range("dead cards are being merged", crate::error::Span { start: 0, end: text.len() }))
}

/// `handRanking`: a flop-game starting hand's position in the game's ordering as a percentile
/// in (0, 100]: `hand_percentile(..) <= 15` iff the hand is in `15%`.
pub fn hand_percentile(game: Game, hand: CardSet, six_max: bool) -> f64 {
    let _ = (game, hand, six_max);
    100.0
}
