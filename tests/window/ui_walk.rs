//! Issue 27: every screen, overlay, panel and prompt is spawned, and every button a player can
//! reach and every bound key is pressed, without a display: `doo play --headless --ui-walk` runs
//! the game's own app with every plugin but the OS window and the renderer, and presses through
//! Bevy's UI input (cursor position and mouse button, so a button under a blocking panel is not
//! pressed). A duplicate component in any bundle (what crashed Settings and every reaction
//! prompt on 28e6722) panics the run and fails the test; so does a press the game never receives.
//! The same walk runs in the real window under Xvfb with xdotool (window.rs).

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> &'static Path {
    crate::common::root()
}

/// A fresh folder for one walk's saves, settings and report.
pub fn scratch(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("doo-walk-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("saves")).unwrap();
    dir
}

/// Runs `doo ARGS --ui-walk REPORT` (plus `--headless` when `headless`) with its saves and
/// settings in `dir`; asserts it exited cleanly with no panic and no failed press; the report.
pub fn walk_in(dir: &Path, args: &[&str], headless: bool) -> Value {
    walk_focused(dir, args, headless, MENU_FOCUS)
}

/// The menu walk's work: everything but the level editor's own panel, which its own walk
/// presses (`the_editor_walk_presses_every_editor_button`); the menu walk opens the editor and
/// leaves it.
pub const MENU_FOCUS: &str = "!Level editor,!Open a level,!Event form,!Figure form";

/// The editor walk's work: the editor, its Open list and its question about unsaved edits.
pub const EDITOR_FOCUS: &str = "Level editor,Open a level,Unsaved edits,Event form,Figure form,Main menu|Go(Editor)";

/// The editor walk's start: the Bell Chapel (events, a crawl, comments) in the walk's copy.
pub fn editor_args(dir: &Path) -> Vec<String> {
    vec!["edit".into(), dir.join("levels").join("the_bell_chapel.ron").display().to_string(), "--seed".into(), "1".into()]
}

/// A copy of levels/ in `dir`: the level menu and the level editor of a walk work on it
/// (`DOO_LEVELS_DIR`), so the editor's Save and New never write to the shipped levels.
pub fn levels_copy(dir: &Path) -> PathBuf {
    let levels = dir.join("levels");
    std::fs::create_dir_all(&levels).unwrap();
    for f in crate::common::level_files(root()) {
        std::fs::copy(&f, levels.join(f.file_name().unwrap())).unwrap();
    }
    levels
}

/// `walk_in` whose work is only the named panels' buttons and keys (`DOO_WALK_FOCUS`); the walk
/// still moves through any screen to reach them.
pub fn walk_focused(dir: &Path, args: &[&str], headless: bool, focus: &str) -> Value {
    walk_focused_with(dir, args, headless, focus, &[])
}

/// `walk_focused` with more environment for the game (`DOO_WALK_NO_KEYS`, …).
pub fn walk_focused_with(dir: &Path, args: &[&str], headless: bool, focus: &str, env: &[(&str, &str)]) -> Value {
    let report = dir.join("walk.json");
    let levels = levels_copy(dir);
    let mut cmd = Command::new(crate::common::doo_bin());
    cmd.args(args).arg("--ui-walk").arg(&report).envs(env.iter().copied());
    if headless {
        cmd.arg("--headless");
    }
    let out = cmd
        .env("DOO_SAVE_DIR", dir.join("saves"))
        .env("DOO_SETTINGS", dir.join("settings.ron"))
        .env("DOO_WALK_FOCUS", focus)
        .env("DOO_LEVELS_DIR", &levels)
        .current_dir(root())
        .output()
        .expect("run doo");
    let err = String::from_utf8_lossy(&out.stderr);
    let tail: String = err.lines().rev().take(40).collect::<Vec<_>>().into_iter().rev().collect::<Vec<_>>().join("\n");
    assert!(out.status.success(), "{args:?}: the walk ended with {:?}:\n{tail}", out.status.code());
    assert!(!err.contains("panicked"), "{args:?}: a panic:\n{tail}");
    let v: Value =
        serde_json::from_str(&std::fs::read_to_string(&report).unwrap_or_else(|e| panic!("{args:?}: no report ({e}):\n{tail}"))).expect("the report is JSON");
    assert_eq!(v["failures"], serde_json::json!([]), "{args:?}: presses the game did not receive");
    eprintln!(
        "{args:?}: {} states, {} buttons pressed of {} seen ({} shown disabled), {} keys, {} steps (the last new press at step {})",
        v["states"], v["buttons_pressed"], v["buttons_seen"], v["buttons_disabled"], v["keys_pressed"], v["steps"], v["last_new"]
    );
    v
}

fn list(v: &Value, field: &str) -> Vec<String> {
    match &v[field] {
        Value::Array(a) => a.iter().filter_map(|x| x.as_str().map(str::to_string)).collect(),
        Value::Object(o) => o.keys().cloned().collect(),
        _ => Vec::new(),
    }
}

/// Every button seen was pressed, but the action bar's entries: they are those of a moment of
/// the match (a hero's "Leap" only while he stands by a gap), which may pass before the walk
/// comes back; of those, most are pressed, and the report lists the rest.
pub fn assert_all_pressed(v: &Value, what: &str) {
    assert_all_pressed_but(v, what, "Action bar|Choose: ");
}

/// `assert_all_pressed` where the buttons whose keys start with `moment` belong to a moment of
/// the match (in the real window the AI plays at a person's pace, so a human turn's whole bar
/// may pass before the walk is back): at least three in four of those pressed, none failed.
pub fn assert_all_pressed_but(v: &Value, what: &str, moment: &str) {
    let left = list(v, "unpressed");
    let (bar, other): (Vec<_>, Vec<_>) = left.into_iter().partition(|k| k.starts_with(moment));
    assert!(other.is_empty(), "{what}: buttons seen but never pressed: {other:?}");
    let pressed = list(v, "pressed").iter().filter(|k| k.starts_with(moment)).count();
    assert!(pressed >= 3 * bar.len(), "{what}: {pressed} bar entries pressed, {} seen and not: {bar:?}", bar.len());
}

#[test]
fn the_menu_walk_reaches_every_screen_and_persists_every_setting() {
    let dir = scratch("menu");
    let v = walk_in(&dir, &["play", "--menu", "--seed", "1"], true);
    assert_all_pressed(&v, "menu walk");
    let states = list(&v, "state_list").join(" ");
    for screen in ["Menu", "Levels", "Setup", "Match", "Load", "Join"] {
        assert!(states.contains(&format!("{screen}[")), "the walk never reached {screen}: {states}");
    }
    // Settings (crash 1 on 28e6722): every option pressed, and the file says so afterwards.
    assert!(states.contains("Settings"), "the settings panel never opened: {states}");
    let persisted = v["persisted"].as_object().expect("persisted");
    for opt in [
        "UiScale(1.0)",
        "UiScale(1.5)",
        "UiScale(2.0)",
        "Speed(0.5)",
        "Speed(0.0)",
        "Volume(0.25)",
        "Prompts(false)",
        "Prompts(true)",
        "Timeout(10)",
        "Timeout(20)",
        "Timeout(0)",
    ] {
        assert_eq!(persisted.get(opt), Some(&Value::Bool(true)), "setting {opt} not pressed or not persisted: {persisted:?}");
    }
    // The match's overlays: help, the match menu, the rules reference, Save as.
    for overlay in ["Help", "Match menu", "Rules reference"] {
        assert!(states.contains(overlay), "the walk never opened {overlay}: {states}");
    }
    assert!(v["buttons_pressed"].as_u64().unwrap() >= 40, "too few buttons: {}", v["buttons_pressed"]);
}

/// Issue 31: every button of the level editor (brushes, level settings, the figure inspector,
/// the Open list, play-test) and every bound key, headless; the shipped level it opened is
/// untouched (its copy is edited).
#[test]
fn the_editor_walk_presses_every_editor_button() {
    let dir = scratch("editor");
    let before = std::fs::read_to_string(root().join("levels/the_bell_chapel.ron")).unwrap();
    let args = editor_args(&dir);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let v = walk_focused(&dir, &args, true, EDITOR_FOCUS);
    assert_all_pressed(&v, "editor walk");
    let pressed = list(&v, "pressed").join(" ");
    for act in [
        "Main menu|Go(Editor)",
        "EventAdd",
        "EventRemove(an event)",
        "Type(Event(an event))",
        // Issue 46: the event form, its rows stepped both ways.
        "EventForm(an event)",
        "Event form|EventField(a row, on)",
        "Event form|EventField(a row, back)",
        "FigureForm",
        "Figure form|EventField(a row, on)",
        // Issue 46: the shape, mirror, turn, find and rename tools.
        "Outline",
        "Line",
        "MirrorMode",
        "MirrorSides",
        "Turn(0)",
        "Turn(3)",
        "Find",
        "Rename",
        "Sight",
        "Stairs",
        // Issue 46: the selection kept as a stamp file, the stamps kept stepped through.
        "KeepStamp",
        "NextStamp",
        "Event form|EventMove(",
        // Issue 47: a level generated from a seed.
        "Generate",
        "PlayTest",
        "Tool(Room)",
        "Tool(Tile(0))",
        "Save",
        "Undo",
        "Open",
        "OpenFile(0)",
        "OpenFile(10)",
        "FigSide",
        "FigStance",
        "Width(1)",
        "AddFloor",
        "Type(Name)",
        // Issue 42: a way out of the edited level asks first, and each answer is pressed.
        "Unsaved edits|Answer(Save)",
        "Unsaved edits|Answer(Discard)",
        "Unsaved edits|Answer(Cancel)",
    ] {
        assert!(pressed.contains(act), "editor button {act} not pressed: {pressed}");
    }
    assert_eq!(std::fs::read_to_string(root().join("levels/the_bell_chapel.ron")).unwrap(), before, "the shipped level is untouched");
}

#[test]
fn the_campaign_walk_reaches_every_campaign_screen() {
    let dir = scratch("campaign");
    let v = walk_focused(&dir, &["play", "--campaign", "campaigns/drowned_crown.ron", "--seed", "1"], true, "Campaign");
    assert_all_pressed(&v, "campaign walk");
    let states = list(&v, "state_list").join(" ");
    assert!(states.contains("Campaign["), "{states}");
    // issue 43: R-CP-5, R-CP-11: the advancement screen's skill buttons (pressed, or shown
    // disabled with no CP banked) name the rank each rises to; they showed the rank it had
    let mut labels: Vec<(String, String)> = Vec::new();
    for field in ["pressed", "disabled"] {
        labels.extend(v[field].as_object().unwrap().iter().map(|(k, l)| (k.clone(), l.as_str().unwrap_or("").to_string())));
    }
    let skills: Vec<&(String, String)> = labels.iter().filter(|(k, _)| k.contains("Buy(Skill(")).collect();
    assert!(!skills.is_empty(), "the walk saw the skills' buttons: {labels:?}");
    for (k, l) in &skills {
        assert!(l.contains(" -> ") || l.contains("the highest"), "{k}: '{l}' names the next rank");
    }
    assert!(labels.iter().any(|(_, l)| l.starts_with("Axes: Foreman -> Master")), "Lunk's Axes, Foreman to Master: {skills:?}");
}

#[test]
fn the_replay_viewer_walk_presses_every_control() {
    let dir = scratch("viewer");
    let v = walk_focused(&dir, &["replay", "tests/saves/tutorial-seed3.ron", "--watch"], true, "Replay viewer");
    assert_all_pressed(&v, "viewer walk");
    let pressed = list(&v, "pressed").join(" ");
    for control in ["PlayPause", "Step(1)", "Step(-1)", "Turn(1)", "Turn(-1)", "Start", "End"] {
        assert!(pressed.contains(control), "viewer control {control} not pressed: {pressed}");
    }
}

/// Issue 42: "Play again" on the result panel soft-locked every match on fbd0357 (the old result
/// stayed over the new match, took the board's input and held the AI). The walk starts on a
/// finished match (the tutorial save ends with the goblin down), presses Play again, and checks
/// that the new match's figures are drawn, nothing covers the board and the side to act can act.
#[test]
fn play_again_starts_a_match_that_can_be_played() {
    let dir = scratch("again");
    let v = walk_focused(&dir, &["play", "--resume", "tests/saves/tutorial-seed3.ron", "--seed", "1"], true, "Result|PlayAgain");
    let pressed = list(&v, "pressed").join(" ");
    assert!(pressed.contains("PlayAgain"), "Play again never pressed: {pressed}");
    assert!(v["play_again_checked"].as_u64().unwrap_or(0) >= 1, "the match after Play again was never checked: {v}");
}

/// The pending-window saves (pending.rs) copied into a walk's saves folder: the walk starts on
/// each (`--resume`) and can open it again from the Load screen to press the prompt's other
/// buttons. Every save's sides are seated human, so the prompt is the player's.
pub fn prompt_starts(dir: &Path) -> Vec<(&'static str, PathBuf)> {
    let made = dir.join("pending");
    std::fs::create_dir_all(&made).unwrap();
    super::pending::pending_saves(&made)
        .into_iter()
        .map(|(kind, path)| {
            let text = std::fs::read_to_string(&path).unwrap();
            let mut save = doo_rules::save::parse(&path.display().to_string(), &text).expect("a pending save parses");
            for seat in &mut save.seats {
                seat.ai = None;
                if seat.player.is_empty() {
                    seat.player = format!("Player {}", seat.side);
                }
            }
            let walk_dir = dir.join(kind);
            std::fs::create_dir_all(walk_dir.join("saves")).unwrap();
            let to = walk_dir.join("saves").join(format!("{kind}.ron"));
            std::fs::write(&to, save.to_text()).unwrap();
            (kind, to)
        })
        .collect()
}

/// What a walk from a pending-window save presses: the prompt, the reset steps, the bar.
pub fn focus_of(kind: &str) -> &'static str {
    match kind {
        "reset" => "Reset steps,Action bar",
        "crawl_order" => "Action bar",
        _ => "Reaction prompt",
    }
}

