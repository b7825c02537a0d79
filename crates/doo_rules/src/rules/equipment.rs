//! Weapons, armor, shields and items as data (§16, §17), loaded from `assets/equipment/*.ron`,
//! whose values are taken from `shared/rules/data/*.yml`.

use super::fighter::Fighter;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stat {
    Brawn,
    Finesse,
    Savvy,
    Nerve,
}

/// `NdR`, e.g. `(1, 8)` for 1d8.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DiceSpec(pub u32, pub u32);

/// One way of using a melee weapon (R-ATK-13: shortsword and dagger have two).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MeleeMode {
    pub check: Stat,
    /// Skill id, e.g. `swords`, `fencing`.
    pub skill: String,
    /// Distances at which it can attack (R-ATK-10).
    pub reach: Vec<u32>,
    pub one_hand_brawn: u32,
    /// `None`: cannot be used two-handed.
    pub two_hand_brawn: Option<u32>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MeleeWeapon {
    pub id: String,
    pub name: String,
    pub modes: Vec<MeleeMode>,
    pub damage: DiceSpec,
    pub size: u32,
    pub cost: u32,
    /// Improvised weapons: Attack-check adjustment (R-GEAR-9, torch −1).
    #[serde(default)]
    pub attack_adj: i32,
    /// Improvised weapons: damage adjustment.
    #[serde(default)]
    pub damage_adj: i32,
    /// Small improvised weapons (mug, rock, coins): unarmed damage +1 per full 5 Brawn (R-ATK-11).
    #[serde(default)]
    pub small_improvised: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RangedWeapon {
    pub id: String,
    pub name: String,
    pub skill: String,
    /// Base range B in spaces (R-RNG-3).
    pub range: u32,
    /// Range limit multiplier (×8 → 8).
    pub limit: u32,
    pub hands: u32,
    /// Brawn minimum to shoot accurately (R-RNG-7).
    pub brawn: u32,
    /// Crossbows: Brawn minimum to reset by hand (R-RNG-8).
    #[serde(default)]
    pub hand_reload_brawn: Option<u32>,
    pub damage: DiceSpec,
    pub size: u32,
    pub cost: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Armor {
    pub id: String,
    pub name: String,
    pub category: String,
    /// Damage reduction (positive number).
    pub reduction: i32,
    pub brawn: u32,
    pub core: bool,
    pub size_body: u32,
    pub size_helm: u32,
    pub cost: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Shield {
    pub id: String,
    pub name: String,
    pub defense: i32,
    pub brawn: u32,
    pub spell: i32,
    pub size: u32,
    pub cost: u32,
}

/// Consumables and devices (Use Item or Device).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Item {
    pub id: String,
    pub name: String,
    /// HP healed (Potion of Healing 1d6, G-25).
    #[serde(default)]
    pub heals: Option<DiceSpec>,
    #[serde(default)]
    pub consumable: bool,
    #[serde(default)]
    pub description: String,
    /// Price in $ when bought as starting gear (R-CP-14); `None`: not for sale.
    #[serde(default)]
    pub cost: Option<u32>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct EquipmentBook {
    pub melee: Vec<MeleeWeapon>,
    pub ranged: Vec<RangedWeapon>,
    pub armor: Vec<Armor>,
    pub shields: Vec<Shield>,
    #[serde(default)]
    pub items: Vec<Item>,
}

/// The weapon a character attacks with, resolved from its loadout.
#[derive(Clone, Debug, PartialEq)]
pub enum Wielded<'a> {
    Unarmed,
    Melee(&'a MeleeWeapon, &'a MeleeMode),
    Ranged(&'a RangedWeapon),
}

impl Wielded<'_> {
    pub fn is_melee(&self) -> bool {
        !matches!(self, Wielded::Ranged(_))
    }
    /// Skill id used with it (unarmed: brawling, G-33).
    pub fn skill(&self) -> &str {
        match self {
            Wielded::Unarmed => "brawling",
            Wielded::Melee(_, m) => &m.skill,
            Wielded::Ranged(r) => &r.skill,
        }
    }
    pub fn check_stat(&self) -> Stat {
        match self {
            Wielded::Unarmed => Stat::Brawn,
            Wielded::Melee(_, m) => m.check,
            Wielded::Ranged(_) => Stat::Finesse,
        }
    }
    /// R-ATK-10 / R-ATK-11 / R-RNG-4,5: can it reach a target `d` spaces away?
    pub fn reaches(&self, d: u32) -> bool {
        match self {
            Wielded::Unarmed => d <= 1,
            Wielded::Melee(_, m) => m.reach.contains(&d),
            Wielded::Ranged(r) => d >= 1 && d <= r.range * r.limit,
        }
    }
}

impl EquipmentBook {
    pub fn melee(&self, id: &str) -> Option<&MeleeWeapon> {
        self.melee.iter().find(|w| w.id == id)
    }
    pub fn ranged(&self, id: &str) -> Option<&RangedWeapon> {
        self.ranged.iter().find(|w| w.id == id)
    }
    pub fn armor(&self, id: &str) -> Option<&Armor> {
        self.armor.iter().find(|w| w.id == id)
    }
    pub fn shield(&self, id: &str) -> Option<&Shield> {
        self.shields.iter().find(|w| w.id == id)
    }
    pub fn item(&self, id: &str) -> Option<&Item> {
        self.items.iter().find(|w| w.id == id)
    }
    /// The price of a weapon, shield or armor (not of an item).
    pub fn gear_cost(&self, id: &str) -> Option<u32> {
        self.melee(id)
            .map(|x| x.cost)
            .or_else(|| self.ranged(id).map(|x| x.cost))
            .or_else(|| self.shield(id).map(|x| x.cost))
            .or_else(|| self.armor(id).map(|x| x.cost))
    }
    /// True when `id` names any equipment entry.
    pub fn knows(&self, id: &str) -> bool {
        self.melee(id).is_some() || self.ranged(id).is_some() || self.armor(id).is_some() || self.shield(id).is_some() || self.item(id).is_some()
    }

    /// The ready weapon; a melee weapon's mode is the loadout's `weapon_skill` or its first mode.
    pub fn wielded<'a>(&'a self, f: &Fighter) -> Wielded<'a> {
        let Some(id) = f.loadout.weapon.as_deref() else { return Wielded::Unarmed };
        if let Some(w) = self.melee(id) {
            let mode = f.loadout.weapon_skill.as_deref().and_then(|s| w.modes.iter().find(|m| m.skill == s)).or_else(|| w.modes.first());
            return mode.map_or(Wielded::Unarmed, |m| Wielded::Melee(w, m));
        }
        self.ranged(id).map_or(Wielded::Unarmed, Wielded::Ranged)
    }

    /// R-GEAR-6: armor Brawn-minimum deficit (unmodified Brawn, G-37).
    pub fn armor_deficit(&self, f: &Fighter) -> u32 {
        f.loadout.armor.as_deref().and_then(|a| self.armor(a)).map_or(0, |a| a.brawn.saturating_sub(f.stats.brawn))
    }

    /// Current (modified) Finesse die rank: armor deficit lowers it, never below 1 (R-GEAR-6, R-DICE-7).
    pub fn finesse_rank(&self, f: &Fighter) -> u32 {
        f.stats.finesse.saturating_sub(self.armor_deficit(f)).max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test] // R-GEAR-1, R-RNG-2, R-GEAR-5, R-GEAR-7: the tables load with the rule book's values
    fn builtin_equipment_values() {
        let e = EquipmentBook::builtin();
        let axe = e.melee("broad_axe").expect("broad axe");
        assert_eq!(axe.damage, DiceSpec(1, 8));
        assert_eq!(axe.modes[0].one_hand_brawn, 8);
        assert_eq!(e.melee("dagger").map(|d| d.modes.len()), Some(2));
        assert_eq!(e.ranged("shortbow").map(|b| b.range * b.limit), Some(48));
        assert_eq!(e.ranged("crossbow").and_then(|b| b.hand_reload_brawn), Some(8));
        assert_eq!(e.armor("chainmail").map(|a| a.reduction), Some(3));
        assert_eq!(e.shield("tower").map(|s| s.defense), Some(4));
        assert!(e.item("potion_of_healing").and_then(|p| p.heals).is_some());
    }
}
