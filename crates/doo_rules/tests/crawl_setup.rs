//! What a crawl level sets up (issue 29): non-hostile NPCs left alone by the AI (R-CP-16), and
//! `simulate`'s AI still finishing such a level.

use doo_rules::ai::{self, AiConfig};
use doo_rules::data::RuleData;
use doo_rules::rules::dice::Dice;
use doo_rules::rules::driver::{self, Start};
use doo_rules::rules::event::Event;
use doo_rules::rules::state::Phase;
use std::path::Path;

/// R-CP-16, R-EXP-23, R-EXP-25: the AI plays every side of tests/levels/crawl/hermit.ron to the
/// end, over several seeds, every command accepted; the folk (a non-hostile side) never take
/// part in a crisis and are never attacked, though they stand in sight and the heroes fight the
/// orc beyond the door.
#[test]
fn the_ai_never_attacks_the_non_hostile_folk_and_finishes() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let data = RuleData::builtin();
    let level = doo_rules::level_file::load(&root.join("tests/levels/crawl/hermit.ron"), &data, &root).unwrap();
    let folk = ["hermit", "dog", "warden"];
    let mut crises = 0;
    for seed in 1..=8u64 {
        let mut m = level.build(&data).unwrap();
        let mut dice = Dice::seeded(seed);
        let mut ev = Vec::new();
        driver::start(&mut m, &mut dice, Start::Fresh, &mut ev);
        let cfg =
            AiConfig::for_level(level.side_ids(), &level.behaviours, &level.level.victory, Default::default(), &Default::default(), seed, data.ai.clone());
        for _ in 0..3000 {
            let Some(who) = ai::who_decides(&m, &cfg) else { break };
            let cmd = ai::decide(&m, who, &cfg);
            if let Err(v) = driver::submit(&mut m, &mut dice, &cmd, &mut ev) {
                panic!("seed {seed}: the AI's {cmd:?} was refused: {} {}", v.rule, v.reason);
            }
        }
        assert_eq!(m.clock.phase, Phase::Over, "seed {seed}: the AI did not finish the level");
        for e in &ev {
            match e {
                Event::CrisisBegins { participants, .. } => {
                    crises += 1;
                    assert!(participants.iter().all(|p| !folk.contains(&p.as_str())), "seed {seed}: the folk were drawn into a crisis: {participants:?}");
                }
                Event::AttackDeclared { target, .. } => assert!(!folk.contains(&target.as_str()), "seed {seed}: {target} was attacked"),
                _ => {}
            }
        }
    }
    assert!(crises > 0, "the heroes met the orc in no game: the folk were never tested in a crisis");
}

/// The hermit crawl (tests/levels/crawl/hermit.ron) started, with its dice and opening events.
fn hermit_started() -> (doo_rules::rules::state::Match, Dice, Vec<Event>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let data = RuleData::builtin();
    let level = doo_rules::level_file::load(&root.join("tests/levels/crawl/hermit.ron"), &data, &root).unwrap();
    let mut m = level.build(&data).unwrap();
    let mut dice = Dice::seeded(1);
    let mut ev = Vec::new();
    driver::start(&mut m, &mut dice, Start::Fresh, &mut ev);
    (m, dice, ev)
}

/// R-CP-16, R-EXP-24, R-EXP-27: an attack order on the hermit makes his encounter hostile for
/// the rest of the level: once the crisis is over (ended here as a level script would, R-EXP-27)
/// he is an inactive hostile, no longer spoken to or traded with, while the warden's encounter, never attacked,
/// still is.
#[test]
fn an_attacked_encounter_stays_hostile_after_the_crisis() {
    use doo_rules::rules::command::Command;
    use doo_rules::rules::explore::Task;
    use doo_rules::rules::grid::Pos;
    let (mut m, mut dice, mut ev) = hermit_started();
    let speak = |at: (i32, i32)| Command::Task { actor: "dara".into(), task: Task::Speak, at: Pos::new(at.0, at.1) };
    assert!(driver::validate(&m, false, &speak((6, 2))).is_ok(), "the hermit is non-hostile at first");
    let attack: Command = doo_rules::data::parse_ron("attack", r#"action(actor: "ed", action: "attack", target: Some("hermit"))"#).unwrap();
    driver::submit(&mut m, &mut dice, &attack, &mut ev).unwrap();
    assert!(ev.iter().any(|e| matches!(e, Event::CrisisBegins { .. })));
    doo_rules::rules::ruleset::resume(&mut m, &mut dice, &mut ev);
    assert_eq!(m.clock.phase, Phase::Exploration);
    assert_eq!(driver::validate(&m, false, &speak((6, 2))).unwrap_err().rule, "R-CP-16", "the hermit is hostile now");
    // R-CP-16: nor does he trade any more (Ed still carries the gemstone trade 0 asks for)
    let trade = Command::Trade { actor: "ed".into(), with: "hermit".into(), trade: 0 };
    let refused = driver::validate(&m, false, &trade).unwrap_err();
    assert_eq!(refused.rule, "R-CP-16");
    assert!(refused.reason.contains("turned hostile"), "{}", refused.reason);
    assert!(driver::validate(&m, false, &speak((9, 1))).is_ok(), "the warden's encounter was not attacked");
}

/// R-CP-16: the exploration bar offers each open trade of a non-hostile NPC the hero sees, with
/// the refusal when he cannot pay; a trade made once is offered no more, a repeating one still is.
#[test]
fn the_bar_offers_the_trades_of_an_npc_in_sight() {
    use doo_rules::rules::command::Command;
    use doo_rules::rules::explore::preview::choices;
    let (mut m, mut dice, mut ev) = hermit_started();
    let trades = |m: &doo_rules::rules::state::Match, hero: &str| -> Vec<(usize, Option<String>)> {
        let x = m.explore.as_deref().unwrap();
        let a = m.index(hero).unwrap();
        choices(m, x, a)
            .into_iter()
            .filter_map(|c| match c.template {
                Command::Trade { trade, .. } => Some((trade, c.refusal.map(|r| r.rule))),
                _ => None,
            })
            .collect()
    };
    assert_eq!(trades(&m, "ed"), vec![(0, None), (1, Some("R-CP-16".into()))], "Ed pays for the potion, not for a gemstone");
    let trade: Command = doo_rules::data::parse_ron("trade", r#"trade(actor: "ed", with: "hermit", trade: 0)"#).unwrap();
    driver::submit(&mut m, &mut dice, &trade, &mut ev).unwrap();
    let end: Command = doo_rules::data::parse_ron("end", r#"end_turn(actor: "dara")"#).unwrap();
    driver::submit(&mut m, &mut dice, &end, &mut ev).unwrap();
    assert!(ev.iter().any(|e| matches!(e, Event::Traded { actor, got, .. } if actor == "ed" && got == "potion_of_healing")));
    assert_eq!(trades(&m, "ed"), vec![(1, Some("R-CP-16".into()))], "trade 0 is made: once only");
}
