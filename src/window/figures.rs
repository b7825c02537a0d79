//! The miniatures: each character is a generated figure (`assets/art/figures.png`, one per
//! monster template and hero package, chosen by data: `assets/art/figures.ron`) standing on a
//! base of his side's colour **and** shape (circle, square, diamond, hexagon), so sides read
//! without colour. What the rules say of him shows on the figure: kneeling and sitting figures
//! are lower, prone and incapacitated ones lie down, the stunned have stars and the bleeding a
//! drop over their heads, the dead leave remains that no longer read as a figure, and a weapon
//! dropped on a Critical Miss lies on its space. Moves, blows, misses, reflexes and spells are
//! animated with Bevy's easing curves at the speed the settings choose; the figure turns to face
//! where he goes or strikes.

use super::board::{Art, BoardPart, TILE_PX, TokensMoving, palette, side_index, world_of};
use super::settings::Settings;
use crate::game::MatchSystems;
use crate::game::components::{CharacterId, Conditions, GridPos, MatchState, Posture, Side, Vitals};
use crate::game::intent::PlayerView;
use crate::game::log::RulesEvent;
use crate::rules::profile::Posture as RulesPosture;
use crate::rules::{Event, Pos};
use bevy::math::curve::{Curve, EaseFunction, EasingCurve};
use bevy::prelude::*;
use std::collections::{BTreeMap, VecDeque};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<ActionFocus>().add_message::<FigureStepped>().add_systems(
        Update,
        (spawn_tokens, animate_events, move_tokens, show_token_state, log_looks, show_dropped_weapons, fade_effects)
            .chain()
            .in_set(MatchSystems::Present)
            .in_set(FiguresMoved)
            .after(crate::game::intent::ViewRefreshed)
            .after(super::board::BoardDrawn)
            .before(super::board::show_floor),
    );
}

/// Seconds a step from one space to the next takes at normal speed.
const STEP_SECS: f32 = 0.11;
/// Seconds of a blow (out and back).
const LUNGE_SECS: f32 = 0.28;
/// Seconds a missed target sways aside.
const SWAY_SECS: f32 = 0.35;
/// Seconds a spell's bolt flies.
const BOLT_SECS: f32 = 0.3;
/// Height in world units of the little hop of a miniature moved space to space.
const HOP: f32 = 3.0;
/// z of standing figures, of the remains of the dead (under everyone).
const Z_FIGURE: f32 = 10.0;
const Z_REMAINS: f32 = 4.0;

/// The miniatures drawn and moved this frame (sound plays after).
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct FiguresMoved;

/// A miniature was set down on the next space of its path (the step sound).
#[derive(Message, Debug, Clone, Copy)]
pub struct FigureStepped;

/// Where the action is (a figure walking or striking), for the camera to follow.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq)]
pub struct ActionFocus(pub Option<Vec3>);

/// A miniature; `badge` tells apart figures of one side drawn alike ("2").
#[derive(Component)]
pub struct Token {
    pub badge: String,
    /// The atlas cell of his figure.
    pub kind: usize,
    /// His own image, when the level names a PNG (the dead still leave the remains).
    pub custom: Option<Handle<Image>>,
}

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

/// Where a token is going and what it is doing.
#[derive(Component, Default)]
struct Motion {
    /// The spaces still to walk through.
    waypoints: VecDeque<Vec3>,
    /// The step in progress: from, to, seconds done.
    step: Option<(Vec3, Vec3, f32)>,
    /// A blow toward a target and back: offset, seconds done.
    lunge: Option<(Vec3, f32)>,
    /// A missed figure sways aside: direction, seconds done.
    sway: Option<(Vec3, f32)>,
    /// Flash after being hit (red) or missed (white), seconds left.
    flash: f32,
    hit: bool,
}

/// Short-lived effects: floating numbers, a reflex's ring, a spell's bolt.
#[derive(Component)]
struct Effect {
    age: f32,
    life: f32,
    kind: EffectKind,
}

