//! Deterministic art generator for Dungeons of Olde.
//!
//! Writes the committed PNG art under `assets/art/`:
//!
//! * `tiles.png` — 384×32 RGBA atlas, one row of 12 tiles of 32×32 px:
//!   0 floor, 1 floor variant, 2 wall, 3 door closed, 4 door open, 5 door locked, 6 pillar, 7 pit,
//!   8 stairs, 9 difficult ground, 10 exit marker overlay (mostly transparent, drawn over floor), 11 blank (transparent).
//! * `tokens.png` — 384×64 RGBA atlas, one row of 6 cells of 64×64 px:
//!   0 circle, 1 rounded square, 2 diamond, 3 hexagon (near-white fill so the sprite colour tints it, dark outline),
//!   4 selection ring (white), 5 target reticle (white).
//! * `icon.png` — 64×64 game icon (a sword over a shield).
//! * `figures.png` — 1152×64 RGBA atlas, one row of 18 cells of 64×64 px: front-facing miniatures in their own colours
//!   (feet near y = 55, a dark outline around each; the game draws the side's base token under them):
//!   0 warrior, 1 ranger, 2 rogue, 3 wizard, 4 priest, 5 templar, 6 troubadour, 7 goblin, 8 goblin archer, 9 hobgoblin,
//!   10 kobold, 11 orc, 12 orc captain, 13 skeleton, then mostly transparent overlays: 14 remains (a dark blood pool with
//!   bones seen from above), 15 stunned marker (stars in the top 16 px), 16 bleeding marker (a drop in the top-right corner),
//!   17 dropped weapon (a sword lying on the floor).
//!
//! There is no randomness: texture noise comes from a small integer hash, so every run writes identical files.
//!
//! Run from anywhere with `cargo run --example gen_art`.

use std::{fs::File, io::BufWriter, path::Path};

type Rgba = [u8; 4];

// One muted dungeon palette.
const FLOOR: Rgba = [142, 128, 110, 255];
const GROUT: Rgba = [96, 85, 72, 255];
const WALL: Rgba = [60, 55, 66, 255];
const WALL_TOP: Rgba = [100, 93, 106, 255];
const MORTAR: Rgba = [28, 25, 32, 255];
const FRAME: Rgba = [46, 34, 26, 255];
const WOOD: Rgba = [124, 84, 48, 255];
const WOOD_RED: Rgba = [134, 54, 42, 255];
const IRON: Rgba = [150, 150, 158, 255];
const GOLD: Rgba = [230, 188, 56, 255];
const PILLAR_LIGHT: Rgba = [118, 110, 122, 255];
const PILLAR_DARK: Rgba = [40, 36, 44, 255];
const PIT: Rgba = [8, 6, 8, 255];
const RIM: Rgba = [182, 168, 146, 255];
const STEP_LIGHT: Rgba = [212, 202, 182, 255];
const STEP_DARK: Rgba = [92, 82, 72, 255];
const MUD: Rgba = [106, 78, 48, 255];
const RUBBLE: Rgba = [160, 148, 128, 255];
const GLOW: Rgba = [214, 226, 88, 255];
const GLOW_DARK: Rgba = [70, 86, 20, 255];
const SHADOW: Rgba = [0, 0, 0, 110];
const TOKEN_FILL: Rgba = [240, 240, 240, 255];
const TOKEN_LIGHT: Rgba = [255, 255, 255, 255];
const TOKEN_SHADE: Rgba = [220, 220, 220, 255];
const OUTLINE: Rgba = [32, 32, 32, 255];
const WHITE: Rgba = [255, 255, 255, 255];
const SHIELD: Rgba = [52, 84, 142, 255];
const STEEL: Rgba = [204, 208, 216, 255];
const LEATHER: Rgba = [96, 62, 36, 255];

const T: i32 = 32; // tile size
const C: i32 = 64; // token cell size

/// Flagstone layouts as `[x0, y0, x1, y1]`; grout runs along each stone's top and left edge (and wraps at tile borders).
const FLOOR_A: [[i32; 4]; 4] = [[0, 0, 20, 16], [20, 0, 32, 16], [0, 16, 10, 32], [10, 16, 32, 32]];
const FLOOR_B: [[i32; 4]; 5] = [[0, 0, 12, 12], [12, 0, 32, 20], [0, 12, 12, 32], [12, 20, 22, 32], [22, 20, 32, 32]];

fn hash(x: i32, y: i32, seed: u32) -> u32 {
    let mut h = (x as u32).wrapping_mul(374_761_393) ^ (y as u32).wrapping_mul(668_265_263) ^ seed.wrapping_mul(2_246_822_519);
    h = (h ^ (h >> 13)).wrapping_mul(1_274_126_177);
    h ^ (h >> 16)
}

/// Deterministic noise in `-amp..=amp`.
fn noise(x: i32, y: i32, seed: u32, amp: i32) -> i32 {
    (hash(x, y, seed) % (2 * amp + 1) as u32) as i32 - amp
}

fn shade(c: Rgba, d: i32) -> Rgba {
    let f = |v: u8| (v as i32 + d).clamp(0, 255) as u8;
    [f(c[0]), f(c[1]), f(c[2]), c[3]]
}

fn lerp(a: Rgba, b: Rgba, t: f32) -> Rgba {
    let t = t.clamp(0.0, 1.0);
    std::array::from_fn(|k| (a[k] as f32 + (b[k] as f32 - a[k] as f32) * t).round() as u8)
}

fn alpha(c: Rgba, a: u8) -> Rgba {
    [c[0], c[1], c[2], a]
}

/// Bevel shading: `up` on a lit edge, `down` on a shadowed edge, 0 elsewhere.
fn bevel(lit: bool, shadowed: bool, up: i32, down: i32) -> i32 {
    if lit {
        up
    } else if shadowed {
        down
    } else {
        0
    }
}

/// Distance from `p` to segment `a`–`b`.
fn seg_dist(p: (f32, f32), a: (f32, f32), b: (f32, f32)) -> f32 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let t = (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / (dx * dx + dy * dy)).clamp(0.0, 1.0);
    (p.0 - a.0 - t * dx).hypot(p.1 - a.1 - t * dy)
}

struct Canvas {
    w: i32,
    h: i32,
    px: Vec<u8>,
}

impl Canvas {
    fn new(w: i32, h: i32) -> Self {
        Self { w, h, px: vec![0; (w * h * 4) as usize] }
    }

    /// Calls `f` for every pixel and composites (source-over) whatever colour it returns.
    fn paint(&mut self, f: impl Fn(i32, i32) -> Option<Rgba>) {
        for (i, (x, y)) in (0..self.h).flat_map(|y| (0..self.w).map(move |x| (x, y))).enumerate() {
            let Some(c) = f(x, y).filter(|c| c[3] > 0) else { continue };
            let px = &mut self.px[i * 4..i * 4 + 4];
            let (sa, da) = (c[3] as u32, px[3] as u32 * (255 - c[3] as u32) / 255);
            for k in 0..3 {
                px[k] = ((c[k] as u32 * sa + px[k] as u32 * da) / (sa + da)) as u8;
            }
            px[3] = (sa + da) as u8;
        }
    }

    /// Fills every pixel whose centre satisfies `inside`.
    fn shape(&mut self, c: Rgba, inside: impl Fn(f32, f32) -> bool) {
        self.paint(|x, y| inside(x as f32 + 0.5, y as f32 + 0.5).then_some(c));
    }

    fn rect(&mut self, x0: i32, y0: i32, x1: i32, y1: i32, c: Rgba) {
        self.paint(|x, y| ((x0..x1).contains(&x) && (y0..y1).contains(&y)).then_some(c));
    }

    fn disc(&mut self, cx: f32, cy: f32, r: f32, c: Rgba) {
        self.shape(c, |x, y| (x - cx).hypot(y - cy) <= r);
    }

    fn line(&mut self, a: (f32, f32), b: (f32, f32), width: f32, c: Rgba) {
        self.shape(c, |x, y| seg_dist((x, y), a, b) <= width / 2.0);
    }

    /// Copies `src` verbatim (including transparency) with its top-left corner at `(ox, oy)`.
    fn blit(&mut self, src: &Canvas, ox: i32, oy: i32) {
        for y in 0..src.h {
            let (s, d) = ((y * src.w * 4) as usize, (((oy + y) * self.w + ox) * 4) as usize);
            self.px[d..d + (src.w * 4) as usize].copy_from_slice(&src.px[s..s + (src.w * 4) as usize]);
        }
    }

    fn save(&self, path: &Path) -> Result<(), Box<dyn std::error::Error>> {
        let mut enc = png::Encoder::new(BufWriter::new(File::create(path)?), self.w as u32, self.h as u32);
        enc.set_color(png::ColorType::Rgba);
        enc.set_depth(png::BitDepth::Eight);
        enc.write_header()?.write_image_data(&self.px)?;
        println!("wrote {}", path.display());
        Ok(())
    }
}

fn flagstones(stones: &[[i32; 4]], seed: u32) -> Canvas {
    let mut c = Canvas::new(T, T);
    c.paint(|x, y| Some(shade(GROUT, noise(x, y, seed, 3))));
    for (n, &[x0, y0, x1, y1]) in stones.iter().enumerate() {
        let tint = noise(n as i32, 0, seed + 11, 7);
        c.paint(|x, y| {
            if x <= x0 || y <= y0 || x >= x1 || y >= y1 {
                return None;
            }
            let edge = bevel(x == x0 + 1 || y == y0 + 1, x == x1 - 1 || y == y1 - 1, 10, -9);
            Some(shade(FLOOR, tint + edge + noise(x, y, seed, 5)))
        });
    }
    c
}

fn wall() -> Canvas {
    let mut c = Canvas::new(T, T);
    c.paint(|x, y| {
        if y < 4 {
            // Top face of the wall: a lighter bevel that catches the light.
            return Some(shade(WALL_TOP, if y == 0 { 16 } else { 0 } + noise(x, y, 3, 4)));
        }
        let (row, by) = ((y - 4) / 7, (y - 4) % 7);
        let sx = x + if row % 2 == 1 { 8 } else { 0 };
        let bx = sx % 16;
        if by == 0 || bx == 0 {
            return Some(MORTAR);
        }
        let edge = bevel(by == 1 || bx == 1, by == 6 || bx == 15, 12, -8);
        Some(shade(WALL, edge + noise(sx / 16, row, 5, 6) + noise(x, y, 3, 4)))
    });
    c
}

