//! What a player may do now, worked out by the rules themselves: every reachable space with its
//! price (free step, Step or Run, and the Defense a Run costs), every action, movement and
//! reaction with its cost, the figures or spaces it can be aimed at, or the rule that forbids it.
//! Each offer is a `Command` that `engine::validate` accepted, so a preview always matches what
//! happens when it is chosen; refusals are the validator's own `Violation`s.

use super::command::Command;
use super::engine::{self, Plan};
use super::grid::Pos;
use super::profile::{ActionEffect, Cost, MovementEffect, Posture, ReactionKind, WeaponUse};
use super::state::Match;
use super::violation::Violation;
use pathfinding::prelude::dijkstra_reach;
use std::collections::{BTreeMap, HashMap};

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

/// Spaces `a` can reach from where it stands with one command, cheapest way first (free steps,
/// then Step, then Run; least AP, then least Defense lost). Enemies block; allies may be
/// passed but not stopped on. Every entry was accepted by `engine::validate`.
pub fn destinations(m: &Match, a: usize) -> BTreeMap<Pos, Destination> {
    if m.a4.is_some() {
        return super::a4::preview::destinations(m, a);
    }
    let mut out: BTreeMap<Pos, Destination> = BTreeMap::new();
    if engine::validate(m, &Command::Pass { actor: m.fighters[a].id.clone() }).is_err() {
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
            if engine::validate(m, &command).is_ok() {
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
            if let Ok(Plan::Move { plan, .. }) = engine::validate(m, &command) {
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

/// `paths` with the rule of which spaces cannot be passed through given by `blocked` (DoO:
/// standing enemies; A4-G-01: any other figure).
pub(crate) fn cheapest_paths(m: &Match, a: usize, max: u32, blocked: &dyn Fn(&Pos) -> bool) -> Vec<(Pos, Vec<Pos>)> {
    let start = m.fighters[a].pos;
    let occ: HashMap<Pos, usize> = (0..m.fighters.len()).filter(|&i| !m.is_dead(i)).map(|i| (m.fighters[i].pos, i)).collect();
    let mut parent: HashMap<Pos, Pos> = HashMap::new();
    let mut found = Vec::new();
    let reach = dijkstra_reach(&start, |p: &Pos| {
        let p = *p;
        let mut next = Vec::with_capacity(8);
        for dy in -1..=1 {
            for dx in -1..=1 {
                let q = Pos::on(p.x + dx, p.y + dy, p.floor);
                if (dx, dy) != (0, 0) && m.board.step_geometry(p, q).is_ok() && !blocked(&q) {
                    next.push((q, m.board.path_cost(&[q])));
                }
            }
        }
        next
    });
    for item in reach {
        if item.total_cost > max {
            break;
        }
        if let Some(p) = item.parent {
            parent.insert(item.node, p);
            found.push(item.node);
        }
    }
    found
        .into_iter()
        .filter(|q| occ.get(q).is_none_or(|&o| o == a))
        .map(|q| {
            let mut path = vec![q];
            let mut at = q;
            while let Some(&p) = parent.get(&at) {
                if p == start {
                    break;
                }
                path.push(p);
                at = p;
            }
            path.reverse();
            (q, path)
        })
        .collect()
}

/// Why `a` cannot move to `to` now, in the validator's words: the cheapest walking path there is
/// tried as a Step (or a plain "no way there" when walls and enemies cut it off).
pub fn why_not_move(m: &Match, a: usize, to: Pos) -> Violation {
    if m.a4.is_some() {
        return super::a4::preview::why_not_move(m, a, to);
    }
    let f = &m.fighters[a];
    if let Err(v) = engine::validate(m, &Command::Pass { actor: f.id.clone() }) {
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
                .map(|r| engine::validate(m, &Command::step(&f.id, &r.id, path.clone())))
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

/// Whether an action row can ever apply to fighter `a` in this match (see `Choice::applies`):
/// the card's attack forecast and the action bar list only these. A figure keeps its one weapon
/// all match, so a melee-only attack never applies to one holding a missile weapon (R-ACT-3).
pub fn action_applies(m: &Match, a: usize, e: &ActionEffect) -> bool {
    let f = &m.fighters[a];
    let ranged = || matches!(m.equipment.wielded(f), super::equipment::Wielded::Ranged(_));
    match e {
        ActionEffect::Attack { weapon: WeaponUse::Ranged, .. } => ranged(),
        ActionEffect::Attack { weapon: WeaponUse::Melee, .. } => !ranged(),
        ActionEffect::ResetCrossbow => matches!(m.equipment.wielded(f), super::equipment::Wielded::Ranged(r) if r.hand_reload_brawn.is_some()),
        ActionEffect::ShieldBlock => f.loadout.shield.is_some(),
        ActionEffect::CastSpell => f.caster != super::fighter::Caster::None,
        ActionEffect::UseItem | ActionEffect::ReadyItem => !f.loadout.items.is_empty(),
        ActionEffect::Recover { mana_only: true, .. } => f.caster != super::fighter::Caster::None,
        ActionEffect::GuideStunned => (0..m.fighters.len()).any(|i| i != a && !m.enemies(a, i) && !m.is_dead(i)),
        _ => true,
    }
}

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
    if m.a4.is_some() {
        return super::a4::preview::choices(m, a);
    }
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
                        match engine::validate(m, &cmd) {
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
                    out.push(finish_aimed(m, base(format!("Cast {name}"), cmd), &targets_of(&row.effect)));
                }
            }
            ActionEffect::UseItem if !f.loadout.items.is_empty() => {
                let mut items = f.loadout.items.clone();
                items.dedup();
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
                out.push(finish_aimed(m, base(row.name.clone(), plain), &targets_of(&row.effect)));
            }
            _ => out.push(finish_plain(m, base(row.name.clone(), plain))),
        }
    }
    out
}

/// A bar entry before its aim and price are worked out.
pub(crate) fn entry(label: String, row: &str, cost: &str, only: bool, defense: i32, template: Command, description: &str) -> Choice {
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
    }
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
    match engine::validate(m, &c.template) {
        Ok(plan) => priced(c, &plan),
        Err(v) => {
            c.refusal = Some(v);
            c
        }
    }
}

fn finish_aimed(m: &Match, mut c: Choice, candidates: &[usize]) -> Choice {
    let mut valid = Vec::new();
    let mut first_err: Option<Violation> = None;
    let mut plan_seen = None;
    for &t in candidates {
        match engine::validate(m, &set_target(&c.template, &m.fighters[t].id)) {
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
        c.refusal = Some(first_err.unwrap_or_else(|| match engine::validate(m, &c.template) {
            Err(v) => v,
            Ok(_) => Violation::new("R-ATK-2", "There is nobody to aim it at."),
        }));
    }
    c.aim = Aim::Figure(valid);
    c
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

/// The open reflex or response window, if `a` is the one asked: its choices (valid or not).
pub fn reaction_choices(m: &Match, a: usize) -> Option<(ReactionKind, Vec<ReactionChoice>)> {
    if m.a4.is_some() {
        return super::a4::preview::reaction_choices(m, a);
    }
    let p = m.pending.as_ref()?;
    if p.defender != a {
        return None;
    }
    let kind = match p.window.as_ref()? {
        super::state::Window::Reflex => ReactionKind::Reflex,
        super::state::Window::Response => ReactionKind::Response,
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
                refusal: engine::validate(m, &command).err(),
                command,
                description: r.source.clone(),
            }
        })
        .collect();
    Some((kind, list))
}

#[cfg(test)]
mod bar_tests {
    use super::*;
    use crate::testkit::duel;

    const ORC: &str =
        r#"(id: "orc", side: "monsters", pos: (4, 0), stats: (brawn: 8, finesse: 6, savvy: 4, nerve: 6), skills: {"maces": apprentice}, weapon: Some("mace"))"#;

    fn entries(hero: &str) -> Vec<Choice> {
        let g = duel(None, 8, &[hero, ORC], r#"(characters: {"h": (ap: 3), "orc": (ap: 1)})"#, &[1, 1, 1, 1]);
        let a = g.m.index("h").unwrap();
        choices(&g.m, a)
    }

    fn row<'a>(c: &'a [Choice], id: &str) -> Vec<&'a Choice> {
        c.iter().filter(|c| c.row == id).collect()
    }

    // R-ACT-1 (the action table), R-ACT-3 (ranged-only attacks), R-RNG-8 (crossbow resets),
    // G-26 (spells), R-MOVE-1 (Climb between levels): entries a figure can never use are marked
    // so the bar hides them; the others stay, greyed with their rule when only "not now".
    #[test]
    fn entries_a_figure_can_never_use_are_marked_and_the_rest_grouped() {
        let axe = r#"(id: "h", side: "heroes", pos: (0, 0), stats: (brawn: 9, finesse: 7, savvy: 5, nerve: 6), skills: {"axes": journeyman}, weapon: Some("broad_axe"))"#;
        let c = entries(axe);
        for id in ["snapshot", "aimed_shot", "shield_block", "cast_spell", "reset_crossbow", "use_item", "climb"] {
            for e in row(&c, id) {
                assert!(!e.applies, "{id} cannot apply to an axeman with no shield, spells, items or stairs: {e:?}");
            }
        }
        let attack = row(&c, "attack");
        assert!(attack.iter().all(|e| e.applies && e.group == Group::Attack), "{attack:?}");
        for e in row(&c, "drop") {
            assert!(e.applies && e.group == Group::Move, "{e:?}");
        }
        // Rise applies (he may be knocked down) but is refused while he stands: shown greyed.
        let rise = row(&c, "rise");
        assert!(!rise.is_empty() && rise.iter().all(|e| e.applies && e.refusal.as_ref().is_some_and(|v| v.rule == "R-POS-2")), "{rise:?}");

        let archer = r#"(id: "h", side: "heroes", pos: (0, 0), stats: (brawn: 8, finesse: 8, savvy: 5, nerve: 5), skills: {"crossbows": apprentice}, weapon: Some("crossbow"), items: ["potion_of_healing"])"#;
        let c = entries(archer);
        for id in ["snapshot", "reset_crossbow", "use_item"] {
            let r = row(&c, id);
            assert!(!r.is_empty() && r.iter().all(|e| e.applies), "{id} applies to a crossbowman with a potion: {r:?}");
        }
        assert!(row(&c, "use_item").iter().all(|e| e.group == Group::Other));
        let shield = r#"(id: "h", side: "heroes", pos: (0, 0), stats: (brawn: 9, finesse: 7, savvy: 5, nerve: 6), skills: {"swords": journeyman, "shields": journeyman}, weapon: Some("shortsword"), shield: Some("buckler"))"#;
        let block = row(&entries(shield), "shield_block").into_iter().cloned().collect::<Vec<_>>();
        assert!(!block.is_empty() && block.iter().all(|e| e.applies && e.group == Group::Defend), "{block:?}");
        // Reloading a loaded crossbow: applies, refused now with its rule.
        let c = entries(archer);
        let reset = row(&c, "reset_crossbow");
        assert!(reset.iter().all(|e| e.refusal.as_ref().is_some_and(|v| v.rule == "R-RNG-8")), "{reset:?}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::duel;

    #[test] // R-ACT-3: a figure keeps its one weapon, so attacks restricted to the other kind never apply (the card lists none of them)
    fn attacks_a_figure_can_never_make_do_not_apply() {
        let bow = r#"(id: "x", side: "heroes", pos: (0, 0), weapon: Some("crossbow"), skills: {"crossbows": apprentice}, stats: (brawn: 8, finesse: 8, savvy: 5, nerve: 5))"#;
        let axe = r#"(id: "y", side: "monsters", pos: (5, 0), stats: (brawn: 8, finesse: 6, savvy: 4, nerve: 6))"#;
        let g = duel(None, 8, &[bow, axe], r#"(characters: {"x": (ap: 4), "y": (ap: 1)})"#, &[]);
        let kinds = |a: usize| -> Vec<(WeaponUse, bool)> {
            g.m.rules
                .actions
                .iter()
                .filter_map(|r| match r.effect {
                    ActionEffect::Attack { weapon, .. } => Some((weapon, action_applies(&g.m, a, &r.effect))),
                    _ => None,
                })
                .collect()
        };
        let (x, y) = (g.m.index("x").unwrap(), g.m.index("y").unwrap());
        assert!(kinds(x).iter().any(|k| k.0 == WeaponUse::Melee), "the profile has melee-only attacks");
        for (w, applies) in kinds(x) {
            assert_eq!(applies, w != WeaponUse::Melee, "crossbow: {w:?}");
        }
        for (w, applies) in kinds(y) {
            assert_eq!(applies, w != WeaponUse::Ranged, "unarmed/melee: {w:?}");
        }
    }
}
