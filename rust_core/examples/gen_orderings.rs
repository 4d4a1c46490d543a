//! Generates the percent orderings of `rust_core/data/orderings/` (method: `rust_core/data/README.md`).
//!
//! `cargo run --release --example gen_orderings -- [SECONDS_SCALE] [GAME ...]`
//!
//! Every trial deals a full table of random hands (9 players full ring, 6 six-handed) and a board,
//! plays it out with our evaluators, and credits each player's pot share to its hand's class; a
//! class's strength is its mean share: its all-in equity against 8 (or 5) random hands. Classes
//! the random deals reached too rarely get extra trials with a hand of that class against random
//! hands. Classes are written best first.

use pql_core::cards::{Card, CardSet};
use pql_core::eval::{omaha_hi, omaha_lo8, rate_hi, OmahaBoard, OmahaHole};
use pql_core::games::Game;
use pql_core::range::percent::{class_key, class_keys, entry_width, ordering_file, ORDERING_GAMES};
use pql_core::rng::Rng;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The most seconds of simulation per ordering, before scaling, by game.
fn budget(game: Game) -> f64 {
    match game {
        Game::Holdem => 15.0,
        Game::ShortDeck => 10.0,
        Game::OmahaHi | Game::Omaha8 => 300.0,
        _ => 600.0,
    }
}

/// Samples per class aimed at (a quiet machine reaches them within the budget).
fn samples_per_class(game: Game) -> u64 {
    match game.hole_cards() {
        2 => 400_000,
        4 => 30_000,
        _ => 9_000,
    }
}

/// Every class should have at least this many samples.
const MIN_SAMPLES: u32 = 40;

struct Tally {
    share: Vec<f64>,
    count: Vec<u32>,
}

/// The pot shares of `holes` on `board` (hi only, or hi/lo 8-or-better).
fn shares(game: Game, holes: &[CardSet], board: CardSet, out: &mut [f64]) {
    let hi: Vec<u32> = if game.is_omaha() {
        let b = OmahaBoard::new(board);
        holes.iter().map(|&h| omaha_hi(&OmahaHole::new(h), &b).0).collect()
    } else {
        holes.iter().map(|&h| rate_hi(h.union(board), game.hi_rules()).0).collect()
    };
    let lo: Vec<Option<u32>> = if game.has_lo() {
        let b = OmahaBoard::new(board);
        holes.iter().map(|&h| omaha_lo8(&OmahaHole::new(h), &b).map(|r| r.0)).collect()
    } else {
        vec![None; holes.len()]
    };
    out.fill(0.0);
    let best_lo = lo.iter().flatten().max().copied();
    let hi_pot = if best_lo.is_some() { 0.5 } else { 1.0 };
    let best_hi = *hi.iter().max().expect("players");
    let hi_winners = hi.iter().filter(|&&r| r == best_hi).count() as f64;
    for (i, &r) in hi.iter().enumerate() {
        if r == best_hi {
            out[i] += hi_pot / hi_winners;
        }
    }
    if let Some(bl) = best_lo {
        let n = lo.iter().filter(|&&r| r == Some(bl)).count() as f64;
        for (i, &r) in lo.iter().enumerate() {
            if r == Some(bl) {
                out[i] += 0.5 / n;
            }
        }
    }
}

fn deck(game: Game) -> Vec<Card> {
    game.deck().cards().iter().collect()
}

