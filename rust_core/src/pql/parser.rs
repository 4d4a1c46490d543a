//! Recursive-descent parser: tokens -> `ast::Statement`s. It recovers at `,`, `)`, `;` and
//! clause keywords so one statement can report several errors, and every loop consumes a token
//! or stops, so it always terminates. After a syntax error, further errors are suppressed until
//! the next recovery point, which keeps one mistake from producing a cascade.
//!
//! ```text
//! program    = [statement] {';' [statement]}
//! statement  = select | simulate
//! select     = 'select' selector {',' selector} [','] 'from' entry {',' entry} [','] ['where' expr]
//! simulate   = 'simulate' name {',' name} 'from' sim_entry {',' sim_entry} [',']
//! sim_entry  = name ['.' name] '=' (string | ['-'] number)
//! selector   = (('avg' | 'count' | 'histogram' | 'max' | 'min') '(' expr ')' | expr) ['as' name]
//! entry      = key '=' string
//! expr       = and {'or' and}
//! and        = not {'and' not}
//! not        = 'not' not | comparison
//! comparison = concat [('=' | '<>' | '!=' | '<' | '<=' | '>' | '>=') concat]
//! concat     = sum {'||' sum}
//! sum        = product {('+' | '-') product}
//! product    = unary {('*' | '/') unary}
//! unary      = '-' unary | primary
//! primary    = number | string | 'true' | 'false' | name | name '(' [expr {',' expr}] ')'
//!            | '(' expr ')' | 'case' [expr] 'when' expr 'then' expr {'when' expr 'then' expr} ['else' expr] 'end'
//! ```

use super::ast::{Expr, ExprKind, FromItem, Ident, NumLit, Selector, Statement, StrLit};
use super::lexer::{tokenize, Keyword, Token, TokenKind};
use super::typed::{BinOp, SelectorName};
use super::vocab::SELECTORS;
use crate::error::{did_you_mean, excerpt, PqlError, SourceMap, Span};

use crate::limits::{
    grouped, MAX_CASE_ARMS, MAX_SELECTORS, QUERY_MAX_DEPTH as MAX_DEPTH, QUERY_MAX_TREE_DEPTH as MAX_TREE_DEPTH,
};

/// Parses every `;`-separated statement (empty ones are skipped). Errors are lexical and
/// syntax errors in source order; statements with errors are still returned (flagged).
pub fn parse_program(source: &str) -> (Vec<Statement>, Vec<PqlError>) {
    parse_program_at(source, (1, 1))
}

/// As `parse_program`, for a text whose first character is at `origin` (line, column) of a
/// larger text: positions named in messages are those of the larger text.
pub fn parse_program_at(source: &str, origin: (usize, usize)) -> (Vec<Statement>, Vec<PqlError>) {
    let (tokens, lex_errors) = tokenize(source);
    let after_lex_error = mark_lex_errors(&tokens, &lex_errors);
    let mut parser = Parser {
        src: source,
        origin,
        map: None,
        tokens,
        after_lex_error,
        pos: 0,
        errors: Vec::new(),
        panicking: false,
        statement_errors: false,
        damage: 0,
        nesting: 0,
        simulating: false,
    };
    let mut statements = parser.program();
    // Both are in source order: one pass flags the statements that hold a lexical error.
    let mut next = 0;
    for e in &lex_errors {
        let at = e.span.map_or(0, |s| s.start);
        while next < statements.len() && statements[next].span.end < at {
            next += 1;
        }
        if let Some(s) = statements.get_mut(next).filter(|s| s.span.start <= at) {
            s.has_syntax_errors = true;
        }
    }
    let mut errors = lex_errors;
    errors.extend(parser.errors);
    errors.sort_by_key(|e| e.span.map_or(0, |s| s.start));
    (statements, errors)
}

/// For every token, whether a lexical error lies between the end of the token before it and its
/// own end: the lexer has reported the problem there, so the parser stays silent about it.
fn mark_lex_errors(tokens: &[Token], lex_errors: &[PqlError]) -> Vec<bool> {
    let mut marks = vec![false; tokens.len()];
    for e in lex_errors {
        let at = e.span.map_or(0, |s| s.start);
        // The first token that ends after the error starts (the end-of-text token at the latest).
        let i = tokens.partition_point(|t| t.span.end <= at).min(tokens.len() - 1);
        marks[i] = true;
    }
    marks
}

/// One node plus the depth of its tree, so over-deep trees are caught while building them.
struct Node {
    expr: Expr,
    depth: u32,
}

struct Parser<'a> {
    src: &'a str,
    /// Where `src` starts in the text the user sees.
    origin: (usize, usize),
    /// Lines of `src`, built the first time a message names a position.
    map: Option<SourceMap<'a>>,
    tokens: Vec<Token>,
    /// Per token: a lexical error comes right before it or inside it (see `mark_lex_errors`).
    after_lex_error: Vec<bool>,
    pos: usize,
    errors: Vec<PqlError>,
    /// Set by an error; cleared at the next recovery point.
    panicking: bool,
    statement_errors: bool,
    /// Counts syntax errors, reported or not, and lexical errors passed over: a construct whose
    /// parse raised it is damaged (see `Selector::damaged`).
    damage: u32,
    /// Current recursion depth of the expression parser.
    nesting: u32,
    /// Inside a simulate statement: from values may be numbers, keys may be dotted.
    simulating: bool,
}

fn binop_of(kind: &TokenKind) -> Option<BinOp> {
    Some(match kind {
        TokenKind::Eq => BinOp::Eq,
        TokenKind::Ne => BinOp::Ne,
        TokenKind::Lt => BinOp::Lt,
        TokenKind::Le => BinOp::Le,
        TokenKind::Gt => BinOp::Gt,
        TokenKind::Ge => BinOp::Ge,
        _ => return None,
    })
}

fn selector_of(word: &str) -> Option<SelectorName> {
    let i = SELECTORS.iter().position(|s| s.eq_ignore_ascii_case(word))?;
    Some([SelectorName::Avg, SelectorName::Count, SelectorName::Histogram, SelectorName::Max, SelectorName::Min][i])
}

