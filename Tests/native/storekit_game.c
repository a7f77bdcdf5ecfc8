/*
 * A game on iPhone, as far as Linux can show it: libiosiap built with the behavioural StoreKit of
 * Tests/StoreKitStandIn, opened with iosiap_store_open_storekit, LiveStoreKit unchanged beneath it, and
 * `iosiap-store` changing the App Store from outside. Each frame polls the store and runs the main run loop, as
 * an iOS app's run loop runs between frames. What the player sees:
 * - products with prices; a purchase, granted and finished; a refund made from outside reaches the running game;
 * - Ask to Buy: DEFERRED, then PURCHASED once the parent approves from outside;
 * - a reinstall (a new, empty journal) is entitled at launch to what StoreKit's current entitlements hold, before
 *   any restore, and not to what was refunded;
 * - a restore whose App Store sign-in the user dismisses still gives back what is owned, and finishes with OK.
 * usage: storekit_game APP_STORE_STATE JOURNAL_1 JOURNAL_2 IOSIAP_STORE CATALOG
 * (IOSIAP_STOREKIT_CONFIGURATION and IOSIAP_STOREKIT_STATE name the App Store's catalog and state for the stand-in.)
 */
#include <iosiap/iosiap.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expect.h"
#include "storekit_standin.h"

static const char *pro = "com.iosiap.example.pro_upgrade";
static const char *gold = "com.iosiap.example.club_gold_monthly";
static const char *season = "com.iosiap.example.season_pass";
/* Per event kind: how many arrived, and the last one's transaction, product and status. */
static int count_kind[64];
static uint64_t last_transaction[64];
static char last_product[64][128];
static int last_status[64];
static int restored_gold, restored_pro, priced_products;

static void on_event(const iosiap_event *event, void *user_data) {
    size_t i;
    int kind = event->kind;
    (void)user_data;
    if (kind < 0 || kind >= 64) return;
    count_kind[kind]++;
    last_status[kind] = event->status;
    snprintf(last_product[kind], sizeof last_product[kind], "%s", event->product_id ? event->product_id : "");
    if (kind == IOSIAP_EVENT_PRODUCTS_RECEIVED)
        for (i = 0; i < event->product_count; i++)
            if (iosiap_product_display_price(event->products[i])[0]) priced_products++;
    if (!event->transaction) return;
    last_transaction[kind] = event->transaction->id;
    snprintf(last_product[kind], sizeof last_product[kind], "%s", event->transaction->product_id);
    if (event->kind == IOSIAP_EVENT_RESTORED) {
        if (strcmp(event->transaction->product_id, gold) == 0) restored_gold++;
        if (strcmp(event->transaction->product_id, pro) == 0) restored_pro++;
    }
}

/* One frame: the game polls, then the main run loop runs for 2 ms. */
static void frame(iosiap_store *store) {
    iosiap_poll(store, 0);
    EXPECT(storekit_standin_run_main_loop(0.002) == 0);
}

/* Runs frames until an event of `kind` arrives (at most about 10 s); 1 if one did. */
static int wait_for(iosiap_store *store, int kind) {
    int before = count_kind[kind], frames;
    for (frames = 0; frames < 5000 && count_kind[kind] == before; frames++) frame(store);
    return count_kind[kind] > before;
}

static int entitled(iosiap_store *store, const char *product) {
    int out = -1;
    EXPECT(iosiap_is_entitled(&out, store, product) == IOSIAP_OK);
    return out;
}

/* Runs frames until the entitlement to `product` is `expected` (at most about 10 s); 1 if it came to be. */
static int wait_entitled(iosiap_store *store, const char *product, int expected) {
    int frames;
    for (frames = 0; frames < 5000 && entitled(store, product) != expected; frames++) frame(store);
    return entitled(store, product) == expected;
}

static void outside(const char *tool, const char *state, const char *catalog, const char *arguments) {
    char command[4096];
    snprintf(command, sizeof command, "'%s' --state '%s' --catalog '%s' %s >/dev/null", tool, state, catalog, arguments);
    EXPECT(system(command) == 0);
}

