/*
 * Family Sharing through the C ABI on the local store: a family member's purchase of a family-shareable product
 * arrives as PURCHASED without a request, owned FAMILY_SHARED, and entitles the user; a product that is not
 * shareable is refused and nothing arrives; ending the sharing (the C control, or `iosiap-store
 * stop-family-sharing` while the game is closed) reaches the game as REVOKED, at the next launch for the latter.
 * Built with IOSIAP_STOREKIT_STANDIN against the stand-in's libiosiap (scripts/test-storekit-standin.sh), the same
 * over StoreKit (Transaction.updates, Transaction.ownershipType, a refund found in Transaction.all at the next
 * launch), where QA's changes are all made by `iosiap-store` (`buy --family`, `stop-family-sharing`).
 * usage: family_sharing CATALOG STATE_DIRECTORY IOSIAP_STORE
 */
#define _POSIX_C_SOURCE 200112L /* nanosleep, setenv */
#include <iosiap/iosiap.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expect.h"
#include "store_tool.h"
#include "wait_for.h"

#define PRO "com.iosiap.example.pro_upgrade"
static const char *pro = PRO;
static uint64_t last_request = 99, last_transaction;
static int last_revocation_reason = -2;
static char last_ownership[32], last_jws[4096];

static int last_outcome, last_status;

static void on_event(const iosiap_event *event, void *user_data) {
    (void)user_data;
    count_event(event);
    if (event->kind == IOSIAP_EVENT_REFUND_REQUEST_FINISHED) {
        last_request = event->request_id;
        last_outcome = event->refund_request_outcome;
        last_status = event->status;
    }
    if (!event->transaction) return;
    last_request = event->request_id;
    last_transaction = event->transaction->id;
    last_revocation_reason = event->transaction->revocation_reason;
    snprintf(last_ownership, sizeof last_ownership, "%s", event->transaction->ownership_type);
    snprintf(last_jws, sizeof last_jws, "%s", event->transaction->signed_jws ? event->transaction->signed_jws : "");
}

static int entitled(iosiap_store *store) {
    int owned = -1;
    EXPECT(iosiap_is_entitled(&owned, store, pro) == IOSIAP_OK);
    return owned;
}

/* A family member buys the pro upgrade and shares it, outside the game, which hears of it as PURCHASED: its
   transaction, else 0. */
static uint64_t shared_by_family(iosiap_store *store) {
    uint64_t shared = 0;
#ifdef IOSIAP_STOREKIT_STANDIN
    if (!run_quiet("buy --family " PRO) || !wait_for(store, IOSIAP_EVENT_PURCHASED)) return 0;
    shared = last_transaction;
#else
    if (iosiap_local_buy_family_shared(&shared, store, pro) != IOSIAP_OK || shared == 0) return 0;
    if (!wait_for(store, IOSIAP_EVENT_PURCHASED) || last_transaction != shared) return 0;
#endif
    return shared;
}

int main(int argc, char **argv) {
    iosiap_store *store;
    uint64_t shared = 0, again = 0, request = 0;
    char command[128];

    if (argc != 4) return 2;
    use_store_tool(argv[3], argv[2], argv[1]);
    if ((store = open_test_store(argv[1], argv[2], NULL, on_event)) == NULL) return 1;

    /* Not family-shareable: refused, nothing charged, nothing told. */
    EXPECT(QA_REFUSED(iosiap_local_buy_family_shared(&shared, store, "com.iosiap.example.coins_100"),
                      "buy --family com.iosiap.example.coins_100", IOSIAP_E_INVALID_ARGUMENT));
#ifndef IOSIAP_STOREKIT_STANDIN /* the local store's message and out-parameter; the C control's own refusal of NULL */
    EXPECT(strstr(iosiap_last_error_message(), "family") != NULL && shared == 0);
    EXPECT(iosiap_local_buy_family_shared(&shared, store, NULL) == IOSIAP_E_INVALID_ARGUMENT);
#endif
    EXPECT(iosiap_transaction_history(store, NULL, NULL) == 0);

    /* A family member shares the pro upgrade: a purchase the game did not ask for, owned FAMILY_SHARED. */
    EXPECT((shared = shared_by_family(store)) != 0);
    EXPECT(last_request == 0 && last_transaction == shared && strcmp(last_ownership, "FAMILY_SHARED") == 0);
    EXPECT(strchr(last_jws, '.') != NULL);
    EXPECT(entitled(store) == 1);
    EXPECT(iosiap_finish_transaction(store, shared) == IOSIAP_OK);
    EXPECT(QA_REFUSED(iosiap_local_buy_family_shared(NULL, store, pro), "buy --family " PRO,
                      IOSIAP_E_WRONG_STATE));  /* owned already */

    /* Only the purchaser may ask for a refund: a request on the shared transaction ends FAILED, WRONG_STATE. */
    EXPECT(iosiap_begin_refund_request(&request, store, shared, game_scene()) == IOSIAP_OK && request != 0);
    EXPECT(wait_for(store, IOSIAP_EVENT_REFUND_REQUEST_FINISHED) && last_request == request);
#ifdef IOSIAP_STOREKIT_STANDIN
    /* StoreKit names no error for it: its sheet fails (the stand-in's storeKitError: StoreKitError.unknown). */
    EXPECT(last_outcome == IOSIAP_REFUND_REQUEST_FAILED && last_status != IOSIAP_OK);
#else
    EXPECT(last_outcome == IOSIAP_REFUND_REQUEST_FAILED && last_status == IOSIAP_E_WRONG_STATE);
#endif
    EXPECT(entitled(store) == 1);

    /* The sharing ends: revoked, reason 0 as Apple sets it; only once, and never the user's own purchase. */
    snprintf(command, sizeof command, "stop-family-sharing %llu", (unsigned long long)shared);
    EXPECT(QA(iosiap_local_stop_family_sharing(store, shared), command));
    EXPECT(wait_for(store, IOSIAP_EVENT_REVOKED));
    EXPECT(last_transaction == shared && last_revocation_reason == 0 && strcmp(last_ownership, "FAMILY_SHARED") == 0);
    EXPECT(entitled(store) == 0);
    EXPECT(QA_REFUSED(iosiap_local_stop_family_sharing(store, shared), command, IOSIAP_E_WRONG_STATE));
#ifndef IOSIAP_STOREKIT_STANDIN /* the C control's own refusal of a transaction it does not know */
    EXPECT(iosiap_local_stop_family_sharing(store, 987654) == IOSIAP_E_UNKNOWN_TRANSACTION);
#endif

    /* Shared again, then the sharing ends while the game is closed: told at the next launch. */
    EXPECT((again = shared_by_family(store)) != 0 && again != shared);
    EXPECT(iosiap_finish_transaction(store, again) == IOSIAP_OK);
    iosiap_store_close(store);
    snprintf(command, sizeof command, "stop-family-sharing %llu", (unsigned long long)again);
    EXPECT(run_quiet(command));
    if ((store = open_test_store(argv[1], argv[2], NULL, on_event)) == NULL) return 1;
    EXPECT(wait_for(store, IOSIAP_EVENT_REVOKED) && last_transaction == again);
    EXPECT(entitled(store) == 0);

    iosiap_store_close(store);
    printf("family_sharing: %d checks, %d failed\n", checks, failures);
    return failures == 0 ? 0 : 1;
}
