//! `kaboom invite-url`: the printed link carries the application id, the scopes
//! `bot` and `applications.commands`, and the permission integer that docs/hosting.md
//! documents (read from the guide, so the two cannot drift apart). The guide's permission
//! table is read row by row and must list exactly the permissions the code asks for, each
//! with its right bit.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Output};

use poise::serenity_prelude as serenity;

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

/// The stdout of a [`kaboom`] run that must succeed (its stderr otherwise).
fn kaboom_ok(args: &[&str], env: &[(&str, &str)]) -> String {
    let out = kaboom(args, env);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn guide() -> String {
    let guide = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/hosting.md");
    std::fs::read_to_string(&guide).expect("docs/hosting.md exists")
}

/// The permission integer docs/hosting.md gives: the bold number on its "Together:" line.
fn documented_permissions() -> u64 {
    let text = guide();
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

/// The rows of a permission table (`| permission | bit | why |`, each bit written
/// `1 << N = V`) in `text`: permission name -> bit value. Panics on a row whose shift and
/// value disagree.
fn permission_table(text: &str) -> BTreeMap<String, u64> {
    let mut lines = text
        .lines()
        .skip_while(|l| !(l.starts_with("| permission |") && l.contains("| bit |")));
    assert!(
        lines.next().is_some(),
        "no '| permission | bit | why |' table"
    );
    let mut rows = BTreeMap::new();
    for line in lines.skip(1).take_while(|l| l.starts_with('|')) {
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        assert!(cells.len() >= 2, "a table row without a bit: {line}");
        let (shift, value) = cells[1]
            .split_once('=')
            .unwrap_or_else(|| panic!("bit not written '1 << N = V': {line}"));
        let shift: u32 = shift
            .trim()
            .strip_prefix("1 << ")
            .and_then(|n| n.trim().parse().ok())
            .unwrap_or_else(|| panic!("bit not written '1 << N = V': {line}"));
        let value: u64 = value
            .trim()
            .parse()
            .unwrap_or_else(|e| panic!("{line}: {e}"));
        assert_eq!(1u64 << shift, value, "1 << {shift} is not {value}: {line}");
        assert!(
            rows.insert(cells[0].to_string(), value).is_none(),
            "{} is listed twice",
            cells[0]
        );
    }
    rows
}

/// The permission integer of the link `kaboom invite-url` prints.
fn printed_permissions() -> u64 {
    let stdout = kaboom_ok(
        &["invite-url", "--application-id", "1234567890123456789"],
        &[],
    );
    query(stdout.lines().next().unwrap_or_default())
        .2
        .parse()
        .expect("a number")
}

/// The permissions the code asks for (those of the printed link): Discord's name of each
/// permission -> its bit.
fn code_permissions() -> BTreeMap<String, u64> {
    let asked = serenity::Permissions::from_bits_retain(printed_permissions());
    let mut rows = BTreeMap::new();
    for shift in 0..64 {
        let flag = serenity::Permissions::from_bits_retain(1 << shift);
        if asked.contains(flag) {
            let names = flag.get_permission_names();
            assert_eq!(names.len(), 1, "bit {shift} has the names {names:?}");
            rows.insert(names[0].to_string(), flag.bits());
        }
    }
    rows
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
    let stdout = kaboom_ok(
        &["invite-url", "--application-id", "1234567890123456789"],
        &[],
    );
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines.len(),
        2,
        "the server link, then the user install link: {stdout}"
    );
    let (client, scope, permissions) = query(lines[0]);
    assert!(lines[0].contains("&integration_type=0&"), "{}", lines[0]);
    assert_eq!(
        lines[1],
        "https://discord.com/oauth2/authorize?client_id=1234567890123456789&integration_type=1&scope=applications.commands"
    );
    assert_eq!(client, "1234567890123456789");
    let scopes: Vec<&str> = scope.split('+').collect();
    assert_eq!(scopes, ["bot", "applications.commands"]);
    assert_eq!(
        permissions.parse::<u64>().expect("a number"),
        documented_permissions(),
        "the permissions of `kaboom invite-url` differ from docs/hosting.md"
    );
}

/// The guide's permission table has one row per permission the code asks for, with that
/// permission's bit, and no other row; its "Together:" integer is the sum of the rows.
#[test]
fn the_guides_permission_table_is_what_the_code_asks_for() {
    let table = permission_table(&guide());
    let code = code_permissions();
    assert_eq!(code.len(), 7, "{code:?}");
    assert_eq!(
        table, code,
        "docs/hosting.md's permission table (left) differs from the permissions `kaboom invite-url` asks for (right)"
    );
    assert_eq!(table.values().sum::<u64>(), documented_permissions());
    assert_eq!(printed_permissions(), documented_permissions());
}

#[test]
fn a_wrong_table_row_is_caught() {
    let good = "| permission | bit | why |\n|---|---|---|\n| View Channel | 1 << 10 = 1024 | see |\n| Embed Links | 1 << 14 = 16384 | embeds |\n\nTogether: **17408**.\n";
    assert_eq!(
        permission_table(good),
        BTreeMap::from([
            ("Embed Links".to_string(), 16384),
            ("View Channel".to_string(), 1024)
        ])
    );
    // A row naming the wrong permission for its bit no longer matches the code's map.
    let renamed = good.replace("View Channel", "Manage Channels");
    assert_ne!(permission_table(&renamed), permission_table(good));
    // A shift that disagrees with its value is refused.
    let wrong_bit = good.replace("1 << 14 = 16384", "1 << 13 = 16384");
    assert!(std::panic::catch_unwind(|| permission_table(&wrong_bit)).is_err());
}

#[test]
fn invite_url_finds_the_id_in_the_environment_or_the_token() {
    let stdout = kaboom_ok(&["invite-url"], &[("DISCORD_APPLICATION_ID", "42")]);
    assert_eq!(query(stdout.lines().next().unwrap_or_default()).0, "42");

    // A bot token starts with the base64 of the bot's id ("777888999" here).
    let stdout = kaboom_ok(
        &["invite-url"],
        &[(
            "DISCORD_TOKEN",
            "Nzc3ODg4OTk5.GabCde.fghijklmnopqrstuvwxyz0123456789",
        )],
    );
    assert_eq!(
        query(stdout.lines().next().unwrap_or_default()).0,
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
