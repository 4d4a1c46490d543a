//! Deals: what one deal of a game is ([`Deal`]: every player's cards in dealing order, the
//! board, the dead cards), where a statement's cards come from and how Monte Carlo deals are
//! drawn (`source`: [`source::DealSpec`], rejection sampling, [`source::FixedDeal`]; `joint`:
//! ranges of two-card games drawn as one list of compatible hands), every
//! compatible deal exactly once (`exhaustive`), and the classes of exact prefixes that are one
//! deal up to the names of the suits (`suit_classes`), or one outcome up to suits that make no
//! difference (`rank_classes`, counted by flush in `flush_classes`).
//!
//! May use: `cards`, `games`, `range` (board patterns), `rng`. Knows nothing of statements or
//! of who wins: the rooms above deal from it.

pub mod exhaustive;
pub mod flush_classes;
pub mod joint;
pub mod rank_classes;
pub mod source;
pub mod suit_classes;

use crate::cards::{Card, CardSet};
use crate::games::{Game, Street};

/// Enough seats for ten hold'em players (the checker refuses an eleventh); stud decks allow at
/// most seven.
pub use crate::games::MAX_PLAYERS;

/// A complete deal. Flop games: `hole[p]` and `board`. Stud: `stud[p]` in dealing order (two
/// down, four up, one down) and `hole[p]` as the set of all seven.
#[derive(Clone, Debug)]
pub struct Deal {
    pub game: Game,
    pub players: usize,
    pub hole: [CardSet; MAX_PLAYERS],
    pub stud: [[Card; 7]; MAX_PLAYERS],
    pub board: [Card; 5],
    pub dead: CardSet,
}

impl Deal {
    pub fn new(game: Game, players: usize) -> Deal {
        let filler = Card::from_index(0);
        Deal {
            game,
            players,
            hole: [CardSet::EMPTY; MAX_PLAYERS],
            stud: [[filler; 7]; MAX_PLAYERS],
            board: [filler; 5],
            dead: CardSet::EMPTY,
        }
    }

    /// Board cards known on `street` (flop games; empty in stud).
    #[inline]
    pub fn board_at(&self, street: Street) -> CardSet {
        if self.game.is_stud() {
            return CardSet::EMPTY;
        }
        let n = street.cards_known().min(5);
        self.board[..n].iter().copied().collect()
    }

    /// The whole board.
    #[inline]
    pub fn full_board(&self) -> CardSet {
        self.board_at(Street::River)
    }

    /// The cards player `p` holds for evaluation on `street`: the hole cards (flop games) or
    /// the stud cards dealt by then.
    #[inline]
    pub fn hand_at(&self, p: usize, street: Street) -> CardSet {
        if self.game.is_stud() {
            self.stud[p][..street.cards_known()].iter().copied().collect()
        } else {
            self.hole[p]
        }
    }

    /// Stud up cards of player `p` by `street` (third street shows one, seventh four).
    pub fn up_cards(&self, p: usize, street: Street) -> CardSet {
        let n = street.cards_known().min(6);
        self.stud[p][2..n].iter().copied().collect()
    }

    /// Every card in play: all hands, the board and the dead cards.
    pub fn used(&self) -> CardSet {
        let mut u = self.dead.union(self.full_board());
        for p in 0..self.players {
            u = u.union(self.hole[p]);
        }
        u
    }
}
