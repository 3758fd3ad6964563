#!/usr/bin/env bash
# The project's whole test command (README.md): formatting, lints, then every test.
# Every database test is a `dbtest!` (testkit/src/dbtest.rs): a `::sqlite` case that
# always runs and a `::postgres` case, ignored by default. With KABOOM_TEST_POSTGRES_URL
# set (a PostgreSQL server whose user may create databases; scripts/pg-local.sh starts
# one), the ignored `::postgres` cases run too, each on a fresh database.
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
  # `--workspace` as above, so nothing is rebuilt; only the ignored cases named `::postgres`.
  KABOOM_TEST_POSTGRES_URL="$pg" cargo test --workspace --locked -- --ignored ::postgres \
    2>&1 | tee -a "$log"
fi
grep '^test result:' "$log" | awk '{ for (i = 1; i < NF; i++) { if ($(i + 1) ~ /^passed;?$/) p += $i; if ($(i + 1) ~ /^failed;?$/) f += $i } }
  END { printf "tests: %d passed, %d failed\n", p, f }' | tee target/test-summary.txt
