//! Small tables built at compile time, indexed by a 13-bit rank mask.

/// 1 + the top rank of the best straight in a rank mask (deuce = 0 ... ace = 12), 0 for none.
/// The standard table knows the A-2-3-4-5 wheel, the short-deck one the A-6-7-8-9 wheel.
pub static STRAIGHT_STANDARD: [u8; 8192] = straight_table(false);
pub static STRAIGHT_SHORT: [u8; 8192] = straight_table(true);

const fn straight_top(mask: u32, short: bool) -> u8 {
    let mut top = 12;
    while top >= 4 {
        let window = 0x1F << (top - 4);
        if mask & window == window {
            return top as u8 + 1;
        }
        top -= 1;
    }
    // The wheel ranks just below the lowest natural straight: five-high, or nine-high in short deck.
    if short {
        if mask & 0x10F0 == 0x10F0 {
            return 8;
        }
    } else if mask & 0x100F == 0x100F {
        return 4;
    }
    0
}

const fn straight_table(short: bool) -> [u8; 8192] {
    let mut t = [0u8; 8192];
    let mut m = 0;
    while m < 8192 {
        t[m] = straight_top(m as u32, short);
        m += 1;
    }
    t
}

/// The `n` highest set bits of `mask`.
#[inline]
pub const fn keep_top(mut mask: u32, n: u32) -> u32 {
    while mask.count_ones() > n {
        mask &= mask - 1;
    }
    mask
}

/// The `n` lowest set bits of `mask`.
#[inline]
pub const fn keep_low(mask: u32, n: u32) -> u32 {
    let mut out = 0;
    let mut m = mask;
    let mut k = 0;
    while k < n && m != 0 {
        let low = m & m.wrapping_neg();
        out |= low;
        m &= m - 1;
        k += 1;
    }
    out
}

/// Index of the highest set bit (`mask` must not be 0).
#[inline]
pub const fn top_bit(mask: u32) -> u32 {
    mask.ilog2()
}
