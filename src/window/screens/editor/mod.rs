//! The level editor (issue 31): main menu → Level editor, or `doo edit [LEVEL]`. The map is
//! painted with brushes (map characters, rooms, figures from the monster templates and the
//! heroes, chests, traps, exits, dark, lights), figures are set up in the inspector (side,
//! behaviour, stance, posture, hit points), the level's own settings in the side panel. Every
//! problem `doo validate` would report is shown as the designer edits, on the map where it is;
//! a level with problems can still be saved. Play-test and come back where you were. Undo and
//! redo, copy and paste, resize, floors; everything from the keyboard too.
//!
//! One path for every edit: buttons carry an `EditAct`, the keys (`keys.rs`) and the pointer
//! on the map (`map.rs`) send the same `EditAct`s, and `apply_acts` here makes them on the
//! `doo_rules::level_edit::Doc` (plain Rust: the edits, the writer, the checks). `panels.rs`
//! draws the panels, `map.rs` the map, `playtest.rs` plays the level and comes back.

use super::Screen;
use crate::window::GameData;
use crate::window::theme::prelude::*;
use bevy::prelude::*;
use doo_rules::level_edit::leave::{Answer, Leave, must_ask};
use doo_rules::level_edit::{Brush, Doc, Rect, new_level};
use std::path::Path;

mod acts;
mod event_panel;
mod files;
mod keys;
mod map;
mod panels;
pub mod playtest;
pub mod recovery;
mod state;
pub mod tools;

use files::{first_figure, heroes, level_files, monsters, new_path, open_file};
pub use state::{ApplyActs, EditAct, EditStart, Editor, EditorCursor, EditorSystems, Field, MapView, PlayTest, Tool, profile_name};

pub(super) fn plugin(app: &mut App) {
    app.add_button_action::<EditAct>()
        .configure_sets(Update, (EditorSystems::Input, EditorSystems::Apply, EditorSystems::Draw).chain().run_if(in_state(Screen::Editor)))
        .add_systems(OnEnter(Screen::Editor), open_editor)
        .add_systems(Update, apply_acts.in_set(EditorSystems::Apply).in_set(ApplyActs))
        .add_plugins((keys::plugin, map::plugin, panels::plugin, event_panel::plugin, playtest::plugin, recovery::plugin, tools::plugin));
}

/// Entering the editor: back from a play-test, the editor is as it was; else the level `doo
/// edit` named, or a new level.
fn open_editor(
    mut commands: Commands,
    editor: Option<ResMut<Editor>>,
    start: Option<Res<EditStart>>,
    data: Res<GameData>,
    mut cursor: ResMut<EditorCursor>,
    mut seeds: ResMut<crate::window::FreshSeeds>,
) {
    if let Some(mut ed) = editor {
        ed.status = "Back from the play-test: the editor is as you left it.".into();
        ed.generation += 1;
        return;
    }
    let data = &data.0;
    let root = Path::new(".");
    let (doc, path, status) = match start.as_ref().map(|s| s.0.clone()) {
        Some(p) if p.exists() => match open_file(&p) {
            Ok(doc) => (doc, p.clone(), format!("Opened {}.", p.display())),
            Err(e) => {
                (Doc::new(new_level(doo_rules::level_edit::NEW_SIZE.0, doo_rules::level_edit::NEW_SIZE.1)), new_path(), format!("Could not open it: {e}"))
            }
        },
        Some(p) => (
            Doc::new(new_level(doo_rules::level_edit::NEW_SIZE.0, doo_rules::level_edit::NEW_SIZE.1)),
            p.clone(),
            format!("A new level; Save writes {}.", p.display()),
        ),
        None => {
            let p = new_path();
            (
                Doc::new(new_level(doo_rules::level_edit::NEW_SIZE.0, doo_rules::level_edit::NEW_SIZE.1)),
                p.clone(),
                format!("A new level; Save writes {}.", p.display()),
            )
        }
    };
    let mut behaviours: Vec<String> = data.ai.behaviours.keys().cloned().collect();
    behaviours.sort();
    let figure_lists = doo_rules::level_edit::FigureLists::new(data, &monsters(root), &behaviours);
    let mut ed = Editor {
        doc,
        path,
        tool: Tool::Room,
        anchor: None,
        tools: Default::default(),
        problems: vec![],
        status,
        selected: None,
        inspected: None,
        typing: None,
        opening: false,
        asking: None,
        recovery: recovery::offer(),
        heroes: heroes(data),
        monsters: monsters(root),
        behaviours,
        files: level_files(),
        generation: 0,
        events_from: 0,
        events_extra: 0,
        event_open: None,
        fill: false,
        figure_open: None,
        form_scroll: 0,
        figure_lists,
        open_ids: (None, None),
        seeds: crate::window::FreshSeeds::new(Some(seeds.draw())),
    };
    ed.changed(data);
    *cursor = first_figure(&mut ed);
    commands.insert_resource(ed);
}

