#!/usr/bin/env bash
# The difficulty ladder's full table (issue 30): every level in levels/, under its own ruleset
# and A4, hard:normal and normal:easy, 200 seeded games per pairing and row, sides swapped.
# Release build; prints the machine, the date and the table the README keeps.
#   benches/ladder.sh [--games N]
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/doo-target}"
cargo build --release --quiet -p doo_game --bin doo-headless
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); $(date -u +%F)"
echo
"$CARGO_TARGET_DIR/release/doo-headless" ladder --games 200 --jobs "$(nproc)" "$@"
