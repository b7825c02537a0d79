//! The DoO action bar: non-walking movements, then every action of the profile (spells and
//! items each their own entry), in table order, each with its price now or the rule that forbids
//! it, aimed at the figures or spaces the DoO validation accepts (`validate::check`).

use super::super::command::Command;
use super::super::grid::Pos;
use super::super::offer::{Aim, Choice, Group, entry};
use super::super::plan::Plan;
use super::super::profile::{ActionEffect, Cost, MovementEffect, Posture};
use super::super::state::Match;
use super::super::violation::Violation;
use super::preview::action_applies;
use super::validate::check;

fn cost_label(m: &Match, a: usize, cost: Cost) -> (String, bool) {
    let f = &m.fighters[a];
    match cost {
        Cost::Fixed(n) => (format!("{n} AP"), false),
        Cost::XOnly(x) if f.ap.start >= x => (format!("{x} AP (X/Only)"), false),
        Cost::XOnly(x) => (format!("all AP ({x}/Only)"), true),
        Cost::Only => ("all AP (Only)".into(), true),
        Cost::PerSpace(n) => (format!("{n} AP/space"), false),
        Cost::PerTwoSpaces(n) => (format!("{n} AP/2 spaces"), false),
        Cost::Crossbow { hand, crank } => (format!("{hand} or {crank} AP"), false),
    }
}

fn price_label(ap: u32, only: bool, cost: Cost) -> String {
    match (only, cost) {
        (true, _) => format!("all {ap} AP (Only)"),
        (false, Cost::XOnly(_)) => format!("{ap} AP (X/Only)"),
        _ => format!("{ap} AP"),
    }
}

fn with(cmd: &Command, f: impl FnOnce(&mut Command)) -> Command {
    let mut c = cmd.clone();
    f(&mut c);
    c
}

fn set_target(cmd: &Command, id: &str) -> Command {
    with(cmd, |c| {
        if let Command::Action { target, .. } = c {
            *target = Some(id.to_string());
        }
    })
}

/// The action bar for `a`: non-walking movements, then every action of the profile (spells and
/// items each their own entry), in table order.
pub fn choices(m: &Match, a: usize) -> Vec<Choice> {
    let f = &m.fighters[a];
    let mut out = Vec::new();
    // Movements other than walking: Climb, Drop, Rise/Stand, Leap.
    for row in &m.rules.movements {
        let (cost, only) = cost_label(m, a, row.cost);
        let base = |label: String, template: Command| {
            let mut c = entry(label, &row.id, &cost, only, 0, template, &row.description);
            c.group = Group::Move;
            // Climbing needs a second map level.
            c.applies = !matches!(row.effect, MovementEffect::Climb) || m.board.floors.len() > 1;
            c
        };
        match &row.effect {
            MovementEffect::Path => {}
            MovementEffect::Drop => {
                for p in [Posture::Kneeling, Posture::Sitting, Posture::Prone] {
                    let cmd = Command::Move { actor: f.id.clone(), movement: row.id.clone(), path: vec![], posture: Some(p), tumble: false };
                    out.push(finish_plain(m, base(format!("{} ({})", row.name, posture_name(p)), cmd)));
                }
            }
            MovementEffect::Leap { spaces } => {
                let mut spots = Vec::new();
                let mut last = None;
                for (dx, dy) in [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)] {
                    for k in 1..=(*spaces as i32 + 1) {
                        let path: Vec<Pos> = (1..=k).map(|i| Pos::on(f.pos.x + dx * i, f.pos.y + dy * i, f.pos.floor)).collect();
                        let dest = *path.last().unwrap_or(&f.pos);
                        let cmd = Command::step(&f.id, &row.id, path);
                        match check(m, &cmd) {
                            Ok(_) => spots.push((dest, cmd)),
                            Err(v) => last = Some(v),
                        }
                    }
                }
                let mut c = base(row.name.clone(), Command::step(&f.id, &row.id, vec![]));
                if spots.is_empty() {
                    c.refusal = Some(last.unwrap_or_else(|| Violation::new("G-42", "Nothing to leap over here.")));
                }
                c.aim = Aim::Space(spots);
                out.push(c);
            }
            _ => {
                let cmd = Command::Move { actor: f.id.clone(), movement: row.id.clone(), path: vec![], posture: None, tumble: false };
                out.push(finish_plain(m, base(row.name.clone(), cmd)));
            }
        }
    }
    for row in &m.rules.actions {
        let (cost, only) = cost_label(m, a, row.cost);
        let (group, applies) = (Group::of_action(&row.effect), action_applies(m, a, &row.effect));
        let base = |label: String, template: Command| {
            let mut c = entry(label, &row.id, &cost, only, row.defense, template, &row.description);
            (c.group, c.applies) = (group, applies);
            c
        };
        let plain = Command::action(&f.id, &row.id, None);
        let targets_of = |kind: &ActionEffect| -> Vec<usize> {
            let mut t: Vec<usize> = (0..m.fighters.len()).filter(|&i| !m.is_dead(i)).collect();
            match kind {
                ActionEffect::Attack { .. } => t.retain(|&i| i != a),
                ActionEffect::GuideStunned => t.retain(|&i| i != a && !m.enemies(a, i)),
                _ => {}
            }
            // Enemies nearest first, then allies.
            t.sort_by_key(|&i| (!m.enemies(a, i), m.fighters[i].pos.distance(f.pos), i));
            t
        };
        match &row.effect {
            ActionEffect::CastSpell if !f.spells.is_empty() => {
                for s in &f.spells {
                    let name = m.spells.get(s).map_or(s.clone(), |x| x.name.clone());
                    let cmd = with(&plain, |c| {
                        if let Command::Action { spell, .. } = c {
                            *spell = Some(s.clone());
                        }
                    });
                    let harms = m.spells.get(s).is_some_and(|x| !matches!(x.effect, crate::rules::spells::SpellEffect::Heal { .. }));
                    out.push(finish_aimed(m, base(format!("Cast {name}"), cmd), &targets_of(&row.effect), harms));
                }
            }
            ActionEffect::UseItem if !f.loadout.items.is_empty() => {
                let mut items = f.loadout.items.clone();
                items.dedup();
                // A spare weapon, shield or armor is carried, not used.
                items.retain(|i| m.equipment.item(i).is_some() || !m.equipment.knows(i));
                for it in items {
                    let name = m.equipment.item(&it).map_or(it.clone(), |x| x.name.clone());
                    let cmd = with(&plain, |c| {
                        if let Command::Action { item, .. } = c {
                            *item = Some(it.clone());
                        }
                    });
                    out.push(finish_plain(m, base(format!("{}: {name}", row.name), cmd)));
                }
            }
            ActionEffect::Flop => {
                for p in [Posture::Prone, Posture::Sitting, Posture::Kneeling] {
                    let cmd = with(&plain, |c| {
                        if let Command::Action { posture, .. } = c {
                            *posture = Some(p);
                        }
                    });
                    out.push(finish_plain(m, base(format!("{} ({})", row.name, posture_name(p)), cmd)));
                }
            }
            ActionEffect::Attack { .. } | ActionEffect::FirstAid | ActionEffect::GuideStunned | ActionEffect::CastSpell => {
                let hostile = matches!(row.effect, ActionEffect::Attack { .. });
                out.push(finish_aimed(m, base(row.name.clone(), plain), &targets_of(&row.effect), hostile));
            }
            _ => out.push(finish_plain(m, base(row.name.clone(), plain))),
        }
    }
    out
}

