//! Ratings looked up by rank multiset: hi hands of five to seven cards and seven-card lows, the
//! hot path of every showdown.
//!
//! Of at most seven cards, a flush excludes full houses and quads, so a hand with five cards of
//! one suit is rated from that suit's rank mask alone. Any other hand, and any low, depends only
//! on its multiset of ranks: each suit lane's ranks map to a base-5 digit sum (no carries, at
//! most four of a rank), and a perfect hash built once turns the sum into a slot of a table.
//! Every entry is filled by the bit-arithmetic evaluators of `hi.rs` and `lo.rs`, which stay
//! the references.

use super::card_keys::{biased_card_key, biased_flush_suit, card_key, rank_key, FLUSH_BITS};
use super::hi::rate_hi_bits;
use super::lo::{rate_lo8, rate_razz};
use super::{HiRating, LoRating};
use crate::cards::{Card, CardSet};
use crate::games::HiRules;
use std::sync::{LazyLock, OnceLock};

/// `LANE_KEYS[m]` for a suit lane's 13-bit rank mask `m`: bits 0..31 read `m` as base-5 digits
/// (rank r adds 5^r), so the sum over the four lanes counts each rank's cards in its own digit
/// (at most four: no carries, and 5^13 < 2^31); bit 31 is set when the lane holds five cards or
/// more. Of at most nine cards only one suit can, so the sum's bit 31 says "flush".
static LANE_KEYS: [u32; 8192] = lane_key_table();

const FLUSH_BIT: u32 = 1 << 31;

// Evaluated at compile time only: the array never lives on a run-time stack.
#[allow(clippy::large_stack_arrays)]
const fn lane_key_table() -> [u32; 8192] {
    let mut t = [0u32; 8192];
    let mut m = 0;
    while m < 8192 {
        let mut r = 0;
        let mut pow = 1u32;
        let mut digits = 0u32;
        while r < 13 {
            if m & (1 << r) != 0 {
                digits += pow;
            }
            pow = pow.wrapping_mul(5);
            r += 1;
        }
        t[m] = if (m as u32).count_ones() >= 5 { digits | FLUSH_BIT } else { digits };
        m += 1;
    }
    t
}

/// The four lanes' keys summed: the rank multiset's base-5 key, and the flush bit.
#[inline]
fn lane_sum(bits: u64) -> u32 {
    const LANE: u64 = 0x1FFF;
    LANE_KEYS[(bits & LANE) as usize]
        + LANE_KEYS[((bits >> 16) & LANE) as usize]
        + LANE_KEYS[((bits >> 32) & LANE) as usize]
        + LANE_KEYS[((bits >> 48) & LANE) as usize]
}

/// A perfect hash of the rank keys of every multiset of one size (at most four of a rank), in
/// the "hash and displace" style: the key's product with an odd constant picks one of
/// `BUCKETS` buckets from its top bits and a slot from the bits below; each bucket's
/// displacement (xor) was chosen at build time so that no two keys share a slot. Sizes are
/// powers of two, fixed at compile time so that indexing needs no bounds checks.
struct RankHash<const BUCKETS: usize, const SLOTS: usize> {
    size: usize,
    multiplier: u64,
    displacement: Box<[u16; BUCKETS]>,
}

impl<const BUCKETS: usize, const SLOTS: usize> RankHash<BUCKETS, SLOTS> {
    const BUCKET_BITS: u32 = BUCKETS.trailing_zeros();
    const SLOT_BITS: u32 = SLOTS.trailing_zeros();

    #[inline]
    fn hashed(multiplier: u64, key: u32) -> (usize, usize) {
        let h = u64::from(key).wrapping_mul(multiplier);
        let bucket = (h >> (64 - Self::BUCKET_BITS)) as usize;
        let slot = (h >> (64 - Self::BUCKET_BITS - Self::SLOT_BITS)) as usize & (SLOTS - 1);
        (bucket, slot)
    }

    #[inline]
    fn slot(&self, key: u32) -> usize {
        let (bucket, slot) = Self::hashed(self.multiplier, key);
        // Displacements are below SLOTS: the mask changes nothing but lets the compiler see it.
        (slot ^ usize::from(self.displacement[bucket])) & (SLOTS - 1)
    }

