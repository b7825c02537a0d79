//! The status panel: level, turn, phase, round, whose opportunity, each character's AP and
//! free steps, and the latest log lines.

use crate::game::components::{ActionPoints, CharacterId, FreeSteps, MatchClock, Vitals};
use crate::game::flow::CrisisPhase;
use crate::game::log::MatchLog;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, spawn_panel).add_systems(Update, refresh_panel.in_set(crate::game::MatchSystems::Present));
}

#[derive(Component)]
struct StatusText;

fn spawn_panel(mut commands: Commands) {
    commands
        .spawn((
            Name::new("Status panel"),
            Node { position_type: PositionType::Absolute, left: Val::Px(12.0), top: Val::Px(12.0), width: Val::Px(330.0), padding: UiRect::all(Val::Px(10.0)), ..default() },
            BackgroundColor(Color::srgba(0.0, 0.0, 0.0, 0.65)),
        ))
        .with_children(|p| {
            p.spawn((StatusText, Text::new("…"), TextFont { font_size: FontSize::Px(15.0), ..default() }, TextColor(Color::srgb(0.92, 0.90, 0.85))));
        });
}

fn refresh_panel(
    level: Option<Res<super::CurrentLevel>>,
    clock: Res<MatchClock>,
    phase: Res<State<CrisisPhase>>,
    log: Res<MatchLog>,
    chars: Query<(&CharacterId, &Name, &ActionPoints, &FreeSteps, &Vitals)>,
    mut text: Query<&mut Text, With<StatusText>>,
) {
    let Ok(mut t) = text.single_mut() else { return };
    let mut s = String::new();
    if let Some(l) = level {
        s += &format!("{}\n", l.name);
    }
    s += &format!("Turn {} · {:?} · round {}\n", clock.turn, phase.get(), clock.round);
    let mut rows: Vec<_> = chars.iter().collect();
    rows.sort_by_key(|r| r.0.order);
    if let Some(i) = clock.current {
        if let Some(r) = rows.get(i) {
            s += &format!("Opportunity: {}\n", r.1);
        }
    }
    s += "\n";
    for (_, name, ap, fs, v) in rows {
        let steps = if fs.available { format!("free steps {}", fs.allowance) } else { "free steps used".into() };
        s += &format!("{name}: AP {}/{} · {steps} · HP {}/{}\n", ap.current, ap.start, v.hp, v.max_hp);
    }
    s += "\n";
    for l in log.lines.iter().rev().take(8).collect::<Vec<_>>().into_iter().rev() {
        let kind = l["event"].as_str().or(l["result"].as_str()).unwrap_or("");
        let who = l["actor"].as_str().unwrap_or("");
        s += &format!("{kind} {who}\n");
    }
    if t.0 != s {
        t.0 = s;
    }
}
