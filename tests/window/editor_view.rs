//! Issue 46 in the real window: the level editor's map zoomed in (Ctrl+=, the mouse wheel),
//! moved (the middle button dragged) and fitted again (Ctrl+0); its figures drawn with the
//! game's art; the events panel's pages (End, Home) reaching every one of the Bell Chapel's
//! seven events; the event form opened (F4) and closed (Esc); an outline drawn and undone, an id
//! found, renamed and its figure stamped beside it, kept as a stamp file and put down again from
//! the stamps kept (Ctrl+Shift+C, Ctrl+Shift+V). Each step is checked on the
//! screen after it.

use super::window::{Image, artifacts, decode, game_window, grab, launch, launch_with, pixel_difference, press, require_display, require_xdotool, xdotool};

/// The pixels of the rectangle (x0, y0)-(x1, y1) of `img`, clipped to it.
fn rect(img: &Image, (x0, y0): (usize, usize), (x1, y1): (usize, usize)) -> Vec<[u8; 3]> {
    let (x1, y1) = (x1.min(img.w), y1.min(img.h));
    (y0..y1).flat_map(|y| (x0..x1).map(move |x| (x, y))).map(|(x, y)| img.px[y * img.w + x]).collect()
}

/// The editor's map area in a 1280 × 720 window (between its panels: 196 px at the left, 300
/// at the right, 82 at the top, 132 at the bottom), a little inside it.
fn map(img: &Image) -> Vec<[u8; 3]> {
    rect(img, (210, 86), (970, 580))
}

/// The right panel (the level's settings, the figure inspector, the events).
fn right_panel(img: &Image) -> Vec<[u8; 3]> {
    rect(img, (985, 44), (1280, 588))
}

fn sleep(ms: u64) {
    std::thread::sleep(std::time::Duration::from_millis(ms));
}

