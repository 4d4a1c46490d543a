//! Hand strength and potential against several opponents dealt together (docs/analysis.md). Each
//! joint deal of the opponents' holdings (no card twice) weighs the product of their range
//! weights; against it p is *ahead* when it beats every opponent, *tied* when it ties the best of
//! them and *behind* otherwise, and its share of the pot is 1, 1/k among k tied best hands, or 0.
//! Exact while the joint enumeration fits a budget; beyond it whole joint deals are sampled
//! (range opponents by weight, a deal sharing a card rejected whole, then random opponents from
//! the cards left), which is uniform over the weighted joint deals.

use super::potential::{from_table, AHEAD, BEHIND, POTENTIAL_BUDGET, POTENTIAL_SAMPLES, TIED};
use super::{draw_cards, HiRater, Holding, Potential};
use crate::cards::{binomial, for_each_combination, Card, CardSet};
use crate::eval::HiRating;
use crate::games::Game;
use crate::rng::Rng;
use std::cmp::Ordering;

/// Joint deals of the opponents enumerated exactly for hand strength: two random hold'em
/// opponents on the flop (1,081² ordered pairs at most) fit.
pub const JOINT_EXACT_BUDGET: f64 = 1_200_000.0;
/// Joint deals drawn for hand strength when the enumeration does not fit.
pub const JOINT_SAMPLES: usize = 20_000;
/// Joint deals drawn for hand strength when the enumeration does not fit and the value is
/// averaged over a Monte Carlo run's deals: each deal draws its own few from its own stream, so
/// the run's trials drive the inner sampling and its standard error includes it (a mean of
/// unbiased estimates: the same mean, a noisier value per deal).
pub const JOINT_AVERAGED_SAMPLES: usize = 64;
/// Rejected joint deals tolerated per accepted one before giving up (ranges that rarely fit).
const MAX_ATTEMPTS: usize = 100;

/// Where one opponent's holding comes from.
#[derive(Clone, Debug)]
pub enum Opponent {
    /// Any `down` unseen cards, with `up` (the stud up cards p sees).
    Random { up: CardSet, down: usize },
    /// One of these weighted holdings (none sharing a hidden card with what p knows).
    Listed(Vec<Holding>),
}

/// The opponents, the cards p knows (its hand, the board, dead cards, up cards) and the rest.
pub struct Field<'a> {
    pub opponents: &'a [Opponent],
    pub known: CardSet,
    pub unseen: &'a [Card],
}

/// A value and whether it was enumerated exactly (false: sampled).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Joint<T> {
    pub value: T,
    pub exact: bool,
}

/// p's state against the field: `mine` against the opponents' `ratings`.
fn field_state(mine: HiRating, ratings: impl Iterator<Item = HiRating>) -> (usize, f64) {
    let mut ties = 0u32;
    for r in ratings {
        match mine.cmp(&r) {
            Ordering::Less => return (BEHIND, 0.0),
            Ordering::Equal => ties += 1,
            Ordering::Greater => {}
        }
    }
    if ties == 0 {
        (AHEAD, 1.0)
    } else {
        (TIED, 1.0 / f64::from(ties + 1))
    }
}

impl Field<'_> {
    /// Every opponent's holdings listed, when the product of their numbers is at most `limit`.
    fn exact_lists(&self, limit: f64) -> Option<Vec<Vec<Holding>>> {
        let size = |o: &Opponent| match o {
            Opponent::Random { down, .. } => binomial(self.unseen.len(), *down),
            Opponent::Listed(list) => list.len() as f64,
        };
        let product: f64 = self.opponents.iter().map(size).product();
        if product > limit {
            return None;
        }
        let lists = self
            .opponents
            .iter()
            .map(|o| match o {
                Opponent::Random { up, down } => {
                    let mut v = Vec::new();
                    for_each_combination(self.unseen, *down, *up, &mut |cards| v.push(Holding { cards, weight: 1.0 }));
                    v
                }
                Opponent::Listed(list) => list.clone(),
            })
            .collect();
        Some(lists)
    }

    /// Visits every joint deal of `lists` (indices per opponent and weight) avoiding `taken`.
    fn for_each_joint(&self, lists: &[Vec<Holding>], taken: CardSet, f: &mut impl FnMut(&[usize], f64)) {
        let mut picks = vec![0usize; lists.len()];
        self.joint_from(lists, 0, taken, 1.0, &mut picks, f);
    }

    fn joint_from(
        &self,
        lists: &[Vec<Holding>],
        j: usize,
        taken: CardSet,
        weight: f64,
        picks: &mut [usize],
        f: &mut impl FnMut(&[usize], f64),
    ) {
        if j == lists.len() {
            f(picks, weight);
            return;
        }
        for (i, h) in lists[j].iter().enumerate() {
            let hidden = h.cards.minus(self.known);
            if hidden.overlaps(taken) || h.weight <= 0.0 {
                continue;
            }
            picks[j] = i;
            self.joint_from(lists, j + 1, taken.union(hidden), weight * h.weight, picks, f);
        }
    }
}

