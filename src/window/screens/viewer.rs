//! The replay viewer: a save (or the match just played) replayed once through the headless app,
//! the match kept after every command; the board, the HUD and the log then show any of those
//! moments. Play and pause, one command forward or back, the previous or next turn, the first
//! and last command, and the speed. Nobody decides while watching (`Spectating`): no AI, no
//! autosave, every click is dropped.

use super::{Go, Screen};
use crate::game::log::{MatchLog, MatchOutcome};
use crate::game::record::MatchRecord;
use crate::window::theme::prelude::*;
use bevy::prelude::*;
use doo_rules::replay::Origin;
use doo_rules::rules::Dice;
use doo_rules::rules::state::Match;
use doo_rules::rules::victory::Outcome;
use doo_rules::save::Save;

pub(super) fn plugin(app: &mut App) {
    app.add_button_action::<ReplayAct>().add_systems(OnExit(Screen::Match), leave_viewer).add_systems(
        Update,
        (control_viewer, show_viewer_frame, draw_viewer_bar)
            .chain()
            .in_set(crate::game::MatchSystems::Input)
            .run_if(in_state(Screen::Match).and_then(resource_exists::<ReplayViewer>)),
    );
}

/// What a replay viewer button does.
#[derive(Component, Message, Clone, Copy, Debug, PartialEq)]
pub enum ReplayAct {
    PlayPause,
    /// Step by this many commands (negative: back).
    Step(i32),
    /// To the start of the previous or next turn.
    Turn(i32),
    /// To the first command of this turn.
    ToTurn(u32),
    Start,
    End,
    Speed(f32),
}

/// Commands a save may have for the viewer to keep every moment of it (the match after each is
/// kept in memory); longer saves are still checked by `doo replay --verify`.
pub const MAX_VIEWER_COMMANDS: usize = 20_000;

/// Turn buttons shown at once (around the turn on the board).
const TURN_BUTTONS: usize = 24;

/// Speeds offered, in commands per second.
pub const SPEEDS: [f32; 4] = [1.0, 2.0, 4.0, 8.0];

/// The match after one command (frame 0: before the first).
pub struct Frame {
    pub m: Match,
    pub dice: Dice,
    pub log_len: usize,
    pub over: bool,
    pub outcome: Option<Outcome>,
}

/// The replay being watched.
#[derive(Resource)]
pub struct ReplayViewer {
    pub frames: Vec<Frame>,
    /// The whole match's log; each frame shows its beginning.
    pub log: MatchLog,
    /// The frame shown (the number of commands played).
    pub at: usize,
    pub playing: bool,
    pub speed: f32,
    timer: f32,
    shown: Option<usize>,
    pub label: String,
}

impl ReplayViewer {
    /// Replays `save` from `origin`, keeping the match after every command.
    pub fn build(origin: &Origin, save: &Save) -> Result<Self, String> {
        if save.commands.len() > MAX_VIEWER_COMMANDS {
            return Err(format!("{} commands: the viewer keeps at most {MAX_VIEWER_COMMANDS} (doo replay --verify checks longer saves)", save.commands.len()));
        }
        // Replayed in plain Rust (the one flow), the match kept after every command.
        let mut r = doo_rules::replay::catch(|| doo_rules::replay::Replay::start(origin)).map_err(|e| format!("the match could not be started: {e}"))?;
        let frame =
            |r: &doo_rules::replay::Replay| Frame { m: r.m.clone(), dice: r.dice.clone(), log_len: r.log.len(), over: r.over, outcome: r.outcome.clone() };
        let mut frames = vec![frame(&r)];
        for (i, c) in save.commands.iter().enumerate() {
            if let Err(e) = doo_rules::replay::catch(|| {
                let _ = r.push(c);
            }) {
                return Err(format!("the rules stopped on command {i}: {e}"));
            }
            frames.push(frame(&r));
        }
        let mut log = MatchLog::of_replay(&r.log);
        log.shown_from = 0;
        let label = if save.label.is_empty() || save.label == "autosave" { save.level_name.clone() } else { save.label.clone() };
        Ok(Self { frames, log, at: 0, playing: false, speed: 2.0, timer: 0.0, shown: None, label })
    }

    pub fn last(&self) -> usize {
        self.frames.len() - 1
    }

    /// Each turn of the match and the frame where it starts, in order.
    pub fn turn_starts(&self) -> Vec<(u32, usize)> {
        let mut out: Vec<(u32, usize)> = Vec::new();
        for (k, f) in self.frames.iter().enumerate() {
            if out.last().is_none_or(|&(t, _)| t != f.m.clock.turn) {
                out.push((f.m.clock.turn, k));
            }
        }
        out
    }

