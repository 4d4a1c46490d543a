//! The checks of a `simulate` statement's settings (docs/language/simulate.md): the betting state's numbers,
//! the candidate actions legal in it, the players named by `to_act`, `folded` and `history`,
//! and the probability-triple thresholds. Players, game, board and dead cards are the select
//! statement's and are checked by `checker`.

use super::ast::{FromItem, Ident, NumLit, StrLit};
use super::typed::{Action, Choice, Observation, PlayerDecl, SimulateSpec, StopRule};
use super::vocab::{ACTIONS, PLAYER_SETTINGS, RESERVED_KEYS, SIMULATE_KEYS};
use crate::error::{did_you_mean, excerpt, PqlError, Span};
use crate::games::{Game, Street};

/// The thresholds of docs/language/simulate.md when the statement does not set them.
pub const DEFAULT_CALL_THRESHOLD: f64 = 0.50;
pub const DEFAULT_RAISE_THRESHOLD: f64 = 0.85;
/// Fixed limit caps a round at four bets: a bet and three raises.
pub const MAX_RAISES: u32 = 3;

/// Whether a from item is a simulate setting rather than a player, game, board or dead cards.
pub fn is_setting(item: &FromItem) -> bool {
    item.number.is_some()
        || item.key.name.contains('.')
        || SIMULATE_KEYS.iter().any(|k| k.eq_ignore_ascii_case(&item.key.name))
}

/// The street a board of `len` known cards stands on (hold'em-like games).
pub fn street_of_board(len: usize) -> Option<Street> {
    match len {
        0 => Some(Street::Preflop),
        3 => Some(Street::Flop),
        4 => Some(Street::Turn),
        5 => Some(Street::River),
        _ => None,
    }
}

struct Check<'a> {
    players: &'a [PlayerDecl],
    errors: Vec<PqlError>,
}

