//! The hostile corpus (issue 15): every file under `tests/hostile/`, written from the format
//! docs by someone who did not read the parser, goes through the real `doo validate` (levels)
//! or `doo run` (scripts). Each must end by itself with exit 0, 1 or 2 — never a crash, a hang
//! or a flood of output — and its first line must equal the one in `tests/hostile/expected.txt`.
//! Files that cannot live in git (a link to /dev/zero, a named pipe, a directory named `.ron`)
//! are made here. `DOO_BLESS=1 cargo test --test it hostile` rewrites the expected lines.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A run that takes longer than this is a hang (a speed goal lives in the benches, not here).
const HANG: Duration = Duration::from_secs(60);
/// More output than this is a flood.
const MAX_OUTPUT: usize = 64 * 1024;

struct Outcome {
    code: i32,
    first: String,
    bytes: usize,
    took: Duration,
}

fn run(args: &[&str]) -> Outcome {
    let dir = crate::common::root();
    let t = Instant::now();
    let mut child = Command::new(crate::common::doo_bin())
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run doo");
    let (mut out, mut err) = (child.stdout.take().unwrap(), child.stderr.take().unwrap());
    let reader = std::thread::spawn(move || {
        let mut o = Vec::new();
        let _ = out.read_to_end(&mut o);
        o
    });
    let ereader = std::thread::spawn(move || {
        let mut e = Vec::new();
        let _ = err.read_to_end(&mut e);
        e
    });
    let code = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s.code().unwrap_or(-1);
        }
        if t.elapsed() > HANG {
            let _ = child.kill();
            panic!("doo {args:?} still running after {HANG:?}: a hang");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let took = t.elapsed();
    let (o, e) = (reader.join().unwrap(), ereader.join().unwrap());
    let (o, e) = (String::from_utf8_lossy(&o).to_string(), String::from_utf8_lossy(&e).to_string());
    // validate: problems on stdout; run: the JSON lines on stdout, setup errors on stderr.
    let first = if args[0] == "validate" {
        o.lines().next().map_or_else(|| if code == 0 { "(valid)".to_string() } else { e.lines().next().unwrap_or("").to_string() }, str::to_string)
    } else if code == 0 || code == 1 {
        "(played)".to_string()
    } else {
        e.lines().next().unwrap_or("").to_string()
    };
    // The flood check counts problem output: all of `validate`'s, and `run`'s stderr (its JSON
    // lines on stdout grow with the commands a valid script holds, as they should).
    let bytes = if args[0] == "validate" { o.len() + e.len() } else { e.len() };
    Outcome { code, first, bytes, took }
}

/// The files of the corpus, and the ones made here.
fn cases(work: &Path) -> Vec<(String, Vec<String>)> {
    let corpus = crate::common::root().join("tests/hostile");
    let mut files: Vec<PathBuf> =
        std::fs::read_dir(&corpus).unwrap().map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|e| e == "ron")).collect();
    files.sort();
    let mut out = Vec::new();
    for p in files {
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        let verb = if name.contains("_script_") { "run" } else { "validate" };
        out.push((name.clone(), vec![verb.to_string(), format!("tests/hostile/{name}")]));
    }
    // Not storable in git: made fresh for each run.
    std::fs::create_dir_all(work).unwrap();
    let zero = work.join("zero.ron");
    let _ = std::fs::remove_file(&zero);
    std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
    let dir = work.join("dir.ron");
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = work.join("pipe.ron");
    let _ = std::fs::remove_file(&fifo);
    assert!(Command::new("mkfifo").arg(&fifo).status().expect("mkfifo").success());
    let script = work.join("script_names_pipe.ron");
    std::fs::write(&script, "Script(level: \"pipe.ron\", commands: [])\n").unwrap();
    let etc = work.join("script_names_passwd.ron");
    std::fs::write(&etc, "// a comment that says level: here\nScript(\n  level: \"/etc/passwd\",\n  commands: [],\n)\n").unwrap();
    std::fs::write(work.join("secret.ron"), "Secret words of a file that is not a level\n").unwrap();
    let secret = work.join("script_names_secret.ron");
    std::fs::write(&secret, "Script(level: \"secret.ron\", commands: [])\n").unwrap();
    for (name, verb, p) in [
        ("(made) link to /dev/zero", "validate", &zero),
        ("(made) directory named .ron", "validate", &dir),
        ("(made) named pipe", "validate", &fifo),
        ("(made) script whose level is a named pipe", "run", &script),
        ("(made) script whose level is /etc/passwd", "run", &etc),
        ("(made) script run on a link to /dev/zero", "run", &zero),
        ("(made) script whose level is a .ron that is not a level", "run", &secret),
    ] {
        out.push((name.to_string(), vec![verb.to_string(), p.display().to_string()]));
    }
    out
}

