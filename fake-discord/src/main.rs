//! `fake-discord`: the fake Discord of the `fake_discord` library as a program, for a bot
//! running in another process (`kaboom serve` with `DISCORD_API_BASE`).
//!
//! ```text
//! fake-discord [--port P] [--guilds N] [--exit-on-stdin-eof] [--lean] [--no-global-rate-limit] [--no-route-rate-limit]
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

/// A fake Discord (REST API v10, gateway, and a JSON control API under /_control) on
/// 127.0.0.1. The first line on stdout is `fake-discord listening on http://127.0.0.1:PORT`.
/// Stops on SIGTERM or ctrl-c.
#[derive(Debug, clap::Parser)]
#[command(name = "fake-discord")]
struct Args {
    /// The port to bind on 127.0.0.1 (0: an ephemeral port).
    #[arg(long, default_value_t = 0)]
    port: u16,
    /// N guilds, each with a #kaboom text channel; consecutive ids, so with up to N gateway
    /// shards every shard has one ((guild_id >> 22) % shards); listed by /_control/info.
    #[arg(long, default_value_t = 1, value_parser = guild_count)]
    guilds: usize,
    /// Also stop when stdin closes (so a parent that dies takes the fake with it).
    #[arg(long)]
    exit_on_stdin_eof: bool,
    /// Keep no uploaded bytes, and log requests without bodies (load runs: memory stays
    /// nearly flat).
    #[arg(long)]
    lean: bool,
    /// Do not enforce Discord's global limit of 50 requests per second (a benchmark of the
    /// bot's own speed; by default the 51st request of a second gets Discord's global 429).
    #[arg(long)]
    no_global_rate_limit: bool,
    /// Do not enforce the per-route limit of 50 requests per second per route and channel
    /// (or guild, webhook, interaction); the headers still count it.
    #[arg(long)]
    no_route_rate_limit: bool,
}

/// `--guilds`: 1 to [`fake_discord::MAX_GUILDS`].
fn guild_count(text: &str) -> Result<usize, String> {
    text.parse()
        .ok()
        .filter(|n| (1..=fake_discord::MAX_GUILDS).contains(n))
        .ok_or_else(|| format!("give a number from 1 to {}", fake_discord::MAX_GUILDS))
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
    let args = <Args as clap::Parser>::parse();
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
        fake.set_global_rate_limit(!args.no_global_rate_limit);
        fake.set_route_rate_limit(!args.no_route_rate_limit);
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
    use super::Args;
    use clap::Parser;

    fn parse(args: &[&str]) -> Result<(u16, usize, bool, bool), String> {
        Args::try_parse_from(std::iter::once("fake-discord").chain(args.iter().copied()))
            .map(|a| (a.port, a.guilds, a.exit_on_stdin_eof, a.lean))
            .map_err(|e| e.to_string().lines().next().unwrap_or_default().to_string())
    }

    #[test]
    fn arguments() {
        assert_eq!(parse(&[]), Ok((0, 1, false, false)));
        assert_eq!(parse(&["--port", "8080"]), Ok((8080, 1, false, false)));
        assert_eq!(
            parse(&["--port=9", "--exit-on-stdin-eof"]),
            Ok((9, 1, true, false))
        );
        assert_eq!(parse(&["--guilds", "3", "--lean"]), Ok((0, 3, false, true)));
        assert_eq!(
            parse(&["--port", "70000"]),
            Err(
                "error: invalid value '70000' for '--port <PORT>': 70000 is not in 0..=65535"
                    .into()
            )
        );
        assert_eq!(
            parse(&["--guilds", "101"]),
            Err(
                "error: invalid value '101' for '--guilds <GUILDS>': give a number from 1 to 100"
                    .into()
            )
        );
        assert_eq!(
            parse(&["--bind", "0.0.0.0"]),
            Err("error: unexpected argument '--bind' found".into())
        );
        assert!(parse(&["--port"]).is_err());
        assert!(parse(&["--guilds", "0"]).is_err());
    }
}
