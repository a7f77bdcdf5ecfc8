/*
 * IOSIAP_DELIVERY_THREAD: events arrive on one library-owned thread, never on the thread that made the
 * request, one at a time; after iosiap_store_close returns, no callback runs; and no callback runs before
 * the open call has stored the handle (events queued at open: the purchases left unfinished).
 * Built with IOSIAP_STOREKIT_STANDIN against the stand-in's libiosiap (scripts/test-storekit-standin.sh), the same
 * over StoreKit, where the main thread runs the main run loop while it waits, as a game's does between frames
 * (StoreKit's purchase is @MainActor): events still never arrive on it.
 * usage: delivery_thread CATALOG.storekit STATE_DIRECTORY [IOSIAP_STORE]
 * (IOSIAP_STORE is not used: scripts/test-storekit-standin.sh passes it to every test it runs.)
 */
#define _POSIX_C_SOURCE 200809L /* nanosleep, setenv */
#include <iosiap/iosiap.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "open_store.h"
#include "wait_for.h"

static pthread_t main_thread;
static pthread_t delivery_thread;
static atomic_int terminal_events;
static atomic_int on_main_thread;
static atomic_int on_other_threads;
static atomic_int inside_callback;
static atomic_int overlapping;
static atomic_int after_close;
static atomic_int closed;
static atomic_int reopening;
static atomic_int reopen_events;
static atomic_int before_handle;
static iosiap_store *reopened;  /* written by the open call; read by the callback (TSan watches) */

static void on_event(const iosiap_event *event, void *user_data) {
    (void)user_data;
    if (atomic_load(&reopening)) {
        if (reopened == NULL) atomic_fetch_add(&before_handle, 1);
        atomic_fetch_add(&reopen_events, 1);
        return;
    }
    if (atomic_fetch_add(&inside_callback, 1) != 0) atomic_fetch_add(&overlapping, 1);
    if (atomic_load(&closed)) atomic_fetch_add(&after_close, 1);
    if (pthread_equal(pthread_self(), main_thread)) atomic_fetch_add(&on_main_thread, 1);
    if (atomic_load(&terminal_events) == 0 && event->kind == IOSIAP_EVENT_PRODUCTS_RECEIVED) {
        delivery_thread = pthread_self();
    } else if (!pthread_equal(pthread_self(), delivery_thread)) {
        atomic_fetch_add(&on_other_threads, 1);
    }
    if (event->kind != IOSIAP_EVENT_PURCHASING) atomic_fetch_add(&terminal_events, 1);
    atomic_fetch_sub(&inside_callback, 1);
}

/* Waits (at most 10 s) until `count` terminal events arrived; 1 if they did. */
static int wait_for_terminal(int count) {
    int waited;
    for (waited = 0; waited < 5000 && atomic_load(&terminal_events) < count; waited++) between_frames(2);
    return atomic_load(&terminal_events) >= count;
}

/* Opens the store (open_store.h) with events on the library's delivery thread; returns the open's status. */
static int open_delivering_on_thread(iosiap_store **out, const char *catalog, const char *state,
                                     const iosiap_callbacks *callbacks) {
    test_store_options how = {NULL, IOSIAP_DELIVERY_THREAD, NULL, NULL};
    return open_test_store_with(out, catalog, state, &how, callbacks);
}

int main(int argc, char **argv) {
    iosiap_callbacks callbacks = IOSIAP_CALLBACKS_INIT;
    iosiap_store *store = NULL;
    const char *ids[] = {"com.iosiap.example.coins_100"};
    int round, ok;

    if (argc != 3 && argc != 4) return 2;
    /* wait_for.h's counting by kind is not used: events arrive on the delivery thread, counted in atomics here. */
    (void)count_event;
    (void)wait_for;
    main_thread = pthread_self();
    callbacks.on_event = on_event;
    if (open_delivering_on_thread(&store, argv[1], argv[2], &callbacks) != IOSIAP_OK) return 1;
    ok = iosiap_request_products(NULL, store, ids, 1) == IOSIAP_OK && wait_for_terminal(1);
    for (round = 0; ok && round < 20; round++) {
        ok = iosiap_request_payment(NULL, store, ids[0], 1, NULL) == IOSIAP_OK;
    }
    ok = ok && wait_for_terminal(21) && iosiap_request_restore(NULL, store) == IOSIAP_OK && wait_for_terminal(22);
    iosiap_request_payment(NULL, store, ids[0], 1, NULL);  /* may still be in flight when we close */
    iosiap_store_close(store);
    atomic_store(&closed, 1);
    between_frames(50);  /* over StoreKit the purchase in flight may go on in the run loop: still no callback */
    /* Reopened: the purchases left unfinished above are queued at once; the first callback must find the
       handle stored. */
    atomic_store(&reopening, 1);
    for (round = 0; ok && round < 5; round++) {
        int waited;
        reopened = NULL;
        atomic_store(&reopen_events, 0);
        if (open_delivering_on_thread(&reopened, argv[1], argv[2], &callbacks) != IOSIAP_OK) {
            ok = 0;
            break;
        }
        for (waited = 0; waited < 5000 && atomic_load(&reopen_events) == 0; waited++) between_frames(2);
        ok = atomic_load(&reopen_events) > 0;
        iosiap_store_close(reopened);
    }
    printf("delivery thread: %d callbacks before the handle was stored\n", atomic_load(&before_handle));
    ok = ok && atomic_load(&before_handle) == 0;
    printf("delivery thread: %d terminal events, %d on the main thread, %d on other threads, %d overlapping, %d after close\n",
           atomic_load(&terminal_events), atomic_load(&on_main_thread), atomic_load(&on_other_threads),
           atomic_load(&overlapping), atomic_load(&after_close));
    ok = ok && atomic_load(&on_main_thread) == 0 && atomic_load(&on_other_threads) == 0 && atomic_load(&overlapping) == 0 &&
         atomic_load(&after_close) == 0;
    printf("delivery thread: %d passed, %d failed\n", ok ? 1 : 0, ok ? 0 : 1);
    return ok ? 0 : 1;
}