    /// The frame where the turn before or after the shown one starts (`dir` −1 or +1).
    pub fn turn_start(&self, dir: i32) -> usize {
        let turn = |k: usize| self.frames[k].m.clock.turn;
        let now = turn(self.at);
        if dir > 0 {
            (self.at..=self.last()).find(|&k| turn(k) > now).unwrap_or(self.last())
        } else {
            // The first frame of this turn; from there (or already there), of the turn before.
            let start = (0..=self.at).rev().take_while(|&k| turn(k) == now).last().unwrap_or(0);
            if start < self.at {
                return start;
            }
            let before = start.saturating_sub(1);
            (0..=before).rev().take_while(|&k| turn(k) == turn(before)).last().unwrap_or(0)
        }
    }
}

/// Starts watching `save` in the match screen (called by the match start).
pub fn start_viewer(world: &mut World, origin: Origin, save: &Save) -> Result<(), String> {
    let viewer = ReplayViewer::build(&origin, save)?;
    world.remove_resource::<crate::game::ai::AiControl>();
    world.remove_resource::<crate::game::record::Autosave>();
    world.insert_resource(seats_of(save));
    world.init_resource::<crate::game::intent::Spectating>();
    world.insert_resource(MatchRecord::default());
    world.insert_resource(viewer);
    show_frame(world, 0, false);
    Ok(())
}

/// Who played each side of a recorded match, from the save's seats: a human side shows its
/// player's name, an AI side "(AI)" (a watched match had no human player).
pub fn seats_of(save: &Save) -> crate::game::intent::Seats {
    let players = save
        .seats
        .iter()
        .filter(|s| s.ai.is_none() && !save.watch)
        .map(|s| (s.side.clone(), if s.player.is_empty() { "Player".to_string() } else { s.player.clone() }))
        .collect();
    crate::game::intent::Seats { players, owners: Default::default(), elsewhere: Default::default() }
}

fn leave_viewer(mut commands: Commands) {
    commands.remove_resource::<ReplayViewer>();
    commands.remove_resource::<crate::game::intent::Spectating>();
}

/// Puts frame `k` on the board: the match, its dice, the log as it stood, the outcome
/// (`same_board` false: the board is built and the view fitted, as for a new match).
fn show_frame(world: &mut World, k: usize, same_board: bool) {
    let Some(v) = world.get_resource::<ReplayViewer>() else { return };
    let Some(f) = v.frames.get(k) else { return };
    let restored = crate::game::setup::Restored {
        m: f.m.clone(),
        dice: f.dice.clone(),
        log: v.log.truncated(f.log_len),
        outcome: MatchOutcome(f.outcome.clone()),
        over: f.over,
        next_index: k,
        record: MatchRecord::default(),
        same_board,
    };
    crate::game::setup::restore_match(world, restored);
    if let Some(mut v) = world.get_resource_mut::<ReplayViewer>() {
        v.shown = Some(k);
    }
}

/// Buttons and keys: Space play/pause, comma and period one command, [ and ] a turn.
fn control_viewer(mut acts: MessageReader<ReplayAct>, keys: Res<ButtonInput<KeyCode>>, time: Res<Time>, mut viewer: ResMut<ReplayViewer>) {
    let mut list: Vec<ReplayAct> = acts.read().copied().collect();
    for (key, act) in [
        (KeyCode::Space, ReplayAct::PlayPause),
        (KeyCode::Comma, ReplayAct::Step(-1)),
        (KeyCode::Period, ReplayAct::Step(1)),
        (KeyCode::BracketLeft, ReplayAct::Turn(-1)),
        (KeyCode::BracketRight, ReplayAct::Turn(1)),
    ] {
        if keys.just_pressed(key) {
            list.push(act);
        }
    }
    // The timer ticks every frame without marking the viewer changed: its bar is redrawn only
    // when what it shows changes (a bar redrawn every frame replaced the button being clicked).
    let before = (viewer.at, viewer.playing, viewer.speed);
    let acted = !list.is_empty();
    let v = viewer.bypass_change_detection();
    for act in list {
        match act {
            ReplayAct::PlayPause => {
                v.playing = !v.playing;
                if v.playing && v.at == v.last() {
                    v.at = 0;
                }
                v.timer = 0.0;
            }
            ReplayAct::Step(d) => {
                v.playing = false;
                v.at = v.at.saturating_add_signed(d as isize).min(v.last());
            }
            ReplayAct::Turn(d) => {
                v.playing = false;
                v.at = v.turn_start(d);
            }
            ReplayAct::ToTurn(t) => {
                v.playing = false;
                if let Some(&(_, k)) = v.turn_starts().iter().find(|&&(x, _)| x == t) {
                    v.at = k;
                }
            }
            ReplayAct::Start => v.at = 0,
            ReplayAct::End => {
                v.playing = false;
                v.at = v.last();
            }
            ReplayAct::Speed(s) => v.speed = s,
        }
    }
    if v.playing {
        v.timer += time.delta_secs() * v.speed;
        if v.timer >= 1.0 {
            v.timer = 0.0;
            v.at = (v.at + 1).min(v.last());
            if v.at == v.last() {
                v.playing = false;
            }
        }
    }
    if acted || before != (v.at, v.playing, v.speed) {
        viewer.set_changed();
    }
}

