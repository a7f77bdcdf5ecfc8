#!/usr/bin/env bash
# ThreadSanitizer over StoreKit: libiosiap of the StoreKit stand-in's graph (LiveStoreKit under the core, the
# stand-in's App Store beneath it) built instrumented, under the three native tests scripts/test-native.sh runs with
# TSan on the local store: eight threads requesting while the main thread polls (Tests/native/stress.c), the
# delivery thread, and grants registered in on_open. Its own build folder (.build-tsan-standin) costs minutes, so the
# test command leaves it out; run it after a change to threads, locks or the StoreKit backend.
# usage: scripts/tsan-storekit.sh [ROUNDS] (stress.c's rounds per thread, default 20)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
rounds=${1:-20}
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "usage: scripts/tsan-storekit.sh [ROUNDS] (a positive number)" >&2; exit 2; }
export IOSIAP_STOREKIT_STANDIN=1
toolchain=$(dirname "$(dirname "$(command -v swift)")")   # e.g. /opt/swift/usr
clang=$toolchain/bin/clang
build=(--build-path .build-tsan-standin --sanitize=thread)
swift build "${build[@]}" --product iosiap >/dev/null
swift build "${build[@]}" --product iosiap-store >/dev/null
bin=$(swift build "${build[@]}" --show-bin-path)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
catalog=$PWD/Examples/Products.storekit
for test in stress delivery_thread ledger_at_open; do
    "$clang" -std=c11 -Wall -Wextra -Werror -g -fsanitize=thread -DIOSIAP_STOREKIT_STANDIN -IInclude -ITests/native \
        "Tests/native/$test.c" -L"$bin" -liosiap -L"$toolchain/lib/swift/linux" -ldispatch -lBlocksRuntime \
        -Wl,-rpath,"$bin" -Wl,-rpath,"$toolchain/lib/swift/linux" -lpthread -o "$work/$test"
    mkdir "$work/state-$test"
done
export TSAN_OPTIONS=halt_on_error=1:exitcode=66
# Each with a deadline far above its time: one that hangs fails with its threads printed.
bash scripts/within.sh 600 "$work/stress" "$catalog" "$work/state-stress" "$rounds"
bash scripts/within.sh 300 "$work/delivery_thread" "$catalog" "$work/state-delivery_thread" "$bin/iosiap-store"
bash scripts/within.sh 300 "$work/ledger_at_open" "$catalog" "$work/state-ledger_at_open" "$bin/iosiap-store" 4
echo "tsan over StoreKit: stress, the delivery thread and on_open clean"