    /// The hash of `size` ranks as `data/rank_hash.bin` holds it (from `offset`: the multiplier,
    /// then each bucket's displacement, little endian), made by [`RankHash::build`] ahead of
    /// time: the search takes longer than the rest of the tables (a third of the first
    /// query's start), and a test checks that the file still equals what it finds.
    fn stored(size: usize, offset: usize) -> Self {
        let bytes = &RANK_HASH_FILE[offset..offset + Self::STORED_BYTES];
        let multiplier = u64::from_le_bytes(bytes[..8].try_into().unwrap_or_else(|_| unreachable!("8 bytes")));
        let mut displacement = boxed_array(0u16);
        for (d, pair) in displacement.iter_mut().zip(bytes[8..].chunks_exact(2)) {
            *d = u16::from_le_bytes([pair[0], pair[1]]);
        }
        RankHash { size, multiplier, displacement }
    }

    /// Bytes of one hash in `data/rank_hash.bin`.
    const STORED_BYTES: usize = 8 + 2 * BUCKETS;

    fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = self.multiplier.to_le_bytes().to_vec();
        bytes.extend(self.displacement.iter().flat_map(|d| d.to_le_bytes()));
        bytes
    }

    /// The hash of every multiset of `size` ranks, trying multipliers until the displacements
    /// can be placed (the first one does for the sizes used here).
    fn build(size: usize) -> Self {
        let keys: Vec<u32> = rank_multisets(size).iter().map(|c| lane_sum(c.bits())).collect();
        let mut multiplier = 0x9E37_79B9_7F4A_7C15u64;
        loop {
            if let Some(displacement) = Self::displace(&keys, multiplier) {
                return RankHash { size, multiplier, displacement };
            }
            multiplier = multiplier.wrapping_mul(0xD1B5_4A32_D192_ED03).wrapping_add(2) | 1;
        }
    }

    /// Each bucket's displacement, largest buckets first (the hardest to place); `None` when a
    /// bucket fits nowhere.
    fn displace(keys: &[u32], multiplier: u64) -> Option<Box<[u16; BUCKETS]>> {
        // The keys' slots grouped by bucket in one array (bucket b's are `start[b]..start[b + 1]`,
        // in key order): one allocation instead of one per bucket.
        let hashed: Vec<(usize, usize)> = keys.iter().map(|&key| Self::hashed(multiplier, key)).collect();
        let mut start = vec![0usize; BUCKETS + 1];
        for &(bucket, _) in &hashed {
            start[bucket + 1] += 1;
        }
        for b in 0..BUCKETS {
            start[b + 1] += start[b];
        }
        let mut next = start.clone();
        let mut grouped = vec![0usize; keys.len()];
        for &(bucket, slot) in &hashed {
            grouped[next[bucket]] = slot;
            next[bucket] += 1;
        }
        let mut order: Vec<usize> = (0..BUCKETS).collect();
        order.sort_by_key(|&b| std::cmp::Reverse(start[b + 1] - start[b]));
        let mut displacement = boxed_array(0u16);
        let mut taken = vec![false; SLOTS];
        for b in order {
            let slots = &grouped[start[b]..start[b + 1]];
            if slots.is_empty() {
                break;
            }
            // Two keys of a bucket on one slot stay together under every displacement.
            if slots.iter().enumerate().any(|(i, s)| slots[..i].contains(s)) {
                return None;
            }
            let d = (0..SLOTS.min(1 << 16)).find(|&d| slots.iter().all(|&s| !taken[s ^ d]))?;
            for &s in slots {
                taken[s ^ d] = true;
            }
            displacement[b] = d as u16;
        }
        Some(displacement)
    }
}

