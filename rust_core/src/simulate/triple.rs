//! The probability triple (docs/language/simulate.md): how likely a simulated player is to fold, check or
//! call, and bet or raise, from its effective hand strength and the betting state.

/// Half-width δ of the linear bands around the thresholds.
pub const BAND: f64 = 0.05;

/// A player's thresholds: EHS' at the middle of the fold→call and call→raise bands.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Thresholds {
    pub call: f64,
    pub raise: f64,
}

/// What a player knows when it acts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Situation {
    /// EHS'.
    pub ehs: f64,
    /// The chance of winning that pot odds are judged by: PPOT on the flop and turn, `HSₙ` on
    /// the river and before the flop (the all-in equity there).
    pub win_chance: f64,
    /// Chips the player must put in to call (0: checking is free).
    pub to_call: f64,
    /// Chips in the pot before the player acts.
    pub pot: f64,
    /// Bets the player faces: what it owes in bets of this street.
    pub bets_faced: u32,
    /// Whether it has already put chips in voluntarily this round.
    pub called_this_round: bool,
    /// The round has its four bets: a raise can only be a call.
    pub capped: bool,
}

/// (fold, call, raise), summing to 1.
pub type Triple = [f64; 3];

/// 0 below `t − δ`, 1 above `t + δ`, linear between.
fn ramp(ehs: f64, t: f64) -> f64 {
    ((ehs - (t - BAND)) / (2.0 * BAND)).clamp(0.0, 1.0)
}

/// The triple of a player with `th` in situation `s`. The rules apply in docs/language/simulate.md's order:
/// bands, pot odds, two bets cold, free checks, the cap.
pub fn triple(th: Thresholds, s: &Situation) -> Triple {
    let stays = ramp(s.ehs, th.call);
    let raise = ramp(s.ehs, th.raise).min(stays);
    let (mut f, mut c, mut r) = (1.0 - stays, stays - raise, raise);
    // Pot odds: a hand that would fold calls when its winning chance pays for the call.
    if s.to_call > 0.0 && f > 0.0 && s.win_chance >= s.to_call / (s.pot + s.to_call) {
        c += f;
        f = 0.0;
    }
    // Two bets cold: below the raise band, fold.
    if s.bets_faced >= 2 && !s.called_this_round && s.ehs < th.raise - BAND {
        (f, c, r) = (1.0, 0.0, 0.0);
    }
    if s.to_call <= 0.0 {
        c += f;
        f = 0.0;
    }
    if s.capped {
        c += r;
        r = 0.0;
    }
    [f, c, r]
}

/// The part of the triple a uniform `u` in [0, 1) picks: 0 fold, 1 call, 2 raise.
pub fn pick(t: Triple, u: f64) -> usize {
    if u < t[0] {
        0
    } else if u < t[0] + t[1] {
        1
    } else {
        2
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEFAULT: Thresholds = Thresholds { call: 0.5, raise: 0.85 };

    fn facing_one_bet(ehs: f64, win_chance: f64) -> Situation {
        Situation { ehs, win_chance, to_call: 2.0, pot: 4.0, bets_faced: 1, called_this_round: false, capped: false }
    }

    fn close(a: Triple, b: Triple) -> bool {
        a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-12)
    }

    /// The bands of docs/language/simulate.md: EHS' 0.50 calls with half the mass, 0.90 always raises.
    #[test]
    fn bands_split_the_mass_linearly() {
        assert!(close(triple(DEFAULT, &facing_one_bet(0.50, 0.0)), [0.5, 0.5, 0.0]));
        assert!(close(triple(DEFAULT, &facing_one_bet(0.90, 0.0)), [0.0, 0.0, 1.0]));
        assert!(close(triple(DEFAULT, &facing_one_bet(0.85, 0.0)), [0.0, 0.5, 0.5]));
        assert!(close(triple(DEFAULT, &facing_one_bet(0.70, 0.0)), [0.0, 1.0, 0.0]));
        assert!(close(triple(DEFAULT, &facing_one_bet(0.30, 0.0)), [1.0, 0.0, 0.0]));
        assert!(close(triple(DEFAULT, &facing_one_bet(0.47, 0.0)), [0.8, 0.2, 0.0]));
    }

    #[test]
    fn pot_odds_turn_folds_into_calls() {
        // 2 to win 6: a third of the pot; a 0.34 chance pays, 0.33 does not.
        assert!(close(triple(DEFAULT, &facing_one_bet(0.2, 0.34)), [0.0, 1.0, 0.0]));
        assert!(close(triple(DEFAULT, &facing_one_bet(0.2, 0.33)), [1.0, 0.0, 0.0]));
    }

    #[test]
    fn two_bets_cold_fold_below_the_raise_band() {
        let mut s = facing_one_bet(0.7, 0.9);
        s.bets_faced = 2;
        s.to_call = 4.0;
        assert!(close(triple(DEFAULT, &s), [1.0, 0.0, 0.0]));
        s.called_this_round = true;
        assert!(close(triple(DEFAULT, &s), [0.0, 1.0, 0.0]));
        s.called_this_round = false;
        s.ehs = 0.85;
        assert!(close(triple(DEFAULT, &s), [0.0, 0.5, 0.5]));
    }

    #[test]
    fn checking_is_free_and_a_capped_raise_calls() {
        let mut s = facing_one_bet(0.3, 0.0);
        s.to_call = 0.0;
        s.bets_faced = 0;
        assert!(close(triple(DEFAULT, &s), [0.0, 1.0, 0.0]));
        let mut s = facing_one_bet(0.95, 0.0);
        s.capped = true;
        assert!(close(triple(DEFAULT, &s), [0.0, 1.0, 0.0]));
    }

    #[test]
    fn pick_follows_the_mass() {
        let t = [0.2, 0.5, 0.3];
        assert_eq!(pick(t, 0.0), 0);
        assert_eq!(pick(t, 0.19), 0);
        assert_eq!(pick(t, 0.2), 1);
        assert_eq!(pick(t, 0.69), 1);
        assert_eq!(pick(t, 0.7), 2);
    }
}
