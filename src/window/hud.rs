//! The match UI: top bar (turn, round, who is up, turn order by AP), the right panel (the card of
//! the hovered or acting figure with attack forecasts, the scrollable combat log with every die
//! and its arithmetic), the action bar (costs, Only, greyed entries with the rule that forbids
//! them), tooltips, keyboard shortcuts, and the overlays: reset steps, reaction prompt, hot-seat
//! handover, help and the result. Every decision goes out as an `Intent`.

use super::board::HoveredSpace;
use super::screens::{PlayingLevel, Screen};
use super::settings::Settings;
use super::ui::{Act, Blocks, Disabled, bar_button, button, colors, panel, text};
use crate::game::MatchSystems;
use crate::game::ai::{AiControl, AiHold};
use crate::game::components::{CharacterId, MatchState};
use crate::game::flow::FlowStatus;
use crate::game::intent::{Intent, PlayerView, Seats};
use crate::game::log::{MatchLog, MatchOutcome};
use crate::rules::preview::{Aim, MoveKind};
use crate::rules::profile::ActionEffect;
use crate::rules::state::Match;
use bevy::input::mouse::AccumulatedMouseScroll;
use bevy::prelude::*;
use serde_json::Value;
use std::collections::BTreeMap;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Overlay>()
        .init_resource::<LogScroll>()
        .init_resource::<PromptState>()
        .add_systems(OnEnter(Screen::Match), spawn_hud)
        .add_systems(OnExit(Screen::Match), |mut o: ResMut<Overlay>| *o = Overlay::default())
        .add_systems(Update, (match_keys, forward_acts).chain().in_set(MatchSystems::Input).before(super::board::BoardInput).run_if(in_state(Screen::Match)))
        .add_systems(
            Update,
            (
                (check_outcome, show_reset_steps, handover, reaction_prompt, hold_ai).chain(),
                (refresh_top, refresh_card, refresh_log, rebuild_bar, show_tooltip, show_overlays, show_reload_error),
            )
                .chain()
                .in_set(MatchSystems::Present)
                .after(crate::game::log::publish_events)
                .run_if(in_state(Screen::Match)),
        );
}

/// What covers the board. Help, handover and the result take the input; the reset steps do not.
#[derive(Resource, Debug, Clone, Default, PartialEq)]
pub struct Overlay {
    pub help: bool,
    /// Hot-seat: the board is hidden until this player clicks.
    pub handover: Option<String>,
    pub result: Option<String>,
    /// Reset-phase lines shown so far, all lines, seconds to the next.
    pub reset: Option<(usize, Vec<String>, f32)>,
}

impl Overlay {
    /// Which overlay takes the board's input, if any.
    pub fn blocks_board(&self) -> Option<&'static str> {
        if self.handover.is_some() {
            Some("handover")
        } else if self.result.is_some() {
            Some("result")
        } else if self.help {
            Some("help")
        } else {
            None
        }
    }
}

#[derive(Resource, Debug, Default)]
struct LogScroll(usize);

/// The reaction prompt on screen: for which window (log length when it opened), time left.
#[derive(Resource, Debug, Default)]
struct PromptState {
    key: Option<usize>,
    left: f32,
    /// The last human player who had control (handover between different players).
    last_player: Option<String>,
}

#[derive(Component)]
struct TopText;
#[derive(Component)]
struct OrderText;
#[derive(Component)]
struct CardText;
#[derive(Component)]
struct LogText;
#[derive(Component)]
struct LogPanel;
#[derive(Component)]
struct BarRow;
#[derive(Component)]
struct PassLabel;
#[derive(Component)]
struct TipText;
#[derive(Component)]
struct OverlayRoot;
#[derive(Component)]
struct PromptRoot;
#[derive(Component)]
struct ResetText;
#[derive(Component)]
struct ReloadErrorText;
/// The tooltip of a UI element.
#[derive(Component, Clone)]
struct Tip(String);

const LOG_LINES: usize = 22;

