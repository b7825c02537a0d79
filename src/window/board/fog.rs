//! Fog of war and the crawl's map features (R-EXP-19): the board shows what the viewing side
//! has seen. Spaces never seen are black, spaces seen before but not in sight now are dimmed,
//! secret doors not yet found are drawn as wall, and figures are shown only while in sight
//! (`rules::explore::side_view`, the one view model). Doors change their tile as they open and
//! close; chests, loose items and known traps get markers. Every side has its own revealed map
//! (what its own figures see and have seen): hot-seat, the side shown is the side of the player
//! deciding (the last one, between decisions), never another side's map. Nothing else of the
//! board (cost labels, threat marks, paths, reticles, cards) is shown on a space never seen.

use super::{BoardDrawn, BoardPart, FloorMap, Fog, FogDrawn, Overlay, TILE_PX, palette, tile_index, world_of};
use crate::game::MatchSystems;
use crate::game::components::{MatchGeneration, MatchState};
use crate::game::intent::{PlayerView, Seats};
use bevy::prelude::*;
use bevy_ecs_tilemap::prelude::*;
use doo_rules::replay::LogEntry;
use doo_rules::rules::Pos;
use doo_rules::rules::explore::side_view;
use doo_rules::rules::grid::Tile;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (update_fog, draw_tiles, draw_features)
            .chain()
            .in_set(MatchSystems::Present)
            .in_set(FogDrawn)
            .after(BoardDrawn)
            .after(crate::game::intent::ViewRefreshed)
            .run_if(resource_exists::<MatchState>),
    );
}

/// The side whose view is shown: the deciding player's; else the last one shown; else the
/// first exploring side a person plays, else any side a person plays (a person playing the
/// monsters against AI heroes sees his own side's map); else the first exploring side (a
/// watched game).
fn viewer(m: &doo_rules::rules::Match, view: &PlayerView, seats: &Seats, last: Option<&String>) -> Option<String> {
    let x = m.explore.as_deref()?;
    if let Some(s) = &view.side {
        return Some(s.clone());
    }
    if let Some(s) = last {
        return Some(s.clone());
    }
    x.explorers
        .iter()
        .find(|s| seats.players.contains_key(*s))
        .or_else(|| seats.players.keys().find(|s| m.fighters.iter().any(|f| &f.side == *s)))
        .or(x.explorers.first())
        .cloned()
}

fn update_fog(state: Res<MatchState>, view: Res<PlayerView>, seats: Res<Seats>, generation: Res<MatchGeneration>, mut fog: ResMut<Fog>) {
    if !state.is_changed() && !view.is_changed() && !generation.is_changed() {
        return;
    }
    let m = &state.0;
    if m.explore.is_none() {
        if fog.view.is_some() || fog.side.is_some() {
            *fog = Fog::default();
        }
        return;
    }
    let side = viewer(m, &view, &seats, fog.side.as_ref());
    let v = side.as_deref().map(|s| side_view(m, s));
    if fog.side != side || fog.view != v {
        fog.side = side;
        fog.view = v;
    }
}

/// The tint that makes a floor tile look as if `c` (with its alpha) lay over it: the highlight
/// colour is the tile's own colour, not a square drawn over it, so a highlighted board costs the
/// renderer nothing more than a bare one (issue 15's frame time). Worked out in linear light
/// against the floor tile's mean colour.
fn overlay_tint(c: Color) -> Color {
    let floor = LinearRgba::from(Color::srgb_u8(136, 123, 105));
    let o = LinearRgba::from(c);
    let a = o.alpha;
    let ch = |f: f32, x: f32| ((1.0 - a) * f + a * x) / f.max(1e-3);
    Color::LinearRgba(LinearRgba::rgb(ch(floor.red, o.red), ch(floor.green, o.green), ch(floor.blue, o.blue)))
}

/// The highlight tint of each space: where the figure deciding can move (green free, blue
/// step, orange run) or the spaces an aimed order can take.
fn highlight_tints(view: &PlayerView, overlay: &Overlay) -> std::collections::HashMap<Pos, Color> {
    use doo_rules::rules::preview::{Aim, MoveKind};
    let mut out = std::collections::HashMap::new();
    if overlay.blocks_board().is_some() {
        return out;
    }
    match view.aiming().map(|c| c.aim.clone()) {
        Some(Aim::Space(spots)) => {
            for (p, _) in spots {
                out.insert(p, overlay_tint(palette::AIM_SPACE));
            }
        }
        Some(Aim::Figure(_)) => {}
        _ => {
            for (p, d) in &view.destinations {
                let c = match d.kind {
                    MoveKind::FreeStep | MoveKind::Walk => palette::FREE,
                    MoveKind::Step => palette::STEP,
                    MoveKind::Run => palette::RUN,
                };
                out.insert(*p, overlay_tint(c));
            }
        }
    }
    out
}

