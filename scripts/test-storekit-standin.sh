#!/usr/bin/env bash
# LiveStoreKit (the code that calls StoreKit on Apple platforms) run unchanged on the behavioural StoreKit of
# Tests/StoreKitStandIn, backed by the local store: the stand-in graph (IOSIAP_STOREKIT_STANDIN=1, see Package.swift)
# in its own build folder, its Swift tests (Tests/IOSiAPStoreKitStandInTests), and a C game through libiosiap's
# iosiap_store_open_storekit with iosiap-store acting from outside (Tests/native/storekit_game.c, and native tests
# shared with the local store), thirty rounds of the kill -9 campaign and half a minute of the lifecycle simulation
# over StoreKit. Extra arguments go to `swift test`.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
# Warnings are errors in LiveStoreKit and the stand-in alike.
export IOSIAP_STOREKIT_STANDIN=1
step "the stand-in graph: build, and its Swift tests"
swift build --build-path .build-standin --build-tests -Xswiftc -warnings-as-errors
swift test --skip-build --build-path .build-standin "$@"

step "a C game and the native tests over StoreKit"
swift build --build-path .build-standin --product iosiap -Xswiftc -warnings-as-errors
swift build --build-path .build-standin --product iosiap-store -Xswiftc -warnings-as-errors
bin=$(swift build --build-path .build-standin --show-bin-path)
work=$(mktemp -d)
game=""
server=""
trap 'for process in "$game" "$server"; do if [ -n "$process" ]; then kill "$process" 2>/dev/null || true; fi; done; rm -rf "$work"' EXIT
mkdir "$work/samples"  # the docs' Swift samples, against this graph (the local store and LiveStoreKit both in it)
python3 Tests/docs/typecheck_swift_samples.py "$bin/Modules" Sources "$work/samples"
gcc -std=c99 -Wall -Wextra -pedantic -Werror -IInclude -ITests/native Tests/native/storekit_game.c \
    -L"$bin" -liosiap -Wl,-rpath,"$bin" -o "$work/storekit_game"
catalog=$PWD/Examples/Products.storekit
mkdir "$work/app-store"
IOSIAP_STOREKIT_CONFIGURATION=$catalog IOSIAP_STOREKIT_STATE=$work/app-store \
    "$work/storekit_game" "$work/app-store" "$work/journal-1" "$work/journal-2" "$bin/iosiap-store" "$catalog"

# Native tests of the C ABI that run on both backends (Tests/native/expect.h opens StoreKit in this build), each on
# its own App Store with iosiap-store acting from outside.
python3 Tests/native/offers_catalog.py "$catalog" "$work/offers.storekit"  # win-back offers and offer codes
python3 -m pip install --quiet --disable-pip-version-check app-store-server-library 2>&1 | grep -v "Running pip as the 'root' user" || true
signer="python3 $PWD/Tests/python/sign_offer_with_apple_library.py"  # Apple's own signer, for offers and offers_jws
for test in owned_outcomes refund_requests store_queries app_transaction messages subscription_offers offers offers_jws \
    family_sharing payment_options out_structs ledger_at_open delivery_thread bad_input; do
    gcc -std=c99 -Wall -Wextra -pedantic -Werror -DIOSIAP_STOREKIT_STANDIN -IInclude -ITests/native "Tests/native/$test.c" \
        -L"$bin" -liosiap -Wl,-rpath,"$bin" -o "$work/$test"
    mkdir "$work/state-$test"
    test_catalog=$catalog
    extra=()
    case $test in
        messages | subscription_offers) test_catalog=$work/offers.storekit ;;
        offers) read -r -a extra <<<"$($signer "$catalog" com.example.game com.iosiap.example.club_gold_monthly club_gold_winback)" ;;
        offers_jws) extra=("$signer") ;;
    esac
    "$work/$test" "$test_catalog" "$work/state-$test" "$bin/iosiap-store" ${extra[@]+"${extra[@]}"}
done
# Returning from main while the library verifies, run after run (test-native.sh runs it on the local store).
gcc -std=c99 -Wall -Wextra -pedantic -Werror -DIOSIAP_STOREKIT_STANDIN -IInclude -ITests/native \
    Tests/native/exit_while_verifying.c -L"$bin" -liosiap -Wl,-rpath,"$bin" -lpthread -o "$work/exit_while_verifying"
for run in $(seq 10); do
    mkdir "$work/state-exit-$run"
    status=0
    timeout 60 "$work/exit_while_verifying" "$catalog" "$work/state-exit-$run" >"$work/exit-$run.log" 2>&1 || status=$?
    [ "$status" = 0 ] || { cat "$work/exit-$run.log" >&2; echo "run $run of exit_while_verifying over StoreKit ended with status $status" >&2; exit 1; }
