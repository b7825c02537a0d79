//! AI-controlled sides: when an AI character must decide (its opportunity, or a reaction window
//! against it), the monster wrangler picks a `Command` and issues it like any other input.

use super::components::MatchState;
use super::flow::FlowStatus;
use super::pipeline::{CheckedCommand, CommandQueue, IssueCommand};
use bevy::prelude::*;
use doo_rules::ai::{AiConfig, who_decides};
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
    pub plan: doo_rules::ai::PlanCache,
    /// Sides played on another computer (a network match): neither this AI nor this window's
    /// player decides for them; their commands come from the host.
    pub remote: std::collections::BTreeSet<String>,
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
    let ai = &mut *ai;
    let Some(next) = doo_rules::ai::next_command(m, &ai.config, &mut ai.plan) else { return };
    if let Some(d) = &next.decision {
        stats.budget_cuts += d.cut as usize;
    }
    let cmd = next.command;
    let us = start.elapsed().as_micros() as u64;
    stats.decisions_us.push(us);
    stats.by_side.push((m.fighters[a].side.clone(), m.clock.turn, us));
    out.write(IssueCommand(cmd));
}
