//! The Load screen: the saves in the save folder (the autosave first, then the named slots,
//! newest first), each with its level, turn, players and date. "Continue" goes on playing it,
//! "Watch" opens it in the replay viewer. A save that cannot be used says why (its file and
//! line, a missing or changed level) and may be deleted.
//!
//! Every save opened to play on (Continue, a slot here, `doo play --resume`) goes through
//! `session::resume_match`: the one replay path (`doo_rules::replay::open`), which never panics. A
//! save that does not replay to its end (a command refused or unsettled, a checkpoint that
//! differs) is not played: this screen opens with what went wrong (`BrokenSave`) and the
//! choices: continue from the last command that replays, watch it in the replay viewer, or
//! delete it.

use super::{Go, Screen};
use crate::window::GameData;
use crate::window::session::{BrokenSave, MatchSetup};
use crate::window::theme::prelude::*;
use bevy::prelude::*;
use doo_rules::save::Save;
use std::path::PathBuf;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<SaveList>()
        .add_button_action::<LoadAct>()
        .add_systems(OnEnter(Screen::Load), (scan_saves, spawn_load).chain())
        .add_systems(OnExit(Screen::Load), forget_broken_save)
        .add_systems(Update, (load_keys, open_slot, delete_slot, answer_broken, show_broken).chain().run_if(in_state(Screen::Load)));
}

/// What a Load screen button does: a slot's Continue, Watch or Delete; a broken save's choices.
#[derive(Component, Message, Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoadAct {
    Continue(usize),
    Watch(usize),
    /// Delete a slot's file (a save that cannot be used).
    Delete(usize),
    /// A save that does not replay to its end: what to do with it.
    Broken(BrokenAct),
}

/// The choices for a save that does not replay to its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BrokenAct {
    /// Play on from the last command that replays.
    ContinueGood,
    /// Watch what replays in the replay viewer.
    Watch,
    /// Delete the save file.
    Delete,
    /// Leave it as it is.
    Close,
}

/// Saves listed at most (the newest), and the largest file read.
const MAX_LISTED_SAVES: usize = 60;
const MAX_SAVE_BYTES: u64 = 8 << 20;

/// One file of the save folder: the save and what it needs, or why it cannot be used.
pub struct Slot {
    pub path: PathBuf,
    pub usable: Result<(Save, PathBuf, doo_rules::level_file::CheckedLevel), String>,
}

/// The saves on the Load screen, in the order shown.
#[derive(Resource, Default)]
pub struct SaveList {
    pub slots: Vec<Slot>,
    pub error: Option<String>,
}

/// The save folder's `.ron` files, autosave first, then newest first; at most `MAX_LISTED_SAVES`.
pub fn list_saves(dir: &std::path::Path) -> Result<Vec<PathBuf>, String> {
    let rd = match std::fs::read_dir(dir) {
        Ok(rd) => rd,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("{}: {e}", dir.display())),
    };
    let mut files: Vec<(bool, std::time::SystemTime, PathBuf)> = rd
        .filter_map(|e| e.ok())
        .filter(|e| e.path().extension().is_some_and(|x| x == "ron") && e.file_type().is_ok_and(|t| t.is_file()))
        .map(|e| {
            let modified = e.metadata().and_then(|m| m.modified()).unwrap_or(std::time::UNIX_EPOCH);
            (e.file_name() != "autosave.ron", modified, e.path())
        })
        .collect();
    files.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)).then(a.2.cmp(&b.2)));
    Ok(files.into_iter().take(MAX_LISTED_SAVES).map(|f| f.2).collect())
}

fn scan_saves(mut list: ResMut<SaveList>, data: Res<GameData>) {
    let dir = crate::saves::save_dir();
    *list = SaveList::default();
    match list_saves(&dir) {
        Ok(files) => {
            for path in files {
                let big = std::fs::metadata(&path).map(|m| m.len() > MAX_SAVE_BYTES).unwrap_or(false);
                let usable = if big {
                    Err(format!("{}: larger than {} MB, not read", path.display(), MAX_SAVE_BYTES >> 20))
                } else {
                    doo_rules::save::load_save(&path, &data.0).map_err(|e| e.to_string())
                };
                list.slots.push(Slot { path, usable });
            }
        }
        Err(e) => list.error = Some(e),
    }
}

