//! The editor's panels around the map: the top bar (new, open, save, undo, redo, copy, paste,
//! play-test, back), the brushes on the left, the level's settings and the figure inspector on
//! the right, and at the bottom what was done, what is under the cursor and every problem the
//! level has, each with where it is. Every button names its key.

use super::keys::{FEATURE_KEYS, TILE_KEYS, TOOL_KEYS};
use super::state::{EditAct, Editor, EditorCursor, EditorSystems, Field, Tool, profile_name};
use crate::window::screens::Screen;
use crate::window::theme::prelude::*;
use bevy::prelude::*;
use doo_rules::level_edit::TILES;
use doo_rules::level_file::Control;

/// The panels' sizes in logical pixels (the map is framed between them).
pub const TOP_PX: f32 = 82.0;
/// The top bar's third row (the stamps): the right panel rises beside it.
const STAMP_ROW_PX: f32 = 24.0;
pub const LEFT_PX: f32 = 196.0;
pub const RIGHT_PX: f32 = 300.0;
pub const BOTTOM_PX: f32 = 132.0;
/// The file buttons' column at the bottom right.
const FILE_PX: f32 = 310.0;

/// Problems listed at the bottom (the rest are counted; all are on the map).
const LISTED: usize = 4;
/// Events listed in the side panel at a time (its pages, Home and End, reach every event): in
/// a 720-pixel window one while an inspector takes the panel's room above them (a second one
/// lay under the file buttons, out of reach), else three; a row more for each 26 pixels of
/// height beyond.
pub fn events_listed(ed: &Editor) -> usize {
    (if ed.selected.is_some() || ed.inspected.is_some() { 1 } else { 3 }) + ed.events_extra
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, (fit_events_list, draw_panels, show_cursor_line).chain().in_set(EditorSystems::Draw));
}

/// The events list's extra rows for the window's height (logical pixels beyond 720).
fn fit_events_list(editor: Option<ResMut<Editor>>, windows: Query<&Window>, ui: Res<UiScale>) {
    let Some(mut ed) = editor else { return };
    let h = windows.single().map_or(720.0, |w| w.height() / ui.0.max(0.1));
    let extra = (((h - 720.0) / 26.0).floor().max(0.0) as usize).min(12);
    if ed.events_extra != extra {
        ed.events_extra = extra;
    }
}

#[derive(Component)]
struct EditorRoot;

#[derive(Component)]
struct CursorLine;

/// What the panels show: they are built again when it changes.
fn view_key(ed: &Editor) -> String {
    format!(
        "{:?}|{}|{:?}|{:?}|{:?}|{:?}|{}|{}|{}|{}|{:?}|{}",
        ed.tool,
        ed.status,
        ed.selected,
        ed.inspected,
        ed.typing,
        ed.opening,
        ed.problems.len(),
        ed.generation,
        ed.doc.can_undo(),
        ed.doc.can_redo(),
        ed.tools.hand.line(),
        ed.doc.dirty(),
    ) + &format!("|{:?}|{}|{}|{:?}|{}|{:?}|{}", ed.asking, ed.recovery.is_some(), ed.events_from, ed.event_open, ed.fill, ed.figure_open, ed.events_extra)
        + &format!("|{:?}|{}|{}|{:?}", ed.tools.mirror, ed.tools.swap_sides, ed.tools.sight, ed.tools.stairs_from)
}

/// A compact button; one that cannot be pressed now is shown dim and is `Disabled`.
fn spawn_bar(p: &mut ChildSpawnerCommands, label: impl Into<String>, act: EditAct, enabled: bool) {
    let mut e = p.spawn(bar_button(label, act, enabled));
    if !enabled {
        e.insert(Disabled);
    }
}

fn row() -> Node {
    Node { flex_direction: FlexDirection::Row, flex_wrap: FlexWrap::Wrap, align_items: AlignItems::Center, ..default() }
}

fn heading(p: &mut ChildSpawnerCommands, s: impl Into<String>) {
    p.spawn((text(s, 15.0, palette::GOLD), Node { margin: UiRect::top(Val::Px(6.0)), ..default() }));
}

