//! The catalogue table: every built-in with its signature, the games it applies to, a one-line
//! doc and a complete example query (docs/reference/functions.md is made from it).

use super::types::Type;
use super::Func;
use crate::games::Game;

/// One parameter of a built-in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Param {
    pub name: &'static str,
    pub ty: Type,
}

/// Which games a function makes sense in; the checker rejects it elsewhere.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Applicability {
    /// Every game.
    All,
    /// Games with a hi half (everything but razz).
    Hi,
    /// Games with a hi half on a 52-card deck: the standard hand order (not short deck, not razz).
    StandardHi,
    /// Games with a low: omaha8, omaha85, stud8, razz.
    Lo,
    /// Board games with a low: omaha8, omaha85 (the board's low cards, the nut low).
    FlopLo,
    /// Board games: hold'em, short deck, the Omahas.
    FlopGames,
    /// Hold'em and short deck only (two hole cards).
    Holdem,
    /// Stud, stud8, razz.
    Stud,
}

impl Applicability {
    pub fn allows(self, game: Game) -> bool {
        match self {
            Applicability::All => true,
            Applicability::Hi => game.has_hi(),
            Applicability::StandardHi => game.has_hi() && game.deck() == crate::cards::Deck::Standard,
            Applicability::Lo => game.has_lo(),
            Applicability::FlopLo => game.has_lo() && !game.is_stud(),
            Applicability::FlopGames => !game.is_stud(),
            Applicability::Holdem => !game.is_stud() && !game.is_omaha(),
            Applicability::Stud => game.is_stud(),
        }
    }

    /// The games allowed, in `Game::ALL` order.
    pub fn games(self) -> impl Iterator<Item = Game> {
        Game::ALL.into_iter().filter(move |g| self.allows(*g))
    }

    /// Words for an error message: "games with a low", "stud games", ...
    pub fn describe(self) -> &'static str {
        match self {
            Applicability::All => "every game",
            Applicability::Hi => "games with a hi half (not razz)",
            Applicability::StandardHi => "games ranking hi hands on a 52-card deck (not short deck, not razz)",
            Applicability::Lo => "games with a low (omaha8, omaha85, stud8, razz)",
            Applicability::FlopLo => "board games with a low (omaha8, omaha85)",
            Applicability::FlopGames => "board games (hold'em, short deck, Omaha)",
            Applicability::Holdem => "hold'em and short deck",
            Applicability::Stud => "stud games (studhi, stud8, razz)",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// One of the original PQL's 78 functions.
    Original,
    /// A pql extension (docs/analysis.md).
    Ext,
}

impl Origin {
    pub fn name(self) -> &'static str {
        match self {
            Origin::Original => "original",
            Origin::Ext => "ext",
        }
    }
}

#[derive(Clone, Copy, Debug)]
pub struct FunctionDef {
    pub func: Func,
    /// The canonical spelling (`riverEquity`, `HvHEquity`).
    pub name: &'static str,
    pub params: &'static [Param],
    pub returns: Type,
    pub applies: Applicability,
    pub origin: Origin,
    /// One line.
    pub doc: &'static str,
    /// A complete query using the function.
    pub example: &'static str,
}

impl FunctionDef {
    /// Whether argument `i` accepts a value of any type. Only `toString`'s argument does; its
    /// declared type stays `Type::String` because the type set is a contract and has no "any".
    pub fn any_arg(&self, i: usize) -> bool {
        self.func == Func::ToString && i == 0
    }

    /// Whether this entry is an alias (`equity`) rather than the function's canonical entry.
    pub fn is_alias(&self) -> bool {
        !std::ptr::eq(self, canonical(self.func))
    }

    /// The type of parameter `i` as users read it (`any` for `toString`'s argument).
    pub fn param_type_name(&self, i: usize) -> &'static str {
        if self.any_arg(i) {
            "any"
        } else {
            self.params.get(i).map_or("", |p| p.ty.name())
        }
    }

    /// `riverEquity(player) -> equity`, `minHvHEquity(player, street, x: numeric) -> boolean`,
    /// `handType(player, street = river|seventh) -> handtype`: a parameter named after its type
    /// shows once; a street that may be left out shows its default.
    pub fn signature(&self) -> String {
        let last = self.params.len().saturating_sub(1);
        let params: Vec<String> = self
            .params
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let ty = self.param_type_name(i);
                let mut param = if p.name == ty { ty.to_string() } else { format!("{}: {ty}", p.name) };
                if i == last && self.street_has_default() {
                    param = format!("{param} = {}", self.default_street_names());
                }
                param
            })
            .collect();
        format!("{}({}) -> {}", self.name, params.join(", "), self.returns.name())
    }

    /// Whether a call may leave out its last argument, a street: it then asks about the game's
    /// last street (river; seventh in stud). Every function whose last argument is a street has
    /// this default, except those that look at cards still to come (outs, draws, potentials, nut
    /// outs), where the last street has no answer, and `upCard` (seventh street is dealt down).
    pub fn street_has_default(&self) -> bool {
        self.params.last().is_some_and(|p| p.ty == Type::Street)
            && !matches!(
                self.func,
                Func::NutHiOuts
                    | Func::NutLoOuts
                    | Func::UpCard
                    | Func::Outs
                    | Func::OutsDiscounted
                    | Func::OutCards
                    | Func::OutCardsDiscounted
                    | Func::StraightDrawCount
                    | Func::OpenEndedStraightDraw
                    | Func::GutshotStraightDraw
                    | Func::FlushDrawCount
                    | Func::FlushDraw
                    | Func::BackdoorFlushDraw
                    | Func::PositivePotential
                    | Func::NegativePotential
                    | Func::PositivePotential1
                    | Func::NegativePotential1
                    | Func::EffectiveHandStrength
                    | Func::ShowdownHandStrength
            )
    }

    /// The default street as help shows it: `river`, `seventh`, or `river|seventh` for a
    /// function of board and stud games alike.
    pub fn default_street_names(&self) -> &'static str {
        let board = self.applies.games().any(|g| !g.is_stud());
        let stud = self.applies.games().any(Game::is_stud);
        match (board, stud) {
            (true, true) => "river|seventh",
            (false, true) => "seventh",
            _ => "river",
        }
    }
}

