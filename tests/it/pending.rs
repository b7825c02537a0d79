//! Saves taken while a window waits for an answer (issue 27): a DoO reflex window, a DoO
//! response window, an A4 attack-of-opportunity prompt, an A4 held strike, the moment after a
//! crisis reset (the recovery choice of the next turn open), and a crawl order. Each is a real
//! save file on a shipped level, written as the window's autosave writes it (`record::seal`),
//! so it opens through the window's own path (`MatchSetup::resume_file`, `load::resume_match`).
//!
//! `pending_saves(dir)` writes them and returns `(kind, file)`: the window tests open each prompt
//! kind from them. `pending_matches(dir)` also hands back the live match each was taken from,
//! which plays on.

use doo::game::ai::AiControl;
use doo::game::record::{MatchRecord, ai_plan};
use doo::headless::HeadlessMatch;
use doo_rules::data::RuleData;
use doo_rules::rules::state::{Match, Window};
use doo_rules::rules::{Command, Dice};
use std::path::{Path, PathBuf};

/// The kinds of pending window, in the order `pending_saves` returns them.
pub const KINDS: [&str; 6] = ["doo_reflex", "doo_response", "a4_aoo", "a4_held", "reset", "crawl_order"];

fn root() -> &'static Path {
    crate::common::root()
}

/// A save taken at a pending window, and the match it was taken from (which plays on).
pub struct Pending {
    pub kind: &'static str,
    pub path: PathBuf,
    pub save: doo_rules::save::Save,
    pub live: HeadlessMatch,
    /// The command that follows in the live match: the AI's answer, or the human's (scripted).
    pub next: Command,
}

/// Writes one save per pending-window kind into `dir`: `(kind, file)`.
pub fn pending_saves(dir: &Path) -> Vec<(&'static str, PathBuf)> {
    pending_matches(dir).into_iter().map(|p| (p.kind, p.path)).collect()
}

/// `pending_saves`, with the live matches.
pub fn pending_matches(dir: &Path) -> Vec<Pending> {
    std::fs::create_dir_all(dir).unwrap();
    let data = RuleData::load(root()).unwrap();
    let mut out = Vec::new();
    for kind in KINDS {
        let p = match kind {
            "doo_reflex" => by_ai(&data, dir, kind, "levels/skirmish.ron", None, |m, _| window(m) == Some(Window::Reflex)),
            "doo_response" => by_ai(&data, dir, kind, "levels/skirmish.ron", None, |m, _| window(m) == Some(Window::Response)),
            "a4_aoo" => a4_tutorial(&data, dir, kind, false),
            "a4_held" => a4_tutorial(&data, dir, kind, true),
            "reset" => by_ai(&data, dir, kind, "levels/arena.ron", None, just_reset),
            "crawl_order" => by_ai(&data, dir, kind, "levels/sunken_vault.ron", None, |m, hm| {
                doo_rules::rules::explore::exploring(m)
                    && hm.app.world().resource::<MatchRecord>().commands.len() >= 3
                    && m.explore.as_deref().is_some_and(|x| x.acted.iter().any(|a| *a != doo_rules::rules::explore::Acted::No))
            }),
            _ => unreachable!(),
        };
        out.push(p.unwrap_or_else(|e| panic!("{kind}: {e}")));
    }
    out
}

fn window(m: &Match) -> Option<Window> {
    if m.a4.is_some() {
        return None;
    }
    m.pending.as_ref().and_then(|p| p.window)
}

fn a4_task(m: &Match) -> Option<&doo_rules::rules::a4::Task> {
    m.a4.as_deref().and_then(|x| x.tasks.front()).filter(|_| m.pending.as_ref().is_some_and(|p| p.window.is_some()))
}

/// A reset has just run (turn 2 or later) and nobody has acted since.
fn just_reset(m: &Match, hm: &HeadlessMatch) -> bool {
    if m.clock.turn < 2 || m.a4.is_some() {
        return false;
    }
    let lines = hm.lines();
    let last = |f: &dyn Fn(&serde_json::Value) -> bool| lines.iter().rposition(|l| f(l));
    let reset = last(&|l| l.get("event").and_then(|e| e.as_str()) == Some("reset_step"));
    let command = last(&|l| l.get("type").and_then(|e| e.as_str()) == Some("command"));
    matches!((reset, command), (Some(r), Some(c)) if r > c)
}

fn settled(hm: &HeadlessMatch) -> bool {
    let w = hm.app.world();
    doo::game::record::settled(
        w.resource::<doo::game::flow::FlowStatus>(),
        w.resource::<doo::game::pipeline::CommandQueue>(),
        w.resource::<doo::game::pipeline::CheckedCommand>(),
    )
}

