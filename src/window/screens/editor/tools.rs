//! The editor's shape, stamp, mirror, turn, find and rename tools (issue 46, "Tools"): the
//! window's side of `doo_rules::level_edit`'s `paint_rect`, `paint_line`, `stamp` /
//! `paste_stamp`, `paint_mirrored`, `turn_selection`, `find_ids` and `rename_id`. Also keeps
//! the figure form's full HP, MP and FP (the level as built) for the figure in the form.

use super::state::{ApplyActs, EditAct, Editor, EditorCursor, EditorSystems, Field, MapView, rename_target};
use crate::window::GameData;
use bevy::prelude::*;
use doo_rules::level_edit::{TILES, Turn};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, (jump_to_found, fill_full_pools).in_set(EditorSystems::Apply).after(ApplyActs))
        .add_systems(Update, draw_sight.in_set(EditorSystems::Draw))
        .add_systems(OnExit(crate::window::screens::Screen::Editor), clear_sight);
}

/// The turns' order in `EditAct::Turn`.
pub const TURNS: [(Turn, &str); 4] = [(Turn::Cw, "clockwise"), (Turn::Ccw, "anticlockwise"), (Turn::FlipH, "left to right"), (Turn::FlipV, "top to bottom")];

/// The map character the brush holds (shapes draw map characters only).
fn tile_char(ed: &Editor) -> Option<char> {
    match ed.tool {
        super::state::Tool::Tile(k) => TILES.get(k as usize).map(|t| t.0),
        _ => None,
    }
}

