//! The party's crawl orders (issue 45), for the AI explorer (`explore.rs`): a free hero next to
//! one picking or forcing a lock assists his check (R-CHK-7, R-EXP-12, R-EXP-13, G-60); a
//! healing item goes from a hero who is not wounded to a hurt one next to him who has none
//! (R-EXP-8, R-EXP-20); an open chest's loot is sorted and shared out by the heroes around it
//! (R-EXP-15): healing to the most hurt, keys to the leader (who opens the doors), weapons and
//! armor to whoever uses them or lacks them, the rest to whoever carries least. The knobs are
//! data (`AiBook::party`, assets/ai/behaviours.ron); who may help or sort is the rules' own
//! answer (`explore::orders`), and every order goes through `engine::validate`.

use super::book::Party;
use super::odds::check_distribution;
use super::paths::{route, walk_prefix};
use crate::rules::attack::{Injury, injury, stat_rank};
use crate::rules::checks::assist_bonus;
use crate::rules::command::{Command, MAX_PATH};
use crate::rules::engine;
use crate::rules::explore::orders::{sorters, task_skill};
use crate::rules::explore::{Acted, Explore, Share, Task, side_view};
use crate::rules::grid::Pos;
use crate::rules::state::Match;

fn ok(m: &Match, c: &Command) -> bool {
    engine::validate(m, c).is_ok()
}

/// A healing item (one the equipment book says heals) hero `i` carries.
pub(super) fn potion_of(m: &Match, i: usize) -> Option<String> {
    m.fighters[i].loadout.items.iter().find(|it| heals(m, it)).cloned()
}

fn heals(m: &Match, item: &str) -> bool {
    m.equipment.item(item).is_some_and(|x| x.heals.is_some())
}

/// The HP a healing item restores on average (its dice, not exploding).
fn mean_heal(m: &Match, item: &str) -> f64 {
    m.equipment.item(item).and_then(|x| x.heals).map_or(0.0, |d| d.0 as f64 * (d.1 as f64 + 1.0) / 2.0)
}

/// R-CHK-7, C-34: what helper `g` is expected to add to `h`'s check of `task` at `at` (the
/// rules' `assist_bonus` over the helper's roll: the instigator's skill, the helper's stat).
pub(super) fn assist_gain(m: &Match, x: &Explore, h: usize, g: usize, task: Task, at: Pos) -> f64 {
    let Some((skill, stat, _)) = task_skill(m, x, h, task, at) else { return 0.0 };
    let cr = stat_rank(m, h, stat) as i32;
    let adj = m.fighters[g].skill(&skill).adjustment();
    let d = check_distribution(stat_rank(m, g, stat));
    d.iter().enumerate().map(|(t, p)| p * assist_bonus(m.rules.options.assist, t as i32 + adj, cr) as f64).sum()
}

/// R-CHK-7, R-EXP-12, R-EXP-13: a task of the book's list ordered this turn gets the helper the
/// rules let assist who adds the most, when that is worth it.
pub(super) fn assist(m: &Match, x: &Explore, p: &Party) -> Option<Command> {
    let mut best: Option<(f64, Command)> = None;
    for &(h, task, at, _) in x.tasks.iter().filter(|t| p.assist.contains(&t.1)) {
        for g in (0..m.fighters.len()).filter(|&g| g != h && x.is_explorer(m, g)) {
            let c = Command::Assist { actor: m.fighters[g].id.clone(), helped: m.fighters[h].id.clone() };
            if !ok(m, &c) {
                continue;
            }
            let gain = assist_gain(m, x, h, g, task, at);
            if gain >= p.assist_gain && best.as_ref().is_none_or(|b| gain > b.0) {
                best = Some((gain, c));
            }
        }
    }
    best.map(|b| b.1)
}

fn fraction(m: &Match, i: usize) -> f64 {
    m.fighters[i].hp as f64 / m.fighters[i].max_hp.max(1) as f64
}

/// R-EXP-8, R-INJ-1: a bruised hero (hurt, not below half: then a potion is used on him) below the
/// book's `hand_below` who holds no healing item is handed one by a hero next to him who is
/// not wounded and less hurt than he; the most hurt first.
pub(super) fn hand(m: &Match, x: &Explore, p: &Party) -> Option<Command> {
    let mut hurt: Vec<usize> = (0..m.fighters.len())
        .filter(|&r| x.is_explorer(m, r) && !m.is_dead(r) && injury(&m.fighters[r]) == Injury::Bruised)
        .filter(|&r| fraction(m, r) < p.hand_below && potion_of(m, r).is_none())
        .collect();
    hurt.sort_by(|&a, &b| fraction(m, a).total_cmp(&fraction(m, b)).then(a.cmp(&b)));
    for r in hurt {
        for c in (0..m.fighters.len()).filter(|&c| c != r && x.is_explorer(m, c) && fraction(m, c) > fraction(m, r)) {
            if matches!(injury(&m.fighters[c]), Injury::Healthy | Injury::Bruised) {
                if let Some(item) = potion_of(m, c) {
                    let cmd = Command::Hand { actor: m.fighters[c].id.clone(), to: m.fighters[r].id.clone(), item };
                    if ok(m, &cmd) {
                        return Some(cmd);
                    }
                }
            }
        }
    }
    None
}

