//! The editor's map: the floor in view drawn with the game's tile art, what stands and lies on
//! it as marks (figures in their side's colour with a letter, chests, traps, items, lights,
//! exits, dark spaces), each problem as a red mark on its space, the cursor and the selection.
//! The pointer on the map: hovering moves the cursor, a click or a drag paints, a right click
//! inspects. The board camera frames the map between the panels.

use super::panels::{BOTTOM_PX, LEFT_PX, RIGHT_PX, TOP_PX};
use super::state::{EditAct, Editor, EditorCursor, EditorSystems};
use crate::window::board::{Art, BoardCamera, TILE_PX, palette as board_palette, tile_index};
use crate::window::screens::Screen;
use crate::window::theme::prelude::*;
use bevy::prelude::*;
use bevy_ecs_tilemap::prelude::*;
use doo_rules::level_file::TileSpec;
use doo_rules::rules::grid::{Board, Tile};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<EditorCursor>()
        .init_resource::<Drag>()
        .add_systems(OnExit(Screen::Editor), clear_map)
        .add_systems(Update, point_at_map.in_set(EditorSystems::Input))
        .add_systems(Update, (draw_map, frame_map, draw_cursor).chain().in_set(EditorSystems::Draw));
}

/// A part of the editor's map (cleared when it is drawn again and when the editor closes).
#[derive(Component)]
struct MapPart;

#[derive(Component)]
struct CursorPart;

/// The left button's stroke on the map (where a drag began).
#[derive(Resource, Debug, Default)]
struct Drag(doo_rules::level_edit::Stroke);

fn clear_map(mut commands: Commands, parts: Query<Entity, Or<(With<MapPart>, With<CursorPart>)>>) {
    for e in &parts {
        commands.entity(e).despawn();
    }
}

/// World position of a space's centre (the map centred on the origin, as the board does).
fn world_at(x: i32, y: i32, w: usize, h: usize) -> Vec3 {
    Vec3::new((x as f32 - (w as f32 - 1.0) / 2.0) * TILE_PX, ((h as f32 - 1.0) / 2.0 - y as f32) * TILE_PX, 0.0)
}

/// The tile a map character is drawn as (a legend entry first; an unknown one as a pit, with
/// its problem marked).
fn tile_of(c: char, ed: &Editor) -> Tile {
    let spec = ed.doc.level.legend.get(&c).copied();
    match spec {
        Some(TileSpec::Floor) => Tile::Floor,
        Some(TileSpec::Wall) => Tile::Wall,
        Some(TileSpec::DoorOpen) => Tile::DoorOpen,
        Some(TileSpec::DoorClosed | TileSpec::SecretDoor) => Tile::DoorClosed,
        Some(TileSpec::DoorLocked) => Tile::DoorLocked,
        Some(TileSpec::Pillar) => Tile::Pillar,
        Some(TileSpec::Pit) => Tile::Pit,
        Some(TileSpec::Difficult) => Tile::Difficult,
        Some(TileSpec::StairsUp | TileSpec::StairsDown) => Tile::Stairs { to: 0 },
        None if c == 'S' => Tile::DoorClosed,
        None => Board::legend(c).unwrap_or(Tile::Pit),
    }
}

fn mark(commands: &mut Commands, at: Vec3, size: f32, color: Color, label: &str, z: f32) {
    commands.spawn((MapPart, Sprite::from_color(color, Vec2::splat(size)), Transform::from_translation(at.with_z(z))));
    if !label.is_empty() {
        commands.spawn((
            MapPart,
            Text2d::new(label.to_string()),
            TextFont { font_size: bevy::text::FontSize::Px(14.0), ..default() },
            TextColor(Color::WHITE),
            Transform::from_translation(at.with_z(z + 0.5)),
        ));
    }
}

