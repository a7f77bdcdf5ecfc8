/*
 * Promotional offers through the C ABI: signed, redeemed with iosiap_request_payment_with_options, carried
 * by the transaction, and every bad offer refused without a charge. With four more arguments (an offer
 * signed by Apple's own library: KEY_ID NONCE TIMESTAMP_MS SIGNATURE) it also redeems that one.
 * Built with IOSIAP_STOREKIT_STANDIN against the stand-in's libiosiap (scripts/test-storekit-standin.sh), the same
 * over StoreKit (Product.PurchaseOption.promotionalOffer(offerID:signature:), checked by the stand-in's App Store
 * against the catalog's subscriptionOffersKeyPair), where QA's changes are made and offers signed by `iosiap-store`.
 * usage: offers CATALOG STATE_DIRECTORY IOSIAP_STORE [KEY_ID NONCE TIMESTAMP_MS SIGNATURE]
 */
#define _POSIX_C_SOURCE 200809L
#include <iosiap/iosiap.h>

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "expect.h"
#include "store_tool.h"
#include "wait_for.h"

#define GOLD "com.iosiap.example.club_gold_monthly"
#define CLUB "5E1A7C01" /* gold's subscription group */
static const char *gold = GOLD;
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

/* Gold's offer `offer_id` signed for the account token as the game's server would, with the catalog's key: the local
   store's C control, or over StoreKit (where the C controls do not reach) `iosiap-store sign-offer`, its row read
   into *out (IOSIAP_E_SYSTEM when the tool failed). */
static int sign_offer(iosiap_offer_signature *out, iosiap_store *store, const char *offer_id) {
#ifdef IOSIAP_STOREKIT_STANDIN
    char command[4096], heading[512], signed_id[64];
    long long timestamp = 0;
    FILE *listing;
    int parsed;
    (void)store;
    snprintf(command, sizeof command, "'%s' --state '%s' --catalog '%s' sign-offer %s %s %s", store_tool, store_tool_state,
             store_tool_catalog, gold, offer_id, token);
    if (!(listing = popen(command, "r"))) return IOSIAP_E_SYSTEM;
    parsed = fgets(heading, sizeof heading, listing) != NULL &&
           fscanf(listing, "%63s %63s %39s %lld %127s", signed_id, out->key_id, out->nonce, &timestamp, out->signature) == 5;
    if (pclose(listing) != 0 || !parsed) return IOSIAP_E_SYSTEM;
    out->timestamp_ms = timestamp;
    out->size = sizeof *out;
    return IOSIAP_OK;
#else
    return iosiap_local_sign_promotional_offer(out, store, gold, offer_id, token);
#endif
}

