//! The type checker: `ast::Statement` -> `typed::CheckedStatement`. It resolves the game,
//! syntax, players, streets, hand types and functions, checks every type rule of PQL-SPEC §1-4,
//! and validates the literals it can without the range module. An expression that fails yields
//! `None` and its parents stay silent, so one mistake gives one error.

use super::ast::{self, Expr, ExprKind, FromItem, StrLit};
use super::typed::{BinOp, CheckedSelector, CheckedStatement, PlayerDecl, SelectorName, TExpr, TExprKind, TextLit};
use super::types::Type;
use super::vocab::{KEYWORDS, RESERVED_KEYS, SELECTORS};
use crate::cards::{parse_card, parse_cards, parse_rank};
use crate::error::{did_you_mean, PqlError, Span};
use crate::eval::{FlopHandCategory, HandType};
use crate::functions::{catalog, lookup, Func, FunctionDef};
use crate::games::{Game, Street, MAX_PLAYERS};
use crate::range::Syntax;

/// Checks one parsed statement against the whole program text `source`.
pub fn check_statement(source: &str, stmt: &ast::Statement) -> Result<CheckedStatement, Vec<PqlError>> {
    let mut checker = Checker {
        source,
        game: Game::Holdem,
        players: Vec::new(),
        errors: Vec::new(),
        quiet_names: stmt.has_syntax_errors,
    };
    let (syntax, board, dead) = checker.resolve_from(&stmt.from);
    let selectors = checker.selectors(&stmt.selectors);
    let where_clause = stmt.where_clause.as_ref().and_then(|w| {
        let e = checker.expr(w)?;
        if e.ty == Type::Boolean {
            Some(e)
        } else {
            checker.type_error(format!("the where clause needs a boolean expression, found {}", e.ty), e.span);
            None
        }
    });
    if !checker.errors.is_empty() {
        return Err(checker.errors);
    }
    Ok(CheckedStatement {
        span: stmt.span,
        text: source.get(stmt.span.start..stmt.span.end).unwrap_or("").to_string(),
        game: checker.game,
        syntax,
        players: checker.players,
        board,
        dead,
        selectors,
        where_clause,
    })
}

/// Integer-valued types: they mix freely and keep integer arithmetic.
pub fn is_integer_like(t: Type) -> bool {
    matches!(t, Type::Integer | Type::CardCount | Type::PlayerCount)
}

/// Types `<`, `<=`, `>`, `>=` accept (PQL-SPEC §1).
pub fn is_ordered(t: Type) -> bool {
    t.is_numeric()
        || matches!(t, Type::Rank | Type::HandType | Type::FlopHandCategory | Type::HiRating | Type::LoRating)
}

/// Whether an argument of type `arg` may be passed where the catalogue says `param`.
pub fn accepts(param: Type, arg: Type) -> bool {
    if param == arg {
        return true;
    }
    if is_integer_like(param) {
        return is_integer_like(arg);
    }
    param.is_numeric() && arg.is_numeric()
}

/// The type two values of `a` and `b` share (`case` arms): numbers unify to integer or double.
pub fn unify(a: Type, b: Type) -> Option<Type> {
    if a == b {
        Some(a)
    } else if is_integer_like(a) && is_integer_like(b) {
        Some(Type::Integer)
    } else if a.is_numeric() && b.is_numeric() {
        Some(Type::Double)
    } else {
        None
    }
}

/// Functions whose string parameter must be a literal the checker can see.
fn needs_literal(func: Func, param: Type) -> bool {
    matches!(param, Type::Range | Type::BoardRange)
        || (param == Type::String
            && matches!(
                func,
                Func::RateHiHand
                    | Func::RateLoHand
                    | Func::ToCard
                    | Func::ToRank
                    | Func::HandRankingFor
                    | Func::InRange
            ))
}

struct Checker<'a> {
    source: &'a str,
    /// After a syntax error the from clause may be incomplete, so an unknown name is more likely
    /// a consequence than a mistake of its own: stay silent about it.
    quiet_names: bool,
    game: Game,
    players: Vec<PlayerDecl>,
    errors: Vec<PqlError>,
}

