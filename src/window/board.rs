//! The board: one square per map space, one token per character (colour plus side letter,
//! readable without colour), camera fitted to the level.

use crate::game::components::{CharacterId, GridPos, MatchBoard, Side};
use crate::rules::grid::Tile;
use bevy::prelude::*;

pub const TILE_PX: f32 = 48.0;
/// Width of the status panel on the left, in logical pixels.
pub const PANEL_PX: f32 = 400.0;

pub mod palette {
    use bevy::prelude::Color;
    pub const BACKGROUND: Color = Color::srgb(0.06, 0.05, 0.07);
    pub const FLOOR: Color = Color::srgb(0.33, 0.30, 0.27);
    pub const WALL: Color = Color::srgb(0.14, 0.12, 0.13);
    pub const DOOR: Color = Color::srgb(0.52, 0.34, 0.16);
    pub const DOOR_OPEN: Color = Color::srgb(0.66, 0.52, 0.34);
    pub const DOOR_LOCKED: Color = Color::srgb(0.42, 0.14, 0.12);
    pub const PILLAR: Color = Color::srgb(0.22, 0.21, 0.24);
    pub const PIT: Color = Color::srgb(0.02, 0.02, 0.03);
    pub const STAIRS: Color = Color::srgb(0.45, 0.45, 0.38);
    pub const DIFFICULT: Color = Color::srgb(0.36, 0.31, 0.22);
    /// Side colours: blue/orange/green/purple are told apart by most colour-blind players,
    /// and every token also carries its side's letter.
    pub const SIDES: [Color; 4] = [Color::srgb(0.20, 0.45, 0.85), Color::srgb(0.90, 0.50, 0.10), Color::srgb(0.25, 0.70, 0.35), Color::srgb(0.60, 0.35, 0.75)];
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<ShownFloor>()
        .add_systems(Startup, spawn_camera)
        .add_systems(Update, switch_floor.in_set(crate::game::MatchSystems::Input))
        .add_systems(
            Update,
            (fit_camera, spawn_board)
                .chain()
                .run_if(resource_exists_and_changed::<MatchBoard>.or_else(resource_changed::<ShownFloor>))
                .in_set(crate::game::MatchSystems::Present),
        )
        .add_systems(Update, show_tokens_on_floor.in_set(crate::game::MatchSystems::Present))
        .add_systems(Update, (spawn_tokens, place_tokens).chain().in_set(crate::game::MatchSystems::Present));
}

#[derive(Component)]
pub struct BoardTile;

/// The map level on screen (PageUp / PageDown switch it).
#[derive(Resource, Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ShownFloor(pub u8);

fn switch_floor(keys: Res<ButtonInput<KeyCode>>, board: Option<Res<MatchBoard>>, mut shown: ResMut<ShownFloor>) {
    let floors = board.map_or(1, |b| b.floors.len().max(1)) as u8;
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

/// Only figures on the floor on screen are drawn.
fn show_tokens_on_floor(shown: Res<ShownFloor>, mut q: Query<(&GridPos, &mut Visibility), With<Token>>) {
    for (p, mut v) in &mut q {
        let want = if p.floor == shown.0 { Visibility::Inherited } else { Visibility::Hidden };
        v.set_if_neq(want);
    }
}

#[derive(Component)]
pub struct Token;

pub fn world_of(x: i32, y: i32, board: &MatchBoard) -> Vec3 {
    let f = board.floors.first();
    let (w, h) = f.map_or((1, 1), |f| (f.width as i32, f.height as i32));
    Vec3::new((x as f32 - (w as f32 - 1.0) / 2.0) * TILE_PX, ((h as f32 - 1.0) / 2.0 - y as f32) * TILE_PX, 0.0)
}

fn spawn_camera(mut commands: Commands) {
    commands.spawn((Name::new("Camera"), Camera2d, Transform::from_xyz(0.0, 0.0, 100.0)));
}

/// Fits the level into the part of the 1280×720 view right of the status panel.
fn fit_camera(board: Option<Res<MatchBoard>>, mut cam: Query<&mut Transform, With<Camera2d>>) {
    let Some(board) = board else { return };
    let (w, h) = board.floors.first().map_or((16.0, 10.0), |f| (f.width as f32, f.height as f32));
    let scale = ((w * TILE_PX) / (1280.0 - PANEL_PX - 60.0)).max((h * TILE_PX) / 660.0).max(0.5);
    for mut t in &mut cam {
        *t = Transform::from_xyz(-PANEL_PX / 2.0 * scale, 0.0, 100.0).with_scale(Vec3::splat(scale));
    }
}

/// (Re)builds the tiles whenever a level is put on the board (start, hot reload).
fn spawn_board(mut commands: Commands, board: Option<Res<MatchBoard>>, shown: Res<ShownFloor>, old: Query<Entity, With<BoardTile>>) {
    let Some(board) = board else { return };
    for e in &old {
        commands.entity(e).despawn();
    }
    let Some(floor) = board.floors.get(shown.0 as usize) else { return };
    for y in 0..floor.height as i32 {
        for x in 0..floor.width as i32 {
            let t = board.tile(crate::rules::Pos::on(x, y, shown.0)).unwrap_or(Tile::Wall);
            let color = match t {
                Tile::Floor => palette::FLOOR,
                Tile::Wall => palette::WALL,
                Tile::DoorOpen => palette::DOOR_OPEN,
                Tile::DoorClosed => palette::DOOR,
                Tile::DoorLocked => palette::DOOR_LOCKED,
                Tile::Pillar => palette::PILLAR,
                Tile::Pit => palette::PIT,
                Tile::Stairs { .. } => palette::STAIRS,
                Tile::Difficult => palette::DIFFICULT,
            };
            commands.spawn((
                Name::new(format!("Tile {x},{y}")),
                BoardTile,
                Sprite::from_color(color, Vec2::splat(TILE_PX - 2.0)),
                Transform::from_translation(world_of(x, y, &board)),
            ));
        }
    }
}

fn spawn_tokens(mut commands: Commands, new: Query<(Entity, &Side, &Name), Added<CharacterId>>, sides: Query<&Side>) {
    let mut names: Vec<String> = sides.iter().map(|s| s.0.clone()).collect();
    names.sort();
    names.dedup();
    for (e, side, name) in &new {
        let k = names.iter().position(|s| *s == side.0).unwrap_or(0);
        let letter = side.0.chars().next().unwrap_or('?').to_ascii_uppercase();
        let initial = name.as_str().chars().next().unwrap_or('?');
        commands
            .entity(e)
            .insert((Token, Sprite::from_color(palette::SIDES[k % 4], Vec2::splat(TILE_PX * 0.72)), Transform::default(), Visibility::default()))
            .with_children(|c| {
                c.spawn((
                    Text2d::new(format!("{initial}{letter}")),
                    TextFont { font_size: FontSize::Px(18.0), ..default() },
                    TextColor(Color::WHITE),
                    Transform::from_xyz(0.0, 0.0, 1.0),
                ));
            });
    }
}

fn place_tokens(board: Option<Res<MatchBoard>>, mut q: Query<(&GridPos, &mut Transform), (With<Token>, Or<(Changed<GridPos>, Added<Token>)>)>) {
    let Some(board) = board else { return };
    for (p, mut t) in q.iter_mut() {
        t.translation = world_of(p.x, p.y, &board) + Vec3::Z * 10.0;
    }
}