/// A recorded match of `level` (under `profile` if given), the AI on the sides in `ai_sides`
/// (every side when `None`).
fn recorded(data: &RuleData, level: &str, profile: Option<&str>, seed: u64, ai_sides: Option<&[&str]>) -> (HeadlessMatch, doo_rules::level_file::CheckedLevel) {
    let path = root().join(level);
    let mut checked = doo_rules::level_file::load(&path, data, root()).unwrap();
    if let Some(p) = profile {
        checked.level.profile = Some(p.to_string()); // as the level-select screen's R does
    }
    let ai = |side: &str| ai_sides.is_none_or(|s| s.contains(&side));
    let seats = checked
        .sides
        .iter()
        .map(|s| doo_rules::save::Seat {
            side: s.id.clone(),
            player: if ai(&s.id) { String::new() } else { "You".into() },
            ai: ai(&s.id).then_some(doo_rules::ai::Difficulty::Normal),
        })
        .collect();
    let header = doo_rules::save::save_header(&path, &checked, seed, seats, ai_sides.is_none()).unwrap();
    let m = checked.build(data).unwrap();
    let mut hm = HeadlessMatch::recorded(m, Dice::seeded(seed), false, Some(header));
    let mut cfg = doo_rules::ai::AiConfig::for_level(
        checked.side_ids(),
        &checked.behaviours,
        &checked.level.victory,
        doo_rules::ai::Difficulty::Normal,
        &Default::default(),
        seed,
        data.ai.clone(),
    );
    cfg.sides.retain(|s, _| ai(s));
    hm.app.world_mut().insert_resource(AiControl { config: cfg, pace_secs: 0.0, waited: 0.0, plan: None, remote: Default::default() });
    (hm, checked)
}

/// The save of `hm` now, as the autosave writes it, written to `dir/<kind>.ron`.
fn write(hm: &HeadlessMatch, dir: &Path, kind: &str) -> (PathBuf, doo_rules::save::Save) {
    let w = hm.app.world();
    let mut save = w.resource::<MatchRecord>().to_save(hm.snapshot_turn(), ai_plan(w.get_resource::<AiControl>())).unwrap();
    doo::game::record::seal(&mut save, hm.state(), &w.resource::<doo::game::components::MatchDice>().0);
    save.label = format!("pending: {kind}");
    let path = dir.join(format!("{kind}.ron"));
    doo_rules::data::write_atomic(&path, &save.to_text()).unwrap();
    (path, save)
}

/// The command the live match plays next: the AI's, or `fallback` (a human's) when the AI
/// sends none.
fn next_command(hm: &mut HeadlessMatch, fallback: impl Fn(&Match) -> Command) -> Command {
    let n = hm.app.world().resource::<MatchRecord>().commands.len();
    for _ in 0..400 {
        hm.app.update();
        let cmds = &hm.app.world().resource::<MatchRecord>().commands;
        if cmds.len() > n {
            let c = cmds[n].clone();
            // that command only: the AI waits while it settles
            let ai = hm.app.world_mut().remove_resource::<AiControl>();
            hm.settle();
            if let Some(ai) = ai {
                hm.app.world_mut().insert_resource(ai);
            }
            return c;
        }
    }
    let c = fallback(hm.state());
    assert!(hm.submit(c.clone()), "the scripted next command settles");
    c
}

/// AI against AI on `level`, seeds 1.., one command at a time, until `stop` holds in the match
/// settled before the AI's next command (the AI is held back while the flow settles: a reset
/// runs and the AI would answer in the same frame).
fn by_ai(
    data: &RuleData,
    dir: &Path,
    kind: &'static str,
    level: &str,
    profile: Option<&str>,
    stop: impl Fn(&Match, &HeadlessMatch) -> bool,
) -> Result<Pending, String> {
    for seed in 1..=6u64 {
        let (mut hm, _) = recorded(data, level, profile, seed, None);
        for _ in 0..3_000 {
            let ai = hm.app.world_mut().remove_resource::<AiControl>().unwrap();
            hm.settle();
            let hit = !hm.status().over && stop(hm.state(), &hm);
            hm.app.world_mut().insert_resource(ai);
            if hm.status().over {
                break;
            }
            if hit {
                let (path, save) = write(&hm, dir, kind);
                let next =
                    next_command(&mut hm, |m| Command::Decline { actor: m.pending.as_ref().map(|p| m.fighters[p.defender].id.clone()).unwrap_or_default() });
                return Ok(Pending { kind, path, save, live: hm, next });
            }
            let n = hm.app.world().resource::<MatchRecord>().commands.len();
            for _ in 0..2_000 {
                hm.app.update();
                if hm.app.world().resource::<MatchRecord>().commands.len() > n || hm.status().over {
                    break;
                }
            }
        }
    }
    Err(format!("no seed of {level} reached the window"))
}

