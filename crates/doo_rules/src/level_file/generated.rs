//! Generated levels for benches and stress tests: a big room with many swordsmen.

/// A `w`×`h` map: walls around, a pillar every 9 spaces, some difficult ground.
fn generated_rows(w: usize, h: usize) -> Vec<String> {
    (0..h)
        .map(|y| {
            (0..w)
                .map(|x| {
                    if x == 0 || y == 0 || x == w - 1 || y == h - 1 {
                        '#'
                    } else if x % 9 == 0 && y % 9 == 0 {
                        'O'
                    } else if (x + 2 * y) % 23 == 0 {
                        '~'
                    } else {
                        '.'
                    }
                })
                .collect()
        })
        .collect()
}

/// A generated level's text for benches and stress tests: a `w`×`h` room (walls around, a
/// pillar every 9 spaces, some difficult ground) with `n` swordsmen on two sides, spread out.
pub fn generated(w: usize, h: usize, n: usize) -> String {
    let chars: Vec<String> = (0..n)
        .map(|i| {
            let side = if i % 2 == 0 { "heroes" } else { "monsters" };
            let cols = (w - 2) / 2;
            let (x, y) = (1 + (i % cols) * 2, 1 + (i / cols) * 2);
            format!(
                r#"(id: "c{i}", side: "{side}", pos: ({x}, {y}), stats: (brawn: 8, finesse: 7, savvy: 5, nerve: 6), weapon: "broadsword", skills: {{"swords": journeyman}})"#
            )
        })
        .collect();
    let map: Vec<String> = generated_rows(w, h).iter().map(|r| format!("{r:?}")).collect();
    format!("Level(version: 1, name: \"bench\", floors: [[\n{}\n]], characters: [\n{}\n])", map.join(",\n"), chars.join(",\n"))
}
