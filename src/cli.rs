//! Command-line tools that need no window: `run` plays a script and prints JSON lines.

use crate::headless::run_script;
use crate::level::RuleData;
use crate::script;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

/// `doo run <script> [--check]`: exit 0 when played (and checks pass), 1 on failed checks,
/// 2 when the script cannot be read or set up.
pub fn run(path: &Path, check: bool) -> ExitCode {
    let (s, level) = match script::load(path) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let data = match RuleData::load(Path::new(".")) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let lines = match run_script(&data, &s, level.as_ref()) {
        Ok(l) => l,
        Err(errs) => {
            let text = std::fs::read_to_string(path).unwrap_or_default();
            for e in errs {
                let (line, col) = script::locate_message(&text, &e);
                eprintln!("{}:{line}:{col}: {e}", path.display());
            }
            return ExitCode::from(2);
        }
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for l in &lines {
        let _ = writeln!(out, "{l}");
    }
    if check {
        if let Some(exp) = &s.expect {
            let bad = script::check(exp, &lines);
            for b in &bad {
                eprintln!("{}: check failed: {b}", path.display());
            }
            if !bad.is_empty() {
                return ExitCode::from(1);
            }
        }
    }
    ExitCode::SUCCESS
}

/// `doo validate <file.ron>…`: every problem of every file as `file:line:col: message`; exit 0
/// when all are valid, 1 when any is not.
pub fn validate(paths: &[std::path::PathBuf]) -> ExitCode {
    let data = match RuleData::load(Path::new(".")) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let mut bad = 0;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for p in paths {
        let root = crate::level_file::project_root(p);
        match crate::level_file::load(p, &data, &root) {
            Ok(_) => {}
            Err(errs) => {
                bad += 1;
                for e in errs {
                    let _ = writeln!(out, "{}:{}:{}: {}", p.display(), e.line, e.col, e.message);
                }
            }
        }
    }
    eprintln!("{} valid, {} invalid", paths.len() - bad, bad);
    if bad == 0 { ExitCode::SUCCESS } else { ExitCode::from(1) }
}
