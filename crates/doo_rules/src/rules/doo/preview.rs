//! What a player may do now in a DoO crisis, worked out by the rules themselves: every reachable
//! space with its price (free step, Step or Run, and the Defense a Run costs), why a space cannot
//! be reached, and the open reaction window's choices. Each offer is a `Command` the DoO
//! validation accepted (`validate::check`), so a preview always matches what happens when it is
//! chosen; refusals are the validator's own `Violation`s.

use super::super::command::Command;
use super::super::equipment::Wielded;
use super::super::fighter::Caster;
use super::super::grid::Pos;
use super::super::offer::{Destination, MoveKind, ReactionChoice};
use super::super::plan::Plan;
use super::super::profile::{ActionEffect, Cost, MovementEffect, ReactionKind, WeaponUse};
use super::super::reach::cheapest_paths;
use super::super::state::{Match, Window};
use super::super::violation::Violation;
use super::validate::check;
use std::collections::{BTreeMap, HashMap};

/// Spaces `a` can reach from where it stands with one command, cheapest way first (free steps,
/// then Step, then Run; least AP, then least Defense lost). Enemies block; allies may be
/// passed but not stopped on. Every entry was accepted by the DoO validation.
pub fn destinations(m: &Match, a: usize) -> BTreeMap<Pos, Destination> {
    let mut out: BTreeMap<Pos, Destination> = BTreeMap::new();
    if check(m, &Command::Pass { actor: m.fighters[a].id.clone() }).is_err() {
        return out;
    }
    let f = &m.fighters[a];
    let mut offer = |d: Destination| {
        let better = out.get(&d.pos).is_none_or(|e| (d.kind, d.ap, -d.defense) < (e.kind, e.ap, -e.defense));
        if better {
            out.insert(d.pos, d);
        }
    };
    if f.free_steps.available && !f.opp.free_steps {
        for (pos, path) in paths(m, a, f.free_steps.allowance) {
            let command = Command::FreeSteps { actor: f.id.clone(), path: path.clone() };
            if check(m, &command).is_ok() {
                offer(Destination {
                    pos,
                    kind: MoveKind::FreeStep,
                    path,
                    ap: 0,
                    defense: 0,
                    label: "Free steps".into(),
                    command,
                    provokes: Vec::new(),
                    threatened: Vec::new(),
                    note: None,
                });
            }
        }
    }
    for row in m.rules.movements.iter().filter(|r| r.effect == MovementEffect::Path) {
        let run = row.defense_per_ap != 0 || row.defense_flat != 0;
        let per_ap = match row.cost {
            Cost::PerTwoSpaces(n) if n > 0 => 2 / n.min(2),
            Cost::PerSpace(n) if n > 0 => 1,
            _ => 1,
        };
        let max = row.max_spaces.min(f.ap.current.saturating_mul(per_ap.max(1)));
        for (pos, path) in paths(m, a, max) {
            let command = Command::step(&f.id, &row.id, path.clone());
            if let Ok(Plan::Move { plan, .. }) = check(m, &command) {
                let kind = if run { MoveKind::Run } else { MoveKind::Step };
                offer(Destination {
                    pos,
                    kind,
                    path,
                    ap: plan.price.ap,
                    defense: plan.defense,
                    label: row.name.clone(),
                    command,
                    provokes: Vec::new(),
                    threatened: Vec::new(),
                    note: None,
                });
            }
        }
    }
    out
}

/// Cheapest paths (in spaces of movement, difficult ground counting two) from `a`'s space to
/// every space within `max`, ending on no other figure, through no standing enemy. Uses
/// `pathfinding`'s Dijkstra.
fn paths(m: &Match, a: usize, max: u32) -> Vec<(Pos, Vec<Pos>)> {
    let occ: HashMap<Pos, usize> = (0..m.fighters.len()).filter(|&i| !m.is_dead(i)).map(|i| (m.fighters[i].pos, i)).collect();
    cheapest_paths(m, a, max, &|q: &Pos| occ.get(q).is_some_and(|&o| o != a && m.enemies(a, o) && m.fighters[o].hp > 0))
}

