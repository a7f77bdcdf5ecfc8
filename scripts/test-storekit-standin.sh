#!/usr/bin/env bash
# LiveStoreKit (the code that calls StoreKit on Apple platforms) run unchanged on the behavioural StoreKit of
# Tests/StoreKitStandIn, backed by the local store: the stand-in graph (IOSIAP_STOREKIT_STANDIN=1, see Package.swift)
# in its own build folder, and its tests (Tests/IOSiAPStoreKitStandInTests). Extra arguments go to `swift test`.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
# Warnings are errors in LiveStoreKit and the stand-in alike.
IOSIAP_STOREKIT_STANDIN=1 swift build --build-path .build-standin --build-tests -Xswiftc -warnings-as-errors
IOSIAP_STOREKIT_STANDIN=1 swift test --skip-build --build-path .build-standin "$@"
