#!/usr/bin/env bash
# Builds the SDK folder a C or C++ build system consumes (default: sdk/):
#   include/iosiap/iosiap.h, include/iosiap/iosiap.hpp, include/IOSiAP.h
#   lib/libiosiap.so             self-contained: the Swift runtime is linked in, only iosiap_* is exported
#   lib/libiosiap.so.debug       its symbols and debug information, for symbolicating crash reports
#   lib/pkgconfig/iosiap.pc      pkg-config --cflags --libs iosiap
#   lib/cmake/IOSiAP/            find_package(IOSiAP) and target_link_libraries(game IOSiAP::iosiap)
#   bin/iosiap-store             the transaction manager (refunds, renewals, Ask to Buy, serve), self-contained too,
#                                for a game's CI to drive the store from outside without our sources or a toolchain
#   LICENSE, NOTICE              our licence, and what the library links in with its licences
#   licenses/Swift-LICENSE.txt   the licence of the Swift runtime, Foundation and Dispatch linked in
#   licenses/ICU-LICENSE.txt     ICU's licence (Unicode), for the ICU in iosiap-store and the price table from CLDR
#
# usage: scripts/build-sdk.sh [--storekit-standin] [DIR]
# --storekit-standin builds a test SDK (default: sdk-storekit-standin/; a debug build) whose libiosiap.so has the behavioural
# StoreKit of Tests/StoreKitStandIn linked in, so that iosiap_store_open_storekit works on Linux: the stand-in reads
# its .storekit file and its App Store's state directory from IOSIAP_STOREKIT_CONFIGURATION and
# IOSIAP_STOREKIT_STATE, and include/iosiap/storekit_standin.h declares its controls (a game runs the main run loop
# between frames with storekit_standin_run_main_loop, as iOS runs it). pkg-config and CMake define
# IOSIAP_STOREKIT_STANDIN for a game built against it. Never ship it: it is Linux's stand-in, not Apple's StoreKit.
set -euo pipefail
cd "$(dirname "$0")/.."
# libmicrohttpd: bin/iosiap-store's server (serve).
IOSIAP_SETUP_PACKAGES="libmicrohttpd-dev ${IOSIAP_SETUP_PACKAGES:-}" source scripts/setup.sh
standin=""
if [ "${1:-}" = "--storekit-standin" ]; then
    standin=1
    shift
fi
if [ -n "$standin" ]; then
    out=$(realpath -m "${1:-sdk-storekit-standin}")
    # Never where the shippable SDK goes by default: the two must not be taken for each other.
    [ "$out" != "$PWD/sdk" ] || { echo "build-sdk: the stand-in's SDK does not go in sdk/ (the shippable SDK's folder)" >&2; exit 2; }
    export IOSIAP_STOREKIT_STANDIN=1
    # A folder of its own: the stand-in graph's test folder (.build-standin, scripts/test-storekit-standin.sh) is
    # built with other flags, and sharing it would have each build compile the other's modules again. Testable, as
    # the stand-in's C controls reach into its UIKit (Tests/StoreKitStandIn/CControls.swift); a debug build, as a
    # test build may be (its assertions on), compiled in under half the time of a release one on 2 cores.
    build=(--build-path .build-standin-sdk -Xswiftc -enable-testing)
    config=debug
    exports=scripts/libiosiap-storekit-standin.map
else
    out=$(realpath -m "${1:-sdk}")
    unset IOSIAP_STOREKIT_STANDIN  # Package.swift would put the stand-in in the shippable library
    build=()
    config=release
    exports=scripts/libiosiap.map
fi

# scripts/benchmark.sh builds with the same Swift flags, so that the two share the release build folder.
# The build's own output goes to stderr (the linker's mktemp warning left out); a failed build stops here, rather
# than packaging a library an earlier build left behind.
status=0
swift build -c "$config" ${build[@]+"${build[@]}"} --product iosiap -Xswiftc -static-stdlib \
    -Xlinker --version-script="$PWD/$exports" 2>&1 \
    | { grep --line-buffered -v "the use of \`mktemp' is dangerous" || true; } >&2 || status=$?