/// Every `EditAct`, from wherever it came, made on the level.
#[allow(clippy::too_many_arguments)]
fn apply_acts(
    mut acts: MessageReader<EditAct>,
    editor: Option<ResMut<Editor>>,
    mut cursor: ResMut<EditorCursor>,
    data: Res<GameData>,
    mut next: ResMut<NextState<Screen>>,
    mut commands: Commands,
    mut view: ResMut<MapView>,
) {
    let Some(mut ed) = editor else {
        acts.clear();
        return;
    };
    for act in acts.read().copied() {
        debug!("edit act {act:?}");
        // A question on the screen (unsaved edits, a recovery copy) takes every act but its
        // answers.
        if (ed.asking.is_some() || ed.recovery.is_some()) && !matches!(act, EditAct::Answer(_) | EditAct::Recover(_) | EditAct::Hover(..)) {
            continue;
        }
        let ed = &mut *ed;
        // A button pressed while a text is typed: the text is kept first (as focus leaving a
        // text field keeps it); Esc (Back) leaves it as it was.
        if ed.typing.is_some() && !matches!(act, EditAct::Hover(..) | EditAct::Move(..) | EditAct::Back) {
            ed.commit_typing(&data.0);
        }
        let (w, h) = ed.doc.size();
        // A level with no rows yet (a file may have none) has only (0, 0): clamp never panics.
        let clamp = |x: i32, y: i32| (x.clamp(0, (w as i32 - 1).max(0)), y.clamp(0, (h as i32 - 1).max(0)));
        let mut edited = false;
        match act {
            EditAct::Tool(t) => {
                // Pressing the hero or monster tool again takes the next one.
                ed.tool = match (ed.tool, t) {
                    (Tool::Hero(k), Tool::Hero(_)) => Tool::Hero(((k as usize + 1) % ed.heroes.len().max(1)) as u8),
                    (Tool::Monster(k), Tool::Monster(_)) => Tool::Monster(((k as usize + 1) % ed.monsters.len().max(1)) as u8),
                    _ => t,
                };
                ed.status = format!("Brush: {}.", ed.tool_name(ed.tool));
            }
            EditAct::Apply => {
                let area = ed.area(*cursor);
                edited = paint(ed, area);
                ed.anchor = None;
            }
            EditAct::Paint(x0, y0, x1, y1) => {
                let area = Rect::new((x0, y0), (x1, y1));
                *cursor = EditorCursor(x1, y1);
                edited = paint(ed, area);
                ed.anchor = None;
            }
            EditAct::Pick(x, y) => {
                *cursor = EditorCursor(x, y);
                ed.inspect(x, y);
            }
            EditAct::Move(dx, dy, grow) => {
                if grow && ed.anchor.is_none() {
                    ed.anchor = Some((cursor.0, cursor.1));
                } else if !grow {
                    ed.anchor = None;
                }
                let (x, y) = clamp(cursor.0 + dx, cursor.1 + dy);
                *cursor = EditorCursor(x, y);
                view.follow = true;
                // The keyboard's cursor onto a door, chest, trap or light shows it in the
                // feature inspector (its keys then set it up).
                if !ed.doc.features(x, y).is_empty() {
                    ed.inspected = Some((x, y));
                }
            }
            EditAct::Hover(x, y) => {
                let (x, y) = clamp(x, y);
                if *cursor != EditorCursor(x, y) {
                    *cursor = EditorCursor(x, y);
                }
            }
            EditAct::Undo => {
                edited = ed.doc.undo();
                ed.status = if edited { "Undone.".into() } else { "Nothing to undo.".into() };
            }
            EditAct::Redo => {
                edited = ed.doc.redo();
                ed.status = if edited { "Redone.".into() } else { "Nothing to redo.".into() };
            }
            EditAct::Copy
            | EditAct::Paste
            | EditAct::KeepStamp
            | EditAct::NextStamp
            | EditAct::Outline
            | EditAct::Line
            | EditAct::MirrorMode
            | EditAct::MirrorSides
            | EditAct::Turn(_)
            | EditAct::Find
            | EditAct::Rename
            | EditAct::Sight
            | EditAct::Stairs => edited = tools::tool_act(ed, act, *cursor),
            EditAct::Save => save(ed),
            EditAct::PlayTest => leave_or_ask(ed, Leave::PlayTest, &mut cursor, &data.0, &mut next, &mut commands),
            EditAct::Back => back(ed, &mut cursor, &data.0, &mut next, &mut commands),
            EditAct::New => leave_or_ask(ed, Leave::New, &mut cursor, &data.0, &mut next, &mut commands),
            EditAct::Generate => leave_or_ask(ed, Leave::Generate, &mut cursor, &data.0, &mut next, &mut commands),
            EditAct::OpenFile(k) => leave_or_ask(ed, Leave::Open(k), &mut cursor, &data.0, &mut next, &mut commands),
            EditAct::Open => {
                file_act(ed, act, &data.0);
            }
            EditAct::Answer(a) => answer(ed, a, &mut cursor, &data.0, &mut next, &mut commands),
            EditAct::Recover(yes) => recover(ed, yes, &mut cursor, &data.0),
            EditAct::Width(_) | EditAct::Height(_) => edited = acts::resize_act(ed, act),
            EditAct::AddFloor => edited = ed.doc.add_floor(),
            EditAct::Floor(d) => acts::floor_act(ed, d),
            EditAct::Profile => edited = ed.doc.cycle_profile(),
            EditAct::Mode => edited = ed.doc.toggle_mode(),
            EditAct::Control(k) => edited = ed.doc.cycle_control(k as usize),
            EditAct::Goal(_) | EditAct::AddSide => edited = side_act(ed, act),
            EditAct::Type(_) | EditAct::EventAdd => edited = text_act(ed, act, *cursor),
            EditAct::EventRemove(k) => edited = ed.doc.remove_event(k as usize),
            EditAct::Feature(k) => edited = feature_edit(ed, k as usize),
            EditAct::Zoom(_)
            | EditAct::Pan(..)
            | EditAct::Fill
            | EditAct::FigureForm
            | EditAct::FigureField(..)
            | EditAct::Group
            | EditAct::EventForm(_)
            | EditAct::EventField(..)
            | EditAct::EventPage(_)
            | EditAct::EventMove(..)
            | EditAct::FormScroll(_) => edited = acts::form_act(ed, act, *cursor, &mut view),
            EditAct::FigSide
            | EditAct::FigBehaviour
            | EditAct::FigStance
            | EditAct::FigPosture
            | EditAct::FigHp(_)
            | EditAct::FigRemove
            | EditAct::FigArrival => {
                edited = figure_edit(ed, act, &data.0);
            }
        }
        if edited {
            ed.changed(&data.0);
        }
    }
}

