//! Discounted outs (docs/analysis.md; `HoldemHand`'s heuristic by Matt Baker): of the cards that
//! `outs` counts, those still probably good against hands nobody knows. A card is dropped when
//! the hand it makes is likely beaten by a flush or straight it also brings, or is a weak pair
//! or two pair. Each card is judged on its own.

use crate::cards::{Card, CardSet};
use crate::eval::{rate_hi, HandType};
use crate::games::Game;

/// The board's suit danger for card `c`: three of a suit on the board already, or `c` the
/// third of its suit.
fn suit_danger(board: CardSet, c: Card) -> bool {
    (0..4).any(|s| board.suit_mask(s).count_ones() >= 3) || board.suit_mask(c.suit()).count_ones() == 2
}

/// Ranks with the ace also below the deuce: bit 0 the low ace, bit 1 the deuce … bit 13 the ace.
fn ranks_with_low_ace(ranks: u16) -> u16 {
    (ranks << 1) | (ranks >> 12 & 1)
}

/// On the flop: more than one pair of adjacent ranks among the board's distinct ranks (A-2
/// counts).
fn flop_straight_danger(board: CardSet) -> bool {
    let r = ranks_with_low_ace(board.rank_mask());
    (r & (r >> 1)).count_ones() > 1
}

/// On the turn, for the ranks of the board plus the card: four in a row, three in a row with a
/// card one rank beyond either end, or two adjacent pairs one rank apart (9-8 and 6-5). These
/// are exactly the ways four distinct ranks fit in five consecutive ones, so that one more card
/// of the right rank (a single hole card) makes a straight.
fn turn_straight_danger(ranks: u16) -> bool {
    let r = ranks_with_low_ace(ranks);
    (0..10).any(|low| (r >> low & 0x1F).count_ones() >= 4)
}

