//! The status panel: level, turn, phase, round, whose opportunity, each character's AP and
//! free steps, and the latest log lines.

use crate::game::components::{ActionPoints, CharacterId, FreeSteps, MatchClock, Vitals};
use crate::game::flow::CrisisPhase;
use crate::game::log::MatchLog;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, spawn_panel).add_systems(Update, (refresh_panel, show_reload_error).in_set(crate::game::MatchSystems::Present));
}

#[derive(Component)]
struct StatusText;

#[derive(Component)]
struct ReloadErrorText;

/// Errors of a broken level edit shown on screen; the rest go to the terminal.
const MAX_ERROR_LINES: usize = 3;

fn spawn_panel(mut commands: Commands) {
    commands
        .spawn((
            Name::new("Status panel"),
            Node {
                position_type: PositionType::Absolute,
                left: Val::Px(12.0),
                top: Val::Px(12.0),
                width: Val::Px(super::board::PANEL_PX - 24.0),
                padding: UiRect::all(Val::Px(10.0)),
                flex_direction: FlexDirection::Column,
                ..default()
            },
            BackgroundColor(Color::srgba(0.0, 0.0, 0.0, 0.65)),
        ))
        .with_children(|p| {
            p.spawn((StatusText, Text::new("…"), TextFont { font_size: FontSize::Px(15.0), ..default() }, TextColor(Color::srgb(0.92, 0.90, 0.85))));
            p.spawn((ReloadErrorText, Text::new(""), TextFont { font_size: FontSize::Px(14.0), ..default() }, TextColor(Color::srgb(1.0, 0.45, 0.40))));
        });
}

/// A broken level edit is shown until a good one replaces it.
fn show_reload_error(watch: Option<Res<super::reload::LevelWatch>>, mut text: Query<&mut Text, With<ReloadErrorText>>) {
    let Ok(mut t) = text.single_mut() else { return };
    let s = watch
        .and_then(|w| w.error.clone())
        .map(|e| {
            let lines: Vec<&str> = e.lines().collect();
            let more =
                if lines.len() > MAX_ERROR_LINES { format!("\n...and {} more (see the terminal)", lines.len() - MAX_ERROR_LINES) } else { String::new() };
            format!("\nLevel edit not applied (the previous version keeps playing):\n{}{more}", lines[..lines.len().min(MAX_ERROR_LINES)].join("\n"))
        })
        .unwrap_or_default();
    if t.0 != s {
        t.0 = s;
    }
}

fn refresh_panel(
    level: Option<Res<super::CurrentLevel>>,
    clock: Res<MatchClock>,
    phase: Res<State<CrisisPhase>>,
    log: Res<MatchLog>,
    board: Option<Res<crate::game::components::MatchBoard>>,
    floor: Option<Res<super::board::ShownFloor>>,
    chars: Query<(&CharacterId, &Name, &ActionPoints, &FreeSteps, &Vitals)>,
    mut text: Query<&mut Text, With<StatusText>>,
) {
    let Ok(mut t) = text.single_mut() else { return };
    let mut s = String::new();
    if let Some(l) = level {
        s += &format!("{}\n", l.name);
    }
    s += &format!("Turn {}, {:?} phase, round {}\n", clock.turn, phase.get(), clock.round);
    if let (Some(b), Some(f)) = (board, floor) {
        if b.floors.len() > 1 {
            s += &format!("Floor {} of {} (PageUp / PageDown)\n", f.0 + 1, b.floors.len());
        }
    }
    let mut rows: Vec<_> = chars.iter().collect();
    rows.sort_by_key(|r| r.0.order);
    if let Some(i) = clock.current {
        if let Some(r) = rows.get(i) {
            s += &format!("Opportunity: {}\n", r.1);
        }
    }
    s += "\n";
    for (_, name, ap, fs, v) in rows {
        let steps = if fs.available { format!("{} free steps", fs.allowance) } else { "no free steps".into() };
        s += &format!("{name}: AP {} of {} | {steps} | HP {}/{}\n", ap.current, ap.start, v.hp, v.max_hp);
    }
    s += "\n";
    let described: Vec<String> = log.lines.iter().filter_map(describe).collect();
    for line in described.iter().rev().take(10).collect::<Vec<_>>().into_iter().rev() {
        s += line;
        s += "\n";
    }
    if t.0 != s {
        t.0 = s;
    }
}

/// One readable log line for the events a player cares about (the full log is the JSON).
fn describe(l: &serde_json::Value) -> Option<String> {
    let who = l["actor"].as_str().unwrap_or("?");
    Some(match (l["type"].as_str()?, l["event"].as_str().unwrap_or("")) {
        ("command", _) if l["result"] == "rejected" => format!("Refused: {} ({})", l["reason"].as_str()?, l["rule"].as_str()?),
        ("event", "dice") => {
            let faces: Vec<String> = l["dice"]
                .as_array()?
                .iter()
                .map(|d| d["faces"].as_array().map(|f| f.iter().map(|x| x.to_string()).collect::<Vec<_>>().join("+")).unwrap_or_default())
                .collect();
            let adj = l["adjustment"].as_i64().unwrap_or(0);
            let adj = if adj == 0 { String::new() } else { format!(" {adj:+}") };
            format!("{who} {}: d{} [{}]{adj} = {}", l["purpose"].as_str()?.replace('_', " "), l["rank"], faces.join(", "), l["total"])
        }
        ("event", "ap_set") => format!("{who} has {} AP", l["ap"]),
        ("event", "opportunity") => format!("{who}'s opportunity ({} AP)", l["ap"]),
        ("event", "round") => format!("Round {}", l["round"]),
        ("event", "phase") => format!("Turn {}: {}", l["turn"], l["phase"].as_str()?.replace('_', " ")),
        ("event", "moved") => format!("{who} {} to {}", l["movement"].as_str()?.replace('_', " "), l["to"]),
        ("event", "attack_resolved") => format!(
            "{who} vs {}: {} against {} - {}, {} damage",
            l["target"].as_str()?,
            l["attack_total"],
            l["defense_cr"],
            l["outcome"].as_str()?.replace('_', " "),
            l["damage"]
        ),
        ("event", "phase_ended") => "The action phase ends".to_string(),
        _ => return None,
    })
}
