//! The real window: opens the default level, renders, saves a screenshot and exits.
//! Needs a display: skipped (with the reason printed) when none is set; `.ci/run` runs it under Xvfb.

use std::process::Command;

#[test]
fn window_opens_the_default_level_and_saves_a_screenshot() {
    if std::env::var_os("DISPLAY").is_none() {
        println!("skipped: no DISPLAY (run under xvfb-run, as .ci/run does)");
        return;
    }
    let dir = std::env::var("DOO_ARTIFACTS").map(std::path::PathBuf::from).unwrap_or_else(|_| std::env::temp_dir());
    std::fs::create_dir_all(&dir).unwrap();
    let shot = dir.join("window-default-level.png");
    let _ = std::fs::remove_file(&shot);
    let out = Command::new(env!("CARGO_BIN_EXE_doo"))
        .args(["play", "--screenshot"])
        .arg(&shot)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("WGPU_BACKEND", std::env::var("WGPU_BACKEND").unwrap_or_else(|_| "vulkan".into()))
        .output()
        .expect("start the game");
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "the game exited with {:?}:\n{log}", out.status);
    let meta = std::fs::metadata(&shot).unwrap_or_else(|_| panic!("no screenshot at {}:\n{log}", shot.display()));
    assert!(meta.len() > 10_000, "screenshot is suspiciously small ({} bytes)", meta.len());
    println!("screenshot: {}", shot.display());
}

