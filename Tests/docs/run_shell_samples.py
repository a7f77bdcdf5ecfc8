#!/usr/bin/env python3
"""Runs the docs' shell samples (```sh blocks of README.md and docs/*.md) line by line, as a reader would, each in
bash: against the SDK folder's bin/iosiap-store and one store (the example catalog's, where a game bought coins and
the pro upgrade first), the toolchain's iosiap-verify, and an SDK folder the README's build line makes. Each line must exit
0; `serve` must print its address. A line is rewritten only where the sample names a place to fill in (a path, the
port, a transaction id); the rewrites are listed below. The README's test command is this run itself and is not
run again. A line nothing here knows how to run fails the check, so that a new sample cannot go unchecked.

usage: run_shell_samples.py SDK_DIR IOSIAP_VERIFY CATALOG WORK_DIR
"""
import os
import pathlib
import re
import shutil
import signal
import sqlite3
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from doc_samples import ROOT, samples  # noqa: E402

sdk, verify, catalog, work = (pathlib.Path(argument).resolve() for argument in sys.argv[1:5])
state = work / "state"
store = f"{sdk}/bin/iosiap-store"
# What each sample leaves to the reader, filled in: the SDK folder, the store's state directory, the binaries.
REWRITES = [
    (r"^swift run iosiap-store\b", store),
    (r"^iosiap-store\b", store),
    (r"^swift run iosiap-verify\b", str(verify)),
    (r"/path/to/sdk", str(work / "sdk-sample")),
    (r"/tmp/iosiap-state|\bDIR\b", str(state)),
    (r"\bstate/signing/", f"{state}/signing/"),
    (r"^\./quickstart Examples/Products.storekit /tmp/state", f"./quickstart {catalog} {work}/quickstart-state"),
    (r"--port 8080", "--port 0"),
]
# Run by their own checks, not again here.
ELSEWHERE = {
    "scripts/test.sh": "the test command, which runs this",
    # docs/benchmarks.md's count of disk syncs per thread, by hand: scripts/benchmark.sh makes the same count (row 8b).
    "bin=$(swift build -c release --show-bin-path)/iosiap-benchmarks": "row 8b of scripts/benchmark.sh",
    'strace -f -qq -e trace=fsync,fdatasync -o syncs.txt "$bin" ledger-poll-only 10000': "row 8b of scripts/benchmark.sh",
    "awk '{print $1, $2}' syncs.txt | sed 's/(.*//' | sort | uniq -c": "row 8b of scripts/benchmark.sh",
}


def run(line, shared_id):
    """Runs one sample line; returns (ok, output)."""
    command = line
    for pattern, replacement in REWRITES:
        command = re.sub(pattern, replacement, command)
    # "the shared transaction's id": the one the line before bought for the family.
    command = re.sub(r"(stop-family-sharing )\d+", lambda match: match.group(1) + str(shared_id), command)
    if re.search(r"\sserve(\s|$)", command):
        server = subprocess.Popen(["bash", "-c", "exec " + command], cwd=work, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        first = server.stdout.readline()
        server.send_signal(signal.SIGINT)  # as a reader stops it: Ctrl-C
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        return "http://127.0.0.1:" in first, first
    # The repository's scripts run from its root, as the README says; the rest in the work folder.
    result = subprocess.run(["bash", "-c", command], cwd=ROOT if line.startswith("scripts/") else work,
                            capture_output=True, text=True, timeout=600,
                            env=dict(os.environ, JWS=first_jws()))
    return result.returncode == 0, f"exit {result.returncode}\n{result.stdout}{result.stderr}"


def first_jws():
    """The signed transaction of the store's first purchase: the `$JWS` of a verification sample."""
    path = state / "localstore.sqlite"
    if not path.exists():
        return ""
    with sqlite3.connect(path) as database:
        row = database.execute("SELECT signed_jws FROM transactions ORDER BY id LIMIT 1").fetchone()
    return row[0] if row else ""


def main():
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    shutil.copy(ROOT / "Examples/cpp/quickstart.cpp", work / "quickstart.cpp")
    shutil.copy(ROOT / "Examples/c/main.c", work / "game.c")
    # The store a game has used: transactions 1 and 2, which the samples refund and look at.
    for product in ("com.iosiap.example.coins_100", "com.iosiap.example.pro_upgrade"):
        subprocess.run([store, "--state", str(state), "--catalog", str(catalog), "buy", product], check=True, capture_output=True)
    lines = failed = 0
    shared_id = 0
    for name, body in samples("sh"):
        for raw in body.splitlines():
            line = raw.split("  #")[0].strip() if not raw.lstrip().startswith("#") else ""
            if not line:
                continue
            lines += 1
            if line in ELSEWHERE:
                print(f"docs: {name}: `{line}` is {ELSEWHERE[line]}")
                continue
            if not re.match(r"^(swift run iosiap-(store|verify)|iosiap-store|scripts/[\w.-]+|openssl|c\+\+|cc|\./quickstart)(?=\s|$)", line):
                failed += 1
                print(f"FAILED: {name}: no check runs `{line}` (teach Tests/docs/run_shell_samples.py)", file=sys.stderr)
                continue
            ok, output = run(line, shared_id)
            if found := re.search(r"shares it: transaction (\d+)", output):
                shared_id = int(found.group(1))
            if not ok:
                failed += 1
                print(f"FAILED: {name}: `{line}`:\n{output}", file=sys.stderr)
    print(f"docs: {lines} shell sample lines, {failed} failed")
    return 1 if failed or lines == 0 else 0


sys.exit(main())