fn draw_panels(mut commands: Commands, editor: Option<Res<Editor>>, roots: Query<Entity, With<EditorRoot>>, mut shown: Local<String>) {
    let Some(ed) = editor else { return };
    let key = view_key(&ed);
    if *shown == key && !roots.is_empty() {
        return;
    }
    *shown = key;
    for e in &roots {
        commands.entity(e).despawn();
    }
    let root = Node {
        position_type: PositionType::Absolute,
        width: Val::Percent(100.0),
        height: Val::Percent(100.0),
        flex_direction: FlexDirection::Column,
        ..default()
    };
    commands.spawn((Name::new("Level editor"), EditorRoot, DespawnOnExit(Screen::Editor), root)).with_children(|p| {
        top_bar(p, &ed);
        // The middle row takes what the bars leave, never more (a long panel is clipped by its
        // own clip: the right panel rises beside the top bar's short stamp row).
        p.spawn(Node {
            flex_grow: 1.0,
            flex_shrink: 1.0,
            min_height: Val::Px(0.0),
            flex_direction: FlexDirection::Row,
            overflow: Overflow::clip_x(),
            ..default()
        })
        .with_children(|m| {
            brushes(m, &ed);
            m.spawn(Node { flex_grow: 1.0, ..default() });
            settings(m, &ed);
        });
        bottom(p, &ed);
    });
    if ed.opening {
        open_list(&mut commands, &ed);
    }
    question(&mut commands, &ed);
}

/// The question over the editor (issue 42): unsaved edits before a way out (Save / Discard /
/// Cancel), or a recovery copy kept by a session that closed without saving (Recover / Discard).
/// It covers the whole screen: nothing else is pressed until it is answered.
fn question(commands: &mut Commands, ed: &Editor) {
    use doo_rules::level_edit::leave::{Answer, question, recovery_offer};
    let (title, said, buttons): (&str, String, Vec<(&str, EditAct)>) = match (&ed.recovery, ed.asking) {
        (Some((path, _)), _) => {
            let (said, [r, d]) = recovery_offer(&path.display().to_string());
            ("Unsaved edits kept", said, vec![(r, EditAct::Recover(true)), (d, EditAct::Recover(false))])
        }
        (None, Some(leave)) => {
            let (said, [s, d, c]) = question(leave, &ed.file_name());
            ("Unsaved edits", said, vec![(s, EditAct::Answer(Answer::Save)), (d, EditAct::Answer(Answer::Discard)), (c, EditAct::Answer(Answer::Cancel))])
        }
        (None, None) => return,
    };
    let cover = Node {
        position_type: PositionType::Absolute,
        width: Val::Percent(100.0),
        height: Val::Percent(100.0),
        align_items: AlignItems::Center,
        justify_content: JustifyContent::Center,
        ..default()
    };
    commands
        .spawn((Name::new("Unsaved edits"), EditorRoot, DespawnOnExit(Screen::Editor), cover, GlobalZIndex(40), Interaction::default(), Blocks))
        .with_children(|c| {
            c.spawn(panel_in(
                Node {
                    flex_direction: FlexDirection::Column,
                    padding: UiRect::all(Val::Px(18.0)),
                    row_gap: Val::Px(10.0),
                    max_width: Val::Px(560.0),
                    ..default()
                },
                palette::PANEL_SOLID,
            ))
            .with_children(|b| {
                b.spawn(text(title, 22.0, palette::GOLD));
                b.spawn(text(said, 16.0, palette::TEXT));
                b.spawn(row()).with_children(|r| {
                    for (label, act) in buttons {
                        spawn_bar(r, label, act, true);
                    }
                });
            });
        });
}

