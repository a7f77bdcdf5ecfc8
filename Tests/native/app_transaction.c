/*
 * The App Transaction through the C ABI on the local store: the record and its JWS, the original app version
 * control, what stays per state directory, the simulated error, bad input, and freeing.
 * usage: app_transaction CATALOG STATE_DIRECTORY
 */
#include <iosiap/iosiap.h>

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "expect.h"

static void on_event(const iosiap_event *event, void *user_data) {
    (void)event; (void)user_data;
}

int main(int argc, char **argv) {
    iosiap_store *store;
    iosiap_app_transaction_info *app = NULL, *again = NULL;
    char id[64] = "";
    int64_t first_date = 0;

    if (argc != 3) return 2;
    store = open_test_store(argv[1], argv[2], "com.iosiap.example", on_event);

    EXPECT(iosiap_app_transaction(&app, store) == IOSIAP_OK);
    EXPECT(app != NULL);
    if (app) {
        EXPECT(app->size == sizeof(iosiap_app_transaction_info));
        EXPECT(strcmp(app->bundle_id, "com.iosiap.example") == 0 && strcmp(app->environment, "Sandbox") == 0);
        EXPECT(strcmp(app->original_app_version, "1.0") == 0 && strcmp(app->app_version, "1.0") == 0);
        EXPECT(app->signed_jws != NULL && strchr(app->signed_jws, '.') != NULL);
        EXPECT(app->app_transaction_id != NULL && strlen(app->app_transaction_id) == 18);
        EXPECT(app->original_purchase_date_ms > 0 && app->signed_date_ms >= app->original_purchase_date_ms);
        EXPECT(app->preorder_date_ms == 0 && app->app_id == 0 && app->device_verification == NULL);
        if (app->app_transaction_id) snprintf(id, sizeof id, "%s", app->app_transaction_id);
        first_date = app->original_purchase_date_ms;
    }
    iosiap_app_transaction_free(app);
    iosiap_app_transaction_free(NULL);

    /* QA plays a user who bought version 1.2 before the app went free; the app is now at 3.0. */
    EXPECT(iosiap_local_set_original_app_version(store, "1.2", "3.0") == IOSIAP_OK);
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
    EXPECT(iosiap_local_set_original_app_version(store, NULL, NULL) == IOSIAP_E_INVALID_ARGUMENT);
    EXPECT(iosiap_local_set_original_app_version(store, "", NULL) == IOSIAP_E_INVALID_ARGUMENT);
    EXPECT(iosiap_local_set_original_app_version(store, "\xff", NULL) == IOSIAP_E_INVALID_UTF8);

    /* The simulated App Transaction error fails the call, with no record. */
    EXPECT(iosiap_local_set_simulated_error(store, IOSIAP_API_APP_TRANSACTION, IOSIAP_E_STORE_UNREACHABLE) == IOSIAP_OK);
    app = NULL;
    EXPECT(iosiap_app_transaction(&app, store) == IOSIAP_E_STORE_UNREACHABLE && app == NULL);
    EXPECT(iosiap_local_set_simulated_error(store, IOSIAP_API_APP_TRANSACTION, IOSIAP_OK) == IOSIAP_OK);
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
