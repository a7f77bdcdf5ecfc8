#!/usr/bin/env bash
# The C ABI's checks: the self-contained library (exports, dependencies), the header against the Swift
# exports, the headers in every language mode, the C and C++ examples with gcc and clang against the SDK
# folder, a CMake consumer, bad input through the C ABI, ASan+UBSan runs, and a ThreadSanitizer stress run.
set -euo pipefail
cd "$(dirname "$0")/.."
IOSIAP_SETUP_PACKAGES="cmake libmicrohttpd-dev"  # libmicrohttpd: iosiap-store serve
source scripts/setup.sh
root=$PWD
work=$(mktemp -d)
server=""
trap 'rm -rf "$work"; if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; fi' EXIT
catalog=$root/Examples/Products.storekit
toolchain=$(dirname "$(dirname "$(command -v swift)")")   # e.g. /opt/swift/usr
clang=$toolchain/bin/clang
clangxx=$toolchain/bin/clang++
passed=0
check() { echo "  ok: $*"; passed=$((passed + 1)); }
fail() { echo "FAILED: $*" >&2; exit 1; }
expect_in() {  # expect_in FILE TEXT...
    local file=$1; shift
    for text in "$@"; do grep -qF -- "$text" "$file" || { cat "$file" >&2; fail "$file lacks: $text"; }; done
}

step "SDK"
bash scripts/build-sdk.sh "$work/sdk"
sdk=$work/sdk
lib=$sdk/lib/libiosiap.so
for file in LICENSE NOTICE licenses/Swift-LICENSE.txt licenses/ICU-LICENSE.txt; do [ -s "$sdk/$file" ] || fail "the SDK folder lacks $file"; done
expect_in "$sdk/LICENSE" "Apache License" "Version 2.0, January 2004"
expect_in "$sdk/licenses/Swift-LICENSE.txt" "Runtime Library Exception"
check "LICENSE, NOTICE and the Swift runtime's licence are in the SDK folder"

step "the library exports the C ABI only and needs no Swift toolchain"
exported=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[A-Z]$/ {print $3}' | sort)
stray=$(grep -v '^iosiap_' <<<"$exported" || true)
[ -z "$stray" ] || fail "symbols outside the C ABI are exported: $(head -5 <<<"$stray")"
declared=$(grep -oE '\biosiap_[a-z_]+\(' Include/iosiap/iosiap.h | tr -d '(' | sort -u)
[ "$declared" = "$exported" ] || fail "exports differ from the header: $(diff <(echo "$declared") <(echo "$exported") || true)"
check "$(wc -l <<<"$exported") symbols exported, all iosiap_*, all declared"
if ldd "$lib" | grep -F "$toolchain"; then fail "libiosiap.so resolves into the toolchain ($toolchain)"; fi
ldd "$lib" | grep -q "not found" && fail "libiosiap.so has unresolved dependencies"
check "ldd: $(ldd "$lib" | awk '{print $1}' | tr '\n' ' ')"

step "the shipped library carries no static symbol table; its debug file, named by its debug link, does"
[ -z "$(nm "$lib" 2>/dev/null | head -1)" ] || fail "libiosiap.so still carries its static symbol table"
[ "$(readelf --string-dump=.gnu_debuglink "$lib" | grep -o 'libiosiap.so.debug')" = libiosiap.so.debug ] || fail "no debug link"
# (grep reads nm's whole output: with pipefail, a grep -q that stops early would fail the pipe with SIGPIPE.)
[ "$(nm "$lib.debug" | grep -c " T iosiap_store_open_local$")" = 1 ] || fail "libiosiap.so.debug lacks the symbols"
check "libiosiap.so $(stat -c %s "$lib") bytes, its debug file $(stat -c %s "$lib.debug") bytes"

step "bin/iosiap-store runs from a copy of the SDK folder, without the toolchain"
store_tool=$sdk/bin/iosiap-store
if ldd "$store_tool" | grep -F "$toolchain"; then fail "bin/iosiap-store resolves into the toolchain ($toolchain)"; fi
ldd "$store_tool" | grep -q "not found" && fail "bin/iosiap-store has unresolved dependencies"
cp -r "$sdk" "$work/sdk-elsewhere"
env -i PATH=/usr/bin:/bin "$work/sdk-elsewhere/bin/iosiap-store" --state "$work/state-sdk-tool" --catalog "$catalog" \
    buy com.iosiap.example.pro_upgrade >"$work/sdk-tool.out" 2>&1
expect_in "$work/sdk-tool.out" "bought com.iosiap.example.pro_upgrade x1: transaction 1"
check "the SDK's iosiap-store buys from a copied folder with a bare PATH; ldd: $(ldd "$store_tool" | awk '{print $1}' | tr '\n' ' ')"

