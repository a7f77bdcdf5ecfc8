#!/usr/bin/env bash
# within SECONDS COMMAND...: runs COMMAND in a session of its own and fails if it has not ended within SECONDS,
# printing the threads of every process still in that session (gdb, when installed) and killing them all.
# A test that deadlocks then fails CI in minutes with the place it hangs, instead of using up CI's whole time
# without a word (a deadlock in the StoreKit stand-in's close did that once). `swift test` starts its test
# binary in the same session, so the binary is killed too and holds no pipe open after the step.
set -uo pipefail
limit=$1
shift
setsid "$@" &
session=$!
waited=0
while kill -0 "$session" 2>/dev/null; do
    if (( waited >= limit )); then
        echo "within.sh: '$*' did not end within $limit s; its processes:" >&2
        for pid in $(pgrep -s "$session"); do
            echo "--- $pid: $(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null)" >&2
            if command -v gdb >/dev/null; then
                gdb -p "$pid" -batch -ex "thread apply all bt 30" 2>/dev/null | grep -E '^(Thread|#)' >&2 || true
            fi
        done
        pkill -KILL -s "$session" || true
        wait "$session" 2>/dev/null
        exit 124
    fi
    sleep 1
    waited=$((waited + 1))
done
wait "$session"
