//! Speed of the per-deal library functions with inner enumerations (trials per second).
//! `cargo run --release -p pql_core --example bench_library [QUERY] [TRIALS]`

use pql_core::plan::compile::compile_program;
use pql_core::run::runner::{start, RunOptions};
use std::sync::Arc;
use std::time::Instant;

fn bench(query: &str, trials: u64, threads: usize) {
    let plan = Arc::new(compile_program(query).expect("query compiles")[0].plan.clone());
    let opts = RunOptions { trials, seed: Some(1), exact: Some(false), threads, ..RunOptions::default() };
    let t = Instant::now();
    let p = start(&plan, &opts).wait();
    let secs = t.elapsed().as_secs_f64();
    let value = p.aggregates[0].estimate().map_or(f64::NAN, |e| e.0);
    println!(
        "{:>9.0} trials/s  ({} trials, {threads} thread(s), {secs:.2} s, value {value:.4})  {query}",
        p.accepted as f64 / secs,
        p.accepted
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(query) = args.get(1) {
        let trials = args.get(2).and_then(|t| t.parse().ok()).unwrap_or(100_000);
        for threads in [1, 2] {
            bench(query, trials, threads);
        }
        return;
    }
    let omaha = "select avg(HvHEquity(hero, flop)) from game='omahahi', hero='AA**', villain='****'";
    for threads in [1, 2] {
        bench(omaha, 200_000, threads);
    }
    bench("select avg(HvHEquity(hero, flop)) from game='holdem', hero='AA', villain='**'", 200_000, 1);
    bench("select avg(HvHEquity(hero, turn)) from game='omaha8', hero='AA**', villain='****'", 200_000, 1);
    bench("select avg(HvREquity(hero, flop)) from game='holdem', hero='AKs', villain='QQ+,AK'", 20_000, 1);
    bench("select avg(handStrength(hero, flop)) from game='holdem', hero='AKs', villain='*'", 20_000, 1);
    bench("select avg(positivePotential(hero, turn)) from game='holdem', hero='AKs', villain='*'", 2_000, 1);
    bench("select count(nutHi(hero, flop)) from game='omahahi', hero='AA**', villain='*'", 20_000, 1);
}
