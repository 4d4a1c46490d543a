//! Generates the percent orderings of `rust_core/data/orderings/` (method: `rust_core/data/README.md`).
//!
//! ```text
//! gen_orderings [--method oracle|equity] [--seed N] [--out DIR] [SCALE] [GAME ...] [full|6max]
//! gen_orderings --compare DIR_A DIR_B [GAME ...]
//! ```
//!
//! `oracle` (the default, written to `data/orderings/`) is the Odds Oracle's published method
//! after Billings et al.: ten rounds; in each, every class plays trials (doubling each round) in
//! which it and a random "blind" hand put in a chip and always stay, the other seats are dealt
//! random hands that call a chip when their class is currently "good" (won more than its chip in
//! the round before; every class in the first round), and the pot goes to the best hand(s).
//! Classes are ordered by their net win in the last round. `equity` (written to
//! `data/orderings/equity/`) is all-in equity against 8 (or 5) random hands: every trial deals a
//! full table of random hands and credits each player's pot share to its hand's class.
//! `SCALE` multiplies the trials (oracle) or the time budget (equity). `--compare` prints, for
//! two directories of orderings, the Jaccard index of the class sets of `N%` per game.

use pql_core::cards::{Card, CardSet};
use pql_core::eval::{omaha_hi, omaha_lo8, rate_hi, OmahaBoard, OmahaHole};
use pql_core::games::Game;
use pql_core::range::percent::{class_key, class_keys, class_percentiles, entry_width, ordering_file, ORDERING_GAMES};
use pql_core::rng::Rng;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The most hands at a table (full-ring hold'em).
const MAX_SEATS: usize = 10;

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

/// Per class: the sum of what its samples won (pot share, or net chips) and how many there were.
struct Tally {
    share: Vec<f64>,
    count: Vec<u32>,
}

impl Tally {
    fn new(classes: usize) -> Tally {
        Tally { share: vec![0.0; classes], count: vec![0; classes] }
    }

    fn add(&mut self, other: &Tally) {
        for i in 0..self.share.len() {
            self.share[i] += other.share[i];
            self.count[i] += other.count[i];
        }
    }
}

/// The pot shares of `holes` on `board` (hi only, or hi/lo 8-or-better with the hi scooping
/// when there is no low), written to `out[..holes.len()]`. At most `MAX_SEATS` hands.
fn shares(game: Game, holes: &[CardSet], board: CardSet, out: &mut [f64]) {
    let n = holes.len();
    let mut hi = [0u32; MAX_SEATS];
    let mut lo = [None; MAX_SEATS];
    if game.is_omaha() {
        let b = OmahaBoard::new(board);
        for (i, &h) in holes.iter().enumerate() {
            let hole = OmahaHole::new(h);
            hi[i] = omaha_hi(&hole, &b).0;
            if game.has_lo() {
                lo[i] = omaha_lo8(&hole, &b).map(|r| r.0);
            }
        }
    } else {
        for (i, &h) in holes.iter().enumerate() {
            hi[i] = rate_hi(h.union(board), game.hi_rules()).0;
        }
    }
    let (hi, lo) = (&hi[..n], &lo[..n]);
    out[..n].fill(0.0);
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
        let winners = lo.iter().filter(|&&r| r == Some(bl)).count() as f64;
        for (i, &r) in lo.iter().enumerate() {
            if r == Some(bl) {
                out[i] += 0.5 / winners;
            }
        }
    }
}

fn deck(game: Game) -> Vec<Card> {
    game.deck().cards().iter().collect()
}

/// Random deals on two threads until `target_samples` class samples or `seconds` of wall time.
/// `work(t)` on each of `threads` threads (t = 0, 1, ...), their tallies of `classes` summed.
fn summed_on_threads(threads: usize, classes: usize, work: impl Fn(usize) -> Tally + Sync) -> Tally {
    let results: Vec<Tally> = std::thread::scope(|s| {
        let work = &work;
        let handles: Vec<_> = (0..threads).map(|t| s.spawn(move || work(t))).collect();
        handles.into_iter().map(|h| h.join().expect("worker")).collect()
    });
    let mut total = Tally::new(classes);
    for r in &results {
        total.add(r);
    }
    total
}

