//! The level events' data (issue 31): what a level file's `events` hold, and what the match
//! keeps of them (`Story`). What they do is `level_events`; this file only names them, so the
//! match's state can hold them without depending on the code that runs them.

pub use super::area::{Area, clip};
use super::grid::Pos;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Events in one level.
pub const MAX_EVENTS: usize = 64;
/// Actions of one event.
pub const MAX_ACTIONS: usize = 16;
/// Events fired after one command (the chain stops there).
pub const MAX_FIRINGS: usize = 32;
/// Characters of a message.
pub const MAX_TEXT: usize = 600;

// Issue 46: conditions, variables, nested actions, caps (a level file is untrusted input).

/// Variables (counters) one level declares (`vars`).
pub const MAX_VARS: usize = 64;
/// Nesting of a condition (`all`/`any`/`not` inside each other; a plain clause is depth 1).
pub const MAX_COND_DEPTH: usize = 8;
/// Clauses and combinators of one event's condition, counted all.
pub const MAX_COND_NODES: usize = 64;
/// Branches of a `one_of`.
pub const MAX_BRANCHES: usize = 8;
/// Nesting of actions: an event's own `then` is depth 1, a `one_of`'s branch inside it 2...
pub const MAX_ACTION_DEPTH: usize = 3;
/// CP one `award_cp` gives each hero (R-CP-10: a level's objectives give a few).
pub const MAX_CP_AWARD: u32 = 10;
/// Options of a `choice` (2 to this many).
pub const MAX_OPTIONS: usize = 3;
/// Characters of a choice's option label.
pub const MAX_LABEL: usize = 60;
/// Characters of a variable's name (an id).
pub const MAX_VAR_NAME: usize = 64;
/// Figure pairs a `sighted` trigger looks at after one step (the first ones, figures in the
/// match's order): past it, the rest are not looked at.
pub const MAX_SIGHT_PAIRS: usize = 4096;

// Issue 44: the work the events fired after one command may do, whatever their count: an event
// whose actions would go past what is left of one of these is stopped (it does not fire, and the
// log says so); one whose actions alone go past one is refused when the level is read.

/// Spaces the events of one command may reveal, each side a `reveal` reveals to counted (one
/// whole floor at the map's cap, 1 024 × 1 024).
pub const MAX_REVEALED: usize = 1 << 20;
/// Spaces of one `reveal`'s area (512 × 512).
pub const MAX_REVEAL_AREA: usize = 1 << 18;
/// Figures the events of one command may bring onto the map (`spawn`).
pub const MAX_SPAWNED: usize = 64;
/// `spawn` actions the events of one command may do: each, while exploring, checks who sees
/// whom (R-EXP-24 (a)) as an exploring command does once.
pub const MAX_SPAWNS: usize = 8;
/// Items the events of one command may give (`give`).
pub const MAX_GIVEN: usize = 64;
/// Doors the events of one command may set (`door`: the tiles they change).
pub const MAX_DOORS: usize = 64;
/// Items one figure may carry for a `give` to add one (issue 44: a `give` to a figure carrying
/// this many is refused; level files start a character with at most 64).
pub const MAX_CARRIED: usize = 256;

/// The work of level events (issue 44): what they have done after one command, or what one
/// event's actions would do.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Work {
    /// Spaces revealed, each side counted.
    pub revealed: usize,
    /// Figures spawned.
    pub spawned: usize,
    /// `spawn` actions done.
    pub spawns: usize,
    /// Items given.
    pub given: usize,
    /// Doors set.
    pub doors: usize,
}

impl Work {
    /// The budget of one command.
    pub const CAP: Work = Work { revealed: MAX_REVEALED, spawned: MAX_SPAWNED, spawns: MAX_SPAWNS, given: MAX_GIVEN, doors: MAX_DOORS };

    pub fn plus(self, o: Work) -> Work {
        Work {
            revealed: self.revealed.saturating_add(o.revealed),
            spawned: self.spawned.saturating_add(o.spawned),
            spawns: self.spawns.saturating_add(o.spawns),
            given: self.given.saturating_add(o.given),
            doors: self.doors.saturating_add(o.doors),
        }
    }

