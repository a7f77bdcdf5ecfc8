/*
 * StoreKit 26's JWS-signed offers through the C ABI (iosiap_payment_options version 4), each signed by Apple's own
 * server library: an introductory offer eligibility JWS that denies a new user the free week and one that grants
 * it to a lapsed subscriber, then a promotional offer signed as a JWS; every bad one refused without a charge.
 * The JWS are signed as the test goes, by SIGNER (a command: Apple's library, see
 * Tests/python/sign_offer_with_apple_library.py), because they name a transaction of the user: the app
 * transaction's id before the first purchase, that purchase's id after it.
 * Built with IOSIAP_STOREKIT_STANDIN against the stand-in's libiosiap (scripts/test-storekit-standin.sh), the same
 * over StoreKit (Product.PurchaseOption.promotionalOffer(_:compactJWS:), introductoryOfferEligibility(compactJWS:),
 * checked by the stand-in's App Store against the catalog's subscriptionOffersKeyPair), where QA's changes are made by
 * `iosiap-store` (IOSIAP_STORE; the local store's C controls otherwise).
 * usage: offers_jws CATALOG STATE_DIRECTORY IOSIAP_STORE SIGNER
 */
#define _POSIX_C_SOURCE 200809L
#include <iosiap/iosiap.h>

#include <inttypes.h>
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
static const char *winback = "club_gold_winback";
static int last_status, last_offer_type;
static uint64_t last_transaction;
static char last_offer_id[64];
static const char *signer, *catalog;

static void on_event(const iosiap_event *event, void *user_data) {
    (void)user_data;
    count_event(event);
    last_status = event->status;
    if (event->transaction) {
        last_transaction = event->transaction->id;
        last_offer_type = event->transaction->offer_type;
        snprintf(last_offer_id, sizeof last_offer_id, "%s", event->transaction->offer_id ? event->transaction->offer_id : "");
    }
}

/* The compact JWS SIGNER prints in `mode` ("--jws" or "--intro") for `arguments` (after its catalog and bundle
   id), in `out`; 1 if it printed one. */
static int sign(char *out, size_t size, const char *mode, const char *arguments) {
    char command[2048];
    FILE *pipe;
    int ok;
    snprintf(command, sizeof command, "%s %s '%s' com.example.game %s", signer, mode, catalog, arguments);
    pipe = popen(command, "r");
    if (!pipe) return 0;
    ok = fgets(out, (int)size, pipe) != NULL;
    if (pclose(pipe) != 0) ok = 0;
    out[strcspn(out, "\n")] = '\0';
    return ok && strchr(out, '.') != NULL;
}

/* Pays for gold with version 4 options and waits for its end: PURCHASED or FAILED (which one, in last_status). */
static int pay(iosiap_store *store, const iosiap_payment_options *options) {
    int purchased = count_kind[IOSIAP_EVENT_PURCHASED], failed = count_kind[IOSIAP_EVENT_FAILED], frame;
    if (iosiap_request_payment_with_options(NULL, store, gold, options) != IOSIAP_OK) return 0;
    for (frame = 0; frame < 2500; frame++) {
        iosiap_poll(store, 0);
        if (count_kind[IOSIAP_EVENT_PURCHASED] > purchased) return 1;
        if (count_kind[IOSIAP_EVENT_FAILED] > failed) return 1;
        between_frames(2);
    }
    return 0;
}

/* Gold finished, then expired by QA, and the game knows it ended. */
static void lapse(iosiap_store *store) {
    EXPECT(iosiap_finish_transaction(store, last_transaction) == IOSIAP_OK);
    EXPECT(QA(iosiap_local_expire_subscription(store, gold), "expire " GOLD));
    EXPECT(subscription_ended(store, CLUB));
}

