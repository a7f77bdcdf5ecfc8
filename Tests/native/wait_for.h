/*
 * Events counted by kind, and polling until the next one of a kind arrives: for the native tests that drive
 * the store one event at a time. The including file defines _POSIX_C_SOURCE (nanosleep; 200112L for setenv in the stand-in's build) and calls
 * count_event from its callback.
 */
#ifndef IOSIAP_TESTS_WAIT_FOR_H
#define IOSIAP_TESTS_WAIT_FOR_H

#include <iosiap/iosiap.h>
#include <time.h>
#ifdef IOSIAP_STOREKIT_STANDIN
#include "storekit_standin.h"
#endif

static int count_kind[64];

static inline void count_event(const iosiap_event *event) {
    if (event->kind >= 0 && event->kind < 64) count_kind[event->kind]++;
}

/* The time between two frames. Over StoreKit (the stand-in's build) the main run loop runs there, as on iOS:
   StoreKit's purchase and sheets run on the main actor. */
static inline void between_frames(long milliseconds) {
#ifdef IOSIAP_STOREKIT_STANDIN
    storekit_standin_run_main_loop(milliseconds / 1000.0);
#else
    struct timespec pause;
    pause.tv_sec = milliseconds / 1000;
    pause.tv_nsec = (milliseconds % 1000) * 1000 * 1000;
    nanosleep(&pause, NULL);
#endif
}

/* The game's UIWindowScene, for a sheet's UI context: over StoreKit the stand-in's app scene, where StoreKit shows
   it; the local store never dereferences it. */
static inline void *game_scene(void) {
#ifdef IOSIAP_STOREKIT_STANDIN
    return storekit_standin_window_scene();
#else
    static int scene;
    return &scene;
#endif
}

/* Polls until an event of `kind` arrives (at most 5 s); 1 if one did. */
static inline int wait_for(iosiap_store *store, int kind) {
    int before = count_kind[kind], frame;
    for (frame = 0; frame < 2500 && count_kind[kind] == before; frame++) {
        iosiap_poll(store, 0);
        between_frames(2);
    }
    return count_kind[kind] > before;
}

/* After QA ended a subscription of group `group_id` (iosiap-store expire): 1 once the game knows. The local store tells
   EXPIRED; StoreKit tells no expiry, which changes no transaction (the stand-in's StandInAppStore.dispatch;
   "Product.SubscriptionInfo.Status"): the group's status says it ended. */
static inline int subscription_ended(iosiap_store *store, const char *group_id) {
#ifdef IOSIAP_STOREKIT_STANDIN
    iosiap_subscription_status_info *status = NULL;
    int ended = iosiap_subscription_status(&status, store, group_id) == IOSIAP_OK && status != NULL &&
                status->state == IOSIAP_SUBSCRIPTION_EXPIRED;
    iosiap_subscription_status_free(status);
    return ended;
#else
    (void)group_id;
    return wait_for(store, IOSIAP_EVENT_EXPIRED);
#endif
}

#endif