#[test]
#[ignore = "needs a display and xdotool: .ci/run runs it under Xvfb"]
fn e2e_the_editor_zooms_pans_and_pages_every_event() {
    require_display();
    require_xdotool();
    let dir = artifacts("editor-view");
    let level = dir.join("the_bell_chapel.ron");
    std::fs::copy(crate::common::root().join("levels/the_bell_chapel.ron"), &level).expect("copy the Bell Chapel");
    let (log, stderr) = (dir.join("view.jsonl"), dir.join("view.stderr"));
    let mut child = launch(&["edit", level.to_str().unwrap(), "--frames", "200000"], &log, &stderr, &dir.join("settings.ron"), Some(&dir.join("saves")));
    let win = game_window();
    sleep(3000);
    // The pointer off the map (over the title), so that it moves no cursor.
    let _ = xdotool(&["mousemove", "--window", &win, "5", "5"]);
    let shot = |name: &str| {
        sleep(700);
        let p = dir.join(name);
        assert!(grab(&win, &p), "a screenshot of the editor ({name})");
        decode(&p)
    };
    let keys = |ks: &[&str]| {
        for k in ks {
            press(&win, k, "the editor", 150);
        }
    };
    let fit = shot("view-fit.png");
    keys(&["ctrl+equal", "ctrl+equal", "ctrl+equal"]);
    let zoomed = shot("view-zoomed.png");
    let d_zoom = pixel_difference(&map(&fit), &map(&zoomed));
    keys(&["ctrl+0"]);
    let again = shot("view-fit-again.png");
    let d_again = pixel_difference(&map(&fit), &map(&again));
    // The wheel over the map's middle: three notches in.
    let _ = xdotool(&["mousemove", "--window", &win, "588", "316"]);
    for _ in 0..3 {
        let _ = xdotool(&["click", "4"]);
        sleep(250);
    }
    let wheeled = shot("view-wheel.png");
    let d_wheel = pixel_difference(&map(&again), &map(&wheeled));
    // The middle button dragged 200 px left and 100 px up moves the view.
    let _ = xdotool(&["mousedown", "2"]);
    for (x, y) in [("538", "291"), ("488", "266"), ("438", "241"), ("388", "216")] {
        sleep(120);
        let _ = xdotool(&["mousemove", "--window", &win, x, y]);
    }
    sleep(200);
    let _ = xdotool(&["mouseup", "2"]);
    let _ = xdotool(&["mousemove", "--window", &win, "5", "5"]);
    let dragged = shot("view-dragged.png");
    let d_drag = pixel_difference(&map(&wheeled), &map(&dragged));
    // Fitted again; the events' second and third pages, then back to the first.
    keys(&["ctrl+0"]);
    let first = shot("view-events-1.png");
    keys(&["End"]);
    let second = shot("view-events-2.png");
    keys(&["End"]);
    let third = shot("view-events-3.png");
    keys(&["Home", "Home"]);
    let back = shot("view-events-back.png");
    // F4: the first listed event's form over the map (the Bell Chapel's "nave"); Esc closes it.
    keys(&["F4"]);
    let form = shot("view-event-form.png");
    keys(&["Escape"]);
    let closed = shot("view-event-form-closed.png");
    let alive = child.try_wait().map(|s| s.is_none()).unwrap_or(false);
    let _ = child.kill();
    let _ = child.wait();
    let err = std::fs::read_to_string(&stderr).unwrap_or_default();
    assert!(alive, "the editor kept running:\n{err}");
    println!("map differences: zoom {d_zoom:.1}, fitted again {d_again:.2}, wheel {d_wheel:.1}, drag {d_drag:.1}; shots in {}", dir.display());
    assert!(d_zoom > 8.0, "Ctrl+= three times zooms the map in (mean difference {d_zoom:.2} per channel)");
    assert!(d_again < 2.0, "Ctrl+0 fits the map as it opened (mean difference {d_again:.2})");
    assert!(d_wheel > 8.0, "the wheel zooms the map in (mean difference {d_wheel:.2})");
    assert!(d_drag > 8.0, "the middle button moves the view (mean difference {d_drag:.2})");
    let page = |a: &Image, b: &Image| pixel_difference(&right_panel(a), &right_panel(b));
    let (p12, p23, p1b) = (page(&first, &second), page(&second, &third), page(&first, &back));
    println!("events panel differences: pages 1-2 {p12:.2}, 2-3 {p23:.2}, 1 and back {p1b:.2}");
    assert!(p12 > 0.3 && p23 > 0.3, "End turns the events panel's page (differences {p12:.2}, {p23:.2})");
    assert!(p1b < 0.05, "Home turns back to the first page (difference {p1b:.3})");
    assert!(pixel_difference(&map(&fit), &map(&first)) < 2.0, "the map is fitted again");
    let (d_form, d_closed) = (pixel_difference(&map(&back), &map(&form)), pixel_difference(&map(&back), &map(&closed)));
    println!("event form: opened {d_form:.1}, closed {d_closed:.2}");
    assert!(d_form > 8.0, "F4 opens the event form over the map (difference {d_form:.2})");
    assert!(d_closed < 2.0, "Esc closes it (difference {d_closed:.2})");
}

/// The map's pixels of the editor's first screenshot and another differ (mean per channel).
fn map_moved(a: &Image, b: &Image) -> f64 {
    pixel_difference(&map(a), &map(b))
}

