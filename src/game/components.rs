//! Character components (newtypes over the rules' own structs) and `MatchView`, the system
//! parameter that assembles them into the rules' `Match` and writes changes back.

use crate::rules::conditions::ConditionBook;
use crate::rules::equipment::EquipmentBook;
use crate::rules::fighter::{self, Fighter};
use crate::rules::grid::{Board, Pos};
use crate::rules::profile::{Posture as RulesPosture, Ruleset};
use crate::rules::state::{Clock, Match, PendingAttack};
use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<MatchClock>().init_resource::<PendingReaction>().init_resource::<MatchDice>();
}

/// The level's id of a character, and its place in level order (dice and tie order follow it).
#[derive(Component, Debug, Clone, PartialEq, Eq)]
pub struct CharacterId {
    pub id: String,
    pub order: usize,
}

#[derive(Component, Debug, Clone, PartialEq, Eq, Deref, DerefMut)]
pub struct Side(pub String);

#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, Deref, DerefMut)]
pub struct GridPos(pub Pos);

/// AP and AP_start.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, Deref, DerefMut)]
pub struct ActionPoints(pub fighter::ActionPoints);

/// Free-step allowance and availability.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, Deref, DerefMut)]
pub struct FreeSteps(pub fighter::FreeSteps);

#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, Deref, DerefMut)]
pub struct Posture(pub RulesPosture);

/// Temporary Defense and Attack adjustments until reset step 2.
#[derive(Component, Debug, Clone, PartialEq, Eq, Deref, DerefMut, Default)]
pub struct Adjustments(pub Vec<fighter::TempAdjustment>);

#[derive(Component, Debug, Clone, PartialEq, Eq, Deref, DerefMut, Default)]
pub struct Conditions(pub Vec<fighter::ConditionInstance>);

/// "Did anything this turn", "took an Only action", this round's status.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, Deref, DerefMut, Default)]
pub struct TurnRecord(pub fighter::TurnRecord);

/// What was done in the opportunity in progress.
#[derive(Component, Debug, Clone, PartialEq, Eq, Deref, DerefMut, Default)]
pub struct OpportunityRecord(pub fighter::OpportunityRecord);

/// HP, Mana and Faith with their maxima.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Vitals {
    pub hp: i32,
    pub max_hp: i32,
    pub mp: i32,
    pub max_mp: i32,
    pub fp: i32,
    pub max_fp: i32,
}

/// What rarely changes: stats, size, skills, gear, casting, surprise, reset choice.
#[derive(Component, Debug, Clone, PartialEq)]
pub struct CharacterSheet {
    pub stats: fighter::Stats,
    pub size: fighter::Size,
    pub skills: std::collections::BTreeMap<String, crate::rules::profile::Rank>,
    pub abilities: Vec<String>,
    pub loadout: fighter::Loadout,
    pub caster: fighter::Caster,
    pub ap_roll_bonus: i32,
    pub surprised: bool,
    pub recovery: Option<fighter::Pool>,
    pub mook: bool,
    pub spells: Vec<String>,
}

/// The ruleset in force, with its tables.
#[derive(Resource, Debug, Clone)]
pub struct MatchRules {
    pub rules: std::sync::Arc<Ruleset>,
    pub conditions: std::sync::Arc<ConditionBook>,
    pub equipment: std::sync::Arc<EquipmentBook>,
    pub tables: std::sync::Arc<crate::rules::tables::TableBook>,
    pub spells: std::sync::Arc<crate::rules::spells::SpellBook>,
}

#[derive(Resource, Debug, Clone, Deref, DerefMut)]
pub struct MatchBoard(pub Board);

/// Turn, round, whose opportunity.
#[derive(Resource, Debug, Clone, Default, Deref, DerefMut)]
pub struct MatchClock(pub Clock);

/// An attack waiting on a reflex or response window.
#[derive(Resource, Debug, Clone, Default, Deref, DerefMut)]
pub struct PendingReaction(pub Option<PendingAttack>);

/// The seeded dice of the match (forced faces first).
#[derive(Resource, Debug, Clone, Deref, DerefMut)]
pub struct MatchDice(pub crate::rules::Dice);

impl Default for MatchDice {
    fn default() -> Self {
        Self(crate::rules::Dice::seeded(0))
    }
}

type FighterData = (
    Entity,
    &'static CharacterId,
    &'static Name,
    &'static Side,
    &'static mut GridPos,
    &'static mut ActionPoints,
    &'static mut FreeSteps,
    &'static mut Posture,
    &'static mut Adjustments,
    &'static mut Conditions,
    &'static mut TurnRecord,
    &'static mut OpportunityRecord,
    &'static mut Vitals,
    &'static mut CharacterSheet,
);

