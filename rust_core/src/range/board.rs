//! Board patterns and dead cards (docs/language/boards.md). Boards read the generic syntax in both modes;
//! slots are positions: the first three the flop (unordered), then the turn and the river.
//!
//! `boardInRange` only matches a dealt board against the pattern. A `board=` pattern lists its
//! boards when there are few enough to hold (so they are drawn directly), and is otherwise drawn
//! by rejection: a random board from the cards left, kept when it matches, which is uniform over
//! the matching boards just the same.

use super::expr::{self, Node};
use super::generic::{parse_terms, RankOrder};
use super::matcher::Term;
use crate::cards::{parse_cards, Card, CardSet};
use crate::error::{excerpt, PqlError, Span};
use crate::games::Game;
use crate::limits::grouped;
use std::sync::{Arc, Mutex};

use crate::limits::{
    BOARD_MAX_LISTED as MAX_BOARDS, DEAD_MAX_SETS as MAX_DEAD_SETS, PATTERN_MAX_ASSIGNMENTS as MAX_ASSIGNMENTS,
};

/// A board pattern: a matcher for `boardInRange`, and for `board=` the boards it allows when
/// there are few enough to list.
#[derive(Clone, Debug)]
pub struct BoardRange {
    boards: Option<Vec<Vec<Card>>>,
    terms: Vec<Term>,
    cards: usize,
}

impl BoardRange {
    /// Every board the pattern allows, cards by position (flop, turn, river), all the same
    /// length, the flop's three cards once in increasing card order; `None` when there are too
    /// many to list (draw a random board and keep it when it `matches`).
    pub fn boards(&self) -> Option<&[Vec<Card>]> {
        self.boards.as_deref()
    }

    /// How many cards the pattern describes (0 for an empty board).
    pub fn cards_len(&self) -> usize {
        self.cards
    }

    /// Whether the pattern allows every board (no board, or only `*` slots).
    pub fn is_any(&self) -> bool {
        self.terms.iter().any(Term::is_wild) || self.terms.is_empty()
    }

    /// `boardInRange`: flop cards unordered, turn and river positional; a pattern longer than the
    /// board never matches.
    pub fn matches(&self, board: &[Card]) -> bool {
        if self.terms.is_empty() {
            return true;
        }
        if self.cards > board.len() {
            return false;
        }
        let flop = CardSet::from_cards(board.iter().take(3).copied());
        let mut pools = [CardSet::EMPTY; 5];
        for (i, pool) in pools.iter_mut().enumerate().take(self.cards) {
            *pool = if i < 3 { flop } else { CardSet::EMPTY.with(board[i]) };
        }
        self.terms.iter().any(|t| t.matches_pools(&pools[..self.cards]))
    }
}

fn leaves(node: &Node, out: &mut Vec<Span>) -> Result<(), PqlError> {
    match node {
        Node::Leaf(s) => out.push(*s),
        Node::Union(alts) => {
            for a in alts {
                leaves(a, out)?;
            }
        }
        Node::Chain(a, _) | Node::Complement(a) => {
            let mut spans = Vec::new();
            leaves(a, &mut spans)?;
            let span = spans.first().copied().unwrap_or_default();
            return Err(PqlError::range("board patterns combine with ',' only", span));
        }
    }
    Ok(())
}

/// The terms of a pattern (generic syntax) for `what` (a board, dead cards), each with the span
/// of its leaf; all the same length, at most `max` cards.
fn pattern_terms(text: &str, game: Game, what: &str, max: usize) -> Result<Vec<(Term, Span)>, PqlError> {
    if text.trim().is_empty() {
        return Ok(Vec::new());
    }
    let parts = expr::parse(text, false, false)?;
    let mut spans = Vec::new();
    for p in &parts {
        if p.weight.is_some() {
            return Err(PqlError::range(format!("{what} patterns take no weights"), p.span));
        }
        leaves(&p.node, &mut spans)?;
    }
    let mut terms: Vec<(Term, Span)> = Vec::new();
    for span in &spans {
        let leaf = &text[span.start..span.end];
        let read = |leaf: &str, offset: usize| parse_terms(leaf, offset, RankOrder { ace_low: false }, game.deck());
        for t in super::spaced::read_leaf(leaf, span.start, read)? {
            if t.len() > max {
                return Err(PqlError::range(
                    format!("a {what} has at most {max} cards; this pattern has {}", t.len()),
                    *span,
                ));
            }
            if terms.first().is_some_and(|f| f.0.len() != t.len()) {
                return Err(PqlError::range(
                    format!("every {what} pattern of a list needs the same number of cards"),
                    *span,
                ));
            }
            terms.push((t, *span));
        }
    }
    Ok(terms)
}

