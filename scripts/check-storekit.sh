#!/usr/bin/env bash
# Type-checks the whole StoreKit backend (Sources/IOSiAPStoreKit, Live/ included) against StoreKit's real
# signatures on Linux: Tests/AppleSDK/StoreKit/StoreKit.swift is a declarations-only `StoreKit` transcribed from
# the iOS 18.0 SDK's interface (see its header). It is built here with library evolution into a temporary
# directory (never as a SwiftPM target), which makes `canImport(StoreKit)` true, so LiveStoreKit.swift compiles.
# Before it, the declarations-only UIKit (iOS, tvOS, visionOS) or AppKit (macOS) of Tests/AppleSDK, with the
# classes a purchase's UI context is (UIViewController, UIWindowScene; NSWindow): StoreKit's interface imports it.
#
# One configuration per platform Package.swift declares. Linux ignores `@available(iOS 18.0, *)`-style versions,
# so each configuration passes IOSIAP_STOREKIT_CHECK_<PLATFORM> to both compilations: the stub makes that
# platform's `unavailable` declarations unavailable, and LiveStoreKit takes its `#if os(<platform>)` branches.
#   ios       no condition: the iOS declarations as the SDK has them
#   macos     IOSIAP_STOREKIT_CHECK_MACOS    (nothing LiveStoreKit uses is unavailable on macOS today)
#   tvos      IOSIAP_STOREKIT_CHECK_TVOS     (PurchaseIntent unavailable)
#   visionos  IOSIAP_STOREKIT_CHECK_VISIONOS (PurchaseIntent and Product.purchase(options:) unavailable)
# Not checked here: `introduced:` versions (an API newer than the deployment target used without #available),
# and anything beyond the transcribed declarations. Nothing is run.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh

swift build --target IOSiAPCore >/dev/null
bin=$(swift build --show-bin-path)
modules=$bin/Modules
# IOSiAPCore shares `package` declarations (Locked, …) with the package's other modules: use SwiftPM's name.
package_name=$(grep -A1 '"-package-name"' "$bin/description.json" | sed -n '2s/[ ",]//gp')

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Fails the check if the stub did not make `canImport(StoreKit)` true (LiveStoreKit would silently vanish).
cat >"$work/CanImportStoreKit.swift" <<'EOF'
#if !canImport(StoreKit)
#error("the StoreKit stub is not visible: LiveStoreKit.swift would not be compiled")
#endif
EOF

mapfile -t sources < <(find Sources/IOSiAPStoreKit -name '*.swift' | sort)

status=0
for platform in ios macos tvos visionos; do
    define=()
    [ "$platform" = ios ] || define=(-D "IOSIAP_STOREKIT_CHECK_$(tr '[:lower:]' '[:upper:]' <<<"$platform")")
    stub="$work/$platform"
    mkdir -p "$stub"
    # The UI framework StoreKit's purchase(confirmIn:options:) takes, built first: the StoreKit stub imports it.
    framework=UIKit
    [ "$platform" = macos ] && framework=AppKit
    swiftc -module-name "$framework" -parse-as-library -swift-version 5 -enable-library-evolution -suppress-warnings \
        -emit-module -emit-module-path "$stub/$framework.swiftmodule" "Tests/AppleSDK/$framework/$framework.swift"
    swiftc -module-name StoreKit -parse-as-library -swift-version 5 -enable-library-evolution -suppress-warnings \
        "${define[@]}" -I "$stub" -emit-module -emit-module-path "$stub/StoreKit.swiftmodule" \
        Tests/AppleSDK/StoreKit/StoreKit.swift
    echo "-- StoreKit backend against the StoreKit stub as $platform"
    if ! swiftc -typecheck -module-name IOSiAPStoreKit -parse-as-library -swift-version 6 -warnings-as-errors \
        -package-name "$package_name" "${define[@]}" -I "$stub" -I "$modules" -Xcc -fmodule-map-file=Sources/CSQLite/module.modulemap \
        "${sources[@]}" "$work/CanImportStoreKit.swift"; then
        echo "check-storekit: the StoreKit backend does not compile as $platform" >&2
        status=1
    fi
done
exit $status
