//! Player intents (a click on a space or a figure, an action-bar entry, pass, cancel, a reaction)
//! turned into `Command`s. The window produces intents from the mouse and keyboard; tests feed
//! them directly. Legality is never decided here: every offer comes from `rules::preview`
//! (which asks `engine::validate`), every refusal is the validator's `Violation`.

use super::MatchSystems;
use super::ai::AiControl;
use super::components::MatchState;
use super::flow::FlowStatus;
use super::pipeline::{CommandResolved, IssueCommand};
use bevy::prelude::*;
use doo_rules::rules::preview::{self, Aim, Choice, Destination, ReactionChoice};
use doo_rules::rules::profile::{ActionEffect, ReactionKind};
use doo_rules::rules::state::Match;
use doo_rules::rules::{Command, Pos, Violation};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

pub(super) fn plugin(app: &mut App) {
    app.add_message::<Intent>()
        .init_resource::<PlayerView>()
        .init_resource::<PendingIntents>()
        .init_resource::<ReactionPolicy>()
        .init_resource::<Seats>()
        .add_systems(Update, (decline_unasked_reactions, handle_intents).chain().in_set(MatchSystems::Command).before(super::pipeline::queue_issued_commands))
        .add_systems(
            Update,
            (note_verdicts, refresh_player_view).chain().in_set(MatchSystems::Present).in_set(ViewRefreshed).after(super::log::publish_events),
        );
}

/// The player's view is up to date for this frame (the window draws after it).
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct ViewRefreshed;

/// What a player asks for. Serializable, like `Command`, so tests can feed it as data.
#[derive(Message, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Intent {
    /// A click on a space (a figure standing there counts as a click on the figure).
    ClickSpace(Pos),
    /// A click on a figure, by character id.
    ClickFigure(String),
    /// An action-bar entry, by index in `PlayerView::choices`.
    Choose(usize),
    /// Ends the opportunity (pass when nothing was done), or declines an open reaction window.
    Pass,
    /// Leaves aiming mode.
    Cancel,
    /// A reflex or response, by index in `PlayerView::reactions`.
    React(usize),
    /// Declines the open reaction window.
    Decline,
    /// Issue 46: answers the choice a level event puts to the player's side (option from 0).
    Answer(u32),
}

/// Intents not yet turned into commands. One command goes out per frame, so that the next
/// intent is read against the state that command leaves; the rest wait here, in order.
#[derive(Resource, Debug, Clone, Default)]
pub struct PendingIntents(pub std::collections::VecDeque<Intent>);

pub use super::policy::ReactionPolicy;

/// A reaction window nobody will be asked about is declined at once, as a decline command (an
/// A4 held action's strike is taken instead).
fn decline_unasked_reactions(
    view: Res<PlayerView>,
    policy: Res<ReactionPolicy>,
    pending: Res<PendingIntents>,
    relay: Option<Res<CommandRelay>>,
    mut intents: MessageWriter<Intent>,
) {
    // A network client's answer is on its way to the host: the view is the state before it.
    if relay.is_some_and(|r| r.busy) {
        return;
    }
    let (Some(decider), Some((_, choices))) = (&view.decider, &view.reactions) else { return };
    if !view.is_changed() || pending.0.contains(&Intent::Decline) {
        return;
    }
    if !policy.asks(decider, choices) {
        // A4-3.16: a held action the player chose to hold is struck, not thrown away.
        let held = choices.iter().position(|c| {
            c.refusal.is_none() && matches!(&c.command, doo_rules::rules::Command::Reflex { reflex, .. } if reflex == doo_rules::rules::a4::acts::HELD)
        });
        intents.write(held.map_or(Intent::Decline, Intent::React));
    }
}

/// Who plays each side: a human (with a name for hot-seat) or the AI.
#[derive(Resource, Debug, Clone, Default)]
pub struct Seats {
    /// side id → player name (human sides only).
    pub players: BTreeMap<String, String>,
    /// Hot-seat campaigns: character id → the player who owns that hero (wins over the side's).
    pub owners: BTreeMap<String, String>,
    /// A network match: side id → who plays it on another computer ("bob", "the host").
    pub elsewhere: BTreeMap<String, String>,
}

