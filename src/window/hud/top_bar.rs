//! The top bar: turn, round, phase, who is up (and which player), and who acts next by AP; each
//! line in the longest form that fits its measured width (any window, any UI scale), never cut.

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
/// The column holding both lines (its width is what they may fill).
#[derive(Component)]
pub(super) struct TopColumn;

/// Font sizes of the two lines.
pub(super) const TOP_FONT: f32 = 16.0;
pub(super) const ORDER_FONT: f32 = 14.0;
/// Advance of one character of the UI font (Fira Mono), in ems.
const CHAR_EM: f32 = 0.6;

/// The first of `variants` (longest and clearest first) that fits `room` characters; the last
/// one shortened with an ellipsis if none does.
pub fn fit_line(variants: &[String], room: usize) -> String {
    if let Some(v) = variants.iter().find(|v| v.chars().count() <= room) {
        return v.clone();
    }
    let last = variants.last().cloned().unwrap_or_default();
    let mut out: String = last.chars().take(room.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// `fit_chips`, and when not even the first chip fits, the short forms (`short_head` and
/// `short`, one per chip).
pub fn fit_chips_or_short(head: &str, chips: &[String], short_head: &str, short: &[String], room: usize) -> String {
    let long = fit_chips(head, chips, room);
    if chips.is_empty() || chips.first().is_some_and(|c| long.contains(c.as_str())) {
        return long;
    }
    fit_chips(short_head, short, room)
}

/// A chip's short form: all but its last word ("Lunk 5 AP" -> "Lunk 5").
fn shorter(c: &str) -> String {
    c.rsplit_once(' ').map_or(c.to_string(), |(a, _)| a.to_string())
}

/// `head` then as many `chips` as fit `room` characters, the rest counted ("+3 more").
pub fn fit_chips(head: &str, chips: &[String], room: usize) -> String {
    let mut shown = head.to_string();
    for (k, c) in chips.iter().enumerate() {
        let sep = if k == 0 { "" } else { " | " };
        let rest = chips.len() - k - 1;
        let tail = if rest > 0 { format!(" | +{rest} more").chars().count() } else { 0 };
        if shown.chars().count() + sep.len() + c.chars().count() + tail > room {
            shown += &format!("{sep}+{} more", chips.len() - k);
            break;
        }
        shown += sep;
        shown += c;
    }
    if shown.chars().count() > room { fit_line(&[shown], room) } else { shown }
}

/// Turn, round, phase, whose opportunity and player, and who acts next by AP.
#[allow(clippy::too_many_arguments)]
fn refresh_top(
    view: Res<PlayerView>,
    state: Option<Res<MatchState>>,
    seats: Res<Seats>,
    status: Res<FlowStatus>,
    log: Res<MatchLog>,
    column: Query<&ComputedNode, With<TopColumn>>,
    mut top: Query<&mut Text, (With<TopText>, Without<OrderText>)>,
    mut order: Query<&mut Text, (With<OrderText>, Without<TopText>)>,
    mut last: Local<(usize, bool, u32)>,
) {
    // The room the two lines have, in characters of their fonts (the UI font is monospaced):
    // the lines are shortened to fit it, at any window size and UI scale, never cut.
    let width = column.single().map_or(700.0, |n| n.size().x * n.inverse_scale_factor());
    let room = |font: f32| ((width / (CHAR_EM * font)).floor() as usize).max(8);
    let stamp = (log.len(), view.is_changed() || seats.is_changed(), width.round() as u32);
    if stamp.0 == last.0 && !stamp.1 && stamp.2 == last.2 {
        return;
    }
    *last = (stamp.0, false, stamp.2);
    let (top_room, order_room) = (room(TOP_FONT), room(ORDER_FONT));
    let Some(state) = state else { return };
    let m = &state.0;
    if let Some(x) = m.explore.as_deref().filter(|_| doo_rules::rules::explore::exploring(m)) {
        // Exploration Mode (R-EXP-2, R-EXP-3): the minute, who gives orders, what he has left;
        // the second line is the party's inventory (R-EXP-15).
        let clock = format!("Exploration | turn {} | minute {}", x.turn, x.minute);
        let mut variants = vec![clock.clone()];
        if let Some(a) = view.decider.as_deref().and_then(|d| m.index(d)) {
            let f = &m.fighters[a];
            let who = seats.player_of_figure(&f.id, &f.side).map_or_else(|| format!("{} (AI)", f.side), |p| format!("{p} ({})", f.side));
            let left = match x.acted[a] {
                doo_rules::rules::explore::Acted::No => format!("{} spaces or one task", x.book.move_spaces),
                doo_rules::rules::explore::Acted::Moving(u) => format!("{} spaces left", x.book.move_spaces.saturating_sub(u)),
                doo_rules::rules::explore::Acted::Done => "done this turn".into(),
            };
            variants = vec![
                format!("{clock} - {who}: {} ({left}); click a hero to order him, Enter ends the turn", f.name),
                format!("{clock} - {who}: {} ({left})", f.name),
                format!("Exploration | minute {} - {}: {left}", x.minute, f.name),
                format!("Turn {} min {} - {}: {left}", x.turn, x.minute, f.name),
                format!("{}: {left}", f.name),
            ];
        }
        let s = fit_line(&variants, top_room);
        if let Ok(mut t) = top.single_mut() {
            t.0 = s;
        }
        let party: Vec<String> = (0..m.fighters.len())
            .filter(|&i| x.is_explorer(m, i))
            .map(|i| {
                let f = &m.fighters[i];
                let items: Vec<String> = f.loadout.items.iter().map(|it| doo_rules::rules::explore::item_name(m, x, it)).collect();
                format!("{} {}/{} HP: {}", f.name, f.hp, f.max_hp, if items.is_empty() { "-".to_string() } else { items.join(", ") })
            })
            .collect();
        if let Ok(mut t) = order.single_mut() {
            let hp: Vec<String> = (0..m.fighters.len())
                .filter(|&i| x.is_explorer(m, i))
                .map(|i| format!("{} {}/{}", m.fighters[i].name, m.fighters[i].hp, m.fighters[i].max_hp))
                .collect();
            t.0 = fit_chips_or_short("Party: ", &party, "HP: ", &hp, order_room);
        }
        return;
    }
    let phase = match m.clock.phase {
        doo_rules::rules::Phase::Action => "action phase",
        _ => "reset",
    };
    let (clock, short) = if m.a4.is_some() {
        (format!("Round {} | ruleset {}", m.clock.turn, m.a4.as_ref().map_or("", |x| x.book.name.as_str())), format!("Round {}", m.clock.turn))
    } else {
        (format!("Turn {} | Round {} | {phase}", m.clock.turn, m.clock.round), format!("T{} R{}", m.clock.turn, m.clock.round))
    };
    let up = m.pending.as_ref().filter(|p| p.window.is_some()).map(|p| p.defender).or(m.clock.current);
    let variants = if let Some(a) = up {
        let f = &m.fighters[a];
        let who = seats.player_of_figure(&f.id, &f.side).map_or_else(|| format!("{} (AI)", f.side), |p| format!("{p} ({})", f.side));
        let player = seats.player_of_figure(&f.id, &f.side).map_or("AI", |p| p.as_str());
        let what = if m.pending.as_ref().is_some_and(|p| p.window.is_some()) { "reacts" } else { "acts" };
        vec![
            format!("{clock} - {who}: {} {what}", f.name),
            format!("{short} - {player}: {} {what}", f.name),
            format!("{short} - {} {what}", f.name),
            format!("{} {what}", f.name),
        ]
    } else if status.over {
        vec![format!("{clock} - the crisis is over"), format!("{short} - the crisis is over"), "The crisis is over".into()]
    } else {
        vec![clock, short]
    };
    if let Ok(mut t) = top.single_mut() {
        t.0 = fit_line(&variants, top_room);
    }
    // R-EXP-25: a crawl's crisis with no foe in it says why it lasts one action phase.
    let one_phase = doo_rules::rules::explore::one_phase_crisis(m);
    let head = |order: &str| -> String {
        if !one_phase {
            return order.to_string();
        }
        let why = fit_line(&["No foe: one action phase, then exploring (R-EXP-25)".to_string(), "One phase only (R-EXP-25)".to_string()], order_room);
        format!("{why} | {order}")
    };
    if m.a4.is_some() {
        // A4-5.1: the initiative order of this round; those done are marked.
        let chips: Vec<String> = doo_rules::rules::a4::round::full_order(&m)
            .into_iter()
            .map(|i| {
                let r = doo_rules::rules::a4::st(&m, i);
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
        // What fits the bar's line beside its buttons: the rest is counted.
        let shown = fit_chips(&head("Initiative: "), &chips, order_room);
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
        t.0 = if chips.is_empty() {
            fit_line(&[head("Nobody has AP left this turn")], order_room)
        } else {
            fit_chips_or_short(&head("Next by AP: "), &chips, &head("AP: "), &chips.iter().map(|c| shorter(c)).collect::<Vec<_>>(), order_room)
        };
    }
}