/// Checks the settings of a simulate statement whose players are `players` (seat order).
/// `game_span`: where the game is named (for the error when it cannot be simulated).
pub fn check(
    statement: Span,
    actions: &[Ident],
    settings: &[&FromItem],
    players: &[PlayerDecl],
    game: (Game, Option<Span>),
) -> Result<SimulateSpec, Vec<PqlError>> {
    let mut c = Check { players, errors: Vec::new() };
    if !matches!(game.0, Game::Holdem | Game::ShortDeck | Game::ShortDeckTriton) {
        c.errors.push(
            PqlError::type_error(
                format!("simulate plays hold'em and short deck only, not {}", game.0.title()),
                game.1.unwrap_or(statement),
            )
            .with_hint("game='holdem' or game='shortdeck'"),
        );
    }
    // A player whose name is close to a setting is a misspelt setting (`histroy='...'`).
    for p in players {
        if let Some(k) = did_you_mean(&p.name, SIMULATE_KEYS.iter().copied()) {
            if !RESERVED_KEYS.contains(&k) {
                c.errors.push(PqlError::type_error(
                    format!("unknown key '{}' — did you mean '{k}'?", excerpt(&p.name)),
                    p.key_span,
                ));
            }
        }
    }
    let find = |name: &str| settings.iter().copied().find(|i| i.key.name.eq_ignore_ascii_case(name));
    let pot = c.amount(find("pot"), "pot", statement, true);
    let tocall = c.amount(find("tocall"), "tocall", statement, true);
    let bet = c.amount(find("bet"), "bet", statement, true);
    if let (Some(p), Some(t), Some(item)) = (pot, tocall, find("tocall")) {
        // The pot holds every bet so far, the one to call included.
        if t > p {
            let span = item.number.as_ref().map_or(item.span, |n| n.span);
            c.errors.push(
                PqlError::type_error(
                    format!("tocall ({t}) is more than the pot ({p}), which holds every bet so far, the one to call included"),
                    span,
                )
                .with_hint("e.g. pot=10, tocall=2: a bet of 2 into a pot of 8"),
            );
        }
    }
    if let (Some(b), Some(item)) = (bet, find("bet")) {
        if b == 0.0 {
            c.errors.push(PqlError::type_error("the bet (the small bet) must be more than 0", item.span));
        }
    }
    let raises = match find("raises") {
        None => 0,
        Some(item) => match &item.number {
            Some(n) if n.value.fract() == 0.0 && (0.0..=f64::from(MAX_RAISES)).contains(&n.value) => n.value as u32,
            Some(n) => {
                c.errors.push(
                    PqlError::type_error(
                        format!("raises must be a whole number from 0 to {MAX_RAISES}, not {}", n.value),
                        n.span,
                    )
                    .with_hint("fixed limit caps a round at four bets: a bet and three raises"),
                );
                0
            }
            None => {
                c.needs_number(item, "raises");
                0
            }
        },
    };
    if let Some(item) = find("stakes") {
        match &item.value {
            Some(v) if v.text.trim().eq_ignore_ascii_case("limit") => {}
            Some(v) => c.errors.push(
                PqlError::type_error(format!("stakes '{}' cannot be simulated yet", excerpt(&v.text)), v.content)
                    .with_hint("stakes='limit' (fixed limit) is the mode simulate plays"),
            ),
            None => c.needs_string(item, "stakes"),
        }
    }
    let stop = c.word(
        find("stop"),
        "stop",
        &[("paired", StopRule::Paired), ("loki", StopRule::Loki), ("none", StopRule::Never)],
    );
    let choose = c.word(find("choose"), "choose", &[("best", Choice::Best), ("mixed", Choice::Mixed)]);
    let hero = players.iter().position(|p| p.name.eq_ignore_ascii_case("hero")).unwrap_or(0);
    let folded = find("folded").map_or_else(Vec::new, |item| c.player_list(item, "folded", hero));
    let to_act = find("to_act").map(|item| c.player_list(item, "to_act", hero));
    if let Some(list) = &to_act {
        for &seat in list {
            if folded.contains(&seat) {
                let item = find("to_act").expect("to_act was given");
                c.errors.push(PqlError::type_error(
                    format!("'{}' has folded and cannot be to act", players[seat].name),
                    item.span,
                ));
            }
        }
    }
    if !players.is_empty() && players.len() - folded.len() < 2 {
        c.errors.push(PqlError::type_error(
            "simulate needs the hero and at least one opponent still in the hand",
            statement,
        ));
    }
    let history = find("history").map_or_else(Vec::new, |item| c.history(item));
    let mut call_threshold = vec![DEFAULT_CALL_THRESHOLD; players.len()];
    let mut raise_threshold = vec![DEFAULT_RAISE_THRESHOLD; players.len()];
    c.thresholds(settings, &mut call_threshold, &mut raise_threshold);
    for item in settings {
        let key = item.key.name.to_ascii_lowercase();
        if key.contains('.') || SIMULATE_KEYS.contains(&key.as_str()) {
            continue;
        }
        // A number given to a key that is not a setting.
        let known = SIMULATE_KEYS.iter().copied();
        let message = match did_you_mean(&item.key.name, known) {
            Some(k) => format!("unknown key '{}' — did you mean '{k}'?", excerpt(&item.key.name)),
            None if RESERVED_KEYS.contains(&key.as_str()) => {
                format!("the value of '{}' must be quoted", excerpt(&item.key.name))
            }
            None => format!("unknown key '{}' (a player's range is a quoted string)", excerpt(&item.key.name)),
        };
        c.errors.push(
            PqlError::type_error(message, item.key.span)
                .with_hint(format!("simulate's keys: {}", SIMULATE_KEYS.join(", "))),
        );
    }
    let tocall_value = tocall.unwrap_or(0.0);
    let checked_actions = c.actions(actions, tocall_value, raises, statement);
    if tocall_value == 0.0 && raises > 0 {
        if let Some(item) = find("raises") {
            c.errors.push(PqlError::type_error(
                "raises were made this round but there is nothing to call: give tocall",
                item.span,
            ));
        }
    }
    if !c.errors.is_empty() {
        return Err(c.errors);
    }
    Ok(SimulateSpec {
        actions: checked_actions,
        hero,
        pot: pot.unwrap_or(0.0),
        tocall: tocall_value,
        bet: bet.unwrap_or(1.0),
        raises,
        to_act,
        folded,
        history,
        call_threshold,
        raise_threshold,
        stop: stop.unwrap_or_default(),
        choose: choose.unwrap_or_default(),
    })
}

