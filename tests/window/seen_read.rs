//! Issue 43, "Seen and read right": sides coloured as they are named (and a colour-blind palette),
//! a font that has every character the game prints, keys that reach one system only and only the
//! panel on top, a level's name that says the rules it is played under.

use bevy::input::ButtonState;
use bevy::input::keyboard::{Key, KeyboardInput};
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use doo_app::window::board::palette::{SIDES, side_colours};
use doo_app::window::screens::Screen;
use doo_app::window::theme::interaction::KeyFocus;
use std::collections::BTreeSet;
use std::path::Path;

fn root() -> &'static Path {
    crate::common::root()
}

fn sides(names: &[(&str, Option<&str>)]) -> Vec<(String, Option<String>)> {
    names.iter().map(|(id, n)| (id.to_string(), n.map(str::to_string))).collect()
}

/// How red, green, blue a colour is (sRGB).
fn rgb(c: Color) -> [f32; 3] {
    let s = c.to_srgba();
    [s.red, s.green, s.blue]
}

#[test] // a side stands on the colour its name says ("Red Company" on red, "Gold Banner" on gold), no two sides alike
fn a_side_stands_on_the_colour_of_its_name() {
    let c = side_colours(&sides(&[("red", Some("Red Company")), ("blue", Some("Blue Company"))]), false);
    let [r, g, b] = rgb(c[0]);
    assert!(r > 0.8 && g < 0.4 && b < 0.4, "Red Company is red: {:?}", rgb(c[0]));
    let [r, _, b] = rgb(c[1]);
    assert!(b > 0.8 && r < 0.5, "Blue Company is blue: {:?}", rgb(c[1]));
    // The skirmish's sides: the first stood on blue, the Gold Banner on purple (issue 43).
    let c = side_colours(&sides(&[("a", Some("Red Company")), ("b", Some("Gold Banner"))]), false);
    let [r, g, b] = rgb(c[1]);
    assert!(r > 0.8 && g > 0.6 && b < 0.4, "Gold Banner is gold: {:?}", rgb(c[1]));
    // A side whose name says no colour takes the palette's next, never one a named side has.
    let c = side_colours(&sides(&[("heroes", None), ("monsters", Some("The Blue Horde"))]), false);
    assert_ne!(c[0], c[1]);
    assert_eq!(c[0], SIDES[1], "the first free palette colour after blue");
    // Two sides that name the same colour do not stand alike.
    let c = side_colours(&sides(&[("a", Some("Red Raiders")), ("b", Some("Red Reavers"))]), false);
    assert_ne!(c[0], c[1]);
    // The colour-blind palette: other colours, still one each, still red-ish for red.
    let cb = side_colours(&sides(&[("red", Some("Red Company")), ("blue", Some("Blue Company")), ("x", None), ("y", None)]), true);
    let own = side_colours(&sides(&[("red", Some("Red Company")), ("blue", Some("Blue Company")), ("x", None), ("y", None)]), false);
    assert_ne!(cb, own, "the colour-blind palette differs");
    assert_eq!(cb.iter().map(|c| format!("{c:?}")).collect::<BTreeSet<_>>().len(), 4, "four sides, four colours: {cb:?}");
}

#[test] // issue 43: R on the level screen plays the level under other rules, and its name then says them (no "(A4)" on a DOO-2017 match)
fn a_level_name_says_the_rules_it_is_played_under() {
    use doo_app::window::screens::levels::name_under_ruleset;
    assert_eq!(name_under_ruleset("The Duelling Hall (A4, hot-seat)", "A4", "DOO-2017"), "The Duelling Hall (DOO-2017, hot-seat)");
    assert_eq!(name_under_ruleset("Ambush at the Ford (A4)", "A4", "CORE-STRICT"), "Ambush at the Ford (CORE-STRICT)");
    // Round the rulesets and back: the level's own name again.
    let mut name = "Ambush at the Ford (A4)".to_string();
    let names = ["A4", "DOO-2017", "CORE-STRICT", "ADV-2017", "LEGACY-2016", "LEGACY-2016-EARLY"];
    for k in 0..names.len() {
        name = name_under_ruleset(&name, names[k], names[(k + 1) % names.len()]);
    }
    assert_eq!(name, "Ambush at the Ford (A4)");
    // Only the ruleset as a word of its own: "LEGACY-2016" is not inside "LEGACY-2016-EARLY".
    assert_eq!(name_under_ruleset("Old (LEGACY-2016-EARLY)", "LEGACY-2016", "A4"), "Old (LEGACY-2016-EARLY)");
    assert_eq!(name_under_ruleset("The A4B road", "A4", "DOO-2017"), "The A4B road");
    assert_eq!(name_under_ruleset("The Tutorial", "DOO-2017", "A4"), "The Tutorial", "a name that names no ruleset is kept");
}