done
# With a server that holds every verification: close stops waiting, and main returns while POSTs wait.
start_verification_server "$work" exit-server
for run in $(seq 3); do
    mkdir "$work/state-exit-server-$run"
    before=$(grep -c '^/hang ' "$work/exit-server.requests" || true)
    status=0
    timeout 60 "$work/exit_while_verifying" "$catalog" "$work/state-exit-server-$run" "$server_port" \
        >"$work/exit-server-$run.log" 2>&1 || status=$?
    [ "$status" = 0 ] || { cat "$work/exit-server-$run.log" >&2; echo "run $run of exit_while_verifying over StoreKit with a server ended with status $status" >&2; exit 1; }
    hung=$(( $(grep -c '^/hang ' "$work/exit-server.requests" || true) - before ))
    [ "$hung" -ge 2 ] || { echo "run $run of exit_while_verifying over StoreKit: $hung verifications reached the server, not 2" >&2; exit 1; }
done
kill "$server" 2>/dev/null || true
server=""
# Eight threads requesting while the main thread polls and runs the main run loop (scripts/tsan-storekit.sh runs it
# under ThreadSanitizer).
gcc -std=c11 -Wall -Wextra -Werror -DIOSIAP_STOREKIT_STANDIN -IInclude -ITests/native Tests/native/stress.c \
    -L"$bin" -liosiap -Wl,-rpath,"$bin" -lpthread -o "$work/stress"
mkdir "$work/state-stress"
"$work/stress" "$catalog" "$work/state-stress" 10
for test in ledger delegate_on_open refund_handlers purchase_intent callback_exceptions; do
    g++ -std=c++11 -Wall -Wextra -pedantic -Werror -DIOSIAP_STOREKIT_STANDIN -IInclude -ITests/native "Tests/native/$test.cpp" \
        -L"$bin" -liosiap -Wl,-rpath,"$bin" -o "$work/$test"
    mkdir "$work/state-$test"
    test_catalog=$catalog
    if [ "$test" = purchase_intent ]; then test_catalog=$work/offers.storekit; fi
    "$work/$test" "$test_catalog" "$work/state-$test" "$bin/iosiap-store"
done

# The stand-in's SDK folder (scripts/build-sdk.sh --storekit-standin), as a game's build consumes it: the C and C++
# examples built through its pkg-config open the store over StoreKit, buy, restore, and hear a refund made from
# outside with the folder's own iosiap-store.
step "the C and C++ examples over StoreKit, from the stand-in's SDK folder"
bash scripts/build-sdk.sh --storekit-standin "$work/sdk"
sdk=$work/sdk
[ -f "$sdk/NOT-FOR-RELEASE" ] || { echo "stand-in SDK: no NOT-FOR-RELEASE file" >&2; exit 1; }
exported=$(nm -D --defined-only "$sdk/lib/libiosiap.so" | awk '$2 ~ /^[A-Z]$/ {print $3}')
stray=$(grep -v -e '^iosiap_' -e '^storekit_standin_' <<<"$exported" || true)
[ -z "$stray" ] || { echo "stand-in SDK: symbols outside the C ABI and the stand-in's controls: $(head -5 <<<"$stray")" >&2; exit 1; }
export PKG_CONFIG_PATH=$sdk/lib/pkgconfig
# shellcheck disable=SC2046  # pkg-config's flags are words
gcc -std=c99 -Wall -Wextra -pedantic -Werror Examples/c/main.c $(pkg-config --cflags --libs iosiap) -o "$work/example-c"
# shellcheck disable=SC2046
g++ -std=c++11 -Wall -Wextra -pedantic -Werror Examples/cpp/game.cpp $(pkg-config --cflags --libs iosiap) -o "$work/example-cpp"
mkdir "$work/sdk-store"
export IOSIAP_STOREKIT_CONFIGURATION=$catalog IOSIAP_STOREKIT_STATE=$work/sdk-store
expect_lines() {  # expect_lines FILE TEXT...
    local file=$1; shift
    for text in "$@"; do
        grep -qF -- "$text" "$file" || { cat "$file" >&2; echo "stand-in SDK: $file lacks: $text" >&2; exit 1; }
    done
}
"$work/example-c" "$work/journal-c" >"$work/example-c.out"
expect_lines "$work/example-c.out" "can make payments: 1" "transactions verified: yes" "  com.iosiap.example.coins_100: 100 Coins (\$0.99)" \
    "  invalid: com.iosiap.example.no_such_product" "purchased #2 com.iosiap.example.coins_100 x3 (transaction 1)" \
    "purchased #3 com.iosiap.example.pro_upgrade x1 (transaction 2)" "restore finished #4: ok, 1 restored" \
    "pro upgrade owned: yes" "coins: 300"
