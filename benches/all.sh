#!/usr/bin/env bash
# The README's speed table from one run: every figure beside its baseline, measured in the same
# run (machines here are shared and noisy). Release builds; the frame-time rows need Xvfb; the
# last row runs the network bench beside a second build (benches/net_loaded.sh).
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
# The network bench (issues 32, 44): its own rows, a ratio column added ("—"); it exits 1 when it
# misses a goal (a match that does not end in 300 s: seed 30 does not yet, README; the round
# trip's p99 over 250 ms; a desync).
"$CARGO_TARGET_DIR/release/doo" net-bench --matches 50 --timeout 300 2>/dev/null | grep '^| [^w-]' | sed 's/ | \([^|]*\) |$/ | — | \1 |/' || status=1
echo "(the network bench ran at: $(uptime | sed 's/.*load/load/'))" >&2
# The same beside a second build (issue 44): benches/net_loaded.sh, two runs, each beside a
# release build of the rules crate looping in a target folder of its own; it exits 1 when a run
# misses a goal.
loaded=$(DOO="$CARGO_TARGET_DIR/release/doo" benches/net_loaded.sh 2 2>/dev/null) || status=1
ms() { echo "$loaded" | grep -o "\"$1\":[0-9]*" | cut -d: -f2 | awk '{printf "%s%.1f", (NR > 1 ? ", " : ""), $1 / 1000}'; }
loads=$(echo "$loaded" | grep -o 'load average: [0-9.]*' | cut -d' ' -f3 | sort -g | sed -n '1p;$p' | paste -sd '-' || true)
printf '| a command'"'"'s round trip beside a second build (`benches/net_loaded.sh 2`: a release build of the rules crate looping beside it; load %s) | p99 %s ms (medians %s ms) | — | — | p99 ≤ 250 ms |\n' "$loads" "$(ms rtt_p99_us)" "$(ms rtt_median_us)"
exit $status