fn door(wood: Rgba, locked: bool) -> Canvas {
    let mut c = Canvas::new(T, T);
    c.paint(|x, y| {
        if !(3..29).contains(&x) || !(3..29).contains(&y) {
            let bevel = if x == 0 || y == 0 { 14 } else { 0 };
            return Some(shade(FRAME, bevel + noise(x, y, 7, 3)));
        }
        if [9, 16, 22].contains(&x) {
            return Some(shade(wood, -50));
        }
        if (7..9).contains(&y) || (23..25).contains(&y) {
            let rivet = (x - 3) % 6 == 3 && y % 2 == 1;
            return Some(shade(IRON, if rivet { 40 } else { -50 }));
        }
        let grain = noise(x, y / 5, 9, 8) + noise(x, y, 9, 3) + if y == 3 { 12 } else { 0 };
        Some(shade(wood, grain))
    });
    if locked {
        c.shape(OUTLINE, |x, y| y < 16.0 && (4.0..=6.5).contains(&(x - 16.0).hypot(y - 15.0)));
        c.shape(shade(GOLD, -30), |x, y| y < 16.0 && (5.0..=5.8).contains(&(x - 16.0).hypot(y - 15.0)));
        c.rect(10, 14, 22, 24, OUTLINE);
        c.rect(11, 15, 21, 23, GOLD);
        c.rect(11, 15, 21, 16, shade(GOLD, 25));
        c.disc(16.0, 18.0, 1.6, OUTLINE);
        c.rect(15, 18, 17, 21, OUTLINE);
    } else {
        c.shape(OUTLINE, |x, y| (2.0..=5.0).contains(&(x - 24.0).hypot(y - 17.0)));
        c.shape(IRON, |x, y| (2.8..=4.2).contains(&(x - 24.0).hypot(y - 17.0)));
        c.disc(24.0, 13.0, 1.5, shade(IRON, -40));
    }
    c
}

fn door_open() -> Canvas {
    let mut c = flagstones(&FLOOR_A, 1);
    c.rect(4, 0, 6, T, SHADOW);
    c.rect(26, 0, 28, T, alpha(SHADOW, 60));
    c.paint(|x, y| {
        let post = !(4..28).contains(&x);
        post.then(|| if x == 3 || x == 28 { shade(WOOD, -10) } else { shade(FRAME, if x == 0 { 14 } else { 0 } + noise(x, y, 7, 3)) })
    });
    c.rect(0, 0, 4, 1, shade(FRAME, 30));
    c.rect(28, 0, T, 1, shade(FRAME, 30));
    c
}

fn pillar() -> Canvas {
    let mut c = flagstones(&FLOOR_A, 1);
    c.disc(18.5, 18.5, 12.5, SHADOW);
    c.paint(|x, y| {
        let (fx, fy) = (x as f32 + 0.5, y as f32 + 0.5);
        let d = (fx - 16.0).hypot(fy - 16.0);
        if d > 11.3 {
            return (d <= 12.5).then_some(MORTAR);
        }
        let t = (fx - 11.0).hypot(fy - 11.0) / 18.0;
        let groove = if (7.5..8.5).contains(&d) { -14 } else { 0 };
        Some(shade(lerp(PILLAR_LIGHT, PILLAR_DARK, t), groove + noise(x, y, 13, 4)))
    });
    c
}

fn pit() -> Canvas {
    let mut c = flagstones(&FLOOR_B, 2);
    // Jagged radius: 16 angular sectors with hashed radii, linearly interpolated.
    let radius = |a: f32| {
        let s = (a / std::f32::consts::TAU + 0.5) * 16.0;
        let (i, f) = (s.floor() as i32, s.fract());
        let r = |k: i32| 10.5 + (hash(k.rem_euclid(16), 0, 21) % 4) as f32;
        r(i) * (1.0 - f) + r(i + 1) * f
    };
    c.paint(|x, y| {
        let (dx, dy) = (x as f32 + 0.5 - 16.0, y as f32 + 0.5 - 16.0);
        let (d, r) = (dx.hypot(dy), radius(dy.atan2(dx)));
        if d > r + 2.0 {
            None
        } else if d > r {
            Some(shade(RIM, if dy < 0.0 { -8 } else { 14 } + noise(x, y, 17, 6)))
        } else {
            Some(lerp(shade(PIT, 30), PIT, 1.0 - (r - d) / 4.0 + if dy < 0.0 { 0.0 } else { 0.5 }))
        }
    });
    c
}

fn stairs() -> Canvas {
    let mut c = Canvas::new(T, T);
    let step = |y: i32| y * 5 / T;
    c.paint(|x, y| {
        let s = step(y);
        // Lower steps are narrower and darker, so the flight reads as descending away from the top edge.
        if !(2 + s..30 - s).contains(&x) {
            return Some(shade(MORTAR, noise(x, y, 19, 3)));
        }
        let row = (0..=y).rev().take_while(|&v| step(v) == s).count() as i32 - 1;
        let last = y == T - 1 || step(y + 1) != s;
        // Each step: lit tread nose, a riser darkening downwards, and a hard shadow line under it.
        let tread = if row < 2 { 22 } else { -5 * row };
        let edge = if last { -60 } else { tread };
        Some(shade(lerp(STEP_LIGHT, STEP_DARK, s as f32 / 4.0), edge + noise(x, y, 19, 4)))
    });
    c
}

fn difficult() -> Canvas {
    let mut c = flagstones(&FLOOR_B, 3);
    c.paint(|x, y| Some(alpha(MUD, 115 + (hash(x / 5, y / 5, 23) % 77) as u8))); // blotchy mud wash
    let rocks =
        [(6.0, 6.0, 2.5), (22.0, 5.0, 3.0), (14.0, 13.0, 2.0), (27.0, 16.0, 2.5), (5.0, 19.0, 3.0), (17.0, 25.0, 3.0), (9.0, 28.0, 1.6), (26.0, 27.0, 2.0)];
    for (n, &(cx, cy, r)) in rocks.iter().enumerate() {
        c.disc(cx + 1.0, cy + 1.0, r, SHADOW);
        c.paint(|x, y| {
            let (fx, fy) = (x as f32 + 0.5, y as f32 + 0.5);
            ((fx - cx).hypot(fy - cy) <= r).then(|| {
                let lit = (fx - cx) + (fy - cy) < -r * 0.4;
                shade(RUBBLE, if lit { 22 } else { -8 } + noise(n as i32, 1, 29, 12) + noise(x, y, 29, 4))
            })
        });
    }
    c
}

fn exit_marker() -> Canvas {
    let mut c = Canvas::new(T, T);
    c.paint(|x, y| {
        let e = x.min(y).min(T - 1 - x).min(T - 1 - y);
        [230u8, 150, 70, 25].get(e as usize).map(|&a| alpha(GLOW, a))
    });
    let arrow = [(16.0, 6.0), (25.0, 15.0), (19.0, 15.0), (19.0, 25.0), (13.0, 25.0), (13.0, 15.0), (7.0, 15.0)];
    for i in 0..arrow.len() {
        c.line(arrow[i], arrow[(i + 1) % arrow.len()], 3.0, GLOW_DARK);
    }
    c.shape(GLOW, |x, y| (y > 6.0 && y < 15.0 && (x - 16.0).abs() < y - 6.0) || ((15.0..25.0).contains(&y) && (x - 16.0).abs() < 3.0));
    c
}

/// Lays equally sized cells out left to right in one row.
fn strip(cells: &[Canvas]) -> Canvas {
    let mut atlas = Canvas::new(cells[0].w * cells.len() as i32, cells[0].h);
    for (i, cell) in cells.iter().enumerate() {
        atlas.blit(cell, i as i32 * cell.w, 0);
    }
    atlas
}

/// A token shape from a signed distance function (negative inside), centred in a 64×64 cell.
fn token(sdf: impl Fn(f32, f32) -> f32) -> Canvas {
    let mut c = Canvas::new(C, C);
    c.paint(|x, y| {
        let (px, py) = (x as f32 + 0.5 - 32.0, y as f32 + 0.5 - 32.0);
        // 3-px outline band, then a highlight band along the top-left inner edge and a shade band along the bottom-right.
        let bands = [(sdf(px, py), OUTLINE), (sdf(px - 3.0, py - 3.0), TOKEN_LIGHT), (sdf(px + 3.0, py + 3.0), TOKEN_SHADE)];
        (sdf(px, py) <= 0.0).then(|| bands.into_iter().find(|&(d, _)| d > -3.0).map_or(TOKEN_FILL, |(_, c)| c))
    });
    c
}

fn reticle() -> Canvas {
    let mut c = Canvas::new(C, C);
    for (sx, sy) in [(1, 1), (-1, 1), (1, -1), (-1, -1)] {
        let (cx, cy) = (32 + sx * 27, 32 + sy * 27);
        let (x0, y0) = (cx.min(cx - sx * 14), cy.min(cy - sy * 14));
        c.rect(x0, cy.min(cy - sy * 2), x0 + 15, cy.min(cy - sy * 2) + 3, WHITE);
        c.rect(cx.min(cx - sx * 2), y0, cx.min(cx - sx * 2) + 3, y0 + 15, WHITE);
    }
    for o in [12, 40] {
        c.rect(31, o, 33, o + 12, WHITE);
        c.rect(o, 31, o + 12, 33, WHITE);
    }
    c.disc(32.0, 32.0, 1.6, WHITE);
    c
}