int main(int argc, char **argv) {
    iosiap_store *store = NULL;
    const char *ids[2];
    iosiap_offer_signature signed_offer = IOSIAP_OFFER_SIGNATURE_INIT, tampered = IOSIAP_OFFER_SIGNATURE_INIT;
    iosiap_payment_options options;
    uint64_t request = 0;

    if (argc != 4 && argc != 8) return 2;
    ids[0] = gold;
    ids[1] = coins;
    use_store_tool(argv[3], argv[2], argv[1]);
    if ((store = open_test_store(argv[1], argv[2], NULL, on_event)) == NULL) return 1;
    EXPECT(iosiap_request_products(NULL, store, ids, 2) == IOSIAP_OK);
    EXPECT(wait_for(store, IOSIAP_EVENT_PRODUCTS_RECEIVED));

    /* A lapsed subscriber: the free week, then its end. */
    EXPECT(iosiap_request_payment(NULL, store, gold, 1, NULL) == IOSIAP_OK);
    EXPECT(wait_for(store, IOSIAP_EVENT_PURCHASED) && last_offer_type == IOSIAP_OFFER_TYPE_INTRODUCTORY);
    EXPECT(iosiap_finish_transaction(store, last_transaction) == IOSIAP_OK);
    EXPECT(QA(iosiap_local_expire_subscription(store, gold), "expire " GOLD));
    EXPECT(subscription_ended(store, CLUB));

    /* The offer, signed as the game's server would, redeemed: the transaction says which offer it used. */
    EXPECT(sign_offer(&signed_offer, store, "club_gold_winback") == IOSIAP_OK);
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
    EXPECT(QA(iosiap_local_expire_subscription(store, gold), "expire " GOLD));
    EXPECT(subscription_ended(store, CLUB));
    EXPECT(sign_offer(&signed_offer, store, "club_gold_winback") == IOSIAP_OK);
    tampered = signed_offer;
    tampered.signature[10] = tampered.signature[10] == 'A' ? 'B' : 'A';
    options = offer_options(&tampered, "club_gold_winback");
    EXPECT(iosiap_request_payment_with_options(NULL, store, gold, &options) == IOSIAP_OK);
    EXPECT(wait_for(store, IOSIAP_EVENT_FAILED) && last_status == IOSIAP_E_SK_INVALID_SIGNATURE);
    options = offer_options(&signed_offer, "club_gold_winback");
    options.app_account_token = NULL;
    EXPECT(iosiap_request_payment_with_options(NULL, store, gold, &options) == IOSIAP_OK);
    EXPECT(wait_for(store, IOSIAP_EVENT_FAILED) && last_status == IOSIAP_E_SK_INVALID_SIGNATURE);

    /* Bad options are refused before anything is queued (by the C ABI and the core, before either store: the
       messages checked are theirs, Sources/IOSiAPExports/PaymentOptions.swift). */
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
    options.offer_signature = "";  /* empty is missing, as NULL is */
    EXPECT(iosiap_request_payment_with_options(NULL, store, gold, &options) == IOSIAP_E_SK_MISSING_OFFER_PARAMS);
    EXPECT(strstr(iosiap_last_error_message(), "offer_signature") != NULL);
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
#ifndef IOSIAP_STOREKIT_STANDIN /* the C control's own refusals */
    EXPECT(iosiap_local_sign_promotional_offer(NULL, store, gold, "club_gold_winback", NULL) == IOSIAP_E_INVALID_ARGUMENT);
    EXPECT(iosiap_local_sign_promotional_offer(&signed_offer, store, gold, "nope", NULL) == IOSIAP_E_SK_INVALID_OFFER_IDENTIFIER);
    EXPECT(iosiap_local_sign_promotional_offer(&signed_offer, store, "com.iosiap.example.nope", "club_gold_winback", NULL) ==
           IOSIAP_E_UNKNOWN_PRODUCT);
#endif

    /* Without an offer the options are a plain payment. */
    options = offer_options(&signed_offer, NULL);
    options.quantity = 3;
    EXPECT(iosiap_request_payment_with_options(NULL, store, coins, &options) == IOSIAP_OK);
    EXPECT(wait_for(store, IOSIAP_EVENT_PURCHASED) && last_offer_type == IOSIAP_OFFER_TYPE_NONE && last_offer_id[0] == 0);
    EXPECT(iosiap_finish_transaction(store, last_transaction) == IOSIAP_OK);

    /* An offer signed by Apple's own library is one this store accepts. */
    if (argc == 8) {
        options = offer_options(&signed_offer, "club_gold_winback");
        options.app_account_token = NULL;
        options.offer_key_id = argv[4];
        options.offer_nonce = argv[5];
        options.offer_timestamp_ms = strtoll(argv[6], NULL, 10);
        options.offer_signature = argv[7];
        EXPECT(iosiap_request_payment_with_options(NULL, store, gold, &options) == IOSIAP_OK);
        EXPECT(wait_for(store, IOSIAP_EVENT_PURCHASED) && last_offer_type == IOSIAP_OFFER_TYPE_PROMOTIONAL);
        EXPECT(iosiap_finish_transaction(store, last_transaction) == IOSIAP_OK);
    }

    iosiap_store_close(store);
    printf("offers: %d checks, %d failed\n", checks, failures);
    return failures == 0 ? 0 : 1;
}
