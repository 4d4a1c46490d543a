//! The `k`-th card of a set (its `k`-th lowest set bit): how a Monte Carlo draw turns a uniform
//! index below the number of cards left into a card, with no rejection.
//!
//! Two ways, the same card from both: BMI2's `pdep` (one instruction where it is fast), and a
//! count of bytes for every other processor. A draw is generic over the way, so a seed deals the
//! same cards on every machine.

/// A way to find the `k`-th lowest card of a set.
// Always inlined, each way: a draw's loop must compile `pdep` in place (a call per card would cost
// more than the card).
pub trait NthCard: Copy {
    /// The bit of the `k`-th lowest card of `set` (`k` below the number of cards in it).
    fn nth(self, set: u64, k: u32) -> u64;
}

/// The `k`-th card by counting: each byte's cards, their running sums, the byte the card is in,
/// then that byte's cards from a table. No branch, about twenty instructions.
#[derive(Clone, Copy, Debug, Default)]
pub struct ByCount;

impl NthCard for ByCount {
    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn nth(self, set: u64, k: u32) -> u64 {
        const ONES: u64 = 0x0101_0101_0101_0101;
        const HIGHS: u64 = 0x8080_8080_8080_8080;
        let mut counts = set - ((set >> 1) & 0x5555_5555_5555_5555);
        counts = (counts & 0x3333_3333_3333_3333) + ((counts >> 2) & 0x3333_3333_3333_3333);
        counts = (counts + (counts >> 4)) & 0x0F0F_0F0F_0F0F_0F0F;
        // Byte i: the cards in bytes 0..=i (at most 64, so no byte carries into the next).
        let sums = counts.wrapping_mul(ONES);
        // The high bit of each byte whose running sum is at most k: the card lies past it.
        let past = (((u64::from(k) * ONES) | HIGHS) - sums) & HIGHS;
        let byte = ((past >> 7).wrapping_mul(ONES) >> 56) as u32;
        let before = ((sums << 8) >> (8 * byte)) & 0xFF;
        let bits = (set >> (8 * byte)) & 0xFF;
        let within = NTH_IN_BYTE[(bits as usize) << 3 | (k as usize - before as usize) & 7];
        1 << (8 * byte + u32::from(within))
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
    #[allow(clippy::inline_always)]
    #[inline(always)]
    fn nth(self, set: u64, k: u32) -> u64 {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a `Pdep` exists only where the processor has BMI2 (`Pdep::detect`).
        unsafe {
            std::arch::x86_64::_pdep_u64(1 << k, set)
        }
        #[cfg(not(target_arch = "x86_64"))]
        ByCount.nth(set, k)
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

    fn nth_by_loop(mut set: u64, k: u32) -> u64 {
        for _ in 0..k {
            set &= set - 1;
        }
        set & set.wrapping_neg()
    }

    #[test]
    fn every_way_finds_the_kth_lowest_card() {
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
                assert_eq!(ByCount.nth(set, k), want, "{set:#x} {k}");
                if let Some(p) = pdep {
                    assert_eq!(p.nth(set, k), want, "{set:#x} {k}");
                }
            }
        }
        assert_eq!(ByCount.nth(u64::MAX, 63), 1 << 63);
        assert_eq!(ByCount.nth(1 << 63, 0), 1 << 63);
    }
}
