//! The numbers of ruleset A4 (`assets/rules/a4.ron`), read once and shared by every A4 match.
//! Each field names the rule (`A4-x.y`) and the gap decision (`A4-G-nn`, docs/ruleset-a4.md)
//! it carries, so a group can change them without touching code.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct A4Book {
    /// The name levels and scripts pick it by (`profile: "A4"`).
    pub name: String,
    pub description: String,
    /// The DoO profile whose tables A4 borrows (equipment, conditions, healing; A4-8).
    pub base_profile: String,
    /// A4-1.1.
    pub time: Time,
    pub pools: Pools,
    pub movement: Movement,
    pub actions: Actions,
    pub threat: Threat,
    pub initiative: Initiative,
    pub reactive_defense: ReactiveDefense,
    pub full_defense: FullDefense,
    /// A4-6.5, A4-G-33.
    pub moving_defense: MovingDefense,
    /// A4-3.16, A4-G-18: the triggers a figure may hold its action for.
    pub hold: Hold,
    pub tn: TargetNumbers,
    pub damage: Damage,
    /// A4-G-35: armor by equipment id.
    pub armor: BTreeMap<String, ArmorRow>,
    /// Skills of ranged weapons whose shots do not provoke (A4-G-23).
    #[serde(default)]
    pub non_provoking_skills: Vec<String>,
}

/// A4-1.1: a round's length (a crawl's clock moves on by the rounds a crisis took, A4-G-39).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Time {
    pub seconds_per_round: u32,
}

/// A4-6.5, A4-G-33: a ranged-only defense thrown while moving part of the speed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MovingDefense {
    pub skill: String,
    pub speed_percent: u32,
}

/// A4-3.16, A4-G-18.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Hold {
    pub triggers: Vec<Trigger>,
}

/// What a held action waits for (A4-G-18).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Trigger {
    /// An enemy enters a square the holder could strike in melee.
    EnemyEntersReach,
    /// An enemy enters a square within the base range of the holder's ranged weapon, in sight
    /// (the shooter of A4-4.3).
    EnemyEntersRange,
}

impl Trigger {
    pub fn describe(self) -> &'static str {
        match self {
            Trigger::EnemyEntersReach => "an enemy entering its reach",
            Trigger::EnemyEntersRange => "an enemy entering its weapon's base range",
        }
    }
}

/// A4-6.2, A4-G-29, A4-G-31.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pools {
    pub die: u32,
    pub pips_per_die: i32,
    pub min_action_dice: i32,
    /// The most dice one pool throws (a cap checked before any roll or odds sum).
    pub max_dice: i32,
    /// A4-G-12: "Great" is a pool of at least this many dice.
    pub great_dice: i32,
    pub pips_per_stat: i32,
    pub rank_pips_per_point: i32,
    pub skills: BTreeMap<String, SkillDef>,
    pub brawn_deficit_pips: i32,
}

/// How a named A4 skill is counted from our stats and ranks (A4-G-29).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SkillDef {
    pub stats: Vec<StatRef>,
    pub ranks: Vec<RankRef>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StatRef {
    Brawn,
    Finesse,
    Savvy,
    Nerve,
    /// The ready weapon's check stat (unarmed: Brawn).
    WeaponCheck,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RankRef {
    /// The ready weapon's skill (unarmed: brawling).
    WeaponSkill,
    Skill(String),
}

/// A4-1.3, A4-G-02, A4-G-03, A4-G-08, A4-G-15.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Movement {
    pub base: u32,
    pub small: u32,
    pub large: u32,
    pub min: u32,
    pub athletics_bonus: Vec<AthleticsBonus>,
    pub run_times: u32,
    pub charge_times: u32,
    pub withdraw_times: u32,
    pub full_defense_percent: u32,
    pub charge_min: u32,
    pub charge_attack_dice: i32,
    pub charged_tn: i32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AthleticsBonus {
    pub min_dice: i32,
    pub squares: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum Slot {
    Standard,
    Move,
    Minor,
}

impl Slot {
    pub fn name(self) -> &'static str {
        match self {
            Slot::Standard => "standard",
            Slot::Move => "move",
            Slot::Minor => "minor",
        }
    }
}

/// When an act draws attacks of opportunity (A4-4.1, A4-G-23).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Provokes {
    Never,
    /// Before it is done, from every figure threatening the actor's square.
    Always,
    /// Each step out of a threatened square.
    Movement,
    /// A bow, crossbow or sling shot made while threatened.
    RangedShot,
}

/// A4-2, A4-G-04, A4-G-05, A4-G-06.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Actions {
    pub penalty_free_count: u32,
    pub extra_action_penalty_dice: i32,
    /// Slots a minor action may be taken from when the minor slot is used (A4-G-06).
    pub minor_from: Vec<Slot>,
    pub full_attack: Vec<FullAttackRow>,
    /// A4-3.18: the longest thing a figure may say in one act.
    pub speak_max_chars: u32,
    pub rows: Vec<ActRow>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FullAttackRow {
    pub min_attack_dice: i32,
    pub attacks: u32,
    pub penalty_dice: i32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActRow {
    pub id: String,
    pub rule: String,
    pub uses: Vec<Slot>,
    pub counts: u32,
    pub provokes: Provokes,
    #[serde(default = "yes")]
    pub enabled: bool,
}

fn yes() -> bool {
    true
}

/// A4-4, A4-G-16, A4-G-22, A4-G-24.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Threat {
    pub unarmed_reach: Vec<u32>,
    pub aoo_per_round: u32,
    pub withdraw_start_safe: bool,
}