fn icon() -> Canvas {
    let mut c = Canvas::new(64, 64);
    // Heater shield: straight top and sides, parabolic taper to a point; `s` shrinks it for the nested rim/field.
    let shield = |s: f32| {
        move |x: f32, y: f32| {
            let t = ((y - 30.0) / 26.0).max(0.0);
            y >= 8.0 + s && (x - 32.0).abs() <= 21.0 * (1.0 - t * t) - s
        }
    };
    c.shape(OUTLINE, shield(0.0));
    c.shape(GOLD, shield(2.0));
    c.shape(SHIELD, shield(4.5));
    c.shape(shade(SHIELD, 40), |x, y| shield(4.5)(x, y) && !shield(4.5)(x - 3.0, y - 3.0));
    c.shape(shade(GOLD, -20), |x, y| shield(4.5)(x, y) && ((x - 32.0).abs() < 2.0 || (y - 24.0).abs() < 2.0));
    let (tip, guard, end) = ((55.0, 7.0), (20.0, 42.0), (12.0, 50.0));
    c.line(guard, end, 6.0, OUTLINE);
    c.line(guard, end, 3.5, LEATHER);
    c.line(tip, guard, 8.0, OUTLINE);
    c.line(tip, guard, 5.0, STEEL);
    c.line((tip.0 - 1.0, tip.1 + 1.0), (guard.0 + 1.0, guard.1 - 1.0), 1.2, WHITE);
    c.line((13.0, 35.0), (27.0, 49.0), 6.5, OUTLINE);
    c.line((13.0, 35.0), (27.0, 49.0), 3.5, GOLD);
    c.disc(10.0, 52.0, 4.5, OUTLINE);
    c.disc(10.0, 52.0, 2.8, GOLD);
    c
}

// ---------------------------------------------------------------------------------------------------------------------
// Figures: front-facing standee miniatures, 64×64 cells, feet near y = 55, a dark outline around each silhouette.

const SKIN: Rgba = [226, 178, 138, 255];
const HAIR: Rgba = [98, 64, 38, 255];
const BEARD: Rgba = [222, 222, 214, 255];
const CLOTH_RED: Rgba = [150, 52, 44, 255];
const CHAIN: Rgba = [136, 138, 148, 255];
const TROUSERS: Rgba = [92, 74, 58, 255];
const BOOT: Rgba = [64, 44, 32, 255];
const RANGER_GREEN: Rgba = [74, 110, 58, 255];
const ROGUE_CLOAK: Rgba = [66, 62, 80, 255];
const ROBE_BLUE: Rgba = [72, 78, 152, 255];
const ROBE_WHITE: Rgba = [220, 214, 194, 255];
const MUSTARD: Rgba = [202, 158, 64, 255];
const WINE: Rgba = [134, 44, 64, 255];
const GOBLIN: Rgba = [114, 156, 62, 255];
const HOBGOBLIN: Rgba = [204, 104, 60, 255];
const KOBOLD: Rgba = [150, 88, 60, 255];
const BELLY: Rgba = [206, 170, 112, 255];
const ORC: Rgba = [112, 132, 92, 255];
const TUSK: Rgba = [236, 230, 204, 255];
const BONE: Rgba = [222, 214, 186, 255];
const RUST: Rgba = [146, 88, 56, 255];
const BLOOD: Rgba = [98, 14, 16, 255];
const EYE_GLOW: Rgba = [244, 210, 60, 255];
const STAR: Rgba = [250, 220, 70, 255];

type Pt = (f32, f32);

/// Filled ellipse.
fn ell(cx: f32, cy: f32, rx: f32, ry: f32) -> impl Fn(f32, f32) -> bool + Copy {
    move |x, y| ((x - cx) / rx).powi(2) + ((y - cy) / ry).powi(2) <= 1.0
}

/// A capsule: everything within `r` of the segment `a`–`b`.
fn cap(a: Pt, b: Pt, r: f32) -> impl Fn(f32, f32) -> bool + Copy {
    move |x, y| seg_dist((x, y), a, b) <= r
}

/// Axis-aligned box, `x0..x1` × `y0..y1`.
fn boxed(x0: f32, y0: f32, x1: f32, y1: f32) -> impl Fn(f32, f32) -> bool + Copy {
    move |x, y| (x0..x1).contains(&x) && (y0..y1).contains(&y)
}

/// Even-odd polygon fill.
fn poly<const N: usize>(pts: [Pt; N]) -> impl Fn(f32, f32) -> bool + Copy {
    move |x, y| {
        let mut inside = false;
        for i in 0..N {
            let ((ax, ay), (bx, by)) = (pts[i], pts[(i + 1) % N]);
            if (ay > y) != (by > y) && x < ax + (y - ay) / (by - ay) * (bx - ax) {
                inside = !inside;
            }
        }
        inside
    }
}

/// Union of two shapes.
fn or(a: impl Fn(f32, f32) -> bool + Copy, b: impl Fn(f32, f32) -> bool + Copy) -> impl Fn(f32, f32) -> bool + Copy {
    move |x, y| a(x, y) || b(x, y)
}

/// Fills a figure part lit from the top left: a lighter band along its top-left edge, a darker one along its bottom-right edge.
fn part(c: &mut Canvas, col: Rgba, inside: impl Fn(f32, f32) -> bool) {
    c.paint(|x, y| {
        let (fx, fy) = (x as f32 + 0.5, y as f32 + 0.5);
        inside(fx, fy).then(|| shade(col, bevel(!inside(fx - 1.5, fy - 1.5), !inside(fx + 2.0, fy + 2.0), 30, -34)))
    });
}

/// Like [`part`], inside a 1-px OUTLINE edge so the piece stands apart from whatever it overlaps.
fn inked(c: &mut Canvas, col: Rgba, inside: impl Fn(f32, f32) -> bool) {
    c.paint(|x, y| {
        let (fx, fy) = (x as f32 + 0.5, y as f32 + 0.5);
        if !inside(fx, fy) {
            return None;
        }
        if [(1.0, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.0, -1.0)].iter().any(|&(dx, dy)| !inside(fx + dx, fy + dy)) {
            return Some(OUTLINE);
        }
        Some(shade(col, bevel(!inside(fx - 2.5, fy - 2.5), !inside(fx + 3.0, fy + 3.0), 30, -34)))
    });
}

/// Surrounds everything drawn so far with a ~2-px OUTLINE band (painted only where the cell is still empty).
fn outline(c: &mut Canvas) {
    let (w, h) = (c.w, c.h);
    let solid: Vec<bool> = c.px.chunks(4).map(|p| p[3] >= 128).collect();
    let near = |x: i32, y: i32| {
        (-2..=2).flat_map(|dy| (-2..=2).map(move |dx| (dx, dy))).any(|(dx, dy)| {
            let (nx, ny) = (x + dx, y + dy);
            dx * dx + dy * dy <= 5 && (0..w).contains(&nx) && (0..h).contains(&ny) && solid[(ny * w + nx) as usize]
        })
    };
    let empty: Vec<bool> = c.px.chunks(4).map(|p| p[3] == 0).collect();
    c.paint(|x, y| (empty[(y * w + x) as usize] && near(x, y)).then_some(OUTLINE));
}

/// Key points of a standing, front-facing figure from its height, build and head size (the figure's right is the viewer's left).
#[derive(Clone, Copy)]
struct Body {
    cx: f32,
    feet: f32,
    head_r: f32,
    head_y: f32,
    neck: f32,
    hip: f32,
    /// Half widths at the shoulders and hips.
    sw: f32,
    hw: f32,
    /// Radius of arms and legs.
    limb: f32,
}

impl Body {
    fn new(h: f32, bulk: f32, head: f32) -> Self {
        let (feet, head_r) = (55.0, h * 0.135 * head);
        let top = feet - h;
        Body {
            cx: 32.0,
            feet,
            head_r,
            head_y: top + head_r,
            neck: top + 2.0 * head_r - 1.0,
            hip: feet - h * 0.37,
            sw: h * 0.17 * bulk,
            hw: h * 0.12 * bulk,
            limb: (h * 0.05 * bulk).max(2.0),
        }
    }

    fn shoulder(&self, side: f32) -> Pt {
        (self.cx + side * (self.sw - self.limb * 0.7), self.neck + self.limb + 1.0)
    }

    /// Where a hand hangs at rest (side −1 is the figure's right, on the viewer's left).
    fn rest(&self, side: f32) -> Pt {
        (self.cx + side * (self.sw + 1.0), self.hip + 1.0)
    }

    fn legs(&self, c: &mut Canvas, col: Rgba, boot: Rgba) {
        for s in [-1.0, 1.0] {
            let (hx, ax) = (self.cx + s * self.hw * 0.5, self.cx + s * (self.hw * 0.5 + 0.5));
            part(c, col, cap((hx, self.hip), (ax, self.feet - 4.0), self.limb + 0.3));
            part(c, boot, ell(ax + s * 0.8, self.feet - 2.0, self.limb + 1.3, 2.6));
        }
    }

    fn torso(&self, c: &mut Canvas, col: Rgba) {
        let (cx, sw, hw, n, h) = (self.cx, self.sw, self.hw, self.neck, self.hip + 2.0);
        let r = self.limb;
        part(
            c,
            col,
            or(
                poly([(cx - sw + r, n), (cx + sw - r, n), (cx + sw, n + r), (cx + hw, h), (cx - hw, h), (cx - sw, n + r)]),
                boxed(cx - sw, n + r, cx + sw, n + r + 2.0),
            ),
        );
    }

    fn arm(&self, c: &mut Canvas, side: f32, hand: Pt, sleeve: Rgba, skin: Rgba) {
        part(c, sleeve, cap(self.shoulder(side), hand, self.limb * 0.95));
        part(c, skin, ell(hand.0, hand.1, self.limb + 0.4, self.limb + 0.4));
    }

    fn head(&self, c: &mut Canvas, skin: Rgba) {
        part(c, skin, ell(self.cx, self.head_y, self.head_r * 0.92, self.head_r));
    }

    fn eyes(&self, c: &mut Canvas, col: Rgba, dy: f32) {
        let (x, y) = (self.cx as i32, (self.head_y + dy) as i32);
        let d = (self.head_r * 0.4).round() as i32;
        c.rect(x - d - 1, y, x - d + 1, y + 2, col);
        c.rect(x + d - 1, y, x + d + 1, y + 2, col);
    }

    fn belt(&self, c: &mut Canvas, col: Rgba, buckle: Rgba) {
        part(c, col, boxed(self.cx - self.hw - 0.5, self.hip - 1.0, self.cx + self.hw + 0.5, self.hip + 2.0));
        c.rect(self.cx as i32 - 1, self.hip as i32 - 1, self.cx as i32 + 1, self.hip as i32 + 2, buckle);
    }
}

