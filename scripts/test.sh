#!/usr/bin/env bash
# The project's whole test command (README.md): formatting, lints, then every test.
# With KABOOM_TEST_POSTGRES_URL set (a PostgreSQL server whose user may create databases;
# scripts/pg-local.sh starts one), the suite runs on SQLite as always, then the tests that
# touch the database (storage, services, scheduler, outbox, ratings, end to end, comforts,
# previews, the practice opponent, and the multi-process test) run again on PostgreSQL,
# each on a fresh database (issue 22).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo fmt --all -- --check
cargo clippy --workspace --all-targets --locked -- -D warnings
pg="${KABOOM_TEST_POSTGRES_URL:-}"
env -u KABOOM_TEST_POSTGRES_URL cargo test --workspace --locked
if [ -n "$pg" ]; then
  # `--workspace --test it` (not `-p kaboom-bot`): the same features as the run above, so
  # nothing is rebuilt (`-p` resolves features for one package and rebuilt the bot, the
  # fake and the testkit: about 4 minutes on 2 cores); the filters match only kaboom-bot's.
  KABOOM_TEST_POSTGRES_URL="$pg" cargo test --workspace --test it --locked -- \
    storage:: services:: scheduler:: scheduler_discord:: outbox:: ratings:: conflicts:: \
    archived:: help_rules:: e2e:: comforts:: preview:: practice:: shards:: copy_db::
fi
