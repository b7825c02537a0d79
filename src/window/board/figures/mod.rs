//! The miniatures: each character is a generated figure (`assets/art/figures.png`, one per
//! monster template and hero package, chosen by data: `assets/art/figures.ron`) standing on a
//! base of his side's colour (the one its name says; the colour-blind palette in the settings)
//! **and** shape (circle, square, diamond, hexagon), so sides read
//! without colour. What the rules say of him shows on the figure: kneeling and sitting figures
//! are lower, prone and incapacitated ones lie down, the stunned have stars and the bleeding a
//! drop over their heads, the dead leave remains that no longer read as a figure, and a weapon
//! dropped on a Critical Miss lies on its space. Moves, blows, misses, reflexes and spells are
//! animated with Bevy's easing curves at the speed the settings choose; the figure turns to face
//! where he goes or strikes (`motion.rs`).

use super::{Art, BoardDrawn, BoardPart, FiguresMoved, FloorShown, ShownFloor, TILE_PX, Token, atlas, palette, side_index, world_of};
use crate::game::MatchSystems;
use crate::game::components::{CharacterId, Conditions, GridPos, MatchState, Posture, Side, Vitals};
use crate::game::intent::PlayerView;
use bevy::prelude::*;
use doo_rules::rules::Pos;
use doo_rules::rules::profile::Posture as RulesPosture;
use motion::Motion;
use std::collections::BTreeMap;

mod motion;
pub use motion::callout;

pub(super) fn plugin(app: &mut App) {
    app.add_message::<FigureStepped>().add_systems(
        Update,
        (spawn_tokens, motion::animate_events, motion::move_tokens, show_token_state, log_looks, show_dropped_weapons, motion::fade_effects)
            .chain()
            .in_set(MatchSystems::Present)
            .in_set(FiguresMoved)
            .after(crate::game::intent::ViewRefreshed)
            .after(BoardDrawn)
            .before(FloorShown),
    );
}

/// z of standing figures, of the remains of the dead (under everyone).
const Z_FIGURE: f32 = 10.0;
const Z_REMAINS: f32 = 4.0;

/// A miniature was set down on the next space of its path (the step sound).
#[derive(Message, Debug, Clone, Copy)]
pub struct FigureStepped;

/// The side-coloured, side-shaped base under a figure.
#[derive(Component)]
pub struct Base;
/// The figure standing on the base.
#[derive(Component)]
pub struct Figure;
#[derive(Component)]
pub struct Ring;
#[derive(Component)]
struct HpBar;
#[derive(Component)]
struct Badge;
/// The stars over a stunned figure (`true`), the drop over a bleeding one (`false`).
#[derive(Component)]
struct Mark(bool);
/// A weapon lying on the floor.
#[derive(Component)]
struct DroppedMark;

/// How a figure looks now, as the window last drew it (for tests and tools: a dead figure's
/// look differs from a live one's).
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Look {
    #[default]
    Standing,
    Low,
    Lying,
    Incapacitated,
    Dead,
}

/// The badge of each figure: a number when several figures of one side look alike.
fn badges(chars: &[(String, usize, String)]) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for (id, kind, side) in chars {
        let same: Vec<&String> = chars.iter().filter(|(_, k, s)| s == side && k == kind).map(|(i, _, _)| i).collect();
        let badge = if same.len() > 1 { format!("{}", same.iter().position(|i| *i == id).unwrap_or(0) + 1) } else { String::new() };
        out.insert(id.clone(), badge);
    }
    out
}

/// The level's sides as `(id, name)`, for their colours (`palette::side_colours`).
fn named_sides(level: Option<&crate::window::PlayingLevel>) -> Vec<(String, Option<String>)> {
    level.map(|l| l.0.sides.iter().map(|s| (s.id.clone(), s.name.clone())).collect()).unwrap_or_default()
}