impl Seats {
    /// The player who decides for `view`'s decider: the hero's owner, else his side's player.
    pub fn player_of(&self, view: &PlayerView) -> Option<&String> {
        view.decider.as_ref().and_then(|d| self.owners.get(d)).or_else(|| view.side.as_ref().and_then(|s| self.players.get(s)))
    }
    /// The player of a figure (its owner, else its side's).
    pub fn player_of_figure(&self, id: &str, side: &str) -> Option<&String> {
        self.owners.get(id).or_else(|| self.players.get(side)).or_else(|| self.elsewhere.get(side))
    }
    /// Every human player, once each.
    pub fn distinct(&self) -> std::collections::BTreeSet<&String> {
        self.players.values().chain(self.owners.values()).collect()
    }
}

/// What the player is doing with the selected character.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Mode {
    #[default]
    Idle,
    /// Aiming the action-bar entry `choice` (its figures or spaces are highlighted).
    Aim(usize),
}

/// Everything the UI shows about the decision in progress, recomputed by the rules after each
/// change: the human character who must decide, where it can move and at what price, its action
/// bar, the reaction prompt, and the last refusal.
#[derive(Resource, Debug, Clone, Default)]
pub struct PlayerView {
    /// The human-controlled character who must decide now (opportunity holder or asked defender).
    pub decider: Option<String>,
    /// Side of the decider.
    pub side: Option<String>,
    pub destinations: BTreeMap<Pos, Destination>,
    pub choices: Vec<Choice>,
    /// An open reflex/response window for the decider.
    pub reactions: Option<(ReactionKind, Vec<ReactionChoice>)>,
    pub mode: Mode,
    /// The last refusal, shown until the next intent.
    pub feedback: Option<Violation>,
    /// A message that is not a refusal (what Undo took back), shown until the next intent.
    pub notice: Option<String>,
    /// What Undo would take back now, or why nothing can be (`None`: nobody here decides).
    pub undo: Option<Result<doo_rules::rules::undo::Undo, Violation>>,
    /// Recompute on the next Present even if the match did not change (a refusal, a new aim).
    pub dirty: bool,
    /// Exploration Mode: the hero the player picked to give orders to (clicking a hero).
    pub pick: Option<String>,
    /// What the decider attacking each enemy now would likely do, by figure index (the card).
    pub forecasts: BTreeMap<usize, super::forecast::AttackOdds>,
    /// An order that waits for a second press (issue 43): `IDLE_MINUTE` (ending a minute in which
    /// nobody has acted yet) or the id of an ally to strike anyway. Any other intent drops it.
    pub confirm: Option<String>,
}

impl PlayerView {
    /// Figure ids the current aim may target.
    pub fn aim_targets(&self) -> &[String] {
        match self.aiming().map(|c| &c.aim) {
            Some(Aim::Figure(t)) => t,
            _ => &[],
        }
    }
    pub fn aiming(&self) -> Option<&Choice> {
        match self.mode {
            Mode::Aim(i) => self.choices.get(i),
            Mode::Idle => None,
        }
    }
}

/// The human character who must decide now, if any.
pub fn human_decider(m: &Match, ai: Option<&AiControl>) -> Option<usize> {
    human_decider_picking(m, ai, None)
}

/// `human_decider`; in Exploration Mode the picked hero if he can still be ordered (any hero of
/// the human side gives orders, in any order, R-EXP-3).
pub fn human_decider_picking(m: &Match, ai: Option<&AiControl>, pick: Option<&str>) -> Option<usize> {
    let human = |i: usize| ai.is_none_or(|ai| ai.config.controls(m, i).is_none() && !ai.remote.contains(&m.fighters[i].side));
    if let Some(c) = doo_rules::rules::event_choice::chooser(m) {
        return human(c).then_some(c); // issue 46: a level event's choice waits for its side's answer
    }
    if doo_rules::rules::explore::exploring(m) {
        return doo_rules::rules::explore::next_hero(m, pick.and_then(|p| m.index(p)), human);
    }
    if let Some(p) = &m.pending {
        if p.window.is_some() {
            return human(p.defender).then_some(p.defender);
        }
    }
    m.clock.current.filter(|&c| human(c))
}