/// The hashes of five, six and seven cards (6,175, 18,395 and 49,205 multisets; tables about
/// three quarters or half full), one after the other in the file.
static HASH5: LazyLock<RankHash<2048, 8192>> = LazyLock::new(|| RankHash::stored(5, 0));
static HASH6: LazyLock<RankHash<4096, 32768>> = LazyLock::new(|| RankHash::stored(6, HASH6_AT));
static HASH7: LazyLock<RankHash<8192, 65536>> = LazyLock::new(|| RankHash::stored(7, HASH7_AT));

const HASH6_AT: usize = RankHash::<2048, 8192>::STORED_BYTES;
const HASH7_AT: usize = HASH6_AT + RankHash::<4096, 32768>::STORED_BYTES;
const RANK_HASH_BYTES: usize = HASH7_AT + RankHash::<8192, 65536>::STORED_BYTES;

static RANK_HASH_FILE: &[u8; RANK_HASH_BYTES] =
    include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/data/rank_hash.bin"));

/// What `data/rank_hash.bin` should hold: the three hashes searched afresh
/// (`cargo run --release --example gen_rank_hash` writes it).
#[doc(hidden)]
pub fn rank_hash_file() -> Vec<u8> {
    let mut bytes = RankHash::<2048, 8192>::build(5).to_bytes();
    bytes.extend(RankHash::<4096, 32768>::build(6).to_bytes());
    bytes.extend(RankHash::<8192, 65536>::build(7).to_bytes());
    bytes
}

/// A value for every multiset of one size of ranks, by rank key.
struct SizeTable<T, const BUCKETS: usize, const SLOTS: usize> {
    hash: &'static RankHash<BUCKETS, SLOTS>,
    values: Box<[T; SLOTS]>,
}

impl<T: Copy + Default, const BUCKETS: usize, const SLOTS: usize> SizeTable<T, BUCKETS, SLOTS> {
    /// `rate` of a flushless hand of every multiset of the hash's size.
    fn build(hash: &'static RankHash<BUCKETS, SLOTS>, rate: impl Fn(CardSet) -> T) -> Self {
        let mut values = boxed_array(T::default());
        for cards in rank_multisets(hash.size) {
            values[hash.slot(lane_sum(cards.bits()))] = rate(cards);
        }
        SizeTable { hash, values }
    }

    #[inline]
    fn get(&self, key: u32) -> T {
        self.values[self.hash.slot(key)]
    }
}

fn boxed_array<T: Copy, const N: usize>(fill: T) -> Box<[T; N]> {
    vec![fill; N].into_boxed_slice().try_into().unwrap_or_else(|_| unreachable!("length is N"))
}

/// Rank multisets of `size` cards, at most four of a rank, as card sets without a flush: the
/// i-th card from the lowest rank up takes suit i mod 4, so a rank's copies get distinct suits
/// and no suit gets more than two of seven cards. In order of the count of deuces, most first,
/// then of threes, and so on.
pub(super) fn rank_multisets(size: usize) -> Vec<CardSet> {
    // Built from the top rank down: `above[k]` holds the multisets of k cards of the ranks above
    // the one being added, whose cards come after the `size - k` of the ranks below.
    let mut above: Vec<Vec<u64>> = (0..=size).map(|k| if k == 0 { vec![0] } else { Vec::new() }).collect();
    for rank in (0..13u8).rev() {
        let mut with: Vec<Vec<u64>> = vec![Vec::new(); size + 1];
        for (k, sets) in with.iter_mut().enumerate() {
            let below = size - k;
            for n in (0..=k.min(4)).rev() {
                let own = (below..below + n).fold(0u64, |b, i| b | Card::new(rank, (i % 4) as u8).bit());
                sets.extend(above[k - n].iter().map(|rest| own | rest));
            }
        }
        above = with;
    }
    above[size].iter().map(|&bits| CardSet::from_bits(bits)).collect()
}