/// Every prompt kind opens (DoO reflex and response windows, A4 attack of opportunity and held
/// strike) and its buttons are pressed; the reset step and a crawl order resume and are walked
/// too. A duplicate component in the prompt (crash 2 on 28e6722) panics the run.
#[test]
fn every_prompt_kind_opens_and_its_buttons_are_pressed() {
    let dir = scratch("prompts");
    for (kind, save) in prompt_starts(&dir) {
        let walk_dir = save.parent().unwrap().parent().unwrap().to_path_buf();
        // The prompt's buttons, its keys left to `the_prompt_is_answered_from_the_keyboard`:
        // the walk ends when they are pressed (with the keys it wandered to its 5 000-step cap,
        // the prompt gone with its first answer).
        let prompt = matches!(kind, "doo_reflex" | "doo_response" | "a4_aoo" | "a4_held");
        let env: &[(&str, &str)] = if prompt { &[("DOO_WALK_NO_KEYS", "1")] } else { &[] };
        let v = walk_focused_with(&walk_dir, &["play", "--resume", save.to_str().unwrap(), "--seed", "1"], true, focus_of(kind), env);
        assert_all_pressed(&v, kind);
        let states = list(&v, "state_list").join(" ");
        let pressed = list(&v, "pressed").join(" ");
        if matches!(kind, "doo_reflex" | "doo_response" | "a4_aoo" | "a4_held") {
            assert!(states.contains("Reaction prompt"), "{kind}: no reaction prompt opened: {states}");
            for b in ["Reaction prompt|React(0)", "Reaction prompt|Decline", "Reaction prompt|NeverAsk"] {
                assert!(pressed.contains(b), "{kind}: {b} not pressed: {pressed}");
            }
        }
        assert!(states.contains("Match["), "{kind}: the save did not open a match: {states}");
    }
}