/// Esc: the text typed, the Open list or the selection goes first; then the editor is left
/// (asked about first when edits are unsaved).
fn back(ed: &mut Editor, cursor: &mut EditorCursor, data: &doo_rules::data::RuleData, next: &mut NextState<Screen>, commands: &mut Commands) {
    if ed.typing.is_some() {
        ed.typing = None;
    } else if ed.event_open.is_some() || ed.figure_open.is_some() {
        ed.event_open = None;
        ed.figure_open = None;
        ed.generation += 1;
    } else if ed.opening {
        ed.opening = false;
    } else if ed.anchor.is_some() {
        ed.anchor = None;
    } else {
        leave_or_ask(ed, Leave::Back, cursor, data, next, commands);
    }
}

/// A way out of the level: taken at once when nothing would be lost, else asked about first
/// (issue 42: New and Open threw unsaved edits away on fbd0357).
fn leave_or_ask(
    ed: &mut Editor,
    leave: Leave,
    cursor: &mut EditorCursor,
    data: &doo_rules::data::RuleData,
    next: &mut NextState<Screen>,
    commands: &mut Commands,
) {
    if must_ask(leave, ed.doc.dirty(), ed.path.is_file()) {
        ed.ask(leave);
    } else {
        go(ed, leave, cursor, data, next, commands);
    }
}

