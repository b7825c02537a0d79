//! The reaction prompt (reflex or response window of a human defender, with an optional
//! timeout) and the hot-seat handover (hide the board when control passes to another player).

use super::MatchAct;
use super::log::describe;
use super::{HudSystems, Tip, names};
use crate::game::components::CharacterId;
use crate::game::intent::{Intent, PlayerView, ReactionPolicy, Seats};
use crate::game::log::MatchLog;
use crate::window::board::Overlay;
use crate::window::screens::Screen;
use crate::window::settings::Settings;
use crate::window::theme::prelude::*;
use bevy::prelude::*;
use doo_rules::replay::LogEntry;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<PromptState>()
        // Every match (a new one, Continue, Load) starts with the handover in hot-seat.
        .add_systems(OnEnter(Screen::Match), |mut p: ResMut<PromptState>| p.last_player = None)
        .add_systems(Update, (handover, reaction_prompt, choice_prompt).chain().in_set(HudSystems::Prompt));
}

/// The reaction prompt on screen: for which window (log length when it opened), time left; and
/// the last human player who had control (handover between different players).
#[derive(Resource, Debug, Default)]
pub(super) struct PromptState {
    key: Option<usize>,
    left: f32,
    pub(super) last_player: Option<String>,
}

#[derive(Component)]
struct PromptRoot;

/// Hot-seat: when control passes to a different human player, hide the board until they click.
fn handover(view: Res<PlayerView>, seats: Res<Seats>, mut overlay: ResMut<Overlay>, mut prompt: ResMut<PromptState>) {
    if !view.is_changed() {
        return;
    }
    let distinct = seats.distinct();
    let Some(player) = seats.player_of(&view) else { return };
    if distinct.len() < 2 {
        prompt.last_player = Some(player.clone());
        return;
    }
    if prompt.last_player.as_ref() != Some(player) && overlay.handover.as_ref() != Some(player) {
        overlay.handover = Some(player.clone());
    }
}

/// A reflex or response window for a human defender: a prompt with each choice, its cost or
/// the rule that forbids it. Windows nobody is asked about are declined by the game
/// (`ReactionPolicy`); here only the optional timeout declines.
fn reaction_prompt(
    mut commands: Commands,
    time: Res<Time>,
    view: Res<PlayerView>,
    settings: Res<Settings>,
    policy: Res<ReactionPolicy>,
    seats: Res<Seats>,
    overlay: Res<Overlay>,
    log: Res<MatchLog>,
    chars: Query<(&CharacterId, &Name)>,
    mut prompt: ResMut<PromptState>,
    old: Query<Entity, With<PromptRoot>>,
    mut intents: MessageWriter<Intent>,
    state: Option<Res<crate::game::components::MatchState>>,
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
    if !policy.asks(&who, list) {
        return;
    }
    prompt.key = Some(key);
    prompt.left = settings.prompt_timeout_secs as f32;
    let n = names(&chars);
    let name = n.get(&who).cloned().unwrap_or(who.clone());
    let player = seats.player_of(&view).cloned().unwrap_or_default();
    let attack = log
        .entries()
        .iter()
        .rev()
        .find(|l| matches!(l, LogEntry::Event { event: doo_rules::rules::Event::AttackDeclared { .. }, .. }))
        .and_then(|l| describe(l, &n))
        .unwrap_or_default();
    // Under A4 a prompt answers a move (an attack of opportunity) or a trigger (a held strike),
    // not a declared attack: its headline names who may strike, not a stale attack line.
    let a4 = state.as_ref().is_some_and(|s| s.0.a4.is_some());
    // Issue 43: the rules name the window (an attack of opportunity, a held strike, a reactive
    // defence), not "may strike out of turn" for all three.
    let headline = state.as_ref().and_then(|s| s.0.index(&who).and_then(|i| doo_rules::rules::a4::preview::window_headline(&s.0, i)));
    let attack = match headline {
        Some(h) => h,
        None if a4 || attack.is_empty() => format!("{name} may react out of turn"),
        None => attack,
    };
    let what = match kind {
        _ if a4 => "the choice below (its odds are shown)",
        doo_rules::rules::profile::ReactionKind::Reflex => "a reflex (before the attack is rolled)",
        doo_rules::rules::profile::ReactionKind::Response => "a response (after the attack)",
    };
    let timeout = if settings.prompt_timeout_secs > 0 { format!(" Declines by itself after {} s.", settings.prompt_timeout_secs) } else { String::new() };
    commands
        .spawn((
            Name::new("Reaction prompt"),
            PromptRoot,
            DespawnOnExit(Screen::Match),
            GlobalZIndex(20),
            panel_in(
                Node {
                    position_type: PositionType::Absolute,
                    left: Val::Px(60.0),
                    top: Val::Px(70.0),
                    max_width: Val::Px(860.0),
                    padding: UiRect::all(Val::Px(12.0)),
                    flex_direction: FlexDirection::Column,
                    ..default()
                },
                palette::PANEL_SOLID,
            ),
        ))
        .with_children(|p| {
            p.spawn(text(format!("{player}: {attack}."), 18.0, palette::GOLD));
            p.spawn(text(format!("{name} may declare {what}.{timeout}"), 15.0, palette::TEXT));
            // One choice a line: a wrapped row of buttons grew past the panel's background.
            p.spawn(Node { flex_direction: FlexDirection::Column, align_items: AlignItems::Start, ..default() }).with_children(|r| {
                for (k, c) in list.iter().enumerate() {
                    let tip = match &c.refusal {
                        Some(v) => format!("{} - not now: {} - {}", c.label, v.reason, v.rule),
                        None => format!("{}: {}", c.label, c.cost),
                    };
                    let label = format!("[{}] {} | {}", k + 1, c.label, c.cost);
                    // A choice the rules refuse is dim and says why on its face (issue 43: a
                    // Foreman's Counterattack looked as offered as his Parry).
                    match &c.refusal {
                        Some(v) => r.spawn((button_off(format!("{label} - not now: {} ({})", v.reason, v.rule), MatchAct::React(k)), Tip(tip), Disabled)),
                        None => r.spawn((button(label, MatchAct::React(k)), Tip(tip))),
                    };
                }
                r.spawn((button("[N] Decline", MatchAct::Decline), Tip("Let the attack go ahead without reacting".into())));
                r.spawn((
                    button(format!("Never ask for {name}"), MatchAct::NeverAsk(who.clone())),
                    Tip("Always decline for this character (Settings keeps the list)".into()),
                ));
            });
        });
}