/// What an intent does, decided from the rules' own preview. Returns the command to issue, if
/// any; updates the mode and the feedback.
pub fn interpret(m: &Match, view: &mut PlayerView, intent: &Intent) -> Option<Command> {
    view.feedback = None;
    view.notice = None;
    let confirm = view.confirm.take();
    let Some(a) = view.decider.as_deref().and_then(|id| m.index(id)) else {
        view.feedback = Some(Violation::new("R-TURN-9", "Nobody you control has to decide now."));
        return None;
    };
    let me = m.fighters[a].id.clone();
    let refuse = |view: &mut PlayerView, v: Violation| {
        view.feedback = Some(v);
        None
    };
    // Issue 46: a level event's choice waiting is answered before anything else.
    if let Some(r) = super::choice::gate(m, if let Intent::Answer(k) = intent { Some(*k) } else { None }, &me) {
        return r.map_or_else(|v| refuse(view, v), Some);
    }
    if doo_rules::rules::explore::exploring(m) {
        // R-EXP-3, issue 43: a minute that ended by itself (every hero acted) is followed by one
        // in which nobody has acted; Enter there asks again before it lets a second minute pass.
        if matches!(intent, Intent::Pass) && confirm.as_deref() != Some(IDLE_MINUTE) && doo_rules::rules::explore::idle_minute(m, &m.fighters[a].side) {
            view.confirm = Some(IDLE_MINUTE.into());
            view.notice = Some("Nobody has acted in this minute yet: press Enter again to let it pass (R-EXP-3).".into());
            view.dirty = true;
            return None;
        }
        return interpret_exploring(m, view, intent, a);
    }
    // Reaction window: only reactions, decline, pass.
    if let Some((_, list)) = &view.reactions {
        return match intent {
            Intent::React(i) => match list.get(*i) {
                Some(c) if c.refusal.is_none() => Some(c.command.clone()),
                Some(c) => refuse(view, c.refusal.clone().unwrap_or_else(|| Violation::new("R-REACT-2", "Not possible now."))),
                None => None,
            },
            Intent::Decline | Intent::Pass | Intent::Cancel => Some(Command::Decline { actor: me }),
            _ => refuse(view, Violation::new("R-REACT-2", format!("{} must first decide whether to react to the attack.", m.fighters[a].name))),
        };
    }
    match intent {
        Intent::Cancel => {
            view.mode = Mode::Idle;
            None
        }
        Intent::Pass => {
            view.mode = Mode::Idle;
            Some(if m.fighters[a].opp.anything() { Command::End { actor: me } } else { Command::Pass { actor: me } })
        }
        Intent::React(_) | Intent::Decline | Intent::Answer(_) => refuse(view, Violation::new("R-REACT-2", "No attack is waiting for a reaction.")),
        Intent::Choose(i) => {
            let Some(c) = view.choices.get(*i).cloned() else { return None };
            if let Some(v) = c.refusal {
                return refuse(view, v);
            }
            match c.aim {
                Aim::None => {
                    view.mode = Mode::Idle;
                    Some(c.template)
                }
                _ => {
                    // Choosing the entry being aimed again with a single target confirms it.
                    if view.mode == Mode::Aim(*i) {
                        if let Aim::Figure(t) = &c.aim {
                            if t.len() == 1 {
                                view.mode = Mode::Idle;
                                return Some(aimed(&c.template, &t[0]));
                            }
                        }
                    }
                    view.mode = Mode::Aim(*i);
                    None
                }
            }
        }
        Intent::ClickSpace(p) => {
            if let Some(o) = m.occupant(*p).filter(|&o| !m.is_dead(o)) {
                return interpret(m, view, &Intent::ClickFigure(m.fighters[o].id.clone()));
            }
            if let Some(c) = view.aiming().cloned() {
                return match &c.aim {
                    Aim::Space(spots) => match spots.iter().find(|(q, _)| q == p) {
                        Some((_, cmd)) => {
                            view.mode = Mode::Idle;
                            Some(cmd.clone())
                        }
                        None => refuse(view, Violation::new("G-42", format!("{} cannot be aimed at that space.", c.label))),
                    },
                    _ => refuse(view, Violation::new("R-ATK-2", format!("{} is aimed at a figure, not a space.", c.label))),
                };
            }
            // A crawl's crisis: a door next to him opens or closes as a 1-AP action (R-EXP-11).
            if m.explore.is_some() && m.fighters[a].pos.distance(*p) == 1 && !view.destinations.contains_key(p) {
                if let Some(c) = view.choices.iter().find(|c| matches!(&c.template, Command::Door { at, .. } if at == p)) {
                    return match &c.refusal {
                        Some(v) => refuse(view, v.clone()),
                        None => Some(c.template.clone()),
                    };
                }
            }
            match view.destinations.get(p) {
                Some(d) => Some(d.command.clone()),
                None => refuse(view, preview::why_not_move(m, a, *p)),
            }
        }
        Intent::ClickFigure(id) => {
            let Some(t) = m.index(id) else { return refuse(view, Violation::new("INPUT", format!("There is no character '{id}'."))) };
            if let Some(c) = view.aiming().cloned() {
                if view.aim_targets().iter().any(|x| x == id) {
                    view.mode = Mode::Idle;
                    return Some(aimed(&c.template, id));
                }
                let why = doo_rules::rules::engine::validate(m, &aimed(&c.template, id)).err();
                // Issue 43: an ally the rules let it strike is a warning, not a target: the
                // first click tells why, a second click on the same ally strikes anyway.
                if let (None, Some((_, warning))) = (&why, c.warn.iter().find(|w| w.0 == *id)) {
                    if confirm.as_deref() == Some(id.as_str()) {
                        view.mode = Mode::Idle;
                        return Some(aimed(&c.template, id));
                    }
                    view.confirm = Some(id.clone());
                    let name = &m.fighters[t].name;
                    return refuse(view, Violation::new("R-ATK-2", format!("{warning} Click {name} again to strike anyway.")));
                }
                return refuse(view, why.unwrap_or_else(|| Violation::new("R-ATK-2", "Not a valid target.")));
            }
            if t == a || !m.enemies(a, t) {
                return None; // selecting oneself or looking at an ally: the card shows it
            }
            // Clicking an enemy attacks it with the first attack that can reach it.
            let attack = view.choices.iter().find(|c| {
                c.available()
                    && m.rules.action(&c.row).is_some_and(|r| matches!(r.effect, ActionEffect::Attack { .. }))
                    && matches!(&c.aim, Aim::Figure(ts) if ts.contains(id))
            });
            match attack {
                Some(c) => Some(aimed(&c.template, id)),
                None => {
                    let first = view.choices.iter().find(|c| c.row == "attack").or_else(|| view.choices.iter().find(|c| matches!(c.aim, Aim::Figure(_))));
                    let why = first.and_then(|c| doo_rules::rules::engine::validate(m, &aimed(&c.template, id)).err());
                    refuse(
                        view,
                        why.unwrap_or_else(|| Violation::new("R-ATK-2", format!("{} has no attack against {}.", m.fighters[a].name, m.fighters[t].name))),
                    )
                }
            }
        }
    }
}

