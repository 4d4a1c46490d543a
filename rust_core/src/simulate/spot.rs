//! A checked simulate statement made ready to run: every player's holdings with weights (the
//! range's `@` weights, reweighted by the observed actions), the known board in dealing order,
//! the dead cards and the betting state.

use super::strength::Strengths;
use super::triple::{triple, Situation, Thresholds};
use crate::cards::{Card, CardSet};
use crate::error::PqlError;
use crate::games::{Game, Street};
use crate::interrupt::Interrupt;
use crate::plan::compile::inside;
use crate::pql::simulate::street_of_board;
use crate::pql::typed::{Action, CheckedStatement, Observation, SimulateSpec};
use crate::range::{self, Macros};

/// No observation takes a weight below this share of its prior (docs/language/simulate.md).
pub const WEIGHT_FLOOR: f64 = 0.01;

/// One holding a player may have and its weight.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weighted {
    pub cards: CardSet,
    pub weight: f64,
}

/// An action seen at the table, by player name (the REPL's `.observe`).
#[derive(Clone, Debug, PartialEq)]
pub struct Observed {
    pub player: String,
    pub action: Action,
    pub street: Street,
}

#[derive(Clone, Debug)]
pub struct Spot {
    pub query: String,
    /// The statement's span in its program.
    pub span: crate::error::Span,
    pub game: Game,
    pub players: Vec<String>,
    /// Per seat, the holdings compatible with the board and dead cards (weight > 0).
    pub holdings: Vec<Vec<Weighted>>,
    /// The known board in dealing order (0, 3, 4 or 5 cards).
    pub board: Vec<Card>,
    pub street: Street,
    pub dead: CardSet,
    pub spec: SimulateSpec,
}

impl Spot {
    /// The thresholds of seat `p`.
    pub fn thresholds(&self, p: usize) -> Thresholds {
        Thresholds { call: self.spec.call_threshold[p], raise: self.spec.raise_threshold[p] }
    }

    /// The candidate actions, as written.
    pub fn actions(&self) -> Vec<Action> {
        self.spec.actions.iter().map(|(a, _)| *a).collect()
    }

    pub fn known(&self) -> CardSet {
        CardSet::from_cards(self.board.iter().copied()).union(self.dead)
    }
}

/// Builds the spot of a checked simulate statement: ranges read (named ranges included),
/// board and dead cards read, the players' weights reweighted by `history` and then by the
/// `observed` actions of the players it seats.
pub fn compile(st: &CheckedStatement, macros: &Macros, observed: &[Observed]) -> Result<Spot, Vec<PqlError>> {
    compile_stopping(st, macros, observed, &Interrupt::NONE)
}

