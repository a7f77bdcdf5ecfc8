#!/usr/bin/env python3
"""The lifecycle simulation: seeded, replayable runs of a game against the local store, checked against a model.

Each seed makes a trace of steps: purchases of every product type, finishing or not, restores, closes and
reopens in poll or delivery-thread mode, kill -9 of the game at random moments and inside its callbacks, a
refund handler that refuses its event, and from outside (the game's own controls while it runs, iosiap-store
while it runs or is closed) refunds, expiries, renewals, renewal date extensions, Ask to Buy approvals and
declines, interrupted purchases resolved (of products owned or not, of the active subscription and of its other
level), upgrades and downgrades between two levels of one subscription group, billing issues and grace periods
turned on and off (so renewals fail into billing retry or grace, and restores meet them), purchases, Family
Sharing purchases and their ends; a verification server that passes, fails, fails retryably or hangs. Half the
seeds run the grant ledger. Over StoreKit (--storekit) traces also reinstall the app (its journal deleted, the
store kept: entitled at the next launch from StoreKit's current entitlements), move between two devices (each with
its journal, one App Store: what the other device bought or refunded reaches this one from StoreKit) and have the
user dismiss the sign-in of restores (AppStore.sync() cancelled: the restore still gives what is owned); half of
them run at a fast time rate, so that periods renew, fall into billing retry and grace, and end by their dates.

The game (Tests/native/sim_game.c) prints each event as its callback is entered and again as it returns, so
the model sees what the game was told. What is checked, as the run goes and at a last clean launch:
  - a purchase is told (PURCHASED, or GRANTED by the ledger) until the game finishes it, never after, except as
    the answer of a payment request (a store answers a purchase of something owned with its transaction);
  - a refund is told to a handler that returned at most once (a kill right after the return may tell it again),
    and by the end at least once for each refunded transaction the game was told it owned;
  - every request ends in at most one final event, and in exactly one when the game waits for it;
  - DECLINED is told only for a waiting purchase the harness declined (never for an approval or a resolution);
  - a finish of a transaction told as purchased succeeds;
  - after every launch whose verifier passes: entitlements, the subscription's level and end among them (and
    the ledger's balance and entitlements), come to equal the model's, which reads the store's own database as the App
    Store's truth; at the last launch, every unfinished purchase is told again, the restore tells RESTORED for
    every product the store says is owned (a subscription in its grace period too), and after it all agree;
  - a game ends only when the harness kills it or after it was armed to die inside a callback.
A divergence prints the seed, what diverged and a shrunk trace. usage: see scripts/simulate.sh.
"""
import argparse
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

COINS = "com.iosiap.example.coins_100"
PRO = "com.iosiap.example.pro_upgrade"
GOLD = "com.iosiap.example.club_gold_monthly"
# Silver is gold's group a level below: buying one while the other is active upgrades or downgrades.
SILVER = "com.iosiap.example.club_silver_monthly"
SEASON = "com.iosiap.example.season_pass"  # a non-renewing subscription: owned until refunded
LEVELS = (GOLD, SILVER)
PRODUCTS = [COINS, PRO, GOLD, SEASON, SILVER]

# Event kinds (iosiap.h)
PRODUCTS_RECEIVED, PRODUCTS_FAILED, PURCHASING, PURCHASED, CANCELLED, FAILED, DEFERRED, DECLINED, RESTORED, \
    RESTORE_FINISHED, REVOKED, GRANTED, VERIFICATION_FAILED, EXPIRED = range(1, 15)
FINAL = {PRODUCTS_RECEIVED, PRODUCTS_FAILED, PURCHASED, CANCELLED, FAILED, DEFERRED, RESTORE_FINISHED, GRANTED,
         VERIFICATION_FAILED}
VERIFY_RETRYABLE = -210
WAIT = 20.0  # seconds a positive sign may take on a busy machine


class Divergence(Exception):
    pass


class Verifier:
    """The game's verification server on loopback: its answer is the simulation's to set."""

    def __init__(self):
        self.mode = "pass"
        verifier = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                request = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
                mode = verifier.mode
                if mode == "hang":
                    time.sleep(2.5)  # longer than the game's 1 s timeout
                if mode == "retry" or mode == "hang":
                    body, code = b'{"error": "down"}', 500
                elif mode == "fail":
                    body, code = b'{"status": 21003}', 200
                else:
                    body, code = json.dumps({"status": 0, "transactionId": request.get("transactionId", "")}).encode(), 200
                try:
                    self.send_response(code)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                except OSError:
                    pass  # the game timed out and went away

        ThreadingHTTPServer.request_queue_size = 128  # a launch verifies many transactions at once
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/verify"

    def stop(self):
        self.server.shutdown()


