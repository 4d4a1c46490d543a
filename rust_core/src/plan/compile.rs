//! Checked PQL statements -> executable plans: ranges compiled into hand sources, players
//! resolved to seats, every catalogue function lowered to a [`Builtin`] (or to a comparison
//! over one, for the `min…`/`exact…` forms), and the streets the statement looks at recorded
//! so that exact enumeration deals them as separate groups.

use super::expr::{ArithOp, Builtin, CmpOp, Expr, HandSet, HvrUse};
use super::value::Value;
use super::{HistogramKind, Plan, Selector, SelectorKind};
use crate::cards::{parse_cards, parse_rank, CardSet};
use crate::deal::source::{BoardSource, DealSpec, HandSource, SlotHand, StreetSplits, WeightedList, OPEN};
use crate::error::{PqlError, Span};
use crate::eval::{rate_hi, rate_lo8, rate_razz};
use crate::functions::types::Type;
use crate::functions::Func;
use crate::games::{Game, Street};
use crate::pql::typed::{BinOp, CheckedStatement, SelectorName, TExpr, TExprKind, TextLit};
use crate::range::{self, Macros, Ordering, Syntax};
use std::collections::HashSet;
use std::sync::Arc;

/// A statement ready to run, with what reports need to name it.
#[derive(Clone, Debug)]
pub struct CompiledStatement {
    pub query: String,
    pub span: Span,
    pub players: Vec<String>,
    pub plan: Plan,
}

/// Parses, checks and compiles every statement of `text`.
pub fn compile_program(text: &str) -> Result<Vec<CompiledStatement>, Vec<PqlError>> {
    compile_program_at(text, (1, 1))
}

/// As `compile_program`, for a text that starts at `origin` (line, column) of a larger one.
pub fn compile_program_at(text: &str, origin: (usize, usize)) -> Result<Vec<CompiledStatement>, Vec<PqlError>> {
    compile_program_with(text, origin, &Macros::none())
}

/// As `compile_program_at`, with the user's named ranges (`$open`) usable in every range.
pub fn compile_program_with(
    text: &str,
    origin: (usize, usize),
    macros: &Macros,
) -> Result<Vec<CompiledStatement>, Vec<PqlError>> {
    let checked = crate::pql::check_program_at(text, origin)?;
    let mut compiled = Vec::with_capacity(checked.len());
    let mut errors = Vec::new();
    for statement in &checked {
        match compile_statement(statement, macros) {
            Ok(c) => compiled.push(c),
            Err(e) => errors.extend(e),
        }
    }
    if errors.is_empty() {
        Ok(compiled)
    } else {
        Err(crate::error::cap_errors(errors))
    }
}

/// Compiles one checked select statement.
pub fn compile_checked(st: &CheckedStatement, macros: &Macros) -> Result<CompiledStatement, Vec<PqlError>> {
    compile_statement(st, macros)
}

