//! The PQL front end end to end: valid queries check to the expected typed statements, invalid
//! ones fail with the exact message at the exact place, and every catalogue example checks.

use pql_core::error::ErrorKind;
use pql_core::eval::HandType;
use pql_core::functions::types::Type;
use pql_core::functions::{catalog, Func};
use pql_core::games::{Game, Street};
use pql_core::plan::compile::compile_program;
use pql_core::pql::check_program;
use pql_core::pql::typed::{BinOp, CheckedStatement, SelectorName, TExprKind};
use pql_core::range::{Ordering, Syntax};
use pql_core::run::runner::{start, RunOptions};

fn check_ok(text: &str) -> Vec<CheckedStatement> {
    match check_program(text) {
        Ok(s) => s,
        Err(errors) => {
            let rendered: Vec<String> = errors.iter().map(|e| e.render(text)).collect();
            panic!("{text}\n{}", rendered.join("\n"))
        }
    }
}

fn one(text: &str) -> CheckedStatement {
    let mut s = check_ok(text);
    assert_eq!(s.len(), 1, "{text}");
    s.remove(0)
}

/// Every query written in docs/language/statements.md and the function reference, plus representative ones for every game.
const VALID: &[&str] = &[
    "select avg(6) from game='holdem'",
    "select avg(riverEquity(hero)) from game='holdem', hero='AsKs', villain='QQ+'",
    "select count(winsHi(hero)) as wins, histogram(handType(hero, river)) from hero='AKs', villain='JJ'",
    "SELECT AVG(RIVEREQUITY(HERO)) FROM GAME='HOLDEM', HERO='AA', VILLAIN='KK'",
    "select avg(riverEquity(hero)) from game='shortdeck', hero='AK', villain='99'",
    "select avg(riverEquity(hero)) from game='6plus', hero='AK', villain='99'",
    "select avg(riverEquity(hero)) from game='shortdeck_triton', hero='AK', villain='99'",
    "select avg(riverEquity(hero)) from game='omahahi', hero='AAKK', villain='*'",
    "select avg(riverEquity(hero)) from game='plo', hero='AA:xxyy', villain='*', syntax='generic'",
    "select avg(riverEquity(hero)), count(scoops(hero)) from game='omaha8', hero='AA23', villain='*'",
    "select count(winsLo(hero)) from game='o8', hero='A23K', villain='*'",
    "select avg(riverEquity(hero)) from game='omahahi5', hero='AAKKQ', villain='*'",
    "select avg(riverEquity(hero)) from game='omaha85', hero='A2345', villain='*'",
    "select avg(riverEquity(hero)) from game='studhi', hero='KsJhTd', villain='*'",
    "select count(winsHi(hero)), count(winsLo(hero)) from game='stud8', hero='A23', villain='*'",
    "select avg(riverEquity(hero)) from game='razz', hero='(3-3-)45678', villain='A345678'",
    "select histogram(handType(hero, fifth)) from game='stud', hero='AA', villain='*'",
    "select avg(riverEquity(hero)) from game='holdem', hero='AA', villain='KK', board='Ah7c2d', dead='Ks'",
    "select avg(riverEquity(hero)) from game='holdem', syntax='generic', hero='AwKw', villain='RR', board='Aw9x2y'",
    "select count(riverEquity(hero) > 0.5) from hero='AA', villain='KK', where handType(hero, flop) >= trips",
    "select count(minHandType(hero, river, flush)) from hero='AsKs', villain='*' where monotoneBoard(flop)",
    "select max(handType(hero, river)), min(handType(hero, river)) from hero='22', villain='*'",
    "select histogram(case when winsHi(hero) then 'win' when tiesHi(hero) then 'tie' else 'lose' end) from hero='AK', villain='QQ'",
    "select avg(case when winsHi(hero) then 1 end) from hero='AK', villain='QQ'",
    "select avg(case when winsHi(hero) then 1 else 0.5 end) as mixed from hero='AK', villain='QQ'",
    "select histogram(toString(handType(hero, flop)) || ' / ' || toString(handType(villain, flop))) from hero='AK', villain='QQ'",
    "select count(not winsHi(hero) and not tiesHi(hero) or winsHi(villain)) from hero='AK', villain='QQ'",
    "select avg(-2), avg(.5), avg(1 + 2 * 3 - 4 / 2), avg(- riverEquity(hero)) from hero='AA'",
    "select count(hiRating(hero, river) >= rateHiHand('AsAhAd2c3d')) from game='holdem', hero='AA', villain='KK'",
    "select count(loRating(hero, river) > rateLoHand('As2d3c4h6s')) from game='omaha8', hero='A23K', villain='*'",
    "select count(riverCard() = toCard('As')), count(maxRank(boardRanks(flop)) = toRank('a')) from hero='KK'",
    "select count(inRange(villain, 'JJ+, AK')), avg(handRankingFor(villain, '6MAX')) from hero='AA', villain='*'",
    "select count(boardInRange('[A-T][A-T]*')) from hero='AK', villain='QQ'",
    "select count(flopHandCategory(hero) >= floptoppair) from hero='AK', villain='*'",
    "select count(exactFlopHandCategory(hero, flopset)) from hero='77', villain='*'",
    "select avg(HvHEquity(hero, flop)), avg(equity(hero, turn)) from hero='AhKh', villain='JJ'",
    "select count(minEquity(hero, flop, 0.5)) from hero='AhKh', villain='JJ'",
    "select max(nthRank(2, handRanks(hero, river))) from hero='AK'",
    "/* comment */ select avg(riverEquity(hero)) -- trailing\nfrom hero='AA', villain='KK',",
    "select avg(riverEquity(hero)), from hero='AA'; ; select count(winsHi(villain)) from villain='KK';",
    "select count(flushingBoard(river)) from board='AhKhQh'",
    "select count(pairedBoard(river)) from game='holdem'",
    "select count(upCard(hero, third) = toCard('As')) from game='stud', hero='*'",
    "select avg(outs(hero, flop)) from game='holdem', hero='AhKh', villain='QQ', board='Qh7h2c'",
    "select count(3 = 3.0), count(1 <> 2), count(hero = hero), count(flop != turn) from hero='AA'",
    "select avg(boardLoCardCount(flop)) from game='omaha8', hero='*'",
];