step "the hand-written header matches the Swift exports"
swift build --target IOSiAPExports -Xswiftc -warnings-as-errors >/dev/null
# The exports use `package` declarations of the core, so the check needs SwiftPM's package name.
# IOSIAP_LOCAL_STORE: Package.swift sets it on Linux, where the local store's functions are the real ones
# (scripts/check-apple-graph.sh compares the other branch, UnavailableExports.swift).
package_name=$(grep -o 'package-name","[^"]*' .build/debug.yaml | head -1 | cut -d'"' -f3)
swiftc -typecheck -parse-as-library -module-name IOSiAPExports -package-name "$package_name" -D IOSIAP_LOCAL_STORE \
    -I "$(swift build --show-bin-path)/Modules" \
    -Xcc -fmodule-map-file=Sources/CIOSiAP/module.modulemap -Xcc -fmodule-map-file=Sources/CSQLite/module.modulemap \
    -Xcc -fmodule-map-file=Sources/CCrypto/module.modulemap -Xcc -fmodule-map-file=Sources/CCurl/module.modulemap \
    -Xcc -fmodule-map-file=Sources/CCryptoAtExit/include/module.modulemap \
    Sources/IOSiAPExports/*.swift -emit-clang-header-path "$work/generated.h"
python3 Tests/native/compare_headers.py Include/iosiap/iosiap.h "$work/generated.h" \
    Sources/IOSiAPCore/Errors/StoreErrorCode.swift Sources/IOSiAPCore/Store/RequestValidation.swift
check "no drift"

step "headers compile in every language mode"
for cc in gcc "$clang"; do
    for std in c99 c11; do
        $cc -std=$std -Wall -Wextra -pedantic -Werror -I"$sdk/include" Tests/native/header_test.c -o "$work/h" -L"$sdk/lib" -liosiap -Wl,-rpath,"$sdk/lib"
        "$work/h" || fail "header test ($cc $std)"
    done
done
for cxx in g++ "$clangxx"; do
    for std in c++11 c++14 c++17 c++20; do
        $cxx -std=$std -Wall -Wextra -pedantic -Werror -I"$sdk/include" Tests/native/header_test.cpp -o "$work/h" -L"$sdk/lib" -liosiap -Wl,-rpath,"$sdk/lib"
        "$work/h" || fail "header test ($cxx $std)"
    done
    # iosiap.hpp has a mode for games built without exceptions.
    $cxx -std=c++11 -fno-exceptions -Wall -Wextra -pedantic -Werror -I"$sdk/include" Tests/native/header_test.cpp -o "$work/h" \
        -L"$sdk/lib" -liosiap -Wl,-rpath,"$sdk/lib"
    "$work/h" || fail "header test ($cxx -fno-exceptions)"
done
for cc in gcc "$clang"; do  # the C header alone, as C89 and C++98 (IOSiAP.h's C++98 games include it)
    printf '#include <iosiap/iosiap.h>\nint main(void) { return 0; }\n' >"$work/header89.c"
    $cc -std=c89 -Wall -Wextra -pedantic -Werror -I"$sdk/include" -fsyntax-only "$work/header89.c"
    $cc -x c++ -std=c++98 -Wall -Wextra -pedantic -Werror -I"$sdk/include" -fsyntax-only "$work/header89.c"
done
check "C89, C99, C11 (gcc, clang); C++98 (the C header), 11, 14, 17, 20 (g++, clang++); C++11 without exceptions"

step "the docs' C samples compile against the header"
mkdir "$work/samples"
for cc in gcc "$clang"; do python3 Tests/docs/compile_c_samples.py "$cc" "$sdk/include" "$work/samples"; done
check "every C sample of README.md and docs/ compiles (gcc, clang)"
for cxx in g++ "$clangxx"; do python3 Tests/docs/compile_cpp_samples.py "$cxx" "$sdk/include" "$work/cpp-samples"; done
check "every C++ sample of README.md and docs/ compiles (g++, clang++; the classic ones as C++98 too)"
swift build --product iosiap-verify -Xswiftc -warnings-as-errors >/dev/null
python3 Tests/docs/run_shell_samples.py "$sdk" "$(swift build --show-bin-path)/iosiap-verify" "$catalog" "$work/shell-samples"
check "every shell sample line of README.md and docs/ runs (the main job, the SDK build and quick start, iosiap-store, iosiap-verify)"

step "examples, with gcc and clang, through pkg-config"
export PKG_CONFIG_PATH=$sdk/lib/pkgconfig
for pair in "gcc g++" "$clang $clangxx"; do
    read -r cc cxx <<<"$pair"
    name=$(basename "$cc")
    # shellcheck disable=SC2046
    $cc -std=c99 -Wall -Wextra -pedantic -Werror Examples/c/main.c $(pkg-config --cflags --libs iosiap) -o "$work/c-$name"
    "$work/c-$name" "$catalog" "$work/state-c-$name" >"$work/c-$name.out"
    expect_in "$work/c-$name.out" "transactions verified: no (delivered unchecked: for development only)" \
        "invalid: com.iosiap.example.no_such_product" "grant: balance 300 coins" \
        "restore finished #4: ok, 1 restored" "pro upgrade owned: yes" "owns com.iosiap.example.pro_upgrade"
    # shellcheck disable=SC2046
    $cxx -std=c++11 -Wall -Wextra -pedantic -Werror Examples/cpp/game.cpp $(pkg-config --cflags --libs iosiap) -o "$work/cpp-$name"
    "$work/cpp-$name" "$catalog" "$work/state-cpp-$name" de_DE DEU >"$work/cpp-$name.out"
    expect_in "$work/cpp-$name.out" "transactions verified: no (delivered unchecked: for development only)" "100 Münzen" "grant: +200 coins, balance 200" "finished transaction 2: ok" \
        "buy 11 pro upgrades refused: quantity 11 is outside 1...10 (-4)" "event: restore finished #4: ok, 1 restored" \
        "coins: 200, pro: yes"
    # The shop's columns line up in German too (padded by characters, not UTF-8 bytes).
    nbsp=$(printf '\xc2\xa0')
    expect_in "$work/cpp-$name.out" "  100 Münzen         0,99${nbsp}€  Ein" "  Pro-Upgrade        2,99${nbsp}€  Entfernt"
    # shellcheck disable=SC2046
    $cxx -std=c++11 -Wall -Wextra -pedantic -Werror -I"$sdk/include" Tests/native/classic_game.cpp $(pkg-config --libs iosiap) -o "$work/classic-$name"
    IOSIAP_CATALOG=$catalog IOSIAP_STATE_DIR=$work/state-classic-$name "$work/classic-$name" >"$work/classic-$name.out"
    expect_in "$work/classic-$name.out" "classic product 2 com.iosiap.example.bogus valid=0" \
        "classic payment com.iosiap.example.coins_100 event=1 quantity=2" "classic payment com.iosiap.example.bogus event=2" \
        "classic restore finished true" "classic products listed: 3"
    check "C example, C++ example and classic game built with $name and run"
done

step "a CMake consumer: find_package(IOSiAP) and IOSiAP::iosiap"
cmake -S Examples/cpp -B "$work/cmake" -DCMAKE_PREFIX_PATH="$sdk" >/dev/null
cmake --build "$work/cmake" >/dev/null
"$work/cmake/iosiap-example-game" "$catalog" "$work/state-cmake" >"$work/cmake.out"
expect_in "$work/cmake.out" "coins: 200, pro: yes"
python3 Tests/docs/build_cmake_samples.py "$sdk" "$catalog" "$work/cmake-samples"
# A game asking for a version whose games this one breaks (0.2: structs 0.3 refuses; 0.4: CHANGELOG's migration
# from 0.4) is told at configure time.
for old in 0.2 0.4; do
    mkdir "$work/cmake-$old"
    printf 'cmake_minimum_required(VERSION 3.16)\nproject(old C)\nfind_package(IOSiAP %s REQUIRED)\n' "$old" >"$work/cmake-$old/CMakeLists.txt"
    if cmake -S "$work/cmake-$old" -B "$work/cmake-$old/build" -DCMAKE_PREFIX_PATH="$sdk" >"$work/cmake-$old.out" 2>&1; then
        fail "find_package(IOSiAP $old) was accepted, though later versions broke games built for it"
    fi
done
check "the example's CMakeLists.txt and every CMake sample of README.md and docs/ build against the SDK folder and run; find_package(IOSiAP 0.2 or 0.4) is refused"

step "docs/ci.md's job (Examples/ci/game-ci.sh) on the example game, with the SDK folder alone"
python3 - "$root/docs/ci.md" "$root/Examples/ci/game-ci.sh" <<'PY'
import sys
doc, script = open(sys.argv[1]).read(), open(sys.argv[2]).read()
block = doc.split("```bash\n", 1)[1].split("```", 1)[0] if "```bash\n" in doc else ""
sys.exit(0 if block == script else "docs/ci.md does not show Examples/ci/game-ci.sh as it is")
PY
# The SDK folder copied where a CI job keeps its artifacts, in folders whose names have spaces.
cp -a "$sdk" "$work/ci artifacts"
env -i PATH=/usr/bin:/bin bash Examples/ci/game-ci.sh "$work/ci artifacts" Examples/cpp/game.cpp "$catalog" "$work/game ci" \
    >"$work/game-ci.out" 2>&1 || { cat "$work/game-ci.out" >&2; fail "docs/ci.md's job failed"; }
expect_in "$work/game-ci.out" "game-ci: the game heard of every change"
# A change the game never hears of fails the job: here the purchase made elsewhere is left out.
sed 's/^change_and_expect "grant: +200 coins" buy .*/change_and_expect "grant: +200 coins" transactions/' Examples/ci/game-ci.sh >"$work/game-ci-no-buy.sh"
! grep -q 'buy com.iosiap.example.coins_100 2' "$work/game-ci-no-buy.sh" || fail "the job without its purchase still buys"
if env -i PATH=/usr/bin:/bin bash "$work/game-ci-no-buy.sh" "$sdk" Examples/cpp/game.cpp "$catalog" "$work/game-ci-no-buy" >"$work/game-ci-no-buy.out" 2>&1; then
    fail "docs/ci.md's job passed though no purchase was made from outside"