fn compile_statement(st: &CheckedStatement, macros: &Macros) -> Result<CompiledStatement, Vec<PqlError>> {
    if st.simulate.is_some() {
        // `simulate::program` runs these; a plan has nothing to select.
        return Err(vec![PqlError::runtime("a simulate statement is run by the simulation engine, not as a query")
            .with_span(st.span)]);
    }
    let game = st.game;
    let mut errors = Vec::new();
    let mut sources = Vec::with_capacity(st.players.len());
    for player in &st.players {
        match range::parse_range_ordered(&player.range.text, game, st.syntax, st.ordering, macros) {
            Ok(r) => sources.push(hand_source(&r)),
            Err(e) => errors.push(inside(e, &player.range)),
        }
    }
    let board = match &st.board {
        // `board=''` is no board, in every game (the Oracle's clients send it before the flop).
        Some(lit) if lit.text.trim().is_empty() => BoardSource::Random,
        Some(lit) if game.is_stud() => {
            errors.push(PqlError::type_error(format!("{} has no board", game.name()), lit.span));
            BoardSource::Random
        }
        Some(lit) => range::parse_board(&lit.text, game).map_or_else(
            |e| {
                errors.push(inside(e, lit));
                BoardSource::Random
            },
            |b| board_source(&b),
        ),
        None => BoardSource::Random,
    };
    let dead = match &st.dead {
        Some(lit) => range::parse_dead(&lit.text, game).unwrap_or_else(|e| {
            errors.push(inside(e, lit));
            range::DeadCards::default()
        }),
        None => range::DeadCards::default(),
    };
    // Seats dealt one fixed hand, and how many board cards every deal shows the same: a
    // function of p's hand and the board then answers the same in every deal.
    let fixed_hands: Vec<bool> =
        sources.iter().map(|s| !game.is_stud() && matches!(s, HandSource::Range(l) if l.len() == 1)).collect();
    let fixed_board = match &board {
        BoardSource::Boards(list) if list.len() == 1 => list.items[0].iter().take_while(|&&s| s != OPEN).count(),
        _ => 0,
    };
    let mut lower = Lowering {
        game,
        syntax: st.syntax,
        ordering: st.ordering,
        macros,
        players: st.players.len(),
        fixed_hands,
        fixed_board,
        streets: HashSet::new(),
        splits: 0,
        inner_cost: 0.0,
        averaged: false,
        errors: Vec::new(),
    };
    let filter = st.where_clause.as_ref().map(|w| lower.expr(w));
    let selectors: Vec<Selector> = st
        .selectors
        .iter()
        .map(|s| {
            let kind = selector_kind(s.kind, s.expr.ty);
            lower.averaged = matches!(kind, SelectorKind::Avg);
            let expr = lower.expr(&s.expr);
            Selector { name: s.name.clone(), kind, expr }
        })
        .collect();
    errors.append(&mut lower.errors);
    if !errors.is_empty() {
        return Err(errors);
    }

    let mut spec = DealSpec::new(game, sources, board, dead.fixed).with_dead_sets(dead.choices);
    if matches!(spec.board, BoardSource::Pattern(_)) {
        // Exact runs test each board against the pattern: flop, turn and river dealt apart.
        lower.streets.extend([Street::Flop, Street::Turn]);
    }
    spec.splits = street_splits(game, &lower.streets, lower.splits);
    let available = spec.deck.len();
    if spec.cards_needed() > available {
        return Err(vec![PqlError::runtime(format!(
            "{} players need {} cards but the deck has {available} left",
            st.players.len(),
            spec.cards_needed()
        ))
        .with_span(st.span)]);
    }
    Ok(CompiledStatement {
        query: st.text.clone(),
        span: st.span,
        players: st.players.iter().map(|p| p.name.clone()).collect(),
        plan: Plan { query: st.text.clone(), spec, filter, selectors, inner_cost: 1.0 + lower.inner_cost },
    })
}

/// Moves an error found inside a string literal so that it points into the query.
pub fn inside(e: PqlError, lit: &TextLit) -> PqlError {
    let span = e.span.map_or(lit.span, |s| s.shifted(lit.span.start));
    e.with_span(span)
}

fn hand_source(r: &range::Range) -> HandSource {
    if r.is_full() {
        return HandSource::Random;
    }
    let hands: Vec<SlotHand> = if r.game().is_stud() {
        r.stud_hands().iter().map(|h| SlotHand::from_positions(h)).collect()
    } else {
        r.flop_combos().iter().map(|&set| SlotHand::from_set(set)).collect()
    };
    HandSource::Range(if r.is_weighted() {
        WeightedList::weighted(hands, r.weights().to_vec())
    } else {
        WeightedList::uniform(hands)
    })
}

fn board_source(b: &range::BoardRange) -> BoardSource {
    if b.is_any() {
        return BoardSource::Random;
    }
    let Some(listed) = b.boards() else {
        return BoardSource::Pattern(Arc::new(b.clone()));
    };
    // Flop cards are unordered: a flop that matches the pattern in several orders is still one
    // board, so each is kept once (first three slots sorted), then turn and river by position.
    let mut boards: Vec<[u8; 5]> = listed
        .iter()
        .filter(|cards| !cards.is_empty())
        .map(|cards| {
            let mut slots = [OPEN; 5];
            for (slot, c) in slots.iter_mut().zip(cards) {
                *slot = c.index();
            }
            slots[..3.min(cards.len())].sort_unstable();
            slots
        })
        .collect();
    boards.sort_unstable();
    boards.dedup();
    if boards.is_empty() {
        BoardSource::Random
    } else {
        BoardSource::Boards(WeightedList::uniform(boards))
    }
}

