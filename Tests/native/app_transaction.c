/*
 * The App Transaction through the C ABI on the local store: the record and its JWS, the original app version
 * control, what stays per state directory, the simulated error, bad input, and freeing.
 * Built with IOSIAP_STOREKIT_STANDIN against the stand-in's libiosiap (scripts/test-storekit-standin.sh), the same
 * over StoreKit (AppTransaction.shared), with QA's changes made by `iosiap-store` (IOSIAP_STORE; the local store's C controls otherwise)
 * from outside.
 * usage: app_transaction CATALOG STATE_DIRECTORY IOSIAP_STORE
 */
#define _POSIX_C_SOURCE 200112L /* setenv */
#include <iosiap/iosiap.h>

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expect.h"
#include "store_tool.h"

/* The bundle id the App Transaction is signed for: the one the game opens the local store with; over StoreKit the
   App Store's own (the stand-in's App Store is the local store opened with its default bundle id,
   StandInAppStore.shared). */
#ifdef IOSIAP_STOREKIT_STANDIN
#define BUNDLE_ID "com.example.game"
#else
#define BUNDLE_ID "com.iosiap.example"
#endif

static void on_event(const iosiap_event *event, void *user_data) {
    (void)event; (void)user_data;
}

int main(int argc, char **argv) {
    iosiap_store *store;
    iosiap_app_transaction_info *app = NULL, *again = NULL;
    char id[64] = "";
    int64_t first_date = 0;

    if (argc != 4) return 2;
    use_store_tool(argv[3], argv[2], argv[1]);
    store = open_test_store(argv[1], argv[2], "com.iosiap.example", on_event);

    EXPECT(iosiap_app_transaction(&app, store) == IOSIAP_OK);
    EXPECT(app != NULL);
    if (app) {
        EXPECT(app->size == sizeof(iosiap_app_transaction_info));
        EXPECT(strcmp(app->bundle_id, BUNDLE_ID) == 0 && strcmp(app->environment, "Sandbox") == 0);
        EXPECT(strcmp(app->original_app_version, "1.0") == 0 && strcmp(app->app_version, "1.0") == 0);
        EXPECT(app->signed_jws != NULL && strchr(app->signed_jws, '.') != NULL);
        EXPECT(app->app_transaction_id != NULL && strlen(app->app_transaction_id) == 18);
        EXPECT(app->original_purchase_date_ms > 0 && app->signed_date_ms >= app->original_purchase_date_ms);
#ifdef IOSIAP_STOREKIT_STANDIN
        /* StoreKit's record always carries a device verification and its nonce ("AppTransaction.deviceVerification",
           "AppTransaction.deviceVerificationNonce": not optional); the stand-in's App Store signs none, so it is empty. */
        EXPECT(app->preorder_date_ms == 0 && app->app_id == 0 && app->device_verification != NULL &&
               app->device_verification_nonce != NULL);
#else
        EXPECT(app->preorder_date_ms == 0 && app->app_id == 0 && app->device_verification == NULL);
#endif
        if (app->app_transaction_id) snprintf(id, sizeof id, "%s", app->app_transaction_id);
        first_date = app->original_purchase_date_ms;
    }
    iosiap_app_transaction_free(app);
    iosiap_app_transaction_free(NULL);

    /* QA plays a user who bought version 1.2 before the app went free; the app is now at 3.0. */
    EXPECT(QA(iosiap_local_set_original_app_version(store, "1.2", "3.0"), "app-version 1.2 3.0"));
    EXPECT(iosiap_app_transaction(&again, store) == IOSIAP_OK);
    if (again) {
        EXPECT(strcmp(again->original_app_version, "1.2") == 0 && strcmp(again->app_version, "3.0") == 0);
        EXPECT(strcmp(again->app_transaction_id, id) == 0 && again->original_purchase_date_ms == first_date);
    }
    iosiap_app_transaction_free(again);

    /* Bad input changes nothing. */
    EXPECT(iosiap_app_transaction(NULL, store) == IOSIAP_E_INVALID_ARGUMENT);
    app = (iosiap_app_transaction_info *)&id;
    EXPECT(iosiap_app_transaction(&app, NULL) == IOSIAP_E_INVALID_ARGUMENT && app == NULL);
#ifndef IOSIAP_STOREKIT_STANDIN /* the C control's own refusals: it needs a local-store handle */
    EXPECT(iosiap_local_set_original_app_version(store, NULL, NULL) == IOSIAP_E_INVALID_ARGUMENT);
    EXPECT(iosiap_local_set_original_app_version(store, "", NULL) == IOSIAP_E_INVALID_ARGUMENT);
    EXPECT(iosiap_local_set_original_app_version(store, "\xff", NULL) == IOSIAP_E_INVALID_UTF8);
#endif

    /* The simulated App Transaction error fails the call, with no record. */
    EXPECT(QA(iosiap_local_set_simulated_error(store, IOSIAP_API_APP_TRANSACTION, IOSIAP_E_STORE_UNREACHABLE),
              "error set app-transaction store-unreachable"));
    app = NULL;
    EXPECT(iosiap_app_transaction(&app, store) == IOSIAP_E_STORE_UNREACHABLE && app == NULL);
    EXPECT(QA(iosiap_local_set_simulated_error(store, IOSIAP_API_APP_TRANSACTION, IOSIAP_OK),
              "error clear app-transaction"));
    iosiap_store_close(store);

    /* Another launch: the same id, date and versions; a closed handle is refused. */
    EXPECT(iosiap_app_transaction(&app, store) == IOSIAP_E_STORE_NOT_OPEN && app == NULL);
    store = open_test_store(argv[1], argv[2], "com.iosiap.example", on_event);
    EXPECT(iosiap_app_transaction(&app, store) == IOSIAP_OK);
    if (app) {
        EXPECT(strcmp(app->app_transaction_id, id) == 0 && strcmp(app->original_app_version, "1.2") == 0);
        EXPECT(offsetof(iosiap_app_transaction_info, device_verification_nonce) < app->size);
    }
    iosiap_app_transaction_free(app);
    iosiap_store_close(store);

    printf("app transaction: %d checks, %d failed\n", checks, failures);
    return failures == 0 ? 0 : 1;
}
