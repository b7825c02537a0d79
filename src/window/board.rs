//! The board: the level's floors as bevy_ecs_tilemap maps drawn with the generated art, the
//! rules' previews as highlights (reachable spaces with their cost, targets), and the pointer
//! and the keyboard cursor: the hovered space and clicks become `Intent`s. The miniatures are
//! in `figures.rs`.

use super::ui::PointerOverUi;
use crate::game::MatchSystems;
use crate::game::components::{CharacterId, GridPos, MatchGeneration, MatchState};
use crate::game::intent::{Intent, PlayerView};
use crate::rules::Board;
use crate::rules::Pos;
use crate::rules::grid::Tile;
use crate::rules::preview::{Aim, MoveKind};
use bevy::prelude::*;
use bevy_ecs_tilemap::prelude::*;

/// World units per space (the art is 32 px: 1:1 at zoom 1).
pub const TILE_PX: f32 = 32.0;

pub mod palette {
    use bevy::prelude::Color;
    pub const BACKGROUND: Color = Color::srgb(0.06, 0.05, 0.07);
    /// Side colours: blue/orange/green/purple are told apart by most colour-blind players, and
    /// each side also has its own token shape (circle, square, diamond, hexagon).
    pub const SIDES: [Color; 4] = [Color::srgb(0.30, 0.55, 0.95), Color::srgb(0.95, 0.58, 0.18), Color::srgb(0.35, 0.78, 0.42), Color::srgb(0.72, 0.45, 0.88)];
    pub const FREE: Color = Color::srgba(0.30, 0.85, 0.40, 0.38);
    pub const STEP: Color = Color::srgba(0.30, 0.65, 0.95, 0.36);
    pub const RUN: Color = Color::srgba(0.98, 0.62, 0.20, 0.36);
    pub const AIM_SPACE: Color = Color::srgba(0.80, 0.40, 0.95, 0.45);
    pub const PATH: Color = Color::srgba(1.0, 1.0, 1.0, 0.85);
    pub const TARGET: Color = Color::srgb(1.0, 0.30, 0.25);
    /// A4: a square the planned walk leaves under threat (an attack of opportunity).
    pub const THREAT: Color = Color::srgba(1.0, 0.15, 0.15, 0.55);
}

/// Tile atlas indices of `assets/art/tiles.png` (see examples/gen_art.rs).
pub(super) mod atlas {
    pub const FLOOR: u32 = 0;
    pub const FLOOR_ALT: u32 = 1;
    pub const WALL: u32 = 2;
    pub const DOOR: u32 = 3;
    pub const DOOR_OPEN: u32 = 4;
    pub const DOOR_LOCKED: u32 = 5;
    pub const PILLAR: u32 = 6;
    pub const PIT: u32 = 7;
    pub const STAIRS: u32 = 8;
    pub const DIFFICULT: u32 = 9;
    pub const EXIT: usize = 10;
    pub const RING: usize = 4;
    pub const RETICLE: usize = 5;
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<ShownFloor>()
        .init_resource::<HoveredSpace>()
        .init_resource::<TokensMoving>()
        .init_resource::<KeyCursor>()
        .add_systems(Startup, load_art)
        .add_systems(
            Update,
            (track_hover, move_key_cursor, click_board, switch_floor)
                .chain()
                .in_set(MatchSystems::Input)
                .in_set(BoardInput)
                .run_if(in_state(super::screens::Screen::Match))
                .run_if(no_overlay),
        )
        .add_systems(OnExit(super::screens::Screen::Match), despawn_board)
        .add_systems(
            Update,
            spawn_board.run_if(resource_exists::<MatchState>.and_then(resource_changed::<MatchGeneration>)).in_set(MatchSystems::Present).in_set(BoardDrawn),
        )
        .add_systems(
            Update,
            (show_floor, show_highlights, show_key_cursor).chain().in_set(MatchSystems::Present).after(spawn_board).after(super::fog::FogDrawn),
        );
}

/// Pointer and key input on the board.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct BoardInput;

/// The board (re)built: the fog and the crawl's markers draw after it.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct BoardDrawn;

