//! Orders carried out (R-EXP-*): in Exploration Mode a hero's order of the minute (walk with his
//! group, doors, tasks, items, climb, camp, wait, follow, an attack order that starts a crisis),
//! returning the `Flow` (exploring on, or a crisis starts); in a crawl's crisis the door, item and
//! lengthy-task actions (R-EXP-8, R-EXP-10). Each is handed the crawl and checked already.

use super::super::command::Command;
use super::super::dice::Dice;
use super::super::event::Event;
use super::super::grid::Pos;
use super::super::profile::{Cost, Posture};
use super::super::spending::{Price, pay, price_only};
use super::super::state::Match;
use super::super::turn::{Flow, close_opportunity};
use super::crisis::{begin_crisis, check_triggers};
use super::items::{door, drop_item, open_chest_at, spring, take};
use super::orders;
use super::sight::{reveal_all, sightings};
use super::state::{Acted, CrisisRules, Explore, Task, TrapOn};
use super::tasks::{light, put_out, resolve_task, start_binding};
use super::turns::{camp, end_turn, end_turn_by_itself, hp_now};
use super::validate::opens_on_the_way;

/// Carries out a checked order of Exploration Mode. Returns the flow: exploration goes on, or a
/// crisis starts.
pub fn order(m: &mut Match, x: &mut Explore, a: usize, cmd: &Command, r: CrisisRules, dice: &mut Dice, ev: &mut Vec<Event>) -> Flow {
    let id = m.fighters[a].id.clone();
    // R-EXP-21: a crisis this order starts counts the harm done on the way in (a trap) as its own.
    x.hp_at_crisis = hp_now(m);
    // R-EXP-27: a hero lying, sitting or kneeling stands up free as part of his next order
    // (ending the turn or regrouping is not one).
    if !matches!(cmd, Command::EndTurn { .. } | Command::Follow { .. } | Command::Recovery { .. }) {
        stand_up(m, a, ev);
    }
    let flow = match cmd {
        Command::Recovery { pool, .. } => {
            // R-EXP-20 step 5, R-MANA-2: the standing choice, no order (nothing else changes).
            m.fighters[a].recovery = Some(*pool);
            ev.push(Event::RecoveryChoice { actor: id.into(), pool: *pool });
            return Flow::Exploring;
        }
        Command::Walk { path, group, .. } => walk(m, x, a, path, *group, r, dice, ev),
        Command::Door { at, open, .. } => {
            use_spaces(x, a, 1);
            door(m, x, a, *at, *open, r, dice, ev)
        }
        Command::Task { task: Task::Bind, at, .. } => {
            // R-EXP-21: healer and patient busy 3 turns per HP it can restore.
            if let Some(p) = m.occupant(*at) {
                ev.push(Event::TaskOrdered { actor: id.into(), task: Task::Bind, at: *at });
                start_binding(m, x, a, p, ev);
            }
            None
        }
        Command::Task { task, at, .. } => {
            x.acted[a] = Acted::Done;
            x.tasks.push((a, *task, *at, None));
            ev.push(Event::TaskOrdered { actor: id.into(), task: *task, at: *at });
            None
        }
        Command::Take { at, item, .. } => {
            take(m, x, a, *at, item, ev);
            None
        }
        Command::Drop { item, .. } => {
            drop_item(m, Some(x), a, item, ev);
            None
        }
        Command::Assist { helped, .. } => {
            // R-CHK-7: his action; his check is rolled with the helped one's, at the end of the turn.
            if let Some(h) = m.index(helped) {
                x.acted[a] = Acted::Done;
                x.orders.assists.insert(h, a);
                ev.push(Event::TaskOrdered { actor: id.into(), task: Task::Assist, at: m.fighters[h].pos });
            }
            None
        }
        Command::Search { spaces, .. } => {
            // R-EXP-14: the spaces of the player's choice.
            let at = m.fighters[a].pos;
            x.acted[a] = Acted::Done;
            x.tasks.push((a, Task::Search, at, None));
            x.orders.search_spaces.insert(a, spaces.clone());
            ev.push(Event::TaskOrdered { actor: id.into(), task: Task::Search, at });
            None
        }
        Command::Hand { to, item, .. } => {
            // R-EXP-8, R-EXP-20 step 1: it passes at the end of the turn.
            let at = m.index(to).map_or(m.fighters[a].pos, |t| m.fighters[t].pos);
            x.acted[a] = Acted::Done;
            x.tasks.push((a, Task::Hand, at, Some(item.clone())));
            ev.push(Event::TaskOrdered { actor: id.into(), task: Task::Hand, at });
            None
        }
        Command::Trade { with, trade, .. } => {
            // R-CP-16, R-EXP-20 step 1: the items change hands at the end of the turn.
            let at = m.index(with).map_or(m.fighters[a].pos, |n| m.fighters[n].pos);
            x.acted[a] = Acted::Done;
            x.tasks.push((a, Task::Trade, at, Some(trade.to_string())));
            ev.push(Event::TaskOrdered { actor: id.into(), task: Task::Trade, at });
            None
        }
        Command::SortLoot { at, share, .. } => {
            ev.push(Event::TaskOrdered { actor: id.into(), task: Task::SortLoot, at: *at });
            orders::start_sorting(m, x, *at, share, ev);
            None
        }
        Command::Use { item, target, .. } => {
            let at = target.as_deref().and_then(|t| m.index(t)).map_or(m.fighters[a].pos, |t| m.fighters[t].pos);
            x.acted[a] = Acted::Done;
            x.tasks.push((a, Task::UseItem, at, Some(item.clone())));
            ev.push(Event::TaskOrdered { actor: id.into(), task: Task::UseItem, at });
            None
        }
        Command::Climb { .. } => {
            climb(m, x, a, ev);
            None
        }
        Command::Camp { .. } => {
            camp(m, x, dice, ev);
            return Flow::Exploring;
        }
        Command::Wait { .. } if orders::sorting_of(x, a).is_some() => {
            orders::abort_sorting(m, x, a, ev);
            None
        }
        Command::Wait { .. } if x.busy.contains_key(&a) => {
            // R-EXP-9: aborting loses all progress.
            if let Some((h, p, _)) = x.busy.remove(&a) {
                x.busy.remove(&h);
                x.busy.remove(&p);
            }
            ev.push(Event::Note { text: format!("{} stops binding wounds: the work is lost (R-EXP-9).", m.fighters[a].name) });
            None
        }
        Command::Wait { .. } => {
            x.acted[a] = Acted::Done;
            ev.push(Event::Waited { actor: id.into() });
            None
        }
        Command::EndTurn { .. } => return end_turn(m, x, r, dice, ev),
        Command::Action { target: Some(t), .. } => match m.index(t) {
            Some(ti) => return attack_order(m, x, a, ti, dice, ev),
            None => None,
        },
        Command::Follow { leader, .. } => {
            follow(m, x, a, leader.as_deref(), ev);
            None
        }
        _ => None,
    };
    if let Some(f) = flow {
        return f;
    }
    if let Some(f) = check_triggers(m, x, dice, None, ev).into_crisis() {
        return f;
    }
    // Every hero able to act has acted: the turn ends (R-EXP-3).
    let all_done = (0..m.fighters.len()).filter(|&i| x.is_explorer(m, i) && m.standing(i) && m.fighters[i].hp > 0).all(|i| x.acted[i] == Acted::Done);
    if all_done { end_turn_by_itself(m, x, r, dice, ev) } else { Flow::Exploring }
}

