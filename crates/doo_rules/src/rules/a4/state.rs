//! Ruleset A4's state as data: each figure's round (`RoundState`), the steps a command still
//! has to play out (`Task`: attacks of opportunity, attacks waiting for a reactive defence, the
//! rest of a move), and the acts of a turn (`RoundAct`, which `Command::Round` carries).

use super::super::explore::state::CrisisRules;
use super::super::grid::Pos;
use super::book::{A4Book, Slot, Trigger};
use serde::{Deserialize, Serialize};
use std::collections::VecDeque;
use std::sync::Arc;

/// The reaction id of an attack of opportunity (A4-4.1).
pub const OPPORTUNITY: &str = "a4_opportunity";
/// The reaction id of a reactive defence (A4-3.21).
pub const REACTIVE: &str = "a4_reactive_defense";
/// The reaction id of a held action's strike when its trigger comes (A4-3.16).
pub const HELD: &str = "a4_held_action";

/// What a crawl's crises need of A4 (`explore::CrisisRules`): healing dice never explode
/// (A4-G-31); a new wound makes a stabilized dying figure bleed again (A4-3.20, A4-G-20).
pub const CRAWL: CrisisRules = CrisisRules { items_explode: false, rebleeds: true };

/// The A4 state of a match: the book, each figure's round, and the steps still to play out.
#[derive(Clone, Debug)]
pub struct A4 {
    pub book: Arc<A4Book>,
    /// Per figure, in level order.
    pub figs: Vec<RoundState>,
    /// What the command being played still has to do, front first: attacks of opportunity to
    /// offer, attacks waiting for a reactive defence, the rest of a move (A4-4.1, A4-3.21).
    pub tasks: VecDeque<Task>,
}

/// One figure's round (A4-2.1, A4-4.2, A4-5, A4-3.12, A4-3.21).
#[derive(Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct RoundState {
    pub initiative: i32,
    /// A4-5.2: the tie-break, the Athletics pool in pips.
    pub tie: i32,
    /// A4-3.15: delayed this round (acts after the figures already at its number).
    pub delayed: bool,
    pub standard: bool,
    #[serde(rename = "move")]
    pub move_: bool,
    pub minor: bool,
    /// A4-G-04: actions counted this round.
    pub counted: u32,
    /// A4-3.19: the five-foot step was taken.
    pub stepped: bool,
    /// A4-G-19: a move action (or its equivalent) was taken.
    pub moved: bool,
    /// Squares of movement spent this turn by move, run and withdraw (A4-G-15's half speed).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub moved_squares: u32,
    /// The figure's turn this round is over.
    pub done: bool,
    /// A4-5.3, A4-G-27.
    pub flat_footed: bool,
    /// A4-5.4, A4-G-28: no turn, reaction or attack of opportunity this round.
    pub surprised: bool,
    /// A4-4.2: attacks of opportunity made this round.
    pub aoo: u32,
    /// A4-3.21: reactive defences made this round.
    pub reactive: u32,
    /// A4-G-21: penalty dice on its own rolls for the rest of this round, and carried to the next.
    pub penalty_now: i32,
    pub penalty_next: i32,
    /// A4-3.12: the full-defence roll added to every TN against it until its next turn.
    pub full_defense: Option<i32>,
    /// A4-G-08: charged; attacks on it at −5 TN until its next turn.
    pub charged: bool,
    /// A4-6.5, A4-G-33: the moving-defense roll added to ranged TNs against it until its next turn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moving_defense: Option<i32>,
    /// A4-3.16, A4-G-18: holding its action for this trigger (lost at the round's end).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hold: Option<Trigger>,
    /// A4-3.7, A4-G-12: its weapon is sheathed (kept from round to round; weapons start drawn).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub sheathed: bool,
}

impl RoundState {
    pub fn slot_used(&self, s: Slot) -> bool {
        match s {
            Slot::Standard => self.standard,
            Slot::Move => self.move_,
            Slot::Minor => self.minor,
        }
    }

