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