/// A sword from the hilt (guard) to the tip, with its grip and pommel behind the hilt.
fn sword(c: &mut Canvas, hilt: Pt, tip: Pt, width: f32, blade: Rgba, guard: Rgba) {
    let len = (tip.0 - hilt.0).hypot(tip.1 - hilt.1);
    let (ux, uy) = ((tip.0 - hilt.0) / len, (tip.1 - hilt.1) / len);
    let back = (hilt.0 - ux * 6.0, hilt.1 - uy * 6.0);
    inked(c, LEATHER, cap(hilt, back, 1.8));
    inked(c, guard, ell(back.0, back.1, 2.2, 2.2));
    let w = width / 2.0;
    let (px, py) = (-uy, ux);
    let base = (hilt.0 + ux, hilt.1 + uy);
    let near = (tip.0 - ux * w * 1.6, tip.1 - uy * w * 1.6);
    inked(
        c,
        blade,
        poly([
            (base.0 + px * w, base.1 + py * w),
            (near.0 + px * w, near.1 + py * w),
            tip,
            (near.0 - px * w, near.1 - py * w),
            (base.0 - px * w, base.1 - py * w),
        ]),
    );
    let g = w + 3.0;
    inked(c, guard, cap((hilt.0 + px * g, hilt.1 + py * g), (hilt.0 - px * g, hilt.1 - py * g), 1.6));
}

/// A bow standing upright: a stave bulging `bulge` px to one side (its sign) between `top` and `bottom`, and its string.
fn bow(c: &mut Canvas, x: f32, top: f32, bottom: f32, bulge: f32, wood: Rgba) {
    c.line((x, top), (x, bottom), 1.2, shade(BEARD, -30));
    let stave = move |fx: f32, fy: f32| {
        let t = (fy - top) / (bottom - top);
        (0.0..=1.0).contains(&t) && (fx - (x + bulge * 4.0 * t * (1.0 - t))).abs() <= 1.6 + 0.6 * (1.0 - (2.0 * t - 1.0).abs())
    };
    inked(c, wood, stave);
}

/// A round wooden shield with an iron rim and boss.
fn round_shield(c: &mut Canvas, cx: f32, cy: f32, r: f32) {
    inked(c, IRON, ell(cx, cy, r, r));
    part(c, WOOD, ell(cx, cy, r - 2.5, r - 2.5));
    c.shape(shade(WOOD, -30), |x, y| ell(cx, cy, r - 2.5, r - 2.5)(x, y) && ((x - cx).abs() < 0.6 || (x - cx - r * 0.45).abs() < 0.6));
    inked(c, IRON, ell(cx, cy, 3.2, 3.2));
}

/// Heater shield: straight sides for its top third, then a parabolic taper to a point `len` px below `top`.
fn heater(cx: f32, top: f32, half: f32, len: f32) -> impl Fn(f32, f32) -> bool + Copy {
    move |x, y| {
        let t = ((y - top - len * 0.35) / (len * 0.65)).max(0.0);
        y >= top && (x - cx).abs() <= half * (1.0 - t * t)
    }
}

fn warrior() -> Canvas {
    let mut c = Canvas::new(C, C);
    let b = Body::new(46.0, 1.05, 1.0);
    let (cx, n, hip) = (b.cx, b.neck, b.hip);
    b.legs(&mut c, TROUSERS, BOOT);
    b.torso(&mut c, CHAIN);
    part(&mut c, CLOTH_RED, poly([(cx - 5.0, n + 1.0), (cx + 5.0, n + 1.0), (cx + 6.0, hip + 7.0), (cx - 6.0, hip + 7.0)]));
    b.belt(&mut c, LEATHER, GOLD);
    let hand = (cx - b.sw - 3.0, n + 7.0);
    sword(&mut c, (hand.0 + 0.5, hand.1 - 3.0), (hand.0 - 1.5, 4.0), 5.0, STEEL, GOLD);
    b.arm(&mut c, -1.0, hand, CHAIN, SKIN);
    b.head(&mut c, SKIN);
    b.eyes(&mut c, OUTLINE, 0.5);
    // Beard and an open iron helmet with a nose guard.
    part(&mut c, HAIR, |x, y| ell(cx, b.head_y + 2.0, b.head_r * 0.95, b.head_r * 0.9)(x, y) && y > b.head_y + 2.5);
    inked(&mut c, IRON, |x, y| ell(cx, b.head_y, b.head_r + 1.5, b.head_r + 1.8)(x, y) && y < b.head_y - 0.5);
    c.rect(cx as i32 - 1, b.head_y as i32 - 2, cx as i32 + 1, b.head_y as i32 + 2, shade(IRON, -30));
    b.arm(&mut c, 1.0, (cx + b.sw + 2.0, hip - 3.0), CHAIN, SKIN);
    round_shield(&mut c, cx + b.sw + 3.0, hip - 4.0, 10.0);
    outline(&mut c);
    c
}

fn ranger() -> Canvas {
    let mut c = Canvas::new(C, C);
    let b = Body::new(46.0, 1.0, 1.0);
    let (cx, n, hip) = (b.cx, b.neck, b.hip);
    // Quiver on the back with fletchings over the right shoulder.
    inked(&mut c, LEATHER, cap((cx - 9.0, n - 5.0), (cx - 2.0, hip), 3.0));
    for (i, dx) in [0.0f32, 2.5, 5.0].iter().enumerate() {
        let col = if i == 1 { BEARD } else { CLOTH_RED };
        inked(
            &mut c,
            col,
            poly([(cx - 12.0 + dx, n - 12.0 + dx * 0.3), (cx - 9.5 + dx, n - 11.0 + dx * 0.3), (cx - 8.5 + dx, n - 5.0), (cx - 11.0 + dx, n - 6.0)]),
        );
    }
    b.legs(&mut c, TROUSERS, BOOT);
    b.torso(&mut c, RANGER_GREEN);
    part(
        &mut c,
        shade(RANGER_GREEN, -18),
        poly([(cx - b.hw - 1.0, hip + 1.0), (cx + b.hw + 1.0, hip + 1.0), (cx + b.hw + 2.0, hip + 8.0), (cx - b.hw - 2.0, hip + 8.0)]),
    );
    b.belt(&mut c, LEATHER, GOLD);
    c.line((cx - 7.0, n + 1.0), (cx + 7.0, hip - 1.0), 1.8, LEATHER);
    b.arm(&mut c, -1.0, (cx - 3.0, hip - 6.0), RANGER_GREEN, SKIN);
    b.head(&mut c, SKIN);
    b.eyes(&mut c, OUTLINE, 0.5);
    part(&mut c, HAIR, |x, y| ell(cx, b.head_y - 1.0, b.head_r + 1.0, b.head_r)(x, y) && (y < b.head_y - 1.5 || (x - cx).abs() > b.head_r - 1.5));
    // Hood thrown back: a green cowl around the neck.
    part(&mut c, shade(RANGER_GREEN, 10), |x, y| ell(cx, n + 1.0, b.head_r + 2.0, 3.0)(x, y) && y > n - 1.0);
    // Longbow held upright in the left hand.
    let bx = cx + b.sw + 3.0;
    bow(&mut c, bx, 8.0, 54.0, 8.0, WOOD);
    b.arm(&mut c, 1.0, (bx + 2.0, hip - 6.0), RANGER_GREEN, SKIN);
    outline(&mut c);
    c
}

fn dagger(c: &mut Canvas, hand: Pt, tip: Pt) {
    sword(c, hand, tip, 3.6, STEEL, IRON);
}

fn rogue() -> Canvas {
    let mut c = Canvas::new(C, C);
    let b = Body::new(46.0, 0.95, 1.0);
    let (cx, n, hip) = (b.cx, b.neck, b.hip);
    b.legs(&mut c, shade(ROGUE_CLOAK, -18), BOOT);
    // Cloak hanging from the shoulders to the knees.
    part(
        &mut c,
        ROGUE_CLOAK,
        poly([(cx - b.sw + 1.0, n), (cx + b.sw - 1.0, n), (cx + b.sw + 3.0, hip + 9.0), (cx + 1.0, hip + 6.0), (cx - b.sw - 3.0, hip + 9.0)]),
    );
    part(&mut c, shade(LEATHER, -10), poly([(cx - 4.0, n + 2.0), (cx + 4.0, n + 2.0), (cx + 4.0, hip + 4.0), (cx - 4.0, hip + 4.0)]));
    c.rect(cx as i32 - 5, hip as i32 - 1, cx as i32 + 5, hip as i32 + 1, shade(CLOTH_RED, -30));
    let (rh, lh) = ((cx - b.sw - 3.0, hip - 2.0), (cx + b.sw + 3.0, hip - 2.0));
    dagger(&mut c, (rh.0 - 1.0, rh.1 + 1.0), (rh.0 - 7.0, rh.1 + 12.0));
    dagger(&mut c, (lh.0 + 1.0, lh.1 + 1.0), (lh.0 + 7.0, lh.1 + 12.0));
    b.arm(&mut c, -1.0, rh, ROGUE_CLOAK, SKIN);
    b.arm(&mut c, 1.0, lh, ROGUE_CLOAK, SKIN);
    // Pointed hood with the face in shadow, a red mask and two pale eyes.
    let hood = or(
        ell(cx, b.head_y + 0.5, b.head_r + 2.5, b.head_r + 2.0),
        poly([(cx - 5.0, b.head_y - 4.0), (cx + 1.5, b.head_y - b.head_r - 6.0), (cx + 5.5, b.head_y - 3.0)]),
    );
    part(&mut c, ROGUE_CLOAK, or(hood, ell(cx, n + 1.0, b.sw - 1.0, 3.0)));
    c.shape([30, 26, 34, 255], ell(cx, b.head_y + 1.5, b.head_r * 0.75, b.head_r * 0.8));
    c.shape(shade(CLOTH_RED, -20), |x, y| ell(cx, b.head_y + 1.5, b.head_r * 0.75, b.head_r * 0.8)(x, y) && y > b.head_y + 2.0);
    b.eyes(&mut c, [236, 226, 170, 255], -0.5);
    outline(&mut c);
    c
}

