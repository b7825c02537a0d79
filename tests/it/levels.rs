//! Level files (format v1, docs/levels.md): the validator's messages on a corpus of broken
//! levels, every shipped level from file to a running headless match, serialization round trips,
//! and fuzzing that the checker never panics.

use doo::headless::HeadlessMatch;
use doo_rules::data::RuleData;
use doo_rules::level_file::{Level, check, load};
use doo_rules::rules::Dice;
use proptest::prelude::*;
use std::path::{Path, PathBuf};

/// The rule data, read once (the fuzz tests check hundreds of texts).
fn data() -> &'static RuleData {
    static DATA: std::sync::OnceLock<RuleData> = std::sync::OnceLock::new();
    DATA.get_or_init(RuleData::builtin)
}

fn root() -> &'static Path {
    crate::common::root()
}

/// The `.ron` files of a folder under the project root, sorted.
fn ron_files(dir: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
        .unwrap_or_else(|e| panic!("read {dir}: {e}"))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    v.sort();
    v
}

/// Messages may quote the absolute path of a missing template file ("(no /…/assets/monsters/x.ron)");
/// the part before `assets/` depends on where the project is checked out, so it is cut on both sides.
fn normalize(line: &str) -> String {
    match (line.find("(no "), line.find("assets/monsters/")) {
        (Some(a), Some(b)) if a + 4 <= b => format!("{}<root>/{}", &line[..a + 4], &line[b..]),
        _ => line.to_string(),
    }
}

/// A valid level using most of the format (no monster templates, so it does not depend on
/// assets/monsters/): the seed text for the mutation fuzzer. Walls are `W` (custom legend) so the
/// text holds no `"#`, which would end the raw string.
const FUZZ_BASE: &str = r#"// Fuzz seed: two floors, a custom legend, a stairs link, sides and goals.
Level(
    version: 1,
    name: "Fuzz seed",
    briefing: "Two floors.",
    profile: "DOO-2017",
    options: (run_penalty: flat3),
    legend: { 'W': wall, 'r': difficult, 'D': door_closed },
    floors: [
        [
            "WWWWWWWWWW",
            "W....r...W",
            "W.O..D..>W",
            "W........W",
            "WWWWWWWWWW",
        ],
        [
            "WWWWW",
            "W..<W",
            "W...W",
            "WWWWW",
        ],
    ],
    floor_names: ["Cellar", "Loft"],
    stairs: [(from: (8, 2), to: (3, 1, 1))],
    sides: [
        (id: "heroes", name: "The Heroes", control: human, player: "Ann"),
        (id: "monsters", control: ai),
    ],
    characters: [
        (id: "lunk", name: "Lunk", side: "heroes", pos: (1, 1),
         stats: (brawn: 9, finesse: 7, savvy: 5, nerve: 6),
         skills: { "axes": journeyman }, weapon: "broad_axe", armor: "leather",
         items: ["potion_of_healing"], sprite: "sprites/lunk.png"),
        (id: "gob", side: "monsters", pos: (2, 2, 1), size: small,
         stats: (brawn: 5, finesse: 7, savvy: 5, nerve: 4),
         weapon: "dagger", mook: true, behaviour: "coward"),
    ],
    victory: [
        (side: "heroes", goal: Defeat("gob")),
        (side: "heroes", goal: ReachExit([(1, 2, 1)])),
        (side: "monsters", goal: SurviveTurns(5)),
        (side: "monsters", goal: Rout("heroes")),
    ],
)
"#;

