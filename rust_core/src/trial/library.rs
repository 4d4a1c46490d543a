//! The built-in functions answered on one deal: [`Trial::call`] computes a [`Builtin`] (the
//! planned form of a catalogue function) from the [`Trial`], which caches what several
//! selectors share. The costlier bodies live beside it: `versus` (equity against ranges,
//! hand strength, potential, draws) and `nuts` (nuts, outs, flop categories).

use super::Trial;
use crate::analysis::Lookahead;
use crate::cards::{CardSet, Deck};
use crate::eval::{five_card_hand_number, LO8_MASK};
use crate::games::Street;
use crate::plan::expr::Builtin;
use crate::plan::value::Value;
use crate::range::hand_percentile;

impl Trial<'_> {
    /// Answers one built-in function on this deal.
    pub fn call(&mut self, b: &Builtin) -> Value {
        use Builtin as B;
        match b {
            B::RiverEquity(p) => Value::Num(self.showdown().share(*p)),
            B::FractionalRiverEquity(p) => Value::Frac(self.showdown().share_fraction(*p)),
            B::WinsHi(p) => Value::Bool(self.showdown().wins_hi(*p)),
            B::TiesHi(p) => Value::Bool(self.showdown().ties_hi(*p)),
            B::WinsLo(p) => Value::Bool(self.showdown().wins_lo(*p)),
            B::TiesLo(p) => Value::Bool(self.showdown().ties_lo(*p)),
            B::Scoops(p) => Value::Bool(self.showdown().scoops(*p)),
            B::WinningHandType => {
                let t = self.showdown().best_hi.hand_type();
                self.hand_type_value(t)
            }
            B::HvHEquity(p, s) => Value::Num(self.hvh_equity(*p, *s)),
            B::HandType(p, s) => {
                let t = self.hi_rating(*p, *s).hand_type();
                self.hand_type_value(t)
            }
            B::HiRating(p, s) => Value::Hi(self.hi_rating(*p, *s)),
            B::BestHiRating(p, s) => {
                let mine = self.hi_rating(*p, *s);
                Value::Bool((0..self.deal.players).all(|q| self.hi_rating(q, *s) <= mine))
            }
            B::FiveCardHiHandNumber(p, s) => Value::Int(i64::from(five_card_hand_number(self.hi_rating(*p, *s)))),
            B::PocketPair(p) => {
                // Stud: the two down cards; flop games: any two hole cards.
                let pocket = if self.deal.game.is_stud() {
                    self.deal.stud[*p][..2].iter().copied().collect()
                } else {
                    self.deal.hole[*p]
                };
                Value::Bool(duplicated_ranks(pocket) != 0)
            }
            B::Overpair(p, s) => {
                let hole = self.hole(*p, *s);
                let board = self.deal.board_at(*s);
                let pairs = duplicated_ranks(hole);
                let top = board.rank_mask();
                Value::Bool(pairs != 0 && top != 0 && pairs.ilog2() > u32::from(top).ilog2())
            }
            B::FourFlush(p, s) => Value::Bool(self.flush_cards(*p, *s) == 4),
            B::ThreeFlush(p, s) => Value::Bool(self.flush_cards(*p, *s) == 3),
            B::LoRating(p, s) => Value::Lo(self.lo_rating(*p, *s)),
            B::MadeLo(p, s) => Value::Bool(self.lo_rating(*p, *s).is_some()),
            B::BestLoRating(p, s) => {
                let mine = self.lo_rating(*p, *s);
                Value::Bool(mine.is_some() && (0..self.deal.players).all(|q| self.lo_rating(q, *s) <= mine))
            }
            B::BoardAllowsMadeLo(s) => Value::Bool(self.board_lo_ranks(*s).count_ones() >= 3),
            B::BoardLoCardCount(s) => Value::Int(i64::from(self.board_lo_ranks(*s).count_ones())),
            B::BoardHasOneDistinctLoCard(s) => Value::Bool(self.board_lo_ranks(*s).is_power_of_two()),
            B::BoardHasTwoDistinctLoCards(s) => Value::Bool(self.board_lo_ranks(*s).count_ones() == 2),
            B::BoardRanks(s) => Value::RankSet(self.deal.board_at(*s).rank_mask()),
            B::DuplicatedBoardRanks(s) => Value::RankSet(duplicated_ranks(self.deal.board_at(*s))),
            B::BoardSuitCount(s) => Value::Int(i64::from(suits_present(self.deal.board_at(*s)))),
            B::RainbowBoard(s) => {
                let b = self.deal.board_at(*s);
                Value::Bool(!b.is_empty() && suits_present(b) == b.len())
            }
            B::TwoToneBoard(s) => Value::Bool(suits_present(self.deal.board_at(*s)) == 2),
            B::MonotoneBoard(s) => {
                let b = self.deal.board_at(*s);
                Value::Bool(!b.is_empty() && suits_present(b) == 1)
            }
            B::FlushingBoard(s) => Value::Bool(max_suit_count(self.deal.board_at(*s)) >= 3),
            B::PairedBoard(s) => Value::Bool(duplicated_ranks(self.deal.board_at(*s)) != 0),
            B::StraightBoard(s) => Value::Bool(straight_possible(self.deal.board_at(*s), self.deal.game.deck())),
            B::TurnCard => Value::Card(self.deal.board[3]),
            B::RiverCard => Value::Card(self.deal.board[4]),
            B::HandRanks(p, s) => Value::RankSet(self.hole(*p, *s).rank_mask()),
            B::DuplicatedHandRanks(p, s) => Value::RankSet(duplicated_ranks(self.hole(*p, *s))),
            B::IntersectingHandRanks(p, s) => {
                Value::RankSet(self.hole(*p, *s).rank_mask() & self.deal.board_at(*s).rank_mask())
            }
            B::NonIntersectingHandRanks(p, s) => {
                Value::RankSet(self.hole(*p, *s).rank_mask() & !self.deal.board_at(*s).rank_mask())
            }
            B::HandBoardIntersections(p, s) => {
                let board = self.deal.board_at(*s).rank_mask();
                let n = self.hole(*p, *s).iter().filter(|c| board & (1 << c.rank()) != 0).count();
                Value::Int(n as i64)
            }
            B::HasTopBoardRank(p, s) => Value::Bool(self.has_nth_board_rank(*p, *s, 0)),
            B::HasSecondBoardRank(p, s) => Value::Bool(self.has_nth_board_rank(*p, *s, 1)),
            B::MaxRank(e) => {
                let ace_low = self.ace_low();
                rank_of(ranks_arg(&e.eval(self)), |m| ranks_high_to_low(m, ace_low).next())
            }
            B::MinRank(e) => {
                let ace_low = self.ace_low();
                rank_of(ranks_arg(&e.eval(self)), |m| ranks_high_to_low(m, ace_low).last())
            }
            B::NthRank(n, e) => {
                let n = n.eval(self).as_f64() as i64;
                let mask = ranks_arg(&e.eval(self));
                // n - 1 checked: n may be any integer (saturated arithmetic reaches i64::MIN).
                let index = n.checked_sub(1).and_then(|i| usize::try_from(i).ok());
                let ace_low = self.ace_low();
                rank_of(mask, |m| index.and_then(|i| ranks_high_to_low(m, ace_low).nth(i)))
            }
            B::RankOrder(e) => match e.eval(self) {
                Value::Rank(r) => Value::Int(i64::from(rank_order(u32::from(r), self.ace_low()))),
                v => v,
            },
            B::RankCount(e) => Value::Int(i64::from(ranks_arg(&e.eval(self)).count_ones())),
            B::NutHi(p, s) => Value::Bool(self.nut_hi(*p, *s)),
            B::NutHiForHandType(p, s) => Value::Bool(self.nut_hi_for_hand_type(*p, *s)),
            B::NutHiOuts(p, s) => Value::Int(self.nut_hi_outs(*p, *s)),
            B::OutsToHandType(p, s, t) => Value::Int(self.outs_to_hand_type(*p, *s, *t)),
            B::NutLo(p, s) => Value::Bool(self.nut_lo(*p, *s)),
            B::NutLoOuts(p, s) => Value::Int(self.nut_lo_outs(*p, *s)),
            B::CardsPlay(p, s) => Value::Int(self.cards_play(*p, *s)),
            B::FlopHandCategory(p) => Value::FlopCat(self.flop_category(*p) as u8),
            B::HvREquity(p, s, how) => Value::Num(self.hvr_equity(*p, *s, *how)),
            B::HvPerceivedRangeEquity(p, s, range, how) => Value::Num(self.perceived_range_equity(*p, *s, range, *how)),
            B::Outs(p, s) => Value::Int(i64::from(self.draws(*p, *s).outs)),
            B::OutsDiscounted(p, s) => Value::Int(i64::from(self.discounted_out_cards(*p, *s).len())),
            B::OutCards(p, s) => Value::CardSet(self.draws(*p, *s).out_cards),
            B::OutCardsDiscounted(p, s) => Value::CardSet(self.discounted_out_cards(*p, *s)),
            B::StraightDrawCount(p, s) => Value::Int(i64::from(self.draws(*p, *s).straight)),
            B::OpenEndedStraightDraw(p, s) => Value::Bool(self.draws(*p, *s).open_ended()),
            B::GutshotStraightDraw(p, s) => Value::Bool(self.draws(*p, *s).gutshot()),
            B::FlushDrawCount(p, s) => Value::Int(i64::from(self.draws(*p, *s).flush)),
            B::FlushDraw(p, s) => Value::Bool(self.draws(*p, *s).flush > 0),
            B::BackdoorFlushDraw(p, s) => Value::Bool(self.backdoor_flush_draw(*p, *s)),
            B::HandStrength(p, s, averaged) => Value::Num(self.hand_strength(*p, *s, *averaged)),
            B::PositivePotential(p, s, averaged) => {
                Value::Num(self.potential(*p, *s, Lookahead::River, *averaged).positive)
            }
            B::NegativePotential(p, s, averaged) => {
                Value::Num(self.potential(*p, *s, Lookahead::River, *averaged).negative)
            }
            B::PositivePotential1(p, s, averaged) => {
                Value::Num(self.potential(*p, *s, Lookahead::OneCard, *averaged).positive)
            }
            B::NegativePotential1(p, s, averaged) => {
                Value::Num(self.potential(*p, *s, Lookahead::OneCard, *averaged).negative)
            }
            // Averaged, hand strength and potential are fresh estimates from streams of their own:
            // independent and unbiased, so these sums of their products are unbiased too.
            B::EffectiveHandStrength(p, s, averaged) => {
                let hs = self.hand_strength(*p, *s, *averaged);
                Value::Num(hs + (1.0 - hs) * self.potential(*p, *s, Lookahead::River, *averaged).positive)
            }
            B::ShowdownHandStrength(p, s, averaged) => {
                let hs = self.hand_strength(*p, *s, *averaged);
                let pot = self.potential(*p, *s, Lookahead::River, *averaged);
                Value::Num(hs * (1.0 - pot.negative) + (1.0 - hs) * pot.positive)
            }
            B::MaxHiRating(p, s) => {
                let mine = self.hi_rating(*p, *s);
                Value::Bool((0..self.deal.players).all(|q| self.hi_rating(q, *s) <= mine))
            }
            B::InRange(p, set) => Value::Bool(set.contains(self.deal.hole[*p])),
            // The checker allows third to sixth street only (seventh is a down card).
            B::UpCard(p, s) => Value::Card(self.deal.stud[*p][s.cards_known() - 1]),
            B::ToString(e) => Value::Str(e.eval(self).to_string().into()),
            B::InStudRange(p, range) => Value::Bool(range.contains_hand(&self.deal.stud[*p])),
            B::HandRanking(p, six_max, ordering) => {
                Value::Num(hand_percentile(self.deal.game, self.deal.hole[*p], *six_max, *ordering))
            }
            B::BoardInRange(pattern) => Value::Bool(pattern.matches(&self.deal.board)),
        }
    }

    /// Razz plays the ace as the lowest rank: rank sets are ordered that way there.
    fn ace_low(&self) -> bool {
        self.deal.game == crate::games::Game::Razz
    }

    fn hand_type_value(&self, t: crate::eval::HandType) -> Value {
        Value::hand_type(t, self.deal.game.hi_rules())
    }

    /// p's own cards on `street`: hole cards, or the stud cards dealt by then.
    fn hole(&self, p: usize, street: Street) -> CardSet {
        self.deal.hand_at(p, street)
    }

    /// Cards of the best suit p can use toward a flush: Omaha at most two of the hand and three
    /// of the board; other games everything, counting only suits p holds a card of.
    fn flush_cards(&self, p: usize, street: Street) -> u32 {
        let hole = self.hole(p, street);
        let board = self.deal.board_at(street);
        (0..4)
            .map(|s| {
                let (h, b) = (hole.suit_mask(s).count_ones(), board.suit_mask(s).count_ones());
                if h == 0 {
                    0
                } else if self.deal.game.is_omaha() {
                    h.min(2) + b.min(3)
                } else {
                    h + b
                }
            })
            .max()
            .unwrap_or(0)
    }

    fn has_nth_board_rank(&self, p: usize, street: Street, n: usize) -> bool {
        let board = self.deal.board_at(street).rank_mask();
        nth_highest_rank(board, n).is_some_and(|r| self.hole(p, street).rank_mask() & (1 << r) != 0)
    }

    /// Distinct ranks eight or lower on the board (ace-low mask).
    fn board_lo_ranks(&self, street: Street) -> u32 {
        crate::eval::ace_low_mask(self.deal.board_at(street).rank_mask()) & LO8_MASK
    }
}