#[test] // issue 15: every hostile file gives its expected first line, by itself, without a flood
fn hostile_corpus() {
    let work = std::env::temp_dir().join(format!("doo-hostile-{}", std::process::id()));
    let expected_path = crate::common::root().join("tests/hostile/expected.txt");
    let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
    let mut actual = String::new();
    let mut bad = Vec::new();
    let mut slowest = (Duration::ZERO, String::new());
    let all = cases(&work);
    for (name, args) in &all {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = run(&args);
        assert!(matches!(o.code, 0..=2), "{name}: exit {} (a crash?): {}", o.code, o.first);
        assert!(o.bytes <= MAX_OUTPUT, "{name}: {} bytes of output", o.bytes);
        assert!(!o.first.contains("Secret"), "{name}: the content of a file that is not a level is never echoed");
        if o.took > slowest.0 {
            slowest = (o.took, name.clone());
        }
        let first = o.first.replace(&work.display().to_string(), "$WORK");
        let line = format!("{name}\texit {}\t{first}\n", o.code);
        if !expected.lines().any(|l| format!("{l}\n") == line) {
            bad.push(line.clone());
        }
        actual.push_str(&line);
    }
    eprintln!("hostile corpus: {} files, slowest {:?} ({})", all.len(), slowest.0, slowest.1);
    if std::env::var_os("DOO_BLESS").is_some() {
        std::fs::write(&expected_path, &actual).unwrap();
        return;
    }
    assert!(bad.is_empty(), "{} files differ from tests/hostile/expected.txt:\n{}", bad.len(), bad.concat());
    assert_eq!(actual.lines().count(), expected.lines().count(), "expected.txt lists other files");
}

#[test] // issue 44: 32 level events at the caps fire on one door opening: four are stopped by the budget, each said so in the log, and the command completes
fn level_events_at_the_budget_are_stopped_and_the_command_completes() {
    let dir = crate::common::root();
    let out = Command::new(crate::common::doo_bin())
        .args(["run", "tests/hostile/101_script_events_at_the_budget.ron"])
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .expect("run doo");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let stopped: Vec<&str> = stdout.lines().filter(|l| l.contains("is stopped")).collect();
    for (id, what, n, cap) in [
        ("reveal_again", "spaces revealed", 1_064_960, 1_048_576),
        ("give4", "items given", 65, 64),
        ("doors4", "doors set", 80, 64),
        ("spawn4", "figures spawned", 65, 64),
    ] {
        let line = format!("Level event '{id}' is stopped: it would bring this command's {what} to {n}, over the cap of {cap} (issue 44); it does not fire.");
        assert!(stopped.iter().any(|l| l.contains(&line)), "no line {line:?} in {stopped:#?}");
    }
    assert_eq!(stopped.len(), 4, "{stopped:#?}");
    // The command was accepted, and what fitted was done.
    let verdict = stdout.lines().find(|l| l.contains("\"type\":\"command\"")).expect("the command's verdict");
    assert!(verdict.contains("\"result\":\"ok\""), "{verdict}");
    assert!(stdout.contains("(level event 'spawn3')"), "band3 arrived");
    assert_eq!(stdout.matches("Hero gets Potion of Healing.").count(), 64);
}
