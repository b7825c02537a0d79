//! The baseline for the frame-time figure (issue 15): a bare `bevy_ecs_tilemap` map of the
//! game's tiles in the same 1280×720 window, at the size on screen the game gives its board,
//! nothing else. It runs `FRAMES` frames and writes
//! the frame times (after a warm-up) as JSON, the same fields as `doo play --frame-stats`.
//!
//!     cargo run --example bare_tilemap -- WIDTH HEIGHT FRAMES OUT.json
//!
//! `.ci/run`-free: the README's speed table is made by running both under Xvfb in one go
//! (see the README).

use bevy::prelude::*;
use bevy_ecs_tilemap::prelude::*;

#[derive(Resource)]
struct Args {
    width: u32,
    height: u32,
    frames: u32,
    out: String,
}

#[derive(Resource, Default)]
struct Frames(Vec<f64>);

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let num = |i: usize, d: u32| a.get(i).and_then(|s| s.parse().ok()).unwrap_or(d);
    let args = Args { width: num(1, 32), height: num(2, 32), frames: num(3, 300), out: a.get(4).cloned().unwrap_or_else(|| "bare-frames.json".into()) };
    App::new()
        .add_plugins(
            DefaultPlugins
                .set(WindowPlugin {
                    primary_window: Some(Window {
                        title: "bare tilemap".into(),
                        resolution: (1280, 720).into(),
                        // As the game with --frame-stats: no vsync, so the frame time is the work.
                        present_mode: bevy::window::PresentMode::AutoNoVsync,
                        ..default()
                    }),
                    ..default()
                })
                .set(ImagePlugin::default_nearest())
                // The game's art, wherever the binary runs from (run directly, Bevy would look
                // for assets/ beside the executable, find nothing and draw an empty map).
                .set(AssetPlugin { file_path: concat!(env!("CARGO_MANIFEST_DIR"), "/assets").into(), ..default() }),
        )
        .add_plugins(TilemapPlugin)
        // As the game with --frame-stats: an unfocused window (Xvfb) is not held to 60 Hz.
        .insert_resource(bevy::winit::WinitSettings { focused_mode: bevy::winit::UpdateMode::Continuous, unfocused_mode: bevy::winit::UpdateMode::Continuous })
        .insert_resource(args)
        .init_resource::<Frames>()
        .add_systems(Startup, spawn_map)
        .add_systems(Update, time_frames)
        .run();
}

fn spawn_map(mut commands: Commands, assets: Res<AssetServer>, args: Res<Args>) {
    // Fitted exactly as the game fits its board: to the area its panels leave (UI scale 1), so
    // both draw the map at the same size on screen.
    use doo_app::window::board::camera::{BOTTOM_BAR_PX, TOP_BAR_PX, right_panel_px};
    let area = Vec2::new(1280.0 - right_panel_px(1280.0) - 40.0, 720.0 - (TOP_BAR_PX + BOTTOM_BAR_PX) - 30.0).max(Vec2::splat(100.0));
    let scale = (args.width as f32 * 32.0 / area.x).max(args.height as f32 * 32.0 / area.y).clamp(0.25, 4.0);
    // The same camera as the game's (no multisampling: pixel art).
    commands.spawn((Camera2d, Msaa::Off, Transform::from_scale(Vec3::splat(scale))));
    let texture = assets.load("art/tiles.png");
    let size = TilemapSize { x: args.width, y: args.height };
    let map = commands.spawn_empty().id();
    let mut storage = TileStorage::empty(size);
    for y in 0..size.y {
        for x in 0..size.x {
            let pos = TilePos { x, y };
            let index = if x == 0 || y == 0 || x == size.x - 1 || y == size.y - 1 { 2 } else { (x + y) % 2 };
            let tile = commands.spawn(TileBundle { position: pos, tilemap_id: TilemapId(map), texture_index: TileTextureIndex(index), ..default() }).id();
            storage.set(&pos, tile);
        }
    }
    let tile_size = TilemapTileSize { x: 32.0, y: 32.0 };
    commands.entity(map).insert(TilemapBundle {
        grid_size: tile_size.into(),
        map_type: TilemapType::Square,
        size,
        storage,
        texture: TilemapTexture::Single(texture),
        tile_size,
        anchor: TilemapAnchor::Center,
        ..default()
    });
}

/// Frames skipped before timing (startup, shader compilation, first uploads).
const WARM_UP: usize = 60;

fn time_frames(
    time: Res<Time<Real>>,
    args: Res<Args>,
    mut frames: ResMut<Frames>,
    mut exit: MessageWriter<AppExit>,
    images: Res<Assets<Image>>,
    maps: Query<&TilemapTexture>,
) {
    // A baseline that drew nothing would flatter every comparison: the tiles must be loaded.
    if frames.0.len() == WARM_UP && maps.iter().any(|t| matches!(t, TilemapTexture::Single(h) if images.get(h).is_none())) {
        panic!("the tile texture did not load: the baseline would draw an empty map");
    }
    frames.0.push(time.delta_secs_f64() * 1e3);
    if frames.0.len() as u32 >= args.frames {
        let json = frame_json(&frames.0[WARM_UP.min(frames.0.len())..]);
        std::fs::write(&args.out, json.to_string()).expect("write the frame times");
        exit.write(AppExit::Success);
    }
}

/// Median, 95th percentile and mean of frame times in ms.
fn frame_json(ms: &[f64]) -> serde_json::Value {
    let mut s = ms.to_vec();
    s.sort_by(f64::total_cmp);
    let at = |q: f64| s.get(((s.len() as f64 - 1.0) * q).round() as usize).copied().unwrap_or(0.0);
    serde_json::json!({"frames": s.len(), "median_ms": at(0.5), "p95_ms": at(0.95), "mean_ms": s.iter().sum::<f64>() / s.len().max(1) as f64})
}