/// R-EXP-24 (c), R-EXP-25: the target and his encounter take part (hostile now); the attack
/// itself is made in the crisis, at the attacker's opportunity.
fn attack_order(m: &mut Match, x: &mut Explore, a: usize, ti: usize, dice: &mut Dice, ev: &mut Vec<Event>) -> Flow {
    if let Some(e) = x.encounter_of[ti] {
        for i in x.encounters[e].members.clone() {
            x.calm[i] = false;
        }
        // R-CP-16: a non-hostile encounter attacked is hostile for the rest of the level.
        if x.more.peaceful.remove(&e) {
            ev.push(Event::Note { text: format!("{} turns hostile (R-CP-16, R-EXP-25).", x.encounters[e].id) });
        }
    }
    let reason = format!("{} attacks {}", m.fighters[a].name, m.fighters[ti].name);
    let mut seen = sightings(m, x);
    seen.push((a, ti));
    begin_crisis(m, x, dice, &seen, &reason, super::crisis::Surprise::Rolled { attacked: Some(ti) }, ev);
    Flow::CrisisStarts
}

trait IntoCrisis {
    fn into_crisis(self) -> Option<Flow>;
}
impl IntoCrisis for Flow {
    fn into_crisis(self) -> Option<Flow> {
        (self == Flow::CrisisStarts).then_some(self)
    }
}

