//! Board patterns and dead cards (PQL-SPEC §5.4). Boards read the generic syntax in both modes;
//! slots are positions: the first three the flop (unordered), then the turn and the river.

use super::expr::{self, Node};
use super::generic::{parse_terms, RankOrder};
use super::matcher::Term;
use crate::cards::{parse_cards, Card, CardSet};
use crate::error::{PqlError, Span};
use crate::games::Game;

/// More boards than this in one pattern is an error: the list is held in memory.
const MAX_BOARDS: usize = 2_000_000;
/// Ordered assignments visited while listing boards (flop orderings included).
const MAX_ASSIGNMENTS: usize = 12_000_000;

/// A board pattern: the boards it allows, for sampling, and a matcher for `boardInRange`.
#[derive(Clone, Debug)]
pub struct BoardRange {
    boards: Vec<Vec<Card>>,
    terms: Vec<Term>,
    cards: usize,
}

impl BoardRange {
    /// Every board the pattern allows, cards by position (flop, turn, river); all the same
    /// length. The flop's three cards are listed once, in increasing card order.
    pub fn boards(&self) -> &[Vec<Card>] {
        &self.boards
    }

    /// How many cards the pattern describes (0 for an empty board).
    pub fn cards_len(&self) -> usize {
        self.cards
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
        let pools: Vec<CardSet> =
            (0..self.cards).map(|i| if i < 3 { flop } else { CardSet::EMPTY.with(board[i]) }).collect();
        self.terms.iter().any(|t| t.matches_pools(&pools))
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
        Node::Inter(a, _) | Node::Minus(a, _) | Node::Complement(a) => {
            let mut spans = Vec::new();
            leaves(a, &mut spans)?;
            let span = spans.first().copied().unwrap_or_default();
            return Err(PqlError::range("board patterns combine with ',' only", span));
        }
    }
    Ok(())
}

/// Parses a `board=` value or a `boardInRange` pattern (generic syntax in both modes).
pub fn parse_board(text: &str, game: Game) -> Result<BoardRange, PqlError> {
    let whole = Span::new(0, text.len());
    if game.is_stud() {
        return Err(PqlError::range(format!("{} has no board", game.title()), whole));
    }
    if text.trim().is_empty() {
        return Ok(BoardRange { boards: vec![Vec::new()], terms: Vec::new(), cards: 0 });
    }
    let parts = expr::parse(text, false, false)?;
    let mut spans = Vec::new();
    for p in &parts {
        if p.weight.is_some() {
            return Err(PqlError::range("board patterns take no weights", p.span));
        }
        leaves(&p.node, &mut spans)?;
    }
    let mut terms = Vec::new();
    for span in &spans {
        let leaf = &text[span.start..span.end];
        for t in parse_terms(leaf, span.start, RankOrder { ace_low: false }, game.deck())? {
            if t.len() > 5 {
                return Err(PqlError::range(
                    format!("a board has at most 5 cards; this pattern has {}", t.len()),
                    *span,
                ));
            }
            if terms.first().is_some_and(|f: &Term| f.len() != t.len()) {
                return Err(PqlError::range("every board pattern of a list needs the same number of cards", *span));
            }
            terms.push(t);
        }
    }
    let cards = terms.first().map_or(0, Term::len);
    let boards = list_boards(&terms, game, whole)?;
    if boards.is_empty() {
        return Err(PqlError::range(format!("the board pattern '{}' matches no board", text.trim()), whole));
    }
    Ok(BoardRange { boards, terms, cards })
}

fn list_boards(terms: &[Term], game: Game, whole: Span) -> Result<Vec<Vec<Card>>, PqlError> {
    let deck = game.deck().cards();
    let mut boards: Vec<Vec<Card>> = Vec::new();
    let mut visited = 0usize;
    let mut too_many = false;
    for t in terms {
        let pools = vec![deck; t.len()];
        t.for_each_assignment(&pools, &mut |cards| {
            visited += 1;
            if visited > MAX_ASSIGNMENTS || boards.len() > MAX_BOARDS {
                too_many = true;
                return true;
            }
            let mut b = cards.to_vec();
            let flop = b.len().min(3);
            b[..flop].sort_unstable();
            boards.push(b);
            false
        });
        if too_many {
            return Err(PqlError::range(
                "this board pattern allows too many boards to list; fix more of its cards",
                whole,
            ));
        }
    }
    boards.sort_unstable();
    boards.dedup();
    Ok(boards)
}

/// Parses `dead=`: the cards removed from the deck.
pub fn parse_dead(text: &str, game: Game) -> Result<CardSet, PqlError> {
    let cards = parse_cards(text).map_err(|e| {
        let end = (e.offset + 1).min(text.len()).max(e.offset);
        PqlError::range(e.message, Span::new(e.offset, end))
    })?;
    let outside = cards.minus(game.deck().cards());
    if let Some(c) = outside.first() {
        let at = text.to_ascii_lowercase().find(&c.to_string().to_ascii_lowercase()).unwrap_or(0);
        return Err(PqlError::range(format!("{c} is not in the {} deck", game.title()), Span::new(at, at + 2)));
    }
    Ok(cards)
}
