/*
 * Refund requests and the manage subscriptions sheet through the C ABI with the local store: each request ends
 * in one REFUND_REQUEST_FINISHED (failed for id 0 at once, for an unknown transaction, under the simulated error;
 * cancelled when the user backs out; submitted, then a duplicate), the request waits pending until QA approves it
 * with `iosiap-store approve-refund` while the game runs, and the game receives REVOKED. The manage subscriptions
 * sheet is recorded and MANAGE_SUBSCRIPTIONS_CLOSED follows, with the status of its simulated error.
 * usage: refund_requests CATALOG STATE_DIRECTORY IOSIAP_STORE
 */
#define _POSIX_C_SOURCE 199309L /* nanosleep */
#include <iosiap/iosiap.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expect.h"
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

/* Asks for a refund of `transaction` and waits for its one event; 1 if it ended with `outcome` and `status`. */
static int refund_ends(iosiap_store *store, uint64_t transaction, int outcome, int status) {
    uint64_t request = 0;
    int game_scene = 0; /* stands for the game's UIWindowScene: the local store never dereferences it */
    if (iosiap_begin_refund_request(&request, store, transaction, &game_scene) != IOSIAP_OK || request == 0) return 0;
    return wait_for(store, IOSIAP_EVENT_REFUND_REQUEST_FINISHED) && last_request == request &&
           last_refund_transaction == transaction && last_outcome == outcome && last_status == status;
}

int main(int argc, char **argv) {
    iosiap_local_store_options open_options = IOSIAP_LOCAL_STORE_OPTIONS_INIT;
    iosiap_callbacks callbacks = IOSIAP_CALLBACKS_INIT;
    iosiap_store *store = NULL;
    uint64_t bought = 0, untouched = 7, sheet = 0, second_sheet = 0;
    int entitled = 1;
    char command[4096];

    if (argc != 4) return 2;
    open_options.catalog_path = argv[1];
    open_options.state_directory = argv[2];
    callbacks.on_event = on_event;
    if (iosiap_store_open_local(&store, &open_options, &callbacks) != IOSIAP_OK) return 1;
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
    EXPECT(refund_ends(store, 987654321, IOSIAP_REFUND_REQUEST_FAILED, IOSIAP_E_UNKNOWN_TRANSACTION));
    EXPECT(iosiap_local_set_simulated_error(store, IOSIAP_API_REFUND_REQUEST, IOSIAP_E_STORE_UNREACHABLE) == IOSIAP_OK);
    EXPECT(refund_ends(store, bought, IOSIAP_REFUND_REQUEST_FAILED, IOSIAP_E_STORE_UNREACHABLE));
    EXPECT(strstr(last_message, "Refund Request Sheet") != NULL);
    EXPECT(iosiap_local_set_simulated_error(store, IOSIAP_API_REFUND_REQUEST, IOSIAP_OK) == IOSIAP_OK);
    EXPECT(iosiap_local_set_purchase_cancelled(store, 1) == IOSIAP_OK);
    EXPECT(refund_ends(store, bought, IOSIAP_REFUND_REQUEST_CANCELLED, IOSIAP_OK));
    EXPECT(iosiap_local_set_purchase_cancelled(store, 0) == IOSIAP_OK);

    /* Sent: it waits pending, the user still owns the product; a second request is a duplicate. */
    EXPECT(refund_ends(store, bought, IOSIAP_REFUND_REQUEST_SUBMITTED, IOSIAP_OK));
    EXPECT(iosiap_is_entitled(&entitled, store, pro) == IOSIAP_OK && entitled == 1);
    EXPECT(refund_ends(store, bought, IOSIAP_REFUND_REQUEST_FAILED, IOSIAP_E_DUPLICATE_REFUND_REQUEST));
    EXPECT(strstr(last_message, "pending") != NULL);

    /* QA declines it with the transaction manager, another process, while the game runs: nothing changes. */
    snprintf(command, sizeof command, "'%s' --state '%s' refund-requests | grep -q 'pending'", argv[3], argv[2]);
    EXPECT(system(command) == 0);
    snprintf(command, sizeof command, "'%s' --state '%s' decline-refund %llu >/dev/null", argv[3], argv[2],
             (unsigned long long)bought);
    EXPECT(system(command) == 0);
    snprintf(command, sizeof command, "'%s' --state '%s' refund-requests | grep -q 'declined'", argv[3], argv[2]);
    EXPECT(system(command) == 0);
    {
        struct timespec settle = {0, 600 * 1000 * 1000}; /* longer than the store's look at other processes */
        nanosleep(&settle, NULL);
    }
    iosiap_poll(store, 0);
    EXPECT(count_kind[IOSIAP_EVENT_REVOKED] == 0);
    EXPECT(iosiap_is_entitled(&entitled, store, pro) == IOSIAP_OK && entitled == 1);

    /* Asked again, QA approves it: the running game receives REVOKED. */
    EXPECT(refund_ends(store, bought, IOSIAP_REFUND_REQUEST_SUBMITTED, IOSIAP_OK));
    snprintf(command, sizeof command, "'%s' --state '%s' approve-refund %llu >/dev/null", argv[3], argv[2],
             (unsigned long long)bought);
    EXPECT(system(command) == 0);
    EXPECT(wait_for(store, IOSIAP_EVENT_REVOKED) && last_transaction == bought);
    EXPECT(iosiap_is_entitled(&entitled, store, pro) == IOSIAP_OK && entitled == 0);
    EXPECT(refund_ends(store, bought, IOSIAP_REFUND_REQUEST_FAILED, IOSIAP_E_DUPLICATE_REFUND_REQUEST));

    /* The manage subscriptions sheet: recorded, and closed at once with its request id; its simulated error is
       told for the sheet asked for, so two sheets are told apart. */
    EXPECT(iosiap_show_manage_subscriptions(&sheet, store, NULL) == IOSIAP_OK && sheet != 0);
    EXPECT(wait_for(store, IOSIAP_EVENT_MANAGE_SUBSCRIPTIONS_CLOSED) && last_status == IOSIAP_OK && last_request == sheet);
    snprintf(command, sizeof command, "'%s' --state '%s' settings | grep -q 'manage subscriptions shown *1'", argv[3], argv[2]);
    EXPECT(system(command) == 0);
    EXPECT(iosiap_local_set_simulated_error(store, IOSIAP_API_MANAGE_SUBSCRIPTIONS, IOSIAP_E_SYSTEM) == IOSIAP_OK);
    EXPECT(iosiap_show_manage_subscriptions(&second_sheet, store, NULL) == IOSIAP_OK && second_sheet != sheet);
    EXPECT(wait_for(store, IOSIAP_EVENT_MANAGE_SUBSCRIPTIONS_CLOSED) && last_status == IOSIAP_E_SYSTEM &&
           last_request == second_sheet);
    EXPECT(iosiap_show_manage_subscriptions(NULL, store, NULL) == IOSIAP_OK);  /* the id is optional */
    EXPECT(wait_for(store, IOSIAP_EVENT_MANAGE_SUBSCRIPTIONS_CLOSED) && last_request > second_sheet);
    untouched = 7;
    EXPECT(iosiap_show_manage_subscriptions(&untouched, NULL, NULL) == IOSIAP_E_INVALID_ARGUMENT && untouched == 7);

    iosiap_store_close(store);
    printf("refund_requests: %d checks, %d failed\n", checks, failures);
    return failures == 0 ? 0 : 1;
}
