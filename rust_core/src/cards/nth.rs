//! The `k`-th card of a set (its `k`-th lowest set bit): how a Monte Carlo draw turns a uniform
//! index below the number of cards left into a card, with no rejection, card after card.
//!
//! Two ways, the same card from both: BMI2's `pdep` (one instruction where it is fast), and a
//! count of bytes for every other processor. A draw is generic over the way, so a seed deals the
//! same cards on every machine.

/// A way to take the `k`-th lowest card of a set, card after card.
// Always inlined, each way: a draw's loop must compile `pdep` in place (a call per card would cost
// more than the card).
pub trait NthCard: Copy {
    /// The cards left, in the form this way takes them from.
    type Left: Copy;
    /// `set` as cards left to take from.
    fn left(self, set: u64) -> Self::Left;
    /// Takes the `k`-th lowest card of `left` (`k` below the number of cards in it) out of it,
    /// and gives its bit index (the card's index).
    fn take(self, left: &mut Self::Left, k: u32) -> u32;
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// The `k`-th card by counting: the cards left hold, beside the set, the running sums of its
/// bytes' cards (counted once, then one subtraction a card taken); a card's byte is where the
/// sums pass `k`, its place in the byte a table read. No branch, about thirty instructions a
/// card (against about seven by `pdep`).
#[derive(Clone, Copy, Debug, Default)]
pub struct ByCount;

/// Cards left for [`ByCount`]: the set, and in byte `i` of `sums` the number of its cards in
/// bytes `0..=i` (at most 64, so no byte carries into the next).
#[derive(Clone, Copy, Debug)]
pub struct Counted {
    set: u64,
    sums: u64,
}

impl NthCard for ByCount {
    type Left = Counted;

    #[inline]
    fn left(self, set: u64) -> Counted {
        let mut counts = set - ((set >> 1) & 0x5555_5555_5555_5555);
        counts = (counts & 0x3333_3333_3333_3333) + ((counts >> 2) & 0x3333_3333_3333_3333);
        counts = (counts + (counts >> 4)) & 0x0F0F_0F0F_0F0F_0F0F;
        Counted { set, sums: counts.wrapping_mul(ONES) }
    }

    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn take(self, left: &mut Counted, k: u32) -> u32 {
        let Counted { set, sums } = *left;
        // The high bit of each byte whose running sum is at most k: the card lies past it.
        let past = (((u64::from(k) * ONES) | HIGHS) - sums) & HIGHS;
        let byte = ((past >> 7).wrapping_mul(ONES) >> 56) as u32;
        let before = ((sums << 8) >> (8 * byte)) & 0xFF;
        let bits = (set >> (8 * byte)) & 0xFF;
        let within = NTH_IN_BYTE[(bits as usize) << 3 | (k as usize - before as usize) & 7];
        let index = 8 * byte + u32::from(within);
        // One card fewer in this byte's running sum and every one after it.
        *left = Counted { set: set ^ 1 << index, sums: sums - (ONES << (8 * byte)) };
        index
    }
}

/// The `k`-th card by BMI2's `pdep`. Made only by [`Pdep::detect`], on a processor that has the
/// instruction and does it in one step: a caller holding one may call code compiled for BMI1 and
/// BMI2 (`#[target_feature(enable = "bmi1,bmi2")]`), where `pdep` is inlined.
#[derive(Clone, Copy, Debug)]
pub struct Pdep(());

impl Pdep {
    /// `Some` where `pdep` is there and fast (and BMI1 with it). AMD's processors before Zen 3
    /// (and Hygon's, built on Zen 1) have it in microcode, a step per bit, slower than counting.
    pub fn detect() -> Option<Pdep> {
        #[cfg(target_arch = "x86_64")]
        {
            use std::sync::OnceLock;
            static FAST: OnceLock<bool> = OnceLock::new();
            let fast = *FAST.get_or_init(|| {
                use std::arch::x86_64::__cpuid;
                if !(std::arch::is_x86_feature_detected!("bmi1") && std::arch::is_x86_feature_detected!("bmi2")) {
                    return false;
                }
                let vendor = __cpuid(0);
                // "AuthenticAMD" and "HygonGenuine", as cpuid spells them in three registers.
                let vendor = (vendor.ebx, vendor.edx, vendor.ecx);
                let amd = vendor == (0x6874_7541, 0x6974_6E65, 0x444D_4163);
                let hygon = vendor == (0x6F67_7948, 0x6E65_476E, 0x656E_6975);
                let signature = __cpuid(1).eax;
                let family = (signature >> 8 & 0xF) + (signature >> 20 & 0xFF);
                !hygon && (!amd || family >= 0x19)
            });
            fast.then_some(Pdep(()))
        }
        #[cfg(not(target_arch = "x86_64"))]
        None
    }
}

#[allow(unsafe_code)]
impl NthCard for Pdep {
    type Left = u64;

