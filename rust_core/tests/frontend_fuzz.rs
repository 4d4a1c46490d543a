//! Property tests: whatever the text, `check_program` returns (no panic, no hang), and every
//! error points inside the text. Inputs are random token streams and random mutations of valid
//! queries (every catalogue example plus a few hand-written ones).

use pql_core::error::{SourceMap, MAX_ERRORS};
use pql_core::functions::catalog;
use pql_core::pql::{check_program, KEYWORDS};
use proptest::prelude::*;

const SEEDS: &[&str] = &[
    "select avg(riverEquity(hero)) as eq, count(winsHi(hero)) from game='holdem', hero='AsKs', villain='QQ+' where handType(hero, flop) >= pair",
    "select histogram(case when winsHi(hero) then 'win' when tiesHi(hero) then 'tie' else 'lose' end) from hero='AK', villain='QQ'",
    "/* c */ select avg(-2 + .5 * 3 / (1 - 4)), histogram(toString(1) || 'x') -- end\nfrom game='razz', hero='A2', board='', dead='Ks';;",
    "select count(toCard('Ks') = riverCard()), count(hiRating(hero, river) > rateHiHand('AsKsQsJsTs')) from hero='AA'",
    "select count(not winsHi(hero) and (tiesHi(hero) or 1 <> 2)) from game='stud8', hero='(3-3-)45', villain='*'",
];

const WORDS: &[&str] = &[
    "hero",
    "villain",
    "game",
    "syntax",
    "board",
    "dead",
    "flop",
    "river",
    "third",
    "trips",
    "flopset",
    "avg",
    "count",
    "histogram",
    "max",
    "min",
    "riverEquity",
    "handType",
    "winsHi",
    "toCard",
    "rateHiHand",
    "inRange",
    "case",
    "x",
];

const SYMBOLS: &[&str] = &[
    "(", ")", ",", ";", "=", "<>", "!=", "<", "<=", ">", ">=", "||", "+", "-", "*", "/", "'AA'", "'", "'As'", "3",
    "0.5", ".5", "/*", "*/", "--", "\n", "#", "é", "\"", "|", "!", "''", "'é'", "'As2é'", "&&", "=<", "’", "\u{a0}",
    "\t", "hérö", "\u{0}",
];

fn token() -> impl Strategy<Value = String> {
    prop_oneof![
        proptest::sample::select(KEYWORDS).prop_map(str::to_string),
        proptest::sample::select(WORDS).prop_map(str::to_string),
        proptest::sample::select(SYMBOLS).prop_map(str::to_string),
        "[a-zA-Z_][a-zA-Z0-9_]{0,8}",
        "[0-9]{1,25}",
    ]
}

fn seeds() -> Vec<String> {
    SEEDS.iter().map(|s| (*s).to_string()).chain(catalog().iter().map(|f| f.example.to_string())).collect()
}

#[derive(Clone, Debug)]
enum Mutation {
    DeleteChars(usize, usize),
    InsertText(usize, String),
    DeleteToken(usize),
    SwapTokens(usize, usize),
    DuplicateToken(usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), 1..6usize).prop_map(|(at, n)| Mutation::DeleteChars(at, n)),
        (any::<usize>(), prop_oneof![token(), "[ -~]{1,3}"]).prop_map(|(at, t)| Mutation::InsertText(at, t)),
        any::<usize>().prop_map(Mutation::DeleteToken),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Mutation::SwapTokens(a, b)),
        any::<usize>().prop_map(Mutation::DuplicateToken),
    ]
}