/// Whether a full-screen overlay (handover, help, result) takes the input.
fn no_overlay(o: Res<super::hud::Overlay>) -> bool {
    o.blocks_board().is_none()
}

/// The art atlases.
#[derive(Resource, Clone)]
pub struct Art {
    pub tiles: Handle<Image>,
    pub tiles_layout: Handle<TextureAtlasLayout>,
    pub tokens: Handle<Image>,
    pub tokens_layout: Handle<TextureAtlasLayout>,
    /// The figures and their marks (`assets/art/figures.png`, see `assets/art/figures.ron`).
    pub figures: Handle<Image>,
    pub figures_layout: Handle<TextureAtlasLayout>,
}

fn load_art(mut commands: Commands, server: Res<AssetServer>, mut layouts: ResMut<Assets<TextureAtlasLayout>>, data: Res<super::screens::GameData>) {
    // The figures' cells: the kinds and marks of `assets/art/figures.ron`.
    let figure_cells = data.0.figures.cells() as u32;
    commands.insert_resource(Art {
        tiles: server.load("art/tiles.png"),
        tiles_layout: layouts.add(TextureAtlasLayout::from_grid(UVec2::splat(32), 12, 1, None, None)),
        tokens: server.load("art/tokens.png"),
        tokens_layout: layouts.add(TextureAtlasLayout::from_grid(UVec2::splat(64), 6, 1, None, None)),
        figures: server.load("art/figures.png"),
        figures_layout: layouts.add(TextureAtlasLayout::from_grid(UVec2::splat(64), figure_cells, 1, None, None)),
    });
}

/// The map level on screen (PageUp / PageDown switch it; it follows the figure who acts).
#[derive(Resource, Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ShownFloor(pub u8);

/// True while a token is still walking or striking (the AI waits for it).
#[derive(Resource, Debug, Default)]
pub struct TokensMoving(pub bool);

/// The space under the pointer (None over the UI or off the map).
#[derive(Resource, Debug, Clone, Copy, Default, PartialEq)]
pub struct HoveredSpace(pub Option<Pos>);

#[derive(Component)]
pub struct BoardPart;

#[derive(Component)]
pub struct FloorMap(pub u8);

#[derive(Component)]
struct Highlight;

pub fn world_of(p: Pos, board: &Board) -> Vec3 {
    let f = board.floors.first();
    let (w, h) = f.map_or((1, 1), |f| (f.width as i32, f.height as i32));
    Vec3::new((p.x as f32 - (w as f32 - 1.0) / 2.0) * TILE_PX, ((h as f32 - 1.0) / 2.0 - p.y as f32) * TILE_PX, 0.0)
}

pub fn space_at(world: Vec2, board: &Board, floor: u8) -> Option<Pos> {
    let f = board.floors.get(floor as usize)?;
    let (w, h) = (f.width as f32, f.height as f32);
    let x = (world.x / TILE_PX + (w - 1.0) / 2.0).round();
    let y = ((h - 1.0) / 2.0 - world.y / TILE_PX).round();
    (x >= 0.0 && y >= 0.0 && x < w && y < h).then(|| Pos::on(x as i32, y as i32, floor))
}

pub(super) fn tile_index(t: Tile, x: i32, y: i32) -> u32 {
    match t {
        Tile::Floor => {
            if (x * 7 + y * 13) % 5 == 0 {
                atlas::FLOOR_ALT
            } else {
                atlas::FLOOR
            }
        }
        Tile::Wall => atlas::WALL,
        Tile::DoorOpen => atlas::DOOR_OPEN,
        Tile::DoorClosed => atlas::DOOR,
        Tile::DoorLocked => atlas::DOOR_LOCKED,
        Tile::Pillar => atlas::PILLAR,
        Tile::Pit => atlas::PIT,
        Tile::Stairs { .. } => atlas::STAIRS,
        Tile::Difficult => atlas::DIFFICULT,
    }
}

/// (Re)builds one tilemap per floor whenever a level is put on the board (start, hot reload).
/// The board leaves with the match screen (menus and the Load screen show no stale board).
fn despawn_board(mut commands: Commands, parts: Query<Entity, With<BoardPart>>) {
    for e in &parts {
        commands.entity(e).despawn();
    }
}

