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

/// A crawl at the level events' caps (issue 44), for the speed bench and tests: a `side`×`side`
/// floor (`side` at least 160), the hero at (3, 2) west of a closed door at (4, 2), 64 closed
/// doors in a wall at y = 10 (x = 6, 8, …), an orc walled in at the south. With `events`, 64
/// goblins wait in four encounters of 16 (`arrives: true`), and 32 events fire when the door at
/// (4, 2) opens: one reveals the whole floor to the heroes (four quarters: `MAX_REVEALED` spaces),
/// four spawn the goblins (`MAX_SPAWNED`), four give the hero 16 potions each (`MAX_GIVEN`), four
/// open 16 doors each (`MAX_DOORS`), and 19 more reveal the whole floor again: each of those is
/// stopped by the budget. Without `events`, the same map and command with no events nor goblins.
pub fn generated_events(side: usize, events: bool) -> String {
    let side = side.max(160);
    let (door, wall_y, south) = ((4, 2), 10, side - 21);
    let rows: Vec<String> = (0..side)
        .map(|y| {
            (0..side)
                .map(|x| {
                    if x == 0 || y == 0 || x == side - 1 || y == side - 1 || y == south {
                        '#'
                    } else if (x, y) == door {
                        '+'
                    } else if x == 4 && y < south {
                        '#'
                    } else if y == wall_y && x > 4 {
                        if x >= 6 && x < 6 + 2 * 64 && x % 2 == 0 { '+' } else { '#' }
                    } else {
                        '.'
                    }
                })
                .collect()
        })
        .collect();
    let map: Vec<String> = rows.iter().map(|r| format!("{r:?}")).collect();
    let stats = "stats: (brawn: 8, finesse: 7, savvy: 5, nerve: 6)";
    let mut chars = vec![
        format!(r#"(id: "hero", name: "Hero", side: "heroes", pos: (3, 2), {stats}, weapon: "broadsword", skills: {{"swords": journeyman}})"#),
        format!(r#"(template: "orc", id: "orc", side: "monsters", pos: (2, {}))"#, side - 3),
    ];
    let mut encounters = vec![r#"(id: "orcs", members: ["orc"])"#.to_string()];
    let mut evs = Vec::new();
    for b in (0..4).filter(|_| events) {
        let ids: Vec<String> = (0..16).map(|i| format!("g{}", b * 16 + i)).collect();
        for (i, id) in ids.iter().enumerate() {
            chars.push(format!(r#"(template: "goblin", id: "{id}", side: "monsters", pos: ({}, {}))"#, 10 + b * 20 + i, side - 10));
        }
        let members: Vec<String> = ids.iter().map(|i| format!("{i:?}")).collect();
        encounters.push(format!(r#"(id: "band{b}", members: [{}], arrives: true)"#, members.join(", ")));
    }
    if events {
        let h = side / 2;
        let quarters: Vec<String> = [(0, 0), (h, 0), (0, h), (h, h)]
            .iter()
            .map(|&(x, y)| format!(r#"reveal(area: (from: ({x}, {y}), to: ({}, {})), side: "heroes")"#, (x + h - 1).min(side - 1), (y + h - 1).min(side - 1)))
            .collect();
        let when = format!("door_opens(at: ({}, {}))", door.0, door.1);
        let mut event = |id: String, then: Vec<String>| evs.push(format!("(id: \"{id}\", when: {when}, then: [{}])", then.join(", ")));
        event("reveal0".into(), quarters.clone());
        for b in 0..4 {
            event(format!("spawn{b}"), vec![format!(r#"spawn("band{b}")"#)]);
        }
        for g in 0..4 {
            event(format!("give{g}"), vec![r#"give(figure: "hero", item: "potion_of_healing")"#.to_string(); 16]);
        }
        for d in 0..4 {
            event(format!("doors{d}"), (0..16).map(|i| format!("door(at: ({}, {wall_y}), state: open)", 6 + 2 * (d * 16 + i))).collect());
        }
        for r in 1..20 {
            event(format!("reveal{r}"), quarters.clone());
        }
    }
    format!(
        "Level(version: 1, name: \"events at the caps\", mode: exploration,\nsides: [(id: \"heroes\", control: human), (id: \"monsters\", control: ai)],\nfloors: [[\n{}\n]],\ncharacters: [\n{}\n],\nencounters: [{}],\nvictory: [(side: \"heroes\", goal: ReachExit([({}, 1)]))],\nevents: [\n{}\n])",
        map.join(",\n"),
        chars.join(",\n"),
        encounters.join(", "),
        side - 2,
        evs.join(",\n")
    )
}