/// Why `a` cannot move to `to` now, in the validator's words: the cheapest walking path there is
/// tried as a Step (or a plain "no way there" when walls and enemies cut it off).
pub fn why_not_move(m: &Match, a: usize, to: Pos) -> Violation {
    let f = &m.fighters[a];
    if let Err(v) = check(m, &Command::Pass { actor: f.id.clone() }) {
        return v;
    }
    match paths(m, a, 64).into_iter().find(|(q, _)| *q == to) {
        Some((_, path)) => {
            // Try every walking row (Step, Run…): the refusal of a row whose range covers the
            // path (its shortfall is AP, R-AP-1) says more than "Step covers 1 to 3 spaces".
            let refusals: Vec<Violation> = m
                .rules
                .movements
                .iter()
                .filter(|r| r.effect == MovementEffect::Path)
                .map(|r| check(m, &Command::step(&f.id, &r.id, path.clone())))
                .filter_map(Result::err)
                .collect();
            if refusals.len() < m.rules.movements.iter().filter(|r| r.effect == MovementEffect::Path).count() {
                return Violation::new("R-MOVE-1", format!("{} can get there, but not with one command from here.", f.name));
            }
            refusals
                .iter()
                .find(|v| v.rule == "R-AP-1" || v.also.iter().any(|r| r == "R-AP-1"))
                .or(refusals.last())
                .cloned()
                .unwrap_or_else(|| Violation::new("R-MOVE-1", format!("{} has no movement that walks a path in this profile.", f.name)))
        }
        None if m.occupant(to).is_some_and(|o| o != a) => Violation::new("G-02", "Only one figure may stand in a space."),
        None if !m.board.walkable(to) => Violation::new("G-01", "That space cannot be entered."),
        None => Violation::new("G-01", format!("{} has no way there: walls or enemies block every path.", f.name)).also("G-02"),
    }
}

/// Whether an action row can ever apply to fighter `a` in this match (see `Choice::applies`):
/// the card's attack forecast and the action bar list only these. A figure keeps its one weapon
/// all match, so a melee-only attack never applies to one holding a missile weapon (R-ACT-3).
pub fn action_applies(m: &Match, a: usize, e: &ActionEffect) -> bool {
    let f = &m.fighters[a];
    let ranged = || matches!(m.equipment.wielded(f), Wielded::Ranged(_));
    match e {
        ActionEffect::Attack { weapon: WeaponUse::Ranged, .. } => ranged(),
        ActionEffect::Attack { weapon: WeaponUse::Melee, .. } => !ranged(),
        ActionEffect::ResetCrossbow => matches!(m.equipment.wielded(f), Wielded::Ranged(r) if r.hand_reload_brawn.is_some()),
        ActionEffect::ShieldBlock => f.loadout.shield.is_some(),
        ActionEffect::CastSpell => f.caster != Caster::None,
        ActionEffect::UseItem | ActionEffect::ReadyItem => !f.loadout.items.is_empty(),
        ActionEffect::Recover { mana_only: true, .. } => f.caster != Caster::None,
        ActionEffect::GuideStunned => (0..m.fighters.len()).any(|i| i != a && !m.enemies(a, i) && !m.is_dead(i)),
        _ => true,
    }
}

/// The open reflex or response window, if `a` is the one asked: its choices (valid or not).
pub fn reaction_choices(m: &Match, a: usize) -> Option<(ReactionKind, Vec<ReactionChoice>)> {
    let p = m.pending.as_ref()?;
    if p.defender != a {
        return None;
    }
    let kind = match p.window.as_ref()? {
        Window::Reflex => ReactionKind::Reflex,
        Window::Response => ReactionKind::Response,
    };
    let f = &m.fighters[a];
    let list = m
        .rules
        .reactions
        .iter()
        .filter(|r| r.kind == kind)
        .map(|r| {
            let command = match kind {
                ReactionKind::Reflex => Command::Reflex { actor: f.id.clone(), reflex: r.id.clone() },
                ReactionKind::Response => Command::Respond { actor: f.id.clone(), response: r.id.clone() },
            };
            ReactionChoice {
                label: r.name.clone(),
                kind,
                cost: format!("{} AP", r.cost),
                refusal: check(m, &command).err(),
                command,
                description: r.source.clone(),
            }
        })
        .collect();
    Some((kind, list))
}