/// Leaves the level by `leave` (asked about, or nothing to lose).
fn go(ed: &mut Editor, leave: Leave, cursor: &mut EditorCursor, data: &doo_rules::data::RuleData, next: &mut NextState<Screen>, commands: &mut Commands) {
    match leave {
        Leave::New | Leave::Open(_) | Leave::Generate => {
            let act = match leave {
                Leave::Open(k) => EditAct::OpenFile(k),
                Leave::Generate => EditAct::Generate,
                _ => EditAct::New,
            };
            if file_act(ed, act, data) {
                *cursor = first_figure(ed);
            }
        }
        Leave::Back => {
            commands.remove_resource::<Editor>();
            next.set(Screen::Menu);
        }
        Leave::Quit => {
            commands.write_message(AppExit::Success);
        }
        Leave::PlayTest => commands.queue(playtest::start_playtest),
    }
}

/// Save / Discard / Cancel, answered.
fn answer(ed: &mut Editor, a: Answer, cursor: &mut EditorCursor, data: &doo_rules::data::RuleData, next: &mut NextState<Screen>, commands: &mut Commands) {
    let Some(leave) = ed.asking.take() else { return };
    match a {
        Answer::Cancel => ed.status = format!("Still editing {}: nothing was saved or lost.", ed.file_name()),
        Answer::Save => {
            save(ed);
            // A save that failed says why, and the level stays.
            if !ed.doc.dirty() {
                go(ed, leave, cursor, data, next, commands);
            }
        }
        Answer::Discard => {
            // Edits thrown away on purpose need no recovery copy. Closing the window keeps it:
            // the next editor offers it (a close answered in haste loses nothing).
            if leave != Leave::Quit && leave != Leave::PlayTest {
                recovery::forget();
            }
            go(ed, leave, cursor, data, next, commands);
        }
    }
}

/// The recovery offer answered: the kept edits become the level's unsaved edits over its file
/// as saved (one undo step shows the file), or they are discarded.
fn recover(ed: &mut Editor, yes: bool, cursor: &mut EditorCursor, data: &doo_rules::data::RuleData) {
    let Some((path, text)) = ed.recovery.take() else { return };
    if !yes {
        recovery::forget();
        ed.status = format!("The kept edits of {} were discarded.", path.display());
        return;
    }
    let kept = match Doc::from_text(&path.display().to_string(), &text) {
        Ok(d) => d,
        Err(e) => {
            ed.status = format!(
                "The recovery copy of {} cannot be read ({}:{}: {}); it is left at {}.",
                path.display(),
                e.line,
                e.col,
                e.message,
                recovery::recovery_path().display()
            );
            return;
        }
    };
    let mut doc = if path.is_file() {
        open_file(&path).unwrap_or_else(|_| Doc::new(new_level(doo_rules::level_edit::NEW_SIZE.0, doo_rules::level_edit::NEW_SIZE.1)))
    } else {
        Doc::new(new_level(doo_rules::level_edit::NEW_SIZE.0, doo_rules::level_edit::NEW_SIZE.1))
    };
    let level = kept.level.clone();
    doc.edit(|l, _| *l = level);
    ed.new_doc(doc, path.clone(), data);
    *cursor = first_figure(ed);
    ed.status = format!("Recovered the unsaved edits of {}: Ctrl+S saves them, Ctrl+Z shows the file as it was saved.", path.display());
}

/// A side's goal cycled, or a new side.
fn side_act(ed: &mut Editor, act: EditAct) -> bool {
    if let EditAct::Goal(k) = act {
        let edited = ed.doc.cycle_goal(k as usize);
        let side = ed.doc.level.sides.get(k as usize).map_or(String::new(), |s| s.id.clone());
        ed.status = format!("{side} wins by: {}.", ed.doc.goal_line(k as usize));
        return edited;
    }
    let edited = ed.doc.add_side();
    ed.status = if edited {
        "A new side, played by the AI: give it figures (monster brush, or a figure's Side).".into()
    } else {
        format!("At most {} sides in a level.", doo_rules::level_file::MAX_SIDES)
    };
    edited
}