#[test]
fn every_spec_query_checks() {
    for q in VALID {
        check_ok(q);
    }
}

#[test]
fn every_catalogue_example_checks() {
    assert!(catalog().len() >= 79, "the catalogue has landed");
    for f in catalog() {
        let statements = check_ok(f.example);
        assert!(!statements.is_empty(), "{}", f.example);
    }
}

#[test]
fn the_from_clause_is_resolved() {
    let text = "select count(winsHi(Villain)) from hero='AsKs', GAME='Omaha', villain=' QQ+ ', board='Ah7c2d', dead='2s', syntax='Generic'";
    let s = one(text);
    assert_eq!(s.game, Game::OmahaHi);
    assert_eq!(s.syntax, Syntax::Generic);
    assert_eq!(s.players.len(), 2);
    assert_eq!(s.players[1].name, "villain");
    assert_eq!(s.players[1].range.text, " QQ+ ");
    let r = s.players[1].range.span;
    assert_eq!(&text[r.start..r.end], " QQ+ ");
    let k = s.players[0].key_span;
    assert_eq!(&text[k.start..k.end], "hero");
    let b = s.board.as_ref().unwrap();
    assert_eq!((b.text.as_str(), &text[b.span.start..b.span.end]), ("Ah7c2d", "Ah7c2d"));
    assert_eq!(s.dead.as_ref().unwrap().text, "2s");
    match &s.selectors[0].expr.kind {
        TExprKind::Call { func: Func::WinsHi, args } => assert_eq!(args[0].kind, TExprKind::Player(1)),
        other => panic!("{other:?}"),
    }
    let defaults = one("select avg(1) from hero='AA'");
    assert_eq!(
        (defaults.game, defaults.syntax, defaults.ordering, defaults.board, defaults.dead),
        (Game::Holdem, Syntax::Classic, Ordering::Oracle, None, None)
    );
    assert_eq!(one("select avg(1) from hero='AA', Ordering='Equity'").ordering, Ordering::Equity);
}

#[test]
fn statements_keep_their_text_and_spans() {
    let text = "select avg(1) from x='AA' ;\n\n select count(true) as c, max(2) from y='KK'";
    let s = check_ok(text);
    assert_eq!(s.len(), 2);
    assert_eq!(s[0].text, "select avg(1) from x='AA'");
    assert_eq!(s[1].text, "select count(true) as c, max(2) from y='KK'");
    assert_eq!(&text[s[1].span.start..s[1].span.end], s[1].text);
    assert_eq!(s[1].selectors[0].name, "c");
    assert_eq!(s[1].selectors[1].name, "max(2)");
    assert_eq!(s[1].selectors[1].kind, SelectorName::Max);
    let sel = &s[1].selectors[1];
    assert_eq!(&text[sel.span.start..sel.span.end], "max(2)");
    assert_eq!(&text[sel.expr.span.start..sel.expr.span.end], "2");
}

#[test]
fn an_unnamed_selector_is_named_by_its_text() {
    let s = one("select count(true), histogram(1) as h, AVG( riverEquity(hero)\n  * 2 ), min(3) from hero='AA'");
    let names: Vec<&str> = s.selectors.iter().map(|x| x.name.as_str()).collect();
    assert_eq!(names, ["count(true)", "h", "AVG( riverEquity(hero) * 2 )", "min(3)"]);
}

#[test]
fn unnamed_selectors_written_alike_are_told_apart_by_position() {
    let s = one("select avg(1), avg(2), AVG(1), avg( 1 ) from game='holdem'");
    let names: Vec<&str> = s.selectors.iter().map(|x| x.name.as_str()).collect();
    assert_eq!(names, ["avg(1)", "avg(2)", "AVG(1) #3", "avg( 1 )"]);
}

#[test]
fn expressions_are_typed() {
    let s = one("select avg(1 + 2), avg(1 / 2), avg(riverEquity(hero) * 2), histogram(1 || 'x'), avg(-3), \
         max(case when winsHi(hero) then 1 else 2 end), max(case when winsHi(hero) then 1 else 0.5 end), \
         histogram(handType(hero, flop)), max(winsHi(hero)), avg(boardLoCardCount(flop) + 1) \
         from game='omaha8', hero='*'");
    let types: Vec<Type> = s.selectors.iter().map(|x| x.expr.ty).collect();
    assert_eq!(
        types,
        [
            Type::Integer,
            Type::Double,
            Type::Double,
            Type::String,
            Type::Integer,
            Type::Integer,
            Type::Double,
            Type::HandType,
            Type::Boolean,
            Type::Integer
        ]
    );
    assert_eq!(s.selectors[4].expr.kind, TExprKind::Int(-3));
    let w = one("select count(true) from hero='AA' where handType(hero, flop) >= trips").where_clause.unwrap();
    match w.kind {
        TExprKind::Binary { op: BinOp::Ge, rhs, .. } => assert_eq!(rhs.kind, TExprKind::HandType(HandType::Trips)),
        other => panic!("{other:?}"),
    }
    let streets = one("select count(pairedBoard(FLOP)) from game='holdem'");
    match &streets.selectors[0].expr.kind {
        TExprKind::Call { args, .. } => assert_eq!(args[0].kind, TExprKind::Street(Street::Flop)),
        other => panic!("{other:?}"),
    }
}

