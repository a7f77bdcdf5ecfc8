/*
 * Against the Apple graph's libiosiap (scripts/check-apple-graph.sh: the library as iOS, tvOS and visionOS
 * build it, built on Linux without OpenSSL and without the local store): every function that needs them is
 * there and answers IOSIAP_E_UNSUPPORTED_PLATFORM with a message, whatever its arguments, and NULLs its
 * out-pointer. Nothing here opens a StoreKit store: in that build StoreKit is a declarations-only stub.
 * usage: unsupported_platform CATALOG.storekit STATE_DIRECTORY
 */
#include "expect.h"

#include <string.h>

#define EXPECT_UNSUPPORTED(call) \
    do { \
        int status_ = (call); \
        EXPECT(status_ == IOSIAP_E_UNSUPPORTED_PLATFORM); \
        EXPECT(strstr(iosiap_last_error_message(), "iosiap_store_open_storekit") != NULL); \
    } while (0)

int main(int argc, char **argv) {
    iosiap_local_store_options options = IOSIAP_LOCAL_STORE_OPTIONS_INIT;
    iosiap_store *store = (iosiap_store *)&options; /* not NULL before the call */
    char *json = (char *)"not NULL";
    uint64_t transaction_id = 0;
    iosiap_offer_signature signature = IOSIAP_OFFER_SIGNATURE_INIT;
    iosiap_offer_signature untouched;
    if (argc < 3) {
        fprintf(stderr, "usage: %s CATALOG.storekit STATE_DIRECTORY\n", argv[0]);
        return 2;
    }

    EXPECT(iosiap_version() == IOSIAP_VERSION_NUMBER);
    EXPECT(IOSIAP_E_UNSUPPORTED_PLATFORM == -18);
    EXPECT(strcmp(iosiap_status_text(IOSIAP_E_UNSUPPORTED_PLATFORM), "not available on this platform") == 0);

    /* Valid options: on Linux this opens the store. */
    options.catalog_path = argv[1];
    options.state_directory = argv[2];
    EXPECT_UNSUPPORTED(iosiap_store_open_local(&store, &options, NULL));
    EXPECT(store == NULL);
    EXPECT(strstr(iosiap_last_error_message(), "iosiap_store_open_local") != NULL);
    EXPECT_UNSUPPORTED(iosiap_store_open_local(NULL, NULL, NULL));

    EXPECT_UNSUPPORTED(iosiap_verify_transaction(&json, "a.b.c", NULL, 0, "com.example.game", NULL));
    EXPECT(json == NULL);

    /* The controls, on no store at all: the platform answers before the arguments are looked at. */
    EXPECT_UNSUPPORTED(iosiap_local_set_ask_to_buy(NULL, 1));
    EXPECT_UNSUPPORTED(iosiap_local_set_notification_url(NULL, NULL));
    EXPECT_UNSUPPORTED(iosiap_local_pending_purchases(NULL, NULL, NULL));
    EXPECT_UNSUPPORTED(iosiap_local_approve_ask_to_buy(NULL, 1));
    EXPECT_UNSUPPORTED(iosiap_local_decline_ask_to_buy(NULL, 1));
    EXPECT_UNSUPPORTED(iosiap_local_set_interrupted_purchases(NULL, 1));
    EXPECT_UNSUPPORTED(iosiap_local_resolve_interrupted_purchase(NULL, 1));
    EXPECT_UNSUPPORTED(iosiap_local_set_simulated_error(NULL, IOSIAP_API_PURCHASE, IOSIAP_E_SYSTEM));
    EXPECT_UNSUPPORTED(iosiap_local_set_purchase_cancelled(NULL, 1));
    EXPECT_UNSUPPORTED(iosiap_local_refund(NULL, 1, 0));
    EXPECT_UNSUPPORTED(iosiap_local_expire_subscription(NULL, "p"));
    EXPECT_UNSUPPORTED(iosiap_local_force_renewal(NULL, "p"));
    EXPECT_UNSUPPORTED(iosiap_local_set_auto_renew(NULL, "p", 0));
    EXPECT_UNSUPPORTED(iosiap_local_set_billing_issues(NULL, 1));
    EXPECT_UNSUPPORTED(iosiap_local_set_billing_grace_period(NULL, 1));
    EXPECT_UNSUPPORTED(iosiap_local_resolve_billing_issue(NULL, "p"));
    EXPECT_UNSUPPORTED(iosiap_local_set_time_rate(NULL, 0));
    EXPECT_UNSUPPORTED(iosiap_local_set_storefront(NULL, "USA"));
    EXPECT_UNSUPPORTED(iosiap_local_set_locale(NULL, "en_US"));
    EXPECT_UNSUPPORTED(iosiap_local_buy(&transaction_id, NULL, "p", 1));
    EXPECT_UNSUPPORTED(iosiap_local_request_purchase_intent(NULL, "p"));
    EXPECT_UNSUPPORTED(iosiap_local_request_purchase_intent_with_offer(NULL, "p", "o"));
    EXPECT_UNSUPPORTED(iosiap_local_redeem_offer_code(&transaction_id, NULL, "p", "code"));
    EXPECT_UNSUPPORTED(iosiap_local_buy_family_shared(&transaction_id, NULL, "p"));
    EXPECT_UNSUPPORTED(iosiap_local_stop_family_sharing(NULL, 1));
    EXPECT_UNSUPPORTED(iosiap_local_send_message(NULL, IOSIAP_MESSAGE_REASON_BILLING_ISSUE, "p", NULL));
    EXPECT_UNSUPPORTED(iosiap_local_reset(NULL));
    memcpy(&untouched, &signature, sizeof signature);
    EXPECT_UNSUPPORTED(iosiap_local_sign_promotional_offer(&signature, NULL, "p", "o", NULL));
    EXPECT(memcmp(&untouched, &signature, sizeof signature) == 0);

    /* What does not need the local store still works as everywhere. */
    EXPECT(iosiap_store_open_storekit(NULL, NULL, NULL) == IOSIAP_E_INVALID_ARGUMENT);
    EXPECT(iosiap_poll(NULL, 0) == IOSIAP_E_INVALID_ARGUMENT);
    iosiap_string_free(NULL);
    iosiap_store_close(NULL);

    printf("unsupported platform: %d checks, %d failed\n", checks, failures);
    return failures == 0 ? 0 : 1;
}
