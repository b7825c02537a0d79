//! Non-hostile NPCs (R-CP-16): speaking to one he sees, and trading with one where the level
//! says (its encounter's `trades`): a task of 1 turn; the items change hands at the end of it.

use super::super::event::Event;
use super::super::grid::Pos;
use super::super::state::Match;
use super::super::violation::{RuleResult, Violation};
use super::sight::{item_name, sees};
use super::state::{Explore, Task, TradeLine};

fn refuse(rule: &str, text: impl Into<String>) -> Violation {
    Violation::new(rule, text)
}

/// R-CP-16: a non-hostile NPC he sees stands at `at`.
pub(super) fn check_speak(m: &Match, x: &Explore, a: usize, at: Pos) -> RuleResult<()> {
    let f = &m.fighters[a];
    let Some(n) = m.occupant(at).filter(|&n| !x.is_explorer(m, n) && !m.is_dead(n)) else {
        return Err(refuse("R-CP-16", format!("Nobody at {at} to speak to.")));
    };
    if !sees(m, x, a, n) {
        return Err(refuse("R-EXP-19", format!("{} does not see {}.", f.name, m.fighters[n].name)));
    }
    if !x.peaceful(n) {
        return Err(refuse("R-CP-16", format!("{} is hostile: there is no talking to him.", m.fighters[n].name)));
    }
    if m.fighters[n].hp <= 0 || !m.standing(n) {
        return Err(refuse("R-CP-16", format!("{} cannot answer now.", m.fighters[n].name)));
    }
    Ok(())
}

/// The trades NPC `n` offers that are still open (not made, or made again and again), by index.
pub fn open_trades(x: &Explore, n: usize) -> Vec<(usize, &TradeLine)> {
    let Some(e) = x.encounter_of.get(n).copied().flatten() else { return Vec::new() };
    let lines = x.more.trades.get(&e).map(Vec::as_slice).unwrap_or_default();
    lines.iter().enumerate().filter(|(k, t)| t.repeat || !x.more.traded.contains(&(e, *k))).collect()
}

/// "a gemstone and 2 silver coins"-like list of items.
pub fn items_text(m: &Match, x: &Explore, items: &[String]) -> String {
    let mut seen: Vec<(&String, usize)> = Vec::new();
    for i in items {
        match seen.iter_mut().find(|s| s.0 == i) {
            Some(s) => s.1 += 1,
            None => seen.push((i, 1)),
        }
    }
    let parts: Vec<String> = seen.iter().map(|(i, n)| if *n == 1 { item_name(m, x, i) } else { format!("{n} {}", item_name(m, x, i)) }).collect();
    if parts.is_empty() { "nothing".into() } else { parts.join(", ") }
}

/// R-CP-16: hero `a` may make trade `k` of the NPC `with`: a non-hostile NPC he sees, whose
/// encounter offers that trade, not made yet (unless it repeats), and he carries every item asked.
pub fn check_trade(m: &Match, x: &Explore, a: usize, with: &str, k: usize) -> RuleResult<()> {
    let f = &m.fighters[a];
    let short: String = with.chars().take(40).collect();
    let Some(n) = m.index(with).filter(|&n| !x.is_explorer(m, n) && !m.is_dead(n)) else {
        return Err(refuse("R-CP-16", format!("There is no NPC '{short}' here to trade with.")));
    };
    let npc = &m.fighters[n].name;
    if !sees(m, x, a, n) {
        return Err(refuse("R-EXP-19", format!("{} does not see {npc}.", f.name)));
    }
    let e = x.encounter_of.get(n).copied().flatten();
    if !x.peaceful(n) {
        return Err(match e.filter(|e| x.more.trades.contains_key(e)) {
            Some(_) => refuse("R-CP-16", format!("{npc}'s encounter has turned hostile: he trades no more.")),
            None => refuse("R-CP-16", format!("{npc} is not a non-hostile NPC: he does not trade.")),
        });
    }
    if m.fighters[n].hp <= 0 || !m.standing(n) {
        return Err(refuse("R-CP-16", format!("{npc} cannot trade now.")));
    }
    let lines = e.and_then(|e| x.more.trades.get(&e)).map(Vec::as_slice).unwrap_or_default();
    let Some(t) = lines.get(k) else {
        return Err(refuse(
            "R-CP-16",
            if lines.is_empty() { format!("{npc} has nothing to trade.") } else { format!("{npc} offers no trade {k} (trades 0 to {}).", lines.len() - 1) },
        ));
    };
    if !t.repeat && e.is_some_and(|e| x.more.traded.contains(&(e, k))) {
        return Err(refuse("R-CP-16", format!("That trade with {npc} is made already: once only.")));
    }
    let has = |i: &String| f.loadout.items.iter().filter(|c| *c == i).count();
    if let Some(i) = t.wants.iter().find(|i| has(i) < t.wants.iter().filter(|w| w == i).count()) {
        let asked = items_text(m, x, &t.wants);
        return Err(refuse("R-CP-16", format!("{} lacks the {} {npc} asks for ({asked}).", f.name, item_name(m, x, i))));
    }
    Ok(())
}

/// R-CP-16, R-EXP-20 step 1: at the end of the turn the items change hands, if the trade can
/// still be made (checked again); otherwise it fails with the reason.
pub fn trade_over(m: &mut Match, x: &mut Explore, a: usize, at: Pos, k: usize, ev: &mut Vec<Event>) {
    let n = m.occupant(at);
    let with = n.map(|n| m.fighters[n].id.clone()).unwrap_or_default();
    if let Err(v) = check_trade(m, x, a, &with, k) {
        let text = format!("{} cannot trade: {}", m.fighters[a].name, v.reason);
        ev.push(Event::TaskDone { actor: m.fighters[a].id.as_str().into(), task: Task::Trade, at, success: false, text });
        return;
    }
    let (Some(n), Some(e)) = (n, n.and_then(|n| x.encounter_of[n])) else { return };
    let Some(t) = x.more.trades.get(&e).and_then(|l| l.get(k)).cloned() else { return };
    for i in &t.wants {
        if let Some(p) = m.fighters[a].loadout.items.iter().position(|c| c == i) {
            let item = m.fighters[a].loadout.items.remove(p);
            m.fighters[n].loadout.items.push(item);
        }
    }
    m.fighters[a].loadout.items.push(t.gives.clone());
    x.more.traded.insert((e, k));
    let text = format!("{} gives {} to {} for {}.", m.fighters[a].name, items_text(m, x, &t.wants), m.fighters[n].name, item_name(m, x, &t.gives));
    ev.push(Event::TaskDone { actor: m.fighters[a].id.as_str().into(), task: Task::Trade, at, success: true, text });
    ev.push(Event::Traded { actor: m.fighters[a].id.as_str().into(), with: m.fighters[n].id.clone(), gave: t.wants.clone(), got: t.gives.clone() });
}