/// The nearest char boundary at or below `at`.
fn boundary(text: &str, at: usize) -> usize {
    let mut i = at.min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn apply(text: &str, m: &Mutation) -> String {
    let mut words: Vec<&str> = text.split(' ').collect();
    let n = words.len();
    match m {
        Mutation::DeleteChars(at, len) => {
            let a = boundary(text, at % (text.len() + 1));
            let b = boundary(text, a + len);
            format!("{}{}", &text[..a], &text[b..])
        }
        Mutation::InsertText(at, t) => {
            let a = boundary(text, at % (text.len() + 1));
            format!("{}{t}{}", &text[..a], &text[a..])
        }
        Mutation::DeleteToken(i) => {
            words.remove(i % n);
            words.join(" ")
        }
        Mutation::SwapTokens(a, b) => {
            words.swap(a % n, b % n);
            words.join(" ")
        }
        Mutation::DuplicateToken(i) => {
            let w = words[i % n];
            words.insert(i % n, w);
            words.join(" ")
        }
    }
}

/// The properties every input must satisfy.
fn check_total(text: &str) -> Result<(), TestCaseError> {
    match check_program(text) {
        Ok(statements) => {
            for s in statements {
                prop_assert!(s.span.start <= s.span.end && s.span.end <= text.len());
                prop_assert_eq!(text.get(s.span.start..s.span.end), Some(s.text.as_str()));
                for p in &s.players {
                    prop_assert_eq!(text.get(p.range.span.start..p.range.span.end), Some(p.range.text.as_str()));
                }
            }
        }
        Err(errors) => {
            prop_assert!(!errors.is_empty());
            // Bounded whatever the text: at most MAX_ERRORS, then one count of the rest.
            prop_assert!(errors.len() <= MAX_ERRORS + 1, "{} errors", errors.len());
            let map = SourceMap::new(text);
            for (i, e) in errors.iter().enumerate() {
                prop_assert!(!e.message.is_empty());
                // And each message short, whatever the length of the line or the words.
                let rendered = map.render(e);
                prop_assert!(rendered.len() <= 2000, "{} bytes: {}", rendered.len(), rendered);
                let Some(span) = e.span else {
                    prop_assert!(i == MAX_ERRORS && e.message.starts_with("… and "), "{:?}", e);
                    continue;
                };
                prop_assert!(span.start <= span.end && span.end <= text.len(), "{:?} outside {:?}", e, text);
                prop_assert!(text.is_char_boundary(span.start) && text.is_char_boundary(span.end));
                prop_assert_eq!(map.line_col_of(e), e.line_col(text));
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn random_token_streams_never_break_the_checker(tokens in proptest::collection::vec(token(), 0..40), glue in proptest::collection::vec(prop_oneof![Just(" "), Just(""), Just("\n")], 40)) {
        let mut text = String::new();
        for (t, g) in tokens.iter().zip(glue.iter().cycle()) {
            text.push_str(t);
            text.push_str(g);
        }
        check_total(&text)?;
    }

    #[test]
    fn mutated_queries_never_break_the_checker(seed in any::<prop::sample::Index>(), mutations in proptest::collection::vec(mutation(), 1..4)) {
        let all = seeds();
        let mut text = all[seed.index(all.len())].clone();
        for m in &mutations {
            text = apply(&text, m);
        }
        check_total(&text)?;
    }

    #[test]
    fn random_bytes_never_break_the_checker(text in "\\PC{0,60}") {
        check_total(&text)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 150, ..ProptestConfig::default() })]

    /// Long inputs: thousands of tokens, long lines, many statements. Errors stay capped and
    /// messages short (see `check_total`).
    #[test]
    fn long_token_streams_never_break_the_checker(tokens in proptest::collection::vec(token(), 0..3000), newlines in any::<bool>()) {
        let glue = if newlines { "\n" } else { " " };
        check_total(&tokens.join(glue))?;
    }

    #[test]
    fn long_random_text_never_breaks_the_checker(text in "\\PC{0,5000}") {
        check_total(&text)?;
    }

    #[test]
    fn many_mutated_statements_never_break_the_checker(
        seed in any::<prop::sample::Index>(),
        copies in 1..400usize,
        mutations in proptest::collection::vec(mutation(), 1..4),
    ) {
        let all = seeds();
        let mut one = all[seed.index(all.len())].clone();
        for m in &mutations {
            one = apply(&one, m);
        }
        check_total(&vec![one; copies].join(";"))?;
    }
}

#[test]
fn every_seed_is_valid() {
    for s in seeds() {
        assert!(check_program(&s).is_ok(), "{s}");
    }
}

/// A random expression tree, rendered with as few parentheses as the precedence allows.
#[derive(Clone, Debug)]
enum Tree {
    Leaf(String),
    Call(Vec<Tree>),
    Neg(Box<Tree>),
    Not(Box<Tree>),
    Bin(&'static str, Box<Tree>, Box<Tree>),
}

const OPS: &[(&str, u8)] = &[
    ("or", 1),
    ("and", 2),
    ("=", 4),
    ("<>", 4),
    ("<", 4),
    (">=", 4),
    ("||", 5),
    ("+", 6),
    ("-", 6),
    ("*", 7),
    ("/", 7),
];

fn level(op: &str) -> u8 {
    OPS.iter().find(|(o, _)| *o == op).map_or(0, |&(_, l)| l)
}

fn tree() -> impl Strategy<Value = Tree> {
    let leaf = prop_oneof!["[a-e]".prop_map(Tree::Leaf), (0..100i64).prop_map(|n| Tree::Leaf(n.to_string()))];
    leaf.prop_recursive(5, 40, 3, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..3).prop_map(Tree::Call),
            inner.clone().prop_map(|t| Tree::Neg(Box::new(t))),
            inner.clone().prop_map(|t| Tree::Not(Box::new(t))),
            (proptest::sample::select(OPS), inner.clone(), inner).prop_map(|((op, _), l, r)| Tree::Bin(
                op,
                Box::new(l),
                Box::new(r)
            )),
        ]
    })
}