    /// Each count the larger of the two (issue 46: the most of a `one_of`'s branches).
    pub fn most(self, o: Work) -> Work {
        Work {
            revealed: self.revealed.max(o.revealed),
            spawned: self.spawned.max(o.spawned),
            spawns: self.spawns.max(o.spawns),
            given: self.given.max(o.given),
            doors: self.doors.max(o.doors),
        }
    }

    /// The first count of `self` over the budget, as `(what, count, cap)`; `None` when it fits.
    pub fn over(&self) -> Option<(&'static str, usize, usize)> {
        let c = Work::CAP;
        [
            ("spaces revealed", self.revealed, c.revealed),
            ("figures spawned", self.spawned, c.spawned),
            ("spawns", self.spawns, c.spawns),
            ("items given", self.given, c.given),
            ("doors set", self.doors, c.doors),
        ]
        .into_iter()
        .find(|(_, n, cap)| n > cap)
    }
}

/// One event: when it fires and what it does.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EventDef {
    /// Named in the log and in `validate`'s messages.
    pub id: String,
    pub when: Trigger,
    /// Fires each time its trigger comes true again (default: once per level).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub repeat: bool,
    /// Fires only once the event with this id has fired (issue 43: a tutorial's steps, in
    /// order): until then its trigger is not watched.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after: Option<String>,
    /// Issue 46: checked when the trigger fires; when it is false the event does not fire
    /// (this time: the trigger must come true again).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub only_if: Option<Cond>,
    /// Issue 46: fires at most this many times in all (and so more than once: `repeat` is
    /// implied).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub times: Option<u32>,
    /// What it does, in order.
    pub then: Vec<Action>,
}

impl EventDef {
    /// Calls `f` on every figure id the event names: its trigger's `who`, its condition's,
    /// its actions' (those nested in a `one_of` too). A rename, a campaign's check.
    pub fn each_figure(&mut self, f: &mut dyn FnMut(&mut String)) {
        fn who(w: &mut Who, f: &mut dyn FnMut(&mut String)) {
            if let Who::Figure(id) = w {
                f(id);
            }
        }
        fn cond(c: &mut Cond, f: &mut dyn FnMut(&mut String)) {
            match c {
                Cond::All(v) | Cond::Any(v) => v.iter_mut().for_each(|c| cond(c, f)),
                Cond::Not(c) => cond(c, f),
                Cond::Holds { who: w, .. } => who(w, f),
                _ => {}
            }
        }
        fn acts(list: &mut [Action], f: &mut dyn FnMut(&mut String)) {
            for a in list {
                match a {
                    Action::Give { figure, .. } | Action::Take { figure, .. } => f(figure),
                    Action::AwardCp { who: w, .. } => who(w, f),
                    Action::OneOf(b) => b.iter_mut().for_each(|b| acts(b, f)),
                    Action::Choice { options, .. } => options.iter_mut().for_each(|o| acts(&mut o.then, f)),
                    _ => {}
                }
            }
        }
        match &mut self.when {
            Trigger::Enters { who: w, .. }
            | Trigger::Falls { who: w }
            | Trigger::Acted { who: w, .. }
            | Trigger::Offered { who: w, .. }
            | Trigger::Sighted { who: w, .. }
            | Trigger::TrapSprung { who: w, .. }
            | Trigger::HpAtMost { who: w, .. } => who(w, f),
            _ => {}
        }
        if let Some(c) = &mut self.only_if {
            cond(c, f);
        }
        acts(&mut self.then, f);
    }

    /// Calls `f` on every action of the event, those nested in a `one_of` or a `choice` too.
    pub fn each_action(&mut self, f: &mut dyn FnMut(&mut Action)) {
        fn acts(list: &mut [Action], f: &mut dyn FnMut(&mut Action)) {
            for a in list {
                f(a);
                match a {
                    Action::OneOf(b) => b.iter_mut().for_each(|b| acts(b, f)),
                    Action::Choice { options, .. } => options.iter_mut().for_each(|o| acts(&mut o.then, f)),
                    _ => {}
                }
            }
        }
        acts(&mut self.then, f);
    }

