#!/usr/bin/env bash
# The transaction manager (iosiap-store): each control, its errors and exit codes, and the path QA uses
# most: changing the store while the C++ example game runs, which must hear of it within a second.
# usage: store_manager.sh IOSIAP_STORE GAME CATALOG WORK_DIRECTORY
set -euo pipefail
store_bin=$1 game=$2 catalog=$3 work=$4
state=$work/state-manager
passed=0
ok() { passed=$((passed + 1)); }
fail() { echo "FAILED: $*" >&2; exit 1; }
run() { "$store_bin" --state "$state" "$@"; }
expect_status() {  # expect_status STATUS ARGS...
    local want=$1; shift
    local got=0
    run "$@" >/dev/null 2>"$work/stderr" || got=$?
    [ "$got" -eq "$want" ] || fail "iosiap-store $* exited $got, not $want: $(cat "$work/stderr")"
    ok
}

# Before any game: the catalog must be named, once; a command given it leaves it remembered.
expect_status 2 products
fresh=$work/state-manager-fresh
"$store_bin" --state "$fresh" --catalog "$catalog" products | grep -q "com.iosiap.example.club_gold_monthly" && ok
"$store_bin" --state "$fresh" server-key list >/dev/null 2>"$work/stderr" || fail "--catalog was not remembered: $(cat "$work/stderr")"
"$store_bin" --state "$fresh" products | grep -q "com.iosiap.example.club_gold_monthly" && ok
run --catalog "$catalog" products | grep -q "com.iosiap.example.club_gold_monthly" && ok

# A game session leaves purchases; the manager then finds the catalog by itself.
"$game" "$catalog" "$state" >/dev/null
run transactions | grep -Eq "^2 +2 +com.iosiap.example.pro_upgrade +nonConsumable +1 +active" || fail "transactions table"
ok
run --json transactions | python3 -c "import json,sys; rows=json.load(sys.stdin); assert rows[0]['finished']=='yes', rows" && ok

# Controls and their errors.
expect_status 0 buy com.iosiap.example.coins_100 3
# What a tester mistypes is answered with what would have been right (issue 35, item 6).
expect_status 2 buy com.iosiap.example.coins_100 -1
grep -q "QUANTITY must be 1 to 10 (StoreKit's limit), not -1" "$work/stderr" || fail "a quantity out of range: $(cat "$work/stderr")"
expect_status 2 buy com.iosiap.example.coins_100 99999999999999999999
grep -q "QUANTITY must be 1 to 10 (StoreKit's limit), not 99999999999999999999" "$work/stderr" || fail "a huge quantity: $(cat "$work/stderr")"
expect_status 2 refnd 1
grep -q "unknown command 'refnd'; did you mean 'refund'?" "$work/stderr" || fail "a mistyped command: $(cat "$work/stderr")"
[ "$(wc -l <"$work/stderr")" -le 3 ] || fail "a mistyped command printed the whole help: $(wc -l <"$work/stderr") lines"
expect_status 2 error set no-such-api
grep -q "unknown API 'no-such-api'; known: app-store-sync" "$work/stderr" || fail "an unknown API: $(cat "$work/stderr")"
expect_status 2 error set purchase no-such-error
grep -q "payment-not-allowed (-104)" "$work/stderr" || fail "an unknown error names none: $(cat "$work/stderr")"
# (Read whole before grep: with pipefail, a grep -q that stops early could fail the pipe with SIGPIPE.)
grep -q "6 oneSecondIsOneDay" <<<"$("$store_bin" help time-rate)" || fail "help time-rate lists no rates"
# Each command's summary is a whole sentence, not its help's first line cut mid-sentence.
help_text=$("$store_bin" help | tr -s ' \n' ' ')
grep -q "as the user would in the App Store: the game receives a purchase with offer type 3." <<<"$help_text" \
    || fail "help's summaries end mid-sentence"
for summary in "Sets how fast subscription time runs: a number or a name, e.g. 13 or monthlyRenewalEveryFiveMinutes." \
    "Sets the locale titles and prices are shown in (e.g. de_DE)." "Sets the storefront (ISO 3166-1 alpha-3, e.g. DEU)."; do
    grep -qF "$summary" <<<"$help_text" || fail "help's summaries end at an abbreviation: no '$summary'"
