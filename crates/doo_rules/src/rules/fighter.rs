//! Per-character state the engine needs (RULES.md Appendix C), split in the parts the ECS keeps
//! as separate components: action points, free steps, posture, adjustments, turn record.

use super::grid::Pos;
use super::profile::{Posture, Rank, Scope};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The four primary stats (R-STAT-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Stats {
    pub brawn: u32,
    pub finesse: u32,
    pub savvy: u32,
    pub nerve: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Size {
    Small,
    #[default]
    Medium,
    Large,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Caster {
    #[default]
    None,
    Arcane,
    Divine,
    /// Arcane and divine: both pools, spells of either tradition (R-MANA-1, R-MANA-2).
    Both,
}

impl Caster {
    /// Uses Mana (R-MANA-1).
    pub fn arcane(self) -> bool {
        matches!(self, Caster::Arcane | Caster::Both)
    }

    /// Uses Faith (R-MANA-1).
    pub fn divine(self) -> bool {
        matches!(self, Caster::Divine | Caster::Both)
    }

    /// Can cast spells of `tradition` (`arcane` or `divine`).
    pub fn casts(self, tradition: Caster) -> bool {
        match tradition {
            Caster::Arcane => self.arcane(),
            Caster::Divine => self.divine(),
            Caster::Both => self == Caster::Both,
            Caster::None => false,
        }
    }

    /// Reset step 4 without a standing choice (R-MANA-2): arcane Mana, divine Faith, both Mana.
    pub fn default_recovery(self) -> Option<Pool> {
        match self {
            Caster::Arcane | Caster::Both => Some(Pool::Mana),
            Caster::Divine => Some(Pool::Faith),
            Caster::None => None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Pool {
    Mana,
    Faith,
}

/// AP and AP_start (R-TURN-5, §0.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct ActionPoints {
    pub current: u32,
    /// AP received at reset step 5 of this turn (G-11: fixed then).
    pub start: u32,
}

/// Free-step allowance and whether they can still be used this turn (§6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct FreeSteps {
    pub allowance: u32,
    pub available: bool,
    /// Why they are not available, when known (names the rule in refusals).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lost: Option<FreeStepsLoss>,
}

/// Why a character has no free steps this turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FreeStepsLoss {
    /// Taken (the rest of the allowance forfeited): R-FS-3.
    Used,
    /// AP reached 0: R-FS-5.
    NoAp,
    /// Sat, knelt or went prone this turn: R-FS-9.
    LeftStanding,
    /// Not standing at reset step 5: R-FS-2.
    NotStandingAtReset,
    /// Stunned, incapacitated or otherwise unable to act: R-FS-9, G-13.
    UnableToAct,
}

impl FreeSteps {
    pub fn lose(&mut self, why: FreeStepsLoss) {
        self.available = false;
        self.lost = Some(why);
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AdjTarget {
    Defense,
    Attack,
}

/// A temporary adjustment (R-DEF-3/4, R-REACT-7), removed at reset step 2.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TempAdjustment {
    /// What caused it (a movement, action or reaction id, or `clean_miss`).
    pub source: String,
    pub target: AdjTarget,
    pub value: i32,
    #[serde(default = "scope_all")]
    pub scope: Scope,
}

fn yes() -> bool {
    true
}

fn scope_all() -> Scope {
    Scope::All
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum RoundStatus {
    /// Has not had an opportunity this round.
    #[default]
    Waiting,
    Acted,
    Passed,
}

/// What the character did this turn (R-ONLY-6, G-10) and this round (R-TURN-15).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct TurnRecord {
    /// Any movement, action, reflex or response this turn (free steps and passing do not count).
    pub did_anything: bool,
    pub took_only: bool,
    pub round: RoundStatus,
}

/// What happened in the opportunity in progress (R-AP-2, R-AP-3).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct OpportunityRecord {
    pub free_steps: bool,
    /// Id of the movement row taken.
    pub movement: Option<String>,
    /// Spaces of a Run taken (R-COMBO-3).
    pub ran: bool,
    pub action: Option<String>,
    /// AP paid on movement + action (R-AP-3).
    pub spent: u32,
}

impl OpportunityRecord {
    pub fn anything(&self) -> bool {
        self.free_steps || self.movement.is_some() || self.action.is_some()
    }
}

/// Condition durations (R-COND-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Duration {
    Temporary,
    Persistent,
    Permanent,
}

/// One condition on a character (R-COND-1): its class and, for persistent ones, the removal CR.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConditionInstance {
    pub id: String,
    pub duration: Duration,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub removal_cr: Option<i32>,
}

/// Equipped gear by id (data in `assets/equipment/`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Loadout {
    #[serde(default)]
    pub weapon: Option<String>,
    /// For dual-mode weapons: the skill used (R-ATK-13).
    #[serde(default)]
    pub weapon_skill: Option<String>,
    #[serde(default)]
    pub two_handed: bool,
    #[serde(default)]
    pub shield: Option<String>,
    #[serde(default)]
    pub armor: Option<String>,
    #[serde(default)]
    pub items: Vec<String>,
    /// A crossbow is loaded (weapons are ready at crisis start, G-22; R-RNG-8).
    #[serde(default = "yes")]
    pub loaded: bool,
    /// Shots or throws left for the ranged weapon; `None` when not counted (R-RNG-9, G-41).
    #[serde(default)]
    pub ammo: Option<u32>,
    /// Weapons dropped on a Critical Miss, and where (G-19, G-22).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dropped: Vec<(String, Pos)>,
}