fn wizard() -> Canvas {
    let mut c = Canvas::new(C, C);
    let b = Body::new(44.0, 1.0, 1.0);
    let (cx, n, hip) = (b.cx, b.neck, b.hip);
    // Robe to the floor.
    part(&mut c, ROBE_BLUE, poly([(cx - b.sw + 1.0, n), (cx + b.sw - 1.0, n), (cx + b.sw + 4.0, b.feet - 1.0), (cx - b.sw - 4.0, b.feet - 1.0)]));
    c.rect(cx as i32 - 5, b.feet as i32 - 3, cx as i32 + 5, b.feet as i32 - 1, shade(ROBE_BLUE, -40));
    b.belt(&mut c, GOLD, GOLD);
    // Staff with a glowing orb, in the right hand.
    let sx = cx - b.sw - 3.0;
    inked(&mut c, WOOD, cap((sx, 10.0), (sx + 1.0, b.feet), 1.8));
    inked(&mut c, GLOW, ell(sx, 8.0, 4.0, 4.0));
    c.disc(sx - 1.2, 6.8, 1.2, WHITE);
    b.arm(&mut c, -1.0, (sx + 0.5, hip - 6.0), ROBE_BLUE, SKIN);
    b.arm(&mut c, 1.0, (cx + b.sw + 2.0, hip - 1.0), ROBE_BLUE, SKIN);
    b.head(&mut c, SKIN);
    b.eyes(&mut c, OUTLINE, 0.5);
    // Long white beard.
    part(&mut c, BEARD, poly([(cx - 5.0, b.head_y + 1.5), (cx + 5.0, b.head_y + 1.5), (cx + 3.5, n + 10.0), (cx, n + 14.0), (cx - 3.5, n + 10.0)]));
    // Wide-brimmed pointed hat, its tip bent back.
    let by = b.head_y - 2.5;
    part(&mut c, ROBE_BLUE, poly([(cx - 6.5, by), (cx - 1.0, 5.5), (cx + 4.5, 3.0), (cx + 2.5, 6.5), (cx + 7.0, by)]));
    part(&mut c, shade(ROBE_BLUE, -10), ell(cx, by + 0.5, 12.0, 2.5));
    c.rect(cx as i32 - 5, by as i32 - 3, cx as i32 + 6, by as i32 - 1, GOLD);
    outline(&mut c);
    c
}

fn priest() -> Canvas {
    let mut c = Canvas::new(C, C);
    let b = Body::new(45.0, 1.05, 1.0);
    let (cx, n, hip) = (b.cx, b.neck, b.hip);
    part(&mut c, ROBE_WHITE, poly([(cx - b.sw + 1.0, n), (cx + b.sw - 1.0, n), (cx + b.sw + 3.0, b.feet - 1.0), (cx - b.sw - 3.0, b.feet - 1.0)]));
    // Red stole with gold ends.
    for s in [-1.0f32, 1.0] {
        part(&mut c, CLOTH_RED, poly([(cx + s * 1.5, n), (cx + s * 5.0, n), (cx + s * 5.0, b.feet - 4.0), (cx + s * 1.5, b.feet - 4.0)]));
        c.rect((cx + s * 3.25 - 1.75) as i32, b.feet as i32 - 6, (cx + s * 3.25 + 1.75) as i32 + 1, b.feet as i32 - 4, GOLD);
    }
    b.belt(&mut c, shade(ROBE_WHITE, -40), GOLD);
    // Mace raised in the right hand.
    let hand = (cx - b.sw - 3.0, n + 7.0);
    inked(&mut c, WOOD, cap((hand.0 + 0.5, hand.1 + 4.0), (hand.0 - 1.0, 11.0), 1.6));
    let (mx, my) = (hand.0 - 1.0, 10.5);
    inked(
        &mut c,
        STEEL,
        or(
            ell(mx, my, 4.5, 5.0),
            or(poly([(mx - 7.0, my), (mx, my - 2.5), (mx + 7.0, my), (mx, my + 2.5)]), poly([(mx, my - 7.5), (mx + 2.5, my), (mx, my + 7.5), (mx - 2.5, my)])),
        ),
    );
    c.disc(mx - 1.2, my - 1.5, 1.2, WHITE);
    b.arm(&mut c, -1.0, hand, ROBE_WHITE, SKIN);
    b.arm(&mut c, 1.0, (cx + b.sw + 2.0, hip), ROBE_WHITE, SKIN);
    b.head(&mut c, SKIN);
    b.eyes(&mut c, OUTLINE, 0.5);
    // Tonsure: a ring of hair around the bald crown.
    part(&mut c, HAIR, |x, y| ell(cx, b.head_y - 0.5, b.head_r + 0.8, b.head_r)(x, y) && (x - cx).abs() > b.head_r - 2.0 && y < b.head_y + 1.0);
    // Golden sun on the chest.
    let (sx, sy) = (cx, n + 7.0);
    for k in 0..8 {
        let a = k as f32 * std::f32::consts::FRAC_PI_4;
        c.line((sx, sy), (sx + 6.0 * a.cos(), sy + 6.0 * a.sin()), 2.0, OUTLINE);
    }
    for k in 0..8 {
        let a = k as f32 * std::f32::consts::FRAC_PI_4;
        c.line((sx, sy), (sx + 5.2 * a.cos(), sy + 5.2 * a.sin()), 1.0, GOLD);
    }
    inked(&mut c, GOLD, ell(sx, sy, 3.3, 3.3));
    outline(&mut c);
    c
}

fn templar() -> Canvas {
    let mut c = Canvas::new(C, C);
    let b = Body::new(46.0, 1.08, 1.0);
    let (cx, n, hip) = (b.cx, b.neck, b.hip);
    b.legs(&mut c, STEEL, shade(IRON, -20));
    b.torso(&mut c, STEEL);
    // White tabard with a red cross.
    part(&mut c, ROBE_WHITE, poly([(cx - 6.0, n + 1.0), (cx + 6.0, n + 1.0), (cx + 7.0, hip + 9.0), (cx - 7.0, hip + 9.0)]));
    c.rect(cx as i32 - 1, n as i32 + 3, cx as i32 + 2, hip as i32 + 6, CLOTH_RED);
    c.rect(cx as i32 - 5, n as i32 + 7, cx as i32 + 6, n as i32 + 10, CLOTH_RED);
    b.belt(&mut c, LEATHER, GOLD);
    // Sword lowered at the right side.
    let hand = (cx - b.sw - 2.0, hip);
    sword(&mut c, (hand.0 - 1.0, hand.1 + 2.0), (hand.0 - 9.0, b.feet - 2.0), 4.6, STEEL, GOLD);
    b.arm(&mut c, -1.0, hand, STEEL, shade(STEEL, -30));
    // Great helm: flat-topped steel bucket with an eye slit and a breathing cross.
    let (hx, hy, r) = (cx, b.head_y, b.head_r);
    inked(&mut c, STEEL, or(boxed(hx - r - 0.5, hy - r + 1.0, hx + r + 0.5, hy + r + 1.5), ell(hx, hy - r + 2.0, r + 0.5, 3.0)));
    c.rect(hx as i32 - 5, hy as i32 - 1, hx as i32 + 6, hy as i32 + 1, OUTLINE);
    c.rect(hx as i32, hy as i32 + 1, hx as i32 + 1, hy as i32 + 5, OUTLINE);
    c.rect(hx as i32 - 2, hy as i32 + 3, hx as i32 + 3, hy as i32 + 4, OUTLINE);
    // Heater shield on the left arm: white with a red cross.
    b.arm(&mut c, 1.0, (cx + b.sw + 2.0, hip - 3.0), STEEL, shade(STEEL, -30));
    let (sx, st) = (cx + b.sw + 3.0, n + 2.0);
    inked(&mut c, GOLD, heater(sx, st, 9.0, 22.0));
    part(&mut c, ROBE_WHITE, heater(sx, st + 2.0, 7.0, 18.5));
    c.rect(sx as i32 - 1, st as i32 + 2, sx as i32 + 2, st as i32 + 19, CLOTH_RED);
    c.rect(sx as i32 - 6, st as i32 + 7, sx as i32 + 7, st as i32 + 10, CLOTH_RED);
    outline(&mut c);
    c
}

fn troubadour() -> Canvas {
    let mut c = Canvas::new(C, C);
    let b = Body::new(45.0, 0.95, 1.0);
    let (cx, n, hip) = (b.cx, b.neck, b.hip);
    // Particoloured hose and doublet.
    for (s, col) in [(-1.0f32, MUSTARD), (1.0, WINE)] {
        let (hx, ax) = (cx + s * b.hw * 0.5, cx + s * (b.hw * 0.5 + 0.5));
        part(&mut c, col, cap((hx, hip), (ax, b.feet - 4.0), b.limb));
        part(&mut c, BOOT, ell(ax + s * 0.8, b.feet - 2.0, b.limb + 1.3, 2.6));
    }
    b.torso(&mut c, WINE);
    part(&mut c, MUSTARD, |x, y| x < cx && poly([(cx - b.sw, n), (cx, n), (cx, hip + 4.0), (cx - b.hw - 1.0, hip + 4.0)])(x, y));
    part(&mut c, WINE, poly([(cx - b.hw - 1.0, hip), (cx + b.hw + 1.0, hip), (cx + b.hw + 3.0, hip + 6.0), (cx - b.hw - 3.0, hip + 6.0)]));
    b.arm(&mut c, -1.0, (cx - 6.0, hip + 1.0), MUSTARD, SKIN);
    // Lute across the body: pear-shaped body low on the right, neck up to the figure's left shoulder.
    let (lx, ly) = (cx - 3.0, hip + 1.0);
    inked(&mut c, shade(WOOD, -20), cap((lx, ly), (cx + 13.0, n - 2.0), 1.8));
    inked(&mut c, shade(WOOD, -30), cap((cx + 12.5, n - 1.0), (cx + 15.0, n - 5.0), 2.2));
    inked(&mut c, [196, 134, 70, 255], or(ell(lx, ly, 7.5, 6.5), ell(lx + 4.0, ly - 3.5, 4.5, 4.0)));
    c.disc(lx + 1.5, ly - 1.5, 1.8, OUTLINE);
    c.rect(lx as i32 - 4, ly as i32 + 2, lx as i32 - 1, ly as i32 + 3, OUTLINE);
    b.arm(&mut c, 1.0, (cx + 8.0, n + 5.0), WINE, SKIN);
    b.head(&mut c, SKIN);
    b.eyes(&mut c, OUTLINE, 1.0);
    part(&mut c, HAIR, |x, y| ell(cx, b.head_y + 1.0, b.head_r + 1.0, b.head_r)(x, y) && (x - cx).abs() > b.head_r - 1.5 && y < b.head_y + 3.0);
    // Floppy cap tilted to one side with a long feather.
    let hy = b.head_y - 2.0;
    inked(
        &mut c,
        [236, 226, 190, 255],
        poly([(cx + 2.0, hy - 3.0), (cx + 9.0, hy - 11.0), (cx + 14.0, hy - 11.5), (cx + 10.0, hy - 7.5), (cx + 5.0, hy - 2.0)]),
    );
    c.line((cx + 4.0, hy - 3.0), (cx + 12.5, hy - 10.5), 1.0, shade(BEARD, -60));
    inked(&mut c, CLOTH_RED, or(ell(cx - 1.0, hy - 2.0, 9.0, 4.5), ell(cx - 6.0, hy + 0.5, 4.0, 2.5)));
    c.shape(shade(CLOTH_RED, -40), |x, y| ell(cx - 1.0, hy + 1.5, 8.0, 1.0)(x, y) && y > hy + 1.0);
    outline(&mut c);
    c
}