impl Checker<'_> {
    fn position_of(&self, span: Span) -> Option<(usize, usize)> {
        PqlError::type_error("", span).line_col(self.source)
    }

    fn type_error(&mut self, message: impl Into<String>, span: Span) {
        self.errors.push(PqlError::type_error(message, span));
    }

    // ---- the from clause -----------------------------------------------------------------

    fn resolve_from(&mut self, items: &[FromItem]) -> (Syntax, Option<TextLit>, Option<TextLit>) {
        let mut seen: Vec<(String, Span)> = Vec::new();
        let mut syntax = Syntax::Classic;
        let (mut board, mut dead) = (None, None);
        let text_of = |item: &FromItem| {
            item.value.as_ref().map_or_else(
                || TextLit { text: String::new(), span: Span::new(item.key.span.end, item.key.span.end) },
                |v| TextLit { text: v.text.clone(), span: v.content },
            )
        };
        // The game first: players' checks and every expression depend on it.
        for item in items {
            let key = item.key.name.to_ascii_lowercase();
            if let Some((_, first)) = seen.iter().find(|(k, _)| *k == key) {
                let first = *first;
                self.errors.push(
                    PqlError::type_error(
                        format!("duplicate key '{}' in the from clause", item.key.name),
                        item.key.span,
                    )
                    .with_hint(self.position_of(first).map_or_else(String::new, |(line, col)| {
                        format!("'{}' is already given at line {line}, col {col}", item.key.name)
                    })),
                );
                continue;
            }
            seen.push((key.clone(), item.key.span));
            match key.as_str() {
                "game" => {
                    if let Some(v) = &item.value {
                        match Game::from_name(v.text.trim()) {
                            Some(g) => self.game = g,
                            None => self.unknown_value("game", v, &Game::all_names().collect::<Vec<_>>()),
                        }
                    }
                }
                "syntax" => {
                    if let Some(v) = &item.value {
                        match Syntax::from_name(v.text.trim()) {
                            Some(s) => syntax = s,
                            None => self.unknown_value("syntax", v, &Syntax::ALL.map(Syntax::name)),
                        }
                    }
                }
                "board" => board = Some(text_of(item)),
                "dead" => dead = Some(text_of(item)),
                _ => {}
            }
        }
        let mut declared: Vec<String> = Vec::new();
        for item in items {
            let key = item.key.name.to_ascii_lowercase();
            if RESERVED_KEYS.contains(&key.as_str()) || declared.contains(&key) {
                continue;
            }
            declared.push(key.clone());
            if declared.len() == MAX_PLAYERS + 1 {
                self.type_error(
                    format!(
                        "too many players: at most {MAX_PLAYERS} can be seated, and '{}' is the {}th",
                        item.key.name,
                        MAX_PLAYERS + 1
                    ),
                    item.key.span,
                );
            }
            if self.player_name_is_valid(item) {
                self.players.push(PlayerDecl {
                    name: item.key.name.clone(),
                    key_span: item.key.span,
                    range: text_of(item),
                });
            }
        }
        (syntax, board, dead)
    }

    fn unknown_value(&mut self, key: &str, v: &StrLit, names: &[&str]) {
        let message = match did_you_mean(v.text.trim(), names.iter().copied()) {
            Some(m) => format!("unknown {key} '{}' — did you mean '{m}'?", v.text),
            None => format!("unknown {key} '{}'", v.text),
        };
        self.errors.push(PqlError::type_error(message, v.content).with_hint(format!("{key}s: {}", names.join(", "))));
    }

    /// A player's name must not read as a keyword, and a near-miss of a reserved key whose
    /// value fits that key (`gaem='omaha'`) is a typo, not a player.
    fn player_name_is_valid(&mut self, item: &FromItem) -> bool {
        let name = &item.key.name;
        let clash = if KEYWORDS.iter().any(|k| k.eq_ignore_ascii_case(name)) {
            Some("a keyword")
        } else if Street::from_name(name).is_some() {
            Some("a street")
        } else if HandType::from_name(name).is_some() {
            Some("a hand type")
        } else if FlopHandCategory::from_name(name).is_some() {
            Some("a flop hand category")
        } else {
            None
        };
        if let Some(what) = clash {
            self.type_error(format!("'{name}' is {what} and cannot name a player"), item.key.span);
            return false;
        }
        if let (Some(reserved), Some(v)) = (did_you_mean(name, RESERVED_KEYS.iter().copied()), &item.value) {
            let value = v.text.trim();
            let fits = match reserved {
                "game" => Game::from_name(value).is_some(),
                "syntax" => Syntax::from_name(value).is_some(),
                "board" => parse_cards(value)
                    .is_ok_and(|c| (3..=5).contains(&c.len()) && c.len() as usize != self.game.hole_cards()),
                _ => false,
            };
            if fits {
                self.type_error(format!("unknown key '{name}' — did you mean '{reserved}'?"), item.key.span);
                return false;
            }
        }
        true
    }

    // ---- selectors -----------------------------------------------------------------------

    fn selectors(&mut self, selectors: &[ast::Selector]) -> Vec<CheckedSelector> {
        let mut out: Vec<CheckedSelector> = Vec::new();
        for (i, sel) in selectors.iter().enumerate() {
            // A missing or unknown selector was reported by the parser.
            let Some(kind) = sel.kind else { continue };
            let word = SELECTORS[kind as usize];
            let name = sel
                .alias
                .as_ref()
                .map_or_else(|| format!("{} {}", word.to_ascii_uppercase(), i + 1), |a| a.name.clone());
            if let Some(alias) = &sel.alias {
                if out.iter().any(|o| o.name.eq_ignore_ascii_case(&name)) {
                    self.type_error(format!("duplicate selector name '{name}'"), alias.span);
                }
            }
            let Some(expr) = self.expr(&sel.expr) else { continue };
            let ok = match kind {
                SelectorName::Avg => expr.ty.is_numeric(),
                SelectorName::Count => expr.ty == Type::Boolean,
                SelectorName::Histogram => true,
                SelectorName::Max | SelectorName::Min => is_ordered(expr.ty) || expr.ty == Type::Boolean,
            };
            if !ok {
                let (needs, hint) = match kind {
                    SelectorName::Avg => ("a numeric", "histogram(...) shows how often each value occurs"),
                    SelectorName::Count => {
                        ("a boolean", "count the deals where a condition holds, e.g. count(winsHi(hero))")
                    }
                    _ => {
                        ("an ordered", "ordered types: numbers, ranks, hand types, flop categories, hi and lo ratings")
                    }
                };
                self.errors.push(
                    PqlError::type_error(format!("{word} needs {needs} expression, found {}", expr.ty), expr.span)
                        .with_hint(hint),
                );
                continue;
            }
            out.push(CheckedSelector { kind, name, expr, span: sel.span });
        }
        out
    }

    // ---- expressions ---------------------------------------------------------------------

    fn expr(&mut self, e: &Expr) -> Option<TExpr> {
        let span = e.span;
        let typed = |kind, ty| Some(TExpr { kind, ty, span });
        match &e.kind {
            ExprKind::Error => None,
            ExprKind::Int(v) => typed(TExprKind::Int(*v), Type::Integer),
            ExprKind::Double(v) => typed(TExprKind::Double(*v), Type::Double),
            ExprKind::Bool(b) => typed(TExprKind::Bool(*b), Type::Boolean),
            ExprKind::Str(s) => typed(TExprKind::Str(TextLit { text: s.text.clone(), span: s.content }), Type::String),
            ExprKind::Name(ident) => self.name(&ident.name, span),
            ExprKind::Call { name, args } => self.call(name, args, span),
            ExprKind::Neg(inner) => {
                let x = self.expr(inner)?;
                match x.kind {
                    // Fold literals so `-2` is a constant.
                    TExprKind::Int(v) => typed(TExprKind::Int(v.wrapping_neg()), Type::Integer),
                    TExprKind::Double(v) => typed(TExprKind::Double(-v), Type::Double),
                    _ if x.ty.is_numeric() => {
                        let ty = if is_integer_like(x.ty) { Type::Integer } else { Type::Double };
                        typed(TExprKind::Neg(Box::new(x)), ty)
                    }
                    _ => {
                        self.type_error(format!("'-' needs a numeric operand, found {}", x.ty), x.span);
                        None
                    }
                }
            }
            ExprKind::Not(inner) => {
                let x = self.expr(inner)?;
                if x.ty != Type::Boolean {
                    self.type_error(format!("'not' needs a boolean operand, found {}", x.ty), x.span);
                    return None;
                }
                typed(TExprKind::Not(Box::new(x)), Type::Boolean)
            }
            ExprKind::Binary { op, op_span, lhs, rhs } => {
                let (l, r) = (self.expr(lhs), self.expr(rhs));
                let (l, r) = (l?, r?);
                let ty = self.binary_type(*op, *op_span, &l, &r)?;
                typed(TExprKind::Binary { op: *op, lhs: Box::new(l), rhs: Box::new(r) }, ty)
            }
            ExprKind::Case { arms, otherwise } => self.case(arms, otherwise.as_deref(), span),
        }
    }

    fn binary_type(&mut self, op: BinOp, op_span: Span, l: &TExpr, r: &TExpr) -> Option<Type> {
        let symbol = match op {
            BinOp::Or => "or",
            BinOp::And => "and",
            BinOp::Eq => "=",
            BinOp::Ne => "<>",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::Concat => "||",
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
        };
        match op {
            BinOp::Or | BinOp::And => {
                for side in [l, r] {
                    if side.ty != Type::Boolean {
                        self.type_error(format!("'{symbol}' needs boolean operands, found {}", side.ty), side.span);
                        return None;
                    }
                }
                Some(Type::Boolean)
            }
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                if unify(l.ty, r.ty).is_none() {
                    self.type_error(format!("cannot compare {} with {}", l.ty, r.ty), l.span.to(r.span));
                    return None;
                }
                if !matches!(op, BinOp::Eq | BinOp::Ne) && !is_ordered(l.ty) {
                    self.errors.push(
                        PqlError::type_error(
                            format!("'{symbol}' needs ordered operands; {} is not ordered", l.ty),
                            op_span,
                        )
                        .with_hint("ordered types: numbers, ranks, hand types, flop categories, hi and lo ratings"),
                    );
                    return None;
                }
                Some(Type::Boolean)
            }
            BinOp::Concat => Some(Type::String),
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div => {
                for side in [l, r] {
                    if !side.ty.is_numeric() {
                        self.type_error(format!("'{symbol}' needs numeric operands, found {}", side.ty), side.span);
                        return None;
                    }
                }
                // Division is always exact-ish: 1/2 is 0.5, not 0.
                Some(if op != BinOp::Div && is_integer_like(l.ty) && is_integer_like(r.ty) {
                    Type::Integer
                } else {
                    Type::Double
                })
            }
        }
    }

    fn case(&mut self, arms: &[(Expr, Expr)], otherwise: Option<&Expr>, span: Span) -> Option<TExpr> {
        let mut checked = Vec::new();
        let mut ty: Option<Type> = None;
        let mut failed = false;
        for (cond, value) in arms {
            let c = self.expr(cond);
            if let Some(c) = &c {
                if c.ty != Type::Boolean {
                    self.type_error(format!("the condition of 'when' must be boolean, found {}", c.ty), c.span);
                    failed = true;
                }
            }
            let v = self.expr(value);
            if let Some(v) = &v {
                failed |= !self.unify_arm(&mut ty, v);
            }
            match (c, v) {
                (Some(c), Some(v)) => checked.push((c, v)),
                _ => failed = true,
            }
        }
        let mut last = None;
        if let Some(o) = otherwise {
            if let Some(v) = self.expr(o) {
                failed |= !self.unify_arm(&mut ty, &v);
                last = Some(Box::new(v));
            } else {
                failed = true;
            }
        }
        if failed {
            return None;
        }
        Some(TExpr { kind: TExprKind::Case { arms: checked, otherwise: last }, ty: ty?, span })
    }

    /// Folds one arm's type into the type of the `case` so far; false (reported) if they clash.
    fn unify_arm(&mut self, ty: &mut Option<Type>, arm: &TExpr) -> bool {
        let Some(t) = *ty else {
            *ty = Some(arm.ty);
            return true;
        };
        if let Some(u) = unify(t, arm.ty) {
            *ty = Some(u);
            return true;
        }
        self.type_error(
            format!("the arms of 'case' must have one type: this one is {}, the first is {t}", arm.ty),
            arm.span,
        );
        false
    }

    /// A bare word: a player, a street, a hand type or a flop category.
    fn name(&mut self, word: &str, span: Span) -> Option<TExpr> {
        let typed = |kind, ty| Some(TExpr { kind, ty, span });
        if let Some(seat) = self.players.iter().position(|p| p.name.eq_ignore_ascii_case(word)) {
            return typed(TExprKind::Player(seat), Type::Player);
        }
        if let Some(street) = Street::from_name(word) {
            if !self.game.has_street(street) {
                let streets: Vec<&str> = self.game.streets().iter().map(|s| s.name()).collect();
                self.type_error(
                    format!(
                        "street '{}' does not exist in {}; its streets are {}",
                        street.name(),
                        self.game.name(),
                        streets.join(", ")
                    ),
                    span,
                );
                return None;
            }
            return typed(TExprKind::Street(street), Type::Street);
        }
        if let Some(t) = HandType::from_name(word) {
            return typed(TExprKind::HandType(t), Type::HandType);
        }
        if let Some(c) = FlopHandCategory::from_name(word) {
            return typed(TExprKind::FlopCategory(c), Type::FlopHandCategory);
        }
        if let Some(def) = lookup(word) {
            self.errors.push(
                PqlError::type_error(format!("'{}' is a function: call it with parentheses", def.name), span)
                    .with_hint(format!("e.g. {}", def.signature())),
            );
            return None;
        }
        if self.quiet_names {
            return None;
        }
        let mut candidates: Vec<&str> = self.players.iter().map(|p| p.name.as_str()).collect();
        candidates.extend(self.game.streets().iter().map(|s| s.name()));
        candidates.extend(HandType::ALL.iter().map(|t| t.name()));
        candidates.extend(FlopHandCategory::ALL.iter().map(|c| c.name()));
        candidates.extend(["true", "false"]);
        let message = match did_you_mean(word, candidates) {
            Some(m) => format!("unknown player or keyword '{word}' — did you mean '{m}'?"),
            None => format!("unknown player or keyword '{word}'"),
        };
        let declared: Vec<&str> = self.players.iter().map(|p| p.name.as_str()).collect();
        let hint = if declared.is_empty() {
            "no player is declared: add one to the from clause, e.g. hero='AA'".to_string()
        } else {
            format!("players: {}", declared.join(", "))
        };
        self.errors.push(PqlError::type_error(message, span).with_hint(hint));
        None
    }

    fn call(&mut self, name: &ast::Ident, args: &[Expr], span: Span) -> Option<TExpr> {
        let Some(def) = lookup(&name.name) else {
            let word = &name.name;
            if SELECTORS.iter().any(|s| s.eq_ignore_ascii_case(word)) {
                self.type_error(
                    format!("'{word}' is a selector: it can only stand at the top of the select list"),
                    name.span,
                );
            } else {
                match did_you_mean(word, catalog().iter().map(|f| f.name)) {
                    Some(m) => self.type_error(format!("unknown function '{word}' — did you mean '{m}'?"), name.span),
                    None => self.errors.push(
                        PqlError::type_error(format!("unknown function '{word}'"), name.span)
                            .with_hint("pql.functions() and .functions in the REPL list every function"),
                    ),
                }
            }
            // Still check the arguments: their errors are independent.
            for a in args {
                let _ = self.expr(a);
            }
            return None;
        };
        let checked: Vec<Option<TExpr>> = args
            .iter()
            .zip(def.params.iter().map(Some).chain(std::iter::repeat(None)))
            .map(|(a, p)| match p {
                Some(p) if needs_literal(def.func, p.ty) => self.literal_arg(def, p.name, a),
                _ => self.expr(a),
            })
            .collect();
        if !def.applies.allows(self.game) {
            self.type_error(
                format!("{} does not apply to {}: it is for {}", def.name, self.game.name(), def.applies.describe()),
                name.span,
            );
            return None;
        }
        if args.len() != def.params.len() {
            let n = def.params.len();
            self.errors.push(
                PqlError::type_error(
                    format!("{} takes {n} argument{}, found {}", def.name, if n == 1 { "" } else { "s" }, args.len()),
                    span,
                )
                .with_hint(def.signature()),
            );
            return None;
        }
        let mut typed_args = Vec::with_capacity(args.len());
        let mut failed = false;
        for (i, (arg, param)) in checked.into_iter().zip(def.params).enumerate() {
            let Some(arg) = arg else {
                failed = true;
                continue;
            };
            let ok = def.any_arg(i) || needs_literal(def.func, param.ty) || accepts(param.ty, arg.ty);
            if !ok {
                let mut err = PqlError::type_error(
                    format!(
                        "argument '{}' of {} must be {}, found {}",
                        param.name,
                        def.name,
                        article(param.ty),
                        arg.ty
                    ),
                    arg.span,
                )
                .with_hint(def.signature());
                if param.ty == Type::Street && arg.ty == Type::String {
                    err = err.with_hint("write the street without quotes, e.g. flop");
                }
                self.errors.push(err);
                failed = true;
                continue;
            }
            // The planner resolves players and streets when it compiles, so they must be named.
            let named = match param.ty {
                Type::Player => matches!(arg.kind, TExprKind::Player(_)),
                Type::Street => matches!(arg.kind, TExprKind::Street(_)),
                _ => true,
            };
            if !named {
                self.errors.push(
                    PqlError::type_error(
                        format!("argument '{}' of {} must name a {} directly", param.name, def.name, param.ty),
                        arg.span,
                    )
                    .with_hint(if param.ty == Type::Street {
                        "e.g. flop or river"
                    } else {
                        "e.g. hero"
                    }),
                );
                failed = true;
                continue;
            }
            typed_args.push(arg);
        }
        if failed {
            return None;
        }
        // Seventh street's card is dealt face down: there is no up card to ask for.
        if let (Func::UpCard, Some(TExprKind::Street(Street::Seventh))) = (def.func, typed_args.get(1).map(|a| &a.kind))
        {
            self.errors.push(
                PqlError::type_error("upCard: the seventh-street card is dealt face down", typed_args[1].span)
                    .with_hint("up cards are dealt on third to sixth street"),
            );
            return None;
        }
        Some(TExpr { kind: TExprKind::Call { func: def.func, args: typed_args }, ty: def.returns, span })
    }

    /// An argument that must be a quoted literal; validates what can be checked here.
    fn literal_arg(&mut self, def: &FunctionDef, param: &str, arg: &Expr) -> Option<TExpr> {
        let ExprKind::Str(s) = &arg.kind else {
            let checked = self.expr(arg)?;
            self.errors.push(
                PqlError::type_error(
                    format!("argument '{param}' of {} must be a quoted string, found {}", def.name, checked.ty),
                    arg.span,
                )
                .with_hint(def.signature()),
            );
            return None;
        };
        // The character at `offset` of the literal, as a span of the whole text.
        let inner = |offset: usize| match s.text.get(offset..).and_then(|rest| rest.chars().next()) {
            Some(c) => Span::new(s.content.start + offset, s.content.start + offset + c.len_utf8()),
            None => s.content,
        };
        let text = s.text.as_str();
        let problem: Option<(String, Span)> = match def.func {
            Func::ToCard => parse_card(text.trim()).err().map(|e| {
                let lead = text.len() - text.trim_start().len();
                (format!("toCard needs one card such as 'As': {}", e.message), inner(lead + e.offset))
            }),
            Func::ToRank => {
                let t = text.trim();
                let mut chars = t.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) if parse_rank(c).is_some() => None,
                    _ => {
                        Some((format!("toRank needs one rank (A K Q J T 9 8 7 6 5 4 3 2), found '{text}'"), s.content))
                    }
                }
            }
            Func::RateHiHand | Func::RateLoHand => match parse_cards(text) {
                Err(e) => Some((format!("{} needs 5 distinct cards: {}", def.name, e.message), inner(e.offset))),
                Ok(cards) if cards.len() != 5 => {
                    Some((format!("{} needs 5 distinct cards, found {} in '{text}'", def.name, cards.len()), s.content))
                }
                Ok(cards) => {
                    let deck = self.game.deck();
                    cards
                        .iter()
                        .find(|c| !deck.cards().contains(*c))
                        .map(|c| (format!("{c} is not in the deck of {}", self.game.name()), s.content))
                }
            },
            Func::HandRankingFor => {
                let t = text.trim();
                if t.eq_ignore_ascii_case("full") || t.eq_ignore_ascii_case("6max") {
                    None
                } else {
                    let suggestion =
                        did_you_mean(t, ["full", "6max"]).map_or(String::new(), |m| format!(" — did you mean '{m}'?"));
                    Some((
                        format!("handRankingFor needs the ordering 'full' or '6max', found '{text}'{suggestion}"),
                        s.content,
                    ))
                }
            }
            _ => None,
        };
        if let Some((message, span)) = problem {
            self.type_error(message, span);
            return None;
        }
        Some(TExpr {
            kind: TExprKind::Str(TextLit { text: s.text.clone(), span: s.content }),
            ty: Type::String,
            span: arg.span,
        })
    }
}

