//! Helpers shared by the engine's measuring programs (the `strength` bench and the
//! `fit_win_k` and `compare_fairy_review` examples), included by `#[path]`: reading a
//! `--name value` flag and the machine's load for the record.

/// The value after `name` in `args` (`--games 40` gives `Some("40")`), if any.
pub fn flag(args: &[String], name: &str) -> Option<String> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
}

/// The load averages over 1, 5 and 15 minutes (`/proc/loadavg`), or `unknown`: each run
/// records the load it ran under (docs/PERFORMANCE.md).
pub fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}