/// A small goblin; `archer` swaps the dagger for a short bow and adds a leather hood.
fn goblin(archer: bool) -> Canvas {
    let mut c = Canvas::new(C, C);
    let b = Body::new(34.0, 1.05, 1.45);
    let (cx, n, hip) = (b.cx, b.neck, b.hip);
    b.legs(&mut c, GOBLIN, shade(LEATHER, -20));
    b.torso(&mut c, if archer { shade(LEATHER, 10) } else { [118, 98, 64, 255] });
    // Ragged hem.
    part(
        &mut c,
        if archer { shade(LEATHER, 10) } else { [118, 98, 64, 255] },
        poly([
            (cx - b.hw - 1.0, hip),
            (cx + b.hw + 1.0, hip),
            (cx + b.hw + 2.0, hip + 5.0),
            (cx + 2.0, hip + 3.0),
            (cx - 1.0, hip + 6.0),
            (cx - b.hw - 2.0, hip + 4.0),
        ]),
    );
    b.belt(&mut c, shade(LEATHER, -20), IRON);
    if archer {
        inked(&mut c, LEATHER, cap((cx - 7.0, n - 3.0), (cx - 2.0, hip), 2.4));
        c.line((cx - 9.0, n - 6.0), (cx - 7.0, n - 2.0), 2.0, CLOTH_RED);
        b.arm(&mut c, -1.0, (cx - 4.0, hip - 4.0), GOBLIN, GOBLIN);
        let bx = cx + b.sw + 3.0;
        bow(&mut c, bx, n - 8.0, hip + 10.0, 6.0, [168, 116, 66, 255]);
        b.arm(&mut c, 1.0, (bx + 1.5, hip - 2.0), GOBLIN, GOBLIN);
    } else {
        let hand = (cx - b.sw - 2.0, hip - 2.0);
        sword(&mut c, (hand.0 - 0.5, hand.1 - 3.0), (hand.0 - 6.0, hand.1 - 18.0), 5.0, STEEL, IRON);
        b.arm(&mut c, -1.0, hand, GOBLIN, GOBLIN);
        b.arm(&mut c, 1.0, b.rest(1.0), GOBLIN, GOBLIN);
    }
    // Big head with long ears swept out and up.
    let (hx, hy, r) = (cx, b.head_y, b.head_r);
    for s in [-1.0f32, 1.0] {
        part(&mut c, GOBLIN, poly([(hx + s * (r - 2.0), hy - 2.0), (hx + s * (r + 9.0), hy - 6.0), (hx + s * (r - 1.0), hy + 3.0)]));
        c.shape(shade(GOBLIN, -45), poly([(hx + s * (r - 0.5), hy - 1.0), (hx + s * (r + 6.0), hy - 4.5), (hx + s * (r - 0.5), hy + 1.5)]));
    }
    part(&mut c, GOBLIN, ell(hx, hy, r * 0.95, r * 0.9));
    if archer {
        inked(&mut c, LEATHER, |x, y| ell(hx, hy, r * 0.95 + 1.0, r * 0.9 + 1.0)(x, y) && y < hy - 1.5);
    }
    c.rect(hx as i32 - 4, hy as i32 - 1, hx as i32 - 1, hy as i32 + 1, EYE_GLOW);
    c.rect(hx as i32 + 1, hy as i32 - 1, hx as i32 + 4, hy as i32 + 1, EYE_GLOW);
    c.rect(hx as i32 - 3, hy as i32 - 1, hx as i32 - 2, hy as i32 + 1, OUTLINE);
    c.rect(hx as i32 + 2, hy as i32 - 1, hx as i32 + 3, hy as i32 + 1, OUTLINE);
    part(&mut c, shade(GOBLIN, -10), ell(hx, hy + 2.0, 1.5, 2.0));
    c.rect(hx as i32 - 3, hy as i32 + 4, hx as i32 + 3, hy as i32 + 5, OUTLINE);
    c.rect(hx as i32 - 2, hy as i32 + 4, hx as i32 - 1, hy as i32 + 5, TUSK);
    c.rect(hx as i32 + 1, hy as i32 + 4, hx as i32 + 2, hy as i32 + 5, TUSK);
    outline(&mut c);
    c
}

fn hobgoblin() -> Canvas {
    let mut c = Canvas::new(C, C);
    let b = Body::new(49.0, 1.12, 0.95);
    let (cx, n, hip) = (b.cx, b.neck, b.hip);
    b.legs(&mut c, shade(LEATHER, -10), BOOT);
    b.torso(&mut c, WOOD_RED);
    part(&mut c, shade(WOOD_RED, -25), poly([(cx - b.hw - 1.0, hip), (cx + b.hw + 1.0, hip), (cx + b.hw + 2.0, hip + 8.0), (cx - b.hw - 2.0, hip + 8.0)]));
    c.line((cx - 1.0, hip + 1.0), (cx - 1.0, hip + 8.0), 1.0, OUTLINE);
    b.belt(&mut c, OUTLINE, IRON);
    // Curved falchion raised in the right hand.
    let hand = (cx - b.sw - 3.0, n + 8.0);
    sword(&mut c, (hand.0 + 0.5, hand.1 - 3.0), (hand.0 - 5.0, 4.0), 6.5, IRON, shade(IRON, -40));
    b.arm(&mut c, -1.0, hand, HOBGOBLIN, HOBGOBLIN);
    b.arm(&mut c, 1.0, b.rest(1.0), HOBGOBLIN, HOBGOBLIN);
    // Iron shoulder plates.
    for s in [-1.0f32, 1.0] {
        inked(&mut c, IRON, |x, y| ell(cx + s * (b.sw - 2.0), n + 2.5, 5.0, 4.0)(x, y) && y < n + 4.5);
    }
    let (hx, hy, r) = (cx, b.head_y, b.head_r);
    for s in [-1.0f32, 1.0] {
        part(&mut c, HOBGOBLIN, poly([(hx + s * (r - 2.0), hy - 1.0), (hx + s * (r + 4.0), hy - 2.0), (hx + s * (r - 1.0), hy + 3.0)]));
    }
    part(&mut c, HOBGOBLIN, ell(hx, hy + 0.5, r, r + 0.5));
    c.rect(hx as i32 - 4, hy as i32 + 1, hx as i32 - 1, hy as i32 + 2, EYE_GLOW);
    c.rect(hx as i32 + 1, hy as i32 + 1, hx as i32 + 4, hy as i32 + 2, EYE_GLOW);
    c.rect(hx as i32 - 3, hy as i32 + 5, hx as i32 + 3, hy as i32 + 6, OUTLINE);
    // Conical iron helmet with a nose guard.
    inked(&mut c, IRON, or(|x, y| ell(hx, hy, r + 1.5, r + 1.0)(x, y) && y < hy + 0.5, poly([(hx - r, hy - 2.0), (hx, hy - r - 3.0), (hx + r, hy - 2.0)])));
    c.rect(hx as i32 - 1, hy as i32, hx as i32 + 1, hy as i32 + 4, shade(IRON, -30));
    outline(&mut c);
    c
}

fn kobold() -> Canvas {
    let mut c = Canvas::new(C, C);
    let b = Body::new(34.0, 1.0, 1.3);
    let (cx, n, hip) = (b.cx, b.neck, b.hip);
    // Tail curling out on the figure's left (the viewer's right).
    inked(&mut c, KOBOLD, |x, y| {
        let t = ((x - cx) / 20.0).clamp(0.0, 1.0);
        let yc = hip + 6.0 + 8.0 * t - 14.0 * t.powi(4);
        x > cx && x < cx + 21.0 && (y - yc).abs() <= 3.2 * (1.0 - t) + 1.0
    });
    // Spear held upright in the right hand.
    let sx = cx - b.sw - 3.0;
    inked(&mut c, WOOD, cap((sx, 12.0), (sx + 0.5, b.feet), 1.6));
    inked(&mut c, IRON, poly([(sx, 3.0), (sx + 3.0, 10.0), (sx, 14.0), (sx - 3.0, 10.0)]));
    b.legs(&mut c, KOBOLD, shade(KOBOLD, -30));
    b.torso(&mut c, KOBOLD);
    part(&mut c, BELLY, ell(cx, hip - 3.0, b.hw * 0.8, (hip - n) * 0.5));
    for k in 0..3 {
        c.rect(cx as i32 - 2, n as i32 + 4 + k * 3, cx as i32 + 2, n as i32 + 5 + k * 3, shade(BELLY, -40));
    }
    part(&mut c, LEATHER, poly([(cx - b.hw - 1.0, hip), (cx + b.hw + 1.0, hip), (cx + 3.0, hip + 6.0), (cx - 3.0, hip + 6.0)]));
    b.arm(&mut c, -1.0, (sx + 0.5, hip - 4.0), KOBOLD, KOBOLD);
    b.arm(&mut c, 1.0, b.rest(1.0), KOBOLD, KOBOLD);
    // Reptile head: small horns, a long snout pointing to the viewer's left, a yellow eye.
    let (hx, hy, r) = (cx + 1.0, b.head_y, b.head_r);
    for s in [-1.0f32, 1.0] {
        inked(&mut c, BELLY, poly([(hx + s * 2.0, hy - r + 2.0), (hx + s * 6.0, hy - r - 5.0), (hx + s * 5.5, hy - r + 3.0)]));
    }
    part(&mut c, KOBOLD, or(ell(hx, hy, r * 0.9, r * 0.85), or(ell(hx - 6.0, hy + 2.0, 7.0, 3.4), ell(hx - 11.0, hy + 1.5, 2.8, 3.0))));
    c.line((hx - 13.0, hy + 3.5), (hx - 3.0, hy + 4.0), 1.0, OUTLINE);
    c.rect(hx as i32 - 13, hy as i32 + 4, hx as i32 - 11, hy as i32 + 5, TUSK);
    c.rect(hx as i32 - 8, hy as i32 + 4, hx as i32 - 7, hy as i32 + 5, TUSK);
    c.rect(hx as i32 - 13, hy as i32, hx as i32 - 12, hy as i32 + 1, OUTLINE);
    for s in [-1i32, 1] {
        c.rect(hx as i32 + s * 3 - 1, hy as i32 - 2, hx as i32 + s * 3 + 1, hy as i32, EYE_GLOW);
        c.rect(hx as i32 + s * 3, hy as i32 - 2, hx as i32 + s * 3 + 1, hy as i32, OUTLINE);
    }
    // Scales: a staggered pattern of darker flecks on the plain hide.
    let base = c.px.clone();
    c.paint(|x, y| {
        let i = ((y * C + x) * 4) as usize;
        (base[i..i + 4] == KOBOLD && y % 3 == 0 && (x + y / 3 * 2) % 4 == 0).then_some(shade(KOBOLD, -30))
    });
    outline(&mut c);
    c
}

