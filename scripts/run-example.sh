#!/usr/bin/env bash
# The main job: builds the SDK (libiosiap.so and headers) and the C++ example game, then plays the game
# against the local App Store on the bundled catalog. Arguments: [LOCALE STOREFRONT], e.g. de_DE DEU.
# The game keeps its purchases in $IOSIAP_STATE_DIR (default: a new temporary folder).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
bash scripts/build-sdk.sh .build/sdk 2>/dev/null
g++ -std=c++11 -Wall -Wextra -Werror -I.build/sdk/include Examples/cpp/game.cpp \
    -L.build/sdk/lib -liosiap -Wl,-rpath,"$PWD/.build/sdk/lib" -o .build/iosiap-example-game
state=${IOSIAP_STATE_DIR:-$(mktemp -d -t iosiap-game-XXXXXX)}
exec .build/iosiap-example-game Examples/Products.storekit "$state" "$@"