#[derive(Component)]
struct ChoiceRoot;

/// Issue 46: a level event's choice put to the side of the player who decides: its prompt and
/// one button an option ([1], [2], [3] press them); nothing else is taken until it is answered.
fn choice_prompt(
    mut commands: Commands,
    view: Res<PlayerView>,
    seats: Res<Seats>,
    state: Option<Res<crate::game::components::MatchState>>,
    old: Query<Entity, With<ChoiceRoot>>,
    mut shown: Local<Option<(String, String, Option<String>)>>,
) {
    let waiting = state.as_ref().and_then(|s| {
        let p = doo_rules::rules::event_choice::pending(&s.0)?;
        let mine = view.decider.as_ref().and_then(|d| s.0.index(d)).is_some_and(|i| s.0.fighters[i].side == p.side);
        mine.then(|| p.clone())
    });
    let key = waiting.as_ref().map(|p| (p.event.clone(), p.prompt.clone(), view.decider.clone()));
    if key == *shown {
        return;
    }
    *shown = key;
    for e in &old {
        commands.entity(e).despawn();
    }
    let Some(p) = waiting else { return };
    let player = seats.player_of(&view).cloned().unwrap_or_default();
    commands
        .spawn((
            Name::new("Choice prompt"),
            ChoiceRoot,
            DespawnOnExit(Screen::Match),
            // Over the reset steps' panel (30), below the menus and results (40).
            GlobalZIndex(35),
            panel_in(
                Node {
                    position_type: PositionType::Absolute,
                    left: Val::Px(120.0),
                    top: Val::Px(150.0),
                    max_width: Val::Px(700.0),
                    padding: UiRect::all(Val::Px(12.0)),
                    flex_direction: FlexDirection::Column,
                    row_gap: Val::Px(6.0),
                    ..default()
                },
                palette::PANEL_SOLID,
            ),
        ))
        .with_children(|c| {
            let who = if player.is_empty() { String::new() } else { format!("{player}: ") };
            c.spawn(text(format!("{who}{}", p.prompt), 18.0, palette::GOLD));
            c.spawn(text(format!("Side {} chooses (level event '{}'); nothing else happens until it does.", p.side, p.event), 14.0, palette::DIM));
            c.spawn(Node { flex_direction: FlexDirection::Column, align_items: AlignItems::Start, ..default() }).with_children(|r| {
                for (k, o) in p.options.iter().enumerate() {
                    r.spawn((button(format!("[{}] {}", k + 1, o.label), MatchAct::Answer(k as u32)), Tip(format!("Choose \"{}\"", o.label))));
                }
            });
        });
}
