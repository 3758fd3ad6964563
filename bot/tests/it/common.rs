//! Helpers shared by the tests: running the `kaboom` binary as a user would and reading its
//! output (the CLI tests), and decoding the PNGs the bot posts.

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

/// The pixels of a PNG (8 bits per channel, RGB or RGBA as encoded) and its size in
/// pixels; panics when the bytes are not a whole, valid PNG.
pub fn decode_png(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    let mut reader = decoder.read_info().expect("a PNG header");
    let mut buf = vec![0; reader.output_buffer_size().expect("a buffer size")];
    let info = reader.next_frame(&mut buf).expect("PNG pixels decode");
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

/// Waits (at most 30 s) until game `id` in `db` has reached `ply`, and returns its row: the
/// practice opponent and conditional moves act after the answer that set them off.
///
/// # Panics
/// When the game does not reach `ply` in time, or cannot be read.
pub async fn wait_for_ply(
    db: &kaboom_store::Db,
    id: kaboom_domain::ids::GameId,
    ply: i64,
) -> kaboom_domain::game::GameRow {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let row = kaboom_store::games::get(db, id).await.unwrap().unwrap();
        if row.ply >= ply {
            return row;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "game {id} stuck at ply {}",
            row.ply
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}
