//! Profiles and option flags (§0.3, §22.2/22.3) and the movement, action and reaction tables
//! (§8, §9, §11) as data. Code branches on named options and row fields, never on profile names.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

macro_rules! options {
    ($( $(#[$m:meta])* $field:ident : $ty:ty ),* $(,)?) => {
        /// The option flags of RULES.md §22.2, all explicit in every profile.
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        #[serde(deny_unknown_fields)]
        pub struct Options { $( $(#[$m])* pub $field: $ty, )* }

        /// A partial set of option flags that overrides a profile's (scripts, levels).
        #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
        #[serde(deny_unknown_fields)]
        pub struct OptionOverrides { $( #[serde(default, skip_serializing_if = "Option::is_none")] pub $field: Option<$ty>, )* }

        impl Options {
            pub fn apply(&mut self, o: &OptionOverrides) {
                $( if let Some(v) = &o.$field { self.$field = v.clone(); } )*
            }
        }
    };
}

macro_rules! flag_enum {
    ($name:ident { $($variant:ident),* $(,)? }) => {
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
        #[serde(rename_all = "snake_case")]
        pub enum $name { $($variant),* }
    };
}

flag_enum!(RunPenalty { PerAp, Flat3 });
flag_enum!(FreestepCombo { Core, Legacy });
flag_enum!(RunThen2apAttack { Forbidden, Allowed });
flag_enum!(MovementCombo { Any, AttacksOnly });
flag_enum!(ReflexRules { Adv, LegacyAbility });
flag_enum!(AimedShotMode { Draft, Raw, Legacy });
flag_enum!(ShieldBlockMode { CoreAction, AdvReflex, LegacyReflex });
flag_enum!(ReflexRoll { PerReflex, FinesseAll });
flag_enum!(OddDice { TrueUniform, EmulatePhysical });
flag_enum!(LargeDice { TrueUniform, Table });
flag_enum!(StatDice { Core, LegacyTable });
flag_enum!(GuideStunned { OnePerInstruction, TwoPerRound });
flag_enum!(ResetRecovery { ManaOrFaith, ManaOnly });
flag_enum!(Assist { CoreText, ReferenceSheet });
flag_enum!(ArmorBypass { CritTable, LegacyMargin });
flag_enum!(HpFormula { Core, LegacyMax });
flag_enum!(ChallengeTable { Core, Legacy });
flag_enum!(OrderMode { Dynamic, Snapshot });

options! {
    run_penalty: RunPenalty,
    freestep_combo: FreestepCombo,
    allout_charge: bool,
    run_then_2ap_attack: RunThen2apAttack,
    movement_combo: MovementCombo,
    reflex_rules: ReflexRules,
    ap_roll_explodes: bool,
    aimed_shot: AimedShotMode,
    shield_block: ShieldBlockMode,
    reflex_roll: ReflexRoll,
    damage_explodes: bool,
    odd_dice: OddDice,
    large_dice: LargeDice,
    stat_dice: StatDice,
    adv_disadv: bool,
    crit_outcomes_adv: bool,
    conditions_adv: bool,
    guide_stunned: GuideStunned,
    reset_recovery: ResetRecovery,
    assist: Assist,
    armor_bypass: ArmorBypass,
    hp_formula: HpFormula,
    challenge_table: ChallengeTable,
    order_mode: OrderMode,
}

/// How a row is paid for (R-ONLY-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Cost {
    /// `N`: needs current AP ≥ N, counts toward the opportunity cap (R-ONLY-2).
    Fixed(u32),
    /// `X/Only`: decided by AP_start (R-ONLY-3..7).
    XOnly(u32),
    /// Pure `Only` (legacy tables): always Only mode (R-ONLY-9).
    Only,
    /// `N per space` (Step).
    PerSpace(u32),
    /// `1 per 2 spaces`, rounded up (Run, R-MOVE-3).
    PerTwoSpaces(u32),
    /// Reset Crossbow: the low cost with the hand-reload Brawn minimum, else the crank cost (R-RNG-8).
    Crossbow { hand: u32, crank: u32 },
}

/// A row that exists only under one setting of a row-switching option.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum OnlyIf {
    ShieldBlock(ShieldBlockMode),
    AimedShot(AimedShotMode),
}

impl OnlyIf {
    pub fn holds(self, o: &Options) -> bool {
        match self {
            OnlyIf::ShieldBlock(m) => o.shield_block == m,
            OnlyIf::AimedShot(m) => o.aimed_shot == m,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Hash, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum Posture {
    Standing,
    Sitting,
    Kneeling,
    Prone,
}

/// What a movement row does.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum MovementEffect {
    /// Along a path of adjacent spaces (Step, Run).
    Path,
    /// Up or down one level on stairs or a ladder.
    Climb,
    /// To sitting, kneeling or prone.
    Drop,
    /// To standing from the listed postures.
    Rise { from: Vec<Posture> },
    /// A straight jump of `spaces` over a gap (G-42).
    Leap { spaces: u32 },
}

/// A row of the movement table (R-MOVE-1, R-MOVE-8).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MovementRow {
    pub id: String,
    pub name: String,
    pub cost: Cost,
    pub effect: MovementEffect,
    /// Most spaces per opportunity for path movements.
    #[serde(default)]
    pub max_spaces: u32,
    /// Temporary Defense per AP paid (Run −1, option `run_penalty = per_ap`).
    #[serde(default)]
    pub defense_per_ap: i32,
    /// Flat temporary Defense (Run −3 under `run_penalty = flat3`).
    #[serde(default)]
    pub defense_flat: i32,
    /// The legacy tables count Climb and the rises as actions (C-46).
    #[serde(default)]
    pub counts_as_action: bool,
    /// Reduced cost with a successful Tumbling check (ADV-2017, G-18).
    #[serde(default)]
    pub tumble_cost: Option<Cost>,
    /// Required posture; standing unless listed (R-MOVE-7).
    #[serde(default)]
    pub source: String,
    #[serde(default)]
    pub description: String,
}

/// Which weapons an attack action allows (R-ACT-3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WeaponUse {
    Any,
    Melee,
    Ranged,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scope {
    /// Every attack.
    All,
    /// Melee attacks only (Shield Block).
    Melee,
}

/// What an action row does.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ActionEffect {
    Attack { weapon: WeaponUse, attack: i32, damage: i32 },
    ShieldBlock,
    CastSpell,
    UseItem,
    FirstAid,
    Recover { amount: u32, mana_only: bool },
    Flop,
    GuideStunned,
    ResetCrossbow,
    ReadyItem,
}

/// A row of the action table (R-ACT-1, Appendix A).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActionRow {
    pub id: String,
    pub name: String,
    pub cost: Cost,
    pub effect: ActionEffect,
    /// Temporary Defense adjustment at declaration (R-AP-6, R-DEF-3).
    #[serde(default)]
    pub defense: i32,
    #[serde(default = "scope_all")]
    pub defense_scope: Scope,
    /// May follow Step/Run beyond the cap under `allout_charge` (R-COMBO-4).
    #[serde(default)]
    pub charge: bool,
    #[serde(default)]
    pub only_if: Option<OnlyIf>,
    #[serde(default)]
    pub source: String,
    #[serde(default)]
    pub description: String,
}

fn scope_all() -> Scope {
    Scope::All
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReactionKind {
    Reflex,
    Response,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReactionEffect {
    /// Blocks the attack when won (R-REACT-5).
    Parry,
    /// Attacks the attacker first (R-REACT-5).
    Counterattack,
    /// Doubles the shield's Defense bonus against this attack (R-REACT-5).
    ShieldBlock,
    /// Attacks the attacker after the attack (R-REACT-9).
    Riposte,
}

/// The dice of a reflex's opposed attempt (R-REACT-4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReflexDice {
    WeaponVsWeapon,
    FinesseVsFinesse,
    ShieldVsWeapon,
    /// Responses roll no opposed attempt (R-REACT-8).
    None,
}

/// Skill ranks (R-STAT-7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, Hash)]
#[serde(rename_all = "snake_case")]
pub enum Rank {
    Untrained,
    Apprentice,
    Journeyman,
    Foreman,
    Master,
    GrandMaster,
    LegendaryMaster,
}

impl Rank {
    /// Check adjustment of the rank (data/skill-ranks.yml).
    pub fn adjustment(self) -> i32 {
        match self {
            Rank::Untrained => -2,
            Rank::Apprentice => 0,
            Rank::Journeyman => 1,
            Rank::Foreman => 2,
            Rank::Master => 3,
            Rank::GrandMaster => 4,
            Rank::LegendaryMaster => 5,
        }
    }
}

/// What a reaction needs under `reflex_rules = adv` (R-REACT-3/5, R-REACT-9).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Requirement {
    None,
    /// A ready weapon of one of these skills at this rank or better.
    Weapon {
        skills: Vec<String>,
        rank: Rank,
    },
    /// A shield, and this Shields rank when given.
    Shield {
        rank: Option<Rank>,
    },
}

/// A reflex or response row (§11).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReactionRow {
    pub id: String,
    pub name: String,
    pub kind: ReactionKind,
    pub cost: u32,
    pub effect: ReactionEffect,
    pub dice: ReflexDice,
    /// Requirement under `reflex_rules = adv`.
    pub requires: Requirement,
    /// Under `reflex_rules = legacy_ability` the character needs this ability flag (None: shield only / nothing).
    #[serde(default)]
    pub legacy_ability: Option<String>,
    /// Adjustment to the reaction's own attack (Counterattack −2, Riposte per HP in code).
    #[serde(default)]
    pub attack: i32,
    /// Temporary adjustment to all the reactor's later Attack checks (Parry −2, R-REACT-7).
    #[serde(default)]
    pub lasting_attack: i32,
    #[serde(default)]
    pub only_if: Option<OnlyIf>,
    #[serde(default)]
    pub source: String,
}

/// Numbers of the turn structure that are rules, not code (§4, §5).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Limits {
    /// R-AP-3: AP on movement + action in one opportunity.
    pub opportunity_ap_cap: u32,
    /// R-TURN-6: AP of a surprised character at the opening reset.
    pub surprise_ap: u32,
    /// G-12: floor of every AP roll.
    pub ap_floor: u32,
    /// R-TURN-4 step 4: MP/FP recovered each reset.
    pub reset_recovery_points: u32,
    /// R-FS-1 / G-47: free-step allowance by size.
    pub free_steps_small: u32,
    pub free_steps_medium: u32,
    pub free_steps_large: u32,
    /// R-ATK-4: CR against defenders who make no Defense check.
    pub helpless_defense_cr: i32,
    /// G-18: CR of the Tumble check for ADV-2017 shortcuts.
    pub tumble_cr: i32,
    /// R-POS-4: what lying prone (conscious) does.
    pub prone: ProneEffects,
}

/// R-POS-4 numbers (active with `conditions_adv`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProneEffects {
    pub melee_defense: i32,
    pub ranged_defense: i32,
    pub melee_attack: i32,
    pub crossbow_attack: i32,
    pub other_ranged_attack: i32,
}

/// One named profile (R-META-2).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Profile {
    pub description: String,
    pub options: Options,
    pub limits: Limits,
    pub movements: Vec<MovementRow>,
    pub actions: Vec<ActionRow>,
    #[serde(default)]
    pub reactions: Vec<ReactionRow>,
}

