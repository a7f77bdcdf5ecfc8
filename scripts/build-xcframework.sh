#!/usr/bin/env bash
# Builds a static iosiap.xcframework (default: sdk/iosiap.xcframework) for a C or C++ game in Xcode or CMake:
#   ios-arm64/                   iPhone and iPad: the core, the StoreKit backend, server verification
#   ios-arm64_x86_64-simulator/  the iOS simulator (both Mac architectures)
#   macos-arm64_x86_64/          macOS: also the local App Store and on-device verification (OpenSSL's libcrypto)
# each slice a libiosiap.a holding every `iosiap_*` function of Include/iosiap/iosiap.h, with the C and C++
# headers (iosiap/iosiap.h, iosiap/iosiap.hpp, IOSiAP.h).
#
# Written for macOS's own bash 3.2 (no mapfile, no namerefs). Runs on macOS only, with Xcode whose Swift is 6.3 or later (the C ABI is exported with `@c`), and for the
# macOS slice Homebrew's openssl@3 (`brew install openssl@3`). It has never been run: no Apple machine is
# available to the project (see docs/ios.md, "What has run where"). Each slice is checked here: the archive must
# define every function the header declares.
set -euo pipefail
cd "$(dirname "$0")/.."

[ "$(uname -s)" = Darwin ] || { echo "build-xcframework: needs macOS with Xcode" >&2; exit 1; }
out=${1:-sdk/iosiap.xcframework}
mkdir -p "$(dirname "$out")"
out="$(cd "$(dirname "$out")" && pwd)/$(basename "$out")"

swift_version=$(xcrun swift --version 2>&1 | sed -n 's/.*Swift version \([0-9]*\)\.\([0-9]*\).*/\1 \2/p' | head -1)
read -r major minor <<<"$swift_version"
if [ -z "${major:-}" ] || [ "$major" -lt 6 ] || { [ "$major" -eq 6 ] && [ "$minor" -lt 3 ]; }; then
    echo "build-xcframework: Xcode's Swift is ${major:-?}.${minor:-?}; @c needs 6.3 or later" >&2
    exit 1
fi

openssl=$(brew --prefix openssl@3 2>/dev/null || true)
[ -d "$openssl/include/openssl" ] || { echo "build-xcframework: no openssl@3 (brew install openssl@3)" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The modules libiosiap is made of on each platform (Package.swift's localStorePlatforms decides the same).
apple_modules="IOSiAPCore IOSiAPSignedData IOSiAPStoreKit IOSiAPExports"
macos_modules="$apple_modules CCryptoAtExit IOSiAPVerification IOSiAPLocalStore"

# The functions the header declares: every slice must define each of them.
declared=$(grep -o 'iosiap_[a-z0-9_]*(' Include/iosiap/iosiap.h | tr -d '(' | sort -u)

# build_archive TRIPLE SDK OUTPUT MODULES...: one architecture's libiosiap.a, from SwiftPM's object files.
build_archive() {
    local triple=$1 sdk=$2 output=$3
    shift 3
    local build_path="$work/build/$triple"
    echo "-- $triple"
    # OpenSSL's headers for the macOS slice; Homebrew's folder is not on the SDK's search path.
    xcrun swift build -c release --build-path "$build_path" --triple "$triple" \
        --sdk "$(xcrun --sdk "$sdk" --show-sdk-path)" --target IOSiAPExports -Xcc -I"$openssl/include"
    local bin objects=()
    bin=$(xcrun swift build -c release --build-path "$build_path" --triple "$triple" --show-bin-path)
    for module in "$@"; do
        [ -d "$bin/$module.build" ] || { echo "build-xcframework: $module was not built for $triple" >&2; exit 1; }
        objects+=("$bin/$module.build"/*.o)
    done
    mkdir -p "$(dirname "$output")"
    xcrun libtool -static -no_warning_for_no_symbols -o "$output" "${objects[@]}"
    local defined missing
    defined=$(xcrun nm -gjU "$output" 2>/dev/null | sed 's/^_//' | sort -u)
    missing=$(comm -23 <(printf '%s\n' "$declared") <(printf '%s\n' "$defined"))
    [ -z "$missing" ] || { echo "build-xcframework: $triple lacks: $missing" >&2; exit 1; }
}

# slice NAME SDK "MODULES" TRIPLES...: a universal libiosiap.a for one platform, with the headers beside it.
slice() {
    local name=$1 sdk=$2 modules=$3
    shift 3
    local archives=()
    for triple in "$@"; do
        # shellcheck disable=SC2086  # the module list is split on purpose
        build_archive "$triple" "$sdk" "$work/$name/$triple/libiosiap.a" $modules
        archives+=("$work/$name/$triple/libiosiap.a")
    done
    mkdir -p "$work/$name/lib" "$work/$name/include/iosiap"
    xcrun lipo -create "${archives[@]}" -output "$work/$name/lib/libiosiap.a"
    cp Include/iosiap/iosiap.h Include/iosiap/iosiap.hpp "$work/$name/include/iosiap/"
    cp Include/IOSiAP.h "$work/$name/include/"
}

slice ios iphoneos "$apple_modules" arm64-apple-ios18.0
slice ios-simulator iphonesimulator "$apple_modules" arm64-apple-ios18.0-simulator x86_64-apple-ios18.0-simulator
slice macos macosx "$macos_modules" arm64-apple-macosx15.0 x86_64-apple-macosx15.0

rm -rf "$out"
xcodebuild -create-xcframework \
    -library "$work/ios/lib/libiosiap.a" -headers "$work/ios/include" \
    -library "$work/ios-simulator/lib/libiosiap.a" -headers "$work/ios-simulator/include" \
    -library "$work/macos/lib/libiosiap.a" -headers "$work/macos/include" \
    -output "$out"
echo "build-xcframework: $out"
