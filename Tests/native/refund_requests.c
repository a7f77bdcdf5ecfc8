/*
 * Refund requests and the manage subscriptions sheet through the C ABI with the local store: each request ends
 * in one REFUND_REQUEST_FINISHED (failed for id 0 at once, for an unknown transaction, under the simulated error;
 * cancelled when the user backs out; submitted, then a duplicate), the request waits pending until QA approves it
 * with `iosiap-store approve-refund` while the game runs, and the game receives REVOKED. The manage subscriptions
 * sheet is recorded and MANAGE_SUBSCRIPTIONS_CLOSED follows, with the status of its simulated error.
 * Built with IOSIAP_STOREKIT_STANDIN against the stand-in's libiosiap (scripts/test-storekit-standin.sh), the same
 * over StoreKit: Transaction.beginRefundRequest on the game's window scene, AppStore.showManageSubscriptions.
 * usage: refund_requests CATALOG STATE_DIRECTORY IOSIAP_STORE
 */
#define _POSIX_C_SOURCE 200112L /* nanosleep, setenv */
#include <iosiap/iosiap.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expect.h"
#include "store_tool.h"
#include "wait_for.h"

static const char *pro = "com.iosiap.example.pro_upgrade";
static uint64_t last_request, last_refund_transaction, last_transaction;
static int last_status, last_outcome;
static char last_message[512];

static void on_event(const iosiap_event *event, void *user_data) {
    (void)user_data;
    count_event(event);
    last_request = event->request_id;
    last_status = event->status;
    snprintf(last_message, sizeof last_message, "%s", event->message ? event->message : "");
    if (event->transaction) last_transaction = event->transaction->id;
    if (event->size > offsetof(iosiap_event, refund_transaction_id)) {
        last_outcome = event->refund_request_outcome;
        last_refund_transaction = event->refund_transaction_id;
    }
}

#define ANY_FAILURE 1 /* for refund_ends: a status other than IOSIAP_OK, whichever */

/* Asks for a refund of `transaction` and waits for its one event; 1 if it ended with `outcome` and `status`. */
static int refund_ends(iosiap_store *store, uint64_t transaction, int outcome, int status) {
    uint64_t request = 0;
    if (iosiap_begin_refund_request(&request, store, transaction, game_scene()) != IOSIAP_OK || request == 0) return 0;
    return wait_for(store, IOSIAP_EVENT_REFUND_REQUEST_FINISHED) && last_request == request &&
           last_refund_transaction == transaction && last_outcome == outcome &&
           (status == ANY_FAILURE ? last_status != IOSIAP_OK : last_status == status);
}

