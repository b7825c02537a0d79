//! What happened, in order: the runner prints these as JSON lines, the game shows them in its log.

use super::dice::Roll;
use super::fighter::{ConditionInstance, Pool, TempAdjustment};
use super::grid::Pos;
use super::profile::Posture;
use serde::Serialize;

/// An event's fixed text (a purpose, a reason, a name), mostly a constant of the rules: no
/// allocation for those (issue 44), and serialized as the string it holds.
pub type Text = std::borrow::Cow<'static, str>;

/// A figure's id in an event (whose event it is, who tied): kept inline up to 23 bytes (every
/// figure's id in practice), else shared, so that an event costs no allocation for it and a log
/// holding thousands of events thousands fewer (issue 44); serialized as the string it holds.
pub type Id = smol_str::SmolStr;

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// Dice thrown: what for, whose, the roll (rank, each die's faces, adjustment, total).
    Dice {
        actor: Id,
        purpose: Text,
        #[serde(flatten)]
        roll: Roll,
        /// Where the adjustment comes from: `[("skill", 1), ("panic_attack", -2), …]`.
        #[serde(skip_serializing_if = "Vec::is_empty")]
        parts: Vec<(Text, i32)>,
    },
    /// A forced face that did not fit its die (it was skipped).
    ForcedFaceRejected {
        face: u32,
        rank: u32,
    },
    Phase {
        phase: Text,
        turn: u32,
    },
    ResetStep {
        step: u32,
        name: Text,
    },
    Round {
        round: u32,
        turn: u32,
    },
    Opportunity {
        actor: Id,
        ap: u32,
    },
    /// R-TURN-10 / G-06: who won a tie for the next opportunity, and how.
    TieBroken {
        between: Vec<Id>,
        winner: Id,
        by: Text,
    },
    ApSet {
        actor: Id,
        ap: u32,
        ap_start: u32,
        reason: Text,
    },
    ApSpent {
        actor: Id,
        amount: u32,
        ap: u32,
        for_what: String,
    },
    OnlyMode {
        actor: Id,
        action: String,
    },
    FreeStepsGranted {
        actor: Id,
        allowance: u32,
    },
    FreeStepsUsed {
        actor: Id,
        spaces: u32,
        forfeited: u32,
    },
    FreeStepsLost {
        actor: Id,
        reason: Text,
    },
    Moved {
        actor: Id,
        movement: String,
        from: Pos,
        to: Pos,
        path: Vec<Pos>,
    },
    PostureChanged {
        actor: Id,
        from: Posture,
        to: Posture,
    },
    ActionTaken {
        actor: Id,
        action: String,
        target: Option<String>,
    },
    AdjustmentAdded {
        actor: Id,
        #[serde(flatten)]
        adjustment: TempAdjustment,
    },
    AdjustmentRemoved {
        actor: Id,
        #[serde(flatten)]
        adjustment: TempAdjustment,
    },
    AttackDeclared {
        actor: Id,
        target: String,
        action: String,
        melee: bool,
        reaction: bool,
    },
    ReflexWindow {
        defender: String,
        attacker: String,
        options: Vec<String>,
    },
    ReflexDeclared {
        actor: Id,
        reflex: String,
        attacker: String,
    },
    ReflexOutcome {
        actor: Id,
        reflex: String,
        success: bool,
        attacker_total: i32,
        defender_total: i32,
    },
    AttackBlocked {
        actor: Id,
        target: String,
        by: String,
    },
    AttackCancelled {
        actor: Id,
        target: String,
        reason: String,
    },
    AttackResolved {
        actor: Id,
        target: String,
        defense_cr: i32,
        attack_total: i32,
        margin: i32,
        outcome: String,
        raw_damage: i32,
        /// What the raw damage is made of, every adjustment named (issue 43): `[("rolled", 5),
        /// ("solid_hit", 2)]`; a part of 0 is a rule that applied ("solid hit: at least 2").
        #[serde(skip_serializing_if = "Vec::is_empty")]
        damage_parts: Vec<(Text, i32)>,
        reduction: i32,
        damage: i32,
        target_hp: i32,
    },
    ResponseWindow {
        defender: String,
        attacker: String,
        options: Vec<String>,
    },
    ResponseDeclared {
        actor: Id,
        response: String,
        attacker: String,
    },
    ReactionDeclined {
        actor: Id,
    },
    HpChanged {
        actor: Id,
        from: i32,
        to: i32,
        reason: Text,
    },
    PoolChanged {
        actor: Id,
        pool: Pool,
        from: i32,
        to: i32,
        reason: String,
    },
    RecoveryChoice {
        actor: Id,
        pool: Pool,
    },
    ConditionAdded {
        actor: Id,
        #[serde(flatten)]
        condition: ConditionInstance,
    },
    ConditionRemoved {
        actor: Id,
        condition: String,
        reason: String,
    },
    ItemUsed {
        actor: Id,
        item: String,
    },
    /// Critical Miss with a weapon in hand (G-19): it lies on the attacker's space.
    WeaponDropped {
        actor: Id,
        weapon: String,
        at: Pos,
    },
    /// Disastrous Miss with a weapon in hand (G-19).
    WeaponBroken {
        actor: Id,
        weapon: String,
    },
    /// HP at or below −max HP, or a mook at 0 (R-INJ-8, G-14).
    Died {
        actor: Id,
    },
    OpportunityEnded {
        actor: Id,
        passed: bool,
        ap: u32,
    },
    PhaseEnded {
        turn: u32,
        rounds: u32,
        lost_ap: Vec<(String, u32)>,
    },
    /// The crisis ends (R-TURN-17 follows): who won (`None`: nobody, a draw) and the level
    /// goal that decided it (`None`: G-15, a side has nobody able to act).
    CrisisOver {
        winner: Option<String>,
        goal: Option<super::goal::Goal>,
        reason: String,
    },
    Note {
        text: String,
    },
    /// A level event's `message` (issue 31): the level's story, shown on screen as well as in
    /// the log. `id` is the level event's.
    Story {
        id: String,
        text: String,
    },
    /// A hero earns character points as they are earned (R-CP-9 in play: critical results made
    /// or suffered, his own task checks once per object per level; R-CP-10 at a won level's end,
    /// from the campaign). `hero` is the figure's id (`hero_<name>`); `why` a sentence.
    CpEarned {
        hero: String,
        cp: u32,
        rule: String,
        why: String,
    },
    /// A4-5.1: initiative for the round `turn` (A4 counts rounds as turns), best first: each
    /// figure's id and score.
    Initiative {
        turn: u32,
        order: Vec<(String, i32)>,
    },
    /// A4-2.1: an A4 act taken and the slots it used (`standard`, `move`, `minor`).
    SlotsUsed {
        actor: Id,
        act: String,
        slots: Vec<String>,
        counted: u32,
    },
    /// A new exploration turn (R-EXP-2, R-EXP-3): the clock reads `minute`.
    ExplorationTurn {
        turn: u32,
        minute: u32,
    },
    /// A side saw spaces it had not seen (R-EXP-19); how many.
    Revealed {
        side: String,
        spaces: u32,
    },
    /// A door opened, closed, unlocked (R-EXP-11..13).
    DoorChanged {
        actor: Id,
        at: Pos,
        state: String,
    },
    /// A task's check and its margin against the CR (R-CHK-5): what character points read
    /// (R-CP-9, G-79). `object` names the lock, trap, feature or patient.
    TaskCheck {
        actor: Id,
        check: String,
        object: String,
        margin: i32,
    },
    /// A one-turn task was ordered; it takes effect at the end of the turn (R-EXP-20).
    TaskOrdered {
        actor: Id,
        task: super::explore::state::Task,
        at: Pos,
    },
    /// A task took effect (R-EXP-20 step 1).
    TaskDone {
        actor: Id,
        task: super::explore::state::Task,
        at: Pos,
        success: bool,
        text: String,
    },
    /// A hidden feature was found (R-EXP-14): `secret_door` or `trap`.
    FeatureFound {
        actor: Id,
        what: String,
        at: Pos,
    },
    TrapSprung {
        actor: Id,
        trap: String,
        at: Pos,
    },
    ChestOpened {
        actor: Id,
        at: Pos,
        items: Vec<String>,
    },
    ItemTaken {
        actor: Id,
        item: String,
        at: Pos,
    },
    ItemDropped {
        actor: Id,
        item: String,
        at: Pos,
    },
    Waited {
        actor: Id,
    },
    /// A non-hostile NPC (`actor`) answers the hero (`to`) who spoke to him (R-CP-16).
    Says {
        actor: Id,
        to: String,
        text: String,
    },
    /// R-CHK-7: a helper's check added `bonus` to the check of `helped`.
    Assisted {
        actor: Id,
        helped: String,
        bonus: i32,
    },
    /// R-EXP-8: an item handed to another hero.
    ItemHanded {
        actor: Id,
        to: String,
        item: String,
    },
    /// R-CP-16: a hero traded with a non-hostile NPC: he `gave` these items and `got` one.
    Traded {
        actor: Id,
        with: String,
        gave: Vec<String>,
        got: String,
    },
    /// The groups and their marching orders (R-EXP-4).
    Groups {
        groups: Vec<Vec<String>>,
    },
    /// Crisis Mode starts (R-EXP-24, R-EXP-25, R-EXP-26).
    CrisisBegins {
        reason: String,
        participants: Vec<String>,
        surprised: Vec<String>,
    },
    /// A crawl's crisis is over and the level goes on (R-EXP-27).
    EncounterOver {
        winner: Option<String>,
        reason: String,
    },
}

