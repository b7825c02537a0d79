//! Speed of the rules (issue 15), each figure printed beside a baseline measured in the same run
//! on the same input, since machines here are shared and noisy. `cargo bench -p doo_rules
//! --bench speed` (release). Prints a Markdown table; exits non-zero when a goal is missed.
//!
//! - one click: every reachable space with its price and path (`preview::destinations`) on a
//!   128×128 level with 60 figures, beside a bare breadth-first search of the same grid;
//! - `validate` of a 256×256 level with 500 characters and of a level at the caps, beside
//!   parsing the same text alone;
//! - replaying a 1 000-command match the way every save is replayed (`doo_rules::replay`: the
//!   one flow, with the log and the checkpoints, version 2's state hash), beside the bare driver
//!   loop over the same commands (`DOO_BENCH_ONLY=replay` runs this row alone,
//!   `DOO_BENCH_REPLAY_RUNS` sets its runs);
//! - sight at scale (issue 44, R-EXP-19): a crawl of one open 1 024×1 024 room at the caps
//!   built and started (the first reveal of every side, the sightings, the crisis they begin),
//!   beside a bare flood fill of the same floor; and one step's fog update (`reveal_path`) in a
//!   256×256 open crawl with 60 figures, the side's map already revealed and cleared first
//!   (every space searched again), beside a bare flood fill of that floor.
//!   `DOO_BENCH_ONLY=sight` runs these rows alone.
//! - the worst command at the level events' caps (issue 44): a door opening on a 1 024×1 024
//!   crawl that fires 32 events revealing, spawning, giving and opening doors at their caps,
//!   beside the same door opening on the same map without events. `DOO_BENCH_ONLY=doors` runs
//!   these rows alone.
//! - verifying a hostile save at the command cap (`doo_rules::stress::greedy_save`, issue 44),
//!   with the process's peak memory, beside the bare driver loop over the same commands.

use doo_rules::ai::{AiConfig, Difficulty};
use doo_rules::data::RuleData;
use doo_rules::level_file::{self, Level};
use doo_rules::rules::command::Command;
use doo_rules::rules::dice::Dice;
use doo_rules::rules::grid::Pos;
use doo_rules::rules::state::Match;
use doo_rules::rules::{driver, preview};
use std::collections::{BTreeMap, VecDeque};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// The median of `n` timed runs of `f`.
fn median<T>(n: usize, mut f: impl FnMut() -> T) -> Duration {
    let mut t: Vec<Duration> = (0..n)
        .map(|_| {
            let s = Instant::now();
            black_box(f());
            s.elapsed()
        })
        .collect();
    t.sort();
    t[n / 2]
}

/// The CPU time this thread has had so far (Linux's `/proc/thread-self/schedstat`); zero
/// elsewhere. The kernel brings it up to date at its ticks only, so one run's difference is
/// coarse; over many runs back to back the sum is exact to a tick.
fn thread_cpu() -> Duration {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .map_or(Duration::ZERO, Duration::from_nanos)
}

/// The median wall time of `n` timed runs of `f`, and their mean CPU time (`thread_cpu`): on a
/// shared machine it says what a run costs better than the wall clock.
fn median_cpu<T>(n: usize, mut f: impl FnMut() -> T) -> (Duration, Duration) {
    let start = thread_cpu();
    let mut wall: Vec<Duration> = (0..n)
        .map(|_| {
            let s = Instant::now();
            black_box(f());
            s.elapsed()
        })
        .collect();
    let cpu = thread_cpu().saturating_sub(start) / n as u32;
    wall.sort();
    (wall[n / 2], cpu)
}

/// The process's peak resident memory so far (VmHWM, Linux), in KB; 0 elsewhere.
fn vm_hwm_kb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("VmHWM:")).and_then(|l| l.split_whitespace().nth(1)?.parse().ok()))
        .unwrap_or(0)
}

fn ms(d: Duration) -> String {
    format!("{:.3} ms", d.as_secs_f64() * 1e3)
}

/// A bare 8-neighbour breadth-first search of every walkable space from `start`.
fn bare_bfs(m: &Match, start: Pos) -> usize {
    let f = &m.board.floors[0];
    let (w, h) = (f.width as i32, f.height as i32);
    let mut seen = vec![false; (w * h) as usize];
    let mut q = VecDeque::from([start]);
    seen[(start.y * w + start.x) as usize] = true;
    let mut n = 0;
    while let Some(p) = q.pop_front() {
        n += 1;
        for dy in -1..=1 {
            for dx in -1..=1 {
                let (x, y) = (p.x + dx, p.y + dy);
                if (dx, dy) != (0, 0) && x >= 0 && y >= 0 && x < w && y < h && !seen[(y * w + x) as usize] && m.board.walkable(Pos::on(x, y, 0)) {
                    seen[(y * w + x) as usize] = true;
                    q.push_back(Pos::on(x, y, 0));
                }
            }
        }
    }
    n
}