fn use_spaces(x: &mut Explore, a: usize, n: u32) {
    let used = match x.acted[a] {
        Acted::No => n,
        Acted::Moving(u) => u + n,
        Acted::Done => x.book.move_spaces,
    };
    x.acted[a] = if used >= x.book.move_spaces { Acted::Done } else { Acted::Moving(used) };
}

/// Carries out a checked door, item or task order in a crawl's crisis (R-EXP-8: a door, a take
/// or opening a chest is a 1-AP action; a drop costs nothing; R-EXP-10: a lengthy task).
pub fn in_crisis(m: &mut Match, x: &mut Explore, a: usize, cmd: &Command, r: CrisisRules, dice: &mut Dice, ev: &mut Vec<Event>) {
    let pay_one = |m: &mut Match, what: &str, ev: &mut Vec<Event>| {
        let f = &mut m.fighters[a];
        let amount = pay(f, Price { ap: 1, only: false }, true);
        f.turn.did_anything = true;
        f.opp.action = Some(what.to_string());
        m.clock.last_closed = None;
        ev.push(Event::ApSpent { actor: f.id.as_str().into(), amount, ap: f.ap.current, for_what: what.to_string() });
    };
    match cmd {
        Command::Door { at, open, .. } => {
            pay_one(m, "door", ev);
            let _ = door(m, x, a, *at, *open, r, dice, ev);
            close_opportunity(m, false, ev);
        }
        Command::Take { at, item, .. } => {
            pay_one(m, "take_item", ev);
            take(m, x, a, *at, item, ev);
            close_opportunity(m, false, ev);
        }
        Command::Drop { item, .. } => drop_item(m, Some(x), a, item, ev),
        Command::Hand { to, item, .. } => {
            // R-EXP-8: a 1-AP action of the giver; the item passes at once.
            pay_one(m, "hand_item", ev);
            let at = m.index(to).map_or(m.fighters[a].pos, |t| m.fighters[t].pos);
            orders::hand_over(m, x, a, at, item, ev);
            close_opportunity(m, false, ev);
        }
        Command::Task { task: Task::OpenChest, at, .. } => {
            pay_one(m, "open_chest", ev);
            open_chest_at(m, x, a, *at, r, dice, ev);
            close_opportunity(m, false, ev);
        }
        Command::Task { task: Task::Light, at, .. } => {
            // R-EXP-18, R-EXP-8: the Use Item action, 3/Only; the light burns at once.
            pay_only(m, a, "use_item", ev);
            light(m, x, a, *at, ev);
            reveal_all(m, x, ev);
            close_opportunity(m, false, ev);
        }
        Command::Task { task: Task::PutOut, at, .. } => {
            pay_one(m, "put_out", ev);
            put_out(m, x, a, *at, ev);
            close_opportunity(m, false, ev);
        }
        Command::Search { spaces, .. } => {
            // R-EXP-14, R-EXP-10: the chosen spaces; choosing others starts the search afresh.
            if x.orders.search_spaces.get(&a) != Some(spaces) {
                x.crisis_tasks.remove(&a);
            }
            x.orders.search_spaces.insert(a, spaces.clone());
            let at = m.fighters[a].pos;
            lengthy_task(m, x, a, Task::Search, at, r, dice, ev);
            close_opportunity(m, false, ev);
        }
        Command::Task { task, at, .. } => {
            // R-EXP-14: a search of the default spaces is not the search of chosen ones.
            if *task == Task::Search && x.orders.search_spaces.remove(&a).is_some() {
                x.crisis_tasks.remove(&a);
            }
            lengthy_task(m, x, a, *task, *at, r, dice, ev);
            close_opportunity(m, false, ev);
        }
        _ => {}
    }
}