fi
expect_in "$work/game-ci-no-buy.out" "game-ci: the game never printed 'grant: +200 coins'"
check "docs/ci.md's job builds the example game against a copied SDK folder (paths with spaces) and hears a purchase, a refund and a renewal; without the purchase it fails"

step "the README's quick start is Examples/cpp/quickstart.cpp, and it builds and buys"
python3 - "$root/README.md" "$root/Examples/cpp/quickstart.cpp" <<'PY'
import sys
readme, source = open(sys.argv[1]).read(), open(sys.argv[2]).read()
block = readme.split("```cpp\n", 1)[1].split("```", 1)[0] if "```cpp\n" in readme else ""
sys.exit(0 if block == source else "the README's quick start differs from Examples/cpp/quickstart.cpp")
PY
g++ -std=c++11 -Wall -Wextra -pedantic -Werror Examples/cpp/quickstart.cpp $(PKG_CONFIG_PATH="$sdk/lib/pkgconfig" pkg-config --cflags --libs iosiap) \
    -o "$work/quickstart"
"$work/quickstart" "$catalog" "$work/state-quickstart" >"$work/quickstart.out"
expect_in "$work/quickstart.out" "100 Coins: \$0.99" "coins: 100"
# Offline (the products request fails), the quick start ends rather than waiting for ever.
"$sdk/bin/iosiap-store" --state "$work/state-quickstart-offline" --catalog "$catalog" error set load-products store-unreachable >/dev/null
got=0
timeout 20 "$work/quickstart" "$catalog" "$work/state-quickstart-offline" >"$work/quickstart-offline.out" || got=$?
[ "$got" -eq 1 ] || fail "the quick start offline exited $got (124: it never ended)"
expect_in "$work/quickstart-offline.out" "no products (-12)"
check "the README's quick start is the file, and it buys 100 coins"
check "configured, built and run"