const PLAYER: Param = Param { name: "player", ty: Type::Player };
const STREET: Param = Param { name: "street", ty: Type::Street };
const X: Param = Param { name: "x", ty: Type::Numeric };
const RANGE: Param = Param { name: "range", ty: Type::Range };
const HANDTYPE: Param = Param { name: "handtype", ty: Type::HandType };
const CATEGORY: Param = Param { name: "category", ty: Type::FlopHandCategory };
const HIRATING: Param = Param { name: "rating", ty: Type::HiRating };
const LORATING: Param = Param { name: "rating", ty: Type::LoRating };
const FIVE_CARDS: Param = Param { name: "cards", ty: Type::String };
const SET: Param = Param { name: "set", ty: Type::RankSet };
const N: Param = Param { name: "n", ty: Type::Integer };
const PATTERN: Param = Param { name: "pattern", ty: Type::BoardRange };

/// One catalogue entry; `$origin` is `Original` or `Ext`.
macro_rules! def {
    ($origin:ident, $func:ident, $name:literal, [$($p:expr),*], $ret:ident, $applies:ident, $doc:literal, $example:literal $(,)?) => {
        FunctionDef {
            func: Func::$func,
            name: $name,
            params: &[$($p),*],
            returns: Type::$ret,
            applies: Applicability::$applies,
            origin: Origin::$origin,
            doc: $doc,
            example: $example,
        }
    };
}

