#!/usr/bin/env bash
# Issue 13's determinism suite: N seeded AI-against-AI games on every shipped level, each saved
# by `doo simulate --save-dir`, then replayed by `doo replay --verify` in a separate process:
# every checkpoint must match, and every game's final state hash must equal the one the
# simulating process printed.
#   tests/saves/determinism.sh DOO_BINARY [GAMES_PER_LEVEL] [FIRST_SEED]
set -euo pipefail
doo="$1"; games="${2:-10}"; seed="${3:-100}"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
total=0
for l in levels/*.ron; do
    name=$(basename "$l" .ron)
    "$doo" simulate "$l" --seed "$seed" --games "$games" --save-dir "$work/$name" > "$work/$name.sim"
    "$doo" replay "$work/$name"/*.ron --verify > "$work/$name.replay" || { echo "FAIL: $l: a save does not verify"; exit 1; }
    for f in "$work/$name"/game-*.ron; do
        s=$(basename "$f" .ron); s=${s#game-}
        want=$(grep "\"seed\":$s," "$work/$name.sim" | grep -o '"final_hash":"[^"]*"')
        got=$(grep "\"save\":\"$f\"" "$work/$name.replay" | grep -o '"final_hash":"[^"]*"')
        [ -n "$want" ] && [ "$want" = "$got" ] || { echo "FAIL: $l seed $s: simulated $want, replayed $got"; exit 1; }
        total=$((total + 1))
    done
    echo "$l: $games games saved, replayed in another process, every checkpoint and final hash equal"
done
echo "ok: $total games"
