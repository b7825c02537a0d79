//! The exploration bar's orders about items between heroes (issue 29): hand a carried item to a
//! hero next to him (R-EXP-8), drop the wielded weapon or the shield (R-EXP-15), sort an open
//! chest's loot with the heroes around it (R-EXP-15), all in the "Items & other" group, each
//! validated by the one order check (a refusal shown with its rule id); and the bar being
//! filled, `Bar`, that preview.rs fills with the rest.

use super::super::command::Command;
use super::super::grid::Pos;
use super::super::offer::{Aim, Choice, Group};
use super::super::state::Match;
use super::state::Share;
use super::state::{Explore, Task};
use super::validate::order;

/// The exploration bar being filled: each entry validated as it is added.
pub(super) struct Bar<'a> {
    pub m: &'a Match,
    pub x: &'a Explore,
    pub a: usize,
    pub id: String,
    pub out: Vec<Choice>,
}

impl Bar<'_> {
    pub(super) fn push(&mut self, label: String, row: &str, cost: &str, cmd: Command, description: &str) {
        let refusal = order(self.m, self.x, self.a, &cmd).err();
        self.out.push(Choice {
            label,
            row: row.into(),
            cost: cost.into(),
            only: false,
            defense: 0,
            template: cmd,
            aim: Aim::None,
            refusal,
            description: description.into(),
            group: Group::Other,
            applies: true,
            warn: Vec::new(),
        });
    }

    pub(super) fn task(&self, task: Task, at: Pos) -> Command {
        Command::Task { actor: self.id.clone(), task, at }
    }
}

/// At most this many "Hand … to …" entries (items × neighbours), so the bar stays short.
pub const MAX_HAND_ENTRIES: usize = 8;

/// An item's, weapon's or shield's name (the id when the books do not know it).
fn name(bar: &Bar, id: &str) -> String {
    let e = &bar.m.equipment;
    let gear = e.melee(id).map(|w| w.name.clone()).or_else(|| e.ranged(id).map(|w| w.name.clone())).or_else(|| e.shield(id).map(|s| s.name.clone()));
    if bar.x.keys.contains_key(id) || e.item(id).is_some() { super::sight::item_name(bar.m, bar.x, id) } else { gear.unwrap_or_else(|| id.to_string()) }
}

/// Handing, dropping the weapon or shield, sorting the loot of each open chest next to him.
pub(super) fn sharing(bar: &mut Bar) {
    hand(bar);
    drop_gear(bar);
    sort_loot(bar);
}

/// R-EXP-8: each item he carries (once per kind) to each living hero next to him, the first
/// `MAX_HAND_ENTRIES` of them.
fn hand(bar: &mut Bar) {
    let (m, x, a) = (bar.m, bar.x, bar.a);
    let f = &m.fighters[a];
    let mut items: Vec<&String> = Vec::new();
    for i in &f.loadout.items {
        if !items.contains(&i) {
            items.push(i);
        }
    }
    let near: Vec<usize> = (0..m.fighters.len())
        .filter(|&t| t != a && x.is_explorer(m, t) && !m.is_dead(t) && m.fighters[t].pos.floor == f.pos.floor && m.fighters[t].pos.distance(f.pos) == 1)
        .collect();
    let pairs = near.iter().flat_map(|&t| items.iter().map(move |i| (t, (*i).clone())));
    for (t, item) in pairs.take(MAX_HAND_ENTRIES).collect::<Vec<_>>() {
        let to = &m.fighters[t];
        let cmd = Command::Hand { actor: bar.id.clone(), to: to.id.clone(), item: item.clone() };
        bar.push(format!("Hand {} to {}", name(bar, &item), to.name), "hand", "1 turn", cmd, "R-EXP-8: he hands it over at the end of the turn.");
    }
}

/// R-EXP-15: the wielded weapon and the shield may be dropped into his space.
fn drop_gear(bar: &mut Bar) {
    let (m, a) = (bar.m, bar.a);
    let l = &m.fighters[a].loadout;
    for item in [l.weapon.clone(), l.shield.clone()].into_iter().flatten() {
        let cmd = Command::Drop { actor: bar.id.clone(), item: item.clone() };
        bar.push(format!("Drop {}", name(bar, &item)), "drop", "free", cmd, "R-EXP-15: it lies in his space; anyone next to it may pick it up.");
    }
}

/// R-EXP-15: each open chest next to him holding items, with another hero within 1 of it: the
/// heroes around it sort it for the book's turns, then each item goes to the one of them who
/// then carries the fewest items (the first of them on a tie).
fn sort_loot(bar: &mut Bar) {
    let (m, x, a) = (bar.m, bar.x, bar.a);
    let f = &m.fighters[a];
    for ch in x.chests.iter().filter(|c| c.open && !c.items.is_empty() && c.pos.floor == f.pos.floor && c.pos.distance(f.pos) <= 1) {
        let around = (0..m.fighters.len())
            .filter(|&t| x.is_explorer(m, t) && !m.is_dead(t) && m.fighters[t].pos.floor == ch.pos.floor && m.fighters[t].pos.distance(ch.pos) <= 1);
        if around.count() < 2 {
            continue; // alone, taking each item (free) is the sensible order
        }
        let members = super::orders::sorters(m, x, ch.pos);
        let cmd = Command::SortLoot { actor: bar.id.clone(), at: ch.pos, share: fair_share(bar, &members, &ch.items) };
        let turns = x.book.orders.sort_turns.max(1);
        let what = format!(
            "R-EXP-15: the heroes within 1 of the chest who have not acted sort it for {turns} turns (a Wait stops it, R-EXP-9); then each item goes to the one carrying the fewest."
        );
        bar.push(format!("Sort the loot of chest {}: share it out", ch.pos), "sort_loot", &format!("{turns} turns"), cmd, &what);
    }
}

/// Each item, in the chest's order, to the member then carrying the fewest items.
fn fair_share(bar: &Bar, members: &[usize], items: &[String]) -> Vec<Share> {
    let m = bar.m;
    let mut counts: Vec<(usize, usize)> = members.iter().map(|&t| (t, m.fighters[t].loadout.items.len())).collect();
    let mut out = Vec::new();
    for item in items.iter().take(super::super::command::MAX_PATH) {
        let Some(k) = (0..counts.len()).min_by_key(|&k| (counts[k].1, k)) else { break };
        counts[k].1 += 1;
        out.push(Share { item: item.clone(), to: m.fighters[counts[k].0].id.clone() });
    }
    out
}