impl Event {
    /// The figure whose doing this event tells, if any (the log hides what an unseen figure
    /// does, R-EXP-19).
    pub fn actor(&self) -> Option<&str> {
        match self {
            Event::Dice { actor, .. }
            | Event::Opportunity { actor, .. }
            | Event::ApSet { actor, .. }
            | Event::ApSpent { actor, .. }
            | Event::OnlyMode { actor, .. }
            | Event::FreeStepsGranted { actor, .. }
            | Event::FreeStepsUsed { actor, .. }
            | Event::FreeStepsLost { actor, .. }
            | Event::Moved { actor, .. }
            | Event::PostureChanged { actor, .. }
            | Event::ActionTaken { actor, .. }
            | Event::AdjustmentAdded { actor, .. }
            | Event::AdjustmentRemoved { actor, .. }
            | Event::AttackDeclared { actor, .. }
            | Event::ReflexDeclared { actor, .. }
            | Event::ReflexOutcome { actor, .. }
            | Event::AttackBlocked { actor, .. }
            | Event::AttackCancelled { actor, .. }
            | Event::AttackResolved { actor, .. }
            | Event::ResponseDeclared { actor, .. }
            | Event::ReactionDeclined { actor, .. }
            | Event::HpChanged { actor, .. }
            | Event::PoolChanged { actor, .. }
            | Event::RecoveryChoice { actor, .. }
            | Event::ConditionAdded { actor, .. }
            | Event::ConditionRemoved { actor, .. }
            | Event::ItemUsed { actor, .. }
            | Event::WeaponDropped { actor, .. }
            | Event::WeaponBroken { actor, .. }
            | Event::Died { actor, .. }
            | Event::OpportunityEnded { actor, .. }
            | Event::SlotsUsed { actor, .. }
            | Event::DoorChanged { actor, .. }
            | Event::TaskCheck { actor, .. }
            | Event::TaskOrdered { actor, .. }
            | Event::TaskDone { actor, .. }
            | Event::FeatureFound { actor, .. }
            | Event::TrapSprung { actor, .. }
            | Event::ChestOpened { actor, .. }
            | Event::ItemTaken { actor, .. }
            | Event::ItemDropped { actor, .. }
            | Event::Waited { actor, .. }
            | Event::Says { actor, .. }
            | Event::Assisted { actor, .. }
            | Event::ItemHanded { actor, .. }
            | Event::Traded { actor, .. } => Some(actor.as_str()),
            _ => None,
        }
    }