fn top_bar(p: &mut ChildSpawnerCommands, ed: &Editor) {
    let file = ed.path.file_name().map_or(String::new(), |f| f.to_string_lossy().to_string());
    let star = if ed.doc.dirty() { " *" } else { "" };
    let bar = Node { flex_shrink: 0.0, column_gap: Val::Px(2.0), ..row() };
    p.spawn(panel(Node {
        height: Val::Px(TOP_PX),
        flex_shrink: 0.0,
        padding: UiRect::horizontal(Val::Px(8.0)),
        flex_direction: FlexDirection::Column,
        ..default()
    }))
    .with_children(|c| {
        // One line: a long file name is cut short rather than pushing Find and Rename down over
        // the tools' row.
        c.spawn(Node { flex_wrap: FlexWrap::NoWrap, ..bar.clone() }).with_children(|b| {
            b.spawn((
                text(format!("{file}{star}"), 15.0, palette::GOLD),
                TextLayout::default().with_no_wrap(),
                Node { margin: UiRect::right(Val::Px(10.0)), flex_shrink: 0.0, max_width: Val::Px(175.0), overflow: Overflow::clip(), ..default() },
            ));
            spawn_bar(b, "Undo [Ctrl+Z]", EditAct::Undo, ed.doc.can_undo());
            spawn_bar(b, "Redo [Ctrl+Y]", EditAct::Redo, ed.doc.can_redo());
            spawn_bar(b, "Copy [Ctrl+C]", EditAct::Copy, true);
            spawn_bar(b, "Paste [Ctrl+V]", EditAct::Paste, ed.tools.hand.stamp.is_some());
            b.spawn(Node { width: Val::Px(8.0), ..default() });
            spawn_bar(b, "Zoom - [Ctrl+-]", EditAct::Zoom(-1), true);
            spawn_bar(b, "Fit [Ctrl+0]", EditAct::Zoom(0), true);
            spawn_bar(b, "Zoom + [Ctrl+=]", EditAct::Zoom(1), true);
            b.spawn(Node { width: Val::Px(8.0), ..default() });
            spawn_bar(b, "Find [Ctrl+F]", EditAct::Find, true);
            spawn_bar(b, "Rename [Ctrl+E]", EditAct::Rename, true);
        });
        // The shape tools (issue 46): they draw the map character of the brush.
        c.spawn(bar.clone()).with_children(|b| {
            spawn_bar(b, "Outline [Ctrl+R]", EditAct::Outline, true);
            spawn_bar(b, "Line [Ctrl+L]", EditAct::Line, true);
            let mut e = b.spawn(bar_button(format!("Mirror: {} [Ctrl+M]", ed.tools.mirror.word()), EditAct::MirrorMode, true));
            if ed.tools.mirror != doo_rules::level_edit::Mirror::Off {
                e.insert(Selected);
            }
            let sides = if ed.tools.swap_sides { "Sides: swap [Ctrl+Shift+M]" } else { "Sides: same [Ctrl+Shift+M]" };
            spawn_bar(b, sides, EditAct::MirrorSides, true);
            spawn_bar(b, "Turn [Ctrl+T]", EditAct::Turn(0), true);
            spawn_bar(b, "Turn back [Ctrl+Shift+T]", EditAct::Turn(1), true);
            spawn_bar(b, "Flip [Ctrl+H]", EditAct::Turn(2), true);
            spawn_bar(b, "Flip up [Ctrl+Shift+H]", EditAct::Turn(3), true);
        });
        // Stamps (issue 46): the selection kept as a file of `levels/stamps/`, and the shelf of
        // those kept, stepped through; what Ctrl+V puts down.
        c.spawn(bar).with_children(|b| {
            spawn_bar(b, "Keep as stamp [Ctrl+Shift+C]", EditAct::KeepStamp, true);
            spawn_bar(b, "Next stamp [Ctrl+Shift+V]", EditAct::NextStamp, true);
            b.spawn((text(ed.tools.hand.line(), 13.0, palette::TEXT), Node { margin: UiRect::left(Val::Px(8.0)), align_self: AlignSelf::Center, ..default() }));
        });
    });
}

fn tool_button(b: &mut ChildSpawnerCommands, ed: &Editor, label: String, tool: Tool) {
    let on = std::mem::discriminant(&ed.tool) == std::mem::discriminant(&tool) && (!matches!(tool, Tool::Tile(_)) || ed.tool == tool);
    let mut e = b.spawn(bar_button(label, EditAct::Tool(tool), true));
    if on {
        e.insert(Selected);
    }
}

