//! Exploration Mode's state as data (RULES.md §24): the book of its numbers
//! (`assets/rules/exploration.ron`), a crawl's doors, chests, traps, encounters, groups and
//! clock (`Explore`, `Match::explore`), the tasks and what each hero has done this turn.

use super::super::grid::Pos;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;

/// The numbers of Exploration Mode (`assets/rules/exploration.ron`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExploreBook {
    /// R-EXP-5: spaces of one exploration move.
    pub move_spaces: u32,
    /// R-EXP-12: a lock's CR when the level gives none (Moderate).
    pub lock_cr: i32,
    /// R-EXP-12: failing a pick by this much or more jams the lock (Catastrophic).
    pub jam_margin: i32,
    /// R-EXP-13: the force CR when the level gives none (Hard).
    pub force_cr: i32,
    /// R-EXP-14, R-EXP-16: find, disarm and effect CRs when the level gives none.
    pub find_cr: i32,
    pub disarm_cr: i32,
    pub effect_cr: i32,
    /// R-EXP-16: trap damage when the level gives none, as (dice, sides).
    pub trap_damage: (u32, u32),
    /// R-EXP-17: failing a disarm by this much or more springs the trap.
    pub spring_margin: i32,
    /// R-EXP-14: spaces one search examines.
    pub search_spaces: usize,
    /// R-EXP-2: crisis turns per minute of the clock (rounded up).
    pub crisis_turns_per_minute: u32,
    /// R-EXP-22: minutes a camp adds (set-up 15 + rest 480 + break 10).
    pub camp_minutes: u32,
    /// R-EXP-22, R-HEAL-7: the recuperation CR at camp (difficult conditions) and how often.
    pub camp_recuperation_cr: i32,
    pub recuperation_every_minutes: u32,
    /// R-HEAL-8: the caregiver's CR by the patient's injury: bruised, wounded, incapacitated.
    pub caregiver_cr: (i32, i32, i32),
    /// R-EXP-18: the lights (an item id, the spaces it lights, the minutes it burns).
    pub lights: Vec<LightRow>,
    /// R-EXP-21, R-HEAL-5: binding wounds.
    pub binding: BindingRow,
    /// Skills (ids of `skills` in character sheets) the checks of §24 use.
    pub skills: ExploreSkills,
    /// The numbers of the orders of assisting, sorting loot and the level's checks.
    #[serde(default)]
    pub orders: OrdersBook,
}

/// The numbers of the orders of assisting, sorting loot and the level's checks
/// (`orders: (…)` in `assets/rules/exploration.ron`). Its `Debug` is only its name, so that the
/// state hash of crawls saved before it still match (`save::state_hash`).
#[derive(Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OrdersBook {
    /// R-EXP-8, R-EXP-15: turns of sorting a chest's loot (5).
    pub sort_turns: u32,
    /// R-STAT-7: skills that cannot be used at all untrained (no check, no assist without them).
    pub untrained_unusable: Vec<String>,
}

impl Default for OrdersBook {
    fn default() -> Self {
        OrdersBook { sort_turns: 5, untrained_unusable: Vec::new() }
    }
}

impl std::fmt::Debug for OrdersBook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("OrdersBook")
    }
}

/// Binding wounds (R-EXP-21, R-HEAL-5): turns per HP it restores, the minutes after a crisis
/// it may begin, the CRs (bruised, wounded or worse) for another's wounds and one's own, the HP.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BindingRow {
    pub turns_per_hp: u32,
    pub within_minutes: u32,
    pub cr: (i32, i32),
    pub own_cr: (i32, i32),
    pub hp: (i32, i32),
}

/// A light (R-EXP-18).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LightRow {
    pub item: String,
    pub radius: u32,
    pub minutes: u32,
}

/// Which skill each check of §24 uses (the stat is the skill's, `skills.yml`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExploreSkills {
    /// Picking locks and disarming traps (Savvy).
    pub disable: String,
    /// Forcing doors and chests (Brawn).
    pub force: String,
    /// Searching: the better of these (Savvy).
    pub search: Vec<String>,
    /// Dodging a trap (Finesse).
    pub dodge: String,
    /// Surprise (R-EXP-26): Sneak (Finesse) against Alertness (Savvy).
    pub sneak: String,
    pub alertness: String,
}

/// How an encounter meets the party (R-EXP-23, R-EXP-26).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Awareness {
    #[default]
    Unaware,
    Alert,
    Ambush,
}

/// A group of NPCs that enters a crisis together (R-EXP-23, R-EXP-25).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Encounter {
    pub id: String,
    pub members: Vec<usize>,
    pub awareness: Awareness,
}

