//! Hostile input (issue 15): levels and scripts built to break the reader — sizes past the caps,
//! numbers out of range, duplicates, encodings, files that are not files — each refused with a
//! clear `line:col` error and no panic; and the committed corpus under `tests/hostile/`, each
//! file's first output line compared with `tests/hostile/expected.txt`.

use doo_rules::data::{MAX_ERRORS, RuleData, read_text};
use doo_rules::level_file::{self, LevelError};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn check(text: &str) -> Result<level_file::CheckedLevel, Vec<LevelError>> {
    level_file::check("t.ron", text, &RuleData::builtin(), &root())
}

fn errors(text: &str) -> Vec<LevelError> {
    match check(text) {
        Ok(_) => panic!("the level was accepted"),
        Err(e) => e,
    }
}

/// A level with the given rows (one floor) and character entries.
fn level(rows: &[String], characters: &str) -> String {
    let rows: Vec<String> = rows.iter().map(|r| format!("{r:?}")).collect();
    format!("Level(version: 1, name: \"t\", floors: [[{}]], characters: [{characters}])", rows.join(",\n"))
}

const TWO: &str = r#"(id: "a", side: "heroes", pos: (1, 1), stats: (brawn: 8, finesse: 7, savvy: 5, nerve: 6)),
    (id: "b", side: "monsters", pos: (3, 1), stats: (brawn: 8, finesse: 7, savvy: 5, nerve: 6))"#;

fn room() -> Vec<String> {
    vec!["#####".into(), "#...#".into(), "#####".into()]
}

fn hero(extra: &str) -> String {
    format!(
        r#"(id: "a", side: "heroes", pos: (1, 1), stats: (brawn: 8, finesse: 7, savvy: 5, nerve: 6){extra}),
    (id: "b", side: "monsters", pos: (3, 1), stats: (brawn: 8, finesse: 7, savvy: 5, nerve: 6))"#
    )
}

#[test]
fn a_plain_level_is_accepted() {
    check(&level(&room(), TWO)).expect("valid");
}

#[test] // a UTF-8 byte-order mark (Windows editors) is accepted, in text and in files
fn byte_order_mark_is_accepted() {
    let text = format!("\u{feff}{}", level(&room(), TWO));
    check(&text).expect("a BOM is not an error");
    let dir = tempdir("bom");
    let p = dir.join("bom.ron");
    std::fs::write(&p, text.as_bytes()).unwrap();
    assert!(!read_text(&p, 1 << 20).unwrap().starts_with('\u{feff}'));
    level_file::load(&p, &RuleData::builtin(), &root()).expect("a BOM file loads");
}

#[test] // one very wide row and many empty rows: refused by size, nothing padded
fn wide_row_and_many_empty_rows() {
    let mut rows = vec![".".repeat(150_000)];
    rows.extend(std::iter::repeat_n(String::new(), 5_000));
    let e = errors(&level(&rows, TWO));
    assert!(e[0].message.contains("150000×5001") && e[0].message.contains("1024×1024"), "{e:?}");
    assert!(e.len() < 5, "one size error, not one per row: {e:?}");
}

#[test] // many floors: the count is checked before any floor is looked at
fn a_hundred_thousand_floors() {
    let floors = vec!["[\"..\"]"; 100_000].join(",");
    let text = format!("Level(version: 1, name: \"t\", floors: [{floors}], characters: [{TWO}])");
    let e = errors(&text);
    assert_eq!(e[0].message, "100000 floors; the most is 64");
    assert_eq!((e[0].line, e[0].col), (1, 30), "points at `floors`");
}

#[test] // too many characters: refused by count, no per-character work
fn twenty_thousand_characters() {
    let one = r#"(id: "x", side: "s", pos: (1, 1), stats: (brawn: 8, finesse: 7, savvy: 5, nerve: 6))"#;
    let chars = vec![one; 20_000].join(",\n");
    let e = errors(&level(&room(), &chars));
    assert_eq!(e.len(), 1, "{:?}", &e[..e.len().min(3)]);
    assert_eq!(e[0].message, "20000 characters; the most is 10000");
}