int main(int argc, char **argv) {
    iosiap_store *store;
    uint64_t bought = 0, untouched = 7, sheet = 0, second_sheet = 0;
    int entitled = 1;
    char command[4096];

    if (argc != 4) return 2;
    use_store_tool(argv[3], argv[2], argv[1]);
    if ((store = open_test_store(argv[1], argv[2], NULL, on_event)) == NULL) return 1;
    EXPECT(iosiap_request_products(NULL, store, &pro, 1) == IOSIAP_OK);
    EXPECT(wait_for(store, IOSIAP_EVENT_PRODUCTS_RECEIVED));
    EXPECT(iosiap_request_payment(NULL, store, pro, 1, NULL) == IOSIAP_OK);
    EXPECT(wait_for(store, IOSIAP_EVENT_PURCHASED));
    bought = last_transaction;
    EXPECT(iosiap_finish_transaction(store, bought) == IOSIAP_OK);

    /* Bad input is refused before anything is queued, and writes nothing. */
    EXPECT(iosiap_begin_refund_request(&untouched, store, 0, NULL) == IOSIAP_E_INVALID_ARGUMENT && untouched == 7);
    EXPECT(iosiap_begin_refund_request(NULL, NULL, bought, NULL) == IOSIAP_E_INVALID_ARGUMENT);

    /* A transaction the store never charged; the simulated error; the user backing out. */
#ifdef IOSIAP_STOREKIT_STANDIN
    /* StoreKit names no error for a transaction it does not know: its sheet fails. */
    EXPECT(refund_ends(store, 987654321, IOSIAP_REFUND_REQUEST_FAILED, ANY_FAILURE));
#else
    EXPECT(refund_ends(store, 987654321, IOSIAP_REFUND_REQUEST_FAILED, IOSIAP_E_UNKNOWN_TRANSACTION));
#endif
    EXPECT(QA(iosiap_local_set_simulated_error(store, IOSIAP_API_REFUND_REQUEST, IOSIAP_E_STORE_UNREACHABLE),
              "error set refund-request store-unreachable"));
    EXPECT(refund_ends(store, bought, IOSIAP_REFUND_REQUEST_FAILED, IOSIAP_E_STORE_UNREACHABLE));
#ifndef IOSIAP_STOREKIT_STANDIN
    EXPECT(strstr(last_message, "Refund Request Sheet") != NULL);
#endif
    EXPECT(QA(iosiap_local_set_simulated_error(store, IOSIAP_API_REFUND_REQUEST, IOSIAP_OK), "error clear refund-request"));
    EXPECT(QA(iosiap_local_set_purchase_cancelled(store, 1), "dialog cancel"));
    EXPECT(refund_ends(store, bought, IOSIAP_REFUND_REQUEST_CANCELLED, IOSIAP_OK));
    EXPECT(QA(iosiap_local_set_purchase_cancelled(store, 0), "dialog confirm"));

    /* Sent: it waits pending, the user still owns the product; a second request is a duplicate. */
    EXPECT(refund_ends(store, bought, IOSIAP_REFUND_REQUEST_SUBMITTED, IOSIAP_OK));
    EXPECT(iosiap_is_entitled(&entitled, store, pro) == IOSIAP_OK && entitled == 1);
    EXPECT(refund_ends(store, bought, IOSIAP_REFUND_REQUEST_FAILED, IOSIAP_E_DUPLICATE_REFUND_REQUEST));
#ifndef IOSIAP_STOREKIT_STANDIN
    EXPECT(strstr(last_message, "pending") != NULL);
#endif

    /* QA declines it with the transaction manager, another process, while the game runs: nothing changes. */
    EXPECT(run("refund-requests | grep -q 'pending'"));
    snprintf(command, sizeof command, "decline-refund %llu", (unsigned long long)bought);
    EXPECT(run_quiet(command));
    EXPECT(run("refund-requests | grep -q 'declined'"));
    between_frames(600); /* longer than the store's look at other processes */
    iosiap_poll(store, 0);
    EXPECT(count_kind[IOSIAP_EVENT_REVOKED] == 0);
    EXPECT(iosiap_is_entitled(&entitled, store, pro) == IOSIAP_OK && entitled == 1);

    /* Asked again, QA approves it: the running game receives REVOKED. */
    EXPECT(refund_ends(store, bought, IOSIAP_REFUND_REQUEST_SUBMITTED, IOSIAP_OK));
    snprintf(command, sizeof command, "approve-refund %llu", (unsigned long long)bought);
    EXPECT(run_quiet(command));
    EXPECT(wait_for(store, IOSIAP_EVENT_REVOKED) && last_transaction == bought);
    EXPECT(iosiap_is_entitled(&entitled, store, pro) == IOSIAP_OK && entitled == 0);
    EXPECT(refund_ends(store, bought, IOSIAP_REFUND_REQUEST_FAILED, IOSIAP_E_DUPLICATE_REFUND_REQUEST));

    /* The manage subscriptions sheet: recorded, and closed at once with its request id; its simulated error is
       told for the sheet asked for, so two sheets are told apart. */
    EXPECT(iosiap_show_manage_subscriptions(&sheet, store, game_scene()) == IOSIAP_OK && sheet != 0);
    EXPECT(wait_for(store, IOSIAP_EVENT_MANAGE_SUBSCRIPTIONS_CLOSED) && last_status == IOSIAP_OK && last_request == sheet);
    EXPECT(run("settings | grep -q 'manage subscriptions shown *1'"));
    EXPECT(QA(iosiap_local_set_simulated_error(store, IOSIAP_API_MANAGE_SUBSCRIPTIONS, IOSIAP_E_SYSTEM),
              "error set manage-subscriptions system-error"));
    EXPECT(iosiap_show_manage_subscriptions(&second_sheet, store, game_scene()) == IOSIAP_OK && second_sheet != sheet);
    EXPECT(wait_for(store, IOSIAP_EVENT_MANAGE_SUBSCRIPTIONS_CLOSED) && last_status == IOSIAP_E_SYSTEM &&
           last_request == second_sheet);
#ifdef IOSIAP_STOREKIT_STANDIN
    EXPECT(iosiap_show_manage_subscriptions(NULL, store, game_scene()) == IOSIAP_OK);  /* the id is optional */
#else
    EXPECT(iosiap_show_manage_subscriptions(NULL, store, NULL) == IOSIAP_OK);  /* the id and the context are optional */
#endif
    EXPECT(wait_for(store, IOSIAP_EVENT_MANAGE_SUBSCRIPTIONS_CLOSED) && last_request > second_sheet);
    untouched = 7;
    EXPECT(iosiap_show_manage_subscriptions(&untouched, NULL, NULL) == IOSIAP_E_INVALID_ARGUMENT && untouched == 7);

    iosiap_store_close(store);
    printf("refund_requests: %d checks, %d failed\n", checks, failures);
    return failures == 0 ? 0 : 1;
}