fn spawn_hud(mut commands: Commands) {
    use super::camera::{BOTTOM_BAR_PX, RIGHT_PANEL_PX, TOP_BAR_PX};
    let root = DespawnOnExit(Screen::Match);
    // Top bar.
    commands
        .spawn((
            Name::new("Top bar"),
            root.clone(),
            panel(Node {
                position_type: PositionType::Absolute,
                left: Val::Px(0.0),
                top: Val::Px(0.0),
                right: Val::Px(RIGHT_PANEL_PX),
                height: Val::Px(TOP_BAR_PX),
                padding: UiRect::axes(Val::Px(10.0), Val::Px(4.0)),
                flex_direction: FlexDirection::Column,
                ..default()
            }),
        ))
        .with_children(|p| {
            p.spawn((TopText, text("", 16.0, colors::TEXT)));
            p.spawn((OrderText, text("", 14.0, colors::DIM)));
        });
    // Right panel: card, then log.
    commands
        .spawn((
            Name::new("Right panel"),
            root.clone(),
            panel(Node {
                position_type: PositionType::Absolute,
                right: Val::Px(0.0),
                top: Val::Px(0.0),
                bottom: Val::Px(0.0),
                width: Val::Px(RIGHT_PANEL_PX),
                padding: UiRect::all(Val::Px(10.0)),
                flex_direction: FlexDirection::Column,
                row_gap: Val::Px(6.0),
                ..default()
            }),
        ))
        .with_children(|p| {
            p.spawn((CardText, text("", 15.0, colors::TEXT)));
            p.spawn((ReloadErrorText, text("", 14.0, colors::BAD)));
            p.spawn((
                LogPanel,
                Interaction::default(),
                Blocks,
                Node { flex_direction: FlexDirection::Column, flex_grow: 1.0, overflow: Overflow::clip(), padding: UiRect::top(Val::Px(6.0)), ..default() },
                BorderColor::all(Color::srgb(0.3, 0.26, 0.2)),
            ))
            .with_children(|l| {
                l.spawn(text("Combat log (wheel to scroll)", 14.0, colors::GOLD));
                l.spawn((LogText, text("", 13.0, colors::TEXT)));
            });
        });
    // Bottom: tooltip / feedback line, then the action bar.
    commands
        .spawn((
            Name::new("Action bar"),
            root,
            panel(Node {
                position_type: PositionType::Absolute,
                left: Val::Px(0.0),
                bottom: Val::Px(0.0),
                right: Val::Px(RIGHT_PANEL_PX),
                height: Val::Px(BOTTOM_BAR_PX),
                padding: UiRect::all(Val::Px(6.0)),
                flex_direction: FlexDirection::Column,
                ..default()
            }),
        ))
        .with_children(|p| {
            p.spawn((TipText, text("", 15.0, colors::TEXT), Node { min_height: Val::Px(20.0), ..default() }));
            p.spawn((BarRow, Node { flex_direction: FlexDirection::Row, flex_wrap: FlexWrap::Wrap, ..default() }));
        });
}

/// Keyboard: 1-9, 0 (and Shift for entries 11-20) choose bar entries, Enter ends/passes, Esc
/// cancels or closes, F1 or H help, R skips the reset display, Y/N answer a reaction prompt.
fn match_keys(
    keys: Res<ButtonInput<KeyCode>>,
    mut overlay: ResMut<Overlay>,
    view: Res<PlayerView>,
    mut acts: MessageWriter<Act>,
    mut intents: MessageWriter<Intent>,
) {
    const DIGITS: [KeyCode; 10] = [
        KeyCode::Digit1,
        KeyCode::Digit2,
        KeyCode::Digit3,
        KeyCode::Digit4,
        KeyCode::Digit5,
        KeyCode::Digit6,
        KeyCode::Digit7,
        KeyCode::Digit8,
        KeyCode::Digit9,
        KeyCode::Digit0,
    ];
    if keys.any_just_pressed([KeyCode::F1, KeyCode::KeyH]) {
        overlay.help = !overlay.help;
    }
    if keys.just_pressed(KeyCode::KeyR) {
        acts.write(Act::SkipReset);
    }
    if keys.just_pressed(KeyCode::Escape) {
        if overlay.help {
            overlay.help = false;
        } else {
            intents.write(Intent::Cancel);
        }
    }
    if overlay.handover.is_some() {
        if keys.any_just_pressed([KeyCode::Enter, KeyCode::Space]) {
            acts.write(Act::HandoverReady);
        }
        return;
    }
    if overlay.blocks_board().is_some() {
        return;
    }
    if keys.just_pressed(KeyCode::Enter) {
        acts.write(Act::Pass);
    }
    if let Some((_, list)) = &view.reactions {
        for (k, d) in DIGITS.iter().enumerate() {
            if keys.just_pressed(*d) && k < list.len() {
                acts.write(Act::React(k));
            }
        }
        if keys.just_pressed(KeyCode::KeyN) {
            acts.write(Act::Decline);
        }
        return;
    }
    let shift = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
    for (k, d) in DIGITS.iter().enumerate() {
        if keys.just_pressed(*d) {
            acts.write(Act::Choose(k + if shift { 10 } else { 0 }));
        }
    }
}

/// Buttons and keys that are match decisions become intents (not while an overlay covers the board).
#[allow(clippy::too_many_arguments)]
fn forward_acts(
    mut acts: MessageReader<Act>,
    mut intents: MessageWriter<Intent>,
    mut overlay: ResMut<Overlay>,
    mut settings: ResMut<Settings>,
    mut prompt: ResMut<PromptState>,
    mut next: ResMut<NextState<Screen>>,
    view: Res<PlayerView>,
    seats: Res<Seats>,
) {
    for act in acts.read() {
        match act {
            Act::Help => overlay.help = !overlay.help,
            Act::HandoverReady => {
                prompt.last_player = overlay.handover.take();
                if prompt.last_player.is_none() {
                    prompt.last_player = view.side.as_ref().and_then(|s| seats.players.get(s).cloned());
                }
            }
            Act::SkipReset => overlay.reset = None,
            Act::ToMenu => next.set(Screen::Menu),
            Act::ToLevels => next.set(Screen::Levels),
            Act::NeverAsk(id) => {
                settings.never_ask.insert(id.clone());
                intents.write(Intent::Decline);
            }
            _ if overlay.blocks_board().is_some() => {}
            Act::Choose(i) => {
                intents.write(Intent::Choose(*i));
            }
            Act::Pass => {
                intents.write(Intent::Pass);
            }
            Act::React(i) => {
                intents.write(Intent::React(*i));
            }
            Act::Decline => {
                intents.write(Intent::Decline);
            }
            _ => {}
        }
    }
}