static iosiap_store *open_game(const char *journal) {
    iosiap_storekit_options options = IOSIAP_STOREKIT_OPTIONS_INIT;
    iosiap_callbacks callbacks = IOSIAP_CALLBACKS_INIT;
    iosiap_store *store = NULL;
    const char *ids[] = {"com.iosiap.example.pro_upgrade", "com.iosiap.example.club_gold_monthly",
                         "com.iosiap.example.season_pass", "com.iosiap.example.coins_100"};
    options.state_directory = journal;
    callbacks.on_event = on_event;
    EXPECT(iosiap_store_open_storekit(&store, &options, &callbacks) == IOSIAP_OK);
    EXPECT(iosiap_request_products(NULL, store, ids, 4) == IOSIAP_OK);
    EXPECT(wait_for(store, IOSIAP_EVENT_PRODUCTS_RECEIVED));
    return store;
}

static uint64_t buy(iosiap_store *store, const char *product) {
    EXPECT(iosiap_request_payment(NULL, store, product, 1, NULL) == IOSIAP_OK);
    EXPECT(wait_for(store, IOSIAP_EVENT_PURCHASED) && strcmp(last_product[IOSIAP_EVENT_PURCHASED], product) == 0);
    EXPECT(iosiap_finish_transaction(store, last_transaction[IOSIAP_EVENT_PURCHASED]) == IOSIAP_OK);
    return last_transaction[IOSIAP_EVENT_PURCHASED];
}

int main(int argc, char **argv) {
    iosiap_store *store;
    uint64_t pro_transaction;
    char arguments[64];
    const char *app_store, *tool, *catalog;

    if (argc != 6) return 2;
    app_store = argv[1];
    tool = argv[4];
    catalog = argv[5];

    /* First install: products with prices, purchases, a refund from outside, Ask to Buy. */
    store = open_game(argv[2]);
    EXPECT(priced_products == 4);
    pro_transaction = buy(store, pro);
    EXPECT(entitled(store, pro) == 1);
    buy(store, gold);
    snprintf(arguments, sizeof arguments, "refund %llu", (unsigned long long)pro_transaction);
    outside(tool, app_store, catalog, arguments);
    EXPECT(wait_for(store, IOSIAP_EVENT_REVOKED) && last_transaction[IOSIAP_EVENT_REVOKED] == pro_transaction);
    EXPECT(entitled(store, pro) == 0);

    outside(tool, app_store, catalog, "ask-to-buy on");
    EXPECT(iosiap_request_payment(NULL, store, season, 1, NULL) == IOSIAP_OK);
    EXPECT(wait_for(store, IOSIAP_EVENT_DEFERRED) && strcmp(last_product[IOSIAP_EVENT_DEFERRED], season) == 0);
    outside(tool, app_store, catalog, "approve 1");
    EXPECT(wait_for(store, IOSIAP_EVENT_PURCHASED) && strcmp(last_product[IOSIAP_EVENT_PURCHASED], season) == 0);
    EXPECT(iosiap_finish_transaction(store, last_transaction[IOSIAP_EVENT_PURCHASED]) == IOSIAP_OK);
    EXPECT(count_kind[IOSIAP_EVENT_DECLINED] == 0);
    iosiap_store_close(store);

    /* A reinstall: an empty journal. Entitled at launch to what StoreKit's current entitlements hold. */
    store = open_game(argv[3]);
    EXPECT(wait_entitled(store, gold, 1) && wait_entitled(store, season, 1));
    EXPECT(entitled(store, pro) == 0);

    /* A restore whose sign-in the user dismisses: what is owned comes back, and the restore finishes with OK. */
    EXPECT(storekit_standin_set_sync_cancelled(1) == 0);
    EXPECT(iosiap_request_restore(NULL, store) == IOSIAP_OK);
    EXPECT(wait_for(store, IOSIAP_EVENT_RESTORE_FINISHED));
    EXPECT(last_status[IOSIAP_EVENT_RESTORE_FINISHED] == IOSIAP_OK && restored_gold == 1 && restored_pro == 0);
    iosiap_store_close(store);
    printf("storekit_game: %d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
