#!/usr/bin/env bash
# The main job: builds the SDK (libiosiap.so and headers) and the C++ example game, then plays the game
# against the local App Store on the bundled catalog. Arguments: [LOCALE STOREFRONT], e.g. de_DE DEU.
# The game keeps its purchases in $IOSIAP_STATE_DIR (default: a new temporary folder).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
# Each step says what it does on stderr; the game's own output is stdout.
echo "run-example: building libiosiap.so and the SDK folder in .build/sdk (release; the first build takes several minutes)" >&2
if ! bash scripts/build-sdk.sh .build/sdk; then
    echo "run-example: the SDK did not build; the errors are above" >&2
    exit 1
fi
echo "run-example: building the C++ example game (Examples/cpp/game.cpp)" >&2
g++ -std=c++11 -Wall -Wextra -Werror -I.build/sdk/include Examples/cpp/game.cpp \
    -L.build/sdk/lib -liosiap -Wl,-rpath,"$PWD/.build/sdk/lib" -o .build/iosiap-example-game
state=${IOSIAP_STATE_DIR:-$(mktemp -d -t iosiap-game-XXXXXX)}
echo "run-example: playing against the local App Store (Examples/Products.storekit), purchases kept in $state" >&2
exec .build/iosiap-example-game Examples/Products.storekit "$state" "$@"
