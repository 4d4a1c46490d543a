//! The catalogue table. (Being written: see the functions helper.)

use super::Func;
use crate::games::Game;
use crate::pql::types::Type;

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
    /// Games with a low: omaha8, omaha85, stud8, razz.
    Lo,
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
            Applicability::Lo => game.has_lo(),
            Applicability::FlopGames => !game.is_stud(),
            Applicability::Holdem => !game.is_stud() && !game.is_omaha(),
            Applicability::Stud => game.is_stud(),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// One of the original PQL's 78 functions.
    Original,
    /// A pql extension (PQL-SPEC §8).
    Ext,
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

static CATALOG: &[FunctionDef] = &[];

/// Every function, aliases included (`equity` is an entry whose `func` is `Func::HvHEquity`).
pub fn catalog() -> &'static [FunctionDef] {
    CATALOG
}

/// Case-insensitive lookup by name or alias.
pub fn lookup(name: &str) -> Option<&'static FunctionDef> {
    CATALOG.iter().find(|f| f.name.eq_ignore_ascii_case(name))
}