/// A4-5.1, A4-G-25.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Initiative {
    pub die: u32,
    pub skill: String,
}

/// A4-3.21, A4-G-21.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReactiveDefense {
    pub first_dice: i32,
    pub further_dice: i32,
    pub own_penalty_dice: i32,
    pub min_dice: i32,
}

/// A4-3.12, A4-G-15.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FullDefense {
    pub skill: String,
}

/// A4-G-30, A4-G-13, A4-G-36, A4-G-37.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TargetNumbers {
    pub melee: i32,
    pub ranged: Vec<RangeBand>,
    pub partial_sight: i32,
    pub minimal_sight: i32,
    pub shield_per_defense_point: i32,
    pub prone: ProneTn,
    pub into_melee: i32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RangeBand {
    pub up_to_base_times: u32,
    pub tn: i32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProneTn {
    pub own_melee: i32,
    pub own_ranged: i32,
    pub target_melee: i32,
    pub target_ranged: i32,
}

/// A4-6.6, A4-G-34.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Damage {
    pub bands: Vec<Band>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Band {
    pub name: String,
    pub min_margin: i32,
    pub bonus: i32,
    pub half_soak: bool,
}

/// A4-G-35.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArmorRow {
    pub soak: i32,
    pub athletics_dice: i32,
    pub speed: i32,
}

impl A4Book {
    pub fn row(&self, id: &str) -> Option<&ActRow> {
        self.actions.rows.iter().find(|r| r.id == id)
    }

    /// The band of a margin ≥ 0 (the highest whose minimum it reaches).
    pub fn band(&self, margin: i32) -> Option<&Band> {
        self.damage.bands.iter().filter(|b| margin >= b.min_margin).max_by_key(|b| b.min_margin)
    }

    /// Problems a group's edited file would cause at play (checked on load).
    pub fn check(&self) -> Result<(), String> {
        let mut bad = Vec::new();
        if self.pools.die < 2 || self.pools.pips_per_die < 1 {
            bad.push("pools: die must be at least 2 and pips_per_die at least 1".to_string());
        }
        if !(1..=40).contains(&self.pools.max_dice) {
            bad.push("pools.max_dice must be 1 to 40 (the odds are exact sums)".into());
        }
        for s in ["melee_attack", "ranged_attack", "athletics", "defense_melee", "defense_ranged", "courage"] {
            if !self.pools.skills.contains_key(s) {
                bad.push(format!("pools.skills has no '{s}'"));
            }
        }
        for s in [&self.initiative.skill, &self.full_defense.skill, &self.moving_defense.skill] {
            if !self.pools.skills.contains_key(s) {
                bad.push(format!("the skill '{s}' is not in pools.skills"));
            }
        }
        for id in [
            "attack",
            "charge",
            "move",
            "run",
            "stand_up",
            "drop_prone",
            "full_defense",
            "withdraw",
            "full_attack",
            "delay",
            "step",
            "reload_hand",
            "reload_crank",
            "end_turn",
            "hold",
            "moving_defense",
            "draw",
            "draw_great",
            "stabilize",
            "mount",
            "speak",
            "door",
            "take",
            "drop",
            "use_item",
            "cast_spell",
        ] {
            if self.row(id).is_none() {
                bad.push(format!("actions.rows has no '{id}'"));
            }
        }
        if self.damage.bands.first().is_none_or(|b| b.min_margin != 0) {
            bad.push("damage.bands must start at min_margin 0".into());
        }
        if self.tn.ranged.is_empty() {
            bad.push("tn.ranged needs at least one band".into());
        }
        if !(1..=3600).contains(&self.time.seconds_per_round) {
            bad.push("time.seconds_per_round must be 1 to 3600".into());
        }
        if !(1..=100).contains(&self.moving_defense.speed_percent) {
            bad.push("moving_defense.speed_percent must be 1 to 100".into());
        }
        if !(1..=1000).contains(&self.actions.speak_max_chars) {
            bad.push("actions.speak_max_chars must be 1 to 1000".into());
        }
        if self.actions.full_attack.is_empty() {
            bad.push("actions.full_attack needs at least one row".into());
        }
        if bad.is_empty() { Ok(()) } else { Err(bad.join("; ")) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test] // A4-8: the A4 numbers load from data and pass their own checks
    fn builtin_book_loads_and_checks() {
        let b = A4Book::builtin();
        assert_eq!(b.name, "A4");
        b.check().unwrap();
        assert_eq!(b.row("charge").map(|r| r.uses.len()), Some(3));
        // A4-G-34: the band edges
        let band = |m| b.band(m).map(|x| x.name.clone()).unwrap();
        assert_eq!(
            [band(0), band(4), band(5), band(9), band(10), band(14), band(15), band(40)],
            ["partial", "partial", "full", "full", "high", "high", "extraordinary", "extraordinary"]
        );
    }
}