fn names(q: &Query<(&CharacterId, &Name)>) -> BTreeMap<String, String> {
    q.iter().map(|(c, n)| (c.id.clone(), n.to_string())).collect()
}

/// Turn, round, phase, whose opportunity and player, and who acts next by AP.
fn refresh_top(
    view: Res<PlayerView>,
    state: Option<Res<MatchState>>,
    seats: Res<Seats>,
    status: Res<FlowStatus>,
    log: Res<MatchLog>,
    mut top: Query<&mut Text, (With<TopText>, Without<OrderText>)>,
    mut order: Query<&mut Text, (With<OrderText>, Without<TopText>)>,
    mut last: Local<(usize, bool)>,
) {
    let stamp = (log.len(), view.is_changed());
    if stamp.0 == last.0 && !stamp.1 {
        return;
    }
    *last = (stamp.0, false);
    let Some(state) = state else { return };
    let m = &state.0;
    let phase = match m.clock.phase {
        crate::rules::Phase::Action => "action phase",
        _ => "reset",
    };
    let mut s = format!("Turn {} | Round {} | {phase}", m.clock.turn, m.clock.round);
    let up = m.pending.as_ref().filter(|p| p.window.is_some()).map(|p| p.defender).or(m.clock.current);
    if let Some(a) = up {
        let f = &m.fighters[a];
        let who = seats.players.get(&f.side).map_or_else(|| format!("{} (AI)", f.side), |p| format!("{p} ({})", f.side));
        let what = if m.pending.as_ref().is_some_and(|p| p.window.is_some()) { "reacts" } else { "acts" };
        s += &format!(" - {who}: {} {what}", f.name);
    } else if status.over {
        s += " - the crisis is over";
    }
    if let Ok(mut t) = top.single_mut() {
        t.0 = s;
    }
    // Order: the one acting, then who would be offered the next opportunity (most AP first).
    let mut able: Vec<usize> =
        (0..m.fighters.len()).filter(|&i| m.can_act(i) && !m.is_dead(i) && !m.fighters[i].turn.took_only && m.fighters[i].ap.current > 0).collect();
    able.sort_by_key(|&i| (Some(i) != m.clock.current, std::cmp::Reverse(m.fighters[i].ap.current), i));
    let chips: Vec<String> =
        able.iter().map(|&i| format!("{}{} {} AP", if Some(i) == m.clock.current { ">" } else { "" }, m.fighters[i].name, m.fighters[i].ap.current)).collect();
    if let Ok(mut t) = order.single_mut() {
        t.0 = if chips.is_empty() { "Nobody has AP left this turn".into() } else { format!("Next by AP: {}", chips.join("  |  ")) };
    }
}

fn posture_text(p: crate::rules::profile::Posture) -> &'static str {
    use crate::rules::profile::Posture::*;
    match p {
        Standing => "standing",
        Sitting => "sitting",
        Kneeling => "kneeling",
        Prone => "prone",
    }
}

/// The card of a character: stats, HP, AP and AP_start, free steps, posture, adjustments and
/// conditions; for an enemy of the one deciding, the forecast of each attack kind.
pub fn card(m: &Match, i: usize, decider: Option<usize>) -> String {
    let f = &m.fighters[i];
    let mut s = format!("{} ({})\n", f.name, f.side);
    s += &format!("HP {}/{}", f.hp, f.max_hp);
    if f.max_mp > 0 {
        s += &format!("  MP {}/{}", f.mp, f.max_mp);
    }
    if f.max_fp > 0 {
        s += &format!("  FP {}/{}", f.fp, f.max_fp);
    }
    s += &format!("\nAP {} (AP_start {})  |  {}\n", f.ap.current, f.ap.start, posture_text(f.posture));
    s += &if f.free_steps.available && !f.opp.free_steps {
        format!("Free steps: {} available (green)\n", f.free_steps.allowance)
    } else {
        "Free steps: spent or lost (red)\n".to_string()
    };
    s += &format!("Brawn d{}  Finesse d{}  Savvy d{}  Nerve d{}\n", f.stats.brawn, f.stats.finesse, f.stats.savvy, f.stats.nerve);
    let w = m.equipment.wielded(f);
    let weapon = match &w {
        crate::rules::equipment::Wielded::Unarmed => "unarmed".to_string(),
        crate::rules::equipment::Wielded::Melee(x, _) => x.name.clone(),
        crate::rules::equipment::Wielded::Ranged(x) => x.name.clone(),
    };
    s += &format!("Weapon: {weapon}\n");
    if !f.adjustments.is_empty() {
        let a: Vec<String> = f.adjustments.iter().map(|a| format!("{:?} {:+} ({})", a.target, a.value, a.source.replace('_', " "))).collect();
        s += &format!("Adjustments: {}\n", a.join(", "));
    }
    if !f.conditions.is_empty() {
        let c: Vec<String> = f.conditions.iter().map(|c| c.id.replace('_', " ")).collect();
        s += &format!("Conditions: {}\n", c.join(", "));
    }
    if let Some(a) = decider.filter(|&a| a != i && m.enemies(a, i)) {
        s += &format!("\nIf {} attacks now:\n", m.fighters[a].name);
        for row in m.rules.actions.iter().filter(|r| matches!(r.effect, ActionEffect::Attack { .. })) {
            let cmd = crate::rules::Command::action(&m.fighters[a].id, &row.id, Some(&f.id));
            let legal = crate::rules::engine::validate(m, &cmd);
            match (crate::ai::forecast(m, a, i, &row.id), legal) {
                (Some(fc), Ok(_)) => {
                    s += &format!(
                        "  {}: {:.0}% to hit, {}-{}{} damage (avg {:.1})\n",
                        row.name,
                        fc.hit * 100.0,
                        fc.min,
                        fc.max,
                        if fc.explodes { "+" } else { "" },
                        fc.expected
                    );
                }
                (Some(fc), Err(v)) => s += &format!("  {}: {:.0}% to hit - not now: {} ({})\n", row.name, fc.hit * 100.0, v.reason, v.rule),
                _ => {}
            }
        }
    }
    s
}

