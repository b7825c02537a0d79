//! Network play (issue 32) on loopback: real processes (`doo host`, `doo join --ai`) over UDP on
//! 127.0.0.1. A seeded match played by two or three processes ends with the same state hash in
//! every process, at every checkpoint, and as the same seed ends offline; a client killed with
//! SIGKILL and started again rejoins and catches up; a host killed the same way restarts from
//! its autosave and its clients come back; a hostile client (garbage, a 10 MB message, a flood,
//! commands for the other side, out of turn) is refused and the match is unaffected.

use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A running `doo` process and the lines it printed so far.
struct Proc {
    child: Child,
    lines: Arc<Mutex<Vec<String>>>,
}

impl Proc {
    fn start(args: &[&str]) -> Proc {
        let mut child = Command::new(crate::common::doo_bin())
            .args(args)
            .current_dir(crate::common::root())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("run doo");
        let lines = Arc::new(Mutex::new(Vec::new()));
        let out = child.stdout.take().expect("stdout");
        let sink = lines.clone();
        std::thread::spawn(move || {
            for l in BufReader::new(out).lines().map_while(Result::ok) {
                sink.lock().unwrap().push(l);
            }
        });
        Proc { child, lines }
    }

    fn json(&self) -> Vec<Value> {
        self.lines.lock().unwrap().iter().filter_map(|l| serde_json::from_str(l).ok()).collect()
    }

