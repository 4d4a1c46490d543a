//! Who wins what at showdown: hi and lo ratings of every player and each player's pot share.

use crate::cards::CardSet;
use crate::deal::{Deal, MAX_PLAYERS};
use crate::eval::{omaha_hi, omaha_lo8, rate_hi, rate_lo8, rate_razz, HiRating, LoRating, OmahaBoard, OmahaHole};
use crate::games::{Game, PotSplit};
use std::cmp::Ordering;
use std::fmt;

/// Ratings of every player for one board (or stud street) and the pot's split.
#[derive(Clone, Debug)]
pub struct Showdown {
    pub players: usize,
    pub hi: [HiRating; MAX_PLAYERS],
    pub lo: [Option<LoRating>; MAX_PLAYERS],
    pub best_hi: HiRating,
    pub best_lo: Option<LoRating>,
    pub hi_winners: u32,
    pub lo_winners: u32,
    split: PotSplit,
    /// Omaha hands as last prepared, by seat: given hands repeat from deal to deal.
    omaha_holes: [(CardSet, OmahaHole); MAX_PLAYERS],
}

/// A card set no hand can be: marks a seat with no prepared Omaha hand.
const UNPREPARED: CardSet = CardSet::from_bits(u64::MAX);

impl Showdown {
    /// Rates every player's `hands[p]` with `board` under `game`.
    pub fn new(game: Game, hands: &[CardSet], board: CardSet) -> Showdown {
        let mut s = Showdown {
            players: 0,
            hi: [HiRating::NONE; MAX_PLAYERS],
            lo: [None; MAX_PLAYERS],
            best_hi: HiRating::NONE,
            best_lo: None,
            hi_winners: 0,
            lo_winners: 0,
            split: game.pot_split(),
            omaha_holes: std::array::from_fn(|_| (UNPREPARED, OmahaHole::new(CardSet::EMPTY))),
        };
        s.rate(game, hands, board);
        s
    }

    /// Re-rates in place (the hot path reuses one `Showdown` per worker).
    #[inline]
    pub fn rate(&mut self, game: Game, hands: &[CardSet], board: CardSet) {
        let players = hands.len();
        let split = game.pot_split();
        self.players = players;
        self.split = split;
        if game.is_omaha() {
            let ob = OmahaBoard::new(board);
            for (p, &h) in hands.iter().enumerate() {
                let (cards, oh) = &mut self.omaha_holes[p];
                if *cards != h {
                    *cards = h;
                    *oh = OmahaHole::new(h);
                }
                self.hi[p] = omaha_hi(oh, &ob);
                self.lo[p] = if split == PotSplit::HiLo8 { omaha_lo8(oh, &ob) } else { None };
            }
        } else {
            let rules = game.hi_rules();
            for (p, &h) in hands.iter().enumerate() {
                let all = h.union(board);
                match split {
                    PotSplit::HiOnly => self.hi[p] = rate_hi(all, rules),
                    PotSplit::HiLo8 => {
                        self.hi[p] = rate_hi(all, rules);
                        self.lo[p] = rate_lo8(all);
                    }
                    PotSplit::LoOnly => {
                        self.hi[p] = HiRating::NONE;
                        self.lo[p] = Some(rate_razz(all));
                    }
                }
            }
        }
        let (hi, lo) = (&self.hi[..players], &self.lo[..players]);
        self.best_hi = hi.iter().copied().max().unwrap_or_default();
        self.best_lo = lo.iter().copied().max().flatten();
        self.hi_winners =
            if split == PotSplit::LoOnly { 0 } else { hi.iter().filter(|&&r| r == self.best_hi).count() as u32 };
        self.lo_winners = match self.best_lo {
            Some(b) => lo.iter().filter(|&&r| r == Some(b)).count() as u32,
            None => 0,
        };
    }

    pub fn has_best_hi(&self, p: usize) -> bool {
        self.split != PotSplit::LoOnly && self.hi[p] == self.best_hi
    }

    pub fn has_best_lo(&self, p: usize) -> bool {
        self.best_lo.is_some() && self.lo[p] == self.best_lo
    }

    /// p's share of the pot as an exact fraction: ties split, hi/lo halves, quartering.
    pub fn share_fraction(&self, p: usize) -> Fraction {
        let hi_share = |k: u32| if self.has_best_hi(p) { (1, k) } else { (0, 1) };
        let lo_share = |k: u32| if self.has_best_lo(p) { (1, k) } else { (0, 1) };
        match self.split {
            PotSplit::HiOnly => {
                let (n, d) = hi_share(self.hi_winners);
                Fraction::new(n, d)
            }
            PotSplit::LoOnly => {
                let (n, d) = lo_share(self.lo_winners);
                Fraction::new(n, d)
            }
            PotSplit::HiLo8 if self.best_lo.is_none() => {
                let (n, d) = hi_share(self.hi_winners);
                Fraction::new(n, d)
            }
            PotSplit::HiLo8 => {
                // n1/(2 d1) + n2/(2 d2) over the common denominator 2·d1·d2.
                let (n1, d1) = hi_share(self.hi_winners);
                let (n2, d2) = lo_share(self.lo_winners);
                Fraction::new(n1 * d2 + n2 * d1, 2 * d1 * d2)
            }
        }
    }