fn refresh_card(
    view: Res<PlayerView>,
    hovered: Res<HoveredSpace>,
    state: Option<Res<MatchState>>,
    log: Res<MatchLog>,
    mut text: Query<&mut Text, With<CardText>>,
    mut last: Local<(usize, Option<crate::rules::Pos>, Option<String>)>,
) {
    let stamp = (log.len(), hovered.0, view.decider.clone());
    if *last == stamp && !view.is_changed() {
        return;
    }
    *last = stamp;
    let Some(state) = state else { return };
    let m = &state.0;
    let decider = view.decider.as_deref().and_then(|d| m.index(d));
    let who = hovered.0.and_then(|p| m.occupant(p)).or(decider).or(m.clock.current);
    let s = who.map(|i| card(&m, i, decider)).unwrap_or_else(|| "Hover a figure to see its card.".into());
    if let Ok(mut t) = text.single_mut() {
        if t.0 != s {
            t.0 = s;
        }
    }
}

/// One readable line per log entry a player cares about, names instead of ids; dice show each
/// die, the parts of the adjustment and the total.
pub fn describe(l: &Value, names: &BTreeMap<String, String>) -> Option<String> {
    let name = |k: &str| {
        let id = l[k].as_str().unwrap_or("?");
        names.get(id).cloned().unwrap_or_else(|| id.to_string())
    };
    let who = name("actor");
    Some(match (l["type"].as_str()?, l["event"].as_str().unwrap_or("")) {
        ("command", _) if l["result"] == "rejected" => format!("Refused: {} ({})", l["reason"].as_str()?, l["rule"].as_str()?),
        ("event", "dice") => {
            let faces: Vec<String> = l["dice"]
                .as_array()?
                .iter()
                .map(|d| d["faces"].as_array().map(|f| f.iter().map(|x| x.to_string()).collect::<Vec<_>>().join("+")).unwrap_or_default())
                .collect();
            let parts: Vec<String> = l["parts"]
                .as_array()
                .map(|ps| ps.iter().filter_map(|p| Some(format!("{} {:+}", p[0].as_str()?.replace('_', " "), p[1].as_i64()?))).collect())
                .unwrap_or_default();
            let adj = l["adjustment"].as_i64().unwrap_or(0);
            let adj = match (adj, parts.is_empty()) {
                (0, true) => String::new(),
                (_, true) => format!(" {adj:+}"),
                (_, false) => format!(" {adj:+} [{}]", parts.join(", ")),
            };
            format!("{who} {}: d{} ({}){adj} = {}", l["purpose"].as_str()?.replace('_', " "), l["rank"], faces.join(", "), l["total"])
        }
        ("event", "reset_step") => format!("Reset step {}: {}", l["step"], l["name"].as_str()?.replace('_', " ")),
        ("event", "ap_set") => format!("{who} has {} AP", l["ap"]),
        ("event", "ap_spent") => format!("{who} spends {} AP on {} ({} left)", l["amount"], l["for_what"].as_str()?.replace('_', " "), l["ap"]),
        ("event", "only_mode") => format!("{who}: {} is an Only action - nothing more this turn", l["action"].as_str()?.replace('_', " ")),
        ("event", "opportunity") => format!("- {who}'s opportunity ({} AP)", l["ap"]),
        ("event", "round") => format!("Round {}", l["round"]),
        ("event", "phase") => format!("Turn {}: {}", l["turn"], l["phase"].as_str()?.replace('_', " ")),
        ("event", "moved") => format!("{who}: {} to ({}, {})", l["movement"].as_str()?.replace('_', " "), l["to"][0], l["to"][1]),
        ("event", "free_steps_lost") => format!("{who} loses the free steps: {}", l["reason"].as_str()?),
        ("event", "attack_declared") => format!("{who} attacks {} ({})", name("target"), l["action"].as_str()?.replace('_', " ")),
        ("event", "reflex_declared") => format!("{who} answers with {}", l["reflex"].as_str()?.replace('_', " ")),
        ("event", "response_declared") => format!("{who} responds with {}", l["response"].as_str()?.replace('_', " ")),
        ("event", "attack_resolved") => format!(
            "{who} vs {}: {} against {} - {}, {} damage ({} - armor {})",
            name("target"),
            l["attack_total"],
            l["defense_cr"],
            l["outcome"].as_str()?.replace('_', " "),
            l["damage"],
            l["raw_damage"],
            l["reduction"]
        ),
        ("event", "hp_changed") => format!("{who}: HP {} -> {} ({})", l["from"], l["to"], l["reason"].as_str()?.replace('_', " ")),
        ("event", "pool_changed") => format!("{who}: {} {} -> {} ({})", l["pool"].as_str()?, l["from"], l["to"], l["reason"].as_str()?.replace('_', " ")),
        ("event", "condition_added") => format!("{who} is now {}", l["id"].as_str().or(l["condition"].as_str())?.replace('_', " ")),
        ("event", "condition_removed") => format!("{who} is no longer {} ({})", l["condition"].as_str()?.replace('_', " "), l["reason"].as_str()?),
        ("event", "item_used") => format!("{who} uses {}", l["item"].as_str()?.replace('_', " ")),
        ("event", "died") => format!("{who} dies"),
        ("event", "opportunity_ended") if l["passed"] == true => format!("{who} passes ({} AP kept)", l["ap"]),
        ("event", "phase_ended") => "The action phase ends".to_string(),
        ("event", "crisis_over") => format!("The crisis is over: {}", l["winner"].as_str().map_or("nobody wins".to_string(), |w| format!("{w} win"))),
        ("event", "note") => l["text"].as_str()?.to_string(),
        _ => return None,
    })
}

