#!/usr/bin/env bash
# within SECONDS COMMAND...: runs COMMAND in a session of its own and fails if it has not ended within SECONDS,
# printing the threads of every process still in that session (gdb, when installed) and ending them all (TERM,
# then KILL ten seconds later). A test that deadlocks then fails CI in minutes with the place it hangs, instead of
# using up CI's whole time without a word (a deadlock in the StoreKit stand-in's close did that once). `swift test`
# starts its test binary in the same session, so the binary ends too and holds no pipe open after the step; what
# the step leaves running when it ends, and everything when within.sh itself is stopped, is ended as well.
# Run it from a script (no job control): there `setsid` starts the session in the process it is given.
set -uo pipefail
limit=$1
shift
setsid "$@" &
session=$!
end_session() {  # end_session SIGNAL: every process of the step's session
    pkill "-$1" -s "$session" 2>/dev/null || kill "-$1" -- "-$session" 2>/dev/null || true
}
trap 'end_session TERM' INT TERM
deadline=$((SECONDS + limit))
while kill -0 "$session" 2>/dev/null; do
    if ((SECONDS >= deadline)); then
        echo "within.sh: '$*' did not end within $limit s; its processes:" >&2
        for pid in $(pgrep -s "$session"); do
            echo "--- $pid: $(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null)" >&2
            if ! command -v gdb >/dev/null; then
                echo "(no gdb: no threads printed)" >&2
            elif ! timeout 60 gdb -p "$pid" -batch -ex "thread apply all bt 30" 2>&1 | grep -E '^(Thread|#)' >&2; then
                echo "(gdb could not read its threads)" >&2
            fi
        done
        end_session TERM
        for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$session" 2>/dev/null || break; sleep 1; done
        end_session KILL
        wait "$session" 2>/dev/null
        exit 124
    fi
    sleep 1
done
wait "$session"
status=$?
end_session KILL  # what the step left running
exit "$status"
