//! pql's side of the 7-card evaluator row of `benchmarks/bench_ompeval.py`: reads requests on
//! stdin, one a line, and answers each on stdout, so that the script can alternate it with the
//! peer's driver (`benchmarks/ompeval_driver.cpp`, the same protocol) on one core.
//!
//!   eval <count> <seed>   7-card hi ratings of <count> random hands, from their card bytes
//!   quit
//!
//! Answer: `<cpu seconds> <checksum>`, the seconds this thread spent on a CPU in the loop (Linux
//! `schedstat`; wall-clock time elsewhere). The hands are dealt before timing by the generator
//! the peer uses (splitmix64 from the seed, seven distinct cards `4 * rank + suit` a hand), so
//! both rate the same hands; each engine reads them in its own card numbering.

use pql_core::cards::Card;
use pql_core::eval::{hi_table, HiRank};
use pql_core::games::HiRules;
use std::io::{BufRead, Write};
use std::time::Instant;

fn next(x: &mut u64) -> u64 {
    *x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *x;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// `count` hands of seven distinct cards, as pql card bytes.
fn deal(count: usize, seed: u64) -> Vec<[Card; 7]> {
    let mut x = seed;
    (0..count)
        .map(|_| {
            let mut hand = [Card::from_index(0); 7];
            let mut used = 0u64;
            let mut i = 0;
            while i < 7 {
                let c = next(&mut x) % 52;
                if used >> c & 1 == 0 {
                    used |= 1 << c;
                    hand[i] = Card::new((c / 4) as u8, (c % 4) as u8);
                    i += 1;
                }
            }
            hand
        })
        .collect()
}

fn thread_cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}

fn evaluations(count: usize, seed: u64) -> (f64, u64) {
    let hands = deal(count, seed);
    let seven = hi_table(HiRules::Standard).seven_cards();
    let wall = Instant::now();
    let cpu = thread_cpu_ns();
    let mut sum = 0u64;
    for hand in std::hint::black_box(&hands) {
        let HiRank(rank) = seven.rank_seven(hand);
        sum += u64::from(rank);
    }
    let seconds = match (cpu, thread_cpu_ns()) {
        (Some(a), Some(b)) if b > a => (b - a) as f64 * 1e-9,
        _ => wall.elapsed().as_secs_f64(),
    };
    (seconds, sum)
}

fn main() {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        let answer = match words.as_slice() {
            ["eval", count, seed] => match (count.parse(), seed.parse()) {
                (Ok(count), Ok(seed)) => {
                    let (seconds, sum) = evaluations(count, seed);
                    format!("{seconds:.9} {sum}")
                }
                _ => "error bad numbers".to_string(),
            },
            ["quit"] => break,
            _ => "error unknown request".to_string(),
        };
        if writeln!(out, "{answer}").and_then(|()| out.flush()).is_err() {
            break;
        }
    }
}