    pub fn use_slot(&mut self, s: Slot) {
        match s {
            Slot::Standard => self.standard = true,
            Slot::Move => self.move_ = true,
            Slot::Minor => self.minor = true,
        }
    }

    pub fn acted(&self) -> bool {
        self.standard || self.move_ || self.minor || self.stepped || self.counted > 0
    }
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// A step still to play out (see `A4::tasks`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Task {
    /// Ask `who` whether to make its attack of opportunity on `mover` (A4-4.1).
    OfferAoo { who: usize, mover: usize },
    /// An attack declared, waiting for the defender's reactive defence or to be resolved.
    Attack(AttackSpec),
    /// The rest of a movement: spaces still to enter; `safe`: the square it stands on does not
    /// provoke (the start of a withdraw, A4-3.13, or a square already answered).
    Walk { actor: usize, rest: Vec<Pos>, safe: bool, kind: String, provokes: bool },
    /// A provoking act, done once the attacks of opportunity it drew are over.
    Finish { actor: usize, act: RoundAct },
    /// Ask `who`, holding its action (A4-3.16), whether to strike `mover` now.
    OfferHeld { who: usize, mover: usize },
}

/// An attack under A4 (A4-3.1, A4-3.2, A4-3.14, A4-4.1).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AttackSpec {
    pub attacker: usize,
    pub defender: usize,
    /// Dice added to the attack pool (charge +1D, full attack −1D …).
    pub dice: i32,
    /// Where the adjustment comes from, for the log.
    pub why: String,
    pub opportunity: bool,
    /// The reactive defence's total, once thrown.
    pub reacted: Option<i32>,
    /// The reactive-defence window was opened (or could not be).
    pub asked: bool,
}

impl A4 {
    pub fn new(book: Arc<A4Book>, n: usize) -> Self {
        A4 { book, figs: vec![RoundState::default(); n], tasks: VecDeque::new() }
    }
}

/// One act of a figure's A4 turn (`round(actor: "lunk", act: attack(target: "orc"))`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum RoundAct {
    /// A4-3.3: up to speed (move slot).
    Move { path: Vec<Pos> },
    /// A4-3.4: up to 2× speed (standard + move).
    Run { path: Vec<Pos> },
    /// A4-3.13: up to 2× speed, leaving the first square safely (full round).
    Withdraw { path: Vec<Pos> },
    /// A4-3.2: a straight line of 2 to 2× speed squares ending in reach, then one attack at +1D.
    /// With no path, the shortest straight charge at the target.
    Charge {
        target: String,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        path: Vec<Pos>,
    },
    /// A4-3.19: the five-foot step, one square that never provokes.
    Step { to: Pos },
    /// A4-3.5.
    StandUp,
    /// A4-3.8.
    DropProne,
    /// A4-3.1.
    Attack { target: String },
    /// A4-3.14, A4-G-05: 2 (or 3) attacks at −1D (−2D); targets in order, the last repeated.
    FullAttack { targets: Vec<String> },
    /// A4-3.12, A4-G-15: a defence roll added to every TN against the figure until its next turn.
    FullDefense,
    /// A4-G-14: reload a crossbow.
    Reload,
    /// A4-3.15: act later this round at a lower initiative.
    Delay { initiative: i32 },
    /// A4-3.16, A4-G-18: wait for a trigger, then strike before the mover goes on.
    Hold { trigger: Trigger },
    /// A4-6.5, A4-G-33: move up to ¾ speed with an Athletics roll added to ranged TNs.
    MovingDefense { path: Vec<Pos> },
    /// A4-3.7, A4-G-12: draw the sheathed weapon.
    Draw,
    /// A4-3.7, A4-G-12: sheathe the weapon.
    Sheathe,
    /// A4-3.20, A4-G-20: stop a dying figure's bleeding.
    Stabilize { target: String },
    /// A4-3.6, A4-G-11: mount or dismount (no steeds in this game).
    Mount,
    /// A4-3.18: say something (free, any time, unless flat-footed or surprised).
    Speak { text: String },
    /// A4-3.9, A4-G-14: open or close a door (minor; a crawl's crisis).
    Door { at: Pos, open: bool },
    /// A4-3.9, A4-G-14: open an unlocked chest (minor; a crawl's crisis).
    OpenChest { at: Pos },
    /// A4-3.10, A4-G-14: pick up an item (minor; a crawl's crisis).
    Take { at: Pos, item: String },
    /// A4-3.17, A4-G-14: drop a carried item into one's square (free).
    Drop { item: String },
    /// A4-3.11, A4-G-14: take out and use a healing item on oneself or a figure next to one
    /// (standard; provokes).
    UseItem {
        item: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        target: Option<String>,
    },
    /// A4-7.2, A4-G-38: begin a spell (switched off in a4.ron).
    CastSpell { spell: String },
    /// Ends the figure's turn.
    EndTurn,
}