/// `PlayerView::confirm` while Enter waits to end a minute nobody has acted in.
pub const IDLE_MINUTE: &str = "end an idle minute";

/// An intent in Exploration Mode: a click on one's own hero picks him; on a door next to him
/// opens or closes it; on a closed chest next to him opens it; on a space walks there (the
/// group follows its leader); Enter ends the turn.
fn interpret_exploring(m: &Match, view: &mut PlayerView, intent: &Intent, a: usize) -> Option<Command> {
    use doo_rules::rules::Pos;
    use doo_rules::rules::explore::Task;
    use doo_rules::rules::grid::Tile;
    let me = m.fighters[a].id.clone();
    let x = m.explore.as_deref()?;
    let shown = |o: usize| doo_rules::rules::explore::side_view(m, &m.fighters[a].side).figures.contains(&o);
    let pick = |view: &mut PlayerView, o: usize| {
        view.pick = Some(m.fighters[o].id.clone());
        view.mode = Mode::Idle;
        view.dirty = true;
        None
    };
    match intent {
        Intent::Pass => Some(Command::EndTurn { actor: me }),
        Intent::Cancel | Intent::React(_) | Intent::Decline | Intent::Answer(_) => {
            view.mode = Mode::Idle;
            None
        }
        Intent::Choose(i) => {
            let c = view.choices.get(*i).cloned()?;
            match c.refusal {
                Some(v) => {
                    view.feedback = Some(v);
                    None
                }
                None => Some(c.template),
            }
        }
        Intent::ClickFigure(id) => {
            let o = m.index(id)?;
            if o != a && x.is_explorer(m, o) && m.fighters[o].side == m.fighters[a].side {
                return pick(view, o);
            }
            interpret_exploring(m, view, &Intent::ClickSpace(m.fighters[o].pos), a)
        }
        Intent::ClickSpace(p) => {
            let p: Pos = *p;
            if let Some(o) = m.occupant(p).filter(|&o| o != a && x.is_explorer(m, o) && m.fighters[o].side == m.fighters[a].side) {
                return pick(view, o);
            }
            let f = &m.fighters[a];
            let hidden = x.door(p).is_some_and(|d| d.hidden);
            if f.pos.distance(p) == 1 && !hidden {
                match m.board.tile(p) {
                    Some(Tile::DoorClosed | Tile::DoorLocked) => return Some(Command::Door { actor: me, at: p, open: true }),
                    Some(Tile::DoorOpen) if m.occupant(p).is_none() && !view.destinations.contains_key(&p) => {
                        return Some(Command::Door { actor: me, at: p, open: false });
                    }
                    _ => {}
                }
                if x.chest_at(p).is_some_and(|c| !x.chests[c].open) {
                    return Some(Command::Task { actor: me, task: Task::OpenChest, at: p });
                }
            }
            if let Some(d) = view.destinations.get(&p) {
                return Some(d.command.clone());
            }
            if let Some(o) = m.occupant(p).filter(|&o| shown(o) && !x.is_explorer(m, o) && !m.is_dead(o)) {
                // R-EXP-24 (c): an attack order on an NPC not fighting yet starts the crisis.
                let row = m.rules.actions.iter().find(|r| doo_rules::rules::actions::is_attack(r)).map_or("attack".to_string(), |r| r.id.clone());
                let cmd = Command::action(&me, &row, Some(&m.fighters[o].id));
                return match doo_rules::rules::engine::validate(m, &cmd) {
                    Ok(_) => Some(cmd),
                    Err(v) => {
                        view.feedback = Some(v);
                        None
                    }
                };
            }
            let why = doo_rules::rules::engine::validate(m, &Command::Walk { actor: me, path: vec![p], group: false }).err();
            view.feedback = Some(why.unwrap_or_else(|| {
                Violation::new("R-EXP-5", format!("{} cannot get to {p} this turn (a move is at most 6 spaces, through spaces the party has seen).", f.name))
            }));
            None
        }
    }
}

