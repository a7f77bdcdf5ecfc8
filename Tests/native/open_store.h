/*
 * The one way the native tests open a store: the local store on CATALOG and STATE, or, built with
 * IOSIAP_STOREKIT_STANDIN against the stand-in's libiosiap, StoreKit as on an iPhone: its App Store is the local
 * store on CATALOG and STATE (what `iosiap-store --state STATE` changes), unless IOSIAP_STOREKIT_CONFIGURATION and
 * IOSIAP_STOREKIT_STATE name another; the journal is in STATE/device unless the test names another; the bundle id
 * is the configuration's. The including file defines _POSIX_C_SOURCE (setenv, snprintf).
 */
#ifndef IOSIAP_TESTS_OPEN_STORE_H
#define IOSIAP_TESTS_OPEN_STORE_H

#include <iosiap/iosiap.h>
#include <stdio.h>
#include <stdlib.h>

/* What a test sets beyond the catalog and the state; zero or NULL each for the default. */
typedef struct test_store_options {
    const char *bundle_id;                           /* the local store's; NULL: its default */
    int delivery;                                    /* iosiap_delivery_mode */
    const iosiap_verification_options *verification; /* NULL: none */
    const char *journal;                             /* over StoreKit; NULL: STATE/device */
} test_store_options;

/* Opens the store the test runs against (see above) with `callbacks`; returns the open's status. */
static inline int open_test_store_with(iosiap_store **out, const char *catalog, const char *state,
                                       const test_store_options *how, const iosiap_callbacks *callbacks) {
#ifdef IOSIAP_STOREKIT_STANDIN
    iosiap_storekit_options options = IOSIAP_STOREKIT_OPTIONS_INIT;
    char journal[4096];
    setenv("IOSIAP_STOREKIT_CONFIGURATION", catalog, 0);
    setenv("IOSIAP_STOREKIT_STATE", state, 0);
    snprintf(journal, sizeof journal, "%s/device", state);
    options.state_directory = how->journal ? how->journal : journal;
    options.delivery = how->delivery;
    options.verification = how->verification;
    return iosiap_store_open_storekit(out, &options, callbacks);
#else
    iosiap_local_store_options options = IOSIAP_LOCAL_STORE_OPTIONS_INIT;
    options.catalog_path = catalog;
    options.state_directory = state;
    options.bundle_id = how->bundle_id;
    options.delivery = how->delivery;
    options.verification = how->verification;
    return iosiap_store_open_local(out, &options, callbacks);
#endif
}

#endif
