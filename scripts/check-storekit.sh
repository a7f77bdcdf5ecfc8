#!/usr/bin/env bash
# Type-checks the whole StoreKit backend (Sources/IOSiAPStoreKit, Live/ included) on Linux against StoreKit's real
# signatures, from the oldest SDK the package is meant to build with, the last 26.x and the newest:
#   Tests/AppleSDK/StoreKit18  the iOS 18.0 and macOS 15.0 SDKs' StoreKit interfaces (the deployment targets)
#   Tests/AppleSDK/StoreKit26  the iOS 26.5 and macOS 26.5 SDKs' StoreKit interfaces (the last 26.x)
#   Tests/AppleSDK/StoreKit27  the iOS 27.0 SDK's StoreKit interface and the newest macOS one (see its header)
# Each is a declarations-only `StoreKit` transcribed by us (see its header), built here with library evolution
# and the real SDK's -user-module-version (its header's `user-module-version:` line) into a temporary directory,
# never as a SwiftPM target, which makes `canImport(StoreKit)` true, so LiveStoreKit.swift compiles, and
# `canImport(StoreKit, _version: …)` answer as Apple's SDK would. Before it, the declarations-only UIKit (iOS,
# tvOS, visionOS) or AppKit (macOS) of Tests/AppleSDK: StoreKit's interface imports it.
#
# Twelve configurations: each SDK as iOS, macOS, tvOS and visionOS, warnings as errors. Linux ignores
# `@available(iOS 18.0, *)`-style versions, so each configuration passes IOSIAP_STOREKIT_CHECK_<PLATFORM> to both
# compilations: the stub makes that platform's `unavailable` declarations unavailable, and LiveStoreKit takes its
# `#if os(<platform>)` branches (ios: no condition). An API newer than the deployment targets is absent from the
# oldest SDK's transcription, so using it without a `canImport(StoreKit, _version:)` check fails there.
# Linux ignores `introduced:` versions, so what an SDK newer than the oldest added is checked apart:
# - every `#if canImport(StoreKit, _version: …)` branch of the backend must hold an `#available` check, unless its
#   `#if` line says `// back-deployed` (an API Apple back-deployed to every OS the library runs on);
# - availability (scripts/check-availability.py): against the newest transcription, each platform in turn, every
#   declaration introduced after that platform's deployment target (Package.swift's `platforms:`) is marked
#   deprecated with its version; the backend, its `#available` conditions made opaque calls so that no branch is
#   taken for decided, is type-checked against that copy, and each resulting warning (and each such enum case in
#   a case or catch clause in Live/) must sit inside an `#available` or `@available` gate at least that new, not
#   in its `else` nor a `guard`'s body. The reader of gates is held to known cases first (`selftest`), and the
#   check is shown to fail on a copy of the backend with one use moved to its gate's `else` and one gate removed.
# Not checked: anything beyond the transcriptions.
#
# In each configuration a second file imports that StoreKit together with every IOSiAP library module and names
# every public IOSiAP type unqualified: a type StoreKit also declares at the top level (as the 18.4 SDK did with
# SubscriptionPeriod) is ambiguous there, for our code and for a game's. Nothing is run.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh

libraries=(IOSiAPCore IOSiAPSignedData IOSiAPVerification IOSiAPStoreKit IOSiAPLocalStore)
for library in "${libraries[@]}"; do swift build --target "$library" >/dev/null; done
bin=$(swift build --show-bin-path)
modules=$bin/Modules
# IOSiAPCore shares `package` declarations (Locked, …) with the package's other modules: use SwiftPM's name.
package_name=$(grep -A1 '"-package-name"' "$bin/description.json" | sed -n '2s/[ ",]//gp')
module_maps=()
for map in Sources/C*/module.modulemap Sources/C*/include/module.modulemap; do if [ -f "$map" ]; then module_maps+=(-Xcc "-fmodule-map-file=$map"); fi; done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Fails the check if the stub did not make `canImport(StoreKit)` true (LiveStoreKit would silently vanish).
cat >"$work/CanImportStoreKit.swift" <<'EOF'
#if !canImport(StoreKit)
#error("the StoreKit stub is not visible: LiveStoreKit.swift would not be compiled")
#endif
EOF

# Every public top-level type of the IOSiAP libraries, named unqualified beside StoreKit (from their symbol graphs).
mkdir "$work/symbols"
for library in "${libraries[@]}"; do
    swift-symbolgraph-extract -module-name "$library" -I "$modules" -target "$(uname -m)-unknown-linux-gnu" \
        -output-dir "$work/symbols" "${module_maps[@]}" >/dev/null