/// One rules' ratings: flushes by rank mask, other hands of 5, 6 and 7 cards by rank key
/// (6,175, 18,395 and 49,205 multisets; tables about three quarters or half full).
pub struct HiTable {
    rules: HiRules,
    flush: Box<[HiRating; 8192]>,
    five: SizeTable<HiRating, 2048, 8192>,
    six: SizeTable<HiRating, 4096, 32768>,
    seven: SizeTable<HiRating, 8192, 65536>,
    /// The seven-card entries as [`HiRank`]s: half the bytes of the ratings, enough for
    /// showdowns that only ask who wins.
    seven_rank: Box<[u16; 65536]>,
    /// Flushes of five to seven cards as [`HiRank`]s, by the suit's rank mask.
    flush_rank: Box<[u16; 8192]>,
    /// The rating of each rank: the distinct ratings of seven-card hands, weakest first.
    ratings: Box<[HiRating]>,
    /// Two-card hands' ranks by five-card board (see [`SevenCards::by_board`]), by rank
    /// pair (low * 13 + high), made on first use.
    board_rows: Box<[OnceLock<Box<[u16; FIVE_RANK_SLOTS]>>; 169]>,
}

/// A seven-card hi hand's strength among all such hands of its rules, as a 16-bit number:
/// greater is better and equal is a tie, also between flushes and hands without one (the
/// index of its [`HiRating`] among the distinct ratings, see [`HiTable::rating_of`]). Half the
/// size of a rating, so that the tables of the hottest loops stay in cache.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct HiRank(pub u16);

impl HiTable {
    fn build(rules: HiRules) -> HiTable {
        let mut flush = boxed_array(HiRating::NONE);
        for (m, slot) in flush.iter_mut().enumerate() {
            if m.count_ones() >= 5 {
                *slot = rate_hi_bits(CardSet::from_bits(m as u64), rules);
            }
        }
        let seven = SizeTable::build(&HASH7, |c| rate_hi_bits(c, rules));
        // Unused slots hold HiRating::NONE, the first of the distinct values: rank 0.
        let mut distinct: Vec<HiRating> = seven.values.to_vec();
        distinct.extend(flush.iter().enumerate().filter(|(m, _)| (5..=7).contains(&m.count_ones())).map(|(_, &r)| r));
        distinct.sort_unstable();
        distinct.dedup();
        let rank = |r: HiRating| distinct.partition_point(|&d| d < r) as u16;
        let mut seven_rank = boxed_array(0u16);
        for (slot, &r) in seven_rank.iter_mut().zip(seven.values.iter()) {
            *slot = rank(r);
        }
        let mut flush_rank = boxed_array(0u16);
        for (slot, &r) in flush_rank.iter_mut().zip(flush.iter()) {
            // A mask of more ranks rates as its best five, which a five-rank mask rates too.
            *slot = rank(r);
        }
        HiTable {
            rules,
            flush,
            five: SizeTable::build(&HASH5, |c| rate_hi_bits(c, rules)),
            six: SizeTable::build(&HASH6, |c| rate_hi_bits(c, rules)),
            seven,
            seven_rank,
            flush_rank,
            ratings: distinct.into_boxed_slice(),
            board_rows: Box::new(std::array::from_fn(|_| OnceLock::new())),
        }
    }

    /// The rank of exactly seven cards (see [`SevenCards::rank_seven`]); for loops over many
    /// hands, [`HiTable::seven_cards`] once and then [`SevenCards::rank_seven`].
    #[inline]
    pub fn rank_seven(&'static self, cards: &[Card; 7]) -> HiRank {
        self.seven_cards().rank_seven(cards)
    }

    /// The rating a rank stands for.
    #[inline]
    pub fn rating_of(&self, rank: HiRank) -> HiRating {
        self.ratings.get(usize::from(rank.0)).copied().unwrap_or(HiRating::NONE)
    }

    /// The best hi hand of `cards` (any number; five to seven by table).
    #[inline]
    pub fn rate(&self, cards: CardSet) -> HiRating {
        let b = cards.bits();
        let n = b.count_ones();
        if !(5..=7).contains(&n) {
            return rate_hi_bits(cards, self.rules);
        }
        let key = lane_sum(b);
        if key & FLUSH_BIT != 0 {
            return self.rate_flush(b);
        }
        match n {
            7 => self.seven.get(key),
            6 => self.six.get(key),
            _ => self.five.get(key),
        }
    }

