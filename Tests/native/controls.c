/*
 * The local store's controls through the C ABI: each one and the events it causes in the game.
 * usage: controls CATALOG STATE_DIRECTORY
 */
#define _POSIX_C_SOURCE 200809L
#include <iosiap/iosiap.h>

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "expect.h"
#include "wait_for.h"

static int last_kind, last_status;
static uint64_t last_transaction;
static char last_reason[32];

static void on_event(const iosiap_event *event, void *user_data) {
    (void)user_data;
    if (event->kind == IOSIAP_EVENT_PURCHASING) return;
    last_kind = event->kind;
    last_status = event->status;
    count_event(event);
    if (event->transaction) {
        last_transaction = event->transaction->id;
        snprintf(last_reason, sizeof last_reason, "%s", event->transaction->reason ? event->transaction->reason : "");
    }
}

static int64_t first_pending = -1, last_pending = -1;
static void remember_last(int64_t id, const char *product_id, int quantity, void *user_data) {
    (void)product_id; (void)quantity; (void)user_data;
    last_pending = id;
}
static void remember_pending(int64_t id, const char *product_id, int quantity, void *user_data) {
    (void)user_data;
    if (first_pending < 0 && strstr(product_id, "pro_upgrade") && quantity == 1) first_pending = id;
}

