#!/usr/bin/env bash
# Frame time of the shipped levels in the real window under Xvfb (software Vulkan), each beside
# a bare bevy_ecs_tilemap map of the same size (examples/bare_tilemap.rs) in the same run,
# alternating game and baseline nine times. Goal (issue 15): the game's median frame time
# at most 1.25× the bare map's: the median of the nine pairs' ratios (a pair is run back to
# back, so a change of the machine's load between pairs moves both of its figures; the pairs
# alternate which runs first, so a load that rises or falls through the run favours neither).
# Session 17: five pairs, each game first, gave 1.27× and 1.16× on the same build in two runs
# in a row (pairs 0.90–1.49×): the median of five such pairs was a coin toss at the goal.
# Prints Markdown rows for the README's speed table; the pairs' ratios go to stderr.
#   cargo build --release --features tools --bin doo --example bare_tilemap && benches/frame_time.sh
# Needs: xvfb mesa-vulkan-drivers libvulkan1 xauth (Debian).
set -euo pipefail
cd "$(dirname "$0")/.."
dir="${CARGO_TARGET_DIR:-$HOME/.cache/doo-target}/${PROFILE_DIR:-release}"
out="$(mktemp -d)"
frames=360
pairs="1 2 3 4 5 6 7 8 9"
x() { WGPU_BACKEND=vulkan xvfb-run -a -s "-screen 0 1280x720x24" "$@" > /dev/null 2>&1; }
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
field() { grep -o "\"$2\":[0-9.]*" "$1" | cut -d: -f2; }
status=0
# level, and a bare map of the floor on screen (crypt shows one of its two 20×12 floors at a time)
for spec in "ambush 26 11" "crypt 20 12"; do
    set -- $spec
    for k in $pairs; do
        game() { x "$dir/doo" play "levels/$1.ron" --seed 1 --frames $frames --frame-stats "$out/game-$1-$k.json"; }
        bare() { x "$dir/examples/bare_tilemap" "$2" "$3" $frames "$out/bare-$1-$k.json"; }
        if [ $((k % 2)) = 1 ]; then game "$@"; bare "$@"; else bare "$@"; game "$@"; fi
    done
    game=$(for k in $pairs; do field "$out/game-$1-$k.json" median_ms; done | median)
    bare=$(for k in $pairs; do field "$out/bare-$1-$k.json" median_ms; done | median)
    ratios=$(for k in $pairs; do
        awk -v g="$(field "$out/game-$1-$k.json" median_ms)" -v b="$(field "$out/bare-$1-$k.json" median_ms)" 'BEGIN {printf "%.3f\n", g / b}'
    done)
    echo "$1: the pairs' ratios" $ratios >&2
    ratio=$(echo "$ratios" | median)
    ratio=$(awk -v r="$ratio" 'BEGIN {printf "%.2f", r}')
    printf '| frame time, %s (%s×%s spaces) in the real window under Xvfb | %.1f ms | %.1f ms (bare tilemap, same size) | %s× | ≤ 1.25× |\n' "$1" "$2" "$3" "$game" "$bare" "$ratio"
    awk -v r="$ratio" 'BEGIN {exit !(r > 1.25)}' && status=1
done
exit $status