    /// Exactly seven cards (a hold'em or stud showdown): no count to branch on.
    #[inline]
    pub fn rate_seven(&self, cards: CardSet) -> HiRating {
        debug_assert_eq!(cards.len(), 7);
        let b = cards.bits();
        let key = lane_sum(b);
        if key & FLUSH_BIT != 0 {
            return self.rate_flush(b);
        }
        self.seven.get(key)
    }

    /// The seven-card tables as a small copyable view, for loops that rate many hands: its
    /// fields stay in registers instead of being read through the table on every hand.
    pub fn seven_cards(&'static self) -> SevenCards {
        let hash = self.seven.hash;
        SevenCards {
            multiplier: hash.multiplier,
            displacement: &hash.displacement,
            order: &self.seven_rank,
            ratings: &self.ratings,
            flush: &self.flush,
            flush_rank: &self.flush_rank,
            rows: &self.board_rows,
        }
    }

    /// Seven cards without a flush, from their base-5 rank key (the sum of 5^rank over the
    /// cards, as `GivenTally` builds it).
    #[inline]
    pub fn rate_seven_cards(&self, key: u32) -> HiRating {
        self.seven.get(key)
    }

    /// The flush of five to seven cards: at most one suit can hold five.
    #[cold]
    fn rate_flush(&self, b: u64) -> HiRating {
        let lane = [0, 16, 32, 48].map(|s| (b >> s) & 0x1FFF).into_iter().find(|l| l.count_ones() >= 5).unwrap_or(0);
        self.flush[lane as usize]
    }
}

/// The rank ([`HiRank`]) of seven cards without a flush, from their base-5 rank key: greater
/// is better, equal is a tie, and flushes rank on the same scale (see
/// [`HiTable::seven_cards`]).
#[derive(Clone, Copy)]
pub struct SevenCards {
    multiplier: u64,
    displacement: &'static [u16; 8192],
    order: &'static [u16; 65536],
    ratings: &'static [HiRating],
    flush: &'static [HiRating; 8192],
    flush_rank: &'static [u16; 8192],
    rows: &'static [OnceLock<Box<[u16; FIVE_RANK_SLOTS]>>; 169],
}

/// Seven cards' keys summed from [`SUIT_BIAS`](super::card_keys::SUIT_BIAS) (the first card's key
/// read with the bias, which makes the flush test one AND with no addition of its own). A card
/// at a time, by reference: the array taken apart by value is read as one wide load and a dozen
/// shifts.
#[allow(clippy::trivially_copy_pass_by_ref)]
#[inline]
fn biased_keys(cards: &[Card; 7]) -> u64 {
    let [first, rest @ ..] = cards;
    rest.iter().fold(biased_card_key(*first), |k, &c| k + card_key(c))
}

impl SevenCards {
    /// The rank of exactly seven cards, from their card bytes: their keys summed (one addition
    /// a card, see `card_keys`), then one table read by rank multiset, or for the rare flush one
    /// by the suit's rank mask. Nothing is built per call.
    #[inline]
    pub fn rank_seven(self, cards: &[Card; 7]) -> HiRank {
        let keys = biased_keys(cards);
        if keys & FLUSH_BITS != 0 {
            return self.rank_seven_flush(*cards);
        }
        HiRank(self.order(rank_key(keys)))
    }

    /// [`SevenCards::rank_seven`] of seven cards with a flush (the suit found again here, so
    /// that the common path keeps nothing for it).
    #[cold]
    #[inline(never)]
    fn rank_seven_flush(self, cards: [Card; 7]) -> HiRank {
        let suit = biased_flush_suit(biased_keys(&cards));
        let lane = cards.iter().filter(|c| u32::from(c.suit()) == suit).fold(0u32, |m, c| m | 1 << c.rank());
        HiRank(self.flush_order(lane))
    }

    /// The [`HiRank`] of seven cards without a flush whose rank key is `key`.
    #[inline]
    pub fn order(self, key: u32) -> u16 {
        let (bucket, slot) = RankHash::<8192, 65536>::hashed(self.multiplier, key);
        self.order[(slot ^ usize::from(self.displacement[bucket])) & 65535]
    }

