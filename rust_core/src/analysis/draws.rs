//! Outs and draws (`HoldemHand`'s definitions, docs/analysis.md): which single next cards improve p's
//! hand in a way that matters.

use super::HiRater;
use crate::cards::{Card, CardSet};
use crate::eval::{rate_hi, HandType, HiRating};
use crate::games::Game;

/// The card counts of one hand on one street.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Draws {
    /// Cards that improve p's hand (a higher type, or the same type with a higher leading rank),
    /// past the board's own hand and past every other player's known hand.
    pub outs: u32,
    /// Cards that make p a straight (not a flush) beating the board, when p has less than a
    /// straight now.
    pub straight: u32,
    /// Cards that make p a flush beating the board, when p has less than a flush now.
    pub flush: u32,
    /// The cards counted in `outs`.
    pub out_cards: CardSet,
}

impl Draws {
    /// Eight straight cards (an open-ended draw or a double gutshot). Cards that would make a
    /// flush are not straight cards, so an open-ended draw with a flush draw counts six: more
    /// than four is open-ended.
    pub fn open_ended(&self) -> bool {
        self.straight > 4
    }

    /// One to four straight cards.
    pub fn gutshot(&self) -> bool {
        (1..=4).contains(&self.straight)
    }
}

/// The rank that leads a hand of its type: the pair, the higher pair, the trips, the straight's
/// or the flush's top card, the full house's trips, the quads; a high-card hand's top card.
pub fn top_rank(r: HiRating) -> u32 {
    let payload = r.payload();
    match r.hand_type() {
        HandType::HighCard | HandType::Flush => (payload & 0x1FFF).checked_ilog2().unwrap_or(0),
        HandType::Pair | HandType::Trips => (payload >> 13) & 15,
        HandType::TwoPair => (payload >> 17) & 15,
        HandType::Straight | HandType::StraightFlush => payload.saturating_sub(1),
        HandType::FullHouse | HandType::Quads => (payload >> 4) & 15,
    }
}

/// Outs, straight cards and flush cards of p's `hand` with `board`. `unseen`: the cards that can
/// come (the engine leaves out every player's cards, the board and the dead cards); `others`:
/// the other players' hands, whose cards are never outs.
pub fn draws(game: Game, hand: CardSet, board: CardSet, unseen: &[Card], others: &[CardSet]) -> Draws {
    let rules = game.hi_rules();
    let order = |t: HandType| t.order(rules);
    let now = HiRater::new(game, board).rate(hand);
    let now_order = order(now.hand_type());
    let held: CardSet = others.iter().fold(CardSet::EMPTY, |a, &h| a.union(h));
    let mut d = Draws::default();
    for &c in unseen {
        let next_board = board.with(c);
        let rater = HiRater::new(game, next_board);
        let next = rater.rate(hand);
        let next_type = next.hand_type();
        let beats_board = next > rate_hi(next_board, rules);
        if beats_board && next_type == HandType::Straight && now_order < order(HandType::Straight) {
            d.straight += 1;
        }
        if beats_board
            && matches!(next_type, HandType::Flush | HandType::StraightFlush)
            && now_order < order(HandType::Flush)
        {
            d.flush += 1;
        }
        // Outs compare hands by type and leading rank, so kickers alone never make an out
        // (pairing the board with an ace kicker is not an improvement over the board).
        let class = |r: HiRating| (order(r.hand_type()), top_rank(r));
        let improved = class(next) > class(now) && class(next) > class(rate_hi(next_board, rules));
        if improved && !held.contains(c) && others.iter().all(|&o| next > rater.rate(o)) {
            d.outs += 1;
            d.out_cards.insert(c);
        }
    }
    d
}

/// On the flop: exactly three cards of one suit usable by p, at least one of them p's. Omaha
/// plays exactly two hole cards, so there it takes two suited hole cards and one board card.
pub fn backdoor_flush_draw(game: Game, hand: CardSet, flop: CardSet) -> bool {
    (0..4).any(|s| {
        let (h, b) = (hand.suit_mask(s).count_ones(), flop.suit_mask(s).count_ones());
        if game.is_omaha() {
            h >= 2 && b == 1
        } else {
            h >= 1 && h + b == 3
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;

    fn count(hand: &str, board: &str, others: &[&str]) -> Draws {
        let hand = parse_cards(hand).unwrap();
        let board = parse_cards(board).unwrap();
        let unseen: Vec<Card> = CardSet::FULL.minus(hand).minus(board).iter().collect();
        let others: Vec<CardSet> = others.iter().map(|o| parse_cards(o).unwrap()).collect();
        draws(Game::Holdem, hand, board, &unseen, &others)
    }

    #[test]
    fn straight_and_flush_draws_by_hand() {
        // 8-7 on 6-5-K: any 9 or 4.
        let d = count("8s7d", "6c5hKd", &[]);
        assert_eq!(d.straight, 8);
        assert!(d.open_ended() && !d.gutshot());
        assert_eq!(d.flush, 0);
        // 9-7 on 6-5-K: only an 8.
        let d = count("9s7d", "6c5hKd", &[]);
        assert_eq!(d.straight, 4);
        assert!(d.gutshot());
        // Two hearts in hand, two on the board: nine hearts; 8h and 4h also make the straight but
        // are flush cards, not straight cards.
        let d = count("8h7h", "6h5hKd", &[]);
        assert_eq!(d.flush, 9);
        assert_eq!(d.straight, 6);
        // A straight already: no straight draw.
        assert_eq!(count("8s7d", "6c5h4d", &[]).straight, 0);
    }

    #[test]
    fn outs_need_to_beat_the_known_hands() {
        // A-K against a set of sevens on 7-2-3: an ace or a king still loses, and no single card
        // makes A-K a straight or a flush.
        assert_eq!(count("AsKd", "7c2h3d", &["7s7d"]).outs, 0);
        // A-K against Q-J on 7-2-3: three aces and three kings.
        assert_eq!(count("AsKd", "7c2h3d", &["QsJd"]).outs, 6);
    }

    #[test]
    fn backdoor_flushes() {
        let c = |h: &str, f: &str| backdoor_flush_draw(Game::Holdem, parse_cards(h).unwrap(), parse_cards(f).unwrap());
        assert!(c("AhKh", "2h7c9d"));
        assert!(c("AhKd", "2h7h9d"));
        assert!(!c("AhKh", "2h7h9d")); // four: a flush draw, not a backdoor
        assert!(!c("AcKd", "2h7h9h"));
        let o = |h: &str, f: &str| backdoor_flush_draw(Game::OmahaHi, parse_cards(h).unwrap(), parse_cards(f).unwrap());
        assert!(o("AhKh2c3d", "5h7c9d"));
        assert!(!o("AhKc2c3d", "5h7h9d"));
    }
}
