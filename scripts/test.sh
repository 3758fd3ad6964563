#!/usr/bin/env bash
# The project's whole test command (README.md): formatting, lints, then every test.
# With KABOOM_TEST_POSTGRES_URL set (a PostgreSQL server whose user may create databases;
# scripts/pg-local.sh starts one), the suite runs on SQLite as always, then the tests that
# touch the database (storage, services, scheduler, outbox, ratings, end to end, comforts,
# previews, the practice opponent, and the multi-process test) run again on PostgreSQL,
# each on a fresh database.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo fmt --all -- --check
cargo clippy --workspace --all-targets --locked -- -D warnings
# The tests' output is also kept in $log; the last line sums up its `test result:` lines,
# because cargo's own last line is that of the last test binary, whose filters (in the
# PostgreSQL run) may match nothing.
mkdir -p target
log="target/test-output.txt"
: > "$log"
rm -f target/test-summary.txt
pg="${KABOOM_TEST_POSTGRES_URL:-}"
env -u KABOOM_TEST_POSTGRES_URL cargo test --workspace --locked 2>&1 | tee -a "$log"
if [ -n "$pg" ]; then
  # `--workspace --test it` (not `-p kaboom`): the same features as the run above, so
  # nothing is rebuilt (`-p` resolves features for one package and rebuilt the bot, the
  # fake and the testkit: about 4 minutes on 2 cores); the filters match only the kaboom package's.
  KABOOM_TEST_POSTGRES_URL="$pg" cargo test --workspace --test it --locked -- \
    storage:: services:: scheduler:: scheduler_discord:: outbox:: ratings:: conflicts:: \
    archived:: help_rules:: e2e:: comforts:: preview:: practice:: shards:: copy_db:: \
    2>&1 | tee -a "$log"
fi
grep '^test result:' "$log" | awk '{ for (i = 1; i < NF; i++) { if ($(i + 1) ~ /^passed;?$/) p += $i; if ($(i + 1) ~ /^failed;?$/) f += $i } }
  END { printf "tests: %d passed, %d failed\n", p, f }' | tee target/test-summary.txt
