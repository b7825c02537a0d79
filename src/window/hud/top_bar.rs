//! The top bar: turn, round, phase, who is up (and which player), and who acts next by AP.

use super::HudSystems;
use crate::game::components::MatchState;
use crate::game::flow::FlowStatus;
use crate::game::intent::{PlayerView, Seats};
use crate::game::log::MatchLog;
use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, refresh_top.in_set(HudSystems::Draw));
}

#[derive(Component)]
pub(super) struct TopText;
#[derive(Component)]
pub(super) struct OrderText;

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
    if let Some(x) = m.explore.as_deref().filter(|_| crate::rules::explore::exploring(m)) {
        // Exploration Mode (R-EXP-2, R-EXP-3): the minute, who gives orders, what he has left;
        // the second line is the party's inventory (R-EXP-15).
        let mut s = format!("Exploration | turn {} | minute {}", x.turn, x.minute);
        if let Some(a) = view.decider.as_deref().and_then(|d| m.index(d)) {
            let f = &m.fighters[a];
            let who = seats.player_of_figure(&f.id, &f.side).map_or_else(|| format!("{} (AI)", f.side), |p| format!("{p} ({})", f.side));
            let left = match x.acted[a] {
                crate::rules::explore::Acted::No => format!("{} spaces or one task", x.book.move_spaces),
                crate::rules::explore::Acted::Moving(u) => format!("{} spaces left", x.book.move_spaces.saturating_sub(u)),
                crate::rules::explore::Acted::Done => "done this turn".into(),
            };
            s += &format!(" - {who}: {} ({left}); click a hero to order him, Enter ends the turn", f.name);
        }
        if let Ok(mut t) = top.single_mut() {
            t.0 = s;
        }
        let party: Vec<String> = (0..m.fighters.len())
            .filter(|&i| x.is_explorer(m, i))
            .map(|i| {
                let f = &m.fighters[i];
                let items: Vec<String> = f.loadout.items.iter().map(|it| crate::rules::explore::item_name(m, x, it)).collect();
                format!("{} {}/{} HP: {}", f.name, f.hp, f.max_hp, if items.is_empty() { "-".to_string() } else { items.join(", ") })
            })
            .collect();
        if let Ok(mut t) = order.single_mut() {
            t.0 = format!("Party: {}", party.join("  |  "));
        }
        return;
    }
    let phase = match m.clock.phase {
        crate::rules::Phase::Action => "action phase",
        _ => "reset",
    };
    let mut s = if m.a4.is_some() {
        format!("Round {} | ruleset {}", m.clock.turn, m.a4.as_ref().map_or("", |x| x.book.name.as_str()))
    } else {
        format!("Turn {} | Round {} | {phase}", m.clock.turn, m.clock.round)
    };
    let up = m.pending.as_ref().filter(|p| p.window.is_some()).map(|p| p.defender).or(m.clock.current);
    if let Some(a) = up {
        let f = &m.fighters[a];
        let who = seats.player_of_figure(&f.id, &f.side).map_or_else(|| format!("{} (AI)", f.side), |p| format!("{p} ({})", f.side));
        let what = if m.pending.as_ref().is_some_and(|p| p.window.is_some()) { "reacts" } else { "acts" };
        s += &format!(" - {who}: {} {what}", f.name);
    } else if status.over {
        s += " - the crisis is over";
    }
    if let Ok(mut t) = top.single_mut() {
        t.0 = s;
    }
    if m.a4.is_some() {
        // A4-5.1: the initiative order of this round; those done are marked.
        let chips: Vec<String> = crate::rules::a4::round::full_order(&m)
            .into_iter()
            .map(|i| {
                let r = crate::rules::a4::st(&m, i);
                let mark = if Some(i) == m.clock.current { ">" } else { "" };
                let state = if r.surprised {
                    " (surprised)"
                } else if r.hold.is_some() {
                    " (holding)"
                } else if r.done {
                    " (done)"
                } else if r.delayed {
                    " (delayed)"
                } else {
                    ""
                };
                format!("{mark}{} {}{state}", m.fighters[i].name, r.initiative)
            })
            .collect();
        // What fits the bar's line beside its buttons (about 80 characters): the rest is counted.
        let mut shown = String::from("Initiative: ");
        for (k, c) in chips.iter().enumerate() {
            let sep = if k == 0 { "" } else { "  |  " };
            let room_for_more = if k + 1 < chips.len() { 14 } else { 0 };
            if shown.chars().count() + sep.len() + c.chars().count() + room_for_more > 84 {
                shown += &format!("  |  +{} more", chips.len() - k);
                break;
            }
            shown += sep;
            shown += c;
        }
        if let Ok(mut t) = order.single_mut() {
            if t.0 != shown {
                t.0 = shown;
            }
        }
        return;
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