fn selector_kind(name: SelectorName, ty: Type) -> SelectorKind {
    match name {
        SelectorName::Avg => SelectorKind::Avg,
        SelectorName::Count => SelectorKind::Count,
        // Equities are reported in one-percent buckets, as the original does.
        SelectorName::Histogram if ty == Type::Equity => SelectorKind::Histogram(HistogramKind::Percent),
        SelectorName::Histogram => SelectorKind::Histogram(HistogramKind::Exact),
        SelectorName::Max => SelectorKind::Max,
        SelectorName::Min => SelectorKind::Min,
    }
}

/// Group boundaries for exact enumeration: after the cards known on each street the statement
/// looks at, so that a street's cards are dealt before what follows them, and the `extra` ones
/// (bit k: after the k-th card) that functions reading stud positions ask for.
fn street_splits(game: Game, streets: &HashSet<Street>, extra: u8) -> StreetSplits {
    let last = if game.is_stud() { 7 } else { 5 };
    let mut after = extra;
    for s in streets {
        after |= 1 << s.cards_known();
    }
    // Boundaries before the first card or after the last split nothing.
    let inner = ((1u16 << last) - 2) as u8;
    StreetSplits { after: after & inner }
}

struct Lowering<'m> {
    game: Game,
    syntax: Syntax,
    ordering: Ordering,
    /// The user's named ranges, for the ranges of `inRange` and perceived-range equity.
    macros: &'m Macros,
    players: usize,
    fixed_hands: Vec<bool>,
    fixed_board: usize,
    /// Streets the statement's functions look at.
    streets: HashSet<Street>,
    /// More group boundaries (bit k: after the k-th card of a hand), where stud functions tell
    /// positions apart that no street boundary separates.
    splits: u8,
    /// Extra evaluations per player per deal (inner enumerations), for choosing exact runs.
    inner_cost: f64,
    /// The expression being lowered is an `avg` selector's whole expression.
    averaged: bool,
    errors: Vec<PqlError>,
}

