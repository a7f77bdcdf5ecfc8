/*
 * The game of the crash campaign (scripts/crash-campaign.sh): it buys coins in a loop through the C ABI,
 * with the grant ledger granting and finishing each purchase, until it is killed with SIGKILL.
 * Mode "recover" opens the same state once more, lets redelivery run, and prints the balance.
 * Built with IOSIAP_STOREKIT_STANDIN against the stand-in's libiosiap (IOSIAP_CRASH_STOREKIT=1
 * scripts/crash-campaign.sh), it buys over StoreKit, as on an iPhone: the journal in STATE_DIRECTORY/device, the
 * App Store the local store in STATE_DIRECTORY (expect.h).
 * usage: crash_game CATALOG STATE_DIRECTORY buy SEED | crash_game CATALOG STATE_DIRECTORY recover
 */
#define _POSIX_C_SOURCE 200809L
#include <iosiap/iosiap.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "expect.h"
#include "wait_for.h"

#define COINS "com.iosiap.example.coins_100"

static int ended;

static void on_event(const iosiap_event *event, void *user_data) {
    (void)user_data;
    if (event->kind == IOSIAP_EVENT_PURCHASED) {
        /* With the ledger registered, a purchase must arrive as GRANTED: PURCHASED would mean a miss. */
        fprintf(stderr, "crash_game: ungranted purchase %" PRIu64 "\n", event->transaction->id);
        exit(3);
    }
    if (event->kind == IOSIAP_EVENT_GRANTED) {
        /* Each grant the game is told of, so that the campaign can count one told twice; with no request, a
           purchase an earlier, killed launch was charged for but never granted. */
        printf("%s %" PRIu64 "\n", event->request_id == 0 ? "recovered" : "granted", event->transaction->id);
        fflush(stdout);
    }
    if (event->request_id != 0 && event->kind != IOSIAP_EVENT_PURCHASING) ended++;
}

static void poll_until(iosiap_store *store, int count) {
    while (ended < count) {
        if (iosiap_poll(store, 0) < 0) exit(4);
        between_frames(1);
    }
}

int main(int argc, char **argv) {
    iosiap_store *store;
    const char *ids[] = {COINS};
    int64_t balance = 0;
    int round;

    if (argc < 4) return 2;
    if ((store = open_test_store(argv[1], argv[2], NULL, on_event)) == NULL) return 1;
    if (iosiap_ledger_register_currency(store, COINS, "coins", 100) != IOSIAP_OK) return 1;

    if (strcmp(argv[3], "recover") == 0) {
        for (round = 0; round < 150; round++) { /* 1.5 s: launch redelivery and the store's unfinished */
            iosiap_poll(store, 0);
            between_frames(10);
        }
        iosiap_ledger_balance(&balance, store, "coins");
        printf("balance %" PRId64 "\n", balance);
        iosiap_store_close(store);
        return 0;
    }

    srand((unsigned)(argc > 4 ? atoi(argv[4]) : 1));
    if (iosiap_request_products(NULL, store, ids, 1) != IOSIAP_OK) return 1;
    poll_until(store, 1);
    for (round = 2;; round++) {
        if (iosiap_request_payment(NULL, store, COINS, 1 + rand() % 10, NULL) != IOSIAP_OK) return 1;
        poll_until(store, round);
    }
}
