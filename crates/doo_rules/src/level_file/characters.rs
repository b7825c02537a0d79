//! The characters of a level: each entry merged with its template, its required fields, id,
//! behaviour and sprite checked, and every problem the rules' match builder would find; then
//! their places on the map (one figure per space).

use super::assets::{read_template, safe_asset_path, templates_dir};
use super::format::{CharacterEntry, Level};
use super::found::{Found, clip, clip_message};
use crate::data::{MAX_ENTITIES, RuleData};
use crate::level::CharacterDef;
use crate::rules::grid::{Board, Pos, tile_name};
use std::collections::BTreeMap;
use std::path::Path;

/// The characters as checked: each with its place in the `characters` list, and the AI
/// behaviour and figure of those that name one.
pub(super) struct Cast {
    pub(super) chars: Vec<(usize, CharacterDef)>,
    pub(super) behaviours: BTreeMap<String, String>,
    pub(super) sprites: BTreeMap<String, String>,
    /// Issue 45: character id → his own orders (with his place in `characters`).
    pub(super) orders: BTreeMap<String, (usize, crate::rules::directives::Orders)>,
}

/// Characters: the count first; then templates, required fields, ids, numbers, equipment.
pub(super) fn check_characters(level: &Level, data: &RuleData, root: &Path, f: &mut Found) -> Cast {
    let places = f.places;
    let mut chars = Vec::new();
    let mut behaviours: BTreeMap<String, String> = BTreeMap::new();
    let mut sprites: BTreeMap<String, String> = BTreeMap::new();
    let mut orders = BTreeMap::new();
    if level.characters.len() > MAX_ENTITIES {
        f.key("characters", format!("{} characters; the most is {MAX_ENTITIES}", level.characters.len()));
    } else {
        let tdir = templates_dir(root);
        let mut templates: BTreeMap<&str, Result<CharacterEntry, String>> = BTreeMap::new();
        let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
        let base = level.profile.as_deref().map(|p| if p == data.a4.name { data.a4.base_profile.as_str() } else { p });
        let rules = data.profiles.ruleset(base, &level.options).or_else(|_| data.profiles.ruleset(None, &level.options));
        for (i, e) in level.characters.iter().enumerate() {
            if f.full() {
                f.problems.more += 1;
                continue;
            }
            let at = places.character(i);
            let merged = match &e.template {
                Some(t) => match templates.entry(t.as_str()).or_insert_with(|| read_template(&tdir, t)) {
                    Ok(tpl) => e.clone().over(tpl),
                    Err(m) => {
                        f.at(at, m.clone());
                        continue;
                    }
                },
                None => e.clone(),
            };
            let label = merged.id.as_deref().map_or_else(|| format!("#{}", i + 1), clip);
            check_looks(f, at, &label, &merged, data);
            let (Some(id), Some(side), Some(pos), Some(stats)) = (merged.id.clone(), merged.side.clone(), merged.pos, merged.stats) else {
                let missing: Vec<&str> =
                    [("id", merged.id.is_none()), ("side", merged.side.is_none()), ("pos", merged.pos.is_none()), ("stats", merged.stats.is_none())]
                        .iter()
                        .filter(|x| x.1)
                        .map(|x| x.0)
                        .collect();
                f.at(at, format!("character '{label}': missing {} (give them here or in a template)", missing.join(", ")));
                continue;
            };
            if let Some(p) = crate::data::id_problem(&id) {
                f.at(at, format!("character '{label}': {p}"));
                continue;
            }
            if let Some(prev) = seen.insert(id.clone(), i) {
                f.at(at, format!("character '{id}': the id is already used by character #{}", prev + 1));
            }
            let def = CharacterDef {
                id,
                name: merged.name,
                side,
                pos,
                stats,
                size: merged.size.unwrap_or_default(),
                free_steps: merged.free_steps,
                skills: merged.skills.unwrap_or_default(),
                abilities: merged.abilities.unwrap_or_default(),
                weapon: merged.weapon,
                weapon_skill: merged.weapon_skill,
                two_handed: merged.two_handed.unwrap_or(false),
                shield: merged.shield,
                armor: merged.armor,
                items: merged.items.unwrap_or_default(),
                caster: merged.caster.unwrap_or_default(),
                hp: merged.hp,
                posture: merged.posture,
                conditions: merged.conditions.unwrap_or_default(),
                mp: merged.mp,
                fp: merged.fp,
                surprised: merged.surprised.unwrap_or(false),
                ap_roll_bonus: merged.ap_roll_bonus.unwrap_or(0),
                mook: merged.mook.unwrap_or(false),
                ammo: merged.ammo,
                loaded: merged.loaded,
                spells: merged.spells.unwrap_or_default(),
                hero: merged.hero.unwrap_or(false),
                opens_doors: merged.opens_doors.unwrap_or(true),
            };
            // Every per-character problem the rules' match builder would find, at that character.
            if let Ok(rules) = &rules {
                if let Err(es) = crate::level::fighter_from_def(data, rules, &def) {
                    for e in es {
                        f.at(at, clip_message(&e));
                    }
                }
            }
            if let Some(b) = &merged.behaviour {
                behaviours.insert(def.id.clone(), b.clone());
            }
            if let Some(o) = &merged.orders {
                orders.insert(def.id.clone(), (i, o.clone()));
            }
            if let Some(s) = merged.sprite.clone().or_else(|| e.template.clone()) {
                sprites.insert(def.id.clone(), s);
            }
            chars.push((i, def));
        }
    }
    Cast { chars, behaviours, sprites, orders }
}

/// A character's behaviour and sprite, when he names them: known ones, inside `assets/`.
fn check_looks(f: &mut Found, at: (usize, usize), label: &str, merged: &CharacterEntry, data: &RuleData) {
    if let Some(b) = &merged.behaviour {
        if !data.ai.behaviours.contains_key(b) {
            f.at(at, format!("character '{label}': unknown behaviour '{}' (known, from assets/ai/behaviours.ron: {})", clip(b), data.ai.names().join(", ")));
        }
    }
    if let Some(s) = &merged.sprite {
        if !safe_asset_path(s) {
            f.at(at, format!("character '{label}': sprite '{}' must be a relative path inside assets/ (no '..', no absolute paths, no 'scheme:')", clip(s)));
        } else if !data.figures.known(s) {
            f.at(
                at,
                format!(
                    "character '{label}': sprite '{}' is neither a figure of assets/art/figures.ron ({}) nor a .png under assets/",
                    clip(s),
                    data.figures.kinds.join(", ")
                ),
            );
        }
    }
}

/// Places on the map: one figure per space (G-02).
pub(super) fn check_places(board: Option<&Board>, cast: &Cast, f: &mut Found) {
    let places = f.places;
    if let Some(b) = board {
        let mut taken: std::collections::HashMap<Pos, &str> = std::collections::HashMap::new();
        for (i, c) in &cast.chars {
            if f.full() {
                break;
            }
            if !b.walkable(c.pos) {
                let what = match b.tile(c.pos) {
                    None => "outside the map".to_string(),
                    Some(t) => format!("on {}", tile_name(t)),
                };
                f.at(places.character(*i), format!("character '{}': {} is {what}", c.id, c.pos));
            }
            if let Some(o) = taken.insert(c.pos, &c.id) {
                f.at(places.character(*i), format!("character '{}': {} is already taken by '{o}' (one figure per space, G-02)", c.id, c.pos));
            }
        }
    }
}