// (a) Snapshot: each broken level in tests/levels/bad/ gives exactly the lines of its
// `.expected` file, as `doo validate` prints them (`file:line:col: message`).
#[test]
fn bad_levels_report_expected_errors() {
    let data = RuleData::builtin();
    let files = ron_files("tests/levels/bad");
    assert!(files.len() >= 14, "the corpus has {} files", files.len());
    let mut failures = Vec::new();
    for p in &files {
        let rel = p.strip_prefix(root()).unwrap().display().to_string();
        let expected_path = p.with_extension("expected");
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_else(|e| panic!("{}: {e}", expected_path.display()));
        let errors = match load(p, &data, root()) {
            Ok(_) => panic!("{rel} validates, but it is meant to be broken"),
            Err(es) => es,
        };
        let got: Vec<String> = errors.iter().map(|e| normalize(&format!("{rel}:{}:{}: {}", e.line, e.col, e.message))).collect();
        let want: Vec<String> = expected.lines().map(normalize).collect();
        if got != want {
            failures.push(format!("{rel}\n  expected:\n    {}\n  got:\n    {}", want.join("\n    "), got.join("\n    ")));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

// (b) Every shipped level validates, builds a match, and opens in the headless app waiting
// for the first command.
#[test]
fn shipped_levels_validate_build_and_open() {
    let data = RuleData::builtin();
    let files = ron_files("levels");
    assert!(!files.is_empty(), "no levels/*.ron");
    for p in &files {
        let checked = load(p, &data, root()).unwrap_or_else(|es| {
            let lines: Vec<String> = es.iter().map(|e| format!("{}:{}:{}: {}", p.display(), e.line, e.col, e.message)).collect();
            panic!("{}", lines.join("\n"))
        });
        let m = checked.build(&data).unwrap_or_else(|es| panic!("{}: {}", p.display(), es.join("; ")));
        let hm = HeadlessMatch::new(m, Dice::seeded(1), false);
        assert!(hm.status().awaiting, "{}: the match does not wait for a command after the opening reset", p.display());
    }
}

// (c) Round trip: parse → RON pretty-print → parse gives the same `Level`, for every shipped
// level and the fuzz seed (so saving a level from an editor loses nothing).
#[test]
fn levels_round_trip_through_ron() {
    let mut texts: Vec<(String, String)> = ron_files("levels").into_iter().map(|p| (p.display().to_string(), std::fs::read_to_string(&p).unwrap())).collect();
    texts.push(("FUZZ_BASE".into(), FUZZ_BASE.into()));
    for (name, text) in texts {
        let level: Level = doo_rules::data::parse_ron(&name, &text).unwrap_or_else(|e| panic!("{e}"));
        let out = ron::ser::to_string_pretty(&level, ron::ser::PrettyConfig::default()).unwrap_or_else(|e| panic!("{name}: serialize: {e}"));
        let again: Level = doo_rules::data::parse_ron(&name, &out).unwrap_or_else(|e| panic!("{name}: re-reading the serialized level: {e}\n{out}"));
        assert_eq!(level, again, "{name}: the level changed on the round trip\n{out}");
    }
}

// The fuzz seed itself is a valid level, so mutations start from something that passes.
#[test]
fn fuzz_seed_is_valid() {
    let data = RuleData::builtin();
    if let Err(es) = check("fuzz.ron", FUZZ_BASE, &data, root()) {
        panic!("{es:?}");
    }
}

/// A '>' on floor 255 once overflowed a u8 in `Board::from_rows`; now many floors are reported.
#[test]
fn stairs_up_on_floor_255_do_not_panic() {
    let data = RuleData::builtin();
    let mut floors: Vec<&str> = vec![r#"["."]"#; 255];
    floors.push(r#"[">"]"#);
    let text = format!(
        "Level(version: 1, name: \"x\", floors: [{}], characters: [(id: \"a\", side: \"a\", pos: (0, 0), stats: (brawn: 5, finesse: 5, savvy: 5, nerve: 5)), (id: \"b\", side: \"b\", pos: (0, 0, 1), stats: (brawn: 5, finesse: 5, savvy: 5, nerve: 5))])",
        floors.join(",")
    );
    let errs = check("many.ron", &text, &data, root()).expect_err("too many floors");
    assert!(errs.iter().any(|e| e.message.contains("the most is")), "{errs:?}");
}

#[derive(Clone, Debug)]
enum Edit {
    Replace(usize, char),
    Delete(usize),
    Insert(usize, char),
}

/// Characters that matter to RON and to the map: delimiters, quotes, digits, legend symbols.
fn edit_char() -> impl Strategy<Value = char> {
    prop_oneof![
        3 => proptest::sample::select(vec!['(', ')', '[', ']', '{', '}', ',', ':', '"', '\'', '/', '\\', '.', '#', '>', '<', 'L', 'O', '~', '_', '+', '-', '0', '1', '9', ' ', '\n', 'é', '×']),
        1 => any::<char>(),
    ]
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), edit_char()).prop_map(|(i, c)| Edit::Replace(i, c)),
        any::<usize>().prop_map(Edit::Delete),
        (any::<usize>(), edit_char()).prop_map(|(i, c)| Edit::Insert(i, c)),
    ]
}

fn apply(text: &str, e: &Edit) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    match *e {
        Edit::Replace(i, c) => {
            let i = i % chars.len();
            chars[i] = c;
        }
        Edit::Delete(i) => {
            let i = i % chars.len();
            chars.remove(i);
        }
        Edit::Insert(i, c) => {
            let i = i % (chars.len() + 1);
            chars.insert(i, c);
        }
    }
    chars.into_iter().collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    // (d) Fuzz: arbitrary text never makes the checker panic (it returns errors instead).
    #[test]
    fn check_never_panics_on_arbitrary_text(text in any::<String>()) {
        let _ = check("fuzz.ron", &text, data(), root());
    }

    // (d) Fuzz: a valid level with one character replaced, deleted or inserted never makes the
    // checker panic; every error it reports has a line and column of at least 1.
    #[test]
    fn check_never_panics_on_mutated_level(e in edit()) {
        let text = apply(FUZZ_BASE, &e);
        if let Err(es) = check("fuzz.ron", &text, data(), root()) {
            for x in es {
                prop_assert!(x.line >= 1 && x.col >= 1, "{x:?}");
            }
        }
    }
}

/// Field names inside comments (line or block) do not attract error positions.
#[test]
fn positions_ignore_comments() {
    let data = RuleData::builtin();
    let text = "// version: characters: sides: victory:\n/* version: 9 */\nLevel(\n    version: 2,\n    name: \"x\",\n    floors: [[\"..\"]],\n    characters: [\n        (id: \"a\", side: \"a\", pos: (0, 0), stats: (brawn: 5, finesse: 5, savvy: 5, nerve: 5)),\n        (id: \"b\", side: \"b\", pos: (1, 0), stats: (brawn: 5, finesse: 5, savvy: 5, nerve: 5)),\n    ],\n)\n";
    let errs = check("c.ron", text, &data, root()).expect_err("version 2");
    assert_eq!((errs[0].line, errs[0].col), (4, 5), "{errs:?}");
}
