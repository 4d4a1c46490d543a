//! The executable form of a PQL expression: constants folded, players and streets resolved,
//! each function a variant of [`Builtin`] with its constant arguments resolved too (players are
//! seats, streets and hand types are values). One recursive type: some built-ins take
//! expressions. A trial evaluates it on each deal (`trial::evaluate`, `trial::library`).

use super::value::Value;
use crate::cards::CardSet;
use crate::deal::source::HandSource;
use crate::error::Span;
use crate::eval::HandType;
use crate::games::Street;
use crate::range::{BoardRange, Range};
use std::collections::HashSet;
use std::sync::Arc;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArithOp {
    Add,
    Sub,
    Mul,
    /// Division, with where its divisor is written (division by zero is an error there).
    Div(Span),
}

#[derive(Clone, Debug)]
pub enum Expr {
    Const(Value),
    Call(Box<Builtin>),
    Not(Box<Expr>),
    Neg(Box<Expr>),
    And(Box<Expr>, Box<Expr>),
    Or(Box<Expr>, Box<Expr>),
    Cmp(CmpOp, Box<Expr>, Box<Expr>),
    Arith(ArithOp, Box<Expr>, Box<Expr>),
    Concat(Box<Expr>, Box<Expr>),
    Case(Vec<(Expr, Expr)>, Option<Box<Expr>>),
}

impl Expr {
    /// Whether evaluating needs the deal at all (constants fold to one value).
    pub fn is_const(&self) -> bool {
        matches!(self, Expr::Const(_))
    }
}

#[derive(Clone, Debug)]
pub enum Builtin {
    // Outcome at showdown.
    RiverEquity(usize),
    FractionalRiverEquity(usize),
    WinsHi(usize),
    TiesHi(usize),
    WinsLo(usize),
    TiesLo(usize),
    Scoops(usize),
    WinningHandType,
    // Equity on a street.
    HvHEquity(usize, Street),
    // Hand strength.
    HandType(usize, Street),
    HiRating(usize, Street),
    BestHiRating(usize, Street),
    FiveCardHiHandNumber(usize, Street),
    PocketPair(usize),
    Overpair(usize, Street),
    FourFlush(usize, Street),
    ThreeFlush(usize, Street),
    // Lows.
    LoRating(usize, Street),
    MadeLo(usize, Street),
    BestLoRating(usize, Street),
    BoardAllowsMadeLo(Street),
    BoardLoCardCount(Street),
    BoardHasOneDistinctLoCard(Street),
    BoardHasTwoDistinctLoCards(Street),
    // Board texture.
    BoardRanks(Street),
    DuplicatedBoardRanks(Street),
    BoardSuitCount(Street),
    RainbowBoard(Street),
    TwoToneBoard(Street),
    MonotoneBoard(Street),
    FlushingBoard(Street),
    PairedBoard(Street),
    StraightBoard(Street),
    TurnCard,
    RiverCard,
    // Rank sets.
    HandRanks(usize, Street),
    DuplicatedHandRanks(usize, Street),
    IntersectingHandRanks(usize, Street),
    NonIntersectingHandRanks(usize, Street),
    HandBoardIntersections(usize, Street),
    HasTopBoardRank(usize, Street),
    HasSecondBoardRank(usize, Street),
    /// A rank's place in the game's rank order (ace lowest in razz), for comparing ranks.
    RankOrder(Expr),
    MaxRank(Expr),
    MinRank(Expr),
    NthRank(Expr, Expr),
    RankCount(Expr),
    // Nuts and outs.
    NutHi(usize, Street),
    NutHiForHandType(usize, Street),
    NutHiOuts(usize, Street),
    OutsToHandType(usize, Street, HandType),
    NutLo(usize, Street),
    NutLoOuts(usize, Street),
    CardsPlay(usize, Street),
    FlopHandCategory(usize),
    // Equity against ranges.
    /// `true`: p's hand and the board up to the street are the same in every deal.
    HvREquity(usize, Street, bool),
    /// p against the given range (heads-up) instead of the other players.
    HvPerceivedRangeEquity(usize, Street, Arc<HandSource>, bool),
    // Analysis (ANALYSIS.md).
    Outs(usize, Street),
    OutsDiscounted(usize, Street),
    OutCards(usize, Street),
    OutCardsDiscounted(usize, Street),
    StraightDrawCount(usize, Street),
    OpenEndedStraightDraw(usize, Street),
    GutshotStraightDraw(usize, Street),
    FlushDrawCount(usize, Street),
    FlushDraw(usize, Street),
    BackdoorFlushDraw(usize, Street),
    HandStrength(usize, Street),
    PositivePotential(usize, Street),
    NegativePotential(usize, Street),
    PositivePotential1(usize, Street),
    NegativePotential1(usize, Street),
    EffectiveHandStrength(usize, Street),
    ShowdownHandStrength(usize, Street),
    MaxHiRating(usize, Street),
    // Ranges and helpers.
    InRange(usize, Arc<HandSet>),
    /// Stud ranges fix cards by position, so membership asks the range.
    InStudRange(usize, Arc<Range>),
    /// Percentile of p's starting hand in the game's ordering (`true`: the 6-max ordering).
    HandRanking(usize, bool),
    BoardInRange(Arc<BoardRange>),
    UpCard(usize, Street),
    ToString(Expr),
}

/// A set of concrete hands for `inRange`.
#[derive(Debug, Default)]
pub struct HandSet(pub HashSet<CardSet>);

impl HandSet {
    pub fn contains(&self, hand: CardSet) -> bool {
        self.0.contains(&hand)
    }
}