class Game:
    """One launch of sim_game: lines it prints are read on a thread and handed to the model in order."""

    def __init__(self, world, mode):
        self.world, self.mode = world, mode
        url = world.verifier.url if world.verifying else "-"
        # With the StoreKit stand-in, its App Store is the store whose database the model reads; the game is an app
        # whose Info.plist sets SKIncludeConsumableInAppPurchaseHistory, so coins refunded while it is closed are
        # taken back at the next launch, as the model says (docs/ios.md).
        environment = dict(os.environ, IOSIAP_STOREKIT_CONFIGURATION=os.path.abspath(world.catalog),
                           IOSIAP_STOREKIT_STATE=world.state,
                           IOSIAP_STOREKIT_CONSUMABLE_HISTORY="1") if world.storekit else None
        self.process = subprocess.Popen([world.game, world.catalog, world.state, mode, str(int(world.ledger)), url],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        text=True, bufsize=1, env=environment)
        self.lines = []
        self.changed = threading.Condition()
        self.ended = False
        self.armed_to_die = False  # told to die inside a callback (die-in): the only way it may end by itself
        threading.Thread(target=self.read, daemon=True).start()

    def read(self):
        for line in self.process.stdout:
            with self.changed:
                self.world.transcript.append(f"  game: {line.rstrip()}")
                self.lines.append(line.split())
                self.changed.notify_all()
        with self.changed:
            self.ended = True
            self.changed.notify_all()

    def wait(self, seen, timeout=WAIT):
        """Hands lines to the model until seen() is true; False if the game ended or time ran out first."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while True:
                while self.world.model.consumed < len(self.lines):
                    self.world.model.take(self.lines[self.world.model.consumed])
                    self.world.model.consumed += 1
                if seen():
                    return True
                if self.ended or time.monotonic() > deadline:
                    return False
                self.changed.wait(min(0.1, max(0.0, deadline - time.monotonic())))

    def command(self, text):
        """Sends one command and returns its answer's fields, or None if the game died first."""
        name = text.split()[0]
        start = self.world.model.answers_count(name)
        try:
            self.process.stdin.write(text + "\n")
            self.process.stdin.flush()
        except (BrokenPipeError, OSError):
            pass
        if not self.wait(lambda: self.world.model.answers_count(name) > start):
            return None
        return self.world.model.answers[name][start]

    def kill(self):
        self.process.send_signal(signal.SIGKILL)
        self.finish_reading()

    def finish_reading(self):
        self.process.wait()
        self.wait(lambda: False)  # returns once the reader has seen the end and every line was handed over
        self.process.stdout.close()
        self.process.stderr.close()
        try:
            self.process.stdin.close()
        except OSError:
            pass


