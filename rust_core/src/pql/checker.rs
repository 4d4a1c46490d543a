//! The type checker: `ast::Statement` -> `typed::CheckedStatement`. It resolves the game,
//! syntax, players, streets, hand types and functions, checks every type rule of docs/language/statements.md and the function reference,
//! and validates the literals it can without the range module. An expression that fails yields
//! `None` and its parents stay silent, so one mistake gives one error.

use super::ast::{self, Expr, ExprKind, FromItem, StrLit};
use super::typed::{BinOp, CheckedSelector, CheckedStatement, PlayerDecl, SelectorName, TExpr, TExprKind, TextLit};
use super::vocab::{KEYWORDS, RESERVED_KEYS, SELECTORS};
use crate::cards::{parse_card, parse_cards, parse_rank, Card, RANK_CHARS};
use crate::error::{did_you_mean, excerpt, PqlError, SourceMap, Span, MAX_ERRORS};
use crate::eval::{FlopHandCategory, HandType};
use crate::functions::types::Type;
use crate::functions::{catalog, lookup, Func, FunctionDef};
use crate::games::{Game, Street, MAX_PLAYERS};
use crate::range::{Ordering, Syntax};
use std::collections::{HashMap, HashSet};

/// Checks one parsed statement against the whole program text `source` (`map` is its lines).
/// `earlier_errors` counts the errors the program already has: past `MAX_ERRORS` this
/// statement's errors will not be shown, so no suggestions are searched for them.
pub fn check_statement(
    source: &str,
    map: &SourceMap,
    stmt: &ast::Statement,
    earlier_errors: usize,
) -> Result<CheckedStatement, Vec<PqlError>> {
    let mut checker = Checker {
        map,
        earlier_errors,
        game: Game::Holdem,
        game_known: true,
        players: Vec::new(),
        seats: HashMap::new(),
        errors: Vec::new(),
        quiet_names: stmt.has_syntax_errors,
    };
    if let Some(actions) = &stmt.actions {
        return check_simulate(source, stmt, actions, checker);
    }
    let (syntax, ordering, board, dead) = checker.resolve_from(&stmt.from);
    let selectors = checker.selectors(source, &stmt.selectors);
    // A where clause the parser could not read whole is not typed: its errors would be guesses.
    let where_clause = stmt.where_clause.as_ref().filter(|_| !stmt.where_damaged).and_then(|w| {
        let e = checker.expr(w)?;
        if e.ty == Type::Boolean {
            Some(e)
        } else {
            let err =
                PqlError::type_error(format!("the where clause needs a boolean expression, found {}", e.ty), e.span);
            checker.errors.push(with_boolean_hint(err, &e));
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
        ordering,
        players: checker.players,
        board,
        dead,
        selectors,
        where_clause,
        simulate: None,
    })
}

/// A `simulate` statement: players, game, board and dead cards as in a select statement, the
/// betting settings by `simulate::check`.
fn check_simulate(
    source: &str,
    stmt: &ast::Statement,
    actions: &[ast::Ident],
    mut checker: Checker,
) -> Result<CheckedStatement, Vec<PqlError>> {
    let (settings, rest): (Vec<&FromItem>, Vec<&FromItem>) =
        stmt.from.iter().partition(|i| super::simulate::is_setting(i));
    let rest: Vec<FromItem> = rest.into_iter().cloned().collect();
    let (syntax, ordering, board, dead) = checker.resolve_from(&rest);
    let game_span =
        rest.iter().find(|i| i.key.name.eq_ignore_ascii_case("game")).and_then(|i| i.value.as_ref()).map(|v| v.content);
    let game = if checker.game_known { checker.game } else { Game::Holdem };
    let spec = super::simulate::check(stmt.span, actions, &settings, &checker.players, (game, game_span));
    let mut errors = checker.errors;
    let spec = match spec {
        Ok(s) => Some(s),
        Err(e) => {
            errors.extend(e);
            None
        }
    };
    if stmt.has_syntax_errors && errors.is_empty() {
        // Reported by the parser; nothing to run.
        return Err(errors);
    }
    match spec {
        Some(spec) if errors.is_empty() => Ok(CheckedStatement {
            span: stmt.span,
            text: source.get(stmt.span.start..stmt.span.end).unwrap_or("").to_string(),
            game: checker.game,
            syntax,
            ordering,
            players: checker.players,
            board,
            dead,
            selectors: Vec::new(),
            where_clause: None,
            simulate: Some(spec),
        }),
        _ => Err(errors),
    }
}

/// The name of a selector written without `as`: its text as written (`avg(riverEquity(hero))`,
/// `equity(hero)`), each run of white space made one space; when an earlier selector has that
/// name already, its position follows (`avg(x) #2`), so that names stay unique.
fn unnamed_selector_name(source: &str, sel: &ast::Selector, index: usize, earlier: &[CheckedSelector]) -> String {
    let text = source.get(sel.span.start..sel.span.end).unwrap_or("");
    let name = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if earlier.iter().any(|o| o.name.eq_ignore_ascii_case(&name)) {
        format!("{name} #{}", index + 1)
    } else {
        name
    }
}

/// The selector a bare expression stands for: `avg` of a number, `count` of a condition,
/// `histogram` of anything else.
pub fn bare_selector(ty: Type) -> SelectorName {
    if ty.is_numeric() {
        SelectorName::Avg
    } else if ty == Type::Boolean {
        SelectorName::Count
    } else {
        SelectorName::Histogram
    }
}

/// Integer-valued types: they mix freely and keep integer arithmetic.
pub fn is_integer_like(t: Type) -> bool {
    matches!(t, Type::Integer | Type::CardCount | Type::PlayerCount)
}

/// Types `<`, `<=`, `>`, `>=` accept (docs/language/statements.md).
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
    map: &'a SourceMap<'a>,
    earlier_errors: usize,
    /// After a syntax error the from clause may be incomplete, so an unknown name is more likely
    /// a consequence than a mistake of its own: stay silent about it.
    quiet_names: bool,
    game: Game,
    /// False when the from clause names a game that could not be resolved (`game='studd'`,
    /// `gaem='omaha8'`): `game` is then only the default, so checks that depend on the game
    /// (streets, lo and stud functions, the deck) are skipped rather than reported against it.
    game_known: bool,
    players: Vec<PlayerDecl>,
    /// Seat of every player by lower-case name.
    seats: HashMap<String, usize>,
    errors: Vec<PqlError>,
}