fn posture_name(p: Posture) -> &'static str {
    match p {
        Posture::Standing => "stand",
        Posture::Sitting => "sit",
        Posture::Kneeling => "kneel",
        Posture::Prone => "prone",
    }
}

fn priced(mut c: Choice, plan: &Plan) -> Choice {
    let (ap, only, cost) = match plan {
        Plan::Action { plan, .. } => (plan.price.ap, plan.price.only, plan.row.cost),
        Plan::Move { plan, .. } => (plan.price.ap, plan.price.only, plan.row.cost),
        _ => return c,
    };
    c.cost = price_label(ap, only, cost);
    c.only = only;
    c
}

fn finish_plain(m: &Match, mut c: Choice) -> Choice {
    match check(m, &c.template) {
        Ok(plan) => priced(c, &plan),
        Err(v) => {
            c.refusal = Some(v);
            c
        }
    }
}

/// `hostile`: an attack or a spell that harms (issue 43): an ally the rules let it strike is a
/// warning on the choice (`warn`), not one of its targets.
fn finish_aimed(m: &Match, mut c: Choice, candidates: &[usize], hostile: bool) -> Choice {
    let a = m.index(c.template.actor());
    let mut valid = Vec::new();
    let mut first_err: Option<Violation> = None;
    let mut plan_seen = None;
    for &t in candidates {
        match check(m, &set_target(&c.template, &m.fighters[t].id)) {
            Ok(p) if hostile && a.is_some_and(|a| !m.enemies(a, t)) => {
                let name = &m.fighters[t].name;
                c.warn.push((m.fighters[t].id.clone(), format!("{name} is on your side: the rules let you strike {name}, but {name} is not a target.")));
                plan_seen.get_or_insert(p);
            }
            Ok(p) => {
                valid.push(m.fighters[t].id.clone());
                plan_seen.get_or_insert(p);
            }
            Err(v) => {
                first_err.get_or_insert(v);
            }
        }
    }
    if let Some(p) = plan_seen {
        c = priced(c, &p);
    } else {
        // The nearest candidate's refusal (the same as the untargeted one when the reason is
        // not about the target: AP, one action per opportunity …).
        c.refusal = Some(first_err.unwrap_or_else(|| match check(m, &c.template) {
            Err(v) => v,
            Ok(_) => Violation::new("R-ATK-2", "There is nobody to aim it at."),
        }));
    }
    c.aim = Aim::Figure(valid);
    c
}
