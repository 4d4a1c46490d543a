//! The untyped syntax tree the parser builds. Every node keeps its byte span in the whole
//! program text; names are kept as written and resolved by the checker.

use super::typed::{BinOp, SelectorName};
use crate::error::Span;

/// A name as written (`riverEquity`, `hero`, `flop`).
#[derive(Clone, Debug, PartialEq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

/// A single-quoted string: `span` covers the quotes, `content` only what is inside.
#[derive(Clone, Debug, PartialEq)]
pub struct StrLit {
    pub text: String,
    pub span: Span,
    pub content: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Statement {
    /// From `select` (or `simulate`) to the last token before `;`.
    pub span: Span,
    pub selectors: Vec<Selector>,
    /// `simulate fold, call, raise`: the candidate actions as written (the statement has no
    /// selectors then). `None` for a `select` statement.
    pub actions: Option<Vec<Ident>>,
    pub from: Vec<FromItem>,
    pub where_clause: Option<Expr>,
    /// True when the parser reported an error inside this statement.
    pub has_syntax_errors: bool,
    /// True when a syntax error fell inside the where clause (or right after it): what the
    /// parser made of it is a guess, so the checker does not type it.
    pub where_damaged: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Selector {
    /// `None` when the selector word was left out (`bare`) or was unknown (already reported).
    pub kind: Option<SelectorName>,
    /// A bare expression (`equity(hero)`): the checker reads it as `avg`, `count` or
    /// `histogram` by its type.
    pub bare: bool,
    pub kind_span: Span,
    pub expr: Expr,
    pub alias: Option<Ident>,
    pub span: Span,
    /// True when a syntax error fell inside the selector: the checker does not type it, so a
    /// guess made while recovering cannot cause an error of its own.
    pub damaged: bool,
}

/// `key='value'` in the from clause. `value` is `None` when it was not a string (reported,
/// except in a simulate statement, where a number is kept in `number`). A simulate key may be
/// `player.setting`: `key.name` is then the whole dotted text.
#[derive(Clone, Debug, PartialEq)]
pub struct FromItem {
    pub key: Ident,
    pub value: Option<StrLit>,
    pub number: Option<NumLit>,
    pub span: Span,
}

/// A number in a simulate statement's from clause (`pot=10`, `tocall=-2`), sign included.
#[derive(Clone, Debug, PartialEq)]
pub struct NumLit {
    pub value: f64,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    Int(i64),
    Double(f64),
    Str(StrLit),
    Bool(bool),
    /// A bare word: a player, street, hand type or flop category.
    Name(Ident),
    Call {
        name: Ident,
        args: Vec<Expr>,
    },
    Neg(Box<Expr>),
    Not(Box<Expr>),
    Binary {
        op: BinOp,
        op_span: Span,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    Case {
        arms: Vec<(Expr, Expr)>,
        otherwise: Option<Box<Expr>>,
    },
    /// Where the parser found no expression; the error is already reported.
    Error,
}