class Model:
    """What the game must have been told, judged from what it was told and the store's database."""

    def __init__(self, ledger):
        self.ledger = ledger
        self.consumed = 0
        self.answers = {}
        self.told_owned = set()        # transactions told as PURCHASED, GRANTED or RESTORED
        self.finished = set()          # finish returned OK, or GRANTED
        self.revoked_returned = {}     # transaction -> returns of REVOKED handlers (not refused)
        # Refund returns that may be told once more: one per launch that ended, after the return, by a kill or by
        # a close racing the delivery thread (the header: "again at launch if ... the process died before that,
        # or just after"; a refund handled as the store closes is told once more).
        self.extra_returns = {}
        self.returned_this_launch = set()
        self.final_events = {}         # (launch, request) -> count
        self.launch = 0
        self.last_event = None
        self.purchase_told = {}        # transaction -> count, this launch, request 0
        self.told_this_launch = set()
        self.finish_sent = set()       # finishes asked for, answered or not (the game may die in between)
        self.failed = {}               # transaction -> product, a verifier failed it and none passed it since
        self.told_revoked = set()      # transactions told as REVOKED
        self.declined = {}             # product -> waiting purchases of it the harness declined, not yet told
        self.restored_products = set()  # products told as RESTORED this launch
        self.lost_coins = set()        # coin purchases granted in a journal a reinstall deleted

    def failed_products(self):
        """Products with a transaction a verifier failed and none passed since (told of it): such a product may
        read as not owned (a failed verdict stays until a verifier passes that copy)."""
        return set(self.failed.values())

    def answers_count(self, name):
        return len(self.answers.get(name, []))

    def new_launch(self):
        self.launch += 1
        self.consumed = 0
        self.answers = {}
        self.returned_this_launch = set()
        self.told_this_launch = set()
        self.restored_products = set()

    # What a device's journal holds, and so what the model knows of that device's game: kept apart per device.
    DEVICE_FIELDS = ("told_owned", "finished", "revoked_returned", "extra_returns", "failed", "lost_coins")

    def device_state(self):
        return {name: getattr(self, name) for name in self.DEVICE_FIELDS}

    def other_device(self, saved, finished_coins, finished_since):
        """The game moves to another device: its journal's record (`saved`, what `device_state` returned when the
        game last left it), or none (a new device: as a reinstall). A transaction made since the game left it that
        the store holds finished (`finished_since`) was finished on another device, and is never told here (StoreKit
        tells unfinished transactions only); a coin purchase among them was granted there. One this device's journal
        holds unfinished is told here again (its game never finished it), though the other device finished it."""
        if saved is None:
            for name in self.DEVICE_FIELDS:
                setattr(self, name, type(getattr(self, name))())
            self.reinstalled(finished_coins)
            return
        for name, value in saved.items():
            setattr(self, name, value)
        self.lost_coins |= finished_coins & finished_since
        self.finished |= finished_since

    def reinstalled(self, finished_coins):
        """The app deleted and installed again: its journal, and with it what the game was told and granted, are
        gone. The store keeps what was finished: a coin purchase it holds finished (`finished_coins`, whose grant
        went with the journal's ledger, checked against the store before the reinstall) is never told again. Anything else may be: an owned product is granted
        anew in the new journal, and a finish the journal still owed the store (a kill came first) went with it,
        so StoreKit tells that transaction again, as any unfinished one."""
        self.finished = set(finished_coins)
        self.told_owned = set()
        self.revoked_returned = {}
        self.extra_returns = {}
        self.lost_coins |= finished_coins

    def killed(self):
        for transaction in self.returned_this_launch:
            self.extra_returns[transaction] = self.extra_returns.get(transaction, 0) + 1

    def take(self, fields):
        if fields[0] == "ok":
            self.answers.setdefault(fields[1], []).append(fields[2:])
        elif fields[0] == "ev":
            kind, request, transaction, status = int(fields[1]), int(fields[2]), int(fields[3]), int(fields[5])
            if kind == VERIFICATION_FAILED and status != VERIFY_RETRYABLE:
                self.failed[transaction] = fields[4]
            if kind == REVOKED:
                self.told_revoked.add(transaction)
            if kind == DECLINED:
                # Only a decline declines: an approval or a resolution (of something owned too) never does.
                product = fields[4]
                if not self.declined.get(product):
                    raise Divergence(f"DECLINED for {product}, whose waiting purchase no one declined")
                self.declined[product] -= 1
            self.last_event = (kind, transaction)
            if kind == RESTORED:
                self.restored_products.add(fields[4])
            if kind in (PURCHASED, GRANTED, RESTORED) and status == 0:
                if kind in (PURCHASED, GRANTED) and request == 0 and transaction in self.finished:
                    raise Divergence(f"transaction {transaction} told as {'PURCHASED' if kind == PURCHASED else 'GRANTED'} "
                                     f"after it was finished")
                if self.ledger and kind == PURCHASED:
                    raise Divergence(f"transaction {transaction} told as PURCHASED with the ledger on (not granted)")
                self.told_owned.add(transaction)
                self.told_this_launch.add(transaction)
                self.failed.pop(transaction, None)  # passed at last
                if kind == GRANTED:
                    self.finished.add(transaction)
            if request and kind in FINAL:
                key = (self.launch, request)
                self.final_events[key] = self.final_events.get(key, 0) + 1
                if self.final_events[key] > 1:
                    raise Divergence(f"request {request} ended twice (second: kind {kind})")
        elif fields[0] == "ret" and int(fields[1]) == REVOKED and fields[-1] != "refused":
            transaction = int(fields[2])
            earlier = self.revoked_returned.get(transaction, 0)
            if earlier:
                if not self.extra_returns.get(transaction):
                    raise Divergence(f"refund of {transaction} told twice to a handler that returned")
                self.extra_returns[transaction] -= 1
            self.revoked_returned[transaction] = earlier + 1
            self.returned_this_launch.add(transaction)


