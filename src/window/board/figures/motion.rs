//! How the miniatures move: along the path the rules report (each step eased, with a hop), a
//! blow lunging at its target, a miss swaying aside, damage floating up, a reflex's ring, a
//! spell's bolt. The AI waits while tokens move (`TokensMoving`); the camera follows the action.

use super::{Figure, FigureStepped, Look, Z_FIGURE, Z_REMAINS};
use crate::game::components::{CharacterId, GridPos, MatchState};
use crate::game::log::RulesEvent;
use crate::window::board::{ActionFocus, Art, BoardPart, Fog, TILE_PX, Token, TokensMoving, atlas, palette, world_of};
use crate::window::settings::Settings;
use bevy::math::curve::{Curve, EaseFunction, EasingCurve};
use bevy::prelude::*;
use doo_rules::rules::{Event, Pos};
use std::collections::VecDeque;

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

/// Where a token is going and what it is doing.
#[derive(Component, Default)]
pub(super) struct Motion {
    /// The spaces still to walk through.
    waypoints: VecDeque<Vec3>,
    /// The step in progress: from, to, seconds done.
    step: Option<(Vec3, Vec3, f32)>,
    /// A blow toward a target and back: offset, seconds done.
    lunge: Option<(Vec3, f32)>,
    /// A missed figure sways aside: direction, seconds done.
    sway: Option<(Vec3, f32)>,
    /// Flash after being hit (red) or missed (white), seconds left.
    pub(super) flash: f32,
    pub(super) hit: bool,
}

/// Short-lived effects: floating numbers, a reflex's ring, a spell's bolt.
#[derive(Component)]
pub(super) struct Effect {
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

fn ease(f: EaseFunction, t: f32) -> f32 {
    f.sample_clamped(t)
}

/// Movement follows the path the rules report; a blow lunges at its target, who flashes red when
/// hurt or sways aside when missed; damage floats up; a reflex flashes a ring; a spell flies.
pub(super) fn animate_events(
    mut commands: Commands,
    mut events: MessageReader<RulesEvent>,
    state: Option<Res<MatchState>>,
    settings: Res<Settings>,
    art: Res<Art>,
    mut tokens: Query<(&CharacterId, &mut Motion, &Transform, &Children)>,
    mut figures: Query<&mut Sprite, With<Figure>>,
    fog: Res<Fog>,
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
                    commands.spawn(float_text("Damage text", s, color, 16.0, 1.0, tp + Vec3::new(0.0, TILE_PX * 0.5, 30.0)));
                }
            }
            // Issue 43: what changes a fight is said on the board too, over the figure.
            Event::WeaponBroken { actor, .. } | Event::WeaponDropped { actor, .. } | Event::PostureChanged { actor, .. } if shown(actor) => {
                if let (Some(p), Some(s)) = (at(&tokens, actor), callout(e)) {
                    let gold = Color::srgb(1.0, 0.85, 0.35);
                    commands.spawn(float_text("Callout", s, gold, 15.0, 1.6, p + Vec3::new(0.0, TILE_PX * 0.85, 31.0)));
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
                            texture_atlas: Some(TextureAtlas { layout: art.tokens_layout.clone(), index: atlas::RING }),
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
pub(super) fn move_tokens(
    time: Res<Time>,
    settings: Res<Settings>,
    state: Option<Res<MatchState>>,
    mut q: Query<(&GridPos, &mut Motion, &mut Transform, &Look, &CharacterId), With<Token>>,
    mut moving: ResMut<TokensMoving>,
    fog: Res<Fog>,
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

pub(super) fn fade_effects(
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

/// Words that rise over the board and fade (damage, a miss, a callout).
fn float_text(name: &'static str, s: String, color: Color, size: f32, life: f32, at: Vec3) -> impl Bundle {
    (
        Name::new(name),
        Effect { age: 0.0, life, kind: EffectKind::Float },
        BoardPart,
        Text2d::new(s),
        TextFont { font_size: FontSize::Px(size), ..default() },
        TextColor(color),
        Transform::from_translation(at),
    )
}

/// The words floated over a figure for an event that changes the fight (issue 43: a broken
/// weapon went untold): "bow breaks!", "drops the axe!", "falls prone!" (`None`: no callout).
pub fn callout(e: &Event) -> Option<String> {
    let words = |s: &str| s.replace('_', " ");
    match e {
        Event::WeaponBroken { weapon, .. } => Some(format!("{} breaks!", words(weapon))),
        Event::WeaponDropped { weapon, .. } => Some(format!("drops the {}!", words(weapon))),
        Event::PostureChanged { to: doo_rules::rules::profile::Posture::Prone, .. } => Some("falls prone!".to_string()),
        Event::PostureChanged { from: doo_rules::rules::profile::Posture::Prone, .. } => Some("stands up".to_string()),
        _ => None,
    }
}
