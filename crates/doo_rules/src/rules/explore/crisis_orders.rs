//! Orders given in a crisis during a crawl (R-EXP-1, R-EXP-8, R-EXP-10, R-EXP-14, R-EXP-18,
//! R-EXP-21): which of the crawl's orders a crisis allows, at which price (a 1-AP action, the
//! Use Item action's 3/Only, or a turn of a lengthy task), and which it refuses.

use super::super::command::Command;
use super::super::profile::Cost;
use super::super::spending;
use super::super::state::Match;
use super::super::violation::RuleResult;
use super::orders;
use super::state::{Explore, Task};
use super::validate::{check_door, check_drop, check_put_out, check_take, check_task, refuse};

/// Door, take and drop orders in a crisis (R-EXP-8: a door or a take is a 1-AP action; a drop
/// costs nothing; lighting a light is Use Item, 3/Only); one-turn tasks and searches of chosen
/// spaces are lengthy tasks (R-EXP-10).
pub fn in_crisis(m: &Match, x: &Explore, a: usize, cmd: &Command) -> RuleResult<()> {
    match cmd {
        Command::Door { at, open, .. } => {
            crisis_action(m, a, "Opening or closing a door")?;
            check_door(m, x, a, *at, *open)
        }
        Command::Take { at, item, .. } => {
            crisis_action(m, a, "Taking an item")?;
            check_take(m, x, a, *at, item)
        }
        Command::Drop { item, .. } => {
            spending::guard_opportunity(m, a)?;
            check_drop(m, a, item)
        }
        Command::Hand { to, item, .. } => {
            // R-EXP-8: a 1-AP action of the giver.
            crisis_action(m, a, "Handing an item")?;
            orders::check_hand(m, x, a, to, item)
        }
        Command::SortLoot { .. } | Command::Task { task: Task::SortLoot, .. } => Err(refuse("R-EXP-8", "Sorting a chest's loot is not possible in a crisis.")),
        Command::Task { task: Task::Stabilize, .. } => {
            Err(refuse("R-EXP-21", "In a crisis stabilizing is the First Aid action (`first_aid`, 3/Only, R-HEAL-1)."))
        }
        Command::Task { task: Task::OpenChest, at, .. } => {
            // R-EXP-8 †: opening an unlocked chest is a 1-AP action in a crisis.
            crisis_action(m, a, "Opening a chest")?;
            check_task(m, x, a, Task::OpenChest, *at)
        }
        Command::Task { task: Task::PutOut, at, .. } => {
            // R-EXP-18: putting a light out is a 1-AP action in a crisis (as opening a chest).
            crisis_action(m, a, "Putting out a light")?;
            check_put_out(m, x, a, *at)
        }
        Command::Task { task: Task::Light, at, .. } => {
            // R-EXP-18, R-EXP-8: lighting a torch or lantern is the Use Item action, 3/Only.
            check_only_action(m, a, "Lighting a light (Use Item)")?;
            check_task(m, x, a, Task::Light, *at)
        }
        Command::Task { task: Task::Speak, .. } => Err(refuse("R-EXP-1", "A crisis is on: speaking to an NPC is for Exploration Mode.")),
        Command::Trade { .. } => Err(refuse("R-EXP-1", "A crisis is on: trading with an NPC is for Exploration Mode.")),
        Command::Task { task, at, .. } => {
            // R-EXP-10: a one-turn task is a 3/Only action taken in three consecutive turns.
            if *task == Task::UseItem {
                return Err(refuse("R-EXP-8", "In a crisis an item is used with the Use Item action."));
            }
            check_lengthy(m, x, a, *task)?;
            check_task(m, x, a, *task, *at)
        }
        Command::Search { spaces, .. } => {
            // R-EXP-14, R-EXP-10: a search of chosen spaces is a lengthy task too.
            check_lengthy(m, x, a, Task::Search)?;
            orders::check_search(m, x, a, spaces)
        }
        _ => Err(refuse("R-EXP-1", "That order is for Exploration Mode: a crisis is on.")),
    }
}

/// R-EXP-10: a turn of a lengthy task in a crisis: his opportunity, no action yet in it, not
/// worked at one this turn, and the 3/Only price (R-ONLY-*, R-AP-3).
fn check_lengthy(m: &Match, x: &Explore, a: usize, task: Task) -> RuleResult<()> {
    let f = &m.fighters[a];
    spending::guard_opportunity(m, a)?;
    if f.opp.action.is_some() {
        return Err(refuse("R-AP-2", format!("{} has already taken an action in this opportunity.", f.name)));
    }
    // After a movement (R-AP-2 allows an action then) the 3/Only price decides: Only mode
    // needs a turn with nothing done (R-ONLY-6, R-ONLY-8), the plain 3 AP the cap (R-AP-3).
    if x.crisis_tasks.get(&a).is_some_and(|t| t.3 == m.clock.turn) {
        return Err(refuse("R-EXP-10", format!("{} has already worked at a lengthy task this turn: once per turn.", f.name)));
    }
    let what = format!("To {} (lengthy task)", task.label());
    let price = spending::price_only(f, Cost::XOnly(3), &what)?;
    spending::check_afford(f, price, &what)?;
    spending::check_cap(m, f, price, &what)
}

/// A 3/Only action in a crisis (Use Item): his opportunity, no action yet, the price (3 AP,
/// or Only mode below AP_start 3, R-ONLY-*), the AP and the cap (R-AP-1..3).
fn check_only_action(m: &Match, a: usize, what: &str) -> RuleResult<()> {
    spending::guard_opportunity(m, a)?;
    let f = &m.fighters[a];
    if f.opp.action.is_some() {
        return Err(refuse("R-AP-2", format!("{} has already taken an action in this opportunity.", f.name)));
    }
    let price = spending::price_only(f, Cost::XOnly(3), what)?;
    spending::check_afford(f, price, what)?;
    spending::check_cap(m, f, price, what)
}

/// A 1-AP action in a crisis: his opportunity, no action yet, the AP and the cap (R-AP-1..3).
fn crisis_action(m: &Match, a: usize, what: &str) -> RuleResult<()> {
    spending::guard_opportunity(m, a)?;
    let f = &m.fighters[a];
    if f.opp.action.is_some() {
        return Err(refuse("R-AP-2", format!("{} has already taken an action in this opportunity.", f.name)));
    }
    let price = spending::Price { ap: 1, only: false };
    spending::check_afford(f, price, what)?;
    spending::check_cap(m, f, price, what)
}
