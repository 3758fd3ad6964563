#!/usr/bin/env bash
# Compares the transcripts of two `kaboom demo` runs, byte for byte once the parts that
# differ between any two runs are masked: deadlines (`<t:UNIX:style>`, from the clock), the
# times the transcript renders from the clock (`11/28/2026 1:31 AM` beside each message,
# `December 1, 2026 1:31 AM` for a deadline), and Beirut's salts (32 hex digits, drawn
# from the OS) with the commitments made from them
# (64 hex digits). Used to show that a refactor left every game's public text unchanged.
#
# Usage: scripts/compare-demo.sh BEFORE_DIR AFTER_DIR   (the --out folders of the two runs)
set -euo pipefail
before=$1 after=$2
mask() { sed -E 's/<t:[0-9]+:/<t:UNIX:/g; s/\b[0-9a-f]{64}\b/<sha256>/g; s/\b[0-9a-f]{32}\b/<salt>/g; s#\b[0-9]+/[0-9]+/[0-9]{4} [0-9]+:[0-9]{2} [AP]M#<time>#g; s#\b[A-Z][a-z]+ [0-9]+, [0-9]{4} [0-9]+:[0-9]{2} [AP]M#<time>#g' "$1"; }
status=0
for variant in atomic beirut nuke bomberman bombalot; do
    if cmp -s <(mask "$before/$variant/transcript.md") <(mask "$after/$variant/transcript.md"); then
        echo "$variant: same"
    else
        echo "$variant: DIFFERENT"
        diff <(mask "$before/$variant/transcript.md") <(mask "$after/$variant/transcript.md") | head -20
        status=1
    fi
done
exit $status
