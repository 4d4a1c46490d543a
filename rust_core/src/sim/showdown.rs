//! Who wins what at showdown: hi and lo ratings of every player and each player's pot share.

use super::deal::{Deal, MAX_PLAYERS};
use super::value::Fraction;
use crate::cards::CardSet;
use crate::eval::{
    omaha_hi, omaha_lo8, rate_hi, rate_lo8, rate_razz, HiRating, LoRating, OmahaBoard, OmahaHole,
};
use crate::games::{Game, PotSplit};

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
}

impl Showdown {
    /// Rates every player's `hands[p]` with `board` under `game`.
    pub fn new(game: Game, hands: &[CardSet], board: CardSet) -> Showdown {
        let players = hands.len();
        let mut hi = [HiRating::NONE; MAX_PLAYERS];
        let mut lo = [None; MAX_PLAYERS];
        let split = game.pot_split();
        if game.is_omaha() {
            let ob = OmahaBoard::new(board);
            for (p, &h) in hands.iter().enumerate() {
                let oh = OmahaHole::new(h);
                hi[p] = omaha_hi(&oh, &ob);
                if split == PotSplit::HiLo8 {
                    lo[p] = omaha_lo8(&oh, &ob);
                }
            }
        } else {
            let rules = game.hi_rules();
            for (p, &h) in hands.iter().enumerate() {
                let all = h.union(board);
                match split {
                    PotSplit::HiOnly => hi[p] = rate_hi(all, rules),
                    PotSplit::HiLo8 => {
                        hi[p] = rate_hi(all, rules);
                        lo[p] = rate_lo8(all);
                    }
                    PotSplit::LoOnly => lo[p] = Some(rate_razz(all)),
                }
            }
        }
        let best_hi = hi[..players].iter().copied().max().unwrap_or_default();
        let best_lo = lo[..players].iter().copied().max().flatten();
        let hi_winners = if split == PotSplit::LoOnly {
            0
        } else {
            hi[..players].iter().filter(|&&r| r == best_hi).count() as u32
        };
        let lo_winners = match best_lo {
            Some(b) => lo[..players].iter().filter(|&&r| r == Some(b)).count() as u32,
            None => 0,
        };
        Showdown {
            players,
            hi,
            lo,
            best_hi,
            best_lo,
            hi_winners,
            lo_winners,
            split,
        }
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
        let hi = if self.has_best_hi(p) {
            1.0 / f64::from(self.hi_winners)
        } else {
            0.0
        };
        let lo = if self.has_best_lo(p) {
            1.0 / f64::from(self.lo_winners)
        } else {
            0.0
        };
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
