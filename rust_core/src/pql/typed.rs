//! The checked statement: what the type checker hands to the planner (`plan::compile`).
//! Every node keeps the byte span of the source it came from (offsets into the whole program).

use crate::error::Span;
use crate::eval::{FlopHandCategory, HandType};
use crate::functions::types::Type;
use crate::functions::Func;
use crate::games::{Game, Street};
use crate::range::{Ordering, Syntax};

/// The contents of a string literal and the span of those contents (inside the quotes), so an
/// error found inside a range can be shifted to point into the query.
#[derive(Clone, Debug, PartialEq)]
pub struct TextLit {
    pub text: String,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct PlayerDecl {
    /// As written in the query (case kept); players are matched case-insensitively.
    pub name: String,
    pub key_span: Span,
    pub range: TextLit,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SelectorName {
    Avg,
    Count,
    Histogram,
    Max,
    Min,
}

#[derive(Clone, Debug, PartialEq)]
pub struct CheckedSelector {
    pub kind: SelectorName,
    /// The `as` name, or the selector as written (`avg(riverEquity(hero))`, white space made
    /// single spaces), with ` #N` (its position from 1) when an earlier selector has that name.
    pub name: String,
    pub expr: TExpr,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct CheckedStatement {
    pub span: Span,
    /// The statement's source text (without the `;`).
    pub text: String,
    pub game: Game,
    pub syntax: Syntax,
    /// The ordering of starting hands `N%` and `handRanking` read (`ordering='equity'`).
    pub ordering: Ordering,
    /// In seat order; a `TExprKind::Player(i)` indexes this list.
    pub players: Vec<PlayerDecl>,
    pub board: Option<TextLit>,
    pub dead: Option<TextLit>,
    pub selectors: Vec<CheckedSelector>,
    pub where_clause: Option<TExpr>,
    /// A `simulate` statement's betting state and candidate actions (no selectors then).
    pub simulate: Option<SimulateSpec>,
}

/// A betting action of fixed-limit poker, least aggressive first (the order ties are broken in).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Action {
    Fold,
    Check,
    Call,
    Bet,
    Raise,
}

impl Action {
    pub const ALL: [Action; 5] = [Action::Fold, Action::Check, Action::Call, Action::Bet, Action::Raise];

    pub fn name(self) -> &'static str {
        match self {
            Action::Fold => "fold",
            Action::Check => "check",
            Action::Call => "call",
            Action::Bet => "bet",
            Action::Raise => "raise",
        }
    }

    pub fn from_name(word: &str) -> Option<Action> {
        Self::ALL.into_iter().find(|a| a.name().eq_ignore_ascii_case(word))
    }

    /// Which of the probability triple's parts the action is: 0 fold, 1 check or call, 2 bet or raise.
    pub fn part(self) -> usize {
        match self {
            Action::Fold => 0,
            Action::Check | Action::Call => 1,
            Action::Bet | Action::Raise => 2,
        }
    }
}

/// An action a player was seen to take (`history='villain:raise@flop'`, `observe`).
#[derive(Clone, Debug, PartialEq)]
pub struct Observation {
    /// Seat (index into the statement's players).
    pub player: usize,
    pub action: Action,
    pub street: Street,
    pub span: Span,
}

/// The checked settings of a `simulate` statement (docs/language/simulate.md). Money is in chips.
#[derive(Clone, Debug, PartialEq)]
pub struct SimulateSpec {
    /// The candidate actions in the order written, each legal in the state.
    pub actions: Vec<(Action, Span)>,
    /// The deciding player's seat: the player named `hero`, else the first.
    pub hero: usize,
    /// Money in the pot at the decision, every bet so far included.
    pub pot: f64,
    /// What the hero must put in to call (0: nothing to call).
    pub tocall: f64,
    /// The small bet; the turn and river bet twice it.
    pub bet: f64,
    /// Raises already made this round.
    pub raises: u32,
    /// Seats still to act this round after the hero, in order (None: the default, docs/language/simulate.md).
    pub to_act: Option<Vec<usize>>,
    /// Seats that have folded (dealt, but out of the hand).
    pub folded: Vec<usize>,
    pub history: Vec<Observation>,
    /// Per seat: the call and raise thresholds of its probability triple.
    pub call_threshold: Vec<f64>,
    pub raise_threshold: Vec<f64>,
    /// When the run may stop before its trials (`stop=`).
    pub stop: StopRule,
    /// How the action is chosen from the EVs (`choose=`).
    pub choose: Choice,
}

/// When a simulation stops before its trials on an obvious move (docs/language/simulate.md). Looked at
/// after 200, 400, 800, … trials only.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum StopRule {
    /// `stop='paired'`: the best EV beats every other by more than three standard errors of
    /// their paired difference (the default: under 5% of runs choose otherwise than a long run).
    #[default]
    Paired,
    /// `stop='loki'`: Loki-2's rule, the best EV beats the second by more than the sum of their
    /// standard errors.
    Loki,
    /// `stop='none'`: every trial is played.
    Never,
}

/// How a simulation chooses its action.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Choice {
    /// `choose='best'`: the greatest EV (near ties to the more aggressive action).
    #[default]
    Best,
    /// `choose='mixed'`: Loki-2's way, at random (by the run's seed) among the actions whose EV
    /// is nearly the best's.
    Mixed,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Or,
    And,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Concat,
    Add,
    Sub,
    Mul,
    Div,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TExpr {
    pub kind: TExprKind,
    pub ty: Type,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum TExprKind {
    Bool(bool),
    Int(i64),
    Double(f64),
    Str(TextLit),
    Player(usize),
    Street(Street),
    HandType(HandType),
    FlopCategory(FlopHandCategory),
    /// Arguments in the catalogue's parameter order; aliases (`equity`) already resolved.
    Call {
        func: Func,
        args: Vec<TExpr>,
    },
    Neg(Box<TExpr>),
    Not(Box<TExpr>),
    Binary {
        op: BinOp,
        lhs: Box<TExpr>,
        rhs: Box<TExpr>,
    },
    /// `case when c then v ... [else e] end`; without `else` an unmatched deal yields no value
    /// (it is left out of the selector's aggregate, like SQL's NULL).
    Case {
        arms: Vec<(TExpr, TExpr)>,
        otherwise: Option<Box<TExpr>>,
    },
}