/// The cards of `outs` (p's outs with `hand` on `board`, flop or turn, nobody else's hand known)
/// that the heuristic keeps, by the type of the hand each makes:
/// - pair: the card outranks every board card, and no suit or straight danger;
/// - two pair: the card pairs a hole card, the hole cards are not a pair, the board is not
///   paired (unless p had two pair already), and no suit or straight danger;
/// - trips: no suit or straight danger; straight: no suit danger; flush or better: kept.
pub fn discounted_outs(game: Game, hand: CardSet, board: CardSet, outs: CardSet) -> CardSet {
    let rules = game.hi_rules();
    let before = rate_hi(hand.union(board), rules).hand_type();
    let board_ranks = board.rank_mask();
    let board_paired = board.len() > board_ranks.count_ones();
    let hole_ranks = hand.rank_mask();
    let hole_pair = hole_ranks.count_ones() < hand.len();
    let top_board_rank = board_ranks.checked_ilog2().unwrap_or(0);
    let flop_danger = board.len() == 3 && flop_straight_danger(board);
    let mut kept = CardSet::EMPTY;
    for c in outs {
        let suit = suit_danger(board, c);
        let straight = if board.len() == 3 { flop_danger } else { turn_straight_danger(board_ranks | 1 << c.rank()) };
        let keep = match rate_hi(hand.union(board).with(c), rules).hand_type() {
            HandType::HighCard => false,
            HandType::Pair => u32::from(c.rank()) > top_board_rank && !suit && !straight,
            HandType::TwoPair => {
                hole_ranks & (1 << c.rank()) != 0
                    && !hole_pair
                    && (!board_paired || before == HandType::TwoPair)
                    && !suit
                    && !straight
            }
            HandType::Trips => !suit && !straight,
            HandType::Straight => !suit,
            HandType::Flush | HandType::FullHouse | HandType::Quads | HandType::StraightFlush => true,
        };
        if keep {
            kept.insert(c);
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::draws;
    use crate::cards::parse_cards;

    fn cards(text: &str) -> CardSet {
        parse_cards(text).unwrap()
    }

    /// The outs and the discounted outs of `hand` on `board`, nobody else known.
    fn both(hand: &str, board: &str) -> (CardSet, CardSet) {
        let (hand, board) = (cards(hand), cards(board));
        let unseen: Vec<Card> = CardSet::FULL.minus(hand).minus(board).iter().collect();
        let outs = draws(Game::Holdem, hand, board, &unseen, &[]).out_cards;
        (outs, discounted_outs(Game::Holdem, hand, board, outs))
    }

    /// docs/analysis.md's example: 14 outs, 8 discounted (`HoldemHand`'s own code says 6, its straight
    /// flag leaking from one card to the next).
    #[test]
    fn queen_jack_on_nine_ten_seven_three() {
        let (outs, kept) = both("QsJs", "9cTs7d3c");
        assert_eq!(outs.len(), 14);
        assert_eq!(kept, cards("KsKhKd8s8h8dQhQd"));
    }

    #[test]
    fn pair_needs_an_overcard() {
        // A-7 on K-8-2 rainbow, no connection: the aces (over the king) pair up; the sevens do not.
        let (outs, kept) = both("Ad7c", "Kh8s2d");
        assert!(outs.contains(cards("7d").first().unwrap()));
        assert_eq!(kept, cards("AcAhAs"));
    }

    #[test]
    fn suit_danger_drops_the_third_suited_card() {
        // A-K on 2h-7h-Jc: the heart ace and king make a three-heart board; the rest are kept.
        let (outs, kept) = both("AsKd", "2h7hJc");
        assert_eq!(outs.len(), 6);
        assert_eq!(kept, cards("AcAdKcKs"));
        // Three of a suit on the board already: every pair card is dropped.
        let (_, kept) = both("AsKd", "2h7h9h");
        assert!(kept.is_empty(), "{kept:?}");
    }

    #[test]
    fn straight_danger_on_the_flop_and_turn() {
        // The flop 9-T-J has two adjacent pairs: the ace and four pair cards are all dropped.
        let (outs, kept) = both("As4d", "9cThJd");
        assert_eq!(outs, cards("AcAdAh4c4h4s"));
        assert!(kept.is_empty(), "{kept:?}");
        // On the turn each card is judged with the board: K-Q on 2-7-8-9 rainbow. A king or queen
        // pairs over the board (kept), but a T or 6 would fill four in a window (not outs here).
        assert!(turn_straight_danger(cards("2c7d8h9sTc").rank_mask()));
        assert!(turn_straight_danger(cards("9c8d6h5s2c").rank_mask())); // two pairs, one gap
        assert!(turn_straight_danger(cards("9c8d7h5s2c").rank_mask())); // three and one beyond
        assert!(turn_straight_danger(cards("Ac2d3h4sKc").rank_mask())); // the low ace
        assert!(!turn_straight_danger(cards("9c8d5h4sKc").rank_mask()));
        let (_, kept) = both("KsQd", "2c7d8h9s");
        assert_eq!(kept, cards("KcKdKhQcQhQs"));
        // K-Q on 2-7-8-T: a jack makes 7-8-T-J (three with one beyond): a straight draw, and J
        // is not an out anyway; the kings and queens keep the window below four.
        assert!(!flop_straight_danger(cards("2c7d9h")));
        assert!(flop_straight_danger(cards("Ac2d3h")));
    }

    #[test]
    fn two_pair_rules() {
        // A-7 on A-8-2: a seven pairs a hole card for two pair (kept), an eight or a deuce pairs
        // the board (dropped), an ace makes trips (kept).
        let (outs, kept) = both("Ad7c", "Ah8s2c");
        assert_eq!(outs.len(), 11);
        assert_eq!(kept, cards("7d7h7sAcAs"));
        // A-7 on 9-8-8 (a paired board): two pair with the sevens or aces loses to trips.
        let (outs, kept) = both("Ad7c", "9h8s8c");
        assert_eq!(outs, cards("AcAhAs7d7h7s"));
        assert!(kept.is_empty(), "{kept:?}");
        // Unless p had two pair already: K-9 on 9-5-5, a king makes kings and nines.
        let (_, kept) = both("Kd9c", "9h5s5c");
        assert!(kept.contains(cards("Kh").first().unwrap()), "{kept:?}");
        // A pocket pair is not paired by the card: 5-5 on K-9-2, a king, nine or deuce makes two
        // pair with the board (dropped); only the set cards stay.
        let (outs, kept) = both("5d5c", "Kh9s2c");
        assert_eq!(outs.len(), 11);
        assert_eq!(kept, cards("5h5s"));
    }

    #[test]
    fn trips_and_better() {
        // A flush card is always kept (and the overcards here too: no suit danger for them).
        let (outs, kept) = both("AhKh", "2h7h9c");
        assert_eq!(outs.len(), 15);
        assert_eq!(kept, outs);
        // A straight card that is the third of a suit is dropped: 8-7 on 6c-5c-Kd, 9c and 4c.
        let (outs, kept) = both("8s7d", "6c5cKd");
        assert_eq!(outs.intersect(cards("9c4c9h4h")), cards("9c4c9h4h"));
        assert!(!kept.contains(cards("9c").first().unwrap()) && kept.contains(cards("9h").first().unwrap()));
        // Trips on a three-suited board are dropped.
        let (_, kept) = both("5d5c", "Kh9h2h");
        assert!(!kept.contains(cards("5s").first().unwrap()));
    }
}