static CATALOG: &[FunctionDef] = &[
    // Equity and outcome.
    def!(Original, RiverEquity, "riverEquity", [PLAYER], Equity, All,
        "The player's share of the pot once all cards are out: ties split each half, hi/lo games give half to the best hi and half to the best qualifying low.",
        "select avg(riverEquity(hero)) from game='holdem', hero='AsKs', villain='QQ'"),
    def!(Original, FractionalRiverEquity, "fractionalRiverEquity", [PLAYER], Fraction, All,
        "The player's river share of the pot as an exact fraction (1, 1/2, 1/3, 1/4, ...).",
        "select histogram(fractionalRiverEquity(hero)) from game='omaha8', hero='AA23', villain='KKQJ'"),
    def!(Original, HvHEquity, "HvHEquity", [PLAYER, STREET], Equity, All,
        "Equity of the player's actual hand against the others' actual hands, the cards known up to street and the rest enumerated exactly (stud: from fifth street heads-up and sixth street at any table; sampled, 4,000 deals, on earlier streets).",
        "select avg(HvHEquity(hero, flop)) from game='holdem', hero='AhKh', villain='JJ'"),
    def!(Original, HvHEquity, "equity", [PLAYER, STREET], Equity, All,
        "Alias of HvHEquity: equity of the player's hand against the others' hands as of street (exact, but sampled on early stud streets).",
        "select avg(equity(hero, turn)) from game='omahahi', hero='AAKK', villain='QJT9'"),
    def!(Original, MinEquity, "minEquity", [PLAYER, STREET, X], Boolean, All,
        "True when HvHEquity(player, street) is at least x.",
        "select count(minEquity(hero, flop, 0.8)) from game='holdem', hero='AA', villain='KK'"),
    def!(Original, MinHvHEquity, "minHvHEquity", [PLAYER, STREET, X], Boolean, All,
        "True when HvHEquity(player, street) is at least x (same as minEquity).",
        "select count(minHvHEquity(hero, turn, 0.5)) from game='holdem', hero='AKs', villain='22+'"),
    def!(Original, HvREquity, "HvREquity", [PLAYER, STREET], Equity, All,
        "Equity of the player's actual hand against the other players' whole ranges as of street (stud: given the up cards they show), card removal respected; exact when every joint holding and completion fits the budget, else 2,000 sampled deals each time (50 when the call is an avg selector's whole argument in a Monte Carlo run: the same mean, noisier per deal, the noise in the standard error).",
        "select avg(HvREquity(hero, flop)) from game='holdem', hero='AsKd', villain='TT+, AQs+'"),
    def!(Original, MinHvREquity, "minHvREquity", [PLAYER, STREET, X], Boolean, All,
        "True when HvREquity(player, street) is at least x (where HvREquity samples, a value near x may fall on either side).",
        "select count(minHvREquity(hero, flop, 0.6)) from game='holdem', hero='QQ', villain='15%'"),
    def!(Original, HvPerceivedRangeEquity, "HvPerceivedRangeEquity", [PLAYER, STREET, RANGE], Equity, All,
        "Equity of the player's actual hand as of street against the given range instead of the opponents' real holdings; exact when small enough (as HvREquity), else sampled.",
        "select avg(HvPerceivedRangeEquity(hero, flop, 'JJ+, AK')) from game='holdem', hero='AsQs', villain='*'"),
    def!(Original, MinHvPerceivedRangeEquity, "minHvPerceivedRangeEquity", [PLAYER, STREET, RANGE, X], Boolean, All,
        "True when HvPerceivedRangeEquity(player, street, range) is at least x (sampled like it when the range is too wide).",
        "select count(minHvPerceivedRangeEquity(hero, flop, 'QQ+, AK', 0.5)) from game='holdem', hero='AJs', villain='*'"),
    def!(Original, WinsHi, "winsHi", [PLAYER], Boolean, Hi,
        "True when the player's hi hand at showdown is strictly better than every other player's (a tie is not a win, unlike openpql's winsHi: count winsHi(p) or tiesHi(p) for that).",
        "select count(winsHi(hero)) from game='holdem', hero='TT', villain='AK'"),
    def!(Original, TiesHi, "tiesHi", [PLAYER], Boolean, Hi,
        "True when the player shares the best hi hand at showdown with at least one other player.",
        "select count(tiesHi(hero)) from game='holdem', hero='AK', villain='AQ'"),
    def!(Original, WinsLo, "winsLo", [PLAYER], Boolean, Lo,
        "True when the player alone has the best qualifying low at showdown (the best A-5 low in razz).",
        "select count(winsLo(hero)) from game='omaha8', hero='A23K', villain='A4QQ'"),
    def!(Original, TiesLo, "tiesLo", [PLAYER], Boolean, Lo,
        "True when the player shares the best qualifying low at showdown with at least one other player.",
        "select count(tiesLo(hero)) from game='omaha8', hero='A2KK', villain='A2QQ'"),
    def!(Original, Scoops, "scoops", [PLAYER], Boolean, All,
        "True when the player wins the whole pot alone: both halves (or the hi with no low) in hi/lo games, the sole best hand otherwise.",
        "select count(scoops(hero)) from game='omaha8', hero='AA23', villain='KKQQ'"),
    def!(Original, WinningHandType, "winningHandType", [], HandType, Hi,
        "The hand type of the best hi hand at showdown.",
        "select histogram(winningHandType()) from game='holdem', p1='AA', p2='KK', p3='QQ'"),
    // Hand strength.
    def!(Original, HandType, "handType", [PLAYER, STREET], HandType, Hi,
        "The type of the player's best hi hand as of street (highcard to straightflush, ordered by the game's rules).",
        "select histogram(handType(hero, river)) from game='holdem', hero='AsKs', villain='QQ'"),
    def!(Original, ExactHandType, "exactHandType", [PLAYER, STREET, HANDTYPE], Boolean, Hi,
        "True when the player's best hi hand as of street is exactly the given hand type.",
        "select count(exactHandType(hero, flop, twopair)) from game='holdem', hero='KQs', villain='**'"),
    def!(Original, MinHandType, "minHandType", [PLAYER, STREET, HANDTYPE], Boolean, Hi,
        "True when the player's best hi hand as of street is the given hand type or better.",
        "select count(minHandType(hero, river, flush)) from game='holdem', hero='AsKs', villain='QQ'"),
    def!(Original, FlopHandCategory, "flopHandCategory", [PLAYER], FlopHandCategory, FlopGames,
        "The player's hand category on the flop (flopnothing to flopstraightflush); in Omaha the best over its two-card holdings.",
        "select histogram(flopHandCategory(hero)) from game='holdem', hero='AK', villain='QQ'"),
    def!(Original, ExactFlopHandCategory, "exactFlopHandCategory", [PLAYER, CATEGORY], Boolean, FlopGames,
        "True when the player's flop hand category is exactly the given category.",
        "select count(exactFlopHandCategory(hero, floptoppair)) from game='holdem', hero='AK', villain='**'"),
    def!(Original, MinFlopHandCategory, "minFlopHandCategory", [PLAYER, CATEGORY], Boolean, FlopGames,
        "True when the player's flop hand category is the given category or better.",
        "select count(minFlopHandCategory(hero, flopoverpair)) from game='holdem', hero='QQ', villain='AK'"),
    def!(Original, HiRating, "hiRating", [PLAYER, STREET], HiRating, Hi,
        "The strength of the player's best hi hand as of street; a greater rating is a better hand, equal ratings tie.",
        "select count(hiRating(hero, river) > hiRating(villain, river)) from game='holdem', hero='AK', villain='QQ'"),
    def!(Original, MinHiRating, "minHiRating", [PLAYER, STREET, HIRATING], Boolean, Hi,
        "True when the player's hi rating as of street is at least the given rating (from rateHiHand).",
        "select count(minHiRating(hero, river, rateHiHand('AsAhKdKc2s'))) from game='holdem', hero='AK', villain='QQ'"),
    def!(Original, RateHiHand, "rateHiHand", [FIVE_CARDS], HiRating, Hi,
        "The hi rating of the five cards given, under the game's rules, to compare with hiRating.",
        "select count(hiRating(hero, river) >= rateHiHand('AsAhAd2c3d')) from game='holdem', hero='AA', villain='KK'"),
    def!(Original, BestHiRating, "bestHiRating", [PLAYER, STREET], Boolean, Hi,
        "True when no other player has a better hi hand as of street (ties count as best).",
        "select count(bestHiRating(hero, flop)) from game='holdem', hero='JJ', villain='AK'"),
    // The 7462 numbers order standard hands; short deck orders hands differently (a flush over
    // a full house, A-6-7-8-9 a straight), so it has no such numbering.
    def!(Original, FiveCardHiHandNumber, "fiveCardHiHandNumber", [PLAYER, STREET], Integer, StandardHi,
        "The player's best five-card hi as of street numbered among the 7462 distinct hands: 1 is a royal flush, 7462 is 7-5-4-3-2.",
        "select avg(fiveCardHiHandNumber(hero, river)) from game='holdem', hero='AA', villain='KK'"),
    def!(Original, CardsPlay, "cardsPlay", [PLAYER, STREET], CardCount, Hi,
        "How many of the player's own cards the best hi hand as of street uses (the fewest when several five-card hands tie).",
        "select histogram(cardsPlay(hero, river)) from game='holdem', hero='A5s', villain='KK'"),
    def!(Original, FourFlush, "fourFlush", [PLAYER, STREET], Boolean, Hi,
        "True when the player has exactly four cards to a flush usable under the game's rules as of street.",
        "select count(fourFlush(hero, flop)) from game='holdem', hero='AsKs', villain='QQ'"),
    def!(Original, ThreeFlush, "threeFlush", [PLAYER, STREET], Boolean, Hi,
        "True when the player has exactly three cards to a flush usable under the game's rules as of street.",
        "select count(threeFlush(hero, flop)) from game='omahahi', hero='AsKs7d2c', villain='QQJJ'"),
    def!(Original, PocketPair, "pocketPair", [PLAYER], Boolean, All,
        "True when two of the player's hole cards share a rank (stud: the two down cards).",
        "select count(pocketPair(hero)) from game='holdem', hero='*', villain='AK'"),
    def!(Original, Overpair, "overpair", [PLAYER, STREET], Boolean, FlopGames,
        "True when the player holds a pocket pair higher than every board card as of street.",
        "select count(overpair(hero, flop)) from game='holdem', hero='JJ', villain='AK'"),
    // Lo.
    def!(Original, LoRating, "loRating", [PLAYER, STREET], LoRating, Lo,
        "The player's best A-5 low as of street (8-or-better in hi/lo games, any low in razz); the better low compares greater.",
        "select count(loRating(hero, seventh) > loRating(villain, seventh)) from game='razz', hero='A23', villain='KQJ'"),
    def!(Original, MinLoRating, "minLoRating", [PLAYER, STREET, LORATING], Boolean, Lo,
        "True when the player's low as of street is at least as good as the given rating (from rateLoHand).",
        "select count(minLoRating(hero, river, rateLoHand('7h5d4c3s2d'))) from game='omaha8', hero='A23K', villain='KKQQ'"),
    def!(Original, RateLoHand, "rateLoHand", [FIVE_CARDS], LoRating, Lo,
        "The A-5 low rating of the five cards given, to compare with loRating.",
        "select count(loRating(hero, seventh) >= rateLoHand('8d6c4h3s2d')) from game='razz', hero='A23', villain='456'"),
    def!(Original, MadeLo, "madeLo", [PLAYER, STREET], Boolean, Lo,
        "True when the player has a qualifying low as of street: 8-or-better in hi/lo games, any low in razz.",
        "select count(madeLo(hero, river)) from game='omaha8', hero='A2KQ', villain='KKJJ'"),
    def!(Original, BestLoRating, "bestLoRating", [PLAYER, STREET], Boolean, Lo,
        "True when the player has a qualifying low and no other player a better one as of street (ties count as best).",
        "select count(bestLoRating(hero, fifth)) from game='stud8', hero='A23', villain='457'"),
    def!(Original, NutLo, "nutLo", [PLAYER, STREET], Boolean, Lo,
        "True when the player has a qualifying low that no hand an opponent could hold beats as of street (stud: given every up card).",
        "select count(nutLo(hero, flop)) from game='omaha8', hero='A2KK', villain='QQJJ'"),
    def!(Original, NutLoOuts, "nutLoOuts", [PLAYER, STREET], CardCount, FlopLo,
        "How many cards that can come on the next street give the player the nut low (0 before the flop and on the river); board games only, since a stud card is not shared.",
        "select avg(nutLoOuts(hero, flop)) from game='omaha8', hero='A2KK', villain='QQJJ', board='7c8dKs'"),
    def!(Original, BoardAllowsMadeLo, "boardAllowsMadeLo", [STREET], Boolean, FlopGames,
        "True when the board as of street has three or more distinct ranks 8 or lower, so a qualifying 8-or-better low is possible (a plain fact about the board in every board game).",
        "select count(boardAllowsMadeLo(river)) from game='omaha8', hero='A2KK', villain='QQJJ'"),
    def!(Original, BoardLoCardCount, "boardLoCardCount", [STREET], CardCount, FlopGames,
        "How many distinct ranks 8 or lower (aces included) the board shows as of street.",
        "select histogram(boardLoCardCount(flop)) from game='omaha8', hero='A2KK', villain='QQJJ'"),
    def!(Original, BoardHasOneDistinctLoCard, "boardHasOneDistinctLoCard", [STREET], Boolean, FlopGames,
        "True when the board as of street shows exactly one distinct rank 8 or lower.",
        "select count(boardHasOneDistinctLoCard(flop)) from game='omaha8', hero='A2KK', villain='QQJJ'"),
    def!(Original, BoardHasTwoDistinctLoCards, "boardHasTwoDistinctLoCards", [STREET], Boolean, FlopGames,
        "True when the board as of street shows exactly two distinct ranks 8 or lower.",
        "select count(boardHasTwoDistinctLoCards(turn)) from game='omaha8', hero='A2KK', villain='QQJJ'"),
    // Nuts and outs. Stud opponents could hold anything with their up cards. Outs to the nuts
    // are for board games only: a stud card goes to one player, the opponents' next cards are
    // unknown too, so "the cards that give p the nuts" has no shared answer there.
    def!(Original, NutHi, "nutHi", [PLAYER, STREET], Boolean, Hi,
        "True when no hand an opponent could hold from the cards the player cannot see beats the player's hi as of street (ties allowed; stud: given every up card).",
        "select count(nutHi(hero, flop)) from game='holdem', hero='AsKs', villain='QQ'"),
    def!(Original, NutHiForHandType, "nutHiForHandType", [PLAYER, STREET], Boolean, Hi,
        "True when no hand of the same hand type an opponent could hold beats the player's hi as of street.",
        "select count(nutHiForHandType(hero, turn)) from game='holdem', hero='AhKh', villain='QQ'"),
    def!(Original, NutHiOuts, "nutHiOuts", [PLAYER, STREET], CardCount, FlopGames,
        "How many cards that can come on the next street give the player the nut hi (0 before the flop, where the next street is three cards, and on the river); board games only, since a stud card is not shared.",
        "select avg(nutHiOuts(hero, flop)) from game='holdem', hero='AhKh', villain='QQ', board='Qh7h2c'"),
    def!(Original, OutsToHandType, "outsToHandType", [PLAYER, STREET, HANDTYPE], CardCount, Hi,
        "How many cards that can come on the next street give the player exactly the given hand type and a better hand than now.",
        "select avg(outsToHandType(hero, flop, flush)) from game='holdem', hero='AhKh', villain='QQ', board='Qh7h2c'"),
    def!(Original, MinOutsToHandType, "minOutsToHandType", [PLAYER, STREET, HANDTYPE, N], Boolean, Hi,
        "True when outsToHandType(player, street, handtype) is at least n.",
        "select count(minOutsToHandType(hero, flop, straight, 8)) from game='holdem', hero='JTs', villain='AA'"),
    // Board.
    def!(Original, BoardRanks, "boardRanks", [STREET], RankSet, FlopGames,
        "The set of ranks on the board as of street.",
        "select avg(rankCount(boardRanks(flop))) from game='holdem', hero='AK', villain='QQ'"),
    def!(Original, DuplicatedBoardRanks, "duplicatedBoardRanks", [STREET], RankSet, FlopGames,
        "The ranks that appear at least twice on the board as of street.",
        "select histogram(maxRank(duplicatedBoardRanks(river))) from game='holdem', hero='AK', villain='QQ' where pairedBoard(river)"),
    def!(Original, BoardSuitCount, "boardSuitCount", [STREET], CardCount, FlopGames,
        "How many different suits the board shows as of street.",
        "select histogram(boardSuitCount(flop)) from game='holdem', hero='AK', villain='QQ'"),
    def!(Original, RainbowBoard, "rainbowBoard", [STREET], Boolean, FlopGames,
        "True when every board card as of street has a different suit.",
        "select count(rainbowBoard(flop)) from game='holdem', hero='AK', villain='QQ'"),
    def!(Original, TwoToneBoard, "twoToneBoard", [STREET], Boolean, FlopGames,
        "True when the board as of street shows exactly two suits.",
        "select count(twoToneBoard(flop)) from game='holdem', hero='AK', villain='QQ'"),
    def!(Original, MonotoneBoard, "monotoneBoard", [STREET], Boolean, FlopGames,
        "True when every board card as of street has the same suit.",
        "select count(monotoneBoard(flop)) from game='holdem', hero='AK', villain='QQ'"),
    def!(Original, FlushingBoard, "flushingBoard", [STREET], Boolean, FlopGames,
        "True when the board as of street has three or more cards of one suit, so a flush is possible.",
        "select count(flushingBoard(river)) from game='holdem', hero='AK', villain='QQ'"),
    def!(Original, PairedBoard, "pairedBoard", [STREET], Boolean, FlopGames,
        "True when two or more board cards as of street share a rank.",
        "select count(pairedBoard(turn)) from game='holdem', hero='AK', villain='QQ'"),
    def!(Original, StraightBoard, "straightBoard", [STREET], Boolean, FlopGames,
        "True when the board as of street has three ranks within a straight's span, so a straight is possible.",
        "select count(straightBoard(flop)) from game='holdem', hero='AK', villain='QQ'"),
    def!(Original, BoardInRange, "boardInRange", [PATTERN], Boolean, FlopGames,
        "True when the board matches the pattern (generic syntax): flop cards in any order, turn and river by position.",
        "select count(boardInRange('[A-T][A-T]*')) from game='holdem', hero='AK', villain='QQ'"),
    def!(Original, TurnCard, "turnCard", [], Card, FlopGames,
        "The turn card, the board's fourth card.",
        "select count(turnCard() = toCard('As')) from game='holdem', hero='KK', villain='QQ'"),
    def!(Original, RiverCard, "riverCard", [], Card, FlopGames,
        "The river card, the board's fifth card.",
        "select histogram(riverCard()) from game='holdem', hero='KK', villain='QQ', board='Ah7c2d5s'"),
    // Ranks.
    def!(Original, HandRanks, "handRanks", [PLAYER, STREET], RankSet, All,
        "The set of ranks among the player's own cards as of street (stud: the cards dealt so far); handRanks(p) is the ranks of all of them, as in openpql.",
        "select histogram(rankCount(handRanks(hero, preflop))) from game='omahahi', hero='*', villain='AAKK'"),
    def!(Original, DuplicatedHandRanks, "duplicatedHandRanks", [PLAYER, STREET], RankSet, All,
        "The ranks that appear at least twice among the player's own cards as of street.",
        "select count(rankCount(duplicatedHandRanks(hero, third)) > 0) from game='stud', hero='*', villain='AA'"),
    def!(Original, IntersectingHandRanks, "intersectingHandRanks", [PLAYER, STREET], RankSet, FlopGames,
        "The ranks of the player's hole cards that also appear on the board as of street.",
        "select histogram(rankCount(intersectingHandRanks(hero, flop))) from game='omahahi', hero='AKQJ', villain='**'"),
    def!(Original, NonIntersectingHandRanks, "nonIntersectingHandRanks", [PLAYER, STREET], RankSet, FlopGames,
        "The ranks of the player's hole cards that do not appear on the board as of street.",
        "select avg(rankCount(nonIntersectingHandRanks(hero, flop))) from game='omahahi', hero='AKQJ', villain='**'"),
    def!(Original, HandBoardIntersections, "handBoardIntersections", [PLAYER, STREET], CardCount, FlopGames,
        "How many of the player's hole cards share a rank with a board card as of street (a pocket pair that hits counts 2; openpql counts distinct ranks, 1).",
        "select histogram(handBoardIntersections(hero, flop)) from game='holdem', hero='AK', villain='QQ'"),
    def!(Original, HasTopBoardRank, "hasTopBoardRank", [PLAYER, STREET], Boolean, FlopGames,
        "True when one of the player's hole cards has the highest rank on the board as of street.",
        "select count(hasTopBoardRank(hero, flop)) from game='holdem', hero='AK', villain='QQ'"),
    def!(Original, HasSecondBoardRank, "hasSecondBoardRank", [PLAYER, STREET], Boolean, FlopGames,
        "True when one of the player's hole cards has the second-highest distinct rank on the board as of street.",
        "select count(hasSecondBoardRank(hero, flop)) from game='holdem', hero='KQ', villain='AA'"),
    def!(Original, MaxRank, "maxRank", [SET], Rank, All,
        "The highest rank of a rank set (razz plays the ace as the lowest rank; elsewhere it is the highest); an empty set gives no rank, printed none.",
        "select histogram(maxRank(boardRanks(flop))) from game='holdem', hero='AK', villain='QQ'"),
    def!(Original, MinRank, "minRank", [SET], Rank, All,
        "The lowest rank of a rank set: the ace in razz, where it is the lowest rank, a deuce or higher elsewhere; an empty set gives none.",
        "select histogram(minRank(handRanks(hero, third))) from game='razz', hero='***', villain='A23'"),
    def!(Original, NthRank, "nthRank", [N, SET], Rank, All,
        "The n-th highest rank of a rank set (1 is the highest; razz ranks the ace lowest); none when the set has fewer ranks.",
        "select histogram(nthRank(2, boardRanks(flop))) from game='holdem', hero='AK', villain='QQ'"),
    def!(Original, RankCount, "rankCount", [SET], CardCount, All,
        "How many ranks a rank set holds.",
        "select histogram(rankCount(boardRanks(river))) from game='holdem', hero='AK', villain='QQ'"),
    // Ranges and helpers.
    def!(Original, InRange, "inRange", [PLAYER, RANGE], Boolean, All,
        "True when the player's hand is in the range, read with the statement's game and syntax.",
        "select count(inRange(villain, 'JJ+, AK')) from game='holdem', hero='AsKs', villain='15%'"),
    def!(Original, HandRanking, "handRanking", [PLAYER], HandRanking, FlopGames,
        "The player's starting hand as a percentile of the game's ordering (ordering='oracle', the default, or 'equity' in the from clause): handRanking(p) <= 15 exactly when the hand is in 15%.",
        "select avg(handRanking(villain)) from game='holdem', hero='AA', villain='*'"),
    def!(Original, HandRankingFor, "handRankingFor", [PLAYER, Param { name: "table", ty: Type::String }], HandRanking, FlopGames,
        "handRanking for the named table: 'full' (full ring) or '6max' (the from clause's ordering= picks the method).",
        "select count(handRankingFor(villain, '6max') <= 20) from game='holdem', hero='AA', villain='*'"),
    def!(Original, UpCard, "upCard", [PLAYER, STREET], Card, Stud,
        "The player's face-up card dealt on street: third to sixth street (seventh street is dealt face down, a type error).",
        "select count(upCard(villain, third) = toCard('As')) from game='stud', hero='KK', villain='*'"),
    def!(Original, ToCard, "toCard", [Param { name: "card", ty: Type::String }], Card, All,
        "The card written in the string, such as 'As'.",
        "select count(riverCard() = toCard('Kh')) from game='holdem', hero='AA', villain='QQ'"),
    def!(Original, ToRank, "toRank", [Param { name: "rank", ty: Type::String }], Rank, All,
        "The rank written in the string, such as 'A' or 'T'; ranks compare with the ace highest, except in razz where it is the lowest.",
        "select count(maxRank(boardRanks(flop)) = toRank('A')) from game='holdem', hero='KK', villain='QQ'"),
    def!(Original, ToString, "toString", [Param { name: "value", ty: Type::String }], String, All,
        "Any value as text, as || prints it.",
        "select histogram(toString(handType(hero, flop)) || ' vs ' || toString(handType(villain, flop))) from game='holdem', hero='AK', villain='QQ'"),
    // ext: outs and draws (HoldemHand), hold'em rules only (docs/analysis.md).
    def!(Ext, Outs, "outs", [PLAYER, STREET], CardCount, Holdem,
        "Unseen cards that improve the player's hand (higher type or top card), beat the board alone and beat every other known hand.",
        "select avg(outs(hero, flop)) from game='holdem', hero='AhKh', villain='QQ', board='Qh7h2c'"),
    def!(Ext, OutsDiscounted, "outsDiscounted", [PLAYER, STREET], CardCount, Holdem,
        "HoldemHand's discounted outs (Matt Baker's heuristic): with other players in the deal, outs; alone, the outs whose new hand is probably good: a pair only with an overcard, two pair only pairing a hole card on an unpaired board, neither nor trips when the card brings a third suited board card or a one-card straight; a straight not with a third suited card; a flush or better always. Each card judged on its own (HoldemHand's code lets one card's straight danger carry to the next; pql does not).",
        "select avg(outsDiscounted(hero, turn)) from game='holdem', hero='QsJs', board='9cTs7d3c'"),
    def!(Ext, OutCards, "outCards", [PLAYER, STREET], CardSet, Holdem,
        "The cards outs counts, as a card set printed high to low ('Ks Kh 8s').",
        "select histogram(outCards(hero, turn)) from game='holdem', hero='QsJs', board='9cTs7d3c'"),
    def!(Ext, OutCardsDiscounted, "outCardsDiscounted", [PLAYER, STREET], CardSet, Holdem,
        "The cards outsDiscounted keeps, as a card set.",
        "select histogram(outCardsDiscounted(hero, turn)) from game='holdem', hero='QsJs', board='9cTs7d3c'"),
    def!(Ext, StraightDrawCount, "straightDrawCount", [PLAYER, STREET], CardCount, Holdem,
        "Unseen cards that give the player a straight beating the board plus that card; flush cards and made straights do not count.",
        "select avg(straightDrawCount(hero, flop)) from game='holdem', hero='JTs', villain='AA', board='9c8d2h'"),
    def!(Ext, OpenEndedStraightDraw, "openEndedStraightDraw", [PLAYER, STREET], Boolean, Holdem,
        "True when the player has eight straight-draw cards (open-ended or double gutshot).",
        "select count(openEndedStraightDraw(hero, flop)) from game='holdem', hero='JTs', villain='AA'"),
    def!(Ext, GutshotStraightDraw, "gutshotStraightDraw", [PLAYER, STREET], Boolean, Holdem,
        "True when the player has exactly four straight-draw cards (an inside straight draw).",
        "select count(gutshotStraightDraw(hero, flop)) from game='holdem', hero='QTs', villain='AA'"),
    def!(Ext, FlushDrawCount, "flushDrawCount", [PLAYER, STREET], CardCount, Holdem,
        "Unseen cards that give the player a flush beating the board plus that card.",
        "select avg(flushDrawCount(hero, flop)) from game='holdem', hero='AhKh', villain='QQ', board='Qh7h2c'"),
    def!(Ext, FlushDraw, "flushDraw", [PLAYER, STREET], Boolean, Holdem,
        "True when at least one unseen card gives the player a flush beating the board plus that card.",
        "select count(flushDraw(hero, flop)) from game='holdem', hero='AhKh', villain='QQ'"),
    def!(Ext, BackdoorFlushDraw, "backdoorFlushDraw", [PLAYER, STREET], Boolean, Holdem,
        "On the flop: exactly three cards of one suit among the player's cards and the board, at least one of them the player's.",
        "select count(backdoorFlushDraw(hero, flop)) from game='holdem', hero='AhKh', villain='QQ'"),
    // ext: hand strength and potential (Loki), every board game.
    def!(Ext, HandStrength, "handStrength", [PLAYER, STREET], Equity, FlopGames,
        "The player's share of the pot if the hand ended on street: heads-up the share of opponent holdings (weighted by range) it beats, ties half; against several opponents averaged over their joint deals (1/k when tied with k-1 others for best). Exact heads-up (beyond 20,000 holdings, Omaha against wide ranges, 4,000 sampled) and while the joint deals number at most 1,200,000 (two random hold'em opponents); otherwise 20,000 joint deals sampled.",
        "select avg(handStrength(hero, flop)) from game='holdem', hero='AdQc', villain='*', board='3h4cJh'"),
    def!(Ext, PositivePotential, "positivePotential", [PLAYER, STREET], Equity, FlopGames,
        "Chance of being ahead at the river when behind (or tied, half) now, looking to the river (Loki's PPOT); against several opponents ahead/tied/behind the whole field, over their joint deals. Exact heads-up in hold'em from the flop; else sampled (20,000 holding and board pairs: before the flop, in Omaha against wide ranges, against several opponents unless their ranges are narrow), or, when the call is an avg selector's whole argument in a Monte Carlo run, a fresh unbiased estimate in each deal (64 kept joint deals), its noise in the standard error.",
        "select avg(positivePotential(hero, flop)) from game='holdem', hero='AdQc', villain='*', board='3h4cJh'"),
    def!(Ext, NegativePotential, "negativePotential", [PLAYER, STREET], Equity, FlopGames,
        "Chance of being behind at the river when ahead (or tied, half) now, looking to the river (Loki's NPOT); against several opponents over their joint deals. Exact heads-up in hold'em; sampled like positivePotential.",
        "select avg(negativePotential(hero, flop)) from game='holdem', hero='AdQc', villain='*', board='3h4cJh'"),
    def!(Ext, PositivePotential1, "positivePotential1", [PLAYER, STREET], Equity, FlopGames,
        "positivePotential looking one card ahead instead of to the river (sampled like it in Omaha against wide ranges).",
        "select avg(positivePotential1(hero, flop)) from game='holdem', hero='AdQc', villain='*', board='3h4cJh'"),
    def!(Ext, NegativePotential1, "negativePotential1", [PLAYER, STREET], Equity, FlopGames,
        "negativePotential looking one card ahead instead of to the river (sampled like it in Omaha against wide ranges).",
        "select avg(negativePotential1(hero, flop)) from game='holdem', hero='AdQc', villain='*', board='3h4cJh'"),
    def!(Ext, EffectiveHandStrength, "effectiveHandStrength", [PLAYER, STREET], Equity, FlopGames,
        "Loki's effective hand strength HS + (1 - HS) * PPOT as of street (sampled where handStrength or positivePotential are).",
        "select avg(effectiveHandStrength(hero, flop)) from game='holdem', hero='AdQc', villain='*', board='3h4cJh'"),
    def!(Ext, ShowdownHandStrength, "showdownHandStrength", [PLAYER, STREET], Equity, FlopGames,
        "HS * (1 - NPOT) + (1 - HS) * PPOT as of street: the chance of winning at showdown (sampled where its parts are).",
        "select avg(showdownHandStrength(hero, flop)) from game='holdem', hero='AdQc', villain='*', board='3h4cJh'"),
    def!(Ext, MaxHiRating, "maxHiRating", [PLAYER, STREET], Boolean, Hi,
        "True when the player holds the best hi among the players as of street (ties included); openpql's maxHiRating(street) is that best hi rating itself.",
        "select count(maxHiRating(hero, flop)) from game='holdem', hero='JJ', villain='AK'"),
];