/// A lock on a door or chest (R-EXP-12, R-EXP-13).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Lock {
    pub cr: i32,
    pub force_cr: i32,
    /// The key item that opens it.
    pub key: Option<String>,
    /// A pick failed by 9 or more: no more picking (key or force still work).
    pub jammed: bool,
}

/// A door with more to it than its tile: a lock, a secret, a trap (R-EXP-11).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Door {
    pub pos: Pos,
    /// Still locked (the tile is `DoorLocked` while this is `Some`).
    pub lock: Option<Lock>,
    /// A secret door not yet found: shown and treated as wall by the heroes (R-EXP-14).
    pub hidden: bool,
}

/// A chest: fills a space, blocks movement, not sight (R-EXP-15).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Chest {
    pub id: String,
    pub pos: Pos,
    pub items: Vec<String>,
    pub open: bool,
    pub lock: Option<Lock>,
}

/// Where a trap sits (R-EXP-16).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum TrapOn {
    /// Triggers when a hero enters the space.
    #[default]
    Space,
    /// Triggers when the door or chest in the space is opened.
    Door,
    Chest,
}

/// A trap (R-EXP-16, R-EXP-17).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Trap {
    pub id: String,
    pub pos: Pos,
    pub on: TrapOn,
    /// Not yet found by the heroes.
    pub hidden: bool,
    pub find_cr: i32,
    pub disarm_cr: i32,
    pub effect_cr: i32,
    pub damage: (u32, u32),
    pub condition: Option<String>,
    pub rearms: bool,
    /// Disarmed for good, or fired and not re-arming.
    pub spent: bool,
}

/// A one-turn task, carried out at the end of the turn (R-EXP-8, R-EXP-20 step 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Hash)]
#[serde(rename_all = "snake_case")]
pub enum Task {
    /// R-EXP-14: up to 4 spaces at distance ≤ 1.
    Search,
    /// R-EXP-12: a Disable check against a lock.
    PickLock,
    /// R-EXP-13: a Lift/Shift check against the force CR.
    Force,
    /// R-EXP-17: a Disable check against a known trap.
    Disarm,
    /// R-EXP-15: open an unlocked chest and survey its contents.
    OpenChest,
    /// R-EXP-8: use an item (a potion) on oneself or a hero next to him (`Command::Use`).
    UseItem,
    /// R-EXP-18: get out a torch or lantern and light it.
    Light,
    /// R-EXP-21: bind the wounds of the hero at `at` (healer and patient busy 3 turns per HP).
    Bind,
    /// R-EXP-18, R-EXP-24: put out the burning light he holds (`at` his own space) or one lying
    /// at `at` (distance ≤ 1); it takes effect at the end of the turn, like lighting one.
    PutOut,
    /// R-CP-16: speak to the non-hostile NPC at `at` (one he sees); his encounter's line, if
    /// the level gives one, is told at the end of the turn.
    Speak,
    /// R-CP-16: trade with the non-hostile NPC at `at` (`Command::Trade`), 1 turn.
    Trade,
    /// R-EXP-21, R-HEAL-1..4: stabilize (first aid) the bleeding character at `at`: 1 turn.
    Stabilize,
    /// R-EXP-8: a plain skill check the level asks for at `at` (its `checks`), 1 turn.
    Check,
    /// R-CHK-7, R-EXP-12: assisting the check of the hero at `at` (`Command::Assist`).
    Assist,
    /// R-EXP-8: handing an item to the hero at `at` (`Command::Hand`), 1 turn.
    Hand,
    /// R-EXP-15: sorting the loot of the chest at `at` (`Command::SortLoot`), 5 turns.
    SortLoot,
}

impl Task {
    pub fn label(self) -> &'static str {
        match self {
            Task::Search => "search",
            Task::PickLock => "pick the lock",
            Task::Force => "force it",
            Task::Disarm => "disarm the trap",
            Task::OpenChest => "open the chest",
            Task::UseItem => "use an item",
            Task::Light => "light a torch or lantern",
            Task::Bind => "bind wounds",
            Task::PutOut => "put out a light",
            Task::Speak => "speak",
            Task::Trade => "trade",
            Task::Stabilize => "stabilize",
            Task::Check => "make the check",
            Task::Assist => "assist",
            Task::Hand => "hand an item",
            Task::SortLoot => "sort the loot",
        }
    }
}

/// What a hero has done with this exploration turn's action (R-EXP-3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Acted {
    #[default]
    No,
    /// Moving: spaces of the move used so far (a door uses one, R-EXP-11).
    Moving(u32),
    /// The action is spent (moved all the way, a task, waited).
    Done,
}

