#!/usr/bin/env bash
# Benchmarks (release build): prints one table in Markdown, and writes it as JSON to benchmark-results.json
# (or $IOSIAP_BENCHMARK_JSON). Every figure is a ratio against a baseline measured in the same run.
#   scripts/benchmark.sh            the full run (about 10 minutes: row 7 makes 100,000 purchases)
#                                   (rows 4b and 8b need valgrind and strace; without them they are left out)
#   scripts/benchmark.sh --quick    a short smoke run that keeps the benchmarks working (the test command)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
quick=${1:-}
json=${IOSIAP_BENCHMARK_JSON:-benchmark-results.json}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Built with the SDK's Swift flags (scripts/build-sdk.sh, run below for row 7): both then share the release build
# folder, where different flags would have each build compile every module again (minutes on 2 cores).
swift build -c release --product iosiap-benchmarks -Xswiftc -static-stdlib >&2
bin=$(swift build -c release --show-bin-path)/iosiap-benchmarks
"$bin" $quick --json "$work/rows.json" >"$work/table.md"

# Row 4b: allocations made by idle polls, counted by valgrind as the difference between two runs.
allocations=""
if command -v valgrind >/dev/null; then
    polls=$([ "$quick" = "--quick" ] && echo 200000 || echo 2000000)
    # On a copy without debug information: valgrind 3.19 gives up on the DWARF 5 that clang writes for our C target.
    strip --strip-debug -o "$work/benchmarks-without-debug-info" "$bin"
    count() {
        valgrind --tool=memcheck "$work/benchmarks-without-debug-info" idle-poll-only "$1" >"$work/valgrind.txt" 2>&1 \
            || { cat "$work/valgrind.txt" >&2; echo "benchmark: valgrind failed (row 4b)" >&2; return 1; }
        local allocations
        allocations=$(sed -n 's/.*total heap usage: \([0-9,]*\) allocs.*/\1/p' "$work/valgrind.txt" | tr -d ,)
        [ -n "$allocations" ] || { cat "$work/valgrind.txt" >&2; echo "benchmark: valgrind printed no heap summary (row 4b)" >&2; return 1; }
        echo "$allocations"
    }
    base=$(count 0)
    busy=$(count "$polls")
    allocations=$((busy - base))
    echo "  4b. allocations in $polls idle polls: $busy - $base = $allocations (valgrind)" >&2
fi

# Row 8b: fsync/fdatasync calls on the polling thread while the ledger grants, seen by strace -f (the
# ledger commits on the store's worker thread, so the game's poll never waits for the disk).
fsyncs=""
if command -v strace >/dev/null; then
    grants=$([ "$quick" = "--quick" ] && echo 300 || echo 10000)
    strace -f -qq -e trace=fsync,fdatasync -o "$work/strace.txt" "$bin" ledger-poll-only "$grants" 2>"$work/ledger.err"
    poller=$(sed -n 's/^polling thread: //p' "$work/ledger.err")
    total=$(grep -c 'sync(' "$work/strace.txt" || true)
    on_poller=$(awk -v tid="$poller" '$1 == tid && /sync\(/' "$work/strace.txt" | wc -l)
    fsyncs="$on_poller $total $grants"
    echo "  8b. fsync/fdatasync while $grants purchases are granted: $on_poller of $total on the polling thread $poller (strace -f)" >&2
fi

# Row 7: peak RSS of the C++ example game after N purchases against after start-up.
purchases=$([ "$quick" = "--quick" ] && echo 1000 || echo 100000)
bash scripts/build-sdk.sh "$work/sdk" 2>/dev/null
g++ -std=c++11 -O2 -I"$work/sdk/include" Examples/cpp/game.cpp -L"$work/sdk/lib" -liosiap -Wl,-rpath,"$work/sdk/lib" -o "$work/game"
memory=$(IOSIAP_EXAMPLE_EXTRA_PURCHASES=$purchases "$work/game" Examples/Products.storekit "$work/state" 2>&1 >/dev/null | grep "^memory:")
echo "  7. $memory" >&2

# Row 12: the shipped libiosiap.so's size, against a library of the same statically linked Swift runtime with no code
# of ours (scripts/size-baseline.swift), stripped the same way.
swiftc -O -emit-library -static-stdlib scripts/size-baseline.swift -o "$work/libsize-baseline.so"
strip --strip-all "$work/libsize-baseline.so"
sizes="$(stat -c %s "$work/sdk/lib/libiosiap.so") $(stat -c %s "$work/libsize-baseline.so")"
echo "  12. libiosiap.so and the runtime alone, bytes: $sizes" >&2

python3 - "$work/rows.json" "$json" "$allocations" "$memory" "$purchases" "${polls:-0}" "$fsyncs" "$sizes" <<'PY' >>"$work/table.md"
import json, re, sys
rows_path, out_path, allocations, memory, purchases, polls, fsyncs, sizes = sys.argv[1:9]
rows = json.load(open(rows_path))
if allocations:
    # The store's own threads (the local store's watcher) allocate now and then while the polls run: the
    # difference between the runs is theirs unless it grows with the number of polls.
    per_poll = int(allocations) / int(polls)
    rows.append({"name": f"4b. heap allocations per idle poll (valgrind: {polls} polls vs none, {allocations} more)",
                 "measured": f"{per_poll:.6f}", "baseline": "0", "ratio": None, "target": "0 (< 0.001: none per poll)",
                 "met": per_poll < 0.001})
start, after = map(int, re.findall(r"(\d+) KiB", memory))
rows.append({"name": f"7. peak RSS of the C++ example game after {purchases} purchases", "measured": f"{after} KiB",
             "baseline": f"{start} KiB after start-up", "ratio": after / start, "target": "(reported)", "met": None})
if fsyncs:
    on_poller, total, grants = map(int, fsyncs.split())
    rows.append({"name": f"8b. fsync/fdatasync calls on the polling thread while {grants} purchases are granted (strace -f)",
                 "measured": str(on_poller), "baseline": f"{total} in the process", "ratio": None, "target": "0",
                 "met": on_poller == 0 and total > 0})
library, runtime = map(int, sizes.split())
rows.append({"name": "12. libiosiap.so as shipped (stripped; its symbols in libiosiap.so.debug)", "measured": f"{library:,} bytes",
             "baseline": f"{runtime:,} bytes, the Swift runtime and FoundationEssentials alone", "ratio": library / runtime,
             "target": "≤ 15,000,000 bytes, no ICU", "met": library <= 15_000_000})
json.dump(rows, open(out_path, "w"), indent=2)
added = 2 + bool(allocations) + bool(fsyncs)
for row in rows[-added:]:
    ratio = "-" if row["ratio"] is None else f'{row["ratio"]:.3f}'
    met = "-" if row["met"] is None else ("yes" if row["met"] else "**no**")
    print(f'| {row["name"]} | {row["measured"]} | {row["baseline"]} | {ratio} | {row["target"]} | {met} |')
PY
grep -v "^|$" "$work/table.md"
echo "benchmark: results in $json" >&2