fn refresh_log(
    log: Res<MatchLog>,
    chars: Query<(&CharacterId, &Name)>,
    scroll: Res<AccumulatedMouseScroll>,
    panel: Query<&Interaction, With<LogPanel>>,
    mut offset: ResMut<LogScroll>,
    mut text: Query<&mut Text, With<LogText>>,
    mut last: Local<(usize, usize)>,
) {
    let over = panel.iter().any(|i| *i != Interaction::None);
    if over && scroll.delta.y != 0.0 {
        offset.0 = if scroll.delta.y > 0.0 { offset.0 + 3 } else { offset.0.saturating_sub(3) };
    }
    if *last == (log.len(), offset.0) {
        return;
    }
    let n = names(&chars);
    let lines: Vec<String> = log.lines().iter().filter_map(|l| describe(l, &n)).collect();
    offset.0 = offset.0.min(lines.len().saturating_sub(LOG_LINES));
    *last = (log.len(), offset.0);
    let end = lines.len() - offset.0;
    let start = end.saturating_sub(LOG_LINES);
    let mut s = String::new();
    if start > 0 {
        s += &format!("^ {start} earlier\n");
    }
    s += &lines[start..end].join("\n");
    if offset.0 > 0 {
        s += &format!("\nv {} newer", offset.0);
    }
    if let Ok(mut t) = text.single_mut() {
        t.0 = s;
    }
}

fn key_name(i: usize) -> String {
    match i {
        0..=8 => format!("{}", i + 1),
        9 => "0".into(),
        10..=18 => format!("S+{}", i - 9),
        19 => "S+0".into(),
        _ => String::new(),
    }
}

/// The action bar: one button per entry with its key and cost; greyed with the rule that forbids it.
fn rebuild_bar(mut commands: Commands, view: Res<PlayerView>, bar: Query<Entity, With<BarRow>>, seats: Res<Seats>) {
    if !view.is_changed() {
        return;
    }
    let Ok(row) = bar.single() else { return };
    commands.entity(row).despawn_children();
    commands.entity(row).with_children(|p| {
        if view.decider.is_none() {
            let s = if seats.players.is_empty() { "Watching the AI (Space: skip the pace)" } else { "Waiting for the other side..." };
            p.spawn(text(s, 15.0, colors::DIM));
            p.spawn((button("Menu", Act::ToMenu), Tip("Leave the match".into())));
            return;
        }
        if view.reactions.is_some() {
            p.spawn(text("Answer the prompt above (1-9 or N to decline).", 15.0, colors::GOLD));
            return;
        }
        for (i, c) in view.choices.iter().enumerate() {
            let k = key_name(i);
            let only = "";
            let def = if c.defense != 0 { format!(" | Def {:+}", c.defense) } else { String::new() };
            let label = format!("{}{} | {}{only}{def}", if k.is_empty() { String::new() } else { format!("[{k}] ") }, c.label, c.cost);
            let tip = match &c.refusal {
                Some(v) => format!("{} - not now: {} - {}", c.label, v.reason, v.rule),
                None => {
                    let aim = match &c.aim {
                        Aim::Figure(t) => format!(" Then click one of {} highlighted target{}.", t.len(), if t.len() == 1 { "" } else { "s" }),
                        Aim::Space(s) => format!(" Then click one of {} highlighted spaces.", s.len()),
                        Aim::None => String::new(),
                    };
                    let only = if c.only { " Only action: it takes all your AP and nothing more this turn (R-ONLY-6)." } else { "" };
                    format!("{}: {}.{only}{aim} {}", c.label, c.cost, c.description)
                }
            };
            let mut b = p.spawn((bar_button(label, Act::Choose(i), c.refusal.is_none()), Tip(tip)));
            if c.refusal.is_some() {
                b.insert(Disabled);
            }
            if view.aiming().is_some_and(|a| a.label == c.label) {
                b.insert(super::ui::Selected);
            }
        }
        let pass = view.decider.is_some();
        if pass {
            p.spawn((
                bar_button("[Enter] End / Pass", Act::Pass, true),
                PassLabel,
                Tip("End the opportunity; with nothing done it is a pass: you keep your AP and act later this round (R-TURN-13).".into()),
            ));
        }
        p.spawn((bar_button("[F1] Help", Act::Help, true), Tip("Controls and shortcuts".into())));
        p.spawn((bar_button("Menu", Act::ToMenu, true), Tip("Leave the match".into())));
    });
}