#[test]
fn literal_arguments_keep_their_inner_span() {
    let text = "select count(inRange(hero, 'JJ+')) from hero='*'";
    let s = one(text);
    match &s.selectors[0].expr.kind {
        TExprKind::Call { func: Func::InRange, args } => match &args[1].kind {
            TExprKind::Str(lit) => assert_eq!(&text[lit.span.start..lit.span.end], "JJ+"),
            other => panic!("{other:?}"),
        },
        other => panic!("{other:?}"),
    }
}

#[test]
fn aliases_resolve_to_their_function() {
    let s = one("select avg(EQUITY(hero, flop)) from hero='AA', villain='KK'");
    assert!(matches!(s.selectors[0].expr.kind, TExprKind::Call { func: Func::HvHEquity, .. }));
}

#[test]
fn empty_programs_have_no_statements() {
    assert!(check_ok("").is_empty());
    assert!(check_ok(" ; -- nothing\n /* at all */ ;").is_empty());
}

/// (query, kind, line, col, message)
const INVALID: &[(&str, ErrorKind, usize, usize, &str)] = &[
    (
        "select avg(riverEquty(hero)) from hero='AA'",
        ErrorKind::Type,
        1,
        12,
        "unknown function 'riverEquty' — did you mean 'riverEquity'?",
    ),
    (
        "select avg(riverEquity(hero) from hero='AA'",
        ErrorKind::Syntax,
        1,
        30,
        "expected ')' after the argument of avg, found 'from'",
    ),
    (
        "select avg(riverEquity(hero from hero='AA'",
        ErrorKind::Syntax,
        1,
        29,
        "expected ')' after the arguments of riverEquity, found 'from'",
    ),
    (
        "select avg(riverEquity(hero)) from gaem='holdem', hero='AA'",
        ErrorKind::Type,
        1,
        36,
        "unknown key 'gaem' — did you mean 'game'?",
    ),
    (
        "select avg(riverEquity(hero)) from game='holdm', hero='AA'",
        ErrorKind::Type,
        1,
        42,
        "unknown game 'holdm' — did you mean 'holdem'?",
    ),
    (
        "select avg(riverEquity(hero)) from game='holdem', syntax='clasic', hero='AA'",
        ErrorKind::Type,
        1,
        59,
        "unknown syntax 'clasic' — did you mean 'classic'?",
    ),
    (
        "select avg(riverEquity(hero)) from game='holdem', ordering='equty', hero='AA'",
        ErrorKind::Type,
        1,
        61,
        "unknown ordering 'equty' — did you mean 'equity'?",
    ),
    (
        "select count(winsHi(villian)) from hero='AA', villain='KK'",
        ErrorKind::Type,
        1,
        21,
        "unknown player or keyword 'villian' — did you mean 'villain'?",
    ),
    (
        "select histogram(handType(hero, flop)) from game='studhi', hero='AA'",
        ErrorKind::Type,
        1,
        33,
        "street 'flop' does not exist in studhi; its streets are third, fourth, fifth, sixth, seventh",
    ),
    (
        "select histogram(handType(hero, rivr)) from hero='AA'",
        ErrorKind::Type,
        1,
        33,
        "unknown player or keyword 'rivr' — did you mean 'river'?",
    ),
    (
        "select count(winsLo(hero)) from game='holdem', hero='AA'",
        ErrorKind::Type,
        1,
        14,
        "winsLo does not apply to holdem: it is for games with a low (omaha8, omaha85, stud8, razz)",
    ),
    ("select count(winsHi(hero, flop)) from hero='AA'", ErrorKind::Type, 1, 14, "winsHi takes 1 argument, found 2"),
    ("select count(handType()) from hero='AA'", ErrorKind::Type, 1, 14, "handType takes 2 arguments, found 0"),
    (
        "select count(handType(flop, hero) = pair) from hero='AA'",
        ErrorKind::Type,
        1,
        23,
        "argument 'player' of handType must be a player, found street",
    ),
    (
        "select count(riverEquity(hero)) from hero='AA'",
        ErrorKind::Type,
        1,
        14,
        "count needs a boolean expression, found equity",
    ),
    (
        "select avg(handType(hero, river)) from hero='AA'",
        ErrorKind::Type,
        1,
        12,
        "avg needs a numeric expression, found handtype",
    ),
    ("select max(toCard('As')) from hero='AA'", ErrorKind::Type, 1, 12, "max needs an ordered expression, found card"),
    (
        "select count(true) from hero='AA' where riverEquity(hero)",
        ErrorKind::Type,
        1,
        41,
        "the where clause needs a boolean expression, found equity",
    ),
    (
        "select count(handType(hero, river) > 3) from hero='AA'",
        ErrorKind::Type,
        1,
        14,
        "cannot compare handtype with integer",
    ),
    (
        "select count(flop < turn) from hero='AA'",
        ErrorKind::Type,
        1,
        19,
        "'<' needs ordered operands; street is not ordered",
    ),
    (
        "select count(1 < 2 < 3) from hero='AA'",
        ErrorKind::Syntax,
        1,
        20,
        "comparisons cannot be chained: found a second '<'",
    ),
    (
        "select avg(riverEquity(hero) + true) from hero='AA'",
        ErrorKind::Type,
        1,
        32,
        "'+' needs numeric operands, found boolean",
    ),
    (
        "select count(winsHi(hero) and 1) from hero='AA'",
        ErrorKind::Type,
        1,
        31,
        "'and' needs boolean operands, found integer",
    ),
    (
        "select avg(case when winsHi(hero) then 1 else 'x' end) from hero='AA'",
        ErrorKind::Type,
        1,
        47,
        "the arms of 'case' must have one type: this one is string, the first is integer",
    ),
    (
        "select avg(case when 1 then 1 end) from hero='AA'",
        ErrorKind::Type,
        1,
        22,
        "the condition of 'when' must be boolean, found integer",
    ),
    ("select avg(1) from hero='AA', HERO='KK'", ErrorKind::Type, 1, 31, "duplicate key 'HERO' in the from clause"),
    ("select avg(1) as x, count(true) as X from hero='AA'", ErrorKind::Type, 1, 36, "duplicate selector name 'X'"),
    ("select avg(1) from flop='AA'", ErrorKind::Type, 1, 20, "'flop' is a street and cannot name a player"),
    ("select avg(1) from trips='AA'", ErrorKind::Type, 1, 20, "'trips' is a hand type and cannot name a player"),
    ("select avg(1) from hero=AA", ErrorKind::Syntax, 1, 25, "the value of 'hero' must be quoted: hero='AA'"),
    (
        "select avg(1) from hero='AA' villain='KK' where",
        ErrorKind::Syntax,
        1,
        30,
        "expected ',' or 'where' after hero='AA', found 'villain'",
    ),
    ("select avg(1)", ErrorKind::Syntax, 1, 14, "expected 'from' after the select list, found the end of the query"),
    ("selct avg(1) from hero='AA'", ErrorKind::Syntax, 1, 1, "unknown keyword 'selct' — did you mean 'select'?"),
    ("select avg(1) form hero='AA'", ErrorKind::Syntax, 1, 15, "unknown keyword 'form' — did you mean 'from'?"),
    (
        "select ) from hero='AA'",
        ErrorKind::Syntax,
        1,
        8,
        "expected a selector (avg, count, histogram, max or min), found ')'",
    ),
    (
        "select avgg(riverEquity(hero)) from hero='AA'",
        ErrorKind::Syntax,
        1,
        8,
        "unknown selector 'avgg' — did you mean 'avg'?",
    ),
    (
        "select count(toCard('Zs') = riverCard()) from hero='AA'",
        ErrorKind::Type,
        1,
        22,
        "toCard needs one card such as 'As': 'Z' is not a rank (expected one of A K Q J T 9 8 7 6 5 4 3 2) in 'Zs'",
    ),
    (
        "select count(toRank('AK') = toRank('A')) from hero='AA'",
        ErrorKind::Type,
        1,
        22,
        "toRank needs one rank (A K Q J T 9 8 7 6 5 4 3 2), found 'AK'",
    ),
    (
        "select count(hiRating(hero, river) > rateHiHand('AsKsQsJs')) from hero='AA'",
        ErrorKind::Type,
        1,
        50,
        "rateHiHand needs 5 distinct cards, found 4 in 'AsKsQsJs'",
    ),
    (
        "select count(hiRating(hero, river) > rateHiHand('AsKsQsJsAs')) from hero='AA'",
        ErrorKind::Type,
        1,
        58,
        "rateHiHand needs 5 distinct cards: card As appears twice",
    ),
    (
        "select avg(handRankingFor(hero, 'ful')) from hero='AA'",
        ErrorKind::Type,
        1,
        34,
        "handRankingFor needs the table 'full' or '6max', found 'ful' — did you mean 'full'?",
    ),
    (
        "select count(inRange(hero, villain)) from hero='AA', villain='KK'",
        ErrorKind::Type,
        1,
        28,
        "argument 'range' of inRange must be a quoted string, found player",
    ),
    (
        "select count(riverCard = toCard('As')) from hero='AA'",
        ErrorKind::Type,
        1,
        14,
        "'riverCard' is a function: call it with parentheses",
    ),
    (
        "select avg(avg(1)) from hero='AA'",
        ErrorKind::Type,
        1,
        12,
        "'avg' is a selector: it can only stand at the top of the select list",
    ),
    (
        "select avg(1) from hero='AA'\nwhere count(true) and\n  winsHi(hero) and x",
        ErrorKind::Type,
        2,
        7,
        "'count' is a selector: it can only stand at the top of the select list",
    ),
    ("select avg(1) from hero=\"AA", ErrorKind::Syntax, 1, 25, "unterminated string: expected a closing quote (\")"),
    ("select avg(1) from hero='AA", ErrorKind::Syntax, 1, 25, "unterminated string: expected a closing quote (')"),
    (
        // `winsHi(hero)` reads as the subject of a simple case: the 'when' is missing after it.
        "select count(case winsHi(hero) then 1 end = 1) from hero='AA'",
        ErrorKind::Syntax,
        1,
        32,
        "expected 'when' after 'case', found 'then'",
    ),
    (
        "select count(true) from hero='AA' where winsHi(hero) villain",
        ErrorKind::Syntax,
        1,
        54,
        "expected ';' or the end of the query, found 'villain'",
    ),
    ("select avg(1) from case='AA'", ErrorKind::Type, 1, 20, "'case' is a keyword and cannot name a player"),
    (
        "select avg(upCard(hero, third)) from hero='AA'",
        ErrorKind::Type,
        1,
        12,
        "upCard does not apply to holdem: it is for stud games (studhi, stud8, razz)",
    ),
    (
        "select count(handType(hero, case when true then flop else river end) = pair) from hero='AA'",
        ErrorKind::Type,
        1,
        29,
        "argument 'street' of handType must name a street directly",
    ),
    (
        "select count(hiRating(hero, river) > rateHiHand('As2s3s4s5s')) from game='shortdeck', hero='AA'",
        ErrorKind::Type,
        1,
        50,
        "2s is not in the deck of shortdeck",
    ),
    (
        "select avg(1) from game='holdem', Game='omaha'",
        ErrorKind::Type,
        1,
        35,
        "duplicate key 'Game' in the from clause",
    ),
    (
        "select avg(1) from hero='AA' where",
        ErrorKind::Syntax,
        1,
        35,
        "expected an expression, found the end of the query",
    ),
    (
        "select avg(1) from hero=",
        ErrorKind::Syntax,
        1,
        25,
        "expected a quoted value after 'hero=', found the end of the query",
    ),
    (
        "select avg(1) from bord='AsKsQs', hero='AA'",
        ErrorKind::Type,
        1,
        20,
        "unknown key 'bord' — did you mean 'board'?",
    ),
    (
        "select count(winsHi('hero')) from hero='AA'",
        ErrorKind::Type,
        1,
        21,
        "argument 'player' of winsHi must be a player, found string",
    ),
    (
        "select count(handType(hero, 'flop') = pair) from hero='AA'",
        ErrorKind::Type,
        1,
        29,
        "argument 'street' of handType must be a street, found string",
    ),
    ("select avg(foo(hero)) from hero='AA'", ErrorKind::Type, 1, 12, "unknown function 'foo'"),
    (
        "select avg(1) from hero='AA'; select",
        ErrorKind::Syntax,
        1,
        37,
        "expected a selector (avg, count, histogram, max or min), found the end of the query",
    ),
    ("select avg(1 +) from hero='AA'", ErrorKind::Syntax, 1, 15, "expected an expression, found ')'"),
    (
        "select avg((1 + 2) from hero='AA'",
        ErrorKind::Syntax,
        1,
        20,
        "expected ')' after the argument of avg, found 'from'",
    ),
    (
        "select avg((1 + 2 from hero='AA'",
        ErrorKind::Syntax,
        1,
        19,
        "expected ')' to close the '(' at line 1, col 12, found 'from'",
    ),
    ("select avg(1) as from hero='AA'", ErrorKind::Syntax, 1, 18, "expected a name after 'as', found 'from'"),
    ("select avg(1) from hero='AA' /* open", ErrorKind::Syntax, 1, 30, "unterminated comment: expected '*/'"),
    (
        "from hero='AA' select avg(1)",
        ErrorKind::Syntax,
        1,
        1,
        "expected 'select' or 'simulate' at the start of a statement, found 'from'",
    ),
    (
        "select avg(1) from hero='AA' wher winsHi(hero)",
        ErrorKind::Syntax,
        1,
        30,
        "unknown keyword 'wher' — did you mean 'where'?",
    ),
    (
        "select avg(1) from 'AA'",
        ErrorKind::Syntax,
        1,
        20,
        "expected key='value' in the from clause, found the string 'AA'",
    ),
    // A game that could not be resolved is reported, not checked against: no follow-on street
    // or "does not apply to holdem" errors.
    (
        "select histogram(handType(hero, fifth)) from game='studd', hero='AA'",
        ErrorKind::Type,
        1,
        52,
        "unknown game 'studd' — did you mean 'stud'?",
    ),
    (
        "select count(winsLo(hero)) from gaem='omaha8', hero='AA'",
        ErrorKind::Type,
        1,
        33,
        "unknown key 'gaem' — did you mean 'game'?",
    ),
    ("select count(1 % 1 = 0) from hero='AA'", ErrorKind::Syntax, 1, 16, "unexpected character '%'"),
    (
        "select avg(nthRank(1, boardRanks(flop),)) from hero='AA'",
        ErrorKind::Syntax,
        1,
        40,
        "expected an expression, found ')'",
    ),
    (
        "select count(winsHi(hero)) from hero='AA' where nto winsHi(hero)",
        ErrorKind::Syntax,
        1,
        49,
        "unknown keyword 'nto' — did you mean 'not'?",
    ),
    (
        "select count(winsHi(hero)) from hero='AA' where winsHi(hero) adn tiesHi(hero)",
        ErrorKind::Syntax,
        1,
        62,
        "unknown keyword 'adn' — did you mean 'and'?",
    ),
    (
        "select count(winsHi(hero)) from hero='AA' where winsHi(hero) ro tiesHi(hero)",
        ErrorKind::Syntax,
        1,
        62,
        "unknown keyword 'ro' — did you mean 'or'?",
    ),
    (
        "select histogram(csae when winsHi(hero) then 1 else 0 end) from hero='AA'",
        ErrorKind::Syntax,
        1,
        18,
        "unknown keyword 'csae' — did you mean 'case'?",
    ),
    (
        "select count(winsHi(hero) && tiesHi(hero)) from hero='AA'",
        ErrorKind::Syntax,
        1,
        27,
        "unexpected '&&': write 'and'",
    ),
    (
        "select count(winsHi(hero) || tiesHi(hero)) from hero='AA'",
        ErrorKind::Type,
        1,
        14,
        "count needs a boolean expression, found string",
    ),
    ("select count(1 =< 1) from hero='AA'", ErrorKind::Syntax, 1, 16, "'=<' is not an operator: write '<='"),
    ("select count(1 => 1) from hero='AA'", ErrorKind::Syntax, 1, 16, "'=>' is not an operator: write '>='"),
    (
        "select count(winsHi(hero)) from hero=’AA’",
        ErrorKind::Syntax,
        1,
        38,
        "unexpected '’': strings use straight quotes ('AA' or \"AA\")",
    ),
    ("select\u{a0}avg(1) from hero='AA'", ErrorKind::Syntax, 1, 7, "unexpected character U+00A0 (a no-break space)"),
    (
        "select avg(1)\u{200b} from hero='AA'",
        ErrorKind::Syntax,
        1,
        14,
        "unexpected character U+200B (a zero-width space)",
    ),
    ("select avg(1) from hero='AA'\u{0}", ErrorKind::Syntax, 1, 29, "unexpected character U+0000 (a NUL character)"),
    ("select avg(1) from hero='AA' where @@@ @@", ErrorKind::Syntax, 1, 36, "unexpected characters '@@@ @@'"),
    (
        "select avg(1) from hérö='AA'",
        ErrorKind::Syntax,
        1,
        20,
        "'hérö' is not a valid name: names use ASCII letters, digits and _",
    ),
    ("select avg(1) from game=''", ErrorKind::Type, 1, 26, "unknown game ''"),
    (
        "select count(flase) from hero='AA'",
        ErrorKind::Type,
        1,
        14,
        "unknown player or keyword 'flase' — did you mean 'false'?",
    ),
    ("select avg(1) as select from hero='AA'", ErrorKind::Syntax, 1, 18, "expected a name after 'as', found 'select'"),
    (
        "select avg(1) as 1x from hero='AA'",
        ErrorKind::Syntax,
        1,
        18,
        "'1x' is not a number or a name (names start with a letter)",
    ),
    ("select avg(1) from where='AA'", ErrorKind::Type, 1, 20, "'where' is a keyword and cannot name a player"),
    ("select avg(1) from select='AA'", ErrorKind::Type, 1, 20, "'select' is a keyword and cannot name a player"),
    ("select count(riverCard() = 'As') from hero='AA'", ErrorKind::Type, 1, 14, "cannot compare card with string"),
    (
        "select count(upCard(hero, seventh) = toCard('As')) from game='stud', hero='*'",
        ErrorKind::Type,
        1,
        27,
        "upCard: the seventh-street card is dealt face down",
    ),
    (
        "select histogram(nthRank(0, boardRanks(flop))) from hero='AA'",
        ErrorKind::Type,
        1,
        26,
        "nthRank counts ranks from 1 (the highest) to 13, found 0",
    ),
    (
        "select histogram(nthRank(-1, boardRanks(flop))) from hero='AA'",
        ErrorKind::Type,
        1,
        26,
        "nthRank counts ranks from 1 (the highest) to 13, found -1",
    ),
    (
        "select histogram(nthRank(99, boardRanks(flop))) from hero='AA'",
        ErrorKind::Type,
        1,
        26,
        "nthRank counts ranks from 1 (the highest) to 13, found 99",
    ),
    (
        "select count(riverCard() = toCard('2s')) from game='shortdeck', hero='AA'",
        ErrorKind::Type,
        1,
        36,
        "2s is not in the deck of shortdeck",
    ),
    (
        "select count(maxRank(boardRanks(flop)) = toRank('2')) from game='shortdeck', hero='AA'",
        ErrorKind::Type,
        1,
        50,
        "rank 2 is not in the deck of shortdeck",
    ),
    (
        "select count(minEquity(hero, flop, 1.5)) from hero='AA', villain='KK'",
        ErrorKind::Type,
        1,
        36,
        "the equity threshold of minEquity is between 0 and 1, found 1.5",
    ),
    (
        "select count(minHvREquity(hero, flop, -0.5)) from hero='AA', villain='KK'",
        ErrorKind::Type,
        1,
        39,
        "the equity threshold of minHvREquity is between 0 and 1, found -0.5",
    ),
    (
        "select count(boardInRange('')) from hero='AA'",
        ErrorKind::Type,
        1,
        27,
        "boardInRange needs a board pattern, found an empty string",
    ),
];