/// At UI scale 2 in the 1280×720 window every button a player can reach still lies inside the
/// window (the walk records any outside it as a failure): the match's HUD is laid out for 2x,
/// and the screens around it keep to the scale the window has room for. The settings panel is
/// left alone, so the walk stays at 2x.
#[test]
fn at_ui_scale_2_every_button_lies_inside_the_window() {
    let dir = scratch("scale2");
    std::fs::write(dir.join("settings.ron"), "(ui_scale: 2.0)").unwrap();
    // The level editor is left out: outside a match the scale is what the window has room for
    // (the editor's own walk presses its buttons).
    let v = walk_focused(&dir, &["play", "--menu", "--seed", "1"], true, &format!("!Settings,{MENU_FOCUS}"));
    // Undo is offered only at one moment of a human opportunity (right after a move of his);
    // the walk at 2x, whose path changes with every button the game gains, may see it once and
    // not meet that moment again (the menu walk at 1x presses it). Seen, it lay inside the
    // window (a button outside is a failure of the walk); every other button is pressed.
    let mut v = v;
    match &mut v["unpressed"] {
        Value::Array(a) => a.retain(|k| k != "Action bar|Undo"),
        Value::Object(o) => {
            o.remove("Action bar|Undo");
        }
        _ => {}
    }
    assert_all_pressed(&v, "walk at 2x");
    let states = list(&v, "state_list").join(" ");
    assert!(states.contains("Match[") && states.contains("Levels["), "{states}");
    let settings = std::fs::read_to_string(dir.join("settings.ron")).unwrap();
    assert!(settings.contains("ui_scale: 2.0"), "the walk left the scale: {settings}");
}