/// `assets/rules/profiles.ron`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProfileBook {
    pub default: String,
    pub profiles: BTreeMap<String, Profile>,
}

/// A profile with its options overridden and its rows filtered by those options.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Ruleset {
    pub profile: String,
    pub options: Options,
    pub limits: Limits,
    pub movements: Vec<MovementRow>,
    pub actions: Vec<ActionRow>,
    pub reactions: Vec<ReactionRow>,
}

impl ProfileBook {
    pub fn parse(text: &str) -> Result<Self, ron::error::SpannedError> {
        ron::from_str(text)
    }

    /// The named profile (or the default) with overrides applied.
    pub fn ruleset(&self, name: Option<&str>, overrides: &OptionOverrides) -> Result<Ruleset, String> {
        let name = name.unwrap_or(&self.default);
        let p = self
            .profiles
            .get(name)
            .ok_or_else(|| format!("unknown profile '{name}' (known: {})", self.profiles.keys().cloned().collect::<Vec<_>>().join(", ")))?;
        let mut options = p.options.clone();
        options.apply(overrides);
        let keep = |o: &Option<OnlyIf>| o.is_none_or(|c| c.holds(&options));
        Ok(Ruleset {
            profile: name.to_string(),
            limits: p.limits.clone(),
            movements: p.movements.clone(),
            actions: p.actions.iter().filter(|a| keep(&a.only_if)).cloned().collect(),
            reactions: p.reactions.iter().filter(|a| keep(&a.only_if)).cloned().collect(),
            options,
        })
    }
}

