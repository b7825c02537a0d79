//! A match's turn limit (issue 44): the Pit of Pillars (levels/arena.ron), seed 30, is a
//! stalemate of two normal AIs that never close in; `doo simulate` stops it after turn 40
//! (`ladder::MAX_TURNS`), but a networked match had no end. With a turn limit (a level's
//! `turn_limit`, or a match option: the network host's, the bench's) the rules end it as a draw
//! once the limit's turn is over, and the limit is part of the match's state: a peer that
//! rebuilds the match from the host's header (the level, the seed, the limit, as the network
//! welcome and the save carry them) and replays the host's commands reaches the same draw with
//! the same checkpoints; one that left the limit out does not.
//!
//! No rule of RULES.md sets a turn limit: it is a match option, like the ladder's and
//! `doo simulate`'s cap (G-15 ends a match only when a side has nobody able to act).

use doo_rules::ai::{AiConfig, Difficulty, PlanCache, next_command};
use doo_rules::data::RuleData;
use doo_rules::level_file::CheckedLevel;
use doo_rules::replay::{Origin, Replay, verify};
use doo_rules::rules::{Command, Dice, Event};
use std::path::Path;

const SEED: u64 = 30;
const LEVEL: &str = "levels/arena.ron";

fn root() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn arena(data: &RuleData) -> (CheckedLevel, String) {
    let path = root().join(LEVEL);
    let text = std::fs::read_to_string(&path).unwrap();
    let level = doo_rules::level_file::check(LEVEL, &text, data, &root()).unwrap_or_else(|e| panic!("{e:?}"));
    (level, text)
}

/// The level played by two normal AIs (as `doo simulate` and the ladder seat them) until the
/// match is over or turn `until` has begun: every command pushed through the one flow, with the
/// checkpoints the game records. A command the rules refuse ends its figure's opportunity, as
/// the game's AI does.
fn play(data: &RuleData, level: &CheckedLevel, until: u32) -> Replay {
    let sides = level.side_ids().map(|s| (s.to_string(), Difficulty::Normal)).collect();
    let cfg = AiConfig::for_level(level.side_ids(), &level.behaviours, &level.level.victory, Difficulty::Normal, &sides, SEED, data.ai.clone());
    let origin = Origin::new(level.build(data).unwrap(), Dice::seeded(SEED));
    let mut r = Replay::start(&origin);
    let mut plan: PlanCache = None;
    while !r.over && r.m.clock.turn < until {
        assert!(r.played < 20_000, "stuck at turn {}", r.m.clock.turn);
        let Some(next) = next_command(&r.m, &cfg, &mut plan) else { panic!("nobody decides at turn {}", r.m.clock.turn) };
        if r.push(&next.command).is_err() {
            plan = None;
            let _ = r.push(&Command::End { actor: r.m.fighters[next.actor].id.clone() });
        }
    }
    r
}

fn draws(r: &Replay) -> Vec<&Event> {
    r.log
        .iter()
        .filter_map(|e| match e {
            doo_rules::replay::LogEntry::Event { event: ev @ Event::CrisisOver { .. }, .. } => Some(ev),
            _ => None,
        })
        .collect()
}

