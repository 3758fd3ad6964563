#!/usr/bin/env bash
# Compares kaboom-pairing's Dutch system (pairing/examples/pair.rs) with bbpPairings on
# random tournaments that bbpPairings generates. Not part of the test suite; the results
# are recorded in docs/PERFORMANCE.md, "Swiss pairings against bbpPairings".
#
# bbpPairings is GPL: build it outside this repository, for example
#   git clone https://github.com/BieremaBoyzProgramming/bbpPairings /tmp/bbp
#   (cd /tmp/bbp && git checkout v5.0.1 && make)
#
# Usage: scripts/compare-pairings.sh [BBP_BINARY] [TOURNAMENTS] [FIRST_SEED]
#   BBP_BINARY   the bbpPairings executable (or $BBP_PAIRINGS)
#   TOURNAMENTS  how many random tournaments (default 200)
#   FIRST_SEED   seed of the first tournament (default 1); tournament i uses FIRST_SEED + i
# Environment: CARGO_TARGET_DIR (default: the workspace's target/), KEEP=1 keeps the temp dir,
# VERBOSE=1 prints every differing round, SAVE_DIFFS=DIR keeps the files that differ,
# OURS_FLAG=--dutch2016 pairs by the Baku 2016 text (against bbpPairings 5); the default,
# --dutch, by the text in force since 1 July 2025 (against bbpPairings 6).
#
# For every tournament (5-40 players, 3-11 rounds, draws, forfeits, withdrawals and
# half-point byes) and every round r, both programs pair round r from the results of
# rounds 1..r-1 (players absent in round r keep their pre-entered bye), and the two `-p`
# outputs are compared as sets of games (white, black) plus byes.
set -euo pipefail

bbp=${1:-${BBP_PAIRINGS:-}}
count=${2:-200}
first_seed=${3:-1}
if [[ -z "$bbp" || ! -x "$bbp" ]]; then
    echo "usage: $0 BBP_BINARY [TOURNAMENTS] [FIRST_SEED]  (or set BBP_PAIRINGS)" >&2
    exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-"$(cd "$(dirname "$0")/.." && pwd)/target"}
(cd "$root" && cargo build --quiet --release -p kaboom-pairing --example pair)
ours="$CARGO_TARGET_DIR/release/examples/pair"

work=$(mktemp -d)
if [[ "${KEEP:-0}" != 1 ]]; then trap 'rm -rf "$work"' EXIT; else echo "temp dir: $work"; fi

# truncate FULL ROUND ROUNDS: the tournament as it stood before round ROUND, with the
# pre-entered absences (byes other than the pairing-allocated one) of ROUND, the points
# recomputed from the rounds kept, XXR and XXC.
truncate_trf() {
    tr '\r' '\n' < "$1" | awk -v round="$2" -v rounds="$3" '
        function points(code) {
            if (code ~ /^[1+WFU]$/) return 1
            if (code ~ /^[=DH]$/) return 0.5
            return 0
        }
        /^012/ { print; next }
        /^001/ {
            line = $0; kept = substr(line, 1, 89); total = 0
            for (r = 1; r < round; r++) {
                field = substr(line, 92 + 10 * (r - 1), 8)
                kept = kept "  " field
                total += points(substr(field, 8, 1))
            }
            field = substr(line, 92 + 10 * (round - 1), 8)
            if (substr(field, 1, 4) == "0000" && substr(field, 8, 1) != "U") kept = kept "  " field
            kept = substr(kept, 1, 80) sprintf("%4.1f", total) substr(kept, 85)
            # The initial colour (E.5): the colour of the higher-ranked player of a round-1
            # game if its number is odd, else the other one.
            rank = substr(line, 5, 4) + 0; opponent = substr(line, 92, 4) + 0; colour = substr(line, 97, 1)
            if (initial == "" && opponent > rank && (colour == "w" || colour == "b"))
                initial = ((colour == "w") == (rank % 2 == 1)) ? "white1" : "black1"
            sub(/ +$/, "", kept)
            players[++n] = kept
        }
        END {
            print "XXR " rounds
            print "XXC " (initial == "" ? "white1" : initial)
            for (i = 1; i <= n; i++) print players[i]
        }'
}

