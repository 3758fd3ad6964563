//! `fake-discord`: the fake Discord of the `fake_discord` library as a program, for a bot
//! running in another process (`kaboom serve` with `DISCORD_API_BASE`).
//!
//! ```text
//! fake-discord [--port P] [--guilds N] [--exit-on-stdin-eof] [--lean]
//! ```
//!
//! Binds `127.0.0.1:P` (default `0`: an ephemeral port) and prints, as its first line on
//! stdout, `fake-discord listening on http://127.0.0.1:PORT`. Serves the REST API under
//! `/api/v10`, the gateway at `/gateway` and the JSON control API under `/_control/...`
//! (see `README.md`). Stops on SIGTERM, SIGINT (ctrl-c) or, with `--exit-on-stdin-eof`,
//! when its stdin closes (so a parent that dies takes the fake with it).

use std::io::Write as _;
use std::process::ExitCode;
use std::time::Duration;

use fake_discord::FakeDiscord;

const USAGE: &str = "usage: fake-discord [--port P] [--guilds N] [--exit-on-stdin-eof] [--lean]

A fake Discord (REST API v10, gateway, and a JSON control API under /_control) on
127.0.0.1. The first line on stdout is `fake-discord listening on http://127.0.0.1:PORT`.

  --port P              the port to bind on 127.0.0.1 (default 0: an ephemeral port)
  --guilds N            N guilds (1-100, default 1), each with a #kaboom text channel;
                        consecutive ids, so with up to N gateway shards every shard
                        has one ((guild_id >> 22) % shards); listed by /_control/info
  --exit-on-stdin-eof   also stop when stdin closes
  --lean                keep no uploaded bytes, and log requests without bodies
                        (load runs: memory stays nearly flat)
  -h, --help            this help

Stops on SIGTERM or ctrl-c.";

struct Args {
    port: u16,
    guilds: usize,
    exit_on_stdin_eof: bool,
    lean: bool,
}

fn parse_args(mut args: impl Iterator<Item = String>) -> Result<Option<Args>, String> {
    let mut parsed = Args {
        port: 0,
        guilds: 1,
        exit_on_stdin_eof: false,
        lean: false,
    };
    while let Some(arg) = args.next() {
        let port = match arg.as_str() {
            "-h" | "--help" => return Ok(None),
            "--exit-on-stdin-eof" => {
                parsed.exit_on_stdin_eof = true;
                continue;
            }
            "--lean" => {
                parsed.lean = true;
                continue;
            }
            "--guilds" => {
                let n = args.next().ok_or("--guilds needs a value")?;
                parsed.guilds = n
                    .parse()
                    .ok()
                    .filter(|n| (1..=fake_discord::MAX_GUILDS).contains(n))
                    .ok_or_else(|| {
                        format!(
                            "--guilds must be a number from 1 to {}, not '{n}'",
                            fake_discord::MAX_GUILDS
                        )
                    })?;
                continue;
            }
            "--port" => args.next().ok_or("--port needs a value")?,
            other => match other.strip_prefix("--port=") {
                Some(port) => port.to_string(),
                None => return Err(format!("unknown argument '{other}'")),
            },
        };
        parsed.port = port
            .parse()
            .map_err(|_| format!("--port must be a port number (0-65535), not '{port}'"))?;
    }
    Ok(Some(parsed))
}

/// Resolves when the process is asked to stop: SIGTERM, SIGINT, or stdin at EOF (if asked).
async fn stop_requested(exit_on_stdin_eof: bool) -> &'static str {
    let stdin_closed = async {
        if !exit_on_stdin_eof {
            return std::future::pending().await;
        }
        use tokio::io::AsyncReadExt as _;
        let mut stdin = tokio::io::stdin();
        let mut buffer = [0u8; 1024];
        loop {
            match stdin.read(&mut buffer).await {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        _ = tokio::signal::ctrl_c() => "ctrl-c",
        () = terminate => "SIGTERM",
        () = stdin_closed => "stdin closed",
    }
}

fn main() -> ExitCode {
    let args = match parse_args(std::env::args().skip(1)) {
        Ok(Some(args)) => args,
        Ok(None) => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(error) => {
            eprintln!("fake-discord: {error}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("fake-discord: cannot start the runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    let code = runtime.block_on(async {
        let fake = match FakeDiscord::start_with_guilds(args.port, args.guilds).await {
            Ok(fake) => fake,
            Err(error) => {
                eprintln!("fake-discord: {error}");
                return ExitCode::FAILURE;
            }
        };
        fake.set_lean(args.lean);
        {
            let mut out = std::io::stdout().lock();
            let _ = writeln!(out, "fake-discord listening on {}", fake.url());
            let _ = out.flush();
        }
        let why = stop_requested(args.exit_on_stdin_eof).await;
        eprintln!("fake-discord: stopping ({why})");
        fake.shutdown(Duration::from_secs(2)).await;
        ExitCode::SUCCESS
    });
    // Not a plain drop: the blocking thread reading stdin would keep the runtime (and the
    // process) alive until stdin closes.
    runtime.shutdown_background();
    code
}

#[cfg(test)]
mod tests {
    use super::parse_args;

    fn parse(args: &[&str]) -> Result<Option<(u16, bool)>, String> {
        parse_args(args.iter().map(|a| a.to_string()))
            .map(|parsed| parsed.map(|a| (a.port, a.exit_on_stdin_eof)))
    }

    #[test]
    fn arguments() {
        assert_eq!(parse(&[]), Ok(Some((0, false))));
        assert_eq!(parse(&["--port", "8080"]), Ok(Some((8080, false))));
        assert_eq!(
            parse(&["--port=9", "--exit-on-stdin-eof"]),
            Ok(Some((9, true)))
        );
        assert_eq!(parse(&["--help"]), Ok(None));
        assert!(parse(&["--port"]).is_err());
        assert!(parse(&["--port", "70000"]).is_err());
        assert!(parse(&["--bind", "0.0.0.0"]).is_err());
        let guilds = |args: &[&str]| {
            parse_args(args.iter().map(|a| a.to_string())).map(|p| p.map(|a| a.guilds))
        };
        assert_eq!(guilds(&[]), Ok(Some(1)));
        assert_eq!(guilds(&["--guilds", "3", "--lean"]), Ok(Some(3)));
        assert!(guilds(&["--guilds", "0"]).is_err());
        assert!(guilds(&["--guilds", "101"]).is_err());
        assert!(guilds(&["--guilds"]).is_err());
    }
}
