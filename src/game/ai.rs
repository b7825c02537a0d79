//! AI-controlled sides: when an AI character must decide (its opportunity, or a reaction window
//! against it), the monster wrangler picks a `Command` and issues it like any other input.

use super::components::MatchState;
use super::flow::FlowStatus;
use super::pipeline::{CheckedCommand, CommandQueue, IssueCommand};
use bevy::prelude::*;
use doo_rules::ai::{AiConfig, decide, who_decides};
use std::time::Instant;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<AiStats>().init_resource::<AiHold>().add_systems(Update, drive_ai.in_set(super::MatchSystems::Input));
}

/// Which sides the AI plays; absent: none. `pace_secs` spaces its moves out in the window.
#[derive(Resource, Debug, Clone, Default)]
pub struct AiControl {
    pub config: AiConfig,
    pub pace_secs: f32,
    pub waited: f32,
    /// The rest of the plan of the opportunity in progress: (actor, turn, round, commands).
    pub plan: Option<(usize, u32, u32, std::collections::VecDeque<doo_rules::rules::Command>)>,
}

/// While true the AI waits (the window holds it while a person reads an overlay or a move plays).
#[derive(Resource, Debug, Clone, Copy, Default)]
pub struct AiHold(pub bool);

/// Thinking time per decision, in microseconds, with the deciding side and turn.
#[derive(Resource, Debug, Clone, Default)]
pub struct AiStats {
    pub decisions_us: Vec<u64>,
    pub by_side: Vec<(String, u32, u64)>,
    /// Decisions the budget cut short (the best plan found so far was taken).
    pub budget_cuts: usize,
}

fn drive_ai(
    ai: Option<ResMut<AiControl>>,
    time: Res<Time>,
    status: Res<FlowStatus>,
    q: Res<CommandQueue>,
    checked: Res<CheckedCommand>,
    state: Option<Res<MatchState>>,
    mut stats: ResMut<AiStats>,
    hold: Res<AiHold>,
    mut out: MessageWriter<IssueCommand>,
) {
    let Some(mut ai) = ai else { return };
    if hold.0 {
        ai.waited = 0.0;
        return;
    }
    if !status.awaiting || status.over || !q.queue.is_empty() || checked.current.is_some() {
        return;
    }
    let Some(state) = state else { return };
    let m = &state.0;
    let Some(a) = who_decides(m, &ai.config) else { return };
    if ai.pace_secs > 0.0 {
        ai.waited += time.delta_secs();
        if ai.waited < ai.pace_secs {
            return;
        }
        ai.waited = 0.0;
    }
    let start = Instant::now();
    let in_window = m.pending.as_ref().is_some_and(|p| p.window.is_some());
    let key = (a, m.clock.turn, m.clock.round);
    // Follow the opportunity's plan while its next step is still legal; otherwise plan again.
    let cached = match ai.plan.as_mut() {
        Some((pa, pt, pr, rest)) if !in_window && (*pa, *pt, *pr) == key => rest.pop_front().filter(|c| doo_rules::rules::engine::validate(m, c).is_ok()),
        _ => None,
    };
    let cmd = match cached {
        Some(c) => c,
        None => {
            let decision = doo_rules::ai::decide_traced(m, a, &ai.config);
            stats.budget_cuts += decision.cut as usize;
            let mut cmds: std::collections::VecDeque<_> = decision.commands.into();
            let first = cmds.pop_front().unwrap_or_else(|| decide(m, a, &ai.config));
            ai.plan = if in_window { None } else { Some((key.0, key.1, key.2, cmds)) };
            first
        }
    };
    let us = start.elapsed().as_micros() as u64;
    stats.decisions_us.push(us);
    stats.by_side.push((m.fighters[a].side.clone(), m.clock.turn, us));
    out.write(IssueCommand(cmd));
}