impl Tree {
    /// Binding strength of the node's own operator (9 for atoms).
    fn level(&self) -> u8 {
        match self {
            Tree::Leaf(_) | Tree::Call(_) => 9,
            Tree::Neg(_) => 8,
            Tree::Not(_) => 3,
            Tree::Bin(op, ..) => level(op),
        }
    }

    fn render(&self) -> String {
        let wrap = |t: &Tree, parens: bool| if parens { format!("( {} )", t.render()) } else { t.render() };
        match self {
            Tree::Leaf(s) => s.clone(),
            Tree::Call(args) => format!("f( {} )", args.iter().map(Tree::render).collect::<Vec<_>>().join(" , ")),
            Tree::Neg(x) => format!("- {}", wrap(x, x.level() < 8)),
            Tree::Not(x) => format!("not {}", wrap(x, x.level() < 3)),
            Tree::Bin(op, l, r) => {
                let p = level(op);
                // Left-associative, and comparisons do not chain.
                let left_parens = l.level() < p || (p == 4 && l.level() == 4);
                format!("{} {op} {}", wrap(l, left_parens), wrap(r, r.level() <= p))
            }
        }
    }

    /// Fully parenthesised, as `show` prints the parsed tree.
    fn expected(&self) -> String {
        match self {
            Tree::Leaf(s) => s.clone(),
            Tree::Call(args) => format!("f({})", args.iter().map(Tree::expected).collect::<Vec<_>>().join(",")),
            Tree::Neg(x) => format!("(-{})", x.expected()),
            Tree::Not(x) => format!("(not {})", x.expected()),
            Tree::Bin(op, l, r) => format!("({} {op} {})", l.expected(), r.expected()),
        }
    }
}

fn show(e: &pql_core::pql::ast::Expr) -> String {
    use pql_core::pql::ast::ExprKind as K;
    use pql_core::pql::typed::BinOp as B;
    match &e.kind {
        K::Int(v) => v.to_string(),
        K::Name(n) => n.name.clone(),
        K::Call { args, .. } => format!("f({})", args.iter().map(show).collect::<Vec<_>>().join(",")),
        K::Neg(x) => format!("(-{})", show(x)),
        K::Not(x) => format!("(not {})", show(x)),
        K::Binary { op, lhs, rhs, .. } => {
            let op = match op {
                B::Or => "or",
                B::And => "and",
                B::Eq => "=",
                B::Ne => "<>",
                B::Lt => "<",
                B::Ge => ">=",
                B::Concat => "||",
                B::Add => "+",
                B::Sub => "-",
                B::Mul => "*",
                B::Div => "/",
                other => panic!("{other:?} is never generated"),
            };
            format!("({} {op} {})", show(lhs), show(rhs))
        }
        other => format!("<{other:?}>"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    /// Printing a tree with minimal parentheses and parsing it back gives the same tree: the
    /// parser follows the precedence and associativity of docs/language/statements.md.
    #[test]
    fn precedence_round_trips(t in tree()) {
        let text = format!("select count({}) from x='A'", t.render());
        let (statements, errors) = pql_core::pql::parser::parse_program(&text);
        prop_assert!(errors.is_empty(), "{}: {:?}", text, errors);
        prop_assert_eq!(show(&statements[0].selectors[0].expr), t.expected(), "{}", text);
    }
}
