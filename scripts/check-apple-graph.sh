#!/usr/bin/env bash
# Builds libiosiap as iOS, tvOS and visionOS build it, on Linux, and checks it is the same C ABI as Linux's.
#
# The Apple graph is a second configuration of the package (IOSIAP_APPLE_GRAPH=1, see Package.swift) in its own
# build folder (.build-apple): the local store, OpenSSL (CCrypto) and on-device verification are left out by the
# same platform condition that leaves them out on iOS, and the declarations-only StoreKit of Tests/AppleSDK/StoreKit27 is a
# target named StoreKit, so LiveStoreKit and iosiap_store_open_storekit's StoreKit branch are compiled (as iOS)
# and linked. Then:
#   1. the library holds nothing of the local store, OpenSSL's verification or libcrypto, and does hold LiveStoreKit;
#   2. its exported iosiap_* symbols are exactly the Linux library's, and exactly the functions of iosiap.h;
#   3. the Swift declarations of its @c functions (the Apple branch: UnavailableExports.swift) match iosiap.h;
#   4. a C program gets IOSIAP_E_UNSUPPORTED_PLATFORM from every function that needs what it lacks.
# Not checked: anything Apple's compiler or SDK would say (nothing here is compiled by Apple's compiler, against
# the real SDK, or run on Apple hardware), and the StoreKit stub's bodies, which never run.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
toolchain=$(dirname "$(dirname "$(command -v swift)")")
fail() { echo "check-apple-graph: $*" >&2; exit 1; }
exported() { nm -D --defined-only "$1" | awk '$2 ~ /^[A-Z]$/ && $3 ~ /^iosiap_/ {print $3}' | sort; }

# The Linux library, with test.sh's flags (other flags would rebuild the whole package).
swift build --product iosiap -Xswiftc -warnings-as-errors >/dev/null
linux_lib=$(swift build --show-bin-path)/libiosiap.so

echo "-- the Apple graph: libiosiap without OpenSSL and the local store, StoreKit's branch compiled (as iOS)"
# Warnings are errors there per target (Package.swift), not with -Xswiftc: the stub warns under library evolution.
if ! IOSIAP_APPLE_GRAPH=1 swift build --build-path .build-apple --product iosiap >"$work/build.log" 2>&1; then
    grep -E "error|warning: " "$work/build.log" | grep -v "was not compiled with library evolution support" >&2 || tail -20 "$work/build.log" >&2
    fail "the Apple graph does not build"
fi
apple_bin=$(IOSIAP_APPLE_GRAPH=1 swift build --build-path .build-apple --show-bin-path)
apple_lib=$apple_bin/libiosiap.so

symbols=$(nm "$apple_lib" | swift demangle)
if readelf -d "$apple_lib" | grep -E "NEEDED.*lib(crypto|ssl)"; then fail "the Apple graph's library needs OpenSSL"; fi
leaked=$(grep -oE "\b(IOSiAPLocalStore|IOSiAPVerification|CCrypto)\.|\b(EVP|X509|ECDSA|OPENSSL)_[A-Za-z_]+" <<<"$symbols" | sort -u | head -5 || true)
[ -z "$leaked" ] || fail "the Apple graph's library holds what iOS has not: $(tr '\n' ' ' <<<"$leaked")"
grep -q "IOSiAPStoreKit.LiveStoreKit" <<<"$symbols" || fail "LiveStoreKit is not in the Apple graph's library (canImport(StoreKit) was false)"
echo "  ok: no local store, no OpenSSL verification, no libcrypto; LiveStoreKit linked in"

echo "-- the same exported symbols as the Linux library, and as iosiap.h declares"
declared=$(grep -oE '\biosiap_[a-z_]+\(' Include/iosiap/iosiap.h | tr -d '(' | sort -u)
if ! diff <(exported "$linux_lib") <(exported "$apple_lib") >"$work/symbols.diff"; then
    sed 's/^</  only on Linux:/; s/^>/  only in the Apple graph:/' "$work/symbols.diff" | grep "only" >&2
    fail "the Apple graph's libiosiap exports other iosiap_* symbols than Linux's"
fi
[ "$declared" = "$(exported "$apple_lib")" ] || fail "the Apple graph's exports differ from iosiap.h: $(diff <(echo "$declared") <(exported "$apple_lib") || true)"
echo "  ok: $(exported "$apple_lib" | wc -l) iosiap_* symbols, the same in both libraries and in the header"

echo "-- the Apple branch's Swift declarations match iosiap.h"
package_name=$(grep -o 'package-name","[^"]*' .build-apple/debug.yaml | head -1 | cut -d'"' -f3)
swiftc -typecheck -parse-as-library -module-name IOSiAPExports -package-name "$package_name" -I "$apple_bin/Modules" \
    -Xcc -fmodule-map-file=Sources/CIOSiAP/module.modulemap -Xcc -fmodule-map-file=Sources/CSQLite/module.modulemap \
    Sources/IOSiAPExports/*.swift -emit-clang-header-path "$work/generated.h"
grep -q "iosiap_local_reset" "$work/generated.h" || fail "no declarations were generated"
python3 Tests/native/compare_headers.py Include/iosiap/iosiap.h "$work/generated.h" \
    Sources/IOSiAPCore/Errors/StoreErrorCode.swift Sources/IOSiAPCore/Store/RequestValidation.swift | sed 's/^/  /'

echo "-- a C program gets IOSIAP_E_UNSUPPORTED_PLATFORM from the local store and on-device verification"
gcc -std=c99 -Wall -Wextra -pedantic -Werror -IInclude Tests/native/unsupported_platform.c \
    -L"$apple_bin" -liosiap -Wl,-rpath,"$apple_bin" -Wl,-rpath,"$toolchain/lib/swift/linux" -o "$work/unsupported_platform"
"$work/unsupported_platform" Examples/Products.storekit "$work/state" | sed 's/^/  /'

echo "-- the C++ layers take their Apple branch: the classic game builds against this library"
g++ -std=c++11 -Wall -Wextra -pedantic -Werror -DIOSIAP_CLASSIC_STOREKIT -IInclude Tests/native/classic_game.cpp \
    -L"$apple_bin" -liosiap -Wl,-rpath,"$apple_bin" -o "$work/classic_game_apple"
nm -C "$work/classic_game_apple" | grep -q "U iosiap_store_open_storekit" || fail "the classic game's Apple branch does not open StoreKit"
nm -C "$work/classic_game_apple" | grep -q "U iosiap_store_open_local" && fail "the classic game's Apple branch still opens the local store"
echo "  ok: IOSiAP.h opens StoreKit on Apple platforms and links against the Apple graph's libiosiap"