fn no_board(text: &str, game: Game) -> Result<(), PqlError> {
    if game.is_stud() {
        return Err(PqlError::range(format!("{} has no board", game.title()), Span::new(0, text.len())));
    }
    Ok(())
}

/// Parses a `boardInRange` pattern: 1 to 5 cards, the first three matched against the flop in
/// any order, then the turn and the river.
pub fn parse_board_pattern(text: &str, game: Game) -> Result<BoardRange, PqlError> {
    no_board(text, game)?;
    let terms: Vec<Term> = pattern_terms(text, game, "board", 5)?.into_iter().map(|t| t.0).collect();
    let cards = terms.first().map_or(0, Term::len);
    Ok(BoardRange { boards: None, terms, cards })
}

/// Patterns already read, with what reading them gave, so that the statements of a script that
/// share a pattern read it once: listing a pattern's boards (or giving up on the list) can visit
/// millions of card assignments. Bounded by the boards it holds, and emptied when full.
struct Memo<T> {
    entries: Vec<MemoEntry<T>>,
    held: usize,
}

/// A pattern (its game and text) and what reading it gave.
type MemoEntry<T> = ((Game, String), Result<Arc<T>, PqlError>);

/// Entries a memo keeps at most, besides the bound on the boards they hold.
const MEMO_ENTRIES: usize = 32;

impl<T> Memo<T> {
    const fn new() -> Memo<T> {
        Memo { entries: Vec::new(), held: 0 }
    }

    /// What `read` gives for `text` in `game`, read once while it stays in the memo; `size` is
    /// how much a result holds (boards, card sets).
    fn get(
        memo: &Mutex<Memo<T>>,
        text: &str,
        game: Game,
        size: impl Fn(&T) -> usize,
        read: impl FnOnce() -> Result<T, PqlError>,
    ) -> Result<Arc<T>, PqlError> {
        let lock = || memo.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some((_, found)) = lock().entries.iter().find(|((g, t), _)| *g == game && t == text) {
            return found.clone();
        }
        // Read outside the lock: another thread may read another pattern meanwhile.
        let result = read().map(Arc::new);
        let held = result.as_ref().map_or(0, |r| size(r));
        let mut m = lock();
        if m.entries.len() >= MEMO_ENTRIES || m.held + held > MAX_BOARDS {
            m.entries.clear();
            m.held = 0;
        }
        if held <= MAX_BOARDS {
            m.held += held;
            m.entries.push(((game, text.to_string()), result.clone()));
        }
        result
    }
}

static BOARD_MEMO: Mutex<Memo<BoardRange>> = Mutex::new(Memo::new());
static DEAD_MEMO: Mutex<Memo<DeadCards>> = Mutex::new(Memo::new());

/// Parses a `board=` value: no cards, or 3, 4 or 5 (cards or a pattern). Only `*` slots means
/// any board, the same as no board. Statements that give the same pattern share what it reads
/// to (the same `Arc`).
pub fn parse_board(text: &str, game: Game) -> Result<Arc<BoardRange>, PqlError> {
    Memo::get(&BOARD_MEMO, text, game, |b| b.boards.as_ref().map_or(0, Vec::len), || read_board(text, game))
}

fn read_board(text: &str, game: Game) -> Result<BoardRange, PqlError> {
    let whole = Span::new(0, text.len());
    no_board(text, game)?;
    let terms = pattern_terms(text, game, "board", 5)?;
    if terms.is_empty() || terms.iter().any(|t| t.0.is_wild()) {
        return Ok(BoardRange { boards: Some(vec![Vec::new()]), terms: Vec::new(), cards: 0 });
    }
    if let Some((t, span)) = terms.first() {
        if t.len() < 3 {
            return Err(PqlError::range(
                format!("a board has 3, 4 or 5 cards (the flop, the turn, the river); this one has {}", t.len()),
                *span,
            )
            .with_hint("leave the board out for a random one"));
        }
    }
    let terms: Vec<Term> = terms.into_iter().map(|t| t.0).collect();
    let cards = terms.first().map_or(0, Term::len);
    let mut board = BoardRange { boards: None, terms, cards };
    board.boards = list_boards(&board.terms, game);
    if board.boards.as_ref().is_some_and(Vec::is_empty) {
        return Err(PqlError::range(format!("the board pattern '{}' matches no board", excerpt(text.trim())), whole));
    }
    Ok(board)
}