    /// Calls `f` on every clause of the event's condition (`only_if`), nested ones too.
    pub fn each_clause(&mut self, f: &mut dyn FnMut(&mut Cond)) {
        fn cond(c: &mut Cond, f: &mut dyn FnMut(&mut Cond)) {
            f(c);
            match c {
                Cond::All(v) | Cond::Any(v) => v.iter_mut().for_each(|c| cond(c, f)),
                Cond::Not(c) => cond(c, f),
                _ => {}
            }
        }
        if let Some(c) = &mut self.only_if {
            cond(c, f);
        }
    }

    /// Every figure id the event names (`each_figure`).
    pub fn figures(&self) -> Vec<String> {
        let mut out = Vec::new();
        self.clone().each_figure(&mut |id| out.push(id.clone()));
        out
    }

    /// Whether it may fire again, having fired `fired` times.
    pub fn may_fire(&self, fired: u32) -> bool {
        match self.times {
            Some(t) => fired < t,
            None => self.repeat || fired == 0,
        }
    }
}

fn lowest() -> i32 {
    i32::MIN
}
fn highest() -> i32 {
    i32::MAX
}
fn is_lowest(v: &i32) -> bool {
    *v == i32::MIN
}
fn is_highest(v: &i32) -> bool {
    *v == i32::MAX
}

/// Issue 46: a condition over the match as it stands (an event's `only_if`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Cond {
    /// Every clause holds (none: true).
    All(Vec<Cond>),
    /// Some clause holds (none: false).
    Any(Vec<Cond>),
    /// The clause does not hold.
    Not(Box<Cond>),
    /// The door at this space is open, closed (or locked: a locked door is closed) or locked.
    Door { at: Pos, state: DoorState },
    /// A figure (`who`) on the map carries the item.
    Holds {
        #[serde(default)]
        who: Who,
        item: String,
    },
    /// The level variable is within `at_least..=at_most` (each bound optional).
    Var {
        name: String,
        #[serde(default = "lowest", skip_serializing_if = "is_lowest")]
        at_least: i32,
        #[serde(default = "highest", skip_serializing_if = "is_highest")]
        at_most: i32,
    },
    /// The event with this id has fired (at least once).
    Fired(String),
}

/// Issue 46: what a `tile` action may make of a space (doors are `door`'s, stairs the map's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ground {
    Floor,
    Wall,
    Pillar,
    Pit,
    Difficult,
}

impl Ground {
    pub fn tile(self) -> super::grid::Tile {
        use super::grid::Tile;
        match self {
            Ground::Floor => Tile::Floor,
            Ground::Wall => Tile::Wall,
            Ground::Pillar => Tile::Pillar,
            Ground::Pit => Tile::Pit,
            Ground::Difficult => Tile::Difficult,
        }
    }
}

/// Who a trigger watches.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Who {
    /// Any figure.
    #[default]
    Any,
    /// A figure of this side.
    Side(String),
    /// This figure (its id).
    Figure(String),
}

