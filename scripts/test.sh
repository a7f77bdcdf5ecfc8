#!/usr/bin/env bash
# Every check a change must pass: a warning-free build, the Swift example session against the bundled
# catalog with its output checked, the unit tests, the StoreKit backend against StoreKit's signatures
# (scripts/check-storekit.sh), LiveStoreKit on the behavioural StoreKit stand-in (scripts/test-storekit-standin.sh),
# the Apple graph's libiosiap against Linux's (scripts/check-apple-graph.sh),
# the C ABI's checks (scripts/test-native.sh), the headers' API reference (scripts/build-docs.sh), the
# transaction manager's page in a browser (Tests/browser/transaction_manager.sh), and a short fuzzing run
# (scripts/fuzz.sh).
# Each step that runs tests has a deadline well above its time (scripts/within.sh): one that hangs fails with
# its threads printed.
set -euo pipefail
cd "$(dirname "$0")/.."
IOSIAP_SETUP_PACKAGES="shellcheck libmicrohttpd-dev" source scripts/setup.sh

step "build (warnings are errors)"
swift build --build-tests -Xswiftc -warnings-as-errors

step "example session"
output=$(swift run --skip-build iosiap-example-session)
echo "$output"
expect() {
    grep -qF -- "$1" <<<"$output" || { echo "example session: expected a line with: $1" >&2; exit 1; }
}
expect "invalid: com.iosiap.example.no_such_product"
expect "100 Coins — \$0.99"
expect "grant: +300 coins, balance 300"
expect "cancelled #4 com.iosiap.example.season_pass (by the user; nothing charged)"
expect "deferred #5 com.iosiap.example.club_gold_monthly"
expect "purchased (no request) com.iosiap.example.club_gold_monthly"
expect "failed #6 com.iosiap.example.coins_100: simulated Purchase error"
expect "restore finished #7: 2 restored"
expect "owns com.iosiap.example.pro_upgrade"
expect "purchased #8 com.iosiap.example.club_gold_monthly x1 (transaction 4, promotional offer club_gold_winback"
expect "owns com.iosiap.example.club_gold_monthly"
localized=$(swift run --skip-build iosiap-example-session --locale de_DE --storefront DEU)
nbsp=$(printf '\xc2\xa0')  # ICU separates the amount and the euro sign with a no-break space
grep -qF "100 Münzen — 0,99${nbsp}€" <<<"$localized" || { echo "example session: no German prices" >&2; exit 1; }

step "unit tests"
bash scripts/within.sh 600 swift test --skip-build

step "StoreKit backend, Live/ included, type-checked against the transcribed StoreKit declarations (iOS, macOS, tvOS, visionOS)"
bash scripts/within.sh 600 bash scripts/check-storekit.sh

step "LiveStoreKit run on the behavioural StoreKit stand-in (backed by the local store)"
bash scripts/within.sh 900 bash scripts/test-storekit-standin.sh

step "the Apple graph (libiosiap as iOS builds it: no OpenSSL, no local store, StoreKit's branch): same symbols as Linux"
bash scripts/within.sh 600 bash scripts/check-apple-graph.sh

step "scripts/build-xcframework.sh (it runs on macOS only: here it is parsed and linted)"
bash -n scripts/build-xcframework.sh
shellcheck --shell=bash scripts/build-xcframework.sh

step "C ABI, shared library, C and C++ layers"
bash scripts/within.sh 1200 bash scripts/test-native.sh

step "the API reference (Doxygen): every public function, type, field and macro of the C and C++ headers documented"
bash scripts/within.sh 300 bash scripts/build-docs.sh

step "the transaction manager's page in headless Chromium, while the C++ example game runs"
bash scripts/within.sh 600 bash Tests/browser/transaction_manager.sh

step "benchmarks, smoke run (scripts/benchmark.sh runs them in full)"
IOSIAP_BENCHMARK_JSON=$(mktemp) bash scripts/within.sh 600 bash scripts/benchmark.sh --quick

step "fuzzing: the JWS parser and verifier, signed payload JSON, the .storekit parser, the C ABI's strings (15 s each; scripts/fuzz.sh runs them longer)"
fuzz_seconds=${IOSIAP_FUZZ_SECONDS:-15}  # kept short: the test command must end within 30 minutes on 2 cores
bash scripts/within.sh $((300 + 5 * fuzz_seconds)) bash scripts/fuzz.sh "$fuzz_seconds"
echo "== every check passed  [$SECONDS s]"