/// One of the acts above made; true when the level changed.
pub(super) fn tool_act(ed: &mut Editor, act: EditAct, cursor: EditorCursor) -> bool {
    let area = ed.area(cursor);
    match act {
        EditAct::Outline | EditAct::Line => {
            let Some(ch) = tile_char(ed) else {
                ed.status = "Shapes draw a map character: pick one first (1 to 9, 0, -), then Ctrl+R (outline) or Ctrl+L (line).".into();
                return false;
            };
            let mirror = ed.tools.mirror;
            let done = if act == EditAct::Outline {
                ed.doc.paint_rect(area, ch, false, mirror)
            } else {
                ed.doc.paint_line(ed.anchor.unwrap_or((cursor.0, cursor.1)), (cursor.0, cursor.1), ch, mirror)
            };
            let what = if act == EditAct::Outline { "the selection's outline" } else { "a line from the selection's first corner to the cursor" };
            ed.status = if done { format!("Drew {what} in {}.", ed.tool_name(ed.tool)) } else { "Nothing to draw: those spaces hold that already.".into() };
            ed.anchor = None;
            done
        }
        EditAct::MirrorMode => {
            ed.tools.mirror = ed.tools.mirror.next();
            ed.status = format!(
                "Mirror: {}. A paint, an erase or a figure put down is also done in the mirrored spaces{}.",
                ed.tools.mirror.word(),
                if ed.tools.swap_sides { "; a mirrored figure joins the opposing side" } else { "" }
            );
            ed.generation += 1;
            false
        }
        EditAct::MirrorSides => {
            ed.tools.swap_sides = !ed.tools.swap_sides;
            ed.status = if ed.tools.swap_sides {
                "Mirrored figures join the opposing side (across both lines: their own side).".into()
            } else {
                "Mirrored figures keep their side.".into()
            };
            ed.generation += 1;
            false
        }
        EditAct::Turn(k) => {
            let Some((t, word)) = TURNS.get(k as usize) else { return false };
            match ed.doc.turn_selection(area, *t) {
                Ok(r) => {
                    ed.anchor = Some((r.x0, r.y0));
                    ed.status = format!("Turned the selection {word}: what stands on it went with it (Ctrl+Z undoes).");
                    true
                }
                Err(e) => {
                    ed.status = e;
                    false
                }
            }
        }
        EditAct::Find => {
            ed.typing = Some((Field::Find, ed.tools.query.clone()));
            ed.status = "Find: type an id or part of one, Enter shows it (Enter again: the next).".into();
            false
        }
        EditAct::Rename => {
            match rename_target(ed) {
                Some((_, id)) => {
                    ed.typing = Some((Field::Rename, id.clone()));
                    ed.status = format!("Rename {id}: type the new id, Enter renames it everywhere it is named.");
                }
                None => ed.status = "Rename: find an id first (Ctrl+F) or select a figure, then Ctrl+E.".into(),
            }
            false
        }
        EditAct::Sight => {
            ed.tools.sight = !ed.tools.sight;
            ed.status = if ed.tools.sight {
                "Sight preview: the spaces a hero standing on the cursor would not see are dimmed (the rules' sight: walls, doors, dark and lights). Ctrl+I turns it off.".into()
            } else {
                "Sight preview off.".into()
            };
            ed.generation += 1;
            false
        }
        EditAct::Stairs => {
            let here = doo_rules::rules::Pos::on(cursor.0, cursor.1, ed.doc.floor as u8);
            ed.generation += 1;
            match ed.tools.stairs_from.take() {
                None if doo_rules::level_edit::is_stairs(&ed.doc.level, here) => {
                    ed.tools.stairs_from = Some(here);
                    ed.status = format!(
                        "Stairs ({}, {}) marked: go to the other end (PageUp/PageDown for another floor) and press Ctrl+K on it (on the same stairs again: cancel).",
                        here.x, here.y
                    );
                    false
                }
                None => {
                    ed.status = "Put the cursor on stairs (> or <) and press Ctrl+K, then on the stairs they lead to.".into();
                    false
                }
                Some(from) if from == here => {
                    ed.status = "Stairs link cancelled.".into();
                    false
                }
                Some(from) => match ed.doc.link_stairs(from, here) {
                    Ok(said) => {
                        ed.status = said;
                        true
                    }
                    Err(e) => {
                        ed.tools.stairs_from = Some(from);
                        ed.status = e;
                        false
                    }
                },
            }
        }
        EditAct::Copy => {
            ed.status = ed.tools.hand.copy(ed.doc.stamp(area));
            false
        }
        EditAct::KeepStamp => {
            match ed.tools.hand.hold(ed.doc.stamp(area)) {
                Ok(said) => {
                    ed.status = said;
                    ed.typing = Some((Field::StampName, String::new()));
                }
                Err(e) => ed.status = e,
            }
            false
        }
        EditAct::NextStamp => {
            ed.status = ed.tools.hand.next(&crate::window::screens::levels::levels_dir());
            false
        }
        EditAct::Paste => match ed.tools.hand.stamp.take() {
            Some(stamp) => {
                let pasted = ed.doc.paste_stamp_mirrored(cursor.0, cursor.1, &stamp, ed.tools.mirror);
                ed.tools.hand.stamp = Some(stamp);
                ed.status = ed.tools.hand.pasted_line(&pasted);
                pasted.edited
            }
            None => {
                ed.status = "Nothing copied yet: select spaces (Shift+arrows or drag) and press Ctrl+C.".into();
                false
            }
        },
        _ => false,
    }
}

/// The cursor (and the floor in view) goes to the space Find showed.
fn jump_to_found(editor: Option<ResMut<Editor>>, mut cursor: ResMut<EditorCursor>, mut view: ResMut<MapView>) {
    let Some(mut ed) = editor else { return };
    if ed.tools.jump.is_none() {
        return;
    }
    let Some(p) = ed.tools.jump.take() else { return };
    if ed.doc.floor != p.floor as usize && (p.floor as usize) < ed.doc.level.floors.len().max(1) {
        ed.doc.floor = p.floor as usize;
        ed.selected = None;
        ed.inspected = None;
    }
    ed.anchor = None;
    ed.generation += 1;
    *cursor = EditorCursor(p.x, p.y);
    // What stands there is shown in the inspectors (a figure found is selected); Find's line stays.
    let said = std::mem::take(&mut ed.status);
    ed.inspect(p.x, p.y);
    ed.status = said;
    view.follow = true;
}

