#!/usr/bin/env bash
# The lifecycle simulation (see scripts/simulate.py): scripts/simulate.sh [SEEDS] [FIRST_SEED].
# Runs SEEDS seeds (default 100) from FIRST_SEED (default 1); IOSIAP_SIMULATE_SECONDS=S stops starting seeds after
# S seconds (the test command runs about a minute). A divergence prints its seed and a shrunk trace, which
# `python3 scripts/simulate.py --replay TRACE.json --verbose ...` runs again.
# IOSIAP_SDK=folder reuses an SDK folder already built by scripts/build-sdk.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
seeds=${1:-100}
first=${2:-1}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source scripts/sdk-game.sh
compile_sdk_game "$work" Tests/native/sim_game.c "$work/sim_game"
swift build --product iosiap-store >/dev/null  # the debug build the test command has made already
cli=$(swift build --show-bin-path)/iosiap-store
python3 scripts/simulate.py --game "$work/sim_game" --cli "$cli" --catalog Examples/Products.storekit \
    --seeds "$seeds" --first-seed "$first" --seconds "${IOSIAP_SIMULATE_SECONDS:-0}"