/// R-EXP-10: a turn of a lengthy task, a 3/Only action; the third consecutive turn rolls the
/// check.
fn lengthy_task(m: &mut Match, x: &mut Explore, a: usize, task: Task, at: Pos, r: CrisisRules, dice: &mut Dice, ev: &mut Vec<Event>) {
    let what = format!("{}_lengthy", task.label().replace(' ', "_"));
    pay_only(m, a, &what, ev);
    let turn = m.clock.turn;
    let done = match x.crisis_tasks.get(&a) {
        Some(&(t, p, n, last)) if t == task && p == at && last + 1 == turn => n + 1,
        _ => 1,
    };
    x.crisis_tasks.insert(a, (task, at, done, turn));
    ev.push(Event::TaskOrdered { actor: m.fighters[a].id.as_str().into(), task, at });
    ev.push(Event::Note { text: format!("{}: turn {done} of 3 at the task (R-EXP-10).", m.fighters[a].name) });
    if done >= 3 {
        x.crisis_tasks.remove(&a);
        let _ = resolve_task(m, x, a, task, at, r, dice, ev);
    }
}

/// A checked 3/Only action is paid (R-ONLY-4: 3 AP with AP_start 3 or more, else Only mode).
fn pay_only(m: &mut Match, a: usize, what: &str, ev: &mut Vec<Event>) {
    let price = price_only(&m.fighters[a], Cost::XOnly(3), what).unwrap_or(Price { ap: 3, only: false });
    let f = &mut m.fighters[a];
    let amount = pay(f, price, true);
    f.turn.did_anything = true;
    f.opp.action = Some(what.to_string());
    m.clock.last_closed = None;
    if price.only {
        ev.push(Event::OnlyMode { actor: f.id.as_str().into(), action: what.to_string() });
    }
    ev.push(Event::ApSpent { actor: f.id.as_str().into(), amount, ap: f.ap.current, for_what: what.to_string() });
}

/// R-EXP-4: leaves his group; with a leader, joins the end of the leader's group.
fn follow(m: &Match, x: &mut Explore, a: usize, leader: Option<&str>, ev: &mut Vec<Event>) {
    let li = leader.and_then(|l| m.index(l));
    for g in x.groups.iter_mut() {
        g.retain(|&i| i != a);
    }
    x.groups.retain(|g| !g.is_empty());
    match li.and_then(|l| x.group_of(l)) {
        Some(g) => x.groups[g].push(a),
        None => x.groups.push(vec![a]),
    }
    let groups = x.groups.iter().map(|g| g.iter().map(|&i| m.fighters[i].id.clone()).collect()).collect();
    ev.push(Event::Groups { groups });
}