    /// Which table this is (the rules'), for caches of what is read from it.
    pub fn table_id(self) -> usize {
        self.order.as_ptr() as usize
    }

    /// The [`HiRank`] of the flush (or straight flush) whose suit holds the ranks `lane` (of
    /// seven cards: five to seven ranks).
    #[inline]
    pub fn flush_order(self, lane: u32) -> u16 {
        self.flush_rank[(lane & 0x1FFF) as usize]
    }

    /// The rating of an order: where hands with a flush are compared with hands without one.
    #[inline]
    pub fn rating(self, order: u16) -> HiRating {
        self.ratings.get(usize::from(order)).copied().unwrap_or(HiRating::NONE)
    }

    /// The best flush (or straight flush) of seven cards whose suit `suit` holds five or more.
    #[inline]
    pub fn flush(self, cards: CardSet, suit: u32) -> HiRating {
        self.flush[((cards.bits() >> (16 * (suit & 3))) & 0x1FFF) as usize]
    }

    /// The ranks without flushes of a two-card hand with every five-card board, by the board's
    /// [`BoardRankSlots::slot`]: a showdown of many hands on one board hashes the board once
    /// and reads one entry a hand. Boards that would make five of a rank with the hand hold no
    /// rank of theirs (they cannot be dealt). Made on first use for each of the 91 rank pairs,
    /// and kept (16 KB each). `None` unless `hand` holds two cards.
    pub fn by_board(self, hand: CardSet) -> Option<&'static [u16; FIVE_RANK_SLOTS]> {
        let mut ranks = hand.iter().map(Card::rank);
        let (Some(low), Some(high), None) = (ranks.next(), ranks.next(), ranks.next()) else { return None };
        let (low, high) = (low.min(high), low.max(high));
        let own = RANK_DIGITS[usize::from(low)] + RANK_DIGITS[usize::from(high)];
        let row = self.rows[usize::from(low) * 13 + usize::from(high)].get_or_init(|| {
            let mut row = boxed_array(0u16);
            for &(key, slot) in FIVE_RANK_KEYS.iter() {
                row[slot] = self.order(own + key);
            }
            row
        });
        Some(row)
    }
}

/// 5^rank: a rank's digit in a rank key.
const RANK_DIGITS: [u32; 13] = {
    let mut t = [0u32; 13];
    let mut r = 0;
    let mut d = 1;
    while r < 13 {
        t[r] = d;
        d *= 5;
        r += 1;
    }
    t
};

/// Every five-card rank multiset's base-5 key and slot, for the rows of
/// [`SevenCards::by_board`] (made once: a run makes a row for each hand).
static FIVE_RANK_KEYS: LazyLock<Vec<(u32, usize)>> = LazyLock::new(|| {
    rank_multisets(5)
        .iter()
        .map(|board| {
            let key = lane_sum(board.bits()) & !FLUSH_BIT;
            (key, HASH5.slot(key))
        })
        .collect()
});

/// Where a five-card board's rank multiset sits among [`FIVE_RANK_SLOTS`] (as
/// [`five_rank_slot_of_key`]), as a small copyable view for loops over many boards.
#[derive(Clone, Copy)]
pub struct BoardRankSlots {
    multiplier: u64,
    displacement: &'static [u16; 2048],
}

impl BoardRankSlots {
    pub fn new() -> BoardRankSlots {
        let hash = &*HASH5;
        BoardRankSlots { multiplier: hash.multiplier, displacement: &hash.displacement }
    }

    /// The slot of the board whose five cards' base-5 rank key is `key`.
    #[inline]
    pub fn slot(self, key: u32) -> usize {
        let (bucket, slot) = RankHash::<2048, 8192>::hashed(self.multiplier, key);
        (slot ^ usize::from(self.displacement[bucket & 2047])) & (FIVE_RANK_SLOTS - 1)
    }
}

impl Default for BoardRankSlots {
    fn default() -> Self {
        BoardRankSlots::new()
    }
}

