/*
 * Promotional offers through the C ABI: signed, redeemed with iosiap_request_payment_with_options, carried
 * by the transaction, and every bad offer refused without a charge. With four more arguments (an offer
 * signed by Apple's own library: KEY_ID NONCE TIMESTAMP_MS SIGNATURE) it also redeems that one.
 * usage: offers CATALOG STATE_DIRECTORY [KEY_ID NONCE TIMESTAMP_MS SIGNATURE]
 */
#define _POSIX_C_SOURCE 200809L
#include <iosiap/iosiap.h>

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "expect.h"
#include "wait_for.h"

static const char *gold = "com.iosiap.example.club_gold_monthly";
static const char *coins = "com.iosiap.example.coins_100";
static const char *token = "5f0e8d3a-1c2b-4d5e-8f90-a1b2c3d4e5f6";
static int last_status, last_offer_type;
static uint64_t last_transaction;
static char last_offer_id[64];

static void on_event(const iosiap_event *event, void *user_data) {
    (void)user_data;
    count_event(event);
    last_status = event->status;
    if (event->transaction) {
        const iosiap_transaction *t = event->transaction;
        last_transaction = t->id;
        /* A library older than the header fills less: read the offer only when it is there. */
        last_offer_type = t->size > offsetof(iosiap_transaction, offer_id) ? t->offer_type : -1;
        snprintf(last_offer_id, sizeof last_offer_id, "%s",
                 t->size > offsetof(iosiap_transaction, offer_id) && t->offer_id ? t->offer_id : "");
    }
}

static iosiap_payment_options offer_options(const iosiap_offer_signature *signed_offer, const char *offer_id) {
    iosiap_payment_options options = IOSIAP_PAYMENT_OPTIONS_INIT;
    options.app_account_token = token;
    options.offer_id = offer_id;
    options.offer_key_id = signed_offer->key_id;
    options.offer_nonce = signed_offer->nonce;
    options.offer_timestamp_ms = signed_offer->timestamp_ms;
    options.offer_signature = signed_offer->signature;
    return options;
}