/// R-EXP-5: a walk, alone or as a group's leader, step by step; the group follows by the
/// trail; after each whole step traps spring and sight is tested (R-EXP-24).
#[allow(clippy::too_many_arguments)]
fn walk(m: &mut Match, x: &mut Explore, a: usize, path: &[Pos], group: bool, r: CrisisRules, dice: &mut Dice, ev: &mut Vec<Event>) -> Option<Flow> {
    let mut members: Vec<usize> = if group { x.groups.iter().find(|g| g.first() == Some(&a)).cloned().unwrap_or_else(|| vec![a]) } else { vec![a] };
    // R-EXP-6: a member who already used his action (or cannot act) stays behind, alone.
    // Members who walked with him earlier this turn keep up: their action is his.
    let lead = x.acted[a];
    let behind: Vec<usize> =
        members.iter().copied().skip(1).filter(|&i| (x.acted[i] != Acted::No && x.acted[i] != lead) || !m.standing(i) || m.fighters[i].hp <= 0).collect();
    for &i in &behind {
        let id = m.fighters[i].id.clone();
        follow(m, x, i, None, ev);
        ev.push(Event::Note { text: format!("{id} stays behind (R-EXP-6).") });
    }
    members.retain(|i| !behind.contains(i));
    // R-EXP-27: the move is each member's order too.
    for &i in &members {
        stand_up(m, i, ev);
    }
    let path = passable(m, x, a, &members, path, ev);
    let starts: Vec<Pos> = members.iter().map(|&i| m.fighters[i].pos).collect();
    let mut left: Vec<Pos> = Vec::new(); // spaces the leader left, oldest first
    let mut walked = 0u32;
    let mut moved: Vec<Vec<Pos>> = vec![Vec::new(); members.len()];
    let mut crisis = None;
    let mut sprang = false;
    for &p in &path {
        // R-EXP-11: a closed door on the way opens as part of the move (1 of its spaces).
        if opens_on_the_way(m, x, a, p) && m.fighters[a].pos.distance(p) == 1 {
            walked += 1;
            match door(m, x, a, p, true, r, dice, ev) {
                Some(Flow::CrisisStarts) => {
                    crisis = Some(Flow::CrisisStarts);
                    break;
                }
                // a trap on the door sprang: the move stops there (R-EXP-5, R-EXP-16)
                Some(_) => break,
                None => {
                    // R-EXP-24 (a): tested the moment the door opens, as the Open Door order
                    // does; a walker who now sees an active hostile stops before the doorway.
                    if check_triggers(m, x, dice, None, ev) == Flow::CrisisStarts {
                        crisis = Some(Flow::CrisisStarts);
                        break;
                    }
                }
            }
        }
        // A member standing there steps aside along the trail below; the leader goes first.
        let from = m.fighters[a].pos;
        if let Some(o) = m.occupant(p).filter(|&o| o != a && members.contains(&o)) {
            // swap: the member takes the leader's old space
            m.fighters[o].pos = from;
            if let Some(k) = members.iter().position(|&i| i == o) {
                moved[k].push(from);
            }
        }
        m.fighters[a].pos = p;
        moved[0].push(p);
        left.insert(0, from);
        walked += m.board.path_cost(&[p]);
        let entered = follow_the_trail(m, x, &members, &left, &starts, &mut moved);
        // G-02: passing through an ally's space, the leader is not yet standing anywhere: the
        // tests of this step (and a trap a member sprang) wait for his next, free space.
        let passing = shares_space(m, a);
        // Traps in the spaces entered, in marching order (R-EXP-16).
        for &i in entered.iter().filter(|&&i| !(passing && i == a)) {
            if let Some(t) = x.trap_at(m.fighters[i].pos, TrapOn::Space) {
                spring(m, x, t, i, r, dice, ev);
                sprang = true;
            }
        }
        reveal_all(m, x, ev);
        if passing {
            continue;
        }
        // R-EXP-24 (a) and (b): a sighting, or a trap that sprang (resolved first).
        let flow = check_triggers(m, x, dice, sprang.then_some("a trap sprang"), ev);
        if flow == Flow::CrisisStarts {
            crisis = Some(flow);
            break;
        }
        sprang = false;
    }
    for (k, &i) in members.iter().enumerate() {
        if !moved[k].is_empty() {
            ev.push(Event::Moved {
                actor: m.fighters[i].id.as_str().into(),
                movement: "explore".into(),
                from: starts[k],
                to: m.fighters[i].pos,
                path: moved[k].clone(),
            });
        }
    }
    if crisis.is_some() {
        return crisis;
    }
    use_spaces(x, a, walked.max(1));
    let lead = x.acted[a];
    for &i in members.iter().skip(1) {
        x.acted[i] = lead;
    }
    None
}

