//! The match flow, written once: close the windows a command does not answer, validate, apply,
//! check the goals, and when an action phase ends run the reset and open the next one; when the
//! crisis ends, the closing reset (R-TURN-17). The game's systems call these functions step for
//! step (`game::pipeline`: Command → Validate → Apply), and so do replays
//! (`crate::replay`), the fuzzer, the benches and the rules tests: there is no other copy.

use super::command::Command;
use super::dice::Dice;
use super::engine::{self, Plan};
use super::event::Event;
use super::heroes;
use super::level_events;
use super::ruleset;
use super::state::Match;
use super::turn::{Flow, ResetKind};
use super::victory;
use super::violation::Violation;

/// How a match comes onto the table. (A match a replay rebuilt is not started again: it
/// waits where the replay stopped, `replay::Replay`.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Start {
    /// Freshly built: the opening reset (R-TURN-4) and round 1, or a crawl's Exploration Mode
    /// (R-EXP-1).
    Fresh,
    /// A script's start state: the action phase goes on at the match's clock (nothing reset).
    MidPhase,
}

/// Brings a match onto the table. Returns true while it waits for a command (false: over).
pub fn start(m: &mut Match, dice: &mut Dice, how: Start, ev: &mut Vec<Event>) -> bool {
    configure_dice(dice, m);
    match how {
        Start::Fresh => open(m, dice, ev),
        Start::MidPhase => {
            let from = ev.len();
            let flow = ruleset::start_mid_phase(m, dice, ev);
            let waiting = follow_from(m, dice, flow, ev, from);
            heroes::award_cp(m, ev, from);
            waiting
        }
    }
}

/// R-DICE-4 / R-DICE-5: the profile's dice options.
pub fn configure_dice(dice: &mut Dice, m: &Match) {
    dice.odd = m.rules.options.odd_dice;
    dice.large = if m.rules.options.large_dice == super::profile::LargeDice::Table { m.tables.large_dice.clone() } else { Vec::new() };
}

/// Opens a freshly built match: the opening reset (R-TURN-4), then round 1 of the first action
/// phase. True while the match waits for a command.
pub fn open(m: &mut Match, dice: &mut Dice, ev: &mut Vec<Event>) -> bool {
    configure_dice(dice, m);
    // A crawl starts in Exploration Mode (R-EXP-1).
    let from = ev.len();
    let flow = ruleset::open(m, dice, ev);
    let waiting = follow_from(m, dice, flow, ev, from);
    heroes::award_cp(m, ev, from);
    waiting
}

/// Acts on what the rules say comes next, goals checked first. True while the match waits for
/// a command. (Level events read the events pushed from here on; `apply` and the others start
/// them at the command's first event.)
pub fn follow(m: &mut Match, dice: &mut Dice, flow: Flow, ev: &mut Vec<Event>) -> bool {
    let from = ev.len();
    follow_from(m, dice, flow, ev, from)
}

/// `follow`, with the level's events (issue 31) fired after every step of the flow on what
/// happened since event `from`, before the goals are checked.
fn follow_from(m: &mut Match, dice: &mut Dice, flow: Flow, ev: &mut Vec<Event>, from: usize) -> bool {
    let mut cursor = from;
    let mut flow = flow;
    // Issue 44: the work the level's events do for this command, within `Work::CAP`.
    let mut spent = level_events::Work::default();
    loop {
        flow = level_events::fire(m, dice, flow, ev, &mut cursor, &mut spent);
        flow = victory::settle(m, flow, ev);
        if matches!(flow, Flow::CrisisEnded | Flow::EncounterEnded | Flow::Over) {
            // What the end of the crisis sets off (`crisis_ends`).
            flow = level_events::fire(m, dice, flow, ev, &mut cursor, &mut spent);
        }
        match flow {
            Flow::AwaitCommand | Flow::Exploring => return true,
            Flow::Over => return false,
            Flow::PhaseEnded => {
                ruleset::reset(m, dice, ResetKind::Normal, ev);
                flow = ruleset::begin_action_phase(m, dice, ev);
            }
            Flow::CrisisEnded => {
                ruleset::reset(m, dice, ResetKind::Closing, ev);
                return false;
            }
            Flow::CrisisStarts => {
                // R-EXP-25: the opening reset of the crawl's crisis.
                ruleset::reset(m, dice, ResetKind::Opening, ev);
                flow = ruleset::begin_action_phase(m, dice, ev);
            }
            Flow::EncounterEnded => {
                // R-TURN-17, R-EXP-27: the closing reset, then exploration again; a hostile in
                // sight at once starts the next crisis.
                ruleset::reset(m, dice, ResetKind::Closing, ev);
                flow = ruleset::resume(m, dice, ev);
            }
        }
    }
}

/// Before a command is checked: a reaction window it does not answer is declined, and an
/// opportunity in which something was done ends if another character's command arrives
/// (R-REACT-*, R-TURN-12/13). `Some(waiting)` when that moved the flow on.
pub fn close_stale(m: &mut Match, dice: &mut Dice, cmd: &Command, ev: &mut Vec<Event>) -> Option<bool> {
    // Issue 46: while a level event's choice waits, nothing moves on before its answer.
    if super::event_choice::pending(m).is_some() {
        return None;
    }
    let from = ev.len();
    let waiting = engine::close_stale(m, cmd, dice, ev).map(|flow| follow_from(m, dice, flow, ev, from));
    heroes::award_cp(m, ev, from);
    waiting
}

/// Checks a command (R-AP-1); once the match is over every command is refused (R-TURN-17).
pub fn validate(m: &Match, over: bool, cmd: &Command) -> Result<Plan, Violation> {
    if over {
        return Err(Violation::new("R-TURN-17", "The crisis is over: play has returned to narrative time."));
    }
    engine::validate(m, cmd)
}

/// Applies a checked command and moves the flow on. True while the match waits for the next.
pub fn apply(m: &mut Match, dice: &mut Dice, plan: Plan, ev: &mut Vec<Event>) -> bool {
    let from = ev.len();
    let flow = engine::apply(m, plan, dice, ev);
    let waiting = follow_from(m, dice, flow, ev, from);
    // R-CP-9: the CP the heroes earned by it, told as they are earned.
    heroes::award_cp(m, ev, from);
    waiting
}

/// One command down the whole path, `over` kept up to date. `Err`: refused (nothing changed
/// but the windows the command did not answer, which close as in the game).
pub fn step(m: &mut Match, dice: &mut Dice, over: &mut bool, cmd: &Command, ev: &mut Vec<Event>) -> Result<(), Violation> {
    if !*over {
        if let Some(waiting) = close_stale(m, dice, cmd, ev) {
            *over = !waiting;
        }
    }
    let plan = validate(m, *over, cmd)?;
    *over = !apply(m, dice, plan, ev);
    Ok(())
}

/// Sends one command down the path of a match that is not over. `Ok(true)`: applied, and the
/// match waits for the next; `Ok(false)`: applied, and the crisis is over; `Err`: refused.
pub fn submit(m: &mut Match, dice: &mut Dice, cmd: &Command, ev: &mut Vec<Event>) -> Result<bool, Violation> {
    let mut over = false;
    step(m, dice, &mut over, cmd, ev).map(|()| !over)
}

/// R-EXP-19: the sides that saw event `e`, asked of the match right after the command (or the
/// start) that caused it, so the log keeps what each side saw then (the game's log, the replay's,
/// `doo run`'s `seen_by`). `None` outside a crawl: every side sees everything.
pub fn seen_by(m: &Match, e: &Event) -> Option<Vec<String>> {
    super::explore::seen_by(m, e)
}