/// An orc; the captain is bigger, with a horned helmet, a double axe and a red cape.
fn orc(captain: bool) -> Canvas {
    let mut c = Canvas::new(C, C);
    let b = if captain { Body::new(50.0, 1.3, 0.95) } else { Body::new(48.0, 1.2, 0.95) };
    let (cx, n, hip) = (b.cx, b.neck, b.hip);
    if captain {
        part(&mut c, CLOTH_RED, poly([(cx - b.sw, n + 1.0), (cx + b.sw, n + 1.0), (cx + b.sw + 5.0, b.feet - 1.0), (cx - b.sw - 5.0, b.feet - 1.0)]));
    }
    // Axe raised in the right hand: haft up and out, blade(s) at the top.
    let hand = (cx - b.sw - 2.0, n + 9.0);
    let top = (hand.0 - 4.0, if captain { 10.0 } else { 9.0 });
    inked(&mut c, WOOD, cap((hand.0 + 1.0, hand.1 + 6.0), top, 1.8));
    let (ax, ay) = (top.0 + 0.5, top.1 + 4.0);
    let blade = |s: f32, big: f32| {
        poly([(ax, ay - 3.0), (ax + s * 8.0 * big, ay - 6.0 * big), (ax + s * 9.0 * big, ay), (ax + s * 8.0 * big, ay + 6.0 * big), (ax, ay + 3.0)])
    };
    if captain {
        inked(&mut c, STEEL, or(blade(-1.0, 1.15), blade(1.0, 1.0)));
    } else {
        inked(&mut c, STEEL, blade(-1.0, 1.0));
    }
    b.legs(&mut c, shade(LEATHER, -10), BOOT);
    b.torso(&mut c, ORC);
    part(&mut c, shade(ORC, -25), ell(cx, n + 7.0, b.sw - 3.0, 4.0));
    c.line((cx - b.sw + 2.0, n + 2.0), (cx + b.hw, hip), 2.2, LEATHER);
    // Fur-trimmed loincloth.
    part(
        &mut c,
        [112, 92, 70, 255],
        poly([(cx - b.hw - 1.0, hip), (cx + b.hw + 1.0, hip), (cx + b.hw + 1.5, hip + 7.0), (cx, hip + 9.0), (cx - b.hw - 1.5, hip + 7.0)]),
    );
    b.belt(&mut c, shade(LEATHER, -20), IRON);
    b.arm(&mut c, -1.0, hand, ORC, ORC);
    b.arm(&mut c, 1.0, b.rest(1.0), ORC, ORC);
    if captain {
        for s in [-1.0f32, 1.0] {
            inked(&mut c, IRON, |x, y| ell(cx + s * (b.sw - 1.5), n + 4.0, 5.5, 4.5)(x, y) && y < n + 6.5);
            inked(&mut c, STEEL, poly([(cx + s * (b.sw - 3.0), n + 1.0), (cx + s * (b.sw - 0.5), n - 3.5), (cx + s * (b.sw + 0.5), n + 1.0)]));
        }
    }
    // Head: broad jaw, heavy brow, red eyes and upward tusks.
    let (hx, hy, r) = (cx, b.head_y, b.head_r);
    for s in [-1.0f32, 1.0] {
        part(&mut c, ORC, poly([(hx + s * (r - 2.0), hy - 1.0), (hx + s * (r + 3.5), hy - 3.0), (hx + s * (r - 1.0), hy + 2.5)]));
    }
    part(&mut c, ORC, or(ell(hx, hy, r * 0.95, r), ell(hx, hy + 3.0, r + 0.5, r * 0.65)));
    c.rect(hx as i32 - 5, hy as i32 - 2, hx as i32 + 5, hy as i32, shade(ORC, -45));
    c.rect(hx as i32 - 4, hy as i32, hx as i32 - 1, hy as i32 + 2, [220, 60, 40, 255]);
    c.rect(hx as i32 + 1, hy as i32, hx as i32 + 4, hy as i32 + 2, [220, 60, 40, 255]);
    c.rect(hx as i32 - 4, hy as i32 + 5, hx as i32 + 4, hy as i32 + 6, OUTLINE);
    for s in [-1i32, 1] {
        inked(&mut c, TUSK, boxed((hx as i32 + s * 3 - 1) as f32, hy + 1.5, (hx as i32 + s * 3 + 2) as f32, hy + 6.5));
    }
    if captain {
        for s in [-1.0f32, 1.0] {
            // A horn: a tapering quadratic curve out from the helmet's side and up.
            let (p0, p1, p2) = ((hx + s * (r - 1.0), hy - 3.0), (hx + s * (r + 7.0), hy - 2.0), (hx + s * (r + 5.5), hy - 7.5));
            let at = |t: f32| {
                let u = 1.0 - t;
                (u * u * p0.0 + 2.0 * u * t * p1.0 + t * t * p2.0, u * u * p0.1 + 2.0 * u * t * p1.1 + t * t * p2.1)
            };
            inked(&mut c, TUSK, move |x, y| (0..8).any(|k| seg_dist((x, y), at(k as f32 / 8.0), at((k + 1) as f32 / 8.0)) <= 3.2 - 2.4 * k as f32 / 8.0));
        }
        inked(&mut c, IRON, |x, y| ell(hx, hy - 1.0, r + 1.5, r + 1.0)(x, y) && y < hy - 1.5);
        c.rect(hx as i32 - 1, hy as i32 - 2, hx as i32 + 1, hy as i32 + 2, shade(IRON, -30));
    } else {
        part(&mut c, OUTLINE, ell(hx, hy - r + 0.5, 2.5, 2.5));
        part(&mut c, [44, 40, 36, 255], cap((hx, hy - r - 1.0), (hx + 2.5, hy - r - 3.0), 1.3));
    }
    outline(&mut c);
    c
}

fn skeleton() -> Canvas {
    let mut c = Canvas::new(C, C);
    let b = Body::new(46.0, 0.95, 1.0);
    let (cx, n, hip) = (b.cx, b.neck, b.hip);
    let bone = |c: &mut Canvas, a: Pt, z: Pt, w: f32| part(c, BONE, or(cap(a, z, w), or(ell(a.0, a.1, w + 0.8, w + 0.8), ell(z.0, z.1, w + 0.8, w + 0.8))));
    // Legs and pelvis.
    for s in [-1.0f32, 1.0] {
        bone(&mut c, (cx + s * 3.0, hip + 3.0), (cx + s * 4.0, hip + 10.0), 1.2);
        bone(&mut c, (cx + s * 4.0, hip + 10.0), (cx + s * 4.5, b.feet - 3.0), 1.2);
        part(&mut c, BONE, ell(cx + s * 5.5, b.feet - 2.0, 3.0, 1.8));
    }
    part(&mut c, BONE, or(ell(cx, hip + 2.0, 6.0, 3.2), boxed(cx - 1.0, n, cx + 1.0, hip)));
    c.disc(cx - 2.5, hip + 2.5, 1.2, OUTLINE);
    c.disc(cx + 2.5, hip + 2.5, 1.2, OUTLINE);
    // Ribs.
    for k in 0..4 {
        let y = n + 3.0 + k as f32 * 3.0;
        let w = 7.0 - k as f32 * 0.8;
        part(&mut c, BONE, |x, yy| (yy - y - 0.06 * (x - cx).powi(2)).abs() < 1.0 && (x - cx).abs() < w);
    }
    part(&mut c, BONE, boxed(cx - b.sw + 1.0, n, cx + b.sw - 1.0, n + 2.0));
    // Rusty sword raised in the right hand.
    let hand = (cx - b.sw - 3.0, n + 7.0);
    sword(&mut c, (hand.0 + 0.5, hand.1 - 3.0), (hand.0 - 4.0, 4.0), 5.0, lerp(IRON, RUST, 0.5), RUST);
    for (x, y) in [(hand.0 - 2.0, 12.0), (hand.0 - 1.0, 19.0), (hand.0 - 2.0, 8.0)] {
        c.disc(x, y, 1.0, RUST);
    }
    bone(&mut c, b.shoulder(-1.0), hand, 1.1);
    bone(&mut c, b.shoulder(1.0), (cx + b.sw + 2.0, hip), 1.1);
    part(&mut c, BONE, ell(cx + b.sw + 2.0, hip + 1.0, 2.0, 2.5));
    // Skull with deep eye sockets and teeth.
    let (hx, hy, r) = (cx, b.head_y, b.head_r + 0.5);
    part(&mut c, BONE, or(ell(hx, hy - 0.5, r, r), boxed(hx - 3.5, hy + 2.0, hx + 3.5, hy + r + 2.0)));
    c.disc(hx - 2.6, hy + 0.5, 2.0, OUTLINE);
    c.disc(hx + 2.6, hy + 0.5, 2.0, OUTLINE);
    c.rect(hx as i32, hy as i32 + 3, hx as i32 + 1, hy as i32 + 4, OUTLINE);
    c.rect(hx as i32 - 3, hy as i32 + 5, hx as i32 + 4, hy as i32 + 6, OUTLINE);
    for k in -1..=1 {
        c.rect(hx as i32 + k * 2, hy as i32 + 5, hx as i32 + k * 2 + 1, hy as i32 + 8, OUTLINE);
    }
    outline(&mut c);
    c
}

