//! Nuts, outs and flop categories: questions about what other cards could make.
//!
//! "Could hold" is judged from p's point of view: an opponent may hold any cards p cannot see
//! (the deck minus p's cards, the board and the dead cards). Outs are cards that can still come:
//! cards in other players' hands are not outs.

use super::Trial;
use crate::cards::{for_each_combination, Card, CardSet};
use crate::eval::FlopHandCategory;
use crate::eval::{omaha_hi, omaha_lo8, rate_hi, HandType, HiRating, LoRating, OmahaBoard, OmahaHole};
use crate::games::{Game, Street};

/// Cross-deal cache kinds of the outs counts (the nut-out cards as a mask).
const MEMO_NUT_HI_OUTS: u8 = 20;
const MEMO_NUT_LO_OUTS: u8 = 21;
/// Cross-deal cache kinds of `nutHi` and `nutHiForHandType` in flop games (each rates every
/// holding an opponent could have: hundreds of evaluations, Omaha ones at that).
const MEMO_NUT_HI: u8 = 22;
const MEMO_NUT_HI_FOR_TYPE: u8 = 23;

/// The hi rating of `hand` with `board` (flop games; Omaha takes two cards of the hand).
fn hi_of(game: Game, hand: CardSet, board: CardSet) -> HiRating {
    if game.is_omaha() {
        omaha_hi(&OmahaHole::new(hand), &OmahaBoard::new(board))
    } else {
        rate_hi(hand.union(board), game.hi_rules())
    }
}

