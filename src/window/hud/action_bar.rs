//! The action bar (one button per entry, its key and cost; greyed entries carry the rule that
//! forbids them) and the tooltip line under the board (hovered button, move preview, the last
//! refusal, or what to do).

use super::{HudSystems, Tip};
use crate::game::intent::{PlayerView, Seats};
use crate::rules::preview::{Aim, MoveKind};
use crate::window::board::HoveredSpace;
use crate::window::ui::{Act, Disabled, bar_button, button, colors, text};
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, (rebuild_bar, show_tooltip).in_set(HudSystems::Draw));
}

#[derive(Component)]
pub(super) struct BarRow;
#[derive(Component)]
struct PassLabel;
#[derive(Component)]
pub(super) struct TipText;

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
fn rebuild_bar(
    mut commands: Commands,
    view: Res<PlayerView>,
    bar: Query<Entity, With<BarRow>>,
    seats: Res<Seats>,
    spectating: Option<Res<crate::game::intent::Spectating>>,
) {
    if !view.is_changed() {
        return;
    }
    let Ok(row) = bar.single() else { return };
    commands.entity(row).despawn_children();
    commands.entity(row).with_children(|p| {
        if view.decider.is_none() {
            let s = if spectating.is_some() {
                "Watching a replay: Space plays or pauses, comma and period step, [ and ] jump a turn"
            } else if seats.players.is_empty() {
                "Watching the AI (Space: skip the pace)"
            } else {
                "Waiting for the other side..."
            };
            p.spawn(text(s, 15.0, colors::DIM));
            p.spawn((button("Menu", Act::MatchMenu), Tip("Save as, load, watch the replay, leave (the match is autosaved)".into())));
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
                b.insert(crate::window::ui::Selected);
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
        if let Some(u) = &view.undo {
            let (tip, ok) = match u {
                Ok(u) => (
                    format!(
                        "Undo: take back {}{}. Moves, posture changes and free steps can be taken back while the opportunity lasts; nothing that threw dice.",
                        u.label,
                        crate::game::undo::gives_back(u)
                    ),
                    true,
                ),
                Err(v) => (format!("Undo - not now: {} - {}", v.reason, v.rule), false),
            };
            let mut b = p.spawn((bar_button("[Ctrl+Z] Undo", Act::Undo, ok), Tip(tip)));
            if !ok {
                b.insert(Disabled);
            }
        }
        p.spawn((bar_button("[F1] Help", Act::Help, true), Tip("Controls and shortcuts".into())));
        p.spawn((bar_button("[Esc] Menu", Act::MatchMenu, true), Tip("Save as, load, watch the replay, leave (the match is autosaved)".into())));
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
            MoveKind::Walk => d.label.clone(),
        };
        (format!("{s} - click to move"), colors::GOOD)
    } else if let Some(v) = &view.feedback {
        (format!("{} - {}", v.reason, v.rule), colors::BAD)
    } else if let Some(n) = &view.notice {
        (n.clone(), colors::GOOD)
    } else if let Some(a) = view.aiming() {
        (format!("{}: click a highlighted target (Esc or right click cancels)", a.label), colors::GOLD)
    } else if view.decider.is_some() && !view.destinations.values().any(|d| d.kind == MoveKind::Walk) && view.choices.iter().any(|c| c.row == "end_turn") {
        ("Exploration: this hero has done his part this minute. Click another hero, or End the turn (Enter).".into(), colors::DIM)
    } else if view.choices.iter().any(|c| c.row == "end_turn") {
        (
            "Exploration: click a lit space to walk (the group follows its leader), a door next to him to open it, or choose an order. Enter ends the turn."
                .into(),
            colors::DIM,
        )
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
