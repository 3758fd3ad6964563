#!/usr/bin/env bash
# Starts a throwaway PostgreSQL server for the tests and prints its URL.
#
#   eval "$(bash scripts/pg-local.sh start /tmp/kaboom-pg 5433)"   # sets KABOOM_TEST_POSTGRES_URL
#   bash scripts/pg-local.sh stop /tmp/kaboom-pg
#
# Uses the distribution's server binaries (Debian: `apt-get install postgresql`, under
# /usr/lib/postgresql/<version>/bin). The cluster lives in DIR, listens on 127.0.0.1:PORT
# only (no Unix socket outside DIR), trusts local logins (a test server: nothing else can
# reach it), and runs as its own user: as root, the distribution's `postgres` account
# (PostgreSQL refuses to run as root).
set -euo pipefail
cmd="${1:?usage: pg-local.sh start|stop DIR [PORT]}"
dir="${2:?usage: pg-local.sh start|stop DIR [PORT]}"
port="${3:-5433}"
bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)"
if [ -z "$bin" ] && command -v initdb >/dev/null 2>&1; then
  bin="$(dirname "$(command -v initdb)")"
fi
[ -n "$bin" ] || { echo "PostgreSQL's server binaries are missing (apt-get install postgresql)" >&2; exit 1; }
as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
case "$cmd" in
  start)
    mkdir -p "$dir"
    if [ "$(id -u)" = 0 ]; then chown postgres: "$dir"; fi
    if [ ! -f "$dir/data/PG_VERSION" ]; then
      as_owner "$bin/initdb" -D "$dir/data" -U kaboom --auth=trust -E UTF8 --no-sync >/dev/null
    fi
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
      -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c max_connections=200" start >/dev/null
    echo "export KABOOM_TEST_POSTGRES_URL=postgres://kaboom@127.0.0.1:$port/postgres"
    ;;
  stop)
    as_owner "$bin/pg_ctl" -D "$dir/data" -m fast stop >/dev/null
    ;;
  *) echo "unknown command $cmd" >&2; exit 2 ;;
esac
