//! What a delve is asked for: the seed, the floors, their size, the difficulty and the party.

use std::path::{Path, PathBuf};

/// Each side of a floor: 24 to 96 spaces.
pub const SIDE_RANGE: (u32, u32) = (24, 96);
/// Floors: 1 to 8.
pub const MAX_FLOORS: u32 = 8;
/// How hard the delve is (its numbers: `DelveBook::tier`, assets/rules/delve.ron).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Difficulty {
    Easy,
    Normal,
    Hard,
}

impl Difficulty {
    pub fn parse(s: &str) -> Option<Difficulty> {
        match s {
            "easy" => Some(Difficulty::Easy),
            "normal" => Some(Difficulty::Normal),
            "hard" => Some(Difficulty::Hard),
            _ => None,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Difficulty::Easy => "easy",
            Difficulty::Normal => "normal",
            Difficulty::Hard => "hard",
        }
    }
}

/// What to generate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Params {
    pub seed: u64,
    /// Floors, 1 to 8.
    pub floors: u32,
    /// Each floor's width and height, 24 to 96.
    pub width: u32,
    pub height: u32,
    pub difficulty: Difficulty,
    /// Hero ids: files `heroes/<id>.ron` under `root`.
    pub party: Vec<String>,
    /// The project folder (its `assets/monsters/` and `heroes/`).
    pub root: PathBuf,
    /// The strength of the party that will play, when it is not `party` (the window's Delve:
    /// the heroes chosen on the party screen, made or saved ones too; `party_strength`); `None`:
    /// the stats of `party`'s files summed. The encounters are built to it (docs/delve.md).
    pub strength: Option<u32>,
}

/// The highest party strength a delve is built to (four heroes' four stats).
pub const MAX_STRENGTH: u32 = 400;

impl Params {
    /// Seed `seed`, 3 floors of 64×64, normal, the four heroes of `heroes/`.
    pub fn new(seed: u64, root: &Path) -> Params {
        Params {
            seed,
            floors: 3,
            width: 64,
            height: 64,
            difficulty: Difficulty::Normal,
            party: ["lunk", "mira", "tobin", "ade"].iter().map(|s| s.to_string()).collect(),
            root: root.to_path_buf(),
            strength: None,
        }
    }

    /// The first parameter out of range, as a sentence (`generate` refuses such params).
    pub fn problem(&self) -> Option<String> {
        if !(1..=MAX_FLOORS).contains(&self.floors) {
            return Some(format!("{} floors: give 1 to {MAX_FLOORS}", self.floors));
        }
        let (lo, hi) = SIDE_RANGE;
        if !(lo..=hi).contains(&self.width) || !(lo..=hi).contains(&self.height) {
            return Some(format!("a floor of {}×{}: each side is {lo} to {hi}", self.width, self.height));
        }
        if let Some(n) = self.strength.filter(|n| !(1..=MAX_STRENGTH).contains(n)) {
            return Some(format!("a party strength of {n}: give 1 to {MAX_STRENGTH}"));
        }
        if self.party.is_empty() || self.party.len() > 4 {
            return Some(format!("a party of {}: give 1 to 4 heroes", self.party.len()));
        }
        self.party.iter().find(|h| crate::data::id_problem(h).is_some() || h.contains('.')).map(|h| format!("hero '{h}' is not a plain name"))
    }
}