# The C++ game on a new journal (a second device): the pro upgrade is owned already, and StoreKit answers its
# purchase with the transaction that grants it. While it lingers, the pro upgrade is refunded from outside.
IOSIAP_EXAMPLE_LINGER_SECONDS=8 "$work/example-cpp" "$work/journal-cpp" >"$work/example-cpp.out" &
game=$!
# Its purchases and restore are done when it says it lingers (each may take 10 s on a busy machine).
for _ in $(seq 1 1200); do grep -qF "lingering" "$work/example-cpp.out" && break; sleep 0.05; done
grep -qF "lingering" "$work/example-cpp.out" \
    || { cat "$work/example-cpp.out" >&2; echo "stand-in SDK: the C++ example never reached its linger" >&2; exit 1; }
"$sdk/bin/iosiap-store" --state "$work/sdk-store" --catalog "$catalog" refund 2 >/dev/null
wait "$game"
game=""
expect_lines "$work/example-cpp.out" "transactions verified: yes" "event: purchased #2 com.iosiap.example.coins_100 x2 (transaction 3)" \
    "event: purchased #3 com.iosiap.example.pro_upgrade x1 (transaction 2)" "event: restore finished #4: ok, 1 restored" \
    "coins: 200, pro: yes" "event: revoked com.iosiap.example.pro_upgrade"
unset IOSIAP_STOREKIT_CONFIGURATION IOSIAP_STOREKIT_STATE PKG_CONFIG_PATH
echo "stand-in SDK: the C and C++ examples bought, restored and heard an outside refund over StoreKit"
# Without its App Store named, the stand-in's StoreKit cannot open: iosiap_store_open_storekit fails, saying why.
if "$work/example-c" "$work/journal-unnamed" >"$work/unnamed.out" 2>&1; then
    cat "$work/unnamed.out" >&2; echo "stand-in SDK: opened without IOSIAP_STOREKIT_CONFIGURATION" >&2; exit 1
fi
expect_lines "$work/unnamed.out" "system error" "needs IOSIAP_STOREKIT_CONFIGURATION"

step "verification over StoreKit"
# Verification over StoreKit: StoreKit's verdict, then a server's (Tests/python/verification_server.py).
start_verification_server "$work" verification-server
gcc -std=c99 -Wall -Wextra -pedantic -Werror -DIOSIAP_STOREKIT_STANDIN -IInclude -ITests/native Tests/native/verification.c \
    -L"$bin" -liosiap -Wl,-rpath,"$bin" -o "$work/verification"
mkdir "$work/state-verification"
"$work/verification" "$catalog" "$work/state-verification" "$server_port"
kill "$server" 2>/dev/null || true
server=""

step "the classic IOSiAP.h over StoreKit"
# The classic IOSiAP.h over StoreKit (as on an iPhone): its App Store named as an Xcode scheme names a configuration,
# its journal in IOSIAP_STATE_DIR; the same lines as scripts/test-native.sh expects of the local store.
classic() {  # classic TEST STATE [PHASE]: one launch, its output appended to STATE.out
    mkdir -p "$work/$2"
    IOSIAP_STOREKIT_CONFIGURATION=$catalog IOSIAP_STOREKIT_STATE=$work/$2 IOSIAP_STATE_DIR=$work/$2/device \
        IOSIAP_STORE_TOOL=$bin/iosiap-store "$work/$1" ${3:+"$3"} >>"$work/$2.out"
}
classic_expects() {  # classic_expects STATE TEXT...
    local state=$1; shift
    for text in "$@"; do
        grep -qF -- "$text" "$work/$state.out" || { cat "$work/$state.out" >&2; echo "classic over StoreKit: $state lacks: $text" >&2; exit 1; }
    done
}
for test in classic_game classic_three_callbacks classic_lifecycle classic_ui_context; do
    std=c++11
    if [ "$test" = classic_three_callbacks ]; then std=c++98; fi  # as the original's games are
    g++ -std=$std -Wall -Wextra -pedantic -Werror -DIOSIAP_STOREKIT_STANDIN -IInclude -ITests/native "Tests/native/$test.cpp" \
        -L"$bin" -liosiap -ldl -Wl,-rpath,"$bin" -o "$work/$test"
done
"$(dirname "$(command -v swift)")/clang++" -std=c++20 -fno-exceptions -Wall -Wextra -pedantic -Werror -DIOSIAP_STOREKIT_STANDIN \
    -IInclude -ITests/native Tests/native/classic_ui_context.cpp -L"$bin" -liosiap -ldl -Wl,-rpath,"$bin" -o "$work/classic_ui_context_clang"