step "bad input through the C ABI"
gcc -std=c99 -Wall -Wextra -pedantic -Werror -I"$sdk/include" Tests/native/bad_input.c -L"$sdk/lib" -liosiap -Wl,-rpath,"$sdk/lib" -o "$work/bad_input"
"$work/bad_input" "$catalog" "$work/state-bad"
check "every bad input refused with its status and message"
gcc -std=c99 -Wall -Wextra -pedantic -Werror -I"$sdk/include" Tests/native/controls.c -L"$sdk/lib" -liosiap -Wl,-rpath,"$sdk/lib" -o "$work/controls"
"$work/controls" "$catalog" "$work/state-controls"
check "the local store's controls through the C ABI"
gcc -std=c99 -Wall -Wextra -pedantic -Werror -I"$sdk/include" Tests/native/open_order.c -L"$sdk/lib" -liosiap -Wl,-rpath,"$sdk/lib" -o "$work/open_order"
"$work/open_order" "$catalog" "$work/state-open-order"
check "an open takes the catalog's locale unless given one, and a refused open changes nothing"
g++ -std=c++11 -Wall -Wextra -pedantic -Werror -I"$sdk/include" Tests/native/ledger.cpp -L"$sdk/lib" -liosiap -Wl,-rpath,"$sdk/lib" -o "$work/ledger"
"$work/ledger" "$catalog" "$work/state-ledger" "$store_tool"
check "the grant ledger and the controls through the C++ layer"
gcc -std=c99 -Wall -Wextra -pedantic -Werror -I"$sdk/include" Tests/native/ledger_at_open.c -L"$sdk/lib" -liosiap -Wl,-rpath,"$sdk/lib" -o "$work/ledger_at_open"
"$work/ledger_at_open" "$catalog" "$work/state-ledger-at-open" "$store_tool"
g++ -std=c++11 -Wall -Wextra -pedantic -Werror -I"$sdk/include" Tests/native/delegate_on_open.cpp -L"$sdk/lib" -liosiap -Wl,-rpath,"$sdk/lib" -o "$work/delegate_on_open"
"$work/delegate_on_open" "$catalog" "$work/state-delegate-on-open" "$store_tool"
check "grants registered in on_open (C) and StoreDelegate::onOpen (C++): purchases redelivered at launch granted in thread mode, launch after launch; version 1 callbacks; a refused open"
gcc -std=c99 -Wall -Wextra -pedantic -Werror -I"$sdk/include" Tests/native/out_structs.c -L"$sdk/lib" -liosiap -Wl,-rpath,"$sdk/lib" -o "$work/out_structs"
"$work/out_structs" "$catalog" "$work/state-out-structs"
check "out-structs written at the caller's declared size, never past it"
# LeakSanitizer: an exception unwinding through the library's frames would skip their cleanup and leak.
g++ -std=c++11 -Wall -Wextra -pedantic -Werror -fsanitize=leak -g -I"$sdk/include" Tests/native/callback_exceptions.cpp \
    -L"$sdk/lib" -liosiap -Wl,-rpath,"$sdk/lib" -o "$work/callback_exceptions"
"$work/callback_exceptions" "$catalog" "$work/state-callback-exceptions" "$store_tool"
check "exceptions in C++ visitors are caught at the C boundary and rethrown after the call"

step "AddressSanitizer + UndefinedBehaviorSanitizer"
sanitize="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# shellcheck disable=SC2086
gcc -std=c99 -Wall -Wextra -Werror $sanitize -I"$sdk/include" Examples/c/main.c -L"$sdk/lib" -liosiap -Wl,-rpath,"$sdk/lib" -o "$work/c-asan"
"$work/c-asan" "$catalog" "$work/state-c-asan" >"$work/c-asan.out"
expect_in "$work/c-asan.out" "pro upgrade owned: yes"
# shellcheck disable=SC2086
g++ -std=c++11 -Wall -Wextra -Werror $sanitize -I"$sdk/include" Examples/cpp/game.cpp -L"$sdk/lib" -liosiap -Wl,-rpath,"$sdk/lib" -o "$work/cpp-asan"
"$work/cpp-asan" "$catalog" "$work/state-cpp-asan" >"$work/cpp-asan.out"
expect_in "$work/cpp-asan.out" "coins: 200, pro: yes"
# shellcheck disable=SC2086
gcc -std=c99 -Wall -Wextra -Werror $sanitize -I"$sdk/include" Tests/native/bad_input.c -L"$sdk/lib" -liosiap -Wl,-rpath,"$sdk/lib" -o "$work/bad-asan"
"$work/bad-asan" "$catalog" "$work/state-bad-asan" >/dev/null
check "C example, C++ example and bad-input test clean"

step "ThreadSanitizer: 8 threads request while the main thread polls; the delivery thread"
# The library itself is instrumented here (a debug build with the toolchain's runtime), so TSan sees
# both sides of every lock.
swift build --build-path .build-tsan --sanitize=thread --product iosiap >/dev/null
tsan_lib=$(swift build --build-path .build-tsan --sanitize=thread --show-bin-path)
"$clang" -std=c11 -Wall -Wextra -Werror -g -fsanitize=thread -I"$sdk/include" Tests/native/stress.c \
    -L"$tsan_lib" -liosiap -L"$toolchain/lib/swift/linux" -ldispatch -lBlocksRuntime \
    -Wl,-rpath,"$tsan_lib" -Wl,-rpath,"$toolchain/lib/swift/linux" -lpthread -o "$work/stress"
