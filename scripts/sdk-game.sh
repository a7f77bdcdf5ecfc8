#!/usr/bin/env bash
# Sourced by the scripts that drive a C game through the SDK (crash-campaign.sh, simulate.sh).
# compile_sdk_game WORK SOURCE OUTPUT: compiles the C game SOURCE to OUTPUT against the SDK that IOSIAP_SDK names,
# or else one built into WORK/sdk by scripts/build-sdk.sh (once per WORK).
compile_sdk_game() {
    local sdk=${IOSIAP_SDK:-}
    if [ -z "$sdk" ]; then
        sdk=$1/sdk
        [ -d "$sdk" ] || bash scripts/build-sdk.sh "$sdk" 2>/dev/null
    fi
    gcc -std=c99 -Wall -Wextra -pedantic -Werror -pthread -I"$sdk/include" "$2" \
        -L"$sdk/lib" -liosiap -Wl,-rpath,"$sdk/lib" -o "$3"
}
