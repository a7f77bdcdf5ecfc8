/*
 * The native tests' one assertion: EXPECT counts a check, and on failure prints the line, the condition and
 * the library's last error message; the test's main reports `checks - failures` and exits non-zero on any.
 * And the one way they open a store: the local store, or StoreKit in the stand-in's build.
 */
#ifndef IOSIAP_TESTS_EXPECT_H
#define IOSIAP_TESTS_EXPECT_H

#include <iosiap/iosiap.h>
#include <stdio.h>
#ifdef IOSIAP_STOREKIT_STANDIN
#include <stdlib.h> /* setenv */
#endif

static int checks, failures;
#define EXPECT(condition) expect((condition), #condition, __LINE__)
static void expect(int condition, const char *what, int line) {
    checks++;
    if (!condition) {
        failures++;
        fprintf(stderr, "line %d: expected %s (last error: %s)\n", line, what, iosiap_last_error_message());
    }
}

/* Opens the store the test runs against, events to on_event; NULL when it failed (counted as a failed check).
   The local store on `catalog` and `state` (bundle_id NULL: the default). Built with IOSIAP_STOREKIT_STANDIN
   against the stand-in's libiosiap, StoreKit instead, as on an iPhone: its App Store is the local store on
   `catalog` and `state` (what `iosiap-store --state STATE` changes), unless IOSIAP_STOREKIT_CONFIGURATION and
   IOSIAP_STOREKIT_STATE name another; the journal is in STATE/device; bundle_id is the configuration's. */
static inline iosiap_store *open_test_store(const char *catalog, const char *state, const char *bundle_id,
                                            iosiap_event_callback on_event) {
    iosiap_callbacks callbacks = IOSIAP_CALLBACKS_INIT;
    iosiap_store *store = NULL;
#ifdef IOSIAP_STOREKIT_STANDIN
    iosiap_storekit_options options = IOSIAP_STOREKIT_OPTIONS_INIT;
    char journal[4096];
    (void)bundle_id;
    setenv("IOSIAP_STOREKIT_CONFIGURATION", catalog, 0);
    setenv("IOSIAP_STOREKIT_STATE", state, 0);
    snprintf(journal, sizeof journal, "%s/device", state);
    options.state_directory = journal;
    callbacks.on_event = on_event;
    EXPECT(iosiap_store_open_storekit(&store, &options, &callbacks) == IOSIAP_OK);
#else
    iosiap_local_store_options options = IOSIAP_LOCAL_STORE_OPTIONS_INIT;
    options.catalog_path = catalog;
    options.state_directory = state;
    options.bundle_id = bundle_id;
    callbacks.on_event = on_event;
    EXPECT(iosiap_store_open_local(&store, &options, &callbacks) == IOSIAP_OK);
#endif
    return store;
}

#endif
