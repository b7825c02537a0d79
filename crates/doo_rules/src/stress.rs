//! Hostile inputs at the caps, built in memory for the tests and the speed bench (issue 44):
//! a save of `save::caps::COMMANDS` commands on a small level whose level events give items
//! after every command, the worst a shared save can ask of `doo replay --verify` and Load.

use crate::data::{RuleData, level_hash};
use crate::level_file::CheckedLevel;
use crate::replay::{Origin, Replay};
use crate::rules::Command;
use crate::save::{self, Save, Seat};

/// Items each figure of `greedy_level` carries from the start: the most a figure may carry
/// once `give` is capped (`MAX_CARRIED`, issue 44), so that every state hash reads that many.
pub const CARRIED: usize = 256;

/// A one-fight level of two figures that pass forever, each carrying `CARRIED` items after the
/// first turns (64 from the level, the rest given by an event at each of turns 1 to 24): every
/// heroes' pass fires a repeating level event that gives each figure 8 more items (16 `give`s,
/// the most actions an event has), every monsters' pass one that takes them back (16 `take`s).
/// Each command so brings 16 notes to the log, and each turn's state hash reads every item.
pub fn greedy_level() -> String {
    let each = |verb: &str| -> String {
        (0..16).map(|i| format!(r#"{verb}(figure: "{}", item: "potion_of_healing")"#, if i % 2 == 0 { "h" } else { "m" })).collect::<Vec<_>>().join(", ")
    };
    let map = ["#######", "#.....#", "#.....#", "#######"].map(|r| format!("{r:?}")).join(", ");
    // a level's figure carries at most 64 items; the first turns' events give the rest
    let items = vec!["\"potion_of_healing\""; 64].join(", ");
    let hoard: String = (1..=(CARRIED - 64) / 8).map(|t| format!("(id: \"hoard{t}\", when: turn({t}), then: [{}]),\n", each("give"))).collect();
    let stats = format!("stats: (brawn: 8, finesse: 7, savvy: 5, nerve: 6), items: [{items}]");
    format!(
        "Level(version: 1, name: \"greedy\", floors: [[{map}]], characters: [
(id: \"h\", side: \"heroes\", pos: (1, 1), {stats}),
(id: \"m\", side: \"monsters\", pos: (5, 2), {stats}),
], events: [
{hoard}(id: \"gift\", when: acted(what: pass, who: side(\"heroes\")), repeat: true, then: [{}]),
(id: \"toll\", when: acted(what: pass, who: side(\"monsters\")), repeat: true, then: [{}]),
])",
        each("give"),
        each("take")
    )
}

/// `greedy_level` checked, and a save of `n` commands on it (each a pass by the figure whose
/// opportunity it is, as the game would record them), its checkpoints those the game writes
/// (each turn's, and `saved:` at the end). The save's level path is `level.ron`.
pub fn greedy_save(data: &RuleData, n: usize) -> (CheckedLevel, Save) {
    let text = greedy_level();
    let root = std::path::Path::new(".");
    let level = crate::level_file::check("level.ron", &text, data, root).unwrap_or_else(|e| panic!("the greedy level: {e:?}"));
    let seats = ["heroes", "monsters"].iter().map(|s| Seat { side: s.to_string(), player: String::new(), ai: None }).collect();
    let mut save = save::header_of("level.ron".into(), &text, &level, 1, seats, false);
    save.level_hash = level_hash(&text);
    let origin = Origin::of_save(data, &save, &level).expect("the greedy match");
    let mut r = Replay::start_streaming(&origin);
    for _ in 0..n {
        let actor = r.m.clock.current.map_or_else(|| "h".to_string(), |i| r.m.fighters[i].id.clone());
        let c = Command::Pass { actor };
        let _ = r.push(&c);
        save.commands.push(c);
    }
    save.checkpoints = r.checkpoints.clone();
    save.turn = r.m.clock.turn;
    crate::replay::seal(&mut save, &r.m, &r.dice);
    (level, save)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::{Keep, open_keeping};

    #[test] // issue 44: a save of thousands of commands whose events give and take items verifies in streaming mode, which keeps nothing per command (the bench plays the full 25 000 commands)
    fn a_greedy_save_verifies_keeping_nothing_per_command() {
        let data = RuleData::builtin();
        let n = if cfg!(debug_assertions) { 2_000 } else { save::caps::COMMANDS };
        let (level, s) = greedy_save(&data, n);
        assert_eq!(s.commands.len(), n);
        // read back from its text, as a shared save is
        let s = save::parse("greedy.ron", &s.to_text()).expect("the save reads back");
        let origin = Origin::of_save(&data, &s, &level).unwrap();
        let opened = open_keeping(&origin, &s, Keep::Checkpoints).unwrap();
        assert_eq!(opened.problem, None);
        assert_eq!(opened.good, n);
        let r = &opened.replay;
        assert_eq!(r.played, n);
        assert!(r.log.is_empty(), "no log, so no copy of the commands (kept in its verdicts)");
        assert!(r.refusals.len() <= r.checkpoints.len() + 1, "at most one refusal kept per checkpoint");
        // at the cap after a heroes' pass, 8 under it after a monsters' (MAX_CARRIED: a gift past
        // the cap is stopped whole, issue 44)
        let carried = r.m.fighters[0].loadout.items.len();
        assert!((CARRIED - 8..=CARRIED).contains(&carried), "the figures carry about the most items: {carried}");
        assert!(s.checkpoints.len() > n / 4, "a checkpoint every turn: {}", s.checkpoints.len());
        // the same save, one command changed: told where it parts, from the streaming replay
        let mut bad = s.clone();
        bad.commands[n / 2] = Command::Pass { actor: "nobody".into() };
        let opened = open_keeping(&origin, &bad, Keep::Checkpoints).unwrap();
        let problem = opened.problem.expect("a changed command is found");
        assert!(problem.contains(&format!("command {} was refused", n / 2 + 1)), "{problem}");
        assert_eq!(opened.good, n / 2);
        assert_eq!(opened.replay.played, n / 2, "the match where the save parts");
    }
}
