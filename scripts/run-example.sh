#!/usr/bin/env bash
# The main job: plays a whole purchase session against the local App Store on the bundled catalog.
# Extra arguments go to the example (try --help, --locale de_DE --storefront DEU).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
swift build -c release --product iosiap-example-session >/dev/null
exec "$(swift build -c release --show-bin-path)/iosiap-example-session" "$@"
