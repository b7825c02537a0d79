//! The event and figure forms over the editor's map (issue 46). The event form: the open event's id (renamed wherever it
//! is named), its trigger with every field, whether it repeats and which event it waits for,
//! then each action with every field, moved up or removed, and a row to add one. Each row is
//! stepped through what the level holds (`doo_rules::level_edit::event_form`): `<` and `>`
//! for a choice, `-` and `+` for a number, the value itself for a switch, "= selection" for an
//! area (the map's selection), the text to type a story line; a value naming what the level
//! lacks drawn in the problems' red; last, the level's variables ("vars": each one's name typed,
//! its starting value - and +, remove for an unused one, "+ variable"). The figure form: every field
//! of the selected figure (`doo_rules::level_edit::figure_form`), with the same rows. Esc
//! closes either.

use super::acts::FORM_PAGE;
use super::panels::{BOTTOM_PX, LEFT_PX, TOP_PX};
use super::state::{EditAct, Editor, EditorSystems, Field};
use crate::window::screens::Screen;
use crate::window::theme::prelude::*;
use bevy::prelude::*;
use doo_rules::level_edit::{Row, RowKind};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, draw_forms.in_set(EditorSystems::Draw));
}

/// A part of a form (drawn again when the form or the level changes).
#[derive(Component)]
struct FormRoot;

/// The open form, drawn again whenever what it shows changes (or the window's height).
fn draw_forms(
    mut commands: Commands,
    editor: Option<ResMut<Editor>>,
    windows: Query<&Window>,
    ui: Res<UiScale>,
    roots: Query<Entity, With<FormRoot>>,
    mut shown: Local<String>,
) {
    let Some(mut ed) = editor else { return };
    let h = windows.single().map_or(720.0, |w| w.height() / ui.0.max(0.1));
    // Lines of about 27 px (a typed text's row, two) between the top bar and the problems
    // panel, less the heading, the note (three lines since the vars part) and the two scroll
    // buttons: counted at 34 px with 200 px kept, so "more" stays above the problems panel
    // (it fell below it once the vars part came: the walks found it seen, never pressable).
    let room = (((h - TOP_PX - BOTTOM_PX - 200.0) / 34.0).floor() as usize).max(4);
    let key = format!("{:?}|{:?}|{}|{:?}|{room}", ed.event_open, ed.figure_open, ed.generation, ed.typing.is_some());
    if *shown == key {
        return;
    }
    *shown = key;
    for e in &roots {
        commands.entity(e).despawn();
    }
    let ed = ed.bypass_change_detection();
    event_form(&mut commands, ed, room);
    figure_form(&mut commands, ed, room);
}

/// The form's width in logical pixels (it lies over the map's left part).
const FORM_PX: f32 = 460.0;

fn button(p: &mut ChildSpawnerCommands, label: impl Into<String>, act: EditAct, name: &str) {
    p.spawn(bar_button(label, act, true)).insert(ActionName(name.into()));
}

/// A row's value button: edged in the problems' red when the value names what the level lacks
/// (issue 46: `Row::bad`).
fn value_button(p: &mut ChildSpawnerCommands, row: &Row, act: EditAct, name: &str) {
    let mut b = p.spawn(bar_button(row.value.clone(), act, true));
    b.insert(ActionName(name.into()));
    if row.bad {
        b.insert(BorderColor::all(palette::BAD));
    }
}

/// The form's lines: the rows of each, an action's up and remove sharing one.
fn lines_of(rows: &[Row]) -> Vec<std::ops::Range<usize>> {
    let mut lines = Vec::new();
    let mut i = 0;
    while i < rows.len() {
        let mut j = i + 1;
        if matches!(rows[i].kind, RowKind::Up | RowKind::Remove) {
            while rows.get(j).is_some_and(|r| matches!(r.kind, RowKind::Up | RowKind::Remove)) {
                j += 1;
            }
        }
        lines.push(i..j);
        i = j;
    }
    lines
}