fn show_viewer_frame(world: &mut World) {
    let Some(v) = world.get_resource::<ReplayViewer>() else { return };
    if v.shown != Some(v.at) {
        let at = v.at;
        show_frame(world, at, true);
    }
}

#[derive(Component)]
struct ViewerBar;

/// The viewer's panel at the top of the board: where the replay is, and its controls.
fn draw_viewer_bar(mut commands: Commands, viewer: Res<ReplayViewer>, old: Query<Entity, With<ViewerBar>>) {
    if !viewer.is_changed() {
        return;
    }
    for e in &old {
        commands.entity(e).despawn();
    }
    let v = viewer.as_ref();
    let f = &v.frames[v.at];
    let turn = f.m.clock.turn;
    let status = if f.over { " - over".to_string() } else { format!(", round {}", f.m.clock.round) };
    commands
        .spawn((
            Name::new("Replay viewer"),
            ViewerBar,
            DespawnOnExit(Screen::Match),
            GlobalZIndex(35),
            // Under the board, where the action bar would be: nobody acts while watching.
            Node {
                position_type: PositionType::Absolute,
                bottom: Val::Px(8.0),
                left: Val::Px(8.0),
                max_width: Val::Px(900.0),
                padding: UiRect::all(Val::Px(6.0)),
                flex_direction: FlexDirection::Column,
                align_items: AlignItems::Start,
                row_gap: Val::Px(4.0),
                ..default()
            },
            BackgroundColor(palette::PANEL_SOLID),
            Interaction::default(),
            Blocks,
            bevy::ui::FocusPolicy::Block,
        ))
        .with_children(|p| {
            p.spawn(text(format!("Replay: {} - command {} of {} - turn {turn}{status}", v.label, v.at, v.last()), 15.0, palette::GOLD));
            p.spawn(Node { flex_direction: FlexDirection::Row, flex_wrap: FlexWrap::Wrap, ..default() }).with_children(|r| {
                r.spawn(bar_button("|< First", ReplayAct::Start, v.at > 0));
                r.spawn(bar_button("[ Turn back", ReplayAct::Turn(-1), v.at > 0));
                r.spawn(bar_button(", Step back", ReplayAct::Step(-1), v.at > 0));
                r.spawn(bar_button(if v.playing { "Space Pause" } else { "Space Play" }, ReplayAct::PlayPause, true));
                r.spawn(bar_button(". Step", ReplayAct::Step(1), v.at < v.last()));
                r.spawn(bar_button("] Next turn", ReplayAct::Turn(1), v.at < v.last()));
                r.spawn(bar_button("Last >|", ReplayAct::End, v.at < v.last()));
                for s in SPEEDS {
                    let mut b = r.spawn(bar_button(format!("{s}/s"), ReplayAct::Speed(s), true));
                    if v.speed == s {
                        b.insert(Selected);
                    }
                }
                r.spawn(bar_button("Leave", Go(Screen::Menu), true));
            });
            // Jump to a turn: the turns around the one shown (all of them in a short match).
            let turns = v.turn_starts();
            let here = turns.iter().rposition(|&(_, k)| k <= v.at).unwrap_or(0);
            let from = here.saturating_sub(TURN_BUTTONS / 2).min(turns.len().saturating_sub(TURN_BUTTONS));
            p.spawn(Node { flex_direction: FlexDirection::Row, flex_wrap: FlexWrap::Wrap, align_items: AlignItems::Center, ..default() }).with_children(|r| {
                r.spawn(text("Jump to turn ", 13.0, palette::DIM));
                for &(t, _) in turns.iter().skip(from).take(TURN_BUTTONS) {
                    let mut b = r.spawn(bar_button(format!("{t}"), ReplayAct::ToTurn(t), true));
                    if t == turn {
                        b.insert(Selected);
                    }
                }
            });
        });
}