classic classic_game classic-game
classic_expects classic-game "classic product 2 com.iosiap.example.bogus valid=0" \
    "classic payment com.iosiap.example.coins_100 event=1 quantity=2" "classic payment com.iosiap.example.bogus event=2" \
    "classic restore finished true" "classic products listed: 3"
classic classic_three_callbacks classic-three
classic_expects classic-three "payment com.iosiap.example.coins_100 event=1 quantity=2" "three-callback bridge purchased 2"
classic classic_lifecycle classic-late die && classic classic_lifecycle classic-late late-delegate && classic classic_lifecycle classic-late relaunch
classic_expects classic-late "late delegate saw 1" "redelivered 0"
classic classic_lifecycle classic-throw throw && classic classic_lifecycle classic-throw relaunch
classic_expects classic-throw "poll rethrew: the game failed to grant" "redelivered 1"
classic classic_lifecycle classic-reentrant reentrant && classic classic_lifecycle classic-reentrant relaunch
classic_expects classic-reentrant "reentrant done, 2 purchases" "redelivered 0"
classic classic_lifecycle classic-clear clear-delegate && classic classic_lifecycle classic-failures throw-failure
classic classic_lifecycle classic-retry retry
classic_expects classic-clear "clear-delegate done, 1 purchases" "restore finished"
classic_expects classic-failures "poll rethrew: the game failed to show it" "throw-failure done, 2 failures"
classic_expects classic-retry "retry: 50 polls returned, 50 failures"
classic classic_ui_context classic-ui
classic classic_ui_context_clang classic-ui-clang

step "the kill -9 campaign and a journal that cannot be written, over StoreKit"
# The kill -9 campaign over StoreKit: nothing paid is lost, nothing is granted twice.
IOSIAP_CRASH_STOREKIT=1 bash scripts/crash-campaign.sh 30 "${IOSIAP_CRASH_SEED:-$RANDOM}"

# A journal that cannot be written over StoreKit (Tests/native/faults.c): the open is refused with a clear storage
# error (before StoreKit is asked anything); once it can be written again, nothing bought before is lost. The
# journal first holds a purchase made from outside and granted at a launch (crash-campaign.py's recovery launch).
for test in faults crash_game; do
    gcc -std=c99 -Wall -Wextra -pedantic -Werror -DIOSIAP_STOREKIT_STANDIN -IInclude -ITests/native "Tests/native/$test.c" \
        -L"$bin" -liosiap -Wl,-rpath,"$bin" -o "$work/$test"
done
faulty=$work/state-read-only
"$bin/iosiap-store" --state "$faulty" --catalog "$catalog" buy com.iosiap.example.coins_100 2 >/dev/null
"$work/crash_game" "$catalog" "$faulty" recover >/dev/null
python3 scripts/crash-campaign.py --storekit --game "$work/crash_game" --catalog "$catalog" --state "$faulty" --rounds 0
chmod 444 "$faulty"/device/*
chmod 555 "$faulty/device"
if [ "$(id -u)" -eq 0 ]; then
    # root writes anywhere: the launch runs as nobody, who may write the App Store's files but not the journal.
    chmod 755 "$work"
    cp "$catalog" "$work/Products.storekit"
    chmod 644 "$work/Products.storekit"
    find "$faulty" -path "$faulty/device" -prune -o -type d -exec chmod 777 {} + -o -type f -exec chmod 666 {} +
    IOSIAP_STOREKIT_CONFIGURATION=$work/Products.storekit IOSIAP_STOREKIT_STATE=$faulty \
        setpriv --reuid=65534 --regid=65534 --clear-groups "$work/faults" "$work/Products.storekit" "$faulty" read-only
else
    IOSIAP_STOREKIT_CONFIGURATION=$catalog IOSIAP_STOREKIT_STATE=$faulty "$work/faults" "$catalog" "$faulty" read-only
fi
chmod 755 "$faulty/device"
chmod 644 "$faulty"/device/*
python3 scripts/crash-campaign.py --storekit --game "$work/crash_game" --catalog "$catalog" --state "$faulty" --rounds 0

step "the lifecycle simulation over StoreKit"
# About half a minute of the lifecycle simulation with the game over StoreKit (scripts/simulate.sh runs longer ones).
IOSIAP_SIMULATE_STOREKIT=1 IOSIAP_SIMULATE_SECONDS=${IOSIAP_SIMULATE_STOREKIT_SECONDS:-30} \
    bash scripts/simulate.sh 100000 "${IOSIAP_SIMULATE_FIRST_SEED:-$((RANDOM * 10))}"