/// `template` aimed at figure `id`.
pub fn aimed(template: &Command, id: &str) -> Command {
    let mut c = template.clone();
    match &mut c {
        Command::Action { target, .. } => *target = Some(id.to_string()),
        Command::Round { act, .. } => match act {
            doo_rules::rules::a4::acts::RoundAct::Attack { target } | doo_rules::rules::a4::acts::RoundAct::Charge { target, .. } => *target = id.to_string(),
            doo_rules::rules::a4::acts::RoundAct::FullAttack { targets } => *targets = vec![id.to_string()],
            _ => {}
        },
        _ => {}
    }
    c
}

/// Recomputes the player's view from the rules (`ruleset::view`: the offers of the mode).
pub fn compute_view(m: &Match, ai: Option<&AiControl>, view: &mut PlayerView) {
    let decider = human_decider_picking(m, ai, view.pick.as_deref());
    let offers = doo_rules::rules::ruleset::view(m, decider);
    let id = decider.map(|a| m.fighters[a].id.clone());
    if offers.pick {
        // Exploration Mode: the hero picked is the one who decides (R-EXP-3).
        view.pick = id.clone();
        view.mode = Mode::Idle;
    } else if id != view.decider {
        view.mode = Mode::Idle;
    }
    view.decider = id;
    view.side = decider.map(|a| m.fighters[a].side.clone());
    view.reactions = offers.reactions;
    view.destinations = offers.destinations;
    view.choices = offers.choices;
    // Issue 46: while a level event's choice waits, its answer is all that is offered.
    if doo_rules::rules::event_choice::pending(m).is_some() {
        (view.reactions, view.destinations, view.choices) = (None, Default::default(), Vec::new());
    }
    // An aim whose entry is no longer available ends.
    if let Mode::Aim(i) = view.mode {
        if view.choices.get(i).is_none_or(|c| !c.available()) {
            view.mode = Mode::Idle;
        }
    }
}

