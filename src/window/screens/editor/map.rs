//! The editor's map: the floor in view drawn with the game's tile art, its figures with the
//! game's figure art on their side's base (a letter badge names each), what lies on it as marks
//! (chests, traps, items, lights, exits, dark spaces), each problem as a red mark on its space,
//! the cursor and the selection. The pointer on the map: hovering moves the cursor, a click or
//! a drag paints, a right click inspects, the wheel zooms about the pointer and the middle
//! button drags the view (issue 46). The board camera frames the map between the panels, as
//! `MapView` says.

use super::panels::{BOTTOM_PX, LEFT_PX, RIGHT_PX, TOP_PX};
use super::state::{EditAct, Editor, EditorCursor, EditorSystems, MapView};
use crate::window::GameData;
use crate::window::board::{Art, BoardCamera, TILE_PX, palette as board_palette, tile_index};
use crate::window::screens::Screen;
use crate::window::theme::prelude::*;
use bevy::input::mouse::{MouseScrollUnit, MouseWheel};
use bevy::prelude::*;
use bevy_ecs_tilemap::prelude::*;
use doo_rules::level_file::TileSpec;
use doo_rules::rules::grid::{Board, Tile};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<EditorCursor>()
        .init_resource::<Drag>()
        .init_resource::<MapView>()
        .add_systems(OnExit(Screen::Editor), clear_map)
        .add_systems(OnEnter(Screen::Editor), spawn_map_frame)
        .add_systems(Update, point_at_map.in_set(EditorSystems::Input))
        .add_systems(Update, (draw_map, frame_map, draw_cursor).chain().in_set(EditorSystems::Draw));
}

/// The background colour over everything but the map's area, behind the editor's panels: one
/// camera draws the map and the UI, so a map zoomed in goes on under the panels; the frame
/// hides it there, as the window's background.
#[derive(Component)]
struct MapFrame;

