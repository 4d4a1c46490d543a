//! Evaluating a plan's expressions on one deal: the operators here, each function by
//! [`Trial::call`] (`library`).

use super::Trial;
use crate::kernels::showdown::Fraction;
use crate::plan::expr::{ArithOp, CmpOp, Expr};
use crate::plan::value::Value;
use std::cmp::Ordering;

impl Expr {
    pub fn eval(&self, t: &mut Trial<'_>) -> Value {
        match self {
            Expr::Const(v) => v.clone(),
            Expr::Call(b) => t.call(b),
            Expr::Not(e) => Value::Bool(!e.eval(t).as_bool()),
            Expr::Neg(e) => match e.eval(t) {
                // Saturating like + - *: -i64::MIN would overflow.
                Value::Int(i) => Value::Int(i.saturating_neg()),
                v => Value::Num(-v.as_f64()),
            },
            Expr::And(a, b) => Value::Bool(a.eval(t).as_bool() && b.eval(t).as_bool()),
            Expr::Or(a, b) => Value::Bool(a.eval(t).as_bool() || b.eval(t).as_bool()),
            Expr::Cmp(op, a, b) => {
                let o = a.eval(t).compare(&b.eval(t));
                Value::Bool(match op {
                    CmpOp::Eq => o == Ordering::Equal,
                    CmpOp::Ne => o != Ordering::Equal,
                    CmpOp::Lt => o == Ordering::Less,
                    CmpOp::Le => o != Ordering::Greater,
                    CmpOp::Gt => o == Ordering::Greater,
                    CmpOp::Ge => o != Ordering::Less,
                })
            }
            Expr::Arith(op, a, b) => {
                let (x, y) = (a.eval(t), b.eval(t));
                if let ArithOp::Div(divisor) = op {
                    if y.as_f64() == 0.0 {
                        // The run stops with an error at this position after the chunk.
                        t.divided_by_zero(*divisor);
                        return Value::Num(0.0);
                    }
                }
                arith(*op, &x, &y)
            }
            Expr::Concat(a, b) => Value::Str(format!("{}{}", a.eval(t), b.eval(t)).into()),
            Expr::Case(arms, default) => {
                for (cond, then) in arms {
                    if cond.eval(t).as_bool() {
                        return then.eval(t);
                    }
                }
                default.as_ref().map_or(Value::Null, |d| d.eval(t))
            }
        }
    }
}

/// Integer arithmetic stays integral except for division; fractions stay exact under + and -
/// of fractions; everything else is a double.
fn arith(op: ArithOp, a: &Value, b: &Value) -> Value {
    match (a, b) {
        (Value::Int(x), Value::Int(y)) if !matches!(op, ArithOp::Div(_)) => Value::Int(match op {
            ArithOp::Add => x.saturating_add(*y),
            ArithOp::Sub => x.saturating_sub(*y),
            _ => x.saturating_mul(*y),
        }),
        (Value::Frac(x), Value::Frac(y)) if op == ArithOp::Add => {
            Value::Frac(Fraction::new(x.num * y.den + y.num * x.den, x.den * y.den))
        }
        _ => {
            let (x, y) = (a.as_f64(), b.as_f64());
            Value::Num(match op {
                ArithOp::Add => x + y,
                ArithOp::Sub => x - y,
                ArithOp::Mul => x * y,
                // A zero divisor never gets here (see `Expr::eval`).
                ArithOp::Div(_) => x / y,
            })
        }
    }
}
