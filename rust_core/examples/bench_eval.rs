//! Evaluator speed: evaluations per second on one core, per game, medians of several repeats.
//! `cargo run --release -p pql_core --example bench_eval` (`BENCH_REPEATS=N` to change the repeats,
//! `BENCH_ONLY=text` to run only the rows whose label contains `text`, e.g. under `perf stat`).
//!
//! Hands are dealt before timing into a flat array, so the timed loop is the evaluator and a
//! sequential read of its input. Omaha rows time the whole evaluation from card sets, including
//! splitting the hole and board into their subsets.

use pql_core::cards::{Card, CardSet, Deck};
use pql_core::eval::{
    omaha_hi, omaha_lo8, rate_hi, rate_hi_bits, rate_hi_seven, rate_hi_standard, rate_lo8, rate_razz, OmahaBoard,
    OmahaHole,
};
use pql_core::games::HiRules;
use pql_core::rng::Rng;
use std::hint::black_box;
use std::time::Instant;

/// Distinct random hands per pass: far more than a branch predictor can learn, few enough (1 MB
/// at 16 bytes a hand) that streaming them in costs little next to the evaluator's own tables.
const HANDS: usize = 1 << 16;

/// `count` random deals of `hole` then `board` distinct cards from `deck`.
fn deal(deck: Deck, hole: usize, board: usize, count: usize, seed: u64) -> Vec<(CardSet, CardSet)> {
    let cards: Vec<Card> = deck.cards().to_vec();
    let mut rng = Rng::new(seed, 0);
    let mut out = Vec::with_capacity(count);
    let mut pool = cards.clone();
    for _ in 0..count {
        // Partial Fisher-Yates: the first hole + board slots become a uniform random sample.
        for i in 0..hole + board {
            let j = i + rng.below((pool.len() - i) as u64) as usize;
            pool.swap(i, j);
        }
        let h = pool[..hole].iter().copied().collect();
        let b = pool[hole..hole + board].iter().copied().collect();
        out.push((h, b));
    }
    out
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

/// Nanoseconds this thread has run on a CPU (Linux `schedstat`), so that time spent waiting for
/// a core while others use it does not count. `None` elsewhere.
fn thread_cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

/// Times `rate` over every hand `repeats` times; prints the median rate in millions per second of
/// CPU time (of wall time where CPU time cannot be read), and the median wall-clock rate.
/// `goal` is the target in M evals/s, if it sets one.
fn bench(
    label: &str,
    hands: &[(CardSet, CardSet)],
    repeats: usize,
    goal: Option<f64>,
    rate: impl Fn(CardSet, CardSet) -> u32,
) {
    if std::env::var("BENCH_ONLY").is_ok_and(|only| !label.contains(&only)) {
        return;
    }
    let mut cpu_rates = Vec::with_capacity(repeats);
    let mut wall_rates = Vec::with_capacity(repeats);
    let mut check = 0u64;
    let pass = |acc: &mut u64| {
        for &(h, b) in hands {
            *acc = acc.wrapping_add(u64::from(rate(black_box(h), black_box(b))));
        }
    };
    // The untimed warm-up pass also sizes a repeat: enough passes for about 0.2 s, because the
    // kernel's CPU-time clock ticks coarsely (4 ms here) and short repeats read as multiples of it.
    let t = Instant::now();
    pass(&mut check);
    let passes = (0.2 / t.elapsed().as_secs_f64().max(1e-6)).ceil().clamp(1.0, 64.0) as usize;
    for _ in 0..repeats {
        let cpu = thread_cpu_ns();
        let t = Instant::now();
        let mut acc = 0u64;
        for _ in 0..passes {
            pass(&mut acc);
        }
        let wall = t.elapsed().as_secs_f64();
        let on_cpu = match (cpu, thread_cpu_ns()) {
            (Some(a), Some(b)) if b > a => (b - a) as f64 * 1e-9,
            _ => wall,
        };
        black_box(acc);
        let evaluations = (hands.len() * passes) as f64;
        cpu_rates.push(evaluations / on_cpu / 1e6);
        wall_rates.push(evaluations / wall / 1e6);
    }
    let m = median(cpu_rates);
    let verdict = match goal {
        Some(g) if m >= g => format!("goal {g:>3.0} M/s met"),
        Some(g) => format!("goal {g:>3.0} M/s NOT met"),
        None => String::new(),
    };
    println!(
        "{label:<30} {m:>7.1} M evals/s  (wall {:>6.1})  {verdict:<20} [{:04x}]",
        median(wall_rates),
        check & 0xFFFF
    );
}

fn main() {
    let repeats = std::env::var("BENCH_REPEATS").ok().and_then(|s| s.parse().ok()).unwrap_or(7);
    println!("pql_core evaluators, one core, median of {repeats} repeats over {HANDS} random hands");
    println!("(millions of evaluations per second of CPU time; wall-clock rate in brackets)\n");

    let h5 = deal(Deck::Standard, 5, 0, HANDS, 1);
    bench("hold'em hi, 5 cards", &h5, repeats, None, |h, _| rate_hi_standard(h).0);
    let h6 = deal(Deck::Standard, 6, 0, HANDS, 2);
    bench("hold'em hi, 6 cards", &h6, repeats, None, |h, _| rate_hi_standard(h).0);
    let h7 = deal(Deck::Standard, 2, 5, HANDS, 3);
    bench("hold'em hi, 7 cards", &h7, repeats, Some(150.0), |h, b| rate_hi_seven(h.union(b), HiRules::Standard).0);
    bench("hold'em hi, 7 cards, any count", &h7, repeats, None, |h, b| rate_hi_standard(h.union(b)).0);
    // The bit-arithmetic evaluator the tables are built from, for comparison.
    bench("hold'em hi, 7 cards, no tables", &h7, repeats, None, |h, b| rate_hi_bits(h.union(b), HiRules::Standard).0);

    let sd7 = deal(Deck::Short, 2, 5, HANDS, 4);
    bench("short deck hi, 7 cards", &sd7, repeats, None, |h, b| rate_hi(h.union(b), HiRules::ShortDeck).0);
    bench("short deck Triton, 7 cards", &sd7, repeats, None, |h, b| rate_hi(h.union(b), HiRules::Triton).0);

    let o4 = deal(Deck::Standard, 4, 5, HANDS, 5);
    bench("Omaha hi, 4 hole + 5 board", &o4, repeats, Some(20.0), |h, b| {
        omaha_hi(&OmahaHole::new(h), &OmahaBoard::new(b)).0
    });
    let o5 = deal(Deck::Standard, 5, 5, HANDS, 6);
    bench("Omaha hi, 5 hole + 5 board", &o5, repeats, None, |h, b| omaha_hi(&OmahaHole::new(h), &OmahaBoard::new(b)).0);
    bench("Omaha lo8, 4 hole + 5 board", &o4, repeats, None, |h, b| {
        omaha_lo8(&OmahaHole::new(h), &OmahaBoard::new(b)).map_or(0, |r| r.0)
    });

    let s7 = deal(Deck::Standard, 7, 0, HANDS, 7);
    bench("razz (A-5 low), 7 cards", &s7, repeats, Some(100.0), |h, _| rate_razz(h).0);
    bench("8-or-better low, 7 cards", &s7, repeats, None, |h, _| rate_lo8(h).map_or(0, |r| r.0));
}