class World:
    def __init__(self, args, seed, trace):
        self.seed, self.trace = seed, trace
        self.game, self.catalog, self.cli = args.game, args.catalog, args.cli
        self.work = tempfile.mkdtemp(prefix="iosiap-sim-")
        self.state = os.path.join(self.work, "state")
        # The game over StoreKit (the stand-in): the store's controls act from outside only, as on a phone.
        self.storekit = args.storekit
        if self.storekit:
            os.makedirs(self.state)
        if trace.get("time_rate"):
            # The catalog's time rate (Xcode's "Subscription Renewal Rate"): periods renew, fail to renew into
            # billing retry and grace, and end by their dates while the game runs or is closed.
            with open(self.catalog) as file:
                catalog = json.load(file)
            catalog.setdefault("settings", {})["_timeRate"] = trace["time_rate"]
            self.catalog = os.path.join(self.work, "timed.storekit")
            with open(self.catalog, "w") as file:
                json.dump(catalog, file, indent=2)
        self.verifier = Verifier()
        self.ledger = trace["ledger"]
        self.verifying = trace["verifying"]
        self.model = Model(self.ledger)
        self.running = None
        self.transcript = []  # steps and the game's lines, printed with --verbose
        self.modes = {}  # the store's switches the steps turned on or off
        self.device = "A"  # over StoreKit, the device the game runs on; the other's journal is kept in `devices`
        self.devices = {}  # device -> (Model.device_state() as the game left it, the store's transactions then)
        self.purchases_wait = False  # Ask to Buy or interrupted purchases on
        self.time_stopped = False  # a fast time rate set back to real time for the last launches

    def close(self):
        if self.running:  # after a divergence too: the game goes, what it still prints is not judged
            self.running.process.kill()
            self.running.process.wait()
        self.verifier.stop()
        shutil.rmtree(self.work, ignore_errors=True)

    # --- the App Store's truth -----------------------------------------------------------------------------
    def store_rows(self, family=False, finished=False):
        """The store's transactions: id, product, quantity, end, refund date, upgraded, original id, grace period's
        end (only family-shared ones if `family`, only those the store holds finished if `finished`)."""
        path = os.path.join(self.state, "localstore.sqlite")
        if not os.path.exists(path):
            return []
        with sqlite3.connect(path, timeout=10) as store:
            shared = " WHERE ownership_type = 'FAMILY_SHARED'" if family else " WHERE finished = 1" if finished else ""
            return store.execute("SELECT id, product_id, quantity, expiration_date, revocation_date, upgraded, original_id, "
                                 f"grace_expires FROM transactions{shared} ORDER BY id").fetchall()

    def club(self, rows=None):
        """The club group's active subscription as (product, end in ms), or (None, 0), from the store's
        transactions `rows` (read now if not given). A subscription is a chain of transactions sharing an original
        id; it is active when its newest transaction is not refunded and not replaced by an upgrade, and its end,
        or the grace period's end of a renewal that failed to charge, is still ahead. The store itself diverges
        from the App Store if two are active in one group (a purchase of another level replaces or follows the
        active one)."""
        rows = [r for r in (self.store_rows() if rows is None else rows) if r[1] in LEVELS]
        newest = {}
        for row in rows:  # in id order: the last of a chain is its newest
            newest[row[6]] = row
        active = [r for r in newest.values()
                  if r[4] is None and r[5] == 0 and max(r[3] or 0, r[7] or 0) > time.time()]
        if len(active) > 1:
            raise Divergence(f"the store has two active subscriptions in the club group: {active}")
        return (active[0][1], round(active[0][3] * 1000)) if active else (None, 0)

    def club_product(self):
        return self.club()[0]

    def cli_run(self, *arguments):
        result = subprocess.run([self.cli, "--state", self.state, "--catalog", self.catalog, *arguments],
                                capture_output=True, text=True, timeout=60)
        return result

    # --- launches ---------------------------------------------------------------------------------------------
    def open(self, mode):
        self.model.new_launch()
        self.running = Game(self, mode)
        if not self.running.wait(lambda: self.model.answers_count("open") > 0):
            raise Divergence("the game did not open: " + self.running.process.stderr.read())
        if self.model.answers["open"][0][0] != "0":
            raise Divergence(f"open failed ({self.model.answers['open'][0][0]})")
        answer = self.running.command("products")
        if answer and answer[0] == "0":
            request = int(answer[1])
            if not self.running.wait(lambda: (self.model.launch, request) in self.model.final_events):
                self.check_alive(f"products request {request} never ended")
        # After every launch whose checks can pass, the game's entitlements come to equal the store's.
        if self.verifier.mode == "pass":
            self.compare(lambda: self.expected_entitlements(self.store_rows()), lenient=self.model.failed_products())

    def check_alive(self, what):
        """After a wait that failed: a game still running never did what it had to; one that ended must have been
        armed to die."""
        if not self.running.ended:
            raise Divergence(what)
        self.check_death(what)

    def check_death(self, when):
        if self.running.ended and not self.running.armed_to_die:
            raise Divergence(f"launch {self.model.launch}: the game ended by itself ({when}), never armed to die")

    def kill(self):
        if self.running:
            self.check_death("before the harness killed it")
            self.running.kill()
            self.model.killed()
            self.running = None

    def close_game(self):
        if self.running:
            closed = self.running.command("close") is not None
            if not closed:
                self.check_death("asked to close")
            self.running.finish_reading()
            # Died (inside a callback) before it could close, or closed while the delivery thread may have been
            # handing out a refund (the note that it was handled is then dropped).
            if not closed or self.running.mode == "thread":
                self.model.killed()
            self.running = None

    def request(self, text):
        """Sends a request and waits for its final event (any order of other events beside it)."""
        answer = self.running.command(text)
        if answer is None:
            self.check_death(f"asked to {text}")
            return
        if answer[0] != "0":
            return
        request = int(answer[1])
        if not self.running.wait(lambda: (self.model.launch, request) in self.model.final_events):
            self.check_alive(f"request {request} ({text}) never ended")

    # --- steps ----------------------------------------------------------------------------------------------
    def step(self, step):
        name, pick = step[0], step[1]
        self.transcript.append(f"step {step}")
        running = self.running is not None and not self.running.ended
        if self.running is not None and self.running.ended:
            # It died by itself (die-in): count it as a kill.
            self.check_death("between steps")
            self.running.finish_reading()
            self.model.killed()
            self.running = None
            running = False
        if name in NEEDS_GAME and not running:
            # Steps of a running game reopen it: closed spells come from close and kill.
            self.open("thread" if (pick >> 3) % 2 else "poll")
            running = True
        if name == "open":
            if not running:
                self.open(pick)
        elif name == "close":
            if running:
                self.close_game()
        elif name == "kill":
            if running:
                time.sleep(pick / 1000.0)
                self.kill()
        elif name == "verifier":
            self.verifier.mode = pick
        elif name == "buy" and running:
            product = PRODUCTS[pick % len(PRODUCTS)]
            # The active level again is answered with the transaction that grants it; only while purchases wait
            # (Ask to Buy, interrupted), where that answer comes as the waiting purchase ends. Another level is
            # an upgrade (gold now, silver ends) or a downgrade (silver from the next renewal, gold answers).
            if product == self.club_product() and not self.purchases_wait:
                return
            self.request(f"buy {product} {1 + pick % 3 if product == COINS else 1}")
        elif name == "buy-then-kill" and running:
            product = PRODUCTS[pick % 2]
            try:
                self.running.process.stdin.write(f"buy {product} 1\n")
                self.running.process.stdin.flush()
            except (BrokenPipeError, OSError):
                pass  # it died by itself (die-in) a moment ago: the kill below finds it ended
            time.sleep((pick % 300) / 1000.0)
            self.kill()
        elif name == "finish" and running and not self.ledger:
            candidates = sorted(self.model.told_this_launch - self.model.finished)
            if candidates:
                transaction = candidates[pick % len(candidates)]
                self.model.finish_sent.add(transaction)
                answer = self.running.command(f"finish {transaction}")
                if answer is not None:
                    if answer[0] != "0":
                        raise Divergence(f"finish of {transaction}, told as purchased, answered {answer[0]}")
                    self.model.finished.add(transaction)
        elif name == "restore" and running:
            self.request("restore")
        elif name == "refund":
            rows = [r for r in self.store_rows() if r[4] is None]
            if rows:
                transaction = rows[pick % len(rows)][0]
                if running and pick % 2 and not self.storekit:
                    self.running.command(f"refund {transaction}")
                else:
                    self.cli_run("refund", str(transaction))
        elif name in ("expire", "renew"):
            product = self.club_product()
            # Over StoreKit, no control that ends a paid period before its date (an expiry, or a renewal whose
            # payment fails): the App Store never does, and StoreKit reports no expiry ("Transaction.updates":
            # created or updated transactions), so a game learns an end from the date its transaction states.
            if self.storekit and (name == "expire" or self.modes.get("billing-issues", False)):
                return
            if product:
                if running and pick % 2 and not self.storekit:
                    self.running.command(f"{name} {product}")
                else:
                    self.cli_run(name, product)
        elif name == "extend":
            # From outside only (the Server API's control): the store refuses a free trial, an ended subscription
            # and a third extension within a year, and then nothing changes.
            club = [r for r in self.store_rows() if r[1] in LEVELS and r[5] == 0]
            if club:
                self.cli_run("extend", str(club[-1][6]), str(1 + pick % 90))
        elif name == "outside-buy":
            self.cli_run("buy", [COINS, PRO, SEASON, GOLD, SILVER][pick % 5])
        elif name == "family-buy":
            self.cli_run("buy", "--family", PRO)
        elif name == "stop-family":
            shared = [r[0] for r in self.store_rows(family=True) if r[4] is None]
            if shared:
                self.cli_run("stop-family-sharing", str(shared[pick % len(shared)]))
        elif name in ("ask-to-buy", "interrupted", "billing-issues", "grace-period"):
            on = bool(pick % 2)
            self.cli_run(name, "on" if on else "off")
            self.modes[name] = on
            self.purchases_wait = self.modes.get("ask-to-buy", False) or self.modes.get("interrupted", False)
        elif name in ("approve", "decline", "resolve"):
            # `pending` lists: id, waits for (approval or resolution), product, quantity, asked.
            listed = self.cli_run("pending")
            waits_for = "resolution" if name == "resolve" else "approval"
            rows = [line.split() for line in listed.stdout.splitlines()]
            rows = [row for row in rows if len(row) >= 3 and row[0].isdigit() and row[1] == waits_for]
            if rows:
                row = rows[pick % len(rows)]
                product = row[2]
                # A decline is counted before the game can hear of it, taken back if the store refused it.
                if name == "decline":
                    self.model.declined[product] = self.model.declined.get(product, 0) + 1
                if self.cli_run(name, row[0]).returncode != 0 and name == "decline":
                    self.model.declined[product] -= 1
        elif name == "refuse-revoked" and running:
            self.running.command("refuse-revoked 1")
        elif name == "die-in" and running:
            self.running.armed_to_die = True
            self.running.command(f"die-in {[PURCHASED, GRANTED, REVOKED, RESTORED][pick % 4]}")
        elif name == "reinstall":
            # Over StoreKit: the app deleted and installed again (or a new phone): an empty journal, the store as
            # it was. The game is entitled at launch to what StoreKit's current entitlements hold.
            self.agree_before_leaving(running)
            finished_coins = {r[0] for r in self.store_rows(finished=True) if r[1] == COINS}
            device = os.path.join(self.state, "device")
            shutil.rmtree(device)
            self.model.reinstalled(finished_coins)
        elif name == "switch-device":
            # Over StoreKit: the user picks up another device (the first one, or a second), signed in to the same
            # App Store: its own journal, the store as it is. As for a reinstall, the device left must first agree
            # with the store; its journal is kept, and comes back when the game returns to it.
            target = "AB"[pick % 2]
            if target == self.device:
                return
            self.agree_before_leaving(running)
            transactions = {r[0] for r in self.store_rows()}
            self.devices[self.device] = (self.model.device_state(), transactions)
            os.rename(os.path.join(self.state, "device"), os.path.join(self.state, "device-" + self.device))
            saved, transactions_then = self.devices.pop(target, (None, set()))
            if saved is not None:
                os.rename(os.path.join(self.state, "device-" + target), os.path.join(self.state, "device"))
            finished = self.store_rows(finished=True)
            finished_coins = {r[0] for r in finished if r[1] == COINS}
            self.model.other_device(saved, finished_coins, {r[0] for r in finished} & (transactions - transactions_then))
            self.device = target
        elif name == "sync-cancel" and running:
            # The user dismisses the sign-in of every restore's AppStore.sync() in this launch (or no longer).
            self.running.command(f"sync-cancelled {pick % 2}")
        elif name == "settle" and running:
            # With a time rate, long enough for a period or two to renew or end while the game runs.
            self.running.wait(lambda: False, timeout=pick / (100.0 if self.trace.get("time_rate") else 1000.0))

    def agree_before_leaving(self, running):
        """Before the game leaves a journal (a reinstall deletes it, another device sets it aside), that install must
        agree with the store (with the ledger, its balance too): a grant lost or doubled there would otherwise go
        unseen. The launch that checks runs with a verifier that passes, as the last launch does; the verifier's mode
        is set back after."""
        mode, self.verifier.mode = self.verifier.mode, "pass"
        if running:
            self.close_game()
        self.open("poll")  # compares, as every launch whose verifier passes
        self.close_game()
        self.verifier.mode = mode

    def compare(self, expected, lenient):
        """Waits for the state the store implies (the ledger grants, and verification passes, on the library's
        thread); raises what differs if it never comes. `expected`: what to read, or a function giving it from the
        store's rows read again each round (the game's own store moves the store on: a billing retry that renews).
        `lenient`: products that may read as not owned. An end (`ends`, in ms) may differ by a millisecond's
        rounding."""
        expect = expected if callable(expected) else (lambda: expected)
        readings = {PRO: {f"entitled {PRO}", "has pro"}, GOLD: {f"entitled {GOLD}", "has gold", f"ends {GOLD}"},
                    SILVER: {f"entitled {SILVER}", "has silver", f"ends {SILVER}"},
                    SEASON: {f"entitled {SEASON}", "has season"}}

        def allowed(command, game, store):
            return bool(store) and game is not None and not game and any(command in readings.get(p, ()) for p in lenient)

        def same(command, game, store):
            return game is not None and abs(game - store) <= 1 if command.startswith("ends ") else game == store
        deadline = time.monotonic() + WAIT
        while True:
            if self.running.ended:
                self.check_death("while its entitlements were read")
                return  # it died inside a callback it was armed for: what it owns is checked at a later launch
            expected = expect()
            seen = {}
            for command in expected:
                answer = self.running.command(command)
                seen[command] = None if answer is None or answer[0] != "0" else (
                    int(answer[1]) if command == "balance" or command.startswith("ends ") else answer[1] == "1")
            differs = {c: (seen[c], expected[c]) for c in expected if not same(c, seen[c], expected[c])}
            if all(allowed(c, game, store) for c, (game, store) in differs.items()):
                return
            if time.monotonic() > deadline:
                raise Divergence(f"launch {self.model.launch}: (game, store) differ: {differs}")
            self.running.wait(lambda: False, timeout=0.05)

    def expected_entitlements(self, rows):
        """What the game must read once it has caught up with the store's transactions `rows`."""
        owns_pro = any(r[1] == PRO and r[4] is None for r in rows)
        owns_season = any(r[1] == SEASON and r[4] is None for r in rows)
        club, club_end = self.club(rows)
        expected = {f"entitled {PRO}": owns_pro, f"entitled {SEASON}": owns_season}
        for level in LEVELS:
            expected |= {f"entitled {level}": club == level, f"ends {level}": club_end if club == level else 0}
        if self.ledger:
            expected |= {"has pro": owns_pro, "has gold": club == GOLD, "has silver": club == SILVER, "has season": owns_season,
                         "balance": 100 * sum(r[2] for r in rows
                                              if r[1] == COINS and r[4] is None and r[0] not in self.model.lost_coins)}
        return expected

    def last_launch(self):
        """A clean launch that must tell what is owed, then entitlements checked against the store."""
        if self.running:
            self.close_game()
        if self.trace.get("time_rate") and not self.time_stopped:
            # Its checks read the store after the restore: periods must stand still by then (a two-second period
            # ending in between would race). Real time from here, once the fast periods under way have passed.
            stopped = self.cli_run("time-rate", "0")
            if stopped.returncode != 0:
                raise Divergence(f"iosiap-store time-rate 0 failed: {stopped.stderr.strip()}")
            # TimeRate's periods: two seconds at 1005, ten at 1004 (traces made before every seed used 1005).
            time.sleep({1005: 2}.get(self.trace["time_rate"], 10) + 0.5)
            self.time_stopped = True
        self.verifier.mode = "pass"
        self.open("poll")
        rows = self.store_rows()
        refunded = {r[0] for r in rows if r[4] is not None}
        if self.model.told_revoked - refunded:
            raise Divergence(f"told REVOKED for transactions the store never refunded: {sorted(self.model.told_revoked - refunded)}")
        # With the ledger, the balance and entitlements below say whether each purchase was granted once.
        owed_purchase = set() if self.ledger else {r[0] for r in rows if r[4] is None} - self.model.finish_sent
        owed_refund = {t for t in refunded & self.model.told_owned if not self.model.revoked_returned.get(t)}
        done = self.running.wait(lambda: owed_purchase <= self.model.told_this_launch
                                 and all(self.model.revoked_returned.get(t) for t in owed_refund))
        if not done:
            missing = sorted(owed_purchase - self.model.told_this_launch)
            untold = sorted(t for t in owed_refund if not self.model.revoked_returned.get(t))
            raise Divergence(f"last launch: unfinished purchases not told again {missing}, refunds never told {untold}")
        if not self.ledger:
            for transaction in sorted(owed_purchase):
                self.model.finish_sent.add(transaction)
                answer = self.running.command(f"finish {transaction}")
                if answer is None or answer[0] != "0":
                    raise Divergence(f"last launch: finish of {transaction} answered {answer}")
                self.model.finished.add(transaction)
        # A verdict a verifier failed stays until a verifier passes that copy (JournalRecord's invariant 4): such a
        # product may read as not owned until a restore checks it again. Then everything must agree.
        self.compare(lambda: self.expected_entitlements(self.store_rows()), lenient=self.model.failed_products())
        if self.storekit and self.seed % 2:
            # Over StoreKit, half the seeds end with a restore whose sign-in the user dismisses: it must still give
            # every product the store says is owned.
            self.running.command("sync-cancelled 1")
        self.request("restore")
        # A restore gives what the entitlements give: a subscription in its grace period too. It first moves the
        # store's time on (a downgrade due renews into the other level), under the lock it reads what is owned
        # with: the rows read after it are what it saw.
        after = self.expected_entitlements(self.store_rows())
        owned = {product for product in (PRO, GOLD, SILVER, SEASON) if after[f"entitled {product}"]}
        if owned - self.model.restored_products:
            raise Divergence(f"last launch: the restore left out {sorted(owned - self.model.restored_products)}, which the store "
                             f"says are owned")
        if self.model.restored_products - owned:
            raise Divergence(f"last launch: the restore gave {sorted(self.model.restored_products - owned)}, which the store "
                             f"says are not owned")
        # The restore moves the store's time on too (a billing retry that now renews): read again.
        self.compare(lambda: self.expected_entitlements(self.store_rows()), lenient=set())
        self.close_game()
        # Level changes the store made: upgrades (a transaction replaced) and downgrades (a chain whose renewal
        # changed product).
        upgrades = sum(1 for r in rows if r[5])
        chains = {}
        for row in rows:
            if row[1] in LEVELS:
                chains.setdefault(row[6], set()).add(row[1])
        self.level_changes = upgrades + sum(1 for products in chains.values() if len(products) > 1)
        return len(rows)


