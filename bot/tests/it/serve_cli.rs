//! `kaboom serve` (and `kaboom` alone) without a token: a one-line error pointing to
//! `.env.example` and `kaboom demo`.

use std::path::Path;
use std::process::Command;

/// The stderr of `kaboom args` run in `dir` without `DISCORD_TOKEN`, which must fail with
/// one line.
fn one_line_failure(dir: &Path, args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_kaboom"))
        .args(args)
        .current_dir(dir)
        .env_remove("DISCORD_TOKEN")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    err
}

#[test]
fn serve_without_token_fails_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    for args in [&["serve"][..], &[][..]] {
        let err = one_line_failure(dir.path(), args);
        assert!(
            err.contains(".env.example") && err.contains("kaboom demo"),
            "{err}"
        );
        // No database was created before the configuration was checked.
        assert!(!dir.path().join("kaboom.db").exists());
    }
}

/// A malformed `.env` is reported with its line number (and the variable it
/// seems to set), not hidden behind "DISCORD_TOKEN is not set"; the line's text, which may
/// hold the token, is not repeated.
#[test]
fn malformed_env_file_names_its_line() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join(".env"),
        "# settings\nRUST_LOG=info\nDISCORD_TOKEN=abc def'secret\nDATABASE_URL=sqlite://x.db\n",
    )
    .unwrap();
    let err = one_line_failure(dir.path(), &["serve"]);
    assert!(err.contains(".env line 3"), "{err}");
    assert!(err.contains("DISCORD_TOKEN"), "{err}");
    assert!(
        !err.contains("secret"),
        "the line's value is not shown: {err}"
    );
    assert!(!dir.path().join("x.db").exists());
}

/// A token Discord refuses (401 on `GET /users/@me`) stops `kaboom serve` at
/// once with one line, before the database is opened, instead of retrying forever. The
/// "Discord" here is a loopback listener that answers 401 to every request.
#[test]
fn refused_token_stops_serve_with_one_line() {
    use std::io::{BufRead, BufReader, Write};
    use std::net::TcpListener;
    use std::time::{Duration, Instant};

    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let server = std::thread::spawn(move || {
        // Answer up to 5 requests (one is expected), then stop.
        for _ in 0..5 {
            let Ok((stream, _)) = listener.accept() else {
                return;
            };
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut line = String::new();
            while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
                line.clear();
            }
            let body = r#"{"message": "401: Unauthorized", "code": 0}"#;
            let mut stream = stream;
            let _ = write!(
                stream,
                "HTTP/1.1 401 Unauthorized\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                body.len()
            );
        }
    });
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_kaboom"))
        .arg("serve")
        .current_dir(dir.path())
        .env("DISCORD_TOKEN", "MTIz.not-a-real.token-secret")
        .env("DISCORD_API_BASE", format!("http://127.0.0.1:{port}"))
        .env("DATABASE_URL", "sqlite://kaboom.db")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            panic!("kaboom serve kept running with a refused token");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(!status.success());
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("DISCORD_TOKEN") && err.contains("401"),
        "{err}"
    );
    assert!(!err.contains("token-secret"), "{err}");
    assert!(
        !dir.path().join("kaboom.db").exists(),
        "no database before the token is checked"
    );
    drop(server);
}

/// `kaboom serve --help` shows each flag's variable but not the values of those that hold
/// secrets: the token and the database URL (a PostgreSQL URL carries its password).
#[test]
fn serve_help_hides_the_token_and_the_database_password() {
    let out = Command::new(env!("CARGO_BIN_EXE_kaboom"))
        .args(["serve", "--help"])
        .env("DISCORD_TOKEN", "t0ken-value")
        .env(
            "DATABASE_URL",
            "postgres://kaboom:s3cret-password@db.internal/kaboom",
        )
        .env("DEV_GUILD_ID", "42")
        .output()
        .unwrap();
    assert!(out.status.success());
    let help = String::from_utf8(out.stdout).unwrap();
    assert!(help.contains("[env: DEV_GUILD_ID=42]"), "{help}");
    assert!(help.contains("[env: DATABASE_URL]"), "{help}");
    assert!(help.contains("[env: DISCORD_TOKEN]"), "{help}");
    for secret in ["t0ken-value", "s3cret-password"] {
        assert!(!help.contains(secret), "the help shows {secret}: {help}");
    }
}
