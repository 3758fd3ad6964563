#!/usr/bin/env bash
# Screenshots kaboom-demo/index.html (what `kaboom demo` writes) in headless Chromium, to look
# at the page as a browser draws it. Needs the distribution's Chromium
# (Debian: `apt-get install -y chromium`); .ci/run installs it and runs this script.
#
#   bash scripts/demo-screenshot.sh [DEMO_DIR] [OUT.png] [WIDTHxHEIGHT]
#
# Defaults: kaboom-demo, DEMO_DIR/screenshot.png, 1280x2000. Runs with a fresh, empty
# profile and every background network feature off, so it reads only the local file.
set -euo pipefail
demo_dir="${1:-kaboom-demo}"
out="${2:-$demo_dir/screenshot.png}"
size="${3:-1280,2000}"
size="${size/x/,}"
chromium="${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}"
if [[ -z "$chromium" ]]; then
  echo "demo-screenshot: no chromium on this machine (Debian: apt-get install -y chromium)" >&2
  exit 2
fi
page="$(cd "$demo_dir" && pwd)/index.html"
if [[ ! -f "$page" ]]; then
  echo "demo-screenshot: $page is missing: run \`kaboom demo --out $demo_dir\` first" >&2
  exit 1
fi
profile="$(mktemp -d)"
trap 'rm -rf "$profile"' EXIT
out_abs="$(cd "$(dirname "$out")" && pwd)/$(basename "$out")"
rm -f "$out_abs"
args=(--headless --disable-gpu --disable-quic --no-first-run --disable-background-networking
  --disable-component-update --disable-sync --hide-scrollbars
  --user-data-dir="$profile" --screenshot="$out_abs" --window-size="$size")
# Chromium refuses to run as root without --no-sandbox.
if [[ "$(id -u)" == 0 ]]; then args+=(--no-sandbox); fi
timeout 120 "$chromium" "${args[@]}" "file://$page" >/dev/null 2>"$profile/stderr.log" || {
  echo "demo-screenshot: chromium failed:" >&2
  tail -5 "$profile/stderr.log" >&2
  exit 1
}
if [[ ! -s "$out_abs" ]]; then
  echo "demo-screenshot: chromium wrote no screenshot" >&2
  exit 1
fi
echo "demo-screenshot: $out_abs"
