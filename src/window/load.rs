//! The Load screen: the saves in the save folder (the autosave first, then the named slots,
//! newest first), each with its level, turn, players and date. "Continue" goes on playing it,
//! "Watch" opens it in the replay viewer. A save that cannot be used says why (its file and
//! line, a missing or changed level) and is not offered.

use super::screens::{GameData, MatchSetup, Screen};
use super::ui::{Act, Disabled, button, colors, panel, text};
use crate::save::Save;
use bevy::prelude::*;
use std::path::PathBuf;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<SaveList>()
        .add_systems(OnEnter(Screen::Load), (scan_saves, spawn_load).chain())
        .add_systems(Update, (load_keys, open_slot).chain().run_if(in_state(Screen::Load)));
}

/// Saves listed at most (the newest), and the largest file read.
const MAX_LISTED_SAVES: usize = 60;
const MAX_SAVE_BYTES: u64 = 8 << 20;

/// One file of the save folder: the save and what it needs, or why it cannot be used.
pub struct Slot {
    pub path: PathBuf,
    pub usable: Result<(Save, PathBuf, crate::level_file::CheckedLevel), String>,
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
    let dir = crate::replay::save_dir();
    *list = SaveList::default();
    match list_saves(&dir) {
        Ok(files) => {
            for path in files {
                let big = std::fs::metadata(&path).map(|m| m.len() > MAX_SAVE_BYTES).unwrap_or(false);
                let usable = if big {
                    Err(format!("{}: larger than {} MB, not read", path.display(), MAX_SAVE_BYTES >> 20))
                } else {
                    crate::cli::load_save(&path, &data.0).map_err(|e| e.to_string())
                };
                list.slots.push(Slot { path, usable });
            }
        }
        Err(e) => list.error = Some(e),
    }
}

fn spawn_load(mut commands: Commands, list: Res<SaveList>) {
    let dir = crate::replay::save_dir();
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
            p.spawn(text("Load a saved match", 40.0, colors::GOLD));
            p.spawn(text(format!("Saves in {}", dir.display()), 14.0, colors::DIM));
            if let Some(e) = &list.error {
                p.spawn(text(e.clone(), 15.0, colors::BAD));
            }
            if list.slots.is_empty() && list.error.is_none() {
                p.spawn(text("No saves yet: every match is autosaved, and the match menu (Esc) saves it under a name.", 16.0, colors::TEXT));
            }
            p.spawn(panel(Node {
                flex_direction: FlexDirection::Column,
                padding: UiRect::all(Val::Px(8.0)),
                overflow: Overflow::scroll_y(),
                max_height: Val::Percent(75.0),
                // A long save name or summary wraps instead of pushing the buttons off the window.
                max_width: Val::Percent(95.0),
                ..default()
            }))
            .with_children(|l| {
                for (k, slot) in list.slots.iter().enumerate() {
                    l.spawn(Node { flex_direction: FlexDirection::Row, align_items: AlignItems::Center, column_gap: Val::Px(8.0), ..default() }).with_children(
                        |r| {
                            let file = slot.path.file_name().map_or(String::new(), |f| f.to_string_lossy().into_owned());
                            match &slot.usable {
                                Ok((save, _, _)) => {
                                    r.spawn(button("Continue", Act::LoadSlot(k)));
                                    r.spawn(button("Watch", Act::WatchSlot(k)));
                                    let name = if save.label.is_empty() { file } else { save.label.clone() };
                                    r.spawn(Node { flex_direction: FlexDirection::Column, flex_shrink: 1.0, min_width: Val::Px(0.0), ..default() })
                                        .with_children(|t| {
                                            t.spawn(text(name, 17.0, colors::TEXT));
                                            t.spawn(text(save.summary(), 13.0, colors::DIM));
                                        });
                                }
                                Err(e) => {
                                    r.spawn((button("Continue", Act::LoadSlot(k)), Disabled));
                                    r.spawn(Node { flex_direction: FlexDirection::Column, flex_shrink: 1.0, min_width: Val::Px(0.0), ..default() })
                                        .with_children(|t| {
                                            t.spawn(text(file, 17.0, colors::DIM));
                                            t.spawn(text(first_line(e), 13.0, colors::BAD));
                                        });
                                }
                            }
                        },
                    );
                }
            });
            p.spawn(button("Back  [Esc]", Act::ToMenu));
        });
}

fn first_line(e: &str) -> String {
    let l = e.lines().next().unwrap_or_default();
    if l.chars().count() > 140 { l.chars().take(140).collect::<String>() + "..." } else { l.to_string() }
}

fn load_keys(keys: Res<ButtonInput<KeyCode>>, mut next: ResMut<NextState<Screen>>) {
    if keys.just_pressed(KeyCode::Escape) {
        next.set(Screen::Menu);
    }
}

/// Continue or Watch a slot: the match screen starts with it.
fn open_slot(mut acts: MessageReader<Act>, list: Res<SaveList>, mut commands: Commands, mut next: ResMut<NextState<Screen>>) {
    for act in acts.read() {
        let (k, watch) = match act {
            Act::LoadSlot(k) => (*k, false),
            Act::WatchSlot(k) => (*k, true),
            _ => continue,
        };
        let Some(Ok((save, path, checked))) = list.slots.get(k).map(|s| &s.usable) else { continue };
        let mut setup = MatchSetup::from_save(path.clone(), checked.clone(), save);
        setup.replay = watch;
        commands.insert_resource(setup);
        next.set(Screen::Match);
    }
}