fn spawn_board(
    mut commands: Commands,
    state: Res<MatchState>,
    art: Res<Art>,
    old: Query<Entity, With<BoardPart>>,
    level: Option<Res<super::screens::PlayingLevel>>,
) {
    let board = &state.board;
    for e in &old {
        commands.entity(e).despawn();
    }
    for (k, floor) in board.floors.iter().enumerate() {
        let size = TilemapSize { x: floor.width as u32, y: floor.height as u32 };
        let map = commands.spawn((Name::new(format!("Floor {k}")), BoardPart, FloorMap(k as u8))).id();
        let mut storage = TileStorage::empty(size);
        for row in 0..floor.height as i32 {
            for x in 0..floor.width as i32 {
                let t = board.tile(Pos::on(x, row, k as u8)).unwrap_or(Tile::Wall);
                let pos = TilePos { x: x as u32, y: (floor.height as i32 - 1 - row) as u32 };
                let tile = commands
                    .spawn((
                        BoardPart,
                        TileBundle { position: pos, tilemap_id: TilemapId(map), texture_index: TileTextureIndex(tile_index(t, x, row)), ..default() },
                    ))
                    .id();
                storage.set(&pos, tile);
            }
        }
        let tile_size = TilemapTileSize { x: 32.0, y: 32.0 };
        // Floors other than the first are centred like the first (same origin).
        let first = board.floors.first().map_or((floor.width, floor.height), |f| (f.width, f.height));
        let offset = Vec3::new((floor.width as f32 - first.0 as f32) / 2.0 * TILE_PX, -(floor.height as f32 - first.1 as f32) / 2.0 * TILE_PX, 0.0);
        commands.entity(map).insert((TilemapBundle {
            grid_size: tile_size.into(),
            map_type: TilemapType::Square,
            size,
            storage,
            texture: TilemapTexture::Single(art.tiles.clone()),
            tile_size,
            anchor: TilemapAnchor::Center,
            transform: Transform::from_translation(offset),
            ..default()
        },));
    }
    // Exit markers of ReachExit goals.
    if let Some(level) = level {
        for v in &level.0.level.victory {
            if let crate::level_file::Goal::ReachExit(exits) = &v.goal {
                for p in exits {
                    commands.spawn((
                        Name::new("Exit"),
                        ExitMark(*p),
                        BoardPart,
                        FloorMap(p.floor),
                        Sprite::from_atlas_image(art.tiles.clone(), TextureAtlas { layout: art.tiles_layout.clone(), index: atlas::EXIT }),
                        Transform::from_translation(world_of(*p, board) + Vec3::Z * 1.0),
                    ));
                }
            }
        }
    }
}

/// The marker of a `ReachExit` space: shown once the viewing side has seen that space (R-EXP-19).
#[derive(Component)]
pub struct ExitMark(Pos);

fn switch_floor(keys: Res<ButtonInput<KeyCode>>, state: Option<Res<MatchState>>, mut shown: ResMut<ShownFloor>) {
    let floors = state.map_or(1, |s| s.board.floors.len().max(1)) as u8;
    if keys.just_pressed(KeyCode::PageUp) && shown.0 + 1 < floors {
        shown.0 += 1;
    }
    if keys.just_pressed(KeyCode::PageDown) && shown.0 > 0 {
        shown.0 -= 1;
    }
    if shown.0 >= floors {
        shown.0 = 0;
    }
}