fn spawn_load(mut commands: Commands, list: Res<SaveList>) {
    let dir = crate::saves::save_dir();
    commands
        .spawn((
            Name::new("Load screen"),
            DespawnOnExit(Screen::Load),
            Node {
                width: Val::Percent(100.0),
                height: Val::Percent(100.0),
                flex_direction: FlexDirection::Column,
                align_items: AlignItems::Center,
                padding: UiRect::all(Val::Px(24.0)),
                row_gap: Val::Px(6.0),
                ..default()
            },
        ))
        .with_children(|p| {
            p.spawn(text("Load a saved match", 40.0, palette::GOLD));
            p.spawn(text(format!("Saves in {}", dir.display()), 14.0, palette::DIM));
            if let Some(e) = &list.error {
                p.spawn(text(e.clone(), 15.0, palette::BAD));
            }
            if list.slots.is_empty() && list.error.is_none() {
                p.spawn(text("No saves yet: every match is autosaved, and the match menu (Esc) saves it under a name.", 16.0, palette::TEXT));
            }
            p.spawn(panel(Node {
                flex_direction: FlexDirection::Column,
                padding: UiRect::all(Val::Px(8.0)),
                overflow: Overflow::scroll_y(),
                max_height: Val::Percent(75.0),
                // long lines (a level's path in an error) wrap inside the window
                max_width: Val::Percent(96.0),
                ..default()
            }))
            .with_children(|l| {
                for (k, slot) in list.slots.iter().enumerate() {
                    l.spawn(Node { flex_direction: FlexDirection::Row, align_items: AlignItems::Center, column_gap: Val::Px(8.0), ..default() }).with_children(
                        |r| {
                            let file = slot.path.file_name().map_or(String::new(), |f| f.to_string_lossy().into_owned());
                            match &slot.usable {
                                Ok((save, _, _)) => {
                                    r.spawn(button("Continue", LoadAct::Continue(k)));
                                    r.spawn(button("Watch", LoadAct::Watch(k)));
                                    let name = if save.label.is_empty() { file } else { save.label.clone() };
                                    r.spawn(Node { flex_direction: FlexDirection::Column, flex_shrink: 1.0, min_width: Val::Px(0.0), ..default() })
                                        .with_children(|t| {
                                            t.spawn(text(name, 17.0, palette::TEXT));
                                            t.spawn(text(save.summary(), 13.0, palette::DIM));
                                        });
                                }
                                Err(e) => {
                                    r.spawn((button("Continue", LoadAct::Continue(k)), Disabled));
                                    r.spawn(button("Delete", LoadAct::Delete(k)));
                                    r.spawn(Node { flex_direction: FlexDirection::Column, flex_shrink: 1.0, min_width: Val::Px(0.0), ..default() })
                                        .with_children(|t| {
                                            t.spawn(text(file, 17.0, palette::DIM));
                                            t.spawn(text(first_line(e), 13.0, palette::BAD));
                                        });
                                }
                            }
                        },
                    );
                }
            });
            p.spawn(button("Back  [Esc]", Go(Screen::Menu)));
        });
}

fn first_line(e: &str) -> String {
    let l = e.lines().next().unwrap_or_default();
    if l.chars().count() > 140 { l.chars().take(140).collect::<String>() + "..." } else { l.to_string() }
}

fn load_keys(keys: Res<ButtonInput<KeyCode>>, mut next: ResMut<NextState<Screen>>, broken: Option<Res<BrokenSave>>, mut acts: MessageWriter<LoadAct>) {
    if keys.just_pressed(KeyCode::Escape) {
        if broken.is_some() {
            acts.write(LoadAct::Broken(BrokenAct::Close));
        } else {
            next.set(Screen::Menu);
        }
    }
}

/// Deletes an unusable slot's file, then lists the folder again.
fn delete_slot(mut acts: MessageReader<LoadAct>, list: Res<SaveList>, mut next: ResMut<NextState<Screen>>) {
    for act in acts.read() {
        let LoadAct::Delete(k) = act else { continue };
        let Some(slot) = list.slots.get(*k) else { continue };
        match std::fs::remove_file(&slot.path) {
            Ok(()) => info!("deleted {}", slot.path.display()),
            Err(e) => warn!("{}: not deleted: {e}", slot.path.display()),
        }
        next.set(Screen::Load);
    }
}

/// The overlay over a save that does not replay to its end.
#[derive(Component)]
struct BrokenPanel;