/// The characters a TrueType font maps (its `cmap`: formats 4 and 12).
fn font_chars(data: &[u8]) -> BTreeSet<u32> {
    let u16_at = |o: usize| u16::from_be_bytes([data[o], data[o + 1]]) as usize;
    let u32_at = |o: usize| u32::from_be_bytes([data[o], data[o + 1], data[o + 2], data[o + 3]]) as usize;
    let tables = u16_at(4);
    let cmap = (0..tables).map(|i| 12 + 16 * i).find(|&o| &data[o..o + 4] == b"cmap").map(|o| u32_at(o + 8)).expect("a cmap table");
    let mut out = BTreeSet::new();
    for i in 0..u16_at(cmap + 2) {
        let sub = cmap + u32_at(cmap + 4 + 8 * i + 4);
        match u16_at(sub) {
            4 => {
                let seg = u16_at(sub + 6) / 2;
                for s in 0..seg {
                    let (end, start) = (u16_at(sub + 14 + 2 * s), u16_at(sub + 16 + 2 * seg + 2 * s));
                    let (delta, range_at) = (u16_at(sub + 16 + 4 * seg + 2 * s), sub + 16 + 6 * seg + 2 * s);
                    let range = u16_at(range_at);
                    for c in start..=end.min(0xfffe) {
                        let glyph = if range == 0 {
                            (c + delta) & 0xffff
                        } else {
                            let g = u16_at(range_at + range + 2 * (c - start));
                            if g == 0 { 0 } else { (g + delta) & 0xffff }
                        };
                        if glyph != 0 {
                            out.insert(c as u32);
                        }
                    }
                }
            }
            12 => {
                for g in 0..u32_at(sub + 12) {
                    let o = sub + 16 + 12 * g;
                    out.extend(u32_at(o) as u32..=u32_at(o + 4) as u32);
                }
            }
            _ => {}
        }
    }
    out
}

/// The text inside a Rust file's string and char literals (not its comments).
fn rust_strings(src: &str) -> String {
    let (mut out, mut chars) = (String::new(), src.chars().peekable());
    while let Some(c) = chars.next() {
        match c {
            '/' if chars.peek() == Some(&'/') => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        break;
                    }
                }
            }
            '/' if chars.peek() == Some(&'*') => {
                let mut last = ' ';
                for c in chars.by_ref() {
                    if last == '*' && c == '/' {
                        break;
                    }
                    last = c;
                }
            }
            '"' => {
                while let Some(c) = chars.next() {
                    match c {
                        '\\' => {
                            chars.next();
                        }
                        '"' => break,
                        c => out.push(c),
                    }
                }
                out.push('\n');
            }
            _ => {}
        }
    }
    out
}

/// Every string table the game prints from: the string literals of both crates' code (UI labels,
/// help, log lines, refusals and their rule ids' sentences) and every data file (rules, rules
/// reference, equipment, monsters, levels, campaigns, heroes: names, briefings, descriptions).
fn printed_texts() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for dir in ["src", "crates/doo_rules/src"] {
        for f in crate::common::files_with(&root().join(dir), &["rs"]) {
            let text = std::fs::read_to_string(&f).unwrap();
            // Tests print nothing on screen: a file's test module is left out.
            let code = text.split("#[cfg(test)]").next().unwrap_or_default();
            out.push((f.display().to_string(), rust_strings(code)));
        }
    }
    for dir in ["assets", "levels", "campaigns", "heroes"] {
        for f in crate::common::files_with(&root().join(dir), &["ron", "md", "txt"]) {
            if f.to_string_lossy().contains("LICENSE") {
                continue;
            }
            // Comments in RON are for the file's reader, not shown.
            let text: String = std::fs::read_to_string(&f).unwrap().lines().map(|l| l.split(" //").next().unwrap_or_default().to_string() + "\n").collect();
            let text = if f.extension().is_some_and(|x| x == "ron") {
                text.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n")
            } else {
                text
            };
            out.push((f.display().to_string(), text));
        }
    }
    out
}