impl Ruleset {
    pub fn movement(&self, id: &str) -> Option<&MovementRow> {
        self.movements.iter().find(|m| m.id == id)
    }
    pub fn action(&self, id: &str) -> Option<&ActionRow> {
        self.actions.iter().find(|m| m.id == id)
    }
    pub fn reaction(&self, id: &str) -> Option<&ReactionRow> {
        self.reactions.iter().find(|m| m.id == id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test] // R-META-2: the five profiles load, DOO-2017 is the default
    fn builtin_profiles_load() {
        let book = ProfileBook::builtin();
        assert_eq!(book.default, "DOO-2017");
        for name in ["DOO-2017", "CORE-STRICT", "ADV-2017", "LEGACY-2016", "LEGACY-2016-EARLY"] {
            let r = book.ruleset(Some(name), &OptionOverrides::default()).unwrap();
            assert!(r.movement("step").is_some(), "{name} has step");
            assert!(r.action("flop").is_some(), "{name} has flop");
        }
    }

    #[test] // §22.3: CORE-STRICT has no Run, no variants, no reactions; shield block is an action
    fn core_strict_rows() {
        let r = ProfileBook::builtin().ruleset(Some("CORE-STRICT"), &OptionOverrides::default()).unwrap();
        assert!(r.movement("run").is_none());
        assert!(r.action("panic_attack").is_none());
        assert!(r.reactions.is_empty());
        assert!(r.action("shield_block").is_some());
        assert!(!r.options.conditions_adv);
    }

    #[test] // C-13 / §22.2: shield_block option switches the action row for the reflex row
    fn shield_block_option_switches_rows() {
        let book = ProfileBook::builtin();
        let o = OptionOverrides { shield_block: Some(ShieldBlockMode::AdvReflex), ..Default::default() };
        let r = book.ruleset(None, &o).unwrap();
        assert!(r.action("shield_block").is_none());
        assert_eq!(r.reaction("shield_block").map(|x| x.cost), Some(1));
        let r = book.ruleset(None, &OptionOverrides::default()).unwrap();
        assert_eq!(r.action("shield_block").map(|x| x.cost), Some(Cost::Fixed(2)));
    }

    #[test] // R-MOVE-8 / A.1 / A.2: legacy rises and climb
    fn legacy_movement_costs() {
        let book = ProfileBook::builtin();
        let l = book.ruleset(Some("LEGACY-2016"), &OptionOverrides::default()).unwrap();
        assert_eq!(l.movement("rise").map(|r| r.cost), Some(Cost::XOnly(1)));
        assert_eq!(l.movement("stand").map(|r| r.cost), Some(Cost::XOnly(3)));
        assert_eq!(l.movement("climb").map(|r| r.cost), Some(Cost::XOnly(2)));
        let e = book.ruleset(Some("LEGACY-2016-EARLY"), &OptionOverrides::default()).unwrap();
        assert_eq!(e.movement("rise").map(|r| r.cost), Some(Cost::XOnly(3)));
        assert_eq!(e.options.run_penalty, RunPenalty::Flat3);
        assert!(!e.options.ap_roll_explodes);
        assert!(e.reaction("parry").is_none());
    }

    #[test] // unknown fields are errors, not ignored
    fn unknown_option_rejected() {
        let e = ron::from_str::<OptionOverrides>("(run_penalty: per_ap, bogus: true)");
        assert!(e.is_err());
    }
}
