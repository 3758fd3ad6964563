//! Helpers shared by the CLI tests (`cli`, `beirut_cli`, `nuke_cli`, `bomberman_cli`,
//! `bombalot_cli`): running the `kaboom` binary as a user would and reading its output.

// Each test file is its own crate and uses only some of these helpers.
#![allow(dead_code)]

use std::process::{Command, Output};

use serde_json::Value;

/// Runs the `kaboom` binary built for this test with `args`; panics only when it cannot
/// be started at all.
pub fn kaboom(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kaboom"))
        .args(args)
        .output()
        .expect("kaboom runs")
}

/// Runs `kaboom` with `args`: (exited with success, stdout, stderr), both UTF-8.
pub fn kaboom_text(args: &[&str]) -> (bool, String, String) {
    let out = kaboom(args);
    (
        out.status.success(),
        String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    )
}

/// The JSON document a successful run printed on stdout; panics with its stderr when the
/// run failed or with the parse error when stdout is not JSON.
pub fn json(out: &Output) -> Value {
    assert!(
        out.status.success(),
        "kaboom failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("stdout is JSON")
}