/// A fallen figure seen from above: a blood pool, a torn cloth and scattered bones (deliberately flat and dark).
fn remains() -> Canvas {
    let mut c = Canvas::new(C, C);
    // Jagged pool like the pit's rim: 16 sectors with hashed radii, plus a few splashes around it.
    let radius = |a: f32| {
        let s = (a / std::f32::consts::TAU + 0.5) * 16.0;
        let (i, f) = (s.floor() as i32, s.fract());
        let r = |k: i32| 16.5 + (hash(k.rem_euclid(16), 0, 41) % 6) as f32;
        r(i) * (1.0 - f) + r(i + 1) * f
    };
    let splashes = [(9.0, 46.0, 2.6), (55.0, 21.0, 3.0), (52.0, 50.0, 2.2)];
    c.paint(|x, y| {
        let (fx, fy) = (x as f32 + 0.5, y as f32 + 0.5);
        let (dx, dy) = ((fx - 32.0) * 0.9, fy - 33.0);
        let edge = radius(dy.atan2(dx)) - dx.hypot(dy);
        let edge = splashes.iter().fold(edge, |e, &(sx, sy, r)| e.max(r - (fx - sx).hypot(fy - sy)));
        (edge >= 0.0).then(|| {
            shade(
                BLOOD,
                if edge < 1.2 {
                    -45
                } else if edge > 7.0 {
                    -14
                } else {
                    0
                } + noise(x / 2, y / 2, 43, 5),
            )
        })
    });
    // A torn, dark rag.
    let cloth = [72, 68, 80, 255];
    let rag = poly([
        (11.0, 27.0),
        (20.0, 18.0),
        (27.0, 20.0),
        (30.0, 15.0),
        (35.0, 23.0),
        (31.0, 27.0),
        (34.0, 33.0),
        (27.0, 31.0),
        (24.0, 37.0),
        (20.0, 32.0),
        (14.0, 36.0),
        (15.0, 30.0),
    ]);
    c.shape(OUTLINE, |x, y| rag(x - 0.8, y - 0.8) || rag(x + 0.8, y + 0.8));
    part(&mut c, cloth, rag);
    c.line((16.0, 26.0), (27.0, 30.0), 1.0, shade(cloth, -30));
    c.line((22.0, 22.0), (30.0, 25.0), 1.0, shade(cloth, -30));
    let dark_bone = shade(BONE, -72);
    let bone = |c: &mut Canvas, a: Pt, z: Pt| {
        // Knobs on each end, 1.4 px either side of the shaft.
        let l = (z.0 - a.0).hypot(z.1 - a.1) / 1.4;
        let (ux, uy) = ((a.1 - z.1) / l, (z.0 - a.0) / l);
        for (w, col) in [(1.0, OUTLINE), (0.0, dark_bone)] {
            c.line(a, z, 2.2 + 2.0 * w, col);
            for e in [a, z] {
                c.disc(e.0 + ux, e.1 + uy, 1.5 + w, col);
                c.disc(e.0 - ux, e.1 - uy, 1.5 + w, col);
            }
        }
    };
    bone(&mut c, (17.0, 42.0), (33.0, 47.0));
    bone(&mut c, (38.0, 38.0), (49.0, 29.0));
    bone(&mut c, (39.0, 47.0), (45.0, 52.0));
    // Ribs sticking out from under the rag.
    for k in 0..3 {
        let y = 34.0 + k as f32 * 3.5;
        c.line((28.0, y), (35.0 - k as f32, y + 2.0), 3.2, OUTLINE);
        c.line((28.5, y), (34.5 - k as f32, y + 2.0), 1.4, dark_bone);
    }
    // A skull, face up and turned aside.
    let (sx, sy) = (41.0, 21.0);
    c.disc(sx, sy, 6.8, OUTLINE);
    c.shape(OUTLINE, boxed(sx - 3.8, sy + 2.0, sx + 4.8, sy + 8.5));
    c.disc(sx, sy, 5.5, dark_bone);
    c.shape(dark_bone, boxed(sx - 2.7, sy + 3.0, sx + 3.7, sy + 7.3));
    c.disc(sx - 1.5, sy - 2.5, 2.0, shade(dark_bone, 22));
    c.disc(sx - 2.3, sy + 1.2, 1.7, OUTLINE);
    c.disc(sx + 2.6, sy + 1.2, 1.7, OUTLINE);
    c.rect(sx as i32 - 2, sy as i32 + 5, sx as i32 + 4, sy as i32 + 6, OUTLINE);
    c
}

/// A five-pointed star, point up.
fn star(cx: f32, cy: f32, r: f32) -> impl Fn(f32, f32) -> bool + Copy {
    poly(std::array::from_fn::<Pt, 10, _>(|k| {
        let (a, d) = (k as f32 * std::f32::consts::PI / 5.0, if k % 2 == 0 { r } else { r * 0.48 });
        (cx + d * a.sin(), cy - d * a.cos())
    }))
}

/// Everything within about `w` px of a shape: for outlines drawn before the shape itself.
fn grown(inside: impl Fn(f32, f32) -> bool + Copy, w: f32) -> impl Fn(f32, f32) -> bool + Copy {
    move |x, y| {
        (0..=8).any(|k| {
            if k == 8 {
                inside(x, y)
            } else {
                let a = k as f32 * std::f32::consts::FRAC_PI_4;
                inside(x + w * a.cos(), y + w * a.sin())
            }
        })
    }
}

fn stunned() -> Canvas {
    let mut c = Canvas::new(C, C);
    // A swirl (an ellipse around the head) with three stars on it, all within the top 16 px.
    let orbit = |x: f32, y: f32| {
        // Approximate distance in px to the ellipse (its implicit function over its gradient's length).
        let (a, b) = (21.0, 4.5);
        let (u, v) = ((x - 32.0) / a, (y - 8.5) / b);
        let q = u.hypot(v);
        (q - 1.0) * q / (u / a).hypot(v / b)
    };
    c.shape(OUTLINE, |x, y| orbit(x, y).abs() < 1.5 && y > 6.5);
    c.shape(STAR, |x, y| orbit(x, y).abs() < 0.6 && y > 6.5);
    for (x, y, r) in [(17.0, 7.5, 5.8), (32.0, 8.5, 6.2), (47.0, 7.0, 5.8)] {
        c.shape(OUTLINE, grown(star(x, y, r), 1.6));
        part(&mut c, STAR, star(x, y, r));
    }
    c
}

fn bleeding() -> Canvas {
    let mut c = Canvas::new(C, C);
    let (cx, cy, r) = (52.0, 15.5, 6.0);
    let drop = move |x: f32, y: f32| ell(cx, cy, r, r)(x, y) || (y < cy && y > 2.0 && (x - cx).abs() <= r * (y - 2.0) / (cy - 2.0) * 0.85);
    c.shape(OUTLINE, |x, y| [(-1.5, 0.0), (1.5, 0.0), (0.0, -1.5), (0.0, 1.5), (0.0, 0.0)].iter().any(|&(dx, dy)| drop(x + dx, y + dy)));
    part(&mut c, [200, 28, 30, 255], drop);
    c.disc(cx - 2.5, cy - 1.0, 1.4, [255, 170, 160, 255]);
    c
}

fn dropped_weapon() -> Canvas {
    let mut c = Canvas::new(C, C);
    let (hilt, tip) = ((22.0, 42.0), (50.0, 14.0));
    let mut s = Canvas::new(C, C);
    sword(&mut s, hilt, tip, 5.5, STEEL, GOLD);
    c.paint(|x, y| {
        let (sx, sy) = (x - 2, y - 3);
        ((0..C).contains(&sx) && (0..C).contains(&sy) && s.px[((sy * C + sx) * 4 + 3) as usize] > 0).then_some(SHADOW)
    });
    c.paint(|x, y| {
        let i = ((y * C + x) * 4) as usize;
        (s.px[i + 3] > 0).then(|| [s.px[i], s.px[i + 1], s.px[i + 2], s.px[i + 3]])
    });
    c
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/art");
    std::fs::create_dir_all(&dir)?;
    // Tile atlas: the order below *is* the atlas index (see the module docs).
    strip(&[
        flagstones(&FLOOR_A, 1),
        flagstones(&FLOOR_B, 2),
        wall(),
        door(WOOD, false),
        door_open(),
        door(WOOD_RED, true),
        pillar(),
        pit(),
        stairs(),
        difficult(),
        exit_marker(),
        Canvas::new(T, T),
    ])
    .save(&dir.join("tiles.png"))?;
    // Token atlas: side shapes as signed distance functions, then the selection ring and target reticle.
    let (s3, corner) = (3f32.sqrt() / 2.0, 7.0);
    strip(&[
        token(|x, y| x.hypot(y) - 26.0),
        token(|x, y| {
            let (qx, qy) = (x.abs() - (25.0 - corner), y.abs() - (25.0 - corner));
            qx.max(0.0).hypot(qy.max(0.0)) + qx.max(qy).min(0.0) - corner // rounded square
        }),
        token(|x, y| (x.abs() + y.abs() - 29.0) * std::f32::consts::FRAC_1_SQRT_2), // diamond
        token(|x, y| x.abs().max((0.5 * x + s3 * y).abs()).max((0.5 * x - s3 * y).abs()) - 25.0), // pointy-top hexagon
        {
            let mut c = Canvas::new(C, C);
            c.shape(WHITE, |x, y| (26.5..30.5).contains(&(x - 32.0).hypot(y - 32.0)));
            c
        },
        reticle(),
    ])
    .save(&dir.join("tokens.png"))?;
    icon().save(&dir.join("icon.png"))?;
    // Figure atlas: the order below *is* the atlas index (see the module docs).
    strip(&[
        warrior(),
        ranger(),
        rogue(),
        wizard(),
        priest(),
        templar(),
        troubadour(),
        goblin(false),
        goblin(true),
        hobgoblin(),
        kobold(),
        orc(false),
        orc(true),
        skeleton(),
        remains(),
        stunned(),
        bleeding(),
        dropped_weapon(),
    ])
    .save(&dir.join("figures.png"))?;
    Ok(())
}
