//! The window's own screens and HUD text, without a display: the level select's order, the Load
//! screen's list, the replay viewer, a hosted match's save, the hover card (moved here from the
//! headless suites, tests/it, when the window left `cargo test`'s build).

use crate::common::*;
use doo::game::intent::PlayerView;
use doo::headless::HeadlessMatch;
use doo_rules::data::RuleData;
use doo_rules::rules::Dice;
use std::path::{Path, PathBuf};

fn view(hm: &HeadlessMatch) -> PlayerView {
    hm.app.world().resource::<PlayerView>().clone()
}

#[test] // the Load screen's order: the autosave first, then the newest named slot; other files are not listed
fn the_load_list_puts_the_autosave_first_then_the_newest() {
    let dir = std::env::temp_dir().join(format!("doo-slots-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for (name, age_secs) in [("old.ron", 300), ("autosave.ron", 200), ("new.ron", 10), ("notes.txt", 0)] {
        let p = dir.join(name);
        std::fs::write(&p, "x").unwrap();
        let t = std::time::SystemTime::now() - std::time::Duration::from_secs(age_secs);
        std::fs::File::options().write(true).open(&p).unwrap().set_modified(t).unwrap();
    }
    let names: Vec<String> =
        doo_app::window::screens::load::list_saves(&dir).unwrap().iter().map(|p| p.file_name().unwrap().to_string_lossy().into_owned()).collect();
    assert_eq!(names, ["autosave.ron", "new.ron", "old.ron"]);
    assert_eq!(doo_app::window::screens::load::list_saves(&dir.join("missing")).unwrap().len(), 0, "no folder yet: no saves, no error");
}

#[test] // the replay viewer keeps the match after every command; its last frame is the saved match's state
fn the_viewer_keeps_every_moment_and_ends_where_the_save_ends() {
    let data = RuleData::load(root()).unwrap();
    let (save, hm) = play_until("levels/skirmish.ron", 4, 40);
    let checked = doo_rules::level_file::load(&root().join("levels/skirmish.ron"), &data, root()).unwrap();
    let mut dice = Dice::seeded(save.seed);
    dice.force(save.forced_dice.iter().copied());
    let origin = doo_rules::replay::Origin::new(checked.build(&data).unwrap(), dice);
    let mut v = doo_app::window::screens::viewer::ReplayViewer::build(&origin, &save).unwrap();
    assert_eq!(v.frames.len(), save.commands.len() + 1, "one frame before the first command and one after each");
    let last = v.frames.last().unwrap();
    let want = doo_rules::save::state_hash(hm.state(), &hm.app.world().resource::<doo::game::components::MatchDice>().0);
    assert_eq!(doo_rules::save::state_hash(&last.m, &last.dice), want, "the last frame is the match as saved");
    assert_eq!(last.log_len, hm.app.world().resource::<doo::game::log::MatchLog>().len(), "and its log is the whole log");
    // Turn jumps land on the first frame of a turn.
    let turns: Vec<u32> = v.frames.iter().map(|f| f.m.clock.turn).collect();
    assert!(turns.windows(2).all(|w| w[0] <= w[1]), "turns never go back");
    v.at = 0;
    let next = v.turn_start(1);
    assert!(next == v.last() || (turns[next] > turns[0] && turns[next - 1] == turns[0]), "next turn from the start: frame {next} of {turns:?}");
    v.at = next;
    assert_eq!(v.turn_start(-1), 0, "and back to the first turn");
    // The turn buttons: every turn once, in order, at its first frame.
    let starts = v.turn_starts();
    assert_eq!(starts.first(), Some(&(turns[0], 0)));
    for &(t, k) in &starts {
        assert_eq!(turns[k], t);
        assert!(k == 0 || turns[k - 1] < t, "turn {t} starts at frame {k}");
    }
    assert_eq!(starts.len(), turns.iter().collect::<std::collections::BTreeSet<_>>().len());
}

#[test] // the replay viewer names the sides as they were played: a human seat by its player, never "(AI)"
fn the_viewer_labels_sides_by_the_saves_seats() {
    let (mut save, _) = play_until("levels/skirmish.ron", 4, 2);
    save.watch = false;
    save.seats[0].ai = None;
    save.seats[0].player = "Ada".into();
    let seats = doo_app::window::screens::viewer::seats_of(&save);
    let first = save.seats[0].side.clone();
    assert_eq!(seats.player_of_figure("anyone", &first).map(String::as_str), Some("Ada"), "the human side is Ada's");
    for s in &save.seats[1..] {
        assert_eq!(seats.player_of_figure("anyone", &s.side), None, "{} was played by the AI", s.side);
    }
    save.watch = true;
    assert!(doo_app::window::screens::viewer::seats_of(&save).players.is_empty(), "a watched match had no human");
}

/// Issue 42: a hosted match's save remembers it was hosted (where it listened, which seats were
/// remote, who held them): Continue and Load (`MatchSetup::resume_file`) host it again there,
/// its remote seats waiting for their players; a seat since handed to the AI stays the AI's. A
/// save without `hosted` (every save written before it) loads as it did, played here. A bad
/// `hosted` is refused at its place.
#[test]
fn a_hosted_matchs_save_is_hosted_again_and_older_saves_still_load() {
    use doo_app::window::session::MatchSetup;
    let data = RuleData::load(root()).unwrap();
    let good = good_text();
    let old = MatchSetup::resume_file(&root().join(GOOD), &data).unwrap();
    assert!(!old.networked() && old.listen.is_none(), "a save of a match played here is played here");
    let hosted_text = |hosted: &str| {
        good.replace("(side: \"monsters\", player: \"\", ai: Some(normal)),", "(side: \"monsters\", player: \"Bob\", ai: None),")
            .replace("    ai_plan: Some((", &format!("    hosted: Some({hosted}),\n    ai_plan: Some(("))
    };
    let p = scratch("hosted.ron", hosted_text("(listen: \"0.0.0.0:5151\", remote: [\"monsters\"])").as_bytes());
    let setup = MatchSetup::resume_file(&p, &data).unwrap();
    assert!(setup.networked(), "hosted again");
    assert_eq!(setup.listen, Some("0.0.0.0:5151".parse().unwrap()));
    let monsters = setup.seats.iter().find(|s| s.side == "monsters").unwrap();
    assert!(monsters.remote && monsters.ai.is_none() && monsters.player == "Bob", "{monsters:?}");
    assert!(setup.seats.iter().filter(|s| s.side != "monsters").all(|s| !s.remote));
    // The save round-trips with it.
    let save = doo_rules::save::load(&p).unwrap();
    assert_eq!(doo_rules::save::parse("again.ron", &save.to_text()).unwrap().hosted, save.hosted);
    // A seat handed to the AI stays the AI's.
    let ai_text = hosted_text("(listen: \"0.0.0.0:5151\", remote: [\"monsters\"])").replace("player: \"Bob\", ai: None", "player: \"Bob\", ai: Some(hard)");
    let setup = MatchSetup::resume_file(&scratch("handed.ron", ai_text.as_bytes()), &data).unwrap();
    assert!(!setup.networked());
    let line = |t: &str| t.lines().position(|l| l.contains("hosted:")).unwrap() + 1;
    for (name, hosted, want) in [
        ("badlisten.ron", "(listen: \"my house\", remote: [\"monsters\"])", "'my house' is not an address and port to listen on"),
        ("badseat.ron", "(listen: \"0.0.0.0:5151\", remote: [\"dragons\"])", "the remote seat 'dragons' is not one of the save's seats"),
        ("noseat.ron", "(listen: \"0.0.0.0:5151\", remote: [])", "0 remote seats; a hosted match has 1 to 16"),
    ] {
        let text = hosted_text(hosted);
        let e = doo_rules::save::parse(name, &text).unwrap_err().to_string();
        assert!(e.starts_with(&format!("{name}:{}:5: ", line(&text))) && e.contains(want), "{e}");
    }
}

#[test] // issue 43: the level select lists the tutorial series (the default level first) in order, then the rest by file name
fn the_tutorial_is_first_in_the_level_select() {
    let mut files: Vec<PathBuf> =
        std::fs::read_dir(root().join("levels")).unwrap().map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|x| x == "ron")).collect();
    files.sort();
    assert_ne!(files[0].file_name().unwrap(), "tutorial_1_moving.ron", "by name alone it would not be first");
    doo_app::window::screens::levels::order_levels(&mut files);
    let names: Vec<&str> = files.iter().map(|p| p.file_name().unwrap().to_str().unwrap()).collect();
    assert_eq!(names[..3], ["tutorial_1_moving.ron", "tutorial_2_fighting.ron", "tutorial_3_crawl.ron"]);
    assert_eq!(Path::new(doo_app::window::DEFAULT_LEVEL).file_name(), files[0].file_name(), "the default level");
    let files = &files[2..];
    assert!(files[1..].windows(2).all(|w| w[0] < w[1]), "the rest by name: {files:?}");
}

