//! A checked crawl turned into the rules' exploration state (`build`).

use super::format::{Crawl, LockDef};
use crate::rules::explore::{Acted, Awareness, Chest, CrawlMore, Door, Encounter, Explore, ExploreBook, Lock, OrderState, Trap};
use crate::rules::grid::{Pos, Tile};
use crate::rules::state::Match;
use std::collections::BTreeMap;
use std::sync::Arc;

/// The rules' state of a checked crawl on a built match (every figure placed).
pub fn build(c: &Crawl, m: &Match, book: Arc<ExploreBook>) -> Explore {
    let n = m.fighters.len();
    let lock = |l: &LockDef| Lock { cr: l.cr.unwrap_or(book.lock_cr), force_cr: l.force_cr.unwrap_or(book.force_cr), key: l.key.clone(), jammed: l.jammed };
    let mut doors: Vec<Door> = c.doors.iter().map(|d| Door { pos: d.pos, lock: d.lock.as_ref().map(lock), hidden: d.secret }).collect();
    // Every locked door has a lock (the book's CRs unless the level gives its own).
    for (fi, f) in m.board.floors.iter().enumerate() {
        for y in 0..f.height as i32 {
            for x in 0..f.width as i32 {
                let p = Pos::on(x, y, fi as u8);
                if m.board.tile(p) == Some(Tile::DoorLocked) {
                    match doors.iter_mut().find(|d| d.pos == p) {
                        Some(d) if d.lock.is_none() => d.lock = Some(lock(&LockDef::default())),
                        Some(_) => {}
                        None => doors.push(Door { pos: p, lock: Some(lock(&LockDef::default())), hidden: false }),
                    }
                }
            }
        }
    }
    let heroes: Vec<usize> = (0..n).filter(|&i| c.explorers.contains(&m.fighters[i].side)).collect();
    let mut encounters: Vec<Encounter> = c
        .encounters
        .iter()
        .map(|e| Encounter { id: e.id.clone(), members: e.members.iter().filter_map(|id| m.index(id)).collect(), awareness: e.awareness })
        .collect();
    let mut encounter_of = vec![None; n];
    for (k, e) in encounters.iter().enumerate() {
        for &i in &e.members {
            encounter_of[i] = Some(k);
        }
    }
    // R-EXP-23: an NPC in no encounter is an encounter of his own.
    for i in 0..n {
        if encounter_of[i].is_none() && !heroes.contains(&i) {
            encounter_of[i] = Some(encounters.len());
            encounters.push(Encounter { id: m.fighters[i].id.clone(), members: vec![i], awareness: Awareness::Unaware });
        }
    }
    let more = more(c, m, &encounters);
    let mut calm = vec![false; n];
    for &e in &more.peaceful {
        for &i in &encounters[e].members {
            calm[i] = true; // R-CP-16: never an active hostile until attacked
        }
    }
    let mut burning = BTreeMap::new();
    for l in &c.lights {
        if let Some(i) = l.held_by.as_deref().and_then(|h| m.index(h)) {
            burning.insert(i, (l.item.clone(), l.minutes));
        }
    }
    let mut items: Vec<(Pos, String)> = c.items.iter().map(|i| (i.pos, i.item.clone())).collect();
    items.extend(more.lit.iter().map(|(p, i, _)| (*p, i.clone())));
    let mut groups = Vec::new();
    for side in &c.explorers {
        let g: Vec<usize> = heroes.iter().copied().filter(|&i| &m.fighters[i].side == side).collect();
        if !g.is_empty() {
            groups.push(g);
        }
    }
    Explore {
        minute: c.minute,
        turn: 0,
        explorers: c.explorers.clone(),
        groups,
        acted: vec![Acted::No; n],
        tasks: Vec::new(),
        doors,
        chests: c
            .chests
            .iter()
            .map(|ch| Chest { id: ch.id.clone(), pos: ch.pos, items: ch.items.clone(), open: false, lock: ch.lock.as_ref().map(lock) })
            .collect(),
        items,
        traps: c
            .traps
            .iter()
            .map(|t| Trap {
                id: t.id.clone(),
                pos: t.pos,
                on: t.on,
                hidden: t.hidden,
                find_cr: t.find_cr.unwrap_or(book.find_cr),
                disarm_cr: t.disarm_cr.unwrap_or(book.disarm_cr),
                effect_cr: t.effect_cr.unwrap_or(book.effect_cr),
                damage: t.damage.unwrap_or(book.trap_damage),
                condition: t.condition.clone(),
                rearms: t.rearms,
                spent: false,
            })
            .collect(),
        encounters,
        encounter_of,
        calm,
        seen: BTreeMap::new(),
        fog: Default::default(),
        searched: vec![false; m.board.spaces()],
        keys: c.keys.iter().map(|k| (k.id.clone(), k.name.clone())).collect(),
        crisis_minute: None,
        crisis_tasks: BTreeMap::new(),
        camp_allowed: c.camp,
        recuperated: BTreeMap::new(),
        dark: c.dark.iter().map(|d| (d.from, d.to)).collect(),
        burning,
        busy: BTreeMap::new(),
        last_crisis_end: None,
        hurt_in_crisis: Default::default(),
        bound: Default::default(),
        hp_at_crisis: BTreeMap::new(),
        more,
        orders: OrderState { checks: c.checks.clone(), ..Default::default() },
        book,
    }
}

/// R-EXP-18, R-CP-16: the lights lying in spaces, burning; the non-hostile encounters (marked,
/// or all of whose members are of a non-hostile side) and the lines of those that speak.
fn more(c: &Crawl, m: &Match, encounters: &[Encounter]) -> CrawlMore {
    let mut more = CrawlMore { lit: c.lights.iter().filter_map(|l| l.pos.map(|p| (p, l.item.clone(), l.minutes))).collect(), ..Default::default() };
    for (k, e) in encounters.iter().enumerate() {
        let def = c.encounters.get(k); // the level's encounters come first, in order
        let marked = def.is_some_and(|d| d.non_hostile);
        let sides = !e.members.is_empty() && e.members.iter().all(|&i| c.non_hostile.contains(&m.fighters[i].side));
        if marked || sides {
            more.peaceful.insert(k);
        }
        if let Some(t) = def.and_then(|d| d.says.clone()) {
            more.says.insert(k, t);
        }
        if let Some(t) = def.map(|d| d.trades.clone()).filter(|t| !t.is_empty()) {
            more.trades.insert(k, t);
        }
    }
    more
}