/// When an event fires. A trigger that reads the match (`enters`, `turn`, `minute`) fires when
/// it comes true; one that reads what happened (`door_opens`, `item_taken`, `falls`,
/// `crisis_begins`, `crisis_ends`) fires when it happens.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Trigger {
    /// A figure (`who`) stands in the area, able to act.
    Enters {
        area: Area,
        #[serde(default)]
        who: Who,
    },
    /// The door at this space opens (R-EXP-11), by anyone.
    DoorOpens { at: Pos },
    /// A figure takes this item from a space or a chest (R-EXP-15).
    ItemTaken { item: String },
    /// A figure (`who`) falls: its HP drop to 0 or below, or it dies.
    Falls {
        #[serde(default)]
        who: Who,
    },
    /// Crisis turn N has begun (the first action phase is turn 1).
    Turn(u32),
    /// Exploration Mode's clock has reached minute N (R-EXP-2).
    Minute(u32),
    /// Crisis Mode starts (R-EXP-24).
    CrisisBegins,
    /// A crisis ends (R-EXP-27; in a one-fight level, the match).
    CrisisEnds,
    /// A figure (`who`) does `what` (issue 43: a tutorial's step waits for the player to do
    /// it); `how`, when given, is the movement, action, reflex or response row it must be.
    Acted {
        what: Deed,
        #[serde(default)]
        who: Who,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        how: Option<String>,
    },
    /// A figure (`who`) is offered a reflex or a response against an attack (R-REACT-2,
    /// R-REACT-8): the prompt is open (read from the match: it fires when it comes true).
    Offered {
        what: Offer,
        #[serde(default)]
        who: Who,
    },
    /// Issue 46: a round of a crisis's action phase ends (the next round begins, or the phase
    /// ends: R-TURN-15).
    RoundEnds,
    /// Issue 46: a figure (`who`) on the map is in sight of a figure of side `by` (R-EXP-19:
    /// line of sight and, in a crawl, light). Reads the match: fires when it comes true.
    Sighted {
        #[serde(default)]
        who: Who,
        by: String,
    },
    /// Issue 46: a trap is sprung (R-EXP-16) by a figure (`who`), at `at` when given.
    TrapSprung {
        #[serde(default)]
        who: Who,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at: Option<Pos>,
    },
    /// Issue 46: a figure (`who`) on the map has `hp` HP or fewer. Reads the match: fires
    /// when it comes true.
    HpAtMost {
        #[serde(default)]
        who: Who,
        hp: i32,
    },
}

/// What a figure did, for the `acted` trigger.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Deed {
    /// Free steps (R-FS-*).
    FreeStep,
    /// A movement row (step, run, leap, climb, drop, stand...; not free steps). In a crawl,
    /// a hero's walk.
    Move,
    /// An attack of his own opportunity (not a reflex's or a response's).
    Attack,
    /// Any action row (attacks included).
    Action,
    /// A spell cast (R-SPELL-*).
    Spell,
    /// Ends an opportunity having done nothing (R-TURN-13).
    Pass,
    /// Ends an opportunity having done something.
    End,
    /// Declares a reflex (R-REACT-2).
    Reflex,
    /// Declares a response (R-REACT-8).
    Response,
    /// Declines a reflex or a response offered.
    Decline,
}

impl Deed {
    /// Whether an `acted` trigger's `how` can name a row with this deed (a movement, action,
    /// reflex or response row); `validate` and the editor's form both ask.
    pub fn names_a_row(self) -> bool {
        matches!(self, Deed::Move | Deed::Attack | Deed::Action | Deed::Reflex | Deed::Response)
    }
}

/// The reaction prompt an `offered` trigger watches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Offer {
    Reflex,
    Response,
}

/// The state a door is set to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DoorState {
    Open,
    Closed,
    /// Locked; its lock (and key) is the door's own from the level's `doors`, if any.
    Locked,
}

/// What an event does.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// A line in the log and on the screen.
    Message(String),
    /// R-EXP-24 (d): Crisis Mode starts: every hero, and the members of the named encounters,
    /// take part; `surprised` names the surprised side (R-EXP-26 (1)), else nobody is surprised.
    /// During a crisis, the named encounters are alerted (they join it when they see a
    /// participant, R-EXP-25).
    StartCrisis {
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        encounters: Vec<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        surprised: Option<String>,
    },
    /// Opens, closes or locks the door at this space.
    Door { at: Pos, state: DoorState },
    /// The side (default: every exploring side) sees the area from now on (R-EXP-19).
    Reveal {
        area: Area,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        side: Option<String>,
    },
    /// The figure gets the item (into its carried items).
    Give { figure: String, item: String },
    /// The figure loses one of the item, if it carries it.
    Take { figure: String, item: String },
    /// The side wins: the level ends.
    Win(String),
    /// The side loses: the level ends, won by the other side if there is exactly one.
    Lose(String),
    /// An encounter turns hostile or non-hostile (R-CP-16).
    Stance { encounter: String, hostile: bool },
    /// An encounter marked `arrives: true` comes onto the map: each of its figures at its `pos`,
    /// or the nearest free space it can stand on (same floor). In Exploration Mode its awareness
    /// is the level's (an alert one that sees a hero starts a crisis, R-EXP-24 (a)); during a
    /// crisis it waits outside it and joins when it sees or is seen by a participant (R-EXP-25).
    Spawn(String),
    /// Issue 45: every member of the encounter gets these orders (`None`: none), from now on.
    Orders {
        encounter: String,
        #[serde(default)]
        to: Option<super::orders::Orders>,
    },
    /// Issue 46: the space becomes this ground (not a door's space: `door` sets doors; a space
    /// a figure stands on stays walkable).
    Tile { at: Pos, to: Ground },
    /// Issue 46: the level variable is set to the value.
    SetVar { name: String, to: i32 },
    /// Issue 46: the value is added to the level variable (saturating at i32's bounds).
    AddVar { name: String, by: i32 },
    /// Issue 46: every hero (`who`) on the map and alive earns the CP (R-CP-10: the level's
    /// own objectives), told as `cp_earned`.
    AwardCp {
        #[serde(default)]
        who: Who,
        cp: u32,
    },
    /// Issue 46: one of the branches, drawn from the match's dice (one die with as many faces
    /// as branches: replays and saves draw the same; a script may force it).
    OneOf(Vec<Vec<Action>>),
    /// Issue 46: a choice put to a side (2 or 3 options): play waits until a figure of the side
    /// answers it (`Command::Choose`); the option chosen does its own actions.
    Choice { side: String, prompt: String, options: Vec<ChoiceOption> },
}

