#!/usr/bin/env bash
# Issue 13's crash test: a match that plays itself (AI against AI, headless, autosaving after
# every command) is killed with SIGKILL at random moments, at least 20 times, and resumed each
# time from its autosave. Checks after every kill:
#   - the autosave reads as a save (never a torn or corrupt file);
#   - its commands extend the previous autosave's (nothing saved is ever lost);
# and at the end that the game, resumed 20+ times, played exactly the commands and reached the
# final state of the same seed played without interruption.
#   tests/saves/crash.sh DOO_BINARY [LEVEL] [SEED] [KILLS]
set -euo pipefail
doo="$1"; level="${2:-levels/ambush.ron}"; seed="${3:-11}"; kills="${4:-20}"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
save="$work/autosave.ron"
# The uninterrupted game, for comparison.
"$doo" simulate "$level" --seed "$seed" --games 1 --save-dir "$work/ref" > "$work/ref.jsonl"
ref_hash=$(head -1 "$work/ref.jsonl" | grep -o '"final_hash":"[^"]*"')
count() { grep -c '^        [a-z_]*(actor' "$1" 2>/dev/null || echo 0; }
echo "uninterrupted: $(count "$work/ref/game-$seed.ron") commands, $ref_hash"
commands_of() { sed -n '/^    commands: \[/,/^    \],/p' "$1" | grep '^        [a-z_]*(actor' || true; }
prev=0; done_kills=0; runs=0
RANDOM=$seed
while true; do
    runs=$((runs + 1))
    if [ -f "$save" ]; then
        "$doo" simulate --resume "$save" --autosave "$save" > "$work/run.jsonl" 2> "$work/err" &
    else
        "$doo" simulate "$level" --seed "$seed" --games 1 --autosave "$save" > "$work/run.jsonl" 2> "$work/err" &
    fi
    pid=$!
    # A random moment: 50–400 ms in (startup and the replay included).
    sleep "0.$(printf '%03d' $((50 + RANDOM % 350)))"
    if kill -9 "$pid" 2>/dev/null; then
        wait "$pid" 2>/dev/null || true
        done_kills=$((done_kills + 1))
    else
        wait "$pid" || { echo "FAIL: run $runs exited non-zero:"; cat "$work/err"; exit 1; }
        if [ "$done_kills" -ge "$kills" ]; then break; fi
        # The game ended before the kill: play it again from the start with a fresh file.
        echo "  (run $runs finished before the kill; $done_kills kills so far: starting over)"
        rm -f "$save" "$work/prev_cmds"; prev=0; continue
    fi
    [ -f "$save" ] || continue
    "$doo" replay "$save" --verify > /dev/null 2> "$work/err" || { echo "FAIL: after kill $done_kills the autosave does not verify:"; cat "$work/err"; exit 1; }
    n=$(count "$save")
    if [ "$n" -lt "$prev" ]; then echo "FAIL: kill $done_kills: the autosave went from $prev to $n commands"; exit 1; fi
    if [ -f "$work/prev_cmds" ]; then
        commands_of "$save" | head -n "$prev" | cmp -s - "$work/prev_cmds" || { echo "FAIL: kill $done_kills: saved commands changed"; exit 1; }
    fi
    commands_of "$save" > "$work/prev_cmds"; prev=$n
    echo "kill $done_kills: autosave verified, $n commands"
done
got_hash=$(head -1 "$work/run.jsonl" | grep -o '"final_hash":"[^"]*"')
commands_of "$save" > "$work/got"; commands_of "$work/ref/game-$seed.ron" > "$work/want"
cmp -s "$work/got" "$work/want" || { echo "FAIL: the resumed game's commands differ from the uninterrupted game's"; diff "$work/got" "$work/want" | head; exit 1; }
[ "$got_hash" = "$ref_hash" ] || { echo "FAIL: final state $got_hash, uninterrupted $ref_hash"; exit 1; }
echo "ok: $done_kills kills, every autosave verified, the resumed game equals the uninterrupted one ($got_hash)"
