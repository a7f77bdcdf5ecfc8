/*
 * Drives every kind of bad input through the C ABI and checks each gets its status code and a message,
 * never a crash and never a charge.
 * Built with IOSIAP_STOREKIT_STANDIN against the stand-in's libiosiap (scripts/test-storekit-standin.sh), the same
 * over StoreKit once the store is open, opened with iosiap_store_open_storekit (its own bad options instead of
 * iosiap_store_open_local's), its App Store the local store on CATALOG in STATE_DIRECTORY, the journal in
 * STATE_DIRECTORY/device. Messages are checked in both builds where the C ABI layer (Sources/IOSiAPExports) words
 * them, in the local build alone where the core or the local store does (LOCAL_TEXT).
 * usage: bad_input CATALOG.storekit STATE_DIRECTORY [IOSIAP_STORE]
 * (IOSIAP_STORE is not used: scripts/test-storekit-standin.sh passes it to every test it runs.)
 */
#define _POSIX_C_SOURCE 200809L /* nanosleep, setenv */
#include <iosiap/iosiap.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wait_for.h"

#ifdef IOSIAP_STOREKIT_STANDIN
#define LOCAL_TEXT(fragment) NULL /* worded by the core or the local store, not the C ABI layer: not checked here */
#else
#define LOCAL_TEXT(fragment) (fragment)
#endif

static int failures = 0;
static int checks = 0;

#define EXPECT_STATUS(call, expected, fragment) expect_status((call), (expected), (fragment), #call, __LINE__)

static void expect_status(int actual, int expected, const char *fragment, const char *call, int line) {
    const char *message = iosiap_last_error_message();
    checks++;
    if (actual != expected) {
        fprintf(stderr, "line %d: %s returned %d (%s), expected %d\n", line, call, actual, message, expected);
        failures++;
    } else if (fragment && !strstr(message, fragment)) {
        fprintf(stderr, "line %d: %s: message \"%s\" does not mention \"%s\"\n", line, call, message, fragment);
        failures++;
    }
}

static void expect_true(int condition, const char *what, int line) {
    checks++;
    if (!condition) {
        fprintf(stderr, "line %d: expected %s\n", line, what);
        failures++;
    }
}
#define EXPECT(condition) expect_true((condition), #condition, __LINE__)

typedef struct counts {
    int products;
    int purchased;
    int terminal;
} counts;

static void count_seen(const iosiap_event *event, void *user_data) {
    counts *c = (counts *)user_data;
    if (event->kind == IOSIAP_EVENT_PRODUCTS_RECEIVED) c->products++;
    if (event->kind == IOSIAP_EVENT_PURCHASED) c->purchased++;
    if (event->kind != IOSIAP_EVENT_PURCHASING) c->terminal++;
}

static void poll_for(iosiap_store *store, int milliseconds) {
    int waited;
    for (waited = 0; waited < milliseconds; waited += 5) {
        iosiap_poll(store, 0);
        between_frames(5);
    }
}