#[test] // issue 43: the font draws every character the game prints ("→", "−", "…", "§" were empty boxes in Bevy's ASCII-only FiraMono subset)
fn the_font_has_every_character_the_game_prints() {
    let font = font_chars(doo_app::window::theme::font::FONT_DATA);
    assert!(font.len() > 1000, "the font maps {} characters", font.len());
    let texts = printed_texts();
    assert!(texts.len() > 200, "{} files read", texts.len());
    let mut missing: Vec<String> = Vec::new();
    for (file, text) in &texts {
        for c in text.chars().filter(|c| !c.is_control() && !font.contains(&(*c as u32))) {
            let m = format!("{c:?} (U+{:04X}) in {file}", c as u32);
            if !missing.contains(&m) {
                missing.push(m);
            }
        }
    }
    assert!(missing.is_empty(), "characters the font lacks:\n{}", missing.join("\n"));
    // The test sees what it looks for: Bevy's own font lacks the three characters.
    let fira = font_chars(bevy::text::DEFAULT_FONT_DATA);
    for c in ['→', '−', '…'] {
        assert!(!fira.contains(&(c as u32)) && font.contains(&(c as u32)), "{c}");
        assert!(texts.iter().any(|(_, t)| t.contains(c)), "the game prints {c}");
    }
}

/// The window's app without a display, on the main menu (no match: nothing is saved).
fn menu_app() -> App {
    let opts = doo_app::window::WindowOptions { menu: true, seed: Some(3), ..Default::default() };
    let mut app = doo_app::window::headless_ui_app(Some("levels/arena.ron".into()), opts).expect("the window's app");
    run(&mut app, 5);
    app
}

fn run(app: &mut App, n: usize) {
    (0..n).for_each(|_| app.update());
}

/// A key pressed (this frame) and let go (the next).
fn tap(app: &mut App, code: KeyCode, logical_key: Key) {
    let window = app.world_mut().query_filtered::<Entity, With<PrimaryWindow>>().iter(app.world()).next().expect("a window");
    for state in [ButtonState::Pressed, ButtonState::Released] {
        app.world_mut().write_message(KeyboardInput { key_code: code, logical_key: logical_key.clone(), state, text: None, repeat: false, window });
        app.update();
    }
}

/// Frames in which a system of `Update` (where every screen and the match read their keys) saw Enter pressed.
#[derive(Resource, Default)]
struct EnterSeen(u32);

fn see_enter(keys: Res<ButtonInput<KeyCode>>, mut seen: ResMut<EnterSeen>) {
    if keys.just_pressed(KeyCode::Enter) {
        seen.0 += 1;
    }
}

/// The named ancestors of `e`, nearest first.
fn names_above(app: &App, mut e: Entity) -> Vec<String> {
    let mut out = Vec::new();
    while let Some(p) = app.world().get::<ChildOf>(e).map(|c| c.parent()) {
        if let Some(n) = app.world().get::<Name>(p) {
            out.push(n.as_str().to_string());
        }
        e = p;
    }
    out
}

#[test] // issue 43: Enter on the button with the keyboard focus presses that button only: no screen's or match's own Enter sees it too (one Enter once passed two opportunities)
fn enter_on_a_focused_button_reaches_no_other_system() {
    let mut app = menu_app();
    app.init_resource::<EnterSeen>().add_systems(Update, see_enter);
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Levels);
    run(&mut app, 5);
    // Without a focused button, Enter is the screen's key (Levels: on to the seats).
    tap(&mut app, KeyCode::Enter, Key::Enter);
    run(&mut app, 3);
    assert_eq!(app.world().resource::<EnterSeen>().0, 1, "Enter reaches the screen's keys");
    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Setup);
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Levels);
    run(&mut app, 5);
    // With the focus on a button (the arrows), Enter presses it and nothing else reads it.
    tap(&mut app, KeyCode::ArrowDown, Key::ArrowDown);
    run(&mut app, 2);
    let focused = app.world().resource::<KeyFocus>().0.expect("an arrow gives a button the focus");
    assert!(app.world().get::<Button>(focused).is_some());
    tap(&mut app, KeyCode::Enter, Key::Enter);
    run(&mut app, 3);
    assert_eq!(app.world().resource::<EnterSeen>().0, 1, "the focused button's Enter reached Update's systems too");
    assert_ne!(*app.world().resource::<State<Screen>>().get(), Screen::Setup, "the press went on to the seats as well as to the button");
}

#[test] // issue 43: Tab and the arrows move the focus among the buttons of the panel on top only (Tab in the match menu paged the bar behind it)
fn the_keys_move_among_the_top_panels_buttons_only() {
    let mut app = menu_app();
    app.world_mut().resource_mut::<doo_app::window::screens::settings::SettingsOpen>().0 = true;
    run(&mut app, 3);
    let mut visited = BTreeSet::new();
    for _ in 0..40 {
        tap(&mut app, KeyCode::Tab, Key::Tab);
        let e = app.world().resource::<KeyFocus>().0.expect("Tab gives a button the focus");
        assert!(names_above(&app, e).iter().any(|n| n == "Settings"), "Tab went to {:?}, behind the settings panel", names_above(&app, e));
        visited.insert(e);
    }
    assert!(visited.len() >= 10, "Tab goes round the panel's buttons: {}", visited.len());
}