#[test]
fn invalid_queries_fail_with_the_exact_message_and_position() {
    let mut failures = Vec::new();
    for &(query, kind, line, col, message) in INVALID {
        let Err(errors) = check_program(query) else {
            failures.push(format!("{query}: checked without error"));
            continue;
        };
        let first = &errors[0];
        let got = (first.kind, first.line_col(query), first.message.as_str());
        if got != (kind, Some((line, col)), message) {
            failures
                .push(format!("{query}\n   expected {:?}\n   got      {got:?}", (kind, Some((line, col)), message)));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn several_errors_are_reported_at_once() {
    let text = "select avg(riverEquty(hero)), count(winsHi(villian)) from game='holdem', hero='AA', villain='KK'; \
                select max(1 from x='A'; select avg(handType(hero, flop)) from game='razz', hero='A'";
    let errors = check_program(text).unwrap_err();
    let messages: Vec<&str> = errors.iter().map(|e| e.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            // Syntax errors first, then the rest, each in source order.
            "expected ')' after the argument of max, found 'from'",
            "unknown function 'riverEquty' — did you mean 'riverEquity'?",
            "unknown player or keyword 'villian' — did you mean 'villain'?",
            "handType does not apply to razz: it is for games with a hi half (not razz)",
            "street 'flop' does not exist in razz; its streets are third, fourth, fifth, sixth, seventh",
        ]
    );
}

#[test]
fn one_statement_reports_several_syntax_errors() {
    let text = "select avg(riverEquity(hero), count(+), max(1 2) from hero=AA, villain 'KK' where winsHi(hero) and";
    let errors = check_program(text).unwrap_err();
    let messages: Vec<&str> = errors.iter().map(|e| e.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "expected ')' after the argument of avg, found ','",
            "expected an expression, found '+'",
            "expected ')' after the argument of max, found '2'",
            "the value of 'hero' must be quoted: hero='AA'",
            "expected '=' after 'villain', found the string 'KK'",
            "expected an expression, found the end of the query",
        ]
    );
    assert!(errors.iter().all(|e| e.kind == ErrorKind::Syntax));
}

#[test]
fn a_broken_from_clause_does_not_make_every_player_unknown() {
    let errors = check_program("select avg(riverEquity(hero)), count(winsHi(villain))").unwrap_err();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].message, "expected 'from' after the select list, found the end of the query");
}

