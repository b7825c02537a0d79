//! Where a segment meets a unit square (the geometry under line of sight, `grid`): a leaf of
//! plain arithmetic.

pub(crate) enum Clip {
    /// A piece of positive length lies strictly inside the square.
    Inside,
    /// A piece runs along the edge towards the neighbour (dx, dy).
    Edge(i32, i32),
}

/// Liang–Barsky clip of segment a→b to the closed unit square at (sx, sy).
pub(crate) fn clip_to_square(a: (f64, f64), b: (f64, f64), sx: f64, sy: f64) -> Option<Clip> {
    const EPS: f64 = 1e-9;
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (p, q) in [(-dx, a.0 - sx), (dx, sx + 1.0 - a.0), (-dy, a.1 - sy), (dy, sy + 1.0 - a.1)] {
        if p.abs() < EPS {
            if q < -EPS {
                return None;
            }
        } else {
            let r = q / p;
            if p < 0.0 { t0 = t0.max(r) } else { t1 = t1.min(r) }
        }
    }
    if t1 - t0 <= EPS {
        return None;
    }
    let tm = (t0 + t1) / 2.0;
    let (mx, my) = (a.0 + dx * tm, a.1 + dy * tm);
    let inside_x = mx > sx + EPS && mx < sx + 1.0 - EPS;
    let inside_y = my > sy + EPS && my < sy + 1.0 - EPS;
    match (inside_x, inside_y) {
        (true, true) => Some(Clip::Inside),
        (true, false) => Some(Clip::Edge(0, if my <= sy + EPS { -1 } else { 1 })),
        (false, true) => Some(Clip::Edge(if mx <= sx + EPS { -1 } else { 1 }, 0)),
        _ => None,
    }
}

#[cfg(test)]
pub(crate) fn segment_enters_square(a: (f64, f64), b: (f64, f64), sx: f64, sy: f64) -> bool {
    matches!(clip_to_square(a, b, sx, sy), Some(Clip::Inside))
}