/// A network client's window: the player's commands go to the host (`net::client`), not
/// straight into the match; the host plays them and sends them back with everyone's.
#[derive(Resource, Debug, Default)]
pub struct CommandRelay {
    /// The command to send to the host.
    pub outbox: Option<Command>,
    /// A command is on its way (sent, and the host has not played or refused it yet): the
    /// player's next intent waits for the state it leaves.
    pub busy: bool,
}

#[allow(clippy::too_many_arguments)]
pub(super) fn handle_intents(
    mut intents: MessageReader<Intent>,
    mut pending: ResMut<PendingIntents>,
    mut view: ResMut<PlayerView>,
    status: Res<FlowStatus>,
    state: Option<Res<MatchState>>,
    spectating: Option<Res<Spectating>>,
    mut relay: Option<ResMut<CommandRelay>>,
    mut out: MessageWriter<IssueCommand>,
) {
    pending.0.extend(intents.read().cloned());
    if pending.0.is_empty() {
        return;
    }
    if spectating.is_some() {
        pending.0.clear();
        return;
    }
    let Some(state) = state else {
        pending.0.clear();
        return;
    };
    if status.over {
        pending.0.clear();
        view.feedback = Some(Violation::new("R-TURN-17", "The crisis is over: no more commands are taken."));
        view.dirty = true;
        return;
    }
    // While the rules resolve the last command (or the host has it) the intents wait, in order.
    if !status.awaiting || relay.as_ref().is_some_and(|r| r.busy) {
        return;
    }
    while let Some(intent) = pending.0.pop_front() {
        view.dirty = true;
        if let Some(cmd) = interpret(&state.0, &mut view, &intent) {
            match relay.as_deref_mut() {
                Some(r) => {
                    r.outbox = Some(cmd);
                    r.busy = true;
                }
                None => {
                    out.write(IssueCommand(cmd));
                }
            }
            // The next intent is read against the state this command leaves (next frame).
            break;
        }
    }
}

/// A refused command (say, a stale click) shows its reason.
fn note_verdicts(mut verdicts: MessageReader<CommandResolved>, mut view: ResMut<PlayerView>) {
    for v in verdicts.read() {
        if let Err(e) = &v.result {
            view.feedback = Some(e.clone());
        }
        view.dirty = true;
    }
}

/// Present while a recorded match is watched (the replay viewer): nobody decides, every intent
/// is dropped, and the view offers nothing.
#[derive(Resource, Debug, Default)]
pub struct Spectating;

/// Present in runs nobody watches or clicks (`doo run`, replays): the view is not worked out,
/// which is most of a command's cost on a large level. Everything else runs as in the window.
#[derive(Resource, Debug, Default)]
pub struct Unwatched;

pub(super) fn refresh_player_view(
    mut view: ResMut<PlayerView>,
    status: Res<FlowStatus>,
    ai: Option<Res<AiControl>>,
    state: Option<Res<MatchState>>,
    unwatched: Option<Res<Unwatched>>,
    spectating: Option<Res<Spectating>>,
) {
    if unwatched.is_some() {
        return;
    }
    let changed = status.is_changed() || state.as_ref().is_some_and(|s| s.is_changed());
    if !changed && !view.dirty {
        return;
    }
    view.dirty = false;
    if !status.awaiting || status.over || spectating.is_some() {
        view.decider = None;
        view.side = None;
        view.destinations.clear();
        view.choices.clear();
        view.reactions = None;
        view.mode = Mode::Idle;
        view.undo = None;
        view.forecasts.clear();
        return;
    }
    let Some(state) = state else { return };
    compute_view(&state.0, ai.as_deref(), &mut view);
    view.forecasts = view.decider.as_deref().and_then(|d| state.index(d)).map(|a| super::forecast::for_decider(&state.0, a)).unwrap_or_default();
}