#[test]
fn errors_carry_hints() {
    let errors = check_program("select avg(1) from game='pokr', hero='AA'").unwrap_err();
    assert!(errors[0].hint.as_deref().unwrap().starts_with("games: holdem, shortdeck, 6plus"));
    let errors = check_program("select count(handType()) from hero='AA'").unwrap_err();
    assert_eq!(errors[0].hint.as_deref(), Some("handType(player, street = river|seventh) -> handtype"));
    let errors = check_program("select avg(1) from hero='AA',\n  HERO='KK'").unwrap_err();
    // The hint names the key as first written.
    assert_eq!(errors[0].hint.as_deref(), Some("'hero' is already given at line 1, col 20"));
}

#[test]
fn every_example_script_checks() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).expect("examples/") {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "pql") {
            let text = std::fs::read_to_string(&path).unwrap();
            // A sweep is read by the Python layer (pql_repl/sweeps.py), which
            // tests/test_examples.py runs; the engine checks each of its rows.
            if text.lines().any(|l| l.trim_start().starts_with("sweep ")) {
                continue;
            }
            assert!(!check_ok(&text).is_empty(), "{}", path.display());
            checked += 1;
        }
    }
    assert!(checked >= 10, "{checked} example scripts");
}

#[test]
fn the_deepest_accepted_expression_checks_on_a_small_stack() {
    // Nesting at the parser's limit must check without exhausting a 1 MiB stack (threads get 2).
    let depth = pql_core::limits::QUERY_MAX_DEPTH as usize - 1;
    for (open, close) in [("(", ")"), ("(-", ")"), ("f(", ")"), ("not (", ")")] {
        let text = format!("select count({}true{}) from x='AA'", open.repeat(depth), close.repeat(depth));
        let run = move || check_program(&text).map_err(|e| e[0].message.clone()).map(|s| s.len());
        let handle = std::thread::Builder::new().stack_size(1 << 20).spawn(run);
        let _ = handle.unwrap().join().unwrap();
    }
    let too_deep = format!("select avg({}1{}) from x='AA'", "(".repeat(500), ")".repeat(500));
    let errors = check_program(&too_deep).unwrap_err();
    assert_eq!(errors[0].message, "expression nested too deeply (more than 100 levels)");
}