impl Check<'_> {
    fn error(&mut self, message: impl Into<String>, span: Span) {
        self.errors.push(PqlError::type_error(message, span));
    }

    fn needs_number(&mut self, item: &FromItem, key: &str) {
        let span = item.value.as_ref().map_or(item.span, |v| v.span);
        self.errors.push(
            PqlError::type_error(format!("{key} must be a number, written without quotes"), span)
                .with_hint(format!("e.g. {key}=2")),
        );
    }

    fn needs_string(&mut self, item: &FromItem, key: &str) {
        self.error(format!("the value of '{key}' must be quoted"), item.span);
    }

    /// A required or optional amount of chips: a number, not negative.
    fn amount(&mut self, item: Option<&FromItem>, key: &str, statement: Span, required: bool) -> Option<f64> {
        let Some(item) = item else {
            if required {
                self.errors.push(
                    PqlError::type_error(format!("simulate needs {key}= in the from clause"), statement).with_hint(
                        "the betting state: pot (chips in the pot), tocall (chips to call), bet (the small bet), \
                         e.g. pot=10, tocall=2, bet=2",
                    ),
                );
            }
            return None;
        };
        match &item.number {
            Some(NumLit { value, span }) if *value < 0.0 => {
                self.error(format!("{key} must not be negative, found {value}"), *span);
                None
            }
            Some(n) => Some(n.value),
            None => {
                self.needs_number(item, key);
                None
            }
        }
    }

    /// A quoted word of `choices` (`stop='loki'`), case aside; None when not given or wrong.
    fn word<T: Copy>(&mut self, item: Option<&FromItem>, key: &str, choices: &[(&str, T)]) -> Option<T> {
        let item = item?;
        let Some(v) = &item.value else {
            self.needs_string(item, key);
            return None;
        };
        let found = choices.iter().find(|(w, _)| w.eq_ignore_ascii_case(v.text.trim())).map(|&(_, t)| t);
        if found.is_none() {
            let words: Vec<String> = choices.iter().map(|(w, _)| format!("'{w}'")).collect();
            self.errors.push(
                PqlError::type_error(
                    format!("{key} '{}' is not one of {}", excerpt(&v.text), words.join(", ")),
                    v.content,
                )
                .with_hint(format!("{key}={}", words[0])),
            );
        }
        found
    }

    fn seat(&self, name: &str) -> Option<usize> {
        self.players.iter().position(|p| p.name.eq_ignore_ascii_case(name))
    }

    /// A quoted list of player names other than the hero (`folded='v2, v3'`).
    fn player_list(&mut self, item: &FromItem, key: &str, hero: usize) -> Vec<usize> {
        let Some(v) = &item.value else {
            self.needs_string(item, key);
            return Vec::new();
        };
        let mut seats = Vec::new();
        for (name, span) in words(v, ',') {
            match self.seat(name) {
                Some(s) if s == hero => self.error(format!("{key} cannot name the hero"), span),
                Some(s) if seats.contains(&s) => self.error(format!("'{name}' is named twice in {key}"), span),
                Some(s) => seats.push(s),
                None => self.unknown_player(name, span),
            }
        }
        seats
    }

    fn unknown_player(&mut self, name: &str, span: Span) {
        let names: Vec<&str> = self.players.iter().map(|p| p.name.as_str()).collect();
        let message = match did_you_mean(name, names.iter().copied()) {
            Some(m) => format!("unknown player '{}' — did you mean '{m}'?", excerpt(name)),
            None => format!("unknown player '{}'", excerpt(name)),
        };
        self.errors.push(PqlError::type_error(message, span).with_hint(format!("players: {}", names.join(", "))));
    }

    /// `history='villain:raise@flop, villain:call@turn'`.
    fn history(&mut self, item: &FromItem) -> Vec<Observation> {
        let Some(v) = &item.value else {
            self.needs_string(item, "history");
            return Vec::new();
        };
        let mut out = Vec::new();
        for (entry, span) in words(v, ',') {
            let hint = "each entry is player:action@street, e.g. villain:raise@flop";
            let Some((who, rest)) = entry.split_once(':') else {
                self.errors.push(
                    PqlError::type_error(format!("expected player:action@street, found '{}'", excerpt(entry)), span)
                        .with_hint(hint),
                );
                continue;
            };
            let Some((action, street)) = rest.split_once('@') else {
                self.errors.push(
                    PqlError::type_error(format!("expected '@street' after the action in '{}'", excerpt(entry)), span)
                        .with_hint(hint),
                );
                continue;
            };
            let (who, action, street) = (who.trim(), action.trim(), street.trim());
            let Some(player) = self.seat(who) else {
                self.unknown_player(who, span);
                continue;
            };
            let Some(action) = parse_action(action) else {
                self.error(format!("unknown action '{}': {}", excerpt(action), ACTIONS.join(", ")), span);
                continue;
            };
            let Some(street) = Street::from_name(street).filter(|s| !s.is_stud()) else {
                self.error(format!("unknown street '{}': preflop, flop, turn or river", excerpt(street)), span);
                continue;
            };
            out.push(Observation { player, action, street, span });
        }
        out
    }

    /// `call_threshold=0.5`, `raise_threshold=0.85` for everyone, `villain.raise_threshold=0.8`
    /// for one player (the per-player value wins).
    fn thresholds(&mut self, settings: &[&FromItem], call: &mut [f64], raise: &mut [f64]) {
        for pass in [false, true] {
            for item in settings {
                let key = item.key.name.to_ascii_lowercase();
                let (player, setting) = match key.split_once('.') {
                    Some((p, s)) => (Some(p), s),
                    None => (None, key.as_str()),
                };
                if player.is_some() != pass {
                    continue;
                }
                if player.is_none() && !PLAYER_SETTINGS.contains(&setting) {
                    continue;
                }
                let seats: Vec<usize> = if let Some(p) = player {
                    if let Some(s) = self.seat(p) {
                        vec![s]
                    } else {
                        let span = Span::new(item.key.span.start, item.key.span.start + p.len());
                        self.unknown_player(p, span);
                        continue;
                    }
                } else {
                    (0..call.len()).collect()
                };
                if !PLAYER_SETTINGS.contains(&setting) {
                    let suggestion = did_you_mean(setting, PLAYER_SETTINGS.iter().copied())
                        .map_or_else(String::new, |s| format!(" — did you mean '{s}'?"));
                    self.errors.push(
                        PqlError::type_error(format!("unknown player setting '{setting}'{suggestion}"), item.key.span)
                            .with_hint(format!("a player's settings: {}", PLAYER_SETTINGS.join(", "))),
                    );
                    continue;
                }
                let Some(n) = &item.number else {
                    self.needs_number(item, &item.key.name);
                    continue;
                };
                if !(0.0..=1.0).contains(&n.value) {
                    self.error(format!("{} must be between 0 and 1, found {}", item.key.name, n.value), n.span);
                    continue;
                }
                let target: &mut [f64] = if setting == "call_threshold" { call } else { raise };
                for s in seats {
                    target[s] = n.value;
                }
            }
        }
        for (i, (c, r)) in call.iter().zip(raise.iter()).enumerate() {
            if c > r {
                let name = self.players.get(i).map_or("", |p| p.name.as_str()).to_string();
                let span = settings
                    .iter()
                    .find(|s| s.key.name.to_ascii_lowercase().ends_with("threshold"))
                    .map_or(Span::new(0, 0), |s| s.span);
                self.error(format!("{name}'s call threshold {c} is above its raise threshold {r}"), span);
                break;
            }
        }
    }

    /// The candidate actions: known, not repeated, legal in the state.
    fn actions(&mut self, actions: &[Ident], tocall: f64, raises: u32, statement: Span) -> Vec<(Action, Span)> {
        let mut out: Vec<(Action, Span)> = Vec::new();
        for ident in actions {
            let Some(action) = parse_action(&ident.name) else {
                let message = match did_you_mean(&ident.name, ACTIONS.iter().copied()) {
                    Some(m) => format!("unknown action '{}' — did you mean '{m}'?", excerpt(&ident.name)),
                    None => format!("unknown action '{}'", excerpt(&ident.name)),
                };
                self.errors.push(
                    PqlError::type_error(message, ident.span).with_hint(format!("actions: {}", ACTIONS.join(", "))),
                );
                continue;
            };
            if out.iter().any(|(a, _)| *a == action) {
                self.error(format!("'{}' is listed twice", action.name()), ident.span);
                continue;
            }
            let illegal = match action {
                Action::Fold => None,
                Action::Check if tocall > 0.0 => {
                    Some(format!("cannot check: there is {tocall} to call (call, raise or fold)"))
                }
                Action::Call if tocall == 0.0 => {
                    Some("cannot call: there is nothing to call (check or bet)".to_string())
                }
                Action::Bet if tocall > 0.0 => Some("cannot bet: there is a bet already (raise it)".to_string()),
                Action::Raise if tocall == 0.0 => Some("cannot raise: there is no bet to raise (bet)".to_string()),
                Action::Raise if raises >= MAX_RAISES => {
                    Some(format!("cannot raise: the round is capped ({raises} raises made, four bets a round)"))
                }
                _ => None,
            };
            if let Some(message) = illegal {
                self.errors.push(
                    PqlError::type_error(message, ident.span).with_hint("list only the actions legal in the state"),
                );
                continue;
            }
            out.push((action, ident.span));
        }
        if actions.is_empty() {
            self.error("simulate needs at least one action", statement);
        }
        out
    }
}

fn parse_action(word: &str) -> Option<Action> {
    Action::from_name(word.trim())
}

/// The `sep`-separated, trimmed, non-empty parts of a string literal with their spans in the query.
fn words(v: &StrLit, sep: char) -> Vec<(&str, Span)> {
    let mut out = Vec::new();
    let mut offset = 0;
    for part in v.text.split(sep) {
        let trimmed = part.trim();
        if !trimmed.is_empty() {
            let lead = part.len() - part.trim_start().len();
            let start = v.content.start + offset + lead;
            out.push((trimmed, Span::new(start, start + trimmed.len())));
        }
        offset += part.len() + sep.len_utf8();
    }
    out
}
