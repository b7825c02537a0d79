//! Between levels: CP spent on the hero's sheet (R-CP-11), by the player or the AI, and gear
//! bought from his purse (R-CP-12).

use super::caps::MAX_ITEMS;
use super::hero::Hero;
use crate::data::RuleData;
use crate::rules::heroes::{self, HeroBook, Purchase};
use crate::rules::violation::Violation;

/// The AI's (and the "spend for me" button's) choice of what to buy with banked CP: the weapon
/// skill's next rank, then the weapon's stat, then Dodge, while anything is affordable.
pub fn auto_spend(h: &mut Hero, data: &RuleData) -> Vec<(Purchase, u32)> {
    let book = &data.heroes;
    let mut out = Vec::new();
    for _ in 0..64 {
        let Ok((sheet, banked)) = h.sheet(book) else { break };
        let (skill, stat) = h
            .weapon
            .as_ref()
            .and_then(|w| {
                data.equipment
                    .melee(w)
                    .map(|x| (x.modes[0].skill.clone(), x.modes[0].check))
                    .or_else(|| data.equipment.ranged(w).map(|x| (x.skill.clone(), crate::rules::equipment::Stat::Finesse)))
            })
            .unwrap_or(("brawling".into(), crate::rules::equipment::Stat::Brawn));
        let wishes = [Purchase::Skill(skill), Purchase::Stat(stat), Purchase::Skill("dodge".into())];
        let Some(p) = wishes.into_iter().find(|p| book.price(&sheet, p).is_ok_and(|c| c > 0 && c <= banked)) else { break };
        match spend(h, p.clone(), book) {
            Ok(cost) => out.push((p, cost)),
            Err(_) => break,
        }
    }
    out
}

/// Choice: between levels a hero may buy gear from his purse at the data's costs (the money he
/// carries is kept, R-CP-12): a weapon, a shield or armor (replacing what he has) or an item. A
/// ranged weapon comes with the starting shots. Returns the cost.
pub fn buy_gear(h: &mut Hero, id: &str, data: &RuleData) -> Result<u32, String> {
    let eq = &data.equipment;
    let cost = if let Some(w) = eq.melee(id) {
        w.cost
    } else if let Some(w) = eq.ranged(id) {
        w.cost
    } else if let Some(s) = eq.shield(id) {
        s.cost
    } else if let Some(a) = eq.armor(id) {
        a.cost
    } else if let Some(i) = eq.item(id) {
        i.cost.ok_or_else(|| format!("'{id}' is not for sale"))?
    } else {
        return Err(format!("unknown gear '{id}'"));
    };
    if cost > h.purse {
        return Err(format!("{} costs ${cost}; {} has ${}.", id.replace('_', " "), h.name, h.purse));
    }
    if eq.melee(id).is_some() || eq.ranged(id).is_some() {
        h.weapon = Some(id.to_string());
        h.weapon_skill = None;
        h.ammo = eq.ranged(id).map(|_| data.heroes.starting_ammo);
    } else if eq.shield(id).is_some() {
        h.shield = Some(id.to_string());
    } else if eq.armor(id).is_some() {
        h.armor = Some(id.to_string());
    } else {
        if h.items.len() >= MAX_ITEMS {
            return Err(format!("{} carries {MAX_ITEMS} items already.", h.name));
        }
        h.items.push(id.to_string());
    }
    h.purse -= cost;
    Ok(cost)
}

/// The AI's choice of a weapon for a hero who lost his (broken in a fight): the affordable
/// melee weapon of his best weapon skill, the cheapest of those.
pub fn rearm(h: &mut Hero, data: &RuleData) -> Option<(String, u32)> {
    if h.weapon.is_some() {
        return None;
    }
    let (sheet, _) = h.sheet(&data.heroes).ok()?;
    // the best weapon of his best weapon skill that he can afford and wield one-handed
    let best = data
        .equipment
        .melee
        .iter()
        .filter(|w| w.cost <= h.purse && !w.small_improvised && w.modes[0].one_hand_brawn <= sheet.stats.brawn)
        .max_by_key(|w| (sheet.rank(&w.modes[0].skill), w.cost))?
        .id
        .clone();
    buy_gear(h, &best, data).ok().map(|c| (best, c))
}

/// Buys `p` for the hero if the rules allow it (R-CP-11); refused with the rule otherwise.
pub fn spend(h: &mut Hero, p: Purchase, book: &HeroBook) -> Result<u32, Violation> {
    let (mut sheet, banked) = h.sheet(book)?;
    let max_hp_before = heroes::pools(&sheet.stats).0;
    let cost = heroes::buy(book, &mut sheet, banked, &p)?;
    h.bought.push(p);
    // R-CP-11: a stat rise that raises max HP raises the current HP as much.
    let max_hp_after = heroes::pools(&sheet.stats).0;
    if let Some(hp) = h.hp {
        let now = hp + (max_hp_after - max_hp_before);
        h.hp = (now < max_hp_after).then_some(now);
    }
    Ok(cost)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::campaign::{sample_hero, shipped};

    #[test] // R-CP-12: money carries over and buys gear between levels; a hero who lost his weapon
    // is rearmed with the best affordable weapon of his skills
    fn the_purse_buys_gear_between_levels() {
        let (data, _) = shipped();
        let mut h = sample_hero("Ann", "warrior", &data).unwrap();
        let purse = h.purse;
        assert!(buy_gear(&mut h, "greatsword", &data).unwrap_err().contains("costs $75"), "the purse is ${purse}");
        assert_eq!(buy_gear(&mut h, "torch", &data).unwrap(), 1);
        assert_eq!(h.purse, purse - 1);
        assert!(buy_gear(&mut h, "gold_coins", &data).unwrap_err().contains("not for sale"));
        h.weapon = None;
        let (w, c) = rearm(&mut h, &data).expect("rearmed");
        assert_eq!(h.weapon.as_deref(), Some(w.as_str()));
        // his Journeyman skill is swords (the sample warrior): a sword he can afford
        assert!(data.equipment.melee(&w).unwrap().modes[0].skill == "swords", "{w}");
        assert_eq!(h.purse, purse - 1 - c);
    }

    #[test] // R-CP-11: a stat rise that raises max HP raises the current HP as much; CP are spent
    // only when banked
    fn a_stat_rise_raises_current_hp() {
        let (data, _) = shipped();
        let mut h = sample_hero("Ann", "warrior", &data).unwrap();
        h.cp_earned = 3;
        h.hp = Some(4);
        let max = heroes::pools(&h.sheet(&data.heroes).unwrap().0.stats).0;
        assert_eq!(spend(&mut h, Purchase::Stat(crate::rules::equipment::Stat::Brawn), &data.heroes).unwrap(), 3, "Brawn 9 -> 10 costs 3");
        assert_eq!(heroes::pools(&h.sheet(&data.heroes).unwrap().0.stats).0, max + 1);
        assert_eq!(h.hp, Some(5));
        let e = spend(&mut h, Purchase::Skill("healing".into()), &data.heroes).unwrap_err();
        assert_eq!(e.rule, "R-CP-11");
        assert_eq!(h.bought.len(), 1, "a refused purchase is not recorded");
    }
}