/// Tooltip line: the hovered button's tip, else the hovered space's move preview, else the last
/// refusal, else what to do.
fn show_tooltip(
    view: Res<PlayerView>,
    hovered: Res<HoveredSpace>,
    tips: Query<(&Interaction, &Tip)>,
    mut text: Query<(&mut Text, &mut TextColor), With<TipText>>,
) {
    let Ok((mut t, mut color)) = text.single_mut() else { return };
    let (s, c) = if let Some((_, tip)) = tips.iter().find(|(i, _)| **i != Interaction::None) {
        (tip.0.clone(), colors::TEXT)
    } else if let Some(d) = hovered.0.and_then(|h| view.destinations.get(&h)).filter(|_| view.aiming().is_none()) {
        let spaces = d.path.len();
        let s = match d.kind {
            MoveKind::FreeStep => {
                format!("Free steps, {spaces} space{}: 0 AP (only before anything else this opportunity)", if spaces == 1 { "" } else { "s" })
            }
            MoveKind::Step => format!("{} {spaces} space{}: {} AP", d.label, if spaces == 1 { "" } else { "s" }, d.ap),
            MoveKind::Run => format!("{} {spaces} spaces: {} AP, Defense {:+} until the next reset (R-MOVE-3)", d.label, d.ap, d.defense),
        };
        (format!("{s} - click to move"), colors::GOOD)
    } else if let Some(v) = &view.feedback {
        (format!("{} - {}", v.reason, v.rule), colors::BAD)
    } else if let Some(a) = view.aiming() {
        (format!("{}: click a highlighted target (Esc or right click cancels)", a.label), colors::GOLD)
    } else if view.decider.is_some() {
        ("Click a highlighted space to move (green free, blue step, orange run), an enemy to attack, or choose an action.".into(), colors::DIM)
    } else {
        (String::new(), colors::DIM)
    };
    if t.0 != s {
        t.0 = s;
    }
    if color.0 != c {
        color.0 = c;
    }
}

/// The result screen, once the rules have ended the match (`MatchOutcome`, from
/// `Event::CrisisOver`).
fn check_outcome(outcome: Res<MatchOutcome>, level: Option<Res<PlayingLevel>>, state: Option<Res<MatchState>>, mut overlay: ResMut<Overlay>) {
    if !outcome.is_changed() {
        return;
    }
    let (Some(o), Some(state)) = (&outcome.0, state) else { return };
    let label = |s: &str| level.as_ref().and_then(|l| l.0.sides.iter().find(|x| x.id == s).and_then(|x| x.name.clone())).unwrap_or_else(|| s.to_string());
    let text = match &o.winner {
        Some(s) => format!("Victory for {}!", label(s)),
        None => "Nobody wins: every side is down.".into(),
    };
    info!("match over: {text} ({})", o.reason);
    overlay.result = Some(format!("{text}\n{}.\nTurn {}, round {}.", capitalize(&o.reason), state.clock.turn, state.clock.round));
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    c.next().map_or_else(String::new, |f| f.to_uppercase().chain(c).collect())
}

/// The reset phase, one step at a time (R to skip): bleeding, removals, recovery, AP rolls.
fn show_reset_steps(
    time: Res<Time>,
    settings: Res<Settings>,
    log: Res<MatchLog>,
    chars: Query<(&CharacterId, &Name)>,
    mut overlay: ResMut<Overlay>,
    mut seen: Local<usize>,
) {
    if log.len() < *seen {
        *seen = 0; // a new match
    }
    let new = &log.lines()[*seen..];
    *seen = log.len();
    let n = names(&chars);
    let mut in_reset = false;
    let mut lines = Vec::new();
    for l in new {
        if l["event"] == "phase" {
            in_reset = l["phase"].as_str().is_some_and(|p| p.contains("reset"));
            if in_reset {
                lines.push(format!("Turn {}: {}", l["turn"], l["phase"].as_str().unwrap_or("reset").replace('_', " ")));
            }
            continue;
        }
        if in_reset {
            if let Some(d) = describe(l, &n) {
                lines.push(d);
            }
        }
    }
    if !lines.is_empty() && settings.animation_speed > 0.0 {
        overlay.reset = Some((1, lines, 0.0));
    }
    // Ticking the timer is not a change; showing one more line or closing is.
    let o = overlay.bypass_change_detection();
    let mut changed = false;
    if let Some((shown, all, t)) = o.reset.as_mut() {
        *t += time.delta_secs() * settings.animation_speed.max(0.01);
        if *t > 0.35 {
            *t = 0.0;
            *shown += 1;
            changed = true;
        }
        if *shown > all.len() + 4 {
            o.reset = None;
        }
    }
    if changed {
        overlay.set_changed();
    }
}