fn spawn_map_frame(mut commands: Commands) {
    let bg = BackgroundColor(crate::window::board::palette::BACKGROUND);
    let at = |left: Option<f32>, right: Option<f32>, top: Option<f32>, bottom: Option<f32>, width: Val, height: Val| Node {
        position_type: PositionType::Absolute,
        left: left.map_or(Val::Auto, Val::Px),
        right: right.map_or(Val::Auto, Val::Px),
        top: top.map_or(Val::Auto, Val::Px),
        bottom: bottom.map_or(Val::Auto, Val::Px),
        width,
        height,
        ..default()
    };
    commands
        .spawn((
            Name::new("Map frame"),
            MapFrame,
            DespawnOnExit(Screen::Editor),
            GlobalZIndex(-1),
            Node { position_type: PositionType::Absolute, width: Val::Percent(100.0), height: Val::Percent(100.0), ..default() },
        ))
        .with_children(|f| {
            f.spawn((Name::new("Map frame, top"), at(Some(0.0), None, Some(0.0), None, Val::Percent(100.0), Val::Px(TOP_PX)), bg));
            f.spawn((Name::new("Map frame, bottom"), at(Some(0.0), None, None, Some(0.0), Val::Percent(100.0), Val::Px(BOTTOM_PX)), bg));
            f.spawn((Name::new("Map frame, left"), at(Some(0.0), None, Some(0.0), None, Val::Px(LEFT_PX), Val::Percent(100.0)), bg));
            f.spawn((Name::new("Map frame, right"), at(None, Some(0.0), Some(0.0), None, Val::Px(RIGHT_PX), Val::Percent(100.0)), bg));
        });
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

/// A figure as the board draws him (issue 46: letters alone could not tell Sister Ade from a
/// skeleton): his side's base in the side's colour, the figure art his sprite, template, name,
/// weapon or spells choose (`assets/art/figures.ron`), and a badge of his name's first letter.
fn figure(
    commands: &mut Commands,
    art: &Art,
    data: &doo_rules::data::RuleData,
    c: &doo_rules::level_file::CharacterEntry,
    side: usize,
    color: Color,
    at: Vec3,
) {
    let book = &data.figures;
    let by_name = c.name.as_ref().map(|n| n.to_lowercase().replace(' ', "_"));
    let kind = [c.sprite.as_deref(), c.template.as_deref(), by_name.as_deref()].into_iter().flatten().find(|k| book.index(k).is_some());
    let kind = book.pick(kind, c.weapon_skill.as_deref(), c.caster.unwrap_or_default());
    let mut base = Sprite::from_atlas_image(art.tokens.clone(), TextureAtlas { layout: art.tokens_layout.clone(), index: side.min(5) });
    base.custom_size = Some(Vec2::splat(TILE_PX));
    base.color = color;
    commands.spawn((MapPart, base, Transform::from_translation(at.with_z(3.0))));
    let art_sprite = Sprite {
        image: art.figures.clone(),
        texture_atlas: Some(TextureAtlas { layout: art.figures_layout.clone(), index: kind }),
        custom_size: Some(Vec2::splat(TILE_PX * 0.96)),
        ..default()
    };
    commands.spawn((MapPart, art_sprite, Transform::from_translation(at.with_z(3.2) + Vec3::Y * TILE_PX * 0.06)));
    let name = c.name.clone().or(c.template.clone()).or(c.id.clone()).unwrap_or_default();
    let letter: String = name.chars().next().map(|c| c.to_uppercase().collect()).unwrap_or_default();
    commands.spawn((
        MapPart,
        Text2d::new(letter),
        TextFont { font_size: bevy::text::FontSize::Px(10.0), ..default() },
        TextColor(Color::WHITE),
        bevy::sprite::Anchor::BOTTOM_RIGHT,
        Transform::from_translation(at.with_z(3.5) + Vec3::new(TILE_PX * 0.48, -TILE_PX * 0.44, 0.0)),
    ));
}

/// The floor in view, drawn again whenever the level changes.
fn draw_map(
    mut commands: Commands,
    editor: Option<Res<Editor>>,
    art: Option<Res<Art>>,
    data: Res<GameData>,
    old: Query<Entity, With<MapPart>>,
    mut drawn: Local<u64>,
) {
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
        let at = world_at(p.x, p.y, w, h);
        if ed.selected == Some(k) {
            mark(&mut commands, at, TILE_PX + 2.0, Color::WHITE, "", 2.5);
        }
        figure(&mut commands, &art, &data.0, c, side, color, at);
    }
    // Stairs links: where each end here leads ("F2 5,5"); the end marked for a link (Ctrl+K).
    for (here, there) in ed.doc.stairs_links_here().into_iter().take(1024) {
        let label = format!("F{} {},{}", there.floor as usize + 1, there.x, there.y);
        mark(&mut commands, world_at(here.x, here.y, w, h) + Vec3::new(0.0, -11.0, 0.0), 4.0, Color::NONE, &label, 4.0);
    }
    if let Some(p) = ed.tools.stairs_from.filter(|p| here(p)) {
        mark(&mut commands, world_at(p.x, p.y, w, h), TILE_PX, Color::srgba(1.0, 0.85, 0.2, 0.45), "", 1.3);
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

/// The board camera frames the map in the space between the panels: fitted to it, then
/// zoomed and moved as `MapView` says (a zoom by the wheel keeps the space under the pointer
/// where it is; the keyboard's cursor is kept in view). Another level opened is fitted again.
fn frame_map(
    editor: Option<Res<Editor>>,
    windows: Query<&Window>,
    ui: Res<UiScale>,
    cursor: Res<EditorCursor>,
    mut view: ResMut<MapView>,
    mut cams: Query<&mut Transform, With<BoardCamera>>,
    mut path: Local<std::path::PathBuf>,
) {
    let (Some(ed), Ok(window)) = (editor, windows.single()) else { return };
    if *path != ed.path {
        path.clone_from(&ed.path);
        *view = MapView::default();
    }
    let (w, h) = ed.doc.size();
    let s = ui.0;
    // The area between the panels, in logical pixels: the map is framed there (the editor's
    // `MapFrame` covers the rest, so a map zoomed in is never seen under the panels).
    let min = (Vec2::new(LEFT_PX, TOP_PX) * s).min(Vec2::new(window.width(), window.height()) - Vec2::ONE);
    let max = Vec2::new(window.width() - RIGHT_PX * s, window.height() - BOTTOM_PX * s).max(min + Vec2::ONE);
    let rect = Rect { min, max };
    let area = rect.size();
    let fit = ((w as f32 * TILE_PX + 16.0) / area.x).max((h as f32 * TILE_PX + 16.0) / area.y).clamp(0.1, 4.0);
    let scale = fit / 1.25f32.powi(view.zoom as i32);
    let Ok(mut t) = cams.single_mut() else { return };
    // The area's centre shows the world point `pan` (the map's centre is the origin).
    let mut pan = view.pan;
    if let Some(p) = view.pivot
        && t.scale.x > 0.0
    {
        // The area's centre C' = P - (P - C) * s' / s keeps P on the same pixel.
        let c = crate::window::board::camera::area_centre(window, rect, t.translation.truncate(), t.scale.x);
        pan = p - (p - c) * (scale / t.scale.x);
    }
    if view.follow {
        let q = world_at(cursor.0, cursor.1, w, h).truncate();
        let room = (area * scale / 2.0 - Vec2::splat(TILE_PX)).max(Vec2::ZERO);
        pan = pan.clamp(q - room, q + room);
    }
    // The map is never lost: its centre stays within half the map of the view's.
    let bound = Vec2::new(w as f32, h as f32) * TILE_PX / 2.0;
    let pan = pan.clamp(-bound, bound);
    let now = MapView { pan, scale, pivot: None, follow: false, ..*view };
    if *view != now {
        *view = now;
    }
    let want = crate::window::board::camera::camera_at(window, rect, pan, scale).extend(100.0);
    if t.translation != want || t.scale.x != scale {
        *t = Transform::from_translation(want).with_scale(Vec3::splat(scale));
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
    mut wheel: MessageReader<MouseWheel>,
    mut view: ResMut<MapView>,
    mut grabbed: Local<Option<Vec2>>,
) {
    let Some(ed) = editor else {
        wheel.clear();
        return;
    };
    if ed.typing.is_some() || ed.opening {
        drag.0.cancel();
        wheel.clear();
        return;
    }
    let (Ok(window), Ok((cam, cam_t))) = (windows.single(), cams.single()) else { return };
    let pointer = window.cursor_position();
    let Some(world) = pointer.and_then(|p| cam.viewport_to_world_2d(cam_t, p).ok()) else {
        wheel.clear();
        return;
    };
    // The wheel zooms about the pointer; the middle button drags the view (issue 46).
    let turned: f32 = wheel.read().map(|m| if m.unit == MouseScrollUnit::Line { m.y } else { m.y / 40.0 }).sum();
    if turned != 0.0 && !over_ui.0 {
        view.pivot = Some(world);
        acts.write(EditAct::Zoom(if turned > 0.0 { 1 } else { -1 }));
    }
    match (mouse.pressed(MouseButton::Middle), pointer, *grabbed) {
        (true, Some(p), Some(from)) if p != from => {
            let d = p - from;
            acts.write(EditAct::Pan(-d.x.round() as i32, -d.y.round() as i32));
            *grabbed = Some(p);
        }
        (true, Some(p), None) if !over_ui.0 => *grabbed = Some(p),
        (false, _, _) => *grabbed = None,
        _ => {}
    }
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
