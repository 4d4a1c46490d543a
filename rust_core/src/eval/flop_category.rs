//! Flop hand categories (docs/language/statements.md, expressions): what a hold'em-style hand made on the flop, ascending.

use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum FlopHandCategory {
    Nothing,
    Underpair,
    ThirdPair,
    Pocket23,
    SecondPair,
    Pocket12,
    TopPair,
    Overpair,
    BottomTwo,
    TopAndBottom,
    TopTwo,
    Trips,
    Set,
    Straight,
    Flush,
    FullHouse,
    Quads,
    StraightFlush,
}

impl FlopHandCategory {
    /// Every category, worst first.
    pub const ALL: [FlopHandCategory; 18] = [
        FlopHandCategory::Nothing,
        FlopHandCategory::Underpair,
        FlopHandCategory::ThirdPair,
        FlopHandCategory::Pocket23,
        FlopHandCategory::SecondPair,
        FlopHandCategory::Pocket12,
        FlopHandCategory::TopPair,
        FlopHandCategory::Overpair,
        FlopHandCategory::BottomTwo,
        FlopHandCategory::TopAndBottom,
        FlopHandCategory::TopTwo,
        FlopHandCategory::Trips,
        FlopHandCategory::Set,
        FlopHandCategory::Straight,
        FlopHandCategory::Flush,
        FlopHandCategory::FullHouse,
        FlopHandCategory::Quads,
        FlopHandCategory::StraightFlush,
    ];

    /// The PQL keyword (`flopnothing`, `floptoppair`, ...).
    pub fn name(self) -> &'static str {
        match self {
            FlopHandCategory::Nothing => "flopnothing",
            FlopHandCategory::Underpair => "flopunderpair",
            FlopHandCategory::ThirdPair => "flopthirdpair",
            FlopHandCategory::Pocket23 => "floppocket23",
            FlopHandCategory::SecondPair => "flopsecondpair",
            FlopHandCategory::Pocket12 => "floppocket12",
            FlopHandCategory::TopPair => "floptoppair",
            FlopHandCategory::Overpair => "flopoverpair",
            FlopHandCategory::BottomTwo => "flopbottomtwo",
            FlopHandCategory::TopAndBottom => "floptopandbottom",
            FlopHandCategory::TopTwo => "floptoptwo",
            FlopHandCategory::Trips => "floptrips",
            FlopHandCategory::Set => "flopset",
            FlopHandCategory::Straight => "flopstraight",
            FlopHandCategory::Flush => "flopflush",
            FlopHandCategory::FullHouse => "flopfullhouse",
            FlopHandCategory::Quads => "flopquads",
            FlopHandCategory::StraightFlush => "flopstraightflush",
        }
    }

    /// Case-insensitive lookup of a keyword.
    pub fn from_name(name: &str) -> Option<FlopHandCategory> {
        Self::ALL.into_iter().find(|c| c.name().eq_ignore_ascii_case(name))
    }

    pub fn from_index(i: u8) -> FlopHandCategory {
        Self::ALL[usize::from(i) % Self::ALL.len()]
    }
}

impl fmt::Display for FlopHandCategory {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
