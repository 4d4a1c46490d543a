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

/// What an `HvREquity` call may assume about its use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HvrUse {
    /// p's hand and the board up to the street are the same in every deal.
    pub repeats: bool,
    /// The call is an `avg` selector's whole expression: only its mean over the deals is
    /// reported, so when sampled inside a Monte Carlo run it may be a cheaper, noisier unbiased
    /// estimate (`cost::HVR_AVERAGED_SAMPLES`).
    pub averaged: bool,
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
    HvREquity(usize, Street, HvrUse),
    /// p against the given range (heads-up) instead of the other players.
    HvPerceivedRangeEquity(usize, Street, Arc<HandSource>, HvrUse),
    // Analysis (docs/analysis.md).
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
    /// The flag: the call is a selector's whole `avg` argument (see [`crate::analysis::joint`]'s
    /// averaged samples).
    HandStrength(usize, Street, bool),
    /// The flag, as [`Builtin::HandStrength`]'s: averaged over the run's deals (see
    /// [`crate::analysis::conditional_potential`]).
    PositivePotential(usize, Street, bool),
    NegativePotential(usize, Street, bool),
    PositivePotential1(usize, Street, bool),
    NegativePotential1(usize, Street, bool),
    EffectiveHandStrength(usize, Street, bool),
    ShowdownHandStrength(usize, Street, bool),
    MaxHiRating(usize, Street),
    // Ranges and helpers.
    InRange(usize, Arc<HandSet>),
    /// Stud ranges fix cards by position, so membership asks the range.
    InStudRange(usize, Arc<Range>),
    /// Percentile of p's starting hand in the game's ordering (`true`: the 6-max ordering).
    HandRanking(usize, bool, crate::range::Ordering),
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

impl Expr {
    /// How many board cards (flop games) evaluating this reads at most, every player's hole
    /// cards and the dead cards aside: 0 for an expression of the hands alone, 3 when it looks
    /// at the flop, 5 when at the river or the whole board. An exact enumeration may judge the
    /// `where` clause once the cards it reads are dealt (`deal::exhaustive`).
    pub fn board_cards_read(&self) -> usize {
        match self {
            Expr::Const(_) => 0,
            Expr::Call(b) => b.board_cards_read(),
            Expr::Not(e) | Expr::Neg(e) => e.board_cards_read(),
            Expr::And(a, b) | Expr::Or(a, b) | Expr::Cmp(_, a, b) | Expr::Arith(_, a, b) | Expr::Concat(a, b) => {
                a.board_cards_read().max(b.board_cards_read())
            }
            Expr::Case(arms, default) => arms
                .iter()
                .map(|(c, v)| c.board_cards_read().max(v.board_cards_read()))
                .chain(default.iter().map(|d| d.board_cards_read()))
                .max()
                .unwrap_or(0),
        }
    }
}

impl Builtin {
    /// See [`Expr::board_cards_read`]. A function of a street reads the board known then; what
    /// is judged at showdown reads all of it.
    fn board_cards_read(&self) -> usize {
        use Builtin as B;
        let at = |s: &Street| s.cards_known().min(5);
        match self {
            B::PocketPair(_) | B::InRange(..) | B::InStudRange(..) | B::HandRanking(..) => 0,
            B::FlopHandCategory(_) => 3,
            B::TurnCard => 4,
            B::RankOrder(e) | B::MaxRank(e) | B::MinRank(e) | B::RankCount(e) | B::ToString(e) => e.board_cards_read(),
            B::NthRank(a, b) => a.board_cards_read().max(b.board_cards_read()),
            B::HvHEquity(_, s)
            | B::HandType(_, s)
            | B::HiRating(_, s)
            | B::BestHiRating(_, s)
            | B::FiveCardHiHandNumber(_, s)
            | B::Overpair(_, s)
            | B::FourFlush(_, s)
            | B::ThreeFlush(_, s)
            | B::LoRating(_, s)
            | B::MadeLo(_, s)
            | B::BestLoRating(_, s)
            | B::BoardAllowsMadeLo(s)
            | B::BoardLoCardCount(s)
            | B::BoardHasOneDistinctLoCard(s)
            | B::BoardHasTwoDistinctLoCards(s)
            | B::BoardRanks(s)
            | B::DuplicatedBoardRanks(s)
            | B::BoardSuitCount(s)
            | B::RainbowBoard(s)
            | B::TwoToneBoard(s)
            | B::MonotoneBoard(s)
            | B::FlushingBoard(s)
            | B::PairedBoard(s)
            | B::StraightBoard(s)
            | B::HandRanks(_, s)
            | B::DuplicatedHandRanks(_, s)
            | B::IntersectingHandRanks(_, s)
            | B::NonIntersectingHandRanks(_, s)
            | B::HandBoardIntersections(_, s)
            | B::HasTopBoardRank(_, s)
            | B::HasSecondBoardRank(_, s)
            | B::NutHi(_, s)
            | B::NutHiForHandType(_, s)
            | B::NutHiOuts(_, s)
            | B::OutsToHandType(_, s, _)
            | B::NutLo(_, s)
            | B::NutLoOuts(_, s)
            | B::CardsPlay(_, s)
            | B::HvREquity(_, s, _)
            | B::HvPerceivedRangeEquity(_, s, ..)
            | B::Outs(_, s)
            | B::OutsDiscounted(_, s)
            | B::OutCards(_, s)
            | B::OutCardsDiscounted(_, s)
            | B::StraightDrawCount(_, s)
            | B::OpenEndedStraightDraw(_, s)
            | B::GutshotStraightDraw(_, s)
            | B::FlushDrawCount(_, s)
            | B::FlushDraw(_, s)
            | B::BackdoorFlushDraw(_, s)
            | B::HandStrength(_, s, _)
            | B::PositivePotential(_, s, _)
            | B::NegativePotential(_, s, _)
            | B::PositivePotential1(_, s, _)
            | B::NegativePotential1(_, s, _)
            | B::EffectiveHandStrength(_, s, _)
            | B::ShowdownHandStrength(_, s, _)
            | B::MaxHiRating(_, s) => at(s),
            // The showdown, the river card, the whole board, stud up cards: everything.
            B::RiverEquity(_)
            | B::FractionalRiverEquity(_)
            | B::WinsHi(_)
            | B::TiesHi(_)
            | B::WinsLo(_)
            | B::TiesLo(_)
            | B::Scoops(_)
            | B::WinningHandType
            | B::RiverCard
            | B::BoardInRange(_)
            | B::UpCard(..) => 5,
        }
    }
}
