//! Range languages (PQL-SPEC §5): generic, classic, named hold'em classes, stud hands,
//! percentages, weights; board patterns and dead cards.
//!
//! A range text is split by `expr` into its `,` `:` `!` structure around leaves; each syntax module
//! reads the leaves (`generic`, `classic` + `classes`, `stud`); flop-game ranges are evaluated as
//! bitsets over every starting hand of the game (`universe`), so combining leaves is bit
//! arithmetic and matching a term is a bitmask search (`matcher`).
//!
//! May use: `cards`, `games`, `error` (and `rng` in tests).

mod board;
mod classes;
mod classic;
mod cursor;
mod expr;
mod generic;
mod macros;
mod matcher;
pub mod percent;
mod stud;
mod universe;

pub use board::{parse_board, parse_board_pattern, parse_dead, BoardRange, DeadCards};
/// The named hold'em classes of the classic syntax (`group1`, `suited`, ...), for completion.
pub use classes::NAMES as CLASS_NAMES;
pub use macros::{check_name as check_macro_name, Macros};
pub use percent::hand_percentile;

use crate::cards::{Card, CardSet};
use crate::error::{PqlError, Span};
use crate::games::Game;
use universe::HandSet;

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
    /// Flop games: each hand's number in the game's universe, increasing (parallel to `flop`).
    indices: Vec<u32>,
    /// Stud games: the hands by their known positions, for `contains_hand`.
    stud_index: Option<std::sync::Arc<stud::StudIndex>>,
    /// Running weight totals, made on the first weighted `pick`.
    cumulative: std::sync::OnceLock<Vec<u64>>,
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

    /// Stud games: the positions the hands fix (bit i for the i-th card dealt); every hand of a
    /// stud range fixes the same ones. 0 for flop games and for every hand (`*`).
    pub fn stud_positions(&self) -> u8 {
        self.stud.first().map_or(0, |h| h.iter().enumerate().fold(0u8, |m, (i, c)| m | u8::from(c.is_some()) << i))
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
        if self.game.is_stud() {
            return self.stud_index.as_ref().is_some_and(|i| i.contains(cards));
        }
        let hand = CardSet::from_cards(cards.iter().copied());
        if hand.len() as usize != cards.len() {
            return false;
        }
        universe::universe(self.game).index_of(hand).is_some_and(|i| self.indices.binary_search(&(i as u32)).is_ok())
    }

    /// The hands as card strings (`AsKs`; stud `AsKd7c` with `*` for open positions).
    pub fn to_strings(&self) -> Vec<String> {
        if self.game.is_stud() {
            self.stud.iter().map(stud::hand_string).collect()
        } else {
            self.flop.iter().map(ToString::to_string).collect()
        }
    }

    /// Hand `i` as a card string (as `to_strings` writes it).
    pub fn hand_string(&self, i: usize) -> String {
        if self.game.is_stud() {
            stud::hand_string(&self.stud[i])
        } else {
            self.flop[i].to_string()
        }
    }

    /// The weight of a flop-game hand in this range (0 when it is not in the range).
    pub fn weight_of(&self, hand: CardSet) -> u32 {
        universe::universe(self.game)
            .index_of(hand)
            .and_then(|i| self.indices.binary_search(&(i as u32)).ok())
            .map_or(0, |k| self.weights[k])
    }

    /// The hand a uniform number `u` in `[0, 1)` picks, in proportion to the weights: the
    /// position in `flop_combos()` / `stud_hands()`. `None` for an empty range.
    pub fn pick(&self, u: f64) -> Option<usize> {
        let n = self.len();
        if n == 0 {
            return None;
        }
        if !self.weighted {
            return Some(((u * n as f64) as usize).min(n - 1));
        }
        // The first hand whose running weight total passes the target.
        let cumulative = self.cumulative.get_or_init(|| {
            self.weights
                .iter()
                .scan(0u64, |acc, &w| {
                    *acc += u64::from(w);
                    Some(*acc)
                })
                .collect()
        });
        // Not empty (n > 0) and every weight is 1 to 100, so the total is positive.
        let total = *cumulative.last().expect("a non-empty range");
        let target = ((u * total as f64) as u64).min(total - 1);
        Some(cumulative.partition_point(|&c| c <= target))
    }

    fn from_flop_set(game: Game, set: &HandSet, weights: Option<&[u32]>) -> Range {
        let uni = universe::universe(game);
        let indices: Vec<u32> = set.iter().map(|i| i as u32).collect();
        let flop = indices.iter().map(|&i| uni.hands[i as usize]).collect();
        let weighted = weights.is_some();
        let weights = match weights {
            Some(w) => indices.iter().map(|&i| w[i as usize]).collect(),
            None => vec![1; indices.len()],
        };
        let full = !weighted && indices.len() == uni.len();
        Range {
            game,
            flop,
            stud: Vec::new(),
            weights,
            weighted,
            full,
            indices,
            stud_index: None,
            cumulative: std::sync::OnceLock::new(),
        }
    }

    fn with_stud_index(mut self) -> Range {
        self.stud_index = Some(std::sync::Arc::new(stud::StudIndex::new(&self.stud)));
        self
    }
}

