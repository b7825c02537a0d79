//! The one `Command` vocabulary: mouse clicks, the AI and scripts all produce these values,
//! and every one goes through the same validation (`engine::validate`).

use super::a4::state::RoundAct;
use super::explore::state::Task;
use super::fighter::Pool;
use super::grid::Pos;
use super::profile::Posture;
use serde::{Deserialize, Serialize};

/// The most spaces in one command's path ([`Command::path_len`]): scripts and saves refuse a
/// longer one before any replay, and the rules before any work on the path.
pub const MAX_PATH: usize = 64;

/// An intent of one character. Character ids are the level's ids.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    /// Free steps along `path` (each entry the next space), §6.
    FreeSteps { actor: String, path: Vec<Pos> },
    /// A movement row by id (`step`, `run`, `climb`, `drop`, `rise`, `stand`, `leap`), §8.
    /// `path`: spaces entered (Step, Run, Leap; Climb takes the destination space or nothing);
    /// `posture`: target posture for Drop; `tumble`: try the ADV-2017 Tumbling shortcut (G-18).
    Move {
        actor: String,
        movement: String,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        path: Vec<Pos>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        posture: Option<Posture>,
        #[serde(default, skip_serializing_if = "is_false")]
        tumble: bool,
    },
    /// An action row by id (`attack`, `panic_attack`, `all_out_attack`, `flop` …), §9.
    Action {
        actor: String,
        action: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        target: Option<String>,
        /// Item id for Use Item; posture for Flop goes in `posture`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        item: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        posture: Option<Posture>,
        /// Pool for Recover.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pool: Option<Pool>,
        /// Guide Stunned Ally: `sit`, `lie_down` or a space to step to.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        instruction: Option<Guide>,
        /// Cast Spell: the spell id.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        spell: Option<String>,
        /// Attacks under `crit_outcomes_adv`: what a Critical or Legendary Hit does instead of
        /// its damage effect (R-ATK-8, R-ATK-9, G-19); damage when absent or not listed.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        critical: Option<CriticalChoice>,
    },
    /// Ends the opportunity without doing anything; keeps AP and free steps (R-TURN-13).
    Pass { actor: String },
    /// Ends an opportunity in which something was done (free steps or a movement) before its action.
    /// With nothing done it is a pass.
    End { actor: String },
    /// A reflex against the attack being declared on `actor` (§11).
    Reflex { actor: String, reflex: String },
    /// A response to the attack just resolved against `actor` (§11).
    Respond { actor: String, response: String },
    /// Declines the open reflex or response window.
    Decline { actor: String },
    /// Issue 46: answers the choice a level event put to the actor's side: `option` counts
    /// from 0 (the first button).
    Choose { actor: String, option: u32 },
    /// Reset-phase choice for step 4: recover Mana or Faith (R-MANA-2). Stays until changed.
    Recovery { actor: String, pool: Pool },
    /// An attempt to delay: to give up the opportunity now and act later in the same round.
    /// Always refused (R-TURN-12: at his opportunity a character acts or passes) and changes
    /// nothing. Scripts and rule testers use it; the AI never issues it.
    Delay { actor: String },
    /// Exploration Mode: walk up to 6 spaces (R-EXP-5); `group`: the group he leads follows.
    Walk {
        actor: String,
        path: Vec<Pos>,
        #[serde(default, skip_serializing_if = "is_false")]
        group: bool,
    },
    /// Open or close the door at `at` (R-EXP-11): a space of a move in Exploration Mode, a
    /// 1-AP action in a crisis.
    Door { actor: String, at: Pos, open: bool },
    /// A one-turn exploration task at `at` (R-EXP-8): search, pick a lock, force, disarm, open
    /// a chest. It takes effect at the end of the turn (R-EXP-20).
    Task { actor: String, task: Task, at: Pos },
    /// Take an item from an open chest or a space at distance ≤ 1 (R-EXP-15).
    Take { actor: String, at: Pos, item: String },
    /// Drop a carried item into one's space (R-EXP-15).
    Drop { actor: String, item: String },
    /// Exploration Mode: use a healing item on oneself or, with `target`, on a hero next to him
    /// (R-EXP-8, R-HEAL-6); it takes effect at the end of the turn.
    Use {
        actor: String,
        item: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        target: Option<String>,
    },
    /// Exploration Mode: climb the stairs or ladder he stands on to the other floor, the group
    /// he leads following when near (R-EXP-7); his whole exploration action.
    Climb { actor: String },
    /// Exploration Mode: the party camps for the night (R-EXP-22).
    Camp { actor: String },
    /// Spend this exploration turn's action waiting (R-EXP-3).
    Wait { actor: String },
    /// End the exploration turn: the heroes who have not acted wait (R-EXP-3, R-EXP-20).
    EndTurn { actor: String },
    /// Leave one's group; with `leader`, join the end of the leader's group (R-EXP-4).
    Follow {
        actor: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        leader: Option<String>,
    },
    /// Exploration Mode: help the check of the hero `helped` (next to him) ordered this turn
    /// (R-CHK-7, R-EXP-12, R-EXP-13, G-60): his action; his check adds to the helped one's.
    Assist { actor: String, helped: String },
    /// Exploration Mode: search the spaces chosen (up to 4 at distance ≤ 1, R-EXP-14); one
    /// turn, at the end of it.
    Search { actor: String, spaces: Vec<Pos> },
    /// Hand a carried item to the hero `to` at distance 1 (R-EXP-8): one turn, at its end
    /// (R-EXP-20); in a crisis a 1-AP action of the giver.
    Hand { actor: String, to: String, item: String },
    /// Exploration Mode: make trade `trade` (its index in his encounter's `trades`) with the
    /// non-hostile NPC `with` he sees (R-CP-16): one turn, the items change hands at its end.
    Trade { actor: String, with: String, trade: usize },
    /// Exploration Mode: sort the loot of the open chest at `at` with every hero within 1 of
    /// it who has not acted (R-EXP-15): 5 turns, then `share` applies (each item to a hero).
    SortLoot {
        actor: String,
        at: Pos,
        #[serde(default)]
        share: Vec<super::explore::state::Share>,
    },
    /// Ruleset A4: one act of the figure's round (`round(actor: "lunk", act: attack(target: "orc"))`).
    Round { actor: String, act: RoundAct },
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// R-ATK-9 options (`crit_outcomes_adv`). "Defender slain" needs the GM's consent and is not offered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CriticalChoice {
    /// The Core damage effect (the default).
    Damage,
    /// Critical: temporary blindness; Legendary: lasting blindness.
    Blind,
    /// Critical: the defender drops his weapon.
    Disarm,
    /// Critical: the defender falls prone.
    Trip,
    /// Legendary: the defender's weapon breaks.
    BreakWeapon,
}