/// "a player", "an equity", ... for messages.
fn article(t: Type) -> String {
    let name = match t {
        Type::Numeric => "number",
        other => other.name(),
    };
    if name.starts_with(['a', 'e', 'i', 'o', 'u']) {
        format!("an {name}")
    } else {
        format!("a {name}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_widen_and_unify() {
        assert_eq!(unify(Type::Integer, Type::CardCount), Some(Type::Integer));
        assert_eq!(unify(Type::Integer, Type::Equity), Some(Type::Double));
        assert_eq!(unify(Type::Fraction, Type::Fraction), Some(Type::Fraction));
        assert_eq!(unify(Type::HandType, Type::HandType), Some(Type::HandType));
        assert_eq!(unify(Type::HandType, Type::Integer), None);
        assert!(accepts(Type::Numeric, Type::Fraction));
        assert!(accepts(Type::Double, Type::Integer));
        assert!(accepts(Type::Integer, Type::CardCount));
        assert!(!accepts(Type::Integer, Type::Double));
        assert!(!accepts(Type::Rank, Type::Card));
    }

    #[test]
    fn ordered_types_follow_the_spec() {
        for t in
            [Type::Integer, Type::Equity, Type::Fraction, Type::Rank, Type::HandType, Type::HiRating, Type::LoRating]
        {
            assert!(is_ordered(t), "{t}");
        }
        for t in [Type::Boolean, Type::Card, Type::String, Type::Street, Type::Player, Type::RankSet] {
            assert!(!is_ordered(t), "{t}");
        }
    }

    #[test]
    fn articles_read_naturally() {
        assert_eq!(article(Type::Equity), "an equity");
        assert_eq!(article(Type::Player), "a player");
        assert_eq!(article(Type::Numeric), "a number");
    }
}
