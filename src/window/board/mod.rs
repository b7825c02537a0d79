//! The board: the level's floors as bevy_ecs_tilemap maps (`tiles.rs`), the miniatures
//! (`figures/`), fog of war and the crawl's features (`fog.rs`), the cameras (`camera.rs`), and
//! the pointer and the keyboard cursor (`cursor.rs`), whose hovered space and clicks become
//! `Intent`s. This file holds what they share — the art, where a space is drawn, the floor shown,
//! the hovered space, the fog, whether tokens move, what covers the board — so that none of
//! them reads another, and the HUD reads only this.

use bevy::prelude::*;
use doo_rules::rules::Board;
use doo_rules::rules::Pos;
use doo_rules::rules::explore::SideView;
use doo_rules::rules::grid::Tile;

pub mod camera;
pub mod cursor;
pub mod figures;
pub mod fog;
pub mod tiles;

/// World units per space (the art is 32 px: 1:1 at zoom 1).
pub const TILE_PX: f32 = 32.0;

pub mod palette {
    use bevy::prelude::Color;
    pub const BACKGROUND: Color = Color::srgb(0.06, 0.05, 0.07);
    /// Side colours when a side's name says none: blue/orange/green/purple; each side also has
    /// its own token shape (circle, square, diamond, hexagon), so sides read without colour.
    pub const SIDES: [Color; 4] = [Color::srgb(0.30, 0.55, 0.95), Color::srgb(0.95, 0.58, 0.18), Color::srgb(0.35, 0.78, 0.42), Color::srgb(0.72, 0.45, 0.88)];
    /// The colour-blind palette (Okabe and Ito's: blue, orange, bluish green, reddish purple),
    /// in side order when a side's name names no colour.
    pub const SIDES_COLOUR_BLIND: [Color; 4] =
        [Color::srgb(0.0, 0.45, 0.70), Color::srgb(0.90, 0.62, 0.0), Color::srgb(0.0, 0.62, 0.45), Color::srgb(0.80, 0.47, 0.65)];
    /// Colour words a side's name may say, and the base each gives: the sides' own colours, then
    /// the colour-blind palette's nearest (vermillion for red, yellow for gold).
    const NAMED: [(&[&str], Color, Color); 8] = [
        (&["red", "crimson", "scarlet", "blood"], Color::srgb(0.90, 0.25, 0.22), Color::srgb(0.84, 0.37, 0.0)),
        (&["blue", "azure", "sapphire"], Color::srgb(0.30, 0.55, 0.95), Color::srgb(0.0, 0.45, 0.70)),
        (&["green", "emerald", "jade"], Color::srgb(0.35, 0.78, 0.42), Color::srgb(0.0, 0.62, 0.45)),
        (&["gold", "golden", "yellow", "amber"], Color::srgb(0.95, 0.80, 0.22), Color::srgb(0.94, 0.89, 0.26)),
        (&["purple", "violet", "plum"], Color::srgb(0.72, 0.45, 0.88), Color::srgb(0.80, 0.47, 0.65)),
        (&["orange"], Color::srgb(0.95, 0.58, 0.18), Color::srgb(0.90, 0.62, 0.0)),
        (&["white", "silver", "grey", "gray", "pale"], Color::srgb(0.88, 0.88, 0.90), Color::srgb(0.90, 0.90, 0.90)),
        (&["black", "shadow", "dark"], Color::srgb(0.30, 0.30, 0.34), Color::srgb(0.25, 0.25, 0.25)),
    ];

    /// The base colour of each side (`(id, name)` in the level's order): the colour its name (or
    /// else its id) says ("Red Company" stands on red, "Gold Banner" on gold), else the next of
    /// the palette in side order; never one another side already has. `colour_blind`: from the
    /// colour-blind palette.
    pub fn side_colours(sides: &[(String, Option<String>)], colour_blind: bool) -> Vec<Color> {
        let pick = |c: &(&[&str], Color, Color)| if colour_blind { c.2 } else { c.1 };
        let said = |text: &str| {
            let text = text.to_lowercase();
            let words: Vec<&str> = text.split(|c: char| !c.is_alphanumeric()).collect();
            NAMED.iter().find(|c| c.0.iter().any(|w| words.contains(w))).map(pick)
        };
        let mut out: Vec<Color> = Vec::new();
        let own: Vec<Option<Color>> = sides.iter().map(|(id, name)| name.as_deref().and_then(said).or_else(|| said(id))).collect();
        let fallback = if colour_blind { SIDES_COLOUR_BLIND } else { SIDES };
        for (k, named) in own.iter().enumerate() {
            let free = |c: &Color| !out.contains(c) && !own[k + 1..].contains(&Some(*c));
            let colour = named
                .filter(|c| !out.contains(c))
                .or_else(|| fallback.iter().cycle().skip(k % fallback.len()).take(fallback.len()).copied().find(free))
                .unwrap_or(fallback[k % fallback.len()]);
            out.push(colour);
        }
        out
    }

