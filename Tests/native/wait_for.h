/*
 * Events counted by kind, and polling until the next one of a kind arrives: for the native tests that drive
 * the store one event at a time. The including file defines _POSIX_C_SOURCE (nanosleep) and calls
 * count_event from its callback.
 */
#ifndef IOSIAP_TESTS_WAIT_FOR_H
#define IOSIAP_TESTS_WAIT_FOR_H

#include <iosiap/iosiap.h>
#include <time.h>

static int count_kind[64];

static void count_event(const iosiap_event *event) {
    if (event->kind >= 0 && event->kind < 64) count_kind[event->kind]++;
}

/* Polls until an event of `kind` arrives (at most 5 s); 1 if one did. */
static int wait_for(iosiap_store *store, int kind) {
    struct timespec pause = {0, 2 * 1000 * 1000};
    int before = count_kind[kind], frame;
    for (frame = 0; frame < 2500 && count_kind[kind] == before; frame++) {
        iosiap_poll(store, 0);
        nanosleep(&pause, NULL);
    }
    return count_kind[kind] > before;
}

#endif
