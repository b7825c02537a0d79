//! Delve (issue 47): a dungeon of K floors generated from a seed, each floor a crawl level
//! (`Level`) the checker accepts and the proof shows winnable, and a campaign chaining them.
//! Same seed, parameters and version: the same files, byte for byte (a `ChaCha8Rng` seeded from
//! the seed and the floor; no clock, no hash order). `layout` cuts the rooms and corridors,
//! `floor` furnishes a floor (locks and keys, secrets, traps, chests, dark, encounters, an NPC,
//! events), `stock` holds the loot table and the monsters' costs. docs/delve.md.

mod floor;
mod layout;
mod stock;

pub use crate::level_file::{Proof, prove};
use crate::data::RuleData;
use crate::level_file::Level;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::path::{Path, PathBuf};

/// The generator's version: a change to what a seed gives bumps it.
pub const DELVE_VERSION: u32 = 1;
/// Floors: 1 to 8.
pub const MAX_FLOORS: u32 = 8;
/// Each side of a floor: 24 to 96 spaces.
pub const SIDE_RANGE: (u32, u32) = (24, 96);

/// How hard the encounters are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Difficulty {
    Easy,
    Normal,
    Hard,
}

impl Difficulty {
    /// The encounter budget's factor, in percent.
    pub fn percent(self) -> u32 {
        match self {
            Difficulty::Easy => 70,
            Difficulty::Normal => 100,
            Difficulty::Hard => 140,
        }
    }
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
}

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
        }
    }

    fn problem(&self) -> Option<String> {
        if !(1..=MAX_FLOORS).contains(&self.floors) {
            return Some(format!("{} floors: give 1 to {MAX_FLOORS}", self.floors));
        }
        let (lo, hi) = SIDE_RANGE;
        if !(lo..=hi).contains(&self.width) || !(lo..=hi).contains(&self.height) {
            return Some(format!("a floor of {}×{}: each side is {lo} to {hi}", self.width, self.height));
        }
        if self.party.is_empty() || self.party.len() > 4 {
            return Some(format!("a party of {}: give 1 to 4 heroes", self.party.len()));
        }
        self.party.iter().find(|h| crate::data::id_problem(h).is_some() || h.contains('.')).map(|h| format!("hero '{h}' is not a plain name"))
    }
}

/// A generated dungeon: its floors (one level each, in order) and the campaign chaining them.
#[derive(Clone, Debug, PartialEq)]
pub struct Delve {
    pub levels: Vec<Level>,
    /// The levels' RON text, as `write_delve` writes them.
    pub texts: Vec<String>,
    /// The campaign file's text (levels `floor_1.ron` … beside it).
    pub campaign: String,
}

/// The file name of floor `k` (0-based).
pub fn level_file_name(k: usize) -> String {
    format!("floor_{}.ron", k + 1)
}

/// The generator: `params.floors` levels and their campaign. Deterministic: the same params
/// (and `DELVE_VERSION`) give the same text. Each floor is tried again with the next
/// sub-seed while the proof fails (it never has in the tests' seeds).
pub fn generate(params: &Params, data: &RuleData) -> Result<Delve, String> {
    if let Some(p) = params.problem() {
        return Err(p);
    }
    let party = stock::party(params, data)?;
    let book = stock::Bestiary::load(&params.root)?;
    let mut levels = Vec::new();
    for k in 0..params.floors {
        let mut tries = 0u64;
        let level = loop {
            let sub = params.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (u64::from(k) << 48) ^ tries;
            let mut rng = ChaCha8Rng::seed_from_u64(sub);
            let level = floor::floor(&mut rng, params, k, &party, &book);
            if prove(&level).is_ok() || tries >= 16 {
                break level;
            }
            tries += 1;
        };
        levels.push(level);
    }
    let texts: Vec<String> = levels.iter().map(crate::level_edit::write_new).collect();
    let campaign = campaign_text(params, &levels);
    Ok(Delve { levels, texts, campaign })
}

/// The campaign file: the floors in order, each lost floor played again.
fn campaign_text(params: &Params, levels: &[Level]) -> String {
    use crate::campaign::{Campaign, CampaignLevel};
    let c = Campaign {
        version: 1,
        name: format!("Delve {} ({}, {} floors)", params.seed, params.difficulty.name(), params.floors),
        story: "A stair nobody remembers cutting leads down under the old hill. Each floor is darker than the last.".into(),
        party_side: "heroes".into(),
        heroes: vec![],
        party_min: 1,
        party_max: 4,
        start_cp: 0,
        allowance: None,
        point_buy_budget: None,
        rest_days: None,
        levels: levels
            .iter()
            .enumerate()
            .map(|(k, l)| CampaignLevel {
                id: format!("floor_{}", k + 1),
                level: level_file_name(k),
                briefing: l.briefing.clone(),
                next: None,
                on_failure: None,
                major: k + 1 == levels.len(),
                objectives: vec![],
            })
            .collect(),
    };
    let pretty = ron::ser::PrettyConfig::new().struct_names(true);
    let body = ron::ser::to_string_pretty(&c, pretty).unwrap_or_default();
    format!("// Delve: generated by doo delve (seed {}, version {DELVE_VERSION}); docs/delve.md.\n{body}\n", params.seed)
}

/// Generates and writes the floors (`floor_1.ron` …) and the campaign (`delve.ron`) into
/// `out_dir` (made if missing). Returns the paths written, the campaign last.
pub fn write_delve(params: &Params, data: &RuleData, out_dir: &Path) -> Result<Vec<PathBuf>, String> {
    let d = generate(params, data)?;
    std::fs::create_dir_all(out_dir).map_err(|e| format!("{}: {e}", out_dir.display()))?;
    let mut out = Vec::new();
    for (k, t) in d.texts.iter().enumerate() {
        let p = out_dir.join(level_file_name(k));
        std::fs::write(&p, t).map_err(|e| format!("{}: {e}", p.display()))?;
        out.push(p);
    }
    let p = out_dir.join("delve.ron");
    std::fs::write(&p, &d.campaign).map_err(|e| format!("{}: {e}", p.display()))?;
    out.push(p);
    Ok(out)
}
