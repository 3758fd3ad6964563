//! `kaboom-demo`: plays one game per variant against an in-process fake Discord (no token,
//! no network beyond 127.0.0.1). `kaboom demo` runs this program with the same arguments.

use std::process::ExitCode;

use clap::Parser;
use kaboom_rules::Variant;

/// Play one game per variant against an in-process fake Discord (no token, no network
/// beyond 127.0.0.1); writes board images and transcripts to DIR.
#[derive(Parser)]
#[command(name = "kaboom demo", version, about)]
struct Args {
    /// Output directory (board images, transcripts, the SQLite database). A re-run
    /// replaces the database and the folders of the variants it plays.
    #[arg(long, default_value = "kaboom-demo")]
    out: std::path::PathBuf,
    /// Play only this variant's game (atomic, beirut, nuke, bomberman or bombalot);
    /// repeat for several. Default: every variant.
    #[arg(long = "variant", value_name = "VARIANT")]
    variants: Vec<Variant>,
}

fn main() -> ExitCode {
    let args = Args::parse();
    match kaboom_testkit::demo::cli(&args.out, &args.variants) {
        Ok(report) => match report.failure() {
            None => ExitCode::SUCCESS,
            Some(why) => {
                eprintln!("kaboom demo: {why}");
                ExitCode::FAILURE
            }
        },
        Err(e) => {
            eprintln!("kaboom demo: {e}");
            ExitCode::FAILURE
        }
    }
}
