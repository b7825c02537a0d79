//! The hero as the rules build him, as JSON (`doo hero show`, and each hero after each level in
//! `doo campaign simulate` / `doo campaign run`): stats, skills with ranks, owned sets, CP
//! banked and earned, HP, MP and FP with their maxima, gear, caster traditions and spells.

use super::hero::Hero;
use crate::data::RuleData;
use crate::rules::heroes;
use crate::rules::profile::Rank;
use crate::rules::violation::Violation;
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// R-CP-1: the hero record as the rules rebuild it from his file (the making, then every
/// purchase, R-CP-2/4/11, sets ranked up, R-CP-8). His pools are full, as at a level's start
/// (R-CP-12, R-CP-15); HP are his file's (absent: full). Refused with the rule when the rules
/// cannot build him.
pub fn hero_json(h: &Hero, data: &RuleData) -> Result<Value, Violation> {
    let (sheet, banked) = h.sheet(&data.heroes)?;
    let caster = heroes::caster_of(&data.heroes, &sheet);
    let (max_hp, max_mp, max_fp) = heroes::caster_pools(&sheet.stats, caster);
    let skills: BTreeMap<&String, Rank> = sheet.skills.iter().filter(|(_, r)| **r > Rank::Untrained).map(|(k, r)| (k, *r)).collect();
    let traditions: Vec<&str> = [(caster.arcane(), "arcane"), (caster.divine(), "divine")].into_iter().filter(|x| x.0).map(|x| x.1).collect();
    Ok(json!({
        "name": h.name,
        "id": h.id(),
        "size": h.size,
        "package": sheet.package,
        "stats": sheet.stats,
        "skills": skills,
        "sets": sheet.sets,
        "cp_banked": banked,
        "cp_earned": h.cp_earned,
        "bought": h.bought,
        "hp": h.hp.unwrap_or(max_hp),
        "max_hp": max_hp,
        "mp": max_mp,
        "max_mp": max_mp,
        "fp": max_fp,
        "max_fp": max_fp,
        "caster": traditions,
        "spells": heroes::known_spells(caster, &data.spells),
        "weapon": h.weapon,
        "weapon_skill": h.weapon_skill,
        "shield": h.shield,
        "armor": h.armor,
        "items": h.items,
        "ammo": h.ammo,
        "light": h.light,
        "purse": h.purse,
        "conditions": h.conditions,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::campaign::{sample_hero, shipped};
    use crate::rules::heroes::Purchase;

    #[test] // R-CP-15 (G-85): a hero with Wizardry is an arcane caster (max MP = Savvy + Nerve/2)
    // knowing Firebolt and Entangle; Faith bought between levels makes him a divine caster too
    // (max FP = Nerve + Savvy/2, Healing Word); without either he has no pools (R-MANA-1)
    fn wizardry_and_faith_make_casters() {
        let (data, _) = shipped();
        let w = super::super::hero::check_hero(
            "w.ron",
            &std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/campaigns/heroes/wren.ron")).unwrap(),
            &data,
            None,
        )
        .unwrap()
        .0;
        let j = hero_json(&w, &data).unwrap();
        // Wren: savvy 9, nerve 7 → MP 9 + 3 = 12
        assert_eq!(j["caster"], json!(["arcane"]));
        assert_eq!((j["max_mp"].as_i64(), j["mp"].as_i64(), j["max_fp"].as_i64()), (Some(12), Some(12), Some(0)));
        assert_eq!(j["spells"], json!(["firebolt", "entangle"]));
        let mut both = w.clone();
        both.cp_earned = 1;
        crate::campaign::spend(&mut both, Purchase::Skill("faith".into()), &data.heroes).unwrap();
        let j = hero_json(&both, &data).unwrap();
        assert_eq!(j["caster"], json!(["arcane", "divine"]));
        assert_eq!(j["max_fp"].as_i64(), Some(7 + 4), "FP = Nerve + floor(Savvy / 2)");
        assert_eq!(j["spells"], json!(["firebolt", "healing_word", "entangle"]));
        let plain = hero_json(&sample_hero("Ann", "warrior", &data).unwrap(), &data).unwrap();
        assert_eq!((plain["caster"].clone(), plain["max_mp"].as_i64(), plain["spells"].clone()), (json!([]), Some(0), json!([])));
    }
}
