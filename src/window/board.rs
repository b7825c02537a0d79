//! The board: the level's floors as bevy_ecs_tilemap maps drawn with the generated art, one
//! miniature per character (side colour, side shape and a label, so sides read without colour),
//! the rules' previews as highlights (reachable spaces with their cost, targets), short move and
//! attack animations, and the pointer: the hovered space and clicks become `Intent`s.

use super::settings::Settings;
use super::ui::PointerOverUi;
use crate::game::MatchSystems;
use crate::game::components::{CharacterId, GridPos, MatchGeneration, MatchState, Side, Vitals};
use crate::game::intent::{Intent, PlayerView};
use crate::game::log::RulesEvent;
use crate::rules::Board;
use crate::rules::grid::Tile;
use crate::rules::preview::{Aim, MoveKind};
use crate::rules::{Event, Pos};
use bevy::prelude::*;
use bevy_ecs_tilemap::prelude::*;
use std::collections::{BTreeMap, VecDeque};

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
}

/// Tile atlas indices of `assets/art/tiles.png` (see examples/gen_art.rs).
mod atlas {
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
        .add_systems(Startup, load_art)
        .add_systems(
            Update,
            (track_hover, click_board, switch_floor)
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
            (show_floor, spawn_tokens, animate_events, move_tokens, show_token_state, show_highlights)
                .chain()
                .in_set(MatchSystems::Present)
                .after(spawn_board)
                .after(super::fog::FogDrawn),
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
}

fn load_art(mut commands: Commands, server: Res<AssetServer>, mut layouts: ResMut<Assets<TextureAtlasLayout>>) {
    commands.insert_resource(Art {
        tiles: server.load("art/tiles.png"),
        tiles_layout: layouts.add(TextureAtlasLayout::from_grid(UVec2::splat(32), 12, 1, None, None)),
        tokens: server.load("art/tokens.png"),
        tokens_layout: layouts.add(TextureAtlasLayout::from_grid(UVec2::splat(64), 6, 1, None, None)),
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

/// A miniature; `label` is shown on it.
#[derive(Component)]
pub struct Token {
    pub label: String,
}

#[derive(Component)]
struct Ring;
#[derive(Component)]
struct HpBar;

/// Where a token is going: the spaces of its path, in order.
#[derive(Component, Default)]
struct Motion {
    waypoints: VecDeque<Vec3>,
    /// A short lunge toward a target and back (attack), seconds left.
    lunge: Option<(Vec3, f32)>,
    /// Flash after being hit or missed, seconds left.
    flash: f32,
    hit: bool,
}

#[derive(Component)]
struct FloatText(f32);

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
fn show_floor(
    mut shown: ResMut<ShownFloor>,
    view: Res<PlayerView>,
    chars: Query<(&CharacterId, &GridPos)>,
    mut maps: Query<(&FloorMap, &mut Visibility)>,
    mut tokens: Query<(&CharacterId, &GridPos, &mut Visibility), (With<Token>, Without<FloorMap>)>,
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
    for (f, mut v) in &mut maps {
        v.set_if_neq(if f.0 == shown.0 { Visibility::Inherited } else { Visibility::Hidden });
    }
    // Fog of war (R-EXP-19): a figure out of the viewing side's sight is not drawn.
    for (c, p, mut v) in &mut tokens {
        v.set_if_neq(if p.floor == shown.0 && fog.shows(c.order) { Visibility::Inherited } else { Visibility::Hidden });
    }
}

/// Short labels: the name's initial, numbered when several figures of a side share it.
fn labels(chars: &[(String, String, String)]) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for (id, name, side) in chars {
        let initial: String = name.chars().next().unwrap_or('?').to_uppercase().collect();
        let same: Vec<&String> = chars
            .iter()
            .filter(|(_, n, s)| s == side && n.chars().next().map(|c| c.to_uppercase().collect::<String>()) == Some(initial.clone()))
            .map(|(i, _, _)| i)
            .collect();
        let label = if same.len() > 1 { format!("{initial}{}", same.iter().position(|i| *i == id).unwrap_or(0) + 1) } else { initial };
        out.insert(id.clone(), label);
    }
    out
}

/// Side order for colours and shapes: the level's sides in order.
pub fn side_index(side: &str, sides: &[String]) -> usize {
    sides.iter().position(|s| s == side).unwrap_or(0) % 4
}

fn spawn_tokens(
    mut commands: Commands,
    new: Query<(Entity, &CharacterId, &Side, &Name, &GridPos), Added<CharacterId>>,
    all: Query<(&CharacterId, &Side, &Name)>,
    art: Res<Art>,
    state: Option<Res<MatchState>>,
    level: Option<Res<super::screens::PlayingLevel>>,
) {
    if new.is_empty() {
        return;
    }
    let Some(state) = state else { return };
    let board = &state.board;
    let sides: Vec<String> = level.map(|l| l.0.sides.iter().map(|s| s.id.clone()).collect()).unwrap_or_default();
    let list: Vec<(String, String, String)> = all.iter().map(|(c, s, n)| (c.id.clone(), n.to_string(), s.0.clone())).collect();
    let names = labels(&list);
    for (e, c, side, _, pos) in &new {
        let k = side_index(&side.0, &sides);
        let label = names.get(&c.id).cloned().unwrap_or_default();
        let mut sprite = Sprite::from_atlas_image(art.tokens.clone(), TextureAtlas { layout: art.tokens_layout.clone(), index: k });
        sprite.custom_size = Some(Vec2::splat(TILE_PX * 0.9));
        sprite.color = palette::SIDES[k];
        commands
            .entity(e)
            .insert((
                Token { label: label.clone() },
                Motion::default(),
                sprite,
                Transform::from_translation(world_of(pos.0, board) + Vec3::Z * 10.0),
                Visibility::default(),
            ))
            .with_children(|p| {
                p.spawn((
                    Text2d::new(label),
                    TextFont { font_size: FontSize::Px(13.0), ..default() },
                    TextColor(Color::srgb(0.05, 0.05, 0.08)),
                    Transform::from_xyz(0.0, 0.0, 1.0),
                ));
                p.spawn((
                    Ring,
                    Sprite {
                        image: art.tokens.clone(),
                        texture_atlas: Some(TextureAtlas { layout: art.tokens_layout.clone(), index: atlas::RING }),
                        custom_size: Some(Vec2::splat(TILE_PX * 1.12)),
                        color: Color::srgb(1.0, 0.9, 0.3),
                        ..default()
                    },
                    Transform::from_xyz(0.0, 0.0, -0.5),
                    Visibility::Hidden,
                ));
                p.spawn((
                    HpBar,
                    Sprite::from_color(Color::srgb(0.3, 0.9, 0.35), Vec2::new(TILE_PX * 0.8, 3.0)),
                    Transform::from_xyz(0.0, -TILE_PX * 0.46, 2.0),
                ));
            });
    }
}

/// Movement follows the path the rules report; attacks lunge and flash; damage floats up.
fn animate_events(
    mut commands: Commands,
    mut events: MessageReader<RulesEvent>,
    state: Option<Res<MatchState>>,
    settings: Res<Settings>,
    mut tokens: Query<(&CharacterId, &mut Motion, &Transform)>,
) {
    let Some(state) = state else {
        events.clear();
        return;
    };
    let board = &state.board;
    let animate = settings.animation_speed > 0.0;
    for RulesEvent(e) in events.read() {
        match e {
            Event::Moved { actor, path, to, .. } if animate => {
                if let Some((_, mut m, _)) = tokens.iter_mut().find(|(c, _, _)| &c.id == actor) {
                    let pts: Vec<Pos> = if path.is_empty() { vec![*to] } else { path.clone() };
                    for p in pts {
                        m.waypoints.push_back(world_of(p, board) + Vec3::Z * 10.0);
                    }
                }
            }
            Event::AttackResolved { actor, target, damage, outcome, .. } => {
                let tpos = tokens.iter().find(|(c, _, _)| &c.id == target).map(|(_, _, t)| t.translation);
                if let (Some(tp), true) = (tpos, animate) {
                    if let Some((_, mut m, t)) = tokens.iter_mut().find(|(c, _, _)| &c.id == actor) {
                        m.lunge = Some(((tp - t.translation).with_z(0.0) * 0.35, 0.25));
                    }
                    if let Some((_, mut m, _)) = tokens.iter_mut().find(|(c, _, _)| &c.id == target) {
                        m.flash = 0.45;
                        m.hit = *damage > 0;
                    }
                }
                if let Some(tp) = tpos {
                    let (s, color) = if outcome.contains("miss") { ("miss".to_string(), Color::WHITE) } else { (format!("-{damage}"), palette::TARGET) };
                    commands.spawn((
                        Name::new("Damage text"),
                        FloatText(1.0),
                        BoardPart,
                        Text2d::new(s),
                        TextFont { font_size: FontSize::Px(16.0), ..default() },
                        TextColor(color),
                        Transform::from_translation(tp + Vec3::new(0.0, TILE_PX * 0.5, 30.0)),
                    ));
                }
            }
            _ => {}
        }
    }
}

/// Slides tokens along their waypoints (quick: about 12 spaces a second at normal speed) and
/// snaps them to their space when idle (hot reload, no animation).
fn move_tokens(
    time: Res<Time>,
    settings: Res<Settings>,
    state: Option<Res<MatchState>>,
    mut q: Query<(&GridPos, &mut Motion, &mut Transform, &mut Sprite), With<Token>>,
    mut floats: Query<(Entity, &mut FloatText, &mut Transform, &mut TextColor), Without<Token>>,
    mut commands: Commands,
    mut moving: ResMut<TokensMoving>,
) {
    let Some(state) = state else { return };
    let board = &state.board;
    let dt = time.delta_secs();
    let speed = TILE_PX * 12.0 * settings.animation_speed.max(0.01);
    let busy = q.iter().any(|(_, m, _, _)| !m.waypoints.is_empty() || m.lunge.is_some());
    if moving.0 != busy {
        moving.0 = busy;
    }
    for (p, mut m, mut t, mut sprite) in &mut q {
        let home = world_of(p.0, board) + Vec3::Z * 10.0;
        if let Some(next) = m.waypoints.front().copied() {
            let d = next - t.translation;
            let step = speed * dt;
            if d.length() <= step || settings.animation_speed == 0.0 {
                t.translation = next;
                m.waypoints.pop_front();
            } else {
                t.translation += d.normalize() * step;
            }
        } else if let Some((off, left)) = m.lunge {
            let left = left - dt * settings.animation_speed.max(0.01);
            let k = (left / 0.25).clamp(0.0, 1.0);
            let out = if k > 0.5 { (1.0 - k) * 2.0 } else { k * 2.0 };
            t.translation = home + off * out;
            m.lunge = (left > 0.0).then_some((off, left));
        } else if t.translation != home {
            t.translation = home;
        }
        let base = sprite.color.with_alpha(1.0);
        if m.flash > 0.0 {
            m.flash -= dt;
            let pulse = (m.flash * 20.0).sin() > 0.0;
            sprite.color = if pulse { if m.hit { palette::TARGET } else { Color::WHITE } } else { base };
        }
    }
    for (e, mut f, mut t, mut c) in &mut floats {
        f.0 -= dt * settings.animation_speed.max(0.5);
        t.translation.y += dt * 24.0;
        c.0 = c.0.with_alpha(f.0.clamp(0.0, 1.0));
        if f.0 <= 0.0 {
            commands.entity(e).despawn();
        }
    }
}

/// Selection ring on the character who must decide, HP bars, faded dead figures, side colour
/// restored after a flash.
fn show_token_state(
    view: Res<PlayerView>,
    level: Option<Res<super::screens::PlayingLevel>>,
    mut tokens: Query<(&CharacterId, &Side, &Vitals, &Children, &mut Sprite, &Motion), With<Token>>,
    mut rings: Query<&mut Visibility, With<Ring>>,
    mut bars: Query<(&mut Sprite, &mut Transform), (With<HpBar>, Without<Token>)>,
) {
    let sides: Vec<String> = level.map(|l| l.0.sides.iter().map(|s| s.id.clone()).collect()).unwrap_or_default();
    for (c, side, v, children, mut sprite, motion) in &mut tokens {
        let dead = v.hp <= -10 || v.hp <= 0 && v.max_hp <= 0;
        if motion.flash <= 0.0 {
            let mut col = palette::SIDES[side_index(&side.0, &sides)];
            if v.hp <= 0 {
                col = col.mix(&Color::srgb(0.2, 0.2, 0.2), if dead { 0.8 } else { 0.55 });
            }
            if sprite.color != col {
                sprite.color = col;
            }
        }
        for child in children.iter() {
            if let Ok(mut vis) = rings.get_mut(child) {
                vis.set_if_neq(if view.decider.as_deref() == Some(c.id.as_str()) { Visibility::Inherited } else { Visibility::Hidden });
            }
            if let Ok((mut s, mut t)) = bars.get_mut(child) {
                let frac = (v.hp.max(0) as f32 / v.max_hp.max(1) as f32).clamp(0.0, 1.0);
                let w = TILE_PX * 0.8 * frac;
                let color = if frac > 0.5 {
                    Color::srgb(0.3, 0.9, 0.35)
                } else if frac > 0.25 {
                    Color::srgb(0.95, 0.8, 0.2)
                } else {
                    Color::srgb(0.95, 0.3, 0.25)
                };
                // Written only when they differ, so an unchanged bar is not re-extracted and its
                // transform not propagated every frame.
                let size = Some(Vec2::new(w.max(0.5), 3.0));
                if s.custom_size != size || s.color != color {
                    s.custom_size = size;
                    s.color = color;
                }
                let x = -(TILE_PX * 0.8 - w) / 2.0;
                if t.translation.x != x {
                    t.translation.x = x;
                }
            }
        }
    }
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
) {
    if !(view.is_changed() || hovered.is_changed() || shown.is_changed() || overlay.is_changed()) {
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
                if targets.contains(&c.id) && p.floor == shown.0 {
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
        Some(Aim::Space(spots)) => {
            for (p, _) in spots.iter().filter(|(p, _)| p.floor == shown.0) {
                commands.spawn((Highlight, square(palette::AIM_SPACE), Transform::from_translation(world_of(*p, board) + Vec3::Z * 2.0)));
            }
        }
        _ => {
            for (p, d) in view.destinations.iter().filter(|(p, _)| p.floor == shown.0) {
                let color = match d.kind {
                    MoveKind::FreeStep | MoveKind::Walk => palette::FREE,
                    MoveKind::Step => palette::STEP,
                    MoveKind::Run => palette::RUN,
                };
                let at = world_of(*p, board);
                commands.spawn((Highlight, square(color), Transform::from_translation(at + Vec3::Z * 2.0)));
                // Free steps cost nothing and are told by their green alone (the hover line
                // names them): only spaces with a price carry a label, which keeps the board
                // readable and spares the renderer dozens of text runs.
                let label = match d.kind {
                    MoveKind::FreeStep | MoveKind::Walk => None,
                    MoveKind::Step => Some(format!("{}", d.ap)),
                    MoveKind::Run => Some(format!("{} D{}", d.ap, d.defense)),
                };
                if let Some(label) = label {
                    spawn_label(&mut commands, at, label);
                }
            }
            if let Some(d) = hovered.0.and_then(|h| view.destinations.get(&h)) {
                for p in &d.path {
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

fn track_hover(
    windows: Query<&Window>,
    cams: Query<(&Camera, &GlobalTransform), With<Camera2d>>,
    over_ui: Res<PointerOverUi>,
    state: Option<Res<MatchState>>,
    shown: Res<ShownFloor>,
    mut hovered: ResMut<HoveredSpace>,
) {
    let space = (|| {
        if over_ui.0 {
            return None;
        }
        let board = &state.as_ref()?.board;
        let cursor = windows.single().ok()?.cursor_position()?;
        let (cam, gt) = cams.single().ok()?;
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