#[test] // a level exactly at the caps (one 1024×1024 floor, 10 000 characters) is valid
fn a_level_at_the_caps_is_valid() {
    let rows: Vec<String> = (0..1024).map(|_| ".".repeat(1024)).collect();
    let chars: Vec<String> = (0..10_000)
        .map(|i| {
            let side = if i % 2 == 0 { "heroes" } else { "monsters" };
            format!(r#"(id: "c{i}", side: "{side}", pos: ({}, {}), stats: (brawn: 8, finesse: 7, savvy: 5, nerve: 6))"#, i % 1000, i / 1000)
        })
        .collect();
    let c = check(&level(&rows, &chars.join(",\n"))).expect("at the caps is valid");
    assert_eq!(c.characters.len(), 10_000);
    // one space more is refused
    let mut wide = rows.clone();
    wide[0].push('.');
    for r in wide.iter_mut().skip(1) {
        r.push('.');
    }
    assert!(errors(&level(&wide, TWO))[0].message.contains("1025×1024"));
}

#[test] // a million bad characters print a page, not megabytes: the first MAX_ERRORS, then a count
fn error_output_is_capped() {
    let rows: Vec<String> = (0..1000).map(|_| "?".repeat(1000)).collect();
    let e = errors(&level(&rows, TWO));
    assert_eq!(e.len(), MAX_ERRORS + 1);
    assert!(e[0].message.starts_with("unknown map character '?'"), "{}", e[0].message);
    // a million bad characters, and both figures now stand on walls
    assert_eq!(e.last().unwrap().message, format!("… and {} more problems", 1_000_002 - MAX_ERRORS));
}

#[test] // many unreachable exits: one search per side, every exit reported
fn many_unreachable_exits() {
    let mut rows = vec!["#".repeat(300)];
    rows.push(format!("#...#{}#", ".".repeat(294)));
    rows.push("#".repeat(300));
    let exits: Vec<String> = (5..255).map(|x| format!("({x}, 1)")).collect();
    let text = level(&rows, TWO).replace("characters:", &format!("victory: [(side: \"heroes\", goal: ReachExit([{}]))], characters:", exits.join(",")));
    let e = errors(&text);
    assert!(e[0].message.contains("cannot be reached by any character of side 'heroes'"), "{e:?}");
    assert_eq!(e.len(), MAX_ERRORS + 1, "250 unreachable exits: capped list");
    let many: Vec<String> = (0..300).map(|x| format!("({}, 1)", x % 3 + 1)).collect();
    let text = level(&rows, TWO).replace("characters:", &format!("victory: [(side: \"heroes\", goal: ReachExit([{}]))], characters:", many.join(",")));
    assert_eq!(errors(&text)[0].message, "victory: 300 exit spaces; the most is 256");
}

#[test] // R-STAT-2: stats are 1 to 20; 0, 25 and u32::MAX are refused at the character
fn stats_out_of_range() {
    for (v, ok) in [(0u64, false), (1, true), (20, true), (21, false), (25, false), (4_294_967_295, false)] {
        let c = format!(
            r#"(id: "a", side: "heroes", pos: (1, 1), stats: (brawn: {v}, finesse: 7, savvy: 5, nerve: 6)),
            (id: "b", side: "monsters", pos: (3, 1), stats: (brawn: 8, finesse: 7, savvy: 5, nerve: 6))"#
        );
        match check(&level(&room(), &c)) {
            Ok(_) => assert!(ok, "brawn {v} accepted"),
            Err(e) => {
                assert!(!ok, "brawn {v} refused: {e:?}");
                assert_eq!(e[0].message, format!("character 'a': brawn {v} is out of range (1 to 20) (R-STAT-2)"));
                assert_eq!((e[0].line, e[0].col), (3, 25), "at the character's entry");
            }
        }
    }
    // over u32: a parse error at the number
    let e = errors(&level(&room(), &hero("").replacen("brawn: 8", "brawn: 4294967296", 1)));
    assert_eq!((e[0].line, e[0].message.as_str()), (3, "Integer is out of bounds"), "{e:?}");
}

#[test] // numbers with documented ranges: HP up to the maximum (R-STAT-3), the AP-roll bonus, free steps, ammo
fn numbers_out_of_range() {
    for (extra, msg) in [
        (", hp: 2147483647", "hp 2147483647 is out of range (-100 to 11)"),
        (", hp: -2147483648", "hp -2147483648 is out of range (-100 to 11)"),
        (", hp: 12", "hp 12 is out of range (-100 to 11)"),
        (", ap_roll_bonus: 2147483647", "ap_roll_bonus 2147483647 is out of range (-10 to 10)"),
        (", free_steps: 4000000000", "free_steps 4000000000 is out of range (0 to 10)"),
        (", ammo: 1000", "ammo 1000 is out of range (0 to 999)"),
    ] {
        let e = errors(&level(&room(), &hero(extra)));
        assert!(e[0].message.contains(msg), "{extra}: {e:?}");
    }
    for extra in [", hp: 11", ", hp: -100", ", ap_roll_bonus: -10", ", free_steps: 0", ", ammo: 999"] {
        check(&level(&room(), &hero(extra))).unwrap_or_else(|e| panic!("{extra}: {e:?}"));
    }
}

#[test] // a key written twice is an error at the second one, not a silent overwrite
fn duplicate_keys_are_errors() {
    let text = level(&room(), TWO).replace("characters:", "legend: {\n'x': floor,\n'x': wall}, characters:");
    let e = errors(&text);
    assert_eq!(e[0].message, "the key 'x' is written twice");
    assert_eq!(e[0].line, 5, "{e:?}");
    let e = errors(&level(&room(), &hero(r#", skills: {"axes": apprentice, "axes": master}"#)));
    assert_eq!(e[0].message, "the key 'axes' is written twice");
}

#[test] // ids and names have a maximum length; control characters are refused and never echoed
fn long_and_odd_ids() {
    let long = "x".repeat(100_000);
    let e = errors(&level(&room(), &TWO.replacen("id: \"a\"", &format!("id: \"{long}\""), 1)));
    assert!(e[0].message.contains("an id has at most 64 characters (this one has 100000)"), "{}", &e[0].message[..200.min(e[0].message.len())]);
    assert!(e.iter().all(|e| e.message.len() < 400), "the id is not echoed whole");
    let e = errors(&level(&room(), &TWO.replacen("id: \"a\"", "id: \"a\\nb\"", 1)));
    assert!(e[0].message.contains("an id cannot contain spaces, quotes or control characters"), "{e:?}");
    let e = errors(&level(&room(), TWO).replacen("name: \"t\"", &format!("name: \"{}\"", "n".repeat(300)), 1));
    assert_eq!(e[0].message, "the name has 300 characters; the most is 200");
}

#[test] // sprite paths stay inside assets/: no scheme, no absolute path, no '..', no backslash
fn sprite_paths() {
    for bad in ["http://evil/x.png", "embedded://x.png", "/abs/x.png", "../../x.png", "C:\\\\x.png", "c:x.png"] {
        let e = errors(&level(&room(), &hero(&format!(", sprite: \"{bad}\""))));
        assert!(e[0].message.contains("must be a relative path inside assets/"), "{bad}: {e:?}");
    }
    check(&level(&room(), &hero(", sprite: \"sprites/lunk.png\""))).expect("a plain relative path is fine");
}

#[test] // deep nesting is a parse error, not a stack overflow
fn deep_nesting() {
    let text = format!("Level(version: 1, name: \"t\", floors: {}", "[".repeat(100_000));
    let e = errors(&text);
    assert_eq!(e[0].line, 1);
}

fn tempdir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("doo-hostile-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test] // files that are not files: a directory, a link to /dev/zero, a named pipe, an oversize file
fn files_that_are_not_files() {
    let dir = tempdir("files");
    let data = RuleData::builtin();
    let first = |p: &Path| level_file::load(p, &data, &root()).err().expect("refused")[0].message.clone();
    let d = dir.join("dir.ron");
    std::fs::create_dir_all(&d).unwrap();
    assert_eq!(first(&d), "cannot read: a directory; give a .ron file");
    let z = dir.join("zero.ron");
    let _ = std::fs::remove_file(&z);
    std::os::unix::fs::symlink("/dev/zero", &z).unwrap();
    assert_eq!(first(&z), "cannot read: not a regular file (a device, pipe or socket); give a .ron file");
    let fifo = dir.join("pipe.ron");
    let _ = std::fs::remove_file(&fifo);
    let made = std::process::Command::new("mkfifo").arg(&fifo).status().map(|s| s.success()).unwrap_or(false);
    if made {
        // reading a pipe with no writer would block forever: it must not be opened at all
        assert_eq!(first(&fifo), "cannot read: not a regular file (a device, pipe or socket); give a .ron file");
    }
    let big = dir.join("big.ron");
    std::fs::write(&big, vec![b' '; (doo_rules::data::MAX_FILE_BYTES + 1) as usize]).unwrap();
    assert!(first(&big).contains("bytes; the most is 8388608"));
    let bin = dir.join("bin.ron");
    std::fs::write(&bin, b"Level(\n  name: \"\xff\xfe\"").unwrap();
    let e = level_file::load(&bin, &data, &root()).err().unwrap();
    assert_eq!((e[0].line, e[0].col, e[0].message.as_str()), (2, 10, "the file is not UTF-8 text"));
}

/// A crawl (`mode: exploration`) of one open `side`×`side` room (walls around): three heroes in
/// one corner, three monsters in the far one, the heroes' goal an exit beside them.
pub fn open_crawl(side: usize) -> String {
    let rows: Vec<String> = (0..side).map(|y| if y == 0 || y == side - 1 { "#".repeat(side) } else { format!("#{}#", ".".repeat(side - 2)) }).collect();
    let far = side as i32 - 2;
    let mut chars = Vec::new();
    for (k, (x, y)) in [(1, 1), (2, 1), (1, 2)].into_iter().enumerate() {
        chars.push(format!(r#"(id: "h{k}", side: "heroes", pos: ({x}, {y}), stats: (brawn: 8, finesse: 7, savvy: 5, nerve: 6))"#));
    }
    for (k, (x, y)) in [(far, far), (far - 1, far), (far, far - 1)].into_iter().enumerate() {
        chars.push(format!(r#"(id: "m{k}", side: "monsters", pos: ({x}, {y}), stats: (brawn: 8, finesse: 7, savvy: 5, nerve: 6))"#));
    }
    let rows: Vec<String> = rows.iter().map(|r| format!("{r:?}")).collect();
    format!(
        "Level(version: 1, name: \"open crawl\", mode: exploration, floors: [[{}]], characters: [{}], victory: [(side: \"heroes\", goal: ReachExit([(3, 3)]))])",
        rows.join(",\n"),
        chars.join(",\n")
    )
}

#[test] // R-EXP-19, R-EXP-24 (issue 44): a crawl of one open room at the caps (1024×1024) starts: the first reveal sees the whole room, the sides sight each other and a crisis begins
fn a_crawl_at_the_caps_starts() {
    use doo_rules::rules::dice::Dice;
    use doo_rules::rules::driver::{self, Start};
    use doo_rules::rules::event::Event;
    let data = RuleData::builtin();
    let level = check(&open_crawl(1024)).expect("a crawl at the caps is valid");
    let mut m = level.build(&data).expect("builds");
    let mut dice = Dice::seeded(1);
    let mut ev = Vec::new();
    driver::start(&mut m, &mut dice, Start::Fresh, &mut ev);
    let revealed = |side: &str| ev.iter().find(|e| matches!(e, Event::Revealed { side: s, .. } if s == side));
    assert!(
        matches!(revealed("heroes"), Some(Event::Revealed { spaces, .. }) if *spaces == 1024 * 1024),
        "the heroes see the whole room: {:?}",
        revealed("heroes")
    );
    assert!(matches!(revealed("monsters"), Some(Event::Revealed { spaces, .. }) if *spaces == 1024 * 1024));
    assert!(ev.iter().any(|e| matches!(e, Event::CrisisBegins { .. })), "the sides see each other across the room (R-EXP-24)");
}
