#!/usr/bin/env bash
# LiveStoreKit (the code that calls StoreKit on Apple platforms) run unchanged on the behavioural StoreKit of
# Tests/StoreKitStandIn, backed by the local store: the stand-in graph (IOSIAP_STOREKIT_STANDIN=1, see Package.swift)
# in its own build folder, its Swift tests (Tests/IOSiAPStoreKitStandInTests), and a C game through libiosiap's
# iosiap_store_open_storekit with iosiap-store acting from outside (Tests/native/storekit_game.c), and half a minute
# of the lifecycle simulation over StoreKit. Extra arguments go to `swift test`.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
# Warnings are errors in LiveStoreKit and the stand-in alike.
export IOSIAP_STOREKIT_STANDIN=1
swift build --build-path .build-standin --build-tests -Xswiftc -warnings-as-errors
swift test --skip-build --build-path .build-standin "$@"

swift build --build-path .build-standin --product iosiap -Xswiftc -warnings-as-errors
swift build --build-path .build-standin --product iosiap-store -Xswiftc -warnings-as-errors
bin=$(swift build --build-path .build-standin --show-bin-path)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gcc -std=c99 -Wall -Wextra -pedantic -Werror -IInclude -ITests/native Tests/native/storekit_game.c \
    -L"$bin" -liosiap -Wl,-rpath,"$bin" -o "$work/storekit_game"
catalog=$PWD/Examples/Products.storekit
mkdir "$work/app-store"
IOSIAP_STOREKIT_CONFIGURATION=$catalog IOSIAP_STOREKIT_STATE=$work/app-store \
    "$work/storekit_game" "$work/app-store" "$work/journal-1" "$work/journal-2" "$bin/iosiap-store" "$catalog"

# About half a minute of the lifecycle simulation with the game over StoreKit (scripts/simulate.sh runs longer ones).
IOSIAP_SIMULATE_STOREKIT=1 IOSIAP_SIMULATE_SECONDS=${IOSIAP_SIMULATE_STOREKIT_SECONDS:-30} \
    bash scripts/simulate.sh 100000 "${IOSIAP_SIMULATE_FIRST_SEED:-$((RANDOM * 10))}"