fn brushes(p: &mut ChildSpawnerCommands, ed: &Editor) {
    p.spawn(panel(Node {
        width: Val::Px(LEFT_PX),
        flex_direction: FlexDirection::Column,
        padding: UiRect::all(Val::Px(6.0)),
        overflow: Overflow::clip(),
        ..default()
    }))
    .with_children(|b| {
        heading(b, "Map");
        b.spawn(row()).with_children(|r| {
            for (k, (c, name)) in TILES.iter().enumerate() {
                tool_button(r, ed, format!("{c} {name} [{}]", TILE_KEYS[k].1), Tool::Tile(k as u8));
            }
        });
        heading(b, "Put down");
        b.spawn(row()).with_children(|r| {
            for (_, tool, key) in TOOL_KEYS.iter().filter(|t| !matches!(t.1, Tool::Tile(_))) {
                let tool = match (*tool, ed.tool) {
                    (Tool::Hero(_), Tool::Hero(k)) => Tool::Hero(k),
                    (Tool::Monster(_), Tool::Monster(k)) => Tool::Monster(k),
                    (t, _) => t,
                };
                tool_button(r, ed, format!("{} [{key}]", ed.tool_name(tool)), tool);
            }
        });
        b.spawn(row()).with_children(|r| {
            let mut e = r.spawn(bar_button(if ed.fill { "fill: on [Z]" } else { "fill: off [Z]" }, EditAct::Fill, true));
            if ed.fill {
                e.insert(Selected);
            }
            spawn_bar(r, "group [Ctrl+G]", EditAct::Group, true);
            let mut e = r.spawn(bar_button(if ed.tools.sight { "sight: on [Ctrl+I]" } else { "sight [Ctrl+I]" }, EditAct::Sight, true));
            if ed.tools.sight {
                e.insert(Selected);
            }
        });
        b.spawn(text("Right click inspects.", 12.0, palette::DIM));
    });
}

fn settings(p: &mut ChildSpawnerCommands, ed: &Editor) {
    let l = &ed.doc.level;
    p.spawn(panel(Node {
        width: Val::Px(RIGHT_PX),
        flex_direction: FlexDirection::Column,
        padding: UiRect::all(Val::Px(6.0)),
        // Up beside the top bar's stamp row, which ends well left of it: the panel keeps its
        // height for the events listed below its settings.
        margin: UiRect::top(Val::Px(-STAMP_ROW_PX)),
        overflow: Overflow::clip(),
        ..default()
    }))
    .with_children(|b| {
        heading(b, "Level");
        // Each on one line of the panel: a long name or briefing is cut short (the status line
        // shows it whole while it is typed).
        let cut = |t: &str, n: usize| if t.chars().count() > n { format!("{}...", t.chars().take(n).collect::<String>()) } else { t.to_string() };
        let short = cut(&l.briefing, 16);
        b.spawn(row()).with_children(|r| {
            spawn_bar(r, format!("Name: {} [N]", cut(&l.name, 26)), EditAct::Type(Field::Name), true);
            spawn_bar(r, format!("Briefing: {} [B]", if short.is_empty() { "(none)" } else { &short }), EditAct::Type(Field::Briefing), true);
            spawn_bar(r, format!("Rules: {} [F2]", profile_name(ed)), EditAct::Profile, true);
            let kind = if l.mode == doo_rules::level_crawl::LevelMode::Exploration { "a crawl" } else { "one fight" };
            spawn_bar(r, format!("Kind: {kind} [F3]"), EditAct::Mode, true);
            spawn_bar(r, "Add side", EditAct::AddSide, l.sides.len() < doo_rules::level_file::MAX_SIDES);
        });
        // Each side: who plays it, and how it wins besides its exits.
        for (k, s) in l.sides.iter().enumerate().take(doo_rules::level_file::MAX_SIDES) {
            b.spawn(row()).with_children(|r| {
                let who = if s.control == Control::Human { "person" } else { "AI" };
                spawn_bar(r, format!("{}: {who}", s.id), EditAct::Control(k as u8), true);
                let goal: String = ed.doc.goal_short(k).chars().take(22).collect();
                spawn_bar(r, format!("wins: {goal}"), EditAct::Goal(k as u8), true);
            });
        }
        let (w, h) = ed.doc.size();
        b.spawn(text(format!("{w} x {h} spaces, floor {} of {}", ed.doc.floor + 1, l.floors.len()), 13.0, palette::TEXT));
        b.spawn(row()).with_children(|r| {
            spawn_bar(r, "W- [,]", EditAct::Width(-1), true);
            spawn_bar(r, "W+ [.]", EditAct::Width(1), true);
            spawn_bar(r, "H- [;]", EditAct::Height(-1), true);
            spawn_bar(r, "H+ [']", EditAct::Height(1), true);
            let n = l.floors.len();
            spawn_bar(r, "Up [PgUp]", EditAct::Floor(1), ed.doc.floor + 1 < n);
            spawn_bar(r, "Down [PgDn]", EditAct::Floor(-1), ed.doc.floor > 0);
            spawn_bar(r, "+ Floor [F6]", EditAct::AddFloor, true);
            let mut e = r.spawn(bar_button(
                if ed.tools.stairs_from.is_some() { "Link stairs: pick the other end [Ctrl+K]" } else { "Link stairs [Ctrl+K]" },
                EditAct::Stairs,
                true,
            ));
            if ed.tools.stairs_from.is_some() {
                e.insert(Selected);
            }
        });
        inspector(b, ed);
        features(b, ed);
        events(b, ed);
    });
}

