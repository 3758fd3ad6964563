#!/usr/bin/env python3
"""Side-by-side render benchmark: kaboom-renderer vs python-chess + cairosvg.

Both draw the same position (the Atomic middle game of renderer/benches/render.rs,
whose piece placement python-chess can show) as a 640 px PNG with the last move
highlighted. Rounds alternate between the two so that both see the same machine
load; the medians over all rounds are compared. Target: kaboom at least
20 times faster.

Requirements (measurement only; nothing here is a dependency of the workspace, and
python-chess, being GPL, is never vendored):
    apt-get install libcairo2      # for cairosvg
    pip install chess cairosvg
Run from the repository root:
    python3 bench/compare_python.py [--rounds 5] [--per-round 40]
"""

import argparse
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def cargo_example(*args):
    out = subprocess.run(
        ["cargo", "run", "--release", "-q", "-p", "kaboom-renderer", "--example", "bench_png", "--", *args],
        cwd=ROOT, check=True, capture_output=True, text=True,
    )
    return out.stdout.strip()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--per-round", type=int, default=40)
    args = ap.parse_args()
    try:
        import chess
        import chess.svg
        import cairosvg
    except ImportError as e:
        sys.exit(f"compare_python: {e}: install with 'pip install chess cairosvg' (and Debian's libcairo2)")

    fen, uci = cargo_example("position").splitlines()
    board = chess.Board(fen.split(" ")[0] + " " + " ".join(fen.split(" ")[1:2]) + " - - 0 1")
    move = chess.Move.from_uci(uci) if len(uci) in (4, 5) else None

    def python_once():
        svg = chess.svg.board(board, size=640, lastmove=move, coordinates=True)
        return cairosvg.svg2png(bytestring=svg.encode(), output_width=640)

    python_once()  # warm-up: imports, caches
    ours, theirs, our_bytes, their_bytes = [], [], 0, 0
    for _ in range(args.rounds):
        line = cargo_example(str(args.per_round))
        fields = dict(kv.split("=") for kv in line.split())
        ours.append(float(fields["median_ms"]))
        our_bytes = int(fields["bytes"])
        for _ in range(args.per_round):
            t = time.perf_counter()
            png = python_once()
            theirs.append((time.perf_counter() - t) * 1000.0)
            their_bytes = len(png)
    ours_ms = statistics.median(ours)
    theirs_ms = statistics.median(theirs)
    print(f"position: {fen} (last move {uci})")
    print(f"kaboom-renderer  render_png 640 px: median {ours_ms:.3f} ms, {our_bytes} bytes")
    print(f"python-chess {chess.__version__} svg + cairosvg {cairosvg.__version__} 640 px: "
          f"median {theirs_ms:.3f} ms, {their_bytes} bytes")
    print(f"speed-up: {theirs_ms / ours_ms:.1f}x (target: at least 20x)")
    print(f"load average during the run: {os.getloadavg()}")


if __name__ == "__main__":
    main()
