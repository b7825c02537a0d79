//! `doo delve` (issue 47): a dungeon generated from a seed (`doo_rules::delve`), written as
//! level files and a campaign chaining them; each floor validated and proven solvable.

use std::path::Path;
use std::process::ExitCode;

/// Writes the delve; prints each file written (exit 0), or why not (exit 2).
pub fn delve(seed: u64, floors: u32, size: &str, difficulty: &str, party: Vec<String>, out: &Path) -> ExitCode {
    let data = match crate::cli::rule_data() {
        Ok(d) => d,
        Err(code) => return code,
    };
    let mut p = doo_rules::delve::Params::new(seed, Path::new("."));
    p.floors = floors;
    let Some((w, h)) = size.split_once(['x', 'X']).and_then(|(w, h)| Some((w.trim().parse().ok()?, h.trim().parse().ok()?))) else {
        eprintln!("--size {size}: expected WIDTHxHEIGHT, e.g. 64x64");
        return ExitCode::from(2);
    };
    (p.width, p.height) = (w, h);
    let Some(d) = doo_rules::delve::Difficulty::parse(difficulty) else {
        eprintln!("--difficulty {difficulty}: expected easy, normal or hard");
        return ExitCode::from(2);
    };
    p.difficulty = d;
    if !party.is_empty() {
        p.party = party;
    }
    match doo_rules::delve::write_delve(&p, &data, out) {
        Ok(files) => {
            for f in &files {
                println!("{}", f.display());
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(2)
        }
    }
}