/// Ranks held two or more times.
pub fn duplicated_ranks(cards: CardSet) -> u16 {
    let b = cards.bits();
    let lanes = [b & 0x1FFF, (b >> 16) & 0x1FFF, (b >> 32) & 0x1FFF, (b >> 48) & 0x1FFF];
    let (c, d, h, s) = (lanes[0], lanes[1], lanes[2], lanes[3]);
    ((c & d) | (h & s) | ((c | d) & (h | s))) as u16
}

fn suits_present(cards: CardSet) -> u32 {
    (0..4).filter(|&s| cards.suit_mask(s) != 0).count() as u32
}

fn max_suit_count(cards: CardSet) -> u32 {
    (0..4).map(|s| cards.suit_mask(s).count_ones()).max().unwrap_or(0)
}

/// Whether three board ranks fit in some straight's five ranks (two more cards could complete
/// it). Short deck's lowest straight is A-6-7-8-9.
fn straight_possible(board: CardSet, deck: Deck) -> bool {
    let ranks = u32::from(board.rank_mask());
    let windows: Vec<u32> = match deck {
        Deck::Standard => (0..=8).map(|lo| 0x1F << lo).chain([0x100F]).collect(),
        Deck::Short => (4..=8).map(|lo| 0x1F << lo).chain([0x10F0]).collect(),
    };
    windows.iter().any(|w| (ranks & w).count_ones() >= 3)
}