/// Tile art and shade per space: doors as they stand now, secret doors as wall, the fog, and
/// the highlights of the figure deciding (as a tint of the tile).
fn draw_tiles(
    state: Res<MatchState>,
    fog: Res<Fog>,
    view: Res<PlayerView>,
    overlay: Res<Overlay>,
    maps: Query<(&FloorMap, &TileStorage, &TilemapSize)>,
    mut tiles: Query<(&mut TileTextureIndex, &mut TileColor)>,
    added: Query<(), Added<FloorMap>>,
) {
    if !fog.is_changed() && !state.is_changed() && !view.is_changed() && !overlay.is_changed() && added.is_empty() {
        return;
    }
    let tints = highlight_tints(&view, &overlay);
    let b = &state.0.board;
    let hidden = fog.view.as_ref().map(|v| v.hidden_doors.clone()).unwrap_or_default();
    for (floor, storage, size) in &maps {
        for row in 0..size.y as i32 {
            for x in 0..size.x as i32 {
                let p = Pos::on(x, row, floor.0);
                let tp = TilePos { x: x as u32, y: (size.y as i32 - 1 - row) as u32 };
                let Some(e) = storage.get(&tp) else { continue };
                let Ok((mut index, mut colour)) = tiles.get_mut(e) else { continue };
                let t = if hidden.contains(&p) { Tile::Wall } else { b.tile(p).unwrap_or(Tile::Wall) };
                let want = TileTextureIndex(tile_index(t, x, row));
                if *index != want {
                    *index = want;
                }
                let k = b.index(p).unwrap_or(0);
                let shade = if !fog.revealed(k) {
                    Color::BLACK
                } else if fog.in_sight(k) {
                    Color::WHITE
                } else {
                    Color::srgb(0.42, 0.42, 0.5)
                };
                let shade = match tints.get(&p) {
                    Some(t) => {
                        let (s, t) = (LinearRgba::from(shade), LinearRgba::from(*t));
                        Color::LinearRgba(LinearRgba::rgb(s.red * t.red, s.green * t.green, s.blue * t.blue))
                    }
                    None => shade,
                };
                if colour.0 != shade {
                    colour.0 = shade;
                }
            }
        }
    }
}

/// A chest, an item or a known trap on the board.
#[derive(Component)]
struct Feature;

/// Markers for chests (closed: dark wood, open: light), items lying about (gold), traps the
/// side knows of (red) and spent ones ("sprung" or "disarmed", dark red), on revealed spaces only.
fn draw_features(mut commands: Commands, state: Res<MatchState>, fog: Res<Fog>, log: Res<crate::game::log::MatchLog>, old: Query<Entity, With<Feature>>) {
    if !fog.is_changed() && !state.is_changed() {
        return;
    }
    for e in &old {
        commands.entity(e).despawn();
    }
    let m = &state.0;
    let Some(x) = m.explore.as_deref() else { return };
    let b = &m.board;
    let seen = |p: Pos| b.index(p).is_some_and(|k| fog.revealed(k));
    let mut mark = |p: Pos, colour: Color, size: f32, label: &str, name: &str, font: f32| {
        commands
            .spawn((
                Name::new(name.to_string()),
                Feature,
                BoardPart,
                FloorMap(p.floor),
                Sprite::from_color(colour, Vec2::splat(TILE_PX * size)),
                Transform::from_translation(world_of(p, b) + Vec3::Z * 2.0),
            ))
            .with_children(|c| {
                c.spawn((
                    Text2d::new(label.to_string()),
                    TextFont { font_size: FontSize::Px(font), ..default() },
                    TextColor(Color::srgb(0.98, 0.95, 0.85)),
                    Transform::from_xyz(0.0, 0.0, 0.5),
                ));
            });
    };
    for c in x.chests.iter().filter(|c| seen(c.pos)) {
        let colour = if c.open { Color::srgb(0.62, 0.48, 0.30) } else { Color::srgb(0.42, 0.26, 0.12) };
        let label = if c.open {
            if c.items.is_empty() { "empty" } else { "open" }
        } else if c.lock.is_some() {
            "lock"
        } else {
            "chest"
        };
        mark(c.pos, colour, 0.7, label, "Chest", 12.0);
    }
    for (p, _) in x.items.iter().filter(|(p, _)| seen(*p)) {
        mark(*p, Color::srgb(0.85, 0.7, 0.2), 0.35, "", "Item", 12.0);
    }
    if let Some(v) = &fog.view {
        for &p in v.traps.iter().filter(|p| seen(**p)) {
            mark(p, Color::srgba(0.85, 0.15, 0.1, 0.75), 0.5, "trap", "Trap", 12.0);
        }
        // A spent trap keeps a mark where it was (R-EXP-16, R-EXP-17): sprung, or disarmed.
        for &p in v.spent_traps.iter().filter(|p| seen(**p)) {
            let sprung = log.entries().iter().any(|e| matches!(e, LogEntry::Event { event: doo_rules::rules::Event::TrapSprung { at, .. }, .. } if *at == p));
            let label = if sprung { "sprung" } else { "disarmed" };
            mark(p, Color::srgba(0.45, 0.12, 0.08, 0.8), 0.6, label, "Spent trap", 8.0);
        }
    }
}