/// Only the floor on screen is drawn; it follows the character who must decide.
pub(super) fn show_floor(
    mut shown: ResMut<ShownFloor>,
    view: Res<PlayerView>,
    chars: Query<(&CharacterId, &GridPos)>,
    mut maps: Query<(&FloorMap, &mut Visibility, Option<&ExitMark>)>,
    state: Option<Res<MatchState>>,
    mut tokens: Query<(&CharacterId, &GridPos, &mut Visibility), (With<super::figures::Token>, Without<FloorMap>)>,
    fog: Res<super::fog::Fog>,
) {
    if view.is_changed() {
        if let Some(d) = &view.decider {
            if let Some((_, p)) = chars.iter().find(|(c, _)| &c.id == d) {
                if shown.0 != p.floor {
                    shown.0 = p.floor;
                }
            }
        }
    }
    // Fog of war (R-EXP-19): an exit marker only on a space the viewing side has seen.
    let seen = |p: Pos| state.as_ref().is_none_or(|s| s.board.index(p).is_some_and(|k| fog.revealed(k)));
    for (f, mut v, exit) in &mut maps {
        let show = f.0 == shown.0 && exit.is_none_or(|e| seen(e.0));
        v.set_if_neq(if show { Visibility::Inherited } else { Visibility::Hidden });
    }
    // Fog of war (R-EXP-19): a figure out of the viewing side's sight is not drawn.
    for (c, p, mut v) in &mut tokens {
        v.set_if_neq(if p.floor == shown.0 && fog.shows(c.order) { Visibility::Inherited } else { Visibility::Hidden });
    }
}

/// Side order for colours and shapes: the level's sides in order.
pub fn side_index(side: &str, sides: &[String]) -> usize {
    sides.iter().position(|s| s == side).unwrap_or(0) % 4
}

/// Reachable spaces with their cost (green free steps, blue steps, orange runs with the Defense
/// they cost), the hovered path, and aim targets.
#[allow(clippy::too_many_arguments)]
fn show_highlights(
    mut commands: Commands,
    view: Res<PlayerView>,
    hovered: Res<HoveredSpace>,
    shown: Res<ShownFloor>,
    state: Option<Res<MatchState>>,
    art: Res<Art>,
    old: Query<Entity, With<Highlight>>,
    chars: Query<(&CharacterId, &GridPos)>,
    overlay: Res<super::hud::Overlay>,
    fog: Res<super::fog::Fog>,
) {
    if !(view.is_changed() || hovered.is_changed() || shown.is_changed() || overlay.is_changed() || fog.is_changed()) {
        return;
    }
    for e in &old {
        commands.entity(e).despawn();
    }
    let Some(state) = state else { return };
    let board = &state.board;
    if overlay.blocks_board().is_some() {
        return;
    }
    let square = |c: Color| Sprite::from_color(c, Vec2::splat(TILE_PX - 2.0));
    // Fog of war (R-EXP-19): nothing is drawn on a space the viewing side has never seen (no
    // cost label, threat, path dot or reticle tells what lies in the black).
    let seen = |p: Pos| board.index(p).is_some_and(|k| fog.revealed(k));
    let spawn_label = |commands: &mut Commands, at: Vec3, s: String| {
        commands.spawn((
            Highlight,
            Text2d::new(s),
            TextFont { font_size: FontSize::Px(10.0), ..default() },
            TextColor(Color::WHITE),
            Transform::from_translation(at + Vec3::new(0.0, -TILE_PX * 0.28, 6.0)),
        ));
    };
    match view.aiming().map(|c| c.aim.clone()) {
        Some(Aim::Figure(targets)) => {
            for (c, p) in &chars {
                if targets.contains(&c.id) && p.floor == shown.0 && seen(p.0) && fog.shows(c.order) {
                    commands.spawn((
                        Highlight,
                        Sprite {
                            image: art.tokens.clone(),
                            texture_atlas: Some(TextureAtlas { layout: art.tokens_layout.clone(), index: atlas::RETICLE }),
                            custom_size: Some(Vec2::splat(TILE_PX * 1.1)),
                            color: palette::TARGET,
                            ..default()
                        },
                        Transform::from_translation(world_of(p.0, board) + Vec3::Z * 20.0),
                    ));
                }
            }
        }
        // The spaces an aimed order can take, and where a figure can move, are tinted tiles
        // (fog.rs, `draw_tiles`): only their labels, the threat and the path are drawn here.
        Some(Aim::Space(_)) => {}
        _ => {
            for (p, d) in view.destinations.iter().filter(|(p, _)| p.floor == shown.0 && seen(**p)) {
                let at = world_of(*p, board);
                // Free steps cost nothing and are told by their green alone (the hover line
                // names them): only spaces with a price carry a label, which keeps the board
                // readable and spares the renderer dozens of text runs.
                let label = d.note.clone().or_else(|| match d.kind {
                    MoveKind::FreeStep | MoveKind::Walk => None,
                    MoveKind::Step => Some(format!("{}", d.ap)),
                    MoveKind::Run => Some(format!("{} D{}", d.ap, d.defense)),
                });
                if let Some(label) = label {
                    spawn_label(&mut commands, at, label);
                }
            }
            if let Some(d) = hovered.0.and_then(|h| view.destinations.get(&h)) {
                // A4-4.1: the squares whose leaving draws an attack of opportunity.
                for p in d.threatened.iter().filter(|p| seen(**p)) {
                    commands.spawn((Highlight, square(palette::THREAT), Transform::from_translation(world_of(*p, board) + Vec3::Z * 2.5)));
                }
                for p in d.path.iter().filter(|p| seen(**p)) {
                    commands.spawn((
                        Highlight,
                        Sprite::from_color(palette::PATH, Vec2::splat(6.0)),
                        Transform::from_translation(world_of(*p, board) + Vec3::Z * 3.0),
                    ));
                }
            }
        }
    }
}