/// A crawl (`mode: exploration`) of one open `side`×`side` room, walls around: `n` figures, the
/// heroes from the top left corner, the monsters from the bottom right, three spaces apart.
fn open_crawl(side: usize, n: usize) -> String {
    let map: Vec<String> =
        (0..side).map(|y| if y == 0 || y == side - 1 { "#".repeat(side) } else { format!("#{}#", ".".repeat(side - 2)) }).map(|r| format!("{r:?}")).collect();
    let chars: Vec<String> = (0..n)
        .map(|i| {
            let (k, hero) = (i / 2, i % 2 == 0);
            let (dx, dy) = (2 + 3 * (k % 10), 2 + 3 * (k / 10));
            let (x, y, who) = if hero { (dx, dy, "heroes") } else { (side - 1 - dx, side - 1 - dy, "monsters") };
            format!(r#"(id: "c{i}", side: "{who}", pos: ({x}, {y}), stats: (brawn: 8, finesse: 7, savvy: 5, nerve: 6))"#)
        })
        .collect();
    format!(
        "Level(version: 1, name: \"open crawl\", mode: exploration, floors: [[\n{}\n]], characters: [\n{}\n], victory: [(side: \"heroes\", goal: ReachExit([(1, 1)]))])",
        map.join(",\n"),
        chars.join(",\n")
    )
}

/// Opens the match's first action phase, as the game does.
fn start(m: &mut Match, dice: &mut Dice) {
    driver::open(m, dice, &mut Vec::new());
}

/// Sends one command down the rules' path; false when the crisis is over.
fn send(m: &mut Match, dice: &mut Dice, c: &Command, ev: &mut Vec<doo_rules::rules::event::Event>) -> bool {
    driver::submit(m, dice, c, ev).unwrap_or(true)
}

/// Issue 44 (R-EXP-19): a crawl at the caps started; one step's fog update at 256×256.
/// `DOO_BENCH_CRAWL_SIDE` sets the first row's side (to time the former code on a smaller room).
fn sight(data: &RuleData, root: &std::path::Path, table: &mut Vec<String>, missed: &mut Vec<&'static str>) {
    let side: usize = std::env::var("DOO_BENCH_CRAWL_SIDE").ok().and_then(|v| v.parse().ok()).unwrap_or(1024);
    // `DOO_BENCH_SIGHT_RUNS` sets every row's runs (1 to time the former code at all).
    let runs = |n: usize| std::env::var("DOO_BENCH_SIGHT_RUNS").ok().and_then(|v| v.parse().ok()).unwrap_or(n);
    let text = open_crawl(side, 6);
    let level = level_file::check("bench.ron", &text, data, root).expect("crawl at the caps");
    let mut revealed = 0;
    let started = median(runs(5), || {
        let mut m = level.build(data).expect("match");
        let (mut dice, mut ev) = (Dice::seeded(1), Vec::new());
        driver::start(&mut m, &mut dice, driver::Start::Fresh, &mut ev);
        revealed =
            ev.iter().filter_map(|e| if let doo_rules::rules::event::Event::Revealed { spaces, .. } = e { Some(*spaces) } else { None }).max().unwrap_or(0);
        m
    });
    let m = level.build(data).expect("match");
    let fill = median(runs(5), || bare_bfs(&m, m.fighters[0].pos));
    let ratio = started.as_secs_f64() / fill.as_secs_f64();
    table.push(format!(
        "| crawl built and started, one open {side}×{side} room (6 figures; first reveal {revealed} spaces, sightings, crisis) | {} | {} (bare flood fill of the floor) | {ratio:.2}× | ≤ 1000 ms |",
        ms(started),
        ms(fill)
    ));
    if started > Duration::from_secs(1) {
        missed.push("crawl start at the caps");
    }

    // One step's fog update, 256×256, 60 figures.
    let text = open_crawl(256, 60);
    let level = level_file::check("bench.ron", &text, data, root).expect("256 crawl");
    let mut m = level.build(data).expect("match");
    let (mut dice, mut ev) = (Dice::seeded(1), Vec::new());
    driver::start(&mut m, &mut dice, driver::Start::Fresh, &mut ev);
    let a = 0; // a hero at (2, 2): a step to (3, 3) and back where he stands
    let step = [Pos::new(3, 3)];
    let side = m.fighters[a].side.clone();
    let warm = median(runs(101), || {
        ev.clear();
        doo_rules::rules::explore::reveal_path(&mut m, a, &step, &mut ev);
    });
    let mut fresh = 0;
    let cold = median(runs(31), || {
        if let Some(x) = m.explore.as_deref_mut() {
            x.fog.0.remove(&side);
        }
        ev.clear();
        doo_rules::rules::explore::reveal_path(&mut m, a, &step, &mut ev);
        fresh = ev.iter().filter_map(|e| if let doo_rules::rules::event::Event::Revealed { spaces, .. } = e { Some(*spaces) } else { None }).sum::<u32>();
    });
    let fill = median(runs(101), || bare_bfs(&m, m.fighters[a].pos));
    // The goal is the move's (the area around already revealed, as after the first reveal);
    // the cold row, every space of an open floor searched anew, is shown for information.
    for (what, t, goal) in [("the side's map already revealed", warm, true), ("the side's map cleared first: every space searched again", cold, false)] {
        let ratio = t.as_secs_f64() / fill.as_secs_f64();
        table.push(format!(
            "| one step's fog update (`reveal_path`), open 256×256 crawl, 60 figures, {what}{} | {} | {} (bare flood fill of the floor) | {ratio:.2}× | {} |",
            if goal { String::new() } else { format!("; {fresh} spaces revealed") },
            ms(t),
            ms(fill),
            if goal { "≤ 2 ms" } else { "— (information)" }
        ));
        if goal && t > Duration::from_millis(2) {
            missed.push("fog update at 256×256");
        }
    }
}

/// Issue 44: the worst command at the level events' caps, beside the same door command on the
/// same map without events. `DOO_BENCH_ONLY=doors` runs these rows alone.
fn doors(data: &RuleData, root: &std::path::Path, table: &mut Vec<String>, missed: &mut Vec<&'static str>) {
    // Issue 44: the worst command at the level events' caps, beside the same command on the
    // same map without events. Each run opens the door on a fresh copy of the started match.
    let door = |events: bool| {
        let text = level_file::generated_events(1024, events);
        let level = level_file::check("bench.ron", &text, data, root).expect("events level");
        let mut m = level.build(data).expect("match");
        let mut dice = Dice::seeded(5);
        start(&mut m, &mut dice);
        let cmd = Command::Door { actor: "hero".into(), at: Pos::new(4, 2), open: true };
        // `DOO_BENCH_DOOR_RUNS` sets the timed door openings (many, to profile them).
        let n = std::env::var("DOO_BENCH_DOOR_RUNS").ok().and_then(|v| v.parse().ok()).unwrap_or(5);
        let mut runs: Vec<Duration> = (0..n)
            .map(|_| {
                let (mut m, mut dice, mut ev) = (m.clone(), dice.clone(), Vec::new());
                let t = Instant::now();
                driver::submit(&mut m, &mut dice, &cmd, &mut ev).expect("the door opens");
                let took = t.elapsed();
                black_box((&m, &ev));
                took
            })
            .collect();
        runs.sort();
        // The events' own work: `fire` alone, on the door's opening as the rules tell it.
        let fire = median(7, || {
            let (mut m, mut dice) = (m.clone(), dice.clone());
            let mut ev = vec![doo_rules::rules::event::Event::DoorChanged { actor: "hero".into(), at: Pos::new(4, 2), state: "open".into() }];
            let t = Instant::now();
            let (mut cursor, mut spent) = (0, Default::default());
            doo_rules::rules::level_events::fire(&mut m, &mut dice, doo_rules::rules::turn::Flow::Exploring, &mut ev, &mut cursor, &mut spent);
            let took = t.elapsed();
            black_box((&m, &ev));
            took
        });
        (runs[runs.len() / 2], fire)
    };
    let ((worst, fire), (plain, _)) = (door(true), door(false));
    let caps = format!(
        "1 024×1 024; {} spaces revealed, {} figures spawned, {} items given, {} doors set, 19 events stopped",
        doo_rules::rules::level_events::MAX_REVEALED,
        doo_rules::rules::level_events::MAX_SPAWNED,
        doo_rules::rules::level_events::MAX_GIVEN,
        doo_rules::rules::level_events::MAX_DOORS
    );
    // What the budget bounds: the events' own work for that door.
    table.push(format!(
        "| level events at the caps (issue 44): their own work for one door opening, `level_events::fire` on it ({caps}) | {} | {} (the same door, no events) | {:.2}× | ≤ 50 ms |",
        ms(fire),
        ms(plain),
        fire.as_secs_f64() / plain.as_secs_f64()
    ));
    if fire > Duration::from_millis(50) {
        missed.push("level events' work at the caps");
    }
    // The whole command: the door's own sight work (line of sight over the floor it opens onto)
    // included.
    table.push(format!(
        "| level events at the caps (issue 44): the whole door command firing them | {} | {} (the same door, no events) | {:.2}× | ≤ 50 ms |",
        ms(worst),
        ms(plain),
        worst.as_secs_f64() / plain.as_secs_f64()
    ));
    if worst > Duration::from_millis(50) {
        missed.push("the door command at the events' caps");
    }
}

/// A 1 000-command match: recorded from AI-vs-AI play, then replayed through the rules
/// (`DOO_BENCH_ONLY=replay` runs this row alone). Returns the games and the level's text.
fn replay(data: &RuleData, root: &std::path::Path, table: &mut Vec<String>, missed: &mut Vec<&'static str>) -> (Vec<(u64, Vec<Command>)>, String) {
    // `DOO_BENCH_REPLAY_RUNS` sets the timed runs (many, to profile the replay).
    let runs = std::env::var("DOO_BENCH_REPLAY_RUNS").ok().and_then(|v| v.parse().ok()).unwrap_or(11);
    // A 1 000-command match: recorded from AI-vs-AI play, then replayed through the rules.
    let (rw, rh, rn) = (80, 50, 120);
    let text = level_file::generated(rw, rh, rn);
    let level = level_file::check("bench.ron", &text, data, root).expect("bench level");
    let sides = BTreeMap::from([("heroes".to_string(), Difficulty::Normal), ("monsters".to_string(), Difficulty::Normal)]);
    let cfg = AiConfig::for_level(level.side_ids(), &level.behaviours, &level.level.victory, Difficulty::Normal, &sides, 7, data.ai.clone());
    let mut commands = Vec::new();
    let mut think = Duration::ZERO;
    let mut seed = 7;
    let mut recorded = 0;
    while recorded < 1000 {
        // a match that ends early is followed by another, recorded with its own seed
        let mut m = level.build(data).expect("match");
        let mut dice = Dice::seeded(seed);
        start(&mut m, &mut dice);
        let mut ev = Vec::new();
        let mut game = Vec::new();
        while game.len() < 1000 - recorded {
            let Some(a) = doo_rules::ai::who_decides(&m, &cfg) else { break };
            let t = Instant::now();
            let c = doo_rules::ai::decide(&m, a, &cfg);
            think += t.elapsed();
            game.push(c.clone());
            ev.clear();
            if !send(&mut m, &mut dice, &c, &mut ev) {
                break;
            }
        }
        recorded += game.len();
        commands.push((seed, game));
        seed += 1;
    }
    let total: usize = commands.iter().map(|(_, g)| g.len()).sum();
    // The one replay every save takes (`doo_rules::replay`: the driver, with the log and the
    // checkpoints the game records), from the match as built.
    let origins: Vec<_> = commands.iter().map(|(seed, _)| doo_rules::replay::Origin::new(level.build(data).expect("match"), Dice::seeded(*seed))).collect();
    let (replay, replay_cpu) = median_cpu(runs, || {
        for (o, (_, game)) in origins.iter().zip(&commands) {
            std::hint::black_box(doo_rules::replay::Replay::run(o, game));
        }
    });
    let (bare, bare_cpu) = median_cpu(runs, || {
        for (o, (_, game)) in origins.iter().zip(&commands) {
            let (mut m, mut dice, mut over, mut ev) = (o.m.clone(), o.dice.clone(), false, Vec::new());
            driver::start(&mut m, &mut dice, driver::Start::Fresh, &mut ev);
            for c in game {
                ev.clear();
                let _ = driver::step(&mut m, &mut dice, &mut over, c, &mut ev);
            }
            std::hint::black_box(&m);
        }
    });
    let hashes = median(runs, || {
        for o in &origins {
            std::hint::black_box(doo_rules::save::state_hash(&o.m, &o.dice));
        }
    });
    let hashes_v1 = median(runs, || {
        for o in &origins {
            std::hint::black_box(doo_rules::save::state_hash_v1(&o.m, &o.dice));
        }
    });
    let sample = doo_rules::replay::Replay::run(&origins[0], &commands[0].1);
    eprintln!(
        "mean CPU time: replay {}, bare driver loop {}; bare driver loop {}; one state hash {} (version 1's: {}); {} checkpoints, {} log entries; AI choosing them {}",
        ms(replay_cpu),
        ms(bare_cpu),
        ms(bare),
        ms(hashes),
        ms(hashes_v1),
        sample.checkpoints.len(),
        sample.log.len(),
        ms(think)
    );
    table.push(format!(
        "| replay of a {total}-command match, `doo_rules::replay` (log, checkpoints with the version-2 state hash; {} game{}, {rw}×{rh}, {rn} figures) | {} | {} (bare driver loop, same commands) | {:.2}× | ≤ 5 ms |",
        commands.len(),
        if commands.len() == 1 { "" } else { "s" },
        ms(replay),
        ms(bare),
        replay.as_secs_f64() / bare.as_secs_f64()
    ));
    if replay > Duration::from_millis(5) {
        missed.push("replay");
    }
    (commands, text)
}

fn main() {
    let data = RuleData::builtin();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut table = vec!["| what | figure | baseline, same run | ratio | goal |".to_string(), "|---|---|---|---|---|".to_string()];
    let mut missed = Vec::new();
    let only = std::env::var("DOO_BENCH_ONLY").unwrap_or_default();
    if only == "replay" || only == "doors" {
        if only == "replay" {
            replay(&data, &root, &mut table, &mut missed);
        } else {
            doors(&data, &root, &mut table, &mut missed);
        }
        println!("{}", table.join("\n"));
        if !missed.is_empty() {
            eprintln!("goals missed: {}", missed.join(", "));
            std::process::exit(1);
        }
        return;
    }
    sight(&data, &root, &mut table, &mut missed);
    if only == "sight" {
        println!("{}", table.join("\n"));
        if !missed.is_empty() {
            eprintln!("goals missed: {}", missed.join(", "));
            std::process::exit(1);
        }
        return;
    }

    // A hostile save at the command cap (issue 44): 25 000 commands on a small level whose level
    // events give and take items after every command (`doo_rules::stress::greedy_save`), read
    // from its text and verified as `doo replay --verify` does (streaming: no log), beside the
    // bare driver loop over the same commands. Peak memory is the process's (VmHWM), measured before the other rows run.
    let cap = doo_rules::save::caps::COMMANDS;
    let (glevel, gsave) = doo_rules::stress::greedy_save(&data, cap);
    let gtext = gsave.to_text();
    let hwm_before = vm_hwm_kb();
    let verify = median(3, || {
        let s = doo_rules::save::parse("greedy.ron", &gtext).expect("the greedy save reads");
        let o = doo_rules::replay::Origin::of_save(&data, &s, &glevel).expect("origin");
        let opened = doo_rules::replay::open_keeping(&o, &s, doo_rules::replay::Keep::Checkpoints).expect("opens");
        assert!(opened.problem.is_none(), "{:?}", opened.problem);
        opened.good
    });
    let hwm = vm_hwm_kb();
    let peak = hwm / 1024;
    let gorigin = doo_rules::replay::Origin::of_save(&data, &gsave, &glevel).expect("origin");
    let gbare = median(3, || {
        let (mut m, mut dice, mut over, mut ev) = (gorigin.m.clone(), gorigin.dice.clone(), false, Vec::new());
        driver::start(&mut m, &mut dice, driver::Start::Fresh, &mut ev);
        for c in &gsave.commands {
            ev.clear();
            let _ = driver::step(&mut m, &mut dice, &mut over, c, &mut ev);
        }
        std::hint::black_box(m.clock.turn)
    });
    eprintln!(
        "greedy save: {} KB of text, {} checkpoints; the process's peak resident memory {} MB before verifying, {} MB after",
        gtext.len() / 1024,
        gsave.checkpoints.len(),
        hwm_before / 1024,
        hwm / 1024
    );
    table.push(format!(
        "| verify a save at the command cap ({cap} commands, events giving and taking items, {} checkpoints; parse + replay + checkpoints, streaming), peak memory {peak} MB (the process's, VmHWM; measured first) | {} | {} (bare driver loop, same commands) | {:.2}× | ≤ 1 s, ≤ 256 MB |",
        gsave.checkpoints.len(),
        ms(verify),
        ms(gbare),
        verify.as_secs_f64() / gbare.as_secs_f64()
    ));
    if verify > Duration::from_secs(1) || peak > 256 {
        missed.push("verify at the cap");
    }

    // One click on a 128×128 level with 60 figures.
    let text = level_file::generated(128, 128, 60);
    let level = level_file::check("bench.ron", &text, &data, &root).expect("bench level");
    let mut m = level.build(&data).expect("match");
    let mut dice = Dice::seeded(1);
    start(&mut m, &mut dice);
    let a = m.clock.current.expect("an opportunity");
    let click = median(301, || {
        let d = preview::destinations(&m, a);
        d.keys().next_back().and_then(|p| d.get(p)).map(|d| d.path.len())
    });
    let bfs = median(301, || bare_bfs(&m, m.fighters[a].pos));
    let spaces = preview::destinations(&m, a).len();
    let ratio = click.as_secs_f64() / bfs.as_secs_f64();
    table.push(format!("| reachable spaces + path, one click (128×128, 60 figures; {spaces} spaces offered) | {} | {} (bare BFS, whole grid) | {ratio:.2}× | ≤ 0.5 ms and ≤ 3× |", ms(click), ms(bfs)));
    if click > Duration::from_micros(500) || ratio > 3.0 {
        missed.push("one click");
    }

    // validate: 256×256 with 500 characters, and a level at the caps.
    for (label, w, h, n, goal) in [("256×256, 500 characters", 256, 256, 500, 100u64), ("at the caps: 1024×1024, 10 000 characters", 1024, 1024, 10_000, 2000)]
    {
        let text = if n <= 500 {
            level_file::generated(w, h, n)
        } else {
            // 10 000 characters need 10 000 free spaces: a denser placement
            let chars: Vec<String> = (0..n)
                .map(|i| {
                    let side = if i % 2 == 0 { "heroes" } else { "monsters" };
                    format!(r#"(id: "c{i}", side: "{side}", pos: ({}, {}), stats: (brawn: 8, finesse: 7, savvy: 5, nerve: 6))"#, 1 + i % 1000, 1 + i / 1000)
                })
                .collect();
            let map: Vec<String> =
                (0..h).map(|y| if y == 0 || y == h - 1 { "#".repeat(w) } else { format!("#{}#", ".".repeat(w - 2)) }).map(|r| format!("{r:?}")).collect();
            format!("Level(version: 1, name: \"caps\", floors: [[\n{}\n]], characters: [\n{}\n])", map.join(",\n"), chars.join(",\n"))
        };
        let runs = if n <= 500 { 21 } else { 5 };
        let check = median(runs, || level_file::check("bench.ron", &text, &data, &root).expect("valid"));
        let parse = median(runs, || doo_rules::data::parse_ron::<Level>("bench.ron", &text).expect("parses"));
        let ratio = check.as_secs_f64() / parse.as_secs_f64();
        table.push(format!("| `validate`, {label} ({} KB) | {} | {} (parse only) | {ratio:.2}× | ≤ {goal} ms |", text.len() / 1024, ms(check), ms(parse)));
        if check > Duration::from_millis(goal) {
            missed.push("validate");
        }
    }

    let (commands, text) = replay(&data, &root, &mut table, &mut missed);

    doors(&data, &root, &mut table, &mut missed);

    // The same match as a script, for timing the headless app (`doo run`) on it.
    if let Some(path) = std::env::var_os("DOO_REPLAY_SCRIPT") {
        let (seed, game) = &commands[0];
        let lv = level_file::check("bench.ron", &text, &data, &root).expect("bench level");
        let script = doo_rules::script::Script {
            name: "bench replay".into(),
            description: String::new(),
            level: None,
            map: None,
            floors: Some(lv.floors.clone()),
            characters: lv.characters.clone(),
            profile: None,
            options: Default::default(),
            seed: *seed,
            dice: Vec::new(),
            start: None,
            victory: lv.goals(),
            commands: game.clone(),
            expect: None,
            ai: None,
        };
        let text = ron::ser::to_string_pretty(&script, Default::default()).expect("script");
        std::fs::write(&path, text).expect("write the replay script");
    }
    println!("{}", table.join("\n"));
    if !missed.is_empty() {
        eprintln!("goals missed: {}", missed.join(", "));
        std::process::exit(1);
    }
}