TSAN_OPTIONS=halt_on_error=1:exitcode=66 "$work/stress" "$catalog" "$work/state-stress" 20
"$clang" -std=c11 -Wall -Wextra -Werror -g -fsanitize=thread -I"$sdk/include" Tests/native/delivery_thread.c \
    -L"$tsan_lib" -liosiap -L"$toolchain/lib/swift/linux" -ldispatch -lBlocksRuntime \
    -Wl,-rpath,"$tsan_lib" -Wl,-rpath,"$toolchain/lib/swift/linux" -lpthread -o "$work/delivery_thread"
TSAN_OPTIONS=halt_on_error=1:exitcode=66 "$work/delivery_thread" "$catalog" "$work/state-delivery"
"$clang" -std=c11 -Wall -Wextra -Werror -g -fsanitize=thread -I"$sdk/include" Tests/native/ledger_at_open.c \
    -L"$tsan_lib" -liosiap -L"$toolchain/lib/swift/linux" -ldispatch -lBlocksRuntime \
    -Wl,-rpath,"$tsan_lib" -Wl,-rpath,"$toolchain/lib/swift/linux" -lpthread -o "$work/ledger_at_open_tsan"
TSAN_OPTIONS=halt_on_error=1:exitcode=66 "$work/ledger_at_open_tsan" "$catalog" "$work/state-ledger-at-open-tsan" "$store_tool" 4
check "stress, the delivery thread and on_open clean under TSan"

step "a game that returns from main while the library verifies exits cleanly, run after run"
gcc -std=c99 -Wall -Wextra -pedantic -Werror -I"$sdk/include" Tests/native/exit_while_verifying.c -L"$sdk/lib" -liosiap -Wl,-rpath,"$sdk/lib" -lpthread -o "$work/exit_while_verifying"
# Without the library's hold on libcrypto, 17 of 60 runs crashed or hung as they exited.
for run in $(seq 20); do
    status=0
    timeout 60 "$work/exit_while_verifying" "$catalog" "$work/state-exit-$run" >"$work/exit-$run.log" 2>&1 || status=$?
    [ "$status" = 0 ] || { cat "$work/exit-$run.log" >&2; fail "run $run of exit_while_verifying ended with status $status"; }
done
check "20 runs returned from main while four threads verified and a payment was requested, each with status 0"
# With a server that holds every verification: main closes the store, close stops waiting for the store's
# worker, and main returns while the worker's POSTs (launch's re-check of the unfinished purchase, the new payment's)
# wait for an answer; the server's log shows both reached it.
start_verification_server "$work" exit-server
for run in $(seq 5); do
    before=$(grep -c '^/hang ' "$work/exit-server.requests" || true)
    status=0
    timeout 60 "$work/exit_while_verifying" "$catalog" "$work/state-exit-server-$run" "$server_port" \
        >"$work/exit-server-$run.log" 2>&1 || status=$?
    [ "$status" = 0 ] || { cat "$work/exit-server-$run.log" >&2; fail "run $run of exit_while_verifying with a server ended with status $status"; }
    hung=$(( $(grep -c '^/hang ' "$work/exit-server.requests" || true) - before ))
    [ "$hung" -ge 2 ] || fail "run $run of exit_while_verifying: $hung verifications reached the server, not 2"
done
kill "$server" 2>/dev/null || true
server=""
check "5 runs closed the store while 2 server verifications waited ($(grep -h 'close took' "$work"/exit-server-*.log | tr '\n' ' ')) and returned from main, each with status 0"

step "verification: on the device, on a server, for a backend; Apple's own library as a second opinion"
start_verification_server "$work" verification-server
gcc -std=c99 -Wall -Wextra -pedantic -Werror -I"$sdk/include" Tests/native/verification.c -L"$sdk/lib" -liosiap -Wl,-rpath,"$sdk/lib" -o "$work/verification"
"$work/verification" "$catalog" "$work/state-verification" "$server_port"
kill "$server" 2>/dev/null || true
server=""
check "verification through the C ABI"
python3 -m pip install --quiet --disable-pip-version-check app-store-server-library 2>&1 | grep -v "Running pip as the 'root' user" || true
swift build --product iosiap-example-session -Xswiftc -warnings-as-errors >/dev/null
swift run --skip-build iosiap-example-session --state "$work/state-apple" >/dev/null
python3 Tests/python/verify_with_apple_library.py "$work/state-apple" com.iosiap.example
check "Apple's app-store-server-library accepts our signed transactions and renewal infos"
python3 Tests/native/offers_catalog.py "$catalog" "$work/offers.storekit"
gcc -std=c99 -Wall -Wextra -pedantic -Werror -I"$sdk/include" Tests/native/subscription_offers.c -L"$sdk/lib" -liosiap -Wl,-rpath,"$sdk/lib" -o "$work/subscription_offers"
swift build --product iosiap-store -Xswiftc -warnings-as-errors >/dev/null
"$work/subscription_offers" "$work/offers.storekit" "$work/state-subscription-offers" "$(swift build --show-bin-path)/iosiap-store"
check "offer codes (the sheet, a code redeemed by the C control and by iosiap-store while the game runs) and win-back offers (paid, and redeemed in the App Store: an intent with its offer, from the C control and iosiap-store) through the C ABI"
for cxx in g++ "$clangxx"; do
    $cxx -std=c++11 -Wall -Wextra -Woverloaded-virtual -pedantic -Werror -I"$sdk/include" Tests/native/purchase_intent.cpp \
        -L"$sdk/lib" -liosiap -Wl,-rpath,"$sdk/lib" -o "$work/purchase_intent"
    rm -rf "$work/state-purchase-intent" "$work/state-purchase-intent-older"
    "$work/purchase_intent" "$work/offers.storekit" "$work/state-purchase-intent" "$store_tool"
