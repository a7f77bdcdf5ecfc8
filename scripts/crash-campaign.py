#!/usr/bin/env python3
"""Kill -9 campaign: nothing paid is lost, nothing is granted twice.

A game process buys coins in a loop against one state directory, with the grant ledger on. It is killed
with SIGKILL at a random moment (seeded, reproducible), started again, killed again, ROUNDS times. Then one
clean launch lets redelivery finish, and the databases are read directly (with Python's sqlite3, not with
IOSiAP) to check: every purchase the store charged is granted exactly once and finished; the balance
equals 100 coins per unit charged; no transaction is granted twice.
"""
import argparse
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time

COINS = "com.iosiap.example.coins_100"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", required=True, help="the crash_game executable")
    parser.add_argument("--catalog", required=True)
    parser.add_argument("--state", required=True, help="a fresh state directory")
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    os.makedirs(args.state, exist_ok=True)

    recovered_by_relaunch = 0
    for round_number in range(args.rounds):
        game = subprocess.Popen([args.game, args.catalog, args.state, "buy", str(rng.randrange(1 << 30))],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        time.sleep(rng.uniform(0.02, 0.5))
        if game.poll() is not None:
            print(f"round {round_number}: the game exited by itself ({game.returncode}): "
                  f"{game.stderr.read().decode().strip()}")
            return 1
        game.send_signal(signal.SIGKILL)
        game.wait()
        recovered_by_relaunch += game.stdout.read().decode().count("recovered ")

    journal_path = os.path.join(args.state, "journal.sqlite")
    with sqlite3.connect(journal_path) as before:
        granted_before = before.execute("SELECT count(*) FROM grants").fetchone()[0]

    recovery = subprocess.run([args.game, args.catalog, args.state, "recover"], capture_output=True, text=True)
    if recovery.returncode != 0:
        print(f"recovery launch failed ({recovery.returncode}): {recovery.stderr.strip()}")
        return 1
    reported_balance = int(recovery.stdout.split()[-1])

    store = sqlite3.connect(os.path.join(args.state, "localstore.sqlite"))
    charged = dict(store.execute("SELECT id, quantity FROM transactions WHERE product_id = ?", (COINS,)))
    journal = sqlite3.connect(journal_path)
    grants = journal.execute("SELECT transaction_id, amount FROM grants WHERE revoked = 0").fetchall()
    unfinished = [row[0] for row in journal.execute("SELECT id FROM transactions WHERE finished = 0")]
    balance = (journal.execute("SELECT amount FROM balances WHERE currency = 'coins'").fetchone() or (0,))[0]

    granted = {}
    doubled = 0
    for transaction_id, amount in grants:
        doubled += transaction_id in granted
        granted[transaction_id] = granted.get(transaction_id, 0) + amount
    lost = [tid for tid in charged if tid not in granted]
    wrong_amount = [tid for tid, amount in granted.items() if amount != 100 * charged.get(tid, 0)]
    doubled += len(wrong_amount)
    expected = 100 * sum(charged.values())
    print(f"crash campaign: seed {args.seed}, rounds {args.rounds}, purchases {len(charged)}, "
          f"lost {len(lost)}, doubled {doubled}, unfinished {len(unfinished)}, "
          f"recovered by a relaunch {recovered_by_relaunch + len(granted) - granted_before} "
          f"(charged, then killed before the grant), "
          f"balance {balance} (expected {expected}, game saw {reported_balance})")
    ok = not lost and doubled == 0 and not unfinished and balance == expected == reported_balance and charged
    print(f"crash campaign: {1 if ok else 0} passed, {0 if ok else 1} failed")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