/// The figure form's full HP, MP and FP: the figure as the level builds it (not known when it
/// does not build).
fn fill_full_pools(editor: Option<ResMut<Editor>>, data: Res<GameData>, mut done: Local<Option<(usize, u64)>>) {
    let Some(mut ed) = editor else { return };
    let Some(k) = ed.figure_open else {
        *done = None;
        return;
    };
    if *done == Some((k, ed.generation)) {
        return;
    }
    *done = Some((k, ed.generation));
    let id = ed.doc.level.characters.get(k).and_then(|c| c.id.clone());
    let text = ed.doc.text();
    let full = doo_rules::level_file::check("level", &text, &data.0, &ed.root())
        .ok()
        .and_then(|c| c.build(&data.0).ok())
        .and_then(|m| m.fighters.iter().find(|f| Some(&f.id) == id.as_ref()).map(|f| [f.max_hp, f.max_mp, f.max_fp]));
    if ed.figure_lists.full != full {
        ed.bypass_change_detection().figure_lists.full = full;
    }
}

/// A dimmed space of the sight preview.
#[derive(Component)]
struct SightPart;

fn clear_sight(mut commands: Commands, parts: Query<Entity, With<SightPart>>) {
    for e in &parts {
        commands.entity(e).despawn();
    }
}

/// The sight preview (Ctrl+I): the spaces of the floor in view a figure on the cursor would not
/// see, dimmed; drawn again when the cursor moves or the level changes (the level built again
/// only when it changed).
fn draw_sight(
    mut commands: Commands,
    editor: Option<ResMut<Editor>>,
    cursor: Res<EditorCursor>,
    data: Res<GameData>,
    old: Query<Entity, With<SightPart>>,
    mut last: Local<Option<(EditorCursor, u64, usize)>>,
    mut built: Local<Option<(u64, Option<doo_rules::rules::Match>)>>,
) {
    let Some(mut ed) = editor else { return };
    let now = (*cursor, ed.generation, ed.doc.floor);
    if !ed.tools.sight {
        if last.is_some() {
            *last = None;
            for e in &old {
                commands.entity(e).despawn();
            }
        }
        return;
    }
    if *last == Some(now) {
        return;
    }
    *last = Some(now);
    for e in &old {
        commands.entity(e).despawn();
    }
    if built.as_ref().is_none_or(|(g, _)| *g != ed.generation) {
        let text = ed.doc.text();
        let m = doo_rules::level_file::check("level", &text, &data.0, &ed.root()).ok().and_then(|c| c.build(&data.0).ok());
        *built = Some((ed.generation, m));
    }
    let Some((_, Some(m))) = built.as_ref() else {
        ed.bypass_change_detection().status = "Sight preview: the level does not build yet (see the problems).".into();
        return;
    };
    let at = doo_rules::rules::Pos::on(cursor.0, cursor.1, ed.doc.floor as u8);
    let seen = match doo_rules::level_edit::sight_preview(m, at) {
        Ok(s) => s,
        Err(e) => {
            ed.bypass_change_detection().status = format!("Sight preview: {e}");
            return;
        }
    };
    let (w, h) = ed.doc.size();
    let mut lit = vec![false; w * h];
    for p in seen.iter().filter(|p| p.x >= 0 && p.y >= 0 && (p.x as usize) < w && (p.y as usize) < h) {
        lit[p.y as usize * w + p.x as usize] = true;
    }
    let tile = crate::window::board::TILE_PX;
    for y in 0..h {
        for x in 0..w {
            if !lit[y * w + x] {
                let at = Vec3::new((x as f32 - (w as f32 - 1.0) / 2.0) * tile, ((h as f32 - 1.0) / 2.0 - y as f32) * tile, 5.5);
                commands.spawn((SightPart, Sprite::from_color(Color::srgba(0.0, 0.0, 0.04, 0.72), Vec2::splat(tile)), Transform::from_translation(at)));
            }
        }
    }
}
