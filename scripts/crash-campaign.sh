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
sdk=${IOSIAP_SDK:-}
if [ -z "$sdk" ]; then
    sdk=$work/sdk
    bash scripts/build-sdk.sh "$sdk" 2>/dev/null
fi
gcc -std=c99 -Wall -Wextra -pedantic -Werror -I"$sdk/include" Tests/native/crash_game.c \
    -L"$sdk/lib" -liosiap -Wl,-rpath,"$sdk/lib" -o "$work/crash_game"
python3 scripts/crash-campaign.py --game "$work/crash_game" --catalog Examples/Products.storekit \
    --state "$work/state" --rounds "$rounds" --seed "$seed"