done
check "an App Store purchase intent's win-back offer through the C++ layer, and an older delegate's onPurchaseIntent (g++, clang++)"
for cxx in g++ "$clangxx"; do
    $cxx -std=c++11 -Wall -Wextra -Woverloaded-virtual -pedantic -Werror -I"$sdk/include" Tests/native/restore_overloads.cpp \
        -L"$sdk/lib" -liosiap -Wl,-rpath,"$sdk/lib" -o "$work/restore_overloads"
    rm -rf "$work/state-restore-overloads"
    "$work/restore_overloads" "$catalog" "$work/state-restore-overloads"
done
check "a delegate overriding either onRestoreFinished overload, with the using-declaration docs/cpp.md shows, builds under -Woverloaded-virtual and hears the restore end (g++, clang++)"
gcc -std=c99 -Wall -Wextra -pedantic -Werror -I"$sdk/include" Tests/native/messages.c -L"$sdk/lib" -liosiap -Wl,-rpath,"$sdk/lib" -o "$work/messages"
"$work/messages" "$work/offers.storekit" "$work/state-messages" "$(swift build --show-bin-path)/iosiap-store"
check "App Store messages (each kind, display once, from iosiap-store while the game runs, again at the next launch) and storefront changes through the C ABI"
gcc -std=c99 -Wall -Wextra -pedantic -Werror -I"$sdk/include" Tests/native/offers.c -L"$sdk/lib" -liosiap -Wl,-rpath,"$sdk/lib" -o "$work/offers"
apple_offer=$(python3 Tests/python/sign_offer_with_apple_library.py "$catalog" com.example.game \
    com.iosiap.example.club_gold_monthly club_gold_winback)
# shellcheck disable=SC2086  # four words: key id, nonce, timestamp, signature
"$work/offers" "$catalog" "$work/state-offers" "$(swift build --show-bin-path)/iosiap-store" $apple_offer
check "promotional offers through the C ABI, one signed by Apple's library"
gcc -std=c99 -Wall -Wextra -pedantic -Werror -I"$sdk/include" Tests/native/offers_jws.c -L"$sdk/lib" -liosiap -Wl,-rpath,"$sdk/lib" -o "$work/offers_jws"
"$work/offers_jws" "$catalog" "$work/state-offers-jws" "$(swift build --show-bin-path)/iosiap-store" \
    "python3 $root/Tests/python/sign_offer_with_apple_library.py"
check "JWS-signed offers through the C ABI (payment options version 4), signed by Apple's library: intro eligibility denied and granted, a promotional offer, each bad one refused"
gcc -std=c99 -Wall -Wextra -pedantic -Werror -I"$sdk/include" Tests/native/payment_options.c -L"$sdk/lib" -liosiap -Wl,-rpath,"$sdk/lib" -o "$work/payment_options"
"$work/payment_options" "$catalog" "$work/state-payment-options"
check "payment options versions 1, 2 and 3 (each read to its end, not past it; 3 with a win-back offer), 4, win-back offer accessors"
gcc -std=c99 -Wall -Wextra -pedantic -Werror -I"$sdk/include" Tests/native/app_transaction.c -L"$sdk/lib" -liosiap -Wl,-rpath,"$sdk/lib" -o "$work/app_transaction"
swift build --product iosiap-store -Xswiftc -warnings-as-errors >/dev/null
"$work/app_transaction" "$catalog" "$work/state-app-transaction" "$(swift build --show-bin-path)/iosiap-store"
python3 Tests/python/app_transaction_with_apple_library.py "$(swift build --show-bin-path)/iosiap-store" "$work/state-apple" com.iosiap.example
check "the App Transaction through the C ABI; Apple's verify_and_decode_app_transaction accepts the local store's"
gcc -std=c99 -Wall -Wextra -pedantic -Werror -I"$sdk/include" Tests/native/refund_requests.c -L"$sdk/lib" -liosiap -Wl,-rpath,"$sdk/lib" -o "$work/refund_requests"
swift build --product iosiap-store -Xswiftc -warnings-as-errors >/dev/null
"$work/refund_requests" "$catalog" "$work/state-refund-requests" "$(swift build --show-bin-path)/iosiap-store"
check "refund requests (failed, cancelled, submitted, a duplicate, approved by iosiap-store while the game runs) and the manage subscriptions sheet through the C ABI"
gcc -std=c99 -Wall -Wextra -pedantic -Werror -I"$sdk/include" Tests/native/owned_outcomes.c -L"$sdk/lib" -liosiap -Wl,-rpath,"$sdk/lib" -o "$work/owned_outcomes"
"$work/owned_outcomes" "$catalog" "$work/state-owned-outcomes" "$(swift build --show-bin-path)/iosiap-store"
check "a waiting purchase of something owned, resolved or approved by iosiap-store, ends PURCHASED with the transaction that grants it (never DECLINED); a restore gives a subscription in its grace period"
gcc -std=c99 -Wall -Wextra -pedantic -Werror -I"$sdk/include" Tests/native/store_queries.c -L"$sdk/lib" -liosiap -Wl,-rpath,"$sdk/lib" -o "$work/store_queries"
"$work/store_queries" "$catalog" "$work/state-store-queries" "$(swift build --show-bin-path)/iosiap-store"
check "the storefront, a group's status with its renewal info, intro offer eligibility and the transaction history through the C ABI"
gcc -std=c99 -Wall -Wextra -pedantic -Werror -I"$sdk/include" Tests/native/family_sharing.c -L"$sdk/lib" -liosiap -Wl,-rpath,"$sdk/lib" -o "$work/family_sharing"
swift build --product iosiap-store -Xswiftc -warnings-as-errors >/dev/null
"$work/family_sharing" "$catalog" "$work/state-family-sharing" "$(swift build --show-bin-path)/iosiap-store"
check "Family Sharing (a shared purchase FAMILY_SHARED, a product not shareable refused, the sharing ended by the C control and by iosiap-store while the game is closed) through the C ABI"