/// Random deals on two threads until `target_samples` class samples or `seconds` of wall time.
fn simulate(game: Game, players: usize, keys: &[u64], seconds: f64, target_samples: u64, seed: u64) -> Tally {
    let threads = 2;
    let k = game.hole_cards();
    let results: Vec<Tally> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                s.spawn(move || {
                    let mut rng = Rng::new(seed, t as u64);
                    let mut cards = deck(game);
                    let mut tally = Tally { share: vec![0.0; keys.len()], count: vec![0; keys.len()] };
                    let mut holes = vec![CardSet::EMPTY; players];
                    let mut out = vec![0.0; players];
                    let start = Instant::now();
                    let limit = Duration::from_secs_f64(seconds);
                    let mut trials = 0u64;
                    // Stop at the sample target, or at the time cap on a busy machine.
                    let target = target_samples / (threads * players) as u64;
                    while !trials.is_multiple_of(256) || (trials < target && start.elapsed() < limit) {
                        trials += 1;
                        let need = players * k + 5;
                        for i in 0..need {
                            let j = i + rng.below((cards.len() - i) as u64) as usize;
                            cards.swap(i, j);
                        }
                        for (p, hole) in holes.iter_mut().enumerate() {
                            *hole = CardSet::from_cards(cards[p * k..p * k + k].iter().copied());
                        }
                        let at = players * k;
                        let board = CardSet::from_cards(cards[at..at + 5].iter().copied());
                        shares(game, &holes, board, &mut out);
                        for (hole, share) in holes.iter().zip(&out) {
                            let c = keys.binary_search(&class_key(*hole)).expect("a class");
                            tally.share[c] += share;
                            tally.count[c] += 1;
                        }
                    }
                    tally
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("worker")).collect()
    });
    let mut total = Tally { share: vec![0.0; keys.len()], count: vec![0; keys.len()] };
    for r in results {
        for i in 0..keys.len() {
            total.share[i] += r.share[i];
            total.count[i] += r.count[i];
        }
    }
    total
}