/// A crawl's state (§24).
#[derive(Clone, Debug, PartialEq)]
pub struct Explore {
    pub book: Arc<ExploreBook>,
    /// Minutes since the level began (R-EXP-2).
    pub minute: u32,
    /// Exploration turns so far (1 in the first).
    pub turn: u32,
    /// The sides that explore (the heroes); every other side is hostile to them.
    pub explorers: Vec<String>,
    /// Groups in marching order, leader first (R-EXP-4).
    pub groups: Vec<Vec<usize>>,
    /// Per character: this turn's action.
    pub acted: Vec<Acted>,
    /// Tasks ordered this turn, in order.
    /// Tasks ordered this turn, in order: who, what, where, and the item used (`UseItem`).
    pub tasks: Vec<(usize, Task, Pos, Option<String>)>,
    pub doors: Vec<Door>,
    pub chests: Vec<Chest>,
    /// Items lying in spaces.
    pub items: Vec<(Pos, String)>,
    pub traps: Vec<Trap>,
    pub encounters: Vec<Encounter>,
    /// Per character: the encounter he belongs to.
    pub encounter_of: Vec<Option<usize>>,
    /// Per character: inactive and not hostile until woken (R-EXP-27).
    pub calm: Vec<bool>,
    /// The explorers' revealed spaces as the state hash of saves has always counted them
    /// (`Board::index`): marked only when an exploration step, a door, a climb, the beginning,
    /// a resumption or the end of a turn revealed them. Kept so that saves written before the
    /// per-side maps (`fog`) still verify; what a side is shown is `fog` (`side_view`).
    pub seen: BTreeMap<String, Vec<bool>>,
    /// Per side: every space its characters have seen (R-EXP-19), after every space entered,
    /// in both modes. Derived from the play (a function of the commands), so not in the state
    /// hash (`save::state_hash`).
    pub fog: FogMaps,
    /// Spaces some hero has searched (R-EXP-14).
    pub searched: Vec<bool>,
    /// Key items by id: their names.
    pub keys: BTreeMap<String, String>,
    /// The crisis in progress began at this minute.
    pub crisis_minute: Option<u32>,
    /// Lengthy tasks in a crisis (R-EXP-10): per character, the task, where, how many of its
    /// three turns are done, and the crisis turn of the last one.
    pub crisis_tasks: BTreeMap<usize, (Task, Pos, u32, u32)>,
    /// R-EXP-22: whether the level lets the party camp.
    pub camp_allowed: bool,
    /// Per hero: the minute of his last recuperation check (R-HEAL-7, once a day).
    pub recuperated: BTreeMap<usize, u32>,
    /// R-EXP-18: the dark areas (inclusive corners, one floor each); elsewhere is lit.
    pub dark: Vec<(Pos, Pos)>,
    /// R-EXP-18: burning lights by holder: the item and the minutes left.
    pub burning: BTreeMap<usize, (String, u32)>,
    /// R-EXP-9, R-EXP-21: heroes busy with a task of several turns: (healer, patient, turns
    /// left), under both their indices.
    pub busy: BTreeMap<usize, (usize, usize, u32)>,
    /// R-EXP-21: the minute the last crisis ended, the heroes it hurt, and those bound since.
    pub last_crisis_end: Option<u32>,
    pub hurt_in_crisis: std::collections::BTreeSet<usize>,
    pub bound: std::collections::BTreeSet<usize>,
    /// HP of each character when the crisis in progress began.
    pub hp_at_crisis: BTreeMap<usize, i32>,
    /// Lights lying in spaces and non-hostile encounters (R-EXP-18, R-CP-16).
    pub more: CrawlMore,
    /// Assists, chosen search spaces, loot sorting and the level's skill checks.
    pub orders: OrderState,
}

/// What the orders of assisting, searching chosen spaces, sorting loot and the level's plain
/// skill checks keep (R-CHK-7, R-EXP-8, R-EXP-12..15). Its `Debug` is only its name while it is
/// empty, so that the state hash of crawls saved before it still match (`save::state_hash`).
#[derive(Clone, PartialEq, Default, Serialize)]
pub struct OrderState {
    /// R-CHK-7, R-EXP-12: this turn's assists: the helped hero and his helper.
    pub assists: BTreeMap<usize, usize>,
    /// R-EXP-14: the spaces each search ordered this turn covers (the player's choice).
    pub search_spaces: BTreeMap<usize, Vec<Pos>>,
    /// R-EXP-15: chests being sorted.
    pub sorting: Vec<Sorting>,
    /// R-EXP-8: the level's plain skill checks.
    pub checks: Vec<LevelCheck>,
    /// R-EXP-27, G-41: per character, the shots and throws of his ranged weapon spent in the
    /// crisis in progress (half come back when it ends). Derived from the play and left out of
    /// `Debug` (the state hash), so that the hashes of crawls saved before it still match.
    pub fired: BTreeMap<usize, u32>,
}