/// Draws joint deals of a field: range opponents by weight, then random ones.
struct Sampler<'a> {
    field: &'a Field<'a>,
    /// Cumulative weights of each listed opponent's holdings (empty for random ones).
    cumulative: Vec<Vec<f64>>,
}

impl<'a> Sampler<'a> {
    fn new(field: &'a Field<'a>) -> Sampler<'a> {
        let cumulative = field
            .opponents
            .iter()
            .map(|o| match o {
                Opponent::Listed(list) => {
                    let mut total = 0.0;
                    list.iter()
                        .map(|h| {
                            total += h.weight.max(0.0);
                            total
                        })
                        .collect()
                }
                Opponent::Random { .. } => Vec::new(),
            })
            .collect();
        Sampler { field, cumulative }
    }

    /// One joint deal into `hands` (opponent order); the hidden cards it takes, or None when
    /// two range holdings shared a card (the deal is rejected whole) or a range is empty.
    fn draw(&self, rng: &mut Rng, hands: &mut [CardSet]) -> Option<CardSet> {
        let known = self.field.known;
        let mut taken = CardSet::EMPTY;
        for (j, o) in self.field.opponents.iter().enumerate() {
            if let Opponent::Listed(list) = o {
                let cum = &self.cumulative[j];
                let total = *cum.last()?;
                if total <= 0.0 {
                    return None;
                }
                let x = rng.unit() * total;
                let i = cum.partition_point(|&c| c <= x).min(list.len() - 1);
                let hidden = list[i].cards.minus(known);
                if hidden.overlaps(taken) {
                    return None;
                }
                taken = taken.union(hidden);
                hands[j] = list[i].cards;
            }
        }
        for (j, o) in self.field.opponents.iter().enumerate() {
            if let Opponent::Random { up, down } = o {
                let cards = draw_cards(self.field.unseen, *down, taken, rng);
                taken = taken.union(cards);
                hands[j] = cards.union(*up);
            }
        }
        Some(taken)
    }
}

/// Joint hand strength: p's average share of the pot against the whole field on `board` if the
/// hand ended now (heads-up: (ahead + tied/2) / total). 0 when no joint deal fits.
/// Beyond the exact budget, `samples` joint deals are drawn with `rng`.
pub fn joint_strength(
    game: Game,
    hand: CardSet,
    board: CardSet,
    field: &Field,
    rng: &mut Rng,
    samples: usize,
) -> Joint<f64> {
    strength_within(game, hand, board, field, rng, JOINT_EXACT_BUDGET, samples)
}