pub static STANDARD: LazyLock<HiTable> = LazyLock::new(|| HiTable::build(HiRules::Standard));
pub static SHORT_DECK: LazyLock<HiTable> = LazyLock::new(|| HiTable::build(HiRules::ShortDeck));
pub static TRITON: LazyLock<HiTable> = LazyLock::new(|| HiTable::build(HiRules::Triton));

/// Where five cards' rank multiset sits in the five-card table: a number below
/// [`FIVE_RANK_SLOTS`], distinct for distinct multisets (suits are ignored).
#[inline]
pub(super) fn five_rank_slot(cards: CardSet) -> usize {
    HASH5.slot(lane_sum(cards.bits()) & !FLUSH_BIT)
}

/// [`five_rank_slot`] from the base-5 rank key of the five cards.
#[inline]
pub(super) fn five_rank_slot_of_key(key: u32) -> usize {
    HASH5.slot(key)
}

pub const FIVE_RANK_SLOTS: usize = 8192;

/// The lows of seven cards by rank key (lows ignore suits): razz's, or the 8-or-better low
/// (`LoRating(0)` where there is none).
pub struct LowTable(SizeTable<LoRating, 8192, 65536>);

impl LowTable {
    /// The low of seven cards from their base-5 rank key (see [`HiTable::rate_seven_cards`]).
    #[inline]
    pub fn rate_seven(&self, key: u32) -> LoRating {
        self.0.get(key)
    }
}

pub static RAZZ_SEVEN: LazyLock<LowTable> = LazyLock::new(|| LowTable(SizeTable::build(&HASH7, rate_razz)));
pub static LO8_SEVEN: LazyLock<LowTable> =
    LazyLock::new(|| LowTable(SizeTable::build(&HASH7, |c| rate_lo8(c).unwrap_or_default())));

