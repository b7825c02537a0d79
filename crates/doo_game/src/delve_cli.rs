//! `doo delve` (issue 47): a dungeon generated from a seed (`doo_rules::delve`), written as
//! level files and a campaign chaining them; each floor validated and proven solvable. The
//! arguments are shared with `doo delve simulate` (`delve_sim.rs`).

use clap::Args;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// What a delve is made of, on the command line (`doo delve` and `doo delve simulate`).
#[derive(Args, Clone, Debug)]
pub struct DelveArgs {
    /// The dungeon's seed (with `simulate`, the first of --seeds).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[arg(long, default_value_t = 3)]
    pub floors: u32,
    /// WIDTHxHEIGHT, each 24 to 96.
    #[arg(long, default_value = "64x64")]
    pub size: String,
    /// easy, normal or hard.
    #[arg(long, default_value = "normal")]
    pub difficulty: String,
    /// Hero ids of heroes/ (default: the four there).
    #[arg(long, num_args = 1..)]
    pub party: Vec<String>,
}

impl DelveArgs {
    /// The generator's parameters (the project folder: the current one), or a sentence saying
    /// which argument is wrong and what is expected. The ranges are checked by `generate`.
    pub fn params(&self) -> Result<doo_rules::delve::Params, String> {
        let mut p = doo_rules::delve::Params::new(self.seed, Path::new("."));
        p.floors = self.floors;
        let size = &self.size;
        let Some((w, h)) = size.split_once(['x', 'X']).and_then(|(w, h)| Some((w.trim().parse().ok()?, h.trim().parse().ok()?))) else {
            return Err(format!("--size {size}: expected WIDTHxHEIGHT, e.g. 64x64"));
        };
        (p.width, p.height) = (w, h);
        let Some(d) = doo_rules::delve::Difficulty::parse(&self.difficulty) else {
            return Err(format!("--difficulty {}: expected easy, normal or hard", self.difficulty));
        };
        p.difficulty = d;
        if !self.party.is_empty() {
            p.party = self.party.clone();
        }
        Ok(p)
    }
}

/// Writes the delve; prints each file written (exit 0), or why not (exit 2).
pub fn delve(args: &DelveArgs, out: Option<&PathBuf>) -> ExitCode {
    let Some(out) = out else {
        eprintln!("doo delve: --out DIR is needed (where the floors and the campaign are written); or `doo delve simulate` to play delves");
        return ExitCode::from(2);
    };
    let data = match crate::cli::rule_data() {
        Ok(d) => d,
        Err(code) => return code,
    };
    let p = match args.params() {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
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
