#!/usr/bin/env bash
# The kill -9 campaign (see scripts/crash-campaign.py): scripts/crash-campaign.sh [ROUNDS] [SEED].
# The test command runs 30 rounds; run 500 (about 5 minutes) before a release: scripts/crash-campaign.sh 500.
# IOSIAP_SDK=folder reuses an SDK folder already built by scripts/build-sdk.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
rounds=${1:-30}
seed=${2:-$RANDOM}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source scripts/sdk-game.sh
compile_sdk_game "$work" Tests/native/crash_game.c "$work/crash_game"
python3 scripts/crash-campaign.py --game "$work/crash_game" --catalog Examples/Products.storekit \
    --state "$work/state" --rounds "$rounds" --seed "$seed"