/// The rows of a form, each with the buttons its kind takes; `act(row, dir)` is the button's act.
/// At most `room` lines from the editor's `form_scroll` on, with buttons to the earlier and the
/// next ones (a long event ran past the window's bottom).
fn rows_ui(b: &mut ChildSpawnerCommands, ed: &mut Editor, rows: &[Row], room: usize, act: impl Fn(u8, i8) -> EditAct) {
    let lines = lines_of(rows);
    let from = (ed.form_scroll as usize).min(lines.len().saturating_sub(room));
    ed.form_scroll = from as u16;
    let to = (from + room).min(lines.len());
    if from > 0 {
        button(b, format!("^ {from} earlier line(s)"), EditAct::FormScroll(-1), "FormScroll(earlier)");
    }
    let first = lines.get(from).map_or(rows.len(), |l| l.start);
    let end = lines.get(to).map_or(rows.len(), |l| l.start);
    let mut i = first;
    while i < end {
        let row = &rows[i];
        let r8 = i as u8;
        b.spawn(Node { flex_direction: FlexDirection::Row, align_items: AlignItems::Center, column_gap: Val::Px(3.0), ..default() }).with_children(|line| {
            // The part ("when", "then 2") on its first row only.
            let part = if i > first && rows[i - 1].part == row.part { String::new() } else { row.part.clone() };
            line.spawn((text(part, 12.0, palette::GOLD), Node { width: Val::Px(46.0), flex_shrink: 0.0, ..default() }));
            // Issue 46: a value naming what the level lacks is drawn in the problems' red.
            let ink = if row.bad { palette::BAD } else { palette::TEXT };
            if !row.label.is_empty() {
                line.spawn((text(format!("{}:", row.label), 13.0, ink), Node { width: Val::Px(86.0), flex_shrink: 0.0, ..default() }));
            }
            let (back, on) = ("EventField(a row, back)", "EventField(a row, on)");
            match row.kind {
                RowKind::Choice => {
                    button(line, "<", act(r8, -1), back);
                    value_button(line, row, act(r8, 1), on);
                    button(line, ">", act(r8, 1), on);
                }
                RowKind::Number => {
                    button(line, "-", act(r8, -1), back);
                    line.spawn(text(row.value.clone(), 13.0, ink));
                    button(line, "+", act(r8, 1), on);
                }
                RowKind::Area => {
                    line.spawn(text(row.value.clone(), 13.0, ink));
                    button(line, "= selection", act(r8, 1), on);
                }
                RowKind::Toggle | RowKind::Text | RowKind::Add => value_button(line, row, act(r8, 1), on),
                RowKind::Shown => {
                    line.spawn(text(format!("{} (kept as the file has it)", row.value), 12.0, palette::DIM));
                }
                RowKind::Up | RowKind::Remove => {
                    // An action's (or an item's) up and remove side by side.
                    while let Some(r) = rows.get(i).filter(|r| matches!(r.kind, RowKind::Up | RowKind::Remove)) {
                        button(line, r.value.clone(), act(i as u8, 1), on);
                        i += 1;
                    }
                    i -= 1;
                }
            }
        });
        i += 1;
    }
    if to < lines.len() {
        button(b, format!("v {} more line(s) (by {FORM_PAGE})", lines.len() - to), EditAct::FormScroll(1), "FormScroll(more)");
    }
}

fn form_node() -> Node {
    Node {
        position_type: PositionType::Absolute,
        left: Val::Px(LEFT_PX + 6.0),
        top: Val::Px(TOP_PX + 6.0),
        width: Val::Px(FORM_PX),
        flex_direction: FlexDirection::Column,
        padding: UiRect::all(Val::Px(8.0)),
        row_gap: Val::Px(1.0),
        ..default()
    }
}

/// The open event's form, when one is open.
fn event_form(commands: &mut Commands, ed: &mut Editor, room: usize) {
    let Some(k) = ed.event_open else { return };
    let Some(id) = ed.doc.level.events.get(k).map(|e| e.id.clone()) else { return };
    let n = ed.doc.level.events.len();
    // Items checked against the game's (`validate` has them so), to draw a missing one red.
    let rows = ed.doc.event_form_known(k, &ed.figure_lists.items);
    commands
        .spawn((Name::new("Event form"), FormRoot, DespawnOnExit(Screen::Editor), panel_in(form_node(), palette::PANEL_SOLID), GlobalZIndex(20)))
        .with_children(|b| {
            b.spawn(Node { flex_direction: FlexDirection::Row, align_items: AlignItems::Center, column_gap: Val::Px(4.0), ..default() }).with_children(|r| {
                r.spawn(text(format!("Event {} of {n}: {id}", k + 1), 15.0, palette::GOLD));
                button(r, "rename", EditAct::Type(Field::EventId(k as u8)), "Type(EventId(the event))");
                button(r, "up", EditAct::EventMove(k as u8, -1), "EventMove(up)");
                button(r, "down", EditAct::EventMove(k as u8, 1), "EventMove(down)");
                button(r, "Close [Esc]", EditAct::EventForm(k as u8), "EventForm(close)");
            });
            rows_ui(b, ed, &rows, room, EditAct::EventField);
            b.spawn(text(
                "Areas take the map's selection (drag, or Shift+arrows). Values come from the level; one it lacks is red. \
                 vars: the level's variables (type a name, - and + its start).",
                11.0,
                palette::DIM,
            ));
        });
}

/// The selected figure's form (every field, issue 46), when it is open.
fn figure_form(commands: &mut Commands, ed: &mut Editor, room: usize) {
    let Some(k) = ed.figure_open else { return };
    let Some(c) = ed.doc.level.characters.get(k) else { return };
    let rows = ed.doc.figure_form(k);
    let name = c.name.clone().or(c.id.clone()).or(c.template.clone()).unwrap_or_default();
    commands
        .spawn((Name::new("Figure form"), FormRoot, DespawnOnExit(Screen::Editor), panel_in(form_node(), palette::PANEL_SOLID), GlobalZIndex(20)))
        .with_children(|b| {
            b.spawn(Node { flex_direction: FlexDirection::Row, align_items: AlignItems::Center, column_gap: Val::Px(4.0), ..default() }).with_children(|r| {
                r.spawn(text(format!("Figure: {name}"), 15.0, palette::GOLD));
                button(r, "Close [Esc]", EditAct::FigureForm, "FigureForm(close)");
            });
            rows_ui(b, ed, &rows, room, EditAct::FigureField);
            b.spawn(text("Gear, items and conditions are the game's own; the rules name what they refuse on the problems line.", 11.0, palette::DIM));
        });
}
