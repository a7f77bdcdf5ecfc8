#!/usr/bin/env python3
"""Kill -9 campaign: nothing paid is lost, nothing is granted twice.

A game process buys coins in a loop against one state directory, with the grant ledger on. It is killed
with SIGKILL at a random moment (seeded, reproducible), started again, killed again, ROUNDS times. Then one
clean launch lets redelivery finish, and the databases are read directly (with Python's sqlite3, not with
IOSiAP) to check: every purchase the store charged is granted exactly once and finished, in the journal and in the
store; the balance equals 100 coins per unit charged; no transaction is granted twice. With --storekit the game buys
over StoreKit (the stand-in's, crash_game built with -DIOSIAP_STOREKIT_STANDIN): its App Store is the local store in
the state directory, its journal in the state directory's "device".
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
    parser.add_argument("--storekit", action="store_true", help="the game opens the store over StoreKit (the stand-in)")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    os.makedirs(args.state, exist_ok=True)
    environment = dict(os.environ, IOSIAP_STOREKIT_CONFIGURATION=os.path.abspath(args.catalog),
                       IOSIAP_STOREKIT_STATE=os.path.abspath(args.state)) if args.storekit else None

    recovered_by_relaunch = 0
    told_granted = {}  # transaction id -> how often the game was told GRANTED for it, over every launch

    def count_grants(output):
        for line in output.splitlines():
            if line.startswith(("granted ", "recovered ")):
                transaction_id = int(line.split()[1])
                told_granted[transaction_id] = told_granted.get(transaction_id, 0) + 1
    for round_number in range(args.rounds):
        game = subprocess.Popen([args.game, args.catalog, args.state, "buy", str(rng.randrange(1 << 30))],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environment)
        time.sleep(rng.uniform(0.02, 0.5))
        if game.poll() is not None:
            print(f"round {round_number}: the game exited by itself ({game.returncode}): "
                  f"{game.stderr.read().decode().strip()}")
            return 1
        game.send_signal(signal.SIGKILL)
        game.wait()
        output = game.stdout.read().decode()
        recovered_by_relaunch += output.count("recovered ")
        count_grants(output)

    journal_path = os.path.join(args.state, "device" if args.storekit else "", "journal.sqlite")
    with sqlite3.connect(journal_path) as before:
        granted_before = before.execute("SELECT count(*) FROM grants").fetchone()[0]

    recovery = subprocess.run([args.game, args.catalog, args.state, "recover"], capture_output=True, text=True,
                              env=environment)
    if recovery.returncode != 0:
        print(f"recovery launch failed ({recovery.returncode}): {recovery.stderr.strip()}")
        return 1
    reported_balance = int(recovery.stdout.split()[-1])
    count_grants(recovery.stdout)

    store = sqlite3.connect(os.path.join(args.state, "localstore.sqlite"))
    charged = dict(store.execute("SELECT id, quantity FROM transactions WHERE product_id = ?", (COINS,)))
    # Finished in the store too (StoreKit's finish() runs after the journal's): else the store would hand it over again.
    unfinished_in_store = [row[0] for row in store.execute("SELECT id FROM transactions WHERE product_id = ? AND finished = 0",
                                                           (COINS,))]
    journal = sqlite3.connect(journal_path)
    grants = journal.execute("SELECT transaction_id, amount FROM grants WHERE revoked = 0").fetchall()
    unfinished = [row[0] for row in journal.execute("SELECT id FROM transactions WHERE finished = 0")]
    balance = (journal.execute("SELECT amount FROM balances WHERE currency = 'coins'").fetchone() or (0,))[0]

    # The journal keeps one grant row per transaction (its primary key), so a double grant shows as a GRANTED
    # told twice, an amount other than the charge's, or a balance above what was charged.
    granted = dict(grants)
    lost = [tid for tid in charged if tid not in granted]
    told_twice = [tid for tid, times in told_granted.items() if times > 1]
    wrong_amount = [tid for tid, amount in granted.items() if amount != 100 * charged.get(tid, 0)]
    doubled = len(told_twice) + len(wrong_amount)
    expected = 100 * sum(charged.values())
    print(f"crash campaign: seed {args.seed}, rounds {args.rounds}, purchases {len(charged)}, "
          f"lost {len(lost)}, doubled {doubled}, unfinished {len(unfinished)} (in the store {len(unfinished_in_store)}), "
          f"recovered by a relaunch {recovered_by_relaunch + len(granted) - granted_before} "
          f"(charged, then killed before the grant), "
          f"balance {balance} (expected {expected}, game saw {reported_balance})")
    ok = (not lost and doubled == 0 and not unfinished and not unfinished_in_store and balance == expected == reported_balance
          and charged)
    print(f"crash campaign: {1 if ok else 0} passed, {0 if ok else 1} failed")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