    /// The base colour of side `side` among `sides` (`side_colours`).
    pub fn side_colour(side: &str, sides: &[(String, Option<String>)], colour_blind: bool) -> Color {
        let k = sides.iter().position(|(id, _)| id == side).unwrap_or(0);
        side_colours(sides, colour_blind).get(k).copied().unwrap_or(SIDES[0])
    }

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
pub mod atlas {
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
        .init_resource::<Fog>()
        .init_resource::<ActionFocus>()
        .init_resource::<DragState>()
        .init_resource::<Overlay>()
        .add_systems(Startup, load_art)
        .add_plugins((camera::plugin, tiles::plugin, cursor::plugin, figures::plugin, fog::plugin));
}

/// Pointer and key input on the board.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct BoardInput;

/// The board (re)built: the fog and the crawl's markers draw after it.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct BoardDrawn;

/// The fog is worked out (the board's tokens read it).
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct FogDrawn;

/// The miniatures drawn and moved this frame (sound plays after).
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct FiguresMoved;

/// The floor shown and the highlights on it (the figures move before, the keyboard cursor is
/// drawn after).
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct FloorShown;

/// Whether a full-screen overlay (handover, help, result) takes the input.
fn no_overlay(o: Res<Overlay>) -> bool {
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

fn load_art(mut commands: Commands, server: Res<AssetServer>, mut layouts: ResMut<Assets<TextureAtlasLayout>>, data: Res<super::GameData>) {
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

pub fn tile_index(t: Tile, x: i32, y: i32) -> u32 {
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

/// Side order for colours and shapes: the level's sides in order.
pub fn side_index(side: &str, sides: &[String]) -> usize {
    sides.iter().position(|s| s == side).unwrap_or(0) % 4
}

/// A miniature; `badge` tells apart figures of one side drawn alike ("2").
#[derive(Component)]
pub struct Token {
    pub badge: String,
    /// The atlas cell of his figure.
    pub kind: usize,
    /// His own image, when the level names a PNG (the dead still leave the remains).
    pub custom: Option<Handle<Image>>,
}

/// Where the action is (a figure walking or striking), for the camera to follow.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq)]
pub struct ActionFocus(pub Option<Vec3>);

/// The keyboard cursor: the arrows move it (it starts on the figure who decides), Space clicks
/// the space under it, F puts it on the next figure of the side deciding. While it is in use it
/// is the hovered space (previews, paths, the card); moving the mouse hands over to the pointer.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq)]
pub struct KeyCursor {
    pub at: Option<Pos>,
    pub active: bool,
}

/// A press that moved far enough is a drag (the board then ignores its release as a click).
#[derive(Resource, Debug, Default)]
pub struct DragState {
    pub from: Option<Vec2>,
    pub dragged: bool,
}

/// The camera that draws the board (tiles, figures, markers): clipped to the board area.
#[derive(Component)]
pub struct BoardCamera;

/// What the window shows: the viewing side and its view (`None`: a level without fog).
#[derive(Resource, Debug, Default)]
pub struct Fog {
    pub side: Option<String>,
    pub view: Option<SideView>,
}

impl Fog {
    /// Whether figure `i` may be drawn.
    pub fn shows(&self, i: usize) -> bool {
        self.view.as_ref().is_none_or(|v| v.figures.contains(&i))
    }
    /// Whether space `k` (`Board::index`) has been revealed.
    pub fn revealed(&self, k: usize) -> bool {
        self.view.as_ref().is_none_or(|v| v.revealed.get(k).copied().unwrap_or(false))
    }
    pub fn in_sight(&self, k: usize) -> bool {
        self.view.as_ref().is_none_or(|v| v.visible.get(k).copied().unwrap_or(false))
    }
}

/// What covers the board: the HUD's overlays, which the HUD opens and closes. Help, handover
/// and the result take the input (the board takes none under them); the reset steps do not.
#[derive(Resource, Debug, Clone, Default, PartialEq)]
pub struct Overlay {
    pub help: bool,
    /// Hot-seat: the board is hidden until this player clicks.
    pub handover: Option<String>,
    pub result: Option<String>,
    /// Reset-phase lines shown so far, all lines, seconds to the next.
    pub reset: Option<(usize, Vec<String>, f32)>,
    /// The match menu (Esc): resume, save as, load, leave.
    pub menu: bool,
    /// Save as: the slot name being typed.
    pub save_name: Option<String>,
    /// What the last save did ("Saved as …", or why it failed), shown in the menu.
    pub menu_note: Option<(String, bool)>,
    /// The rules reference, open at this rule id (F2).
    pub rules: Option<String>,
}

impl Overlay {
    /// Which overlay takes the board's input, if any.
    pub fn blocks_board(&self) -> Option<&'static str> {
        if self.handover.is_some() {
            Some("handover")
        } else if self.menu || self.save_name.is_some() {
            Some("menu")
        } else if self.result.is_some() {
            Some("result")
        } else if self.help {
            Some("help")
        } else if self.rules.is_some() {
            Some("rules")
        } else {
            None
        }
    }
}
