//! Issue 46 in the real window: a level event's choice put to the player (tests/levels/events/
//! choice.ron: "A bell hangs by the door. Ring it?") shows its prompt with one button an
//! option; the key 2 answers it ("Leave it"), the prompt goes and the log tells the choice.

use super::window::{artifacts, decode, game_window, grab, launch, pixel_difference, press, require_display, require_xdotool, xdotool};

fn sleep(ms: u64) {
    std::thread::sleep(std::time::Duration::from_millis(ms));
}

#[test]
#[ignore = "needs a display and xdotool: .ci/run runs it under Xvfb"]
fn e2e_a_level_events_choice_is_shown_and_answered_by_its_key() {
    require_display();
    require_xdotool();
    let dir = artifacts("event-choice");
    let (log, stderr) = (dir.join("choice.jsonl"), dir.join("choice.stderr"));
    let mut child = launch(
        &["play", "tests/levels/events/choice.ron", "--seed", "1", "--frames", "200000"],
        &log,
        &stderr,
        &dir.join("settings.ron"),
        Some(&dir.join("saves")),
    );
    let win = game_window();
    sleep(4000);
    let _ = xdotool(&["mousemove", "--window", &win, "5", "5"]);
    // The reset steps' panel skipped (R), so that only the choice is over the board.
    press(&win, "r", "skip the reset display", 600);
    let shot = |name: &str| {
        sleep(900);
        let p = dir.join(name);
        assert!(grab(&win, &p), "a screenshot of the match ({name})");
        decode(&p)
    };
    let asked = shot("choice-asked.png");
    press(&win, "2", "answer the choice: Leave it", 300);
    let answered = shot("choice-answered.png");
    let alive = child.try_wait().map(|s| s.is_none()).unwrap_or(false);
    let _ = child.kill();
    let _ = child.wait();
    let err = std::fs::read_to_string(&stderr).unwrap_or_default();
    assert!(alive, "the game kept running:\n{err}");
    // The prompt's panel (over the board's left part) is gone once answered.
    let panel =
        |img: &super::window::Image| -> Vec<[u8; 3]> { (150..300).flat_map(|y| (120..800).map(move |x| (x, y))).map(|(x, y)| img.px[y * img.w + x]).collect() };
    let d = pixel_difference(&panel(&asked), &panel(&answered));
    println!("prompt area difference {d:.2}; shots in {}", dir.display());
    assert!(d > 5.0, "the choice's panel went when it was answered (difference {d:.2})");
    let text = std::fs::read_to_string(&log).unwrap_or_default();
    let lines: Vec<serde_json::Value> = text.lines().filter_map(|l| serde_json::from_str(l).ok()).collect();
    let chose = lines.iter().any(|l| l["type"] == "command" && l["command"]["choose"]["option"] == 1 && l["result"] == "ok");
    assert!(chose, "the key 2 sent the answer 'Leave it' (option 1):\n{text}");
    assert!(text.contains("Lunk leaves the bell be."), "the option's actions were done:\n{text}");
}