/// The table of `rules`, built on first use.
#[inline]
pub fn hi_table(rules: HiRules) -> &'static HiTable {
    match rules {
        HiRules::Standard => &STANDARD,
        HiRules::ShortDeck => &SHORT_DECK,
        HiRules::Triton => &TRITON,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    #[test]
    fn stored_hashes_are_what_the_search_finds() {
        assert!(
            RANK_HASH_FILE[..] == rank_hash_file()[..],
            "data/rank_hash.bin is stale: cargo run --release --example gen_rank_hash"
        );
    }

    #[test]
    fn multiset_counts_and_distinct_keys() {
        for (size, count) in [(5, 6175), (6, 18395), (7, 49205)] {
            let sets = rank_multisets(size);
            assert_eq!(sets.len(), count);
            let mut keys: Vec<u32> = sets.iter().map(|c| lane_sum(c.bits())).collect();
            keys.sort_unstable();
            keys.dedup();
            assert_eq!(keys.len(), count, "base-5 keys collide for {size} cards");
            assert!(sets.iter().all(|c| c.len() == size as u32 && (0..4).all(|s| c.suit_mask(s).count_ones() < 5)));
        }
    }

    #[test]
    fn the_hash_is_perfect() {
        fn distinct<const B: usize, const S: usize>(t: &RankHash<B, S>, size: usize) {
            let sets = rank_multisets(size);
            let mut slots: Vec<usize> = sets.iter().map(|c| t.slot(lane_sum(c.bits()))).collect();
            slots.sort_unstable();
            slots.dedup();
            assert_eq!(slots.len(), sets.len(), "{size} cards");
        }
        distinct(&HASH5, 5);
        distinct(&HASH6, 6);
        distinct(&HASH7, 7);
    }

    #[test]
    fn seven_card_lows_agree_with_the_bit_evaluators() {
        let mut rng = Rng::new(4, 0);
        let cards: Vec<Card> = crate::cards::Deck::Standard.cards().to_vec();
        for _ in 0..200_000 {
            let mut set = CardSet::EMPTY;
            while set.len() < 7 {
                set.insert(cards[rng.below(52) as usize]);
            }
            let key = lane_sum(set.bits()) & !FLUSH_BIT;
            assert_eq!(RAZZ_SEVEN.rate_seven(key), rate_razz(set), "{set}");
            assert_eq!(LO8_SEVEN.rate_seven(key), rate_lo8(set).unwrap_or_default(), "{set}");
        }
    }

    #[test]
    fn agrees_with_the_bit_evaluator_on_random_hands() {
        let mut rng = Rng::new(3, 0);
        for rules in [HiRules::Standard, HiRules::ShortDeck, HiRules::Triton] {
            let deck = match rules {
                HiRules::Standard => crate::cards::Deck::Standard,
                _ => crate::cards::Deck::Short,
            };
            let cards: Vec<Card> = deck.cards().to_vec();
            for i in 0..300_000 {
                let n = 3 + i % 6;
                let mut set = CardSet::EMPTY;
                while set.len() < n as u32 {
                    set.insert(cards[rng.below(cards.len() as u64) as usize]);
                }
                assert_eq!(hi_table(rules).rate(set), rate_hi_bits(set, rules), "{set} under {rules:?}");
            }
        }
    }

    #[test]
    fn seven_card_ranks_order_hands_as_their_ratings() {
        // From card bytes: the rank's rating is the hand's, under each rules' deck (flushes
        // included), and ranks compare as ratings do.
        let mut rng = Rng::new(8, 0);
        for rules in [HiRules::Standard, HiRules::ShortDeck, HiRules::Triton] {
            let deck =
                if rules == HiRules::Standard { crate::cards::Deck::Standard } else { crate::cards::Deck::Short };
            let cards: Vec<Card> = deck.cards().to_vec();
            let table = hi_table(rules);
            let mut last: Option<(HiRank, HiRating)> = None;
            // About 3% of random hands hold a flush: thousands of each kind.
            for _ in 0..200_000 {
                let mut hand = [Card::from_index(0); 7];
                let mut set = CardSet::EMPTY;
                let mut n = 0;
                while n < 7 {
                    let c = cards[rng.below(cards.len() as u64) as usize];
                    if !set.contains(c) {
                        set.insert(c);
                        hand[n] = c;
                        n += 1;
                    }
                }
                let rank = table.rank_seven(&hand);
                let rating = rate_hi_bits(set, rules);
                assert_eq!(table.rating_of(rank), rating, "{set} under {rules:?}");
                if let Some((r, q)) = last {
                    assert_eq!(rank.cmp(&r), rating.cmp(&q), "{set} under {rules:?}");
                }
                last = Some((rank, rating));
            }
        }
    }

    #[test]
    fn orders_by_board_and_ratings_agree_with_the_tables() {
        // A hand's row by board, the order's rating and the flush table against rating the
        // seven cards directly, under each rules' deck.
        let mut rng = Rng::new(5, 0);
        for rules in [HiRules::Standard, HiRules::ShortDeck, HiRules::Triton] {
            let deck =
                if rules == HiRules::Standard { crate::cards::Deck::Standard } else { crate::cards::Deck::Short };
            let cards: Vec<Card> = deck.cards().to_vec();
            let table = hi_table(rules);
            let seven = table.seven_cards();
            let slots = BoardRankSlots::new();
            for _ in 0..300 {
                let mut hand = CardSet::EMPTY;
                while hand.len() < 2 {
                    hand.insert(cards[rng.below(cards.len() as u64) as usize]);
                }
                let row = seven.by_board(hand).unwrap();
                for _ in 0..100 {
                    let mut board = CardSet::EMPTY;
                    while board.len() < 5 {
                        let c = cards[rng.below(cards.len() as u64) as usize];
                        if !hand.contains(c) {
                            board.insert(c);
                        }
                    }
                    let all = hand.union(board);
                    let order = row[slots.slot(lane_sum(board.bits()) & !FLUSH_BIT)];
                    assert_eq!(order, seven.order(lane_sum(all.bits()) & !FLUSH_BIT));
                    let flush = (0..4u32).find(|&s| all.suit_mask(s as u8).count_ones() >= 5);
                    let rating = flush.map_or(seven.rating(order), |s| seven.rating(order).max(seven.flush(all, s)));
                    assert_eq!(rating, rate_hi_bits(all, rules), "{all} under {rules:?}");
                }
            }
        }
    }
}