/// The keyboard cursor: the arrows move it (it starts on the figure who decides), Space clicks
/// the space under it, F puts it on the next figure of the side deciding. While it is in use it
/// is the hovered space (previews, paths, the card); moving the mouse hands over to the pointer.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq)]
pub struct KeyCursor {
    pub at: Option<Pos>,
    pub active: bool,
}

#[allow(clippy::too_many_arguments)]
fn move_key_cursor(
    keys: Res<ButtonInput<KeyCode>>,
    view: Res<PlayerView>,
    state: Option<Res<MatchState>>,
    generation: Option<Res<MatchGeneration>>,
    chars: Query<(&CharacterId, &crate::game::components::Side, &GridPos)>,
    shown: Res<ShownFloor>,
    mut cursor: ResMut<KeyCursor>,
    mut hovered: ResMut<HoveredSpace>,
    mut out: MessageWriter<Intent>,
    mut last: Local<Option<String>>,
) {
    // A new figure to decide (or a new match) starts the cursor afresh on him.
    if *last != view.decider || generation.is_some_and(|g| g.is_changed()) {
        last.clone_from(&view.decider);
        if *cursor != KeyCursor::default() {
            *cursor = KeyCursor::default();
        }
    }
    let Some(state) = state else { return };
    let Some(decider) = view.decider.clone() else { return };
    if keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight]) {
        return;
    }
    let me = chars.iter().find(|(c, _, _)| c.id == decider).map(|(_, s, p)| (s.0.clone(), p.0));
    let mut d = (0, 0);
    for (k, step) in [(KeyCode::ArrowLeft, (-1, 0)), (KeyCode::ArrowRight, (1, 0)), (KeyCode::ArrowUp, (0, -1)), (KeyCode::ArrowDown, (0, 1))] {
        if keys.just_pressed(k) {
            d = (d.0 + step.0, d.1 + step.1);
        }
    }
    let mut moved = false;
    if d != (0, 0) {
        let from = cursor.at.filter(|_| cursor.active).or(me.as_ref().map(|m| m.1)).unwrap_or(Pos::on(0, 0, shown.0));
        let f = state.board.floors.get(from.floor as usize);
        let (w, h) = f.map_or((1, 1), |f| (f.width as i32, f.height as i32));
        cursor.at = Some(Pos::on((from.x + d.0).clamp(0, w - 1), (from.y + d.1).clamp(0, h - 1), from.floor));
        moved = true;
    }
    if keys.just_pressed(KeyCode::KeyF) {
        // The next figure of the deciding side, in level order, after the one under the cursor.
        if let Some((side, _)) = &me {
            let mut mine: Vec<(usize, Pos)> =
                chars.iter().filter(|(c, s, _)| &s.0 == side && !state.is_dead(c.order)).map(|(c, _, p)| (c.order, p.0)).collect();
            mine.sort_by_key(|x| x.0);
            let now = cursor.at.filter(|_| cursor.active).and_then(|p| mine.iter().position(|m| m.1 == p));
            if let Some(next) = mine.get(now.map_or(0, |k| (k + 1) % mine.len().max(1))) {
                cursor.at = Some(next.1);
                moved = true;
            }
        }
    }
    if moved {
        cursor.active = true;
        if hovered.0 != cursor.at {
            hovered.0 = cursor.at;
        }
    }
    if cursor.active && keys.just_pressed(KeyCode::Space) {
        if let Some(p) = cursor.at {
            out.write(Intent::ClickSpace(p));
        }
    }
}