/// R-EXP-15: the open chest next to the leader with enough items is sorted by the heroes the
/// rules let take part, once there are enough of them. Until then the free heroes near it walk
/// up (and the turn ends), or, with the leader's action spent, the turn ends so that those
/// around it take part in the next. None: take the items one by one.
pub(super) fn sort_loot(m: &Match, x: &Explore, p: &Party, leader: usize) -> Option<Command> {
    if p.sort_min_items == 0 {
        return None;
    }
    let here = m.fighters[leader].pos;
    let able = |i: usize| x.is_explorer(m, i) && !m.is_dead(i) && m.standing(i) && m.fighters[i].hp > 0;
    let party = (0..m.fighters.len()).filter(|&i| able(i)).count();
    for (c, chest) in x.chests.iter().enumerate() {
        if !chest.open || chest.items.len() < p.sort_min_items || chest.pos.distance(here) > 1 || x.orders.sorting.iter().any(|s| s.chest == c) {
            continue;
        }
        if party < p.sort_min_heroes.max(2) {
            return None;
        }
        let members = sorters(m, x, chest.pos);
        if members.len() >= p.sort_min_heroes.max(2) {
            let share = share_out(m, x, &members, &chest.items, leader);
            let cmd = Command::SortLoot { actor: m.fighters[members[0]].id.clone(), at: chest.pos, share };
            if ok(m, &cmd) {
                return Some(cmd);
            }
            continue;
        }
        // Free heroes who can reach a space next to the chest this turn walk up, over spaces
        // their side has seen, around known traps (R-EXP-16, R-EXP-19).
        let view = side_view(m, &m.fighters[leader].side);
        let safe = |q: Pos| m.board.walkable(q) && m.board.index(q).is_some_and(|k| view.revealed[k]) && !view.traps.contains(&q) && x.chest_at(q).is_none();
        let spot = |q: Pos| q.distance(chest.pos) == 1 && safe(q) && m.occupant(q).is_none();
        for h in (0..m.fighters.len()).filter(|&h| able(h) && x.acted[h] == Acted::No && m.fighters[h].pos.distance(chest.pos) > 1) {
            let passable = |q: Pos| safe(q) && m.occupant(q).is_none_or(|o| x.is_explorer(m, o));
            let Some(path) = route(m, m.fighters[h].pos, &passable, &spot) else { continue };
            let whole = |c: &Command| matches!(c, Command::Walk { path: went, .. } if went.len() == path.len());
            if let Some(cmd) = walk_prefix(m, x, h, &path).filter(whole) {
                return Some(cmd);
            }
        }
        // Those next to it now take part next turn: the turn ends (the leader's action spent).
        let next = (0..m.fighters.len()).filter(|&i| able(i) && m.fighters[i].pos.distance(chest.pos) <= 1 && !x.busy.contains_key(&i)).count();
        if x.acted[leader] != Acted::No && next >= p.sort_min_heroes.max(2) {
            return Some(Command::EndTurn { actor: m.fighters[leader].id.clone() });
        }
        if x.acted[leader] == Acted::No && (0..m.fighters.len()).any(|h| able(h) && x.acted[h] != Acted::No && m.fighters[h].pos.distance(chest.pos) <= 1) {
            // Some walked up this turn: they take part in the next.
            return Some(Command::EndTurn { actor: m.fighters[leader].id.clone() });
        }
    }
    None
}

/// The share-out (R-EXP-15), each of the chest's items in turn: a healing item to the member
/// whose missing HP its carried healing covers least; a key to the leader (he opens the doors)
/// or else the best lock-picker; a weapon to whoever is best with it; armor or a shield to one
/// without; anything else to whoever then carries the fewest items (the first on a tie).
pub(super) fn share_out(m: &Match, x: &Explore, members: &[usize], items: &[String], leader: usize) -> Vec<Share> {
    let e = &m.equipment;
    let mut carried: Vec<Vec<String>> = members.iter().map(|&t| m.fighters[t].loadout.items.clone()).collect();
    let mut out = Vec::new();
    let fewest = |carried: &[Vec<String>], ks: &mut dyn Iterator<Item = usize>| ks.min_by_key(|&k| (carried[k].len(), k));
    for item in items.iter().take(MAX_PATH) {
        let all = 0..members.len();
        let k = if heals(m, item) {
            let claim = |k: usize| {
                let f = &m.fighters[members[k]];
                let cover: f64 = carried[k].iter().map(|i| mean_heal(m, i)).sum();
                (f.max_hp - f.hp) as f64 - cover
            };
            all.max_by(|&a, &b| claim(a).total_cmp(&claim(b)).then(b.cmp(&a)))
        } else if x.keys.contains_key(item) {
            let skill = &x.book.skills.disable;
            members.iter().position(|&t| t == leader).or_else(|| all.max_by_key(|&k| (m.fighters[members[k]].skill(skill).adjustment(), std::cmp::Reverse(k))))
        } else if let Some(skills) =
            e.melee(item).map(|w| w.modes.iter().map(|md| md.skill.clone()).collect::<Vec<_>>()).or_else(|| e.ranged(item).map(|w| vec![w.skill.clone()]))
        {
            let best = |k: usize| skills.iter().map(|s| m.fighters[members[k]].skill(s).adjustment()).max().unwrap_or(i32::MIN);
            let top = all.clone().map(best).max();
            fewest(&carried, &mut all.filter(|&k| Some(best(k)) == top))
        } else if e.armor(item).is_some() || e.shield(item).is_some() {
            let lacks = |k: usize| {
                let l = &m.fighters[members[k]].loadout;
                if e.armor(item).is_some() { l.armor.is_none() } else { l.shield.is_none() && !l.two_handed }
            };
            let without: Vec<usize> = all.clone().filter(|&k| lacks(k)).collect();
            if without.is_empty() { fewest(&carried, &mut all.clone()) } else { fewest(&carried, &mut without.into_iter()) }
        } else {
            fewest(&carried, &mut all.clone())
        };
        let Some(k) = k else { break };
        carried[k].push(item.clone());
        out.push(Share { item: item.clone(), to: m.fighters[members[k]].id.clone() });
    }
    out
}