#[test] // issue 44 (a match option, no rule id): arena seed 30 is drawn at its turn limit, and a peer replaying the host's commands under the same header reaches the same draw
fn a_stalemate_is_drawn_at_the_turn_limit_on_host_and_client_alike() {
    let data = RuleData::builtin();
    let (plain, text) = arena(&data);
    assert_eq!(plain.level.turn_limit, None, "the shipped arena sets no limit (the bench's is a match option)");
    let limit = doo_rules::ladder::MAX_TURNS;

    // Without a limit the stalemate plays on past the ladder's and simulate's cap: nobody wins.
    let endless = play(&data, &plain, limit + 2);
    assert!(!endless.over && endless.m.clock.turn > limit + 1, "seed {SEED} is still going at turn {} (else this test proves nothing)", endless.m.clock.turn);

    // The host: the same match under the limit ends, a draw, when turn 40 is over.
    let mut limited = plain.clone();
    limited.level.turn_limit = Some(limit);
    let host = play(&data, &limited, u32::MAX);
    assert!(host.over, "the match is over");
    assert_eq!(host.m.clock.turn, limit, "at the end of turn {limit}");
    let outcome = host.outcome.clone().expect("an outcome");
    assert_eq!(outcome.winner, None, "a draw: {outcome:?}");
    assert_eq!(outcome.reason, format!("the turn limit ({limit} turns) is reached: a draw"));
    assert!(matches!(draws(&host)[..], [Event::CrisisOver { winner: None, goal: None, .. }]), "one CrisisOver, nobody's: {:?}", draws(&host));
    // The same commands as the match without a limit up to the limit: the limit ends the game,
    // it changes no roll nor decision before.
    let (ours, theirs): (Vec<_>, Vec<_>) = (host.commands().collect(), endless.commands().collect());
    assert!(theirs.len() > ours.len());
    assert_eq!(ours[..], theirs[..ours.len()]);
    let end = host.checkpoints.last().expect("checkpoints");
    assert!(end.hash.starts_with(doo_rules::replay::END), "the end checkpoint: {end:?}");
    // Commands after the end are refused (R-TURN-17: the crisis is over).
    let mut after = host.clone();
    assert!(after.push(theirs[ours.len()]).is_err());

    // The host's header, as its autosave and its welcome carry it: level, seed, limit.
    let seats = plain.side_ids().map(|s| doo_rules::save::Seat { side: s.to_string(), player: String::new(), ai: Some(Difficulty::Normal) }).collect();
    let mut save = doo_rules::save::header_of(LEVEL.into(), &text, &limited, SEED, seats, true);
    assert_eq!(save.turn_limit, Some(limit));
    save.commands = host.commands().cloned().collect();
    save.checkpoints = host.checkpoints.clone();
    let save = doo_rules::save::parse("host.ron", &save.to_text()).expect("the save reads back");
    assert_eq!(save.turn_limit, Some(limit), "the limit is written and read");

    // A client: the level as the file has it (no limit), the match option from the header.
    let origin = Origin::of_save(&data, &save, &plain).unwrap();
    assert_eq!(origin.m.turn_limit, Some(limit));
    let client = Replay::run(&origin, &save.commands);
    assert!(client.over);
    assert_eq!(client.outcome, host.outcome, "the same draw");
    assert_eq!(client.hash(), host.hash(), "the same final state");
    assert!(verify(&save, &client).is_ok_and(|n| n > 2), "every checkpoint the same: {:?}", verify(&save, &client));

    // A peer that left the limit out parts from the host at the first checkpoint (a desync),
    // and its match is not over.
    let deaf = Replay::run(&Origin::new(plain.build(&data).unwrap(), Dice::seeded(SEED)), &save.commands);
    assert!(!deaf.over);
    assert!(verify(&save, &deaf).is_err());
}

#[test] // issue 44: a turn limit is 1 to MAX_TURN_LIMIT turns; 0 is refused at load, with its key's place
fn a_turn_limit_of_zero_is_refused() {
    let data = RuleData::builtin();
    let (_, text) = arena(&data);
    let with = |n: &str| text.replacen("name:", &format!("turn_limit: {n},\n    name:"), 1);
    let ok = doo_rules::level_file::check(LEVEL, &with("40"), &data, &root()).expect("a limit of 40 turns");
    assert_eq!(ok.level.turn_limit, Some(40));
    assert_eq!(ok.build(&data).unwrap().turn_limit, Some(40), "the level's limit is the match's");
    for bad in ["0", &(doo_rules::level_file::MAX_TURN_LIMIT + 1).to_string()] {
        let errs = doo_rules::level_file::check(LEVEL, &with(bad), &data, &root()).expect_err(bad);
        assert!(errs.iter().any(|e| e.message.contains(&format!("a turn limit of {bad}")) && e.line > 0), "{errs:?}");
    }
}