[ "$status" -eq 0 ] || { echo "build-sdk: the library did not build (swift build exited $status; its errors are above)" >&2; exit 1; }
status=0
swift build -c "$config" ${build[@]+"${build[@]}"} --product iosiap-store -Xswiftc -static-stdlib 2>&1 \
    | { grep --line-buffered -v "the use of \`mktemp' is dangerous" || true; } >&2 || status=$?
[ "$status" -eq 0 ] || { echo "build-sdk: iosiap-store did not build (swift build exited $status; its errors are above)" >&2; exit 1; }
bin=$(swift build -c "$config" ${build[@]+"${build[@]}"} --show-bin-path)
[ -f "$bin/libiosiap.so" ] || { echo "build-sdk: libiosiap.so was not built" >&2; exit 1; }
# The shippable library has no stand-in in it (nm into a variable: a grep -q in a pipe could stop nm early).
symbols=$(nm -D --defined-only "$bin/libiosiap.so")
if [ -z "$standin" ] && grep -q "storekit_standin_" <<<"$symbols"; then
    echo "build-sdk: libiosiap.so has the StoreKit stand-in linked in; it must not ship" >&2
    exit 1
fi

version=$(sed -n 's/^#define IOSIAP_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\)$/\2/p' Include/iosiap/iosiap.h | paste -sd.)
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || { echo "build-sdk: no version in Include/iosiap/iosiap.h (got '$version')" >&2; exit 1; }
rm -rf "$out"
mkdir -p "$out/include/iosiap" "$out/lib/pkgconfig" "$out/lib/cmake/IOSiAP" "$out/bin"
cp Include/iosiap/iosiap.h Include/iosiap/iosiap.hpp "$out/include/iosiap/"
cp Include/IOSiAP.h "$out/include/"
cflags="-I\${includedir}"
description="In-app purchases for C and C++ games"
label=""
if [ -n "$standin" ]; then
    cp Tests/native/storekit_standin.h "$out/include/iosiap/"
    cflags="$cflags -DIOSIAP_STOREKIT_STANDIN"
    description="TEST ONLY, never to ship: IOSiAP with the StoreKit stand-in of Linux linked in"
    label=" (StoreKit stand-in, TEST ONLY)"
    cat > "$out/NOT-FOR-RELEASE" <<'TEXT'
This SDK folder was built with scripts/build-sdk.sh --storekit-standin: its libiosiap.so has a behavioural
StoreKit stand-in linked in, for tests on Linux (iosiap_store_open_storekit charges nothing real there). Ship the
SDK that scripts/build-sdk.sh builds without that option.
TEXT
fi
cp LICENSE NOTICE "$out/"
mkdir -p "$out/licenses"
swift_license=$(dirname "$(command -v swift)")/../share/swift/LICENSE.txt
[ -f "$swift_license" ] || { echo "build-sdk: the toolchain's licence ($swift_license) is missing" >&2; exit 1; }
cp "$swift_license" "$out/licenses/Swift-LICENSE.txt"
cp licenses/ICU-LICENSE.txt "$out/licenses/"
# Shipped without debug information or the static symbol table (14 MB of libiosiap.so's 75 MB); the dynamic symbol
# table stays. Both go to a separate debug file beside it, which the shipped file names (its debug link), so that
# a crash report can still be symbolicated with it.
ship() {  # ship BUILT OUT
    objcopy --only-keep-debug "$1" "$2.debug"
    strip --strip-all -o "$2" "$1"
    (cd "$(dirname "$2")" && objcopy --add-gnu-debuglink="$(basename "$2").debug" "$(basename "$2")")
}
ship "$bin/libiosiap.so" "$out/lib/libiosiap.so"
ship "$bin/iosiap-store" "$out/bin/iosiap-store"