/// Every error of each query, in order: one mistake gives one error, syntax errors lead, and
/// what the parser guessed while recovering causes no type error of its own.
const ERROR_LISTS: &[(&str, &[&str])] = &[
    (
        "select histogram(handType(hero, fifth)) from game='studd', hero='AA'",
        &["unknown game 'studd' — did you mean 'stud'?"],
    ),
    ("select count(winsLo(hero)) from gaem='omaha8', hero='AA'", &["unknown key 'gaem' — did you mean 'game'?"]),
    ("select count(1 % 1 = 0) from hero='AA'", &["unexpected character '%'"]),
    ("select avg(nthRank(1, boardRanks(flop),)) from hero='AA'", &["expected an expression, found ')'"]),
    (
        "select count(winsHi(hero)) from hero='AA' where nto winsHi(hero)",
        &["unknown keyword 'nto' — did you mean 'not'?"],
    ),
    (
        "select count(winsHi(hero)) from hero='AA' where winsHi(hero) adn tiesHi(hero)",
        &["unknown keyword 'adn' — did you mean 'and'?"],
    ),
    ("select count(winsHi(hero) && tiesHi(hero)) from hero='AA'", &["unexpected '&&': write 'and'"]),
    ("select count(winsHi(hero) & tiesHi(hero)) from hero='AA'", &["unexpected '&': write 'and'"]),
    ("select count(!winsHi(hero)) from hero='AA'", &["unexpected '!': write 'not' or '<>'"]),
    ("select count(1 =< 1) from hero='AA'", &["'=<' is not an operator: write '<='"]),
    ("select count(winsHi(hero)) from hero=’AA’", &["unexpected '’': strings use straight quotes ('AA' or \"AA\")"]),
    (
        "select count(winsHi(hérö)) from hérö='AA'",
        &[
            "'hérö' is not a valid name: names use ASCII letters, digits and _",
            "'hérö' is not a valid name: names use ASCII letters, digits and _",
        ],
    ),
    ("select avg(1) as select from hero='AA'", &["expected a name after 'as', found 'select'"]),
    ("select avg(1) as 1x from hero='AA'", &["'1x' is not a number or a name (names start with a letter)"]),
    // A lexical error inside a selector keeps the checker off that selector only.
    (
        "select count(winsHi(hero) @), avg(riverEquty(hero)) from hero='AA'",
        &["unexpected character '@'", "unknown function 'riverEquty' — did you mean 'riverEquity'?"],
    ),
];

