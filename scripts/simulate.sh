#!/usr/bin/env bash
# The lifecycle simulation (see scripts/simulate.py): scripts/simulate.sh [SEEDS] [FIRST_SEED].
# Runs SEEDS seeds (default 100) from FIRST_SEED (default 1); IOSIAP_SIMULATE_SECONDS=S stops starting seeds after
# S seconds (the test command runs half a minute). A divergence prints its seed and a shrunk trace, which
# `python3 scripts/simulate.py --replay TRACE.json --verbose ...` runs again.
# IOSIAP_SIMULATE_JOBS=N splits the seeds into N runs side by side (a seed mostly waits on the game, so several
# share two cores well), each printing its result when all have ended.
# IOSIAP_SDK=folder reuses an SDK folder already built by scripts/build-sdk.sh.
# IOSIAP_SIMULATE_STOREKIT=1 runs the game over StoreKit instead: libiosiap of the StoreKit stand-in's graph
# (Tests/StoreKitStandIn, LiveStoreKit unchanged beneath the core), its App Store the local store the model reads.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
seeds=${1:-100}
first=${2:-1}
jobs=${IOSIAP_SIMULATE_JOBS:-1}
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
storekit=()
if [ -n "${IOSIAP_SIMULATE_STOREKIT:-}" ]; then
    # The flags scripts/test-storekit-standin.sh builds with, so that neither rebuilds the other's work.
    IOSIAP_STOREKIT_STANDIN=1 swift build --build-path .build-standin --product iosiap -Xswiftc -warnings-as-errors >/dev/null
    IOSIAP_STOREKIT_STANDIN=1 swift build --build-path .build-standin --product iosiap-store -Xswiftc -warnings-as-errors >/dev/null
    bin=$(IOSIAP_STOREKIT_STANDIN=1 swift build --build-path .build-standin --show-bin-path)
    gcc -std=c99 -Wall -Wextra -pedantic -Werror -pthread -DSIM_STOREKIT -IInclude -ITests/native \
        Tests/native/sim_game.c -L"$bin" -liosiap -Wl,-rpath,"$bin" -o "$work/sim_game"
    cli=$bin/iosiap-store
    storekit=(--storekit)
else
    source scripts/sdk-game.sh
    compile_sdk_game "$work" Tests/native/sim_game.c "$work/sim_game"
    swift build --product iosiap-store >/dev/null  # the debug build the test command has made already
    cli=$(swift build --show-bin-path)/iosiap-store
fi
simulate() {  # FIRST COUNT
    python3 scripts/simulate.py --game "$work/sim_game" --cli "$cli" --catalog Examples/Products.storekit \
        --seeds "$2" --first-seed "$1" --seconds "${IOSIAP_SIMULATE_SECONDS:-0}" ${storekit[@]+"${storekit[@]}"}
}
if [ "$jobs" -le 1 ]; then
    simulate "$first" "$seeds"
    exit
fi
share=$(((seeds + jobs - 1) / jobs))
runs=()
for ((start = first; start < first + seeds; start += share)); do
    count=$((first + seeds - start < share ? first + seeds - start : share))
    simulate "$start" "$count" >"$work/run-$start.txt" 2>&1 &
    runs+=("$!:$start")
done
failed=0
for run in ${runs[@]+"${runs[@]}"}; do  # (an empty array is unset to bash before 4.4)
    wait "${run%%:*}" || failed=1
    cat "$work/run-${run##*:}.txt"
done
exit "$failed"
