//! The in-game rules reference: every rule id the game shows (a greyed entry's tooltip, a
//! refusal, the log) opens to a short explanation in our own words (`assets/rules/reference/`).
//! F2 or the bar's Rules button opens it at the id shown last; its page lists the other rules of
//! the family and the ids shown recently, each a button; Up / Down step through every id, Esc
//! closes.

use super::{HudSystems, MatchAct, Tip};
use crate::window::board::Overlay;
use crate::window::theme::prelude::*;
use bevy::prelude::*;
use doo_rules::reference::Reference;
use std::collections::VecDeque;

pub(super) fn plugin(app: &mut App) {
    let (book, error) = match Reference::load(std::path::Path::new("assets/rules/reference")) {
        Ok(b) => (b, None),
        Err(e) => {
            warn!("rules reference not read: {e}");
            (Reference::default(), Some(e))
        }
    };
    app.insert_resource(RulesRef { book, error, recent: VecDeque::new() })
        .add_systems(Update, (note_shown_ids, open_reference, step_reference, show_reference).chain().in_set(HudSystems::Draw));
}

/// Rule ids remembered as "recently shown".
const RECENT: usize = 10;

/// The reference and the rule ids shown lately (newest first).
#[derive(Resource, Debug, Default)]
pub struct RulesRef {
    pub book: Reference,
    /// Why the reference could not be read (shown in the overlay).
    pub error: Option<String>,
    pub recent: VecDeque<String>,
}

#[derive(Component)]
struct ReferenceRoot;

/// Remembers the rule ids in what the player is shown: the tooltip line (a greyed entry's rule, a
/// refusal) and the newest lines of the log.
fn note_shown_ids(
    tips: Query<&Text, (Changed<Text>, Or<(With<super::action_bar::TipText>, With<super::log::LogText>)>)>,
    hovered: Query<(&Interaction, &Tip), (Changed<Interaction>, With<super::action_bar::BarEntry>)>,
    mut r: ResMut<RulesRef>,
) {
    let mut seen: Vec<String> = Vec::new();
    for t in &tips {
        // The log's newest lines are at its end.
        let tail: String = t.0.lines().rev().take(6).collect::<Vec<_>>().join(" ");
        seen.extend(doo_rules::reference::ids_in(&tail));
    }
    for (i, tip) in &hovered {
        if *i != Interaction::None {
            seen.extend(doo_rules::reference::ids_in(&tip.0));
        }
    }
    // Only a new id changes the list (the overlay is rebuilt when it changes).
    if seen.is_empty() || seen.iter().all(|id| r.recent.contains(id)) && r.recent.front() == seen.first() {
        return;
    }
    for id in seen.into_iter().rev() {
        r.recent.retain(|x| x != &id);
        r.recent.push_front(id);
    }
    r.recent.truncate(RECENT);
}

/// Opens at the id asked for, else the one shown last, else the rule of the last refusal or of
/// the first greyed entry of the bar, else the first rule of the turn.
fn open_reference(
    mut acts: MessageReader<MatchAct>,
    r: Res<RulesRef>,
    view: Res<crate::game::intent::PlayerView>,
    bar: Res<super::action_bar::BarState>,
    mut overlay: ResMut<Overlay>,
) {
    for a in acts.read() {
        if let MatchAct::Rules(id) = a {
            let greyed = bar.slots.iter().filter_map(|&i| view.choices.get(i)).find_map(|c| c.refusal.as_ref().map(|v| v.rule.clone()));
            let at = id
                .clone()
                .or_else(|| r.recent.front().cloned())
                .or_else(|| view.feedback.as_ref().map(|v| v.rule.clone()))
                .or(greyed)
                .or_else(|| Some("R-TURN-1".to_string()));
            overlay.rules = if overlay.rules.is_some() && id.is_none() { None } else { at };
        }
    }
}

/// Up / Down: the previous or next rule id; Esc closes (handled with the other overlays).
fn step_reference(keys: Res<ButtonInput<KeyCode>>, r: Res<RulesRef>, mut overlay: ResMut<Overlay>) {
    let Some(at) = overlay.rules.clone() else { return };
    let ids = r.book.ids();
    let k = ids.iter().position(|i| *i == at);
    let step = |d: isize| k.map(|k| ids[(k as isize + d).rem_euclid(ids.len() as isize) as usize].to_string());
    if keys.just_pressed(KeyCode::ArrowDown) {
        overlay.rules = step(1).or(overlay.rules.clone());
    } else if keys.just_pressed(KeyCode::ArrowUp) {
        overlay.rules = step(-1).or(overlay.rules.clone());
    }
}

fn show_reference(mut commands: Commands, overlay: Res<Overlay>, r: Res<RulesRef>, old: Query<Entity, With<ReferenceRoot>>) {
    if !overlay.is_changed() && !r.is_changed() {
        return;
    }
    let want = overlay.rules.clone();
    for e in &old {
        commands.entity(e).despawn();
    }
    let Some(id) = want else { return };
    let entry = r.book.get(&id);
    commands.spawn((Name::new("Rules reference"), ReferenceRoot, GlobalZIndex(45), super::overlays::full_screen(palette::PANEL_SOLID))).with_children(|c| {
        c.spawn(text("Rules reference", 15.0, palette::DIM));
        match entry {
            Some(e) => {
                c.spawn(text(format!("{id}  {}", e.title), 24.0, palette::GOLD));
                c.spawn((text(e.text.clone(), 17.0, palette::TEXT), Node { max_width: Val::Px(760.0), ..default() }));
            }
            None => {
                c.spawn(text(id.clone(), 24.0, palette::GOLD));
                let why = match &r.error {
                    Some(e) => format!("The reference could not be read: {e}"),
                    None => "This id has no entry in the reference (assets/rules/reference/).".to_string(),
                };
                c.spawn((text(why, 16.0, palette::BAD), Node { max_width: Val::Px(760.0), ..default() }));
            }
        }
        let row = |c: &mut ChildSpawnerCommands, title: &str, ids: Vec<String>| {
            if ids.is_empty() {
                return;
            }
            c.spawn(text(title.to_string(), 13.0, palette::DIM));
            c.spawn(Node {
                flex_direction: FlexDirection::Row,
                flex_wrap: FlexWrap::Wrap,
                justify_content: JustifyContent::Center,
                max_width: Val::Px(900.0),
                ..default()
            })
            .with_children(|b| {
                for i in ids {
                    let tip = r.book.get(&i).map_or_else(|| i.clone(), |e| format!("{i}: {}", e.title));
                    let mut n = b.spawn((bar_button(i.clone(), MatchAct::Rules(Some(i.clone())), true), Tip(tip)));
                    if i == id {
                        n.insert(Selected);
                    }
                }
            });
        };
        let fam: Vec<String> = r.book.family(&id).into_iter().map(str::to_string).collect();
        row(c, &format!("The {} rules", doo_rules::reference::family_of(&id)), fam);
        row(c, "Shown to you lately", r.recent.iter().filter(|i| **i != id).cloned().collect());
        c.spawn(text("Up / Down: the previous or next rule.   F2 or Esc: close.", 13.0, palette::DIM));
        c.spawn(button("Close  [Esc]", MatchAct::Rules(None)));
    });
}
