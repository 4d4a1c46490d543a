//! Range languages (docs/language/ranges.md): generic, classic, named hold'em classes, stud hands,
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
mod spaced;
mod stud;
mod universe;

pub use board::{parse_board, parse_board_pattern, parse_dead, BoardRange, DeadCards};
/// The named hold'em classes of the classic syntax (`group1`, `suited`, ...), for completion.
pub use classes::NAMES as CLASS_NAMES;
pub use macros::{check_name as check_macro_name, Macros};
pub use percent::{hand_percentile, Ordering};

use crate::cards::{Card, CardSet};
use crate::error::{excerpt, PqlError, Span};
use crate::games::Game;
use crate::limits::{grouped, RANGE_MAX_WORK};
use universe::HandSet;

/// Full weight: a hand of an unweighted range, `@100`, `:1`, `[100]`. Weights are held in
/// millionths of full weight, so every weight those tools export means exactly what it means
/// there: Pio's and GTO Wizard's fractions to six decimals (`:0.0625`, `:0.333`), percents to four
/// (`@33.3`, `[12.5]`); finer digits are rounded to the nearest millionth.
pub const WEIGHT_FULL: u32 = 1_000_000;
/// One percent of weight (`@1`): the unit of pql's weights before finer ones were read.
pub const WEIGHT_PERCENT: u32 = WEIGHT_FULL / 100;

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
    /// Whole numbers in proportion to the hands' weights, each at least 1 (see `weights`).
    weights: Vec<u32>,
    weighted: bool,
    /// What a weight of `weights` is in [`WEIGHT_FULL`]ths of full weight.
    unit: u32,
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

    /// One weight per hand, parallel to the hands: the whole numbers the engine draws hands by,
    /// in proportion to the weights written. All 1 when the range has no weights; else the
    /// weights in the coarsest unit that holds them exactly and divides one percent, so a range
    /// weighted in whole percents (`AA@10, KK@5`, `AA:0.1, KK:0.05`) has its percents (10 and
    /// 5), as pql always had. A hand at full weight has [`Range::full_weight`].
    pub fn weights(&self) -> &[u32] {
        &self.weights
    }

    /// The weight (in `weights`) of a hand at full weight: 1 when the range has no weights, 100
    /// when it is weighted in whole percents, up to [`WEIGHT_FULL`].
    pub fn full_weight(&self) -> u32 {
        WEIGHT_FULL / self.unit
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

    /// The hands' positions in rank order: by their cards' ranks, highest first, then by their
    /// suits (`AsAh`, `AsAd` … `AdAc`, `AsKs` … `KsKh` …). A flop-game hand's cards are taken
    /// high to low, as `to_strings` writes them; a stud hand's in dealing order, the down cards
    /// high first, an open position ranking lowest.
    pub fn rank_order(&self) -> Vec<usize> {
        /// Ranks, then suits, each highest first, an absent card last.
        fn key(cards: &[Option<Card>]) -> [u8; 14] {
            let mut k = [u8::MAX; 14];
            for (i, c) in cards.iter().take(7).enumerate() {
                if let Some(c) = c {
                    k[i] = 12 - c.rank();
                    k[7 + i] = 3 - c.suit();
                }
            }
            k
        }
        let mut order: Vec<usize> = (0..self.len()).collect();
        if self.game.is_stud() {
            order.sort_by_cached_key(|&i| {
                let mut h = self.stud[i];
                if let (Some(a), Some(b)) = (h[0], h[1]) {
                    if (b.rank(), b.suit()) > (a.rank(), a.suit()) {
                        h.swap(0, 1);
                    }
                }
                key(&h)
            });
        } else {
            order.sort_by_cached_key(|&i| {
                let mut cards = [None; 7];
                for (slot, c) in cards.iter_mut().zip(self.flop[i].iter()) {
                    *slot = Some(c);
                }
                cards.sort_by_key(|c| std::cmp::Reverse(c.map(|c| (c.rank(), c.suit()))));
                key(&cards)
            });
        }
        order
    }

    /// Hand `i` as a card string (as `to_strings` writes it).
    pub fn hand_string(&self, i: usize) -> String {
        if self.game.is_stud() {
            stud::hand_string(&self.stud[i])
        } else {
            self.flop[i].to_string()
        }
    }

    /// The weight of a flop-game hand in this range, as `weights` has it (0 when it is not in
    /// the range).
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
        // Not empty (n > 0) and every weight is at least 1, so the total is positive.
        let total = *cumulative.last().expect("a non-empty range");
        let target = ((u * total as f64) as u64).min(total - 1);
        Some(cumulative.partition_point(|&c| c <= target))
    }

    fn from_flop_set(game: Game, set: &HandSet, weights: Option<&[u32]>) -> Range {
        let uni = universe::universe(game);
        let indices: Vec<u32> = set.iter().map(|i| i as u32).collect();
        let flop = indices.iter().map(|&i| uni.hands[i as usize]).collect();
        let weighted = weights.is_some();
        let fine: Vec<u32> = match weights {
            Some(w) => indices.iter().map(|&i| w[i as usize]).collect(),
            None => vec![WEIGHT_FULL; indices.len()],
        };
        let (weights, unit) = relative(fine, weighted);
        let full = !weighted && indices.len() == uni.len();
        Range {
            game,
            flop,
            stud: Vec::new(),
            unit,
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

/// A range's weights (in [`WEIGHT_FULL`]ths, each at least 1) as the whole numbers it draws by,
/// and their unit: each hand 1 when the range has no weights, else the weights divided by their
/// greatest common divisor with one percent.
pub(crate) fn relative(mut weights: Vec<u32>, weighted: bool) -> (Vec<u32>, u32) {
    fn gcd(a: u32, b: u32) -> u32 {
        if b == 0 {
            a
        } else {
            gcd(b, a % b)
        }
    }
    let unit = if weighted { weights.iter().fold(WEIGHT_PERCENT, |g, &w| gcd(g, w)) } else { WEIGHT_FULL };
    for w in &mut weights {
        *w /= unit;
    }
    (weights, unit)
}

/// Parses a player's range. Error spans are byte offsets into `text`.
pub fn parse_range(text: &str, game: Game, syntax: Syntax) -> Result<Range, PqlError> {
    parse_range_with(text, game, syntax, &Macros::none())
}

/// [`parse_range`] with the user's named ranges (`$open`) defined.
pub fn parse_range_with(text: &str, game: Game, syntax: Syntax, macros: &Macros) -> Result<Range, PqlError> {
    parse_range_ordered(text, game, syntax, Ordering::default(), macros)
}

/// [`parse_range_with`] reading `N%` in the given ordering of starting hands.
pub fn parse_range_ordered(
    text: &str,
    game: Game,
    syntax: Syntax,
    ordering: Ordering,
    macros: &Macros,
) -> Result<Range, PqlError> {
    let reading = Reading { game, syntax, ordering };
    let range = parse_expanding(text, reading, macros, &mut macros::Expansion::default())?;
    if range.is_empty() {
        return Err(PqlError::range(
            format!("the range '{}' matches no hand", excerpt(text.trim())),
            Span::new(0, text.len()),
        ));
    }
    Ok(range)
}

/// How a range text is read: its game, syntax and percent ordering.
#[derive(Clone, Copy)]
struct Reading {
    game: Game,
    syntax: Syntax,
    ordering: Ordering,
}

fn parse_expanding(
    text: &str,
    reading: Reading,
    macros: &Macros,
    expansion: &mut macros::Expansion,
) -> Result<Range, PqlError> {
    let Reading { game, syntax, ordering } = reading;
    // A named range that is the whole range keeps its weights.
    if let Some((name, body)) = macros.lookup(text) {
        let at = text.find('$').unwrap_or(0);
        let span = Span::new(at, text.trim_end().len());
        expansion.enter(name, span)?;
        let range = parse_expanding(body, reading, macros, expansion).map_err(|e| macros::placed(e, name, span));
        expansion.leave();
        return range;
    }
    let mut named = |leaf: &str, span: Span| -> Option<Result<Range, PqlError>> {
        macros.lookup(leaf).is_some().then(|| named_range(leaf, span, reading, macros, expansion))
    };
    let parsed = if game.is_stud() {
        stud::parse(text, game, syntax, &mut named)
    } else {
        parse_flop(text, game, syntax, ordering, &mut named)
    };
    parsed.map_err(|e| unknown_name(text, macros, e))
}

/// An error at a `$name` that names no range (a well-formed user name, not a built-in macro) says
/// so, rather than what the grammar expected there.
fn unknown_name(text: &str, macros: &Macros, e: PqlError) -> PqlError {
    let Some(span) = e.span else { return e };
    let Some(after) = text.get(span.start..).and_then(|rest| rest.strip_prefix('$')) else { return e };
    let name: String = after.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
    if macros::check_name(&name).is_err() || macros.lookup(&format!("${name}")).is_some() {
        return e;
    }
    let at = Span::new(span.start, span.start + 1 + name.len());
    PqlError::range(format!("unknown named range `${name}`"), at)
        .with_hint(format!("define it with .define ${name} 'QQ+, AKs' (.define lists those defined)"))
}

/// Reads a leaf that names a user macro: `Some` with the range it stands for, `None` for any
/// other leaf.
pub(crate) type NamedLeaf<'a> = dyn FnMut(&str, Span) -> Option<Result<Range, PqlError>> + 'a;

/// The range `$name` stands for, read in the game and syntax of the range using it (at `span`).
fn named_range(
    leaf: &str,
    span: Span,
    reading: Reading,
    macros: &Macros,
    expansion: &mut macros::Expansion,
) -> Result<Range, PqlError> {
    let (name, body) = macros.lookup(leaf).expect("a defined name");
    expansion.enter(name, span)?;
    let range = parse_expanding(body, reading, macros, expansion).map_err(|e| macros::placed(e, name, span));
    expansion.leave();
    range
}

fn parse_flop(
    text: &str,
    game: Game,
    syntax: Syntax,
    ordering: Ordering,
    named: &mut NamedLeaf<'_>,
) -> Result<Range, PqlError> {
    let uni = universe::universe(game);
    let classic_holdem = syntax == Syntax::Classic && game.hole_cards() == 2;
    let parts = expr::parse(text, syntax == Syntax::Classic, false)?;
    let work = Work::new(game, ordering);
    let read = |span: Span| -> Result<LeafHands, PqlError> {
        spaced::read_leaf(&text[span.start..span.end], span.start, |leaf_text, offset| {
            if classic_holdem {
                classic_or_generic_leaf_hands(leaf_text, offset, game, &work)
            } else {
                generic_leaf_hands(leaf_text, offset, game, syntax, &work)
            }
        })
    };
    let mut memo = expr::LeafMemo::new(text);
    let mut leaf = |span: Span| {
        if let Some(range) = named(&text[span.start..span.end], span) {
            // Combined with other leaves, a named range counts by its hands (not its weights).
            let mut set = HandSet::empty(uni.len());
            for &i in &range?.indices {
                set.insert(i as usize);
            }
            return Ok(set);
        }
        // A set over the universe, made and combined: a word per 64 hands, each twice.
        work.charge(uni.len() as u64 / 32, span)?;
        memo.get(span, |span| read(span).map(|h| h.into_set(uni)))
    };
    let all = || HandSet::full(uni.len());
    // A part without a weight has full weight when others have one (as in every tool that
    // writes weights).
    let weighted = parts.iter().any(|p| p.weight.is_some());
    let mut total = HandSet::empty(uni.len());
    let mut weights = weighted.then(|| vec![0u32; uni.len()]);
    let mut add = |i: usize, weight: u32| {
        if weight == 0 {
            return; // a part of weight 0 adds no hand
        }
        total.insert(i);
        if let Some(w) = weights.as_mut() {
            // A hand matched by several parts takes the largest weight.
            w[i] = w[i].max(weight);
        }
    };
    for part in &parts {
        let weight = part.weight.unwrap_or(WEIGHT_FULL);
        // A part that is one hand written card by card (a pasted list of them is common) goes in
        // directly: a set of a whole Omaha universe per hand would cost far more.
        if let (expr::Node::Leaf(span), false) = (&part.node, classic_holdem) {
            match read(*span)? {
                LeafHands::Listed(hands) => hands.into_iter().for_each(|i| add(i, weight)),
                LeafHands::Set(set) => set.iter().for_each(|i| add(i, weight)),
            }
            continue;
        }
        let set = expr::eval(&part.node, &mut leaf, &all)?;
        set.iter().for_each(|i| add(i, weight));
    }
    Ok(Range::from_flop_set(game, &total, weights.as_deref()))
}

/// The work of reading one range, counted in steps (a hand tested, a card tried in a slot, 32
/// hands of a set made and combined), bounded by [`RANGE_MAX_WORK`].
pub(crate) struct Work {
    done: std::cell::Cell<u64>,
    game: Game,
    /// The ordering `N%` leaves read.
    ordering: Ordering,
}

impl Work {
    pub fn new(game: Game, ordering: Ordering) -> Work {
        Work { done: std::cell::Cell::new(0), game, ordering }
    }

    /// Adds `steps`; the error, placed at `span`, once the bound is passed.
    pub fn charge(&self, steps: u64, span: Span) -> Result<(), PqlError> {
        self.done.set(self.done.get().saturating_add(steps));
        if self.done.get() > RANGE_MAX_WORK {
            return Err(too_costly(self.game, span));
        }
        Ok(())
    }

    /// The hands of `uni` for which `test` holds, `test` adding the steps it took to its
    /// argument; stops (with the error) once the bound is passed.
    fn scan(
        &self,
        uni: &universe::Universe,
        span: Span,
        mut test: impl FnMut(usize, &mut u64) -> bool,
    ) -> Result<HandSet, PqlError> {
        let mut steps = 0u64;
        let mut failed = None;
        let mut i = 0;
        let set = HandSet::from_predicate(uni, |_| {
            let hit = failed.is_none() && test(i, &mut steps);
            i += 1;
            // Charged a chunk at a time: a hand costs one step and the cards it tries.
            if i % 4096 == 0 && failed.is_none() {
                failed = self.charge(std::mem::take(&mut steps) + 4096, span).err();
            }
            hit
        });
        match failed {
            Some(e) => Err(e),
            None => self.charge(steps + (i % 4096) as u64, span).map(|()| set),
        }
    }
}

/// The error for a range whose parts would take too long to read.
pub(crate) fn too_costly(game: Game, span: Span) -> PqlError {
    PqlError::range(
        format!(
            "this range takes too long to read: its parts take more than {} steps (hands tested, \
             cards tried) in {}",
            grouped(RANGE_MAX_WORK),
            game.title()
        ),
        span,
    )
    .with_hint(
        "write fewer different parts that name many hands (each tests every hand of the game), e.g. with \
         spans and macros: AA**$ds, [K-T][K-T]**",
    )
}

/// The hands of a leaf: listed (by number) when it names few enough to list directly, else as
/// a set over the whole universe.
enum LeafHands {
    Listed(Vec<usize>),
    Set(HandSet),
}

impl LeafHands {
    fn into_set(self, uni: &universe::Universe) -> HandSet {
        match self {
            LeafHands::Set(s) => s,
            LeafHands::Listed(hands) => {
                let mut s = HandSet::empty(uni.len());
                for i in hands {
                    s.insert(i);
                }
                s
            }
        }
    }
}

/// A leaf of a classic hold'em range: read as classic, and where that is an error, as generic
/// (`AwKw`, `RR`, `[K-][T+]`, `Ks-`). Where both readings exist the classic one wins (`AKs` is
/// suited, `Kx` the class, `76+` a kicker span). When neither reads, the error shown is the
/// generic one if the leaf uses notation only the generic syntax has, else the classic one.
fn classic_or_generic_leaf_hands(text: &str, offset: usize, game: Game, work: &Work) -> Result<LeafHands, PqlError> {
    let universe_size = universe::universe(game).len() as u64;
    work.charge(universe_size, Span::new(offset, offset + text.len()))?; // 1,326 hands tested
    let classic_error = match classic_leaf_set(text, offset, game, work.ordering) {
        Ok(set) => return Ok(LeafHands::Set(set)),
        Err(e) => e,
    };
    match generic_leaf_hands(text, offset, game, Syntax::Generic, work) {
        Ok(hands) => Ok(hands),
        Err(generic_error) if uses_generic_notation(text) => Err(generic_error),
        Err(_) => Err(classic_error),
    }
}

/// Brackets, macros, suit variables (`w x y z`) or upper-case rank variables (`R`, `O`, `N`):
/// notation of the generic syntax that no classic hand uses.
fn uses_generic_notation(text: &str) -> bool {
    text.chars().any(|c| {
        matches!(c, '[' | ']' | '$' | 'w' | 'x' | 'y' | 'z')
            || (c.is_ascii_uppercase()
                && crate::cards::parse_rank(c).is_none()
                && crate::cards::parse_suit(c).is_none())
    })
}

fn classic_leaf_set(text: &str, offset: usize, game: Game, ordering: Ordering) -> Result<HandSet, PqlError> {
    let uni = universe::universe(game);
    match classic::parse_leaf(text, offset, game.deck().lowest_rank())? {
        classic::ClassicLeaf::All => Ok(HandSet::full(uni.len())),
        classic::ClassicLeaf::Percent { from, to, six_max } => {
            percent::percent_set(game, from, to, six_max, ordering, Span::new(offset, offset + text.len()))
        }
        classic::ClassicLeaf::Patterns(p) => Ok(HandSet::from_predicate(uni, |h| p.iter().any(|p| p.matches(h)))),
    }
}

/// `to`/`through` (merged into one leaf with the hands around it) outside classic hold'em.
pub(crate) fn worded_span_error(text: &str, offset: usize, game: Game) -> Option<PqlError> {
    (text.contains(char::is_whitespace) && !spaced::is_spaced(text)).then(|| {
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

fn generic_leaf_hands(
    text: &str,
    offset: usize,
    game: Game,
    syntax: Syntax,
    work: &Work,
) -> Result<LeafHands, PqlError> {
    if let Some(e) = worded_span_error(text, offset, game).or_else(|| class_word_error(text, offset, game, syntax)) {
        return Err(e);
    }
    let uni = universe::universe(game);
    let leaf = generic::parse_leaf(text, offset, generic::RankOrder { ace_low: false }, game.deck())?;
    let span = Span::new(offset, offset + text.len());
    if let generic::Leaf::Terms(terms) = &leaf.leaf {
        if let Some(t) = terms.first() {
            check_term_size(t.len(), &format!("'{}'", excerpt(text)), game, span)?;
        }
    }
    for (_, term, name) in &leaf.filters {
        check_term_size(term.len(), &format!("the macro {name}"), game, span)?;
    }
    if let (generic::Leaf::Terms(terms), true) = (&leaf.leaf, leaf.filters.is_empty()) {
        if let Some(hands) = listed_hands(terms, uni, game) {
            return Ok(LeafHands::Listed(hands));
        }
    }
    let mut set = match &leaf.leaf {
        generic::Leaf::All => HandSet::full(uni.len()),
        generic::Leaf::Percent { from, to, six_max } => {
            work.charge(uni.len() as u64, span)?;
            percent::percent_set(game, *from, *to, *six_max, work.ordering, span)?
        }
        generic::Leaf::Terms(terms) => {
            work.scan(uni, span, |i, steps| terms.iter().any(|t| t.matches_hand_counting(uni.hands[i], steps)))?
        }
    };
    // Suffix macros only test the hands already in the set.
    for (op, term, _) in &leaf.filters {
        let keep = *op == generic::FilterOp::Inter;
        let before = set;
        set = work.scan(uni, span, |i, steps| {
            before.contains(i) && term.matches_hand_counting(uni.hands[i], steps) == keep
        })?;
    }
    Ok(LeafHands::Set(set))
}

/// The hands the terms match, by number, found by visiting the ways to fill their slots when
/// that costs far less than testing every hand of the universe (hands written card by card,
/// `AKQ**` in 5-card Omaha: 64 ways times the 1,176 pairs of other cards); `None` otherwise.
/// The same hands as matching every hand (checked on random terms); a number may repeat.
fn listed_hands(terms: &[matcher::Term], uni: &universe::Universe, game: Game) -> Option<Vec<usize>> {
    let deck = game.deck().cards();
    let k = game.hole_cards();
    let mut cost = 0.0;
    for t in terms {
        let (ways, filled) = t.constrained_bound(deck);
        cost += ways * binomial(deck.len() as usize - filled, k.checked_sub(filled)?) as f64;
    }
    if cost > uni.len() as f64 / 8.0 {
        return None;
    }
    let mut hands = Vec::new();
    for t in terms {
        t.for_each_constrained(deck, &mut |used| {
            let rest: Vec<Card> = deck.minus(used).iter().collect();
            for_each_subset(&rest, k - used.len() as usize, used, &mut |hand| hands.extend(uni.index_of(hand)));
        });
    }
    Some(hands)
}

fn binomial(n: usize, k: usize) -> usize {
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

/// Calls `f` with `base` plus each `k`-card subset of `cards`.
fn for_each_subset(cards: &[Card], k: usize, base: CardSet, f: &mut dyn FnMut(CardSet)) {
    if k == 0 {
        return f(base);
    }
    for (i, &c) in cards.iter().enumerate() {
        for_each_subset(&cards[i + 1..], k - 1, base.with(c), f);
    }
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
    fn words(&self) -> usize {
        self.words_len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator, so the test needs no dependency.
    struct Lcg(u64);
    impl Lcg {
        fn below(&mut self, n: usize) -> usize {
            self.0 = self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            ((self.0 >> 33) % n as u64) as usize
        }
    }

    #[test]
    fn weights_are_drawn_by_their_coarsest_whole_numbers() {
        let read = |text: &str| {
            let r = parse_range(text, Game::Holdem, Syntax::Classic).unwrap();
            let mut w = r.weights().to_vec();
            w.sort_unstable();
            w.dedup();
            (w, r.full_weight(), r.is_weighted())
        };
        // As pql always drew them: unweighted 1 each, whole percents by the percents.
        assert_eq!(read("AA, KK"), (vec![1], 1, false));
        assert_eq!(read("AA@10, KK@5"), (vec![5, 10], 100, true));
        assert_eq!(read("AA@100"), (vec![100], 100, true));
        // Every form of the same weights draws the same numbers.
        assert_eq!(read("[10]AA[/10], KK:0.05"), (vec![5, 10], 100, true));
        assert_eq!(read("AA@33.3, KK"), (vec![333, 1000], 1000, true));
        assert_eq!(read("AA:0.0625, KK:0.8642"), (vec![625, 8642], 10_000, true));
        assert_eq!(read("AA:0.000001, KK"), (vec![1, WEIGHT_FULL], WEIGHT_FULL, true));
        // A part of weight 0 adds no hand.
        assert_eq!(parse_range("AA, KK:0", Game::Holdem, Syntax::Classic).unwrap().len(), 6);
        assert_eq!(parse_range("A2, K3:0", Game::StudHi, Syntax::Classic).unwrap().len(), 16);
    }

    #[test]
    fn hands_are_listed_in_rank_order() {
        let listed = |text: &str, game: Game| {
            let r = parse_range(text, game, Syntax::Classic).unwrap();
            r.rank_order().into_iter().map(|i| r.hand_string(i)).collect::<Vec<_>>()
        };
        assert_eq!(listed("22, KsKh, AKs, AsAh", Game::Holdem)[..6], ["AsAh", "AsKs", "AhKh", "AdKd", "AcKc", "KsKh"]);
        assert_eq!(listed("KdKcQhQs, 2d2cAsAh", Game::OmahaHi), ["AsAh2d2c", "KdKcQsQh"]);
        let stud = listed("2c*, A*", Game::StudHi);
        assert_eq!((stud[0].as_str(), stud[stud.len() - 1].as_str()), ("AsAh*****", "2d2c*****"));
    }

    #[test]
    fn listed_hands_are_the_hands_the_terms_match() {
        let mut rng = Lcg(7);
        let ranks = ["A", "K", "Q", "T", "7", "2", "R", "O", "[K-T]", "[2-5]", "*"];
        let suits = ["", "", "s", "h", "w", "x"];
        let mut listed = 0;
        for game in [Game::OmahaHi, Game::Omaha5Hi, Game::ShortDeck, Game::Holdem] {
            let uni = universe::universe(game);
            for _ in 0..100 {
                let n = 1 + rng.below(game.hole_cards());
                let mut text = String::new();
                for _ in 0..n {
                    text.push_str(ranks[rng.below(ranks.len())]);
                    text.push_str(suits[rng.below(suits.len())]);
                }
                let Ok(leaf) = generic::parse_leaf(&text, 0, generic::RankOrder { ace_low: false }, game.deck()) else {
                    continue;
                };
                let generic::Leaf::Terms(terms) = &leaf.leaf else { continue };
                let expected = HandSet::from_predicate(uni, |h| terms.iter().any(|t| t.matches_hand(h)));
                if let Some(hands) = listed_hands(terms, uni, game) {
                    listed += 1;
                    assert_eq!(LeafHands::Listed(hands).into_set(uni), expected, "{text} in {game:?}");
                }
            }
        }
        assert!(listed > 150, "{listed}");
    }
}
