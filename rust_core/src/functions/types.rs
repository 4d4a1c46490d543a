//! The value types of docs/language/statements.md, expressions, as the checker and the catalogue see them.

use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    Boolean,
    Integer,
    Double,
    /// Parameter-only: accepts `Integer`, `Double`, `Equity`, `Fraction`, `HandRanking`.
    Numeric,
    /// A double in [0, 1].
    Equity,
    /// An exact fraction such as 1/4; widens to Double.
    Fraction,
    Card,
    /// An integer that counts cards (outs, lo cards).
    CardCount,
    PlayerCount,
    Rank,
    RankSet,
    /// A set of cards (`outCards`), printed as its cards high to low.
    CardSet,
    String,
    Street,
    HandType,
    FlopHandCategory,
    HiRating,
    LoRating,
    /// A percentile in [0, 100] (`handRanking`).
    HandRanking,
    Player,
    /// Parameter-only: a string literal read as a range of the statement's game and syntax.
    Range,
    /// Parameter-only: a string literal read as a board pattern.
    BoardRange,
    /// The type of `case` without `else` when no arm matches and of nothing else.
    Null,
}

impl Type {
    /// The name users see in signatures and errors (`TEquity` is shown as `equity`).
    pub fn name(self) -> &'static str {
        match self {
            Type::Boolean => "boolean",
            Type::Integer => "integer",
            Type::Double => "double",
            Type::Numeric => "numeric",
            Type::Equity => "equity",
            Type::Fraction => "fraction",
            Type::Card => "card",
            Type::CardCount => "cardcount",
            Type::PlayerCount => "playercount",
            Type::Rank => "rank",
            Type::RankSet => "rankset",
            Type::CardSet => "cardset",
            Type::String => "string",
            Type::Street => "street",
            Type::HandType => "handtype",
            Type::FlopHandCategory => "flophandcategory",
            Type::HiRating => "hirating",
            Type::LoRating => "lorating",
            Type::HandRanking => "handranking",
            Type::Player => "player",
            Type::Range => "range",
            Type::BoardRange => "boardrange",
            Type::Null => "null",
        }
    }

    /// Integer-like and double-like types (usable in arithmetic and `avg`).
    pub fn is_numeric(self) -> bool {
        matches!(
            self,
            Type::Integer
                | Type::Double
                | Type::Numeric
                | Type::Equity
                | Type::Fraction
                | Type::CardCount
                | Type::PlayerCount
                | Type::HandRanking
        )
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