/// G-02, R-EXP-5: the part of a checked `path` the leader walks. Allies are passed through but
/// not ended on; anything else in the way (a figure the side did not see when it gave the
/// order, a wall) stops the walk before it, and he stops on the last space of it nobody else
/// holds. A closed door on it is opened when reached (R-EXP-11).
fn passable(m: &Match, x: &Explore, a: usize, members: &[usize], path: &[Pos], ev: &mut Vec<Event>) -> Vec<Pos> {
    let name = &m.fighters[a].name;
    let mut at = m.fighters[a].pos;
    let mut out = Vec::with_capacity(path.len());
    for &p in path {
        let foe = m.occupant(p).filter(|&o| !members.contains(&o) && m.fighters[o].side != m.fighters[a].side);
        // a closed door on the way is opened as the walk reaches it (R-EXP-11)
        if foe.is_some() || (m.board.step_geometry(at, p).is_err() && !opens_on_the_way(m, x, a, p)) {
            ev.push(Event::Note { text: format!("{name} stops: {p} is blocked.") });
            break;
        }
        out.push(p);
        at = p;
    }
    let held = |p: &Pos| m.fighters.iter().enumerate().any(|(i, f)| i != a && !members.contains(&i) && f.pos == *p && !m.is_dead(i));
    if out.last().is_some_and(held) {
        let last = out.iter().rposition(|p| !held(p)).map_or(0, |k| k + 1);
        ev.push(Event::Note { text: format!("{name} stops short: {} holds {} (G-02: allies are passed, not ended on).", holder(m, a, out[last]), out[last]) });
        out.truncate(last);
    }
    out
}

fn holder(m: &Match, a: usize, p: Pos) -> String {
    m.fighters.iter().enumerate().find(|(i, f)| *i != a && f.pos == p).map_or_else(String::new, |(_, f)| f.name.clone())
}

/// R-EXP-27: up from the floor for free, as part of an order in Exploration Mode.
fn stand_up(m: &mut Match, i: usize, ev: &mut Vec<Event>) {
    let f = &mut m.fighters[i];
    if f.posture != Posture::Standing {
        ev.push(Event::PostureChanged { actor: f.id.as_str().into(), from: f.posture, to: Posture::Standing });
        f.posture = Posture::Standing;
    }
}

/// Another living figure stands on `a`'s space (he is passing through an ally, G-02).
fn shares_space(m: &Match, a: usize) -> bool {
    let p = m.fighters[a].pos;
    m.fighters.iter().enumerate().any(|(i, f)| i != a && f.pos == p && !m.is_dead(i))
}

/// Members follow their leader in marching order along the spaces he `left` (G-54); returns who
/// entered a space this step, the leader first.
fn follow_the_trail(m: &mut Match, x: &Explore, members: &[usize], left: &[Pos], starts: &[Pos], moved: &mut [Vec<Pos>]) -> Vec<usize> {
    let mut trail: Vec<Pos> = left.to_vec();
    trail.extend(starts.iter().skip(1));
    let mut entered: Vec<usize> = vec![members[0]];
    for k in 1..members.len() {
        let i = members[k];
        let slot = trail[k - 1];
        let here = m.fighters[i].pos;
        if here == slot {
            continue;
        }
        if let Some(next) = step_toward(m, here, slot) {
            if m.occupant(next).is_none() && m.board.step_geometry(here, next).is_ok() && x.chest_at(next).is_none() {
                m.fighters[i].pos = next;
                moved[k].push(next);
                entered.push(i);
            }
        }
    }
    entered
}

