#!/usr/bin/env bash
# The kill -9 campaign (see scripts/crash-campaign.py): scripts/crash-campaign.sh [ROUNDS] [SEED].
# The test command runs 30 rounds; run 500 (about 5 minutes) before a release: scripts/crash-campaign.sh 500.
# IOSIAP_SDK=folder reuses an SDK folder already built by scripts/build-sdk.sh.
# IOSIAP_CRASH_STOREKIT=1 kills a game that buys over StoreKit instead: libiosiap of the StoreKit stand-in's graph.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
rounds=${1:-30}
seed=${2:-$RANDOM}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
storekit=()
if [ -n "${IOSIAP_CRASH_STOREKIT:-}" ]; then
    # The flags scripts/test-storekit-standin.sh builds with, so that neither rebuilds the other's work.
    IOSIAP_STOREKIT_STANDIN=1 swift build --build-path .build-standin --product iosiap -Xswiftc -warnings-as-errors >/dev/null
    bin=$(IOSIAP_STOREKIT_STANDIN=1 swift build --build-path .build-standin --show-bin-path)
    gcc -std=c99 -Wall -Wextra -pedantic -Werror -DIOSIAP_STOREKIT_STANDIN -IInclude -ITests/native Tests/native/crash_game.c \
        -L"$bin" -liosiap -Wl,-rpath,"$bin" -o "$work/crash_game"
    storekit=(--storekit)
else
    source scripts/sdk-game.sh
    compile_sdk_game "$work" Tests/native/crash_game.c "$work/crash_game"
fi
python3 scripts/crash-campaign.py --game "$work/crash_game" --catalog Examples/Products.storekit \
    --state "$work/state" --rounds "$rounds" --seed "$seed" ${storekit[@]+"${storekit[@]}"}
