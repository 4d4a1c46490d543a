//! pql's own fuzzer, on the stable toolchain (no cargo-fuzz): a seeded generator and mutator
//! over a corpus harvested from the examples, the function catalogue and the tests, driving
//! three targets:
//!
//! - `query`: the parser and checker (`check_program`) on mutated, generated and random text;
//! - `range`: the range reader in every game and syntax, and the board and dead-card readers;
//! - `run`: `compile_program` (prepare) and a one-trial run of what compiles;
//! - `simulate` (asked for by name, not in the default list): simulate states and histories,
//!   generated, mutated and long (thousands of observed actions, ranges nested deep),
//!   compiled into spots under a 10 s time limit.
//!
//! ```text
//! cargo run --release -p pql_core --example fuzz -- [--minutes M | --inputs N] [--seed S]
//!     [--targets query,range,run,simulate] [--cap SECONDS] [--slow SECONDS] [--out DIR]
//! ```
//!
//! The driver runs the inputs in a child process (this program with `--worker`), which names
//! each input before it runs it, so a crash (a stack overflow is a signal, not a panic) or an
//! input that runs past `--cap` seconds is pinned to its input; the child is then restarted
//! after it. Inputs are a pure function of (seed, number), so any finding is replayed with
//! `--replay N`. Panics are caught per input; every error must point inside its text and say
//! what it says in a bounded message. Findings are written to `--out`
//! (`target/fuzz` by default) with a summary (`summary.txt`); the exit code is 1 when there
//! are any.