// Issue 43, R-ATK-10: the card hovered over an enemy puts what an attack would do right under its
// name and HP (a small window cuts the card's foot), and a refusal every attack kind shares (out
// of reach) is said once, with its rule.
#[test]
fn the_card_puts_the_odds_first_and_a_shared_refusal_once() {
    let hm = mid(None, "()", room(10, 5), vec![lunk(0, 2), orc(8, 2)], "(characters: {\"lunk\": (ap: 3), \"orc\": (ap: 1)})", &[]);
    let m = hm.snapshot();
    let (a, t) = (m.index("lunk").unwrap(), m.index("orc").unwrap());
    let card = doo_app::window::hud::card(&m, t, Some(a), view(&hm).forecasts.get(&t));
    let at = |needle: &str| card.find(needle).unwrap_or_else(|| panic!("{needle:?} in {card}"));
    assert!(at("If Lunk attacks now:") < at("AP "), "the odds come before the stats:\n{card}");
    assert_eq!(card.matches("R-ATK-10").count(), 1, "one refusal, said once:\n{card}");
    assert!(card.contains("Not now:") && card.contains("out of reach"), "{card}");
    // In reach, each kind has its own line with its damage.
    let hm = mid(None, "()", room(10, 5), vec![lunk(0, 2), orc(1, 2)], "(characters: {\"lunk\": (ap: 3), \"orc\": (ap: 1)})", &[]);
    let m = hm.snapshot();
    let card = doo_app::window::hud::card(&m, t, Some(a), view(&hm).forecasts.get(&t));
    assert!(!card.contains("Not now:") && card.contains("% to hit,") && card.contains("damage (avg"), "{card}");
}
