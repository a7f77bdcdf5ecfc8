#!/usr/bin/env bash
# Regenerates Sources/IOSiAPLocalStore/Store/PriceFormatTable+Data.swift from the toolchain's ICU (through Foundation's
# NumberFormatter), for a new toolchain or a new App Store currency; PriceFormatterTests then checks the table against
# NumberFormatter for every locale and currency.
set -euo pipefail
cd "$(dirname "$0")/../.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
swiftc -swift-version 6 -O scripts/price-formats/main.swift Sources/IOSiAPLocalStore/Store/PriceNumberShape.swift -o "$work/generate"
"$work/generate" Sources/IOSiAPLocalStore/Catalog/AppStoreStorefront.swift > "$work/table.swift"
mv "$work/table.swift" "Sources/IOSiAPLocalStore/Store/PriceFormatTable+Data.swift"
echo "wrote Sources/IOSiAPLocalStore/Store/PriceFormatTable+Data.swift"
