#!/usr/bin/env bash
# A game's CI job against IOSiAP, needing only the SDK folder (no IOSiAP sources, no Swift toolchain): build the
# game against it, run the game on the local App Store, change the store from outside with the SDK's
# bin/iosiap-store while the game runs (a purchase made elsewhere, a refund, a renewal), and assert on what the
# game printed. Replace the game and the assertions with your own.
# usage: game-ci.sh SDK_DIR GAME_SOURCE CATALOG WORK_DIR
# The machine needs a C++ compiler, pkg-config and the libraries the SDK loads (Debian: libsqlite3-0, libssl3,
# libcurl4, libmicrohttpd12).
set -euo pipefail
sdk=$1 source=$2 catalog=$3 work=$4
store="$sdk/bin/iosiap-store --state $work/state"
fail() { echo "game-ci: $*" >&2; exit 1; }
# Waits up to 5 s for the game's output to hold TEXT (COUNT times, default once).
wait_for() {
    local count=${2:-1}
    for _ in $(seq 50); do [ "$(grep -cF -- "$1" "$work/game.out")" -ge "$count" ] && return 0; sleep 0.1; done
    fail "the game never printed '$1' ($count times):"$'\n'"$(cat "$work/game.out")"
}

mkdir -p "$work"

# 1. Build the game against the SDK folder.
c++ -std=c++11 "$source" $(PKG_CONFIG_PATH="$sdk/lib/pkgconfig" pkg-config --cflags --libs iosiap) -o "$work/game"

# 2. Run it on a fresh local store (this game plays a session, then keeps polling for the time given).
IOSIAP_EXAMPLE_LINGER_SECONDS=15 "$work/game" "$catalog" "$work/state" >"$work/game.out" 2>&1 &
game=$!
trap 'kill $game 2>/dev/null || true' EXIT
wait_for "lingering"

# 3. Change the store from outside while it runs, and check that the game heard of each change.
$store buy com.iosiap.example.coins_100 2             # bought on another device
wait_for "grant: +200 coins"
$store refund 2                                      # the pro upgrade, refunded
wait_for "event: revoked com.iosiap.example.pro_upgrade"
$store buy com.iosiap.example.club_gold_monthly       # a subscription bought elsewhere ...
wait_for "event: purchased #0 com.iosiap.example.club_gold_monthly"
$store renew com.iosiap.example.club_gold_monthly    # ... renewed now
wait_for "event: purchased #0 com.iosiap.example.club_gold_monthly" 2
$store transactions                                  # the store's view, for the job's log
echo "game-ci: the game heard of every change"