/// The keyboard cursor's frame.
#[derive(Component)]
struct CursorMark;

fn show_key_cursor(
    mut commands: Commands,
    cursor: Res<KeyCursor>,
    state: Option<Res<MatchState>>,
    mut mark: Query<(Entity, &mut Transform), With<CursorMark>>,
) {
    let Some(state) = state else { return };
    let at = cursor.at.filter(|_| cursor.active);
    match (at, mark.single_mut()) {
        (Some(p), Ok((_, mut t))) => {
            let want = world_of(p, &state.board) + Vec3::Z * 40.0;
            if t.translation != want {
                t.translation = want;
            }
        }
        (Some(p), Err(_)) => {
            commands
                .spawn((
                    Name::new("Keyboard cursor"),
                    CursorMark,
                    BoardPart,
                    Transform::from_translation(world_of(p, &state.board) + Vec3::Z * 40.0),
                    Visibility::default(),
                ))
                .with_children(|c| {
                    // Four gold corner bars.
                    for (x, y, w, h) in [(0.0, 0.47, 1.0, 0.06), (0.0, -0.47, 1.0, 0.06), (0.47, 0.0, 0.06, 1.0), (-0.47, 0.0, 0.06, 1.0)] {
                        c.spawn((
                            Sprite::from_color(Color::srgb(1.0, 0.85, 0.25), Vec2::new(w * TILE_PX, h * TILE_PX)),
                            Transform::from_xyz(x * TILE_PX, y * TILE_PX, 0.0),
                        ));
                    }
                });
        }
        (None, Ok((e, _))) => {
            commands.entity(e).despawn();
        }
        (None, Err(_)) => {}
    }
}

fn track_hover(
    windows: Query<&Window>,
    cams: Query<(&Camera, &GlobalTransform), With<super::camera::BoardCamera>>,
    over_ui: Res<PointerOverUi>,
    state: Option<Res<MatchState>>,
    shown: Res<ShownFloor>,
    mut hovered: ResMut<HoveredSpace>,
    mut cursor: ResMut<KeyCursor>,
    mut last: Local<Option<Vec2>>,
) {
    // The keyboard cursor keeps the hover until the mouse moves.
    let pointer = windows.single().ok().and_then(|w| w.cursor_position());
    if cursor.active {
        if pointer == *last {
            return;
        }
        cursor.active = false;
    }
    *last = pointer;
    let space = (|| {
        if over_ui.0 {
            return None;
        }
        let board = &state.as_ref()?.board;
        let cursor = pointer?;
        let (cam, gt) = cams.single().ok()?;
        // The board is drawn only in the camera's viewport (the board area): a pointer outside
        // it is over a panel, never over a space hidden under one.
        if cam.logical_viewport_rect().is_some_and(|r| !r.contains(cursor)) {
            return None;
        }
        let world = cam.viewport_to_world_2d(gt, cursor).ok()?;
        space_at(world, board, shown.0)
    })();
    if hovered.0 != space {
        hovered.0 = space;
    }
}

/// A left click (not a drag) on the board is a click on that space; right click cancels.
fn click_board(
    mouse: Res<ButtonInput<MouseButton>>,
    hovered: Res<HoveredSpace>,
    drag: Res<super::camera::DragState>,
    over_ui: Res<PointerOverUi>,
    mut out: MessageWriter<Intent>,
) {
    if over_ui.0 {
        return;
    }
    if mouse.just_released(MouseButton::Left) && !drag.dragged {
        if let Some(p) = hovered.0 {
            out.write(Intent::ClickSpace(p));
        }
    }
    if mouse.just_pressed(MouseButton::Right) {
        out.write(Intent::Cancel);
    }
}
