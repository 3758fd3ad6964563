#!/usr/bin/env bash
# Side-by-side replay GIF figures: lichess's lila-gif rendering its
# 93-frame example game at 720x840 (GET /example.gif), then our replay benchmark
# (criterion, renderer/benches/replay.rs: the first case is the Atomic game of
# bench/atomic-92-plies.txt at 720 px), in one run, with the machine's load. With
# KABOOM_BIN set (a release `kaboom` binary), also `kaboom render -o FILE.gif` of that
# game from the command line, RUNS times (process start and move parsing included).
#
# lila-gif is AGPL: it is built OUTSIDE this repository and only run here, e.g.
#   git clone <lila-gif> /work/rivals/lila-gif && cd /work/rivals/lila-gif &&
#   CARGO_TARGET_DIR=/work/rivals/lila-gif-target cargo build --release
# Usage: LILA_GIF_BIN=/work/rivals/lila-gif-target/release/lila-gif bench/compare_lila_gif.sh
set -euo pipefail
bin="${LILA_GIF_BIN:?set LILA_GIF_BIN to a lila-gif release binary built outside the repository}"
port="${LILA_GIF_PORT:-6175}"
runs="${RUNS:-20}"
out="$(mktemp -d)"
echo "load before: $(uptime)"
"$bin" --bind "127.0.0.1:$port" >"$out/lila.log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$out"' EXIT
for _ in $(seq 50); do
  curl -s -o /dev/null "http://127.0.0.1:$port/example.gif" && break
  sleep 0.1
done
# Warm-up, then timed runs (the response streams while frames render: the total time
# is the render time plus a local HTTP round trip).
curl -s -o "$out/example.gif" "http://127.0.0.1:$port/example.gif"
for _ in $(seq "$runs"); do
  curl -s -o /dev/null -w '%{time_total}\n' "http://127.0.0.1:$port/example.gif"
done | sort -n >"$out/times"
bytes=$(stat -c %s "$out/example.gif")
frames=$(python3 -c "import sys; d=open(sys.argv[1],'rb').read(); print(d.count(b'\x21\xf9\x04'))" "$out/example.gif")
dims=$(python3 -c "import sys,struct; d=open(sys.argv[1],'rb').read(); print('%dx%d' % struct.unpack('<HH', d[6:10]))" "$out/example.gif")
median=$(awk '{a[NR]=$1} END {print a[int((NR+1)/2)]*1000}' "$out/times")
best=$(head -1 "$out/times" | awk '{print $1*1000}')
echo "lila-gif example.gif: $frames frames, $dims, $bytes bytes ($((bytes / frames)) per frame);" \
  "median ${median} ms, best ${best} ms of $runs runs"
kill "$pid" 2>/dev/null || true
here="$(cd "$(dirname "$0")" && pwd)"
if [ -n "${KABOOM_BIN:-}" ]; then
  moves="$(cat "$here/atomic-92-plies.txt")"
  "$KABOOM_BIN" render --variant atomic --moves "$moves" --size 720 -o "$out/ours.gif" >/dev/null
  for _ in $(seq "$runs"); do
    start=$EPOCHREALTIME
    "$KABOOM_BIN" render --variant atomic --moves "$moves" --size 720 -o "$out/ours.gif" >/dev/null
    echo "$start $EPOCHREALTIME" | awk '{print $2 - $1}'
  done | sort -n >"$out/ours-times"
  ours_bytes=$(stat -c %s "$out/ours.gif")
  # Frames: graphic control extensions whose delay is not the 2 cs of a frame's
  # leading bands (renderer::SUBFRAME_DELAY_CS).
  ours_frames=$(python3 -c "
import sys
d = open(sys.argv[1], 'rb').read()
i, n = 0, 0
while (i := d.find(b'\x21\xf9\x04', i)) >= 0:
    n += int.from_bytes(d[i + 4:i + 6], 'little') != 2
    i += 1
print(n)" "$out/ours.gif")
  ours_median=$(awk '{a[NR]=$1} END {print a[int((NR+1)/2)]*1000}' "$out/ours-times")
  ours_best=$(head -1 "$out/ours-times" | awk '{print $1*1000}')
  echo "kaboom render atomic-92-plies.txt: $ours_frames frames, $ours_bytes bytes" \
    "($((ours_bytes / ours_frames)) per frame); median ${ours_median} ms, best ${ours_best} ms of $runs runs"
fi
(cd "$here/.." && cargo bench -p kaboom-renderer --bench replay 2>&1 | grep -E "frames|time:|thrpt:|^replay_gif")
echo "load after: $(uptime)"