/// The prompt's keys: from the A4 attack-of-opportunity save, a walk that presses keys before
/// buttons answers the prompt from the keyboard (`1` strikes, `N` declines, on its appearances
/// as the save is opened again from the Load screen) and the game receives them.
#[test]
fn the_prompt_is_answered_from_the_keyboard() {
    let dir = scratch("prompt-keys");
    let (_, save) = prompt_starts(&dir).into_iter().find(|(k, _)| *k == "a4_aoo").expect("an A4 AoO save");
    let walk_dir = save.parent().unwrap().parent().unwrap().to_path_buf();
    let report = walk_dir.join("walk.json");
    let out = Command::new(crate::common::doo_bin())
        .args(["play", "--resume", save.to_str().unwrap(), "--seed", "1", "--headless", "--ui-walk"])
        .arg(&report)
        .env("DOO_SAVE_DIR", walk_dir.join("saves"))
        .env("DOO_SETTINGS", walk_dir.join("settings.ron"))
        .env("DOO_WALK_FOCUS", "Reaction prompt")
        .env("DOO_WALK_KEYS_FIRST", "1")
        .env("DOO_LEVELS_DIR", levels_copy(&walk_dir))
        .current_dir(root())
        .output()
        .expect("run doo");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    let keys = list(&v, "key_list");
    let on_prompt: Vec<&String> = keys.iter().filter(|k| k.contains("[Reaction prompt]|")).collect();
    for key in ["|1", "|n"] {
        assert!(on_prompt.iter().any(|k| k.ends_with(key)), "{key} not pressed on the prompt: {on_prompt:?}");
    }
    assert_eq!(v["failures"], serde_json::json!([]), "keys the game did not receive");
}