    /// The figures besides the actor this event is about (a target, a defender, an attacker):
    /// a side that sees one of them sees the event (R-EXP-19, `seen_by`).
    pub fn others(&self) -> Vec<&str> {
        match self {
            Event::AttackDeclared { target, .. }
            | Event::AttackBlocked { target, .. }
            | Event::AttackCancelled { target, .. }
            | Event::AttackResolved { target, .. } => vec![target.as_str()],
            Event::ActionTaken { target, .. } => target.iter().map(String::as_str).collect(),
            Event::ReflexWindow { defender, attacker, .. } | Event::ResponseWindow { defender, attacker, .. } => vec![defender.as_str(), attacker.as_str()],
            Event::ReflexDeclared { attacker, .. } | Event::ResponseDeclared { attacker, .. } => vec![attacker.as_str()],
            // his side and those who see him see the CP he earns (R-EXP-19)
            Event::CpEarned { hero, .. } => vec![hero.as_str()],
            Event::Traded { with, .. } => vec![with.as_str()],
            _ => Vec::new(),
        }
    }

    /// The spaces this event happens in besides its figures' own: a move's start and path, a
    /// door, a task's or a trap's space (R-EXP-19, `seen_by`).
    pub fn spaces(&self) -> Vec<Pos> {
        match self {
            Event::Moved { from, path, .. } => std::iter::once(*from).chain(path.iter().copied()).collect(),
            Event::ItemDropped { at, .. }
            | Event::WeaponDropped { at, .. }
            | Event::DoorChanged { at, .. }
            | Event::TaskOrdered { at, .. }
            | Event::TaskDone { at, .. }
            | Event::FeatureFound { at, .. }
            | Event::TrapSprung { at, .. }
            | Event::ChestOpened { at, .. }
            | Event::ItemTaken { at, .. } => vec![*at],
            _ => Vec::new(),
        }
    }
}