/// [`joint_strength`] enumerating at most `budget` joint deals.
fn strength_within(
    game: Game,
    hand: CardSet,
    board: CardSet,
    field: &Field,
    rng: &mut Rng,
    budget: f64,
    samples: usize,
) -> Joint<f64> {
    let rater = HiRater::new(game, board);
    let mine = rater.rate(hand);
    let ratio = |num: f64, den: f64| if den > 0.0 { num / den } else { 0.0 };
    if let Some(lists) = field.exact_lists(budget) {
        let ratings: Vec<Vec<HiRating>> =
            lists.iter().map(|l| l.iter().map(|h| rater.rate(h.cards)).collect()).collect();
        let (mut share, mut total) = (0.0, 0.0);
        field.for_each_joint(&lists, CardSet::EMPTY, &mut |picks, w| {
            let (_, s) = field_state(mine, picks.iter().enumerate().map(|(j, &i)| ratings[j][i]));
            share += w * s;
            total += w;
        });
        return Joint { value: ratio(share, total), exact: true };
    }
    let sampler = Sampler::new(field);
    let mut hands = vec![CardSet::EMPTY; field.opponents.len()];
    let (mut share, mut accepted, mut attempts) = (0.0, 0usize, 0usize);
    while accepted < samples && attempts < samples * MAX_ATTEMPTS {
        attempts += 1;
        if sampler.draw(rng, &mut hands).is_some() {
            share += field_state(mine, hands.iter().map(|&h| rater.rate(h))).1;
            accepted += 1;
        }
    }
    Joint { value: ratio(share, accepted as f64), exact: false }
}

/// Joint potential: each joint deal of the field and each completion of the board by `need`
/// cards classified ahead/tied/behind against the whole field now and at the end, Loki's
/// formulas applied to the table. Exact while joint deals × completions fit
/// [`POTENTIAL_BUDGET`], otherwise [`POTENTIAL_SAMPLES`] joint deals each with one completion.
pub fn joint_potential(
    game: Game,
    hand: CardSet,
    board: CardSet,
    field: &Field,
    need: usize,
    rng: &mut Rng,
) -> Joint<Potential> {
    potential_within(game, hand, board, field, need, rng, POTENTIAL_BUDGET)
}

/// [`joint_potential`] enumerating at most `budget` (joint deal, completion) pairs.
fn potential_within(
    game: Game,
    hand: CardSet,
    board: CardSet,
    field: &Field,
    need: usize,
    rng: &mut Rng,
    budget: f64,
) -> Joint<Potential> {
    if let Some(exact) = exact_potential(game, hand, board, field, need, budget) {
        return exact;
    }
    let now_rater = HiRater::new(game, board);
    let mine_now = now_rater.rate(hand);
    let mut hp = [[0.0f64; 3]; 3];
    let sampler = Sampler::new(field);
    let mut hands = vec![CardSet::EMPTY; field.opponents.len()];
    let (mut accepted, mut attempts) = (0usize, 0usize);
    while accepted < POTENTIAL_SAMPLES && attempts < POTENTIAL_SAMPLES * MAX_ATTEMPTS {
        attempts += 1;
        let Some(taken) = sampler.draw(rng, &mut hands) else { continue };
        let extra = draw_cards(field.unseen, need, taken, rng);
        let rater = HiRater::new(game, board.union(extra));
        let (s_now, _) = field_state(mine_now, hands.iter().map(|&h| now_rater.rate(h)));
        let (s_end, _) = field_state(rater.rate(hand), hands.iter().map(|&h| rater.rate(h)));
        hp[s_now][s_end] += 1.0;
        accepted += 1;
    }
    Joint { value: from_table(&hp), exact: false }
}

/// The exact joint potential when (joint deal, completion) pairs fit `budget`, else None.
fn exact_potential(
    game: Game,
    hand: CardSet,
    board: CardSet,
    field: &Field,
    need: usize,
    budget: f64,
) -> Option<Joint<Potential>> {
    if need == 0 || field.opponents.is_empty() {
        return Some(Joint { value: Potential::default(), exact: true });
    }
    let now_rater = HiRater::new(game, board);
    let mine_now = now_rater.rate(hand);
    let mut hp = [[0.0f64; 3]; 3];
    let completions = binomial(field.unseen.len(), need);
    let lists = field.exact_lists(budget / completions.max(1.0))?;
    let now: Vec<Vec<HiRating>> = lists.iter().map(|l| l.iter().map(|h| now_rater.rate(h.cards)).collect()).collect();
    let mut fin: Vec<Vec<HiRating>> = now.clone();
    for_each_combination(field.unseen, need, CardSet::EMPTY, &mut |extra| {
        let rater = HiRater::new(game, board.union(extra));
        let mine = rater.rate(hand);
        for (l, f) in lists.iter().zip(fin.iter_mut()) {
            for (h, r) in l.iter().zip(f.iter_mut()) {
                if !h.cards.overlaps(extra) {
                    *r = rater.rate(h.cards);
                }
            }
        }
        field.for_each_joint(&lists, extra, &mut |picks, w| {
            let (s_now, _) = field_state(mine_now, picks.iter().enumerate().map(|(j, &i)| now[j][i]));
            let (s_end, _) = field_state(mine, picks.iter().enumerate().map(|(j, &i)| fin[j][i]));
            hp[s_now][s_end] += w;
        });
    });
    Some(Joint { value: from_table(&hp), exact: true })
}