fn show_broken(mut commands: Commands, broken: Option<Res<BrokenSave>>, shown: Query<Entity, With<BrokenPanel>>) {
    let Some(b) = broken else {
        for e in &shown {
            commands.entity(e).despawn();
        }
        return;
    };
    if !shown.is_empty() && !b.is_changed() {
        return;
    }
    for e in &shown {
        commands.entity(e).despawn();
    }
    let name = b.path.as_ref().and_then(|p| p.file_name()).map_or("This save".to_string(), |f| f.to_string_lossy().into_owned());
    commands
        .spawn((
            Name::new("Broken save"),
            BrokenPanel,
            DespawnOnExit(Screen::Load),
            GlobalZIndex(60),
            panel_in(
                Node {
                    position_type: PositionType::Absolute,
                    left: Val::Percent(15.0),
                    top: Val::Percent(22.0),
                    width: Val::Percent(70.0),
                    padding: UiRect::all(Val::Px(18.0)),
                    flex_direction: FlexDirection::Column,
                    row_gap: Val::Px(8.0),
                    ..default()
                },
                palette::PANEL_SOLID,
            ),
        ))
        .with_children(|p| {
            if b.setup.is_some() {
                p.spawn(text(format!("{name} cannot be played to its end"), 24.0, palette::BAD));
                p.spawn(text(
                    format!("{} of its {} commands replay; the game stopped before the next one instead of crashing.", b.good, b.total),
                    16.0,
                    palette::TEXT,
                ));
            } else {
                p.spawn(text(format!("{name} cannot be opened"), 24.0, palette::BAD));
            }
            p.spawn(text(b.message.clone(), 14.0, palette::DIM));
            p.spawn(Node { flex_direction: FlexDirection::Row, column_gap: Val::Px(8.0), flex_wrap: FlexWrap::Wrap, ..default() }).with_children(|r| {
                if b.setup.is_some() {
                    r.spawn(button(format!("Continue from command {}", b.good), LoadAct::Broken(BrokenAct::ContinueGood)));
                    r.spawn(button("Watch it", LoadAct::Broken(BrokenAct::Watch)));
                }
                if b.path.is_some() {
                    r.spawn(button("Delete it", LoadAct::Broken(BrokenAct::Delete)));
                }
                r.spawn(button("Back  [Esc]", LoadAct::Broken(BrokenAct::Close)));
            });
        });
}

/// Leaving the Load screen (any way: its own Back too) leaves the broken save as it is.
fn forget_broken_save(mut commands: Commands) {
    commands.remove_resource::<BrokenSave>();
}

/// The player's choice for a broken save.
fn answer_broken(mut acts: MessageReader<LoadAct>, broken: Option<Res<BrokenSave>>, mut commands: Commands, mut next: ResMut<NextState<Screen>>) {
    for act in acts.read() {
        let (LoadAct::Broken(choice), Some(b)) = (act, broken.as_deref()) else { continue };
        match choice {
            BrokenAct::ContinueGood | BrokenAct::Watch => {
                let Some(mut setup) = b.from_last_good() else { continue };
                setup.replay = *choice == BrokenAct::Watch;
                commands.insert_resource(setup);
                next.set(Screen::Match);
            }
            BrokenAct::Delete => {
                if let Some(p) = &b.path {
                    match std::fs::remove_file(p) {
                        Ok(()) => info!("deleted {}", p.display()),
                        Err(e) => warn!("{}: not deleted: {e}", p.display()),
                    }
                }
                next.set(Screen::Load);
            }
            BrokenAct::Close => next.set(Screen::Load),
        }
        commands.remove_resource::<BrokenSave>();
    }
}

/// Continue or Watch a slot: the match screen starts with it.
fn open_slot(mut acts: MessageReader<LoadAct>, list: Res<SaveList>, mut commands: Commands, mut next: ResMut<NextState<Screen>>) {
    for act in acts.read() {
        let (k, watch) = match act {
            LoadAct::Continue(k) => (*k, false),
            LoadAct::Watch(k) => (*k, true),
            _ => continue,
        };
        let Some(Ok((save, path, checked))) = list.slots.get(k).map(|s| &s.usable) else { continue };
        let mut setup = MatchSetup::from_save(path.clone(), checked.clone(), save);
        setup.save_path = list.slots.get(k).map(|s| s.path.clone());
        setup.replay = watch;
        commands.insert_resource(setup);
        next.set(Screen::Match);
    }
}
