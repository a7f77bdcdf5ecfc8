/*
 * The native tests' one assertion: EXPECT counts a check, and on failure prints the line, the condition and
 * the library's last error message; the test's main reports `checks - failures` and exits non-zero on any.
 * And the one way they open a local store.
 */
#ifndef IOSIAP_TESTS_EXPECT_H
#define IOSIAP_TESTS_EXPECT_H

#include <iosiap/iosiap.h>
#include <stdio.h>

static int checks, failures;
#define EXPECT(condition) expect((condition), #condition, __LINE__)
static void expect(int condition, const char *what, int line) {
    checks++;
    if (!condition) {
        failures++;
        fprintf(stderr, "line %d: expected %s (last error: %s)\n", line, what, iosiap_last_error_message());
    }
}

/* Opens the local store on `catalog` and `state` (bundle_id NULL: the default), events to on_event; NULL when
   it failed (counted as a failed check). */
static inline iosiap_store *open_local_store(const char *catalog, const char *state, const char *bundle_id,
                                             iosiap_event_callback on_event) {
    iosiap_local_store_options options = IOSIAP_LOCAL_STORE_OPTIONS_INIT;
    iosiap_callbacks callbacks = IOSIAP_CALLBACKS_INIT;
    iosiap_store *store = NULL;
    options.catalog_path = catalog;
    options.state_directory = state;
    options.bundle_id = bundle_id;
    callbacks.on_event = on_event;
    EXPECT(iosiap_store_open_local(&store, &options, &callbacks) == IOSIAP_OK);
    return store;
}

#endif