done
ok
# A mistyped state directory is refused, not created; a new one is made only with a catalog, and said so.
got=0
"$store_bin" --state "$work/no-such-state" transactions >/dev/null 2>"$work/stderr" || got=$?
[ "$got" -eq 2 ] && [ ! -e "$work/no-such-state" ] || fail "a mistyped --state: status $got, $(cat "$work/stderr")"
grep -q "does not exist; give --catalog FILE to start a new store there" "$work/stderr" || fail "$(cat "$work/stderr")"
"$store_bin" --state "$work/new-state" --catalog "$catalog" transactions >/dev/null 2>"$work/stderr"
grep -q "started a new, empty store in $work/new-state" "$work/stderr" || fail "a new store is not said: $(cat "$work/stderr")"
# A new store on a catalog that cannot be read: the catalog's error, and no directory left behind.
head -c 300 "$catalog" >"$work/cut.storekit"
got=0
"$store_bin" --state "$work/new-state-cut" --catalog "$work/cut.storekit" transactions >/dev/null 2>"$work/stderr" || got=$?
[ "$got" -ne 0 ] && [ ! -e "$work/new-state-cut" ] || fail "a new store on a cut catalog: status $got, $(cat "$work/stderr")"
grep -q "cut.storekit: line" "$work/stderr" && ! grep -q "started a new" "$work/stderr" || fail "$(cat "$work/stderr")"
ok
expect_status 1 buy com.iosiap.example.nope
expect_status 2 buy com.iosiap.example.coins_100 lots
expect_status 2 buy com.iosiap.example.coins_100 ""
grep -q "QUANTITY is empty" "$work/stderr" || fail "an empty quantity: $(cat "$work/stderr")"
# With --json a failure is JSON as well: its message and exit status.
got=0
"$store_bin" --state "$state" --json buy com.iosiap.example.nope >/dev/null 2>"$work/stderr" || got=$?
python3 -c 'import json, sys; failure = json.load(open(sys.argv[1])); sys.exit(0 if failure["status"] == 1 and "nope" in failure["error"] else 1)' \
    "$work/stderr" || fail "a failure under --json is not JSON: $(cat "$work/stderr")"
expect_status 1 intent com.iosiap.example.club_gold_monthly no_such_offer
grep -q "no win-back offer 'no_such_offer'" "$work/stderr" || fail "an unknown offer's error: $(cat "$work/stderr")"
expect_status 1 intent com.iosiap.example.club_gold_monthly club_gold_winback  # a promotional offer
expect_status 0 ask-to-buy on
expect_status 2 ask-to-buy maybe
expect_status 0 interrupted on
expect_status 0 interrupted off
expect_status 1 resolve 12345
expect_status 0 billing-issues on
expect_status 0 grace-period on
run settings | grep -Eq "billing issues +on" || fail "billing issues not shown on"
run settings | grep -Eq "grace period +on" || fail "grace period not shown on"; ok

# With a notification URL set, the commands that only read take no write lock and do not look for notifications:
# they answer at once while another process (a game buying) holds it, also with a refund not yet looked at, which
# the next control records.
quiet=$work/state-quiet
"$store_bin" --state "$quiet" --catalog "$catalog" notifications url http://127.0.0.1:1/n >/dev/null
"$store_bin" --state "$quiet" --catalog "$catalog" buy com.iosiap.example.coins_100 >/dev/null
python3 - "$store_bin" "$quiet" "$catalog" <<'PY' || fail "a command that only reads waited for the write lock"
import sqlite3, subprocess, sys, time
store, state, catalog = sys.argv[1], sys.argv[2], sys.argv[3]
db = sqlite3.connect(state + "/localstore.sqlite", isolation_level=None)
db.execute("UPDATE transactions SET revocation_date = 1800000000, revocation_reason = 0 WHERE id = 1")
db.execute("BEGIN IMMEDIATE")
for command in (["transactions"], ["settings"], ["products"], ["pending"], ["messages"], ["notifications"], ["help"]):
    started = time.time()
    subprocess.run([store, "--state", state, "--catalog", catalog] + command, check=True, stdout=subprocess.DEVNULL)
    assert time.time() - started < 2, (command, time.time() - started)
