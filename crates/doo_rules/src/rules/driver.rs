//! The one command path in plain Rust, step for step as the game's systems run it frame by
//! frame (`game::pipeline`, `game::flow`): close the windows a command does not answer,
//! validate, apply, check the goals, and when an action phase ends run the reset and open the
//! next one; when the crisis ends, the closing reset (R-TURN-17). Used where no Bevy app runs:
//! the fuzzer, the benches, and rules tests.

use super::command::Command;
use super::dice::Dice;
use super::engine;
use super::event::Event;
use super::state::Match;
use super::turn::{self, Flow, ResetKind};
use super::victory;
use super::violation::Violation;

/// Opens a freshly built match: the opening reset (R-TURN-4), then round 1 of the first action
/// phase. True while the match waits for a command.
pub fn open(m: &mut Match, dice: &mut Dice, ev: &mut Vec<Event>) -> bool {
    if m.explore.is_some() {
        // A crawl starts in Exploration Mode (R-EXP-1).
        let flow = super::explore::begin(m, dice, ev);
        return follow(m, dice, flow, ev);
    }
    turn::run_reset(m, dice, ResetKind::Opening, ev);
    let flow = turn::begin_action_phase(m, dice, ev);
    follow(m, dice, flow, ev)
}

/// Acts on what the rules say comes next, goals checked first. True while the match waits for
/// a command.
pub fn follow(m: &mut Match, dice: &mut Dice, flow: Flow, ev: &mut Vec<Event>) -> bool {
    let mut flow = victory::settle(m, flow, ev);
    loop {
        match flow {
            Flow::AwaitCommand => return true,
            Flow::PhaseEnded => {
                turn::run_reset(m, dice, ResetKind::Normal, ev);
                let next = turn::begin_action_phase(m, dice, ev);
                flow = victory::settle(m, next, ev);
            }
            Flow::CrisisEnded => {
                turn::run_reset(m, dice, ResetKind::Closing, ev);
                return false;
            }
            Flow::Over => return false,
            Flow::Exploring => return true,
            Flow::CrisisStarts => {
                turn::run_reset(m, dice, ResetKind::Opening, ev);
                let next = turn::begin_action_phase(m, dice, ev);
                flow = victory::settle(m, next, ev);
            }
            Flow::EncounterEnded => {
                turn::run_reset(m, dice, ResetKind::Closing, ev);
                let next = super::explore::resume(m, dice, ev);
                flow = victory::settle(m, next, ev);
            }
        }
    }
}

/// Sends one command down the path. `Ok(true)`: applied, and the match waits for the next;
/// `Ok(false)`: applied, and the crisis is over; `Err`: refused (nothing changed but the windows
/// the command did not answer, which close as in the game).
pub fn submit(m: &mut Match, dice: &mut Dice, cmd: &Command, ev: &mut Vec<Event>) -> Result<bool, Violation> {
    if let Some(flow) = engine::close_stale(m, cmd, dice, ev) {
        follow(m, dice, flow, ev);
    }
    let plan = engine::validate(m, cmd)?;
    let flow = engine::apply(m, plan, dice, ev);
    Ok(follow(m, dice, flow, ev))
}