/// Extra trials for the `rare` classes: a hand of the class against random hands, on two threads.
fn top_up(game: Game, players: usize, keys: &[u64], rare: &[usize], t: &mut Tally) {
    let k = game.hole_cards();
    let results: Vec<Vec<(usize, f64, u32)>> = std::thread::scope(|s| {
        let handles: Vec<_> = rare
            .chunks(rare.len().div_ceil(2).max(1))
            .enumerate()
            .map(|(n, part)| {
                let counts: Vec<u32> = part.iter().map(|&i| t.count[i]).collect();
                s.spawn(move || {
                    let mut rng = Rng::new(0xC1A55, n as u64);
                    let mut holes = vec![CardSet::EMPTY; players];
                    let mut out = vec![0.0; players];
                    let mut done = Vec::with_capacity(part.len());
                    for (&class, &have) in part.iter().zip(&counts) {
                        let hand = representative(keys[class]);
                        let mut cards: Vec<Card> = deck(game).into_iter().filter(|c| !hand.contains(*c)).collect();
                        let trials = (MIN_SAMPLES - have) * 2;
                        let mut sum = 0.0;
                        for _ in 0..trials {
                            let need = (players - 1) * k + 5;
                            for i in 0..need {
                                let j = i + rng.below((cards.len() - i) as u64) as usize;
                                cards.swap(i, j);
                            }
                            holes[0] = hand;
                            for (p, hole) in holes.iter_mut().enumerate().skip(1) {
                                let at = (p - 1) * k;
                                *hole = CardSet::from_cards(cards[at..at + k].iter().copied());
                            }
                            let at = (players - 1) * k;
                            shares(game, &holes, CardSet::from_cards(cards[at..at + 5].iter().copied()), &mut out);
                            sum += out[0];
                        }
                        done.push((class, sum, trials));
                    }
                    done
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("worker")).collect()
    });
    for (class, sum, n) in results.into_iter().flatten() {
        t.share[class] += sum;
        t.count[class] += n;
    }
}

/// Pseudo-samples of the group mean added to each class (0: no smoothing). Omaha classes get a
/// few hundred samples each in the time budget; pulling each towards the mean of its coarser
/// group (see `group_key`) orders neighbours better than the raw means.
fn prior_weight(game: Game) -> f64 {
    match game.hole_cards() {
        2 => 0.0,
        4 => 50.0,
        _ => 150.0,
    }
}

/// A coarser grouping of classes: the ranks held, and for each suit (largest first) how many
/// cards it has and, when two or more, its highest rank (the flush draw's strength).
fn group_key(hand: CardSet) -> u128 {
    let mut key = 0u128;
    for r in 0..13u8 {
        key = key << 3 | u128::from(hand.rank_count(r));
    }
    let mut suits: Vec<(u32, u16)> = (0..4)
        .map(|s| {
            let m = hand.suit_mask(s);
            let top = if m.count_ones() >= 2 { 16 - m.leading_zeros() as u16 } else { 0 };
            (m.count_ones(), top)
        })
        .collect();
    suits.sort_unstable_by(|a, b| b.cmp(a));
    for (n, top) in suits {
        key = key << 8 | u128::from(n) << 5 | u128::from(top);
    }
    key
}

/// A much coarser grouping, for groups too small to steady themselves (rare suit patterns): the
/// pair structure, the highest rank, and the suit counts with each suited group's highest rank.
fn super_key(hand: CardSet) -> u128 {
    let mut counts: Vec<u32> = (0..13u8).map(|r| hand.rank_count(r)).filter(|&c| c > 0).collect();
    counts.sort_unstable();
    let shape = counts.iter().fold(0u128, |k, &c| k << 3 | u128::from(c));
    let high = 16 - u128::from(hand.rank_mask().leading_zeros() as u16);
    (shape << 4 | high) << 32 | (group_key(hand) & 0xFFFF_FFFF)
}

/// Each class's equity: its own mean, pulled towards its group's mean by `prior_weight`; the
/// group's mean is itself pulled towards its supergroup's mean.
fn shrunk_equity(game: Game, keys: &[u64], t: &Tally) -> Vec<f64> {
    let k = prior_weight(game);
    let sums = |f: &dyn Fn(CardSet) -> u128| {
        let ks: Vec<u128> = keys.iter().map(|&key| f(representative(key))).collect();
        let mut m: std::collections::HashMap<u128, (f64, f64)> = std::collections::HashMap::new();
        for (i, g) in ks.iter().enumerate() {
            let e = m.entry(*g).or_default();
            e.0 += t.share[i];
            e.1 += f64::from(t.count[i]);
        }
        (ks, m)
    };
    let (gk, groups) = sums(&group_key);
    let (sk, supers) = sums(&super_key);
    (0..keys.len())
        .map(|i| {
            let (ss, sn) = supers[&sk[i]];
            let super_mean = ss / sn.max(1.0);
            let (gs, gn) = groups[&gk[i]];
            let group_mean = (gs + 3.0 * k * super_mean) / (gn + 3.0 * k).max(1.0);
            (t.share[i] + k * group_mean) / (f64::from(t.count[i]) + k).max(1.0)
        })
        .collect()
}

/// A hand of the class with `key` (suits in the key's order: the first mask is clubs, ...).
fn representative(key: u64) -> CardSet {
    let mut bits = 0u64;
    for s in 0..4 {
        bits |= ((key >> (48 - 16 * s)) & 0x1FFF) << (16 * s);
    }
    CardSet::from_bits(bits)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let scale: f64 = args.first().and_then(|a| a.parse().ok()).unwrap_or(1.0);
    let only: Vec<Game> = args.iter().skip(1).filter_map(|a| Game::from_name(a)).collect();
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/orderings");
    for game in ORDERING_GAMES {
        if !only.is_empty() && !only.contains(&game) {
            continue;
        }
        let keys = class_keys(game);
        for six_max in [false, true] {
            let started = Instant::now();
            let players = if six_max { 6 } else { 9 };
            let seconds = budget(game) * scale;
            let target = samples_per_class(game) * keys.len() as u64;
            let mut t = simulate(game, players, &keys, seconds, target, 0x5EED);
            // Classes the random deals rarely reach get trials of their own.
            let rare: Vec<usize> = (0..keys.len()).filter(|&i| t.count[i] < MIN_SAMPLES).collect();
            top_up(game, players, &keys, &rare, &mut t);
            let equity = shrunk_equity(game, &keys, &t);
            let mut order: Vec<usize> = (0..keys.len()).collect();
            order.sort_by(|&a, &b| equity[b].total_cmp(&equity[a]).then(keys[b].cmp(&keys[a])));
            let width = entry_width(keys.len());
            let bytes: Vec<u8> = order.iter().flat_map(|&c| (c as u32).to_le_bytes()[..width].to_vec()).collect();
            std::fs::write(dir.join(ordering_file(game, six_max)), bytes).expect("write the ordering");
            let samples: u64 = t.count.iter().map(|&c| u64::from(c)).sum();
            eprintln!(
                "{} {}: {} classes, {} samples (min {}), {} topped up, {:.1}s; best {} ({:.3}), {}, {}; worst {} ({:.3})",
                game.name(),
                if six_max { "6max" } else { "full" },
                keys.len(),
                samples,
                t.count.iter().min().copied().unwrap_or(0),
                rare.len(),
                started.elapsed().as_secs_f64(),
                representative(keys[order[0]]),
                equity[order[0]],
                representative(keys[order[1]]),
                representative(keys[order[2]]),
                representative(keys[*order.last().expect("classes")]),
                equity[*order.last().expect("classes")],
            );
        }
    }
}