/// Typing the name, the briefing or an event's story line; a new event on the selection.
fn text_act(ed: &mut Editor, act: EditAct, cursor: EditorCursor) -> bool {
    if let EditAct::Type(f) = act {
        let now = match f {
            // A new level's name is a placeholder: what is typed replaces it (issue 46).
            Field::Name if ed.doc.level.name == new_level(1, 1).name => String::new(),
            Field::Name => ed.doc.level.name.clone(),
            Field::Briefing => ed.doc.level.briefing.clone(),
            Field::Event(k) => ed.doc.event_message(k as usize),
            Field::Action(k, a) => ed.doc.action_text(k as usize, a as usize).unwrap_or_default(),
            Field::EventId(k) => ed.doc.level.events.get(k as usize).map_or(String::new(), |e| e.id.clone()),
            Field::Figure(k, row) => ed.doc.figure_text(k as usize, row as usize),
            Field::Find | Field::Rename | Field::StampName => String::new(),
            Field::ChoiceLabel(k, a, o) => ed.doc.choice_label(k as usize, a as usize, o as usize).unwrap_or_default(),
            Field::Var(i) => ed.doc.level.vars.keys().nth(i as usize).cloned().unwrap_or_default(),
            // "+ variable" is a placeholder: the name typed starts empty (issue 46).
            Field::NewVar => String::new(),
        };
        ed.typing = Some((f, now));
        return false;
    }
    let area = ed.area(cursor);
    let edited = ed.doc.add_event(area, "");
    ed.anchor = None;
    if edited {
        let k = ed.doc.level.events.len() - 1;
        ed.typing = Some((Field::Event(k as u8), String::new()));
        ed.status = "A level event: when the first side enters the selection, this story line (type it, Enter keeps it).".into();
    } else {
        ed.status = format!("At most {} events in a level.", doo_rules::rules::story::MAX_EVENTS);
    }
    edited
}

/// New, Open and a file picked in the Open list; true when another level is now edited.
fn file_act(ed: &mut Editor, act: EditAct, data: &doo_rules::data::RuleData) -> bool {
    match act {
        EditAct::New => {
            let p = new_path();
            ed.new_doc(Doc::new(new_level(doo_rules::level_edit::NEW_SIZE.0, doo_rules::level_edit::NEW_SIZE.1)), p.clone(), data);
            ed.status = format!("A new level; Save writes {}.", p.display());
            true
        }
        EditAct::Generate => match files::generated_doc(data, ed.seeds.draw()) {
            Ok((doc, said)) => {
                let p = new_path();
                ed.new_doc(doc, p.clone(), data);
                ed.status = format!("{said}; Save writes {}. Ctrl+Shift+N: another seed.", p.display());
                true
            }
            Err(e) => {
                ed.status = format!("Could not generate a level: {e}");
                false
            }
        },
        EditAct::OpenFile(k) => {
            ed.opening = false;
            let Some(p) = ed.files.get(k as usize).cloned() else { return false };
            match open_file(&p) {
                Ok(doc) => {
                    ed.new_doc(doc, p.clone(), data);
                    ed.status = format!("Opened {}.", p.display());
                    true
                }
                Err(e) => {
                    ed.status = format!("Could not open it: {e}");
                    false
                }
            }
        }
        _ => {
            ed.files = level_files();
            ed.opening = !ed.opening;
            false
        }
    }
}

/// An edit of the figure in the inspector.
fn figure_edit(ed: &mut Editor, act: EditAct, data: &doo_rules::data::RuleData) -> bool {
    let Some(k) = ed.selected else {
        ed.status = "No figure selected: Q, then click or Space on a figure.".into();
        return false;
    };
    match act {
        EditAct::FigSide => ed.doc.next_side(k),
        EditAct::FigBehaviour => {
            let b = ed.behaviours.clone();
            ed.doc.cycle_behaviour(k, &b)
        }
        EditAct::FigStance => ed.doc.cycle_stance(k),
        EditAct::FigArrival => {
            let done = ed.doc.cycle_arrival(k);
            ed.status =
                if done { format!("Arrives {}.", ed.doc.arrival(k)) } else { "A figure arrives on a level event: make one first (select spaces, Y).".into() };
            done
        }
        EditAct::FigPosture => ed.doc.cycle_posture(k),
        EditAct::FigHp(d) => {
            let full = full_hp(ed, k, data);
            ed.doc.add_hp(k, d as i32, full)
        }
        _ => {
            let done = ed.doc.remove_figure(k);
            ed.selected = None;
            done
        }
    }
}