impl Parser<'_> {
    // ---- token access -------------------------------------------------------------------

    fn peek(&self) -> &Token {
        &self.tokens[self.pos.min(self.tokens.len() - 1)]
    }

    fn peek_at(&self, ahead: usize) -> &Token {
        &self.tokens[(self.pos + ahead).min(self.tokens.len() - 1)]
    }

    fn at(&self, kind: &TokenKind) -> bool {
        &self.peek().kind == kind
    }

    fn at_keyword(&self, k: Keyword) -> bool {
        self.peek().kind == TokenKind::Keyword(k)
    }

    fn at_end_of_statement(&self) -> bool {
        matches!(self.peek().kind, TokenKind::Semicolon | TokenKind::Eof)
    }

    fn bump(&mut self) -> Token {
        let t = self.peek().clone();
        if self.after_lex_error.get(self.pos).copied().unwrap_or(false) {
            self.damage += 1;
        }
        if t.kind != TokenKind::Eof {
            self.pos += 1;
        }
        t
    }

    fn eat(&mut self, kind: &TokenKind) -> Option<Token> {
        if self.at(kind) {
            Some(self.bump())
        } else {
            None
        }
    }

    fn eat_keyword(&mut self, k: Keyword) -> bool {
        self.eat(&TokenKind::Keyword(k)).is_some()
    }

    fn text(&self, span: Span) -> &str {
        self.src.get(span.start..span.end).unwrap_or("")
    }

    fn found(&self) -> String {
        self.peek().describe(self.src)
    }

    /// The end of the last consumed token.
    fn last_end(&self) -> usize {
        if self.pos == 0 {
            0
        } else {
            self.tokens[self.pos - 1].span.end
        }
    }

    /// An identifier that looks like a misspelt `k` (`form` for `from`).
    /// Close in spelling and starting with the same letter or made of the same letters, so
    /// names such as `hero` are not taken for `then`.
    fn at_misspelt(&self, k: Keyword) -> bool {
        if self.peek().kind != TokenKind::Ident {
            return false;
        }
        let word = self.text(self.peek().span).to_ascii_lowercase();
        let sorted = |w: &str| {
            let mut b = w.as_bytes().to_vec();
            b.sort_unstable();
            b
        };
        did_you_mean(&word, [k.name()]).is_some()
            && (word.as_bytes().first() == k.name().as_bytes().first() || sorted(&word) == sorted(k.name()))
    }

    // ---- errors and recovery -------------------------------------------------------------

    fn error(&mut self, message: impl Into<String>, span: Span) {
        self.report(PqlError::syntax(message, span));
    }

    fn error_with_hint(&mut self, message: impl Into<String>, span: Span, hint: impl Into<String>) {
        self.report(PqlError::syntax(message, span).with_hint(hint));
    }

    /// Records a syntax error unless one is being recovered from, or the lexer already reported
    /// a bad character at that token (`1 % 1` is one error, not also "expected ')'").
    fn report(&mut self, error: PqlError) {
        self.statement_errors = true;
        self.damage += 1;
        if !self.panicking && !self.at_lex_error(error.span.unwrap_or_default()) {
            self.errors.push(error);
        }
        self.panicking = true;
    }

    /// Whether `span` starts at a token the lexer flagged (see `mark_lex_errors`).
    fn at_lex_error(&self, span: Span) -> bool {
        let i = self.tokens.partition_point(|t| t.span.start < span.start);
        self.tokens.get(i).is_some_and(|t| t.span.start == span.start) && self.after_lex_error[i]
    }

    /// 1-based line and column of byte `offset`, for messages that point elsewhere.
    fn line_col(&mut self, offset: usize) -> (usize, usize) {
        let (src, origin) = (self.src, self.origin);
        self.map.get_or_insert_with(|| SourceMap::with_origin(src, origin)).line_col(offset)
    }

    fn recovered(&mut self) {
        self.panicking = false;
    }

    /// Skips tokens up to (not past) a `,` outside parentheses, a clause keyword, `;` or the end.
    fn skip_to_recovery_point(&mut self, stop_at_comma: bool) {
        let mut depth = 0u32;
        loop {
            match self.peek().kind {
                TokenKind::Semicolon
                | TokenKind::Eof
                | TokenKind::Keyword(Keyword::From | Keyword::Where | Keyword::Select) => return,
                TokenKind::Comma if depth == 0 && stop_at_comma => return,
                TokenKind::LParen => depth += 1,
                TokenKind::RParen => depth = depth.saturating_sub(1),
                _ => {}
            }
            self.bump();
        }
    }

    // ---- statements ----------------------------------------------------------------------

    fn program(&mut self) -> Vec<Statement> {
        let mut statements = Vec::new();
        loop {
            while self.eat(&TokenKind::Semicolon).is_some() {}
            if self.at(&TokenKind::Eof) {
                return statements;
            }
            let before = self.pos;
            let statement = self.statement();
            let trailing = !self.at_end_of_statement();
            if trailing {
                let found = self.found();
                self.error(format!("expected ';' or the end of the query, found {found}"), self.peek().span);
                while !self.at_end_of_statement() {
                    self.bump();
                }
            }
            if let Some(mut s) = statement {
                // What follows the statement may belong to it (`where a nto b`): what was read
                // last is not to be trusted, and the statement's names may be incomplete.
                if trailing {
                    s.has_syntax_errors = true;
                    s.where_damaged |= s.where_clause.is_some();
                }
                statements.push(s);
            }
            if self.pos == before {
                self.bump();
            }
        }
    }

    fn statement(&mut self) -> Option<Statement> {
        self.panicking = false;
        self.statement_errors = false;
        let start = self.peek().span.start;
        self.simulating = false;
        if self.eat_keyword(Keyword::Simulate) {
            return Some(self.simulate(start));
        }
        if !self.eat_keyword(Keyword::Select) {
            let t = self.peek().clone();
            let word = self.text(t.span).to_string();
            if self.eat_misspelt(Keyword::Select) {
                // Reported; read on as if `select` had been written.
            } else if t.kind == TokenKind::Ident && selector_of(&word).is_some() {
                self.error(format!("expected 'select' at the start of a statement, found {}", self.found()), t.span);
            } else {
                let found = self.found();
                self.error(
                    format!("expected 'select' or 'simulate' at the start of a statement, found {found}"),
                    t.span,
                );
                while !self.at_end_of_statement() {
                    self.bump();
                }
                return None;
            }
        }
        let selectors = self.select_list();
        let mut from = Vec::new();
        if self.eat_keyword(Keyword::From) || self.eat_misspelt(Keyword::From) {
            from = self.parse_from_list();
        } else {
            let found = self.found();
            self.error_with_hint(
                format!("expected 'from' after the select list, found {found}"),
                self.peek().span,
                "every statement needs a from clause, e.g. from game='holdem', hero='AA'",
            );
        }
        let mut where_clause = None;
        let mut where_damaged = false;
        if self.eat_keyword(Keyword::Where) || self.eat_misspelt(Keyword::Where) {
            self.recovered();
            let damage = self.damage;
            where_clause = Some(self.expr());
            where_damaged = self.damage > damage;
        }
        Some(Statement {
            span: Span::new(start, self.last_end().max(start)),
            selectors,
            actions: None,
            from,
            where_clause,
            has_syntax_errors: self.statement_errors,
            where_damaged,
        })
    }

    /// `simulate fold, call, raise from ...` (after `simulate`): the actions are names, checked
    /// by the checker; the from clause may hold numbers.
    fn simulate(&mut self, start: usize) -> Statement {
        self.simulating = true;
        let mut actions = Vec::new();
        loop {
            let t = self.peek().clone();
            if t.kind == TokenKind::Ident {
                self.bump();
                actions.push(Ident { name: self.text(t.span).to_string(), span: t.span });
            } else {
                let found = self.found();
                self.error_with_hint(
                    format!("expected an action (fold, check, call, bet or raise), found {found}"),
                    t.span,
                    "e.g. simulate fold, call, raise from ...",
                );
                self.skip_to_recovery_point(true);
            }
            if self.eat(&TokenKind::Comma).is_none() || self.at_keyword(Keyword::From) {
                break;
            }
        }
        let mut from = Vec::new();
        if self.eat_keyword(Keyword::From) || self.eat_misspelt(Keyword::From) {
            from = self.parse_from_list();
        } else {
            let found = self.found();
            self.error_with_hint(
                format!("expected 'from' after the actions, found {found}"),
                self.peek().span,
                "e.g. simulate call, raise from hero='AhKh', villain='QQ+', board='Kd7c2h', pot=10, tocall=2, bet=2",
            );
        }
        self.simulating = false;
        Statement {
            span: Span::new(start, self.last_end().max(start)),
            selectors: Vec::new(),
            actions: Some(actions),
            from,
            where_clause: None,
            has_syntax_errors: self.statement_errors,
            where_damaged: false,
        }
    }

    fn select_list(&mut self) -> Vec<Selector> {
        let mut selectors = Vec::new();
        loop {
            self.recovered();
            if self.at_keyword(Keyword::From) || self.at_keyword(Keyword::Where) || self.at_end_of_statement() {
                if selectors.is_empty() {
                    let found = self.found();
                    self.error(
                        format!("expected a selector (avg, count, histogram, max or min), found {found}"),
                        self.peek().span,
                    );
                }
                return selectors;
            }
            let before = self.pos;
            if selectors.len() == MAX_SELECTORS {
                // The rest is passed over, not parsed: it could be megabytes of selectors.
                self.error_with_hint(
                    format!("too many selectors: at most {} selectors in one statement", grouped(MAX_SELECTORS as u64)),
                    self.peek().span,
                    "split the statement into several",
                );
                self.skip_to_recovery_point(false);
                return selectors;
            }
            selectors.push(self.selector());
            if self.eat(&TokenKind::Comma).is_some() {
                continue;
            }
            if self.at_keyword(Keyword::From)
                || self.at_keyword(Keyword::Where)
                || self.at_end_of_statement()
                || self.at_misspelt(Keyword::From)
            {
                return selectors;
            }
            let found = self.found();
            self.error(format!("expected ',' or 'from' after the selector, found {found}"), self.peek().span);
            self.skip_to_recovery_point(true);
            if self.eat(&TokenKind::Comma).is_none() && self.pos == before {
                return selectors;
            }
        }
    }

    fn selector(&mut self) -> Selector {
        let damage = self.damage;
        let start = self.peek().span;
        let word = self.text(start).to_string();
        let kind = if self.peek().kind == TokenKind::Ident { selector_of(&word) } else { None };
        let mut bare = false;
        let expr = if kind.is_some() {
            self.bump();
            if self.eat(&TokenKind::LParen).is_some() {
                let e = self.expr();
                if self.eat(&TokenKind::RParen).is_none() {
                    let found = self.found();
                    self.error(format!("expected ')' after the argument of {word}, found {found}"), self.peek().span);
                }
                e
            } else {
                let found = self.found();
                self.error(format!("expected '(' after {word}, found {found}"), self.peek().span);
                self.expr()
            }
        } else {
            let is_call = self.peek().kind == TokenKind::Ident && self.peek_at(1).kind == TokenKind::LParen;
            match did_you_mean(&word, SELECTORS.iter().copied()) {
                Some(s) if is_call && crate::functions::lookup(&word).is_none() => {
                    self.error(format!("unknown selector '{word}' — did you mean '{s}'?"), start);
                }
                // A bare expression: the checker chooses avg, count or histogram by its type.
                _ if self.starts_expression(0) => bare = true,
                _ => {
                    let found = self.found();
                    self.error_with_hint(
                        format!("expected a selector (avg, count, histogram, max or min), found {found}"),
                        start,
                        "write an expression, or wrap it in a selector, e.g. avg(riverEquity(hero))",
                    );
                }
            }
            // Read what follows as an expression (so recovery resumes after it when it is not).
            self.expr()
        };
        let mut alias = None;
        if self.eat_keyword(Keyword::As) {
            let t = self.peek().clone();
            if t.kind == TokenKind::Ident {
                self.bump();
                alias = Some(Ident { name: self.text(t.span).to_string(), span: t.span });
            } else {
                let found = self.found();
                if matches!(t.kind, TokenKind::Keyword(_)) {
                    self.error_with_hint(
                        format!("expected a name after 'as', found {found}"),
                        t.span,
                        "a name cannot be a keyword (select, from, where, and, ...): choose another",
                    );
                } else {
                    self.error(format!("expected a name after 'as', found {found}"), t.span);
                }
                // The word meant as the name is taken, so it does not start another error;
                // `from` and `where` may be a forgotten name followed by the clause.
                if matches!(t.kind, TokenKind::Keyword(k) if !matches!(k, Keyword::From | Keyword::Where))
                    || matches!(t.kind, TokenKind::Str { .. } | TokenKind::Int(_) | TokenKind::Double(_))
                {
                    self.bump();
                }
            }
        }
        Selector {
            kind,
            bare,
            kind_span: start,
            expr,
            alias,
            span: Span::new(start.start, self.last_end().max(start.start)),
            damaged: self.damage > damage,
        }
    }

    /// The from list ends at `where` (or a misspelling of it), `;` or the end.
    fn at_from_list_end(&self) -> bool {
        // `where='AA'` is a key (rejected by the checker like any keyword), not the clause.
        let key_follows = self.peek_at(1).kind == TokenKind::Eq;
        (self.at_keyword(Keyword::Where) && !key_follows)
            || self.at_end_of_statement()
            || (self.at_misspelt(Keyword::Where) && !key_follows)
    }

    /// `key =` (a keyword used as a key is accepted here and rejected by the checker).
    fn at_parse_from_entry(&self) -> bool {
        matches!(self.peek().kind, TokenKind::Ident | TokenKind::Keyword(_))
            && (self.peek_at(1).kind == TokenKind::Eq || self.simulating && self.peek_at(1).kind == TokenKind::Dot)
    }

    fn parse_from_list(&mut self) -> Vec<FromItem> {
        let mut items: Vec<FromItem> = Vec::new();
        loop {
            self.recovered();
            if self.at_from_list_end() {
                if items.is_empty() {
                    let found = self.found();
                    self.error_with_hint(
                        format!("expected key='value' after 'from', found {found}"),
                        self.peek().span,
                        "e.g. from game='holdem', hero='AsKs', villain='QQ+'",
                    );
                }
                return items;
            }
            if let Some(item) = self.parse_from_entry() {
                items.push(item);
            }
            if self.eat(&TokenKind::Comma).is_some() {
                continue;
            }
            if self.at_from_list_end() {
                return items;
            }
            let found = self.found();
            let after =
                items.last().map_or_else(|| "the from entry".to_string(), |i| excerpt(self.text(i.span)).into_owned());
            self.error(format!("expected ',' or 'where' after {after}, found {found}"), self.peek().span);
            // `hero='AA' villain='KK'` is a missing comma: carry on with the next entry.
            if !self.at_parse_from_entry() {
                self.skip_to_recovery_point(true);
                if self.eat(&TokenKind::Comma).is_none() {
                    return items;
                }
            }
        }
    }

    /// Consumes an identifier that looks like keyword `k`, reporting the misspelling.
    fn eat_misspelt(&mut self, k: Keyword) -> bool {
        if !self.at_misspelt(k) {
            return false;
        }
        let t = self.bump();
        self.recovered();
        self.error(format!("unknown keyword '{}' — did you mean '{}'?", self.text(t.span), k.name()), t.span);
        // Read as meant, the tree is what was meant: nothing to keep from the checker.
        self.damage -= 1;
        self.recovered();
        true
    }

    fn parse_from_entry(&mut self) -> Option<FromItem> {
        let t = self.peek().clone();
        let is_key = matches!(t.kind, TokenKind::Ident | TokenKind::Keyword(_))
            && self.peek_at(1).kind == TokenKind::Eq
            || t.kind == TokenKind::Ident;
        if !is_key {
            let found = self.found();
            self.error_with_hint(
                format!("expected key='value' in the from clause, found {found}"),
                t.span,
                "e.g. game='holdem', hero='AsKs'",
            );
            return None;
        }
        self.bump();
        let mut key = Ident { name: self.text(t.span).to_string(), span: t.span };
        // `villain.raise_threshold`: one key naming a player's setting.
        if self.simulating && self.at(&TokenKind::Dot) && self.peek_at(1).kind == TokenKind::Ident {
            self.bump();
            let setting = self.bump();
            key.span = Span::new(t.span.start, setting.span.end);
            key.name = self.text(key.span).to_string();
        }
        if self.eat(&TokenKind::Eq).is_none() {
            let found = self.found();
            self.error(format!("expected '=' after '{}', found {found}", excerpt(&key.name)), self.peek().span);
            if !matches!(self.peek().kind, TokenKind::Str { .. }) {
                return Some(FromItem { span: key.span, key, value: None, number: None });
            }
        }
        let v = self.peek().clone();
        if self.simulating {
            if let Some(number) = self.simulate_number() {
                return Some(FromItem {
                    span: Span::new(key.span.start, self.last_end()),
                    key,
                    value: None,
                    number: Some(number),
                });
            }
        }
        let value = match v.kind {
            TokenKind::Str { content } => {
                self.bump();
                Some(StrLit { text: self.text(content).to_string(), span: v.span, content })
            }
            TokenKind::Ident | TokenKind::Int(_) | TokenKind::Double(_) => {
                self.bump();
                let (key, written) = (excerpt(&key.name), excerpt(self.text(v.span)));
                self.error(format!("the value of '{key}' must be quoted: {key}='{written}'"), v.span);
                None
            }
            _ => {
                let found = self.found();
                self.error(format!("expected a quoted value after '{}=', found {found}", excerpt(&key.name)), v.span);
                None
            }
        };
        Some(FromItem { span: Span::new(key.span.start, self.last_end()), key, value, number: None })
    }

    /// A number, possibly negative, as a simulate from value (`pot=10`, `tocall=-2`).
    fn simulate_number(&mut self) -> Option<NumLit> {
        let negative =
            self.at(&TokenKind::Minus) && matches!(self.peek_at(1).kind, TokenKind::Int(_) | TokenKind::Double(_));
        let start = self.peek().span.start;
        if negative {
            self.bump();
        }
        let value = match self.peek().kind {
            TokenKind::Int(i) => i as f64,
            TokenKind::Double(d) => d,
            _ => return None,
        };
        self.bump();
        Some(NumLit { value: if negative { -value } else { value }, span: Span::new(start, self.last_end()) })
    }

    // ---- expressions ---------------------------------------------------------------------

    fn node(&mut self, kind: ExprKind, span: Span, depth: u32) -> Node {
        if depth > MAX_TREE_DEPTH {
            self.error_with_hint(
                format!("expression too long (more than {MAX_TREE_DEPTH} operators deep)"),
                span,
                "split a long chain with parentheses, e.g. (a or b or …) or (c or d or …)",
            );
            return Self::error_node(span);
        }
        Node { expr: Expr { kind, span }, depth }
    }

    /// Reports nesting beyond [`MAX_DEPTH`] at `span`; an error node stands for the expression.
    fn too_deep(&mut self, span: Span) -> Node {
        self.error(format!("expression nested too deeply (more than {MAX_DEPTH} levels)"), span);
        Self::error_node(span)
    }

    fn error_node(span: Span) -> Node {
        Node { expr: Expr { kind: ExprKind::Error, span }, depth: 1 }
    }

    pub(crate) fn expr(&mut self) -> Expr {
        self.node_expr().expr
    }

    fn node_expr(&mut self) -> Node {
        self.nesting += 1;
        let n = if self.nesting > MAX_DEPTH {
            let t = self.bump();
            self.too_deep(t.span)
        } else {
            self.or()
        };
        self.nesting -= 1;
        n
    }

    fn binary(&mut self, op: BinOp, op_span: Span, lhs: Node, rhs: Node) -> Node {
        let span = lhs.expr.span.to(rhs.expr.span);
        let depth = lhs.depth.max(rhs.depth) + 1;
        self.node(ExprKind::Binary { op, op_span, lhs: Box::new(lhs.expr), rhs: Box::new(rhs.expr) }, span, depth)
    }

    /// `operand (op operand)*` grouped to the left, for the operators `op_of` recognises.
    fn left_assoc(&mut self, operand: impl Fn(&mut Self) -> Node, op_of: impl Fn(&TokenKind) -> Option<BinOp>) -> Node {
        self.left_assoc_or_misspelt(operand, op_of, None)
    }

    /// As `left_assoc`; a word operator (`and`, `or`) misspelt between two operands
    /// (`a adn b`) is reported and read as meant.
    fn left_assoc_or_misspelt(
        &mut self,
        operand: impl Fn(&mut Self) -> Node,
        op_of: impl Fn(&TokenKind) -> Option<BinOp>,
        word: Option<(Keyword, BinOp)>,
    ) -> Node {
        let mut lhs = operand(self);
        loop {
            let (op, op_span) = if let Some(op) = op_of(&self.peek().kind) {
                (op, self.bump().span)
            } else if let Some((k, op)) = word.filter(|&(k, _)| self.at_misspelt(k) && self.starts_expression(1)) {
                self.eat_misspelt(k);
                (op, self.tokens[self.pos - 1].span)
            } else {
                return lhs;
            };
            let rhs = operand(self);
            lhs = self.binary(op, op_span, lhs, rhs);
        }
    }

    /// Whether the token `ahead` of the current one can begin an expression.
    fn starts_expression(&self, ahead: usize) -> bool {
        matches!(
            self.peek_at(ahead).kind,
            TokenKind::Int(_)
                | TokenKind::Double(_)
                | TokenKind::Str { .. }
                | TokenKind::Ident
                | TokenKind::LParen
                | TokenKind::Minus
                | TokenKind::Keyword(Keyword::True | Keyword::False | Keyword::Not | Keyword::Case)
        )
    }

    /// A prefix operator at `op` (already consumed) applied to what `operand` parses.
    fn prefix(&mut self, op: Span, operand: impl Fn(&mut Self) -> Node, kind: impl Fn(Box<Expr>) -> ExprKind) -> Node {
        self.nesting += 1;
        let inner = if self.nesting > MAX_DEPTH { self.too_deep(op) } else { operand(self) };
        self.nesting -= 1;
        let span = op.to(inner.expr.span);
        self.node(kind(Box::new(inner.expr)), span, inner.depth + 1)
    }

    fn or(&mut self) -> Node {
        self.left_assoc_or_misspelt(
            Self::and,
            |k| (*k == TokenKind::Keyword(Keyword::Or)).then_some(BinOp::Or),
            Some((Keyword::Or, BinOp::Or)),
        )
    }

    fn and(&mut self) -> Node {
        self.left_assoc_or_misspelt(
            Self::not,
            |k| (*k == TokenKind::Keyword(Keyword::And)).then_some(BinOp::And),
            Some((Keyword::And, BinOp::And)),
        )
    }

    fn not(&mut self) -> Node {
        if !self.at_keyword(Keyword::Not) {
            return self.comparison();
        }
        let op = self.bump().span;
        self.prefix(op, Self::not, ExprKind::Not)
    }

    fn comparison(&mut self) -> Node {
        let mut lhs = self.concat();
        let mut chained = false;
        while let Some(op) = binop_of(&self.peek().kind) {
            let op_span = self.bump().span;
            if chained {
                self.error_with_hint(
                    format!("comparisons cannot be chained: found a second '{}'", self.text(op_span)),
                    op_span,
                    "combine two comparisons with 'and': a < b and b < c",
                );
            }
            let rhs = self.concat();
            lhs = if chained {
                // Already reported: keep the checker from typing `(a < b) < c`.
                let span = lhs.expr.span.to(rhs.expr.span);
                Self::error_node(span)
            } else {
                self.binary(op, op_span, lhs, rhs)
            };
            chained = true;
        }
        lhs
    }

    fn concat(&mut self) -> Node {
        self.left_assoc(Self::additive, |k| (*k == TokenKind::Concat).then_some(BinOp::Concat))
    }

    fn additive(&mut self) -> Node {
        self.left_assoc(Self::multiplicative, |k| match k {
            TokenKind::Plus => Some(BinOp::Add),
            TokenKind::Minus => Some(BinOp::Sub),
            _ => None,
        })
    }

    fn multiplicative(&mut self) -> Node {
        self.left_assoc(Self::unary, |k| match k {
            TokenKind::Star => Some(BinOp::Mul),
            TokenKind::Slash => Some(BinOp::Div),
            _ => None,
        })
    }

    fn unary(&mut self) -> Node {
        if !self.at(&TokenKind::Minus) {
            return self.primary();
        }
        let op = self.bump().span;
        self.prefix(op, Self::unary, ExprKind::Neg)
    }

    fn primary(&mut self) -> Node {
        let t = self.peek().clone();
        let leaf = |kind| Node { expr: Expr { kind, span: t.span }, depth: 1 };
        match t.kind {
            TokenKind::Int(v) => {
                self.bump();
                leaf(ExprKind::Int(v))
            }
            TokenKind::Double(v) => {
                self.bump();
                leaf(ExprKind::Double(v))
            }
            TokenKind::Str { content } => {
                self.bump();
                leaf(ExprKind::Str(StrLit { text: self.text(content).to_string(), span: t.span, content }))
            }
            TokenKind::Keyword(Keyword::True) => {
                self.bump();
                leaf(ExprKind::Bool(true))
            }
            TokenKind::Keyword(Keyword::False) => {
                self.bump();
                leaf(ExprKind::Bool(false))
            }
            // Lenient: `x = not y` reads as `x = (not y)`.
            TokenKind::Keyword(Keyword::Not) => self.not(),
            TokenKind::Keyword(Keyword::Case) => self.case(),
            TokenKind::LParen => {
                self.bump();
                let inner = self.node_expr();
                if let Some(close) = self.eat(&TokenKind::RParen) {
                    self.recovered();
                    let span = t.span.to(close.span);
                    Node { expr: Expr { kind: inner.expr.kind, span }, depth: inner.depth }
                } else {
                    let found = self.found();
                    let (line, col) = self.line_col(t.span.start);
                    self.error(
                        format!("expected ')' to close the '(' at line {line}, col {col}, found {found}"),
                        self.peek().span,
                    );
                    inner
                }
            }
            TokenKind::Ident if self.peek_at(1).kind == TokenKind::LParen => self.call(),
            // `nto winsHi(hero)`, `csae when ...`: a misspelt keyword, read as meant.
            TokenKind::Ident if self.at_misspelt(Keyword::Not) && self.starts_expression(1) => {
                self.eat_misspelt(Keyword::Not);
                self.prefix(t.span, Self::not, ExprKind::Not)
            }
            TokenKind::Ident
                if self.at_misspelt(Keyword::Case) && self.peek_at(1).kind == TokenKind::Keyword(Keyword::When) =>
            {
                self.eat_misspelt(Keyword::Case);
                self.case_body(t.span)
            }
            TokenKind::Ident => {
                self.bump();
                leaf(ExprKind::Name(Ident { name: self.text(t.span).to_string(), span: t.span }))
            }
            _ => {
                let found = self.found();
                self.error(format!("expected an expression, found {found}"), t.span);
                // Stay on tokens a caller can recover at; skip anything else.
                let recovery_point = matches!(
                    t.kind,
                    TokenKind::RParen
                        | TokenKind::Comma
                        | TokenKind::Semicolon
                        | TokenKind::Eof
                        | TokenKind::Keyword(
                            Keyword::From
                                | Keyword::Where
                                | Keyword::Select
                                | Keyword::Then
                                | Keyword::Else
                                | Keyword::End
                                | Keyword::When
                                | Keyword::As
                        )
                );
                if !recovery_point {
                    self.bump();
                }
                Self::error_node(t.span)
            }
        }
    }

    fn call(&mut self) -> Node {
        let name_token = self.bump();
        let name = Ident { name: self.text(name_token.span).to_string(), span: name_token.span };
        self.bump(); // (
        let mut args = Vec::new();
        let mut depth = 1;
        if !self.at(&TokenKind::RParen) {
            loop {
                let arg = self.node_expr();
                depth = depth.max(arg.depth + 1);
                args.push(arg.expr);
                if self.eat(&TokenKind::Comma).is_none() {
                    break;
                }
                // A comma between arguments is a safe place to resume reporting.
                self.recovered();
            }
        }
        if self.eat(&TokenKind::RParen).is_some() {
            self.recovered();
        } else {
            let found = self.found();
            let shown = excerpt(&name.name).into_owned();
            self.error(format!("expected ')' after the arguments of {shown}, found {found}"), self.peek().span);
        }
        let span = Span::new(name.span.start, self.last_end().max(name.span.end));
        self.node(ExprKind::Call { name, args }, span, depth)
    }

    fn case(&mut self) -> Node {
        let start = self.bump().span;
        self.case_body(start)
    }

    /// The rest of a `case` whose first word is at `start` (already consumed). The simple form,
    /// `case x when 0 then … end` (the Odds Oracle's), is read as the searched one with `x = 0`.
    fn case_body(&mut self, start: Span) -> Node {
        let mut arms = Vec::new();
        let mut depth = 1;
        let subject = if self.at_keyword(Keyword::When) || self.at_misspelt(Keyword::When) {
            None
        } else {
            let subject = self.node_expr();
            depth = depth.max(subject.depth + 1);
            Some(subject.expr)
        };
        while self.eat_keyword(Keyword::When) || self.eat_misspelt(Keyword::When) {
            let when = self.tokens[self.pos - 1].span;
            if arms.len() == MAX_CASE_ARMS {
                self.error_with_hint(
                    format!("too many arms: at most {} 'when' arms in one case", grouped(MAX_CASE_ARMS as u64)),
                    when,
                    "nest a second case in the else of the first",
                );
            }
            let mut cond = self.node_expr();
            if let Some(subject) = &subject {
                let span = cond.expr.span;
                let kind = ExprKind::Binary {
                    op: BinOp::Eq,
                    op_span: when,
                    lhs: Box::new(subject.clone()),
                    rhs: Box::new(cond.expr),
                };
                cond = Node { expr: Expr { kind, span }, depth: cond.depth.max(depth) };
            }
            if !self.eat_keyword(Keyword::Then) && !self.eat_misspelt(Keyword::Then) {
                let found = self.found();
                self.error(format!("expected 'then' after the condition of 'when', found {found}"), self.peek().span);
            }
            let value = self.node_expr();
            depth = depth.max(cond.depth.max(value.depth) + 1);
            // Arms past the limit are read (to find the end of the case) but not kept.
            if arms.len() < MAX_CASE_ARMS {
                arms.push((cond.expr, value.expr));
            }
        }
        if arms.is_empty() {
            let found = self.found();
            self.error(format!("expected 'when' after 'case', found {found}"), self.peek().span);
        }
        let mut otherwise = None;
        if self.eat_keyword(Keyword::Else) || self.eat_misspelt(Keyword::Else) {
            let e = self.node_expr();
            depth = depth.max(e.depth + 1);
            otherwise = Some(Box::new(e.expr));
        }
        if !self.eat_keyword(Keyword::End) && !self.eat_misspelt(Keyword::End) {
            let found = self.found();
            self.error(format!("expected 'end' to close 'case', found {found}"), self.peek().span);
        }
        let span = Span::new(start.start, self.last_end());
        if arms.is_empty() {
            return Self::error_node(span);
        }
        self.node(ExprKind::Case { arms, otherwise }, span, depth)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fmt::Write;

    fn parse_ok(text: &str) -> Vec<Statement> {
        let (statements, errors) = parse_program(text);
        assert!(errors.is_empty(), "{text}: {errors:?}");
        statements
    }

    fn where_expr(text: &str) -> Expr {
        parse_ok(&format!("select count(true) from game='holdem' where {text}")).remove(0).where_clause.expect("where")
    }

    /// Renders an expression fully parenthesised, to check precedence.
    fn show(e: &Expr) -> String {
        match &e.kind {
            ExprKind::Int(v) => v.to_string(),
            ExprKind::Double(v) => v.to_string(),
            ExprKind::Str(s) => format!("'{}'", s.text),
            ExprKind::Bool(b) => b.to_string(),
            ExprKind::Name(n) => n.name.clone(),
            ExprKind::Call { name, args } => {
                format!("{}({})", name.name, args.iter().map(show).collect::<Vec<_>>().join(", "))
            }
            ExprKind::Neg(x) => format!("(-{})", show(x)),
            ExprKind::Not(x) => format!("(not {})", show(x)),
            ExprKind::Binary { op, lhs, rhs, .. } => format!("({} {op:?} {})", show(lhs), show(rhs)),
            ExprKind::Case { arms, otherwise } => {
                let mut s = "case".to_string();
                for (c, v) in arms {
                    let _ = write!(s, " when {} then {}", show(c), show(v));
                }
                if let Some(o) = otherwise {
                    let _ = write!(s, " else {}", show(o));
                }
                s + " end"
            }
            ExprKind::Error => "<error>".into(),
        }
    }

    #[test]
    fn a_simple_case_is_the_searched_case_with_equals() {
        assert_eq!(
            show(&where_expr("case handBoardIntersections(v, river) when 0 then true when 2 then f(v) end")),
            "case when (handBoardIntersections(v, river) Eq 0) then true when (handBoardIntersections(v, river) Eq 2) then f(v) end"
        );
        assert_eq!(
            show(&where_expr("case x + 1 when 1 then 'a' else 'b' end")),
            "case when ((x Add 1) Eq 1) then 'a' else 'b' end"
        );
        // A subject with no arm is still an error that says what is missing.
        let (_, errors) = parse_program("select count(case x end) from hero='AA'");
        assert!(errors.iter().any(|e| e.message.starts_with("expected 'when' after 'case'")), "{errors:?}");
    }

    #[test]
    fn precedence_follows_the_spec() {
        assert_eq!(show(&where_expr("a or b and not c = d")), "(a Or (b And (not (c Eq d))))");
        assert_eq!(show(&where_expr("x || 1 + 2 * -3 < 4")), "((x Concat (1 Add (2 Mul (-3)))) Lt 4)");
        assert_eq!(show(&where_expr("1 - 2 - 3 / 4 / 5 >= 0")), "(((1 Sub 2) Sub ((3 Div 4) Div 5)) Ge 0)");
        assert_eq!(show(&where_expr("not not a")), "(not (not a))");
        assert_eq!(
            show(&where_expr("case when a then 1 when b then .5 else f(x, 2) end <> 0")),
            "(case when a then 1 when b then 0.5 else f(x, 2) end Ne 0)"
        );
    }

    #[test]
    fn spans_cover_the_source() {
        let text = "select avg(riverEquity(hero)) as eq from hero='AKs', villain='QQ+'";
        let s = &parse_ok(text)[0];
        assert_eq!(s.span, Span::new(0, text.len()));
        let sel = &s.selectors[0];
        assert_eq!(&text[sel.expr.span.start..sel.expr.span.end], "riverEquity(hero)");
        assert_eq!(sel.alias.as_ref().unwrap().name, "eq");
        assert_eq!(
            &text[s.from[0].value.as_ref().unwrap().content.start..s.from[0].value.as_ref().unwrap().content.end],
            "AKs"
        );
        assert_eq!(&text[s.from[1].span.start..s.from[1].span.end], "villain='QQ+'");
    }

    #[test]
    fn statements_and_trailing_commas() {
        let s = parse_ok(";; select count(true), from game='holdem', ; ; select max(1) from x='AA';");
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].selectors.len(), 1);
        assert_eq!(s[0].from.len(), 1);
    }

    #[test]
    fn chained_comparisons_are_rejected() {
        let (_, errors) = parse_program("select count(1 < 2 < 3) from game='holdem'");
        assert_eq!(errors.len(), 1);
        assert!(errors[0].message.starts_with("comparisons cannot be chained"));
    }

    #[test]
    fn recovers_to_report_several_errors() {
        let (statements, errors) = parse_program(
            "select avg(riverEquity(hero), count(+) from hero=AA, villain='KK' where ; select max(1 from x='A'",
        );
        let messages: Vec<_> = errors.iter().map(|e| e.message.as_str()).collect();
        assert_eq!(
            messages,
            vec![
                "expected ')' after the argument of avg, found ','",
                "expected an expression, found '+'",
                "the value of 'hero' must be quoted: hero='AA'",
                "expected an expression, found ';'",
                "expected ')' after the argument of max, found 'from'",
            ]
        );
        assert_eq!(statements.len(), 2);
        assert!(statements.iter().all(|s| s.has_syntax_errors));
    }

    #[test]
    fn misspelt_keywords_are_reported_and_read_as_meant() {
        let (statements, errors) = parse_program("selct count(case wehn a thn 1 ese 2 edn = 1) form x='A' wher true");
        let messages: Vec<_> = errors.iter().map(|e| e.message.as_str()).collect();
        assert_eq!(
            messages,
            vec![
                "unknown keyword 'selct' — did you mean 'select'?",
                "unknown keyword 'wehn' — did you mean 'when'?",
                "unknown keyword 'thn' — did you mean 'then'?",
                "unknown keyword 'ese' — did you mean 'else'?",
                "unknown keyword 'edn' — did you mean 'end'?",
                "unknown keyword 'form' — did you mean 'from'?",
                "unknown keyword 'wher' — did you mean 'where'?",
            ]
        );
        let s = &statements[0];
        assert_eq!(show(&s.selectors[0].expr), "(case when a then 1 else 2 end Eq 1)");
        assert_eq!(s.from.len(), 1);
        assert!(s.where_clause.is_some());
        // A name that merely resembles a keyword is not taken for it.
        let (_, errors) = parse_program("select count(case when a hero end) from x='A'");
        assert_eq!(errors[0].message, "expected 'then' after the condition of 'when', found 'hero'");
    }

    #[test]
    fn lexical_errors_are_not_reported_again_by_the_parser() {
        for (text, message) in [
            ("select count(1 % 1 = 0) from x='A'", "unexpected character '%'"),
            ("select avg(1) as 1x from x='A'", "'1x' is not a number or a name (names start with a letter)"),
            ("select count(a # b) from x='A'", "unexpected character '#'"),
        ] {
            let (statements, errors) = parse_program(text);
            let messages: Vec<_> = errors.iter().map(|e| e.message.as_str()).collect();
            assert_eq!(messages, [message], "{text}");
            assert!(statements[0].has_syntax_errors && statements[0].selectors[0].damaged, "{text}");
        }
    }

    #[test]
    fn trailing_text_marks_the_statement_and_its_where_clause() {
        let (statements, errors) = parse_program("select count(a) from x='A' where b c");
        assert_eq!(errors[0].message, "expected ';' or the end of the query, found 'c'");
        assert!(statements[0].has_syntax_errors && statements[0].where_damaged);
        assert!(!statements[0].selectors[0].damaged);
    }

    #[test]
    fn misspelt_operators_are_read_as_meant() {
        let (statements, errors) =
            parse_program("select count(nto a adn b ro c), histogram(csae when a then 1 end) from x='A'");
        let messages: Vec<_> = errors.iter().map(|e| e.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "unknown keyword 'nto' — did you mean 'not'?",
                "unknown keyword 'adn' — did you mean 'and'?",
                "unknown keyword 'ro' — did you mean 'or'?",
                "unknown keyword 'csae' — did you mean 'case'?",
            ]
        );
        assert_eq!(show(&statements[0].selectors[0].expr), "(((not a) And b) Or c)");
        assert_eq!(show(&statements[0].selectors[1].expr), "case when a then 1 end");
        // Read as meant, the selectors are not damaged: the checker types them.
        assert!(statements[0].selectors.iter().all(|s| !s.damaged));
        let (statements, errors) = parse_program("select count(a && b), count(!a), count(1 =< 2) from x='A'");
        assert_eq!(errors.len(), 3);
        assert_eq!(show(&statements[0].selectors[0].expr), "(a And b)");
        assert_eq!(show(&statements[0].selectors[1].expr), "(not a)");
        assert_eq!(show(&statements[0].selectors[2].expr), "(1 Le 2)");
    }

    #[test]
    fn arguments_are_recovery_points() {
        let (_, errors) = parse_program("select avg(f(1 +, 2 *, (3 -) + 4)) from x='A'");
        let messages: Vec<_> = errors.iter().map(|e| (e.message.as_str(), e.span.unwrap().start)).collect();
        assert_eq!(
            messages,
            vec![
                ("expected an expression, found ','", 16),
                ("expected an expression, found ','", 21),
                ("expected an expression, found ')'", 27),
            ]
        );
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let deep = format!("select avg({}1{}) from x='AA'", "(".repeat(5000), ")".repeat(5000));
        let (_, errors) = parse_program(&deep);
        assert!(errors[0].message.contains("nested too deeply"));
        // A flat chain is not nesting: it is refused only past the tree-depth limit.
        let long = format!("select avg(1{}) from x='AA'", " + 1".repeat(5000));
        let (_, errors) = parse_program(&long);
        assert_eq!(errors.len(), 1);
        assert!(errors[0].message.starts_with("expression too long"), "{}", errors[0].message);
        let (_, errors) = parse_program(&format!("select avg(1{}) from x='AA'", " + 1".repeat(150)));
        assert!(errors.is_empty(), "{errors:?}");
        let minus = format!("select avg({}1) from x='AA'", "- ".repeat(5000));
        let (_, errors) = parse_program(&minus);
        assert!(errors[0].message.contains("nested too deeply"));
    }
}