/// Hot-seat: when control passes to a different human player, hide the board until they click.
fn handover(view: Res<PlayerView>, seats: Res<Seats>, mut overlay: ResMut<Overlay>, mut prompt: ResMut<PromptState>) {
    if !view.is_changed() {
        return;
    }
    let distinct: std::collections::BTreeSet<&String> = seats.players.values().collect();
    let Some(player) = view.side.as_ref().and_then(|s| seats.players.get(s)) else { return };
    if distinct.len() < 2 {
        prompt.last_player = Some(player.clone());
        return;
    }
    if prompt.last_player.as_ref() != Some(player) && overlay.handover.as_ref() != Some(player) {
        overlay.handover = Some(player.clone());
    }
}

/// A reflex or response window for a human defender: a prompt (or an automatic decline when
/// prompts are off, the character is on the never-ask list, or the timeout runs out).
#[allow(clippy::too_many_arguments)]
fn reaction_prompt(
    mut commands: Commands,
    time: Res<Time>,
    view: Res<PlayerView>,
    settings: Res<Settings>,
    seats: Res<Seats>,
    overlay: Res<Overlay>,
    log: Res<MatchLog>,
    chars: Query<(&CharacterId, &Name)>,
    mut prompt: ResMut<PromptState>,
    old: Query<Entity, With<PromptRoot>>,
    mut intents: MessageWriter<Intent>,
) {
    let Some((kind, list)) = view.reactions.as_ref() else {
        if prompt.key.take().is_some() {
            for e in &old {
                commands.entity(e).despawn();
            }
        }
        return;
    };
    let who = view.decider.clone().unwrap_or_default();
    let key = log.len();
    if prompt.key.is_some() && !view.is_changed() {
        if settings.prompt_timeout_secs > 0 && overlay.handover.is_none() {
            prompt.left -= time.delta_secs();
            if prompt.left <= 0.0 {
                intents.write(Intent::Decline);
                prompt.key = None;
            }
        }
        return;
    }
    for e in &old {
        commands.entity(e).despawn();
    }
    if !settings.reaction_prompts || settings.never_ask.contains(&who) || list.iter().all(|c| c.refusal.is_some()) {
        intents.write(Intent::Decline);
        return;
    }
    prompt.key = Some(key);
    prompt.left = settings.prompt_timeout_secs as f32;
    let n = names(&chars);
    let name = n.get(&who).cloned().unwrap_or(who.clone());
    let player = view.side.as_ref().and_then(|s| seats.players.get(s)).cloned().unwrap_or_default();
    let attack = log.lines().iter().rev().find(|l| l["event"] == "attack_declared").map(|l| describe(l, &n).unwrap_or_default()).unwrap_or_default();
    let what = match kind {
        crate::rules::profile::ReactionKind::Reflex => "a reflex (before the attack is rolled)",
        crate::rules::profile::ReactionKind::Response => "a response (after the attack)",
    };
    let timeout = if settings.prompt_timeout_secs > 0 { format!(" Declines by itself after {} s.", settings.prompt_timeout_secs) } else { String::new() };
    commands
        .spawn((
            Name::new("Reaction prompt"),
            PromptRoot,
            DespawnOnExit(Screen::Match),
            GlobalZIndex(20),
            panel(Node {
                position_type: PositionType::Absolute,
                left: Val::Px(60.0),
                top: Val::Px(70.0),
                max_width: Val::Px(760.0),
                padding: UiRect::all(Val::Px(12.0)),
                flex_direction: FlexDirection::Column,
                ..default()
            }),
            BackgroundColor(colors::PANEL_SOLID),
        ))
        .with_children(|p| {
            p.spawn(text(format!("{player}: {attack}."), 18.0, colors::GOLD));
            p.spawn(text(format!("{name} may declare {what}.{timeout}"), 15.0, colors::TEXT));
            p.spawn(Node { flex_direction: FlexDirection::Row, flex_wrap: FlexWrap::Wrap, ..default() }).with_children(|r| {
                for (k, c) in list.iter().enumerate() {
                    let tip = match &c.refusal {
                        Some(v) => format!("{} - not now: {} - {}", c.label, v.reason, v.rule),
                        None => format!("{}: {}", c.label, c.cost),
                    };
                    let mut b = r.spawn((button(format!("[{}] {} | {}", k + 1, c.label, c.cost), Act::React(k)), Tip(tip)));
                    if c.refusal.is_some() {
                        b.insert(Disabled);
                    }
                }
                r.spawn((button("[N] Decline", Act::Decline), Tip("Let the attack go ahead without reacting".into())));
                r.spawn((
                    button(format!("Never ask for {name}"), Act::NeverAsk(who.clone())),
                    Tip("Always decline for this character (Settings keeps the list)".into()),
                ));
            });
        });
}

/// The AI waits while the player reads: overlays, the reset display, moving tokens. Its pace
/// follows the animation speed.
fn hold_ai(
    overlay: Res<Overlay>,
    settings: Res<Settings>,
    moving: Res<super::board::TokensMoving>,
    hold: Option<ResMut<AiHold>>,
    ai: Option<ResMut<AiControl>>,
) {
    let busy = overlay.handover.is_some() || overlay.help || overlay.result.is_some() || overlay.reset.is_some() || moving.0;
    if let Some(mut h) = hold {
        if h.0 != busy {
            h.0 = busy;
        }
    }
    if let Some(mut ai) = ai {
        let pace = if settings.animation_speed > 0.0 { super::reload::AI_PACE_SECS / settings.animation_speed } else { 0.0 };
        if ai.pace_secs > 0.0 && (ai.pace_secs - pace).abs() > 1e-3 {
            ai.pace_secs = pace;
        }
    }
}

