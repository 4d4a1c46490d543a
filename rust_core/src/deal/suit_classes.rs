//! Suit isomorphism of exact prefixes: most combinations of the players' hands are the same deal
//! with the suits renamed (`AsKs` v `QhQd` and `AhKh` v `QsQd`), and who wins does not depend on
//! the suits' names, so the deals of one such class of prefixes need to be enumerated once; each
//! prefix of the class then takes the class's tally with its own weight.
//!
//! Each suit of a prefix has a signature: the ranks it holds in every player's hand, on the known
//! board and among all the cards used (hands, board and dead cards). Renaming suits permutes the
//! four signatures, so the sorted signatures (with what does not depend on suits: which
//! positions are open) name the class exactly, and lining up two prefixes' suits in signature
//! order renames one into the other.

use super::exhaustive::Prefix;
use super::source::{DealSpec, OPEN};
use crate::cards::{Card, CardSet};
use std::collections::HashMap;

/// A renaming of suits: suit `s` becomes `self.0[s]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SuitMap(pub [u8; 4]);

impl SuitMap {
    pub const IDENTITY: SuitMap = SuitMap([0, 1, 2, 3]);

    #[inline]
    pub fn card(self, c: Card) -> Card {
        Card::new(c.rank(), self.0[usize::from(c.suit() & 3)])
    }

    pub fn set(self, cards: CardSet) -> CardSet {
        (0..4u8).fold(CardSet::EMPTY, |out, s| {
            out.union(CardSet::from_bits(u64::from(cards.suit_mask(s)) << (16 * u32::from(self.0[usize::from(s)]))))
        })
    }

    /// The renaming that undoes this one.
    pub fn inverse(self) -> SuitMap {
        let mut back = [0u8; 4];
        for (s, &to) in self.0.iter().enumerate() {
            back[usize::from(to & 3)] = s as u8;
        }
        SuitMap(back)
    }

    /// A renaming that puts `sets` (read together) in a canonical form: two lists of card sets
    /// that are one list with the suits renamed come out the same. Suits are ordered by their
    /// lanes in every set, as `signature` orders a prefix's; suits with equal lanes everywhere
    /// may go either way, which changes nothing.
    /// More than eight sets are not compared: the identity then (a key of the sets as they are).
    pub fn canonical(sets: &[CardSet]) -> SuitMap {
        if sets.len() > 8 {
            return SuitMap::IDENTITY;
        }
        let lanes = |s: u8| -> [u16; 8] {
            let mut lane = [0u16; 8];
            for (slot, set) in lane.iter_mut().zip(sets) {
                *slot = set.suit_mask(s);
            }
            lane
        };
        let by_suit: [[u16; 8]; 4] = std::array::from_fn(|s| lanes(s as u8));
        let mut order = [0u8, 1, 2, 3];
        order.sort_by(|&a, &b| by_suit[usize::from(a)].cmp(&by_suit[usize::from(b)]));
        // The suit in place i of the order becomes suit i.
        let mut map = [0u8; 4];
        for (i, &s) in order.iter().enumerate() {
            map[usize::from(s)] = i as u8;
        }
        SuitMap(map)
    }
}

/// Whether renaming the suits in any way maps `list` onto itself, weights included (a range
/// such as `20%` or `AKs`, not `AhKh`): values computed against it are then the same for a
/// deal and its renamings. A transposition and a four-cycle generate every renaming.
pub fn symmetric_under_suits(list: &super::source::WeightedList<super::source::SlotHand>) -> bool {
    let weight_of: HashMap<u64, f64> =
        list.items.iter().enumerate().map(|(i, h)| (h.fixed.bits(), list.weight(i))).collect();
    if weight_of.len() != list.items.len() {
        // The same cards twice (stud positions): not judged.
        return false;
    }
    [SuitMap([1, 0, 2, 3]), SuitMap([1, 2, 3, 0])].iter().all(|&map| {
        list.items
            .iter()
            .enumerate()
            .all(|(i, h)| weight_of.get(&map.set(h.fixed).bits()).is_some_and(|&w| w == list.weight(i)))
    })
}

/// Prefixes that are one deal up to the names of the suits: the first is the class's
/// representative, and each member comes with the renaming that turns the representative's
/// cards into its own.
#[derive(Clone, Debug)]
pub struct SuitClass {
    pub members: Vec<(usize, SuitMap)>,
}

impl SuitClass {
    /// The representative prefix's index.
    pub fn first(&self) -> usize {
        self.members[0].0
    }
}