int main(int argc, char **argv) {
    iosiap_store *store = NULL;
    const char *ids[1];
    iosiap_app_transaction_info *app = NULL;
    iosiap_payment_options options;
    char deny[2048], allow[2048], offer[2048], stranger[2048], tampered[2048], arguments[512], *long_jws;
    uint64_t first;
    int charged;

    if (argc != 5) return 2;
    catalog = argv[1];
    signer = argv[4];
    use_store_tool(argv[3], argv[2], argv[1]);
    store = open_test_store(argv[1], argv[2], NULL, on_event);
    if (!store) return 1;
    ids[0] = gold;
    EXPECT(iosiap_request_products(NULL, store, ids, 1) == IOSIAP_OK);
    EXPECT(wait_for(store, IOSIAP_EVENT_PRODUCTS_RECEIVED));

    /* A new user, whom the App Store's rule gives the free week, denied it by the game's server: the full price. */
    EXPECT(iosiap_app_transaction(&app, store) == IOSIAP_OK && app && app->app_transaction_id);
    snprintf(arguments, sizeof arguments, "%s deny %s", gold, app && app->app_transaction_id ? app->app_transaction_id : "");
    iosiap_app_transaction_free(app);
    EXPECT(sign(deny, sizeof deny, "--intro", arguments));
    options = (iosiap_payment_options)IOSIAP_PAYMENT_OPTIONS_INIT;
    EXPECT(options.version == 4);
    options.intro_offer_eligibility_jws = deny;
    EXPECT(pay(store, &options) && last_status == IOSIAP_OK && last_offer_type == IOSIAP_OFFER_TYPE_NONE);
    first = last_transaction;
    lapse(store);

    /* The same JWS again: its nonce is spent. */
    EXPECT(pay(store, &options) && last_status == IOSIAP_E_SK_INVALID_SIGNATURE);

    /* A lapsed subscriber, whom the rule refuses the free week, granted it: the introductory offer. */
    snprintf(arguments, sizeof arguments, "%s allow %" PRIu64, gold, first);
    EXPECT(sign(allow, sizeof allow, "--intro", arguments));
    options.intro_offer_eligibility_jws = allow;
    EXPECT(pay(store, &options) && last_status == IOSIAP_OK && last_offer_type == IOSIAP_OFFER_TYPE_INTRODUCTORY);
    lapse(store);

    /* A JWS naming a transaction that is not the user's, and one with a changed signature: refused, nothing charged. */
    charged = iosiap_transaction_history(store, NULL, NULL);
    snprintf(arguments, sizeof arguments, "%s allow 987654321", gold);
    EXPECT(sign(stranger, sizeof stranger, "--intro", arguments));
    options.intro_offer_eligibility_jws = stranger;
    EXPECT(pay(store, &options) && last_status == IOSIAP_E_SK_INVALID_SIGNATURE);
    EXPECT(strstr(iosiap_status_text(last_status), "signature") != NULL);
    snprintf(arguments, sizeof arguments, "%s %s %" PRIu64, gold, winback, first);
    EXPECT(sign(offer, sizeof offer, "--jws", arguments));
    memcpy(tampered, offer, sizeof tampered);
    tampered[strlen(tampered) - 3] = tampered[strlen(tampered) - 3] == 'A' ? 'B' : 'A';
    options = (iosiap_payment_options)IOSIAP_PAYMENT_OPTIONS_INIT;
    options.offer_id = winback;
    options.offer_jws = tampered;
    EXPECT(pay(store, &options) && last_status == IOSIAP_E_SK_INVALID_SIGNATURE);
    EXPECT(iosiap_transaction_history(store, NULL, NULL) == charged);

    /* The promotional offer signed as a JWS, redeemed: the transaction says which offer it used. */
    options.offer_jws = offer;
    EXPECT(pay(store, &options) && last_status == IOSIAP_OK);
    EXPECT(last_offer_type == IOSIAP_OFFER_TYPE_PROMOTIONAL && strcmp(last_offer_id, winback) == 0);
    EXPECT(iosiap_finish_transaction(store, last_transaction) == IOSIAP_OK);

    /* Bad options are refused before anything is queued (by the C ABI and the core, before either store: the
       message checked is theirs, Sources/IOSiAPExports/PaymentOptions.swift). */
    options.offer_id = NULL;
    EXPECT(iosiap_request_payment_with_options(NULL, store, gold, &options) == IOSIAP_E_SK_MISSING_OFFER_PARAMS);
    EXPECT(strstr(iosiap_last_error_message(), "offer_id") != NULL);
    options.offer_id = winback;
    options.offer_key_id = "6C3F0A92";
    EXPECT(iosiap_request_payment_with_options(NULL, store, gold, &options) == IOSIAP_E_INVALID_ARGUMENT);
    options.offer_key_id = NULL;
    options.win_back_offer_id = "club_gold_come_back";
    EXPECT(iosiap_request_payment_with_options(NULL, store, gold, &options) == IOSIAP_E_INVALID_ARGUMENT);
    options.win_back_offer_id = NULL;
    options.offer_jws = "";
    EXPECT(iosiap_request_payment_with_options(NULL, store, gold, &options) == IOSIAP_E_SK_MISSING_OFFER_PARAMS);
    long_jws = malloc(IOSIAP_MAX_OFFER_JWS_LENGTH + 2);
    EXPECT(long_jws != NULL);
    if (long_jws) {
        memset(long_jws, 'j', IOSIAP_MAX_OFFER_JWS_LENGTH + 1);
        long_jws[IOSIAP_MAX_OFFER_JWS_LENGTH + 1] = '\0';
        options.offer_jws = long_jws;
        EXPECT(iosiap_request_payment_with_options(NULL, store, gold, &options) == IOSIAP_E_STRING_TOO_LONG);
        options.offer_jws = NULL;
        options.offer_id = NULL;
        options.intro_offer_eligibility_jws = long_jws;
        EXPECT(iosiap_request_payment_with_options(NULL, store, gold, &options) == IOSIAP_E_STRING_TOO_LONG);
        free(long_jws);
    }

    iosiap_store_close(store);
    printf("offers_jws: %d checks, %d failed\n", checks, failures);
    return failures == 0 ? 0 : 1;
}
