//! The level's floors as bevy_ecs_tilemap maps drawn with the generated art, the exit markers,
//! the floor on screen, and the rules' previews as highlights (reachable spaces with their cost,
//! the hovered path, aim targets).

use super::{
    Art, BoardDrawn, BoardPart, FloorMap, FloorShown, Fog, FogDrawn, HoveredSpace, Overlay, ShownFloor, TILE_PX, Token, atlas, palette, tile_index, world_of,
};
use crate::game::MatchSystems;
use crate::game::components::{CharacterId, GridPos, MatchGeneration, MatchState};
use crate::game::intent::PlayerView;
use crate::window::screens::Screen;
use bevy::prelude::*;
use bevy_ecs_tilemap::prelude::*;
use doo_rules::rules::Pos;
use doo_rules::rules::grid::Tile;
use doo_rules::rules::preview::{Aim, MoveKind};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(OnExit(Screen::Match), despawn_board)
        .add_systems(
            Update,
            spawn_board.run_if(resource_exists::<MatchState>.and_then(resource_changed::<MatchGeneration>)).in_set(MatchSystems::Present).in_set(BoardDrawn),
        )
        .add_systems(Update, (show_floor, show_highlights).chain().in_set(MatchSystems::Present).in_set(FloorShown).after(BoardDrawn).after(FogDrawn));
}

#[derive(Component)]
struct Highlight;

/// A floor's tilemap with the game's tile art, centred on `offset` (the board's, the editor's).
pub fn floor_tilemap(size: TilemapSize, storage: TileStorage, art: &Art, offset: Vec3) -> TilemapBundle {
    let tile_size = TilemapTileSize { x: TILE_PX, y: TILE_PX };
    TilemapBundle {
        grid_size: tile_size.into(),
        map_type: TilemapType::Square,
        size,
        storage,
        texture: TilemapTexture::Single(art.tiles.clone()),
        tile_size,
        anchor: TilemapAnchor::Center,
        transform: Transform::from_translation(offset),
        ..default()
    }
}

/// The board leaves with the match screen (menus and the Load screen show no stale board).
fn despawn_board(mut commands: Commands, parts: Query<Entity, With<BoardPart>>) {
    for e in &parts {
        commands.entity(e).despawn();
    }
}

/// (Re)builds one tilemap per floor whenever a level is put on the board (start, hot reload).
fn spawn_board(
    mut commands: Commands,
    state: Res<MatchState>,
    art: Res<Art>,
    old: Query<Entity, With<BoardPart>>,
    level: Option<Res<crate::window::PlayingLevel>>,
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
        // Floors other than the first are centred like the first (same origin).
        let first = board.floors.first().map_or((floor.width, floor.height), |f| (f.width, f.height));
        let offset = Vec3::new((floor.width as f32 - first.0 as f32) / 2.0 * TILE_PX, -(floor.height as f32 - first.1 as f32) / 2.0 * TILE_PX, 0.0);
        commands.entity(map).insert(floor_tilemap(size, storage, &art, offset));
    }
    // Exit markers of ReachExit goals.
    if let Some(level) = level {
        for v in &level.0.level.victory {
            if let doo_rules::level_file::Goal::ReachExit(exits) = &v.goal {
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

/// Only the floor on screen is drawn; it follows the character who must decide.
fn show_floor(
    mut shown: ResMut<ShownFloor>,
    view: Res<PlayerView>,
    chars: Query<(&CharacterId, &GridPos)>,
    mut maps: Query<(&FloorMap, &mut Visibility, Option<&ExitMark>)>,
    state: Option<Res<MatchState>>,
    mut tokens: Query<(&CharacterId, &GridPos, &mut Visibility), (With<Token>, Without<FloorMap>)>,
    fog: Res<Fog>,
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
    overlay: Res<Overlay>,
    fog: Res<Fog>,
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
            // Issue 43: an ally the choice may strike is a warning ("!" over the figure, the
            // reason on a click), never a target reticle.
            let warn = view.aiming().map(|c| c.warn.clone()).unwrap_or_default();
            for (c, p) in &chars {
                if warn.iter().any(|w| w.0 == c.id) && p.floor == shown.0 && seen(p.0) && fog.shows(c.order) {
                    let at = world_of(p.0, board);
                    commands.spawn((
                        Highlight,
                        Sprite {
                            image: art.tokens.clone(),
                            texture_atlas: Some(TextureAtlas { layout: art.tokens_layout.clone(), index: atlas::RING }),
                            custom_size: Some(Vec2::splat(TILE_PX * 1.05)),
                            color: crate::window::theme::palette::GOLD,
                            ..default()
                        },
                        Transform::from_translation(at + Vec3::Z * 20.0),
                    ));
                    commands.spawn((
                        Highlight,
                        Text2d::new("!"),
                        TextFont { font_size: FontSize::Px(TILE_PX * 0.75), ..default() },
                        TextColor(crate::window::theme::palette::GOLD),
                        Transform::from_translation(at + Vec3::new(TILE_PX * 0.36, TILE_PX * 0.3, 21.0)),
                    ));
                }
            }
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