impl RoundAct {
    /// A player's name for it.
    pub fn label(&self) -> &'static str {
        match self {
            RoundAct::Move { .. } => "Move",
            RoundAct::Run { .. } => "Run",
            RoundAct::Withdraw { .. } => "Withdraw",
            RoundAct::Charge { .. } => "Charge",
            RoundAct::Step { .. } => "Five-foot step",
            RoundAct::StandUp => "Stand up",
            RoundAct::DropProne => "Drop prone",
            RoundAct::Attack { .. } => "Attack",
            RoundAct::FullAttack { .. } => "Full attack",
            RoundAct::FullDefense => "Full defense",
            RoundAct::Reload => "Reload",
            RoundAct::Delay { .. } => "Delay",
            RoundAct::Hold { .. } => "Hold",
            RoundAct::MovingDefense { .. } => "Moving defense",
            RoundAct::Draw => "Draw weapon",
            RoundAct::Sheathe => "Sheathe weapon",
            RoundAct::Stabilize { .. } => "Stabilize",
            RoundAct::Mount => "Mount",
            RoundAct::Speak { .. } => "Speak",
            RoundAct::Door { open: true, .. } => "Open door",
            RoundAct::Door { open: false, .. } => "Close door",
            RoundAct::OpenChest { .. } => "Open chest",
            RoundAct::Take { .. } => "Pick up",
            RoundAct::Drop { .. } => "Drop",
            RoundAct::UseItem { .. } => "Use item",
            RoundAct::CastSpell { .. } => "Cast a spell",
            RoundAct::EndTurn => "End turn",
        }
    }
}

/// An act in a few words: "Charge Orc", "Move to (3, 4)".
pub fn describe(act: &RoundAct, name: &dyn Fn(&str) -> String) -> String {
    let l = act.label();
    match act {
        RoundAct::Move { path } | RoundAct::Run { path } | RoundAct::Withdraw { path } | RoundAct::MovingDefense { path } => {
            format!("{l} to {}", path.last().map_or("here".into(), |p| p.to_string()))
        }
        RoundAct::Charge { target, .. } | RoundAct::Attack { target } | RoundAct::Stabilize { target } => format!("{l} {}", name(target)),
        RoundAct::Hold { trigger } => format!("{l} for {}", trigger.describe()),
        RoundAct::Door { at, .. } | RoundAct::OpenChest { at } => format!("{l} at {at}"),
        RoundAct::Take { item, .. } | RoundAct::Drop { item } | RoundAct::UseItem { item, .. } => format!("{l} {}", item.replace('_', " ")),
        RoundAct::FullAttack { targets } => format!("{l} on {}", targets.iter().map(|t| name(t)).collect::<Vec<_>>().join(", ")),
        RoundAct::Step { to } => format!("{l} to {to}"),
        RoundAct::Delay { initiative } => format!("{l} to initiative {initiative}"),
        _ => l.to_string(),
    }
}
