//! Hand evaluators for every game: hi (standard, short deck, Triton), Omaha 2+3, A-5 lows and
//! 8-or-better lows. Ratings are totally ordered integers where greater is better, also for lows.
//!
//! May use: `cards`, `games` (and `rng` in tests).

mod best_five;
mod card_keys;
mod five;
mod flop_category;
mod hi;
mod rank_tables;
pub use card_keys::{
    biased_flush_suit, card_key, flush_suit, has_flush, keys_of, rank_key, suit_count, FLUSH_BITS, SUIT_BIAS,
};
pub use rank_tables::{
    hi_table, rank_hash_file, BoardRankSlots, HiRank, HiTable, LowTable, SevenCards, FIVE_RANK_SLOTS, LO8_SEVEN,
    RAZZ_SEVEN,
};
mod lo;
mod omaha;
mod tables;

pub use best_five::{best_five_hi, best_five_hi_fewest, best_five_lo};
pub use five::{five_card_hand_number, FiveCardTables, DISTINCT_FIVE, FIVE, RANK_KEYS};
pub use flop_category::FlopHandCategory;
pub use hi::{rate_hi, rate_hi_bits, rate_hi_seven, rate_hi_standard};
pub use lo::{ace_low_mask, rate_lo8, rate_razz, LO8_MASK};
pub use omaha::{best_flush, omaha_hi, omaha_lo8, omaha_lo8_of_ranks, omaha_river, OmahaBoard, OmahaHole};

use crate::games::HiRules;
use std::fmt;

/// Hi hand categories, in standard order from worst to best.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum HandType {
    HighCard = 0,
    Pair = 1,
    TwoPair = 2,
    Trips = 3,
    Straight = 4,
    Flush = 5,
    FullHouse = 6,
    Quads = 7,
    StraightFlush = 8,
}

impl HandType {
    pub const ALL: [HandType; 9] = [
        HandType::HighCard,
        HandType::Pair,
        HandType::TwoPair,
        HandType::Trips,
        HandType::Straight,
        HandType::Flush,
        HandType::FullHouse,
        HandType::Quads,
        HandType::StraightFlush,
    ];

    /// The PQL keyword (`highcard`, `twopair`, ...).
    pub fn name(self) -> &'static str {
        match self {
            HandType::HighCard => "highcard",
            HandType::Pair => "pair",
            HandType::TwoPair => "twopair",
            HandType::Trips => "trips",
            HandType::Straight => "straight",
            HandType::Flush => "flush",
            HandType::FullHouse => "fullhouse",
            HandType::Quads => "quads",
            HandType::StraightFlush => "straightflush",
        }
    }

    /// Case-insensitive lookup of a keyword.
    pub fn from_name(name: &str) -> Option<HandType> {
        Self::ALL.into_iter().find(|t| t.name().eq_ignore_ascii_case(name))
    }

    pub fn from_index(i: u32) -> HandType {
        HandType::ALL[i as usize % 9]
    }

    /// Position in the ranking of `rules` (0 = worst). Short deck puts flush above full house;
    /// Triton also puts trips above straight.
    pub const fn order(self, rules: HiRules) -> u32 {
        let t = self as u32;
        match (rules, self) {
            (HiRules::ShortDeck | HiRules::Triton, HandType::Flush) => 6,
            (HiRules::ShortDeck | HiRules::Triton, HandType::FullHouse) => 5,
            (HiRules::Triton, HandType::Trips) => 4,
            (HiRules::Triton, HandType::Straight) => 3,
            _ => t,
        }
    }

    /// Hand types of `rules` from worst to best.
    pub fn ordered(rules: HiRules) -> [HandType; 9] {
        let mut all = HandType::ALL;
        all.sort_by_key(|t| t.order(rules));
        all
    }
}

impl fmt::Display for HandType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A hi hand's strength: `order << 25 | type << 21 | payload`; greater is better under the rules
/// it was computed with. The payload orders hands within a category (ranks, kickers).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct HiRating(pub u32);

