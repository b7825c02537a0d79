//! The whole rules-side state of a match: ruleset, board, characters, clock, pending attack.
//! The game keeps exactly one of these per match (`MatchState`); figure components mirror it.

use super::conditions::ConditionBook;
use super::equipment::EquipmentBook;
use super::fighter::Fighter;
use super::grid::Board;
use super::profile::Ruleset;
use super::tables::TableBook;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default, Hash)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    #[default]
    Setup,
    Reset,
    Action,
    Over,
    /// Exploration Mode (R-EXP-1): narrative time, a minute per turn; only explorers act.
    Exploration,
}

/// Turn, phase, round and whose opportunity it is (R-TURN-3, R-TURN-8).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Clock {
    pub turn: u32,
    pub phase: Phase,
    pub round: u32,
    /// Index of the character whose opportunity is open.
    pub current: Option<usize>,
    /// The character whose opportunity closed last, while nobody else has done anything since.
    pub last_closed: Option<usize>,
    /// AP at the start of the round (option `order_mode = snapshot`, G-07).
    pub round_start_ap: Vec<u32>,
    /// The attack declared by the last action applied, kept until another command is applied
    /// (reflexes, responses and declines do not count), so that a reflex declared too late names
    /// the requirement it fails (R-REACT-3, R-REACT-5) rather than only its timing (R-REACT-2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_attack: Option<LastAttack>,
}

/// An attack declared by an action (not a reflex or response), remembered after its windows
/// closed or were skipped (R-REACT-2).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LastAttack {
    pub attacker: usize,
    pub defender: usize,
    /// Action row id the attack was made with.
    pub with: String,
    pub melee: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Window {
    /// The defender may declare one reflex (R-REACT-2).
    Reflex,
    /// The defender may respond (R-REACT-8).
    Response,
}

/// An attack between declaration and the end of its response window (R-ATK-1).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PendingAttack {
    pub attacker: usize,
    pub defender: usize,
    /// Action or reaction id the attack was made with.
    pub with: String,
    pub melee: bool,
    pub attack_adj: i32,
    pub damage_adj: i32,
    pub window: Option<Window>,
    /// Made as a reflex or response: opens no windows (G-09).
    pub is_reaction: bool,
    /// Shield Block reflex won: shield bonus counts double (R-REACT-5).
    pub shield_doubled: bool,
    /// Damage the defender sustained from it (Riposte, R-REACT-9).
    pub damage_dealt: i32,
    /// The attacker's pick for a Critical or Legendary Hit (R-ATK-8, R-ATK-9).
    #[serde(default)]
    pub critical: Option<super::command::CriticalChoice>,
    /// An attack interrupted by this one (Counterattack), resumed afterwards.
    pub resumes: Option<Box<PendingAttack>>,
}

/// Everything the rule functions read.
#[derive(Clone, Debug)]
pub struct Match {
    /// Read-only tables, shared: copying a match copies only its state.
    pub rules: Arc<Ruleset>,
    pub conditions: Arc<ConditionBook>,
    pub equipment: Arc<EquipmentBook>,
    pub tables: Arc<TableBook>,
    pub spells: Arc<super::spells::book::SpellBook>,
    pub board: Board,
    pub fighters: Vec<Fighter>,
    pub clock: Clock,
    pub pending: Option<PendingAttack>,
    /// How sides win besides G-15 (the level's or script's goals), checked after every Apply.
    pub goals: Vec<super::goal::Victory>,
    /// A crawl's Exploration Mode state (§24): doors, chests, traps, fog, encounters, the
    /// minute clock. `None` for a level that is one crisis.
    pub explore: Option<Box<super::explore::state::Explore>>,
    /// Ruleset A4's state when the match plays under A4 (`profile: "A4"`); `None` under the
    /// DoO profiles. Code branches on this, never on a name.
    pub a4: Option<Box<super::a4::state::A4>>,
    /// The figures that are heroes (a campaign level's party, or `hero: true` in a level or
    /// script): they earn CP in play (R-CP-9, `Event::CpEarned`); NPCs earn none.
    pub heroes: std::collections::BTreeSet<String>,
    /// The (hero, object) pairs whose task check has already given CP this level (R-CP-9,
    /// G-79: once per hero per object per level).
    pub cp_objects: std::collections::BTreeSet<(String, String)>,
    /// The level's events and what has come of them (issue 31, `level_events`); `None` for a
    /// level without events.
    pub story: Option<Box<super::story::Story>>,
    /// The turn after which the match is a draw if no side has won (the level's `turn_limit`, or
    /// a match option: a save's, a network host's); `None`: no limit. `victory::turn_limit`.
    pub turn_limit: Option<u32>,
}

impl Match {
    pub fn index(&self, id: &str) -> Option<usize> {
        self.fighters.iter().position(|f| f.id == id)
    }

    /// R-TURN-11 / G-13; an NPC outside the crisis in progress (R-EXP-25) does not act in it.
    pub fn can_act(&self, i: usize) -> bool {
        !self.fighters[i].dormant && self.standing(i)
    }

    /// Able to act as far as the character's conditions go, whether or not he takes part in
    /// the crisis (goals count inactive NPCs, R-EXP-23).
    pub fn standing(&self, i: usize) -> bool {
        self.conditions.can_act(&self.fighters[i], self.rules.options.conditions_adv)
    }

    /// AP counted for ordering and the phase-end test: 0 when unable to act (G-13).
    pub fn effective_ap(&self, i: usize) -> u32 {
        if self.can_act(i) { self.fighters[i].ap.current } else { 0 }
    }

    /// The character standing on `p`, if any (G-02).
    pub fn occupant(&self, p: super::grid::Pos) -> Option<usize> {
        self.fighters.iter().position(|f| f.pos == p && f.hp > -f.max_hp)
    }

    pub fn enemies(&self, a: usize, b: usize) -> bool {
        self.fighters[a].side != self.fighters[b].side
    }

    pub fn is_dead(&self, i: usize) -> bool {
        let f = &self.fighters[i];
        f.hp <= -f.max_hp
    }
}