/// The figure in the inspector: side, behaviour, stance, posture, hit points, removal, arrival.
fn inspector(b: &mut ChildSpawnerCommands, ed: &Editor) {
    let l = &ed.doc.level;
    let Some(c) = ed.selected.and_then(|k| l.characters.get(k).map(|c| (k, c))) else {
        // A door, chest, trap or light inspected has the room (below).
        if ed.inspected.is_some() {
            return;
        }
        heading(b, "Figure");
        b.spawn(text("Right click (or Q, then Space on) a figure, door, chest, trap or light to set it up here.", 12.0, palette::DIM));
        return;
    };
    let (k, c) = c;
    heading(b, "Figure");
    let what = c.template.clone().map_or("hero".to_string(), |t| format!("a {t}"));
    b.spawn(text(format!("{} ({what})", c.name.clone().or(c.id.clone()).unwrap_or_default()), 14.0, palette::TEXT));
    b.spawn(row()).with_children(|r| {
        spawn_bar(r, format!("Side: {} [G]", c.side.clone().unwrap_or_default()), EditAct::FigSide, true);
        spawn_bar(r, format!("Behaviour: {} [V]", c.behaviour.clone().unwrap_or_else(|| "its own".into())), EditAct::FigBehaviour, true);
        spawn_bar(r, format!("Stance: {} [A]", ed.doc.stance(k)), EditAct::FigStance, true);
        let posture = c.posture.map_or("standing".to_string(), |p| format!("{p:?}").to_lowercase());
        spawn_bar(r, format!("Posture: {posture} [J]"), EditAct::FigPosture, true);
        let hp = c.hp.map_or("full".to_string(), |h| h.to_string());
        spawn_bar(r, format!("HP {hp}: - [[]"), EditAct::FigHp(-1), true);
        spawn_bar(r, "HP + []]", EditAct::FigHp(1), c.hp.is_some());
        spawn_bar(r, "Remove [Del]", EditAct::FigRemove, true);
        let mut all = r.spawn(bar_button("All fields [Ctrl+P]", EditAct::FigureForm, true));
        if ed.figure_open.is_some() {
            all.insert(Selected);
        }
        let can = !l.events.is_empty();
        spawn_bar(r, format!("Arrives: {} [W]", ed.doc.arrival(k)), EditAct::FigArrival, can);
    });
}

/// The door, chest, trap or light on the space inspected, each button with its key.
fn features(b: &mut ChildSpawnerCommands, ed: &Editor) {
    let Some((x, y)) = ed.inspected else { return };
    let mut k = 0;
    for f in ed.doc.features(x, y) {
        heading(b, f.heading);
        b.spawn(row()).with_children(|r| {
            for (label, _) in f.buttons {
                let key = FEATURE_KEYS.get(k).map_or(String::new(), |(_, name)| format!(" [{name}]"));
                spawn_bar(r, format!("{label}{key}"), EditAct::Feature(k as u8), true);
                k += 1;
            }
        });
    }
}