NEEDS_GAME = {"buy", "buy-then-kill", "finish", "restore", "refuse-revoked", "die-in", "settle"}
STEPS = [("open", 14), ("close", 6), ("kill", 6), ("verifier", 5), ("buy", 22), ("buy-then-kill", 3),
         ("finish", 14), ("restore", 4), ("refund", 8), ("expire", 3), ("renew", 3), ("extend", 3), ("outside-buy", 3), ("family-buy", 2), ("stop-family", 2),
         ("ask-to-buy", 3), ("approve", 3), ("decline", 2), ("interrupted", 2), ("resolve", 3), ("billing-issues", 2), ("grace-period", 2),
         ("refuse-revoked", 3), ("die-in", 3), ("settle", 6)]


# Steps over StoreKit only (the local store's traces stay as they were for each seed).
STOREKIT_STEPS = [("reinstall", 2), ("sync-cancel", 2), ("switch-device", 2)]


def make_trace(seed, length, storekit=False):
    rng = random.Random(seed)
    names = [name for name, weight in STEPS + (STOREKIT_STEPS if storekit else []) for _ in range(weight)]
    steps = [["open", rng.choice(["poll", "thread"])]]
    for _ in range(length):
        name = rng.choice(names)
        if name == "open":
            pick = rng.choice(["poll", "thread"])
        elif name == "verifier":
            pick = rng.choice(["pass", "pass", "fail", "retry", "hang"])
        elif name == "kill":
            pick = rng.randrange(0, 200)
        elif name == "settle":
            pick = rng.randrange(50, 400)
        else:
            pick = rng.randrange(1 << 16)
        steps.append([name, pick])
    trace = {"seed": seed, "ledger": rng.random() < 0.5, "verifying": rng.random() < 0.6, "steps": steps}
    if storekit and rng.random() < 0.5:
        # Over StoreKit no control ends a period early (see "expire"): half the seeds let time end them, each
        # period lasting two seconds (TimeRate.oneRenewalEveryTwoSeconds), drawn last so the steps stay as they were.
        trace["time_rate"] = 1005
    return trace