/// As `compile`, stopping between two observations when `interrupt` says so.
pub fn compile_stopping(
    st: &CheckedStatement,
    macros: &Macros,
    observed: &[Observed],
    interrupt: &Interrupt,
) -> Result<Spot, Vec<PqlError>> {
    let mut spec = st.simulate.clone().expect("a simulate statement");
    for o in observed {
        if let Some(player) = st.players.iter().position(|p| p.name.eq_ignore_ascii_case(&o.player)) {
            spec.history.push(Observation { player, action: o.action, street: o.street, span: st.span });
        }
    }
    let game = st.game;
    let mut errors = Vec::new();
    let mut board = Vec::new();
    if let Some(lit) = st.board.as_ref().filter(|l| !l.text.trim().is_empty()) {
        match range::parse_board(&lit.text, game) {
            Ok(b) => match b.boards() {
                Some([one]) if !b.is_any() && street_of_board(one.len()).is_some() => board.clone_from(one),
                _ => errors.push(
                    PqlError::type_error("simulate needs the board's cards: 3, 4 or 5 named cards (or none)", lit.span)
                        .with_hint("e.g. board='Kd7c2h'"),
                ),
            },
            Err(e) => errors.push(inside(e, lit)),
        }
    }
    let mut dead = CardSet::EMPTY;
    if let Some(lit) = &st.dead {
        match range::parse_dead(&lit.text, game) {
            Ok(d) if d.choices.is_empty() => dead = d.fixed,
            Ok(_) => errors.push(PqlError::type_error("simulate needs dead cards named one by one", lit.span)),
            Err(e) => errors.push(inside(e, lit)),
        }
    }
    let known = CardSet::from_cards(board.iter().copied()).union(dead);
    let mut holdings = Vec::with_capacity(st.players.len());
    for player in &st.players {
        match range::parse_range_ordered(&player.range.text, game, st.syntax, st.ordering, macros) {
            Ok(r) => {
                let list: Vec<Weighted> = r
                    .flop_combos()
                    .iter()
                    .zip(r.weights())
                    .filter(|(cards, _)| !cards.overlaps(known))
                    .map(|(&cards, &w)| Weighted { cards, weight: f64::from(w) })
                    .collect();
                if list.is_empty() {
                    errors.push(PqlError::range(
                        format!("{}'s range has no hand left beside the board and dead cards", player.name),
                        player.range.span,
                    ));
                }
                holdings.push(list);
            }
            Err(e) => errors.push(inside(e, &player.range)),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let street = street_of_board(board.len()).expect("checked above");
    let mut spot = Spot {
        query: st.text.clone(),
        span: st.span,
        game,
        players: st.players.iter().map(|p| p.name.clone()).collect(),
        holdings,
        board,
        street,
        dead,
        spec,
    };
    let history = spot.spec.history.clone();
    // One cache for every observation: a strength depends on the hand and the street's board
    // only, so a history of thousands of actions rates each holding at most once a street.
    let mut strengths = Strengths::new(game);
    for o in &history {
        if let Err(why) = interrupt.check() {
            return Err(vec![why.error(st.span)]);
        }
        if o.street.cards_known() > spot.board.len() {
            return Err(vec![PqlError::type_error(
                format!("an action on the {} cannot be observed before the {} is dealt", o.street, o.street),
                o.span,
            )]);
        }
        reweight(&mut spot, o, &mut strengths);
        keep_representable(&mut spot.holdings[o.player]);
    }
    Ok(spot)
}

/// Loki-2's reweighting: every holding h of the observed player's range is multiplied by the
/// probability its triple gives the observed action, never going below `WEIGHT_FLOOR` of its
/// prior. The state of the observed action is taken as a bet faced (fold, call, raise) or none
/// (check, bet) on that street's board, against the players not folded, with no pot odds.
pub fn reweight(spot: &mut Spot, o: &Observation, strengths: &mut Strengths) {
    let board = CardSet::from_cards(spot.board.iter().take(o.street.cards_known()).copied());
    let opponents = spot.players.len() - spot.spec.folded.len() - 1;
    let th = spot.thresholds(o.player);
    for h in &mut spot.holdings[o.player] {
        let s = strengths.of(h.cards, board, opponents);
        let faced = !matches!(o.action, Action::Check | Action::Bet);
        let situation = Situation {
            ehs: s.effective(),
            win_chance: 0.0,
            to_call: if faced { 1.0 } else { 0.0 },
            pot: 0.0,
            bets_faced: u32::from(faced),
            called_this_round: false,
            capped: false,
        };
        let p = triple(th, &situation)[o.action.part()];
        h.weight = reweighted(h.weight, p);
    }
}

/// Weights scaled up once the largest falls below 1e-200: each observation may take a weight
/// to a hundredth, so a long history would round every weight to zero (and leave the player
/// no hand). A draw uses only their ratios, which stay.
fn keep_representable(list: &mut [Weighted]) {
    let max = list.iter().map(|h| h.weight).fold(0.0, f64::max);
    if max > 0.0 && max < 1e-200 {
        for h in list {
            h.weight /= max;
        }
    }
}

/// A weight after an action its holding takes with probability `p`.
pub fn reweighted(weight: f64, p: f64) -> f64 {
    (weight * p).max(weight * WEIGHT_FLOOR)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reweighting as docs/language/simulate.md says, by example: w = 0.90, PT = (0, 0.20, 0.80), the player called -> 0.18.
    #[test]
    fn the_worked_example() {
        assert!((reweighted(0.90, [0.0, 0.20, 0.80][Action::Call.part()]) - 0.18).abs() < 1e-12);
        // Never below a hundredth of the prior.
        assert!((reweighted(0.90, 0.0) - 0.009).abs() < 1e-12);
    }
}