/// Parses a player's range. Error spans are byte offsets into `text`.
pub fn parse_range(text: &str, game: Game, syntax: Syntax) -> Result<Range, PqlError> {
    parse_range_with(text, game, syntax, &Macros::none())
}

/// [`parse_range`] with the user's named ranges (`$open`) defined.
pub fn parse_range_with(text: &str, game: Game, syntax: Syntax, macros: &Macros) -> Result<Range, PqlError> {
    let range = parse_expanding(text, game, syntax, macros, &mut macros::Expansion::default())?;
    if range.is_empty() {
        return Err(PqlError::range(format!("the range '{}' matches no hand", text.trim()), Span::new(0, text.len())));
    }
    Ok(range)
}

fn parse_expanding(
    text: &str,
    game: Game,
    syntax: Syntax,
    macros: &Macros,
    expansion: &mut macros::Expansion,
) -> Result<Range, PqlError> {
    // A named range that is the whole range keeps its weights.
    if let Some((name, body)) = macros.lookup(text) {
        let at = text.find('$').unwrap_or(0);
        let span = Span::new(at, text.trim_end().len());
        expansion.enter(name, span)?;
        let range = parse_expanding(body, game, syntax, macros, expansion).map_err(|e| macros::placed(e, name, span));
        expansion.leave();
        return range;
    }
    let mut named = |leaf: &str, span: Span| -> Option<Result<Range, PqlError>> {
        macros.lookup(leaf).is_some().then(|| named_range(leaf, span, game, syntax, macros, expansion))
    };
    if game.is_stud() {
        stud::parse(text, game, syntax, &mut named)
    } else {
        parse_flop(text, game, syntax, &mut named)
    }
}

/// Reads a leaf that names a user macro: `Some` with the range it stands for, `None` for any
/// other leaf.
pub(crate) type NamedLeaf<'a> = dyn FnMut(&str, Span) -> Option<Result<Range, PqlError>> + 'a;

/// The range `$name` stands for, read in the game and syntax of the range using it (at `span`).
fn named_range(
    leaf: &str,
    span: Span,
    game: Game,
    syntax: Syntax,
    macros: &Macros,
    expansion: &mut macros::Expansion,
) -> Result<Range, PqlError> {
    let (name, body) = macros.lookup(leaf).expect("a defined name");
    expansion.enter(name, span)?;
    let range = parse_expanding(body, game, syntax, macros, expansion).map_err(|e| macros::placed(e, name, span));
    expansion.leave();
    range
}

fn parse_flop(text: &str, game: Game, syntax: Syntax, named: &mut NamedLeaf<'_>) -> Result<Range, PqlError> {
    let uni = universe::universe(game);
    let classic_holdem = syntax == Syntax::Classic && game.hole_cards() == 2;
    let parts = expr::parse(text, syntax == Syntax::Classic, false)?;
    let mut leaf = |span: Span| -> Result<HandSet, PqlError> {
        let leaf_text = &text[span.start..span.end];
        if let Some(range) = named(leaf_text, span) {
            // Combined with other leaves, a named range counts by its hands (not its weights).
            let mut set = HandSet::empty(uni.len());
            for &i in &range?.indices {
                set.insert(i as usize);
            }
            return Ok(set);
        }
        if classic_holdem {
            classic_leaf_set(leaf_text, span.start, game)
        } else {
            generic_leaf_set(leaf_text, span.start, game, syntax)
        }
    };
    let all = || HandSet::full(uni.len());
    let weighted = parts.iter().any(|p| p.weight.is_some());
    let mut total = HandSet::empty(uni.len());
    let mut weights = weighted.then(|| vec![0u32; uni.len()]);
    for part in &parts {
        let set = expr::eval(&part.node, &mut leaf, &all)?;
        if let (Some(w), Some(pw)) = (weights.as_mut(), part.weight) {
            // A hand matched by several parts takes the largest weight.
            for i in set.iter() {
                w[i] = w[i].max(pw);
            }
        }
        total.union_with(&set);
    }
    Ok(Range::from_flop_set(game, &total, weights.as_deref()))
}

