//! What a player may do now, as data: the spaces a figure can reach (`Destination`), the action
//! bar's entries (`Choice`, aimed at a figure or a space, with the rule that forbids one), and an
//! open reaction window's answers (`ReactionChoice`). Every ruleset's preview builds these.

use super::command::Command;
use super::grid::Pos;
use super::profile::{ActionEffect, ReactionKind};
use super::violation::Violation;

/// How a destination is reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum MoveKind {
    /// Free steps: no AP (§6).
    FreeStep,
    /// A Step movement, AP per space.
    Step,
    /// A Run: cheaper per space, costs Defense until the reset (R-MOVE-3).
    Run,
    /// Exploration Mode: part of the hero's move of the minute (R-EXP-5).
    Walk,
}

/// One space the character can move to with one command.
#[derive(Clone, Debug, PartialEq)]
pub struct Destination {
    pub pos: Pos,
    pub kind: MoveKind,
    /// Spaces entered, in order.
    pub path: Vec<Pos>,
    pub ap: u32,
    /// Temporary Defense adjustment the movement brings (a Run's penalty, ≤ 0).
    pub defense: i32,
    /// Movement row name ("Step", "Run", "Free steps").
    pub label: String,
    pub command: Command,
    /// Ruleset A4: who would get an attack of opportunity along the path (A4-4.1), by name.
    pub provokes: Vec<String>,
    /// Ruleset A4: the squares of the walk whose leaving draws those attacks (A4-G-23).
    pub threatened: Vec<Pos>,
    /// A short mark drawn on the space instead of the AP price (A4: "M" move, "R" run).
    pub note: Option<String>,
}

/// What a choice is aimed at.
#[derive(Clone, Debug, PartialEq)]
pub enum Aim {
    /// Nothing: choosing it issues `template` as it is.
    None,
    /// A figure: the valid targets' ids (`template` with `target` set).
    Figure(Vec<String>),
    /// A space: each valid space with its command (Leap).
    Space(Vec<(Pos, Command)>),
}

/// One entry of the action bar: a movement other than walking, an action (one per spell or
/// item), with its price now, or the rule that forbids it.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    pub label: String,
    /// Row id in the profile's table.
    pub row: String,
    /// "1 AP", "2 AP (X/Only)", "Only: all AP" …
    pub cost: String,
    /// Taken now it would be an Only action (R-ONLY-6: nothing more this turn).
    pub only: bool,
    /// Temporary Defense adjustment the choice brings (All-out attack −2 …).
    pub defense: i32,
    pub template: Command,
    pub aim: Aim,
    /// Why it cannot be chosen now (None: it can).
    pub refusal: Option<Violation>,
    pub description: String,
    /// Where it sits on the action bar.
    pub group: Group,
    /// False when this figure can never use it here, whatever happens this turn: a shot with no
    /// missile weapon, Shield Block with no shield, spells for one who is no caster, items for one
    /// who carries none, Climb on a one-level board, reloading with no crossbow. The bar hides
    /// those and keeps the rest, greyed with their rule, when they are only not possible now.
    pub applies: bool,
    /// Figures the rules let this choice strike that are not foes (an ally in reach of an
    /// attack, next to the target of a shot into melee), each with why: shown as a warning on
    /// the board, never as a target square (issue 43).
    pub warn: Vec<(String, String)>,
}

impl Choice {
    pub fn available(&self) -> bool {
        self.refusal.is_none()
    }
}

/// The action bar's groups, in bar order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum Group {
    /// Movements other than walking, posture changes.
    Move,
    /// Attacks, shots, spells, reloading.
    #[default]
    Attack,
    /// Shield Block, recovering, flopping down.
    Defend,
    /// Items, first aid, guiding an ally, doors, tasks, the crawl's orders.
    Other,
}

impl Group {
    pub const ALL: [Group; 4] = [Group::Move, Group::Attack, Group::Defend, Group::Other];

    pub fn label(self) -> &'static str {
        match self {
            Group::Move => "Move",
            Group::Attack => "Attack",
            Group::Defend => "Defend & react",
            Group::Other => "Items & other",
        }
    }

    /// A short label for a narrow bar.
    pub fn short(self) -> &'static str {
        match self {
            Group::Move => "Move",
            Group::Attack => "Attack",
            Group::Defend => "Defend",
            Group::Other => "Items",
        }
    }

    /// The group of an action row's effect.
    pub fn of_action(e: &ActionEffect) -> Group {
        match e {
            ActionEffect::Attack { .. } | ActionEffect::CastSpell | ActionEffect::ResetCrossbow => Group::Attack,
            ActionEffect::ShieldBlock | ActionEffect::Recover { .. } | ActionEffect::Flop => Group::Defend,
            ActionEffect::UseItem | ActionEffect::FirstAid | ActionEffect::GuideStunned | ActionEffect::ReadyItem => Group::Other,
        }
    }
}

/// A bar entry before its aim and price are worked out.
pub fn entry(label: String, row: &str, cost: &str, only: bool, defense: i32, template: Command, description: &str) -> Choice {
    Choice {
        label,
        row: row.into(),
        cost: cost.into(),
        only,
        defense,
        template,
        aim: Aim::None,
        refusal: None,
        description: description.into(),
        group: Group::Other,
        applies: true,
        warn: Vec::new(),
    }
}

/// One reflex or response the defender of the pending attack may declare now, or why not.
#[derive(Clone, Debug, PartialEq)]
pub struct ReactionChoice {
    pub label: String,
    pub kind: ReactionKind,
    pub cost: String,
    pub command: Command,
    pub refusal: Option<Violation>,
    pub description: String,
}