/// Accepted samples a deal draws for each potential when [`averaged_potential`] samples.
pub const POTENTIAL_AVERAGED_SAMPLES: usize = 64;
/// Kept deals enough for the rarer potential of [`conditional_potential`] once four times its
/// samples have been drawn.
const RARE_KEPT: usize = 8;

/// The joint potential for a value averaged over a Monte Carlo run's deals: exact when it fits
/// [`POTENTIAL_BUDGET`], else [`conditional_potential`] with `samples` accepted samples each.
pub fn averaged_potential(
    game: Game,
    hand: CardSet,
    board: CardSet,
    field: &Field,
    need: usize,
    rng: &mut Rng,
    samples: usize,
) -> Joint<Potential> {
    exact_potential(game, hand, board, field, need, POTENTIAL_BUDGET)
        .unwrap_or_else(|| conditional_potential(game, hand, board, field, need, rng, samples))
}

/// An estimate of each potential whose expectation is the potential itself, for a value
/// averaged over a run's deals (a ratio of two small counts drawn in each deal would be
/// biased: the mean of ratios is not the ratio of the means).
///
/// Each potential is a share of its own deals: PPOT = E[g | now behind, ties half], NPOT the
/// mirror (the table of `from_table`). So joint deals are drawn and each kept for PPOT with
/// probability 1 when p is behind now, 1/2 when tied, 0 when ahead (a coin gives a tied deal to
/// one of the two), for NPOT the mirror; a kept deal is completed by `need` random cards and
/// scores g: for PPOT 1 if p ends ahead, 1/2 if it ends tied from behind, else 0; for NPOT 1
/// if p ends behind, 1/2 if it ends tied from ahead, else 0. The mean of g over the kept deals
/// is an unbiased estimate of the potential given at least one kept deal, so a run's average of
/// it converges to the average potential and its standard error covers the inner sampling.
/// At most `samples` × [`MAX_ATTEMPTS`] joint deals are drawn: a potential whose deals are
/// rarer than that (p almost never behind, say) reads 0, as one with none.
pub fn conditional_potential(
    game: Game,
    hand: CardSet,
    board: CardSet,
    field: &Field,
    need: usize,
    rng: &mut Rng,
    samples: usize,
) -> Joint<Potential> {
    if need == 0 || field.opponents.is_empty() {
        return Joint { value: Potential::default(), exact: true };
    }
    let now_rater = HiRater::new(game, board);
    let mine_now = now_rater.rate(hand);
    let sampler = Sampler::new(field);
    let mut hands = vec![CardSet::EMPTY; field.opponents.len()];
    // (sum of g, deals kept) for PPOT and NPOT.
    let (mut positive, mut negative) = ((0.0, 0usize), (0.0, 0usize));
    let mut attempts = 0usize;
    // A rare side (p almost always ahead, say) need not wait for all its samples: after
    // 4 x `samples` draws, [`RARE_KEPT`] kept deals each will do. The stop looks only at how many
    // deals were kept, never at their scores, so each mean stays unbiased.
    let rare = RARE_KEPT.min(samples);
    while (positive.1 < samples || negative.1 < samples) && attempts < samples * MAX_ATTEMPTS {
        if attempts >= 4 * samples && positive.1 >= rare && negative.1 >= rare {
            break;
        }
        attempts += 1;
        let Some(taken) = sampler.draw(rng, &mut hands) else { continue };
        let (now, _) = field_state(mine_now, hands.iter().map(|&h| now_rater.rate(h)));
        let for_positive = match now {
            BEHIND => true,
            AHEAD => false,
            _ => rng.below(2) == 0,
        };
        let kept = if for_positive { &mut positive } else { &mut negative };
        if kept.1 >= samples {
            continue;
        }
        let extra = draw_cards(field.unseen, need, taken, rng);
        let rater = HiRater::new(game, board.union(extra));
        let (end, _) = field_state(rater.rate(hand), hands.iter().map(|&h| rater.rate(h)));
        let g = match (now, end, for_positive) {
            (_, AHEAD, true) | (_, BEHIND, false) => 1.0,
            (BEHIND, TIED, true) | (AHEAD, TIED, false) => 0.5,
            _ => 0.0,
        };
        kept.0 += g;
        kept.1 += 1;
    }
    let mean = |(sum, n): (f64, usize)| if n > 0 { sum / n as f64 } else { 0.0 };
    Joint { value: Potential { positive: mean(positive), negative: mean(negative) }, exact: false }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{potential, tally};
    use crate::cards::parse_cards;
    use crate::eval::rate_hi;

    fn unseen_of(known: CardSet) -> Vec<Card> {
        CardSet::FULL.minus(known).iter().collect()
    }

    fn all_holdings(unseen: &[Card]) -> Vec<Holding> {
        let mut v = Vec::new();
        for_each_combination(unseen, 2, CardSet::EMPTY, &mut |cards| v.push(Holding { cards, weight: 1.0 }));
        v
    }

    /// Heads-up the joint values are the heads-up ones (docs/analysis.md's example).
    #[test]
    fn heads_up_is_unchanged() {
        let hole = parse_cards("AdQc").unwrap();
        let board = parse_cards("3h4cJh").unwrap();
        let known = hole.union(board);
        let unseen = unseen_of(known);
        let holdings = all_holdings(&unseen);
        let rater = HiRater::new(Game::Holdem, board);
        let heads_up = tally(&rater, rater.rate(hole), &holdings).strength();
        let mut rng = Rng::new(3, 3);
        for opp in [Opponent::Random { up: CardSet::EMPTY, down: 2 }, Opponent::Listed(holdings.clone())] {
            let opponents = [opp];
            let field = Field { opponents: &opponents, known, unseen: &unseen };
            let hs = joint_strength(Game::Holdem, hole, board, &field, &mut rng, JOINT_SAMPLES);
            assert!(hs.exact);
            assert!((hs.value - heads_up).abs() < 1e-12, "{hs:?} {heads_up}");
            for need in [1, 2] {
                let pot = joint_potential(Game::Holdem, hole, board, &field, need, &mut rng);
                let hu = potential(Game::Holdem, hole, board, &holdings, &unseen, need, &mut rng);
                assert!(pot.exact);
                assert!((pot.value.positive - hu.positive).abs() < 1e-12, "{pot:?} {hu:?}");
                assert!((pot.value.negative - hu.negative).abs() < 1e-12, "{pot:?} {hu:?}");
            }
        }
    }

    /// A brute-force reference written separately: every ordered pair of disjoint holdings of
    /// two random opponents on the river, p's share among the three hands.
    fn brute_two_opponents(hole: CardSet, board: CardSet) -> f64 {
        let unseen = unseen_of(hole.union(board));
        let rate = |h: CardSet| rate_hi(h.union(board), Game::Holdem.hi_rules());
        let mine = rate(hole);
        let (mut sum, mut n) = (0.0, 0.0);
        for a in 0..unseen.len() {
            for b in a + 1..unseen.len() {
                let h1 = CardSet::from_cards([unseen[a], unseen[b]]);
                for c in 0..unseen.len() {
                    for d in c + 1..unseen.len() {
                        let h2 = CardSet::from_cards([unseen[c], unseen[d]]);
                        if h1.overlaps(h2) {
                            continue;
                        }
                        let best = rate(h1).max(rate(h2));
                        let ties = u32::from(rate(h1) == mine) + u32::from(rate(h2) == mine);
                        sum += match mine.cmp(&best) {
                            Ordering::Greater => 1.0,
                            Ordering::Equal => 1.0 / f64::from(ties + 1),
                            Ordering::Less => 0.0,
                        };
                        n += 1.0;
                    }
                }
            }
        }
        sum / n
    }

    #[test]
    fn two_random_opponents_exact_and_sampled_match_brute_force() {
        // A board where ties happen (a straight on board) and one where they do not.
        for (hole, board) in [("AdQc", "3h4cJh9s2d"), ("7d7c", "5h6c8hTsQd"), ("2c3d", "AhKhQhJhTh")] {
            let hole = parse_cards(hole).unwrap();
            let board = parse_cards(board).unwrap();
            let known = hole.union(board);
            let unseen = unseen_of(known);
            let reference = brute_two_opponents(hole, board);
            let random = Opponent::Random { up: CardSet::EMPTY, down: 2 };
            let opponents = [random.clone(), random];
            let field = Field { opponents: &opponents, known, unseen: &unseen };
            let mut rng = Rng::new(9, 1);
            let exact = joint_strength(Game::Holdem, hole, board, &field, &mut rng, JOINT_SAMPLES);
            assert!(exact.exact);
            assert!((exact.value - reference).abs() < 1e-9, "{exact:?} {reference}");
            // The sampled path (budget 0) within five standard errors of the reference.
            let sampled = strength_within(Game::Holdem, hole, board, &field, &mut rng, 0.0, JOINT_SAMPLES);
            assert!(!sampled.exact);
            let se = (reference * (1.0 - reference) / JOINT_SAMPLES as f64).sqrt().max(1e-4);
            assert!((sampled.value - reference).abs() < 5.0 * se, "{sampled:?} {reference} {se}");
        }
    }

    /// docs/analysis.md / issue 19: A♦Q♣ on 3♥4♣J♥ against nine random opponents is best now about
    /// 0.28% of the time. The reference is an independent plain simulation: shuffle the unseen
    /// cards and deal nine hands off the top.
    #[test]
    fn nine_random_opponents() {
        let hole = parse_cards("AdQc").unwrap();
        let board = parse_cards("3h4cJh").unwrap();
        let known = hole.union(board);
        let mut unseen = unseen_of(known);
        let random = Opponent::Random { up: CardSet::EMPTY, down: 2 };
        let opponents = vec![random; 9];
        let field = Field { opponents: &opponents, known, unseen: &unseen };
        let mut rng = Rng::new(19, 9);
        let hs = joint_strength(Game::Holdem, hole, board, &field, &mut rng, JOINT_SAMPLES);
        assert!(!hs.exact);
        let rules = Game::Holdem.hi_rules();
        let mine = rate_hi(hole.union(board), rules);
        let (mut sum, n) = (0.0, 200_000);
        let mut shuffle_rng = Rng::new(77, 1);
        for _ in 0..n {
            for i in 0..18 {
                let j = i + shuffle_rng.below((unseen.len() - i) as u64) as usize;
                unseen.swap(i, j);
            }
            let ratings: Vec<_> = (0..9)
                .map(|k| rate_hi(CardSet::from_cards([unseen[2 * k], unseen[2 * k + 1]]).union(board), rules))
                .collect();
            sum += field_state(mine, ratings.into_iter()).1;
        }
        let reference = sum / f64::from(n);
        assert!((reference - 0.0028).abs() < 0.0006, "{reference}");
        // Standard error of the engine's 20,000 samples: sqrt(p / n) ≈ 0.00037.
        assert!((hs.value - reference).abs() < 5.0 * (reference / JOINT_SAMPLES as f64).sqrt(), "{hs:?} {reference}");
    }

    /// Joint potential with two opponents on the turn of a small case, exact, against a brute
    /// force written separately; and the sampled path within sampling error of it.
    #[test]
    fn two_opponents_potential_brute_force() {
        let hole = parse_cards("AdQc").unwrap();
        let board = parse_cards("3h4cJh9s").unwrap();
        let known = hole.union(board);
        let unseen = unseen_of(known);
        // Narrow ranges keep the exact enumeration small.
        let range = |text: &str| -> Vec<Holding> {
            text.split(' ').map(|h| Holding { cards: parse_cards(h).unwrap(), weight: 1.0 }).collect()
        };
        let a = range("JsJd TsTd 5h6h KhKs 9h9d");
        let b = range("QsJs Ah2h 4s4d 3s3c 5d6d");
        let weights_b: Vec<Holding> =
            b.iter().enumerate().map(|(i, h)| Holding { weight: 1.0 + i as f64, ..*h }).collect();
        let rules = Game::Holdem.hi_rules();
        let state = |mine: HiRating, x: HiRating, y: HiRating| match mine.cmp(&x.max(y)) {
            Ordering::Less => BEHIND,
            Ordering::Equal => TIED,
            Ordering::Greater => AHEAD,
        };
        let mut hp = [[0.0; 3]; 3];
        let mine_now = rate_hi(hole.union(board), rules);
        for x in &a {
            for y in &weights_b {
                if x.cards.overlaps(y.cards) {
                    continue;
                }
                let now = state(mine_now, rate_hi(x.cards.union(board), rules), rate_hi(y.cards.union(board), rules));
                for &river in &unseen {
                    if x.cards.contains(river) || y.cards.contains(river) {
                        continue;
                    }
                    let full = board.union(CardSet::from_cards([river]));
                    let end = state(
                        rate_hi(hole.union(full), rules),
                        rate_hi(x.cards.union(full), rules),
                        rate_hi(y.cards.union(full), rules),
                    );
                    hp[now][end] += x.weight * y.weight;
                }
            }
        }
        let reference = from_table(&hp);
        let opponents = [Opponent::Listed(a), Opponent::Listed(weights_b)];
        let field = Field { opponents: &opponents, known, unseen: &unseen };
        let mut rng = Rng::new(5, 5);
        let exact = joint_potential(Game::Holdem, hole, board, &field, 1, &mut rng);
        assert!(exact.exact);
        assert!((exact.value.positive - reference.positive).abs() < 1e-12, "{exact:?} {reference:?}");
        assert!((exact.value.negative - reference.negative).abs() < 1e-12, "{exact:?} {reference:?}");
        assert!(reference.positive > 0.0 && reference.negative > 0.0, "{reference:?}");
        // Sampled (budget 0): each potential is a ratio of counts from 20,000 draws.
        let sampled = potential_within(Game::Holdem, hole, board, &field, 1, &mut rng, 0.0);
        assert!(!sampled.exact);
        let total: f64 = hp.iter().flatten().sum();
        let row = |s: usize| hp[s].iter().sum::<f64>() / total;
        let tolerance = |p: f64, share: f64| 5.0 * (p * (1.0 - p) / (share * POTENTIAL_SAMPLES as f64)).sqrt() + 1e-3;
        let (pos_share, neg_share) = (row(BEHIND) + row(TIED) / 2.0, row(AHEAD) + row(TIED) / 2.0);
        assert!(
            (sampled.value.positive - reference.positive).abs() < tolerance(reference.positive, pos_share),
            "{sampled:?} {reference:?}"
        );
        assert!(
            (sampled.value.negative - reference.negative).abs() < tolerance(reference.negative, neg_share),
            "{sampled:?} {reference:?}"
        );
        // Averaged over many deals, conditional estimates of only 4 kept deals each average to
        // the potentials themselves (a mean of ratios of such small counts would not).
        let calls = 4_000;
        let (mut positive, mut negative) = (Vec::new(), Vec::new());
        for _ in 0..calls {
            let c = conditional_potential(Game::Holdem, hole, board, &field, 1, &mut rng, 4);
            assert!(!c.exact);
            positive.push(c.value.positive);
            negative.push(c.value.negative);
        }
        for (values, truth) in [(positive, reference.positive), (negative, reference.negative)] {
            let mean = values.iter().sum::<f64>() / f64::from(calls);
            let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / f64::from(calls - 1);
            let se = (var / f64::from(calls)).sqrt();
            assert!((mean - truth).abs() < 4.0 * se, "{mean} ± {se} against {truth}");
        }
        // Where it fits, the averaged potential is the exact one.
        let averaged = averaged_potential(Game::Holdem, hole, board, &field, 1, &mut rng, 4);
        assert!(averaged.exact && averaged.value == exact.value);
    }
}
