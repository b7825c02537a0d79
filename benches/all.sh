#!/usr/bin/env bash
# The README's speed table from one run: every figure beside its baseline, measured in the same
# run (machines here are shared and noisy). Release builds; the frame-time rows need Xvfb.
#   benches/all.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/doo-target}"
cargo build --release --quiet --features tools --bin doo --example bare_tilemap
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); $(date -u +%F)"
echo
echo "| what | figure | baseline, same run | ratio | goal |"
echo "|---|---|---|---|---|"
status=0
cargo bench --quiet -p doo_rules --bench speed 2>/dev/null | grep '^| [^w-]' || status=1
cargo bench --quiet -p doo_game --bench replay 2>/dev/null | grep '^|' || status=1
cargo bench --quiet -p doo_game --bench ai 2>/dev/null | grep '^|' || status=1
benches/frame_time.sh || status=1
exit $status