/// R-EXP-7: the climber reaches the other end of his stairs; as a group's leader, members
/// within 6 walking spaces (through heroes, not walls or closed doors) who have not acted
/// climb too, placed in marching order on the nearest free spaces to the arrival (ties: lowest
/// row, then column); the others stay behind, each a group of his own.
fn climb(m: &mut Match, x: &mut Explore, a: usize, ev: &mut Vec<Event>) {
    let from = m.fighters[a].pos;
    let Some(dest) = m.board.stairs_destination(from) else { return };
    let reach = x.book.move_spaces;
    let members: Vec<usize> = x.groups.iter().find(|g| g.first() == Some(&a)).map(|g| g[1..].to_vec()).unwrap_or_default();
    // walking distance from the stairs, passing through heroes
    let b = &m.board;
    let near = |p: Pos| -> bool {
        let found = pathfinding::directed::bfs::bfs(
            &from,
            |q: &Pos| {
                let mut out = Vec::new();
                for dy in -1..=1 {
                    for dx in -1..=1 {
                        let r = Pos::on(q.x + dx, q.y + dy, q.floor);
                        if (dx, dy) != (0, 0) && r.distance(from) <= reach && b.step_geometry(*q, r).is_ok() {
                            out.push(r);
                        }
                    }
                }
                out
            },
            |q| *q == p,
        );
        found.is_some_and(|path| path.len() as u32 - 1 <= reach)
    };
    let climbing: Vec<usize> =
        members.iter().copied().filter(|&i| x.acted[i] == Acted::No && m.standing(i) && m.fighters[i].hp > 0 && near(m.fighters[i].pos)).collect();
    let behind: Vec<usize> = members.iter().copied().filter(|i| !climbing.contains(i)).collect();
    m.fighters[a].pos = dest;
    ev.push(Event::Moved { actor: m.fighters[a].id.as_str().into(), movement: "climb".into(), from, to: dest, path: vec![dest] });
    for &i in &climbing {
        if let Some(p) = arrival(m, x, dest) {
            let old = m.fighters[i].pos;
            m.fighters[i].pos = p;
            ev.push(Event::Moved { actor: m.fighters[i].id.as_str().into(), movement: "climb".into(), from: old, to: p, path: vec![p] });
        }
    }
    x.acted[a] = Acted::Done;
    for &i in &climbing {
        x.acted[i] = Acted::Done;
    }
    for i in behind {
        let id = m.fighters[i].id.clone();
        follow(m, x, i, None, ev);
        ev.push(Event::Note { text: format!("{id} stays behind (R-EXP-7).") });
    }
    reveal_all(m, x, ev);
}

/// The nearest free walkable space to `dest` on its floor (ties: lowest row, then column).
fn arrival(m: &Match, x: &Explore, dest: Pos) -> Option<Pos> {
    let mut best: Option<(u32, i32, i32, Pos)> = None;
    let fl = &m.board.floors[dest.floor as usize];
    for y in 0..fl.height as i32 {
        for xx in 0..fl.width as i32 {
            let p = Pos::on(xx, y, dest.floor);
            if !m.board.walkable(p) || m.occupant(p).is_some() || x.chest_at(p).is_some() {
                continue;
            }
            let key = (p.distance(dest), p.y, p.x, p);
            if best.is_none_or(|b| (key.0, key.1, key.2) < (b.0, b.1, b.2)) {
                best = Some(key);
            }
        }
    }
    best.map(|b| b.3)
}

/// One step from `from` toward `to` along a shortest walkable path (ties: the step to the
/// lowest row, then column; G-54).
fn step_toward(m: &Match, from: Pos, to: Pos) -> Option<Pos> {
    let b = &m.board;
    let succ = |p: &Pos| -> Vec<(Pos, u32)> {
        let mut out = Vec::with_capacity(8);
        for dy in -1..=1 {
            for dx in -1..=1 {
                let q = Pos::on(p.x + dx, p.y + dy, p.floor);
                if (dx, dy) != (0, 0) && b.step_geometry(*p, q).is_ok() {
                    out.push((q, 1));
                }
            }
        }
        out
    };
    // Distances from the goal, then the best neighbour of `from`.
    let far = from.distance(to);
    if far > 64 {
        return None;
    }
    let dist = |q: Pos| {
        pathfinding::directed::bfs::bfs(&q, |p| succ(p).into_iter().map(|x| x.0).filter(|s| s.distance(to) <= far + 8).collect::<Vec<_>>(), |p| *p == to)
            .map(|p| p.len())
    };
    let mut best: Option<(usize, i32, i32, Pos)> = None;
    for (q, _) in succ(&from) {
        if let Some(d) = dist(q) {
            let key = (d, q.y, q.x, q);
            if best.is_none_or(|b| (key.0, key.1, key.2) < (b.0, b.1, b.2)) {
                best = Some(key);
            }
        }
    }
    best.map(|b| b.3)
}