impl Trial<'_> {
    /// Cards p cannot see on `street`.
    fn unseen_by(&self, p: usize, street: Street) -> Vec<Card> {
        let known = self.deal.hand_at(p, street).union(self.deal.board_at(street)).union(self.deal.dead);
        self.deck_without(known)
    }

    /// Cards that can still be dealt after `street`.
    fn undealt(&self, street: Street) -> Vec<Card> {
        let mut known = self.deal.board_at(street).union(self.deal.dead);
        for q in 0..self.deal.players {
            known = known.union(self.deal.hand_at(q, street));
        }
        self.deck_without(known)
    }

    /// The best hi an opponent could hold with `board`, optionally only among hands of type
    /// `only`; p's hand is `mine` (its cards are blockers).
    fn best_opponent_hi(game: Game, unseen: &[Card], board: CardSet, only: Option<HandType>) -> HiRating {
        let mut best = HiRating::NONE;
        let ob = game.is_omaha().then(|| OmahaBoard::new(board));
        for_each_combination(unseen, 2, CardSet::EMPTY, &mut |two| {
            let r = match &ob {
                Some(ob) => omaha_hi(&OmahaHole::new(two), ob),
                None => rate_hi(two.union(board), game.hi_rules()),
            };
            if only.is_none_or(|t| r.hand_type() == t) && r > best {
                best = r;
            }
        });
        best
    }

    /// Whether some two cards of `unseen` make a better hi than `mine` with `board` (flop games;
    /// Omaha takes both cards and three of the board). Without a flush a rating depends on the
    /// ranks alone, so one holding of each rank pair stands for all of its holdings (its own
    /// rating is at least theirs); the holdings that could make a flush, of a suit with three or
    /// more board cards, are then rated one by one. At most 91 rank pairs instead of every pair
    /// of cards, and the search stops at the first better hand.
    fn opponent_beats_hi(game: Game, unseen: CardSet, board: CardSet, mine: HiRating) -> bool {
        let rater = crate::analysis::HiRater::new(game, board);
        // The first card of each rank, and a second one.
        let mut first = [None::<Card>; 13];
        let mut second = [None::<Card>; 13];
        for c in unseen {
            let r = usize::from(c.rank());
            if first[r].is_none() {
                first[r] = Some(c);
            } else if second[r].is_none() {
                second[r] = Some(c);
            }
        }
        // High ranks first: a better hand usually holds them.
        for r1 in (0..13).rev() {
            let Some(a) = first[r1] else { continue };
            if let Some(b) = second[r1] {
                if rater.rate(CardSet::EMPTY.with(a).with(b)) > mine {
                    return true;
                }
            }
            for r2 in (0..r1).rev() {
                if let Some(b) = first[r2] {
                    if rater.rate(CardSet::EMPTY.with(a).with(b)) > mine {
                        return true;
                    }
                }
            }
        }
        for suit in 0..4u8 {
            let on_board = board.suit_mask(suit).count_ones();
            if on_board < 3 {
                continue;
            }
            // Cards of the suit a holding needs for a flush better than the board's own.
            let need = if game.is_omaha() { 2 } else { (5 - on_board.min(5)).max(1) };
            let suited: Vec<Card> = unseen.iter().filter(|c| c.suit() == suit).collect();
            let beats = |two: CardSet| rater.rate(two) > mine;
            if need == 1 {
                for &a in &suited {
                    for b in unseen.iter().filter(|&b| b != a) {
                        if beats(CardSet::EMPTY.with(a).with(b)) {
                            return true;
                        }
                    }
                }
            } else if need == 2 {
                for (i, &a) in suited.iter().enumerate() {
                    for &b in &suited[i + 1..] {
                        if beats(CardSet::EMPTY.with(a).with(b)) {
                            return true;
                        }
                    }
                }
            }
        }
        false
    }

    /// Stud: the best rating (by `rate`) any other player could hold on `street`: its up cards
    /// plus any down cards from the cards p cannot see (p sees every up card).
    fn best_stud_opponent<R: Ord + Copy>(&self, p: usize, street: Street, floor: R, rate: impl Fn(CardSet) -> R) -> R {
        let d = self.deal;
        let mut seen = d.hand_at(p, street).union(d.dead);
        for q in 0..d.players {
            seen = seen.union(d.up_cards(q, street));
        }
        let unseen = self.deck_without(seen);
        let mut best = floor;
        for q in (0..d.players).filter(|&q| q != p) {
            let up = d.up_cards(q, street);
            let down = street.cards_known().saturating_sub(up.len() as usize);
            for_each_combination(&unseen, down, up, &mut |h| best = best.max(rate(h)));
        }
        best
    }

    /// No hand an opponent could hold beats p's hi on `street` (ties allowed).
    pub fn nut_hi(&mut self, p: usize, street: Street) -> bool {
        let mine = self.hi_rating(p, street);
        if self.deal.game.is_stud() {
            let rules = self.deal.game.hi_rules();
            return mine >= self.best_stud_opponent(p, street, HiRating::NONE, |h| rate_hi(h, rules));
        }
        self.nut_hi_cached(MEMO_NUT_HI, p, street, mine, None)
    }

    /// Flop games: whether no opponent holding (of type `only`) beats `mine`, which depends on
    /// p's cards, the board and the dead cards only, so it is kept across deals.
    fn nut_hi_cached(&mut self, kind: u8, p: usize, street: Street, mine: HiRating, only: Option<HandType>) -> bool {
        let (key, _) = self.canonical_cards_key(kind, p, street, &[]);
        if let Some([nuts, _]) = self.cached(&key) {
            return nuts != 0;
        }
        let unseen = self.unseen_by(p, street);
        let board = self.deal.board_at(street);
        let nuts = match only {
            None => !Self::opponent_beats_hi(self.deal.game, unseen.iter().copied().collect(), board, mine),
            Some(_) => mine >= Self::best_opponent_hi(self.deal.game, &unseen, board, only),
        };
        self.cache(&key, [u64::from(nuts), 0]);
        nuts
    }

    /// p holds the best possible hand of its own hand type.
    pub fn nut_hi_for_hand_type(&mut self, p: usize, street: Street) -> bool {
        let mine = self.hi_rating(p, street);
        if self.deal.game.is_stud() {
            let rules = self.deal.game.hi_rules();
            let t = mine.hand_type();
            return mine
                >= self.best_stud_opponent(p, street, HiRating::NONE, |h| {
                    Some(rate_hi(h, rules)).filter(|r| r.hand_type() == t).unwrap_or_default()
                });
        }
        self.nut_hi_cached(MEMO_NUT_HI_FOR_TYPE, p, street, mine, Some(mine.hand_type()))
    }

    /// p's hi rating with the board of `street` plus `extra`.
    fn hi_with(&self, p: usize, street: Street, extra: Card) -> HiRating {
        let d = self.deal;
        hi_of(d.game, d.hand_at(p, street), d.board_at(street).with(extra))
    }

    /// Of the `unseen` cards, those after which `hand` holds the nuts with `board` plus the card
    /// (flop games). A card of a suit that would have at most two cards on that board makes no
    /// flush possible in its suit, for anyone: the cards of one rank among such suits give the
    /// same answer (the same ranks for everyone, the same holdings left up to suits that cannot
    /// flush), so with `collapse` one of them is judged for all.
    fn nut_out_mask(game: Game, hand: CardSet, board: CardSet, unseen: CardSet, collapse: bool) -> u64 {
        let mut mask = 0u64;
        // Per rank: the answer for its cards of suits that cannot flush, once judged.
        let mut no_flush_answer = [None::<bool>; 13];
        for c in unseen {
            let cannot_flush = collapse && board.suit_mask(c.suit()).count_ones() < 2;
            let known = if cannot_flush { no_flush_answer[usize::from(c.rank())] } else { None };
            let nuts = known.unwrap_or_else(|| {
                let next = board.with(c);
                let mut rest = unseen;
                rest.remove(c);
                !Self::opponent_beats_hi(game, rest, next, hi_of(game, hand, next))
            });
            if cannot_flush {
                no_flush_answer[usize::from(c.rank())] = Some(nuts);
            }
            if nuts {
                mask |= c.bit();
            }
        }
        mask
    }

    /// Next-street cards after which p holds the nuts (flop games).
    pub fn nut_hi_outs(&mut self, p: usize, street: Street) -> i64 {
        // Stud: the opponents' next cards are unknown too; not defined there.
        // Before the flop the next street is three cards, not one: no outs (as outsToHandType).
        if street >= Street::River || street == Street::Preflop || self.deal.game.is_stud() {
            return 0;
        }
        // Which unseen cards would give p the nuts depends on p's cards, the board and the dead
        // cards only (kept across deals); the other players' cards are then not outs.
        // Kept under the suits' canonical names: the mask is stored renamed and renamed back.
        let (key, map) = self.canonical_cards_key(MEMO_NUT_HI_OUTS, p, street, &[]);
        let mask = if let Some([mask, _]) = self.cached(&key) {
            map.inverse().set(CardSet::from_bits(mask)).bits()
        } else {
            let d = self.deal;
            let unseen: CardSet = self.unseen_by(p, street).into_iter().collect();
            let mask = Self::nut_out_mask(d.game, d.hand_at(p, street), d.board_at(street), unseen, true);
            self.cache(&key, [map.set(CardSet::from_bits(mask)).bits(), 0]);
            mask
        };
        i64::from(CardSet::from_bits(mask).intersect(self.undealt_set(street)).len())
    }

    /// Cards that can still be dealt after `street`, as a set.
    fn undealt_set(&self, street: Street) -> CardSet {
        self.undealt(street).into_iter().collect()
    }

    /// Next-street cards that give p exactly hand type `t` and a better hand than now.
    pub fn outs_to_hand_type(&mut self, p: usize, street: Street, t: HandType) -> i64 {
        if street == self.deal.game.last_street() || street == Street::Preflop {
            return 0;
        }
        let now = self.hi_rating(p, street);
        self.undealt(street)
            .into_iter()
            .filter(|&c| {
                let next = self.hi_with(p, street, c);
                next.hand_type() == t && next > now
            })
            .count() as i64
    }

    /// The best low an opponent could hold with `board` (Omaha rules: two cards from the hand).
    /// A low depends on ranks alone, so one holding of each rank pair (a pair of one rank too)
    /// stands for all of them: at most 91 ratings instead of every pair of cards.
    fn best_opponent_lo(unseen: &[Card], board: CardSet) -> Option<LoRating> {
        let ob = OmahaBoard::new(board);
        let mut count = [0u8; 13];
        for c in unseen {
            count[usize::from(c.rank())] += 1;
        }
        let mut best = None;
        for r1 in 0..13u8 {
            if count[usize::from(r1)] == 0 {
                continue;
            }
            for r2 in r1..13u8 {
                let need = if r1 == r2 { 2 } else { 1 };
                if count[usize::from(r2)] < need {
                    continue;
                }
                // The ranks are what counts: any suits will do.
                let two = CardSet::EMPTY.with(Card::new(r1, 0)).with(Card::new(r2, u8::from(r1 == r2)));
                best = best.max(omaha_lo8(&OmahaHole::new(two), &ob));
            }
        }
        best
    }

    /// p has a low that no opponent could beat on `street`.
    pub fn nut_lo(&mut self, p: usize, street: Street) -> bool {
        let Some(mine) = self.lo_rating(p, street) else {
            return false;
        };
        if self.deal.game.is_stud() {
            let game = self.deal.game;
            return self.best_stud_opponent(p, street, None, |h| crate::eval::rate_lo_for(game, h, CardSet::EMPTY))
                <= Some(mine);
        }
        let unseen = self.unseen_by(p, street);
        Self::best_opponent_lo(&unseen, self.deal.board_at(street)).is_none_or(|best| mine >= best)
    }

    /// Next-street cards after which p holds the nut low.
    pub fn nut_lo_outs(&mut self, p: usize, street: Street) -> i64 {
        if street >= Street::River || street == Street::Preflop || !self.deal.game.is_omaha() {
            return 0;
        }
        let key = self.cards_key(MEMO_NUT_LO_OUTS, p, street);
        let mask = if let Some([mask, _]) = self.cached(&key) {
            mask
        } else {
            let d = self.deal;
            let hole = OmahaHole::new(d.hand_at(p, street));
            let mut mask = 0u64;
            let unseen_now = self.unseen_by(p, street);
            let mut unseen = Vec::with_capacity(unseen_now.len());
            for &c in &unseen_now {
                let board = d.board_at(street).with(c);
                let Some(mine) = omaha_lo8(&hole, &OmahaBoard::new(board)) else {
                    continue;
                };
                unseen.clear();
                unseen.extend(unseen_now.iter().filter(|&&u| u != c));
                if Self::best_opponent_lo(&unseen, board).is_none_or(|best| mine >= best) {
                    mask |= CardSet::EMPTY.with(c).bits();
                }
            }
            self.cache(&key, [mask, 0]);
            mask
        };
        i64::from(CardSet::from_bits(mask).intersect(self.undealt_set(street)).len())
    }

    /// The fewest of p's own cards any best five-card hi uses.
    pub fn cards_play(&mut self, p: usize, street: Street) -> i64 {
        let d = self.deal;
        let hand = d.hand_at(p, street);
        let board = d.board_at(street);
        let best = self.hi_rating(p, street);
        let Some((_, five)) = crate::eval::best_five_hi_fewest(d.game, hand, board, best) else {
            return 0;
        };
        i64::from(five.intersect(hand).len())
    }

    /// p's flop hand category: the best over p's two-card holdings (all of hold'em's two cards,
    /// every pair of an Omaha hand).
    pub fn flop_category(&mut self, p: usize) -> FlopHandCategory {
        let d = self.deal;
        let flop = d.board_at(Street::Flop);
        let cards: Vec<Card> = d.hole[p].iter().collect();
        let mut best = FlopHandCategory::Nothing;
        for i in 0..cards.len() {
            for j in i + 1..cards.len() {
                let two = CardSet::EMPTY.with(cards[i]).with(cards[j]);
                best = best.max(flop_category_of(two, flop, d.game));
            }
        }
        best
    }
}