/// Every board of the pattern, or `None` when there are too many to list.
fn list_boards(terms: &[Term], game: Game) -> Option<Vec<Vec<Card>>> {
    let deck = game.deck().cards();
    let mut boards: Vec<Vec<Card>> = Vec::new();
    let mut placements = MAX_ASSIGNMENTS;
    let mut too_many = false;
    for t in terms {
        let pools = vec![deck; t.len()];
        t.for_each_assignment(&pools, &mut placements, &mut |cards| {
            if boards.len() > MAX_BOARDS {
                too_many = true;
                return true;
            }
            let mut b = cards.to_vec();
            let flop = b.len().min(3);
            b[..flop].sort_unstable();
            boards.push(b);
            false
        });
        if too_many || placements == 0 {
            return None;
        }
    }
    boards.sort_unstable();
    boards.dedup();
    Some(boards)
}

/// Dead cards: `fixed` ones, and when the text is a pattern naming no one set of cards, the
/// sets it allows (`choices`, each as likely), one of them dead in each deal.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DeadCards {
    pub fixed: CardSet,
    pub choices: Vec<CardSet>,
}

/// Parses `dead=`: cards (`AsKd`, `As Kd`, `As, Kd`: all of them dead), or a pattern in the
/// generic syntax (`K`, `Kw`, `[K-Q]`, `AsKs, QdQc`) whose dead cards are drawn like a board:
/// uniformly over the sets of cards it matches (its slots in any order), anew in each deal.
/// A pattern is read once for all the statements that give it.
pub fn parse_dead(text: &str, game: Game) -> Result<DeadCards, PqlError> {
    Memo::get(&DEAD_MEMO, text, game, |d| d.choices.len(), || read_dead(text, game)).map(|d| (*d).clone())
}

fn read_dead(text: &str, game: Game) -> Result<DeadCards, PqlError> {
    let deck = game.deck().cards();
    if let Ok(cards) = parse_cards(text) {
        let outside = cards.minus(deck);
        if let Some(c) = outside.first() {
            let at = text.to_ascii_lowercase().find(&c.to_string().to_ascii_lowercase()).unwrap_or(0);
            return Err(PqlError::range(format!("{c} is not in the {} deck", game.title()), Span::new(at, at + 2)));
        }
        return Ok(DeadCards { fixed: cards, choices: Vec::new() });
    }
    let whole = Span::new(0, text.len());
    let terms = pattern_terms(text, game, "dead-card", deck.len() as usize)?;
    let mut sets: Vec<CardSet> = Vec::new();
    let mut placements = MAX_ASSIGNMENTS;
    let mut too_many = false;
    for (t, _) in &terms {
        t.for_each_assignment(&vec![deck; t.len()], &mut placements, &mut |cards| {
            if sets.len() > MAX_DEAD_SETS {
                too_many = true;
                return true;
            }
            sets.push(CardSet::from_cards(cards.iter().copied()));
            false
        });
        if too_many || placements == 0 {
            return Err(PqlError::range(
                format!(
                    "this dead-card pattern allows too many sets of cards to list (more than {} sets, or \
                     {} cards tried); name more of them",
                    grouped(MAX_DEAD_SETS as u64),
                    grouped(MAX_ASSIGNMENTS as u64)
                ),
                whole,
            ));
        }
    }
    sets.sort_unstable_by_key(|s| s.bits());
    sets.dedup();
    match sets.as_slice() {
        [] => Err(PqlError::range(format!("the dead-card pattern '{}' matches no cards", excerpt(text.trim())), whole)),
        [one] => Ok(DeadCards { fixed: *one, choices: Vec::new() }),
        _ => Ok(DeadCards { fixed: CardSet::EMPTY, choices: sets }),
    }
}