/// The choices a save that does not replay opens with (issue 27): "Continue from command N",
/// "Watch it", "Delete it" and "Back" are each pressed. Two copies of a save whose third command
/// was edited into a delay (refused whoever asks, R-TURN-12) sit in the saves folder: the walk
/// opens one with `--resume`, and the Load screen's slots open them again after each choice.
#[test]
fn a_save_that_does_not_replay_opens_with_its_choices_and_each_is_pressed() {
    let dir = scratch("broken");
    let (_, aoo) = prompt_starts(&dir).into_iter().find(|(k, _)| *k == "a4_aoo").expect("an A4 AoO save");
    let mut bad = doo_rules::save::load(&aoo).unwrap();
    bad.commands[1] = doo_rules::rules::Command::Delay { actor: bad.commands[1].actor().to_string() };
    let walk_dir = dir.join("walk");
    std::fs::create_dir_all(walk_dir.join("saves")).unwrap();
    for name in ["broken-a.ron", "broken-b.ron"] {
        let p = walk_dir.join("saves").join(name);
        doo_rules::data::write_atomic(&p, &bad.to_text()).unwrap();
        // Newest on the Load screen (a day ahead), so the saves the walk makes as it plays (more
        // since Play again plays: issue 42) never push them below the list's fold.
        let ahead = std::time::SystemTime::now() + std::time::Duration::from_secs(86_400);
        std::fs::File::options().write(true).open(&p).and_then(|f| f.set_modified(ahead)).unwrap();
    }
    let first = walk_dir.join("saves").join("broken-a.ron");
    let v = walk_focused(&walk_dir, &["play", "--resume", first.to_str().unwrap(), "--seed", "1"], true, "Broken save");
    assert_all_pressed(&v, "broken save walk");
    let pressed = list(&v, "pressed").join(" ");
    for choice in ["Broken(ContinueGood)", "Broken(Watch)", "Broken(Delete)", "Broken(Close)"] {
        assert!(pressed.contains(&format!("Broken save|{choice}")), "{choice} not pressed: {pressed}");
    }
}