/// The level's events, a page at a time (Home and End turn the pages), each with its story
/// line to type, its form (every field of its trigger and actions: `event_panel`) and a
/// remove button.
fn events(b: &mut ChildSpawnerCommands, ed: &Editor) {
    let n = ed.doc.level.events.len();
    let listed = events_listed(ed);
    let from = ed.events_from.min(n.saturating_sub(1));
    let to = (from + listed).min(n);
    // The heading, the pages and a new event on one line: the events below it are never
    // pushed out of the panel by them.
    b.spawn(row()).with_children(|r| {
        let title = match (n > listed, to - from) {
            (true, 1) => format!("Event {}/{n}", from + 1),
            (true, _) => format!("Events {}-{}/{n}", from + 1, to),
            _ => format!("Events ({n})"),
        };
        r.spawn((text(title, 14.0, palette::GOLD), Node { margin: UiRect::new(Val::ZERO, Val::Px(3.0), Val::Px(6.0), Val::ZERO), ..default() }));
        if n > listed {
            spawn_bar(r, "< Home", EditAct::EventPage(-1), from > 0);
            spawn_bar(r, "> End", EditAct::EventPage(1), to < n);
        }
        spawn_bar(r, "New [Y]", EditAct::EventAdd, n < doo_rules::rules::story::MAX_EVENTS);
    });
    for k in from..to {
        b.spawn(Node { flex_direction: FlexDirection::Row, align_items: AlignItems::Center, ..default() }).with_children(|r| {
            // One list drawn by one piece of code: its rows' buttons go by one name each (the UI
            // walk presses one of them, as it does one rules reference entry).
            r.spawn(bar_button("x", EditAct::EventRemove(k as u8), true)).insert(ActionName("EventRemove(an event)".into()));
            let line: String = ed.doc.event_line(k).chars().take(20).collect();
            r.spawn(bar_button(line, EditAct::Type(Field::Event(k as u8)), true)).insert(ActionName("Type(Event(an event))".into()));
            let open = ed.event_open == Some(k);
            let label = match (open, k == from) {
                (true, _) => "close",
                (false, true) => "edit F4",
                (false, false) => "edit",
            };
            let mut e = r.spawn(bar_button(label, EditAct::EventForm(k as u8), true));
            e.insert(ActionName("EventForm(an event)".into()));
            if open {
                e.insert(Selected);
            }
        });
    }
}

