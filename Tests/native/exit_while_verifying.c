/*
 * A game that returns from main while the library verifies: four threads of its own verify a purchase over and
 * over with iosiap_verify_transaction, and the store's thread verifies a payment just requested. Exit must not free
 * libcrypto's state under them (Sources/CCryptoAtExit): before the library kept it, 17 of 60 runs of this test
 * (with the store never closed, on the device) crashed or hung after printing their result (12 of 20 over
 * StoreKit). The script runs it repeatedly and checks each run's exit status.
 * Built with IOSIAP_STOREKIT_STANDIN, over StoreKit, where the stand-in's App Store also verifies what it hands
 * over (the process in which CI first met the crash).
 * Given the port of Tests/python/verification_server.py, the store is opened again to verify with its /hang path
 * (no answer for 60 s), and main closes the store before returning: close stops waiting for the worker after
 * about 2 s, so main returns while the worker's POSTs wait (the payment's, and launch's re-check of the unfinished
 * purchase; the script counts them in the server's log). Those POSTs are plain http, which uses no libcrypto: the
 * game's threads are what use it as the process exits.
 * usage: exit_while_verifying CATALOG STATE_DIRECTORY [SERVER_PORT]
 */
#define _POSIX_C_SOURCE 200809L
#include <iosiap/iosiap.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "expect.h"
#include "wait_for.h"

#define VERIFYING_THREADS 4

#ifdef IOSIAP_STOREKIT_STANDIN
#define BUNDLE_ID "com.example.game" /* the stand-in's App Store signs its own (verification.c) */
#else
#define BUNDLE_ID "com.iosiap.example"
#endif

static char jws[8192];
static uint8_t root[65536];
static size_t root_length;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int verified[VERIFYING_THREADS], refused;

static void on_event(const iosiap_event *event, void *user_data) {
    (void)user_data;
    count_event(event);
    if (event->kind == IOSIAP_EVENT_PURCHASED && event->transaction && event->transaction->signed_jws) {
        snprintf(jws, sizeof jws, "%s", event->transaction->signed_jws);
    }
}

/* Verifies the purchase until the process ends, counting each verdict. */
static void *verify_forever(void *argument) {
    int index = *(int *)argument;
    for (;;) {
        char *payload = NULL;
        int status = iosiap_verify_transaction(&payload, jws, root, root_length, BUNDLE_ID, "Sandbox");
        iosiap_string_free(payload);
        pthread_mutex_lock(&lock);
        if (status == IOSIAP_OK) verified[index]++; else refused++;
        pthread_mutex_unlock(&lock);
    }
    return NULL;
}

static int every_thread_verified(void) {
    int index, all = 1;
    pthread_mutex_lock(&lock);
    for (index = 0; index < VERIFYING_THREADS; index++) all = all && verified[index] > 0;
    pthread_mutex_unlock(&lock);
    return all;
}

int main(int argc, char **argv) {
    iosiap_verification_options verification = IOSIAP_VERIFICATION_OPTIONS_INIT;
    iosiap_callbacks callbacks = IOSIAP_CALLBACKS_INIT;
    test_store_options how = {BUNDLE_ID, IOSIAP_DELIVERY_POLL, NULL, NULL};
    const char *coins[] = {"com.iosiap.example.coins_100"};
    iosiap_store *store = NULL;
    pthread_t threads[VERIFYING_THREADS];
    static int indexes[VERIFYING_THREADS];
    char root_path[4200], server_url[128];
    struct timespec close_began, close_ended;
    double close_seconds;
    FILE *file;
    int index, frame;

    if (argc < 3) return 2;
    verification.mode = IOSIAP_VERIFY_ON_DEVICE;
    how.verification = &verification;
    callbacks.on_event = on_event;
    EXPECT(open_test_store_with(&store, argv[1], argv[2], &how, &callbacks) == IOSIAP_OK);
    if (!store) return 1;
    iosiap_request_products(NULL, store, coins, 1);
    EXPECT(wait_for(store, IOSIAP_EVENT_PRODUCTS_RECEIVED));
    iosiap_request_payment(NULL, store, coins[0], 1, NULL);
    EXPECT(wait_for(store, IOSIAP_EVENT_PURCHASED));
    EXPECT(strlen(jws) > 100);

    /* The local store's root, in its state; over StoreKit its App Store's, in the state open_store.h gave it. */
#ifdef IOSIAP_STOREKIT_STANDIN
    snprintf(root_path, sizeof root_path, "%s/signing/root.der", getenv("IOSIAP_STOREKIT_STATE"));
#else
    snprintf(root_path, sizeof root_path, "%s/signing/root.der", argv[2]);
#endif
    file = fopen(root_path, "rb");
    root_length = file ? fread(root, 1, sizeof root, file) : 0;
    if (file) fclose(file);
    EXPECT(root_length > 100);
    if (failures) return 1;

    if (argc > 3) {
        iosiap_store_close(store);
        snprintf(server_url, sizeof server_url, "http://127.0.0.1:%s/hang", argv[3]);
        verification.mode = IOSIAP_VERIFY_SERVER;
        verification.server_url = server_url;
        verification.timeout_ms = 30000;
        verification.attempts = 1;
        EXPECT(open_test_store_with(&store, argv[1], argv[2], &how, &callbacks) == IOSIAP_OK);
        if (!store) return 1;
        iosiap_request_products(NULL, store, coins, 1);
        EXPECT(wait_for(store, IOSIAP_EVENT_PRODUCTS_RECEIVED));
    }

    for (index = 0; index < VERIFYING_THREADS; index++) {
        indexes[index] = index;
        EXPECT(pthread_create(&threads[index], NULL, verify_forever, &indexes[index]) == 0);
    }
    for (frame = 0; frame < 5000 && !every_thread_verified(); frame++) between_frames(2);
    EXPECT(every_thread_verified());
    pthread_mutex_lock(&lock);
    EXPECT(refused == 0);
    pthread_mutex_unlock(&lock);

    /* The store verifies this one on its own thread while main returns. */
    iosiap_request_payment(NULL, store, coins[0], 1, NULL);
    if (argc > 3) {
        for (frame = 0; frame < 250; frame++) {  /* half a second: the payment is signed and posted by then */
            iosiap_poll(store, 0);
            between_frames(2);
        }
        clock_gettime(CLOCK_MONOTONIC, &close_began);
        iosiap_store_close(store);
        clock_gettime(CLOCK_MONOTONIC, &close_ended);
        close_seconds = (double)(close_ended.tv_sec - close_began.tv_sec) + (close_ended.tv_nsec - close_began.tv_nsec) / 1e9;
        /* Close waited for the worker, busy with a verification, and stopped waiting long before an answer. */
        printf("close took %.2f s\n", close_seconds);
        EXPECT(close_seconds > 1.0 && close_seconds < 20.0);
    }
    printf("exit while verifying: %d passed, %d failed\n", checks - failures, failures);
    fflush(stdout);
    return failures == 0 ? 0 : 1;
}