/// Spawns one character's entity.
pub fn spawn_fighter(commands: &mut Commands, f: &Fighter, order: usize) -> Entity {
    commands
        .spawn((
            CharacterId { id: f.id.clone(), order },
            Name::new(f.name.clone()),
            Side(f.side.clone()),
            GridPos(f.pos),
            ActionPoints(f.ap),
            FreeSteps(f.free_steps),
            Posture(f.posture),
            Adjustments(f.adjustments.clone()),
            Conditions(f.conditions.clone()),
            TurnRecord(f.turn),
            OpportunityRecord(f.opp.clone()),
            Vitals { hp: f.hp, max_hp: f.max_hp, mp: f.mp, max_mp: f.max_mp, fp: f.fp, max_fp: f.max_fp },
            (CharacterSheet {
                stats: f.stats,
                size: f.size,
                skills: f.skills.clone(),
                abilities: f.abilities.clone(),
                loadout: f.loadout.clone(),
                caster: f.caster,
                ap_roll_bonus: f.ap_roll_bonus,
                surprised: f.surprised,
                recovery: f.recovery,
                mook: f.mook,
                spells: f.spells.clone(),
            },),
        ))
        .id()
}

/// Read and write access to the match as the rules see it.
#[derive(SystemParam)]
pub struct MatchView<'w, 's> {
    rules: Option<Res<'w, MatchRules>>,
    board: Option<Res<'w, MatchBoard>>,
    clock: ResMut<'w, MatchClock>,
    pending: ResMut<'w, PendingReaction>,
    fighters: Query<'w, 's, FighterData>,
}

impl MatchView<'_, '_> {
    /// The match as the rules see it, characters in level order; `None` before a match is set up.
    pub fn load(&self) -> Option<(Match, Vec<Entity>)> {
        let rules = self.rules.as_ref()?;
        let board = self.board.as_ref()?;
        let mut rows: Vec<_> = self.fighters.iter().collect();
        rows.sort_by_key(|r| r.1.order);
        let entities = rows.iter().map(|r| r.0).collect();
        let fighters = rows
            .into_iter()
            .map(|(_, id, name, side, pos, ap, fs, posture, adj, cond, turn, opp, v, sheet)| Fighter {
                id: id.id.clone(),
                name: name.as_str().to_string(),
                side: side.0.clone(),
                pos: pos.0,
                stats: sheet.stats,
                size: sheet.size,
                skills: sheet.skills.clone(),
                abilities: sheet.abilities.clone(),
                loadout: sheet.loadout.clone(),
                caster: sheet.caster,
                hp: v.hp,
                max_hp: v.max_hp,
                mp: v.mp,
                max_mp: v.max_mp,
                fp: v.fp,
                max_fp: v.max_fp,
                ap_roll_bonus: sheet.ap_roll_bonus,
                ap: ap.0,
                free_steps: fs.0,
                posture: posture.0,
                conditions: cond.0.clone(),
                adjustments: adj.0.clone(),
                turn: turn.0,
                opp: opp.0.clone(),
                surprised: sheet.surprised,
                recovery: sheet.recovery,
                mook: sheet.mook,
                spells: sheet.spells.clone(),
            })
            .collect();
        let m = Match {
            rules: rules.rules.clone(),
            conditions: rules.conditions.clone(),
            equipment: rules.equipment.clone(),
            tables: rules.tables.clone(),
            spells: rules.spells.clone(),
            board: board.0.clone(),
            fighters,
            clock: self.clock.0.clone(),
            pending: self.pending.0.clone(),
        };
        Some((m, entities))
    }

    /// Writes the changed parts of `m` back into components and resources.
    pub fn store(&mut self, m: &Match, entities: &[Entity]) {
        for (f, &e) in m.fighters.iter().zip(entities) {
            let Ok((_, _, _, _, mut pos, mut ap, mut fs, mut posture, mut adj, mut cond, mut turn, mut opp, mut v, mut sheet)) = self.fighters.get_mut(e)
            else {
                continue;
            };
            pos.set_if_neq(GridPos(f.pos));
            ap.set_if_neq(ActionPoints(f.ap));
            fs.set_if_neq(FreeSteps(f.free_steps));
            posture.set_if_neq(Posture(f.posture));
            adj.set_if_neq(Adjustments(f.adjustments.clone()));
            cond.set_if_neq(Conditions(f.conditions.clone()));
            turn.set_if_neq(TurnRecord(f.turn));
            opp.set_if_neq(OpportunityRecord(f.opp.clone()));
            v.set_if_neq(Vitals { hp: f.hp, max_hp: f.max_hp, mp: f.mp, max_mp: f.max_mp, fp: f.fp, max_fp: f.max_fp });
            if sheet.loadout != f.loadout || sheet.surprised != f.surprised || sheet.recovery != f.recovery {
                sheet.loadout = f.loadout.clone();
                sheet.surprised = f.surprised;
                sheet.recovery = f.recovery;
            }
        }
        if self.clock.0 != m.clock {
            self.clock.0 = m.clock.clone();
        }
        if self.pending.0 != m.pending {
            self.pending.0 = m.pending.clone();
        }
    }
}