step "the transaction manager, also while the C++ example game runs"
swift build --product iosiap-store -Xswiftc -warnings-as-errors >/dev/null
g++ -std=c++11 -Wall -Wextra -Werror -I"$sdk/include" Examples/cpp/game.cpp -L"$sdk/lib" -liosiap -Wl,-rpath,"$sdk/lib" -o "$work/game"
bash Tests/native/store_manager.sh "$(swift build --show-bin-path)/iosiap-store" "$work/game" "$catalog" "$work"
check "iosiap-store: every control, its errors, and a running game that hears of it"

step "the App Store Server API (iosiap-store serve) with Apple's own client and verifier"
python3 Tests/python/server_api_with_apple_library.py "$(swift build --show-bin-path)/iosiap-store" "$catalog" "$work"
check "Apple's AppStoreServerAPIClient reads transaction info, history, statuses and refunds; 404, 400 and 401 as Apple's"

step "a bridge written for the original cocos2d-x IOSiAP (three callbacks, no restore, C++98) compiles and buys unchanged"
for cxx in g++ "$clangxx"; do
    for std in c++98 c++11; do
        $cxx -std=$std -Wall -Wextra -pedantic -Werror -I"$sdk/include" Tests/native/classic_three_callbacks.cpp -L"$sdk/lib" -liosiap \
            -Wl,-rpath,"$sdk/lib" -o "$work/classic_three_callbacks"
        rm -rf "$work/state-classic-three"
        IOSIAP_CATALOG=$catalog IOSIAP_STATE_DIR=$work/state-classic-three "$work/classic_three_callbacks" >"$work/classic_three.out"
        expect_in "$work/classic_three.out" "payment com.iosiap.example.coins_100 event=1 quantity=2" "three-callback bridge purchased 2"
    done
done
check "a three-callback bridge of the original IOSiAP compiles against IOSiAP.h as C++98 and C++11 (g++, clang++) and buys"

step "the classic IOSiAP.h finishes only what a delegate was given, and passes the game's UI context"
g++ -std=c++11 -Wall -Wextra -pedantic -Werror -I"$sdk/include" Tests/native/classic_lifecycle.cpp -L"$sdk/lib" -liosiap \
    -Wl,-rpath,"$sdk/lib" -o "$work/classic_lifecycle"
lifecycle() {  # lifecycle STATE PHASE: one launch of the classic game
    IOSIAP_CATALOG=$catalog IOSIAP_STATE_DIR=$work/state-lifecycle-$1 IOSIAP_STORE_TOOL="$(swift build --show-bin-path)/iosiap-store" \
        "$work/classic_lifecycle" "$2" >>"$work/lifecycle-$1.out"
}
lifecycle late die && lifecycle late late-delegate && lifecycle late relaunch
expect_in "$work/lifecycle-late.out" "late delegate saw 1" "redelivered 0"
lifecycle throw throw && lifecycle throw relaunch
expect_in "$work/lifecycle-throw.out" "poll rethrew: the game failed to grant" "redelivered 1"
lifecycle reentrant reentrant && lifecycle reentrant relaunch
expect_in "$work/lifecycle-reentrant.out" "reentrant done, 2 purchases" "redelivered 0"
lifecycle clear clear-delegate && lifecycle failures throw-failure && lifecycle retry retry
expect_in "$work/lifecycle-retry.out" "retry: 50 polls returned, 50 failures"
expect_in "$work/lifecycle-clear.out" "clear-delegate done, 1 purchases" "restore finished"
expect_in "$work/lifecycle-failures.out" "poll rethrew: the game failed to show it" "throw-failure done, 2 failures"
# C++98 cannot carry the delegate's exception across the library: poll throws a std::runtime_error saying so, and
# nothing is lost. A failure the header itself holds for poll (no product) never crosses it: its exception is the
# game's own.
g++ -std=c++98 -Wall -Wextra -pedantic -Werror -I"$sdk/include" Tests/native/classic_lifecycle.cpp -L"$sdk/lib" -liosiap \
    -Wl,-rpath,"$sdk/lib" -o "$work/classic_lifecycle"
lifecycle throw98 throw && lifecycle throw98 relaunch && lifecycle failures98 throw-failure
lifecycle reentrant98 reentrant && lifecycle reentrant98 relaunch && lifecycle clear98 clear-delegate
expect_in "$work/lifecycle-throw98.out" "poll rethrew: IOSiAP: a delegate callback threw inside poll(): the game failed to grant" \
    "redelivered 1"
