#!/usr/bin/env bash
# The transaction manager's page (iosiap-store serve) in headless Chromium while the C++ example game runs:
# Debian's chromium and chromium-driver, Python's Selenium. Leaves the page's screenshot in
# .build/artifacts/transaction-manager.png (CI keeps it; docs/qa.md shows one).
set -euo pipefail
cd "$(dirname "$0")/../.."
IOSIAP_SETUP_PACKAGES="libmicrohttpd-dev chromium chromium-driver" source scripts/setup.sh
python3 -m pip install --quiet --disable-pip-version-check selenium 2>&1 | grep -v "Running pip as the 'root' user" || true
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bash scripts/build-sdk.sh "$work/sdk" 2>/dev/null
g++ -std=c++11 -Wall -Wextra -Werror -I"$work/sdk/include" Examples/cpp/game.cpp -L"$work/sdk/lib" -liosiap \
    -Wl,-rpath,"$work/sdk/lib" -o "$work/game"
swift build --product iosiap-store -Xswiftc -warnings-as-errors >/dev/null
timeout 120 python3 Tests/browser/transaction_manager.py "$(swift build --show-bin-path)/iosiap-store" "$work/game" \
    "$PWD/Examples/Products.storekit" "$work" "$PWD/.build/artifacts/transaction-manager.png"