db.execute("COMMIT")
assert db.execute("SELECT type FROM notifications").fetchall() == [("ONE_TIME_CHARGE",)]
subprocess.run([store, "--state", state, "--catalog", catalog, "ask-to-buy", "off"], check=True, stdout=subprocess.DEVNULL)
assert db.execute("SELECT type FROM notifications ORDER BY id").fetchall() == [("ONE_TIME_CHARGE",), ("REFUND",)]
PY
ok
expect_status 0 billing-issues off
expect_status 0 grace-period off
expect_status 1 resolve-billing com.iosiap.example.club_gold_monthly   # not in billing retry
expect_status 2 billing-issues sometimes
run --json sign-offer com.iosiap.example.club_gold_monthly club_gold_winback 5f0e8d3a-1c2b-4d5e-8f90-a1b2c3d4e5f6 |
    python3 -c "import json,sys; o=json.load(sys.stdin)[0]; assert o['keyId']=='6C3F0A92' and len(o['nonce'])==36 and o['signature'], o" && ok
expect_status 1 sign-offer com.iosiap.example.club_gold_monthly no_such_offer
expect_status 1 sign-offer com.iosiap.example.coins_100 club_gold_winback
expect_status 1 redeem-code com.iosiap.example.club_gold_monthly no_such_code   # the example's gold has no codes
expect_status 1 redeem-code com.iosiap.example.coins_100 any_code
expect_status 2 redeem-code com.iosiap.example.club_gold_monthly
run help redeem-code | grep -q "offer type 3" && ok
expect_status 2 sign-offer com.iosiap.example.club_gold_monthly club_gold_winback not-a-uuid
expect_status 2 sign-offer com.iosiap.example.club_gold_monthly
# The JWS forms print the compact JWS alone: ES256 with the catalog's key id, the claims Apple's library signs.
jws_claims() { python3 -c "import base64,json,sys; h,p,s=sys.stdin.read().strip().split('.'); d=lambda t: json.loads(base64.urlsafe_b64decode(t+'='*(-len(t)%4)));
assert d(h)=={'alg':'ES256','kid':'6C3F0A92','typ':'JWT'}, d(h); print(json.dumps(d(p), sort_keys=True))"; }
run sign-offer --jws com.iosiap.example.club_gold_monthly club_gold_winback 42 | jws_claims |
    python3 -c "import json,sys; c=json.load(sys.stdin); assert c['aud']=='promotional-offer' and c['offerIdentifier']=='club_gold_winback' and c['transactionId']=='42', c" && ok
run sign-intro-eligibility com.iosiap.example.club_gold_monthly deny 42 | jws_claims |
    python3 -c "import json,sys; c=json.load(sys.stdin); assert c['aud']=='introductory-offer-eligibility' and c['allowIntroductoryOffer'] is False, c" && ok
run --json sign-intro-eligibility com.iosiap.example.club_gold_monthly allow 42 | python3 -c "import json,sys; assert json.load(sys.stdin)['jws'].count('.')==2" && ok
expect_status 1 sign-offer --jws com.iosiap.example.club_gold_monthly no_such_offer
expect_status 2 sign-offer --jws com.iosiap.example.club_gold_monthly
expect_status 2 sign-intro-eligibility com.iosiap.example.club_gold_monthly maybe 42
expect_status 2 sign-intro-eligibility com.iosiap.example.club_gold_monthly allow
expect_status 1 sign-intro-eligibility com.iosiap.example.coins_100 allow 42
expect_status 0 dialog cancel
expect_status 0 dialog confirm
expect_status 0 error set purchase payment-not-allowed
run settings | grep -q "error: Purchase  paymentNotAllowed" && ok
expect_status 0 error clear purchase
expect_status 2 error set teleport -104
expect_status 2 error set purchase not-an-error
expect_status 0 time-rate monthlyRenewalEveryFiveMinutes
expect_status 0 time-rate 0
expect_status 2 time-rate 7
expect_status 0 storefront DEU
expect_status 1 storefront XYZ
expect_status 0 message price-increase com.iosiap.example.club_gold_monthly
expect_status 0 message billing-issue com.iosiap.example.club_gold_monthly
expect_status 0 message win-back com.iosiap.example.club_gold_monthly
expect_status 1 message win-back com.iosiap.example.club_gold_monthly no_such_offer   # the example's gold has none
expect_status 1 message price-increase com.iosiap.example.club_gold_monthly club_gold_winback
expect_status 1 message billing-issue com.iosiap.example.coins_100
expect_status 1 message billing-issue com.iosiap.example.nope
expect_status 2 message teleport com.iosiap.example.club_gold_monthly
expect_status 2 message price-increase
run messages | grep -Eq "^1 +price-increase +com.iosiap.example.club_gold_monthly +[0-9T:Z-]+ +waiting" || fail "messages table: $(run messages)"
ok
[ "$(run messages | grep -c waiting)" = 3 ] || fail "three messages should wait: $(run messages)"
ok
run help >"$work/help.txt"   # read whole: grep -q stops reading early, and pipefail would see the writer's SIGPIPE
grep -q "^  message KIND PRODUCT \[OFFER\]" "$work/help.txt" && grep -q "^  messages" "$work/help.txt" || fail "help lacks the message commands"
# products --json lists each subscription's offers whole, and its group; the table names them.
run --json products | python3 -c "
import json, sys
products = {p['id']: p for p in json.load(sys.stdin)}
gold = products['com.iosiap.example.club_gold_monthly']
kinds = [(o['kind'], o['id']) for o in gold['offers']]
assert ('promotional', 'club_gold_winback') in kinds, kinds
assert all(set(o) == {'kind', 'id', 'paymentMode', 'period', 'periodCount', 'price'} for o in gold['offers']), gold['offers']
assert gold['groupId'] and isinstance(gold['familyShareable'], bool), gold
assert products['com.iosiap.example.coins_100']['offers'] == []
" || fail "products --json lacks the offers"
run products | grep -q "promotional club_gold_winback" || fail "the products table lacks the offers"
ok
# Every command's arguments whole, its description wrapped between words: no line past 100 columns.
grep -q "^  approve-refund TRANSACTION_ID \[issue|other\]$" "$work/help.txt" || fail "help cuts approve-refund's arguments"
awk 'length > 100 { exit 1 }' "$work/help.txt" || fail "help has a line longer than 100 columns"
ok
ok
expect_status 0 locale de_DE
run products | grep -q "0,99" && ok
expect_status 0 buy com.iosiap.example.club_gold_monthly
expect_status 0 renew com.iosiap.example.club_gold_monthly
expect_status 0 auto-renew com.iosiap.example.club_gold_monthly off
expect_status 1 auto-renew com.iosiap.example.coins_100 off
expect_status 0 expire com.iosiap.example.club_gold_monthly
expect_status 1 expire com.iosiap.example.club_gold_monthly
expect_status 0 refund 2 issue
expect_status 1 refund 2
expect_status 1 refund 999
expect_status 2 refund two
# Family Sharing: a family member shares the (now refunded) pro upgrade, then stops sharing it.
expect_status 1 buy --family com.iosiap.example.coins_100    # not familyShareable in the catalog
expect_status 2 buy --family com.iosiap.example.pro_upgrade 2
expect_status 2 buy --family-shared com.iosiap.example.pro_upgrade
shared=$(run --json buy --family com.iosiap.example.pro_upgrade | python3 -c "import json,sys; print(json.load(sys.stdin)['transactionId'])")
run --json transactions | python3 -c "
import json,sys; rows={r['id']: r for r in json.load(sys.stdin)}; assert rows['$shared']['ownership']=='FAMILY_SHARED', rows" || fail "shared transaction"
ok
expect_status 1 buy --family com.iosiap.example.pro_upgrade  # the user has it already
expect_status 1 stop-family-sharing 1                         # bought by the user: refund it instead
expect_status 0 stop-family-sharing "$shared"
expect_status 1 stop-family-sharing "$shared"
expect_status 2 stop-family-sharing
run --json transactions | python3 -c "
import json,sys; rows={r['id']: r for r in json.load(sys.stdin)}; assert rows['$shared']['state']=='refunded', rows" || fail "sharing not ended"
ok
run help buy | grep -q -- "--family" || fail "help buy lacks --family"
ok
jws=$(python3 -c "import sqlite3; print(sqlite3.connect('$state/localstore.sqlite').execute('select signed_jws from transactions where id = 1').fetchone()[0])")
run verify "$jws" | grep -q '"productId" : "com.iosiap.example.coins_100"' && ok
expect_status 1 verify "not.a.jws"
expect_status 0 delete 1
expect_status 1 delete 1
expect_status 0 refund-requests   # none yet: refund_requests.c drives them with a running game
expect_status 1 approve-refund 2   # no request pending
expect_status 1 decline-refund 2
expect_status 2 approve-refund two
expect_status 2 approve-refund 2 sometimes
expect_status 2 decline-refund
expect_status 2 refund-requests extra   # a list takes no argument: refused with its usage, not ignored
grep -q "refund-requests: unexpected 'extra'" "$work/stderr" && grep -q "usage: iosiap-store --state DIR refund-requests" "$work/stderr" ||
    fail "refund-requests extra: $(cat "$work/stderr")"
ok
expect_status 2 verify "not.a.jws" extra
expect_status 2 buy -- com.iosiap.example.coins_100   # the unknown option is named, not taken for PRODUCT
grep -q "buy: unknown option '--'" "$work/stderr" || fail "buy --: $(cat "$work/stderr")"
ok
run help >"$work/help"
grep -q "refund-requests" "$work/help" && grep -q "approve-refund" "$work/help" && grep -q "decline-refund" "$work/help" ||
    fail "help lacks the refund request commands"
ok
grep -q "^  stop-family-sharing TRANSACTION_ID" "$work/help" && grep -q "^  buy \[--family\] PRODUCT \[QUANTITY\]" "$work/help" ||
    fail "help lacks the Family Sharing commands"
ok
run settings >"$work/settings"
grep -Eq "manage subscriptions shown +0" "$work/settings" || fail "settings lack the manage subscriptions count"
ok
expect_status 0 help refund
expect_status 2 teleport
expect_status 0 reset
run settings | grep -q "storefront       USA" && ok
[ "$(run --json transactions)" = "[" ] || [ "$(run --json transactions | tr -d ' \n')" = "[]" ] || fail "reset leaves transactions"
ok

# While the game runs: a purchase and a refund made here reach it within a second.
live=$work/state-live
IOSIAP_EXAMPLE_LINGER_SECONDS=8 "$game" "$catalog" "$live" >"$work/game.out" 2>&1 &
game_pid=$!
for _ in $(seq 100); do grep -q "^lingering" "$work/game.out" && break; sleep 0.1; done
grep -q "^lingering" "$work/game.out" || fail "the game did not reach its frame loop: $(cat "$work/game.out")"
started=$(date +%s.%N)
"$store_bin" --state "$live" buy com.iosiap.example.coins_100 2 >/dev/null
"$store_bin" --state "$live" refund 2 >/dev/null
"$store_bin" --state "$live" intent com.iosiap.example.coins_100 >/dev/null
"$store_bin" --state "$live" message billing-issue com.iosiap.example.club_gold_monthly >/dev/null
"$store_bin" --state "$live" storefront JPN >/dev/null
for _ in $(seq 30); do
    grep -q "event: revoked com.iosiap.example.pro_upgrade" "$work/game.out" && grep -q "grant: +200 coins, balance 400" "$work/game.out" \
        && grep -q "grant: +100 coins, balance 500" "$work/game.out" && grep -q "event: storefront changed to JPN" "$work/game.out" \
        && grep -q "event: App Store message" "$work/game.out" && break
    sleep 0.1
done
elapsed=$(python3 -c "import time; print(round(time.time() - $started, 2))")
grep -q "event: revoked com.iosiap.example.pro_upgrade" "$work/game.out" || fail "the running game did not receive the refund: $(cat "$work/game.out")"
grep -q "grant: +200 coins, balance 400" "$work/game.out" || fail "the running game did not receive the purchase: $(cat "$work/game.out")"
grep -q "event: purchase intent com.iosiap.example.coins_100" "$work/game.out" || fail "the running game did not receive the intent"
grep -q "grant: +100 coins, balance 500" "$work/game.out" || fail "the game did not complete the App Store purchase: $(cat "$work/game.out")"
grep -q "event: App Store message 1 (reason 2), displayed: 0" "$work/game.out" || fail "the running game did not receive the message"
grep -q "event: storefront changed to JPN" "$work/game.out" || fail "the running game did not hear of the storefront change"
[ "$(grep -c "event: storefront changed" "$work/game.out")" = 1 ] || fail "the storefront change was told more than once"
"$store_bin" --state "$live" messages | grep -Eq "^1 +billing-issue .* [0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]+Z$" || fail "the display was not recorded"
python3 -c "import sys; sys.exit(0 if $elapsed < 3 else 1)" || fail "the game heard after $elapsed s"
kill "$game_pid" 2>/dev/null || true
wait "$game_pid" 2>/dev/null || true
ok
echo "store manager: $passed passed, 0 failed (the running game heard of a purchase, a refund and an App Store purchase in ${elapsed}s)"