/// The floor in view, drawn again whenever the level changes.
fn draw_map(mut commands: Commands, editor: Option<Res<Editor>>, art: Option<Res<Art>>, old: Query<Entity, With<MapPart>>, mut drawn: Local<u64>) {
    let (Some(ed), Some(art)) = (editor, art) else { return };
    if *drawn == ed.generation && !old.is_empty() {
        return;
    }
    *drawn = ed.generation;
    for e in &old {
        commands.entity(e).despawn();
    }
    let (w, h) = ed.doc.size();
    if w == 0 || h == 0 {
        return;
    }
    let f = ed.doc.floor;
    let size = TilemapSize { x: w as u32, y: h as u32 };
    let map = commands.spawn((Name::new("Editor map"), MapPart)).id();
    let mut storage = TileStorage::empty(size);
    for y in 0..h as i32 {
        for x in 0..w as i32 {
            let c = ed.doc.tile(x, y).unwrap_or('#');
            let pos = TilePos { x: x as u32, y: (h as i32 - 1 - y) as u32 };
            let tile = commands
                .spawn((
                    MapPart,
                    TileBundle { position: pos, tilemap_id: TilemapId(map), texture_index: TileTextureIndex(tile_index(tile_of(c, &ed), x, y)), ..default() },
                ))
                .id();
            storage.set(&pos, tile);
            let at = world_at(x, y, w, h);
            match c {
                'S' => mark(&mut commands, at, 12.0, Color::srgba(0.5, 0.3, 0.7, 0.9), "S", 2.0),
                '>' => mark(&mut commands, at, 10.0, Color::srgba(0.2, 0.2, 0.2, 0.6), "up", 2.0),
                '<' => mark(&mut commands, at, 10.0, Color::srgba(0.2, 0.2, 0.2, 0.6), "dn", 2.0),
                _ => {}
            }
        }
    }
    commands.entity(map).insert(crate::window::board::tiles::floor_tilemap(size, storage, &art, Vec3::ZERO));
    let l = &ed.doc.level;
    let here = |p: &doo_rules::rules::Pos| p.floor as usize == f;
    for a in l.dark.iter().filter(|a| here(&a.from)) {
        // Only the spaces on the map (a file's area may be any size).
        let r = doo_rules::level_edit::Rect::new((a.from.x, a.from.y), (a.to.x, a.to.y));
        let r = doo_rules::level_edit::Rect { x0: r.x0.max(0), y0: r.y0.max(0), x1: r.x1.min(w as i32 - 1), y1: r.y1.min(h as i32 - 1) };
        for (x, y) in r.cells() {
            mark(&mut commands, world_at(x, y, w, h), TILE_PX, Color::srgba(0.0, 0.0, 0.05, 0.55), "", 1.0);
        }
    }
    for v in &l.victory {
        if let doo_rules::level_file::Goal::ReachExit(e) = &v.goal {
            for p in e.iter().filter(|p| here(p)) {
                mark(&mut commands, world_at(p.x, p.y, w, h), 26.0, Color::srgba(0.2, 0.8, 0.3, 0.45), "EXIT", 1.5);
            }
        }
    }
    for c in l.chests.iter().filter(|c| here(&c.pos)) {
        mark(&mut commands, world_at(c.pos.x, c.pos.y, w, h), 20.0, Color::srgb(0.55, 0.35, 0.15), "C", 2.0);
    }
    for t in l.traps.iter().filter(|t| here(&t.pos)) {
        mark(&mut commands, world_at(t.pos.x, t.pos.y, w, h), 14.0, Color::srgba(0.8, 0.2, 0.2, 0.8), "^", 2.0);
    }
    for i in l.items.iter().filter(|i| here(&i.pos)) {
        mark(&mut commands, world_at(i.pos.x, i.pos.y, w, h), 10.0, Color::srgb(0.3, 0.6, 0.9), "i", 2.0);
    }
    for li in l.lights.iter().filter(|li| li.pos.as_ref().is_some_and(here)) {
        let p = li.pos.unwrap_or_default();
        mark(&mut commands, world_at(p.x, p.y, w, h), 12.0, Color::srgb(0.95, 0.8, 0.3), "*", 2.0);
    }
    let sides: Vec<&str> = l.sides.iter().map(|s| s.id.as_str()).collect();
    let colours = board_palette::side_colours(&l.sides.iter().map(|s| (s.id.clone(), s.name.clone())).collect::<Vec<_>>(), false);
    for (k, c) in l.characters.iter().enumerate() {
        let Some(p) = c.pos.filter(|p| here(p)) else { continue };
        let side = c.side.as_deref().and_then(|s| sides.iter().position(|x| *x == s)).unwrap_or(0);
        let color = colours.get(side).copied().unwrap_or(board_palette::SIDES[side % board_palette::SIDES.len()]);
        let name = c.name.clone().or(c.template.clone()).or(c.id.clone()).unwrap_or_default();
        let letter: String = name.chars().next().map(|c| c.to_uppercase().collect()).unwrap_or_default();
        let size = if ed.selected == Some(k) { 28.0 } else { 22.0 };
        if ed.selected == Some(k) {
            mark(&mut commands, world_at(p.x, p.y, w, h), 30.0, Color::WHITE, "", 2.5);
        }
        mark(&mut commands, world_at(p.x, p.y, w, h), size, color, &letter, 3.0);
    }
    // The spaces each level event watches: a violet tint, its id in the first space.
    for (id, r) in ed.doc.event_areas() {
        for (x, y) in r.cells().take(64 * 64) {
            mark(&mut commands, world_at(x, y, w, h), TILE_PX, Color::srgba(0.6, 0.3, 0.9, 0.18), "", 1.2);
        }
        let label: String = id.chars().take(8).collect();
        mark(&mut commands, world_at(r.x0, r.y0, w, h) + Vec3::new(0.0, 10.0, 0.0), 4.0, Color::NONE, &label, 4.0);
    }
    // Each problem on its space: a red frame and "!".
    for pr in &ed.problems {
        if let Some((pf, x, y)) = pr.at
            && pf == f
            && x >= 0
            && y >= 0
            && (x as usize) < w
            && (y as usize) < h
        {
            mark(&mut commands, world_at(x, y, w, h) + Vec3::new(10.0, 10.0, 0.0), 12.0, palette::BAD, "!", 5.0);
        }
    }
}

