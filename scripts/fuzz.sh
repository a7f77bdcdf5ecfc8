#!/usr/bin/env bash
# Runs the libFuzzer targets (Tests/Fuzz) for SECONDS each (default 60): the JWS parser and verifier
# (FuzzJWS), the verifier's decoding of signed payload and header JSON (FuzzPayload: decoded JSON, signed
# with a test chain, so every input reaches the payload), the .storekit parser (FuzzCatalog), the C
# ABI's string inputs (FuzzCABI), and the App Store Server API's request router (FuzzServerAPI), under
# AddressSanitizer. A crash, a leak or a hang
# (an input taking over 10 s) fails the run; the input that caused it is kept in .build-fuzz/artifacts.
# usage: scripts/fuzz.sh [SECONDS] [TARGET...]     e.g. scripts/fuzz.sh 3600 FuzzJWS
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(FuzzJWS FuzzPayload FuzzCatalog FuzzCABI FuzzServerAPI)
# gold cannot link libFuzzer with Swift's entry point here; the toolchain's lld can.
toolset=$(mktemp)
trap 'rm -f "$toolset"' EXIT
echo '{ "schemaVersion": "1.0", "swiftCompiler": { "extraCLIOptions": ["-use-ld=lld"] } }' >"$toolset"
mkdir -p .build-fuzz/artifacts
for target in "${targets[@]}"; do
    IOSIAP_FUZZ=1 swift build --build-path .build-fuzz --toolset "$toolset" -Xswiftc -sanitize=fuzzer,address \
        --product "$target" 2>&1 | grep -v "Cannot export local symbol" | grep -E "error|Compiling|Build" >&2 || true
    binary=$(IOSIAP_FUZZ=1 swift build --build-path .build-fuzz --show-bin-path)/$target
    [ -x "$binary" ] || { echo "fuzz: $target was not built" >&2; exit 1; }
    per_input_leak_check=1
    case $target in
        FuzzJWS) seeds=Tests/Fuzz/corpus/jws ;;
        FuzzPayload) seeds=Tests/Fuzz/corpus/payload ;;
        FuzzCatalog) seeds=Tests/Fuzz/corpus/catalog ;;
        FuzzServerAPI) seeds=Tests/Fuzz/corpus/serverapi ;;
        # The store goes on working on its own threads after an input returns, so memory still in use
        # there looks leaked to a check right after the input: for this target leaks are checked at exit.
        FuzzCABI) seeds=Tests/Fuzz/corpus/cabi; per_input_leak_check=0 ;;
    esac
    # New inputs go to a scratch corpus; the seeds in the repository stay as they are.
    corpus=.build-fuzz/corpus/$target
    mkdir -p "$corpus"
    echo "== $target for ${seconds}s"
    log=.build-fuzz/$target.log
    status=0
    IOSIAP_FUZZ_CATALOG=$PWD/Examples/Products.storekit ASAN_OPTIONS=detect_leaks=1 \
        "$binary" "$corpus" "$seeds" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 \
        -detect_leaks="$per_input_leak_check" \
        -artifact_prefix=.build-fuzz/artifacts/"$target"- -print_final_stats=1 >"$log" 2>&1 || status=$?
    grep -E "Done [0-9]+ runs|stat::number_of_executed_units|stat::peak_rss|ERROR|SUMMARY" "$log" || true
    [ "$status" -eq 0 ] || { tail -40 "$log" >&2; echo "fuzz: $target failed (exit $status); see $log and .build-fuzz/artifacts" >&2; exit 1; }
done
echo "fuzz: ${#targets[@]} passed, 0 failed"
