//! Level events of issue 46: conditions, variables, the new triggers and actions, `one_of`
//! drawn from the match's dice, and their caps, played in the plain flow (`rules::driver`).

use doo_rules::data::RuleData;
use doo_rules::level_file::{self, CheckedLevel, LevelError};
use doo_rules::rules::command::Command;
use doo_rules::rules::dice::Dice;
use doo_rules::rules::driver;
use doo_rules::rules::event::Event;
use doo_rules::rules::state::Match;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn check(text: &str) -> Result<CheckedLevel, Vec<LevelError>> {
    level_file::check("t.ron", text, &RuleData::builtin(), &root())
}

fn bells() -> String {
    std::fs::read_to_string(root().join("tests/levels/events/bells.ron")).unwrap()
}

fn started(text: &str, seed: u64) -> (Match, Dice, Vec<Event>) {
    let data = RuleData::builtin();
    let mut m = check(text).expect("valid").build(&data).expect("match");
    let mut dice = Dice::seeded(seed);
    let mut ev = Vec::new();
    driver::open(&mut m, &mut dice, &mut ev);
    (m, dice, ev)
}

#[test]
fn debug_bells() {
    let (mut m, mut dice, mut ev) = started(&bells(), 1);
    for _ in 0..3 {
        for who in ["lunk", "goblin"] {
            let _ = driver::submit(&mut m, &mut dice, &Command::End { actor: who.into() }, &mut ev);
        }
    }
    for e in &ev {
        eprintln!("{}", serde_json::to_string(e).unwrap());
    }
    panic!();
}
