#!/usr/bin/env bash
# The network bench beside a build (issue 44; README, "Under load"): a release build of the
# rules crate runs again and again in a target folder of its own (the crate cleaned there
# before each build: nothing of the worktree is touched) for the whole of RUNS bench runs; the
# load before and after each run, and each run's summary line. Exit 1 when a run misses a goal.
#   benches/net_loaded.sh [RUNS] [net-bench options...]
#   DOO="/tmp/doo-a /tmp/doo-b" benches/net_loaded.sh 3   (binaries in turn, each run beside the same build)
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/doo-target}"
runs="${1:-3}"
shift || true
[ -n "${DOO:-}" ] || cargo build --release --quiet --features tools --bin doo
doos="${DOO:-$CARGO_TARGET_DIR/release/doo}"
load_dir="${LOAD_TARGET_DIR:-$CARGO_TARGET_DIR-load}"
# The load's dependencies built first: every run then has a compiler of the rules crate beside it.
CARGO_TARGET_DIR="$load_dir" cargo build --release --quiet -p doo_rules
CARGO_TARGET_DIR="$load_dir" setsid bash -c 'while :; do cargo clean --quiet --release -p doo_rules; cargo build --release --quiet -p doo_rules; done' \
    > /dev/null 2>&1 < /dev/null &
load=$!
trap 'kill -- -"$load" 2> /dev/null || true' EXIT
sleep 5
status=0
for i in $(seq "$runs"); do
    for doo in $doos; do
        echo "run $i, $doo: $(uptime | sed 's/.*load/load/')"
        "$doo" net-bench --matches 50 --timeout 300 "$@" 2> /dev/null | grep '^{' || status=1
        echo "run $i done: $(uptime | sed 's/.*load/load/')"
    done
done
exit $status