int main(int argc, char **argv) {
#ifdef IOSIAP_STOREKIT_STANDIN
    iosiap_storekit_options options = IOSIAP_STOREKIT_OPTIONS_INIT;
    iosiap_verification_options verification = IOSIAP_VERIFICATION_OPTIONS_INIT;
    char journal[4096];
#else
    iosiap_local_store_options options = IOSIAP_LOCAL_STORE_OPTIONS_INIT;
    char malformed_path[512];
    FILE *malformed;
#endif
    iosiap_callbacks callbacks = IOSIAP_CALLBACKS_INIT;
    iosiap_store *store = NULL;
    iosiap_store *threaded = NULL;
    const iosiap_product *product = NULL;
    const iosiap_product *gold = NULL;
    const char *gold_id[] = {"com.iosiap.example.club_gold_monthly"};
    iosiap_offer offer = IOSIAP_OFFER_INIT;
    int period_value = 0, period_unit = -1;
    counts seen = {0, 0, 0};
    uint64_t request = 0;
    int entitled = -1;
    char long_id[300];
    char threaded_state[512];
    const char *good_ids[] = {"com.iosiap.example.coins_100", "com.iosiap.example.pro_upgrade"};
    const char *null_element[] = {"com.iosiap.example.coins_100", NULL};
    const char *bad_utf8[] = {"com.iosiap.\xff\xfe"};
    const char *empty_id[] = {""};
    const char *too_long[] = {long_id};

    if (argc != 3 && argc != 4) return 2;
    /* wait_for.h's counting by kind is not used: events are counted in `seen` here. */
    (void)count_event;
    (void)wait_for;
    memset(long_id, 'x', sizeof long_id - 1);
    long_id[IOSIAP_MAX_PRODUCT_ID_LENGTH + 1] = '\0';

    EXPECT(iosiap_version() == IOSIAP_VERSION_NUMBER);
    EXPECT(strcmp(iosiap_status_text(IOSIAP_OK), "ok") == 0);
    EXPECT(strcmp(iosiap_status_text(IOSIAP_E_SK_PAYMENT_CANCELLED), "payment cancelled by the user") == 0);
    EXPECT(strcmp(iosiap_status_text(12345), "unknown status code") == 0);

    /* Opening. */
    callbacks.on_event = count_seen;
    callbacks.user_data = &seen;
#ifdef IOSIAP_STOREKIT_STANDIN /* iosiap_store_open_local's options (catalog, storefront) are the local store's own */
    /* iosiap_store_open_storekit's own arguments (iosiap.h: its out-parameter, options and callbacks versions,
       delivery mode, verification options, UTF-8 strings), each refused before anything opens. Its App Store: the
       local store on CATALOG in STATE_DIRECTORY, as open_test_store (expect.h) has it. */
    setenv("IOSIAP_STOREKIT_CONFIGURATION", argv[1], 0);
    setenv("IOSIAP_STOREKIT_STATE", argv[2], 0);
    snprintf(journal, sizeof journal, "%s/device", argv[2]);
    options.state_directory = journal;
    EXPECT_STATUS(iosiap_store_open_storekit(NULL, &options, &callbacks), IOSIAP_E_INVALID_ARGUMENT, "out is NULL");
    EXPECT_STATUS(iosiap_store_open_storekit(&store, NULL, &callbacks), IOSIAP_E_INVALID_ARGUMENT, "options is NULL");
    options.version = 99;
    EXPECT_STATUS(iosiap_store_open_storekit(&store, &options, &callbacks), IOSIAP_E_INVALID_ARGUMENT, "options version 99");
    options.version = IOSIAP_STOREKIT_OPTIONS_VERSION;
    callbacks.version = 0;
    EXPECT_STATUS(iosiap_store_open_storekit(&store, &options, &callbacks), IOSIAP_E_INVALID_ARGUMENT, "callbacks version 0");
    callbacks.version = IOSIAP_CALLBACKS_VERSION;
    options.delivery = 7;
    EXPECT_STATUS(iosiap_store_open_storekit(&store, &options, &callbacks), IOSIAP_E_INVALID_ARGUMENT, "delivery 7");
    options.delivery = IOSIAP_DELIVERY_POLL;
    verification.mode = 9;
    options.verification = &verification;
    EXPECT_STATUS(iosiap_store_open_storekit(&store, &options, &callbacks), IOSIAP_E_INVALID_ARGUMENT, "verification.mode 9");
    options.verification = NULL;
    options.state_directory = "/tmp/\xc3\x28";
    EXPECT_STATUS(iosiap_store_open_storekit(&store, &options, &callbacks), IOSIAP_E_INVALID_UTF8, "options.state_directory");
    EXPECT(store == NULL);
    options.state_directory = journal;
    EXPECT_STATUS(iosiap_store_open_storekit(&store, &options, &callbacks), IOSIAP_OK, NULL);
#else
    options.catalog_path = argv[1];
    options.state_directory = argv[2];
    EXPECT_STATUS(iosiap_store_open_local(NULL, &options, &callbacks), IOSIAP_E_INVALID_ARGUMENT, "out is NULL");
    EXPECT_STATUS(iosiap_store_open_local(&store, NULL, &callbacks), IOSIAP_E_INVALID_ARGUMENT, "options is NULL");
    options.version = 99;
    EXPECT_STATUS(iosiap_store_open_local(&store, &options, &callbacks), IOSIAP_E_INVALID_ARGUMENT, "options version 99");
    options.version = IOSIAP_LOCAL_STORE_OPTIONS_VERSION;
    callbacks.version = 0;
    EXPECT_STATUS(iosiap_store_open_local(&store, &options, &callbacks), IOSIAP_E_INVALID_ARGUMENT, "callbacks version 0");
    callbacks.version = IOSIAP_CALLBACKS_VERSION;
    options.delivery = 7;
    EXPECT_STATUS(iosiap_store_open_local(&store, &options, &callbacks), IOSIAP_E_INVALID_ARGUMENT, "delivery 7");
    options.delivery = IOSIAP_DELIVERY_POLL;
    options.catalog_path = NULL;
    EXPECT_STATUS(iosiap_store_open_local(&store, &options, &callbacks), IOSIAP_E_INVALID_ARGUMENT, "options.catalog_path is NULL");
    options.catalog_path = "/tmp/\xc3\x28.storekit";
    EXPECT_STATUS(iosiap_store_open_local(&store, &options, &callbacks), IOSIAP_E_INVALID_UTF8, "options.catalog_path");
    options.catalog_path = "/nonexistent/Products.storekit";
    EXPECT_STATUS(iosiap_store_open_local(&store, &options, &callbacks), IOSIAP_E_CATALOG_NOT_READABLE, "/nonexistent/Products.storekit");
    EXPECT(store == NULL);
    snprintf(malformed_path, sizeof malformed_path, "%s-malformed.storekit", argv[2]);
    malformed = fopen(malformed_path, "w");
    if (!malformed) return 2;
    fputs("{\"products\": [{\"productID\": \"a\", \"displayPrice\": \"cheap\", \"type\": \"Consumable\"}]}", malformed);
    fclose(malformed);
    options.catalog_path = malformed_path;
    EXPECT_STATUS(iosiap_store_open_local(&store, &options, &callbacks), IOSIAP_E_INVALID_CATALOG, ".products[0].displayPrice");
    options.catalog_path = argv[1];
    options.storefront = "XYZ";
    EXPECT_STATUS(iosiap_store_open_local(&store, &options, &callbacks), IOSIAP_E_INVALID_ARGUMENT, "unknown storefront 'XYZ'");
    options.storefront = NULL;
    EXPECT_STATUS(iosiap_store_open_local(&store, &options, &callbacks), IOSIAP_OK, NULL);
#endif
    if (!store) return 1;

    /* Products requests. */
    EXPECT_STATUS(iosiap_request_products(&request, NULL, good_ids, 2), IOSIAP_E_INVALID_ARGUMENT, "store is NULL");
    EXPECT_STATUS(iosiap_request_products(&request, store, NULL, 2), IOSIAP_E_INVALID_ARGUMENT, "product_ids is NULL");
    EXPECT_STATUS(iosiap_request_products(&request, store, good_ids, 0), IOSIAP_E_INVALID_ARGUMENT, "count is 0");
    EXPECT_STATUS(iosiap_request_products(&request, store, good_ids, IOSIAP_MAX_PRODUCTS_PER_REQUEST + 1),
                  IOSIAP_E_INVALID_ARGUMENT, "count 1001");
    EXPECT_STATUS(iosiap_request_products(&request, store, null_element, 2), IOSIAP_E_INVALID_ARGUMENT, "product_ids[1] is NULL");
    EXPECT_STATUS(iosiap_request_products(&request, store, bad_utf8, 1), IOSIAP_E_INVALID_UTF8, "product_ids[0]");
    EXPECT_STATUS(iosiap_request_products(&request, store, empty_id, 1), IOSIAP_E_INVALID_ARGUMENT, LOCAL_TEXT("empty"));
    EXPECT_STATUS(iosiap_request_products(&request, store, too_long, 1), IOSIAP_E_STRING_TOO_LONG, "longer than 255");

    /* Payments before the products are loaded, then with bad arguments. */
    EXPECT_STATUS(iosiap_request_payment(&request, store, "com.iosiap.example.coins_100", 1, NULL), IOSIAP_E_UNKNOWN_PRODUCT, LOCAL_TEXT("request it first"));
    EXPECT_STATUS(iosiap_request_products(&request, store, good_ids, 2), IOSIAP_OK, NULL);
    while (seen.products == 0) poll_for(store, 10);
    EXPECT_STATUS(iosiap_request_payment(&request, store, NULL, 1, NULL), IOSIAP_E_INVALID_ARGUMENT, "product_id is NULL");
    EXPECT_STATUS(iosiap_request_payment(&request, store, "com.iosiap.example.nope", 1, NULL), IOSIAP_E_UNKNOWN_PRODUCT, LOCAL_TEXT("nope"));
    EXPECT_STATUS(iosiap_request_payment(&request, store, "com.iosiap.example.coins_100", 0, NULL), IOSIAP_E_QUANTITY_OUT_OF_RANGE, LOCAL_TEXT("quantity 0"));
    EXPECT_STATUS(iosiap_request_payment(&request, store, "com.iosiap.example.coins_100", 11, NULL), IOSIAP_E_QUANTITY_OUT_OF_RANGE, LOCAL_TEXT("quantity 11"));
    EXPECT_STATUS(iosiap_request_payment(&request, store, "com.iosiap.example.coins_100", -5, NULL), IOSIAP_E_QUANTITY_OUT_OF_RANGE, LOCAL_TEXT("quantity -5"));
    EXPECT_STATUS(iosiap_request_payment(&request, store, "com.iosiap.example.pro_upgrade", 2, NULL), IOSIAP_E_QUANTITY_NOT_ALLOWED, LOCAL_TEXT("only consumables"));
    EXPECT_STATUS(iosiap_request_payment(&request, store, "com.iosiap.example.coins_100", 1, "not-a-uuid"), IOSIAP_E_INVALID_ARGUMENT, "not a UUID");
    EXPECT_STATUS(iosiap_request_payment(&request, store, "com.iosiap.example.coins_100", 1, "\xff"), IOSIAP_E_INVALID_UTF8, "app_account_token");

    /* Other calls. */
    EXPECT_STATUS(iosiap_finish_transaction(store, 987654321), IOSIAP_E_UNKNOWN_TRANSACTION, LOCAL_TEXT("987654321"));
    EXPECT_STATUS(iosiap_store_product(NULL, store, "com.iosiap.example.coins_100"), IOSIAP_E_INVALID_ARGUMENT, "out is NULL");
    EXPECT_STATUS(iosiap_store_product(&product, store, "com.iosiap.example.nope"), IOSIAP_E_UNKNOWN_PRODUCT, "nope");
    EXPECT(product == NULL);
    EXPECT_STATUS(iosiap_store_product(&product, store, "com.iosiap.example.coins_100"), IOSIAP_OK, NULL);
    EXPECT(product != NULL && strcmp(iosiap_product_display_price(product), "$0.99") == 0);
    EXPECT_STATUS(iosiap_product_subscription_period(NULL, NULL, product), IOSIAP_E_WRONG_STATE, "not an auto-renewable");
    EXPECT_STATUS(iosiap_product_intro_offer(&offer, product), IOSIAP_E_WRONG_STATE, "no introductory offer");
    EXPECT(iosiap_product_promotional_offer_count(product) == 0 && iosiap_product_subscription_group(product) == NULL);

    /* A subscription's accessors, then offers asked for out of range. */
    seen.products = 0;
    EXPECT_STATUS(iosiap_request_products(&request, store, gold_id, 1), IOSIAP_OK, NULL);
    while (seen.products == 0) poll_for(store, 10);
    EXPECT_STATUS(iosiap_store_product(&gold, store, gold_id[0]), IOSIAP_OK, NULL);
    EXPECT_STATUS(iosiap_product_subscription_period(&period_value, &period_unit, gold), IOSIAP_OK, NULL);
    EXPECT(period_value == 1 && period_unit == IOSIAP_PERIOD_MONTH && iosiap_product_subscription_level(gold) == 1);
    EXPECT(strcmp(iosiap_product_subscription_group(gold), "5E1A7C01") == 0);
    EXPECT(strcmp(iosiap_product_subscription_group_name(gold), "Club") == 0);
    EXPECT_STATUS(iosiap_product_intro_offer(&offer, gold), IOSIAP_OK, NULL);
    EXPECT(offer.id == NULL && offer.payment_mode == IOSIAP_OFFER_FREE_TRIAL && offer.period_value == 1 &&
           offer.period_unit == IOSIAP_PERIOD_WEEK && offer.period_count == 1 && strcmp(offer.display_price, "$0.00") == 0);
    EXPECT_STATUS(iosiap_product_intro_offer(NULL, gold), IOSIAP_E_INVALID_ARGUMENT, "out is NULL");
    EXPECT(iosiap_product_promotional_offer_count(gold) == 1);
    EXPECT_STATUS(iosiap_product_promotional_offer(&offer, gold, 0), IOSIAP_OK, NULL);
    EXPECT(strcmp(offer.id, "club_gold_winback") == 0 && offer.payment_mode == IOSIAP_OFFER_PAY_AS_YOU_GO &&
           offer.period_count == 3 && strcmp(offer.price, "0.99") == 0);
    EXPECT_STATUS(iosiap_product_promotional_offer(&offer, gold, 1), IOSIAP_E_INVALID_ARGUMENT, "out of range");
    EXPECT_STATUS(iosiap_product_promotional_offer(&offer, NULL, 0), IOSIAP_E_INVALID_ARGUMENT, "product is NULL");
    EXPECT_STATUS(iosiap_product_subscription_period(NULL, NULL, NULL), IOSIAP_E_INVALID_ARGUMENT, "product is NULL");
    EXPECT(iosiap_product_id(NULL) == NULL && iosiap_product_type_of(NULL) == -1);
    EXPECT_STATUS(iosiap_is_entitled(NULL, store, "com.iosiap.example.pro_upgrade"), IOSIAP_E_INVALID_ARGUMENT, "out_entitled is NULL");
    EXPECT_STATUS(iosiap_is_entitled(&entitled, store, NULL), IOSIAP_E_INVALID_ARGUMENT, "product_id is NULL");
    EXPECT_STATUS(iosiap_poll(NULL, 0), IOSIAP_E_INVALID_ARGUMENT, "store is NULL");
    EXPECT_STATUS(iosiap_entitlements(NULL, NULL, NULL), IOSIAP_E_INVALID_ARGUMENT, "store is NULL");
    EXPECT_STATUS(iosiap_can_make_payments(NULL), IOSIAP_E_INVALID_ARGUMENT, "store is NULL");
    EXPECT_STATUS(iosiap_store_verifies(&entitled, NULL), IOSIAP_E_INVALID_ARGUMENT, "store is NULL");

    /* The grant ledger's bad input. */
    EXPECT_STATUS(iosiap_ledger_register_currency(store, "com.iosiap.example.coins_100", "coins", 0), IOSIAP_E_INVALID_ARGUMENT, LOCAL_TEXT("amount per unit 0"));
    EXPECT_STATUS(iosiap_ledger_register_currency(store, "com.iosiap.example.coins_100", NULL, 10), IOSIAP_E_INVALID_ARGUMENT, "currency is NULL");
    EXPECT_STATUS(iosiap_ledger_register_entitlement(store, NULL, "pro"), IOSIAP_E_INVALID_ARGUMENT, "product_id is NULL");
    EXPECT_STATUS(iosiap_ledger_register_entitlement(store, "com.iosiap.example.pro_upgrade", ""), IOSIAP_E_INVALID_ARGUMENT, LOCAL_TEXT("entitlement name"));
    EXPECT_STATUS(iosiap_ledger_balance(NULL, store, "coins"), IOSIAP_E_INVALID_ARGUMENT, "out_balance is NULL");
    EXPECT_STATUS(iosiap_ledger_spend(store, "coins", 5), IOSIAP_E_INSUFFICIENT_BALANCE, LOCAL_TEXT("the balance is 0"));
    EXPECT_STATUS(iosiap_ledger_spend(store, "coins", -5), IOSIAP_E_INVALID_ARGUMENT, LOCAL_TEXT("above 0"));
    EXPECT_STATUS(iosiap_ledger_has_entitlement(NULL, store, "pro"), IOSIAP_E_INVALID_ARGUMENT, "out_entitled is NULL");
    EXPECT_STATUS(iosiap_ledger_set_deduct_refunds(NULL, 1), IOSIAP_E_INVALID_ARGUMENT, "store is NULL");

    /* Nothing was charged by any of it. */
    poll_for(store, 100);
    EXPECT(seen.purchased == 0);
    EXPECT_STATUS(iosiap_entitlements(store, NULL, NULL), 0, NULL);

    /* One store per state directory: over StoreKit, per journal (the core's lock, either store). */
#ifdef IOSIAP_STOREKIT_STANDIN /* opened as above; the message is the core's */
    EXPECT_STATUS(iosiap_store_open_storekit(&threaded, &options, &callbacks),
                  IOSIAP_E_STATE_DIRECTORY_IN_USE, LOCAL_TEXT("another open store"));
#else
    EXPECT_STATUS(iosiap_store_open_local(&threaded, &options, &callbacks), IOSIAP_E_STATE_DIRECTORY_IN_USE, "another open store");
#endif
    EXPECT(threaded == NULL);

    /* A store that delivers on its own thread cannot be polled. */
    snprintf(threaded_state, sizeof threaded_state, "%s-threaded", argv[2]);
    options.state_directory = threaded_state;
    options.delivery = IOSIAP_DELIVERY_THREAD;
    callbacks.on_event = NULL;
#ifdef IOSIAP_STOREKIT_STANDIN /* opened as above, its journal there */
    EXPECT_STATUS(iosiap_store_open_storekit(&threaded, &options, &callbacks), IOSIAP_OK, NULL);
#else
    EXPECT_STATUS(iosiap_store_open_local(&threaded, &options, &callbacks), IOSIAP_OK, NULL);
#endif
    EXPECT_STATUS(iosiap_poll(threaded, 0), IOSIAP_E_WRONG_STATE, "IOSIAP_DELIVERY_THREAD");
    iosiap_store_close(threaded);

#ifndef IOSIAP_STOREKIT_STANDIN /* the stand-in's build has StoreKit: its bad options are checked at the open above */
    /* StoreKit exists only on Apple platforms: a clear answer here, not a crash. */
    {
        iosiap_storekit_options storekit = IOSIAP_STOREKIT_OPTIONS_INIT;
        iosiap_store *apple = NULL;
        storekit.state_directory = argv[2];
        EXPECT_STATUS(iosiap_store_open_storekit(&apple, &storekit, NULL), IOSIAP_E_SK_UNSUPPORTED_PLATFORM, "iosiap_store_open_local");
        EXPECT(apple == NULL);
        /* Its arguments are checked before anything opens, as the local store's are. */
        storekit.delivery = 7;
        EXPECT_STATUS(iosiap_store_open_storekit(&apple, &storekit, NULL), IOSIAP_E_INVALID_ARGUMENT, "delivery 7");
        storekit.delivery = IOSIAP_DELIVERY_POLL;
        {
            iosiap_verification_options verification = IOSIAP_VERIFICATION_OPTIONS_INIT;
            verification.mode = (iosiap_verification_mode)9;
            storekit.verification = &verification;
            EXPECT_STATUS(iosiap_store_open_storekit(&apple, &storekit, NULL), IOSIAP_E_INVALID_ARGUMENT, "verification.mode 9");
            storekit.verification = NULL;
        }
        storekit.version = 3;
        EXPECT_STATUS(iosiap_store_open_storekit(&apple, &storekit, NULL), IOSIAP_E_INVALID_ARGUMENT, "options version 3");
        EXPECT_STATUS(iosiap_store_open_storekit(NULL, &storekit, NULL), IOSIAP_E_INVALID_ARGUMENT, "out is NULL");
    }
#endif

    /* After close the handle is dead: refused, not a crash. */
    iosiap_store_close(store);
    iosiap_store_close(store);
    iosiap_store_close(NULL);
    EXPECT_STATUS(iosiap_request_restore(&request, store), IOSIAP_E_STORE_NOT_OPEN, "closed");
    EXPECT_STATUS(iosiap_request_payment(&request, store, "com.iosiap.example.coins_100", 1, NULL), IOSIAP_E_STORE_NOT_OPEN, "closed");
    EXPECT_STATUS(iosiap_poll(store, 0), IOSIAP_E_STORE_NOT_OPEN, "closed");
    EXPECT_STATUS(iosiap_finish_transaction(store, 1), IOSIAP_E_STORE_NOT_OPEN, "closed");
    EXPECT_STATUS(iosiap_store_verifies(&entitled, store), IOSIAP_E_STORE_NOT_OPEN, "closed");

#ifndef IOSIAP_STOREKIT_STANDIN /* the malformed catalog, written for iosiap_store_open_local only */
    remove(malformed_path);
#endif
    printf("bad_input: %d passed, %d failed\n", checks - failures, failures);
    return failures == 0 ? 0 : 1;
}