impl Lowering<'_> {
    fn expr(&mut self, e: &TExpr) -> Expr {
        // Only a selector's whole expression is averaged (taken here, so no inner one sees it).
        let averaged = std::mem::take(&mut self.averaged);
        match &e.kind {
            TExprKind::Bool(b) => Expr::Const(Value::Bool(*b)),
            TExprKind::Int(i) => Expr::Const(Value::Int(*i)),
            TExprKind::Double(x) => Expr::Const(Value::Num(*x)),
            TExprKind::Str(lit) => Expr::Const(Value::Str(lit.text.as_str().into())),
            TExprKind::Player(p) => Expr::Const(Value::Player(*p as u8)),
            TExprKind::Street(s) => Expr::Const(Value::Street(*s)),
            TExprKind::HandType(t) => Expr::Const(Value::hand_type(*t, self.game.hi_rules())),
            TExprKind::FlopCategory(c) => Expr::Const(Value::FlopCat(*c as u8)),
            TExprKind::Neg(x) => Expr::Neg(Box::new(self.expr(x))),
            TExprKind::Not(x) => Expr::Not(Box::new(self.expr(x))),
            TExprKind::Binary { op, lhs, rhs } => {
                let (mut a, mut b) = (Box::new(self.expr(lhs)), Box::new(self.expr(rhs)));
                // Razz ranks compare ace-low (`toRank('A') < toRank('2')`), as its rank sets
                // order them.
                let ordered = matches!(op, BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge);
                if ordered && self.game == Game::Razz && lhs.ty == Type::Rank && rhs.ty == Type::Rank {
                    a = Box::new(Self::call_expr(Builtin::RankOrder(*a)));
                    b = Box::new(Self::call_expr(Builtin::RankOrder(*b)));
                }
                match op {
                    BinOp::Or => Expr::Or(a, b),
                    BinOp::And => Expr::And(a, b),
                    BinOp::Eq => Expr::Cmp(CmpOp::Eq, a, b),
                    BinOp::Ne => Expr::Cmp(CmpOp::Ne, a, b),
                    BinOp::Lt => Expr::Cmp(CmpOp::Lt, a, b),
                    BinOp::Le => Expr::Cmp(CmpOp::Le, a, b),
                    BinOp::Gt => Expr::Cmp(CmpOp::Gt, a, b),
                    BinOp::Ge => Expr::Cmp(CmpOp::Ge, a, b),
                    BinOp::Concat => Expr::Concat(a, b),
                    BinOp::Add => Expr::Arith(ArithOp::Add, a, b),
                    BinOp::Sub => Expr::Arith(ArithOp::Sub, a, b),
                    BinOp::Mul => Expr::Arith(ArithOp::Mul, a, b),
                    BinOp::Div => Expr::Arith(ArithOp::Div(rhs.span), a, b),
                }
            }
            TExprKind::Case { arms, otherwise } => {
                let arms = arms.iter().map(|(c, v)| (self.expr(c), self.expr(v))).collect();
                Expr::Case(arms, otherwise.as_ref().map(|o| Box::new(self.expr(o))))
            }
            TExprKind::Call { func, args } => {
                self.averaged = averaged;
                let v = self.call(*func, args);
                self.averaged = false;
                v
            }
        }
    }

    fn player(&mut self, e: &TExpr) -> usize {
        if let TExprKind::Player(p) = e.kind {
            p
        } else {
            self.errors.push(PqlError::type_error("expected a player declared in the from clause", e.span));
            0
        }
    }

    fn street(&mut self, e: &TExpr) -> Street {
        if let TExprKind::Street(s) = e.kind {
            self.streets.insert(s);
            s
        } else {
            self.errors.push(PqlError::type_error("expected a street such as flop or river", e.span));
            self.game.last_street()
        }
    }

    fn literal<'a>(&mut self, e: &'a TExpr) -> Option<&'a TextLit> {
        if let TExprKind::Str(lit) = &e.kind {
            Some(lit)
        } else {
            self.errors.push(PqlError::type_error("expected a quoted literal", e.span));
            None
        }
    }

    /// Player and street arguments (`f(p, street)`), the most common shape.
    fn ps(&mut self, args: &[TExpr]) -> (usize, Street) {
        (self.player(&args[0]), self.street(&args[1]))
    }

    /// Exact runs deal cards of one group as an unordered set, so a function that reads stud
    /// positions one by one (`positions`, bit i for the i-th card dealt) needs each in a group
    /// of its own. The two down cards are unordered between themselves: reading them only
    /// separates them from the up cards.
    fn read_positions(&mut self, positions: u8) {
        if positions & 0b11 != 0 {
            self.splits |= 1 << 2;
        }
        for i in (2..7).filter(|i| positions & 1 << i != 0) {
            self.splits |= 1 << i | 1 << (i + 1);
        }
    }

    /// Stud functions that look at every player's up cards on `street` (the nut functions):
    /// the up cards dealt apart from the down cards, as one set.
    fn read_up_cards(&mut self, street: Street) {
        if self.game.is_stud() {
            self.splits |= 1 << 2 | 1 << street.cards_known().min(6);
        }
    }

    fn call_expr(b: Builtin) -> Expr {
        Expr::Call(Box::new(b))
    }

    /// `x >= threshold`, for the `min…` forms.
    fn at_least(value: Expr, threshold: Expr) -> Expr {
        Expr::Cmp(CmpOp::Ge, Box::new(value), Box::new(threshold))
    }

    fn equal(value: Expr, expected: Expr) -> Expr {
        Expr::Cmp(CmpOp::Eq, Box::new(value), Box::new(expected))
    }

    /// Whether p's hand and the board up to `street` are the same in every deal.
    fn repeats(&self, p: usize, street: Street) -> bool {
        self.fixed_hands.get(p).copied().unwrap_or(false) && street.cards_known().min(5) <= self.fixed_board
    }

    /// Evaluations an exact equity from `street` costs: one per board completion.
    fn completion_cost(&self, street: Street) -> f64 {
        if self.game.is_stud() {
            let per = 7 - street.cards_known();
            let rest = 52usize.saturating_sub(self.players * street.cards_known());
            let exact = crate::kernels::stud_equity::assignments(self.players, rest, per);
            return if exact <= crate::kernels::stud_equity::STUD_EXACT_SHOWDOWNS {
                exact
            } else {
                f64::from(crate::kernels::stud_equity::STUD_EQUITY_SAMPLES)
            };
        }
        let missing = self.game.board_cards().saturating_sub(street.cards_known());
        crate::cards::binomial(45, missing)
    }

    #[allow(clippy::too_many_lines)]
    fn call(&mut self, func: Func, args: &[TExpr]) -> Expr {
        use Builtin as B;
        let c = Self::call_expr;
        match func {
            Func::RiverEquity => c(B::RiverEquity(self.player(&args[0]))),
            Func::FractionalRiverEquity => c(B::FractionalRiverEquity(self.player(&args[0]))),
            Func::WinsHi => c(B::WinsHi(self.player(&args[0]))),
            Func::TiesHi => c(B::TiesHi(self.player(&args[0]))),
            Func::WinsLo => c(B::WinsLo(self.player(&args[0]))),
            Func::TiesLo => c(B::TiesLo(self.player(&args[0]))),
            Func::Scoops => c(B::Scoops(self.player(&args[0]))),
            Func::WinningHandType => c(B::WinningHandType),
            Func::HvHEquity => {
                let (p, s) = self.ps(args);
                self.inner_cost += self.completion_cost(s);
                c(B::HvHEquity(p, s))
            }
            Func::MinEquity | Func::MinHvHEquity => {
                let (p, s) = self.ps(args);
                self.inner_cost += self.completion_cost(s);
                let x = self.expr(&args[2]);
                Self::at_least(c(B::HvHEquity(p, s)), x)
            }
            Func::HandType => {
                let (p, s) = self.ps(args);
                c(B::HandType(p, s))
            }
            Func::ExactHandType | Func::MinHandType => {
                let (p, s) = self.ps(args);
                let t = self.expr(&args[2]);
                let v = c(B::HandType(p, s));
                if func == Func::MinHandType {
                    Self::at_least(v, t)
                } else {
                    Self::equal(v, t)
                }
            }
            Func::HiRating => {
                let (p, s) = self.ps(args);
                c(B::HiRating(p, s))
            }
            Func::MinHiRating => {
                let (p, s) = self.ps(args);
                let r = self.expr(&args[2]);
                Self::at_least(c(B::HiRating(p, s)), r)
            }
            Func::RateHiHand => match self.five_cards(&args[0]) {
                Some(five) => Expr::Const(Value::Hi(rate_hi(five, self.game.hi_rules()))),
                None => Expr::Const(Value::Bool(false)),
            },
            Func::BestHiRating => {
                let (p, s) = self.ps(args);
                c(B::BestHiRating(p, s))
            }
            Func::FiveCardHiHandNumber => {
                let (p, s) = self.ps(args);
                c(B::FiveCardHiHandNumber(p, s))
            }
            Func::FourFlush => {
                let (p, s) = self.ps(args);
                c(B::FourFlush(p, s))
            }
            Func::ThreeFlush => {
                let (p, s) = self.ps(args);
                c(B::ThreeFlush(p, s))
            }
            Func::PocketPair => c(B::PocketPair(self.player(&args[0]))),
            Func::Overpair => {
                let (p, s) = self.ps(args);
                c(B::Overpair(p, s))
            }
            Func::LoRating => {
                let (p, s) = self.ps(args);
                c(B::LoRating(p, s))
            }
            Func::MinLoRating => {
                let (p, s) = self.ps(args);
                let r = self.expr(&args[2]);
                Self::at_least(c(B::LoRating(p, s)), r)
            }
            Func::RateLoHand => match self.five_cards(&args[0]) {
                Some(five) => {
                    let lo = if self.game == Game::Razz { Some(rate_razz(five)) } else { rate_lo8(five) };
                    Expr::Const(Value::Lo(lo))
                }
                None => Expr::Const(Value::Bool(false)),
            },
            Func::MadeLo => {
                let (p, s) = self.ps(args);
                c(B::MadeLo(p, s))
            }
            Func::BestLoRating => {
                let (p, s) = self.ps(args);
                c(B::BestLoRating(p, s))
            }
            Func::BoardAllowsMadeLo => c(B::BoardAllowsMadeLo(self.street(&args[0]))),
            Func::BoardLoCardCount => c(B::BoardLoCardCount(self.street(&args[0]))),
            Func::BoardHasOneDistinctLoCard => c(B::BoardHasOneDistinctLoCard(self.street(&args[0]))),
            Func::BoardHasTwoDistinctLoCards => c(B::BoardHasTwoDistinctLoCards(self.street(&args[0]))),
            Func::BoardRanks => c(B::BoardRanks(self.street(&args[0]))),
            Func::DuplicatedBoardRanks => c(B::DuplicatedBoardRanks(self.street(&args[0]))),
            Func::BoardSuitCount => c(B::BoardSuitCount(self.street(&args[0]))),
            Func::RainbowBoard => c(B::RainbowBoard(self.street(&args[0]))),
            Func::TwoToneBoard => c(B::TwoToneBoard(self.street(&args[0]))),
            Func::MonotoneBoard => c(B::MonotoneBoard(self.street(&args[0]))),
            Func::FlushingBoard => c(B::FlushingBoard(self.street(&args[0]))),
            Func::PairedBoard => c(B::PairedBoard(self.street(&args[0]))),
            Func::StraightBoard => c(B::StraightBoard(self.street(&args[0]))),
            Func::BoardInRange => {
                // Flop cards are unordered, turn and river positional: deal them as groups.
                self.streets.extend([Street::Flop, Street::Turn]);
                let Some(lit) = self.literal(&args[0]) else { return Expr::Const(Value::Bool(false)) };
                match range::parse_board_pattern(&lit.text, self.game) {
                    Ok(pattern) => c(B::BoardInRange(Arc::new(pattern))),
                    Err(e) => {
                        self.errors.push(inside(e, lit));
                        Expr::Const(Value::Bool(false))
                    }
                }
            }
            Func::TurnCard => {
                self.streets.extend([Street::Flop, Street::Turn]);
                c(B::TurnCard)
            }
            Func::RiverCard => {
                self.streets.extend([Street::Flop, Street::Turn]);
                c(B::RiverCard)
            }
            Func::HandRanks => {
                let (p, s) = self.ps(args);
                c(B::HandRanks(p, s))
            }
            Func::DuplicatedHandRanks => {
                let (p, s) = self.ps(args);
                c(B::DuplicatedHandRanks(p, s))
            }
            Func::IntersectingHandRanks => {
                let (p, s) = self.ps(args);
                c(B::IntersectingHandRanks(p, s))
            }
            Func::NonIntersectingHandRanks => {
                let (p, s) = self.ps(args);
                c(B::NonIntersectingHandRanks(p, s))
            }
            Func::HandBoardIntersections => {
                let (p, s) = self.ps(args);
                c(B::HandBoardIntersections(p, s))
            }
            Func::HasTopBoardRank => {
                let (p, s) = self.ps(args);
                c(B::HasTopBoardRank(p, s))
            }
            Func::HasSecondBoardRank => {
                let (p, s) = self.ps(args);
                c(B::HasSecondBoardRank(p, s))
            }
            Func::MaxRank => c(B::MaxRank(self.expr(&args[0]))),
            Func::MinRank => c(B::MinRank(self.expr(&args[0]))),
            Func::NthRank => {
                let n = self.expr(&args[0]);
                c(B::NthRank(n, self.expr(&args[1])))
            }
            Func::RankCount => c(B::RankCount(self.expr(&args[0]))),
            Func::InRange => {
                let p = self.player(&args[0]);
                let Some(lit) = self.literal(&args[1]) else { return Expr::Const(Value::Bool(false)) };
                match range::parse_range_ordered(&lit.text, self.game, self.syntax, self.ordering, self.macros) {
                    Ok(r) if self.game.is_stud() => {
                        self.read_positions(r.stud_positions());
                        c(B::InStudRange(p, Arc::new(r)))
                    }
                    Ok(r) => c(B::InRange(p, Arc::new(HandSet(r.flop_combos().iter().copied().collect())))),
                    Err(e) => {
                        self.errors.push(inside(e, lit));
                        Expr::Const(Value::Bool(false))
                    }
                }
            }
            Func::HandRanking => c(B::HandRanking(self.player(&args[0]), false, self.ordering)),
            Func::HandRankingFor => {
                let p = self.player(&args[0]);
                let six_max = self.literal(&args[1]).is_some_and(|l| l.text.eq_ignore_ascii_case("6max"));
                c(B::HandRanking(p, six_max, self.ordering))
            }
            Func::UpCard => {
                let (p, s) = self.ps(args);
                self.read_positions(1 << (s.cards_known().clamp(3, 6) - 1));
                c(B::UpCard(p, s))
            }
            Func::FlopHandCategory | Func::ExactFlopHandCategory | Func::MinFlopHandCategory => {
                let p = self.player(&args[0]);
                self.streets.insert(Street::Flop);
                let v = c(B::FlopHandCategory(p));
                match func {
                    Func::ExactFlopHandCategory => Self::equal(v, self.expr(&args[1])),
                    Func::MinFlopHandCategory => Self::at_least(v, self.expr(&args[1])),
                    _ => v,
                }
            }
            Func::CardsPlay => {
                let (p, s) = self.ps(args);
                // Every five-card choice is rated to find the one using the fewest hole cards.
                self.inner_cost += 100.0;
                c(B::CardsPlay(p, s))
            }
            // Nuts and outs: one pass over the opponents' possible holdings (about a thousand
            // hands), times the next street's cards for the outs forms.
            Func::NutHi | Func::NutHiForHandType | Func::NutLo => {
                let (p, s) = self.ps(args);
                self.read_up_cards(s);
                self.inner_cost += 1_000.0;
                c(match func {
                    Func::NutHi => B::NutHi(p, s),
                    Func::NutHiForHandType => B::NutHiForHandType(p, s),
                    _ => B::NutLo(p, s),
                })
            }
            Func::NutHiOuts | Func::NutLoOuts => {
                let (p, s) = self.ps(args);
                self.inner_cost += 45_000.0;
                c(if func == Func::NutHiOuts { B::NutHiOuts(p, s) } else { B::NutLoOuts(p, s) })
            }
            Func::OutsToHandType | Func::MinOutsToHandType => {
                let (p, s) = self.ps(args);
                let t = if let TExprKind::HandType(t) = args[2].kind {
                    t
                } else {
                    self.errors.push(PqlError::type_error("expected a hand type such as straight", args[2].span));
                    crate::eval::HandType::HighCard
                };
                self.inner_cost += 45.0;
                let v = c(B::OutsToHandType(p, s, t));
                if func == Func::MinOutsToHandType {
                    Self::at_least(v, self.expr(&args[3]))
                } else {
                    v
                }
            }
            Func::HvREquity | Func::MinHvREquity => {
                let averaged = std::mem::take(&mut self.averaged) && func == Func::HvREquity;
                let (p, s) = self.ps(args);
                self.inner_cost += super::cost::inner_cost_hvr(self.game, s);
                let v = c(B::HvREquity(p, s, HvrUse { repeats: self.repeats(p, s), averaged }));
                if func == Func::MinHvREquity {
                    Self::at_least(v, self.expr(&args[2]))
                } else {
                    v
                }
            }
            Func::HvPerceivedRangeEquity | Func::MinHvPerceivedRangeEquity => {
                let averaged = std::mem::take(&mut self.averaged) && func == Func::HvPerceivedRangeEquity;
                let (p, s) = self.ps(args);
                let Some(lit) = self.literal(&args[2]) else { return Expr::Const(Value::Bool(false)) };
                let source =
                    match range::parse_range_ordered(&lit.text, self.game, self.syntax, self.ordering, self.macros) {
                        Ok(r) => hand_source(&r),
                        Err(e) => {
                            self.errors.push(inside(e, lit));
                            return Expr::Const(Value::Bool(false));
                        }
                    };
                self.inner_cost += super::cost::inner_cost_hvr(self.game, s);
                let how = HvrUse { repeats: self.repeats(p, s), averaged };
                let v = c(B::HvPerceivedRangeEquity(p, s, Arc::new(source), how));
                if func == Func::MinHvPerceivedRangeEquity {
                    Self::at_least(v, self.expr(&args[3]))
                } else {
                    v
                }
            }
            Func::Outs
            | Func::OutsDiscounted
            | Func::OutCards
            | Func::OutCardsDiscounted
            | Func::StraightDrawCount
            | Func::OpenEndedStraightDraw
            | Func::GutshotStraightDraw
            | Func::FlushDrawCount
            | Func::FlushDraw => {
                let (p, s) = self.ps(args);
                self.inner_cost += 45.0;
                c(match func {
                    Func::Outs => B::Outs(p, s),
                    Func::OutsDiscounted => B::OutsDiscounted(p, s),
                    Func::OutCards => B::OutCards(p, s),
                    Func::OutCardsDiscounted => B::OutCardsDiscounted(p, s),
                    Func::StraightDrawCount => B::StraightDrawCount(p, s),
                    Func::OpenEndedStraightDraw => B::OpenEndedStraightDraw(p, s),
                    Func::GutshotStraightDraw => B::GutshotStraightDraw(p, s),
                    Func::FlushDrawCount => B::FlushDrawCount(p, s),
                    _ => B::FlushDraw(p, s),
                })
            }
            Func::BackdoorFlushDraw => {
                let (p, s) = self.ps(args);
                c(B::BackdoorFlushDraw(p, s))
            }
            Func::MaxHiRating => {
                let (p, s) = self.ps(args);
                c(B::MaxHiRating(p, s))
            }
            Func::HandStrength => {
                let averaged = std::mem::take(&mut self.averaged);
                let (p, s) = self.ps(args);
                // Heads-up one pass over the holdings; against several opponents their joint
                // deals (enumerated or sampled, analysis::joint).
                self.inner_cost += if self.players > 2 { crate::analysis::joint::JOINT_EXACT_BUDGET } else { 1_000.0 };
                c(B::HandStrength(p, s, averaged))
            }
            Func::PositivePotential
            | Func::NegativePotential
            | Func::PositivePotential1
            | Func::NegativePotential1
            | Func::EffectiveHandStrength
            | Func::ShowdownHandStrength => {
                let averaged = std::mem::take(&mut self.averaged);
                let (p, s) = self.ps(args);
                let one_card = matches!(func, Func::PositivePotential1 | Func::NegativePotential1);
                self.inner_cost += super::cost::inner_cost_potential(s, one_card);
                c(match func {
                    Func::PositivePotential => B::PositivePotential(p, s, averaged),
                    Func::NegativePotential => B::NegativePotential(p, s, averaged),
                    Func::PositivePotential1 => B::PositivePotential1(p, s, averaged),
                    Func::NegativePotential1 => B::NegativePotential1(p, s, averaged),
                    Func::EffectiveHandStrength => B::EffectiveHandStrength(p, s, averaged),
                    _ => B::ShowdownHandStrength(p, s, averaged),
                })
            }
            Func::ToCard => self.card_literal(&args[0]),
            Func::ToRank => self.rank_literal(&args[0]),
            Func::ToString => c(B::ToString(self.expr(&args[0]))),
        }
    }

    /// The five cards of `rateHiHand('AsKsQsJsTs')`-style literals.
    fn five_cards(&mut self, e: &TExpr) -> Option<CardSet> {
        let lit = self.literal(e)?;
        match parse_cards(&lit.text) {
            Ok(set) if set.len() == 5 => Some(set),
            Ok(set) => {
                self.errors.push(PqlError::type_error(format!("expected 5 cards, found {}", set.len()), lit.span));
                None
            }
            Err(err) => {
                let at = lit.span.start + err.offset;
                self.errors.push(PqlError::type_error(err.message, Span::new(at, lit.span.end)));
                None
            }
        }
    }

    fn card_literal(&mut self, e: &TExpr) -> Expr {
        let Some(lit) = self.literal(e) else { return Expr::Const(Value::Bool(false)) };
        match crate::cards::parse_card(&lit.text) {
            Ok(card) => Expr::Const(Value::Card(card)),
            Err(err) => {
                self.errors.push(PqlError::type_error(err.message, lit.span));
                Expr::Const(Value::Bool(false))
            }
        }
    }

    fn rank_literal(&mut self, e: &TExpr) -> Expr {
        let Some(lit) = self.literal(e) else { return Expr::Const(Value::Bool(false)) };
        let mut chars = lit.text.chars();
        if let (Some(r), None) = (chars.next().and_then(parse_rank), chars.next()) {
            return Expr::Const(Value::Rank(r));
        }
        self.errors.push(PqlError::type_error(
            format!("expected a rank (2-9, T, J, Q, K, A), found '{}'", lit.text),
            lit.span,
        ));
        Expr::Const(Value::Bool(false))
    }
}