enum EffectKind {
    /// Rises and fades.
    Float,
    /// Grows and fades (a reflex, a burst).
    Ring,
    /// Flies from one place to another, then bursts.
    Bolt(Vec3, Vec3),
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

/// A figure's atlas cell: his level's (or template's) sprite when it names a kind, else by his
/// weapon and spells (`assets/art/figures.ron`).
fn kind_of(data: &crate::data::RuleData, m: &crate::rules::Match, order: usize, sprite: Option<&str>) -> usize {
    let Some(f) = m.fighters.get(order) else { return 0 };
    let skill = match m.equipment.wielded(f) {
        crate::rules::equipment::Wielded::Ranged(r) => Some(r.skill.clone()),
        crate::rules::equipment::Wielded::Melee(_, mode) => Some(mode.skill.clone()),
        crate::rules::equipment::Wielded::Unarmed => None,
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
    level: Option<Res<super::screens::PlayingLevel>>,
    data: Res<super::screens::GameData>,
    server: Res<AssetServer>,
) {
    if new.is_empty() {
        return;
    }
    let Some(state) = state else { return };
    let board = &state.board;
    let sides: Vec<String> = level.as_ref().map(|l| l.0.sides.iter().map(|s| s.id.clone()).collect()).unwrap_or_default();
    let sprite_of = |id: &str| level.as_ref().and_then(|l| l.0.sprites.get(id).cloned());
    let kinds: BTreeMap<String, usize> = all.iter().map(|(c, _)| (c.id.clone(), kind_of(&data.0, &state, c.order, sprite_of(&c.id).as_deref()))).collect();
    let list: Vec<(String, usize, String)> = all.iter().map(|(c, s)| (c.id.clone(), kinds.get(&c.id).copied().unwrap_or(0), s.0.clone())).collect();
    let names = badges(&list);
    for (e, c, side, pos) in &new {
        let k = side_index(&side.0, &sides);
        let kind = kinds.get(&c.id).copied().unwrap_or(0);
        let badge = names.get(&c.id).cloned().unwrap_or_default();
        // A level may name its own PNG (a path under assets/) instead of a kind.
        let custom = sprite_of(&c.id).filter(|s| s.ends_with(".png") && crate::level_file::safe_asset_path(s));
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
                base.color = palette::SIDES[k];
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
                        texture_atlas: Some(TextureAtlas { layout: art.tokens_layout.clone(), index: super::board::atlas::RING }),
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

fn ease(f: EaseFunction, t: f32) -> f32 {
    f.sample_clamped(t)
}

/// Movement follows the path the rules report; a blow lunges at its target, who flashes red when
/// hurt or sways aside when missed; damage floats up; a reflex flashes a ring; a spell flies.
fn animate_events(
    mut commands: Commands,
    mut events: MessageReader<RulesEvent>,
    state: Option<Res<MatchState>>,
    settings: Res<Settings>,
    art: Res<Art>,
    mut tokens: Query<(&CharacterId, &mut Motion, &Transform, &Children)>,
    mut figures: Query<&mut Sprite, With<Figure>>,
    fog: Res<super::fog::Fog>,
) {
    let Some(state) = state else {
        events.clear();
        return;
    };
    // Fog of war (R-EXP-19): no number, ring or bolt over a figure the viewing side does not see.
    let shown = |id: &str| state.index(id).is_none_or(|i| fog.shows(i));
    let board = &state.board;
    let animate = settings.animation_speed > 0.0;
    let at = |tokens: &Query<(&CharacterId, &mut Motion, &Transform, &Children)>, id: &str| {
        tokens.iter().find(|(c, _, _, _)| c.id == id).map(|(_, _, t, _)| t.translation)
    };
    // A figure turns to face where he goes or strikes (the art faces right).
    let mut face = |tokens: &Query<(&CharacterId, &mut Motion, &Transform, &Children)>, id: &str, dx: f32| {
        if dx.abs() < 0.5 {
            return;
        }
        if let Some((_, _, _, children)) = tokens.iter().find(|(c, _, _, _)| c.id == id) {
            for ch in children.iter() {
                if let Ok(mut s) = figures.get_mut(ch) {
                    if s.flip_x != (dx < 0.0) {
                        s.flip_x = dx < 0.0;
                    }
                }
            }
        }
    };
    for RulesEvent(e) in events.read() {
        match e {
            Event::Moved { actor, path, to, .. } => {
                let pts: Vec<Pos> = if path.is_empty() { vec![*to] } else { path.clone() };
                if let (Some(from), Some(last)) = (at(&tokens, actor), pts.last()) {
                    face(&tokens, actor, world_of(*last, board).x - from.x);
                }
                // A figure the viewing side does not see just stands where it ends up: its walk
                // is neither shown nor waited for (R-EXP-19).
                if animate && shown(actor) {
                    if let Some((_, mut m, _, _)) = tokens.iter_mut().find(|(c, _, _, _)| &c.id == actor) {
                        m.waypoints.extend(pts.into_iter().map(|p| world_of(p, board) + Vec3::Z * Z_FIGURE));
                    }
                }
            }
            Event::AttackResolved { actor, target, damage, outcome, .. } => {
                let (from, to) = (at(&tokens, actor), at(&tokens, target));
                if let (Some(a), Some(t)) = (from, to) {
                    face(&tokens, actor, t.x - a.x);
                }
                let missed = outcome.contains("miss");
                if let (Some(a), Some(t), true) = (from, to, animate) {
                    if let Some((_, mut m, _, _)) = tokens.iter_mut().find(|(c, _, _, _)| &c.id == actor) {
                        m.lunge = Some(((t - a).with_z(0.0) * 0.35, 0.0));
                    }
                    if let Some((_, mut m, _, _)) = tokens.iter_mut().find(|(c, _, _, _)| &c.id == target) {
                        m.flash = 0.45;
                        m.hit = *damage > 0;
                        if missed {
                            let d = (t - a).with_z(0.0).normalize_or_zero();
                            m.sway = Some((Vec3::new(-d.y, d.x, 0.0) * TILE_PX * 0.22, 0.0));
                        }
                    }
                }
                if let Some(tp) = to.filter(|_| shown(target)) {
                    let (s, color) = if missed { ("miss".to_string(), Color::WHITE) } else { (format!("-{damage}"), palette::TARGET) };
                    commands.spawn((
                        Name::new("Damage text"),
                        Effect { age: 0.0, life: 1.0, kind: EffectKind::Float },
                        BoardPart,
                        Text2d::new(s),
                        TextFont { font_size: FontSize::Px(16.0), ..default() },
                        TextColor(color),
                        Transform::from_translation(tp + Vec3::new(0.0, TILE_PX * 0.5, 30.0)),
                    ));
                }
            }
            Event::ReflexDeclared { actor, .. } | Event::ResponseDeclared { actor, .. } if animate && shown(actor) => {
                if let Some(p) = at(&tokens, actor) {
                    commands.spawn((
                        Name::new("Reflex ring"),
                        Effect { age: 0.0, life: 0.5, kind: EffectKind::Ring },
                        BoardPart,
                        Sprite {
                            image: art.tokens.clone(),
                            texture_atlas: Some(TextureAtlas { layout: art.tokens_layout.clone(), index: super::board::atlas::RING }),
                            custom_size: Some(Vec2::splat(TILE_PX)),
                            color: Color::srgb(0.55, 0.85, 1.0),
                            ..default()
                        },
                        Transform::from_translation(p + Vec3::Z * 25.0),
                    ));
                }
            }
            Event::ActionTaken { actor, action, target } if animate && action.contains("spell") && shown(actor) => {
                let from = at(&tokens, actor);
                let to = target.as_deref().and_then(|t| at(&tokens, t)).or(from);
                if let (Some(a), Some(b)) = (from, to) {
                    face(&tokens, actor, b.x - a.x);
                    commands.spawn((
                        Name::new("Spell"),
                        Effect { age: 0.0, life: BOLT_SECS, kind: EffectKind::Bolt(a + Vec3::Z * 25.0, b + Vec3::Z * 25.0) },
                        BoardPart,
                        Sprite::from_color(Color::srgb(0.75, 0.6, 1.0), Vec2::splat(TILE_PX * 0.3)),
                        Transform::from_translation(a + Vec3::Z * 25.0),
                    ));
                }
            }
            _ => {}
        }
    }
}

/// Walks tokens along their waypoints (each step eased in and out, with a little hop, as a hand
/// moves a miniature), plays blows and sways, and snaps idle tokens to their space (hot reload,
/// undo, no animation).
fn move_tokens(
    time: Res<Time>,
    settings: Res<Settings>,
    state: Option<Res<MatchState>>,
    mut q: Query<(&GridPos, &mut Motion, &mut Transform, &Look, &CharacterId), With<Token>>,
    mut moving: ResMut<TokensMoving>,
    fog: Res<super::fog::Fog>,
    mut focus: ResMut<ActionFocus>,
    mut stepped: MessageWriter<FigureStepped>,
) {
    let Some(state) = state else { return };
    let board = &state.board;
    let speed = settings.animation_speed;
    let dt = time.delta_secs() * speed.max(0.01);
    let busy = q.iter().any(|(_, m, _, _, _)| !m.waypoints.is_empty() || m.step.is_some() || m.lunge.is_some() || m.sway.is_some());
    if moving.0 != busy {
        moving.0 = busy;
    }
    // Fog of war (R-EXP-19): the camera never goes after a figure the viewing side does not see.
    let now = q.iter().find(|(_, m, _, _, c)| (m.step.is_some() || m.lunge.is_some()) && fog.shows(c.order)).map(|(_, _, t, _, _)| t.translation);
    if focus.0 != now {
        focus.0 = now;
    }
    for (p, mut m, mut t, look, _) in &mut q {
        let z = if *look == Look::Dead { Z_REMAINS } else { Z_FIGURE };
        let home = world_of(p.0, board) + Vec3::Z * z;
        if speed == 0.0 {
            m.waypoints.clear();
            (m.step, m.lunge, m.sway) = (None, None, None);
        }
        if m.step.is_none() {
            if let Some(next) = m.waypoints.pop_front() {
                m.step = Some((t.translation.with_z(z), next.with_z(z), 0.0));
            }
        }
        let mut at = home;
        if let Some((from, to, done)) = m.step {
            let done = done + dt;
            let k = (done / STEP_SECS).min(1.0);
            let curve = EasingCurve::new(from, to, EaseFunction::QuadraticInOut);
            at = curve.sample_clamped(k) + Vec3::Y * HOP * (k * std::f32::consts::PI).sin();
            m.step = (k < 1.0).then_some((from, to, done));
            if m.step.is_none() {
                stepped.write(FigureStepped);
            }
            if m.step.is_none() && !m.waypoints.is_empty() {
                at = to;
            }
        } else if !m.waypoints.is_empty() {
            at = t.translation;
        }
        if let Some((off, done)) = m.lunge {
            let done = done + dt;
            let k = done / LUNGE_SECS;
            // Out fast (back-out overshoot), back slower.
            let out = if k < 0.4 { ease(EaseFunction::BackOut, k / 0.4) } else { 1.0 - ease(EaseFunction::QuadraticInOut, (k - 0.4) / 0.6) };
            at += off * out;
            m.lunge = (k < 1.0).then_some((off, done));
        }
        if let Some((dir, done)) = m.sway {
            let done = done + dt;
            let k = done / SWAY_SECS;
            at += dir * (ease(EaseFunction::SineOut, (k * 2.0).min(1.0)) - ease(EaseFunction::SineIn, (k * 2.0 - 1.0).max(0.0)));
            m.sway = (k < 1.0).then_some((dir, done));
        }
        if t.translation != at {
            t.translation = at;
        }
        if m.flash > 0.0 {
            m.flash -= time.delta_secs();
        }
    }
}

/// Posture, conditions, wounds and death on the figure; selection ring; HP bar.
#[allow(clippy::type_complexity)]
fn show_token_state(
    view: Res<PlayerView>,
    state: Option<Res<MatchState>>,
    level: Option<Res<super::screens::PlayingLevel>>,
    data: Res<super::screens::GameData>,
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
) {
    let Some(state) = state else { return };
    let sides: Vec<String> = level.map(|l| l.0.sides.iter().map(|s| s.id.clone()).collect()).unwrap_or_default();
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
                let mut col = palette::SIDES[side_index(&side.0, &sides)];
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
fn log_looks(opts: Res<super::WindowOptions>, looks: Query<(&CharacterId, &Look, &Children, &Token), Changed<Look>>, figures: Query<&Sprite, With<Figure>>) {
    // `show_token_state` runs just before: the cell logged is the one drawn this frame.
    let Some(path) = &opts.log else { return };
    if looks.is_empty() {
        return;
    }
    use std::io::Write;
    let Ok(mut f) = std::fs::OpenOptions::new().create(true).append(true).open(path) else { return };
    for (c, look, children, token) in &looks {
        let cell = children.iter().find_map(|ch| figures.get(ch).ok()).and_then(|s| s.texture_atlas.as_ref().map(|a| a.index));
        let line =
            serde_json::json!({"type": "figure", "id": c.id, "look": format!("{look:?}").to_lowercase(), "cell": cell, "custom": token.custom.is_some()});
        let _ = writeln!(f, "{line}");
    }
}

/// Weapons dropped on a Critical Miss lie on their space until picked up (G-19, G-22).
fn show_dropped_weapons(
    mut commands: Commands,
    state: Option<Res<MatchState>>,
    shown: Res<super::board::ShownFloor>,
    art: Res<Art>,
    data: Res<super::screens::GameData>,
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

fn fade_effects(
    mut commands: Commands,
    time: Res<Time>,
    settings: Res<Settings>,
    mut q: Query<(Entity, &mut Effect, &mut Transform, Option<&mut TextColor>, Option<&mut Sprite>)>,
) {
    let dt = time.delta_secs() * settings.animation_speed.max(0.5);
    for (e, mut fx, mut t, text, sprite) in &mut q {
        fx.age += dt;
        let k = (fx.age / fx.life).min(1.0);
        let alpha = 1.0 - ease(EaseFunction::QuadraticIn, k);
        match fx.kind {
            EffectKind::Float => t.translation.y += dt * 24.0,
            EffectKind::Ring => t.scale = Vec3::splat(0.8 + 0.7 * ease(EaseFunction::CubicOut, k)),
            EffectKind::Bolt(a, b) => {
                t.translation = EasingCurve::new(a, b, EaseFunction::QuadraticIn).sample_clamped(k);
                t.scale = Vec3::splat(1.0 + 1.5 * ease(EaseFunction::ExponentialIn, k));
            }
        }
        if let Some(mut c) = text {
            c.0 = c.0.with_alpha(alpha);
        }
        if let Some(mut s) = sprite {
            s.color = s.color.with_alpha(alpha);
        }
        if k >= 1.0 {
            commands.entity(e).despawn();
        }
    }
}
