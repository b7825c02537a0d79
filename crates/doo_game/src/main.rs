//! `doo-headless`: the `doo` commands that need no window (run, validate, simulate, ladder,
//! replay --verify, hero show, campaign run / simulate), built by `cargo test` without the render
//! stack. The tests and `.ci/run`'s script suites run it; players use `doo`, which has them all.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "doo-headless", version, about = "Dungeons of Olde without a window: scripts, simulations, saves, files")]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Replay saves headless; with --verify, compare every checkpoint (exit 1 naming the first
    /// command whose state differs, 2 when a save cannot be read).
    Replay(doo::commands::ReplayArgs),
    #[command(flatten)]
    Headless(doo::commands::HeadlessCmd),
}

fn main() -> ExitCode {
    // A panic anywhere writes the crash log (beside the saves) before the process exits.
    let cli: Cli = match doo::commands::start() {
        Ok(c) => c,
        Err(code) => return code,
    };
    match cli.command {
        Cmd::Replay(args) => doo::cli::replay(&args.saves, args.verify),
        Cmd::Headless(c) => doo::commands::run(c),
    }
}