impl std::fmt::Debug for OrderState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if (OrderState { fired: BTreeMap::new(), ..self.clone() }) == OrderState::default() {
            return f.write_str("OrderState");
        }
        f.debug_struct("OrderState")
            .field("assists", &self.assists)
            .field("search_spaces", &self.search_spaces)
            .field("sorting", &self.sorting)
            .field("checks", &self.checks)
            .finish()
    }
}

/// R-EXP-15: heroes sorting a chest's loot: the chest, who takes part (busy), turns left, and
/// the share-out that applies when it is done.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Sorting {
    pub chest: usize,
    pub members: Vec<usize>,
    pub left: u32,
    pub share: Vec<Share>,
}

/// One line of a share-out: the item goes to the hero `to` (from the chest, else from another
/// hero taking part).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Share {
    pub item: String,
    pub to: String,
}

/// A plain skill check a level asks for at a space (R-EXP-8): read an inscription, …
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LevelCheck {
    pub id: String,
    pub pos: Pos,
    pub skill: String,
    pub stat: super::super::equipment::Stat,
    pub cr: i32,
    /// What the heroes see there.
    pub text: String,
    /// What a success tells.
    pub success: String,
}

/// One trade a non-hostile encounter offers (R-CP-16): the item it hands over for the items it
/// wants. Made once per level unless `repeat`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TradeLine {
    /// What the NPC hands over.
    pub gives: String,
    /// The items he wants in exchange (each listed once per piece).
    #[serde(rename = "for")]
    pub wants: Vec<String>,
    /// May be made again and again (while the hero can pay).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub repeat: bool,
}

/// The parts of a crawl added after saves of crawls existed: burning lights lying in spaces
/// (R-EXP-18) and the encounters still non-hostile, with their lines (R-CP-16). Its `Debug` is
/// only its name while it is empty, and the state hash leaves that name out (`save::state_hash`),
/// so the hashes of crawls saved before it still match; once it holds something it is hashed.
#[derive(Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct CrawlMore {
    /// Burning lights lying in spaces: where, the item, the minutes left (the item is also in
    /// `Explore::items`, where it can be taken).
    pub lit: Vec<(Pos, String, u32)>,
    /// Encounters (indices into `Explore::encounters`) still non-hostile (R-CP-16).
    pub peaceful: std::collections::BTreeSet<usize>,
    /// An encounter's line when spoken to (R-CP-16).
    pub says: BTreeMap<usize, String>,
    /// An encounter's trades (R-CP-16), and those made (encounter, trade index).
    #[serde(default)]
    pub trades: BTreeMap<usize, Vec<TradeLine>>,
    #[serde(default)]
    pub traded: std::collections::BTreeSet<(usize, usize)>,
}

impl CrawlMore {
    pub fn is_empty(&self) -> bool {
        self.lit.is_empty() && self.peaceful.is_empty() && self.says.is_empty()
    }
}

impl std::fmt::Debug for CrawlMore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CrawlMore")?;
        if !self.is_empty() {
            write!(f, " {{ lit: {:?}, peaceful: {:?}, says: {:?}", self.lit, self.peaceful, self.says)?;
            // R-CP-16: trades only when a level offers some (the hashes of older crawls stay)
            if !self.trades.is_empty() {
                write!(f, ", trades: {:?}, traded: {:?}", self.trades, self.traded)?;
            }
            f.write_str(" }")?;
        }
        Ok(())
    }
}

/// Per side, the spaces it has revealed (R-EXP-19), indexed by `Board::index`; one map per side
/// (hot-seat: each player is shown his own). Its `Debug` names only the type: the state hash
/// formats the crawl with `Debug` and leaves this derived map out (see `Explore::seen`).
#[derive(Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct FogMaps(pub BTreeMap<String, Vec<bool>>);

impl std::fmt::Debug for FogMaps {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("FogMaps")
    }
}