done
python3 - "$work/symbols" "${libraries[@]}" >"$work/PublicTypeNames.swift" <<'EOF'
import json, os, sys
folder, libraries = sys.argv[1], sys.argv[2:]
kinds = {"swift.struct", "swift.class", "swift.enum", "swift.protocol", "swift.typealias"}
names = set()
for library in libraries:
    graph = json.load(open(os.path.join(folder, library + ".symbols.json")))
    names |= {s["pathComponents"][0] for s in graph["symbols"]
              if len(s["pathComponents"]) == 1 and s["kind"]["identifier"] in kinds}
if len(names) < 50:
    sys.exit(f"check-storekit: only {len(names)} public IOSiAP types found; the symbol graphs are not what they should be")
print("// Generated by scripts/check-storekit.sh: every public IOSiAP type, named unqualified beside StoreKit.")
print("import StoreKit")
for library in libraries:
    print(f"import {library}")
for name in sorted(names):
    print(f"typealias Unqualified_{name} = {name}")
EOF
echo "-- $(grep -c '^typealias' "$work/PublicTypeNames.swift") public IOSiAP types named beside StoreKit"

mapfile -t sources < <(find Sources/IOSiAPStoreKit -name '*.swift' | sort)

echo "-- the availability check's reader of gates, on uses gated and not (scripts/check-availability.py selftest)"
python3 scripts/check-availability.py selftest

echo "-- every newer-SDK branch (canImport(StoreKit, _version:)) checks #available or says it is back-deployed"
python3 - "${sources[@]}" <<'EOF'
import re, sys
failures = []
for path in sys.argv[1:]:
    lines = open(path).read().splitlines()
    for number, line in enumerate(lines):
        if not re.match(r"\s*#if canImport\(StoreKit, _version:", line) or "// back-deployed" in line:
            continue
        depth, body = 0, []
        for inner in lines[number + 1:]:
            if re.match(r"\s*#if\b", inner):
                depth += 1
            elif re.match(r"\s*#(else|elseif|endif)\b", inner):
                if depth == 0:
                    break
                if inner.strip().startswith("#endif"):
                    depth -= 1
            body.append(inner)
        if not any("#available" in inner for inner in body):
            failures.append(f"{path}:{number + 1}: a newer SDK's branch without #available (or '// back-deployed'): {line.strip()}")
print("\n".join(failures) or "   ok")
sys.exit(1 if failures else 0)
EOF

# Deployment targets per platform, from Package.swift's `platforms:` (`.iOS(.v18)` is 18.0, `.visionOS(.v2)` 2.0).
declare -A deployment_target
for platform in ios macos tvos visionos; do
    major=$(grep -oiE "\.${platform}\(\.v[0-9_]+\)" Package.swift | grep -oE '[0-9_]+' | tr _ .)
    [ -n "$major" ] || { echo "check-storekit: Package.swift names no $platform deployment target" >&2; exit 1; }
    [[ $major == *.* ]] || major=$major.0
    deployment_target[$platform]=$major
done

sdks=(StoreKit18 StoreKit26 StoreKit27)
newest=${sdks[-1]}

# availability_check PLATFORM DEFINE... -- SOURCE_DIR: types SOURCE_DIR's backend, its availability conditions made
# opaque, against the newest transcription marked for PLATFORM (in $stub, where its UI framework already is) and
# holds every marked use to a gate. Each step's failure fails it (it runs where `set -e` does not reach).
availability_check() {
    local platform=$1; shift
    local define=()
    while [ "$1" != -- ]; do define+=("$1"); shift; done
    local source_dir=$2
    local marked
    marked="$work/marked-$platform-$(basename "$source_dir")"
    mkdir -p "$marked/opaque"
    cp "$stub/$framework.swiftmodule" "$marked/" || return 1  # the UI framework the loop built for this platform
    python3 scripts/check-availability.py mark "Tests/AppleSDK/$newest/StoreKit.swift" "$platform" \
        "${deployment_target[$platform]}" "$marked/StoreKit.swift" || return 1
    swiftc -module-name StoreKit -parse-as-library -swift-version 5 -enable-library-evolution -suppress-warnings \
        -user-module-version "$version" "${define[@]}" -I "$marked" -emit-module -emit-module-path "$marked/StoreKit.swiftmodule" \
        "$marked/StoreKit.swift" || return 1
    python3 scripts/check-availability.py opaque "$marked/opaque" "$source_dir" || return 1
    local copies=() originals=()
    mapfile -t copies < <(find "$marked/opaque" -name '*.swift' | sort)
    mapfile -t originals < <(find "$source_dir" -name '*.swift' | sort)
    swiftc -typecheck -module-name IOSiAPStoreKit -parse-as-library -swift-version 6 \
        -package-name "$package_name" "${define[@]}" -I "$marked" -I "$modules" "${module_maps[@]}" \
        "${copies[@]}" "$work/CanImportStoreKit.swift" >"$marked/diagnostics.txt" 2>&1 \
        || { cat "$marked/diagnostics.txt" >&2; return 1; }
    python3 scripts/check-availability.py gates "$platform" "$marked/diagnostics.txt" "$marked/StoreKit.swift" \
        "$marked/opaque" "$source_dir" "${originals[@]}"
}

