//! What a delve furnishes its floors with: the party (from `heroes/`), the monsters (from
//! `assets/monsters/`, each with a cost from its stats), the party's strength, and the loot
//! table (`assets/rules/delve.ron`) scaled to depth.

use super::params::Params;
use crate::data::RuleData;
use crate::level_file::CharacterEntry;
use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use std::path::Path;

/// The party's figures (positions to be set) and their strength.
pub(super) struct Party {
    pub entries: Vec<CharacterEntry>,
    /// The sum of the heroes' stats.
    pub strength: u32,
}

/// Reads the heroes of the party from `root/heroes/<id>.ron`.
pub(super) fn party(params: &Params, data: &RuleData) -> Result<Party, String> {
    let mut entries = Vec::new();
    let mut strength = 0;
    for id in &params.party {
        let path = params.root.join("heroes").join(format!("{id}.ron"));
        let (hero, sheet, _) =
            crate::campaign::load_hero(&path, data, data.heroes.allowance).map_err(|e| format!("{}:{}:{}: {}", e.file, e.line, e.col, e.message))?;
        strength += sheet_strength(&sheet);
        entries.push(hero.entry(&sheet, "heroes", crate::rules::Pos::new(0, 0), data));
    }
    Ok(Party { entries, strength: params.strength.unwrap_or(strength) })
}

/// One hero's strength: his four stats summed.
fn sheet_strength(sheet: &crate::rules::heroes::Sheet) -> u32 {
    let s = sheet.stats;
    s.brawn + s.finesse + s.savvy + s.nerve
}

/// The strength of a party of heroes (their sheets' four stats summed), for `Params::strength`:
/// a hero whose sheet the rules refuse counts nothing. At most `MAX_STRENGTH`.
pub fn party_strength(heroes: &[crate::campaign::Hero], data: &RuleData) -> u32 {
    let sum: u32 = heroes.iter().filter_map(|h| h.sheet(&data.heroes).ok()).map(|(s, _)| sheet_strength(&s)).sum();
    sum.clamp(1, super::params::MAX_STRENGTH)
}

/// A monster template and its cost.
pub(super) struct Beast {
    pub template: String,
    pub cost: u32,
    pub ranged: bool,
}

/// The monster templates of `assets/monsters/`, cheapest first (the boss apart).
pub(super) struct Bestiary {
    pub beasts: Vec<Beast>,
    pub boss: Beast,
}

impl Bestiary {
    /// Reads the templates the generator uses (each must exist and parse).
    pub fn load(root: &Path, boss: &str) -> Result<Bestiary, String> {
        let dir = crate::level_file::templates_dir(root);
        let read = |t: &str| -> Result<Beast, String> {
            let e = crate::level_file::read_template(&dir, t)?;
            let s = e.stats.ok_or_else(|| format!("template '{t}' has no stats"))?;
            let base = s.brawn + s.finesse + s.nerve;
            let tough = if e.mook == Some(true) { 1 } else { 2 };
            let ranged = matches!(e.weapon.as_deref(), Some("shortbow" | "sling" | "hunting_bow" | "crossbow"));
            Ok(Beast { template: t.to_string(), cost: base * tough, ranged })
        };
        let mut beasts = Vec::new();
        for t in ["kobold", "goblin", "goblin_archer", "skeleton", "orc", "hobgoblin"] {
            beasts.push(read(t)?);
        }
        beasts.sort_by_key(|b| (b.cost, b.template.clone()));
        Ok(Bestiary { beasts, boss: read(boss)? })
    }

    /// A group spending at most `budget` (at least one figure): cheaper beasts on the upper
    /// floors, the dearer ones deeper.
    pub fn group(&self, rng: &mut ChaCha8Rng, mut budget: u32, depth: u32, most: usize) -> Vec<&Beast> {
        let reach = (3 + depth as usize).min(self.beasts.len());
        let mut out = Vec::new();
        while out.len() < most {
            let affordable: Vec<&Beast> = self.beasts[..reach].iter().filter(|b| b.cost <= budget).collect();
            if affordable.is_empty() {
                break;
            }
            let b = affordable[rng.random_range(0..affordable.len())];
            budget -= b.cost;
            out.push(b);
        }
        if out.is_empty() {
            out.push(&self.beasts[0]);
        }
        out
    }
}

/// Loot for a chest on floor `depth` (0 the first) from the book's table: more and better
/// deeper.
pub(super) fn loot(rng: &mut ChaCha8Rng, table: &[(String, u32, u32)], depth: u32, treasure: bool) -> Vec<String> {
    let n = 1 + rng.random_range(0..=1 + depth.min(3)) + if treasure { 2 } else { 0 };
    let total: u32 = table.iter().map(|(_, w, d)| w + d * depth).sum();
    let mut out = Vec::new();
    for _ in 0..n {
        let mut pick = rng.random_range(0..total.max(1));
        for (item, w, d) in table {
            let w = w + d * depth;
            if pick < w {
                out.push(item.clone());
                break;
            }
            pick -= w;
        }
    }
    if treasure && !out.iter().any(|i| i == "gemstone" || i == "silver_chalice") {
        out.push("gemstone".into());
    }
    out
}