impl FogMaps {
    /// Whether side `side` has revealed space `k`.
    pub fn revealed(&self, side: &str, k: usize) -> bool {
        self.0.get(side).is_some_and(|s| s.get(k).copied().unwrap_or(false))
    }
    /// How many spaces side `side` has revealed.
    pub fn count(&self, side: &str) -> usize {
        self.0.get(side).map_or(0, |s| s.iter().filter(|b| **b).count())
    }
}

impl Explore {
    /// A level event set the door at `p` locked (with its own lock kept while still on it,
    /// else the book's lock CRs and no key) or unlocked (issue 31, `level_events`); a secret
    /// door is found either way.
    pub fn door_scripted(&mut self, p: Pos, locked: bool) {
        let fresh = Lock { cr: self.book.lock_cr, force_cr: self.book.force_cr, key: None, jammed: false };
        match self.doors.iter_mut().find(|d| d.pos == p) {
            // A secret door an event opens, closes or locks is found (R-EXP-14: no longer a wall).
            Some(d) if locked => {
                d.hidden = false;
                d.lock.get_or_insert(fresh);
            }
            Some(d) => {
                d.hidden = false;
                d.lock = None;
            }
            None if locked => self.doors.push(Door { pos: p, lock: Some(fresh), hidden: false }),
            None => {}
        }
    }

    /// Marks the board spaces `spaces` (of `n`) revealed for side `side` (R-EXP-19): its fog map,
    /// and with `seen` the explorers' `seen` as well (the state hash's, marked as it always was:
    /// by a side's whole sight and by level events, not by each space of a path). Returns how
    /// many were new.
    pub fn reveal_spaces(&mut self, side: &str, spaces: &[usize], n: usize, seen: bool) -> usize {
        let known = self.fog.0.get(side);
        let fresh: Vec<usize> = spaces.iter().copied().filter(|&k| k < n && !known.is_some_and(|s| s.get(k).copied().unwrap_or(false))).collect();
        if seen {
            let seen = self.seen.entry(side.to_string()).or_insert_with(|| vec![false; n]);
            for &k in spaces {
                if let Some(v) = seen.get_mut(k) {
                    *v = true;
                }
            }
        }
        if !fresh.is_empty() {
            let map = self.fog.0.entry(side.to_string()).or_insert_with(|| vec![false; n]);
            map.resize(n, false);
            for &k in &fresh {
                map[k] = true;
            }
        }
        fresh.len()
    }

    /// R-EXP-18: the space lies in a dark area.
    pub fn in_dark(&self, p: Pos) -> bool {
        self.dark.iter().any(|(a, b)| p.floor == a.floor && p.x >= a.x.min(b.x) && p.x <= a.x.max(b.x) && p.y >= a.y.min(b.y) && p.y <= a.y.max(b.y))
    }
    pub fn door(&self, p: Pos) -> Option<&Door> {
        self.doors.iter().find(|d| d.pos == p)
    }
    pub fn chest_at(&self, p: Pos) -> Option<usize> {
        self.chests.iter().position(|c| c.pos == p)
    }
    pub fn group_of(&self, i: usize) -> Option<usize> {
        self.groups.iter().position(|g| g.contains(&i))
    }
    /// R-EXP-5: spaces of this turn's move `a` has left (none once his action is spent).
    pub fn moves_left(&self, a: usize) -> u32 {
        match self.acted.get(a).copied().unwrap_or_default() {
            Acted::No => self.book.move_spaces,
            Acted::Moving(u) => self.book.move_spaces.saturating_sub(u),
            Acted::Done => 0,
        }
    }
    /// R-CP-16: character `i` belongs to an encounter that is still non-hostile.
    pub fn peaceful(&self, i: usize) -> bool {
        self.encounter_of.get(i).copied().flatten().is_some_and(|e| self.more.peaceful.contains(&e))
    }
    /// R-EXP-18: the burning light lying at `p` that is `item`, if any.
    pub fn lit_at(&self, p: Pos, item: &str) -> Option<usize> {
        self.more.lit.iter().position(|(q, i, _)| *q == p && i == item)
    }
    /// An armed trap at `p` of the given kind.
    pub fn trap_at(&self, p: Pos, on: TrapOn) -> Option<usize> {
        self.traps.iter().position(|t| t.pos == p && t.on == on && !t.spent)
    }
}

/// What a crawl needs to know of the ruleset its crises are played under, handed in by
/// `rules::ruleset` (the crawl's rules never ask which ruleset it is).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CrisisRules {
    /// A healing item's dice explode (the profile's damage dice, G-25); under A4 never (A4-G-31).
    pub items_explode: bool,
    /// A new wound makes a stabilized dying figure bleed again (A4-3.20, A4-G-20).
    pub rebleeds: bool,
}