/// Issue 43: the campaign's result screen after a level, and the menu after it. The road is
/// played headless by `doo campaign simulate --seed 6 --plays 1` (Mira falls to a goblin's hit
/// and is still below 0 HP after the day's rest); its autosave, the finished road with the
/// campaign in its header, is the walk's campaign save. The walk continues the campaign from the
/// menu, goes back to the campaign from the level's result and reads the result screen: how
/// Mira fell, with her pronoun (R-INJ-3, R-CP-12), that she sits the next level out and that
/// Recruit a hero opens when there is room (R-CP-13, R-CP-14), what resting does (R-CP-13,
/// R-HEAL-7, R-HEAL-8). Back on the main menu its first button is "Continue the campaign".
#[test]
fn the_campaign_result_tells_falls_rest_and_recruits_and_the_menu_continues_the_campaign() {
    let dir = scratch("campaign-result");
    let sim = dir.join("sim");
    let out = Command::new(crate::common::doo_bin())
        .args(["campaign", "simulate", "campaigns/drowned_crown.ron", "--seed", "6", "--plays", "1", "--dir"])
        .arg(&sim)
        .current_dir(root())
        .output()
        .expect("run doo");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    std::fs::create_dir_all(dir.join("saves/campaign")).unwrap();
    std::fs::copy(sim.join("campaign-autosave.ron"), dir.join("saves/campaign/campaign.ron")).unwrap();
    // the menu's Continue the campaign and the result's Back to the campaign are the walk's work too (else a walk may do the campaign
    // screens' work through New campaign and never open the saved one)
    let v = walk_focused(&dir, &["play", "--seed", "1"], true, "Main menu|ContinueCampaign,Result|BackToCampaign,Campaign");
    let texts = list(&v, "campaign_texts");
    let has = |needle: &str| texts.iter().any(|t| t.contains(needle));
    assert!(has("Ambush in the Long Corridor: won"), "the road's result: {texts:?}");
    assert!(has("Mira fell to Goblin's solid hit") && has("She ended the level at"), "how Mira fell, as 'she': {texts:?}");
    assert!(has("she sits the next level out (R-CP-13)") && has("Recruit a hero on the briefing opens when there is room (R-CP-14)"), "{texts:?}");
    assert!(has("Resting (R-CP-13): one day between levels.") && has("Day 1: Mira recuperates"), "what resting does: {texts:?}");
    let first = list(&v, "menu_first");
    assert!(first.contains(&"Continue the campaign  [Enter]".to_string()), "the menu's first button after the level: {first:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 47: the Delve screen from the main menu: every button and key pressed (difficulty,
/// floors, size, a new seed, Choose heroes), the dungeon generated into the save folder's
/// `delve/floors/` and the campaign's party screen opened on it, titled with its seed.
#[test]
fn the_delve_walk_presses_every_delve_button_and_opens_the_party_screen() {
    let dir = scratch("delve");
    let v = walk_focused(&dir, &["play", "--seed", "1"], true, "Delve");
    assert_all_pressed(&v, "delve walk");
    let states = list(&v, "state_list").join(" ");
    assert!(states.contains("Delve[") && states.contains("Campaign["), "the Delve screen, then the party screen: {states}");
    let campaign = dir.join("saves/delve/floors/delve.ron");
    let text = std::fs::read_to_string(&campaign).unwrap_or_else(|e| panic!("{}: {e}", campaign.display()));
    assert!(text.contains("name: \"Delve "), "a delve's campaign: {text}");
    let texts = list(&v, "campaign_texts");
    assert!(
        texts.iter().any(|t| t.starts_with("Seed ") && t.contains("the same seed and party give friends the same dungeon")),
        "the seed is shown to share: {texts:?}"
    );
    assert!(texts.iter().any(|t| t.starts_with("Delve ") && t.contains(" floor")), "the party screen is titled with the delve: {texts:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 47: a delve played to its end (`doo campaign simulate` on a generated one-floor delve)
/// and continued from the main menu ends in the run summary: floors cleared, foes defeated, CP
/// (R-CP-9, R-CP-10), floors played again (R-CP-13).
#[test]
fn a_finished_delve_ends_in_its_run_summary() {
    let dir = scratch("delve-summary");
    let floors = dir.join("saves/delve/floors");
    let run = |args: &[&str]| {
        let out = Command::new(crate::common::doo_bin()).args(args).current_dir(root()).output().expect("run doo");
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let f = floors.display().to_string();
    run(&["delve", "--seed", "5", "--floors", "1", "--size", "24x24", "--difficulty", "easy", "--out", &f]);
    let sim = dir.join("sim").display().to_string();
    let campaign = floors.join("delve.ron").display().to_string();
    let mut args = vec!["campaign", "simulate", &campaign, "--seed", "6", "--dir", &sim];
    for h in ["heroes/lunk.ron", "heroes/mira.ron", "heroes/tobin.ron", "heroes/ade.ron"] {
        args.extend(["--hero", h]);
    }
    let out = run(&args);
    let last: Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
    let won = last["won"].as_bool().unwrap();
    let plays = last["levels_played"].as_u64().unwrap();
    std::fs::create_dir_all(dir.join("saves/delve/run")).unwrap();
    std::fs::copy(dir.join("sim/campaign-autosave.ron"), dir.join("saves/delve/run/campaign.ron")).unwrap();
    let v = walk_focused(&dir, &["play", "--seed", "1"], true, "Main menu|ContinueDelve,Result|BackToCampaign,Campaign|Go(Menu)");
    let pressed = list(&v, "pressed");
    for k in ["Main menu|ContinueDelve", "Result|BackToCampaign", "Campaign|Go(Menu)"] {
        assert!(pressed.iter().any(|p| p == k), "{k} pressed (the delve continued, its last floor's result, back to the menu): {pressed:?}");
    }
    let texts = list(&v, "campaign_texts");
    let has = |needle: &str| texts.iter().any(|t| t.contains(needle));
    assert!(has(if won { "The delve is won" } else { "The delve is over." }), "{texts:?}");
    assert!(has(&format!("Floors cleared: {} of 1", u32::from(won))), "{texts:?}");
    let lost = plays - u64::from(won);
    if lost > 0 {
        assert!(has(&format!("Floors lost and played again: {lost} (R-CP-13)")), "{texts:?}");
    }
    assert!(texts.iter().any(|t| t.starts_with("Foes defeated: ") && t != "Foes defeated: 0"), "the foes the party put down: {texts:?}");
    assert!(has("CP earned: "), "{texts:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