#[test]
fn recovery_does_not_cascade() {
    let mut failures = Vec::new();
    for &(query, expected) in ERROR_LISTS {
        let errors = check_program(query).err().unwrap_or_default();
        let got: Vec<&str> = errors.iter().map(|e| e.message.as_str()).collect();
        if got != expected {
            failures.push(format!("{query}\n   expected {expected:?}\n   got      {got:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn hints_say_what_to_write_instead() {
    let hint = |q: &str| check_program(q).unwrap_err()[0].hint.clone().unwrap_or_default();
    assert_eq!(
        hint("select count(winsHi(hero) || tiesHi(hero)) from hero='AA'"),
        "'||' joins strings; to test either condition write 'or', e.g. winsHi(hero) or tiesHi(hero)"
    );
    assert_eq!(
        hint("select count(winsHi(hero)) from hero='AA' where winsHi(hero) || tiesHi(hero)"),
        "'||' joins strings; to test either condition write 'or', e.g. winsHi(hero) or tiesHi(hero)"
    );
    assert_eq!(hint("select count(riverCard() = 'As') from hero='AA'"), "a string is not a card: write toCard('As')");
    assert_eq!(
        hint("select count(handType(hero, river) = 'pair') from hero='AA'"),
        "hand types are written without quotes: pair"
    );
    assert_eq!(
        hint("select count(maxRank(boardRanks(flop)) = 'A') from hero='AA'"),
        "a string is not a rank: write toRank('A')"
    );
    assert_eq!(hint("select avg(1) from syntax='x'"), "syntaxes: classic, generic");
    assert_eq!(hint("select avg(1) from dead='', DEAD=''"), "'dead' is already given at line 1, col 20");
    assert_eq!(hint("select avg(1) from hero=’AA’"), "an editor may have curled the quotes: type ' (U+0027)");
}

#[test]
fn the_longest_accepted_chain_checks_compiles_and_runs_on_small_stacks() {
    // A chain of operators is a tree as deep as it is long: at the limit it must check and
    // compile on a 1 MiB stack and evaluate in the runner's threads (2 MiB), also in a debug
    // build (`cargo test --profile dev`).
    // n - 1 calls (depth 2) joined by n - 2 operators: a tree exactly n deep.
    let n = pql_core::limits::QUERY_MAX_TREE_DEPTH as usize - 1;
    for text in [
        format!("select count({}) from hero='AA', villain='KK'", vec!["winsHi(hero)"; n].join(" or ")),
        format!("select avg({}) from hero='AA', villain='KK'", vec!["riverEquity(hero)"; n].join(" + ")),
        format!("select histogram({}) from hero='AA'", vec!["'x'"; n].join(" || ")),
    ] {
        let run = move || {
            let plan = std::sync::Arc::new(compile_program(&text).unwrap().remove(0).plan);
            let opts =
                RunOptions { trials: 200, seed: Some(1), exact: Some(false), threads: 1, ..RunOptions::default() };
            let progress = start(&plan, &opts).wait();
            assert!(progress.error.is_none(), "{:?}", progress.error);
            assert_eq!(progress.accepted, 200);
        };
        std::thread::Builder::new().stack_size(1 << 20).spawn(run).unwrap().join().unwrap();
    }
    let too_long = format!("select avg({}) from x='AA'", vec!["1"; n + 3].join(" + "));
    let errors = check_program(&too_long).unwrap_err();
    assert_eq!(errors[0].message, "expression too long (more than 200 operators deep)");
    // Grouped, a longer chain is shallow enough: 90 groups of 90 terms are 91 + 90 deep.
    let group = format!("({})", vec!["winsHi(hero)"; 90].join(" or "));
    check_ok(&format!("select count({}) from hero='AA', villain='KK'", vec![group.as_str(); 90].join(" or ")));
}

#[test]
fn a_long_flat_chain_is_not_too_deep() {
    let terms = |op: &str, n: usize| vec!["winsHi(hero)"; n].join(op);
    let sum = |n: usize| vec!["1"; n].join(" + ");
    for text in [
        format!("select count({}) from hero='AA', villain='KK'", terms(" or ", 150)),
        format!("select count({}) from hero='AA', villain='KK'", terms(" and ", 150)),
        format!("select avg({}) from hero='AA'", sum(150)),
    ] {
        check_ok(&text);
    }
}