/// The board camera frames the map in the space between the panels.
fn frame_map(editor: Option<Res<Editor>>, windows: Query<&Window>, ui: Res<UiScale>, mut cam: Query<&mut Transform, With<BoardCamera>>) {
    let (Some(ed), Ok(window)) = (editor, windows.single()) else { return };
    let (w, h) = ed.doc.size();
    let win = Vec2::new(window.width(), window.height());
    let s = ui.0;
    let area = Vec2::new(win.x - (LEFT_PX + RIGHT_PX) * s, win.y - (TOP_PX + BOTTOM_PX) * s).max(Vec2::splat(100.0));
    let scale = ((w as f32 * TILE_PX + 16.0) / area.x).max((h as f32 * TILE_PX + 16.0) / area.y).clamp(0.2, 2.0);
    // The map's centre (the origin) at the centre of the area between the panels.
    let d = Vec2::new((LEFT_PX - RIGHT_PX) * s / 2.0, (BOTTOM_PX - TOP_PX) * s / 2.0);
    let want = Transform::from_xyz(-d.x * scale, -d.y * scale, 100.0).with_scale(Vec3::splat(scale));
    for mut t in &mut cam {
        if *t != want {
            *t = want;
        }
    }
}

/// The cursor's frame and the selection, drawn again when they move.
fn draw_cursor(
    mut commands: Commands,
    editor: Option<Res<Editor>>,
    cursor: Res<EditorCursor>,
    old: Query<Entity, With<CursorPart>>,
    mut last: Local<Option<(EditorCursor, Option<(i32, i32)>, u64)>>,
) {
    let Some(ed) = editor else { return };
    let now = (*cursor, ed.anchor, ed.generation);
    if *last == Some(now) {
        return;
    }
    *last = Some(now);
    for e in &old {
        commands.entity(e).despawn();
    }
    let (w, h) = ed.doc.size();
    let area = ed.area(*cursor);
    for (x, y) in area.cells().take(64 * 64) {
        let at = world_at(x, y, w, h).with_z(6.0);
        commands.spawn((CursorPart, Sprite::from_color(Color::srgba(0.4, 0.7, 1.0, 0.25), Vec2::splat(TILE_PX)), Transform::from_translation(at)));
    }
    let at = world_at(cursor.0, cursor.1, w, h).with_z(7.0);
    for (dx, dy, sx, sy) in [(0.0, 15.0, 32.0, 2.0), (0.0, -15.0, 32.0, 2.0), (15.0, 0.0, 2.0, 32.0), (-15.0, 0.0, 2.0, 32.0)] {
        commands.spawn((CursorPart, Sprite::from_color(Color::WHITE, Vec2::new(sx, sy)), Transform::from_translation(at + Vec3::new(dx, dy, 0.0))));
    }
}

/// The pointer on the map: hovering moves the cursor; the left button paints the space, or
/// the rectangle dragged; the right button inspects the space.
#[allow(clippy::too_many_arguments)]
fn point_at_map(
    editor: Option<Res<Editor>>,
    windows: Query<&Window>,
    cams: Query<(&Camera, &GlobalTransform), With<BoardCamera>>,
    mouse: Res<ButtonInput<MouseButton>>,
    over_ui: Res<PointerOverUi>,
    mut drag: ResMut<Drag>,
    mut acts: MessageWriter<EditAct>,
    mut hovered: Local<Option<(i32, i32)>>,
) {
    let Some(ed) = editor else { return };
    if ed.typing.is_some() || ed.opening {
        drag.0.cancel();
        return;
    }
    let (Ok(window), Ok((cam, cam_t))) = (windows.single(), cams.single()) else { return };
    let Some(world) = window.cursor_position().and_then(|p| cam.viewport_to_world_2d(cam_t, p).ok()) else { return };
    let (w, h) = ed.doc.size();
    let x = (world.x / TILE_PX + (w as f32 - 1.0) / 2.0).round() as i32;
    let y = ((h as f32 - 1.0) / 2.0 - world.y / TILE_PX).round() as i32;
    let inside = x >= 0 && y >= 0 && (x as usize) < w && (y as usize) < h;
    let on_map = inside && !over_ui.0;
    if on_map && *hovered != Some((x, y)) {
        *hovered = Some((x, y));
        acts.write(EditAct::Hover(x, y));
    }
    // The press first, then the release: a click whose press and release fall in one frame is
    // one click (issue 42).
    if let Some(((x0, y0), (x1, y1))) = drag.0.frame(mouse.just_pressed(MouseButton::Left), mouse.just_released(MouseButton::Left), (x, y), on_map, (w, h)) {
        acts.write(EditAct::Paint(x0, y0, x1, y1));
        return;
    }
    if !on_map {
        return;
    }
    if mouse.just_pressed(MouseButton::Right) {
        acts.write(EditAct::Pick(x, y));
    }
}
