/*
 * The native tests' one assertion: EXPECT counts a check, and on failure prints the line, the condition and
 * the library's last error message; the test's main reports `checks - failures` and exits non-zero on any.
 * And the one way they open a store: the local store, or StoreKit in the stand-in's build.
 */
#ifndef IOSIAP_TESTS_EXPECT_H
#define IOSIAP_TESTS_EXPECT_H

#include <iosiap/iosiap.h>
#include <stdio.h>

#include "open_store.h"

static int checks, failures;
#define EXPECT(condition) expect((condition), #condition, __LINE__)
static void expect(int condition, const char *what, int line) {
    checks++;
    if (!condition) {
        failures++;
        fprintf(stderr, "line %d: expected %s (last error: %s)\n", line, what, iosiap_last_error_message());
    }
}

/* Opens the store the test runs against (open_store.h), events to on_event; NULL when it failed (counted as a
   failed check). bundle_id is the local store's (NULL: the default). */
static inline iosiap_store *open_test_store(const char *catalog, const char *state, const char *bundle_id,
                                            iosiap_event_callback on_event) {
    iosiap_callbacks callbacks = IOSIAP_CALLBACKS_INIT;
    test_store_options how = {NULL, IOSIAP_DELIVERY_POLL, NULL, NULL};
    iosiap_store *store = NULL;
    how.bundle_id = bundle_id;
    callbacks.on_event = on_event;
    EXPECT(open_test_store_with(&store, catalog, state, &how, &callbacks) == IOSIAP_OK);
    return store;
}

#endif
