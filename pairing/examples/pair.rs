//! Pairs the next round of a TRF-16 file and prints it in the `-p` format of bbpPairings and
//! JaVaFo, for `scripts/compare-pairings.sh`.
//!
//! ```text
//! cargo run --release -p kaboom-pairing --example pair -- --dutch2016 tournament.trf
//! cargo run --release -p kaboom-pairing --example pair -- --dutch tournament.trf
//! cargo run --release -p kaboom-pairing --example pair -- --berger tournament.trf
//! ```
//!
//! Exit status: 0 with the pairings on stdout; 1 if no pairing exists; 2 for bad arguments
//! or an unreadable or malformed file (message on stderr).

use std::process::ExitCode;

use kaboom_pairing::{PairError, System, pair_trf};

fn main() -> ExitCode {
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    let mut system = None;
    let mut path = None;
    for argument in &arguments {
        match argument.as_str() {
            "--dutch2016" => system = Some(System::Dutch2016),
            "--dutch" => system = Some(System::Dutch),
            "--berger" => system = Some(System::Berger),
            "--double-berger" => system = Some(System::DoubleBerger),
            other => path = Some(other.to_owned()),
        }
    }
    let (Some(system), Some(path)) = (system, path) else {
        eprintln!("usage: pair (--dutch2016 | --dutch | --berger | --double-berger) FILE.trf");
        return ExitCode::from(2);
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(error) => {
            eprintln!("{path}: {error}");
            return ExitCode::from(2);
        }
    };
    match pair_trf(&text, system) {
        Ok(pairings) => {
            print!("{pairings}");
            ExitCode::SUCCESS
        }
        Err(error @ (PairError::Dutch(_) | PairError::Berger(_))) => {
            eprintln!("{path}: {error}");
            ExitCode::from(1)
        }
        Err(error) => {
            eprintln!("{path}: {error}");
            ExitCode::from(2)
        }
    }
}