# The games and byes of a -p output, one per line, sorted (the count line dropped).
normalize() { tail -n +2 "$1" | sort; }

tournaments=0 rounds_compared=0 agreed=0 same_opponents=0 bbp_failed=0 ours_failed=0
for ((i = 0; i < count; i++)); do
    seed=$((first_seed + i))
    players=$((5 + seed * 7919 % 36))
    max_rounds=$(( players - 1 < 11 ? players - 1 : 11 ))
    rounds=$((3 + seed * 104729 % (max_rounds - 2)))
    # Rates are "one in N" (JaVaFo's generator options); a missing line means none.
    {
        echo "PlayersNumber=$players"
        echo "RoundsNumber=$rounds"
        echo "DrawPercentage=$((20 + seed % 30))"
        if ((seed % 3 == 0)); then echo "ForfeitRate=15"; fi
        if ((seed % 4 == 0)); then echo "RetiredRate=10"; fi
        if ((seed % 5 == 0)); then echo "HalfPointByeRate=10"; fi
    } > "$work/config"
    if ! "$bbp" --dutch -g "$work/config" -o "$work/full.trf" -s "$seed" > /dev/null 2>&1; then
        echo "seed $seed: bbpPairings could not generate a tournament" >&2
        continue
    fi
    tournaments=$((tournaments + 1))
    for ((round = 1; round <= rounds; round++)); do
        truncate_trf "$work/full.trf" "$round" "$rounds" > "$work/round.trf"
        if ! "$bbp" --dutch "$work/round.trf" -p "$work/bbp.out" > /dev/null 2>&1; then
            bbp_failed=$((bbp_failed + 1))
            continue
        fi
        rounds_compared=$((rounds_compared + 1))
        if ! "$ours" "${OURS_FLAG:---dutch}" "$work/round.trf" > "$work/ours.out" 2> "$work/ours.err"; then
            ours_failed=$((ours_failed + 1))
            [[ "${VERBOSE:-0}" == 1 ]] && echo "seed $seed round $round: ours failed: $(cat "$work/ours.err")"
            continue
        fi
        if [[ "$(normalize "$work/bbp.out")" == "$(normalize "$work/ours.out")" ]]; then
            agreed=$((agreed + 1))
        else
            # The same games with other colours?
            unordered() { normalize "$1" | awk '{ if ($1 > $2 && $2 != 0) print $2, $1; else print $1, $2 }' | sort; }
            if [[ "$(unordered "$work/bbp.out")" == "$(unordered "$work/ours.out")" ]]; then
                same_opponents=$((same_opponents + 1))
            fi
            if [[ "${VERBOSE:-0}" == 1 ]]; then
                echo "seed $seed round $round ($players players, $rounds rounds): differs"
                diff <(normalize "$work/bbp.out") <(normalize "$work/ours.out") | grep '^[<>]' | tr '\n' ' ' || true
                echo
            fi
            if [[ -n "${SAVE_DIFFS:-}" ]]; then
                mkdir -p "$SAVE_DIFFS"
                cp "$work/round.trf" "$SAVE_DIFFS/seed$seed-round$round.trf"
            fi
        fi
    done
done

echo "bbpPairings: $("$bbp" 2>&1 | head -n 1 || true)"
echo "tournaments: $tournaments, rounds compared: $rounds_compared (bbpPairings found no pairing: $bbp_failed)"
echo "identical pairings: $agreed / $rounds_compared ($(awk -v a="$agreed" -v n="$rounds_compared" 'BEGIN { printf "%.1f", n ? 100 * a / n : 0 }')%)"
echo "same games, some colours differ: $same_opponents"
echo "ours found no pairing: $ours_failed"