fn classic_leaf_set(text: &str, offset: usize, game: Game) -> Result<HandSet, PqlError> {
    let uni = universe::universe(game);
    match classic::parse_leaf(text, offset, game.deck().lowest_rank())? {
        classic::ClassicLeaf::All => Ok(HandSet::full(uni.len())),
        classic::ClassicLeaf::Percent { from, to, six_max } => {
            percent::percent_set(game, from, to, six_max, Span::new(offset, offset + text.len()))
        }
        classic::ClassicLeaf::Patterns(p) => Ok(HandSet::from_predicate(uni, |h| p.iter().any(|p| p.matches(h)))),
    }
}

/// `to`/`through` (merged into one leaf with the hands around it) outside classic hold'em.
pub(crate) fn worded_span_error(text: &str, offset: usize, game: Game) -> Option<PqlError> {
    text.contains(char::is_whitespace).then(|| {
        PqlError::range(
            format!("'to' and 'through' join two hold'em hands or groups; in {} write spans with '-'", game.title()),
            Span::new(offset, offset + text.len()),
        )
        .with_hint("e.g. AA-TT")
    })
}

/// The classic hold'em class words (`suited`, `pair`, `group3`, ...) where they do not apply:
/// in the generic syntax their letters would read as cards and variables (`pair` as an ace and
/// three rank variables), so they are refused with what to write instead.
fn class_word_error(text: &str, offset: usize, game: Game, syntax: Syntax) -> Option<PqlError> {
    let lower = text.to_ascii_lowercase();
    let is_class = classes::NAMES.contains(&lower.as_str())
        || matches!(lower.as_str(), "pairs" | "connectors")
        || lower.starts_with("group");
    if !is_class {
        return None;
    }
    let (message, hint) = if syntax == Syntax::Generic && game.hole_cards() == 2 {
        (
            format!("'{text}' is a hand class of the classic syntax, not of syntax='generic'"),
            "leave out syntax='generic', or write cards: xx suited, xy offsuit, RR a pair",
        )
    } else {
        (
            format!("'{text}' is a hold'em hand class: it does not apply to {}", game.title()),
            "write cards: RR** a pair, xx** two suited cards, $ds double-suited",
        )
    };
    Some(PqlError::range(message, Span::new(offset, offset + text.len())).with_hint(hint))
}

/// A term with more cards than the game's hands never matches: an error, not an empty range.
fn check_term_size(len: usize, what: &str, game: Game, span: Span) -> Result<(), PqlError> {
    let k = game.hole_cards();
    if len > k {
        return Err(PqlError::range(format!("{what} has {len} cards, but a {} hand has {k}", game.title()), span));
    }
    Ok(())
}

fn generic_leaf_set(text: &str, offset: usize, game: Game, syntax: Syntax) -> Result<HandSet, PqlError> {
    if let Some(e) = worded_span_error(text, offset, game).or_else(|| class_word_error(text, offset, game, syntax)) {
        return Err(e);
    }
    let uni = universe::universe(game);
    let leaf = generic::parse_leaf(text, offset, generic::RankOrder { ace_low: false }, game.deck())?;
    let span = Span::new(offset, offset + text.len());
    if let generic::Leaf::Terms(terms) = &leaf.leaf {
        if let Some(t) = terms.first() {
            check_term_size(t.len(), &format!("'{text}'"), game, span)?;
        }
    }
    for (_, term, name) in &leaf.filters {
        check_term_size(term.len(), &format!("the macro {name}"), game, span)?;
    }
    let mut set = match &leaf.leaf {
        generic::Leaf::All => HandSet::full(uni.len()),
        generic::Leaf::Percent { from, to, six_max } => percent::percent_set(game, *from, *to, *six_max, span)?,
        generic::Leaf::Terms(terms) => HandSet::from_predicate(uni, |h| terms.iter().any(|t| t.matches_hand(h))),
    };
    // Suffix macros only test the hands already in the set.
    for (op, term, _) in &leaf.filters {
        let keep = *op == generic::FilterOp::Inter;
        let mut filtered = HandSet::empty(uni.len());
        for i in set.iter().filter(|&i| term.matches_hand(uni.hands[i]) == keep) {
            filtered.insert(i);
        }
        set = filtered;
    }
    Ok(set)
}

impl expr::SetOps for HandSet {
    fn union_with(&mut self, o: &Self) -> Result<(), String> {
        HandSet::union_with(self, o);
        Ok(())
    }
    fn intersect_with(&mut self, o: &Self) -> Result<(), String> {
        HandSet::intersect_with(self, o);
        Ok(())
    }
    fn minus_with(&mut self, o: &Self) -> Result<(), String> {
        HandSet::minus_with(self, o);
        Ok(())
    }
}
