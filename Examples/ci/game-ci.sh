#!/usr/bin/env bash
# A game's CI job against IOSiAP, needing only the SDK folder (no IOSiAP sources, no Swift toolchain): build the
# game against it, run the game on the local App Store, change the store from outside with the SDK's
# bin/iosiap-store while the game runs (a purchase made elsewhere, a refund, a renewal), and assert on what the
# game printed. Replace the game and the assertions with your own.
# usage: game-ci.sh SDK_DIR GAME_SOURCE CATALOG WORK_DIR
# The machine needs a C++ compiler and the libraries the SDK loads (Debian: libsqlite3-0, libssl3, libcurl4,
# libmicrohttpd12).
set -euo pipefail
sdk=$1 source=$2 catalog=$3 work=$4
if [ -z "$sdk" ] || [ -z "$work" ]; then echo "usage: game-ci.sh SDK_DIR GAME_SOURCE CATALOG WORK_DIR" >&2; exit 2; fi
store=("$sdk/bin/iosiap-store" --state "$work/state")
fail() { echo "game-ci: $*" >&2; exit 1; }
# How many times the game's output holds TEXT so far.
printed() { grep -cF -- "$1" "$work/game.out" || true; }
# Waits up to 5 s for the game's output to hold TEXT COUNT times.
wait_for() {
    for _ in $(seq 50); do [ "$(printed "$1")" -ge "$2" ] && return 0; sleep 0.1; done
    fail "the game never printed '$1' ($2 times):"$'\n'"$(cat "$work/game.out")"
}
# Runs iosiap-store with ARGUMENTS, then waits for the game to print TEXT once more than it had before.
change_and_expect() {
    local text=$1 before
    shift
    before=$(printed "$text")
    "${store[@]}" "$@" >/dev/null
    wait_for "$text" $((before + 1))
}

# Each run starts from an empty store, so that runs do not depend on each other.
rm -rf "$work/state"
mkdir -p "$work"

# 1. Build the game against the SDK folder (pkg-config --cflags --libs iosiap gives the same flags, for paths
#    without spaces).
c++ -std=c++11 "$source" -I"$sdk/include" -L"$sdk/lib" -liosiap -Wl,-rpath,"$sdk/lib" -o "$work/game"

# 2. Run it on a fresh local store (this game plays a session, then keeps polling for the time given).
IOSIAP_EXAMPLE_LINGER_SECONDS=15 "$work/game" "$catalog" "$work/state" >"$work/game.out" 2>&1 &
game=$!
trap 'kill $game 2>/dev/null || true' EXIT
wait_for "lingering" 1

# 3. Change the store from outside while it runs, and check that the game heard of each change (what it printed
#    during its own session does not count).
change_and_expect "grant: +200 coins" buy com.iosiap.example.coins_100 2          # bought on another device
change_and_expect "event: revoked com.iosiap.example.pro_upgrade" refund 2 other  # the pro upgrade, refunded
gold="event: purchased #0 com.iosiap.example.club_gold_monthly"
change_and_expect "$gold" buy com.iosiap.example.club_gold_monthly                # a subscription bought elsewhere ...
change_and_expect "$gold" renew com.iosiap.example.club_gold_monthly              # ... renewed now
"${store[@]}" transactions                                                       # the store's view, for the job's log
kill -0 "$game" 2>/dev/null || fail "the game ended before the job did:"$'\n'"$(cat "$work/game.out")"
echo "game-ci: the game heard of every change"