impl HiRating {
    pub const NONE: HiRating = HiRating(0);

    #[inline]
    pub(crate) const fn make(rules: HiRules, t: HandType, payload: u32) -> HiRating {
        HiRating((t.order(rules) << 25) | ((t as u32) << 21) | payload)
    }
    pub const fn hand_type(self) -> HandType {
        HandType::ALL[((self.0 >> 21) & 15) as usize % 9]
    }
    pub const fn payload(self) -> u32 {
        self.0 & 0x1F_FFFF
    }
}

/// Lo categories of A-5 lowball: a hand without a pair is best; then the paired shapes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LoShape {
    NoPair = 0,
    Pair = 1,
    TwoPair = 2,
    Trips = 3,
    FullHouse = 4,
    Quads = 5,
}

/// An A-5 low's strength, greater is better: `(8 - shape) << 21 | (MAX - value)` where `value`
/// is smaller for lower cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct LoRating(pub u32);

const LO_VALUE_MAX: u32 = 0x1F_FFFF;

impl LoRating {
    pub(crate) const fn make(shape: LoShape, value: u32) -> LoRating {
        LoRating(((8 - shape as u32) << 21) | (LO_VALUE_MAX - value))
    }
    /// A no-pair low from its ace-low rank mask (bit 0 = ace ... bit 12 = king).
    pub(crate) const fn from_low_mask(mask: u32) -> LoRating {
        LoRating::make(LoShape::NoPair, mask)
    }
    pub const fn shape(self) -> LoShape {
        match 8 - (self.0 >> 21) {
            0 => LoShape::NoPair,
            1 => LoShape::Pair,
            2 => LoShape::TwoPair,
            3 => LoShape::Trips,
            4 => LoShape::FullHouse,
            _ => LoShape::Quads,
        }
    }
    /// For a no-pair low: the ace-low mask of its ranks.
    pub const fn low_mask(self) -> u32 {
        LO_VALUE_MAX - (self.0 & LO_VALUE_MAX)
    }
    /// `8-6-4-3-2`, `wheel` style name: the ranks high to low, or the paired shape.
    pub fn describe(self) -> String {
        match self.shape() {
            LoShape::NoPair => {
                let mask = self.low_mask();
                let ranks: Vec<String> =
                    (0..13).rev().filter(|b| mask & (1 << b) != 0).map(|b| lo_rank_char(b).to_string()).collect();
                ranks.join("-")
            }
            LoShape::Pair => "pair".into(),
            LoShape::TwoPair => "twopair".into(),
            LoShape::Trips => "trips".into(),
            LoShape::FullHouse => "fullhouse".into(),
            LoShape::Quads => "quads".into(),
        }
    }
}

/// Ace-low rank index (0 = ace, 1 = deuce ... 12 = king) to its character.
pub fn lo_rank_char(lo_rank: u32) -> char {
    crate::cards::RANK_CHARS[((lo_rank + 12) % 13) as usize]
}

/// Best hi rating of a hand for a flop or stud game, choosing the evaluator by game.
pub fn rate_hi_for(game: crate::games::Game, hole: crate::cards::CardSet, board: crate::cards::CardSet) -> HiRating {
    if game.is_omaha() {
        omaha_hi(&OmahaHole::new(hole), &OmahaBoard::new(board))
    } else {
        rate_hi(hole.union(board), game.hi_rules())
    }
}

/// Best qualifying (or razz) low for a game, `None` when the game has no low or the hand does not
/// qualify.
pub fn rate_lo_for(
    game: crate::games::Game,
    hole: crate::cards::CardSet,
    board: crate::cards::CardSet,
) -> Option<LoRating> {
    use crate::games::Game;
    match game {
        Game::Razz => Some(rate_razz(hole)),
        Game::Stud8 => rate_lo8(hole),
        Game::Omaha8 | Game::Omaha85 => omaha_lo8(&OmahaHole::new(hole), &OmahaBoard::new(board)),
        _ => None,
    }
}
