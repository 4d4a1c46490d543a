//! The games pql knows: deck, hole cards, board or stud streets, and how the pot is split.
//!
//! May use: `cards`. A new game starts here (its deck, cards and streets), then gets its
//! evaluators in `eval` and its showdown in `kernels::showdown`.

use crate::cards::Deck;
use std::fmt;

/// Every game of docs/language/statements.md, games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Game {
    Holdem,
    ShortDeck,
    ShortDeckTriton,
    OmahaHi,
    Omaha8,
    Omaha5Hi,
    Omaha85,
    StudHi,
    Stud8,
    Razz,
}

/// How the hi hands of a game are ranked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HiRules {
    Standard,
    /// Short deck: A-6-7-8-9 straight, flush beats a full house, straight beats trips.
    ShortDeck,
    /// Triton short deck: as `ShortDeck` but trips beat a straight.
    Triton,
}

/// Which halves a pot has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PotSplit {
    HiOnly,
    /// Half to the best hi, half to the best 8-or-better low; the hi scoops without a low.
    HiLo8,
    /// The whole pot to the best A-5 low (razz).
    LoOnly,
}

/// Betting rounds. Flop games use `Preflop..River`, stud games `Third..Seventh`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Street {
    Preflop,
    Flop,
    Turn,
    River,
    Third,
    Fourth,
    Fifth,
    Sixth,
    Seventh,
}

pub use crate::limits::MAX_PLAYERS;

pub const FLOP_STREETS: [Street; 4] = [Street::Preflop, Street::Flop, Street::Turn, Street::River];
pub const STUD_STREETS: [Street; 5] = [Street::Third, Street::Fourth, Street::Fifth, Street::Sixth, Street::Seventh];

impl Street {
    pub const ALL: [Street; 9] = [
        Street::Preflop,
        Street::Flop,
        Street::Turn,
        Street::River,
        Street::Third,
        Street::Fourth,
        Street::Fifth,
        Street::Sixth,
        Street::Seventh,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Street::Preflop => "preflop",
            Street::Flop => "flop",
            Street::Turn => "turn",
            Street::River => "river",
            Street::Third => "third",
            Street::Fourth => "fourth",
            Street::Fifth => "fifth",
            Street::Sixth => "sixth",
            Street::Seventh => "seventh",
        }
    }

    pub fn from_name(name: &str) -> Option<Street> {
        Street::ALL.into_iter().find(|s| s.name().eq_ignore_ascii_case(name))
    }

    pub fn is_stud(self) -> bool {
        self >= Street::Third
    }

    /// Flop games: board cards known on this street. Stud: cards each player holds.
    pub fn cards_known(self) -> usize {
        match self {
            Street::Preflop => 0,
            Street::Flop | Street::Third => 3,
            Street::Turn | Street::Fourth => 4,
            Street::River | Street::Fifth => 5,
            Street::Sixth => 6,
            Street::Seventh => 7,
        }
    }
}

impl fmt::Display for Street {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Game {
    pub const ALL: [Game; 10] = [
        Game::Holdem,
        Game::ShortDeck,
        Game::ShortDeckTriton,
        Game::OmahaHi,
        Game::Omaha8,
        Game::Omaha5Hi,
        Game::Omaha85,
        Game::StudHi,
        Game::Stud8,
        Game::Razz,
    ];

    /// The canonical name used in `game='...'`.
    pub fn name(self) -> &'static str {
        self.names()[0]
    }

