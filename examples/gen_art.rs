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
    Ok(())
}
