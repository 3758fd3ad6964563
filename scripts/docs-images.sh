#!/usr/bin/env bash
# Regenerates the setup diagrams of the players' rules pages, docs/rules/img/<variant>-start.png,
# with the project's renderer through the CLI (`kaboom render`, spectator view, 640 px).
# Run it after changing the renderer or a start position; bot/tests/it/docs.rs fails
# until the committed pictures equal what the renderer draws now.
#
# Usage: scripts/docs-images.sh            (builds and runs `kaboom` with cargo)
#        KABOOM=path/to/kaboom scripts/docs-images.sh   (uses that binary instead)
set -euo pipefail
cd "$(dirname "$0")/.."
out=docs/rules/img
mkdir -p "$out"
for variant in atomic beirut nuke bomberman bombalot; do
    if [[ -n "${KABOOM:-}" ]]; then
        "$KABOOM" render --variant "$variant" -o "$out/$variant-start.png"
    else
        cargo run --quiet --locked -p kaboom --bin kaboom -- \
            render --variant "$variant" -o "$out/$variant-start.png"
    fi
    echo "wrote $out/$variant-start.png"
done