    #[inline]
    fn left(self, set: u64) -> u64 {
        set
    }

    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn take(self, left: &mut u64, k: u32) -> u32 {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a `Pdep` exists only where the processor has BMI2 (`Pdep::detect`).
        let bit = unsafe { std::arch::x86_64::_pdep_u64(1 << k, *left) };
        #[cfg(not(target_arch = "x86_64"))]
        let bit = 1 << ByCount.take(&mut ByCount.left(*left), k);
        *left ^= bit;
        bit.trailing_zeros()
    }
}

/// For each byte and k below 8, the position of the byte's k-th set bit (0 where it has fewer).
static NTH_IN_BYTE: [u8; 2048] = {
    let mut table = [0u8; 2048];
    let mut byte = 0;
    while byte < 256 {
        let (mut k, mut bit) = (0, 0);
        while bit < 8 {
            if byte >> bit & 1 == 1 {
                table[byte << 3 | k] = bit as u8;
                k += 1;
            }
            bit += 1;
        }
        byte += 1;
    }
    table
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::WyRand;

    fn nth_by_loop(mut set: u64, k: u32) -> u32 {
        for _ in 0..k {
            set &= set - 1;
        }
        set.trailing_zeros()
    }

    #[test]
    fn every_way_takes_the_kth_lowest_card() {
        let mut rng = WyRand::new(7);
        let pdep = Pdep::detect();
        for round in 0..20_000 {
            // Sparse and dense sets, and the four 13-card suits of a deck.
            let set = match round % 3 {
                0 => rng.next_u64() & rng.next_u64(),
                1 => rng.next_u64() | rng.next_u64(),
                _ => rng.next_u64() & 0x1FFF_1FFF_1FFF_1FFF,
            };
            if set == 0 {
                continue;
            }
            for k in 0..set.count_ones() {
                let want = nth_by_loop(set, k);
                assert_eq!(ByCount.take(&mut ByCount.left(set), k), want, "{set:#x} {k}");
                if let Some(p) = pdep {
                    assert_eq!(p.take(&mut p.left(set), k), want, "{set:#x} {k}");
                }
            }
            // Card after card from the same cards left, as a draw takes them.
            let (mut counted, mut plain, mut left) = (ByCount.left(set), set, set);
            while left != 0 {
                let k = (rng.next_u64() % u64::from(left.count_ones())) as u32;
                let want = nth_by_loop(left, k);
                left ^= 1 << want;
                assert_eq!(ByCount.take(&mut counted, k), want, "{set:#x} {k}");
                if let Some(p) = pdep {
                    assert_eq!(p.take(&mut plain, k), want, "{set:#x} {k}");
                }
            }
        }
        assert_eq!(ByCount.take(&mut ByCount.left(u64::MAX), 63), 63);
        assert_eq!(ByCount.take(&mut ByCount.left(1 << 63), 0), 63);
    }
}