fn simulate(game: Game, players: usize, keys: &[u64], seconds: f64, target_samples: u64, seed: u64) -> Tally {
    let threads = 2;
    let k = game.hole_cards();
    summed_on_threads(threads, keys.len(), |t| {
        let mut rng = Rng::new(seed, t as u64);
        let mut cards = deck(game);
        let mut tally = Tally::new(keys.len());
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

/// Each class's mean (equity, or net win): its own mean, pulled towards its group's mean by
/// `prior_weight`; the group's mean is itself pulled towards its supergroup's mean.
fn shrunk_means(game: Game, keys: &[u64], t: &Tally) -> Vec<f64> {
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

// ---- the Odds Oracle's method ----------------------------------------------------------------

/// Rounds of the oracle method; the good set has settled well before the last.
const ROUNDS: u32 = 10;

/// Seats at the table: ten full ring, nine in the big-O games (as the Oracle's author gives),
/// six 6-handed.
fn seats(game: Game, six_max: bool) -> usize {
    match (six_max, game.hole_cards()) {
        (true, _) => 6,
        (false, 2) => 10,
        (false, _) => 9,
    }
}

/// Trials per class in the last round, before scaling (round r has `last >> (ROUNDS - r)`).
fn last_round_trials(game: Game) -> u64 {
    match game.hole_cards() {
        2 => 262_144,
        4 => 4_096,
        _ => 128,
    }
}

/// One round of the oracle method: for every class, `trials` deals with a hand of the class in
/// seat 0 and random hands in the other seats; seat 1 (the blind) always stays, the others call
/// when their class is `good`. Seats 0 and 1 face the same table (one other always-in hand and
/// the conditional callers), so each deal credits both: the class's own trials, and a sample of
/// the blind's random class. Returns each class's summed net win (chips back minus the one put in).
fn oracle_round(game: Game, seats: usize, keys: &[u64], good: &[bool], trials: u64, seed: u64) -> Tally {
    let threads = 2;
    let k = game.hole_cards();
    summed_on_threads(threads, keys.len(), |t| {
        let mut rng = Rng::new(seed, t as u64);
        let mut tally = Tally::new(keys.len());
        let mut holes = [CardSet::EMPTY; MAX_SEATS];
        let mut out = [0.0; MAX_SEATS];
        let class_of = |h: CardSet| keys.binary_search(&class_key(h)).expect("a class");
        for class in (t..keys.len()).step_by(threads) {
            let hero = representative(keys[class]);
            let mut cards: Vec<Card> = game.deck().cards().minus(hero).iter().collect();
            let need = (seats - 1) * k + 5;
            for _ in 0..trials {
                for i in 0..need {
                    let j = i + rng.below((cards.len() - i) as u64) as usize;
                    cards.swap(i, j);
                }
                let hand = |s: usize| CardSet::from_cards(cards[s * k..s * k + k].iter().copied());
                holes[0] = hero;
                holes[1] = hand(0);
                let mut playing = 2;
                for s in 1..seats - 1 {
                    let h = hand(s);
                    if good[class_of(h)] {
                        holes[playing] = h;
                        playing += 1;
                    }
                }
                let at = (seats - 1) * k;
                let board = CardSet::from_cards(cards[at..at + 5].iter().copied());
                shares(game, &holes[..playing], board, &mut out);
                let pot = playing as f64;
                tally.share[class] += out[0] * pot - 1.0;
                tally.count[class] += 1;
                let blind = class_of(holes[1]);
                tally.share[blind] += out[1] * pot - 1.0;
                tally.count[blind] += 1;
            }
        }
        tally
    })
}

/// The oracle method's ten rounds; returns each class's net win per hand in the last round (shrunk
/// towards its group in the Omaha games) and the size of the good set after each round.
fn oracle_net(game: Game, six_max: bool, keys: &[u64], last_trials: u64, seed: u64) -> (Vec<f64>, Vec<usize>) {
    let seats = seats(game, six_max);
    let mut good = vec![true; keys.len()];
    let mut good_sizes = Vec::new();
    let mut net = vec![0.0; keys.len()];
    for round in 1..=ROUNDS {
        let trials = (last_trials >> (ROUNDS - round)).max(1);
        let tally = oracle_round(game, seats, keys, &good, trials, seed ^ u64::from(round) << 32);
        net = shrunk_means(game, keys, &tally);
        for (g, &n) in good.iter_mut().zip(&net) {
            *g = n > 0.0;
        }
        good_sizes.push(good.iter().filter(|&&g| g).count());
    }
    (net, good_sizes)
}

/// Class numbers best first: by strength, ties by class key (deterministic).
fn best_first(keys: &[u64], strength: &[f64]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..keys.len()).collect();
    order.sort_by(|&a, &b| strength[b].total_cmp(&strength[a]).then(keys[b].cmp(&keys[a])));
    order
}

fn write_ordering(path: &Path, keys: &[u64], order: &[usize]) {
    let width = entry_width(keys.len());
    let bytes: Vec<u8> = order.iter().flat_map(|&c| (c as u32).to_le_bytes()[..width].to_vec()).collect();
    std::fs::write(path, bytes).expect("write the ordering");
}

// ---- comparing two sets of orderings ----------------------------------------------------------

/// The percents whose class sets `--compare` reports.
const COMPARED_PERCENTS: [f32; 6] = [5.0, 10.0, 15.0, 20.0, 30.0, 50.0];

/// How far from its boundary a class that is inside `N%` in one ordering and outside in the other
/// lies, at most over `COMPARED_PERCENTS` (percentile points): a small value means the two agree up
/// to classes at the boundaries.
fn farthest_swap(game: Game, a: &[u8], b: &[u8]) -> Option<f32> {
    let (pa, pb) = (class_percentiles(game, a)?, class_percentiles(game, b)?);
    let mut far = 0f32;
    for &n in &COMPARED_PERCENTS {
        for (&x, &y) in pa.iter().zip(&pb) {
            if (x <= n) != (y <= n) {
                far = far.max((x - n).abs().max((y - n).abs()));
            }
        }
    }
    Some(far)
}

/// Per `COMPARED_PERCENTS`: the Jaccard index of the class sets of `N%` in two orderings of `game`.
fn jaccards(game: Game, a: &[u8], b: &[u8]) -> Option<Vec<f64>> {
    let (pa, pb) = (class_percentiles(game, a)?, class_percentiles(game, b)?);
    Some(
        COMPARED_PERCENTS
            .iter()
            .map(|&n| {
                let both = pa.iter().zip(&pb).filter(|(&x, &y)| x <= n && y <= n).count();
                let either = pa.iter().zip(&pb).filter(|(&x, &y)| x <= n || y <= n).count();
                both as f64 / either.max(1) as f64
            })
            .collect(),
    )
}

fn compare(a: &Path, b: &Path, only: &[Game]) {
    println!("| ordering | {} | farthest swap |", COMPARED_PERCENTS.map(|n| format!("{n}%")).join(" | "));
    println!("|---|{}---|", "---|".repeat(COMPARED_PERCENTS.len()));
    for game in ORDERING_GAMES.into_iter().filter(|g| only.is_empty() || only.contains(g)) {
        for six_max in [false, true] {
            let file = ordering_file(game, six_max);
            let (Ok(x), Ok(y)) = (std::fs::read(a.join(&file)), std::fs::read(b.join(&file))) else { continue };
            match jaccards(game, &x, &y) {
                Some(j) => {
                    let cells: Vec<String> = j.iter().map(|v| format!("{v:.3}")).collect();
                    let far = farthest_swap(game, &x, &y).unwrap_or(f32::NAN);
                    println!("| {file} | {} | {far:.2} |", cells.join(" | "));
                }
                None => println!("| {file} | (not an ordering of the game) |"),
            }
        }
    }
}

// ---- the command line -------------------------------------------------------------------------

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut take = |flag: &str| -> Option<String> {
        let i = args.iter().position(|a| a == flag)?;
        let value = args.get(i + 1).cloned();
        args.drain(i..(i + 2).min(args.len()));
        value
    };
    let method = take("--method").unwrap_or_else(|| "oracle".into());
    let seed: u64 = take("--seed").and_then(|s| s.parse().ok()).unwrap_or(0x5EED);
    let out = take("--out").map(PathBuf::from);
    let compared = take("--compare");
    let only: Vec<Game> = args.iter().filter_map(|a| Game::from_name(a)).collect();
    if let Some(a) = compared {
        let b = args.first().expect("--compare DIR_A DIR_B");
        compare(Path::new(&a), Path::new(b), &only);
        return;
    }
    let scale: f64 = args.first().and_then(|a| a.parse().ok()).unwrap_or(1.0);
    let tables: Vec<bool> = match (args.iter().any(|a| a == "full"), args.iter().any(|a| a == "6max")) {
        (true, false) => vec![false],
        (false, true) => vec![true],
        _ => vec![false, true],
    };
    let data = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/orderings");
    let oracle = match method.as_str() {
        "oracle" => true,
        "equity" => false,
        m => panic!("unknown method '{m}': oracle or equity"),
    };
    let dir = out.unwrap_or_else(|| if oracle { data } else { data.join("equity") });
    std::fs::create_dir_all(&dir).expect("the output directory");
    for game in ORDERING_GAMES.into_iter().filter(|g| only.is_empty() || only.contains(g)) {
        let keys = class_keys(game);
        for &six_max in &tables {
            let started = Instant::now();
            let table = if six_max { "6max" } else { "full" };
            let (strength, note) = if oracle {
                let last = ((last_round_trials(game) as f64 * scale) as u64).max(1);
                let (net, good) = oracle_net(game, six_max, &keys, last, seed);
                (
                    net,
                    format!(
                        "{} seats, {last} trials per class in the last round, good set by round {good:?}",
                        seats(game, six_max)
                    ),
                )
            } else {
                let players = if six_max { 6 } else { 9 };
                let target = samples_per_class(game) * keys.len() as u64;
                let mut t = simulate(game, players, &keys, budget(game) * scale, target, seed);
                // Classes the random deals rarely reach get trials of their own.
                let rare: Vec<usize> = (0..keys.len()).filter(|&i| t.count[i] < MIN_SAMPLES).collect();
                top_up(game, players, &keys, &rare, &mut t);
                let samples: u64 = t.count.iter().map(|&c| u64::from(c)).sum();
                (shrunk_means(game, &keys, &t), format!("{samples} samples, {} topped up", rare.len()))
            };
            let order = best_first(&keys, &strength);
            write_ordering(&dir.join(ordering_file(game, six_max)), &keys, &order);
            let show = |i: usize| format!("{} ({:.3})", representative(keys[order[i]]), strength[order[i]]);
            eprintln!(
                "{} {table} [{method}]: {} classes, {note}, {:.1}s; best {}, {}, {}; worst {}",
                game.name(),
                keys.len(),
                started.elapsed().as_secs_f64(),
                show(0),
                show(1),
                show(2),
                show(order.len() - 1),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pql_core::cards::parse_cards;

    fn class_of(keys: &[u64], hand: &str) -> usize {
        keys.binary_search(&class_key(parse_cards(hand).unwrap())).unwrap()
    }

    #[test]
    fn pots_split_hi_and_low_as_the_game_does() {
        let mut out = [0.0; 3];
        let h = |t: &str| parse_cards(t).unwrap();
        // Hold'em: two straights split, the third hand gets nothing.
        shares(Game::Holdem, &[h("Ah2c"), h("As3d"), h("7c7d")], h("KsQdJhTc4s"), &mut out);
        assert_eq!(out, [0.5, 0.5, 0.0]);
        // Omaha-8 with a low: kings full take the high half, the nut low the low half.
        shares(Game::Omaha8, &[h("AhAs4c5c"), h("KhKdQcJc")], h("2h3d7cKsQs"), &mut out[..2]);
        assert_eq!(out[..2], [0.5, 0.5]);
        // No low on the board: the high hand scoops.
        shares(Game::Omaha8, &[h("AhAs4c5c"), h("KhKdQcJc")], h("KsQhJd9cTs"), &mut out[..2]);
        assert_eq!(out[..2], [0.0, 1.0]);
    }

    #[test]
    fn the_oracle_method_at_small_scale() {
        let keys = class_keys(Game::Holdem);
        let (net, good) = oracle_net(Game::Holdem, false, &keys, 512, 7);
        let order = best_first(&keys, &net);
        let rank = |hand: &str| order.iter().position(|&c| c == class_of(&keys, hand)).unwrap();
        assert_eq!(rank("AsAh"), 0);
        assert_eq!(rank("KsKh"), 1);
        // 72 offsuit is among the worst 15% of the classes.
        assert!(rank("7s2h") >= 169 - 25, "72o at {}", rank("7s2h"));
        // Every class is good in the first round's environment; fewer are after it, and the
        // set shrinks further once the weak hands stop calling.
        assert_eq!(good.len(), ROUNDS as usize);
        assert!(good[0] < 169 && good[ROUNDS as usize - 1] < good[0], "{good:?}");
        // What a class wins is its good-ness: the good classes are exactly the first ones.
        let last = good[ROUNDS as usize - 1];
        assert!(order[..last].iter().all(|&c| net[c] > 0.0) && order[last..].iter().all(|&c| net[c] <= 0.0));
    }

    #[test]
    fn the_run_is_fixed_by_its_seed() {
        let keys = class_keys(Game::ShortDeck);
        let a = oracle_net(Game::ShortDeck, true, &keys, 64, 3);
        let b = oracle_net(Game::ShortDeck, true, &keys, 64, 3);
        assert_eq!(a, b);
    }

    #[test]
    fn jaccard_of_an_ordering_with_itself_and_its_reverse() {
        let keys = class_keys(Game::Holdem);
        let net: Vec<f64> = (0..keys.len()).map(|i| i as f64).collect();
        let order = best_first(&keys, &net);
        let bytes: Vec<u8> = order.iter().flat_map(|&c| (c as u16).to_le_bytes()).collect();
        assert!(jaccards(Game::Holdem, &bytes, &bytes).unwrap().iter().all(|&j| j == 1.0));
        let reversed: Vec<u8> = order.iter().rev().flat_map(|&c| (c as u16).to_le_bytes()).collect();
        let j = jaccards(Game::Holdem, &bytes, &reversed).unwrap();
        // The best 5% and the worst 5% share no class; the best and worst halves may share
        // the class that straddles 50%.
        assert_eq!(j[0], 0.0);
        assert!(j[5] < 0.05, "{j:?}");
        assert!(jaccards(Game::Holdem, &bytes[2..], &bytes).is_none());
        assert_eq!(farthest_swap(Game::Holdem, &bytes, &bytes), Some(0.0));
        assert!(farthest_swap(Game::Holdem, &bytes, &reversed).unwrap() > 40.0);
    }
}