#[test]
#[ignore = "needs a display and xdotool: .ci/run runs it under Xvfb"]
fn e2e_the_editor_draws_outlines_finds_renames_and_stamps() {
    require_display();
    require_xdotool();
    let dir = artifacts("editor-tools");
    let level = dir.join("crypt.ron");
    std::fs::copy(crate::common::root().join("levels/crypt.ron"), &level).expect("copy the crypt");
    let (log, stderr) = (dir.join("tools.jsonl"), dir.join("tools.stderr"));
    // Stamps are kept in the levels folder's stamps/: the test's own, not the shipped one.
    let levels = dir.join("levels");
    let _ = std::fs::remove_dir_all(&levels);
    std::fs::create_dir_all(&levels).unwrap();
    let mut child = launch_with(
        &["edit", level.to_str().unwrap(), "--frames", "200000"],
        &log,
        &stderr,
        &dir.join("settings.ron"),
        Some(&dir.join("saves")),
        &[("DOO_LEVELS_DIR", &levels)],
    );
    let win = game_window();
    sleep(3000);
    let _ = xdotool(&["mousemove", "--window", &win, "5", "5"]);
    let shot = |name: &str| {
        sleep(700);
        let p = dir.join(name);
        assert!(grab(&win, &p), "a screenshot of the editor ({name})");
        decode(&p)
    };
    let keys = |ks: &[&str]| {
        for k in ks {
            press(&win, k, "the editor", 150);
        }
    };
    let typed = |t: &str| {
        assert!(xdotool(&["type", "--window", &win, "--delay", "80", t]), "xdotool types {t}");
        sleep(300);
    };
    let before = shot("tools-before.png");
    // The wall brush, a 3 × 3 selection, Ctrl+R: its outline drawn in wall; Ctrl+Z takes it back.
    keys(&["2", "shift+Right", "shift+Right", "shift+Down", "shift+Down", "ctrl+r"]);
    let outlined = shot("tools-outline.png");
    keys(&["ctrl+z"]);
    let undone = shot("tools-outline-undone.png");
    // Find the skeleton skel_1 (Ctrl+F, typed, Enter), rename it (Ctrl+E: the id typed onto).
    keys(&["ctrl+f"]);
    typed("skel_1");
    keys(&["Return"]);
    let found = shot("tools-found.png");
    keys(&["ctrl+e"]);
    typed("_x");
    keys(&["Return"]);
    // The skeleton's space copied (Ctrl+C) and put down one space to the right (Ctrl+V).
    keys(&["ctrl+c", "Right", "ctrl+v"]);
    let stamped = shot("tools-stamped.png");
    // That space kept as the stamp "bones" (Ctrl+Shift+C, its name typed), taken from the shelf
    // (Ctrl+Shift+V) and put down one space below (Ctrl+V).
    keys(&["ctrl+shift+c"]);
    typed("bones");
    keys(&["Return"]);
    let file = levels.join("stamps/bones.ron");
    for _ in 0..40 {
        if file.exists() {
            break;
        }
        sleep(100);
    }
    let kept = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("the stamp kept in stamps/bones.ron: {e}"));
    assert!(kept.contains("template: \"skeleton\""), "the kept stamp holds the skeleton:\n{kept}");
    // An empty floor space copied into the hand first: only the shelf's stamp brings a skeleton.
    keys(&["Down", "ctrl+c", "ctrl+shift+v", "ctrl+v"]);
    let shelved = shot("tools-shelf-stamped.png");
    keys(&["ctrl+s"]);
    sleep(800);
    let alive = child.try_wait().map(|s| s.is_none()).unwrap_or(false);
    let _ = child.kill();
    let _ = child.wait();
    let err = std::fs::read_to_string(&stderr).unwrap_or_default();
    assert!(alive, "the editor kept running:\n{err}");
    let (d_out, d_undo, d_found, d_stamp) =
        (map_moved(&before, &outlined), map_moved(&before, &undone), map_moved(&undone, &found), map_moved(&found, &stamped));
    println!("map differences: outline {d_out:.2}, undone {d_undo:.3}, found {d_found:.2}, stamped {d_stamp:.2}; shots in {}", dir.display());
    assert!(d_out > 0.3, "Ctrl+R draws the selection's outline on the map (difference {d_out:.3})");
    // Only the cursor, moved by the selection, differs once the outline is undone.
    assert!(d_undo < d_out / 2.5, "Ctrl+Z takes the outline back (difference {d_undo:.3}, drawn {d_out:.3})");
    assert!(d_found > 0.05, "Find moves the cursor to the skeleton (difference {d_found:.3})");
    assert!(d_stamp > 0.3, "Ctrl+V puts a copy of the skeleton down (difference {d_stamp:.3})");
    let d_shelf = map_moved(&stamped, &shelved);
    assert!(d_shelf > 0.3, "the stamp from the shelf puts a third skeleton down (difference {d_shelf:.3})");
    let saved = std::fs::read_to_string(&level).expect("the level saved");
    let shipped = std::fs::read_to_string(crate::common::root().join("levels/crypt.ron")).unwrap();
    assert!(saved.contains("id: \"skel_1_x\""), "skel_1 renamed skel_1_x:\n{saved}");
    assert!(!saved.contains("\"skel_1\""), "no skel_1 left:\n{saved}");
    let skeletons = |t: &str| t.matches("template: \"skeleton\"").count();
    assert_eq!(skeletons(&saved), skeletons(&shipped) + 2, "the copy and the stamp kept each put a skeleton down:\n{saved}");
    let data = doo_rules::data::RuleData::load(&crate::common::root()).unwrap();
    assert!(doo_rules::level_file::check("crypt.ron", &saved, &data, &crate::common::root()).is_ok(), "the saved level is valid:\n{saved}");
}