expect_in "$work/lifecycle-reentrant98.out" "reentrant done, 2 purchases" "redelivered 0"
expect_in "$work/lifecycle-clear98.out" "clear-delegate done, 1 purchases" "restore finished"
expect_in "$work/lifecycle-failures98.out" "poll rethrew: the game failed to show it" "throw-failure done, 2 failures"
check "events wait for a delegate; a delegate that throws or polls again loses and doubles nothing (C++11 and C++98)"
# It defines two of the C functions itself (to see what reaches them) and forwards to libiosiap's.
g++ -std=c++11 -Wall -Wextra -pedantic -Werror -I"$sdk/include" Tests/native/classic_ui_context.cpp -L"$sdk/lib" -liosiap -ldl \
    -Wl,-rpath,"$sdk/lib" -o "$work/classic_ui_context"
IOSIAP_CATALOG=$catalog IOSIAP_STATE_DIR=$work/state-classic-ui "$work/classic_ui_context"
"$clangxx" -std=c++20 -fno-exceptions -Wall -Wextra -pedantic -Werror -I"$sdk/include" Tests/native/classic_ui_context.cpp \
    -L"$sdk/lib" -liosiap -ldl -Wl,-rpath,"$sdk/lib" -o "$work/classic_ui_context_clang"
IOSIAP_CATALOG=$catalog IOSIAP_STATE_DIR=$work/state-classic-ui-clang "$work/classic_ui_context_clang"
check "the classic setUIContext reaches every later payment as its ui_context; without it a payment carries none"
for cxx in g++ "$clangxx"; do
    $cxx -std=c++11 -Wall -Wextra -pedantic -Werror -I"$sdk/include" Tests/native/refund_handlers.cpp -L"$sdk/lib" -liosiap \
        -Wl,-rpath,"$sdk/lib" -o "$work/refund_handlers"
    rm -rf "$work/state-refund-handlers" "$work/state-refund-handlers-verify"
    "$work/refund_handlers" "$catalog" "$work/state-refund-handlers" "$store_tool" 2>"$work/refund-handlers.err" \
        || { cat "$work/refund-handlers.err" >&2; fail "refund handlers ($cxx)"; }
done
check "a refund is told until a handler returned: onRevoked that throws (poll, delivery thread), the classic onPaymentRevoked; finish refuses a VERIFICATION_FAILED's id (g++, clang++)"
for cxx in g++ "$clangxx"; do
    $cxx -std=c++11 -Wall -Wextra -pedantic -Werror -I"$sdk/include" Tests/native/request_ids.cpp -L"$sdk/lib" -liosiap \
        -Wl,-rpath,"$sdk/lib" -o "$work/request_ids"
    rm -rf "$work/state-request-ids"
    "$work/request_ids" "$catalog" "$work/state-request-ids"
    # A request id where beginRefundRequest takes the UI context would reach StoreKit as a window scene: refused.
    printf '#include <iosiap/iosiap.hpp>\nvoid f(iosiap::Store &s) { std::uint64_t id = 0; s.beginRefundRequest(1, &id); }\n' \
        >"$work/request_id_as_context.cpp"
    if $cxx -std=c++11 -I"$sdk/include" -fsyntax-only "$work/request_id_as_context.cpp" 2>/dev/null; then
        fail "beginRefundRequest(transactionId, &requestId) compiles ($cxx)"
    fi
done
check "the C++ requests with the request id first fill the id their events carry; a request id given as a UI context does not compile (g++, clang++)"

step "durability: the kill -9 campaign, a full disk, a read-only state directory"
IOSIAP_SDK=$sdk bash scripts/crash-campaign.sh 30 "${IOSIAP_CRASH_SEED:-$RANDOM}"
check "30 rounds of SIGKILL: nothing lost, nothing granted twice"
IOSIAP_SDK=$sdk IOSIAP_SIMULATE_SECONDS=${IOSIAP_SIMULATE_SECONDS:-30} \
    bash scripts/simulate.sh 100000 "${IOSIAP_SIMULATE_FIRST_SEED:-$((RANDOM * 10))}"
check "half a minute of lifecycle simulation seeds: what the game was told agrees with the model"
gcc -std=c99 -Wall -Wextra -pedantic -Werror -I"$sdk/include" Tests/native/crash_game.c -L"$sdk/lib" -liosiap -Wl,-rpath,"$sdk/lib" -o "$work/crash_game"
gcc -std=c99 -Wall -Wextra -pedantic -Werror -I"$sdk/include" Tests/native/faults.c -L"$sdk/lib" -liosiap -Wl,-rpath,"$sdk/lib" -o "$work/faults"
recover_and_check() {
    python3 scripts/crash-campaign.py --game "$work/crash_game" --catalog "$catalog" --state "$1" --rounds 0
}
"$work/faults" "$catalog" "$work/state-full" full-disk
recover_and_check "$work/state-full"
check "a write stopped by a full disk is a clear error; the charge is granted at the next launch"
cp -r "$work/state-full" "$work/state-read-only"
chmod 444 "$work/state-read-only"/*
chmod 555 "$work/state-read-only"
if [ "$(id -u)" -eq 0 ]; then
    # root writes anywhere: the read-only launch runs as nobody, who must reach the files (the checkout
    # may sit in a folder only root can enter, so the catalog is copied beside the state).
    chmod 755 "$work"
    cp "$catalog" "$work/Products.storekit"
    chmod 644 "$work/Products.storekit"
    setpriv --reuid=65534 --regid=65534 --clear-groups "$work/faults" "$work/Products.storekit" "$work/state-read-only" read-only
else
    "$work/faults" "$catalog" "$work/state-read-only" read-only
fi
chmod 755 "$work/state-read-only"
chmod 644 "$work/state-read-only"/*
recover_and_check "$work/state-read-only"
check "a read-only state directory is a clear error at open; nothing is lost"

echo "native: $passed passed, 0 failed"
