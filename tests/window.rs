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