    /// p's share of the pot.
    #[inline]
    pub fn share(&self, p: usize) -> f64 {
        let hi = if self.has_best_hi(p) { 1.0 / f64::from(self.hi_winners) } else { 0.0 };
        let lo = if self.has_best_lo(p) { 1.0 / f64::from(self.lo_winners) } else { 0.0 };
        match self.split {
            PotSplit::HiOnly => hi,
            PotSplit::LoOnly => lo,
            PotSplit::HiLo8 if self.best_lo.is_none() => hi,
            PotSplit::HiLo8 => 0.5 * (hi + lo),
        }
    }

    pub fn wins_hi(&self, p: usize) -> bool {
        self.has_best_hi(p) && self.hi_winners == 1
    }
    pub fn ties_hi(&self, p: usize) -> bool {
        self.has_best_hi(p) && self.hi_winners > 1
    }
    pub fn wins_lo(&self, p: usize) -> bool {
        self.has_best_lo(p) && self.lo_winners == 1
    }
    pub fn ties_lo(&self, p: usize) -> bool {
        self.has_best_lo(p) && self.lo_winners > 1
    }

    /// The whole pot, alone.
    pub fn scoops(&self, p: usize) -> bool {
        match self.split {
            PotSplit::HiOnly => self.wins_hi(p),
            PotSplit::LoOnly => self.wins_lo(p),
            PotSplit::HiLo8 => self.wins_hi(p) && (self.best_lo.is_none() || self.wins_lo(p)),
        }
    }

    /// Rates the deal's river (or seventh street).
    pub fn of_deal(deal: &Deal) -> Showdown {
        Showdown::new(deal.game, &deal.hole[..deal.players], deal.full_board())
    }

    /// Re-rates in place for the deal's river (or seventh street).
    #[inline]
    pub fn rate_deal(&mut self, deal: &Deal) {
        self.rate(deal.game, &deal.hole[..deal.players], deal.full_board());
    }
}

/// An exact non-negative fraction, kept reduced.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Fraction {
    pub num: u32,
    pub den: u32,
}

impl Fraction {
    pub fn new(num: u32, den: u32) -> Fraction {
        let g = gcd(num, den.max(1));
        Fraction { num: num / g, den: den.max(1) / g }
    }
    pub fn to_f64(self) -> f64 {
        f64::from(self.num) / f64::from(self.den)
    }
}

impl PartialOrd for Fraction {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Fraction {
    fn cmp(&self, other: &Self) -> Ordering {
        (u64::from(self.num) * u64::from(other.den)).cmp(&(u64::from(other.num) * u64::from(self.den)))
    }
}

fn gcd(a: u32, b: u32) -> u32 {
    if b == 0 {
        a.max(1)
    } else {
        gcd(b, a % b)
    }
}

impl fmt::Display for Fraction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.den == 1 {
            write!(f, "{}", self.num)
        } else {
            write!(f, "{}/{}", self.num, self.den)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;

    fn sd(game: Game, hands: &[&str], board: &str) -> Showdown {
        let hands: Vec<CardSet> = hands.iter().map(|h| parse_cards(h).unwrap()).collect();
        Showdown::new(game, &hands, parse_cards(board).unwrap())
    }

    #[test]
    fn hi_only_ties_split() {
        let s = sd(Game::Holdem, &["AsKd", "AhKc", "2c2d"], "QsJhTd5c4c");
        assert_eq!(s.share_fraction(0), Fraction::new(1, 2));
        assert!(s.ties_hi(0) && !s.wins_hi(0));
        assert_eq!(s.share(2), 0.0);
    }

    #[test]
    fn hi_lo_quartering() {
        // Both have the same wheel low; the second has a flush for hi: 1/4 and 3/4.
        let s = sd(Game::Omaha8, &["As2s9h9d", "Ad2dKcQc"], "3c4c5h9sJc");
        assert_eq!(s.share_fraction(0).to_string(), "1/4");
        assert_eq!(s.share_fraction(1).to_string(), "3/4");
        assert!((s.share(0) + s.share(1) - 1.0).abs() < 1e-12);
        // No low: the hi scoops.
        let s = sd(Game::Omaha8, &["AsKs9h9d", "AdKdQcJc"], "9c4cTh2hTs");
        assert_eq!(s.share_fraction(0).to_string(), "1");
        assert!(s.scoops(0));
    }

    #[test]
    fn razz_pays_the_best_low() {
        let s = sd(Game::Razz, &["As2d3c4h5sKsKd", "Ah2h3h4d6cQhQc"], "");
        assert_eq!(s.share(0), 1.0);
        assert!(s.scoops(0));
    }
}