/// A figure's atlas cell: his level's (or template's) sprite when it names a kind, else by his
/// weapon and spells (`assets/art/figures.ron`).
fn kind_of(data: &doo_rules::data::RuleData, m: &doo_rules::rules::Match, order: usize, sprite: Option<&str>) -> usize {
    let Some(f) = m.fighters.get(order) else { return 0 };
    let skill = match m.equipment.wielded(f) {
        doo_rules::rules::equipment::Wielded::Ranged(r) => Some(r.skill.clone()),
        doo_rules::rules::equipment::Wielded::Melee(_, mode) => Some(mode.skill.clone()),
        doo_rules::rules::equipment::Wielded::Unarmed => None,
    };
    // A character called like a kind ("Goblin", "Orc Captain") is drawn as it.
    let by_name = f.name.to_lowercase().replace(' ', "_");
    let sprite = sprite.filter(|s| data.figures.index(s).is_some()).or(data.figures.index(&by_name).map(|_| by_name.as_str()));
    data.figures.pick(sprite, skill.as_deref(), f.caster)
}

#[allow(clippy::too_many_arguments)]
fn spawn_tokens(
    mut commands: Commands,
    new: Query<(Entity, &CharacterId, &Side, &GridPos), Added<CharacterId>>,
    all: Query<(&CharacterId, &Side)>,
    art: Res<Art>,
    state: Option<Res<MatchState>>,
    level: Option<Res<crate::window::PlayingLevel>>,
    data: Res<crate::window::GameData>,
    server: Res<AssetServer>,
    settings: Res<crate::window::settings::Settings>,
) {
    if new.is_empty() {
        return;
    }
    let Some(state) = state else { return };
    let board = &state.board;
    let sides: Vec<String> = level.as_ref().map(|l| l.0.sides.iter().map(|s| s.id.clone()).collect()).unwrap_or_default();
    let colours = palette::side_colours(&named_sides(level.as_deref()), settings.colour_blind);
    let sprite_of = |id: &str| level.as_ref().and_then(|l| l.0.sprites.get(id).cloned());
    let kinds: BTreeMap<String, usize> = all.iter().map(|(c, _)| (c.id.clone(), kind_of(&data.0, &state, c.order, sprite_of(&c.id).as_deref()))).collect();
    let list: Vec<(String, usize, String)> = all.iter().map(|(c, s)| (c.id.clone(), kinds.get(&c.id).copied().unwrap_or(0), s.0.clone())).collect();
    let names = badges(&list);
    for (e, c, side, pos) in &new {
        let k = side_index(&side.0, &sides);
        let kind = kinds.get(&c.id).copied().unwrap_or(0);
        let badge = names.get(&c.id).cloned().unwrap_or_default();
        // A level may name its own PNG (a path under assets/) instead of a kind.
        let custom = sprite_of(&c.id).filter(|s| s.ends_with(".png") && doo_rules::level_file::safe_asset_path(s));
        let custom = custom.map(|path| server.load(path));
        let figure = match &custom {
            Some(image) => Sprite { image: image.clone(), custom_size: Some(Vec2::splat(TILE_PX)), ..default() },
            None => Sprite {
                image: art.figures.clone(),
                texture_atlas: Some(TextureAtlas { layout: art.figures_layout.clone(), index: kind }),
                custom_size: Some(Vec2::splat(TILE_PX * 0.96)),
                ..default()
            },
        };
        commands
            .entity(e)
            .insert((
                Token { badge: badge.clone(), kind, custom },
                Motion::default(),
                Look::default(),
                Transform::from_translation(world_of(pos.0, board) + Vec3::Z * Z_FIGURE),
                Visibility::default(),
            ))
            .with_children(|p| {
                // The base: the side's shape in the side's colour, a little flattened so it reads
                // as the ground the miniature stands on.
                let mut base = Sprite::from_atlas_image(art.tokens.clone(), TextureAtlas { layout: art.tokens_layout.clone(), index: k });
                base.custom_size = Some(Vec2::splat(TILE_PX * 1.0));
                base.color = colours.get(sides.iter().position(|s| *s == side.0).unwrap_or(0)).copied().unwrap_or(palette::SIDES[k]);
                p.spawn((Base, base, Transform::from_xyz(0.0, 0.0, 0.0)));
                p.spawn((Figure, figure, Transform::from_xyz(0.0, TILE_PX * 0.06, 0.5)));
                p.spawn((
                    Badge,
                    Text2d::new(badge),
                    TextFont { font_size: FontSize::Px(10.0), ..default() },
                    TextColor(Color::WHITE),
                    bevy::sprite::Anchor::BOTTOM_RIGHT,
                    Transform::from_xyz(TILE_PX * 0.48, -TILE_PX * 0.44, 1.5),
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
                for stunned in [true, false] {
                    let index = if stunned { data.0.figures.marks.stunned } else { data.0.figures.marks.bleeding };
                    p.spawn((
                        Mark(stunned),
                        Sprite {
                            image: art.figures.clone(),
                            texture_atlas: Some(TextureAtlas { layout: art.figures_layout.clone(), index }),
                            custom_size: Some(Vec2::splat(TILE_PX)),
                            ..default()
                        },
                        Transform::from_xyz(0.0, TILE_PX * 0.12, 2.5),
                        Visibility::Hidden,
                    ));
                }
            });
    }
}

/// Posture, conditions, wounds and death on the figure; selection ring; HP bar.
#[allow(clippy::type_complexity)]
fn show_token_state(
    view: Res<PlayerView>,
    state: Option<Res<MatchState>>,
    level: Option<Res<crate::window::PlayingLevel>>,
    data: Res<crate::window::GameData>,
    art: Res<Art>,
    mut tokens: Query<(&CharacterId, &Side, &Vitals, &Posture, &Conditions, &Children, &Motion, &mut Look, &Token)>,
    mut parts: ParamSet<(
        Query<(&mut Sprite, &mut Transform, &mut Visibility), With<Figure>>,
        Query<(&mut Sprite, &mut Visibility), With<Base>>,
        Query<(&mut Sprite, &mut Transform, &mut Visibility), With<HpBar>>,
        Query<(&Mark, &mut Visibility)>,
        Query<&mut Visibility, Or<(With<Ring>, With<Badge>)>>,
    )>,
    rings: Query<(), With<Ring>>,
    settings: Res<crate::window::settings::Settings>,
) {
    let Some(state) = state else { return };
    let named = named_sides(level.as_deref());
    let colours = palette::side_colours(&named, settings.colour_blind);
    let marks = data.0.figures.marks;
    for (c, side, v, posture, conds, children, motion, mut look, token) in &mut tokens {
        let dead = c.order < state.fighters.len() && state.is_dead(c.order);
        // Down as the rules say it: they give the incapacitated condition (R-INJ-3 at 0 HP).
        let down = conds.iter().any(|x| x.id == "incapacitated");
        let new_look = if dead {
            Look::Dead
        } else if down {
            Look::Incapacitated
        } else {
            match posture.0 {
                RulesPosture::Prone => Look::Lying,
                RulesPosture::Kneeling | RulesPosture::Sitting => Look::Low,
                RulesPosture::Standing => Look::Standing,
            }
        };
        if *look != new_look {
            *look = new_look;
        }
        let has = |id: &str| !dead && conds.iter().any(|x| x.id == id);
        for ch in children.iter() {
            if let Ok((mut s, mut t, mut vis)) = parts.p0().get_mut(ch) {
                let (index, rot, scale, y, color) = match new_look {
                    Look::Dead => (Some(marks.remains), 0.0, Vec3::ONE, 0.0, Color::srgb(0.85, 0.8, 0.8)),
                    Look::Incapacitated => (None, std::f32::consts::FRAC_PI_2, Vec3::splat(0.9), -2.0, Color::srgb(0.6, 0.6, 0.6)),
                    Look::Lying => (None, std::f32::consts::FRAC_PI_2, Vec3::splat(0.9), -2.0, Color::WHITE),
                    Look::Low => (None, 0.0, Vec3::new(1.0, 0.78, 1.0), -TILE_PX * 0.06, Color::WHITE),
                    Look::Standing => (None, 0.0, Vec3::ONE, TILE_PX * 0.06, Color::WHITE),
                };
                let index = index.unwrap_or(token.kind);
                // A level's own PNG is the figure while he lives; the dead leave the remains.
                match (&token.custom, new_look == Look::Dead) {
                    (Some(own), false) if s.image != *own => {
                        s.image = own.clone();
                        s.texture_atlas = None;
                    }
                    (Some(_), true) if s.texture_atlas.is_none() => {
                        s.image = art.figures.clone();
                        s.texture_atlas = Some(TextureAtlas { layout: art.figures_layout.clone(), index });
                    }
                    _ => {}
                }
                if let Some(a) = s.texture_atlas.as_mut() {
                    if a.index != index {
                        a.index = index;
                    }
                }
                let color = if motion.flash > 0.0 && (motion.flash * 20.0).sin() > 0.0 {
                    if motion.hit { palette::TARGET } else { Color::srgb(1.6, 1.6, 1.6) }
                } else {
                    color
                };
                if s.color != color {
                    s.color = color;
                }
                let rotation = Quat::from_rotation_z(if s.flip_x { -rot } else { rot });
                if t.rotation != rotation || t.scale != scale || t.translation.y != y {
                    t.rotation = rotation;
                    t.scale = scale;
                    t.translation.y = y;
                }
                vis.set_if_neq(Visibility::Inherited);
            }
            if let Ok((mut s, mut vis)) = parts.p1().get_mut(ch) {
                // The dead lose their base: what is left is not a miniature any more.
                vis.set_if_neq(if dead { Visibility::Hidden } else { Visibility::Inherited });
                let mut col = colours.get(named.iter().position(|(id, _)| *id == side.0).unwrap_or(0)).copied().unwrap_or(palette::SIDES[0]);
                if down {
                    col = col.mix(&Color::srgb(0.2, 0.2, 0.2), 0.5);
                }
                if s.color != col {
                    s.color = col;
                }
            }
            if let Ok((mut s, mut t, mut vis)) = parts.p2().get_mut(ch) {
                vis.set_if_neq(if dead { Visibility::Hidden } else { Visibility::Inherited });
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
            if let Ok((mark, mut vis)) = parts.p3().get_mut(ch) {
                let on = if mark.0 { has("stunned") } else { has("bleeding") };
                vis.set_if_neq(if on { Visibility::Inherited } else { Visibility::Hidden });
            }
            if let Ok(mut vis) = parts.p4().get_mut(ch) {
                let on = if rings.contains(ch) { view.decider.as_deref() == Some(c.id.as_str()) } else { !dead };
                vis.set_if_neq(if on { Visibility::Inherited } else { Visibility::Hidden });
            }
        }
    }
}

/// With `--log`: a `figure` line whenever a figure's look changes (its id, the look, the atlas
/// cell drawn), for tests and tools.
fn log_looks(
    opts: Res<crate::window::WindowOptions>,
    looks: Query<(&CharacterId, &Look, &Children, &Token), Changed<Look>>,
    figures: Query<&Sprite, With<Figure>>,
) {
    // `show_token_state` runs just before: the cell logged is the one drawn this frame.
    let Some(path) = &opts.log else { return };
    if looks.is_empty() {
        return;
    }
    let mut out = String::new();
    for (c, look, children, token) in &looks {
        let cell = children.iter().find_map(|ch| figures.get(ch).ok()).and_then(|s| s.texture_atlas.as_ref().map(|a| a.index));
        let line =
            serde_json::json!({"type": "figure", "id": c.id, "look": format!("{look:?}").to_lowercase(), "cell": cell, "custom": token.custom.is_some()});
        out.push_str(&format!("{line}\n"));
    }
    let _ = doo_rules::data::append_text(path, &out);
}

/// Weapons dropped on a Critical Miss lie on their space until picked up (G-19, G-22).
fn show_dropped_weapons(
    mut commands: Commands,
    state: Option<Res<MatchState>>,
    shown: Res<ShownFloor>,
    art: Res<Art>,
    data: Res<crate::window::GameData>,
    old: Query<Entity, With<DroppedMark>>,
    mut last: Local<Vec<Pos>>,
) {
    let Some(state) = state else { return };
    // The weapons on the floor shown.
    let mut now: Vec<Pos> = state.fighters.iter().flat_map(|f| f.loadout.dropped.iter().map(|(_, p)| *p)).filter(|p| p.floor == shown.0).collect();
    now.sort();
    // Redrawn when they change, and when the board was rebuilt under them (a new match, a
    // loaded save: the marks went with the board).
    if *last == now && (now.is_empty() || !old.is_empty()) {
        return;
    }
    last.clone_from(&now);
    for e in &old {
        commands.entity(e).despawn();
    }
    for p in now {
        commands.spawn((
            Name::new("Dropped weapon"),
            DroppedMark,
            BoardPart,
            Sprite {
                image: art.figures.clone(),
                texture_atlas: Some(TextureAtlas { layout: art.figures_layout.clone(), index: data.0.figures.marks.dropped_weapon }),
                custom_size: Some(Vec2::splat(TILE_PX * 0.9)),
                ..default()
            },
            Transform::from_translation(world_of(p, &state.board) + Vec3::Z * 3.0),
        ));
    }
}