int main(int argc, char **argv) {
    iosiap_local_store_options open_options = IOSIAP_LOCAL_STORE_OPTIONS_INIT;
    iosiap_callbacks callbacks = IOSIAP_CALLBACKS_INIT;
    iosiap_store *store = NULL;
    const char *ids[2];
    iosiap_offer_signature signed_offer = IOSIAP_OFFER_SIGNATURE_INIT, tampered = IOSIAP_OFFER_SIGNATURE_INIT;
    iosiap_payment_options options;
    uint64_t request = 0;

    if (argc != 3 && argc != 7) return 2;
    ids[0] = gold;
    ids[1] = coins;
    open_options.catalog_path = argv[1];
    open_options.state_directory = argv[2];
    callbacks.on_event = on_event;
    if (iosiap_store_open_local(&store, &open_options, &callbacks) != IOSIAP_OK) return 1;
    EXPECT(iosiap_request_products(NULL, store, ids, 2) == IOSIAP_OK);
    EXPECT(wait_for(store, IOSIAP_EVENT_PRODUCTS_RECEIVED));

    /* A lapsed subscriber: the free week, then its end. */
    EXPECT(iosiap_request_payment(NULL, store, gold, 1, NULL) == IOSIAP_OK);
    EXPECT(wait_for(store, IOSIAP_EVENT_PURCHASED) && last_offer_type == IOSIAP_OFFER_TYPE_INTRODUCTORY);
    EXPECT(iosiap_finish_transaction(store, last_transaction) == IOSIAP_OK);
    EXPECT(iosiap_local_expire_subscription(store, gold) == IOSIAP_OK);
    EXPECT(wait_for(store, IOSIAP_EVENT_EXPIRED));

    /* The offer, signed as the game's server would, redeemed: the transaction says which offer it used. */
    EXPECT(iosiap_local_sign_promotional_offer(&signed_offer, store, gold, "club_gold_winback", token) == IOSIAP_OK);
    EXPECT(signed_offer.size == sizeof signed_offer && strcmp(signed_offer.key_id, "6C3F0A92") == 0);
    EXPECT(strlen(signed_offer.nonce) == 36 && strlen(signed_offer.signature) > 80 && signed_offer.timestamp_ms > 0);
    options = offer_options(&signed_offer, "club_gold_winback");
    EXPECT(iosiap_request_payment_with_options(&request, store, gold, &options) == IOSIAP_OK && request > 0);
    EXPECT(wait_for(store, IOSIAP_EVENT_PURCHASED));
    EXPECT(last_offer_type == IOSIAP_OFFER_TYPE_PROMOTIONAL && strcmp(last_offer_id, "club_gold_winback") == 0);
    EXPECT(iosiap_finish_transaction(store, last_transaction) == IOSIAP_OK);

    /* The same signature again: each nonce is good once. */
    EXPECT(iosiap_request_payment_with_options(NULL, store, gold, &options) == IOSIAP_OK);
    EXPECT(wait_for(store, IOSIAP_EVENT_FAILED) && last_status == IOSIAP_E_SK_INVALID_SIGNATURE);
    EXPECT(strstr(iosiap_status_text(last_status), "signature") != NULL);

    /* A forged signature (one character changed) and another account token fail in the store. */
    EXPECT(iosiap_local_expire_subscription(store, gold) == IOSIAP_OK);
    EXPECT(wait_for(store, IOSIAP_EVENT_EXPIRED));
    EXPECT(iosiap_local_sign_promotional_offer(&signed_offer, store, gold, "club_gold_winback", token) == IOSIAP_OK);
    tampered = signed_offer;
    tampered.signature[10] = tampered.signature[10] == 'A' ? 'B' : 'A';
    options = offer_options(&tampered, "club_gold_winback");
    EXPECT(iosiap_request_payment_with_options(NULL, store, gold, &options) == IOSIAP_OK);
    EXPECT(wait_for(store, IOSIAP_EVENT_FAILED) && last_status == IOSIAP_E_SK_INVALID_SIGNATURE);
    options = offer_options(&signed_offer, "club_gold_winback");
    options.app_account_token = NULL;
    EXPECT(iosiap_request_payment_with_options(NULL, store, gold, &options) == IOSIAP_OK);
    EXPECT(wait_for(store, IOSIAP_EVENT_FAILED) && last_status == IOSIAP_E_SK_INVALID_SIGNATURE);

    /* Bad options are refused before anything is queued. */
    options = offer_options(&signed_offer, "club_gold_winback");
    EXPECT(iosiap_request_payment_with_options(NULL, store, gold, NULL) == IOSIAP_E_INVALID_ARGUMENT);
    options.version = 99;
    EXPECT(iosiap_request_payment_with_options(NULL, store, gold, &options) == IOSIAP_E_INVALID_ARGUMENT);
    EXPECT(strstr(iosiap_last_error_message(), "IOSIAP_PAYMENT_OPTIONS_INIT") != NULL);
    options = offer_options(&signed_offer, "club_gold_winback");
    options.offer_key_id = NULL;
    EXPECT(iosiap_request_payment_with_options(NULL, store, gold, &options) == IOSIAP_E_SK_MISSING_OFFER_PARAMS);
    EXPECT(strstr(iosiap_last_error_message(), "offer_key_id") != NULL);
    options = offer_options(&signed_offer, "club_gold_winback");
    options.offer_timestamp_ms = 0;
    EXPECT(iosiap_request_payment_with_options(NULL, store, gold, &options) == IOSIAP_E_SK_MISSING_OFFER_PARAMS);
    options = offer_options(&signed_offer, "club_gold_winback");
    options.offer_nonce = "not-a-uuid";
    EXPECT(iosiap_request_payment_with_options(NULL, store, gold, &options) == IOSIAP_E_INVALID_ARGUMENT);
    options = offer_options(&signed_offer, "club_gold_winback");
    options.offer_signature = "%%% not base64 %%%";
    EXPECT(iosiap_request_payment_with_options(NULL, store, gold, &options) == IOSIAP_E_INVALID_ARGUMENT);
    options = offer_options(&signed_offer, "no_such_offer");
    EXPECT(iosiap_request_payment_with_options(NULL, store, gold, &options) == IOSIAP_E_SK_INVALID_OFFER_IDENTIFIER);
    options = offer_options(&signed_offer, "club_gold_winback");
    EXPECT(iosiap_request_payment_with_options(NULL, store, coins, &options) == IOSIAP_E_SK_INVALID_OFFER_IDENTIFIER);
    options.quantity = 0;
    options.offer_id = NULL;
    EXPECT(iosiap_request_payment_with_options(NULL, store, coins, &options) == IOSIAP_E_QUANTITY_OUT_OF_RANGE);
    EXPECT(iosiap_local_sign_promotional_offer(NULL, store, gold, "club_gold_winback", NULL) == IOSIAP_E_INVALID_ARGUMENT);
    EXPECT(iosiap_local_sign_promotional_offer(&signed_offer, store, gold, "nope", NULL) == IOSIAP_E_SK_INVALID_OFFER_IDENTIFIER);
    EXPECT(iosiap_local_sign_promotional_offer(&signed_offer, store, "com.iosiap.example.nope", "club_gold_winback", NULL) ==
           IOSIAP_E_UNKNOWN_PRODUCT);

    /* Without an offer the options are a plain payment. */
    options = offer_options(&signed_offer, NULL);
    options.quantity = 3;
    EXPECT(iosiap_request_payment_with_options(NULL, store, coins, &options) == IOSIAP_OK);
    EXPECT(wait_for(store, IOSIAP_EVENT_PURCHASED) && last_offer_type == IOSIAP_OFFER_TYPE_NONE && last_offer_id[0] == 0);
    EXPECT(iosiap_finish_transaction(store, last_transaction) == IOSIAP_OK);

    /* An offer signed by Apple's own library is one this store accepts. */
    if (argc == 7) {
        options = offer_options(&signed_offer, "club_gold_winback");
        options.app_account_token = NULL;
        options.offer_key_id = argv[3];
        options.offer_nonce = argv[4];
        options.offer_timestamp_ms = strtoll(argv[5], NULL, 10);
        options.offer_signature = argv[6];
        EXPECT(iosiap_request_payment_with_options(NULL, store, gold, &options) == IOSIAP_OK);
        EXPECT(wait_for(store, IOSIAP_EVENT_PURCHASED) && last_offer_type == IOSIAP_OFFER_TYPE_PROMOTIONAL);
        EXPECT(iosiap_finish_transaction(store, last_transaction) == IOSIAP_OK);
    }

    iosiap_store_close(store);
    printf("offers: %d checks, %d failed\n", checks, failures);
    return failures == 0 ? 0 : 1;
}