/// Waits until `log` contains `needle` (the game writes its log there), up to `secs`.
fn wait_for(log: &std::path::Path, needle: &str, secs: u64) -> bool {
    let end = std::time::Instant::now() + std::time::Duration::from_secs(secs);
    while std::time::Instant::now() < end {
        if std::fs::read_to_string(log).unwrap_or_default().contains(needle) {
            return true;
        }
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    false
}

#[test]
fn hot_reload_keeps_a_broken_edit_out_and_applies_a_good_one() {
    if std::env::var_os("DISPLAY").is_none() {
        println!("skipped: no DISPLAY (run under xvfb-run, as .ci/run does)");
        return;
    }
    let dir = std::env::temp_dir().join(format!("doo-reload-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let level = dir.join("level.ron");
    let original = std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("levels/tutorial.ron")).unwrap();
    std::fs::write(&level, &original).unwrap();
    let log = dir.join("game.log");
    let mut child = Command::new(env!("CARGO_BIN_EXE_doo"))
        .args(["play"])
        .arg(&level)
        .args(["--frames", "100000"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("WGPU_BACKEND", std::env::var("WGPU_BACKEND").unwrap_or_else(|_| "vulkan".into()))
        .stdout(std::process::Stdio::null())
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .expect("start the game");
    assert!(wait_for(&log, "Creating new window", 60), "the window did not open");
    std::thread::sleep(std::time::Duration::from_secs(2));
    std::fs::write(&level, original.replace("\"#..........#\",", "\"#....X.....#\",")).unwrap();
    let broken = wait_for(&log, "level edit not applied", 30);
    let alive_after_broken = child.try_wait().map(|s| s.is_none()).unwrap_or(false);
    std::thread::sleep(std::time::Duration::from_secs(1));
    std::fs::write(&level, original.replace("Tutorial: the Goblin in the Cellar", "Tutorial, edited")).unwrap();
    let reloaded = wait_for(&log, "reloaded", 30);
    let alive = child.try_wait().map(|s| s.is_none()).unwrap_or(false);
    let _ = child.kill();
    let _ = child.wait();
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(broken, "a broken edit is reported:\n{text}");
    assert!(text.contains("level.ron:") && text.contains("unknown map character 'X'"), "with file:line:col:\n{text}");
    assert!(alive_after_broken && alive, "the game keeps running:\n{text}");
    assert!(reloaded, "a good edit is applied:\n{text}");
}

/// The last `layout` line of the game's log: window pixel of space (0,0) and pixels per space.
fn layout(log: &std::path::Path) -> Option<(f64, f64, f64)> {
    let text = std::fs::read_to_string(log).ok()?;
    let l: serde_json::Value = text.lines().rev().filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok()).find(|v| v["type"] == "layout")?;
    Some((l["origin"][0].as_f64()?, l["origin"][1].as_f64()?, l["space_px"].as_f64()?))
}

fn xdotool(args: &[&str]) -> bool {
    Command::new("xdotool").args(args).status().is_ok_and(|s| s.success())
}

fn has_xdotool() -> bool {
    Command::new("xdotool").arg("version").output().is_ok_and(|o| o.status.success())
}

/// End to end in the real window (R-FS-1, R-MOVE-1): xdotool clicks the hero, then a space two
/// to the east; the game's log must show the move, and a screenshot is kept.
#[test]
fn e2e_clicking_a_miniature_and_a_space_moves_it() {
    if std::env::var_os("DISPLAY").is_none() || !has_xdotool() {
        println!("skipped: needs DISPLAY and xdotool (run under xvfb-run, as .ci/run does)");
        return;
    }
    let dir =
        std::env::var("DOO_ARTIFACTS").map(std::path::PathBuf::from).unwrap_or_else(|_| std::env::temp_dir().join(format!("doo-e2e-{}", std::process::id())));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("e2e-game.jsonl");
    let stderr = dir.join("e2e-game.stderr");
    let shot = dir.join("e2e-after-move.png");
    let _ = std::fs::remove_file(&log);
    let _ = std::fs::remove_file(&shot);
    let mut child = Command::new(env!("CARGO_BIN_EXE_doo"))
        .args(["play", "tests/levels/window/e2e.ron", "--seed", "5", "--frames", "100000", "--log"])
        .arg(&log)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("WGPU_BACKEND", std::env::var("WGPU_BACKEND").unwrap_or_else(|_| "vulkan".into()))
        .env("DOO_SETTINGS", dir.join("e2e-settings.ron"))
        .stdout(std::process::Stdio::null())
        .stderr(std::fs::File::create(&stderr).unwrap())
        .spawn()
        .expect("start the game");
    let lunk_up = |t: &str| t.lines().any(|l| l.contains("\"event\":\"opportunity\"") && l.contains("\"actor\":\"lunk\""));
    let end = std::time::Instant::now() + std::time::Duration::from_secs(90);
    while !lunk_up(&std::fs::read_to_string(&log).unwrap_or_default()) && std::time::Instant::now() < end {
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    let ready = lunk_up(&std::fs::read_to_string(&log).unwrap_or_default());
    std::thread::sleep(std::time::Duration::from_secs(2));
    let (ox, oy, px) = layout(&log).unwrap_or((0.0, 0.0, 0.0));
    let at = |x: i32, y: i32| (format!("{}", (ox + x as f64 * px).round()), format!("{}", (oy + y as f64 * px).round()));
    let win = Command::new("xdotool")
        .args(["search", "--sync", "--name", "Dungeons of Olde"])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).lines().next().unwrap_or("").to_string())
        .unwrap_or_default();
    let (lx, ly) = at(2, 2);
    let (dx, dy) = at(4, 2);
    let clicked = !win.is_empty()
        && xdotool(&["mousemove", "--window", &win, &lx, &ly])
        && {
            std::thread::sleep(std::time::Duration::from_millis(400));
            xdotool(&["click", "1"])
        }
        && {
            std::thread::sleep(std::time::Duration::from_millis(400));
            xdotool(&["mousemove", "--window", &win, &dx, &dy])
        }
        && {
            std::thread::sleep(std::time::Duration::from_millis(600));
            xdotool(&["click", "1"])
        };
    let moved = wait_for(&log, "\"to\":[4,2]", 20);
    std::thread::sleep(std::time::Duration::from_millis(800));
    let shot_ok = Command::new("import").args(["-window", "root"]).arg(&shot).status().is_ok_and(|s| s.success());
    let alive = child.try_wait().map(|s| s.is_none()).unwrap_or(false);
    let _ = child.kill();
    let _ = child.wait();
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    let err = std::fs::read_to_string(&stderr).unwrap_or_default();
    assert!(ready, "Lunk never got an opportunity:\n{text}\n{err}");
    assert!(px > 0.0, "the game wrote no layout line:\n{text}");
    assert!(clicked, "xdotool could not click (window '{win}')");
    assert!(alive, "the game kept running:\n{err}");
    assert!(moved, "the click did not move Lunk to (4,2):\n{text}");
    let cmd = text.lines().filter(|l| l.contains("\"type\":\"command\"") && l.contains("\"lunk\"")).last().unwrap_or_default().to_string();
    assert!(cmd.contains("\"result\":\"ok\""), "the move command was accepted: {cmd}");
    assert!(shot_ok, "screenshot with imagemagick's import");
    println!("screenshot: {}", shot.display());
}