const HELP: &str = "Controls
  Left click a highlighted space: move there (green: free steps, 0 AP; blue: Step; orange: Run, costs Defense)
  Left click an enemy: attack it with the first attack that reaches;  hover a figure: its card and attack odds
  1-9, 0 (Shift for 11-20): action bar entries;  then click a highlighted target (Esc / right click cancels)
  Enter: end the opportunity (pass when nothing was done: keep your AP, act later this round)
  Reaction prompt: 1-9 choose, N decline
  Drag or WASD / arrows: pan;  wheel or + / -: zoom;  Home: fit the level;  PageUp / PageDown: floors
  R: skip the reset display;  Space: AI pace on/off;  F1 or H: this help;  Esc: cancel / close
Every greyed entry says why, with the rule id from the rules (RULES.md).";

/// Help, handover and result overlays, and the reset steps panel.
fn show_overlays(mut commands: Commands, overlay: Res<Overlay>, old: Query<Entity, With<OverlayRoot>>, mut reset_text: Query<&mut Text, With<ResetText>>) {
    if !overlay.is_changed() {
        return;
    }
    // The reset panel only updates its text while it stays.
    let only_reset_changed = old.iter().next().is_some() && overlay.reset.is_some() && overlay.blocks_board().is_none() && reset_text.iter().next().is_some();
    if only_reset_changed {
        if let (Some((shown, all, _)), Ok(mut t)) = (&overlay.reset, reset_text.single_mut()) {
            let s = all[..(*shown).min(all.len())].join("\n") + "\n[R] skip";
            if t.0 != s {
                t.0 = s;
            }
        }
        return;
    }
    for e in &old {
        commands.entity(e).despawn();
    }
    let full = |c: Color| {
        (
            OverlayRoot,
            DespawnOnExit(Screen::Match),
            GlobalZIndex(40),
            Interaction::default(),
            Blocks,
            Node {
                position_type: PositionType::Absolute,
                width: Val::Percent(100.0),
                height: Val::Percent(100.0),
                flex_direction: FlexDirection::Column,
                align_items: AlignItems::Center,
                justify_content: JustifyContent::Center,
                row_gap: Val::Px(10.0),
                ..default()
            },
            BackgroundColor(c),
        )
    };
    if let Some(p) = &overlay.handover {
        commands.spawn((Name::new("Handover"), full(colors::PANEL_SOLID))).with_children(|c| {
            c.spawn(text(format!("Pass to {p}"), 42.0, colors::GOLD));
            c.spawn(text("The board is hidden so nobody sees the other player's choices.", 16.0, colors::DIM));
            c.spawn(button(format!("I am {p} - show the board  [Enter]"), Act::HandoverReady));
        });
        return;
    }
    if let Some(r) = &overlay.result {
        commands.spawn((Name::new("Result"), full(Color::srgba(0.0, 0.0, 0.0, 0.75)))).with_children(|c| {
            c.spawn(text(r.clone(), 36.0, colors::GOLD));
            c.spawn(Node { flex_direction: FlexDirection::Row, ..default() }).with_children(|b| {
                b.spawn(button("Play again", Act::PlayAgain));
                b.spawn(button("Choose another level", Act::ToLevels));
                b.spawn(button("Main menu", Act::ToMenu));
            });
        });
        return;
    }
    if overlay.help {
        commands.spawn((Name::new("Help"), full(Color::srgba(0.0, 0.0, 0.0, 0.8)))).with_children(|c| {
            c.spawn(text(HELP, 16.0, colors::TEXT));
            c.spawn(button("Close  [Esc]", Act::Help));
        });
        return;
    }
    if let Some((shown, all, _)) = &overlay.reset {
        commands
            .spawn((
                Name::new("Reset steps"),
                OverlayRoot,
                DespawnOnExit(Screen::Match),
                GlobalZIndex(30),
                panel(Node {
                    position_type: PositionType::Absolute,
                    left: Val::Px(60.0),
                    top: Val::Px(70.0),
                    max_width: Val::Px(560.0),
                    padding: UiRect::all(Val::Px(10.0)),
                    flex_direction: FlexDirection::Column,
                    ..default()
                }),
            ))
            .with_children(|c| {
                c.spawn((ResetText, text(all[..(*shown).min(all.len())].join("\n") + "\n[R] skip", 14.0, colors::TEXT)));
            });
    }
}

/// A broken level edit is shown until a good one replaces it.
fn show_reload_error(watch: Option<Res<super::reload::LevelWatch>>, mut text: Query<&mut Text, With<ReloadErrorText>>) {
    const MAX_ERROR_LINES: usize = 3;
    let Ok(mut t) = text.single_mut() else { return };
    let s = watch
        .and_then(|w| w.error.clone())
        .map(|e| {
            let lines: Vec<&str> = e.lines().collect();
            let more =
                if lines.len() > MAX_ERROR_LINES { format!("\n...and {} more (see the terminal)", lines.len() - MAX_ERROR_LINES) } else { String::new() };
            format!("Level edit not applied (the previous version keeps playing):\n{}{more}", lines[..lines.len().min(MAX_ERROR_LINES)].join("\n"))
        })
        .unwrap_or_default();
    if t.0 != s {
        t.0 = s;
    }
}