/// The tutorial under A4 as the level-select screen plays it (R until A4): Lunk human, the
/// goblin AI. Lunk waits for the goblin; `hold`: Lunk holds his action for an enemy entering
/// his reach (the held-strike prompt opens for him); else, once the goblin stands next to him,
/// Lunk moves away (the goblin's attack-of-opportunity prompt opens: issue 27's crash 3).
fn a4_tutorial(data: &RuleData, dir: &Path, kind: &'static str, hold: bool) -> Result<Pending, String> {
    for seed in 1..=12u64 {
        let (mut hm, _) = recorded(data, "levels/tutorial.ron", Some("A4"), seed, Some(&["monsters"]));
        let mut tried = 0;
        for _ in 0..3_000 {
            // the match settled before the AI's next command (it would answer in the same frame)
            let ai = hm.app.world_mut().remove_resource::<AiControl>().unwrap();
            hm.settle();
            hm.app.world_mut().insert_resource(ai);
            if hm.status().over {
                break;
            }
            let m = hm.state();
            match a4_task(m) {
                Some(doo_rules::rules::a4::Task::OfferAoo { .. }) if !hold => {
                    let (path, save) = write(&hm, dir, kind);
                    let next = next_command(&mut hm, |m| Command::Decline { actor: m.fighters[m.pending.as_ref().unwrap().defender].id.clone() });
                    return Ok(Pending { kind, path, save, live: hm, next });
                }
                Some(doo_rules::rules::a4::Task::OfferHeld { who, .. }) if hold => {
                    let who = m.fighters[*who].id.clone();
                    let (path, save) = write(&hm, dir, kind);
                    let next = Command::Reflex { actor: who, reflex: doo_rules::rules::a4::acts::HELD.to_string() };
                    assert!(hm.submit(next.clone()));
                    return Ok(Pending { kind, path, save, live: hm, next });
                }
                _ => {}
            }
            let lunk = m.index("lunk").unwrap();
            let goblin = m.index("goblin").unwrap();
            let window_for = m.pending.as_ref().filter(|p| p.window.is_some()).map(|p| p.defender);
            let text = if window_for == Some(lunk) {
                // Lunk's reactive defence and the like: declined, as a player may
                Some(r#"decline(actor: "lunk")"#.to_string())
            } else if m.clock.current == Some(lunk) && window_for.is_none() {
                let (lp, gp) = (m.fighters[lunk].pos, m.fighters[goblin].pos);
                let adjacent = (lp.x - gp.x).abs() <= 1 && (lp.y - gp.y).abs() <= 1 && lp.floor == gp.floor;
                let refused = hm.lines().iter().rev().find(|l| l["type"] == "command").is_some_and(|l| l["result"] == "rejected");
                Some(if hold && !refused {
                    r#"round(actor: "lunk", act: hold(trigger: enemy_enters_reach))"#.to_string()
                } else if !hold && adjacent && tried < 8 {
                    // a square next to Lunk, away from the goblin
                    let away: Vec<(i32, i32)> = [(-1, 0), (-1, -1), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 1), (1, 0)]
                        .iter()
                        .map(|(dx, dy)| (lp.x + dx, lp.y + dy))
                        .filter(|(x, y)| (x - gp.x).abs() > 1 || (y - gp.y).abs() > 1)
                        .collect();
                    let (x, y) = away.get(tried % away.len().max(1)).copied().unwrap_or((lp.x, lp.y));
                    tried += 1;
                    format!(r#"round(actor: "lunk", act: move(path: [({x}, {y})]))"#)
                } else {
                    r#"round(actor: "lunk", act: end_turn)"#.to_string()
                })
            } else {
                None
            };
            let n = hm.app.world().resource::<MatchRecord>().commands.len();
            match text {
                Some(t) => {
                    hm.app.world_mut().write_message(doo::game::pipeline::IssueCommand(crate::common::cmd(&t)));
                }
                None => {}
            }
            for _ in 0..2_000 {
                hm.app.update();
                if hm.app.world().resource::<MatchRecord>().commands.len() > n || hm.status().over {
                    break;
                }
            }
        }
    }
    Err("the A4 tutorial never reached the prompt".into())
}
