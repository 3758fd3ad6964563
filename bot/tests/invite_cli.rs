//! `kaboom invite-url` (issue 10): the printed link carries the application id, the scopes
//! `bot` and `applications.commands`, and the permission integer that docs/hosting.md
//! documents (read from the guide, so the two cannot drift apart).

use std::path::Path;
use std::process::{Command, Output};

/// Runs `kaboom` in an empty directory (no `.env`) with only the given Discord variables.
fn kaboom(args: &[&str], env: &[(&str, &str)]) -> Output {
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_kaboom"));
    cmd.args(args)
        .current_dir(dir.path())
        .env_remove("DISCORD_TOKEN")
        .env_remove("DISCORD_APPLICATION_ID");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("kaboom runs")
}

/// The permission integer docs/hosting.md gives: the bold number on its "Together:" line.
fn documented_permissions() -> u64 {
    let guide = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/hosting.md");
    let text = std::fs::read_to_string(&guide).expect("docs/hosting.md exists");
    let line = text
        .lines()
        .find(|l| l.starts_with("Together:"))
        .expect("docs/hosting.md has a 'Together: **N**' line");
    let number: String = line
        .split("**")
        .nth(1)
        .expect("the integer is in bold")
        .chars()
        .filter(char::is_ascii_digit)
        .collect();
    number.parse().expect("a permission integer")
}

/// (client_id, scope, permissions) from an invite URL.
fn query(url: &str) -> (String, String, String) {
    let rest = url
        .strip_prefix("https://discord.com/oauth2/authorize?")
        .unwrap_or_else(|| panic!("not a Discord OAuth2 URL: {url}"));
    let get = |key: &str| {
        rest.split('&')
            .find_map(|kv| kv.strip_prefix(&format!("{key}=")))
            .unwrap_or_else(|| panic!("no {key} in {url}"))
            .to_string()
    };
    (get("client_id"), get("scope"), get("permissions"))
}

#[test]
fn invite_url_prints_the_documented_permissions_and_scopes() {
    let out = kaboom(
        &["invite-url", "--application-id", "1234567890123456789"],
        &[],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    let url = stdout.trim();
    assert_eq!(stdout.lines().count(), 1, "one line: {stdout}");
    let (client, scope, permissions) = query(url);
    assert_eq!(client, "1234567890123456789");
    let scopes: Vec<&str> = scope.split('+').collect();
    assert_eq!(scopes, ["bot", "applications.commands"]);
    assert_eq!(
        permissions.parse::<u64>().expect("a number"),
        documented_permissions(),
        "the permissions of `kaboom invite-url` differ from docs/hosting.md"
    );
    // The guide's table lists each bit: their sum is the documented integer too.
    assert_eq!(
        kaboom_bot::invite::PERMISSIONS.bits(),
        documented_permissions()
    );
}

#[test]
fn invite_url_finds_the_id_in_the_environment_or_the_token() {
    let out = kaboom(&["invite-url"], &[("DISCORD_APPLICATION_ID", "42")]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(query(String::from_utf8(out.stdout).unwrap().trim()).0, "42");

    // A bot token starts with the base64 of the bot's id ("777888999" here).
    let out = kaboom(
        &["invite-url"],
        &[(
            "DISCORD_TOKEN",
            "Nzc3ODg4OTk5.GabCde.fghijklmnopqrstuvwxyz0123456789",
        )],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        query(String::from_utf8(out.stdout).unwrap().trim()).0,
        "777888999"
    );
}

#[test]
fn invite_url_without_an_id_fails_with_one_clear_line() {
    let out = kaboom(&["invite-url"], &[]);
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(
        err.contains("--application-id") && err.contains("DISCORD_APPLICATION_ID"),
        "{err}"
    );
    let out = kaboom(&["invite-url", "--application-id", "my-bot"], &[]);
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("'my-bot'"), "{err}");
}
