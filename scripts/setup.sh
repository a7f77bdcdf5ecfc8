#!/usr/bin/env bash
# Installs what building IOSiAP needs on a Debian machine, when it is missing: the Swift toolchain must
# already be installed (we look in /opt/swift); the C libraries come from Debian. Scripts source it;
# IOSIAP_SETUP_PACKAGES names more Debian packages they need (the tests add cmake).
set -euo pipefail

if ! command -v swift >/dev/null 2>&1; then
    if [ -x /opt/swift/usr/bin/swift ]; then
        export PATH="/opt/swift/usr/bin:$PATH"
    else
        echo "setup: no Swift toolchain found; install Swift 6 (swift.org) and put it on PATH" >&2
        exit 1
    fi
fi

# shellcheck disable=SC2206
# SQLite and OpenSSL's libcrypto for the core and verification; libcurl because Foundation's networking
# (server verification) links it when the Swift runtime is linked in statically.
packages=(libsqlite3-dev libssl-dev libcurl4-openssl-dev ${IOSIAP_SETUP_PACKAGES:-})
missing=()
for package in "${packages[@]}"; do
    dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if [ "${#missing[@]}" -gt 0 ]; then
    echo "setup: installing ${missing[*]}"
    sudo_cmd=""
    [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}"
fi

# step TITLE: names the step a test script begins, with the seconds the script has run so far (the test command
# must end within 30 minutes on 2 cores; these figures show where the time goes).
step() { printf '== %s  [%d s]\n' "$*" "$SECONDS"; }

# start_verification_server DIRECTORY NAME: starts Tests/python/verification_server.py for five minutes, its
# requests logged in DIRECTORY/NAME.requests and its errors in DIRECTORY/NAME.err; sets `server` (its process, for
# the caller's EXIT trap) and `server_port`.
start_verification_server() {
    local directory=$1 name=$2
    : >"$directory/$name.requests"
    python3 Tests/python/verification_server.py --lifetime 300 --requests "$directory/$name.requests" </dev/null \
        >"$directory/$name.port" 2>"$directory/$name.err" &
    server=$!
    server_port=""
    for _ in $(seq 100); do
        server_port=$(awk 'NR == 1 && $1 == "port" {print $2}' "$directory/$name.port" 2>/dev/null || true)
        [ -n "$server_port" ] && return 0
        sleep 0.1
    done
    cat "$directory/$name.err" >&2
    echo "the verification server did not start" >&2
    return 1
}