use pql_core::error::MAX_ERRORS;
use pql_core::functions::catalog;
use pql_core::games::Game;
use pql_core::interrupt::Interrupt;
use pql_core::plan::compile::compile_program;
use pql_core::pql::{check_program, KEYWORDS};
use pql_core::range::{parse_board, parse_board_pattern, parse_dead, parse_range, Macros, Syntax};
use pql_core::run::runner::{self, RunOptions};
use pql_core::simulate::program::compile_program_stopping;
use pql_core::PqlError;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{BufRead, BufReader, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

// ---------------------------------------------------------------------------------------------
// Randomness: SplitMix64, seeded per input so that input n of seed s is always the same.

struct Rng(u64);

impl Rng {
    fn for_input(seed: u64, n: u64) -> Rng {
        let mut r = Rng(seed ^ n.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        r.next();
        r
    }
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn chance(&mut self, one_in: usize) -> bool {
        self.below(one_in) == 0
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
    /// A size spread over orders of magnitude: mostly small, now and then up to `max`.
    fn size(&mut self, max: usize) -> usize {
        let bits = self.below(usize::BITS as usize - max.leading_zeros() as usize + 1);
        self.below(1usize << bits).min(max)
    }
}

// ---------------------------------------------------------------------------------------------
// Corpus: what the project itself writes.

struct Corpus {
    queries: Vec<String>,
    ranges: Vec<String>,
    boards: Vec<String>,
}

/// Where the corpus is read from: the repository, or `PQL_FUZZ_ROOT` (a copy, so that a long
/// campaign reads the same corpus while the repository changes).
fn repo_root() -> PathBuf {
    std::env::var_os("PQL_FUZZ_ROOT").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("the crate is in the repository").to_path_buf(),
        PathBuf::from,
    )
}

/// The quoted texts of `text` (between single or double quotes, on one line).
fn quoted(text: &str, out: &mut Vec<String>) {
    for line in text.lines() {
        for q in ['\'', '"'] {
            let mut parts = line.split(q);
            parts.next();
            while let Some(inside) = parts.next() {
                if !inside.is_empty() && inside.len() < 300 {
                    out.push(inside.replace("\\'", "'"));
                }
                parts.next();
            }
        }
    }
}

impl Corpus {
    fn load() -> Corpus {
        let root = repo_root();
        let mut queries: Vec<String> = catalog().iter().map(|f| f.example.to_string()).collect();
        let mut literals = Vec::new();
        let mut files: Vec<PathBuf> = Vec::new();
        for dir in ["examples", "rust_core/tests", "tests"] {
            if let Ok(entries) = std::fs::read_dir(root.join(dir)) {
                files.extend(entries.flatten().map(|e| e.path()));
            }
        }
        files.sort();
        for path in files {
            let Ok(text) = std::fs::read_to_string(&path) else { continue };
            if path.extension().is_some_and(|e| e == "pql") {
                queries.extend(text.split(';').map(str::trim).filter(|s| s.contains("select")).map(str::to_string));
            }
            quoted(&text, &mut literals);
        }
        for lit in &literals {
            if lit.to_ascii_lowercase().contains("select ") {
                queries.push(lit.clone());
            }
        }
        // Range-like literals: the values of from entries, and short texts of range characters.
        let mut ranges: Vec<String> = Vec::new();
        for q in &queries {
            quoted(q, &mut ranges);
        }
        ranges.extend(literals.iter().filter(|l| l.len() <= 60 && !l.contains(' ') && !l.is_empty()).cloned());
        ranges.extend(
            [
                "AKs",
                "QQ+",
                "KQs-K9s",
                "TT-77",
                "15%",
                "group1",
                "suited and connected",
                "AA@10, KK@5",
                "AwKw",
                "RR**",
                "AA:xxyy",
                "$ds",
                "(3-3-)45678",
                "A2**",
                "*",
                "!AA",
                "pair not QQ",
                "5%-10%6h",
                "$1G",
                "AA$ds$np",
                "[K-T][9-7]*",
            ]
            .map(str::to_string),
        );
        ranges.sort();
        ranges.dedup();
        queries.sort();
        queries.dedup();
        let boards = [
            "",
            "Kh7c2d",
            "[K-T][9-7]*",
            "[2-9]****",
            "*****",
            "AsKs",
            "AxKx*",
            "Kw*Kx",
            "Q",
            "Qs Jd",
            "[K-Q]",
            "AsKx",
        ]
        .map(str::to_string)
        .to_vec();
        Corpus { queries, ranges, boards }
    }
}

// ---------------------------------------------------------------------------------------------
// Generating inputs

const SYMBOLS: &[&str] = &[
    "(", ")", ",", ";", "=", "<>", "!=", "<", "<=", ">", ">=", "+", "-", "*", "/", "||", "'", "\"", "/*", "*/", "--",
    "\n", " ", ".", "@", ":", "!", "[", "]", "$", "%", "&", "|", "\t", "\u{0}", "é", "🂡", "\u{202e}",
];
const RANGE_BITS: &[&str] = &[
    "A", "K", "Q", "J", "T", "9", "2", "s", "h", "d", "c", "x", "y", "w", "z", "R", "O", "*", "+", "-", "[", "]", ",",
    ":", "!", "(", ")", "@", "%", "$", "ds", "np", "0G", " ", "and", "or", "not", "to", "suited", "pair", "group",
    "6h", "5", "0", ".",
];
const STREETS: &[&str] = &["preflop", "flop", "turn", "river", "third", "fourth", "fifth", "sixth", "seventh"];
const HAND_TYPES: &[&str] =
    &["highcard", "pair", "twopair", "trips", "straight", "flush", "fullhouse", "quads", "straightflush"];
const SELECTORS: &[&str] = &["avg", "count", "histogram", "max", "min"];
const PLAYERS: &[&str] = &["hero", "villain", "p3", "p4"];

fn game_names() -> Vec<&'static str> {
    Game::all_names().collect()
}

/// An expression of depth at most `depth`, built from the catalogue's functions.
fn expr(r: &mut Rng, depth: u32) -> String {
    if depth == 0 || r.chance(3) {
        return match r.below(8) {
            0 => r.below(1000).to_string(),
            1 => format!("{}.{}", r.below(10), r.below(100)),
            2 => format!("'{}'", r.pick(&["As", "AsKsQsJsTs", "A", "x", ""])),
            3 => (*r.pick(STREETS)).to_string(),
            4 => (*r.pick(HAND_TYPES)).to_string(),
            5 => (*r.pick(PLAYERS)).to_string(),
            6 => (*r.pick(&["true", "false"])).to_string(),
            _ => call(r, 0),
        };
    }
    match r.below(6) {
        0 => format!(
            "({} {} {})",
            expr(r, depth - 1),
            r.pick(&["+", "-", "*", "/", "=", "<>", "<", ">=", "and", "or", "||"]),
            expr(r, depth - 1)
        ),
        1 => format!("not {}", expr(r, depth - 1)),
        2 => {
            let arms: Vec<String> =
                (0..=r.below(3)).map(|_| format!("when {} then {}", expr(r, depth - 1), expr(r, depth - 1))).collect();
            let otherwise = if r.chance(2) { format!(" else {}", expr(r, depth - 1)) } else { String::new() };
            format!("case {}{otherwise} end", arms.join(" "))
        }
        3 => format!("-{}", expr(r, depth - 1)),
        _ => call(r, depth - 1),
    }
}

/// A call of a catalogue function with arguments of about the right types.
fn call(r: &mut Rng, depth: u32) -> String {
    let f = r.pick(catalog());
    let args: Vec<String> = f
        .params
        .iter()
        .map(|p| match p.ty.name() {
            "player" => (*r.pick(PLAYERS)).to_string(),
            "street" => (*r.pick(STREETS)).to_string(),
            "handtype" => (*r.pick(HAND_TYPES)).to_string(),
            "flophandcategory" => (*r.pick(&["flopnothing", "floppair", "flopset", "flopstraight"])).to_string(),
            "range" | "boardrange" | "string" => {
                format!("'{}'", r.pick(&["AKs", "QQ+", "K**", "As", "AsKs", "2c3c4c5c6c", "full", "*"]))
            }
            _ if r.chance(4) && depth > 0 => expr(r, depth),
            _ => r.below(12).to_string(),
        })
        .collect();
    format!("{}({})", f.name, args.join(", "))
}

/// A statement built from the grammar: selectors, a from clause with real games and ranges,
/// sometimes a where clause.
fn statement(r: &mut Rng, corpus: &Corpus) -> String {
    let selectors: Vec<String> = (0..=r.below(3))
        .map(|_| {
            let alias = if r.chance(3) { format!(" as c{}", r.below(9)) } else { String::new() };
            format!("{}({}){alias}", r.pick(SELECTORS), expr(r, 3))
        })
        .collect();
    let games = game_names();
    let mut from = vec![format!("game='{}'", r.pick(&games))];
    if r.chance(4) {
        from.push(format!("syntax='{}'", r.pick(&["classic", "generic"])));
    }
    for p in &PLAYERS[..=r.below(PLAYERS.len())] {
        from.push(format!("{p}='{}'", range_text(r, corpus)));
    }
    if r.chance(3) {
        from.push(format!("board='{}'", r.pick(&corpus.boards)));
    }
    if r.chance(6) {
        from.push(format!("dead='{}'", r.pick(&["Qs", "Qs Jd", "K", "[K-Q]"])));
    }
    let filter = if r.chance(3) { format!(" where {}", expr(r, 2)) } else { String::new() };
    format!("select {} from {}{filter}", selectors.join(", "), from.join(", "))
}

/// A range: from the corpus, built from range characters, or combined.
fn range_text(r: &mut Rng, corpus: &Corpus) -> String {
    match r.below(5) {
        0 | 1 => r.pick(&corpus.ranges).clone(),
        2 => (0..=r.size(12)).map(|_| *r.pick(RANGE_BITS)).collect(),
        3 => {
            let parts: Vec<&String> = (0..=r.below(4)).map(|_| r.pick(&corpus.ranges)).collect();
            let ops = [", ", ":", "!", " and ", " or ", " not "];
            let mut out = parts[0].clone();
            for p in &parts[1..] {
                let op: &&str = r.pick(&ops);
                out.push_str(op);
                out.push_str(p);
            }
            out
        }
        _ => {
            let base = r.pick(&corpus.ranges).clone();
            mutate(r, base, RANGE_BITS)
        }
    }
}

/// Character- and token-level mutations of `text`.
fn mutate(r: &mut Rng, mut text: String, bits: &[&str]) -> String {
    for _ in 0..=r.below(4) {
        let cut = |t: &String, at: usize| (0..=at.min(t.len())).rev().find(|&i| t.is_char_boundary(i)).unwrap_or(0);
        let a = cut(&text, r.below(text.len() + 1));
        let b = cut(&text, a + r.size(16));
        let (a, b) = (a.min(b), a.max(b));
        match r.below(6) {
            0 => text.replace_range(a..b, ""),
            1 => {
                let bit: &&str = r.pick(bits);
                text.insert_str(a, bit);
            }
            2 => {
                let piece = text[a..b].to_string();
                text.insert_str(b, &piece);
            }
            3 => {
                let bit: &&str = r.pick(bits);
                text.replace_range(a..b, bit);
            }
            4 => {
                let word = r.pick(KEYWORDS);
                text.insert_str(a, &format!(" {word} "));
            }
            _ => {
                let c = char::from_u32(r.below(0x11_0000) as u32).unwrap_or('\u{fffd}');
                text.insert(a, c);
            }
        }
    }
    text
}

/// Deep and long shapes, 10^2 to 10^6 levels or parts: what a stack or a quadratic loop fails on.
fn deep(r: &mut Rng, range: bool) -> String {
    // 10^2 to 10^5 levels or parts; one in ten up to 10^6.
    let top = if r.chance(10) { 5 } else { 4 };
    let n = 10usize.pow(2 + r.below(top - 1) as u32) * (1 + r.below(9)) / 9;
    let (open, leaf, close, sep) = if range {
        *r.pick(&[
            ("(", "AA", ")", ","),
            ("!", "AA", "", ""),
            ("not ", "AA", "", ""),
            ("(!", "KK", ")", ""),
            ("", "AA", "", ":"),
            ("", "AKs", "", ","),
            ("", "AsKsQsJs", "", "!"),
            ("", "A", "", " and "),
            ("[", "A", "]", ""),
        ])
    } else {
        *r.pick(&[
            ("(", "1", ")", ""),
            ("-", "1", "", ""),
            ("not ", "true", "", ""),
            ("", "1", "", " + "),
            ("", "count(winsHi(hero))", "", ", "),
            ("", "when true then 1", "", " "),
            ("abs(", "1", ")", ""),
            ("", "select avg(1) from h='AA'", "", ";"),
            ("", "h='AA'", "", ", "),
        ])
    };
    if sep.is_empty() {
        format!("{}{leaf}{}", open.repeat(n), close.repeat(n))
    } else {
        vec![leaf; n].join(sep)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Target {
    Query,
    Range,
    Run,
    Simulate,
}

impl Target {
    fn name(self) -> &'static str {
        match self {
            Target::Query => "query",
            Target::Range => "range",
            Target::Run => "run",
            Target::Simulate => "simulate",
        }
    }
    fn from_name(s: &str) -> Option<Target> {
        [Target::Query, Target::Range, Target::Run, Target::Simulate].into_iter().find(|t| t.name() == s)
    }
}

struct Input {
    target: Target,
    text: String,
    game: Game,
    syntax: Syntax,
    /// How the input was made, for the summary.
    kind: &'static str,
}

fn make_input(seed: u64, n: u64, targets: &[Target], corpus: &Corpus) -> Input {
    let mut r = Rng::for_input(seed, n);
    let target = targets[(n % targets.len() as u64) as usize];
    // Every game and syntax in turn, so each gets its share.
    let game = Game::ALL[(n / targets.len() as u64 % Game::ALL.len() as u64) as usize];
    let syntax = Syntax::ALL[r.below(2)];
    let (kind, text) = match target {
        Target::Query | Target::Run => {
            let quick = target == Target::Run;
            match r.below(if quick { 4 } else { 7 }) {
                0 | 1 => ("grammar", statement(&mut r, corpus)),
                2 => ("corpus", r.pick(&corpus.queries).clone()),
                3 => ("mutated", {
                    let base = r.pick(&corpus.queries).clone();
                    mutate(&mut r, base, SYMBOLS)
                }),
                4 => ("mutated", {
                    let base = statement(&mut r, corpus);
                    mutate(&mut r, base, SYMBOLS)
                }),
                5 if r.chance(4) => ("deep", {
                    let inner = deep(&mut r, false);
                    match r.below(3) {
                        0 => format!("select avg({inner}) from h='AA'"),
                        1 => inner,
                        _ => format!("select count(winsHi(h)) from h='{}', v='KK'", deep(&mut r, true)),
                    }
                }),
                _ => ("random", {
                    let len = r.size(2000);
                    (0..len).map(|_| char::from_u32(r.below(0x800) as u32).unwrap_or(' ')).collect()
                }),
            }
        }
        Target::Range => match r.below(8) {
            0 if r.chance(3) => ("deep", deep(&mut r, true)),
            0 | 1 => ("corpus", r.pick(&corpus.ranges).clone()),
            2..=4 => ("generated", range_text(&mut r, corpus)),
            5 => ("board", r.pick(&corpus.boards).clone()),
            6 => ("mutated", {
                let base = r.pick(&corpus.boards).clone();
                mutate(&mut r, base, RANGE_BITS)
            }),
            _ => ("random", (0..r.size(200)).map(|_| char::from_u32(r.below(0x3000) as u32).unwrap_or(' ')).collect()),
        },
        Target::Simulate => match r.below(6) {
            0 if r.chance(3) => ("deep", long_simulate(&mut r)),
            0..=2 => ("generated", simulate_statement(&mut r)),
            3 | 4 => ("mutated", {
                let base = simulate_statement(&mut r);
                mutate(&mut r, base, SYMBOLS)
            }),
            _ => ("corpus", format!("{}, history='{}'", SIMULATE_SPOT, history(&mut r, 6))),
        },
    };
    Input { target, text, game, syntax, kind }
}

const SIMULATE_SPOT: &str = "simulate fold, call, raise from game='holdem', hero='AhKh', \
     villain='QQ+@90, 22-JJ@40, AK@80, *@5', board='Kd7c2h', pot=10, tocall=2, bet=2, stakes='limit'";
const SIMULATE_ITEMS: &[&str] = &[
    "pot=10",
    "tocall=2",
    "bet=2",
    "tocall=20",
    "pot=-4",
    "bet='2'",
    "raises=3",
    "raises=9",
    "stakes='limit'",
    "stakes='nolimit'",
    "folded='v2'",
    "to_act='v2, villain'",
    "game='shortdeck'",
    "game='omahahi'",
    "board='Kd7c2h'",
    "board='Kd7c2hQs'",
    "board='Kd7c2hQs3c'",
    "board='Kd'",
    "dead='2c3c'",
    "v2='*'",
    "v2='AA'",
    "villain.raise_threshold=0.8",
    "call_threshold=2",
    "x=1",
    "stop='loki'",
    "choose='mixed'",
];

/// An observed action: player, action and street, right or wrong.
fn history(r: &mut Rng, most: usize) -> String {
    let players = ["villain", "hero", "v2", "nobody", "VILLAIN", ""];
    let actions = ["fold", "call", "raise", "check", "bet", "allin", ""];
    let streets = ["preflop", "flop", "turn", "river", "x", ""];
    (0..r.size(most))
        .map(|_| format!("{}:{}@{}", r.pick(&players), r.pick(&actions), r.pick(&streets)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A simulate statement of candidate actions and any of its keys.
fn simulate_statement(r: &mut Rng) -> String {
    let actions = ["fold", "call", "raise", "check", "bet", "allin"];
    let chosen: Vec<&str> = (0..r.size(4)).map(|_| *r.pick(&actions)).collect();
    let hero = *r.pick(&["AhKh", "AA", "QQ+", "*", "AhKh@50", "Kd"]);
    let villain = *r.pick(&["QQ+@90, 22-JJ@40, AK@80, *@5", "KK", "*", "15%", "AA"]);
    let mut items = vec![format!("hero='{hero}'"), format!("villain='{villain}'")];
    for _ in 0..r.size(8) {
        if r.chance(4) {
            items.push(format!("history='{}'", history(r, 6)));
        } else {
            items.push((*r.pick(SIMULATE_ITEMS)).to_string());
        }
    }
    format!("simulate {} from {}", chosen.join(", "), items.join(", "))
}

/// A long simulate statement: thousands of observed actions, or a range nested deep.
fn long_simulate(r: &mut Rng) -> String {
    let n = 100 + r.below(5_000);
    if r.chance(2) {
        let actions = ["raise", "call", "check"];
        let entries: Vec<String> = (0..n).map(|_| format!("villain:{}@flop", r.pick(&actions))).collect();
        format!("{SIMULATE_SPOT}, history='{}'", entries.join(", "))
    } else {
        format!("simulate call from hero='{}AA{}', villain='KK', pot=4, tocall=2, bet=2", "(".repeat(n), ")".repeat(n))
    }
}

// ---------------------------------------------------------------------------------------------
// Running one input and judging what it gave

/// What an error must be: inside the text, with a message of bounded length.
fn judge_errors(text: &str, errors: &[PqlError]) -> Result<(), String> {
    if errors.is_empty() {
        return Err("an empty list of errors".into());
    }
    if errors.len() > MAX_ERRORS + 1 {
        return Err(format!("{} errors (at most {} + a count)", errors.len(), MAX_ERRORS));
    }
    for e in errors {
        if let Some(s) = e.span {
            if s.start > s.end || s.end > text.len() {
                return Err(format!(
                    "span {}..{} outside a text of {} bytes: {}",
                    s.start,
                    s.end,
                    text.len(),
                    e.message
                ));
            }
        }
        if e.message.chars().count() > 600 {
            return Err(format!("a message of {} characters", e.message.chars().count()));
        }
        if e.message.is_empty() {
            return Err("an empty message".into());
        }
    }
    Ok(())
}

/// Runs `input`: Ok(true) accepted, Ok(false) refused with clean errors, Err a finding.
fn run_input(input: &Input) -> Result<bool, String> {
    let text = input.text.as_str();
    match input.target {
        Target::Query => match check_program(text) {
            Ok(_) => Ok(true),
            Err(errors) => judge_errors(text, &errors).map(|()| false),
        },
        Target::Range => {
            let mut accepted = false;
            match parse_range(text, input.game, input.syntax) {
                Ok(range) if range.is_empty() => return Err("an empty range accepted".into()),
                Ok(_) => accepted = true,
                Err(e) => judge_errors(text, &[e])?,
            }
            if !input.game.is_stud() {
                // The board and dead-card readers on the same text, one of them in turn (a
                // dead-card pattern of many variables may try millions of cards).
                let result = match text.len() % 3 {
                    0 => parse_board(text, input.game).map(|_| ()),
                    1 => parse_board_pattern(text, input.game).map(|_| ()),
                    _ => parse_dead(text, input.game).map(|_| ()),
                };
                {
                    match result {
                        Ok(()) => accepted = true,
                        Err(e) => judge_errors(text, &[e])?,
                    }
                }
            }
            Ok(accepted)
        }
        Target::Simulate => {
            let limit = Some(Duration::from_secs(10));
            let interrupt = Interrupt::new(None, limit);
            match compile_program_stopping(text, (1, 1), &Macros::none(), &[], &interrupt) {
                Ok(_) => Ok(true),
                Err(errors) => judge_errors(text, &errors).map(|()| false),
            }
        }
        Target::Run => {
            let statements = match compile_program(text) {
                Ok(s) => s,
                Err(errors) => return judge_errors(text, &errors).map(|()| false),
            };
            let Some(first) = statements.first() else { return Ok(true) };
            let opts = RunOptions {
                trials: 1,
                seed: Some(1),
                exact: Some(false),
                threads: 1,
                time_limit: Some(Duration::from_secs(2)),
                precision: None,
                precision_after: None,
                item_limit: None,
                chunks: None,
                items: None,
            };
            let plan = std::sync::Arc::new(first.plan.clone());
            let progress = runner::start(&plan, &opts).wait();
            match &progress.error {
                None if progress.done => Ok(true),
                None => Err("the run ended without being done".into()),
                Some(e) => {
                    // A run's errors are about the statement, never internal.
                    if e.message.starts_with("internal error") {
                        Err(format!("internal error: {}", e.message))
                    } else {
                        judge_errors(text, std::slice::from_ref(e)).map(|()| false)
                    }
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The worker: runs inputs [from, to), naming each on stdout before it runs it.

fn worker(seed: u64, from: u64, to: u64, targets: &[Target]) {
    // Panics are caught and reported per input; the default hook's message is not wanted.
    std::panic::set_hook(Box::new(|_| {}));
    let corpus = Corpus::load();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for n in from..to {
        let input = make_input(seed, n, targets, &corpus);
        let _ = writeln!(out, "> {n}");
        let _ = out.flush();
        let started = Instant::now();
        let result = catch_unwind(AssertUnwindSafe(|| run_input(&input)));
        let took = started.elapsed();
        let (outcome, message) = match result {
            Ok(Ok(true)) => ("ok", String::new()),
            Ok(Ok(false)) => ("error", String::new()),
            Ok(Err(finding)) => ("invariant", finding),
            Err(panic) => {
                let message = panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_string()))
                    .unwrap_or_default();
                ("panic", message)
            }
        };
        let message = message.replace('\n', " ");
        let _ =
            writeln!(out, "= {n} {} {} {outcome} {:.3} {message}", input.target.name(), input.kind, took.as_secs_f64());
    }
    let _ = out.flush();
}

// ---------------------------------------------------------------------------------------------
// The driver

struct Options {
    seed: u64,
    inputs: Option<u64>,
    minutes: Option<f64>,
    targets: Vec<Target>,
    cap: Duration,
    slow: Duration,
    out: PathBuf,
}

#[derive(Default)]
struct Tally {
    /// (target, kind, outcome) -> count.
    counts: BTreeMap<(String, String, String), u64>,
    findings: Vec<String>,
    /// Inputs that took longer than `--slow` (not failures: the time limit is the cap).
    slow: Vec<String>,
}

fn child(opts: &Options, from: u64, to: u64) -> std::process::Child {
    let exe = std::env::current_exe().expect("this program's path");
    let targets: Vec<&str> = opts.targets.iter().map(|t| t.name()).collect();
    Command::new(exe)
        .args(["--worker", "--seed", &opts.seed.to_string(), "--from", &from.to_string(), "--to", &to.to_string()])
        .args(["--targets", &targets.join(",")])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start a worker")
}

/// Writes a finding: its input (to replay with `--replay N`) and what happened.
fn record(opts: &Options, tally: &mut Tally, n: u64, what: &str, corpus: &Corpus) {
    let input = make_input(opts.seed, n, &opts.targets, corpus);
    let path = opts.out.join(format!("finding-{}-{n}.txt", opts.seed));
    let body = format!(
        "seed {} input {n} target {} game {} syntax {} kind {}\n{what}\n--- input ({} bytes) ---\n{}\n",
        opts.seed,
        input.target.name(),
        input.game.name(),
        input.syntax.name(),
        input.kind,
        input.text.len(),
        input.text
    );
    let _ = std::fs::write(&path, body);
    tally.findings.push(format!("input {n} ({}, {}): {what} [{}]", input.target.name(), input.kind, path.display()));
}

fn drive(opts: &Options) -> Tally {
    let corpus = Corpus::load();
    let _ = std::fs::create_dir_all(&opts.out);
    let started = Instant::now();
    let deadline = opts.minutes.map(|m| started + Duration::from_secs_f64(m * 60.0));
    let end = opts.inputs.unwrap_or(u64::MAX);
    let mut tally = Tally::default();
    let mut next = 0u64;
    let batch = 20_000u64;
    while next < end && deadline.is_none_or(|d| Instant::now() < d) {
        let to = (next + batch).min(end);
        let mut process = child(opts, next, to);
        let stdout = process.stdout.take().expect("piped");
        let (send, lines) = mpsc::channel::<String>();
        let reader = std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        let mut current: Option<u64> = None;
        let mut finished = next;
        loop {
            match lines.recv_timeout(opts.cap) {
                Ok(line) => {
                    if let Some(n) = line.strip_prefix("> ") {
                        current = n.parse().ok();
                    } else if let Some(rest) = line.strip_prefix("= ") {
                        let mut words = rest.splitn(6, ' ');
                        let mut word = || words.next().unwrap_or("").to_string();
                        let (n, target, kind, outcome, seconds, message) =
                            (word(), word(), word(), word(), word(), word());
                        let n: u64 = n.parse().unwrap_or(0);
                        if matches!(outcome.as_str(), "panic" | "invariant") {
                            record(opts, &mut tally, n, &format!("{outcome}: {message}"), &corpus);
                        }
                        let seconds: f64 = seconds.parse().unwrap_or(0.0);
                        if seconds > opts.slow.as_secs_f64() {
                            tally.slow.push(format!("input {n} ({target}/{kind}, {outcome}) took {seconds:.2} s"));
                        }
                        *tally.counts.entry((target, kind, outcome)).or_default() += 1;
                        current = None;
                        finished = n + 1;
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    let _ = process.kill();
                    if let Some(n) = current {
                        record(opts, &mut tally, n, &format!("hang: still running after {:?}", opts.cap), &corpus);
                        count_lost(&mut tally, opts, n, "hang", &corpus);
                        finished = n + 1;
                    }
                    break;
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    let status = process.wait().ok();
                    if let Some(status) = status.filter(|s| !s.success()) {
                        // The input it was running, or (dead before naming one) the next.
                        let n = current.unwrap_or(finished);
                        record(opts, &mut tally, n, &format!("crash: the process ended with {status}"), &corpus);
                        count_lost(&mut tally, opts, n, "crash", &corpus);
                        finished = n + 1;
                    }
                    break;
                }
            }
        }
        let _ = process.kill();
        let _ = process.wait();
        let _ = reader.join();
        next = finished.max(next + 1);
        eprint!("\r{next} inputs, {} findings, {:.0} s   ", tally.findings.len(), started.elapsed().as_secs_f64());
    }
    eprintln!();
    tally.counts.entry(("*".into(), "*".into(), "wall seconds".into())).or_insert(started.elapsed().as_secs());
    tally
}

fn count_lost(tally: &mut Tally, opts: &Options, n: u64, outcome: &str, corpus: &Corpus) {
    let input = make_input(opts.seed, n, &opts.targets, corpus);
    *tally.counts.entry((input.target.name().into(), input.kind.into(), outcome.into())).or_default() += 1;
}

fn summary(opts: &Options, tally: &Tally) -> String {
    let mut by_target: BTreeMap<&str, BTreeMap<&str, u64>> = BTreeMap::new();
    let mut total = 0;
    let mut wall = 0;
    for ((target, _kind, outcome), count) in &tally.counts {
        if target == "*" {
            wall = *count;
            continue;
        }
        *by_target.entry(target).or_default().entry(outcome).or_default() += count;
        total += count;
    }
    let mut s = format!("seed {}: {total} inputs in {wall} s\n", opts.seed);
    for (target, outcomes) in &by_target {
        let n: u64 = outcomes.values().sum();
        let parts: Vec<String> = outcomes.iter().map(|(o, c)| format!("{o} {c}")).collect();
        let _ = writeln!(s, "  {target}: {n} ({})", parts.join(", "));
    }
    let mut kinds: BTreeMap<(&str, &str), u64> = BTreeMap::new();
    for ((target, kind, _), count) in &tally.counts {
        if target != "*" {
            *kinds.entry((target, kind)).or_default() += count;
        }
    }
    let parts: Vec<String> = kinds.iter().map(|((t, k), c)| format!("{t}/{k} {c}")).collect();
    let _ = writeln!(s, "  by kind: {}", parts.join(", "));
    let _ = writeln!(s, "  findings: {}", tally.findings.len());
    for f in &tally.findings {
        let _ = writeln!(s, "    {f}");
    }
    let _ = writeln!(s, "  slower than {:?}: {}", opts.slow, tally.slow.len());
    for f in tally.slow.iter().take(20) {
        let _ = writeln!(s, "    {f}");
    }
    s
}

fn parse_args() -> (Options, Option<(u64, u64)>, bool, Option<u64>) {
    let mut opts = Options {
        seed: 1,
        inputs: None,
        minutes: None,
        targets: vec![Target::Query, Target::Range, Target::Run],
        cap: Duration::from_secs(30),
        slow: Duration::from_secs(2),
        out: Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join("target").join("fuzz"),
    };
    let (mut worker, mut from, mut to, mut replay) = (false, 0, 0, None);
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    let value = |i: usize| args.get(i + 1).cloned().unwrap_or_default();
    while i < args.len() {
        match args[i].as_str() {
            "--worker" => {
                worker = true;
                i += 1;
                continue;
            }
            "--seed" => opts.seed = value(i).parse().expect("--seed N"),
            "--inputs" => opts.inputs = Some(value(i).parse().expect("--inputs N")),
            "--minutes" => opts.minutes = Some(value(i).parse().expect("--minutes M")),
            "--targets" => {
                opts.targets = value(i)
                    .split(',')
                    .map(|t| Target::from_name(t).expect("targets: query, range, run, simulate"))
                    .collect();
            }
            "--cap" => opts.cap = Duration::from_secs_f64(value(i).parse().expect("--cap SECONDS")),
            "--slow" => opts.slow = Duration::from_secs_f64(value(i).parse().expect("--slow SECONDS")),
            "--out" => opts.out = PathBuf::from(value(i)),
            "--from" => from = value(i).parse().expect("--from N"),
            "--to" => to = value(i).parse().expect("--to N"),
            "--replay" => replay = Some(value(i).parse().expect("--replay N")),
            other => panic!("unknown option {other}"),
        }
        i += 2;
    }
    if opts.inputs.is_none() && opts.minutes.is_none() {
        opts.minutes = Some(3.0);
    }
    (opts, worker.then_some((from, to)), worker, replay)
}

fn main() {
    let (opts, range, worker_mode, replay) = parse_args();
    if worker_mode {
        let (from, to) = range.unwrap_or((0, 0));
        worker(opts.seed, from, to, &opts.targets);
        return;
    }
    if let Some(n) = replay {
        let input = make_input(opts.seed, n, &opts.targets, &Corpus::load());
        println!(
            "target {} game {} syntax {} kind {}\n{}",
            input.target.name(),
            input.game.name(),
            input.syntax.name(),
            input.kind,
            input.text
        );
        let started = Instant::now();
        println!("=> {:?} in {:?}", run_input(&input), started.elapsed());
        return;
    }
    let tally = drive(&opts);
    let text = summary(&opts, &tally);
    print!("{text}");
    let _ = std::fs::write(opts.out.join(format!("summary-{}.txt", opts.seed)), &text);
    if !tally.findings.is_empty() {
        std::process::exit(1);
    }
}
