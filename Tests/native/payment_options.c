/*
 * iosiap_payment_options in every published version, through the C ABI on the local store: a version 1
 * caller's struct (which ends after offer_signature), a version 2 caller's (which ends after ui_context) and a
 * version 3 caller's (which ends after win_back_offer_id) are read up to their end and not a byte further, and
 * ui_context is accepted and ignored by the local store. The example catalog's products have no win-back offers
 * (subscription_offers.c redeems some); offers_jws.c redeems version 4's JWS.
 * Built with IOSIAP_STOREKIT_STANDIN against the stand-in's libiosiap (scripts/test-storekit-standin.sh), the same
 * over StoreKit, where version 2's ui_context is the game's window scene the purchase confirms in.
 * usage: payment_options CATALOG STATE_DIRECTORY [IOSIAP_STORE]
 * (IOSIAP_STORE is not used: scripts/test-storekit-standin.sh passes it to every test it runs.)
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#define _POSIX_C_SOURCE 200809L /* nanosleep, setenv */
#include <iosiap/iosiap.h>

#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "expect.h"
#include "wait_for.h"

static const char *coins = "com.iosiap.example.coins_100";
static const char *gold = "com.iosiap.example.club_gold_monthly";
static int last_quantity;
static uint64_t last_transaction;

static void on_event(const iosiap_event *event, void *user_data) {
    (void)user_data;
    count_event(event);
    if (event->transaction) {
        last_transaction = event->transaction->id;
        last_quantity = event->transaction->quantity;
    }
}

/* An older version's struct, `size` bytes, that ends where the page ends: the next page cannot be read, so a
   read past the struct stops the test with SIGSEGV instead of passing unseen. */
static iosiap_payment_options *older_version_at_page_end(size_t size) {
    long page = sysconf(_SC_PAGESIZE);
    unsigned char *pages = mmap(NULL, (size_t)page * 2, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (pages == MAP_FAILED || mprotect(pages + page, (size_t)page, PROT_NONE) != 0) return NULL;
    return (iosiap_payment_options *)(void *)(pages + page - size);
}

int main(int argc, char **argv) {
    iosiap_store *store = NULL;
    const char *ids[2];
    const iosiap_product *product = NULL;
    iosiap_offer offer = IOSIAP_OFFER_INIT;
    iosiap_payment_options options = IOSIAP_PAYMENT_OPTIONS_INIT;
    iosiap_payment_options *v1 = older_version_at_page_end(offsetof(iosiap_payment_options, ui_context));
    iosiap_payment_options *v2 = older_version_at_page_end(offsetof(iosiap_payment_options, win_back_offer_id));
    iosiap_payment_options *v3 = older_version_at_page_end(offsetof(iosiap_payment_options, offer_jws));

    if ((argc != 3 && argc != 4) || v1 == NULL || v2 == NULL || v3 == NULL) return 2;
    ids[0] = coins;
    ids[1] = gold;
    if ((store = open_test_store(argv[1], argv[2], NULL, on_event)) == NULL) return 1;
    EXPECT(iosiap_request_products(NULL, store, ids, 2) == IOSIAP_OK);
    EXPECT(wait_for(store, IOSIAP_EVENT_PRODUCTS_RECEIVED));

    /* Version 4, the header's: INIT sets it, with no UI context, no win-back offer and no JWS. */
    EXPECT(options.version == 4 && IOSIAP_PAYMENT_OPTIONS_VERSION == 4 && options.ui_context == NULL);
    EXPECT(options.win_back_offer_id == NULL && options.offer_jws == NULL && options.intro_offer_eligibility_jws == NULL);

    /* Version 1: the fields it has, nothing after them. */
    memcpy(v1, &options, offsetof(iosiap_payment_options, ui_context));
    v1->version = 1;
    v1->quantity = 2;
    EXPECT(iosiap_request_payment_with_options(NULL, store, coins, v1) == IOSIAP_OK);
    EXPECT(wait_for(store, IOSIAP_EVENT_PURCHASED) && last_quantity == 2);
    EXPECT(iosiap_finish_transaction(store, last_transaction) == IOSIAP_OK);
    v1->quantity = 0;
    EXPECT(iosiap_request_payment_with_options(NULL, store, coins, v1) == IOSIAP_E_QUANTITY_OUT_OF_RANGE);

    /* Version 2 with a UI context, the game's window scene: the fields it has, nothing after them. The local store
       ignores the context (it never dereferences it); StoreKit confirms the purchase in that scene. */
    memcpy(v2, &options, offsetof(iosiap_payment_options, win_back_offer_id));
    v2->version = 2;
    v2->quantity = 3;
    v2->ui_context = game_scene();
    EXPECT(iosiap_request_payment_with_options(NULL, store, coins, v2) == IOSIAP_OK);
    EXPECT(wait_for(store, IOSIAP_EVENT_PURCHASED) && last_quantity == 3);
    EXPECT(iosiap_finish_transaction(store, last_transaction) == IOSIAP_OK);

    /* Version 3: the fields it has, nothing after them (no JWS is read where version 4 has them). */
    memcpy(v3, &options, offsetof(iosiap_payment_options, offer_jws));
    v3->version = 3;
    v3->quantity = 4;
    EXPECT(iosiap_request_payment_with_options(NULL, store, coins, v3) == IOSIAP_OK);
    EXPECT(wait_for(store, IOSIAP_EVENT_PURCHASED) && last_quantity == 4);
    EXPECT(iosiap_finish_transaction(store, last_transaction) == IOSIAP_OK);

    /* Version 3 with a win-back offer the product lacks: refused before anything is queued. */
    v3->quantity = 1;
    v3->win_back_offer_id = "no_such_offer";
    EXPECT(iosiap_request_payment_with_options(NULL, store, gold, v3) == IOSIAP_E_SK_INVALID_OFFER_IDENTIFIER);

    /* Versions this library does not know are refused before anything is queued. */
    options.version = 5;
    EXPECT(iosiap_request_payment_with_options(NULL, store, coins, &options) == IOSIAP_E_INVALID_ARGUMENT);
    EXPECT(strstr(iosiap_last_error_message(), "IOSIAP_PAYMENT_OPTIONS_INIT") != NULL);

    /* Win-back offers: the example catalog's gold subscription has none. */
    EXPECT(iosiap_store_product(&product, store, gold) == IOSIAP_OK);
    EXPECT(iosiap_product_win_back_offer_count(product) == 0 && iosiap_product_win_back_offer_count(NULL) == 0);
    EXPECT(iosiap_product_win_back_offer(&offer, product, 0) == IOSIAP_E_INVALID_ARGUMENT);
    EXPECT(strstr(iosiap_last_error_message(), "out of range") != NULL);
    EXPECT(iosiap_product_win_back_offer(&offer, NULL, 0) == IOSIAP_E_INVALID_ARGUMENT);

    iosiap_store_close(store);
    printf("payment_options: %d checks, %d failed\n", checks, failures);
    return failures == 0 ? 0 : 1;
}
