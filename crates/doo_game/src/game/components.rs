//! Where match state lives. The rules' `Match` is the one source of truth, in the `MatchState`
//! resource; only the command path (validate → apply, the reset and action-phase openings)
//! writes it. Each figure entity carries read-only mirrors of what systems and the board look
//! at — AP, free steps, posture, Defense/Attack adjustments, conditions, position, vitals —
//! written in one place (`sync_figures`) right after every Apply. See docs/architecture.md.

use bevy::prelude::*;
use doo_rules::rules::fighter::{self, Fighter};
use doo_rules::rules::grid::Pos;
use doo_rules::rules::profile::Posture as RulesPosture;
use doo_rules::rules::state::Match;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<MatchDice>()
        .init_resource::<MatchGeneration>()
        .add_systems(Update, (spawn_arrivals, sync_figures).chain().run_if(resource_exists_and_changed::<MatchState>).in_set(super::MatchSystems::Apply));
}

/// Figures that joined the match after it started (a level event's `spawn`, issue 31: appended
/// to the match's fighters) get their entities; the board draws them as it draws every figure.
pub(super) fn spawn_arrivals(mut commands: Commands, state: Res<MatchState>, figures: Query<&CharacterId>) {
    let have = figures.iter().filter(|c| state.fighters.get(c.order).is_some_and(|f| f.id == c.id)).count();
    if have >= state.fighters.len() {
        return;
    }
    let mut known = vec![false; state.fighters.len()];
    for c in &figures {
        if let Some(k) = known.get_mut(c.order) {
            *k = true;
        }
    }
    for (i, f) in state.fighters.iter().enumerate().filter(|(i, _)| !known[*i]) {
        spawn_figure(&mut commands, f, i);
    }
}

/// The match as the rules see it: the single source of truth for everything in a crisis.
#[derive(Resource, Debug, Clone, Deref, DerefMut)]
pub struct MatchState(pub Match);

/// Counts matches started (the board and camera rebuild when it changes).
#[derive(Resource, Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MatchGeneration(pub u64);

/// The seeded dice of the match (forced faces first).
#[derive(Resource, Debug, Clone, Deref, DerefMut)]
pub struct MatchDice(pub doo_rules::rules::Dice);

impl Default for MatchDice {
    fn default() -> Self {
        Self(doo_rules::rules::Dice::seeded(0))
    }
}

/// The level's id of a character, and its place in level order (dice and tie order follow it).
#[derive(Component, Debug, Clone, PartialEq, Eq)]
pub struct CharacterId {
    pub id: String,
    pub order: usize,
}

#[derive(Component, Debug, Clone, PartialEq, Eq, Deref)]
pub struct Side(pub String);

#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, Deref)]
pub struct GridPos(pub Pos);

/// AP and AP_start.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, Deref)]
pub struct ActionPoints(pub fighter::ActionPoints);

/// Free-step allowance and availability.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, Deref)]
pub struct FreeSteps(pub fighter::FreeSteps);

#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, Deref)]
pub struct Posture(pub RulesPosture);

/// Temporary Defense and Attack adjustments until reset step 2.
#[derive(Component, Debug, Clone, PartialEq, Eq, Deref, Default)]
pub struct Adjustments(pub Vec<fighter::TempAdjustment>);

#[derive(Component, Debug, Clone, PartialEq, Eq, Deref, Default)]
pub struct Conditions(pub Vec<fighter::ConditionInstance>);

/// "Did anything this turn", "took an Only action", this round's status.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, Deref, Default)]
pub struct TurnRecord(pub fighter::TurnRecord);

/// What was done in the opportunity in progress.
#[derive(Component, Debug, Clone, PartialEq, Eq, Deref, Default)]
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

/// Every mirror of one figure, as the match has it. Spawning and syncing both use this, so
/// the list of mirrored fields is written once.
#[derive(Bundle, Debug, Clone, PartialEq)]
pub struct FigureMirror {
    pub name: Name,
    pub side: Side,
    pub pos: GridPos,
    pub ap: ActionPoints,
    pub free_steps: FreeSteps,
    pub posture: Posture,
    pub adjustments: Adjustments,
    pub conditions: Conditions,
    pub turn: TurnRecord,
    pub opportunity: OpportunityRecord,
    pub vitals: Vitals,
}