    /// The port the host listens on (its first line).
    fn port(&self) -> u16 {
        let t = Instant::now();
        while t.elapsed() < Duration::from_secs(30) {
            if let Some(p) = self.json().iter().find(|v| v["type"] == "listening").and_then(|v| v["port"].as_u64()) {
                return p as u16;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!("the host never said where it listens: {:?}", self.lines.lock().unwrap());
    }

    /// Waits for the process to end (killed after `secs`); its summary line.
    fn summary(&mut self, secs: u64) -> Value {
        let t = Instant::now();
        while t.elapsed() < Duration::from_secs(secs) {
            if self.child.try_wait().ok().flatten().is_some() {
                break;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        std::thread::sleep(Duration::from_millis(100));
        self.json().into_iter().find(|v| v["type"] == "summary").unwrap_or_else(|| panic!("no summary: {:?}", self.lines.lock().unwrap()))
    }

    fn kill9(&mut self) {
        let _ = self.child.kill(); // SIGKILL on Unix
        let _ = self.child.wait();
    }
}

/// The state hash at the end of the same seed played offline, AI against AI (`doo simulate`).
fn offline_hash(level: &str, seed: u64) -> String {
    offline_hash_with(level, seed, &[])
}

/// `offline_hash` with more `doo simulate` options (`--profile P`).
fn offline_hash_with(level: &str, seed: u64, more: &[&str]) -> String {
    let dir = std::env::temp_dir().join(format!("doo-net-offline-{}-{seed}-{}", std::process::id(), more.join("-")));
    let out = Command::new(crate::common::doo_bin())
        .args(["simulate", level, "--seed", &seed.to_string(), "--save-dir", dir.to_str().unwrap()])
        .args(more)
        .current_dir(crate::common::root())
        .output()
        .expect("doo simulate");
    assert!(out.status.success());
    let save = std::fs::read_to_string(dir.join(format!("game-{seed}.ron"))).unwrap();
    let end = save.find("end:").expect("an end checkpoint");
    save[end + 4..].chars().take_while(|c| c.is_ascii_hexdigit()).collect()
}

fn join(port: u16, name: &str) -> Proc {
    Proc::start(&["join", &format!("127.0.0.1:{port}"), "--name", name, "--ai", "normal", "--timeout", "240"])
}

/// A port nobody uses now (the host restarts on it).
fn free_port() -> u16 {
    std::net::UdpSocket::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

fn assert_same_end(summaries: &[&Value], offline: &str) {
    for s in summaries {
        assert_eq!(s["desyncs"], serde_json::json!([]), "{s}");
        assert_eq!(s["final_hash"], offline, "every process ends as the same seed ends offline: {s}");
    }
    for s in summaries.iter().filter(|s| s["role"] == "client") {
        assert!(s["checkpoints_compared"].as_u64() > Some(3), "{s}");
        assert_eq!(s["checkpoints_compared"], s["checkpoints_matched"], "{s}");
    }
}

#[test] // issue 32: three processes (host, two AI clients) and two (host with an AI seat, one client) end as offline
fn seeded_matches_over_loopback_end_as_they_end_offline() {
    // Three processes: both seats remote.
    let mut host = Proc::start(&["host", "levels/arena.ron", "--port", "0", "--bind", "127.0.0.1", "--seed", "3", "--timeout", "240"]);
    let port = host.port();
    let (mut a, mut b) = (join(port, "alice"), join(port, "bob"));
    let (h, a, b) = (host.summary(240), a.summary(240), b.summary(240));
    assert_same_end(&[&h, &a, &b], &offline_hash("levels/arena.ron", 3));
    assert_ne!(a["sides"], b["sides"], "each holds a seat of its own");
    // Two processes: the monsters are the host's AI.
    let mut host =
        Proc::start(&["host", "levels/tutorial.ron", "--port", "0", "--bind", "127.0.0.1", "--seed", "5", "--seat", "monsters=ai", "--timeout", "240"]);
    let port = host.port();
    let mut c = join(port, "carol");
    let (h, c) = (host.summary(240), c.summary(240));
    assert_eq!(c["sides"], serde_json::json!(["heroes"]));
    assert_same_end(&[&h, &c], &offline_hash("levels/tutorial.ron", 5));
}

#[test] // issue 32: rules the host picked (a profile other than the level's own) reach the client: the match ends as the same seed ends offline under them, and not as under the level's own
fn rules_picked_by_the_host_are_played_by_its_clients() {
    let mut host = Proc::start(&[
        "host",
        "levels/arena.ron",
        "--port",
        "0",
        "--bind",
        "127.0.0.1",
        "--seed",
        "3",
        "--seat",
        "heroes=ai",
        "--profile",
        "DOO-2017",
        "--timeout",
        "240",
    ]);
    let port = host.port();
    let mut c = join(port, "carol");
    let (h, c) = (host.summary(240), c.summary(240));
    let picked = offline_hash_with("levels/arena.ron", 3, &["--profile", "DOO-2017"]);
    assert_ne!(picked, offline_hash("levels/arena.ron", 3), "the two rulesets play this seed differently (else the test proves nothing)");
    assert_same_end(&[&h, &c], &picked);
}

#[test] // issue 32: a remote seat nobody answers for goes to the host's AI after the host's timeout (--hand-over); the match ends as offline
fn an_unanswered_seat_goes_to_the_ai() {
    let mut host = Proc::start(&["host", "levels/arena.ron", "--port", "0", "--bind", "127.0.0.1", "--seed", "3", "--hand-over", "1", "--timeout", "240"]);
    let port = host.port();
    let mut a = join(port, "alice");
    let (h, a) = (host.summary(240), a.summary(240));
    let notes: Vec<String> = host.json().iter().filter_map(|v| v["note"].as_str().map(str::to_string)).collect();
    assert!(notes.iter().any(|n| n == "no answer for monsters in 1 s: the seat goes to the AI"), "{notes:?}");
    assert_same_end(&[&h, &a], &offline_hash("levels/arena.ron", 3));
}

#[test] // issue 44 (a match option, no rule id): the host's turn limit reaches its clients: a stalemate (arena, seed 30) is drawn when turn 3 is over in every process, with the same final state and every checkpoint matched
fn a_hosts_turn_limit_draws_the_match_on_every_peer() {
    let mut host = Proc::start(&["host", "levels/arena.ron", "--port", "0", "--bind", "127.0.0.1", "--seed", "30", "--turn-limit", "3", "--timeout", "240"]);
    let port = host.port();
    let (mut a, mut b) = (join(port, "alice"), join(port, "bob"));
    let (h, a, b) = (host.summary(240), a.summary(240), b.summary(240));
    for s in [&h, &a, &b] {
        assert_eq!(s["winner"], Value::Null, "a draw: {s}");
        assert_eq!(s["reason"], "the turn limit (3 turns) is reached: a draw", "{s}");
        assert_eq!(s["desyncs"], serde_json::json!([]), "{s}");
        assert_eq!(s["final_hash"], h["final_hash"], "every process ends in the host's state: {s}");
        assert_eq!(s["commands"], h["commands"], "{s}");
    }
    for s in [&a, &b] {
        // A checkpoint at the start of turns 1 to 3 and at the end.
        assert!(s["checkpoints_compared"].as_u64() >= Some(4), "{s}");
        assert_eq!(s["checkpoints_compared"], s["checkpoints_matched"], "{s}");
    }
}

/// Waits until the autosave holds at least `n` commands.
fn wait_for_commands(autosave: &Path, n: usize, secs: u64) {
    let t = Instant::now();
    while t.elapsed() < Duration::from_secs(secs) {
        let text = std::fs::read_to_string(autosave).unwrap_or_default();
        let count = doo_rules::data::parse_ron::<doo_rules::save::Save>("autosave", &text).map_or(0, |s| s.commands.len());
        if count >= n {
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("the autosave never reached {n} commands");
}

#[test] // issue 32: kill -9 a client mid-match, start it again: it rejoins and catches up; the match ends as offline
fn a_killed_client_rejoins_and_catches_up() {
    let mut host = Proc::start(&["host", "levels/arena.ron", "--port", "0", "--bind", "127.0.0.1", "--seed", "3", "--timeout", "240"]);
    let p = host.port();
    let (mut a, mut b) = (join(p, "alice"), join(p, "bob"));
    // Until some commands are played (the host's notes say nothing of them: wait on time).
    std::thread::sleep(Duration::from_millis(1500));
    b.kill9();
    let mut b = join(p, "bob");
    let (h, a, b) = (host.summary(240), a.summary(240), b.summary(240));
    let notes: Vec<String> = host.json().iter().filter_map(|v| v["note"].as_str().map(str::to_string)).collect();
    assert!(notes.iter().filter(|n| n.starts_with("bob joined")).count() == 2, "bob came back: {notes:?}");
    assert_same_end(&[&h, &a, &b], &offline_hash("levels/arena.ron", 3));
}

#[test] // issue 32: kill -9 a client mid-match, start it again: it rejoins; kill -9 the host: it restarts from its autosave; the match ends as offline
fn a_killed_client_rejoins_and_a_killed_host_restarts_from_its_autosave() {
    let dir: PathBuf = std::env::temp_dir().join(format!("doo-net-kill-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let autosave = dir.join("host.ron");
    let _ = std::fs::remove_file(&autosave);
    let port = free_port().to_string();
    let auto = autosave.to_str().unwrap();
    let mut host = Proc::start(&["host", "levels/arena.ron", "--port", &port, "--bind", "127.0.0.1", "--seed", "3", "--autosave", auto, "--timeout", "240"]);
    let p = host.port();
    let (mut a, mut b) = (join(p, "alice"), join(p, "bob"));
    wait_for_commands(&autosave, 60, 120);
    b.kill9();
    let mut b = join(p, "bob");
    wait_for_commands(&autosave, 180, 120);
    host.kill9();
    let mut host = Proc::start(&["host", "--resume", auto, "--port", &port, "--bind", "127.0.0.1", "--autosave", auto, "--timeout", "240"]);
    let resumed = host.port();
    assert_eq!(resumed.to_string(), port);
    let (h, a, b) = (host.summary(240), a.summary(240), b.summary(240));
    let notes: Vec<String> = host.json().iter().filter_map(|v| v["note"].as_str().map(str::to_string)).collect();
    assert!(
        notes.iter().any(|n| n.starts_with("alice joined")) && notes.iter().any(|n| n.starts_with("bob joined")),
        "both came back to the restarted host: {notes:?}"
    );
    assert_same_end(&[&h, &a, &b], &offline_hash("levels/arena.ron", 3));
}

/// An in-process client that misbehaves: it connects, then sends what the test says.
struct Hostile {
    app: bevy::prelude::App,
}

impl Hostile {
    fn connect(port: u16) -> Hostile {
        let mut app = doo::headless::headless_app();
        app.add_plugins(doo_app::net::plugin);
        app.finish();
        doo_app::net::transport::connect(app.world_mut(), format!("127.0.0.1:{port}").parse().unwrap(), doo_app::net::transport::fresh_id()).unwrap();
        let mut h = Hostile { app };
        let t = Instant::now();
        while t.elapsed() < Duration::from_secs(20) {
            h.app.update();
            if *h.app.world().resource::<bevy::prelude::State<bevy_replicon::prelude::ClientState>>().get() == bevy_replicon::prelude::ClientState::Connected {
                return h;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        panic!("the hostile client never connected");
    }

    fn send(&mut self, m: doo_app::net::protocol::ClientMsg) {
        self.app.world_mut().write_message(m);
        self.app.update();
    }

    /// Raw bytes on each of the transport's client channels (not a message of the protocol at
    /// all; one of them is the channel of the protocol's messages).
    fn raw(&mut self, bytes: Vec<u8>) {
        let channels = self.app.world().resource::<bevy_replicon::prelude::RepliconChannels>().client_channels().len();
        if let Some(mut c) = self.app.world_mut().get_resource_mut::<bevy_replicon_renet::RenetClient>() {
            for k in 0..channels {
                c.send_message(k as u8, bytes.clone());
            }
        }
        self.app.update();
    }

    fn run(&mut self, ms: u64) {
        let t = Instant::now();
        while t.elapsed() < Duration::from_millis(ms) {
            self.app.update();
            std::thread::sleep(Duration::from_millis(2));
        }
    }
}

#[test] // issue 32: garbage, a 10 MB message, 1 000 commands a second, commands for the other side and out of turn: refused, logged; the match ends as offline
fn a_hostile_client_is_refused_and_the_match_is_unaffected() {
    use doo_app::net::protocol::{ClientMsg, VERSION, WireCommand};
    use doo_rules::rules::Command as Cmd;
    // The heroes are the host's AI; the monsters' seat is remote and the honest client holds
    // it; the hostile one joins after it (no seat left: it watches) and misbehaves.
    let mut host = Proc::start(&["host", "levels/arena.ron", "--port", "0", "--bind", "127.0.0.1", "--seed", "3", "--seat", "heroes=ai", "--timeout", "240"]);
    let port = host.port();
    let mut honest = join(port, "bob");
    std::thread::sleep(Duration::from_millis(500));
    let mut evil = Hostile::connect(port);
    // Before hello; a bad name; then a name (no seat left: it watches).
    evil.send(ClientMsg::Play(WireCommand(Cmd::End { actor: "goblin_n".into() })));
    let mut bad = Hostile::connect(port);
    bad.send(ClientMsg::Hello { name: "\u{7}bell".into(), version: VERSION });
    evil.send(ClientMsg::Hello { name: "mallory".into(), version: VERSION });
    evil.run(300);
    // A flood: 1 000 commands in well under a second, for a figure of the other side and of
    // the honest player's side.
    for k in 0..1000 {
        let actor = if k % 2 == 0 { "tobin" } else { "goblin_n" };
        evil.app.world_mut().write_message(ClientMsg::Play(WireCommand(Cmd::End { actor: actor.into() })));
        if k % 100 == 0 {
            evil.app.update();
        }
    }
    evil.run(500);
    // Garbage bytes and a 10 MB message on the transport.
    evil.raw(vec![0xff; 64]);
    evil.raw(vec![0x01; 10 * 1024 * 1024]);
    evil.run(1000);
    let (h, b) = (host.summary(240), honest.summary(240));
    let notes: Vec<String> = host.json().iter().filter_map(|v| v["note"].as_str().map(str::to_string)).collect();
    assert!(notes.iter().any(|n| n.contains("a command before hello")), "{notes:?}");
    assert!(notes.iter().any(|n| n.contains("control characters")), "{notes:?}");
    assert!(notes.iter().any(|n| n.contains("mallory does not hold the seat")), "{notes:?}");
    assert!(notes.iter().any(|n| n.contains("more than 100 messages a second")), "{notes:?}");
    assert!(notes.iter().any(|n| n.contains("did not decode")), "the garbage is dropped and logged: {notes:?}");
    assert_same_end(&[&h, &b], &offline_hash("levels/arena.ron", 3));
}

/// Issue 42: `doo net-bench` holds itself to its own goals: a round trip's p99 over the goal
/// (here an impossible 0 ms) is a failure, exit 1, and it says which goal it missed.
#[test]
fn net_bench_exits_non_zero_when_it_misses_its_goal() {
    let out = Command::new(crate::common::doo_bin())
        .args(["net-bench", "--matches", "1", "--p99-goal-ms", "0", "--timeout", "200"])
        .current_dir(crate::common::root())
        .output()
        .expect("doo net-bench");
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("p99 ≤ 0 ms"), "the goal column shows the goal:\n{stdout}");
    assert_eq!(out.status.code(), Some(1), "a missed goal fails the bench:\n{stdout}\n{stderr}");
    assert!(stderr.contains("net-bench missed its goal: the round trip's p99 is"), "{stderr}");
    // Each goal, met and missed (the 50-match run of the README meets them all).
    use doo_app::net::bench::{Outcome, P99_GOAL, missed_goals};
    let met = Outcome { matches: 2, ended: 2, rtt_samples: 10, rtt_p99: Duration::from_millis(20), desyncs: 0, unequal_finals: 0 };
    assert_eq!(missed_goals(&met, P99_GOAL), Vec::<String>::new());
    assert_eq!(missed_goals(&Outcome { rtt_p99: Duration::from_millis(251), ..met.clone() }, P99_GOAL).len(), 1);
    assert_eq!(missed_goals(&Outcome { rtt_samples: 0, ..met.clone() }, P99_GOAL), vec!["no command's round trip was measured".to_string()]);
    assert_eq!(missed_goals(&Outcome { ended: 1, desyncs: 1, unequal_finals: 1, ..met }, P99_GOAL).len(), 3);
}

/// Issue 42: the host's banner. A player who dropped is named, and his seat waits for him (not
/// "nobody has joined yet"); the address to give a friend is never 0.0.0.0 (this computer's
/// network address when it listens on every address, else only the port is told).
#[test]
fn the_host_banner_names_who_dropped_and_never_shows_0_0_0_0() {
    use doo_app::net::host::{NetHost, Peer};
    use doo_app::net::protocol::{Seat, SeatKind};
    use doo_app::window::net::{Hosting, status_line};
    let seats = vec![
        Seat { side: "heroes".into(), who: SeatKind::Host("Hank".into()) },
        Seat { side: "monsters".into(), who: SeatKind::Remote("Bob".into()) },
        Seat { side: "wolves".into(), who: SeatKind::Remote(String::new()) },
    ];
    let mut world = bevy::prelude::World::new();
    world.insert_resource(NetHost::new("arena.ron".into(), String::new(), 1, seats, Default::default()));
    world.insert_resource(Hosting { addr: "0.0.0.0:5000".parse().unwrap(), lan: Some("192.168.1.20".parse().unwrap()) });
    let line = status_line(&world).unwrap();
    assert_eq!(line, "Hosting at 192.168.1.20:5000: Bob dropped, his seat (monsters) waits for him");
    // Bob is back (a connection that said hello as Bob).
    let e = world.spawn_empty().id();
    world.resource_mut::<NetHost>().peers.insert(e, Peer::joined("Bob", vec!["monsters".into()]));
    assert_eq!(status_line(&world).unwrap(), "Hosting at 192.168.1.20:5000: Bob (monsters)");
    // No network address found: the port, and never 0.0.0.0.
    world.insert_resource(Hosting { addr: "0.0.0.0:5000".parse().unwrap(), lan: None });
    let line = status_line(&world).unwrap();
    assert!(!line.contains("0.0.0.0") && line.starts_with("Hosting on port 5000 ("), "{line}");
    // Listening on one address: that address.
    world.insert_resource(Hosting { addr: "127.0.0.1:5151".parse().unwrap(), lan: Some("192.168.1.20".parse().unwrap()) });
    assert!(status_line(&world).unwrap().starts_with("Hosting at 127.0.0.1:5151: "));
    // Nobody came yet.
    world.resource_mut::<NetHost>().peers.clear();
    world.resource_mut::<NetHost>().seats.retain(|s| s.side != "monsters");
    assert!(status_line(&world).unwrap().ends_with(": nobody has joined yet"));
    // Where to listen, as typed on the Host screen and with `--listen`.
    use doo_app::net::transport::parse_listen;
    assert_eq!(parse_listen("192.168.1.20:6000", 5000), Ok("192.168.1.20:6000".parse().unwrap()));
    assert_eq!(parse_listen(" 6000 ", 5000), Ok("0.0.0.0:6000".parse().unwrap()));
    assert_eq!(parse_listen("127.0.0.1", 5000), Ok("127.0.0.1:5000".parse().unwrap()));
    assert_eq!(parse_listen("[::]:7000", 5000), Ok("[::]:7000".parse().unwrap()));
    assert!(parse_listen("my house", 5000).unwrap_err().contains("'my house' is not an address and port to listen on"));
}

/// A game window (`doo play ARGS --headless`: every plugin of the window but the OS window and
/// the renderer) with its saves and settings in `dir`, its stderr in `dir/<tag>.stderr`.
fn window(dir: &Path, tag: &str, args: &[&str]) -> Child {
    Command::new(crate::common::doo_bin())
        .args(args)
        .args(["--headless", "--frames", "190000"])
        .env("DOO_SAVE_DIR", dir.join("saves"))
        .env("DOO_SETTINGS", dir.join("settings.ron"))
        .current_dir(crate::common::root())
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(dir.join(format!("{tag}.stderr"))).unwrap())
        .spawn()
        .expect("doo play --headless")
}

fn fresh_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("doo-net-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("saves")).unwrap();
    dir
}

/// Issue 42: a client of a match hosted from the window hears the host's player by name
/// ("waiting for Hank"), not "the host". The window hosts on the address chosen with
/// `--listen`; Hank's heroes wait for him; Bob (an in-process client, his seat played by his AI)
/// is told whom the match waits for.
#[test]
fn clients_of_a_window_host_wait_for_the_host_by_name() {
    let dir = fresh_dir("hank");
    let port = free_port();
    let listen = format!("127.0.0.1:{port}");
    let mut host = window(&dir, "host", &["play", "levels/arena.ron", "--host", "--name", "Hank", "--seed", "3", "--listen", &listen]);
    let data = std::sync::Arc::new(doo_rules::data::RuleData::load(crate::common::root()).unwrap());
    let mut app = doo::headless::headless_app();
    app.add_plugins(doo_app::net::plugin);
    app.finish();
    let client = doo_app::net::client::NetClient::new("Bob".into(), data, Some(doo_rules::ai::Difficulty::Normal));
    doo_app::net::client::join(app.world_mut(), listen.parse().unwrap(), client).unwrap();
    let t = Instant::now();
    let mut heard = Vec::new();
    while t.elapsed() < Duration::from_secs(90) {
        app.update();
        let w = app.world().resource::<doo_app::net::client::NetClient>().waiting_for.clone();
        if heard.last() != Some(&w) {
            heard.push(w.clone());
        }
        if w == "Hank" {
            break;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let _ = host.kill();
    let _ = host.wait();
    let c = app.world().resource::<doo_app::net::client::NetClient>();
    assert!(c.welcomed, "the window's host welcomed Bob: {:?}\n{}", c.log, std::fs::read_to_string(dir.join("host.stderr")).unwrap_or_default());
    assert_eq!(c.waiting_for, "Hank", "whom Bob heard the match waits for: {heard:?}");
}

/// The end checkpoint's hash of a save, once it has one.
fn end_hash(save: &Path, secs: u64) -> Option<String> {
    let t = Instant::now();
    while t.elapsed() < Duration::from_secs(secs) {
        let text = std::fs::read_to_string(save).unwrap_or_default();
        if let Ok(s) = doo_rules::data::parse_ron::<doo_rules::save::Save>("autosave", &text) {
            if let Some(c) = s.checkpoints.iter().find(|c| c.hash.starts_with("end:")) {
                return Some(c.hash[4..].to_string());
            }
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    None
}

/// Issue 42: a host window killed mid-match (SIGKILL) hosts the match again from its autosave.
/// The window (`--host --watch`: this computer's seat played by its AI, the monsters' remote)
/// listens where `--listen` says; Bob joins with `doo join`. The autosave remembers the match
/// was hosted (where, which seat, Bob's name); the window is killed; a new one goes on with the
/// autosave as Continue does (`doo play --resume`, the path of Continue and Load: it is given
/// neither `--host` nor `--listen`): it listens there again, Bob rejoins by himself, and the
/// match ends alike in both, every checkpoint compared.
#[test]
fn a_killed_host_window_hosts_again_from_its_autosave() {
    let dir = fresh_dir("window-kill");
    let port = free_port();
    let listen = format!("127.0.0.1:{port}");
    let autosave = dir.join("saves").join("autosave.ron");
    let mut host = window(&dir, "host", &["play", "levels/arena.ron", "--host", "--name", "Hank", "--seed", "3", "--watch", "--listen", &listen]);
    let mut bob = Proc::start(&["join", &listen, "--name", "Bob", "--ai", "normal", "--timeout", "300"]);
    wait_for_commands(&autosave, 40, 150);
    let _ = host.kill(); // SIGKILL
    let _ = host.wait();
    let save = doo_rules::save::load(&autosave).unwrap();
    let hosted = save.hosted.clone().expect("the autosave says the match was hosted");
    assert_eq!((hosted.listen.as_str(), hosted.remote.clone()), (listen.as_str(), vec!["monsters".to_string()]));
    assert!(save.seats.iter().any(|s| s.side == "monsters" && s.player == "Bob" && s.ai.is_none()), "{:?}", save.seats);
    let killed_at = save.commands.len();
    let mut again = window(&dir, "again", &["play", "--resume", "--watch"]);
    let b = bob.summary(300);
    let end = end_hash(&autosave, 30);
    let _ = again.kill();
    let _ = again.wait();
    let notes: Vec<String> = bob.json().iter().filter_map(|v| v["note"].as_str().map(str::to_string)).collect();
    let err = std::fs::read_to_string(dir.join("again.stderr")).unwrap_or_default();
    assert!(notes.iter().any(|n| n == "the host is gone: connecting again"), "Bob lost the killed host: {notes:?}");
    assert_eq!(b["desyncs"], serde_json::json!([]), "{b}");
    assert!(b["checkpoints_compared"].as_u64() > Some(3) && b["checkpoints_compared"] == b["checkpoints_matched"], "{b}");
    assert!(b["commands"].as_u64() > Some(killed_at as u64), "the match went on past the kill: {b}");
    assert_eq!(end.as_deref(), b["final_hash"].as_str(), "the window that hosted again and Bob end alike: {b}\n{err}");
}

/// Issue 42: the Host screen (the seats screen of a hosted match) chooses where the match
/// listens. Its Listen on field starts at every address, port 5000; an address that cannot be
/// read is said there and the match waits; a good one is the match's (`MatchSetup::listen`,
/// where `doo play --listen` puts it too: the window tests above host there). The window's own
/// app without a display (`headless_ui_app`), its Start button's message sent; it stops before
/// the match begins (no autosave written outside the test's folders).
#[test]
fn the_host_screen_chooses_where_the_match_listens() {
    use bevy::prelude::{NextState, State};
    use doo_app::window::screens::Screen;
    use doo_app::window::screens::setup::{ListenField, SetupAct, WantHost};
    let opts = doo_app::window::WindowOptions { menu: true, seed: Some(3), ..Default::default() };
    let mut app = doo_app::window::headless_ui_app(Some("levels/arena.ron".into()), opts).expect("the window's app");
    let run = |app: &mut bevy::prelude::App, n: usize| (0..n).for_each(|_| app.update());
    run(&mut app, 5);
    app.world_mut().insert_resource(WantHost);
    app.world_mut().resource_mut::<NextState<Screen>>().set(Screen::Setup);
    run(&mut app, 5);
    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Setup);
    assert_eq!(app.world().resource::<ListenField>().text, "0.0.0.0:5000");
    app.world_mut().resource_mut::<ListenField>().text = "my house".into();
    app.world_mut().write_message(SetupAct::Start);
    run(&mut app, 3);
    assert_eq!(*app.world().resource::<State<Screen>>().get(), Screen::Setup, "a bad address: the match waits");
    let problem = app.world().resource::<ListenField>().problem.clone().unwrap_or_default();
    assert!(problem.contains("'my house' is not an address and port to listen on"), "{problem}");
    app.world_mut().resource_mut::<ListenField>().text = "127.0.0.1:6123".into();
    app.world_mut().write_message(SetupAct::Start);
    run(&mut app, 1);
    let setup = app.world().resource::<doo_app::window::session::MatchSetup>();
    assert!(setup.networked(), "a remote seat: hosted");
    assert_eq!(setup.listen, Some("127.0.0.1:6123".parse().unwrap()));
    assert!(matches!(app.world().resource::<NextState<Screen>>(), NextState::Pending(Screen::Match)), "the match starts");
}