# What the shippable library may not be (README, "Size"): larger than its ceiling; linked with ICU or classic
# Foundation (their symbols, looked for in the unstripped build); needing a library of the toolchain, or a glibc newer
# than Ubuntu 22.04's 2.35. The ceiling guards what was reached; the 15,000,000 bytes of issue 36 are not yet.
if [ -z "$standin" ]; then
    max_bytes=16500000
    bytes=$(stat -c %s "$out/lib/libiosiap.so")
    [ "$bytes" -le "$max_bytes" ] || { echo "build-sdk: libiosiap.so is $bytes bytes, above its ceiling of $max_bytes" >&2; exit 1; }
    all_symbols=$(nm "$bin/libiosiap.so" | awk '{print $NF}')
    # ICU: its C++ namespace (icu_76) and its versioned C functions (u_strlen_76, ucal_open_76); classic Foundation:
    # the Swift modules Foundation, FoundationInternationalization and FoundationNetworking, and CoreFoundation's CF*.
    unwanted=$(grep -E 'icu_[0-9]{2}|^u[a-z]*_[A-Za-z0-9]+_[0-9]{2}$|^\$s(10Foundation|30FoundationInternationalization|20FoundationNetworking)|^_?CF[A-Z]' \
        <<<"$all_symbols" | head -5 || true)
    [ -z "$unwanted" ] || { echo "build-sdk: libiosiap.so links ICU or classic Foundation in, e.g.: $unwanted" >&2; exit 1; }
    toolchain_lib=$(dirname "$(command -v swift)")/../lib
    needed=$(ldd "$out/lib/libiosiap.so")
    if grep -q "not found\|$(realpath "$toolchain_lib")" <<<"$needed"; then
        echo "build-sdk: libiosiap.so needs a library it will not find on a game's machine:" >&2
        echo "$needed" >&2
        exit 1
    fi
    newest_glibc=$(objdump -T "$out/lib/libiosiap.so" | grep -o 'GLIBC_[0-9.]*' | sed 's/GLIBC_//' | sort -V | tail -1)
    [ "$(printf '%s\n2.35\n' "$newest_glibc" | sort -V | tail -1)" = "2.35" ] \
        || { echo "build-sdk: libiosiap.so needs glibc $newest_glibc; Ubuntu 22.04 has 2.35" >&2; exit 1; }
    echo "libiosiap.so: $bytes bytes (ceiling $max_bytes), no ICU or classic Foundation, glibc <= 2.35" >&2
fi

cat > "$out/lib/pkgconfig/iosiap.pc" <<PC
prefix=\${pcfiledir}/../..
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: iosiap
Description: $description
Version: $version
Cflags: $cflags
Libs: -L\${libdir} -Wl,-rpath,\${libdir} -liosiap
PC

cat > "$out/lib/cmake/IOSiAP/IOSiAPConfig.cmake" <<'CMAKE'
# find_package(IOSiAP) gives the imported target IOSiAP::iosiap.
get_filename_component(_iosiap_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
if(NOT TARGET IOSiAP::iosiap)
    add_library(IOSiAP::iosiap SHARED IMPORTED)
    set_target_properties(IOSiAP::iosiap PROPERTIES
        IMPORTED_LOCATION "${_iosiap_prefix}/lib/libiosiap.so"
        IMPORTED_SONAME "libiosiap.so"
        INTERFACE_INCLUDE_DIRECTORIES "${_iosiap_prefix}/include")
endif()
unset(_iosiap_prefix)
CMAKE
if [ -n "$standin" ]; then
    cat >>"$out/lib/cmake/IOSiAP/IOSiAPConfig.cmake" <<'CMAKE'
message(WARNING "IOSiAP: this SDK has the StoreKit stand-in of Linux linked in (build-sdk.sh --storekit-standin): TEST ONLY, never to ship")
set_property(TARGET IOSiAP::iosiap APPEND PROPERTY INTERFACE_COMPILE_DEFINITIONS IOSIAP_STOREKIT_STANDIN)
CMAKE
fi

# The oldest version a game may ask for: the last one whose games this one builds unchanged (CHANGELOG.md: 0.5 broke
# classic games using iosiap:: names through IOSiAP.h, and a request id passed as a UI context). Raise it with the
# next change that breaks a game's build.
oldest_compatible=0.5
cat > "$out/lib/cmake/IOSiAP/IOSiAPConfigVersion.cmake" <<CMAKE
set(PACKAGE_VERSION "$version")
if(PACKAGE_FIND_VERSION VERSION_GREATER PACKAGE_VERSION OR PACKAGE_FIND_VERSION VERSION_LESS $oldest_compatible)
    set(PACKAGE_VERSION_COMPATIBLE FALSE)
else()
    set(PACKAGE_VERSION_COMPATIBLE TRUE)
    if(PACKAGE_FIND_VERSION STREQUAL PACKAGE_VERSION)
        set(PACKAGE_VERSION_EXACT TRUE)
    endif()
endif()
CMAKE
echo "SDK $version$label in $out" >&2