status=0
for sdk in "${sdks[@]}"; do
    stub_source=Tests/AppleSDK/$sdk/StoreKit.swift
    # The line `// user-module-version: ios X macos Y` of the stub's header.
    versions=$(sed -n 's|^// user-module-version: ios \([0-9.]*\) macos \([0-9.]*\)$|\1 \2|p' "$stub_source")
    ios_version=${versions% *}
    macos_version=${versions#* }
    if [ -z "$versions" ]; then
        echo "check-storekit: $stub_source has no '// user-module-version: ios X macos Y' line" >&2
        exit 1
    fi
    for platform in ios macos tvos visionos; do
        define=()
        [ "$platform" = ios ] || define=(-D "IOSIAP_STOREKIT_CHECK_$(tr '[:lower:]' '[:upper:]' <<<"$platform")")
        stub="$work/$sdk-$platform"
        mkdir -p "$stub"
        # The UI framework StoreKit's interface imports, built first.
        framework=UIKit
        version=$ios_version
        if [ "$platform" = macos ]; then framework=AppKit; version=$macos_version; fi
        swiftc -module-name "$framework" -parse-as-library -swift-version 5 -enable-library-evolution -suppress-warnings \
            -emit-module -emit-module-path "$stub/$framework.swiftmodule" "Tests/AppleSDK/$framework/$framework.swift"
        swiftc -module-name StoreKit -parse-as-library -swift-version 5 -enable-library-evolution -suppress-warnings \
            -user-module-version "$version" "${define[@]}" -I "$stub" -emit-module -emit-module-path "$stub/StoreKit.swiftmodule" \
            "$stub_source"
        echo "-- StoreKit backend against $sdk (user-module-version $version) as $platform"
        if ! swiftc -typecheck -module-name IOSiAPStoreKit -parse-as-library -swift-version 6 -warnings-as-errors \
            -package-name "$package_name" "${define[@]}" -I "$stub" -I "$modules" "${module_maps[@]}" \
            "${sources[@]}" "$work/CanImportStoreKit.swift"; then
            echo "check-storekit: the StoreKit backend does not compile against $sdk as $platform" >&2
            status=1
        fi
        if ! swiftc -typecheck -module-name TypeNamesBesideStoreKit -parse-as-library -swift-version 6 -warnings-as-errors \
            "${define[@]}" -I "$stub" -I "$modules" "${module_maps[@]}" "$work/PublicTypeNames.swift"; then
            echo "check-storekit: a public IOSiAP type's name is ambiguous beside $sdk's StoreKit as $platform" >&2
            status=1
        fi
        [ "$sdk" = "$newest" ] || continue
        if [ "$platform" = ios ]; then
            # The check must fail where a gate is missing: a copy of the backend whose 18.2 call sits in the `else`
            # of its gate, and whose 18.4 case has lost its gate.
            mutant="$work/without-gates"
            cp -r Sources/IOSiAPStoreKit "$mutant"
            sed -i -e 's/if #available(iOS 18.2, tvOS 18.2, visionOS 2.2, \*) {/if #available(iOS 18.2, tvOS 18.2, visionOS 2.2, *) {} else {/' \
                -e 's/if #available(iOS 18.4, macOS 15.4, tvOS 18.4, visionOS 2.4, \*), case .unsupported/if case .unsupported/' \
                "$mutant/Live/LiveStoreKit.swift"
            echo "-- availability against $sdk as ios, on a copy of the backend with two gates undone: must fail"
            if availability_check ios -- "$mutant" >"$work/mutant.txt" 2>&1 \
                || [ "$(grep -c 'without a gate' "$work/mutant.txt")" -ne 2 ]; then
                cat "$work/mutant.txt" >&2
                echo "check-storekit: the availability check did not find the two gates removed" >&2
                status=1
            else
                sed 's/^/   /' "$work/mutant.txt"
            fi
        fi
        echo "-- availability against $sdk as $platform (deployment target ${deployment_target[$platform]})"
        availability_check "$platform" "${define[@]}" -- Sources/IOSiAPStoreKit || status=1
    done
done
exit $status