    /// The canonical name first, then the aliases.
    pub fn names(self) -> &'static [&'static str] {
        match self {
            Game::Holdem => &["holdem"],
            Game::ShortDeck => &["shortdeck", "6plus"],
            Game::ShortDeckTriton => &["shortdeck_triton"],
            Game::OmahaHi => &["omahahi", "omaha", "plo"],
            Game::Omaha8 => &["omaha8", "omahahilo", "o8"],
            Game::Omaha5Hi => &["omahahi5", "omaha5", "plo5"],
            Game::Omaha85 => &["omaha85", "omaha5hilo"],
            Game::StudHi => &["studhi", "stud"],
            Game::Stud8 => &["stud8", "studhilo"],
            Game::Razz => &["razz"],
        }
    }

    /// A human title for help screens.
    pub fn title(self) -> &'static str {
        match self {
            Game::Holdem => "Texas hold'em",
            Game::ShortDeck => "Short-deck hold'em",
            Game::ShortDeckTriton => "Short-deck hold'em, Triton rules",
            Game::OmahaHi => "Omaha hi",
            Game::Omaha8 => "Omaha hi/lo 8-or-better",
            Game::Omaha5Hi => "5-card Omaha hi",
            Game::Omaha85 => "5-card Omaha hi/lo",
            Game::StudHi => "Seven-card stud",
            Game::Stud8 => "Stud hi/lo 8-or-better",
            Game::Razz => "Razz",
        }
    }

    pub fn from_name(name: &str) -> Option<Game> {
        Game::ALL.into_iter().find(|g| g.names().iter().any(|n| n.eq_ignore_ascii_case(name)))
    }

    /// Every accepted name, for did-you-mean and completion.
    pub fn all_names() -> impl Iterator<Item = &'static str> {
        Game::ALL.into_iter().flat_map(|g| g.names().iter().copied())
    }

    pub fn deck(self) -> Deck {
        match self {
            Game::ShortDeck | Game::ShortDeckTriton => Deck::Short,
            _ => Deck::Standard,
        }
    }

    /// Cards each player is dealt (stud: all seven).
    pub fn hole_cards(self) -> usize {
        match self {
            Game::Holdem | Game::ShortDeck | Game::ShortDeckTriton => 2,
            Game::OmahaHi | Game::Omaha8 => 4,
            Game::Omaha5Hi | Game::Omaha85 => 5,
            Game::StudHi | Game::Stud8 | Game::Razz => 7,
        }
    }

    /// Community cards on the river (0 in stud).
    pub fn board_cards(self) -> usize {
        if self.is_stud() {
            0
        } else {
            5
        }
    }

    pub fn is_stud(self) -> bool {
        matches!(self, Game::StudHi | Game::Stud8 | Game::Razz)
    }

    /// Omaha variants: exactly two hole cards and three board cards make a hand.
    pub fn is_omaha(self) -> bool {
        matches!(self, Game::OmahaHi | Game::Omaha8 | Game::Omaha5Hi | Game::Omaha85)
    }

    pub fn hi_rules(self) -> HiRules {
        match self {
            Game::ShortDeck => HiRules::ShortDeck,
            Game::ShortDeckTriton => HiRules::Triton,
            _ => HiRules::Standard,
        }
    }

    pub fn pot_split(self) -> PotSplit {
        match self {
            Game::Omaha8 | Game::Omaha85 | Game::Stud8 => PotSplit::HiLo8,
            Game::Razz => PotSplit::LoOnly,
            _ => PotSplit::HiOnly,
        }
    }

    pub fn has_hi(self) -> bool {
        self.pot_split() != PotSplit::LoOnly
    }

    pub fn has_lo(self) -> bool {
        self.pot_split() != PotSplit::HiOnly
    }

    /// The streets of this game, first to last.
    pub fn streets(self) -> &'static [Street] {
        if self.is_stud() {
            &STUD_STREETS
        } else {
            &FLOP_STREETS
        }
    }

    pub fn has_street(self, s: Street) -> bool {
        self.streets().contains(&s)
    }

    pub fn last_street(self) -> Street {
        if self.is_stud() {
            Street::Seventh
        } else {
            Street::River
        }
    }
}

impl fmt::Display for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_aliases_resolve() {
        assert_eq!(Game::from_name("PLO"), Some(Game::OmahaHi));
        assert_eq!(Game::from_name("o8"), Some(Game::Omaha8));
        assert_eq!(Game::from_name("6plus"), Some(Game::ShortDeck));
        assert_eq!(Game::from_name("stud"), Some(Game::StudHi));
        assert_eq!(Game::from_name("bridge"), None);
        assert_eq!(Game::all_names().count(), 20);
    }

    #[test]
    fn streets_belong_to_their_games() {
        assert!(Game::Razz.has_street(Street::Fifth));
        assert!(!Game::Holdem.has_street(Street::Fifth));
        assert!(!Game::StudHi.has_street(Street::Flop));
        assert_eq!(Street::from_name("TURN"), Some(Street::Turn));
    }
}