/// What happened, what is under the cursor and the problems; at the right, the level's file
/// and the play-test (last in reading order: New and Open replace the level being edited).
fn bottom(p: &mut ChildSpawnerCommands, ed: &Editor) {
    p.spawn(panel(Node {
        height: Val::Px(BOTTOM_PX),
        flex_shrink: 0.0,
        flex_direction: FlexDirection::Row,
        padding: UiRect::axes(Val::Px(8.0), Val::Px(4.0)),
        overflow: Overflow::clip(),
        ..default()
    }))
    .with_children(|row| {
        row.spawn(Node { flex_grow: 1.0, flex_direction: FlexDirection::Column, overflow: Overflow::clip(), ..default() }).with_children(|b| {
            // While a text is typed, it is shown here (the panels' buttons stay: pressing one keeps it).
            if let Some((field, buf)) = &ed.typing {
                let what = match field {
                    Field::Name => "Typing the level's name".to_string(),
                    Field::Briefing => "Typing the briefing".to_string(),
                    Field::Event(k) | Field::Action(k, _) => {
                        format!("Typing the story line of {}", ed.doc.level.events.get(*k as usize).map_or("", |e| e.id.as_str()))
                    }
                    Field::EventId(k) => format!("Renaming the event {}", ed.doc.level.events.get(*k as usize).map_or("", |e| e.id.as_str())),
                    Field::Figure(k, row) => {
                        let label = ed.doc.figure_form(*k as usize).get(*row as usize).map_or(String::new(), |r| r.label.clone());
                        format!("Typing the figure's {label}")
                    }
                    Field::ChoiceLabel(..) => "Typing a choice's option".to_string(),
                    Field::Var(i) => {
                        format!("Renaming the variable {} (wherever an event names it)", ed.doc.level.vars.keys().nth(*i as usize).map_or("", String::as_str))
                    }
                    Field::NewVar => "A new variable's name (letters, digits, _ and -; it starts at 0)".to_string(),
                    Field::Find => "Find an id (Enter shows it, Enter again the next)".to_string(),
                    Field::Rename => "The new id (renamed wherever the level names it)".to_string(),
                    Field::StampName => "The stamp's name (letters, digits, _ and -; kept in levels/stamps/)".to_string(),
                };
                b.spawn(text(format!("{what} (Enter keeps it, Esc leaves it as it was):"), 14.0, palette::GOLD));
                b.spawn(text(format!("{buf}_"), 14.0, palette::TEXT));
                return;
            }
            b.spawn(text(ed.status.clone(), 14.0, palette::GOLD));
            b.spawn((CursorLine, text("", 13.0, palette::TEXT)));
            let (n, blocking) = (ed.problems.len(), ed.blocking());
            if n == 0 {
                b.spawn(text("No problems: `doo validate` passes this level, and it can be play-tested.", 13.0, palette::GOOD));
                return;
            }
            let head = if blocking == 0 {
                format!("`doo validate` passes this level; {n} warning(s), each marked ! on the map (it can be play-tested):")
            } else {
                format!("{blocking} problem(s) and {} warning(s), each marked ! on the map (a level with problems can still be saved):", n - blocking)
            };
            b.spawn(text(head, 13.0, if blocking == 0 { palette::GOLD } else { palette::BAD }));
            for pr in ed.problems.iter().take(LISTED) {
                let at = pr.at.map_or(String::new(), |(f, x, y)| if f == 0 { format!(" at ({x}, {y})") } else { format!(" at ({x}, {y}) floor {f}") });
                let kind = if pr.warning { "warning: " } else { "" };
                b.spawn(text(format!("line {}:{}{at}: {kind}{}", pr.line, pr.col, pr.message), 12.0, if pr.warning { palette::GOLD } else { palette::BAD }));
            }
            if n > LISTED {
                b.spawn(text(format!("... and {} more", n - LISTED), 12.0, palette::DIM));
            }
        });
        // two buttons a row (Save, Play-test / New, Generate / Open, Back): six stacked ran
        // past the window's bottom
        row.spawn(Node {
            width: Val::Px(FILE_PX),
            flex_shrink: 0.0,
            flex_direction: FlexDirection::Row,
            flex_wrap: FlexWrap::Wrap,
            align_content: AlignContent::FlexStart,
            ..default()
        })
        .with_children(|b| {
            spawn_bar(b, "Save [Ctrl+S]", EditAct::Save, true);
            spawn_bar(b, "Play-test [F5]", EditAct::PlayTest, ed.blocking() == 0);
            spawn_bar(b, "New [Ctrl+N]", EditAct::New, true);
            spawn_bar(b, "Generate [Ctrl+Shift+N]", EditAct::Generate, true);
            spawn_bar(b, "Open [Ctrl+O]", EditAct::Open, true);
            spawn_bar(b, "Back [Esc]", EditAct::Back, true);
        });
    });
}

/// The levels to open: a panel of its own over the editor.
fn open_list(commands: &mut Commands, ed: &Editor) {
    let node = Node {
        position_type: PositionType::Absolute,
        left: Val::Percent(30.0),
        top: Val::Px(TOP_PX + 10.0),
        width: Val::Percent(40.0),
        flex_direction: FlexDirection::Column,
        padding: UiRect::all(Val::Px(12.0)),
        ..default()
    };
    commands
        .spawn((Name::new("Open a level"), EditorRoot, DespawnOnExit(Screen::Editor), panel_in(node, palette::PANEL_SOLID), GlobalZIndex(30)))
        .with_children(|b| {
            heading(b, "Open a level (arrows and Enter, or click)");
            for (k, f) in ed.files.iter().enumerate().take(40) {
                spawn_bar(b, f.display().to_string(), EditAct::OpenFile(k as u16), true);
            }
            spawn_bar(b, "Cancel [Esc]", EditAct::Open, true);
        });
}

/// What is under the cursor, kept up to date without building the panels again.
fn show_cursor_line(editor: Option<Res<Editor>>, cursor: Res<EditorCursor>, mut q: Query<&mut Text, With<CursorLine>>) {
    let Some(ed) = editor else { return };
    let line = format!("Cursor {}: brush {}", ed.doc.describe(cursor.0, cursor.1).join("; "), ed.tool_name(ed.tool));
    for mut t in &mut q {
        if t.0 != line {
            t.0 = line.clone();
        }
    }
}