int main(int argc, char **argv) {
    iosiap_local_store_options options = IOSIAP_LOCAL_STORE_OPTIONS_INIT;
    iosiap_callbacks callbacks = IOSIAP_CALLBACKS_INIT;
    iosiap_store *store = NULL;
    const char *ids[] = {"com.iosiap.example.coins_100", "com.iosiap.example.pro_upgrade", "com.iosiap.example.club_gold_monthly"};
    uint64_t bought = 0;

    if (argc != 3) return 2;
    options.catalog_path = argv[1];
    options.state_directory = argv[2];
    callbacks.on_event = on_event;
    if (iosiap_store_open_local(&store, &options, &callbacks) != IOSIAP_OK) return 1;
    iosiap_request_products(NULL, store, ids, 3);
    EXPECT(wait_for(store, IOSIAP_EVENT_PRODUCTS_RECEIVED));

    /* Ask to Buy: deferred, then approved from the control. */
    EXPECT(iosiap_local_set_ask_to_buy(store, 1) == IOSIAP_OK);
    iosiap_request_payment(NULL, store, ids[1], 1, NULL);
    EXPECT(wait_for(store, IOSIAP_EVENT_DEFERRED));
    EXPECT(iosiap_local_pending_purchases(store, remember_pending, NULL) == 1 && first_pending >= 0);
    EXPECT(iosiap_local_approve_ask_to_buy(store, first_pending) == IOSIAP_OK);
    EXPECT(wait_for(store, IOSIAP_EVENT_PURCHASED));
    iosiap_finish_transaction(store, last_transaction);
    EXPECT(iosiap_local_approve_ask_to_buy(store, first_pending) == IOSIAP_E_UNKNOWN_TRANSACTION);
    iosiap_request_payment(NULL, store, ids[0], 1, NULL);
    EXPECT(wait_for(store, IOSIAP_EVENT_DEFERRED));
    first_pending = -1;
    EXPECT(iosiap_local_pending_purchases(store, NULL, NULL) == 1);
    EXPECT(iosiap_local_set_ask_to_buy(store, 0) == IOSIAP_OK);

    /* An interrupted purchase, resolved by the user. */
    EXPECT(iosiap_local_set_interrupted_purchases(store, 1) == IOSIAP_OK);
    iosiap_request_payment(NULL, store, ids[0], 3, NULL);
    EXPECT(wait_for(store, IOSIAP_EVENT_DEFERRED));
    EXPECT(iosiap_local_pending_purchases(store, remember_last, NULL) == 2 && last_pending >= 0);
    EXPECT(iosiap_local_approve_ask_to_buy(store, last_pending) == IOSIAP_E_UNKNOWN_TRANSACTION);
    EXPECT(iosiap_local_resolve_interrupted_purchase(store, last_pending) == IOSIAP_OK);
    EXPECT(wait_for(store, IOSIAP_EVENT_PURCHASED));
    EXPECT(iosiap_local_set_interrupted_purchases(store, 0) == IOSIAP_OK);

    /* Simulated errors and a cancelling user. */
    EXPECT(iosiap_local_set_simulated_error(store, IOSIAP_API_PURCHASE, IOSIAP_E_SK_PAYMENT_NOT_ALLOWED) == IOSIAP_OK);
    iosiap_request_payment(NULL, store, ids[0], 1, NULL);
    EXPECT(wait_for(store, IOSIAP_EVENT_FAILED) && last_status == IOSIAP_E_SK_PAYMENT_NOT_ALLOWED);
    EXPECT(iosiap_local_set_simulated_error(store, IOSIAP_API_PURCHASE, IOSIAP_OK) == IOSIAP_OK);
    EXPECT(iosiap_local_set_simulated_error(store, 42, IOSIAP_E_SK_UNKNOWN) == IOSIAP_E_INVALID_ARGUMENT);
    EXPECT(iosiap_local_set_simulated_error(store, IOSIAP_API_PURCHASE, -9999) == IOSIAP_E_INVALID_ARGUMENT);
    EXPECT(iosiap_local_set_purchase_cancelled(store, 1) == IOSIAP_OK);
    iosiap_request_payment(NULL, store, ids[0], 1, NULL);
    EXPECT(wait_for(store, IOSIAP_EVENT_CANCELLED));
    EXPECT(iosiap_local_set_purchase_cancelled(store, 0) == IOSIAP_OK);

    /* Purchases from outside the game, App Store intents, refunds. */
    EXPECT(iosiap_local_buy(&bought, store, ids[0], 2) == IOSIAP_OK && bought > 0);
    EXPECT(wait_for(store, IOSIAP_EVENT_PURCHASED) && last_transaction == bought);
    iosiap_finish_transaction(store, bought);
    EXPECT(iosiap_local_buy(&bought, store, "com.iosiap.example.nope", 1) == IOSIAP_E_UNKNOWN_PRODUCT);
    EXPECT(iosiap_local_request_purchase_intent(store, ids[1]) == IOSIAP_OK);
    EXPECT(wait_for(store, IOSIAP_EVENT_PURCHASE_INTENT));
    /* Reason 2 (moved to a subscription bundle) is StoreKit's to give: the local store's refund refuses it. */
    EXPECT(iosiap_local_refund(store, bought, 2) == IOSIAP_E_INVALID_ARGUMENT);
    EXPECT(iosiap_local_refund(store, bought, 1) == IOSIAP_OK);
    EXPECT(wait_for(store, IOSIAP_EVENT_REVOKED) && last_transaction == bought);
    EXPECT(iosiap_local_refund(store, bought, 1) == IOSIAP_E_WRONG_STATE);
    EXPECT(iosiap_local_refund(store, bought, 7) == IOSIAP_E_INVALID_ARGUMENT);

    /* Subscriptions over time. */
    EXPECT(iosiap_local_set_time_rate(store, 13) == IOSIAP_OK);
    EXPECT(iosiap_local_set_time_rate(store, 7) == IOSIAP_E_INVALID_ARGUMENT);
    iosiap_request_payment(NULL, store, ids[2], 1, NULL);
    EXPECT(wait_for(store, IOSIAP_EVENT_PURCHASED));
    iosiap_finish_transaction(store, last_transaction);
    EXPECT(iosiap_local_force_renewal(store, ids[2]) == IOSIAP_OK);
    EXPECT(wait_for(store, IOSIAP_EVENT_PURCHASED) && strcmp(last_reason, "RENEWAL") == 0);
    iosiap_finish_transaction(store, last_transaction);
    EXPECT(iosiap_local_set_auto_renew(store, ids[2], 0) == IOSIAP_OK);
    EXPECT(iosiap_local_expire_subscription(store, ids[2]) == IOSIAP_OK);
    EXPECT(wait_for(store, IOSIAP_EVENT_EXPIRED));
    EXPECT(iosiap_local_expire_subscription(store, ids[2]) == IOSIAP_E_WRONG_STATE);
    EXPECT(iosiap_local_set_auto_renew(store, NULL, 1) == IOSIAP_E_INVALID_ARGUMENT);
    /* Billing problems, at one renewal every two seconds: a renewal that cannot be charged ends the
       subscription (no grace period); the user fixing the payment renews it; failing again, payments that
       work again renew it at the next retry. (The whole timeline is tested in Swift, with a moved clock.) */
    EXPECT(iosiap_local_set_billing_issues(store, 1) == IOSIAP_OK);
    EXPECT(iosiap_local_set_billing_grace_period(store, 0) == IOSIAP_OK);
    EXPECT(iosiap_local_resolve_billing_issue(store, ids[2]) == IOSIAP_E_WRONG_STATE);
    EXPECT(iosiap_local_resolve_billing_issue(store, NULL) == IOSIAP_E_INVALID_ARGUMENT);
    EXPECT(iosiap_local_set_time_rate(store, 1005) == IOSIAP_OK);
    iosiap_request_payment(NULL, store, ids[2], 1, NULL);
    EXPECT(wait_for(store, IOSIAP_EVENT_PURCHASED) && strcmp(last_reason, "PURCHASE") == 0);
    iosiap_finish_transaction(store, last_transaction);
    EXPECT(wait_for(store, IOSIAP_EVENT_EXPIRED));
    EXPECT(iosiap_local_resolve_billing_issue(store, ids[2]) == IOSIAP_OK);
    EXPECT(wait_for(store, IOSIAP_EVENT_PURCHASED) && strcmp(last_reason, "RENEWAL") == 0);
    iosiap_finish_transaction(store, last_transaction);
    EXPECT(wait_for(store, IOSIAP_EVENT_EXPIRED));
    EXPECT(iosiap_local_set_billing_issues(store, 0) == IOSIAP_OK);
    EXPECT(wait_for(store, IOSIAP_EVENT_PURCHASED) && strcmp(last_reason, "RENEWAL") == 0);
    iosiap_finish_transaction(store, last_transaction);
    EXPECT(iosiap_local_set_auto_renew(store, ids[2], 0) == IOSIAP_OK);
    EXPECT(iosiap_local_set_time_rate(store, 13) == IOSIAP_OK);

    /* Storefront, locale, reset. */
    EXPECT(iosiap_local_set_storefront(store, "DEU") == IOSIAP_OK);
    EXPECT(iosiap_local_set_storefront(store, "XYZ") == IOSIAP_E_INVALID_ARGUMENT);
    EXPECT(iosiap_local_set_locale(store, "de_DE") == IOSIAP_OK);
    iosiap_request_products(NULL, store, ids, 1);
    EXPECT(wait_for(store, IOSIAP_EVENT_PRODUCTS_RECEIVED));
    {
        const iosiap_product *coins = NULL;
        EXPECT(iosiap_store_product(&coins, store, ids[0]) == IOSIAP_OK && strcmp(iosiap_product_currency_code(coins), "EUR") == 0);
    }
    EXPECT(iosiap_local_reset(store) == IOSIAP_OK);
    EXPECT(iosiap_local_pending_purchases(store, NULL, NULL) == 0);
    EXPECT(iosiap_local_set_ask_to_buy(NULL, 1) == IOSIAP_E_INVALID_ARGUMENT);
    iosiap_store_close(store);
    EXPECT(iosiap_local_reset(store) == IOSIAP_E_STORE_NOT_OPEN);

    printf("controls: %d passed, %d failed\n", checks - failures, failures);
    return failures == 0 ? 0 : 1;
}