def run_trace(args, trace):
    """Runs a trace; returns None, or what diverged."""
    world = World(args, trace["seed"], trace)
    try:
        for step in trace["steps"]:
            world.step(step)
        world.purchases = world.last_launch()
        # Over StoreKit, each device the game left has its last launch too: what it owes its game is checked there.
        for device in sorted(world.devices):
            world.step(["switch-device", "AB".index(device)])
            world.purchases = world.last_launch()
        return None, world
    except Divergence as divergence:
        return str(divergence), world
    finally:
        world.close()


def shrink(args, trace, what, budget):
    """Removes steps while the run still diverges (any divergence): a shorter trace to read and to pin."""
    steps = trace["steps"]
    chunk = max(1, len(steps) // 2)
    while chunk >= 1 and budget > 0:
        index = 1  # the first open stays
        while index < len(steps) and budget > 0:
            candidate = dict(trace, steps=steps[:index] + steps[index + chunk:])
            budget -= 1
            diverged, _ = run_trace(args, candidate)
            if diverged:
                steps, what = candidate["steps"], diverged
            else:
                index += chunk
        chunk //= 2
    return dict(trace, steps=steps), what


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", required=True, help="the sim_game executable")
    parser.add_argument("--cli", required=True, help="the iosiap-store executable")
    parser.add_argument("--catalog", required=True)
    parser.add_argument("--seeds", type=int, default=10, help="how many seeds to run")
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=0, help="stop starting seeds after this long (0: no limit)")
    parser.add_argument("--steps", type=int, default=40, help="steps per trace")
    parser.add_argument("--storekit", action="store_true",
                        help="the game opens the store over StoreKit (sim_game built with -DSIM_STOREKIT, the stand-in)")
    parser.add_argument("--replay", help="a trace file (JSON) to run instead of seeds")
    parser.add_argument("--verbose", action="store_true", help="with --replay: print the steps and what the game printed")
    parser.add_argument("--shrink-budget", type=int, default=30)
    args = parser.parse_args()

    if args.replay:
        with open(args.replay) as file:
            trace = json.load(file)
        diverged, world = run_trace(args, trace)
        if args.verbose:
            print("\n".join(world.transcript))
        print(f"simulate: replay of seed {trace['seed']}: {diverged or 'as the model says'}")
        return 1 if diverged else 0

    started = time.monotonic()
    ran = failed = purchases = level_changes = 0
    for seed in range(args.first_seed, args.first_seed + args.seeds):
        if args.seconds and time.monotonic() - started > args.seconds:
            break
        trace = make_trace(seed, args.steps, args.storekit)
        diverged, world = run_trace(args, trace)
        ran += 1
        purchases += getattr(world, "purchases", 0)
        level_changes += getattr(world, "level_changes", 0)
        if diverged:
            failed += 1
            print(f"simulate: seed {seed} diverged: {diverged}")
            if args.verbose:
                print("\n".join(world.transcript))
            shrunk, what = shrink(args, trace, diverged, args.shrink_budget)
            print(f"simulate: seed {seed}, shrunk to {len(shrunk['steps'])} steps ({what}):")
            print(json.dumps(shrunk))
        if ran % 100 == 0:
            print(f"simulate: {ran} seeds run, {failed} diverged, {time.monotonic() - started:.0f} s")
        sys.stdout.flush()
    print(f"simulate: {ran} seeds ({args.first_seed}..{args.first_seed + ran - 1}), {purchases} transactions, "
          f"{level_changes} level changes, {failed} diverged, {time.monotonic() - started:.0f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