/// Every function, aliases included (`equity` is an entry whose `func` is `Func::HvHEquity`).
pub fn catalog() -> &'static [FunctionDef] {
    CATALOG
}

/// Case-insensitive lookup by name or alias. Underscores are ignored, so openpql's spellings
/// (`min_equity`, `wins_hi`, `hand_type`) name the same functions (no two names clash that way).
pub fn lookup(name: &str) -> Option<&'static FunctionDef> {
    let found = CATALOG.iter().find(|f| f.name.eq_ignore_ascii_case(name));
    if found.is_some() || !name.contains('_') {
        return found;
    }
    let joined = name.replace('_', "");
    CATALOG.iter().find(|f| f.name.eq_ignore_ascii_case(&joined))
}

/// The canonical entry of a function: the first one, aliases come after it.
pub fn canonical(func: Func) -> &'static FunctionDef {
    CATALOG.iter().find(|f| f.func == func).expect("the catalogue has an entry for every Func (checked by a test)")
}

/// Every name a query may call: canonical names and aliases, in catalogue order.
pub fn names() -> impl Iterator<Item = &'static str> {
    CATALOG.iter().map(|f| f.name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Street;
    use std::collections::{HashMap, HashSet};

    #[test]
    fn names_are_unique_ignoring_case() {
        let mut seen = HashSet::new();
        for f in catalog() {
            assert!(seen.insert(f.name.to_ascii_lowercase()), "duplicate name {}", f.name);
        }
    }

    #[test]
    fn hand_numbers_only_where_hands_rank_as_standard() {
        let applies = lookup("fiveCardHiHandNumber").unwrap().applies;
        let games: Vec<Game> = applies.games().collect();
        assert!(games.contains(&Game::Holdem) && games.contains(&Game::OmahaHi) && games.contains(&Game::StudHi));
        assert!(!games.contains(&Game::ShortDeck) && !games.contains(&Game::ShortDeckTriton));
        assert!(!games.contains(&Game::Razz));
    }

    #[test]
    fn counts_match_the_spec() {
        let original = catalog().iter().filter(|f| f.origin == Origin::Original).count();
        let ext = catalog().iter().filter(|f| f.origin == Origin::Ext).count();
        assert_eq!(original, 78);
        // The 15 extensions of docs/analysis.md and outsDiscounted, outCards, outCardsDiscounted.
        assert_eq!(ext, 18);
    }

    /// Every `Func` variant has exactly one canonical entry, and the only alias is `equity`.
    #[test]
    fn every_func_has_one_canonical_entry() {
        let mut by_func: HashMap<Func, Vec<&str>> = HashMap::new();
        for f in catalog() {
            by_func.entry(f.func).or_default().push(f.name);
        }
        // The Func enum has 95 variants (77 original + 18 ext); `equity` is the one extra name.
        assert_eq!(by_func.len(), 95);
        for (func, names) in &by_func {
            if *func == Func::HvHEquity {
                assert_eq!(names, &["HvHEquity", "equity"]);
            } else {
                assert_eq!(names.len(), 1, "{func:?} has {names:?}");
            }
        }
        for f in catalog() {
            assert_eq!(f.is_alias(), f.name == "equity", "{}", f.name);
            // The canonical name is the variant name up to the case of the first letter.
            if !f.is_alias() {
                assert!(format!("{:?}", f.func).eq_ignore_ascii_case(f.name), "{}", f.name);
            }
        }
    }

    #[test]
    fn lookup_ignores_case() {
        assert_eq!(lookup("RIVEREQUITY").map(|f| f.func), Some(Func::RiverEquity));
        assert_eq!(lookup("hvhequity").map(|f| f.name), Some("HvHEquity"));
        assert_eq!(lookup("Equity").map(|f| f.func), Some(Func::HvHEquity));
        assert_eq!(lookup("minhvrEQUITY").map(|f| f.name), Some("minHvREquity"));
        assert!(lookup("riverEquityX").is_none());
        assert!(lookup("").is_none());
    }

    #[test]
    fn signatures_read_naturally() {
        assert_eq!(canonical(Func::RiverEquity).signature(), "riverEquity(player) -> equity");
        assert_eq!(canonical(Func::MinHvHEquity).signature(), "minHvHEquity(player, street, x: numeric) -> boolean");
        assert_eq!(canonical(Func::NthRank).signature(), "nthRank(n: integer, set: rankset) -> rank");
        assert_eq!(canonical(Func::WinningHandType).signature(), "winningHandType() -> handtype");
        assert_eq!(canonical(Func::ToString).signature(), "toString(value: any) -> string");
        assert!(canonical(Func::ToString).any_arg(0));
        assert!(!canonical(Func::ToCard).any_arg(0));
    }

    #[test]
    fn docs_are_one_line_sentences() {
        for f in catalog() {
            assert!(!f.doc.is_empty() && !f.doc.contains('\n'), "{}", f.name);
            assert!(f.doc.ends_with('.'), "{}: {}", f.name, f.doc);
        }
    }

    /// The game named in an example's from clause.
    fn example_game(example: &str) -> Game {
        let after = example.split("game='").nth(1).expect("example names its game");
        let name = after.split('\'').next().unwrap_or_default();
        Game::from_name(name).unwrap_or_else(|| panic!("unknown game in {example}"))
    }

    /// Examples call their function, in a game where it applies, and name only streets of that
    /// game. (Whether they check end to end is tested with the front end.)
    #[test]
    fn examples_fit_their_function() {
        for f in catalog() {
            let ex = f.example;
            assert!(ex.starts_with("select "), "{ex}");
            let call = format!("{}(", f.name.to_ascii_lowercase());
            assert!(ex.to_ascii_lowercase().contains(&call), "{} not called in {ex}", f.name);
            let game = example_game(ex);
            assert!(f.applies.allows(game), "{}: example game {game} not allowed", f.name);
            for word in ex.split(|c: char| !c.is_ascii_alphanumeric()) {
                if let Some(s) = Street::from_name(word) {
                    assert!(game.has_street(s), "{}: street {s} not in {game}", f.name);
                }
            }
        }
    }

    #[test]
    fn applicability_follows_the_games() {
        use Applicability as A;
        let games = |a: A| a.games().map(Game::name).collect::<Vec<_>>();
        assert_eq!(games(A::Lo), ["omaha8", "omaha85", "stud8", "razz"]);
        assert_eq!(games(A::FlopLo), ["omaha8", "omaha85"]);
        assert_eq!(games(A::Stud), ["studhi", "stud8", "razz"]);
        assert_eq!(games(A::Holdem), ["holdem", "shortdeck", "shortdeck_triton"]);
        assert!(!A::Hi.allows(Game::Razz) && A::Hi.allows(Game::Stud8));
        assert_eq!(A::All.games().count(), Game::ALL.len());
    }
}
