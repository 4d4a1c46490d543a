//! The built-in function library's catalogue: one entry per function with its signature (in
//! PQL's value types, `types`), the games it applies to, a one-line doc and an example. The
//! checker, the REPL's completion and help, and the docs all read it (one source
//! of truth). The bodies run on a deal, so they live with the deal's evaluation in
//! `trial::library`; the planner turns each [`Func`] into the engine's `plan::expr::Builtin`.
//!
//! May use: `cards`, `games`. Below the language front end (`pql` reads the catalogue).

mod catalog;
pub mod types;

pub use catalog::{canonical, catalog, lookup, names, Applicability, FunctionDef, Origin, Param};

/// Every built-in function. Variant names are the function names in `UpperCamelCase`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Func {
    // Equity and outcome.
    RiverEquity,
    FractionalRiverEquity,
    HvHEquity,
    MinEquity,
    MinHvHEquity,
    HvREquity,
    MinHvREquity,
    HvPerceivedRangeEquity,
    MinHvPerceivedRangeEquity,
    WinsHi,
    TiesHi,
    WinsLo,
    TiesLo,
    Scoops,
    WinningHandType,
    // Hand strength.
    HandType,
    ExactHandType,
    MinHandType,
    FlopHandCategory,
    ExactFlopHandCategory,
    MinFlopHandCategory,
    HiRating,
    MinHiRating,
    RateHiHand,
    BestHiRating,
    FiveCardHiHandNumber,
    CardsPlay,
    FourFlush,
    ThreeFlush,
    PocketPair,
    Overpair,
    // Lo.
    LoRating,
    MinLoRating,
    RateLoHand,
    MadeLo,
    BestLoRating,
    NutLo,
    NutLoOuts,
    BoardAllowsMadeLo,
    BoardLoCardCount,
    BoardHasOneDistinctLoCard,
    BoardHasTwoDistinctLoCards,
    // Nuts and outs.
    NutHi,
    NutHiForHandType,
    NutHiOuts,
    OutsToHandType,
    MinOutsToHandType,
    // Board.
    BoardRanks,
    DuplicatedBoardRanks,
    BoardSuitCount,
    RainbowBoard,
    TwoToneBoard,
    MonotoneBoard,
    FlushingBoard,
    PairedBoard,
    StraightBoard,
    BoardInRange,
    TurnCard,
    RiverCard,
    // Ranks.
    HandRanks,
    DuplicatedHandRanks,
    IntersectingHandRanks,
    NonIntersectingHandRanks,
    HandBoardIntersections,
    HasTopBoardRank,
    HasSecondBoardRank,
    MaxRank,
    MinRank,
    NthRank,
    RankCount,
    // Ranges and helpers.
    InRange,
    HandRanking,
    HandRankingFor,
    UpCard,
    ToCard,
    ToRank,
    ToString,
    // ext: outs, draws, hand strength and potential (docs/analysis.md).
    Outs,
    OutsDiscounted,
    OutCards,
    OutCardsDiscounted,
    StraightDrawCount,
    OpenEndedStraightDraw,
    GutshotStraightDraw,
    FlushDrawCount,
    FlushDraw,
    BackdoorFlushDraw,
    HandStrength,
    PositivePotential,
    NegativePotential,
    PositivePotential1,
    NegativePotential1,
    EffectiveHandStrength,
    ShowdownHandStrength,
    MaxHiRating,
}
