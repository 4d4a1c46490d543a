//! The checked statement: what the type checker hands to the planner (`plan::compile`).
//! Every node keeps the byte span of the source it came from (offsets into the whole program).

use crate::error::Span;
use crate::eval::{FlopHandCategory, HandType};
use crate::functions::types::Type;
use crate::functions::Func;
use crate::games::{Game, Street};
use crate::range::Syntax;

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
    /// In seat order; a `TExprKind::Player(i)` indexes this list.
    pub players: Vec<PlayerDecl>,
    pub board: Option<TextLit>,
    pub dead: Option<TextLit>,
    pub selectors: Vec<CheckedSelector>,
    pub where_clause: Option<TExpr>,
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