/// The category of two hole cards on a three-card flop.
pub fn flop_category_of(two: CardSet, flop: CardSet, game: Game) -> FlopHandCategory {
    use FlopHandCategory as F;
    let r = rate_hi(two.union(flop), game.hi_rules());
    match r.hand_type() {
        HandType::StraightFlush => return F::StraightFlush,
        HandType::Quads => return F::Quads,
        HandType::FullHouse => return F::FullHouse,
        HandType::Flush => return F::Flush,
        HandType::Straight => return F::Straight,
        _ => {}
    }
    let ranks = flop.rank_mask();
    // Where a flop rank stands among the flop's distinct ranks, high to low (0 = top).
    let position = |rank: u32| (u32::from(ranks) >> (rank + 1)).count_ones();
    let distinct = ranks.count_ones();
    let held = two.rank_mask();
    // A pocket pair: two cards, one rank.
    if two.len() == 2 && held.is_power_of_two() {
        let pr = held.trailing_zeros() as u8;
        if ranks & held != 0 {
            return F::Set;
        }
        // Flop cards above the pair, counted card by card as the names count positions: 9-9
        // on K-K-7 sits between the second and third cards.
        return match flop.iter().filter(|c| c.rank() > pr).count() {
            0 => F::Overpair,
            1 => F::Pocket12,
            2 => F::Pocket23,
            _ => F::Underpair,
        };
    }
    // Hole ranks that pair the board, and the positions they pair (bit i: position i).
    let paired = held & ranks;
    let hits = (0..13).filter(|&r| paired & (1 << r) != 0).fold(0u32, |m, r| m | 1 << position(r));
    match hits.count_ones() {
        0 => F::Nothing,
        1 => {
            let r = paired.trailing_zeros();
            if distinct < 3 && flop.rank_count(r as u8) >= 2 {
                F::Trips
            } else {
                match position(r) {
                    0 => F::TopPair,
                    1 if distinct == 3 => F::SecondPair,
                    _ => F::ThirdPair,
                }
            }
        }
        _ => match hits {
            0b011 => F::TopTwo,
            0b101 => F::TopAndBottom,
            _ => F::BottomTwo,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;

    fn cat(hole: &str, flop: &str) -> FlopHandCategory {
        flop_category_of(parse_cards(hole).unwrap(), parse_cards(flop).unwrap(), Game::Holdem)
    }

    #[test]
    fn nut_outs_judged_once_per_rank_of_the_suits_that_cannot_flush_are_the_same() {
        let mut rng = crate::rng::Rng::new(22, 0);
        for round in 0..300 {
            let game = [Game::Holdem, Game::ShortDeck, Game::OmahaHi, Game::Omaha5Hi][round % 4];
            let mut deck: Vec<Card> = game.deck().cards().iter().collect();
            let hole = game.hole_cards();
            let board_cards = 3 + round / 4 % 2;
            for i in 0..hole + board_cards {
                let j = i + rng.below((deck.len() - i) as u64) as usize;
                deck.swap(i, j);
            }
            let hand: CardSet = deck[..hole].iter().copied().collect();
            let board: CardSet = deck[hole..hole + board_cards].iter().copied().collect();
            let unseen: CardSet = deck[hole + board_cards..].iter().copied().collect();
            let fast = Trial::nut_out_mask(game, hand, board, unseen, true);
            let plain = Trial::nut_out_mask(game, hand, board, unseen, false);
            assert_eq!(fast, plain, "{game:?} {hand:?} {board:?}");
        }
    }

    #[test]
    fn flop_categories() {
        use FlopHandCategory as F;
        assert_eq!(cat("AsKd", "Ah7c2d"), F::TopPair);
        assert_eq!(cat("7sKd", "Ah7c2d"), F::SecondPair);
        assert_eq!(cat("2sKd", "Ah7c2d"), F::ThirdPair);
        assert_eq!(cat("QsQd", "Jh7c2d"), F::Overpair);
        assert_eq!(cat("QsQd", "Kh7c2d"), F::Pocket12);
        assert_eq!(cat("5s5d", "Kh7c2d"), F::Pocket23);
        assert_eq!(cat("5s5d", "Kh7c6d"), F::Underpair);
        assert_eq!(cat("9s9d", "KhKc7d"), F::Pocket23);
        assert_eq!(cat("9s9d", "Kh7c7d"), F::Pocket12);
        assert_eq!(cat("5s5d", "KhKc7d"), F::Underpair);
        assert_eq!(cat("7s7d", "Kh7c2d"), F::Set);
        assert_eq!(cat("Ks7d", "Kh7c2d"), F::TopTwo);
        assert_eq!(cat("Ks2d", "Kh7c2d"), F::TopAndBottom);
        assert_eq!(cat("7s2d", "Kh7c2d"), F::BottomTwo);
        assert_eq!(cat("Ks3d", "Kh7c7d"), F::TopPair);
        assert_eq!(cat("7s3d", "Kh7c7d"), F::Trips);
        assert_eq!(cat("9s8d", "Th7c6d"), F::Straight);
        assert_eq!(cat("As3d", "Kh9c4d"), F::Nothing);
    }
}
