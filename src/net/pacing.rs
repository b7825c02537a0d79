//! How the network bench's processes run their apps (issue 44): the threads, the frames, and
//! which apps a round updates (an app with no work is skipped, `--update-idle` updates every
//! app every round). Split from `bench.rs`, which measures and reports.

use super::client::NetClient;
use super::transport::WatchSocket;
use crate::game::components::MatchState;
use crate::game::flow::FlowStatus;
use crate::game::pipeline::{CheckedCommand, CommandQueue};
use crate::game::record::MatchRecord;
use bevy::prelude::*;
use std::time::{Duration, Instant};

/// How the bench's two processes run their apps (`--apps-per-thread`, `--frame-ms`,
/// `--update-idle`): `per_thread` apps updated in turn by each thread (0: every app of the
/// process in one thread), a round of them every `frame` (with at least `MIN_REST` between two
/// rounds), in each round only the apps with work (`Wake`). The default: every app of a process
/// in one thread, idle apps skipped, the next round at once after one with work, else after
/// 1 ms of rest. Issue 32's bench updated every app every round, 1 ms of rest between two
/// (`skip_idle` false, `--update-idle`). An idle app's frame is cheap: most of the processes'
/// CPU is each command's work (the host's check and play, both clients' replay, the AI's
/// decision), and skipping idle frames cut the host process's by about a fifth (issue 44,
/// README). An app a thread (each peer as in a process of its own) was measured too: on a
/// loaded machine its 150 threads waited for the scheduler more than one thread each process
/// did (README).
#[derive(Clone, Copy, Debug)]
pub struct Pacing {
    pub per_thread: usize,
    pub frame: Duration,
    /// Update an app only when it has work, or every `IDLE` (false: every app every round).
    pub skip_idle: bool,
}

impl Default for Pacing {
    fn default() -> Self {
        Pacing { per_thread: 0, frame: FRAME, skip_idle: true }
    }
}

/// An app with nothing to do is still updated this often: its netcode's keep-alives (four a
/// second), a reconnection's timer, the bench's own end-of-match checks.
const IDLE: Duration = Duration::from_millis(50);
/// The rounds an app is updated from one in which it had work: that one and the next (a frame
/// publishes what the last one played: the record, a checkpoint, the messages to send).
const AFTER_WORK: u8 = 2;

/// When an app was last updated, and for how many more rounds it is (`Pacing::skip_idle`).
pub(super) struct Wake {
    last: Instant,
    rounds: u8,
}

/// Whether an app is updated this round: not, for its `IDLE` update (or every round without
/// `skip_idle`), or for work (its thread's next round then follows without rest).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Due {
    Skip,
    Idle,
    Work,
}

impl Wake {
    pub(super) fn new() -> Wake {
        Wake { last: Instant::now(), rounds: AFTER_WORK }
    }

    pub(super) fn due(&mut self, pacing: &Pacing, app: &App) -> Due {
        if !pacing.skip_idle {
            return Due::Idle;
        }
        if has_work(app.world()) {
            self.rounds = AFTER_WORK;
        }
        let now = Instant::now();
        let due = if self.rounds > 0 {
            self.rounds -= 1;
            Due::Work
        } else if now.duration_since(self.last) >= IDLE {
            Due::Idle
        } else {
            return Due::Skip;
        };
        self.last = now;
        due
    }
}

/// Whether an app has work now: a packet waits on its socket, its match has commands to play
/// (one a frame), or its client's AI may send one (its seat decides, its pace kept).
fn has_work(w: &World) -> bool {
    if w.get_resource::<WatchSocket>().is_none_or(WatchSocket::readable) {
        return true;
    }
    let Some(state) = w.get_resource_ref::<MatchState>() else { return false };
    let status = w.resource::<FlowStatus>();
    if !crate::game::record::settled(status, w.resource::<CommandQueue>(), w.resource::<CheckedCommand>()) {
        return true;
    }
    let commands = w.get_resource::<MatchRecord>().map_or(0, |r| r.commands.len());
    !status.over && w.get_resource::<NetClient>().is_some_and(|c| c.ai_may_play(commands, state.last_changed()))
}

/// The bench's frame by default: none (a round, then `MIN_REST`, then the next).
pub const FRAME: Duration = Duration::ZERO;
/// Each thread's stack (a Bevy app's schedules are built in it).
pub(super) const STACK: usize = 8 << 20;

impl Pacing {
    /// The apps `0..n` in groups, one group a thread.
    pub(super) fn groups(&self, n: usize) -> Vec<std::ops::Range<usize>> {
        let per = if self.per_thread == 0 { n.max(1) } else { self.per_thread };
        (0..n).step_by(per).map(|a| a..(a + per).min(n)).collect()
    }

    /// The rest after a round begun at `began`: what is left of its frame, at least `MIN_REST` (a
    /// thread late on a loaded machine does not run frame after frame to catch up). With idle
    /// apps skipped and no frame, none after a round in which an app had work (`worked`): its
    /// next frame at once. On a loaded machine each rest of a thread costs it a wait for the
    /// scheduler (10–20 ms beside a build), and a command takes an app several frames.
    pub(super) fn rest(&self, began: Instant, worked: bool) {
        if self.skip_idle && self.frame.is_zero() && worked {
            return;
        }
        std::thread::sleep(self.frame.saturating_sub(began.elapsed()).max(MIN_REST));
    }
}

/// The least rest between two rounds of a thread (the rest of issue 32's bench, which had no frame).
const MIN_REST: Duration = Duration::from_millis(1);
