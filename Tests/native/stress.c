/*
 * Eight threads issue requests while the main thread polls, for ThreadSanitizer: every accepted request
 * must end in exactly one terminal event, and every purchase is finished exactly once. Built with
 * IOSIAP_STOREKIT_STANDIN it runs over StoreKit (open_store.h), the main run loop turning between frames.
 * usage: stress CATALOG.storekit STATE_DIRECTORY [ROUNDS]
 */
#define _POSIX_C_SOURCE 200809L
#include <iosiap/iosiap.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "open_store.h"
#include "wait_for.h"

#define THREADS 8

static iosiap_store *store;
static atomic_int accepted;     /* requests the library accepted */
static atomic_int payments;     /* of them, payments */
static atomic_int refused;      /* requests refused on purpose (quantity 11) */
static atomic_int threads_done;
static int rounds = 20;

/* Touched only by the polling thread, inside callbacks. */
static int terminal_events;     /* the final events of requests */
static int purchases;           /* PURCHASED answering a payment */
static int unrequested;         /* events no request asked for (none is expected: every purchase is finished) */
static int finish_failures;

static void on_event(const iosiap_event *event, void *user_data) {
    (void)user_data;
    switch (event->kind) {
    case IOSIAP_EVENT_PURCHASING:
    case IOSIAP_EVENT_RESTORED:
        break;
    case IOSIAP_EVENT_PURCHASED:
        if (iosiap_finish_transaction(store, event->transaction->id) != IOSIAP_OK) finish_failures++;
        if (event->request_id != 0) {
            purchases++;
            terminal_events++;
        } else {
            unrequested++;
        }
        break;
    default:
        if (event->request_id != 0) terminal_events++;
        else unrequested++;
        break;
    }
}

static void *hammer(void *argument) {
    const char *ids[] = {"com.iosiap.example.coins_100", "com.iosiap.example.pro_upgrade"};
    const iosiap_product *product = NULL;
    int entitled = 0, round;
    (void)argument;
    for (round = 0; round < rounds; round++) {
        if (iosiap_request_products(NULL, store, ids, 2) == IOSIAP_OK) atomic_fetch_add(&accepted, 1);
        if (iosiap_request_payment(NULL, store, ids[0], 1 + round % 10, NULL) == IOSIAP_OK) {
            atomic_fetch_add(&accepted, 1);
            atomic_fetch_add(&payments, 1);
        }
        if (iosiap_request_payment(NULL, store, ids[0], 11, NULL) == IOSIAP_E_QUANTITY_OUT_OF_RANGE) atomic_fetch_add(&refused, 1);
        if (round % 5 == 0 && iosiap_request_restore(NULL, store) == IOSIAP_OK) atomic_fetch_add(&accepted, 1);
        iosiap_is_entitled(&entitled, store, ids[1]);
        if (iosiap_store_product(&product, store, ids[0]) == IOSIAP_OK && strlen(iosiap_product_title(product)) == 0) {
            fprintf(stderr, "empty title\n");
        }
        iosiap_entitlements(store, NULL, NULL);
    }
    atomic_fetch_add(&threads_done, 1);
    return NULL;
}

int main(int argc, char **argv) {
    test_store_options how = {NULL, IOSIAP_DELIVERY_POLL, NULL, NULL};
    iosiap_callbacks callbacks = IOSIAP_CALLBACKS_INIT;
    pthread_t threads[THREADS];
    const char *first[] = {"com.iosiap.example.coins_100"};
    int i, waited;

    if (argc < 3) return 2;
    if (argc > 3) rounds = atoi(argv[3]);
    callbacks.on_event = on_event;
    if (open_test_store_with(&store, argv[1], argv[2], &how, &callbacks) != IOSIAP_OK) {
        fprintf(stderr, "open: %s\n", iosiap_last_error_message());
        return 1;
    }
    /* Load the products once so that payments from the threads are accepted. */
    if (iosiap_request_products(NULL, store, first, 1) != IOSIAP_OK) {
        fprintf(stderr, "products: %s\n", iosiap_last_error_message());
        return 1;
    }
    atomic_fetch_add(&accepted, 1);
    for (waited = 0; terminal_events == 0 && waited < 60000; waited++) {
        iosiap_poll(store, 0);
        between_frames(1);
    }
    for (i = 0; i < THREADS; i++) pthread_create(&threads[i], NULL, hammer, NULL);
    /* The game loop: poll while the threads work, then until every request has ended (at most 60 s). */
    for (waited = 0; waited < 60000; waited++) {
        iosiap_poll(store, 0);
        if (atomic_load(&threads_done) == THREADS && terminal_events >= atomic_load(&accepted)) break;
        between_frames(1);
    }
    for (i = 0; i < THREADS; i++) pthread_join(threads[i], NULL);
    /* Half a second more of frames: an event nobody asked for, or a second telling, would arrive in it. */
    for (waited = 0; waited < 500; waited++) {
        iosiap_poll(store, 0);
        between_frames(1);
    }
    iosiap_store_close(store);
    printf("stress: %d threads, %d requests accepted, %d refused, %d terminal events, %d purchases of %d payments, "
           "%d unrequested events, %d finish failures\n", THREADS, atomic_load(&accepted), atomic_load(&refused),
           terminal_events, purchases, atomic_load(&payments), unrequested, finish_failures);
    /* Each payment is charged once and told once; nothing else arrives. */
    if (rounds < 1 || terminal_events != atomic_load(&accepted) || purchases != atomic_load(&payments) || unrequested != 0
        || finish_failures != 0 || atomic_load(&refused) != THREADS * rounds) {
        printf("stress: 0 passed, 1 failed\n");
        return 1;
    }
    printf("stress: 1 passed, 0 failed\n");
    return 0;
}