/// At most this many names are listed in a hint.
const HINT_NAMES: usize = 12;

/// `a, b, c` or `a, b, c, … (40 in all)` for a hint.
fn list_names<'a>(names: impl ExactSizeIterator<Item = &'a str>) -> String {
    let total = names.len();
    let mut shown: Vec<String> = names.take(HINT_NAMES).map(|n| excerpt(n).into_owned()).collect();
    if total > HINT_NAMES {
        shown.push(format!("… ({total} in all)"));
    }
    shown.join(", ")
}

/// Adds to an error about a non-boolean value the likely cause when it is `a || b` of two
/// booleans: `||` joins strings in PQL, `or` is the word for either condition.
fn with_boolean_hint(err: PqlError, e: &TExpr) -> PqlError {
    match &e.kind {
        TExprKind::Binary { op: BinOp::Concat, lhs, rhs } if lhs.ty == Type::Boolean || rhs.ty == Type::Boolean => {
            err.with_hint("'||' joins strings; to test either condition write 'or', e.g. winsHi(hero) or tiesHi(hero)")
        }
        _ => err,
    }
}

impl Checker<'_> {
    /// Did-you-mean over `candidates`, for errors that can still be shown: past `MAX_ERRORS`
    /// errors a text of garbage should cost no more than reading it.
    fn suggest<'c>(&self, word: &str, candidates: impl IntoIterator<Item = &'c str>) -> Option<&'c str> {
        if self.earlier_errors + self.errors.len() >= MAX_ERRORS {
            return None;
        }
        did_you_mean(word, candidates)
    }

    fn type_error(&mut self, message: impl Into<String>, span: Span) {
        self.errors.push(PqlError::type_error(message, span));
    }

    // ---- the from clause -----------------------------------------------------------------

    fn resolve_from(&mut self, items: &[FromItem]) -> (Syntax, Ordering, Option<TextLit>, Option<TextLit>) {
        // Lower-case key -> the key as first written.
        let mut seen: HashMap<String, &ast::Ident> = HashMap::new();
        let mut syntax = Syntax::Classic;
        let mut ordering = Ordering::default();
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
            if let Some(first) = seen.get(&key) {
                let (line, col) = self.map.line_col(first.span.start);
                self.errors.push(
                    PqlError::type_error(
                        format!("duplicate key '{}' in the from clause", excerpt(&item.key.name)),
                        item.key.span,
                    )
                    .with_hint(format!("'{}' is already given at line {line}, col {col}", excerpt(&first.name))),
                );
                continue;
            }
            seen.insert(key.clone(), &item.key);
            match key.as_str() {
                "game" => match &item.value {
                    Some(v) => {
                        if let Some(g) = Game::from_name(v.text.trim()) {
                            self.game = g;
                        } else {
                            self.game_known = false;
                            self.unknown_value("game", "games", v, &Game::all_names().collect::<Vec<_>>());
                        }
                    }
                    // Unquoted or missing (reported by the parser).
                    None => self.game_known = false,
                },
                "syntax" => {
                    if let Some(v) = &item.value {
                        match Syntax::from_name(v.text.trim()) {
                            Some(s) => syntax = s,
                            None => self.unknown_value("syntax", "syntaxes", v, &Syntax::ALL.map(Syntax::name)),
                        }
                    }
                }
                "ordering" => {
                    if let Some(v) = &item.value {
                        match Ordering::from_name(v.text.trim()) {
                            Some(o) => ordering = o,
                            None => self.unknown_value("ordering", "orderings", v, &Ordering::ALL.map(Ordering::name)),
                        }
                    }
                }
                "board" => board = Some(text_of(item)),
                "dead" => dead = Some(text_of(item)),
                _ => {}
            }
        }
        let mut declared: HashSet<String> = HashSet::new();
        for item in items {
            let key = item.key.name.to_ascii_lowercase();
            // A repeated key was reported above.
            if RESERVED_KEYS.contains(&key.as_str()) || !declared.insert(key.clone()) {
                continue;
            }
            if declared.len() == MAX_PLAYERS + 1 {
                self.type_error(
                    format!(
                        "too many players: at most {MAX_PLAYERS} can be seated, and '{}' is the {}th",
                        item.key.name,
                        MAX_PLAYERS + 1
                    ),
                    item.key.span,
                );
                // The players after it are not looked at: there may be a million of them.
                break;
            }
            if self.player_name_is_valid(item) {
                self.seats.insert(key, self.players.len());
                self.players.push(PlayerDecl {
                    name: item.key.name.clone(),
                    key_span: item.key.span,
                    range: text_of(item),
                });
            }
        }
        (syntax, ordering, board, dead)
    }

    fn unknown_value(&mut self, key: &str, plural: &str, v: &StrLit, names: &[&str]) {
        let written = excerpt(&v.text);
        let message = match self.suggest(v.text.trim(), names.iter().copied()) {
            Some(m) => format!("unknown {key} '{written}' — did you mean '{m}'?"),
            None => format!("unknown {key} '{written}'"),
        };
        self.errors.push(PqlError::type_error(message, v.content).with_hint(format!("{plural}: {}", names.join(", "))));
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
        let reserved = self.suggest(name, RESERVED_KEYS.iter().copied());
        if reserved == Some("game") {
            // `gaem='...'` meant the game, whatever its value: do not check against hold'em.
            self.game_known = false;
        }
        if let (Some(reserved), Some(v)) = (reserved, &item.value) {
            let value = v.text.trim();
            let fits = match reserved {
                "game" => Game::from_name(value).is_some(),
                "syntax" => Syntax::from_name(value).is_some(),
                "ordering" => Ordering::from_name(value).is_some(),
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

    fn selectors(&mut self, source: &str, selectors: &[ast::Selector]) -> Vec<CheckedSelector> {
        let mut out: Vec<CheckedSelector> = Vec::new();
        for (i, sel) in selectors.iter().enumerate() {
            // A missing or unknown selector was reported by the parser, and so was whatever made
            // a selector damaged: typing the parser's guess would only add errors of its own.
            if (sel.kind.is_none() && !sel.bare) || sel.damaged {
                continue;
            }
            let name = match &sel.alias {
                Some(alias) => alias.name.clone(),
                None => unnamed_selector_name(source, sel, i, &out),
            };
            if let Some(alias) = &sel.alias {
                if out.iter().any(|o| o.name.eq_ignore_ascii_case(&name)) {
                    self.type_error(format!("duplicate selector name '{}'", excerpt(&name)), alias.span);
                }
            }
            let Some(expr) = self.expr(&sel.expr) else { continue };
            let kind = sel.kind.unwrap_or_else(|| bare_selector(expr.ty));
            let word = SELECTORS[kind as usize];
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
                let err =
                    PqlError::type_error(format!("{word} needs {needs} expression, found {}", expr.ty), expr.span)
                        .with_hint(hint);
                self.errors.push(with_boolean_hint(err, &expr));
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
                    let err = PqlError::type_error(format!("'not' needs a boolean operand, found {}", x.ty), x.span);
                    self.errors.push(with_boolean_hint(err, &x));
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
                        let err = PqlError::type_error(
                            format!("'{symbol}' needs boolean operands, found {}", side.ty),
                            side.span,
                        );
                        self.errors.push(with_boolean_hint(err, side));
                        return None;
                    }
                }
                Some(Type::Boolean)
            }
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                if unify(l.ty, r.ty).is_none() {
                    let mut err =
                        PqlError::type_error(format!("cannot compare {} with {}", l.ty, r.ty), l.span.to(r.span));
                    if let Some(hint) = comparison_hint(l, r) {
                        err = err.with_hint(hint);
                    }
                    self.errors.push(err);
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
                    let err = PqlError::type_error(
                        format!("the condition of 'when' must be boolean, found {}", c.ty),
                        c.span,
                    );
                    self.errors.push(with_boolean_hint(err, c));
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
        if let Some(&seat) = self.seats.get(&word.to_ascii_lowercase()) {
            return typed(TExprKind::Player(seat), Type::Player);
        }
        if let Some(street) = Street::from_name(word) {
            if self.game_known && !self.game.has_street(street) {
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
        let shown = excerpt(word);
        let message = match self.suggest(word, candidates) {
            Some(m) => format!("unknown player or keyword '{shown}' — did you mean '{m}'?"),
            None => format!("unknown player or keyword '{shown}'"),
        };
        let hint = if self.players.is_empty() {
            "no player is declared: add one to the from clause, e.g. hero='AA'".to_string()
        } else {
            format!("players: {}", list_names(self.players.iter().map(|p| p.name.as_str())))
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
                let shown = excerpt(word);
                match self.suggest(word, catalog().iter().map(|f| f.name)) {
                    Some(m) => self.type_error(format!("unknown function '{shown}' — did you mean '{m}'?"), name.span),
                    None => self.errors.push(
                        PqlError::type_error(format!("unknown function '{shown}'"), name.span)
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
        if def.func == Func::MaxHiRating && args.len() == 1 {
            if let ExprKind::Name(word) = &args[0].kind {
                if Street::from_name(&word.name).is_some() && !self.seats.contains_key(&word.name.to_ascii_lowercase())
                {
                    return self.best_hi_rating_of_all(def, name, &args[0], span);
                }
            }
        }
        let checked: Vec<Option<TExpr>> = args
            .iter()
            .zip(def.params.iter().map(Some).chain(std::iter::repeat(None)))
            .map(|(a, p)| match p {
                Some(p) if needs_literal(def.func, p.ty) => self.literal_arg(def, p.name, a),
                _ => self.expr(a),
            })
            .collect();
        if self.game_known && !def.applies.allows(self.game) {
            self.type_error(
                format!("{} does not apply to {}: it is for {}", def.name, self.game.name(), def.applies.describe()),
                name.span,
            );
            return None;
        }
        // A street left out (`equity(hero)`): the game's last street, where the catalogue says so.
        let street_left_out = def.street_has_default() && args.len() + 1 == def.params.len();
        if args.len() != def.params.len() && !street_left_out {
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
            if let Some((message, hint)) = literal_out_of_bounds(def, i, &arg) {
                self.errors.push(PqlError::type_error(message, arg.span).with_hint(hint));
                failed = true;
                continue;
            }
            typed_args.push(arg);
        }
        if failed {
            return None;
        }
        if street_left_out {
            let at = Span::new(span.end.saturating_sub(1), span.end.saturating_sub(1));
            typed_args.push(TExpr { kind: TExprKind::Street(self.game.last_street()), ty: Type::Street, span: at });
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

    /// openpql's `maxHiRating(street)`: the best hi rating among the players as of street, read
    /// as the rating of the first player whose hi is best (`bestHiRating`, ties included).
    fn best_hi_rating_of_all(&mut self, def: &FunctionDef, name: &ast::Ident, arg: &Expr, span: Span) -> Option<TExpr> {
        let street = self.expr(arg)?;
        if self.game_known && !def.applies.allows(self.game) {
            self.type_error(
                format!("{} does not apply to {}: it is for {}", def.name, self.game.name(), def.applies.describe()),
                name.span,
            );
            return None;
        }
        if self.players.is_empty() {
            self.type_error(format!("{}(street) needs a player in the from clause", def.name), span);
            return None;
        }
        let call = |func, seat| TExpr {
            kind: TExprKind::Call {
                func,
                args: vec![TExpr { kind: TExprKind::Player(seat), ty: Type::Player, span: arg.span }, street.clone()],
            },
            ty: crate::functions::canonical(func).returns,
            span,
        };
        let arms = (0..self.players.len()).map(|p| (call(Func::BestHiRating, p), call(Func::HiRating, p))).collect();
        Some(TExpr { kind: TExprKind::Case { arms, otherwise: None }, ty: Type::HiRating, span })
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
        let deck = self.game_known.then(|| self.game.deck().cards());
        let problem: Option<(String, Span)> = match def.func {
            Func::ToCard => match parse_card(text.trim()) {
                Err(e) => {
                    let lead = text.len() - text.trim_start().len();
                    Some((format!("toCard needs one card such as 'As': {}", e.message), inner(lead + e.offset)))
                }
                Ok(card) if deck.is_some_and(|d| !d.contains(card)) => {
                    Some((format!("{card} is not in the deck of {}", self.game.name()), s.content))
                }
                Ok(_) => None,
            },
            Func::ToRank => {
                let t = text.trim();
                let mut chars = t.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) => match parse_rank(c) {
                        Some(r) if deck.is_some_and(|d| !d.contains(Card::new(r, 0))) => Some((
                            format!("rank {} is not in the deck of {}", RANK_CHARS[usize::from(r)], self.game.name()),
                            s.content,
                        )),
                        Some(_) => None,
                        None => Some((
                            format!("toRank needs one rank (A K Q J T 9 8 7 6 5 4 3 2), found '{}'", excerpt(text)),
                            s.content,
                        )),
                    },
                    _ => Some((
                        format!("toRank needs one rank (A K Q J T 9 8 7 6 5 4 3 2), found '{}'", excerpt(text)),
                        s.content,
                    )),
                }
            }
            Func::BoardInRange if text.trim().is_empty() => {
                Some(("boardInRange needs a board pattern, found an empty string".to_string(), s.span))
            }
            Func::RateHiHand | Func::RateLoHand => match parse_cards(text) {
                Err(e) => Some((format!("{} needs 5 distinct cards: {}", def.name, e.message), inner(e.offset))),
                Ok(cards) if cards.len() != 5 => Some((
                    format!("{} needs 5 distinct cards, found {} in '{}'", def.name, cards.len(), excerpt(text)),
                    s.content,
                )),
                Ok(cards) => deck.and_then(|d| {
                    cards
                        .iter()
                        .find(|c| !d.contains(*c))
                        .map(|c| (format!("{c} is not in the deck of {}", self.game.name()), s.content))
                }),
            },
            Func::HandRankingFor => {
                let t = text.trim();
                if t.eq_ignore_ascii_case("full") || t.eq_ignore_ascii_case("6max") {
                    None
                } else {
                    let suggestion =
                        did_you_mean(t, ["full", "6max"]).map_or(String::new(), |m| format!(" — did you mean '{m}'?"));
                    Some((
                        format!(
                            "handRankingFor needs the table 'full' or '6max', found '{}'{suggestion}",
                            excerpt(text)
                        ),
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

/// A literal argument the function can never accept: a rank position outside 1..13, an equity
/// threshold outside 0..1. (message, hint)
fn literal_out_of_bounds(def: &FunctionDef, i: usize, arg: &TExpr) -> Option<(String, String)> {
    let number = match arg.kind {
        TExprKind::Int(v) => Some(v as f64),
        TExprKind::Double(v) => Some(v),
        _ => None,
    };
    match (def.func, i, number) {
        (Func::NthRank, 0, Some(n)) if !(1.0..=13.0).contains(&n) => Some((
            format!("nthRank counts ranks from 1 (the highest) to 13, found {n}"),
            "e.g. nthRank(2, boardRanks(flop)) is the second-highest rank of the flop".to_string(),
        )),
        (Func::MinEquity | Func::MinHvHEquity | Func::MinHvREquity | Func::MinHvPerceivedRangeEquity, _, Some(x))
            if i + 1 == def.params.len() && !(0.0..=1.0).contains(&x) =>
        {
            Some((
                format!("the equity threshold of {} is between 0 and 1, found {x}", def.name),
                "an equity is a share of the pot: 0.5 is half".to_string(),
            ))
        }
        _ => None,
    }
}

/// How to compare a value with what a quoted string was meant to be (`riverCard() = 'As'`).
fn comparison_hint(l: &TExpr, r: &TExpr) -> Option<String> {
    let (text, other) = match (&l.kind, &r.kind) {
        (_, TExprKind::Str(s)) => (s.text.trim(), l.ty),
        (TExprKind::Str(s), _) => (s.text.trim(), r.ty),
        _ => return None,
    };
    let text = excerpt(text);
    Some(match other {
        Type::Card => format!("a string is not a card: write toCard('{text}')"),
        Type::Rank => format!("a string is not a rank: write toRank('{text}')"),
        Type::HandType if HandType::from_name(&text).is_some() => {
            format!("hand types are written without quotes: {}", text.to_ascii_lowercase())
        }
        Type::HandType => "hand types are written without quotes, e.g. pair or flush".to_string(),
        Type::FlopHandCategory if FlopHandCategory::from_name(&text).is_some() => {
            format!("flop categories are written without quotes: {}", text.to_ascii_lowercase())
        }
        Type::FlopHandCategory => "flop categories are written without quotes, e.g. floptoppair".to_string(),
        Type::Street => "streets are written without quotes, e.g. flop".to_string(),
        Type::Player => format!("to test a player's hand write inRange(player, '{text}')"),
        _ => return None,
    })
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