fn ranks_arg(v: &Value) -> u16 {
    match v {
        Value::RankSet(m) => *m,
        Value::Rank(r) => 1 << r,
        _ => 0,
    }
}

/// The `n`-th highest rank in `mask` (0 is the highest), if it holds that many.
fn nth_highest_rank(mask: u16, n: usize) -> Option<u32> {
    (0..13).rev().filter(|r| mask & (1 << r) != 0).nth(n)
}

/// Where rank `r` (0 = deuce ... 12 = ace) stands among the ranks, low to high: the ace is
/// the lowest (0) when `ace_low`.
fn rank_order(r: u32, ace_low: bool) -> u32 {
    if ace_low {
        (r + 1) % 13
    } else {
        r
    }
}

/// The ranks of `mask` from the highest to the lowest; the ace last when `ace_low` (razz).
fn ranks_high_to_low(mask: u16, ace_low: bool) -> impl Iterator<Item = u32> {
    let top = if ace_low { 11 } else { 12 };
    (0..=top).rev().chain(ace_low.then_some(12)).filter(move |r| mask & (1 << r) != 0)
}

/// A rank picked from a mask, or the empty rank set when there is none.
fn rank_of(mask: u16, pick: impl Fn(u16) -> Option<u32>) -> Value {
    pick(mask).map_or(Value::RankSet(0), |r| Value::Rank(r as u8))
}