impl FigureMirror {
    pub fn of(f: &Fighter) -> Self {
        Self {
            name: Name::new(f.name.clone()),
            side: Side(f.side.clone()),
            pos: GridPos(f.pos),
            ap: ActionPoints(f.ap),
            free_steps: FreeSteps(f.free_steps),
            posture: Posture(f.posture),
            adjustments: Adjustments(f.adjustments.clone()),
            conditions: Conditions(f.conditions.clone()),
            turn: TurnRecord(f.turn),
            opportunity: OpportunityRecord(f.opp.clone()),
            vitals: Vitals { hp: f.hp, max_hp: f.max_hp, mp: f.mp, max_mp: f.max_mp, fp: f.fp, max_fp: f.max_fp },
        }
    }
}

/// The components of one figure entity, read back for comparison with the match.
pub type MirrorQuery = (
    &'static CharacterId,
    &'static Name,
    &'static Side,
    &'static GridPos,
    &'static ActionPoints,
    &'static FreeSteps,
    &'static Posture,
    &'static Adjustments,
    &'static Conditions,
    &'static TurnRecord,
    &'static OpportunityRecord,
    &'static Vitals,
);

/// Spawns one figure's entity with its mirrors.
pub fn spawn_figure(commands: &mut Commands, f: &Fighter, order: usize) -> Entity {
    commands.spawn((CharacterId { id: f.id.clone(), order }, FigureMirror::of(f))).id()
}

/// After every Apply: each figure's mirrors are rewritten from the match (change detection
/// fires only where a value really changed).
pub(super) fn sync_figures(
    state: Res<MatchState>,
    mut figures: Query<(
        &CharacterId,
        &mut Name,
        &mut Side,
        &mut GridPos,
        &mut ActionPoints,
        &mut FreeSteps,
        &mut Posture,
        &mut Adjustments,
        &mut Conditions,
        &mut TurnRecord,
        &mut OpportunityRecord,
        &mut Vitals,
    )>,
) {
    for (id, mut name, mut side, mut pos, mut ap, mut fs, mut posture, mut adj, mut cond, mut turn, mut opp, mut v) in &mut figures {
        let Some(f) = state.fighters.get(id.order).filter(|f| f.id == id.id) else { continue };
        let m = FigureMirror::of(f);
        name.set_if_neq(m.name);
        side.set_if_neq(m.side);
        pos.set_if_neq(m.pos);
        ap.set_if_neq(m.ap);
        fs.set_if_neq(m.free_steps);
        posture.set_if_neq(m.posture);
        adj.set_if_neq(m.adjustments);
        cond.set_if_neq(m.conditions);
        turn.set_if_neq(m.turn);
        opp.set_if_neq(m.opportunity);
        v.set_if_neq(m.vitals);
    }
}

/// Every difference between the figure entities and the match, one line each (empty: in sync).
pub fn mirror_differences(world: &mut World) -> Vec<String> {
    let Some(m) = world.get_resource::<MatchState>().map(|s| s.0.clone()) else { return vec!["no match is running".into()] };
    let mut q = world.query::<MirrorQuery>();
    let mut out = Vec::new();
    let mut seen = 0;
    for (id, name, side, pos, ap, fs, posture, adj, cond, turn, opp, v) in q.iter(world) {
        let mirror = FigureMirror {
            name: name.clone(),
            side: side.clone(),
            pos: *pos,
            ap: *ap,
            free_steps: *fs,
            posture: *posture,
            adjustments: adj.clone(),
            conditions: cond.clone(),
            turn: *turn,
            opportunity: opp.clone(),
            vitals: *v,
        };
        match m.fighters.get(id.order).filter(|f| f.id == id.id) {
            Some(f) if FigureMirror::of(f) == mirror => seen += 1,
            Some(f) => out.push(format!("{}: entity {:?} ≠ match {:?}", id.id, mirror, FigureMirror::of(f))),
            None => out.push(format!("{}: entity without a figure in the match", id.id)),
        }
    }
    if seen + out.len() != m.fighters.len() {
        out.push(format!("{} figure entities for {} figures in the match", seen + out.len(), m.fighters.len()));
    }
    out
}

/// A match's state as a plain value, for tests and tools.
pub fn current_match(world: &World) -> Option<&Match> {
    world.get_resource::<MatchState>().map(|s| &s.0)
}