/// One option of a `choice`: its button's label and what it does.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChoiceOption {
    pub label: String,
    #[serde(default)]
    pub then: Vec<Action>,
}

/// Issue 46: a choice put to a side that it has not answered yet (part of the match's state).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PendingChoice {
    /// The event that put it.
    pub event: String,
    pub side: String,
    pub prompt: String,
    pub options: Vec<ChoiceOption>,
    /// The nesting of its options' actions (the choice's own + 1).
    pub depth: usize,
}

impl Action {
    /// The action lists nested in this one (a `one_of`'s branches, a `choice`'s options).
    pub fn nested(&self) -> Vec<&[Action]> {
        match self {
            Action::OneOf(b) => b.iter().map(|b| b.as_slice()).collect(),
            Action::Choice { options, .. } => options.iter().map(|o| o.then.as_slice()).collect(),
            _ => vec![],
        }
    }
}

/// The level's events and what has come of them (part of the match: saves and replays rebuild
/// it by playing the same commands).
#[derive(Clone, Debug, PartialEq)]
pub struct Story {
    pub defs: Arc<Vec<EventDef>>,
    /// Times each event has fired.
    pub fired: Vec<u32>,
    /// Whether each trigger held after the last step (a trigger fires when it comes true).
    pub held: Vec<bool>,
    /// A win or loss an event set: the winner (`None`: nobody), the event's id and why.
    pub decided: Option<(Option<String>, String, String)>,
    /// The `arrives: true` encounters not yet spawned, with their figures (off the map, outside
    /// `Match::fighters` until a `spawn` action appends them).
    pub waiting: Vec<Waiting>,
    /// Issue 45: who has which orders, and what the rules keep of them.
    pub directed: super::orders::Directed,
    /// Issue 46: the level's variables (declared in its `vars`) and their values now.
    pub vars: std::collections::BTreeMap<String, i32>,
    /// Issue 46: a choice put to a side, waiting for its answer.
    pub pending: Option<PendingChoice>,
}

/// An encounter that arrives later (`arrives: true`): its id and its figures as the level built
/// them.
#[derive(Clone, Debug, PartialEq)]
pub struct Waiting {
    pub encounter: String,
    pub figures: Vec<super::fighter::Fighter>,
}

impl Story {
    pub fn new(defs: Vec<EventDef>) -> Self {
        let n = defs.len();
        Story {
            defs: Arc::new(defs),
            fired: vec![0; n],
            held: vec![false; n],
            decided: None,
            waiting: Vec::new(),
            directed: Default::default(),
            vars: Default::default(),
            pending: None,
        }
    }

    /// Whether a figure with this id waits to arrive.
    pub fn waits(&self, id: &str) -> bool {
        self.waiting.iter().any(|w| w.figures.iter().any(|f| f.id == id))
    }
}