/// What names a prefix's class, and the prefix's suits in signature order.
fn signature(spec: &DealSpec, prefix: &Prefix) -> (Vec<u16>, [u8; 4]) {
    let players = spec.players.len();
    let known: CardSet = prefix.board_slots.iter().filter(|&&b| b != OPEN).map(|&b| Card::from_index(b)).collect();
    let lanes = |s: u8| -> Vec<u16> {
        let mut lane: Vec<u16> = prefix.deal.hole[..players].iter().map(|h| h.suit_mask(s)).collect();
        lane.push(known.suit_mask(s));
        lane.push(prefix.used.suit_mask(s));
        lane
    };
    let by_suit: [Vec<u16>; 4] = std::array::from_fn(|s| lanes(s as u8));
    let mut order = [0u8, 1, 2, 3];
    order.sort_by(|&a, &b| by_suit[usize::from(a)].cmp(&by_suit[usize::from(b)]));
    // What no renaming changes: the open board positions and, in stud, each hand's.
    let mut key: Vec<u16> =
        vec![prefix.board_slots.iter().enumerate().fold(0, |m, (i, &b)| m | u16::from(b == OPEN) << i)];
    if spec.game.is_stud() {
        key.extend(
            prefix.deal.stud[..players]
                .iter()
                .map(|h| h.iter().enumerate().fold(0u16, |m, (i, c)| m | u16::from(c.index() == OPEN) << i)),
        );
    }
    for &s in &order {
        key.extend_from_slice(&by_suit[usize::from(s)]);
    }
    (key, order)
}

/// The prefixes grouped into classes under renaming of suits, in order of their first member.
pub fn suit_classes(spec: &DealSpec, prefixes: &[Prefix]) -> Vec<SuitClass> {
    let mut index: HashMap<Vec<u16>, usize> = HashMap::new();
    let mut classes: Vec<SuitClass> = Vec::new();
    // The suits of each class's representative in signature order.
    let mut first_order: Vec<[u8; 4]> = Vec::new();
    for (i, prefix) in prefixes.iter().enumerate() {
        let (key, order) = signature(spec, prefix);
        if let Some(&c) = index.get(&key) {
            // The representative's suit in each place of the order becomes this prefix's.
            let mut map = [0u8; 4];
            for (&from, &to) in first_order[c].iter().zip(&order) {
                map[usize::from(from)] = to;
            }
            classes[c].members.push((i, SuitMap(map)));
        } else {
            index.insert(key, classes.len());
            classes.push(SuitClass { members: vec![(i, SuitMap::IDENTITY)] });
            first_order.push(order);
        }
    }
    classes
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;
    use crate::deal::source::{BoardSource, HandSource, SlotHand, WeightedList};
    use crate::games::Game;

    fn range(hands: &[&str]) -> HandSource {
        HandSource::Range(WeightedList::uniform(
            hands.iter().map(|h| SlotHand::from_set(parse_cards(h).unwrap())).collect(),
        ))
    }

    #[test]
    fn members_are_their_representative_renamed() {
        // Pairs against suited and offsuit hands, with a dead card: every member is its class's
        // representative with the suits renamed, and prefixes in different classes are not.
        let pairs: Vec<String> = ["QQ", "22"]
            .iter()
            .flat_map(|r| {
                let r = r.chars().next().unwrap();
                ["cd", "ch", "cs", "dh", "ds", "hs"].map(|s| format!("{r}{}{r}{}", &s[..1], &s[1..]))
            })
            .collect();
        let ak: Vec<String> =
            ["c", "d", "h", "s"].iter().flat_map(|a| ["c", "d", "h", "s"].map(|k| format!("A{a}K{k}"))).collect();
        let spec = DealSpec::new(
            Game::Holdem,
            vec![
                range(&ak.iter().map(String::as_str).collect::<Vec<_>>()),
                range(&pairs.iter().map(String::as_str).collect::<Vec<_>>()),
            ],
            BoardSource::Random,
            parse_cards("Jc").unwrap(),
        );
        let prefixes = spec.prefixes(10_000).unwrap();
        let classes = suit_classes(&spec, &prefixes);
        assert_eq!(classes.iter().map(|c| c.members.len()).sum::<usize>(), prefixes.len());
        assert!(classes.len() < prefixes.len() / 3, "{} classes of {}", classes.len(), prefixes.len());
        let renamed = |p: &Prefix, map: SuitMap| -> (Vec<CardSet>, CardSet) {
            (p.deal.hole[..2].iter().map(|&h| map.set(h)).collect(), map.set(p.used))
        };
        for class in &classes {
            let first = &prefixes[class.first()];
            for &(i, map) in &class.members {
                let member = &prefixes[i];
                assert_eq!(renamed(first, map), (member.deal.hole[..2].to_vec(), member.used));
            }
        }
        // Representatives of different classes: no renaming makes one the other.
        let all_maps: Vec<SuitMap> = (0..24u8)
            .map(|mut i| {
                let mut left = vec![0u8, 1, 2, 3];
                let mut map = [0u8; 4];
                for (n, slot) in (1..=4u8).rev().zip(&mut map) {
                    *slot = left.remove(usize::from(i % n));
                    i /= n;
                }
                SuitMap(map)
            })
            .collect();
        for (a, ca) in classes.iter().enumerate() {
            for cb in &classes[a + 1..] {
                let (pa, pb) = (&prefixes[ca.first()], &prefixes[cb.first()]);
                let target = (pb.deal.hole[..2].to_vec(), pb.used);
                assert!(all_maps.iter().all(|&m| renamed(pa, m) != target));
            }
        }
    }
}