/// The k-th button of the feature inspector.
fn feature_edit(ed: &mut Editor, k: usize) -> bool {
    let Some((x, y)) = ed.inspected else {
        ed.status = "No door, chest, trap or light inspected: right click one (or Q, then Space on it).".into();
        return false;
    };
    let Some((_, e)) = ed.feature_buttons().get(k).cloned() else { return false };
    let done = ed.doc.edit_feature(x, y, e);
    if let Some((label, _)) = ed.doc.features(x, y).into_iter().flat_map(|f| f.buttons).find(|b| b.1 == e) {
        ed.status = format!("({x}, {y}): {label}.");
    }
    done
}

/// The figure's full hit points, from the level as it would be built (10 when it cannot be).
fn full_hp(ed: &Editor, k: usize, data: &doo_rules::data::RuleData) -> i32 {
    let id = ed.doc.level.characters.get(k).and_then(|c| c.id.clone());
    let text = ed.doc.text();
    doo_rules::level_file::check("level", &text, data, &ed.root())
        .ok()
        .and_then(|c| c.build(data).ok())
        .and_then(|m| m.fighters.iter().find(|f| Some(&f.id) == id.as_ref()).map(|f| f.max_hp))
        .unwrap_or(10)
}

/// The tool on the area; a figure put down is selected.
fn paint(ed: &mut Editor, area: Rect) -> bool {
    if ed.tool == Tool::Select {
        ed.inspect(area.x1, area.y1);
        return false;
    }
    let Some(brush) = ed.brush() else {
        ed.status = format!("No {} to put down.", ed.tool_name(ed.tool));
        return false;
    };
    let crawl_before = ed.doc.level.mode;
    // Fill (Z): a map character clicked on one space pours over the spaces joined to it that
    // hold the same character (issue 46).
    if let (true, Brush::Tile(c), true) = (ed.fill, &brush, area.x0 == area.x1 && area.y0 == area.y1) {
        let done = ed.doc.flood_fill_mirrored(area.x0, area.y0, *c, ed.tools.mirror);
        ed.status = if done {
            format!("Filled with {} from ({}, {}).", ed.tool_name(ed.tool), area.x0, area.y0)
        } else {
            "Nothing to fill: the space holds that already.".into()
        };
        return done;
    }
    let done = if ed.tools.mirror == doo_rules::level_edit::Mirror::Off {
        ed.doc.paint(area, &brush)
    } else {
        ed.doc.paint_mirrored(area, &brush, ed.tools.mirror, ed.tools.swap_sides)
    };
    if done {
        ed.status = format!("Painted {} over {} x {}.", ed.tool_name(ed.tool), area.x1 - area.x0 + 1, area.y1 - area.y0 + 1);
        if matches!(brush, Brush::Figure(_)) {
            ed.selected = ed.doc.figure_at(area.x0.max(0), area.y0.max(0));
        }
        // A door, chest, trap or light put down is shown in the feature inspector.
        let first = (area.x0.max(0), area.y0.max(0));
        if !ed.doc.features(first.0, first.1).is_empty() && !matches!(brush, Brush::Figure(_) | Brush::Room | Brush::Erase) {
            ed.inspected = Some(first);
        }
        if ed.doc.level.mode != crawl_before {
            ed.status.push_str(" The level is now a crawl (Exploration Mode): chests, traps, lights and dark belong to crawls.");
        }
    }
    done
}

/// Writes the level (problems or not) where it was read from, or where a new one goes.
fn save(ed: &mut Editor) {
    let text = ed.doc.text();
    // Atomically (a temporary file renamed over it): a crash mid-save never truncates a level.
    match doo_rules::data::write_atomic(&ed.path, &text) {
        Ok(()) => {
            ed.doc.mark_saved(text);
            recovery::forget();
            let n = ed.blocking();
            ed.status =
                if n == 0 { format!("Saved {}: no problems.", ed.path.display()) } else { format!("Saved {} with {n} problem(s) left.", ed.path.display()) };
        }
        Err(e) => ed.status = format!("Could not save {}: {e}", ed.path.display()),
    }
}