/// Instructions to a stunned ally (R-INJ-5).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Guide {
    Sit,
    LieDown,
    Step(Pos),
}

impl Command {
    /// Spaces in the command's path (free steps, Step, Run, Leap, Climb).
    pub fn path_len(&self) -> usize {
        match self {
            Command::FreeSteps { path, .. } | Command::Move { path, .. } | Command::Walk { path, .. } => path.len(),
            // capped alike: the spaces of a search, the lines of a share-out
            Command::Search { spaces, .. } => spaces.len(),
            Command::SortLoot { share, .. } => share.len(),
            // A4: the paths of its moves, and the targets of a full attack (capped alike)
            Command::Round { act, .. } => match act {
                RoundAct::Move { path }
                | RoundAct::Run { path }
                | RoundAct::Withdraw { path }
                | RoundAct::MovingDefense { path }
                | RoundAct::Charge { path, .. } => path.len(),
                RoundAct::FullAttack { targets } => targets.len(),
                _ => 0,
            },
            _ => 0,
        }
    }

    pub fn actor(&self) -> &str {
        match self {
            Command::FreeSteps { actor, .. }
            | Command::Move { actor, .. }
            | Command::Action { actor, .. }
            | Command::Pass { actor }
            | Command::End { actor }
            | Command::Reflex { actor, .. }
            | Command::Respond { actor, .. }
            | Command::Decline { actor }
            | Command::Choose { actor, .. }
            | Command::Recovery { actor, .. }
            | Command::Delay { actor }
            | Command::Walk { actor, .. }
            | Command::Door { actor, .. }
            | Command::Task { actor, .. }
            | Command::Take { actor, .. }
            | Command::Drop { actor, .. }
            | Command::Wait { actor }
            | Command::Climb { actor }
            | Command::Camp { actor }
            | Command::Use { actor, .. }
            | Command::EndTurn { actor }
            | Command::Follow { actor, .. }
            | Command::Assist { actor, .. }
            | Command::Search { actor, .. }
            | Command::Hand { actor, .. }
            | Command::Trade { actor, .. }
            | Command::SortLoot { actor, .. }
            | Command::Round { actor, .. } => actor,
        }
    }

    /// A bare action with no target or options.
    pub fn action(actor: &str, action: &str, target: Option<&str>) -> Self {
        Command::Action {
            actor: actor.into(),
            action: action.into(),
            target: target.map(Into::into),
            item: None,
            posture: None,
            pool: None,
            instruction: None,
            spell: None,
            critical: None,
        }
    }

    /// An order of Exploration Mode, or a door or item order (§24).
    pub fn is_exploration(&self) -> bool {
        matches!(
            self,
            Command::Walk { .. }
                | Command::Door { .. }
                | Command::Task { .. }
                | Command::Take { .. }
                | Command::Drop { .. }
                | Command::Wait { .. }
                | Command::Climb { .. }
                | Command::Camp { .. }
                | Command::Use { .. }
                | Command::EndTurn { .. }
                | Command::Follow { .. }
                | Command::Assist { .. }
                | Command::Search { .. }
                | Command::Hand { .. }
                | Command::Trade { .. }
                | Command::SortLoot { .. }
        )
    }

    pub fn step(actor: &str, movement: &str, path: Vec<Pos>) -> Self {
        Command::Move { actor: actor.into(), movement: movement.into(), path, posture: None, tumble: false }
    }
}

/// The command's name as a save writes it (`move`, `round`, `walk`…).
pub fn command_name(c: &Command) -> String {
    let s = format!("{c:?}");
    s.split([' ', '{', '(']).next().unwrap_or("command").to_lowercase()
}