/// Everything the rules read and change about one character.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Fighter {
    pub id: String,
    pub name: String,
    pub side: String,
    pub pos: Pos,
    pub stats: Stats,
    pub size: Size,
    pub skills: BTreeMap<String, Rank>,
    /// Legacy reflex abilities (`reflex_rules = legacy_ability`).
    pub abilities: Vec<String>,
    pub loadout: Loadout,
    pub caster: Caster,
    pub hp: i32,
    pub max_hp: i32,
    pub mp: i32,
    pub max_mp: i32,
    pub fp: i32,
    pub max_fp: i32,
    /// AP-roll adjustment from items (legacy Potion of the Zephyr +1, S-07).
    pub ap_roll_bonus: i32,
    pub ap: ActionPoints,
    pub free_steps: FreeSteps,
    pub posture: Posture,
    pub conditions: Vec<ConditionInstance>,
    pub adjustments: Vec<TempAdjustment>,
    pub turn: TurnRecord,
    pub opp: OpportunityRecord,
    /// Surprised at the opening reset (R-TURN-6).
    pub surprised: bool,
    /// Standing choice for reset step 4 (R-MANA-2).
    pub recovery: Option<Pool>,
    /// G-14: a minor monster that dies at 0 HP.
    pub mook: bool,
    /// Spells known.
    pub spells: Vec<String>,
    /// Not taking part in the crisis in progress (R-EXP-25): an inactive NPC of a crawl.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub dormant: bool,
    /// R-EXP-11: he opens and closes doors (`opens_doors: false` in his stat block: an animal).
    #[serde(default = "yes", skip_serializing_if = "is_yes")]
    pub opens_doors: bool,
}

fn is_yes(b: &bool) -> bool {
    *b
}

impl Fighter {
    pub fn has_condition(&self, id: &str) -> bool {
        self.conditions.iter().any(|c| c.id == id)
    }

    pub fn skill(&self, skill: &str) -> Rank {
        self.skills.get(skill).copied().unwrap_or(Rank::Untrained)
    }

    /// Sum of temporary adjustments to `target` that apply to an attack of `melee`-ness (R-DEF-4).
    pub fn temp_adjustment(&self, target: AdjTarget, melee: bool) -> i32 {
        self.adjustments.iter().filter(|a| a.target == target && (a.scope == Scope::All || melee)).map(|a| a.value).sum()
    }

    /// R-STAT-3 with the unmodified stats (G-37).
    pub fn derived_max(stats: &Stats, legacy_hp: bool) -> (i32, i32, i32) {
        let (b, s, n) = (stats.brawn as i32, stats.savvy as i32, stats.nerve as i32);
        let hp = if legacy_hp { (b + n / 2).max(n + b / 2) } else { b + n / 2 };
        (hp, s + n / 2, n + s / 2)
    }
}
